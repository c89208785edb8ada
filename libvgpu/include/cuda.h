/* SPDX-License-Identifier: MIT */
/*
 * cuda.h - the CUDA driver API as implemented by libvgpu.
 *
 * Written for vgpu. Type names, function names, symbol versions and
 * enumeration values are those of NVIDIA's CUDA 13.0 driver API, so that
 * programs written against it build and link unchanged; the text is ours.
 * Only what libvgpu implements is declared: a call that is missing here is
 * missing from the library too.
 */
#ifndef VGPU_CUDA_H
#define VGPU_CUDA_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUDA_VERSION 13000
#define CUDAAPI

/*
 * Versioned entry points: a call written as cuCtxCreate(...) binds to the
 * symbol of the current ABI, as NVIDIA's header arranges.
 */
#define cuDeviceTotalMem cuDeviceTotalMem_v2
#define cuDeviceGetUuid cuDeviceGetUuid_v2
#define cuDevicePrimaryCtxRelease cuDevicePrimaryCtxRelease_v2
#define cuDevicePrimaryCtxReset cuDevicePrimaryCtxReset_v2
#define cuDevicePrimaryCtxSetFlags cuDevicePrimaryCtxSetFlags_v2
#define cuCtxCreate cuCtxCreate_v4
#define cuCtxDestroy cuCtxDestroy_v2
#define cuCtxPushCurrent cuCtxPushCurrent_v2
#define cuCtxPopCurrent cuCtxPopCurrent_v2
#define cuMemGetInfo cuMemGetInfo_v2
#define cuMemAlloc cuMemAlloc_v2
#define cuMemAllocPitch cuMemAllocPitch_v2
#define cuMemFree cuMemFree_v2
#define cuMemGetAddressRange cuMemGetAddressRange_v2
#define cuMemHostRegister cuMemHostRegister_v2
#define cuMemAllocHost cuMemAllocHost_v2
#define cuMemHostGetDevicePointer cuMemHostGetDevicePointer_v2
#define cuModuleGetGlobal cuModuleGetGlobal_v2
#define cuLinkCreate cuLinkCreate_v2
#define cuLinkAddData cuLinkAddData_v2
#define cuLinkAddFile cuLinkAddFile_v2
#define cuStreamDestroy cuStreamDestroy_v2
#define cuEventDestroy cuEventDestroy_v2
#define cuEventElapsedTime cuEventElapsedTime_v2

/*
 * Programs built for the per-thread default stream
 * (CUDA_API_PER_THREAD_DEFAULT_STREAM, which nvcc --default-stream
 * per-thread defines) call the _ptds and _ptsz entry points: synchronous
 * copies and fills run on the calling thread's default stream, and a NULL
 * stream means that stream too.
 */
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
#define CU_VG_PTDS(name) name##_ptds
#define CU_VG_PTSZ(name) name##_ptsz
#else
#define CU_VG_PTDS(name) name
#define CU_VG_PTSZ(name) name
#endif
#define cuMemcpyHtoD CU_VG_PTDS(cuMemcpyHtoD_v2)
#define cuMemcpyDtoH CU_VG_PTDS(cuMemcpyDtoH_v2)
#define cuMemcpyDtoD CU_VG_PTDS(cuMemcpyDtoD_v2)
#define cuMemcpy2D CU_VG_PTDS(cuMemcpy2D_v2)
#define cuMemcpy2DUnaligned CU_VG_PTDS(cuMemcpy2DUnaligned_v2)
#define cuMemcpy3D CU_VG_PTDS(cuMemcpy3D_v2)
#define cuMemsetD8 CU_VG_PTDS(cuMemsetD8_v2)
#define cuMemsetD16 CU_VG_PTDS(cuMemsetD16_v2)
#define cuMemsetD32 CU_VG_PTDS(cuMemsetD32_v2)
#define cuMemsetD2D8 CU_VG_PTDS(cuMemsetD2D8_v2)
#define cuMemsetD2D16 CU_VG_PTDS(cuMemsetD2D16_v2)
#define cuMemsetD2D32 CU_VG_PTDS(cuMemsetD2D32_v2)
#define cuMemcpyHtoDAsync CU_VG_PTSZ(cuMemcpyHtoDAsync_v2)
#define cuMemcpyDtoHAsync CU_VG_PTSZ(cuMemcpyDtoHAsync_v2)
#define cuMemcpyDtoDAsync CU_VG_PTSZ(cuMemcpyDtoDAsync_v2)
#define cuMemcpy2DAsync CU_VG_PTSZ(cuMemcpy2DAsync_v2)
#define cuMemcpy3DAsync CU_VG_PTSZ(cuMemcpy3DAsync_v2)
#define cuMemcpy CU_VG_PTDS(cuMemcpy)
#define cuMemcpyAsync CU_VG_PTSZ(cuMemcpyAsync)
#define cuMemsetD8Async CU_VG_PTSZ(cuMemsetD8Async)
#define cuMemsetD16Async CU_VG_PTSZ(cuMemsetD16Async)
#define cuMemsetD32Async CU_VG_PTSZ(cuMemsetD32Async)
#define cuMemsetD2D8Async CU_VG_PTSZ(cuMemsetD2D8Async)
#define cuMemsetD2D16Async CU_VG_PTSZ(cuMemsetD2D16Async)
#define cuMemsetD2D32Async CU_VG_PTSZ(cuMemsetD2D32Async)
#define cuLaunchKernel CU_VG_PTSZ(cuLaunchKernel)
#define cuLaunchHostFunc CU_VG_PTSZ(cuLaunchHostFunc)
#define cuStreamQuery CU_VG_PTSZ(cuStreamQuery)
#define cuStreamSynchronize CU_VG_PTSZ(cuStreamSynchronize)
#define cuStreamWaitEvent CU_VG_PTSZ(cuStreamWaitEvent)
#define cuStreamAddCallback CU_VG_PTSZ(cuStreamAddCallback)
#define cuStreamGetFlags CU_VG_PTSZ(cuStreamGetFlags)
#define cuStreamGetPriority CU_VG_PTSZ(cuStreamGetPriority)
#define cuStreamGetCtx CU_VG_PTSZ(cuStreamGetCtx)
#define cuEventRecord CU_VG_PTSZ(cuEventRecord)
#define cuEventRecordWithFlags CU_VG_PTSZ(cuEventRecordWithFlags)

typedef int CUdevice_v1;
typedef CUdevice_v1 CUdevice;
typedef unsigned long long CUdeviceptr_v2;
typedef CUdeviceptr_v2 CUdeviceptr;
typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;

typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUlinkState_st *CUlinkState;

typedef struct CUarray_st *CUarray;

typedef struct CUuuid_st {
	char bytes[16];
} CUuuid;

#define CU_IPC_HANDLE_SIZE 64
#define CU_MEMHOSTALLOC_PORTABLE 0x01
#define CU_MEMHOSTALLOC_DEVICEMAP 0x02
#define CU_MEMHOSTALLOC_WRITECOMBINED 0x04
#define CU_MEMHOSTREGISTER_PORTABLE 0x01
#define CU_MEMHOSTREGISTER_DEVICEMAP 0x02
#define CU_MEMHOSTREGISTER_IOMEMORY 0x04
#define CU_MEMHOSTREGISTER_READ_ONLY 0x08
#define CU_LAUNCH_PARAM_END_AS_INT 0x00
#define CU_LAUNCH_PARAM_END ((void *)CU_LAUNCH_PARAM_END_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT 0x01
#define CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)CU_LAUNCH_PARAM_BUFFER_POINTER_AS_INT)
#define CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT 0x02
#define CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)CU_LAUNCH_PARAM_BUFFER_SIZE_AS_INT)
#define CU_STREAM_LEGACY ((CUstream)0x1)
#define CU_STREAM_PER_THREAD ((CUstream)0x2)
#define CU_DEVICE_CPU ((CUdevice)-1)
#define CU_DEVICE_INVALID ((CUdevice)-2)

/* Enumerations, with the values of CUDA 13.0. */
typedef enum cudaError_enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_OUT_OF_MEMORY = 2,
	CUDA_ERROR_NOT_INITIALIZED = 3,
	CUDA_ERROR_DEINITIALIZED = 4,
	CUDA_ERROR_PROFILER_DISABLED = 5,
	CUDA_ERROR_PROFILER_NOT_INITIALIZED = 6,
	CUDA_ERROR_PROFILER_ALREADY_STARTED = 7,
	CUDA_ERROR_PROFILER_ALREADY_STOPPED = 8,
	CUDA_ERROR_STUB_LIBRARY = 34,
	CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER = 36,
	CUDA_ERROR_DEVICE_UNAVAILABLE = 46,
	CUDA_ERROR_NO_DEVICE = 100,
	CUDA_ERROR_INVALID_DEVICE = 101,
	CUDA_ERROR_DEVICE_NOT_LICENSED = 102,
	CUDA_ERROR_INVALID_IMAGE = 200,
	CUDA_ERROR_INVALID_CONTEXT = 201,
	CUDA_ERROR_CONTEXT_ALREADY_CURRENT = 202,
	CUDA_ERROR_MAP_FAILED = 205,
	CUDA_ERROR_UNMAP_FAILED = 206,
	CUDA_ERROR_ARRAY_IS_MAPPED = 207,
	CUDA_ERROR_ALREADY_MAPPED = 208,
	CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
	CUDA_ERROR_ALREADY_ACQUIRED = 210,
	CUDA_ERROR_NOT_MAPPED = 211,
	CUDA_ERROR_NOT_MAPPED_AS_ARRAY = 212,
	CUDA_ERROR_NOT_MAPPED_AS_POINTER = 213,
	CUDA_ERROR_ECC_UNCORRECTABLE = 214,
	CUDA_ERROR_UNSUPPORTED_LIMIT = 215,
	CUDA_ERROR_CONTEXT_ALREADY_IN_USE = 216,
	CUDA_ERROR_PEER_ACCESS_UNSUPPORTED = 217,
	CUDA_ERROR_INVALID_PTX = 218,
	CUDA_ERROR_INVALID_GRAPHICS_CONTEXT = 219,
	CUDA_ERROR_NVLINK_UNCORRECTABLE = 220,
	CUDA_ERROR_JIT_COMPILER_NOT_FOUND = 221,
	CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
	CUDA_ERROR_JIT_COMPILATION_DISABLED = 223,
	CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY = 224,
	CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC = 225,
	CUDA_ERROR_CONTAINED = 226,
	CUDA_ERROR_INVALID_SOURCE = 300,
	CUDA_ERROR_FILE_NOT_FOUND = 301,
	CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND = 302,
	CUDA_ERROR_SHARED_OBJECT_INIT_FAILED = 303,
	CUDA_ERROR_OPERATING_SYSTEM = 304,
	CUDA_ERROR_INVALID_HANDLE = 400,
	CUDA_ERROR_ILLEGAL_STATE = 401,
	CUDA_ERROR_LOSSY_QUERY = 402,
	CUDA_ERROR_NOT_FOUND = 500,
	CUDA_ERROR_NOT_READY = 600,
	CUDA_ERROR_ILLEGAL_ADDRESS = 700,
	CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701,
	CUDA_ERROR_LAUNCH_TIMEOUT = 702,
	CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING = 703,
	CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
	CUDA_ERROR_PEER_ACCESS_NOT_ENABLED = 705,
	CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE = 708,
	CUDA_ERROR_CONTEXT_IS_DESTROYED = 709,
	CUDA_ERROR_ASSERT = 710,
	CUDA_ERROR_TOO_MANY_PEERS = 711,
	CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
	CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
	CUDA_ERROR_HARDWARE_STACK_ERROR = 714,
	CUDA_ERROR_ILLEGAL_INSTRUCTION = 715,
	CUDA_ERROR_MISALIGNED_ADDRESS = 716,
	CUDA_ERROR_INVALID_ADDRESS_SPACE = 717,
	CUDA_ERROR_INVALID_PC = 718,
	CUDA_ERROR_LAUNCH_FAILED = 719,
	CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720,
	CUDA_ERROR_TENSOR_MEMORY_LEAK = 721,
	CUDA_ERROR_NOT_PERMITTED = 800,
	CUDA_ERROR_NOT_SUPPORTED = 801,
	CUDA_ERROR_SYSTEM_NOT_READY = 802,
	CUDA_ERROR_SYSTEM_DRIVER_MISMATCH = 803,
	CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE = 804,
	CUDA_ERROR_MPS_CONNECTION_FAILED = 805,
	CUDA_ERROR_MPS_RPC_FAILURE = 806,
	CUDA_ERROR_MPS_SERVER_NOT_READY = 807,
	CUDA_ERROR_MPS_MAX_CLIENTS_REACHED = 808,
	CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED = 809,
	CUDA_ERROR_MPS_CLIENT_TERMINATED = 810,
	CUDA_ERROR_CDP_NOT_SUPPORTED = 811,
	CUDA_ERROR_CDP_VERSION_MISMATCH = 812,
	CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900,
	CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901,
	CUDA_ERROR_STREAM_CAPTURE_MERGE = 902,
	CUDA_ERROR_STREAM_CAPTURE_UNMATCHED = 903,
	CUDA_ERROR_STREAM_CAPTURE_UNJOINED = 904,
	CUDA_ERROR_STREAM_CAPTURE_ISOLATION = 905,
	CUDA_ERROR_STREAM_CAPTURE_IMPLICIT = 906,
	CUDA_ERROR_CAPTURED_EVENT = 907,
	CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD = 908,
	CUDA_ERROR_TIMEOUT = 909,
	CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE = 910,
	CUDA_ERROR_EXTERNAL_DEVICE = 911,
	CUDA_ERROR_INVALID_CLUSTER_SIZE = 912,
	CUDA_ERROR_FUNCTION_NOT_LOADED = 913,
	CUDA_ERROR_INVALID_RESOURCE_TYPE = 914,
	CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION = 915,
	CUDA_ERROR_KEY_ROTATION = 916,
	CUDA_ERROR_UNKNOWN = 999,
} CUresult;

typedef enum CUdevice_attribute_enum {
	CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X = 2,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y = 3,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z = 4,
	CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X = 5,
	CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y = 6,
	CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z = 7,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK = 8,
	CU_DEVICE_ATTRIBUTE_SHARED_MEMORY_PER_BLOCK = 8,
	CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY = 9,
	CU_DEVICE_ATTRIBUTE_WARP_SIZE = 10,
	CU_DEVICE_ATTRIBUTE_MAX_PITCH = 11,
	CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK = 12,
	CU_DEVICE_ATTRIBUTE_REGISTERS_PER_BLOCK = 12,
	CU_DEVICE_ATTRIBUTE_CLOCK_RATE = 13,
	CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT = 14,
	CU_DEVICE_ATTRIBUTE_GPU_OVERLAP = 15,
	CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16,
	CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT = 17,
	CU_DEVICE_ATTRIBUTE_INTEGRATED = 18,
	CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY = 19,
	CU_DEVICE_ATTRIBUTE_COMPUTE_MODE = 20,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH = 21,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH = 22,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT = 23,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH = 24,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT = 25,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH = 26,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH = 27,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT = 28,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS = 29,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_WIDTH = 27,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_HEIGHT = 28,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_ARRAY_NUMSLICES = 29,
	CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT = 30,
	CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS = 31,
	CU_DEVICE_ATTRIBUTE_ECC_ENABLED = 32,
	CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33,
	CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34,
	CU_DEVICE_ATTRIBUTE_TCC_DRIVER = 35,
	CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36,
	CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37,
	CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE = 38,
	CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR = 39,
	CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT = 40,
	CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING = 41,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH = 42,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS = 43,
	CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER = 44,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH = 45,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT = 46,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE = 47,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE = 48,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE = 49,
	CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50,
	CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT = 51,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH = 52,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH = 53,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS = 54,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH = 55,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH = 56,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT = 57,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH = 58,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT = 59,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH = 60,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH = 61,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS = 62,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH = 63,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT = 64,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS = 65,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH = 66,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH = 67,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS = 68,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH = 69,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH = 70,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT = 71,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH = 72,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH = 73,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT = 74,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
	CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
	CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH = 77,
	CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED = 78,
	CU_DEVICE_ATTRIBUTE_GLOBAL_L1_CACHE_SUPPORTED = 79,
	CU_DEVICE_ATTRIBUTE_LOCAL_L1_CACHE_SUPPORTED = 80,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
	CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR = 82,
	CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY = 83,
	CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD = 84,
	CU_DEVICE_ATTRIBUTE_MULTI_GPU_BOARD_GROUP_ID = 85,
	CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED = 86,
	CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO = 87,
	CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS = 88,
	CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS = 89,
	CU_DEVICE_ATTRIBUTE_COMPUTE_PREEMPTION_SUPPORTED = 90,
	CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM = 91,
	CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1 = 92,
	CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1 = 93,
	CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1 = 94,
	CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH = 95,
	CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH = 96,
	CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
	CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES = 98,
	CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED = 99,
	CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES = 100,
	CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST = 101,
	CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED = 102,
	CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 102,
	CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED = 103,
	CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED = 104,
	CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED = 105,
	CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR = 106,
	CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED = 107,
	CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE = 108,
	CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE = 109,
	CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED = 110,
	CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK = 111,
	CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED = 112,
	CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED = 113,
	CU_DEVICE_ATTRIBUTE_TIMELINE_SEMAPHORE_INTEROP_SUPPORTED = 114,
	CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115,
	CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED = 116,
	CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS = 117,
	CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WRITES_ORDERING = 118,
	CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES = 119,
	CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH = 120,
	CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED = 121,
	CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS = 122,
	CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR = 123,
	CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED = 124,
	CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED = 125,
	CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT = 126,
	CU_DEVICE_ATTRIBUTE_TENSOR_MAP_ACCESS_SUPPORTED = 127,
	CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED = 128,
	CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS = 129,
	CU_DEVICE_ATTRIBUTE_NUMA_CONFIG = 130,
	CU_DEVICE_ATTRIBUTE_NUMA_ID = 131,
	CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED = 132,
	CU_DEVICE_ATTRIBUTE_MPS_ENABLED = 133,
	CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID = 134,
	CU_DEVICE_ATTRIBUTE_D3D12_CIG_SUPPORTED = 135,
	CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK = 136,
	CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH = 137,
	CU_DEVICE_ATTRIBUTE_VULKAN_CIG_SUPPORTED = 138,
	CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID = 139,
	CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID = 140,
	CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 141,
	CU_DEVICE_ATTRIBUTE_HOST_NUMA_MEMORY_POOLS_SUPPORTED = 142,
	CU_DEVICE_ATTRIBUTE_HOST_NUMA_MULTINODE_IPC_SUPPORTED = 143,
	CU_DEVICE_ATTRIBUTE_HOST_MEMORY_POOLS_SUPPORTED = 144,
	CU_DEVICE_ATTRIBUTE_HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 145,
	CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED = 146,
	CU_DEVICE_ATTRIBUTE_ONLY_PARTIAL_HOST_NATIVE_ATOMIC_SUPPORTED = 147,
	CU_DEVICE_ATTRIBUTE_MAX = 148,
} CUdevice_attribute;

typedef enum CUjit_option_enum {
	CU_JIT_MAX_REGISTERS = 0,
	CU_JIT_THREADS_PER_BLOCK = 1,
	CU_JIT_WALL_TIME = 2,
	CU_JIT_INFO_LOG_BUFFER = 3,
	CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
	CU_JIT_ERROR_LOG_BUFFER = 5,
	CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
	CU_JIT_OPTIMIZATION_LEVEL = 7,
	CU_JIT_TARGET_FROM_CUCONTEXT = 8,
	CU_JIT_TARGET = 9,
	CU_JIT_FALLBACK_STRATEGY = 10,
	CU_JIT_GENERATE_DEBUG_INFO = 11,
	CU_JIT_LOG_VERBOSE = 12,
	CU_JIT_GENERATE_LINE_INFO = 13,
	CU_JIT_CACHE_MODE = 14,
	CU_JIT_NEW_SM3X_OPT = 15,
	CU_JIT_FAST_COMPILE = 16,
	CU_JIT_GLOBAL_SYMBOL_NAMES = 17,
	CU_JIT_GLOBAL_SYMBOL_ADDRESSES = 18,
	CU_JIT_GLOBAL_SYMBOL_COUNT = 19,
	CU_JIT_LTO = 20,
	CU_JIT_FTZ = 21,
	CU_JIT_PREC_DIV = 22,
	CU_JIT_PREC_SQRT = 23,
	CU_JIT_FMA = 24,
	CU_JIT_REFERENCED_KERNEL_NAMES = 25,
	CU_JIT_REFERENCED_KERNEL_COUNT = 26,
	CU_JIT_REFERENCED_VARIABLE_NAMES = 27,
	CU_JIT_REFERENCED_VARIABLE_COUNT = 28,
	CU_JIT_OPTIMIZE_UNUSED_DEVICE_VARIABLES = 29,
	CU_JIT_POSITION_INDEPENDENT_CODE = 30,
	CU_JIT_MIN_CTA_PER_SM = 31,
	CU_JIT_MAX_THREADS_PER_BLOCK = 32,
	CU_JIT_OVERRIDE_DIRECTIVE_VALUES = 33,
	CU_JIT_SPLIT_COMPILE = 34,
	CU_JIT_NUM_OPTIONS = 35,
} CUjit_option;

typedef enum CUjitInputType_enum {
	CU_JIT_INPUT_CUBIN = 0,
	CU_JIT_INPUT_PTX = 1,
	CU_JIT_INPUT_FATBINARY = 2,
	CU_JIT_INPUT_OBJECT = 3,
	CU_JIT_INPUT_LIBRARY = 4,
	CU_JIT_INPUT_NVVM = 5,
	CU_JIT_NUM_INPUT_TYPES = 6,
} CUjitInputType;

typedef enum CUfunction_attribute_enum {
	CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
	CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
	CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
	CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
	CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
	CU_FUNC_ATTRIBUTE_PTX_VERSION = 5,
	CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
	CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
	CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
	CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
	CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET = 10,
	CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH = 11,
	CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT = 12,
	CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH = 13,
	CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED = 14,
	CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 15,
	CU_FUNC_ATTRIBUTE_MAX = 16,
} CUfunction_attribute;

typedef enum CUctx_flags_enum {
	CU_CTX_SCHED_AUTO = 0,
	CU_CTX_SCHED_SPIN = 1,
	CU_CTX_SCHED_YIELD = 2,
	CU_CTX_SCHED_BLOCKING_SYNC = 4,
	CU_CTX_BLOCKING_SYNC = 4,
	CU_CTX_SCHED_MASK = 7,
	CU_CTX_MAP_HOST = 8,
	CU_CTX_LMEM_RESIZE_TO_MAX = 16,
	CU_CTX_COREDUMP_ENABLE = 32,
	CU_CTX_USER_COREDUMP_ENABLE = 64,
	CU_CTX_SYNC_MEMOPS = 128,
	CU_CTX_FLAGS_MASK = 255,
} CUctx_flags;

typedef enum CUstream_flags_enum {
	CU_STREAM_DEFAULT = 0,
	CU_STREAM_NON_BLOCKING = 1,
} CUstream_flags;

typedef enum CUevent_flags_enum {
	CU_EVENT_DEFAULT = 0,
	CU_EVENT_BLOCKING_SYNC = 1,
	CU_EVENT_DISABLE_TIMING = 2,
	CU_EVENT_INTERPROCESS = 4,
} CUevent_flags;

typedef enum CUevent_record_flags_enum {
	CU_EVENT_RECORD_DEFAULT = 0,
	CU_EVENT_RECORD_EXTERNAL = 1,
} CUevent_record_flags;

typedef enum CUevent_wait_flags_enum {
	CU_EVENT_WAIT_DEFAULT = 0,
	CU_EVENT_WAIT_EXTERNAL = 1,
} CUevent_wait_flags;

typedef enum CUlimit_enum {
	CU_LIMIT_STACK_SIZE = 0,
	CU_LIMIT_PRINTF_FIFO_SIZE = 1,
	CU_LIMIT_MALLOC_HEAP_SIZE = 2,
	CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH = 3,
	CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT = 4,
	CU_LIMIT_MAX_L2_FETCH_GRANULARITY = 5,
	CU_LIMIT_PERSISTING_L2_CACHE_SIZE = 6,
	CU_LIMIT_SHMEM_SIZE = 7,
	CU_LIMIT_CIG_ENABLED = 8,
	CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED = 9,
	CU_LIMIT_MAX = 10,
} CUlimit;

typedef enum CUfunc_cache_enum {
	CU_FUNC_CACHE_PREFER_NONE = 0,
	CU_FUNC_CACHE_PREFER_SHARED = 1,
	CU_FUNC_CACHE_PREFER_L1 = 2,
	CU_FUNC_CACHE_PREFER_EQUAL = 3,
} CUfunc_cache;

typedef enum CUmemorytype_enum {
	CU_MEMORYTYPE_HOST = 1,
	CU_MEMORYTYPE_DEVICE = 2,
	CU_MEMORYTYPE_ARRAY = 3,
	CU_MEMORYTYPE_UNIFIED = 4,
} CUmemorytype;

typedef enum CUpointer_attribute_enum {
	CU_POINTER_ATTRIBUTE_CONTEXT = 1,
	CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
	CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3,
	CU_POINTER_ATTRIBUTE_HOST_POINTER = 4,
	CU_POINTER_ATTRIBUTE_P2P_TOKENS = 5,
	CU_POINTER_ATTRIBUTE_SYNC_MEMOPS = 6,
	CU_POINTER_ATTRIBUTE_BUFFER_ID = 7,
	CU_POINTER_ATTRIBUTE_IS_MANAGED = 8,
	CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
	CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE = 10,
	CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11,
	CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12,
	CU_POINTER_ATTRIBUTE_MAPPED = 13,
	CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES = 14,
	CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE = 15,
	CU_POINTER_ATTRIBUTE_ACCESS_FLAGS = 16,
	CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE = 17,
	CU_POINTER_ATTRIBUTE_MAPPING_SIZE = 18,
	CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR = 19,
	CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID = 20,
	CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE = 21,
} CUpointer_attribute;

typedef enum CUDA_POINTER_ATTRIBUTE_ACCESS_FLAGS_enum {
	CU_POINTER_ATTRIBUTE_ACCESS_FLAG_NONE = 0x0,
	CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ = 0x1,
	CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE = 0x3,
} CUDA_POINTER_ATTRIBUTE_ACCESS_FLAGS;

typedef enum CUjit_target_enum {
	CU_TARGET_COMPUTE_30 = 30,
	CU_TARGET_COMPUTE_32 = 32,
	CU_TARGET_COMPUTE_35 = 35,
	CU_TARGET_COMPUTE_37 = 37,
	CU_TARGET_COMPUTE_50 = 50,
	CU_TARGET_COMPUTE_52 = 52,
	CU_TARGET_COMPUTE_53 = 53,
	CU_TARGET_COMPUTE_60 = 60,
	CU_TARGET_COMPUTE_61 = 61,
	CU_TARGET_COMPUTE_62 = 62,
	CU_TARGET_COMPUTE_70 = 70,
	CU_TARGET_COMPUTE_72 = 72,
	CU_TARGET_COMPUTE_75 = 75,
	CU_TARGET_COMPUTE_80 = 80,
	CU_TARGET_COMPUTE_86 = 86,
	CU_TARGET_COMPUTE_87 = 87,
	CU_TARGET_COMPUTE_89 = 89,
	CU_TARGET_COMPUTE_90 = 90,
	CU_TARGET_COMPUTE_100 = 100,
	CU_TARGET_COMPUTE_110 = 110,
	CU_TARGET_COMPUTE_103 = 103,
	CU_TARGET_COMPUTE_120 = 120,
	CU_TARGET_COMPUTE_121 = 121,
	CU_TARGET_COMPUTE_90A = 65626,
	CU_TARGET_COMPUTE_100A = 65636,
	CU_TARGET_COMPUTE_110A = 65646,
	CU_TARGET_COMPUTE_103A = 65639,
	CU_TARGET_COMPUTE_120A = 65656,
	CU_TARGET_COMPUTE_121A = 65657,
	CU_TARGET_COMPUTE_100F = 131172,
	CU_TARGET_COMPUTE_110F = 131182,
	CU_TARGET_COMPUTE_103F = 131175,
	CU_TARGET_COMPUTE_120F = 131192,
	CU_TARGET_COMPUTE_121F = 131193,
} CUjit_target;

typedef enum CUjit_fallback_enum {
	CU_PREFER_PTX = 0,
	CU_PREFER_BINARY = 1,
} CUjit_fallback;

typedef enum CUjit_cacheMode_enum {
	CU_JIT_CACHE_OPTION_NONE = 0,
	CU_JIT_CACHE_OPTION_CG = 1,
	CU_JIT_CACHE_OPTION_CA = 2,
} CUjit_cacheMode;

typedef enum CUcomputemode_enum {
	CU_COMPUTEMODE_DEFAULT = 0,
	CU_COMPUTEMODE_PROHIBITED = 2,
	CU_COMPUTEMODE_EXCLUSIVE_PROCESS = 3,
} CUcomputemode;

typedef enum CUsharedconfig_enum {
	CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE = 0,
	CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE = 1,
	CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE = 2,
} CUsharedconfig;

typedef enum CUmemAttach_flags_enum {
	CU_MEM_ATTACH_GLOBAL = 1,
	CU_MEM_ATTACH_HOST = 2,
	CU_MEM_ATTACH_SINGLE = 4,
} CUmemAttach_flags;

typedef enum CUoccupancy_flags_enum {
	CU_OCCUPANCY_DEFAULT = 0,
	CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE = 1,
} CUoccupancy_flags;

typedef enum CUstreamCaptureStatus_enum {
	CU_STREAM_CAPTURE_STATUS_NONE = 0,
	CU_STREAM_CAPTURE_STATUS_ACTIVE = 1,
	CU_STREAM_CAPTURE_STATUS_INVALIDATED = 2,
} CUstreamCaptureStatus;

typedef enum CUstreamCaptureMode_enum {
	CU_STREAM_CAPTURE_MODE_GLOBAL = 0,
	CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,
	CU_STREAM_CAPTURE_MODE_RELAXED = 2,
} CUstreamCaptureMode;

typedef enum CUdriverProcAddress_flags_enum {
	CU_GET_PROC_ADDRESS_DEFAULT = 0,
	CU_GET_PROC_ADDRESS_LEGACY_STREAM = 1,
	CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 2,
} CUdriverProcAddress_flags;

typedef enum CUdriverProcAddressQueryResult_enum {
	CU_GET_PROC_ADDRESS_SUCCESS = 0,
	CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
	CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2,
} CUdriverProcAddressQueryResult;

typedef enum CUmoduleLoadingMode_enum {
	CU_MODULE_EAGER_LOADING = 1,
	CU_MODULE_LAZY_LOADING = 2,
} CUmoduleLoadingMode;

typedef enum CUmem_advise_enum {
	CU_MEM_ADVISE_SET_READ_MOSTLY = 1,
	CU_MEM_ADVISE_UNSET_READ_MOSTLY = 2,
	CU_MEM_ADVISE_SET_PREFERRED_LOCATION = 3,
	CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION = 4,
	CU_MEM_ADVISE_SET_ACCESSED_BY = 5,
	CU_MEM_ADVISE_UNSET_ACCESSED_BY = 6,
} CUmem_advise;

typedef enum CUdevice_P2PAttribute_enum {
	CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK = 1,
	CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED = 2,
	CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED = 3,
	CU_DEVICE_P2P_ATTRIBUTE_ACCESS_ACCESS_SUPPORTED = 4,
	CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED = 4,
	CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED = 5,
} CUdevice_P2PAttribute;

typedef enum CUarray_format_enum {
	CU_AD_FORMAT_UNSIGNED_INT8 = 1,
	CU_AD_FORMAT_UNSIGNED_INT16 = 2,
	CU_AD_FORMAT_UNSIGNED_INT32 = 3,
	CU_AD_FORMAT_SIGNED_INT8 = 8,
	CU_AD_FORMAT_SIGNED_INT16 = 9,
	CU_AD_FORMAT_SIGNED_INT32 = 10,
	CU_AD_FORMAT_HALF = 16,
	CU_AD_FORMAT_FLOAT = 32,
	CU_AD_FORMAT_NV12 = 176,
	CU_AD_FORMAT_UNORM_INT8X1 = 192,
	CU_AD_FORMAT_UNORM_INT8X2 = 193,
	CU_AD_FORMAT_UNORM_INT8X4 = 194,
	CU_AD_FORMAT_UNORM_INT16X1 = 195,
	CU_AD_FORMAT_UNORM_INT16X2 = 196,
	CU_AD_FORMAT_UNORM_INT16X4 = 197,
	CU_AD_FORMAT_SNORM_INT8X1 = 198,
	CU_AD_FORMAT_SNORM_INT8X2 = 199,
	CU_AD_FORMAT_SNORM_INT8X4 = 200,
	CU_AD_FORMAT_SNORM_INT16X1 = 201,
	CU_AD_FORMAT_SNORM_INT16X2 = 202,
	CU_AD_FORMAT_SNORM_INT16X4 = 203,
	CU_AD_FORMAT_BC1_UNORM = 145,
	CU_AD_FORMAT_BC1_UNORM_SRGB = 146,
	CU_AD_FORMAT_BC2_UNORM = 147,
	CU_AD_FORMAT_BC2_UNORM_SRGB = 148,
	CU_AD_FORMAT_BC3_UNORM = 149,
	CU_AD_FORMAT_BC3_UNORM_SRGB = 150,
	CU_AD_FORMAT_BC4_UNORM = 151,
	CU_AD_FORMAT_BC4_SNORM = 152,
	CU_AD_FORMAT_BC5_UNORM = 153,
	CU_AD_FORMAT_BC5_SNORM = 154,
	CU_AD_FORMAT_BC6H_UF16 = 155,
	CU_AD_FORMAT_BC6H_SF16 = 156,
	CU_AD_FORMAT_BC7_UNORM = 157,
	CU_AD_FORMAT_BC7_UNORM_SRGB = 158,
	CU_AD_FORMAT_P010 = 159,
	CU_AD_FORMAT_P016 = 161,
	CU_AD_FORMAT_NV16 = 162,
	CU_AD_FORMAT_P210 = 163,
	CU_AD_FORMAT_P216 = 164,
	CU_AD_FORMAT_YUY2 = 165,
	CU_AD_FORMAT_Y210 = 166,
	CU_AD_FORMAT_Y216 = 167,
	CU_AD_FORMAT_AYUV = 168,
	CU_AD_FORMAT_Y410 = 169,
	CU_AD_FORMAT_Y416 = 177,
	CU_AD_FORMAT_Y444_PLANAR8 = 178,
	CU_AD_FORMAT_Y444_PLANAR10 = 179,
	CU_AD_FORMAT_YUV444_8bit_SemiPlanar = 180,
	CU_AD_FORMAT_YUV444_16bit_SemiPlanar = 181,
	CU_AD_FORMAT_UNORM_INT_101010_2 = 80,
	CU_AD_FORMAT_MAX = 2147483647,
} CUarray_format;

typedef enum CUlaunchAttributeID_enum {
	CU_LAUNCH_ATTRIBUTE_IGNORE = 0,
	CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW = 1,
	CU_LAUNCH_ATTRIBUTE_COOPERATIVE = 2,
	CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY = 3,
	CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4,
	CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 5,
	CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION = 6,
	CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT = 7,
	CU_LAUNCH_ATTRIBUTE_PRIORITY = 8,
	CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP = 9,
	CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN = 10,
	CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION = 11,
	CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT = 12,
	CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE = 13,
	CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 14,
	CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING = 16,
} CUlaunchAttributeID;

/* The legacy device properties of cuDeviceGetProperties. */
typedef struct CUdevprop_st {
	int maxThreadsPerBlock;
	int maxThreadsDim[3];
	int maxGridSize[3];
	int sharedMemPerBlock;
	int totalConstantMemory;
	int SIMDWidth;
	int memPitch;
	int regsPerBlock;
	int clockRate;
	int textureAlign;
} CUdevprop_v1;
typedef CUdevprop_v1 CUdevprop;

typedef enum CUmem_range_attribute_enum {
	CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY = 1,
	CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION = 2,
	CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY = 3,
	CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION = 4,
	CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE = 5,
	CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID = 6,
	CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE = 7,
	CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID = 8,
} CUmem_range_attribute;

typedef enum CUstreamWaitValue_flags_enum {
	CU_STREAM_WAIT_VALUE_GEQ = 0,
	CU_STREAM_WAIT_VALUE_EQ = 1,
	CU_STREAM_WAIT_VALUE_AND = 2,
	CU_STREAM_WAIT_VALUE_NOR = 3,
	CU_STREAM_WAIT_VALUE_FLUSH = 1073741824,
} CUstreamWaitValue_flags;

typedef enum CUstreamWriteValue_flags_enum {
	CU_STREAM_WRITE_VALUE_DEFAULT = 0,
	CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER = 1,
} CUstreamWriteValue_flags;

typedef enum CUstreamBatchMemOpType_enum {
	CU_STREAM_MEM_OP_WAIT_VALUE_32 = 1,
	CU_STREAM_MEM_OP_WRITE_VALUE_32 = 2,
	CU_STREAM_MEM_OP_WAIT_VALUE_64 = 4,
	CU_STREAM_MEM_OP_WRITE_VALUE_64 = 5,
	CU_STREAM_MEM_OP_BARRIER = 6,
	CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES = 3,
} CUstreamBatchMemOpType;

typedef enum CUaddress_mode_enum {
	CU_TR_ADDRESS_MODE_WRAP = 0,
	CU_TR_ADDRESS_MODE_CLAMP = 1,
	CU_TR_ADDRESS_MODE_MIRROR = 2,
	CU_TR_ADDRESS_MODE_BORDER = 3,
} CUaddress_mode;

typedef enum CUfilter_mode_enum {
	CU_TR_FILTER_MODE_POINT = 0,
	CU_TR_FILTER_MODE_LINEAR = 1,
} CUfilter_mode;

typedef enum CUexecAffinityType_enum {
	CU_EXEC_AFFINITY_TYPE_SM_COUNT = 0,
	CU_EXEC_AFFINITY_TYPE_MAX
} CUexecAffinityType;

typedef struct CUexecAffinitySmCount_st {
	unsigned int val;
} CUexecAffinitySmCount;

typedef struct CUexecAffinityParam_st {
	CUexecAffinityType type;
	union {
		CUexecAffinitySmCount smCount;
	} param;
} CUexecAffinityParam;

typedef enum CUcigDataType_enum {
	CIG_DATA_TYPE_D3D12_COMMAND_QUEUE = 1,
	CIG_DATA_TYPE_NV_BLOB = 2
} CUcigDataType;

typedef struct CUctxCigParam_st {
	CUcigDataType sharedDataType;
	void *sharedData;
} CUctxCigParam;

/* Optional parameters of cuCtxCreate_v4. */
typedef struct CUctxCreateParams_st {
	CUexecAffinityParam *execAffinityParams;
	int numExecAffinityParams;
	CUctxCigParam *cigParams;
} CUctxCreateParams;

/* Errors */
CUresult cuGetErrorString(CUresult error, const char **pStr);
CUresult cuGetErrorName(CUresult error, const char **pStr);

/* Initialization and version */
CUresult cuInit(unsigned int Flags);
CUresult cuDriverGetVersion(int *driverVersion);

/* Devices */
CUresult cuDeviceGet(CUdevice *device, int ordinal);
CUresult cuDeviceGetCount(int *count);
CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev);
CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev);
CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);
CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev);
CUresult cuDeviceGetProperties(CUdevprop *prop, CUdevice dev);
CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev);
CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId);
CUresult cuDeviceGetLuid(char *luid, unsigned int *deviceNodeMask,
			 CUdevice dev);
CUresult cuDeviceGetTexture1DLinearMaxWidth(size_t *maxWidthInElements,
					    CUarray_format format,
					    unsigned numChannels, CUdevice dev);
CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev,
			       CUdevice peerDev);
CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib,
				 CUdevice srcDevice, CUdevice dstDevice);

/* Primary contexts */
CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev);
CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags);
CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active);
CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev);

/* Contexts */
CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams,
			unsigned int flags, CUdevice dev);
CUresult cuCtxDestroy_v2(CUcontext ctx);
CUresult cuCtxPushCurrent_v2(CUcontext ctx);
CUresult cuCtxPopCurrent_v2(CUcontext *pctx);
CUresult cuCtxSetCurrent(CUcontext ctx);
CUresult cuCtxGetCurrent(CUcontext *pctx);
CUresult cuCtxGetDevice(CUdevice *device);
CUresult cuCtxGetFlags(unsigned int *flags);
CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version);
CUresult cuCtxSynchronize(void);
CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId);
CUresult cuCtxSetFlags(unsigned int flags);
CUresult cuCtxSetLimit(CUlimit limit, size_t value);
CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit);
CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig);
CUresult cuCtxSetCacheConfig(CUfunc_cache config);
CUresult cuCtxGetSharedMemConfig(CUsharedconfig *pConfig);
CUresult cuCtxSetSharedMemConfig(CUsharedconfig config);

/* Device memory */
CUresult cuMemGetInfo_v2(size_t *free, size_t *total);
CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize);
CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch,
			    size_t WidthInBytes, size_t Height,
			    unsigned int ElementSizeBytes);
CUresult cuMemFree_v2(CUdeviceptr dptr);
CUresult cuMemGetAddressRange_v2(CUdeviceptr *pbase, size_t *psize,
				 CUdeviceptr dptr);

/* A 2D copy: Height rows of WidthInBytes bytes. */
typedef struct CUDA_MEMCPY2D_st {
	size_t srcXInBytes;
	size_t srcY;
	CUmemorytype srcMemoryType;
	const void *srcHost;
	CUdeviceptr srcDevice;
	CUarray srcArray;
	size_t srcPitch;
	size_t dstXInBytes;
	size_t dstY;
	CUmemorytype dstMemoryType;
	void *dstHost;
	CUdeviceptr dstDevice;
	CUarray dstArray;
	size_t dstPitch;
	size_t WidthInBytes;
	size_t Height;
} CUDA_MEMCPY2D_v2;
typedef CUDA_MEMCPY2D_v2 CUDA_MEMCPY2D;

/* A 3D copy: Depth slices of Height rows of WidthInBytes bytes. */
typedef struct CUDA_MEMCPY3D_st {
	size_t srcXInBytes;
	size_t srcY;
	size_t srcZ;
	size_t srcLOD;
	CUmemorytype srcMemoryType;
	const void *srcHost;
	CUdeviceptr srcDevice;
	CUarray srcArray;
	void *reserved0;
	size_t srcPitch;
	size_t srcHeight;
	size_t dstXInBytes;
	size_t dstY;
	size_t dstZ;
	size_t dstLOD;
	CUmemorytype dstMemoryType;
	void *dstHost;
	CUdeviceptr dstDevice;
	CUarray dstArray;
	void *reserved1;
	size_t dstPitch;
	size_t dstHeight;
	size_t WidthInBytes;
	size_t Height;
	size_t Depth;
} CUDA_MEMCPY3D_v2;
typedef CUDA_MEMCPY3D_v2 CUDA_MEMCPY3D;

/* Copies and fills */
CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *pCopy);
CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *pCopy, CUstream hStream);
CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *pCopy);
CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *pCopy);
CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *pCopy, CUstream hStream);
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost,
			      size_t ByteCount, CUstream hStream);
CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice,
			      size_t ByteCount, CUstream hStream);
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
			      size_t ByteCount, CUstream hStream);
CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N,
			 CUstream hStream);
CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N,
			  CUstream hStream);
CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N,
			  CUstream hStream);
CUresult cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch,
			 unsigned char uc, size_t Width, size_t Height);
CUresult cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch,
			  unsigned short us, size_t Width, size_t Height);
CUresult cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch,
			  unsigned int ui, size_t Width, size_t Height);
CUresult cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch,
			   unsigned char uc, size_t Width, size_t Height,
			   CUstream hStream);
CUresult cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch,
			    unsigned short us, size_t Width, size_t Height,
			    CUstream hStream);
CUresult cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch,
			    unsigned int ui, size_t Width, size_t Height,
			    CUstream hStream);
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
		       CUstream hStream);
CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost,
			 size_t ByteCount);
CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice,
			 size_t ByteCount);
CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
			 size_t ByteCount);
CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N);
CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N);
CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N);

/* Page-locked host memory */
CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int Flags);
CUresult cuMemHostUnregister(void *p);
CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p,
				      unsigned int Flags);
CUresult cuMemHostGetFlags(unsigned int *pFlags, void *p);
CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags);
CUresult cuMemAllocHost_v2(void **pp, size_t bytesize);
CUresult cuMemFreeHost(void *p);

/* Unified addressing */
CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute,
			       CUdeviceptr ptr);
CUresult cuPointerGetAttributes(unsigned int num_attributes,
				CUpointer_attribute *attributes, void **data,
				CUdeviceptr ptr);

/* Modules and launches */
CUresult cuModuleLoad(CUmodule *module, const char *fname);
CUresult cuModuleLoadData(CUmodule *module, const void *image);
CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin);
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
			    unsigned int numOptions, CUjit_option *options,
			    void **optionValues);
CUresult cuModuleUnload(CUmodule hmod);
CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod,
			     const char *name);
CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod,
			      const char *name);
CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib,
			    CUfunction hfunc);
CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib,
			    int value);
CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config);
CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX,
			unsigned int gridDimY, unsigned int gridDimZ,
			unsigned int blockDimX, unsigned int blockDimY,
			unsigned int blockDimZ, unsigned int sharedMemBytes,
			CUstream hStream, void **kernelParams, void **extra);

/* Streams and events */
typedef void (*CUstreamCallback)(CUstream hStream, CUresult status,
				 void *userData);
typedef void (*CUhostFn)(void *userData);

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags);
CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags,
				    int priority);
CUresult cuCtxGetStreamPriorityRange(int *leastPriority,
				     int *greatestPriority);
CUresult cuStreamDestroy_v2(CUstream hStream);
CUresult cuStreamQuery(CUstream hStream);
CUresult cuStreamSynchronize(CUstream hStream);
CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent,
			   unsigned int Flags);
CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback,
			     void *userData, unsigned int flags);
CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);
CUresult cuStreamGetPriority(CUstream hStream, int *priority);
CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags);
CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx);
CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags);
CUresult cuEventRecord(CUevent hEvent, CUstream hStream);
CUresult cuEventRecordWithFlags(CUevent hEvent, CUstream hStream,
				unsigned int flags);
CUresult cuEventQuery(CUevent hEvent);
CUresult cuEventSynchronize(CUevent hEvent);
CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart,
			       CUevent hEnd);
CUresult cuEventDestroy_v2(CUevent hEvent);

/* The per-thread default stream's entry points (see CU_VG_PTDS above). */
CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n,
			    CUstream s);
CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dst, const void *src,
				   size_t n, CUstream s);
CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dst, CUdeviceptr src, size_t n,
				   CUstream s);
CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dst, CUdeviceptr src,
				   size_t n, CUstream s);
CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *p, CUstream s);
CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *p, CUstream s);
CUresult cuMemsetD8Async_ptsz(CUdeviceptr dst, unsigned char uc, size_t n,
			      CUstream s);
CUresult cuMemsetD16Async_ptsz(CUdeviceptr dst, unsigned short us, size_t n,
			       CUstream s);
CUresult cuMemsetD32Async_ptsz(CUdeviceptr dst, unsigned int ui, size_t n,
			       CUstream s);
CUresult cuMemsetD2D8Async_ptsz(CUdeviceptr dst, size_t pitch,
				unsigned char uc, size_t w, size_t h,
				CUstream s);
CUresult cuMemsetD2D16Async_ptsz(CUdeviceptr dst, size_t pitch,
				 unsigned short us, size_t w, size_t h,
				 CUstream s);
CUresult cuMemsetD2D32Async_ptsz(CUdeviceptr dst, size_t pitch,
				 unsigned int ui, size_t w, size_t h,
				 CUstream s);
CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gx, unsigned int gy,
			     unsigned int gz, unsigned int bx, unsigned int by,
			     unsigned int bz, unsigned int shared, CUstream s,
			     void **params, void **extra);
CUresult cuLaunchHostFunc_ptsz(CUstream s, CUhostFn fn, void *data);
CUresult cuStreamQuery_ptsz(CUstream s);
CUresult cuStreamSynchronize_ptsz(CUstream s);
CUresult cuStreamWaitEvent_ptsz(CUstream s, CUevent e, unsigned int flags);
CUresult cuStreamAddCallback_ptsz(CUstream s, CUstreamCallback cb,
				  void *data, unsigned int flags);
CUresult cuStreamGetFlags_ptsz(CUstream s, unsigned int *flags);
CUresult cuStreamGetPriority_ptsz(CUstream s, int *priority);
CUresult cuStreamGetCtx_ptsz(CUstream s, CUcontext *pctx);
CUresult cuEventRecord_ptsz(CUevent e, CUstream s);
CUresult cuEventRecordWithFlags_ptsz(CUevent e, CUstream s,
				     unsigned int flags);
CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *p);
CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *p);
CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n);
CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dst, const void *src, size_t n);
CUresult cuMemcpyDtoH_v2_ptds(void *dst, CUdeviceptr src, size_t n);
CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n);
CUresult cuMemsetD8_v2_ptds(CUdeviceptr dst, unsigned char uc, size_t n);
CUresult cuMemsetD16_v2_ptds(CUdeviceptr dst, unsigned short us, size_t n);
CUresult cuMemsetD32_v2_ptds(CUdeviceptr dst, unsigned int ui, size_t n);
CUresult cuMemsetD2D8_v2_ptds(CUdeviceptr dst, size_t pitch, unsigned char uc,
			      size_t width, size_t height);
CUresult cuMemsetD2D16_v2_ptds(CUdeviceptr dst, size_t pitch,
			       unsigned short us, size_t width, size_t height);
CUresult cuMemsetD2D32_v2_ptds(CUdeviceptr dst, size_t pitch, unsigned int ui,
			       size_t width, size_t height);
CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *p);

/* Linking PTX into one module */
CUresult cuLinkCreate_v2(unsigned int numOptions, CUjit_option *options,
			 void **optionValues, CUlinkState *stateOut);
CUresult cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void *data,
			  size_t size, const char *name,
			  unsigned int numOptions, CUjit_option *options,
			  void **optionValues);
CUresult cuLinkAddFile_v2(CUlinkState state, CUjitInputType type,
			  const char *path, unsigned int numOptions,
			  CUjit_option *options, void **optionValues);
CUresult cuLinkComplete(CUlinkState state, void **cubinOut, size_t *sizeOut);
CUresult cuLinkDestroy(CUlinkState state);

/* Occupancy: the dynamic shared memory a block size needs, for the search. */
typedef size_t (*CUoccupancyB2DSize)(int blockSize);

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
		CUfunction func, int blockSize, size_t dynamicSMemSize);
CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
		CUfunction func, int blockSize, size_t dynamicSMemSize,
		unsigned int flags);
CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize,
		CUfunction func, CUoccupancyB2DSize blockSizeToDynamicSMemSize,
		size_t dynamicSMemSize, int blockSizeLimit);
CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize,
		int *blockSize, CUfunction func,
		CUoccupancyB2DSize blockSizeToDynamicSMemSize,
		size_t dynamicSMemSize, int blockSizeLimit, unsigned int flags);

#ifdef __cplusplus
}
#endif

#endif /* VGPU_CUDA_H */
