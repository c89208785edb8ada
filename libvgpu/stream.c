// SPDX-License-Identifier: MIT
/*
 * Streams: cuStreamCreate and friends, the legacy default stream's
 * implicit synchronization, and the per-thread default streams.
 *
 * A stream is an order over commands; a channel is the device's. Streams
 * share a bounded number of channels (CUDA_DEVICE_MAX_CONNECTIONS, 8 by
 * default, as on NVIDIA's driver): a stream keeps one channel for life,
 * so its work stays in order, and streams that share one are ordered
 * among themselves too, which CUDA allows. Blocking and non-blocking
 * streams never share a channel while there is room, so a non-blocking
 * stream is not held up by the legacy stream's barriers.
 *
 * The legacy default stream (NULL or CU_STREAM_LEGACY) is its context's
 * first channel. Work queued on it waits for all work queued before on
 * blocking streams, and work queued on a blocking stream waits for the
 * legacy stream's earlier work: vg_stream_enter() puts those waits in
 * front (vg_chan_after(), nothing when the work is already done or
 * already waited for). A per-thread default stream (CU_STREAM_PER_THREAD)
 * is a blocking stream of its own for each thread and context.
 *
 * Locking: streams are created, found and destroyed under vg_lock; their
 * channel state (and @last) changes under their context's lock.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "vg.h"

#define VG_STREAM_CHANS_DEFAULT 8
#define VG_PRIORITY_LEAST 0
#define VG_PRIORITY_GREATEST (-5)

bool vg_launch_blocking;

/* The last stream id given out: the legacy streams' too. */
static uint64_t vg_stream_ids;

static pthread_key_t vg_ptds_key;
static pthread_once_t vg_ptds_once = PTHREAD_ONCE_INIT;

/* CUDA_DEVICE_MAX_CONNECTIONS: 1 to 32, else the default. */
static unsigned int vg_stream_chans(void)
{
	const char *env = getenv("CUDA_DEVICE_MAX_CONNECTIONS");
	char *end;
	long n;

	if (!env || !*env)
		return VG_STREAM_CHANS_DEFAULT;
	errno = 0;
	n = strtol(env, &end, 10);
	if (errno || *end || n < 1)
		return VG_STREAM_CHANS_DEFAULT;
	return n > VG_STREAM_CHANS_MAX ? VG_STREAM_CHANS_MAX : (unsigned int)n;
}

/*
 * A new stream's id and attributes: no access policy window, no
 * synchronization policy set (it reads -1, as on an H100), kernels in the
 * default domain, and the remote domain mapped to domain 1 when the device
 * has one (MEM_SYNC_DOMAIN_COUNT), as on an H100, else to domain 0.
 */
static void vg_stream_defaults(struct CUstream_st *st)
{
	int domains = 1;

	vg_attribute(&vg_devices[st->ctx->dev].info,
		     CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT, &domains);
	st->id = __atomic_add_fetch(&vg_stream_ids, 1, __ATOMIC_RELAXED);
	memset(&st->window, 0, sizeof(st->window));
	st->sync_policy = -1;
	st->mem_sync_domain = CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT;
	st->domain_map.default_ = 0;
	st->domain_map.remote = domains > 1;
}

/* A context's legacy stream, each time the context opens. */
void vg_stream_init_legacy(struct CUctx_st *ctx)
{
	ctx->legacy = (struct CUstream_st){
		.magic = VG_STREAM_MAGIC, .ctx = ctx,
		.ch = ctx->chans[VG_CHAN_LEGACY], .legacy = true,
	};
	vg_stream_defaults(&ctx->legacy);
	ctx->streams = NULL;
}

/*
 * A channel for a new stream, with the context's lock held: a new one
 * while under the limit, else an unused or idle one of the same kind,
 * else the least shared one of the same kind, else the least shared.
 */
static CUresult vg_stream_place(struct CUctx_st *ctx, bool nonblocking,
				struct vg_chan **pch)
{
	struct vg_chan *ch, *same = NULL, *any = NULL;
	unsigned int i;
	CUresult r;

	for (i = 2; i < ctx->nchans; i++) {
		ch = ctx->chans[i];
		if (!ch->streams && ch->nonblocking == nonblocking)
			goto take;
	}
	if (ctx->nchans - 2 < vg_stream_chans()) {
		r = vg_chan_add(ctx, &ch);
		/* The context's work waits for an event (cuCtxWaitEvent). */
		if (r == CUDA_SUCCESS && ctx->waits_for.ch)
			r = vg_chan_after(ch, ctx->waits_for.ch,
					  ctx->waits_for.seqno);
		if (r)
			return r;
		ch->nonblocking = nonblocking;
		goto take;
	}
	for (i = 2; i < ctx->nchans; i++) {
		ch = ctx->chans[i];
		/* Unused and done: its kind may change. */
		if (!ch->streams && vg_chan_reached(ch, ch->put)) {
			ch->nonblocking = nonblocking;
			goto take;
		}
		if (ch->nonblocking == nonblocking &&
		    (!same || ch->streams < same->streams))
			same = ch;
		if (!any || ch->streams < any->streams)
			any = ch;
	}
	ch = same ? same : any;
take:
	ch->streams++;
	*pch = ch;
	return CUDA_SUCCESS;
}

/* With vg_lock held: a new stream of @ctx, on the context's list. */
static CUresult vg_stream_new(struct CUctx_st *ctx, unsigned int flags,
			      int priority, struct CUstream_st **pst)
{
	struct CUstream_st *st = calloc(1, sizeof(*st));
	CUresult r;

	if (!st)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&ctx->lock);
	r = vg_stream_place(ctx, flags & CU_STREAM_NON_BLOCKING, &st->ch);
	pthread_mutex_unlock(&ctx->lock);
	if (r) {
		free(st);
		return r;
	}
	st->magic = VG_STREAM_MAGIC;
	st->ctx = ctx;
	st->flags = flags;
	st->priority = priority;
	vg_stream_defaults(st);
	st->next = ctx->streams;
	ctx->streams = st;
	*pst = st;
	return CUDA_SUCCESS;
}

/* With vg_lock held. Work already queued goes on; the channel stays. */
static void vg_stream_free(struct CUstream_st *st)
{
	struct CUstream_st **pp;

	for (pp = &st->ctx->streams; *pp; pp = &(*pp)->next)
		if (*pp == st) {
			*pp = st->next;
			break;
		}
	pthread_mutex_lock(&st->ctx->lock);
	if (st->ctx->fd >= 0)
		st->ch->streams--;
	pthread_mutex_unlock(&st->ctx->lock);
	vg_cap_stream_free(st);
	st->magic = 0;
	free(st);
}

/* Context teardown, with vg_lock held: its streams go with it. */
void vg_streams_close(struct CUctx_st *ctx)
{
	while (ctx->streams)
		vg_stream_free(ctx->streams);
}

/* A thread's exit: its per-thread default streams go. */
static void vg_ptds_exit(void *unused)
{
	pthread_t self = pthread_self();
	struct CUstream_st *st, *next;
	struct CUctx_st *ctx;

	(void)unused;
	pthread_mutex_lock(&vg_lock);
	for (ctx = vg_ctx_next(NULL); ctx; ctx = vg_ctx_next(ctx))
		for (st = ctx->streams; st; st = next) {
			next = st->next;
			if (st->per_thread && pthread_equal(st->owner, self))
				vg_stream_free(st);
		}
	pthread_mutex_unlock(&vg_lock);
}

static void vg_ptds_key_init(void)
{
	if (pthread_key_create(&vg_ptds_key, vg_ptds_exit))
		abort();
}

/* The calling thread's default stream in @ctx, made on first use. */
static CUresult vg_stream_per_thread(struct CUctx_st *ctx,
				     struct CUstream_st **pst)
{
	pthread_t self = pthread_self();
	struct CUstream_st *st;
	CUresult r;

	for (st = ctx->streams; st; st = st->next)
		if (st->per_thread && pthread_equal(st->owner, self)) {
			*pst = st;
			return CUDA_SUCCESS;
		}
	pthread_once(&vg_ptds_once, vg_ptds_key_init);
	r = vg_stream_new(ctx, 0, VG_PRIORITY_LEAST, &st);
	if (r)
		return r;
	st->per_thread = true;
	st->owner = self;
	/* Any non-NULL value makes the destructor run at thread exit. */
	pthread_setspecific(vg_ptds_key, (void *)1);
	*pst = st;
	return CUDA_SUCCESS;
}

/* Is @h a stream this library made and has not destroyed? vg_lock held. */
static struct CUstream_st *vg_stream_find(CUstream h)
{
	struct CUstream_st *st;
	struct CUctx_st *ctx;

	for (ctx = vg_ctx_next(NULL); ctx; ctx = vg_ctx_next(ctx))
		for (st = ctx->streams; st; st = st->next)
			if (st == h)
				return st;
	return NULL;
}

/**
 * vg_stream_resolve() - the stream a handle names, with vg_lock held: the
 * current context's legacy or per-thread default stream for NULL,
 * CU_STREAM_LEGACY and CU_STREAM_PER_THREAD, else a created stream, whose
 * context must be open. *@pctx is the stream's context.
 */
CUresult vg_stream_resolve(CUstream h, struct CUctx_st **pctx,
			   struct CUstream_st **pst)
{
	struct CUstream_st *st;
	CUresult r;

	if (!h || h == CU_STREAM_LEGACY || h == CU_STREAM_PER_THREAD) {
		r = vg_current_open(pctx);
		if (r)
			return r;
		if (h == CU_STREAM_PER_THREAD)
			return vg_stream_per_thread(*pctx, pst);
		*pst = &(*pctx)->legacy;
		return CUDA_SUCCESS;
	}
	st = vg_stream_find(h);
	if (!st)
		return CUDA_ERROR_INVALID_HANDLE;
	if (st->ctx->fd < 0)
		return CUDA_ERROR_CONTEXT_IS_DESTROYED;
	*pctx = st->ctx;
	*pst = st;
	return CUDA_SUCCESS;
}

/*
 * Before queueing work on @st (its context's lock held): the legacy
 * stream's implicit barrier against the blocking streams.
 */
CUresult vg_stream_enter(struct CUstream_st *st)
{
	struct CUctx_st *ctx = st->ctx;
	struct vg_chan *legacy = ctx->chans[VG_CHAN_LEGACY], *c;
	CUresult r = vg_ctx_check(ctx);
	unsigned int i;

	if (r)
		return r;
	if (st->legacy) {
		for (i = 2; i < ctx->nchans && r == CUDA_SUCCESS; i++) {
			c = ctx->chans[i];
			if (!c->nonblocking)
				r = vg_chan_after(legacy, c, c->put);
		}
		return r;
	}
	if (st->flags & CU_STREAM_NON_BLOCKING)
		return CUDA_SUCCESS;
	return vg_chan_after(st->ch, legacy, legacy->put);
}

/* Queues @cmd on @st, after its implicit waits. */
CUresult vg_push(struct CUstream_st *st, const struct vgpu_cmd *cmd,
		 uint64_t *seqno)
{
	CUresult r = vg_stream_enter(st);

	if (r == CUDA_SUCCESS)
		r = vg_chan_push(st->ch, cmd, seqno);
	if (r == CUDA_SUCCESS)
		st->last = st->ch->put;
	return r;
}

/* Waits for @st's point with the context's lock dropped. */
CUresult vg_stream_wait(struct CUstream_st *st, uint64_t seqno)
{
	return vg_wait_unlocked(st->ch, seqno, false);
}

/*
 * Everything queued on @st, and what its queueing now would wait for (the
 * legacy stream's barrier), has completed: host-side work in stream order.
 */
CUresult vg_stream_flush(struct CUstream_st *st)
{
	CUresult r = vg_stream_enter(st);

	return r ? r : vg_wait_unlocked(st->ch, st->ch->put, false);
}

/* Out of range priorities are clamped, as NVIDIA's driver does. */
int vg_stream_priority(int priority)
{
	if (priority > VG_PRIORITY_LEAST)
		return VG_PRIORITY_LEAST;
	return priority < VG_PRIORITY_GREATEST ? VG_PRIORITY_GREATEST :
		priority;
}

static CUresult vg_stream_create(CUstream *ph, unsigned int flags,
				 int priority)
{
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!ph || (flags & ~(unsigned int)CU_STREAM_NON_BLOCKING))
		return CUDA_ERROR_INVALID_VALUE;
	priority = vg_stream_priority(priority);
	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	if (r == CUDA_SUCCESS)
		r = vg_stream_new(ctx, flags, priority, &st);
	pthread_mutex_unlock(&vg_lock);
	if (r == CUDA_SUCCESS)
		*ph = st;
	return r;
}

CUresult cuStreamCreate(CUstream *ph, unsigned int flags)
{
	return vg_stream_create(ph, flags, VG_PRIORITY_LEAST);
}

CUresult cuStreamCreateWithPriority(CUstream *ph, unsigned int flags,
				    int priority)
{
	return vg_stream_create(ph, flags, priority);
}

CUresult cuCtxGetStreamPriorityRange(int *least, int *greatest)
{
	CUresult r = vg_current_check();

	if (r)
		return r;
	if (least)
		*least = VG_PRIORITY_LEAST;
	if (greatest)
		*greatest = VG_PRIORITY_GREATEST;
	return CUDA_SUCCESS;
}

CUresult cuStreamDestroy_v2(CUstream h)
{
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	vg_cap_stream_gone(h);
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(h, &ctx, &st);
	if (r == CUDA_SUCCESS && (st->legacy || st->per_thread))
		r = CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS) {
		vg_stream_free(st);
		/* Destroyed all the same; a failed context says so. */
		pthread_mutex_lock(&ctx->lock);
		r = vg_ctx_check(ctx);
		pthread_mutex_unlock(&ctx->lock);
	}
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/* The stream's state under vg_lock, for the getters. */
static CUresult vg_stream_get(CUstream h, struct CUstream_st *out)
{
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(h, &ctx, &st);
	if (r == CUDA_SUCCESS)
		*out = *st;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuStreamGetPriority(CUstream h, int *priority)
{
	struct CUstream_st st;
	CUresult r;

	if (!priority)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_stream_get(h, &st);
	if (r == CUDA_SUCCESS)
		*priority = st.priority;
	return r;
}

CUresult cuStreamGetFlags(CUstream h, unsigned int *flags)
{
	struct CUstream_st st;
	CUresult r;

	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_stream_get(h, &st);
	if (r == CUDA_SUCCESS)
		*flags = st.flags;
	return r;
}

CUresult cuStreamGetCtx(CUstream h, CUcontext *pctx)
{
	struct CUstream_st st;
	CUresult r;

	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_stream_get(h, &st);
	if (r == CUDA_SUCCESS)
		*pctx = st.ctx;
	return r;
}

/*
 * Takes @h's context for channel work: *@pst is the stream, its context's
 * lock is held and vg_lock is not (vg_ctx_end() undoes it).
 */
static CUresult vg_stream_begin(CUstream h, struct CUstream_st **pst)
{
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(h, &ctx, pst);
	if (r) {
		pthread_mutex_unlock(&vg_lock);
		return r;
	}
	vg_ctx_begin(ctx);
	return CUDA_SUCCESS;
}

/*
 * Has @st's work completed? For the legacy stream that includes the
 * blocking streams' work queued so far, which its next work would wait for
 * (NVIDIA's driver answers so too).
 */
static bool vg_stream_done(struct CUstream_st *st)
{
	struct CUctx_st *ctx = st->ctx;
	unsigned int i;

	if (!st->legacy)
		return vg_chan_reached(st->ch, st->last);
	for (i = 0; i < ctx->nchans; i++)
		if ((i == VG_CHAN_LEGACY || (i > VG_CHAN_HOSTFN &&
					     !ctx->chans[i]->nonblocking)) &&
		    !vg_chan_reached(ctx->chans[i], ctx->chans[i]->put))
			return false;
	return true;
}

CUresult cuStreamQuery(CUstream h)
{
	struct CUstream_st *st;
	CUresult r = vg_cap_stream_sync(h);

	if (r)
		return r;
	r = vg_stream_begin(h, &st);
	if (r)
		return r;
	if (!vg_stream_done(st))
		r = CUDA_ERROR_NOT_READY;
	if (r == CUDA_SUCCESS)
		r = vg_ctx_check(st->ctx);
	vg_ctx_end(st->ctx);
	return r;
}

CUresult cuStreamSynchronize(CUstream h)
{
	struct CUstream_st *st;
	CUresult r = vg_cap_stream_sync(h);

	if (r)
		return r;
	r = vg_stream_begin(h, &st);
	if (r)
		return r;
	r = vg_ctx_check(st->ctx);
	if (r == CUDA_SUCCESS && st->legacy)
		r = vg_stream_flush(st);
	else if (r == CUDA_SUCCESS)
		r = vg_wait_unlocked(st->ch, st->last, false);
	if (r == CUDA_SUCCESS) {
		vg_printf_drain(st->ctx);
		vg_pools_sync(st->ctx);
	}
	vg_ctx_end(st->ctx);
	return r;
}

/*
 * Work queued on @h after this waits for @e's last record (none: no wait).
 * An event of another context lives in that context's memory, which this
 * one's engines cannot reach: the wait for it happens here, on the host.
 */
CUresult cuStreamWaitEvent(CUstream h, CUevent e, unsigned int flags)
{
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	struct vg_fence at = { 0 };
	bool recorded = false, slept = false, taken = false;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (flags & ~(unsigned int)CU_EVENT_WAIT_EXTERNAL)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_cap_event_wait(h, e, flags, &taken);
	if (r || taken)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(h, &ctx, &st);
	if (r == CUDA_SUCCESS && !vg_event_find(e))
		r = CUDA_ERROR_INVALID_HANDLE;
	if (r == CUDA_SUCCESS)
		r = vg_event_wait_other(e, ctx, true, &slept);
	/* The stream may have gone while it slept; the event is done with. */
	if (r == CUDA_SUCCESS && slept) {
		r = vg_stream_resolve(h, &ctx, &st);
		e = NULL;
	}
	if (r) {
		pthread_mutex_unlock(&vg_lock);
		return r;
	}
	vg_event_point_begin(e, ctx, &recorded, &at);
	r = vg_stream_enter(st);
	if (r == CUDA_SUCCESS && recorded)
		r = vg_chan_after(st->ch, at.ch, at.seqno);
	/* An interprocess event of this context: its engine waits. */
	if (r == CUDA_SUCCESS && e && e->ipc)
		r = vg_ipc_event_wait(e, st);
	if (r == CUDA_SUCCESS)
		st->last = st->ch->put;
	vg_ctx_end(ctx);
	return r;
}
