// SPDX-License-Identifier: MIT
// The vectorAdd sample's kernel: C = A + B, one thread per element.
extern "C" __global__ void vectorAdd(const float *a, const float *b, float *c,
				     int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}
