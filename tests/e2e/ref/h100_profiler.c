// SPDX-License-Identifier: MIT
// Probe run on an H100 for tests/e2e/profiler_api.c: the profiler span
// calls and the GPUDirect RDMA flush, before cuInit, without a context and
// in one. Built with gcc -I$CUDA/include h100_profiler.c -lcuda.
#include <stdio.h>
#include <cuda.h>
#include <cudaProfiler.h>
int main(void)
{
	CUcontext c, p;
	printf("profiler start before init = %d\n", cuProfilerStart());
	cuInit(0);
	printf("profiler start no ctx = %d\n", cuProfilerStart());
	printf("profiler stop no ctx = %d\n", cuProfilerStop());
	printf("flush no ctx = %d\n", cuFlushGPUDirectRDMAWrites(0, 100));
	cuDevicePrimaryCtxRetain(&p, 0);
	cuCtxSetCurrent(p);
	printf("profiler start = %d\n", cuProfilerStart());
	printf("profiler start again = %d\n", cuProfilerStart());
	printf("profiler stop = %d\n", cuProfilerStop());
	printf("profiler stop again = %d\n", cuProfilerStop());
	printf("flush owner = %d\n", cuFlushGPUDirectRDMAWrites(0, 100));
	printf("flush all = %d\n", cuFlushGPUDirectRDMAWrites(0, 200));
	printf("flush scope 0 = %d\n", cuFlushGPUDirectRDMAWrites(0, 0));
	printf("flush scope 300 = %d\n", cuFlushGPUDirectRDMAWrites(0, 300));
	printf("flush target 1 = %d\n", cuFlushGPUDirectRDMAWrites(1, 100));
	int v = -1;
	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS, 0);
	printf("flush options attribute = %d\n", v);
	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING, 0);
	printf("writes ordering attribute = %d\n", v);
	cuCtxCreate(&c, NULL, 0, 0);
	printf("profiler start other ctx = %d\n", cuProfilerStart());
	printf("profiler init = %d\n", cuProfilerInitialize("x", "y", CU_OUT_CSV));
	return 0;
}
