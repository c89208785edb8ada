// SPDX-License-Identifier: MIT
/*
 * The IR of loads and stores. A warp's access is checked whole against the
 * range its instruction last hit (global) or the block's shared memory:
 * every active lane's address in it and aligned; then one vector moves
 * when the lanes are at consecutive elements, a gather or scatter when
 * not. Anything else (another range, local, constant and parameter
 * memory by register, every fault) goes lane by lane through nrt_mem(),
 * which reports faults as the interpreter does.
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
 * Lanes @em, addresses @addr: in [@lo_ok, @end) and aligned to @len? An
 * i1 for the fast path.
 */
static LLVMValueRef span_ok(struct irb *g, LLVMValueRef addr, LLVMValueRef em,
			    u32 len, LLVMValueRef base, LLVMValueRef end)
{
	LLVMValueRef vm = lanes(g, em), a0, seq, quick, lo, hi, any, ok, phi;
	LLVMBasicBlockRef here, full = newblock(g, "span"), join = newblock(g, "spanned");
	LLVMValueRef steps[VGPU_WARP], vals[2];
	LLVMBasicBlockRef from[2];
	int i;

	/*
	 * The common case first, without reductions: the lanes at
	 * consecutive elements from an aligned lane 0, all 32 in range.
	 */
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
			     LLVMBuildSub(g->b, end, a0, ""), k64(g, (u64)VGPU_WARP * len), ""), "");
	here = LLVMGetInsertBlock(g->b);
	LLVMBuildCondBr(g->b, quick, join, full);

	LLVMPositionBuilderAtEnd(g->b, full);
	lo = reduce(g, "llvm.vector.reduce.umin",
		    LLVMBuildSelect(g->b, vm, addr, splat64(g, ~0ULL), ""));
	hi = reduce(g, "llvm.vector.reduce.umax",
		    LLVMBuildSelect(g->b, vm, addr, splat64(g, 0), ""));
	any = reduce(g, "llvm.vector.reduce.or",
		     LLVMBuildSelect(g->b, vm, addr, splat64(g, 0), ""));
	ok = LLVMBuildICmp(g->b, LLVMIntEQ,
			   LLVMBuildAnd(g->b, any, k64(g, len - 1), ""), k64(g, 0), "");
	ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntUGE, lo, base, ""), "");
	ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntULT, hi, end, ""), "");
	ok = LLVMBuildAnd(g->b, ok, LLVMBuildICmp(g->b, LLVMIntULE,
			  LLVMBuildAdd(g->b, hi, k64(g, len), ""), end, ""), "");
	LLVMBuildBr(g->b, join);

	LLVMPositionBuilderAtEnd(g->b, join);
	phi = LLVMBuildPhi(g->b, g->i1, "");
	vals[0] = LLVMConstInt(g->i1, 1, false);
	vals[1] = ok;
	from[0] = here;
	from[1] = full;
	LLVMAddIncoming(phi, vals, from, 2);
	return phi;
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
 * The fast access: host addresses @haddr (<32 x i64>) for lanes @em. A
 * warp whose lanes are at consecutive elements moves one vector; others
 * gather or scatter (which keep the lanes' order where they collide).
 */
static void fast_access(struct irb *g, const struct vgpu_insn *in,
			LLVMValueRef haddr, LLVMValueRef em, u32 len)
{
	LLVMTypeRef et = mem_type(g, in->type), vt = LLVMVectorType(et, VGPU_WARP);
	LLVMValueRef vm = lanes(g, em), ptrs, v = NULL;
	LLVMValueRef a0 = LLVMBuildExtractElement(g->b, haddr, k32(g, 0), "");
	LLVMValueRef steps[VGPU_WARP], seq, same, p0;
	LLVMBasicBlockRef bseq = newblock(g, "seq"), bany = newblock(g, "gather");
	LLVMBasicBlockRef done = newblock(g, "done");
	LLVMValueRef vs[2];
	LLVMBasicBlockRef bs[2];
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
	vs[0] = masked_access(g, v, p0, g->ptr, vt, len, vm, "llvm.masked.store",
			      "llvm.masked.load");
	bs[0] = LLVMGetInsertBlock(g->b);
	LLVMBuildBr(g->b, done);

	LLVMPositionBuilderAtEnd(g->b, bany);
	ptrs = LLVMBuildIntToPtr(g->b, haddr, g->vptr, "");
	vs[1] = masked_access(g, v, ptrs, g->vptr, vt, len, vm, "llvm.masked.scatter",
			      "llvm.masked.gather");
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

void nrt_ir_emit_mem(struct irb *g, u32 pc, const struct vgpu_insn *in,
		     LLVMValueRef em)
{
	u32 len = vgpu_type_bits(in->type) / 8;
	bool write = in->op == VGPU_OP_ST;
	LLVMBasicBlockRef fast = newblock(g, "fast"), slow = newblock(g, "slow");
	LLVMBasicBlockRef next = g->chk[pc + 1];
	LLVMValueRef addr, ok, base, args[2], r, off;

	unless_none(g, em, next);
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

