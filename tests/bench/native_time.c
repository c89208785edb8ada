// SPDX-License-Identifier: MIT
/*
 * The bench kernels' launches on the native engine (native_time.h): their
 * parameters, resources and grids, shared by the benches that compare the
 * engine with something else so that each times the same work.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "native.h"
#include "bench/bench_host.h"
#include "bench/bench_kernels.h"
#include "bench/native_time.h"

#define NINSN(code) (unsigned int)(sizeof(code) / sizeof((code)[0]))

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

/*
 * One SM of a grid: a thread that takes the grid's blocks with the other
 * SMs, each on a block of its own, as user-mode SMs take them from the
 * module: a kernel without loops a run of consecutive blocks at a time
 * (@runs: a quarter of what is left shared out over the SMs, 1 to
 * RUN_BLOCKS, the library's VG_USM_RUN_BLOCKS), run in a plain loop; any
 * other one block at a time.
 */
#define RUN_BLOCKS 64

struct sm {
	pthread_t thread;
	struct vgpu_native_block *b;
	unsigned int *next, nblocks, nsm;
	bool runs;
};

static void *sm_run(void *arg)
{
	struct sm *sm = arg;
	unsigned int i, at, n;
	int r;

	at = __atomic_load_n(sm->next, __ATOMIC_RELAXED);
	while (at < sm->nblocks) {
		n = sm->runs ? (sm->nblocks - at) / (4 * sm->nsm) : 1;
		n = n < 1 ? 1 : n > RUN_BLOCKS ? RUN_BLOCKS : n;
		/* (A failed exchange reloads @at.) */
		if (!__atomic_compare_exchange_n(sm->next, &at, at + n, false, __ATOMIC_RELAXED,
						 __ATOMIC_RELAXED))
			continue;
		for (i = at; i < at + n; i++) {
			vgpu_native_block_start(sm->b, i);
			do
				r = vgpu_native_block_run(sm->b, 1 << 20);
			while (r == VGPU_RUN_MORE);
			if (r != VGPU_RUN_DONE) {
				fprintf(stderr, "native engine: block %u faulted\n", i);
				exit(1);
			}
		}
		at = __atomic_load_n(sm->next, __ATOMIC_RELAXED);
	}
	return NULL;
}

/* A whole grid on the native engine over @nsm SMs (threads); seconds. */
static double run_native(struct vgpu_native_kernel *k, const struct vgpu_insn *code,
			 unsigned int n, const struct vgpu_func *f, const unsigned int grid[2],
			 const unsigned int block[2], const void *params,
			 const struct vgpu_range *mem, unsigned int nmem, unsigned int nsm)
{
	struct vgpu_program prog = { code, n, f, 1 };
	struct vgpu_launch l = {
		.prog = &prog, .func = f, .grid = { grid[0], grid[1], 1 },
		.block = { block[0], block[1], 1 }, .params = params, .nsmid = nsm,
	};
	struct sm sms[NATIVE_TIME_MAX_SMS];
	unsigned int i, next = 0;
	double t;

	for (i = 0; i < nsm; i++) {
		sms[i] = (struct sm){ .b = vgpu_native_block_new(k, &l, mem, nmem),
				      .next = &next, .nblocks = grid[0] * grid[1], .nsm = nsm,
				      .runs = vgpu_native_kernel_straight(k) };
		if (!sms[i].b) {
			fprintf(stderr, "native engine: out of memory\n");
			exit(1);
		}
	}
	t = now();
	for (i = 1; i < nsm; i++) {
		if (pthread_create(&sms[i].thread, NULL, sm_run, &sms[i])) {
			fprintf(stderr, "native engine: no thread\n");
			exit(1);
		}
	}
	sm_run(&sms[0]);
	for (i = 1; i < nsm; i++)
		pthread_join(sms[i].thread, NULL);
	t = now() - t;
	for (i = 0; i < nsm; i++)
		vgpu_native_block_free(sms[i].b);
	return t;
}

double native_time_saxpy(float alpha, const float *x, const float *y, float *out,
			 unsigned int n, unsigned int reps)
{
	struct { uint64_t x, y; float a; uint32_t n; } p = { (uintptr_t)x, (uintptr_t)out, alpha, n };
	struct vgpu_range mem[2] = { range((void *)x, n * 4ul), range(out, n * 4ul) };
	struct vgpu_func f = { .nregs = 10, .npreds = 1, .param_bytes = 24 };
	unsigned int grid[2] = { n / 256, 1 }, block[2] = { 256, 1 };
	struct vgpu_native_kernel *k = compile(saxpy, NINSN(saxpy), &f, NULL);
	double t, best = 1e9;
	unsigned int r;

	for (r = 0; r < reps; r++) {
		memcpy(out, y, n * 4ul);
		t = run_native(k, saxpy, NINSN(saxpy), &f, grid, block, &p, mem, 2, 1);
		best = t < best ? t : best;
	}
	vgpu_native_kernel_free(k);
	return best;
}

double native_time_matmul(const float *a, const float *b, float *c, unsigned int n,
			  unsigned int reps, double *compile_ms, unsigned int nsm)
{
	struct { uint64_t a, b, c; uint32_t n; } p = { (uintptr_t)a, (uintptr_t)b, (uintptr_t)c, n };
	struct vgpu_range mem[3] = { range((void *)a, n * n * 4ul), range((void *)b, n * n * 4ul),
				     range(c, n * n * 4ul) };
	struct vgpu_func f = { .nregs = 27, .npreds = 2, .param_bytes = 28,
			       .shared_bytes = 2048 };
	unsigned int grid[2] = { n / 16, n / 16 }, block[2] = { 16, 16 };
	struct vgpu_native_kernel *k = compile(matmul, NINSN(matmul), &f, compile_ms);
	double t, best = 1e9;
	unsigned int r;

	for (r = 0; r < reps; r++) {
		t = run_native(k, matmul, NINSN(matmul), &f, grid, block, &p, mem, 3, nsm);
		best = t < best ? t : best;
	}
	vgpu_native_kernel_free(k);
	return best;
}

double native_time_reduce(const float *in, float *out, unsigned int blocks,
			  unsigned int reps)
{
	struct { uint64_t in, out; } p = { (uintptr_t)in, (uintptr_t)out };
	struct vgpu_range mem[2] = { range((void *)in, blocks * 256 * 4ul),
				     range(out, blocks * 4ul) };
	struct vgpu_func f = { .nregs = 15, .npreds = 3, .param_bytes = 16,
			       .shared_bytes = 1024 };
	unsigned int grid[2] = { blocks, 1 }, block[2] = { 256, 1 };
	struct vgpu_native_kernel *k = compile(reduce, NINSN(reduce), &f, NULL);
	double t, best = 1e9;
	unsigned int r;

	for (r = 0; r < reps; r++) {
		t = run_native(k, reduce, NINSN(reduce), &f, grid, block, &p, mem, 2, 1);
		best = t < best ? t : best;
	}
	vgpu_native_kernel_free(k);
	return best;
}
