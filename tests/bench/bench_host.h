/* SPDX-License-Identifier: MIT */
/*
 * What the host side of the benches (interp_bench.c, native_bench.c)
 * shares: the clock, a host buffer as a range of device memory, and the
 * bench kernels' inputs, so that both engines are timed on the same data.
 */
#ifndef VGPU_BENCH_HOST_H
#define VGPU_BENCH_HOST_H

#include <stdint.h>
#include <time.h>

#include "core.h"

static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* @n bytes at @p, mapped at their own address, writable. */
static inline struct vgpu_range range(void *p, size_t n)
{
	return (struct vgpu_range){ .va = (uintptr_t)p, .size = n, .ptr = p, .writable = true };
}

/*
 * The inputs: saxpy's x and y (@sn values), matmul's a and b (@mn x @mn),
 * reduce's @rb blocks of 256 values.
 */
static inline void bench_inputs(float *x, float *y, unsigned int sn, float *a, float *b,
				unsigned int mn, float *rin, unsigned int rb)
{
	unsigned int i;

	for (i = 0; i < sn; i++) {
		x[i] = (float)(i % 100) / 7;
		y[i] = (float)(i % 13);
	}
	for (i = 0; i < mn * mn; i++) {
		a[i] = (float)(i % 17) / 16;
		b[i] = (float)(i % 23) / 8;
	}
	for (i = 0; i < rb * 256; i++)
		rin[i] = (float)(i % 31);
}

#endif /* VGPU_BENCH_HOST_H */
