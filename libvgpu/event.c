// SPDX-License-Identifier: MIT
/*
 * Events. A record is a point in a stream's channel (struct vg_fence),
 * marked by a release of the channel's fence word so that other channels
 * can wait for exactly that point (cuStreamWaitEvent). A timing event also
 * has a slot in the sync area where the engine writes the time the record
 * was reached: CLOCK_MONOTONIC in ns, taken when every command before it
 * has completed. cuEventElapsedTime subtracts two of them.
 *
 * A slot has one writer at a time: an event recorded again on another
 * channel before its last record was reached makes the new record wait for
 * the old one. A destroyed event whose record is still pending keeps its
 * slot until the record is reached.
 *
 * Locking: events are created, found and destroyed under vg_lock; a
 * record and the slots change under the context's lock.
 */
#include <stdlib.h>

#include "capture.h"
#include "vg.h"

static struct CUevent_st *vg_events;	/* the registry, under vg_lock */

struct CUevent_st *vg_event_find(CUevent e)
{
	struct CUevent_st *ev;

	if (!e)
		return NULL;
	for (ev = vg_events; ev; ev = ev->next)
		if (ev == e)
			return ev;
	return NULL;
}

static bool vg_event_timed(const struct CUevent_st *e)
{
	return !(e->flags & CU_EVENT_DISABLE_TIMING);
}

/* Frees the slots of destroyed events whose records were reached. */
static void vg_events_reap(struct CUctx_st *ctx)
{
	struct CUevent_st **pp = &ctx->dead_events, *e;

	while ((e = *pp)) {
		if (vg_chan_reached(e->at.ch, e->at.seqno)) {
			*pp = e->next;
			if (vg_event_timed(e))
				vg_slot_free(ctx, e->slot);
			vg_ipc_event_free(e, true);
			free(e);
		} else {
			pp = &e->next;
		}
	}
}

CUresult cuEventCreate(CUevent *pe, unsigned int flags)
{
	const unsigned int known = CU_EVENT_BLOCKING_SYNC |
		CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
	struct CUevent_st *e;
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pe || (flags & ~known) ||
	    ((flags & CU_EVENT_INTERPROCESS) && !(flags & CU_EVENT_DISABLE_TIMING)))
		return CUDA_ERROR_INVALID_VALUE;
	e = calloc(1, sizeof(*e));
	if (!e)
		return CUDA_ERROR_OUT_OF_MEMORY;
	e->magic = VG_EVENT_MAGIC;
	e->flags = flags;
	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	if (r == CUDA_SUCCESS && vg_event_timed(e)) {
		pthread_mutex_lock(&ctx->lock);
		vg_events_reap(ctx);
		r = vg_slot_alloc(ctx, &e->slot);
		pthread_mutex_unlock(&ctx->lock);
	}
	if (r == CUDA_SUCCESS && (flags & CU_EVENT_INTERPROCESS))
		r = vg_ipc_event_create(ctx, e);
	if (r == CUDA_SUCCESS) {
		e->ctx = ctx;
		vg_event_add(e);
		*pe = e;
	} else {
		free(e);
	}
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* Enters @e, its context set, in the registry; with vg_lock held. */
void vg_event_add(struct CUevent_st *e)
{
	e->magic = VG_EVENT_MAGIC;
	e->next = vg_events;
	vg_events = e;
}

/* Unlinks @e from the registry; with vg_lock held. */
static void vg_event_unlink(struct CUevent_st *e)
{
	struct CUevent_st **pp;

	for (pp = &vg_events; *pp; pp = &(*pp)->next)
		if (*pp == e) {
			*pp = e->next;
			break;
		}
	e->magic = 0;
}

CUresult cuEventDestroy_v2(CUevent h)
{
	struct CUevent_st *e;
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	e = vg_event_find(h);
	if (!e) {
		pthread_mutex_unlock(&vg_lock);
		return CUDA_ERROR_INVALID_HANDLE;
	}
	vg_event_unlink(e);
	vg_cap_event_free(e);
	ctx = e->ctx;
	/* Destroyed all the same; a failed context says so. */
	r = vg_ctx_sticky(ctx);
	pthread_mutex_lock(&ctx->lock);
	if (ctx->fd >= 0 && !r)
		r = vg_ctx_check(ctx);
	/* An interprocess event's page stays while our engine may use it. */
	if (ctx->fd >= 0 && (vg_event_timed(e) || e->ipc) && e->recorded &&
	    !vg_chan_reached(e->at.ch, e->at.seqno)) {
		e->next = ctx->dead_events;
		ctx->dead_events = e;
		e = NULL;
	} else if (ctx->fd >= 0 && vg_event_timed(e)) {
		vg_slot_free(ctx, e->slot);
	}
	if (e)
		vg_ipc_event_free(e, ctx->fd >= 0);
	pthread_mutex_unlock(&ctx->lock);
	pthread_mutex_unlock(&vg_lock);
	free(e);
	return r;
}

/* Context teardown, with vg_lock held: its events go with it. */
void vg_events_close(struct CUctx_st *ctx)
{
	struct CUevent_st **pp = &vg_events, *e;

	while ((e = *pp)) {
		if (e->ctx == ctx) {
			*pp = e->next;
			e->magic = 0;
			vg_ipc_event_free(e, ctx->fd >= 0);
			vg_cap_event_free(e);
			free(e);
		} else {
			pp = &e->next;
		}
	}
	while ((e = ctx->dead_events)) {
		ctx->dead_events = e->next;
		vg_ipc_event_free(e, ctx->fd >= 0);
		free(e);
	}
}

/*
 * For a wait on @e by work of @ctx, with vg_lock held: an event of
 * another context, with a record, is waited for here, on the host (the
 * module has no wait across contexts), with no lock held, so that neither
 * context's other threads wait behind it, and that context held
 * (vg_ctx_hold()), so that destroying it wakes the wait rather than free
 * what the wait sleeps on. *@slept then: vg_lock was dropped meanwhile,
 * and what the caller found under it must be looked up again. The other
 * context's lock is taken, and let go, alone.
 */
CUresult vg_event_wait_other(struct CUevent_st *e, struct CUctx_st *ctx,
			     bool engine, bool *slept)
{
	struct CUctx_st *other = e->ctx;
	struct vg_fence at;
	bool recorded;
	CUresult r;

	*slept = false;
	/* An interprocess event's own context may wait on its engine. */
	if (e->ipc && !(engine && other == ctx)) {
		pthread_mutex_unlock(&vg_lock);
		vg_ipc_event_sleep(e);
		pthread_mutex_lock(&vg_lock);
		*slept = true;
		return CUDA_SUCCESS;
	}
	if (other == ctx)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&other->lock);
	recorded = e->recorded && other->fd >= 0;
	at = e->at;
	pthread_mutex_unlock(&other->lock);
	if (!recorded)
		return CUDA_SUCCESS;
	vg_ctx_hold(other);
	pthread_mutex_unlock(&vg_lock);
	r = vg_fence_sleep(at);
	pthread_mutex_lock(&vg_lock);
	vg_ctx_release(other);
	*slept = true;
	return r;
}

/*
 * For a wait on @e (or NULL: none) by work of @ctx, with vg_lock held:
 * whether @e, if it is @ctx's own, has a record, and its point; returns
 * with @ctx entered (vg_ctx_begin()). Another context's event was waited
 * for already (vg_event_wait_other()).
 */
void vg_event_point_begin(struct CUevent_st *e, struct CUctx_st *ctx,
			  bool *recorded, struct vg_fence *at)
{
	vg_ctx_begin(ctx);
	*recorded = e && e->ctx == ctx && e->recorded && !e->ipc;
	if (*recorded)
		*at = e->at;
}

/**
 * vg_event_record() - records @e at the end of @st, whose context's lock
 * is held.
 */
CUresult vg_event_record(struct CUevent_st *e, struct CUstream_st *st)
{
	struct vgpu_cmd cmd = { .op = VGPU_CMD_SEM_RELEASE };
	struct CUctx_st *ctx = st->ctx;
	struct vg_chan *ch = st->ch;
	CUresult r;

	if (e->ipc)
		return vg_ipc_event_record(e, st);
	r = vg_stream_enter(st);
	if (r == CUDA_SUCCESS && vg_event_timed(e)) {
		if (e->recorded)
			r = vg_chan_after(ch, e->at.ch, e->at.seqno);
		cmd.flags = VGPU_SEM_TIMESTAMP;
		cmd.sem.addr = (uintptr_t)vg_sync_slot(ctx, e->slot);
		cmd.sem.value = ch->put + 1;
		if (r == CUDA_SUCCESS)
			r = vg_chan_push(ch, &cmd, NULL);
	}
	/* Marked now, so a stream waiting later waits for this point only. */
	if (r == CUDA_SUCCESS)
		r = vg_chan_mark(ch);
	if (r == CUDA_SUCCESS) {
		e->recorded = true;
		e->at = (struct vg_fence){ .ch = ch, .seqno = ch->put };
		st->last = ch->put;
	}
	return r;
}

CUresult cuEventRecordWithFlags(CUevent h, CUstream hs, unsigned int flags)
{
	bool taken = false;
	struct CUstream_st *st;
	struct CUevent_st *e;
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (flags & ~(unsigned int)CU_EVENT_RECORD_EXTERNAL)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_cap_event_record(h, hs, flags, &taken);
	if (r || taken)
		return r;
	/* External records belong to stream capture. */
	if (flags)
		return CUDA_ERROR_ILLEGAL_STATE;
	pthread_mutex_lock(&vg_lock);
	e = vg_event_find(h);
	r = e ? vg_stream_resolve(hs, &ctx, &st) : CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS && e->ctx != ctx)
		r = CUDA_ERROR_INVALID_HANDLE;
	if (r) {
		pthread_mutex_unlock(&vg_lock);
		return r;
	}
	vg_ctx_begin(ctx);
	r = vg_event_record(e, st);
	vg_ctx_end(ctx);
	return r;
}

CUresult cuEventRecord(CUevent h, CUstream hs)
{
	return cuEventRecordWithFlags(h, hs, 0);
}

/* vg_event_begin() with vg_lock held already. */
static CUresult vg_event_begin_locked(CUevent h, struct CUevent_st **pe)
{
	struct CUevent_st *e = vg_event_find(h);

	if (!e) {
		pthread_mutex_unlock(&vg_lock);
		return CUDA_ERROR_INVALID_HANDLE;
	}
	vg_ctx_begin(e->ctx);
	*pe = e;
	return CUDA_SUCCESS;
}

/* Takes @h's context's lock (vg_ctx_end() undoes it). */
static CUresult vg_event_begin(CUevent h, struct CUevent_st **pe)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	return vg_event_begin_locked(h, pe);
}

/* A never-recorded event counts as complete, as on NVIDIA's driver. */
CUresult cuEventQuery(CUevent h)
{
	struct CUevent_st *e;
	CUresult r = vg_cap_event_use(h);

	if (r)
		return r;
	r = vg_event_begin(h, &e);
	if (r)
		return r;
	r = vg_ctx_check(e->ctx);
	if (r == CUDA_SUCCESS && e->ipc && !vg_ipc_event_done(e))
		r = CUDA_ERROR_NOT_READY;
	else if (r == CUDA_SUCCESS && e->recorded &&
		 !vg_chan_reached(e->at.ch, e->at.seqno))
		r = CUDA_ERROR_NOT_READY;
	vg_ctx_end(e->ctx);
	return r;
}

CUresult cuEventSynchronize(CUevent h)
{
	struct CUevent_st *e;
	CUresult r = vg_cap_event_use(h);

	if (r)
		return r;
	r = vg_event_begin(h, &e);
	if (r)
		return r;
	r = vg_ctx_check(e->ctx);
	/* Records of other processes come from no channel of ours. */
	if (r == CUDA_SUCCESS && e->ipc) {
		vg_ctx_end(e->ctx);
		vg_ipc_event_sleep(e);
		pthread_mutex_lock(&vg_lock);
		r = vg_event_begin_locked(h, &e);
		if (r)
			return r;
	} else if (r == CUDA_SUCCESS && e->recorded) {
		r = vg_wait_unlocked(e->at.ch, e->at.seqno,
				     e->flags & CU_EVENT_BLOCKING_SYNC);
	}
	/* A synchronizing call: what kernels printed comes out, as on CUDA. */
	if (r == CUDA_SUCCESS) {
		vg_printf_drain(e->ctx);
		vg_pools_sync(e->ctx);
	}
	vg_ctx_end(e->ctx);
	return r;
}

/*
 * Milliseconds from @start's record to @end's, from the engine's clock.
 * Both must be timing events of one context, recorded and reached.
 */
CUresult cuEventElapsedTime_v2(float *ms, CUevent start, CUevent end)
{
	struct CUevent_st *a, *b;
	struct CUctx_st *ctx;
	int64_t ns;
	CUresult r = vg_check_init();

	if (r)
		return r;
	/* NVIDIA's driver answers 400 here, not 1. */
	if (!ms)
		return CUDA_ERROR_INVALID_HANDLE;
	pthread_mutex_lock(&vg_lock);
	a = vg_event_find(start);
	b = vg_event_find(end);
	if (!a || !b || a->ctx != b->ctx) {
		pthread_mutex_unlock(&vg_lock);
		return CUDA_ERROR_INVALID_HANDLE;
	}
	ctx = a->ctx;
	vg_ctx_begin(ctx);
	if (!vg_event_timed(a) || !vg_event_timed(b) || !a->recorded ||
	    !b->recorded) {
		r = CUDA_ERROR_INVALID_HANDLE;
	} else {
		r = vg_ctx_check(ctx);
		if (r == CUDA_SUCCESS &&
		    (!vg_chan_reached(a->at.ch, a->at.seqno) ||
		     !vg_chan_reached(b->at.ch, b->at.seqno)))
			r = CUDA_ERROR_NOT_READY;
	}
	if (r == CUDA_SUCCESS) {
		ns = (int64_t)(vg_sync_slot(ctx, b->slot)[1] -
			       vg_sync_slot(ctx, a->slot)[1]);
		*ms = (float)((double)ns / 1e6);
	}
	vg_ctx_end(ctx);
	return r;
}
