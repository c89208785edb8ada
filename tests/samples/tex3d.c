// SPDX-License-Identifier: MIT
/*
 * tex3d.cu over 3D arrays of normalized integers (32 x 24 x 16 of 8-bit,
 * 20 x 12 x 8 of 16-bit pairs), filtered linearly in x, y and z with
 * normalized coordinates and a different address mode per axis, at 48 x
 * 40 x 12 points; compared bit for bit with an H100's. The host checks
 * the bounds a blend must keep: each output lies within the texels' range.
 */
#include "sample.h"

enum { W = 32, H = 24, D = 16, W2 = 20, H2 = 12, D2 = 8, OW = 48, OH = 40, OD = 12 };

static CUarray array3d(CUarray_format f, unsigned int ch, size_t w, size_t h, size_t d,
		       const void *src, size_t bpp)
{
	CUDA_ARRAY3D_DESCRIPTOR ad = { .Width = w, .Height = h, .Depth = d,
				       .Format = f, .NumChannels = ch };
	CUDA_MEMCPY3D c = { 0 };
	CUarray a;

	TRY(cuArray3DCreate(&a, &ad));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = src;
	c.srcPitch = w * bpp;
	c.srcHeight = h;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = a;
	c.WidthInBytes = w * bpp;
	c.Height = h;
	c.Depth = d;
	TRY(cuMemcpy3D(&c));
	return a;
}

static CUtexObject texture(CUarray a, CUaddress_mode x, CUaddress_mode y, CUaddress_mode z)
{
	CUDA_RESOURCE_DESC r = { .resType = CU_RESOURCE_TYPE_ARRAY };
	CUDA_TEXTURE_DESC t = { 0 };
	CUtexObject o;

	r.res.array.hArray = a;
	t.addressMode[0] = x;
	t.addressMode[1] = y;
	t.addressMode[2] = z;
	t.filterMode = CU_TR_FILTER_MODE_LINEAR;
	t.flags = CU_TRSF_NORMALIZED_COORDINATES;
	TRY(cuTexObjectCreate(&o, &r, &t, NULL));
	return o;
}

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "tex3d");
	static unsigned char v8[W * H * D];
	static unsigned short v16[W2 * H2 * D2 * 2];
	static float out[OW * OH * OD * 2];
	int w = OW, h = OH, d = OD, i, bad = 0, off = 0;
	CUtexObject t;
	CUdeviceptr o;
	CUarray a8, a16;
	void *args[] = { &o, &w, &h, &d, &t };

	for (i = 0; i < W * H * D; i++)
		v8[i] = (unsigned char)(i * 7 + (i >> 5) * 13);
	for (i = 0; i < W2 * H2 * D2 * 2; i++)
		v16[i] = (unsigned short)(i * 2654435761u >> 16);
	a8 = array3d(CU_AD_FORMAT_UNSIGNED_INT8, 1, W, H, D, v8, 1);
	a16 = array3d(CU_AD_FORMAT_UNSIGNED_INT16, 2, W2, H2, D2, v16, 4);
	TRY(cuMemAlloc(&o, sizeof(out)));

	t = texture(a8, CU_TR_ADDRESS_MODE_WRAP, CU_TR_ADDRESS_MODE_CLAMP,
		    CU_TR_ADDRESS_MODE_MIRROR);
	TRY(cuLaunchKernel(sample_func(mod, "sample3d"), OW / 16, OH / 8, OD, 16, 8, 1, 0,
			   NULL, args, NULL));
	TRY(cuMemcpyDtoH(out, o, sizeof(float) * OW * OH * OD));
	for (i = 0; i < OW * OH * OD; i++)
		off += !(out[i] >= 0.0f && out[i] <= 1.0f);
	bad += sample_output("tex3d", "u8", out, sizeof(float) * OW * OH * OD, 0);
	TRY(cuTexObjectDestroy(t));

	t = texture(a16, CU_TR_ADDRESS_MODE_BORDER, CU_TR_ADDRESS_MODE_MIRROR,
		    CU_TR_ADDRESS_MODE_CLAMP);
	TRY(cuLaunchKernel(sample_func(mod, "sample3d2"), OW / 16, OH / 8, OD, 16, 8, 1, 0,
			   NULL, args, NULL));
	TRY(cuMemcpyDtoH(out, o, sizeof(out)));
	for (i = 0; i < OW * OH * OD * 2; i++)
		off += !(out[i] >= 0.0f && out[i] <= 1.0f);
	bad += sample_output("tex3d", "u16x2", out, sizeof(out), 0);
	TRY(cuTexObjectDestroy(t));

	printf("blends: %d outside [0, 1]\n", off);
	bad += off != 0;
	TRY(cuArrayDestroy(a8));
	TRY(cuArrayDestroy(a16));
	TRY(cuMemFree(o));
	return sample_result(bad);
}
