// SPDX-License-Identifier: GPL-2.0
/*
 * The compute core's host functions inside vgpu.ko (core/core.h);
 * user-space builds of the core use core/shim_user.c instead.
 */
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/lockdep.h>
#include <linux/mm.h>

#include "vgpu_drv.h"

int vgpu_core_snprintf(char *buf, unsigned long size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

u64 vgpu_core_time_ns(void)
{
	return ktime_get_ns();
}

/*
 * What a kernel of context @mmu reaches at @va (vgpu_vm_translate()): a
 * device allocation whole, or one page of registered or allocated host
 * memory. The core calls this from vgpu_block_run(), which an SM worker
 * runs holding the context's vgpu_vm.lock for reading, inside its FPU
 * section (nothing here sleeps), inside an RCU read-side section that
 * keeps what a peer's memory lookup found (vgpu_peer_translate()) until
 * the slice ends and the core's TLB is flushed.
 */
bool vgpu_core_lookup(void *mmu, u64 va, struct vgpu_range *r)
{
	struct vgpu_ctx *ctx = mmu;
	struct vgpu_vm_span s;

	lockdep_assert_held_read(&ctx->vm.lock);
	if (vgpu_vm_translate(&ctx->vm, va, &s) &&
	    vgpu_peer_translate(&ctx->vm, va, true, &s))
		return false;
	r->va = s.va;
	r->size = s.size;
	r->ptr = s.page ? page_address(s.page) : s.ptr;
	r->writable = s.writable;
	return !!r->ptr;
}

/* The device heap (vgpu_heap.c), from the same place as the lookups. */
u64 vgpu_core_malloc(void *mmu, u64 size)
{
	struct vgpu_ctx *ctx = mmu;

	lockdep_assert_held_read(&ctx->vm.lock);
	return vgpu_heap_malloc(ctx, size);
}

u32 vgpu_core_free(void *mmu, u64 va)
{
	struct vgpu_ctx *ctx = mmu;

	lockdep_assert_held_read(&ctx->vm.lock);
	return vgpu_heap_free(ctx, va);
}
