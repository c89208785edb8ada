// SPDX-License-Identifier: MIT
/*
 * The ALU forms: arithmetic, comparisons, selects, conversions, bit-field
 * inserts, byte permutes and moves, each one ISA operation but for a few.
 *
 * The opcode's modifiers pick the operation's type, rounding and flags.
 * Half precision is computed in f64, a few instructions a half, and vector
 * moves pack and unpack registers.
 */
#include <string.h>

#include "ptx_ops.h"

/* .rn .rz .rm .rp and the integer forms .rni ...; 0 (nearest) if none. */
static uint8_t ptx_round(const struct ptx_insn *in)
{
	static const char *const names[] = {
		"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi",
	};
	uint32_t i, r;

	for (i = 0; i < in->nmods; i++)
		for (r = 0; r < 8; r++)
			if (!strcmp(in->mods[i], names[r]))
				return (uint8_t)r;
	return 0;
}

static uint8_t ptx_fflags(const struct ptx_insn *in)
{
	return (ptx_has_mod(in, "ftz") ? VGPU_IF_FTZ : 0) |
	       (ptx_has_mod(in, "sat") ? VGPU_IF_SAT : 0);
}

/*
 * d = a OP b [c]: @a in a register; @b and @c registers or (one of them)
 * the immediate.
 */
static int ptx_alu(struct ptx_lower *pl, const struct ptx_insn *in, struct vgpu_insn x,
		   uint32_t nsrc)
{
	bool pred = x.op == VGPU_OP_SETP || x.type == VGPU_T_PRED;
	struct ptx_val a, b, c;

	if (ptx_nopnds(pl, in, nsrc + 1) || ptx_dst(pl, in, 0, pred, &x.dst) ||
	    ptx_src_val(pl, &in->opnds[1], x.type, &a) || ptx_in_reg(pl, &a, x.type))
		return -1;
	x.a = a.reg;
	x.guard = VGPU_PRED_NONE;
	if (nsrc >= 2) {
		if (ptx_src_val(pl, &in->opnds[2], x.type, &b))
			return -1;
		if (nsrc == 3) {
			if (ptx_src_val(pl, &in->opnds[3], x.type, &c))
				return -1;
			if (b.imm && c.imm && ptx_in_reg(pl, &b, x.type))
				return -1;
			if (c.imm) {
				x.flags |= VGPU_IF_C_IMM;
				x.imm = c.bits;
			} else {
				x.c = c.reg;
			}
		}
		if (b.imm) {
			x.flags |= VGPU_IF_B_IMM;
			x.imm = b.bits;
		} else {
			x.b = b.reg;
		}
		if ((b.imm && b.reloc) || (nsrc == 3 && c.imm && c.reloc))
			return ptx_emit(pl, x, true);
	}
	return ptx_emit(pl, x, false);
}

/* --- arithmetic ------------------------------------------------------------- */

#define PTX_I(...) ((struct vgpu_insn){ .guard = VGPU_PRED_NONE, __VA_ARGS__ })

/*
 * Half precision, one value (.f16) or two packed in 32 bits (.f16x2):
 * each half is widened to f64, computed there and rounded back. f64 holds
 * any sum or product of halves exactly or so near that rounding twice
 * (to f64, then to f16) gives the correctly rounded half, as PTX asks;
 * neg and abs only touch the sign bit, as on the hardware.
 */
static int ptx_half(struct ptx_lower *pl, const struct ptx_insn *in, uint8_t op,
		    uint8_t nsrc, bool x2)
{
	uint32_t d, src[3], t[3], r = ptx_temp(pl), acc = ptx_temp(pl), h, i;
	uint8_t sat = ptx_has_mod(in, "sat") ? VGPU_IF_SAT : 0;

	if (op != VGPU_OP_ADD && op != VGPU_OP_SUB && op != VGPU_OP_MUL &&
	    op != VGPU_OP_FMA && op != VGPU_OP_MIN && op != VGPU_OP_MAX &&
	    op != VGPU_OP_NEG && op != VGPU_OP_ABS)
		return ptx_bad(pl, in, "unsupported type");
	if (ptx_has_mod(in, "ftz") || ptx_round(in))
		return ptx_bad(pl, in, "only round-to-nearest half precision without ftz is supported");
	if (ptx_nopnds(pl, in, nsrc + 1) || ptx_dst(pl, in, 0, false, &d))
		return -1;
	for (i = 0; i < nsrc; i++) {
		if (ptx_src_reg(pl, &in->opnds[1 + i], VGPU_T_U32, &src[i]))
			return -1;
		t[i] = ptx_temp(pl);
	}
	for (h = 0; h < (x2 ? 2u : 1u); h++) {
		for (i = 0; i < nsrc; i++) {
			uint32_t from = src[i];

			if (h) {
				if (ptx_emit(pl, PTX_I(.op = VGPU_OP_SHR, .type = VGPU_T_U32,
						       .dst = t[i], .a = src[i],
						       .flags = VGPU_IF_B_IMM, .imm = 16), false))
					return -1;
				from = t[i];
			}
			if (ptx_emit(pl, PTX_I(.op = VGPU_OP_MOV, .type = VGPU_T_U16,
					       .dst = t[i], .b = from), false))
				return -1;
			if (op != VGPU_OP_NEG && op != VGPU_OP_ABS &&
			    ptx_emit(pl, PTX_I(.op = VGPU_OP_CVT, .type = VGPU_T_F64,
					       .stype = VGPU_T_F16, .dst = t[i],
					       .a = t[i]), false))
				return -1;
		}
		if (op == VGPU_OP_NEG || op == VGPU_OP_ABS) {
			if (ptx_emit(pl, PTX_I(.op = op == VGPU_OP_NEG ? VGPU_OP_XOR :
					       VGPU_OP_AND, .type = VGPU_T_U32, .dst = r,
					       .a = t[0], .flags = VGPU_IF_B_IMM,
					       .imm = op == VGPU_OP_NEG ? 0x8000 : 0x7fff),
				     false))
				return -1;
		} else if (ptx_emit(pl, PTX_I(.op = op, .type = VGPU_T_F64, .dst = r,
					      .a = t[0], .b = nsrc > 1 ? t[1] : 0,
					      .c = nsrc > 2 ? t[2] : 0), false) ||
			   ptx_emit(pl, PTX_I(.op = VGPU_OP_CVT, .type = VGPU_T_F16,
					      .stype = VGPU_T_F64, .flags = sat,
					      .dst = r, .a = r), false)) {
			return -1;
		}
		if (!h) {
			if (ptx_emit(pl, PTX_I(.op = VGPU_OP_MOV, .type = VGPU_T_U32,
					       .dst = acc, .b = r), false))
				return -1;
			continue;
		}
		if (ptx_emit(pl, PTX_I(.op = VGPU_OP_SHL, .type = VGPU_T_U32, .dst = r,
				       .a = r, .flags = VGPU_IF_B_IMM, .imm = 16), false) ||
		    ptx_emit(pl, PTX_I(.op = VGPU_OP_OR, .type = VGPU_T_U32, .dst = acc,
				       .a = acc, .b = r), false))
			return -1;
	}
	return ptx_emit(pl, PTX_I(.op = VGPU_OP_MOV, .type = x2 ? VGPU_T_U32 :
				  VGPU_T_U16, .dst = d, .b = acc), false);
}

/*
 * The arithmetic forms: ISA operation @op of @nsrc sources, and for an
 * integer type the ISA @flags of the opcode (the carry in of addc, subc
 * and madc).
 */
int ptx_lower_arith(struct ptx_lower *pl, const struct ptx_insn *in, uint8_t op,
		    uint8_t nsrc, uint8_t flags)
{
	struct vgpu_insn x = { .op = op };
	enum ptx_type pt = ptx_nth_type(in, 0);

	if (pt == PTX_T_F16 || pt == PTX_T_F16X2)
		return ptx_half(pl, in, op, nsrc, pt == PTX_T_F16X2);
	if (ptx_itype(pl, in, 0, &x.type))
		return -1;
	if (ptx_vfloat(x.type)) {
		if (op == VGPU_OP_MIN || op == VGPU_OP_MAX) {
			if (ptx_has_mod(in, "NaN") || ptx_has_mod(in, "xorsign"))
				return ptx_bad(pl, in, "unsupported modifier");
		} else if (op != VGPU_OP_ABS && op != VGPU_OP_NEG &&
			   op != VGPU_OP_COPYSIGN && op < VGPU_OP_RSQRT) {
			x.mod = ptx_round(in);
			/* sqrt, rcp and div .approx: the H100's own answers. */
			if (x.type == VGPU_T_F32 && ptx_has_mod(in, "approx") &&
			    (op == VGPU_OP_SQRT || op == VGPU_OP_RCP ||
			     op == VGPU_OP_DIV))
				x.mod = VGPU_RND_APPROX;
			if (x.type == VGPU_T_F32 && ptx_has_mod(in, "full") &&
			    op == VGPU_OP_DIV)
				x.mod = VGPU_RND_FULL;
		}
		x.flags = ptx_fflags(in);
		if (x.type == VGPU_T_F64)
			x.flags &= ~VGPU_IF_FTZ;	/* f64 has no ftz */
		return ptx_alu(pl, in, x, nsrc);
	}
	if (x.type == VGPU_T_PRED && op != VGPU_OP_AND && op != VGPU_OP_OR &&
	    op != VGPU_OP_XOR && op != VGPU_OP_NOT)
		return ptx_bad(pl, in, "unsupported type");
	if (op == VGPU_OP_MUL || op == VGPU_OP_MAD) {
		if (ptx_has_mod(in, "hi"))
			x.mod = VGPU_MUL_HI;
		else if (ptx_has_mod(in, "wide"))
			x.mod = VGPU_MUL_WIDE;
	}
	if (op == VGPU_OP_BFIND && ptx_has_mod(in, "shiftamt"))
		x.mod = 1;
	if (ptx_has_mod(in, "sat"))
		x.flags |= VGPU_IF_SAT;
	if (ptx_has_mod(in, "cc"))
		x.flags |= VGPU_IF_CC_OUT;
	x.flags |= flags;
	/*
	 * b-types map to unsigned ones, so shr.b32 is logical, as in PTX;
	 * popc, clz and bfind of a 64-bit source write a u32 (the ISA's
	 * type is the source's).
	 */
	return ptx_alu(pl, in, x, nsrc);
}

/*
 * An add or sub @in that takes the product of @mul (ptx_contract.c) in
 * its operand register @prod, negated there with @neg: one fma.rn of the
 * mul's sources and the other operand, with the add's ftz and sat.
 */
int ptx_lower_fused(struct ptx_lower *pl, const struct ptx_insn *in,
		    const struct ptx_insn *mul, uint32_t prod, bool neg)
{
	struct vgpu_insn x = { .op = VGPU_OP_FMA, .mod = VGPU_RND_RN };
	uint32_t k = in->opnds[1].kind == PTX_O_REG && in->opnds[1].reg == prod ? 1 : 2;
	bool sub = !strcmp(in->op, "sub");
	bool neg_prod = neg != (sub && k == 2), neg_other = sub && k == 1;
	uint32_t *r[2] = { &x.a, &x.c };
	bool negate[2] = { neg_prod, neg_other };
	int i;

	if (ptx_nopnds(pl, in, 3) || ptx_itype(pl, in, 0, &x.type) ||
	    ptx_dst(pl, in, 0, false, &x.dst) ||
	    ptx_src_reg(pl, &mul->opnds[1], x.type, &x.a) ||
	    ptx_src_reg(pl, &mul->opnds[2], x.type, &x.b) ||
	    ptx_src_reg(pl, &in->opnds[3 - k], x.type, &x.c))
		return -1;
	for (i = 0; i < 2; i++) {
		uint32_t t;

		if (!negate[i])
			continue;
		t = ptx_temp(pl);
		if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_NEG, .type = x.type,
				.guard = VGPU_PRED_NONE, .dst = t, .a = *r[i] }, false))
			return -1;
		*r[i] = t;
	}
	x.flags = ptx_fflags(in);
	if (x.type == VGPU_T_F64)
		x.flags &= ~VGPU_IF_FTZ;
	x.guard = VGPU_PRED_NONE;
	return ptx_emit(pl, x, false);
}

int ptx_lower_setp(struct ptx_lower *pl, const struct ptx_insn *in)
{
	static const char *const cmps[] = {
		"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu",
		"gtu", "geu", "num", "nan",
	};
	static const char *const ucmps[] = { "lo", "ls", "hi", "hs" };
	struct vgpu_insn x = { .op = VGPU_OP_SETP };
	uint32_t i, c, q;
	bool found = false;

	if (ptx_itype(pl, in, 0, &x.type))
		return -1;
	for (i = 0; i < in->nmods && !found; i++) {
		for (c = 0; c < 14 && !found; c++)
			if (!strcmp(in->mods[i], cmps[c])) {
				x.mod = (uint8_t)c;
				found = true;
			}
		for (c = 0; c < 4 && !found; c++)
			if (!strcmp(in->mods[i], ucmps[c])) {
				x.mod = (uint8_t)(VGPU_CMP_LT + c);
				found = true;
			}
		if (!strcmp(in->mods[i], "and") || !strcmp(in->mods[i], "or") ||
		    !strcmp(in->mods[i], "xor"))
			return ptx_bad(pl, in, "combining with a predicate is not supported");
	}
	if (!found)
		return ptx_bad(pl, in, "missing comparison");
	if (!ptx_vfloat(x.type) && x.mod > VGPU_CMP_GE)
		return ptx_bad(pl, in, "unordered comparison of integers");
	if (x.type == VGPU_T_F16)
		return ptx_bad(pl, in, "half-precision comparison is not supported yet");
	if (x.type == VGPU_T_F32 && ptx_has_mod(in, "ftz"))
		x.flags = VGPU_IF_FTZ;
	if (ptx_alu(pl, in, x, 2))
		return -1;
	if (!in->has_pipe)
		return 0;
	/* "p|q": q is the complement. */
	q = ptx_reg_of(pl, in->pipe_reg, true);
	return ptx_emit(pl, (struct vgpu_insn){
		.op = VGPU_OP_NOT, .type = VGPU_T_PRED, .guard = VGPU_PRED_NONE,
		.dst = q, .a = ptx_reg_of(pl, in->opnds[0].reg, true) }, false);
}

int ptx_lower_selp(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_SELP };
	const struct ptx_opnd *p;

	if (ptx_nopnds(pl, in, 4) || ptx_itype(pl, in, 0, &x.type))
		return -1;
	p = &in->opnds[3];
	if (p->kind != PTX_O_REG || p->neg)
		return ptx_bad(pl, in, "selector must be a predicate register");
	x.c = ptx_reg_of(pl, p->reg, true);
	/* ptx_alu() would treat c as a source value: do it by hand. */
	{
		struct ptx_val a, b;

		if (ptx_dst(pl, in, 0, x.type == VGPU_T_PRED, &x.dst) ||
		    ptx_src_val(pl, &in->opnds[1], x.type, &a) ||
		    ptx_in_reg(pl, &a, x.type) ||
		    ptx_src_val(pl, &in->opnds[2], x.type, &b))
			return -1;
		x.a = a.reg;
		x.guard = VGPU_PRED_NONE;
		if (b.imm) {
			x.flags = VGPU_IF_B_IMM;
			x.imm = b.bits;
		} else {
			x.b = b.reg;
		}
		return ptx_emit(pl, x, b.imm && b.reloc);
	}
}

int ptx_lower_cvt(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_CVT, .guard = VGPU_PRED_NONE };
	uint32_t src;

	if (ptx_nopnds(pl, in, 2) || ptx_itype(pl, in, 1, &x.type) ||
	    ptx_itype(pl, in, 0, &x.stype) || ptx_dst(pl, in, 0, x.type == VGPU_T_PRED, &x.dst) ||
	    ptx_src_reg(pl, &in->opnds[1], x.stype, &src))
		return -1;
	x.a = src;
	x.mod = ptx_round(in);
	x.flags = ptx_fflags(in);
	if (x.type == VGPU_T_PRED || x.stype == VGPU_T_PRED)
		return ptx_bad(pl, in, "unsupported type");
	/* Integer conversions carry no rounding; float ones default to rn. */
	if (!ptx_vfloat(x.type) && ptx_vfloat(x.stype) && x.mod < VGPU_RND_RNI)
		return ptx_bad(pl, in, "float to integer needs .rni, .rzi, .rmi or .rpi");
	if (x.type == x.stype && !x.flags && !x.mod) {
		x.op = VGPU_OP_MOV;
		x.b = x.a;
		x.a = 0;
		x.stype = 0;
	}
	return ptx_emit(pl, x, false);
}

/* @n = @v & 0xff (a bit count as bfi and bfe read it). */
static int ptx_count8(struct ptx_lower *pl, const struct ptx_val *v, uint32_t n)
{
	struct vgpu_insn x = { .op = VGPU_OP_AND, .type = VGPU_T_U32,
			       .guard = VGPU_PRED_NONE, .dst = n, .a = v->reg,
			       .flags = VGPU_IF_B_IMM, .imm = 0xff };

	if (v->imm) {
		x.op = VGPU_OP_MOV;
		x.a = 0;
		x.imm = v->bits & 0xff;
	}
	return ptx_emit(pl, x, false);
}

/*
 * bfi d, f, b, pos, len: b with len bits from pos replaced by f's low
 * bits. The ISA's shifts give 0 from a count of the width or more, which
 * is what PTX wants of both a long field and a far position.
 */
int ptx_lower_bfi(struct ptx_lower *pl, const struct ptx_insn *in)
{
	uint32_t d = 0, f = 0, b = 0, m = ptx_temp(pl), t = ptx_temp(pl), n = ptx_temp(pl), i;
	struct ptx_val pos, len;
	uint8_t vt;

	if (ptx_nopnds(pl, in, 5) || ptx_itype(pl, in, 0, &vt) ||
	    ptx_dst(pl, in, 0, false, &d) || ptx_src_reg(pl, &in->opnds[1], vt, &f) ||
	    ptx_src_reg(pl, &in->opnds[2], vt, &b) ||
	    ptx_src_val(pl, &in->opnds[3], VGPU_T_U32, &pos) ||
	    ptx_src_val(pl, &in->opnds[4], VGPU_T_U32, &len))
		return -1;
	if (ptx_vbits(vt) < 32)
		return ptx_bad(pl, in, "unsupported type");
	vt = ptx_vbits(vt) == 64 ? VGPU_T_U64 : VGPU_T_U32;
	if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_MOV, .type = vt,
			.guard = VGPU_PRED_NONE, .dst = m,
			.flags = VGPU_IF_B_IMM, .imm = 1 }, false) ||
	    ptx_count8(pl, &len, n))
		return -1;
	{
		/* m = ((1 << len) - 1) << pos; d = (b & ~m) | ((f << pos) & m) */
		const struct vgpu_insn seq[] = {
			{ .op = VGPU_OP_SHL, .dst = m, .a = m, .b = n },
			{ .op = VGPU_OP_SUB, .dst = m, .a = m,
			  .flags = VGPU_IF_B_IMM, .imm = 1 },
			{ .op = VGPU_OP_NOP },	/* n = pos & 0xff */
			{ .op = VGPU_OP_SHL, .dst = m, .a = m, .b = n },
			{ .op = VGPU_OP_SHL, .dst = t, .a = f, .b = n },
			{ .op = VGPU_OP_AND, .dst = t, .a = t, .b = m },
			{ .op = VGPU_OP_NOT, .dst = m, .a = m },
			{ .op = VGPU_OP_AND, .dst = m, .a = m, .b = b },
			{ .op = VGPU_OP_OR, .dst = d, .a = m, .b = t },
		};

		for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
			struct vgpu_insn y = seq[i];

			if (y.op == VGPU_OP_NOP) {
				if (ptx_count8(pl, &pos, n))
					return -1;
				continue;
			}
			y.type = vt;
			y.guard = VGPU_PRED_NONE;
			if (ptx_emit(pl, y, false))
				return -1;
		}
	}
	return 0;
}

/*
 * prmt.b32{.mode} d, a, b, c: the ISA's PRMT picks bytes of {b, a} the
 * same way; its modifier is the mode's place in the list, 0 for none.
 */
int ptx_lower_prmt(struct ptx_lower *pl, const struct ptx_insn *in)
{
	static const char *const modes[] = {
		"f4e", "b4e", "rc8", "ecl", "ecr", "rc16",
	};
	struct vgpu_insn x = { .op = VGPU_OP_PRMT, .type = VGPU_T_U32 };
	uint32_t i, m;

	if (ptx_nth_type(in, 0) != PTX_T_B32)
		return ptx_bad(pl, in, "unsupported type");
	for (i = 0; i < in->nmods; i++)
		for (m = 0; m < 6; m++)
			if (!strcmp(in->mods[i], modes[m]))
				x.mod = (uint8_t)(m + 1);
	return ptx_alu(pl, in, x, 3);
}

/* --- moves ---------------------------------------------------------------- */

/* mov.b64 d, {lo, hi} and mov.b32 d, {lo, hi} (16-bit halves). */
static int ptx_pack(struct ptx_lower *pl, const struct ptx_insn *in, uint8_t vt)
{
	const struct ptx_opnd *v = &in->opnds[1];
	unsigned int half = ptx_vbits(vt) / v->nvec;
	uint8_t ht = half == 32 ? VGPU_T_U32 : half == 16 ? VGPU_T_U16 :
		     VGPU_T_NONE;
	uint32_t d = 0, t = ptx_temp(pl), i;

	if (ht == VGPU_T_NONE || v->nvec * half != ptx_vbits(vt))
		return ptx_bad(pl, in, "unsupported vector move");
	if (ptx_dst(pl, in, 0, false, &d))
		return -1;
	for (i = 0; i < v->nvec; i++) {
		uint32_t src;

		if (v->vec[i] < 0)
			return ptx_bad(pl, in, "sink in a source vector");
		src = ptx_reg_of(pl, (uint32_t)v->vec[i], false);
		/* t = src cut to the half, shifted into place, or'ed in. */
		if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_MOV,
				.guard = VGPU_PRED_NONE, .type = ht, .dst = t,
				.b = src }, false))
			return -1;
		if (i && ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_SHL,
				.guard = VGPU_PRED_NONE, .type = VGPU_T_U64,
				.flags = VGPU_IF_B_IMM, .dst = t, .a = t,
				.imm = half * i }, false))
			return -1;
		if (ptx_emit(pl, (struct vgpu_insn){
				.op = i ? VGPU_OP_OR : VGPU_OP_MOV,
				.guard = VGPU_PRED_NONE, .type = VGPU_T_U64,
				.dst = d, .a = i ? d : 0, .b = t }, false))
			return -1;
	}
	return 0;
}

/* mov.b64 {lo, hi}, s and mov.b32 {lo, hi}, s. */
static int ptx_unpack(struct ptx_lower *pl, const struct ptx_insn *in, uint8_t vt)
{
	const struct ptx_opnd *v = &in->opnds[0];
	unsigned int half = v->nvec ? ptx_vbits(vt) / v->nvec : 0;
	uint8_t ht = half == 32 ? VGPU_T_U32 : half == 16 ? VGPU_T_U16 :
		     VGPU_T_NONE;
	uint32_t s, t = ptx_temp(pl), i;

	if (ht == VGPU_T_NONE || v->nvec * half != ptx_vbits(vt) ||
	    ptx_src_reg(pl, &in->opnds[1], VGPU_T_U64, &s))
		return ptx_bad(pl, in, "unsupported vector move");
	/* Copy the source first: a destination may be the source. */
	if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_MOV,
			.guard = VGPU_PRED_NONE, .type = VGPU_T_U64, .dst = t,
			.b = s }, false))
		return -1;
	for (i = 0; i < v->nvec; i++) {
		uint32_t d;

		if (v->vec[i] < 0)
			continue;
		d = ptx_reg_of(pl, (uint32_t)v->vec[i], false);
		if (i && ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_SHR,
				.guard = VGPU_PRED_NONE, .type = VGPU_T_U64,
				.flags = VGPU_IF_B_IMM, .dst = d, .a = t,
				.imm = half * i }, false))
			return -1;
		if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_MOV,
				.guard = VGPU_PRED_NONE, .type = ht, .dst = d,
				.b = i ? d : t }, false))
			return -1;
	}
	return 0;
}

int ptx_lower_mov(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_MOV, .guard = VGPU_PRED_NONE };
	struct ptx_val v;

	if (ptx_nopnds(pl, in, 2) || ptx_itype(pl, in, 0, &x.type))
		return -1;
	if (in->opnds[1].kind == PTX_O_VEC)
		return ptx_pack(pl, in, x.type);
	if (in->opnds[0].kind == PTX_O_VEC)
		return ptx_unpack(pl, in, x.type);
	if (ptx_dst(pl, in, 0, x.type == VGPU_T_PRED, &x.dst))
		return -1;
	if (in->opnds[1].kind == PTX_O_SREG)
		return ptx_read_sreg(pl, &in->opnds[1], x.dst, x.type);
	if (ptx_src_val(pl, &in->opnds[1], x.type, &v))
		return -1;
	if (x.type == VGPU_T_PRED && v.imm) {
		/* setp-free constant predicate: p = (0 == 0) or (0 != 0). */
		uint32_t t = ptx_temp(pl);

		if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_MOV,
				.guard = VGPU_PRED_NONE, .type = VGPU_T_U32,
				.dst = t, .flags = VGPU_IF_B_IMM }, false))
			return -1;
		return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_SETP,
				.guard = VGPU_PRED_NONE, .type = VGPU_T_U32,
				.mod = v.bits ? VGPU_CMP_EQ : VGPU_CMP_NE,
				.dst = x.dst, .a = t, .b = t }, false);
	}
	if (v.imm) {
		x.flags = VGPU_IF_B_IMM;
		x.imm = v.bits;
	} else {
		x.b = v.reg;
	}
	return ptx_emit(pl, x, v.imm && v.reloc);
}
