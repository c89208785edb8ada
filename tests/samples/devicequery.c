// SPDX-License-Identifier: MIT
/*
 * deviceQuery over the driver API: lists every CUDA device with the figures
 * programs size their work from, then opens and closes a context on each.
 * Build it against libvgpu's cuda.h and run it where /dev/vgpu0 exists.
 */
#include <stdio.h>

#include "cuda.h"

#define TRY(call) do { \
	CUresult _r = (call); \
	if (_r != CUDA_SUCCESS) { \
		const char *_n = "?"; \
		cuGetErrorName(_r, &_n); \
		fprintf(stderr, "%s failed: %s (%d)\n", #call, _n, (int)_r); \
		printf("Result = FAIL\n"); \
		return 1; \
	} \
} while (0)

static int attr(CUdevice dev, CUdevice_attribute a)
{
	int v = 0;

	cuDeviceGetAttribute(&v, a, dev);
	return v;
}

static const char *yes(int v)
{
	return v ? "Yes" : "No";
}

int main(void)
{
	int version = 0, count = 0, dev;

	printf("deviceQuery (CUDA driver API)\n\n");
	TRY(cuDriverGetVersion(&version));
	TRY(cuInit(0));
	TRY(cuDeviceGetCount(&count));
	printf("CUDA driver version: %d.%d\n", version / 1000, version % 1000 / 10);
	printf("Detected %d CUDA capable device(s)\n", count);

	for (dev = 0; dev < count; dev++) {
		char name[256];
		size_t mem = 0;
		CUuuid u;
		const unsigned char *b = (const unsigned char *)u.bytes;
		CUcontext ctx;
		unsigned int flags = 0;

		TRY(cuDeviceGetName(name, sizeof(name), dev));
		TRY(cuDeviceTotalMem(&mem, dev));
		TRY(cuDeviceGetUuid(&u, dev));
		printf("\nDevice %d: \"%s\"\n", dev, name);
		printf("  UUID:                                          GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x\n",
		       b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9],
		       b[10], b[11], b[12], b[13], b[14], b[15]);
		printf("  CUDA capability major/minor version number:    %d.%d\n",
		       attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
		       attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR));
		printf("  Total amount of global memory:                 %zu MBytes (%zu bytes)\n",
		       mem >> 20, mem);
		printf("  Multiprocessors:                               %d\n",
		       attr(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
		printf("  GPU max clock rate:                            %d MHz\n",
		       attr(dev, CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000);
		printf("  Total amount of constant memory:               %d bytes\n",
		       attr(dev, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY));
		printf("  Total amount of shared memory per block:       %d bytes\n",
		       attr(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
		printf("  Total shared memory per multiprocessor:        %d bytes\n",
		       attr(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR));
		printf("  Total number of registers available per block: %d\n",
		       attr(dev, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK));
		printf("  Warp size:                                     %d\n",
		       attr(dev, CU_DEVICE_ATTRIBUTE_WARP_SIZE));
		printf("  Maximum number of threads per multiprocessor:  %d\n",
		       attr(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR));
		printf("  Maximum number of threads per block:           %d\n",
		       attr(dev, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
		printf("  Max dimension size of a thread block (x,y,z): (%d, %d, %d)\n",
		       attr(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X),
		       attr(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y),
		       attr(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z));
		printf("  Max dimension size of a grid size    (x,y,z): (%d, %d, %d)\n",
		       attr(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X),
		       attr(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y),
		       attr(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z));
		printf("  Concurrent copy and kernel execution:          %s with %d copy engine(s)\n",
		       yes(attr(dev, CU_DEVICE_ATTRIBUTE_GPU_OVERLAP)),
		       attr(dev, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT));
		printf("  Concurrent kernels:                            %s\n",
		       yes(attr(dev, CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS)));
		printf("  Unified addressing:                            %s\n",
		       yes(attr(dev, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING)));
		printf("  Managed memory:                                %s\n",
		       yes(attr(dev, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY)));
		printf("  Device PCI bus ID:                             %d\n",
		       attr(dev, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID));

		TRY(cuCtxCreate(&ctx, NULL, 0, dev));
		TRY(cuCtxGetFlags(&flags));
		TRY(cuCtxSynchronize());
		TRY(cuCtxDestroy(ctx));
		printf("  Context:                                       created, flags 0x%x, destroyed\n",
		       flags);
	}
	printf("\nResult = %s\n", count > 0 ? "PASS" : "FAIL");
	return count > 0 ? 0 : 1;
}
