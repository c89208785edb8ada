// SPDX-License-Identifier: MIT
// A chain of __noinline__ device functions: a struct by value, a return
// value, a void function writing through a pointer.
struct pair { float a, b; };

__device__ __noinline__ float scale_add(float x, int k)
{
	return x * (float)k + 1.0f;
}

__device__ __noinline__ pair swap_scaled(pair p, int k)
{
	pair r = { scale_add(p.b, k), scale_add(p.a, k) };
	return r;
}

__device__ __noinline__ void write_out(float *out, pair p)
{
	out[0] = p.a;
	out[1] = p.b - p.a;
}

extern "C" __global__ void chain(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n) {
		pair p = { in[2 * i], in[2 * i + 1] };

		write_out(out + 2 * i, swap_scaled(p, i % 5));
	}
}
