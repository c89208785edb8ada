/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injection (vgpu_fault_inject.c): knobs in debugfs that make the
 * module's own allocations and pins fail, its engines fault or hold their
 * next command, so that tests reach every error path on a kernel built
 * without CONFIG_FAULT_INJECTION (as distribution kernels are).
 *
 * Each allocation and pin site names the kind it belongs to in its hook:
 *
 *	ptr = vgpu_fi_fail(vdev, VGPU_FI_MEM) ? NULL : kzalloc(...);
 *
 * Without debugfs the hooks are constant false; with it, a static key
 * that stays off until a knob is first written, so a kernel where nobody
 * tests pays a patched-out jump.
 */
#ifndef _VGPU_FAULT_INJECT_H
#define _VGPU_FAULT_INJECT_H

#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/jump_label.h>
#include <linux/types.h>
#include <linux/wait.h>

struct dentry;
struct vgpu_chan;
struct vgpu_cmd;
struct vgpu_device;
struct vgpu_engine;

/*
 * What a countdown fails (the debugfs file fail_<kind>, or fault_<engine>
 * for the engines' commands). The sites of each kind are listed in
 * vgpu_fault_inject.c.
 */
enum vgpu_fi_site {
	VGPU_FI_CTX,		/* open(): the context, its status page */
	VGPU_FI_MEM,		/* device memory: records, chunks, trees */
	VGPU_FI_HOST,		/* host ranges: records, pages, trees, ids */
	VGPU_FI_PIN,		/* pin_user_pages_fast() of HOST_REGISTER */
	VGPU_FI_CHAN,		/* channels, their queues, SUBMIT's copy */
	VGPU_FI_MODULE,		/* MODULE_LOAD: copies, verifier, handle */
	VGPU_FI_HEAP,		/* HEAP_CREATE: the heap and its bitmaps */
	VGPU_FI_LAUNCH,		/* a launch's start: record, params, gang */
	VGPU_FI_BLOCK,		/* an SM worker's block state */
	VGPU_FI_CE_FAULT,	/* a copy engine's command faults */
	VGPU_FI_COMPUTE_FAULT,	/* a launch faults */
	VGPU_FI_NR_SITES
};

/* Engines that can be stalled (the debugfs file stall_<engine>). */
enum vgpu_fi_engine {
	VGPU_FI_ENGINE_CE,	/* both copy engines */
	VGPU_FI_ENGINE_COMPUTE,	/* the compute engine's front end */
	VGPU_FI_NR_ENGINES
};

/*
 * struct vgpu_fi - a device's knobs.
 * @countdown: per site kind: 0 off; n: the n-th hook call of the kind
 *	fails, and the knob is 0 again.
 * @stall: per engine: hold the next command while set.
 * @stall_wq: woken when a stall is lifted.
 * @dir: the device's directory in debugfs.
 */
struct vgpu_fi {
#ifdef CONFIG_DEBUG_FS
	atomic_t countdown[VGPU_FI_NR_SITES];
	bool stall[VGPU_FI_NR_ENGINES];
	wait_queue_head_t stall_wq;
	struct dentry *dir;
#endif
};

#ifdef CONFIG_DEBUG_FS
DECLARE_STATIC_KEY_FALSE(vgpu_fi_armed);

bool __vgpu_fi_fail(struct vgpu_device *vdev, enum vgpu_fi_site site);
bool __vgpu_fi_stall(struct vgpu_engine *e, struct vgpu_chan *chan,
		     bool may_wait);

/* Whether this call at a site of kind @site must fail. */
static inline bool vgpu_fi_fail(struct vgpu_device *vdev,
				enum vgpu_fi_site site)
{
	return static_branch_unlikely(&vgpu_fi_armed) &&
	       __vgpu_fi_fail(vdev, site);
}

/*
 * Engine @e holds @chan's next command while its stall is set: its
 * worker (@may_wait) waits here until the stall is lifted; an SM that
 * runs the engine's list does not wait. Return: whether the command is
 * held, for the caller to give back to the worker (only without
 * @may_wait).
 */
static inline bool vgpu_fi_stall(struct vgpu_engine *e, struct vgpu_chan *chan,
				 bool may_wait)
{
	return static_branch_unlikely(&vgpu_fi_armed) &&
	       __vgpu_fi_stall(e, chan, may_wait);
}

int vgpu_fi_exec_fault(const struct vgpu_cmd *cmd, u64 *fault);
void vgpu_fi_init(void);
void vgpu_fi_exit(void);
void vgpu_fi_device_add(struct vgpu_device *vdev);
void vgpu_fi_device_del(struct vgpu_device *vdev);
#else
static inline bool vgpu_fi_fail(struct vgpu_device *vdev,
				enum vgpu_fi_site site)
{
	return false;
}

static inline bool vgpu_fi_stall(struct vgpu_engine *e, struct vgpu_chan *chan,
				 bool may_wait)
{
	return false;
}

/* Never called: vgpu_fi_fail() is false. */
static inline int vgpu_fi_exec_fault(const struct vgpu_cmd *cmd, u64 *fault)
{
	return -EFAULT;
}

static inline void vgpu_fi_init(void) { }
static inline void vgpu_fi_exit(void) { }
static inline void vgpu_fi_device_add(struct vgpu_device *vdev) { }
static inline void vgpu_fi_device_del(struct vgpu_device *vdev) { }
#endif

#endif /* _VGPU_FAULT_INJECT_H */
