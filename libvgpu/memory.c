// SPDX-License-Identifier: MIT
/*
 * Device memory: cuMemAlloc, cuMemAllocPitch, cuMemFree, cuMemGetInfo and
 * cuMemGetAddressRange over the module's allocation ioctls. Addresses are
 * unified: each context's allocations live in its own window of the
 * process's address space, so a pointer alone names its context. The
 * first ABI's calls (compat_v1.c) share their bodies, the vg_mem_*
 * functions; the entry points refuse contexts of that ABI (abi_v1.c).
 */
#include <errno.h>
#include <sys/ioctl.h>

#include "capture.h"
#include "graph.h"
#include "vg.h"

/* The current context, usable for new work; called with vg_lock held. */
CUresult vg_current_open(struct CUctx_st **pctx)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	*pctx = vg_ctx_current();
	if (!*pctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	if ((*pctx)->fd < 0)
		return CUDA_ERROR_CONTEXT_IS_DESTROYED;
	return vg_ctx_sticky(*pctx);
}

/*
 * Whether the thread has a current context usable for new work, for the
 * calls that act on nothing else of it; takes vg_lock.
 */
CUresult vg_current_check(void)
{
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* @bytes (nonzero) of device memory in @ctx, open; under vg_lock. */
CUresult vg_mem_alloc_in(struct CUctx_st *ctx, CUdeviceptr *dptr,
			 size_t bytes)
{
	struct vgpu_mem_alloc a = { .size = bytes };

	if (ioctl(ctx->fd, VGPU_IOCTL_MEM_ALLOC, &a))
		return errno == ENOSPC ? CUDA_ERROR_OUT_OF_MEMORY :
			vg_errno_result(errno);
	*dptr = a.va;
	return CUDA_SUCCESS;
}

/* cuMemAlloc's allocation, for a @dptr and @bytes already checked. */
CUresult vg_mem_alloc(CUdeviceptr *dptr, size_t bytes)
{
	struct CUctx_st *ctx;
	CUresult r;

	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	if (r == CUDA_SUCCESS)
		r = vg_mem_alloc_in(ctx, dptr, bytes);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytes)
{
	CUresult r = vg_check_init();

	if (!r)
		r = vg_v1_gate();
	/* Allocating or freeing waits for the device: unsafe in capture. */
	if (!r)
		r = vg_cap_unsafe();
	if (r)
		return r;
	if (!dptr || !bytes)
		return vg_ctx_current() ? CUDA_ERROR_INVALID_VALUE :
			CUDA_ERROR_INVALID_CONTEXT;
	return vg_mem_alloc(dptr, bytes);
}

/* Rows start on this boundary, as on NVIDIA's driver for small widths. */
#define VG_PITCH_ALIGN 512

/* cuMemAllocPitch_v2 past its context's checks. */
CUresult vg_mem_alloc_pitch(CUdeviceptr *dptr, size_t *pitch, size_t width,
			    size_t height, unsigned int element_size)
{
	size_t p;
	CUresult r;

	if (!dptr || !pitch || !width || !height ||
	    (element_size != 4 && element_size != 8 && element_size != 16))
		return CUDA_ERROR_INVALID_VALUE;
	if (width > SIZE_MAX - (VG_PITCH_ALIGN - 1))
		return CUDA_ERROR_OUT_OF_MEMORY;
	p = (width + VG_PITCH_ALIGN - 1) / VG_PITCH_ALIGN * VG_PITCH_ALIGN;
	if (height > SIZE_MAX / p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = vg_mem_alloc(dptr, p * height);
	if (r == CUDA_SUCCESS)
		*pitch = p;
	return r;
}

CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pitch, size_t width,
			    size_t height, unsigned int element_size)
{
	CUresult r = vg_check_init();

	if (!r)
		r = vg_v1_gate();
	/* Allocating or freeing waits for the device: unsafe in capture. */
	if (!r)
		r = vg_cap_unsafe();
	return r ? r : vg_mem_alloc_pitch(dptr, pitch, width, height,
					  element_size);
}

/* cuMemFree_v2 past its context's checks. */
CUresult vg_mem_free(CUdeviceptr dptr)
{
	struct vgpu_mem_free f = { .va = dptr };
	struct vg_vmm_info vi;
	struct CUctx_st *ctx;
	CUresult r = CUDA_SUCCESS;

	if (!dptr)
		return r;
	pthread_mutex_lock(&vg_lock);
	/* Reserved addresses are cuMemUnmap's and cuMemAddressFree's. */
	if (vg_vmm_lookup(dptr, &vi)) {
		pthread_mutex_unlock(&vg_lock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	ctx = vg_ctx_by_address(dptr);
	if (!ctx) {
		pthread_mutex_unlock(&vg_lock);
		/* No device allocation: managed memory, or nothing. */
		return vg_managed_free((void *)(uintptr_t)dptr);
	}
	/* A mark names an allocation by its start: only a freeable one. */
	vg_sync_forget(ctx, dptr);
	vg_ctx_begin(ctx);
	/* Like cudaFree, work already queued finishes before memory goes. */
	vg_ctx_idle(ctx);
	/* A buffer of external memory is unmapped (extmem.c). */
	if (vg_ext_free_now(dptr)) {
		vg_ctx_end(ctx);
		return r;
	}
	/* Graph memory stays its graph's: trimming may drop it now. */
	if (vg_graph_mem_free(dptr)) {
		vg_ctx_end(ctx);
		return r;
	}
	/* A pool's allocation goes back to its pool (mempool.c). */
	switch (vg_pool_free_now(dptr)) {
	case 0:
		if (ioctl(ctx->fd, VGPU_IOCTL_MEM_FREE, &f))
			r = CUDA_ERROR_INVALID_VALUE;
		break;
	case -1:
		r = CUDA_ERROR_INVALID_VALUE;
		break;
	}
	vg_ctx_end(ctx);
	return r;
}

/*
 * Frees @dptr, an allocation of vg_mem_alloc_in() in @ctx, open, once the
 * work queued there is done, as cuMemFree does. Called with vg_lock held;
 * returns with it released (vg_ctx_begin()).
 */
void vg_mem_free_in(struct CUctx_st *ctx, CUdeviceptr dptr)
{
	struct vgpu_mem_free f = { .va = dptr };

	vg_sync_forget(ctx, dptr);
	vg_ctx_begin(ctx);
	vg_ctx_idle(ctx);
	ioctl(ctx->fd, VGPU_IOCTL_MEM_FREE, &f);
	vg_ctx_end(ctx);
}

CUresult cuMemFree_v2(CUdeviceptr dptr)
{
	CUresult r = vg_check_init();

	if (!r)
		r = vg_v1_gate();
	/* Allocating or freeing waits for the device: unsafe in capture. */
	if (!r)
		r = vg_cap_unsafe();
	return r ? r : vg_mem_free(dptr);
}

CUresult cuMemGetInfo_v2(size_t *free_bytes, size_t *total_bytes)
{
	struct vgpu_info info = { 0 };
	struct CUctx_st *ctx;
	CUresult r;

	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	if (r == CUDA_SUCCESS && ioctl(ctx->fd, VGPU_IOCTL_GET_INFO, &info))
		r = vg_errno_result(errno);
	pthread_mutex_unlock(&vg_lock);
	if (r)
		return r;
	if (free_bytes)
		*free_bytes = info.mem_free;
	if (total_bytes)
		*total_bytes = info.mem_size;
	return CUDA_SUCCESS;
}

CUresult cuMemGetAddressRange_v2(CUdeviceptr *base, size_t *size,
				 CUdeviceptr dptr)
{
	struct vgpu_mem_query q = { .va = dptr };
	struct vg_vmm_info vi;
	struct CUctx_st *ctx;
	CUmemoryPool pool;
	uint64_t start, len;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	ctx = vg_ctx_by_address(dptr);
	if (vg_vmm_lookup(dptr, &vi)) {
		/* A reservation: the mapping there, as on an H100. */
		q.base = vi.map_va;
		q.size = vi.map_size;
		if (!vi.mapped)
			r = CUDA_ERROR_NOT_FOUND;
	} else if (!ctx || ioctl(ctx->fd, VGPU_IOCTL_MEM_QUERY, &q)) {
		r = CUDA_ERROR_NOT_FOUND;
	}
	/* A pool's allocation is the bytes asked for, in its block. */
	if (r == CUDA_SUCCESS && vg_pool_lookup(dptr, &start, &len, &pool)) {
		q.base = start;
		q.size = len;
	}
	/* A buffer of external memory is what was asked for too. */
	if (r == CUDA_SUCCESS && vg_ext_lookup(dptr, &start, &len)) {
		q.base = start;
		q.size = len;
	}
	pthread_mutex_unlock(&vg_lock);
	if (r)
		return r;
	if (base)
		*base = q.base;
	if (size)
		*size = q.size;
	return CUDA_SUCCESS;
}
