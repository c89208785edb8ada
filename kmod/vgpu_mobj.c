// SPDX-License-Identifier: GPL-2.0
/*
 * Memory objects: device memory apart from any address (struct
 * vgpu_mobj), the bottom layer under chunks (vgpu_mem.c), virtual memory
 * management (vgpu_vmm.c), dma-bufs (vgpu_dmabuf.c) and IPC (vgpu_ipc.c);
 * and the IPC registry, the tokens that name exported objects.
 *
 * An object is zeroed, virtually contiguous kernel memory charged to the
 * device and to its creator's memory cgroup, or another driver's dma-buf
 * imported (its memory not charged). It is reference counted: each chunk,
 * handle (vgpu_ctx.mobjs), mapping, exported dma-buf and IPC token holds
 * it, so it outlives whichever of them goes first.
 *
 * A token is a number, never reused, and a random secret; the registry
 * maps the number to what was exported: an object, where in it the
 * allocation lies, and who exported it. Entries come and go with the
 * exporting context's vgpu_vm.lock held for writing (the allocation's
 * lifetime); they are read under the xarray's lock alone.
 */
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/dma-buf.h>
#include <linux/iosys-map.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/xarray.h>

#include "vgpu_compat.h"
#include "vgpu_drv.h"

static int vgpu_mem_charge(struct vgpu_device *vdev, u64 bytes)
{
	if (atomic64_add_return(bytes, &vdev->mem_used) > vdev->props.mem_size) {
		atomic64_sub(bytes, &vdev->mem_used);
		return -ENOMEM;
	}
	return 0;
}

/* The end of a foreign object (vgpu_dmabuf.c): the other driver's again. */
static void vgpu_mobj_foreign_put(struct vgpu_mobj *mobj)
{
	struct iosys_map map = IOSYS_MAP_INIT_VADDR(mobj->vaddr);

	vgpu_dma_buf_vunmap(mobj->foreign, &map);
	dma_buf_put(mobj->foreign);
}

static void vgpu_mobj_release(struct kref *ref)
{
	struct vgpu_mobj *mobj = container_of(ref, struct vgpu_mobj, ref);

	if (mobj->foreign) {
		vgpu_mobj_foreign_put(mobj);
	} else {
		vfree(mobj->vaddr);
		atomic64_sub(mobj->size, &mobj->vdev->mem_used);
	}
	put_device(&mobj->vdev->dev);
	kfree(mobj);
}

void vgpu_mobj_put(struct vgpu_mobj *mobj)
{
	kref_put(&mobj->ref, vgpu_mobj_release);
}

/* The object @handle names in @ctx, with a reference; NULL if none. */
struct vgpu_mobj *vgpu_mobj_get(struct vgpu_ctx *ctx, u32 handle)
{
	struct vgpu_mobj *mobj;

	xa_lock(&ctx->mobjs);
	mobj = xa_load(&ctx->mobjs, handle);
	if (mobj)
		kref_get(&mobj->ref);
	xa_unlock(&ctx->mobjs);
	return mobj;
}

/*
 * vgpu_mobj_add() - a new handle in @ctx for @mobj, taking over the
 * caller's reference.
 * Return: 0, or -ENOMEM; on failure the reference is dropped.
 */
int vgpu_mobj_add(struct vgpu_ctx *ctx, struct vgpu_mobj *mobj, u32 *handle)
{
	int ret;

	ret = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? -ENOMEM :
		xa_alloc(&ctx->mobjs, handle, mobj, xa_limit_32b,
			 GFP_KERNEL_ACCOUNT);
	if (ret) {
		vgpu_mobj_put(mobj);
		return ret == -EBUSY ? -ENOMEM : ret;
	}
	return 0;
}

/**
 * vgpu_mobj_create() - a new object of @size bytes (at most the device's
 * memory), zeroed, charged to @vdev and to the caller's memory cgroup.
 * Return: the object, one reference held; or ERR_PTR(-ENOMEM).
 */
struct vgpu_mobj *vgpu_mobj_create(struct vgpu_device *vdev, u64 size)
{
	struct vgpu_mobj *mobj;
	int ret;

	ret = vgpu_mem_charge(vdev, size);
	if (ret)
		return ERR_PTR(ret);
	mobj = vgpu_fi_fail(vdev, VGPU_FI_MEM) ? NULL :
		kzalloc(sizeof(*mobj), GFP_KERNEL_ACCOUNT);
	if (!mobj)
		goto err_uncharge;
	/*
	 * Out of memory (or over the caller's memcg limit), the allocation
	 * fails with -ENOMEM, as cuMemAlloc does, rather than waking the
	 * OOM killer.
	 */
	mobj->vaddr = vgpu_fi_fail(vdev, VGPU_FI_MEM) ? NULL :
		__vmalloc(size, GFP_KERNEL_ACCOUNT | __GFP_ZERO |
			  __GFP_NOWARN | __GFP_RETRY_MAYFAIL);
	if (!mobj->vaddr)
		goto err_free;
	kref_init(&mobj->ref);
	mobj->size = size;
	mobj->vdev = vdev;
	get_device(&vdev->dev);
	return mobj;

err_free:
	kfree(mobj);
err_uncharge:
	atomic64_sub(size, &vdev->mem_used);
	return ERR_PTR(-ENOMEM);
}

/* One exported allocation. */
struct vgpu_ipc {
	u64 secret;
	struct vgpu_mobj *mobj;	/* a reference */
	u64 offset;		/* of the allocation in @mobj */
	u64 size;
	kuid_t uid;		/* the exporter's effective user */
	struct vgpu_ctx *ctx;	/* the exporter: compared, never followed */
};

static DEFINE_XARRAY(vgpu_ipcs);
/* The last number handed out; numbers at or below it are not reused. */
static atomic64_t vgpu_ipc_last = ATOMIC64_INIT(0);

/* The allocation of @id is freed: its token names nothing from now on. */
void vgpu_ipc_forget(u64 id)
{
	struct vgpu_ipc *e = xa_erase(&vgpu_ipcs, id);

	if (e) {
		vgpu_mobj_put(e->mobj);
		kfree(e);
	}
}

/*
 * vgpu_ipc_name() - a token for @size bytes of @mobj from @offset, which
 * @ctx exports; its number in *@id, the token in @token.
 * Return: 0, or -ENOMEM.
 */
int vgpu_ipc_name(struct vgpu_ctx *ctx, struct vgpu_mobj *mobj, u64 offset,
		  u64 size, u64 *id, u64 *token)
{
	struct vgpu_ipc *e;
	u64 n;
	int ret;

	e = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? NULL :
		kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!e)
		return -ENOMEM;
	n = atomic64_inc_return(&vgpu_ipc_last);
	e->secret = get_random_u64();
	e->offset = offset;
	e->size = size;
	e->uid = current_euid();
	e->ctx = ctx;
	e->mobj = mobj;
	kref_get(&mobj->ref);
	ret = vgpu_fi_fail(ctx->vdev, VGPU_FI_MEM) ? -ENOMEM :
		xa_insert(&vgpu_ipcs, n, e, GFP_KERNEL_ACCOUNT);
	if (ret) {
		vgpu_mobj_put(mobj);
		kfree(e);
		return ret == -EBUSY ? -ENOMEM : ret;
	}
	*id = n;
	token[0] = n;
	token[1] = e->secret;
	return 0;
}

/* The token of number @id, which is live. Return: 0. */
int vgpu_ipc_token(u64 id, u64 *token)
{
	struct vgpu_ipc *e;

	xa_lock(&vgpu_ipcs);
	e = xa_load(&vgpu_ipcs, id);
	token[0] = id;
	token[1] = e ? e->secret : 0;
	xa_unlock(&vgpu_ipcs);
	return 0;
}

/*
 * The object and bytes @token names, with a reference, if the caller may
 * open it in @ctx.
 */
int vgpu_ipc_find(struct vgpu_ctx *ctx, const u64 *token,
		  struct vgpu_mobj **mobj, u64 *offset, u64 *size)
{
	struct vgpu_ipc *e;
	int ret = 0;

	xa_lock(&vgpu_ipcs);
	e = token[0] <= ULONG_MAX ? xa_load(&vgpu_ipcs, token[0]) : NULL;
	/* One word: the comparison takes the same time whatever it holds. */
	if (!e || e->secret != token[1]) {
		/* A number once handed out is a freed allocation's. */
		ret = e || !token[0] ||
			token[0] > (u64)atomic64_read(&vgpu_ipc_last) ?
			-ENOENT : -ESTALE;
	} else if (e->mobj->vdev != ctx->vdev) {
		ret = -EXDEV;
	} else if (e->ctx == ctx) {
		ret = -EINVAL;
	} else if (!uid_eq(e->uid, current_euid()) &&
		   !capable(CAP_SYS_ADMIN)) {
		ret = -EACCES;
	} else {
		kref_get(&e->mobj->ref);
		*mobj = e->mobj;
		*offset = e->offset;
		*size = e->size;
	}
	xa_unlock(&vgpu_ipcs);
	return ret;
}

