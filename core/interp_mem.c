// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The interpreter's memory accesses: a lane's address to a pointer into
 * the block's memories or a range of the context's (the last ranges
 * found kept at hand), and LD/ST for a warp: checked once for the whole
 * warp where its addresses allow, lane by lane (with the fault) where
 * not. The dispatch loop (interp.c) and the register shapes (shape.c)
 * both access memory here.
 */
#include "memspace.h"
#include "warp.h"

/* A pointer to @len bytes at device address @va, or NULL. */
u8 *vgpu_global(struct vgpu_block *b, u64 va, u32 len, bool write)
{
	struct vgpu_range *r;
	unsigned int i;

	for (i = 0; i < VGPU_TLB; i++) {
		r = &b->tlb[i];
		if (r->size && va - r->va < r->size &&
		    len <= r->size - (va - r->va))
			goto hit;
	}
	r = &b->tlb[b->tlb_next++ % VGPU_TLB];
	if (!vgpu_core_lookup(b->l->mmu, va, r)) {
		r->size = 0;
		return NULL;
	}
	if (!(va - r->va < r->size && len <= r->size - (va - r->va)))
		return NULL;
hit:
	/* The fast path looks at the first entry: keep the last hit there. */
	if (r != &b->tlb[0]) {
		struct vgpu_range t = b->tlb[0];

		b->tlb[0] = *r;
		*r = t;
		r = &b->tlb[0];
	}
	if (write && !r->writable)
		return NULL;
	return r->ptr + (va - r->va);
}

/* Resolves one lane's access; NULL with *@fault_kind set on a fault. */
u8 *vgpu_addr(struct vgpu_block *b, u32 thread, u8 space, u64 addr, u32 len,
	      bool write, u32 *fault_kind)
{
	*fault_kind = VGPU_FAULT_ADDRESS;
	if (addr & (len - 1)) {
		*fault_kind = VGPU_FAULT_MISALIGNED;
		return NULL;
	}
	switch (vgpu_space_of(space, &addr)) {
	case VGPU_SPACE_GLOBAL:
		return vgpu_global(b, addr, len, write);
	case VGPU_SPACE_SHARED:
		if (!vgpu_fits(addr, len, b->shared_bytes))
			return NULL;
		return b->shared + addr;
	case VGPU_SPACE_LOCAL:
		if (!vgpu_fits(addr, len, b->local_bytes))
			return NULL;
		return b->local + (u64)thread * b->local_bytes + addr;
	default:		/* PARAM, CONST */
		return vgpu_launch_ptr(b->l, space, addr, len, write);
	}
}

void vgpu_store(u8 *p, u32 len, u64 v)
{
	u16 v16 = (u16)v;
	u32 v32 = (u32)v;

	switch (len * 8) {
	case 8:
		*p = (u8)v;
		break;
	case 16:
		__builtin_memcpy(p, &v16, 2);
		break;
	case 32:
		__builtin_memcpy(p, &v32, 4);
		break;
	default:
		__builtin_memcpy(p, &v, 8);
		break;
	}
}

/*
 * The common case of an access, without a call: shared memory in bounds,
 * or global memory in the range the last lookup found. NULL: ask
 * vgpu_addr().
 */
static u8 *vgpu_addr_fast(struct vgpu_block *b, u8 space, u64 addr, u32 len,
			  bool write)
{
	const struct vgpu_range *r = &b->tlb[0];

	if (addr & (len - 1))
		return NULL;
	if (space == VGPU_SPACE_SHARED)
		return addr < b->shared_bytes && len <= b->shared_bytes - addr ?
			b->shared + addr : NULL;
	if (space == VGPU_SPACE_PARAM)
		return !write && addr < b->l->func->param_bytes &&
			len <= b->l->func->param_bytes - addr ?
			(u8 *)b->l->params + addr : NULL;
	if (space != VGPU_SPACE_GLOBAL || addr - r->va >= r->size ||
	    len > r->size - (addr - r->va) || (write && !r->writable))
		return NULL;
	return r->ptr + (addr - r->va);
}

/*
 * Where the @span bytes from address @lo of @space lie in one piece the
 * block may reach (as @write asks): a pointer to the first, or NULL.
 * Generic addresses qualify when none of them can fall in a window.
 */
u8 *vgpu_span(struct vgpu_block *b, u8 space, u64 lo, u64 span,
	      bool write)
{
	const struct vgpu_range *r;
	u64 end = lo + span;
	unsigned int i;

	if (space == VGPU_SPACE_GENERIC) {
		if (end < lo || (lo < VGPU_LOCAL_WINDOW + VGPU_WINDOW_SIZE &&
				 end > VGPU_SHARED_WINDOW))
			return NULL;
		space = VGPU_SPACE_GLOBAL;
	}
	if (space == VGPU_SPACE_SHARED)
		return lo < b->shared_bytes && span <= b->shared_bytes - lo ?
			b->shared + lo : NULL;
	if (space != VGPU_SPACE_GLOBAL)
		return NULL;
	/* The ranges found before, in place (a warp's accesses alternate). */
	for (i = 0; i < VGPU_TLB; i++) {
		r = &b->tlb[i];
		if (lo - r->va < r->size && span <= r->size - (lo - r->va) &&
		    (!write || r->writable))
			return r->ptr + (lo - r->va);
	}
	return vgpu_global(b, lo, span, write);
}

/*
 * A warp's access where every lane's address lies in one range (the
 * common case: neighbours read neighbouring words): bounds and alignment
 * are checked once for the whole warp. @at: the lanes' addresses where
 * the caller has them (a register with a shape), else NULL. False when
 * some lane needs the per-lane path (which also reports faults).
 */
bool vgpu_mem_warp(struct vgpu_block *b, struct vgpu_warp *w,
		   const struct vgpu_insn *in, u32 em, u32 len, const u64 *at)
{
	u64 addr[VGPU_WARP], lo = ~0ULL, hi = 0, any = 0;
	bool write = in->op == VGPU_OP_ST, sgn = vgpu_type_signed(in->type);
	u32 lane;
	u8 *p;

	if (in->a == VGPU_NO_REG || (len != 4 && len != 8))
		return false;
	VGPU_EACH_LANE(em, lane, {
		addr[lane] = at ? at[lane] : REG(w, in->a, lane) + in->imm;
	});
	VGPU_EACH_LANE(em, lane, {
		u64 a = addr[lane];

		lo = a < lo ? a : lo;
		hi = a > hi ? a : hi;
		any |= a;
	});
	if (any & (len - 1) || hi - lo > (1ULL << 32))
		return false;
	/*
	 * Lanes index from @p by their offset from @lo: @p - @lo would
	 * leave the object (and wrap) wherever a range's address exceeds
	 * the pointer that backs it.
	 */
	p = vgpu_span(b, in->mod, lo, hi - lo + len, write);
	if (!p)
		return false;
	if (len == 8 && write) {
		VGPU_EACH_LANE(em, lane, {
			u64 v = vgpu_b(w, in, lane);

			__builtin_memcpy(p + (addr[lane] - lo), &v, 8);
		});
	} else if (len == 8) {
		VGPU_EACH_LANE(em, lane, {
			__builtin_memcpy(&REG(w, in->dst, lane),
					 p + (addr[lane] - lo), 8);
		});
	} else if (write) {
		VGPU_EACH_LANE(em, lane, {
			u32 v = (u32)vgpu_b(w, in, lane);

			__builtin_memcpy(p + (addr[lane] - lo), &v, 4);
		});
	} else {
		VGPU_EACH_LANE(em, lane, {
			u32 v;

			__builtin_memcpy(&v, p + (addr[lane] - lo), 4);
			REG(w, in->dst, lane) = sgn ? (u64)(s64)(s32)v : v;
		});
	}
	return true;
}

/*
 * One address for the whole warp (a parameter, a constant, a register
 * every lane shares): read once into *@v. Not local memory, where one
 * address names each thread's own word. False when the lanes need the
 * per-lane path (which also reports faults).
 */
bool vgpu_load_one(struct vgpu_block *b, struct vgpu_warp *w,
		   const struct vgpu_insn *in, u32 em, u64 addr, u32 len,
		   u64 *v)
{
	u32 kind;
	u8 *p;

	if (in->op != VGPU_OP_LD || in->mod == VGPU_SPACE_LOCAL ||
	    (in->mod == VGPU_SPACE_GENERIC &&
	     addr - VGPU_LOCAL_WINDOW < VGPU_WINDOW_SIZE))
		return false;
	p = vgpu_addr_fast(b, in->mod, addr, len, false);
	if (!p)
		p = vgpu_addr(b, (u32)(w - b->warps) * 32 + __builtin_ctz(em),
			      in->mod, addr, len, false, &kind);
	if (!p)
		return false;
	*v = vgpu_load(p, in->type, len);
	return true;
}

static bool vgpu_load_uniform(struct vgpu_block *b, struct vgpu_warp *w,
			      const struct vgpu_insn *in, u32 em, u32 len)
{
	u32 lane;
	u64 v;

	if (in->a != VGPU_NO_REG || !vgpu_load_one(b, w, in, em, in->imm, len, &v))
		return false;
	VGPU_EACH_LANE(em, lane, { REG(w, in->dst, lane) = v; });
	return true;
}

int vgpu_mem(struct vgpu_block *b, struct vgpu_warp *w,
	     const struct vgpu_insn *in, u32 em)
{
	u32 len = vgpu_type_bits(in->type) / 8, warp = (u32)(w - b->warps);
	bool write = in->op == VGPU_OP_ST;
	u32 m = em, kind;

	if (!em || vgpu_mem_warp(b, w, in, em, len, NULL) ||
	    vgpu_load_uniform(b, w, in, em, len))
		return 0;
	while (m) {
		u32 lane = __builtin_ctz(m);
		u64 addr = in->imm;
		u8 *p;

		m &= m - 1;
		if (in->a != VGPU_NO_REG)
			addr += REG(w, in->a, lane);
		p = vgpu_addr_fast(b, in->mod, addr, len, write);
		if (!p)
			p = vgpu_addr(b, warp * 32 + lane, in->mod, addr, len,
				      write, &kind);
		if (!p)
			return vgpu_fail(b, w, 1U << lane, kind, addr);
		if (write)
			vgpu_store(p, len, vgpu_b(w, in, lane));
		else
			REG(w, in->dst, lane) = vgpu_load(p, in->type, len);
	}
	return 0;
}
