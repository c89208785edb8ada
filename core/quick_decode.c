// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The quick loop's pre-decoded form (see vgpu_shape_run()): for each
 * instruction of a launch's program, once, the handler that runs it for
 * a converged warp. What a handler may take for granted (the operation,
 * its type, flags and guard, registers in range, a shift count below the
 * width) is decided here, so that running the instruction costs an
 * indirect jump and the few loads its shapes need: under an emulated CPU
 * each test the general path makes on the way costs as much as the
 * arithmetic itself.
 */
#include "warp.h"

bool vgpu_predecode_off;

static bool vgpu_qk_int(u8 t)
{
	return t == VGPU_T_U32 || t == VGPU_T_S32 || t == VGPU_T_U64 ||
	       t == VGPU_T_S64;
}

/* Register operands a and (unless an immediate) b name registers. */
static bool vgpu_qk_regs(const struct vgpu_insn *in, u32 nregs)
{
	return in->dst < nregs && in->a < nregs &&
	       ((in->flags & VGPU_IF_B_IMM) || in->b < nregs);
}

/* The handler of @in in a function of @nregs registers (VGPU_QK_*). */
static u8 vgpu_qk_kind(const struct vgpu_insn *in, u32 nregs)
{
	bool w32 = in->type == VGPU_T_U32 || in->type == VGPU_T_S32;
	bool bimm = in->flags & VGPU_IF_B_IMM;

	if (in->op == VGPU_OP_NOP)
		return VGPU_QK_NOP;
	if (in->op == VGPU_OP_BRA)
		return VGPU_QK_BRA;
	if (in->guard != VGPU_PRED_NONE)
		return VGPU_QK_GENERAL;
	if (!vgpu_shape_covers(in->op))
		return VGPU_QK_STOP;
	switch (in->op) {
	case VGPU_OP_ADD:
		if (!vgpu_qk_int(in->type) || (in->flags & ~VGPU_IF_B_IMM) ||
		    !vgpu_qk_regs(in, nregs))
			break;
		if (w32)
			return bimm ? VGPU_QK_ADD32I : VGPU_QK_ADD32;
		return bimm ? VGPU_QK_ADD64I : VGPU_QK_ADD64;
	case VGPU_OP_SHL:
		if (!vgpu_qk_int(in->type) || in->flags != VGPU_IF_B_IMM ||
		    !vgpu_qk_regs(in, nregs) ||
		    (in->imm & 0xffffffff) >= (w32 ? 32 : 64))
			break;
		return w32 ? VGPU_QK_SHL32I : VGPU_QK_SHL64I;
	case VGPU_OP_SETP:
		if (in->type < VGPU_T_U8 || in->type > VGPU_T_S32 ||
		    (in->flags & ~VGPU_IF_B_IMM) || in->a >= nregs ||
		    (!bimm && in->b >= nregs))
			break;
		return VGPU_QK_SETP;
	case VGPU_OP_LD:
		if (in->a == VGPU_NO_REG && in->mod == VGPU_SPACE_PARAM &&
		    in->dst < nregs && in->type != VGPU_T_PRED &&
		    !(in->imm & (vgpu_type_bits(in->type) / 8 - 1)))
			return VGPU_QK_LDP;
		fallthrough;
	case VGPU_OP_ST:
		/* Through an address register, as vgpu_shape_lean_mem() takes. */
		if ((in->mod == VGPU_SPACE_SHARED || in->mod == VGPU_SPACE_GLOBAL) &&
		    in->a < nregs && vgpu_type_bits(in->type) == 32 && !in->flags &&
		    (in->op == VGPU_OP_LD ? in->dst : in->b) < nregs)
			return VGPU_QK_MEM32;
		break;
	case VGPU_OP_SREG:
		if (in->dst < nregs)
			return VGPU_QK_SREG;
		break;
	case VGPU_OP_MAD:
		if (vgpu_qk_int(in->type))
			return VGPU_QK_MAD;
		break;
	case VGPU_OP_FMA:
		if (in->type == VGPU_T_F32 && !in->flags && !(in->mod & 3) &&
		    vgpu_qk_regs(in, nregs) && in->c < nregs)
			return VGPU_QK_FMA32;
		break;
	}
	return VGPU_QK_GENERAL;
}

/*
 * Fills @q (vgpu_predecode_bytes() of @l) for @l's program, unless it
 * holds that already: blocks of one launch share it.
 */
void vgpu_predecode(struct vgpu_predecoded *q, const struct vgpu_launch *l)
{
	const struct vgpu_program *p = l->prog;
	u32 i;

	if (q->insns == p->insns && q->ninsns == p->ninsns &&
	    q->nregs == l->func->nregs)
		return;
	for (i = 0; i < p->ninsns; i++)
		q->kinds[i] = vgpu_qk_kind(&p->insns[i], l->func->nregs);
	q->insns = p->insns;
	q->ninsns = p->ninsns;
	q->nregs = l->func->nregs;
}
