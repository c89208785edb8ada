// SPDX-License-Identifier: MIT
/*
 * Lane-affine registers of the block function's straight run. Address
 * arithmetic is mostly a thread index times a size plus a pointer, so
 * that lane i of a warp holds base + i * step: such a register is two
 * scalars, and an access through it at a step of its element size is one
 * vector move with one range check, where the general path computes 32
 * addresses, tests them for consecutiveness and checks them.
 *
 * The affine values come only from special registers, parameters and
 * immediates through integer arithmetic (a load's value is never one),
 * so they are all known before the warp's first memory access: this
 * walk computes them at the warp's start, and with them the conditions
 * under which they are exact: the warp's TID_X consecutive, and no
 * narrow (below 64-bit) operation wrapping, or crossing its sign, between
 * lane 0 and lane 31. The block function runs the warp on the affine
 * copy of its code when they hold, and on the general copy otherwise.
 */
#include <stdlib.h>

#include "native_irb.h"

/*
 * The walk's state: the conditions so far (@ok), the last lane's index
 * (@last: 31 for a warp, the block's threads less one for a block), and
 * whether TID_X's condition is in @ok yet.
 */
struct aff_walk {
	struct irb *g;
	LLVMValueRef ok, last;
	bool block;
	bool tid_checked;
};

static struct nrt_aff none(void)
{
	return (struct nrt_aff){ NULL, NULL, false };
}

static struct nrt_aff uni(struct irb *g, LLVMValueRef v)
{
	return (struct nrt_aff){ v, k64(g, 0), true };
}

static void require(struct aff_walk *a, LLVMValueRef c)
{
	a->ok = LLVMBuildAnd(a->g->b, a->ok, c, "");
}

/*
 * The low @bits of @v, zero-extended (the narrow operations' results and
 * operands): affine while the lanes from 0 to the last stay in one
 * 2^@bits interval.
 */
static struct nrt_aff zext(struct aff_walk *a, struct nrt_aff v, u32 bits)
{
	struct irb *g = a->g;
	LLVMBuilderRef B = g->b;
	LLVMValueRef lo, hi;
	u64 mask;

	if (!v.base || bits >= 64)
		return v;
	mask = (1ULL << bits) - 1;
	lo = LLVMBuildAnd(B, v.base, k64(g, mask), "");
	if (v.uni)
		return uni(g, lo);
	/* the steps to the last lane (< 2^21) fit in 64 bits: |step| < 2^40 */
	require(a, LLVMBuildICmp(B, LLVMIntULT, LLVMBuildAdd(B, v.step, k64(g, 1ULL << 40), ""),
				 k64(g, 1ULL << 41), ""));
	hi = LLVMBuildAdd(B, lo, LLVMBuildMul(B, v.step, a->last, ""), "");
	require(a, LLVMBuildICmp(B, LLVMIntSGE, hi, k64(g, 0), ""));
	require(a, LLVMBuildICmp(B, LLVMIntSLE, hi, k64(g, mask), ""));
	return (struct nrt_aff){ lo, v.step, false };
}

/* The low @bits of @v, sign-extended: also no lane crossing the sign. */
static struct nrt_aff sext(struct aff_walk *a, struct nrt_aff v, u32 bits)
{
	struct irb *g = a->g;
	LLVMBuilderRef B = g->b;
	LLVMValueRef sh, hi, top;
	struct nrt_aff z;

	if (!v.base || bits >= 64)
		return v;
	sh = k64(g, 64 - bits);
	top = k64(g, bits - 1);
	z = zext(a, v, bits);
	z.base = LLVMBuildAShr(B, LLVMBuildShl(B, z.base, sh, ""), sh, "");
	if (z.uni)
		return z;
	hi = LLVMBuildAdd(B, LLVMBuildAnd(B, v.base, k64(g, (1ULL << bits) - 1), ""),
			  LLVMBuildMul(B, v.step, a->last, ""), "");
	require(a, LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildLShr(B, hi, top, ""),
				     LLVMBuildLShr(B, LLVMBuildAnd(B, v.base,
						   k64(g, (1ULL << bits) - 1), ""), top, ""), ""));
	return z;
}

static struct nrt_aff add(struct irb *g, struct nrt_aff a, struct nrt_aff b, bool sub)
{
	LLVMBuilderRef B = g->b;

	if (!a.base || !b.base)
		return none();
	if (sub)
		return (struct nrt_aff){ LLVMBuildSub(B, a.base, b.base, ""),
					 LLVMBuildSub(B, a.step, b.step, ""), a.uni && b.uni };
	return (struct nrt_aff){ LLVMBuildAdd(B, a.base, b.base, ""),
				 LLVMBuildAdd(B, a.step, b.step, ""), a.uni && b.uni };
}

/* A product is affine when a factor is the same in every lane. */
static struct nrt_aff mul(struct irb *g, struct nrt_aff a, struct nrt_aff b)
{
	LLVMBuilderRef B = g->b;

	if (!a.base || !b.base || !(a.uni || b.uni))
		return none();
	return (struct nrt_aff){ LLVMBuildMul(B, a.base, b.base, ""),
				 a.uni ? LLVMBuildMul(B, a.base, b.step, "") :
					 LLVMBuildMul(B, a.step, b.base, ""),
				 a.uni && b.uni };
}

static struct nrt_aff imm(struct irb *g, u64 v)
{
	return uni(g, k64(g, v));
}

/* Register @r's value (an operand field a verified program does not use: none). */
static struct nrt_aff reg(const struct irb *g, const struct nrt_aff *st, u32 r)
{
	return r < g->k->func.nregs ? st[r] : none();
}

/* The per-warp thread indices' lane 0 (and TID_X's lane 31). */
static LLVMValueRef tid_lane(struct irb *g, u32 dim, u32 lane)
{
	LLVMValueRef t = wload(g, g->ptr, offsetof(struct nrt_warp, tid));

	return LLVMBuildLoad2(g->b, g->i64, at(g, t, k64(g, ((u64)dim * VGPU_WARP + lane) * 8)),
			      "");
}

/* A special register's lanes, before the instruction's truncation. */
static struct nrt_aff sreg(struct aff_walk *a, u8 sr)
{
	struct irb *g = a->g;
	LLVMValueRef v, y, z;

	switch (sr) {
	case VGPU_SR_TID_X:
	case VGPU_SR_TID_Y:
	case VGPU_SR_TID_Z:
		if (a->block) {
			/* A block of one row: TID_X is the thread's index. */
			if (!a->tid_checked) {
				y = bload(g, g->i64, offsetof(struct nrt_block, sr_uni) +
					  VGPU_SR_NTID_Y * 8);
				z = bload(g, g->i64, offsetof(struct nrt_block, sr_uni) +
					  VGPU_SR_NTID_Z * 8);
				require(a, LLVMBuildICmp(g->b, LLVMIntEQ, y, k64(g, 1), ""));
				require(a, LLVMBuildICmp(g->b, LLVMIntEQ, z, k64(g, 1), ""));
				a->tid_checked = true;
			}
			if (sr == VGPU_SR_TID_X)
				return (struct nrt_aff){ k64(g, 0), k64(g, 1), false };
			return imm(g, 0);
		}
		/*
		 * Lanes at consecutive TID_X (no row of the block ends inside
		 * the warp) share TID_Y and TID_Z.
		 */
		if (!a->tid_checked) {
			v = tid_lane(g, 0, 0);
			require(a, LLVMBuildICmp(g->b, LLVMIntEQ, tid_lane(g, 0, VGPU_WARP - 1),
						 LLVMBuildAdd(g->b, v, k64(g, VGPU_WARP - 1), ""), ""));
			a->tid_checked = true;
		}
		v = tid_lane(g, sr - VGPU_SR_TID_X, 0);
		if (sr == VGPU_SR_TID_X)
			return (struct nrt_aff){ v, k64(g, 1), false };
		return uni(g, v);
	case VGPU_SR_LANEID:
		if (a->block)
			return none();
		return (struct nrt_aff){ k64(g, 0), k64(g, 1), false };
	case VGPU_SR_WARPID:
		if (a->block)
			return none();
		return uni(g, LLVMBuildZExt(g->b, wload(g, g->i32, offsetof(struct nrt_warp, index)),
					    g->i64, ""));
	case VGPU_SR_LANEMASK_EQ:
	case VGPU_SR_LANEMASK_LT:
	case VGPU_SR_LANEMASK_LE:
	case VGPU_SR_LANEMASK_GT:
	case VGPU_SR_LANEMASK_GE:
	case VGPU_SR_CLOCK:
	case VGPU_SR_CLOCK64:
	case VGPU_SR_GLOBALTIMER:
		return none();
	}
	if (sr >= VGPU_SR_COUNT)
		return none();
	return uni(g, bload(g, g->i64, offsetof(struct nrt_block, sr_uni) + sr * 8));
}

/* A parameter read whole (nrt_param_direct()), extended as loaded. */
static struct nrt_aff param(struct irb *g, const struct vgpu_insn *in)
{
	LLVMValueRef l = bload(g, g->ptr, offsetof(struct nrt_block, l)), p, v;
	LLVMTypeRef t = LLVMIntTypeInContext(g->c, vgpu_type_bits(in->type));

	p = LLVMBuildLoad2(g->b, g->ptr, at(g, l, k64(g, offsetof(struct vgpu_launch, params))),
			   "");
	v = LLVMBuildLoad2(g->b, t, at(g, p, k64(g, in->imm)), "");
	LLVMSetAlignment(v, 1);
	if (vgpu_type_bits(in->type) == 64)
		return uni(g, v);
	return uni(g, vgpu_type_signed(in->type) ? LLVMBuildSExt(g->b, v, g->i64, "") :
		   LLVMBuildZExt(g->b, v, g->i64, ""));
}

/* An integer operation of the warp function's int_op(), when affine. */
static struct nrt_aff int_op(struct aff_walk *w, const struct vgpu_insn *in,
			     const struct nrt_aff *st)
{
	struct irb *g = w->g;
	u32 bits = vgpu_type_bits(in->type);
	struct nrt_aff a = reg(g, st, in->a);
	struct nrt_aff b = in->flags & VGPU_IF_B_IMM ? imm(g, in->imm) : reg(g, st, in->b);
	struct nrt_aff c = in->flags & VGPU_IF_C_IMM ? imm(g, in->imm) : reg(g, st, in->c);
	struct nrt_aff r;
	bool sgn = vgpu_type_signed(in->type);

	switch (in->op) {
	case VGPU_OP_ADD:
	case VGPU_OP_SUB:
		r = add(g, zext(w, a, bits), zext(w, b, bits), in->op == VGPU_OP_SUB);
		return zext(w, r, bits);
	case VGPU_OP_MUL:
	case VGPU_OP_MAD:
		if (in->mod == VGPU_MUL_HI)
			return none();
		if (in->mod == VGPU_MUL_WIDE) {
			r = sgn ? mul(g, sext(w, a, bits), sext(w, b, bits)) :
				  mul(g, zext(w, a, bits), zext(w, b, bits));
			return in->op == VGPU_OP_MAD ? add(g, r, c, false) : r;
		}
		r = mul(g, zext(w, a, bits), zext(w, b, bits));
		if (in->op == VGPU_OP_MAD)
			r = add(g, r, c, false);
		return zext(w, r, bits);
	case VGPU_OP_SHL:
		if (!(in->flags & VGPU_IF_B_IMM) || (u32)in->imm >= bits)
			return none();
		r = zext(w, a, bits);
		if (!r.base)
			return none();
		r.base = LLVMBuildShl(g->b, r.base, k64(g, (u32)in->imm), "");
		r.step = LLVMBuildShl(g->b, r.step, k64(g, (u32)in->imm), "");
		return zext(w, r, bits);
	}
	return none();
}

/* Instruction @in's result (it writes register in->dst unguarded). */
static struct nrt_aff result(struct aff_walk *w, const struct vgpu_insn *in,
			     const struct nrt_aff *st)
{
	struct irb *g = w->g;

	switch (in->op) {
	case VGPU_OP_MOV:
		return zext(w, in->flags & VGPU_IF_B_IMM ? imm(g, in->imm) : reg(g, st, in->b),
			    vgpu_type_bits(in->type));
	case VGPU_OP_SREG:
		return zext(w, sreg(w, in->mod), vgpu_type_bits(in->type));
	case VGPU_OP_LD:
		return nrt_param_direct(g->k, in) ? param(g, in) : none();
	case VGPU_OP_ADD ... VGPU_OP_MAD:
	case VGPU_OP_SHL:
		if (vgpu_is_float(in->type) || int_helper(in))
			return none();
		return int_op(w, in, st);
	}
	return none();
}

LLVMValueRef nrt_aff_lanes(struct irb *g, const struct nrt_aff *a, bool narrow)
{
	LLVMValueRef iota[VGPU_WARP], v;
	u32 i;

	for (i = 0; i < VGPU_WARP; i++)
		iota[i] = k64(g, i);
	v = LLVMBuildMul(g->b, vsplat(g, a->step, g->v64), LLVMConstVector(iota, VGPU_WARP), "");
	v = LLVMBuildAdd(g->b, vsplat(g, a->base, g->v64), v, "");
	return narrow ? LLVMBuildTrunc(g->b, v, g->v32, "") : v;
}

LLVMValueRef nrt_aff_run(struct irb *g, struct nrt_aff *dst, struct nrt_aff *addr,
			 LLVMValueRef threads)
{
	const struct vgpu_native_kernel *k = g->k;
	u32 nregs = k->func.nregs, pc, r;
	struct nrt_aff *st = calloc(nregs + 1, sizeof(*st));
	struct aff_walk w = {
		.g = g, .ok = LLVMConstInt(g->i1, 1, false), .block = threads != NULL,
		.last = threads ? LLVMBuildSub(g->b, threads, k64(g, 1), "") :
			k64(g, VGPU_WARP - 1),
	};

	if (!st)
		return LLVMConstInt(g->i1, 0, false);
	/* Registers start as zeros. */
	for (r = 0; r < nregs; r++)
		st[r] = imm(g, 0);
	for (pc = k->func.entry; pc < k->ninsns; pc++) {
		const struct vgpu_insn *in = &k->insns[pc];

		dst[pc] = none();
		addr[pc] = none();
		if (in->op == VGPU_OP_EXIT && in->guard == VGPU_PRED_NONE)
			break;
		if ((in->op == VGPU_OP_LD || in->op == VGPU_OP_ST) && !nrt_param_direct(g->k, in))
			addr[pc] = in->a == VGPU_NO_REG ? imm(g, in->imm) :
				   add(g, reg(g, st, in->a), imm(g, in->imm), false);
		if (!nrt_defines(in) || in->dst >= nregs)
			continue;
		if (in->guard == VGPU_PRED_NONE)
			dst[pc] = result(&w, in, st);
		st[in->dst] = dst[pc];
	}
	free(st);
	return w.ok;
}
