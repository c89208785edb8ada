// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The ISA verifier: a program runs only if every instruction is well
 * formed (isa_desc.c) and every kernel's code, followed from its entry,
 * stays inside the program and inside the kernel's declared registers
 * and predicates. Each refusal names the instruction and why.
 */
#include "core.h"

static int vgpu_refuse(struct vgpu_verdict *v, s64 insn, s64 func,
		       const char *why)
{
	v->insn = insn;
	v->func = func;
	vgpu_core_snprintf(v->msg, sizeof(v->msg), "%s", why);
	return -1;
}

/* One operand slot, against the kernel's register and predicate counts. */
static const char *vgpu_check_opnd(u8 kind, u32 val, bool is_imm, bool pred,
				   u32 nregs, u32 npreds, u32 ninsns)
{
	if (pred && (kind == OPND_REG || kind == OPND_REG_IMM))
		kind = OPND_PRED;
	if (kind == OPND_REG_IMM && is_imm)
		return val ? "operand replaced by the immediate is not 0" : NULL;
	if (kind == OPND_REG_INLINE)
		return is_imm || val < nregs ? NULL : "register out of range";
	switch (kind) {
	case OPND_NONE:
		return val ? "unused operand is not 0" : NULL;
	case OPND_REG:
	case OPND_REG_IMM:
		return val < nregs ? NULL : "register out of range";
	case OPND_PRED:
		if (is_imm)
			return "predicate operand cannot be immediate";
		return val < npreds ? NULL : "predicate out of range";
	case OPND_ADDR:
		return val == VGPU_NO_REG || val < nregs ? NULL :
			"register out of range";
	case OPND_MEET:
		return val == VGPU_NO_TARGET || val < ninsns ? NULL :
			"meeting point out of range";
	}
	return "bad operand";
}

/* Operands against one kernel's declared counts. */
static const char *vgpu_check_regs(const struct vgpu_insn *in,
				   const struct vgpu_func *f, u32 ninsns)
{
	bool pred = in->type == VGPU_T_PRED;
	struct vgpu_op_desc sd, *s = &sd;
	const char *why;

	vgpu_isa_insn_desc(in, s);

	why = vgpu_check_opnd(s->dst, in->dst, false, pred, f->nregs,
			      f->npreds, ninsns);
	if (!why)
		why = vgpu_check_opnd(s->a, in->a, false, pred, f->nregs,
				      f->npreds, ninsns);
	if (!why)
		why = vgpu_check_opnd(s->b, in->b, in->flags & VGPU_IF_B_IMM,
				      pred, f->nregs, f->npreds, ninsns);
	if (!why)
		why = vgpu_check_opnd(s->c, in->c, in->flags & VGPU_IF_C_IMM,
				      pred && s->c != OPND_PRED, f->nregs,
				      f->npreds, ninsns);
	if (!why && in->guard != VGPU_PRED_NONE && in->guard >= f->npreds)
		why = "guard predicate out of range";
	if (!why && (in->op == VGPU_OP_SHFL || in->op == VGPU_OP_MATCH) &&
	    in->mod2 > f->npreds)
		why = "predicate out of range";
	return why;
}

static const char *vgpu_check_func(const struct vgpu_func *f, u32 ninsns)
{
	if (f->entry >= ninsns)
		return "entry out of range";
	if (!f->nregs || f->nregs > VGPU_MAX_REGS)
		return "register count out of range";
	if (f->npreds > VGPU_MAX_PREDS)
		return "predicate count out of range";
	if (f->param_bytes > VGPU_MAX_PARAM_BYTES)
		return "parameter bytes out of range";
	if (f->shared_bytes > VGPU_MAX_SHARED_BYTES)
		return "shared bytes out of range";
	if (f->local_bytes > VGPU_MAX_LOCAL_BYTES)
		return "local bytes out of range";
	if (f->pad)
		return "reserved field is not 0";
	return NULL;
}

/* Does control leave @in only by its branch or by ending the lane? */
static bool vgpu_no_fallthrough(const struct vgpu_insn *in)
{
	if (in->guard != VGPU_PRED_NONE)
		return false;
	return in->op == VGPU_OP_BRA || in->op == VGPU_OP_EXIT ||
	       in->op == VGPU_OP_TRAP;
}

/* vgpu_isa_verify()'s marks: per kernel, and for the whole program. */
#define SEEN_QUEUED 1		/* reached by the kernel being checked */
#define SEEN_ANY 2		/* reached by some kernel */

/**
 * vgpu_isa_verify() - check @prog before it may run.
 * @seen: scratch of @prog->ninsns bytes;
 * @stack: scratch of @prog->ninsns entries (the core allocates nothing).
 * Return: 0, or -1 with @v saying which instruction and why.
 */
int vgpu_isa_verify(const struct vgpu_program *prog, u8 *seen, u32 *stack,
		    struct vgpu_verdict *v)
{
	u32 n = prog->ninsns, i, f, top;
	const char *why;

	v->insn = -1;
	v->func = -1;
	v->msg[0] = 0;
	if (!n || n > VGPU_MAX_INSNS)
		return vgpu_refuse(v, -1, -1, "instruction count out of range");
	if (!prog->nfuncs)
		return vgpu_refuse(v, -1, -1, "no kernel");
	for (i = 0; i < n; i++) {
		why = vgpu_isa_check_shape(&prog->insns[i], n);
		if (why)
			return vgpu_refuse(v, i, -1, why);
		seen[i] = 0;
	}
	for (f = 0; f < prog->nfuncs; f++) {
		const struct vgpu_func *fn = &prog->funcs[f];

		why = vgpu_check_func(fn, n);
		if (why)
			return vgpu_refuse(v, -1, f, why);
		for (i = 0; i < n; i++)
			seen[i] &= ~SEEN_QUEUED;
		/* Depth-first over the code the kernel can reach. */
		top = 0;
		stack[top++] = fn->entry;
		seen[fn->entry] |= SEEN_QUEUED;
		while (top) {
			u32 at = stack[--top];
			const struct vgpu_insn *in = &prog->insns[at];

			seen[at] |= SEEN_ANY;
			why = vgpu_check_regs(in, fn, n);
			if (why)
				return vgpu_refuse(v, at, f, why);
			if (in->op == VGPU_OP_BRA &&
			    !(seen[in->imm] & SEEN_QUEUED)) {
				seen[in->imm] |= SEEN_QUEUED;
				stack[top++] = (u32)in->imm;
			}
			if (vgpu_no_fallthrough(in))
				continue;
			if (at + 1 == n)
				return vgpu_refuse(v, at, f,
						   "control falls off the end");
			if (!(seen[at + 1] & SEEN_QUEUED)) {
				seen[at + 1] |= SEEN_QUEUED;
				stack[top++] = at + 1;
			}
		}
	}
	for (i = 0; i < n; i++)
		if (!(seen[i] & SEEN_ANY))
			return vgpu_refuse(v, i, -1, "unreachable instruction");
	return 0;
}
