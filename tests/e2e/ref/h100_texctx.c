// SPDX-License-Identifier: MIT
/*
 * Texture and surface objects of one context over another context's
 * array, on an H100 (its log: h100_texctx.log, read by texobj_api).
 * Build against NVIDIA's driver: gcc -std=c11 h100_texctx.c -lcuda
 */
#include <stdio.h>
#include <string.h>

#include <cuda.h>

int main(void)
{
	CUDA_ARRAY3D_DESCRIPTOR ad = { 4, 4, 0, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST };
	CUDA_RESOURCE_DESC rd = { .resType = CU_RESOURCE_TYPE_ARRAY };
	CUDA_TEXTURE_DESC td = { .filterMode = CU_TR_FILTER_MODE_POINT };
	CUDA_ARRAY3D_DESCRIPTOR got;
	CUDA_MEMCPY2D c = { 0 };
	CUcontext a, b;
	CUtexObject t = 0;
	CUsurfObject s = 0;
	CUdevice d;
	CUarray arr;
	float h[16];
	int i;

	for (i = 0; i < 16; i++)
		h[i] = (float)i;
	cuInit(0);
	cuDeviceGet(&d, 0);
	printf("ctx a = %d\n", cuCtxCreate(&a, NULL, 0, d));
	printf("array in a = %d\n", cuArray3DCreate(&arr, &ad));
	printf("ctx b = %d\n", cuCtxCreate(&b, NULL, 0, d));
	rd.res.array.hArray = arr;
	printf("texobj in b over a's array = %d\n", cuTexObjectCreate(&t, &rd, &td, NULL));
	printf("surfobj in b over a's array = %d\n", cuSurfObjectCreate(&s, &rd));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = h;
	c.srcPitch = 16;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = arr;
	c.WidthInBytes = 16;
	c.Height = 4;
	printf("copy in b to a's array = %d\n", cuMemcpy2D(&c));
	printf("descriptor in b of a's array = %d\n", cuArray3DGetDescriptor(&got, arr));
	printf("destroy b = %d\n", cuCtxDestroy(b));
	printf("destroy a = %d\n", cuCtxDestroy(a));
	return 0;
}
