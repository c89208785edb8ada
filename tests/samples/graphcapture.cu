// SPDX-License-Identifier: MIT
// One iteration of a two-stream pipeline, captured into a graph
// (graphcapture.c): integer updates, so that every replay's result is
// exact.
extern "C" __global__ void bump(int *a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		a[i] += 1;
}

extern "C" __global__ void add_twice(int *b, const int *a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		b[i] += 2 * a[i];
}

extern "C" __global__ void add_index(int *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] += i % 7;
}

extern "C" __global__ void combine(int *d, const int *b, const int *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		d[i] = b[i] - c[i];
}
