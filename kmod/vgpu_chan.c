// SPDX-License-Identifier: GPL-2.0
/*
 * Channels: in-order command queues fed from a ring in user memory (the
 * doorbell ioctl copies new commands out of it and validates the copies).
 * A channel with work sits on the run list of the engine its next command
 * needs (vgpu_engine.c), which takes that command from here
 * (vgpu_chan_next()), runs it and hands the channel back to be placed
 * again (vgpu_chan_done()). A SEM_ACQUIRE whose test fails parks the
 * channel (BLOCKED) until something may have changed the semaphore: a
 * completion in the context, the channel's doorbell, or the periodic
 * sem_work. Progress and sticky errors are published in the
 * context's read-only status page; CHAN_WAIT sleeps until a fence is
 * reached and poll() until the context is idle.
 *
 * Locking: vgpu_ctx.chan_lock guards the channel table, vgpu_chan.lock a
 * channel's queue, counters, state and error; a channel goes on an
 * engine's run list under its own lock. The module's lock order is
 * written in vgpu_drv.h.
 */
#include <linux/jiffies.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/poll.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

#include "vgpu_compat.h"
#include "vgpu_drv.h"

/* How often blocked semaphore waits look again when nothing else wakes them. */
#define VGPU_SEM_POLL_MS 10

static struct vgpu_chan_status *vgpu_status(struct vgpu_chan *chan)
{
	return (struct vgpu_chan_status *)page_address(chan->ctx->status_page) +
		chan->handle;
}

/* Retires the command at the head of the queue. */
static void vgpu_chan_retire(struct vgpu_chan *chan, int ret, u64 fault)
{
	struct vgpu_chan_status *st = vgpu_status(chan);

	lockdep_assert_held(&chan->lock);
	if (ret && !chan->error) {
		chan->error = ret == -EFAULT ? VGPU_CHAN_FAULT :
			ret == -ETIME ? VGPU_CHAN_TIMEOUT : VGPU_CHAN_LAUNCH_FAULT;
		chan->error_seqno = chan->completed + 1;
		WRITE_ONCE(st->error_addr, fault);
		WRITE_ONCE(st->error_seqno, chan->error_seqno);
		smp_wmb();	/* the error's details before the error */
		WRITE_ONCE(st->error, chan->error);
		/* The error before the context's failure (vgpu_chan_next()). */
		smp_store_release(&chan->ctx->failed, true);
	}
	chan->completed++;
	smp_wmb();		/* results before the fence that covers them */
	WRITE_ONCE(st->completed, chan->completed);
	if (chan->completed == chan->submitted)
		atomic_dec(&chan->ctx->busy);
}

/*
 * The engine for @cmd: copies that read host memory go to the
 * host-to-device engine, copies that write it to the device-to-host one,
 * anything else to the engine with the shorter run list. This only places
 * work; what the command may touch is checked when it runs.
 */
static struct vgpu_engine *vgpu_cmd_engine(struct vgpu_ctx *ctx,
					   const struct vgpu_cmd *cmd)
{
	struct vgpu_engine *ce = ctx->vdev->ce;

	if (cmd->op == VGPU_CMD_LAUNCH || cmd->op == VGPU_CMD_LAUNCH_CHAIN)
		return &ctx->vdev->compute.front;
	if (cmd->op == VGPU_CMD_COPY) {
		if (vgpu_vm_is_host(&ctx->vm, cmd->copy.src))
			return &ce[VGPU_CE_H2D];
		if (vgpu_vm_is_host(&ctx->vm, cmd->copy.dst))
			return &ce[VGPU_CE_D2H];
	}
	return READ_ONCE(ce[VGPU_CE_D2H].queued) <
		READ_ONCE(ce[VGPU_CE_H2D].queued) ?
		&ce[VGPU_CE_D2H] : &ce[VGPU_CE_H2D];
}

/*
 * Puts an idle channel with work on an engine. Return: whether that was
 * @hold, whose worker was then not woken (vgpu_chan_done_hold()).
 */
static bool vgpu_chan_kick_hold(struct vgpu_chan *chan,
				struct vgpu_engine *hold)
{
	struct vgpu_ctx *ctx = chan->ctx;
	const struct vgpu_cmd *head;
	struct vgpu_engine *e;

	lockdep_assert_held(&chan->lock);
	if (chan->state != VGPU_CS_IDLE || chan->completed == chan->submitted)
		return false;
	head = &chan->queue[chan->completed & (chan->ring_size - 1)];
	chan->state = VGPU_CS_QUEUED;
	kref_get(&chan->ref);
	atomic_inc(&ctx->running);
	e = vgpu_cmd_engine(ctx, head);
	vgpu_engine_queue(e, chan, e != hold);
	return e == hold;
}

static void vgpu_chan_kick(struct vgpu_chan *chan)
{
	vgpu_chan_kick_hold(chan, NULL);
}

/* Lets a blocked channel test its semaphore again. */
static void vgpu_chan_unblock(struct vgpu_chan *chan)
{
	lockdep_assert_held(&chan->lock);
	if (chan->state != VGPU_CS_BLOCKED)
		return;
	chan->state = VGPU_CS_IDLE;
	atomic_dec(&chan->ctx->blocked);
	vgpu_chan_kick(chan);
}

static void vgpu_chan_unblock_all(struct vgpu_ctx *ctx)
{
	unsigned int i;

	lockdep_assert_held(&ctx->chan_lock);
	for (i = 0; i < VGPU_MAX_CHANNELS; i++) {
		struct vgpu_chan *chan = ctx->chans[i];

		if (!chan)
			continue;
		mutex_lock(&chan->lock);
		vgpu_chan_unblock(chan);
		mutex_unlock(&chan->lock);
	}
}

static void vgpu_sem_work(struct work_struct *work)
{
	struct vgpu_ctx *ctx = container_of(to_delayed_work(work),
					    struct vgpu_ctx, sem_work);

	mutex_lock(&ctx->chan_lock);
	/* Release sets dying, then unblocks everything itself. */
	if (!READ_ONCE(ctx->dying))
		vgpu_chan_unblock_all(ctx);
	mutex_unlock(&ctx->chan_lock);
}

static struct vgpu_chan *vgpu_chan_get(struct vgpu_ctx *ctx, u32 handle);

static void vgpu_chan_free(struct kref *ref)
{
	struct vgpu_chan *chan = container_of(ref, struct vgpu_chan, ref);

	mutex_destroy(&chan->lock);
	kvfree(chan->queue);
	kfree(chan);
}

static void vgpu_chan_put(struct vgpu_chan *chan)
{
	kref_put(&chan->ref, vgpu_chan_free);
}

/**
 * vgpu_chan_done_hold() - @chan's head command has finished with @ret (0,
 * an error, or -EAGAIN for an unsatisfied SEM_ACQUIRE); drops the
 * reference of the engine that ran it. Launches end here from the compute
 * engine. When the next command goes to @hold (an SM ending a launch holds
 * the compute engine's front end), @hold's worker is not woken.
 * Return: true when so: the caller runs @hold's list, or wakes it
 * (vgpu_engine_wake()), before it does anything else.
 */
bool vgpu_chan_done_hold(struct vgpu_chan *chan, int ret, u64 fault,
			 struct vgpu_engine *hold)
{
	struct vgpu_ctx *ctx = chan->ctx;
	bool held = false;

	mutex_lock(&chan->lock);
	chan->state = VGPU_CS_IDLE;
	if (ret == -EAGAIN && !READ_ONCE(ctx->dying)) {
		/* An unsatisfied SEM_ACQUIRE: park until something changes. */
		chan->state = VGPU_CS_BLOCKED;
		atomic_inc(&ctx->blocked);
		queue_delayed_work(system_wq, &ctx->sem_work,
				   msecs_to_jiffies(VGPU_SEM_POLL_MS));
		mutex_unlock(&chan->lock);
	} else {
		vgpu_chan_retire(chan, ret == -EAGAIN ? 0 : ret, fault);
		held = vgpu_chan_kick_hold(chan, hold);
		mutex_unlock(&chan->lock);
		wake_up_all(&chan->wq);
		wake_up_all(&ctx->poll_wq);
		/* The command may have released another channel's semaphore. */
		if (atomic_read(&ctx->blocked) && !READ_ONCE(ctx->dying))
			mod_delayed_work(system_wq, &ctx->sem_work, 0);
	}
	vgpu_chan_put(chan);
	/* The last use of ctx: release may free it once this reaches 0. */
	if (atomic_dec_and_test(&ctx->running))
		wake_up_var(&ctx->running);
	return held;
}

void vgpu_chan_done(struct vgpu_chan *chan, int ret, u64 fault)
{
	vgpu_chan_done_hold(chan, ret, fault, NULL);
}

/**
 * vgpu_chan_next() - the command at the head of @chan's queue, for the
 * engine that took @chan off its run list, with its place in the
 * channel's sequence (its fence value).
 * Return: whether to run it; false: skip it (the engine completes it at
 * once, with success).
 */
bool vgpu_chan_next(struct vgpu_chan *chan, struct vgpu_cmd *cmd, u64 *seqno)
{
	struct vgpu_ctx *ctx = chan->ctx;
	bool skip;

	mutex_lock(&chan->lock);
	*cmd = chan->queue[chan->completed & (chan->ring_size - 1)];
	*seqno = chan->completed + 1;
	/*
	 * After a failure of any channel of the context (as a GPU fault ends
	 * the whole CUDA context), or once the file is closing: skip. Fences
	 * still advance, so no waiter is left behind; the error the failed
	 * channel published comes before (pairs with vgpu_chan_retire()).
	 */
	skip = chan->error || smp_load_acquire(&ctx->failed) ||
		READ_ONCE(ctx->dying);
	mutex_unlock(&chan->lock);
	return !skip;
}

/* Records the report of a failed launch, for CHAN_FAULT. */
void vgpu_chan_set_fault(struct vgpu_chan *chan,
			 const struct vgpu_chan_fault *f)
{
	mutex_lock(&chan->lock);
	if (!chan->fault.kind)
		chan->fault = *f;
	mutex_unlock(&chan->lock);
}

/**
 * vgpu_ioctl_chan_fault() - VGPU_IOCTL_CHAN_FAULT.
 * Return: 0, -EINVAL (flags) or -ENOENT.
 */
int vgpu_ioctl_chan_fault(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_chan_fault *cf = data;
	struct vgpu_chan *chan;
	u32 handle = cf->handle;

	if (cf->flags)
		return -EINVAL;
	mutex_lock(&ctx->chan_lock);
	chan = vgpu_chan_get(ctx, handle);
	if (chan) {
		mutex_lock(&chan->lock);
		*cf = chan->fault;
		mutex_unlock(&chan->lock);
		cf->handle = handle;
		cf->flags = 0;
	}
	mutex_unlock(&ctx->chan_lock);
	return chan ? 0 : -ENOENT;
}

/* Frees channels that were destroyed and have finished. */
static void vgpu_chan_reap(struct vgpu_ctx *ctx)
{
	unsigned int i;

	lockdep_assert_held(&ctx->chan_lock);
	for (i = 0; i < VGPU_MAX_CHANNELS; i++) {
		struct vgpu_chan *chan = ctx->chans[i];
		bool idle;

		if (!chan || !chan->closing)
			continue;
		mutex_lock(&chan->lock);
		idle = chan->completed == chan->submitted;
		mutex_unlock(&chan->lock);
		if (idle) {
			ctx->chans[i] = NULL;
			vgpu_chan_put(chan);
		}
	}
}

/* The open (not destroyed) channel @handle. */
static struct vgpu_chan *vgpu_chan_get(struct vgpu_ctx *ctx, u32 handle)
{
	struct vgpu_chan *chan;

	lockdep_assert_held(&ctx->chan_lock);
	if (handle >= VGPU_MAX_CHANNELS)
		return NULL;
	chan = ctx->chans[array_index_nospec(handle, VGPU_MAX_CHANNELS)];
	return chan && !chan->closing ? chan : NULL;
}

/**
 * vgpu_ioctl_chan_create() - VGPU_IOCTL_CHAN_CREATE.
 * Return: 0, -EINVAL, -EMFILE or -ENOMEM.
 */
int vgpu_ioctl_chan_create(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_chan_create *cc = data;
	struct vgpu_chan_status *st;
	struct vgpu_chan *chan;
	unsigned int i;
	int ret;

	if (cc->flags || cc->pad)
		return -EINVAL;
	if (cc->ring_size < VGPU_RING_MIN || cc->ring_size > VGPU_RING_MAX ||
	    !is_power_of_2(cc->ring_size) || !cc->ring ||
	    !IS_ALIGNED(cc->ring, sizeof(struct vgpu_cmd)))
		return -EINVAL;
	if (!access_ok(u64_to_user_ptr(cc->ring),
		       (u64)cc->ring_size * sizeof(struct vgpu_cmd)))
		return -EINVAL;

	chan = vgpu_fi_fail(ctx->vdev, VGPU_FI_CHAN) ? NULL :
		kzalloc(sizeof(*chan), GFP_KERNEL_ACCOUNT);
	if (!chan)
		return -ENOMEM;
	chan->queue = vgpu_fi_fail(ctx->vdev, VGPU_FI_CHAN) ? NULL :
		kvcalloc(cc->ring_size, sizeof(*chan->queue),
			 GFP_KERNEL_ACCOUNT);
	if (!chan->queue) {
		kfree(chan);
		return -ENOMEM;
	}
	chan->ctx = ctx;
	chan->ring = cc->ring;
	chan->ring_size = cc->ring_size;
	kref_init(&chan->ref);
	mutex_init(&chan->lock);
	init_waitqueue_head(&chan->wq);
	INIT_LIST_HEAD(&chan->node);

	mutex_lock(&ctx->chan_lock);
	vgpu_chan_reap(ctx);
	ret = -EMFILE;
	for (i = 0; i < VGPU_MAX_CHANNELS; i++) {
		if (!ctx->chans[i]) {
			chan->handle = i;
			st = vgpu_status(chan);
			memset(st, 0, sizeof(*st));
			ctx->chans[i] = chan;
			ret = 0;
			break;
		}
	}
	mutex_unlock(&ctx->chan_lock);
	if (ret) {
		vgpu_chan_put(chan);
		return ret;
	}
	cc->handle = chan->handle;
	return 0;
}

/**
 * vgpu_ioctl_chan_submit() - VGPU_IOCTL_CHAN_SUBMIT: the doorbell.
 *
 * When the channel's next command is a launch, the caller's thread starts
 * it (vgpu_compute_start(), through the front end's list as an SM would)
 * rather than wake the front end's worker to: the blocks reach the SMs
 * without a worker's wake-up in between, which was most of the time a
 * graph's launch (a chain of small kernels) took. Starting reads and
 * checks the launch and makes it active; its blocks run on the SMs, so
 * the doorbell stays asynchronous.
 * Return: 0, -ENOENT, -EINVAL, -EFAULT, -ENOMEM, -EAGAIN (the queue is
 * full: wait for earlier work first) or -EIO (the channel has failed).
 */
int vgpu_ioctl_chan_submit(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_engine *front = &ctx->vdev->compute.front;
	struct vgpu_chan_submit *cs = data;
	struct vgpu_cmd *cmds;
	struct vgpu_chan *chan;
	bool held = false;
	u64 n, i;
	int ret = 0;

	if (cs->flags)
		return -EINVAL;
	mutex_lock(&ctx->chan_lock);
	chan = vgpu_chan_get(ctx, cs->handle);
	if (!chan) {
		mutex_unlock(&ctx->chan_lock);
		return -ENOENT;
	}
	/* The table lock keeps the channel alive; chan->lock orders submits. */
	mutex_lock(&chan->lock);
	if (chan->error) {
		ret = -EIO;
		goto out;
	}
	if (cs->put < chan->submitted ||
	    cs->put - chan->submitted > chan->ring_size) {
		ret = -EINVAL;
		goto out;
	}
	n = cs->put - chan->submitted;
	if (!n) {
		/* A bare doorbell: look at a blocked semaphore again. */
		vgpu_chan_unblock(chan);
		goto out;
	}
	if (cs->put - chan->completed > chan->ring_size) {
		ret = -EAGAIN;
		goto out;
	}
	cmds = vgpu_fi_fail(ctx->vdev, VGPU_FI_CHAN) ? NULL :
		kvmalloc_array(n, sizeof(*cmds), GFP_KERNEL_ACCOUNT |
			       __GFP_NOWARN);
	if (!cmds) {
		ret = -ENOMEM;
		goto out;
	}
	/* Copy out first: user space may rewrite the ring at any time. */
	for (i = 0; i < n && !ret; i++) {
		u64 slot = (chan->submitted + i) & (chan->ring_size - 1);

		if (copy_from_user(&cmds[i], u64_to_user_ptr(chan->ring +
				   slot * sizeof(struct vgpu_cmd)),
				   sizeof(struct vgpu_cmd)))
			ret = -EFAULT;
	}
	for (i = 0; i < n && !ret; i++)
		ret = vgpu_cmd_check(ctx, &cmds[i]);
	if (!ret) {
		for (i = 0; i < n; i++)
			chan->queue[(chan->submitted + i) &
				    (chan->ring_size - 1)] = cmds[i];
		if (chan->completed == chan->submitted)
			atomic_inc(&ctx->busy);
		chan->submitted = cs->put;
		vgpu_chan_unblock(chan);
		held = vgpu_chan_kick_hold(chan, front);
	}
	kvfree(cmds);
out:
	mutex_unlock(&chan->lock);
	mutex_unlock(&ctx->chan_lock);
	if (held) {
		vgpu_engine_run_ctx(front, ctx);
		vgpu_engine_wake(front);
	}
	return ret;
}

static bool vgpu_chan_reached(struct vgpu_chan *chan, u64 seqno)
{
	return READ_ONCE(chan->completed) >= seqno;
}

/* A wait ends when its fence is reached or its channel is destroyed. */
static bool vgpu_chan_wait_over(struct vgpu_chan *chan, u64 seqno)
{
	return vgpu_chan_reached(chan, seqno) || READ_ONCE(chan->closing);
}

/* A CHAN_WAIT asleep on @chan's queue, for @seqno. */
struct vgpu_chan_waiter {
	struct wait_queue_entry entry;
	struct vgpu_chan *chan;
	u64 seqno;
};

/*
 * The queue is woken at every completion, but a waiter wakes only when
 * its own wait is over: a thread waiting for the last of a long chain of
 * commands (a graph's kernels) is not made to run, and the completing
 * engine to wake it, once for each command before it. Called under the
 * queue's lock, after the waker has made the completion visible.
 */
static int vgpu_chan_wake(struct wait_queue_entry *entry, unsigned int mode,
			  int sync, void *key)
{
	struct vgpu_chan_waiter *w = container_of(entry, struct vgpu_chan_waiter,
						  entry);

	if (!vgpu_chan_wait_over(w->chan, w->seqno))
		return 0;
	return autoremove_wake_function(entry, mode, sync, key);
}

/*
 * Sleeps until the wait for @seqno is over, a signal, or @timeout jiffies.
 * Return: as wait_event_interruptible_timeout(): the jiffies left (at
 * least 1) when over, 0 when timed out, or -ERESTARTSYS.
 */
static long vgpu_chan_sleep(struct vgpu_chan *chan, u64 seqno, long timeout)
{
	struct vgpu_chan_waiter w = { .chan = chan, .seqno = seqno };
	long ret = timeout;

	init_wait_entry(&w.entry, 0);
	w.entry.func = vgpu_chan_wake;
	for (;;) {
		prepare_to_wait(&chan->wq, &w.entry, TASK_INTERRUPTIBLE);
		if (vgpu_chan_wait_over(chan, seqno)) {
			ret = max(ret, 1L);
			break;
		}
		if (signal_pending(current)) {
			ret = -ERESTARTSYS;
			break;
		}
		if (!ret)
			break;
		ret = schedule_timeout(ret);
	}
	finish_wait(&chan->wq, &w.entry);
	return ret;
}

/**
 * vgpu_ioctl_chan_wait() - VGPU_IOCTL_CHAN_WAIT.
 * Return: 0, -ENOENT, -EINVAL, -ETIME, -EIO or -ERESTARTSYS (a signal:
 * the call restarts, or user space sees -EINTR).
 */
int vgpu_ioctl_chan_wait(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_chan_wait *cw = data;
	struct vgpu_chan *chan;
	long left;
	int ret = 0;

	if (cw->flags || cw->deadline_ns < 0)
		return -EINVAL;
	mutex_lock(&ctx->chan_lock);
	chan = vgpu_chan_get(ctx, cw->handle);
	if (chan) {
		mutex_lock(&chan->lock);
		if (cw->seqno > chan->submitted)
			ret = -EINVAL;
		mutex_unlock(&chan->lock);
		kref_get(&chan->ref);	/* sleep outside the table lock */
	} else {
		ret = -ENOENT;
	}
	mutex_unlock(&ctx->chan_lock);
	if (!chan)
		return ret;
	if (ret)
		goto out;

	if (!vgpu_chan_reached(chan, cw->seqno)) {
		s64 now = ktime_get_ns();
		u64 timeout = cw->deadline_ns > now ?
			nsecs_to_jiffies(cw->deadline_ns - now) + 1 : 0;

		ret = -ETIME;
		if (!timeout)
			goto out;
		timeout = min_t(u64, timeout, MAX_SCHEDULE_TIMEOUT - 1);
		left = vgpu_chan_sleep(chan, cw->seqno, timeout);
		if (left < 0) {
			ret = left;
			goto out;
		}
		if (!vgpu_chan_reached(chan, cw->seqno)) {
			/* Destroyed meanwhile (its user is tearing down). */
			if (left)
				ret = -ENOENT;
			goto out;
		}
		ret = 0;
	}
	mutex_lock(&chan->lock);
	if (chan->error && chan->error_seqno <= cw->seqno)
		ret = -EIO;
	mutex_unlock(&chan->lock);
out:
	vgpu_chan_put(chan);
	return ret;
}

/**
 * vgpu_ioctl_chan_destroy() - VGPU_IOCTL_CHAN_DESTROY.
 * Return: 0, -EINVAL (flags) or -ENOENT.
 */
int vgpu_ioctl_chan_destroy(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_chan_destroy *cd = data;
	struct vgpu_chan *chan;
	int ret = 0;

	if (cd->flags)
		return -EINVAL;
	mutex_lock(&ctx->chan_lock);
	chan = vgpu_chan_get(ctx, cd->handle);
	if (chan) {
		WRITE_ONCE(chan->closing, true);
		/* Its waiters give up; each holds a reference. */
		wake_up_all(&chan->wq);
	} else {
		ret = -ENOENT;
	}
	vgpu_chan_reap(ctx);
	mutex_unlock(&ctx->chan_lock);
	return ret;
}

/*
 * vgpu_chan_create_undo() - destroys the channel CHAN_CREATE made when its
 * handle cannot be written back (vgpu_ioctl()). A channel nobody knew of
 * has no commands, so its slot is free again at once.
 */
void vgpu_chan_create_undo(struct vgpu_ctx *ctx, const void *data)
{
	const struct vgpu_chan_create *cc = data;
	struct vgpu_chan_destroy cd = { .handle = cc->handle };

	vgpu_ioctl_chan_destroy(ctx, &cd);
}

/* The status page, mapped read-only at offset 0 of the context's file. */
int vgpu_chan_mmap(struct vgpu_ctx *ctx, struct vm_area_struct *vma)
{
	if (vma->vm_pgoff || vma->vm_end - vma->vm_start != PAGE_SIZE)
		return -EINVAL;
	if (vma->vm_flags & (VM_WRITE | VM_EXEC))
		return -EPERM;
	vgpu_vm_flags_mod(vma, VM_DONTEXPAND | VM_DONTDUMP,
			  VM_MAYWRITE | VM_MAYEXEC);
	return vm_insert_page(vma, vma->vm_start, ctx->status_page);
}

/*
 * poll(): EPOLLIN once every channel has completed what it was given,
 * EPOLLPRI once one has failed.
 */
__poll_t vgpu_chan_poll(struct vgpu_ctx *ctx, struct file *file,
			poll_table *wait)
{
	__poll_t mask = 0;

	poll_wait(file, &ctx->poll_wq, wait);
	if (!atomic_read(&ctx->busy))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (READ_ONCE(ctx->failed))
		mask |= EPOLLPRI;
	return mask;
}

int vgpu_chan_init(struct vgpu_ctx *ctx)
{
	mutex_init(&ctx->chan_lock);
	INIT_DELAYED_WORK(&ctx->sem_work, vgpu_sem_work);
	init_waitqueue_head(&ctx->poll_wq);
	ctx->status_page = vgpu_fi_fail(ctx->vdev, VGPU_FI_CTX) ? NULL :
		alloc_page(GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	return ctx->status_page ? 0 : -ENOMEM;
}

/*
 * File release, first step: from here queued commands are skipped, no
 * channel blocks again and blocked waits are given up. The compute
 * engine's launches of the context are cancelled next
 * (vgpu_compute_cancel()), then vgpu_chan_fini() waits for the engines.
 */
void vgpu_chan_stop(struct vgpu_ctx *ctx)
{
	WRITE_ONCE(ctx->dying, true);
	/* After this no channel blocks again and sem_work does nothing. */
	mutex_lock(&ctx->chan_lock);
	vgpu_chan_unblock_all(ctx);
	mutex_unlock(&ctx->chan_lock);
}

/*
 * File release, last step: the engines let go of the context and
 * everything is freed. Bounded by the command a copy engine is in the
 * middle of and by a slice of each block still running.
 */
void vgpu_chan_fini(struct vgpu_ctx *ctx)
{
	unsigned int i;

	wait_var_event(&ctx->running, !atomic_read(&ctx->running));
	cancel_delayed_work_sync(&ctx->sem_work);

	for (i = 0; i < VGPU_MAX_CHANNELS; i++) {
		if (ctx->chans[i])
			vgpu_chan_put(ctx->chans[i]);
		ctx->chans[i] = NULL;
	}
	mutex_destroy(&ctx->chan_lock);
	/* Mappings hold their own reference to the page. */
	__free_page(ctx->status_page);
}
