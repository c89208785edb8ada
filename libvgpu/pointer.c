// SPDX-License-Identifier: MIT
/*
 * cuPointerGetAttribute(s): what an address is, found from the unified
 * address space — a device allocation of some context (by its window) or
 * page-locked host memory, managed memory among it. The answers follow
 * NVIDIA's driver on an H100 for what vgpu has (no IPC, no RDMA, no
 * hardware decompression: those read as absent); managed memory reads as
 * device memory that the host reaches at the same address
 * (tests/e2e/ref/h100_managed.log). Mapped virtual memory (vmm_track.c)
 * reads as device memory whose range is its whole reservation, with its
 * mapping's rights and its handle's types, as on an H100
 * (tests/e2e/ref/h100_vmm.log). cuPointerSetAttribute sets the one
 * attribute a program may set, SYNC_MEMOPS.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "vg.h"

/*
 * The allocations and registrations marked SYNC_MEMOPS, by context and
 * start, under vg_lock. A mark goes when its memory is freed or its
 * context closes, so it never passes to later memory at the same address.
 */
struct vg_sync_mark {
	struct vg_sync_mark *next;
	struct CUctx_st *ctx;
	uint64_t start;
};
static struct vg_sync_mark *vg_sync_marks;

static struct vg_sync_mark **vg_sync_find(struct CUctx_st *ctx,
					  uint64_t start)
{
	struct vg_sync_mark **pp;

	for (pp = &vg_sync_marks; *pp; pp = &(*pp)->next)
		if ((*pp)->ctx == ctx && (*pp)->start == start)
			break;
	return pp;
}

/* Memory of @ctx starting at @start is gone; with vg_lock held. */
void vg_sync_forget(struct CUctx_st *ctx, uint64_t start)
{
	struct vg_sync_mark **pp = vg_sync_find(ctx, start), *m = *pp;

	if (m) {
		*pp = m->next;
		free(m);
	}
}

/* @ctx is closing: its memory is gone; with vg_lock held. */
void vg_sync_forget_ctx(struct CUctx_st *ctx)
{
	struct vg_sync_mark **pp = &vg_sync_marks, *m;

	while ((m = *pp)) {
		if (m->ctx == ctx) {
			*pp = m->next;
			free(m);
		} else {
			pp = &m->next;
		}
	}
}

struct vg_pointer {
	CUmemorytype type;
	struct CUctx_st *ctx;
	uint64_t start, size;		/* the allocation or registration */
	uint64_t map_base, map_size;	/* the chunk or pages behind it */
	unsigned int access;		/* CU_POINTER_ATTRIBUTE_ACCESS_FLAG_* */
	uint64_t handle_types;		/* a mapping's handle's */
	bool managed;
	bool module_var;		/* managed: a __managed__ variable's */
	bool sync_memops;		/* marked SYNC_MEMOPS */
	CUmemoryPool pool;		/* a pool's allocation: the pool */
};

/* Virtual memory: only where mapped. With vg_lock held. */
static bool vg_pointer_vmm(const struct vg_vmm_info *vi,
			   struct vg_pointer *pi)
{
	if (!vi->mapped)
		return false;
	pi->type = CU_MEMORYTYPE_DEVICE;
	pi->ctx = vi->ctx;
	pi->start = vi->res_va;
	pi->size = vi->res_size;
	pi->map_base = vi->map_va;
	pi->map_size = vi->map_size;
	pi->access = vi->access;
	pi->handle_types = vi->handle_types;
	pi->sync_memops = *vg_sync_find(pi->ctx, pi->start) != NULL;
	return true;
}

/* With vg_lock held. */
static bool vg_pointer_find(CUdeviceptr ptr, struct vg_pointer *pi)
{
	struct vgpu_mem_query q = { .va = ptr };
	struct vg_host_info hi;
	struct vg_vmm_info vi;

	memset(pi, 0, sizeof(*pi));
	pi->access = CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE;
	if (vg_vmm_lookup(ptr, &vi))
		return vg_pointer_vmm(&vi, pi);
	pi->ctx = vg_ctx_by_address(ptr);
	if (pi->ctx) {
		if (ioctl(pi->ctx->fd, VGPU_IOCTL_MEM_QUERY, &q))
			return false;
		pi->type = CU_MEMORYTYPE_DEVICE;
		pi->start = q.base;
		pi->size = q.size;
		/*
		 * Small allocations share one chunk of VGPU_VA_ALIGN bytes,
		 * larger ones own chunks rounded up to it (vgpu_mem.c).
		 */
		pi->map_base = q.base & ~(uint64_t)(VGPU_VA_ALIGN - 1);
		pi->map_size = q.size <= VGPU_SUBALLOC_MAX ? VGPU_VA_ALIGN :
			(q.size + VGPU_VA_ALIGN - 1) & ~(uint64_t)(VGPU_VA_ALIGN - 1);
		pi->sync_memops = *vg_sync_find(pi->ctx, pi->start) != NULL;
		/* A pool's allocation: the bytes asked for, in its block. */
		vg_pool_lookup(ptr, &pi->start, &pi->size, &pi->pool);
		/* A buffer of external memory: its own bytes (extmem.c). */
		vg_ext_lookup(ptr, &pi->start, &pi->size);
		return true;
	}
	if (!vg_host_lookup((uintptr_t)ptr, &hi))
		return false;
	pi->type = hi.managed ? CU_MEMORYTYPE_DEVICE : CU_MEMORYTYPE_HOST;
	pi->managed = hi.managed;
	pi->module_var = hi.module_var;
	pi->ctx = hi.ctx;
	pi->start = hi.start;
	pi->size = hi.size;
	pi->map_base = hi.map_base;
	pi->map_size = hi.map_size;
	if (hi.read_only)
		pi->access = CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ;
	/* An H100 reads SYNC_MEMOPS set on managed memory from the start. */
	pi->sync_memops = hi.managed ||
		*vg_sync_find(pi->ctx, pi->start) != NULL;
	return true;
}

/*
 * Is @ptr in memory marked SYNC_MEMOPS, so that a synchronous copy or
 * fill touching it returns only once done? With vg_lock held.
 */
bool vg_sync_memops(uint64_t ptr)
{
	struct vg_pointer pi;

	/* Most programs mark nothing: no lookup for them. */
	return vg_sync_marks && vg_pointer_find(ptr, &pi) && pi.sync_memops;
}

/*
 * Does [@ptr, @ptr + @len) lie inside one allocation or page-locked range
 * of @ctx, where @ctx's engines reach it (to read, and with @write to
 * write, in virtual memory)? With vg_lock held.
 */
bool vg_pointer_in(struct CUctx_st *ctx, CUdeviceptr ptr, size_t len,
		   bool write)
{
	struct vg_pointer pi;
	int vmm = vg_vmm_range(ctx, ptr, len, write);

	/* Virtual memory: mapped, with the rights, all the way. */
	if (vmm >= 0)
		return vmm;
	return vg_pointer_find(ptr, &pi) && pi.ctx == ctx &&
		len <= pi.start + pi.size - ptr;
}

/* One attribute of a pointer that was found. */
static CUresult vg_pointer_attr(const struct vg_pointer *pi, void *data,
				CUpointer_attribute attribute, CUdeviceptr ptr)
{
	switch (attribute) {
	case CU_POINTER_ATTRIBUTE_MEMORY_TYPE:
		*(unsigned int *)data = pi->type;
		break;
	case CU_POINTER_ATTRIBUTE_CONTEXT:
		/*
		 * An H100 names no context for a __managed__ variable's
		 * storage (tests/e2e/ref/h100_managed.log).
		 */
		*(CUcontext *)data = pi->module_var ? NULL : pi->ctx;
		break;
	case CU_POINTER_ATTRIBUTE_DEVICE_POINTER:
		/* Unified: the device sees host memory at its own address. */
		*(CUdeviceptr *)data = ptr;
		break;
	case CU_POINTER_ATTRIBUTE_HOST_POINTER:
		if (pi->type != CU_MEMORYTYPE_HOST && !pi->managed)
			return CUDA_ERROR_INVALID_VALUE;
		*(void **)data = (void *)(uintptr_t)ptr;
		break;
	case CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
		*(int *)data = pi->ctx->dev;
		break;
	case CU_POINTER_ATTRIBUTE_RANGE_START_ADDR:
		*(CUdeviceptr *)data = pi->start;
		break;
	case CU_POINTER_ATTRIBUTE_RANGE_SIZE:
		*(size_t *)data = pi->size;
		break;
	case CU_POINTER_ATTRIBUTE_BUFFER_ID:
	case CU_POINTER_ATTRIBUTE_MEMORY_BLOCK_ID:
		/* Allocations never overlap in the unified space: the start
		 * names one while it lives. */
		*(unsigned long long *)data = pi->start;
		break;
	case CU_POINTER_ATTRIBUTE_MAPPED:
		*(unsigned int *)data = 1;
		break;
	case CU_POINTER_ATTRIBUTE_SYNC_MEMOPS:
		*(unsigned int *)data = pi->sync_memops;
		break;
	case CU_POINTER_ATTRIBUTE_IS_MANAGED:
		*(unsigned int *)data = pi->managed;
		break;
	case CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE:
	case CU_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE:
	case CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE:
		*(unsigned int *)data = 0;
		break;
	case CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES:
		*(unsigned long long *)data = pi->handle_types;
		break;
	case CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE:
		*(CUmemoryPool *)data = pi->pool;
		break;
	case CU_POINTER_ATTRIBUTE_ACCESS_FLAGS:
		*(unsigned int *)data = pi->access;
		break;
	case CU_POINTER_ATTRIBUTE_MAPPING_SIZE:
		*(size_t *)data = pi->map_size;
		break;
	case CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR:
		*(void **)data = (void *)(uintptr_t)pi->map_base;
		break;
	case CU_POINTER_ATTRIBUTE_P2P_TOKENS:
		/* Peer-to-peer tokens belong to a feature vgpu lacks. */
		return pi->type == CU_MEMORYTYPE_DEVICE ?
			CUDA_ERROR_NOT_SUPPORTED : CUDA_ERROR_INVALID_VALUE;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

static bool vg_pointer_lookup(CUdeviceptr ptr, struct vg_pointer *pi)
{
	bool found;

	pthread_mutex_lock(&vg_lock);
	found = vg_pointer_find(ptr, pi);
	pthread_mutex_unlock(&vg_lock);
	return found;
}

CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute,
			       CUdeviceptr ptr)
{
	struct vg_pointer pi;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!data || !vg_pointer_lookup(ptr, &pi))
		return CUDA_ERROR_INVALID_VALUE;
	return vg_pointer_attr(&pi, data, attribute, ptr);
}

/*
 * Several attributes at once. Unlike the single form, an address vgpu
 * does not know is not an error: it reads as memory type 0, no context
 * and not managed, and the other slots are left alone (as on NVIDIA's
 * driver).
 */
CUresult cuPointerGetAttributes(unsigned int num_attributes,
				CUpointer_attribute *attributes, void **data,
				CUdeviceptr ptr)
{
	struct vg_pointer pi;
	unsigned int i;
	bool found;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!num_attributes || !attributes || !data)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < num_attributes; i++)
		if (attributes[i] < CU_POINTER_ATTRIBUTE_CONTEXT ||
		    attributes[i] > CU_POINTER_ATTRIBUTE_IS_HW_DECOMPRESS_CAPABLE ||
		    !data[i])
			return CUDA_ERROR_INVALID_VALUE;
	found = vg_pointer_lookup(ptr, &pi);
	for (i = 0; i < num_attributes; i++) {
		if (!found) {
			if (attributes[i] == CU_POINTER_ATTRIBUTE_MEMORY_TYPE ||
			    attributes[i] == CU_POINTER_ATTRIBUTE_IS_MANAGED)
				*(unsigned int *)data[i] = 0;
			else if (attributes[i] == CU_POINTER_ATTRIBUTE_CONTEXT)
				*(CUcontext *)data[i] = NULL;
			continue;
		}
		/* An attribute that does not apply leaves its slot alone. */
		(void)vg_pointer_attr(&pi, data[i], attributes[i], ptr);
	}
	return CUDA_SUCCESS;
}

/*
 * Marks or unmarks the allocation or registration holding @ptr: any
 * nonzero value marks it (reading back 1), as on an H100. No context
 * needs to be current, and every other attribute is read-only
 * (tests/e2e/ref/h100_compat.log).
 */
CUresult cuPointerSetAttribute(const void *value, CUpointer_attribute attribute,
			       CUdeviceptr ptr)
{
	struct vg_sync_mark **pp, *m;
	struct vg_pointer pi;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!value || attribute != CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	if (!vg_pointer_find(ptr, &pi)) {
		r = CUDA_ERROR_INVALID_VALUE;
		goto out;
	}
	pp = vg_sync_find(pi.ctx, pi.start);
	if (*(const unsigned int *)value && !*pp) {
		m = malloc(sizeof(*m));
		if (!m) {
			r = CUDA_ERROR_OUT_OF_MEMORY;
			goto out;
		}
		m->ctx = pi.ctx;
		m->start = pi.start;
		m->next = vg_sync_marks;
		vg_sync_marks = m;
	} else if (!*(const unsigned int *)value && *pp) {
		vg_sync_forget(pi.ctx, pi.start);
	}
out:
	pthread_mutex_unlock(&vg_lock);
	return r;
}
