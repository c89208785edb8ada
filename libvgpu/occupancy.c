// SPDX-License-Identifier: MIT
/*
 * The occupancy calculator: cuOccupancyMaxActiveBlocksPerMultiprocessor,
 * cuOccupancyMaxPotentialBlockSize (and their WithFlags forms),
 * cuOccupancyAvailableDynamicSMemPerBlock and the cluster calls
 * (cuOccupancyMaxActiveClusters, cuOccupancyMaxPotentialClusterSize),
 * from the device's limits and
 * the kernel's registers, shared memory and thread limit, by the rules of
 * CUDA's occupancy calculator. Checked against NVIDIA's driver on an H100
 * (tests/unit/test_occupancy.c).
 */
#include <limits.h>

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

/*
 * Thread block clusters need compute capability 9.0. Below it, as NVIDIA
 * documents for such devices, a cluster is one block: the largest cluster
 * is 1 and a larger one is CUDA_ERROR_INVALID_CLUSTER_SIZE, as
 * cuLaunchKernelEx answers (launch_ex.c). From 9.0 on, the portable limit
 * of 8 blocks, 16 where the function allows non-portable sizes. An H100
 * answers 8 and places fewer clusters than blocks allow, by its GPCs
 * (tests/e2e/ref/h100_compat.log); vgpu's SMs have no GPCs, so its
 * clusters are the device's active blocks in groups.
 */
static unsigned int vg_cluster_max(const struct vgpu_info *info,
				   const struct CUfunc_st *f)
{
	if (info->cc_major < 9)
		return 1;
	return f->cluster[CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED -
			  CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH] ? 16 : 8;
}

/*
 * The blocks of one cluster of launch @c of @f: its CLUSTER_DIMENSION,
 * else the size the function requires, else 0 (none set). A shape with a
 * zero side, larger than the device takes or that does not divide the
 * grid is refused, as on an H100; an unknown attribute is invalid. With
 * vg_lock held (the function's attributes).
 */
static CUresult vg_cluster_blocks(const CUlaunchConfig *c,
				  const struct CUfunc_st *f,
				  const struct vgpu_info *info,
				  unsigned int *blocks)
{
	unsigned int d[3] = { f->cluster[0], f->cluster[1], f->cluster[2] };
	bool required = d[0] || d[1] || d[2], set = required;
	unsigned int i;
	uint64_t n;

	for (i = 0; i < 3 && required; i++)
		d[i] = d[i] ? d[i] : 1;
	if (c->numAttrs && !c->attrs)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < c->numAttrs; i++) {
		const CUlaunchAttribute *a = &c->attrs[i];
		const CUlaunchAttributeValue *v = &a->value;

		/* 15 was never given out. */
		if ((unsigned int)a->id >
		    CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING ||
		    a->id == 15)
			return CUDA_ERROR_INVALID_VALUE;
		if (a->id != CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION)
			continue;
		/* A required size may be restated, not changed. */
		if (required && (v->clusterDim.x != d[0] ||
				 v->clusterDim.y != d[1] ||
				 v->clusterDim.z != d[2]))
			return CUDA_ERROR_INVALID_CLUSTER_SIZE;
		d[0] = v->clusterDim.x;
		d[1] = v->clusterDim.y;
		d[2] = v->clusterDim.z;
		set = true;
	}
	*blocks = 0;
	if (!set)
		return CUDA_SUCCESS;
	n = (uint64_t)d[0] * d[1] * d[2];
	if (!n || n > vg_cluster_max(info, f) || c->gridDimX % d[0] ||
	    c->gridDimY % d[1] || c->gridDimZ % d[2])
		return CUDA_ERROR_INVALID_CLUSTER_SIZE;
	*blocks = (unsigned int)n;
	return CUDA_SUCCESS;
}

/*
 * What the cluster calls share: the checks of the arguments, the cluster
 * of the launch (0 when unset), the blocks of the launch one SM holds and
 * the largest cluster @f may have. The occupancy is the current
 * context's, as on an H100.
 */
static CUresult vg_cluster_occ(const void *out, CUfunction func,
			       const CUlaunchConfig *c, unsigned int *cluster,
			       int *per_sm, unsigned int *max,
			       const struct vgpu_info **info)
{
	struct vg_occ_kernel k;
	struct CUfunc_st *f;
	uint64_t threads;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!out || !func || !c)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_occ_func(func, &k, info);
	if (r)
		return r;
	r = vg_func_get(func, &f);
	if (r)
		return r;
	if (!vg_ctx_current())
		return CUDA_ERROR_INVALID_CONTEXT;
	pthread_mutex_lock(&vg_lock);
	r = vg_cluster_blocks(c, f, *info, cluster);
	*max = vg_cluster_max(*info, f);
	pthread_mutex_unlock(&vg_lock);
	if (r)
		return r;
	threads = (uint64_t)c->blockDimX * c->blockDimY * c->blockDimZ;
	*per_sm = threads > INT_MAX ? 0 :
		vg_occupancy(*info, &k, (int)threads, c->sharedMemBytes);
	return CUDA_SUCCESS;
}

/* Without a cluster shape set, no cluster is placed: 0, as on an H100. */
CUresult cuOccupancyMaxActiveClusters(int *numClusters, CUfunction func,
				      const CUlaunchConfig *config)
{
	const struct vgpu_info *info;
	unsigned int cluster, max;
	int per_sm;
	CUresult r = vg_cluster_occ(numClusters, func, config, &cluster,
				    &per_sm, &max, &info);

	if (r)
		return r;
	*numClusters = cluster ?
		(int)((uint64_t)per_sm * info->sm_count / cluster) : 0;
	return CUDA_SUCCESS;
}

/* The largest cluster a launch of this shape can have; 0 if no block fits. */
CUresult cuOccupancyMaxPotentialClusterSize(int *clusterSize,
					    CUfunction func,
					    const CUlaunchConfig *config)
{
	const struct vgpu_info *info;
	unsigned int cluster, max;
	int per_sm;
	CUresult r = vg_cluster_occ(clusterSize, func, config, &cluster,
				    &per_sm, &max, &info);

	if (r)
		return r;
	*clusterSize = per_sm ? (int)max : 0;
	return CUDA_SUCCESS;
}
