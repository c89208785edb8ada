// SPDX-License-Identifier: MIT
/*
 * The native engine's benchmark, run on the host (`make bench` runs it
 * before the VM's). Prints "NAME: VALUE" lines, ratios within this run:
 *   host_engine_saxpy_vs_c   the native engine running saxpy (vgpu ISA,
 *                            bench_kernels.h) / the same loop in C built
 *                            with -O3 -march=native; one thread each
 *   host_engine_matmul_vs_c  the tiled matrix multiply
 *   host_engine_reduce_vs_c  the shared-memory tree reduction
 *   native_compile_ms        compiling the matmul kernel to host code (IR,
 *                            optimisation, code generation, linking), with
 *                            LLVM already set up for the process
 *   native_init_ms           that set-up (the JIT, the host's target), once
 *                            per process
 * Each time is the best of a few runs. The engine's results are checked
 * against the C's.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"
#include "native.h"
#include "bench/bench_host.h"
#include "bench/bench_kernels.h"
#include "bench/native_ref.h"

#define REPS 5

static struct vgpu_native_kernel *compile(const struct vgpu_insn *code, unsigned int n,
					  const struct vgpu_func *f, double *ms)
{
	struct vgpu_program prog = { code, n, f, 1 };
	struct vgpu_native_kernel *k;
	char why[160];
	double t = now();

	k = vgpu_native_compile(&prog, 0, why, sizeof(why));
	if (ms)
		*ms = (now() - t) * 1e3;
	if (!k) {
		fprintf(stderr, "native engine refused the kernel: %s\n", why);
		exit(1);
	}
	return k;
}

/* A whole grid on the native engine, one block after another; seconds. */
static double run_native(struct vgpu_native_kernel *k, const struct vgpu_insn *code,
			 unsigned int n, const struct vgpu_func *f, const unsigned int grid[2],
			 const unsigned int block[2], const void *params,
			 const struct vgpu_range *mem, unsigned int nmem)
{
	struct vgpu_program prog = { code, n, f, 1 };
	struct vgpu_launch l = {
		.prog = &prog, .func = f, .grid = { grid[0], grid[1], 1 },
		.block = { block[0], block[1], 1 }, .params = params, .nsmid = 1,
	};
	struct vgpu_native_block *b = vgpu_native_block_new(k, &l, mem, nmem);
	unsigned int i;
	double t;
	int r;

	t = now();
	for (i = 0; i < grid[0] * grid[1]; i++) {
		vgpu_native_block_start(b, i);
		do
			r = vgpu_native_block_run(b, 1 << 20);
		while (r == VGPU_RUN_MORE);
		if (r != VGPU_RUN_DONE) {
			fprintf(stderr, "native engine: block %u faulted\n", i);
			exit(1);
		}
	}
	t = now() - t;
	vgpu_native_block_free(b);
	return t;
}

static bool same(const float *a, const float *b, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (fabsf(a[i] - b[i]) > 1e-3f * (fabsf(b[i]) + 1))
			return false;
	return true;
}

int main(void)
{
	enum { SN = 1 << 20, MN = 128, RB = 4096 };
	float *x = malloc(SN * 4), *y = malloc(SN * 4), *y2 = malloc(SN * 4);
	float *y3 = malloc(SN * 4);
	float *a = malloc(MN * MN * 4), *b = malloc(MN * MN * 4);
	float *c = malloc(MN * MN * 4), *c2 = malloc(MN * MN * 4);
	float *rin = malloc(RB * 256 * 4), *rout = malloc(RB * 4), *rout2 = malloc(RB * 4);
	struct vgpu_native_kernel *k;
	double t, t_eng, t_c, compile_ms, init_ms;
	unsigned int r;
	char why[160];

	bench_inputs(x, y, SN, a, b, MN, rin, RB);

	t = now();
	if (vgpu_native_init(why, sizeof(why))) {
		fprintf(stderr, "native engine: %s\n", why);
		return 1;
	}
	init_ms = (now() - t) * 1e3;

	/* matmul first: its compile is the process's first */
	{
		struct { uint64_t a, b, c; uint32_t n; } p = { (uintptr_t)a, (uintptr_t)b, (uintptr_t)c2, MN };
		struct vgpu_range mem[3] = { range(a, MN * MN * 4), range(b, MN * MN * 4),
					     range(c2, MN * MN * 4) };
		struct vgpu_func f = { .nregs = 27, .npreds = 2, .param_bytes = 28,
				       .shared_bytes = 2048 };
		unsigned int grid[2] = { MN / 16, MN / 16 }, block[2] = { 16, 16 };

		k = compile(matmul, sizeof(matmul) / sizeof(matmul[0]), &f, &compile_ms);
		for (t_eng = 1e9, r = 0; r < REPS; r++) {
			t = run_native(k, matmul, sizeof(matmul) / sizeof(matmul[0]), &f, grid,
				       block, &p, mem, 3);
			t_eng = t < t_eng ? t : t_eng;
		}
		vgpu_native_kernel_free(k);
		for (t_c = 1e9, r = 0; r < REPS; r++) {
			t = now();
			ref_matmul(a, b, c, MN);
			t = now() - t;
			t_c = t < t_c ? t : t_c;
		}
		if (!same(c2, c, MN * MN))
			fprintf(stderr, "matmul: results differ\n");
		printf("host_engine_matmul_vs_c: %.2f\n", t_eng / t_c);
	}

	/* saxpy */
	{
		struct { uint64_t x, y; float a; uint32_t n; } p = { (uintptr_t)x, (uintptr_t)y2, 2.0f, SN };
		struct vgpu_range mem[2] = { range(x, SN * 4), range(y2, SN * 4) };
		struct vgpu_func f = { .nregs = 10, .npreds = 1, .param_bytes = 24 };
		unsigned int grid[2] = { SN / 256, 1 }, block[2] = { 256, 1 };

		k = compile(saxpy, sizeof(saxpy) / sizeof(saxpy[0]), &f, NULL);
		for (t_eng = 1e9, r = 0; r < REPS; r++) {
			memcpy(y2, y, SN * 4);
			t = run_native(k, saxpy, sizeof(saxpy) / sizeof(saxpy[0]), &f, grid,
				       block, &p, mem, 2);
			t_eng = t < t_eng ? t : t_eng;
		}
		vgpu_native_kernel_free(k);
		for (t_c = 1e9, r = 0; r < REPS; r++) {
			memcpy(y3, y, SN * 4);
			t = now();
			ref_saxpy(2.0f, x, y3, SN);
			t = now() - t;
			t_c = t < t_c ? t : t_c;
		}
		if (!same(y2, y3, SN))
			fprintf(stderr, "saxpy: results differ\n");
		printf("host_engine_saxpy_vs_c: %.2f\n", t_eng / t_c);
	}

	/* reduce */
	{
		struct { uint64_t in, out; } p = { (uintptr_t)rin, (uintptr_t)rout2 };
		struct vgpu_range mem[2] = { range(rin, RB * 256 * 4), range(rout2, RB * 4) };
		struct vgpu_func f = { .nregs = 15, .npreds = 3, .param_bytes = 16,
				       .shared_bytes = 1024 };
		unsigned int grid[2] = { RB, 1 }, block[2] = { 256, 1 };

		k = compile(reduce, sizeof(reduce) / sizeof(reduce[0]), &f, NULL);
		for (t_eng = 1e9, r = 0; r < REPS; r++) {
			t = run_native(k, reduce, sizeof(reduce) / sizeof(reduce[0]), &f, grid,
				       block, &p, mem, 2);
			t_eng = t < t_eng ? t : t_eng;
		}
		vgpu_native_kernel_free(k);
		for (t_c = 1e9, r = 0; r < REPS; r++) {
			t = now();
			ref_reduce(rin, rout, RB);
			t = now() - t;
			t_c = t < t_c ? t : t_c;
		}
		if (!same(rout2, rout, RB))
			fprintf(stderr, "reduce: results differ\n");
		printf("host_engine_reduce_vs_c: %.2f\n", t_eng / t_c);
	}
	printf("native_compile_ms: %.1f\n", compile_ms);
	printf("native_init_ms: %.1f\n", init_ms);
	return 0;
}
