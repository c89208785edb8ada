// SPDX-License-Identifier: GPL-2.0
/*
 * Host memory registered with a context: ranges of the caller's memory
 * pinned long-term (FOLL_LONGTERM, charged against RLIMIT_MEMLOCK to the
 * process that opened the context, unless the caller has CAP_IPC_LOCK)
 * and mapped into the context's device address space at their own
 * address, so the engines reach them without copies through user space.
 *
 * Locking: the context's vgpu_vm.lock protects the tree of host ranges.
 * Pinning and the mapping check take mmap_lock, so they run outside
 * vgpu_vm.lock: mmap() and munmap() of host allocations take vgpu_vm.lock
 * inside mmap_lock (vgpu_host_alloc.c), and the other order could
 * deadlock against them. Charging takes the opener's mmap_lock, also
 * outside vgpu_vm.lock.
 */
#include <linux/bitmap.h>
#include <linux/maple_tree.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "vgpu_drv.h"

/* pin_user_pages_fast() takes an int count: pin in batches. */
#define VGPU_PIN_BATCH 512

/*
 * Charges @r's pages to RLIMIT_MEMLOCK before they are pinned. A context
 * is shared through fork() and outlives the children that register into
 * it, and its pins stay until unregister or close: charged to the mm of
 * the process that registered, they would be charged to nothing once that
 * process is gone. So they are charged to the locked_vm of the mm that
 * opened the context (vgpu_ctx.mm, held while the context lives), checked
 * against the caller's limit: everything a context and the processes
 * sharing it pin counts, for as long as it is pinned, as an mlock() of
 * the opener would (VmLck), and unrelated processes each keep their own
 * limit. CAP_IPC_LOCK pins without limit (account_locked_vm()).
 */
static int vgpu_host_charge(struct vgpu_ctx *ctx, struct vgpu_host_range *r)
{
	int ret;

	if (!ctx->mm)		/* opened by a kernel thread: no user memory */
		return -EFAULT;
	ret = account_locked_vm(ctx->mm, r->npages, true);
	if (ret)
		return ret;
	r->mm = ctx->mm;
	mmgrab(r->mm);
	return 0;
}

/* Gives back exactly what vgpu_host_charge() took. */
static void vgpu_host_uncharge(struct vgpu_host_range *r)
{
	account_locked_vm(r->mm, r->npages, false);
	mmdrop(r->mm);
}

/* Frees a range no engine can reach any more (out of the tree). */
void vgpu_host_range_free(struct vgpu_host_range *r)
{
	unsigned long i;

	if (r->allocated) {
		for (i = 0; i < r->npages && r->pages[i]; i++)
			__free_page(r->pages[i]);
	} else {
		unpin_user_pages_dirty_lock(r->pages, r->npages, r->writable);
		vgpu_host_uncharge(r);
	}
	kvfree(r->pages);
	bitmap_free(r->on_device);
	bitmap_free(r->unmap);
	kfree(r);
}

/*
 * Pins all of @r's pages or none; -EFAULT for a range that is not fully
 * mapped with the access asked for.
 */
static int vgpu_host_pin(struct vgpu_device *vdev, struct vgpu_host_range *r)
{
	unsigned int gup = FOLL_LONGTERM | (r->writable ? FOLL_WRITE : 0);
	unsigned long done = 0;
	int ret = 0;

	while (done < r->npages) {
		int n = min_t(unsigned long, r->npages - done, VGPU_PIN_BATCH);

		/* Injected: the kernel could not pin, as out of memory. */
		ret = vgpu_fi_fail(vdev, VGPU_FI_PIN) ? -ENOMEM :
			pin_user_pages_fast(r->addr + done * PAGE_SIZE, n, gup,
					    r->pages + done);
		if (ret > 0)
			done += ret;
		if (ret != n) {
			ret = ret < 0 ? ret : -EFAULT;
			break;
		}
		ret = 0;
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			break;
		}
		cond_resched();
	}
	if (ret)
		unpin_user_pages(r->pages, done);
	return ret;
}

/*
 * -EFAULT unless every page of @r lies in some mapping of the caller, whose
 * pages are the ones pinned (the context may be another process's, shared
 * through fork(): @r->mm is the opener's, charged, not the one mapped).
 * Access rights are for the pinning to check; this only keeps a range
 * that is mostly holes from costing a page array. At most one step per
 * mapping.
 */
static int vgpu_host_mapped(struct vgpu_host_range *r)
{
	unsigned long start = r->addr, end = r->addr + r->size;
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	int ret = 0;

	if (!mm)
		return -EFAULT;
	if (mmap_read_lock_killable(mm))
		return -EINTR;
	while (start < end) {
		vma = vma_lookup(mm, start);
		if (!vma) {
			ret = -EFAULT;
			break;
		}
		start = vma->vm_end;
	}
	mmap_read_unlock(mm);
	return ret;
}

/**
 * vgpu_ioctl_host_register() - VGPU_IOCTL_HOST_REGISTER.
 * Return: 0, -EINVAL, -EFAULT, -EEXIST, -ENOMEM, -EINTR (fatal signal), or
 * what pin_user_pages_fast() refuses the range with besides: -EOPNOTSUPP
 * (file system DAX), -EBUSY (device-coherent pages it could not move).
 */
int vgpu_ioctl_host_register(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_host_register *hr = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_host_range *r;
	unsigned long index;
	int ret;

	if ((hr->flags & ~VGPU_HOST_FLAGS) || hr->pad)
		return -EINVAL;
	if (!hr->size || hr->size > VGPU_HOST_REGISTER_MAX ||
	    !PAGE_ALIGNED(hr->addr) || !PAGE_ALIGNED(hr->size))
		return -EINVAL;
	/* No user memory, or none a kernel's generic access could reach. */
	if (vgpu_va_reserved(hr->addr, hr->size) ||
	    !access_ok(u64_to_user_ptr(hr->addr), hr->size))
		return -EFAULT;

	r = vgpu_fi_fail(ctx->vdev, VGPU_FI_HOST) ? NULL :
		kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return -ENOMEM;
	r->addr = hr->addr;
	r->size = hr->size;
	r->npages = hr->size >> PAGE_SHIFT;
	r->writable = !(hr->flags & VGPU_HOST_READ_ONLY);

	/* Fail fast on an overlap; the insertion below is what decides. */
	down_write(&vm->lock);
	index = r->addr;
	ret = mt_find(&vm->hosts, &index, r->addr + r->size - 1) ? -EEXIST : 0;
	vgpu_vm_write_unlock(vm);
	if (ret)
		goto err_free;

	/*
	 * The page array costs 8 bytes a page, 2 GiB for the largest range:
	 * charge RLIMIT_MEMLOCK and look at the mappings first, so that only
	 * what the caller may pin, and has mapped, makes the kernel allocate.
	 * The mapping check and pinning take mmap_lock: never under vm->lock.
	 */
	ret = vgpu_host_charge(ctx, r);
	if (ret)
		goto err_free;
	ret = vgpu_host_mapped(r);
	if (ret)
		goto err_uncharge;
	/* Charged to the caller's memcg; fails rather than OOM-kill. */
	r->pages = vgpu_fi_fail(ctx->vdev, VGPU_FI_HOST) ? NULL :
		kvmalloc_array(r->npages, sizeof(*r->pages),
			       GFP_KERNEL_ACCOUNT | __GFP_NOWARN |
			       __GFP_RETRY_MAYFAIL);
	if (!r->pages) {
		ret = -ENOMEM;
		goto err_uncharge;
	}
	ret = vgpu_host_pin(ctx->vdev, r);
	if (ret)
		goto err_pages;

	down_write(&vm->lock);
	ret = vgpu_fi_fail(ctx->vdev, VGPU_FI_HOST) ? -ENOMEM :
		mtree_insert_range(&vm->hosts, r->addr, r->addr + r->size - 1,
				   r, GFP_KERNEL_ACCOUNT);
	vgpu_vm_write_unlock(vm);
	if (ret)
		goto err_unpin;
	return 0;

err_unpin:
	unpin_user_pages(r->pages, r->npages);
err_pages:
	kvfree(r->pages);
err_uncharge:
	vgpu_host_uncharge(r);
err_free:
	kfree(r);
	return ret;
}

/**
 * vgpu_ioctl_host_unregister() - VGPU_IOCTL_HOST_UNREGISTER.
 * Return: 0, -EINVAL (flags, or not the start of a range), -ENOENT.
 */
int vgpu_ioctl_host_unregister(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_host_unregister *hu = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_host_range *r;
	int ret = 0;

	if (hu->flags || hu->pad)
		return -EINVAL;
	if (hu->addr > ULONG_MAX)
		return -ENOENT;

	down_write(&vm->lock);
	r = mtree_load(&vm->hosts, hu->addr);
	if (!r || r->allocated)	/* allocated memory goes with munmap() */
		ret = -ENOENT;
	else if (r->addr != hu->addr)
		ret = -EINVAL;
	else
		mtree_erase(&vm->hosts, r->addr);
	vgpu_vm_write_unlock(vm);
	if (!ret)
		vgpu_host_range_free(r);
	return ret;
}

/* Context teardown: every range unpinned and uncharged. */
void vgpu_host_fini(struct vgpu_vm *vm)
{
	struct vgpu_host_range *r;
	unsigned long index = 0;

	mt_for_each(&vm->hosts, r, index, ULONG_MAX)
		vgpu_host_range_free(r);
	mtree_destroy(&vm->hosts);
}
