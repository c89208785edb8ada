// SPDX-License-Identifier: MIT
/*
 * Contexts: cuCtxCreate/Destroy, the push/pop/set/get-current family and
 * the calls that act on the current context, over the references and
 * per-thread stacks of ctx_base.c. A context is one open file of
 * /dev/vgpuN.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "capture.h"
#include "vg.h"

/* Registry of alive regular contexts; under vg_lock. */
static struct CUctx_st *vg_ctx_list;

/* The last context id given out (cuCtxGetId): they start at 1. */
static uint64_t vg_ctx_serial;

/*
 * Walks every context this library gave out and has not destroyed, under
 * vg_lock: the primary ones, then the registry. NULL starts the walk.
 */
struct CUctx_st *vg_ctx_next(const struct CUctx_st *prev)
{
	int i = 0;

	if (prev && !prev->primary)
		return prev->next;
	if (prev)
		i = prev->dev + 1;
	return i < vg_device_count ? vg_devices[i].primary : vg_ctx_list;
}

/* Is @ctx a handle this library gave out and has not destroyed? */
bool vg_ctx_alive(const struct CUctx_st *ctx)
{
	const struct CUctx_st *c;

	for (c = vg_ctx_next(NULL); c; c = vg_ctx_next(c))
		if (c == ctx)
			return true;
	return false;
}

CUresult vg_errno_result(int err)
{
	switch (err) {
	case ENOMEM:
		return CUDA_ERROR_OUT_OF_MEMORY;
	case ENOENT:
	case ENODEV:
	case ENXIO:
		return CUDA_ERROR_DEVICE_UNAVAILABLE;
	default:
		return CUDA_ERROR_OPERATING_SYSTEM;
	}
}

/*
 * The device-address window of a context: four times the device's memory
 * (room for fragmentation), at least 64 GiB, aligned as the module wants.
 * Address space costs nothing until used, and programs reserve large,
 * aligned ranges of it for virtual memory management (cuMemAddressReserve
 * with a 4 GiB alignment, say, as an H100 grants).
 */
static uint64_t vg_window_size(const struct vgpu_info *info)
{
	uint64_t size = info->mem_size * 4;

	if (size < (1ULL << 36))
		size = 1ULL << 36;
	if (size > VGPU_VA_WINDOW_MAX)
		size = VGPU_VA_WINDOW_MAX;
	return size & ~(VGPU_VA_ALIGN - 1);
}

/*
 * Reserves an inaccessible, aligned range of this process's address space
 * and makes it the context's device-address window: device pointers never
 * collide with host memory, and the host faults on them.
 */
static CUresult vg_ctx_reserve_window(struct CUctx_st *ctx)
{
	uint64_t size = vg_window_size(&vg_devices[ctx->dev].info);
	struct vgpu_va_window w = { 0 };
	uintptr_t raw, base;
	void *p;

	if (ctx->abi_v1) {
		/* Its addresses must fit the first ABI's 32 bits. */
		p = vg_v1_window_reserve(&size);
		if (!p)
			return CUDA_ERROR_OUT_OF_MEMORY;
		base = (uintptr_t)p;
		goto set;
	}
	p = mmap(NULL, size + VGPU_VA_ALIGN, PROT_NONE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return CUDA_ERROR_OUT_OF_MEMORY;
	raw = (uintptr_t)p;
	base = (raw + VGPU_VA_ALIGN - 1) & ~(uintptr_t)(VGPU_VA_ALIGN - 1);
	if (base > raw)
		munmap(p, base - raw);
	munmap((void *)(base + size), raw + VGPU_VA_ALIGN - base);

set:
	w.base = base;
	w.size = size;
	if (ioctl(ctx->fd, VGPU_IOCTL_SET_VA_WINDOW, &w)) {
		CUresult r = vg_errno_result(errno);

		munmap((void *)base, size);
		return r;
	}
	ctx->va_base = base;
	ctx->va_size = size;
	return CUDA_SUCCESS;
}

/*
 * Opens the device file that backs @ctx and sets up its address window. A
 * context (re)opened is a new one: a new id, the default settings
 * (ctx_config.c) and, for a primary context, the flags
 * cuDevicePrimaryCtxSetFlags gave it.
 */
CUresult vg_ctx_open(struct CUctx_st *ctx)
{
	char path[32];
	CUresult r;

	ctx->serial = __atomic_add_fetch(&vg_ctx_serial, 1, __ATOMIC_RELAXED);
	ctx->interp_only = false;
	if (ctx->primary)
		ctx->flags = vg_devices[ctx->dev].primary_flags;
	vg_ctx_config_init(ctx);
	snprintf(path, sizeof(path), "/dev/vgpu%d", vg_devices[ctx->dev].minor);
	ctx->fd = open(path, O_RDWR | O_CLOEXEC);
	if (ctx->fd < 0)
		return vg_errno_result(errno);
	r = vg_ctx_reserve_window(ctx);
	if (r == CUDA_SUCCESS)
		r = vg_chans_open(ctx);
	if (r)
		vg_ctx_close(ctx);
	return r;
}

/*
 * Calls of other threads on @ctx, which is closing, are let finish
 * first: their waits are woken (and fail, vg_chans_wake()) and this waits
 * for them to end, vg_lock dropped meanwhile. The waking is repeated, as
 * a call may go to sleep again, or on a channel it has just made.
 */
static void vg_ctx_quiesce(struct CUctx_st *ctx)
{
	struct timespec until;

	if (!ctx->calls)
		return;
	__atomic_store_n(&ctx->closing, true, __ATOMIC_RELEASE);
	while (ctx->calls) {
		vg_chans_wake(ctx);
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 50000000;
		if (until.tv_nsec >= 1000000000) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&ctx->calls_done, &vg_lock, &until);
	}
	__atomic_store_n(&ctx->closing, false, __ATOMIC_RELEASE);
}

/*
 * Releases the device file: the GPU side of the context is gone. With
 * vg_lock held (or before anyone else can see the context), by a thread
 * not in a call on @ctx.
 */
void vg_ctx_close(struct CUctx_st *ctx)
{
	vg_ctx_quiesce(ctx);
	vg_usm_stop(ctx);
	vg_pools_ctx_close(ctx);
	vg_streams_close(ctx);
	vg_events_close(ctx);
	pthread_mutex_lock(&ctx->lock);
	vg_hostfn_stop(ctx);
	if (ctx->fd >= 0)
		close(ctx->fd);
	ctx->fd = -1;
	ctx->grid_ws = 0;	/* went with the file */
	vg_chans_close(ctx);
	pthread_mutex_unlock(&ctx->lock);
	vg_host_forget(ctx);
	vg_sync_forget_ctx(ctx);
	vg_vmm_ctx_close(ctx);
	vg_ext_ctx_close(ctx);
	vg_sem_ctx_close(ctx);
	vg_tex_ctx_close(ctx);	/* drops its references on the arrays: first */
	vg_arrays_ctx_close(ctx);
	vg_ipc_ctx_close(ctx);
	if (ctx->printf_map)
		munmap((void *)(uintptr_t)ctx->printf_fifo, ctx->printf_map);
	ctx->printf_fifo = 0;
	ctx->printf_map = 0;
	if (ctx->va_size)
		munmap((void *)(uintptr_t)ctx->va_base, ctx->va_size);
	ctx->va_base = 0;
	ctx->va_size = 0;
}

/* The open context whose window holds @va; called with vg_lock held. */
struct CUctx_st *vg_ctx_by_address(uint64_t va)
{
	struct CUctx_st *c;

	for (c = vg_ctx_next(NULL); c; c = vg_ctx_next(c))
		if (c->fd >= 0 && va - c->va_base < c->va_size)
			return c;
	return NULL;
}

static bool vg_ctx_flags_valid(unsigned int flags)
{
	unsigned int sched = flags & CU_CTX_SCHED_MASK;

	return !(flags & ~(unsigned int)CU_CTX_FLAGS_MASK) &&
	       (sched & (sched - 1)) == 0;
}

/*
 * Makes a regular context and pushes it: of the first ABI (API version
 * 3010, addresses below 4 GiB) when @abi_v1, for the unsuffixed
 * cuCtxCreate, else of the current one.
 */
CUresult vg_ctx_create(CUcontext *pctx, CUctxCreateParams *params,
		       unsigned int flags, CUdevice dev, bool abi_v1)
{
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pctx || !vg_ctx_flags_valid(flags))
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_check_device(dev);
	if (r)
		return r;
	/*
	 * Affinity needs MPS (affinity.c): a list is refused, whatever it
	 * holds; a count of zero or less means no list, as on an H100.
	 */
	if (params && params->numExecAffinityParams > 0)
		return params->execAffinityParams ?
			CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY :
			CUDA_ERROR_INVALID_VALUE;
	if (params && params->cigParams)
		return CUDA_ERROR_NOT_SUPPORTED;

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return CUDA_ERROR_OUT_OF_MEMORY;
	ctx->dev = dev;
	ctx->abi_v1 = abi_v1;
	/* What cuCtxSetFlags would keep of them. */
	ctx->flags = flags & VG_CTX_FLAGS_KEPT;
	ctx->refs = 1;
	ctx->usage = 1;		/* cuCtxDetach's count (ctx_attach.c) */
	vg_ctx_locks_init(ctx);
	r = vg_ctx_open(ctx);
	if (r)
		goto err_free;

	pthread_mutex_lock(&vg_lock);
	r = vg_ctx_push(ctx);
	if (r) {
		pthread_mutex_unlock(&vg_lock);
		goto err_close;
	}
	ctx->next = vg_ctx_list;
	vg_ctx_list = ctx;
	vg_peer_ctx_opened(ctx);
	pthread_mutex_unlock(&vg_lock);
	*pctx = ctx;
	return CUDA_SUCCESS;

err_close:
	vg_ctx_close(ctx);
err_free:
	vg_ctx_locks_destroy(ctx);
	free(ctx);
	return r;
}

CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *params,
			unsigned int flags, CUdevice dev)
{
	return vg_ctx_create(pctx, params, flags, dev, false);
}

CUresult cuCtxDestroy_v2(CUcontext ctx)
{
	struct CUctx_st **pp;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!ctx)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	if (!vg_ctx_alive(ctx) || ctx->primary) {
		pthread_mutex_unlock(&vg_lock);
		return CUDA_ERROR_INVALID_CONTEXT;
	}
	for (pp = &vg_ctx_list; *pp != ctx; pp = &(*pp)->next)
		;
	*pp = ctx->next;
	vg_ctx_close(ctx);
	/* Current to this thread: popped, as cuCtxPopCurrent would. */
	if (vg_ctx_current() == ctx)
		vg_ctx_unref(vg_ctx_pop());
	vg_ctx_unref(ctx);
	pthread_mutex_unlock(&vg_lock);
	return CUDA_SUCCESS;
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!ctx)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	r = vg_ctx_alive(ctx) ? vg_ctx_push(ctx) : CUDA_ERROR_INVALID_CONTEXT;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuCtxPopCurrent_v2(CUcontext *pctx)
{
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	ctx = vg_ctx_pop();
	if (!ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (pctx)
		*pctx = ctx;
	pthread_mutex_lock(&vg_lock);
	vg_ctx_unref(ctx);
	pthread_mutex_unlock(&vg_lock);
	return CUDA_SUCCESS;
}

CUresult cuCtxSetCurrent(CUcontext ctx)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = ctx && !vg_ctx_alive(ctx) ? CUDA_ERROR_INVALID_CONTEXT :
		vg_ctx_set_current(ctx);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuCtxGetCurrent(CUcontext *pctx)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	*pctx = vg_ctx_current();
	return CUDA_SUCCESS;
}

/* The current context, destroyed or not; NULL when the stack is empty. */
static CUresult vg_current(struct CUctx_st **pctx)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	*pctx = vg_ctx_current();
	return *pctx ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult cuCtxGetDevice(CUdevice *device)
{
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_current(&ctx);
	if (r)
		return r;
	*device = ctx->dev;
	return CUDA_SUCCESS;
}

/*
 * Mapped pinned memory is always available, as with unified addressing; a
 * primary context says so in its flags, a created one does not, as on an
 * H100.
 */
static unsigned int vg_ctx_flags(const struct CUctx_st *ctx)
{
	return ctx->flags | (ctx->primary ? CU_CTX_MAP_HOST : 0);
}

CUresult cuCtxGetFlags(unsigned int *flags)
{
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_current(&ctx);
	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	*flags = vg_ctx_flags(ctx);
	pthread_mutex_unlock(&vg_lock);
	return CUDA_SUCCESS;
}

/*
 * Replaces the current context's flags. Of the valid ones, the scheduling
 * policy, LMEM_RESIZE_TO_MAX and SYNC_MEMOPS are kept; MAP_HOST and the
 * coredump flags are taken and dropped, as an H100 does (tests/e2e/ref).
 */
CUresult cuCtxSetFlags(unsigned int flags)
{
	struct CUctx_st *ctx;
	CUresult r = vg_current(&ctx);

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	if (ctx->fd < 0)
		r = CUDA_ERROR_CONTEXT_IS_DESTROYED;
	else if (!vg_ctx_flags_valid(flags))
		r = CUDA_ERROR_INVALID_VALUE;
	else
		__atomic_store_n(&ctx->flags, flags & VG_CTX_FLAGS_KEPT,
				 __ATOMIC_RELAXED);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* A context's id is its activation's: a reset primary context has none. */
CUresult cuCtxGetId(CUcontext ctx, unsigned long long *id)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!id)
		return CUDA_ERROR_INVALID_VALUE;
	if (!ctx) {
		r = vg_current(&ctx);
		if (r)
			return r;
	}
	pthread_mutex_lock(&vg_lock);
	if (vg_ctx_alive(ctx) && ctx->fd >= 0)
		*id = ctx->serial;
	else
		r = CUDA_ERROR_CONTEXT_IS_DESTROYED;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!version)
		return CUDA_ERROR_INVALID_VALUE;
	if (!ctx) {
		r = vg_current(&ctx);
		if (r)
			return r;
	}
	pthread_mutex_lock(&vg_lock);
	r = vg_ctx_alive(ctx) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
	pthread_mutex_unlock(&vg_lock);
	if (r)
		return r;
	*version = ctx->abi_v1 ? VG_API_VERSION_V1 : VG_API_VERSION;
	return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize(void)
{
	struct CUctx_st *ctx;
	CUresult r = vg_current(&ctx);

	if (!r)
		r = vg_cap_ctx_sync();
	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	if (ctx->fd < 0) {
		pthread_mutex_unlock(&vg_lock);
		return CUDA_ERROR_CONTEXT_IS_DESTROYED;
	}
	vg_ctx_begin(ctx);
	r = vg_ctx_sync(ctx);
	vg_ctx_end(ctx);
	return r;
}
