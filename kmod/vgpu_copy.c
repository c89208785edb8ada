// SPDX-License-Identifier: GPL-2.0
/*
 * What the copy engine does with one command: resolve device addresses in
 * the context's address space (device allocations and registered host
 * ranges) and move or fill the bytes. Every access is checked against the
 * range it falls in; a bad address fails the command, never the host.
 *
 * Runs in the channel worker with the context's vgpu_vm.lock held, so no
 * range can be freed or unpinned under it.
 */
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/maple_tree.h>
#include <linux/mm.h>
#include <linux/sched.h>

#include "vgpu_drv.h"

/*
 * A piece of device address space mapped for the CPU: @len bytes at @ptr,
 * contiguous. Host pages are mapped one at a time (@mapped: unmap with
 * kunmap_local()).
 */
struct vgpu_seg {
	void *ptr;
	u64 len;
	bool mapped;
};

/* Maps as much of [@va, @va + @len) as is contiguous, or fails with -EFAULT. */
static int vgpu_seg_get(struct vgpu_vm *vm, u64 va, u64 len, bool write,
			struct vgpu_seg *seg)
{
	struct vgpu_host_range *h;
	struct vgpu_alloc *a;
	u64 off;

	seg->mapped = false;
	if (va > ULONG_MAX)
		return -EFAULT;
	a = mtree_load(&vm->allocs, va);
	if (a) {
		off = va - a->va;
		if (off >= a->size)
			return -EFAULT;
		seg->ptr = a->chunk->vaddr + (a->va - a->chunk->va) + off;
		seg->len = min(len, a->size - off);
		return 0;
	}
	h = mtree_load(&vm->hosts, va);
	if (!h || (write && !h->writable))
		return -EFAULT;
	off = va - h->addr;
	seg->ptr = kmap_local_page(h->pages[off >> PAGE_SHIFT]) +
		   offset_in_page(off);
	seg->len = min(len, PAGE_SIZE - offset_in_page(off));
	seg->mapped = true;
	return 0;
}

static void vgpu_seg_put(struct vgpu_seg *seg)
{
	if (seg->mapped)
		kunmap_local(seg->ptr);
}

/*
 * The engine's bulk move: 8-byte words, then the tail. The kernel's memcpy
 * may use "rep movsb", which CPU emulators (QEMU's TCG, as in the VM bench)
 * run a byte at a time, five times slower than word moves; word moves are
 * fast everywhere. Kbuild keeps GCC from turning the loop back into a
 * memcpy call. Overlapping ranges (a copy within one allocation) take
 * memmove.
 */
static void vgpu_move(void *dst, const void *src, size_t n)
{
	const u8 *s = src;
	u8 *d = dst;
	size_t i, words = n / 8;
	u64 w;

	if (dst > src && dst < src + n) {
		memmove(dst, src, n);
		return;
	}
	/* A fixed 8-byte memcpy is one unaligned-safe move. */
	for (i = 0; i < words; i++) {
		__builtin_memcpy(&w, s + i * 8, 8);
		__builtin_memcpy(d + i * 8, &w, 8);
	}
	memcpy(d + words * 8, s + words * 8, n % 8);
}

/* Copies @len bytes; on a fault, *@fault is the address that failed. */
static int vgpu_copy_range(struct vgpu_vm *vm, u64 dst, u64 src, u64 len,
			   u64 *fault)
{
	while (len) {
		struct vgpu_seg s, d;
		u64 n;

		if (vgpu_seg_get(vm, src, len, false, &s)) {
			*fault = src;
			return -EFAULT;
		}
		if (vgpu_seg_get(vm, dst, s.len, true, &d)) {
			vgpu_seg_put(&s);
			*fault = dst;
			return -EFAULT;
		}
		n = min(s.len, d.len);
		vgpu_move(d.ptr, s.ptr, n);
		vgpu_seg_put(&d);	/* kmap_local: last mapped, first unmapped */
		vgpu_seg_put(&s);
		src += n;
		dst += n;
		len -= n;
	}
	return 0;
}

static void vgpu_fill(void *p, u64 bytes, u32 value, u32 elem_size)
{
	u64 i;

	switch (elem_size) {
	case 1:
		memset(p, value, bytes);
		break;
	case 2:
		for (i = 0; i < bytes / 2; i++)
			((u16 *)p)[i] = value;
		break;
	default:
		for (i = 0; i < bytes / 4; i++)
			((u32 *)p)[i] = value;
		break;
	}
}

static int vgpu_fill_range(struct vgpu_vm *vm, u64 dst, u64 len, u32 value,
			   u32 elem_size, u64 *fault)
{
	while (len) {
		struct vgpu_seg d;
		u64 n;

		if (vgpu_seg_get(vm, dst, len, true, &d)) {
			*fault = dst;
			return -EFAULT;
		}
		/* Pieces end on page or allocation boundaries: whole elements. */
		n = d.len;
		vgpu_fill(d.ptr, n, value, elem_size);
		vgpu_seg_put(&d);
		dst += n;
		len -= n;
	}
	return 0;
}

static int vgpu_write_u64(struct vgpu_vm *vm, u64 va, u64 value, u64 *fault)
{
	struct vgpu_seg d;

	if (vgpu_seg_get(vm, va, 8, true, &d) || d.len < 8) {
		if (d.mapped)
			vgpu_seg_put(&d);
		*fault = va;
		return -EFAULT;
	}
	WRITE_ONCE(*(u64 *)d.ptr, value);
	vgpu_seg_put(&d);
	return 0;
}

/**
 * vgpu_exec() - run one validated command in @ctx's address space.
 * @fault: set to the failing address on error.
 * Return: 0 or -EFAULT.
 */
int vgpu_exec(struct vgpu_ctx *ctx, const struct vgpu_cmd *cmd, u64 *fault)
{
	struct vgpu_vm *vm = &ctx->vm;
	u32 row;
	int ret = 0;

	mutex_lock(&vm->lock);
	switch (cmd->op) {
	case VGPU_CMD_COPY:
		for (row = 0; row < cmd->copy.height && !ret; row++) {
			ret = vgpu_copy_range(vm,
					      cmd->copy.dst + row * cmd->copy.dst_pitch,
					      cmd->copy.src + row * cmd->copy.src_pitch,
					      cmd->copy.width, fault);
			cond_resched();
		}
		break;
	case VGPU_CMD_MEMSET:
		for (row = 0; row < cmd->memset.height && !ret; row++) {
			ret = vgpu_fill_range(vm,
					      cmd->memset.dst + row * cmd->memset.pitch,
					      cmd->memset.width * cmd->memset.elem_size,
					      cmd->memset.value,
					      cmd->memset.elem_size, fault);
			cond_resched();
		}
		break;
	case VGPU_CMD_SEM_RELEASE:
		if (cmd->flags & VGPU_SEM_TIMESTAMP)
			ret = vgpu_write_u64(vm, cmd->sem.addr + 8,
					     ktime_get_ns(), fault);
		if (!ret)
			ret = vgpu_write_u64(vm, cmd->sem.addr, cmd->sem.value,
					     fault);
		break;
	default:		/* VGPU_CMD_NOP */
		break;
	}
	mutex_unlock(&vm->lock);
	return ret;
}
