// SPDX-License-Identifier: MIT
/*
 * The bench kernels (bench_kernels.h) in OpenCL C, for pocl_bench.c to
 * run on POCL: the same work item for item, the same work-group shapes
 * and local memory, and fma() where the vgpu ISA has FMA, so that both
 * sides do the same arithmetic.
 */

/* y[i] = a * x[i] + y[i], one item per value, groups of 256 */
__kernel void saxpy(__global const float *x, __global float *y, float a, unsigned int n)
{
	unsigned int i = get_global_id(0);

	if (i < n)
		y[i] = fma(a, x[i], y[i]);
}

#define TILE 16

/* c = a b, n x n, an item per element of c, TILE x TILE tiles in local memory */
__kernel void matmul(__global const float *a, __global const float *b, __global float *c,
		     unsigned int n)
{
	__local float as[TILE][TILE], bs[TILE][TILE];
	unsigned int tx = get_local_id(0), ty = get_local_id(1);
	unsigned int row = get_group_id(1) * TILE + ty, col = get_group_id(0) * TILE + tx;
	unsigned int t, k;
	float acc = 0;

	for (t = 0; t < n / TILE; t++) {
		as[ty][tx] = a[row * n + t * TILE + tx];
		bs[ty][tx] = b[(t * TILE + ty) * n + col];
		barrier(CLK_LOCAL_MEM_FENCE);
		for (k = 0; k < TILE; k++)
			acc = fma(as[ty][k], bs[k][tx], acc);
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	c[row * n + col] = acc;
}

/* out[group] = the sum of the group's 256 inputs, a tree in local memory */
__kernel void reduce(__global const float *in, __global float *out)
{
	__local float s[256];
	unsigned int t = get_local_id(0);
	unsigned int st;

	s[t] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	for (st = get_local_size(0) / 2; st; st >>= 1) {
		if (t < st)
			s[t] += s[t + st];
		barrier(CLK_LOCAL_MEM_FENCE);
	}
	if (t == 0)
		out[get_group_id(0)] = s[0];
}
