// SPDX-License-Identifier: GPL-2.0
/*
 * IPC: an allocation of one context named by a token that another
 * process passes back to the module to map the same memory into its own
 * context (uapi/vgpu.h, VGPU_IOCTL_IPC_EXPORT and friends).
 *
 * The module is the broker: the registry of tokens is vgpu_mobj.c's.
 * Opening checks the secret, the device and that the caller runs as the
 * exporter's user (or has CAP_SYS_ADMIN), then maps the allocation's
 * bytes, and no others of its chunk, in a reservation of the opener's
 * window made for it. The mapping holds the object, so the memory lives
 * until the last mapping of it goes even when the exporter frees it or
 * exits; the token, though, dies with the allocation, as NVIDIA's
 * handles do.
 */
#include <linux/maple_tree.h>
#include <linux/slab.h>

#include "vgpu_drv.h"

/**
 * vgpu_ioctl_ipc_export() - VGPU_IOCTL_IPC_EXPORT.
 * Return: 0, -EINVAL (flags, padding, no allocation at @va), -ENOMEM.
 */
int vgpu_ioctl_ipc_export(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_ipc_export *x = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_alloc *a;
	int ret = 0;

	if (x->flags || x->pad)
		return -EINVAL;
	if (x->va > ULONG_MAX)
		return -EINVAL;

	down_write(&vm->lock);
	a = mtree_load(&vm->allocs, x->va);
	/* Allocations of MEM_ALLOC only: no mapping, not the heap. */
	if (!a || a->hidden || a->mobj || x->va - a->va >= a->size)
		ret = -EINVAL;
	else if (a->ipc_id)	/* exported already: the same token again */
		ret = vgpu_ipc_token(a->ipc_id, x->token);
	else
		ret = vgpu_ipc_name(ctx, a->chunk->mobj, a->va - a->chunk->va,
				    a->size, &a->ipc_id, x->token);
	vgpu_vm_write_unlock(vm);
	return ret;
}

/**
 * vgpu_ioctl_ipc_open() - VGPU_IOCTL_IPC_OPEN.
 * Return: 0, -EINVAL, -ENOENT, -ESTALE, -EXDEV, -EACCES (see uapi/vgpu.h),
 * -ENOSPC (no room in the window), -ENOMEM.
 */
int vgpu_ioctl_ipc_open(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_ipc_open *o = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_chunk *r = NULL;
	struct vgpu_alloc *map = NULL;
	struct vgpu_mobj *mobj;
	u64 offset, size, span;
	unsigned long va;
	int ret;

	if (o->flags || o->pad)
		return -EINVAL;
	ret = vgpu_ipc_find(ctx, o->token, &mobj, &offset, &size);
	if (ret)
		return ret;
	span = round_up(size, VGPU_VA_ALIGN);
	if (!vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM)) {
		r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
		map = kzalloc(sizeof(*map), GFP_KERNEL_ACCOUNT);
	}
	if (!r || !map) {
		ret = -ENOMEM;
		goto err_free;
	}

	down_write(&vm->lock);
	ret = vm->size ? vgpu_vm_find_gap(vm, span, VGPU_VA_ALIGN, &va) :
		-EINVAL;
	if (ret)
		goto err_unlock;
	r->va = va;
	r->size = span;
	r->ipc = true;
	ret = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? -ENOMEM :
		mtree_insert_range(&vm->chunks, va, va + span - 1, r,
				   GFP_KERNEL_ACCOUNT);
	if (ret)
		goto err_unlock;
	map->va = va;
	map->size = size;
	map->span = span;
	map->mobj = mobj;
	map->offset = offset;
	map->prot = VGPU_PROT_READ | VGPU_PROT_WRITE;
	ret = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? -ENOMEM :
		mtree_insert_range(&vm->allocs, va, va + size - 1, map,
				   GFP_KERNEL_ACCOUNT);
	if (ret) {
		mtree_erase(&vm->chunks, va);
		goto err_unlock;
	}
	vgpu_vm_write_unlock(vm);
	o->va = va;
	o->size = size;
	return 0;

err_unlock:
	vgpu_vm_write_unlock(vm);
err_free:
	kfree(map);
	kfree(r);
	vgpu_mobj_put(mobj);
	return ret == -EEXIST ? -ENOMEM : ret;
}

/**
 * vgpu_ioctl_ipc_close() - VGPU_IOCTL_IPC_CLOSE.
 * Return: 0, -EINVAL (no mapping of IPC_OPEN starts at @va).
 */
int vgpu_ioctl_ipc_close(struct vgpu_ctx *ctx, void *data)
{
	struct vgpu_ipc_close *c = data;
	struct vgpu_vm *vm = &ctx->vm;
	struct vgpu_alloc *map;
	struct vgpu_chunk *r;
	int ret = 0;

	if (c->flags || c->pad || c->va > ULONG_MAX)
		return -EINVAL;
	down_write(&vm->lock);
	r = mtree_load(&vm->chunks, c->va);
	map = mtree_load(&vm->allocs, c->va);
	if (!r || !r->ipc || r->va != c->va || !map || map->va != c->va) {
		ret = -EINVAL;
	} else {
		mtree_erase(&vm->allocs, map->va);
		vgpu_shadow_zap(ctx, map->va, map->span);
		mtree_erase(&vm->chunks, r->va);
		vgpu_vm_retire(vm);
		vgpu_mobj_put(map->mobj);
		kfree(map);
		kfree(r);
	}
	vgpu_vm_write_unlock(vm);
	return ret;
}

void vgpu_ipc_open_undo(struct vgpu_ctx *ctx, const void *data)
{
	struct vgpu_ipc_close c = {
		.va = ((const struct vgpu_ipc_open *)data)->va,
	};

	vgpu_ioctl_ipc_close(ctx, &c);
}
