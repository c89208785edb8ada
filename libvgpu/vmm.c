// SPDX-License-Identifier: MIT
/*
 * Virtual memory management, the allocation handles: cuMemCreate,
 * cuMemRelease, cuMemRetainAllocationHandle, the granularity and property
 * queries, and sharing through a file descriptor (cuMemExportTo- and
 * cuMemImportFromShareableHandle), over the module's memory objects
 * (uapi/vgpu.h, "Virtual memory management"). vmm_track.c has the
 * addresses: reservations, mappings and access rights. The answers follow
 * NVIDIA's driver on an H100 (tests/e2e/ref/h100_vmm.log); where that
 * driver dies of a handle that names nothing, vgpu answers
 * CUDA_ERROR_INVALID_VALUE.
 *
 * A CUmemGenericAllocationHandle is the address of a struct vg_mem. The
 * module names an object per context: a vg_mem holds the handle of the
 * context that made or imported it, and one more for each other context
 * of the device it was mapped in (an export and an import through the
 * module). The program's references (cuMemCreate or an import: one, each
 * retain: one more, each release: one less) and the mappings keep a
 * vg_mem; once both are gone its module handles go. Memory released while
 * mapped stays until unmapped, as on an H100: the module's mappings hold
 * the object.
 *
 * Locking: vg_lock protects every vg_mem and the registry of them; the
 * module is called with it held.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "vg.h"

/* The module's handle of a vg_mem's object in another context. */
struct vg_mem_alias {
	struct vg_mem_alias *next;
	struct CUctx_st *ctx;
	uint32_t kh;
};

/* Every vg_mem not yet freed: the program's, and those only mapped. */
static struct vg_mem *vg_mems;

/*
 * With vg_lock held: the vg_mem that @h names while the program holds
 * it, or NULL (nothing, or one only its mappings keep).
 */
struct vg_mem *vg_mem_find(CUmemGenericAllocationHandle h)
{
	struct vg_mem *m;

	for (m = vg_mems; m; m = m->next)
		if ((uintptr_t)m == h)
			return m->refs ? m : NULL;
	return NULL;
}

/* A module handle goes; a closed context's went with its file. */
static void vg_kh_release(struct CUctx_st *ctx, uint32_t kh)
{
	struct vgpu_mem_release r = { .handle = kh };

	if (ctx && ctx->fd >= 0)
		ioctl(ctx->fd, VGPU_IOCTL_MEM_RELEASE, &r);
}

/* With vg_lock held: frees @m once neither the program nor a mapping has it. */
static void vg_mem_put(struct vg_mem *m)
{
	struct vg_mem_alias *a;
	struct vg_mem **pp;

	if (m->refs || m->maps)
		return;
	for (pp = &vg_mems; *pp; pp = &(*pp)->next) {
		if (*pp == m) {
			*pp = m->next;
			break;
		}
	}
	vg_kh_release(m->ctx, m->kh);
	while ((a = m->aliases)) {
		m->aliases = a->next;
		vg_kh_release(a->ctx, a->kh);
		free(a);
	}
	free(m);
}

/* A mapping of @m went (vmm_track.c); with vg_lock held. */
void vg_mem_unmapped(struct vg_mem *m)
{
	m->maps--;
	vg_mem_put(m);
}

/*
 * With vg_lock held: the module's handle of @m's object in @ctx, got the
 * first time by exporting it from its own context and importing it there.
 */
CUresult vg_mem_handle_in(struct vg_mem *m, struct CUctx_st *ctx,
			  uint32_t *kh)
{
	struct vgpu_mem_export e = { .handle = m->kh };
	struct vgpu_mem_import im = { 0 };
	struct vg_mem_alias *a;
	int err = 0;

	if (m->ctx == ctx) {
		*kh = m->kh;
		return CUDA_SUCCESS;
	}
	for (a = m->aliases; a; a = a->next) {
		if (a->ctx == ctx) {
			*kh = a->kh;
			return CUDA_SUCCESS;
		}
	}
	/* Its contexts all closed: the memory went with them. */
	if (!m->ctx)
		return CUDA_ERROR_INVALID_VALUE;
	a = malloc(sizeof(*a));
	if (!a)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (ioctl(m->ctx->fd, VGPU_IOCTL_MEM_EXPORT, &e)) {
		err = errno;
	} else {
		im.fd = e.fd;
		if (ioctl(ctx->fd, VGPU_IOCTL_MEM_IMPORT, &im))
			err = errno;
		else
			__atomic_store_n(&ctx->interp_only, true, __ATOMIC_RELAXED);
		close(e.fd);
	}
	if (err) {
		free(a);
		/*
		 * Another device's memory: an H100 maps it once peer access
		 * is on; vgpu's devices reach only their own memory.
		 */
		return err == EXDEV ? CUDA_ERROR_NOT_SUPPORTED :
			vg_errno_result(err);
	}
	a->ctx = ctx;
	a->kh = im.handle;
	a->next = m->aliases;
	m->aliases = a;
	*kh = a->kh;
	return CUDA_SUCCESS;
}

/*
 * @ctx closed, and its module handles with its file; with vg_lock held.
 * A vg_mem made there lives on through a handle of another context, if
 * it was mapped in one; else its memory is gone, and it only answers
 * queries until released.
 */
void vg_mem_ctx_close(struct CUctx_st *ctx)
{
	struct vg_mem_alias **pp, *a;
	struct vg_mem *m;

	for (m = vg_mems; m; m = m->next) {
		pp = &m->aliases;
		while ((a = *pp)) {
			if (a->ctx == ctx) {
				*pp = a->next;
				free(a);
			} else {
				pp = &a->next;
			}
		}
		if (m->ctx != ctx)
			continue;
		m->ctx = NULL;
		m->kh = 0;
		a = m->aliases;
		if (a) {
			m->ctx = a->ctx;
			m->kh = a->kh;
			m->aliases = a->next;
			free(a);
		}
	}
}

/*
 * An H100 answers one granule, 2 MiB, for both options and any
 * properties, even of a device it lacks or a type it does not know.
 */
CUresult cuMemGetAllocationGranularity(size_t *granularity,
				       const CUmemAllocationProp *prop,
				       CUmemAllocationGranularity_flags option)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!granularity || !prop ||
	    (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM &&
	     option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED))
		return CUDA_ERROR_INVALID_VALUE;
	*granularity = VGPU_VA_ALIGN;
	return CUDA_SUCCESS;
}

/* Can vgpu make memory of properties @p? */
static CUresult vg_prop_check(const CUmemAllocationProp *p)
{
	if (p->type != CU_MEM_ALLOCATION_TYPE_PINNED || p->win32HandleMetaData)
		return CUDA_ERROR_INVALID_VALUE;
	switch (p->location.type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		break;
	case CU_MEM_LOCATION_TYPE_HOST:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
		/* An H100 makes host memory too; the module's is device memory. */
		return CUDA_ERROR_NOT_SUPPORTED;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	if (p->location.id < 0 || p->location.id >= vg_device_count)
		return CUDA_ERROR_INVALID_DEVICE;
	/*
	 * An H100 takes bits it does not know (0x40) and compression; vgpu
	 * gives only file descriptors, and compresses nothing.
	 */
	if (p->requestedHandleTypes & (CU_MEM_HANDLE_TYPE_WIN32 |
				       CU_MEM_HANDLE_TYPE_WIN32_KMT |
				       CU_MEM_HANDLE_TYPE_FABRIC))
		return CUDA_ERROR_NOT_SUPPORTED;
	if (p->allocFlags.compressionType)
		return CUDA_ERROR_NOT_SUPPORTED;
	return CUDA_SUCCESS;
}

/*
 * With vg_lock held: the context to make memory of device @dev in, the
 * current one if it is on @dev, else any open context of @dev (a program
 * may make memory of each device with one context current).
 */
static CUresult vg_mem_ctx(int dev, struct CUctx_st **pctx)
{
	struct CUctx_st *c;
	CUresult r = vg_current_open(pctx);

	if (r || (*pctx)->dev == dev)
		return r;
	for (c = vg_ctx_next(NULL); c; c = vg_ctx_next(c)) {
		if (c->dev == dev && c->fd >= 0 && !vg_ctx_sticky(c)) {
			*pctx = c;
			return CUDA_SUCCESS;
		}
	}
	return CUDA_ERROR_INVALID_DEVICE;
}

/* With vg_lock held: @m, whose fields are set, joins the registry. */
static void vg_mem_add(struct vg_mem *m, CUmemGenericAllocationHandle *handle)
{
	m->refs = 1;
	m->next = vg_mems;
	vg_mems = m;
	*handle = (uintptr_t)m;
}

CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size,
		     const CUmemAllocationProp *prop, unsigned long long flags)
{
	struct vgpu_mem_create c = { .size = size };
	struct CUctx_st *ctx;
	struct vg_mem *m;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!handle || !prop || flags || !size || size % VGPU_VA_ALIGN)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_prop_check(prop);
	if (r)
		return r;
	m = calloc(1, sizeof(*m));
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&vg_lock);
	r = vg_mem_ctx(prop->location.id, &ctx);
	if (r == CUDA_SUCCESS && ioctl(ctx->fd, VGPU_IOCTL_MEM_CREATE, &c))
		r = errno == EINVAL ? CUDA_ERROR_INVALID_VALUE :
			vg_errno_result(errno);
	if (r == CUDA_SUCCESS) {
		m->ctx = ctx;
		m->kh = c.handle;
		m->size = size;
		m->prop = *prop;
		vg_mem_add(m, handle);
	}
	pthread_mutex_unlock(&vg_lock);
	if (r)
		free(m);
	return r;
}

CUresult cuMemRelease(CUmemGenericAllocationHandle handle)
{
	struct vg_mem *m;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	m = vg_mem_find(handle);
	if (m) {
		m->refs--;
		vg_mem_put(m);
	} else {
		r = CUDA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/*
 * The handle mapped at @addr, one more reference to it: the same value
 * cuMemCreate gave, as on an H100, even once the program released it.
 */
CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle,
				     void *addr)
{
	struct vg_vmm_info vi;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!handle)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	if (vg_vmm_lookup((uintptr_t)addr, &vi) && vi.mapped) {
		vi.mem->refs++;
		*handle = (uintptr_t)vi.mem;
	} else {
		r = CUDA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuMemGetAllocationPropertiesFromHandle(
	CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle)
{
	struct vg_mem *m;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!prop)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	m = vg_mem_find(handle);
	if (m)
		*prop = m->prop;
	else
		r = CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/*
 * A dma-buf of the handle's object, a new close-on-exec descriptor each
 * call, for a handle made asking for that type (an H100 refuses others).
 */
CUresult cuMemExportToShareableHandle(void *shareableHandle,
				      CUmemGenericAllocationHandle handle,
				      CUmemAllocationHandleType handleType,
				      unsigned long long flags)
{
	struct vgpu_mem_export e = { 0 };
	struct vg_mem *m;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!shareableHandle || flags)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	m = vg_mem_find(handle);
	if (!m || !m->ctx ||
	    handleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR ||
	    !(m->prop.requestedHandleTypes &
	      CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)) {
		r = CUDA_ERROR_INVALID_VALUE;
	} else {
		e.handle = m->kh;
		if (ioctl(m->ctx->fd, VGPU_IOCTL_MEM_EXPORT, &e))
			r = vg_errno_result(errno);
		else
			*(int *)shareableHandle = e.fd;
	}
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/*
 * With vg_lock held: MEM_IMPORT in *@pctx, or, for another device's
 * memory, in an open context of the device that has it (*@pctx becomes
 * that one).
 */
static CUresult vg_mem_import(struct CUctx_st **pctx,
			      struct vgpu_mem_import *im)
{
	struct CUctx_st *c;

	if (!ioctl((*pctx)->fd, VGPU_IOCTL_MEM_IMPORT, im)) {
		__atomic_store_n(&(*pctx)->interp_only, true, __ATOMIC_RELAXED);
		return CUDA_SUCCESS;
	}
	switch (errno) {
	case EXDEV:
		break;
	case ENOMEM:
		return CUDA_ERROR_OUT_OF_MEMORY;
	default:
		/* No file, or not vgpu memory: an H100 says this. */
		return CUDA_ERROR_UNKNOWN;
	}
	for (c = vg_ctx_next(NULL); c; c = vg_ctx_next(c)) {
		if (c->fd >= 0 && c->dev != (*pctx)->dev &&
		    !ioctl(c->fd, VGPU_IOCTL_MEM_IMPORT, im)) {
			__atomic_store_n(&c->interp_only, true, __ATOMIC_RELAXED);
			*pctx = c;
			return CUDA_SUCCESS;
		}
	}
	/* That device has no open context here to name the memory in. */
	return CUDA_ERROR_NOT_SUPPORTED;
}

/* A new handle of the memory a descriptor from an export holds. */
CUresult cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle,
					void *osHandle,
					CUmemAllocationHandleType shHandleType)
{
	struct vgpu_mem_import im = { .fd = (int)(uintptr_t)osHandle };
	struct CUctx_st *ctx;
	struct vg_mem *m;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!handle)
		return CUDA_ERROR_INVALID_VALUE;
	/* An H100 dies of a descriptor passed as a fabric handle. */
	if (shHandleType == CU_MEM_HANDLE_TYPE_FABRIC)
		return CUDA_ERROR_NOT_SUPPORTED;
	if (shHandleType != CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)
		return CUDA_ERROR_INVALID_VALUE;
	m = calloc(1, sizeof(*m));
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	if (r == CUDA_SUCCESS)
		r = vg_mem_import(&ctx, &im);
	if (r == CUDA_SUCCESS) {
		m->ctx = ctx;
		m->kh = im.handle;
		m->size = im.size;
		m->prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
		m->prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
		m->prop.location.id = ctx->dev;
		m->prop.requestedHandleTypes =
			CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
		vg_mem_add(m, handle);
	}
	pthread_mutex_unlock(&vg_lock);
	if (r)
		free(m);
	return r;
}
