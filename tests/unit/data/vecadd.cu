// SPDX-License-Identifier: MIT
/* The kernel that tests/unit/test_fatbin.c reads back out of nvcc's fatbins. */
__global__ void vecAdd(const float *a, const float *b, float *c, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}
