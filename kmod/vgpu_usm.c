// SPDX-License-Identifier: GPL-2.0
/*
 * User-mode SMs: threads of a context's process that take blocks of the
 * context's launches (those submitted with VGPU_LAUNCH_USER_SM) from the
 * compute engine and report how each ended (uapi/vgpu.h). Each SM is a
 * file of its own, so that it goes away with whatever process holds it,
 * even one that shares the device's file with others (a forked child):
 * the block it held then fails its launch, and nothing waits for it.
 *
 * The launch stays the compute engine's (vgpu_compute.c): its counters,
 * its end, the fault report. An SM that ends a launch, or finds no block
 * to take, starts its context's next launch itself, as the module's SMs
 * do (vgpu_engine_run_ctx()): a chain of launches then needs no wake-up
 * of the front end's worker between each two; and USM_WAIT can report the
 * SM's block first (VGPU_USM_WAIT_REPORT), so that a launch of one block
 * it starts is taken in the same call, with no other SM woken for it.
 * An SM holds one block at a time, or a run of consecutive blocks of a
 * launch whose blocks wait for no other (VGPU_LAUNCH_USM_RUNS: one
 * USM_WAIT and one report then serve many blocks), counted in the
 * launch's @left until they are reported or written off; a launch that
 * stops early (a fault, the watchdog, the context failing) writes off the
 * blocks SMs hold (vgpu_usm_write_off()), so it ends at once whatever the
 * SMs do, and their later reports are refused. The watchdog of these
 * launches is a work item of the device that looks at them while any is
 * active (vgpu_usm_watch()), since no SM worker runs their blocks to look
 * at the deadline between slices.
 *
 * Locking: vgpu_compute.lock protects each context's list of SMs, each
 * SM's block and the launches' counters; what must sleep (a fault report
 * to the channel, the end of a launch, copies to user space) happens
 * after it is let go, with the block still counted, which keeps the
 * launch. An SM's own mutex makes its calls one at a time.
 */
#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/math64.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/nospec.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "vgpu_drv.h"
#include "vgpu_run.h"

/* How often the watchdog looks while launches wait on user-mode SMs. */
#define VGPU_USM_WATCH_MS 20

/*
 * struct vgpu_usm - one user-mode SM.
 * @node: in the context's list of SMs.
 * @run: the launch of the blocks it holds, or NULL; @block, @nblocks,
 *	@cookie: the first of them, how many, and the cookie USM_WAIT gave.
 * @nsteps: of a chain, the steps it holds from @run's running one on
 *	(vgpu_usm_batch()): each of one block, @nblocks counts the first.
 * @cancelled: the cookie of the last block written off while it held it.
 * @cookies: cookies given so far.
 * @params, @param_len, @steps: the launch's parameters (or its steps'
 *	and theirs), copied under the lock, for USM_WAIT to copy out after
 *	it.
 * @starter: the SM's own thread while its USM_WAIT starts the context's
 *	next launch (vgpu_usm_front()) or, reporting, a chain's next step,
 *	of which it takes a block next; NULL otherwise. Only that thread
 *	writes it, and only a comparison with the caller's own thread reads
 *	it (vgpu_usm_takes_it()).
 */
struct vgpu_usm {
	struct vgpu_ctx *ctx;
	struct mutex lock;	/* one call at a time; protects @params */
	struct list_head node;	/* under vgpu_compute.lock, as the rest */
	struct task_struct *starter;
	struct vgpu_run *run;
	u64 block;
	u32 nblocks;
	u32 nsteps;
	u64 cookie;
	u64 cancelled;
	u64 cookies;
	u8 *params;
	u32 param_len;
	struct vgpu_usm_step steps[VGPU_USM_MAX_STEPS];
};

void vgpu_usm_init(struct vgpu_ctx *ctx, struct file *file)
{
	ctx->file = file;
	INIT_LIST_HEAD(&ctx->usms);
	init_waitqueue_head(&ctx->usm_wq);
}

/*
 * Whether the SM whose USM_WAIT is starting @run takes its one block next
 * in the same call: the caller is such an SM, @run has one block, and no
 * other launch of the context has a block waiting that the SM might take
 * first.
 */
static bool vgpu_usm_takes_it(struct vgpu_compute *ce, struct vgpu_run *run)
{
	struct vgpu_usm *sm;
	struct vgpu_run *r;
	bool found = false;

	lockdep_assert_held(&ce->lock);
	if (run->nblocks != 1)
		return false;
	list_for_each_entry(sm, &run->ctx->usms, node) {
		if (READ_ONCE(sm->starter) == current) {
			found = true;
			break;
		}
	}
	if (!found)
		return false;
	list_for_each_entry(r, &ce->active, node)
		if (r != run && r->ctx == run->ctx && r->user && !r->failed &&
		    r->next != r->nblocks)
			return false;
	return true;
}

/*
 * A user-mode launch became active: wake its context's SMs, watch it. A
 * launch the starting SM takes itself wakes none: a chain of one-block
 * launches, a graph's, then stays on one SM, rather than each launch
 * waking the others to race for its block.
 */
void vgpu_usm_started(struct vgpu_compute *ce, struct vgpu_run *run)
{
	lockdep_assert_held(&ce->lock);
	WRITE_ONCE(run->ctx->usm_gen, run->ctx->usm_gen + 1);
	if (!vgpu_usm_takes_it(ce, run))
		wake_up_all(&run->ctx->usm_wq);
	queue_delayed_work(system_wq, &ce->usm_watch,
			   msecs_to_jiffies(VGPU_USM_WATCH_MS));
}

/*
 * Starts the context's next launch in @sm's call (as the module's SMs do,
 * vgpu_sm_front()) rather than wake the front end's worker and be woken
 * by it; @takes: the call takes a block next. Return: whether a command
 * was started.
 */
static bool vgpu_usm_front(struct vgpu_usm *sm, bool takes)
{
	bool ran;

	if (takes)
		WRITE_ONCE(sm->starter, current);
	ran = vgpu_engine_run_ctx(&sm->ctx->vdev->compute.front, sm->ctx);
	if (takes)
		WRITE_ONCE(sm->starter, NULL);
	return ran;
}

/* @run stops early: the blocks SMs hold are over, unreported. */
void vgpu_usm_write_off(struct vgpu_compute *ce, struct vgpu_run *run)
{
	struct vgpu_usm *sm;

	lockdep_assert_held(&ce->lock);
	list_for_each_entry(sm, &run->ctx->usms, node) {
		if (sm->run != run)
			continue;
		sm->run = NULL;
		sm->cancelled = sm->cookie;
		run->left -= sm->nblocks;
	}
}

/* The block a timeout report names: one an SM holds, or the next. */
static u64 vgpu_usm_some_block(struct vgpu_run *run)
{
	struct vgpu_usm *sm;

	list_for_each_entry(sm, &run->ctx->usms, node) {
		if (sm->run == run)
			return sm->block;
	}
	return min(run->next, run->nblocks - 1);
}

/*
 * The watchdog of launches on user-mode SMs: one past its deadline stops
 * with a timeout report, as the module's SMs stop theirs between slices;
 * one of a context that failed or is closing stops without one. The
 * launch is kept by one block more in @left (a pin) while its report is
 * made outside the lock.
 */
void vgpu_usm_watch(struct work_struct *work)
{
	struct vgpu_compute *ce = container_of(to_delayed_work(work),
					       struct vgpu_compute, usm_watch);
	struct vgpu_run *run, *stop;
	bool more, timeout = false;
	u64 block = 0;

	do {
		stop = NULL;
		more = false;
		spin_lock(&ce->lock);
		list_for_each_entry(run, &ce->active, node) {
			if (!run->user || run->failed)
				continue;
			more = true;
			if (READ_ONCE(run->ctx->failed) ||
			    READ_ONCE(run->ctx->dying)) {
				stop = run;
				timeout = false;
				break;
			}
			if (run->deadline && time_after(jiffies, run->deadline)) {
				stop = run;
				timeout = true;
				block = vgpu_usm_some_block(run);
				break;
			}
		}
		if (stop) {
			stop->left++;
			vgpu_run_stop(ce, stop, timeout ? -ETIME : 0);
		}
		spin_unlock(&ce->lock);
		if (stop) {
			if (timeout)
				vgpu_report(stop, block, NULL,
					    VGPU_KFAULT_TIMEOUT);
			vgpu_block_over(ce, stop, 1, false, 0);
		}
	} while (stop);
	if (more)
		queue_delayed_work(system_wq, &ce->usm_watch,
				   msecs_to_jiffies(VGPU_USM_WATCH_MS));
}

/*
 * The @n blocks @sm held, taken from it under the lock, end with a fault
 * of @kind in @block (@f: the SM's details, or NULL): reported, and the
 * launch fails, unless it has stopped already.
 */
static void vgpu_usm_fail(struct vgpu_compute *ce, struct vgpu_run *run,
			  u64 block, u32 n, const struct vgpu_fault *f, u32 kind)
{
	bool report;

	spin_lock(&ce->lock);
	report = !run->failed;
	spin_unlock(&ce->lock);
	if (report)
		vgpu_report(run, block, f, kind);
	vgpu_block_over(ce, run, n, true, -EIO);
}

/* @sm loses the blocks it holds, if any (VGPU_KFAULT_USM_LOST). */
static void vgpu_usm_lose(struct vgpu_usm *sm)
{
	struct vgpu_compute *ce = &sm->ctx->vdev->compute;
	struct vgpu_run *run;
	u64 block;
	u32 n;

	spin_lock(&ce->lock);
	run = sm->run;
	block = sm->block;
	n = sm->nblocks;
	sm->run = NULL;
	spin_unlock(&ce->lock);
	if (run)
		vgpu_usm_fail(ce, run, block, n, NULL, VGPU_KFAULT_USM_LOST);
}

/*
 * @sm leaves its context's list. The last SM to go hands the launches
 * still waiting for one to the module's SMs, so nothing waits for an SM
 * that will not come.
 */
static void vgpu_usm_unlink(struct vgpu_usm *sm)
{
	struct vgpu_ctx *ctx = sm->ctx;
	struct vgpu_compute *ce = &ctx->vdev->compute;
	struct vgpu_run *run;
	bool kick = false;

	spin_lock(&ce->lock);
	list_del(&sm->node);
	if (list_empty(&ctx->usms)) {
		list_for_each_entry(run, &ce->active, node) {
			if (run->ctx == ctx && run->user) {
				run->user = false;
				kick = true;
			}
		}
	}
	spin_unlock(&ce->lock);
	if (kick)
		wake_up_all(&ce->wq);
}

/*
 * How many blocks of @run an SM asking for up to @max takes: one, but of
 * a launch whose blocks wait for no other, a run of at most @max that
 * leaves each of the context's SMs about four runs of what is left.
 */
static u32 vgpu_usm_run_len(struct vgpu_run *run, u32 max)
{
	struct vgpu_usm *sm;
	u64 left = run->nblocks - run->next, share;
	u32 nsm = 0;

	lockdep_assert_held(&run->ctx->vdev->compute.lock);
	if (!run->runs || max <= 1)
		return 1;
	list_for_each_entry(sm, &run->ctx->usms, node)
		nsm++;
	share = div64_u64(left, 4 * (u64)max_t(u32, nsm, 1));
	return (u32)clamp_t(u64, share, 1, min_t(u64, max, left));
}

/*
 * Of @run, a chain at a step of one block, the steps from it on that @sm
 * takes together for @w (at least that one): one-block user-mode steps,
 * whose parameters fit in @w's buffer; described in sm->steps, their
 * parameters in sm->params. A graph's chain of small kernels then costs
 * one USM_WAIT for many, rather than one each (uapi/vgpu.h).
 * Return: how many.
 */
static u32 vgpu_usm_batch(struct vgpu_usm *sm, struct vgpu_run *run,
			  const struct vgpu_usm_wait *w)
{
	u32 max = min_t(u32, w->max_steps, VGPU_USM_MAX_STEPS);
	u32 room = min_t(u32, w->params_size, VGPU_MAX_PARAM_BYTES);
	u32 n, at, off = 0;

	lockdep_assert_held(&run->ctx->vdev->compute.lock);
	for (n = 0; n < max && run->step + n < run->nsteps; n++) {
		const struct vgpu_run_step *st = &run->steps[run->step + n];
		const struct vgpu_cmd_launch *cl = &st->s.launch;
		struct vgpu_usm_step *s = &sm->steps[n];

		at = ALIGN(off, 16);
		if (n && (!(st->s.flags & VGPU_LAUNCH_USER_SM) ||
			  (u64)cl->grid[0] * cl->grid[1] * cl->grid[2] != 1 ||
			  at + cl->param_bytes > room))
			break;
		s->module = cl->module;
		s->func = cl->func;
		memcpy(s->block, cl->block, sizeof(s->block));
		s->dyn_shared = cl->dyn_shared;
		s->param_bytes = cl->param_bytes;
		s->param_off = at;
		memcpy(sm->params + at, run->params + st->param_off,
		       cl->param_bytes);
		off = at + cl->param_bytes;
	}
	sm->param_len = off;
	return n;
}

/*
 * Takes a block (or a run of them, or chain steps) for @sm into @w, and
 * its parameters into sm->params.
 * Return: 1 (taken), 0 (none waits), -EBUSY (@sm holds one), -ENOSPC
 * (@w's buffer is too small for the next; w->param_bytes says how big).
 */
static int vgpu_usm_take(struct vgpu_usm *sm, struct vgpu_usm_wait *w)
{
	struct vgpu_ctx *ctx = sm->ctx;
	struct vgpu_compute *ce = &ctx->vdev->compute;
	struct vgpu_run *run, *best = NULL;
	const struct vgpu_launch *l;
	int ret = 1;
	u64 b;

	spin_lock(&ce->lock);
	if (sm->run) {
		ret = -EBUSY;
		goto out;
	}
	if (READ_ONCE(ctx->failed) || READ_ONCE(ctx->dying)) {
		ret = 0;
		goto out;
	}
	list_for_each_entry(run, &ce->active, node) {
		if (run->ctx != ctx || !run->user || run->failed ||
		    run->next == run->nblocks)
			continue;
		if (!best || run->priority > best->priority)
			best = run;
	}
	if (!best) {
		ret = 0;
		goto out;
	}
	if (w->params_size < best->param_bytes) {
		w->param_bytes = best->param_bytes;
		ret = -ENOSPC;
		goto out;
	}
	l = &best->l;
	b = best->next;
	sm->nblocks = vgpu_usm_run_len(best, w->max_blocks);
	best->next += sm->nblocks;
	sm->run = best;
	sm->block = b;
	sm->cookie = ++sm->cookies;
	sm->nsteps = 1;
	sm->param_len = best->param_bytes;
	if (best->steps && best->nblocks == 1 && w->steps && w->max_steps > 1)
		sm->nsteps = vgpu_usm_batch(sm, best, w);
	else
		memcpy(sm->params, best->l.params, best->param_bytes);
	/* The steps' time together (vgpu_usm_done() resets it per step). */
	if (sm->nsteps > 1)
		best->deadline = vgpu_run_deadline(sm->nsteps);
	w->cookie = sm->cookie;
	w->seqno = best->seqno;
	w->module = best->module;
	w->func = (u32)(l->func - best->mod->funcs);
	memcpy(w->grid, l->grid, sizeof(w->grid));
	memcpy(w->block, l->block, sizeof(w->block));
	w->block_idx[0] = b % l->grid[0];
	w->block_idx[1] = b / l->grid[0] % l->grid[1];
	w->block_idx[2] = b / l->grid[0] / l->grid[1];
	w->dyn_shared = l->dyn_shared;
	w->param_bytes = best->param_bytes;
	w->chan = best->chan->handle;
	w->map_gen = READ_ONCE(ctx->vm.gen);
	w->nblocks = sm->nblocks;
	w->step = best->step;
	w->pad = 0;
	w->nsteps = sm->nsteps;
	/* Launches of one priority take turns. */
	list_move_tail(&best->node, &ce->active);
out:
	spin_unlock(&ce->lock);
	return ret;
}

static int vgpu_usm_done(struct vgpu_usm *sm, const struct vgpu_usm_done *d,
			 bool takes);

/*
 * Of the chain steps @sm holds (vgpu_usm_batch()), the first @n are done:
 * the chain goes on to the step after them, whose block @sm then holds,
 * as if each had been handed out and reported in turn. Return: whether
 * the chain ended on the way (its context failed): the caller ends it.
 */
static bool vgpu_usm_skip(struct vgpu_compute *ce, struct vgpu_run *run,
			  u32 n)
{
	lockdep_assert_held(&ce->lock);
	while (n--) {
		if (vgpu_block_over_locked(ce, run, 1, false, 0))
			return true;
		/* vgpu_chain_next() made the next step, of one block, active. */
		run->next = 1;
	}
	return false;
}

/*
 * vgpu_usm_wait() - VGPU_IOCTL_USM_WAIT.
 * Return: 0, -EINVAL, -EBUSY, -ENOSPC, -ETIME, -EFAULT, -ERESTARTSYS or
 * -EINTR (a signal after a report), or a report's error.
 */
static int vgpu_usm_wait(struct vgpu_usm *sm, struct vgpu_usm_wait *w)
{
	struct vgpu_ctx *ctx = sm->ctx;
	ktime_t deadline = ns_to_ktime(w->deadline_ns);
	bool report = w->flags & VGPU_USM_WAIT_REPORT;
	int ret;

	if ((w->flags & ~VGPU_USM_WAIT_REPORT) || w->deadline_ns < 0 ||
	    (!report && w->done))
		return -EINVAL;
	if (report) {
		struct vgpu_usm_done d;

		if (copy_from_user(&d, u64_to_user_ptr(w->done), sizeof(d)))
			return -EFAULT;
		/*
		 * The report may start a chain's next step (or the channel's
		 * next launch): this SM takes its block next.
		 */
		WRITE_ONCE(sm->starter, current);
		ret = vgpu_usm_done(sm, &d, true);
		WRITE_ONCE(sm->starter, NULL);
		if (ret && ret != -ECANCELED)
			return ret;
	}
	for (;;) {
		u64 gen = READ_ONCE(ctx->usm_gen);
		ktime_t left;

		ret = vgpu_usm_take(sm, w);
		if (ret)
			break;
		/*
		 * None waits: start the context's next launch here, as the
		 * module's SMs do (vgpu_sm_front()), rather than wake the
		 * front end's worker and be woken by it.
		 */
		if (vgpu_usm_front(sm, true))
			continue;
		left = ktime_sub(deadline, ktime_get());
		if (!w->deadline_ns || ktime_to_ns(left) <= 0)
			return -ETIME;
		ret = wait_event_interruptible_hrtimeout(ctx->usm_wq,
							 READ_ONCE(ctx->usm_gen) != gen,
							 left);
		/* Restarted, the call would make its report again. */
		if (ret == -ERESTARTSYS)
			return report ? -EINTR : ret;
	}
	if (ret < 0)
		return ret;
	if ((sm->param_len &&
	     copy_to_user(u64_to_user_ptr(w->params), sm->params,
			  sm->param_len)) ||
	    (w->nsteps > 1 &&
	     copy_to_user(u64_to_user_ptr(w->steps), sm->steps,
			  w->nsteps * sizeof(sm->steps[0])))) {
		vgpu_usm_lose(sm);
		return -EFAULT;
	}
	return 0;
}

/* Faults an SM may report: those the ISA's own execution raises. */
static bool vgpu_usm_kind_ok(u32 kind)
{
	return kind == VGPU_KFAULT_ADDRESS || kind == VGPU_KFAULT_MISALIGNED ||
		kind == VGPU_KFAULT_TRAP || kind == VGPU_KFAULT_DEADLOCK;
}

/*
 * vgpu_usm_done() - VGPU_IOCTL_USM_DONE, or USM_WAIT's report (@takes: the
 * call goes on to take a block).
 * Return: 0, -EINVAL or -ECANCELED.
 */
static int vgpu_usm_done(struct vgpu_usm *sm, const struct vgpu_usm_done *d,
			 bool takes)
{
	struct vgpu_compute *ce = &sm->ctx->vdev->compute;
	struct vgpu_fault f = {
		.kind = d->kind, .insn = d->insn, .thread = d->thread,
		.addr = d->addr,
	};
	const struct vgpu_program *prog;
	const u32 *dims;
	struct vgpu_run *run;
	u32 n, held, skip;
	bool last;
	u64 block;

	if (d->flags || d->pad || (d->kind && !vgpu_usm_kind_ok(d->kind)) ||
	    (!d->kind && (d->addr || d->insn || d->thread || d->block)))
		return -EINVAL;
	spin_lock(&ce->lock);
	run = sm->run;
	if (!run || !d->cookie || d->cookie != sm->cookie) {
		spin_unlock(&ce->lock);
		return d->cookie && d->cookie == sm->cancelled ?
			-ECANCELED : -EINVAL;
	}
	held = sm->nsteps > 1 ? sm->nsteps : sm->nblocks;
	prog = run->l.prog;
	dims = run->l.block;
	if (sm->nsteps > 1 && d->block < held) {
		const struct vgpu_run_step *st = &run->steps[run->step + d->block];

		prog = &st->mod->prog;
		dims = st->s.launch.block;
	}
	if (d->kind && (d->insn >= prog->ninsns || d->block >= held ||
			(u64)d->thread >= (u64)dims[0] * dims[1] * dims[2])) {
		spin_unlock(&ce->lock);
		return -EINVAL;
	}
	/* Steps taken together: each is one block, the first sm->block. */
	skip = sm->nsteps > 1 ? (d->kind ? d->block : sm->nsteps - 1) : 0;
	block = sm->nsteps > 1 ? sm->block : sm->block + d->block;
	n = sm->nblocks;
	sm->run = NULL;
	/*
	 * A chain that ended on the way (its context failed) has no fault
	 * left to report: the context's failure ended it.
	 */
	last = vgpu_usm_skip(ce, run, skip);
	if (!d->kind || last) {
		if (!last)
			last = vgpu_block_over_locked(ce, run, n, false, 0);
		spin_unlock(&ce->lock);
		/*
		 * The channel's next launch, when this ended one, starts here,
		 * for this SM's USM_WAIT to take (vgpu_run_end_hold()).
		 */
		if (last && vgpu_run_end_hold(run, true)) {
			vgpu_usm_front(sm, takes);
			vgpu_engine_wake(&ce->front);
		}
		return 0;
	}
	/* Still counted in run->left: the launch stays while it reports. */
	spin_unlock(&ce->lock);
	vgpu_usm_fail(ce, run, block, n, &f, d->kind);
	return 0;
}

/*
 * The SM's file goes (closed, or its process gone): a block it held fails
 * its launch, and the context's file is let go.
 */
static int vgpu_usm_release(struct inode *inode, struct file *file)
{
	struct vgpu_usm *sm = file->private_data;
	struct file *ctx_file = sm->ctx->file;

	vgpu_usm_lose(sm);
	vgpu_usm_unlink(sm);
	mutex_destroy(&sm->lock);
	kvfree(sm->params);
	kfree(sm);
	fput(ctx_file);
	return 0;
}

/*
 * The SM file's ioctls, under the conventions of uapi/vgpu.h (the
 * device's dispatcher, vgpu_file.c, serves the device's file only).
 */
static long vgpu_usm_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	struct vgpu_usm *sm = file->private_data;
	void __user *uarg = (void __user *)arg;
	size_t usize = _IOC_SIZE(cmd);
	union {
		struct vgpu_usm_wait w;
		struct vgpu_usm_done d;
	} k;
	size_t ksize, min_size;
	int ret;

	switch (cmd & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT)) {
	case VGPU_IOCTL_USM_WAIT & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT):
		ksize = sizeof(k.w);
		/* Callers from before @done are zero-extended. */
		min_size = offsetofend(struct vgpu_usm_wait, nblocks);
		break;
	case VGPU_IOCTL_USM_DONE & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT):
		ksize = sizeof(k.d);
		min_size = ksize;
		break;
	default:
		return -ENOTTY;
	}
	if (usize < min_size)
		return -EINVAL;
	ret = copy_struct_from_user(&k, ksize, uarg, usize);
	if (ret)
		return ret;
	if (mutex_lock_interruptible(&sm->lock))
		return -ERESTARTSYS;
	if (_IOC_NR(cmd) == _IOC_NR(VGPU_IOCTL_USM_DONE)) {
		ret = vgpu_usm_done(sm, &k.d, false);
	} else {
		ret = vgpu_usm_wait(sm, &k.w);
		/* -ENOSPC says how much room the parameters need. */
		if ((!ret || ret == -ENOSPC) &&
		    copy_to_user(uarg, &k.w, min(usize, ksize))) {
			if (!ret)
				vgpu_usm_lose(sm);
			ret = -EFAULT;
		}
	}
	mutex_unlock(&sm->lock);
	return ret;
}

static const struct file_operations vgpu_usm_fops = {
	.owner = THIS_MODULE,
	.release = vgpu_usm_release,
	.unlocked_ioctl = vgpu_usm_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.llseek = noop_llseek,
};

/*
 * What USM_ATTACH keeps past its argument until the commit or undo: the
 * SM's file, whose number is reserved in the argument.
 */
struct vgpu_usm_attach_k {
	struct vgpu_usm_attach a;
	struct file *file;
};

/**
 * vgpu_ioctl_usm_attach() - VGPU_IOCTL_USM_ATTACH: an SM, on the context's
 * list at once (no block reaches it before it has asked), its file
 * installed by the commit.
 * Return: 0, -EINVAL, -ENOSPC, -EMFILE or -ENOMEM.
 */
int vgpu_ioctl_usm_attach(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_compute *ce = &ctx->vdev->compute;
	struct vgpu_usm_attach_k *k = data;
	struct vgpu_usm *sm, *it;
	unsigned int n = 0;
	struct file *file;
	int fd, ret;

	BUILD_BUG_ON(sizeof(*k) > VGPU_IOCTL_MAX_ARG);
	if (k->a.flags)
		return -EINVAL;
	sm = kzalloc(sizeof(*sm), GFP_KERNEL_ACCOUNT);
	if (!sm)
		return -ENOMEM;
	sm->params = kvmalloc(VGPU_MAX_PARAM_BYTES, GFP_KERNEL_ACCOUNT);
	if (!sm->params) {
		ret = -ENOMEM;
		goto err_free;
	}
	mutex_init(&sm->lock);
	sm->ctx = ctx;
	spin_lock(&ce->lock);
	list_for_each_entry(it, &ctx->usms, node)
		n++;
	if (n < VGPU_USM_MAX)
		list_add_tail(&sm->node, &ctx->usms);
	spin_unlock(&ce->lock);
	if (n >= VGPU_USM_MAX) {
		ret = -ENOSPC;
		goto err_mutex;
	}
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		ret = fd;
		goto err_unlink;
	}
	/* The SM holds the context: its release comes after the SM's. */
	get_file(ctx->file);
	file = anon_inode_getfile("[vgpu-usm]", &vgpu_usm_fops, sm, O_RDWR);
	if (IS_ERR(file)) {
		fput(ctx->file);
		put_unused_fd(fd);
		ret = PTR_ERR(file);
		goto err_unlink;
	}
	k->a.fd = fd;
	k->file = file;
	return 0;

err_unlink:
	vgpu_usm_unlink(sm);
err_mutex:
	mutex_destroy(&sm->lock);
err_free:
	kvfree(sm->params);
	kfree(sm);
	return ret;
}

void vgpu_usm_attach_commit(struct vgpu_ctx *ctx, const void *data)
{
	const struct vgpu_usm_attach_k *k = data;

	fd_install(k->a.fd, k->file);
}

/* The caller could not learn the number: the SM goes as if closed. */
void vgpu_usm_attach_undo(struct vgpu_ctx *ctx, const void *data)
{
	const struct vgpu_usm_attach_k *k = data;

	put_unused_fd(k->a.fd);
	fput(k->file);
}
