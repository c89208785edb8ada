// SPDX-License-Identifier: MIT
/*
 * Managed memory: cuMemAllocManaged, cuMemAdvise, cuMemPrefetchAsync,
 * cuMemRangeGetAttribute(s) and cuStreamAttachMemAsync.
 *
 * The memory is page-locked memory of the module (host.c): one set of
 * pages, mapped into the process and into the context's device address
 * space at the same address. Nothing ever migrates, so residency is a
 * model: each page keeps what advice and prefetches said of it (struct
 * vg_mpage), and the range queries read it back as an H100 does
 * (tests/e2e/ref/h100_managed.log): a range whose pages disagree reads as
 * no location, and as read-mostly only if every page is.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "capture.h"
#include "vg.h"

/* The macros of cuda.h would rename the first ABI's definitions. */
#undef cuMemAdvise
#undef cuMemPrefetchAsync
#undef cuStreamAttachMemAsync

#define VG_NO_ID (-2)	/* the queries' "no device" (CU_DEVICE_INVALID) */
#define VG_HOST_ID (-1)	/* and the host's (CU_DEVICE_CPU) */

void vg_mpages_init(struct vg_mpage *pages, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		pages[i].pref_id = VG_NO_ID;
		pages[i].last_id = VG_NO_ID;
	}
}

CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize,
			   unsigned int flags)
{
	void *p;
	CUresult r = vg_check_init();

	/* An allocation waits for the device: unsafe in capture, as cuMemAlloc. */
	if (!r)
		r = vg_cap_unsafe();
	if (r)
		return r;
	/* Exactly one of the two attachments, as on an H100. */
	if (!dptr || !bytesize ||
	    (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST))
		return CUDA_ERROR_INVALID_VALUE;
	/*
	 * Both attachments give the same memory: the device reaches it from
	 * every stream whatever the attachment (CONCURRENT_MANAGED_ACCESS).
	 */
	r = vg_host_alloc(&p, bytesize, 0, true);
	if (r == CUDA_SUCCESS)
		*dptr = (CUdeviceptr)(uintptr_t)p;
	return r;
}

/* Is @node a NUMA node of this machine? */
static bool vg_numa_node(int node)
{
	char path[64];

	if (node < 0)
		return false;
	/* A kernel without NUMA has node 0 alone. */
	if (access("/sys/devices/system/node", F_OK))
		return node == 0;
	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", node);
	return !access(path, F_OK);
}

static int vg_numa_current(void)
{
	unsigned int cpu, node;

	return getcpu(&cpu, &node) ? 0 : (int)node;
}

/*
 * The pages of [@p, @p + @len), which must lie in one managed allocation
 * (an unaligned range takes the pages it touches), as [*@first, *@last).
 * With vg_lock held.
 */
static struct vg_mpage *vg_mrange(CUdeviceptr p, size_t len, size_t *first,
				  size_t *last)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), base;
	struct vg_mpage *pages;

	if (!p || !len)
		return NULL;
	pages = vg_managed_pages((uintptr_t)p, len, &base);
	if (!pages)
		return NULL;
	*first = ((uintptr_t)p - base) / page;
	*last = ((uintptr_t)p + len - 1 - base) / page + 1;
	return pages;
}

/* Is [@p, @p + @len) inside one managed allocation, and not empty? */
bool vg_managed_range(CUdeviceptr p, size_t len)
{
	size_t first, last;
	bool ok;

	pthread_mutex_lock(&vg_lock);
	ok = vg_mrange(p, len, &first, &last) != NULL;
	pthread_mutex_unlock(&vg_lock);
	return ok;
}

static bool vg_device_ok(int id)
{
	return id >= 0 && id < vg_device_count;
}

CUresult cuMemAdvise_v2(CUdeviceptr p, size_t count, CUmem_advise advice,
			CUmemLocation location)
{
	int type = location.type, id = location.id;
	struct vg_mpage *pages;
	size_t i, first, last;
	uint64_t bit = 0;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (advice < CU_MEM_ADVISE_SET_READ_MOSTLY ||
	    advice > CU_MEM_ADVISE_UNSET_ACCESSED_BY ||
	    type < CU_MEM_LOCATION_TYPE_DEVICE ||
	    type > CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT)
		return CUDA_ERROR_INVALID_VALUE;
	switch (advice) {
	case CU_MEM_ADVISE_SET_PREFERRED_LOCATION:
	case CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
		/* Kept as the H100 keeps it: any host location is the host. */
		if ((type == CU_MEM_LOCATION_TYPE_DEVICE && !vg_device_ok(id)) ||
		    (type == CU_MEM_LOCATION_TYPE_HOST_NUMA && !vg_numa_node(id)))
			return CUDA_ERROR_INVALID_VALUE;
		if (type != CU_MEM_LOCATION_TYPE_DEVICE) {
			type = CU_MEM_LOCATION_TYPE_HOST;
			id = VG_HOST_ID;
		}
		break;
	case CU_MEM_ADVISE_SET_ACCESSED_BY:
	case CU_MEM_ADVISE_UNSET_ACCESSED_BY:
		/* A device or the host, never one NUMA node of it. */
		if (type == CU_MEM_LOCATION_TYPE_DEVICE && vg_device_ok(id))
			bit = 1ull << id;
		else if (type == CU_MEM_LOCATION_TYPE_HOST)
			bit = VG_MPAGE_HOST;
		else
			return CUDA_ERROR_INVALID_VALUE;
		break;
	default:
		/* Read-mostly concerns every processor: the id is not read. */
		break;
	}
	pthread_mutex_lock(&vg_lock);
	pages = vg_mrange(p, count, &first, &last);
	for (i = first; pages && i < last; i++) {
		struct vg_mpage *m = &pages[i];

		switch (advice) {
		case CU_MEM_ADVISE_SET_READ_MOSTLY:
		case CU_MEM_ADVISE_UNSET_READ_MOSTLY:
			m->read_mostly = advice == CU_MEM_ADVISE_SET_READ_MOSTLY;
			break;
		case CU_MEM_ADVISE_SET_PREFERRED_LOCATION:
			m->pref_type = (uint8_t)type;
			m->pref_id = id;
			break;
		case CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION:
			m->pref_type = 0;
			m->pref_id = VG_NO_ID;
			break;
		case CU_MEM_ADVISE_SET_ACCESSED_BY:
			m->accessed_by |= bit;
			break;
		default:
			m->accessed_by &= ~bit;
			break;
		}
	}
	pthread_mutex_unlock(&vg_lock);
	return pages ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* The first ABI's form: a device, or CU_DEVICE_CPU for the host. */
CUresult cuMemAdvise(CUdeviceptr p, size_t count, CUmem_advise advice,
		     CUdevice device)
{
	CUmemLocation l = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = device };

	if (device == CU_DEVICE_CPU)
		l.type = CU_MEM_LOCATION_TYPE_HOST;
	return cuMemAdvise_v2(p, count, advice, l);
}

/* A prefetch for the module's model, run in stream order. */
struct vg_prefetch {
	int fd;
	struct vgpu_managed_prefetch arg;
};

static void CUDA_CB vg_prefetch_run(void *data)
{
	struct vg_prefetch *pf = data;

	/* The model only counts faults: nothing to report if it fails. */
	ioctl(pf->fd, VGPU_IOCTL_MANAGED_PREFETCH, &pf->arg);
	free(pf);
}

/*
 * Tells the module, once the work queued on @hs before is done, that the
 * pages now live on the device or the host: touching them there counts no
 * fault (vgpu-smi and sysfs show the counts).
 */
static CUresult vg_prefetch_queue(int fd, CUdeviceptr p, size_t count,
				  bool device, CUstream hs)
{
	struct vg_prefetch *pf = malloc(sizeof(*pf));
	CUresult r;

	if (!pf)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*pf = (struct vg_prefetch){
		.fd = fd,
		.arg = { .addr = p, .size = count,
			 .flags = device ? VGPU_PREFETCH_DEVICE : 0 },
	};
	r = cuLaunchHostFunc(hs, vg_prefetch_run, pf);
	if (r)
		free(pf);
	return r;
}

/*
 * Nothing moves: the pages are where both processors reach them. The call
 * is checked as an H100 checks it and records where the range went, and
 * the module's fault model hears of it in stream order.
 */
CUresult cuMemPrefetchAsync_v2(CUdeviceptr p, size_t count,
			       CUmemLocation location, unsigned int flags,
			       CUstream hstream)
{
	int type = location.type, id = location.id;
	struct CUstream_st *st;
	struct vg_mpage *pages;
	struct CUctx_st *ctx;
	size_t i, first, last;
	int fd;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (flags || !count || type < CU_MEM_LOCATION_TYPE_DEVICE ||
	    type > CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT)
		return CUDA_ERROR_INVALID_VALUE;
	switch (type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		if (!vg_device_ok(id))
			return CUDA_ERROR_INVALID_DEVICE;
		break;
	case CU_MEM_LOCATION_TYPE_HOST:
		id = VG_HOST_ID;
		break;
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		if (!vg_numa_node(id))
			return CUDA_ERROR_INVALID_VALUE;
		break;
	default:
		id = vg_numa_current();
		break;
	}
	r = vg_cap_refuse(hstream);
	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	pages = vg_mrange(p, count, &first, &last);
	r = pages ? vg_stream_resolve(hstream, &ctx, &st) :
		CUDA_ERROR_INVALID_VALUE;
	for (i = first; r == CUDA_SUCCESS && i < last; i++) {
		pages[i].last_type = (uint8_t)type;
		pages[i].last_id = id;
	}
	fd = r == CUDA_SUCCESS ? vg_managed_fd(p) : -1;
	pthread_mutex_unlock(&vg_lock);
	if (fd >= 0)
		r = vg_prefetch_queue(fd, p, count,
				      type == CU_MEM_LOCATION_TYPE_DEVICE,
				      hstream);
	return r;
}

/* The first ABI's form: a device, or CU_DEVICE_CPU for the host. */
CUresult cuMemPrefetchAsync(CUdeviceptr p, size_t count, CUdevice device,
			    CUstream hstream)
{
	CUmemLocation l = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = device };

	if (device == CU_DEVICE_CPU)
		l.type = CU_MEM_LOCATION_TYPE_HOST;
	return cuMemPrefetchAsync_v2(p, count, l, 0, hstream);
}

/* A location read back: the legacy form's id, or the type, or the id. */
static int vg_loc_value(CUmem_range_attribute attr, int type, int id)
{
	switch (attr) {
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION:
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION:
		if (!type)
			return VG_NO_ID;
		return type == CU_MEM_LOCATION_TYPE_DEVICE ? id : VG_HOST_ID;
	case CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE:
	case CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE:
		return type;
	default:
		return id;
	}
}

/* Is @size right for @attr? */
static bool vg_range_size_ok(CUmem_range_attribute attr, size_t size)
{
	if (attr == CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY)
		return size && !(size % 4);
	return size == 4;
}

/* One attribute of pages [@first, @last), which are checked. */
static void vg_range_attr(const struct vg_mpage *pages, size_t first,
			  size_t last, CUmem_range_attribute attr, void *data,
			  size_t size)
{
	bool pref = attr == CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION ||
		attr == CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE ||
		attr == CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID;
	const struct vg_mpage *m0 = &pages[first];
	int type, id, *out = data;
	uint64_t acc = ~0ull;
	bool rm = true, same = true;
	size_t i, n = 0;

	type = pref ? m0->pref_type : m0->last_type;
	id = pref ? m0->pref_id : m0->last_id;
	for (i = first; i < last; i++) {
		const struct vg_mpage *m = &pages[i];

		rm = rm && m->read_mostly;
		acc &= m->accessed_by;
		if (pref)
			same = same && m->pref_type == type && m->pref_id == id;
		else
			same = same && m->last_type == type && m->last_id == id;
	}
	if (!same) {
		type = 0;
		id = VG_NO_ID;
	}
	switch (attr) {
	case CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY:
		*out = rm;
		break;
	case CU_MEM_RANGE_ATTRIBUTE_ACCESSED_BY:
		/* Every page's, devices by ordinal, then the host. */
		for (i = 0; i < 63 && n < size / 4; i++)
			if (acc & (1ull << i))
				out[n++] = (int)i;
		if ((acc & VG_MPAGE_HOST) && n < size / 4)
			out[n++] = VG_HOST_ID;
		while (n < size / 4)
			out[n++] = VG_NO_ID;
		break;
	default:
		*out = vg_loc_value(attr, type, id);
		break;
	}
}

CUresult cuMemRangeGetAttributes(void **data, size_t *sizes,
				 CUmem_range_attribute *attributes,
				 size_t count, CUdeviceptr p, size_t len)
{
	struct vg_mpage *pages;
	size_t i, first, last;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!data || !sizes || !attributes || !count)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < count; i++)
		if (!data[i] ||
		    attributes[i] < CU_MEM_RANGE_ATTRIBUTE_READ_MOSTLY ||
		    attributes[i] > CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID ||
		    !vg_range_size_ok(attributes[i], sizes[i]))
			return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	pages = vg_mrange(p, len, &first, &last);
	for (i = 0; pages && i < count; i++)
		vg_range_attr(pages, first, last, attributes[i], data[i],
			      sizes[i]);
	pthread_mutex_unlock(&vg_lock);
	return pages ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemRangeGetAttribute(void *data, size_t size,
				CUmem_range_attribute attribute,
				CUdeviceptr p, size_t len)
{
	return cuMemRangeGetAttributes(&data, &size, &attribute, 1, p, len);
}

/*
 * Attachment decides which streams may touch managed memory on devices
 * without concurrent managed access. vgpu's devices have it, so every
 * attachment leaves the memory reachable from every stream and the host,
 * as on an H100: the call is checked and changes nothing.
 */
CUresult cuStreamAttachMemAsync(CUstream hstream, CUdeviceptr p, size_t length,
				unsigned int flags)
{
	struct vg_host_info hi;
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (flags != CU_MEM_ATTACH_GLOBAL && flags != CU_MEM_ATTACH_HOST &&
	    flags != CU_MEM_ATTACH_SINGLE)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_cap_refuse(hstream);
	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hstream, &ctx, &st);
	/* One stream's own: the default streams belong to no one. */
	if (r == CUDA_SUCCESS && flags == CU_MEM_ATTACH_SINGLE &&
	    (st->legacy || st->per_thread))
		r = CUDA_ERROR_INVALID_VALUE;
	/* The whole of one allocation, from its start. */
	if (r == CUDA_SUCCESS &&
	    (!p || !vg_host_lookup((uintptr_t)p, &hi) || !hi.managed ||
	     hi.start != p || (length && length != hi.size)))
		r = CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&vg_lock);
	return r;
}
