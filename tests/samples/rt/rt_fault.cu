// SPDX-License-Identifier: MIT
// A kernel's illegal address on the runtime API: the launch succeeds,
// the next synchronizing call answers cudaErrorIllegalAddress, the error
// is sticky (every later call answers it, and reading the last error does
// not clear it), and cudaDeviceReset gives the program a working context.
#include "rt.h"

__global__ void poke(int *p, int v)
{
	p[threadIdx.x] = v;
}

int main(void)
{
	int *d, v = 0;

	rt_check_library();
	TRY(cudaSetDevice(0));
	TRY(cudaMalloc((void **)&d, 32 * sizeof(int)));
	// An address no allocation covers, far past the end of d.
	poke<<<1, 32>>>(d + (1 << 28), 1);
	EXPECT(cudaSuccess, cudaGetLastError());
	EXPECT(cudaErrorIllegalAddress, cudaDeviceSynchronize());
	EXPECT(cudaErrorIllegalAddress, cudaGetLastError());
	EXPECT(cudaErrorIllegalAddress, cudaGetLastError());
	EXPECT(cudaErrorIllegalAddress,
	       cudaMemcpy(&v, d, sizeof(int), cudaMemcpyDeviceToHost));
	printf("illegal address: %s (%s), sticky\n",
	       cudaGetErrorName(cudaPeekAtLastError()),
	       cudaGetErrorString(cudaPeekAtLastError()));

	TRY(cudaDeviceReset());
	EXPECT(cudaSuccess, cudaGetLastError());
	TRY(cudaMalloc((void **)&d, 32 * sizeof(int)));
	poke<<<1, 32>>>(d, 9);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(&v, d + 31, sizeof(int), cudaMemcpyDeviceToHost));
	EXPECT_TRUE(v == 9);
	printf("after cudaDeviceReset: a kernel runs again\n");
	TRY(cudaFree(d));
	return rt_result();
}
