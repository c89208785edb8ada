// SPDX-License-Identifier: MIT
/*
 * The native engine's benchmark, run on the host (`make bench` runs it
 * before the VM's), and with --vm in the VM, whose names lose "host_"
 * and whose own figures gain "vm_" (the C is then built for the VM's CPU,
 * the Makefile's vm/native_bench). Prints "NAME: VALUE" lines, ratios
 * within this run:
 *   host_engine_saxpy_vs_c   the native engine running saxpy (vgpu ISA,
 *                            bench_kernels.h) / the same loop in C built
 *                            with -O3 -march=native; one thread each
 *   host_engine_matmul_vs_c  the tiled matrix multiply
 *   host_engine_reduce_vs_c  the shared-memory tree reduction
 *   host_engine_scaling_2sm  the matmul (256 x 256) over two SMs (threads
 *                            taking its blocks in turn, as user-mode SMs
 *                            do) / over one: the speed-up
 *   native_compile_ms        compiling the matmul kernel to host code (IR,
 *                            optimisation, code generation, linking), with
 *                            LLVM already set up for the process
 *   native_init_ms           that set-up (the JIT, the host's target), once
 *                            per process
 *   native_cache_hit_ms      compiling the matmul when the on-disk cache
 *                            holds it (a cache directory of the bench's
 *                            own; the figures above are measured with the
 *                            cache off)
 * Each time is the best of a few runs (the engine's launches are
 * native_time.c's). The engine's results are checked against the C's.
 */
#include <dirent.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "native.h"
#include "bench/bench_host.h"
#include "bench/native_ref.h"
#include "bench/native_time.h"

#define REPS 5

static bool same(const float *a, const float *b, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (fabsf(a[i] - b[i]) > 1e-3f * (fabsf(b[i]) + 1))
			return false;
	return true;
}

/* The matmul's compile when the cache holds it: ms, or -1. */
static double cache_hit_ms(const float *a, const float *b, float *c, unsigned int n)
{
	char dir[] = "/tmp/vgpu_native_bench_XXXXXX", path[sizeof(dir) + 256];
	double hit_ms;
	struct dirent *e;
	DIR *d;

	if (!mkdtemp(dir))
		return -1;
	setenv("CUDA_CACHE_PATH", dir, 1);
	unsetenv("CUDA_CACHE_DISABLE");
	native_time_matmul(a, b, c, n, 1, NULL, 1);	/* compiled, kept */
	native_time_matmul(a, b, c, n, 1, &hit_ms, 1);
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	d = opendir(dir);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
	return hit_ms;
}

int main(int argc, char **argv)
{
	enum { SN = 1 << 20, MN = 128, RB = 4096, SM_N = 256 };
	float *x = malloc(SN * 4), *y = malloc(SN * 4), *y2 = malloc(SN * 4);
	float *y3 = malloc(SN * 4);
	float *a = malloc(MN * MN * 4), *b = malloc(MN * MN * 4);
	float *c = malloc(MN * MN * 4), *c2 = malloc(MN * MN * 4);
	float *rin = malloc(RB * 256 * 4), *rout = malloc(RB * 4), *rout2 = malloc(RB * 4);
	double t, t_eng, t_c, compile_ms, init_ms;
	unsigned int r;
	char why[160];
	bool vm = argc > 1 && !strcmp(argv[1], "--vm");
	const char *pfx = vm ? "" : "host_", *own = vm ? "vm_" : "";

	if (argc > 2 || (argc == 2 && !vm)) {
		fprintf(stderr, "usage: %s [--vm]\n", argv[0]);
		return 2;
	}
	/* Every compile measured is a compile, and none lands in a cache. */
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	bench_inputs(x, y, SN, a, b, MN, rin, RB);

	t = now();
	if (vgpu_native_init(why, sizeof(why))) {
		fprintf(stderr, "native engine: %s\n", why);
		return 1;
	}
	init_ms = (now() - t) * 1e3;

	/* matmul first: its compile is the process's first */
	t_eng = native_time_matmul(a, b, c2, MN, REPS, &compile_ms, 1);
	for (t_c = 1e9, r = 0; r < REPS; r++) {
		t = now();
		ref_matmul(a, b, c, MN);
		t = now() - t;
		t_c = t < t_c ? t : t_c;
	}
	if (!same(c2, c, MN * MN))
		fprintf(stderr, "matmul: results differ\n");
	printf("%sengine_matmul_vs_c: %.2f\n", pfx, t_eng / t_c);

	t_eng = native_time_saxpy(2.0f, x, y, y2, SN, REPS);
	for (t_c = 1e9, r = 0; r < REPS; r++) {
		memcpy(y3, y, SN * 4);
		t = now();
		ref_saxpy(2.0f, x, y3, SN);
		t = now() - t;
		t_c = t < t_c ? t : t_c;
	}
	if (!same(y2, y3, SN))
		fprintf(stderr, "saxpy: results differ\n");
	printf("%sengine_saxpy_vs_c: %.2f\n", pfx, t_eng / t_c);

	t_eng = native_time_reduce(rin, rout2, RB, REPS);
	for (t_c = 1e9, r = 0; r < REPS; r++) {
		t = now();
		ref_reduce(rin, rout, RB);
		t = now() - t;
		t_c = t < t_c ? t : t_c;
	}
	if (!same(rout2, rout, RB))
		fprintf(stderr, "reduce: results differ\n");
	printf("%sengine_reduce_vs_c: %.2f\n", pfx, t_eng / t_c);

	/* A larger matmul, its blocks over one SM, then over two. */
	{
		float *sa = malloc(SM_N * SM_N * 4), *sb = malloc(SM_N * SM_N * 4);
		float *sc = malloc(SM_N * SM_N * 4), *sc2 = malloc(SM_N * SM_N * 4);
		double t1, t2;
		unsigned int i;

		for (i = 0; i < SM_N * SM_N; i++) {
			sa[i] = (float)(i % 17) * 0.25f;
			sb[i] = (float)(i % 13) * 0.5f;
		}
		t1 = native_time_matmul(sa, sb, sc, SM_N, REPS, NULL, 1);
		t2 = native_time_matmul(sa, sb, sc2, SM_N, REPS, NULL, 2);
		if (memcmp(sc, sc2, SM_N * SM_N * 4))
			fprintf(stderr, "matmul over two SMs: results differ\n");
		printf("%sengine_scaling_2sm: %.2f\n", pfx, t1 / t2);
		free(sa);
		free(sb);
		free(sc);
		free(sc2);
	}

	printf("%snative_compile_ms: %.1f\n", own, compile_ms);
	printf("%snative_init_ms: %.1f\n", own, init_ms);
	printf("%snative_cache_hit_ms: %.1f\n", own, cache_hit_ms(a, b, c2, MN));
	return 0;
}
