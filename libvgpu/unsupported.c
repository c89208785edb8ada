// SPDX-License-Identifier: MIT
/*
 * The entry points of CUDA 13.0's libcuda that libvgpu does not implement:
 * each answers CUDA_ERROR_NOT_SUPPORTED, grouped by the issue that will
 * implement it or by why it cannot exist here. Printed by tools/cuda-facts
 * stubs (the symbols of the toolkit's stub libcuda.so that libvgpu lacked);
 * an entry point leaves this file when it is implemented.
 */
#include "abi_v1.h"
#include "vg.h"

/* The stubs take their arguments and do nothing with them. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* The macros of cuda.h would rename these definitions. */
#undef cuGraphicsMapResources
#undef cuGraphicsResourceGetMappedPointer
#undef cuGraphicsResourceSetMapFlags
#undef cuGraphicsUnmapResources
#undef cuMemBatchDecompressAsync
#undef cuMemMapArrayAsync
#undef cuMemcpy3DBatchAsync
#undef cuMemcpyBatchAsync

/*
 * Cannot exist here: graphics, NvSci, green contexts, checkpoints, core
 * dumps, logs, the profiler.
 */
CUresult cuCheckpointProcessCheckpoint(int a0, CUcheckpointCheckpointArgs *a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuCheckpointProcessGetRestoreThreadId(int a0, int *a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuCheckpointProcessGetState(int a0, CUprocessState *a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuCheckpointProcessLock(int a0, CUcheckpointLockArgs *a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuCheckpointProcessRestore(int a0, CUcheckpointRestoreArgs *a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuCheckpointProcessUnlock(int a0, CUcheckpointUnlockArgs *a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuCoredumpGetAttribute(CUcoredumpSettings a0, void *a1, size_t *a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuCoredumpGetAttributeGlobal(CUcoredumpSettings a0, void *a1,
		size_t *a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuCoredumpSetAttribute(CUcoredumpSettings a0, void *a1, size_t *a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuCoredumpSetAttributeGlobal(CUcoredumpSettings a0, void *a1,
		size_t *a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuCtxFromGreenCtx(CUcontext *a0, CUgreenCtx a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuCtxGetDevResource(CUcontext a0, CUdevResource *a1,
		CUdevResourceType a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuDevResourceGenerateDesc(CUdevResourceDesc *a0, CUdevResource *a1,
		unsigned int a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuDevSmResourceSplitByCount(CUdevResource *a0, unsigned int *a1,
		const CUdevResource *a2, CUdevResource *a3, unsigned int a4,
		unsigned int a5)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuDeviceGetDevResource(CUdevice a0, CUdevResource *a1,
		CUdevResourceType a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuDeviceGetNvSciSyncAttributes(void *a0, CUdevice a1, int a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGraphicsMapResources(unsigned int a0, CUgraphicsResource *a1,
		CUstream a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGraphicsMapResources_ptsz(unsigned int a0, CUgraphicsResource *a1,
		CUstream a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGraphicsResourceGetMappedMipmappedArray(CUmipmappedArray *a0,
		CUgraphicsResource a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGraphicsResourceGetMappedPointer(CUdeviceptr_v1 *a0,
		unsigned int *a1, CUgraphicsResource a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGraphicsResourceGetMappedPointer_v2(CUdeviceptr *a0, size_t *a1,
		CUgraphicsResource a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGraphicsResourceSetMapFlags(CUgraphicsResource a0, unsigned int a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGraphicsResourceSetMapFlags_v2(CUgraphicsResource a0,
		unsigned int a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGraphicsSubResourceGetMappedArray(CUarray *a0, CUgraphicsResource a1,
		unsigned int a2, unsigned int a3)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGraphicsUnmapResources(unsigned int a0, CUgraphicsResource *a1,
		CUstream a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGraphicsUnmapResources_ptsz(unsigned int a0, CUgraphicsResource *a1,
		CUstream a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGraphicsUnregisterResource(CUgraphicsResource a0)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGreenCtxCreate(CUgreenCtx *a0, CUdevResourceDesc a1, CUdevice a2,
		unsigned int a3)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGreenCtxDestroy(CUgreenCtx a0)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGreenCtxGetDevResource(CUgreenCtx a0, CUdevResource *a1,
		CUdevResourceType a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGreenCtxGetId(CUgreenCtx a0, unsigned long long *a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGreenCtxRecordEvent(CUgreenCtx a0, CUevent a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGreenCtxStreamCreate(CUstream *a0, CUgreenCtx a1, unsigned int a2,
		int a3)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuGreenCtxWaitEvent(CUgreenCtx a0, CUevent a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuLogsCurrent(CUlogIterator *a0, unsigned int a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuLogsDumpToFile(CUlogIterator *a0, const char *a1, unsigned int a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuLogsDumpToMemory(CUlogIterator *a0, char *a1, size_t *a2,
		unsigned int a3)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuLogsRegisterCallback(CUlogsCallback a0, void *a1,
		CUlogsCallbackHandle *a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuLogsUnregisterCallback(CUlogsCallbackHandle a0)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuProfilerInitialize(const char *a0, const char *a1, int a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuStreamGetGreenCtx(CUstream a0, CUgreenCtx *a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

/* Issue 18: textures, surfaces, tensor maps. */
CUresult cuParamSetTexRef(CUfunction a0, int a1, CUtexref a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuTensorMapEncodeIm2col(CUtensorMap *a0, CUtensorMapDataType a1,
		cuuint32_t a2, void *a3, const cuuint64_t *a4,
		const cuuint64_t *a5, const int *a6, const int *a7,
		cuuint32_t a8, cuuint32_t a9, const cuuint32_t *a10,
		CUtensorMapInterleave a11, CUtensorMapSwizzle a12,
		CUtensorMapL2promotion a13, CUtensorMapFloatOOBfill a14)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuTensorMapEncodeIm2colWide(CUtensorMap *a0, CUtensorMapDataType a1,
		cuuint32_t a2, void *a3, const cuuint64_t *a4,
		const cuuint64_t *a5, int a6, int a7, cuuint32_t a8,
		cuuint32_t a9, const cuuint32_t *a10, CUtensorMapInterleave a11,
		CUtensorMapIm2ColWideMode a12, CUtensorMapSwizzle a13,
		CUtensorMapL2promotion a14, CUtensorMapFloatOOBfill a15)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuTensorMapEncodeTiled(CUtensorMap *a0, CUtensorMapDataType a1,
		cuuint32_t a2, void *a3, const cuuint64_t *a4,
		const cuuint64_t *a5, const cuuint32_t *a6,
		const cuuint32_t *a7, CUtensorMapInterleave a8,
		CUtensorMapSwizzle a9, CUtensorMapL2promotion a10,
		CUtensorMapFloatOOBfill a11)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuTensorMapReplaceAddress(CUtensorMap *a0, void *a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

/*
 * Issue 17: virtual and managed memory, IPC, memory pools, peers,
 * multicast.
 */
CUresult cuDeviceGetHostAtomicCapabilities(unsigned int *a0,
		const CUatomicOperation *a1, unsigned int a2, CUdevice a3)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuDeviceGetP2PAtomicCapabilities(unsigned int *a0,
		const CUatomicOperation *a1, unsigned int a2, CUdevice a3,
		CUdevice a4)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuExternalMemoryGetMappedMipmappedArray(CUmipmappedArray *a0,
		CUexternalMemory a1,
		const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC *a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMemBatchDecompressAsync(CUmemDecompressParams *a0, size_t a1,
		unsigned int a2, size_t *a3, CUstream a4)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMemBatchDecompressAsync_ptsz(CUmemDecompressParams *a0, size_t a1,
		unsigned int a2, size_t *a3, CUstream a4)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMemGetHandleForAddressRange(void *a0, CUdeviceptr a1, size_t a2,
		CUmemRangeHandleType a3, unsigned long long a4)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMemMapArrayAsync(CUarrayMapInfo *a0, unsigned int a1, CUstream a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMemMapArrayAsync_ptsz(CUarrayMapInfo *a0, unsigned int a1,
		CUstream a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMemcpy3DBatchAsync(size_t a0, CUDA_MEMCPY3D_BATCH_OP *a1, size_t *a2,
		unsigned long long a3, CUstream a4)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMemcpy3DBatchAsync_ptsz(size_t a0, CUDA_MEMCPY3D_BATCH_OP *a1,
		size_t *a2, unsigned long long a3, CUstream a4)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMemcpy3DBatchAsync_v2(size_t a0, CUDA_MEMCPY3D_BATCH_OP *a1,
		unsigned long long a2, CUstream a3)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMemcpy3DBatchAsync_v2_ptsz(size_t a0, CUDA_MEMCPY3D_BATCH_OP *a1,
		unsigned long long a2, CUstream a3)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMemcpyBatchAsync(CUdeviceptr *a0, CUdeviceptr *a1, size_t *a2,
		size_t a3, CUmemcpyAttributes *a4, size_t *a5, size_t a6,
		size_t *a7, CUstream a8)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMemcpyBatchAsync_ptsz(CUdeviceptr *a0, CUdeviceptr *a1, size_t *a2,
		size_t a3, CUmemcpyAttributes *a4, size_t *a5, size_t a6,
		size_t *a7, CUstream a8)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMemcpyBatchAsync_v2(CUdeviceptr *a0, CUdeviceptr *a1, size_t *a2,
		size_t a3, CUmemcpyAttributes *a4, size_t *a5, size_t a6,
		CUstream a7)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMemcpyBatchAsync_v2_ptsz(CUdeviceptr *a0, CUdeviceptr *a1,
		size_t *a2, size_t a3, CUmemcpyAttributes *a4, size_t *a5,
		size_t a6, CUstream a7)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMulticastAddDevice(CUmemGenericAllocationHandle a0, CUdevice a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMulticastBindAddr(CUmemGenericAllocationHandle a0, size_t a1,
		CUdeviceptr a2, size_t a3, unsigned long long a4)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMulticastBindMem(CUmemGenericAllocationHandle a0, size_t a1,
		CUmemGenericAllocationHandle a2, size_t a3, size_t a4,
		unsigned long long a5)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMulticastCreate(CUmemGenericAllocationHandle *a0,
		const CUmulticastObjectProp *a1)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMulticastGetGranularity(size_t *a0, const CUmulticastObjectProp *a1,
		CUmulticastGranularity_flags a2)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

CUresult cuMulticastUnbind(CUmemGenericAllocationHandle a0, CUdevice a1,
		size_t a2, size_t a3)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}
