// SPDX-License-Identifier: MIT
// Part of rt_texobj.cu: istypep, in a module of its own.
#include <cuda_runtime.h>

__global__ void k_istype(unsigned long long t, unsigned long long s, int *o)
{
	int a, b, c, d;

	asm volatile("{ .reg .pred p; istypep.texref p, %1; selp.s32 %0, 1, 0, p; }" : "=r"(a) : "l"(t));
	asm volatile("{ .reg .pred p; istypep.surfref p, %1; selp.s32 %0, 1, 0, p; }" : "=r"(b) : "l"(t));
	asm volatile("{ .reg .pred p; istypep.texref p, %1; selp.s32 %0, 1, 0, p; }" : "=r"(c) : "l"(s));
	asm volatile("{ .reg .pred p; istypep.surfref p, %1; selp.s32 %0, 1, 0, p; }" : "=r"(d) : "l"(s));
	o[0] = a;
	o[1] = b;
	o[2] = c;
	o[3] = d;
}

void launch_istype(unsigned long long t, unsigned long long s, int *o)
{
	k_istype<<<1, 1>>>(t, s, o);
}
