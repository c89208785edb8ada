// SPDX-License-Identifier: MIT
/*
 * External memory: cuImportExternalMemory of a dma-buf's file descriptor
 * (another driver's, such as a DRM buffer exported with PRIME, or one of
 * vgpu's own from cuMemExportToShareableHandle), and buffers mapped from
 * it into device addresses with cuExternalMemoryGetMappedBuffer, freed by
 * cuMemFree, and cuDestroyExternalMemory.
 *
 * The module makes the dma-buf a memory object of the context (MEM_IMPORT
 * with VGPU_IMPORT_FOREIGN); a mapped buffer is a reservation of whole
 * granules with the granules of the object that hold the buffer mapped
 * into it, read-write. The mapping holds the object, so a buffer outlives
 * the external memory it came from, as on NVIDIA's driver. Both handle
 * types that name a file descriptor take a dma-buf here: vgpu's opaque
 * descriptors are dma-bufs.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "vg.h"

/* Where a buffer's offset must fall, as on an H100. */
#define VG_EXT_OFFSET_ALIGN 65536

struct CUextMemory_st {
	struct CUextMemory_st *next;	/* vg_ext_list */
	struct CUctx_st *ctx;	/* NULL once it closed */
	uint32_t handle;	/* the module's, in @ctx */
	uint64_t size;		/* as the import said */
	uint64_t real;		/* as the dma-buf is */
};

/* A buffer of cuExternalMemoryGetMappedBuffer, until cuMemFree. */
struct vg_ext_buf {
	struct vg_ext_buf *next;	/* vg_ext_bufs */
	struct CUctx_st *ctx;
	CUdeviceptr ptr;	/* what the caller got */
	uint64_t size;
	uint64_t va;		/* the reservation */
	uint64_t span;
};

/* Both lists, under vg_ext_lock, taken inside vg_lock where both are. */
static pthread_mutex_t vg_ext_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUextMemory_st *vg_ext_list;
static struct vg_ext_buf *vg_ext_bufs;

/* Takes @em out of the list; false if it names no live import. */
static bool vg_ext_unlink(struct CUextMemory_st *em)
{
	struct CUextMemory_st **pp;

	for (pp = &vg_ext_list; *pp; pp = &(*pp)->next) {
		if (*pp == em) {
			*pp = em->next;
			return true;
		}
	}
	return false;
}

static bool vg_ext_live(struct CUextMemory_st *em)
{
	struct CUextMemory_st *e;

	for (e = vg_ext_list; e; e = e->next)
		if (e == em)
			return true;
	return false;
}

CUresult cuImportExternalMemory(CUexternalMemory *out,
				const CUDA_EXTERNAL_MEMORY_HANDLE_DESC *desc)
{
	struct vgpu_mem_import im = { .flags = VGPU_IMPORT_FOREIGN };
	struct CUextMemory_st *em;
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!out || !desc || !desc->size ||
	    (desc->flags & ~(unsigned int)CUDA_EXTERNAL_MEMORY_DEDICATED))
		return CUDA_ERROR_INVALID_VALUE;
	switch (desc->type) {
	case CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD:
	case CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD:
		break;
	case CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32:
	case CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT:
	case CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_HEAP:
	case CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE:
	case CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE:
	case CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D11_RESOURCE_KMT:
	case CU_EXTERNAL_MEMORY_HANDLE_TYPE_NVSCIBUF:
		return CUDA_ERROR_NOT_SUPPORTED;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	em = calloc(1, sizeof(*em));
	if (!em)
		return CUDA_ERROR_OUT_OF_MEMORY;

	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	im.fd = desc->handle.fd;
	if (!r && ioctl(ctx->fd, VGPU_IOCTL_MEM_IMPORT, &im)) {
		/* No dma-buf, or none the kernel can map: NVIDIA's answer. */
		r = errno == ENOMEM ? CUDA_ERROR_OUT_OF_MEMORY :
			errno == EXDEV ? CUDA_ERROR_INVALID_DEVICE :
			CUDA_ERROR_UNKNOWN;
	}
	if (!r) {
		__atomic_store_n(&ctx->interp_only, true, __ATOMIC_RELAXED);
		em->ctx = ctx;
		em->handle = im.handle;
		em->size = desc->size;
		em->real = im.size;
		pthread_mutex_lock(&vg_ext_lock);
		em->next = vg_ext_list;
		vg_ext_list = em;
		pthread_mutex_unlock(&vg_ext_lock);
	}
	pthread_mutex_unlock(&vg_lock);
	if (r) {
		free(em);
		return r;
	}
	/* A successful import owns the descriptor, as NVIDIA's does. */
	close(desc->handle.fd);
	*out = em;
	return CUDA_SUCCESS;
}

/*
 * Maps [@off, @off + @size) of memory object @handle of @ctx (@real bytes)
 * into a new reservation: *@va and *@span; @off lies at @off %
 * VGPU_VA_ALIGN in it.
 */
CUresult vg_ext_map_obj(struct CUctx_st *ctx, uint32_t handle, uint64_t real,
			uint64_t off, uint64_t size, uint64_t *va, uint64_t *span)
{
	uint64_t first = off / VGPU_VA_ALIGN * VGPU_VA_ALIGN, end;
	struct vgpu_va_reserve rv = { 0 };
	struct vgpu_mem_map m = { .handle = handle };
	struct vgpu_mem_access a = {
		.prot = VGPU_PROT_READ | VGPU_PROT_WRITE,
	};
	struct vgpu_va_free f = { 0 };
	int fd = ctx->fd;

	end = (off + size + VGPU_VA_ALIGN - 1) / VGPU_VA_ALIGN * VGPU_VA_ALIGN;
	if (end > real)
		end = real;
	rv.size = (end - first + VGPU_VA_ALIGN - 1) / VGPU_VA_ALIGN *
		VGPU_VA_ALIGN;
	if (ioctl(fd, VGPU_IOCTL_VA_RESERVE, &rv))
		return errno == ENOSPC || errno == ENOMEM ?
			CUDA_ERROR_OUT_OF_MEMORY : vg_errno_result(errno);
	m.va = rv.va;
	m.size = end - first;
	m.offset = first;
	a.va = rv.va;
	a.size = rv.size;
	if (ioctl(fd, VGPU_IOCTL_MEM_MAP, &m)) {
		f.va = rv.va;
		f.size = rv.size;
		ioctl(fd, VGPU_IOCTL_VA_FREE, &f);
		return vg_errno_result(errno);
	}
	/* Rights go by whole granules; the last one is the mapping's too. */
	if (ioctl(fd, VGPU_IOCTL_MEM_ACCESS, &a)) {
		vg_ext_unmap(ctx, rv.va, rv.size);
		return CUDA_ERROR_UNKNOWN;
	}
	*va = rv.va;
	*span = rv.size;
	return CUDA_SUCCESS;
}

/* Undoes vg_ext_map_obj(). */
void vg_ext_unmap(struct CUctx_st *ctx, uint64_t va, uint64_t span)
{
	struct vgpu_mem_unmap u = { .va = va, .size = span };
	struct vgpu_va_free f = { .va = va, .size = span };

	ioctl(ctx->fd, VGPU_IOCTL_MEM_UNMAP, &u);
	ioctl(ctx->fd, VGPU_IOCTL_VA_FREE, &f);
}

/* Maps [@off, @off + @size) of @em into a new reservation of its context. */
static CUresult vg_ext_map(struct CUextMemory_st *em, uint64_t off,
			   uint64_t size, struct vg_ext_buf *b)
{
	CUresult r = vg_ext_map_obj(em->ctx, em->handle, em->real, off, size,
				    &b->va, &b->span);

	if (r)
		return r;
	b->ctx = em->ctx;
	b->ptr = b->va + off % VGPU_VA_ALIGN;
	b->size = size;
	return CUDA_SUCCESS;
}

CUresult cuExternalMemoryGetMappedBuffer(CUdeviceptr *dptr,
					 CUexternalMemory extmem,
					 const CUDA_EXTERNAL_MEMORY_BUFFER_DESC *desc)
{
	struct CUextMemory_st *em = extmem;
	struct vg_ext_buf *b;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!dptr || !desc || desc->flags || !desc->size ||
	    desc->offset % VG_EXT_OFFSET_ALIGN)
		return CUDA_ERROR_INVALID_VALUE;
	b = calloc(1, sizeof(*b));
	if (!b)
		return CUDA_ERROR_OUT_OF_MEMORY;

	pthread_mutex_lock(&vg_lock);
	pthread_mutex_lock(&vg_ext_lock);
	if (!em || !vg_ext_live(em))
		r = CUDA_ERROR_INVALID_HANDLE;
	else if (!em->ctx)
		r = CUDA_ERROR_CONTEXT_IS_DESTROYED;
	/* Within what the import said, and what the buffer really has. */
	else if (desc->offset > em->size ||
		 desc->size > em->size - desc->offset ||
		 desc->offset > em->real ||
		 desc->size > em->real - desc->offset)
		r = CUDA_ERROR_INVALID_VALUE;
	else
		r = vg_ext_map(em, desc->offset, desc->size, b);
	if (!r) {
		b->next = vg_ext_bufs;
		vg_ext_bufs = b;
		*dptr = b->ptr;
	}
	pthread_mutex_unlock(&vg_ext_lock);
	pthread_mutex_unlock(&vg_lock);
	if (r)
		free(b);
	return r;
}

CUresult cuDestroyExternalMemory(CUexternalMemory extmem)
{
	struct CUextMemory_st *em = extmem;
	struct vgpu_mem_release rel = { 0 };
	bool live;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!em)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	pthread_mutex_lock(&vg_ext_lock);
	live = vg_ext_unlink(em);
	pthread_mutex_unlock(&vg_ext_lock);
	/* Its buffers stay mapped: each mapping holds the memory. */
	if (live && em->ctx) {
		rel.handle = em->handle;
		ioctl(em->ctx->fd, VGPU_IOCTL_MEM_RELEASE, &rel);
	}
	pthread_mutex_unlock(&vg_lock);
	if (!live)
		return CUDA_ERROR_INVALID_HANDLE;
	free(em);
	return CUDA_SUCCESS;
}

/*
 * Is @ptr inside a mapped buffer? Its start and size, for
 * cuMemGetAddressRange and the pointer attributes.
 */
bool vg_ext_lookup(CUdeviceptr ptr, uint64_t *start, uint64_t *size)
{
	struct vg_ext_buf *b;
	bool found = false;

	pthread_mutex_lock(&vg_ext_lock);
	for (b = vg_ext_bufs; b; b = b->next) {
		if (ptr >= b->ptr && ptr - b->ptr < b->size) {
			*start = b->ptr;
			*size = b->size;
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&vg_ext_lock);
	return found;
}

/*
 * cuMemFree of @ptr, with vg_lock held and its context idle: 1 when it
 * was a mapped buffer, now unmapped; 0 when it is none.
 */
int vg_ext_free_now(CUdeviceptr ptr)
{
	struct vg_ext_buf **pp, *b = NULL;

	pthread_mutex_lock(&vg_ext_lock);
	for (pp = &vg_ext_bufs; *pp; pp = &(*pp)->next) {
		if ((*pp)->ptr == ptr) {
			b = *pp;
			*pp = b->next;
			break;
		}
	}
	pthread_mutex_unlock(&vg_ext_lock);
	if (!b)
		return 0;
	if (b->ctx->fd >= 0)	/* vg_ext_ctx_close() keeps none closed */
		vg_ext_unmap(b->ctx, b->va, b->span);
	free(b);
	return 1;
}

/*
 * A context closes (vg_lock held): its imports and buffers go with its
 * file. The imports' handles stay allocated, answering
 * CUDA_ERROR_CONTEXT_IS_DESTROYED, until destroyed.
 */
void vg_ext_ctx_close(struct CUctx_st *ctx)
{
	struct CUextMemory_st *em;
	struct vg_ext_buf **pp, *b;

	pthread_mutex_lock(&vg_ext_lock);
	for (em = vg_ext_list; em; em = em->next)
		if (em->ctx == ctx)
			em->ctx = NULL;
	for (pp = &vg_ext_bufs; *pp;) {
		b = *pp;
		if (b->ctx == ctx) {
			*pp = b->next;
			free(b);
		} else {
			pp = &b->next;
		}
	}
	pthread_mutex_unlock(&vg_ext_lock);
}
