// SPDX-License-Identifier: GPL-2.0
/*
 * The compute core's host functions inside vgpu.ko (core/core.h);
 * user-space builds of the core use core/shim_user.c instead.
 */
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/maple_tree.h>
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
 * What a kernel of context @mmu reaches at @va: a device allocation
 * whole, or one page of registered or allocated host memory. Called by an
 * SM worker holding the context's vgpu_vm.lock for reading, inside its
 * FPU section (nothing here sleeps).
 */
bool vgpu_core_lookup(void *mmu, u64 va, struct vgpu_range *r)
{
	struct vgpu_ctx *ctx = mmu;
	struct vgpu_host_range *h;
	struct vgpu_alloc *a;
	u64 page;

	if (va > ULONG_MAX)
		return false;
	a = mtree_load(&ctx->vm.allocs, va);
	if (a) {
		r->va = a->va;
		r->size = a->size;
		r->ptr = (u8 *)a->chunk->vaddr + (a->va - a->chunk->va);
		r->writable = true;
		return true;
	}
	h = mtree_load(&ctx->vm.hosts, va);
	if (!h)
		return false;
	page = (va - h->addr) >> PAGE_SHIFT;
	r->va = h->addr + (page << PAGE_SHIFT);
	r->size = PAGE_SIZE;
	r->ptr = page_address(h->pages[page]);
	r->writable = h->writable;
	return !!r->ptr;
}
