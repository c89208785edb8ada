// SPDX-License-Identifier: MIT
/*
 * Managed-memory benchmark, a ratio measured in one run (run it inside
 * the VM bench; `make bench` does). Prints a line "NAME: VALUE":
 *   managed_kernel_vs_device  a kernel streaming over 4 MiB of managed
 *                             memory (y = a * x + y, each element read
 *                             and written) / the same kernel over device
 *                             memory
 * Each time is the best of several launches, after a first one that the
 * comparison leaves out (the memory's first touch).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench/bench_cuda.h"

#define N (1u << 20)
#define REPS 5

static const char ptx[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	".visible .entry saxpy(.param .u64 px, .param .u64 py, .param .f32 a,"
	" .param .u32 n)\n{\n"
	"\t.reg .pred %p;\n\t.reg .b32 %r<6>;\n\t.reg .f32 %f<5>;\n"
	"\t.reg .b64 %rd<7>;\n"
	"\tld.param.u64 %rd1, [px];\n\tld.param.u64 %rd2, [py];\n"
	"\tld.param.f32 %f1, [a];\n\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
	"\tmov.u32 %r4, %tid.x;\n\tmad.lo.s32 %r5, %r2, %r3, %r4;\n"
	"\tsetp.ge.u32 %p, %r5, %r1;\n\t@%p bra done;\n"
	"\tmul.wide.u32 %rd3, %r5, 4;\n\tadd.s64 %rd4, %rd1, %rd3;\n"
	"\tadd.s64 %rd5, %rd2, %rd3;\n\tld.global.f32 %f2, [%rd4];\n"
	"\tld.global.f32 %f3, [%rd5];\n\tfma.rn.f32 %f4, %f1, %f2, %f3;\n"
	"\tst.global.f32 [%rd5], %f4;\ndone:\n\tret;\n}\n";

/* Seconds of the fastest of REPS launches over @x and @y. */
static double best(CUfunction f, CUdeviceptr x, CUdeviceptr y)
{
	unsigned int n = N;
	float a = 2.0f;
	void *args[] = { &x, &y, &a, &n };
	double b = 1e9, t;
	int i;

	for (i = 0; i <= REPS; i++) {
		t = now_s();
		TRY(cuLaunchKernel(f, N / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
		TRY(cuCtxSynchronize());
		t = now_s() - t;
		if (i && t < b)
			b = t;
	}
	return b;
}

int main(void)
{
	CUdeviceptr dx, dy, mx, my;
	CUcontext ctx;
	CUfunction f;
	CUmodule mod;
	CUdevice dev;
	double t_dev, t_man;
	unsigned int i;
	float *hx, *hy;

	TRY(cuInit(0));
	TRY(cuDeviceGet(&dev, 0));
	TRY(cuDevicePrimaryCtxRetain(&ctx, dev));
	TRY(cuCtxSetCurrent(ctx));
	TRY(cuModuleLoadData(&mod, ptx));
	TRY(cuModuleGetFunction(&f, mod, "saxpy"));
	TRY(cuMemAlloc(&dx, N * 4));
	TRY(cuMemAlloc(&dy, N * 4));
	TRY(cuMemAllocManaged(&mx, N * 4, CU_MEM_ATTACH_GLOBAL));
	TRY(cuMemAllocManaged(&my, N * 4, CU_MEM_ATTACH_GLOBAL));
	hx = (float *)(uintptr_t)mx;
	hy = (float *)(uintptr_t)my;
	for (i = 0; i < N; i++) {
		hx[i] = (float)i;
		hy[i] = 1.0f;
	}
	TRY(cuMemcpyHtoD(dx, hx, N * 4));
	TRY(cuMemcpyHtoD(dy, hy, N * 4));
	t_dev = best(f, dx, dy);
	t_man = best(f, mx, my);
	/* Both ran the same launches: the same results. */
	TRY(cuMemcpyDtoH(hx, dy, N * 4));
	for (i = 0; i < N; i++)
		if (hx[i] != hy[i]) {
			fprintf(stderr, "managed and device results differ at %u\n", i);
			return 1;
		}
	printf("managed_kernel_vs_device: %.2f\n", t_man / t_dev);
	return 0;
}
