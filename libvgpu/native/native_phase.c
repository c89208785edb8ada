// SPDX-License-Identifier: MIT
/*
 * The phased block function: a kernel whose code between block barriers
 * is short straight runs (a shared-memory reduction, a stencil over a
 * tile) runs a whole block in one call, phase after phase. In a phase
 * every warp that has not exited runs from where it stopped to its next
 * BAR (or its end), warp 0 first; when the last has, the barrier is
 * complete and the next phase begins. Each warp keeps where it stopped
 * (w->ls.cur_pc), its live lanes (w->ls.live), the registers live there
 * and its predicates in its warp state; between barriers its registers
 * are SSA values, as in the straight block function (native_block.c).
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
 */
#include <stdlib.h>

#include "native_irb.h"

/* Instructions the eligibility walk visits at most, over all paths. */
#define NRT_PHASE_WALK 16384
/* Phases one call runs before it returns VGPU_RUN_MORE. */
#define NRT_PHASE_ROUNDS 4096

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
		    u8 *in_region)
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
	ok = kind && in_region && analyse(k, reach, kind, in_region);
	free(kind);
	free(in_region);
	return ok;
}

/*
 * Registers live on entry to each instruction (@words u64 each), writes
 * without a guard killing: what a warp keeps across a barrier.
 * NULL when out of memory.
 */
static u64 *phase_live(const struct vgpu_native_kernel *k, const u8 *reach, u32 words)
{
	u32 n = k->ninsns, nregs = k->func.nregs, i, j, w;
	bool changed = true;
	u64 *live = calloc((u64)(n + 1) * words, sizeof(u64));
	u64 *l;

	if (!live)
		return NULL;
	l = calloc(words, sizeof(u64));
	if (!l) {
		free(live);
		return NULL;
	}
	while (changed) {
		changed = false;
		for (i = n; i-- > 0;) {
			const struct vgpu_insn *in = &k->insns[i];
			bool stops = (in->op == VGPU_OP_EXIT || in->op == VGPU_OP_BRA) &&
				     in->guard == VGPU_PRED_NONE;
			u32 rd[3];

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
			/*
			 * (A write under a forward branch's mask kills too:
			 * the branch's own edge keeps the value live for the
			 * lanes that skip it.)
			 */
			if (nrt_defines(in) && in->dst < nregs && in->guard == VGPU_PRED_NONE)
				l[in->dst / 64] &= ~(1ULL << (in->dst % 64));
			nrt_reads(in, rd);
			for (j = 0; j < 3; j++)
				if (rd[j] < nregs)
					l[rd[j] / 64] |= 1ULL << (rd[j] % 64);
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

struct phase_b {
	const u8 *kind;
	const u64 *live;
	u32 words;
	LLVMBasicBlockRef wdone, gone;
	LLVMValueRef arrived;
};

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
static void emit_bar(struct irb *g, struct phase_b *p, u32 pc)
{
	const struct vgpu_native_kernel *k = g->k;
	LLVMValueRef preds = wload(g, g->ptr, offsetof(struct nrt_warp, preds));
	u32 r;

	for (r = 0; r < k->func.nregs; r++)
		if (g->cache[r] && (!p->live ||
				    p->live[(u64)(pc + 1) * p->words + r / 64] >> (r % 64) & 1))
			storereg(g, r, g->cache[r]);
	for (r = 0; r < k->func.npreds; r++)
		LLVMBuildStore(g->b, getpred(g, r), at(g, preds, k64(g, (u64)r * 4)));
	wstore(g, LLVMBuildLoad2(g->b, g->i32, g->mask, ""), offsetof(struct nrt_warp, ls.live));
	wstore(g, k32(g, pc + 1), offsetof(struct nrt_warp, ls.cur_pc));
	LLVMBuildStore(g->b, k32(g, 1), p->arrived);
	LLVMBuildBr(g->b, p->wdone);
}

/* A phase's path from @pc, to its BAR or the warp's end. */
static void emit_path(struct irb *g, struct phase_b *p, u32 pc)
{
	const struct vgpu_native_kernel *k = g->k;

	for (;;) {
		const struct vgpu_insn *in = &k->insns[pc];

		if (plain_bar(in)) {
			emit_bar(g, p, pc);
			return;
		}
		if (in->op == VGPU_OP_EXIT && in->guard == VGPU_PRED_NONE) {
			LLVMBuildBr(g->b, p->gone);
			return;
		}
		if (in->op == VGPU_OP_BRA && p->kind[pc] == BR_REGION) {
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
			emit_path(g, p, in->imm);
			if (saved)
				memcpy(g->cache, saved, sizeof(*saved) * k->func.nregs);
			free(saved);
			LLVMPositionBuilderAtEnd(g->b, fall);
			pc++;
			continue;
		}
		emit_one(g, p, pc);
		pc++;
	}
}

/* A phase that starts at @pc: its registers from the warp state (zeros at the entry). */
static void emit_start(struct irb *g, struct phase_b *p, u32 pc)
{
	const struct vgpu_native_kernel *k = g->k;
	LLVMValueRef preds = NULL;
	u32 r;

	for (r = 0; r < k->func.nregs; r++)
		g->cache[r] = pc == k->func.entry ? LLVMConstNull(g->narrow[r] ? g->v32 : g->v64) :
			      NULL;
	if (pc != k->func.entry)
		preds = wload(g, g->ptr, offsetof(struct nrt_warp, preds));
	for (r = 0; r < k->func.npreds; r++)
		LLVMBuildStore(g->b, preds ? LLVMBuildLoad2(g->b, g->i32, at(g, preds,
				k64(g, (u64)r * 4)), "") : k32(g, 0), g->preds[r]);
	/* The carry the integer helper keeps starts clear with the warp. */
	if (pc == k->func.entry)
		wstore(g, k32(g, 0), offsetof(struct nrt_warp, ls.cc));
	emit_path(g, p, pc);
}

/*
 * Builds the phased block function of @k (nrt_phase_eligible()) as @name
 * into @m. False when out of memory.
 */
bool nrt_phase_build(const struct vgpu_native_kernel *k, LLVMContextRef c, LLVMModuleRef m,
		     const char *name)
{
	struct irb gs = { .c = c, .m = m, .k = k }, *g = &gs;
	u32 nregs = k->func.nregs, words = (nregs + 63) / 64, i;
	struct phase_b p = { .words = words ? words : 1 };
	LLVMBasicBlockRef entry, phase, wloop, wbody, wgo, pend, more, end, bad;
	LLVMValueRef blk, nwarps, warps, wi, j, live, regs, next, rounds, sw, rnd, first, lastw;
	u8 *reach = nrt_reach(k), *kind = calloc(k->ninsns + 1, 1);
	u8 *in_region = calloc(k->ninsns + 1, 1);
	bool ok = false;

	if (!reach || !kind || !in_region || !analyse(k, reach, kind, in_region) ||
	    !nrt_block_begin(g, reach, name))
		goto out;
	p.kind = kind;
	p.live = phase_live(k, reach, p.words);
	blk = g->blk;

	entry = newblock(g, "entry");
	phase = newblock(g, "phase");
	wloop = newblock(g, "wloop");
	wbody = newblock(g, "wbody");
	wgo = newblock(g, "wgo");
	p.gone = newblock(g, "gone");
	p.wdone = newblock(g, "wdone");
	pend = newblock(g, "pend");
	more = newblock(g, "more");
	end = newblock(g, "end");
	bad = newblock(g, "bad");
	g->ret = newblock(g, "ret");

	LLVMPositionBuilderAtEnd(g->b, entry);
	nrt_block_slots(g);
	p.arrived = LLVMBuildAlloca(g->b, g->i32, "arrived");
	rounds = LLVMBuildAlloca(g->b, g->i32, "rounds");
	LLVMBuildStore(g->b, k32(g, 0), rounds);
	lastw = LLVMBuildAlloca(g->b, g->i32, "lastw");
	LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->i32, at(g, blk, k64(g, offsetof(struct nrt_block,
			    next))), ""), lastw);
	nwarps = LLVMBuildLoad2(g->b, g->i32, at(g, blk, k64(g, offsetof(struct nrt_block,
				nwarps))), "");
	warps = LLVMBuildLoad2(g->b, g->ptr, at(g, blk, k64(g, offsetof(struct nrt_block,
			       warps))), "");
	LLVMBuildBr(g->b, phase);

	LLVMPositionBuilderAtEnd(g->b, g->ret);
	g->ret_phi = LLVMBuildPhi(g->b, g->i32, "code");
	LLVMBuildRet(g->b, g->ret_phi);

	/*
	 * A phase: every warp with live lanes, to its next stop, from the
	 * last of the phase before.
	 */
	LLVMPositionBuilderAtEnd(g->b, phase);
	LLVMBuildStore(g->b, k32(g, 0), p.arrived);
	first = LLVMBuildLoad2(g->b, g->i32, lastw, "");
	LLVMBuildBr(g->b, wloop);

	LLVMPositionBuilderAtEnd(g->b, wloop);
	j = LLVMBuildPhi(g->b, g->i32, "j");
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, j, nwarps, ""), wbody, pend);

	LLVMPositionBuilderAtEnd(g->b, wbody);
	wi = LLVMBuildAdd(g->b, first, j, "");
	wi = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntUGE, wi, nwarps, ""),
			     LLVMBuildSub(g->b, wi, nwarps, ""), wi, "w");
	g->w = at(g, warps, LLVMBuildMul(g->b, LLVMBuildZExt(g->b, wi, g->i64, ""),
					 k64(g, sizeof(struct nrt_warp)), ""));
	live = wload(g, g->i32, offsetof(struct nrt_warp, ls.live));
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, live, k32(g, 0), ""), p.wdone, wgo);

	LLVMPositionBuilderAtEnd(g->b, wgo);
	LLVMBuildStore(g->b, wi, lastw);
	LLVMBuildStore(g->b, live, g->mask);
	regs = wload(g, g->ptr, offsetof(struct nrt_warp, regs));
	for (i = 0; i < nregs; i++)
		g->regs[i] = at(g, regs, k64(g, (u64)i * VGPU_WARP * 8));
	sw = LLVMBuildSwitch(g->b, wload(g, g->i32, offsetof(struct nrt_warp, ls.cur_pc)), bad, 4);
	for (i = 0; i < k->ninsns; i++) {
		u32 at_pc = i == 0 ? k->func.entry : i;
		LLVMBasicBlockRef s;

		if (i && (!reach[i - 1] || !plain_bar(&k->insns[i - 1])))
			continue;
		s = newblock(g, "start");
		LLVMAddCase(sw, k32(g, at_pc), s);
		LLVMPositionBuilderAtEnd(g->b, s);
		emit_start(g, &p, at_pc);
	}

	LLVMPositionBuilderAtEnd(g->b, p.gone);
	wstore(g, k32(g, 0), offsetof(struct nrt_warp, ls.live));
	LLVMBuildBr(g->b, p.wdone);

	LLVMPositionBuilderAtEnd(g->b, p.wdone);
	next = LLVMBuildAdd(g->b, j, k32(g, 1), "");
	LLVMBuildBr(g->b, wloop);
	{
		LLVMValueRef v[2] = { k32(g, 0), next };
		LLVMBasicBlockRef from[2] = { phase, p.wdone };

		LLVMAddIncoming(j, v, from, 2);
	}

	/* No warp waits at a barrier: the block is done; else the next phase. */
	LLVMPositionBuilderAtEnd(g->b, pend);
	rnd = LLVMBuildAdd(g->b, LLVMBuildLoad2(g->b, g->i32, rounds, ""), k32(g, 1), "");
	LLVMBuildStore(g->b, rnd, rounds);
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildLoad2(g->b, g->i32,
			p.arrived, ""), k32(g, 0), ""), end, more);
	LLVMPositionBuilderAtEnd(g->b, more);
	{
		LLVMBasicBlockRef stop = newblock(g, "stop");

		LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, rnd,
				k32(g, NRT_PHASE_ROUNDS), ""), phase, stop);
		LLVMPositionBuilderAtEnd(g->b, stop);
		LLVMBuildStore(g->b, LLVMBuildLoad2(g->b, g->i32, lastw, ""),
			       at(g, blk, k64(g, offsetof(struct nrt_block, next))));
		ret_with(g, VGPU_RUN_MORE);
	}
	LLVMPositionBuilderAtEnd(g->b, end);
	ret_with(g, VGPU_RUN_DONE);
	/* A warp stopped where no phase starts: never. */
	LLVMPositionBuilderAtEnd(g->b, bad);
	ret_with(g, VGPU_RUN_FAULT);

	free((void *)p.live);
	ok = true;
out:
	nrt_block_end(g);
	free(kind);
	free(in_region);
	free(reach);
	return ok;
}
