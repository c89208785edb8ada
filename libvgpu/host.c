// SPDX-License-Identifier: MIT
/*
 * Page-locked host memory: cuMemHostRegister/Unregister and the queries on
 * registered ranges. The module pins whole pages into the current context
 * and maps them at their own address, so the device pointer of a
 * registered host pointer is the pointer itself (unified addressing).
 * Registrations are remembered here, under vg_lock, by the pointer the
 * caller used.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "vg.h"

struct vg_host {
	struct vg_host *next;
	uintptr_t ptr;		/* as registered */
	size_t size;
	uintptr_t base;		/* page-aligned range the module pinned */
	unsigned int flags;	/* CU_MEMHOSTREGISTER_* */
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

CUresult cuMemHostRegister_v2(void *p, size_t bytesize, unsigned int flags)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), start, end;
	struct vgpu_host_register hr = { 0 };
	struct CUctx_st *ctx;
	struct vg_host *h;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!p || !bytesize || (flags & ~(unsigned int)VG_HOSTREGISTER_FLAGS))
		return CUDA_ERROR_INVALID_VALUE;
	if (flags & CU_MEMHOSTREGISTER_IOMEMORY)
		return CUDA_ERROR_NOT_SUPPORTED;
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
	hr.flags = flags & CU_MEMHOSTREGISTER_READ_ONLY ? VGPU_HOST_READ_ONLY : 0;
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
	h->ctx = ctx;
	h->next = vg_hosts;
	vg_hosts = h;
	h = NULL;
out:
	pthread_mutex_unlock(&vg_lock);
	free(h);
	return r;
}

CUresult cuMemHostUnregister(void *p)
{
	struct vgpu_host_unregister hu = { 0 };
	struct vg_host **pp, *h = NULL;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	for (pp = &vg_hosts; *pp; pp = &(*pp)->next) {
		if ((*pp)->ptr == (uintptr_t)p) {
			h = *pp;
			*pp = h->next;
			break;
		}
	}
	if (h) {
		hu.addr = h->base;
		if (ioctl(h->ctx->fd, VGPU_IOCTL_HOST_UNREGISTER, &hu))
			r = vg_errno_result(errno);
	} else {
		r = CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED;
	}
	pthread_mutex_unlock(&vg_lock);
	free(h);
	return r;
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
