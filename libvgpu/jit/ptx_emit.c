// SPDX-License-Identifier: MIT
/*
 * The lowering's emitter, beneath all its other parts: the program being
 * written, the first error, and PTX operands as ISA registers and immediates.
 *
 * Every instruction goes through ptx_emit(), which gives it the guard of
 * the PTX instruction being lowered, checks it as the module's verifier
 * will and records where it came from. Nothing here calls the files
 * above it.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/isa.h"
#include "ptx_emit.h"

/* --- the program and its errors ------------------------------------------- */

/* Records the lowering's first error, at @pos. Return: -1. */
int ptx_error(struct ptx_lower *pl, struct ptx_pos pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (pl->failed)
		return -1;
	pl->failed = true;
	n = snprintf(pl->err, pl->err_len, "%u:%u: ", pos.line, pos.col);
	if (n >= 0 && (size_t)n < pl->err_len) {
		va_start(ap, fmt);
		vsnprintf(pl->err + n, pl->err_len - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

int ptx_out_of_memory(struct ptx_lower *pl)
{
	return ptx_error(pl, (struct ptx_pos){ 0, 0 }, "out of memory");
}

/* Grows @*p (of @size-byte elements) to hold @need; false on failure. */
static bool ptx_reserve(void **p, uint32_t *cap, uint32_t need, size_t size)
{
	uint32_t n = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return true;
	while (n < need) {
		if (n > UINT32_MAX / 2)
			return false;
		n *= 2;
	}
	q = realloc(*p, (size_t)n * size);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

/* The position + 1 of PTX file number @file in the module's table, or 0. */
static uint32_t ptx_src_file(const struct ptx_lower *pl, uint32_t file)
{
	uint32_t i;

	for (i = 0; i < pl->m->nfiles; i++)
		if (pl->m->files[i].index == file)
			return i + 1;
	return 0;
}

/*
 * Appends @in under the current guard; @reloc: its imm is a global offset.
 * Each instruction is checked as the module's verifier will check it, so
 * a PTX form the lowering lets through by mistake is refused here, at its
 * line, rather than by the device.
 */
int ptx_emit(struct ptx_lower *pl, struct vgpu_insn in, bool reloc)
{
	const char *why;

	if (pl->ncode >= VGPU_MAX_INSNS)
		return ptx_error(pl, pl->f.fn->pos, "kernel too long for the ISA");
	if (!ptx_reserve((void **)&pl->code, &pl->capcode, pl->ncode + 1,
			 sizeof(in)) ||
	    !ptx_reserve((void **)&pl->src, &pl->capsrc, pl->ncode + 1,
			 sizeof(*pl->src)))
		return ptx_out_of_memory(pl);
	if (pl->guard != VGPU_PRED_NONE && in.guard == VGPU_PRED_NONE) {
		in.guard = pl->guard;
		if (pl->guard_not)
			in.flags |= VGPU_IF_GUARD_NOT;
	}
	why = vgpu_isa_check_shape(&in, VGPU_MAX_INSNS);
	if (why) {
		char msg[160];

		snprintf(msg, sizeof(msg), "this form is not supported (%s)", why);
		if (!pl->cur)
			return ptx_error(pl, pl->f.fn->pos, "%s", msg);
		return ptx_bad(pl, pl->cur, msg);
	}
	if (reloc) {
		if (!ptx_reserve((void **)&pl->relocs, &pl->caprelocs,
				 pl->nrelocs + 1, sizeof(uint32_t)))
			return ptx_out_of_memory(pl);
		pl->relocs[pl->nrelocs++] = pl->ncode;
	}
	pl->src[pl->ncode] = (struct vg_jit_src){ 0, 0 };
	if (pl->cur && pl->cur->line) {
		pl->src[pl->ncode] = (struct vg_jit_src){ ptx_src_file(pl, pl->cur->file),
							  pl->cur->line };
		pl->any_src = true;
	}
	pl->code[pl->ncode++] = in;
	return 0;
}

/* A register for a value that lives within one PTX instruction. */
uint32_t ptx_temp(struct ptx_lower *pl)
{
	uint32_t t = pl->nregs + pl->ntemps++;

	if (pl->ntemps > pl->max_temps)
		pl->max_temps = pl->ntemps;
	return t;
}

/* Branch @insn goes to PTX label @label of the frame, once it is placed. */
int ptx_fixup_branch(struct ptx_lower *pl, uint32_t insn, uint32_t label)
{
	if (!ptx_reserve((void **)&pl->fixups, &pl->capfixups, pl->nfixups + 1,
			 sizeof(*pl->fixups)))
		return ptx_out_of_memory(pl);
	pl->fixups[pl->nfixups++] = (struct ptx_branch_fixup){ insn, label };
	return 0;
}

/* @insn's imm becomes the kernel's local bytes per thread, once known. */
int ptx_fixup_local_size(struct ptx_lower *pl, uint32_t insn)
{
	if (!ptx_reserve((void **)&pl->lfix, &pl->caplfix, pl->nlfix + 1,
			 sizeof(*pl->lfix)))
		return ptx_out_of_memory(pl);
	pl->lfix[pl->nlfix++] = insn;
	return 0;
}

/* One predicate for sequences the JIT writes, given out once per kernel. */
int ptx_scratch_pred(struct ptx_lower *pl, uint32_t *p)
{
	if (pl->scratch_pred == UINT32_MAX) {
		if (pl->npreds >= VGPU_MAX_PREDS)
			return ptx_error(pl, pl->cur->pos, "more than %u predicates",
					 VGPU_MAX_PREDS);
		pl->scratch_pred = pl->npreds++;
	}
	*p = pl->scratch_pred;
	return 0;
}

/*
 * For a call lowered to a sequence of its own (vprintf, __assertfail):
 * the lanes where a guarded call does not run branch past all of it, and
 * the sequence itself runs unguarded. *@bra is that branch, UINT32_MAX
 * for an unguarded call; ptx_call_skip_end() aims it.
 */
int ptx_call_skip_begin(struct ptx_lower *pl, uint32_t *bra)
{
	uint8_t guard = pl->guard;
	bool guard_not = pl->guard_not;

	*bra = UINT32_MAX;
	pl->guard = VGPU_PRED_NONE;
	if (guard == VGPU_PRED_NONE)
		return 0;
	*bra = pl->ncode;
	return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			.guard = guard,
			.flags = guard_not ? 0 : VGPU_IF_GUARD_NOT,
			.c = VGPU_NO_TARGET }, false);
}

/* Aims the branch of ptx_call_skip_begin() at what follows the call. */
void ptx_call_skip_end(struct ptx_lower *pl, uint32_t bra)
{
	if (bra != UINT32_MAX)
		pl->code[bra].imm = pl->ncode;
}

/*
 * The slots of the first @n of a call's arguments, which must be .param
 * variables; -1 with a diagnostic otherwise.
 */
int ptx_call_params(struct ptx_lower *pl, const struct ptx_insn *in,
		    const struct ptx_opnd *args, unsigned int n,
		    uint32_t *slots)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct ptx_sym s = args->list[i];

		if (s.kind != PTX_SYM_FUNCVAR ||
		    pl->f.fn->vars[s.index].space != PTX_S_PARAM)
			return ptx_bad(pl, in, "call arguments must be .param variables");
		slots[i] = pl->f.var_slot[s.index];
	}
	return 0;
}

/*
 * Where variable or parameter @s lives; NULL for other symbols and for the
 * parameters of an inlined function, which are slots.
 */
static const struct ptx_place *ptx_place_of(const struct ptx_lower *pl,
					    struct ptx_sym s)
{
	switch (s.kind) {
	case PTX_SYM_MODVAR:
		return &pl->modvars[s.index];
	case PTX_SYM_FUNCVAR:
		return &pl->f.vars[s.index];
	case PTX_SYM_PARAM:
		return pl->f.params ? &pl->f.params[s.index] : NULL;
	default:
		return NULL;
	}
}

/* --- operands ------------------------------------------------------------- */

/* The ISA type of PTX type @t (b-types are unsigned), or VGPU_T_NONE. */
uint8_t ptx_vtype(enum ptx_type t)
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
enum ptx_type ptx_nth_type(const struct ptx_insn *in, unsigned int nth)
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

/* Refuses @in, named with its modifiers, for reason @what. Return: -1. */
int ptx_bad(struct ptx_lower *pl, const struct ptx_insn *in, const char *what)
{
	char name[PTX_MOD_LEN * (PTX_MAX_MODS + 1) + 1];
	uint32_t i;

	strcpy(name, in->op);
	for (i = 0; i < in->nmods; i++) {
		strcat(name, ".");
		strcat(name, in->mods[i]);
	}
	return ptx_error(pl, in->pos, "%s: %s", name, what);
}

/*
 * The ISA register or predicate of PTX register @idx, which must be a
 * predicate exactly when @pred says so (otherwise the error is recorded
 * and ptx_lower_insn() fails the instruction).
 */
uint32_t ptx_reg_of(struct ptx_lower *pl, uint32_t idx, bool pred)
{
	const struct ptx_reg *r = &pl->f.fn->regs[idx];

	if ((r->type == PTX_T_PRED) != pred)
		ptx_bad(pl, pl->cur, pred ? "a predicate register is expected" :
			"a predicate register cannot be used as a value");
	return pl->f.reg_of[idx];
}

/* The instruction's vgpu type; refuses types the ISA has no room for. */
int ptx_itype(struct ptx_lower *pl, const struct ptx_insn *in, unsigned int nth,
	      uint8_t *vt)
{
	enum ptx_type t = ptx_nth_type(in, nth);

	*vt = ptx_vtype(t);
	if (*vt == VGPU_T_NONE)
		return ptx_bad(pl, in, t == PTX_T_NONE ? "missing type" :
			       "unsupported type");
	return 0;
}

/* Whether ISA type @vt is a float type. */
bool ptx_vfloat(uint8_t vt)
{
	return vt == VGPU_T_F16 || vt == VGPU_T_F32 || vt == VGPU_T_F64;
}

/* The width of ISA type @vt in bits (a predicate's: 1; none: 0). */
unsigned int ptx_vbits(uint8_t vt)
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
uint64_t ptx_cut(uint64_t v, uint8_t vt)
{
	unsigned int bits = ptx_vbits(vt);

	return bits >= 64 || !bits ? v : v & ((1ULL << bits) - 1);
}

static uint64_t ptx_f32_bits(double d)
{
	float f = (float)d;
	uint32_t b;

	memcpy(&b, &f, 4);
	return b;
}

static uint64_t ptx_f64_bits_of_f32(uint32_t b)
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
 * A function's address (ptx_func_addrs() gave it): a value to move, store
 * and compare, never an address to read data at.
 */
static int ptx_func_val(struct ptx_lower *pl, const struct ptx_opnd *o,
			struct ptx_val *v, enum ptx_space *space)
{
	const struct ptx_func *fn = &pl->m->funcs[o->sym.index];

	if (space)
		return ptx_error(pl, o->pos, "'%s' is a function, not data", fn->name);
	if (!pl->func_addr[o->sym.index])
		return ptx_error(pl, o->pos, fn->entry ?
				 "the address of kernel '%s' is not supported" :
				 "the address of '%s', which the module does not define",
				 fn->name);
	v->imm = true;
	v->bits = pl->func_addr[o->sym.index] + (uint64_t)o->imm;
	return 0;
}

/* A symbol's address in its own state space (a global's: a relocation). */
int ptx_sym_addr(struct ptx_lower *pl, const struct ptx_opnd *o,
		 struct ptx_val *v, enum ptx_space *space)
{
	const struct ptx_place *place = ptx_place_of(pl, o->sym);

	if (o->sym.kind == PTX_SYM_FUNC)
		return ptx_func_val(pl, o, v, space);
	if (o->sym.kind == PTX_SYM_PROTO)
		return ptx_error(pl, o->pos, "a call prototype is not a value");
	if (!place || (o->sym.kind == PTX_SYM_FUNCVAR &&
		       place->space == PTX_S_PARAM))
		return ptx_error(pl, o->pos, "addresses of call parameters are not supported");
	v->imm = true;
	v->bits = place->offset + (uint64_t)o->imm;
	v->reloc = place->space == PTX_S_GLOBAL;
	if (space)
		*space = place->space;
	return 0;
}

static const uint8_t ptx_vsregs[][3] = {
	[PTX_SR_TID] = { VGPU_SR_TID_X, VGPU_SR_TID_Y, VGPU_SR_TID_Z },
	[PTX_SR_NTID] = { VGPU_SR_NTID_X, VGPU_SR_NTID_Y, VGPU_SR_NTID_Z },
	[PTX_SR_CTAID] = { VGPU_SR_CTAID_X, VGPU_SR_CTAID_Y, VGPU_SR_CTAID_Z },
	[PTX_SR_NCTAID] = { VGPU_SR_NCTAID_X, VGPU_SR_NCTAID_Y,
			    VGPU_SR_NCTAID_Z },
};

/* Special register @o into register @dst (SREG takes U32 or U64). */
int ptx_read_sreg(struct ptx_lower *pl, const struct ptx_opnd *o, uint32_t dst,
		  uint8_t vt)
{
	uint8_t sr;

	switch (o->sreg) {
	case PTX_SR_TID:
	case PTX_SR_NTID:
	case PTX_SR_CTAID:
	case PTX_SR_NCTAID:
		sr = ptx_vsregs[o->sreg][o->comp < 3 ? o->comp : 0];
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
	/*
	 * The environment registers the driver defines: cooperative groups
	 * find the grid workspace in %envreg1 (high half) and %envreg2.
	 */
	case PTX_SR_ENVREG:
		if (o->comp == 1)
			sr = VGPU_SR_GRID_SYNC_HI;
		else if (o->comp == 2)
			sr = VGPU_SR_GRID_SYNC_LO;
		else
			return ptx_error(pl, o->pos, "%%envreg%u is not supported (only %%envreg1 and %%envreg2, a cooperative launch's grid workspace)",
					 o->comp);
		break;
	default:
		return ptx_error(pl, o->pos, "special register not supported");
	}
	return ptx_emit(pl, (struct vgpu_insn){
		.op = VGPU_OP_SREG, .guard = VGPU_PRED_NONE,
		.type = ptx_vbits(vt) == 64 ? VGPU_T_U64 : VGPU_T_U32,
		.mod = sr, .dst = dst }, false);
}

/* Resolves a source operand of type @vt. */
int ptx_src_val(struct ptx_lower *pl, const struct ptx_opnd *o, uint8_t vt,
		struct ptx_val *v)
{
	memset(v, 0, sizeof(*v));
	switch (o->kind) {
	case PTX_O_REG:
		v->reg = ptx_reg_of(pl, o->reg, vt == VGPU_T_PRED);
		return 0;
	case PTX_O_IMM:
		v->imm = true;
		if (vt == VGPU_T_F32)
			v->bits = ptx_f32_bits((double)o->imm);
		else if (vt == VGPU_T_F64) {
			double d = (double)o->imm;

			memcpy(&v->bits, &d, 8);
		} else {
			v->bits = ptx_cut((uint64_t)o->imm, vt);
		}
		return 0;
	case PTX_O_FIMM:
		v->imm = true;
		v->bits = o->fbits;
		if (vt == VGPU_T_F64 && o->fwidth == 32)
			v->bits = ptx_f64_bits_of_f32((uint32_t)o->fbits);
		else if (vt == VGPU_T_F32 && o->fwidth == 64) {
			double d;

			memcpy(&d, &o->fbits, 8);
			v->bits = ptx_f32_bits(d);
		}
		return 0;
	case PTX_O_SYM:
		return ptx_sym_addr(pl, o, v, NULL);
	case PTX_O_SREG:
		v->reg = ptx_temp(pl);
		return ptx_read_sreg(pl, o, v->reg, vt);
	default:
		return ptx_error(pl, o->pos, "operand not allowed here");
	}
}

/* A register holding @v (moved into a temporary if it is immediate). */
int ptx_in_reg(struct ptx_lower *pl, struct ptx_val *v, uint8_t vt)
{
	uint32_t t;

	if (!v->imm)
		return 0;
	t = ptx_temp(pl);
	if (ptx_emit(pl, (struct vgpu_insn){
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

/* Source operand @o of type @vt, in a register. */
int ptx_src_reg(struct ptx_lower *pl, const struct ptx_opnd *o, uint8_t vt,
		uint32_t *reg)
{
	struct ptx_val v;

	if (ptx_src_val(pl, o, vt, &v) || ptx_in_reg(pl, &v, vt))
		return -1;
	*reg = v.reg;
	return 0;
}

/* The register (or predicate, with @pred) of destination operand @i. */
int ptx_dst(struct ptx_lower *pl, const struct ptx_insn *in, uint32_t i, bool pred,
	    uint32_t *reg)
{
	*reg = 0;	/* (set on failure too: callers' compilers can't tell) */
	if (i >= in->nopnds || in->opnds[i].kind != PTX_O_REG)
		return ptx_bad(pl, in, "destination must be a register");
	*reg = ptx_reg_of(pl, in->opnds[i].reg, pred);
	return 0;
}

/* Refuses @in unless it has @n operands. */
int ptx_nopnds(struct ptx_lower *pl, const struct ptx_insn *in, uint32_t n)
{
	if (in->nopnds != n)
		return ptx_bad(pl, in, "wrong number of operands");
	return 0;
}

/* --- instructions of sequences -------------------------------------------- */

/*
 * One instruction each, of type @t into register @d, for the sequences
 * that lowerings write; the PTX instruction's guard applies to it.
 */
int ptx_op(struct ptx_lower *pl, uint8_t op, uint8_t t, uint32_t d, uint32_t a,
	   uint32_t b)
{
	return ptx_emit(pl, (struct vgpu_insn){ .op = op, .type = t,
			.guard = VGPU_PRED_NONE, .dst = d, .a = a, .b = b },
			false);
}

int ptx_opi(struct ptx_lower *pl, uint8_t op, uint8_t t, uint32_t d, uint32_t a,
	    uint64_t imm)
{
	return ptx_emit(pl, (struct vgpu_insn){ .op = op, .type = t,
			.guard = VGPU_PRED_NONE, .dst = d, .a = a,
			.flags = VGPU_IF_B_IMM, .imm = imm }, false);
}

/* d = a OP v, where v is a register or an immediate. */
int ptx_opv(struct ptx_lower *pl, uint8_t op, uint8_t t, uint32_t d, uint32_t a,
	    const struct ptx_val *v)
{
	struct vgpu_insn x = { .op = op, .type = t, .guard = VGPU_PRED_NONE,
			       .dst = d, .a = a, .b = v->reg };

	if (v->imm) {
		x.b = 0;
		x.flags = VGPU_IF_B_IMM;
		x.imm = v->bits;
	}
	return ptx_emit(pl, x, v->imm && v->reloc);
}

/* Unary operations read a. */
int ptx_un(struct ptx_lower *pl, uint8_t op, uint8_t t, uint32_t d, uint32_t a)
{
	return ptx_op(pl, op, t, d, a, 0);
}

int ptx_mov(struct ptx_lower *pl, uint8_t t, uint32_t d, uint32_t s)
{
	return ptx_op(pl, VGPU_OP_MOV, t, d, 0, s);
}

int ptx_movi(struct ptx_lower *pl, uint8_t t, uint32_t d, uint64_t imm)
{
	return ptx_opi(pl, VGPU_OP_MOV, t, d, 0, imm);
}
