// SPDX-License-Identifier: MIT
/*
 * Page-locked host memory: cuMemHostRegister/Unregister, cuMemHostAlloc/
 * AllocHost/FreeHost and the queries on such ranges. Registrations are
 * byte ranges, as on NVIDIA's driver: two buffers that share a page can
 * both be registered, overlapping ones cannot. The module pins whole pages
 * into a context and maps them at their own address, so the device pointer
 * of a registered host pointer is the pointer itself (unified addressing).
 * Pinned page ranges ("pins") are shared by the registrations that touch
 * them and unpinned when the last of those goes. Registrations and pins
 * are kept here under vg_lock.
 *
 * Managed memory (cuMemAllocManaged) is page-locked memory of the module's
 * too: HOST_ALLOC's pages, mapped here and into the context's device
 * address space at the same address, are already what managed memory must
 * be on a machine whose host and device share one memory, so the module
 * needs no flag for it. Only the driver tells the two apart: a managed
 * range is device memory to the pointer queries, is freed by cuMemFree,
 * and carries the residency model of managed.c, one struct vg_mpage a
 * page.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "capture.h"
#include "vg.h"

struct vg_host {
	struct vg_host *next;
	uintptr_t ptr;		/* as registered */
	size_t size;
	uintptr_t base, end;	/* the pages it touches */
	unsigned int flags;	/* CU_MEMHOSTREGISTER_* or CU_MEMHOSTALLOC_* */
	bool allocated;		/* by the module: unmapped when freed */
	bool managed;		/* by cuMemAllocManaged */
	bool module_var;	/* managed: a module's __managed__ variable */
	struct vg_mpage *mpages;	/* managed: one a page */
	struct CUctx_st *ctx;
};

/* Pages pinned into a context by one HOST_REGISTER. */
struct vg_pin {
	struct vg_pin *next;
	uintptr_t base, end;
	unsigned int users;	/* registrations touching it */
	bool read_only;
	struct CUctx_st *ctx;
};

static struct vg_host *vg_hosts;
static struct vg_pin *vg_pins;

/* The registration holding @p; called with vg_lock held. */
static struct vg_host *vg_host_at(uintptr_t p)
{
	struct vg_host *h;

	for (h = vg_hosts; h; h = h->next)
		if (p >= h->ptr && p - h->ptr < h->size)
			return h;
	return NULL;
}

/*
 * How a copy may use [p, p + len) in @ctx: registered there (the engine
 * reaches it directly), or pageable. A range that starts in a registration
 * and runs past its end is refused, as NVIDIA's driver does. With vg_lock.
 */
enum vg_host_use vg_host_use(struct CUctx_st *ctx, uintptr_t p, size_t len)
{
	struct vg_host *h = vg_host_at(p);

	if (!h || h->ctx != ctx)
		return VG_HOST_PAGEABLE;
	return len <= h->size - (p - h->ptr) ? VG_HOST_PINNED : VG_HOST_OVERRUN;
}

/* The page-locked range holding @p; called with vg_lock held. */
bool vg_host_lookup(uintptr_t p, struct vg_host_info *info)
{
	struct vg_host *h = vg_host_at(p);

	if (!h)
		return false;
	info->start = h->ptr;
	info->size = h->size;
	info->map_base = h->base;
	info->map_size = h->end - h->base;
	info->read_only = !h->allocated &&
		(h->flags & CU_MEMHOSTREGISTER_READ_ONLY);
	info->managed = h->managed;
	info->module_var = h->module_var;
	info->ctx = h->ctx;
	return true;
}

/*
 * The pages of the managed allocation that holds all of [p, p + len), and
 * the address of the first of them (*@base); NULL if there is none. With
 * vg_lock held.
 */
struct vg_mpage *vg_managed_pages(uintptr_t p, size_t len, uintptr_t *base)
{
	struct vg_host *h = vg_host_at(p);

	if (!h || !h->managed || len > h->size - (p - h->ptr))
		return NULL;
	*base = h->base;
	return h->mpages;
}

/*
 * The file of the context that holds the managed allocation at @p, or -1;
 * with vg_lock held.
 */
int vg_managed_fd(uintptr_t p)
{
	struct vg_host *h = vg_host_at(p);

	return h && h->managed ? h->ctx->fd : -1;
}

/*
 * Does [p, p + len) lie in one managed allocation of @ctx? With vg_lock
 * held.
 */
bool vg_managed_in(struct CUctx_st *ctx, uintptr_t p, size_t len)
{
	struct vg_host *h = vg_host_at(p);

	return h && h->managed && h->ctx == ctx &&
		len <= h->size - (p - h->ptr);
}

static void vg_host_free(struct vg_host *h)
{
	free(h->mpages);
	free(h);
}

/* A context's file is closing: its registrations and pins went with it. */
void vg_host_forget(struct CUctx_st *ctx)
{
	struct vg_host **pp = &vg_hosts, *h;
	struct vg_pin **qq = &vg_pins, *q;

	while ((h = *pp)) {
		if (h->ctx == ctx) {
			*pp = h->next;
			/* Page-locked memory of the context goes with it. */
			if (h->allocated)
				munmap((void *)h->base, h->end - h->base);
			vg_host_free(h);
		} else {
			pp = &h->next;
		}
	}
	while ((q = *qq)) {
		if (q->ctx == ctx) {
			*qq = q->next;
			free(q);
		} else {
			qq = &q->next;
		}
	}
}

/* Counts a registration of [base, end) in @ctx in or out of its pins. */
static void vg_pins_use(struct CUctx_st *ctx, uintptr_t base, uintptr_t end,
			int delta)
{
	struct vgpu_host_unregister hu = { 0 };
	struct vg_pin **qq = &vg_pins, *q;

	while ((q = *qq)) {
		if (q->ctx != ctx || q->end <= base || q->base >= end) {
			qq = &q->next;
			continue;
		}
		q->users += delta;
		if (q->users) {
			qq = &q->next;
			continue;
		}
		/* The last registration on these pages has gone. */
		hu.addr = q->base;
		ioctl(ctx->fd, VGPU_IOCTL_HOST_UNREGISTER, &hu);
		*qq = q->next;
		free(q);
	}
}

static CUresult vg_pin_result(int err)
{
	switch (err) {
	case EEXIST:
		return CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
	case EFAULT:
	case EINVAL:
		return CUDA_ERROR_INVALID_VALUE;
	default:
		return vg_errno_result(err);
	}
}

/*
 * Pins the pages of [base, end) that no pin of @ctx holds yet, each gap
 * with one HOST_REGISTER (users 0: the caller counts the registration in).
 * On failure the new pins are undone.
 */
static CUresult vg_pins_add(struct CUctx_st *ctx, uintptr_t base,
			    uintptr_t end, bool read_only)
{
	struct vgpu_host_register hr = { 0 };
	struct vgpu_host_unregister hu = { 0 };
	uintptr_t at = base, gap_end;
	struct vg_pin *q, *added = NULL;
	CUresult r = CUDA_SUCCESS;

	while (at < end && r == CUDA_SUCCESS) {
		gap_end = end;
		for (q = vg_pins; q; q = q->next) {
			if (q->ctx != ctx)
				continue;
			if (q->base <= at && at < q->end)
				break;
			if (q->base > at && q->base < gap_end)
				gap_end = q->base;
		}
		if (q) {
			/* Shared pages must allow what the new user needs. */
			if (q->read_only && !read_only)
				r = CUDA_ERROR_NOT_SUPPORTED;
			at = q->end;
			continue;
		}
		hr.addr = at;
		hr.size = gap_end - at;
		hr.flags = read_only ? VGPU_HOST_READ_ONLY : 0;
		q = calloc(1, sizeof(*q));
		if (!q) {
			r = CUDA_ERROR_OUT_OF_MEMORY;
			break;
		}
		if (ioctl(ctx->fd, VGPU_IOCTL_HOST_REGISTER, &hr)) {
			r = vg_pin_result(errno);
			free(q);
			break;
		}
		q->base = at;
		q->end = gap_end;
		q->read_only = read_only;
		q->ctx = ctx;
		q->next = added;
		added = q;
		at = gap_end;
	}
	while ((q = added)) {
		added = q->next;
		if (r) {
			hu.addr = q->base;
			ioctl(ctx->fd, VGPU_IOCTL_HOST_UNREGISTER, &hu);
			free(q);
		} else {
			q->next = vg_pins;
			vg_pins = q;
		}
	}
	return r;
}

#define VG_HOSTREGISTER_FLAGS (CU_MEMHOSTREGISTER_PORTABLE | \
	CU_MEMHOSTREGISTER_DEVICEMAP | CU_MEMHOSTREGISTER_IOMEMORY | \
	CU_MEMHOSTREGISTER_READ_ONLY)

/*
 * Registers [p, p + bytesize) with @in, or with the current context when
 * @in is NULL.
 */
static CUresult vg_host_add(struct CUctx_st *in, void *p, size_t bytesize,
			    unsigned int flags, bool read_only, bool allocated,
			    bool managed, bool module_var)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), start, end;
	struct CUctx_st *ctx;
	struct vg_host *h, *o;
	CUresult r = CUDA_SUCCESS;

	start = (uintptr_t)p & ~(page - 1);
	if (bytesize > UINTPTR_MAX - (uintptr_t)p - page)
		return CUDA_ERROR_INVALID_VALUE;
	end = ((uintptr_t)p + bytesize + page - 1) & ~(page - 1);

	h = calloc(1, sizeof(*h));
	if (!h)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (managed) {
		h->mpages = calloc((end - start) / page, sizeof(*h->mpages));
		if (!h->mpages) {
			free(h);
			return CUDA_ERROR_OUT_OF_MEMORY;
		}
		vg_mpages_init(h->mpages, (end - start) / page);
	}
	pthread_mutex_lock(&vg_lock);
	ctx = in ? in : vg_ctx_current();
	if (!ctx) {
		r = CUDA_ERROR_INVALID_CONTEXT;
		goto out;
	}
	if (ctx->fd < 0) {
		r = CUDA_ERROR_CONTEXT_IS_DESTROYED;
		goto out;
	}
	for (o = vg_hosts; o; o = o->next) {
		if ((uintptr_t)p < o->ptr + o->size &&
		    o->ptr < (uintptr_t)p + bytesize) {
			/*
			 * Memory cuMemHostAlloc made is no memory of the
			 * program's to register: an H100 refuses it as an
			 * invalid value, not as registered already.
			 */
			r = o->allocated && !allocated ?
				CUDA_ERROR_INVALID_VALUE :
				CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
			goto out;
		}
	}
	/* The module's own allocations are mapped into the device already. */
	if (!allocated) {
		r = vg_pins_add(ctx, start, end, read_only);
		if (r)
			goto out;
		vg_pins_use(ctx, start, end, 1);
	}
	h->ptr = (uintptr_t)p;
	h->size = bytesize;
	h->base = start;
	h->end = end;
	h->flags = flags;
	h->allocated = allocated;
	h->managed = managed;
	h->module_var = module_var;
	h->ctx = ctx;
	h->next = vg_hosts;
	vg_hosts = h;
	h = NULL;
out:
	pthread_mutex_unlock(&vg_lock);
	if (h)
		vg_host_free(h);
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
	return vg_host_add(NULL, p, bytesize, flags,
			   flags & CU_MEMHOSTREGISTER_READ_ONLY, false, false,
			   false);
}

/*
 * Removes the registration that starts at @p (of the kind @allocated,
 * @managed and @module_var) and unpins the pages no other registration
 * uses.
 * CUDA_ERROR_INVALID_VALUE for a pointer inside such a registration,
 * @missing for one outside all. With vg_lock held.
 */
static CUresult vg_host_remove(void *p, bool allocated, bool managed,
			       bool module_var, size_t *size, CUresult missing)
{
	struct vg_host **pp, *h;

	for (pp = &vg_hosts; (h = *pp); pp = &h->next)
		if (h->ptr == (uintptr_t)p && h->allocated == allocated &&
		    h->managed == managed && h->module_var == module_var)
			break;
	if (!h) {
		h = vg_host_at((uintptr_t)p);
		return h && h->allocated == allocated &&
			h->managed == managed ?
			CUDA_ERROR_INVALID_VALUE : missing;
	}
	*pp = h->next;
	/* Work already queued may still use the pages. */
	pthread_mutex_lock(&h->ctx->lock);
	vg_ctx_idle(h->ctx);
	pthread_mutex_unlock(&h->ctx->lock);
	if (!allocated)
		vg_pins_use(h->ctx, h->base, h->end, -1);
	vg_sync_forget(h->ctx, h->ptr);
	*size = h->size;
	vg_host_free(h);
	return CUDA_SUCCESS;
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
	r = vg_host_remove(p, false, false, false, &size,
			   CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

#define VG_HOSTALLOC_FLAGS (CU_MEMHOSTALLOC_PORTABLE | \
	CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_WRITECOMBINED)

/*
 * Page-locked memory from the driver: kernel pages of @in (the current
 * context when NULL), mapped here and into the device at the same
 * address; page-locked host memory, or managed memory when @managed
 * (storage of a module's __managed__ variable, too, with @module_var).
 */
static CUresult vg_host_alloc_in(struct CUctx_st *in, void **pp,
				 size_t bytesize, unsigned int flags,
				 bool managed, bool module_var)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len;
	struct vgpu_host_alloc ha = { 0 };
	struct CUctx_st *ctx;
	void *p = MAP_FAILED;
	CUresult r;

	if (bytesize > SIZE_MAX - page)
		return CUDA_ERROR_OUT_OF_MEMORY;
	len = (bytesize + page - 1) & ~(page - 1);
	pthread_mutex_lock(&vg_lock);
	ctx = in;
	if (!in)
		r = vg_current_open(&ctx);
	else
		r = in->fd < 0 ? CUDA_ERROR_CONTEXT_IS_DESTROYED : CUDA_SUCCESS;
	if (r == CUDA_SUCCESS) {
		ha.size = len;
		/* The module counts managed memory's faults (vgpu_managed.c). */
		ha.flags = managed ? VGPU_HOST_ALLOC_MANAGED : 0;
		if (ioctl(ctx->fd, VGPU_IOCTL_HOST_ALLOC, &ha))
			r = CUDA_ERROR_OUT_OF_MEMORY;
		else
			p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED,
				 ctx->fd, (off_t)ha.offset);
		if (r == CUDA_SUCCESS && p == MAP_FAILED)
			r = CUDA_ERROR_OUT_OF_MEMORY;
	}
	pthread_mutex_unlock(&vg_lock);
	if (r)
		return r;
	r = vg_host_add(ctx, p, bytesize, flags, false, true, managed,
			module_var);
	if (r) {
		munmap(p, len);
		return r;
	}
	if (managed)
		__atomic_store_n(&ctx->interp_only, true, __ATOMIC_RELAXED);
	*pp = p;
	return CUDA_SUCCESS;
}

CUresult vg_host_alloc(void **pp, size_t bytesize, unsigned int flags,
		       bool managed)
{
	return vg_host_alloc_in(NULL, pp, bytesize, flags, managed, false);
}

/*
 * Storage for a __managed__ variable of a module being loaded into @ctx
 * (entered, so held against its destruction). Called without locks.
 */
CUresult vg_managed_var_alloc(struct CUctx_st *ctx, void **pp, size_t size)
{
	return vg_host_alloc_in(ctx, pp, size ? size : 1, 0, true, true);
}

/*
 * Frees what vg_managed_var_alloc() gave, once the work queued on it is
 * done. Called without locks, while the context lives.
 */
void vg_managed_var_free(void *p)
{
	size_t size = 0;
	CUresult r;

	pthread_mutex_lock(&vg_lock);
	r = vg_host_remove(p, true, true, true, &size,
			   CUDA_ERROR_INVALID_VALUE);
	pthread_mutex_unlock(&vg_lock);
	if (r == CUDA_SUCCESS)
		munmap(p, size);
}

CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int flags)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pp || !bytesize || (flags & ~(unsigned int)VG_HOSTALLOC_FLAGS))
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_cap_unsafe();
	return r ? r : vg_host_alloc(pp, bytesize, flags, false);
}

CUresult cuMemAllocHost_v2(void **pp, size_t bytesize)
{
	return cuMemHostAlloc(pp, bytesize, 0);
}

CUresult cuMemFreeHost(void *p)
{
	size_t size = 0;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_cap_unsafe();
	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_host_remove(p, true, false, false, &size,
			   CUDA_ERROR_INVALID_VALUE);
	pthread_mutex_unlock(&vg_lock);
	if (r)
		return r;
	/* The module frees the pages, device mapping included. */
	munmap(p, size);
	return CUDA_SUCCESS;
}

/*
 * cuMemFree of a pointer that is no device allocation: managed memory
 * starting at @p, or CUDA_ERROR_INVALID_VALUE.
 */
CUresult vg_managed_free(void *p)
{
	size_t size = 0;
	CUresult r;

	pthread_mutex_lock(&vg_lock);
	r = vg_host_remove(p, true, true, false, &size,
			   CUDA_ERROR_INVALID_VALUE);
	pthread_mutex_unlock(&vg_lock);
	if (r == CUDA_SUCCESS)
		munmap(p, size);
	return r;
}

CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p,
				      unsigned int flags)
{
	struct vg_host *h;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pdptr || !p || flags)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	h = vg_host_at((uintptr_t)p);
	/* Managed memory is no host memory to map, as on an H100. */
	if (h && !h->managed)
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
	h = vg_host_at((uintptr_t)p);
	if (h)
		*pflags = h->flags;
	else
		r = CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&vg_lock);
	return r;
}
