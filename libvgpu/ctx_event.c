// SPDX-License-Identifier: MIT
/*
 * The calls that take a context instead of a stream: events recorded
 * after, or waited for before, all of a context's work
 * (cuCtxRecordEvent, cuCtxWaitEvent), and the _v2 calls that name their
 * context (cuCtxSynchronize_v2, cuCtxGetDevice_v2, cuStreamGetCtx_v2).
 * Codes are those of NVIDIA's driver (580, H100; tests/e2e/ref/
 * h100_launch.log).
 */
#include "vg.h"

/*
 * With vg_lock held: @h names an open context (NULL: the calling thread's
 * current one when @current, else CUDA_ERROR_INVALID_CONTEXT).
 */
static CUresult vg_ctx_named(CUcontext h, bool current, struct CUctx_st **pctx)
{
	if (!h && !current)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!h) {
		h = vg_ctx_current();
		if (!h)
			return CUDA_ERROR_INVALID_CONTEXT;
	}
	if (!vg_ctx_alive(h) || h->fd < 0)
		return CUDA_ERROR_CONTEXT_IS_DESTROYED;
	*pctx = h;
	return CUDA_SUCCESS;
}

/*
 * The event of @ctx, recorded after everything queued on the context so
 * far: the legacy stream waits for every channel (the non-blocking
 * streams' too), then the record goes there.
 */
CUresult cuCtxRecordEvent(CUcontext h, CUevent he)
{
	struct CUctx_st *ctx;
	struct CUevent_st *e;
	struct vg_chan *legacy;
	unsigned int i;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!h)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!he)
		return CUDA_ERROR_INVALID_HANDLE;
	pthread_mutex_lock(&vg_lock);
	r = vg_ctx_named(h, false, &ctx);
	e = r ? NULL : vg_event_find(he);
	if (!r && (!e || e->ctx != ctx))
		r = CUDA_ERROR_INVALID_HANDLE;
	if (r) {
		pthread_mutex_unlock(&vg_lock);
		return r;
	}
	vg_ctx_begin(ctx);
	legacy = ctx->chans[VG_CHAN_LEGACY];
	r = vg_ctx_check(ctx);
	for (i = 2; i < ctx->nchans && !r; i++)
		r = vg_chan_after(legacy, ctx->chans[i], ctx->chans[i]->put);
	if (!r)
		r = vg_event_record(e, &ctx->legacy);
	vg_ctx_end(ctx);
	return r;
}

/*
 * Work queued on @h after this waits for @he's last record: every channel
 * but the host functions' waits now, and a channel added later waits when
 * it is added (ctx->waits_for). An event of another context is waited for
 * here, on the host, as cuStreamWaitEvent does.
 */
CUresult cuCtxWaitEvent(CUcontext h, CUevent he)
{
	struct vg_fence at = { 0 };
	struct CUctx_st *ctx;
	struct CUevent_st *e;
	bool recorded = false, slept = false;
	unsigned int i;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!h)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!he)
		return CUDA_ERROR_INVALID_HANDLE;
	pthread_mutex_lock(&vg_lock);
	r = vg_ctx_named(h, false, &ctx);
	e = r ? NULL : vg_event_find(he);
	if (!r && !e)
		r = CUDA_ERROR_INVALID_HANDLE;
	if (!r)
		r = vg_event_wait_other(e, ctx, false, &slept);
	/* The context may have gone while it slept; the event is done with. */
	if (!r && slept) {
		r = vg_ctx_named(h, false, &ctx);
		e = NULL;
	}
	if (r) {
		pthread_mutex_unlock(&vg_lock);
		return r;
	}
	vg_event_point_begin(e, ctx, &recorded, &at);
	r = vg_ctx_check(ctx);
	if (!r && recorded) {
		for (i = 0; i < ctx->nchans && !r; i++)
			if (i != VG_CHAN_HOSTFN)
				r = vg_chan_after(ctx->chans[i], at.ch, at.seqno);
		if (!r)
			ctx->waits_for = at;
	}
	vg_ctx_end(ctx);
	return r;
}

/* NULL: the current context. Another context need not be current. */
CUresult cuCtxSynchronize_v2(CUcontext h)
{
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_ctx_named(h, true, &ctx);
	if (r) {
		pthread_mutex_unlock(&vg_lock);
		return r;
	}
	vg_ctx_begin(ctx);
	r = vg_ctx_sync(ctx);
	vg_ctx_end(ctx);
	return r;
}

CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext h)
{
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	r = vg_ctx_named(h, true, &ctx);
	if (!r)
		*device = ctx->dev;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* vgpu has no green contexts: *@green is always NULL. */
CUresult cuStreamGetCtx_v2(CUstream hs, CUcontext *pctx, CUgreenCtx *green)
{
	CUcontext c;
	CUresult r;

	if (!pctx && !green)
		return CUDA_ERROR_INVALID_VALUE;
	r = cuStreamGetCtx(hs, &c);
	if (r)
		return r;
	if (pctx)
		*pctx = c;
	if (green)
		*green = NULL;
	return CUDA_SUCCESS;
}
