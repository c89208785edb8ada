// SPDX-License-Identifier: MIT
/*
 * surfwrite.cu over a 128 x 96 float array made for surface loads and
 * stores: a kernel writes it through a surface object; the host reads it
 * back and checks every texel; a second kernel reads it through the
 * surface (each texel's right neighbour, clamped at the edge: checked
 * here too) and through a texture object with linear filtering, whose
 * results are compared bit for bit with an H100's.
 */
#include "sample.h"

enum { W = 128, H = 96 };

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "surfwrite");
	CUDA_ARRAY3D_DESCRIPTOR ad = { .Width = W, .Height = H, .Format = CU_AD_FORMAT_FLOAT,
				       .NumChannels = 1, .Flags = CUDA_ARRAY3D_SURFACE_LDST };
	CUDA_RESOURCE_DESC r = { .resType = CU_RESOURCE_TYPE_ARRAY };
	CUDA_TEXTURE_DESC t = { 0 };
	static float host[W * H], same[W * H], filt[W * H];
	CUDA_MEMCPY2D c = { 0 };
	int w = W, h = H, x, y, wrong = 0, bad = 0;
	CUdeviceptr ds, df;
	CUsurfObject s;
	CUtexObject tx;
	CUarray a;
	void *wa[] = { &s, &w, &h };
	void *ra[] = { &ds, &df, &w, &h, &s, &tx };

	TRY(cuArray3DCreate(&a, &ad));
	r.res.array.hArray = a;
	TRY(cuSurfObjectCreate(&s, &r));
	t.addressMode[0] = t.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
	t.filterMode = CU_TR_FILTER_MODE_LINEAR;
	TRY(cuTexObjectCreate(&tx, &r, &t, NULL));
	TRY(cuLaunchKernel(sample_func(mod, "write"), W / 16, H / 16, 1, 16, 16, 1, 0,
			   NULL, wa, NULL));
	c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	c.srcArray = a;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = host;
	c.dstPitch = W * sizeof(float);
	c.WidthInBytes = W * sizeof(float);
	c.Height = H;
	TRY(cuMemcpy2D(&c));
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			wrong += host[y * W + x] !=
				(float)(x * 3 - y * 2) * 0.125f + (float)((x * y) & 7);

	TRY(cuMemAlloc(&ds, sizeof(same)));
	TRY(cuMemAlloc(&df, sizeof(filt)));
	TRY(cuLaunchKernel(sample_func(mod, "read"), W / 16, H / 16, 1, 16, 16, 1, 0,
			   NULL, ra, NULL));
	TRY(cuMemcpyDtoH(same, ds, sizeof(same)));
	TRY(cuMemcpyDtoH(filt, df, sizeof(filt)));
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			wrong += same[y * W + x] != host[y * W + (x + 1 < W ? x + 1 : W - 1)];
	printf("surface: %d of %d texels wrong\n", wrong, 2 * W * H);
	bad += wrong != 0;
	bad += sample_output("surfwrite", "texels", host, sizeof(host), 0);
	bad += sample_output("surfwrite", "filtered", filt, sizeof(filt), 0);
	TRY(cuTexObjectDestroy(tx));
	TRY(cuSurfObjectDestroy(s));
	TRY(cuArrayDestroy(a));
	TRY(cuMemFree(ds));
	TRY(cuMemFree(df));
	return sample_result(bad);
}
