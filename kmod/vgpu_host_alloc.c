// SPDX-License-Identifier: GPL-2.0
/*
 * Host memory the module allocates (cuMemHostAlloc): zeroed kernel pages,
 * charged to the caller's memory cgroup, that user space maps with mmap()
 * at the offset HOST_ALLOC returned. Mapping them also maps them into the
 * context's device address space at the same address, so the engines
 * reach them directly (zero-copy). The pages stay in the kernel's hands
 * (never swapped, never migrated) and go when the mapping does.
 *
 * Until it is mapped an allocation waits in vgpu_vm.host_bufs; the
 * mapping then owns it. Copies of the mapping (a failed mremap() makes
 * one for a moment) share it through vgpu_host_range.maps.
 *
 * Locking: vgpu_vm.lock, taken for writing, covers host_bufs and the tree
 * of host ranges. mmap() and munmap() take it inside mmap_lock; nothing
 * takes mmap_lock inside it.
 */
#include <linux/gfp.h>
#include <linux/maple_tree.h>
#include <linux/mm.h>
#include <linux/refcount.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "vgpu_compat.h"
#include "vgpu_drv.h"

/* mmap offsets of allocations: (id + 1) << VGPU_HOST_OFFSET_SHIFT. */
#define VGPU_HOST_OFFSET_SHIFT 32
#define VGPU_HOST_BUFS_MAX 65536	/* allocations waiting for mmap() */

/* Frees an allocation no engine can reach and gives its budget back. */
static void vgpu_host_alloc_free(struct vgpu_ctx *ctx,
				 struct vgpu_host_range *r)
{
	u64 kmem = r->kmem;

	vgpu_host_range_free(r);
	vgpu_kmem_uncharge(ctx, kmem);
}

/**
 * vgpu_ioctl_host_alloc() - VGPU_IOCTL_HOST_ALLOC.
 * Return: 0, -EINVAL, -ENOMEM, -ENOSPC or -EINTR.
 */
int vgpu_ioctl_host_alloc(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_host_alloc *ha = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_host_range *r;
	unsigned long i;
	u64 kmem;
	u32 id;
	int ret;

	if ((ha->flags & ~VGPU_HOST_ALLOC_MANAGED) || ha->pad)
		return -EINVAL;
	if (!ha->size || ha->size > VGPU_HOST_ALLOC_MAX ||
	    !PAGE_ALIGNED(ha->size))
		return -EINVAL;

	/* More than the machine has can never succeed: say so at once. */
	if (ha->size >> PAGE_SHIFT > totalram_pages())
		return -ENOMEM;
	/* The pages and their array, against the context's budget first. */
	kmem = ha->size + (ha->size >> PAGE_SHIFT) * sizeof(*r->pages);
	ret = vgpu_kmem_charge(ctx, kmem);
	if (ret)
		return ret;

	r = vgpu_fi_fail(ctx->vdev, VGPU_FI_HOST) ? NULL :
		kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r) {
		vgpu_kmem_uncharge(ctx, kmem);
		return -ENOMEM;
	}
	r->kmem = kmem;
	r->size = ha->size;
	r->npages = ha->size >> PAGE_SHIFT;
	r->writable = true;
	r->allocated = true;
	refcount_set(&r->maps, 1);
	r->pages = vgpu_fi_fail(ctx->vdev, VGPU_FI_HOST) ? NULL :
		kvcalloc(r->npages, sizeof(*r->pages),
			 GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!r->pages) {
		kfree(r);
		vgpu_kmem_uncharge(ctx, kmem);
		return -ENOMEM;
	}
	if ((ha->flags & VGPU_HOST_ALLOC_MANAGED) &&
	    (vgpu_fi_fail(ctx->vdev, VGPU_FI_HOST) || vgpu_managed_init(r))) {
		ret = -ENOMEM;
		goto err_free;
	}
	for (i = 0; i < r->npages; i++) {
		r->pages[i] = vgpu_fi_fail(ctx->vdev, VGPU_FI_HOST) ? NULL :
			alloc_page(GFP_HIGHUSER | __GFP_ZERO |
				   __GFP_ACCOUNT | __GFP_NOWARN |
				   __GFP_RETRY_MAYFAIL);
		if (!r->pages[i]) {
			ret = -ENOMEM;
			goto err_free;
		}
		if (fatal_signal_pending(current)) {
			ret = -EINTR;
			goto err_free;
		}
		cond_resched();
	}

	down_write(&vm->lock);
	ret = vgpu_fi_fail(ctx->vdev, VGPU_FI_HOST) ? -ENOMEM :
		xa_alloc(&vm->host_bufs, &id, r,
			 XA_LIMIT(0, VGPU_HOST_BUFS_MAX - 1), GFP_KERNEL_ACCOUNT);
	vgpu_vm_write_unlock(vm);
	if (ret)
		goto err_free;
	ha->offset = (u64)(id + 1) << VGPU_HOST_OFFSET_SHIFT;
	return 0;

err_free:
	vgpu_host_alloc_free(ctx, r);
	return ret == -EBUSY ? -ENOSPC : ret;
}

/*
 * vgpu_host_alloc_undo() - frees what HOST_ALLOC allocated when its offset
 * cannot be written back (vgpu_ioctl()). Already mapped (another thread
 * found the offset), it belongs to the mapping and stays.
 */
void vgpu_host_alloc_undo(struct vgpu_ctx *ctx, const void *data)
{
	const struct vgpu_host_alloc *ha = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_host_range *r;

	down_write(&vm->lock);
	r = xa_erase(&vm->host_bufs, (ha->offset >> VGPU_HOST_OFFSET_SHIFT) - 1);
	vgpu_vm_write_unlock(vm);
	if (r)
		vgpu_host_alloc_free(ctx, r);
}

static void vgpu_host_vma_open(struct vm_area_struct *vma)
{
	struct vgpu_host_range *r = vma->vm_private_data;

	refcount_inc(&r->maps);
}

/* The last mapping has gone: out of the device's reach, then freed. */
static void vgpu_host_vma_close(struct vm_area_struct *vma)
{
	struct vgpu_ctx *ctx = vma->vm_file->private_data;
	struct vgpu_host_range *r = vma->vm_private_data;
	struct vgpu_vm *vm = &ctx->vm;

	if (!refcount_dec_and_test(&r->maps))
		return;
	/* Waits for a command using the range to finish. */
	down_write(&vm->lock);
	mtree_erase(&vm->hosts, r->addr);
	vgpu_vm_write_unlock(vm);
	vgpu_host_alloc_free(ctx, r);
}

/*
 * A page the mapping lost: managed memory's after the device took it
 * (vgpu_managed.c), or any allocation's that another context's unmapping
 * reached through the shared offsets of the device file. Mapped back.
 */
static vm_fault_t vgpu_host_vma_fault(struct vm_fault *vmf)
{
	struct vgpu_ctx *ctx = vmf->vma->vm_file->private_data;
	struct vgpu_host_range *r = vmf->vma->vm_private_data;
	unsigned long i = vmf->pgoff - vmf->vma->vm_pgoff;

	if (i >= r->npages)
		return VM_FAULT_SIGBUS;
	vgpu_managed_host_fault(ctx, r, i);
	get_page(r->pages[i]);
	vmf->page = r->pages[i];
	return 0;
}

/* The device maps the memory at one address: it cannot move or split. */
static int vgpu_host_vma_may_split(struct vm_area_struct *vma,
				   unsigned long addr)
{
	return -EINVAL;
}

static int vgpu_host_vma_mremap(struct vm_area_struct *vma)
{
	return -EINVAL;
}

static const struct vm_operations_struct vgpu_host_vm_ops = {
	.open = vgpu_host_vma_open,
	.close = vgpu_host_vma_close,
	.fault = vgpu_host_vma_fault,
	.may_split = vgpu_host_vma_may_split,
	.mremap = vgpu_host_vma_mremap,
};

/**
 * vgpu_host_mmap() - map an allocation at the offset HOST_ALLOC gave.
 * Return: 0, -EINVAL (offset, size, not MAP_SHARED, reaching the ISA's
 * reserved addresses), -ENOENT (no such allocation waiting), -EBUSY (the
 * address is in use on the device side), or an error inserting the pages.
 */
int vgpu_host_mmap(struct vgpu_ctx *ctx, struct vm_area_struct *vma)
{
	unsigned long npages = vma_pages(vma);
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_host_range *r;
	u64 off, id;
	int ret;

	off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	id = off >> VGPU_HOST_OFFSET_SHIFT;
	if (off & (BIT_ULL(VGPU_HOST_OFFSET_SHIFT) - 1) || !id ||
	    id > VGPU_HOST_BUFS_MAX)
		return -EINVAL;
	if (!(vma->vm_flags & VM_SHARED) ||
	    vgpu_va_reserved(vma->vm_start, vma->vm_end - vma->vm_start))
		return -EINVAL;

	down_write(&vm->lock);
	r = xa_load(&vm->host_bufs, id - 1);
	ret = -ENOENT;
	if (!r)
		goto out;
	ret = -EINVAL;
	if (npages != r->npages)
		goto out;
	vgpu_vm_flags_mod(vma, VM_DONTEXPAND | VM_DONTCOPY, 0);
	ret = vm_insert_pages(vma, vma->vm_start, r->pages, &npages);
	if (ret)
		goto out;
	r->addr = vma->vm_start;
	r->pgoff = vma->vm_pgoff;
	ret = vgpu_fi_fail(ctx->vdev, VGPU_FI_HOST) ? -ENOMEM :
		mtree_insert_range(&vm->hosts, r->addr, r->addr + r->size - 1,
				   r, GFP_KERNEL_ACCOUNT);
	if (ret) {
		/* A registered range outlived its mapping there. */
		ret = ret == -EEXIST ? -EBUSY : ret;
		goto out;
	}
	xa_erase(&vm->host_bufs, id - 1);
	vma->vm_private_data = r;
	vma->vm_ops = &vgpu_host_vm_ops;
out:
	vgpu_vm_write_unlock(vm);
	return ret;
}

/* Context teardown: allocations never mapped. */
void vgpu_host_alloc_fini(struct vgpu_vm *vm)
{
	struct vgpu_host_range *r;
	unsigned long id;

	xa_for_each(&vm->host_bufs, id, r)
		vgpu_host_alloc_free(container_of(vm, struct vgpu_ctx, vm), r);
	xa_destroy(&vm->host_bufs);
}
