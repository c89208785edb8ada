// SPDX-License-Identifier: MIT
// __constant__ coefficients the host sets, and __device__ data both sides
// read and write: out[i] = poly(in[i]) with coeffs, calls counted.
__constant__ float coeffs[4];
__constant__ int ncoeffs;
__device__ unsigned int calls;
__device__ int table[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };
__device__ int flag;

extern "C" __global__ void poly(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i >= n)
		return;
	float x = in[i], y = 0;

	for (int k = ncoeffs - 1; k >= 0; k--)
		y = y * x + coeffs[k];
	out[i] = y + table[i % 8];
	atomicAdd(&calls, 1);
	if (i == 0)
		flag = 100;
}
