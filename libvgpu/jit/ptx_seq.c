// SPDX-License-Identifier: MIT
/*
 * PTX instructions the ISA has no one operation for, lowered to short
 * sequences of its integer operations.
 *
 * They are funnel shifts, three-input logic, selects on a sign, float
 * classes, 24-bit multiplies, sums of absolute differences (also of
 * bytes), bit masks, sign and zero extension, and dot products. Each
 * sequence reads all its sources before it writes the destination,
 * which may be one of them.
 */
#include "ptx_ops.h"

#define PTX_ANY_REG UINT32_MAX	/* ptx_fn2(): any register will do */

/* One of the modifiers @a and @b, exactly: 0 or 1, or -1 for neither or both. */
static int ptx_either(const struct ptx_insn *in, const char *a, const char *b)
{
	bool ha = ptx_has_mod(in, a);

	return ha == ptx_has_mod(in, b) ? -1 : !ha;
}

/* --- funnel shifts ---------------------------------------------------------- */

/*
 * shf.{l,r}.{wrap,clamp}.b32 d, a, b, c shifts the 64 bits {b, a} by
 * n = c & 31 (wrap) or min(c, 32) (clamp) and keeps the high word (l) or
 * the low one (r): d = b << n | a >> (32 - n), or b << (32 - n) | a >> n.
 * The ISA's shifts give 0 for a count of 32, as both ends want.
 */
int ptx_lower_shf(struct ptx_lower *pl, const struct ptx_insn *in)
{
	int dir = ptx_either(in, "l", "r"), mode = ptx_either(in, "wrap", "clamp");
	uint32_t d, a, b, n = ptx_temp(pl), m = ptx_temp(pl);
	uint32_t hi = ptx_temp(pl), lo = ptx_temp(pl);
	struct ptx_val c;

	if (dir < 0)
		return ptx_bad(pl, in, "missing direction");
	if (mode < 0)
		return ptx_bad(pl, in, "missing mode");
	if (ptx_nth_type(in, 0) != PTX_T_B32)
		return ptx_bad(pl, in, "unsupported type");
	if (ptx_nopnds(pl, in, 4) || ptx_dst(pl, in, 0, false, &d) ||
	    ptx_src_reg(pl, &in->opnds[1], VGPU_T_U32, &a) ||
	    ptx_src_reg(pl, &in->opnds[2], VGPU_T_U32, &b) ||
	    ptx_src_val(pl, &in->opnds[3], VGPU_T_U32, &c))
		return -1;
	if (c.imm && !c.reloc) {
		uint32_t k = (uint32_t)c.bits;

		k = mode == 0 ? k & 31 : k < 32 ? k : 32;
		if (ptx_opi(pl, VGPU_OP_SHL, VGPU_T_U32, hi, b, dir == 0 ? k : 32 - k) ||
		    ptx_opi(pl, VGPU_OP_SHR, VGPU_T_U32, lo, a, dir == 0 ? 32 - k : k))
			return -1;
		return ptx_op(pl, VGPU_OP_OR, VGPU_T_U32, d, hi, lo);
	}
	if (ptx_in_reg(pl, &c, VGPU_T_U32) ||
	    ptx_opi(pl, mode == 0 ? VGPU_OP_AND : VGPU_OP_MIN, VGPU_T_U32, n, c.reg,
		    mode == 0 ? 31 : 32) ||
	    ptx_un(pl, VGPU_OP_NEG, VGPU_T_S32, m, n) ||
	    ptx_opi(pl, VGPU_OP_ADD, VGPU_T_U32, m, m, 32) ||
	    ptx_op(pl, VGPU_OP_SHL, VGPU_T_U32, hi, b, dir == 0 ? n : m) ||
	    ptx_op(pl, VGPU_OP_SHR, VGPU_T_U32, lo, a, dir == 0 ? m : n))
		return -1;
	return ptx_op(pl, VGPU_OP_OR, VGPU_T_U32, d, hi, lo);
}

/* --- three-input logic ------------------------------------------------------ */

/*
 * The functions of two inputs x, y as 4-bit tables (bit 2x + y): one
 * operation, with an input or the result complemented.
 */
enum { PTX_G_ZERO, PTX_G_ONES, PTX_G_X, PTX_G_Y, PTX_G_AND, PTX_G_OR, PTX_G_XOR };

static const struct {
	uint8_t op;
	uint8_t not_x, not_y, not_r;
} ptx_fn2s[16] = {
	[0x0] = { PTX_G_ZERO }, [0x1] = { PTX_G_OR, 0, 0, 1 },
	[0x2] = { PTX_G_AND, 1, 0, 0 }, [0x3] = { PTX_G_X, 0, 0, 1 },
	[0x4] = { PTX_G_AND, 0, 1, 0 }, [0x5] = { PTX_G_Y, 0, 0, 1 },
	[0x6] = { PTX_G_XOR }, [0x7] = { PTX_G_AND, 0, 0, 1 },
	[0x8] = { PTX_G_AND }, [0x9] = { PTX_G_XOR, 0, 0, 1 },
	[0xa] = { PTX_G_Y }, [0xb] = { PTX_G_OR, 1, 0, 0 },
	[0xc] = { PTX_G_X }, [0xd] = { PTX_G_OR, 0, 1, 0 },
	[0xe] = { PTX_G_OR }, [0xf] = { PTX_G_ONES },
};

/* Instructions ptx_fn2() writes for @g: into any register, or into d. */
static unsigned int ptx_fn2_cost(uint8_t g, bool into_d)
{
	unsigned int op = ptx_fn2s[g].op, n = ptx_fn2s[g].not_x +
		ptx_fn2s[g].not_y + ptx_fn2s[g].not_r;

	if (op == PTX_G_X || op == PTX_G_Y)
		return n ? n : into_d;
	return 1 + n;
}

/*
 * *@out = g(x, y): intermediate values in @tmp, the last instruction
 * writing @dst; with @dst PTX_ANY_REG, into @tmp, or no instruction at all
 * when g is an input.
 */
static int ptx_fn2(struct ptx_lower *pl, uint8_t g, uint32_t x, uint32_t y,
		   uint32_t tmp, uint32_t dst, uint32_t *out)
{
	static const uint8_t ops[] = {
		[PTX_G_AND] = VGPU_OP_AND, [PTX_G_OR] = VGPU_OP_OR,
		[PTX_G_XOR] = VGPU_OP_XOR,
	};
	uint8_t op = ptx_fn2s[g].op;
	uint32_t last = dst == PTX_ANY_REG ? tmp : dst;

	*out = last;
	if (op == PTX_G_ZERO || op == PTX_G_ONES)
		return ptx_movi(pl, VGPU_T_U32, last, op == PTX_G_ONES ? 0xffffffff : 0);
	if (op == PTX_G_X || op == PTX_G_Y) {
		uint32_t r = op == PTX_G_X ? x : y;

		if (ptx_fn2s[g].not_r)
			return ptx_un(pl, VGPU_OP_NOT, VGPU_T_U32, last, r);
		if (dst == PTX_ANY_REG) {
			*out = r;
			return 0;
		}
		return ptx_mov(pl, VGPU_T_U32, dst, r);
	}
	if (ptx_fn2s[g].not_x) {
		if (ptx_un(pl, VGPU_OP_NOT, VGPU_T_U32, tmp, x))
			return -1;
		x = tmp;
	}
	if (ptx_fn2s[g].not_y) {
		if (ptx_un(pl, VGPU_OP_NOT, VGPU_T_U32, tmp, y))
			return -1;
		y = tmp;
	}
	if (!ptx_fn2s[g].not_r)
		return ptx_op(pl, ops[op], VGPU_T_U32, last, x, y);
	if (ptx_op(pl, ops[op], VGPU_T_U32, tmp, x, y))
		return -1;
	return ptx_un(pl, VGPU_OP_NOT, VGPU_T_U32, last, tmp);
}

/*
 * The table of @lut (bit 4a + 2b + c, as PTX's immLut) with input @v
 * fixed at @val, over the other two inputs in order.
 */
static uint8_t ptx_cofactor(uint8_t lut, unsigned int v, unsigned int val)
{
	uint8_t g = 0;
	unsigned int j, i, k, idx, bit;

	for (j = 0; j < 4; j++) {
		for (i = 0, k = 0, idx = 0; i < 3; i++) {
			bit = i == v ? val : k++ ? j & 1 : j >> 1;
			idx |= bit << (2 - i);
		}
		g |= ((lut >> idx) & 1) << j;
	}
	return g;
}

/*
 * How F = v ? f1 : f0 is written, f0 and f1 functions of the two other
 * inputs: as one of them, combined with v by one or two operations, or
 * in general as f0 ^ (v & (f0 ^ f1)).
 */
enum { PTX_F_SAME, PTX_F_AND, PTX_F_OR, PTX_F_XOR, PTX_F_ANDN, PTX_F_ORN, PTX_F_MUX };

static unsigned int ptx_form(uint8_t f0, uint8_t f1, unsigned int *cost)
{
	if (f0 == f1) {
		*cost = ptx_fn2_cost(f0, true);
		return PTX_F_SAME;
	}
	if (!f0) {
		*cost = ptx_fn2_cost(f1, false) + 1;
		return PTX_F_AND;
	}
	if (f1 == 0xf) {
		*cost = ptx_fn2_cost(f0, false) + 1;
		return PTX_F_OR;
	}
	if (f1 == (f0 ^ 0xf)) {
		*cost = ptx_fn2_cost(f0, false) + 1;
		return PTX_F_XOR;
	}
	if (!f1) {
		*cost = ptx_fn2_cost(f0, false) + 2;
		return PTX_F_ANDN;
	}
	if (f0 == 0xf) {
		*cost = ptx_fn2_cost(f1, false) + 2;
		return PTX_F_ORN;
	}
	*cost = ptx_fn2_cost(f0, false) + ptx_fn2_cost(f0 ^ f1, false) + 2;
	return PTX_F_MUX;
}

/* d = lut(s[0], s[1], s[2]), split on whichever input costs least. */
static int ptx_lut3(struct ptx_lower *pl, uint8_t lut, const uint32_t *s, uint32_t d)
{
	uint32_t t0 = ptx_temp(pl), t1 = ptx_temp(pl), g0, g1, v, x, y;
	unsigned int i, cost, best_cost = ~0U, form = 0, best = 0;
	uint8_t f0, f1;

	for (i = 0; i < 3; i++) {
		unsigned int f = ptx_form(ptx_cofactor(lut, i, 0),
					  ptx_cofactor(lut, i, 1), &cost);

		if (cost < best_cost) {
			best_cost = cost;
			best = i;
			form = f;
		}
	}
	f0 = ptx_cofactor(lut, best, 0);
	f1 = ptx_cofactor(lut, best, 1);
	v = s[best];
	x = s[best == 0 ? 1 : 0];
	y = s[best == 2 ? 1 : 2];
	switch (form) {
	case PTX_F_SAME:
		return ptx_fn2(pl, f0, x, y, t0, d, &g0);
	case PTX_F_AND:
	case PTX_F_ORN:
		if (ptx_fn2(pl, f1, x, y, t0, PTX_ANY_REG, &g1))
			return -1;
		if (form == PTX_F_AND)
			return ptx_op(pl, VGPU_OP_AND, VGPU_T_U32, d, v, g1);
		return ptx_un(pl, VGPU_OP_NOT, VGPU_T_U32, t1, v) ||
		       ptx_op(pl, VGPU_OP_OR, VGPU_T_U32, d, t1, g1) ? -1 : 0;
	case PTX_F_OR:
	case PTX_F_XOR:
	case PTX_F_ANDN:
		if (ptx_fn2(pl, f0, x, y, t0, PTX_ANY_REG, &g0))
			return -1;
		if (form == PTX_F_ANDN)
			return ptx_un(pl, VGPU_OP_NOT, VGPU_T_U32, t1, v) ||
			       ptx_op(pl, VGPU_OP_AND, VGPU_T_U32, d, t1, g0) ? -1 : 0;
		return ptx_op(pl, form == PTX_F_OR ? VGPU_OP_OR : VGPU_OP_XOR,
			      VGPU_T_U32, d, v, g0);
	default:
		if (ptx_fn2(pl, f0, x, y, t0, PTX_ANY_REG, &g0) ||
		    ptx_fn2(pl, f0 ^ f1, x, y, t1, PTX_ANY_REG, &g1) ||
		    ptx_op(pl, VGPU_OP_AND, VGPU_T_U32, t1, v, g1))
			return -1;
		return ptx_op(pl, VGPU_OP_XOR, VGPU_T_U32, d, g0, t1);
	}
}

/*
 * lop3.b32 d, a, b, c, immLut, and lop3.{or,and}.b32 d|p, a, b, c,
 * immLut, q, which also sets p = (d != 0) op q (d may then be "_").
 */
int ptx_lower_lop3(struct ptx_lower *pl, const struct ptx_insn *in)
{
	int boolop = ptx_either(in, "or", "and");
	const struct ptx_opnd *lut = &in->opnds[4], *q = &in->opnds[5];
	uint32_t s[3], d, i, sp = 0, p = 0, qp = 0;

	if (ptx_nth_type(in, 0) != PTX_T_B32)
		return ptx_bad(pl, in, "unsupported type");
	if (ptx_nopnds(pl, in, boolop < 0 ? 5 : 6))
		return -1;
	if (boolop >= 0 && (!in->has_pipe || q->kind != PTX_O_REG))
		return ptx_bad(pl, in, "a predicate destination and source are expected");
	if (boolop < 0 && in->has_pipe)
		return ptx_bad(pl, in, "a predicate destination needs .or or .and");
	if (lut->kind != PTX_O_IMM || lut->imm < 0 || lut->imm > 255)
		return ptx_bad(pl, in, "immLut must be a constant from 0 to 255");
	if (boolop >= 0 && in->opnds[0].kind == PTX_O_SINK)
		d = ptx_temp(pl);
	else if (ptx_dst(pl, in, 0, false, &d))
		return -1;
	for (i = 0; i < 3; i++)
		if (ptx_src_reg(pl, &in->opnds[1 + i], VGPU_T_U32, &s[i]))
			return -1;
	if (boolop >= 0) {
		p = ptx_reg_of(pl, in->pipe_reg, true);
		qp = ptx_reg_of(pl, q->reg, true);
		if (ptx_scratch_pred(pl, &sp))
			return -1;
	}
	if (ptx_lut3(pl, (uint8_t)lut->imm, s, d))
		return -1;
	if (boolop < 0)
		return 0;
	/*
	 * s = d != 0 in the scratch predicate, then p = s op q, or with !q,
	 * p = !(!s op' q): q is read before p, which may be q, is written.
	 */
	if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_SETP,
			.type = VGPU_T_U32, .mod = VGPU_CMP_NE,
			.guard = VGPU_PRED_NONE, .dst = sp, .a = d,
			.flags = VGPU_IF_B_IMM }, false))
		return -1;
	if (!q->neg)
		return ptx_op(pl, boolop == 0 ? VGPU_OP_OR : VGPU_OP_AND,
			      VGPU_T_PRED, p, sp, qp);
	if (ptx_un(pl, VGPU_OP_NOT, VGPU_T_PRED, sp, sp) ||
	    ptx_op(pl, boolop == 0 ? VGPU_OP_AND : VGPU_OP_OR, VGPU_T_PRED, sp,
		   sp, qp))
		return -1;
	return ptx_un(pl, VGPU_OP_NOT, VGPU_T_PRED, p, sp);
}

/* --- selects and float classes ---------------------------------------------- */

/*
 * slct.dtype.s32 d, a, b, c and slct{.ftz}.dtype.f32 d, a, b, c:
 * d = c >= 0 ? a : b. A NaN c is not >= 0; -0 is.
 */
int ptx_lower_slct(struct ptx_lower *pl, const struct ptx_insn *in)
{
	enum ptx_type ct = ptx_nth_type(in, 0);
	struct vgpu_insn x = { .op = VGPU_OP_SELP, .guard = VGPU_PRED_NONE };
	struct vgpu_insn cmp = { .op = VGPU_OP_SETP, .mod = VGPU_CMP_GE,
				 .guard = VGPU_PRED_NONE,
				 .flags = VGPU_IF_B_IMM };
	bool ftz = ptx_has_mod(in, "ftz");
	struct ptx_val b;

	if (ct != PTX_T_S32 && ct != PTX_T_F32)
		return ptx_bad(pl, in, "the selector must be .s32 or .f32");
	if (ftz && ct != PTX_T_F32)
		return ptx_bad(pl, in, "ftz needs an .f32 selector");
	if (ptx_nopnds(pl, in, 4) || ptx_itype(pl, in, 1, &x.type))
		return -1;
	if (ptx_vbits(x.type) < 16 || x.type == VGPU_T_F16 ||
	    x.type == VGPU_T_PRED)
		return ptx_bad(pl, in, "unsupported type");
	cmp.type = ptx_vtype(ct);
	cmp.flags |= ftz ? VGPU_IF_FTZ : 0;
	if (ptx_dst(pl, in, 0, false, &x.dst) ||
	    ptx_src_reg(pl, &in->opnds[1], x.type, &x.a) ||
	    ptx_src_val(pl, &in->opnds[2], x.type, &b) ||
	    ptx_src_reg(pl, &in->opnds[3], cmp.type, &cmp.a) ||
	    ptx_scratch_pred(pl, &cmp.dst) || ptx_emit(pl, cmp, false))
		return -1;
	x.c = cmp.dst;
	if (b.imm) {
		x.flags = VGPU_IF_B_IMM;
		x.imm = b.bits;
	} else {
		x.b = b.reg;
	}
	return ptx_emit(pl, x, b.imm && b.reloc);
}

/*
 * testp.op.{f32,f64} p, a, on the bits: with m = |a|'s, finite is
 * m < inf, number m <= inf; subnormal is m - 1 < min_normal - 1 (0
 * wraps around); normal is m - min_normal < inf - min_normal, or m = 0
 * (PTX counts zeros as normal).
 */
int ptx_lower_testp(struct ptx_lower *pl, const struct ptx_insn *in)
{
	static const char *const ops[] = {
		"finite", "infinite", "number", "notanumber", "normal",
		"subnormal",
	};
	static const uint8_t cmps[] = {
		VGPU_CMP_LT, VGPU_CMP_EQ, VGPU_CMP_LE, VGPU_CMP_GT,
	};
	enum ptx_type t = ptx_nth_type(in, 0);
	bool wide = t == PTX_T_F64;
	uint8_t it = wide ? VGPU_T_U64 : VGPU_T_U32;
	uint64_t inf = wide ? 0x7ff0000000000000ULL : 0x7f800000;
	uint64_t norm = wide ? 1ULL << 52 : 1U << 23;
	uint64_t abs = wide ? ~0ULL >> 1 : 0x7fffffff;
	struct vgpu_insn x = { .op = VGPU_OP_SETP, .type = it,
			       .guard = VGPU_PRED_NONE,
			       .flags = VGPU_IF_B_IMM };
	uint32_t a, m = ptx_temp(pl), op, sp;

	for (op = 0; op < 6; op++)
		if (ptx_has_mod(in, ops[op]))
			break;
	if (op == 6)
		return ptx_bad(pl, in, "missing property");
	if (t != PTX_T_F32 && t != PTX_T_F64)
		return ptx_bad(pl, in, "unsupported type");
	if (ptx_nopnds(pl, in, 2) || ptx_dst(pl, in, 0, true, &x.dst) ||
	    ptx_src_reg(pl, &in->opnds[1], it, &a) ||
	    ptx_opi(pl, VGPU_OP_AND, it, m, a, abs))
		return -1;
	x.a = m;
	if (op < 4) {
		x.mod = cmps[op];
		x.imm = inf;
		return ptx_emit(pl, x, false);
	}
	x.mod = VGPU_CMP_LT;
	if (op == 5) {
		x.imm = norm - 1;
		return ptx_opi(pl, VGPU_OP_SUB, it, m, m, 1) ||
		       ptx_emit(pl, x, false) ? -1 : 0;
	}
	x.imm = inf - norm;
	if (ptx_scratch_pred(pl, &sp) ||
	    ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_SETP, .type = it,
			.mod = VGPU_CMP_EQ, .guard = VGPU_PRED_NONE,
			.dst = sp, .a = m, .flags = VGPU_IF_B_IMM }, false) ||
	    ptx_opi(pl, VGPU_OP_SUB, it, m, m, norm) || ptx_emit(pl, x, false))
		return -1;
	return ptx_op(pl, VGPU_OP_OR, VGPU_T_PRED, x.dst, x.dst, sp);
}

/* cnot.{b16,b32,b64} d, a: d = a == 0, as clz(a) >> log2(width). */
int ptx_lower_cnot(struct ptx_lower *pl, const struct ptx_insn *in)
{
	uint32_t d, a, t = ptx_temp(pl);
	unsigned int bits;
	uint8_t vt;

	if (ptx_nopnds(pl, in, 2) || ptx_itype(pl, in, 0, &vt))
		return -1;
	bits = ptx_vbits(vt);
	if (bits < 16 || ptx_vfloat(vt))
		return ptx_bad(pl, in, "unsupported type");
	if (ptx_dst(pl, in, 0, false, &d) ||
	    ptx_src_reg(pl, &in->opnds[1], vt, &a))
		return -1;
	if (bits == 16) {
		if (ptx_op(pl, VGPU_OP_MOV, VGPU_T_U16, t, 0, a))
			return -1;
		a = t;
	}
	if (ptx_un(pl, VGPU_OP_CLZ, bits == 64 ? VGPU_T_U64 : VGPU_T_U32, t, a))
		return -1;
	return ptx_opi(pl, VGPU_OP_SHR, VGPU_T_U32, d, t, bits == 64 ? 6 : 5);
}

/* --- 24-bit multiplies and absolute differences ----------------------------- */

/*
 * @to = @src as mul24 multiplies it: shifted up 8 bits for the high half,
 * else its low 24 bits, extended.
 */
static int ptx_mul24_arg(struct ptx_lower *pl, bool hi, bool sgn, uint32_t src,
			 uint32_t to)
{
	if (!hi && !sgn)
		return ptx_opi(pl, VGPU_OP_AND, VGPU_T_U32, to, src, 0xffffff);
	if (ptx_opi(pl, VGPU_OP_SHL, VGPU_T_U32, to, src, 8))
		return -1;
	return hi ? 0 : ptx_opi(pl, VGPU_OP_SHR, VGPU_T_S32, to, to, 8);
}

/* ptx_mul24_arg() of an immediate. */
static uint64_t ptx_mul24_imm(uint64_t v, bool hi, bool sgn)
{
	v &= 0xffffff;
	if (hi)
		return v << 8;
	return sgn && (v & 0x800000) ? v | 0xff000000 : v;
}

/*
 * mul24.{lo,hi}.{u32,s32} d, a, b and mad24 (d = ... + c): the product
 * t of the low 24 bits of a and b, extended, gives bits 31..0 (lo) or
 * 47..16 (hi). The high ones are the high word of (a << 8) * (b << 8).
 * mad24.hi.sat.s32 saturates the sum.
 */
static int ptx_mul24(struct ptx_lower *pl, const struct ptx_insn *in, bool mad)
{
	bool sat = ptx_has_mod(in, "sat");
	int lo = ptx_either(in, "hi", "lo");
	enum ptx_type t = ptx_nth_type(in, 0);
	bool sgn = t == PTX_T_S32, hi = !lo;
	uint8_t vt = sgn ? VGPU_T_S32 : VGPU_T_U32;
	uint32_t d, a, x = ptx_temp(pl), y = ptx_temp(pl), r = ptx_temp(pl);
	struct ptx_val b, c;
	struct vgpu_insn mul = { .op = VGPU_OP_MUL, .type = vt,
				 .mod = hi ? VGPU_MUL_HI : VGPU_MUL_LO,
				 .guard = VGPU_PRED_NONE, .a = x, .b = y };

	if (t != PTX_T_U32 && t != PTX_T_S32)
		return ptx_bad(pl, in, "unsupported type");
	if (lo < 0)
		return ptx_bad(pl, in, "missing .hi or .lo");
	if (sat && (!mad || !hi || !sgn))
		return ptx_bad(pl, in, "only mad24.hi.s32 saturates");
	if (ptx_nopnds(pl, in, mad ? 4 : 3) || ptx_dst(pl, in, 0, false, &d) ||
	    ptx_src_reg(pl, &in->opnds[1], vt, &a) ||
	    ptx_src_val(pl, &in->opnds[2], vt, &b) ||
	    (mad && ptx_src_val(pl, &in->opnds[3], vt, &c)) ||
	    (b.reloc && ptx_in_reg(pl, &b, vt)) ||
	    ptx_mul24_arg(pl, hi, sgn, a, x))
		return -1;
	if (b.imm) {
		mul.b = 0;
		mul.flags = VGPU_IF_B_IMM;
		mul.imm = ptx_mul24_imm(b.bits, hi, sgn);
	} else if (ptx_mul24_arg(pl, hi, sgn, b.reg, y)) {
		return -1;
	}
	mul.dst = mad ? r : d;
	if (ptx_emit(pl, mul, false))
		return -1;
	if (!mad)
		return 0;
	{
		struct vgpu_insn add = { .op = VGPU_OP_ADD, .type = vt,
					 .guard = VGPU_PRED_NONE, .dst = d,
					 .a = r, .b = c.reg,
					 .flags = sat ? VGPU_IF_SAT : 0 };

		if (c.imm) {
			add.b = 0;
			add.flags |= VGPU_IF_B_IMM;
			add.imm = c.bits;
		}
		return ptx_emit(pl, add, c.imm && c.reloc);
	}
}

int ptx_lower_mul24(struct ptx_lower *pl, const struct ptx_insn *in)
{
	return ptx_mul24(pl, in, false);
}

int ptx_lower_mad24(struct ptx_lower *pl, const struct ptx_insn *in)
{
	return ptx_mul24(pl, in, true);
}

/* sad.type d, a, b, c: d = c + (max(a, b) - min(a, b)). */
int ptx_lower_sad(struct ptx_lower *pl, const struct ptx_insn *in)
{
	uint32_t d, a, mx = ptx_temp(pl), mn = ptx_temp(pl);
	struct ptx_val b, c;
	uint8_t vt;

	if (ptx_nopnds(pl, in, 4) || ptx_itype(pl, in, 0, &vt))
		return -1;
	if (ptx_vbits(vt) < 16 || ptx_vfloat(vt) || vt == VGPU_T_PRED)
		return ptx_bad(pl, in, "unsupported type");
	if (ptx_dst(pl, in, 0, false, &d) ||
	    ptx_src_reg(pl, &in->opnds[1], vt, &a) ||
	    ptx_src_val(pl, &in->opnds[2], vt, &b) ||
	    ptx_src_val(pl, &in->opnds[3], vt, &c) ||
	    ptx_opv(pl, VGPU_OP_MAX, vt, mx, a, &b) ||
	    ptx_opv(pl, VGPU_OP_MIN, vt, mn, a, &b) ||
	    ptx_op(pl, VGPU_OP_SUB, vt, mx, mx, mn))
		return -1;
	return ptx_opv(pl, VGPU_OP_ADD, vt, d, mx, &c);
}

/* --- masks and extension ---------------------------------------------------- */

/* A bit position or count as .wrap (mod 32) or .clamp (at most 32) takes it. */
static int ptx_count(struct ptx_lower *pl, bool wrap, struct ptx_val *v)
{
	uint32_t t;

	if (v->imm && !v->reloc) {
		v->bits = wrap ? v->bits & 31 : (v->bits & 0xffffffff) < 32 ?
			  v->bits & 0xffffffff : 32;
		return 0;
	}
	if (ptx_in_reg(pl, v, VGPU_T_U32))
		return -1;
	t = ptx_temp(pl);
	if (ptx_opi(pl, wrap ? VGPU_OP_AND : VGPU_OP_MIN, VGPU_T_U32, t, v->reg,
		    wrap ? 31 : 32))
		return -1;
	v->reg = t;
	return 0;
}

/*
 * bmsk.{clamp,wrap}.b32 d, a, b: b bits set from bit a. With a and b
 * taken as ptx_count() says, d = ~0 << a ^ ~0 << (a + b): 0 when a is 32
 * or b is 0, and bits a..31 when a + b reaches 32.
 */
int ptx_lower_bmsk(struct ptx_lower *pl, const struct ptx_insn *in)
{
	int mode = ptx_either(in, "wrap", "clamp");
	uint32_t d, ones = ptx_temp(pl), lo = ptx_temp(pl), s = ptx_temp(pl);
	struct ptx_val a, b;

	if (mode < 0)
		return ptx_bad(pl, in, "missing mode");
	if (ptx_nth_type(in, 0) != PTX_T_B32)
		return ptx_bad(pl, in, "unsupported type");
	if (ptx_nopnds(pl, in, 3) || ptx_dst(pl, in, 0, false, &d) ||
	    ptx_src_val(pl, &in->opnds[1], VGPU_T_U32, &a) ||
	    ptx_src_val(pl, &in->opnds[2], VGPU_T_U32, &b) ||
	    ptx_count(pl, mode == 0, &a) || ptx_count(pl, mode == 0, &b))
		return -1;
	if (a.imm && b.imm) {
		uint64_t lo_bits = (0xffffffffULL << a.bits) & 0xffffffff;
		uint64_t sum = a.bits + b.bits;

		return ptx_movi(pl, VGPU_T_U32, d, sum >= 32 ? lo_bits : lo_bits ^
				((0xffffffffULL << sum) & 0xffffffff));
	}
	if (ptx_movi(pl, VGPU_T_U32, ones, 0xffffffff) ||
	    ptx_opv(pl, VGPU_OP_SHL, VGPU_T_U32, lo, ones, &a) ||
	    (a.imm ? ptx_opv(pl, VGPU_OP_ADD, VGPU_T_U32, s, b.reg, &a) :
		     ptx_opv(pl, VGPU_OP_ADD, VGPU_T_U32, s, a.reg, &b)) ||
	    ptx_op(pl, VGPU_OP_SHL, VGPU_T_U32, s, ones, s))
		return -1;
	return ptx_op(pl, VGPU_OP_XOR, VGPU_T_U32, d, lo, s);
}

/*
 * szext.{clamp,wrap}.{u32,s32} d, a, b: the low n bits of a (n from b as
 * ptx_count() says), zero- or sign-extended: a << (32 - n) >> (32 - n).
 * n = 0 shifts everything out; n = 32 (clamp) keeps a.
 */
int ptx_lower_szext(struct ptx_lower *pl, const struct ptx_insn *in)
{
	int mode = ptx_either(in, "wrap", "clamp");
	enum ptx_type t = ptx_nth_type(in, 0);
	uint32_t d, a, k = ptx_temp(pl), x = ptx_temp(pl);
	struct ptx_val n;

	if (mode < 0)
		return ptx_bad(pl, in, "missing mode");
	if (t != PTX_T_U32 && t != PTX_T_S32)
		return ptx_bad(pl, in, "unsupported type");
	if (ptx_nopnds(pl, in, 3) || ptx_dst(pl, in, 0, false, &d) ||
	    ptx_src_reg(pl, &in->opnds[1], VGPU_T_U32, &a) ||
	    ptx_src_val(pl, &in->opnds[2], VGPU_T_U32, &n) ||
	    ptx_count(pl, mode == 0, &n))
		return -1;
	if (n.imm) {
		n.bits = 32 - n.bits;
	} else {
		if (ptx_un(pl, VGPU_OP_NEG, VGPU_T_S32, k, n.reg) ||
		    ptx_opi(pl, VGPU_OP_ADD, VGPU_T_U32, k, k, 32))
			return -1;
		n.reg = k;
	}
	if (ptx_opv(pl, VGPU_OP_SHL, VGPU_T_U32, x, a, &n))
		return -1;
	return ptx_opv(pl, VGPU_OP_SHR, ptx_vtype(t), d, x, &n);
}

/* --- dot products ----------------------------------------------------------- */

/*
 * PRMT's selector for element @i of @size bytes (1 or 2), sign-extended
 * from the source's own bytes or zero-extended from a zero register's.
 */
static uint32_t ptx_elem_sel(unsigned int i, unsigned int size, bool sgn)
{
	uint32_t top = size * i + size - 1, sel = 0, k;

	for (k = 0; k < 4; k++) {
		uint32_t nib = k < size ? size * i + k : sgn ? 8 | top : 4;

		sel |= nib << (4 * k);
	}
	return sel;
}

/*
 * dp4a.atype.btype d, a, b, c: c plus the products of a's and b's bytes;
 * dp2a.{lo,hi}.atype.btype: c plus the products of a's two halves and
 * b's low or high two bytes. Each element is extracted, extended by its
 * type, with a PRMT; the products add up modulo 2^32.
 */
static int ptx_dp(struct ptx_lower *pl, const struct ptx_insn *in, bool two)
{
	enum ptx_type at = ptx_nth_type(in, 1), bt = ptx_nth_type(in, 0);
	bool as = at == PTX_T_S32, bs = bt == PTX_T_S32;
	int half = two ? ptx_either(in, "lo", "hi") : 0;
	uint32_t d, a, b, z = ptx_temp(pl), acc = ptx_temp(pl);
	uint32_t x = ptx_temp(pl), y = ptx_temp(pl), i, n = two ? 2 : 4;
	struct ptx_val c;

	if ((at != PTX_T_U32 && !as) || (bt != PTX_T_U32 && !bs))
		return ptx_bad(pl, in, "unsupported type");
	if (half < 0)
		return ptx_bad(pl, in, "missing .lo or .hi");
	if (ptx_nopnds(pl, in, 4) || ptx_dst(pl, in, 0, false, &d) ||
	    ptx_src_reg(pl, &in->opnds[1], VGPU_T_U32, &a) ||
	    ptx_src_reg(pl, &in->opnds[2], VGPU_T_U32, &b) ||
	    ptx_src_val(pl, &in->opnds[3], VGPU_T_U32, &c) ||
	    (c.reloc && ptx_in_reg(pl, &c, VGPU_T_U32)) ||
	    ((!as || !bs) && ptx_movi(pl, VGPU_T_U32, z, 0)))
		return -1;
	for (i = 0; i < n; i++) {
		struct vgpu_insn mad = { .op = VGPU_OP_MAD, .type = VGPU_T_U32,
					 .guard = VGPU_PRED_NONE,
					 .dst = i + 1 == n ? d : acc,
					 .a = x, .b = y, .c = acc };

		if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_PRMT,
				.type = VGPU_T_U32, .guard = VGPU_PRED_NONE,
				.dst = x, .a = a, .b = as ? a : z,
				.flags = VGPU_IF_C_IMM,
				.imm = ptx_elem_sel(i, two ? 2 : 1, as) }, false) ||
		    ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_PRMT,
				.type = VGPU_T_U32, .guard = VGPU_PRED_NONE,
				.dst = y, .a = b, .b = bs ? b : z,
				.flags = VGPU_IF_C_IMM,
				.imm = ptx_elem_sel(i + 2 * half, 1, bs) }, false))
			return -1;
		if (!i) {
			mad.c = c.imm ? 0 : c.reg;
			if (c.imm) {
				mad.flags = VGPU_IF_C_IMM;
				mad.imm = c.bits;
			}
		}
		if (ptx_emit(pl, mad, false))
			return -1;
	}
	return 0;
}

int ptx_lower_dp4a(struct ptx_lower *pl, const struct ptx_insn *in)
{
	return ptx_dp(pl, in, false);
}

int ptx_lower_dp2a(struct ptx_lower *pl, const struct ptx_insn *in)
{
	return ptx_dp(pl, in, true);
}

/*
 * vabsdiff4.u32.u32.u32 d, a, b, c: the absolute differences of a's and
 * b's bytes, as d's bytes (c, the merge operand, is unused when every
 * byte is computed); with .add, d = c + their sum. This is what nvcc
 * writes for __vabsdiffu4, __vabsdiffs4 and __vsadu4; other types,
 * masks, selectors and .sat are refused.
 */
int ptx_lower_vabsdiff4(struct ptx_lower *pl, const struct ptx_insn *in)
{
	bool add = ptx_has_mod(in, "add");
	uint32_t d, a, b, z = ptx_temp(pl), x = ptx_temp(pl), y = ptx_temp(pl);
	uint32_t diff[4], i;
	struct ptx_val c;

	for (i = 0; i < 3; i++)
		if (ptx_nth_type(in, i) != PTX_T_U32)
			return ptx_bad(pl, in, "only .u32.u32.u32 is supported");
	if (ptx_nth_type(in, 3) != PTX_T_NONE || ptx_has_mod(in, "sat"))
		return ptx_bad(pl, in, "only .u32.u32.u32 is supported");
	if (ptx_nopnds(pl, in, 4) || ptx_dst(pl, in, 0, false, &d) ||
	    ptx_src_reg(pl, &in->opnds[1], VGPU_T_U32, &a) ||
	    ptx_src_reg(pl, &in->opnds[2], VGPU_T_U32, &b) ||
	    ptx_src_val(pl, &in->opnds[3], VGPU_T_U32, &c) ||
	    ptx_movi(pl, VGPU_T_U32, z, 0))
		return -1;
	for (i = 0; i < 4; i++) {
		diff[i] = ptx_temp(pl);
		if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_PRMT,
				.type = VGPU_T_U32, .guard = VGPU_PRED_NONE, .dst = x,
				.a = a, .b = z, .flags = VGPU_IF_C_IMM,
				.imm = ptx_elem_sel(i, 1, false) }, false) ||
		    ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_PRMT,
				.type = VGPU_T_U32, .guard = VGPU_PRED_NONE, .dst = y,
				.a = b, .b = z, .flags = VGPU_IF_C_IMM,
				.imm = ptx_elem_sel(i, 1, false) }, false) ||
		    ptx_op(pl, VGPU_OP_SUB, VGPU_T_S32, diff[i], x, y) ||
		    ptx_un(pl, VGPU_OP_ABS, VGPU_T_S32, diff[i], diff[i]))
			return -1;
	}
	if (add) {
		if (ptx_opv(pl, VGPU_OP_ADD, VGPU_T_U32, x, diff[0], &c))
			return -1;
		for (i = 1; i < 4; i++)
			if (ptx_op(pl, VGPU_OP_ADD, VGPU_T_U32, i == 3 ? d : x, x, diff[i]))
				return -1;
		return 0;
	}
	/* Bytes 0 and 1 of x, 2 and 3 of y (each difference is below 256). */
	for (i = 0; i < 2; i++)
		if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_PRMT,
				.type = VGPU_T_U32, .guard = VGPU_PRED_NONE,
				.dst = i ? y : x, .a = diff[2 * i],
				.b = diff[2 * i + 1], .flags = VGPU_IF_C_IMM,
				.imm = 0x1140 }, false))
			return -1;
	return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_PRMT,
			.type = VGPU_T_U32, .guard = VGPU_PRED_NONE, .dst = d,
			.a = x, .b = y, .flags = VGPU_IF_C_IMM, .imm = 0x5410 },
			false);
}
