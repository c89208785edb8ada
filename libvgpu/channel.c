// SPDX-License-Identifier: MIT
/*
 * A context's channels: the rings libvgpu writes commands into, the
 * doorbell, fences read from the status page, waits, and one channel
 * waiting for a point of another through the fence words of the sync area.
 * Also the pinned staging buffer through which pageable host memory is
 * copied, as NVIDIA's driver does. All of it is used with the context's
 * lock held, but for the VG_CHAN_HOSTFN channel (callback.c).
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "vg.h"

#define VG_RING 256

/* Creates channel number ctx->nchans. */
CUresult vg_chan_add(struct CUctx_st *ctx, struct vg_chan **pch)
{
	struct vgpu_chan_create cc = { .ring_size = VG_RING };
	struct vg_chan *ch;

	if (ctx->nchans == VG_MAX_CHANS)
		return CUDA_ERROR_OUT_OF_MEMORY;
	ch = calloc(1, sizeof(*ch));
	if (!ch)
		return CUDA_ERROR_OUT_OF_MEMORY;
	ch->ring = aligned_alloc(sizeof(struct vgpu_cmd),
				 VG_RING * sizeof(struct vgpu_cmd));
	if (!ch->ring) {
		free(ch);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	memset(ch->ring, 0, VG_RING * sizeof(struct vgpu_cmd));
	cc.ring = (uintptr_t)ch->ring;
	if (ioctl(ctx->fd, VGPU_IOCTL_CHAN_CREATE, &cc)) {
		CUresult r = errno == EMFILE ? CUDA_ERROR_OUT_OF_MEMORY :
			vg_errno_result(errno);

		free(ch->ring);
		free(ch);
		return r;
	}
	pthread_mutex_init(&ch->bell, NULL);
	ch->ctx = ctx;
	ch->handle = cc.handle;
	ch->index = ctx->nchans;
	ch->status = (const volatile struct vgpu_chan_status *)ctx->status_page +
		cc.handle;
	ctx->chans[ctx->nchans] = ch;
	/* Threads without the lock read the table (vg_ctx_error()). */
	__atomic_store_n(&ctx->nchans, ctx->nchans + 1, __ATOMIC_RELEASE);
	*pch = ch;
	return CUDA_SUCCESS;
}

/* The status page, the legacy stream's channel and the host functions'. */
CUresult vg_chans_open(struct CUctx_st *ctx)
{
	struct vg_chan *ch;
	void *status;
	CUresult r;

	status = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ,
		      MAP_SHARED, ctx->fd, 0);
	if (status == MAP_FAILED)
		return vg_errno_result(errno);
	ctx->status_page = status;
	ctx->nchans = 0;
	vg_ctx_set_sticky(ctx, CUDA_SUCCESS);
	r = vg_chan_add(ctx, &ch);
	if (r == CUDA_SUCCESS)
		r = vg_chan_add(ctx, &ch);
	if (r == CUDA_SUCCESS)
		vg_stream_init_legacy(ctx);
	return r;
}

/* After the file is closed: the channels went with it. */
void vg_chans_close(struct CUctx_st *ctx)
{
	unsigned int i;

	for (i = 0; i < ctx->nchans; i++) {
		pthread_mutex_destroy(&ctx->chans[i]->bell);
		free(ctx->chans[i]->ring);
		free(ctx->chans[i]);
		ctx->chans[i] = NULL;
	}
	ctx->nchans = 0;
	ctx->waits_for = (struct vg_fence){ 0 };
	if (ctx->status_page)
		munmap(ctx->status_page, (size_t)sysconf(_SC_PAGESIZE));
	if (ctx->stage)
		munmap(ctx->stage, VG_STAGE_SIZE);
	if (ctx->params)
		munmap(ctx->params, VG_PARAM_CHUNKS * VG_PARAM_CHUNK);
	vg_sync_free(ctx);
	/* Modules go with the context (their handles are dead). */
	ctx->modules = NULL;
	ctx->params = NULL;
	ctx->status_page = NULL;
	ctx->stage = NULL;
	memset(ctx->stage_fence, 0, sizeof(ctx->stage_fence));
	memset(ctx->param_seq, 0, sizeof(ctx->param_seq));
}

/*
 * The context is closing while other threads are in calls on it
 * (vg_ctx_close()): its channels are destroyed in the module, which wakes
 * every wait on them (CHAN_WAIT fails with ENOENT) and refuses new work,
 * so that those calls end. Channels are only added under the context's
 * lock, which this does not take: it reads the count they publish.
 */
void vg_chans_wake(struct CUctx_st *ctx)
{
	unsigned int i, n = __atomic_load_n(&ctx->nchans, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++) {
		struct vgpu_chan_destroy d = { .handle = ctx->chans[i]->handle };

		ioctl(ctx->fd, VGPU_IOCTL_CHAN_DESTROY, &d);
	}
}

static uint64_t vg_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * Has @ch completed @seqno commands? The module writes a failed command's
 * error before the fence that covers it, and a failure anywhere in the
 * context before the fences of the commands it made other channels skip:
 * with the fence read first, vg_ctx_check() afterwards sees such an error.
 */
bool vg_chan_reached(const struct vg_chan *ch, uint64_t seqno)
{
	uint64_t done = ch->status->completed;

	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return done >= seqno;
}

/*
 * How a waiter waits, by the context's scheduling flag, as on CUDA:
 * BLOCKING_SYNC sleeps in the kernel at once; SPIN polls the status page
 * until the work is done, and YIELD does too but yields the CPU between
 * looks. AUTO (the default), where CUDA would pick SPIN or YIELD, polls
 * for VG_SPIN_NS and then sleeps: short work (a small copy) completes
 * within it, and the "GPU" here runs on the same CPUs as the waiter, so a
 * long spin would take time from it. False: sleep in the kernel.
 */
#define VG_SPIN_NS 100000

static bool vg_chan_spin(struct vg_chan *ch, uint64_t seqno)
{
	struct CUctx_st *ctx = ch->ctx;
	unsigned int sched = __atomic_load_n(&ctx->flags, __ATOMIC_RELAXED) &
		CU_CTX_SCHED_MASK;
	uint64_t until = 0;
	unsigned int i;

	for (;;) {
		for (i = 0; i < 64; i++) {
			if (vg_chan_reached(ch, seqno))
				return true;
			if (ch->status->error)
				return false;
		}
		if (sched == CU_CTX_SCHED_BLOCKING_SYNC || vg_ctx_closing(ctx))
			return false;
		if (sched == CU_CTX_SCHED_YIELD)
			sched_yield();
		if (sched == CU_CTX_SCHED_SPIN || sched == CU_CTX_SCHED_YIELD)
			continue;
		if (!until)
			until = vg_now_ns() + VG_SPIN_NS;
		else if (vg_now_ns() > until)
			return false;
	}
}

/*
 * @ch has failed: the context's error is the sticky one, or else @ch's,
 * which becomes sticky and is reported (VGPU_ERROR_REPORT), once. The
 * context's lock is held: it guards the sticky error and the module list
 * the report reads.
 */
static CUresult vg_chan_fail(struct vg_chan *ch)
{
	struct CUctx_st *ctx = ch->ctx;
	CUresult r = vg_ctx_sticky(ctx);

	if (r)
		return r;
	r = vg_chan_failed(ch);
	/* The failed assert's message is printed as its error is known. */
	if (r == CUDA_ERROR_LAUNCH_FAILED && vg_fault_assert(ch))
		r = CUDA_ERROR_ASSERT;
	vg_ctx_set_sticky(ctx, r);
	if (r == CUDA_ERROR_ASSERT)
		vg_printf_drain(ctx);
	vg_fault_report(ch);
	return r;
}

/* The first failed channel of @ctx, or NULL; with or without its lock. */
static struct vg_chan *vg_ctx_failed_chan(struct CUctx_st *ctx)
{
	unsigned int i, n = __atomic_load_n(&ctx->nchans, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++)
		if (ctx->chans[i]->status->error)
			return ctx->chans[i];
	return NULL;
}

/*
 * The context's error, if a channel failed: the sticky one, or the first
 * failed channel's, which becomes sticky. The context's lock is held.
 */
CUresult vg_ctx_check(struct CUctx_st *ctx)
{
	struct vg_chan *ch;

	if (vg_ctx_sticky(ctx))
		return vg_ctx_sticky(ctx);
	ch = vg_ctx_failed_chan(ctx);
	return ch ? vg_chan_fail(ch) : CUDA_SUCCESS;
}

/*
 * The error vg_ctx_check() would return, for a thread that cannot take
 * the context's lock (callback.c's): nothing becomes sticky or is
 * reported here, but at the next check under the lock.
 */
CUresult vg_ctx_error(struct CUctx_st *ctx)
{
	struct vg_chan *ch;

	if (vg_ctx_sticky(ctx))
		return vg_ctx_sticky(ctx);
	ch = vg_ctx_failed_chan(ctx);
	return ch ? vg_chan_failed(ch) : CUDA_SUCCESS;
}

/*
 * Sleeps until @ch has completed @seqno commands (@blocking: sleep at
 * once, as CU_EVENT_BLOCKING_SYNC asks). Changes nothing in the context,
 * so the caller may or may not hold its lock. Returns 0, EIO when @ch has
 * failed, or another errno.
 */
static int vg_batch_ring(void);

static int vg_chan_sleep(struct vg_chan *ch, uint64_t seqno, bool blocking)
{
	struct vgpu_chan_wait w = { .seqno = seqno, .handle = ch->handle };
	int err;

	if (vg_chan_reached(ch, seqno))
		return 0;
	/*
	 * What it waits for may sit in a batch not yet told of, and wait in
	 * turn for commands of the batch's other channels (a graph's lanes).
	 */
	err = vg_batch_ring();
	if (!err)
		err = vg_chan_ring(ch, seqno);
	if (err)
		return err;
	if (!blocking && vg_chan_spin(ch, seqno))
		return 0;
	for (;;) {
		w.deadline_ns = (int64_t)(vg_now_ns() + 10000000000ULL);
		if (ioctl(ch->ctx->fd, VGPU_IOCTL_CHAN_WAIT, &w) == 0)
			return 0;
		if (errno != ETIME && errno != EINTR)
			return errno;
	}
}

/* How a wait on @ch that slept with @err ends; the context's lock held. */
static CUresult vg_chan_waited(struct vg_chan *ch, int err)
{
	if (vg_ctx_closing(ch->ctx))
		return CUDA_ERROR_CONTEXT_IS_DESTROYED;
	if (err == EIO)
		return vg_chan_fail(ch);
	return err ? vg_errno_result(err) : vg_ctx_check(ch->ctx);
}

/*
 * Waits until @ch has completed @seqno commands (@blocking: sleep at once,
 * as CU_EVENT_BLOCKING_SYNC asks), holding the context's lock throughout.
 */
CUresult vg_chan_wait(struct vg_chan *ch, uint64_t seqno, bool blocking)
{
	return vg_chan_waited(ch, vg_chan_sleep(ch, seqno, blocking));
}

/*
 * Waits with the context's lock dropped, so that other threads queue
 * work meanwhile (work they queue may be what this waits for). The caller
 * holds the lock and finds it held again, the context's state maybe
 * changed. The channel itself stays: channels go only with the file.
 */
CUresult vg_wait_unlocked(struct vg_chan *ch, uint64_t seqno, bool blocking)
{
	struct CUctx_st *ctx = ch->ctx;
	int err;

	if (vg_chan_reached(ch, seqno))
		return vg_ctx_check(ctx);
	if (vg_ctx_closing(ctx))
		return CUDA_ERROR_CONTEXT_IS_DESTROYED;
	pthread_mutex_unlock(&ctx->lock);
	err = vg_chan_sleep(ch, seqno, blocking);
	pthread_mutex_lock(&ctx->lock);
	/* A failure found asleep becomes sticky, and is reported, locked. */
	return vg_chan_waited(ch, err);
}

CUresult vg_fence_wait(struct vg_fence f)
{
	return f.ch ? vg_wait_unlocked(f.ch, f.seqno, false) : CUDA_SUCCESS;
}

/*
 * Waits for fence @f of another context than the caller's, holding no
 * lock: the caller holds that context (vg_ctx_hold()), so its closing
 * wakes this wait rather than free the channel under it. Nothing of that
 * context changes here: its failure is its own to make sticky, and only
 * its error is returned.
 */
CUresult vg_fence_sleep(struct vg_fence f)
{
	int err = vg_chan_sleep(f.ch, f.seqno, false);

	if (vg_ctx_closing(f.ch->ctx))
		return CUDA_ERROR_CONTEXT_IS_DESTROYED;
	if (err == EIO)
		return vg_chan_failed(f.ch);
	return err ? vg_errno_result(err) : CUDA_SUCCESS;
}

/*
 * A batch (vg_batch_begin() to vg_batch_end()): the channels this thread
 * wrote commands to without telling the module, rung at the end, so that
 * a graph's launch reaches the engines as one submission per channel.
 */
static __thread struct vg_chan *vg_batch_chans[VG_MAX_CHANS];
static __thread unsigned int vg_batch_nchans, vg_batch_depth;

/*
 * Tells the module of @ch's commands up to @put, which are in the ring:
 * 0, or the errno of CHAN_SUBMIT. Any thread may ring, for any count up
 * to what it has seen written (under the context's lock).
 */
int vg_chan_ring(struct vg_chan *ch, uint64_t put)
{
	struct vgpu_chan_submit s = { .handle = ch->handle, .put = put };
	int err = 0;

	pthread_mutex_lock(&ch->bell);
	if (put > ch->posted) {
		if (ioctl(ch->ctx->fd, VGPU_IOCTL_CHAN_SUBMIT, &s))
			err = errno;
		else
			ch->posted = put;
	}
	pthread_mutex_unlock(&ch->bell);
	return err;
}

/* Whether @ch's doorbell waits for the batch's end. */
static bool vg_batch_holds(struct vg_chan *ch)
{
	unsigned int i;

	if (!vg_batch_depth)
		return false;
	for (i = 0; i < vg_batch_nchans; i++)
		if (vg_batch_chans[i] == ch)
			return true;
	if (vg_batch_nchans == VG_MAX_CHANS)
		return false;
	vg_batch_chans[vg_batch_nchans++] = ch;
	return true;
}

/*
 * Tells the module of what this thread's batch holds so far, on every
 * channel, before the thread waits: 0, or the first errno.
 */
static int vg_batch_ring(void)
{
	unsigned int i;
	int err, first = 0;

	for (i = 0; i < vg_batch_nchans; i++) {
		err = vg_chan_ring(vg_batch_chans[i],
				   __atomic_load_n(&vg_batch_chans[i]->put, __ATOMIC_ACQUIRE));
		if (err && !first)
			first = err;
	}
	return first;
}

/* Commands this thread queues from here on wait for vg_batch_end(). */
void vg_batch_begin(void)
{
	vg_batch_depth++;
}

/*
 * Rings every channel of the batch, once each (the outermost end): the
 * first failure, or success. The context's lock is not needed.
 */
CUresult vg_batch_end(void)
{
	CUresult r = CUDA_SUCCESS;
	unsigned int i;
	int err;

	if (--vg_batch_depth)
		return CUDA_SUCCESS;
	for (i = 0; i < vg_batch_nchans; i++) {
		struct vg_chan *ch = vg_batch_chans[i];

		err = vg_chan_ring(ch, __atomic_load_n(&ch->put, __ATOMIC_ACQUIRE));
		if (err && !r)
			r = vg_ctx_closing(ch->ctx) ? CUDA_ERROR_CONTEXT_IS_DESTROYED :
				err == EIO ? vg_chan_failed(ch) : vg_errno_result(err);
	}
	vg_batch_nchans = 0;
	return r;
}

/* Queues @cmd; *@seqno (if given) is the fence that covers it. */
CUresult vg_chan_push(struct vg_chan *ch, const struct vgpu_cmd *cmd,
		      uint64_t *seqno)
{
	CUresult r;
	int err;

	/* The kernel queue holds a ring's worth: wait for room first. */
	if (ch->put >= VG_RING && !vg_chan_reached(ch, ch->put - VG_RING + 1)) {
		r = vg_chan_wait(ch, ch->put - VG_RING + 1, false);
		if (r)
			return r;
	}
	ch->ring[ch->put % VG_RING] = *cmd;
	if (!vg_batch_holds(ch)) {
		err = vg_chan_ring(ch, ch->put + 1);
		if (err)
			return vg_ctx_closing(ch->ctx) ? CUDA_ERROR_CONTEXT_IS_DESTROYED :
				err == EIO ? vg_chan_fail(ch) :
				err == EINVAL ? CUDA_ERROR_INVALID_VALUE :
				vg_errno_result(err);
	}
	__atomic_store_n(&ch->put, ch->put + 1, __ATOMIC_RELEASE);
	if (seqno)
		*seqno = ch->put;
	return CUDA_SUCCESS;
}

/* Puts a release of @c's fence word at the end of @c. */
CUresult vg_chan_mark(struct vg_chan *c)
{
	struct vgpu_cmd cmd = { .op = VGPU_CMD_SEM_RELEASE };
	CUresult r = vg_sync_get(c->ctx);

	if (r)
		return r;
	cmd.sem.addr = (uintptr_t)vg_sync_fence(c->ctx, c->index);
	cmd.sem.value = c->put + 1;
	r = vg_chan_push(c, &cmd, NULL);
	if (r == CUDA_SUCCESS)
		c->marked = c->put;
	return r;
}

/*
 * @ch's later commands wait until @c has completed @seqno. Nothing is
 * queued when @c is @ch, is there already, or @ch already waits for it.
 * The release goes at the end of @c unless one already covers @seqno.
 */
CUresult vg_chan_after(struct vg_chan *ch, struct vg_chan *c, uint64_t seqno)
{
	struct vgpu_cmd cmd = { .op = VGPU_CMD_SEM_ACQUIRE, .flags = VGPU_SEM_GEQ };
	CUresult r;

	if (c == ch || !seqno || seqno <= ch->waited[c->index] ||
	    vg_chan_reached(c, seqno))
		return CUDA_SUCCESS;
	if (c->marked < seqno) {
		r = vg_chan_mark(c);
		if (r)
			return r;
	}
	cmd.sem.addr = (uintptr_t)vg_sync_fence(ch->ctx, c->index);
	cmd.sem.value = seqno;
	r = vg_chan_push(ch, &cmd, NULL);
	if (r == CUDA_SUCCESS)
		ch->waited[c->index] = seqno;
	return r;
}

/*
 * Everything queued on every channel so far has completed (the waits with
 * the lock dropped: work queued meanwhile is not waited for).
 */
CUresult vg_ctx_idle(struct CUctx_st *ctx)
{
	uint64_t put[VG_MAX_CHANS];
	unsigned int i, n = ctx->nchans;
	CUresult r = CUDA_SUCCESS;

	for (i = 0; i < n; i++)
		put[i] = ctx->chans[i]->put;
	for (i = 0; i < n && r == CUDA_SUCCESS; i++)
		r = vg_wait_unlocked(ctx->chans[i], put[i], false);
	return r;
}

/*
 * cuCtxSynchronize's work: everything queued so far has completed (host
 * functions included); what kernels printed comes out here, as at CUDA's
 * synchronizing calls.
 */
CUresult vg_ctx_sync(struct CUctx_st *ctx)
{
	CUresult r = vg_ctx_check(ctx);

	if (r)
		return r;
	r = vg_ctx_idle(ctx);
	if (r == CUDA_SUCCESS) {
		vg_printf_drain(ctx);
		vg_pools_sync(ctx);
	}
	return r;
}

/* The staging buffer, pinned into the context on first use. */
static CUresult vg_stage_get(struct CUctx_st *ctx, unsigned char **stage)
{
	struct vgpu_host_register hr = { .size = VG_STAGE_SIZE };
	void *p;

	if (!ctx->stage) {
		p = mmap(NULL, VG_STAGE_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return CUDA_ERROR_OUT_OF_MEMORY;
		hr.addr = (uintptr_t)p;
		if (ioctl(ctx->fd, VGPU_IOCTL_HOST_REGISTER, &hr)) {
			CUresult r = vg_errno_result(errno);

			munmap(p, VG_STAGE_SIZE);
			return r;
		}
		ctx->stage = p;
		memset(ctx->stage_fence, 0, sizeof(ctx->stage_fence));
	}
	*stage = ctx->stage;
	return CUDA_SUCCESS;
}

/*
 * Takes the staging buffer for one copy: its lock, taken with the
 * context's lock dropped (the order is stage_lock, then lock), so that
 * waits inside the copy may drop the context's lock. vg_stage_give()
 * ends it.
 */
CUresult vg_stage_take(struct CUctx_st *ctx, unsigned char **stage)
{
	CUresult r;

	pthread_mutex_unlock(&ctx->lock);
	pthread_mutex_lock(&ctx->stage_lock);
	pthread_mutex_lock(&ctx->lock);
	r = vg_stage_get(ctx, stage);
	if (r)
		pthread_mutex_unlock(&ctx->stage_lock);
	return r;
}

void vg_stage_give(struct CUctx_st *ctx)
{
	pthread_mutex_unlock(&ctx->stage_lock);
}
