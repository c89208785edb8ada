// SPDX-License-Identifier: MIT
// The launchex sample's kernels: y = a * x + y over n elements, and a
// grid-stride pass that doubles every element, sized to stay co-resident.
extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		y[i] = a * x[i] + y[i];
}

extern "C" __global__ void twice(float *y, int n)
{
	for (int i = blockDim.x * blockIdx.x + threadIdx.x; i < n;
	     i += blockDim.x * gridDim.x)
		y[i] = 2.0f * y[i];
}
