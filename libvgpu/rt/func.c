// SPDX-License-Identifier: MIT
/*
 * Kernels by their host stub: attributes (cudaFuncGetAttributes,
 * cudaFuncSetAttribute) and occupancy. The kernel's module loads into the
 * thread's device first, as a launch would load it.
 */
#include <string.h>

#include "rt.h"

/* The function of @func's kernel on the thread's device. */
static cudaError_t rt_func(const void *func, CUfunction *fn)
{
	/* CUDA 13's answers: see rt_function(). */
	return rt_function(func, cudaErrorInvalidResourceHandle, fn);
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr,
				  const void *func)
{
	static const struct {
		size_t offset;
		bool is_size;
		CUfunction_attribute attr;
	} fields[] = {
#define RT_FA(field, a) \
	{ offsetof(struct cudaFuncAttributes, field), \
	  sizeof(((struct cudaFuncAttributes *)0)->field) == sizeof(size_t), \
	  CU_FUNC_ATTRIBUTE_##a }
		RT_FA(sharedSizeBytes, SHARED_SIZE_BYTES),
		RT_FA(constSizeBytes, CONST_SIZE_BYTES),
		RT_FA(localSizeBytes, LOCAL_SIZE_BYTES),
		RT_FA(maxThreadsPerBlock, MAX_THREADS_PER_BLOCK),
		RT_FA(numRegs, NUM_REGS),
		RT_FA(ptxVersion, PTX_VERSION),
		RT_FA(binaryVersion, BINARY_VERSION),
		RT_FA(cacheModeCA, CACHE_MODE_CA),
		RT_FA(maxDynamicSharedSizeBytes, MAX_DYNAMIC_SHARED_SIZE_BYTES),
		RT_FA(preferredShmemCarveout, PREFERRED_SHARED_MEMORY_CARVEOUT),
		RT_FA(clusterDimMustBeSet, CLUSTER_SIZE_MUST_BE_SET),
		RT_FA(requiredClusterWidth, REQUIRED_CLUSTER_WIDTH),
		RT_FA(requiredClusterHeight, REQUIRED_CLUSTER_HEIGHT),
		RT_FA(requiredClusterDepth, REQUIRED_CLUSTER_DEPTH),
		RT_FA(clusterSchedulingPolicyPreference,
		      CLUSTER_SCHEDULING_POLICY_PREFERENCE),
		RT_FA(nonPortableClusterSizeAllowed,
		      NON_PORTABLE_CLUSTER_SIZE_ALLOWED),
#undef RT_FA
	};
	struct cudaFuncAttributes out = { 0 };
	CUfunction fn;
	cudaError_t e;
	size_t i;

	if (!attr)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_func(func, &fn);
	if (e)
		return rt_ret(e);
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		char *field = (char *)&out + fields[i].offset;
		int v = 0;

		e = rt_error(cuFuncGetAttribute(&v, fields[i].attr, fn));
		if (e)
			return rt_ret(e);
		if (fields[i].is_size) {
			size_t s = (size_t)v;

			memcpy(field, &s, sizeof(s));
		} else {
			memcpy(field, &v, sizeof(v));
		}
	}
	*attr = out;
	return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr,
				 int value)
{
	CUfunction fn;
	cudaError_t e = rt_func(func, &fn);

	if (e)
		return rt_ret(e);
	/* cudaFuncAttribute's values are CUfunction_attribute's. */
	return rt_ret_cu(cuFuncSetAttribute(fn, (CUfunction_attribute)attr,
					    value));
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
	int *num_blocks, const void *func, int block_size,
	size_t dynamic_smem, unsigned int flags)
{
	CUfunction fn;
	cudaError_t e;

	if (!num_blocks)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_func(func, &fn);
	if (e)
		return rt_ret(e);
	/* cudaOccupancy* flags are CU_OCCUPANCY_*'s. */
	return rt_ret_cu(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
		num_blocks, fn, block_size, dynamic_smem, flags));
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *num_blocks,
							  const void *func,
							  int block_size,
							  size_t dynamic_smem)
{
	return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
		num_blocks, func, block_size, dynamic_smem,
		cudaOccupancyDefault);
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamic_smem,
						   const void *func,
						   int num_blocks,
						   int block_size)
{
	CUfunction fn;
	cudaError_t e = rt_func(func, &fn);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuOccupancyAvailableDynamicSMemPerBlock(
		dynamic_smem, fn, num_blocks, block_size));
}

cudaError_t cudaFuncSetCacheConfig(const void *func,
				   enum cudaFuncCache config)
{
	CUfunction fn;
	cudaError_t e = rt_func(func, &fn);

	if (e)
		return rt_ret(e);
	/* cudaFuncCache's values are CUfunc_cache's. */
	return rt_ret_cu(cuFuncSetCacheConfig(fn, (CUfunc_cache)config));
}
