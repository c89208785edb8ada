// SPDX-License-Identifier: MIT
/*
 * The PTX parser: reads a module by recursive descent with one token of
 * lookahead, resolving every name through scoped tables as it goes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx.h"
#include "ptx_lex.h"

/* Bounds that keep hostile input (the fuzzer) cheap to reject. */
#define PTX_MAX_DEPTH 32		/* nested { } blocks */
#define PTX_MAX_INIT_DEPTH 8		/* nested { } in an initializer */
#define PTX_MAX_REGS (1u << 18)		/* per function, ranges expanded */
#define PTX_MAX_MODULE_REGS (1u << 21)
#define PTX_MAX_ELEMS ((uint64_t)1 << 40)	/* elements of a variable */

enum ptx_name_kind { PTX_N_REG, PTX_N_SYM, PTX_N_LABEL };

/*
 * A declared name. Entries form a stack, innermost scope on top, and each
 * hash bucket chains them newest first, so leaving a scope pops entries
 * off the top and off the heads of their buckets.
 */
struct ptx_name {
	const char *name;	/* owned by the module */
	uint32_t hash, depth, next;
	enum ptx_name_kind kind;
	struct ptx_sym sym;	/* sym.index: the register or label for those */
};

struct ptx_symtab {
	struct ptx_name *v;
	uint32_t n;
	uint32_t *buckets;	/* UINT32_MAX: empty */
	uint32_t nbuckets;
};

/* A call to a function not declared yet, resolved at the module's end. */
struct ptx_fixup {
	char *name;
	struct ptx_pos pos;
	uint32_t func, insn, opnd;
};

/*
 * A function named in module variable @var's initializer, resolved at the
 * module's end (the linker writes variables before the functions): bits
 * @shift and up of its address go to byte @offset of the initializer.
 */
struct ptx_init_ref {
	char *name;
	struct ptx_pos pos;
	uint32_t var;
	uint64_t offset;
	uint8_t shift;
	bool masked;		/* 0xFF00(name): a byte of the address */
	bool generic;		/* generic(name): a variable's, not a function's */
	int64_t addend;		/* name+N: a variable's */
};

struct ptx_parser {
	struct ptx_lex lx;
	struct ptx_tok tok, ahead;
	bool has_ahead;
	struct ptx_module *m;
	struct ptx_func *fn;	/* the function whose body is being read */
	uint32_t depth;		/* 0 module, 1 function, 2.. nested blocks */
	struct ptx_symtab names, labels;
	struct ptx_fixup *fixups;
	uint32_t nfixups;
	struct ptx_init_ref *init_refs;
	uint32_t ninit_refs;
	uint32_t loc_file, loc_line;
	uint32_t module_regs;	/* all functions' registers so far */
	jmp_buf fail;
	char *err;
	size_t err_len;
};

struct ptx_attrs {
	bool visible, is_external, weak;
};

/* Type names as written after the dot, and their widths in bits. */
static const struct {
	const char *name;
	unsigned int bits;
} ptx_types[PTX_T_COUNT] = {
	[PTX_T_B8] = { "b8", 8 }, [PTX_T_B16] = { "b16", 16 },
	[PTX_T_B32] = { "b32", 32 }, [PTX_T_B64] = { "b64", 64 },
	[PTX_T_U8] = { "u8", 8 }, [PTX_T_U16] = { "u16", 16 },
	[PTX_T_U32] = { "u32", 32 }, [PTX_T_U64] = { "u64", 64 },
	[PTX_T_S8] = { "s8", 8 }, [PTX_T_S16] = { "s16", 16 },
	[PTX_T_S32] = { "s32", 32 }, [PTX_T_S64] = { "s64", 64 },
	[PTX_T_F16] = { "f16", 16 }, [PTX_T_F16X2] = { "f16x2", 32 },
	[PTX_T_BF16] = { "bf16", 16 }, [PTX_T_F32] = { "f32", 32 },
	[PTX_T_F64] = { "f64", 64 }, [PTX_T_PRED] = { "pred", 1 },
};

/* State spaces of variables, as directives. */
static const struct {
	const char *dir;
	enum ptx_space space;
} ptx_spaces[] = {
	{ ".global", PTX_S_GLOBAL }, { ".const", PTX_S_CONST },
	{ ".shared", PTX_S_SHARED }, { ".local", PTX_S_LOCAL },
	{ ".param", PTX_S_PARAM },
};

static const struct {
	const char *name;
	enum ptx_sreg sreg;
	bool xyz;		/* has .x/.y/.z components */
} ptx_sregs[] = {
	{ "%tid", PTX_SR_TID, true }, { "%ntid", PTX_SR_NTID, true },
	{ "%ctaid", PTX_SR_CTAID, true }, { "%nctaid", PTX_SR_NCTAID, true },
	{ "%laneid", PTX_SR_LANEID, false }, { "%warpid", PTX_SR_WARPID, false },
	{ "%nwarpid", PTX_SR_NWARPID, false }, { "%smid", PTX_SR_SMID, false },
	{ "%nsmid", PTX_SR_NSMID, false }, { "%gridid", PTX_SR_GRIDID, false },
	{ "%lanemask_eq", PTX_SR_LANEMASK_EQ, false },
	{ "%lanemask_lt", PTX_SR_LANEMASK_LT, false },
	{ "%lanemask_le", PTX_SR_LANEMASK_LE, false },
	{ "%lanemask_gt", PTX_SR_LANEMASK_GT, false },
	{ "%lanemask_ge", PTX_SR_LANEMASK_GE, false },
	{ "%clock", PTX_SR_CLOCK, false }, { "%clock64", PTX_SR_CLOCK64, false },
	{ "%globaltimer", PTX_SR_GLOBALTIMER, false },
	{ "%dynamic_smem_size", PTX_SR_DYNAMIC_SMEM_SIZE, false },
	{ "%total_smem_size", PTX_SR_TOTAL_SMEM_SIZE, false },
};

/* --- helpers for the lowering ------------------------------------------ */

bool ptx_has_mod(const struct ptx_insn *in, const char *mod)
{
	uint32_t i;

	for (i = 0; i < in->nmods; i++)
		if (!strcmp(in->mods[i], mod))
			return true;
	return false;
}

static enum ptx_type ptx_type_lookup(const char *s, size_t len)
{
	int t;

	for (t = PTX_T_B8; t < PTX_T_COUNT; t++)
		if (strlen(ptx_types[t].name) == len &&
		    !memcmp(ptx_types[t].name, s, len))
			return (enum ptx_type)t;
	return PTX_T_NONE;
}

enum ptx_type ptx_type_from_name(const char *name)
{
	return ptx_type_lookup(name, strlen(name));
}

/* Bits of a value of type @t: 1 for .pred, 0 for PTX_T_NONE. */
unsigned int ptx_type_bits(enum ptx_type t)
{
	return (unsigned int)t < PTX_T_COUNT ? ptx_types[t].bits : 0;
}

/* --- freeing ------------------------------------------------------------ */

static void ptx_vars_free(struct ptx_var *v, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].init);
		free(v[i].init_funcs);
		free(v[i].init_vars);
	}
	free(v);
}

static void ptx_func_clear(struct ptx_func *f)
{
	uint32_t i;

	free(f->name);
	ptx_vars_free(f->params, f->nparams);
	ptx_vars_free(f->rets, f->nrets);
	ptx_vars_free(f->vars, f->nvars);
	for (i = 0; i < f->nregs; i++)
		free(f->regs[i].name);
	free(f->regs);
	free(f->insns);
	for (i = 0; i < f->nlabels; i++)
		free(f->labels[i].name);
	free(f->labels);
	for (i = 0; i < f->nprotos; i++) {
		free(f->protos[i].name);
		ptx_vars_free(f->protos[i].params, f->protos[i].nparams);
		ptx_vars_free(f->protos[i].rets, f->protos[i].nrets);
	}
	free(f->protos);
	memset(f, 0, sizeof(*f));
}

void ptx_free(struct ptx_module *m)
{
	uint32_t i;

	if (!m)
		return;
	ptx_vars_free(m->vars, m->nvars);
	for (i = 0; i < m->nfuncs; i++)
		ptx_func_clear(&m->funcs[i]);
	free(m->funcs);
	for (i = 0; i < m->nfiles; i++)
		free(m->files[i].path);
	free(m->files);
	free(m);
}

/* --- errors, memory, tokens --------------------------------------------- */

static _Noreturn __attribute__((format(printf, 3, 4)))
void ptx_fail(struct ptx_parser *p, struct ptx_pos pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->err && p->err_len) {
		n = snprintf(p->err, p->err_len, "%u:%u: ", pos.line, pos.col);
		if (n >= 0 && (size_t)n < p->err_len) {
			va_start(ap, fmt);
			vsnprintf(p->err + n, p->err_len - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
	longjmp(p->fail, 1);
}

static _Noreturn void ptx_oom(struct ptx_parser *p)
{
	ptx_fail(p, p->tok.pos, "out of memory");
}

/*
 * Makes room for element @n of an array that grows by doubling; the
 * capacity is implied by @n (8, 16, 32 ...), so the module's structs need
 * no capacity fields.
 */
static void *ptx_grow(struct ptx_parser *p, void *arr, uint32_t n, size_t size)
{
	void *bigger;

	if (n != 0 && (n < 8 || (n & (n - 1))))
		return arr;
	bigger = realloc(arr, (n ? 2 * (size_t)n : 8) * size);
	if (!bigger)
		ptx_oom(p);
	return bigger;
}

#define ptx_push(p, arr, n) \
	((arr) = ptx_grow((p), (arr), (n), sizeof(*(arr))), \
	 memset(&(arr)[(n)], 0, sizeof(*(arr))), &(arr)[(n)++])

static char *ptx_strndup(struct ptx_parser *p, const char *s, size_t len)
{
	char *d = malloc(len + 1);

	if (!d)
		ptx_oom(p);
	memcpy(d, s, len);
	d[len] = '\0';
	return d;
}

/* "'ld.u32'", "end of file": a token as error messages name it. */
static const char *ptx_describe(const struct ptx_tok *t, char *buf, size_t n)
{
	if (t->kind == PTX_TK_EOF)
		return "end of file";
	if (t->kind == PTX_TK_STR)
		return "a string";
	snprintf(buf, n, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->s);
	return buf;
}

static _Noreturn void ptx_expected(struct ptx_parser *p, const char *what)
{
	char buf[48];

	ptx_fail(p, p->tok.pos, "expected %s, found %s", what,
		 ptx_describe(&p->tok, buf, sizeof(buf)));
}

static void ptx_lex_checked(struct ptx_parser *p, struct ptx_tok *t)
{
	ptx_lex_next(&p->lx, t);
	if (t->kind == PTX_TK_ERROR)
		ptx_fail(p, t->pos, "%s", t->msg);
}

static void ptx_next(struct ptx_parser *p)
{
	if (p->has_ahead) {
		p->tok = p->ahead;
		p->has_ahead = false;
	} else {
		ptx_lex_checked(p, &p->tok);
	}
}

static const struct ptx_tok *ptx_peek(struct ptx_parser *p)
{
	if (!p->has_ahead) {
		ptx_lex_checked(p, &p->ahead);
		p->has_ahead = true;
	}
	return &p->ahead;
}

static bool ptx_tok_is(const struct ptx_tok *t, enum ptx_tok_kind kind,
		       const char *s)
{
	return t->kind == kind && t->len == strlen(s) && !memcmp(t->s, s, t->len);
}

static bool ptx_is(struct ptx_parser *p, char c)
{
	return p->tok.kind == PTX_TK_PUNCT && p->tok.s[0] == c;
}

static bool ptx_is_dir(struct ptx_parser *p, const char *dir)
{
	return ptx_tok_is(&p->tok, PTX_TK_DIR, dir);
}

static bool ptx_accept(struct ptx_parser *p, char c)
{
	if (!ptx_is(p, c))
		return false;
	ptx_next(p);
	return true;
}

static void ptx_expect(struct ptx_parser *p, char c)
{
	char what[4] = { '\'', c, '\'', '\0' };

	if (!ptx_accept(p, c))
		ptx_expected(p, what);
}

static enum ptx_space ptx_space_dir(struct ptx_parser *p)
{
	size_t i;

	for (i = 0; i < sizeof(ptx_spaces) / sizeof(ptx_spaces[0]); i++)
		if (ptx_is_dir(p, ptx_spaces[i].dir))
			return ptx_spaces[i].space;
	return PTX_S_NONE;
}

/* A name to declare: a word without the dots of opcodes. */
static void ptx_expect_name(struct ptx_parser *p, const char *what)
{
	if (p->tok.kind != PTX_TK_WORD || memchr(p->tok.s, '.', p->tok.len))
		ptx_expected(p, what);
}

/* --- numbers ------------------------------------------------------------ */

static int ptx_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* Digits in @base; false when malformed, *@range false on overflow. */
static bool ptx_conv(const char *s, size_t len, unsigned int base,
		     uint64_t *v, bool *range)
{
	size_t i;

	*v = 0;
	if (!len)
		return false;
	for (i = 0; i < len; i++) {
		unsigned int d = (unsigned int)ptx_digit(s[i]);

		if (d >= base)
			return false;
		if (*v > (UINT64_MAX - d) / base)
			*range = false;
		*v = *v * base + d;
	}
	return true;
}

/*
 * A number token: integers in decimal, 0x hex, 0b binary or 0 octal, with
 * an optional U; 0f and 0d floats as exactly 8 and 16 hex digits of bits.
 * Returns 0 for an integer, 32 or 64 for a float.
 */
static uint32_t ptx_number(struct ptx_parser *p, const struct ptx_tok *t,
			   uint64_t *v)
{
	const char *s = t->s;
	size_t len = t->len;
	unsigned int base = 10;
	bool range = true, ok;
	uint32_t fw = 0;

	if (t->kind != PTX_TK_NUM)
		ptx_expected(p, "a number");
	if (len > 2 && s[0] == '0' && strchr("fFdD", s[1])) {
		fw = s[1] == 'f' || s[1] == 'F' ? 32 : 64;
		ok = len - 2 == fw / 4 && ptx_conv(s + 2, len - 2, 16, v, &range);
	} else {
		if (s[len - 1] == 'U' || s[len - 1] == 'u')
			len--;
		if (len > 1 && s[0] == '0') {
			if (s[1] == 'x' || s[1] == 'X')
				base = 16, s += 2, len -= 2;
			else if (s[1] == 'b' || s[1] == 'B')
				base = 2, s += 2, len -= 2;
			else
				base = 8, s++, len--;
		}
		ok = ptx_conv(s, len, base, v, &range);
	}
	if (!ok)
		ptx_fail(p, t->pos, "malformed number '%.*s'", (int)t->len, t->s);
	if (!range)
		ptx_fail(p, t->pos, "number '%.*s' out of range", (int)t->len,
			 t->s);
	return fw;
}

static uint64_t ptx_parse_uint(struct ptx_parser *p, uint64_t max)
{
	uint64_t v;

	if (p->tok.kind != PTX_TK_NUM || ptx_number(p, &p->tok, &v))
		ptx_expected(p, "an integer");
	if (v > max)
		ptx_fail(p, p->tok.pos, "number '%.*s' out of range",
			 (int)p->tok.len, p->tok.s);
	ptx_next(p);
	return v;
}

/* An integer with an optional '-' before it. */
static int64_t ptx_parse_sint(struct ptx_parser *p)
{
	bool neg = ptx_accept(p, '-');
	uint64_t v = ptx_parse_uint(p, UINT64_MAX);

	return (int64_t)(neg ? 0 - v : v);
}

/* --- scopes ------------------------------------------------------------- */

static uint32_t ptx_hash(const char *s, size_t len)
{
	uint32_t h = 2166136261u;

	while (len--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

static struct ptx_name *ptx_lookup(struct ptx_symtab *st, const char *s,
				   size_t len)
{
	uint32_t h = ptx_hash(s, len), i;

	if (!st->nbuckets)
		return NULL;
	for (i = st->buckets[h & (st->nbuckets - 1)]; i != UINT32_MAX;
	     i = st->v[i].next)
		if (st->v[i].hash == h && !strncmp(st->v[i].name, s, len) &&
		    !st->v[i].name[len])
			return &st->v[i];
	return NULL;
}

static void ptx_link(struct ptx_symtab *st, uint32_t i)
{
	uint32_t *head = &st->buckets[st->v[i].hash & (st->nbuckets - 1)];

	st->v[i].next = *head;
	*head = i;
}

/* Keeps the buckets at least twice the names, relinking in order. */
static void ptx_rehash(struct ptx_parser *p, struct ptx_symtab *st)
{
	uint32_t n = st->nbuckets ? st->nbuckets * 2 : 64, i;
	uint32_t *b = malloc(n * sizeof(*b));

	if (!b)
		ptx_oom(p);
	free(st->buckets);
	st->buckets = b;
	st->nbuckets = n;
	memset(b, 0xff, n * sizeof(*b));
	for (i = 0; i < st->n; i++)
		ptx_link(st, i);
}

static struct ptx_name *ptx_declare(struct ptx_parser *p,
				    struct ptx_symtab *st, const char *name,
				    struct ptx_pos pos, enum ptx_name_kind kind)
{
	struct ptx_name *e = ptx_lookup(st, name, strlen(name));

	if (e && e->depth == p->depth)
		ptx_fail(p, pos, "duplicate declaration of '%s'", name);
	e = ptx_push(p, st->v, st->n);
	e->name = name;
	e->hash = ptx_hash(name, strlen(name));
	e->depth = p->depth;
	e->kind = kind;
	if (st->n * 2 > st->nbuckets)
		ptx_rehash(p, st);
	else
		ptx_link(st, st->n - 1);
	return e;
}

static void ptx_declare_sym(struct ptx_parser *p, const char *name,
			    struct ptx_pos pos, enum ptx_sym_kind kind,
			    uint32_t index)
{
	struct ptx_name *e = ptx_declare(p, &p->names, name, pos, PTX_N_SYM);

	e->sym.kind = kind;
	e->sym.index = index;
}

/* Forgets the names of scopes @depth and deeper. */
static void ptx_scope_pop(struct ptx_symtab *st, uint32_t depth)
{
	while (st->n && st->v[st->n - 1].depth >= depth) {
		struct ptx_name *e = &st->v[--st->n];

		st->buckets[e->hash & (st->nbuckets - 1)] = e->next;
	}
}

static void ptx_symtab_free(struct ptx_symtab *st)
{
	free(st->v);
	free(st->buckets);
}

/* --- declarations ------------------------------------------------------- */

/* .align N, .vN, .ptr [.space] [.align N] and the type, in any order. */
static void ptx_parse_decl_type(struct ptx_parser *p, struct ptx_var *v)
{
	struct ptx_pos pos;

	v->vec = 1;
	while (p->tok.kind == PTX_TK_DIR) {
		const struct ptx_tok *t = &p->tok;

		if (ptx_is_dir(p, ".align")) {
			ptx_next(p);
			pos = p->tok.pos;
			v->align = (uint32_t)ptx_parse_uint(p, 1u << 30);
			if (!v->align || (v->align & (v->align - 1)))
				ptx_fail(p, pos,
					 "alignment must be a power of two");
		} else if (ptx_is_dir(p, ".v2") || ptx_is_dir(p, ".v4") ||
			   ptx_is_dir(p, ".v8")) {
			v->vec = (uint32_t)(t->s[2] - '0');
			ptx_next(p);
		} else if (ptx_is_dir(p, ".attribute")) {
			/* .managed alone: .unified names host code vgpu lacks. */
			ptx_next(p);
			ptx_expect(p, '(');
			if (!ptx_is_dir(p, ".managed"))
				ptx_fail(p, p->tok.pos,
					 "only the .managed attribute is supported");
			v->managed = true;
			ptx_next(p);
			ptx_expect(p, ')');
		} else if (ptx_is_dir(p, ".ptr")) {
			/* kernel pointer hints: what the pointee is, not v */
			ptx_next(p);
			if (ptx_space_dir(p) != PTX_S_NONE)
				ptx_next(p);
			if (ptx_is_dir(p, ".align")) {
				ptx_next(p);
				ptx_parse_uint(p, 1u << 30);
			}
		} else if (ptx_is_dir(p, ".texref") || ptx_is_dir(p, ".surfref") ||
			   ptx_is_dir(p, ".samplerref")) {
			/* The variable holds a descriptor's address. */
			if (v->type != PTX_T_NONE)
				ptx_fail(p, t->pos, "more than one type");
			v->ref = t->s[1] == 't' ? PTX_REF_TEX :
				 t->s[2] == 'u' ? PTX_REF_SURF : PTX_REF_SAMPLER;
			v->type = PTX_T_U64;
			ptx_next(p);
		} else {
			enum ptx_type ty = ptx_type_lookup(t->s + 1, t->len - 1);

			if (ty == PTX_T_NONE)
				ptx_fail(p, t->pos, "unknown type '%.*s'",
					 (int)t->len, t->s);
			if (v->type != PTX_T_NONE)
				ptx_fail(p, t->pos, "more than one type");
			v->type = ty;
			ptx_next(p);
		}
	}
	if (v->type == PTX_T_NONE)
		ptx_expected(p, "a type");
}

/* [N][M]..., or [] first for a size the initializer or launch gives. */
static void ptx_parse_dims(struct ptx_parser *p, struct ptx_var *v)
{
	v->count = 1;
	while (ptx_accept(p, '[')) {
		struct ptx_pos pos = p->tok.pos;
		uint64_t n = 0;

		if (!ptx_is(p, ']') || v->array)
			n = ptx_parse_uint(p, PTX_MAX_ELEMS);
		if (n && v->count > PTX_MAX_ELEMS / n)
			ptx_fail(p, pos, "array '%s' too large", v->name);
		v->count *= n;
		v->array = true;
		ptx_expect(p, ']');
	}
}

struct ptx_init {
	uint32_t elem;		/* bytes of one element */
	uint64_t n, max;	/* elements written, allowed */
	uint64_t cap;		/* bytes allocated */
};

static void ptx_init_put(struct ptx_parser *p, struct ptx_var *v,
			 struct ptx_init *ini, uint64_t bits, struct ptx_pos pos)
{
	uint32_t i;

	if (ini->n == ini->max)
		ptx_fail(p, pos, "too many initializers for '%s'", v->name);
	if (v->init_bytes + ini->elem > ini->cap) {
		uint64_t cap = ini->cap ? ini->cap * 2 : 64;
		uint8_t *b = realloc(v->init, cap);

		if (!b)
			ptx_oom(p);
		v->init = b;
		ini->cap = cap;
	}
	for (i = 0; i < ini->elem; i++)
		v->init[v->init_bytes++] = (uint8_t)(bits >> (8 * i));
	ini->n++;
}

/* Integer values of float variables convert; float bits widen or narrow. */
static uint64_t ptx_init_bits(enum ptx_type t, uint64_t v, uint32_t fw)
{
	uint32_t b = (uint32_t)v;
	float f;
	double d;

	if (fw == 32)
		memcpy(&f, &b, 4);
	else if (fw == 64)
		memcpy(&d, &v, 8);
	if (t == PTX_T_F32 && fw != 32) {
		f = fw ? (float)d : (float)(int64_t)v;
		memcpy(&b, &f, 4);
		return b;
	}
	if (t == PTX_T_F64 && fw != 64) {
		d = fw ? (double)f : (double)(int64_t)v;
		memcpy(&v, &d, 8);
	}
	return v;
}

/*
 * A function's or a variable's address as an initializer: "f" or "x"
 * fills a 64-bit element, "0xFF00(f)" (nvcc's form for packed structs) an
 * element with the bits the mask selects, "generic(x)" and "x+8" a
 * variable's address (and past it). The element holds 0 until the
 * lowering knows the address; which kind the name is, is known once all
 * names are (ptx_resolve_inits).
 */
static void ptx_parse_init_func(struct ptx_parser *p, struct ptx_var *v,
				struct ptx_init *ini, struct ptx_pos pos,
				uint64_t mask)
{
	struct ptx_init_ref *r;
	uint8_t shift = 0;
	bool generic = false;

	if (!mask && ptx_tok_is(&p->tok, PTX_TK_WORD, "generic")) {
		ptx_next(p);
		ptx_expect(p, '(');
		generic = true;
	}
	if (mask) {
		while (shift < 64 && !(mask >> shift & 1))
			shift++;
		if (shift % 8 || mask != 0xffULL << shift)
			ptx_fail(p, pos, "mask must select one byte");
		ptx_expect(p, '(');
	} else if (ini->elem != 8) {
		ptx_fail(p, pos, "'%s': a function's address needs 64-bit elements",
			 v->name);
	}
	ptx_expect_name(p, "a function name");
	if (p->fn)
		ptx_fail(p, pos, "'%s': only module variables can hold a function's address",
			 v->name);
	r = ptx_push(p, p->init_refs, p->ninit_refs);
	r->name = ptx_strndup(p, p->tok.s, p->tok.len);
	r->pos = p->tok.pos;
	r->var = (uint32_t)(v - p->m->vars);
	r->offset = v->init_bytes;
	r->shift = shift;
	r->masked = mask != 0;
	r->generic = generic;
	ptx_next(p);
	if (mask || generic)
		ptx_expect(p, ')');
	if (!mask && ptx_accept(p, '+')) {
		uint64_t n;

		if (ptx_number(p, &p->tok, &n))
			ptx_expected(p, "an integer");
		/* An offset past a function's address is refused later. */
		r = &p->init_refs[p->ninit_refs - 1];
		r->addend = (int64_t)n;
		ptx_next(p);
	}
	ptx_init_put(p, v, ini, 0, pos);
}

static void ptx_parse_init_value(struct ptx_parser *p, struct ptx_var *v,
				 struct ptx_init *ini)
{
	struct ptx_pos pos = p->tok.pos;
	bool neg;
	uint64_t bits;
	uint32_t fw;

	if (p->tok.kind == PTX_TK_WORD) {
		ptx_parse_init_func(p, v, ini, pos, 0);
		return;
	}
	neg = ptx_accept(p, '-');
	fw = ptx_number(p, &p->tok, &bits);
	if (neg && fw)
		ptx_expected(p, "an integer");
	if (neg)
		bits = 0 - bits;
	ptx_next(p);
	if (!neg && !fw && ptx_is(p, '(')) {
		ptx_parse_init_func(p, v, ini, pos, bits);
		return;
	}
	ptx_init_put(p, v, ini, ptx_init_bits(v->type, bits, fw), pos);
}

static void ptx_parse_init_list(struct ptx_parser *p, struct ptx_var *v,
				struct ptx_init *ini, uint32_t depth)
{
	if (depth > PTX_MAX_INIT_DEPTH)
		ptx_fail(p, p->tok.pos, "initializer nested too deeply");
	ptx_expect(p, '{');
	do {
		if (ptx_is(p, '{'))
			ptx_parse_init_list(p, v, ini, depth + 1);
		else
			ptx_parse_init_value(p, v, ini);
	} while (ptx_accept(p, ','));
	ptx_expect(p, '}');
}

/* = 5, = {1, 2}, = {{1, 2}, {3, 4}}: bytes little endian per element. */
static void ptx_parse_init(struct ptx_parser *p, struct ptx_var *v)
{
	struct ptx_init ini = { ptx_type_bits(v->type) / 8, 0, 0, 0 };

	if (!ini.elem)
		ptx_fail(p, p->tok.pos, "'%s' cannot be initialized", v->name);
	ini.max = v->array && !v->count ? PTX_MAX_ELEMS : v->count * v->vec;
	if (ptx_is(p, '{'))
		ptx_parse_init_list(p, v, &ini, 1);
	else
		ptx_parse_init_value(p, v, &ini);
	if (v->array && !v->count)
		v->count = (ini.n + v->vec - 1) / v->vec;
}

/*
 * .global/.const/.shared/.local/.param variables, a list of names after
 * one type; at module scope, or in a body (the function's vars).
 */
static void ptx_parse_vars(struct ptx_parser *p, const struct ptx_attrs *a,
			   enum ptx_space space)
{
	struct ptx_var proto = { .space = space };

	ptx_next(p);
	ptx_parse_decl_type(p, &proto);
	proto.visible = a->visible;
	proto.is_extern = a->is_external;
	proto.weak = a->weak;
	if (proto.managed && (p->fn || space != PTX_S_GLOBAL))
		ptx_fail(p, p->tok.pos,
			 ".managed is for module-scope .global variables");
	do {
		struct ptx_var *v;
		uint32_t i;

		ptx_expect_name(p, "a variable name");
		if (p->fn) {
			i = p->fn->nvars;
			v = ptx_push(p, p->fn->vars, p->fn->nvars);
		} else {
			i = p->m->nvars;
			v = ptx_push(p, p->m->vars, p->m->nvars);
		}
		*v = proto;
		v->pos = p->tok.pos;
		v->name = ptx_strndup(p, p->tok.s, p->tok.len);
		ptx_declare_sym(p, v->name, v->pos,
				p->fn ? PTX_SYM_FUNCVAR : PTX_SYM_MODVAR, i);
		ptx_next(p);
		ptx_parse_dims(p, v);
		if (ptx_accept(p, '='))
			ptx_parse_init(p, v);
	} while (ptx_accept(p, ','));
	ptx_expect(p, ';');
}

/* Register @name, or @name followed by @suffix unless it is negative. */
static void ptx_add_reg(struct ptx_parser *p, const struct ptx_var *t,
			const struct ptx_tok *name, int64_t suffix)
{
	struct ptx_func *fn = p->fn;
	struct ptx_pos pos = name->pos;
	struct ptx_reg *r;
	struct ptx_name *e;

	if (fn->nregs == PTX_MAX_REGS)
		ptx_fail(p, pos, "too many registers (at most %u)", PTX_MAX_REGS);
	if (p->module_regs++ == PTX_MAX_MODULE_REGS)
		ptx_fail(p, pos, "too many registers in the module (at most %u)",
			 PTX_MAX_MODULE_REGS);
	r = ptx_push(p, fn->regs, fn->nregs);
	r->name = malloc(name->len + 8);
	if (!r->name)
		ptx_oom(p);
	snprintf(r->name, name->len + 8, "%.*s", (int)name->len, name->s);
	if (suffix >= 0)
		snprintf(r->name + name->len, 8, "%u", (unsigned int)suffix);
	r->type = t->type;
	r->vec = t->vec;
	r->pos = pos;
	e = ptx_declare(p, &p->names, r->name, pos, PTX_N_REG);
	e->sym.index = fn->nregs - 1;
}

/* .reg .b32 %r<11>, %x, low; ranges name %r0 to %r10. */
static void ptx_parse_regs(struct ptx_parser *p)
{
	struct ptx_var t = { 0 };

	ptx_next(p);
	ptx_parse_decl_type(p, &t);
	do {
		struct ptx_tok name;
		uint64_t i, n;

		ptx_expect_name(p, "a register name");
		name = p->tok;
		ptx_next(p);
		if (!ptx_accept(p, '<')) {
			ptx_add_reg(p, &t, &name, -1);
			continue;
		}
		n = ptx_parse_uint(p, PTX_MAX_REGS);
		ptx_expect(p, '>');
		for (i = 0; i < n; i++)
			ptx_add_reg(p, &t, &name, (int64_t)i);
	} while (ptx_accept(p, ','));
	ptx_expect(p, ';');
}

/* --- instructions -------------------------------------------------------- */

static void ptx_copy_mod(struct ptx_parser *p, char *dst, const char *s,
			 size_t len, struct ptx_pos pos, const char *what)
{
	if (!len)
		ptx_fail(p, pos, "empty modifier");
	if (len >= PTX_MOD_LEN)
		ptx_fail(p, pos, "%s '%.*s' too long (at most %d characters)",
			 what, (int)len, s, PTX_MOD_LEN - 1);
	memcpy(dst, s, len);
	dst[len] = '\0';
}

/* "ld.global.nc.v2.f64": op "ld", then the modifiers. */
static void ptx_parse_opcode(struct ptx_parser *p, struct ptx_insn *in)
{
	const char *s = p->tok.s, *end = s + p->tok.len;
	const char *dot = memchr(s, '.', p->tok.len);
	struct ptx_pos pos = p->tok.pos;

	if (p->tok.kind != PTX_TK_WORD || !((*s >= 'a' && *s <= 'z') ||
					    (*s >= 'A' && *s <= 'Z')))
		ptx_expected(p, "an instruction");
	in->pos = pos;
	ptx_copy_mod(p, in->op, s, (size_t)((dot ? dot : end) - s), pos,
		     "opcode");
	while (dot) {
		s = dot + 1;
		dot = memchr(s, '.', (size_t)(end - s));
		if (in->nmods == PTX_MAX_MODS)
			ptx_fail(p, pos, "too many modifiers (at most %d)",
				 PTX_MAX_MODS);
		ptx_copy_mod(p, in->mods[in->nmods++], s,
			     (size_t)((dot ? dot : end) - s), pos, "modifier");
	}
	ptx_next(p);
}

static bool ptx_op_is(const struct ptx_insn *in, const char *op)
{
	return !strcmp(in->op, op);
}

static _Noreturn void ptx_unknown(struct ptx_parser *p, const char *what)
{
	ptx_fail(p, p->tok.pos, "unknown %s '%.*s'", what, (int)p->tok.len,
		 p->tok.s);
}

/* The current word as a register (guards, "!%p", vector elements). */
static uint32_t ptx_parse_reg(struct ptx_parser *p)
{
	struct ptx_name *e;

	if (p->tok.kind != PTX_TK_WORD)
		ptx_expected(p, "a register");
	e = ptx_lookup(&p->names, p->tok.s, p->tok.len);
	if (!e)
		ptx_unknown(p, "register");
	if (e->kind != PTX_N_REG)
		ptx_expected(p, "a register");
	ptx_next(p);
	return e->sym.index;
}

/* %envreg0 to %envreg31, the driver's environment registers. */
static bool ptx_parse_envreg(struct ptx_parser *p, struct ptx_opnd *o)
{
	static const char name[] = "%envreg";
	const size_t len = sizeof(name) - 1;
	uint32_t n = 0;
	size_t i;

	if (p->tok.len <= len || p->tok.len > len + 2 ||
	    memcmp(p->tok.s, name, len) ||
	    (p->tok.len == len + 2 && p->tok.s[len] == '0'))
		return false;
	for (i = len; i < p->tok.len; i++) {
		if (p->tok.s[i] < '0' || p->tok.s[i] > '9')
			return false;
		n = n * 10 + (uint32_t)(p->tok.s[i] - '0');
	}
	if (n > 31)
		return false;
	o->kind = PTX_O_SREG;
	o->sreg = PTX_SR_ENVREG;
	o->comp = n;
	ptx_next(p);
	return true;
}

static bool ptx_parse_sreg(struct ptx_parser *p, struct ptx_opnd *o)
{
	const char *s = p->tok.s, *dot = memchr(s, '.', p->tok.len);
	size_t base = dot ? (size_t)(dot - s) : p->tok.len, i;

	if (ptx_parse_envreg(p, o))
		return true;
	if (dot && (p->tok.len - base != 2 || dot[1] < 'x' || dot[1] > 'z'))
		return false;
	for (i = 0; i < sizeof(ptx_sregs) / sizeof(ptx_sregs[0]); i++) {
		if (strlen(ptx_sregs[i].name) != base ||
		    memcmp(ptx_sregs[i].name, s, base) ||
		    ptx_sregs[i].xyz != !!dot)
			continue;
		o->kind = PTX_O_SREG;
		o->sreg = ptx_sregs[i].sreg;
		o->comp = dot ? (uint32_t)(dot[1] - 'x') : 0;
		ptx_next(p);
		return true;
	}
	return false;
}

static uint32_t ptx_label_ref(struct ptx_parser *p, const struct ptx_tok *t,
			      struct ptx_pos pos)
{
	struct ptx_name *e;
	struct ptx_label *l;

	e = ptx_lookup(&p->labels, t->s, t->len);
	if (e)
		return e->sym.index;
	l = ptx_push(p, p->fn->labels, p->fn->nlabels);
	l->name = ptx_strndup(p, t->s, t->len);
	l->pos = pos;
	e = ptx_declare(p, &p->labels, l->name, pos, PTX_N_LABEL);
	e->sym.index = p->fn->nlabels - 1;
	return e->sym.index;
}

static void ptx_parse_params(struct ptx_parser *p, struct ptx_var **vars,
			     uint32_t *n);

/*
 * What follows "NAME:" in a body when it is .callprototype:
 * "[(rets)] _ [(params)] [.noreturn];". The prototype is a name of the
 * block, which a call names after its arguments.
 */
static void ptx_parse_proto(struct ptx_parser *p, const struct ptx_tok *name)
{
	struct ptx_func *fn = p->fn;
	struct ptx_proto *pr = ptx_push(p, fn->protos, fn->nprotos);

	pr->name = ptx_strndup(p, name->s, name->len);
	pr->pos = name->pos;
	ptx_declare_sym(p, pr->name, pr->pos, PTX_SYM_PROTO, fn->nprotos - 1);
	ptx_next(p);
	if (ptx_is(p, '('))
		ptx_parse_params(p, &pr->rets, &pr->nrets);
	if (!ptx_tok_is(&p->tok, PTX_TK_WORD, "_"))
		ptx_expected(p, "'_'");
	ptx_next(p);
	if (ptx_is(p, '('))
		ptx_parse_params(p, &pr->params, &pr->nparams);
	if (ptx_is_dir(p, ".noreturn"))
		ptx_next(p);
	ptx_expect(p, ';');
}

/* "NAME:" before an instruction, or naming a .callprototype. */
static void ptx_parse_label(struct ptx_parser *p)
{
	struct ptx_pos pos = p->tok.pos;
	struct ptx_tok name = p->tok;
	struct ptx_label *l;
	uint32_t i;

	ptx_expect_name(p, "a label");
	ptx_next(p);
	ptx_next(p);		/* the ':' */
	if (ptx_is_dir(p, ".callprototype")) {
		ptx_parse_proto(p, &name);
		return;
	}
	if (ptx_is_dir(p, ".calltargets"))
		ptx_fail(p, p->tok.pos, "'.calltargets' is not supported (a .callprototype is)");
	i = ptx_label_ref(p, &name, pos);	/* may move the labels */
	l = &p->fn->labels[i];
	if (l->defined)
		ptx_fail(p, pos, "duplicate label '%s'", l->name);
	l->defined = true;
	l->pos = pos;
	l->insn = p->fn->ninsns;
}

/* "+4", "+-4", "-4" after a base, or nothing. */
static int64_t ptx_parse_offset(struct ptx_parser *p)
{
	if (ptx_accept(p, '+'))
		return ptx_parse_sint(p);
	if (ptx_is(p, '-'))
		return ptx_parse_sint(p);
	return 0;
}

/*
 * The rest of a texture or surface operand, after "[t,": an independent
 * sampler ("s,"), then the coordinates' vector and the ']'.
 */
static void ptx_parse_tex_coords(struct ptx_parser *p, struct ptx_opnd *o)
{
	o->kind = PTX_O_TEX;
	if (!ptx_is(p, '{')) {
		ptx_expect_name(p, "a sampler or the coordinates");
		o->comp = 1;
		ptx_next(p);
		ptx_expect(p, ',');
	}
	if (!ptx_is(p, '{'))
		ptx_expected(p, "the coordinates");
	ptx_next(p);
	do {
		uint64_t bits;

		if (o->nvec == PTX_MAX_VEC)
			ptx_fail(p, p->tok.pos,
				 "too many vector elements (at most %d)", PTX_MAX_VEC);
		if (ptx_tok_is(&p->tok, PTX_TK_WORD, "_")) {
			o->vec[o->nvec++] = -1;
			ptx_next(p);
		} else if (ptx_is(p, '-')) {
			o->vimm |= (uint8_t)(1u << o->nvec);
			o->vec[o->nvec++] = (int32_t)ptx_parse_sint(p);
		} else if (p->tok.kind == PTX_TK_NUM) {
			/* A constant coordinate: an integer, or an f32's bits. */
			if (ptx_number(p, &p->tok, &bits) == 64)
				ptx_fail(p, p->tok.pos, "coordinates are 32-bit");
			o->vimm |= (uint8_t)(1u << o->nvec);
			o->vec[o->nvec++] = (int32_t)(uint32_t)bits;
			ptx_next(p);
		} else {
			o->vec[o->nvec++] = (int32_t)ptx_parse_reg(p);
		}
	} while (ptx_accept(p, ','));
	ptx_expect(p, '}');
	ptx_expect(p, ']');
}

static void ptx_parse_addr(struct ptx_parser *p, struct ptx_opnd *o)
{
	struct ptx_name *e;

	ptx_next(p);
	o->kind = PTX_O_ADDR;
	if (p->tok.kind == PTX_TK_WORD) {
		e = ptx_lookup(&p->names, p->tok.s, p->tok.len);
		if (!e)
			ptx_unknown(p, p->tok.s[0] == '%' ? "register" : "symbol");
		if (e->kind == PTX_N_REG) {
			o->base = PTX_BASE_REG;
			o->reg = e->sym.index;
		} else {
			o->base = PTX_BASE_SYM;
			o->sym = e->sym;
		}
		ptx_next(p);
		if (ptx_accept(p, ',')) {
			ptx_parse_tex_coords(p, o);
			return;
		}
		o->imm = ptx_parse_offset(p);
	} else {
		o->imm = ptx_parse_sint(p);
	}
	ptx_expect(p, ']');
}

/*
 * "{%r1, _, %r2}". Texel offsets (tex and tld4's vectors) may also be
 * integers, @vimm saying which.
 */
static void ptx_parse_vec(struct ptx_parser *p, const struct ptx_insn *in,
			  struct ptx_opnd *o)
{
	bool imm = !strcmp(in->op, "tex") || !strcmp(in->op, "tld4");

	ptx_next(p);
	o->kind = PTX_O_VEC;
	do {
		if (o->nvec == PTX_MAX_VEC)
			ptx_fail(p, p->tok.pos,
				 "too many vector elements (at most %d)", PTX_MAX_VEC);
		if (ptx_tok_is(&p->tok, PTX_TK_WORD, "_")) {
			o->vec[o->nvec++] = -1;
			ptx_next(p);
		} else if (imm && (ptx_is(p, '-') || p->tok.kind == PTX_TK_NUM)) {
			o->vimm |= (uint8_t)(1u << o->nvec);
			o->vec[o->nvec++] = (int32_t)ptx_parse_sint(p);
		} else {
			o->vec[o->nvec++] = (int32_t)ptx_parse_reg(p);
		}
	} while (ptx_accept(p, ','));
	ptx_expect(p, '}');
}

/* (retval0) or (param0, param1) of a call; may be empty. */
static void ptx_parse_list(struct ptx_parser *p, struct ptx_opnd *o)
{
	struct ptx_name *e;

	ptx_next(p);
	o->kind = PTX_O_LIST;
	if (ptx_accept(p, ')'))
		return;
	do {
		if (o->nvec == PTX_MAX_VEC)
			ptx_fail(p, p->tok.pos,
				 "too many call arguments (at most %d)", PTX_MAX_VEC);
		e = p->tok.kind == PTX_TK_WORD ?
			ptx_lookup(&p->names, p->tok.s, p->tok.len) : NULL;
		if (p->tok.kind == PTX_TK_WORD && !e)
			ptx_unknown(p, "symbol");
		if (!e || e->kind != PTX_N_SYM || e->sym.kind == PTX_SYM_FUNC)
			ptx_expected(p, "a parameter name");
		o->list[o->nvec++] = e->sym;
		ptx_next(p);
	} while (ptx_accept(p, ','));
	ptx_expect(p, ')');
}

/* A call's callee not declared yet: resolved when the module ends. */
static void ptx_defer_call(struct ptx_parser *p, struct ptx_opnd *o,
			   uint32_t opnd)
{
	struct ptx_fixup *f = ptx_push(p, p->fixups, p->nfixups);

	f->name = ptx_strndup(p, p->tok.s, p->tok.len);
	f->pos = p->tok.pos;
	f->func = (uint32_t)(p->fn - p->m->funcs);
	f->insn = p->fn->ninsns - 1;
	f->opnd = opnd;
	o->kind = PTX_O_SYM;
	o->sym.kind = PTX_SYM_FUNC;
	ptx_next(p);
}

static void ptx_parse_word_opnd(struct ptx_parser *p, struct ptx_insn *in,
				struct ptx_opnd *o)
{
	struct ptx_name *e = ptx_lookup(&p->names, p->tok.s, p->tok.len);

	if (ptx_tok_is(&p->tok, PTX_TK_WORD, "_")) {
		o->kind = PTX_O_SINK;
		ptx_next(p);
	} else if (ptx_op_is(in, "bra")) {
		ptx_expect_name(p, "a label");
		o->kind = PTX_O_LABEL;
		o->label = ptx_label_ref(p, &p->tok, o->pos);
		ptx_next(p);
	} else if (e && e->kind == PTX_N_REG) {
		o->kind = PTX_O_REG;
		o->reg = e->sym.index;
		ptx_next(p);
	} else if (e) {
		o->kind = PTX_O_SYM;
		o->sym = e->sym;
		ptx_next(p);
		o->imm = ptx_parse_offset(p);
	} else if (p->tok.s[0] == '%') {
		if (!ptx_parse_sreg(p, o))
			ptx_unknown(p, "register");
	} else if (ptx_op_is(in, "call") && !memchr(p->tok.s, '.', p->tok.len)) {
		ptx_defer_call(p, o, (uint32_t)(o - in->opnds));
	} else {
		ptx_unknown(p, "symbol");
	}
}

static void ptx_parse_opnd(struct ptx_parser *p, struct ptx_insn *in,
			   struct ptx_opnd *o)
{
	uint32_t fw;

	o->pos = p->tok.pos;
	if (ptx_is(p, '[')) {
		ptx_parse_addr(p, o);
	} else if (ptx_is(p, '{')) {
		ptx_parse_vec(p, in, o);
	} else if (ptx_is(p, '(')) {
		ptx_parse_list(p, o);
	} else if (ptx_accept(p, '!')) {
		o->kind = PTX_O_REG;
		o->neg = true;
		o->reg = ptx_parse_reg(p);
	} else if (ptx_is(p, '-')) {
		o->kind = PTX_O_IMM;
		o->imm = ptx_parse_sint(p);
	} else if (p->tok.kind == PTX_TK_NUM) {
		fw = ptx_number(p, &p->tok, &o->fbits);
		o->kind = fw ? PTX_O_FIMM : PTX_O_IMM;
		o->fwidth = fw;
		o->imm = fw ? 0 : (int64_t)o->fbits;
		o->fbits = fw ? o->fbits : 0;
		ptx_next(p);
	} else if (p->tok.kind == PTX_TK_WORD) {
		ptx_parse_word_opnd(p, in, o);
	} else {
		ptx_expected(p, "an operand");
	}
}

/* [@[!]%p] op.mods a, b|c, ...; */
static void ptx_parse_insn(struct ptx_parser *p)
{
	struct ptx_func *fn = p->fn;
	struct ptx_insn *in = ptx_push(p, fn->insns, fn->ninsns);

	in->file = p->loc_file;
	in->line = p->loc_line;
	if (ptx_accept(p, '@')) {
		in->guarded = true;
		in->guard_neg = ptx_accept(p, '!');
		in->guard = ptx_parse_reg(p);
	}
	ptx_parse_opcode(p, in);
	if (ptx_accept(p, ';'))
		return;
	do {
		if (in->nopnds == PTX_MAX_OPNDS)
			ptx_fail(p, p->tok.pos, "too many operands (at most %d)",
				 PTX_MAX_OPNDS);
		ptx_parse_opnd(p, in, &in->opnds[in->nopnds++]);
		if (in->nopnds == 1 && ptx_accept(p, '|')) {
			in->has_pipe = true;
			in->pipe_reg = ptx_parse_reg(p);
		}
	} while (ptx_accept(p, ','));
	ptx_expect(p, ';');
}

/* --- directives skipped or recorded -------------------------------------- */

/* .pragma "a", "b"; */
static void ptx_skip_pragma(struct ptx_parser *p)
{
	ptx_next(p);
	do {
		if (p->tok.kind != PTX_TK_STR)
			ptx_expected(p, "a string");
		ptx_next(p);
	} while (ptx_accept(p, ','));
	ptx_expect(p, ';');
}

/*
 * .loc FILE LINE COL, then optional parts (function_name ..., inlined_at
 * ...) up to the end of the line; .loc has no ';'.
 */
static void ptx_parse_loc(struct ptx_parser *p)
{
	uint32_t line = p->tok.pos.line;

	ptx_next(p);
	p->loc_file = (uint32_t)ptx_parse_uint(p, UINT32_MAX);
	p->loc_line = (uint32_t)ptx_parse_uint(p, UINT32_MAX);
	/*
	 * The rest of the line (function_name, inlined_at) is skipped, but
	 * not a brace: braces are the module's structure, which the linker
	 * cuts by them alone (ptx_link.c), so a brace swallowed here would
	 * make the two disagree on where a function ends.
	 */
	while (p->tok.kind != PTX_TK_EOF && p->tok.pos.line == line &&
	       !ptx_tok_is(&p->tok, PTX_TK_PUNCT, "{") &&
	       !ptx_tok_is(&p->tok, PTX_TK_PUNCT, "}"))
		ptx_next(p);
}

/* .file N "path" [, timestamp, size] */
static void ptx_parse_file(struct ptx_parser *p)
{
	struct ptx_file *f;
	uint32_t index;
	size_t i, n = 0;

	ptx_next(p);
	index = (uint32_t)ptx_parse_uint(p, UINT32_MAX);
	if (p->tok.kind != PTX_TK_STR)
		ptx_expected(p, "a file name");
	f = ptx_push(p, p->m->files, p->m->nfiles);
	f->index = index;
	f->path = ptx_strndup(p, p->tok.s, p->tok.len);
	for (i = 0; i < p->tok.len; i++) {
		if (p->tok.s[i] == '\\' && i + 1 < p->tok.len)
			i++;
		f->path[n++] = p->tok.s[i];
	}
	f->path[n] = '\0';
	ptx_next(p);
	while (ptx_accept(p, ','))
		ptx_parse_uint(p, UINT64_MAX);
}

/* .section .debug_xxx { ... }: debug data, not needed to run. */
static void ptx_skip_section(struct ptx_parser *p)
{
	struct ptx_pos open;
	uint32_t depth = 1;

	ptx_next(p);
	if (p->tok.kind != PTX_TK_DIR && p->tok.kind != PTX_TK_WORD)
		ptx_expected(p, "a section name");
	ptx_next(p);
	open = p->tok.pos;
	ptx_expect(p, '{');
	while (depth) {
		if (p->tok.kind == PTX_TK_EOF)
			ptx_fail(p, open, "unterminated section");
		if (ptx_is(p, '{'))
			depth++;
		else if (ptx_is(p, '}'))
			depth--;
		ptx_next(p);
	}
}

/* --- functions ----------------------------------------------------------- */

static void ptx_parse_params(struct ptx_parser *p, struct ptx_var **vars,
			     uint32_t *n)
{
	ptx_expect(p, '(');
	if (ptx_accept(p, ')'))
		return;
	do {
		struct ptx_var *v = ptx_push(p, *vars, *n);

		if (ptx_is_dir(p, ".param"))
			v->space = PTX_S_PARAM;
		else if (ptx_is_dir(p, ".reg"))
			v->space = PTX_S_REG;
		else
			ptx_expected(p, "'.param'");
		ptx_next(p);
		ptx_parse_decl_type(p, v);
		ptx_expect_name(p, "a parameter name");
		v->pos = p->tok.pos;
		v->name = ptx_strndup(p, p->tok.s, p->tok.len);
		ptx_next(p);
		ptx_parse_dims(p, v);
	} while (ptx_accept(p, ','));
	ptx_expect(p, ')');
}

/* .maxntid 256, 1, 1: absent components are 1. */
static void ptx_parse_ntid(struct ptx_parser *p, uint32_t d[3])
{
	int i;

	ptx_next(p);
	d[0] = (uint32_t)ptx_parse_uint(p, UINT32_MAX);
	for (i = 1; i < 3; i++) {
		d[i] = 1;
		if (ptx_accept(p, ','))
			d[i] = (uint32_t)ptx_parse_uint(p, UINT32_MAX);
	}
}

/* Performance directives between the parameters and the body. */
static void ptx_parse_perf(struct ptx_parser *p, struct ptx_func *fn)
{
	uint32_t ignored[3];

	for (;;) {
		if (ptx_is_dir(p, ".maxntid")) {
			ptx_parse_ntid(p, fn->maxntid);
		} else if (ptx_is_dir(p, ".reqntid")) {
			ptx_parse_ntid(p, fn->reqntid);
		} else if (ptx_is_dir(p, ".reqnctapercluster")) {
			ptx_parse_ntid(p, ignored);
		} else if (ptx_is_dir(p, ".minnctapersm")) {
			ptx_next(p);
			fn->minnctapersm = (uint32_t)ptx_parse_uint(p, UINT32_MAX);
		} else if (ptx_is_dir(p, ".maxnreg")) {
			ptx_next(p);
			fn->maxnreg = (uint32_t)ptx_parse_uint(p, UINT32_MAX);
		} else if (ptx_is_dir(p, ".maxclusterrank")) {
			ptx_next(p);
			ptx_parse_uint(p, UINT32_MAX);
		} else if (ptx_is_dir(p, ".explicitcluster") ||
			   ptx_is_dir(p, ".noreturn")) {
			ptx_next(p);
		} else if (ptx_is_dir(p, ".pragma")) {
			ptx_skip_pragma(p);
		} else {
			return;
		}
	}
}

/*
 * Declares the function at module scope. A definition may follow
 * prototypes (-rdc, .extern); it then takes the first declaration's slot,
 * which earlier calls already point to. Returns the function's index.
 */
static uint32_t ptx_declare_func(struct ptx_parser *p, uint32_t idx)
{
	struct ptx_func *fn = &p->m->funcs[idx], *old;
	struct ptx_name *e = ptx_lookup(&p->names, fn->name, strlen(fn->name));
	char *name;

	if (!e) {
		ptx_declare_sym(p, fn->name, fn->pos, PTX_SYM_FUNC, idx);
		return idx;
	}
	if (e->kind != PTX_N_SYM || e->sym.kind != PTX_SYM_FUNC)
		ptx_fail(p, fn->pos, "duplicate declaration of '%s'", fn->name);
	old = &p->m->funcs[e->sym.index];
	if (fn->has_body && old->has_body)
		ptx_fail(p, fn->pos, "duplicate definition of '%s'", fn->name);
	if (fn->has_body) {
		name = old->name;
		old->name = NULL;
		ptx_func_clear(old);
		*old = *fn;
		free(old->name);
		old->name = name;
		memset(fn, 0, sizeof(*fn));
	} else {
		ptx_func_clear(fn);
	}
	p->m->nfuncs--;
	return e->sym.index;
}

/* Parameters and return values become names of the function's scope. */
static void ptx_declare_params(struct ptx_parser *p, struct ptx_func *fn)
{
	uint32_t i;

	p->depth = 1;
	for (i = 0; i < fn->nrets; i++)
		ptx_declare_sym(p, fn->rets[i].name, fn->rets[i].pos,
				PTX_SYM_RET, i);
	for (i = 0; i < fn->nparams; i++)
		ptx_declare_sym(p, fn->params[i].name, fn->params[i].pos,
				PTX_SYM_PARAM, i);
}

static void ptx_parse_stmt(struct ptx_parser *p);

/* Statements up to the '}' matching the one just read at @open. */
static void ptx_parse_block(struct ptx_parser *p, struct ptx_pos open)
{
	while (!ptx_accept(p, '}')) {
		if (p->tok.kind == PTX_TK_EOF)
			ptx_fail(p, open, "unterminated block");
		ptx_parse_stmt(p);
	}
}

static void ptx_parse_stmt(struct ptx_parser *p)
{
	static const struct ptx_attrs none;
	struct ptx_pos pos = p->tok.pos;

	if (ptx_accept(p, '{')) {
		if (p->depth == PTX_MAX_DEPTH)
			ptx_fail(p, pos, "blocks nested too deeply");
		p->depth++;
		ptx_parse_block(p, pos);
		ptx_scope_pop(&p->names, p->depth);
		p->depth--;
	} else if (ptx_is_dir(p, ".reg")) {
		ptx_parse_regs(p);
	} else if (ptx_space_dir(p) != PTX_S_NONE) {
		ptx_parse_vars(p, &none, ptx_space_dir(p));
	} else if (ptx_is_dir(p, ".pragma")) {
		ptx_skip_pragma(p);
	} else if (ptx_is_dir(p, ".loc")) {
		ptx_parse_loc(p);
	} else if (p->tok.kind == PTX_TK_DIR) {
		ptx_expected(p, "an instruction");
	} else if (p->tok.kind == PTX_TK_WORD &&
		   ptx_tok_is(ptx_peek(p), PTX_TK_PUNCT, ":")) {
		ptx_parse_label(p);
	} else {
		ptx_parse_insn(p);
	}
}

static void ptx_parse_body(struct ptx_parser *p, struct ptx_func *fn)
{
	struct ptx_pos open = p->tok.pos;
	uint32_t i;

	p->fn = fn;
	p->loc_file = 0;
	p->loc_line = 0;
	ptx_next(p);
	ptx_parse_block(p, open);
	for (i = 0; i < fn->nlabels; i++)
		if (!fn->labels[i].defined)
			ptx_fail(p, fn->labels[i].pos, "undefined label '%s'",
				 fn->labels[i].name);
	ptx_scope_pop(&p->labels, 0);
	p->fn = NULL;
}

/* [.visible ...] .entry/.func [(rets)] name [(params)] [perf] ; or { } */
static void ptx_parse_func(struct ptx_parser *p, const struct ptx_attrs *a)
{
	struct ptx_func *fn;
	uint32_t idx = p->m->nfuncs;

	fn = ptx_push(p, p->m->funcs, p->m->nfuncs);
	fn->entry = ptx_is_dir(p, ".entry");
	fn->visible = a->visible;
	fn->is_extern = a->is_external;
	fn->weak = a->weak;
	ptx_next(p);
	if (!fn->entry && ptx_is(p, '('))
		ptx_parse_params(p, &fn->rets, &fn->nrets);
	ptx_expect_name(p, "a function name");
	fn->pos = p->tok.pos;
	fn->name = ptx_strndup(p, p->tok.s, p->tok.len);
	ptx_next(p);
	if (ptx_is(p, '('))
		ptx_parse_params(p, &fn->params, &fn->nparams);
	ptx_parse_perf(p, fn);
	if (!ptx_is(p, ';') && !ptx_is(p, '{'))
		ptx_expected(p, "'{' or ';'");
	fn->has_body = ptx_is(p, '{');
	/* checks the header's names before a prototype can be dropped */
	ptx_declare_params(p, fn);
	ptx_scope_pop(&p->names, 1);
	p->depth = 0;
	idx = ptx_declare_func(p, idx);
	fn = &p->m->funcs[idx];
	if (ptx_accept(p, ';'))
		return;
	ptx_declare_params(p, fn);
	ptx_parse_body(p, fn);
	ptx_scope_pop(&p->names, 1);
	p->depth = 0;
}

/* --- the module ----------------------------------------------------------- */

/* .version 9.0, .target sm_75[, debug], .address_size 64 */
static void ptx_parse_header(struct ptx_parser *p)
{
	struct ptx_module *m = p->m;
	const char *s, *dot;
	uint64_t major, minor;
	bool range = true;

	if (!ptx_is_dir(p, ".version"))
		ptx_fail(p, p->tok.pos, "expected '.version' directive");
	ptx_next(p);
	s = p->tok.s;
	dot = p->tok.kind == PTX_TK_NUM ? memchr(s, '.', p->tok.len) : NULL;
	if (!dot || !ptx_conv(s, (size_t)(dot - s), 10, &major, &range) ||
	    !ptx_conv(dot + 1, p->tok.len - (size_t)(dot - s) - 1, 10, &minor,
		      &range) || !range || major > 99 || minor > 99)
		ptx_expected(p, "a version number");
	m->version_major = (uint32_t)major;
	m->version_minor = (uint32_t)minor;
	ptx_next(p);
	if (!ptx_is_dir(p, ".target"))
		ptx_fail(p, p->tok.pos, "expected '.target' directive");
	ptx_next(p);
	do {
		ptx_expect_name(p, "a target name");
		if (ptx_tok_is(&p->tok, PTX_TK_WORD, "debug"))
			m->target_debug = true;
		else if (!m->target[0] && p->tok.len < sizeof(m->target))
			memcpy(m->target, p->tok.s, p->tok.len);
		else if (!m->target[0])
			ptx_fail(p, p->tok.pos, "target name too long");
		ptx_next(p);
	} while (ptx_accept(p, ','));
	m->address_size = 32;	/* PTX's default without the directive */
	if (ptx_is_dir(p, ".address_size")) {
		ptx_next(p);
		if (!ptx_tok_is(&p->tok, PTX_TK_NUM, "32") &&
		    !ptx_tok_is(&p->tok, PTX_TK_NUM, "64"))
			ptx_fail(p, p->tok.pos, "address size must be 32 or 64");
		m->address_size = (uint32_t)ptx_parse_uint(p, 64);
	}
}

static void ptx_parse_toplevel(struct ptx_parser *p)
{
	struct ptx_attrs a = { 0 };
	enum ptx_space space;

	if (ptx_is_dir(p, ".file")) {
		ptx_parse_file(p);
		return;
	}
	if (ptx_is_dir(p, ".section")) {
		ptx_skip_section(p);
		return;
	}
	if (ptx_is_dir(p, ".pragma")) {
		ptx_skip_pragma(p);
		return;
	}
	for (;;) {
		if (ptx_is_dir(p, ".visible"))
			a.visible = true;
		else if (ptx_is_dir(p, ".extern"))
			a.is_external = true;
		else if (ptx_is_dir(p, ".weak") || ptx_is_dir(p, ".common"))
			a.weak = true;
		else
			break;
		ptx_next(p);
	}
	space = ptx_space_dir(p);
	if (ptx_is_dir(p, ".entry") || ptx_is_dir(p, ".func"))
		ptx_parse_func(p, &a);
	else if (space != PTX_S_NONE && space != PTX_S_PARAM)
		ptx_parse_vars(p, &a, space);
	else
		ptx_expected(p, "a declaration");
}

/* Calls to functions declared after them, now that all are known. */
static void ptx_resolve_calls(struct ptx_parser *p)
{
	uint32_t i;

	for (i = 0; i < p->nfixups; i++) {
		struct ptx_fixup *f = &p->fixups[i];
		struct ptx_name *e = ptx_lookup(&p->names, f->name,
						strlen(f->name));
		struct ptx_func *fn = &p->m->funcs[f->func];

		if (!e || e->kind != PTX_N_SYM || e->sym.kind != PTX_SYM_FUNC)
			ptx_fail(p, f->pos, "unknown function '%s'", f->name);
		fn->insns[f->insn].opnds[f->opnd].sym.index = e->sym.index;
	}
}

/* Functions named in initializers, now that all are known. */
static void ptx_resolve_inits(struct ptx_parser *p)
{
	uint32_t i;

	for (i = 0; i < p->ninit_refs; i++) {
		const struct ptx_init_ref *r = &p->init_refs[i];
		struct ptx_name *e = ptx_lookup(&p->names, r->name,
						strlen(r->name));
		struct ptx_var *v = &p->m->vars[r->var];
		struct ptx_init_func *f;

		if (!e || e->kind != PTX_N_SYM)
			ptx_fail(p, r->pos, "unknown symbol '%s'", r->name);
		if (e->sym.kind == PTX_SYM_MODVAR) {
			const struct ptx_var *x = &p->m->vars[e->sym.index];
			struct ptx_init_var *iv;

			if (r->masked)
				ptx_fail(p, r->pos, "a variable's address cannot fill part of an element");
			if (x->space != PTX_S_GLOBAL && x->space != PTX_S_CONST)
				ptx_fail(p, r->pos, "only .global and .const variables have addresses for initializers");
			iv = ptx_push(p, v->init_vars, v->ninit_vars);
			iv->offset = r->offset;
			iv->var = e->sym.index;
			iv->addend = r->addend;
			continue;
		}
		if (e->sym.kind != PTX_SYM_FUNC)
			ptx_fail(p, r->pos, "'%s' has no address for an initializer", r->name);
		if (r->generic || r->addend)
			ptx_fail(p, r->pos, "'%s': a function's address stands alone", r->name);
		f = ptx_push(p, v->init_funcs, v->ninit_funcs);
		f->offset = r->offset;
		f->func = e->sym.index;
		f->shift = r->shift;
	}
}

static void ptx_parser_free(struct ptx_parser *p)
{
	uint32_t i;

	for (i = 0; i < p->nfixups; i++)
		free(p->fixups[i].name);
	free(p->fixups);
	for (i = 0; i < p->ninit_refs; i++)
		free(p->init_refs[i].name);
	free(p->init_refs);
	ptx_symtab_free(&p->names);
	ptx_symtab_free(&p->labels);
	free(p);
}

/*
 * Errors longjmp back here from any depth: everything allocated by then
 * hangs off the module or the parser, so freeing those two undoes it all.
 */
int ptx_parse(const char *text, size_t len, struct ptx_module **out,
	      char *err, size_t err_len)
{
	struct ptx_parser *p = calloc(1, sizeof(*p));

	*out = NULL;
	if (err && err_len)
		err[0] = '\0';
	if (p)
		p->m = calloc(1, sizeof(*p->m));
	if (!p || !p->m) {
		free(p);
		if (err && err_len)
			snprintf(err, err_len, "1:1: out of memory");
		return -1;
	}
	p->err = err;
	p->err_len = err_len;
	if (setjmp(p->fail)) {
		ptx_free(p->m);
		ptx_parser_free(p);
		return -1;
	}
	ptx_lex_init(&p->lx, text ? text : "", text ? len : 0);
	ptx_next(p);
	ptx_parse_header(p);
	while (p->tok.kind != PTX_TK_EOF)
		ptx_parse_toplevel(p);
	ptx_resolve_calls(p);
	ptx_resolve_inits(p);
	*out = p->m;
	ptx_parser_free(p);
	return 0;
}
