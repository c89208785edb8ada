// SPDX-License-Identifier: GPL-2.0
/*
 * Device memory and each context's device address space. Memory comes in
 * chunks of zeroed, virtually contiguous kernel memory (so an engine turns
 * a device address into a kernel pointer with one lookup), charged to the
 * device's capacity and to the opener's memory cgroup, and placed inside
 * the context's VA window. Allocations of up to VGPU_SUBALLOC_MAX share
 * chunks at VGPU_SUBALLOC_ALIGN granularity, as NVIDIA's driver does;
 * larger ones get a chunk of their own. Two maple trees index a context's
 * chunks and its allocations by address range. The allocations' tree and
 * a third, of host ranges (vgpu_host.c, vgpu_host_alloc.c), are what
 * vgpu_vm_translate() walks to find what a device address reaches; the
 * chunk tree also holds reservations, and the allocation tree mappings,
 * of memory objects (vgpu_vmm.c). The
 * module's own allocations (the device heap, vgpu_heap.c) are hidden:
 * engines reach them, MEM_QUERY and MEM_FREE do not see them.
 *
 * Locking: vgpu_vm.lock, held for writing, serialises every change to a
 * context's address space (window, trees, shared-chunk list and bitmaps);
 * lookups and the engines hold it for reading. The maple trees' internal
 * spinlocks nest inside it, and it nests inside mmap_lock (the module's
 * order is in vgpu_drv.h).
 */
#include <linux/bitmap.h>
#include <linux/lockdep.h>
#include <linux/maple_tree.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "vgpu_drv.h"

#define VGPU_GRANULES (VGPU_VA_ALIGN / VGPU_SUBALLOC_ALIGN)

void vgpu_vm_init(struct vgpu_vm *vm)
{
	init_rwsem(&vm->lock);
	mt_init(&vm->chunks);
	INIT_LIST_HEAD(&vm->shared);
	/*
	 * In RCU mode a tree node is freed only after a grace period, so
	 * vgpu_vm_is_host() may look without the lock while ranges come
	 * and go, and peers (vgpu_peer.c) may look up allocations.
	 */
	mt_init_flags(&vm->allocs, MT_FLAGS_USE_RCU);
	mt_init_flags(&vm->hosts, MT_FLAGS_USE_RCU);
	xa_init_flags(&vm->host_bufs, XA_FLAGS_ALLOC);
	vm->heap = NULL;
}

u64 vgpu_mem_free_bytes(struct vgpu_device *vdev)
{
	return vdev->props.mem_size - atomic64_read(&vdev->mem_used);
}

/*
 * First fit: the lowest free range of @size bytes in the window that
 * starts on a multiple of @align (a power of two, at least VGPU_VA_ALIGN
 * and at most VGPU_VA_WINDOW_MAX, so nothing here overflows). Chunks and
 * reservations are whole multiples of VGPU_VA_ALIGN, so every gap is
 * aligned that far. Linear in the number of chunks, which are at least
 * VGPU_VA_ALIGN bytes each.
 */
int vgpu_vm_find_gap(struct vgpu_vm *vm, u64 size, u64 align,
		     unsigned long *va)
{
	u64 cursor = ALIGN(vm->base, align), end = vm->base + vm->size;
	struct vgpu_chunk *chunk;
	unsigned long index = 0;

	lockdep_assert_held_write(&vm->lock);
	mt_for_each(&vm->chunks, chunk, index, ULONG_MAX) {
		if (chunk->va >= cursor && chunk->va - cursor >= size)
			break;
		cursor = max(cursor, ALIGN(chunk->va + chunk->size, align));
	}
	if (cursor > end || end - cursor < size)
		return -ENOSPC;
	*va = cursor;
	return 0;
}

/* Creates a chunk of @size bytes somewhere in the window. */
static struct vgpu_chunk *vgpu_chunk_create(struct vgpu_ctx *ctx, u64 size,
					    bool shared)
{
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_chunk *chunk;
	unsigned long va;
	int ret;

	lockdep_assert_held_write(&vm->lock);
	chunk = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? NULL :
		kzalloc(sizeof(*chunk), GFP_KERNEL_ACCOUNT);
	if (!chunk)
		return ERR_PTR(-ENOMEM);
	chunk->size = size;
	/* Its memory is an object, so that IPC (vgpu_ipc.c) can share it. */
	chunk->mobj = vgpu_mobj_create(ctx->vdev, size);
	if (IS_ERR(chunk->mobj)) {
		ret = PTR_ERR(chunk->mobj);
		goto err_free;
	}
	if (shared) {
		chunk->bitmap = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? NULL :
			bitmap_zalloc(VGPU_GRANULES, GFP_KERNEL_ACCOUNT);
		if (!chunk->bitmap) {
			ret = -ENOMEM;
			goto err_put;
		}
	}
	ret = vgpu_vm_find_gap(vm, size, VGPU_VA_ALIGN, &va);
	if (ret)
		goto err_bitmap;
	ret = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? -ENOMEM :
		mtree_insert_range(&vm->chunks, va, va + size - 1, chunk,
				   GFP_KERNEL_ACCOUNT);
	if (ret)
		goto err_bitmap;
	chunk->va = va;
	if (shared)
		list_add(&chunk->link, &vm->shared);
	return chunk;

err_bitmap:
	bitmap_free(chunk->bitmap);
err_put:
	vgpu_mobj_put(chunk->mobj);
err_free:
	kfree(chunk);
	return ERR_PTR(ret);
}

/*
 * Frees a chunk that is already out of the chunk tree. Its memory goes
 * with the last holder of its object (an IPC mapping may outlive it); a
 * reservation (vgpu_vmm.c) has none.
 */
static void vgpu_chunk_free(struct vgpu_ctx *ctx, struct vgpu_chunk *chunk)
{
	if (chunk->mobj)
		vgpu_mobj_put(chunk->mobj);
	bitmap_free(chunk->bitmap);
	kfree(chunk);
}

static void vgpu_chunk_destroy(struct vgpu_ctx *ctx, struct vgpu_chunk *chunk)
{
	lockdep_assert_held_write(&ctx->vm.lock);
	mtree_erase(&ctx->vm.chunks, chunk->va);
	if (chunk->bitmap)
		list_del(&chunk->link);
	vgpu_chunk_free(ctx, chunk);
}

/* Places @alloc (span set) in a shared chunk, making one if none has room. */
static int vgpu_suballoc(struct vgpu_ctx *ctx, struct vgpu_alloc *alloc)
{
	unsigned int nr = alloc->span / VGPU_SUBALLOC_ALIGN;
	struct vgpu_chunk *chunk;
	unsigned long start;

	lockdep_assert_held_write(&ctx->vm.lock);
	list_for_each_entry(chunk, &ctx->vm.shared, link) {
		start = bitmap_find_next_zero_area(chunk->bitmap, VGPU_GRANULES,
						   0, nr, 0);
		if (start + nr <= VGPU_GRANULES)
			goto found;
	}
	chunk = vgpu_chunk_create(ctx, VGPU_VA_ALIGN, true);
	if (IS_ERR(chunk))
		return PTR_ERR(chunk);
	start = 0;
found:
	bitmap_set(chunk->bitmap, start, nr);
	chunk->used += nr;
	alloc->chunk = chunk;
	alloc->va = chunk->va + (u64)start * VGPU_SUBALLOC_ALIGN;
	return 0;
}

/* Gives @alloc's span back to its chunk; frees the chunk once empty. */
static void vgpu_unplace(struct vgpu_ctx *ctx, struct vgpu_alloc *alloc)
{
	struct vgpu_chunk *chunk = alloc->chunk;
	unsigned int nr = alloc->span / VGPU_SUBALLOC_ALIGN;

	lockdep_assert_held_write(&ctx->vm.lock);
	if (chunk->bitmap) {
		bitmap_clear(chunk->bitmap,
			     (alloc->va - chunk->va) / VGPU_SUBALLOC_ALIGN, nr);
		chunk->used -= nr;
		if (chunk->used)
			return;
	}
	vgpu_chunk_destroy(ctx, chunk);
}

/**
 * vgpu_ioctl_set_va_window() - VGPU_IOCTL_SET_VA_WINDOW.
 * Return: 0, -EINVAL for a malformed window, -EBUSY if one is set.
 */
int vgpu_ioctl_set_va_window(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_va_window *w = data;
	struct vgpu_vm *vm = &ctx->vm;
	int ret = 0;

	/* The window ends before the ISA's shared and local windows. */
	BUILD_BUG_ON(VGPU_VA_LIMIT > VGPU_RESERVED_BASE);
	if (w->flags || w->pad)
		return -EINVAL;
	if (!w->base || !w->size || !IS_ALIGNED(w->base, VGPU_VA_ALIGN) ||
	    !IS_ALIGNED(w->size, VGPU_VA_ALIGN) ||
	    w->size > VGPU_VA_WINDOW_MAX || w->base >= VGPU_VA_LIMIT ||
	    w->size > VGPU_VA_LIMIT - w->base)
		return -EINVAL;

	down_write(&vm->lock);
	if (vm->size) {
		ret = -EBUSY;
	} else {
		vm->base = w->base;
		vm->size = w->size;
	}
	vgpu_vm_write_unlock(vm);
	return ret;
}

/**
 * vgpu_vm_place() - give @alloc (@size set, at most the device's memory)
 * its place in the window and in the allocation tree, and its memory.
 * Return: 0, -EINVAL (no window), -ENOMEM (no memory), -ENOSPC (no room
 * in the window).
 */
int vgpu_vm_place(struct vgpu_ctx *ctx, struct vgpu_alloc *alloc)
{
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_chunk *chunk;
	int ret;

	lockdep_assert_held_write(&vm->lock);
	if (!vm->size)
		return -EINVAL;
	if (alloc->size <= VGPU_SUBALLOC_MAX) {
		alloc->span = round_up(alloc->size, VGPU_SUBALLOC_ALIGN);
		ret = vgpu_suballoc(ctx, alloc);
		if (ret)
			return ret;
	} else {
		alloc->span = round_up(alloc->size, VGPU_VA_ALIGN);
		chunk = vgpu_chunk_create(ctx, alloc->span, false);
		if (IS_ERR(chunk))
			return PTR_ERR(chunk);
		alloc->chunk = chunk;
		alloc->va = chunk->va;
	}
	ret = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? -ENOMEM :
		mtree_insert_range(&vm->allocs, alloc->va,
				   alloc->va + alloc->span - 1, alloc,
				   GFP_KERNEL_ACCOUNT);
	if (ret)
		vgpu_unplace(ctx, alloc);
	return ret;
}

/*
 * vgpu_vm_unplace() - undoes vgpu_vm_place(): @alloc leaves the allocation
 * tree and gives its memory back. The caller frees @alloc.
 */
void vgpu_vm_unplace(struct vgpu_ctx *ctx, struct vgpu_alloc *alloc)
{
	lockdep_assert_held_write(&ctx->vm.lock);
	mtree_erase(&ctx->vm.allocs, alloc->va);
	vgpu_shadow_zap(ctx, alloc->va, alloc->span);
	vgpu_vm_retire(&ctx->vm);
	vgpu_unplace(ctx, alloc);
}

/**
 * vgpu_vm_retire() - between taking allocations out of @vm's tree and
 * freeing them or their memory: in a context that peers may read
 * (vgpu_peer.c), waits until no engine of theirs can still be using what
 * it found there before. The caller holds vm->lock for writing. The
 * expedited grace period: a normal one takes tens of milliseconds, and
 * every free of a context that another of its device links to (any
 * program with two contexts on a device) waits for one.
 */
void vgpu_vm_retire(struct vgpu_vm *vm)
{
	lockdep_assert_held_write(&vm->lock);
	if (vm->peer_target)
		synchronize_rcu_expedited();
}

/**
 * vgpu_ioctl_mem_alloc() - VGPU_IOCTL_MEM_ALLOC.
 * Return: 0, -EINVAL (bad arguments, no window), -ENOMEM (no memory, or
 * more than the device has), -ENOSPC (no room in the window).
 */
int vgpu_ioctl_mem_alloc(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_mem_alloc *a = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_alloc *alloc;
	int ret;

	if (a->flags || a->pad || !a->size)
		return -EINVAL;
	/* Bounds the size before any rounding can overflow. */
	if (a->size > ctx->vdev->props.mem_size)
		return -ENOMEM;

	alloc = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? NULL :
		kzalloc(sizeof(*alloc), GFP_KERNEL_ACCOUNT);
	if (!alloc)
		return -ENOMEM;
	alloc->size = a->size;

	down_write(&vm->lock);
	ret = vgpu_vm_place(ctx, alloc);
	vgpu_vm_write_unlock(vm);
	if (ret) {
		kfree(alloc);
		return ret;
	}
	a->va = alloc->va;
	return 0;
}

/*
 * vgpu_mem_alloc_undo() - frees what MEM_ALLOC placed at @data's va when
 * the address cannot be written back (vgpu_ioctl()).
 */
void vgpu_mem_alloc_undo(struct vgpu_ctx *ctx, const void *data)
{
	const struct vgpu_mem_alloc *a = data;
	struct vgpu_mem_free f = { .va = a->va };

	vgpu_ioctl_mem_free(ctx, &f);
}

/**
 * vgpu_ioctl_mem_free() - VGPU_IOCTL_MEM_FREE.
 * Return: 0, -ENOENT (no allocation there), -EINVAL (flags, padding, or
 * not its start).
 */
int vgpu_ioctl_mem_free(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_mem_free *f = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_alloc *alloc;
	int ret = 0;

	if (f->flags || f->pad)
		return -EINVAL;
	if (f->va > ULONG_MAX)
		return -ENOENT;

	down_write(&vm->lock);
	alloc = mtree_load(&vm->allocs, f->va);
	if (!alloc || alloc->hidden || alloc->mobj) {
		ret = -ENOENT;
	} else if (alloc->va != f->va) {
		ret = -EINVAL;
	} else {
		mtree_erase(&vm->allocs, alloc->va);
		vgpu_shadow_zap(ctx, alloc->va, alloc->span);
		vgpu_vm_retire(vm);
		if (alloc->ipc_id)
			vgpu_ipc_forget(alloc->ipc_id);
		vgpu_unplace(ctx, alloc);
		kfree(alloc);
	}
	vgpu_vm_write_unlock(vm);
	return ret;
}

/**
 * vgpu_ioctl_mem_query() - VGPU_IOCTL_MEM_QUERY: an allocation or a
 * mapping (vgpu_vmm.c).
 * Return: 0, -EINVAL (flags, padding), -ENOENT (no allocation holds the
 * address).
 */
int vgpu_ioctl_mem_query(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_mem_query *q = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_alloc *alloc;
	int ret = 0;

	if (q->flags || q->pad)
		return -EINVAL;
	if (q->va > ULONG_MAX)
		return -ENOENT;

	down_read(&vm->lock);
	alloc = mtree_load(&vm->allocs, q->va);
	if (alloc && !alloc->hidden) {
		q->base = alloc->va;
		q->size = alloc->size;
	} else {
		ret = -ENOENT;
	}
	up_read(&vm->lock);
	return ret;
}

/**
 * vgpu_vm_translate() - what device address @va of @vm reaches: the span
 * that holds it, either a device allocation whole (as requested, not the
 * granules reserved past its end) or one page of registered or allocated
 * host memory. The caller holds vm->lock, which keeps the span mapped
 * until it lets go; nothing here sleeps, so SM workers call this inside
 * their FPU sections.
 * Return: 0, or -EFAULT when nothing is mapped at @va.
 */
int vgpu_vm_translate(struct vgpu_vm *vm, u64 va, struct vgpu_vm_span *s)
{
	struct vgpu_host_range *h;
	u64 page;

	lockdep_assert_held(&vm->lock);
	if (!vgpu_vm_translate_device(vm, va, -1, true, s))
		return 0;
	/* The trees are indexed by unsigned long. */
	if (va > ULONG_MAX)
		return -EFAULT;
	h = mtree_load(&vm->hosts, va);
	if (!h)
		return -EFAULT;
	page = (va - h->addr) >> PAGE_SHIFT;
	if (h->managed)
		vgpu_managed_touch(vm, h, page);
	s->va = h->addr + (page << PAGE_SHIFT);
	s->size = PAGE_SIZE;
	s->ptr = NULL;
	s->page = h->pages[page];
	s->writable = h->writable;
	return 0;
}

/**
 * vgpu_vm_translate_device() - the device-memory part of
 * vgpu_vm_translate(): an allocation or a mapping, with the rights of
 * @vm's own device (@dev < 0) or of device @dev; without @allocs, an
 * allocation only as far as it gives @dev rights (MEM_ACCESS). Needs no lock
 * of @vm inside an RCU read-side section (the tree is in RCU mode, and
 * what it finds is freed only after a grace period once peers may look:
 * vgpu_vm_retire()), which is how peers call it; the span is good for as
 * long as the caller holds @vm->lock or stays in that section.
 * Return: 0, or -EFAULT when no device memory is mapped at @va for it.
 */
int vgpu_vm_translate_device(struct vgpu_vm *vm, u64 va, int dev,
			     bool allocs, struct vgpu_vm_span *s)
{
	struct vgpu_alloc *a;

	if (va > ULONG_MAX)
		return -EFAULT;
	a = mtree_load(&vm->allocs, va);
	if (!a)
		return -EFAULT;
	if (a->mobj) {
		/* A mapping (vgpu_vmm.c) reaches only what its rights allow. */
		u32 prot = dev < 0 ? READ_ONCE(a->prot) :
			READ_ONCE(a->dev_prot[dev]);

		if (!(prot & VGPU_PROT_READ) || va - a->va >= a->size)
			return -EFAULT;
		s->va = a->va;
		s->size = a->size;
		s->ptr = a->mobj->vaddr + a->offset;
		s->page = NULL;
		s->writable = prot & VGPU_PROT_WRITE;
		return 0;
	}
	if (va - a->va >= a->size)
		return -EFAULT;
	s->va = a->va;
	s->size = a->size;
	s->ptr = a->chunk->mobj->vaddr + (a->va - a->chunk->va);
	s->page = NULL;
	s->writable = true;
	/* Without the link's access, what the allocation gives @dev. */
	if (!allocs) {
		u32 prot = dev < 0 ? 0 : READ_ONCE(a->dev_prot[dev]);

		if (!(prot & VGPU_PROT_READ))
			return -EFAULT;
		s->writable = prot & VGPU_PROT_WRITE;
	}
	return 0;
}

/*
 * Is @va inside a host range mapped into @vm? For placing work only: the
 * caller need not hold vm->lock (the tree is in RCU mode and the entry is
 * not dereferenced), so the answer may be stale by the time the work
 * runs, and the engine that runs it checks every access again.
 */
bool vgpu_vm_is_host(struct vgpu_vm *vm, u64 va)
{
	return va <= ULONG_MAX && mtree_load(&vm->hosts, va);
}

/* Context teardown: every allocation and chunk goes, capacity comes back. */
void vgpu_vm_fini(struct vgpu_ctx *ctx)
{
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_alloc *alloc;
	struct vgpu_chunk *chunk;
	unsigned long index = 0;

	mt_for_each(&vm->allocs, alloc, index, ULONG_MAX) {
		if (alloc->mobj)
			vgpu_mobj_put(alloc->mobj);
		if (alloc->ipc_id)
			vgpu_ipc_forget(alloc->ipc_id);
		kfree(alloc);
	}
	mtree_destroy(&vm->allocs);
	index = 0;
	mt_for_each(&vm->chunks, chunk, index, ULONG_MAX)
		vgpu_chunk_free(ctx, chunk);
	mtree_destroy(&vm->chunks);
	vgpu_host_fini(vm);
	vgpu_host_alloc_fini(vm);
}
