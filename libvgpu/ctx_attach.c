// SPDX-License-Identifier: MIT
/*
 * cuCtxAttach and cuCtxDetach, the usage count of the first context API,
 * as NVIDIA's driver keeps it on an H100 (tests/e2e/ref/h100_compat.log):
 * both act on the calling thread's current context; a created context is
 * destroyed when its count (one from cuCtxCreate, one per attach) falls
 * to zero; a primary context counts nothing and lives on.
 */
#include "vg.h"

CUresult cuCtxAttach(CUcontext *pctx, unsigned int flags)
{
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	/* No flag was ever defined for it. */
	if (!pctx || flags)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	ctx = vg_ctx_current();
	if (!ctx) {
		r = CUDA_ERROR_INVALID_CONTEXT;
	} else {
		if (!ctx->primary)
			ctx->usage++;
		*pctx = ctx;
	}
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* Only the current context can be detached; any other is refused. */
CUresult cuCtxDetach(CUcontext ctx)
{
	bool last = false;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	if (!ctx || ctx != vg_ctx_current() || !vg_ctx_alive(ctx))
		r = CUDA_ERROR_INVALID_CONTEXT;
	else if (!ctx->primary)
		last = --ctx->usage == 0;
	pthread_mutex_unlock(&vg_lock);
	/* The last user gone: destroyed, and popped from this thread. */
	return last ? cuCtxDestroy_v2(ctx) : r;
}
