// SPDX-License-Identifier: MIT
// A 2D grid of 2D blocks over a matrix that is not a multiple of the block.
extern "C" __global__ void transform(const float *in, float *out, int width,
				     int height)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;

	if (x < width && y < height)
		out[y * width + x] = in[y * width + x] * 2.0f + (float)(x - y);
}
