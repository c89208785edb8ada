// SPDX-License-Identifier: GPL-2.0
/*
 * The shadow mapping: a context's device memory mapped a second time into
 * its process, at an address of the process's choosing outside the
 * window of device addresses, for user-mode SMs (vgpu_usm.c) to reach
 * with plain loads and stores while a host dereference of a device
 * pointer still faults (uapi/vgpu.h, VGPU_SHADOW_OFFSET).
 *
 * Pages come in on fault, looked up in the context's own allocations
 * only, so nothing of another context is ever there (the device file's
 * offsets are shared by every context of the device, but each mapping
 * faults through its own file's context). They leave when the memory
 * leaves the address space (vgpu_shadow_zap(), under vgpu_vm.lock held
 * for writing); the fault handler holds that lock for reading until the
 * page is in, so no lookup outlives the memory it found. The mapping is
 * not copied on fork() and cannot grow; it holds the device's file, so
 * the context outlives it.
 */
#include <linux/mm.h>
#include <linux/maple_tree.h>
#include <linux/lockdep.h>
#include <linux/vmalloc.h>

#include "vgpu_compat.h"
#include "vgpu_drv.h"

/* Where the page at offset @pgoff of the device's file lies in the window. */
static u64 vgpu_shadow_off(pgoff_t pgoff)
{
	return ((u64)pgoff << PAGE_SHIFT) - VGPU_SHADOW_OFFSET;
}

/*
 * The page of device memory at page-aligned device address @va, or NULL:
 * some memory of the context must cover part of the page (the rest of it
 * is the context's too: a chunk, or the object a mapping maps), with the
 * rights @write asks for, and be the module's own memory.
 */
static struct page *vgpu_shadow_page(struct vgpu_vm *vm, u64 va, bool write)
{
	unsigned long index = va;
	struct vgpu_alloc *a;
	void *ptr;

	lockdep_assert_held(&vm->lock);
	a = mt_find(&vm->allocs, &index, va + PAGE_SIZE - 1);
	if (!a)
		return NULL;
	if (a->mobj) {
		u32 prot = READ_ONCE(a->prot);
		u64 off = va - a->va + a->offset;

		if (a->mobj->foreign || va < a->va || off >= a->mobj->size ||
		    !(prot & VGPU_PROT_READ) ||
		    (write && !(prot & VGPU_PROT_WRITE)))
			return NULL;
		ptr = a->mobj->vaddr + off;
	} else {
		struct vgpu_chunk *c = a->chunk;

		if (va < c->va || va - c->va >= c->size)
			return NULL;
		ptr = c->mobj->vaddr + (va - c->va);
	}
	return is_vmalloc_addr(ptr) ? vmalloc_to_page(ptr) : NULL;
}

static vm_fault_t vgpu_shadow_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct vgpu_ctx *ctx = vma->vm_file->private_data;
	struct vgpu_vm *vm = &ctx->vm;
	u64 off = vgpu_shadow_off(vmf->pgoff);
	struct page *page = NULL;
	int ret;

	down_read(&vm->lock);
	if (off < vm->size)
		page = vgpu_shadow_page(vm, vm->base + off,
					vma->vm_flags & VM_WRITE);
	if (!page) {
		up_read(&vm->lock);
		return VM_FAULT_SIGBUS;
	}
	ret = vm_insert_page(vma, vmf->address & PAGE_MASK, page);
	up_read(&vm->lock);
	/* -EBUSY: another thread's fault put it in first. */
	if (ret && ret != -EBUSY)
		return vmf_error(ret);
	return VM_FAULT_NOPAGE;
}

/* The device's addresses do not move: nor does their shadow grow. */
static const struct vm_operations_struct vgpu_shadow_vm_ops = {
	.fault = vgpu_shadow_fault,
};

/**
 * vgpu_shadow_mmap() - map device addresses of the window from offset
 * VGPU_SHADOW_OFFSET of the device's file on.
 * Return: 0, or -EINVAL (no window, a range outside it, not MAP_SHARED,
 * executable).
 */
int vgpu_shadow_mmap(struct vgpu_ctx *ctx, struct vm_area_struct *vma)
{
	u64 off = vgpu_shadow_off(vma->vm_pgoff);
	u64 len = vma->vm_end - vma->vm_start;
	struct vgpu_vm *vm = &ctx->vm;
	int ret = 0;

	if (!(vma->vm_flags & VM_SHARED) || (vma->vm_flags & VM_EXEC))
		return -EINVAL;
	/* The window, once set, never changes. */
	down_read(&vm->lock);
	if (!vm->size || off >= vm->size || len > vm->size - off)
		ret = -EINVAL;
	up_read(&vm->lock);
	if (ret)
		return ret;
	/*
	 * A read-only shadow stays one: its pages went in read-only, and
	 * mprotect() must not make them writable where the context may
	 * only read (memory another process shared with read access).
	 */
	vgpu_vm_flags_mod(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP |
			  VM_MIXEDMAP, VM_MAYEXEC |
			  (vma->vm_flags & VM_WRITE ? 0 : VM_MAYWRITE));
	vma->vm_ops = &vgpu_shadow_vm_ops;
	return 0;
}

/**
 * vgpu_shadow_zap() - [@va, @va + @size) of device memory leaves @ctx's
 * address space: the pages that hold it leave every shadow mapping (the
 * context's; those of other contexts at the same offsets fault theirs
 * back in). A page other memory still covers comes back at its next
 * touch.
 */
void vgpu_shadow_zap(struct vgpu_ctx *ctx, u64 va, u64 size)
{
	struct vgpu_vm *vm = &ctx->vm;
	u64 first, last;

	lockdep_assert_held_write(&vm->lock);
	if (!size || !vm->size || va < vm->base || va - vm->base >= vm->size)
		return;
	first = round_down(va - vm->base, PAGE_SIZE);
	last = min(round_up(va - vm->base + size, PAGE_SIZE), vm->size);
	unmap_mapping_range(ctx->mapping, VGPU_SHADOW_OFFSET + first,
			    last - first, 1);
}
