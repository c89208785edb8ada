// SPDX-License-Identifier: MIT
// The library side of the link sample: a device function and a table.
__device__ int offsets[4] = { 10, 20, 30, 40 };

__device__ __noinline__ float weight(int i)
{
	return 1.0f + (float)(i % 7) * 0.125f;
}
