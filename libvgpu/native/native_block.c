// SPDX-License-Identifier: MIT
/*
 * The block function: a kernel whose code is one straight run runs a whole
 * block in one call, its warps one after another, without the warp
 * function's scheduling. Most element-wise kernels are such a run: a
 * bounds test that sends some lanes to EXIT, arithmetic, loads and stores.
 *
 * What makes it the same as the interpreter's run: with no branch but to
 * an EXIT, no barrier and no warp-synchronous instruction (atomics go
 * lane by lane through the warp function's helper), a warp's lanes
 * never split into groups that take turns, and no warp waits for another;
 * with at most VGPU_WARP_SLICE instructions, each warp ends in its first
 * turn, so the interpreter too runs warp 0 to its end, then warp 1, and so
 * on. Memory therefore sees the same accesses in the same order, and the
 * first fault is the same one (the accesses' slow path is nrt_mem(), the
 * warp function's).
 *
 * What makes it fast: registers are SSA values for the whole warp (there
 * is no dispatcher that could enter mid-run, so nothing goes to the
 * register file but around helpers that read it), no turn is counted and
 * no scheduler asked, and an instruction without a guard computes every
 * lane, those that have exited too: its values there are never read (a
 * load, store or EXIT takes the live lanes' mask), so no lane select is
 * needed. A warp takes one of three copies of the run (native_affine.c):
 * with the block's affine values, when the block is one row of threads,
 * no narrow index wraps across it and every access through them has the
 * whole block's elements in one range (checked once, before the first
 * warp: the warps then run in a loop of their own, with no check); with
 * the warp's own affine values, when its TID_X is consecutive; or the
 * general copy.
 */
#include <stdlib.h>

#include "native_irb.h"

/* A branch whose target ends the lanes that take it. */
bool nrt_block_bra_to_exit(const struct vgpu_native_kernel *k, const struct vgpu_insn *in,
			   u32 pc)
{
	const struct vgpu_insn *t;

	if (in->op != VGPU_OP_BRA || in->imm <= pc || in->imm >= k->ninsns)
		return false;
	t = &k->insns[in->imm];
	return t->op == VGPU_OP_EXIT && t->guard == VGPU_PRED_NONE;
}

/* Instructions the block function runs through a helper on the register file. */
bool nrt_block_on_helper(const struct vgpu_insn *in)
{
	switch (in->op) {
	case VGPU_OP_CVT:
	case VGPU_OP_POPC ... VGPU_OP_PRMT:
	case VGPU_OP_SQRT ... VGPU_OP_COPYSIGN:
		return true;
	case VGPU_OP_SETP:
		return vgpu_is_float(in->type);
	case VGPU_OP_AND ... VGPU_OP_NOT:
		if (in->type == VGPU_T_PRED)
			return false;
		fallthrough;
	case VGPU_OP_ADD ... VGPU_OP_NEG:
	case VGPU_OP_SHL ... VGPU_OP_SHR:
		return !nrt_insn_inline(in);
	}
	return false;
}

bool nrt_block_eligible(const struct vgpu_native_kernel *k, const u8 *reach)
{
	u32 pc, n = 0;

	if (!reach)
		return false;
	for (pc = k->func.entry; pc < k->ninsns; pc++) {
		const struct vgpu_insn *in = &k->insns[pc];

		if (!reach[pc] || ++n > VGPU_WARP_SLICE)
			return false;
		if (in->op == VGPU_OP_EXIT && in->guard == VGPU_PRED_NONE)
			break;
		if (in->op != VGPU_OP_EXIT && in->op != VGPU_OP_ATOM &&
		    !nrt_block_bra_to_exit(k, in, pc) && !nrt_insn_inline(in) &&
		    !nrt_block_on_helper(in))
			return false;
	}
	if (pc == k->ninsns)
		return false;
	/* Anything reachable past the run is an EXIT a branch goes to. */
	for (pc++; pc < k->ninsns; pc++)
		if (reach[pc] && (k->insns[pc].op != VGPU_OP_EXIT ||
				  k->insns[pc].guard != VGPU_PRED_NONE))
			return false;
	return true;
}

/*
 * Instruction @pc through its helper: the registers it reads, and its
 * destination (the lanes it does not write keep theirs), to the warp's
 * register file around the call; the result back as a value.
 */
void nrt_block_emit_on_helper(struct irb *g, u32 pc, const struct vgpu_insn *in)
{
	u32 rd[3], j;

	nrt_reads(in, rd);
	for (j = 0; j < 3; j++)
		if (rd[j] < g->k->func.nregs)
			storereg(g, rd[j], slotval(g, rd[j]));
	if (in->op != VGPU_OP_SETP)
		storereg(g, in->dst, slotval(g, in->dst));
	nrt_ir_emit_insn(g, pc);
	LLVMPositionBuilderAtEnd(g->b, g->chk[pc + 1]);
	if (in->op != VGPU_OP_SETP) {
		g->cache[in->dst] = NULL;
		g->lazy[in->dst].base = NULL;
		g->cache[in->dst] = slotval(g, in->dst);
	}
}

/*
 * ATOM for lanes @em (live, guard passed) through nrt_atom(), lane by lane
 * as the interpreter, its operands and destination through the register
 * file; a fault ends the block. On at @next.
 */
void nrt_block_emit_atom(struct irb *g, u32 pc, const struct vgpu_insn *in, LLVMValueRef em,
			 LLVMBasicBlockRef next)
{
	LLVMBasicBlockRef some = newblock(g, "atom"), bad = newblock(g, "bad");
	LLVMBasicBlockRef back = newblock(g, "back");
	LLVMValueRef args[2] = { g->w, em }, r;
	u32 rd[3], j;

	nrt_reads(in, rd);
	for (j = 0; j < 3; j++)
		if (rd[j] < g->k->func.nregs)
			storereg(g, rd[j], slotval(g, rd[j]));
	storereg(g, in->dst, slotval(g, in->dst));
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, em, k32(g, 0), ""), back, some);
	LLVMPositionBuilderAtEnd(g->b, some);
	sync_out(g, pc);
	r = call(g, (void *)nrt_atom, g->i32, args, 2);
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, r, k32(g, NRT_GO_ON), ""), back, bad);
	LLVMPositionBuilderAtEnd(g->b, bad);
	ret_with(g, VGPU_RUN_FAULT);
	LLVMPositionBuilderAtEnd(g->b, back);
	g->cache[in->dst] = NULL;
	g->lazy[in->dst].base = NULL;
	g->cache[in->dst] = slotval(g, in->dst);
	LLVMBuildBr(g->b, next);
}

/*
 * The lanes @em (live, guard passed) leave: on at @next with the rest, or
 * to @done when none is left.
 */
void nrt_block_emit_exit(struct irb *g, LLVMValueRef em, LLVMBasicBlockRef done,
			 LLVMBasicBlockRef next)
{
	LLVMValueRef m = LLVMBuildLoad2(g->b, g->i32, g->mask, "");

	m = LLVMBuildAnd(g->b, m, LLVMBuildNot(g->b, em, ""), "");
	LLVMBuildStore(g->b, m, g->mask);
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, m, k32(g, 0), ""), done, next);
}

/*
 * Which copy of the run a warp takes: the block-affine one (@wofs, the
 * warp's first thread, with the block's affine values, every access's
 * elements in range, at host offset @offs), the warp-affine one (@wofs
 * NULL: the warp's own affine values), or the general one (@dst NULL).
 */
struct run_copy {
	const struct nrt_aff *dst, *addr;
	LLVMValueRef wofs;
	const LLVMValueRef *offs;
};

/* @a at the warp: the block's affine value moved on to the warp's first thread. */
static struct nrt_aff at_warp(struct irb *g, const struct run_copy *c, const struct nrt_aff *a)
{
	if (!c->wofs)
		return *a;
	return (struct nrt_aff){ LLVMBuildAdd(g->b, a->base, LLVMBuildMul(g->b, a->step, c->wofs,
					      ""), ""), a->step, a->uni };
}

/*
 * One warp's run: from the entry to the EXIT that ends it, on to @done.
 * In an affine copy the affine results are not computed lane by lane but
 * made from their scalars, and accesses through affine addresses try the
 * one vector move.
 */
static void emit_warp(struct irb *g, LLVMBasicBlockRef done, const struct run_copy *c)
{
	const struct vgpu_native_kernel *k = g->k;
	u32 pc, r;

	/* Registers and predicates start as zeros. */
	for (r = 0; r < k->func.nregs; r++) {
		g->cache[r] = LLVMConstNull(g->narrow[r] ? g->v32 : g->v64);
		g->lazy[r].base = NULL;
	}
	for (r = 0; r < k->func.npreds; r++)
		LLVMBuildStore(g->b, k32(g, 0), g->preds[r]);
	for (pc = k->func.entry;; pc++) {
		const struct vgpu_insn *in = &k->insns[pc];
		struct nrt_aff a;
		LLVMValueRef em;

		if (c->dst && c->dst[pc].base) {
			g->lazy[in->dst] = at_warp(g, c, &c->dst[pc]);
			g->cache[in->dst] = NULL;
			continue;
		}
		if (in->op == VGPU_OP_EXIT && in->guard == VGPU_PRED_NONE) {
			LLVMBuildBr(g->b, done);
			return;
		}
		g->chk[pc + 1] = newblock(g, "next");
		if (in->op == VGPU_OP_EXIT || in->op == VGPU_OP_BRA || in->op == VGPU_OP_ATOM ||
		    ((in->op == VGPU_OP_LD || in->op == VGPU_OP_ST) &&
		     !nrt_param_direct(g->k, in))) {
			/* The live lanes the guard lets run. */
			g->all_lanes = false;
			em = guard_mask(g, in);
			g->all_lanes = true;
			if (c->addr && c->addr[pc].base) {
				a = at_warp(g, c, &c->addr[pc]);
				if (c->wofs)
					nrt_ir_emit_mem_fits(g, pc, in, em, &a, c->offs[pc],
							     g->chk[pc + 1]);
				else
					nrt_ir_emit_mem_line(g, pc, in, em, &a, g->chk[pc + 1]);
			} else if (in->op == VGPU_OP_LD || in->op == VGPU_OP_ST) {
				nrt_ir_emit_mem_ssa(g, pc, in, em, g->chk[pc + 1]);
			} else if (in->op == VGPU_OP_ATOM) {
				nrt_block_emit_atom(g, pc, in, em, g->chk[pc + 1]);
			} else {
				nrt_block_emit_exit(g, em, done, g->chk[pc + 1]);
			}
		} else if (nrt_block_on_helper(in)) {
			nrt_block_emit_on_helper(g, pc, in);
			continue;
		} else {
			nrt_ir_emit_insn(g, pc);
		}
		LLVMPositionBuilderAtEnd(g->b, g->chk[pc + 1]);
		/* Written lane by lane now (setreg() keeps the value). */
		if (nrt_defines(in) && in->dst < k->func.nregs)
			g->lazy[in->dst].base = NULL;
	}
}

bool nrt_block_begin(struct irb *g, const u8 *reach, const char *name)
{
	const struct vgpu_native_kernel *k = g->k;
	u32 nregs = k->func.nregs;

	g->narrow = calloc(nregs ? nregs : 1, 1);
	g->cache = calloc(nregs + 1, sizeof(*g->cache));
	g->lazy = calloc(nregs + 1, sizeof(*g->lazy));
	g->regs = calloc(nregs + 1, sizeof(*g->regs));
	g->preds = calloc(k->func.npreds + 1, sizeof(*g->preds));
	g->chk = calloc(k->ninsns + 1, sizeof(*g->chk));
	if (!g->narrow || !g->cache || !g->lazy || !g->regs || !g->preds || !g->chk)
		return false;
	g->b = LLVMCreateBuilderInContext(g->c);
	irb_types(g);
	g->n = k->ninsns;
	g->reach = reach;
	if (reach)
		nrt_narrow_regs(k, reach, g->narrow);
	if (getenv("VGPU_NATIVE_WIDE"))
		memset(g->narrow, 0, nregs);
	g->cache_on = true;
	g->all_lanes = true;
	g->fn = LLVMAddFunction(g->m, name, LLVMFunctionType(g->i32, &g->ptr, 1, false));
	g->blk = LLVMGetParam(g->fn, 0);
	return true;
}

void nrt_block_slots(struct irb *g)
{
	u32 i;

	for (i = 0; i < g->k->func.npreds; i++)
		g->preds[i] = LLVMBuildAlloca(g->b, g->i32, "p");
	g->mask = LLVMBuildAlloca(g->b, g->i32, "mask");
	g->loops = LLVMBuildAlloca(g->b, g->i32, "loops");
	LLVMBuildStore(g->b, k32(g, 0), g->loops);
}

void nrt_block_end(struct irb *g)
{
	if (g->b)
		LLVMDisposeBuilder(g->b);
	free(g->narrow);
	free(g->cache);
	free(g->lazy);
	free(g->regs);
	free(g->preds);
	free(g->chk);
}

/* What the loops over a block's warps share: the block's numbers, and its affine run. */
struct warp_loops {
	LLVMValueRef nwarps, nthreads, warps;
	struct nrt_aff *dst, *addr;	/* the warp-affine copy's */
	bool carry;			/* some instruction reads the carry */
};

/*
 * A loop over the block's warps from the builder's block, on to @end when
 * every warp has run. Each warp runs the block-affine copy @bc when it is
 * given; else the warp-affine copy when its values hold, else the
 * general one.
 */
static void warp_loop(struct irb *g, const struct warp_loops *wl, const struct run_copy *bc,
		      LLVMBasicBlockRef end)
{
	const struct vgpu_native_kernel *k = g->k;
	LLVMBasicBlockRef from = LLVMGetInsertBlock(g->b), loop = newblock(g, "loop");
	LLVMBasicBlockRef warp = newblock(g, "warp"), done = newblock(g, "done");
	LLVMValueRef wi, left, live, regs, next, ok, v[2];
	LLVMBasicBlockRef bbs[2];
	u32 i, lines;

	LLVMBuildBr(g->b, loop);
	LLVMPositionBuilderAtEnd(g->b, loop);
	wi = LLVMBuildPhi(g->b, g->i32, "w");
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntULT, wi, wl->nwarps, ""), warp, end);

	LLVMPositionBuilderAtEnd(g->b, warp);
	g->w = at(g, wl->warps, LLVMBuildMul(g->b, LLVMBuildZExt(g->b, wi, g->i64, ""),
					     k64(g, sizeof(struct nrt_warp)), ""));
	/* Its live lanes: all 32 but in a last, partial warp. */
	left = LLVMBuildSub(g->b, wl->nthreads, LLVMBuildMul(g->b, wi, k32(g, VGPU_WARP), ""), "");
	live = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntUGE, left, k32(g, VGPU_WARP), ""),
			       k32(g, ~0U), LLVMBuildSub(g->b, LLVMBuildShl(g->b, k32(g, 1),
			       left, ""), k32(g, 1), ""), "");
	LLVMBuildStore(g->b, live, g->mask);
	/* The carry the integer helper keeps starts clear, as registers and predicates. */
	if (wl->carry)
		wstore(g, k32(g, 0), offsetof(struct nrt_warp, ls.cc));
	regs = wload(g, g->ptr, offsetof(struct nrt_warp, regs));
	for (i = 0; i < k->func.nregs; i++)
		g->regs[i] = at(g, regs, k64(g, (u64)i * VGPU_WARP * 8));
	if (bc) {
		struct run_copy c = *bc;

		c.wofs = LLVMBuildMul(g->b, LLVMBuildZExt(g->b, wi, g->i64, ""),
				      k64(g, VGPU_WARP), "");
		emit_warp(g, done, &c);
	} else {
		struct run_copy wc = { wl->dst, wl->addr, NULL, NULL }, gc = { 0 };
		LLVMBasicBlockRef gen = newblock(g, "general");

		ok = wl->dst && wl->addr ? nrt_aff_run(g, wl->dst, wl->addr, NULL) : NULL;
		for (i = k->func.entry, lines = 0; i < k->ninsns && ok; i++)
			lines += wl->addr[i].base != NULL;
		if (lines) {
			LLVMBasicBlockRef lin = newblock(g, "warp_affine");

			LLVMBuildCondBr(g->b, ok, lin, gen);
			LLVMPositionBuilderAtEnd(g->b, lin);
			emit_warp(g, done, &wc);
		} else {
			LLVMBuildBr(g->b, gen);
		}
		LLVMPositionBuilderAtEnd(g->b, gen);
		emit_warp(g, done, &gc);
	}

	LLVMPositionBuilderAtEnd(g->b, done);
	next = LLVMBuildAdd(g->b, wi, k32(g, 1), "");
	LLVMBuildBr(g->b, loop);
	v[0] = k32(g, 0);
	v[1] = next;
	bbs[0] = from;
	bbs[1] = done;
	LLVMAddIncoming(wi, v, bbs, 2);
}

bool nrt_block_build(const struct vgpu_native_kernel *k, LLVMContextRef c,
		     LLVMModuleRef m, const char *name)
{
	struct irb gs = { .c = c, .m = m, .k = k }, *g = &gs;
	struct warp_loops wl = { 0 };
	u32 i;
	LLVMBasicBlockRef entry, end;
	LLVMValueRef blk, bok, threads, whole, fits;
	struct nrt_aff *bdst = calloc(k->ninsns + 1, sizeof(*bdst));
	struct nrt_aff *baddr = calloc(k->ninsns + 1, sizeof(*baddr));
	LLVMValueRef *offs = calloc(k->ninsns + 1, sizeof(*offs));
	u8 *reach = nrt_reach(k);
	u32 blines;
	bool built = false;

	wl.dst = calloc(k->ninsns + 1, sizeof(*wl.dst));
	wl.addr = calloc(k->ninsns + 1, sizeof(*wl.addr));
	if (!nrt_block_begin(g, reach, name))
		goto out;
	blk = g->blk;
	for (i = 0; i < k->ninsns; i++)
		wl.carry |= (!reach || reach[i]) && (k->insns[i].flags & VGPU_IF_CC_IN);

	entry = newblock(g, "entry");
	end = newblock(g, "end");
	g->ret = newblock(g, "ret");

	LLVMPositionBuilderAtEnd(g->b, g->ret);
	g->ret_phi = LLVMBuildPhi(g->b, g->i32, "code");
	LLVMBuildRet(g->b, g->ret_phi);

	LLVMPositionBuilderAtEnd(g->b, entry);
	nrt_block_slots(g);
	wl.nwarps = LLVMBuildLoad2(g->b, g->i32, at(g, blk, k64(g, offsetof(struct nrt_block,
				   nwarps))), "");
	wl.nthreads = LLVMBuildLoad2(g->b, g->i32, at(g, blk, k64(g, offsetof(struct nrt_block,
				     nthreads))), "");
	wl.warps = LLVMBuildLoad2(g->b, g->ptr, at(g, blk, k64(g, offsetof(struct nrt_block,
				  warps))), "");
	/*
	 * The block's affine values, and whether the block's elements of
	 * each access through them all lie in range: when all do, the
	 * warps run the block-affine copy with no range check at all, in a
	 * loop of its own (a check inside the loop is one more test and
	 * branch a warp, and the values it keeps crowd out the loop's
	 * registers); else the warp-affine or general copies.
	 */
	threads = LLVMBuildZExt(g->b, wl.nthreads, g->i64, "");
	bok = bdst && baddr && offs ? nrt_aff_run(g, bdst, baddr, threads) : NULL;
	whole = bok;
	for (i = k->func.entry, blines = 0; i < k->ninsns && bok; i++) {
		const struct vgpu_insn *in = &k->insns[i];

		if (!baddr[i].base)
			continue;
		fits = nrt_ir_block_fits(g, i, in, &baddr[i], threads, &offs[i]);
		if (offs[i])
			whole = LLVMBuildAnd(g->b, whole, fits, "");
		blines++;
	}
	if (blines) {
		struct run_copy bc = { bdst, baddr, NULL, offs };
		LLVMBasicBlockRef lin = newblock(g, "block_affine");
		LLVMBasicBlockRef rest = newblock(g, "rest");

		LLVMBuildCondBr(g->b, whole, lin, rest);
		LLVMPositionBuilderAtEnd(g->b, lin);
		warp_loop(g, &wl, &bc, end);
		LLVMPositionBuilderAtEnd(g->b, rest);
	}
	warp_loop(g, &wl, NULL, end);

	LLVMPositionBuilderAtEnd(g->b, end);
	ret_with(g, VGPU_RUN_DONE);

	built = true;
out:
	nrt_block_end(g);
	free(wl.dst);
	free(wl.addr);
	free(bdst);
	free(baddr);
	free(offs);
	free(reach);
	return built;
}
