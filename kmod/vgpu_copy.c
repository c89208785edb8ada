// SPDX-License-Identifier: GPL-2.0
/*
 * What a copy engine does with one command: resolve device addresses in
 * the context's address space (device allocations and registered host
 * ranges) and move or fill the bytes, or read and write a semaphore.
 * Every access is checked against the range it falls in; a bad address
 * fails the command, never the host.
 *
 * Runs with the context's vgpu_vm.lock held for reading, so no range can
 * be freed or unpinned under it while both engines may work in it.
 */
#include <linux/highmem.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/minmax.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sizes.h>

#include "vgpu_drv.h"

/*
 * A piece of device address space mapped for the CPU: @len bytes at @ptr,
 * contiguous. Host pages are mapped one at a time (@mapped: unmap with
 * kunmap_local()). A piece of a peer's memory (@peer) is good until
 * vgpu_seg_put() ends the RCU read-side section it was found in.
 */
struct vgpu_seg {
	void *ptr;
	u64 len;
	bool mapped;
	bool peer;
};

/*
 * Longest piece of a peer's memory used in one RCU read-side section:
 * the engine does not sleep with it, and a grace period waits for it.
 */
#define VGPU_PEER_PIECE SZ_256K

/*
 * Maps as much of [@va, @va + @len) as is contiguous, or fails with
 * -EFAULT: nothing mapped at @va, or a write to read-only memory. An
 * address the context does not map may be a peer's (vgpu_peer.c).
 */
static int vgpu_seg_get(struct vgpu_vm *vm, u64 va, u64 len, bool write,
			struct vgpu_seg *seg)
{
	struct vgpu_vm_span s;
	u64 off;

	seg->mapped = false;
	seg->peer = false;
	if (vgpu_vm_translate(vm, va, &s)) {
		rcu_read_lock();
		if (vgpu_peer_translate(vm, va, false, &s)) {
			rcu_read_unlock();
			return -EFAULT;
		}
		seg->peer = true;
		len = min_t(u64, len, VGPU_PEER_PIECE);
	}
	if (write && !s.writable) {
		if (seg->peer)
			rcu_read_unlock();
		return -EFAULT;
	}
	off = va - s.va;
	if (s.page) {
		seg->ptr = kmap_local_page(s.page) + off;
		seg->mapped = true;
	} else {
		seg->ptr = s.ptr + off;
	}
	seg->len = min(len, s.size - off);
	return 0;
}

static void vgpu_seg_put(struct vgpu_seg *seg)
{
	if (seg->mapped)
		kunmap_local(seg->ptr);
	if (seg->peer)
		rcu_read_unlock();
}

/*
 * The engine's bulk move: 8-byte words, then the tail. The kernel's memcpy
 * may use "rep movsb", which CPU emulators (QEMU's TCG, as in the VM bench)
 * run a byte at a time, five times slower than word moves; word moves are
 * fast everywhere. Kbuild keeps GCC from turning the loop back into a
 * memcpy call. Overlapping ranges take memmove.
 */
static void vgpu_move(void *dst, const void *src, size_t n)
{
	const u8 *s = src;
	u8 *d = dst;
	size_t i, blocks = n / 32, words;
	u64 w0, w1, w2, w3;

	if (dst > src && dst < src + n) {
		memmove(dst, src, n);
		return;
	}
	/*
	 * A fixed 8-byte memcpy is one unaligned-safe move; four per turn
	 * halve the emulator's per-iteration cost.
	 */
	for (i = 0; i < blocks; i++, s += 32, d += 32) {
		__builtin_memcpy(&w0, s, 8);
		__builtin_memcpy(&w1, s + 8, 8);
		__builtin_memcpy(&w2, s + 16, 8);
		__builtin_memcpy(&w3, s + 24, 8);
		__builtin_memcpy(d, &w0, 8);
		__builtin_memcpy(d + 8, &w1, 8);
		__builtin_memcpy(d + 16, &w2, 8);
		__builtin_memcpy(d + 24, &w3, 8);
	}
	n %= 32;
	for (words = n / 8; words; words--, s += 8, d += 8) {
		__builtin_memcpy(&w0, s, 8);
		__builtin_memcpy(d, &w0, 8);
	}
	memcpy(d, s, n % 8);
}

/*
 * Longest stretch moved between two chances for the scheduler: a long copy
 * must not hold a CPU (with one CPU, the other engine's) for its whole run.
 */
#define VGPU_MOVE_SLICE SZ_1M

/*
 * Copies @len bytes from the top down, a piece at a time: for a copy to
 * a higher address that overlaps its source where the CPU cannot reach
 * the range in one piece (registered host memory is mapped a page at a
 * time). Each piece lies in one page of either side and is moved as
 * memmove, so no byte is written before it has been read.
 */
static int vgpu_copy_down(struct vgpu_vm *vm, u64 dst, u64 src, u64 len,
			  u64 *fault)
{
	while (len) {
		u64 se = src + len, de = dst + len, n;
		struct vgpu_seg s, d;

		n = min3(len, (u64)offset_in_page(se - 1) + 1,
			 (u64)offset_in_page(de - 1) + 1);
		if (vgpu_seg_get(vm, se - n, n, false, &s)) {
			*fault = se - n;
			return -EFAULT;
		}
		if (s.len < n) {	/* the range ends inside the piece */
			vgpu_seg_put(&s);
			*fault = se - n + s.len;
			return -EFAULT;
		}
		if (vgpu_seg_get(vm, de - n, n, true, &d)) {
			vgpu_seg_put(&s);
			*fault = de - n;
			return -EFAULT;
		}
		if (d.len < n) {
			vgpu_seg_put(&d);
			vgpu_seg_put(&s);
			*fault = de - n + d.len;
			return -EFAULT;
		}
		vgpu_move(d.ptr, s.ptr, n);
		vgpu_seg_put(&d);
		vgpu_seg_put(&s);
		len -= n;
		cond_resched();
	}
	return 0;
}

/*
 * Copies @len bytes as memmove, whatever memory either side is in; on a
 * fault, *@fault is the address that failed.
 */
static int vgpu_copy_range(struct vgpu_vm *vm, u64 dst, u64 src, u64 len,
			   u64 *fault)
{
	/*
	 * Upwards over its own source, a copy must go from the top down
	 * unless it can go whole (below); downwards, front to back is safe.
	 */
	if (dst > src && dst - src < len) {
		struct vgpu_seg s, d;
		bool whole;

		if (vgpu_seg_get(vm, src, len, false, &s)) {
			*fault = src;
			return -EFAULT;
		}
		if (vgpu_seg_get(vm, dst, len, true, &d)) {
			vgpu_seg_put(&s);
			return vgpu_copy_down(vm, dst, src, len, fault);
		}
		whole = s.len == len && d.len == len;
		if (whole)
			vgpu_move(d.ptr, s.ptr, len);
		vgpu_seg_put(&d);
		vgpu_seg_put(&s);
		return whole ? 0 : vgpu_copy_down(vm, dst, src, len, fault);
	}
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
		n = min3(s.len, d.len, (u64)VGPU_MOVE_SLICE);
		vgpu_move(d.ptr, s.ptr, n);
		vgpu_seg_put(&d);	/* kmap_local: last mapped, first unmapped */
		vgpu_seg_put(&s);
		src += n;
		dst += n;
		len -= n;
		cond_resched();
	}
	return 0;
}

/*
 * Every row of every slice; the checker ruled out overflow. Each row is
 * a memmove; to a higher address the rows go from the last to the first,
 * so a copy whose two sides have the same layout acts as memmove whole.
 */
static int vgpu_copy_3d(struct vgpu_vm *vm, const struct vgpu_cmd_copy *c,
			u64 *fault)
{
	u32 depth = max(c->depth, 1U), i, j;
	bool down = c->dst > c->src;
	int ret = 0;

	for (i = 0; i < depth && !ret; i++) {
		for (j = 0; j < c->height && !ret; j++) {
			u32 z = down ? depth - 1 - i : i;
			u32 y = down ? c->height - 1 - j : j;
			u64 src_row = (u64)z * c->src_height + y;
			u64 dst_row = (u64)z * c->dst_height + y;

			ret = vgpu_copy_range(vm, c->dst + dst_row * c->dst_pitch,
					      c->src + src_row * c->src_pitch,
					      c->width, fault);
			cond_resched();
		}
	}
	return ret;
}

/*
 * Fills whole elements of @elem_size bytes at @p (aligned to the element):
 * 8-byte stores of the pattern repeated, for the reason vgpu_move() gives.
 */
static void vgpu_fill(void *p, u64 bytes, u32 value, u32 elem_size)
{
	u64 pattern = value, i;
	u8 *d = p;

	if (elem_size == 1)
		pattern |= pattern << 8;
	if (elem_size <= 2)
		pattern |= pattern << 16;
	pattern |= pattern << 32;
	for (i = 0; i < bytes / 8; i++, d += 8)
		__builtin_memcpy(d, &pattern, 8);
	/* The tail is whole elements too; the pattern starts with one. */
	__builtin_memcpy(d, &pattern, bytes % 8);
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
		n = min_t(u64, d.len, VGPU_MOVE_SLICE);
		vgpu_fill(d.ptr, n, value, elem_size);
		vgpu_seg_put(&d);
		dst += n;
		len -= n;
		cond_resched();
	}
	return 0;
}

/*
 * Maps the semaphore word at @va (4 or 8 bytes, aligned by the checker),
 * to be written (a release) or only read (an acquire, which memory the
 * context may only read serves as well).
 */
static int vgpu_sem_map(struct vgpu_vm *vm, u64 va, unsigned int size,
			bool write, struct vgpu_seg *seg, u64 *fault)
{
	if (vgpu_seg_get(vm, va, size, write, seg) || seg->len < size) {
		if (seg->mapped)
			vgpu_seg_put(seg);
		*fault = va;
		return -EFAULT;
	}
	return 0;
}

static int vgpu_sem_release(struct vgpu_vm *vm, const struct vgpu_cmd *cmd,
			    u64 *fault)
{
	struct vgpu_seg d;
	int ret;

	if (cmd->flags & VGPU_SEM_TIMESTAMP) {
		ret = vgpu_sem_map(vm, cmd->sem.addr + 8, 8, true, &d, fault);
		if (ret)
			return ret;
		WRITE_ONCE(*(u64 *)d.ptr, ktime_get_ns());
		vgpu_seg_put(&d);
	}
	/*
	 * Release: whoever sees the value sees the channel's earlier writes
	 * (pairs with the acquire in vgpu_sem_acquire() and with user space's
	 * load of the word).
	 */
	if (cmd->flags & VGPU_SEM_32) {
		ret = vgpu_sem_map(vm, cmd->sem.addr, 4, true, &d, fault);
		if (!ret)	/* pairs with vgpu_sem_acquire() */
			smp_store_release((u32 *)d.ptr, (u32)cmd->sem.value);
	} else {
		ret = vgpu_sem_map(vm, cmd->sem.addr, 8, true, &d, fault);
		if (!ret)	/* pairs with vgpu_sem_acquire() */
			smp_store_release((u64 *)d.ptr, cmd->sem.value);
	}
	if (!ret)
		vgpu_seg_put(&d);
	return ret;
}

/* Does the semaphore satisfy the test? -EAGAIN: not yet. */
static int vgpu_sem_acquire(struct vgpu_vm *vm, const struct vgpu_cmd *cmd,
			    u64 *fault)
{
	bool sem32 = cmd->flags & VGPU_SEM_32;
	u64 want = cmd->sem.value, cur;
	struct vgpu_seg d;
	bool ok;
	int ret;

	ret = vgpu_sem_map(vm, cmd->sem.addr, sem32 ? 4 : 8, false, &d,
			   fault);
	if (ret)
		return ret;
	/*
	 * Acquire, pairing with the release that wrote the value: later
	 * commands see what was written before it.
	 */
	if (sem32)	/* pairs with vgpu_sem_release() */
		cur = smp_load_acquire((u32 *)d.ptr);
	else		/* pairs with vgpu_sem_release() */
		cur = smp_load_acquire((u64 *)d.ptr);
	vgpu_seg_put(&d);

	switch (cmd->flags & VGPU_SEM_TEST_MASK) {
	case VGPU_SEM_GEQ:
		if (cmd->flags & VGPU_SEM_UNSIGNED)
			ok = cur >= want;	/* both zero-extended if 32-bit */
		else
			ok = sem32 ? (s32)((u32)cur - (u32)want) >= 0 :
				(s64)(cur - want) >= 0;
		break;
	case VGPU_SEM_EQ:
		ok = cur == want;
		break;
	case VGPU_SEM_AND:
		ok = cur & want;
		break;
	default:		/* VGPU_SEM_NOR */
		ok = sem32 ? (u32)~(cur | want) : ~(cur | want);
		break;
	}
	return ok ? 0 : -EAGAIN;
}

/**
 * vgpu_read() - copy @len bytes at @va of @ctx's address space into @buf
 * (launch parameters). Return: 0 or -EFAULT.
 */
int vgpu_read(struct vgpu_ctx *ctx, u64 va, void *buf, u64 len)
{
	struct vgpu_vm *vm = &ctx->vm;
	u8 *d = buf;
	int ret = 0;

	down_read(&vm->lock);
	while (len && !ret) {
		struct vgpu_seg s;

		ret = vgpu_seg_get(vm, va, len, false, &s);
		if (ret)
			break;
		memcpy(d, s.ptr, s.len);
		vgpu_seg_put(&s);
		d += s.len;
		va += s.len;
		len -= s.len;
	}
	up_read(&vm->lock);
	return ret;
}

/**
 * vgpu_exec() - run one validated command in @ctx's address space.
 * @fault: set to the failing address on error.
 * Return: 0, -EFAULT, or -EAGAIN for a SEM_ACQUIRE whose test fails.
 */
int vgpu_exec(struct vgpu_ctx *ctx, const struct vgpu_cmd *cmd, u64 *fault)
{
	struct vgpu_vm *vm = &ctx->vm;
	u32 row;
	int ret = 0;

	if (vgpu_fi_fail(ctx->vdev, VGPU_FI_CE_FAULT))
		return vgpu_fi_exec_fault(cmd, fault);
	down_read(&vm->lock);
	switch (cmd->op) {
	case VGPU_CMD_COPY:
		ret = vgpu_copy_3d(vm, &cmd->copy, fault);
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
		ret = vgpu_sem_release(vm, cmd, fault);
		break;
	case VGPU_CMD_SEM_ACQUIRE:
		ret = vgpu_sem_acquire(vm, cmd, fault);
		break;
	default:		/* VGPU_CMD_NOP */
		break;
	}
	up_read(&vm->lock);
	vgpu_managed_unmap(ctx);
	return ret;
}
