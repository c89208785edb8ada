// SPDX-License-Identifier: MIT
/*
 * cuPointerGetAttribute: what an address is, found from the unified
 * address space — a device allocation of some context (by its window) or
 * page-locked host memory.
 */
#include <sys/ioctl.h>

#include "vg.h"

struct vg_pointer {
	CUmemorytype type;
	struct CUctx_st *ctx;
	uint64_t start;
	uint64_t size;
};

/* With vg_lock held. */
static bool vg_pointer_find(CUdeviceptr ptr, struct vg_pointer *pi)
{
	struct vgpu_mem_query q = { .va = ptr };
	uintptr_t start;
	size_t size;

	pi->ctx = vg_ctx_by_address(ptr);
	if (pi->ctx) {
		if (ioctl(pi->ctx->fd, VGPU_IOCTL_MEM_QUERY, &q))
			return false;
		pi->type = CU_MEMORYTYPE_DEVICE;
		pi->start = q.base;
		pi->size = q.size;
		return true;
	}
	if (!vg_host_lookup((uintptr_t)ptr, &start, &size, &pi->ctx))
		return false;
	pi->type = CU_MEMORYTYPE_HOST;
	pi->start = start;
	pi->size = size;
	return true;
}

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute,
			       CUdeviceptr ptr)
{
	struct vg_pointer pi;
	bool found;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!data)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	found = vg_pointer_find(ptr, &pi);
	pthread_mutex_unlock(&vg_lock);
	if (!found)
		return CUDA_ERROR_INVALID_VALUE;

	switch (attribute) {
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
		*(unsigned int *)data = pi.type;
		break;
	case CU_POINTER_ATTRIBUTE_CONTEXT:
		*(CUcontext *)data = pi.ctx;
		break;
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
		/* Unified: the device sees host memory at its own address. */
		*(CUdeviceptr *)data = ptr;
		break;
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
		if (pi.type != CU_MEMORYTYPE_HOST)
			return CUDA_ERROR_INVALID_VALUE;
		*(void **)data = (void *)(uintptr_t)ptr;
		break;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		*(int *)data = pi.ctx->dev;
		break;
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
		*(CUdeviceptr *)data = pi.start;
		break;
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
		*(size_t *)data = pi.size;
		break;
	case CU_POINTER_ATTRIBUTE_BUFFER_ID:
		/* Allocations never overlap in the unified space: the start
		 * names one while it lives. */
		*(unsigned long long *)data = pi.start;
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}
