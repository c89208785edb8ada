// SPDX-License-Identifier: GPL-2.0
/*
 * Fault injection for tests: debugfs knobs under vgpu/vgpuN/, one set per
 * device, so that a test arms the device it drives and leaves the users
 * of the others alone, and so that a stall holds one device's engines,
 * as a hung GPU would.
 *
 *   fail_<kind>	countdown: write n, the n-th allocation (or pin) of
 *			that kind fails as the allocator would (-ENOMEM),
 *			then the knob reads 0 again; 0 disarms. A test
 *			walks every site of an ioctl with n = 1, 2, ...
 *			until the knob is left unconsumed.
 *   fault_ce		countdown: the n-th command a copy engine runs
 *			faults at its destination, as one whose memory was
 *			unmapped would (the channel fails VGPU_CHAN_FAULT).
 *   fault_compute	countdown: the n-th launch faults before any block
 *			ran, reported through CHAN_FAULT as an illegal
 *			address (VGPU_KFAULT_ADDRESS at 0, block 0,
 *			thread 0, instruction 0; vgpu_compute.c reports it).
 *   stall_ce,		while 1, the engine holds the next command it
 *   stall_compute	takes. The context of that command closing lets
 *			it go (it is then skipped, as every command of a
 *			closing context is), so close() and exit never
 *			wait on a knob; commands of other contexts behind
 *			it on the same engine wait with it.
 *
 * The sites of each kind (the hooks name them):
 *   ctx:	vgpu_open()'s context; vgpu_chan_init()'s status page.
 *   mem:	MEM_ALLOC's record; a chunk's record, memory, granule map,
 *		place in the chunk tree; the allocation tree (also reached
 *		from HEAP_CREATE).
 *   host:	HOST_REGISTER's record, page array, place in the host
 *		tree; HOST_ALLOC's record, page array, pages, id; mmap()'s
 *		place in the host tree.
 *   pin:	each batch HOST_REGISTER pins.
 *   chan:	CHAN_CREATE's channel and queue; CHAN_SUBMIT's copy.
 *   module:	MODULE_LOAD's module, its three copied arrays, the
 *		verifier's verdict, seen map and stack, its handle.
 *   heap:	HEAP_CREATE's heap, its two bitmaps, its hidden record.
 *   launch:	a launch's run, its parameters, a gang's blocks.
 *   block:	an SM worker's block state.
 * What is allocated when the module loads (the devices, their workqueues
 * and SM workers) has no knob: nothing could arm it before it exists.
 * The kernel's own fault injection reaches those, where it is built in.
 */
#include <linux/debugfs.h>
#include <linux/jiffies.h>
#include <linux/wait.h>

#include "vgpu_drv.h"

/* How often a stalled engine looks whether its context is closing. */
#define VGPU_FI_STALL_POLL_MS 10

/*
 * On from the first write of a knob until the module goes: turning it
 * off again would have to know every device's knobs are 0, and costs
 * nobody who does not test.
 */
DEFINE_STATIC_KEY_FALSE(vgpu_fi_armed);

static struct dentry *vgpu_fi_root;

bool __vgpu_fi_fail(struct vgpu_device *vdev, enum vgpu_fi_site site)
{
	/* 1 fails this call; n lets n - 1 through first; 0 stays 0. */
	return atomic_dec_if_positive(&vdev->fi.countdown[site]) == 0;
}

bool __vgpu_fi_stall(struct vgpu_engine *e, struct vgpu_chan *chan,
		     bool may_wait)
{
	struct vgpu_ctx *ctx = chan->ctx;
	struct vgpu_device *vdev = ctx->vdev;
	bool *stall = &vdev->fi.stall[e == &vdev->compute.front ?
				      VGPU_FI_ENGINE_COMPUTE :
				      VGPU_FI_ENGINE_CE];

	if (!may_wait)
		return READ_ONCE(*stall) && !READ_ONCE(ctx->dying);
	/*
	 * Release sets dying without waking this queue (it waits for the
	 * engines instead): look at it periodically. An idle wait: a long
	 * stall is what the knob asked for, not a hung task.
	 */
	while (READ_ONCE(*stall) && !READ_ONCE(ctx->dying))
		wait_event_idle_timeout(vdev->fi.stall_wq,
					!READ_ONCE(*stall) ||
					READ_ONCE(ctx->dying),
					msecs_to_jiffies(VGPU_FI_STALL_POLL_MS));
	return false;
}

/*
 * A copy engine's injected fault: at the command's destination, as if it
 * had been unmapped (vgpu_exec()'s -EFAULT and address).
 */
int vgpu_fi_exec_fault(const struct vgpu_cmd *cmd, u64 *fault)
{
	switch (cmd->op) {
	case VGPU_CMD_COPY:
		*fault = cmd->copy.dst;
		break;
	case VGPU_CMD_MEMSET:
		*fault = cmd->memset.dst;
		break;
	case VGPU_CMD_SEM_RELEASE:
	case VGPU_CMD_SEM_ACQUIRE:
		*fault = cmd->sem.addr;
		break;
	default:
		*fault = 0;
		break;
	}
	return -EFAULT;
}

static int vgpu_fi_count_get(void *data, u64 *val)
{
	*val = atomic_read(data);
	return 0;
}

static int vgpu_fi_count_set(void *data, u64 val)
{
	if (val > INT_MAX)
		return -EINVAL;
	if (val)
		static_branch_enable(&vgpu_fi_armed);
	atomic_set(data, val);
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(vgpu_fi_count_fops, vgpu_fi_count_get,
			 vgpu_fi_count_set, "%llu\n");

static int vgpu_fi_stall_set_one(struct vgpu_fi *fi, enum vgpu_fi_engine e,
				 u64 val)
{
	if (val > 1)
		return -EINVAL;
	if (val)
		static_branch_enable(&vgpu_fi_armed);
	WRITE_ONCE(fi->stall[e], val);
	wake_up_all(&fi->stall_wq);
	return 0;
}

static int vgpu_fi_stall_ce_get(void *data, u64 *val)
{
	struct vgpu_fi *fi = data;

	*val = READ_ONCE(fi->stall[VGPU_FI_ENGINE_CE]);
	return 0;
}

static int vgpu_fi_stall_ce_set(void *data, u64 val)
{
	return vgpu_fi_stall_set_one(data, VGPU_FI_ENGINE_CE, val);
}
DEFINE_DEBUGFS_ATTRIBUTE(vgpu_fi_stall_ce_fops, vgpu_fi_stall_ce_get,
			 vgpu_fi_stall_ce_set, "%llu\n");

static int vgpu_fi_stall_compute_get(void *data, u64 *val)
{
	struct vgpu_fi *fi = data;

	*val = READ_ONCE(fi->stall[VGPU_FI_ENGINE_COMPUTE]);
	return 0;
}

static int vgpu_fi_stall_compute_set(void *data, u64 val)
{
	return vgpu_fi_stall_set_one(data, VGPU_FI_ENGINE_COMPUTE, val);
}
DEFINE_DEBUGFS_ATTRIBUTE(vgpu_fi_stall_compute_fops,
			 vgpu_fi_stall_compute_get,
			 vgpu_fi_stall_compute_set, "%llu\n");

static const char *const vgpu_fi_names[VGPU_FI_NR_SITES] = {
	[VGPU_FI_CTX] = "fail_ctx",
	[VGPU_FI_MEM] = "fail_mem",
	[VGPU_FI_HOST] = "fail_host",
	[VGPU_FI_PIN] = "fail_pin",
	[VGPU_FI_CHAN] = "fail_chan",
	[VGPU_FI_MODULE] = "fail_module",
	[VGPU_FI_HEAP] = "fail_heap",
	[VGPU_FI_LAUNCH] = "fail_launch",
	[VGPU_FI_BLOCK] = "fail_block",
	[VGPU_FI_CE_FAULT] = "fault_ce",
	[VGPU_FI_COMPUTE_FAULT] = "fault_compute",
};

/*
 * After the device is live: nothing arms its knobs before they exist, so
 * the hooks never see the queue uninitialised. Without debugfs (or where
 * it fails) the device simply has no knobs.
 */
void vgpu_fi_device_add(struct vgpu_device *vdev)
{
	struct vgpu_fi *fi = &vdev->fi;
	unsigned int i;

	init_waitqueue_head(&fi->stall_wq);
	fi->dir = debugfs_create_dir(dev_name(&vdev->dev), vgpu_fi_root);
	for (i = 0; i < VGPU_FI_NR_SITES; i++)
		debugfs_create_file_unsafe(vgpu_fi_names[i], 0600, fi->dir,
					   &fi->countdown[i],
					   &vgpu_fi_count_fops);
	debugfs_create_file_unsafe("stall_ce", 0600, fi->dir, fi,
				   &vgpu_fi_stall_ce_fops);
	debugfs_create_file_unsafe("stall_compute", 0600, fi->dir, fi,
				   &vgpu_fi_stall_compute_fops);
}

/*
 * Before the device goes: removal waits for knob writes in progress. A
 * stall left set holds nothing by then (no context is open).
 */
void vgpu_fi_device_del(struct vgpu_device *vdev)
{
	debugfs_remove_recursive(vdev->fi.dir);
	vdev->fi.dir = NULL;
}

void vgpu_fi_init(void)
{
	vgpu_fi_root = debugfs_create_dir("vgpu", NULL);
}

void vgpu_fi_exit(void)
{
	debugfs_remove_recursive(vgpu_fi_root);
	vgpu_fi_root = NULL;
}
