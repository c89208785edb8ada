// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The warp interpreter: runs one block of a launch, warp by warp, for a
 * budget of instructions at a time (the host ends its floating-point
 * section and reschedules between calls).
 *
 * Lanes have their own program counters. A warp runs the group of lanes
 * at one instruction; the group with the lowest counter goes first, so
 * lanes that split at a branch meet again where their paths join, and a
 * group that passes the waiting lanes' instruction takes them along. A
 * group that keeps looping while other lanes wait hands over after
 * VGPU_FAIR_LOOPS backward branches for VGPU_FAIR_HOLD of theirs, so
 * every path progresses (a lane spinning on a flag another lane sets
 * sees it set). Warps of a block take turns of VGPU_WARP_SLICE
 * instructions, for the same reason between warps; a turn whose count
 * has run ends at the next branch or change of group, never inside a
 * straight run, where the native engine does not count (its code checks
 * only where runs start).
 *
 * Floating point follows PTX: every rounding mode, f32 ftz and sat, and
 * NaN results as an H100 gives them. All of it is in fp.c, the one file
 * of the core that Kbuild builds with floating-point code generation;
 * this one has none, but the host holds the FPU around vgpu_block_run()
 * for fp.c's sake.
 */
#include "fp.h"
#include "group.h"
#include "intops.h"
#include "warpsync.h"
#include "tex.h"
#include "warp.h"

#define ALIGN16(x) (((x) + 15) & ~(u64)15)

static u32 vgpu_nthreads(const struct vgpu_launch *l)
{
	return l->block[0] * l->block[1] * l->block[2];
}

/**
 * vgpu_block_bytes() - the memory one block of @l needs, in one piece
 * aligned to 16 bytes. The caller has checked the launch's dimensions
 * against the device's limits (at most 1024 threads).
 */
u64 vgpu_block_bytes(const struct vgpu_launch *l)
{
	u64 nthreads = vgpu_nthreads(l), nwarps = (nthreads + 31) / 32;
	const struct vgpu_func *f = l->func;
	u64 n;

	n = ALIGN16(sizeof(struct vgpu_block) + nwarps * sizeof(struct vgpu_warp));
	n += nwarps * f->nregs * VGPU_WARP * sizeof(u64);
	n += ALIGN16(nwarps * f->nregs * sizeof(struct vgpu_aff));
	n += ALIGN16(nwarps * f->nregs);
	n += ALIGN16(nwarps * f->npreds * sizeof(u32));
	n += nwarps * VGPU_TEX_SLOTS * VGPU_WARP * sizeof(u32);
	n += ALIGN16((u64)f->shared_bytes + l->dyn_shared);
	n += ALIGN16(nthreads * f->local_bytes);
	if (l->prog->ninsns <= VGPU_QK_MAX_INSNS)
		n += ALIGN16(sizeof(struct vgpu_predecoded) + l->prog->ninsns);
	return n;
}

/*
 * Zeroes @n bytes at @p (8-byte aligned), a word a store, without the
 * library's memset: an emulated CPU runs a vector memset slowly, and
 * every block of a launch starts here. (The empty asm keeps compilers
 * from turning the loop back into a memset call.)
 */
static void vgpu_zero(void *p, u64 n)
{
	u64 *d = p;
	u8 *t;

	for (; n >= 32; n -= 32, d += 4) {
		d[0] = 0;
		d[1] = 0;
		d[2] = 0;
		d[3] = 0;
		asm volatile("" : : "r" (d) : "memory");
	}
	for (t = (u8 *)d; n; n--, t++) {
		*t = 0;
		asm volatile("" : : "r" (t) : "memory");
	}
}

/**
 * vgpu_block_start() - set up block @block_index (x fastest) of @l in @b,
 * which is vgpu_block_bytes(l) bytes.
 * @clear: zero the registers and memories too. They start undefined in
 * CUDA; the host asks for zeros when @b last held another launch's block
 * (whose values must not leak), and the next blocks of the same launch
 * skip the cost.
 */
void vgpu_block_start(struct vgpu_block *b, const struct vgpu_launch *l,
		      u32 block_index, bool clear)
{
	const struct vgpu_func *f = l->func;
	u32 nthreads = vgpu_nthreads(l), i;
	u64 head = ALIGN16(sizeof(*b) + ((nthreads + 31) / 32) *
			   sizeof(struct vgpu_warp));
	u8 *p;

	vgpu_zero(b, clear ? vgpu_block_bytes(l) : head);
	b->l = l;
	b->code = l->prog->insns;
	b->ctaid[0] = block_index % l->grid[0];
	b->ctaid[1] = block_index / l->grid[0] % l->grid[1];
	b->ctaid[2] = block_index / l->grid[0] / l->grid[1];
	b->nthreads = nthreads;
	b->nwarps = (nthreads + 31) / 32;
	b->live_warps = b->nwarps;
	b->nregs = f->nregs;
	/* A row of the block fills a warp's lanes evenly, or P is 32. */
	b->lane_ps = 5;
	if (l->block[0] < VGPU_WARP && !(l->block[0] & (l->block[0] - 1)))
		b->lane_ps = __builtin_ctz(l->block[0]);
	b->lane_pm = (1U << b->lane_ps) - 1;
	b->shared_bytes = f->shared_bytes + l->dyn_shared;
	b->local_bytes = f->local_bytes;
	p = (u8 *)b + ALIGN16(sizeof(*b) + b->nwarps * sizeof(struct vgpu_warp));
	for (i = 0; i < b->nwarps; i++) {
		struct vgpu_warp *w = &b->warps[i];

		w->regs = (u64 *)p;
		p += (u64)f->nregs * VGPU_WARP * sizeof(u64);
		vgpu_lanes_start(&w->ls, nthreads - i * 32, f->entry);
	}
	for (i = 0; i < b->nwarps; i++) {
		b->warps[i].aff = (struct vgpu_aff *)p;
		p += (u64)f->nregs * sizeof(struct vgpu_aff);
	}
	p = (u8 *)ALIGN16((unsigned long)p);
	/* Every block's registers start general (shape 0). */
	for (i = 0; i < b->nwarps; i++) {
		b->warps[i].shape = p;
		p += f->nregs;
	}
	vgpu_zero(b->warps[0].shape, p - b->warps[0].shape);
	p = (u8 *)ALIGN16((unsigned long)p);
	for (i = 0; i < b->nwarps; i++) {
		b->warps[i].preds = (u32 *)p;
		p += f->npreds * sizeof(u32);
	}
	vgpu_zero(b->warps[0].preds, p - (u8 *)b->warps[0].preds);
	p = (u8 *)ALIGN16((unsigned long)p);
	for (i = 0; i < b->nwarps; i++) {
		b->warps[i].tslots = (u32 *)p;
		p += VGPU_TEX_SLOTS * VGPU_WARP * sizeof(u32);
	}
	b->shared = p;
	p += ALIGN16(b->shared_bytes);
	b->local = p;
	p += ALIGN16((u64)nthreads * f->local_bytes);
	/*
	 * Past what @clear zeroes alone, the pre-decoded program stays
	 * from the launch's last block (vgpu_predecode() knows it).
	 */
	if (l->prog->ninsns <= VGPU_QK_MAX_INSNS) {
		b->quick = (struct vgpu_predecoded *)p;
		vgpu_predecode(b->quick, l);
	}
}

/*
 * Forgets the ranges the block looked up: the host calls this before a
 * slice, as memory may have been freed or mapped since the last one.
 */
void vgpu_block_flush_tlb(struct vgpu_block *b)
{
	unsigned int i;

	for (i = 0; i < VGPU_TLB; i++)
		b->tlb[i].size = 0;
}

const struct vgpu_fault *vgpu_block_fault(const struct vgpu_block *b)
{
	return &b->fault;
}

/* --- choosing the group a warp runs ------------------------------------ */

/* --- operands ------------------------------------------------------------ */

/* The lanes where the instruction's guard lets it run. */
static u32 vgpu_guard(const struct vgpu_warp *w, const struct vgpu_insn *in,
		      u32 mask)
{
	u32 p;

	if (in->guard == VGPU_PRED_NONE)
		return mask;
	p = w->preds[in->guard];
	return mask & (in->flags & VGPU_IF_GUARD_NOT ? ~p : p);
}

/* --- integer arithmetic -------------------------------------------------- */

/*
 * Integer SETP: both operands brought to a form where one unsigned 64-bit
 * comparison decides (the value's bits at the top, shifted left by @sh,
 * the sign bit flipped for signed types). Every lane is compared, without
 * branches (the registers of inactive lanes are there too): the masks of
 * "less" and "equal" give all six tests, and @em picks the lanes.
 */
static u32 vgpu_int_setp(const struct vgpu_warp *w, const struct vgpu_insn *in,
			 u32 em)
{
	unsigned int sh = 64 - vgpu_type_bits(in->type);
	u64 flip = vgpu_type_signed(in->type) ? 1ULL << 63 : 0;
	const u64 *a = &REG(w, in->a, 0);
	u32 lane, lt = 0, eq = 0;

	if (in->flags & VGPU_IF_B_IMM) {
		u64 y = (in->imm << sh) ^ flip;

		for (lane = 0; lane < VGPU_WARP; lane++) {
			u64 x = (a[lane] << sh) ^ flip;

			lt |= (u32)(x < y) << lane;
			eq |= (u32)(x == y) << lane;
		}
	} else {
		const u64 *b = &REG(w, in->b, 0);

		for (lane = 0; lane < VGPU_WARP; lane++) {
			u64 x = (a[lane] << sh) ^ flip, y = (b[lane] << sh) ^ flip;

			lt |= (u32)(x < y) << lane;
			eq |= (u32)(x == y) << lane;
		}
	}
	return vgpu_cmp_lanes(in->mod, lt, eq) & em;
}

/* --- special registers --------------------------------------------------- */
/*
 * The special registers kernels read first, for a whole warp at once:
 * those of the block (one value) and the thread index along x. False
 * for the others.
 */
static bool vgpu_sreg_warp(const struct vgpu_block *b, struct vgpu_warp *w,
			   const struct vgpu_insn *in, u32 em)
{
	u32 warp = (u32)(w - b->warps), bx = b->l->block[0], x, lane;
	u64 v;

	switch (in->mod) {
	case VGPU_SR_TID_X:
		x = warp * VGPU_WARP % bx;
		for (lane = 0; lane < VGPU_WARP; lane++) {
			if (em >> lane & 1)
				REG(w, in->dst, lane) = vgpu_trunc(x, in->type);
			x = x + 1 == bx ? 0 : x + 1;
		}
		return true;
	case VGPU_SR_NTID_X:
	case VGPU_SR_NTID_Y:
	case VGPU_SR_NTID_Z:
	case VGPU_SR_CTAID_X:
	case VGPU_SR_CTAID_Y:
	case VGPU_SR_CTAID_Z:
	case VGPU_SR_NCTAID_X:
	case VGPU_SR_NCTAID_Y:
	case VGPU_SR_NCTAID_Z:
	case VGPU_SR_GRID_SYNC_HI:
	case VGPU_SR_GRID_SYNC_LO:
		v = vgpu_trunc(vgpu_sreg(b, warp, 0, in->mod), in->type);
		VGPU_EACH_LANE(em, lane, { REG(w, in->dst, lane) = v; });
		return true;
	}
	return false;
}

/* --- warp-synchronous operations ----------------------------------------- */

/* --- atomics -------------------------------------------------------------- */

static int vgpu_atom(struct vgpu_block *b, struct vgpu_warp *w,
		     const struct vgpu_insn *in, u32 em)
{
	u32 len = vgpu_type_bits(in->type) / 8, warp = (u32)(w - b->warps);
	u32 m, kind;

	for (m = em; m; m &= m - 1) {
		u32 lane = __builtin_ctz(m);
		u64 addr = in->imm, bv, cv;
		u8 *p;

		if (in->a != VGPU_NO_REG)
			addr += REG(w, in->a, lane);
		p = vgpu_addr(b, warp * 32 + lane, in->mod, addr, len, true, &kind);
		if (!p)
			return vgpu_fail(b, w, 1U << lane, kind, addr);
		bv = in->flags & VGPU_IF_B_IMM ? in->b : REG(w, in->b, lane);
		cv = in->flags & VGPU_IF_C_IMM ? in->c : REG(w, in->c, lane);
		REG(w, in->dst, lane) = vgpu_atomic(p, in, bv, cv);
	}
	return 0;
}

/* Device heap: each lane's call in turn, as the host's allocator sees them. */
static int vgpu_heap_op(struct vgpu_block *b, struct vgpu_warp *w,
			const struct vgpu_insn *in, u32 em)
{
	u32 m, lane, kind;

	for (m = em; m; m &= m - 1) {
		lane = __builtin_ctz(m);
		if (in->op == VGPU_OP_MALLOC) {
			REG(w, in->dst, lane) =
				vgpu_core_malloc(b->l->mmu, REG(w, in->a, lane));
			continue;
		}
		kind = vgpu_core_free(b->l->mmu, REG(w, in->a, lane));
		if (kind != VGPU_FAULT_NONE)
			return vgpu_fail(b, w, 1U << lane, kind,
					 REG(w, in->a, lane));
	}
	return 0;
}

/* --- bits ----------------------------------------------------------------- */

/*
 * The common integer operations on 32- and 64-bit types, lane loops
 * without the general case's conversions (a full warp's loop has no
 * branches and vectorises). False for anything else.
 */
#define VGPU_LANES_AS(Y, Z, expr) do {					\
	VGPU_EACH_LANE(em, lane, {				\
		u64 x = a[lane], y = (Y), z = (Z), r = (expr);		\
									\
		(void)z;						\
		d[lane] = r & keep;					\
	});							\
} while (0)

/* Separate loops for a register and an immediate b, so each vectorises. */
#define VGPU_LANES(expr) do {						\
	if (in->flags & VGPU_IF_B_IMM)					\
		VGPU_LANES_AS(in->imm, 0, expr);			\
	else								\
		VGPU_LANES_AS(bp[lane], 0, expr);			\
} while (0)

static bool vgpu_int_fast(struct vgpu_warp *w, const struct vgpu_insn *in,
			  u32 em)
{
	bool w32 = in->type == VGPU_T_U32 || in->type == VGPU_T_S32;
	bool w64 = in->type == VGPU_T_U64 || in->type == VGPU_T_S64;
	u64 *d = &REG(w, in->dst, 0), *a = &REG(w, in->a, 0);
	u64 keep = w32 ? 0xffffffffULL : ~0ULL, bits = w32 ? 32 : 64;
	const u64 *bp, *cp;
	u32 lane;

	if ((!w32 && !w64) ||
	    (in->flags & (VGPU_IF_SAT | VGPU_IF_CC_IN | VGPU_IF_CC_OUT)))
		return false;
	bp = &REG(w, in->flags & VGPU_IF_B_IMM ? in->a : in->b, 0);
	cp = &REG(w, in->flags & VGPU_IF_C_IMM ? in->a : in->c, 0);
	switch (in->op) {
	case VGPU_OP_ADD:
		VGPU_LANES(x + y);
		return true;
	case VGPU_OP_SUB:
		VGPU_LANES(x - y);
		return true;
	case VGPU_OP_AND:
		VGPU_LANES(x & y);
		return true;
	case VGPU_OP_OR:
		VGPU_LANES(x | y);
		return true;
	case VGPU_OP_XOR:
		VGPU_LANES(x ^ y);
		return true;
	case VGPU_OP_SHL:
		/* A count in range, the same for the warp: one shift a lane. */
		if ((in->flags & VGPU_IF_B_IMM) && (in->imm & 0xffffffff) < bits) {
			VGPU_LANES_AS(in->imm & 0xffffffff, 0, (x & keep) << y);
			return true;
		}
		VGPU_LANES((y & 0xffffffff) >= bits ? 0 : (x & keep) << (y & 63));
		return true;
	case VGPU_OP_SHR:
		if (in->type == VGPU_T_U32 || in->type == VGPU_T_U64) {
			if ((in->flags & VGPU_IF_B_IMM) &&
			    (in->imm & 0xffffffff) < bits) {
				VGPU_LANES_AS(in->imm & 0xffffffff, 0, (x & keep) >> y);
				return true;
			}
			VGPU_LANES((y & 0xffffffff) >= bits ? 0 : (x & keep) >> (y & 63));
			return true;
		}
		/* Arithmetic: sign-extend to 64 bits, shift by at most 63. */
		VGPU_LANES((u64)((s64)(w32 ? (u64)(s64)(s32)x : x) >>
				 ((y & 0xffffffff) >= bits ? 63 : (y & 63))));
		return true;
	case VGPU_OP_MUL:
		if (in->mod != VGPU_MUL_LO)
			return false;
		VGPU_LANES(x * y);
		return true;
	case VGPU_OP_MAD:
		if (in->mod != VGPU_MUL_LO)
			return false;
		/* An immediate is read as a register whose lanes all hold it. */
		if (in->flags & (VGPU_IF_B_IMM | VGPU_IF_C_IMM))
			VGPU_LANES_AS(in->flags & VGPU_IF_B_IMM ? in->imm : bp[lane],
				      in->flags & VGPU_IF_C_IMM ? in->imm : cp[lane],
				      x * y + z);
		else
			VGPU_LANES_AS(bp[lane], cp[lane], x * y + z);
		return true;
	}
	return false;
}

/*
 * add, sub and mad with the carry flag: the sum of the operands (and the
 * carry in) at the type's width, and the carry (for sub, the borrow) out.
 */
static void vgpu_carry_op(struct vgpu_warp *w, const struct vgpu_insn *in,
			  u32 em)
{
	unsigned int bits = vgpu_type_bits(in->type);
	u64 mask = bits == 64 ? ~0ULL : 0xffffffffULL;
	u32 m, out = 0;

	for (m = em; m; m &= m - 1) {
		u32 lane = __builtin_ctz(m);
		u64 a = REG(w, in->a, lane) & mask, b = vgpu_b(w, in, lane) & mask;
		u64 cin = in->flags & VGPU_IF_CC_IN ? (w->ls.cc >> lane) & 1 : 0;
		u64 x, r;
		bool carry;

		if (in->op == VGPU_OP_SUB) {
			r = (a - b - cin) & mask;
			carry = a < b || (a == b && cin);
		} else {
			if (in->op == VGPU_OP_MAD) {
				struct vgpu_insn mul = *in;

				mul.op = VGPU_OP_MUL;
				mul.flags &= ~(VGPU_IF_CC_IN | VGPU_IF_CC_OUT);
				x = vgpu_int_op(&mul, a, b, 0);
				b = vgpu_c(w, in, lane) & mask;
				a = x;
			}
			r = (a + b + cin) & mask;
			carry = r < a || (cin && r == a);
		}
		REG(w, in->dst, lane) = r;
		out |= (u32)carry << lane;
	}
	if (in->flags & VGPU_IF_CC_OUT)
		w->ls.cc = (w->ls.cc & ~em) | out;
}

/* --- block barriers ------------------------------------------------------ */

/* Barrier @id completes once its count has arrived: its warps go on. */
static void vgpu_bar_check(struct vgpu_block *b, u32 id)
{
	struct vgpu_barrier br;
	u32 i;

	if (!vgpu_bar_complete(b->bars, &b->bars_used, b->live_warps, id, &br))
		return;
	for (i = 0; i < b->nwarps; i++) {
		struct vgpu_warp *w = &b->warps[i];

		if (w->ls.counted && w->ls.bar == id)
			vgpu_bar_release(&w->ls, b->code, w->regs, w->preds, &br);
	}
}

static void vgpu_bar_arrival(struct vgpu_block *b, struct vgpu_warp *w)
{
	if (vgpu_bar_count_in(&w->ls, b->bars, &b->bars_used))
		vgpu_bar_check(b, w->ls.bar);
}

/*
 * BAR and BAR_RED for lanes @em of the group (vgpu_bar_enter()). Returns
 * 0, with *@parked set when the warp is, or VGPU_RUN_FAULT.
 */
static int vgpu_bar(struct vgpu_block *b, struct vgpu_warp *w,
		    const struct vgpu_insn *in, u32 em, u32 next, bool *parked)
{
	u32 id, count, kind;
	bool whole;

	if (!vgpu_bar_operands(w->regs, in, __builtin_ctz(em), &id, &count))
		return vgpu_fail(b, w, em, VGPU_FAULT_TRAP, 0);
	kind = vgpu_bar_enter(&w->ls, in, w->preds, em, id, count, next,
			      &whole);
	if (kind)
		return vgpu_fail(b, w, em, kind, 0);
	vgpu_bar_arrival(b, w);
	*parked = whole && (w->ls.cur_mask & w->ls.at_bar);
	return 0;
}

/* Lanes of @w exited (vgpu_bar_exit()). */
static void vgpu_bar_exited(struct vgpu_block *b, struct vgpu_warp *w)
{
	u32 m = vgpu_bar_exit(&w->ls, b->bars, &b->bars_used, &b->live_warps);

	for (; m; m &= m - 1)
		vgpu_bar_check(b, __builtin_ctz(m));
}

/* --- textures and surfaces ------------------------------------------------ */

#define TSLOT(w, k, lane) ((w)->tslots[(u32)(k) * VGPU_WARP + (lane)])

/* Reads @n bytes at @va for the sampler (vgpu_tex_read_fn). */
static bool vgpu_tex_read(void *ctx, u64 va, void *buf, u32 n)
{
	u8 *p = vgpu_global(ctx, va, n, false);

	if (!p)
		return false;
	__builtin_memcpy(buf, p, n);
	return true;
}

/*
 * The descriptor at @va: false when nothing is mapped there (a fault).
 * Address 0, a destroyed object's descriptor, or anything else not well
 * formed leave @d's magic 0: an H100 reads zeros through such handles
 * rather than faulting.
 */
static bool vgpu_desc(struct vgpu_block *b, u64 va, struct vgpu_tex_desc *d)
{
	d->magic = 0;
	if (!va)
		return true;
	if (!vgpu_tex_read(b, va, d, sizeof(*d)))
		return false;
	if (!vgpu_tex_desc_ok(d))
		d->magic = 0;
	return true;
}

static int vgpu_tex_op(struct vgpu_block *b, struct vgpu_warp *w,
		       const struct vgpu_insn *in, u32 em)
{
	struct vgpu_tex_desc d;
	struct vgpu_tex_req q;
	u32 lane, k, out[4], bits = in->imm == 2 ? 6 : 4;
	u64 fva;

	VGPU_EACH_LANE(em, lane, {
		u64 va = REG(w, in->a, lane);

		if (!vgpu_desc(b, va, &d))
			return vgpu_fail(b, w, 1U << lane, VGPU_FAULT_ADDRESS, va);
		for (k = 0; k < 4; k++)
			out[k] = 0;
		if (d.magic) {
			for (k = 0; k < 3; k++)
				q.coord[k] = TSLOT(w, k, lane);
			q.layer = TSLOT(w, 3, lane);
			q.lod = TSLOT(w, 4, lane);
			for (k = 0; k < 6; k++)
				q.grad[k] = TSLOT(w, 5 + k, lane);
			q.variant = in->mod;
			q.comp = in->mod2;
			q.int_coords = in->stype == VGPU_T_S32;
			/* Texel offsets: sign-extended fields of slot 11. */
			for (k = 0; k < 3; k++)
				q.off[k] = in->imm ? (s8)((s32)(TSLOT(w, 11, lane) <<
						   (32 - bits * (k + 1))) >> (32 - bits)) : 0;
			if (vgpu_tex_sample(&d, &q, vgpu_tex_read, b, out, &fva) ==
			    VGPU_TEX_FAULT)
				return vgpu_fail(b, w, 1U << lane,
						 VGPU_FAULT_ADDRESS, fva);
		}
		for (k = 0; k < 4; k++)
			TSLOT(w, k, lane) = out[k];
	});
	return 0;
}

static int vgpu_txq_op(struct vgpu_block *b, struct vgpu_warp *w,
		       const struct vgpu_insn *in, u32 em)
{
	struct vgpu_tex_desc d;
	u32 lane;

	VGPU_EACH_LANE(em, lane, {
		u64 va = REG(w, in->a, lane);

		if (!vgpu_desc(b, va, &d))
			return vgpu_fail(b, w, 1U << lane, VGPU_FAULT_ADDRESS, va);
		REG(w, in->dst, lane) = vgpu_tex_query(&d, in->mod,
						       (u32)vgpu_b(w, in, lane));
	});
	return 0;
}

/* SULD and SUST: whole elements between the slots and the surface. */
static int vgpu_surf_op(struct vgpu_block *b, struct vgpu_warp *w,
			const struct vgpu_insn *in, u32 em)
{
	static const u8 elem_bytes[] = {
		[VGPU_T_U8] = 1, [VGPU_T_U16] = 2, [VGPU_T_U32] = 4, [VGPU_T_U64] = 8,
	};
	u32 elem = elem_bytes[in->type], n = (u32)in->imm, bytes = elem * n;
	u32 per = elem == 8 ? 2 : 1, base = in->op == VGPU_OP_SUST ? 4 : 0;
	bool store = in->op == VGPU_OP_SUST;
	struct vgpu_tex_desc d;
	u32 lane, k;

	VGPU_EACH_LANE(em, lane, {
		u64 va = REG(w, in->a, lane);
		s32 xyz[3] = { (s32)TSLOT(w, 0, lane), (s32)TSLOT(w, 1, lane),
			       (s32)TSLOT(w, 2, lane) };
		int at;
		u8 *p;

		if (!vgpu_desc(b, va, &d))
			return vgpu_fail(b, w, 1U << lane, VGPU_FAULT_ADDRESS, va);
		/* A formatted store's x counts elements, not bytes. */
		if (in->mod2 && d.magic)
			xyz[0] *= (s32)vgpu_tex_texel_bytes(&d);
		at = vgpu_surf_addr(&d, xyz, TSLOT(w, 3, lane), elem, bytes,
				    in->mod, &va);
		if (at == VGPU_SURF_MISALIGNED)
			return vgpu_fail(b, w, 1U << lane, VGPU_FAULT_MISALIGNED,
					 d.addr + (u32)xyz[0]);
		if (at == VGPU_SURF_FAULT)
			return vgpu_fail(b, w, 1U << lane, VGPU_FAULT_ADDRESS, va);
		if (at == VGPU_SURF_NONE) {
			if (!store)
				for (k = 0; k < n * per; k++)
					TSLOT(w, k, lane) = 0;
			continue;
		}
		p = vgpu_global(b, va, bytes, store);
		if (!p)
			return vgpu_fail(b, w, 1U << lane, VGPU_FAULT_ADDRESS, va);
		for (k = 0; k < n; k++) {
			u64 v = 0;

			if (store) {
				v = TSLOT(w, base + k * per, lane);
				if (per == 2)
					v |= (u64)TSLOT(w, base + k * per + 1, lane) << 32;
				if (in->mod2)
					v = vgpu_surf_format(&d, v);
				vgpu_store(p + k * elem, elem, v);
				continue;
			}
			v = vgpu_load(p + k * elem, VGPU_T_U64, elem);
			TSLOT(w, k * per, lane) = (u32)v;
			if (per == 2)
				TSLOT(w, k * per + 1, lane) = (u32)(v >> 32);
		}
	});
	return 0;
}

static void vgpu_texslot_op(struct vgpu_warp *w, const struct vgpu_insn *in,
			    u32 em)
{
	bool wide = in->type == VGPU_T_U64;
	u32 lane;

	VGPU_EACH_LANE(em, lane, {
		if (in->op == VGPU_OP_TEXSET) {
			u64 v = REG(w, in->a, lane);

			TSLOT(w, in->mod, lane) = (u32)v;
			if (wide)
				TSLOT(w, in->mod + 1, lane) = (u32)(v >> 32);
		} else {
			REG(w, in->dst, lane) = TSLOT(w, in->mod, lane) |
				(wide ? (u64)TSLOT(w, in->mod + 1, lane) << 32 : 0);
		}
	});
}

/* --- one warp ------------------------------------------------------------ */

/*
 * Runs @w until it cannot go on (exited, at a barrier) or @slice
 * instructions have run. Returns 0 or VGPU_RUN_FAULT.
 */
static int vgpu_warp_run(struct vgpu_block *b, struct vgpu_warp *w,
			 u32 slice, u32 *used)
{
	u32 warp = (u32)(w - b->warps);

	if (w->ls.cur_mask & w->ls.at_bar)	/* parked at a barrier */
		return 0;
	if (!w->ls.cur_mask && !vgpu_group_pick(&w->ls, b->code, 0))
		return 0;
	/* @turn: a branch just ran or the group changed: the turn may end. */
	for (bool turn = false; !turn || *used < slice;) {
		const struct vgpu_insn *in;
		u32 em, m, lane, next;
		bool parked, tried, bra = false;
		int ret;

		/*
		 * A whole warp in one group: the shapes' quick loop first.
		 * Where it stops, the shapes could not run the instruction.
		 */
		tried = false;
		if (w->ls.cur_mask == ~0U && !w->ls.others && !vgpu_shape_off) {
			*used += vgpu_shape_run(b, w, *used < slice ? slice - *used : 0,
						&turn);
			if (turn && *used >= slice)
				break;
			tried = true;
		}
		in = &b->code[w->ls.cur_pc];
		em = vgpu_guard(w, in, w->ls.cur_mask);
		next = w->ls.cur_pc + 1;
		(*used)++;
		if (!tried && em == ~0U && vgpu_shape_covers(in->op) &&
		    vgpu_shape_step(b, w, in, em)) {
			w->ls.cur_pc = next;
			ret = vgpu_group_check(&w->ls, b->code);
			if (!ret)
				return 0;
			turn = ret == VGPU_GROUP_NEW;
			continue;
		}
		if (vgpu_shape_unsettled(b, w, in))
			vgpu_shape_settle(b, w, in);
		switch (in->op) {
		case VGPU_OP_NOP:
			break;
		case VGPU_OP_MOV:
			if (in->type == VGPU_T_PRED) {
				u32 src = w->preds[in->b];

				w->preds[in->dst] = (w->preds[in->dst] & ~em) |
						    (src & em);
				break;
			}
			VGPU_EACH_LANE(em, lane, {
				REG(w, in->dst, lane) =
					vgpu_trunc(vgpu_b(w, in, lane), in->type);
			});
			break;
		case VGPU_OP_SREG:
			if (!vgpu_sreg_warp(b, w, in, em)) {
				for (m = em; m; m &= m - 1) {
					u64 v;

					lane = __builtin_ctz(m);
					v = vgpu_sreg(b, warp, lane, in->mod);
					REG(w, in->dst, lane) = vgpu_trunc(v, in->type);
				}
			}
			break;
		case VGPU_OP_AND ... VGPU_OP_NOT:	/* also on predicates */
			if (in->type == VGPU_T_PRED) {
				u32 x = w->preds[in->a], y = w->preds[in->b], r;

				r = in->op == VGPU_OP_AND ? x & y :
				    in->op == VGPU_OP_OR ? x | y :
				    in->op == VGPU_OP_XOR ? x ^ y : ~x;
				w->preds[in->dst] = (w->preds[in->dst] & ~em) |
						    (r & em);
				break;
			}
			fallthrough;
		case VGPU_OP_ADD ... VGPU_OP_NEG:	/* arithmetic on any type */
		case VGPU_OP_SHL ... VGPU_OP_SHR:
			if (vgpu_is_float(in->type)) {
				vgpu_fp_alu(w->regs, in, em);
				break;
			}
			if (vgpu_int_fast(w, in, em))
				break;
			if (in->flags & (VGPU_IF_CC_IN | VGPU_IF_CC_OUT)) {
				vgpu_carry_op(w, in, em);
				break;
			}
			for (m = em; m; m &= m - 1) {
				u64 x, y, z;

				lane = __builtin_ctz(m);
				x = REG(w, in->a, lane);
				y = vgpu_b(w, in, lane);
				z = vgpu_c(w, in, lane);
				REG(w, in->dst, lane) = vgpu_int_op(in, x, y, z);
			}
			break;
		case VGPU_OP_SETP: {
			u32 r = 0;

			if (vgpu_is_float(in->type))
				r = vgpu_fp_setp(w->regs, in, em);
			else
				r = vgpu_int_setp(w, in, em);
			w->preds[in->dst] = (w->preds[in->dst] & ~em) | r;
			break;
		}
		case VGPU_OP_SELP: {
			u32 p = w->preds[in->c];

			VGPU_EACH_LANE(em, lane, {
				REG(w, in->dst, lane) = vgpu_trunc(p >> lane & 1 ?
					REG(w, in->a, lane) : vgpu_b(w, in, lane),
					in->type);
			});
			break;
		}
		case VGPU_OP_CVT:
			vgpu_fp_cvt(w->regs, in, em);
			break;
		case VGPU_OP_LD:
		case VGPU_OP_ST:
			ret = vgpu_mem(b, w, in, em);
			if (ret)
				return ret;
			break;
		case VGPU_OP_BRA:
			bra = true;
			if (em == w->ls.cur_mask) {
				if (in->imm <= w->ls.cur_pc)
					vgpu_group_loop(&w->ls);
				next = (u32)in->imm;
			} else if (em) {
				/* The lanes part: each keeps its own pc. */
				for (m = em; m; m &= m - 1)
					w->ls.pc[__builtin_ctz(m)] = (u32)in->imm;
				for (m = w->ls.cur_mask & ~em; m; m &= m - 1)
					w->ls.pc[__builtin_ctz(m)] = next;
				w->ls.cur_mask = 0;
				if (!vgpu_group_pick(&w->ls, b->code, 0))
					return 0;
				turn = true;
				continue;
			}
			break;
		case VGPU_OP_EXIT:
			w->ls.live &= ~em;
			w->ls.cur_mask &= ~em;
			if (em && (w->ls.at_bar || !w->ls.live))
				vgpu_bar_exited(b, w);
			break;
		case VGPU_OP_BAR_RED:
		case VGPU_OP_BAR:
			if (!em)
				break;
			ret = vgpu_bar(b, w, in, em, next, &parked);
			if (ret || parked)
				return ret;
			break;
		case VGPU_OP_TRAP:
			if (em)
				return vgpu_fail(b, w, em, VGPU_FAULT_TRAP, 0);
			break;
		case VGPU_OP_SHFL:
		case VGPU_OP_VOTE:
		case VGPU_OP_MATCH:
		case VGPU_OP_WARPSYNC:
			if (!vgpu_warp_gate(&w->ls, b->code, in)) {
				if (!vgpu_group_pick(&w->ls, b->code, 0))
					return 0;
				turn = true;
				continue;
			}
			em = vgpu_guard(w, in, w->ls.cur_mask);
			if (in->op == VGPU_OP_SHFL)
				vgpu_shfl(w->regs, w->preds, in, em);
			else if (in->op == VGPU_OP_VOTE)
				vgpu_vote(w->regs, w->preds, in, em);
			else if (in->op == VGPU_OP_MATCH)
				vgpu_match(w->regs, w->preds, in, em);
			break;
		case VGPU_OP_ACTIVEMASK:
			for (m = em; m; m &= m - 1)
				REG(w, in->dst, __builtin_ctz(m)) = w->ls.cur_mask;
			break;
		case VGPU_OP_ATOM:
			ret = vgpu_atom(b, w, in, em);
			if (ret)
				return ret;
			break;
		case VGPU_OP_MEMBAR:
			__atomic_thread_fence(__ATOMIC_SEQ_CST);
			break;
		case VGPU_OP_MALLOC:
		case VGPU_OP_FREE:
			ret = vgpu_heap_op(b, w, in, em);
			if (ret)
				return ret;
			break;
		case VGPU_OP_TEXSET:
		case VGPU_OP_TEXGET:
			vgpu_texslot_op(w, in, em);
			break;
		case VGPU_OP_TEX:
			ret = vgpu_tex_op(b, w, in, em);
			if (ret)
				return ret;
			break;
		case VGPU_OP_TXQ:
			ret = vgpu_txq_op(b, w, in, em);
			if (ret)
				return ret;
			break;
		case VGPU_OP_SULD:
		case VGPU_OP_SUST:
			ret = vgpu_surf_op(b, w, in, em);
			if (ret)
				return ret;
			break;
		case VGPU_OP_POPC ... VGPU_OP_PRMT:	/* bit fields */
			vgpu_bit_lanes(w->regs, in, em);
			break;
		default:	/* the floating-point functions */
			vgpu_fp_func(w->regs, in, em);
			break;
		}
		w->ls.cur_pc = next;
		ret = vgpu_group_check(&w->ls, b->code);
		if (!ret)
			return 0;
		turn = bra || ret == VGPU_GROUP_NEW;
	}
	return 0;
}

/**
 * vgpu_block_run() - run @b for about @budget instructions.
 * Return: VGPU_RUN_DONE, VGPU_RUN_MORE or VGPU_RUN_FAULT.
 */
int vgpu_block_run(struct vgpu_block *b, u32 budget)
{
	u32 used = 0, i;

	while (used < budget) {
		bool ran = false, live = false;

		for (i = 0; i < b->nwarps && used < budget; i++) {
			struct vgpu_warp *w = &b->warps[b->next];
			u32 slice = used + VGPU_WARP_SLICE, before = used;
			int ret;

			b->next = (b->next + 1) % b->nwarps;
			if (!(w->ls.live & ~w->ls.at_bar))
				continue;
			ret = vgpu_warp_run(b, w, slice < budget ? slice : budget,
					    &used);
			if (ret)
				return ret;
			ran |= used != before;
		}
		for (i = 0; i < b->nwarps; i++)
			live |= b->warps[i].ls.live != 0;
		if (!live)
			return VGPU_RUN_DONE;
		/*
		 * Barriers complete as warps arrive and exit, so a round in
		 * which no warp could run (every lane waits at a barrier
		 * that cannot complete, or for lanes that never come) ends
		 * the block.
		 */
		if (!ran)
			return vgpu_fail(b, &b->warps[0], 1, VGPU_FAULT_DEADLOCK, 0);
	}
	return VGPU_RUN_MORE;
}
