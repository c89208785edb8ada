// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The ISA description: what each operation takes (types, modifiers,
 * flags, operand slots), and the check of one instruction against it,
 * which needs no kernel's counts. The verifier (isa_verify.c), the JIT
 * and the assembler read it through isa.h.
 */
#include "core.h"

#define TB(t) (1U << (t))
#define T_I16 (TB(VGPU_T_U16) | TB(VGPU_T_S16))
#define T_I32 (TB(VGPU_T_U32) | TB(VGPU_T_S32))
#define T_I64 (TB(VGPU_T_U64) | TB(VGPU_T_S64))
#define T_INT (T_I16 | T_I32 | T_I64)
#define T_SINT (TB(VGPU_T_S16) | TB(VGPU_T_S32) | TB(VGPU_T_S64))
#define T_FLT (TB(VGPU_T_F32) | TB(VGPU_T_F64))
#define T_MEM (TB(VGPU_T_U8) | TB(VGPU_T_S8) | T_INT | TB(VGPU_T_F16) | T_FLT)
#define T_NUM (T_MEM)
#define T_PRED TB(VGPU_T_PRED)
#define T_B32 TB(VGPU_T_U32)
#define T_BITS (T_I32 | T_I64)
#define T_ATOM (T_I32 | T_I64 | T_FLT)
#define T_SURF (TB(VGPU_T_U8) | TB(VGPU_T_U16) | TB(VGPU_T_U32) | TB(VGPU_T_U64))

/*
 * struct vgpu_op_spec - the shape of one operation.
 * @name: as the text form spells it.
 * @types: the types it takes.
 * @dst, @a, @b, @c: what each operand slot holds (enum vgpu_opnd);
 *	operations on predicates (type PRED) use OPND_PRED in place of
 *	OPND_REG and OPND_REG_IMM.
 * @imm: whether @imm may be nonzero without an _IMM flag (offsets,
 *	targets, barrier numbers).
 * @flags: the VGPU_IF_* flags it allows besides the guard and _IMM ones.
 */
struct vgpu_op_spec {
	const char *name;
	u32 types;
	u8 dst, a, b, c;
	u8 imm;
	u8 flags;
};

static const struct vgpu_op_spec vgpu_ops[VGPU_OP_COUNT] = {
	[VGPU_OP_NOP] = { "nop", TB(VGPU_T_NONE) },
	[VGPU_OP_MOV] = { "mov", T_NUM | T_PRED, OPND_REG, OPND_NONE, OPND_REG_IMM },
	[VGPU_OP_SREG] = { "sreg", TB(VGPU_T_U32) | TB(VGPU_T_U64), OPND_REG },
	[VGPU_OP_ADD] = { "add", T_INT | T_FLT, OPND_REG, OPND_REG, OPND_REG_IMM,
			  .flags = VGPU_IF_FTZ | VGPU_IF_SAT },
	[VGPU_OP_SUB] = { "sub", T_INT | T_FLT, OPND_REG, OPND_REG, OPND_REG_IMM,
			  .flags = VGPU_IF_FTZ | VGPU_IF_SAT },
	[VGPU_OP_MUL] = { "mul", T_INT | T_FLT, OPND_REG, OPND_REG, OPND_REG_IMM,
			  .flags = VGPU_IF_FTZ | VGPU_IF_SAT },
	[VGPU_OP_MAD] = { "mad", T_INT, OPND_REG, OPND_REG, OPND_REG_IMM,
			  OPND_REG_IMM },
	[VGPU_OP_FMA] = { "fma", T_FLT, OPND_REG, OPND_REG, OPND_REG_IMM,
			  OPND_REG_IMM, .flags = VGPU_IF_FTZ | VGPU_IF_SAT },
	[VGPU_OP_DIV] = { "div", T_INT | T_FLT, OPND_REG, OPND_REG, OPND_REG_IMM,
			  .flags = VGPU_IF_FTZ },
	[VGPU_OP_REM] = { "rem", T_INT, OPND_REG, OPND_REG, OPND_REG_IMM },
	[VGPU_OP_MIN] = { "min", T_INT | T_FLT, OPND_REG, OPND_REG, OPND_REG_IMM,
			  .flags = VGPU_IF_FTZ },
	[VGPU_OP_MAX] = { "max", T_INT | T_FLT, OPND_REG, OPND_REG, OPND_REG_IMM,
			  .flags = VGPU_IF_FTZ },
	[VGPU_OP_ABS] = { "abs", T_SINT | T_FLT, OPND_REG, OPND_REG,
			  .flags = VGPU_IF_FTZ },
	[VGPU_OP_NEG] = { "neg", T_SINT | T_FLT, OPND_REG, OPND_REG,
			  .flags = VGPU_IF_FTZ },
	[VGPU_OP_AND] = { "and", T_INT | T_PRED, OPND_REG, OPND_REG, OPND_REG_IMM },
	[VGPU_OP_OR] = { "or", T_INT | T_PRED, OPND_REG, OPND_REG, OPND_REG_IMM },
	[VGPU_OP_XOR] = { "xor", T_INT | T_PRED, OPND_REG, OPND_REG, OPND_REG_IMM },
	[VGPU_OP_NOT] = { "not", T_INT | T_PRED, OPND_REG, OPND_REG },
	[VGPU_OP_SHL] = { "shl", T_INT, OPND_REG, OPND_REG, OPND_REG_IMM },
	[VGPU_OP_SHR] = { "shr", T_INT, OPND_REG, OPND_REG, OPND_REG_IMM },
	[VGPU_OP_SETP] = { "setp", T_INT | T_FLT, OPND_PRED, OPND_REG,
			   OPND_REG_IMM, .flags = VGPU_IF_FTZ },
	[VGPU_OP_SELP] = { "selp", T_NUM, OPND_REG, OPND_REG, OPND_REG_IMM,
			   OPND_PRED },
	[VGPU_OP_CVT] = { "cvt", T_NUM, OPND_REG, OPND_REG,
			  .flags = VGPU_IF_FTZ | VGPU_IF_SAT },
	[VGPU_OP_LD] = { "ld", T_MEM, OPND_REG, OPND_ADDR, .imm = 1 },
	[VGPU_OP_ST] = { "st", T_MEM, OPND_NONE, OPND_ADDR, OPND_REG_IMM, .imm = 1 },
	[VGPU_OP_BRA] = { "bra", TB(VGPU_T_NONE), .c = OPND_MEET, .imm = 1 },
	[VGPU_OP_EXIT] = { "exit", TB(VGPU_T_NONE) },
	/* A barrier's count and number register: see vgpu_isa_insn_desc(). */
	[VGPU_OP_BAR] = { "bar", TB(VGPU_T_NONE), .b = OPND_REG_INLINE,
			  .c = OPND_REG_INLINE, .imm = 1 },
	[VGPU_OP_TRAP] = { "trap", TB(VGPU_T_NONE) },
	[VGPU_OP_SHFL] = { "shfl", T_B32, OPND_REG, OPND_REG, OPND_REG_INLINE,
			   OPND_REG_INLINE, .imm = 1 },
	[VGPU_OP_VOTE] = { "vote", T_B32 | T_PRED, OPND_REG, OPND_PRED, .imm = 1 },
	[VGPU_OP_MATCH] = { "match", T_I32 | T_I64, OPND_REG, OPND_REG, .imm = 1 },
	[VGPU_OP_WARPSYNC] = { "warpsync", TB(VGPU_T_NONE), .imm = 1 },
	[VGPU_OP_ACTIVEMASK] = { "activemask", T_B32, OPND_REG },
	[VGPU_OP_ATOM] = { "atom", T_ATOM, OPND_REG, OPND_ADDR, OPND_REG_INLINE,
			   OPND_REG_INLINE, .imm = 1 },
	[VGPU_OP_MEMBAR] = { "membar", TB(VGPU_T_NONE) },
	[VGPU_OP_POPC] = { "popc", T_BITS, OPND_REG, OPND_REG },
	[VGPU_OP_CLZ] = { "clz", T_BITS, OPND_REG, OPND_REG },
	[VGPU_OP_BREV] = { "brev", T_BITS, OPND_REG, OPND_REG },
	[VGPU_OP_BFIND] = { "bfind", T_BITS, OPND_REG, OPND_REG },
	[VGPU_OP_BFE] = { "bfe", T_BITS, OPND_REG, OPND_REG, OPND_REG_IMM,
			  OPND_REG_IMM },
	[VGPU_OP_PRMT] = { "prmt", T_B32, OPND_REG, OPND_REG, OPND_REG_IMM,
			   OPND_REG_IMM },
	[VGPU_OP_SQRT] = { "sqrt", T_FLT, OPND_REG, OPND_REG, .flags = VGPU_IF_FTZ },
	[VGPU_OP_RCP] = { "rcp", T_FLT, OPND_REG, OPND_REG, .flags = VGPU_IF_FTZ },
	[VGPU_OP_RSQRT] = { "rsqrt", T_FLT, OPND_REG, OPND_REG, .flags = VGPU_IF_FTZ },
	[VGPU_OP_EX2] = { "ex2", TB(VGPU_T_F32), OPND_REG, OPND_REG, .flags = VGPU_IF_FTZ },
	[VGPU_OP_LG2] = { "lg2", TB(VGPU_T_F32), OPND_REG, OPND_REG, .flags = VGPU_IF_FTZ },
	[VGPU_OP_SIN] = { "sin", TB(VGPU_T_F32), OPND_REG, OPND_REG, .flags = VGPU_IF_FTZ },
	[VGPU_OP_COS] = { "cos", TB(VGPU_T_F32), OPND_REG, OPND_REG, .flags = VGPU_IF_FTZ },
	[VGPU_OP_TANH] = { "tanh", TB(VGPU_T_F32), OPND_REG, OPND_REG },
	[VGPU_OP_COPYSIGN] = { "copysign", T_FLT, OPND_REG, OPND_REG, OPND_REG },
	[VGPU_OP_BAR_RED] = { "barred", T_B32 | T_PRED, OPND_REG, OPND_PRED,
			      OPND_REG_INLINE, OPND_REG_INLINE, .imm = 1 },
	[VGPU_OP_MALLOC] = { "malloc", TB(VGPU_T_U64), OPND_REG, OPND_REG },
	[VGPU_OP_FREE] = { "free", TB(VGPU_T_U64), OPND_NONE, OPND_REG },
	[VGPU_OP_TEXSET] = { "texset", T_B32 | TB(VGPU_T_U64), OPND_NONE, OPND_REG },
	[VGPU_OP_TEXGET] = { "texget", T_B32 | TB(VGPU_T_U64), OPND_REG },
	[VGPU_OP_TEX] = { "tex", T_I32 | TB(VGPU_T_F32), OPND_NONE, OPND_REG, .imm = 1 },
	[VGPU_OP_TXQ] = { "txq", T_B32, OPND_REG, OPND_REG, OPND_REG_IMM },
	[VGPU_OP_SULD] = { "suld", T_SURF, OPND_NONE, OPND_REG, .imm = 1 },
	[VGPU_OP_SUST] = { "sust", T_SURF, OPND_NONE, OPND_REG, .imm = 1 },
};

/**
 * vgpu_isa_op_desc() - the name and operand slots of operation @op, for
 * tools that print and parse programs. False for an unknown operation.
 */
bool vgpu_isa_op_desc(u8 op, struct vgpu_op_desc *d)
{
	const struct vgpu_op_spec *s;

	if (op >= VGPU_OP_COUNT || !vgpu_ops[op].name)
		return false;
	s = &vgpu_ops[op];
	d->name = s->name;
	d->dst = s->dst;
	d->a = s->a;
	d->b = s->b;
	d->c = s->c;
	return true;
}

static bool vgpu_is_bar(u8 op)
{
	return op == VGPU_OP_BAR || op == VGPU_OP_BAR_RED;
}

/**
 * vgpu_isa_insn_desc() - the operand slots of @in itself: those of its
 * operation, less a barrier's thread count and number register where
 * its mod2 says it has none. False for an unknown operation.
 */
bool vgpu_isa_insn_desc(const struct vgpu_insn *in, struct vgpu_op_desc *d)
{
	if (!vgpu_isa_op_desc(in->op, d))
		return false;
	if (vgpu_is_bar(in->op)) {
		if (!(in->mod2 & VGPU_BAR_COUNT))
			d->b = OPND_NONE;
		if (!(in->mod2 & VGPU_BAR_ID_REG))
			d->c = OPND_NONE;
	}
	return true;
}

static bool vgpu_is_float(u8 t)
{
	return t == VGPU_T_F16 || t == VGPU_T_F32 || t == VGPU_T_F64;
}

/* Carry: 32- and 64-bit integer add, sub and mad (lo or hi). */
static bool vgpu_carry_ok(const struct vgpu_insn *in)
{
	bool t = in->type == VGPU_T_U32 || in->type == VGPU_T_S32 ||
		 in->type == VGPU_T_U64 || in->type == VGPU_T_S64;

	if (!t || (in->flags & VGPU_IF_SAT))
		return false;
	if (in->op == VGPU_OP_MAD)
		return in->mod != VGPU_MUL_WIDE;
	return in->op == VGPU_OP_ADD || in->op == VGPU_OP_SUB;
}

/* PTX saturates f32 arithmetic, s32 add/sub, and any conversion. */
static bool vgpu_sat_ok(const struct vgpu_insn *in)
{
	if (in->op == VGPU_OP_CVT || in->type == VGPU_T_F32)
		return true;
	return in->type == VGPU_T_S32 &&
	       (in->op == VGPU_OP_ADD || in->op == VGPU_OP_SUB);
}

static bool vgpu_is_ballot(const struct vgpu_insn *in)
{
	return in->mod == VGPU_VOTE_BALLOT;
}

static bool vgpu_is_u32(const struct vgpu_insn *in)
{
	return in->type == VGPU_T_U32;
}

static bool vgpu_has_mod2(u8 op)
{
	return op == VGPU_OP_ATOM || op == VGPU_OP_SHFL || op == VGPU_OP_MATCH ||
	       op == VGPU_OP_TEX || op == VGPU_OP_SUST || vgpu_is_bar(op);
}

/* The texture and surface operations: slots, variants, element counts. */
static const char *vgpu_check_tex(const struct vgpu_insn *in)
{
	u32 slots = in->type == VGPU_T_U64 ? 2 : 1;

	switch (in->op) {
	case VGPU_OP_TEXSET:
	case VGPU_OP_TEXGET:
		return in->mod + slots <= VGPU_TEX_SLOTS ? NULL :
			"texture slot out of range";
	case VGPU_OP_TEX:
		if (in->stype != VGPU_T_F32 && in->stype != VGPU_T_S32)
			return "coordinates are f32 or s32";
		if (in->mod2 > 3 || (in->mod2 && in->mod != VGPU_TEXV_GATHER))
			return "channel out of range, or not a gather";
		if (in->imm > 2)
			return "texel offsets: none (0), 4 (1) or 6 bits (2) each in slot 11";
		return NULL;
	case VGPU_OP_SULD:
	case VGPU_OP_SUST:
		if (in->imm != 1 && in->imm != 2 && in->imm != 4)
			return "element count is 1, 2 or 4";
		if (in->mod2 > 1)
			return "a store is formatted (1) or not (0)";
		return NULL;
	}
	return NULL;
}

/* What the warp operations and atomics add to the common rules. */
static const char *vgpu_check_warp_atom(const struct vgpu_insn *in)
{
	switch (in->op) {
	case VGPU_OP_SHFL:
	case VGPU_OP_VOTE:
	case VGPU_OP_MATCH:
	case VGPU_OP_WARPSYNC:
		if (in->imm >> 32)
			return "member mask wider than the warp";
		if (in->op == VGPU_OP_VOTE &&
		    vgpu_is_ballot(in) != vgpu_is_u32(in))
			return "ballot writes a register, other votes a predicate";
		if (in->op == VGPU_OP_MATCH && in->mod2 &&
		    in->mod != VGPU_MATCH_ALL)
			return "only match.all sets a predicate";
		if (in->mod2 > VGPU_MAX_PREDS)
			return "predicate out of range";
		return NULL;
	case VGPU_OP_ATOM:
		if (in->mod2 >= VGPU_ATOM_COUNT)
			return "atomic operation out of range";
		if ((in->type == VGPU_T_F32 || in->type == VGPU_T_F64) &&
		    in->mod2 != VGPU_ATOM_ADD && in->mod2 != VGPU_ATOM_EXCH)
			return "atomic operation not allowed for the type";
		if ((in->mod2 == VGPU_ATOM_INC || in->mod2 == VGPU_ATOM_DEC) &&
		    in->type != VGPU_T_U32)
			return "atomic operation not allowed for the type";
		if (in->mod2 != VGPU_ATOM_CAS && (in->c || (in->flags & VGPU_IF_C_IMM)))
			return "unused operand is not 0";
		return NULL;
	}
	return NULL;
}

/* The modifier an operation of this type allows: 0 to *max - 1. */
static const char *vgpu_check_mod(const struct vgpu_insn *in)
{
	u8 max = 1;

	switch (in->op) {
	case VGPU_OP_SREG:
		max = VGPU_SR_COUNT;
		break;
	case VGPU_OP_ADD:
	case VGPU_OP_SUB:
	case VGPU_OP_FMA:
	case VGPU_OP_DIV:
		max = vgpu_is_float(in->type) ? VGPU_RND_RP + 1 : 1;
		break;
	case VGPU_OP_MUL:
	case VGPU_OP_MAD:
		if (vgpu_is_float(in->type))
			max = VGPU_RND_RP + 1;
		else if (in->type == VGPU_T_U64 || in->type == VGPU_T_S64)
			max = VGPU_MUL_HI + 1;	/* no wider result */
		else
			max = VGPU_MUL_WIDE + 1;
		break;
	case VGPU_OP_SETP:
		max = vgpu_is_float(in->type) ? VGPU_CMP_COUNT : VGPU_CMP_GE + 1;
		break;
	case VGPU_OP_CVT:
		max = VGPU_RND_RPI + 1;
		break;
	case VGPU_OP_LD:
		max = VGPU_SPACE_COUNT;
		break;
	case VGPU_OP_ST:
		/* Parameters and constants are read only. */
		max = VGPU_SPACE_LOCAL + 1;
		break;
	case VGPU_OP_SHFL:
	case VGPU_OP_VOTE:
		max = 4;
		break;
	case VGPU_OP_MATCH:
	case VGPU_OP_BFIND:
		max = 2;
		break;
	case VGPU_OP_BAR:
		max = VGPU_BAR_ARRIVE + 1;
		break;
	case VGPU_OP_TRAP:
		max = VGPU_TRAP_ASSERT + 1;
		break;
	case VGPU_OP_BAR_RED:
		max = VGPU_BAR_OR + 1;
		break;
	case VGPU_OP_ATOM:
		max = VGPU_SPACE_SHARED + 1;	/* generic, global, shared */
		break;
	case VGPU_OP_MEMBAR:
		max = VGPU_SCOPE_SYS + 1;
		break;
	case VGPU_OP_PRMT:
		max = 7;	/* default, f4e, b4e, rc8, ecl, ecr, rc16 */
		break;
	case VGPU_OP_SQRT:
	case VGPU_OP_RCP:
		max = VGPU_RND_RP + 1;
		break;
	case VGPU_OP_TEXSET:
	case VGPU_OP_TEXGET:
		max = VGPU_TEX_SLOTS;
		break;
	case VGPU_OP_TEX:
		max = VGPU_TEXV_GATHER + 1;
		break;
	case VGPU_OP_TXQ:
		max = VGPU_TXQ_COUNT;
		break;
	case VGPU_OP_SULD:
	case VGPU_OP_SUST:
		max = VGPU_SURF_ZERO + 1;
		break;
	}
	if (in->mod == VGPU_RND_APPROX && in->type == VGPU_T_F32 &&
	    (in->op == VGPU_OP_SQRT || in->op == VGPU_OP_RCP ||
	     in->op == VGPU_OP_DIV))
		return NULL;
	if (in->mod == VGPU_RND_FULL && in->type == VGPU_T_F32 &&
	    in->op == VGPU_OP_DIV)
		return NULL;
	return in->mod < max ? NULL : "modifier out of range";
}

/* BAR and BAR_RED: which operands mod2 gives, and what they may hold. */
static const char *vgpu_check_bar(const struct vgpu_insn *in)
{
	bool count = in->mod2 & VGPU_BAR_COUNT, id_reg = in->mod2 & VGPU_BAR_ID_REG;
	bool popc = in->mod == VGPU_BAR_POPC;

	if (in->mod2 & ~(VGPU_BAR_COUNT | VGPU_BAR_ID_REG))
		return "barrier operand bits out of range";
	if (!count && (in->b || (in->flags & VGPU_IF_B_IMM)))
		return "thread count without its mod2 bit";
	if (count && (in->flags & VGPU_IF_B_IMM) &&
	    (!in->b || in->b % 32 || in->b > VGPU_MAX_BLOCK_THREADS))
		return "thread count not a multiple of 32 from 32 to 1024";
	if (in->flags & VGPU_IF_C_IMM)
		return "barrier number register cannot be immediate";
	if (!id_reg && in->c)
		return "barrier number register without its mod2 bit";
	if (id_reg && in->imm)
		return "barrier number both in a register and immediate";
	if (in->imm >= VGPU_MAX_BARRIERS)
		return "barrier number out of range";
	if (in->op == VGPU_OP_BAR && in->mod == VGPU_BAR_ARRIVE && !count)
		return "arrive without a thread count";
	if (in->op == VGPU_OP_BAR_RED && popc != vgpu_is_u32(in))
		return "popc writes a register; and, or write a predicate";
	return NULL;
}

/* CVT: the source type, and rounding that fits the two types. */
static const char *vgpu_check_cvt(const struct vgpu_insn *in)
{
	bool from_f = vgpu_is_float(in->stype), to_f = vgpu_is_float(in->type);

	if (in->stype >= VGPU_T_COUNT || !(TB(in->stype) & T_NUM))
		return "bad source type";
	if (!from_f && !to_f)
		return in->mod ? "rounding on an integer conversion" : NULL;
	if (from_f && !to_f)
		return in->mod >= VGPU_RND_RNI ? NULL :
			"float to integer needs integer rounding";
	if (!from_f && to_f)
		return in->mod < VGPU_RND_RNI ? NULL :
			"integer rounding on a conversion to float";
	if (in->type == in->stype || in->mod < VGPU_RND_RNI)
		return NULL;
	return "integer rounding between float types";
}

/**
 * vgpu_isa_check_shape() - what does not depend on the kernel: fields,
 * types, modifiers. The JIT checks each instruction it writes with it.
 * Return: NULL, or why @in is malformed.
 */
const char *vgpu_isa_check_shape(const struct vgpu_insn *in, u32 ninsns)
{
	const struct vgpu_op_spec *s;
	u8 imm_flags = in->flags & (VGPU_IF_B_IMM | VGPU_IF_C_IMM);
	const char *why;

	if (in->op >= VGPU_OP_COUNT || !vgpu_ops[in->op].name)
		return "unknown operation";
	s = &vgpu_ops[in->op];
	if (in->pad || (in->mod2 && !vgpu_has_mod2(in->op)))
		return "reserved field is not 0";
	if (in->type >= VGPU_T_COUNT || !(TB(in->type) & s->types))
		return "type not allowed for the operation";
	if (in->op != VGPU_OP_CVT && in->op != VGPU_OP_TEX && in->stype)
		return "source type on an operation without one";
	if (in->flags & ~(VGPU_IF_B_IMM | VGPU_IF_C_IMM | VGPU_IF_GUARD_NOT |
			  VGPU_IF_CC_OUT | VGPU_IF_CC_IN | s->flags))
		return "flag not allowed for the operation";
	if ((in->flags & (VGPU_IF_CC_OUT | VGPU_IF_CC_IN)) && !vgpu_carry_ok(in))
		return "carry on an operation without it";
	if ((in->flags & VGPU_IF_FTZ) && in->type != VGPU_T_F32 &&
	    !(in->op == VGPU_OP_CVT && in->stype == VGPU_T_F32))
		return "ftz on a type without it";
	if ((in->flags & VGPU_IF_SAT) && !vgpu_sat_ok(in))
		return "sat on a type without it";
	if ((imm_flags & VGPU_IF_B_IMM) && s->b != OPND_REG_IMM &&
	    s->b != OPND_REG_INLINE)
		return "immediate operand where a register is required";
	if ((imm_flags & VGPU_IF_C_IMM) && s->c != OPND_REG_IMM &&
	    s->c != OPND_REG_INLINE)
		return "immediate operand where a register is required";
	if (imm_flags == (VGPU_IF_B_IMM | VGPU_IF_C_IMM) &&
	    s->b != OPND_REG_INLINE)
		return "two immediate operands";
	/* (A barrier's immediate count is no operand of the predicate type.) */
	if (in->type == VGPU_T_PRED && imm_flags && !vgpu_is_bar(in->op))
		return "predicate operand cannot be immediate";
	if (!imm_flags && !s->imm && in->imm)
		return "unused immediate is not 0";
	if (in->guard != VGPU_PRED_NONE && in->guard >= VGPU_MAX_PREDS)
		return "guard predicate out of range";
	if (in->guard == VGPU_PRED_NONE && (in->flags & VGPU_IF_GUARD_NOT))
		return "negated guard without a guard";
	why = vgpu_check_mod(in);
	if (why)
		return why;
	why = vgpu_check_warp_atom(in);
	if (why)
		return why;
	if (in->op == VGPU_OP_CVT) {
		why = vgpu_check_cvt(in);
		if (why)
			return why;
	}
	why = vgpu_check_tex(in);
	if (why)
		return why;
	if (in->op == VGPU_OP_BRA && in->imm >= ninsns)
		return "branch target out of range";
	if (vgpu_is_bar(in->op))
		return vgpu_check_bar(in);
	return NULL;
}
