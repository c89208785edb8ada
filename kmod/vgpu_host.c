// SPDX-License-Identifier: GPL-2.0
/*
 * Host memory registered with a context: ranges of the caller's memory
 * pinned long-term (FOLL_LONGTERM, charged to the caller's user against
 * RLIMIT_MEMLOCK unless the caller has CAP_IPC_LOCK) and mapped into the
 * context's device address space at their own address, so the engines
 * reach them without copies through user space.
 *
 * Locking: the context's vgpu_vm.lock protects the tree of host ranges.
 * Pinning and the mapping check take mmap_lock, so they run outside
 * vgpu_vm.lock: mmap() and munmap() of host allocations take vgpu_vm.lock
 * inside mmap_lock (vgpu_host_alloc.c), and the other order could
 * deadlock against them. Charging takes no lock: the user's count is
 * updated with cmpxchg.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/maple_tree.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/sched/user.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "vgpu_drv.h"

/* pin_user_pages_fast() takes an int count: pin in batches. */
#define VGPU_PIN_BATCH 512

/*
 * Charges @r's pages before they are pinned. A context outlives the
 * process that registered (fork() shares it; the children may exit), and
 * its pins stay until unregister or close: a charge to the process's mm
 * would bound nothing once that mm is gone. So, as io_uring and iommufd
 * do, the pages are charged to the caller's user, which @r holds until it
 * uncharges, against the caller's RLIMIT_MEMLOCK; CAP_IPC_LOCK pins
 * uncharged. The mm's pinned_vm (VmPin) shows them too, for the process
 * that registered.
 */
static int vgpu_host_charge(struct vgpu_host_range *r)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	struct user_struct *user = current_user();
	long cur;

	if (!capable(CAP_IPC_LOCK)) {
		cur = atomic_long_read(&user->locked_vm);
		do {
			if (r->npages > limit ||
			    (unsigned long)cur > limit - r->npages)
				return -ENOMEM;
		} while (!atomic_long_try_cmpxchg(&user->locked_vm, &cur,
						  cur + r->npages));
		r->user = get_uid(user);
	}
	r->mm = current->mm;
	mmgrab(r->mm);
	atomic64_add(r->npages, &r->mm->pinned_vm);
	return 0;
}

/* Gives back exactly what vgpu_host_charge() took. */
static void vgpu_host_uncharge(struct vgpu_host_range *r)
{
	atomic64_sub(r->npages, &r->mm->pinned_vm);
	mmdrop(r->mm);
	if (r->user) {
		atomic_long_sub(r->npages, &r->user->locked_vm);
		free_uid(r->user);
	}
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
 * -EFAULT unless every page of @r lies in some mapping. Access rights are
 * for the pinning to check; this only keeps a range that is mostly holes
 * from costing a page array. At most one step per mapping.
 */
static int vgpu_host_mapped(struct vgpu_host_range *r)
{
	unsigned long start = r->addr, end = r->addr + r->size;
	struct vm_area_struct *vma;
	int ret = 0;

	if (mmap_read_lock_killable(r->mm))
		return -EINTR;
	while (start < end) {
		vma = vma_lookup(r->mm, start);
		if (!vma) {
			ret = -EFAULT;
			break;
		}
		start = vma->vm_end;
	}
	mmap_read_unlock(r->mm);
	return ret;
}

/**
 * vgpu_ioctl_host_register() - VGPU_IOCTL_HOST_REGISTER.
 * Return: 0, -EINVAL, -EFAULT, -EEXIST, -ENOMEM or -EINTR.
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
	if (!access_ok(u64_to_user_ptr(hr->addr), hr->size))
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
	up_write(&vm->lock);
	if (ret)
		goto err_free;

	/*
	 * The page array costs 8 bytes a page, 2 GiB for the largest range:
	 * charge RLIMIT_MEMLOCK and look at the mappings first, so that only
	 * what the caller may pin, and has mapped, makes the kernel allocate.
	 * The mapping check and pinning take mmap_lock: never under vm->lock.
	 */
	ret = vgpu_host_charge(r);
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
	up_write(&vm->lock);
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
	up_write(&vm->lock);
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
