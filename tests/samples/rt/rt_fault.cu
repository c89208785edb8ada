// SPDX-License-Identifier: MIT
// A kernel's illegal address on the runtime API, as an H100 answers it:
// the launch succeeds, the next synchronizing call answers
// cudaErrorIllegalAddress, reading the last error clears it but the error
// is sticky in the context (later calls answer it again), and the last
// error survives cudaDeviceReset.
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
	// An address no allocation covers: the device's lowest page, never
	// mapped. (An address far past d was not a sure thing on an H100:
	// one run in three answered cudaErrorInvalidAddressSpace there.)
	poke<<<1, 32>>>((int *)0x100, 1);
	EXPECT(cudaSuccess, cudaGetLastError());
	EXPECT(cudaErrorIllegalAddress, cudaDeviceSynchronize());
	EXPECT(cudaErrorIllegalAddress, cudaGetLastError());
	EXPECT(cudaSuccess, cudaGetLastError());
	EXPECT(cudaErrorIllegalAddress,
	       cudaMemcpy(&v, d, sizeof(int), cudaMemcpyDeviceToHost));
	EXPECT(cudaErrorIllegalAddress, cudaMalloc((void **)&d, 16));
	printf("illegal address: %s (%s), sticky in the context\n",
	       cudaGetErrorName(cudaPeekAtLastError()),
	       cudaGetErrorString(cudaPeekAtLastError()));

	TRY(cudaDeviceReset());
	EXPECT(cudaErrorIllegalAddress, cudaGetLastError());
	EXPECT(cudaSuccess, cudaGetLastError());
	return rt_result();
}
