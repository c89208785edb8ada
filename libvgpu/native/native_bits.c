// SPDX-License-Identifier: MIT
/*
 * The bit-field instructions (POPC, CLZ, BREV, BFIND, BFE, PRMT), lane by
 * lane on the warp's register file with the interpreter's definitions
 * (core/intops.c): rare enough in kernels that a call per warp costs little.
 */
#include "native_rt.h"
#include "intops.h"

/* The bit-field instruction at w->ls.cur_pc, for lanes @em. */
void nrt_bits_op(struct nrt_warp *w, u32 em)
{
	vgpu_bit_lanes(w->regs, &w->blk->k->insns[w->ls.cur_pc], em);
}
