// SPDX-License-Identifier: MIT
/*
 * The IR builder: a kernel's ISA as one LLVM function that runs a warp.
 *
 * Each register is a <32 x i64> (one element a lane; <32 x i32> when
 * narrow) in the warp's register file, which instructions load and store
 * (LLVM forwards and keeps them in vector registers within a block: SSA
 * across the whole program made compiling slow). Along a run of inline
 * instructions a value the next few read is kept instead, and reaches
 * the register file only where the code may leave and it is live there,
 * or not at all (native_live.c); each predicate is an i32 lane mask in an
 * alloca, loaded on entry and stored back on every return. Every
 * instruction has a block, "body", which counts the turn down and runs
 * it. Where a straight run starts (the entry, a branch's target, after or
 * at an instruction that is not inline) another comes first, "chk": one
 * test of whether the group must ask the scheduler (native_sched.c) if
 * other lanes join or go first (never while no other lane waits). Only
 * there can other lanes wait or the dispatcher enter (core/group.h);
 * inside a run nothing is checked. A turn whose count has run ends on a
 * branch's edges or where the group changed (the dispatcher), as the
 * interpreter's does. Loads and stores: native_ir_mem.c. The group's
 * mask, the scheduler's threshold and the loop count are allocas too,
 * exchanged with the warp state around each call into the runtime.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native_irb.h"

bool nrt_kmasks;

/* --- integer and float arithmetic ---------------------------------------- */

static LLVMValueRef int_op(struct irb *g, const struct vgpu_insn *in)
{
	u8 t = in->type;
	unsigned int bits = vgpu_type_bits(t);
	bool sgn = vgpu_type_signed(t);
	LLVMValueRef a = getreg(g, in->a), b = opb(g, in), r = NULL;
	LLVMValueRef sa = vsext(g, a, t), sb = vsext(g, b, t);
	LLVMValueRef ua = vtrunc(g, a, t), ub = vtrunc(g, b, t);
	LLVMValueRef zero = splat64(g, 0), ones = splat64(g, ~0ULL);
	LLVMBuilderRef B = g->b;

	switch (in->op) {
	case VGPU_OP_ADD:
		r = LLVMBuildAdd(B, ua, ub, "");
		break;
	case VGPU_OP_SUB:
		r = LLVMBuildSub(B, ua, ub, "");
		break;
	case VGPU_OP_MUL:
	case VGPU_OP_MAD:
		if (in->mod == VGPU_MUL_WIDE) {
			r = sgn ? LLVMBuildMul(B, sa, sb, "") : LLVMBuildMul(B, ua, ub, "");
			if (in->op == VGPU_OP_MAD)
				r = LLVMBuildAdd(B, r, opc(g, in), "");
			return r;
		}
		if (in->mod == VGPU_MUL_HI) {
			r = sgn ? LLVMBuildAShr(B, LLVMBuildMul(B, sa, sb, ""), splat64(g, bits), "") :
				LLVMBuildLShr(B, LLVMBuildMul(B, ua, ub, ""), splat64(g, bits), "");
		} else {
			r = LLVMBuildMul(B, ua, ub, "");
		}
		if (in->op == VGPU_OP_MAD)
			r = LLVMBuildAdd(B, r, opc(g, in), "");
		break;
	case VGPU_OP_DIV:
	case VGPU_OP_REM: {
		LLVMValueRef z = LLVMBuildICmp(B, LLVMIntEQ, ub, zero, "");
		LLVMValueRef m1 = sgn ? LLVMBuildICmp(B, LLVMIntEQ, sb, ones, "") :
			LLVMConstNull(g->vm);
		LLVMValueRef bad = LLVMBuildOr(B, z, m1, "");
		LLVMValueRef d = LLVMBuildSelect(B, bad, splat64(g, 1), sgn ? sb : ub, "");
		bool div = in->op == VGPU_OP_DIV;

		if (div)
			r = sgn ? LLVMBuildSDiv(B, sa, d, "") : LLVMBuildUDiv(B, ua, d, "");
		else
			r = sgn ? LLVMBuildSRem(B, sa, d, "") : LLVMBuildURem(B, ua, d, "");
		r = LLVMBuildSelect(B, m1, div ? LLVMBuildSub(B, zero, sa, "") : zero, r, "");
		r = LLVMBuildSelect(B, z, div ? ones : ua, r, "");
		break;
	}
	case VGPU_OP_MIN:
	case VGPU_OP_MAX: {
		LLVMIntPredicate p = in->op == VGPU_OP_MIN ?
			(sgn ? LLVMIntSLT : LLVMIntULT) : (sgn ? LLVMIntSGT : LLVMIntUGT);
		LLVMValueRef x = sgn ? sa : ua, y = sgn ? sb : ub;

		r = LLVMBuildSelect(B, LLVMBuildICmp(B, p, x, y, ""), x, y, "");
		break;
	}
	case VGPU_OP_ABS:
		r = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, sa, zero, ""),
				    LLVMBuildSub(B, zero, sa, ""), sa, "");
		break;
	case VGPU_OP_NEG:
		r = LLVMBuildSub(B, zero, sa, "");
		break;
	case VGPU_OP_AND:
		r = LLVMBuildAnd(B, a, b, "");
		break;
	case VGPU_OP_OR:
		r = LLVMBuildOr(B, a, b, "");
		break;
	case VGPU_OP_XOR:
		r = LLVMBuildXor(B, a, b, "");
		break;
	case VGPU_OP_NOT:
		r = LLVMBuildNot(B, a, "");
		break;
	case VGPU_OP_SHL:
	case VGPU_OP_SHR: {
		LLVMValueRef sh = LLVMBuildAnd(B, b, splat64(g, 0xffffffff), "");
		LLVMValueRef big = LLVMBuildICmp(B, LLVMIntUGE, sh, splat64(g, bits), "");
		LLVMValueRef s6 = LLVMBuildAnd(B, sh, splat64(g, 63), "");
		LLVMValueRef over = zero;

		if (in->op == VGPU_OP_SHL) {
			r = LLVMBuildShl(B, ua, s6, "");
		} else if (sgn) {
			r = LLVMBuildAShr(B, sa, s6, "");
			over = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntSLT, sa, zero, ""),
					       ones, zero, "");
		} else {
			r = LLVMBuildLShr(B, ua, s6, "");
		}
		r = LLVMBuildSelect(B, big, over, r, "");
		break;
	}
	}
	return vtrunc(g, r, t);
}

static LLVMValueRef as_f32(struct irb *g, LLVMValueRef v)
{
	return LLVMBuildBitCast(g->b, LLVMBuildTrunc(g->b, v, g->v32, ""), g->vf, "");
}

/* A f32 result as the register holds it: NaN canonical, zero-extended. */
static LLVMValueRef f32_out(struct irb *g, LLVMValueRef r)
{
	LLVMValueRef bits = LLVMBuildBitCast(g->b, r, g->v32, "");
	/* (a compare of the value with itself: one instruction a vector) */
	LLVMValueRef nan = LLVMBuildFCmp(g->b, LLVMRealUNO, r, r, "");

	bits = LLVMBuildSelect(g->b, nan, splat32(g, 0x7fffffff), bits, "");
	return LLVMBuildZExt(g->b, bits, g->v64, "");
}

static LLVMValueRef f32_op(struct irb *g, const struct vgpu_insn *in)
{
	LLVMValueRef x = as_f32(g, getreg(g, in->a)), y = as_f32(g, opb(g, in)), r;

	switch (in->op) {
	case VGPU_OP_ADD:
		r = LLVMBuildFAdd(g->b, x, y, "");
		break;
	case VGPU_OP_SUB:
		r = LLVMBuildFSub(g->b, x, y, "");
		break;
	case VGPU_OP_MUL:
		r = LLVMBuildFMul(g->b, x, y, "");
		break;
	default: {
		LLVMValueRef args[3] = { x, y, as_f32(g, opc(g, in)) };

		r = intrinsic(g, "llvm.fma", &g->vf, 1, args, 3);
		break;
	}
	}
	return f32_out(g, r);
}

static LLVMValueRef int_setp(struct irb *g, const struct vgpu_insn *in)
{
	unsigned int sh = 64 - vgpu_type_bits(in->type);
	u64 flip = vgpu_type_signed(in->type) ? 1ULL << 63 : 0;
	LLVMValueRef x = getreg(g, in->a), y = opb(g, in), lt, eq, r;

	x = LLVMBuildXor(g->b, LLVMBuildShl(g->b, x, splat64(g, sh), ""), splat64(g, flip), "");
	y = LLVMBuildXor(g->b, LLVMBuildShl(g->b, y, splat64(g, sh), ""), splat64(g, flip), "");
	lt = mask_of(g, LLVMBuildICmp(g->b, LLVMIntULT, x, y, ""));
	eq = mask_of(g, LLVMBuildICmp(g->b, LLVMIntEQ, x, y, ""));
	switch (in->mod) {
	case VGPU_CMP_EQ:
		r = eq;
		break;
	case VGPU_CMP_NE:
		r = LLVMBuildNot(g->b, eq, "");
		break;
	case VGPU_CMP_LT:
		r = lt;
		break;
	case VGPU_CMP_LE:
		r = LLVMBuildOr(g->b, lt, eq, "");
		break;
	case VGPU_CMP_GT:
		r = LLVMBuildNot(g->b, LLVMBuildOr(g->b, lt, eq, ""), "");
		break;
	default:
		r = LLVMBuildNot(g->b, lt, "");
		break;
	}
	return r;
}

/* An instruction through a runtime helper on the register file (fp.c's, bits). */
static void fp_helper(struct irb *g, u32 pc, const struct vgpu_insn *in,
		      LLVMValueRef em, void *fnp, bool pred_result)
{
	LLVMValueRef args[2] = { g->w, em }, r;

	sync_out(g, pc);
	r = call(g, fnp, pred_result ? g->i32 : LLVMVoidTypeInContext(g->c), args, 2);
	if (pred_result)
		setpred(g, in->dst, r, em);
}

/* --- special registers ----------------------------------------------------- */

/* @sr's lanes without a call, or NULL (the clocks: nrt_sreg()). */
static LLVMValueRef sreg(struct irb *g, u8 sr)
{
	LLVMValueRef e[VGPU_WARP], v;
	int l;

	switch (sr) {
	case VGPU_SR_TID_X:
	case VGPU_SR_TID_Y:
	case VGPU_SR_TID_Z:
		v = wload(g, g->ptr, offsetof(struct nrt_warp, tid));
		v = LLVMBuildLoad2(g->b, g->v64, at(g, v, k64(g, (u64)(sr - VGPU_SR_TID_X) *
				   VGPU_WARP * 8)), "");
		LLVMSetAlignment(v, 8);
		return v;
	case VGPU_SR_WARPID:
		v = LLVMBuildZExt(g->b, wload(g, g->i32, offsetof(struct nrt_warp, index)),
				  g->i64, "");
		return vsplat(g, v, g->v64);
	case VGPU_SR_LANEID:
	case VGPU_SR_LANEMASK_EQ:
	case VGPU_SR_LANEMASK_LT:
	case VGPU_SR_LANEMASK_LE:
	case VGPU_SR_LANEMASK_GT:
	case VGPU_SR_LANEMASK_GE:
		for (l = 0; l < VGPU_WARP; l++) {
			u64 x = sr == VGPU_SR_LANEID ? (u64)l :
				sr == VGPU_SR_LANEMASK_EQ ? 1ULL << l :
				sr == VGPU_SR_LANEMASK_LT ? (1ULL << l) - 1 :
				sr == VGPU_SR_LANEMASK_LE ? (2ULL << l) - 1 :
				sr == VGPU_SR_LANEMASK_GT ? (u32)~((2ULL << l) - 1) :
				(u32)~((1ULL << l) - 1);

			e[l] = k64(g, x);
		}
		return LLVMConstVector(e, VGPU_WARP);
	case VGPU_SR_CLOCK:
	case VGPU_SR_CLOCK64:
	case VGPU_SR_GLOBALTIMER:
		return NULL;
	default:
		if (sr >= VGPU_SR_COUNT)
			return NULL;
		v = bload(g, g->i64, offsetof(struct nrt_block, sr_uni) + sr * 8);
		return vsplat(g, v, g->v64);
	}
}

/* --- one instruction ------------------------------------------------------ */

/* A branch's edge to @t: a turn whose count has run ends there. */
static LLVMBasicBlockRef turn_edge(struct irb *g, u32 t)
{
	LLVMBasicBlockRef e = newblock(g, "edge"), here = LLVMGetInsertBlock(g->b);
	LLVMValueRef pcv = k32(g, t), left;

	LLVMPositionBuilderAtEnd(g->b, e);
	left = LLVMBuildLoad2(g->b, g->i32, g->left, "");
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLE, left, k32(g, 0), ""),
			g->turn_gate, g->chk[t]);
	LLVMAddIncoming(g->turn_pc, &pcv, &e, 1);
	LLVMPositionBuilderAtEnd(g->b, here);
	return e;
}

static void emit_branch(struct irb *g, u32 pc, const struct vgpu_insn *in,
			LLVMValueRef em)
{
	u32 t = (u32)in->imm;
	LLVMValueRef mask = LLVMBuildLoad2(g->b, g->i32, g->mask, "");
	LLVMBasicBlockRef taken = newblock(g, "taken");

	if (in->guard != VGPU_PRED_NONE) {
		LLVMBasicBlockRef part = newblock(g, "part"), some = newblock(g, "some");
		LLVMValueRef args[3] = { g->w, em, k32(g, t) };

		LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, em, mask, ""),
				taken, some);
		LLVMPositionBuilderAtEnd(g->b, some);
		LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, em, k32(g, 0), ""),
				turn_edge(g, pc + 1), part);
		LLVMPositionBuilderAtEnd(g->b, part);
		sync_out(g, pc);
		after_call(g, call(g, (void *)nrt_diverge, g->i32, args, 3), g->chk[pc + 1]);
	} else {
		LLVMBuildBr(g->b, taken);
	}
	LLVMPositionBuilderAtEnd(g->b, taken);
	if (t > pc) {
		LLVMBuildBr(g->b, turn_edge(g, t));
		return;
	}
	{
		/* A loop: the interpreter's fairness counts (vgpu_group_loop()). */
		LLVMValueRef loops = LLVMBuildAdd(g->b, LLVMBuildLoad2(g->b, g->i32, g->loops, ""),
						  k32(g, 1), "");
		LLVMValueRef others = wload(g, g->i32, offsetof(struct nrt_warp, ls.others));
		LLVMValueRef hold = wload(g, g->i32, offsetof(struct nrt_warp, ls.fair));
		LLVMValueRef fair = LLVMBuildAnd(g->b,
			LLVMBuildICmp(g->b, LLVMIntUGE, loops, k32(g, VGPU_FAIR_LOOPS), ""),
			LLVMBuildICmp(g->b, LLVMIntNE, others, k32(g, 0), ""), "");
		LLVMValueRef held = LLVMBuildICmp(g->b, LLVMIntNE, hold, k32(g, 0), "");

		LLVMBuildStore(g->b, loops, g->loops);
		wstore(g, LLVMBuildSelect(g->b, held, LLVMBuildSub(g->b, hold, k32(g, 1), ""),
					  hold, ""), offsetof(struct nrt_warp, ls.fair));
		LLVMBuildStore(g->b, LLVMBuildSelect(g->b, fair, k32(g, 0),
				LLVMBuildLoad2(g->b, g->i32, g->thresh, ""), ""), g->thresh);
		LLVMBuildBr(g->b, turn_edge(g, t));
	}
}

/* The predicates to the warp state (@out) or back, around a helper that uses them. */
static void preds_through(struct irb *g, bool out)
{
	LLVMValueRef preds = wload(g, g->ptr, offsetof(struct nrt_warp, preds));
	u32 p;

	for (p = 0; p < g->k->func.npreds; p++) {
		LLVMValueRef slot = at(g, preds, k64(g, (u64)p * 4));

		if (out)
			LLVMBuildStore(g->b, getpred(g, p), slot);
		else
			LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->i32, slot, ""),
				       g->preds[p]);
	}
}

/*
 * A call of runtime helper @fn(w, em) (@em NULL: fn(w)) for the
 * instruction at @pc, which may change the group; on at @next. With
 * @preds, the predicates go through the warp state.
 */
static void runtime_call(struct irb *g, u32 pc, void *fn, LLVMValueRef em,
			 bool preds, LLVMBasicBlockRef next)
{
	LLVMValueRef args[2] = { g->w, em };
	LLVMBasicBlockRef go = preds ? newblock(g, "go") : next;

	if (em)
		unless_none(g, em, next);
	if (preds)
		preds_through(g, true);
	sync_out(g, pc);
	after_call(g, call(g, fn, g->i32, args, em ? 2 : 1), go);
	if (!preds)
		return;
	LLVMPositionBuilderAtEnd(g->b, go);
	preds_through(g, false);
	LLVMBuildBr(g->b, next);
}

void nrt_ir_emit_insn(struct irb *g, u32 pc)
{
	const struct vgpu_insn *in = &g->k->insns[pc];
	LLVMBasicBlockRef next = g->chk[pc + 1];
	LLVMValueRef em = guard_mask(g, in), args[4], v;

	switch (in->op) {
	case VGPU_OP_NOP:
		break;
	case VGPU_OP_MEMBAR:
		LLVMBuildFence(g->b, LLVMAtomicOrderingSequentiallyConsistent, false, "");
		break;
	case VGPU_OP_MOV:
		if (in->type == VGPU_T_PRED)
			setpred(g, in->dst, getpred(g, in->b), em);
		else
			setreg(g, in->dst, vtrunc(g, opb(g, in), in->type), em);
		break;
	case VGPU_OP_SREG:
		v = sreg(g, in->mod);
		if (!v) {
			args[0] = g->w;
			args[1] = k32(g, in->mod);
			call(g, (void *)nrt_sreg, LLVMVoidTypeInContext(g->c), args, 2);
			v = wload(g, g->v64, offsetof(struct nrt_warp, sreg));
		}
		setreg(g, in->dst, vtrunc(g, v, in->type), em);
		break;
	case VGPU_OP_ACTIVEMASK:
		v = LLVMBuildZExt(g->b, LLVMBuildLoad2(g->b, g->i32, g->mask, ""), g->i64, "");
		setreg(g, in->dst, vsplat(g, v, g->v64), em);
		break;
	case VGPU_OP_AND ... VGPU_OP_NOT:	/* also on predicates */
		if (in->type == VGPU_T_PRED) {
			LLVMValueRef x = getpred(g, in->a), y = getpred(g, in->b);

			v = in->op == VGPU_OP_AND ? LLVMBuildAnd(g->b, x, y, "") :
			    in->op == VGPU_OP_OR ? LLVMBuildOr(g->b, x, y, "") :
			    in->op == VGPU_OP_XOR ? LLVMBuildXor(g->b, x, y, "") :
			    LLVMBuildNot(g->b, x, "");
			setpred(g, in->dst, v, em);
			break;
		}
		fallthrough;
	case VGPU_OP_ADD ... VGPU_OP_NEG:	/* arithmetic on any type */
	case VGPU_OP_SHL ... VGPU_OP_SHR:
		if (f32_plain(in))
			setreg(g, in->dst, f32_op(g, in), em);
		else if (vgpu_is_float(in->type))
			fp_helper(g, pc, in, em, (void *)nrt_fp_alu, false);
		else if (int_helper(in))
			fp_helper(g, pc, in, em, (void *)nrt_int_op, false);
		else
			setreg(g, in->dst, int_op(g, in), em);
		break;
	case VGPU_OP_SETP:
		if (vgpu_is_float(in->type))
			fp_helper(g, pc, in, em, (void *)nrt_fp_setp, true);
		else
			setpred(g, in->dst, int_setp(g, in), em);
		break;
	case VGPU_OP_SELP:
		v = LLVMBuildSelect(g->b, lanes(g, getpred(g, in->c)), getreg(g, in->a),
				    opb(g, in), "");
		setreg(g, in->dst, vtrunc(g, v, in->type), em);
		break;
	case VGPU_OP_CVT:
		fp_helper(g, pc, in, em, (void *)nrt_fp_cvt, false);
		break;
	case VGPU_OP_POPC ... VGPU_OP_PRMT:	/* bit fields */
		fp_helper(g, pc, in, em, (void *)nrt_bits_op, false);
		break;
	case VGPU_OP_SHFL:
	case VGPU_OP_VOTE:
	case VGPU_OP_MATCH:
	case VGPU_OP_WARPSYNC:
		/* The helper reads and writes predicates in the warp state. */
		runtime_call(g, pc, (void *)nrt_warp_sync, NULL, true, next);
		return;
	case VGPU_OP_ATOM:
		runtime_call(g, pc, (void *)nrt_atom, em, false, next);
		return;
	case VGPU_OP_SQRT ... VGPU_OP_COPYSIGN:	/* fp functions */
		fp_helper(g, pc, in, em, (void *)nrt_fp_func, false);
		break;
	case VGPU_OP_LD:
	case VGPU_OP_ST:
		nrt_ir_emit_mem(g, pc, in, em);
		return;
	case VGPU_OP_BRA:
		emit_branch(g, pc, in, em);
		return;
	case VGPU_OP_EXIT:
		runtime_call(g, pc, (void *)nrt_exit, em, false, next);
		return;
	case VGPU_OP_BAR:
	case VGPU_OP_BAR_RED:
		/*
		 * The barrier may complete here and hand BAR_RED results to
		 * this warp's lanes: predicates go through the warp state
		 * (only BAR_RED reads or writes them: without one in the
		 * program, they stay where they are).
		 */
		runtime_call(g, pc, (void *)nrt_bar, em, g->bar_red, next);
		return;
	case VGPU_OP_TRAP:
		unless_none(g, em, next);
		sync_out(g, pc);
		args[0] = g->w;
		args[1] = em;
		args[2] = k32(g, VGPU_FAULT_TRAP);
		args[3] = k64(g, 0);
		call(g, (void *)nrt_fail, g->i32, args, 4);
		ret_with(g, VGPU_RUN_FAULT);
		return;
	}
	LLVMBuildBr(g->b, next);
}

/* --- the function ----------------------------------------------------------- */

void nrt_ir_build(const struct vgpu_native_kernel *k, LLVMContextRef c,
		  LLVMModuleRef m, const char *name)
{
	struct irb gs = { .c = c, .m = m, .k = k, .n = k->ninsns }, *g = &gs;
	u32 nregs = k->func.nregs, npreds = k->func.npreds, i;
	LLVMBasicBlockRef entry, bad, yield;
	LLVMValueRef regs, pc, ypc;
	LLVMTypeRef ft;
	u8 *reach = nrt_reach(k), *target, *start;

	g->reach = reach;
	for (i = 0; i < g->n; i++)
		g->bar_red |= reach[i] && k->insns[i].op == VGPU_OP_BAR_RED;
	g->narrow = calloc(nregs ? nregs : 1, 1);
	nrt_narrow_regs(k, reach, g->narrow);
	if (getenv("VGPU_NATIVE_WIDE"))
		memset(g->narrow, 0, nregs);
	g->words = (nregs + 63) / 64;
	g->live = nrt_live_regs(k, reach, g->words ? g->words : 1);
	g->cache = calloc(nregs + 1, sizeof(*g->cache));
	target = calloc(g->n + 1, 1);
	start = calloc(g->n + 1, 1);
	for (i = 0; i < g->n; i++)
		if (reach[i] && k->insns[i].op == VGPU_OP_BRA && k->insns[i].imm <= g->n)
			target[k->insns[i].imm] = 1;
	/* Where straight runs start: the only places lanes wait (group.h). */
	for (i = 0; i < g->n; i++)
		start[i] = reach[i] && (i == k->func.entry || target[i] || !i || !reach[i - 1] ||
					!nrt_insn_inline(&k->insns[i - 1]) ||
					!nrt_insn_inline(&k->insns[i]));
	g->b = LLVMCreateBuilderInContext(c);
	irb_types(g);
	ft = LLVMFunctionType(g->i32, &g->ptr, 1, false);
	g->fn = LLVMAddFunction(m, name, ft);
	g->w = LLVMGetParam(g->fn, 0);
	g->regs = calloc(nregs, sizeof(*g->regs));
	g->preds = calloc(npreds + 1, sizeof(*g->preds));
	g->chk = calloc(g->n + 1, sizeof(*g->chk));
	g->body = calloc(g->n + 1, sizeof(*g->body));

	entry = newblock(g, "entry");
	g->dispatch = newblock(g, "dispatch");
	g->ret = newblock(g, "ret");
	bad = newblock(g, "bad");
	for (i = 0; i < g->n; i++) {
		if (!reach[i])
			continue;
		g->body[i] = newblock(g, "body");
		g->chk[i] = start[i] ? newblock(g, "chk") : g->body[i];
	}
	/*
	 * After an EXIT at the end of the program, or before code this
	 * kernel never reaches (the next kernel's): the group is gone, the
	 * check picks anew with the warp at that pc, as the interpreter's.
	 */
	g->chk[g->n] = newblock(g, "end");
	g->body[g->n] = bad;
	for (i = 0; i < g->n; i++)
		if (!g->chk[i])
			g->chk[i] = i && reach[i - 1] ? newblock(g, "gap") : bad;

	LLVMPositionBuilderAtEnd(g->b, entry);
	for (i = 0; i < npreds; i++)
		g->preds[i] = LLVMBuildAlloca(g->b, g->i32, "p");
	g->mask = LLVMBuildAlloca(g->b, g->i32, "mask");
	g->thresh = LLVMBuildAlloca(g->b, g->i32, "thresh");
	g->loops = LLVMBuildAlloca(g->b, g->i32, "loops");
	g->left = LLVMBuildAlloca(g->b, g->i32, "left");
	LLVMBuildStore(g->b, wload(g, g->i32, offsetof(struct nrt_warp, slice_left)), g->left);
	regs = wload(g, g->ptr, offsetof(struct nrt_warp, regs));
	for (i = 0; i < nregs; i++)
		g->regs[i] = at(g, regs, k64(g, (u64)i * VGPU_WARP * 8));
	preds_through(g, false);
	LLVMBuildBr(g->b, g->dispatch);

	/* The return: the registers back to the warp state. */
	LLVMPositionBuilderAtEnd(g->b, g->ret);
	g->ret_phi = LLVMBuildPhi(g->b, g->i32, "code");
	wstore(g, LLVMBuildLoad2(g->b, g->i32, g->left, ""), offsetof(struct nrt_warp, slice_left));
	preds_through(g, true);
	LLVMBuildRet(g->b, g->ret_phi);

	/* Falling off the end, or a pc with no code: refused by the verifier. */
	LLVMPositionBuilderAtEnd(g->b, bad);
	ret_with(g, VGPU_RUN_FAULT);

	/*
	 * The warp's turn ends where the interpreter's would: once the
	 * slice's count has run, on a branch's edge or where the group
	 * changed. The count may overrun to the end of a run: it is signed.
	 */
	yield = newblock(g, "yield");
	LLVMPositionBuilderAtEnd(g->b, yield);
	ypc = LLVMBuildPhi(g->b, g->i32, "pc");
	sync_out_at(g, ypc);
	ret_with(g, VGPU_RUN_MORE);

	/*
	 * The dispatcher: a new group (or a resumed one) at w->ls.cur_pc,
	 * which starts there unless the turn has run out; resume: the same
	 * group on, within its turn.
	 */
	LLVMPositionBuilderAtEnd(g->b, g->dispatch);
	sync_in(g);
	pc = wload(g, g->i32, offsetof(struct nrt_warp, ls.cur_pc));
	{
		LLVMBasicBlockRef pick = newblock(g, "pick");
		LLVMBasicBlockRef from[2] = { LLVMGetInsertBlock(g->b), NULL };
		LLVMValueRef pcs[2] = { pc, NULL };

		LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntSLE,
				LLVMBuildLoad2(g->b, g->i32, g->left, ""), k32(g, 0), ""),
				yield, pick);
		LLVMAddIncoming(ypc, &pc, &from[0], 1);
		g->resume = newblock(g, "resume");
		LLVMPositionBuilderAtEnd(g->b, g->resume);
		sync_in(g);
		pcs[1] = wload(g, g->i32, offsetof(struct nrt_warp, ls.cur_pc));
		from[1] = LLVMGetInsertBlock(g->b);
		LLVMBuildBr(g->b, pick);
		LLVMPositionBuilderAtEnd(g->b, pick);
		pc = LLVMBuildPhi(g->b, g->i32, "pc");
		LLVMAddIncoming(pc, pcs, from, 2);
	}
	/* Its cases: the runs' starts, as the instructions are built. */
	g->sw = LLVMBuildSwitch(g->b, pc, bad, g->n);

	for (i = 0; i <= g->n; i++) {
		if (i < g->n && (reach[i] || g->chk[i] == bad))
			continue;
		LLVMPositionBuilderAtEnd(g->b, g->chk[i]);
		sync_out(g, i);
		after_call(g, call(g, (void *)nrt_check, g->i32, &g->w, 1), bad);
	}

	/*
	 * Where a run starts, one test: the group must ask nrt_check()
	 * (pc >= thresh). It goes on at the same pc unless the group
	 * changed, when the dispatcher takes over. On a branch's edge whose
	 * turn has run ("turn", turn_edge()) the check comes first too, as
	 * the scheduler's order is: the group state to the warp, nrt_check(),
	 * and the turn's end (the dispatcher's).
	 */
	{
		LLVMBasicBlockRef gate = newblock(g, "gate"), slow = newblock(g, "check");
		LLVMBasicBlockRef turn = newblock(g, "turn"), tslow = newblock(g, "tcheck");
		LLVMBasicBlockRef stop = newblock(g, "stop");
		LLVMValueRef gpc, tpc, r, on;

		LLVMPositionBuilderAtEnd(g->b, turn);
		tpc = LLVMBuildPhi(g->b, g->i32, "pc");
		LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntUGE, tpc,
				LLVMBuildLoad2(g->b, g->i32, g->thresh, ""), ""), tslow, yield);
		LLVMAddIncoming(ypc, &tpc, &turn, 1);
		g->turn_gate = turn;
		g->turn_pc = tpc;

		LLVMPositionBuilderAtEnd(g->b, tslow);
		sync_out_at(g, tpc);
		r = call(g, (void *)nrt_check, g->i32, &g->w, 1);
		LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, r, k32(g, NRT_STOP), ""),
				stop, g->dispatch);

		LLVMPositionBuilderAtEnd(g->b, gate);
		gpc = LLVMBuildPhi(g->b, g->i32, "pc");
		LLVMBuildBr(g->b, slow);
		LLVMPositionBuilderAtEnd(g->b, slow);
		sync_out_at(g, gpc);
		r = call(g, (void *)nrt_check, g->i32, &g->w, 1);
		on = LLVMBuildSwitch(g->b, r, g->dispatch, 2);
		LLVMAddCase(on, k32(g, NRT_STOP), stop);
		LLVMAddCase(on, k32(g, NRT_GO_ON), g->resume);

		LLVMPositionBuilderAtEnd(g->b, stop);
		ret_with(g, 0);

		for (i = 0; i < g->n; i++) {
			LLVMValueRef pcv = k32(g, i), t;

			if (!reach[i])
				continue;
			if (start[i]) {
				/*
				 * Every value is in the register file here (none
				 * is kept into a run's start): the check leaves
				 * and the dispatcher enters without a phi.
				 */
				LLVMPositionBuilderAtEnd(g->b, g->chk[i]);
				t = LLVMBuildLoad2(g->b, g->i32, g->thresh, "");
				LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntUGE, pcv, t, ""),
						gate, g->body[i]);
				LLVMAddIncoming(gpc, &pcv, &g->chk[i], 1);
				LLVMAddCase(g->sw, pcv, g->body[i]);
			}

			LLVMPositionBuilderAtEnd(g->b, g->body[i]);
			LLVMBuildStore(g->b, LLVMBuildSub(g->b, LLVMBuildLoad2(g->b, g->i32,
					g->left, ""), k32(g, 1), ""), g->left);
			/*
			 * Values stay out of the register file only through an
			 * instruction run inline that falls through to one inside
			 * the run, which no other path reaches (a run starts at a
			 * branch target; past the end and unreachable code leave):
			 * there they are kept to the run's end.
			 */
			g->cache_on = g->live && nrt_insn_inline(&k->insns[i]) &&
				      i + 1 < g->n && reach[i + 1] && !start[i + 1];
			if (!g->cache_on)
				nrt_ir_flush(g, i, true);
			nrt_ir_emit_insn(g, i);
			g->cache_on = false;
		}
	}
	LLVMDisposeBuilder(g->b);
	free(g->regs);
	free(g->narrow);
	free(g->preds);
	free(g->chk);
	free(g->body);
	free(g->cache);
	free((void *)g->live);
	free(target);
	free(start);
	free(reach);
}
