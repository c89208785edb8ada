// SPDX-License-Identifier: GPL-2.0
/*
 * File operations of /dev/vgpuN: open creates a context, release destroys
 * it, and ioctl dispatches through one table that enforces the conventions
 * of uapi/vgpu.h (type, direction and size of every command) before any
 * handler sees its argument.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/memcontrol.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "vgpu_drv.h"

static int vgpu_open(struct inode *inode, struct file *file)
{
	struct vgpu_device *vdev = container_of(inode->i_cdev,
						struct vgpu_device, cdev);
	struct vgpu_ctx *ctx;
	int ret;

	ret = nonseekable_open(inode, file);
	if (ret)
		return ret;

	ctx = vgpu_fi_fail(vdev, VGPU_FI_CTX) ? NULL :
		kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return -ENOMEM;
	ctx->vdev = vdev;	/* for vgpu_chan_init()'s fault injection */
	ret = vgpu_chan_init(ctx);
	if (ret) {
		kfree(ctx);
		return ret;
	}
	get_device(&vdev->dev);
	/* Kernel threads allocate for the context: they charge the opener. */
	ctx->memcg = get_mem_cgroup_from_mm(current->mm);
	/* Pinned memory is charged to the opener (vgpu_host.c). */
	ctx->mm = current->mm;
	if (ctx->mm)
		mmgrab(ctx->mm);
	vgpu_vm_init(&ctx->vm);
	vgpu_peer_init(ctx);
	ctx->mapping = file->f_mapping;
	vgpu_usm_init(ctx, file);
	xa_init_flags(&ctx->mobjs, XA_FLAGS_ALLOC1);
	vgpu_modules_init(ctx);
	file->private_data = ctx;
	return 0;
}

static int vgpu_release(struct inode *inode, struct file *file)
{
	struct vgpu_ctx *ctx = file->private_data;

	vgpu_chan_stop(ctx);
	vgpu_compute_cancel(ctx);
	vgpu_chan_fini(ctx);
	/* Nothing of another context's reads this one's memory after this. */
	vgpu_peer_fini(ctx);
	vgpu_modules_fini(ctx);
	/* The heap's bookkeeping; its memory goes with the address space. */
	vgpu_heap_fini(&ctx->vm);
	vgpu_vm_fini(ctx);
	vgpu_vmm_fini(ctx);
	put_device(&ctx->vdev->dev);
	mem_cgroup_put(ctx->memcg);
	if (ctx->mm)
		mmdrop(ctx->mm);
	kfree(ctx);
	return 0;
}

/*
 * vgpu_ioctl_peer_set() - VGPU_IOCTL_PEER_SET: the descriptor must be
 * another open context (vgpu_peer.c links the two).
 * Return: 0, -EBADF, -EINVAL, -ENOSPC or -ENOMEM (uapi/vgpu.h).
 */
static int vgpu_ioctl_peer_set(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_peer_set *s = data;
	struct file *file = fget(s->fd);
	int ret;

	if (!file)
		return -EBADF;
	ret = file->f_op == &vgpu_fops ?
		vgpu_peer_set(ctx, file->private_data, s->flags) : -EINVAL;
	fput(file);
	return ret;
}

/*
 * struct vgpu_ioctl_desc - one row of the dispatch table.
 * @cmd: the full command as this module defines it (type, nr, dir, size).
 * @min_size: size of the first version of the argument; shorter callers
 *	predate the ioctl and are refused.
 * @func: handler; gets the kernel copy of the argument.
 * @undo: for a command that creates something and writes its handle back:
 *	destroys what @func created, given the argument @func filled in.
 *	Called when the handle cannot be written back.
 * @commit: for a command whose result must not exist before the caller
 *	learns of it (a file descriptor: once installed, nobody but the
 *	caller may close it): makes it exist, once the argument is written
 *	back; @undo takes it back otherwise. Neither fails.
 */
struct vgpu_ioctl_desc {
	unsigned int cmd;
	unsigned int min_size;
	int (*func)(struct vgpu_ctx *ctx, void *data);
	void (*undo)(struct vgpu_ctx *ctx, const void *data);
	void (*commit)(struct vgpu_ctx *ctx, const void *data);
	bool out_on_einval;	/* -EINVAL still writes the argument back */
};

#define VGPU_IOCTL(ioctl, first_size, handler) \
	[_IOC_NR(ioctl)] = { .cmd = ioctl, .min_size = first_size, .func = handler }
#define VGPU_IOCTL_CREATE(ioctl, first_size, handler, undoer) \
	[_IOC_NR(ioctl)] = { .cmd = ioctl, .min_size = first_size, \
			     .func = handler, .undo = undoer }
#define VGPU_IOCTL_FD(ioctl, first_size, handler, undoer, committer) \
	[_IOC_NR(ioctl)] = { .cmd = ioctl, .min_size = first_size, \
			     .func = handler, .undo = undoer, \
			     .commit = committer }
#define VGPU_IOCTL_VERDICT(ioctl, first_size, handler, undoer) \
	[_IOC_NR(ioctl)] = { .cmd = ioctl, .min_size = first_size, \
			     .func = handler, .undo = undoer, \
			     .out_on_einval = true }

static const struct vgpu_ioctl_desc vgpu_ioctls[] = {
	VGPU_IOCTL(VGPU_IOCTL_GET_INFO, VGPU_INFO_SIZE_V1, vgpu_ioctl_get_info),
	VGPU_IOCTL(VGPU_IOCTL_SET_VA_WINDOW, sizeof(struct vgpu_va_window),
		   vgpu_ioctl_set_va_window),
	VGPU_IOCTL_CREATE(VGPU_IOCTL_MEM_ALLOC, sizeof(struct vgpu_mem_alloc),
			  vgpu_ioctl_mem_alloc, vgpu_mem_alloc_undo),
	VGPU_IOCTL(VGPU_IOCTL_MEM_FREE, sizeof(struct vgpu_mem_free),
		   vgpu_ioctl_mem_free),
	VGPU_IOCTL(VGPU_IOCTL_MEM_QUERY, sizeof(struct vgpu_mem_query),
		   vgpu_ioctl_mem_query),
	VGPU_IOCTL(VGPU_IOCTL_HOST_REGISTER, sizeof(struct vgpu_host_register),
		   vgpu_ioctl_host_register),
	VGPU_IOCTL(VGPU_IOCTL_HOST_UNREGISTER,
		   sizeof(struct vgpu_host_unregister),
		   vgpu_ioctl_host_unregister),
	VGPU_IOCTL_CREATE(VGPU_IOCTL_CHAN_CREATE,
			  sizeof(struct vgpu_chan_create),
			  vgpu_ioctl_chan_create, vgpu_chan_create_undo),
	VGPU_IOCTL(VGPU_IOCTL_CHAN_SUBMIT, sizeof(struct vgpu_chan_submit),
		   vgpu_ioctl_chan_submit),
	VGPU_IOCTL(VGPU_IOCTL_CHAN_WAIT, sizeof(struct vgpu_chan_wait),
		   vgpu_ioctl_chan_wait),
	VGPU_IOCTL(VGPU_IOCTL_CHAN_DESTROY, sizeof(struct vgpu_chan_destroy),
		   vgpu_ioctl_chan_destroy),
	VGPU_IOCTL_CREATE(VGPU_IOCTL_HOST_ALLOC,
			  sizeof(struct vgpu_host_alloc),
			  vgpu_ioctl_host_alloc, vgpu_host_alloc_undo),
	VGPU_IOCTL_VERDICT(VGPU_IOCTL_MODULE_LOAD,
			   sizeof(struct vgpu_module_load),
			   vgpu_ioctl_module_load, vgpu_module_load_undo),
	VGPU_IOCTL(VGPU_IOCTL_MODULE_UNLOAD, sizeof(struct vgpu_module_unload),
		   vgpu_ioctl_module_unload),
	VGPU_IOCTL(VGPU_IOCTL_CHAN_FAULT,
		   offsetofend(struct vgpu_chan_fault, seqno),
		   vgpu_ioctl_chan_fault),
	VGPU_IOCTL_CREATE(VGPU_IOCTL_HEAP_CREATE,
			  sizeof(struct vgpu_heap_create),
			  vgpu_ioctl_heap_create, vgpu_heap_create_undo),
	VGPU_IOCTL_CREATE(VGPU_IOCTL_MEM_CREATE,
			  sizeof(struct vgpu_mem_create),
			  vgpu_ioctl_mem_create, vgpu_mem_create_undo),
	VGPU_IOCTL(VGPU_IOCTL_MEM_RELEASE, sizeof(struct vgpu_mem_release),
		   vgpu_ioctl_mem_release),
	VGPU_IOCTL_CREATE(VGPU_IOCTL_VA_RESERVE,
			  sizeof(struct vgpu_va_reserve),
			  vgpu_ioctl_va_reserve, vgpu_va_reserve_undo),
	VGPU_IOCTL(VGPU_IOCTL_VA_FREE, sizeof(struct vgpu_va_free),
		   vgpu_ioctl_va_free),
	VGPU_IOCTL(VGPU_IOCTL_MEM_MAP, sizeof(struct vgpu_mem_map),
		   vgpu_ioctl_mem_map),
	VGPU_IOCTL(VGPU_IOCTL_MEM_UNMAP, sizeof(struct vgpu_mem_unmap),
		   vgpu_ioctl_mem_unmap),
	VGPU_IOCTL(VGPU_IOCTL_MEM_ACCESS, VGPU_MEM_ACCESS_SIZE_V1,
		   vgpu_ioctl_mem_access),
	VGPU_IOCTL_FD(VGPU_IOCTL_MEM_EXPORT, sizeof(struct vgpu_mem_export),
		      vgpu_ioctl_mem_export, vgpu_mem_export_undo,
		      vgpu_mem_export_commit),
	VGPU_IOCTL_CREATE(VGPU_IOCTL_MEM_IMPORT,
			  sizeof(struct vgpu_mem_import),
			  vgpu_ioctl_mem_import, vgpu_mem_import_undo),
	/* A token that cannot be reported is harmless: it holds nothing. */
	VGPU_IOCTL(VGPU_IOCTL_IPC_EXPORT, sizeof(struct vgpu_ipc_export),
		   vgpu_ioctl_ipc_export),
	VGPU_IOCTL_CREATE(VGPU_IOCTL_IPC_OPEN, sizeof(struct vgpu_ipc_open),
			  vgpu_ioctl_ipc_open, vgpu_ipc_open_undo),
	VGPU_IOCTL(VGPU_IOCTL_IPC_CLOSE, sizeof(struct vgpu_ipc_close),
		   vgpu_ioctl_ipc_close),
	VGPU_IOCTL(VGPU_IOCTL_PEER_SET, sizeof(struct vgpu_peer_set),
		   vgpu_ioctl_peer_set),
	VGPU_IOCTL(VGPU_IOCTL_MANAGED_PREFETCH,
		   sizeof(struct vgpu_managed_prefetch),
		   vgpu_ioctl_managed_prefetch),
	VGPU_IOCTL_FD(VGPU_IOCTL_USM_ATTACH, sizeof(struct vgpu_usm_attach),
		      vgpu_ioctl_usm_attach, vgpu_usm_attach_undo,
		      vgpu_usm_attach_commit),
};

/*
 * vgpu_ioctl() - the dispatcher.
 * Return: what the handler returns, or the errors uapi/vgpu.h lists for
 * every ioctl: -EINVAL (shorter than the first layout), -E2BIG (nonzero
 * unknown tail), -EFAULT (argument unreadable or unwritable); -ENOTTY
 * for an unknown number.
 */
static long vgpu_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct vgpu_ctx *ctx = file->private_data;
	void __user *uarg = (void __user *)arg;
	const struct vgpu_ioctl_desc *desc;
	unsigned int nr = _IOC_NR(cmd);
	size_t usize = _IOC_SIZE(cmd), ksize;
	u64 kbuf[VGPU_IOCTL_MAX_ARG / sizeof(u64)];
	int ret;

	if (_IOC_TYPE(cmd) != VGPU_IOCTL_TYPE || nr >= ARRAY_SIZE(vgpu_ioctls))
		return -ENOTTY;
	desc = &vgpu_ioctls[array_index_nospec(nr, ARRAY_SIZE(vgpu_ioctls))];
	if (!desc->func || _IOC_DIR(cmd) != _IOC_DIR(desc->cmd))
		return -ENOTTY;
	if (usize < desc->min_size)
		return -EINVAL;

	ksize = _IOC_SIZE(desc->cmd);
	if (WARN_ON_ONCE(ksize > sizeof(kbuf)))
		return -EINVAL;
	if (_IOC_DIR(cmd) & _IOC_WRITE) {
		/* Zero-extends older callers; -E2BIG for unknown nonzero tails. */
		ret = copy_struct_from_user(kbuf, ksize, uarg, usize);
		if (ret)
			return ret;
	} else {
		memset(kbuf, 0, ksize);
	}

	ret = desc->func(ctx, kbuf);
	if (ret && !(ret == -EINVAL && desc->out_on_einval))
		return ret;

	if ((_IOC_DIR(cmd) & _IOC_READ) &&
	    copy_to_user(uarg, kbuf, min(usize, ksize))) {
		/*
		 * The caller never learns the handle of what the command
		 * created (its argument is not writable), so nothing could
		 * ever free it but close(): take it back. The handler
		 * published the object complete, so undoing it is the
		 * ordinary destroy path, safe against another thread that
		 * found the handle meanwhile; if that thread destroyed it
		 * already, there is nothing left to undo (and if it also
		 * created another under the same handle, it was using a
		 * handle nobody gave it).
		 */
		if (!ret && desc->undo)
			desc->undo(ctx, kbuf);
		return -EFAULT;
	}
	if (!ret && desc->commit)
		desc->commit(ctx, kbuf);
	return ret;
}

/*
 * Offset 0 is the status page; from VGPU_SHADOW_OFFSET on, the shadow
 * mapping; others name host allocations.
 */
static int vgpu_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (!vma->vm_pgoff)
		return vgpu_chan_mmap(file->private_data, vma);
	if ((u64)vma->vm_pgoff >= VGPU_SHADOW_OFFSET >> PAGE_SHIFT)
		return vgpu_shadow_mmap(file->private_data, vma);
	return vgpu_host_mmap(file->private_data, vma);
}

static __poll_t vgpu_poll(struct file *file, poll_table *wait)
{
	return vgpu_chan_poll(file->private_data, file, wait);
}

const struct file_operations vgpu_fops = {
	.owner = THIS_MODULE,
	.open = vgpu_open,
	.release = vgpu_release,
	.unlocked_ioctl = vgpu_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = vgpu_mmap,
	.poll = vgpu_poll,
	.llseek = noop_llseek,
};
