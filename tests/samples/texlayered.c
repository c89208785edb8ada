// SPDX-License-Identifier: MIT
/*
 * texlayered.cu over a layered 2D array (64 x 48, 5 layers), a cubemap
 * (32 x 32) and a layered cubemap (16 x 16, 3 cubes) of floats. At texel
 * centres with point sampling each output is exactly its texel (checked
 * here); off the centres, with linear filtering, the results are compared
 * bit for bit with an H100's.
 */
#include "sample.h"

enum { W = 64, H = 48, L = 5, N = 32, CN = 16, CUBES = 3 };

static CUarray array3d(size_t w, size_t h, size_t d, unsigned int flags, const float *src)
{
	CUDA_ARRAY3D_DESCRIPTOR ad = { .Width = w, .Height = h, .Depth = d,
				       .Format = CU_AD_FORMAT_FLOAT, .NumChannels = 1,
				       .Flags = flags };
	CUDA_MEMCPY3D c = { 0 };
	CUarray a;

	TRY(cuArray3DCreate(&a, &ad));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = src;
	c.srcPitch = w * sizeof(float);
	c.srcHeight = h;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = a;
	c.WidthInBytes = w * sizeof(float);
	c.Height = h;
	c.Depth = d;
	TRY(cuMemcpy3D(&c));
	return a;
}

static CUtexObject texture(CUarray a, int linear)
{
	CUDA_RESOURCE_DESC r = { .resType = CU_RESOURCE_TYPE_ARRAY };
	CUDA_TEXTURE_DESC t = { 0 };
	CUtexObject o;

	r.res.array.hArray = a;
	t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = CU_TR_ADDRESS_MODE_CLAMP;
	t.filterMode = linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
	t.flags = CU_TRSF_NORMALIZED_COORDINATES;
	TRY(cuTexObjectCreate(&o, &r, &t, NULL));
	return o;
}

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "texlayered");
	static float lay[W * H * L], cube[N * N * 6], cl[CN * CN * 6 * CUBES];
	static float out[W * H * L];
	CUfunction fl = sample_func(mod, "layered"), fc = sample_func(mod, "cubemap");
	int w = W, h = H, l = L, n = N, cn = CN, cubes = CUBES, i, bad = 0, wrong = 0;
	float dx, dy, d;
	CUarray al, ac, acl;
	CUtexObject t;
	CUdeviceptr o;
	void *la[] = { &o, &w, &h, &l, &dx, &dy, &t };
	void *ca[] = { &o, &n, &d, &t };
	void *cla[] = { &o, &cn, &cubes, &t };

	for (i = 0; i < W * H * L; i++)
		lay[i] = (float)(i % (W * H)) * 0.25f + (float)(i / (W * H)) * 1000.0f;
	for (i = 0; i < N * N * 6; i++)
		cube[i] = (float)((i * 37) % 1024) / 64.0f + (float)(i / (N * N));
	for (i = 0; i < CN * CN * 6 * CUBES; i++)
		cl[i] = (float)i * 0.5f;
	al = array3d(W, H, L, CUDA_ARRAY3D_LAYERED, lay);
	ac = array3d(N, N, 6, CUDA_ARRAY3D_CUBEMAP, cube);
	acl = array3d(CN, CN, 6 * CUBES, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED, cl);
	TRY(cuMemAlloc(&o, sizeof(out)));

	/* Layered: centres, point sampled, give -texel + layer. */
	t = texture(al, 0);
	dx = dy = 0.5f;
	TRY(cuLaunchKernel(fl, W / 16, H / 16, L, 16, 16, 1, 0, NULL, la, NULL));
	TRY(cuMemcpyDtoH(out, o, sizeof(float) * W * H * L));
	for (i = 0; i < W * H * L; i++)
		wrong += out[i] != -lay[i] + (float)(i / (W * H));
	TRY(cuTexObjectDestroy(t));
	t = texture(al, 1);
	dx = 0.3f;
	dy = 0.85f;
	TRY(cuLaunchKernel(fl, W / 16, H / 16, L, 16, 16, 1, 0, NULL, la, NULL));
	TRY(cuMemcpyDtoH(out, o, sizeof(float) * W * H * L));
	bad += sample_output("texlayered", "layered", out, sizeof(float) * W * H * L, 0);
	TRY(cuTexObjectDestroy(t));

	/* Cubemap: each face's texel centres give the texel back. */
	t = texture(ac, 0);
	d = 0.5f;
	TRY(cuLaunchKernel(fc, N / 16, N / 16, 6, 16, 16, 1, 0, NULL, ca, NULL));
	TRY(cuMemcpyDtoH(out, o, sizeof(float) * N * N * 6));
	for (i = 0; i < N * N * 6; i++)
		wrong += out[i] != cube[i];
	TRY(cuTexObjectDestroy(t));
	t = texture(ac, 1);
	d = 0.2f;
	TRY(cuLaunchKernel(fc, N / 16, N / 16, 6, 16, 16, 1, 0, NULL, ca, NULL));
	TRY(cuMemcpyDtoH(out, o, sizeof(float) * N * N * 6));
	bad += sample_output("texlayered", "cubemap", out, sizeof(float) * N * N * 6, 0);
	TRY(cuTexObjectDestroy(t));

	/* Layered cubemap, filtered. */
	t = texture(acl, 1);
	TRY(cuLaunchKernel(sample_func(mod, "cubelayered"), CUBES, 1, 1, CN, 1, 1, 0,
			   NULL, cla, NULL));
	TRY(cuMemcpyDtoH(out, o, sizeof(float) * CN * CUBES));
	bad += sample_output("texlayered", "cubelayered", out, sizeof(float) * CN * CUBES, 0);
	TRY(cuTexObjectDestroy(t));

	printf("texel centres: %d of %d wrong\n", wrong, W * H * L + N * N * 6);
	bad += wrong != 0;
	TRY(cuArrayDestroy(al));
	TRY(cuArrayDestroy(ac));
	TRY(cuArrayDestroy(acl));
	TRY(cuMemFree(o));
	return sample_result(bad);
}
