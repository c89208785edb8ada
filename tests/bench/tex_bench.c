// SPDX-License-Identifier: MIT
/*
 * Texture benchmark, a ratio measured in one run (run it inside the VM
 * bench; `make bench` does). Prints a line "NAME: VALUE":
 *   tex2d_linear_vs_global_load  a kernel sampling a 512 x 512 float
 *                                texture with linear filtering, one fetch
 *                                per thread / the same kernel reading the
 *                                texel from global memory instead
 * Each time is the best of several launches after a first one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench/bench_cuda.h"

#define W 512
#define H 512
#define REPS 5

/* Both kernels: thread (x, y) of a 2D grid writes out[y * W + x]. */
#define KERNEL_HEAD(name, src) \
	".visible .entry " name "(.param .u64 " src ", .param .u64 out)\n{\n" \
	"\t.reg .b32 %r<12>;\n\t.reg .f32 %f<8>;\n\t.reg .b64 %rd<8>;\n" \
	"\tld.param.u64 %rd1, [" src "];\n\tld.param.u64 %rd2, [out];\n" \
	"\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %ntid.x;\n\tmov.u32 %r3, %tid.x;\n" \
	"\tmad.lo.s32 %r4, %r1, %r2, %r3;\n" \
	"\tmov.u32 %r5, %ctaid.y;\n\tmov.u32 %r6, %ntid.y;\n\tmov.u32 %r7, %tid.y;\n" \
	"\tmad.lo.s32 %r8, %r5, %r6, %r7;\n" \
	"\tmad.lo.s32 %r9, %r8, 512, %r4;\n" \
	"\tmul.wide.u32 %rd3, %r9, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n"

static const char ptx[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	KERNEL_HEAD("sample", "t")
	"\tcvt.rn.f32.u32 %f1, %r4;\n\tcvt.rn.f32.u32 %f2, %r8;\n"
	"\tadd.f32 %f1, %f1, 0f3E800000;\n\tadd.f32 %f2, %f2, 0f3F400000;\n"
	"\ttex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [%rd1, {%f1, %f2}];\n"
	"\tst.global.f32 [%rd4], %f3;\n\tret;\n}\n"
	KERNEL_HEAD("load", "in")
	"\tadd.s64 %rd5, %rd1, %rd3;\n\tld.global.f32 %f3, [%rd5];\n"
	"\tst.global.f32 [%rd4], %f3;\n\tret;\n}\n";

/* Seconds of the fastest of REPS launches of @f over @src. */
static double best(CUfunction f, unsigned long long src, CUdeviceptr out)
{
	void *args[] = { &src, &out };
	double b = 1e9, t;
	int i;

	for (i = 0; i <= REPS; i++) {
		t = now_s();
		TRY(cuLaunchKernel(f, W / 16, H / 16, 1, 16, 16, 1, 0, NULL, args, NULL));
		TRY(cuCtxSynchronize());
		t = now_s() - t;
		if (i && t < b)
			b = t;
	}
	return b;
}

int main(void)
{
	CUDA_ARRAY_DESCRIPTOR ad = { .Width = W, .Height = H, .Format = CU_AD_FORMAT_FLOAT,
				     .NumChannels = 1 };
	CUDA_RESOURCE_DESC r = { .resType = CU_RESOURCE_TYPE_ARRAY };
	CUDA_TEXTURE_DESC td = { .addressMode = { CU_TR_ADDRESS_MODE_CLAMP,
						  CU_TR_ADDRESS_MODE_CLAMP },
				 .filterMode = CU_TR_FILTER_MODE_LINEAR };
	CUDA_MEMCPY2D c = { 0 };
	static float img[W * H], out[W * H];
	CUdeviceptr in, dout;
	CUfunction fs, fl;
	double t_tex, t_load;
	CUcontext ctx;
	CUtexObject t;
	CUmodule mod;
	CUarray a;
	int i, bad = 0;

	for (i = 0; i < W * H; i++)
		img[i] = (float)(i % 977) * 0.5f;
	TRY(cuInit(0));
	TRY(cuCtxCreate(&ctx, NULL, 0, 0));
	TRY(cuModuleLoadData(&mod, ptx));
	TRY(cuModuleGetFunction(&fs, mod, "sample"));
	TRY(cuModuleGetFunction(&fl, mod, "load"));
	TRY(cuArrayCreate(&a, &ad));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = img;
	c.srcPitch = W * 4;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = a;
	c.WidthInBytes = W * 4;
	c.Height = H;
	TRY(cuMemcpy2D(&c));
	r.res.array.hArray = a;
	TRY(cuTexObjectCreate(&t, &r, &td, NULL));
	TRY(cuMemAlloc(&in, sizeof(img)));
	TRY(cuMemAlloc(&dout, sizeof(out)));
	TRY(cuMemcpyHtoD(in, img, sizeof(img)));

	t_tex = best(fs, t, dout);
	/* A blend of texels (x - 1, y) .. (x, y + 1): within their range. */
	TRY(cuMemcpyDtoH(out, dout, sizeof(out)));
	for (i = 0; i < W * H; i++) {
		int x = i % W, y = i / W, xl = x ? x - 1 : 0, yh = y + 1 < H ? y + 1 : y;
		float lo = img[i], hi = img[i], v[3] = { img[y * W + xl], img[yh * W + x],
							  img[yh * W + xl] };
		int k;

		for (k = 0; k < 3; k++) {
			lo = v[k] < lo ? v[k] : lo;
			hi = v[k] > hi ? v[k] : hi;
		}
		bad += !(out[i] >= lo && out[i] <= hi);
	}
	t_load = best(fl, in, dout);
	TRY(cuMemcpyDtoH(out, dout, sizeof(out)));
	for (i = 0; i < W * H; i++)
		bad += out[i] != img[i];
	if (bad) {
		fprintf(stderr, "tex_bench: %d results wrong\n", bad);
		return 1;
	}
	printf("tex2d_linear_vs_global_load: %.2f\n", t_tex / t_load);
	return 0;
}
