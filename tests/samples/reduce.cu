// SPDX-License-Identifier: MIT
// Sums of an int array, three ways: a tree in shared memory, warp
// shuffles, and atomics on one global counter. Each block writes or adds
// its partial sum.
extern "C" __global__ void reduce_shared(const int *in, int *out, int n)
{
	__shared__ int s[256];
	int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;

	s[t] = i < n ? in[i] : 0;
	__syncthreads();
	for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
		if (t < stride)
			s[t] += s[t + stride];
		__syncthreads();
	}
	if (t == 0)
		out[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_shfl(const int *in, int *out, int n)
{
	__shared__ int warp_sums[32];
	int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
	int v = i < n ? in[i] : 0;

	for (int d = 16; d > 0; d >>= 1)
		v += __shfl_down_sync(0xffffffff, v, d);
	if ((t & 31) == 0)
		warp_sums[t / 32] = v;
	__syncthreads();
	if (t < 32) {
		v = t < blockDim.x / 32 ? warp_sums[t] : 0;
		for (int d = 16; d > 0; d >>= 1)
			v += __shfl_down_sync(0xffffffff, v, d);
		if (t == 0)
			out[blockIdx.x] = v;
	}
}

extern "C" __global__ void reduce_atomic(const int *in, int *total, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		atomicAdd(total, in[i]);
}
