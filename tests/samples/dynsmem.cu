// SPDX-License-Identifier: MIT
// Dynamic shared memory (its size set at launch): each block reverses its
// slice through it.
extern "C" __global__ void reverse(int *data, int n)
{
	extern __shared__ int s[];
	int t = threadIdx.x, base = blockIdx.x * blockDim.x;

	if (base + t < n)
		s[t] = data[base + t];
	__syncthreads();
	if (base + t < n) {
		int len = n - base < (int)blockDim.x ? n - base : blockDim.x;

		data[base + t] = s[len - 1 - t];
	}
}
