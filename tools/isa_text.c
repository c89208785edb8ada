// SPDX-License-Identifier: MIT
/*
 * Printing and parsing the text form of vgpu ISA instructions (see
 * isa_text.h). The operation table comes from the ISA description
 * (core/isa.h), so the text form knows which slots hold registers,
 * predicates or immediates.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "isa_text.h"
#include "core/isa.h"

static const char *const type_names[VGPU_T_COUNT] = {
	"none", "u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64",
	"f16", "f32", "f64", "pred",
};

static const char *const rnd_names[] = {
	"rn", "rz", "rm", "rp", "rni", "rzi", "rmi", "rpi", "approx", "full", NULL };
static const char *const cmp_names[] = {
	"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu",
	"geu", "num", "nan", NULL };
static const char *const space_names[] = {
	"generic", "global", "shared", "local", "param", "const", NULL };
static const char *const mul_names[] = { "lo", "hi", "wide", NULL };
static const char *const sreg_names[] = {
	"tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y", "ntid.z", "ctaid.x",
	"ctaid.y", "ctaid.z", "nctaid.x", "nctaid.y", "nctaid.z", "laneid",
	"warpid", "nwarpid", "smid", "nsmid", "clock", "clock64",
	"globaltimer", "lanemask_eq", "lanemask_lt", "lanemask_le",
	"lanemask_gt", "lanemask_ge", "dynamic_smem_size", "grid_sync_hi",
	"grid_sync_lo", NULL };
static const char *const shfl_names[] = { "up", "down", "bfly", "idx", NULL };
static const char *const texv_names[] = { "plain", "level", "grad", "gather", NULL };
static const char *const txq_names[] = {
	"width", "height", "depth", "level_width", "level_height", "level_depth", NULL };
static const char *const surf_names[] = { "trap", "clamp", "zero", NULL };
static const char *const vote_names[] = { "all", "any", "uni", "ballot", NULL };
static const char *const match_names[] = { "any", "all", NULL };
static const char *const scope_names[] = { "cta", "gpu", "sys", NULL };
static const char *const prmt_names[] = {
	"default", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16", NULL };
static const char *const bar_names[] = { "sync", "arrive", NULL };
static const char *const trap_names[] = { "plain", "assert", NULL };
static const char *const atom_names[] = {
	"add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas",
	NULL };

static bool is_float(uint8_t t)
{
	return t == VGPU_T_F16 || t == VGPU_T_F32 || t == VGPU_T_F64;
}

/* The names of @in's modifier, or NULL where it is a plain number. */
static const char *const *mod_names(const struct vgpu_insn *in)
{
	switch (in->op) {
	case VGPU_OP_ADD:
	case VGPU_OP_SUB:
	case VGPU_OP_FMA:
	case VGPU_OP_DIV:
		return is_float(in->type) ? rnd_names : NULL;
	case VGPU_OP_MUL:
	case VGPU_OP_MAD:
		return is_float(in->type) ? rnd_names : mul_names;
	case VGPU_OP_CVT:
	case VGPU_OP_SQRT:
	case VGPU_OP_RCP:
		return rnd_names;
	case VGPU_OP_SETP:
		return cmp_names;
	case VGPU_OP_LD:
	case VGPU_OP_ST:
	case VGPU_OP_ATOM:
		return space_names;
	case VGPU_OP_SREG:
		return sreg_names;
	case VGPU_OP_SHFL:
		return shfl_names;
	case VGPU_OP_VOTE:
		return vote_names;
	case VGPU_OP_MATCH:
		return match_names;
	case VGPU_OP_MEMBAR:
		return scope_names;
	case VGPU_OP_PRMT:
		return prmt_names;
	case VGPU_OP_BAR:
		return bar_names;
	case VGPU_OP_TRAP:
		return trap_names;
	case VGPU_OP_TEX:
		return texv_names;
	case VGPU_OP_TXQ:
		return txq_names;
	case VGPU_OP_SULD:
	case VGPU_OP_SUST:
		return surf_names;
	}
	return NULL;
}

static int lookup(const char *const *names, const char *s)
{
	int i;

	for (i = 0; names && names[i]; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

static const char *name_of(const char *const *names, unsigned int v)
{
	unsigned int i;

	for (i = 0; names && names[i]; i++)
		if (i == v)
			return names[i];
	return NULL;
}

/* The kind a slot has for @in (slots of predicate-typed operations). */
static uint8_t slot_kind(const struct vgpu_insn *in, uint8_t kind, bool dst)
{
	bool pred = in->type == VGPU_T_PRED ||
		    (dst && in->op == VGPU_OP_SETP);

	if (pred && (kind == OPND_REG || kind == OPND_REG_IMM))
		return OPND_PRED;
	return kind;
}

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, o->len < o->size ? o->size - o->len : 0,
		      fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

/* One operand: @v in a slot of @kind; @imm_flag: replaced by @imm. */
static void put_opnd(struct out *o, const char *key, uint8_t kind, uint32_t v,
		     bool imm_flag, uint64_t imm)
{
	if (kind == OPND_NONE && !v && !imm_flag)
		return;
	put(o, " %s=", key);
	if (imm_flag)
		put(o, "#0x%llx", kind == OPND_REG_INLINE ? (unsigned long long)v :
		    (unsigned long long)imm);
	else if (v == 0xffffffffU && (kind == OPND_ADDR || kind == OPND_MEET))
		put(o, "-");
	else if (kind == OPND_PRED)
		put(o, "p%u", v);
	else if (kind == OPND_MEET || kind == OPND_NONE)
		put(o, "%u", v);
	else
		put(o, "r%u", v);
}

int vgpu_isa_print(const struct vgpu_insn *in, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	struct vgpu_op_desc d, slots;
	const char *mname;
	bool bimm = in->flags & VGPU_IF_B_IMM, cimm = in->flags & VGPU_IF_C_IMM;
	bool imm_used = false;

	if (size)
		buf[0] = 0;
	if (!vgpu_isa_op_desc(in->op, &d)) {
		put(&o, "op%u", in->op);
		d = (struct vgpu_op_desc){ 0 };
		slots = d;
	} else {
		/*
		 * Slots this instruction leaves unused (a barrier without a
		 * count) print only when not 0; one its _IMM flag names
		 * prints as the operation has it, so parsing gets it back.
		 */
		vgpu_isa_insn_desc(in, &slots);
		if (bimm)
			slots.b = d.b;
		if (cimm)
			slots.c = d.c;
		if (in->guard != VGPU_PRED_NONE)
			put(&o, "@%sp%u ", in->flags & VGPU_IF_GUARD_NOT ? "!" : "",
			    in->guard);
		put(&o, "%s", d.name);
	}
	/* (".none" only where a source type follows.) */
	if (in->type || in->stype)
		put(&o, ".%s", in->type < VGPU_T_COUNT ? type_names[in->type] : "?");
	if (in->stype)
		put(&o, ".%s", in->stype < VGPU_T_COUNT ? type_names[in->stype] : "?");
	if (in->mod) {
		mname = name_of(mod_names(in), in->mod);
		if (mname)
			put(&o, " mod=%s", mname);
		else
			put(&o, " mod=%u", in->mod);
	}
	if (in->mod2) {
		mname = in->op == VGPU_OP_ATOM ? name_of(atom_names, in->mod2) : NULL;
		if (mname)
			put(&o, " mod2=%s", mname);
		else
			put(&o, " mod2=%u", in->mod2);
	}
	if (in->flags & VGPU_IF_FTZ)
		put(&o, " ftz");
	if (in->flags & VGPU_IF_SAT)
		put(&o, " sat");
	if (in->pad)
		put(&o, " pad=%u", in->pad);
	put_opnd(&o, "dst", slot_kind(in, d.dst, true), in->dst, false, 0);
	put_opnd(&o, "a", slot_kind(in, d.a, false), in->a, false, 0);
	put_opnd(&o, "b", slot_kind(in, slots.b, false), in->b, bimm, in->imm);
	put_opnd(&o, "c", in->op == VGPU_OP_SELP ? OPND_PRED :
		 slot_kind(in, slots.c, false), in->c, cimm, in->imm);
	if ((bimm && d.b == OPND_REG_IMM) || (cimm && d.c == OPND_REG_IMM))
		imm_used = true;
	if (in->imm && !imm_used)
		put(&o, " imm=0x%llx", (unsigned long long)in->imm);
	if (in->guard != VGPU_PRED_NONE && !d.name)
		put(&o, " guard=%u", in->guard);
	return (int)o.len;
}

static int fail(char *err, size_t size, const char *fmt, const char *what)
{
	snprintf(err, size, fmt, what);
	return -1;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && end != s && !*end;
}

/* An operand value; *@imm_flag for "#N" (the value then in *@imm). */
static bool parse_opnd(const char *s, uint32_t *v, bool *imm_flag,
		       uint64_t *imm)
{
	uint64_t x;

	*imm_flag = false;
	if (!strcmp(s, "-")) {
		*v = 0xffffffffU;
		return true;
	}
	if (s[0] == '#') {
		*imm_flag = true;
		return parse_u64(s + 1, imm);
	}
	if (s[0] == 'r' || s[0] == 'p')
		s++;
	if (!parse_u64(s, &x) || x > 0xffffffffULL)
		return false;
	*v = (uint32_t)x;
	return true;
}

int vgpu_isa_parse(const char *line, struct vgpu_insn *in, char *err,
		   size_t errsize)
{
	char copy[512], *tok, *save, *dot, *eq;
	struct vgpu_op_desc d;
	uint64_t x, imm = 0;
	bool have_imm = false;
	int i, n;

	memset(in, 0, sizeof(*in));
	in->guard = VGPU_PRED_NONE;
	if (strlen(line) >= sizeof(copy))
		return fail(err, errsize, "%s", "line too long");
	strcpy(copy, line);
	tok = strtok_r(copy, " \t\n", &save);
	if (!tok)
		return fail(err, errsize, "%s", "empty line");
	if (tok[0] == '@') {
		if (tok[1] == '!')
			in->flags |= VGPU_IF_GUARD_NOT;
		tok += tok[1] == '!' ? 3 : 2;
		if (!parse_u64(tok, &x) || x >= VGPU_PRED_NONE)
			return fail(err, errsize, "bad guard '%s'", tok);
		in->guard = (uint8_t)x;
		tok = strtok_r(NULL, " \t\n", &save);
		if (!tok)
			return fail(err, errsize, "%s", "no operation");
	}
	/* op[.type][.stype] */
	dot = strchr(tok, '.');
	if (dot)
		*dot++ = 0;
	for (n = 0; n < VGPU_OP_COUNT; n++)
		if (vgpu_isa_op_desc((uint8_t)n, &d) && !strcmp(d.name, tok))
			break;
	if (n == VGPU_OP_COUNT)
		return fail(err, errsize, "unknown operation '%s'", tok);
	in->op = (uint8_t)n;
	for (i = 0; dot && i < 2; i++) {
		char *next = strchr(dot, '.');
		int t;

		if (next)
			*next++ = 0;
		for (t = 0; t < VGPU_T_COUNT; t++)
			if (!strcmp(type_names[t], dot))
				break;
		if (t == VGPU_T_COUNT)
			return fail(err, errsize, "unknown type '%s'", dot);
		if (i)
			in->stype = (uint8_t)t;
		else
			in->type = (uint8_t)t;
		dot = next;
	}
	while ((tok = strtok_r(NULL, " \t\n", &save))) {
		uint32_t v = 0;
		bool flag = false;
		uint64_t val = 0;

		if (!strcmp(tok, "ftz")) {
			in->flags |= VGPU_IF_FTZ;
			continue;
		}
		if (!strcmp(tok, "sat")) {
			in->flags |= VGPU_IF_SAT;
			continue;
		}
		eq = strchr(tok, '=');
		if (!eq)
			return fail(err, errsize, "unexpected '%s'", tok);
		*eq++ = 0;
		if (!strcmp(tok, "mod") || !strcmp(tok, "mod2")) {
			const char *const *names = !strcmp(tok, "mod") ?
				mod_names(in) : in->op == VGPU_OP_ATOM ? atom_names : NULL;
			int m = lookup(names, eq);

			if (m < 0 && (!parse_u64(eq, &x) || x > 255))
				return fail(err, errsize, "bad modifier '%s'", eq);
			if (tok[3])
				in->mod2 = (uint8_t)(m < 0 ? x : (uint64_t)m);
			else
				in->mod = (uint8_t)(m < 0 ? x : (uint64_t)m);
		} else if (!strcmp(tok, "imm") || !strcmp(tok, "pad")) {
			if (!parse_u64(eq, &x))
				return fail(err, errsize, "bad number '%s'", eq);
			if (tok[0] == 'i') {
				imm = x;
				have_imm = true;
			} else {
				in->pad = (uint8_t)x;
			}
		} else if (!strcmp(tok, "dst") || !strcmp(tok, "a") ||
			   !strcmp(tok, "b") || !strcmp(tok, "c")) {
			if (!parse_opnd(eq, &v, &flag, &val))
				return fail(err, errsize, "bad operand '%s'", eq);
			if (flag && (tok[0] == 'b' || tok[0] == 'c')) {
				uint8_t kind = tok[0] == 'b' ? d.b : d.c;

				in->flags |= tok[0] == 'b' ? VGPU_IF_B_IMM : VGPU_IF_C_IMM;
				if (kind == OPND_REG_INLINE) {
					v = (uint32_t)val;
				} else {
					imm = val;
					have_imm = true;
					v = 0;
				}
			} else if (flag) {
				return fail(err, errsize, "immediate not allowed in '%s'", tok);
			}
			if (tok[0] == 'd')
				in->dst = v;
			else if (tok[0] == 'a')
				in->a = v;
			else if (tok[0] == 'b')
				in->b = v;
			else
				in->c = v;
		} else {
			return fail(err, errsize, "unknown field '%s'", tok);
		}
	}
	if (have_imm)
		in->imm = imm;
	return 0;
}
