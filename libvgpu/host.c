// SPDX-License-Identifier: MIT
/*
 * Page-locked host memory: cuMemHostRegister/Unregister, cuMemHostAlloc/
 * AllocHost/FreeHost and the queries on such ranges. The module pins whole pages into the current context
 * and maps them at their own address, so the device pointer of a
 * registered host pointer is the pointer itself (unified addressing).
 * Registrations are remembered here, under vg_lock, by the pointer the
 * caller used.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vg.h"

struct vg_host {
	struct vg_host *next;
	uintptr_t ptr;		/* as registered */
	size_t size;
	uintptr_t base;		/* page-aligned range the module pinned */
	unsigned int flags;	/* CU_MEMHOSTREGISTER_* or CU_MEMHOSTALLOC_* */
	bool allocated;		/* by cuMemHostAlloc: unmapped when freed */
	struct CUctx_st *ctx;
};

static struct vg_host *vg_hosts;

/* The registration holding [p, p + len); called with vg_lock held. */
static struct vg_host *vg_host_find(uintptr_t p, size_t len)
{
	struct vg_host *h;

	for (h = vg_hosts; h; h = h->next)
		if (p >= h->ptr && p - h->ptr < h->size && len <= h->size - (p - h->ptr))
			return h;
	return NULL;
}

/* Is [p, p + len) inside one registration of @ctx? With vg_lock held. */
bool vg_host_registered(struct CUctx_st *ctx, uintptr_t p, size_t len)
{
	struct vg_host *h = vg_host_find(p, len);

	return h && h->ctx == ctx;
}

/* The page-locked range holding @p: its start, size and context. */
bool vg_host_lookup(uintptr_t p, uintptr_t *start, size_t *size,
		    struct CUctx_st **ctx)
{
	struct vg_host *h = vg_host_find(p, 1);

	if (!h)
		return false;
	*start = h->ptr;
	*size = h->size;
	*ctx = h->ctx;
	return true;
}

/* A context's file is closing: its registrations are gone with it. */
void vg_host_forget(struct CUctx_st *ctx)
{
	struct vg_host **pp = &vg_hosts, *h;

	while ((h = *pp)) {
		if (h->ctx == ctx) {
			*pp = h->next;
			free(h);
		} else {
			pp = &h->next;
		}
	}
}

#define VG_HOSTREGISTER_FLAGS (CU_MEMHOSTREGISTER_PORTABLE | \
	CU_MEMHOSTREGISTER_DEVICEMAP | CU_MEMHOSTREGISTER_IOMEMORY | \
	CU_MEMHOSTREGISTER_READ_ONLY)

/* Pins [p, p + bytesize) into the current context and records it. */
static CUresult vg_host_add(void *p, size_t bytesize, unsigned int flags,
			    bool read_only, bool allocated)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), start, end;
	struct vgpu_host_register hr = { 0 };
	struct CUctx_st *ctx;
	struct vg_host *h;
	CUresult r = CUDA_SUCCESS;

	start = (uintptr_t)p & ~(page - 1);
	if (bytesize > UINTPTR_MAX - (uintptr_t)p - page)
		return CUDA_ERROR_INVALID_VALUE;
	end = ((uintptr_t)p + bytesize + page - 1) & ~(page - 1);

	h = calloc(1, sizeof(*h));
	if (!h)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&vg_lock);
	ctx = vg_ctx_current();
	if (!ctx) {
		r = CUDA_ERROR_INVALID_CONTEXT;
		goto out;
	}
	if (ctx->fd < 0) {
		r = CUDA_ERROR_CONTEXT_IS_DESTROYED;
		goto out;
	}
	hr.addr = start;
	hr.size = end - start;
	hr.flags = read_only ? VGPU_HOST_READ_ONLY : 0;
	if (ioctl(ctx->fd, VGPU_IOCTL_HOST_REGISTER, &hr)) {
		switch (errno) {
		case EEXIST:
			r = CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
			break;
		case EFAULT:
		case EINVAL:
			r = CUDA_ERROR_INVALID_VALUE;
			break;
		default:
			r = vg_errno_result(errno);
			break;
		}
		goto out;
	}
	h->ptr = (uintptr_t)p;
	h->size = bytesize;
	h->base = start;
	h->flags = flags;
	h->allocated = allocated;
	h->ctx = ctx;
	h->next = vg_hosts;
	vg_hosts = h;
	h = NULL;
out:
	pthread_mutex_unlock(&vg_lock);
	free(h);
	return r;
}

CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int flags)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!p || !bytesize || (flags & ~(unsigned int)VG_HOSTREGISTER_FLAGS))
		return CUDA_ERROR_INVALID_VALUE;
	if (flags & CU_MEMHOSTREGISTER_IOMEMORY)
		return CUDA_ERROR_NOT_SUPPORTED;
	return vg_host_add(p, bytesize, flags,
			   flags & CU_MEMHOSTREGISTER_READ_ONLY, false);
}

/*
 * Removes the record that starts at @p (of the kind @allocated) and unpins
 * it; returns false when there is none. With vg_lock held.
 */
static bool vg_host_remove(void *p, bool allocated, size_t *size)
{
	struct vgpu_host_unregister hu = { 0 };
	struct vg_host **pp, *h;

	for (pp = &vg_hosts; (h = *pp); pp = &h->next)
		if (h->ptr == (uintptr_t)p && h->allocated == allocated)
			break;
	if (!h)
		return false;
	*pp = h->next;
	/* Work already queued may still use the pages. */
	vg_chan_wait(h->ctx, h->ctx->put);
	hu.addr = h->base;
	ioctl(h->ctx->fd, VGPU_IOCTL_HOST_UNREGISTER, &hu);
	*size = h->size;
	free(h);
	return true;
}

CUresult cuMemHostUnregister(void *p)
{
	size_t size;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	if (!vg_host_remove(p, false, &size))
		r = CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

#define VG_HOSTALLOC_FLAGS (CU_MEMHOSTALLOC_PORTABLE | \
	CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED)

/* Page-locked memory from the driver: fresh pages, pinned at once. */
CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int flags)
{
	void *p;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pp || !bytesize || (flags & ~(unsigned int)VG_HOSTALLOC_FLAGS))
		return CUDA_ERROR_INVALID_VALUE;
	p = mmap(NULL, bytesize, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = vg_host_add(p, bytesize, flags, false, true);
	if (r) {
		munmap(p, bytesize);
		return r == CUDA_ERROR_INVALID_VALUE ? CUDA_ERROR_OUT_OF_MEMORY : r;
	}
	*pp = p;
	return CUDA_SUCCESS;
}

CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
	return cuMemHostAlloc(pp, bytesize, 0);
}

CUresult cuMemFreeHost(void *p)
{
	size_t size = 0;
	bool found;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	found = vg_host_remove(p, true, &size);
	pthread_mutex_unlock(&vg_lock);
	if (!found)
		return CUDA_ERROR_INVALID_VALUE;
	munmap(p, size);
	return CUDA_SUCCESS;
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p,
				      unsigned int flags)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pdptr || !p || flags)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	if (vg_host_find((uintptr_t)p, 1))
		*pdptr = (CUdeviceptr)(uintptr_t)p;
	else
		r = CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuMemHostGetFlags(unsigned int *pflags, void *p)
{
	struct vg_host *h;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pflags || !p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	h = vg_host_find((uintptr_t)p, 1);
	if (h)
		*pflags = h->flags;
	else
		r = CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&vg_lock);
	return r;
}
