// SPDX-License-Identifier: GPL-2.0
/*
 * The copy engines. A device has two, as a GPU has a host-to-device and a
 * device-to-host DMA engine, so transfers in the two directions overlap.
 * Each engine is one work item on the device's workqueue serving a run
 * list of channels: it takes the channel at the head, runs that channel's
 * next command and lets the channel decide where it goes next (back on a
 * list, possibly the other engine's, or idle). One command per turn keeps
 * a channel with a long queue from starving the others.
 *
 * Locking: vgpu_engine.lock, a spinlock, protects the run list; it nests
 * inside vgpu_chan.lock and nothing nests inside it.
 */
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "vgpu_drv.h"

static void vgpu_engine_work(struct work_struct *work)
{
	struct vgpu_engine *e = container_of(work, struct vgpu_engine, work);
	struct vgpu_chan *chan;

	for (;;) {
		spin_lock(&e->lock);
		chan = list_first_entry_or_null(&e->ready, struct vgpu_chan,
						node);
		if (chan) {
			list_del_init(&chan->node);
			e->queued--;
		}
		spin_unlock(&e->lock);
		if (!chan)
			break;
		vgpu_chan_run(chan);
		cond_resched();
	}
}

void vgpu_engine_init(struct vgpu_engine *e, struct workqueue_struct *wq)
{
	spin_lock_init(&e->lock);
	INIT_LIST_HEAD(&e->ready);
	INIT_WORK(&e->work, vgpu_engine_work);
	e->wq = wq;
}

/*
 * Puts @chan at the end of @e's run list; the caller holds chan->lock and
 * has given the engine a reference to the channel.
 */
void vgpu_engine_queue(struct vgpu_engine *e, struct vgpu_chan *chan)
{
	spin_lock(&e->lock);
	list_add_tail(&chan->node, &e->ready);
	e->queued++;
	spin_unlock(&e->lock);
	/* A work item runs on one CPU at a time: one command at a time. */
	queue_work(e->wq, &e->work);
}
