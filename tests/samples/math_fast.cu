// SPDX-License-Identifier: MIT
// f32 math built with --use_fast_math: the approximate instructions.
extern "C" __global__ void math32(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n) {
		float x = in[i];

		out[4 * i] = sinf(x);
		out[4 * i + 1] = expf(x / 4);
		out[4 * i + 2] = sqrtf(fabsf(x));
		out[4 * i + 3] = x / (fabsf(x) + 1.5f);
	}
}
