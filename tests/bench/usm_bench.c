// SPDX-License-Identifier: MIT
/*
 * The native engine as a program meets it, measured in one run:
 *   native_launch_saxpy_vs_c: saxpy over 2^20 floats (4096 blocks of 256
 *	threads) launched with cuLaunchKernel and waited for with
 *	cuCtxSynchronize, its blocks on one user-mode SM (VGPU_ENGINE=native,
 *	VGPU_USM_THREADS=1), over the same loop in C on one thread (this
 *	file's flags). Unlike native_bench's engine_saxpy_vs_c, which runs
 *	the blocks straight through the engine, it counts what the module
 *	and the library add: taking blocks from the module and reporting
 *	them (USM_WAIT, USM_DONE), the launch's start and end. The best of
 *	ROUNDS each; results are checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench_cuda.h"
#include "usm_files.h"

#define N (1 << 20)
#define BLOCK 256
#define ROUNDS 10

static const char ptx[] =
	".version 9.0\n.target sm_75\n.address_size 64\n"
	".visible .entry saxpy(.param .u32 n, .param .f32 a, .param .u64 x, .param .u64 y)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<5>;\n\t.reg .f32 %f<5>;\n"
	"\t.reg .b64 %rd<6>;\n"
	"\tld.param.u32 %r1, [n];\n\tld.param.f32 %f1, [a];\n"
	"\tld.param.u64 %rd1, [x];\n\tld.param.u64 %rd2, [y];\n"
	"\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
	"\tmov.u32 %r4, %tid.x;\n\tmad.lo.s32 %r2, %r2, %r3, %r4;\n"
	"\tsetp.ge.s32 %p1, %r2, %r1;\n\t@%p1 bra $L__end;\n"
	"\tmul.wide.s32 %rd3, %r2, 4;\n\tadd.s64 %rd4, %rd1, %rd3;\n"
	"\tadd.s64 %rd5, %rd2, %rd3;\n\tld.global.f32 %f2, [%rd4];\n"
	"\tld.global.f32 %f3, [%rd5];\n\tmul.rn.f32 %f4, %f2, %f1;\n"
	"\tadd.rn.f32 %f4, %f4, %f3;\n"
	"\tst.global.f32 [%rd5], %f4;\n"
	"$L__end:\n\tret;\n}\n";

/* y = a * x + y, as the kernel computes it (a product, then a sum). */
static void saxpy_c(float a, const float *x, float *y, int n)
{
	int i;

	for (i = 0; i < n; i++)
		y[i] = a * x[i] + y[i];
}

int main(void)
{
	float *x = malloc(N * 4), *y = malloc(N * 4), *got = malloc(N * 4);
	float *ref = malloc(N * 4), a = 2.0f;
	double t, t_gpu = 1e9, t_c = 1e9;
	CUdeviceptr dx, dy;
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;
	int n = N, i, r;
	void *args[] = { &n, &a, &dx, &dy };

	if (!x || !y || !got || !ref)
		return 1;
	setenv("VGPU_ENGINE", "native", 1);
	setenv("VGPU_USM_THREADS", "1", 1);
	for (i = 0; i < N; i++) {
		x[i] = (float)(i % 1000) * 0.25f;
		y[i] = (float)(i % 77);
	}
	TRY(cuInit(0));
	TRY(cuCtxCreate(&ctx, NULL, 0, 0));
	TRY(cuModuleLoadData(&mod, ptx));
	TRY(cuModuleGetFunction(&f, mod, "saxpy"));
	TRY(cuMemAlloc(&dx, N * 4));
	TRY(cuMemAlloc(&dy, N * 4));
	TRY(cuMemcpyHtoD(dx, x, N * 4));
	/* The first launch compiles the kernel: not timed. */
	TRY(cuMemcpyHtoD(dy, y, N * 4));
	TRY(cuLaunchKernel(f, N / BLOCK, 1, 1, BLOCK, 1, 1, 0, NULL, args, NULL));
	TRY(cuCtxSynchronize());
	if (usm_files() != 1) {
		fprintf(stderr, "usm_bench: the launch did not run on one user-mode SM (%d)\n",
			usm_files());
		return 1;
	}
	for (r = 0; r < ROUNDS; r++) {
		TRY(cuMemcpyHtoD(dy, y, N * 4));
		t = now_s();
		TRY(cuLaunchKernel(f, N / BLOCK, 1, 1, BLOCK, 1, 1, 0, NULL, args, NULL));
		TRY(cuCtxSynchronize());
		t = now_s() - t;
		t_gpu = t < t_gpu ? t : t_gpu;
	}
	TRY(cuMemcpyDtoH(got, dy, N * 4));
	for (r = 0; r < ROUNDS; r++) {
		memcpy(ref, y, N * 4);
		t = now_s();
		saxpy_c(a, x, ref, N);
		t = now_s() - t;
		t_c = t < t_c ? t : t_c;
	}
	if (memcmp(got, ref, N * 4)) {
		fprintf(stderr, "usm_bench: saxpy results differ\n");
		return 1;
	}
	printf("native_launch_saxpy_vs_c: %.2f\n", t_gpu / t_c);
	TRY(cuCtxDestroy(ctx));
	free(x);
	free(y);
	free(got);
	free(ref);
	return 0;
}
