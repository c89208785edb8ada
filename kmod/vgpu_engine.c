// SPDX-License-Identifier: GPL-2.0
/*
 * The engines: each serves a run list of channels, one command per turn.
 * A device has two copy engines, as a GPU has a host-to-device and a
 * device-to-host DMA engine, so transfers in the two directions overlap,
 * and the compute engine has a front end of the same kind. Each is one
 * work item on the device's workqueue: it takes the channel at the head
 * of its list, runs that channel's next command (vgpu_copy.c does copies,
 * fills and semaphores; a launch only starts here, in vgpu_compute.c) and
 * completes it, and the channel decides where it goes next (back on a
 * list, possibly another engine's, or idle). One command per turn keeps a
 * channel with a long queue from starving the others.
 *
 * Channels and engines call each other as a start/complete pair: a
 * channel with work puts itself on an engine (vgpu_engine_queue()); the
 * engine takes the channel's next command (vgpu_chan_next()) and hands
 * it back done (vgpu_chan_done()). The compute engine's front end and its
 * SMs are the other pair here: the front end starts launches on the SMs
 * (vgpu_compute_start()), and an SM with no block, or one that has just
 * ended a launch, runs the front end's next command itself
 * (vgpu_engine_run_one(); a user-mode SM only its own context's,
 * vgpu_engine_run_ctx()).
 *
 * Locking: vgpu_engine.lock, a spinlock, protects the run list; it nests
 * inside vgpu_chan.lock and nothing nests inside it (the module's order
 * is in vgpu_drv.h).
 */
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "vgpu_drv.h"

/*
 * Runs @chan's next command and completes it, or for a launch only starts
 * it: the compute engine completes it when its last block ends.
 */
static void vgpu_engine_run(struct vgpu_chan *chan)
{
	struct vgpu_cmd cmd;
	u64 fault = 0, seqno;
	int ret = 0;

	if (vgpu_chan_next(chan, &cmd, &seqno)) {
		if (cmd.op == VGPU_CMD_LAUNCH ||
		    cmd.op == VGPU_CMD_LAUNCH_CHAIN) {
			ret = vgpu_compute_start(chan, &cmd, seqno);
			if (ret == -EINPROGRESS)
				return;
		} else {
			ret = vgpu_exec(chan->ctx, &cmd, &fault);
		}
	}
	vgpu_chan_done(chan, ret, fault);
}

/*
 * Takes the first channel of @ctx on @e's run list (any context's when
 * @ctx is NULL) and runs its next command. A command that fault injection
 * holds (vgpu_fi_stall()) is held by the engine's worker (@worker) alone:
 * an SM puts the channel back where it was and leaves it to the worker,
 * so that a stall never holds an SM. Channels the worker runs between the
 * take and the put-back go ahead of it: harmless, as order only binds the
 * commands of one channel.
 * Return: whether it ran a command.
 */
static bool vgpu_engine_take(struct vgpu_engine *e, struct vgpu_ctx *ctx,
			     bool worker)
{
	struct vgpu_chan *chan, *found = NULL;

	spin_lock(&e->lock);
	list_for_each_entry(chan, &e->ready, node) {
		if (!ctx || chan->ctx == ctx) {
			found = chan;
			list_del_init(&chan->node);
			e->queued--;
			break;
		}
	}
	spin_unlock(&e->lock);
	if (!found)
		return false;
	if (vgpu_fi_stall(e, found, worker)) {
		spin_lock(&e->lock);
		list_add(&found->node, &e->ready);
		e->queued++;
		spin_unlock(&e->lock);
		queue_work(e->wq, &e->work);
		return false;
	}
	vgpu_engine_run(found);
	return true;
}

/**
 * vgpu_engine_run_one() - takes the channel at the head of @e's run list
 * and runs its next command, in the caller's thread: an SM of the compute
 * engine.
 *
 * An SM that finds no block does this before it sleeps: a launch queued
 * behind the one that just ended then starts at once, where otherwise
 * the SM would wake the engine's worker (the command's completion) and
 * the worker would wake an SM again (the launch). The SMs and the worker
 * may take from the list at the same time: each channel is on it at most
 * once and leaves it under the lock, so a channel's commands still run
 * one at a time, in order.
 * Return: whether it ran a command.
 */
bool vgpu_engine_run_one(struct vgpu_engine *e)
{
	return vgpu_engine_take(e, NULL, false);
}

/**
 * vgpu_engine_run_ctx() - as vgpu_engine_run_one(), for the first channel
 * of @ctx on @e's run list: a user-mode SM of @ctx starts its own
 * context's next launch so, in its own thread, and never another
 * process's. The channels it passes keep their places.
 * Return: whether it ran a command.
 */
bool vgpu_engine_run_ctx(struct vgpu_engine *e, struct vgpu_ctx *ctx)
{
	return vgpu_engine_take(e, ctx, false);
}

static void vgpu_engine_work(struct work_struct *work)
{
	struct vgpu_engine *e = container_of(work, struct vgpu_engine, work);

	while (vgpu_engine_take(e, NULL, true))
		cond_resched();
}

void vgpu_engine_init(struct vgpu_engine *e, struct workqueue_struct *wq)
{
	spin_lock_init(&e->lock);
	INIT_LIST_HEAD(&e->ready);
	INIT_WORK(&e->work, vgpu_engine_work);
	e->wq = wq;
}

/*
 * Puts @chan at the end of @e's run list; the caller has given the engine
 * a reference to the channel, and holds its lock, under which the channel
 * moved to QUEUED: it is on one engine at a time. Without @wake the
 * engine's worker is not told: the caller runs the list itself and then
 * calls vgpu_engine_wake().
 */
void vgpu_engine_queue(struct vgpu_engine *e, struct vgpu_chan *chan,
		       bool wake)
{
	lockdep_assert_held(&chan->lock);
	spin_lock(&e->lock);
	list_add_tail(&chan->node, &e->ready);
	e->queued++;
	spin_unlock(&e->lock);
	/* A work item runs on one CPU at a time: one command at a time. */
	if (wake)
		queue_work(e->wq, &e->work);
}

/*
 * After a caller that queued without waking ran what it would: the
 * worker takes whatever is left on @e's list.
 */
void vgpu_engine_wake(struct vgpu_engine *e)
{
	bool left;

	spin_lock(&e->lock);
	left = !list_empty(&e->ready);
	spin_unlock(&e->lock);
	if (left)
		queue_work(e->wq, &e->work);
}
