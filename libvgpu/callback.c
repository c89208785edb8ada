// SPDX-License-Identifier: MIT
/*
 * Host functions in streams: cuLaunchHostFunc and cuStreamAddCallback.
 *
 * A host function queued on a stream runs on a thread of libvgpu once the
 * stream's earlier work has completed, and the stream's later work waits
 * until it has returned. On the device side that is a SEM_ACQUIRE of the
 * channel's token word in the sync area; the thread, after the function
 * returns, releases the token through the context's VG_CHAN_HOSTFN
 * channel, whose completion makes the module look at blocked waits again
 * at once.
 *
 * Each channel that has had a host function has its own thread, which
 * runs that channel's functions in order: functions of different channels
 * never wait for one another (one could depend on the other's stream).
 * The threads end with the context. An item without a token (queued in a
 * failed context) waits for nothing and releases nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <time.h>

#include "capture.h"
#include "vg.h"

struct vg_hostfn {
	struct vg_hostfn *next;
	CUstreamCallback cb;	/* cuStreamAddCallback's, or */
	CUhostFn fn;		/* cuLaunchHostFunc's */
	void *data;
	CUstream stream;	/* as given, for the callback */
	uint64_t after;		/* runs once the channel has completed this */
	uint64_t token;		/* then releases this */
};

struct vg_hostfn_queue {
	pthread_t thread;
	pthread_mutex_t lock;	/* the list and @stop */
	pthread_cond_t more;
	struct vg_hostfn *head, **tail;
	bool stop;
	struct vg_chan *ch;
};

/*
 * Waits for the channel's point without the context's lock, a little at a
 * time so that the context's end is noticed. False: give up.
 */
static bool vg_hostfn_wait(struct vg_hostfn_queue *q, uint64_t seqno)
{
	struct vg_chan *ch = q->ch;
	struct vgpu_chan_wait w = { .seqno = seqno, .handle = ch->handle };
	struct timespec ts;
	bool stop;
	int err;

	/* What it waits for may sit in a batch not yet told of. */
	err = vg_chan_reached(ch, seqno) ? 0 : vg_chan_ring(ch, seqno);
	if (err)
		return err == EIO;	/* failed: the function runs, told so */
	for (;;) {
		if (vg_chan_reached(ch, seqno))
			return true;
		pthread_mutex_lock(&q->lock);
		stop = q->stop;
		pthread_mutex_unlock(&q->lock);
		if (stop)
			return false;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		w.deadline_ns = (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec +
			50000000LL;
		if (ioctl(ch->ctx->fd, VGPU_IOCTL_CHAN_WAIT, &w) == 0)
			return true;
		/* A failed channel: the function still runs, told so. */
		if (errno == EIO)
			return true;
		if (errno != ETIME && errno != EINTR)
			return false;
	}
}

static void *vg_hostfn_main(void *arg)
{
	struct vg_hostfn_queue *q = arg;
	struct CUctx_st *ctx = q->ch->ctx;
	struct vgpu_cmd cmd = { .op = VGPU_CMD_SEM_RELEASE };
	struct vg_hostfn *h;
	CUresult status;

	for (;;) {
		pthread_mutex_lock(&q->lock);
		while (!q->head && !q->stop)
			pthread_cond_wait(&q->more, &q->lock);
		h = q->head;
		pthread_mutex_unlock(&q->lock);
		if (!h || !vg_hostfn_wait(q, h->after))
			break;
		/*
		 * In a failed context a callback is told the error and a
		 * host function is not called, as on NVIDIA's driver. This
		 * thread cannot take the context's lock (vg_hostfn_stop()
		 * joins it under that lock): it reads the error only.
		 */
		status = vg_ctx_error(ctx);
		if (h->cb)
			h->cb(h->stream, status, h->data);
		else if (status == CUDA_SUCCESS)
			h->fn(h->data);
		if (h->token) {
			cmd.sem.addr = (uintptr_t)vg_sync_token(ctx, q->ch->index);
			cmd.sem.value = h->token;
			pthread_mutex_lock(&ctx->hostfn_lock);
			vg_chan_push(ctx->chans[VG_CHAN_HOSTFN], &cmd, NULL);
			pthread_mutex_unlock(&ctx->hostfn_lock);
		}
		pthread_mutex_lock(&q->lock);
		q->head = h->next;
		if (!q->head)
			q->tail = &q->head;
		pthread_mutex_unlock(&q->lock);
		free(h);
	}
	return NULL;
}

/* The channel's queue and thread, started on first use. */
static CUresult vg_hostfn_queue_get(struct vg_chan *ch)
{
	struct vg_hostfn_queue *q;

	if (ch->hostfn)
		return CUDA_SUCCESS;
	q = calloc(1, sizeof(*q));
	if (!q)
		return CUDA_ERROR_OUT_OF_MEMORY;
	q->ch = ch;
	q->tail = &q->head;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->more, NULL);
	if (pthread_create(&q->thread, NULL, vg_hostfn_main, q)) {
		pthread_cond_destroy(&q->more);
		pthread_mutex_destroy(&q->lock);
		free(q);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	ch->hostfn = q;
	return CUDA_SUCCESS;
}

/*
 * Context teardown, before its file closes: each thread finishes the
 * function it is running and ends; functions still waiting for their
 * stream are dropped.
 */
void vg_hostfn_stop(struct CUctx_st *ctx)
{
	struct vg_hostfn_queue *q;
	struct vg_hostfn *h;
	unsigned int i;

	for (i = 0; i < ctx->nchans; i++) {
		q = ctx->chans[i]->hostfn;
		if (!q)
			continue;
		pthread_mutex_lock(&q->lock);
		q->stop = true;
		pthread_cond_signal(&q->more);
		pthread_mutex_unlock(&q->lock);
		pthread_join(q->thread, NULL);
		while ((h = q->head)) {
			q->head = h->next;
			free(h);
		}
		pthread_cond_destroy(&q->more);
		pthread_mutex_destroy(&q->lock);
		free(q);
		ctx->chans[i]->hostfn = NULL;
	}
}

static CUresult vg_hostfn_queue(CUstream hs, CUstreamCallback cb, CUhostFn fn,
				void *data)
{
	struct vgpu_cmd cmd = { .op = VGPU_CMD_SEM_ACQUIRE, .flags = VGPU_SEM_GEQ };
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	struct vg_hostfn *h;
	struct vg_chan *ch;
	bool failed;
	CUresult r = vg_check_init();

	if (r)
		return r;
	h = calloc(1, sizeof(*h));
	if (!h)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	if (r) {
		pthread_mutex_unlock(&vg_lock);
		free(h);
		return r;
	}
	vg_ctx_begin(ctx);
	ch = st->ch;
	/*
	 * A failed context still takes host functions (NVIDIA's returns 0):
	 * callbacks run, told the error, with nothing queued on the device.
	 */
	failed = vg_ctx_check(ctx) != CUDA_SUCCESS;
	r = failed ? CUDA_SUCCESS : vg_stream_enter(st);
	if (r == CUDA_SUCCESS)
		r = vg_sync_get(ctx);
	if (r == CUDA_SUCCESS)
		r = vg_hostfn_queue_get(ch);
	h->cb = cb;
	h->fn = fn;
	h->data = data;
	h->stream = hs;
	if (r == CUDA_SUCCESS && !failed) {
		h->after = ch->put;
		h->token = ++ch->hostfn_token;
		cmd.sem.addr = (uintptr_t)vg_sync_token(ctx, ch->index);
		cmd.sem.value = h->token;
		r = vg_chan_push(ch, &cmd, NULL);
	}
	if (r == CUDA_SUCCESS) {
		pthread_mutex_lock(&ch->hostfn->lock);
		*ch->hostfn->tail = h;
		ch->hostfn->tail = &h->next;
		pthread_cond_signal(&ch->hostfn->more);
		pthread_mutex_unlock(&ch->hostfn->lock);
		st->last = ch->put;
		h = NULL;
	}
	vg_ctx_end(ctx);
	free(h);
	return r;
}

CUresult cuLaunchHostFunc(CUstream hs, CUhostFn fn, void *data)
{
	bool taken = false;
	CUresult r;

	if (!fn)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_cap_host(fn, data, hs, &taken);
	if (r || taken)
		return r;
	return vg_hostfn_queue(hs, NULL, fn, data);
}

CUresult cuStreamAddCallback(CUstream hs, CUstreamCallback cb, void *data,
			     unsigned int flags)
{
	CUresult r;

	if (!cb || flags)
		return CUDA_ERROR_INVALID_VALUE;
	/* A callback is told the stream's status, which a graph has not. */
	r = vg_cap_refuse(hs);
	return r ? r : vg_hostfn_queue(hs, cb, NULL, data);
}
