// SPDX-License-Identifier: MIT
/*
 * texoffset.cu: PTX texel offsets on tex (plain, integer coordinates,
 * .level, .grad), tld4 (whose offsets are wider), 1D, 2D layered and 3D
 * textures, offsets in registers and immediates, with point and
 * linear filtering, normalized and unnormalized coordinates and each
 * address mode, and tex's depth comparison operand; compared bit for bit
 * with an H100's. Texels hold their own coordinates (x + 32 y + 1 ...),
 * so a result tells where the offset moved the footprint.
 */
#include "sample.h"

enum { N = 1620, S = 16 };

static CUarray array(unsigned int w, unsigned int h, unsigned int d, unsigned int flags,
		     const float *src)
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
	c.srcHeight = h ? h : 1;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = a;
	c.WidthInBytes = w * sizeof(float);
	c.Height = h ? h : 1;
	c.Depth = d ? d : 1;
	TRY(cuMemcpy3D(&c));
	return a;
}

/* Texture configurations: filter, coordinates, address mode. */
enum { LIN_CLAMP, NORM_LIN_WRAP, NORM_PT_MIRROR, NORM_LIN_BORDER, PT_CLAMP, CONFIGS };

static CUtexObject texture(CUarray a, int cfg)
{
	static const CUaddress_mode modes[CONFIGS] = {
		CU_TR_ADDRESS_MODE_CLAMP, CU_TR_ADDRESS_MODE_WRAP, CU_TR_ADDRESS_MODE_MIRROR,
		CU_TR_ADDRESS_MODE_BORDER, CU_TR_ADDRESS_MODE_CLAMP,
	};
	CUDA_RESOURCE_DESC r = { .resType = CU_RESOURCE_TYPE_ARRAY };
	CUDA_TEXTURE_DESC t = { 0 };
	CUtexObject o;
	int k;

	r.res.array.hArray = a;
	for (k = 0; k < 3; k++)
		t.addressMode[k] = modes[cfg];
	t.filterMode = cfg == NORM_PT_MIRROR || cfg == PT_CLAMP ? CU_TR_FILTER_MODE_POINT :
								   CU_TR_FILTER_MODE_LINEAR;
	t.flags = cfg == LIN_CLAMP || cfg == PT_CLAMP ? 0 : CU_TRSF_NORMALIZED_COORDINATES;
	t.borderColor[0] = -5.0f;
	TRY(cuTexObjectCreate(&o, &r, &t, NULL));
	return o;
}

static float scale_of(int cfg)
{
	return cfg == LIN_CLAMP || cfg == PT_CLAMP ? 1.0f : 1.0f / S;
}

static int run(CUmodule mod, const char *kernel, const char *name, void **args, size_t n4,
	       CUdeviceptr o)
{
	static float out[3 * N * 4];

	TRY(cuMemsetD8(o, 0, sizeof(out)));
	TRY(cuLaunchKernel(sample_func(mod, kernel), (N + 127) / 128, 1, 1, 128, 1, 1, 0, NULL,
			   args, NULL));
	TRY(cuMemcpyDtoH(out, o, n4 * N * 4 * sizeof(float)));
	return sample_output("texoffset", name, out, n4 * N * 4 * sizeof(float), 0);
}

int main(int argc, char **argv)
{
	static const char *const names[CONFIGS] = {
		"lin_clamp", "norm_lin_wrap", "norm_pt_mirror", "norm_lin_border", "pt_clamp",
	};
	CUmodule mod = sample_open(argc, argv, "texoffset");
	static float t2[S * S], t1[S], tl[2 * S * S], t3[8 * 8 * 8];
	CUarray a2, a1, al, a3;
	CUtexObject t, u1, ul, u3;
	CUdeviceptr o;
	char name[64];
	int n = N, cfg, x, y, z, bad = 0;
	float scale;

	for (y = 0; y < S; y++)
		for (x = 0; x < S; x++) {
			t2[y * S + x] = (float)(x + 32 * y + 1);
			tl[y * S + x] = t2[y * S + x];
			tl[S * S + y * S + x] = t2[y * S + x] + 1000.0f;
		}
	for (x = 0; x < S; x++)
		t1[x] = (float)(x + 1);
	for (z = 0; z < 8; z++)
		for (y = 0; y < 8; y++)
			for (x = 0; x < 8; x++)
				t3[(z * 8 + y) * 8 + x] = (float)(x + 16 * y + 256 * z + 1);
	a2 = array(S, S, 0, 0, t2);
	a1 = array(S, 0, 0, 0, t1);
	al = array(S, S, 2, CUDA_ARRAY3D_LAYERED, tl);
	a3 = array(8, 8, 8, 0, t3);
	TRY(cuMemAlloc(&o, 3 * N * 4 * sizeof(float)));

	for (cfg = 0; cfg < CONFIGS; cfg++) {
		void *args[] = { &o, &n, &t, &scale };

		t = texture(a2, cfg);
		scale = scale_of(cfg);
		snprintf(name, sizeof(name), "2d_%s", names[cfg]);
		bad += run(mod, "off2d", name, args, 1, o);
		if (cfg == PT_CLAMP) {
			bad += run(mod, "off2di", "2di", args, 1, o);
			bad += run(mod, "depth", "depth_pt", args, 2, o);
		}
		if (cfg == LIN_CLAMP || cfg == NORM_LIN_WRAP) {
			snprintf(name, sizeof(name), "more_%s", names[cfg]);
			bad += run(mod, "offmore", name, args, 3, o);
			snprintf(name, sizeof(name), "gatherwide_%s", names[cfg]);
			bad += run(mod, "gatherwide", name, args, 3, o);
		}
		if (cfg == LIN_CLAMP)
			bad += run(mod, "depth", "depth_lin", args, 2, o);
		TRY(cuTexObjectDestroy(t));
	}
	for (cfg = 0; cfg < CONFIGS; cfg++) {
		void *args[] = { &o, &n, &u1, &ul, &u3, &scale };

		if (cfg != LIN_CLAMP && cfg != NORM_LIN_WRAP && cfg != NORM_PT_MIRROR)
			continue;
		u1 = texture(a1, cfg);
		ul = texture(al, cfg);
		u3 = texture(a3, cfg);
		scale = scale_of(cfg);
		snprintf(name, sizeof(name), "dims_%s", names[cfg]);
		bad += run(mod, "offdims", name, args, 3, o);
		TRY(cuTexObjectDestroy(u1));
		TRY(cuTexObjectDestroy(ul));
		TRY(cuTexObjectDestroy(u3));
	}
	TRY(cuArrayDestroy(a2));
	TRY(cuArrayDestroy(a1));
	TRY(cuArrayDestroy(al));
	TRY(cuArrayDestroy(a3));
	TRY(cuMemFree(o));
	return sample_result(bad);
}
