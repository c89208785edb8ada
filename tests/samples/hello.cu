// SPDX-License-Identifier: MIT
// printf from the device: each thread of each block says who it is.
#include <cstdio>

extern "C" __global__ void hello(float scale)
{
	printf("Hello from block %d, thread %d: %.2f\n", blockIdx.x, threadIdx.x,
	       scale * threadIdx.x);
}
