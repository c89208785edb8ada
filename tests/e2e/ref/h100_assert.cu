// Probe of a failed device assert on an H100 (driver 580, CUDA 13.0),
// through the runtime: the stderr lines (one per failing thread), the
// code at the sync, how it sticks, and printf output before the assert.
// Built as nvcc -gencode arch=compute_75,code=compute_75 h100_assert.cu;
// its output is the "== rt" sections of h100_assert.log.
// Device-side assert on the reference driver: message format, codes, stickiness.
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>

__global__ void pass_assert(int *out)
{
	assert(threadIdx.x < 1024);
	out[threadIdx.x] = 1;
}

__global__ void fail_assert(int n)
{
	printf("before assert %d\n", threadIdx.x);
	assert(threadIdx.x < n);
}

int main()
{
	int *d;
	cudaError_t e;

	setvbuf(stdout, NULL, _IONBF, 0);
	cudaMalloc(&d, 64 * sizeof(int));
	pass_assert<<<1, 64>>>(d);
	e = cudaDeviceSynchronize();
	printf("pass sync %d\n", (int)e);
	fail_assert<<<dim3(2, 1, 1), dim3(4, 2, 1)>>>(2);
	e = cudaGetLastError();
	printf("launch %d\n", (int)e);
	e = cudaDeviceSynchronize();
	printf("fail sync %d %s: %s\n", (int)e, cudaGetErrorName(e), cudaGetErrorString(e));
	e = cudaDeviceSynchronize();
	printf("sync again %d\n", (int)e);
	e = cudaGetLastError();
	printf("getlast %d\n", (int)e);
	e = cudaGetLastError();
	printf("getlast again %d\n", (int)e);
	e = cudaMalloc(&d, 16);
	printf("malloc after %d\n", (int)e);
	pass_assert<<<1, 1>>>(d);
	e = cudaGetLastError();
	printf("launch after %d\n", (int)e);
	return 0;
}
