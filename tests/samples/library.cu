// SPDX-License-Identifier: MIT
// The library sample's kernel: y = a * x + y + bias, bias a __device__
// variable the host sets through the library.
__device__ float bias;

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		y[i] = a * x[i] + y[i] + bias;
}
