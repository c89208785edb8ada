// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual memory management: memory objects apart from any address,
 * reservations of the VA window, and mappings of objects into them with
 * access rights (uapi/vgpu.h, "Virtual memory management").
 *
 * Objects themselves (struct vgpu_mobj) are vgpu_mobj.c's; a context
 * names them by handles in vgpu_ctx.mobjs.
 *
 * A reservation is a chunk without memory in the context's chunk tree,
 * which keeps MEM_ALLOC's first fit away from it. A mapping is an entry
 * of the allocation tree, as an allocation is, that points into an object
 * instead of a chunk and carries the rights vgpu_vm_translate() checks;
 * MEM_FREE and the device heap never see one.
 *
 * Locking: vgpu_vm.lock, held for writing, covers every change to
 * reservations and mappings, as it does for allocations (vgpu_mem.c).
 * The handle table's xarray lock makes lookup and taking a reference one
 * step (vgpu_mobj_get()), so a handle released meanwhile is never used.
 */
#include <linux/lockdep.h>
#include <linux/log2.h>
#include <linux/maple_tree.h>
#include <linux/nospec.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "vgpu_drv.h"

/**
 * vgpu_ioctl_mem_create() - VGPU_IOCTL_MEM_CREATE.
 * Return: 0, -EINVAL (bad arguments), -ENOMEM (no memory).
 */
int vgpu_ioctl_mem_create(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_mem_create *c = data;
	struct vgpu_mobj *mobj;

	if (c->flags || !c->size || !IS_ALIGNED(c->size, VGPU_VA_ALIGN))
		return -EINVAL;
	if (c->size > ctx->vdev->props.mem_size)
		return -ENOMEM;
	mobj = vgpu_mobj_create(ctx->vdev, c->size);
	if (IS_ERR(mobj))
		return PTR_ERR(mobj);
	return vgpu_mobj_add(ctx, mobj, &c->handle);
}

/**
 * vgpu_ioctl_mem_release() - VGPU_IOCTL_MEM_RELEASE.
 * Return: 0, -EINVAL (flags), -ENOENT (no such handle).
 */
int vgpu_ioctl_mem_release(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_mem_release *r = data;
	struct vgpu_mobj *mobj;

	if (r->flags)
		return -EINVAL;
	mobj = xa_erase(&ctx->mobjs, r->handle);
	if (!mobj)
		return -ENOENT;
	vgpu_mobj_put(mobj);
	return 0;
}

/* Undoes MEM_CREATE and MEM_IMPORT when the handle cannot be reported. */
void vgpu_mem_handle_undo(struct vgpu_ctx *ctx, u32 handle)
{
	struct vgpu_mem_release r = { .handle = handle };

	vgpu_ioctl_mem_release(ctx, &r);
}

void vgpu_mem_create_undo(struct vgpu_ctx *ctx, const void *data)
{
	vgpu_mem_handle_undo(ctx, ((const struct vgpu_mem_create *)data)->handle);
}

/* Is [@va, @va + @size) a well-formed range of whole granules? */
static bool vgpu_vmm_range_ok(u64 va, u64 size)
{
	return size && IS_ALIGNED(va, VGPU_VA_ALIGN) &&
		IS_ALIGNED(size, VGPU_VA_ALIGN) && va <= ULONG_MAX &&
		size <= ULONG_MAX - va;
}

/* The reservation that holds all of [@va, @va + @size), or NULL. */
static struct vgpu_chunk *vgpu_vmm_reservation(struct vgpu_vm *vm, u64 va,
					       u64 size)
{
	struct vgpu_chunk *r;

	lockdep_assert_held(&vm->lock);
	r = mtree_load(&vm->chunks, va);
	if (!r || r->mobj || r->ipc || va + size - r->va > r->size)
		return NULL;
	return r;
}

/**
 * vgpu_ioctl_va_reserve() - VGPU_IOCTL_VA_RESERVE.
 * Return: 0, -EINVAL (bad arguments, no window), -ENOSPC (no room),
 * -ENOMEM.
 */
int vgpu_ioctl_va_reserve(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_va_reserve *r = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_chunk *chunk;
	unsigned long va, index;
	u64 align = max_t(u64, r->align, VGPU_VA_ALIGN);
	int ret;

	if (r->flags || r->pad || !vgpu_vmm_range_ok(r->va, r->size))
		return -EINVAL;
	if (r->align && (!is_power_of_2(r->align) ||
			 r->align > VGPU_VA_WINDOW_MAX))
		return -EINVAL;
	if (r->size > VGPU_VA_WINDOW_MAX)
		return -ENOSPC;

	chunk = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? NULL :
		kzalloc(sizeof(*chunk), GFP_KERNEL_ACCOUNT);
	if (!chunk)
		return -ENOMEM;
	chunk->size = r->size;

	down_write(&vm->lock);
	ret = -EINVAL;
	if (!vm->size)
		goto out;
	/* The hint, where it is inside the window, aligned and free. */
	index = r->va;
	if (r->va && IS_ALIGNED(r->va, align) && r->va >= vm->base &&
	    r->va - vm->base <= vm->size && r->size <= vm->size -
	    (r->va - vm->base) &&
	    !mt_find(&vm->chunks, &index, r->va + r->size - 1)) {
		va = r->va;
	} else {
		ret = vgpu_vm_find_gap(vm, r->size, align, &va);
		if (ret)
			goto out;
	}
	ret = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? -ENOMEM :
		mtree_insert_range(&vm->chunks, va, va + r->size - 1, chunk,
				   GFP_KERNEL_ACCOUNT);
	if (!ret) {
		chunk->va = va;
		r->va = va;
	}
out:
	vgpu_vm_write_unlock(vm);
	if (ret)
		kfree(chunk);
	return ret;
}

/* Undoes VA_RESERVE when the address cannot be reported. */
void vgpu_va_reserve_undo(struct vgpu_ctx *ctx, const void *data)
{
	const struct vgpu_va_reserve *r = data;
	struct vgpu_va_free f = { .va = r->va, .size = r->size };

	vgpu_ioctl_va_free(ctx, &f);
}

/**
 * vgpu_ioctl_va_free() - VGPU_IOCTL_VA_FREE.
 * Return: 0, -EINVAL (no such reservation), -EBUSY (still mapped).
 */
int vgpu_ioctl_va_free(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_va_free *f = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_chunk *r;
	unsigned long index;
	int ret = 0;

	if (f->flags || f->pad || !vgpu_vmm_range_ok(f->va, f->size))
		return -EINVAL;

	down_write(&vm->lock);
	r = vgpu_vmm_reservation(vm, f->va, f->size);
	index = f->va;
	if (!r || r->va != f->va || r->size != f->size) {
		ret = -EINVAL;
	} else if (mt_find(&vm->allocs, &index, f->va + f->size - 1)) {
		ret = -EBUSY;
	} else {
		mtree_erase(&vm->chunks, r->va);
		kfree(r);
	}
	vgpu_vm_write_unlock(vm);
	return ret;
}

/**
 * vgpu_ioctl_mem_map() - VGPU_IOCTL_MEM_MAP.
 * Return: 0, -EINVAL (bad arguments, not inside one reservation), -ENOENT
 * (no such handle), -EEXIST (mapped already), -ENOMEM.
 */
int vgpu_ioctl_mem_map(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_mem_map *m = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_alloc *map;
	struct vgpu_mobj *mobj;
	u64 end;
	int ret;

	if (m->flags || !m->size || !IS_ALIGNED(m->va, VGPU_VA_ALIGN) ||
	    !IS_ALIGNED(m->offset, VGPU_VA_ALIGN) || m->va > ULONG_MAX ||
	    m->size > ULONG_MAX - m->va)
		return -EINVAL;
	mobj = vgpu_mobj_get(ctx, m->handle);
	if (!mobj)
		return -ENOENT;
	/* Whole granules, or the rest of an object that ends inside one. */
	if (check_add_overflow(m->offset, m->size, &end) || end > mobj->size ||
	    (!IS_ALIGNED(m->size, VGPU_VA_ALIGN) && end != mobj->size)) {
		ret = -EINVAL;
		goto err_put;
	}
	map = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? NULL :
		kzalloc(sizeof(*map), GFP_KERNEL_ACCOUNT);
	if (!map) {
		ret = -ENOMEM;
		goto err_put;
	}
	map->va = m->va;
	map->size = m->size;
	map->span = round_up(m->size, VGPU_VA_ALIGN);
	map->mobj = mobj;
	map->offset = m->offset;

	down_write(&vm->lock);
	if (!vgpu_vmm_reservation(vm, m->va, round_up(m->size, VGPU_VA_ALIGN)))
		ret = -EINVAL;
	else
		ret = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? -ENOMEM :
			mtree_insert_range(&vm->allocs, m->va,
					   m->va + m->size - 1, map,
					   GFP_KERNEL_ACCOUNT);
	vgpu_vm_write_unlock(vm);
	if (ret) {
		kfree(map);
		goto err_put;
	}
	return 0;

err_put:
	vgpu_mobj_put(mobj);
	return ret;
}

/*
 * Are the mappings in [@va, @va + @size) each wholly inside it, and, with
 * @whole, do they cover it without a gap?
 */
static bool vgpu_vmm_maps_inside(struct vgpu_vm *vm, u64 va, u64 size,
				 bool whole)
{
	unsigned long index = va;
	struct vgpu_alloc *map;
	u64 next = va;

	lockdep_assert_held(&vm->lock);
	mt_for_each(&vm->allocs, map, index, va + size - 1) {
		/* A mapping's last granule is its, even where it ends early. */
		if (!map->mobj || map->va < va ||
		    map->va + map->span - va > size)
			return false;
		if (whole && map->va != next)
			return false;
		next = map->va + map->span;
	}
	return !whole || next == va + size;
}

/**
 * vgpu_ioctl_mem_unmap() - VGPU_IOCTL_MEM_UNMAP.
 * Return: 0, -EINVAL (bad arguments, not inside one reservation, a
 * mapping reaching outside the range).
 */
int vgpu_ioctl_mem_unmap(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_mem_unmap *u = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_alloc *map;
	unsigned long index;
	int ret = 0;

	if (u->flags || u->pad || !vgpu_vmm_range_ok(u->va, u->size))
		return -EINVAL;

	down_write(&vm->lock);
	if (!vgpu_vmm_reservation(vm, u->va, u->size) ||
	    !vgpu_vmm_maps_inside(vm, u->va, u->size, false)) {
		ret = -EINVAL;
		goto out;
	}
	/* Engines hold the lock for reading: none is using a mapping now. */
	index = u->va;
	mt_for_each(&vm->allocs, map, index, u->va + u->size - 1) {
		mtree_erase(&vm->allocs, map->va);
		vgpu_shadow_zap(ctx, map->va, map->span);
		vgpu_vm_retire(vm);
		vgpu_mobj_put(map->mobj);
		kfree(map);
	}
out:
	vgpu_vm_write_unlock(vm);
	return ret;
}

/**
 * vgpu_ioctl_mem_access() - VGPU_IOCTL_MEM_ACCESS.
 * Return: 0, -EINVAL (bad arguments, not wholly mapped, a mapping
 * reaching outside the range, no allocation starting at the address).
 */
int vgpu_ioctl_mem_access(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_mem_access *a = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_alloc *map;
	unsigned long index;
	u32 dev;
	int ret = 0;

	if ((a->flags & ~(VGPU_ACCESS_DEVICE | VGPU_ACCESS_ALLOC)) ||
	    a->pad || a->flags == VGPU_ACCESS_ALLOC)
		return -EINVAL;
	if (a->flags & VGPU_ACCESS_ALLOC ? a->size || a->va > ULONG_MAX :
	    !vgpu_vmm_range_ok(a->va, a->size))
		return -EINVAL;
	if (a->flags ? a->device >= VGPU_MAX_DEVICES : a->device)
		return -EINVAL;
	if (a->prot && a->prot != VGPU_PROT_READ &&
	    a->prot != (VGPU_PROT_READ | VGPU_PROT_WRITE))
		return -EINVAL;
	dev = array_index_nospec(a->device, VGPU_MAX_DEVICES);
	/* This device's own rights asked for by number. */
	if (a->flags == VGPU_ACCESS_DEVICE && dev == MINOR(ctx->vdev->dev.devt))
		a->flags = 0;

	down_write(&vm->lock);
	if (a->flags & VGPU_ACCESS_ALLOC) {
		/* An allocation: its own device reaches it whole, always. */
		map = mtree_load(&vm->allocs, a->va);
		if (!map || map->mobj || map->hidden || map->va != a->va)
			ret = -EINVAL;
		else
			WRITE_ONCE(map->dev_prot[dev], a->prot);
		goto out;
	}
	if (!vgpu_vmm_maps_inside(vm, a->va, a->size, true)) {
		ret = -EINVAL;
		goto out;
	}
	index = a->va;
	mt_for_each(&vm->allocs, map, index, a->va + a->size - 1) {
		if (a->flags) {
			WRITE_ONCE(map->dev_prot[dev], a->prot);
		} else {
			WRITE_ONCE(map->prot, a->prot);
			/* Pages come back with the new rights, or not at all. */
			vgpu_shadow_zap(ctx, map->va, map->span);
		}
	}
out:
	vgpu_vm_write_unlock(vm);
	return ret;
}

/*
 * Context teardown, after the engines stopped: the mappings (which
 * vgpu_vm_fini() finds in the allocation tree) and the handles let go of
 * their objects. Reservations go with the chunk tree.
 */
void vgpu_vmm_fini(struct vgpu_ctx *ctx)
{
	struct vgpu_mobj *mobj;
	unsigned long index;

	xa_for_each(&ctx->mobjs, index, mobj)
		vgpu_mobj_put(mobj);
	xa_destroy(&ctx->mobjs);
}
