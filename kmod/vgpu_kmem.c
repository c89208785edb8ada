// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel memory a context makes the module hold besides device memory:
 * page-locked host allocations (HOST_ALLOC), loaded modules and the
 * state of cooperative launches' gangs. Each is charged to the opener's
 * memory cgroup already, but a machine without a cgroup limit (or a
 * root cgroup) would let one unprivileged process take most of RAM
 * before the OOM killer picks someone, possibly not that process. So a
 * context also has a budget: the ctx_kmem_mb module parameter, by
 * default a quarter of the machine's RAM. A request over it fails with
 * -ENOMEM (CUDA_ERROR_OUT_OF_MEMORY in libvgpu), as the memcg would.
 *
 * The counters are atomic: charges come from ioctls of any thread of
 * the context and from its SM workers, and need no lock.
 */
#include <linux/atomic.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>

#include "vgpu_drv.h"

static unsigned int ctx_kmem_mb;
module_param(ctx_kmem_mb, uint, 0644);
MODULE_PARM_DESC(ctx_kmem_mb,
		 "Kernel memory one context may hold besides device memory (page-locked host memory, modules, launch state), in MiB (default 0: a quarter of RAM)");

/* The budget of each context now, in bytes: the parameter can change. */
u64 vgpu_kmem_limit(void)
{
	unsigned int mb = READ_ONCE(ctx_kmem_mb);

	if (mb)
		return (u64)mb << 20;
	return ((u64)totalram_pages() << PAGE_SHIFT) / 4;
}

/**
 * vgpu_kmem_charge() - counts @bytes more against @ctx's budget.
 * @ctx: the context.
 * @bytes: what it is about to allocate.
 *
 * Return: 0, or -ENOMEM (nothing charged) when it would go over.
 */
int vgpu_kmem_charge(struct vgpu_ctx *ctx, u64 bytes)
{
	struct vgpu_device *vdev = ctx->vdev;
	u64 limit = vgpu_kmem_limit();

	if (bytes > limit)
		return -ENOMEM;
	if (atomic64_add_return(bytes, &ctx->kmem) > limit) {
		atomic64_sub(bytes, &ctx->kmem);
		return -ENOMEM;
	}
	atomic64_add(bytes, &vdev->kmem_used);
	return 0;
}

/* Gives back what vgpu_kmem_charge() took for @bytes. */
void vgpu_kmem_uncharge(struct vgpu_ctx *ctx, u64 bytes)
{
	atomic64_sub(bytes, &ctx->kmem);
	atomic64_sub(bytes, &ctx->vdev->kmem_used);
}
