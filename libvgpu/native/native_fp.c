// SPDX-License-Identifier: MIT
/*
 * The floating point generated code does not inline (rounding modes other
 * than to nearest, ftz, saturation, f64, conversions, the special
 * functions): the core's own fp.c on the warp's register file, so results
 * are the interpreter's bit for bit. Generated code stores the operands
 * to w->regs first and reloads the result after.
 */
#include "native_rt.h"
#include "fp.h"

static const struct vgpu_insn *nrt_insn(const struct nrt_warp *w)
{
	return &w->blk->k->insns[w->ls.cur_pc];
}

void nrt_fp_alu(struct nrt_warp *w, u32 em)
{
	vgpu_fp_alu(w->regs, nrt_insn(w), em);
}

u32 nrt_fp_setp(struct nrt_warp *w, u32 em)
{
	return vgpu_fp_setp(w->regs, nrt_insn(w), em);
}

void nrt_fp_cvt(struct nrt_warp *w, u32 em)
{
	vgpu_fp_cvt(w->regs, nrt_insn(w), em);
}

void nrt_fp_func(struct nrt_warp *w, u32 em)
{
	vgpu_fp_func(w->regs, nrt_insn(w), em);
}
