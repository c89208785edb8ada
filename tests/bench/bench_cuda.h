/* SPDX-License-Identifier: MIT */
/*
 * What the driver-API benches (copy, graph, managed, stream, tex and usm)
 * share: a call that must succeed, and the clock they time with.
 */
#ifndef VGPU_BENCH_CUDA_H
#define VGPU_BENCH_CUDA_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cuda.h"

/* @call must return CUDA_SUCCESS; otherwise the bench says so and ends. */
#define TRY(call) do { \
	CUresult _r = (call); \
	if (_r != CUDA_SUCCESS) { \
		fprintf(stderr, "%s failed: %d\n", #call, (int)_r); \
		exit(1); \
	} \
} while (0)

/* CLOCK_MONOTONIC in seconds. */
static inline double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#endif /* VGPU_BENCH_CUDA_H */
