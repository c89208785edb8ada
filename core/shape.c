// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Register shapes: the interpreter's fast path for whole warps.
 *
 * Most of what a kernel computes before its real work is the same for
 * every lane of a warp (block indices, parameters, loop counters) or
 * grows evenly from lane to lane (thread indices, the addresses made of
 * them). A register whose 32 lanes form base + sx * i + sy * j (struct
 * vgpu_aff) is kept as those three numbers while whole warps work on it:
 * arithmetic on it costs one step for the warp instead of 32, and a
 * memory access through it knows its addresses without reading 32 lanes.
 * Its lane array is written only when an instruction the shapes do not
 * cover reads it (vgpu_shape_settle()), so every other path of the
 * interpreter sees registers as before. Shapes are exact: a result that
 * is not one becomes lanes.
 */
#include "fp.h"
#include "memspace.h"
#include "warp.h"

bool vgpu_shape_off;

/* All 32 lanes of shape @v, plus @add, into @d: sums, no products. */
static void vgpu_aff_lanes(const struct vgpu_block *b,
			   const struct vgpu_aff *v, u64 add, u64 *d)
{
	u64 row = v->base + add, x;
	u32 lane = 0, i;

	if (b->lane_ps == 5) {	/* one row: a plain induction, vectorised */
		for (; lane < VGPU_WARP; lane++)
			d[lane] = row + v->sx * lane;
		return;
	}
	if (!v->sx) {		/* one value a row */
		for (; lane < VGPU_WARP; row += v->sy)
			for (i = 0; i <= b->lane_pm; i++)
				d[lane++] = row;
		return;
	}
	if (!b->lane_pm) {	/* one lane a row */
		for (; lane < VGPU_WARP; lane++, row += v->sy)
			d[lane] = row;
		return;
	}
	while (lane < VGPU_WARP) {
		for (i = 0, x = row; i <= b->lane_pm; i++, x += v->sx)
			d[lane++] = x;
		row += v->sy;
	}
}

/* Each element of each row of a warp's access (vgpu_mem_rows()). */
#define VGPU_ROWS(...) do {						\
	for (j = 0, off = at->base - lo; j < rows; j++, off += (u64)sy)	\
		for (i = 0, q = p + off; i < n; i++, lane++, q += step) { \
			__VA_ARGS__					\
		}							\
} while (0)

/*
 * A whole warp's access whose addresses come in the block's rows: row j
 * (lanes j * P to j * P + P - 1) at @at->base + j * @at->sy, its lanes
 * at consecutive elements (@at->sx is the element's size) or, for a
 * load, all at that one. One check covers the span of the rows. False
 * when the lanes need the per-lane path (which also reports faults).
 */
static bool vgpu_mem_rows(struct vgpu_block *b, struct vgpu_warp *w,
			  const struct vgpu_insn *in, const struct vgpu_aff *at,
			  u32 len)
{
	bool write = in->op == VGPU_OP_ST;
	u32 rows = VGPU_WARP >> b->lane_ps, n = b->lane_pm + 1, step = (u32)at->sx;
	u64 *r = &REG(w, write ? in->b : in->dst, 0), lo = at->base, span, off;
	s64 sy = rows > 1 ? (s64)at->sy : 0;
	u32 j, i, lane = 0, v32;
	u8 *p, *q;

	if ((len != 4 && len != 8) || at->sx > len || (step != len && (step || write)) ||
	    ((at->base | (u64)sy) & (len - 1)) || sy > (1LL << 31) ||
	    sy < -(1LL << 31) || (write && (in->flags & VGPU_IF_B_IMM)))
		return false;
	span = (u64)(sy < 0 ? -sy : sy) * (rows - 1);
	if (sy < 0)
		lo -= span;
	span += step ? n * len : len;
	p = vgpu_span(b, in->mod, lo, span, write);
	if (!p)
		return false;
	if (step && (rows == 1 || (u64)sy == n * len)) {	/* one run */
		rows = 1;
		n = VGPU_WARP;
		step = len;
	}
	if (len == 4 && write && rows == 1) {
		for (lane = 0; lane < VGPU_WARP; lane++) {
			v32 = (u32)r[lane];
			__builtin_memcpy(p + lane * 4, &v32, 4);
		}
	} else if (len == 4 && !write && rows == 1 &&
		   !vgpu_type_signed(in->type)) {
		for (lane = 0; lane < VGPU_WARP; lane++) {
			__builtin_memcpy(&v32, p + lane * 4, 4);
			r[lane] = v32;
		}
	} else if (len == 4 && write)
		VGPU_ROWS(v32 = (u32)r[lane]; __builtin_memcpy(q, &v32, 4););
	else if (len == 4 && vgpu_type_signed(in->type))
		VGPU_ROWS(__builtin_memcpy(&v32, q, 4); r[lane] = (u64)(s64)(s32)v32;);
	else if (len == 4)
		VGPU_ROWS(__builtin_memcpy(&v32, q, 4); r[lane] = v32;);
	else if (write)
		VGPU_ROWS(__builtin_memcpy(q, &r[lane], 8););
	else
		VGPU_ROWS(__builtin_memcpy(&r[lane], q, 8););
	return true;
}

/* Writes out register @r's lanes if only its shape holds them. */
static void vgpu_shape_fill(const struct vgpu_block *b, struct vgpu_warp *w,
			    u32 r)
{
	if (r >= b->nregs || !(w->shape[r] & VGPU_SH_STALE))
		return;
	vgpu_aff_lanes(b, &w->aff[r], 0, &REG(w, r, 0));
	w->shape[r] = VGPU_SH_AFF;
	w->nstale--;
}

/* Register @r now holds the lanes of @v, in its shape only. */
static __always_inline void vgpu_shape_set(struct vgpu_warp *w, u32 r, const struct vgpu_aff *v)
{
	if (!(w->shape[r] & VGPU_SH_STALE))
		w->nstale++;
	w->shape[r] = VGPU_SH_AFF | VGPU_SH_STALE;
	/* Field by field: a struct copy can become a string move. */
	w->aff[r].base = v->base;
	w->aff[r].sx = v->sx;
	w->aff[r].sy = v->sy;
}

/* Register @r's lane array is written: it has no shape now. */
static __always_inline void vgpu_shape_drop(struct vgpu_warp *w, u32 r)
{
	if (w->shape[r] & VGPU_SH_STALE)
		w->nstale--;
	w->shape[r] = 0;
}

/* Whether @in writes register @dst (not a predicate, not memory). */
static bool vgpu_writes_reg(const struct vgpu_insn *in)
{
	if (in->type == VGPU_T_PRED)
		return false;
	switch (in->op) {
	case VGPU_OP_NOP:
	case VGPU_OP_SETP:
	case VGPU_OP_ST:
	case VGPU_OP_BRA:
	case VGPU_OP_EXIT:
	case VGPU_OP_BAR:
	case VGPU_OP_TRAP:
	case VGPU_OP_WARPSYNC:
	case VGPU_OP_MEMBAR:
	case VGPU_OP_FREE:
	case VGPU_OP_TEXSET:
	case VGPU_OP_TEX:
	case VGPU_OP_SULD:
	case VGPU_OP_SUST:
		return false;
	}
	return true;
}

/*
 * Before an instruction the shapes do not run: the lanes of every
 * register it may name are written out (a field that holds no register
 * costs a fill at most), and the register it writes loses its shape.
 */
void vgpu_shape_settle(const struct vgpu_block *b, struct vgpu_warp *w,
		       const struct vgpu_insn *in)
{
	if (in->op == VGPU_OP_BRA || in->op == VGPU_OP_EXIT)
		return;		/* no register operands */
	if (w->nstale) {
		vgpu_shape_fill(b, w, in->dst);
		vgpu_shape_fill(b, w, in->a);
		vgpu_shape_fill(b, w, in->b);
		vgpu_shape_fill(b, w, in->c);
	}
	if (in->dst < b->nregs && vgpu_writes_reg(in))
		vgpu_shape_drop(w, in->dst);
}

static __always_inline bool vgpu_aff_uniform(const struct vgpu_aff *v)
{
	return !v->sx && !v->sy;
}

/* Operand register @r's shape, false when it has none. */
static __always_inline bool vgpu_shape_of(const struct vgpu_warp *w, u32 r, struct vgpu_aff *v)
{
	if (!(w->shape[r] & VGPU_SH_AFF))
		return false;
	*v = w->aff[r];
	return true;
}

static __always_inline bool vgpu_shape_b(const struct vgpu_warp *w, const struct vgpu_insn *in,
					 struct vgpu_aff *v)
{
	if (in->flags & VGPU_IF_B_IMM) {
		*v = (struct vgpu_aff){ in->imm, 0, 0 };
		return true;
	}
	return vgpu_shape_of(w, in->b, v);
}

static __always_inline bool vgpu_shape_c(const struct vgpu_warp *w, const struct vgpu_insn *in,
					 struct vgpu_aff *v)
{
	if (in->flags & VGPU_IF_C_IMM) {
		*v = (struct vgpu_aff){ in->imm, 0, 0 };
		return true;
	}
	return vgpu_shape_of(w, in->c, v);
}

/*
 * @v's lanes cut to @bits and zero-extended, as a shape: false when some
 * lane's value wraps, which no shape describes. The lowest and highest
 * lane values lie at the corners of the lanes' grid.
 */
static __always_inline bool vgpu_aff_narrow(const struct vgpu_block *b, struct vgpu_aff *v,
					    unsigned int bits, s64 *lo, s64 *hi)
{
	u64 mask = bits == 64 ? ~0ULL : (1ULL << bits) - 1;
	s64 sx, sy, ex, ey;

	if (bits == 64)
		return false;
	if (!v->sx && !v->sy) {
		v->base &= mask;
		*lo = (s64)v->base;
		*hi = *lo;
		return true;
	}
	sx = (s64)(v->sx << (64 - bits)) >> (64 - bits);
	sy = (s64)(v->sy << (64 - bits)) >> (64 - bits);
	ex = sx * (s64)b->lane_pm;
	ey = sy * (s64)(31 >> b->lane_ps);
	*lo = (s64)(v->base & mask) + (ex < 0 ? ex : 0) + (ey < 0 ? ey : 0);
	*hi = (s64)(v->base & mask) + (ex > 0 ? ex : 0) + (ey > 0 ? ey : 0);
	if (*lo < 0 || *hi > (s64)mask)
		return false;
	v->base &= mask;
	v->sx = (u64)sx;
	v->sy = (u64)sy;
	return true;
}

/* @v's lanes as @bits-bit values in a register (zero-extended). */
static __always_inline bool vgpu_aff_trunc(const struct vgpu_block *b, struct vgpu_aff *v,
					   unsigned int bits)
{
	s64 lo, hi;

	return bits == 64 || vgpu_aff_narrow(b, v, bits, &lo, &hi);
}

/* @v's lanes as @bits-bit values extended to 64 bits as @sgn says. */
static __always_inline bool vgpu_aff_ext(const struct vgpu_block *b, struct vgpu_aff *v,
					 unsigned int bits, bool sgn)
{
	s64 lo, hi, half;

	if (bits == 64)
		return true;
	half = (s64)1 << (bits - 1);
	if (!vgpu_aff_narrow(b, v, bits, &lo, &hi))
		return false;
	if (!sgn || hi < half)
		return true;
	if (lo < half)
		return false;	/* some lanes negative, others not */
	v->base -= 1ULL << bits;
	return true;
}

static __always_inline void vgpu_aff_add(struct vgpu_aff *d, const struct vgpu_aff *x,
					 const struct vgpu_aff *y, bool sub)
{
	d->base = sub ? x->base - y->base : x->base + y->base;
	d->sx = sub ? x->sx - y->sx : x->sx + y->sx;
	d->sy = sub ? x->sy - y->sy : x->sy + y->sy;
}

/* @x times @y, one of them uniform: false when neither is. */
static __always_inline bool vgpu_aff_mul(struct vgpu_aff *d, const struct vgpu_aff *x,
					 const struct vgpu_aff *y)
{
	if (!vgpu_aff_uniform(y)) {
		const struct vgpu_aff *t = x;

		x = y;
		y = t;
	}
	if (!vgpu_aff_uniform(y))
		return false;
	d->base = x->base * y->base;
	d->sx = x->sx * y->base;
	d->sy = x->sy * y->base;
	return true;
}

/*
 * Integer arithmetic whose result keeps a shape: linear operations (one
 * factor of a product uniform), and any operation of uniform operands.
 * False for the rest.
 */
static __always_inline bool vgpu_shape_int(const struct vgpu_block *b, struct vgpu_warp *w,
					   const struct vgpu_insn *in)
{
	unsigned int bits = vgpu_type_bits(in->type);
	bool sgn = vgpu_type_signed(in->type);
	struct vgpu_aff x, y = { 0, 0, 0 }, z = { 0, 0, 0 }, r;
	u8 op = in->op;
	u64 k;

	if (in->type == VGPU_T_PRED || vgpu_is_float(in->type) ||
	    (in->flags & (VGPU_IF_CC_IN | VGPU_IF_CC_OUT)))
		return false;
	if (!vgpu_shape_of(w, in->a, &x) ||
	    (op != VGPU_OP_ABS && op != VGPU_OP_NEG && op != VGPU_OP_NOT &&
	     !vgpu_shape_b(w, in, &y)) ||
	    (op == VGPU_OP_MAD && !vgpu_shape_c(w, in, &z)))
		return false;
	if (in->flags & VGPU_IF_SAT)
		goto uniform;
	switch (op) {
	case VGPU_OP_ADD:
	case VGPU_OP_SUB:
		vgpu_aff_add(&r, &x, &y, op == VGPU_OP_SUB);
		break;
	case VGPU_OP_NEG:
		vgpu_aff_add(&r, &z, &x, true);
		break;
	case VGPU_OP_SHL:
		if (!vgpu_aff_uniform(&y))
			return false;
		k = y.base & 0xffffffff;
		if (k >= bits)
			r = (struct vgpu_aff){ 0, 0, 0 };
		else
			r = (struct vgpu_aff){ x.base << k, x.sx << k, x.sy << k };
		break;
	case VGPU_OP_MUL:
	case VGPU_OP_MAD:
		if (in->mod == VGPU_MUL_HI)
			goto uniform;
		if (in->mod == VGPU_MUL_WIDE &&
		    (!vgpu_aff_ext(b, &x, bits, sgn) || !vgpu_aff_ext(b, &y, bits, sgn)))
			return false;
		if (!vgpu_aff_mul(&r, &x, &y))
			return false;
		if (op == VGPU_OP_MAD)
			vgpu_aff_add(&r, &r, &z, false);
		if (in->mod == VGPU_MUL_WIDE)
			goto done;	/* twice the width: not cut */
		break;
	default:
		goto uniform;
	}
	if (!vgpu_aff_trunc(b, &r, bits))
		return false;
done:
	vgpu_shape_set(w, in->dst, &r);
	return true;
uniform:
	if (!vgpu_aff_uniform(&x) || !vgpu_aff_uniform(&y) || !vgpu_aff_uniform(&z))
		return false;
	r = (struct vgpu_aff){ vgpu_int_op(in, x.base, y.base, z.base), 0, 0 };
	goto done;
}

/* The special registers every thread of a block reads alike. */
#define VGPU_SR_BLOCKWIDE						\
	(1U << VGPU_SR_NTID_X | 1U << VGPU_SR_NTID_Y | 1U << VGPU_SR_NTID_Z |	\
	 1U << VGPU_SR_CTAID_X | 1U << VGPU_SR_CTAID_Y | 1U << VGPU_SR_CTAID_Z |	\
	 1U << VGPU_SR_NCTAID_X | 1U << VGPU_SR_NCTAID_Y |			\
	 1U << VGPU_SR_NCTAID_Z | 1U << VGPU_SR_WARPID |			\
	 1U << VGPU_SR_NWARPID | 1U << VGPU_SR_SMID | 1U << VGPU_SR_NSMID |	\
	 1U << VGPU_SR_DYN_SMEM | 1U << VGPU_SR_GRID_SYNC_HI |			\
	 1U << VGPU_SR_GRID_SYNC_LO)

/*
 * The special registers whose lanes have a shape: those of the block and
 * the grid (one value), the lane index, and the thread index where the
 * warp's threads do not wrap around the block's extent within it. Tests,
 * not a switch: an emulated CPU looks up the target of a jump table's
 * jump, and of a call's return. The block's extent and index, the
 * commonest, are read here.
 */
static __always_inline bool vgpu_shape_sreg(const struct vgpu_block *b, struct vgpu_warp *w,
					    const struct vgpu_insn *in)
{
	const struct vgpu_launch *l = b->l;
	u32 warp = (u32)(w - b->warps), t = warp * VGPU_WARP;
	u32 rows = VGPU_WARP >> b->lane_ps, y, sr = in->mod;
	struct vgpu_aff v = { 0, 0, 0 };

	if (sr == VGPU_SR_TID_X) {
		/* A row of P lanes starts every row: P is the block's x. */
		if (b->lane_ps == 5 && l->block[0] % VGPU_WARP)
			return false;
		v.base = t % l->block[0];
		v.sx = 1;
	} else if (sr == VGPU_SR_TID_Y) {
		y = t / l->block[0] % l->block[1];
		if (b->lane_ps == 5 ? l->block[0] % VGPU_WARP :
		    y + rows > l->block[1])
			return false;
		v.base = y;
		v.sy = b->lane_ps < 5;
	} else if (sr >= VGPU_SR_NTID_X && sr <= VGPU_SR_NTID_Z) {
		v.base = l->block[sr - VGPU_SR_NTID_X];
	} else if (sr >= VGPU_SR_CTAID_X && sr <= VGPU_SR_CTAID_Z) {
		v.base = b->ctaid[sr - VGPU_SR_CTAID_X];
	} else if (sr == VGPU_SR_LANEID) {
		v.sx = 1;
		v.sy = b->lane_pm + 1;
	} else if (sr < 32 && (VGPU_SR_BLOCKWIDE >> sr & 1)) {
		v.base = vgpu_sreg(b, warp, 0, sr);
	} else {
		return false;
	}
	if (!vgpu_aff_trunc(b, &v, vgpu_type_bits(in->type)))
		return false;
	vgpu_shape_set(w, in->dst, &v);
	return true;
}

/*
 * Of the lanes i of a row of @n, those where @d + @s * i is negative
 * (into *@neg) and zero (*@zero), the values being exact and far from
 * overflow: a run at one end of the row and at most one lane.
 */
static void vgpu_aff_sign(s64 d, s64 s, u32 n, u32 *neg, u32 *zero)
{
	u32 all = n == VGPU_WARP ? ~0U : (1U << n) - 1;
	s64 c;

	*zero = 0;
	if (!s) {
		*neg = d < 0 ? all : 0;
		*zero = d ? 0 : all;
		return;
	}
	if (s == 1 || s == -1) {	/* a thread index: no division */
		c = -d * s;
		*zero = c >= 0 && c < n ? 1U << c : 0;
		c = s > 0 ? (d >= 0 ? 0 : -d) : (d < 0 ? 0 : d + 1);
		if (s > 0)
			*neg = c >= n ? all : (1U << c) - 1;
		else
			*neg = c >= n ? 0 : all & ~((1U << c) - 1);
		return;
	}
	if (s > 0) {	/* the first ceil(-d / s) lanes */
		c = d >= 0 ? 0 : (s - 1 - d) / s;
		*neg = c >= n ? all : (1U << c) - 1;
	} else {	/* the lanes after d / -s */
		c = d < 0 ? 0 : d / -s + 1;
		*neg = c >= n ? 0 : all & ~((1U << c) - 1);
	}
	if (d % s == 0) {
		c = -d / s;
		if (c >= 0 && c < n)
			*zero = 1U << c;
	}
}

/* Integer SETP over operands with shapes. */
static __always_inline bool vgpu_shape_setp(const struct vgpu_block *b, struct vgpu_warp *w,
					    const struct vgpu_insn *in)
{
	unsigned int sh = 64 - vgpu_type_bits(in->type);
	u64 flip = vgpu_type_signed(in->type) ? 1ULL << 63 : 0;
	unsigned int bits = vgpu_type_bits(in->type);
	bool sgn = vgpu_type_signed(in->type);
	struct vgpu_aff x, y;
	u32 lane = 0, lt = 0, eq = 0, neg, zero;
	s64 row;
	u64 p, q;

	if (vgpu_is_float(in->type) || !vgpu_shape_of(w, in->a, &x) ||
	    !vgpu_shape_b(w, in, &y))
		return false;
	if (vgpu_aff_uniform(&x) && vgpu_aff_uniform(&y)) {
		p = (x.base << sh) ^ flip;
		q = (y.base << sh) ^ flip;
		w->preds[in->dst] = vgpu_cmp_lanes(in->mod, p < q ? ~0U : 0,
						   p == q ? ~0U : 0);
		return true;
	}
	/*
	 * Up to 32 bits, both sides as exact integers (the type's sign
	 * applied) have lanes without wrap-around: their difference decides.
	 */
	if (bits > 32 || !vgpu_aff_ext(b, &x, bits, sgn) ||
	    !vgpu_aff_ext(b, &y, bits, sgn))
		return false;
	vgpu_aff_add(&x, &x, &y, true);
	for (row = (s64)x.base; lane < VGPU_WARP; row += (s64)x.sy) {
		vgpu_aff_sign(row, (s64)x.sx, b->lane_pm + 1, &neg, &zero);
		lt |= neg << lane;
		eq |= zero << lane;
		lane += b->lane_pm + 1;
	}
	w->preds[in->dst] = vgpu_cmp_lanes(in->mod, lt, eq);
	return true;
}

/* MOV, SELP with one side chosen by every lane, integer CVT. */
static __always_inline bool vgpu_shape_move(const struct vgpu_block *b, struct vgpu_warp *w,
					    const struct vgpu_insn *in)
{
	struct vgpu_aff v;
	u32 p;

	if (in->type == VGPU_T_PRED)
		return false;
	switch (in->op) {
	case VGPU_OP_MOV:
		if (!vgpu_shape_b(w, in, &v))
			return false;
		break;
	case VGPU_OP_SELP:
		p = w->preds[in->c];
		if (p == ~0U ? !vgpu_shape_of(w, in->a, &v) :
		    p ? true : !vgpu_shape_b(w, in, &v))
			return false;
		break;
	default:		/* CVT */
		if (!vgpu_shape_of(w, in->a, &v))
			return false;
		if (vgpu_aff_uniform(&v)) {
			v.base = vgpu_fp_cvt_one(in, v.base);
			goto done;
		}
		if (vgpu_is_float(in->type) || vgpu_is_float(in->stype) ||
		    (in->flags & VGPU_IF_SAT) ||
		    !vgpu_aff_ext(b, &v, vgpu_type_bits(in->stype),
				  vgpu_type_signed(in->stype)))
			return false;
		break;
	}
	if (!vgpu_aff_trunc(b, &v, vgpu_type_bits(in->type)))
		return false;
done:
	vgpu_shape_set(w, in->dst, &v);
	return true;
}

/*
 * LD and ST through an address register with a shape: one read for an
 * address every lane shares (the result has a shape too), the warp's
 * span checked once otherwise.
 */
static __always_inline bool vgpu_shape_mem(struct vgpu_block *b, struct vgpu_warp *w,
					   const struct vgpu_insn *in)
{
	u32 len = vgpu_type_bits(in->type) / 8;
	struct vgpu_aff v, at, r;
	u64 addr[VGPU_WARP];
	const u8 *p;

	if (in->a == VGPU_NO_REG)
		v = (struct vgpu_aff){ 0, 0, 0 };
	else if (!vgpu_shape_of(w, in->a, &v))
		return false;
	at = (struct vgpu_aff){ v.base + in->imm, v.sx, v.sy };
	if (in->op == VGPU_OP_LD && vgpu_aff_uniform(&v)) {
		/* A kernel parameter: the commonest load of all. */
		p = in->mod == VGPU_SPACE_PARAM && !(at.base & (len - 1)) ?
			vgpu_launch_ptr(b->l, VGPU_SPACE_PARAM, at.base, len,
					false) : NULL;
		if (p)
			r.base = vgpu_load(p, in->type, len);
		else if (!vgpu_load_one(b, w, in, ~0U, at.base, len, &r.base))
			return false;
		r.sx = 0;
		r.sy = 0;
		vgpu_shape_set(w, in->dst, &r);
		return true;
	}
	/* Two rows, one address each: any two values form a shape. */
	if (in->op == VGPU_OP_LD && !v.sx && b->lane_ps == 4) {
		if (!vgpu_load_one(b, w, in, ~0U, at.base, len, &r.base) ||
		    !vgpu_load_one(b, w, in, ~0U, at.base + at.sy, len, &r.sy))
			return false;
		r.sx = 0;
		r.sy -= r.base;
		vgpu_shape_set(w, in->dst, &r);
		return true;
	}
	if (in->op == VGPU_OP_ST && !(in->flags & VGPU_IF_B_IMM))
		vgpu_shape_fill(b, w, in->b);
	if (!vgpu_mem_rows(b, w, in, &at, len)) {
		if (in->a == VGPU_NO_REG)
			return false;
		vgpu_aff_lanes(b, &at, 0, addr);
		if (!vgpu_mem_warp(b, w, in, ~0U, len, addr))
			return false;
	}
	if (in->op == VGPU_OP_LD)
		vgpu_shape_drop(w, in->dst);
	return true;
}

/*
 * Floating-point ADD, MUL and FMA with an operand every lane shares:
 * that operand becomes the instruction's immediate, so its lanes need
 * not be written. A shared a swaps with b only for f32: a product's
 * factors and a sum's terms swap exactly, and f32 NaNs are canonical,
 * but an f64 result keeps the first NaN operand's payload.
 */
static __always_inline bool vgpu_shape_fp(const struct vgpu_block *b, struct vgpu_warp *w,
					  const struct vgpu_insn *in)
{
	struct vgpu_insn t = *in;
	struct vgpu_aff v;

	if ((in->type != VGPU_T_F32 && in->type != VGPU_T_F64) ||
	    (in->op != VGPU_OP_ADD && in->op != VGPU_OP_MUL &&
	     in->op != VGPU_OP_FMA) ||
	    (in->flags & (VGPU_IF_B_IMM | VGPU_IF_C_IMM)))
		return false;
	if (vgpu_shape_of(w, in->b, &v) && vgpu_aff_uniform(&v)) {
		t.flags |= VGPU_IF_B_IMM;
	} else if (in->type == VGPU_T_F32 && vgpu_shape_of(w, in->a, &v) &&
		   vgpu_aff_uniform(&v)) {
		t.a = in->b;
		t.flags |= VGPU_IF_B_IMM;
	} else if (in->op == VGPU_OP_FMA && vgpu_shape_of(w, in->c, &v) &&
		   vgpu_aff_uniform(&v)) {
		t.flags |= VGPU_IF_C_IMM;
		t.c = 0;
	} else {
		return false;
	}
	if (t.flags & VGPU_IF_B_IMM)
		t.b = 0;
	t.imm = v.base;
	vgpu_shape_fill(b, w, t.a);
	if (!(t.flags & VGPU_IF_B_IMM))
		vgpu_shape_fill(b, w, t.b);
	if (t.op == VGPU_OP_FMA && !(t.flags & VGPU_IF_C_IMM))
		vgpu_shape_fill(b, w, t.c);
	vgpu_fp_alu(w->regs, &t, ~0U);
	vgpu_shape_drop(w, in->dst);
	return true;
}

/*
 * Runs @in on shapes when the whole warp runs it and its operands allow:
 * true when done, false when the lanes must (nothing has changed).
 */
bool vgpu_shape_step(struct vgpu_block *b, struct vgpu_warp *w,
		     const struct vgpu_insn *in, u32 em)
{
	if (em != ~0U || vgpu_shape_off)
		return false;
	switch (in->op) {
	case VGPU_OP_MOV:
	case VGPU_OP_SELP:
	case VGPU_OP_CVT:
		return vgpu_shape_move(b, w, in);
	case VGPU_OP_ADD:
	case VGPU_OP_MUL:
	case VGPU_OP_FMA:
		if (vgpu_is_float(in->type))
			return vgpu_shape_fp(b, w, in);
		fallthrough;
	case VGPU_OP_SUB:
	case VGPU_OP_MAD:
	case VGPU_OP_DIV:
	case VGPU_OP_REM:
	case VGPU_OP_MIN:
	case VGPU_OP_MAX:
	case VGPU_OP_ABS:
	case VGPU_OP_NEG:
	case VGPU_OP_AND:
	case VGPU_OP_OR:
	case VGPU_OP_XOR:
	case VGPU_OP_NOT:
	case VGPU_OP_SHL:
	case VGPU_OP_SHR:
		return vgpu_shape_int(b, w, in);
	case VGPU_OP_SETP:
		return vgpu_shape_setp(b, w, in);
	case VGPU_OP_SREG:
		return vgpu_shape_sreg(b, w, in);
	case VGPU_OP_LD:
	case VGPU_OP_ST:
		return vgpu_shape_mem(b, w, in);
	}
	return false;
}

/*
 * The common integer operations on shapes, inline and lean: add, sub,
 * shl by a shared count, mul by a shared factor, on 32- and 64-bit
 * types without flags. False for anything else.
 */
static __always_inline bool vgpu_shape_lean(const struct vgpu_block *blk,
					    struct vgpu_warp *w,
					    const struct vgpu_insn *in)
{
	const struct vgpu_aff *x, *y;
	struct vgpu_aff r, yi;
	unsigned int bits;
	u64 k;

	if (in->op > VGPU_OP_SHR || (in->flags & ~VGPU_IF_B_IMM) ||
	    in->type < VGPU_T_U32 || in->type > VGPU_T_S64 ||
	    in->a >= blk->nregs || !(w->shape[in->a] & VGPU_SH_AFF))
		return false;
	x = &w->aff[in->a];
	if (in->flags & VGPU_IF_B_IMM) {
		yi.base = in->imm;
		yi.sx = 0;
		yi.sy = 0;
		y = &yi;
	} else {
		if (in->b >= blk->nregs || !(w->shape[in->b] & VGPU_SH_AFF))
			return false;
		y = &w->aff[in->b];
	}
	bits = in->type <= VGPU_T_S32 ? 32 : 64;
	switch (in->op) {
	case VGPU_OP_ADD:
		r.base = x->base + y->base;
		r.sx = x->sx + y->sx;
		r.sy = x->sy + y->sy;
		break;
	case VGPU_OP_SUB:
		r.base = x->base - y->base;
		r.sx = x->sx - y->sx;
		r.sy = x->sy - y->sy;
		break;
	case VGPU_OP_SHL:
		if (y->sx || y->sy)
			return false;
		k = y->base & 0xffffffff;
		if (k >= bits) {
			r.base = 0;
			r.sx = 0;
			r.sy = 0;
		} else {
			r.base = x->base << k;
			r.sx = x->sx << k;
			r.sy = x->sy << k;
		}
		break;
	case VGPU_OP_MUL:
		if (in->mod != VGPU_MUL_LO || !vgpu_aff_mul(&r, x, y))
			return false;
		break;
	case VGPU_OP_SHR:	/* of shared values only */
		if (x->sx || x->sy || y->sx || y->sy)
			return false;
		r.base = vgpu_int_op(in, x->base, y->base, 0);
		r.sx = 0;
		r.sy = 0;
		break;
	default:
		return false;
	}
	if (bits == 32) {
		if (!r.sx && !r.sy)
			r.base &= 0xffffffff;
		else if (!vgpu_aff_trunc(blk, &r, 32))
			return false;
	}
	vgpu_shape_set(w, in->dst, &r);
	return true;
}

/*
 * Integer SETP over shapes whose answer is the same in every lane (a
 * bounds check all of a warp passes or fails): up to 32 bits, both sides
 * as exact integers, their difference of one sign over the lanes' grid
 * (its extremes at the corners). False for the rest, which
 * vgpu_shape_setp() answers lane by lane.
 */
static __always_inline bool vgpu_shape_setp_one(const struct vgpu_block *blk,
						struct vgpu_warp *w,
						const struct vgpu_insn *in,
						const struct vgpu_aff *xs,
						const struct vgpu_aff *ys)
{
	unsigned int bits = vgpu_type_bits(in->type);
	bool sgn = vgpu_type_signed(in->type);
	struct vgpu_aff x = *xs, y = *ys;
	s64 ex, ey, lo, hi;
	u32 lt;

	if (bits > 32 || !vgpu_aff_ext(blk, &x, bits, sgn) ||
	    !vgpu_aff_ext(blk, &y, bits, sgn))
		return false;
	vgpu_aff_add(&x, &x, &y, true);
	ex = (s64)x.sx * (s64)blk->lane_pm;
	ey = (s64)x.sy * (s64)(31 >> blk->lane_ps);
	lo = (s64)x.base + (ex < 0 ? ex : 0) + (ey < 0 ? ey : 0);
	hi = (s64)x.base + (ex > 0 ? ex : 0) + (ey > 0 ? ey : 0);
	if (lo > 0)
		lt = 0;
	else if (hi < 0)
		lt = ~0U;
	else
		return false;
	w->preds[in->dst] = vgpu_cmp_lanes(in->mod, lt, 0);
	return true;
}

/* SETP of shared integer values, and loads of kernel parameters, lean. */
static __always_inline bool vgpu_shape_lean2(const struct vgpu_block *blk,
					     struct vgpu_warp *w,
					     const struct vgpu_insn *in)
{
	const struct vgpu_aff *x, *y;
	struct vgpu_aff yi;
	const u8 *at;
	unsigned int sh;
	u64 flip, p, q;
	u32 len;

	if (in->op == VGPU_OP_LD) {
		len = vgpu_type_bits(in->type) / 8;
		if (in->a != VGPU_NO_REG || in->mod != VGPU_SPACE_PARAM ||
		    (in->imm & (len - 1)))
			return false;
		at = vgpu_launch_ptr(blk->l, VGPU_SPACE_PARAM, in->imm, len,
				     false);
		if (!at)
			return false;
		if (!(w->shape[in->dst] & VGPU_SH_STALE))
			w->nstale++;
		w->shape[in->dst] = VGPU_SH_AFF | VGPU_SH_STALE;
		w->aff[in->dst].base = vgpu_load(at, in->type, len);
		w->aff[in->dst].sx = 0;
		w->aff[in->dst].sy = 0;
		return true;
	}
	if (in->op != VGPU_OP_SETP || in->type < VGPU_T_U8 ||
	    in->type > VGPU_T_S64 || (in->flags & ~VGPU_IF_B_IMM) ||
	    in->a >= blk->nregs || !(w->shape[in->a] & VGPU_SH_AFF))
		return false;
	x = &w->aff[in->a];
	if (in->flags & VGPU_IF_B_IMM) {
		yi.base = in->imm;
		yi.sx = 0;
		yi.sy = 0;
		y = &yi;
	} else {
		if (in->b >= blk->nregs || !(w->shape[in->b] & VGPU_SH_AFF))
			return false;
		y = &w->aff[in->b];
	}
	if (x->sx || x->sy || y->sx || y->sy)
		return vgpu_shape_setp_one(blk, w, in, x, y);
	q = y->base;
	sh = 64 - vgpu_type_bits(in->type);
	flip = vgpu_type_signed(in->type) ? 1ULL << 63 : 0;
	p = (x->base << sh) ^ flip;
	q = (q << sh) ^ flip;
	w->preds[in->dst] = vgpu_cmp_lanes(in->mod, p < q ? ~0U : 0,
					   p == q ? ~0U : 0);
	return true;
}

/*
 * Where @span bytes from @lo of shared or global memory lie, as
 * vgpu_span() finds them there without a lookup (the ranges found
 * before); NULL sends the access the long way.
 */
static __always_inline u8 *vgpu_lean_span(struct vgpu_block *blk, u8 space,
					  u64 lo, u64 span, bool write)
{
	const struct vgpu_range *r;
	unsigned int i;

	if (space == VGPU_SPACE_SHARED)
		return lo < blk->shared_bytes && span <= blk->shared_bytes - lo ?
			blk->shared + lo : NULL;
	if (space != VGPU_SPACE_GLOBAL)
		return NULL;
	for (i = 0; i < VGPU_TLB; i++) {
		r = &blk->tlb[i];
		if (lo - r->va < r->size && span <= r->size - (lo - r->va) &&
		    (!write || r->writable))
			return r->ptr + (lo - r->va);
	}
	return NULL;
}

/* Register @r holds @base + @sy * j in row j, in its shape only. */
static __always_inline void vgpu_shape_rows(struct vgpu_warp *w, u32 r,
					    u64 base, u64 sy)
{
	if (!(w->shape[r] & VGPU_SH_STALE))
		w->nstale++;
	w->shape[r] = VGPU_SH_AFF | VGPU_SH_STALE;
	w->aff[r].base = base;
	w->aff[r].sx = 0;
	w->aff[r].sy = sy;
}

/*
 * Each word (@k 1) or pair of words (@k 2) of each row of a lean access
 * (vgpu_shape_lean_mem()). A pair moves as one 64-bit word @v64: an
 * emulated CPU pays for each access far more than for the shifts. The
 * first lane's word is the pair's low half on a little-endian host, the
 * high half otherwise.
 */
#define VGPU_LEAN_ROWS(k, ...) do {					\
	for (j = 0, lane = 0; j < rows; j++, p += sy)			\
		for (i = 0, q = p; i < n; i += (k), lane += (k), q += 4 * (k)) { \
			__VA_ARGS__					\
		}							\
} while (0)

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define VGPU_PAIR_LO(v64)	((u32)(v64))
#define VGPU_PAIR_HI(v64)	((u32)((v64) >> 32))
#define VGPU_PAIR(lo, hi)	((u64)(u32)(lo) | (u64)(u32)(hi) << 32)
#else
#define VGPU_PAIR_LO(v64)	((u32)((v64) >> 32))
#define VGPU_PAIR_HI(v64)	((u32)(v64))
#define VGPU_PAIR(lo, hi)	((u64)(u32)(hi) | (u64)(u32)(lo) << 32)
#endif

/*
 * 32-bit LD and ST of shared or global memory through an address with a
 * shape, lean: one word for the warp or one a row (a load: the result
 * has a shape), or rows of consecutive words, in ranges found before.
 * False for anything else, which vgpu_shape_mem() runs.
 */
static __always_inline bool vgpu_shape_lean_mem(struct vgpu_block *blk,
						struct vgpu_warp *w,
						const struct vgpu_insn *in)
{
	bool write = in->op == VGPU_OP_ST, sgn;
	u32 rows, n, lane, i, j, v32;
	const struct vgpu_aff *v;
	u64 lo, sy, x, v64, *r;
	u8 *p, *q;

	if ((in->op != VGPU_OP_LD && !write) || in->a >= blk->nregs ||
	    !(w->shape[in->a] & VGPU_SH_AFF) || vgpu_type_bits(in->type) != 32)
		return false;
	v = &w->aff[in->a];
	lo = v->base + in->imm;
	if (lo & 3)
		return false;
	if (!write && !v->sx && (!v->sy || blk->lane_ps == 4)) {
		p = vgpu_lean_span(blk, in->mod, lo, 4, false);
		if (!p)
			return false;
		x = vgpu_load(p, in->type, 4);
		if (!v->sy) {		/* one word for the warp */
			vgpu_shape_rows(w, in->dst, x, 0);
			return true;
		}
		/* Two rows, one word each. */
		if ((lo + v->sy) & 3)
			return false;
		q = vgpu_lean_span(blk, in->mod, lo + v->sy, 4, false);
		if (!q)
			return false;
		vgpu_shape_rows(w, in->dst, x, vgpu_load(q, in->type, 4) - x);
		return true;
	}
	rows = VGPU_WARP >> blk->lane_ps;
	n = blk->lane_pm + 1;
	sy = rows > 1 ? v->sy : 0;
	if (v->sx != 4 || (sy & 3) || sy > (1ULL << 31) ||
	    (write && ((in->flags & VGPU_IF_B_IMM) ||
		       (w->shape[in->b] & VGPU_SH_STALE))))
		return false;
	p = vgpu_lean_span(blk, in->mod, lo, sy * (rows - 1) + n * 4, write);
	if (!p)
		return false;
	r = &REG(w, write ? in->b : in->dst, 0);
	sgn = vgpu_type_signed(in->type);
	if (rows == 1 || sy == n * 4) {		/* one run of 32 words */
		rows = 1;
		n = VGPU_WARP;
	}
	/* A loop each, with no choice inside (an emulated CPU pays for each). */
	if (n == 1 && write)
		VGPU_LEAN_ROWS(1, v32 = (u32)r[lane]; __builtin_memcpy(q, &v32, 4););
	else if (n == 1 && sgn)
		VGPU_LEAN_ROWS(1, __builtin_memcpy(&v32, q, 4); r[lane] = (u64)(s64)(s32)v32;);
	else if (n == 1)
		VGPU_LEAN_ROWS(1, __builtin_memcpy(&v32, q, 4); r[lane] = v32;);
	else if (write)
		VGPU_LEAN_ROWS(2, v64 = VGPU_PAIR(r[lane], r[lane + 1]);
				__builtin_memcpy(q, &v64, 8););
	else if (sgn)
		VGPU_LEAN_ROWS(2, __builtin_memcpy(&v64, q, 8);
				r[lane] = (u64)(s64)(s32)VGPU_PAIR_LO(v64);
				r[lane + 1] = (u64)(s64)(s32)VGPU_PAIR_HI(v64););
	else
		VGPU_LEAN_ROWS(2, __builtin_memcpy(&v64, q, 8);
				r[lane] = VGPU_PAIR_LO(v64);
				r[lane + 1] = VGPU_PAIR_HI(v64););
	if (!write)
		vgpu_shape_drop(w, in->dst);
	return true;
}

/*
 * One instruction of the quick loop, the general way: false when the
 * loop must stop at it (the general interpreter runs it), true when it
 * ran and *@pc is the next. Not inlined: out of the quick loop, the
 * loop's handlers lie on fewer pages, and an emulated CPU chains jumps
 * only within a page (it looks up every other target).
 */
static noinline bool vgpu_quick_one(struct vgpu_block *b, struct vgpu_warp *w,
				    const struct vgpu_insn *in, u32 *pc)
{
	u32 p = ~0U;

	if (in->guard != VGPU_PRED_NONE) {
		p = w->preds[in->guard];
		if (in->flags & VGPU_IF_GUARD_NOT)
			p = ~p;
	}
	if (in->op == VGPU_OP_BRA) {
		if (p == ~0U) {
			if (in->imm <= *pc)
				vgpu_group_loop(&w->ls);
			*pc = (u32)in->imm;
		} else if (!p) {
			(*pc)++;
		} else {
			return false;	/* the lanes part */
		}
		return true;
	}
	/*
	 * No lane runs it: nothing to do (but at a warp-synchronous
	 * instruction, which waits for its members all the same).
	 */
	if (in->op == VGPU_OP_NOP ||
	    (!p && (in->op < VGPU_OP_SHFL || in->op > VGPU_OP_WARPSYNC) &&
	     in->op != VGPU_OP_MEMBAR)) {
		(*pc)++;
		return true;
	}
	if (!vgpu_shape_covers(in->op) || (p && p != ~0U))
		return false;
	if (p && !vgpu_shape_lean(b, w, in) && !vgpu_shape_lean2(b, w, in) &&
	    !vgpu_shape_lean_mem(b, w, in)) {
		w->ls.cur_pc = *pc;
		if (!vgpu_shape_step(b, w, in, ~0U)) {
			/*
			 * Floating-point arithmetic on lanes: here, not
			 * through the general loop (which would try the
			 * shapes again, and cost a way out and back in).
			 */
			if (!vgpu_is_float(in->type) ||
			    in->op < VGPU_OP_ADD || in->op > VGPU_OP_NEG)
				return false;
			vgpu_shape_settle(b, w, in);
			vgpu_fp_alu(w->regs, in, ~0U);
		}
	}
	(*pc)++;
	return true;
}

/* Register @r of @w holds the lanes of @v, a shape, cut to 32 bits. */
static __always_inline bool vgpu_quick_set32(const struct vgpu_block *b,
					     struct vgpu_warp *w, u32 r,
					     struct vgpu_aff *v)
{
	if (!v->sx && !v->sy)
		v->base &= 0xffffffff;
	else if (!vgpu_aff_trunc(b, v, 32))
		return false;
	vgpu_shape_set(w, r, v);
	return true;
}

/*
 * The quick loop over the pre-decoded program: each handler does what
 * the general path would for its instruction, having been chosen for
 * it; one whose shapes do not suit goes the general way.
 */
static u32 vgpu_quick_run(struct vgpu_block *b, struct vgpu_warp *w,
			  u32 budget, bool *turn)
{
	const struct vgpu_insn *code = b->code, *in;
	const u8 *kinds = b->quick->kinds, *sh = w->shape;
	const struct vgpu_aff *x, *y;
	struct vgpu_aff r, yi;
	u32 pc = w->ls.cur_pc, n = 0, p;
	const u8 *at;
	u8 k;

	for (;;) {
		in = &code[pc];
		/*
		 * Tests, not a jump table: an emulated CPU looks up the
		 * target of every indirect jump, direct ones it chains.
		 */
		k = kinds[pc];
		if (k < VGPU_QK_ADD32) {
			if (k == VGPU_QK_GENERAL)
				goto general;
			if (k == VGPU_QK_BRA)
				goto bra;
			if (k == VGPU_QK_NOP)
				goto step;
			goto out;
		}
		if (k < VGPU_QK_SHL32I) {
			if (k < VGPU_QK_ADD64)
				goto add32_any;
			if (k == VGPU_QK_ADD64)
				goto add64;
			goto add64i;
		}
		if (k < VGPU_QK_SETP) {
			if (k == VGPU_QK_SHL32I)
				goto shl32i;
			goto shl64i;
		}
		if (k == VGPU_QK_SETP)
			goto setp;
		if (k == VGPU_QK_LDP)
			goto ldp;
		if (k == VGPU_QK_FMA32)
			goto fma32;
		if (k == VGPU_QK_SREG)
			goto sreg;
		if (k == VGPU_QK_MAD)
			goto mad;
		if (k == VGPU_QK_MEM32)
			goto mem32;
		goto general;
add32_any:
		if (k == VGPU_QK_ADD32I)
			goto add32i;
		/* ADD32 */
		if (!(sh[in->a] & sh[in->b] & VGPU_SH_AFF))
			goto general;
		x = &w->aff[in->a];
		y = &w->aff[in->b];
		r.base = x->base + y->base;
		r.sx = x->sx + y->sx;
		r.sy = x->sy + y->sy;
		if (!vgpu_quick_set32(b, w, in->dst, &r))
			goto general;
		goto step;
add32i:
		if (!(sh[in->a] & VGPU_SH_AFF))
			goto general;
		x = &w->aff[in->a];
		r.base = x->base + in->imm;
		r.sx = x->sx;
		r.sy = x->sy;
		if (!vgpu_quick_set32(b, w, in->dst, &r))
			goto general;
		goto step;
add64:
		if (!(sh[in->a] & sh[in->b] & VGPU_SH_AFF))
			goto general;
		x = &w->aff[in->a];
		y = &w->aff[in->b];
		r.base = x->base + y->base;
		r.sx = x->sx + y->sx;
		r.sy = x->sy + y->sy;
		vgpu_shape_set(w, in->dst, &r);
		goto step;
add64i:
		if (!(sh[in->a] & VGPU_SH_AFF))
			goto general;
		x = &w->aff[in->a];
		r.base = x->base + in->imm;
		r.sx = x->sx;
		r.sy = x->sy;
		vgpu_shape_set(w, in->dst, &r);
		goto step;
shl32i:
		if (!(sh[in->a] & VGPU_SH_AFF))
			goto general;
		x = &w->aff[in->a];
		r.base = x->base << (in->imm & 31);
		r.sx = x->sx << (in->imm & 31);
		r.sy = x->sy << (in->imm & 31);
		if (!vgpu_quick_set32(b, w, in->dst, &r))
			goto general;
		goto step;
shl64i:
		if (!(sh[in->a] & VGPU_SH_AFF))
			goto general;
		x = &w->aff[in->a];
		r.base = x->base << (in->imm & 63);
		r.sx = x->sx << (in->imm & 63);
		r.sy = x->sy << (in->imm & 63);
		vgpu_shape_set(w, in->dst, &r);
		goto step;
setp:
		if (!(sh[in->a] & VGPU_SH_AFF))
			goto general;
		x = &w->aff[in->a];
		if (in->flags & VGPU_IF_B_IMM) {
			yi.base = in->imm;
			yi.sx = 0;
			yi.sy = 0;
			y = &yi;
		} else {
			if (!(sh[in->b] & VGPU_SH_AFF))
				goto general;
			y = &w->aff[in->b];
		}
		if (x->sx || x->sy || y->sx || y->sy) {
			if (!vgpu_shape_setp_one(b, w, in, x, y))
				goto general;
			goto step;
		}
		{
			unsigned int s = 64 - vgpu_type_bits(in->type);
			u64 flip = vgpu_type_signed(in->type) ? 1ULL << 63 : 0;
			u64 xp = (x->base << s) ^ flip, yp = (y->base << s) ^ flip;

			w->preds[in->dst] = vgpu_cmp_lanes(in->mod,
							   xp < yp ? ~0U : 0,
							   xp == yp ? ~0U : 0);
		}
		goto step;
ldp:
		at = vgpu_launch_ptr(b->l, VGPU_SPACE_PARAM, in->imm,
				     vgpu_type_bits(in->type) / 8, false);
		if (!at)
			goto general;
		r.base = vgpu_load(at, in->type, vgpu_type_bits(in->type) / 8);
		r.sx = 0;
		r.sy = 0;
		vgpu_shape_set(w, in->dst, &r);
		goto step;
fma32:
		if (sh[in->b] | sh[in->c])
			goto general;
		if (!sh[in->a]) {
			/* Lanes only, as vgpu_shape_fp() would leave them. */
			if (sh[in->dst])
				goto general;
			vgpu_fp_alu(w->regs, in, ~0U);
			goto step;
		}
		/*
		 * a one value a row (a shared load's): its lanes need not
		 * be written, as vgpu_shape_settle() would before the lanes.
		 */
		x = &w->aff[in->a];
		if (x->sx || (sh[in->dst] && in->dst != in->a))
			goto general;
		if (vgpu_fp_fma_unit > 0 && !vgpu_fp_no_fma)
			vgpu_f32_fma_rows(w->regs, in, x->base, x->sy, b->lane_ps);
		else if (!vgpu_f32_fma_arows(w->regs, in, x->base, x->sy, b->lane_ps))
			goto general;
		if (in->dst == in->a)
			vgpu_shape_drop(w, in->dst);
		goto step;
sreg:
		/* What vgpu_shape_step() would call, without its choosing. */
		if (!vgpu_shape_sreg(b, w, in))
			goto general;
		goto step;
mad:
		if (!vgpu_shape_int(b, w, in))
			goto general;
		goto step;
mem32:
		if (!vgpu_shape_lean_mem(b, w, in))
			goto general;
		goto step;
bra:
		p = ~0U;
		if (in->guard != VGPU_PRED_NONE) {
			p = w->preds[in->guard];
			if (in->flags & VGPU_IF_GUARD_NOT)
				p = ~p;
		}
		if (p && p != ~0U)
			goto out;	/* the lanes part */
		if (p) {
			if (in->imm <= pc)
				vgpu_group_loop(&w->ls);
			pc = (u32)in->imm;
		} else {
			pc++;
		}
		/* Where a turn may end (vgpu_warp_run()). */
		if (++n >= budget) {
			*turn = true;
			goto out;
		}
		continue;
general:
		if (!vgpu_quick_one(b, w, in, &pc))
			goto out;
		n++;
		continue;
step:
		pc++;
		n++;
	}
out:
	w->ls.cur_pc = pc;
	return n;
}

/*
 * Runs the warp while it is one group of all 32 lanes, over the
 * instructions shapes cover and branches every lane takes alike, without
 * the general loop's per-instruction work. Returns how many instructions
 * ran. It stops right after a branch once @budget have run (with *@turn
 * set: the warp's turn may end there), or at the first instruction it
 * cannot run, which the general loop then runs.
 */
u32 vgpu_shape_run(struct vgpu_block *b, struct vgpu_warp *w, u32 budget,
		   bool *turn)
{
	u32 pc = w->ls.cur_pc, n = 0;

	*turn = false;
	if (b->quick && !vgpu_predecode_off)
		return vgpu_quick_run(b, w, budget, turn);
	for (;;) {
		bool bra = b->code[pc].op == VGPU_OP_BRA;

		if (!vgpu_quick_one(b, w, &b->code[pc], &pc))
			break;
		if (++n >= budget && bra) {
			*turn = true;
			break;
		}
	}
	w->ls.cur_pc = pc;
	return n;
}
