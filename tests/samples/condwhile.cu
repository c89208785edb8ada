// SPDX-License-Identifier: MIT
// The body of a conditional while graph (condwhile.c): each pass halves
// every value and counts itself; the node runs again while any value is
// left, as the block decides with __syncthreads_or.
extern "C" __global__ void halve(unsigned int *x, unsigned int *passes,
				 cudaGraphConditionalHandle h)
{
	unsigned int v = x[threadIdx.x] / 2;
	int more;

	x[threadIdx.x] = v;
	more = __syncthreads_or(v != 0);
	if (threadIdx.x == 0) {
		passes[0]++;
		cudaGraphSetConditional(h, more);
	}
}
