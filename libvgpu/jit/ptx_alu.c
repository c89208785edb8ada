// SPDX-License-Identifier: MIT
/*
 * PTX instructions to vgpu ISA instructions, one at a time: the opcode
 * and modifiers pick the operation, type, rounding and flags; operands
 * become registers, predicates and immediates, with temporaries where
 * the ISA wants a register that PTX gave as a constant. What vgpu does
 * not support is refused at the instruction's line and column.
 */
#include <string.h>

#include "ptx_emit.h"

static bool ptx_opcode_is(const struct ptx_insn *in, const char *op)
{
	return !strcmp(in->op, op);
}

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

static const struct {
	const char *name;
	uint8_t op;
	uint8_t nsrc;
} ptx_arith_ops[] = {
	{ "add", VGPU_OP_ADD, 2 }, { "sub", VGPU_OP_SUB, 2 },
	{ "mul", VGPU_OP_MUL, 2 }, { "mad", VGPU_OP_MAD, 3 },
	{ "fma", VGPU_OP_FMA, 3 }, { "div", VGPU_OP_DIV, 2 },
	{ "rem", VGPU_OP_REM, 2 }, { "min", VGPU_OP_MIN, 2 },
	{ "max", VGPU_OP_MAX, 2 }, { "abs", VGPU_OP_ABS, 1 },
	{ "neg", VGPU_OP_NEG, 1 }, { "and", VGPU_OP_AND, 2 },
	{ "or", VGPU_OP_OR, 2 }, { "xor", VGPU_OP_XOR, 2 },
	{ "not", VGPU_OP_NOT, 1 }, { "shl", VGPU_OP_SHL, 2 },
	{ "shr", VGPU_OP_SHR, 2 }, { "addc", VGPU_OP_ADD, 2 },
	{ "subc", VGPU_OP_SUB, 2 }, { "madc", VGPU_OP_MAD, 3 },
	{ "copysign", VGPU_OP_COPYSIGN, 2 }, { "popc", VGPU_OP_POPC, 1 },
	{ "clz", VGPU_OP_CLZ, 1 }, { "brev", VGPU_OP_BREV, 1 },
	{ "bfind", VGPU_OP_BFIND, 1 }, { "bfe", VGPU_OP_BFE, 3 },
	{ "sqrt", VGPU_OP_SQRT, 1 }, { "rcp", VGPU_OP_RCP, 1 },
	{ "rsqrt", VGPU_OP_RSQRT, 1 }, { "ex2", VGPU_OP_EX2, 1 },
	{ "lg2", VGPU_OP_LG2, 1 }, { "sin", VGPU_OP_SIN, 1 },
	{ "cos", VGPU_OP_COS, 1 }, { "tanh", VGPU_OP_TANH, 1 },
};

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

static int ptx_lower_arith(struct ptx_lower *pl, const struct ptx_insn *in, uint8_t op,
			   uint8_t nsrc)
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
	if (ptx_opcode_is(in, "addc") || ptx_opcode_is(in, "subc") || ptx_opcode_is(in, "madc"))
		x.flags |= VGPU_IF_CC_IN;
	/*
	 * b-types map to unsigned ones, so shr.b32 is logical, as in PTX;
	 * popc, clz and bfind of a 64-bit source write a u32 (the ISA's
	 * type is the source's).
	 */
	return ptx_alu(pl, in, x, nsrc);
}

static int ptx_lower_setp(struct ptx_lower *pl, const struct ptx_insn *in)
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

static int ptx_lower_selp(struct ptx_lower *pl, const struct ptx_insn *in)
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

static int ptx_lower_cvt(struct ptx_lower *pl, const struct ptx_insn *in)
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
static int ptx_lower_bfi(struct ptx_lower *pl, const struct ptx_insn *in)
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
static int ptx_lower_prmt(struct ptx_lower *pl, const struct ptx_insn *in)
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

static int ptx_lower_mov(struct ptx_lower *pl, const struct ptx_insn *in)
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

/* cvta: generic addresses of shared and local memory are their windows. */
static int ptx_lower_cvta(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .guard = VGPU_PRED_NONE };
	bool to = ptx_has_mod(in, "to");
	uint64_t window = 0;
	struct ptx_val v;

	if (ptx_nopnds(pl, in, 2) || ptx_itype(pl, in, 0, &x.type) ||
	    ptx_dst(pl, in, 0, x.type == VGPU_T_PRED, &x.dst))
		return -1;
	if (ptx_has_mod(in, "shared"))
		window = VGPU_SHARED_WINDOW;
	else if (ptx_has_mod(in, "local"))
		window = VGPU_LOCAL_WINDOW;
	else if (!ptx_has_mod(in, "global"))
		return ptx_bad(pl, in, "unsupported state space");
	if (ptx_src_val(pl, &in->opnds[1], x.type, &v))
		return -1;
	if (!window) {
		/* Global and generic addresses are the same numbers. */
		x.op = VGPU_OP_MOV;
		if (v.imm) {
			x.flags = VGPU_IF_B_IMM;
			x.imm = v.bits;
		} else {
			x.b = v.reg;
		}
		return ptx_emit(pl, x, v.imm && v.reloc);
	}
	if (ptx_in_reg(pl, &v, x.type))
		return -1;
	x.op = to ? VGPU_OP_SUB : VGPU_OP_ADD;
	x.a = v.reg;
	x.flags = VGPU_IF_B_IMM;
	x.imm = ptx_cut(window, x.type);
	if (ptx_vbits(x.type) < 64)
		return ptx_bad(pl, in, "32-bit generic addresses are not supported");
	return ptx_emit(pl, x, false);
}

/* --- memory ---------------------------------------------------------------- */

static int ptx_insn_space(const struct ptx_insn *in, uint8_t *space)
{
	static const struct { const char *name; uint8_t space; } spaces[] = {
		{ "global", VGPU_SPACE_GLOBAL }, { "shared", VGPU_SPACE_SHARED },
		{ "local", VGPU_SPACE_LOCAL }, { "param", VGPU_SPACE_PARAM },
		/* __constant__ data is in device memory (ptx_lower.c) */
		{ "const", VGPU_SPACE_GLOBAL },
	};
	uint32_t i, s;

	*space = VGPU_SPACE_GENERIC;
	for (i = 0; i < in->nmods; i++)
		for (s = 0; s < 5; s++)
			if (!strcmp(in->mods[i], spaces[s].name))
				*space = spaces[s].space;
	if (ptx_has_mod(in, "shared::cluster"))
		return -1;
	return 0;
}

static uint8_t ptx_vspace(enum ptx_space s)
{
	switch (s) {
	case PTX_S_GLOBAL: return VGPU_SPACE_GLOBAL;
	case PTX_S_SHARED: return VGPU_SPACE_SHARED;
	case PTX_S_LOCAL: return VGPU_SPACE_LOCAL;
	case PTX_S_PARAM: return VGPU_SPACE_PARAM;
	case PTX_S_CONST: return VGPU_SPACE_GLOBAL;
	default: return VGPU_SPACE_GENERIC;
	}
}

/* [base+off] into @a and @imm; *@reloc when the offset is a global's. */
static int ptx_addr(struct ptx_lower *pl, const struct ptx_insn *in,
		    const struct ptx_opnd *o, uint8_t *space, uint32_t *a,
		    uint64_t *imm, bool *reloc)
{
	struct ptx_val v;
	enum ptx_space sp;

	*reloc = false;
	if (o->kind != PTX_O_ADDR)
		return ptx_bad(pl, in, "address operand expected");
	switch (o->base) {
	case PTX_BASE_REG:
		*a = ptx_reg_of(pl, o->reg, false);
		*imm = (uint64_t)o->imm;
		return 0;
	case PTX_BASE_SYM:
		if (ptx_sym_addr(pl, o, &v, &sp))
			return -1;
		if (*space == VGPU_SPACE_GENERIC) {
			/* A symbol's own space (clang writes ld.f32 [sym]). */
			*space = ptx_vspace(sp);
		} else if (*space != ptx_vspace(sp)) {
			return ptx_bad(pl, in, "symbol is not in the instruction's state space");
		}
		*a = VGPU_NO_REG;
		*imm = v.bits;
		*reloc = v.reloc;
		return 0;
	default:
		*a = VGPU_NO_REG;
		*imm = (uint64_t)o->imm;
		return 0;
	}
}

/* Registers of a ld/st data operand: one, or a vector's. */
static int ptx_data_regs(struct ptx_lower *pl, const struct ptx_insn *in,
			 const struct ptx_opnd *o, uint32_t nvec, bool store,
			 uint8_t vt, int64_t *regs)
{
	uint32_t i;

	if (o->kind == PTX_O_VEC) {
		if (o->nvec != nvec)
			return ptx_bad(pl, in, "vector size does not match the type");
		for (i = 0; i < nvec; i++)
			regs[i] = o->vec[i] < 0 ? -1 :
				  (int64_t)ptx_reg_of(pl, (uint32_t)o->vec[i], false);
		return 0;
	}
	if (nvec != 1)
		return ptx_bad(pl, in, "vector operand expected");
	if (o->kind == PTX_O_REG) {
		regs[0] = ptx_reg_of(pl, o->reg, false);
		return 0;
	}
	if (!store)
		return ptx_bad(pl, in, "destination must be a register");
	{
		/* st of a constant: ST's immediate is the address offset. */
		uint32_t r;

		if (ptx_src_reg(pl, o, vt, &r))
			return -1;
		regs[0] = r;
	}
	return 0;
}

/* The slot behind a .param symbol of a call sequence, if it is one. */
static bool ptx_slot_of(const struct ptx_lower *pl, struct ptx_sym s, uint32_t *slot)
{
	const struct ptx_frame *f = &pl->f;

	switch (s.kind) {
	case PTX_SYM_FUNCVAR:
		if (f->fn->vars[s.index].space != PTX_S_PARAM)
			return false;
		*slot = f->var_slot[s.index];
		return true;
	case PTX_SYM_PARAM:
		if (!f->param_slot)
			return false;	/* a kernel's: the parameter space */
		*slot = f->param_slot[s.index];
		return true;
	case PTX_SYM_RET:
		if (!f->ret_slot)
			return false;
		*slot = f->ret_slot[s.index];
		return true;
	default:
		return false;
	}
}

/*
 * One ld.param/st.param of @size bytes at byte @off of the slots from
 * @slot: a move when it is a whole slot, else a shift and mask.
 */
static int ptx_slot_access(struct ptx_lower *pl, const struct ptx_insn *in, bool store,
			   uint32_t slot, uint64_t off, unsigned int size,
			   uint8_t vt, uint32_t reg)
{
	uint32_t r = slot + (uint32_t)(off / 8), sh = (uint32_t)(off % 8) * 8;
	uint64_t mask = size == 8 ? ~0ULL : ((1ULL << (size * 8)) - 1) << sh;
	uint32_t t = ptx_temp(pl), u = ptx_temp(pl);
	struct vgpu_insn x = { .guard = VGPU_PRED_NONE, .type = VGPU_T_U64 };

	if (off % size || sh + size * 8 > 64)
		return ptx_bad(pl, in, "unaligned parameter access");
	if (!store) {
		/* d = slot >> sh, cut to the type */
		x.op = VGPU_OP_SHR;
		x.dst = t;
		x.a = r;
		x.flags = VGPU_IF_B_IMM;
		x.imm = sh;
		if (ptx_emit(pl, x, false))
			return -1;
		return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_MOV,
				.guard = VGPU_PRED_NONE, .type = vt, .dst = reg,
				.b = t }, false);
	}
	if (size == 8)
		return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_MOV,
				.guard = VGPU_PRED_NONE, .type = VGPU_T_U64,
				.dst = r, .b = reg }, false);
	{
		/* slot = (slot & ~mask) | ((v << sh) & mask) */
		const struct vgpu_insn seq[] = {
			{ .op = VGPU_OP_SHL, .dst = t, .a = reg,
			  .flags = VGPU_IF_B_IMM, .imm = sh },
			{ .op = VGPU_OP_AND, .dst = t, .a = t,
			  .flags = VGPU_IF_B_IMM, .imm = mask },
			{ .op = VGPU_OP_AND, .dst = u, .a = r,
			  .flags = VGPU_IF_B_IMM, .imm = ~mask },
			{ .op = VGPU_OP_OR, .dst = r, .a = u, .b = t },
		};
		unsigned int i;

		for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
			x = seq[i];
			x.type = VGPU_T_U64;
			x.guard = VGPU_PRED_NONE;
			if (ptx_emit(pl, x, false))
				return -1;
		}
	}
	return 0;
}

static int ptx_ldst(struct ptx_lower *pl, const struct ptx_insn *in)
{
	bool store = ptx_opcode_is(in, "st");
	struct vgpu_insn x = { .op = store ? VGPU_OP_ST : VGPU_OP_LD,
			       .guard = VGPU_PRED_NONE };
	uint32_t nvec = ptx_has_mod(in, "v4") ? 4 : ptx_has_mod(in, "v2") ? 2 : 1;
	int64_t regs[4];
	uint32_t a, i, size;
	uint64_t imm;
	bool reloc;

	if (ptx_nopnds(pl, in, 2) || ptx_itype(pl, in, 0, &x.type))
		return -1;
	if (x.type == VGPU_T_PRED)
		return ptx_bad(pl, in, "unsupported type");
	if (ptx_insn_space(in, &x.mod))
		return ptx_bad(pl, in, "unsupported state space");
	size = ptx_vbits(x.type) / 8;
	if (ptx_data_regs(pl, in, &in->opnds[store ? 1 : 0], nvec, store,
			  x.type, regs))
		return -1;
	{
		const struct ptx_opnd *ad = &in->opnds[store ? 0 : 1];
		uint32_t slot;

		if (ad->kind == PTX_O_ADDR && ad->base == PTX_BASE_SYM &&
		    ptx_slot_of(pl, ad->sym, &slot)) {
			for (i = 0; i < nvec; i++)
				if (regs[i] >= 0 &&
				    ptx_slot_access(pl, in, store, slot,
						    (uint64_t)ad->imm + i * size,
						    size, x.type,
						    (uint32_t)regs[i]))
					return -1;
			return 0;
		}
	}
	if (ptx_addr(pl, in, &in->opnds[store ? 0 : 1], &x.mod, &a, &imm, &reloc))
		return -1;
	if (store && x.mod >= VGPU_SPACE_PARAM)
		return ptx_bad(pl, in, "stores to parameters and constants are not supported");
	for (i = 0; i < nvec; i++) {
		if (regs[i] < 0)
			continue;
		x.a = a;
		x.imm = imm + (uint64_t)i * size;
		if (store)
			x.b = (uint32_t)regs[i];
		else
			x.dst = (uint32_t)regs[i];
		if (ptx_emit(pl, x, reloc))
			return -1;
	}
	return 0;
}

static int ptx_atom(struct ptx_lower *pl, const struct ptx_insn *in)
{
	static const char *const ops[] = {
		"add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas",
	};
	bool red = ptx_opcode_is(in, "red");
	struct vgpu_insn x = { .op = VGPU_OP_ATOM, .guard = VGPU_PRED_NONE };
	uint32_t first = red ? 0 : 1, nsrc, i, o;
	uint64_t imm;
	bool reloc, found = false;

	if (ptx_itype(pl, in, 0, &x.type) || ptx_insn_space(in, &x.mod))
		return -1;
	if (x.mod != VGPU_SPACE_GLOBAL && x.mod != VGPU_SPACE_SHARED &&
	    x.mod != VGPU_SPACE_GENERIC)
		return ptx_bad(pl, in, "unsupported state space");
	for (i = 0; i < in->nmods && !found; i++)
		for (o = 0; o < VGPU_ATOM_COUNT && !found; o++)
			if (!strcmp(in->mods[i], ops[o])) {
				x.mod2 = (uint8_t)o;
				found = true;
			}
	if (!found)
		return ptx_bad(pl, in, "missing operation");
	nsrc = x.mod2 == VGPU_ATOM_CAS ? 2 : 1;
	if (ptx_nopnds(pl, in, first + 1 + nsrc))
		return -1;
	if (red)
		x.dst = ptx_temp(pl);
	else if (ptx_dst(pl, in, 0, x.type == VGPU_T_PRED, &x.dst))
		return -1;
	if (ptx_addr(pl, in, &in->opnds[first], &x.mod, &x.a, &imm, &reloc))
		return -1;
	x.imm = imm;
	for (i = 0; i < nsrc; i++) {
		uint32_t r;

		if (ptx_src_reg(pl, &in->opnds[first + 1 + i], x.type, &r))
			return -1;
		if (i)
			x.c = r;
		else
			x.b = r;
	}
	return ptx_emit(pl, x, reloc);
}

/* --- control and the warp -------------------------------------------------- */

static int ptx_lower_bra(struct ptx_lower *pl, const struct ptx_insn *in)
{
	if (ptx_nopnds(pl, in, 1) || in->opnds[0].kind != PTX_O_LABEL)
		return ptx_bad(pl, in, "branch to a label expected");
	if (ptx_fixup_branch(pl, pl->ncode, in->opnds[0].label))
		return -1;
	return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			.guard = VGPU_PRED_NONE, .c = VGPU_NO_TARGET }, false);
}

/* An immediate member mask, or the whole warp for a register's. */
static int ptx_mask(struct ptx_lower *pl, const struct ptx_insn *in,
		    const struct ptx_opnd *o, __u64 *mask)
{
	if (o->kind == PTX_O_IMM) {
		*mask = (uint32_t)o->imm;
		return 0;
	}
	if (o->kind == PTX_O_REG) {
		/*
		 * Lanes of a mask computed at run time: the ISA names
		 * members statically, so all the warp's (running) lanes.
		 */
		*mask = 0xffffffffU;
		return 0;
	}
	return ptx_bad(pl, in, "member mask must be a constant or a register");
}

/*
 * A block barrier's number @id and optional thread count @count (NULL:
 * none, every thread of the block), each a constant or a register, into
 * @x: the number in imm or register c, the count in b.
 */
static int ptx_bar_opnds(struct ptx_lower *pl, const struct ptx_insn *in,
			 const struct ptx_opnd *id, const struct ptx_opnd *count,
			 struct vgpu_insn *x)
{
	if (id->kind == PTX_O_IMM) {
		if (id->imm < 0 || id->imm >= VGPU_MAX_BARRIERS)
			return ptx_bad(pl, in, "barrier number must be from 0 to 15");
		x->imm = (uint64_t)id->imm;
	} else if (id->kind == PTX_O_REG) {
		x->mod2 |= VGPU_BAR_ID_REG;
		x->c = ptx_reg_of(pl, id->reg, false);
	} else {
		return ptx_bad(pl, in, "barrier number must be a constant or a register");
	}
	if (!count)
		return 0;
	x->mod2 |= VGPU_BAR_COUNT;
	if (count->kind == PTX_O_IMM) {
		/* Threads arrive a warp at a time: whole warps only. */
		if (count->imm < 32 || count->imm > VGPU_MAX_BLOCK_THREADS ||
		    count->imm % 32)
			return ptx_bad(pl, in, "thread count must be a multiple of 32 from 32 to 1024");
		x->flags |= VGPU_IF_B_IMM;
		x->b = (uint32_t)count->imm;
		return 0;
	}
	if (count->kind != PTX_O_REG)
		return ptx_bad(pl, in, "thread count must be a constant or a register");
	x->b = ptx_reg_of(pl, count->reg, false);
	return 0;
}

/*
 * bar.red.{popc.u32,and.pred,or.pred} d, a{, b}, {!}p: __syncthreads_count,
 * _and and _or, over the threads the count names. A negated predicate
 * goes through the scratch predicate.
 */
static int ptx_bar_red(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_BAR_RED, .guard = VGPU_PRED_NONE };
	const struct ptx_opnd *p = &in->opnds[in->nopnds - 1];
	bool popc = ptx_has_mod(in, "popc");

	if (in->nopnds != 3 && in->nopnds != 4)
		return ptx_bad(pl, in, "wrong number of operands");
	if (!popc && !ptx_has_mod(in, "and") && !ptx_has_mod(in, "or"))
		return ptx_bad(pl, in, "missing operation");
	x.mod = popc ? VGPU_BAR_POPC : ptx_has_mod(in, "and") ? VGPU_BAR_AND :
		VGPU_BAR_OR;
	x.type = popc ? VGPU_T_U32 : VGPU_T_PRED;
	if (ptx_bar_opnds(pl, in, &in->opnds[1],
			  in->nopnds == 4 ? &in->opnds[2] : NULL, &x))
		return -1;
	if (p->kind != PTX_O_REG)
		return ptx_bad(pl, in, "a predicate register is expected");
	if (ptx_dst(pl, in, 0, !popc, &x.dst))
		return -1;
	x.a = ptx_reg_of(pl, p->reg, true);
	if (p->neg) {
		uint32_t s;

		if (ptx_scratch_pred(pl, &s) ||
		    ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_NOT,
			     .type = VGPU_T_PRED, .guard = VGPU_PRED_NONE,
			     .dst = s, .a = x.a }, false))
			return -1;
		x.a = s;
	}
	return ptx_emit(pl, x, false);
}

/*
 * bar{.cta}.sync a{, b}, bar{.cta}.arrive a, b, bar{.cta}.red (and the
 * same as barrier{.cta}, .aligned or not; plain bar is bar.sync), and
 * bar.warp.sync.
 */
static int ptx_lower_bar(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_BAR, .guard = VGPU_PRED_NONE };
	bool arrive = ptx_has_mod(in, "arrive");

	if (ptx_has_mod(in, "warp")) {
		x.op = VGPU_OP_WARPSYNC;
		if (ptx_nopnds(pl, in, 1) ||
		    ptx_mask(pl, in, &in->opnds[0], &x.imm))
			return -1;
		return ptx_emit(pl, x, false);
	}
	if (ptx_has_mod(in, "red"))
		return ptx_bar_red(pl, in);
	if (arrive && in->nopnds != 2)
		return ptx_bad(pl, in, "arrive needs a barrier number and a thread count");
	if (in->nopnds < 1 || in->nopnds > 2)
		return ptx_bad(pl, in, "wrong number of operands");
	x.mod = arrive ? VGPU_BAR_ARRIVE : VGPU_BAR_SYNC;
	if (ptx_bar_opnds(pl, in, &in->opnds[0],
			  in->nopnds == 2 ? &in->opnds[1] : NULL, &x))
		return -1;
	return ptx_emit(pl, x, false);
}

static int ptx_lower_membar(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_MEMBAR, .guard = VGPU_PRED_NONE };

	x.mod = ptx_has_mod(in, "cta") ? VGPU_SCOPE_CTA :
		ptx_has_mod(in, "sys") ? VGPU_SCOPE_SYS : VGPU_SCOPE_GPU;
	return ptx_emit(pl, x, false);
}

static int ptx_lower_shfl(struct ptx_lower *pl, const struct ptx_insn *in)
{
	static const char *const modes[] = { "up", "down", "bfly", "idx" };
	struct vgpu_insn x = { .op = VGPU_OP_SHFL, .type = VGPU_T_U32,
			       .guard = VGPU_PRED_NONE };
	uint32_t i, m;
	bool found = false;

	if (ptx_nopnds(pl, in, 5) || ptx_dst(pl, in, 0, x.type == VGPU_T_PRED, &x.dst) ||
	    ptx_src_reg(pl, &in->opnds[1], VGPU_T_U32, &x.a) ||
	    ptx_mask(pl, in, &in->opnds[4], &x.imm))
		return -1;
	for (i = 0; i < in->nmods && !found; i++)
		for (m = 0; m < 4 && !found; m++)
			if (!strcmp(in->mods[i], modes[m])) {
				x.mod = (uint8_t)m;
				found = true;
			}
	if (!found)
		return ptx_bad(pl, in, "missing mode");
	for (i = 2; i <= 3; i++) {
		const struct ptx_opnd *o = &in->opnds[i];
		uint32_t v;

		if (o->kind == PTX_O_IMM) {
			x.flags |= i == 2 ? VGPU_IF_B_IMM : VGPU_IF_C_IMM;
			v = (uint32_t)o->imm;
		} else if (ptx_src_reg(pl, o, VGPU_T_U32, &v)) {
			return -1;
		}
		if (i == 2)
			x.b = v;
		else
			x.c = v;
	}
	if (in->has_pipe)
		x.mod2 = (uint8_t)(ptx_reg_of(pl, in->pipe_reg, true) + 1);
	return ptx_emit(pl, x, false);
}

static int ptx_lower_vote(struct ptx_lower *pl, const struct ptx_insn *in)
{
	static const char *const modes[] = { "all", "any", "uni", "ballot" };
	struct vgpu_insn x = { .op = VGPU_OP_VOTE, .guard = VGPU_PRED_NONE };
	const struct ptx_opnd *p;
	uint32_t i, m;
	bool found = false;

	for (i = 0; i < in->nmods && !found; i++)
		for (m = 0; m < 4 && !found; m++)
			if (!strcmp(in->mods[i], modes[m])) {
				x.mod = (uint8_t)m;
				found = true;
			}
	if (!found)
		return ptx_bad(pl, in, "missing mode");
	x.type = x.mod == VGPU_VOTE_BALLOT ? VGPU_T_U32 : VGPU_T_PRED;
	if (ptx_nopnds(pl, in, 3) || ptx_dst(pl, in, 0, x.type == VGPU_T_PRED, &x.dst) ||
	    ptx_mask(pl, in, &in->opnds[2], &x.imm))
		return -1;
	p = &in->opnds[1];
	if (p->kind != PTX_O_REG || p->neg)
		return ptx_bad(pl, in, "a predicate register is expected");
	x.a = ptx_reg_of(pl, p->reg, true);
	return ptx_emit(pl, x, false);
}

/*
 * match.{any,all}.sync.{b32,b64} d[|p], a, membermask. MATCH reads every
 * lane's a while it writes each lane's d, so a destination that is also
 * the source gets the result through a temporary.
 */
static int ptx_lower_match(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_MATCH, .guard = VGPU_PRED_NONE };
	enum ptx_type t = ptx_nth_type(in, 0);
	uint32_t d;

	if (ptx_has_mod(in, "all"))
		x.mod = VGPU_MATCH_ALL;
	else if (!ptx_has_mod(in, "any"))
		return ptx_bad(pl, in, "missing mode");
	if (t != PTX_T_B32 && t != PTX_T_B64)
		return ptx_bad(pl, in, "unsupported type");
	x.type = t == PTX_T_B64 ? VGPU_T_U64 : VGPU_T_U32;
	if (ptx_nopnds(pl, in, 3) || ptx_dst(pl, in, 0, false, &d) ||
	    ptx_src_reg(pl, &in->opnds[1], x.type, &x.a) ||
	    ptx_mask(pl, in, &in->opnds[2], &x.imm))
		return -1;
	if (in->has_pipe) {
		if (x.mod != VGPU_MATCH_ALL)
			return ptx_bad(pl, in, "only match.all sets a predicate");
		x.mod2 = (uint8_t)(ptx_reg_of(pl, in->pipe_reg, true) + 1);
	}
	x.dst = d == x.a ? ptx_temp(pl) : d;
	if (ptx_emit(pl, x, false))
		return -1;
	if (x.dst == d)
		return 0;
	return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_MOV,
			.guard = VGPU_PRED_NONE, .type = VGPU_T_U32, .dst = d,
			.b = x.dst }, false);
}

static int ptx_lower_activemask(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_ACTIVEMASK, .type = VGPU_T_U32,
			       .guard = VGPU_PRED_NONE };

	if (ptx_nopnds(pl, in, 1) || ptx_dst(pl, in, 0, x.type == VGPU_T_PRED, &x.dst))
		return -1;
	return ptx_emit(pl, x, false);
}

static int ptx_simple(struct ptx_lower *pl, uint8_t op)
{
	return ptx_emit(pl, (struct vgpu_insn){ .op = op,
			.guard = VGPU_PRED_NONE }, false);
}

/* ret in an inlined function: on to what follows the call. */
static int ptx_lower_ret(struct ptx_lower *pl)
{
	if (ptx_fixup_branch(pl, pl->ncode, pl->f.fn->nlabels))
		return -1;
	return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			.guard = VGPU_PRED_NONE, .c = VGPU_NO_TARGET }, false);
}

#define PTX_U64(...) ((struct vgpu_insn){ .type = VGPU_T_U64, __VA_ARGS__ })

/*
 * vprintf(fmt, args) appends a record to the module's FIFO: the size is
 * reserved with an atomic add on the header, then the format address and
 * the argument buffer (what is left of the thread's local memory from
 * @args, at most VG_PRINTF_MAX_ARGS bytes: nvcc puts the buffer in the
 * local frame) are copied a word at a time. The host formats records at
 * synchronizing calls (printf.c). A full FIFO drops the record.
 */
static int ptx_lower_printf(struct ptx_lower *pl, const struct ptx_insn *in,
			    const struct ptx_opnd *rets, const struct ptx_opnd *args)
{
	enum { SKIP = 12, LOOP = 18, EXIT_LOOP = 19, BACK = 25 };
	uint32_t fmt, buf, i, base, done, guard_bra = UINT32_MAX;
	uint32_t off = ptx_temp(pl), cnt = ptx_temp(pl), rec = ptx_temp(pl);
	uint32_t fifo = ptx_temp(pl), old = ptx_temp(pl), w = ptx_temp(pl);
	uint32_t p32;
	uint8_t guard = pl->guard, p, none = VGPU_PRED_NONE;
	bool guard_not = pl->guard_not;

	if (!args || args->nvec != 2 || (rets && rets->nvec > 1))
		return ptx_bad(pl, in, "vprintf takes a format and an argument buffer");
	for (i = 0; i < 2; i++) {
		struct ptx_sym s = args->list[i];

		if (s.kind != PTX_SYM_FUNCVAR ||
		    pl->f.fn->vars[s.index].space != PTX_S_PARAM)
			return ptx_bad(pl, in, "call arguments must be .param variables");
	}
	fmt = pl->f.var_slot[args->list[0].index];
	buf = pl->f.var_slot[args->list[1].index];
	if (ptx_scratch_pred(pl, &p32))
		return -1;
	p = (uint8_t)p32;
	/* Lanes where a guarded call does not run jump past it all. */
	pl->guard = VGPU_PRED_NONE;
	if (guard != VGPU_PRED_NONE) {
		guard_bra = pl->ncode;
		if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			     .guard = guard,
			     .flags = guard_not ? 0 : VGPU_IF_GUARD_NOT,
			     .c = VGPU_NO_TARGET }, false))
			return -1;
	}
	base = pl->ncode;
	{
		const struct vgpu_insn seq[] = {
			/* off = buf - window; cnt = clamp(L - off, 0, MAX) */
			PTX_U64(.op = VGPU_OP_SUB, .dst = off, .a = buf, .guard = none,
				.flags = VGPU_IF_B_IMM, .imm = VGPU_LOCAL_WINDOW),
			PTX_U64(.op = VGPU_OP_MOV, .dst = cnt, .guard = none,
				.flags = VGPU_IF_B_IMM),
			PTX_U64(.op = VGPU_OP_SUB, .dst = cnt, .a = cnt, .b = off,
				.guard = none),
			{ .op = VGPU_OP_MIN, .type = VGPU_T_S64, .dst = cnt, .a = cnt,
			  .flags = VGPU_IF_B_IMM, .imm = VG_PRINTF_MAX_ARGS,
			  .guard = none },
			{ .op = VGPU_OP_MAX, .type = VGPU_T_S64, .dst = cnt, .a = cnt,
			  .flags = VGPU_IF_B_IMM, .guard = none },
			/* No buffer (a format without arguments): nothing to copy. */
			PTX_U64(.op = VGPU_OP_SETP, .mod = VGPU_CMP_EQ, .dst = p,
				.a = buf, .flags = VGPU_IF_B_IMM, .guard = none),
			PTX_U64(.op = VGPU_OP_MOV, .dst = cnt, .flags = VGPU_IF_B_IMM,
				.guard = p),
			PTX_U64(.op = VGPU_OP_ADD, .dst = rec, .a = cnt, .guard = none,
				.flags = VGPU_IF_B_IMM, .imm = 16),
			PTX_U64(.op = VGPU_OP_MOV, .dst = fifo, .guard = none,
				.flags = VGPU_IF_B_IMM, .imm = pl->printf_off),
			PTX_U64(.op = VGPU_OP_ATOM, .mod = VGPU_SPACE_GLOBAL,
				.mod2 = VGPU_ATOM_ADD, .dst = old, .a = fifo, .b = rec,
				.guard = none),
			PTX_U64(.op = VGPU_OP_ADD, .dst = w, .a = old, .b = rec,
				.guard = none),
			PTX_U64(.op = VGPU_OP_SETP, .mod = VGPU_CMP_GT, .dst = p, .a = w,
				.flags = VGPU_IF_B_IMM, .imm = VG_PRINTF_CAP,
				.guard = none),
			[SKIP] = { .op = VGPU_OP_BRA, .guard = p, .c = VGPU_NO_TARGET },
			PTX_U64(.op = VGPU_OP_ADD, .dst = fifo, .a = fifo, .b = old,
				.guard = none),
			{ .op = VGPU_OP_ST, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
			  .a = fifo, .b = rec, .imm = VG_PRINTF_HEADER, .guard = none },
			{ .op = VGPU_OP_ST, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
			  .a = fifo, .b = cnt, .imm = VG_PRINTF_HEADER + 4,
			  .guard = none },
			PTX_U64(.op = VGPU_OP_ST, .mod = VGPU_SPACE_GLOBAL, .a = fifo,
				.b = fmt, .imm = VG_PRINTF_HEADER + 8, .guard = none),
			/* for (old = 0; old < cnt; old += 8) copy a word */
			PTX_U64(.op = VGPU_OP_MOV, .dst = old, .flags = VGPU_IF_B_IMM,
				.guard = none),
			[LOOP] = PTX_U64(.op = VGPU_OP_SETP, .mod = VGPU_CMP_GE, .dst = p,
					 .a = old, .b = cnt, .guard = none),
			[EXIT_LOOP] = { .op = VGPU_OP_BRA, .guard = p,
					.c = VGPU_NO_TARGET },
			PTX_U64(.op = VGPU_OP_ADD, .dst = w, .a = off, .b = old,
				.guard = none),
			PTX_U64(.op = VGPU_OP_LD, .mod = VGPU_SPACE_LOCAL, .dst = w,
				.a = w, .guard = none),
			PTX_U64(.op = VGPU_OP_ADD, .dst = rec, .a = fifo, .b = old,
				.guard = none),
			PTX_U64(.op = VGPU_OP_ST, .mod = VGPU_SPACE_GLOBAL, .a = rec,
				.b = w, .imm = VG_PRINTF_HEADER + 16, .guard = none),
			PTX_U64(.op = VGPU_OP_ADD, .dst = old, .a = old,
				.flags = VGPU_IF_B_IMM, .imm = 8, .guard = none),
			[BACK] = { .op = VGPU_OP_BRA, .guard = none,
				   .c = VGPU_NO_TARGET },
		};

		for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
			if (ptx_emit(pl, seq[i], seq[i].op == VGPU_OP_MOV &&
				     seq[i].dst == fifo))
				return -1;
	}
	/* The sequence's branches: past it, out of the loop, back. */
	done = pl->ncode;
	if (ptx_fixup_local_size(pl, base + 1))
		return -1;
	pl->code[base + SKIP].imm = done;
	pl->code[base + EXIT_LOOP].imm = done;
	pl->code[base + BACK].imm = base + LOOP;
	if (guard_bra != UINT32_MAX)
		pl->code[guard_bra].imm = done;
	/* vprintf returns an int; nothing reads it but keep it defined. */
	if (rets && rets->nvec) {
		struct ptx_sym s = rets->list[0];

		if (s.kind != PTX_SYM_FUNCVAR ||
		    pl->f.fn->vars[s.index].space != PTX_S_PARAM)
			return ptx_bad(pl, in, "call arguments must be .param variables");
		if (ptx_emit(pl, PTX_U64(.op = VGPU_OP_MOV,
					 .dst = pl->f.var_slot[s.index],
					 .flags = VGPU_IF_B_IMM, .guard = none), false))
			return -1;
	}
	return 0;
}

/*
 * call [(rets),] f[, (args)]: functions are inlined at each call.
 * call [(rets),] %rd[, (args)], proto: through a function pointer, to
 * whichever function of the prototype's shape it holds.
 */
static int ptx_lower_call(struct ptx_lower *pl, const struct ptx_insn *in)
{
	const struct ptx_opnd *rets = NULL, *args = NULL, *callee = NULL;
	const struct ptx_opnd *proto = NULL;
	const struct ptx_func *fn;
	uint32_t i, f;

	for (i = 0; i < in->nopnds; i++) {
		const struct ptx_opnd *o = &in->opnds[i];

		if (!callee && o->kind == PTX_O_LIST)
			rets = o;
		else if (!callee && (o->kind == PTX_O_REG ||
				     (o->kind == PTX_O_SYM &&
				      o->sym.kind == PTX_SYM_FUNC)))
			callee = o;
		else if (callee && !args && !proto && o->kind == PTX_O_LIST)
			args = o;
		else if (callee && callee->kind == PTX_O_REG && !proto &&
			 o->kind == PTX_O_SYM && o->sym.kind == PTX_SYM_PROTO)
			proto = o;
		else
			return ptx_bad(pl, in, "unexpected operand");
	}
	if (!callee)
		return ptx_bad(pl, in, "no function to call");
	if (callee->kind == PTX_O_REG) {
		if (callee->neg)
			return ptx_bad(pl, in, "unexpected operand");
		if (!proto)
			return ptx_bad(pl, in, "a call through a pointer needs a .callprototype");
		return ptx_inline_indirect(pl, in, callee->reg,
					   &pl->f.fn->protos[proto->sym.index],
					   rets, args);
	}
	f = callee->sym.index;
	fn = &pl->m->funcs[f];
	if (!fn->has_body && !strcmp(fn->name, "vprintf"))
		return ptx_lower_printf(pl, in, rets, args);
	return ptx_inline(pl, in, f, rets, args);
}

static int ptx_lower_insn_do(struct ptx_lower *pl, const struct ptx_insn *in);

/**
 * ptx_lower_insn() - lowers @in at the end of the program being written.
 * Return: 0, or -1 with the error recorded.
 */
int ptx_lower_insn(struct ptx_lower *pl, const struct ptx_insn *in)
{
	int ret = ptx_lower_insn_do(pl, in);

	/* Errors found on the way (a register of the wrong kind) count too. */
	return ret || pl->failed ? -1 : 0;
}

static int ptx_lower_insn_do(struct ptx_lower *pl, const struct ptx_insn *in)
{
	ptx_lower_fn seq;
	uint32_t i;

	pl->guard = VGPU_PRED_NONE;
	pl->guard_not = false;
	if (in->guarded) {
		pl->guard = (uint8_t)ptx_reg_of(pl, in->guard, true);
		pl->guard_not = in->guard_neg;
	}
	for (i = 0; i < sizeof(ptx_arith_ops) / sizeof(ptx_arith_ops[0]); i++)
		if (ptx_opcode_is(in, ptx_arith_ops[i].name))
			return ptx_lower_arith(pl, in, ptx_arith_ops[i].op,
					       ptx_arith_ops[i].nsrc);
	if (ptx_opcode_is(in, "mov"))
		return ptx_lower_mov(pl, in);
	if (ptx_opcode_is(in, "ld") || ptx_opcode_is(in, "st"))
		return ptx_ldst(pl, in);
	if (ptx_opcode_is(in, "setp"))
		return ptx_lower_setp(pl, in);
	if (ptx_opcode_is(in, "selp"))
		return ptx_lower_selp(pl, in);
	if (ptx_opcode_is(in, "cvt"))
		return ptx_lower_cvt(pl, in);
	if (ptx_opcode_is(in, "cvta"))
		return ptx_lower_cvta(pl, in);
	if (ptx_opcode_is(in, "bfi"))
		return ptx_lower_bfi(pl, in);
	if (ptx_opcode_is(in, "prmt"))
		return ptx_lower_prmt(pl, in);
	if (ptx_opcode_is(in, "bra"))
		return ptx_lower_bra(pl, in);
	if (ptx_opcode_is(in, "ret") && pl->f.depth)
		return ptx_lower_ret(pl);
	if (ptx_opcode_is(in, "ret") || ptx_opcode_is(in, "exit"))
		return ptx_simple(pl, VGPU_OP_EXIT);
	if (ptx_opcode_is(in, "trap"))
		return ptx_simple(pl, VGPU_OP_TRAP);
	if (ptx_opcode_is(in, "bar") || ptx_opcode_is(in, "barrier"))
		return ptx_lower_bar(pl, in);
	if (ptx_opcode_is(in, "membar") || ptx_opcode_is(in, "fence"))
		return ptx_lower_membar(pl, in);
	if (ptx_opcode_is(in, "atom") || ptx_opcode_is(in, "red"))
		return ptx_atom(pl, in);
	if (ptx_opcode_is(in, "shfl"))
		return ptx_lower_shfl(pl, in);
	if (ptx_opcode_is(in, "vote"))
		return ptx_lower_vote(pl, in);
	if (ptx_opcode_is(in, "match"))
		return ptx_lower_match(pl, in);
	if (ptx_opcode_is(in, "activemask"))
		return ptx_lower_activemask(pl, in);
	if (ptx_opcode_is(in, "call"))
		return ptx_lower_call(pl, in);
	seq = ptx_seq_lowering(in);
	if (seq)
		return seq(pl, in);
	return ptx_bad(pl, in, "unsupported instruction");
}
