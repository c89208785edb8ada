// SPDX-License-Identifier: MIT
/*
 * A context's settings: cuCtxGetLimit/SetLimit, the cache and shared
 * memory configurations and cuCtxResetPersistingL2Cache, with the
 * defaults, rounding, ranges and error codes of NVIDIA's driver on an
 * H100 (tests/e2e/ref/h100_api.log, h100_compat.log).
 *
 * Three act on kernels. A launch grows the stack size to what the
 * kernel's thread needs (its local memory) when that is more, as the H100
 * does, and never fails for it (tests/e2e/ref/h100_printf_fifo.log); vgpu
 * has no recursion (the JIT inlines calls), so what a thread needs is
 * always known. The printf FIFO is the context's, of the limit's size,
 * from the first launch of a kernel that prints (printf.c), and the limit
 * is fixed from then on. The malloc heap's size is what the context's heap
 * gets when the first kernel that may call malloc or free is launched
 * (heap.c); from then on it is fixed, as on the H100
 * (tests/e2e/ref/h100_devmalloc.log). The others are kept and reported:
 * there is no device runtime, no L2 to persist lines in, and one shared
 * memory size per SM.
 *
 * Limits a device without the feature cannot have say so: the device
 * runtime's sync depth and CIG's fallback are unsupported (as on an H100),
 * and a persisting L2 size is capped by MAX_PERSISTING_L2_CACHE_SIZE,
 * which reads 0 here.
 */
#include "vg.h"

#define VG_STACK_DEFAULT 1024
#define VG_STACK_UNIT 16
/* The H100 takes 256 KiB and refuses 512 KiB; vgpu takes what lies between. */
#define VG_STACK_MAX ((512u << 10) - VG_STACK_UNIT)
#define VG_FIFO_DEFAULT 8650752		/* 8.25 MiB */
#define VG_FIFO_MIN (512u << 10)
#define VG_FIFO_UNIT 256
#define VG_FIFO_MAX (2ull << 30)
#define VG_HEAP_DEFAULT (8u << 20)
#define VG_HEAP_MIN (4u << 20)
#define VG_HEAP_UNIT (64u << 10)
#define VG_PENDING_DEFAULT 2048
#define VG_PENDING_MIN 32
#define VG_L2_FETCH_DEFAULT 64
#define VG_L2_FETCH_MAX 128

static size_t vg_round_up(size_t v, size_t unit)
{
	return (v + unit - 1) / unit * unit;
}

/* The largest persisting L2 size; it is set in tenths of it. */
static size_t vg_persisting_max(const struct CUctx_st *ctx)
{
	int v = 0;

	vg_attribute(&vg_devices[ctx->dev].info,
		     CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE, &v);
	return (size_t)v;
}

/* A context's settings when it is created or (primary) activated. */
void vg_ctx_config_init(struct CUctx_st *ctx)
{
	size_t *l = ctx->limits;

	l[CU_LIMIT_STACK_SIZE] = VG_STACK_DEFAULT;
	l[CU_LIMIT_PRINTF_FIFO_SIZE] = VG_FIFO_DEFAULT;
	l[CU_LIMIT_MALLOC_HEAP_SIZE] = VG_HEAP_DEFAULT;
	l[CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT] = VG_PENDING_DEFAULT;
	l[CU_LIMIT_MAX_L2_FETCH_GRANULARITY] = VG_L2_FETCH_DEFAULT;
	/* Three tenths of the maximum, as on the H100. */
	l[CU_LIMIT_PERSISTING_L2_CACHE_SIZE] = vg_persisting_max(ctx) / 10 * 3;
	l[CU_LIMIT_CIG_ENABLED] = 0;
	ctx->cache_config = CU_FUNC_CACHE_PREFER_NONE;
	ctx->printf_launched = false;
	ctx->heap_created = false;
	ctx->heap_va = 0;
	ctx->heap_size = 0;
	ctx->printf_fifo = 0;
	ctx->printf_cap = 0;
	ctx->printf_map = 0;
}

/*
 * What a launch of @k does to the limits, with vg_lock held: the stack
 * grows to the kernel's local memory, unrounded, as on the H100; a kernel
 * that prints fixes the printf FIFO's size. Returns whether @k prints.
 */
bool vg_ctx_config_launch(struct CUctx_st *ctx, const struct vg_jit_kernel *k)
{
	if (k->f.local_bytes > ctx->limits[CU_LIMIT_STACK_SIZE])
		ctx->limits[CU_LIMIT_STACK_SIZE] = k->f.local_bytes;
	if (k->prints)
		ctx->printf_launched = true;
	return k->prints;
}

/*
 * The current context for a settings call, with vg_lock held: none is
 * CUDA_ERROR_INVALID_CONTEXT, a destroyed one CUDA_ERROR_CONTEXT_IS_DESTROYED,
 * a failed one its error.
 */
static CUresult vg_config_begin(struct CUctx_st **pctx)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(pctx);
	if (r)
		pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuCtxGetLimit(size_t *value, CUlimit limit)
{
	struct CUctx_st *ctx;
	CUresult r = vg_config_begin(&ctx);
	int optin = 0;

	if (r)
		return r;
	if (!value || (int)limit < 0 || limit >= CU_LIMIT_MAX)
		r = CUDA_ERROR_INVALID_VALUE;
	else if (limit == CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH ||
		 limit == CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED)
		r = CUDA_ERROR_UNSUPPORTED_LIMIT;
	else if (limit == CU_LIMIT_SHMEM_SIZE) {
		vg_attribute(&vg_devices[ctx->dev].info,
			     CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
			     &optin);
		*value = (size_t)optin;
	} else {
		*value = ctx->limits[limit];
	}
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* The value a limit takes for a request of @v, or an error. */
static CUresult vg_limit_value(const struct CUctx_st *ctx, CUlimit limit,
			       size_t v, size_t *out)
{
	size_t cur = ctx->limits[limit], max;

	switch (limit) {
	case CU_LIMIT_STACK_SIZE:
		if (v > VG_STACK_MAX)
			return CUDA_ERROR_INVALID_VALUE;
		/* Rounded up when it grows only, as the H100 does. */
		*out = v <= cur ? v : vg_round_up(v, VG_STACK_UNIT);
		return CUDA_SUCCESS;
	case CU_LIMIT_PRINTF_FIFO_SIZE:
		/*
		 * Fixed once a kernel that prints has been launched, even to
		 * its own value (another kernel of its module does not).
		 */
		if (ctx->printf_launched)
			return CUDA_ERROR_INVALID_VALUE;
		v = v < VG_FIFO_MIN ? VG_FIFO_MIN : vg_round_up(v, VG_FIFO_UNIT);
		*out = v > VG_FIFO_MAX ? VG_FIFO_MAX : v;
		return CUDA_SUCCESS;
	case CU_LIMIT_MALLOC_HEAP_SIZE:
		/* Fixed once the heap exists, even at the same value. */
		if (ctx->heap_created)
			return CUDA_ERROR_INVALID_VALUE;
		/* At most the device's memory (the H100 caps it below that). */
		max = vg_devices[ctx->dev].info.mem_size / VG_HEAP_UNIT *
			VG_HEAP_UNIT;
		v = v < VG_HEAP_MIN ? VG_HEAP_MIN : vg_round_up(v, VG_HEAP_UNIT);
		*out = v > max ? max : v;
		return CUDA_SUCCESS;
	case CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT:
		*out = v < VG_PENDING_MIN ? VG_PENDING_MIN : v;
		return CUDA_SUCCESS;
	case CU_LIMIT_MAX_L2_FETCH_GRANULARITY:
		if (v > VG_L2_FETCH_MAX)
			return CUDA_ERROR_INVALID_VALUE;
		*out = v;
		return CUDA_SUCCESS;
	case CU_LIMIT_PERSISTING_L2_CACHE_SIZE:
		max = vg_persisting_max(ctx);
		if (v > max)
			return CUDA_ERROR_INVALID_VALUE;
		*out = v ? vg_round_up(v, max >= 10 ? max / 10 : 1) : 0;
		return CUDA_SUCCESS;
	case CU_LIMIT_SHMEM_SIZE:
	case CU_LIMIT_CIG_ENABLED:
		return CUDA_ERROR_NOT_PERMITTED;
	case CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH:
	case CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED:
		return CUDA_ERROR_UNSUPPORTED_LIMIT;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUresult cuCtxSetLimit(CUlimit limit, size_t value)
{
	struct CUctx_st *ctx;
	size_t v;
	CUresult r = vg_config_begin(&ctx);

	if (r)
		return r;
	if ((int)limit < 0 || limit >= CU_LIMIT_MAX)
		r = CUDA_ERROR_INVALID_VALUE;
	else
		r = vg_limit_value(ctx, limit, value, &v);
	if (r == CUDA_SUCCESS)
		ctx->limits[limit] = v;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* Kept and reported; vgpu's SMs have one shared memory size. */
CUresult cuCtxGetCacheConfig(CUfunc_cache *config)
{
	struct CUctx_st *ctx;
	CUresult r = vg_config_begin(&ctx);

	if (r)
		return r;
	if (config)
		*config = (CUfunc_cache)ctx->cache_config;
	else
		r = CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuCtxSetCacheConfig(CUfunc_cache config)
{
	struct CUctx_st *ctx;
	CUresult r = vg_config_begin(&ctx);

	if (r)
		return r;
	if ((int)config >= CU_FUNC_CACHE_PREFER_NONE &&
	    config <= CU_FUNC_CACHE_PREFER_EQUAL)
		ctx->cache_config = config;
	else
		r = CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/*
 * Shared memory banks are four bytes wide, whatever is asked: the H100
 * takes every configuration and keeps reporting four-byte banks.
 */
CUresult cuCtxGetSharedMemConfig(CUsharedconfig *config)
{
	struct CUctx_st *ctx;
	CUresult r = vg_config_begin(&ctx);

	if (r)
		return r;
	pthread_mutex_unlock(&vg_lock);
	if (!config)
		return CUDA_ERROR_INVALID_VALUE;
	*config = CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE;
	return CUDA_SUCCESS;
}

CUresult cuCtxSetSharedMemConfig(CUsharedconfig config)
{
	struct CUctx_st *ctx;
	CUresult r = vg_config_begin(&ctx);

	if (r)
		return r;
	pthread_mutex_unlock(&vg_lock);
	if ((int)config < CU_SHARED_MEM_CONFIG_DEFAULT_BANK_SIZE ||
	    config > CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE)
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

/*
 * No L2 line ever persists here (MAX_PERSISTING_L2_CACHE_SIZE reads 0):
 * with nothing to reset, checking the context is the call's whole effect.
 */
CUresult cuCtxResetPersistingL2Cache(void)
{
	return vg_current_check();
}
