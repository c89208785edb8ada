// SPDX-License-Identifier: MIT
// A runtime program that also calls the driver API: both work in the
// device's primary context, so memory from either serves the other and a
// driver-API stream carries a <<<>>> launch, as with NVIDIA's libraries.
#include <string.h>

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

// Each field of cudaDeviceProp against the driver attribute it reports.
#define F(field, attr) \
	{ #field, (long long)prop.field, CU_DEVICE_ATTRIBUTE_##attr }

static void check_properties(void)
{
	struct cudaDeviceProp prop;
	char name[256];
	size_t total = 0;
	unsigned int i;
	int bad = 0;

	TRY(cudaGetDeviceProperties(&prop, 0));
	const struct {
		const char *field;
		long long value;
		CUdevice_attribute attr;
	} fields[] = {
	F(sharedMemPerBlock, MAX_SHARED_MEMORY_PER_BLOCK),
	F(regsPerBlock, MAX_REGISTERS_PER_BLOCK),
	F(warpSize, WARP_SIZE),
	F(memPitch, MAX_PITCH),
	F(maxThreadsPerBlock, MAX_THREADS_PER_BLOCK),
	F(maxThreadsDim[0], MAX_BLOCK_DIM_X),
	F(maxThreadsDim[1], MAX_BLOCK_DIM_Y),
	F(maxThreadsDim[2], MAX_BLOCK_DIM_Z),
	F(maxGridSize[0], MAX_GRID_DIM_X),
	F(maxGridSize[1], MAX_GRID_DIM_Y),
	F(maxGridSize[2], MAX_GRID_DIM_Z),
	F(totalConstMem, TOTAL_CONSTANT_MEMORY),
	F(major, COMPUTE_CAPABILITY_MAJOR),
	F(minor, COMPUTE_CAPABILITY_MINOR),
	F(textureAlignment, TEXTURE_ALIGNMENT),
	F(texturePitchAlignment, TEXTURE_PITCH_ALIGNMENT),
	F(multiProcessorCount, MULTIPROCESSOR_COUNT),
	F(integrated, INTEGRATED),
	F(canMapHostMemory, CAN_MAP_HOST_MEMORY),
	F(maxTexture1D, MAXIMUM_TEXTURE1D_WIDTH),
	F(maxTexture1DMipmap, MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH),
	F(maxTexture2D[0], MAXIMUM_TEXTURE2D_WIDTH),
	F(maxTexture2D[1], MAXIMUM_TEXTURE2D_HEIGHT),
	F(maxTexture2DMipmap[0], MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH),
	F(maxTexture2DMipmap[1], MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT),
	F(maxTexture2DLinear[0], MAXIMUM_TEXTURE2D_LINEAR_WIDTH),
	F(maxTexture2DLinear[1], MAXIMUM_TEXTURE2D_LINEAR_HEIGHT),
	F(maxTexture2DLinear[2], MAXIMUM_TEXTURE2D_LINEAR_PITCH),
	F(maxTexture2DGather[0], MAXIMUM_TEXTURE2D_GATHER_WIDTH),
	F(maxTexture2DGather[1], MAXIMUM_TEXTURE2D_GATHER_HEIGHT),
	F(maxTexture3D[0], MAXIMUM_TEXTURE3D_WIDTH),
	F(maxTexture3D[1], MAXIMUM_TEXTURE3D_HEIGHT),
	F(maxTexture3D[2], MAXIMUM_TEXTURE3D_DEPTH),
	F(maxTexture3DAlt[0], MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE),
	F(maxTexture3DAlt[1], MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE),
	F(maxTexture3DAlt[2], MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE),
	F(maxTextureCubemap, MAXIMUM_TEXTURECUBEMAP_WIDTH),
	F(maxTexture1DLayered[0], MAXIMUM_TEXTURE1D_LAYERED_WIDTH),
	F(maxTexture1DLayered[1], MAXIMUM_TEXTURE1D_LAYERED_LAYERS),
	F(maxTexture2DLayered[0], MAXIMUM_TEXTURE2D_LAYERED_WIDTH),
	F(maxTexture2DLayered[1], MAXIMUM_TEXTURE2D_LAYERED_HEIGHT),
	F(maxTexture2DLayered[2], MAXIMUM_TEXTURE2D_LAYERED_LAYERS),
	F(maxTextureCubemapLayered[0], MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH),
	F(maxTextureCubemapLayered[1], MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS),
	F(maxSurface1D, MAXIMUM_SURFACE1D_WIDTH),
	F(maxSurface2D[0], MAXIMUM_SURFACE2D_WIDTH),
	F(maxSurface2D[1], MAXIMUM_SURFACE2D_HEIGHT),
	F(maxSurface3D[0], MAXIMUM_SURFACE3D_WIDTH),
	F(maxSurface3D[1], MAXIMUM_SURFACE3D_HEIGHT),
	F(maxSurface3D[2], MAXIMUM_SURFACE3D_DEPTH),
	F(maxSurface1DLayered[0], MAXIMUM_SURFACE1D_LAYERED_WIDTH),
	F(maxSurface1DLayered[1], MAXIMUM_SURFACE1D_LAYERED_LAYERS),
	F(maxSurface2DLayered[0], MAXIMUM_SURFACE2D_LAYERED_WIDTH),
	F(maxSurface2DLayered[1], MAXIMUM_SURFACE2D_LAYERED_HEIGHT),
	F(maxSurface2DLayered[2], MAXIMUM_SURFACE2D_LAYERED_LAYERS),
	F(maxSurfaceCubemap, MAXIMUM_SURFACECUBEMAP_WIDTH),
	F(maxSurfaceCubemapLayered[0], MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH),
	F(maxSurfaceCubemapLayered[1], MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS),
	F(surfaceAlignment, SURFACE_ALIGNMENT),
	F(concurrentKernels, CONCURRENT_KERNELS),
	F(ECCEnabled, ECC_ENABLED),
	F(pciBusID, PCI_BUS_ID),
	F(pciDeviceID, PCI_DEVICE_ID),
	F(pciDomainID, PCI_DOMAIN_ID),
	F(tccDriver, TCC_DRIVER),
	F(asyncEngineCount, ASYNC_ENGINE_COUNT),
	F(unifiedAddressing, UNIFIED_ADDRESSING),
	F(memoryBusWidth, GLOBAL_MEMORY_BUS_WIDTH),
	F(l2CacheSize, L2_CACHE_SIZE),
	F(persistingL2CacheMaxSize, MAX_PERSISTING_L2_CACHE_SIZE),
	F(maxThreadsPerMultiProcessor, MAX_THREADS_PER_MULTIPROCESSOR),
	F(streamPrioritiesSupported, STREAM_PRIORITIES_SUPPORTED),
	F(globalL1CacheSupported, GLOBAL_L1_CACHE_SUPPORTED),
	F(localL1CacheSupported, LOCAL_L1_CACHE_SUPPORTED),
	F(sharedMemPerMultiprocessor, MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
	F(regsPerMultiprocessor, MAX_REGISTERS_PER_MULTIPROCESSOR),
	F(managedMemory, MANAGED_MEMORY),
	F(isMultiGpuBoard, MULTI_GPU_BOARD),
	F(multiGpuBoardGroupID, MULTI_GPU_BOARD_GROUP_ID),
	F(hostNativeAtomicSupported, HOST_NATIVE_ATOMIC_SUPPORTED),
	F(pageableMemoryAccess, PAGEABLE_MEMORY_ACCESS),
	F(concurrentManagedAccess, CONCURRENT_MANAGED_ACCESS),
	F(computePreemptionSupported, COMPUTE_PREEMPTION_SUPPORTED),
	F(canUseHostPointerForRegisteredMem,
	  CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM),
	F(cooperativeLaunch, COOPERATIVE_LAUNCH),
	F(sharedMemPerBlockOptin, MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
	F(pageableMemoryAccessUsesHostPageTables,
	  PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES),
	F(directManagedMemAccessFromHost, DIRECT_MANAGED_MEM_ACCESS_FROM_HOST),
	F(maxBlocksPerMultiProcessor, MAX_BLOCKS_PER_MULTIPROCESSOR),
	F(accessPolicyMaxWindowSize, MAX_ACCESS_POLICY_WINDOW_SIZE),
	F(reservedSharedMemPerBlock, RESERVED_SHARED_MEMORY_PER_BLOCK),
	F(hostRegisterSupported, HOST_REGISTER_SUPPORTED),
	F(sparseCudaArraySupported, SPARSE_CUDA_ARRAY_SUPPORTED),
	F(hostRegisterReadOnlySupported, READ_ONLY_HOST_REGISTER_SUPPORTED),
	F(timelineSemaphoreInteropSupported,
	  TIMELINE_SEMAPHORE_INTEROP_SUPPORTED),
	F(memoryPoolsSupported, MEMORY_POOLS_SUPPORTED),
	F(gpuDirectRDMASupported, GPU_DIRECT_RDMA_SUPPORTED),
	F(gpuDirectRDMAFlushWritesOptions,
	  GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS),
	F(gpuDirectRDMAWritesOrdering, GPU_DIRECT_RDMA_WRITES_ORDERING),
	F(memoryPoolSupportedHandleTypes, MEMPOOL_SUPPORTED_HANDLE_TYPES),
	F(deferredMappingCudaArraySupported,
	  DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED),
	F(ipcEventSupported, IPC_EVENT_SUPPORTED),
	F(clusterLaunch, CLUSTER_LAUNCH),
	F(unifiedFunctionPointers, UNIFIED_FUNCTION_POINTERS),
	F(deviceNumaConfig, NUMA_CONFIG),
	F(deviceNumaId, NUMA_ID),
	F(mpsEnabled, MPS_ENABLED),
	F(hostNumaId, HOST_NUMA_ID),
	F(gpuPciDeviceID, GPU_PCI_DEVICE_ID),
	F(gpuPciSubsystemID, GPU_PCI_SUBSYSTEM_ID),
	F(hostNumaMultinodeIpcSupported, HOST_NUMA_MULTINODE_IPC_SUPPORTED),
	};
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		int v = 0;

		CU_TRY(cuDeviceGetAttribute(&v, fields[i].attr, 0));
		// The unsigned fields hold the attribute's bits.
		if (fields[i].value != v &&
		    fields[i].value != (long long)(unsigned int)v) {
			fprintf(stderr, "%s is %lld, the attribute %d\n",
				fields[i].field, fields[i].value, v);
			bad++;
		}
	}
	CU_TRY(cuDeviceGetName(name, sizeof(name), 0));
	CU_TRY(cuDeviceTotalMem(&total, 0));
	bad += strcmp(name, prop.name) != 0;
	bad += total != prop.totalGlobalMem;
	EXPECT_TRUE(bad == 0);
	printf("cudaDeviceProp: %u fields, the name and the memory size "
	       "match the driver's attributes: %d differ\n", i, bad);
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

	check_properties();

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
