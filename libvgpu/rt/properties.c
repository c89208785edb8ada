// SPDX-License-Identifier: MIT
/*
 * cudaGetDeviceProperties: CUDA 13's struct cudaDeviceProp, each field
 * filled from the driver attribute it reports.
 */
#include <string.h>

#include "rt.h"

enum rt_prop_type { RT_INT, RT_UINT, RT_SIZE };

struct rt_prop {
	size_t offset;			/* in struct cudaDeviceProp */
	enum rt_prop_type type;
	CUdevice_attribute attr;
};

#define P(field, attr) \
	{ offsetof(struct cudaDeviceProp, field), RT_INT, \
	  CU_DEVICE_ATTRIBUTE_##attr }
#define PU(field, attr) \
	{ offsetof(struct cudaDeviceProp, field), RT_UINT, \
	  CU_DEVICE_ATTRIBUTE_##attr }
#define PS(field, attr) \
	{ offsetof(struct cudaDeviceProp, field), RT_SIZE, \
	  CU_DEVICE_ATTRIBUTE_##attr }

static const struct rt_prop rt_props[] = {
	PS(sharedMemPerBlock, MAX_SHARED_MEMORY_PER_BLOCK),
	P(regsPerBlock, MAX_REGISTERS_PER_BLOCK),
	P(warpSize, WARP_SIZE),
	PS(memPitch, MAX_PITCH),
	P(maxThreadsPerBlock, MAX_THREADS_PER_BLOCK),
	P(maxThreadsDim[0], MAX_BLOCK_DIM_X),
	P(maxThreadsDim[1], MAX_BLOCK_DIM_Y),
	P(maxThreadsDim[2], MAX_BLOCK_DIM_Z),
	P(maxGridSize[0], MAX_GRID_DIM_X),
	P(maxGridSize[1], MAX_GRID_DIM_Y),
	P(maxGridSize[2], MAX_GRID_DIM_Z),
	PS(totalConstMem, TOTAL_CONSTANT_MEMORY),
	P(major, COMPUTE_CAPABILITY_MAJOR),
	P(minor, COMPUTE_CAPABILITY_MINOR),
	PS(textureAlignment, TEXTURE_ALIGNMENT),
	PS(texturePitchAlignment, TEXTURE_PITCH_ALIGNMENT),
	P(multiProcessorCount, MULTIPROCESSOR_COUNT),
	P(integrated, INTEGRATED),
	P(canMapHostMemory, CAN_MAP_HOST_MEMORY),
	P(maxTexture1D, MAXIMUM_TEXTURE1D_WIDTH),
	P(maxTexture1DMipmap, MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH),
	P(maxTexture2D[0], MAXIMUM_TEXTURE2D_WIDTH),
	P(maxTexture2D[1], MAXIMUM_TEXTURE2D_HEIGHT),
	P(maxTexture2DMipmap[0], MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH),
	P(maxTexture2DMipmap[1], MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT),
	P(maxTexture2DLinear[0], MAXIMUM_TEXTURE2D_LINEAR_WIDTH),
	P(maxTexture2DLinear[1], MAXIMUM_TEXTURE2D_LINEAR_HEIGHT),
	P(maxTexture2DLinear[2], MAXIMUM_TEXTURE2D_LINEAR_PITCH),
	P(maxTexture2DGather[0], MAXIMUM_TEXTURE2D_GATHER_WIDTH),
	P(maxTexture2DGather[1], MAXIMUM_TEXTURE2D_GATHER_HEIGHT),
	P(maxTexture3D[0], MAXIMUM_TEXTURE3D_WIDTH),
	P(maxTexture3D[1], MAXIMUM_TEXTURE3D_HEIGHT),
	P(maxTexture3D[2], MAXIMUM_TEXTURE3D_DEPTH),
	P(maxTexture3DAlt[0], MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE),
	P(maxTexture3DAlt[1], MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE),
	P(maxTexture3DAlt[2], MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE),
	P(maxTextureCubemap, MAXIMUM_TEXTURECUBEMAP_WIDTH),
	P(maxTexture1DLayered[0], MAXIMUM_TEXTURE1D_LAYERED_WIDTH),
	P(maxTexture1DLayered[1], MAXIMUM_TEXTURE1D_LAYERED_LAYERS),
	P(maxTexture2DLayered[0], MAXIMUM_TEXTURE2D_LAYERED_WIDTH),
	P(maxTexture2DLayered[1], MAXIMUM_TEXTURE2D_LAYERED_HEIGHT),
	P(maxTexture2DLayered[2], MAXIMUM_TEXTURE2D_LAYERED_LAYERS),
	P(maxTextureCubemapLayered[0], MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH),
	P(maxTextureCubemapLayered[1], MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS),
	P(maxSurface1D, MAXIMUM_SURFACE1D_WIDTH),
	P(maxSurface2D[0], MAXIMUM_SURFACE2D_WIDTH),
	P(maxSurface2D[1], MAXIMUM_SURFACE2D_HEIGHT),
	P(maxSurface3D[0], MAXIMUM_SURFACE3D_WIDTH),
	P(maxSurface3D[1], MAXIMUM_SURFACE3D_HEIGHT),
	P(maxSurface3D[2], MAXIMUM_SURFACE3D_DEPTH),
	P(maxSurface1DLayered[0], MAXIMUM_SURFACE1D_LAYERED_WIDTH),
	P(maxSurface1DLayered[1], MAXIMUM_SURFACE1D_LAYERED_LAYERS),
	P(maxSurface2DLayered[0], MAXIMUM_SURFACE2D_LAYERED_WIDTH),
	P(maxSurface2DLayered[1], MAXIMUM_SURFACE2D_LAYERED_HEIGHT),
	P(maxSurface2DLayered[2], MAXIMUM_SURFACE2D_LAYERED_LAYERS),
	P(maxSurfaceCubemap, MAXIMUM_SURFACECUBEMAP_WIDTH),
	P(maxSurfaceCubemapLayered[0], MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH),
	P(maxSurfaceCubemapLayered[1], MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS),
	PS(surfaceAlignment, SURFACE_ALIGNMENT),
	P(concurrentKernels, CONCURRENT_KERNELS),
	P(ECCEnabled, ECC_ENABLED),
	P(pciBusID, PCI_BUS_ID),
	P(pciDeviceID, PCI_DEVICE_ID),
	P(pciDomainID, PCI_DOMAIN_ID),
	P(tccDriver, TCC_DRIVER),
	P(asyncEngineCount, ASYNC_ENGINE_COUNT),
	P(unifiedAddressing, UNIFIED_ADDRESSING),
	P(memoryBusWidth, GLOBAL_MEMORY_BUS_WIDTH),
	P(l2CacheSize, L2_CACHE_SIZE),
	P(persistingL2CacheMaxSize, MAX_PERSISTING_L2_CACHE_SIZE),
	P(maxThreadsPerMultiProcessor, MAX_THREADS_PER_MULTIPROCESSOR),
	P(streamPrioritiesSupported, STREAM_PRIORITIES_SUPPORTED),
	P(globalL1CacheSupported, GLOBAL_L1_CACHE_SUPPORTED),
	P(localL1CacheSupported, LOCAL_L1_CACHE_SUPPORTED),
	PS(sharedMemPerMultiprocessor, MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
	P(regsPerMultiprocessor, MAX_REGISTERS_PER_MULTIPROCESSOR),
	P(managedMemory, MANAGED_MEMORY),
	P(isMultiGpuBoard, MULTI_GPU_BOARD),
	P(multiGpuBoardGroupID, MULTI_GPU_BOARD_GROUP_ID),
	P(hostNativeAtomicSupported, HOST_NATIVE_ATOMIC_SUPPORTED),
	P(pageableMemoryAccess, PAGEABLE_MEMORY_ACCESS),
	P(concurrentManagedAccess, CONCURRENT_MANAGED_ACCESS),
	P(computePreemptionSupported, COMPUTE_PREEMPTION_SUPPORTED),
	P(canUseHostPointerForRegisteredMem,
	  CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM),
	P(cooperativeLaunch, COOPERATIVE_LAUNCH),
	PS(sharedMemPerBlockOptin, MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
	P(pageableMemoryAccessUsesHostPageTables,
	  PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES),
	P(directManagedMemAccessFromHost, DIRECT_MANAGED_MEM_ACCESS_FROM_HOST),
	P(maxBlocksPerMultiProcessor, MAX_BLOCKS_PER_MULTIPROCESSOR),
	P(accessPolicyMaxWindowSize, MAX_ACCESS_POLICY_WINDOW_SIZE),
	PS(reservedSharedMemPerBlock, RESERVED_SHARED_MEMORY_PER_BLOCK),
	P(hostRegisterSupported, HOST_REGISTER_SUPPORTED),
	P(sparseCudaArraySupported, SPARSE_CUDA_ARRAY_SUPPORTED),
	P(hostRegisterReadOnlySupported, READ_ONLY_HOST_REGISTER_SUPPORTED),
	P(timelineSemaphoreInteropSupported,
	  TIMELINE_SEMAPHORE_INTEROP_SUPPORTED),
	P(memoryPoolsSupported, MEMORY_POOLS_SUPPORTED),
	P(gpuDirectRDMASupported, GPU_DIRECT_RDMA_SUPPORTED),
	PU(gpuDirectRDMAFlushWritesOptions,
	   GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS),
	P(gpuDirectRDMAWritesOrdering, GPU_DIRECT_RDMA_WRITES_ORDERING),
	PU(memoryPoolSupportedHandleTypes, MEMPOOL_SUPPORTED_HANDLE_TYPES),
	P(deferredMappingCudaArraySupported,
	  DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED),
	P(ipcEventSupported, IPC_EVENT_SUPPORTED),
	P(clusterLaunch, CLUSTER_LAUNCH),
	P(unifiedFunctionPointers, UNIFIED_FUNCTION_POINTERS),
	P(deviceNumaConfig, NUMA_CONFIG),
	P(deviceNumaId, NUMA_ID),
	P(mpsEnabled, MPS_ENABLED),
	P(hostNumaId, HOST_NUMA_ID),
	PU(gpuPciDeviceID, GPU_PCI_DEVICE_ID),
	PU(gpuPciSubsystemID, GPU_PCI_SUBSYSTEM_ID),
	P(hostNumaMultinodeIpcSupported, HOST_NUMA_MULTINODE_IPC_SUPPORTED),
};

static CUresult rt_prop_fill(struct cudaDeviceProp *prop, CUdevice dev)
{
	char *base = (char *)prop;
	size_t i, total = 0;
	CUresult r;

	r = cuDeviceGetName(prop->name, sizeof(prop->name), dev);
	if (r)
		return r;
	r = cuDeviceGetUuid_v2((CUuuid *)&prop->uuid, dev);
	if (r)
		return r;
	r = cuDeviceTotalMem(&total, dev);
	if (r)
		return r;
	prop->totalGlobalMem = total;
	for (i = 0; i < sizeof(rt_props) / sizeof(rt_props[0]); i++) {
		const struct rt_prop *p = &rt_props[i];
		int v = 0;

		r = cuDeviceGetAttribute(&v, p->attr, dev);
		if (r)
			return r;
		if (p->type == RT_SIZE) {
			size_t s = (size_t)v;

			memcpy(base + p->offset, &s, sizeof(s));
		} else {
			/* int and unsigned int share size and bits. */
			memcpy(base + p->offset, &v, sizeof(v));
		}
	}
	return CUDA_SUCCESS;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device)
{
	int count = 0;
	cudaError_t e;

	if (!prop)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_init();
	if (e)
		return rt_ret(e);
	e = rt_error(cuDeviceGetCount(&count));
	if (e)
		return rt_ret(e);
	if (device < 0 || device >= count)
		return rt_ret(cudaErrorInvalidDevice);
	/* Windows-only fields (luid, its node mask) and the reserved tail
	 * read 0, as on Linux with NVIDIA's driver. */
	memset(prop, 0, sizeof(*prop));
	return rt_ret_cu(rt_prop_fill(prop, device));
}
