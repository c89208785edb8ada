// SPDX-License-Identifier: MIT
/*
 * cuFuncSetAttribute, cuFuncSetCacheConfig and cuFuncSetSharedMemConfig:
 * what a program may tune on a kernel. Codes and limits are those of
 * NVIDIA's driver (580, H100): a dynamic shared memory limit up to the
 * opt-in maximum less the static part, a carveout of -1 (the default) or
 * 0 to 100 percent, the cluster attributes accepted (checked at launch),
 * everything else refused with CUDA_ERROR_INVALID_VALUE, a NULL function
 * CUDA_ERROR_INVALID_HANDLE.
 */
#include "vg.h"

/*
 * Sets @attrib of @f, a function or a kernel's settings for the device
 * @info describes (library.c), under vg_lock.
 */
CUresult vg_func_set(struct CUfunc_st *f, const struct vgpu_info *info,
		     CUfunction_attribute attrib, int value)
{
	int optin;

	switch (attrib) {
	case CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES:
		if (vg_attribute(info, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
				 &optin) || value < 0 ||
		    (int64_t)f->k->f.shared_bytes + value > optin)
			return CUDA_ERROR_INVALID_VALUE;
		f->max_dyn_shared = (uint32_t)value;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT:
		if (value < -1 || value > 100)
			return CUDA_ERROR_INVALID_VALUE;
		f->carveout = value;
		return CUDA_SUCCESS;
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_HEIGHT:
	case CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_DEPTH:
	case CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED:
	case CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE:
		if (value < 0)
			return CUDA_ERROR_INVALID_VALUE;
		f->cluster[attrib - CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH] = value;
		return CUDA_SUCCESS;
	default:
		/* The read-only ones too: sizes, registers, versions. */
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib,
			    int value)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	r = vg_func_get(hfunc, &hfunc);
	if (r)
		return r;
	/* cuLaunchKernel reads the limit under vg_lock. */
	pthread_mutex_lock(&vg_lock);
	r = vg_func_set(hfunc, &vg_devices[hfunc->mod->ctx->dev].info, attrib,
			value);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* vgpu has no L1 to trade for shared memory: the choice is kept, unused. */
CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	r = vg_func_get(hfunc, &hfunc);
	if (r)
		return r;
	if ((unsigned int)config > CU_FUNC_CACHE_PREFER_EQUAL)
		return CUDA_ERROR_INVALID_VALUE;
	hfunc->cache_config = config;
	return CUDA_SUCCESS;
}

/*
 * Shared memory banks stay four bytes wide whatever is asked, as on an
 * H100 (see cuCtxSetSharedMemConfig): a valid choice is taken and has no
 * effect. The function is checked before the choice, and no context is
 * needed (tests/e2e/ref/h100_compat.log).
 */
CUresult cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	r = vg_func_get(hfunc, &hfunc);
	if (r)
		return r;
	if ((int)config < CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE ||
	    config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}
