// SPDX-License-Identifier: MIT
/*
 * The PTX linker behind cuLink*: several PTX modules merged into one PTX
 * module that the JIT compiles as a whole, with the symbol rules of a
 * device linker (jit.h). Each input is cut into its top-level
 * constructs (header, .file, variables, functions); the merged text has
 * one header, then every input's variables, then every input's
 * functions, so that a variable an input declares .extern is declared,
 * by its definition in another input, before any code uses it. Extern
 * function prototypes stay: the parser binds a prototype and a
 * definition of one name wherever each comes.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jit.h"
#include "ptx_lex.h"
#include "ptx_ops.h"

/* --- cutting an input into its top-level constructs --------------------- */

enum vg_seg_kind {
	VG_SEG_HEADER,		/* .version, .target, .address_size: dropped */
	VG_SEG_FILE,		/* .file N "path": renumbered */
	VG_SEG_VAR,
	VG_SEG_FUNC,		/* .entry or .func, prototype or definition */
	VG_SEG_DEBUG,		/* .section: debug data, dropped */
	VG_SEG_OTHER,		/* .pragma */
};

struct vg_seg {
	enum vg_seg_kind kind;
	const char *start, *end;	/* the text, from the first token's start */
	struct ptx_pos first, last;	/* of its first and last tokens */
	uint32_t nvars, ndropped;	/* variables declared in it, dropped */
	bool drop;			/* a weak definition that lost */
};

struct vg_segs {
	struct vg_seg *v;
	uint32_t n, cap;
};

static bool vg_tok_is(const struct ptx_tok *t, enum ptx_tok_kind kind,
		      const char *s)
{
	return t->kind == kind && t->len == strlen(s) && !memcmp(t->s, s, t->len);
}

static const char *vg_tok_end(const struct ptx_tok *t)
{
	return t->s + t->len + (t->kind == PTX_TK_STR);	/* the closing quote */
}

static bool vg_peek_is(const struct ptx_lex *lx, const char *punct)
{
	struct ptx_lex copy = *lx;
	struct ptx_tok t;

	ptx_lex_next(&copy, &t);
	return vg_tok_is(&t, PTX_TK_PUNCT, punct);
}

/* One construct from @t (its first token); @t ends on its last token. */
static int vg_cut_one(struct ptx_lex *lx, struct ptx_tok *t, struct vg_seg *s)
{
	bool func = false, pragma, section;
	uint32_t depth = 0;

	if (vg_tok_is(t, PTX_TK_DIR, ".version") ||
	    vg_tok_is(t, PTX_TK_DIR, ".address_size")) {
		s->kind = VG_SEG_HEADER;
		ptx_lex_next(lx, t);
		return 0;
	}
	if (vg_tok_is(t, PTX_TK_DIR, ".target") || vg_tok_is(t, PTX_TK_DIR, ".file")) {
		s->kind = t->s[1] == 't' ? VG_SEG_HEADER : VG_SEG_FILE;
		ptx_lex_next(lx, t);
		if (s->kind == VG_SEG_FILE)
			ptx_lex_next(lx, t);	/* the index, then the path */
		while (vg_peek_is(lx, ",")) {
			ptx_lex_next(lx, t);
			ptx_lex_next(lx, t);
		}
		return 0;
	}
	pragma = vg_tok_is(t, PTX_TK_DIR, ".pragma");
	section = vg_tok_is(t, PTX_TK_DIR, ".section");
	for (;;) {
		if (t->kind == PTX_TK_EOF || t->kind == PTX_TK_ERROR)
			return -1;
		if (vg_tok_is(t, PTX_TK_DIR, ".entry") || vg_tok_is(t, PTX_TK_DIR, ".func"))
			func = true;
		if (vg_tok_is(t, PTX_TK_PUNCT, "{")) {
			depth++;
		} else if (vg_tok_is(t, PTX_TK_PUNCT, "}")) {
			if (!depth)
				return -1;
			if (!--depth && (func || section))
				break;
		} else if (vg_tok_is(t, PTX_TK_PUNCT, ";") && !depth) {
			break;
		}
		ptx_lex_next(lx, t);
	}
	s->kind = section ? VG_SEG_DEBUG : pragma ? VG_SEG_OTHER :
		func ? VG_SEG_FUNC : VG_SEG_VAR;
	return 0;
}

/* The input's constructs, in order; its text parsed, so only memory fails. */
static int vg_cut(const struct vg_link_input *in, struct vg_segs *segs)
{
	struct ptx_lex lx;
	struct ptx_tok t;

	ptx_lex_init(&lx, in->text, in->len);
	ptx_lex_next(&lx, &t);
	while (t.kind != PTX_TK_EOF) {
		struct vg_seg s = { .start = t.s, .first = t.pos };

		if (vg_cut_one(&lx, &t, &s))
			return -1;
		s.end = vg_tok_end(&t);
		s.last = t.pos;
		if (segs->n == segs->cap) {
			uint32_t cap = segs->cap ? segs->cap * 2 : 64;
			struct vg_seg *v = realloc(segs->v, cap * sizeof(*v));

			if (!v)
				return -1;
			segs->v = v;
			segs->cap = cap;
		}
		segs->v[segs->n++] = s;
		ptx_lex_next(&lx, &t);
	}
	return 0;
}

static int vg_pos_cmp(struct ptx_pos a, struct ptx_pos b)
{
	if (a.line != b.line)
		return a.line < b.line ? -1 : 1;
	return a.col < b.col ? -1 : a.col > b.col;
}

/* The construct that holds the name declared at @pos. */
static struct vg_seg *vg_seg_at(struct vg_segs *segs, struct ptx_pos pos)
{
	uint32_t lo = 0, hi = segs->n;

	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (vg_pos_cmp(segs->v[mid].last, pos) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < segs->n && vg_pos_cmp(segs->v[lo].first, pos) <= 0 ?
		&segs->v[lo] : NULL;
}

/* --- names ------------------------------------------------------------------ */

/* A name in the link's table, or in an input's table of renames. */
struct vg_sym {
	const char *name;	/* NULL: a free slot */
	int def;		/* input of the global definition, or -1 */
	bool def_weak, def_func;
	uint32_t def_index;	/* in that input's vars or funcs */
	bool claimed;		/* no private definition may keep this name */
	int shared_kept;	/* input whose .extern .shared stays, or -1 */
	char *to;		/* a rename: the new name */
};

struct vg_symtab {
	struct vg_sym *v;
	uint32_t cap, n;
};


/* FNV-1a: symbol names are short, and the table only needs a spread. */
static uint32_t vg_name_hash(const char *name, size_t len)
{
	uint32_t h = 2166136261u;

	while (len--)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	return h;
}
static struct vg_sym *vg_sym(struct vg_symtab *t, const char *name, size_t len,
			     bool add)
{
	uint32_t i;

	if (t->n * 2 >= t->cap) {
		struct vg_symtab bigger = { .cap = t->cap ? t->cap * 2 : 256 };

		if (!add)
			goto find;
		bigger.v = calloc(bigger.cap, sizeof(*bigger.v));
		if (!bigger.v)
			return NULL;
		for (i = 0; i < t->cap; i++) {
			struct vg_sym *e;

			if (!t->v[i].name)
				continue;
			e = vg_sym(&bigger, t->v[i].name, strlen(t->v[i].name), true);
			*e = t->v[i];
		}
		free(t->v);
		*t = bigger;
	}
find:
	if (!t->cap)
		return NULL;
	for (i = vg_name_hash(name, len) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
		struct vg_sym *e = &t->v[i];

		if (!e->name) {
			if (!add)
				return NULL;
			e->name = name;
			e->def = -1;
			e->shared_kept = -1;
			t->n++;
			return e;
		}
		if (strlen(e->name) == len && !memcmp(e->name, name, len))
			return e;
	}
}

static void vg_symtab_free(struct vg_symtab *t)
{
	uint32_t i;

	for (i = 0; i < t->cap; i++)
		free(t->v[i].to);
	free(t->v);
	memset(t, 0, sizeof(*t));
}

/* --- the link --------------------------------------------------------------- */

struct vg_link {
	const struct vg_link_input *in;
	unsigned int n;
	struct vg_symtab syms;
	struct vg_symtab *renames;	/* per input */
	struct vg_segs *segs;		/* per input */
	bool **used;			/* per input: module variables used */
	bool **called;			/* per input: functions used */
	char *err;
	size_t err_len, err_off;
	bool failed, oom;
};

/* Adds a line to the error log, as nvlink writes them. */
__attribute__((format(printf, 2, 3)))
static void vg_link_error(struct vg_link *l, const char *fmt, ...)
{
	va_list ap;
	int n;

	l->failed = true;
	if (l->err_off + 1 >= l->err_len)
		return;
	if (l->err_off)
		l->err[l->err_off++] = '\n';
	va_start(ap, fmt);
	n = vsnprintf(l->err + l->err_off, l->err_len - l->err_off, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->err_off += (size_t)n < l->err_len - l->err_off ? (size_t)n :
			l->err_len - l->err_off - 1;
}

static bool vg_var_global(const struct ptx_var *v)
{
	return !v->is_extern && (v->visible || v->weak);
}

static bool vg_func_global(const struct ptx_func *f)
{
	return f->has_body && (f->visible || f->weak);
}

/* Records @name's global definition in input @i; false on a conflict. */
static void vg_define(struct vg_link *l, unsigned int i, const char *name,
		      bool weak, bool func, uint32_t index)
{
	struct vg_sym *e = vg_sym(&l->syms, name, strlen(name), true);

	if (!e) {
		l->oom = true;
		return;
	}
	e->claimed = true;
	if (e->def >= 0 && !e->def_weak && !weak) {
		vg_link_error(l, "error   : Multiple definition of '%s' in '%s', first defined in '%s'",
			      name, l->in[i].name, l->in[e->def].name);
		return;
	}
	if (e->def >= 0 && (weak || !e->def_weak))
		return;		/* the first, or the non-weak one, stays */
	e->def = (int)i;
	e->def_weak = weak;
	e->def_func = func;
	e->def_index = index;
}

static void vg_define_all(struct vg_link *l)
{
	unsigned int i;
	uint32_t j;

	for (i = 0; i < l->n; i++) {
		const struct ptx_module *m = l->in[i].m;

		for (j = 0; j < m->nvars; j++)
			if (vg_var_global(&m->vars[j]))
				vg_define(l, i, m->vars[j].name, m->vars[j].weak,
					  false, j);
		for (j = 0; j < m->nfuncs; j++)
			if (vg_func_global(&m->funcs[j]))
				vg_define(l, i, m->funcs[j].name, m->funcs[j].weak,
					  true, j);
	}
}

int vg_link_check(const struct vg_link_input *in, unsigned int n, char *err,
		  size_t err_len)
{
	struct vg_link l = { .in = in, .n = n, .err = err, .err_len = err_len };

	if (err_len)
		err[0] = 0;
	vg_define_all(&l);
	vg_symtab_free(&l.syms);
	if (l.oom && !l.failed)
		vg_link_error(&l, "error   : out of memory");
	return l.failed || l.oom ? -1 : 0;
}

/* Marks what one operand names: a module variable or a function. */
static void vg_mark_use(const struct ptx_opnd *op, bool *used, bool *called)
{
	uint32_t v;

	if (op->kind == PTX_O_LIST) {	/* a call's arguments may be functions */
		for (v = 0; v < op->nvec; v++)
			if (op->list[v].kind == PTX_SYM_FUNC)
				called[op->list[v].index] = true;
		return;
	}
	if (op->kind != PTX_O_SYM &&
	    !(op->kind == PTX_O_ADDR && op->base == PTX_BASE_SYM))
		return;
	if (op->sym.kind == PTX_SYM_MODVAR)
		used[op->sym.index] = true;
	else if (op->sym.kind == PTX_SYM_FUNC)
		called[op->sym.index] = true;
}

/*
 * Which module variables and functions the input's code names, and which
 * functions its initializers name (tables of function pointers).
 */
static int vg_find_uses(struct vg_link *l, unsigned int i)
{
	const struct ptx_module *m = l->in[i].m;
	uint32_t f, k, o;

	l->used[i] = calloc(m->nvars + 1, sizeof(bool));
	l->called[i] = calloc(m->nfuncs + 1, sizeof(bool));
	if (!l->used[i] || !l->called[i])
		return -1;
	for (k = 0; k < m->nvars; k++)
		for (o = 0; o < m->vars[k].ninit_funcs; o++)
			l->called[i][m->vars[k].init_funcs[o].func] = true;
	for (k = 0; k < m->nvars; k++)
		for (o = 0; o < m->vars[k].ninit_vars; o++)
			l->used[i][m->vars[k].init_vars[o].var] = true;
	for (f = 0; f < m->nfuncs; f++) {
		const struct ptx_func *fn = &m->funcs[f];

		for (k = 0; k < fn->ninsns; k++)
			for (o = 0; o < fn->insns[k].nopnds; o++)
				vg_mark_use(&fn->insns[k].opnds[o], l->used[i],
					    l->called[i]);
	}
	return 0;
}

static uint64_t vg_param_bytes(const struct ptx_var *p)
{
	return (uint64_t)ptx_type_bits(p->type) / 8 * p->vec *
		(p->count ? p->count : 1);
}

/* A prototype and the definition it binds to must agree on the call. */
static void vg_check_call(struct vg_link *l, unsigned int i,
			  const struct ptx_func *proto, const struct vg_sym *e)
{
	const struct ptx_func *def = &l->in[e->def].m->funcs[e->def_index];
	uint32_t k;
	bool same = proto->nparams == def->nparams && proto->nrets == def->nrets;

	for (k = 0; same && k < proto->nparams; k++)
		same = vg_param_bytes(&proto->params[k]) == vg_param_bytes(&def->params[k]);
	for (k = 0; same && k < proto->nrets; k++)
		same = vg_param_bytes(&proto->rets[k]) == vg_param_bytes(&def->rets[k]);
	if (!same)
		vg_link_error(l, "error   : Prototype of '%s' in '%s' does not match its definition in '%s'",
			      proto->name, l->in[i].name, l->in[e->def].name);
}

/* A variable declaration that goes: its construct goes once all do. */
static void vg_drop_var(struct vg_link *l, unsigned int i, const struct ptx_var *v)
{
	struct vg_seg *s = vg_seg_at(&l->segs[i], v->pos);

	if (s)
		s->ndropped++;
}

/* Binds the input's extern declarations; drops the losers of weak pairs. */
static void vg_resolve(struct vg_link *l, unsigned int i)
{
	const struct ptx_module *m = l->in[i].m;
	uint32_t j;

	for (j = 0; j < m->nvars; j++) {
		const struct ptx_var *v = &m->vars[j];
		struct vg_sym *e = vg_sym(&l->syms, v->name, strlen(v->name), true);

		if (!e) {
			l->oom = true;
			return;
		}
		if (vg_var_global(v)) {
			if (e->def != (int)i || e->def_index != j || e->def_func)
				vg_drop_var(l, i, v);
			continue;
		}
		if (!v->is_extern)
			continue;
		e->claimed = true;
		if (e->def >= 0 && e->def_func) {
			vg_link_error(l, "error   : '%s' is a variable in '%s' but a function in '%s'",
				      v->name, l->in[i].name, l->in[e->def].name);
		} else if (e->def >= 0) {
			vg_drop_var(l, i, v);	/* the definition declares it */
		} else if (v->space == PTX_S_SHARED) {
			/* Dynamic shared memory: one declaration is enough. */
			if (e->shared_kept >= 0)
				vg_drop_var(l, i, v);
			else
				e->shared_kept = (int)i;
		} else if (l->used[i][j]) {
			vg_link_error(l, "error   : Undefined reference to '%s' in '%s'",
				      v->name, l->in[i].name);
		} else {
			vg_drop_var(l, i, v);	/* declared, never used */
		}
	}
	for (j = 0; j < m->nfuncs; j++) {
		const struct ptx_func *f = &m->funcs[j];
		struct vg_sym *e = vg_sym(&l->syms, f->name, strlen(f->name), true);
		struct vg_seg *s;

		if (!e) {
			l->oom = true;
			return;
		}
		if (vg_func_global(f)) {
			s = vg_seg_at(&l->segs[i], f->pos);
			if ((e->def != (int)i || e->def_index != j) && s)
				s->drop = true;	/* a weak one that lost */
			continue;
		}
		if (f->has_body)
			continue;
		e->claimed = true;
		if (e->def >= 0 && !e->def_func)
			vg_link_error(l, "error   : '%s' is a function in '%s' but a variable in '%s'",
				      f->name, l->in[i].name, l->in[e->def].name);
		else if (e->def >= 0)
			vg_check_call(l, i, f, e);
		/*
		 * The functions the JIT lowers itself (vprintf, __assertfail,
		 * malloc, free, cudaGraphSetConditional) need no definition;
		 * others have to be defined. Asked of the JIT's own
		 * predicates, so that a module the JIT compiles alone also
		 * links alone.
		 */
		else if (l->called[i][j] && strcmp(f->name, "vprintf") &&
			 !ptx_assert_func(f->name) && !ptx_heap_func(f->name) &&
			 !ptx_cond_func(f->name))
			vg_link_error(l, "error   : Undefined reference to '%s' in '%s'",
				      f->name, l->in[i].name);
	}
}

/* A name no input uses, for a private definition that must move aside. */
static char *vg_fresh_name(struct vg_link *l, const char *name, unsigned int i)
{
	unsigned int k;
	char *to;
	int r;

	for (k = 0; k < 1000; k++) {
		r = k ? asprintf(&to, "%s$vg%u_%u", name, i, k) :
			asprintf(&to, "%s$vg%u", name, i);
		if (r < 0)
			return NULL;
		if (!vg_sym(&l->syms, to, strlen(to), false))
			return to;
		free(to);
	}
	return NULL;
}

/* Private definitions keep their names unless another input has them. */
static void vg_rename(struct vg_link *l, unsigned int i, const char *name)
{
	struct vg_sym *e = vg_sym(&l->syms, name, strlen(name), true);
	struct vg_sym *r;
	char *to;

	if (!e) {
		l->oom = true;
		return;
	}
	if (!e->claimed) {
		e->claimed = true;
		return;
	}
	to = vg_fresh_name(l, name, i);
	r = to ? vg_sym(&l->renames[i], name, strlen(name), true) : NULL;
	if (!r || !vg_sym(&l->syms, to, strlen(to), true)) {
		free(to);
		l->oom = true;
		return;
	}
	free(r->to);
	r->to = to;
	vg_sym(&l->syms, to, strlen(to), false)->claimed = true;
}

static void vg_rename_private(struct vg_link *l)
{
	unsigned int i;
	uint32_t j;

	/* Every name any input declares is known before any is renamed. */
	for (i = 0; i < l->n; i++) {
		const struct ptx_module *m = l->in[i].m;

		for (j = 0; j < m->nvars; j++)
			if (!vg_sym(&l->syms, m->vars[j].name, strlen(m->vars[j].name), true))
				l->oom = true;
		for (j = 0; j < m->nfuncs; j++)
			if (!vg_sym(&l->syms, m->funcs[j].name, strlen(m->funcs[j].name), true))
				l->oom = true;
	}
	for (i = 0; i < l->n && !l->oom; i++) {
		const struct ptx_module *m = l->in[i].m;

		for (j = 0; j < m->nvars; j++)
			if (!m->vars[j].is_extern && !vg_var_global(&m->vars[j]))
				vg_rename(l, i, m->vars[j].name);
		for (j = 0; j < m->nfuncs; j++)
			if (m->funcs[j].has_body && !vg_func_global(&m->funcs[j]))
				vg_rename(l, i, m->funcs[j].name);
	}
}

/* --- writing the merged text ------------------------------------------------- */

struct vg_buf {
	char *p;
	size_t n, cap;
	uint32_t lines;		/* newlines written */
	bool oom;
};

static void vg_put(struct vg_buf *b, const char *s, size_t len)
{
	size_t i;

	if (b->oom)
		return;
	if (b->n + len + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *p;

		while (cap < b->n + len + 1)
			cap *= 2;
		p = realloc(b->p, cap);
		if (!p) {
			b->oom = true;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	for (i = 0; i < len; i++)
		b->lines += s[i] == '\n';
	memcpy(b->p + b->n, s, len);
	b->n += len;
	b->p[b->n] = 0;
}

static void vg_puts(struct vg_buf *b, const char *s)
{
	vg_put(b, s, strlen(s));
}

/* A construct, renamed and with its file numbers moved by @file_base. */
static void vg_emit_seg(struct vg_link *l, struct vg_buf *b, unsigned int i,
			const struct vg_seg *s, uint32_t file_base)
{
	struct vg_symtab *ren = &l->renames[i];
	const char *at = s->start;
	bool file_num = false;
	struct ptx_lex lx;
	struct ptx_tok t;
	uint32_t c;

	for (c = 1; c < s->first.col; c++)	/* columns stay as they were */
		vg_put(b, " ", 1);
	ptx_lex_init(&lx, s->start, (size_t)(s->end - s->start));
	for (ptx_lex_next(&lx, &t); t.kind != PTX_TK_EOF && t.kind != PTX_TK_ERROR;
	     ptx_lex_next(&lx, &t)) {
		struct vg_sym *r = NULL;
		char num[24];

		if (t.kind == PTX_TK_WORD && ren->n)
			r = vg_sym(ren, t.s, t.len, false);
		if (r || (file_num && file_base && t.kind == PTX_TK_NUM)) {
			vg_put(b, at, (size_t)(t.s - at));
			if (r) {
				vg_puts(b, r->to);
			} else {
				snprintf(num, sizeof(num), "%llu",
					 strtoull(t.s, NULL, 10) + file_base);
				vg_puts(b, num);
			}
			at = t.s + t.len;
		}
		file_num = vg_tok_is(&t, PTX_TK_DIR, ".file") ||
			vg_tok_is(&t, PTX_TK_DIR, ".loc");
	}
	vg_put(b, at, (size_t)(s->end - at));
	vg_put(b, "\n", 1);
}

static int vg_add_span(struct vg_link_out *out, uint32_t line, unsigned int i,
		       uint32_t in_line)
{
	struct vg_link_span *v = realloc(out->spans,
					 (out->nspans + 1) * sizeof(*v));

	if (!v)
		return -1;
	out->spans = v;
	v[out->nspans++] = (struct vg_link_span){ line, i, in_line };
	return 0;
}

/* The number of an "sm_NN" target; 0 for another name, or none. */
static unsigned long vg_target_number(const char *target)
{
	return strncmp(target, "sm_", 3) ? 0 : strtoul(target + 3, NULL, 10);
}

/*
 * The merged module's header: the newest version, the highest target.
 * An input may name no target, only "debug" (the parser takes that):
 * then any named one wins, and when none is named the merged header
 * says "debug" again, as a header needs a name to parse.
 */
static void vg_emit_header(struct vg_link *l, struct vg_buf *b)
{
	const struct ptx_module *best = l->in[0].m, *m;
	unsigned int i, major = 0, minor = 0;
	char line[96];

	for (i = 0; i < l->n; i++) {
		m = l->in[i].m;
		if (m->version_major > major ||
		    (m->version_major == major && m->version_minor > minor)) {
			major = m->version_major;
			minor = m->version_minor;
		}
		if (vg_target_number(m->target) > vg_target_number(best->target) ||
		    (!best->target[0] && m->target[0]))
			best = m;
		if (m->address_size != l->in[0].m->address_size)
			vg_link_error(l, "error   : '%s' has .address_size %u, '%s' has %u",
				      l->in[i].name, m->address_size, l->in[0].name,
				      l->in[0].m->address_size);
	}
	snprintf(line, sizeof(line), ".version %u.%u\n.target %s\n.address_size %u\n",
		 major, minor, best->target[0] ? best->target : "debug",
		 l->in[0].m->address_size);
	vg_puts(b, line);
}

static void vg_emit(struct vg_link *l, struct vg_link_out *out)
{
	static const enum vg_seg_kind order[][2] = {
		{ VG_SEG_FILE, VG_SEG_VAR }, { VG_SEG_FUNC, VG_SEG_OTHER },
	};
	uint32_t *file_base = calloc(l->n, sizeof(*file_base)), base = 0, j;
	struct vg_buf b = { 0 };
	unsigned int pass, i;

	if (!file_base) {
		l->oom = true;
		return;
	}
	for (i = 0; i < l->n; i++) {
		uint32_t top = 0;

		file_base[i] = base;
		for (j = 0; j < l->in[i].m->nfiles; j++)
			if (l->in[i].m->files[j].index + 1 > top)
				top = l->in[i].m->files[j].index + 1;
		base += top;
	}
	vg_emit_header(l, &b);
	if (vg_add_span(out, 1, 0, 1))
		l->oom = true;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < l->n; i++)
			for (j = 0; j < l->segs[i].n; j++) {
				const struct vg_seg *s = &l->segs[i].v[j];

				if ((s->kind != order[pass][0] &&
				     s->kind != order[pass][1]) || s->drop)
					continue;
				if (s->kind == VG_SEG_VAR && s->nvars &&
				    s->ndropped == s->nvars)
					continue;
				if (s->kind == VG_SEG_VAR && s->ndropped) {
					vg_link_error(l, "error   : cannot link a declaration list that mixes extern and defined variables, in '%s' line %u",
						      l->in[i].name, s->first.line);
					continue;
				}
				if (vg_add_span(out, b.lines + 1, i, s->first.line))
					l->oom = true;
				vg_emit_seg(l, &b, i, s, file_base[i]);
			}
	free(file_base);
	if (b.oom)
		l->oom = true;
	out->text = b.p;
	out->len = b.n;
}

static void vg_link_free(struct vg_link *l)
{
	unsigned int i;

	vg_symtab_free(&l->syms);
	for (i = 0; i < l->n; i++) {
		if (l->renames)
			vg_symtab_free(&l->renames[i]);
		if (l->segs)
			free(l->segs[i].v);
		if (l->used)
			free(l->used[i]);
		if (l->called)
			free(l->called[i]);
	}
	free(l->renames);
	free(l->segs);
	free(l->used);
	free(l->called);
}

int vg_link_merge(const struct vg_link_input *in, unsigned int n,
		  struct vg_link_out *out, char *err, size_t err_len)
{
	struct vg_link l = { .in = in, .n = n, .err = err, .err_len = err_len };
	unsigned int i;
	uint32_t j;

	memset(out, 0, sizeof(*out));
	if (err_len)
		err[0] = 0;
	if (!n) {
		vg_link_error(&l, "error   : no input to link");
		return -1;
	}
	l.renames = calloc(n, sizeof(*l.renames));
	l.segs = calloc(n, sizeof(*l.segs));
	l.used = calloc(n, sizeof(*l.used));
	l.called = calloc(n, sizeof(*l.called));
	l.oom = !l.renames || !l.segs || !l.used || !l.called;
	for (i = 0; i < n && !l.oom; i++) {
		if (vg_cut(&in[i], &l.segs[i]) || vg_find_uses(&l, i)) {
			l.oom = true;
			break;
		}
		for (j = 0; j < in[i].m->nvars; j++) {
			struct vg_seg *s = vg_seg_at(&l.segs[i], in[i].m->vars[j].pos);

			if (s)
				s->nvars++;
		}
	}
	if (!l.oom)
		vg_define_all(&l);
	for (i = 0; i < n && !l.oom; i++)
		vg_resolve(&l, i);
	if (!l.oom && !l.failed)
		vg_rename_private(&l);
	if (!l.oom && !l.failed)
		vg_emit(&l, out);
	vg_link_free(&l);
	if (l.oom && !l.failed)
		vg_link_error(&l, "error   : out of memory");
	if (l.failed) {
		vg_link_out_free(out);
		return -1;
	}
	return 0;
}

void vg_link_out_free(struct vg_link_out *out)
{
	free(out->text);
	free(out->spans);
	memset(out, 0, sizeof(*out));
}

int vg_link_parse(struct vg_link_input *in, char *err, size_t err_len)
{
	char msg[512];
	int r = ptx_parse(in->text, in->len, &in->m, msg, sizeof(msg));

	if (r && err_len)
		snprintf(err, err_len, "%s:%s", in->name, msg);
	return r;
}

void vg_link_unparse(struct vg_link_input *in)
{
	ptx_free(in->m);
	in->m = NULL;
}

void vg_link_where(const struct vg_link_out *out,
		   const struct vg_link_input *in, const char *jit_err,
		   char *buf, size_t size)
{
	unsigned long line, col;
	const struct vg_link_span *s = NULL;
	char *end;
	uint32_t k;

	line = strtoul(jit_err, &end, 10);
	if (end == jit_err || *end != ':') {
		snprintf(buf, size, "%s", jit_err);
		return;
	}
	col = strtoul(end + 1, &end, 10);
	for (k = 0; k < out->nspans && out->spans[k].line <= line; k++)
		s = &out->spans[k];
	if (!s || *end != ':') {
		snprintf(buf, size, "%s", jit_err);
		return;
	}
	snprintf(buf, size, "%s:%lu:%lu%s", in[s->input].name,
		 s->in_line + (line - s->line), col, end);
}
