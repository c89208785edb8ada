// SPDX-License-Identifier: MIT
/*
 * The phased block function: a kernel whose code between block barriers
 * is short straight runs (a shared-memory reduction, a stencil over a
 * tile) runs a whole block in one call, phase after phase. In a phase
 * every warp that has not exited runs from where it stopped to its next
 * BAR (or its end), warp 0 first; when the last has, the barrier is
 * complete and the next phase begins. All stop at the same BAR (below),
 * so the block keeps where they stopped, and the function picks a
 * phase's code once for all its warps; each warp keeps its live lanes
 * (w->ls.live), the registers live there and the predicates read after
 * it in its warp state. Between barriers its registers are SSA values,
 * as in the straight block function (native_block.c).
 *
 * What makes it the interpreter's run: every path from a phase's start
 * reaches a BAR or the warp's end within half VGPU_WARP_SLICE
 * instructions (checked by walking them), so on the interpreter too each
 * warp gets there in one turn, and the warps of a phase run in the
 * interpreter's order: the warp whose arrival completes a barrier goes
 * on in the same turn (its turn holds two phases), then the others in
 * turn from the one after it. Phase 0 runs warp 0 first; each next phase
 * starts with the last warp of the one before (an exited one is skipped).
 * Inside a phase a branch is one of three kinds: to an EXIT (the lanes
 * leave); one whose condition is the same for every thread of the block
 * (its operands come, on every path there, only from parameters,
 * block-wide special registers and immediates), which the whole warp
 * takes or does not; or a forward
 * branch over instructions without branches, exits or barriers, which
 * the lanes that do not take it run with the others masked off (where the
 * interpreter runs the lower group first and the two meet at the target,
 * the accesses are the same, in the same order). Anything else (a loop
 * with no barrier in it, a divergent backward branch, BAR_RED, named or
 * counted barriers, warp-synchronous instructions) leaves the kernel to
 * the warp function.
 *
 * A call runs at most NRT_PHASE_ROUNDS phases and returns VGPU_RUN_MORE,
 * its state in the warps (and the next phase's first warp in b->next): a
 * block that loops on barriers forever still lets its SM look at the
 * stop flag.
 *
 * Since every warp takes the same path through a phase (masked runs aside)
 * and stops at the same BAR, a register that holds one value for the
 * whole block where a phase starts is kept once, in the block (b->uni),
 * not per warp. That lets the warps that would only idle through a phase
 * skip it, as in a tree reduction's `if (tid < s)`: where the phase's
 * only masked run is under a bound on TID_X that holds for the block (a
 * one-row block, where warp w holds TID_X 32w to 32w + 31), and nothing
 * else in it has an effect or writes a value a later phase needs, a warp
 * past the bound would do nothing but arrive. It arrives without running
 * (in its turn, for the order of the next phase), and all those after it
 * to the end of the row of turns with it, in one step.
 */
#include <stdlib.h>

#include "native_irb.h"

/* Instructions the eligibility walk visits at most, over all paths. */
#define NRT_PHASE_WALK 16384
/* Phases one call runs before it returns VGPU_RUN_MORE: even (@uni's rows). */
#define NRT_PHASE_ROUNDS 4096
_Static_assert(NRT_PHASE_ROUNDS % 2 == 0, "a call ends on the row it started on");

enum { BR_OTHER, BR_EXIT, BR_UNIFORM, BR_REGION };

struct phase_an {
	const struct vgpu_native_kernel *k;
	const u8 *reach;
	u8 *kind;		/* per BRA: its kind */
	u8 *in_region;		/* per instruction: under a forward branch's mask */
	/*
	 * Per instruction, @rw words of registers then @pw of predicates
	 * that may differ between the block's threads before it.
	 */
	u64 *varies;
	u32 rw, pw;
	u32 visits;
};

static bool bit(const u64 *set, u32 i)
{
	return set[i / 64] >> (i % 64) & 1;
}

static void put(u64 *set, u32 i, bool v)
{
	if (v)
		set[i / 64] |= 1ULL << (i % 64);
	else
		set[i / 64] &= ~(1ULL << (i % 64));
}

static bool plain_bar(const struct vgpu_insn *in)
{
	return in->op == VGPU_OP_BAR && in->mod == VGPU_BAR_SYNC && !in->mod2 && !in->imm &&
	       in->guard == VGPU_PRED_NONE;
}

static bool sr_uniform(u32 sr)
{
	switch (sr) {
	case VGPU_SR_NTID_X ... VGPU_SR_NCTAID_Z:
	case VGPU_SR_NWARPID:
	case VGPU_SR_NSMID:
	case VGPU_SR_DYN_SMEM:
		return true;
	}
	return false;
}

/* The predicates @in reads (up to three, ~0U for none), and the one it writes. */
static void pred_operands(const struct vgpu_insn *in, u32 *rd, u32 *wr)
{
	const u32 fields[3] = { in->a, in->b, in->c };
	const u32 imm[3] = { 0, VGPU_IF_B_IMM, VGPU_IF_C_IMM };
	struct vgpu_op_desc d;
	u8 slot[3];
	u32 j;

	*wr = ~0U;
	for (j = 0; j < 3; j++)
		rd[j] = ~0U;
	if (!vgpu_isa_insn_desc(in, &d))
		return;
	slot[0] = d.a;
	slot[1] = d.b;
	slot[2] = d.c;
	for (j = 0; j < 3; j++)
		if (slot[j] == OPND_PRED || ((slot[j] == OPND_REG || slot[j] == OPND_REG_IMM) &&
					     in->type == VGPU_T_PRED && !(in->flags & imm[j])))
			rd[j] = fields[j];
	if (d.dst == OPND_PRED || (d.dst == OPND_REG && in->type == VGPU_T_PRED))
		*wr = in->dst;
}

/* Instructions a phase may hold other than branches, EXIT and BAR. */
static bool phase_insn(const struct vgpu_insn *in)
{
	return nrt_insn_inline(in) || nrt_block_on_helper(in) || in->op == VGPU_OP_ATOM;
}

/*
 * Whether @in at @pc gives every thread of the block the same result,
 * with @st the registers and predicates that may differ before it.
 */
static bool gives_uniform(const struct phase_an *a, const struct vgpu_insn *in, u32 pc,
			  const u64 *st)
{
	const u64 *sp = st + a->rw;
	u32 rd[3], prd[3], wr, j;

	if (a->in_region[pc] || (in->guard != VGPU_PRED_NONE && bit(sp, in->guard)))
		return false;
	switch (in->op) {
	case VGPU_OP_SREG:
		return sr_uniform(in->mod);
	case VGPU_OP_LD:
		return nrt_param_direct(a->k, in);
	case VGPU_OP_ST:
	case VGPU_OP_ATOM:
	case VGPU_OP_ACTIVEMASK:
		return false;
	}
	if (!nrt_insn_inline(in) && !nrt_block_on_helper(in))
		return false;
	nrt_reads(in, rd);
	pred_operands(in, prd, &wr);
	for (j = 0; j < 3; j++)
		if ((rd[j] < a->k->func.nregs && bit(st, rd[j])) ||
		    (prd[j] < a->k->func.npreds && bit(sp, prd[j])))
			return false;
	return true;
}

/* Joins @from into @to (@n words): whether @to grew. */
static bool join(u64 *to, const u64 *from, u32 n)
{
	bool grew = false;
	u32 i;

	for (i = 0; i < n; i++) {
		grew |= (to[i] | from[i]) != to[i];
		to[i] |= from[i];
	}
	return grew;
}

/*
 * The registers and predicates that may differ between threads before
 * each instruction: a forward pass over the paths to a fixed point. At
 * the entry every register and predicate is zero; a write makes its
 * destination uniform or not by what it reads, so a register the code
 * reuses for a thread's value and later for a block's is uniform where
 * it holds the latter. Paths meet only where every thread takes the same
 * ones (uniform branches) or where a masked run ends, whose writes count
 * as varying.
 */
static void find_uniform(struct phase_an *a, u64 *t)
{
	const struct vgpu_native_kernel *k = a->k;
	u32 w = a->rw + a->pw, pc;
	bool changed = true;

	memset(a->varies, 0, (u64)(k->ninsns + 1) * w * sizeof(u64));
	while (changed) {
		changed = false;
		for (pc = 0; pc < k->ninsns; pc++) {
			const struct vgpu_insn *in = &k->insns[pc];
			const u64 *st = a->varies + (u64)pc * w;
			u32 prd[3], wr;
			bool u;

			if (!a->reach[pc])
				continue;
			memcpy(t, st, w * sizeof(u64));
			u = gives_uniform(a, in, pc, st);
			pred_operands(in, prd, &wr);
			if (wr < k->func.npreds)
				put(t + a->rw, wr, !u);
			else if (nrt_defines(in) && in->dst < k->func.nregs)
				put(t, in->dst, !u);
			if (!((in->op == VGPU_OP_EXIT || in->op == VGPU_OP_BRA) &&
			      in->guard == VGPU_PRED_NONE) && pc + 1 < k->ninsns)
				changed |= join(a->varies + (u64)(pc + 1) * w, t, w);
			if (in->op == VGPU_OP_BRA && in->imm < k->ninsns)
				changed |= join(a->varies + in->imm * w, t, w);
		}
	}
}

/* Whether the BRA at @pc skips only instructions a mask can run. */
static bool region_ok(const struct phase_an *a, u32 pc)
{
	const struct vgpu_insn *in = &a->k->insns[pc];
	u32 i;

	if (in->imm <= pc || in->imm >= a->k->ninsns)
		return false;
	for (i = pc + 1; i < in->imm; i++)
		if (!a->reach[i] || !phase_insn(&a->k->insns[i]))
			return false;
	return true;
}

/*
 * The kinds of the branches, and with them the instructions under a
 * mask; again while the uniform values shrink (a write under a mask is
 * not uniform). False when a branch is of none of the kinds.
 */
static bool classify(struct phase_an *a, u64 *t)
{
	const struct vgpu_native_kernel *k = a->k;
	bool changed = true;
	u32 pc, i;

	while (changed) {
		changed = false;
		find_uniform(a, t);
		for (pc = 0; pc < k->ninsns; pc++) {
			const struct vgpu_insn *in = &k->insns[pc];
			u8 kind;

			if (!a->reach[pc] || in->op != VGPU_OP_BRA)
				continue;
			if (nrt_block_bra_to_exit(k, in, pc))
				kind = BR_EXIT;
			else if (in->guard == VGPU_PRED_NONE ||
				 !bit(a->varies + (u64)pc * (a->rw + a->pw) + a->rw, in->guard))
				kind = BR_UNIFORM;
			else if (region_ok(a, pc))
				kind = BR_REGION;
			else
				return false;
			if (kind == a->kind[pc])
				continue;
			a->kind[pc] = kind;
			if (kind == BR_REGION)
				for (i = pc + 1; i < in->imm; i++)
					a->in_region[i] = 1;
			changed = true;
		}
	}
	return true;
}

/*
 * Whether every path from @pc reaches a BAR or an unguarded EXIT within
 * @left instructions, with the walk's visits bounded.
 */
static bool walk(struct phase_an *a, u32 pc, u32 left)
{
	const struct vgpu_native_kernel *k = a->k;

	for (;;) {
		const struct vgpu_insn *in;

		if (pc >= k->ninsns || !a->reach[pc] || !left-- || ++a->visits > NRT_PHASE_WALK)
			return false;
		in = &k->insns[pc];
		if (plain_bar(in) || (in->op == VGPU_OP_EXIT && in->guard == VGPU_PRED_NONE))
			return true;
		if (in->op == VGPU_OP_BRA && a->kind[pc] == BR_REGION) {
			if (in->imm - pc - 1 > left)
				return false;
			left -= in->imm - pc - 1;
			pc = in->imm;
			continue;
		}
		if (in->op == VGPU_OP_BRA && a->kind[pc] == BR_UNIFORM) {
			if (in->guard != VGPU_PRED_NONE && !walk(a, in->imm, left))
				return false;
			if (in->guard == VGPU_PRED_NONE) {
				pc = in->imm;
				continue;
			}
		}
		pc++;
	}
}

/*
 * Whether @k can run as the phased block function: barriers, and the rest
 * as the file's head says. @kind and @in_region (ninsns bytes, zeros) get
 * each branch's kind and the instructions under a mask.
 */
static bool analyse(const struct vgpu_native_kernel *k, const u8 *reach, u8 *kind,
		    u8 *in_region, struct phase_an *keep)
{
	struct phase_an a = { .k = k, .reach = reach, .kind = kind, .in_region = in_region };
	u32 pc, bars = 0;
	bool ok = false;
	u64 *t;

	/* (The analysis repeats passes over the code: not for a huge one.) */
	if (k->ninsns > NRT_PHASE_WALK)
		return false;
	for (pc = 0; pc < k->ninsns; pc++) {
		const struct vgpu_insn *in = &k->insns[pc];

		if (!reach[pc])
			continue;
		if (plain_bar(in))
			bars++;
		else if (in->op != VGPU_OP_BRA && in->op != VGPU_OP_EXIT && !phase_insn(in))
			return false;
	}
	if (!bars)
		return false;
	a.rw = (k->func.nregs + 63) / 64 + 1;
	a.pw = (k->func.npreds + 63) / 64 + 1;
	a.varies = calloc((u64)(k->ninsns + 1) * (a.rw + a.pw), sizeof(u64));
	t = calloc(a.rw + a.pw, sizeof(u64));
	if (a.varies && t && classify(&a, t)) {
		ok = walk(&a, k->func.entry, VGPU_WARP_SLICE / 2);
		for (pc = 0; pc < k->ninsns && ok; pc++) {
			if (!reach[pc] || !plain_bar(&k->insns[pc]))
				continue;
			/* A phase starts after each barrier, never at the entry. */
			ok = pc + 1 != k->func.entry && walk(&a, pc + 1, VGPU_WARP_SLICE / 2);
		}
	}
	if (ok && keep) {
		*keep = a;
		a.varies = NULL;
	}
	free(a.varies);
	free(t);
	return ok;
}

bool nrt_phase_eligible(const struct vgpu_native_kernel *k, const u8 *reach)
{
	u8 *kind, *in_region;
	bool ok;

	if (!reach)
		return false;
	kind = calloc(k->ninsns, 1);
	in_region = calloc(k->ninsns, 1);
	ok = kind && in_region && analyse(k, reach, kind, in_region, NULL);
	free(kind);
	free(in_region);
	return ok;
}

/*
 * What instruction @in does to the set @l live after it, to make it the
 * set live before it: for registers or for predicates (the first @n).
 * A write without a guard kills (a write under a forward branch's mask
 * kills too: the branch's own edge keeps the value live for the lanes
 * that skip it); what it reads is then live.
 */
typedef void (*live_step)(const struct vgpu_insn *in, u32 n, u64 *l);

static void reg_step(const struct vgpu_insn *in, u32 nregs, u64 *l)
{
	u32 rd[3], j;

	if (nrt_defines(in) && in->dst < nregs && in->guard == VGPU_PRED_NONE)
		put(l, in->dst, false);
	nrt_reads(in, rd);
	for (j = 0; j < 3; j++)
		if (rd[j] < nregs)
			put(l, rd[j], true);
}

static void pred_step(const struct vgpu_insn *in, u32 np, u64 *l)
{
	u32 rd[3], wr, j;

	pred_operands(in, rd, &wr);
	if (wr < np && in->guard == VGPU_PRED_NONE)
		put(l, wr, false);
	for (j = 0; j < 3; j++)
		if (rd[j] < np)
			put(l, rd[j], true);
	if (in->guard < np)
		put(l, in->guard, true);
}

/*
 * What is live on entry to each instruction (@words u64 each), @step
 * saying what an instruction does to @n registers or predicates: what a
 * warp keeps across a barrier, and what one that skips a phase must not
 * need of it. NULL when out of memory.
 */
static u64 *phase_live(const struct vgpu_native_kernel *k, const u8 *reach, u32 words,
		       u32 n_items, live_step step)
{
	u32 n = k->ninsns, i, w;
	u64 *live = calloc((u64)(n + 1) * words, sizeof(u64)), *l = calloc(words, sizeof(u64));
	bool changed = true;

	if (!live || !l) {
		free(live);
		free(l);
		return NULL;
	}
	while (changed) {
		changed = false;
		for (i = n; i-- > 0;) {
			const struct vgpu_insn *in = &k->insns[i];
			bool stops = (in->op == VGPU_OP_EXIT || in->op == VGPU_OP_BRA) &&
				     in->guard == VGPU_PRED_NONE;

			if (!reach[i])
				continue;
			memset(l, 0, words * sizeof(u64));
			/* Successors: the next instruction, a branch's target. */
			if (!stops && i + 1 < n)
				for (w = 0; w < words; w++)
					l[w] |= live[(u64)(i + 1) * words + w];
			if (in->op == VGPU_OP_BRA && in->imm < n)
				for (w = 0; w < words; w++)
					l[w] |= live[(u64)in->imm * words + w];
			step(in, n_items, l);
			for (w = 0; w < words; w++) {
				if (live[(u64)i * words + w] != l[w]) {
					live[(u64)i * words + w] = l[w];
					changed = true;
				}
			}
		}
	}
	free(l);
	return live;
}

/*
 * Which registers hold the thread's TID_X wherever they are read: every
 * write of them is an unguarded SREG of it, and no path reads them
 * before one (nrt_ir_zero_regs()). NULL when out of memory.
 */
static u8 *tid_x_regs(const struct vgpu_native_kernel *k, const u8 *reach)
{
	u32 nregs = k->func.nregs, pc, z, nzero;
	u8 *t = calloc(nregs + 1, 1), *other = calloc(nregs + 1, 1);
	u32 *zero = calloc(nregs + 1, sizeof(u32));

	if (!t || !other || !zero) {
		free(t);
		free(other);
		free(zero);
		return NULL;
	}
	for (pc = 0; pc < k->ninsns; pc++) {
		const struct vgpu_insn *in = &k->insns[pc];

		if (!reach[pc] || !nrt_defines(in) || in->dst >= nregs)
			continue;
		if (in->op == VGPU_OP_SREG && in->mod == VGPU_SR_TID_X &&
		    in->guard == VGPU_PRED_NONE)
			t[in->dst] = 1;
		else
			other[in->dst] = 1;
	}
	nzero = nrt_ir_zero_regs(k, zero);
	for (z = 0; z < nzero; z++)
		other[zero[z]] = 1;
	for (z = 0; z < nregs; z++)
		t[z] &= !other[z];
	free(other);
	free(zero);
	return t;
}

/*
 * struct phase_b - what building the phased function keeps.
 * @varies, @vw: the analysis's registers (then predicates) that may
 *	differ between threads before each instruction (@vw words each):
 *	the other registers, live where a phase starts, are kept once for
 *	the block (struct nrt_block's @uni).
 * @plive, @pwords: phase_live()'s for predicates.
 * @tid_x: tid_x_regs()'s.
 * @uni_rd, @uni_wr: the rows of @uni this phase reads and writes.
 * @bound: warps from @bound on skip the phase (emit_bar()); @nwarps and
 *	no skipping until a warp finds the bound.
 * @at_pc: where the warps that arrived go on (the next phase's start).
 */
struct phase_b {
	const u8 *kind;
	const u64 *live;
	u32 words;
	const u64 *varies;
	u32 vw;
	const u64 *plive;
	u32 pwords;
	const u8 *tid_x;
	LLVMBasicBlockRef wdone, gone;
	LLVMValueRef arrived, uni_rd, uni_wr, bound, nwarps, at_pc;
};

/*
 * What a warp's path through a phase has done, for letting the warps
 * that would only idle in it skip it: @ok while nothing but one region
 * under a bound (@k, the warps that may run it) and instructions without
 * effects have run; @vregs and @vpreds, written outside the region, must
 * be dead where the phase ends, or (registers) hold one value for the
 * block there, which b->uni keeps. @bp: the predicate a SETP of TID_X
 * against a block-wide @u last set (comparison @cmp, @sgn signed), or ~0U.
 */
struct route {
	bool ok;
	u32 bp;
	u8 cmp;
	bool sgn;
	LLVMValueRef u, k;
	u64 vregs[4], vpreds[4];
};

static bool uniform_at(const struct phase_b *p, u32 pc, u32 r)
{
	return !bit(p->varies + (u64)pc * p->vw, r);
}

static bool live_at(const struct phase_b *p, u32 pc, u32 r)
{
	return !p->live || (p->live[(u64)pc * p->words + r / 64] >> (r % 64) & 1);
}

/*
 * Whether predicate @r may be read from @pc on before it is written: a
 * warp keeps only those across a barrier (the others' values are never
 * read, so a phase starts them at zero).
 */
static bool pred_live(const struct phase_b *p, u32 pc, u32 r)
{
	return !p->plive || bit(p->plive + (u64)pc * p->pwords, r);
}

/* Register @r's value in a live lane (it has one value in them all), as u64. */
static LLVMValueRef one_value(struct irb *g, u32 r)
{
	LLVMValueRef m = LLVMBuildLoad2(g->b, g->i32, g->mask, ""), lane, args[2];
	LLVMTypeRef t = g->i32;

	args[0] = m;
	args[1] = LLVMConstInt(g->i1, 0, 0);
	lane = LLVMBuildAnd(g->b, intrinsic(g, "llvm.cttz", &t, 1, args, 2), k32(g, 31), "");
	return LLVMBuildZExt(g->b, LLVMBuildExtractElement(g->b, slotval(g, r), lane, ""),
			     g->i64, "");
}

/* Whether @in at @pc compares a TID_X register with a block-wide value. */
static bool tid_compare(const struct phase_b *p, const struct vgpu_native_kernel *k,
			const struct vgpu_insn *in, u32 pc)
{
	if (in->op != VGPU_OP_SETP || in->guard != VGPU_PRED_NONE || !p->tid_x ||
	    in->a >= k->func.nregs || !p->tid_x[in->a])
		return false;
	if (in->type != VGPU_T_U32 && in->type != VGPU_T_S32 && in->type != VGPU_T_U64 &&
	    in->type != VGPU_T_S64)
		return false;
	if (in->mod != VGPU_CMP_LT && in->mod != VGPU_CMP_LE && in->mod != VGPU_CMP_GT &&
	    in->mod != VGPU_CMP_GE)
		return false;
	return (in->flags & VGPU_IF_B_IMM) || (in->b < k->func.nregs && uniform_at(p, pc, in->b));
}

/*
 * Notes instruction @in at @pc (outside a region) in @rt, before it is
 * built: whether it has effects, what it writes, and a TID_X bound.
 */
static void route_note(struct irb *g, struct phase_b *p, struct route *rt, u32 pc)
{
	const struct vgpu_native_kernel *k = g->k;
	const struct vgpu_insn *in = &k->insns[pc];
	u32 rd[3], wr;

	if (in->op == VGPU_OP_LD ? !nrt_param_direct(k, in) :
	    !nrt_insn_inline(in) || in->op == VGPU_OP_ST)
		rt->ok = false;
	if (nrt_defines(in) && in->dst < k->func.nregs)
		put(rt->vregs, in->dst, true);
	pred_operands(in, rd, &wr);
	if (wr >= k->func.npreds)
		return;
	put(rt->vpreds, wr, true);
	if (!rt->ok || !tid_compare(p, k, in, pc)) {
		if (wr == rt->bp)
			rt->bp = ~0U;
		return;
	}
	rt->bp = wr;
	rt->cmp = in->mod;
	rt->sgn = in->type == VGPU_T_S32 || in->type == VGPU_T_S64;
	rt->u = in->flags & VGPU_IF_B_IMM ? k64(g, in->imm) : one_value(g, in->b);
	if (vgpu_type_bits(in->type) == 32) {
		LLVMValueRef v = LLVMBuildTrunc(g->b, rt->u, g->i32, "");

		rt->u = rt->sgn ? LLVMBuildSExt(g->b, v, g->i64, "") :
				  LLVMBuildZExt(g->b, v, g->i64, "");
	}
}

/*
 * The warps that may run the region of the BRA @in (its lanes run where
 * the branch is not taken) under @rt's bound, or NULL: a thread runs it
 * only where TID_X < u (@strict) or <= u, so in a block of one row only
 * the first warps, up to the one holding u, may.
 */
static LLVMValueRef region_bound(struct irb *g, struct phase_b *p, const struct route *rt,
				 const struct vgpu_insn *in)
{
	bool runs_p = in->flags & VGPU_IF_GUARD_NOT, strict;
	LLVMValueRef lim, k, none, row, ny, nz;

	if (rt->bp != in->guard)
		return NULL;
	if ((runs_p && rt->cmp == VGPU_CMP_LT) || (!runs_p && rt->cmp == VGPU_CMP_GE))
		strict = true;
	else if ((runs_p && rt->cmp == VGPU_CMP_LE) || (!runs_p && rt->cmp == VGPU_CMP_GT))
		strict = false;
	else
		return NULL;
	lim = LLVMBuildMul(g->b, LLVMBuildZExt(g->b, p->nwarps, g->i64, ""), k64(g, VGPU_WARP), "");
	k = LLVMBuildLShr(g->b, LLVMBuildAdd(g->b, rt->u, k64(g, strict ? VGPU_WARP - 1 :
								  VGPU_WARP), ""), k64(g, 5), "");
	k = LLVMBuildTrunc(g->b, k, g->i32, "");
	k = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntUGE, rt->u, lim, ""), p->nwarps, k,
			    "");
	if (rt->sgn) {
		none = LLVMBuildICmp(g->b, strict ? LLVMIntSLE : LLVMIntSLT, rt->u, k64(g, 0), "");
		k = LLVMBuildSelect(g->b, none, k32(g, 0), k, "");
	}
	ny = bload(g, g->i64, offsetof(struct nrt_block, sr_uni) + VGPU_SR_NTID_Y * 8);
	nz = bload(g, g->i64, offsetof(struct nrt_block, sr_uni) + VGPU_SR_NTID_Z * 8);
	row = LLVMBuildAnd(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, ny, k64(g, 1), ""),
			   LLVMBuildICmp(g->b, LLVMIntEQ, nz, k64(g, 1), ""), "");
	return LLVMBuildSelect(g->b, row, k, p->nwarps, "");
}

/* One instruction of a phase (not a BAR, an unguarded EXIT or a uniform branch). */
static void emit_one(struct irb *g, struct phase_b *p, u32 pc)
{
	const struct vgpu_insn *in = &g->k->insns[pc];
	bool all = g->all_lanes;
	LLVMValueRef em;

	g->chk[pc + 1] = newblock(g, "next");
	if (in->op == VGPU_OP_EXIT || in->op == VGPU_OP_BRA || in->op == VGPU_OP_ATOM ||
	    ((in->op == VGPU_OP_LD || in->op == VGPU_OP_ST) && !nrt_param_direct(g->k, in))) {
		g->all_lanes = false;
		em = guard_mask(g, in);
		g->all_lanes = all;
		if (in->op == VGPU_OP_LD || in->op == VGPU_OP_ST)
			nrt_ir_emit_mem_ssa(g, pc, in, em, g->chk[pc + 1]);
		else if (in->op == VGPU_OP_ATOM)
			nrt_block_emit_atom(g, pc, in, em, g->chk[pc + 1]);
		else
			nrt_block_emit_exit(g, em, p->gone, g->chk[pc + 1]);
	} else if (nrt_block_on_helper(in)) {
		nrt_block_emit_on_helper(g, pc, in);
		return;
	} else {
		nrt_ir_emit_insn(g, pc);
	}
	LLVMPositionBuilderAtEnd(g->b, g->chk[pc + 1]);
}

/*
 * The forward branch at @pc over instructions that its other lanes run
 * masked: skipped when it leaves none, the registers they write joined
 * after it.
 */
static void emit_region(struct irb *g, struct phase_b *p, u32 pc)
{
	const struct vgpu_native_kernel *k = g->k;
	const struct vgpu_insn *in = &k->insns[pc];
	LLVMBasicBlockRef pre, run, end, join;
	LLVMValueRef m0, taken, rest, *before = calloc(k->func.nregs + 1, sizeof(*before));
	u32 i, r;

	m0 = LLVMBuildLoad2(g->b, g->i32, g->mask, "");
	g->all_lanes = false;
	taken = guard_mask(g, in);
	rest = LLVMBuildAnd(g->b, m0, LLVMBuildNot(g->b, taken, ""), "");
	for (i = pc + 1; i < in->imm; i++) {
		const struct vgpu_insn *q = &k->insns[i];

		if (nrt_defines(q) && q->dst < k->func.nregs && before)
			before[q->dst] = g->cache[q->dst] = slotval(g, q->dst);
	}
	pre = LLVMGetInsertBlock(g->b);
	run = newblock(g, "masked");
	join = newblock(g, "join");
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, rest, k32(g, 0), ""), join, run);
	LLVMPositionBuilderAtEnd(g->b, run);
	LLVMBuildStore(g->b, rest, g->mask);
	for (i = pc + 1; i < in->imm; i++)
		emit_one(g, p, i);
	LLVMBuildStore(g->b, m0, g->mask);
	end = LLVMGetInsertBlock(g->b);
	LLVMBuildBr(g->b, join);
	LLVMPositionBuilderAtEnd(g->b, join);
	g->all_lanes = true;
	for (r = 0; before && r < k->func.nregs; r++) {
		LLVMValueRef phi, v[2];
		LLVMBasicBlockRef from[2] = { pre, end };

		if (!before[r] || before[r] == g->cache[r])
			continue;
		phi = LLVMBuildPhi(g->b, LLVMTypeOf(before[r]), "");
		v[0] = before[r];
		v[1] = g->cache[r];
		LLVMAddIncoming(phi, v, from, 2);
		g->cache[r] = phi;
	}
	free(before);
}

/*
 * The warp stops at the BAR at @pc: the registers live after it that
 * this phase changed, its predicates, its lanes and where it goes on, to
 * the warp state.
 */
static void emit_bar(struct irb *g, struct phase_b *p, u32 pc, const struct route *rt)
{
	const struct vgpu_native_kernel *k = g->k;
	LLVMValueRef preds = wload(g, g->ptr, offsetof(struct nrt_warp, preds));
	bool skip = rt->ok && rt->k && p->live && p->plive;
	u32 r;

	for (r = 0; r < k->func.nregs; r++) {
		if (!live_at(p, pc + 1, r))
			continue;
		if (uniform_at(p, pc + 1, r))
			LLVMBuildStore(g->b, one_value(g, r), at(g, p->uni_wr, k64(g, (u64)r * 8)));
		else if (g->cache[r])
			storereg(g, r, g->cache[r]);
		if (bit(rt->vregs, r) && !uniform_at(p, pc + 1, r))
			skip = false;
	}
	for (r = 0; r < k->func.npreds; r++) {
		if (!pred_live(p, pc + 1, r))
			continue;
		LLVMBuildStore(g->b, getpred(g, r), at(g, preds, k64(g, (u64)r * 4)));
		if (bit(rt->vpreds, r))
			skip = false;
	}
	/* The warps past the bound would only come here: they need not run. */
	if (skip)
		LLVMBuildStore(g->b, rt->k, p->bound);
	wstore(g, LLVMBuildLoad2(g->b, g->i32, g->mask, ""), offsetof(struct nrt_warp, ls.live));
	LLVMBuildStore(g->b, k32(g, pc + 1), p->at_pc);
	LLVMBuildStore(g->b, k32(g, 1), p->arrived);
	LLVMBuildBr(g->b, p->wdone);
}

/* A phase's path from @pc, to its BAR or the warp's end. */
static void emit_path(struct irb *g, struct phase_b *p, u32 pc, struct route rt)
{
	const struct vgpu_native_kernel *k = g->k;

	for (;;) {
		const struct vgpu_insn *in = &k->insns[pc];

		if (plain_bar(in)) {
			emit_bar(g, p, pc, &rt);
			return;
		}
		if (in->op == VGPU_OP_EXIT && in->guard == VGPU_PRED_NONE) {
			LLVMBuildBr(g->b, p->gone);
			return;
		}
		if (in->op == VGPU_OP_BRA && p->kind[pc] == BR_REGION) {
			/* One region under a bound; any other kind has effects. */
			if (rt.ok && !rt.k)
				rt.k = region_bound(g, p, &rt, in);
			else
				rt.ok = false;
			rt.ok &= !!rt.k;
			emit_region(g, p, pc);
			pc = in->imm;
			continue;
		}
		if (in->op == VGPU_OP_BRA && p->kind[pc] == BR_UNIFORM) {
			LLVMBasicBlockRef taken = newblock(g, "taken"), fall = newblock(g, "fall");
			LLVMValueRef *saved;
			LLVMValueRef em;

			if (in->guard == VGPU_PRED_NONE) {
				pc = in->imm;
				continue;
			}
			/* Every live lane goes the same way. */
			g->all_lanes = false;
			em = guard_mask(g, in);
			g->all_lanes = true;
			LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntNE, em, k32(g, 0), ""),
					taken, fall);
			saved = malloc(sizeof(*saved) * (k->func.nregs + 1));
			if (saved)
				memcpy(saved, g->cache, sizeof(*saved) * k->func.nregs);
			LLVMPositionBuilderAtEnd(g->b, taken);
			emit_path(g, p, in->imm, rt);
			if (saved)
				memcpy(g->cache, saved, sizeof(*saved) * k->func.nregs);
			free(saved);
			LLVMPositionBuilderAtEnd(g->b, fall);
			pc++;
			continue;
		}
		route_note(g, p, &rt, pc);
		emit_one(g, p, pc);
		pc++;
	}
}

/* A phase that starts at @pc: its registers from the warp state (zeros at the entry). */
static void emit_start(struct irb *g, struct phase_b *p, u32 pc)
{
	const struct vgpu_native_kernel *k = g->k;
	struct route rt = { .ok = true, .bp = ~0U };
	LLVMValueRef preds = NULL;
	u32 r;

	for (r = 0; r < k->func.nregs; r++) {
		LLVMValueRef v;

		g->cache[r] = pc == k->func.entry ? LLVMConstNull(g->narrow[r] ? g->v32 : g->v64) :
			      NULL;
		if (pc == k->func.entry || !live_at(p, pc, r) || !uniform_at(p, pc, r))
			continue;
		/* One value for the block, which the warps that ran last wrote. */
		v = LLVMBuildLoad2(g->b, g->i64, at(g, p->uni_rd, k64(g, (u64)r * 8)), "");
		if (g->narrow[r])
			v = LLVMBuildTrunc(g->b, v, g->i32, "");
		g->cache[r] = vsplat(g, v, g->narrow[r] ? g->v32 : g->v64);
	}
	if (pc != k->func.entry)
		preds = wload(g, g->ptr, offsetof(struct nrt_warp, preds));
	for (r = 0; r < k->func.npreds; r++)
		LLVMBuildStore(g->b, preds && pred_live(p, pc, r) ?
			       LLVMBuildLoad2(g->b, g->i32, at(g, preds, k64(g, (u64)r * 4)), "") :
			       k32(g, 0), g->preds[r]);
	/* The carry the integer helper keeps starts clear with the warp. */
	if (pc == k->func.entry)
		wstore(g, k32(g, 0), offsetof(struct nrt_warp, ls.cc));
	emit_path(g, p, pc, rt);
}

/*
 * What the warp loops of the phases share: the block's warps, the first
 * of this phase, the last to have had its turn (@lastw), where the phase
 * ends (@pend) and where a warp found somewhere no phase starts goes
 * (@bad).
 */
struct warps_b {
	LLVMValueRef nwarps, warps, first, lastw;
	LLVMBasicBlockRef pend, bad;
};

/* Warp @wi's state (struct nrt_warp). */
static LLVMValueRef warp_at(struct irb *g, const struct warps_b *e, LLVMValueRef wi)
{
	return at(g, e->warps, LLVMBuildMul(g->b, LLVMBuildZExt(g->b, wi, g->i64, ""),
					    k64(g, sizeof(struct nrt_warp)), ""));
}

/* Every warp's ls.cur_pc to @pc (i32), for the function's next call. */
static void set_pcs(struct irb *g, const struct warps_b *e, LLVMValueRef pc)
{
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b), loop = newblock(g, "pcs");
	LLVMBasicBlockRef body = newblock(g, "pcs_w"), done = newblock(g, "pcs_done");
	LLVMValueRef i, next, v[2];
	LLVMBasicBlockRef from[2];

	LLVMBuildBr(g->b, loop);
	LLVMPositionBuilderAtEnd(g->b, loop);
	i = LLVMBuildPhi(g->b, g->i32, "");
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, i, e->nwarps, ""), body, done);
	LLVMPositionBuilderAtEnd(g->b, body);
	g->w = warp_at(g, e, i);
	wstore(g, pc, offsetof(struct nrt_warp, ls.cur_pc));
	next = LLVMBuildAdd(g->b, i, k32(g, 1), "");
	LLVMBuildBr(g->b, loop);
	v[0] = k32(g, 0);
	v[1] = next;
	from[0] = pre;
	from[1] = body;
	LLVMAddIncoming(i, v, from, 2);
	LLVMPositionBuilderAtEnd(g->b, done);
}

/*
 * A phase that starts at @at_pc: every warp with live lanes in turn from
 * the phase's first, each to its next stop. Every warp that has not
 * exited is at @at_pc (the warps take one path: the file's head), which
 * the block keeps for them all while it runs (a warp's ls.cur_pc is
 * written where the function returns to run again).
 *
 * Once a warp has found the phase's bound, the warps from it on to the
 * end of their row of turns (to the last warp, or, past it, to the
 * phase's first) are all past the bound, so they go by in one step: the
 * last of them, with live lanes, has the last turn; where it has none,
 * each goes by in its own.
 */
static void emit_warps(struct irb *g, struct phase_b *p, const struct warps_b *e, u32 at_pc)
{
	const struct vgpu_native_kernel *k = g->k;
	LLVMBasicBlockRef pre = LLVMGetInsertBlock(g->b), wloop = newblock(g, "wloop");
	LLVMBasicBlockRef wbody = newblock(g, "wbody"), wsome = newblock(g, "wsome");
	LLVMBasicBlockRef wskip = newblock(g, "wskip"), wgo = newblock(g, "wgo");
	LLVMBasicBlockRef start = newblock(g, "start"), wrow = newblock(g, "wrow");
	LLVMBasicBlockRef wone = newblock(g, "wone");
	LLVMValueRef j, wi, live, regs, next, endw, lastc, jrow, w_last, v[3];
	LLVMBasicBlockRef from[3];
	u32 i;

	p->gone = newblock(g, "gone");
	p->wdone = newblock(g, "wdone");
	LLVMBuildBr(g->b, wloop);

	LLVMPositionBuilderAtEnd(g->b, wloop);
	j = LLVMBuildPhi(g->b, g->i32, "j");
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, j, e->nwarps, ""), wbody, e->pend);

	LLVMPositionBuilderAtEnd(g->b, wbody);
	wi = LLVMBuildAdd(g->b, e->first, j, "");
	wi = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntUGE, wi, e->nwarps, ""),
			     LLVMBuildSub(g->b, wi, e->nwarps, ""), wi, "w");
	g->w = warp_at(g, e, wi);
	live = wload(g, g->i32, offsetof(struct nrt_warp, ls.live));
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, live, k32(g, 0), ""), p->wdone,
			wsome);

	/* A warp past the bound only arrives where the warps before it did. */
	LLVMPositionBuilderAtEnd(g->b, wsome);
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntUGE, wi, LLVMBuildLoad2(g->b, g->i32,
			p->bound, ""), ""), wskip, wgo);
	LLVMPositionBuilderAtEnd(g->b, wskip);
	LLVMBuildStore(g->b, k32(g, 1), p->arrived);
	endw = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntULT, wi, e->first, ""), e->first,
			       e->nwarps, "");
	lastc = LLVMBuildSub(g->b, endw, k32(g, 1), "");
	w_last = g->w;
	g->w = warp_at(g, e, lastc);
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, wload(g, g->i32,
			offsetof(struct nrt_warp, ls.live)), k32(g, 0), ""), wone, wrow);
	LLVMPositionBuilderAtEnd(g->b, wrow);
	LLVMBuildStore(g->b, lastc, e->lastw);
	jrow = LLVMBuildAdd(g->b, j, LLVMBuildSub(g->b, endw, wi, ""), "");
	LLVMBuildBr(g->b, wloop);
	LLVMPositionBuilderAtEnd(g->b, wone);
	LLVMBuildStore(g->b, wi, e->lastw);
	LLVMBuildBr(g->b, p->wdone);
	g->w = w_last;

	LLVMPositionBuilderAtEnd(g->b, wgo);
	LLVMBuildStore(g->b, wi, e->lastw);
	LLVMBuildStore(g->b, live, g->mask);
	regs = wload(g, g->ptr, offsetof(struct nrt_warp, regs));
	for (i = 0; i < k->func.nregs; i++)
		g->regs[i] = at(g, regs, k64(g, (u64)i * VGPU_WARP * 8));
	LLVMBuildBr(g->b, start);
	LLVMPositionBuilderAtEnd(g->b, start);
	emit_start(g, p, at_pc);

	LLVMPositionBuilderAtEnd(g->b, p->gone);
	wstore(g, k32(g, 0), offsetof(struct nrt_warp, ls.live));
	LLVMBuildBr(g->b, p->wdone);

	LLVMPositionBuilderAtEnd(g->b, p->wdone);
	next = LLVMBuildAdd(g->b, j, k32(g, 1), "");
	LLVMBuildBr(g->b, wloop);
	v[0] = k32(g, 0);
	v[1] = next;
	v[2] = jrow;
	from[0] = pre;
	from[1] = p->wdone;
	from[2] = wrow;
	LLVMAddIncoming(j, v, from, 3);
}

/*
 * Builds the phased block function of @k (nrt_phase_eligible()) as @name
 * into @m. False when out of memory.
 *
 * A phase's warps all start where the last phase's stopped, so the
 * function picks the phase's code once, by where its first warp with
 * live lanes stands (@at_pc: where the warps that arrived go on), and
 * that code runs the warps in turn.
 */
bool nrt_phase_build(const struct vgpu_native_kernel *k, LLVMContextRef c, LLVMModuleRef m,
		     const char *name)
{
	struct irb gs = { .c = c, .m = m, .k = k }, *g = &gs;
	u32 nregs = k->func.nregs, words = (nregs + 63) / 64, i;
	struct phase_b p = { .words = words ? words : 1 };
	struct warps_b e = { 0 };
	LLVMBasicBlockRef entry, scan, scan_w, scan_live, scan_next, phase, more, end;
	LLVMValueRef blk, sw, rnd, rounds, uni, par, parv, bytes, si, snext, v[2];
	LLVMBasicBlockRef from[2];
	u8 *reach = nrt_reach(k), *kind = calloc(k->ninsns + 1, 1);
	u8 *in_region = calloc(k->ninsns + 1, 1);
	struct phase_an an = { 0 };
	bool ok = false;

	if (!reach || !kind || !in_region || !analyse(k, reach, kind, in_region, &an) ||
	    !nrt_block_begin(g, reach, name))
		goto out;
	p.kind = kind;
	p.live = phase_live(k, reach, p.words, k->func.nregs, reg_step);
	p.varies = an.varies;
	p.vw = an.rw + an.pw;
	p.pwords = (k->func.npreds + 63) / 64 + 1;
	p.plive = phase_live(k, reach, p.pwords, k->func.npreds, pred_step);
	p.tid_x = tid_x_regs(k, reach);
	blk = g->blk;

	entry = newblock(g, "entry");
	scan = newblock(g, "scan");
	scan_w = newblock(g, "scan_w");
	scan_live = newblock(g, "scan_live");
	scan_next = newblock(g, "scan_next");
	phase = newblock(g, "phase");
	e.pend = newblock(g, "pend");
	more = newblock(g, "more");
	end = newblock(g, "end");
	e.bad = newblock(g, "bad");
	g->ret = newblock(g, "ret");

	LLVMPositionBuilderAtEnd(g->b, entry);
	nrt_block_slots(g);
	p.arrived = LLVMBuildAlloca(g->b, g->i32, "arrived");
	rounds = LLVMBuildAlloca(g->b, g->i32, "rounds");
	LLVMBuildStore(g->b, k32(g, 0), rounds);
	e.lastw = LLVMBuildAlloca(g->b, g->i32, "lastw");
	LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->i32, at(g, blk, k64(g, offsetof(struct nrt_block,
			    next))), ""), e.lastw);
	e.nwarps = LLVMBuildLoad2(g->b, g->i32, at(g, blk, k64(g, offsetof(struct nrt_block,
				  nwarps))), "");
	e.warps = LLVMBuildLoad2(g->b, g->ptr, at(g, blk, k64(g, offsetof(struct nrt_block,
				 warps))), "");
	p.nwarps = e.nwarps;
	/* (Each call runs an even number of phases: it starts on row 0.) */
	par = LLVMBuildAlloca(g->b, g->i32, "par");
	LLVMBuildStore(g->b, k32(g, 0), par);
	p.bound = LLVMBuildAlloca(g->b, g->i32, "bound");
	p.at_pc = LLVMBuildAlloca(g->b, g->i32, "at_pc");
	uni = LLVMBuildLoad2(g->b, g->ptr, at(g, blk, k64(g, offsetof(struct nrt_block, uni))), "");
	LLVMBuildBr(g->b, scan);

	/* Where the warps stand: the first with live lanes says (none: done). */
	LLVMPositionBuilderAtEnd(g->b, scan);
	si = LLVMBuildPhi(g->b, g->i32, "si");
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, si, e.nwarps, ""), scan_w, end);
	LLVMPositionBuilderAtEnd(g->b, scan_w);
	g->w = warp_at(g, &e, si);
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, wload(g, g->i32,
			offsetof(struct nrt_warp, ls.live)), k32(g, 0), ""), scan_next, scan_live);
	LLVMPositionBuilderAtEnd(g->b, scan_live);
	LLVMBuildStore(g->b, wload(g, g->i32, offsetof(struct nrt_warp, ls.cur_pc)), p.at_pc);
	LLVMBuildBr(g->b, phase);
	LLVMPositionBuilderAtEnd(g->b, scan_next);
	snext = LLVMBuildAdd(g->b, si, k32(g, 1), "");
	LLVMBuildBr(g->b, scan);
	v[0] = k32(g, 0);
	v[1] = snext;
	from[0] = entry;
	from[1] = scan_next;
	LLVMAddIncoming(si, v, from, 2);

	LLVMPositionBuilderAtEnd(g->b, g->ret);
	g->ret_phi = LLVMBuildPhi(g->b, g->i32, "code");
	LLVMBuildRet(g->b, g->ret_phi);

	/* A phase: its code, by where its warps stand. */
	LLVMPositionBuilderAtEnd(g->b, phase);
	LLVMBuildStore(g->b, k32(g, 0), p.arrived);
	LLVMBuildStore(g->b, e.nwarps, p.bound);
	e.first = LLVMBuildLoad2(g->b, g->i32, e.lastw, "");
	parv = LLVMBuildZExt(g->b, LLVMBuildLoad2(g->b, g->i32, par, ""), g->i64, "");
	bytes = k64(g, (u64)nregs * 8);
	p.uni_rd = at(g, uni, LLVMBuildMul(g->b, parv, bytes, ""));
	p.uni_wr = at(g, uni, LLVMBuildMul(g->b, LLVMBuildXor(g->b, parv, k64(g, 1), ""), bytes,
					   ""));
	sw = LLVMBuildSwitch(g->b, LLVMBuildLoad2(g->b, g->i32, p.at_pc, ""), e.bad, 4);
	for (i = 0; i < k->ninsns; i++) {
		u32 at_pc = i == 0 ? k->func.entry : i;
		LLVMBasicBlockRef s;

		if (i && (!reach[i - 1] || !plain_bar(&k->insns[i - 1])))
			continue;
		s = newblock(g, "phase_at");
		LLVMAddCase(sw, k32(g, at_pc), s);
		LLVMPositionBuilderAtEnd(g->b, s);
		emit_warps(g, &p, &e, at_pc);
	}

	/* No warp waits at a barrier: the block is done; else the next phase. */
	LLVMPositionBuilderAtEnd(g->b, e.pend);
	rnd = LLVMBuildAdd(g->b, LLVMBuildLoad2(g->b, g->i32, rounds, ""), k32(g, 1), "");
	LLVMBuildStore(g->b, rnd, rounds);
	LLVMBuildStore(g->b, LLVMBuildXor(g->b, LLVMBuildLoad2(g->b, g->i32, par, ""), k32(g, 1),
					  ""), par);
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildLoad2(g->b, g->i32,
			p.arrived, ""), k32(g, 0), ""), end, more);
	LLVMPositionBuilderAtEnd(g->b, more);
	{
		LLVMBasicBlockRef stop = newblock(g, "stop");

		LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, rnd,
				k32(g, NRT_PHASE_ROUNDS), ""), phase, stop);
		LLVMPositionBuilderAtEnd(g->b, stop);
		LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->i32, e.lastw, ""),
			       at(g, blk, k64(g, offsetof(struct nrt_block, next))));
		set_pcs(g, &e, LLVMBuildLoad2(g->b, g->i32, p.at_pc, ""));
		ret_with(g, VGPU_RUN_MORE);
	}
	LLVMPositionBuilderAtEnd(g->b, end);
	ret_with(g, VGPU_RUN_DONE);
	/* A warp stopped where no phase starts: never. */
	LLVMPositionBuilderAtEnd(g->b, e.bad);
	ret_with(g, VGPU_RUN_FAULT);

	free((void *)p.live);
	ok = true;
out:
	nrt_block_end(g);
	free((void *)p.plive);
	free((void *)p.tid_x);
	free(an.varies);
	free(kind);
	free(in_region);
	free(reach);
	return ok;
}
