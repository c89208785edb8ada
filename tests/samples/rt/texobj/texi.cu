// SPDX-License-Identifier: MIT
// Part of rt_texobj.cu: integer coordinates, in a module of its own.
#include <cuda_runtime.h>

__global__ void k_texi(cudaTextureObject_t t, int x, int y, float4 *o)
{
	float a, b, c, d;

	asm volatile("tex.2d.v4.f32.s32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
		     : "=f"(a), "=f"(b), "=f"(c), "=f"(d) : "l"(t), "r"(x), "r"(y));
	o[0] = make_float4(a, b, c, d);
}

void launch_texi(cudaTextureObject_t t, int x, int y, float4 *o)
{
	k_texi<<<1, 1>>>(t, x, y, o);
}
