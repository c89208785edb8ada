// SPDX-License-Identifier: MIT
// vmm_grow's kernels: fill the first part of a buffer, then, once it grew,
// turn every element, old and new, into 2 * i + 1.
extern "C" __global__ void fill(unsigned int *p, unsigned int n)
{
	unsigned int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		p[i] = i;
}

extern "C" __global__ void grow(unsigned int *p, unsigned int old,
				unsigned int n)
{
	unsigned int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		p[i] = (i < old ? p[i] : i) * 2 + 1;
}
