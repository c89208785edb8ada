// SPDX-License-Identifier: MIT
/*
 * Memory accesses the generated code's fast path leaves to the runtime:
 * a warp whose addresses do not all lie in the range the last access hit,
 * local, constant and register-addressed parameter memory, and every
 * fault. Lane by lane in the interpreter's order and with its checks, so
 * that the lanes before a faulting one have done their part and the fault
 * names the same lane, address and kind.
 */
#include <stdint.h>
#include <stdlib.h>

#include "native_rt.h"
#include "intops.h"
#include "memspace.h"

/*
 * No range of the block holds @va: asks the host (a block of a launch that
 * libcuda runs learns its memory this way) and adds what it answers to the
 * block's ranges. False when the host knows none or memory ran out.
 */
static bool nrt_learn(struct nrt_block *b, u64 va)
{
	struct vgpu_range r, *grown;

	if (!b->lookup || !b->lookup(b->lookup_arg, va, &r) || !r.size ||
	    va - r.va >= r.size)
		return false;
	grown = realloc(b->ranges, sizeof(*grown) * (b->nranges + 1));
	if (!grown)
		return false;
	grown[b->nranges++] = r;
	b->ranges = grown;
	return true;
}

/* A global access: the first range holding @va, as vgpu_core_lookup(). */
static u8 *nrt_global(struct nrt_block *b, u32 pc, u64 va, u32 len,
		      bool write)
{
	struct nrt_site *site = &b->sites[pc];
	u32 i;

	for (i = 0; i < b->nranges || nrt_learn(b, va); i++) {
		const struct vgpu_range *r = &b->ranges[i];

		if (va - r->va >= r->size)
			continue;
		if (len > r->size - (va - r->va))
			return NULL;
		/* The next warp checks against this range first. */
		site->va = r->va;
		site->end = r->va + r->size;
		site->delta = (u64)(uintptr_t)r->ptr - r->va;
		site->writable = r->writable;
		if (write && !r->writable)
			return NULL;
		return r->ptr + (va - r->va);
	}
	return NULL;
}

static u8 *nrt_addr(struct nrt_block *b, u32 pc, u32 thread, u8 space,
		    u64 addr, u32 len, bool write, u32 *kind)
{
	*kind = VGPU_FAULT_ADDRESS;
	if (addr & (len - 1)) {
		*kind = VGPU_FAULT_MISALIGNED;
		return NULL;
	}
	switch (vgpu_space_of(space, &addr)) {
	case VGPU_SPACE_GLOBAL:
		return nrt_global(b, pc, addr, len, write);
	case VGPU_SPACE_SHARED:
		if (!vgpu_fits(addr, len, b->shared_bytes))
			return NULL;
		return b->shared + addr;
	case VGPU_SPACE_LOCAL:
		if (!vgpu_fits(addr, len, b->local_bytes))
			return NULL;
		return b->local + (u64)thread * b->local_bytes + addr;
	default:
		return vgpu_launch_ptr(b->l, space, addr, len, write);
	}
}

/*
 * LD or ST at w->ls.cur_pc for lanes @em: addresses in w->scratch_a, values
 * to store (or loaded) in w->scratch_v. NRT_GO_ON or NRT_FAULT.
 */
int nrt_mem(struct nrt_warp *w, u32 em)
{
	const struct vgpu_insn *in = &w->blk->k->insns[w->ls.cur_pc];
	bool write = in->op == VGPU_OP_ST, sgn = vgpu_type_signed(in->type);
	u32 len = vgpu_type_bits(in->type) / 8, m, kind;

	for (m = em; m; m &= m - 1) {
		u32 lane = __builtin_ctz(m);
		u64 addr = w->scratch_a[lane], v = 0;
		u8 *p = nrt_addr(w->blk, w->ls.cur_pc, w->index * 32 + lane, in->mod, addr,
				 len, write, &kind);

		if (!p)
			return nrt_fail(w, 1U << lane, kind, addr);
		if (write) {
			v = w->scratch_v[lane];
			__builtin_memcpy(p, &v, len);
			continue;
		}
		__builtin_memcpy(&v, p, len);
		if (sgn && len < 8)
			v = (u64)((s64)(v << (64 - len * 8)) >> (64 - len * 8));
		w->scratch_v[lane] = v;
	}
	return NRT_GO_ON;
}

/* Special register @sr of every lane, into w->sreg (as the interpreter
 * computes it, before truncation to the instruction's type). */
void nrt_sreg(struct nrt_warp *w, u32 sr)
{
	const struct nrt_block *b = w->blk;
	const struct vgpu_launch *l = b->l;
	u32 lane;

	for (lane = 0; lane < VGPU_WARP; lane++) {
		u32 t = w->index * 32 + lane;
		u64 v;

		switch (sr) {
		case VGPU_SR_TID_X: v = t % l->block[0]; break;
		case VGPU_SR_TID_Y: v = t / l->block[0] % l->block[1]; break;
		case VGPU_SR_TID_Z: v = t / l->block[0] / l->block[1]; break;
		case VGPU_SR_NTID_X: v = l->block[0]; break;
		case VGPU_SR_NTID_Y: v = l->block[1]; break;
		case VGPU_SR_NTID_Z: v = l->block[2]; break;
		case VGPU_SR_CTAID_X: v = b->ctaid[0]; break;
		case VGPU_SR_CTAID_Y: v = b->ctaid[1]; break;
		case VGPU_SR_CTAID_Z: v = b->ctaid[2]; break;
		case VGPU_SR_NCTAID_X: v = l->grid[0]; break;
		case VGPU_SR_NCTAID_Y: v = l->grid[1]; break;
		case VGPU_SR_NCTAID_Z: v = l->grid[2]; break;
		case VGPU_SR_LANEID: v = lane; break;
		case VGPU_SR_WARPID: v = w->index; break;
		case VGPU_SR_NWARPID: v = b->nwarps; break;
		case VGPU_SR_SMID: v = l->smid; break;
		case VGPU_SR_NSMID: v = l->nsmid; break;
		case VGPU_SR_LANEMASK_EQ: v = 1U << lane; break;
		case VGPU_SR_LANEMASK_LT: v = (1U << lane) - 1; break;
		case VGPU_SR_LANEMASK_LE: v = (2ULL << lane) - 1; break;
		case VGPU_SR_LANEMASK_GT: v = (u32)~((2ULL << lane) - 1); break;
		case VGPU_SR_LANEMASK_GE: v = (u32)~((1U << lane) - 1); break;
		case VGPU_SR_GRID_SYNC_HI: v = (u32)(l->grid_sync >> 32); break;
		case VGPU_SR_GRID_SYNC_LO: v = (u32)l->grid_sync; break;
		default: v = l->dyn_shared; break;	/* DYN_SMEM */
		}
		w->sreg[lane] = v;
	}
}

/*
 * ATOM at w->ls.cur_pc for lanes @em, lane by lane as the interpreter: the
 * operands from the register file (or the b and c fields themselves,
 * with the immediate flags), the old values to it. NRT_GO_ON or
 * NRT_FAULT.
 */
int nrt_atom(struct nrt_warp *w, u32 em)
{
	const struct vgpu_insn *in = &w->blk->k->insns[w->ls.cur_pc];
	u32 len = vgpu_type_bits(in->type) / 8, m, kind;
	u64 *regs = w->regs;

	for (m = em; m; m &= m - 1) {
		u32 lane = __builtin_ctz(m);
		u64 addr = in->imm, bv, cv;
		u8 *p;

		if (in->a != VGPU_NO_REG)
			addr += regs[(u64)in->a * VGPU_WARP + lane];
		p = nrt_addr(w->blk, w->ls.cur_pc, w->index * 32 + lane, in->mod, addr,
			     len, true, &kind);
		if (!p)
			return nrt_fail(w, 1U << lane, kind, addr);
		bv = in->flags & VGPU_IF_B_IMM ? in->b : regs[(u64)in->b * VGPU_WARP + lane];
		cv = in->flags & VGPU_IF_C_IMM ? in->c : regs[(u64)in->c * VGPU_WARP + lane];
		regs[(u64)in->dst * VGPU_WARP + lane] = vgpu_atomic(p, in, bv, cv);
	}
	return NRT_GO_ON;
}
