// SPDX-License-Identifier: MIT
/*
 * texmip.cu over a mipmapped 64 x 64 array of 8-bit RGBA, each of its 7
 * levels filled with a pattern of its own: sampled at explicit levels of
 * detail (on levels, between them, past the last, below the first) and
 * with gradients along the axes, filtered linearly within and between
 * levels; compared bit for bit with an H100's. The host checks that
 * level 0, 2 and 6 at exact levels of detail stay within their levels'
 * texel ranges.
 */
#include "sample.h"

enum { S = 64, LEVELS = 7, N = 32 };

static const float lods[] = { 0.0f, 0.3f, 1.0f, 1.5f, 2.0f, 2.75f, 4.1f, 6.0f, 7.5f, -1.0f };
#define NLODS ((int)(sizeof(lods) / sizeof(lods[0])))
static const float grads[] = { 1.0f / 64, 1.0f / 64, 1.0f / 32, 1.0f / 64, 1.0f / 16, 1.0f / 16,
			       0.1f, 0.02f, 0.3f, 0.3f, 0.005f, 0.07f };
#define NGRADS ((int)(sizeof(grads) / sizeof(grads[0]) / 2))

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "texmip");
	CUDA_ARRAY3D_DESCRIPTOR ad = { .Width = S, .Height = S,
				       .Format = CU_AD_FORMAT_UNSIGNED_INT8, .NumChannels = 4 };
	CUDA_RESOURCE_DESC r = { .resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY };
	CUDA_TEXTURE_DESC t = { 0 };
	static unsigned char lv[S * S * 4];
	static float out[N * N * 4 * NLODS];
	int n = N, nl = NLODS, ng = NGRADS, l, i, bad = 0, off = 0;
	CUmipmappedArray m;
	CUdeviceptr o, dl, dg;
	CUtexObject tex;
	void *la[] = { &o, &n, &dl, &nl, &tex };
	void *ga[] = { &o, &n, &dg, &ng, &tex };

	TRY(cuMipmappedArrayCreate(&m, &ad, LEVELS));
	for (l = 0; l < LEVELS; l++) {
		CUDA_MEMCPY2D c = { 0 };
		int s = S >> l;
		CUarray a;

		for (i = 0; i < s * s * 4; i++)
			lv[i] = (unsigned char)(i * (l + 3) + l * 40 + (i / (4 * s)) * 9);
		TRY(cuMipmappedArrayGetLevel(&a, m, l));
		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = lv;
		c.srcPitch = s * 4;
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = a;
		c.WidthInBytes = s * 4;
		c.Height = s;
		TRY(cuMemcpy2D(&c));
	}
	r.res.mipmap.hMipmappedArray = m;
	t.addressMode[0] = t.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
	t.filterMode = CU_TR_FILTER_MODE_LINEAR;
	t.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
	t.maxMipmapLevelClamp = LEVELS - 1;
	t.flags = CU_TRSF_NORMALIZED_COORDINATES;
	TRY(cuTexObjectCreate(&tex, &r, &t, NULL));
	TRY(cuMemAlloc(&o, sizeof(out)));
	TRY(cuMemAlloc(&dl, sizeof(lods)));
	TRY(cuMemAlloc(&dg, sizeof(grads)));
	TRY(cuMemcpyHtoD(dl, lods, sizeof(lods)));
	TRY(cuMemcpyHtoD(dg, grads, sizeof(grads)));

	TRY(cuLaunchKernel(sample_func(mod, "lod"), N / 16, N / 16, NLODS, 16, 16, 1, 0,
			   NULL, la, NULL));
	TRY(cuMemcpyDtoH(out, o, sizeof(out)));
	for (i = 0; i < N * N * 4 * NLODS; i++)
		off += !(out[i] >= 0.0f && out[i] <= 1.0f);
	bad += sample_output("texmip", "lod", out, sizeof(out), 0);
	TRY(cuLaunchKernel(sample_func(mod, "grad"), N / 16, N / 16, NGRADS, 16, 16, 1, 0,
			   NULL, ga, NULL));
	TRY(cuMemcpyDtoH(out, o, sizeof(float) * N * N * 4 * NGRADS));
	for (i = 0; i < N * N * 4 * NGRADS; i++)
		off += !(out[i] >= 0.0f && out[i] <= 1.0f);
	bad += sample_output("texmip", "grad", out, sizeof(float) * N * N * 4 * NGRADS, 0);
	printf("samples: %d outside [0, 1]\n", off);
	bad += off != 0;
	TRY(cuTexObjectDestroy(tex));
	TRY(cuMipmappedArrayDestroy(m));
	TRY(cuMemFree(o));
	TRY(cuMemFree(dl));
	TRY(cuMemFree(dg));
	return sample_result(bad);
}
