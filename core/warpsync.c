// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The warp-synchronous instructions once their member lanes are all there
 * (warpsync.h): shared by the interpreter and the native engine, which
 * differ in how they gather the lanes but not in what the lanes compute.
 */
#include "warpsync.h"

/* A register's lane, in the engines' layout: 32 lanes a register. */
#define REG(r, lane) (regs[(u64)(r) * VGPU_WARP + (lane)])

static u32 vgpu_inline_b(const u64 *regs, const struct vgpu_insn *in,
			 u32 lane)
{
	return in->flags & VGPU_IF_B_IMM ? in->b : (u32)REG(in->b, lane);
}

static u32 vgpu_inline_c(const u64 *regs, const struct vgpu_insn *in,
			 u32 lane)
{
	return in->flags & VGPU_IF_C_IMM ? in->c : (u32)REG(in->c, lane);
}

static void vgpu_set_pred(u32 *preds, u32 p, u32 em, u32 val)
{
	preds[p] = (preds[p] & ~em) | (val & em);
}

/* shfl.sync as PTX defines it: lane j's value, or one's own. */
void vgpu_shfl(u64 *regs, u32 *preds, const struct vgpu_insn *in, u32 em)
{
	u64 src[VGPU_WARP];
	u32 m, lane, valid = 0;

	for (lane = 0; lane < VGPU_WARP; lane++)
		src[lane] = REG(in->a, lane);
	for (m = em; m; m &= m - 1) {
		u32 bv, cv, seg, maxl, minl, j;
		bool ok;

		lane = __builtin_ctz(m);
		bv = vgpu_inline_b(regs, in, lane) & 31;
		cv = vgpu_inline_c(regs, in, lane);
		seg = (cv >> 8) & 31;
		maxl = (lane & seg) | (cv & 31 & ~seg);
		minl = lane & seg;
		switch (in->mod) {
		case VGPU_SHFL_UP:
			j = lane - bv;
			ok = (s32)j >= (s32)maxl;
			break;
		case VGPU_SHFL_DOWN:
			j = lane + bv;
			ok = j <= maxl;
			break;
		case VGPU_SHFL_BFLY:
			j = lane ^ bv;
			ok = j <= maxl;
			break;
		default:	/* IDX */
			j = minl | (bv & ~seg);
			ok = j <= maxl;
			break;
		}
		if (!ok)
			j = lane;
		REG(in->dst, lane) = src[j & 31] & 0xffffffffU;
		if (ok)
			valid |= 1U << lane;
	}
	if (in->mod2)
		vgpu_set_pred(preds, in->mod2 - 1, em, valid);
}

void vgpu_vote(u64 *regs, u32 *preds, const struct vgpu_insn *in, u32 em)
{
	u32 mask = (u32)in->imm & em, p = preds[in->a] & mask, m;
	bool r;

	if (in->mod == VGPU_VOTE_BALLOT) {
		for (m = em; m; m &= m - 1)
			REG(in->dst, __builtin_ctz(m)) = p;
		return;
	}
	if (in->mod == VGPU_VOTE_ALL)
		r = p == mask;
	else if (in->mod == VGPU_VOTE_ANY)
		r = p != 0;
	else
		r = !p || p == mask;
	vgpu_set_pred(preds, in->dst, em, r ? ~0U : 0);
}

void vgpu_match(u64 *regs, u32 *preds, const struct vgpu_insn *in, u32 em)
{
	u32 mask = (u32)in->imm & em, m, n, all = mask;
	u64 v, vmask = in->type == VGPU_T_U64 || in->type == VGPU_T_S64 ?
		~0ULL : 0xffffffffULL;

	for (m = em; m; m &= m - 1) {
		u32 lane = __builtin_ctz(m), same = 0;

		v = REG(in->a, lane) & vmask;
		for (n = mask; n; n &= n - 1)
			if ((REG(in->a, __builtin_ctz(n)) & vmask) == v)
				same |= 1U << __builtin_ctz(n);
		if (same != mask)
			all = 0;
		if (in->mod == VGPU_MATCH_ANY)
			REG(in->dst, lane) = same;
	}
	if (in->mod == VGPU_MATCH_ALL) {
		for (m = em; m; m &= m - 1)
			REG(in->dst, __builtin_ctz(m)) = all;
		if (in->mod2)
			vgpu_set_pred(preds, in->mod2 - 1, em, all ? ~0U : 0);
	}
}
