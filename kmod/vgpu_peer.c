// SPDX-License-Identifier: GPL-2.0
/*
 * Peers: one context reaching another's device memory (PEER_SET). A link
 * from context A to context B lets A's copy engines resolve B's device
 * addresses, and A's kernels too once VGPU_PEER_ACCESS is set; copies
 * between two devices then run on one engine, memory to memory. Of B's
 * mappings (vgpu_vmm.c), and of its allocations where the link lacks
 * access, A reaches what B gave A's device (MEM_ACCESS), no more.
 *
 * A reads B's allocation tree without B's lock: taking B's vgpu_vm.lock
 * inside A's could deadlock against writers queued on both (two readers
 * each waiting behind the other's writer). Instead B's tree is in RCU
 * mode, A's engines look B's memory up inside an RCU read-side section
 * that lasts as long as they use what they found (a slice of a block, a
 * piece of a copy), and B, once any context links to it (a peer target),
 * waits for a grace period (vgpu_vm_retire()) between taking memory out
 * of its tree and freeing it.
 *
 * Links live on two lists, both changed under vgpu_peer_lock: A's
 * vgpu_vm.peers, which A's engines read under A's vgpu_vm.lock (so it
 * also changes under that lock, for writing), and B's vgpu_ctx.peered_by.
 * Closing either context ends the link; closing B first takes it out of
 * A's list under A's lock, which waits for any of A's engines still
 * reading B, so B's teardown needs no grace period.
 */
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "vgpu_drv.h"

/* Nests outside every vgpu_vm.lock; nothing else is taken with it. */
static DEFINE_MUTEX(vgpu_peer_lock);

/*
 * struct vgpu_peer - a link from context @from to context @to.
 * @node: in @from's vgpu_vm.peers.
 * @back: in @to's vgpu_ctx.peered_by.
 * @access: @from's kernels may reach @to's memory (under @from's
 *	vgpu_vm.lock).
 */
struct vgpu_peer {
	struct list_head node;
	struct list_head back;
	struct vgpu_ctx *from;
	struct vgpu_ctx *to;
	bool access;
};

void vgpu_peer_init(struct vgpu_ctx *ctx)
{
	INIT_LIST_HEAD(&ctx->vm.peers);
	INIT_LIST_HEAD(&ctx->peered_by);
}

static struct vgpu_peer *vgpu_peer_find(struct vgpu_ctx *from,
					struct vgpu_ctx *to,
					unsigned int *count)
{
	struct vgpu_peer *p;

	lockdep_assert_held(&vgpu_peer_lock);
	*count = 0;
	list_for_each_entry(p, &from->vm.peers, node) {
		if (p->to == to)
			return p;
		++*count;
	}
	return NULL;
}

/**
 * vgpu_peer_set() - VGPU_IOCTL_PEER_SET's work once vgpu_file.c has found
 * the context @to that the descriptor names (the caller holds that file):
 * links @ctx to @to, or changes the link's access, to @flags.
 * Return: 0, -EINVAL, -ENOSPC or -ENOMEM (uapi/vgpu.h).
 */
int vgpu_peer_set(struct vgpu_ctx *ctx, struct vgpu_ctx *to, u32 flags)
{
	struct vgpu_peer *p, *fresh;
	bool added = false;
	unsigned int count;
	int ret = 0;

	if (flags & ~VGPU_PEER_ACCESS)
		return -EINVAL;
	/* Unified addresses are a process's: its windows never overlap. */
	if (to == ctx || to->mm != ctx->mm)
		return -EINVAL;
	fresh = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? NULL :
		kzalloc(sizeof(*fresh), GFP_KERNEL_ACCOUNT);
	if (!fresh)
		return -ENOMEM;

	mutex_lock(&vgpu_peer_lock);
	p = vgpu_peer_find(ctx, to, &count);
	if (!p && count >= VGPU_MAX_PEERS) {
		ret = -ENOSPC;
		goto unlock;
	}
	if (!p) {
		/*
		 * @to frees with a grace period from here on: set under its
		 * lock, before any of our engines can find its memory.
		 */
		down_write(&to->vm.lock);
		to->vm.peer_target = true;
		vgpu_vm_write_unlock(&to->vm);
		p = fresh;
		fresh = NULL;
		p->from = ctx;
		p->to = to;
		list_add(&p->back, &to->peered_by);
		added = true;
	}
	down_write(&ctx->vm.lock);
	p->access = flags & VGPU_PEER_ACCESS;
	if (added)
		list_add_tail(&p->node, &ctx->vm.peers);
	vgpu_vm_write_unlock(&ctx->vm);
unlock:
	mutex_unlock(&vgpu_peer_lock);
	kfree(fresh);
	return ret;
}

/*
 * Context teardown, before its address space goes: every link to or from
 * @ctx ends. Taking each linking context's lock for writing waits for its
 * engines to stop reading @ctx's memory.
 */
void vgpu_peer_fini(struct vgpu_ctx *ctx)
{
	struct vgpu_peer *p, *next;

	mutex_lock(&vgpu_peer_lock);
	list_for_each_entry_safe(p, next, &ctx->peered_by, back) {
		down_write(&p->from->vm.lock);
		list_del(&p->node);
		vgpu_vm_write_unlock(&p->from->vm);
		list_del(&p->back);
		kfree(p);
	}
	down_write(&ctx->vm.lock);
	list_for_each_entry_safe(p, next, &ctx->vm.peers, node) {
		list_del(&p->node);
		list_del(&p->back);
		kfree(p);
	}
	ctx->vm.peer_target = false;
	vgpu_vm_write_unlock(&ctx->vm);
	mutex_unlock(&vgpu_peer_lock);
}

/**
 * vgpu_peer_translate() - what device address @va reaches in a context
 * @vm links to: the copy engines' view (@kernel false) or a kernel's
 * (only peers with VGPU_PEER_ACCESS). Device memory only, never the
 * peer's host ranges; of its mappings (vgpu_vmm.c), what they let the
 * linking context's device do, whichever the link. The caller holds @vm->lock and is inside an RCU
 * read-side section for as long as it uses *@s.
 * Return: 0, or -EFAULT.
 */
int vgpu_peer_translate(struct vgpu_vm *vm, u64 va, bool kernel,
			struct vgpu_vm_span *s)
{
	struct vgpu_peer *p;

	lockdep_assert_held(&vm->lock);
	RCU_LOCKDEP_WARN(!rcu_read_lock_held(), "peer lookup outside RCU");
	list_for_each_entry(p, &vm->peers, node) {
		struct vgpu_vm *pv = &p->to->vm;
		int dev = -1;

		if (va - READ_ONCE(pv->base) >= READ_ONCE(pv->size))
			continue;
		/* Mappings: the rights they give the linking device. */
		if (p->to->vdev != p->from->vdev)
			dev = MINOR(p->from->vdev->dev.devt);
		return vgpu_vm_translate_device(pv, va, dev,
						!kernel || p->access, s);
	}
	return -EFAULT;
}
