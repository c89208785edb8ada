// SPDX-License-Identifier: MIT
// The kernel of the link sample: it calls a device function and reads a
// table that live in another file (link_lib_rdc.cu), joined by cuLink*.
extern __device__ float weight(int i);
extern __device__ int offsets[4];

extern "C" __global__ void weighted(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = in[i] * weight(i) + (float)offsets[i % 4];
}
