/* SPDX-License-Identifier: MIT */
/*
 * The bench kernels (bench_kernels.h) timed on the native engine, as the
 * benches that hold it against a yardstick (native_bench.c: C;
 * pocl_bench.c: POCL) launch them: the whole grid, one block after
 * another on one thread (matmul also on several). Each returns the best of @reps runs in seconds
 * and leaves the last run's results in its output; a kernel the engine
 * refuses or a block that faults ends the process, as a figure would be
 * meaningless. vgpu_native_init() comes first.
 */
#ifndef VGPU_NATIVE_TIME_H
#define VGPU_NATIVE_TIME_H

/* out = alpha x + y, @n values; y is left as it was. */
double native_time_saxpy(float alpha, const float *x, const float *y, float *out,
			 unsigned int n, unsigned int reps);
/*
 * c = a b, @n x @n (16 x 16 tiles), its blocks over @nsm SMs (threads
 * taking them in turn, at most NATIVE_TIME_MAX_SMS); compiling takes
 * *@compile_ms if set.
 */
#define NATIVE_TIME_MAX_SMS 16
double native_time_matmul(const float *a, const float *b, float *c, unsigned int n,
			  unsigned int reps, double *compile_ms, unsigned int nsm);
/* out[i] = the sum of in[256 i .. 256 i + 255], @blocks blocks. */
double native_time_reduce(const float *in, float *out, unsigned int blocks,
			  unsigned int reps);

#endif /* VGPU_NATIVE_TIME_H */
