// SPDX-License-Identifier: GPL-2.0
/*
 * The compute engine. Its front end, an engine like the copy engines
 * (vgpu_engine.c), takes a channel whose next command is a launch and
 * hands the launch to vgpu_compute_start(), which checks it against the
 * kernel it names and makes it active; the channel then waits until the
 * launch ends (vgpu_chan_done()). SM workers, one kernel thread per
 * streaming multiprocessor, take blocks from every active launch in turn,
 * contexts taking turns and priorities ranking a context's own launches
 * (vgpu_take_block()), so kernels of different channels run at the same
 * time and no process holds the SMs from another, and run each
 * block in slices: floating point between kernel_fpu_begin() and
 * kernel_fpu_end(), the context's address space held for reading, a
 * chance to reschedule and a look at the deadline and at the context
 * closing between slices. A launch flagged for user-mode SMs, while its
 * context has one, is theirs instead (vgpu_usm.c): the workers skip it.
 *
 * A cooperative launch (one with a grid workspace) is a gang: its blocks
 * wait for each other at grid-wide barriers, so they must all be resident
 * at once. One SM worker takes all of them together and runs them in
 * turns, a short slice each, in memory the launch brought
 * (nblocks * block_bytes, bounded at submit by what the device holds at
 * once): a block spinning at the barrier spends its slice and the others
 * advance. The gang needs no other worker, so it cannot deadlock against
 * whatever else runs.
 *
 * A block's state (registers, shared and local memory) can be hundreds of
 * MiB: a launch whose blocks need more than the device's memory divided
 * among its SMs fails before it starts (VGPU_KFAULT_RESOURCES, which
 * libvgpu reads as CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES), so the workers
 * together never hold more than the device memory the module was given.
 * What they allocate is charged to the memory cgroup of the context's
 * opener (vgpu_ctx.memcg), fails rather than wake the OOM killer, and is
 * freed whenever a worker finds nothing to do, so nothing stays after
 * the process that needed it is gone.
 *
 * Locking: vgpu_compute.lock (a spinlock) protects the list of active
 * launches and each launch's block counters; the SM workers take the
 * context's vgpu_vm.lock for reading around a slice, never while holding
 * vgpu_compute.lock, and let it go before they report a fault to the
 * channel (the module's order is in vgpu_drv.h).
 */
#include <linux/bitmap.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/limits.h>
#include <linux/lockdep.h>
#include <linux/memcontrol.h>
#include <linux/moduleparam.h>
#include <linux/overflow.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <asm/fpu/api.h>

#include "vgpu_drv.h"
#include "vgpu_run.h"

static unsigned int timeout_ms = 30000;
module_param(timeout_ms, uint, 0644);
MODULE_PARM_DESC(timeout_ms, "Time budget of one kernel launch in ms; 0: none (default 30000)");

/* Instructions a block runs between two looks at the world. */
#define VGPU_SLICE 20000
/*
 * A block of a gang, which takes turns with the others: short, as a
 * block waiting at a grid barrier spends all of it.
 */
#define VGPU_GANG_SLICE 2000

static void vgpu_run_free(struct vgpu_run *run)
{
	u32 i;

	if (run->steps) {
		/* run->mod is the running step's, one of these. */
		for (i = 0; i < run->nsteps; i++)
			if (run->steps[i].mod)
				vgpu_module_put(run->steps[i].mod);
		kvfree(run->steps);
	} else if (run->mod) {
		vgpu_module_put(run->mod);
	}
	if (run->chain_kmem)
		vgpu_kmem_uncharge(run->ctx, run->chain_kmem);
	kvfree(run->params);
	if (run->gang_kmem) {
		kvfree(run->gang);
		vgpu_kmem_uncharge(run->ctx, run->gang_kmem);
	}
	kfree(run);
}

/*
 * The memory of a gang: every block's state, then the bitmap of those
 * that have finished. The grid was bounded at submit (vgpu_cmd.c), but
 * a kernel's registers and local memory can still make it more than the
 * device's memory (as the SM workers' buffers together never are) or
 * than one allocation may be; a launch asking for that, or for more than
 * the host or its memcg can give, cannot run, which its user hears (no
 * warning or OOM kill here).
 */
static int vgpu_gang_alloc(struct vgpu_run *run)
{
	u64 bytes, bits = BITS_TO_LONGS(run->nblocks) * sizeof(long);

	if (check_mul_overflow(run->nblocks, run->block_bytes, &bytes) ||
	    check_add_overflow(bytes, bits, &bytes) || bytes > INT_MAX ||
	    bytes > run->ctx->vdev->props.mem_size)
		return -E2BIG;
	if (vgpu_kmem_charge(run->ctx, bytes))
		return -ENOMEM;
	run->gang = vgpu_fi_fail(run->ctx->vdev, VGPU_FI_LAUNCH) ? NULL :
		kvmalloc(bytes, GFP_KERNEL_ACCOUNT | __GFP_NOWARN |
			 __GFP_RETRY_MAYFAIL);
	if (!run->gang) {
		vgpu_kmem_uncharge(run->ctx, bytes);
		return -ENOMEM;
	}
	run->gang_kmem = bytes;
	run->gang_done = (unsigned long *)(run->gang + run->nblocks *
					   run->block_bytes);
	bitmap_zero(run->gang_done, run->nblocks);
	return 0;
}

/*
 * Fails the launch before any block ran with a report of @kind
 * (VGPU_KFAULT_BAD_LAUNCH or VGPU_KFAULT_RESOURCES).
 */
static int vgpu_bad_launch(struct vgpu_chan *chan,
			   const struct vgpu_cmd_launch *cl, u64 seqno,
			   u32 step, u32 kind)
{
	struct vgpu_chan_fault f = {
		.kind = kind, .module = cl->module,
		.func = cl->func, .seqno = seqno, .step = step,
	};

	vgpu_chan_set_fault(chan, &f);
	return -EIO;
}

/*
 * The most state one block may have: the device's memory divided among
 * its SMs, each of which (an SM worker) holds one block at a time.
 */
static u64 vgpu_block_bytes_max(const struct vgpu_device *vdev)
{
	return div_u64(vdev->props.mem_size, max(vdev->props.sm_count, 1U));
}

/* Whether @cl fits its kernel @f: parameters, shared memory, threads. */
static bool vgpu_launch_fits(const struct vgpu_ctx *ctx,
			     const struct vgpu_func *f,
			     const struct vgpu_cmd_launch *cl)
{
	return cl->param_bytes == f->param_bytes &&
		(u64)f->shared_bytes + cl->dyn_shared <=
		vgpu_props_smem_optin(&ctx->vdev->props) &&
		!(f->max_threads && (u64)cl->block[0] * cl->block[1] *
		  cl->block[2] > f->max_threads);
}

/*
 * @l as @cl, a launch of a kernel of @mod (checked) with the parameters
 * at @params, would make it; the fields every launch of the device
 * shares (the MMU, the SMs, the clock) are left as they are.
 */
static void vgpu_launch_set(struct vgpu_launch *l, struct vgpu_module *mod,
			    const struct vgpu_cmd_launch *cl, u8 *params)
{
	l->prog = &mod->prog;
	l->func = &mod->funcs[cl->func];
	memcpy(l->grid, cl->grid, sizeof(l->grid));
	memcpy(l->block, cl->block, sizeof(l->block));
	l->dyn_shared = cl->dyn_shared;
	l->params = params;
	l->consts = mod->consts;
	l->const_bytes = mod->const_bytes;
	l->grid_sync = cl->grid_sync;
}

/* @run runs @cl from its first block; @flags are its VGPU_LAUNCH_*. */
static void vgpu_run_set(struct vgpu_run *run, struct vgpu_module *mod,
			 const struct vgpu_cmd_launch *cl, u32 flags,
			 u8 *params)
{
	run->mod = mod;
	run->module = cl->module;
	run->param_bytes = cl->param_bytes;
	/* A gang's blocks wait for each other: one worker runs them all. */
	run->user = (flags & VGPU_LAUNCH_USER_SM) && !cl->grid_sync;
	run->runs = run->user && (flags & VGPU_LAUNCH_USM_RUNS);
	vgpu_launch_set(&run->l, mod, cl, params);
	run->nblocks = (u64)cl->grid[0] * cl->grid[1] * cl->grid[2];
	run->next = 0;
	run->left = run->nblocks;
	run->block_bytes = vgpu_block_bytes(&run->l);
}

/* The watchdog of @launches launches from now, or 0 without one. */
unsigned long vgpu_run_deadline(u32 launches)
{
	unsigned int ms = READ_ONCE(timeout_ms);

	return ms ? jiffies + msecs_to_jiffies(ms) * launches : 0;
}

/*
 * Makes @run, set up and checked, active on @chan as command @seqno:
 * its blocks go to the SMs from here on.
 */
static int vgpu_run_activate(struct vgpu_run *run, struct vgpu_chan *chan,
			     u32 flags, u64 seqno)
{
	struct vgpu_ctx *ctx = chan->ctx;
	struct vgpu_compute *ce = &ctx->vdev->compute;
	bool user;

	run->chan = chan;
	run->ctx = ctx;
	run->seqno = seqno;
	run->priority = flags & VGPU_LAUNCH_PRIORITY_MASK;
	run->l.mmu = ctx;
	run->l.nsmid = ce->nsm;
	run->l.clock_khz = ctx->vdev->props.clock_khz;
	run->deadline = vgpu_run_deadline(1);

	/*
	 * Release sets dying before it cancels the context's launches under
	 * the same lock: a launch seen here after that is skipped, as
	 * queued commands are, rather than left waiting for an SM.
	 */
	spin_lock(&ce->lock);
	if (READ_ONCE(ctx->dying)) {
		spin_unlock(&ce->lock);
		vgpu_run_free(run);
		return 0;
	}
	run->id = ++ce->runs;
	list_add_tail(&run->node, &ce->active);
	/* No user-mode SM to take it: the module's SMs run it. */
	if (run->user && list_empty(&ctx->usms))
		run->user = false;
	user = run->user;
	if (user)
		vgpu_usm_started(ce, run);
	/* From here on the launch may end, and be freed, at any time. */
	spin_unlock(&ce->lock);
	if (!user)
		wake_up_all(&ce->wq);
	return -EINPROGRESS;
}

static int vgpu_compute_start_run(struct vgpu_chan *chan,
				  const struct vgpu_cmd_launch *cl,
				  u32 flags, u64 seqno)
{
	struct vgpu_ctx *ctx = chan->ctx;
	struct vgpu_module *mod;
	struct vgpu_run *run;
	u32 kind = VGPU_KFAULT_BAD_LAUNCH;

	run = vgpu_fi_fail(ctx->vdev, VGPU_FI_LAUNCH) ? NULL :
		kzalloc(sizeof(*run), GFP_KERNEL_ACCOUNT);
	/* Out of memory is out of resources, as for the blocks' state. */
	if (!run)
		return vgpu_bad_launch(chan, cl, seqno, 0, VGPU_KFAULT_RESOURCES);
	run->ctx = ctx;
	mod = vgpu_module_get(ctx, cl->module);
	run->mod = mod;
	if (!mod || cl->func >= mod->prog.nfuncs ||
	    !vgpu_launch_fits(ctx, &mod->funcs[cl->func], cl))
		goto bad;
	run->params = vgpu_fi_fail(ctx->vdev, VGPU_FI_LAUNCH) ? NULL :
		kmalloc(max(cl->param_bytes, 1U), GFP_KERNEL_ACCOUNT);
	if (!run->params) {
		kind = VGPU_KFAULT_RESOURCES;
		goto bad;
	}
	/* Parameters are taken when the launch starts, as on CUDA. */
	if (cl->param_bytes && vgpu_read(ctx, cl->params, run->params,
					 cl->param_bytes))
		goto bad;
	vgpu_run_set(run, mod, cl, flags, run->params);
	/* More than the device has room for, or than this host can give. */
	kind = VGPU_KFAULT_RESOURCES;
	if (run->block_bytes > vgpu_block_bytes_max(ctx->vdev))
		goto bad;
	if (cl->grid_sync && vgpu_gang_alloc(run))
		goto bad;
	return vgpu_run_activate(run, chan, flags, seqno);

bad:
	vgpu_run_free(run);
	return vgpu_bad_launch(chan, cl, seqno, 0, kind);
}

/*
 * Whether step @st launches what @prev does, its parameters aside: a
 * graph's chain repeats one kernel and shape, and such a step needs none
 * of the checks @prev passed again.
 */
static bool vgpu_chain_step_same(const struct vgpu_run_step *prev,
				 const struct vgpu_run_step *st)
{
	struct vgpu_cmd_launch a = prev->s.launch;

	a.params = st->s.launch.params;
	return prev->s.flags == st->s.flags && prev->s.pad == st->s.pad &&
		!memcmp(&a, &st->s.launch, sizeof(a));
}

/*
 * Step @i of @run, a chain being set up, from its command in @run->steps:
 * checked as a LAUNCH command is at submit and at start, its module
 * held. Return: 0, or the VGPU_KFAULT_* that fails the chain.
 */
static u32 vgpu_chain_step_check(struct vgpu_run *run, u32 i)
{
	struct vgpu_ctx *ctx = run->ctx;
	struct vgpu_run_step *st = &run->steps[i];
	const struct vgpu_cmd_launch *cl = &st->s.launch;
	struct vgpu_launch l = { };

	if (i && vgpu_chain_step_same(&run->steps[i - 1], st)) {
		st->mod = run->steps[i - 1].mod;
		kref_get(&st->mod->ref);
		st->block_bytes = run->steps[i - 1].block_bytes;
		return 0;
	}
	if ((st->s.flags & ~(VGPU_LAUNCH_USER_SM | VGPU_LAUNCH_USM_RUNS)) ||
	    st->s.pad || cl->grid_sync ||
	    vgpu_launch_check(&ctx->vdev->props, cl))
		return VGPU_KFAULT_BAD_LAUNCH;
	st->mod = vgpu_module_get(ctx, cl->module);
	if (!st->mod || cl->func >= st->mod->prog.nfuncs ||
	    !vgpu_launch_fits(ctx, &st->mod->funcs[cl->func], cl))
		return VGPU_KFAULT_BAD_LAUNCH;
	vgpu_launch_set(&l, st->mod, cl, NULL);
	st->block_bytes = vgpu_block_bytes(&l);
	if (st->block_bytes > vgpu_block_bytes_max(ctx->vdev))
		return VGPU_KFAULT_RESOURCES;
	return 0;
}

/*
 * Where each step's parameters go in @run->params; return: how many bytes
 * that takes. Where the steps' parameters lie together in user memory,
 * as a graph's do (the library gathers them in one buffer), in a span not
 * much longer than they are, they keep their places in it (*@span: its
 * start), so that one read takes them all; otherwise they follow one
 * another.
 */
static u64 vgpu_chain_params_place(struct vgpu_run *run, u64 *span)
{
	u64 lo = U64_MAX, hi = 0, sum = 0, end;
	struct vgpu_run_step *st;
	bool apart = false;
	u32 i;

	for (i = 0; i < run->nsteps; i++) {
		const struct vgpu_cmd_launch *cl = &run->steps[i].s.launch;

		if (!cl->param_bytes)
			continue;
		if (check_add_overflow(cl->params, (u64)cl->param_bytes, &end))
			apart = true;
		lo = min(lo, cl->params);
		hi = max(hi, end);
		sum += cl->param_bytes;
	}
	/* Room for alignment between them: 16 bytes a step. */
	if (!apart && sum && hi - lo <= sum + 16 * (u64)run->nsteps) {
		for (i = 0; i < run->nsteps; i++) {
			st = &run->steps[i];
			st->param_off = st->s.launch.param_bytes ?
				st->s.launch.params - lo : 0;
		}
		*span = lo;
		return hi - lo;
	}
	*span = 0;
	sum = 0;
	for (i = 0; i < run->nsteps; i++) {
		st = &run->steps[i];
		st->param_off = sum;
		sum += st->s.launch.param_bytes;
	}
	return sum;
}

/*
 * Reads the steps' parameters into @run->params, placed as above: the
 * span at once, or (without one, or where it has a hole) step by step.
 * Return: 0, or -EFAULT with *@bad the step whose parameters failed.
 */
static int vgpu_chain_params_read(struct vgpu_run *run, u64 span, u64 bytes,
				  u32 *bad)
{
	struct vgpu_run_step *st;
	u32 i;

	*bad = 0;
	if (span && !vgpu_read(run->ctx, span, run->params, bytes))
		return 0;
	for (i = 0; i < run->nsteps; i++) {
		st = &run->steps[i];
		*bad = i;
		if (st->s.launch.param_bytes &&
		    vgpu_read(run->ctx, st->s.launch.params,
			      run->params + st->param_off,
			      st->s.launch.param_bytes))
			return -EFAULT;
	}
	return 0;
}

/*
 * VGPU_CMD_LAUNCH_CHAIN: its steps read and checked, their parameters
 * read, all before any runs; then the first step becomes active.
 */
static int vgpu_chain_start_run(struct vgpu_chan *chan,
				const struct vgpu_cmd *cmd, u64 seqno)
{
	static const struct vgpu_cmd_launch none;
	struct vgpu_ctx *ctx = chan->ctx;
	u32 n = cmd->chain.nsteps, i = 0, kind = VGPU_KFAULT_RESOURCES;
	struct vgpu_chain_step *raw = NULL;
	struct vgpu_cmd_launch blamed;
	struct vgpu_run_step *st;
	struct vgpu_run *run;
	u64 bytes, span;

	run = vgpu_fi_fail(ctx->vdev, VGPU_FI_LAUNCH) ? NULL :
		kzalloc(sizeof(*run), GFP_KERNEL_ACCOUNT);
	if (!run)
		return vgpu_bad_launch(chan, &none, seqno, 0, kind);
	run->ctx = ctx;
	/* The steps as read, and as checked: n is at most VGPU_MAX_CHAIN_STEPS. */
	bytes = (u64)n * (sizeof(*raw) + sizeof(*run->steps));
	if (vgpu_kmem_charge(ctx, bytes))
		goto bad;
	run->chain_kmem = bytes;
	/* Not zeroed: every step is written below before anything reads it. */
	raw = kvmalloc_array(n, sizeof(*raw), GFP_KERNEL_ACCOUNT);
	run->steps = kvmalloc_array(n, sizeof(*run->steps), GFP_KERNEL_ACCOUNT);
	if (!raw || !run->steps)
		goto bad;
	kind = VGPU_KFAULT_BAD_LAUNCH;
	if (vgpu_read(ctx, cmd->chain.steps, raw, (size_t)n * sizeof(*raw)))
		goto bad;
	for (i = 0; i < n; i++) {
		run->steps[i].s = raw[i];
		run->steps[i].mod = NULL;
	}
	run->nsteps = n;
	kvfree(raw);
	raw = NULL;
	/* The steps as read are given back; the checked ones stay charged. */
	vgpu_kmem_uncharge(ctx, (u64)n * sizeof(*raw));
	run->chain_kmem -= (u64)n * sizeof(*raw);
	for (i = 0; i < n; i++) {
		kind = vgpu_chain_step_check(run, i);
		if (kind)
			goto bad;
	}
	/* At most VGPU_MAX_PARAM_BYTES a step, or about that in one span. */
	i = 0;
	kind = VGPU_KFAULT_RESOURCES;
	bytes = vgpu_chain_params_place(run, &span);
	if (vgpu_kmem_charge(ctx, bytes))
		goto bad;
	run->chain_kmem += bytes;
	run->params = kvmalloc(max_t(u64, bytes, 1), GFP_KERNEL_ACCOUNT);
	if (!run->params)
		goto bad;
	kind = VGPU_KFAULT_BAD_LAUNCH;
	if (vgpu_chain_params_read(run, span, bytes, &i))
		goto bad;
	st = &run->steps[0];
	vgpu_run_set(run, st->mod, &st->s.launch, st->s.flags, run->params);
	return vgpu_run_activate(run, chan, cmd->flags, seqno);

bad:
	kvfree(raw);
	/* The step the chain fails at, named in the report. */
	blamed = i < run->nsteps ? run->steps[i].s.launch : none;
	vgpu_run_free(run);
	return vgpu_bad_launch(chan, &blamed, seqno, i, kind);
}

/*
 * @run, a chain whose step has ended, goes on to the next: its blocks are
 * handed out from here, as those of a launch just started.
 */
static void vgpu_chain_next(struct vgpu_compute *ce, struct vgpu_run *run)
{
	struct vgpu_run_step *st = &run->steps[++run->step];

	lockdep_assert_held(&ce->lock);
	vgpu_run_set(run, st->mod, &st->s.launch, st->s.flags,
		     run->params + st->param_off);
	/* The SMs' buffers hold another kernel's values: a new launch. */
	run->id = ++ce->runs;
	run->deadline = vgpu_run_deadline(1);
	if (run->user && list_empty(&run->ctx->usms))
		run->user = false;
	if (run->user)
		vgpu_usm_started(ce, run);
	else
		wake_up_all(&ce->wq);
}

/**
 * vgpu_compute_start() - make @cmd, @chan's next command (a launch or a
 * chain of them), an active launch.
 * Runs in the engine's work item: what it allocates for the launch is
 * charged to the context's memory cgroup, not to the worker's (the root).
 * Return: -EINPROGRESS (vgpu_chan_done() follows when the last block
 * ends), or an error that ends the command now.
 */
int vgpu_compute_start(struct vgpu_chan *chan, const struct vgpu_cmd *cmd,
		       u64 seqno)
{
	struct mem_cgroup *old;
	int ret;

	/* Injected: an illegal address, before any block ran. */
	if (vgpu_fi_fail(chan->ctx->vdev, VGPU_FI_COMPUTE_FAULT))
		return vgpu_bad_launch(chan, &cmd->launch, seqno, 0,
				       VGPU_KFAULT_ADDRESS);
	old = set_active_memcg(chan->ctx->memcg);
	if (cmd->op == VGPU_CMD_LAUNCH_CHAIN)
		ret = vgpu_chain_start_run(chan, cmd, seqno);
	else
		ret = vgpu_compute_start_run(chan, &cmd->launch, cmd->flags,
					     seqno);
	set_active_memcg(old);
	return ret;
}

/*
 * Ends a launch whose last block has finished. An SM that does (@hold)
 * starts the channel's next launch itself, rather than wake the front
 * end's worker to do it (vgpu_chan_done_hold()): a chain of small
 * launches, a graph's, then runs without a sleep and a wake-up between
 * each two (a command fault injection stalls goes back to the worker,
 * vgpu_engine_run_one()). Return: whether the front end is the caller's
 * to run (vgpu_engine_run_one() or run_ctx(), then vgpu_engine_wake()).
 */
bool vgpu_run_end_hold(struct vgpu_run *run, bool hold)
{
	struct vgpu_chan *chan = run->chan;
	struct vgpu_engine *front = &chan->ctx->vdev->compute.front;
	int ret = run->ret;

	vgpu_run_free(run);
	return vgpu_chan_done_hold(chan, ret, 0, hold ? front : NULL);
}

void vgpu_run_end(struct vgpu_run *run)
{
	vgpu_run_end_hold(run, false);
}

/*
 * Takes the next block of some active launch. Contexts take turns, as a
 * GPU time-slices between the contexts of different processes: the first
 * launch in the list with blocks left names the context, which gets the
 * block, and priorities rank only that context's launches (stream
 * priorities order a context's own work), so no process starves another
 * however it sets them. The launch that named the context and the one
 * that got the block then go to the back, so the next block goes to
 * another context if one is waiting, and launches of one priority take
 * turns. A gang's blocks go all together (*@block is then 0 and *@n the
 * grid). False when there is none.
 */
static bool vgpu_take_block(struct vgpu_compute *ce, struct vgpu_run **prun,
			    u64 *block, u64 *n)
{
	struct vgpu_run *run, *first = NULL, *best = NULL;

	spin_lock(&ce->lock);
	list_for_each_entry(run, &ce->active, node) {
		if (run->failed || run->next == run->nblocks || run->user)
			continue;
		if (!first)
			first = run;
		if (run->ctx == first->ctx &&
		    (!best || run->priority > best->priority))
			best = run;
	}
	if (best) {
		*block = best->next;
		*n = best->gang ? best->nblocks : 1;
		best->next += *n;
		*prun = best;
		list_move_tail(&first->node, &ce->active);
		if (best != first)
			list_move_tail(&best->node, &ce->active);
	}
	spin_unlock(&ce->lock);
	return best;
}

/*
 * The launch ends early with @ret: blocks not handed out are written off
 * (those running see run->failed at their next slice), and so are those
 * user-mode SMs hold, whose reports will find nothing to report to.
 */
void vgpu_run_stop(struct vgpu_compute *ce, struct vgpu_run *run, int ret)
{
	lockdep_assert_held(&ce->lock);
	if (run->failed)
		return;
	run->failed = true;
	run->ret = ret;
	run->left -= run->nblocks - run->next;
	run->next = run->nblocks;
	if (run->user)
		vgpu_usm_write_off(ce, run);
}

/*
 * @n blocks are over (@stop: the launch ends early). Return: whether that
 * was the last: the launch has left the active list, and the caller ends
 * it (vgpu_run_end()) once it has let go of @ce->lock.
 */
bool vgpu_block_over_locked(struct vgpu_compute *ce, struct vgpu_run *run,
			    u64 n, bool stop, int ret)
{
	lockdep_assert_held(&ce->lock);
	if (stop)
		vgpu_run_stop(ce, run, ret);
	run->left -= n;
	if (run->left)
		return false;
	/* A chain's step ended: the next starts, unless the chain stops. */
	if (!run->failed && run->step + 1 < run->nsteps &&
	    !READ_ONCE(run->ctx->failed) && !READ_ONCE(run->ctx->dying)) {
		vgpu_chain_next(ce, run);
		return false;
	}
	list_del(&run->node);
	return true;
}

/*
 * @n blocks are over (@stop: the launch ends early). Whoever ends the
 * last running block ends the launch (@hold: as vgpu_run_end_hold()).
 */
static bool vgpu_block_over_hold(struct vgpu_compute *ce,
				 struct vgpu_run *run, u64 n, bool stop,
				 int ret, bool hold)
{
	bool last;

	spin_lock(&ce->lock);
	last = vgpu_block_over_locked(ce, run, n, stop, ret);
	spin_unlock(&ce->lock);
	return last && vgpu_run_end_hold(run, hold);
}

void vgpu_block_over(struct vgpu_compute *ce, struct vgpu_run *run,
		     u64 n, bool stop, int ret)
{
	vgpu_block_over_hold(ce, run, n, stop, ret, false);
}

/**
 * vgpu_compute_cancel() - ends @ctx's launches on release, without an SM:
 * one whose blocks all wait (behind other contexts' blocks that may run
 * for as long as the watchdog lets them) ends here at once, one with
 * blocks running ends when they see the context dying at their next
 * slice. Called once @ctx->dying is set, after which no launch of the
 * context becomes active (vgpu_compute_start_run()), so release waits
 * for no SM to come free.
 */
void vgpu_compute_cancel(struct vgpu_ctx *ctx)
{
	struct vgpu_compute *ce = &ctx->vdev->compute;
	struct vgpu_run *run, *tmp;
	LIST_HEAD(ended);

	spin_lock(&ce->lock);
	list_for_each_entry_safe(run, tmp, &ce->active, node) {
		if (run->ctx != ctx)
			continue;
		vgpu_run_stop(ce, run, 0);
		if (!run->left)
			list_move(&run->node, &ended);
	}
	spin_unlock(&ce->lock);
	list_for_each_entry_safe(run, tmp, &ended, node) {
		list_del(&run->node);
		vgpu_run_end(run);
	}
}

void vgpu_report(struct vgpu_run *run, u64 block,
		 const struct vgpu_fault *fault, u32 kind)
{
	const struct vgpu_launch *l = &run->l;
	struct vgpu_chan_fault f = {
		.kind = kind, .insn = fault ? fault->insn : 0,
		.addr = fault ? fault->addr : 0,
		.module = run->module, .func = (u32)(l->func - run->mod->funcs),
		.seqno = run->seqno, .step = run->step,
	};
	u32 t = fault ? fault->thread : 0;

	f.block[0] = block % l->grid[0];
	f.block[1] = block / l->grid[0] % l->grid[1];
	f.block[2] = block / l->grid[0] / l->grid[1];
	f.thread[0] = t % l->block[0];
	f.thread[1] = t / l->block[0] % l->block[1];
	f.thread[2] = t / l->block[0] / l->block[1];
	vgpu_chan_set_fault(run->chan, &f);
}

static const u32 vgpu_fault_kinds[] = {
	[VGPU_FAULT_ADDRESS] = VGPU_KFAULT_ADDRESS,
	[VGPU_FAULT_MISALIGNED] = VGPU_KFAULT_MISALIGNED,
	[VGPU_FAULT_TRAP] = VGPU_KFAULT_TRAP,
	[VGPU_FAULT_DEADLOCK] = VGPU_KFAULT_DEADLOCK,
};

/*
 * Before a slice of @block: whether the launch must stop instead, with
 * *@ret set (another channel's fault ends the context's launches too).
 */
static bool vgpu_slice_stop(struct vgpu_run *run, u64 block, int *ret)
{
	struct vgpu_ctx *ctx = run->ctx;

	if (READ_ONCE(run->failed) || READ_ONCE(ctx->dying) ||
	    READ_ONCE(ctx->failed)) {
		*ret = 0;
		return true;
	}
	if (run->deadline && time_after(jiffies, run->deadline)) {
		vgpu_report(run, block, NULL, VGPU_KFAULT_TIMEOUT);
		*ret = -ETIME;
		return true;
	}
	return false;
}

/* One slice of @budget instructions of a block; VGPU_RUN_*. */
static int vgpu_slice(struct vgpu_run *run, struct vgpu_block *state,
		      u32 budget)
{
	struct vgpu_ctx *ctx = run->ctx;
	int r;

	down_read(&ctx->vm.lock);
	vgpu_block_flush_tlb(state);
	/* Peers' memory the slice finds stays while it runs (vgpu_peer.c). */
	rcu_read_lock();
	kernel_fpu_begin();
	r = vgpu_block_run(state, budget);
	kernel_fpu_end();
	rcu_read_unlock();
	up_read(&ctx->vm.lock);
	vgpu_managed_unmap(ctx);
	cond_resched();
	return r;
}

/* A block's fault: reported, and the launch ends with -EIO. */
static bool vgpu_block_faulted(struct vgpu_run *run, u64 block,
			       const struct vgpu_block *state, int *ret)
{
	const struct vgpu_fault *f = vgpu_block_fault(state);

	vgpu_report(run, block, f, f->kind < ARRAY_SIZE(vgpu_fault_kinds) ?
		    vgpu_fault_kinds[f->kind] : VGPU_KFAULT_TRAP);
	*ret = -EIO;
	return true;
}

/*
 * Runs one block to its end in slices. @state is the worker's buffer of
 * at least run->block_bytes. Returns whether the launch must stop, with
 * *@ret set.
 */
static bool vgpu_run_block(struct vgpu_run *run, u64 block,
			   struct vgpu_block *state, bool clear, int *ret)
{
	int r = VGPU_RUN_MORE;

	vgpu_block_start(state, &run->l, (u32)block, clear);
	while (r == VGPU_RUN_MORE) {
		if (vgpu_slice_stop(run, block, ret))
			return true;
		r = vgpu_slice(run, state, VGPU_SLICE);
	}
	if (r == VGPU_RUN_FAULT)
		return vgpu_block_faulted(run, block, state, ret);
	return false;
}

/*
 * Runs every block of a gang to its end, in turns of VGPU_GANG_SLICE
 * instructions, so that blocks waiting for each other at a grid barrier
 * all advance. Returns whether the launch must stop, with *@ret set.
 */
static bool vgpu_run_gang(struct vgpu_run *run, int *ret)
{
	u64 left = run->nblocks, b;

	/* The memory came from the allocator: nothing may leak from it. */
	for (b = 0; b < run->nblocks; b++) {
		vgpu_block_start((struct vgpu_block *)(run->gang +
						       b * run->block_bytes),
				 &run->l, (u32)b, true);
		cond_resched();
	}
	while (left) {
		for (b = 0; b < run->nblocks; b++) {
			struct vgpu_block *state = (struct vgpu_block *)
				(run->gang + b * run->block_bytes);
			int r;

			if (test_bit(b, run->gang_done))
				continue;
			if (vgpu_slice_stop(run, b, ret))
				return true;
			r = vgpu_slice(run, state, VGPU_GANG_SLICE);
			if (r == VGPU_RUN_FAULT)
				return vgpu_block_faulted(run, b, state, ret);
			if (r == VGPU_RUN_DONE) {
				__set_bit(b, run->gang_done);
				left--;
			}
		}
	}
	return false;
}

/*
 * struct vgpu_sm_state - an SM worker's buffer for the blocks it runs:
 * @bytes of it, charged to @memcg (compared, never dereferenced: the
 * context that held the reference may be gone), last holding a block of
 * launch @last (0: none, or the buffer is new).
 */
struct vgpu_sm_state {
	struct vgpu_block *block;
	u64 bytes;
	struct mem_cgroup *memcg;
	u64 last;
};

static void vgpu_sm_state_free(struct vgpu_sm_state *s)
{
	kvfree(s->block);
	*s = (struct vgpu_sm_state){ };
}

/*
 * A buffer for a block of @run, charged to @run's context: the one the
 * worker has if it is large enough and charged there, else a new one.
 * Out of memory, or over the memory cgroup's limit, it fails quietly:
 * the launch fails, not the machine.
 */
static int vgpu_sm_state_get(struct vgpu_sm_state *s, struct vgpu_run *run)
{
	struct mem_cgroup *memcg = run->ctx->memcg, *old;

	if (s->block && s->bytes >= run->block_bytes && s->memcg == memcg)
		return 0;
	vgpu_sm_state_free(s);
	old = set_active_memcg(memcg);
	s->block = vgpu_fi_fail(run->ctx->vdev, VGPU_FI_BLOCK) ? NULL :
		kvmalloc(run->block_bytes, GFP_KERNEL_ACCOUNT |
			 __GFP_NOWARN | __GFP_RETRY_MAYFAIL);
	set_active_memcg(old);
	if (!s->block)
		return -ENOMEM;
	s->bytes = run->block_bytes;
	s->memcg = memcg;
	return 0;
}

/*
 * An SM with no block starts the launches queued on the front end itself
 * (vgpu_engine_run_one()), while that takes no block for it: a chain of
 * small launches then runs without a sleep and two wake-ups between each
 * two. Return: whether it took a block.
 */
static bool vgpu_sm_front(struct vgpu_compute *ce, struct vgpu_run **run,
			  u64 *block, u64 *n)
{
	while (vgpu_engine_run_one(&ce->front)) {
		if (vgpu_take_block(ce, run, block, n))
			return true;
		cond_resched();
	}
	return false;
}

static int vgpu_sm_main(void *data)
{
	struct vgpu_device *vdev = data;
	struct vgpu_compute *ce = &vdev->compute;
	struct vgpu_sm_state s = { };

	while (!kthread_should_stop()) {
		struct vgpu_run *run;
		bool stop;
		u64 block, n;
		int ret = 0;

		if (!vgpu_take_block(ce, &run, &block, &n) &&
		    !vgpu_sm_front(ce, &run, &block, &n)) {
			/*
			 * Idle: give the buffer back, so that no memory stays
			 * charged to (or allocated for) a process that is done.
			 */
			vgpu_sm_state_free(&s);
			wait_event_interruptible(ce->wq, kthread_should_stop() ||
						 vgpu_take_block(ce, &run, &block,
								 &n));
			if (kthread_should_stop())
				break;
		}
		/* The look above, or the wait's condition, took a block. */
		if (run->gang) {
			stop = vgpu_run_gang(run, &ret);
			vgpu_block_over(ce, run, n, stop, ret);
			continue;
		}
		if (vgpu_sm_state_get(&s, run)) {
			vgpu_report(run, block, NULL, VGPU_KFAULT_RESOURCES);
			vgpu_block_over(ce, run, 1, true, -EIO);
			continue;
		}
		/* Another launch's values (maybe another process's) go first. */
		stop = vgpu_run_block(run, block, s.block, run->id != s.last,
				      &ret);
		s.last = run->id;
		/* The channel's next launch, when this ended one, starts here. */
		if (vgpu_block_over_hold(ce, run, 1, stop, ret, true)) {
			vgpu_engine_run_one(&ce->front);
			vgpu_engine_wake(&ce->front);
		}
	}
	vgpu_sm_state_free(&s);
	return 0;
}

int vgpu_compute_init(struct vgpu_device *vdev, unsigned int nsm)
{
	struct vgpu_compute *ce = &vdev->compute;
	unsigned int i;

	spin_lock_init(&ce->lock);
	INIT_LIST_HEAD(&ce->active);
	init_waitqueue_head(&ce->wq);
	INIT_DELAYED_WORK(&ce->usm_watch, vgpu_usm_watch);
	ce->sm = kcalloc(nsm, sizeof(*ce->sm), GFP_KERNEL);
	if (!ce->sm)
		return -ENOMEM;
	for (i = 0; i < nsm; i++) {
		struct task_struct *t;

		t = kthread_run(vgpu_sm_main, vdev, "vgpu%u-sm%u",
				vdev->props.index, i);
		if (IS_ERR(t)) {
			vgpu_compute_fini(vdev);
			return PTR_ERR(t);
		}
		ce->sm[i] = t;
		ce->nsm = i + 1;
	}
	return 0;
}

/* Device teardown: no context is left, so no launch is active. */
void vgpu_compute_fini(struct vgpu_device *vdev)
{
	struct vgpu_compute *ce = &vdev->compute;
	unsigned int i;

	/* Set up with the workers' table (a device may fail before). */
	if (ce->sm)
		cancel_delayed_work_sync(&ce->usm_watch);
	for (i = 0; i < ce->nsm; i++)
		kthread_stop(ce->sm[i]);
	kfree(ce->sm);
	ce->sm = NULL;
	ce->nsm = 0;
}
