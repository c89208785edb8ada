// SPDX-License-Identifier: MIT
/*
 * The IR of loads and stores. A warp's access is checked whole against the
 * range its instruction last hit (global) or the block's shared memory:
 * every active lane's address in it and aligned. Lanes at consecutive
 * elements from lane 0 with all 32 in range, the common case, need no
 * reductions to check and move as one vector (a load reads it whole when
 * every lane is active, or from shared memory, as masked loads are slow
 * on some hosts); others gather or scatter. A shared access through a
 * 32-bit register is checked, and gathers, in 32-bit lanes, and a load
 * whose warp reads two rows of 16 lanes (a tile 16 threads wide) moves as
 * two vectors of 16. Anything else (another range, local, constant and
 * parameter memory by register, every fault) goes lane by lane through
 * nrt_mem(), which reports faults as the interpreter does.
 */
#include "native_irb.h"

static LLVMTypeRef mem_type(struct irb *g, u8 t)
{
	return LLVMIntTypeInContext(g->c, vgpu_type_bits(t));
}

/*
 * The lanes a load writes: those of @em, or in the block function, for a
 * load without a guard, all (the idle lanes' values are never read).
 */
static LLVMValueRef load_mask(struct irb *g, const struct vgpu_insn *in, LLVMValueRef em)
{
	return g->all_lanes && in->guard == VGPU_PRED_NONE ? k32(g, ~0U) : em;
}

/* Loaded lanes @v (<32 x iN>) as the register holds them. */
static LLVMValueRef load_ext(struct irb *g, LLVMValueRef v, u8 t)
{
	if (vgpu_type_bits(t) == 64)
		return v;
	return vgpu_type_signed(t) ? LLVMBuildSExt(g->b, v, g->v64, "") :
		LLVMBuildZExt(g->b, v, g->v64, "");
}

/*
 * A masked vector store of @v (or, @v NULL, a load, returned) at @ptr
 * (of type @pt: one pointer, or one a lane) for the lanes of @vm: the
 * intrinsic @st or @ld, on vectors of @vt, aligned to @len.
 */
static LLVMValueRef masked_access(struct irb *g, LLVMValueRef v, LLVMValueRef ptr,
				  LLVMTypeRef pt, LLVMTypeRef vt, u32 len, LLVMValueRef vm,
				  const char *st, const char *ld)
{
	LLVMTypeRef tys[2] = { vt, pt };
	LLVMValueRef args[4];

	if (v) {
		args[0] = v;
		args[1] = ptr;
		args[2] = k32(g, len);
		args[3] = vm;
		return intrinsic(g, st, tys, 2, args, 4);
	}
	args[0] = ptr;
	args[1] = k32(g, len);
	args[2] = vm;
	args[3] = LLVMConstNull(vt);
	return intrinsic(g, ld, tys, 2, args, 4);
}

/*
 * The 32 consecutive elements at @p, for lanes @em: stored from @v, or
 * (@v NULL) loaded and returned, whole when every lane is active or the
 * memory is the block's own (a masked load is slow on some hosts), else
 * only the active lanes' elements.
 */
static LLVMValueRef line_move(struct irb *g, const struct vgpu_insn *in, LLVMValueRef p,
			      LLVMValueRef em, LLVMValueRef v)
{
	LLVMTypeRef vt = LLVMVectorType(mem_type(g, in->type), VGPU_WARP);
	u32 len = vgpu_type_bits(in->type) / 8;
	LLVMValueRef vm = lanes(g, em), r, wv[2];
	LLVMBasicBlockRef whole, part, join, wb[2];

	if (v)
		return masked_access(g, v, p, g->ptr, vt, len, vm, "llvm.masked.store",
				     "llvm.masked.load");
	if (in->mod == VGPU_SPACE_SHARED) {
		r = LLVMBuildLoad2(g->b, vt, p, "");
		LLVMSetAlignment(r, len);
		return r;
	}
	whole = newblock(g, "whole");
	part = newblock(g, "part");
	join = newblock(g, "read");
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, em, k32(g, ~0U), ""), whole, part);
	LLVMPositionBuilderAtEnd(g->b, whole);
	wv[0] = LLVMBuildLoad2(g->b, vt, p, "");
	LLVMSetAlignment(wv[0], len);
	LLVMBuildBr(g->b, join);
	LLVMPositionBuilderAtEnd(g->b, part);
	wv[1] = masked_access(g, NULL, p, g->ptr, vt, len, vm, "llvm.masked.store",
			      "llvm.masked.load");
	LLVMBuildBr(g->b, join);
	LLVMPositionBuilderAtEnd(g->b, join);
	r = LLVMBuildPhi(g->b, vt, "");
	wb[0] = whole;
	wb[1] = part;
	LLVMAddIncoming(r, wv, wb, 2);
	return r;
}

/*
 * Where the vector path (@vs[0], from @bs[0]) and the gather or scatter
 * (@vs[1], from @bs[1]) of an access meet, at @done: a load's value to
 * its register; on to @next.
 */
static void moved(struct irb *g, const struct vgpu_insn *in, LLVMValueRef em, LLVMValueRef *vs,
		  LLVMBasicBlockRef *bs, bool load, LLVMBasicBlockRef done, LLVMBasicBlockRef next)
{
	LLVMPositionBuilderAtEnd(g->b, done);
	if (load) {
		LLVMValueRef phi = LLVMBuildPhi(g->b, LLVMTypeOf(vs[0]), "");

		LLVMAddIncoming(phi, vs, bs, 2);
		setreg(g, in->dst, load_ext(g, phi, in->type), load_mask(g, in, em));
	}
	LLVMBuildBr(g->b, next);
}

/*
 * The access of lanes @em at addresses @addr, checked against [@base,
 * @end) (and, for a store, @writable nonzero), at host address plus
 * @off; on to @next, or to @slow when the check fails. The common case
 * first, with no reductions: the lanes at consecutive elements from an
 * aligned, active lane 0, all 32 in range: one vector moves. Otherwise
 * every active lane's address must be in range and aligned, and the
 * lanes gather or scatter (which keep the lanes' order where they
 * collide).
 */
static void checked_access(struct irb *g, const struct vgpu_insn *in, LLVMValueRef addr,
			   LLVMValueRef em, u32 len, LLVMValueRef base, LLVMValueRef end,
			   LLVMValueRef writable, LLVMValueRef off,
			   LLVMBasicBlockRef next, LLVMBasicBlockRef slow)
{
	LLVMTypeRef et = mem_type(g, in->type), vt = LLVMVectorType(et, VGPU_WARP);
	LLVMValueRef vm = lanes(g, em), a0, seq, quick, lim, bad, ok, v = NULL, p;
	LLVMBasicBlockRef full = newblock(g, "span"), bseq = newblock(g, "seq");
	LLVMBasicBlockRef bany = newblock(g, "gather"), done = newblock(g, "done");
	LLVMValueRef steps[VGPU_WARP], vs[2];
	LLVMBasicBlockRef bs[2];
	int i;

	a0 = LLVMBuildExtractElement(g->b, addr, k32(g, 0), "");
	for (i = 0; i < VGPU_WARP; i++)
		steps[i] = k64(g, (u64)i * len);
	seq = LLVMBuildAdd(g->b, vsplat(g, a0, g->v64), LLVMConstVector(steps, VGPU_WARP), "");
	seq = mask_of(g, LLVMBuildICmp(g->b, LLVMIntEQ, seq, addr, ""));
	seq = LLVMBuildOr(g->b, seq, LLVMBuildNot(g->b, em, ""), "");
	quick = LLVMBuildICmp(g->b, LLVMIntEQ, seq, k32(g, ~0U), "");
	quick = LLVMBuildAnd(g->b, quick, LLVMBuildTrunc(g->b, em, g->i1, ""), "");
	quick = LLVMBuildAnd(g->b, quick, LLVMBuildICmp(g->b, LLVMIntEQ,
			     LLVMBuildAnd(g->b, a0, k64(g, len - 1), ""), k64(g, 0), ""), "");
	quick = LLVMBuildAnd(g->b, quick, LLVMBuildICmp(g->b, LLVMIntUGE, a0, base, ""), "");
	quick = LLVMBuildAnd(g->b, quick, LLVMBuildICmp(g->b, LLVMIntULT, a0, end, ""), "");
	quick = LLVMBuildAnd(g->b, quick, LLVMBuildICmp(g->b, LLVMIntUGE,
			     LLVMBuildSub(g->b, end, a0, ""),
			     k64(g, (u64)VGPU_WARP * len), ""), "");
	if (writable)
		quick = LLVMBuildAnd(g->b, quick, writable, "");
	if (in->op == VGPU_OP_ST)
		v = LLVMBuildTrunc(g->b, opb(g, in), vt, "");
	LLVMBuildCondBr(g->b, quick, bseq, full);

	/*
	 * Every active lane in range and aligned: its offset from @base at
	 * most @end - @base - @len (unsigned, so below @base is far out),
	 * without reductions over the lanes.
	 */
	LLVMPositionBuilderAtEnd(g->b, full);
	lim = LLVMBuildSub(g->b, end, base, "");
	bad = LLVMBuildICmp(g->b, LLVMIntUGT, LLVMBuildSub(g->b, addr, vsplat(g, base, g->v64), ""),
			    vsplat(g, LLVMBuildSub(g->b, lim, k64(g, len), ""), g->v64), "");
	bad = LLVMBuildOr(g->b, bad, LLVMBuildICmp(g->b, LLVMIntNE,
			  LLVMBuildAnd(g->b, addr, splat64(g, len - 1), ""),
			  splat64(g, 0), ""), "");
	ok = LLVMBuildICmp(g->b, LLVMIntEQ, LLVMBuildAnd(g->b, mask_of(g, bad), em, ""),
			   k32(g, 0), "");
	ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntUGE, end, base, ""), "");
	ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntUGE, lim, k64(g, len), ""), "");
	if (writable)
		ok = LLVMBuildAnd(g->b, ok, writable, "");
	LLVMBuildCondBr(g->b, ok, bany, slow);

	LLVMPositionBuilderAtEnd(g->b, bseq);
	p = LLVMBuildIntToPtr(g->b, LLVMBuildAdd(g->b, a0, off, ""), g->ptr, "");
	vs[0] = line_move(g, in, p, em, v);
	bs[0] = LLVMGetInsertBlock(g->b);
	LLVMBuildBr(g->b, done);

	LLVMPositionBuilderAtEnd(g->b, bany);
	p = LLVMBuildIntToPtr(g->b, LLVMBuildAdd(g->b, addr, vsplat(g, off, g->v64), ""),
			      g->vptr, "");
	vs[1] = masked_access(g, v, p, g->vptr, vt, len, vm, "llvm.masked.scatter",
			      "llvm.masked.gather");
	bs[1] = LLVMGetInsertBlock(g->b);
	LLVMBuildBr(g->b, done);

	moved(g, in, em, vs, bs, !v, done, next);
}

/*
 * Whether shared access @in goes through shared_narrow(): its address
 * is a narrow register plus an offset below 2^31.
 */
static bool narrow_shared(const struct irb *g, const struct vgpu_insn *in)
{
	return in->mod == VGPU_SPACE_SHARED && in->a != VGPU_NO_REG && g->narrow[in->a] &&
	       in->imm < (1ULL << 31);
}

/*
 * A load whose warp reads two rows of 16 lanes (a 2-D block 16 threads
 * wide, as tiled code has it): lanes 16-31 at lanes 0-15's addresses
 * moved on by some distance, and lanes 0-15 at consecutive elements, or
 * all at one (a tile read down its column, or along its row). Then two
 * vector loads of 16, or two loads of one element, take the place of a
 * gather. For a load through shared_narrow() of every lane (@r its
 * indices, every one in range; @sh the host address of index 0), in
 * 32-bit lanes; anything else gathers (@vt), from @p. The value.
 */
static LLVMValueRef rows_or_gather(struct irb *g, const struct vgpu_insn *in, LLVMValueRef em,
				   LLVMValueRef r, LLVMValueRef sh, LLVMValueRef p, LLVMTypeRef vt)
{
	enum { HALF = VGPU_WARP / 2 };
	LLVMBuilderRef B = g->b;
	u32 len = vgpu_type_bits(in->type) / 8, i, k;
	LLVMTypeRef et = mem_type(g, in->type), ht = LLVMVectorType(et, HALF);
	LLVMValueRef iota[VGPU_WARP], high[VGPU_WARP], cat[VGPU_WARP], r0, r16, st, step, want;
	LLVMValueRef two, rows, v[3], h[2], phi;
	LLVMBasicBlockRef brow = newblock(g, "rows"), bline = newblock(g, "row_lines");
	LLVMBasicBlockRef bone = newblock(g, "row_each");
	LLVMBasicBlockRef bgat = newblock(g, "gather"), join = newblock(g, "got"), from[3];

	for (i = 0; i < VGPU_WARP; i++) {
		iota[i] = k32(g, (i % HALF) * len);
		high[i] = k32(g, i < HALF ? 0 : ~0U);
		cat[i] = k32(g, i);
	}
	r0 = LLVMBuildExtractElement(B, r, k32(g, 0), "");
	r16 = LLVMBuildExtractElement(B, r, k32(g, HALF), "");
	st = LLVMBuildSub(B, LLVMBuildExtractElement(B, r, k32(g, 1), ""), r0, "");
	step = LLVMBuildSelect(B, LLVMBuildICmp(B, LLVMIntEQ, st, k32(g, 0), ""),
			       LLVMConstNull(g->v32), LLVMConstVector(iota, VGPU_WARP), "");
	want = LLVMBuildAdd(B, vsplat(g, r0, g->v32), step, "");
	want = LLVMBuildAdd(B, want, LLVMBuildAnd(B, LLVMConstVector(high, VGPU_WARP),
			    vsplat(g, LLVMBuildSub(B, r16, r0, ""), g->v32), ""), "");
	two = LLVMBuildICmp(B, LLVMIntEQ, mask_of(g, LLVMBuildICmp(B, LLVMIntEQ, want, r, "")),
			    k32(g, ~0U), "");
	two = LLVMBuildAnd(B, two, LLVMBuildICmp(B, LLVMIntEQ, em, k32(g, ~0U), ""), "");
	rows = LLVMBuildICmp(B, LLVMIntEQ, st, k32(g, len), "");
	two = LLVMBuildAnd(B, two, LLVMBuildOr(B, rows, LLVMBuildICmp(B, LLVMIntEQ, st, k32(g, 0),
			   ""), ""), "");
	LLVMBuildCondBr(B, two, brow, bgat);

	/*
	 * Two rows: 16 consecutive elements each, or one element each
	 * (the rows' other addresses are no lane's, so are not read).
	 */
	LLVMPositionBuilderAtEnd(B, brow);
	LLVMBuildCondBr(B, rows, bline, bone);
	for (k = 0; k < 2; k++) {
		LLVMPositionBuilderAtEnd(B, k ? bone : bline);
		for (i = 0; i < 2; i++) {
			LLVMValueRef at = LLVMBuildGEP2(B, g->i8, sh, (LLVMValueRef[]){
					  LLVMBuildZExt(B, i ? r16 : r0, g->i64, "") }, 1, "");

			h[i] = LLVMBuildLoad2(B, k ? et : ht, at, "");
			LLVMSetAlignment(h[i], len);
			if (k) {
				h[i] = LLVMBuildInsertElement(B, LLVMGetUndef(ht), h[i],
							      k32(g, 0), "");
				h[i] = LLVMBuildShuffleVector(B, h[i], LLVMGetUndef(ht),
						LLVMConstNull(LLVMVectorType(g->i32, HALF)), "");
			}
		}
		v[k] = LLVMBuildShuffleVector(B, h[0], h[1], LLVMConstVector(cat, VGPU_WARP), "");
		from[k] = k ? bone : bline;
		LLVMBuildBr(B, join);
	}

	LLVMPositionBuilderAtEnd(B, bgat);
	v[2] = masked_access(g, NULL, p, g->vptr, vt, len, lanes(g, em), "llvm.masked.scatter",
			     "llvm.masked.gather");
	from[2] = LLVMGetInsertBlock(B);
	LLVMBuildBr(B, join);

	LLVMPositionBuilderAtEnd(B, join);
	phi = LLVMBuildPhi(B, vt, "");
	LLVMAddIncoming(phi, v, from, 3);
	return phi;
}

/*
 * checked_access() for a shared access through a narrow register r and
 * offset s (narrow_shared()), in 32-bit lanes: half the vector work of
 * 64-bit addresses, and a gather or scatter that takes 16 lanes an
 * instruction, not 8. It is exact: a lane's address r + s does not wrap,
 * and is in range when r <= shared_bytes - len - s, a bound below 2^31
 * (else the lanes go the slow way), so the lanes' indices are the same
 * taken as signed, as a gather takes them.
 */
static void shared_narrow(struct irb *g, const struct vgpu_insn *in, LLVMValueRef em,
			  u32 len, LLVMBasicBlockRef next, LLVMBasicBlockRef slow)
{
	LLVMBuilderRef B = g->b;
	LLVMTypeRef vt = LLVMVectorType(mem_type(g, in->type), VGPU_WARP);
	LLVMValueRef r = slotval(g, in->a), vm = lanes(g, em), v = NULL, vs[2], steps[VGPU_WARP];
	LLVMValueRef end = bload(g, g->i64, offsetof(struct nrt_block, shared_bytes));
	LLVMValueRef sh = bload(g, g->ptr, offsetof(struct nrt_block, shared));
	LLVMValueRef hi, some, r0, seq, quick, qhi, bad, ok, p;
	LLVMBasicBlockRef full = newblock(g, "span"), bseq = newblock(g, "seq");
	LLVMBasicBlockRef bany = newblock(g, "gather"), done = newblock(g, "done"), bs[2];
	u32 off = (u32)in->imm, i;

	sh = LLVMBuildGEP2(B, g->i8, sh, (LLVMValueRef[]){ k64(g, off) }, 1, "");
	/* The highest r in range, or none (negative, or 2^31 and above). */
	hi = LLVMBuildSub(B, end, k64(g, (u64)len + off), "");
	some = LLVMBuildICmp(B, LLVMIntULT, hi, k64(g, 1ULL << 31), "");
	/* The vector path: consecutive from an aligned lane 0, all 32 in range. */
	r0 = LLVMBuildExtractElement(B, r, k32(g, 0), "");
	for (i = 0; i < VGPU_WARP; i++)
		steps[i] = k32(g, i * len);
	seq = LLVMBuildAdd(B, vsplat(g, r0, g->v32), LLVMConstVector(steps, VGPU_WARP), "");
	seq = mask_of(g, LLVMBuildICmp(B, LLVMIntEQ, seq, r, ""));
	seq = LLVMBuildOr(B, seq, LLVMBuildNot(B, em, ""), "");
	qhi = LLVMBuildSub(B, hi, k64(g, (u64)(VGPU_WARP - 1) * len), "");
	quick = LLVMBuildICmp(B, LLVMIntEQ, seq, k32(g, ~0U), "");
	quick = LLVMBuildAnd(B, quick, LLVMBuildTrunc(B, em, g->i1, ""), "");
	quick = LLVMBuildAnd(B, quick, LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B,
			     LLVMBuildAdd(B, r0, k32(g, off), ""), k32(g, len - 1), ""),
			     k32(g, 0), ""), "");
	quick = LLVMBuildAnd(B, quick, LLVMBuildICmp(B, LLVMIntULT, qhi, k64(g, 1ULL << 31), ""),
			     "");
	quick = LLVMBuildAnd(B, quick, LLVMBuildICmp(B, LLVMIntULE, LLVMBuildZExt(B, r0, g->i64,
			     ""), qhi, ""), "");
	if (in->op == VGPU_OP_ST)
		v = LLVMBuildTrunc(B, opb(g, in), vt, "");
	LLVMBuildCondBr(B, quick, bseq, full);

	/* Every active lane in range and aligned. */
	LLVMPositionBuilderAtEnd(B, full);
	bad = LLVMBuildICmp(B, LLVMIntUGT, r, vsplat(g, LLVMBuildTrunc(B, hi, g->i32, ""), g->v32),
			    "");
	bad = LLVMBuildOr(B, bad, LLVMBuildICmp(B, LLVMIntNE, LLVMBuildAnd(B,
			  LLVMBuildAdd(B, r, splat32(g, off), ""), splat32(g, len - 1), ""),
			  splat32(g, 0), ""), "");
	ok = LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, mask_of(g, bad), em, ""), k32(g, 0), "");
	LLVMBuildCondBr(B, LLVMBuildAnd(B, ok, some, ""), bany, slow);

	LLVMPositionBuilderAtEnd(B, bseq);
	p = LLVMBuildGEP2(B, g->i8, sh, (LLVMValueRef[]){ LLVMBuildZExt(B, r0, g->i64, "") }, 1,
			  "");
	vs[0] = line_move(g, in, p, em, v);
	bs[0] = LLVMGetInsertBlock(B);
	LLVMBuildBr(B, done);

	LLVMPositionBuilderAtEnd(B, bany);
	p = LLVMBuildGEP2(B, g->i8, sh, &r, 1, "");
	if (v)
		vs[1] = masked_access(g, v, p, g->vptr, vt, len, vm, "llvm.masked.scatter",
				      "llvm.masked.gather");
	else
		vs[1] = rows_or_gather(g, in, em, r, sh, p, vt);
	bs[1] = LLVMGetInsertBlock(B);
	LLVMBuildBr(B, done);

	moved(g, in, em, vs, bs, !v, done, next);
}

/* The lanes' addresses: register a plus the offset, or the offset. */
static LLVMValueRef addresses(struct irb *g, const struct vgpu_insn *in)
{
	if (in->a == VGPU_NO_REG)
		return splat64(g, in->imm);
	return LLVMBuildAdd(g->b, getreg(g, in->a), splat64(g, in->imm), "");
}

/* The range instruction @pc's global access last hit (struct nrt_site). */
static void site_of(struct irb *g, u32 pc, bool write, LLVMValueRef *base,
		    LLVMValueRef *end, LLVMValueRef *wr, LLVMValueRef *off)
{
	LLVMValueRef site = at(g, bload(g, g->ptr, offsetof(struct nrt_block, sites)),
			       k64(g, (u64)pc * sizeof(struct nrt_site)));

	*end = LLVMBuildLoad2(g->b, g->i64, at(g, site, k64(g, offsetof(struct nrt_site, end))),
			      "");
	*base = LLVMBuildLoad2(g->b, g->i64, at(g, site, k64(g, offsetof(struct nrt_site, va))),
			       "");
	*wr = NULL;
	if (write)
		*wr = LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildLoad2(g->b, g->i64,
				    at(g, site, k64(g, offsetof(struct nrt_site, writable))),
				    ""), k64(g, 0), "");
	*off = LLVMBuildLoad2(g->b, g->i64, at(g, site, k64(g, offsetof(struct nrt_site, delta))),
			      "");
}

/*
 * The access's checked paths as nrt_ir_emit_mem() builds them, on to
 * @next, or to @slow (the lanes through nrt_mem()); the builder ends in
 * @slow.
 */
static LLVMBasicBlockRef fast_paths(struct irb *g, u32 pc, const struct vgpu_insn *in,
				    LLVMValueRef em, LLVMBasicBlockRef next, LLVMBasicBlockRef slow)
{
	u32 len = vgpu_type_bits(in->type) / 8;
	LLVMValueRef base, end, wr, off;
	LLVMBasicBlockRef done = NULL;

	if (in->mod == VGPU_SPACE_GLOBAL || in->mod == VGPU_SPACE_GENERIC) {
		site_of(g, pc, in->op == VGPU_OP_ST, &base, &end, &wr, &off);
		checked_access(g, in, addresses(g, in), em, len, base, end, wr, off, next, slow);
		done = LLVMGetInsertBlock(g->b);
	} else if (narrow_shared(g, in)) {
		shared_narrow(g, in, em, len, next, slow);
		done = LLVMGetInsertBlock(g->b);
	} else if (in->mod == VGPU_SPACE_SHARED) {
		end = bload(g, g->i64, offsetof(struct nrt_block, shared_bytes));
		off = LLVMBuildPtrToInt(g->b, bload(g, g->ptr, offsetof(struct nrt_block, shared)),
					g->i64, "");
		checked_access(g, in, addresses(g, in), em, len, k64(g, 0), end, NULL, off, next,
			       slow);
		done = LLVMGetInsertBlock(g->b);
	} else {
		LLVMBuildBr(g->b, slow);
	}
	LLVMPositionBuilderAtEnd(g->b, slow);
	return done;
}

/* The lanes @em of the access through nrt_mem(); on at @got, or a fault. */
static void slow_path(struct irb *g, u32 pc, const struct vgpu_insn *in, LLVMValueRef em,
		      LLVMBasicBlockRef got)
{
	LLVMValueRef addr = addresses(g, in);
	LLVMBasicBlockRef bad = newblock(g, "bad");
	LLVMValueRef args[2] = { g->w, em }, r;

	wstore(g, addr, offsetof(struct nrt_warp, scratch_a));
	if (in->op == VGPU_OP_ST)
		wstore(g, opb(g, in), offsetof(struct nrt_warp, scratch_v));
	sync_out(g, pc);
	r = call(g, (void *)nrt_mem, g->i32, args, 2);
	/* nrt_mem() leaves the group as it was: on, or the fault. */
	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, r, k32(g, NRT_GO_ON), ""),
			got, bad);
	LLVMPositionBuilderAtEnd(g->b, bad);
	ret_with(g, VGPU_RUN_FAULT);
	LLVMPositionBuilderAtEnd(g->b, got);
}

void nrt_ir_emit_mem_ssa(struct irb *g, u32 pc, const struct vgpu_insn *in,
			 LLVMValueRef em, LLVMBasicBlockRef next)
{
	bool load = in->op == VGPU_OP_LD;
	LLVMBasicBlockRef fast = newblock(g, "fast"), slow = newblock(g, "slow");
	LLVMBasicBlockRef got = newblock(g, "got"), none = LLVMGetInsertBlock(g->b);
	LLVMValueRef old = load ? slotval(g, in->dst) : NULL, vals[3];
	LLVMBasicBlockRef from[3];
	unsigned int n = 1;

	LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, em, k32(g, 0), ""), next, fast);
	LLVMPositionBuilderAtEnd(g->b, fast);
	vals[0] = old;
	from[0] = none;
	/* checked_access() set the register on its way to @next. */
	from[n] = fast_paths(g, pc, in, em, next, slow);
	if (from[n] && load) {
		vals[n++] = g->cache[in->dst];
		g->cache[in->dst] = old;
	}
	slow_path(g, pc, in, em, got);
	if (load)
		setreg(g, in->dst, wload(g, g->v64, offsetof(struct nrt_warp, scratch_v)), load_mask(g, in, em));
	vals[n] = load ? g->cache[in->dst] : NULL;
	from[n++] = LLVMGetInsertBlock(g->b);
	LLVMBuildBr(g->b, next);
	LLVMPositionBuilderAtEnd(g->b, next);
	if (!load)
		return;
	g->cache[in->dst] = LLVMBuildPhi(g->b, LLVMTypeOf(old), "");
	LLVMAddIncoming(g->cache[in->dst], vals, from, n);
}

void nrt_ir_emit_mem(struct irb *g, u32 pc, const struct vgpu_insn *in,
		     LLVMValueRef em)
{
	bool write = in->op == VGPU_OP_ST;
	LLVMBasicBlockRef next = g->chk[pc + 1], slow, got;
	bool on;

	if (nrt_param_direct(g->k, in)) {
		/*
		 * One value for the whole warp, in bounds by construction: no
		 * lane can fault, so it needs no test for lanes at all (the
		 * write keeps idle lanes), and the register's new value is
		 * there for the next instruction on every path.
		 */
		LLVMValueRef l = bload(g, g->ptr, offsetof(struct nrt_block, l)), p, v;

		p = LLVMBuildLoad2(g->b, g->ptr, at(g, l, k64(g,
				   offsetof(struct vgpu_launch, params))), "");
		v = LLVMBuildLoad2(g->b, mem_type(g, in->type), at(g, p, k64(g, in->imm)), "");
		LLVMSetAlignment(v, 1);
		v = vsplat(g, v, LLVMVectorType(mem_type(g, in->type), VGPU_WARP));
		setreg(g, in->dst, load_ext(g, v, in->type), em);
		LLVMBuildBr(g->b, next);
		return;
	}
	/*
	 * The result is stored on every path that writes it (the kept value
	 * of the register first: one path writes nothing); the other kept
	 * values, defined before, reach every path out.
	 */
	if (!write && g->cache[in->dst]) {
		storereg(g, in->dst, g->cache[in->dst]);
		g->cache[in->dst] = NULL;
	}
	on = g->cache_on;
	g->cache_on = false;
	unless_none(g, em, next);
	slow = newblock(g, "slow");
	got = newblock(g, "got");
	fast_paths(g, pc, in, em, next, slow);
	slow_path(g, pc, in, em, got);
	if (!write)
		setreg(g, in->dst, wload(g, g->v64, offsetof(struct nrt_warp, scratch_v)), em);
	LLVMBuildBr(g->b, next);
	g->cache_on = on;
}


/*
 * Whether the elements at @a (a step of the element's size, from an
 * aligned base) for @span bytes lie in [@base, @end) (for a store, with
 * @wr nonzero).
 */
static LLVMValueRef spans(struct irb *g, const struct nrt_aff *a, u32 len, LLVMValueRef span,
			  LLVMValueRef base, LLVMValueRef end, LLVMValueRef wr)
{
	LLVMBuilderRef B = g->b;
	LLVMValueRef r;

	r = LLVMBuildICmp(B, LLVMIntEQ, a->step, k64(g, len), "");
	r = LLVMBuildAnd(B, r, LLVMBuildICmp(B, LLVMIntEQ, LLVMBuildAnd(B, a->base, k64(g, len - 1),
			 ""), k64(g, 0), ""), "");
	r = LLVMBuildAnd(B, r, LLVMBuildICmp(B, LLVMIntUGE, a->base, base, ""), "");
	r = LLVMBuildAnd(B, r, LLVMBuildICmp(B, LLVMIntULT, a->base, end, ""), "");
	r = LLVMBuildAnd(B, r, LLVMBuildICmp(B, LLVMIntUGE, LLVMBuildSub(B, end, a->base, ""),
			 span, ""), "");
	return wr ? LLVMBuildAnd(B, r, wr, "") : r;
}

/*
 * The warp's 32 elements at @a moved as one vector, at host offset @off
 * (the lanes @em): a load's value is what its register holds after.
 */
static void line_at(struct irb *g, const struct vgpu_insn *in, LLVMValueRef em,
		    const struct nrt_aff *a, LLVMValueRef off)
{
	LLVMTypeRef vt = LLVMVectorType(mem_type(g, in->type), VGPU_WARP);
	LLVMBuilderRef B = g->b;
	LLVMValueRef v = NULL, r;

	if (in->op != VGPU_OP_LD)
		v = LLVMBuildTrunc(B, opb(g, in), vt, "");
	r = line_move(g, in, LLVMBuildIntToPtr(B, LLVMBuildAdd(B, a->base, off, ""), g->ptr, ""),
		      em, v);
	if (in->op == VGPU_OP_LD)
		setreg(g, in->dst, load_ext(g, r, in->type), load_mask(g, in, em));
}

/*
 * When @quick, the warp's 32 elements at @a move as one vector (host
 * offset @off); else the access as nrt_ir_emit_mem_line() builds it; the
 * builder ends at @next.
 */
static void line_or(struct irb *g, u32 pc, const struct vgpu_insn *in, LLVMValueRef em,
		    const struct nrt_aff *a, LLVMValueRef quick, LLVMValueRef off,
		    LLVMBasicBlockRef next)
{
	bool load = in->op == VGPU_OP_LD;
	LLVMBasicBlockRef one = newblock(g, "line"), other = newblock(g, "other");
	LLVMBasicBlockRef back = newblock(g, "back"), from[2];
	LLVMValueRef old = load ? slotval(g, in->dst) : NULL, vals[2];
	LLVMBuilderRef B = g->b;

	LLVMBuildCondBr(B, quick, one, other);
	LLVMPositionBuilderAtEnd(B, one);
	line_at(g, in, em, a, off);
	if (load) {
		vals[0] = g->cache[in->dst];
		g->cache[in->dst] = old;
	}
	from[0] = LLVMGetInsertBlock(B);
	LLVMBuildBr(B, next);

	/* Any other shape, range or fault: the general path. */
	LLVMPositionBuilderAtEnd(B, other);
	nrt_ir_emit_mem_ssa(g, pc, in, em, back);
	vals[1] = load ? g->cache[in->dst] : NULL;
	from[1] = back;
	LLVMBuildBr(B, next);
	LLVMPositionBuilderAtEnd(B, next);
	if (!load)
		return;
	g->cache[in->dst] = LLVMBuildPhi(B, LLVMTypeOf(old), "");
	LLVMAddIncoming(g->cache[in->dst], vals, from, 2);
}

void nrt_ir_emit_mem_line(struct irb *g, u32 pc, const struct vgpu_insn *in,
			  LLVMValueRef em, const struct nrt_aff *a, LLVMBasicBlockRef next)
{
	u32 len = vgpu_type_bits(in->type) / 8;
	LLVMValueRef base, end, wr, off, quick;

	if (in->mod != VGPU_SPACE_GLOBAL && in->mod != VGPU_SPACE_GENERIC) {
		nrt_ir_emit_mem_ssa(g, pc, in, em, next);
		return;
	}
	site_of(g, pc, in->op == VGPU_OP_ST, &base, &end, &wr, &off);
	quick = spans(g, a, len, k64(g, (u64)VGPU_WARP * len), base, end, wr);
	quick = LLVMBuildAnd(g->b, quick, LLVMBuildICmp(g->b, LLVMIntNE, em, k32(g, 0), ""), "");
	line_or(g, pc, in, em, a, quick, off, next);
}

LLVMValueRef nrt_ir_block_fits(struct irb *g, u32 pc, const struct vgpu_insn *in,
			       const struct nrt_aff *a, LLVMValueRef threads, LLVMValueRef *off)
{
	u32 len = vgpu_type_bits(in->type) / 8;
	LLVMValueRef base, end, wr;

	*off = NULL;
	if (in->mod != VGPU_SPACE_GLOBAL && in->mod != VGPU_SPACE_GENERIC)
		return LLVMConstInt(g->i1, 0, false);
	site_of(g, pc, in->op == VGPU_OP_ST, &base, &end, &wr, off);
	return spans(g, a, len, LLVMBuildMul(g->b, threads, k64(g, len), ""), base, end, wr);
}

void nrt_ir_emit_mem_fits(struct irb *g, u32 pc, const struct vgpu_insn *in, LLVMValueRef em,
			  const struct nrt_aff *a, LLVMValueRef off, LLVMBasicBlockRef next)
{
	if (!off) {
		nrt_ir_emit_mem_line(g, pc, in, em, a, next);
		return;
	}
	/* No lane of @em faults: a vector move of no lanes moves nothing. */
	line_at(g, in, em, a, off);
	LLVMBuildBr(g->b, next);
}
