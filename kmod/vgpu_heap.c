// SPDX-License-Identifier: GPL-2.0
/*
 * A context's device heap: the memory kernels take with malloc and give
 * back with free (VGPU_OP_MALLOC, VGPU_OP_FREE). The module allocates it
 * once (VGPU_IOCTL_HEAP_CREATE) as a hidden allocation of the context's
 * address space and hands out 16-byte granules of it, first fit from
 * where the last block was placed (so malloc/free loops stay cheap), with
 * two bitmaps: granules in use, and granules that start a live block. A
 * block ends at the next start or the next free granule, so a block needs
 * no record of its own: malloc and free allocate nothing where nothing
 * may sleep, and a free of what is no live block is caught here.
 *
 * Locking: the heap pointer is set under vgpu_vm.lock held for writing
 * and read under it held for reading (SM workers, inside their FPU
 * sections). vgpu_heap.lock, a spinlock inside vgpu_vm.lock, guards the
 * bitmaps and the search's starting point.
 */
#include <linux/bitmap.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/vmalloc.h>

#include "vgpu_drv.h"

#define VGPU_HEAP_SHIFT 4	/* ilog2(VGPU_HEAP_ALIGN) */

static unsigned long *vgpu_heap_bitmap(struct vgpu_ctx *ctx, unsigned long bits)
{
	if (vgpu_fi_fail(ctx->vdev, VGPU_FI_HEAP))
		return NULL;
	return __vmalloc(BITS_TO_LONGS(bits) * sizeof(unsigned long),
			 GFP_KERNEL_ACCOUNT | __GFP_ZERO | __GFP_NOWARN);
}

static void vgpu_heap_destroy(struct vgpu_heap *heap)
{
	vfree(heap->used);
	vfree(heap->start);
	kfree(heap);
}

/**
 * vgpu_ioctl_heap_create() - VGPU_IOCTL_HEAP_CREATE.
 * Return: 0, -EINVAL (bad arguments, no window), -EBUSY (a heap already),
 * -ENOMEM (no memory, or more than the device has), -ENOSPC (no room in
 * the window).
 */
int vgpu_ioctl_heap_create(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_heap_create *hc = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_alloc *alloc;
	struct vgpu_heap *heap;
	int ret;

	BUILD_BUG_ON(VGPU_HEAP_ALIGN != 1 << VGPU_HEAP_SHIFT);
	if (hc->flags || hc->pad || !hc->size ||
	    !IS_ALIGNED(hc->size, VGPU_HEAP_ALIGN))
		return -EINVAL;
	/* Bounds the size before any rounding can overflow. */
	if (hc->size > ctx->vdev->props.mem_size)
		return -ENOMEM;

	heap = vgpu_fi_fail(ctx->vdev, VGPU_FI_HEAP) ? NULL :
		kzalloc(sizeof(*heap), GFP_KERNEL_ACCOUNT);
	if (!heap)
		return -ENOMEM;
	spin_lock_init(&heap->lock);
	heap->granules = hc->size >> VGPU_HEAP_SHIFT;
	heap->used = vgpu_heap_bitmap(ctx, heap->granules);
	heap->start = vgpu_heap_bitmap(ctx, heap->granules);
	alloc = vgpu_fi_fail(ctx->vdev, VGPU_FI_HEAP) ? NULL :
		kzalloc(sizeof(*alloc), GFP_KERNEL_ACCOUNT);
	if (!heap->used || !heap->start || !alloc) {
		ret = -ENOMEM;
		goto err_free;
	}
	alloc->size = hc->size;
	alloc->hidden = true;

	down_write(&vm->lock);
	if (vm->heap) {
		ret = -EBUSY;
		goto err_unlock;
	}
	ret = vgpu_vm_place(ctx, alloc);
	if (ret)
		goto err_unlock;
	heap->va = alloc->va;
	vm->heap = heap;
	vgpu_vm_write_unlock(vm);

	hc->va = heap->va;
	return 0;

err_unlock:
	vgpu_vm_write_unlock(vm);
err_free:
	kfree(alloc);
	vgpu_heap_destroy(heap);
	return ret;
}

/*
 * vgpu_heap_create_undo() - takes the heap HEAP_CREATE made away again
 * when its address cannot be written back (vgpu_ioctl()). A context has
 * one heap and nothing else removes it, so vm->heap is the one made.
 * Kernels running meanwhile (another thread may have launched) find no
 * heap from then on: malloc returns NULL, and blocks they had fault.
 */
void vgpu_heap_create_undo(struct vgpu_ctx *ctx, const void *data)
{
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_alloc *alloc;
	struct vgpu_heap *heap;

	down_write(&vm->lock);
	heap = vm->heap;
	if (WARN_ON_ONCE(!heap)) {
		vgpu_vm_write_unlock(vm);
		return;
	}
	alloc = mtree_load(&vm->allocs, heap->va);
	vgpu_vm_unplace(ctx, alloc);
	vm->heap = NULL;
	vgpu_vm_write_unlock(vm);
	kfree(alloc);
	vgpu_heap_destroy(heap);
}

/* The first run of @nr free granules from @from on, or heap->granules. */
static unsigned long vgpu_heap_find(struct vgpu_heap *heap, unsigned long from,
				    unsigned long nr)
{
	return bitmap_find_next_zero_area(heap->used, heap->granules, from,
					  nr, 0);
}

/**
 * vgpu_heap_malloc() - a block of @size bytes of @ctx's heap.
 * Return: its address, or 0 when there is no heap or no room.
 */
u64 vgpu_heap_malloc(struct vgpu_ctx *ctx, u64 size)
{
	struct vgpu_heap *heap = ctx->vm.heap;
	unsigned long nr, at;

	lockdep_assert_held(&ctx->vm.lock);
	if (!heap || size > (u64)heap->granules << VGPU_HEAP_SHIFT)
		return 0;
	/* malloc(0) gets a block of its own, as on an H100. */
	nr = size ? DIV_ROUND_UP(size, VGPU_HEAP_ALIGN) : 1;

	spin_lock(&heap->lock);
	at = vgpu_heap_find(heap, heap->next, nr);
	if (at >= heap->granules && heap->next)
		at = vgpu_heap_find(heap, 0, nr);
	if (at < heap->granules) {
		bitmap_set(heap->used, at, nr);
		__set_bit(at, heap->start);
		heap->next = at + nr < heap->granules ? at + nr : 0;
	}
	spin_unlock(&heap->lock);
	if (at >= heap->granules)
		return 0;
	return heap->va + ((u64)at << VGPU_HEAP_SHIFT);
}

/**
 * vgpu_heap_free() - free the block at @va of @ctx's heap.
 * Return: VGPU_FAULT_NONE when it was freed, or when @va is 0 or outside
 * the heap where something is mapped (left alone, as an H100 does);
 * VGPU_FAULT_TRAP for an address in the heap that starts no live block
 * (a double free: an H100 stops the kernel); VGPU_FAULT_ADDRESS where
 * nothing is mapped.
 */
u32 vgpu_heap_free(struct vgpu_ctx *ctx, u64 va)
{
	struct vgpu_heap *heap = ctx->vm.heap;
	unsigned long at, end, next;
	struct vgpu_vm_span s;
	u32 kind = VGPU_FAULT_TRAP;

	lockdep_assert_held(&ctx->vm.lock);
	if (!va)
		return VGPU_FAULT_NONE;
	if (!heap || va - heap->va >= (u64)heap->granules << VGPU_HEAP_SHIFT)
		return vgpu_vm_translate(&ctx->vm, va, &s) ?
			VGPU_FAULT_ADDRESS : VGPU_FAULT_NONE;
	if (!IS_ALIGNED(va, VGPU_HEAP_ALIGN))
		return VGPU_FAULT_TRAP;
	at = (va - heap->va) >> VGPU_HEAP_SHIFT;

	spin_lock(&heap->lock);
	if (test_bit(at, heap->start)) {
		/* The block ends where the next one starts, or at a hole. */
		end = find_next_zero_bit(heap->used, heap->granules, at + 1);
		next = find_next_bit(heap->start, heap->granules, at + 1);
		bitmap_clear(heap->used, at, min(end, next) - at);
		__clear_bit(at, heap->start);
		kind = VGPU_FAULT_NONE;
	}
	spin_unlock(&heap->lock);
	return kind;
}

/*
 * Context teardown, nothing running, before vgpu_vm_fini(), with which
 * the heap's memory goes.
 */
void vgpu_heap_fini(struct vgpu_vm *vm)
{
	if (!vm->heap)
		return;
	vgpu_heap_destroy(vm->heap);
	vm->heap = NULL;
}
