// SPDX-License-Identifier: MIT
/*
 * The bit-field instructions (POPC, CLZ, BREV, BFIND, BFE, PRMT), lane by
 * lane on the warp's register file with the interpreter's definitions
 * (core/intops.c): rare enough in kernels that a call per warp costs little.
 */
#include "native_rt.h"
#include "intops.h"

#define R(w, r, lane) ((w)->regs[(u64)(r) * VGPU_WARP + (lane)])

/* The bit-field instruction at w->ls.cur_pc, for lanes @em. */
void nrt_bits_op(struct nrt_warp *w, u32 em)
{
	const struct vgpu_insn *in = &w->blk->k->insns[w->ls.cur_pc];
	u32 m;

	for (m = em; m; m &= m - 1) {
		u32 lane = __builtin_ctz(m);
		u64 a = R(w, in->a, lane), r;
		u64 b = in->flags & VGPU_IF_B_IMM ? in->imm : R(w, in->b, lane);
		u64 c = in->flags & VGPU_IF_C_IMM ? in->imm : R(w, in->c, lane);

		r = vgpu_bit_op(in, a, b, c);
		R(w, in->dst, lane) = in->op == VGPU_OP_BREV || in->op == VGPU_OP_BFE ?
			r : r & 0xffffffff;
	}
}
