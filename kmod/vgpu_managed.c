// SPDX-License-Identifier: GPL-2.0
/*
 * Managed memory's faults. Managed memory (HOST_ALLOC with
 * VGPU_HOST_ALLOC_MANAGED) is one set of pages that the process and the
 * device both map, so nothing ever has to move; but the CUDA guides'
 * advice on it (prefetch, fewer round trips between host and device) is
 * about the faults a real GPU takes when the two sides take turns. The
 * module keeps that model per page, and counts:
 * - a device fault when an engine first touches a page the host had
 *   (vgpu_managed_touch(), from the one translation, vgpu_vm_translate());
 *   the page then leaves the process's page tables once the slice or
 *   command that touched it ends (vgpu_managed_unmap(): the engines
 *   cannot sleep where they touch);
 * - a host fault when the CPU then touches it (vgpu_managed_host_fault(),
 *   from the mapping's fault handler, which maps it back).
 * MANAGED_PREFETCH moves pages either way without counting. The counts
 * are the device's (sysfs managed_faults_device, managed_faults_host).
 *
 * Locking: the bitmaps change with atomic bit operations, under the
 * context's vgpu_vm.lock for reading or with none (the fault handler,
 * which holds the range through its mapping); pages are unmapped under
 * that lock for reading, outside every other lock of the module.
 */
#include <linux/bitmap.h>
#include <linux/lockdep.h>
#include <linux/maple_tree.h>
#include <linux/mm.h>

#include "vgpu_drv.h"

/* A managed range's bitmaps; every page starts on the host. */
int vgpu_managed_init(struct vgpu_host_range *r)
{
	r->on_device = bitmap_zalloc(r->npages, GFP_KERNEL_ACCOUNT);
	r->unmap = bitmap_zalloc(r->npages, GFP_KERNEL_ACCOUNT);
	if (!r->on_device || !r->unmap) {
		bitmap_free(r->on_device);
		bitmap_free(r->unmap);
		r->on_device = NULL;
		r->unmap = NULL;
		return -ENOMEM;
	}
	r->managed = true;
	return 0;
}

/*
 * An engine of @vm's context reaches @page of @h. Called with vm->lock
 * held, inside FPU sections too: nothing here sleeps.
 */
void vgpu_managed_touch(struct vgpu_vm *vm, struct vgpu_host_range *h,
			unsigned long page)
{
	struct vgpu_ctx *ctx = container_of(vm, struct vgpu_ctx, vm);

	lockdep_assert_held(&vm->lock);
	if (test_bit(page, h->on_device) ||
	    test_and_set_bit(page, h->on_device))
		return;
	atomic64_inc(&ctx->vdev->managed_faults_device);
	set_bit(page, h->unmap);
	WRITE_ONCE(vm->managed_unmap, true);
}

/* The CPU faults on @page of @r (the mapping's fault handler). */
void vgpu_managed_host_fault(struct vgpu_ctx *ctx, struct vgpu_host_range *r,
			     unsigned long page)
{
	if (r->managed && test_and_clear_bit(page, r->on_device))
		atomic64_inc(&ctx->vdev->managed_faults_host);
}

/* Takes [@first, @last) of @r out of every page table that maps it. */
static void vgpu_managed_zap(struct vgpu_ctx *ctx, struct vgpu_host_range *r,
			     unsigned long first, unsigned long last)
{
	unmap_mapping_range(ctx->mapping,
			    (loff_t)(r->pgoff + first) << PAGE_SHIFT,
			    (loff_t)(last - first) << PAGE_SHIFT, 0);
}

/*
 * After engine work of @ctx, where it may sleep: the pages the device
 * took leave the process's page tables, so the CPU's next touch faults.
 */
void vgpu_managed_unmap(struct vgpu_ctx *ctx)
{
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_host_range *h;
	unsigned long index = 0, first, last, i;

	if (!READ_ONCE(vm->managed_unmap))
		return;
	down_read(&vm->lock);
	WRITE_ONCE(vm->managed_unmap, false);
	mt_for_each(&vm->hosts, h, index, ULONG_MAX) {
		if (!h->managed)
			continue;
		first = find_first_bit(h->unmap, h->npages);
		while (first < h->npages) {
			last = find_next_zero_bit(h->unmap, h->npages, first);
			/* One bit at a time: engines may set others meanwhile. */
			for (i = first; i < last; i++)
				clear_bit(i, h->unmap);
			vgpu_managed_zap(ctx, h, first, last);
			first = find_next_bit(h->unmap, h->npages, last);
		}
	}
	up_read(&vm->lock);
}

/**
 * vgpu_ioctl_managed_prefetch() - VGPU_IOCTL_MANAGED_PREFETCH.
 * Return: 0, -EINVAL or -ENOENT (uapi/vgpu.h).
 */
int vgpu_ioctl_managed_prefetch(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_managed_prefetch *p = data;
	struct vgpu_vm *vm = &ctx->vm;
	unsigned long first, last, i;
	struct vgpu_host_range *h;
	int ret = 0;

	if ((p->flags & ~VGPU_PREFETCH_DEVICE) || p->pad || !p->size ||
	    p->addr + p->size < p->addr)
		return -EINVAL;
	if (p->addr + p->size - 1 > ULONG_MAX)
		return -ENOENT;
	down_read(&vm->lock);
	h = mtree_load(&vm->hosts, p->addr);
	if (!h || !h->managed || p->addr + p->size - h->addr > h->size) {
		ret = -ENOENT;
		goto out;
	}
	first = (p->addr - h->addr) >> PAGE_SHIFT;
	last = (p->addr + p->size - 1 - h->addr) / PAGE_SIZE + 1;
	for (i = first; i < last; i++) {
		if (p->flags & VGPU_PREFETCH_DEVICE)
			set_bit(i, h->on_device);
		else
			clear_bit(i, h->on_device);
	}
	if (p->flags & VGPU_PREFETCH_DEVICE)
		vgpu_managed_zap(ctx, h, first, last);
out:
	up_read(&vm->lock);
	return ret;
}
