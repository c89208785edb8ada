// SPDX-License-Identifier: MIT
/*
 * Integer operations generated code leaves to the runtime: carry chains
 * (add.cc, addc, sub.cc, subc, mad.cc, madc), which thread a per-lane
 * carry flag through the warp state, s32 saturating adds and subtracts,
 * and the high half of 64-bit products. Lane by lane, with the interpreter's definitions.
 */
#include "native_rt.h"

#define R(w, r, lane) ((w)->regs[(u64)(r) * VGPU_WARP + (lane)])

/* The multiply of MAD.cc: 32- or 64-bit, low, high or wide. */
static u64 nrt_mul(const struct vgpu_insn *in, u64 a, u64 b)
{
	bool w64 = in->type == VGPU_T_U64 || in->type == VGPU_T_S64;
	bool sgn = in->type == VGPU_T_S32 || in->type == VGPU_T_S64;
	unsigned int bits = w64 ? 64 : 32;
	u64 keep = w64 ? ~0ULL : 0xffffffffULL;
	s64 sa = w64 ? (s64)a : (s64)(s32)a, sb = w64 ? (s64)b : (s64)(s32)b;
	u64 ua = a & keep, ub = b & keep, r;

	if (in->mod == VGPU_MUL_WIDE)
		return sgn ? (u64)(sa * sb) : ua * ub;
	if (in->mod == VGPU_MUL_HI) {
		if (bits == 64)
			r = sgn ? (u64)(((__int128)sa * sb) >> 64) :
				  (u64)(((unsigned __int128)ua * ub) >> 64);
		else
			r = sgn ? (u64)((sa * sb) >> 32) : (ua * ub) >> 32;
	} else {
		r = ua * ub;
	}
	return r & keep;
}

/*
 * ADD, SUB, MAD with a carry in or out, ADD/SUB .sat, or 64-bit MUL/MAD
 * .hi (an 128-bit product), for lanes @em.
 */
void nrt_int_op(struct nrt_warp *w, u32 em)
{
	const struct vgpu_insn *in = &w->blk->k->insns[w->ls.cur_pc];
	bool w64 = in->type == VGPU_T_U64 || in->type == VGPU_T_S64;
	u64 mask = w64 ? ~0ULL : 0xffffffffULL;
	u32 m, out = 0;

	for (m = em; m; m &= m - 1) {
		u32 lane = __builtin_ctz(m);
		u64 a = R(w, in->a, lane), b = in->flags & VGPU_IF_B_IMM ? in->imm : R(w, in->b, lane);
		u64 c = in->flags & VGPU_IF_C_IMM ? in->imm : R(w, in->c, lane);
		u64 cin = in->flags & VGPU_IF_CC_IN ? (w->ls.cc >> lane) & 1 : 0, r;
		bool carry;

		if (!(in->flags & (VGPU_IF_CC_IN | VGPU_IF_CC_OUT | VGPU_IF_SAT))) {
			/* 64-bit mul.hi or mad.hi */
			r = nrt_mul(in, a, b);
			R(w, in->dst, lane) = in->op == VGPU_OP_MAD ? r + c : r;
			continue;
		}
		if (!(in->flags & (VGPU_IF_CC_IN | VGPU_IF_CC_OUT))) {
			/* .sat: s32 only */
			s64 v = in->op == VGPU_OP_ADD ? (s64)(s32)a + (s32)b :
				(s64)(s32)a - (s32)b;

			R(w, in->dst, lane) = v > 0x7fffffffLL ? 0x7fffffff :
				v < -0x80000000LL ? 0x80000000ULL : (u64)v & 0xffffffffULL;
			continue;
		}
		a &= mask;
		b &= mask;
		if (in->op == VGPU_OP_SUB) {
			r = (a - b - cin) & mask;
			carry = a < b || (a == b && cin);
		} else {
			if (in->op == VGPU_OP_MAD) {
				a = nrt_mul(in, a, b);
				b = c & mask;
			}
			r = (a + b + cin) & mask;
			carry = r < a || (cin && r == a);
		}
		R(w, in->dst, lane) = r;
		out |= (u32)carry << lane;
	}
	if (in->flags & VGPU_IF_CC_OUT)
		w->ls.cc = (w->ls.cc & ~em) | out;
}
