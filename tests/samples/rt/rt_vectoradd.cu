// SPDX-License-Identifier: MIT
// The runtime API's vectorAdd: cudaMalloc, cudaMemcpy, a <<<>>> launch
// (through nvcc's registration and CUDA 13's __cudaGetKernel and
// __cudaLaunchKernel), device properties, and the error codes and last
// error NVIDIA's runtime answers for bad launches and arguments.
#include <string.h>

#include "rt.h"

// Added to every element, so the kernel reads a registered variable.
__device__ float bias;

__global__ void vectorAdd(const float *a, const float *b, float *c, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i] + bias;
}

// A template, so a mangled C++ name is registered and looked up.
template <typename T> __global__ void fill(T *p, T v, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		p[i] = v;
}

static void check_devices(void)
{
	struct cudaDeviceProp prop;
	int count = 0, dev = -1, sms = 0, major = 0;

	TRY(cudaGetDeviceCount(&count));
	EXPECT_TRUE(count >= 1);
	TRY(cudaSetDevice(0));
	TRY(cudaGetDevice(&dev));
	EXPECT_TRUE(dev == 0);
	TRY(cudaGetDeviceProperties(&prop, 0));
	TRY(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
	TRY(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor,
				   0));
	EXPECT_TRUE(prop.multiProcessorCount == sms);
	EXPECT_TRUE(prop.major == major);
	EXPECT_TRUE(prop.warpSize == 32);
	EXPECT_TRUE(prop.maxThreadsPerBlock == 1024);
	EXPECT_TRUE(prop.totalGlobalMem > 0);
	EXPECT_TRUE(strlen(prop.name) > 0);
	printf("~ Device 0: \"%s\", compute capability %d.%d, %d SMs\n",
	       prop.name, prop.major, prop.minor, prop.multiProcessorCount);

	EXPECT(cudaErrorInvalidDevice, cudaSetDevice(count));
	EXPECT(cudaErrorInvalidDevice, cudaSetDevice(-1));
	EXPECT(cudaErrorInvalidDevice, cudaGetDeviceProperties(&prop, count));
	EXPECT(cudaErrorInvalidValue,
	       cudaDeviceGetAttribute(&sms, (enum cudaDeviceAttr)100000, 0));
	EXPECT(cudaErrorInvalidDevice,
	       cudaDeviceGetAttribute(&sms, cudaDevAttrWarpSize, count));
	EXPECT(cudaErrorInvalidValue, cudaGetDeviceCount(NULL));
	// The last error is the last failure's, and reading it clears it.
	EXPECT(cudaErrorInvalidValue, cudaPeekAtLastError());
	EXPECT(cudaErrorInvalidValue, cudaGetLastError());
	EXPECT(cudaSuccess, cudaGetLastError());
	TRY(cudaGetDevice(&dev));
	EXPECT_TRUE(dev == 0);
}

static void check_vectoradd(void)
{
	const int n = 50000;
	size_t size = n * sizeof(float);
	float *a = (float *)malloc(size), *b = (float *)malloc(size);
	float *c = (float *)malloc(size), *da, *db, *dc, one = 1.0f;
	int threads = 256, blocks = (n + threads - 1) / threads, i, bad = 0;

	for (i = 0; i < n; i++) {
		a[i] = (float)i;
		b[i] = (float)(2 * i);
	}
	TRY(cudaMalloc((void **)&da, size));
	TRY(cudaMalloc((void **)&db, size));
	TRY(cudaMalloc((void **)&dc, size));
	TRY(cudaMemcpy(da, a, size, cudaMemcpyHostToDevice));
	TRY(cudaMemcpy(db, b, size, cudaMemcpyDefault));
	TRY(cudaMemcpyToSymbol(bias, &one, sizeof(one)));
	float got = 0;
	size_t bias_size = 0;
	void *bias_addr = NULL;
	TRY(cudaMemcpyFromSymbol(&got, bias, sizeof(got)));
	EXPECT_TRUE(got == 1.0f);
	TRY(cudaGetSymbolSize(&bias_size, bias));
	TRY(cudaGetSymbolAddress(&bias_addr, bias));
	EXPECT_TRUE(bias_size == sizeof(float) && bias_addr != NULL);
	EXPECT(cudaErrorInvalidValue,
	       cudaMemcpyToSymbol(bias, &one, sizeof(one), sizeof(float)));
	EXPECT(cudaErrorInvalidSymbol,
	       cudaMemcpyToSymbol((const void *)&got, &one, sizeof(one)));
	EXPECT(cudaErrorInvalidMemcpyDirection,
	       cudaMemcpyToSymbol(bias, &one, sizeof(one), 0,
				  cudaMemcpyDeviceToHost));
	EXPECT(cudaErrorInvalidMemcpyDirection, cudaGetLastError());
	vectorAdd<<<blocks, threads>>>(da, db, dc, n);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(c, dc, size, cudaMemcpyDeviceToHost));
	for (i = 0; i < n; i++)
		bad += c[i] != (float)(3 * i) + 1.0f;
	EXPECT_TRUE(bad == 0);
	printf("vectorAdd of %d elements in %d blocks: %d wrong\n", n, blocks,
	       bad);

	// A template kernel and a device-to-device copy.
	fill<int><<<blocks, threads>>>((int *)da, 7, n);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(db, da, size, cudaMemcpyDeviceToDevice));
	TRY(cudaMemcpy(c, db, size, cudaMemcpyDeviceToHost));
	for (i = 0, bad = 0; i < n; i++)
		bad += ((int *)c)[i] != 7;
	EXPECT_TRUE(bad == 0);

	// cudaMemset fills bytes.
	TRY(cudaMemset(dc, 0x01, size));
	TRY(cudaMemcpy(c, dc, size, cudaMemcpyDeviceToHost));
	EXPECT_TRUE(((unsigned int *)c)[n - 1] == 0x01010101u);

	// cudaLaunchKernel on the host stub, as the runtime API offers it.
	void *args[] = { &da, &db, &dc, (void *)&n };
	TRY(cudaMemcpy(da, a, size, cudaMemcpyHostToDevice));
	TRY(cudaMemcpy(db, b, size, cudaMemcpyHostToDevice));
	TRY(cudaMemset(dc, 0, size));
	TRY(cudaLaunchKernel((const void *)vectorAdd, dim3(blocks),
			     dim3(threads), args, 0, 0));
	TRY(cudaMemcpy(c, dc, size, cudaMemcpyDeviceToHost));
	for (i = 0, bad = 0; i < n; i++)
		bad += c[i] != (float)(3 * i) + 1.0f;
	EXPECT_TRUE(bad == 0);
	// CUDA 13 on an H100: a function that is no kernel is no handle.
	EXPECT(cudaErrorInvalidResourceHandle,
	       cudaLaunchKernel((const void *)check_devices, dim3(1), dim3(1),
				args, 0, 0));
	EXPECT(cudaErrorInvalidResourceHandle, cudaGetLastError());

	// Bad launches: CUDA 13 answers cudaErrorInvalidValue on an H100
	// (no longer cudaErrorInvalidConfiguration), from cudaGetLastError.
	vectorAdd<<<0, threads>>>(da, db, dc, n);
	EXPECT(cudaErrorInvalidValue, cudaGetLastError());
	vectorAdd<<<blocks, 2048>>>(da, db, dc, n);
	EXPECT(cudaErrorInvalidValue, cudaGetLastError());
	vectorAdd<<<1, dim3(1, 1, 65)>>>(da, db, dc, n);
	EXPECT(cudaErrorInvalidValue, cudaGetLastError());
	vectorAdd<<<dim3(1, 70000), 1>>>(da, db, dc, n);
	EXPECT(cudaErrorInvalidValue, cudaGetLastError());
	vectorAdd<<<1, 1, 1 << 20>>>(da, db, dc, n);
	EXPECT(cudaErrorInvalidValue, cudaGetLastError());
	EXPECT(cudaSuccess, cudaGetLastError());

	// Bad arguments.
	EXPECT(cudaErrorInvalidMemcpyDirection,
	       cudaMemcpy(c, dc, size, (enum cudaMemcpyKind)7));
	EXPECT(cudaErrorInvalidValue, cudaMalloc(NULL, 16));
	EXPECT(cudaErrorMemoryAllocation,
	       cudaMalloc((void **)&da, (size_t)1 << 50));
	EXPECT(cudaErrorMemoryAllocation, cudaGetLastError());

	TRY(cudaFree(da));
	TRY(cudaFree(db));
	TRY(cudaFree(dc));
	TRY(cudaFree(NULL));
	free(a);
	free(b);
	free(c);
}

static void check_host_memory(void)
{
	size_t free_mem = 0, total = 0;
	int *h, *m, *d, *p, i, bad = 0;

	TRY(cudaMemGetInfo(&free_mem, &total));
	EXPECT_TRUE(total > 0 && free_mem <= total);
	TRY(cudaMemGetInfo(NULL, &total));
	TRY(cudaMemGetInfo(NULL, NULL));
	// Nothing to allocate: NULL and success, as on an H100.
	h = (int *)&total;
	TRY(cudaHostAlloc((void **)&h, 0, 0));
	EXPECT_TRUE(h == NULL);
	TRY(cudaMallocHost((void **)&h, 1024 * sizeof(int)));
	TRY(cudaHostAlloc((void **)&m, 1024 * sizeof(int),
			  cudaHostAllocMapped));
	// A refused allocation leaves NULL, as on an H100.
	p = (int *)&total;
	EXPECT(cudaErrorInvalidValue, cudaHostAlloc((void **)&p, 16, 0x80));
	EXPECT(cudaErrorInvalidValue, cudaGetLastError());
	EXPECT_TRUE(p == NULL);
	TRY(cudaMalloc((void **)&d, 1024 * sizeof(int)));
	fill<int><<<4, 256>>>(d, 42, 1024);
	TRY(cudaMemcpy(h, d, 1024 * sizeof(int), cudaMemcpyDefault));
	TRY(cudaMemcpy(m, h, 1024 * sizeof(int), cudaMemcpyHostToHost));
	for (i = 0; i < 1024; i++)
		bad += m[i] != 42;
	EXPECT_TRUE(bad == 0);
	TRY(cudaFreeHost(h));
	TRY(cudaFreeHost(m));
	TRY(cudaFree(d));
}

// After cudaDeviceReset the next call makes a new context, and kernels
// load into it again.
static void check_reset(void)
{
	int *d, v = 0;

	TRY(cudaDeviceReset());
	TRY(cudaMalloc((void **)&d, sizeof(int)));
	fill<int><<<1, 1>>>(d, 5, 1);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(&v, d, sizeof(int), cudaMemcpyDeviceToHost));
	EXPECT_TRUE(v == 5);
	TRY(cudaFree(d));
	TRY(cudaDeviceSynchronize());
}

int main(void)
{
	int driver = 0, runtime = 0;

	rt_check_library();
	TRY(cudaDriverGetVersion(&driver));
	TRY(cudaRuntimeGetVersion(&runtime));
	printf("CUDA driver version %d, runtime version %d\n", driver,
	       runtime);
	check_devices();
	check_vectoradd();
	check_host_memory();
	check_reset();
	TRY(cudaDeviceReset());
	return rt_result();
}
