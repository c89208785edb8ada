// SPDX-License-Identifier: MIT
/*
 * Virtual memory management, the addresses: cuMemAddressReserve,
 * cuMemAddressFree, cuMemMap, cuMemUnmap, cuMemSetAccess, cuMemGetAccess,
 * and what the other calls learn of such addresses (vg_vmm_lookup(),
 * vg_vmm_range()). vmm.c has the handles.
 *
 * A reservation is a range of its context's window (VA_RESERVE on that
 * context's file), so device pointers stay unified. libvgpu keeps each
 * with its mappings and their rights: to answer the queries, and to refuse
 * what an H100 refuses (tests/e2e/ref/h100_vmm.log) before the module is
 * called. The module enforces the rights on the engines: a kernel that
 * reaches past them faults, and so does an asynchronous copy; synchronous
 * copies and fills are refused at the call (copy.c asks vg_vmm_range()).
 *
 * Locking: vg_lock protects the reservations and their mappings. A
 * context's reservations go when it closes (vg_vmm_ctx_close()).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#include "vg.h"

#define VG_GRANULE VGPU_VA_ALIGN

struct vg_vmap {
	struct vg_vmap *next;
	uint64_t va, size;
	struct vg_mem *mem;	/* holds it: vg_mem.maps */
	unsigned int prot;	/* VGPU_PROT_*, of the reservation's device */
	unsigned char dev_prot[VG_MAX_DEVICES];	/* other devices', by ordinal */
};

struct vg_vres {
	struct vg_vres *next;
	struct CUctx_st *ctx;
	uint64_t va, size;
	struct vg_vmap *maps;
};

static struct vg_vres *vg_vress;

/* The reservation that holds all of [@va, @va + @size), or NULL. */
static struct vg_vres *vg_vres_holding(uint64_t va, uint64_t size)
{
	struct vg_vres *r;

	for (r = vg_vress; r; r = r->next)
		if (va - r->va < r->size && size <= r->size - (va - r->va))
			return r;
	return NULL;
}

static struct vg_vmap *vg_vmap_at(const struct vg_vres *r, uint64_t va)
{
	struct vg_vmap *m;

	for (m = r->maps; m; m = m->next)
		if (va - m->va < m->size)
			return m;
	return NULL;
}

/* Does a mapping of @r overlap [@va, @va + @size)? */
static bool vg_vmaps_any(const struct vg_vres *r, uint64_t va, uint64_t size)
{
	const struct vg_vmap *m;

	for (m = r->maps; m; m = m->next)
		if (m->va < va + size && va < m->va + m->size)
			return true;
	return false;
}

/* Does every mapping of @r that overlaps [@va, @va + @size) lie inside it? */
static bool vg_vmaps_inside(const struct vg_vres *r, uint64_t va,
			    uint64_t size)
{
	const struct vg_vmap *m;

	for (m = r->maps; m; m = m->next)
		if (m->va < va + size && va < m->va + m->size &&
		    (m->va < va || m->va + m->size > va + size))
			return false;
	return true;
}

/* The rights of device @dev (an ordinal) over mapping @m of @r. */
static unsigned int vg_vmap_prot(const struct vg_vres *r,
				 const struct vg_vmap *m, int dev)
{
	return dev == r->ctx->dev ? m->prot : m->dev_prot[dev];
}

/*
 * Do mappings of @r that give device @dev at least the rights @prot
 * cover [@va, @va + @n) without a gap?
 */
static bool vg_vmaps_cover(const struct vg_vres *r, uint64_t va, uint64_t n,
			   unsigned int prot, int dev)
{
	const struct vg_vmap *m;
	uint64_t at = va;

	while (at - va < n) {
		m = vg_vmap_at(r, at);
		if (!m || (vg_vmap_prot(r, m, dev) & prot) != prot)
			return false;
		at = m->va + m->size;
	}
	return true;
}

static unsigned int vg_prot_access(unsigned int prot)
{
	if (prot & VGPU_PROT_WRITE)
		return CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE;
	return prot & VGPU_PROT_READ ? CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ :
		CU_POINTER_ATTRIBUTE_ACCESS_FLAG_NONE;
}

/* Device @dev's rights over the mapping at @va (one there); vg_lock held. */
static unsigned int vg_vmm_prot_of(uint64_t va, int dev)
{
	struct vg_vres *r = vg_vres_holding(va, 0);

	return vg_vmap_prot(r, vg_vmap_at(r, va), dev);
}

/*
 * With vg_lock held: is @va in a reservation, and what is there? Fills
 * @info when it is.
 */
bool vg_vmm_lookup(uint64_t va, struct vg_vmm_info *info)
{
	struct vg_vres *r = vg_vress ? vg_vres_holding(va, 0) : NULL;
	struct vg_vmap *m;

	if (!r)
		return false;
	m = vg_vmap_at(r, va);
	*info = (struct vg_vmm_info){
		.ctx = r->ctx,
		.res_va = r->va,
		.res_size = r->size,
		.mapped = m != NULL,
	};
	if (m) {
		info->map_va = m->va;
		info->map_size = m->size;
		info->access = vg_prot_access(m->prot);
		info->handle_types = m->mem->prop.requestedHandleTypes;
		info->mem = m->mem;
	}
	return true;
}

/*
 * With vg_lock held: may @ctx's engines read (or, with @write, write)
 * [@va, @va + @n)? 1: mapped with the rights; 0: reserved, but not so
 * (as on an H100, the call is refused); -1: no reservation holds @va.
 * A reservation of another context is reached with the rights its
 * mappings give @ctx's device (cuMemSetAccess), through a link (peer.c).
 */
int vg_vmm_range(struct CUctx_st *ctx, uint64_t va, size_t n, bool write)
{
	struct vg_vres *r = vg_vress ? vg_vres_holding(va, 0) : NULL;
	unsigned int prot = VGPU_PROT_READ | (write ? VGPU_PROT_WRITE : 0);

	if (!r)
		return -1;
	if (n > r->size - (va - r->va) ||
	    !vg_vmaps_cover(r, va, n, prot, ctx->dev))
		return 0;
	return r->ctx == ctx || vg_peer_reach(ctx, r->ctx) == CUDA_SUCCESS;
}

/* @ctx closed, its reservations and mappings with it; with vg_lock held. */
void vg_vmm_ctx_close(struct CUctx_st *ctx)
{
	struct vg_vres **pp = &vg_vress, *r;
	struct vg_vmap *m;

	while ((r = *pp)) {
		if (r->ctx != ctx) {
			pp = &r->next;
			continue;
		}
		*pp = r->next;
		while ((m = r->maps)) {
			r->maps = m->next;
			vg_mem_unmapped(m->mem);
			free(m);
		}
		free(r);
	}
	vg_mem_ctx_close(ctx);
}

/*
 * A range of the current context's window. As on an H100 a hint is
 * where the range goes if that is free, and elsewhere if not; an
 * alignment below the granule is the granule.
 */
CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment,
			     CUdeviceptr addr, unsigned long long flags)
{
	struct vgpu_va_reserve v = { .va = addr, .size = size };
	struct CUctx_st *ctx;
	struct vg_vres *r;
	CUresult res = vg_check_init();

	if (res)
		return res;
	if (!ptr || !size || size % VG_GRANULE || addr % VG_GRANULE || flags ||
	    (alignment & (alignment - 1)))
		return CUDA_ERROR_INVALID_VALUE;
	if (alignment > VG_GRANULE)
		v.align = alignment;
	r = calloc(1, sizeof(*r));
	if (!r)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&vg_lock);
	res = vg_current_open(&ctx);
	if (res == CUDA_SUCCESS && v.align > VGPU_VA_WINDOW_MAX)
		res = CUDA_ERROR_OUT_OF_MEMORY;
	if (res == CUDA_SUCCESS && ioctl(ctx->fd, VGPU_IOCTL_VA_RESERVE, &v))
		res = errno == ENOSPC ? CUDA_ERROR_OUT_OF_MEMORY :
			errno == EINVAL ? CUDA_ERROR_INVALID_VALUE :
			vg_errno_result(errno);
	if (res == CUDA_SUCCESS) {
		r->ctx = ctx;
		r->va = v.va;
		r->size = size;
		r->next = vg_vress;
		vg_vress = r;
		*ptr = v.va;
	}
	pthread_mutex_unlock(&vg_lock);
	if (res)
		free(r);
	return res;
}

/* A whole reservation with nothing mapped in it, as an H100 wants. */
CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size)
{
	struct vgpu_va_free f = { .va = ptr, .size = size };
	struct vg_vres **pp, *r;
	CUresult res = vg_check_init();

	if (res)
		return res;
	pthread_mutex_lock(&vg_lock);
	for (pp = &vg_vress; (r = *pp); pp = &r->next)
		if (r->va == ptr && r->size == size)
			break;
	if (!r || r->maps || ioctl(r->ctx->fd, VGPU_IOCTL_VA_FREE, &f)) {
		res = CUDA_ERROR_INVALID_VALUE;
	} else {
		/* A SYNC_MEMOPS mark names the reservation by its start. */
		vg_sync_forget(r->ctx, r->va);
		*pp = r->next;
		free(r);
	}
	pthread_mutex_unlock(&vg_lock);
	return res;
}

/*
 * A handle mapped whole at @ptr, inside one reservation, over nothing
 * mapped, with no access yet. An H100 maps no part of a handle (another
 * offset or size: CUDA_ERROR_NOT_SUPPORTED). A handle of another context
 * of the device is brought into the reservation's (vg_mem_handle_in()).
 */
CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
		  CUmemGenericAllocationHandle handle, unsigned long long flags)
{
	struct vgpu_mem_map mm = { .va = ptr, .size = size };
	struct vg_vmap *m;
	struct vg_vres *r;
	struct vg_mem *mem;
	CUresult res = vg_check_init();

	if (res)
		return res;
	if (flags)
		return CUDA_ERROR_INVALID_VALUE;
	m = calloc(1, sizeof(*m));
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&vg_lock);
	mem = vg_mem_find(handle);
	r = vg_vres_holding(ptr, size);
	if (!mem)
		res = CUDA_ERROR_INVALID_VALUE;
	else if (offset || size != mem->size)
		res = CUDA_ERROR_NOT_SUPPORTED;
	else if (ptr % VG_GRANULE || !r || vg_vmaps_any(r, ptr, size))
		res = CUDA_ERROR_INVALID_VALUE;
	else
		res = vg_mem_handle_in(mem, r->ctx, &mm.handle);
	if (res == CUDA_SUCCESS && ioctl(r->ctx->fd, VGPU_IOCTL_MEM_MAP, &mm))
		res = errno == ENOMEM ? CUDA_ERROR_OUT_OF_MEMORY :
			CUDA_ERROR_INVALID_VALUE;
	if (res == CUDA_SUCCESS) {
		m->va = ptr;
		m->size = size;
		m->mem = mem;
		mem->maps++;
		m->next = r->maps;
		r->maps = m;
	}
	pthread_mutex_unlock(&vg_lock);
	if (res)
		free(m);
	return res;
}

/* The mappings in [@va, @va + @size) go; with vg_lock held. */
static CUresult vg_unmap(uint64_t va, uint64_t size)
{
	struct vgpu_mem_unmap u = { .va = va, .size = size };
	struct vg_vres *r = vg_vres_holding(va, size);
	struct vg_vmap **pp, *m;

	if (!r || !vg_vmaps_inside(r, va, size))
		return CUDA_ERROR_INVALID_VALUE;
	if (!vg_vmaps_any(r, va, size))
		return CUDA_SUCCESS;
	if (ioctl(r->ctx->fd, VGPU_IOCTL_MEM_UNMAP, &u))
		return CUDA_ERROR_INVALID_VALUE;
	pp = &r->maps;
	while ((m = *pp)) {
		if (m->va - va < size) {
			*pp = m->next;
			vg_mem_unmapped(m->mem);
			free(m);
		} else {
			pp = &m->next;
		}
	}
	return CUDA_SUCCESS;
}

/*
 * Every mapping in a range of one reservation, each wholly inside it; a
 * range with none is no error, as on an H100. Work queued before the
 * call finishes first, as for cuMemFree.
 */
CUresult cuMemUnmap(CUdeviceptr ptr, size_t size)
{
	struct CUctx_st *ctx;
	struct vg_vres *r;
	CUresult res = vg_check_init();

	if (res)
		return res;
	if (!size || ptr % VG_GRANULE || size % VG_GRANULE)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	r = vg_vres_holding(ptr, size);
	if (r && vg_vmaps_inside(r, ptr, size) && vg_vmaps_any(r, ptr, size)) {
		ctx = r->ctx;
		vg_ctx_begin(ctx);
		vg_ctx_idle(ctx);
		vg_ctx_end(ctx);
		pthread_mutex_lock(&vg_lock);
	}
	res = vg_unmap(ptr, size);
	pthread_mutex_unlock(&vg_lock);
	return res;
}

/*
 * The rights one CUmemAccessDesc asks for, or the error an H100 gives (a
 * host location: vgpu has none to give).
 */
static CUresult vg_access_prot(const CUmemAccessDesc *d, unsigned int *prot)
{
	if (d->location.type == CU_MEM_LOCATION_TYPE_HOST ||
	    d->location.type == CU_MEM_LOCATION_TYPE_HOST_NUMA ||
	    d->location.type == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT)
		return CUDA_ERROR_NOT_SUPPORTED;
	if (d->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    d->location.id < 0 || d->location.id >= vg_device_count)
		return CUDA_ERROR_INVALID_VALUE;
	switch (d->flags) {
	case CU_MEM_ACCESS_FLAGS_PROT_NONE:
		*prot = 0;
		break;
	case CU_MEM_ACCESS_FLAGS_PROT_READ:
		*prot = VGPU_PROT_READ;
		break;
	case CU_MEM_ACCESS_FLAGS_PROT_READWRITE:
		*prot = VGPU_PROT_READ | VGPU_PROT_WRITE;
		break;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

/*
 * Device @dev's rights @prot over [@va, @va + @size) of @r, which
 * mappings cover whole: the module's (its engines enforce them), and
 * ours. Another device's contexts reach the mappings through links to
 * @r's context (peer.c); a context of @dev opened later links on its
 * first copy there, and its kernels reach them once it has.
 */
static CUresult vg_access_set(struct vg_vres *r, uint64_t va, uint64_t size,
			      int dev, unsigned int prot)
{
	struct vgpu_mem_access a = { .va = va, .size = size, .prot = prot };
	struct CUctx_st *c;
	struct vg_vmap *m;

	if (dev != r->ctx->dev) {
		a.flags = VGPU_ACCESS_DEVICE;
		a.device = (uint32_t)vg_devices[dev].minor;
	}
	if (ioctl(r->ctx->fd, VGPU_IOCTL_MEM_ACCESS, &a))
		return CUDA_ERROR_INVALID_VALUE;
	for (m = r->maps; m; m = m->next) {
		if (m->va - va >= size)
			continue;
		if (dev == r->ctx->dev)
			m->prot = prot;
		else
			m->dev_prot[dev] = (unsigned char)prot;
	}
	for (c = vg_ctx_next(NULL); c && dev != r->ctx->dev && prot;
	     c = vg_ctx_next(c))
		if (c->fd >= 0 && c->dev == dev)
			vg_peer_reach(c, r->ctx);
	return CUDA_SUCCESS;
}

/*
 * Rights of devices over a range of one reservation that mappings cover
 * whole: its own device's, and other devices', whose engines reach the
 * mappings through links to the reservation's context.
 */
CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size,
			const CUmemAccessDesc *desc, size_t count)
{
	unsigned int prot[VG_MAX_DEVICES];
	bool set[VG_MAX_DEVICES] = { false };
	struct vg_vres *r;
	size_t i;
	int dev;
	CUresult res = vg_check_init();

	if (res)
		return res;
	if (!desc || !count || !size || ptr % VG_GRANULE || size % VG_GRANULE)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	r = vg_vres_holding(ptr, size);
	if (!r)
		res = CUDA_ERROR_INVALID_VALUE;
	/* Of several descriptors of one device, the last one counts. */
	for (i = 0; res == CUDA_SUCCESS && i < count; i++) {
		unsigned int p;

		res = vg_access_prot(&desc[i], &p);
		if (res == CUDA_SUCCESS) {
			dev = desc[i].location.id;
			prot[dev] = p;
			set[dev] = true;
		}
	}
	if (res == CUDA_SUCCESS && (!vg_vmaps_inside(r, ptr, size) ||
				    !vg_vmaps_cover(r, ptr, size, 0,
						    r->ctx->dev)))
		res = CUDA_ERROR_INVALID_VALUE;
	for (dev = 0; res == CUDA_SUCCESS && dev < vg_device_count; dev++)
		if (set[dev])
			res = vg_access_set(r, ptr, size, dev, prot[dev]);
	pthread_mutex_unlock(&vg_lock);
	return res;
}

/*
 * @ctx has just opened (vg_lock held): it reaches the mappings that give
 * its device rights, through links to their reservations' contexts.
 */
void vg_vmm_ctx_opened(struct CUctx_st *ctx)
{
	struct vg_vres *r;
	struct vg_vmap *m;

	for (r = vg_vress; r; r = r->next)
		for (m = r->ctx != ctx ? r->maps : NULL; m; m = m->next)
			if (m->dev_prot[ctx->dev]) {
				vg_peer_reach(ctx, r->ctx);
				break;
			}
}

/* The rights of a device over the mapping that holds @ptr. */
CUresult cuMemGetAccess(unsigned long long *flags,
			const CUmemLocation *location, CUdeviceptr ptr)
{
	struct vg_vmm_info vi;
	CUresult res = vg_check_init();

	if (res)
		return res;
	if (!flags || !location ||
	    location->type != CU_MEM_LOCATION_TYPE_DEVICE)
		return CUDA_ERROR_INVALID_VALUE;
	if (location->id < 0 || location->id >= vg_device_count)
		return CUDA_ERROR_INVALID_DEVICE;
	pthread_mutex_lock(&vg_lock);
	if (!vg_vmm_lookup(ptr, &vi) || !vi.mapped)
		res = CUDA_ERROR_INVALID_VALUE;
	else
		*flags = vg_prot_access(vg_vmm_prot_of(ptr, location->id));
	pthread_mutex_unlock(&vg_lock);
	return res;
}
