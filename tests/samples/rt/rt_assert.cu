// SPDX-License-Identifier: MIT
// Device-side assert() on the runtime API, as an H100 answers it
// (tests/e2e/ref/h100_assert.log): a passing assert changes nothing; after
// a failing one the next synchronizing call answers cudaErrorAssert,
// sticky in the context.
#include <assert.h>
#include "rt.h"

__global__ void checked(int *out, int n)
{
	assert(threadIdx.x < n);
	out[threadIdx.x] = threadIdx.x + 1;
}

__global__ void fails(int n)
{
	printf("before assert %u\n", threadIdx.x);
	assert(threadIdx.x < n);
}

int main(void)
{
	int *d, h[32], i;

	rt_check_library();
	TRY(cudaSetDevice(0));
	TRY(cudaMalloc((void **)&d, 32 * sizeof(int)));
	checked<<<1, 32>>>(d, 32);
	EXPECT(cudaSuccess, cudaGetLastError());
	EXPECT(cudaSuccess, cudaDeviceSynchronize());
	TRY(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
	for (i = 0; i < 32; i++)
		if (h[i] != i + 1) {
			printf("checked: out[%d] = %d\n", i, h[i]);
			rt_failures++;
			break;
		}

	// Threads x 2 and 3 of each row fail.
	fails<<<1, dim3(4, 2, 1)>>>(2);
	EXPECT(cudaSuccess, cudaGetLastError());
	EXPECT(cudaErrorAssert, cudaDeviceSynchronize());
	EXPECT(cudaErrorAssert, cudaDeviceSynchronize());
	EXPECT(cudaErrorAssert, cudaGetLastError());
	EXPECT(cudaSuccess, cudaGetLastError());
	EXPECT(cudaErrorAssert, cudaMalloc((void **)&d, 16));
	printf("failed assert: %s (%s), sticky in the context\n",
	       cudaGetErrorName(cudaPeekAtLastError()),
	       cudaGetErrorString(cudaPeekAtLastError()));
	checked<<<1, 1>>>(d, 1);
	EXPECT(cudaErrorAssert, cudaGetLastError());
	return rt_result();
}
