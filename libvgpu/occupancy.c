// SPDX-License-Identifier: MIT
/*
 * The occupancy calculator: cuOccupancyMaxActiveBlocksPerMultiprocessor,
 * cuOccupancyMaxPotentialBlockSize (and their WithFlags forms) and
 * cuOccupancyAvailableDynamicSMemPerBlock, from the device's limits and
 * the kernel's registers, shared memory and thread limit, by the rules of
 * CUDA's occupancy calculator. Checked against NVIDIA's driver on an H100
 * (tests/unit/test_occupancy.c).
 */
#include "vg.h"

#define VG_REG_UNIT 256		/* registers are given to a warp in these */
#define VG_REG_PARTITIONS 4	/* an SM's register file is split in four */

/* Shared memory is given to a block in these. */
static uint32_t vg_smem_unit(const struct vgpu_info *info)
{
	return info->cc_major >= 8 ? 128 : 256;
}

static uint64_t vg_round_up(uint64_t v, uint64_t unit)
{
	return (v + unit - 1) / unit * unit;
}

/*
 * Blocks of @block threads (at least one) that one SM takes by its warp
 * slots, its block slots and its registers, shared memory aside.
 */
static uint64_t vg_occ_slots(const struct vgpu_info *info,
			     const struct vg_occ_kernel *k, int block)
{
	uint64_t warps, limit, n;

	warps = ((uint64_t)block + info->warp_size - 1) / info->warp_size;
	limit = info->max_threads_per_sm / info->warp_size / warps;
	if (limit > info->max_blocks_per_sm)
		limit = info->max_blocks_per_sm;
	if (k->regs) {
		uint64_t per_warp = vg_round_up((uint64_t)k->regs * info->warp_size,
						VG_REG_UNIT);

		n = info->regs_per_sm / VG_REG_PARTITIONS / per_warp *
			VG_REG_PARTITIONS / warps;
		/*
		 * vgpu has no register file to run out of and launches such a
		 * block anyway: a kernel sized by this answer must not get an
		 * empty grid.
		 */
		if (!n)
			n = 1;
		if (n < limit)
			limit = n;
	}
	return limit;
}

/*
 * Blocks of @block threads that fit on one SM at once: the least of what
 * the warp slots, the block slots, the shared memory and the registers
 * allow. A block the kernel cannot be launched with gets 0.
 */
int vg_occupancy(const struct vgpu_info *info, const struct vg_occ_kernel *k,
		 int block, size_t dyn)
{
	uint32_t max_threads = k->max_threads ? k->max_threads :
		info->max_threads_per_block;
	uint64_t limit, smem;
	int reserved = 0, optin = 0;

	if (block <= 0 || (uint32_t)block > max_threads)
		return 0;
	vg_attribute(info, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK,
		     &reserved);
	vg_attribute(info, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
		     &optin);
	limit = vg_occ_slots(info, k, block);
	smem = (uint64_t)k->shared_bytes + dyn;
	if (smem > (uint64_t)optin)
		return 0;
	smem = vg_round_up(smem + (uint64_t)reserved, vg_smem_unit(info));
	if (smem && info->shared_mem_per_sm / smem < limit)
		limit = info->shared_mem_per_sm / smem;
	return (int)limit;
}

/**
 * vg_occupancy_smem() - the dynamic shared memory each of @blocks blocks
 * of @block threads can have when they share an SM, as NVIDIA's driver
 * computes it: the SM's shared memory split @blocks ways in allocation
 * units, less the static shared memory, at most the function's limit
 * @max_dyn. Like the H100, it leaves out the memory reserved per block,
 * the kernel's thread limit and the carveout (which vgpu does not have).
 * Return: false when that many blocks do not fit, by their threads, slots
 * or registers, or by their static shared memory; or for a block larger
 * than the device's.
 */
bool vg_occupancy_smem(const struct vgpu_info *info,
		       const struct vg_occ_kernel *k, size_t max_dyn,
		       int blocks, int block, size_t *dyn)
{
	uint64_t share;

	if (blocks <= 0 || block <= 0 ||
	    (uint32_t)block > info->max_threads_per_block ||
	    (uint64_t)blocks > vg_occ_slots(info, k, block))
		return false;
	share = info->shared_mem_per_sm / (uint64_t)blocks /
		vg_smem_unit(info) * vg_smem_unit(info);
	if (share < k->shared_bytes)
		return false;
	share -= k->shared_bytes;
	*dyn = share < max_dyn ? (size_t)share : max_dyn;
	return true;
}

/*
 * The block size that puts the most threads on an SM: from the largest
 * allowed down in whole warps (the limit itself first, even when it is
 * not a whole number of warps), keeping the first best, and stopping
 * once the SM is full. Returns the block size and its blocks per SM.
 */
void vg_occupancy_best(const struct vgpu_info *info,
		       const struct vg_occ_kernel *k,
		       size_t (*dyn_of)(int block), size_t dyn, int block_limit,
		       int *best_block, int *best_blocks)
{
	uint32_t limit = k->max_threads ? k->max_threads :
		info->max_threads_per_block;
	uint64_t best = 0;
	int aligned;

	*best_block = 0;
	*best_blocks = 0;
	if (block_limit > 0 && (uint32_t)block_limit < limit)
		limit = (uint32_t)block_limit;
	for (aligned = (int)vg_round_up(limit, info->warp_size); aligned > 0;
	     aligned -= (int)info->warp_size) {
		int block = aligned < (int)limit ? aligned : (int)limit;
		int n = vg_occupancy(info, k, block, dyn_of ? dyn_of(block) : dyn);

		if ((uint64_t)n * block > best) {
			best = (uint64_t)n * block;
			*best_block = block;
			*best_blocks = n;
		}
		if (best == info->max_threads_per_sm)
			break;
	}
}

/* The function's numbers and its device, or the error to return. */
static CUresult vg_occ_func(CUfunction func, struct vg_occ_kernel *k,
			    const struct vgpu_info **info)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	r = vg_func_get(func, &func);
	if (r)
		return r;
	k->regs = func->k->f.nregs;
	k->shared_bytes = func->k->f.shared_bytes;
	k->max_threads = func->k->f.max_threads;
	*info = &vg_devices[func->mod->ctx->dev].info;
	return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
		CUfunction func, int blockSize, size_t dynamicSMemSize,
		unsigned int flags)
{
	const struct vgpu_info *info;
	struct vg_occ_kernel k;
	CUresult r = vg_occ_func(func, &k, &info);

	if (r)
		return r;
	if (!numBlocks || blockSize <= 0 ||
	    flags & ~(unsigned int)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE)
		return CUDA_ERROR_INVALID_VALUE;
	*numBlocks = vg_occupancy(info, &k, blockSize, dynamicSMemSize);
	return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
		CUfunction func, int blockSize, size_t dynamicSMemSize)
{
	return cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks,
			func, blockSize, dynamicSMemSize, CU_OCCUPANCY_DEFAULT);
}

CUresult cuOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize,
		int *blockSize, CUfunction func,
		CUoccupancyB2DSize blockSizeToDynamicSMemSize,
		size_t dynamicSMemSize, int blockSizeLimit, unsigned int flags)
{
	const struct vgpu_info *info;
	struct vg_occ_kernel k;
	int block, blocks;
	CUresult r = vg_occ_func(func, &k, &info);

	if (r)
		return r;
	if (!minGridSize || !blockSize || blockSizeLimit < 0 ||
	    flags & ~(unsigned int)CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE)
		return CUDA_ERROR_INVALID_VALUE;
	vg_occupancy_best(info, &k, blockSizeToDynamicSMemSize, dynamicSMemSize,
			  blockSizeLimit, &block, &blocks);
	*minGridSize = blocks * (int)info->sm_count;
	*blockSize = block;
	return CUDA_SUCCESS;
}

CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize,
		CUfunction func, CUoccupancyB2DSize blockSizeToDynamicSMemSize,
		size_t dynamicSMemSize, int blockSizeLimit)
{
	return cuOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize,
			func, blockSizeToDynamicSMemSize, dynamicSMemSize,
			blockSizeLimit, CU_OCCUPANCY_DEFAULT);
}

CUresult cuOccupancyAvailableDynamicSMemPerBlock(size_t *dyn, CUfunction func,
						 int numBlocks, int blockSize)
{
	const struct vgpu_info *info;
	struct vg_occ_kernel k;
	CUresult r = vg_occ_func(func, &k, &info);

	if (r)
		return r;
	if (!dyn || !vg_occupancy_smem(info, &k, func->max_dyn_shared,
				       numBlocks, blockSize, dyn))
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}
