// SPDX-License-Identifier: MIT
/*
 * The IR builder: a kernel's ISA as one LLVM function that runs a warp.
 *
 * Each register is a <32 x i64> (one element a lane) in the warp's
 * register file, which instructions load and store (LLVM forwards and
 * keeps them in vector registers within a block: SSA across the whole
 * program made compiling slow); each predicate is an i32 lane mask in an
 * alloca, loaded on entry and stored back on every return. Every instruction has two blocks: "chk", where the group asks
 * the scheduler (native_sched.c) whether others lanes join or go first,
 * which is one compare while no other lane waits, and "body". The group's
 * mask, the scheduler's threshold and the loop count are allocas too,
 * exchanged with the warp state around each call into the runtime.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native_ir.h"

struct irb {
	LLVMContextRef c;
	LLVMModuleRef m;
	LLVMBuilderRef b;
	LLVMValueRef fn;
	LLVMValueRef w;
	LLVMTypeRef i1, i8, i32, i64, f32, ptr, v64, v32, vf, vm, vptr;
	LLVMValueRef *regs;
	LLVMValueRef *preds;
	LLVMValueRef mask, thresh, loops, left;
	LLVMBasicBlockRef *chk, *body;
	LLVMBasicBlockRef dispatch, ret;
	LLVMValueRef ret_phi;
	const struct vgpu_native_kernel *k;
	const u8 *reach;
	u8 *narrow;		/* registers kept as 32-bit lanes */
	u32 n;
};

static unsigned int tbits(u8 t);

/*
 * Integer work for nrt_int_op(): a carry in or out, s32 saturation, the
 * high half of a 64-bit product.
 */
static bool int_helper(const struct vgpu_insn *in)
{
	return in->flags & (VGPU_IF_CC_IN | VGPU_IF_CC_OUT) ||
	       ((in->flags & VGPU_IF_SAT) &&
		(in->op == VGPU_OP_ADD || in->op == VGPU_OP_SUB)) ||
	       ((in->op == VGPU_OP_MUL || in->op == VGPU_OP_MAD) &&
		in->mod == VGPU_MUL_HI && tbits(in->type) == 64);
}

/* --- reachability and what is supported --------------------------------- */

static u8 *nrt_reach(const struct vgpu_native_kernel *k)
{
	u32 *stack = malloc(sizeof(*stack) * (k->ninsns + 1)), top = 0;
	u8 *seen = calloc(k->ninsns + 1, 1);

	if (!stack || !seen) {
		free(stack);
		free(seen);
		return NULL;
	}
	stack[top++] = k->func.entry;
	seen[k->func.entry] = 1;
	while (top) {
		u32 i = stack[--top];
		const struct vgpu_insn *in = &k->insns[i];
		u32 next[2], nn = 0, j;
		bool uncond = in->guard == VGPU_PRED_NONE;

		if (in->op == VGPU_OP_BRA)
			next[nn++] = (u32)in->imm;
		if (!(uncond && (in->op == VGPU_OP_BRA || in->op == VGPU_OP_EXIT ||
				 in->op == VGPU_OP_TRAP)))
			next[nn++] = i + 1;
		for (j = 0; j < nn; j++) {
			if (next[j] < k->ninsns && !seen[next[j]]) {
				seen[next[j]] = 1;
				stack[top++] = next[j];
			}
		}
	}
	free(stack);
	return seen;
}

static bool nrt_is_float(u8 t)
{
	return t == VGPU_T_F16 || t == VGPU_T_F32 || t == VGPU_T_F64;
}

static const char *nrt_insn_why(const struct vgpu_insn *in)
{
	switch (in->op) {
	case VGPU_OP_NOP:
	case VGPU_OP_MOV:
	case VGPU_OP_SREG:
	case VGPU_OP_SELP:
	case VGPU_OP_CVT:
	case VGPU_OP_BRA:
	case VGPU_OP_EXIT:
	case VGPU_OP_TRAP:
	case VGPU_OP_MEMBAR:
	case VGPU_OP_ACTIVEMASK:
	case VGPU_OP_SETP:
	case VGPU_OP_SQRT:
	case VGPU_OP_RCP:
	case VGPU_OP_RSQRT:
	case VGPU_OP_EX2:
	case VGPU_OP_LG2:
	case VGPU_OP_SIN:
	case VGPU_OP_COS:
	case VGPU_OP_TANH:
	case VGPU_OP_COPYSIGN:
		return NULL;
	case VGPU_OP_BAR:
	case VGPU_OP_BAR_RED:
		return NULL;
	case VGPU_OP_LD:
	case VGPU_OP_ST:
		return in->type == VGPU_T_PRED ? "predicate memory access" : NULL;
	case VGPU_OP_ADD:
	case VGPU_OP_SUB:
	case VGPU_OP_MUL:
	case VGPU_OP_MAD:
	case VGPU_OP_DIV:
	case VGPU_OP_REM:
	case VGPU_OP_MIN:
	case VGPU_OP_MAX:
	case VGPU_OP_ABS:
	case VGPU_OP_NEG:
	case VGPU_OP_FMA:
	case VGPU_OP_SHL:
	case VGPU_OP_SHR:
	case VGPU_OP_AND:
	case VGPU_OP_OR:
	case VGPU_OP_XOR:
	case VGPU_OP_NOT:
		if (nrt_is_float(in->type) || in->type == VGPU_T_PRED)
			return NULL;
		if ((in->flags & VGPU_IF_SAT) && (in->op == VGPU_OP_ADD || in->op == VGPU_OP_SUB) &&
		    in->type != VGPU_T_S32)
			return "saturation of this type";
		if ((in->flags & (VGPU_IF_CC_IN | VGPU_IF_CC_OUT)) &&
		    (tbits(in->type) < 32 || !(in->op == VGPU_OP_ADD ||
		     in->op == VGPU_OP_SUB || in->op == VGPU_OP_MAD)))
			return "carry of this type or operation";
		return NULL;
	case VGPU_OP_SHFL:
	case VGPU_OP_VOTE:
	case VGPU_OP_MATCH:
	case VGPU_OP_WARPSYNC:
		return NULL;
	case VGPU_OP_ATOM:
		return in->mod == VGPU_SPACE_GLOBAL || in->mod == VGPU_SPACE_SHARED ||
		       in->mod == VGPU_SPACE_GENERIC ? NULL : "atomic in this space";
	case VGPU_OP_MALLOC:
	case VGPU_OP_FREE:
		return "device heap";
	case VGPU_OP_POPC:
	case VGPU_OP_CLZ:
	case VGPU_OP_BREV:
	case VGPU_OP_BFIND:
	case VGPU_OP_BFE:
	case VGPU_OP_PRMT:
		return NULL;
	default:
		return "texture or surface instruction";
	}
}

bool nrt_ir_supported(const struct vgpu_native_kernel *k, char *why,
		      size_t why_len)
{
	u8 *reach = nrt_reach(k);
	u32 i;

	if (!reach) {
		snprintf(why, why_len, "out of memory");
		return false;
	}
	for (i = 0; i < k->ninsns; i++) {
		const char *r;

		if (!reach[i])
			continue;
		r = nrt_insn_why(&k->insns[i]);
		if (r) {
			snprintf(why, why_len, "insn %u: %s not supported", i, r);
			free(reach);
			return false;
		}
	}
	free(reach);
	return true;
}

/*
 * Does @in write register @in->dst (in every lane that runs it)?
 */
static bool nrt_defines(const struct vgpu_insn *in)
{
	if (in->type == VGPU_T_PRED)
		return false;
	switch (in->op) {
	case VGPU_OP_SETP:
	case VGPU_OP_ST:
	case VGPU_OP_BRA:
	case VGPU_OP_EXIT:
	case VGPU_OP_BAR:
	case VGPU_OP_TRAP:
	case VGPU_OP_NOP:
	case VGPU_OP_MEMBAR:
	case VGPU_OP_WARPSYNC:
		return false;
	}
	return true;
}

/*
 * The registers some lane may read before writing them, which must start
 * as zeros (the interpreter's registers do): a forward analysis of the
 * registers every path to an instruction has written unguarded. The rest
 * need no clearing when a block starts. Returns how many, listed in
 * @list (nregs entries).
 */
u32 nrt_ir_zero_regs(const struct vgpu_native_kernel *k, u32 *list)
{
	u32 n = k->ninsns, nregs = k->func.nregs, words = (nregs + 63) / 64;
	u32 i, r, count = 0, w;
	u8 *reach = nrt_reach(k), *need = calloc(nregs, 1);
	u64 *in = NULL;
	bool changed = true;

	if ((u64)n * words <= (4u << 20))
		in = malloc((u64)(n + 1) * words * sizeof(u64));
	if (!reach || !need || !in) {
		for (r = 0; r < nregs; r++)
			list[r] = r;
		free(reach);
		free(need);
		free(in);
		return nregs;
	}
	memset(in, 0xff, (u64)(n + 1) * words * sizeof(u64));
	memset(in + (u64)k->func.entry * words, 0, words * sizeof(u64));
	while (changed) {
		changed = false;
		for (i = 0; i < n; i++) {
			const struct vgpu_insn *c = &k->insns[i];
			u64 out[64];
			u32 succ[2], ns = 0, j;
			bool uncond = c->guard == VGPU_PRED_NONE;

			if (!reach[i])
				continue;
			for (w = 0; w < words && w < 64; w++)
				out[w] = in[(u64)i * words + w];
			if (uncond && nrt_defines(c) && c->dst < nregs && words <= 64)
				out[c->dst / 64] |= 1ULL << (c->dst % 64);
			if (c->op == VGPU_OP_BRA)
				succ[ns++] = (u32)c->imm;
			if (!(uncond && (c->op == VGPU_OP_BRA || c->op == VGPU_OP_EXIT ||
					 c->op == VGPU_OP_TRAP)))
				succ[ns++] = i + 1;
			for (j = 0; j < ns; j++) {
				u64 *t = in + (u64)succ[j] * words;

				if (succ[j] >= n)
					continue;
				for (w = 0; w < words && w < 64; w++) {
					u64 v = t[w] & out[w];

					if (v != t[w]) {
						t[w] = v;
						changed = true;
					}
				}
			}
		}
	}
	for (i = 0; i < n; i++) {
		const struct vgpu_insn *c = &k->insns[i];
		u32 rd[3] = { c->a, c->b, c->c }, j;
		const u64 *t = in + (u64)i * words;

		if (!reach[i])
			continue;
		if (c->flags & VGPU_IF_B_IMM)
			rd[1] = 0;
		if (c->flags & VGPU_IF_C_IMM)
			rd[2] = 0;
		for (j = 0; j < 3; j++)
			if (rd[j] < nregs && (words > 64 || !(t[rd[j] / 64] >> (rd[j] % 64) & 1)))
				need[rd[j]] = 1;
		/* A guarded write keeps the other lanes' values. */
		if (c->guard != VGPU_PRED_NONE && nrt_defines(c) && c->dst < nregs &&
		    (words > 64 || !(t[c->dst / 64] >> (c->dst % 64) & 1)))
			need[c->dst] = 1;
	}
	for (r = 0; r < nregs; r++)
		if (need[r])
			list[count++] = r;
	free(reach);
	free(need);
	free(in);
	return count;
}

/* --- small builders ------------------------------------------------------ */

static LLVMValueRef k32(struct irb *g, u64 v)
{
	return LLVMConstInt(g->i32, v, false);
}

static LLVMValueRef k64(struct irb *g, u64 v)
{
	return LLVMConstInt(g->i64, v, false);
}

static LLVMValueRef splat64(struct irb *g, u64 v)
{
	LLVMValueRef e[VGPU_WARP];
	int i;

	for (i = 0; i < VGPU_WARP; i++)
		e[i] = k64(g, v);
	return LLVMConstVector(e, VGPU_WARP);
}

static LLVMValueRef splat32(struct irb *g, u64 v)
{
	LLVMValueRef e[VGPU_WARP];
	int i;

	for (i = 0; i < VGPU_WARP; i++)
		e[i] = k32(g, v);
	return LLVMConstVector(e, VGPU_WARP);
}

/* A vector with scalar @s in every lane. */
static LLVMValueRef vsplat(struct irb *g, LLVMValueRef s, LLVMTypeRef vt)
{
	LLVMValueRef v = LLVMGetUndef(vt), zero = LLVMConstNull(LLVMVectorType(g->i32, VGPU_WARP));

	v = LLVMBuildInsertElement(g->b, v, s, k32(g, 0), "");
	return LLVMBuildShuffleVector(g->b, v, LLVMGetUndef(vt), zero, "");
}

/* A pointer to the warp state's field at @off. */
static LLVMValueRef wfield(struct irb *g, size_t off)
{
	LLVMValueRef idx = k64(g, off);

	return LLVMBuildGEP2(g->b, g->i8, g->w, &idx, 1, "");
}

static LLVMValueRef wload(struct irb *g, LLVMTypeRef t, size_t off)
{
	LLVMValueRef v = LLVMBuildLoad2(g->b, t, wfield(g, off), "");

	LLVMSetAlignment(v, 4);
	return v;
}

static void wstore(struct irb *g, LLVMValueRef v, size_t off)
{
	LLVMSetAlignment(LLVMBuildStore(g->b, v, wfield(g, off)), 4);
}

/* A pointer at byte @off of the pointer @base. */
static LLVMValueRef at(struct irb *g, LLVMValueRef base, LLVMValueRef off)
{
	return LLVMBuildGEP2(g->b, g->i8, base, &off, 1, "");
}

/* The block's field at @off (through w->blk). */
static LLVMValueRef bload(struct irb *g, LLVMTypeRef t, size_t off)
{
	LLVMValueRef blk = wload(g, g->ptr, offsetof(struct nrt_warp, blk));

	return LLVMBuildLoad2(g->b, t, at(g, blk, k64(g, off)), "");
}

static LLVMValueRef call(struct irb *g, void *fnp, LLVMTypeRef ret,
			 LLVMValueRef *args, unsigned int n)
{
	LLVMTypeRef at[4];
	LLVMTypeRef ft;
	LLVMValueRef f;
	unsigned int i;

	for (i = 0; i < n; i++)
		at[i] = LLVMTypeOf(args[i]);
	ft = LLVMFunctionType(ret, at, n, false);
	f = LLVMConstIntToPtr(k64(g, (u64)(uintptr_t)fnp), g->ptr);
	return LLVMBuildCall2(g->b, ft, f, args, n, "");
}

static LLVMValueRef intrinsic(struct irb *g, const char *name,
			      LLVMTypeRef *tys, unsigned int ntys,
			      LLVMValueRef *args, unsigned int nargs)
{
	unsigned int id = LLVMLookupIntrinsicID(name, strlen(name));
	LLVMValueRef f = LLVMGetIntrinsicDeclaration(g->m, id, tys, ntys);
	LLVMTypeRef ft = LLVMIntrinsicGetType(g->c, id, tys, ntys);

	return LLVMBuildCall2(g->b, ft, f, args, nargs, "");
}

static LLVMValueRef reduce(struct irb *g, const char *name, LLVMValueRef v)
{
	LLVMTypeRef t = LLVMTypeOf(v);

	return intrinsic(g, name, &t, 1, &v, 1);
}

static LLVMValueRef lanes(struct irb *g, LLVMValueRef m32)
{
	return LLVMBuildBitCast(g->b, m32, g->vm, "");
}

static LLVMValueRef mask_of(struct irb *g, LLVMValueRef vm)
{
	return LLVMBuildBitCast(g->b, vm, g->i32, "");
}

static LLVMValueRef getreg(struct irb *g, u32 r)
{
	LLVMValueRef v = LLVMBuildLoad2(g->b, g->narrow[r] ? g->v32 : g->v64, g->regs[r], "");

	LLVMSetAlignment(v, g->narrow[r] ? 4 : 8);
	return g->narrow[r] ? LLVMBuildZExt(g->b, v, g->v64, "") : v;
}

static void setreg(struct irb *g, u32 r, LLVMValueRef v, LLVMValueRef em)
{
	LLVMValueRef old;

	if (g->narrow[r]) {
		/* The value's upper halves are zero (nrt_narrow_regs()). */
		old = LLVMBuildLoad2(g->b, g->v32, g->regs[r], "");
		LLVMSetAlignment(old, 4);
		v = LLVMBuildTrunc(g->b, v, g->v32, "");
		LLVMSetAlignment(LLVMBuildStore(g->b, LLVMBuildSelect(g->b, lanes(g, em), v,
						old, ""), g->regs[r]), 4);
		return;
	}
	old = getreg(g, r);
	LLVMSetAlignment(LLVMBuildStore(g->b, LLVMBuildSelect(g->b, lanes(g, em), v, old, ""),
					g->regs[r]), 8);
}

static LLVMValueRef getpred(struct irb *g, u32 p)
{
	return LLVMBuildLoad2(g->b, g->i32, g->preds[p], "");
}

static void setpred(struct irb *g, u32 p, LLVMValueRef v, LLVMValueRef em)
{
	LLVMValueRef old = getpred(g, p);

	old = LLVMBuildAnd(g->b, old, LLVMBuildNot(g->b, em, ""), "");
	v = LLVMBuildAnd(g->b, v, em, "");
	LLVMBuildStore(g->b, LLVMBuildOr(g->b, old, v, ""), g->preds[p]);
}

static LLVMValueRef opb(struct irb *g, const struct vgpu_insn *in)
{
	return in->flags & VGPU_IF_B_IMM ? splat64(g, in->imm) : getreg(g, in->b);
}

static LLVMValueRef opc(struct irb *g, const struct vgpu_insn *in)
{
	return in->flags & VGPU_IF_C_IMM ? splat64(g, in->imm) : getreg(g, in->c);
}

static unsigned int tbits(u8 t)
{
	switch (t) {
	case VGPU_T_U8:
	case VGPU_T_S8:
		return 8;
	case VGPU_T_U16:
	case VGPU_T_S16:
	case VGPU_T_F16:
		return 16;
	case VGPU_T_U32:
	case VGPU_T_S32:
	case VGPU_T_F32:
		return 32;
	default:
		return 64;
	}
}

static bool tsigned(u8 t)
{
	return t == VGPU_T_S8 || t == VGPU_T_S16 || t == VGPU_T_S32 ||
	       t == VGPU_T_S64;
}

static LLVMValueRef vtrunc(struct irb *g, LLVMValueRef v, u8 t)
{
	unsigned int bits = tbits(t);

	return bits == 64 ? v : LLVMBuildAnd(g->b, v, splat64(g, (1ULL << bits) - 1), "");
}

static LLVMValueRef vsext(struct irb *g, LLVMValueRef v, u8 t)
{
	unsigned int bits = tbits(t);

	if (bits == 64)
		return v;
	v = LLVMBuildShl(g->b, v, splat64(g, 64 - bits), "");
	return LLVMBuildAShr(g->b, v, splat64(g, 64 - bits), "");
}

/* --- control ------------------------------------------------------------- */

/* The group's state to the warp, for a call into the runtime at @pc. */
static void sync_out(struct irb *g, u32 pc)
{
	wstore(g, k32(g, pc), offsetof(struct nrt_warp, cur_pc));
	wstore(g, LLVMBuildLoad2(g->b, g->i32, g->mask, ""),
	       offsetof(struct nrt_warp, cur_mask));
	wstore(g, LLVMBuildLoad2(g->b, g->i32, g->loops, ""),
	       offsetof(struct nrt_warp, loops));
}

static void sync_in(struct irb *g)
{
	LLVMBuildStore(g->b, wload(g, g->i32, offsetof(struct nrt_warp, cur_mask)), g->mask);
	LLVMBuildStore(g->b, wload(g, g->i32, offsetof(struct nrt_warp, loops)), g->loops);
	LLVMBuildStore(g->b, wload(g, g->i32, offsetof(struct nrt_warp, thresh)), g->thresh);
}

static void ret_with(struct irb *g, int code)
{
	LLVMValueRef v = k32(g, code);
	LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);

	LLVMAddIncoming(g->ret_phi, &v, &here, 1);
	LLVMBuildBr(g->b, g->ret);
}

static LLVMBasicBlockRef newblock(struct irb *g, const char *name)
{
	return LLVMAppendBasicBlockInContext(g->c, g->fn, name);
}

/*
 * After a runtime call that answered @r (NRT_*): on at @go, to the
 * dispatcher, or return.
 */
static void after_call(struct irb *g, LLVMValueRef r, LLVMBasicBlockRef go)
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
static LLVMValueRef guard_mask(struct irb *g, const struct vgpu_insn *in)
{
	LLVMValueRef m = LLVMBuildLoad2(g->b, g->i32, g->mask, ""), p;

	if (in->guard == VGPU_PRED_NONE)
		return m;
	p = getpred(g, in->guard);
	if (in->flags & VGPU_IF_GUARD_NOT)
		p = LLVMBuildNot(g->b, p, "");
	return LLVMBuildAnd(g->b, m, p, "");
}

/* --- integer and float arithmetic ---------------------------------------- */

static LLVMValueRef int_op(struct irb *g, const struct vgpu_insn *in)
{
	u8 t = in->type;
	unsigned int bits = tbits(t);
	bool sgn = tsigned(t);
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
	LLVMValueRef mag = LLVMBuildAnd(g->b, bits, splat32(g, 0x7fffffff), "");
	LLVMValueRef nan = LLVMBuildICmp(g->b, LLVMIntUGT, mag, splat32(g, 0x7f800000), "");

	bits = LLVMBuildSelect(g->b, nan, splat32(g, 0x7fffffff), bits, "");
	return LLVMBuildZExt(g->b, bits, g->v64, "");
}

/* F32 ADD, SUB, MUL, FMA to nearest without ftz or saturation: inline. */
static bool f32_plain(const struct vgpu_insn *in)
{
	return in->type == VGPU_T_F32 && in->mod == VGPU_RND_RN &&
	       !(in->flags & (VGPU_IF_FTZ | VGPU_IF_SAT)) &&
	       (in->op == VGPU_OP_ADD || in->op == VGPU_OP_SUB ||
		in->op == VGPU_OP_MUL || in->op == VGPU_OP_FMA);
}

/*
 * Registers every write of which leaves a 32-bit value (upper half zero)
 * and no runtime helper reads or writes through the register file: they
 * are kept as <32 x i32>, in the low half of their slot, which halves
 * their vector work. What a register holds is the same either way.
 */
static void nrt_narrow_regs(const struct vgpu_native_kernel *k, const u8 *reach,
			    u8 *narrow)
{
	u32 i, nregs = k->func.nregs;

	memset(narrow, 1, nregs);
	for (i = 0; i < k->ninsns; i++) {
		const struct vgpu_insn *in = &k->insns[i];
		bool small = tbits(in->type) <= 32, helper = false, ok = false;

		if (!reach[i])
			continue;
		switch (in->op) {
		case VGPU_OP_LD:
			ok = small && !tsigned(in->type);
			break;
		case VGPU_OP_ACTIVEMASK:
			ok = true;
			break;
		case VGPU_OP_SREG:
		case VGPU_OP_MOV:
		case VGPU_OP_SELP:
			ok = small;
			break;
		case VGPU_OP_ADD:
		case VGPU_OP_SUB:
		case VGPU_OP_MUL:
		case VGPU_OP_MAD:
		case VGPU_OP_FMA:
		case VGPU_OP_DIV:
		case VGPU_OP_REM:
		case VGPU_OP_MIN:
		case VGPU_OP_MAX:
		case VGPU_OP_ABS:
		case VGPU_OP_NEG:
		case VGPU_OP_SHL:
		case VGPU_OP_SHR:
		case VGPU_OP_AND:
		case VGPU_OP_OR:
		case VGPU_OP_XOR:
		case VGPU_OP_NOT:
			if (f32_plain(in))
				ok = true;
			else if (nrt_is_float(in->type) || int_helper(in))
				helper = true;
			else
				ok = small && !((in->op == VGPU_OP_MUL || in->op == VGPU_OP_MAD) &&
						in->mod == VGPU_MUL_WIDE);
			break;
		case VGPU_OP_SETP:
			helper = nrt_is_float(in->type);
			break;
		case VGPU_OP_BAR:
		case VGPU_OP_BAR_RED:
			helper = true;
			break;
		case VGPU_OP_SHFL:
		case VGPU_OP_MATCH:
		case VGPU_OP_VOTE:
		case VGPU_OP_ATOM:
		case VGPU_OP_POPC:
		case VGPU_OP_CLZ:
		case VGPU_OP_BREV:
		case VGPU_OP_BFIND:
		case VGPU_OP_BFE:
		case VGPU_OP_PRMT:
		case VGPU_OP_CVT:
		case VGPU_OP_SQRT:
		case VGPU_OP_RCP:
		case VGPU_OP_RSQRT:
		case VGPU_OP_EX2:
		case VGPU_OP_LG2:
		case VGPU_OP_SIN:
		case VGPU_OP_COS:
		case VGPU_OP_TANH:
		case VGPU_OP_COPYSIGN:
			helper = true;
			break;
		}
		if (in->type != VGPU_T_PRED && nrt_defines(in) && in->dst < nregs && !ok)
			narrow[in->dst] = 0;
		if (helper) {
			u32 ops[4] = { in->dst, in->a, in->b, in->c }, j;

			for (j = 0; j < 4; j++)
				if (ops[j] < nregs)
					narrow[ops[j]] = 0;
		}
	}
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
	unsigned int sh = 64 - tbits(in->type);
	u64 flip = tsigned(in->type) ? 1ULL << 63 : 0;
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

/* --- memory -------------------------------------------------------------- */

static LLVMTypeRef mem_type(struct irb *g, u8 t)
{
	return LLVMIntTypeInContext(g->c, tbits(t));
}

/* Loaded lanes @v (<32 x iN>) as the register holds them. */
static LLVMValueRef load_ext(struct irb *g, LLVMValueRef v, u8 t)
{
	if (tbits(t) == 64)
		return v;
	return tsigned(t) ? LLVMBuildSExt(g->b, v, g->v64, "") :
		LLVMBuildZExt(g->b, v, g->v64, "");
}

/*
 * Lanes @em, addresses @addr: in [@lo_ok, @end) and aligned to @len? An
 * i1 for the fast path.
 */
static LLVMValueRef span_ok(struct irb *g, LLVMValueRef addr, LLVMValueRef em,
			    u32 len, LLVMValueRef base, LLVMValueRef end)
{
	LLVMValueRef vm = lanes(g, em);
	LLVMValueRef lo = reduce(g, "llvm.vector.reduce.umin",
				 LLVMBuildSelect(g->b, vm, addr, splat64(g, ~0ULL), ""));
	LLVMValueRef hi = reduce(g, "llvm.vector.reduce.umax",
				 LLVMBuildSelect(g->b, vm, addr, splat64(g, 0), ""));
	LLVMValueRef any = reduce(g, "llvm.vector.reduce.or",
				  LLVMBuildSelect(g->b, vm, addr, splat64(g, 0), ""));
	LLVMValueRef ok;

	ok = LLVMBuildICmp(g->b, LLVMIntEQ,
			   LLVMBuildAnd(g->b, any, k64(g, len - 1), ""), k64(g, 0), "");
	ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntUGE, lo, base, ""), "");
	ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntULT, hi, end, ""), "");
	ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntULE,
			  LLVMBuildAdd(g->b, hi, k64(g, len), ""), end, ""), "");
	return ok;
}

/*
 * The fast access: host addresses @haddr (<32 x i64>) for lanes @em. A
 * warp whose lanes are at consecutive elements moves one vector; others
 * gather or scatter (which keep the lanes' order where they collide).
 */
static void fast_access(struct irb *g, const struct vgpu_insn *in,
			LLVMValueRef haddr, LLVMValueRef em, u32 len)
{
	LLVMTypeRef et = mem_type(g, in->type), vt = LLVMVectorType(et, VGPU_WARP);
	LLVMValueRef vm = lanes(g, em), ptrs, v = NULL, args[4];
	LLVMValueRef a0 = LLVMBuildExtractElement(g->b, haddr, k32(g, 0), "");
	LLVMValueRef steps[VGPU_WARP], seq, same, p0;
	LLVMBasicBlockRef bseq = newblock(g, "seq"), bany = newblock(g, "gather");
	LLVMBasicBlockRef done = newblock(g, "done");
	LLVMValueRef vs[2];
	LLVMBasicBlockRef bs[2];
	LLVMTypeRef tys[2];
	int i;

	for (i = 0; i < VGPU_WARP; i++)
		steps[i] = k64(g, (u64)i * len);
	seq = LLVMBuildAdd(g->b, vsplat(g, a0, g->v64), LLVMConstVector(steps, VGPU_WARP), "");
	same = mask_of(g, LLVMBuildICmp(g->b, LLVMIntEQ, seq, haddr, ""));
	same = LLVMBuildOr(g->b, same, LLVMBuildNot(g->b, em, ""), "");
	/* Lane 0 must be active for its address to anchor the vector. */
	same = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, same, k32(g, ~0U), ""),
			    LLVMBuildTrunc(g->b, em, g->i1, ""), "");
	if (in->op == VGPU_OP_ST)
		v = LLVMBuildTrunc(g->b, opb(g, in), vt, "");
	LLVMBuildCondBr(g->b, same, bseq, bany);

	LLVMPositionBuilderAtEnd(g->b, bseq);
	p0 = LLVMBuildIntToPtr(g->b, a0, g->ptr, "");
	if (v) {
		args[0] = v;
		args[1] = p0;
		args[2] = k32(g, len);
		args[3] = vm;
		tys[0] = vt;
		tys[1] = g->ptr;
		intrinsic(g, "llvm.masked.store", tys, 2, args, 4);
	} else {
		args[0] = p0;
		args[1] = k32(g, len);
		args[2] = vm;
		args[3] = LLVMConstNull(vt);
		tys[0] = vt;
		tys[1] = g->ptr;
		vs[0] = intrinsic(g, "llvm.masked.load", tys, 2, args, 4);
	}
	bs[0] = LLVMGetInsertBlock(g->b);
	LLVMBuildBr(g->b, done);

	LLVMPositionBuilderAtEnd(g->b, bany);
	ptrs = LLVMBuildIntToPtr(g->b, haddr, g->vptr, "");
	if (v) {
		args[0] = v;
		args[1] = ptrs;
		args[2] = k32(g, len);
		args[3] = vm;
		tys[0] = vt;
		tys[1] = g->vptr;
		intrinsic(g, "llvm.masked.scatter", tys, 2, args, 4);
	} else {
		args[0] = ptrs;
		args[1] = k32(g, len);
		args[2] = vm;
		args[3] = LLVMConstNull(vt);
		tys[0] = vt;
		tys[1] = g->vptr;
		vs[1] = intrinsic(g, "llvm.masked.gather", tys, 2, args, 4);
	}
	bs[1] = LLVMGetInsertBlock(g->b);
	LLVMBuildBr(g->b, done);

	LLVMPositionBuilderAtEnd(g->b, done);
	if (!v) {
		LLVMValueRef phi = LLVMBuildPhi(g->b, vt, "");

		LLVMAddIncoming(phi, vs, bs, 2);
		setreg(g, in->dst, load_ext(g, phi, in->type), em);
	}
}

/* The lanes' addresses: register a plus the offset, or the offset. */
static LLVMValueRef addresses(struct irb *g, const struct vgpu_insn *in)
{
	if (in->a == VGPU_NO_REG)
		return splat64(g, in->imm);
	return LLVMBuildAdd(g->b, getreg(g, in->a), splat64(g, in->imm), "");
}

static void emit_mem(struct irb *g, u32 pc, const struct vgpu_insn *in,
		     LLVMValueRef em)
{
	u32 len = tbits(in->type) / 8;
	bool write = in->op == VGPU_OP_ST;
	LLVMBasicBlockRef fast = newblock(g, "fast"), slow = newblock(g, "slow");
	LLVMBasicBlockRef next = g->chk[pc + 1], some = newblock(g, "some");
	LLVMValueRef addr, ok, base, args[2], r, off;

	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, em, k32(g, 0), ""),
			next, some);
	LLVMPositionBuilderAtEnd(g->b, some);
	addr = addresses(g, in);
	if (in->mod == VGPU_SPACE_PARAM && in->a == VGPU_NO_REG && !write &&
	    !(in->imm & (len - 1)) && in->imm < g->k->func.param_bytes &&
	    len <= g->k->func.param_bytes - in->imm) {
		/* One value for the whole warp, in bounds by construction. */
		LLVMValueRef l = bload(g, g->ptr, offsetof(struct nrt_block, l)), p, v;

		p = LLVMBuildLoad2(g->b, g->ptr, at(g, l, k64(g,
				   offsetof(struct vgpu_launch, params))), "");
		v = LLVMBuildLoad2(g->b, mem_type(g, in->type), at(g, p, k64(g, in->imm)), "");
		LLVMSetAlignment(v, 1);
		v = vsplat(g, v, LLVMVectorType(mem_type(g, in->type), VGPU_WARP));
		setreg(g, in->dst, load_ext(g, v, in->type), em);
		LLVMBuildBr(g->b, next);
		LLVMDeleteBasicBlock(fast);
		LLVMDeleteBasicBlock(slow);
		return;
	}
	if (in->mod == VGPU_SPACE_GLOBAL || in->mod == VGPU_SPACE_GENERIC) {
		LLVMValueRef site = at(g, bload(g, g->ptr, offsetof(struct nrt_block, sites)),
				       k64(g, (u64)pc * sizeof(struct nrt_site)));
		LLVMValueRef end = LLVMBuildLoad2(g->b, g->i64, at(g, site,
				   k64(g, offsetof(struct nrt_site, end))), "");

		base = LLVMBuildLoad2(g->b, g->i64, at(g, site,
				      k64(g, offsetof(struct nrt_site, va))), "");
		ok = span_ok(g, addr, em, len, base, end);
		if (write)
			ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntNE,
					  LLVMBuildLoad2(g->b, g->i64, at(g, site,
					  k64(g, offsetof(struct nrt_site, writable))), ""),
					  k64(g, 0), ""), "");
		off = LLVMBuildLoad2(g->b, g->i64, at(g, site,
				     k64(g, offsetof(struct nrt_site, delta))), "");
	} else if (in->mod == VGPU_SPACE_SHARED) {
		LLVMValueRef end = bload(g, g->i64, offsetof(struct nrt_block, shared_bytes));

		ok = span_ok(g, addr, em, len, k64(g, 0), end);
		off = LLVMBuildPtrToInt(g->b, bload(g, g->ptr, offsetof(struct nrt_block, shared)),
					g->i64, "");
	} else {
		ok = LLVMConstInt(g->i1, 0, false);
		off = k64(g, 0);
	}
	LLVMBuildCondBr(g->b, ok, fast, slow);

	LLVMPositionBuilderAtEnd(g->b, fast);
	fast_access(g, in, LLVMBuildAdd(g->b, addr, vsplat(g, off, g->v64), ""), em, len);
	LLVMBuildBr(g->b, next);

	LLVMPositionBuilderAtEnd(g->b, slow);
	wstore(g, addr, offsetof(struct nrt_warp, scratch_a));
	if (write)
		wstore(g, opb(g, in), offsetof(struct nrt_warp, scratch_v));
	sync_out(g, pc);
	args[0] = g->w;
	args[1] = em;
	r = call(g, (void *)nrt_mem, g->i32, args, 2);
	if (!write) {
		LLVMBasicBlockRef got = newblock(g, "got"), bad = newblock(g, "bad");

		LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, r,
				k32(g, NRT_GO_ON), ""), got, bad);
		LLVMPositionBuilderAtEnd(g->b, got);
		setreg(g, in->dst, wload(g, g->v64, offsetof(struct nrt_warp, scratch_v)), em);
		LLVMBuildBr(g->b, next);
		LLVMPositionBuilderAtEnd(g->b, bad);
		ret_with(g, VGPU_RUN_FAULT);
		return;
	}
	after_call(g, r, next);
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
				g->chk[pc + 1], part);
		LLVMPositionBuilderAtEnd(g->b, part);
		sync_out(g, pc);
		after_call(g, call(g, (void *)nrt_diverge, g->i32, args, 3), g->chk[pc + 1]);
	} else {
		LLVMBuildBr(g->b, taken);
	}
	LLVMPositionBuilderAtEnd(g->b, taken);
	if (t > pc) {
		LLVMBuildBr(g->b, g->chk[t]);
		return;
	}
	{
		/* A loop: the interpreter's fairness count. */
		LLVMValueRef loops = LLVMBuildAdd(g->b, LLVMBuildLoad2(g->b, g->i32, g->loops, ""),
						  k32(g, 1), "");
		LLVMValueRef others = wload(g, g->i32, offsetof(struct nrt_warp, others));
		LLVMValueRef fair = LLVMBuildAnd(g->b,
			LLVMBuildICmp(g->b, LLVMIntUGE, loops, k32(g, NRT_FAIR_LOOPS), ""),
			LLVMBuildICmp(g->b, LLVMIntNE, others, k32(g, 0), ""), "");

		LLVMBuildStore(g->b, loops, g->loops);
		LLVMBuildStore(g->b, LLVMBuildSelect(g->b, fair, k32(g, 0),
				LLVMBuildLoad2(g->b, g->i32, g->thresh, ""), ""), g->thresh);
		LLVMBuildBr(g->b, g->chk[t]);
	}
}

static void emit_insn(struct irb *g, u32 pc)
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
	case VGPU_OP_AND:
	case VGPU_OP_OR:
	case VGPU_OP_XOR:
	case VGPU_OP_NOT:
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
	case VGPU_OP_ADD:
	case VGPU_OP_SUB:
	case VGPU_OP_MUL:
	case VGPU_OP_MAD:
	case VGPU_OP_FMA:
	case VGPU_OP_DIV:
	case VGPU_OP_REM:
	case VGPU_OP_MIN:
	case VGPU_OP_MAX:
	case VGPU_OP_ABS:
	case VGPU_OP_NEG:
	case VGPU_OP_SHL:
	case VGPU_OP_SHR:
		if (f32_plain(in))
			setreg(g, in->dst, f32_op(g, in), em);
		else if (nrt_is_float(in->type))
			fp_helper(g, pc, in, em, (void *)nrt_fp_alu, false);
		else if (int_helper(in))
			fp_helper(g, pc, in, em, (void *)nrt_int_op, false);
		else
			setreg(g, in->dst, int_op(g, in), em);
		break;
	case VGPU_OP_SETP:
		if (nrt_is_float(in->type))
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
	case VGPU_OP_POPC:
	case VGPU_OP_CLZ:
	case VGPU_OP_BREV:
	case VGPU_OP_BFIND:
	case VGPU_OP_BFE:
	case VGPU_OP_PRMT:
		fp_helper(g, pc, in, em, (void *)nrt_bits_op, false);
		break;
	case VGPU_OP_SHFL:
	case VGPU_OP_VOTE:
	case VGPU_OP_MATCH:
	case VGPU_OP_WARPSYNC: {
		/* The helper reads and writes predicates in the warp state. */
		LLVMValueRef preds = wload(g, g->ptr, offsetof(struct nrt_warp, preds));
		LLVMBasicBlockRef go = newblock(g, "go");
		u32 p;

		for (p = 0; p < g->k->func.npreds; p++)
			LLVMBuildStore(g->b, getpred(g, p), at(g, preds, k64(g, (u64)p * 4)));
		sync_out(g, pc);
		args[0] = g->w;
		after_call(g, call(g, (void *)nrt_warp_sync, g->i32, args, 1), go);
		LLVMPositionBuilderAtEnd(g->b, go);
		preds = wload(g, g->ptr, offsetof(struct nrt_warp, preds));
		for (p = 0; p < g->k->func.npreds; p++)
			LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->i32,
				       at(g, preds, k64(g, (u64)p * 4)), ""), g->preds[p]);
		LLVMBuildBr(g->b, next);
		return;
	}
	case VGPU_OP_ATOM: {
		LLVMBasicBlockRef some = newblock(g, "some");

		LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, em, k32(g, 0), ""),
				next, some);
		LLVMPositionBuilderAtEnd(g->b, some);
		sync_out(g, pc);
		args[0] = g->w;
		args[1] = em;
		after_call(g, call(g, (void *)nrt_atom, g->i32, args, 2), next);
		return;
	}
	case VGPU_OP_SQRT:
	case VGPU_OP_RCP:
	case VGPU_OP_RSQRT:
	case VGPU_OP_EX2:
	case VGPU_OP_LG2:
	case VGPU_OP_SIN:
	case VGPU_OP_COS:
	case VGPU_OP_TANH:
	case VGPU_OP_COPYSIGN:
		fp_helper(g, pc, in, em, (void *)nrt_fp_func, false);
		break;
	case VGPU_OP_LD:
	case VGPU_OP_ST:
		emit_mem(g, pc, in, em);
		return;
	case VGPU_OP_BRA:
		emit_branch(g, pc, in, em);
		return;
	case VGPU_OP_EXIT: {
		LLVMBasicBlockRef some = newblock(g, "some");

		LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, em, k32(g, 0), ""),
				next, some);
		LLVMPositionBuilderAtEnd(g->b, some);
		sync_out(g, pc);
		args[0] = g->w;
		args[1] = em;
		after_call(g, call(g, (void *)nrt_exit, g->i32, args, 2), next);
		return;
	}
	case VGPU_OP_BAR:
	case VGPU_OP_BAR_RED: {
		/*
		 * The barrier may complete here and hand BAR_RED results to
		 * this warp's lanes: predicates go through the warp state.
		 */
		LLVMBasicBlockRef some = newblock(g, "some"), go = newblock(g, "go");
		LLVMValueRef preds;
		u32 p;

		LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, em, k32(g, 0), ""),
				next, some);
		LLVMPositionBuilderAtEnd(g->b, some);
		preds = wload(g, g->ptr, offsetof(struct nrt_warp, preds));
		for (p = 0; p < g->k->func.npreds; p++)
			LLVMBuildStore(g->b, getpred(g, p), at(g, preds, k64(g, (u64)p * 4)));
		sync_out(g, pc);
		args[0] = g->w;
		args[1] = em;
		after_call(g, call(g, (void *)nrt_bar, g->i32, args, 2), go);
		LLVMPositionBuilderAtEnd(g->b, go);
		preds = wload(g, g->ptr, offsetof(struct nrt_warp, preds));
		for (p = 0; p < g->k->func.npreds; p++)
			LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->i32,
				       at(g, preds, k64(g, (u64)p * 4)), ""), g->preds[p]);
		LLVMBuildBr(g->b, next);
		return;
	}
	case VGPU_OP_TRAP: {
		LLVMBasicBlockRef some = newblock(g, "some");

		LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, em, k32(g, 0), ""),
				next, some);
		LLVMPositionBuilderAtEnd(g->b, some);
		sync_out(g, pc);
		args[0] = g->w;
		args[1] = em;
		args[2] = k32(g, VGPU_FAULT_TRAP);
		args[3] = k64(g, 0);
		call(g, (void *)nrt_fail, g->i32, args, 4);
		ret_with(g, VGPU_RUN_FAULT);
		return;
	}
	}
	LLVMBuildBr(g->b, next);
}

/* --- the function ----------------------------------------------------------- */

void nrt_ir_build(const struct vgpu_native_kernel *k, LLVMContextRef c,
		  LLVMModuleRef m, const char *name)
{
	struct irb gs = { .c = c, .m = m, .k = k, .n = k->ninsns }, *g = &gs;
	u32 nregs = k->func.nregs, npreds = k->func.npreds, i;
	LLVMBasicBlockRef entry, bad;
	LLVMValueRef sw, regs, preds, pc;
	LLVMTypeRef ft;
	u8 *reach = nrt_reach(k);

	g->reach = reach;
	g->narrow = calloc(nregs ? nregs : 1, 1);
	nrt_narrow_regs(k, reach, g->narrow);
	if (getenv("VGPU_NATIVE_WIDE"))
		memset(g->narrow, 0, nregs);
	g->b = LLVMCreateBuilderInContext(c);
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
		g->chk[i] = newblock(g, "chk");
		g->body[i] = newblock(g, "body");
	}
	/* After an EXIT at the end: the group is gone, the check picks anew. */
	g->chk[g->n] = newblock(g, "end");
	g->body[g->n] = bad;
	for (i = 0; i < g->n; i++)
		if (!g->chk[i])
			g->chk[i] = bad;

	LLVMPositionBuilderAtEnd(g->b, entry);
	for (i = 0; i < npreds; i++)
		g->preds[i] = LLVMBuildAlloca(g->b, g->i32, "p");
	g->mask = LLVMBuildAlloca(g->b, g->i32, "mask");
	g->thresh = LLVMBuildAlloca(g->b, g->i32, "thresh");
	g->loops = LLVMBuildAlloca(g->b, g->i32, "loops");
	g->left = LLVMBuildAlloca(g->b, g->i32, "left");
	LLVMBuildStore(g->b, wload(g, g->i32, offsetof(struct nrt_warp, slice_left)), g->left);
	regs = wload(g, g->ptr, offsetof(struct nrt_warp, regs));
	preds = wload(g, g->ptr, offsetof(struct nrt_warp, preds));
	for (i = 0; i < nregs; i++)
		g->regs[i] = at(g, regs, k64(g, (u64)i * VGPU_WARP * 8));
	for (i = 0; i < npreds; i++)
		LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->i32,
			       at(g, preds, k64(g, (u64)i * 4)), ""), g->preds[i]);
	LLVMBuildBr(g->b, g->dispatch);

	/* The return: the registers back to the warp state. */
	LLVMPositionBuilderAtEnd(g->b, g->ret);
	g->ret_phi = LLVMBuildPhi(g->b, g->i32, "code");
	wstore(g, LLVMBuildLoad2(g->b, g->i32, g->left, ""), offsetof(struct nrt_warp, slice_left));
	preds = wload(g, g->ptr, offsetof(struct nrt_warp, preds));
	for (i = 0; i < npreds; i++)
		LLVMBuildStore(g->b, getpred(g, i), at(g, preds, k64(g, (u64)i * 4)));
	LLVMBuildRet(g->b, g->ret_phi);

	/* Falling off the end, or a pc with no code: refused by the verifier. */
	LLVMPositionBuilderAtEnd(g->b, bad);
	ret_with(g, VGPU_RUN_FAULT);

	/* The dispatcher: a new group (or a resumed one) at w->cur_pc. */
	LLVMPositionBuilderAtEnd(g->b, g->dispatch);
	sync_in(g);
	pc = wload(g, g->i32, offsetof(struct nrt_warp, cur_pc));
	sw = LLVMBuildSwitch(g->b, pc, bad, g->n);
	for (i = 0; i < g->n; i++)
		if (reach[i])
			LLVMAddCase(sw, k32(g, i), g->body[i]);

	LLVMPositionBuilderAtEnd(g->b, g->chk[g->n]);
	sync_out(g, g->n);
	after_call(g, call(g, (void *)nrt_check, g->i32, &g->w, 1), bad);

	/*
	 * One slow path for every instruction's check: the group state to
	 * the warp, nrt_check(), and on through the dispatcher (which finds
	 * the same pc when nothing changed).
	 */
	{
		LLVMBasicBlockRef slow = newblock(g, "check"), stop = newblock(g, "stop");
		LLVMValueRef pcphi, r;

		LLVMPositionBuilderAtEnd(g->b, slow);
		pcphi = LLVMBuildPhi(g->b, g->i32, "pc");
		wstore(g, pcphi, offsetof(struct nrt_warp, cur_pc));
		wstore(g, LLVMBuildLoad2(g->b, g->i32, g->mask, ""),
		       offsetof(struct nrt_warp, cur_mask));
		wstore(g, LLVMBuildLoad2(g->b, g->i32, g->loops, ""),
		       offsetof(struct nrt_warp, loops));
		r = call(g, (void *)nrt_check, g->i32, &g->w, 1);
		LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, r, k32(g, NRT_STOP), ""),
				stop, g->dispatch);
		LLVMPositionBuilderAtEnd(g->b, stop);
		ret_with(g, 0);

		/*
		 * The warp's turn ends where the interpreter's would: before an
		 * instruction, once the slice's count has run.
		 */
		LLVMBasicBlockRef yield = newblock(g, "yield");
		LLVMValueRef ypc;

		LLVMPositionBuilderAtEnd(g->b, yield);
		ypc = LLVMBuildPhi(g->b, g->i32, "pc");
		wstore(g, ypc, offsetof(struct nrt_warp, cur_pc));
		wstore(g, LLVMBuildLoad2(g->b, g->i32, g->mask, ""),
		       offsetof(struct nrt_warp, cur_mask));
		wstore(g, LLVMBuildLoad2(g->b, g->i32, g->loops, ""),
		       offsetof(struct nrt_warp, loops));
		ret_with(g, VGPU_RUN_MORE);

		for (i = 0; i < g->n; i++) {
			LLVMValueRef t, pcv = k32(g, i), l;
			LLVMBasicBlockRef run;

			if (!reach[i])
				continue;
			LLVMPositionBuilderAtEnd(g->b, g->chk[i]);
			t = LLVMBuildLoad2(g->b, g->i32, g->thresh, "");
			LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntUGE, pcv, t, ""),
					slow, g->body[i]);
			LLVMAddIncoming(pcphi, &pcv, &g->chk[i], 1);

			LLVMPositionBuilderAtEnd(g->b, g->body[i]);
			run = newblock(g, "run");
			l = LLVMBuildLoad2(g->b, g->i32, g->left, "");
			LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, l, k32(g, 0), ""),
					yield, run);
			LLVMAddIncoming(ypc, &pcv, &g->body[i], 1);
			LLVMPositionBuilderAtEnd(g->b, run);
			LLVMBuildStore(g->b, LLVMBuildSub(g->b, l, k32(g, 1), ""), g->left);
			emit_insn(g, i);
		}
	}
	LLVMDisposeBuilder(g->b);
	free(g->regs);
	free(g->narrow);
	free(g->preds);
	free(g->chk);
	free(g->body);
	free(reach);
}
