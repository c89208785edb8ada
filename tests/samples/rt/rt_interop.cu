// SPDX-License-Identifier: MIT
// A runtime program that also calls the driver API: both work in the
// device's primary context, so memory from either serves the other and a
// driver-API stream carries a <<<>>> launch, as with NVIDIA's libraries.
#include <cuda.h>

#include "rt.h"

#define CU_TRY(call) do { \
	CUresult _r = (call); \
	if (_r != CUDA_SUCCESS) { \
		fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, \
			__LINE__, #call, (int)_r); \
		rt_failures++; \
	} \
} while (0)

__global__ void add_one(int *p, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		p[i] += 1;
}

int main(void)
{
	const int n = 1000;
	CUcontext cur = NULL, primary = NULL;
	CUdeviceptr dp = 0;
	CUstream cs = NULL;
	int host[n], i, bad = 0;

	rt_check_library();
	// cudaFree(0) creates the runtime's context.
	TRY(cudaFree(0));
	CU_TRY(cuCtxGetCurrent(&cur));
	CU_TRY(cuDevicePrimaryCtxRetain(&primary, 0));
	EXPECT_TRUE(cur != NULL && cur == primary);
	printf("the runtime's context is device 0's primary context: %s\n",
	       cur == primary ? "yes" : "no");

	// Driver memory and a driver stream, used by the runtime.
	CU_TRY(cuMemAlloc(&dp, n * sizeof(int)));
	CU_TRY(cuStreamCreate(&cs, CU_STREAM_NON_BLOCKING));
	for (i = 0; i < n; i++)
		host[i] = i;
	TRY(cudaMemcpy((void *)dp, host, sizeof(host),
		       cudaMemcpyHostToDevice));
	add_one<<<(n + 255) / 256, 256, 0, (cudaStream_t)cs>>>((int *)dp, n);
	TRY(cudaGetLastError());
	TRY(cudaStreamSynchronize((cudaStream_t)cs));
	CU_TRY(cuMemcpyDtoH(host, dp, sizeof(host)));
	for (i = 0; i < n; i++)
		bad += host[i] != i + 1;
	EXPECT_TRUE(bad == 0);
	printf("a <<<>>> launch on a driver stream over driver memory: "
	       "%d wrong\n", bad);

	// Runtime memory, read through the driver.
	int *rp;
	TRY(cudaMalloc((void **)&rp, sizeof(int)));
	TRY(cudaMemset(rp, 0x7f, sizeof(int)));
	int v = 0;
	CU_TRY(cuMemcpyDtoH(&v, (CUdeviceptr)rp, sizeof(int)));
	EXPECT_TRUE(v == 0x7f7f7f7f);
	TRY(cudaFree(rp));

	CU_TRY(cuStreamDestroy(cs));
	CU_TRY(cuMemFree(dp));
	CU_TRY(cuDevicePrimaryCtxRelease(0));
	return rt_result();
}
