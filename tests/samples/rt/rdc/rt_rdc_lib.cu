// SPDX-License-Identifier: MIT
// The other object of rt_rdc (nvcc -rdc=true): a device function and a
// device variable rt_rdc.cu's kernel uses, and a kernel of its own that
// reads a variable rt_rdc.cu defines.
__device__ int lib_bias = 7;
extern __device__ int main_offset;

__device__ int lib_scale(int x)
{
	return x * 3 + lib_bias;
}

__global__ void lib_fill(int *out, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		out[i] = i + main_offset;
}
