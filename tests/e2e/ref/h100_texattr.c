// SPDX-License-Identifier: MIT
/*
 * Probe of what NVIDIA's driver reports and answers around textures on a
 * real GPU: every device attribute's value; cuDeviceGetTexture1DLinearMaxWidth
 * per format and channel count; which fields cuTexObjectGetTextureDesc
 * writes back (border colours with and without a border address mode);
 * tex with integer coordinates out of range under each address mode.
 * Output: one "name = value" per line. Not built by the tree: it needs
 * NVIDIA's headers and libcuda. Run on an H100-class GPU (CUDA 13.0) as
 *   gcc -I/usr/local/cuda/include h100_texattr.c -lcuda -o t && ./t
 * Its output is h100_texattr.log.
 */
#include <cuda.h>
#include <stdio.h>
#include <string.h>

#define R(name, call) printf("%s = %d\n", name, (int)(call))

static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .entry k(.param .u64 t, .param .u64 out, .param .s32 x, .param .s32 y)\n{\n"
	"  .reg .f32 %f<5>; .reg .b64 %rd<3>; .reg .b32 %r<3>;\n"
	"  ld.param.u64 %rd1, [t]; ld.param.u64 %rd2, [out];\n"
	"  ld.param.s32 %r1, [x]; ld.param.s32 %r2, [y];\n"
	"  tex.2d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %r2}];\n"
	"  st.global.v4.f32 [%rd2], {%f1, %f2, %f3, %f4};\n  ret;\n}\n";

int main(void)
{
	static const struct { CUarray_format f; const char *n; } fmts[] = {
		{ CU_AD_FORMAT_UNSIGNED_INT8, "u8" }, { CU_AD_FORMAT_SIGNED_INT16, "s16" },
		{ CU_AD_FORMAT_UNSIGNED_INT32, "u32" }, { CU_AD_FORMAT_HALF, "half" },
		{ CU_AD_FORMAT_FLOAT, "float" },
	};
	CUDA_ARRAY3D_DESCRIPTOR ad = { .Width = 8, .Height = 8, .Format = CU_AD_FORMAT_FLOAT,
				       .NumChannels = 1 };
	CUDA_RESOURCE_DESC r = { .resType = CU_RESOURCE_TYPE_ARRAY };
	CUDA_TEXTURE_DESC t, g;
	float hv[64], res[4];
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;
	CUdeviceptr out;
	CUtexObject o;
	CUarray a;
	int v, i, m;
	size_t w;

	cuInit(0);
	cuCtxCreate(&ctx, NULL, 0, 0);
	for (i = 1; i < 160; i++)
		if (!cuDeviceGetAttribute(&v, (CUdevice_attribute)i, 0))
			printf("attr %d = %d\n", i, v);
	for (i = 0; i < 5; i++)
		for (m = 1; m <= 4; m *= 2) {
			CUresult e;

			w = 777;
			e = cuDeviceGetTexture1DLinearMaxWidth(&w, fmts[i].f, m, 0);
			printf("linear max %s x%d = %d %zu\n", fmts[i].n, m, (int)e, w);
		}
	for (i = 0; i < 64; i++)
		hv[i] = (float)i + 0.5f;
	cuArray3DCreate(&a, &ad);
	{
		CUDA_MEMCPY2D c = { 0 };

		c.srcMemoryType = CU_MEMORYTYPE_HOST;
		c.srcHost = hv;
		c.srcPitch = 32;
		c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		c.dstArray = a;
		c.WidthInBytes = 32;
		c.Height = 8;
		cuMemcpy2D(&c);
	}
	r.res.array.hArray = a;
	cuModuleLoadData(&mod, ptx);
	cuModuleGetFunction(&f, mod, "k");
	cuMemAlloc(&out, 16);
	for (m = 0; m < 4; m++) {
		static const int at[][2] = { { 3, 2 }, { 9, 1 }, { -1, 0 }, { 2, 8 }, { -5, -5 } };

		memset(&t, 0, sizeof(t));
		t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = (CUaddress_mode)m;
		t.borderColor[0] = 0.25f;
		t.borderColor[1] = 0.5f;
		t.borderColor[2] = 2.0f;
		t.borderColor[3] = -1.0f;
		t.flags = m == 0 || m == 2 ? CU_TRSF_NORMALIZED_COORDINATES : 0;
		printf("mode %d create = %d\n", m, (int)cuTexObjectCreate(&o, &r, &t, NULL));
		memset(&g, 0xcc, sizeof(g));
		printf("mode %d get = %d\n", m, (int)cuTexObjectGetTextureDesc(&g, o));
		printf("mode %d get values = addr %d %d %d filter %d flags 0x%x aniso %u mipfilter %d bias %g min %g max %g border %g %g %g %g\n",
		       m, g.addressMode[0], g.addressMode[1], g.addressMode[2], g.filterMode,
		       g.flags, g.maxAnisotropy, g.mipmapFilterMode, g.mipmapLevelBias,
		       g.minMipmapLevelClamp, g.maxMipmapLevelClamp, g.borderColor[0],
		       g.borderColor[1], g.borderColor[2], g.borderColor[3]);
		for (i = 0; i < 5; i++) {
			void *args[] = { &o, &out, (void *)&at[i][0], (void *)&at[i][1] };

			cuMemsetD32(out, 0x7fc00000, 4);
			cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL);
			printf("mode %d int coords %d %d sync = %d\n", m, at[i][0], at[i][1],
			       (int)cuCtxSynchronize());
			cuMemcpyDtoH(res, out, 16);
			printf("mode %d int coords %d %d = %g %g %g %g\n", m, at[i][0], at[i][1],
			       res[0], res[1], res[2], res[3]);
		}
		cuTexObjectDestroy(o);
	}
	printf("exit 0\n");
	return 0;
}
