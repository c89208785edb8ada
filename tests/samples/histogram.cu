// SPDX-License-Identifier: MIT
// A 256-bin histogram of bytes: each block counts into shared memory with
// atomics, then adds its bins to the global histogram.
extern "C" __global__ void histogram(const unsigned char *data, int n,
				     unsigned int *bins)
{
	__shared__ unsigned int local[256];
	int t = threadIdx.x;

	local[t] = 0;
	__syncthreads();
	for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x)
		atomicAdd(&local[data[i]], 1);
	__syncthreads();
	atomicAdd(&bins[t], local[t]);
}
