/* SPDX-License-Identifier: MIT */
/*
 * The IR builder's own: its state while building a kernel's function,
 * the small builders its files share (constants, lane vectors, the warp
 * state's fields, registers and predicates, calls into the runtime) and
 * the group-state exchange around those calls.
 */
#ifndef VGPU_NATIVE_IRB_H
#define VGPU_NATIVE_IRB_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "native_ir.h"
#include "intops.h"

/*
 * A register whose lane i holds @base + i * @step (i64 scalars; @uni:
 * @step is 0 by construction), or none (@base NULL): native_affine.c.
 */
struct nrt_aff {
	LLVMValueRef base, step;
	bool uni;
};

struct irb {
	LLVMContextRef c;
	LLVMModuleRef m;
	LLVMBuilderRef b;
	LLVMValueRef fn;
	LLVMValueRef w;
	LLVMValueRef blk;	/* the block, where known without the warp */
	LLVMTypeRef i1, i8, i32, i64, f32, ptr, v64, v32, vf, vm, vptr;
	bool kmasks;		/* the host has mask registers (AVX-512) */
	LLVMValueRef *regs;
	LLVMValueRef *preds;
	LLVMValueRef mask, thresh, loops, left;
	LLVMBasicBlockRef *chk, *body;
	LLVMBasicBlockRef dispatch, ret;
	/*
	 * @resume: on at the group's pc, the turn not looked at; @turn_gate
	 * (its pc the phi @turn_pc): a branch's edge whose turn has run.
	 */
	LLVMBasicBlockRef resume, turn_gate;
	LLVMValueRef turn_pc;
	LLVMValueRef ret_phi;
	const struct vgpu_native_kernel *k;
	const u8 *reach;
	u8 *narrow;		/* registers kept as 32-bit lanes */
	bool bar_red;		/* the program has a reachable BAR_RED */
	/*
	 * Values of registers written by inline instructions and not yet
	 * stored (64-bit lanes; NULL: the register file has it), kept
	 * while @cache_on; @live: the live registers per instruction
	 * (@words each, native_live.c).
	 */
	LLVMValueRef *cache;
	bool cache_on;
	const u64 *live;
	u32 words;
	LLVMValueRef sw;	/* the dispatcher's switch */
	u32 n;
	/*
	 * The block function's (native_block.c): instructions without a
	 * guard write every lane, the idle ones too (whose values nothing
	 * reads), and guarded ones the guard's lanes. @lazy: registers
	 * whose value is affine and not yet made into lanes (@cache NULL):
	 * made where an instruction reads them, so that lanes an access's
	 * one vector move does not need are made only on the other paths.
	 */
	bool all_lanes;
	struct nrt_aff *lazy;
};

/* --- types ------------------------------------------------------------------ */

/* F32 ADD, SUB, MUL, FMA to nearest without ftz or saturation: inline. */
static inline bool f32_plain(const struct vgpu_insn *in)
{
	return in->type == VGPU_T_F32 && in->mod == VGPU_RND_RN &&
	       !(in->flags & (VGPU_IF_FTZ | VGPU_IF_SAT)) &&
	       (in->op == VGPU_OP_ADD || in->op == VGPU_OP_SUB ||
		in->op == VGPU_OP_MUL || in->op == VGPU_OP_FMA);
}

/*
 * Integer work for nrt_int_op(): a carry in or out, s32 saturation, the
 * high half of a 64-bit product.
 */
static inline bool int_helper(const struct vgpu_insn *in)
{
	return in->flags & (VGPU_IF_CC_IN | VGPU_IF_CC_OUT) ||
	       ((in->flags & VGPU_IF_SAT) &&
		(in->op == VGPU_OP_ADD || in->op == VGPU_OP_SUB)) ||
	       ((in->op == VGPU_OP_MUL || in->op == VGPU_OP_MAD) &&
		in->mod == VGPU_MUL_HI && vgpu_type_bits(in->type) == 64);
}


/* --- small builders ------------------------------------------------------ */

/* native_affine.c: @a's lanes, as a slot holds them (<32 x i32> when @narrow). */
LLVMValueRef nrt_aff_lanes(struct irb *g, const struct nrt_aff *a, bool narrow);

/* The types the builders use, in @g's context. */
static inline void irb_types(struct irb *g)
{
	LLVMContextRef c = g->c;

	g->i1 = LLVMInt1TypeInContext(c);
	g->i8 = LLVMInt8TypeInContext(c);
	g->i32 = LLVMInt32TypeInContext(c);
	g->i64 = LLVMInt64TypeInContext(c);
	g->f32 = LLVMFloatTypeInContext(c);
	g->ptr = LLVMPointerTypeInContext(c, 0);
	g->v64 = LLVMVectorType(g->i64, VGPU_WARP);
	g->v32 = LLVMVectorType(g->i32, VGPU_WARP);
	g->vf = LLVMVectorType(g->f32, VGPU_WARP);
	g->vm = LLVMVectorType(g->i1, VGPU_WARP);
	g->vptr = LLVMVectorType(g->ptr, VGPU_WARP);
	g->kmasks = nrt_kmasks;
}

static inline LLVMValueRef k32(struct irb *g, u64 v)
{
	return LLVMConstInt(g->i32, v, false);
}

static inline LLVMValueRef k64(struct irb *g, u64 v)
{
	return LLVMConstInt(g->i64, v, false);
}

/* A constant vector with constant @k in every lane. */
static inline LLVMValueRef ksplat(LLVMValueRef k)
{
	LLVMValueRef e[VGPU_WARP];
	int i;

	for (i = 0; i < VGPU_WARP; i++)
		e[i] = k;
	return LLVMConstVector(e, VGPU_WARP);
}

static inline LLVMValueRef splat64(struct irb *g, u64 v)
{
	return ksplat(k64(g, v));
}

static inline LLVMValueRef splat32(struct irb *g, u64 v)
{
	return ksplat(k32(g, v));
}

/* A vector with scalar @s in every lane. */
static inline LLVMValueRef vsplat(struct irb *g, LLVMValueRef s, LLVMTypeRef vt)
{
	LLVMValueRef v = LLVMGetUndef(vt), zero = LLVMConstNull(LLVMVectorType(g->i32, VGPU_WARP));

	v = LLVMBuildInsertElement(g->b, v, s, k32(g, 0), "");
	return LLVMBuildShuffleVector(g->b, v, LLVMGetUndef(vt), zero, "");
}

/* A pointer to the warp state's field at @off. */
static inline LLVMValueRef wfield(struct irb *g, size_t off)
{
	LLVMValueRef idx = k64(g, off);

	return LLVMBuildGEP2(g->b, g->i8, g->w, &idx, 1, "");
}

static inline LLVMValueRef wload(struct irb *g, LLVMTypeRef t, size_t off)
{
	LLVMValueRef v = LLVMBuildLoad2(g->b, t, wfield(g, off), "");

	LLVMSetAlignment(v, 4);
	return v;
}

static inline void wstore(struct irb *g, LLVMValueRef v, size_t off)
{
	LLVMSetAlignment(LLVMBuildStore(g->b, v, wfield(g, off)), 4);
}

/* A pointer at byte @off of the pointer @base. */
static inline LLVMValueRef at(struct irb *g, LLVMValueRef base, LLVMValueRef off)
{
	return LLVMBuildGEP2(g->b, g->i8, base, &off, 1, "");
}

/* The block's field at @off (through w->blk, unless the builder has the block). */
static inline LLVMValueRef bload(struct irb *g, LLVMTypeRef t, size_t off)
{
	LLVMValueRef blk = g->blk ? g->blk : wload(g, g->ptr, offsetof(struct nrt_warp, blk));

	return LLVMBuildLoad2(g->b, t, at(g, blk, k64(g, off)), "");
}

/*
 * A call of runtime helper @fnp, through its name (native_helpers.c): the
 * JIT links it in, so the code holds no address of this process.
 */
static inline LLVMValueRef call(struct irb *g, void *fnp, LLVMTypeRef ret,
			 LLVMValueRef *args, unsigned int n)
{
	const char *name = nrt_helper_name(fnp);
	LLVMTypeRef at[4];
	LLVMTypeRef ft;
	LLVMValueRef f;
	unsigned int i;

	for (i = 0; i < n; i++)
		at[i] = LLVMTypeOf(args[i]);
	ft = LLVMFunctionType(ret, at, n, false);
	f = LLVMGetNamedFunction(g->m, name);
	if (!f)
		f = LLVMAddFunction(g->m, name, ft);
	return LLVMBuildCall2(g->b, ft, f, args, n, "");
}

static inline LLVMValueRef intrinsic(struct irb *g, const char *name,
			      LLVMTypeRef *tys, unsigned int ntys,
			      LLVMValueRef *args, unsigned int nargs)
{
	unsigned int id = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMValueRef f = LLVMGetIntrinsicDeclaration(g->m, id, tys, ntys);
	LLVMTypeRef ft = LLVMIntrinsicGetType(g->c, id, tys, ntys);

	return LLVMBuildCall2(g->b, ft, f, args, nargs, "");
}

/*
 * The lanes of mask @m32 as a vector of i1. With mask registers that is a
 * move; without, the code generator takes a bitcast bit by bit (a shift,
 * an and and an insert a lane: some hundred instructions), where a test
 * of each lane's bit in a broadcast of the mask is a few vector ones.
 */
static inline LLVMValueRef lanes(struct irb *g, LLVMValueRef m32)
{
	LLVMValueRef bits[VGPU_WARP], v;
	u32 i;

	if (g->kmasks || LLVMIsAConstant(m32))
		return LLVMBuildBitCast(g->b, m32, g->vm, "");
	for (i = 0; i < VGPU_WARP; i++)
		bits[i] = LLVMConstInt(g->i32, 1ULL << i, false);
	v = LLVMBuildInsertElement(g->b, LLVMGetUndef(g->v32), m32,
				   LLVMConstInt(g->i32, 0, false), "");
	v = LLVMBuildShuffleVector(g->b, v, LLVMGetUndef(g->v32), LLVMConstNull(g->v32), "");
	v = LLVMBuildAnd(g->b, v, LLVMConstVector(bits, VGPU_WARP), "");
	return LLVMBuildICmp(g->b, LLVMIntNE, v, LLVMConstNull(g->v32), "");
}

static inline LLVMValueRef mask_of(struct irb *g, LLVMValueRef vm)
{
	return LLVMBuildBitCast(g->b, vm, g->i32, "");
}

/*
 * Register @r as its slot holds it: <32 x i32> for a narrow register
 * (nrt_narrow_regs()), else <32 x i64>; the kept value, or a load.
 */
static inline LLVMValueRef slotval(struct irb *g, u32 r)
{
	LLVMValueRef v;

	if (g->cache[r])
		return g->cache[r];
	if (g->lazy && g->lazy[r].base)
		return nrt_aff_lanes(g, &g->lazy[r], g->narrow[r]);
	v = LLVMBuildLoad2(g->b, g->narrow[r] ? g->v32 : g->v64, g->regs[r], "");
	LLVMSetAlignment(v, g->narrow[r] ? 4 : 8);
	return v;
}

/* @v, as slotval() gives it, to register @r's slot. */
static inline void storereg(struct irb *g, u32 r, LLVMValueRef v)
{
	LLVMSetAlignment(LLVMBuildStore(g->b, v, g->regs[r]), g->narrow[r] ? 4 : 8);
}

static inline bool reg_live(struct irb *g, u32 pc, u32 r)
{
	return g->live[(u64)pc * g->words + r / 64] >> (r % 64) & 1;
}

/* Register @r as 64-bit lanes. */
static inline LLVMValueRef getreg(struct irb *g, u32 r)
{
	LLVMValueRef v = slotval(g, r);

	return g->narrow[r] ? LLVMBuildZExt(g->b, v, g->v64, "") : v;
}

/*
 * Lanes @em of register @r get @v (64-bit lanes): kept as a value while
 * the instruction runs inline (the register file gets it where it is
 * live and the code may leave: nrt_ir_flush()), else stored. A narrow
 * register's value has its upper halves zero (nrt_narrow_regs()).
 */
static inline void setreg(struct irb *g, u32 r, LLVMValueRef v, LLVMValueRef em)
{
	LLVMValueRef old = slotval(g, r);

	if (g->narrow[r])
		v = LLVMBuildTrunc(g->b, v, g->v32, "");
	v = LLVMBuildSelect(g->b, lanes(g, em), v, old, "");
	if (g->cache_on) {
		g->cache[r] = v;
		return;
	}
	storereg(g, r, v);
	g->cache[r] = NULL;
}

static inline LLVMValueRef getpred(struct irb *g, u32 p)
{
	return LLVMBuildLoad2(g->b, g->i32, g->preds[p], "");
}

static inline void setpred(struct irb *g, u32 p, LLVMValueRef v, LLVMValueRef em)
{
	LLVMValueRef old = getpred(g, p);

	old = LLVMBuildAnd(g->b, old, LLVMBuildNot(g->b, em, ""), "");
	v = LLVMBuildAnd(g->b, v, em, "");
	LLVMBuildStore(g->b, LLVMBuildOr(g->b, old, v, ""), g->preds[p]);
}

static inline LLVMValueRef opb(struct irb *g, const struct vgpu_insn *in)
{
	return in->flags & VGPU_IF_B_IMM ? splat64(g, in->imm) : getreg(g, in->b);
}

static inline LLVMValueRef opc(struct irb *g, const struct vgpu_insn *in)
{
	return in->flags & VGPU_IF_C_IMM ? splat64(g, in->imm) : getreg(g, in->c);
}

static inline LLVMValueRef vtrunc(struct irb *g, LLVMValueRef v, u8 t)
{
	unsigned int bits = vgpu_type_bits(t);

	return bits == 64 ? v : LLVMBuildAnd(g->b, v, splat64(g, (1ULL << bits) - 1), "");
}

static inline LLVMValueRef vsext(struct irb *g, LLVMValueRef v, u8 t)
{
	unsigned int bits = vgpu_type_bits(t);

	if (bits == 64)
		return v;
	v = LLVMBuildShl(g->b, v, splat64(g, 64 - bits), "");
	return LLVMBuildAShr(g->b, v, splat64(g, 64 - bits), "");
}

/* --- control ------------------------------------------------------------- */

/* The group's state to the warp, for a call into the runtime at @pc. */
static inline void sync_out_at(struct irb *g, LLVMValueRef pc)
{
	wstore(g, pc, offsetof(struct nrt_warp, ls.cur_pc));
	wstore(g, LLVMBuildLoad2(g->b, g->i32, g->mask, ""),
	       offsetof(struct nrt_warp, ls.cur_mask));
	wstore(g, LLVMBuildLoad2(g->b, g->i32, g->loops, ""),
	       offsetof(struct nrt_warp, ls.loops));
}

static inline void sync_out(struct irb *g, u32 pc)
{
	sync_out_at(g, k32(g, pc));
}

static inline void sync_in(struct irb *g)
{
	LLVMBuildStore(g->b, wload(g, g->i32, offsetof(struct nrt_warp, ls.cur_mask)), g->mask);
	LLVMBuildStore(g->b, wload(g, g->i32, offsetof(struct nrt_warp, ls.loops)), g->loops);
	LLVMBuildStore(g->b, wload(g, g->i32, offsetof(struct nrt_warp, thresh)), g->thresh);
}

static inline void ret_with(struct irb *g, int code)
{
	LLVMValueRef v = k32(g, code);
	LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);

	LLVMAddIncoming(g->ret_phi, &v, &here, 1);
	LLVMBuildBr(g->b, g->ret);
}

static inline LLVMBasicBlockRef newblock(struct irb *g, const char *name)
{
	return LLVMAppendBasicBlockInContext(g->c, g->fn, name);
}

/* No lane of @em runs: straight on to @next; else on where this leaves. */
static inline void unless_none(struct irb *g, LLVMValueRef em, LLVMBasicBlockRef next)
{
	LLVMBasicBlockRef some = newblock(g, "some");

	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, em, k32(g, 0), ""),
			next, some);
	LLVMPositionBuilderAtEnd(g->b, some);
}

/*
 * After a runtime call that answered @r (NRT_*): on at @go, to the
 * dispatcher, or return.
 */
static inline void after_call(struct irb *g, LLVMValueRef r, LLVMBasicBlockRef go)
{
	LLVMBasicBlockRef stop = newblock(g, "stop"), fault = newblock(g, "fault");
	LLVMBasicBlockRef in = newblock(g, "in");
	LLVMValueRef sw;

	sw = LLVMBuildSwitch(g->b, r, stop, 3);
	LLVMAddCase(sw, k32(g, NRT_GO_ON), in);
	LLVMAddCase(sw, k32(g, NRT_DISPATCH), g->dispatch);
	LLVMAddCase(sw, k32(g, NRT_FAULT), fault);
	LLVMPositionBuilderAtEnd(g->b, in);
	sync_in(g);
	LLVMBuildBr(g->b, go);
	LLVMPositionBuilderAtEnd(g->b, stop);
	ret_with(g, 0);
	LLVMPositionBuilderAtEnd(g->b, fault);
	ret_with(g, VGPU_RUN_FAULT);
}

/* The lanes of the group the guard lets run. */
static inline LLVMValueRef guard_mask(struct irb *g, const struct vgpu_insn *in)
{
	LLVMValueRef m = g->all_lanes ? k32(g, ~0U) : LLVMBuildLoad2(g->b, g->i32, g->mask, "");
	LLVMValueRef p;

	if (in->guard == VGPU_PRED_NONE)
		return m;
	p = getpred(g, in->guard);
	if (in->flags & VGPU_IF_GUARD_NOT)
		p = LLVMBuildNot(g->b, p, "");
	return LLVMBuildAnd(g->b, m, p, "");
}

/*
 * native_live.c: the values kept. nrt_ir_flush() stores those live at
 * @pc (and with @forget, keeps none).
 */
void nrt_ir_flush(struct irb *g, u32 pc, bool forget);

/*
 * native_ir_mem.c: LD and ST. nrt_ir_emit_mem_ssa():
 * the block function's, whose register values are all kept: the result
 * joins its paths in a phi, and a fault returns VGPU_RUN_FAULT.
 */
void nrt_ir_emit_mem(struct irb *g, u32 pc, const struct vgpu_insn *in,
		     LLVMValueRef em);
void nrt_ir_emit_mem_ssa(struct irb *g, u32 pc, const struct vgpu_insn *in,
			 LLVMValueRef em, LLVMBasicBlockRef next);

/*
 * native_affine.c: nrt_aff_run() builds, where the builder stands (a warp's start), the
 * affine values of the block function's run: @dst[pc], instruction pc's
 * result; @addr[pc], the address of its load or store. It returns the
 * condition (i1) under which they are exact. With @threads (i64), the
 * values are the whole block's (lane i: thread i of @threads), else the
 * warp's (lane i of 32).
 */
LLVMValueRef nrt_aff_run(struct irb *g, struct nrt_aff *dst, struct nrt_aff *addr,
			 LLVMValueRef threads);

/*
 * native_ir_mem.c: a load or store whose lanes' addresses are @base + i *
 * @step: one vector move when the step is the element's size and the 32
 * elements lie in the range the instruction last hit, else as
 * nrt_ir_emit_mem_ssa(); the builder ends at @next.
 */
void nrt_ir_emit_mem_line(struct irb *g, u32 pc, const struct vgpu_insn *in,
			  LLVMValueRef em, const struct nrt_aff *a, LLVMBasicBlockRef next);
/*
 * A block's accesses at @a (the block's affine address, nrt_aff_run()
 * with threads): whether all @threads elements lie in the range the
 * instruction last hit (i1; @off: that range's host offset, NULL when
 * the space has none). Where all do, nrt_ir_emit_mem_fits() moves a
 * warp's elements (@a: the warp's address) with no check; where the
 * space has no range (@off NULL), as nrt_ir_emit_mem_line().
 */
LLVMValueRef nrt_ir_block_fits(struct irb *g, u32 pc, const struct vgpu_insn *in,
			       const struct nrt_aff *a, LLVMValueRef threads, LLVMValueRef *off);
void nrt_ir_emit_mem_fits(struct irb *g, u32 pc, const struct vgpu_insn *in, LLVMValueRef em,
			  const struct nrt_aff *a, LLVMValueRef off, LLVMBasicBlockRef next);

/*
 * native_block.c, for both block functions: nrt_block_begin() sets up @g
 * (c, m and k set, the rest zero) to build the function @name of one
 * argument, the block (g->blk), false when out of memory;
 * nrt_block_slots() makes, where the builder stands, the predicates', the
 * group mask's and the loop count's slots; nrt_block_end() frees what
 * begin allocated.
 */
bool nrt_block_begin(struct irb *g, const u8 *reach, const char *name);
void nrt_block_slots(struct irb *g);
void nrt_block_end(struct irb *g);

/*
 * native_block.c, for the phased block function too: an instruction
 * through its helper on the register file; ATOM for lanes @em through
 * nrt_atom(); lanes @em leaving (to @done when none is left); each on at
 * @next (the helper's at g->chk[pc + 1]).
 */
void nrt_block_emit_on_helper(struct irb *g, u32 pc, const struct vgpu_insn *in);
void nrt_block_emit_atom(struct irb *g, u32 pc, const struct vgpu_insn *in, LLVMValueRef em,
			 LLVMBasicBlockRef next);
void nrt_block_emit_exit(struct irb *g, LLVMValueRef em, LLVMBasicBlockRef done,
			 LLVMBasicBlockRef next);

/*
 * native_ir.c: instruction @pc as the warp function builds it, on to
 * g->chk[pc + 1] (the block function uses it for what it builds alike).
 */
void nrt_ir_emit_insn(struct irb *g, u32 pc);

#endif /* VGPU_NATIVE_IRB_H */
