// SPDX-License-Identifier: MIT
/*
 * Stream-ordered allocation: memory pools, cuMemAllocAsync,
 * cuMemAllocFromPoolAsync and cuMemFreeAsync.
 *
 * A pool belongs to a device; its blocks are allocations of the module,
 * each in the context of the stream that first asked for it. A block
 * freed by cuMemFreeAsync stays in the pool with the point of the freeing
 * stream's channel after which it is unused, and is handed out again by
 * NVIDIA's rules (tests/e2e/ref/h100_mempool.log): to the stream that
 * freed it; to a stream that waits for that point (an event dependency),
 * while REUSE_FOLLOW_EVENT_DEPENDENCIES is set; to any stream once the
 * point has completed, while REUSE_ALLOW_OPPORTUNISTIC is. An H100 adds
 * no dependency of its own to reuse memory (REUSE_ALLOW_INTERNAL_
 * DEPENDENCIES changed nothing in the probe), and neither does vgpu.
 * At the synchronizing calls the pool gives back to the module the
 * completed free blocks above its release threshold, as NVIDIA's driver
 * does; cuMemPoolTrimTo does the same on request.
 *
 * The H100 reserves its pools in chunks of 32 MiB; vgpu reserves each
 * block as it is first asked for, so the RESERVED_MEM counters read the
 * blocks' sizes. USED_MEM counts the bytes asked for, as on the H100.
 *
 * Locking: vg_pool_lock protects the pools and their blocks. It nests
 * inside vg_lock and inside a context's lock, and nothing is taken under
 * it. A block lives in an open context: closing one drops its blocks
 * (vg_pools_ctx_close()) before the file goes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "capture.h"
#include "vg.h"

#define VG_POOL_MAGIC 0x706f6f6cU	/* "pool" */

/* Blocks are reused for requests this much smaller, at most. */
#define VG_POOL_SLACK 2

/* Requests round up to this, the module's smallest allocation unit. */
#define VG_POOL_ALIGN 512

/* A block: one allocation of the module, in use or free. */
struct vg_pool_block {
	struct vg_pool_block *next;
	struct CUctx_st *ctx;
	uint64_t va, size;	/* the module's allocation */
	uint64_t used;		/* bytes asked for; 0: free */
	struct vg_fence freed;	/* free: the point after its last use */
	uint64_t stream;	/* free: the id of the stream that freed it */
};

struct CUmemPoolHandle_st {
	uint32_t magic;
	int dev;
	bool is_default;
	bool destroyed;		/* by cuMemPoolDestroy, blocks outstanding */
	uint64_t serial;	/* names it in the process, for export */
	/*
	 * Another process's pool, imported (mempool_ipc.c): it only takes
	 * that process's exported pointers; no call on pools accepts it.
	 */
	bool imported;
	uint64_t src_pid, src_serial;
	CUmemPoolProps props;
	bool follow_events, opportunistic, internal_deps;
	uint64_t threshold;
	uint64_t reserved, reserved_high, used, used_high;
	struct vg_pool_block *blocks;
	/* Other devices' access (cuMemPoolSetAccess): VGPU_PROT_* each. */
	unsigned char peer_prot[VG_MAX_DEVICES];
	struct CUmemPoolHandle_st *next;
};

static pthread_mutex_t vg_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUmemPoolHandle_st *vg_pools;
static struct CUmemPoolHandle_st *vg_default_pool[VG_MAX_DEVICES];
static struct CUmemPoolHandle_st *vg_current_pool[VG_MAX_DEVICES];

/*
 * With vg_pool_lock held: the live pool of this process @h names, or
 * NULL (an imported pool is no pool the pool calls act on).
 */
static struct CUmemPoolHandle_st *vg_pool_find(CUmemoryPool h)
{
	struct CUmemPoolHandle_st *p;

	for (p = vg_pools; p; p = p->next)
		if (p == h && !p->destroyed && !p->imported)
			return p;
	return NULL;
}

static struct CUmemPoolHandle_st *vg_pool_new(int dev,
					      const CUmemPoolProps *props)
{
	static uint64_t serial;
	struct CUmemPoolHandle_st *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->magic = VG_POOL_MAGIC;
	p->serial = ++serial;
	p->dev = dev;
	p->props = *props;
	p->follow_events = p->opportunistic = p->internal_deps = true;
	p->next = vg_pools;
	vg_pools = p;
	return p;
}

/* With vg_pool_lock held: @dev's default pool, made on first use. */
static struct CUmemPoolHandle_st *vg_pool_default(int dev)
{
	CUmemPoolProps props = {
		.allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
		.location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = dev },
	};

	if (!vg_default_pool[dev]) {
		vg_default_pool[dev] = vg_pool_new(dev, &props);
		if (vg_default_pool[dev])
			vg_default_pool[dev]->is_default = true;
	}
	return vg_default_pool[dev];
}

/* With vg_pool_lock held: unlinks and frees @p, which has no blocks. */
static void vg_pool_unlink(struct CUmemPoolHandle_st *p)
{
	struct CUmemPoolHandle_st **pp;

	for (pp = &vg_pools; *pp; pp = &(*pp)->next) {
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	}
	p->magic = 0;
	free(p);
}

/* Gives block *@pb back to the module; unlinks and frees it. */
static void vg_pool_release(struct CUmemPoolHandle_st *p,
			    struct vg_pool_block **pb)
{
	struct vg_pool_block *b = *pb;
	struct vgpu_mem_free f = { .va = b->va };

	if (b->ctx->fd >= 0)
		ioctl(b->ctx->fd, VGPU_IOCTL_MEM_FREE, &f);
	p->reserved -= b->size;
	*pb = b->next;
	free(b);
}

/* Has free block @b's last use completed? */
static bool vg_pool_idle(const struct vg_pool_block *b)
{
	return !b->freed.ch || vg_chan_reached(b->freed.ch, b->freed.seqno);
}

/*
 * With vg_pool_lock held: gives the completed free blocks of @p (of
 * @ctx, or of any context for NULL) back until @p reserves at most
 * @keep bytes. A destroyed pool left with no blocks goes.
 */
static void vg_pool_trim(struct CUmemPoolHandle_st *p, struct CUctx_st *ctx,
			 uint64_t keep)
{
	struct vg_pool_block **pb = &p->blocks;

	while (*pb && p->reserved > keep) {
		struct vg_pool_block *b = *pb;

		if (!b->used && (!ctx || b->ctx == ctx) && vg_pool_idle(b))
			vg_pool_release(p, pb);
		else
			pb = &b->next;
	}
	if (p->destroyed && !p->blocks)
		vg_pool_unlink(p);
}

/*
 * At a synchronizing call on @ctx: each pool keeps at most its release
 * threshold of @ctx's completed free blocks.
 */
void vg_pools_sync(struct CUctx_st *ctx)
{
	struct CUmemPoolHandle_st *p, *next;

	pthread_mutex_lock(&vg_pool_lock);
	for (p = vg_pools; p; p = next) {
		next = p->next;
		vg_pool_trim(p, ctx, p->destroyed ? 0 : p->threshold);
	}
	pthread_mutex_unlock(&vg_pool_lock);
}

/* @ctx is closing: its blocks go with its memory. */
void vg_pools_ctx_close(struct CUctx_st *ctx)
{
	struct CUmemPoolHandle_st *p, *next;
	struct vg_pool_block **pb, *b;

	pthread_mutex_lock(&vg_pool_lock);
	for (p = vg_pools; p; p = next) {
		next = p->next;
		for (pb = &p->blocks; (b = *pb);) {
			if (b->ctx != ctx) {
				pb = &b->next;
				continue;
			}
			p->used -= b->used;
			vg_pool_release(p, pb);
		}
		if (p->destroyed && !p->blocks)
			vg_pool_unlink(p);
	}
	pthread_mutex_unlock(&vg_pool_lock);
	vg_pool_imports_ctx_close(ctx);
}

/* May @st, of @b's context, take free block @b now? */
static bool vg_pool_reusable(const struct CUmemPoolHandle_st *p,
			     const struct vg_pool_block *b,
			     const struct CUstream_st *st)
{
	const struct vg_chan *c = b->freed.ch;

	if (!c || b->stream == st->id)
		return true;
	if (p->follow_events && (c == st->ch ||
				 st->ch->waited[c->index] >= b->freed.seqno))
		return true;
	return p->opportunistic && vg_chan_reached(c, b->freed.seqno);
}

/*
 * Device @dev's rights (VGPU_PROT_*) over block @b, for its kernels that
 * reach @b's context through a link without access (the module's
 * VGPU_ACCESS_ALLOC); copies reach it whatever they are.
 */
static void vg_pool_block_set(const struct vg_pool_block *b, int dev,
			      unsigned int prot)
{
	struct vgpu_mem_access a = {
		.va = b->va, .prot = prot,
		.flags = VGPU_ACCESS_DEVICE | VGPU_ACCESS_ALLOC,
		.device = (uint32_t)vg_devices[dev].minor,
	};

	ioctl(b->ctx->fd, VGPU_IOCTL_MEM_ACCESS, &a);
}

/* A new block of @p gets the access other devices have to @p. */
static void vg_pool_block_access(const struct CUmemPoolHandle_st *p,
				 const struct vg_pool_block *b)
{
	int dev;

	for (dev = 0; dev < vg_device_count; dev++)
		if (p->peer_prot[dev])
			vg_pool_block_set(b, dev, p->peer_prot[dev]);
}

/*
 * With vg_pool_lock and @st's context's lock held: @bytes of @p for work
 * on @st, a free block taken again or a new one.
 */
static CUresult vg_pool_take(struct CUmemPoolHandle_st *p,
			     struct CUstream_st *st, size_t bytes,
			     CUdeviceptr *dptr)
{
	struct CUctx_st *ctx = st->ctx;
	struct vgpu_mem_alloc a;
	struct vg_pool_block *b;
	uint64_t need = ((uint64_t)bytes + VG_POOL_ALIGN - 1) &
			~(uint64_t)(VG_POOL_ALIGN - 1);

	for (b = p->blocks; b; b = b->next) {
		if (!b->used && b->ctx == ctx && b->size >= need &&
		    b->size / VG_POOL_SLACK <= need &&
		    vg_pool_reusable(p, b, st))
			goto take;
	}
	if (p->props.maxSize && p->reserved + need > p->props.maxSize)
		return CUDA_ERROR_OUT_OF_MEMORY;
	b = calloc(1, sizeof(*b));
	if (!b)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memset(&a, 0, sizeof(a));
	a.size = need;
	if (ioctl(ctx->fd, VGPU_IOCTL_MEM_ALLOC, &a) &&
	    (errno == ENOMEM || errno == ENOSPC)) {
		/* Out of memory: first what the pools keep of this context. */
		struct CUmemPoolHandle_st *q;

		for (q = vg_pools; q; q = q->next)
			vg_pool_trim(q, ctx, 0);
		memset(&a, 0, sizeof(a));
		a.size = need;
		if (ioctl(ctx->fd, VGPU_IOCTL_MEM_ALLOC, &a))
			a.va = 0;
	}
	if (!a.va) {
		free(b);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	b->ctx = ctx;
	b->va = a.va;
	b->size = need;
	b->next = p->blocks;
	p->blocks = b;
	vg_pool_block_access(p, b);
	p->reserved += need;
	if (p->reserved > p->reserved_high)
		p->reserved_high = p->reserved;
take:
	b->used = bytes;
	b->freed = (struct vg_fence){ 0 };
	p->used += bytes;
	if (p->used > p->used_high)
		p->used_high = p->used;
	*dptr = b->va;
	return CUDA_SUCCESS;
}

/* With vg_pool_lock held: the block that starts at @va, and its pool. */
static struct vg_pool_block *vg_pool_block_at(CUdeviceptr va,
					      struct CUmemPoolHandle_st **pp)
{
	struct CUmemPoolHandle_st *p;
	struct vg_pool_block *b;

	for (p = vg_pools; p; p = p->next) {
		for (b = p->blocks; b; b = b->next) {
			if (b->va == va) {
				*pp = p;
				return b;
			}
		}
	}
	return NULL;
}

/*
 * The pool allocation holding @ptr: its start, the bytes asked for and
 * its pool. For cuMemGetAddressRange and cuPointerGetAttribute.
 */
bool vg_pool_lookup(CUdeviceptr ptr, uint64_t *start, uint64_t *size,
		    CUmemoryPool *pool)
{
	struct CUmemPoolHandle_st *p;
	struct vg_pool_block *b;
	bool found = false;

	pthread_mutex_lock(&vg_pool_lock);
	for (p = vg_pools; p && !found; p = p->next) {
		for (b = p->blocks; b; b = b->next) {
			if (b->used && ptr >= b->va && ptr - b->va < b->used) {
				*start = b->va;
				*size = b->used;
				*pool = p;
				found = true;
				break;
			}
		}
	}
	pthread_mutex_unlock(&vg_pool_lock);
	return found || vg_pool_import_lookup(ptr, start, size, pool);
}

/*
 * cuMemFree of @va, after its context has gone idle: a pool allocation's
 * block is free with no use pending. 1: done; 0: @va is no pool block;
 * -1: a pool block that is free already.
 */
int vg_pool_free_now(CUdeviceptr va)
{
	struct CUmemPoolHandle_st *p;
	struct vg_pool_block *b;
	int ret = vg_pool_import_free(va);

	if (ret)
		return ret;
	pthread_mutex_lock(&vg_pool_lock);
	b = vg_pool_block_at(va, &p);
	if (b && !b->used) {
		ret = -1;
	} else if (b) {
		p->used -= b->used;
		b->used = 0;
		b->freed = (struct vg_fence){ 0 };
		vg_pool_trim(p, b->ctx, p->destroyed ? 0 : p->threshold);
		ret = 1;
	}
	pthread_mutex_unlock(&vg_pool_lock);
	return ret;
}

static CUresult vg_alloc_async(CUdeviceptr *dptr, size_t bytes,
			       CUmemoryPool pool, CUstream hs)
{
	struct CUmemPoolHandle_st *p;
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	bool taken = false;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!dptr)
		return CUDA_ERROR_INVALID_VALUE;
	/* In a capture: an allocation node, the graph's own memory. */
	r = vg_cap_alloc(dptr, bytes, hs, &taken);
	if (r || taken)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	if (r) {
		pthread_mutex_unlock(&vg_lock);
		return r;
	}
	vg_ctx_begin(ctx);
	r = vg_ctx_check(ctx);
	pthread_mutex_lock(&vg_pool_lock);
	p = pool ? vg_pool_find(pool) : vg_current_pool[ctx->dev];
	if (!pool && !p)
		p = vg_pool_default(ctx->dev);
	if (r == CUDA_SUCCESS && (!p || p->dev != ctx->dev))
		r = pool ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_OUT_OF_MEMORY;
	/* An H100 answers a request of 0 bytes with success and no memory. */
	if (r == CUDA_SUCCESS && !bytes)
		*dptr = 0;
	else if (r == CUDA_SUCCESS)
		r = vg_pool_take(p, st, bytes, dptr);
	pthread_mutex_unlock(&vg_pool_lock);
	vg_ctx_end(ctx);
	return r;
}

CUresult cuMemAllocAsync(CUdeviceptr *dptr, size_t bytes, CUstream hs)
{
	return vg_alloc_async(dptr, bytes, NULL, hs);
}

CUresult cuMemAllocAsync_ptsz(CUdeviceptr *dptr, size_t bytes, CUstream hs)
{
	return vg_alloc_async(dptr, bytes, NULL, hs ? hs : CU_STREAM_PER_THREAD);
}

CUresult cuMemAllocFromPoolAsync(CUdeviceptr *dptr, size_t bytes,
				 CUmemoryPool pool, CUstream hs)
{
	return pool ? vg_alloc_async(dptr, bytes, pool, hs) :
		CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemAllocFromPoolAsync_ptsz(CUdeviceptr *dptr, size_t bytes,
				      CUmemoryPool pool, CUstream hs)
{
	return cuMemAllocFromPoolAsync(dptr, bytes, pool,
				       hs ? hs : CU_STREAM_PER_THREAD);
}

/*
 * Frees @dptr once the work queued on @hs so far is done. An allocation
 * of cuMemAlloc is freed too (an H100 accepts it), as cuMemFree would.
 */
CUresult cuMemFreeAsync(CUdeviceptr dptr, CUstream hs)
{
	struct CUmemPoolHandle_st *p;
	struct vg_pool_block *b;
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	bool taken = false;
	CUresult r = vg_check_init();

	if (r || !dptr)
		return r;
	r = vg_cap_free(dptr, hs, &taken);
	if (r || taken)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	if (r) {
		pthread_mutex_unlock(&vg_lock);
		return r;
	}
	vg_ctx_begin(ctx);
	pthread_mutex_lock(&vg_pool_lock);
	b = vg_pool_block_at(dptr, &p);
	/* A block already free, or of another context's memory. */
	if (b && (!b->used || b->ctx != ctx))
		r = CUDA_ERROR_INVALID_VALUE;
	/* The point after everything the stream's next work would follow. */
	if (b && r == CUDA_SUCCESS)
		r = vg_stream_enter(st);
	if (b && r == CUDA_SUCCESS) {
		p->used -= b->used;
		b->used = 0;
		b->freed = (struct vg_fence){ .ch = st->ch,
					      .seqno = st->ch->put };
		b->stream = st->id;
	}
	pthread_mutex_unlock(&vg_pool_lock);
	vg_ctx_end(ctx);
	return b ? r : vg_mem_free(dptr);
}

CUresult cuMemFreeAsync_ptsz(CUdeviceptr dptr, CUstream hs)
{
	return cuMemFreeAsync(dptr, hs ? hs : CU_STREAM_PER_THREAD);
}

/* --- pools --------------------------------------------------------------- */

/* @dev's default pool, or (@current) the pool it allocates from now. */
static CUresult vg_device_pool(CUmemoryPool *pool, CUdevice dev, bool current)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pool)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_check_device(dev);
	if (r)
		return r;
	pthread_mutex_lock(&vg_pool_lock);
	*pool = current && vg_current_pool[dev] ? vg_current_pool[dev] :
		vg_pool_default(dev);
	pthread_mutex_unlock(&vg_pool_lock);
	return *pool ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
}

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice dev)
{
	return vg_device_pool(pool, dev, false);
}

CUresult cuDeviceGetMemPool(CUmemoryPool *pool, CUdevice dev)
{
	return vg_device_pool(pool, dev, true);
}

/* An H100 answers a device out of range with CUDA_ERROR_INVALID_VALUE. */
CUresult cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)
{
	struct CUmemPoolHandle_st *p;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (dev < 0 || dev >= vg_device_count)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_pool_lock);
	p = vg_pool_find(pool);
	if (!p || p->dev != dev)
		r = CUDA_ERROR_INVALID_VALUE;
	else
		vg_current_pool[dev] = p->is_default ? NULL : p;
	pthread_mutex_unlock(&vg_pool_lock);
	return r;
}

/*
 * The location forms: a device's pools of device memory. NVIDIA's driver
 * also keeps pools of host memory and of managed memory, which vgpu does
 * not have (CUDA_ERROR_NOT_SUPPORTED where an H100 answers with one).
 */
static CUresult vg_pool_location(const CUmemLocation *l,
				 CUmemAllocationType type)
{
	if (!l || type < CU_MEM_ALLOCATION_TYPE_PINNED ||
	    type > CU_MEM_ALLOCATION_TYPE_MANAGED)
		return CUDA_ERROR_INVALID_VALUE;
	if (l->type == CU_MEM_LOCATION_TYPE_DEVICE &&
	    (l->id < 0 || l->id >= vg_device_count))
		return CUDA_ERROR_INVALID_VALUE;
	if (l->type != CU_MEM_LOCATION_TYPE_DEVICE &&
	    l->type != CU_MEM_LOCATION_TYPE_HOST &&
	    l->type != CU_MEM_LOCATION_TYPE_HOST_NUMA &&
	    l->type != CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT)
		return CUDA_ERROR_INVALID_VALUE;
	if (l->type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    type == CU_MEM_ALLOCATION_TYPE_MANAGED)
		return CUDA_ERROR_NOT_SUPPORTED;
	return CUDA_SUCCESS;
}

CUresult cuMemGetDefaultMemPool(CUmemoryPool *pool, CUmemLocation *location,
				CUmemAllocationType type)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pool)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_pool_location(location, type);
	return r ? r : cuDeviceGetDefaultMemPool(pool, location->id);
}

CUresult cuMemGetMemPool(CUmemoryPool *pool, CUmemLocation *location,
			 CUmemAllocationType type)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pool)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_pool_location(location, type);
	return r ? r : cuDeviceGetMemPool(pool, location->id);
}

/* An H100 refuses a pool of another kind or place: INVALID_VALUE. */
CUresult cuMemSetMemPool(CUmemLocation *location, CUmemAllocationType type,
			 CUmemoryPool pool)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	r = vg_pool_location(location, type);
	if (r == CUDA_ERROR_NOT_SUPPORTED)
		r = CUDA_ERROR_INVALID_VALUE;
	return r ? r : cuDeviceSetMemPool(location->id, pool);
}

CUresult cuMemPoolCreate(CUmemoryPool *pool, const CUmemPoolProps *props)
{
	struct CUmemPoolHandle_st *p;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pool || !props ||
	    props->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    (props->handleTypes & ~(unsigned int)
	     CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR))
		return CUDA_ERROR_INVALID_VALUE;
	/* Pools of host memory are a feature vgpu lacks (an H100 has them). */
	if (props->location.type == CU_MEM_LOCATION_TYPE_HOST ||
	    props->location.type == CU_MEM_LOCATION_TYPE_HOST_NUMA ||
	    props->location.type == CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT)
		return CUDA_ERROR_NOT_SUPPORTED;
	if (props->location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    props->location.id < 0 || props->location.id >= vg_device_count)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_pool_lock);
	p = vg_pool_new(props->location.id, props);
	pthread_mutex_unlock(&vg_pool_lock);
	if (!p)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*pool = p;
	return CUDA_SUCCESS;
}

/*
 * The handle goes at once; the pool's memory once its allocations are
 * freed and their frees complete (as NVIDIA documents). A device whose
 * current pool it was goes back to the default pool.
 */
CUresult cuMemPoolDestroy(CUmemoryPool pool)
{
	struct CUmemPoolHandle_st *p;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_pool_lock);
	p = vg_pool_find(pool);
	if (!p || p->is_default) {
		r = CUDA_ERROR_INVALID_VALUE;
	} else {
		if (vg_current_pool[p->dev] == p)
			vg_current_pool[p->dev] = NULL;
		p->destroyed = true;
		vg_pool_trim(p, NULL, 0);
	}
	pthread_mutex_unlock(&vg_pool_lock);
	return r;
}

CUresult cuMemPoolTrimTo(CUmemoryPool pool, size_t keep)
{
	struct CUmemPoolHandle_st *p;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_pool_lock);
	p = vg_pool_find(pool);
	if (p)
		vg_pool_trim(p, NULL, keep);
	pthread_mutex_unlock(&vg_pool_lock);
	return p ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/*
 * The live pool @pool names, with vg_pool_lock held on success; a value
 * to read or write is needed.
 */
static CUresult vg_pool_begin(CUmemoryPool pool, const void *value,
			      struct CUmemPoolHandle_st **pp)
{
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_pool_lock);
	*pp = vg_pool_find(pool);
	if (*pp)
		return CUDA_SUCCESS;
	pthread_mutex_unlock(&vg_pool_lock);
	return CUDA_ERROR_INVALID_VALUE;
}

/*
 * As on an H100: the reuse flags take any int (nonzero: on); the high
 * marks can only be reset, with 0, to the current value; the current
 * counters are read-only.
 */
CUresult cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr,
			       void *value)
{
	struct CUmemPoolHandle_st *p;
	CUresult r = vg_check_init();
	uint64_t v;

	if (!r)
		r = vg_pool_begin(pool, value, &p);
	if (r)
		return r;
	switch (attr) {
	case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
		p->follow_events = *(int *)value != 0;
		break;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
		p->opportunistic = *(int *)value != 0;
		break;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		p->internal_deps = *(int *)value != 0;
		break;
	case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
		p->threshold = *(uint64_t *)value;
		break;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
	case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
		memcpy(&v, value, sizeof(v));
		if (v)
			r = CUDA_ERROR_INVALID_VALUE;
		else if (attr == CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH)
			p->reserved_high = p->reserved;
		else
			p->used_high = p->used;
		break;
	default:
		r = CUDA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_unlock(&vg_pool_lock);
	return r;
}

CUresult cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr,
			       void *value)
{
	struct CUmemPoolHandle_st *p;
	CUresult r = vg_check_init();

	if (!r)
		r = vg_pool_begin(pool, value, &p);
	if (r)
		return r;
	switch (attr) {
	case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
		*(int *)value = p->follow_events;
		break;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
		*(int *)value = p->opportunistic;
		break;
	case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
		*(int *)value = p->internal_deps;
		break;
	case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
		*(uint64_t *)value = p->threshold;
		break;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
		*(uint64_t *)value = p->reserved;
		break;
	case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
		*(uint64_t *)value = p->reserved_high;
		break;
	case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
		*(uint64_t *)value = p->used;
		break;
	case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
		*(uint64_t *)value = p->used_high;
		break;
	default:
		r = CUDA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_unlock(&vg_pool_lock);
	return r;
}

/* The device of the live pool @pool, or -1. */
static int vg_pool_device(CUmemoryPool pool)
{
	struct CUmemPoolHandle_st *p;
	int dev;

	pthread_mutex_lock(&vg_pool_lock);
	p = vg_pool_find(pool);
	dev = p ? p->dev : -1;
	pthread_mutex_unlock(&vg_pool_lock);
	return dev;
}

/* Device @id's access to @pool, another device's pool. */
static CUmemAccess_flags vg_pool_flags(CUmemoryPool pool, int id)
{
	struct CUmemPoolHandle_st *p;
	unsigned int prot = 0;

	pthread_mutex_lock(&vg_pool_lock);
	p = vg_pool_find(pool);
	if (p)
		prot = p->peer_prot[id];
	pthread_mutex_unlock(&vg_pool_lock);
	if (prot & VGPU_PROT_WRITE)
		return CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	return prot ? CU_MEM_ACCESS_FLAGS_PROT_READ :
		CU_MEM_ACCESS_FLAGS_PROT_NONE;
}

/*
 * @ctx has just opened (vg_lock held): it reaches the blocks of pools
 * that give its device access, through links to their contexts.
 */
void vg_pools_ctx_opened(struct CUctx_st *ctx)
{
	struct CUmemPoolHandle_st *p;
	struct vg_pool_block *b;

	pthread_mutex_lock(&vg_pool_lock);
	for (p = vg_pools; p; p = p->next)
		for (b = p->peer_prot[ctx->dev] ? p->blocks : NULL; b;
		     b = b->next)
			vg_peer_reach(ctx, b->ctx);
	pthread_mutex_unlock(&vg_pool_lock);
}

/* VGPU_PROT_* of an access flag that is one, or -1. */
static int vg_pool_prot(CUmemAccess_flags flags)
{
	switch (flags) {
	case CU_MEM_ACCESS_FLAGS_PROT_NONE:
		return 0;
	case CU_MEM_ACCESS_FLAGS_PROT_READ:
		return VGPU_PROT_READ;
	case CU_MEM_ACCESS_FLAGS_PROT_READWRITE:
		return VGPU_PROT_READ | VGPU_PROT_WRITE;
	default:
		return -1;
	}
}

/*
 * Access from the pool's own device is read-write and stays so (an H100
 * answers CUDA_ERROR_NOT_SUPPORTED to anything else). Other devices are
 * peers: what they get, the module enforces on each block for their
 * kernels, which reach the pool's context through links (peer.c), made
 * here for their open contexts; their copies reach it anyway.
 */
CUresult cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc *map,
			    size_t count)
{
	struct CUmemPoolHandle_st *p;
	struct vg_pool_block *b;
	struct CUctx_st *c;
	CUresult r = vg_check_init();
	size_t i;
	int dev, id, prot;

	if (r)
		return r;
	if (!map && count)
		return CUDA_ERROR_INVALID_VALUE;
	dev = vg_pool_device(pool);
	if (dev < 0)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < count && r == CUDA_SUCCESS; i++) {
		if (map[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE ||
		    vg_pool_prot(map[i].flags) < 0)
			r = CUDA_ERROR_INVALID_VALUE;
		else if (map[i].location.id < 0 ||
			 map[i].location.id >= vg_device_count)
			r = CUDA_ERROR_INVALID_DEVICE;
		else if (map[i].location.id == dev &&
			 map[i].flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE)
			r = CUDA_ERROR_NOT_SUPPORTED;
	}
	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	pthread_mutex_lock(&vg_pool_lock);
	p = vg_pool_find(pool);
	for (i = 0; p && i < count; i++) {
		id = map[i].location.id;
		prot = vg_pool_prot(map[i].flags);
		if (id == dev || p->peer_prot[id] == prot)
			continue;
		p->peer_prot[id] = (unsigned char)prot;
		for (b = p->blocks; b; b = b->next)
			vg_pool_block_set(b, id, (unsigned int)prot);
	}
	/* The blocks live in the device's contexts; link the peers' to them. */
	for (b = p ? p->blocks : NULL; b; b = b->next)
		for (c = vg_ctx_next(NULL); c; c = vg_ctx_next(c))
			if (c->fd >= 0 && c->dev != dev &&
			    p->peer_prot[c->dev])
				vg_peer_reach(c, b->ctx);
	pthread_mutex_unlock(&vg_pool_lock);
	pthread_mutex_unlock(&vg_lock);
	return p ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuMemPoolGetAccess(CUmemAccess_flags *flags, CUmemoryPool pool,
			    CUmemLocation *location)
{
	CUresult r = vg_check_init();
	int dev;

	if (r)
		return r;
	if (!flags || !location ||
	    location->type != CU_MEM_LOCATION_TYPE_DEVICE ||
	    location->id < 0 || location->id >= vg_device_count)
		return CUDA_ERROR_INVALID_VALUE;
	dev = vg_pool_device(pool);
	if (dev < 0)
		return CUDA_ERROR_INVALID_VALUE;
	*flags = location->id == dev ? CU_MEM_ACCESS_FLAGS_PROT_READWRITE :
		vg_pool_flags(pool, location->id);
	return CUDA_SUCCESS;
}

/* --- export and import (mempool_ipc.c) ------------------------------------ */

/*
 * A pool of this process that may be exported: its device and serial.
 * CUDA_ERROR_INVALID_VALUE for one made without
 * CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR (a device's default pool too).
 */
CUresult vg_pool_export_info(CUmemoryPool pool, int *dev, uint64_t *serial)
{
	struct CUmemPoolHandle_st *p;
	CUresult r = CUDA_ERROR_INVALID_VALUE;

	pthread_mutex_lock(&vg_pool_lock);
	p = vg_pool_find(pool);
	if (p && (p->props.handleTypes &
		  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)) {
		*dev = p->dev;
		*serial = p->serial;
		r = CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&vg_pool_lock);
	return r;
}

/*
 * The allocation starting at @ptr, of an exportable pool: its pool's
 * device and serial and its context. CUDA_ERROR_INVALID_VALUE for any
 * other address, an interior one included (as an H100 answers).
 */
CUresult vg_pool_ptr_info(CUdeviceptr ptr, int *dev, uint64_t *serial,
			  struct CUctx_st **ctx)
{
	struct CUmemPoolHandle_st *p;
	struct vg_pool_block *b;
	CUresult r = CUDA_ERROR_INVALID_VALUE;

	pthread_mutex_lock(&vg_pool_lock);
	b = ptr ? vg_pool_block_at(ptr, &p) : NULL;
	if (b && b->used && !p->imported &&
	    (p->props.handleTypes & CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR)) {
		*dev = p->dev;
		*serial = p->serial;
		*ctx = b->ctx;
		r = CUDA_SUCCESS;
	}
	pthread_mutex_unlock(&vg_pool_lock);
	return r;
}

/*
 * The pool standing for pool @serial of process @pid on @dev, made on
 * the first import: importing it again gives the same one, as on an H100.
 */
CUmemoryPool vg_pool_imported(int dev, uint64_t pid, uint64_t serial)
{
	CUmemPoolProps props = {
		.allocType = CU_MEM_ALLOCATION_TYPE_PINNED,
		.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR,
		.location = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = dev },
	};
	struct CUmemPoolHandle_st *p;

	pthread_mutex_lock(&vg_pool_lock);
	for (p = vg_pools; p; p = p->next)
		if (p->imported && p->dev == dev && p->src_pid == pid &&
		    p->src_serial == serial)
			break;
	if (!p) {
		p = vg_pool_new(dev, &props);
		if (p) {
			p->imported = true;
			p->src_pid = pid;
			p->src_serial = serial;
		}
	}
	pthread_mutex_unlock(&vg_pool_lock);
	return p;
}

/* An imported pool: whose pool it stands for. */
bool vg_pool_source(CUmemoryPool pool, int *dev, uint64_t *pid,
		    uint64_t *serial)
{
	struct CUmemPoolHandle_st *p;
	bool found = false;

	pthread_mutex_lock(&vg_pool_lock);
	for (p = vg_pools; p; p = p->next) {
		if (p == pool && p->imported) {
			*dev = p->dev;
			*pid = p->src_pid;
			*serial = p->src_serial;
			found = true;
			break;
		}
	}
	pthread_mutex_unlock(&vg_pool_lock);
	return found;
}
