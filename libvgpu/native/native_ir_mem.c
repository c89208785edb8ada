// SPDX-License-Identifier: MIT
/*
 * The IR of loads and stores. A warp's access is checked whole against the
 * range its instruction last hit (global) or the block's shared memory:
 * every active lane's address in it and aligned. Lanes at consecutive
 * elements from lane 0 with all 32 in range, the common case, need no
 * reductions to check and move as one vector (a load reads it whole when
 * every lane is active, or from shared memory, as masked loads are slow
 * on some hosts); others gather or scatter. Anything else (another
 * range, local, constant and parameter memory by register, every fault)
 * goes lane by lane through nrt_mem(), which reports faults as the
 * interpreter does.
 */
#include "native_irb.h"

static LLVMTypeRef mem_type(struct irb *g, u8 t)
{
	return LLVMIntTypeInContext(g->c, vgpu_type_bits(t));
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
	if (v) {
		vs[0] = masked_access(g, v, p, g->ptr, vt, len, vm, "llvm.masked.store",
				      "llvm.masked.load");
	} else if (in->mod == VGPU_SPACE_SHARED) {
		/* The block's own memory, all 32 elements in it: read whole. */
		vs[0] = LLVMBuildLoad2(g->b, vt, p, "");
		LLVMSetAlignment(vs[0], len);
	} else {
		/*
		 * Read whole when every lane is active (a masked load is slow on
		 * some hosts); else only the active lanes' elements are touched.
		 */
		LLVMBasicBlockRef whole = newblock(g, "whole"), part = newblock(g, "part");
		LLVMBasicBlockRef join = newblock(g, "read");
		LLVMValueRef wv[2];
		LLVMBasicBlockRef wb[2] = { whole, part };

		LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, em, k32(g, ~0U), ""),
				whole, part);
		LLVMPositionBuilderAtEnd(g->b, whole);
		wv[0] = LLVMBuildLoad2(g->b, vt, p, "");
		LLVMSetAlignment(wv[0], len);
		LLVMBuildBr(g->b, join);
		LLVMPositionBuilderAtEnd(g->b, part);
		wv[1] = masked_access(g, NULL, p, g->ptr, vt, len, vm, "llvm.masked.store",
				      "llvm.masked.load");
		LLVMBuildBr(g->b, join);
		LLVMPositionBuilderAtEnd(g->b, join);
		vs[0] = LLVMBuildPhi(g->b, vt, "");
		LLVMAddIncoming(vs[0], wv, wb, 2);
	}
	bs[0] = LLVMGetInsertBlock(g->b);
	LLVMBuildBr(g->b, done);

	LLVMPositionBuilderAtEnd(g->b, bany);
	p = LLVMBuildIntToPtr(g->b, LLVMBuildAdd(g->b, addr, vsplat(g, off, g->v64), ""),
			      g->vptr, "");
	vs[1] = masked_access(g, v, p, g->vptr, vt, len, vm, "llvm.masked.scatter",
			      "llvm.masked.gather");
	bs[1] = LLVMGetInsertBlock(g->b);
	LLVMBuildBr(g->b, done);

	LLVMPositionBuilderAtEnd(g->b, done);
	if (!v) {
		LLVMValueRef phi = LLVMBuildPhi(g->b, vt, "");

		LLVMAddIncoming(phi, vs, bs, 2);
		setreg(g, in->dst, load_ext(g, phi, in->type), em);
	}
	LLVMBuildBr(g->b, next);
}

/* The lanes' addresses: register a plus the offset, or the offset. */
static LLVMValueRef addresses(struct irb *g, const struct vgpu_insn *in)
{
	if (in->a == VGPU_NO_REG)
		return splat64(g, in->imm);
	return LLVMBuildAdd(g->b, getreg(g, in->a), splat64(g, in->imm), "");
}

void nrt_ir_emit_mem(struct irb *g, u32 pc, const struct vgpu_insn *in,
		     LLVMValueRef em)
{
	u32 len = vgpu_type_bits(in->type) / 8;
	bool write = in->op == VGPU_OP_ST;
	LLVMBasicBlockRef slow = newblock(g, "slow");
	LLVMBasicBlockRef next = g->chk[pc + 1];
	LLVMValueRef addr, base, args[2], r, off;
	bool on;

	if (in->mod == VGPU_SPACE_PARAM && in->a == VGPU_NO_REG && !write &&
	    !(in->imm & (len - 1)) && in->imm < g->k->func.param_bytes &&
	    len <= g->k->func.param_bytes - in->imm) {
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
		LLVMDeleteBasicBlock(slow);
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
	addr = addresses(g, in);
	if (in->mod == VGPU_SPACE_GLOBAL || in->mod == VGPU_SPACE_GENERIC) {
		LLVMValueRef site = at(g, bload(g, g->ptr, offsetof(struct nrt_block, sites)),
				       k64(g, (u64)pc * sizeof(struct nrt_site)));
		LLVMValueRef end = LLVMBuildLoad2(g->b, g->i64, at(g, site,
				   k64(g, offsetof(struct nrt_site, end))), "");
		LLVMValueRef wr = NULL;

		base = LLVMBuildLoad2(g->b, g->i64, at(g, site,
				      k64(g, offsetof(struct nrt_site, va))), "");
		if (write)
			wr = LLVMBuildICmp(g->b, LLVMIntNE, LLVMBuildLoad2(g->b, g->i64,
					   at(g, site, k64(g, offsetof(struct nrt_site, writable))),
					   ""), k64(g, 0), "");
		off = LLVMBuildLoad2(g->b, g->i64, at(g, site,
				     k64(g, offsetof(struct nrt_site, delta))), "");
		checked_access(g, in, addr, em, len, base, end, wr, off, next, slow);
	} else if (in->mod == VGPU_SPACE_SHARED) {
		LLVMValueRef end = bload(g, g->i64, offsetof(struct nrt_block, shared_bytes));

		off = LLVMBuildPtrToInt(g->b, bload(g, g->ptr, offsetof(struct nrt_block, shared)),
					g->i64, "");
		checked_access(g, in, addr, em, len, k64(g, 0), end, NULL, off, next, slow);
	} else {
		LLVMBuildBr(g->b, slow);
	}

	LLVMPositionBuilderAtEnd(g->b, slow);
	wstore(g, addr, offsetof(struct nrt_warp, scratch_a));
	if (write)
		wstore(g, opb(g, in), offsetof(struct nrt_warp, scratch_v));
	sync_out(g, pc);
	args[0] = g->w;
	args[1] = em;
	r = call(g, (void *)nrt_mem, g->i32, args, 2);
	{
		/* nrt_mem() leaves the group as it was: on, or the fault. */
		LLVMBasicBlockRef got = newblock(g, "got"), bad = newblock(g, "bad");

		LLVMBuildCondBr(g->b, LLVMBuildICmp(g->b, LLVMIntEQ, r,
				k32(g, NRT_GO_ON), ""), got, bad);
		LLVMPositionBuilderAtEnd(g->b, got);
		if (!write)
			setreg(g, in->dst, wload(g, g->v64, offsetof(struct nrt_warp, scratch_v)),
			       em);
		LLVMBuildBr(g->b, next);
		LLVMPositionBuilderAtEnd(g->b, bad);
		ret_with(g, VGPU_RUN_FAULT);
	}
	g->cache_on = on;
}

