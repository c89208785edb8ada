/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An active launch, as the compute engine (vgpu_compute.c) and the
 * user-mode SMs (vgpu_usm.c) that take blocks of it both see it. Its
 * block counters and @user change under vgpu_compute.lock.
 */
#ifndef _VGPU_RUN_H
#define _VGPU_RUN_H

#include "vgpu_drv.h"

/*
 * struct vgpu_run_step - a launch of a chain, checked when the chain
 * started: its module (a reference the chain holds until it ends), its
 * command, where its parameters lie in the chain's (vgpu_run.params) and
 * the state one of its blocks needs.
 */
struct vgpu_run_step {
	struct vgpu_module *mod;
	struct vgpu_chain_step s;
	u64 param_off;
	u64 block_bytes;
};

/*
 * struct vgpu_run - an active launch.
 * @next: blocks handed out so far; @left: blocks not yet finished.
 * @failed: a block faulted or the budget ran out: hand out no more.
 * @user: its blocks go to the context's user-mode SMs, not the module's.
 * @gang: a cooperative launch's blocks, all run by one worker, or NULL;
 * @gang_done: a bit per block that has finished, after them.
 */
struct vgpu_run {
	struct list_head node;
	struct vgpu_chan *chan;
	struct vgpu_ctx *ctx;
	struct vgpu_module *mod;
	struct vgpu_launch l;
	u8 *params;
	u32 module;
	u32 param_bytes;
	u64 seqno;
	u64 id;			/* this launch among the device's, from 1 */
	u64 nblocks;
	u64 next;
	u64 left;
	u64 block_bytes;
	unsigned long deadline;	/* jiffies; 0: none */
	u32 priority;		/* VGPU_LAUNCH_PRIORITY_*: higher goes first */
	bool failed;
	bool user;
	bool runs;		/* user-mode SMs may take runs of blocks */
	int ret;		/* how the launch ends: 0, -EIO or -ETIME */
	u8 *gang;
	unsigned long *gang_done;
	u64 gang_kmem;		/* charged to the context for @gang */
	/*
	 * A chain's (VGPU_CMD_LAUNCH_CHAIN): its launches, checked when it
	 * started; the one running (its module, parameters and shape are
	 * @mod, @params and @l above); what the chain charged the context.
	 */
	struct vgpu_run_step *steps;
	u32 nsteps;
	u32 step;
	u64 chain_kmem;
};

/* vgpu_compute.c */
void vgpu_run_stop(struct vgpu_compute *ce, struct vgpu_run *run, int ret);
bool vgpu_block_over_locked(struct vgpu_compute *ce, struct vgpu_run *run,
			    u64 n, bool stop, int ret);
void vgpu_block_over(struct vgpu_compute *ce, struct vgpu_run *run,
		     u64 n, bool stop, int ret);
void vgpu_run_end(struct vgpu_run *run);
bool vgpu_run_end_hold(struct vgpu_run *run, bool hold);
unsigned long vgpu_run_deadline(u32 launches);
void vgpu_report(struct vgpu_run *run, u64 block,
		 const struct vgpu_fault *fault, u32 kind);

/* vgpu_usm.c */
void vgpu_usm_write_off(struct vgpu_compute *ce, struct vgpu_run *run);
void vgpu_usm_started(struct vgpu_compute *ce, struct vgpu_run *run);

#endif /* _VGPU_RUN_H */
