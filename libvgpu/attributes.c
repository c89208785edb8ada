// SPDX-License-Identifier: MIT
/*
 * cuDeviceGetAttribute's answers, computed from the device's GET_INFO
 * properties. Every attribute CUDA 13 defines (1 to 147) has an answer, as
 * on NVIDIA's driver; a feature libvgpu does not offer yet reads 0, so that
 * programs that check before use take their fallback path.
 */
#include "vg.h"

/* Shared memory the driver keeps per block (sm_80 and later). */
static int vg_reserved_smem(const struct vgpu_info *info)
{
	return info->cc_major >= 8 ? 1024 : 0;
}

/*
 * The texture unit's limits (texobj.c, array.c), an H100's
 * (tests/e2e/ref/h100_texattr.log): array sizes per shape, for textures
 * and for surfaces, linear and pitched memory.
 */
static const struct { int attrib, value; } vg_tex_limits[] = {
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH, 131072 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH, 131072 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT, 65536 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS, 2048 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS, 2048 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE, 8192 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE, 8192 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE, 32768 },
	{ CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, 32 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS, 2046 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH, 131072 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT, 65536 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH, 16384 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS, 2048 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS, 2048 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS, 2046 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH, 1 << 28 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH, 131072 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT, 65000 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH, 2097120 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT, 32768 },
	{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH, 32768 },
};

CUresult vg_attribute(const struct vgpu_info *info, int attrib, int *value)
{
	size_t k;
	int v;

	for (k = 0; k < sizeof(vg_tex_limits) / sizeof(vg_tex_limits[0]); k++) {
		if (vg_tex_limits[k].attrib == attrib) {
			*value = vg_tex_limits[k].value;
			return CUDA_SUCCESS;
		}
	}

	switch (attrib) {
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
		v = (int)info->max_threads_per_block;
		break;
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z:
		v = (int)info->max_block_dim[attrib - CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X];
		break;
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
	case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
		v = (int)info->max_grid_dim[attrib - CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X];
		break;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
		v = (int)info->shared_mem_per_block;
		break;
	case CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY:
		v = (int)info->const_mem_size;
		break;
	case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
		v = (int)info->warp_size;
		break;
	case CU_DEVICE_ATTRIBUTE_MAX_PITCH:
		v = 0x7fffffff;
		break;
	case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK:
		v = (int)info->regs_per_block;
		break;
	case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
		v = (int)info->clock_khz;
		break;
	case CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT:
	case CU_DEVICE_ATTRIBUTE_SURFACE_ALIGNMENT:
		v = 512;
		break;
	case CU_DEVICE_ATTRIBUTE_GPU_OVERLAP:
		v = info->copy_engines > 0;
		break;
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
		v = (int)info->sm_count;
		break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_MODE:
		v = CU_COMPUTEMODE_DEFAULT;
		break;
	/*
	 * No PCI: the address is domain 0, bus N of /dev/vgpuN, device 0,
	 * which cuDeviceGetPCIBusId writes out (busid.c).
	 */
	case CU_DEVICE_ATTRIBUTE_PCI_BUS_ID:
		v = (int)info->index;
		break;
	case CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID:
	case CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID:
		v = 0;
		break;
	case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
		v = 1000000;
		break;
	case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH:
		v = 256;
		break;
	case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR:
		v = (int)info->max_threads_per_sm;
		break;
	case CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT:
		v = (int)info->copy_engines;
		break;
	/* Kernels of different streams run at once, by priority. */
	case CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS:
	case CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED:
		v = 1;
		break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
		v = (int)info->cc_major;
		break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
		v = (int)info->cc_minor;
		break;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
		v = (int)info->shared_mem_per_sm;
		break;
	case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR:
		v = (int)info->regs_per_sm;
		break;
	case CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO:
		v = 2;
		break;
	case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
		v = (int)info->shared_mem_per_sm - vg_reserved_smem(info);
		break;
	case CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR:
		v = (int)info->max_blocks_per_sm;
		break;
	case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK:
		v = vg_reserved_smem(info);
		break;
	case CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT:
		v = 1;
		break;
	/* cuLaunchCooperativeKernel: grids that fit at once (launch.c). */
	case CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH:
		v = 1;
		break;
	case CU_DEVICE_ATTRIBUTE_NUMA_ID:
		v = -1;
		break;
	/* Unified addressing: device pointers live apart from host memory,
	 * and registered host memory has its own address on the device. */
	case CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING:
	case CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY:
	case CU_DEVICE_ATTRIBUTE_HOST_REGISTER_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM:
		v = 1;
		break;
	/*
	 * Managed memory (managed.c): one set of pages that the host and the
	 * device both map, so either may touch it at any time, even while
	 * kernels run, and the host never waits for a migration. Pageable
	 * memory stays out of the device's reach until it is registered.
	 */
	case CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY:
	case CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS:
	case CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST:
		v = 1;
		break;
	/*
	 * Stream-ordered allocation (mempool.c); pools cannot be shared
	 * between processes yet, so no handle types.
	 */
	case CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED:
		v = 1;
		break;
	/*
	 * Virtual memory management (vmm.c), its memory shared through
	 * file descriptors (the module's dma-bufs).
	 */
	case CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED:
	case CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED:
		v = 1;
		break;
	/* Stream memory operations: waits (NOR too) and writes, 32 and 64-bit;
	 * the first ABI's names and remote-write flushes are not offered. */
	case CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS:
	case CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR:
		v = 1;
		break;
	default:
		if (attrib <= 0 || attrib >= CU_DEVICE_ATTRIBUTE_MAX)
			return CUDA_ERROR_INVALID_VALUE;
		/* Pageable memory access, peers' arrays, ...: not offered. */
		v = 0;
		break;
	}
	*value = v;
	return CUDA_SUCCESS;
}
