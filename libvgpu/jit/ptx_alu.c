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

#define LW_NO_REG VGPU_NO_REG

static bool lw_is(const struct ptx_insn *in, const char *op)
{
	return !strcmp(in->op, op);
}

uint8_t lw_vtype(enum ptx_type t)
{
	static const uint8_t map[PTX_T_COUNT] = {
		[PTX_T_B8] = VGPU_T_U8, [PTX_T_U8] = VGPU_T_U8,
		[PTX_T_S8] = VGPU_T_S8,
		[PTX_T_B16] = VGPU_T_U16, [PTX_T_U16] = VGPU_T_U16,
		[PTX_T_S16] = VGPU_T_S16,
		[PTX_T_B32] = VGPU_T_U32, [PTX_T_U32] = VGPU_T_U32,
		[PTX_T_S32] = VGPU_T_S32,
		[PTX_T_B64] = VGPU_T_U64, [PTX_T_U64] = VGPU_T_U64,
		[PTX_T_S64] = VGPU_T_S64,
		[PTX_T_F16] = VGPU_T_F16, [PTX_T_F32] = VGPU_T_F32,
		[PTX_T_F64] = VGPU_T_F64, [PTX_T_PRED] = VGPU_T_PRED,
	};

	return t < PTX_T_COUNT ? map[t] : VGPU_T_NONE;
}

/* The @nth type modifier from the end (0: the last), or PTX_T_NONE. */
enum ptx_type lw_type(const struct ptx_insn *in, unsigned int nth)
{
	int i;

	for (i = (int)in->nmods - 1; i >= 0; i--) {
		enum ptx_type t = ptx_type_from_name(in->mods[i]);

		if (t == PTX_T_NONE)
			continue;
		if (!nth--)
			return t;
	}
	return PTX_T_NONE;
}

int lw_bad(struct lw *lw, const struct ptx_insn *in, const char *what)
{
	char name[PTX_MOD_LEN * (PTX_MAX_MODS + 1) + 1];
	uint32_t i;

	strcpy(name, in->op);
	for (i = 0; i < in->nmods; i++) {
		strcat(name, ".");
		strcat(name, in->mods[i]);
	}
	return lw_fail(lw, in->pos, "%s: %s", name, what);
}

/*
 * The ISA register or predicate of PTX register @idx, which must be a
 * predicate exactly when @pred says so (otherwise the error is recorded
 * and lw_insn() fails the instruction).
 */
uint32_t lw_r(struct lw *lw, uint32_t idx, bool pred)
{
	const struct ptx_reg *r = &lw->f.fn->regs[idx];

	if ((r->type == PTX_T_PRED) != pred)
		lw_bad(lw, lw->cur, pred ? "a predicate register is expected" :
		       "a predicate register cannot be used as a value");
	return lw->f.reg_of[idx];
}

/* The instruction's vgpu type; refuses types the ISA has no room for. */
int lw_itype(struct lw *lw, const struct ptx_insn *in, unsigned int nth,
	     uint8_t *vt)
{
	enum ptx_type t = lw_type(in, nth);

	*vt = lw_vtype(t);
	if (*vt == VGPU_T_NONE)
		return lw_bad(lw, in, t == PTX_T_NONE ? "missing type" :
			      "unsupported type");
	return 0;
}

/* .rn .rz .rm .rp and the integer forms .rni ...; 0 (nearest) if none. */
static uint8_t lw_round(const struct ptx_insn *in)
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

static uint8_t lw_fflags(const struct ptx_insn *in)
{
	return (ptx_has_mod(in, "ftz") ? VGPU_IF_FTZ : 0) |
	       (ptx_has_mod(in, "sat") ? VGPU_IF_SAT : 0);
}

bool lw_float(uint8_t vt)
{
	return vt == VGPU_T_F16 || vt == VGPU_T_F32 || vt == VGPU_T_F64;
}

unsigned int lw_bits(uint8_t vt)
{
	static const uint8_t bits[VGPU_T_COUNT] = {
		[VGPU_T_U8] = 8, [VGPU_T_S8] = 8, [VGPU_T_U16] = 16,
		[VGPU_T_S16] = 16, [VGPU_T_U32] = 32, [VGPU_T_S32] = 32,
		[VGPU_T_U64] = 64, [VGPU_T_S64] = 64, [VGPU_T_F16] = 16,
		[VGPU_T_F32] = 32, [VGPU_T_F64] = 64, [VGPU_T_PRED] = 1,
	};

	return vt < VGPU_T_COUNT ? bits[vt] : 0;
}

/* An immediate as the ISA wants it for type @vt: cut to its width. */
static uint64_t lw_cut(uint64_t v, uint8_t vt)
{
	unsigned int bits = lw_bits(vt);

	return bits >= 64 || !bits ? v : v & ((1ULL << bits) - 1);
}

static uint64_t lw_f32_bits(double d)
{
	float f = (float)d;
	uint32_t b;

	memcpy(&b, &f, 4);
	return b;
}

static uint64_t lw_f64_bits_of_f32(uint32_t b)
{
	float f;
	double d;
	uint64_t r;

	memcpy(&f, &b, 4);
	d = f;
	memcpy(&r, &d, 8);
	return r;
}

/*
 * A function's address (lw_func_addrs() gave it): a value to move, store
 * and compare, never an address to read data at.
 */
static int lw_func_val(struct lw *lw, const struct ptx_opnd *o,
		       struct lw_val *v, enum ptx_space *space)
{
	const struct ptx_func *fn = &lw->m->funcs[o->sym.index];

	if (space)
		return lw_fail(lw, o->pos, "'%s' is a function, not data", fn->name);
	if (!lw->func_addr[o->sym.index])
		return lw_fail(lw, o->pos, fn->entry ?
			       "the address of kernel '%s' is not supported" :
			       "the address of '%s', which the module does not define",
			       fn->name);
	v->imm = true;
	v->bits = lw->func_addr[o->sym.index] + (uint64_t)o->imm;
	return 0;
}

/* A symbol's address in its own state space (a global's: a relocation). */
static int lw_sym_addr(struct lw *lw, const struct ptx_opnd *o,
		       struct lw_val *v, enum ptx_space *space)
{
	const struct lw_place *pl = lw_place_of(lw, o->sym);

	if (o->sym.kind == PTX_SYM_FUNC)
		return lw_func_val(lw, o, v, space);
	if (o->sym.kind == PTX_SYM_PROTO)
		return lw_fail(lw, o->pos, "a call prototype is not a value");
	if (!pl || (o->sym.kind == PTX_SYM_FUNCVAR &&
		    pl->space == PTX_S_PARAM))
		return lw_fail(lw, o->pos, "addresses of call parameters are not supported");
	v->imm = true;
	v->bits = pl->offset + (uint64_t)o->imm;
	v->reloc = pl->space == PTX_S_GLOBAL;
	if (space)
		*space = pl->space;
	return 0;
}

static const uint8_t lw_sregs[][3] = {
	[PTX_SR_TID] = { VGPU_SR_TID_X, VGPU_SR_TID_Y, VGPU_SR_TID_Z },
	[PTX_SR_NTID] = { VGPU_SR_NTID_X, VGPU_SR_NTID_Y, VGPU_SR_NTID_Z },
	[PTX_SR_CTAID] = { VGPU_SR_CTAID_X, VGPU_SR_CTAID_Y, VGPU_SR_CTAID_Z },
	[PTX_SR_NCTAID] = { VGPU_SR_NCTAID_X, VGPU_SR_NCTAID_Y,
			    VGPU_SR_NCTAID_Z },
};

/* Special register @o into register @dst (SREG takes U32 or U64). */
static int lw_sreg(struct lw *lw, const struct ptx_opnd *o, uint32_t dst,
		   uint8_t vt)
{
	uint8_t sr;

	switch (o->sreg) {
	case PTX_SR_TID:
	case PTX_SR_NTID:
	case PTX_SR_CTAID:
	case PTX_SR_NCTAID:
		sr = lw_sregs[o->sreg][o->comp < 3 ? o->comp : 0];
		break;
	case PTX_SR_LANEID: sr = VGPU_SR_LANEID; break;
	case PTX_SR_WARPID: sr = VGPU_SR_WARPID; break;
	case PTX_SR_NWARPID: sr = VGPU_SR_NWARPID; break;
	case PTX_SR_SMID: sr = VGPU_SR_SMID; break;
	case PTX_SR_NSMID: sr = VGPU_SR_NSMID; break;
	case PTX_SR_LANEMASK_EQ: sr = VGPU_SR_LANEMASK_EQ; break;
	case PTX_SR_LANEMASK_LT: sr = VGPU_SR_LANEMASK_LT; break;
	case PTX_SR_LANEMASK_LE: sr = VGPU_SR_LANEMASK_LE; break;
	case PTX_SR_LANEMASK_GT: sr = VGPU_SR_LANEMASK_GT; break;
	case PTX_SR_LANEMASK_GE: sr = VGPU_SR_LANEMASK_GE; break;
	case PTX_SR_CLOCK: sr = VGPU_SR_CLOCK; break;
	case PTX_SR_CLOCK64: sr = VGPU_SR_CLOCK64; break;
	case PTX_SR_GLOBALTIMER: sr = VGPU_SR_GLOBALTIMER; break;
	case PTX_SR_DYNAMIC_SMEM_SIZE: sr = VGPU_SR_DYN_SMEM; break;
	default:
		return lw_fail(lw, o->pos, "special register not supported");
	}
	return lw_emit(lw, (struct vgpu_insn){
		.op = VGPU_OP_SREG, .guard = VGPU_PRED_NONE,
		.type = lw_bits(vt) == 64 ? VGPU_T_U64 : VGPU_T_U32,
		.mod = sr, .dst = dst }, false);
}

/* Resolves a source operand of type @vt. */
int lw_val(struct lw *lw, const struct ptx_opnd *o, uint8_t vt,
	   struct lw_val *v)
{
	memset(v, 0, sizeof(*v));
	switch (o->kind) {
	case PTX_O_REG:
		v->reg = lw_r(lw, o->reg, vt == VGPU_T_PRED);
		return 0;
	case PTX_O_IMM:
		v->imm = true;
		if (vt == VGPU_T_F32)
			v->bits = lw_f32_bits((double)o->imm);
		else if (vt == VGPU_T_F64) {
			double d = (double)o->imm;

			memcpy(&v->bits, &d, 8);
		} else {
			v->bits = lw_cut((uint64_t)o->imm, vt);
		}
		return 0;
	case PTX_O_FIMM:
		v->imm = true;
		v->bits = o->fbits;
		if (vt == VGPU_T_F64 && o->fwidth == 32)
			v->bits = lw_f64_bits_of_f32((uint32_t)o->fbits);
		else if (vt == VGPU_T_F32 && o->fwidth == 64) {
			double d;

			memcpy(&d, &o->fbits, 8);
			v->bits = lw_f32_bits(d);
		}
		return 0;
	case PTX_O_SYM:
		return lw_sym_addr(lw, o, v, NULL);
	case PTX_O_SREG:
		v->reg = lw_temp(lw);
		return lw_sreg(lw, o, v->reg, vt);
	default:
		return lw_fail(lw, o->pos, "operand not allowed here");
	}
}

/* A register holding @v (moved into a temporary if it is immediate). */
int lw_in_reg(struct lw *lw, struct lw_val *v, uint8_t vt)
{
	uint32_t t;

	if (!v->imm)
		return 0;
	t = lw_temp(lw);
	if (lw_emit(lw, (struct vgpu_insn){
			.op = VGPU_OP_MOV, .guard = VGPU_PRED_NONE,
			.type = vt == VGPU_T_PRED ? VGPU_T_U64 : vt,
			.flags = VGPU_IF_B_IMM, .dst = t, .imm = v->bits },
		    v->reloc))
		return -1;
	v->imm = false;
	v->reloc = false;
	v->reg = t;
	return 0;
}

int lw_src_reg(struct lw *lw, const struct ptx_opnd *o, uint8_t vt,
	       uint32_t *reg)
{
	struct lw_val v;

	if (lw_val(lw, o, vt, &v) || lw_in_reg(lw, &v, vt))
		return -1;
	*reg = v.reg;
	return 0;
}

int lw_dst(struct lw *lw, const struct ptx_insn *in, uint32_t i, bool pred,
	   uint32_t *reg)
{
	*reg = 0;	/* (set on failure too: callers' compilers can't tell) */
	if (i >= in->nopnds || in->opnds[i].kind != PTX_O_REG)
		return lw_bad(lw, in, "destination must be a register");
	*reg = lw_r(lw, in->opnds[i].reg, pred);
	return 0;
}

int lw_nopnds(struct lw *lw, const struct ptx_insn *in, uint32_t n)
{
	if (in->nopnds != n)
		return lw_bad(lw, in, "wrong number of operands");
	return 0;
}

/*
 * d = a OP b [c]: @a in a register; @b and @c registers or (one of them)
 * the immediate.
 */
static int lw_alu(struct lw *lw, const struct ptx_insn *in, struct vgpu_insn x,
		  uint32_t nsrc)
{
	bool pred = x.op == VGPU_OP_SETP || x.type == VGPU_T_PRED;
	struct lw_val a, b, c;

	if (lw_nopnds(lw, in, nsrc + 1) || lw_dst(lw, in, 0, pred, &x.dst) ||
	    lw_val(lw, &in->opnds[1], x.type, &a) || lw_in_reg(lw, &a, x.type))
		return -1;
	x.a = a.reg;
	x.guard = VGPU_PRED_NONE;
	if (nsrc >= 2) {
		if (lw_val(lw, &in->opnds[2], x.type, &b))
			return -1;
		if (nsrc == 3) {
			if (lw_val(lw, &in->opnds[3], x.type, &c))
				return -1;
			if (b.imm && c.imm && lw_in_reg(lw, &b, x.type))
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
			return lw_emit(lw, x, true);
	}
	return lw_emit(lw, x, false);
}

/* --- arithmetic ------------------------------------------------------------- */

static const struct {
	const char *name;
	uint8_t op;
	uint8_t nsrc;
} lw_arith[] = {
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

#define LW_I(...) ((struct vgpu_insn){ .guard = VGPU_PRED_NONE, __VA_ARGS__ })

/*
 * Half precision, one value (.f16) or two packed in 32 bits (.f16x2):
 * each half is widened to f64, computed there and rounded back. f64 holds
 * any sum or product of halves exactly or so near that rounding twice
 * (to f64, then to f16) gives the correctly rounded half, as PTX asks;
 * neg and abs only touch the sign bit, as on the hardware.
 */
static int lw_half(struct lw *lw, const struct ptx_insn *in, uint8_t op,
		   uint8_t nsrc, bool x2)
{
	uint32_t d, src[3], t[3], r = lw_temp(lw), acc = lw_temp(lw), h, i;
	uint8_t sat = ptx_has_mod(in, "sat") ? VGPU_IF_SAT : 0;

	if (op != VGPU_OP_ADD && op != VGPU_OP_SUB && op != VGPU_OP_MUL &&
	    op != VGPU_OP_FMA && op != VGPU_OP_MIN && op != VGPU_OP_MAX &&
	    op != VGPU_OP_NEG && op != VGPU_OP_ABS)
		return lw_bad(lw, in, "unsupported type");
	if (ptx_has_mod(in, "ftz") || lw_round(in))
		return lw_bad(lw, in, "only round-to-nearest half precision without ftz is supported");
	if (lw_nopnds(lw, in, nsrc + 1) || lw_dst(lw, in, 0, false, &d))
		return -1;
	for (i = 0; i < nsrc; i++) {
		if (lw_src_reg(lw, &in->opnds[1 + i], VGPU_T_U32, &src[i]))
			return -1;
		t[i] = lw_temp(lw);
	}
	for (h = 0; h < (x2 ? 2u : 1u); h++) {
		for (i = 0; i < nsrc; i++) {
			uint32_t from = src[i];

			if (h) {
				if (lw_emit(lw, LW_I(.op = VGPU_OP_SHR, .type = VGPU_T_U32,
						     .dst = t[i], .a = src[i],
						     .flags = VGPU_IF_B_IMM, .imm = 16), false))
					return -1;
				from = t[i];
			}
			if (lw_emit(lw, LW_I(.op = VGPU_OP_MOV, .type = VGPU_T_U16,
					     .dst = t[i], .b = from), false))
				return -1;
			if (op != VGPU_OP_NEG && op != VGPU_OP_ABS &&
			    lw_emit(lw, LW_I(.op = VGPU_OP_CVT, .type = VGPU_T_F64,
					     .stype = VGPU_T_F16, .dst = t[i],
					     .a = t[i]), false))
				return -1;
		}
		if (op == VGPU_OP_NEG || op == VGPU_OP_ABS) {
			if (lw_emit(lw, LW_I(.op = op == VGPU_OP_NEG ? VGPU_OP_XOR :
					     VGPU_OP_AND, .type = VGPU_T_U32, .dst = r,
					     .a = t[0], .flags = VGPU_IF_B_IMM,
					     .imm = op == VGPU_OP_NEG ? 0x8000 : 0x7fff),
				    false))
				return -1;
		} else if (lw_emit(lw, LW_I(.op = op, .type = VGPU_T_F64, .dst = r,
					    .a = t[0], .b = nsrc > 1 ? t[1] : 0,
					    .c = nsrc > 2 ? t[2] : 0), false) ||
			   lw_emit(lw, LW_I(.op = VGPU_OP_CVT, .type = VGPU_T_F16,
					    .stype = VGPU_T_F64, .flags = sat,
					    .dst = r, .a = r), false)) {
			return -1;
		}
		if (!h) {
			if (lw_emit(lw, LW_I(.op = VGPU_OP_MOV, .type = VGPU_T_U32,
					     .dst = acc, .b = r), false))
				return -1;
			continue;
		}
		if (lw_emit(lw, LW_I(.op = VGPU_OP_SHL, .type = VGPU_T_U32, .dst = r,
				     .a = r, .flags = VGPU_IF_B_IMM, .imm = 16), false) ||
		    lw_emit(lw, LW_I(.op = VGPU_OP_OR, .type = VGPU_T_U32, .dst = acc,
				     .a = acc, .b = r), false))
			return -1;
	}
	return lw_emit(lw, LW_I(.op = VGPU_OP_MOV, .type = x2 ? VGPU_T_U32 :
				VGPU_T_U16, .dst = d, .b = acc), false);
}

static int lw_arith_op(struct lw *lw, const struct ptx_insn *in, uint8_t op,
		       uint8_t nsrc)
{
	struct vgpu_insn x = { .op = op };
	enum ptx_type pt = lw_type(in, 0);

	if (pt == PTX_T_F16 || pt == PTX_T_F16X2)
		return lw_half(lw, in, op, nsrc, pt == PTX_T_F16X2);
	if (lw_itype(lw, in, 0, &x.type))
		return -1;
	if (lw_float(x.type)) {
		if (op == VGPU_OP_MIN || op == VGPU_OP_MAX) {
			if (ptx_has_mod(in, "NaN") || ptx_has_mod(in, "xorsign"))
				return lw_bad(lw, in, "unsupported modifier");
		} else if (op != VGPU_OP_ABS && op != VGPU_OP_NEG &&
			   op != VGPU_OP_COPYSIGN && op < VGPU_OP_RSQRT) {
			x.mod = lw_round(in);
		}
		x.flags = lw_fflags(in);
		if (x.type == VGPU_T_F64)
			x.flags &= ~VGPU_IF_FTZ;	/* f64 has no ftz */
		return lw_alu(lw, in, x, nsrc);
	}
	if (x.type == VGPU_T_PRED && op != VGPU_OP_AND && op != VGPU_OP_OR &&
	    op != VGPU_OP_XOR && op != VGPU_OP_NOT)
		return lw_bad(lw, in, "unsupported type");
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
	if (lw_is(in, "addc") || lw_is(in, "subc") || lw_is(in, "madc"))
		x.flags |= VGPU_IF_CC_IN;
	/*
	 * b-types map to unsigned ones, so shr.b32 is logical, as in PTX;
	 * popc, clz and bfind of a 64-bit source write a u32 (the ISA's
	 * type is the source's).
	 */
	return lw_alu(lw, in, x, nsrc);
}

static int lw_setp(struct lw *lw, const struct ptx_insn *in)
{
	static const char *const cmps[] = {
		"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu",
		"gtu", "geu", "num", "nan",
	};
	static const char *const ucmps[] = { "lo", "ls", "hi", "hs" };
	struct vgpu_insn x = { .op = VGPU_OP_SETP };
	uint32_t i, c, q;
	bool found = false;

	if (lw_itype(lw, in, 0, &x.type))
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
			return lw_bad(lw, in, "combining with a predicate is not supported");
	}
	if (!found)
		return lw_bad(lw, in, "missing comparison");
	if (!lw_float(x.type) && x.mod > VGPU_CMP_GE)
		return lw_bad(lw, in, "unordered comparison of integers");
	if (x.type == VGPU_T_F16)
		return lw_bad(lw, in, "half-precision comparison is not supported yet");
	if (x.type == VGPU_T_F32 && ptx_has_mod(in, "ftz"))
		x.flags = VGPU_IF_FTZ;
	if (lw_alu(lw, in, x, 2))
		return -1;
	if (!in->has_pipe)
		return 0;
	/* "p|q": q is the complement. */
	q = lw_r(lw, in->pipe_reg, true);
	return lw_emit(lw, (struct vgpu_insn){
		.op = VGPU_OP_NOT, .type = VGPU_T_PRED, .guard = VGPU_PRED_NONE,
		.dst = q, .a = lw_r(lw, in->opnds[0].reg, true) }, false);
}

static int lw_selp(struct lw *lw, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_SELP };
	const struct ptx_opnd *p;

	if (lw_nopnds(lw, in, 4) || lw_itype(lw, in, 0, &x.type))
		return -1;
	p = &in->opnds[3];
	if (p->kind != PTX_O_REG || p->neg)
		return lw_bad(lw, in, "selector must be a predicate register");
	x.c = lw_r(lw, p->reg, true);
	/* lw_alu() would treat c as a source value: do it by hand. */
	{
		struct lw_val a, b;

		if (lw_dst(lw, in, 0, x.type == VGPU_T_PRED, &x.dst) ||
		    lw_val(lw, &in->opnds[1], x.type, &a) ||
		    lw_in_reg(lw, &a, x.type) ||
		    lw_val(lw, &in->opnds[2], x.type, &b))
			return -1;
		x.a = a.reg;
		x.guard = VGPU_PRED_NONE;
		if (b.imm) {
			x.flags = VGPU_IF_B_IMM;
			x.imm = b.bits;
		} else {
			x.b = b.reg;
		}
		return lw_emit(lw, x, b.imm && b.reloc);
	}
}

static int lw_cvt(struct lw *lw, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_CVT, .guard = VGPU_PRED_NONE };
	uint32_t src;

	if (lw_nopnds(lw, in, 2) || lw_itype(lw, in, 1, &x.type) ||
	    lw_itype(lw, in, 0, &x.stype) || lw_dst(lw, in, 0, x.type == VGPU_T_PRED, &x.dst) ||
	    lw_src_reg(lw, &in->opnds[1], x.stype, &src))
		return -1;
	x.a = src;
	x.mod = lw_round(in);
	x.flags = lw_fflags(in);
	if (x.type == VGPU_T_PRED || x.stype == VGPU_T_PRED)
		return lw_bad(lw, in, "unsupported type");
	/* Integer conversions carry no rounding; float ones default to rn. */
	if (!lw_float(x.type) && lw_float(x.stype) && x.mod < VGPU_RND_RNI)
		return lw_bad(lw, in, "float to integer needs .rni, .rzi, .rmi or .rpi");
	if (x.type == x.stype && !x.flags && !x.mod) {
		x.op = VGPU_OP_MOV;
		x.b = x.a;
		x.a = 0;
		x.stype = 0;
	}
	return lw_emit(lw, x, false);
}

/* @n = @v & 0xff (a bit count as bfi and bfe read it). */
static int lw_count8(struct lw *lw, const struct lw_val *v, uint32_t n)
{
	struct vgpu_insn x = { .op = VGPU_OP_AND, .type = VGPU_T_U32,
			       .guard = VGPU_PRED_NONE, .dst = n, .a = v->reg,
			       .flags = VGPU_IF_B_IMM, .imm = 0xff };

	if (v->imm) {
		x.op = VGPU_OP_MOV;
		x.a = 0;
		x.imm = v->bits & 0xff;
	}
	return lw_emit(lw, x, false);
}

/*
 * bfi d, f, b, pos, len: b with len bits from pos replaced by f's low
 * bits. The ISA's shifts give 0 from a count of the width or more, which
 * is what PTX wants of both a long field and a far position.
 */
static int lw_bfi(struct lw *lw, const struct ptx_insn *in)
{
	uint32_t d = 0, f = 0, b = 0, m = lw_temp(lw), t = lw_temp(lw), n = lw_temp(lw), i;
	struct lw_val pos, len;
	uint8_t vt;

	if (lw_nopnds(lw, in, 5) || lw_itype(lw, in, 0, &vt) ||
	    lw_dst(lw, in, 0, false, &d) || lw_src_reg(lw, &in->opnds[1], vt, &f) ||
	    lw_src_reg(lw, &in->opnds[2], vt, &b) ||
	    lw_val(lw, &in->opnds[3], VGPU_T_U32, &pos) ||
	    lw_val(lw, &in->opnds[4], VGPU_T_U32, &len))
		return -1;
	if (lw_bits(vt) < 32)
		return lw_bad(lw, in, "unsupported type");
	vt = lw_bits(vt) == 64 ? VGPU_T_U64 : VGPU_T_U32;
	if (lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_MOV, .type = vt,
			.guard = VGPU_PRED_NONE, .dst = m,
			.flags = VGPU_IF_B_IMM, .imm = 1 }, false) ||
	    lw_count8(lw, &len, n))
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
				if (lw_count8(lw, &pos, n))
					return -1;
				continue;
			}
			y.type = vt;
			y.guard = VGPU_PRED_NONE;
			if (lw_emit(lw, y, false))
				return -1;
		}
	}
	return 0;
}

/*
 * prmt.b32{.mode} d, a, b, c: the ISA's PRMT picks bytes of {b, a} the
 * same way; its modifier is the mode's place in the list, 0 for none.
 */
static int lw_prmt(struct lw *lw, const struct ptx_insn *in)
{
	static const char *const modes[] = {
		"f4e", "b4e", "rc8", "ecl", "ecr", "rc16",
	};
	struct vgpu_insn x = { .op = VGPU_OP_PRMT, .type = VGPU_T_U32 };
	uint32_t i, m;

	if (lw_type(in, 0) != PTX_T_B32)
		return lw_bad(lw, in, "unsupported type");
	for (i = 0; i < in->nmods; i++)
		for (m = 0; m < 6; m++)
			if (!strcmp(in->mods[i], modes[m]))
				x.mod = (uint8_t)(m + 1);
	return lw_alu(lw, in, x, 3);
}

/* --- moves ---------------------------------------------------------------- */

/* mov.b64 d, {lo, hi} and mov.b32 d, {lo, hi} (16-bit halves). */
static int lw_pack(struct lw *lw, const struct ptx_insn *in, uint8_t vt)
{
	const struct ptx_opnd *v = &in->opnds[1];
	unsigned int half = lw_bits(vt) / v->nvec;
	uint8_t ht = half == 32 ? VGPU_T_U32 : half == 16 ? VGPU_T_U16 :
		     VGPU_T_NONE;
	uint32_t d = 0, t = lw_temp(lw), i;

	if (ht == VGPU_T_NONE || v->nvec * half != lw_bits(vt))
		return lw_bad(lw, in, "unsupported vector move");
	if (lw_dst(lw, in, 0, false, &d))
		return -1;
	for (i = 0; i < v->nvec; i++) {
		uint32_t src;

		if (v->vec[i] < 0)
			return lw_bad(lw, in, "sink in a source vector");
		src = lw_r(lw, (uint32_t)v->vec[i], false);
		/* t = src cut to the half, shifted into place, or'ed in. */
		if (lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_MOV,
				.guard = VGPU_PRED_NONE, .type = ht, .dst = t,
				.b = src }, false))
			return -1;
		if (i && lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_SHL,
				.guard = VGPU_PRED_NONE, .type = VGPU_T_U64,
				.flags = VGPU_IF_B_IMM, .dst = t, .a = t,
				.imm = half * i }, false))
			return -1;
		if (lw_emit(lw, (struct vgpu_insn){
				.op = i ? VGPU_OP_OR : VGPU_OP_MOV,
				.guard = VGPU_PRED_NONE, .type = VGPU_T_U64,
				.dst = d, .a = i ? d : 0, .b = t }, false))
			return -1;
	}
	return 0;
}

/* mov.b64 {lo, hi}, s and mov.b32 {lo, hi}, s. */
static int lw_unpack(struct lw *lw, const struct ptx_insn *in, uint8_t vt)
{
	const struct ptx_opnd *v = &in->opnds[0];
	unsigned int half = v->nvec ? lw_bits(vt) / v->nvec : 0;
	uint8_t ht = half == 32 ? VGPU_T_U32 : half == 16 ? VGPU_T_U16 :
		     VGPU_T_NONE;
	uint32_t s, t = lw_temp(lw), i;

	if (ht == VGPU_T_NONE || v->nvec * half != lw_bits(vt) ||
	    lw_src_reg(lw, &in->opnds[1], VGPU_T_U64, &s))
		return lw_bad(lw, in, "unsupported vector move");
	/* Copy the source first: a destination may be the source. */
	if (lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_MOV,
			.guard = VGPU_PRED_NONE, .type = VGPU_T_U64, .dst = t,
			.b = s }, false))
		return -1;
	for (i = 0; i < v->nvec; i++) {
		uint32_t d;

		if (v->vec[i] < 0)
			continue;
		d = lw_r(lw, (uint32_t)v->vec[i], false);
		if (i && lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_SHR,
				.guard = VGPU_PRED_NONE, .type = VGPU_T_U64,
				.flags = VGPU_IF_B_IMM, .dst = d, .a = t,
				.imm = half * i }, false))
			return -1;
		if (lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_MOV,
				.guard = VGPU_PRED_NONE, .type = ht, .dst = d,
				.b = i ? d : t }, false))
			return -1;
	}
	return 0;
}

static int lw_mov(struct lw *lw, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_MOV, .guard = VGPU_PRED_NONE };
	struct lw_val v;

	if (lw_nopnds(lw, in, 2) || lw_itype(lw, in, 0, &x.type))
		return -1;
	if (in->opnds[1].kind == PTX_O_VEC)
		return lw_pack(lw, in, x.type);
	if (in->opnds[0].kind == PTX_O_VEC)
		return lw_unpack(lw, in, x.type);
	if (lw_dst(lw, in, 0, x.type == VGPU_T_PRED, &x.dst))
		return -1;
	if (in->opnds[1].kind == PTX_O_SREG)
		return lw_sreg(lw, &in->opnds[1], x.dst, x.type);
	if (lw_val(lw, &in->opnds[1], x.type, &v))
		return -1;
	if (x.type == VGPU_T_PRED && v.imm) {
		/* setp-free constant predicate: p = (0 == 0) or (0 != 0). */
		uint32_t t = lw_temp(lw);

		if (lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_MOV,
				.guard = VGPU_PRED_NONE, .type = VGPU_T_U32,
				.dst = t, .flags = VGPU_IF_B_IMM }, false))
			return -1;
		return lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_SETP,
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
	return lw_emit(lw, x, v.imm && v.reloc);
}

/* cvta: generic addresses of shared and local memory are their windows. */
static int lw_cvta(struct lw *lw, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .guard = VGPU_PRED_NONE };
	bool to = ptx_has_mod(in, "to");
	uint64_t window = 0;
	struct lw_val v;

	if (lw_nopnds(lw, in, 2) || lw_itype(lw, in, 0, &x.type) ||
	    lw_dst(lw, in, 0, x.type == VGPU_T_PRED, &x.dst))
		return -1;
	if (ptx_has_mod(in, "shared"))
		window = VGPU_SHARED_WINDOW;
	else if (ptx_has_mod(in, "local"))
		window = VGPU_LOCAL_WINDOW;
	else if (!ptx_has_mod(in, "global"))
		return lw_bad(lw, in, "unsupported state space");
	if (lw_val(lw, &in->opnds[1], x.type, &v))
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
		return lw_emit(lw, x, v.imm && v.reloc);
	}
	if (lw_in_reg(lw, &v, x.type))
		return -1;
	x.op = to ? VGPU_OP_SUB : VGPU_OP_ADD;
	x.a = v.reg;
	x.flags = VGPU_IF_B_IMM;
	x.imm = lw_cut(window, x.type);
	if (lw_bits(x.type) < 64)
		return lw_bad(lw, in, "32-bit generic addresses are not supported");
	return lw_emit(lw, x, false);
}

/* --- memory ---------------------------------------------------------------- */

static int lw_space(const struct ptx_insn *in, uint8_t *space)
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

static uint8_t lw_space_of(enum ptx_space s)
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
static int lw_addr(struct lw *lw, const struct ptx_insn *in,
		   const struct ptx_opnd *o, uint8_t *space, uint32_t *a,
		   uint64_t *imm, bool *reloc)
{
	struct lw_val v;
	enum ptx_space sp;

	*reloc = false;
	if (o->kind != PTX_O_ADDR)
		return lw_bad(lw, in, "address operand expected");
	switch (o->base) {
	case PTX_BASE_REG:
		*a = lw_r(lw, o->reg, false);
		*imm = (uint64_t)o->imm;
		return 0;
	case PTX_BASE_SYM:
		if (lw_sym_addr(lw, o, &v, &sp))
			return -1;
		if (*space == VGPU_SPACE_GENERIC) {
			/* A symbol's own space (clang writes ld.f32 [sym]). */
			*space = lw_space_of(sp);
		} else if (*space != lw_space_of(sp)) {
			return lw_bad(lw, in, "symbol is not in the instruction's state space");
		}
		*a = LW_NO_REG;
		*imm = v.bits;
		*reloc = v.reloc;
		return 0;
	default:
		*a = LW_NO_REG;
		*imm = (uint64_t)o->imm;
		return 0;
	}
}

/* Registers of a ld/st data operand: one, or a vector's. */
static int lw_data_regs(struct lw *lw, const struct ptx_insn *in,
			const struct ptx_opnd *o, uint32_t nvec, bool store,
			uint8_t vt, int64_t *regs)
{
	uint32_t i;

	if (o->kind == PTX_O_VEC) {
		if (o->nvec != nvec)
			return lw_bad(lw, in, "vector size does not match the type");
		for (i = 0; i < nvec; i++)
			regs[i] = o->vec[i] < 0 ? -1 :
				  (int64_t)lw_r(lw, (uint32_t)o->vec[i], false);
		return 0;
	}
	if (nvec != 1)
		return lw_bad(lw, in, "vector operand expected");
	if (o->kind == PTX_O_REG) {
		regs[0] = lw_r(lw, o->reg, false);
		return 0;
	}
	if (!store)
		return lw_bad(lw, in, "destination must be a register");
	{
		/* st of a constant: ST's immediate is the address offset. */
		uint32_t r;

		if (lw_src_reg(lw, o, vt, &r))
			return -1;
		regs[0] = r;
	}
	return 0;
}

/* The slot behind a .param symbol of a call sequence, if it is one. */
static bool lw_slot_of(const struct lw *lw, struct ptx_sym s, uint32_t *slot)
{
	const struct lw_frame *f = &lw->f;

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
static int lw_slot_access(struct lw *lw, const struct ptx_insn *in, bool store,
			  uint32_t slot, uint64_t off, unsigned int size,
			  uint8_t vt, uint32_t reg)
{
	uint32_t r = slot + (uint32_t)(off / 8), sh = (uint32_t)(off % 8) * 8;
	uint64_t mask = size == 8 ? ~0ULL : ((1ULL << (size * 8)) - 1) << sh;
	uint32_t t = lw_temp(lw), u = lw_temp(lw);
	struct vgpu_insn x = { .guard = VGPU_PRED_NONE, .type = VGPU_T_U64 };

	if (off % size || sh + size * 8 > 64)
		return lw_bad(lw, in, "unaligned parameter access");
	if (!store) {
		/* d = slot >> sh, cut to the type */
		x.op = VGPU_OP_SHR;
		x.dst = t;
		x.a = r;
		x.flags = VGPU_IF_B_IMM;
		x.imm = sh;
		if (lw_emit(lw, x, false))
			return -1;
		return lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_MOV,
				.guard = VGPU_PRED_NONE, .type = vt, .dst = reg,
				.b = t }, false);
	}
	if (size == 8)
		return lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_MOV,
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
			if (lw_emit(lw, x, false))
				return -1;
		}
	}
	return 0;
}

static int lw_ldst(struct lw *lw, const struct ptx_insn *in)
{
	bool store = lw_is(in, "st");
	struct vgpu_insn x = { .op = store ? VGPU_OP_ST : VGPU_OP_LD,
			       .guard = VGPU_PRED_NONE };
	uint32_t nvec = ptx_has_mod(in, "v4") ? 4 : ptx_has_mod(in, "v2") ? 2 : 1;
	int64_t regs[4];
	uint32_t a, i, size;
	uint64_t imm;
	bool reloc;

	if (lw_nopnds(lw, in, 2) || lw_itype(lw, in, 0, &x.type))
		return -1;
	if (x.type == VGPU_T_PRED)
		return lw_bad(lw, in, "unsupported type");
	if (lw_space(in, &x.mod))
		return lw_bad(lw, in, "unsupported state space");
	size = lw_bits(x.type) / 8;
	if (lw_data_regs(lw, in, &in->opnds[store ? 1 : 0], nvec, store,
			 x.type, regs))
		return -1;
	{
		const struct ptx_opnd *ad = &in->opnds[store ? 0 : 1];
		uint32_t slot;

		if (ad->kind == PTX_O_ADDR && ad->base == PTX_BASE_SYM &&
		    lw_slot_of(lw, ad->sym, &slot)) {
			for (i = 0; i < nvec; i++)
				if (regs[i] >= 0 &&
				    lw_slot_access(lw, in, store, slot,
						   (uint64_t)ad->imm + i * size,
						   size, x.type,
						   (uint32_t)regs[i]))
					return -1;
			return 0;
		}
	}
	if (lw_addr(lw, in, &in->opnds[store ? 0 : 1], &x.mod, &a, &imm, &reloc))
		return -1;
	if (store && x.mod >= VGPU_SPACE_PARAM)
		return lw_bad(lw, in, "stores to parameters and constants are not supported");
	for (i = 0; i < nvec; i++) {
		if (regs[i] < 0)
			continue;
		x.a = a;
		x.imm = imm + (uint64_t)i * size;
		if (store)
			x.b = (uint32_t)regs[i];
		else
			x.dst = (uint32_t)regs[i];
		if (lw_emit(lw, x, reloc))
			return -1;
	}
	return 0;
}

static int lw_atom(struct lw *lw, const struct ptx_insn *in)
{
	static const char *const ops[] = {
		"add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas",
	};
	bool red = lw_is(in, "red");
	struct vgpu_insn x = { .op = VGPU_OP_ATOM, .guard = VGPU_PRED_NONE };
	uint32_t first = red ? 0 : 1, nsrc, i, o;
	uint64_t imm;
	bool reloc, found = false;

	if (lw_itype(lw, in, 0, &x.type) || lw_space(in, &x.mod))
		return -1;
	if (x.mod != VGPU_SPACE_GLOBAL && x.mod != VGPU_SPACE_SHARED &&
	    x.mod != VGPU_SPACE_GENERIC)
		return lw_bad(lw, in, "unsupported state space");
	for (i = 0; i < in->nmods && !found; i++)
		for (o = 0; o < VGPU_ATOM_COUNT && !found; o++)
			if (!strcmp(in->mods[i], ops[o])) {
				x.mod2 = (uint8_t)o;
				found = true;
			}
	if (!found)
		return lw_bad(lw, in, "missing operation");
	nsrc = x.mod2 == VGPU_ATOM_CAS ? 2 : 1;
	if (lw_nopnds(lw, in, first + 1 + nsrc))
		return -1;
	if (red)
		x.dst = lw_temp(lw);
	else if (lw_dst(lw, in, 0, x.type == VGPU_T_PRED, &x.dst))
		return -1;
	if (lw_addr(lw, in, &in->opnds[first], &x.mod, &x.a, &imm, &reloc))
		return -1;
	x.imm = imm;
	for (i = 0; i < nsrc; i++) {
		uint32_t r;

		if (lw_src_reg(lw, &in->opnds[first + 1 + i], x.type, &r))
			return -1;
		if (i)
			x.c = r;
		else
			x.b = r;
	}
	return lw_emit(lw, x, reloc);
}

/* --- control and the warp -------------------------------------------------- */

static int lw_bra(struct lw *lw, const struct ptx_insn *in)
{
	if (lw_nopnds(lw, in, 1) || in->opnds[0].kind != PTX_O_LABEL)
		return lw_bad(lw, in, "branch to a label expected");
	if (lw_fixup(lw, lw->ncode, in->opnds[0].label))
		return -1;
	return lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			.guard = VGPU_PRED_NONE, .c = VGPU_NO_TARGET }, false);
}

/* An immediate member mask, or the whole warp for a register's. */
static int lw_mask(struct lw *lw, const struct ptx_insn *in,
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
	return lw_bad(lw, in, "member mask must be a constant or a register");
}

/*
 * A block barrier's number @id and optional thread count @count (NULL:
 * none, every thread of the block), each a constant or a register, into
 * @x: the number in imm or register c, the count in b.
 */
static int lw_bar_opnds(struct lw *lw, const struct ptx_insn *in,
			const struct ptx_opnd *id, const struct ptx_opnd *count,
			struct vgpu_insn *x)
{
	if (id->kind == PTX_O_IMM) {
		if (id->imm < 0 || id->imm >= VGPU_MAX_BARRIERS)
			return lw_bad(lw, in, "barrier number must be from 0 to 15");
		x->imm = (uint64_t)id->imm;
	} else if (id->kind == PTX_O_REG) {
		x->mod2 |= VGPU_BAR_ID_REG;
		x->c = lw_r(lw, id->reg, false);
	} else {
		return lw_bad(lw, in, "barrier number must be a constant or a register");
	}
	if (!count)
		return 0;
	x->mod2 |= VGPU_BAR_COUNT;
	if (count->kind == PTX_O_IMM) {
		/* Threads arrive a warp at a time: whole warps only. */
		if (count->imm < 32 || count->imm > VGPU_MAX_BLOCK_THREADS ||
		    count->imm % 32)
			return lw_bad(lw, in, "thread count must be a multiple of 32 from 32 to 1024");
		x->flags |= VGPU_IF_B_IMM;
		x->b = (uint32_t)count->imm;
		return 0;
	}
	if (count->kind != PTX_O_REG)
		return lw_bad(lw, in, "thread count must be a constant or a register");
	x->b = lw_r(lw, count->reg, false);
	return 0;
}

/*
 * bar.red.{popc.u32,and.pred,or.pred} d, a{, b}, {!}p: __syncthreads_count,
 * _and and _or, over the threads the count names. A negated predicate
 * goes through the scratch predicate.
 */
static int lw_bar_red(struct lw *lw, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_BAR_RED, .guard = VGPU_PRED_NONE };
	const struct ptx_opnd *p = &in->opnds[in->nopnds - 1];
	bool popc = ptx_has_mod(in, "popc");

	if (in->nopnds != 3 && in->nopnds != 4)
		return lw_bad(lw, in, "wrong number of operands");
	if (!popc && !ptx_has_mod(in, "and") && !ptx_has_mod(in, "or"))
		return lw_bad(lw, in, "missing operation");
	x.mod = popc ? VGPU_BAR_POPC : ptx_has_mod(in, "and") ? VGPU_BAR_AND :
		VGPU_BAR_OR;
	x.type = popc ? VGPU_T_U32 : VGPU_T_PRED;
	if (lw_bar_opnds(lw, in, &in->opnds[1],
			 in->nopnds == 4 ? &in->opnds[2] : NULL, &x))
		return -1;
	if (p->kind != PTX_O_REG)
		return lw_bad(lw, in, "a predicate register is expected");
	if (lw_dst(lw, in, 0, !popc, &x.dst))
		return -1;
	x.a = lw_r(lw, p->reg, true);
	if (p->neg) {
		uint32_t s;

		if (lw_scratch_pred(lw, &s) ||
		    lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_NOT,
			    .type = VGPU_T_PRED, .guard = VGPU_PRED_NONE,
			    .dst = s, .a = x.a }, false))
			return -1;
		x.a = s;
	}
	return lw_emit(lw, x, false);
}

/*
 * bar{.cta}.sync a{, b}, bar{.cta}.arrive a, b, bar{.cta}.red (and the
 * same as barrier{.cta}, .aligned or not; plain bar is bar.sync), and
 * bar.warp.sync.
 */
static int lw_bar(struct lw *lw, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_BAR, .guard = VGPU_PRED_NONE };
	bool arrive = ptx_has_mod(in, "arrive");

	if (ptx_has_mod(in, "warp")) {
		x.op = VGPU_OP_WARPSYNC;
		if (lw_nopnds(lw, in, 1) ||
		    lw_mask(lw, in, &in->opnds[0], &x.imm))
			return -1;
		return lw_emit(lw, x, false);
	}
	if (ptx_has_mod(in, "red"))
		return lw_bar_red(lw, in);
	if (arrive && in->nopnds != 2)
		return lw_bad(lw, in, "arrive needs a barrier number and a thread count");
	if (in->nopnds < 1 || in->nopnds > 2)
		return lw_bad(lw, in, "wrong number of operands");
	x.mod = arrive ? VGPU_BAR_ARRIVE : VGPU_BAR_SYNC;
	if (lw_bar_opnds(lw, in, &in->opnds[0],
			 in->nopnds == 2 ? &in->opnds[1] : NULL, &x))
		return -1;
	return lw_emit(lw, x, false);
}

static int lw_membar(struct lw *lw, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_MEMBAR, .guard = VGPU_PRED_NONE };

	x.mod = ptx_has_mod(in, "cta") ? VGPU_SCOPE_CTA :
		ptx_has_mod(in, "sys") ? VGPU_SCOPE_SYS : VGPU_SCOPE_GPU;
	return lw_emit(lw, x, false);
}

static int lw_shfl(struct lw *lw, const struct ptx_insn *in)
{
	static const char *const modes[] = { "up", "down", "bfly", "idx" };
	struct vgpu_insn x = { .op = VGPU_OP_SHFL, .type = VGPU_T_U32,
			       .guard = VGPU_PRED_NONE };
	uint32_t i, m;
	bool found = false;

	if (lw_nopnds(lw, in, 5) || lw_dst(lw, in, 0, x.type == VGPU_T_PRED, &x.dst) ||
	    lw_src_reg(lw, &in->opnds[1], VGPU_T_U32, &x.a) ||
	    lw_mask(lw, in, &in->opnds[4], &x.imm))
		return -1;
	for (i = 0; i < in->nmods && !found; i++)
		for (m = 0; m < 4 && !found; m++)
			if (!strcmp(in->mods[i], modes[m])) {
				x.mod = (uint8_t)m;
				found = true;
			}
	if (!found)
		return lw_bad(lw, in, "missing mode");
	for (i = 2; i <= 3; i++) {
		const struct ptx_opnd *o = &in->opnds[i];
		uint32_t v;

		if (o->kind == PTX_O_IMM) {
			x.flags |= i == 2 ? VGPU_IF_B_IMM : VGPU_IF_C_IMM;
			v = (uint32_t)o->imm;
		} else if (lw_src_reg(lw, o, VGPU_T_U32, &v)) {
			return -1;
		}
		if (i == 2)
			x.b = v;
		else
			x.c = v;
	}
	if (in->has_pipe)
		x.mod2 = (uint8_t)(lw_r(lw, in->pipe_reg, true) + 1);
	return lw_emit(lw, x, false);
}

static int lw_vote(struct lw *lw, const struct ptx_insn *in)
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
		return lw_bad(lw, in, "missing mode");
	x.type = x.mod == VGPU_VOTE_BALLOT ? VGPU_T_U32 : VGPU_T_PRED;
	if (lw_nopnds(lw, in, 3) || lw_dst(lw, in, 0, x.type == VGPU_T_PRED, &x.dst) ||
	    lw_mask(lw, in, &in->opnds[2], &x.imm))
		return -1;
	p = &in->opnds[1];
	if (p->kind != PTX_O_REG || p->neg)
		return lw_bad(lw, in, "a predicate register is expected");
	x.a = lw_r(lw, p->reg, true);
	return lw_emit(lw, x, false);
}

/*
 * match.{any,all}.sync.{b32,b64} d[|p], a, membermask. MATCH reads every
 * lane's a while it writes each lane's d, so a destination that is also
 * the source gets the result through a temporary.
 */
static int lw_match(struct lw *lw, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_MATCH, .guard = VGPU_PRED_NONE };
	enum ptx_type t = lw_type(in, 0);
	uint32_t d;

	if (ptx_has_mod(in, "all"))
		x.mod = VGPU_MATCH_ALL;
	else if (!ptx_has_mod(in, "any"))
		return lw_bad(lw, in, "missing mode");
	if (t != PTX_T_B32 && t != PTX_T_B64)
		return lw_bad(lw, in, "unsupported type");
	x.type = t == PTX_T_B64 ? VGPU_T_U64 : VGPU_T_U32;
	if (lw_nopnds(lw, in, 3) || lw_dst(lw, in, 0, false, &d) ||
	    lw_src_reg(lw, &in->opnds[1], x.type, &x.a) ||
	    lw_mask(lw, in, &in->opnds[2], &x.imm))
		return -1;
	if (in->has_pipe) {
		if (x.mod != VGPU_MATCH_ALL)
			return lw_bad(lw, in, "only match.all sets a predicate");
		x.mod2 = (uint8_t)(lw_r(lw, in->pipe_reg, true) + 1);
	}
	x.dst = d == x.a ? lw_temp(lw) : d;
	if (lw_emit(lw, x, false))
		return -1;
	if (x.dst == d)
		return 0;
	return lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_MOV,
			.guard = VGPU_PRED_NONE, .type = VGPU_T_U32, .dst = d,
			.b = x.dst }, false);
}

static int lw_activemask(struct lw *lw, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_ACTIVEMASK, .type = VGPU_T_U32,
			       .guard = VGPU_PRED_NONE };

	if (lw_nopnds(lw, in, 1) || lw_dst(lw, in, 0, x.type == VGPU_T_PRED, &x.dst))
		return -1;
	return lw_emit(lw, x, false);
}

static int lw_simple(struct lw *lw, uint8_t op)
{
	return lw_emit(lw, (struct vgpu_insn){ .op = op,
			.guard = VGPU_PRED_NONE }, false);
}

/* ret in an inlined function: on to what follows the call. */
static int lw_ret(struct lw *lw)
{
	if (lw_fixup(lw, lw->ncode, lw->f.fn->nlabels))
		return -1;
	return lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			.guard = VGPU_PRED_NONE, .c = VGPU_NO_TARGET }, false);
}

#define LW_U64(...) ((struct vgpu_insn){ .type = VGPU_T_U64, __VA_ARGS__ })

/*
 * vprintf(fmt, args) appends a record to the module's FIFO: the size is
 * reserved with an atomic add on the header, then the format address and
 * the argument buffer (what is left of the thread's local memory from
 * @args, at most VG_PRINTF_MAX_ARGS bytes: nvcc puts the buffer in the
 * local frame) are copied a word at a time. The host formats records at
 * synchronizing calls (printf.c). A full FIFO drops the record.
 */
static int lw_printf(struct lw *lw, const struct ptx_insn *in,
		     const struct ptx_opnd *rets, const struct ptx_opnd *args)
{
	enum { SKIP = 12, LOOP = 18, EXIT_LOOP = 19, BACK = 25 };
	uint32_t fmt, buf, i, base, done, guard_bra = UINT32_MAX;
	uint32_t off = lw_temp(lw), cnt = lw_temp(lw), rec = lw_temp(lw);
	uint32_t fifo = lw_temp(lw), old = lw_temp(lw), w = lw_temp(lw);
	uint32_t p32;
	uint8_t guard = lw->guard, p, none = VGPU_PRED_NONE;
	bool guard_not = lw->guard_not;

	if (!args || args->nvec != 2 || (rets && rets->nvec > 1))
		return lw_bad(lw, in, "vprintf takes a format and an argument buffer");
	for (i = 0; i < 2; i++) {
		struct ptx_sym s = args->list[i];

		if (s.kind != PTX_SYM_FUNCVAR ||
		    lw->f.fn->vars[s.index].space != PTX_S_PARAM)
			return lw_bad(lw, in, "call arguments must be .param variables");
	}
	fmt = lw->f.var_slot[args->list[0].index];
	buf = lw->f.var_slot[args->list[1].index];
	if (lw_scratch_pred(lw, &p32))
		return -1;
	p = (uint8_t)p32;
	/* Lanes where a guarded call does not run jump past it all. */
	lw->guard = VGPU_PRED_NONE;
	if (guard != VGPU_PRED_NONE) {
		guard_bra = lw->ncode;
		if (lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			    .guard = guard,
			    .flags = guard_not ? 0 : VGPU_IF_GUARD_NOT,
			    .c = VGPU_NO_TARGET }, false))
			return -1;
	}
	base = lw->ncode;
	{
		const struct vgpu_insn seq[] = {
			/* off = buf - window; cnt = clamp(L - off, 0, MAX) */
			LW_U64(.op = VGPU_OP_SUB, .dst = off, .a = buf, .guard = none,
			       .flags = VGPU_IF_B_IMM, .imm = VGPU_LOCAL_WINDOW),
			LW_U64(.op = VGPU_OP_MOV, .dst = cnt, .guard = none,
			       .flags = VGPU_IF_B_IMM),
			LW_U64(.op = VGPU_OP_SUB, .dst = cnt, .a = cnt, .b = off,
			       .guard = none),
			{ .op = VGPU_OP_MIN, .type = VGPU_T_S64, .dst = cnt, .a = cnt,
			  .flags = VGPU_IF_B_IMM, .imm = VG_PRINTF_MAX_ARGS,
			  .guard = none },
			{ .op = VGPU_OP_MAX, .type = VGPU_T_S64, .dst = cnt, .a = cnt,
			  .flags = VGPU_IF_B_IMM, .guard = none },
			/* No buffer (a format without arguments): nothing to copy. */
			LW_U64(.op = VGPU_OP_SETP, .mod = VGPU_CMP_EQ, .dst = p,
			       .a = buf, .flags = VGPU_IF_B_IMM, .guard = none),
			LW_U64(.op = VGPU_OP_MOV, .dst = cnt, .flags = VGPU_IF_B_IMM,
			       .guard = p),
			LW_U64(.op = VGPU_OP_ADD, .dst = rec, .a = cnt, .guard = none,
			       .flags = VGPU_IF_B_IMM, .imm = 16),
			LW_U64(.op = VGPU_OP_MOV, .dst = fifo, .guard = none,
			       .flags = VGPU_IF_B_IMM, .imm = lw->printf_off),
			LW_U64(.op = VGPU_OP_ATOM, .mod = VGPU_SPACE_GLOBAL,
			       .mod2 = VGPU_ATOM_ADD, .dst = old, .a = fifo, .b = rec,
			       .guard = none),
			LW_U64(.op = VGPU_OP_ADD, .dst = w, .a = old, .b = rec,
			       .guard = none),
			LW_U64(.op = VGPU_OP_SETP, .mod = VGPU_CMP_GT, .dst = p, .a = w,
			       .flags = VGPU_IF_B_IMM, .imm = VG_PRINTF_CAP,
			       .guard = none),
			[SKIP] = { .op = VGPU_OP_BRA, .guard = p, .c = VGPU_NO_TARGET },
			LW_U64(.op = VGPU_OP_ADD, .dst = fifo, .a = fifo, .b = old,
			       .guard = none),
			{ .op = VGPU_OP_ST, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
			  .a = fifo, .b = rec, .imm = VG_PRINTF_HEADER, .guard = none },
			{ .op = VGPU_OP_ST, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
			  .a = fifo, .b = cnt, .imm = VG_PRINTF_HEADER + 4,
			  .guard = none },
			LW_U64(.op = VGPU_OP_ST, .mod = VGPU_SPACE_GLOBAL, .a = fifo,
			       .b = fmt, .imm = VG_PRINTF_HEADER + 8, .guard = none),
			/* for (old = 0; old < cnt; old += 8) copy a word */
			LW_U64(.op = VGPU_OP_MOV, .dst = old, .flags = VGPU_IF_B_IMM,
			       .guard = none),
			[LOOP] = LW_U64(.op = VGPU_OP_SETP, .mod = VGPU_CMP_GE, .dst = p,
					.a = old, .b = cnt, .guard = none),
			[EXIT_LOOP] = { .op = VGPU_OP_BRA, .guard = p,
					.c = VGPU_NO_TARGET },
			LW_U64(.op = VGPU_OP_ADD, .dst = w, .a = off, .b = old,
			       .guard = none),
			LW_U64(.op = VGPU_OP_LD, .mod = VGPU_SPACE_LOCAL, .dst = w,
			       .a = w, .guard = none),
			LW_U64(.op = VGPU_OP_ADD, .dst = rec, .a = fifo, .b = old,
			       .guard = none),
			LW_U64(.op = VGPU_OP_ST, .mod = VGPU_SPACE_GLOBAL, .a = rec,
			       .b = w, .imm = VG_PRINTF_HEADER + 16, .guard = none),
			LW_U64(.op = VGPU_OP_ADD, .dst = old, .a = old,
			       .flags = VGPU_IF_B_IMM, .imm = 8, .guard = none),
			[BACK] = { .op = VGPU_OP_BRA, .guard = none,
				   .c = VGPU_NO_TARGET },
		};

		for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
			if (lw_emit(lw, seq[i], seq[i].op == VGPU_OP_MOV &&
				    seq[i].dst == fifo))
				return -1;
	}
	/* The sequence's branches: past it, out of the loop, back. */
	done = lw->ncode;
	if (lw_local_size_fixup(lw, base + 1))
		return -1;
	lw->code[base + SKIP].imm = done;
	lw->code[base + EXIT_LOOP].imm = done;
	lw->code[base + BACK].imm = base + LOOP;
	if (guard_bra != UINT32_MAX)
		lw->code[guard_bra].imm = done;
	/* vprintf returns an int; nothing reads it but keep it defined. */
	if (rets && rets->nvec) {
		struct ptx_sym s = rets->list[0];

		if (s.kind != PTX_SYM_FUNCVAR ||
		    lw->f.fn->vars[s.index].space != PTX_S_PARAM)
			return lw_bad(lw, in, "call arguments must be .param variables");
		if (lw_emit(lw, LW_U64(.op = VGPU_OP_MOV,
				       .dst = lw->f.var_slot[s.index],
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
static int lw_call(struct lw *lw, const struct ptx_insn *in)
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
			return lw_bad(lw, in, "unexpected operand");
	}
	if (!callee)
		return lw_bad(lw, in, "no function to call");
	if (callee->kind == PTX_O_REG) {
		if (callee->neg)
			return lw_bad(lw, in, "unexpected operand");
		if (!proto)
			return lw_bad(lw, in, "a call through a pointer needs a .callprototype");
		return lw_inline_indirect(lw, in, callee->reg,
					  &lw->f.fn->protos[proto->sym.index],
					  rets, args);
	}
	f = callee->sym.index;
	fn = &lw->m->funcs[f];
	if (!fn->has_body && !strcmp(fn->name, "vprintf"))
		return lw_printf(lw, in, rets, args);
	return lw_inline(lw, in, f, rets, args);
}

static int lw_insn_do(struct lw *lw, const struct ptx_insn *in);

/**
 * lw_insn() - lowers @in at the end of the program being written.
 * Return: 0, or -1 with the error recorded.
 */
int lw_insn(struct lw *lw, const struct ptx_insn *in)
{
	int ret = lw_insn_do(lw, in);

	/* Errors found on the way (a register of the wrong kind) count too. */
	return ret || lw->failed ? -1 : 0;
}

static int lw_insn_do(struct lw *lw, const struct ptx_insn *in)
{
	lw_lower_fn seq;
	uint32_t i;

	lw->guard = VGPU_PRED_NONE;
	lw->guard_not = false;
	if (in->guarded) {
		lw->guard = (uint8_t)lw_r(lw, in->guard, true);
		lw->guard_not = in->guard_neg;
	}
	for (i = 0; i < sizeof(lw_arith) / sizeof(lw_arith[0]); i++)
		if (lw_is(in, lw_arith[i].name))
			return lw_arith_op(lw, in, lw_arith[i].op,
					   lw_arith[i].nsrc);
	if (lw_is(in, "mov"))
		return lw_mov(lw, in);
	if (lw_is(in, "ld") || lw_is(in, "st"))
		return lw_ldst(lw, in);
	if (lw_is(in, "setp"))
		return lw_setp(lw, in);
	if (lw_is(in, "selp"))
		return lw_selp(lw, in);
	if (lw_is(in, "cvt"))
		return lw_cvt(lw, in);
	if (lw_is(in, "cvta"))
		return lw_cvta(lw, in);
	if (lw_is(in, "bfi"))
		return lw_bfi(lw, in);
	if (lw_is(in, "prmt"))
		return lw_prmt(lw, in);
	if (lw_is(in, "bra"))
		return lw_bra(lw, in);
	if (lw_is(in, "ret") && lw->f.depth)
		return lw_ret(lw);
	if (lw_is(in, "ret") || lw_is(in, "exit"))
		return lw_simple(lw, VGPU_OP_EXIT);
	if (lw_is(in, "trap"))
		return lw_simple(lw, VGPU_OP_TRAP);
	if (lw_is(in, "bar") || lw_is(in, "barrier"))
		return lw_bar(lw, in);
	if (lw_is(in, "membar") || lw_is(in, "fence"))
		return lw_membar(lw, in);
	if (lw_is(in, "atom") || lw_is(in, "red"))
		return lw_atom(lw, in);
	if (lw_is(in, "shfl"))
		return lw_shfl(lw, in);
	if (lw_is(in, "vote"))
		return lw_vote(lw, in);
	if (lw_is(in, "match"))
		return lw_match(lw, in);
	if (lw_is(in, "activemask"))
		return lw_activemask(lw, in);
	if (lw_is(in, "call"))
		return lw_call(lw, in);
	seq = lw_seq_lowering(in);
	if (seq)
		return seq(lw, in);
	return lw_bad(lw, in, "unsupported instruction");
}
