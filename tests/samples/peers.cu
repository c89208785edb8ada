// SPDX-License-Identifier: MIT
// The peers sample's kernel: each element of one device's buffer, doubled
// into another's. One of the two is the other device's memory, reached
// through peer access.
extern "C" __global__ void scale2(float *dst, const float *src, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		dst[i] = 2.0f * src[i];
}
