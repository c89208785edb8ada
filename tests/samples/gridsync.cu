// SPDX-License-Identifier: MIT
// The gridsync sample's kernels: computations whose phases need the whole
// grid to have finished the one before, separated by cooperative groups'
// grid.sync().
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Inclusive prefix sums of in[0, n) into out: each block sums its chunk,
// one block scans the chunk sums, then each block writes its chunk's
// sums from its offset.
extern "C" __global__ void scan(const int *in, int *out, int *partial, int n)
{
	cg::grid_group grid = cg::this_grid();
	__shared__ int sums[256];
	int nb = gridDim.x, b = blockIdx.x, t = threadIdx.x;
	int chunk = (n + nb - 1) / nb, lo = b * chunk;
	int hi = min(lo + chunk, n), s = 0;

	for (int i = lo + t; i < hi; i += blockDim.x)
		s += in[i];
	sums[t] = s;
	__syncthreads();
	for (int w = blockDim.x / 2; w > 0; w /= 2) {
		if (t < w)
			sums[t] += sums[t + w];
		__syncthreads();
	}
	if (t == 0)
		partial[b] = sums[0];
	grid.sync();
	if (b == 0 && t == 0) {
		int run = 0;

		for (int i = 0; i < nb; i++) {
			int v = partial[i];

			partial[i] = run;
			run += v;
		}
	}
	grid.sync();
	if (t == 0) {
		int run = partial[b];

		for (int i = lo; i < hi; i++) {
			run += in[i];
			out[i] = run;
		}
	}
}

// @steps steps of integer diffusion over a ring of n cells, a and b taking
// turns as the current state; every step reads what the whole grid wrote
// in the step before.
extern "C" __global__ void diffuse(int *a, int *b, int n, int steps)
{
	cg::grid_group grid = cg::this_grid();

	for (int s = 0; s < steps; s++) {
		const int *cur = s % 2 ? b : a;
		int *next = s % 2 ? a : b;

		for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
		     i += gridDim.x * blockDim.x)
			next[i] = (cur[(i + n - 1) % n] + 2 * cur[i] +
				   cur[(i + 1) % n]) / 4;
		grid.sync();
	}
}
