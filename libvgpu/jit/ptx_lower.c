// SPDX-License-Identifier: MIT
/*
 * The JIT's driver: parses a PTX module, lays out its variables and each
 * kernel's parameters and memories, lowers every kernel (ptx_ops.c) into
 * one vgpu ISA program, and drops what no path reaches, as the module's
 * verifier refuses unreachable code.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../uapi/vgpu.h"
#include "ptx_emit.h"

int lw_fail(struct lw *lw, struct ptx_pos pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (lw->failed)
		return -1;
	lw->failed = true;
	n = snprintf(lw->err, lw->err_len, "%u:%u: ", pos.line, pos.col);
	if (n >= 0 && (size_t)n < lw->err_len) {
		va_start(ap, fmt);
		vsnprintf(lw->err + n, lw->err_len - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int lw_oom(struct lw *lw)
{
	return lw_fail(lw, (struct ptx_pos){ 0, 0 }, "out of memory");
}

/* Grows @*p (of @size-byte elements) to hold @need; false on failure. */
static bool lw_grow(void **p, uint32_t *cap, uint32_t need, size_t size)
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
static uint32_t lw_file(const struct lw *lw, uint32_t file)
{
	uint32_t i;

	for (i = 0; i < lw->m->nfiles; i++)
		if (lw->m->files[i].index == file)
			return i + 1;
	return 0;
}

/*
 * Appends @in under the current guard; @reloc: its imm is a global offset.
 * Each instruction is checked as the module's verifier will check it, so
 * a PTX form the lowering lets through by mistake is refused here, at its
 * line, rather than by the device.
 */
int lw_emit(struct lw *lw, struct vgpu_insn in, bool reloc)
{
	const char *why;

	if (lw->ncode >= VGPU_MAX_INSNS)
		return lw_fail(lw, lw->f.fn->pos, "kernel too long for the ISA");
	if (!lw_grow((void **)&lw->code, &lw->capcode, lw->ncode + 1,
		     sizeof(in)) ||
	    !lw_grow((void **)&lw->src, &lw->capsrc, lw->ncode + 1,
		     sizeof(*lw->src)))
		return lw_oom(lw);
	if (lw->guard != VGPU_PRED_NONE && in.guard == VGPU_PRED_NONE) {
		in.guard = lw->guard;
		if (lw->guard_not)
			in.flags |= VGPU_IF_GUARD_NOT;
	}
	why = vgpu_isa_check_shape(&in, VGPU_MAX_INSNS);
	if (why) {
		char msg[160];

		snprintf(msg, sizeof(msg), "this form is not supported (%s)", why);
		if (!lw->cur)
			return lw_fail(lw, lw->f.fn->pos, "%s", msg);
		return lw_bad(lw, lw->cur, msg);
	}
	if (reloc) {
		if (!lw_grow((void **)&lw->relocs, &lw->caprelocs,
			     lw->nrelocs + 1, sizeof(uint32_t)))
			return lw_oom(lw);
		lw->relocs[lw->nrelocs++] = lw->ncode;
	}
	lw->src[lw->ncode] = (struct vg_jit_src){ 0, 0 };
	if (lw->cur && lw->cur->line) {
		lw->src[lw->ncode] = (struct vg_jit_src){ lw_file(lw, lw->cur->file),
							  lw->cur->line };
		lw->any_src = true;
	}
	lw->code[lw->ncode++] = in;
	return 0;
}

/* A register for a value that lives within one PTX instruction. */
uint32_t lw_temp(struct lw *lw)
{
	uint32_t t = lw->nregs + lw->ntemps++;

	if (lw->ntemps > lw->max_temps)
		lw->max_temps = lw->ntemps;
	return t;
}

int lw_fixup(struct lw *lw, uint32_t insn, uint32_t label)
{
	if (!lw_grow((void **)&lw->fixups, &lw->capfixups, lw->nfixups + 1,
		     sizeof(*lw->fixups)))
		return lw_oom(lw);
	lw->fixups[lw->nfixups++] = (struct lw_fixup){ insn, label };
	return 0;
}

/* @insn's imm becomes the kernel's local bytes per thread, once known. */
int lw_local_size_fixup(struct lw *lw, uint32_t insn)
{
	if (!lw_grow((void **)&lw->lfix, &lw->caplfix, lw->nlfix + 1,
		     sizeof(*lw->lfix)))
		return lw_oom(lw);
	lw->lfix[lw->nlfix++] = insn;
	return 0;
}

/* One predicate for sequences the JIT writes, given out once per kernel. */
int lw_scratch_pred(struct lw *lw, uint32_t *p)
{
	if (lw->scratch_pred == UINT32_MAX) {
		if (lw->npreds >= VGPU_MAX_PREDS)
			return lw_fail(lw, lw->cur->pos, "more than %u predicates",
				       VGPU_MAX_PREDS);
		lw->scratch_pred = lw->npreds++;
	}
	*p = lw->scratch_pred;
	return 0;
}

const struct lw_place *lw_place_of(const struct lw *lw, struct ptx_sym s)
{
	switch (s.kind) {
	case PTX_SYM_MODVAR:
		return &lw->modvars[s.index];
	case PTX_SYM_FUNCVAR:
		return &lw->f.vars[s.index];
	case PTX_SYM_PARAM:
		return lw->f.params ? &lw->f.params[s.index] : NULL;
	default:
		return NULL;
	}
}

/* --- layout ---------------------------------------------------------------- */

static uint64_t lw_var_size(const struct ptx_var *v)
{
	uint64_t elem = ptx_type_bits(v->type) / 8 * (v->vec ? v->vec : 1);

	if (v->type == PTX_T_PRED)
		elem = 1;
	return elem * (v->array ? v->count : 1);
}

static uint64_t lw_var_align(const struct ptx_var *v)
{
	uint64_t a = v->align;

	if (!a) {
		a = ptx_type_bits(v->type) / 8 * (v->vec ? v->vec : 1);
		if (!a)
			a = 1;
	}
	return a;
}

static uint64_t lw_align_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

/*
 * Copies @v's initializer to @dst (its place in a bank), with the
 * addresses of the functions it names.
 */
static int lw_init_copy(struct lw *lw, uint8_t *dst, const struct ptx_var *v)
{
	uint64_t size = lw_var_size(v), elem = ptx_type_bits(v->type) / 8;
	uint32_t i, b;

	if (v->init)
		memcpy(dst, v->init, v->init_bytes < size ? v->init_bytes : size);
	for (i = 0; i < v->ninit_funcs; i++) {
		const struct ptx_init_func *f = &v->init_funcs[i];
		uint64_t addr = lw->func_addr[f->func];

		if (!addr)
			return lw_fail(lw, v->pos, "'%s' holds the address of '%s', which is not a function the module defines",
				       v->name, lw->m->funcs[f->func].name);
		addr >>= f->shift;
		for (b = 0; b < elem && b < 8 && f->offset + b < size; b++)
			dst[f->offset + b] = (uint8_t)(addr >> (8 * b));
	}
	return 0;
}

/* A call's callee: its first operand other than the lists, or NULL. */
static const struct ptx_opnd *lw_callee(const struct ptx_insn *in)
{
	uint32_t i;

	if (strcmp(in->op, "call"))
		return NULL;
	for (i = 0; i < in->nopnds; i++)
		if (in->opnds[i].kind != PTX_O_LIST)
			return &in->opnds[i];
	return NULL;
}

/*
 * The functions whose address the module takes, where a value names one
 * (not as the callee of a call) or an initializer does, get their
 * addresses (LW_FUNC_ADDR_STEP), before any kernel or data needs them.
 * Kernels and functions the module only declares get none: taking their
 * address is refused where it is taken.
 */
static int lw_func_addrs(struct lw *lw)
{
	const struct ptx_module *m = lw->m;
	uint64_t next = 0;
	uint32_t f, i, k, o;

	lw->func_addr = calloc(m->nfuncs ? m->nfuncs : 1,
			       sizeof(*lw->func_addr));
	if (!lw->func_addr)
		return lw_oom(lw);
	/* 1 marks a function whose address is taken, until it gets one. */
	for (i = 0; i < m->nvars; i++)
		for (k = 0; k < m->vars[i].ninit_funcs; k++)
			lw->func_addr[m->vars[i].init_funcs[k].func] = 1;
	for (f = 0; f < m->nfuncs; f++) {
		const struct ptx_func *fn = &m->funcs[f];

		for (k = 0; k < fn->ninsns; k++) {
			const struct ptx_insn *in = &fn->insns[k];
			const struct ptx_opnd *callee = lw_callee(in);

			for (o = 0; o < in->nopnds; o++) {
				const struct ptx_opnd *op = &in->opnds[o];

				if (op != callee && op->kind == PTX_O_SYM &&
				    op->sym.kind == PTX_SYM_FUNC)
					lw->func_addr[op->sym.index] = 1;
			}
		}
	}
	for (f = 0; f < m->nfuncs; f++) {
		if (!lw->func_addr[f])
			continue;
		lw->func_addr[f] = 0;
		if (m->funcs[f].has_body && !m->funcs[f].entry) {
			next += LW_FUNC_ADDR_STEP;
			lw->func_addr[f] = next;
		}
	}
	return 0;
}

/*
 * Module variables: __device__ ones in one global block, __constant__
 * ones in the constant bank, each at its alignment.
 */
static int lw_layout_module(struct lw *lw, struct vg_jit_image *img)
{
	const struct ptx_module *m = lw->m;
	uint64_t gsize = 0, csize = 0;
	uint32_t i;

	lw->modvars = calloc(m->nvars ? m->nvars : 1, sizeof(*lw->modvars));
	img->vars = calloc(m->nvars ? m->nvars : 1, sizeof(*img->vars));
	if (!lw->modvars || !img->vars)
		return lw_oom(lw);
	for (i = 0; i < m->nvars; i++) {
		const struct ptx_var *v = &m->vars[i];
		struct lw_place *pl = &lw->modvars[i];
		uint64_t *end;

		/*
		 * __constant__ data lives in device memory beside the
		 * __device__ data: cuModuleGetGlobal hands out its address
		 * and cuMemcpyHtoD to it must reach later launches.
		 */
		pl->space = v->space == PTX_S_CONST ? PTX_S_GLOBAL : v->space;
		if (v->space == PTX_S_GLOBAL || v->space == PTX_S_CONST)
			end = &gsize;
		else if (v->space == PTX_S_SHARED)
			continue;	/* per kernel */
		else
			return lw_fail(lw, v->pos, "'%s': unsupported state space",
				       v->name);
		if (v->is_extern)
			return lw_fail(lw, v->pos, "'%s': extern variable not defined in the module",
				       v->name);
		pl->offset = lw_align_up(*end, lw_var_align(v));
		*end = pl->offset + lw_var_size(v);
		if (v->space == PTX_S_CONST)
			csize += lw_var_size(v);
		img->vars[img->nvars++] = (struct vg_jit_var){
			.name = strdup(v->name), .is_const = v->space == PTX_S_CONST,
			.offset = pl->offset, .size = lw_var_size(v),
		};
		if (!img->vars[img->nvars - 1].name)
			return lw_oom(lw);
	}
	if (csize > VGPU_MAX_CONST_BYTES)
		return lw_fail(lw, (struct ptx_pos){ 1, 1 },
			       "constant data (%llu bytes) over the 64 KiB bank",
			       (unsigned long long)csize);
	lw->printf_off = UINT64_MAX;
	for (i = 0; i < m->nfuncs; i++)
		if (!m->funcs[i].has_body && !strcmp(m->funcs[i].name, "vprintf")) {
			lw->printf_off = lw_align_up(gsize, 8);
			gsize = lw->printf_off + VG_PRINTF_HEADER + VG_PRINTF_CAP;
			img->has_printf = true;
			img->printf_off = lw->printf_off;
		}
	img->global_bytes = gsize;
	img->globals = calloc(1, gsize ? gsize : 1);
	if (!img->globals)
		return lw_oom(lw);
	for (i = 0; i < m->nvars; i++) {
		const struct ptx_var *v = &m->vars[i];

		if ((v->space == PTX_S_GLOBAL || v->space == PTX_S_CONST) &&
		    lw_init_copy(lw, img->globals + lw->modvars[i].offset, v))
			return -1;
	}
	return 0;
}

/*
 * A kernel's memories: static shared variables (the module's, then its
 * own), dynamic shared memory after them (every extern shared variable
 * starts there), local variables, and the parameters, packed at their
 * alignment with no tail padding, as NVIDIA's driver lays them out.
 */
static int lw_layout_kernel(struct lw *lw, struct vg_jit_kernel *k)
{
	const struct ptx_func *fn = lw->f.fn;
	uint64_t shared = 0, local = 0, dyn_align = 16, pend = 0;
	uint32_t i;

	for (i = 0; i < lw->m->nvars; i++) {
		const struct ptx_var *v = &lw->m->vars[i];

		if (v->space != PTX_S_SHARED || v->is_extern)
			continue;
		lw->modvars[i].offset = lw_align_up(shared, lw_var_align(v));
		shared = lw->modvars[i].offset + lw_var_size(v);
	}
	for (i = 0; i < fn->nvars; i++) {
		const struct ptx_var *v = &fn->vars[i];
		uint64_t *end = v->space == PTX_S_SHARED ? &shared :
				v->space == PTX_S_LOCAL ? &local : NULL;

		lw->f.vars[i].space = v->space;
		if (!end)
			continue;	/* .param of a call sequence */
		lw->f.vars[i].offset = lw_align_up(*end, lw_var_align(v));
		*end = lw->f.vars[i].offset + lw_var_size(v);
	}
	for (i = 0; i < lw->m->nvars; i++) {
		const struct ptx_var *v = &lw->m->vars[i];

		if (v->space == PTX_S_SHARED && v->is_extern &&
		    lw_var_align(v) > dyn_align)
			dyn_align = lw_var_align(v);
	}
	for (i = 0; i < lw->m->nvars; i++)
		if (lw->m->vars[i].space == PTX_S_SHARED &&
		    lw->m->vars[i].is_extern)
			lw->modvars[i].offset = lw_align_up(shared, dyn_align);
	if (shared > VGPU_MAX_SHARED_BYTES)
		return lw_fail(lw, fn->pos, "'%s' uses %llu bytes of shared memory (at most %u)",
			       fn->name, (unsigned long long)shared,
			       VGPU_MAX_SHARED_BYTES);
	lw->shared_static = (uint32_t)shared;
	lw->local_bytes = (uint32_t)local;
	k->params = calloc(fn->nparams ? fn->nparams : 1, sizeof(*k->params));
	if (!k->params)
		return lw_oom(lw);
	for (i = 0; i < fn->nparams; i++) {
		const struct ptx_var *v = &fn->params[i];

		lw->f.params[i].space = PTX_S_PARAM;
		lw->f.params[i].offset = lw_align_up(pend, lw_var_align(v));
		pend = lw->f.params[i].offset + lw_var_size(v);
		k->params[i].offset = (uint32_t)lw->f.params[i].offset;
		k->params[i].size = (uint32_t)lw_var_size(v);
	}
	if (pend > VGPU_MAX_PARAM_BYTES)
		return lw_fail(lw, fn->pos, "'%s' has %llu bytes of parameters (at most %u)",
			       fn->name, (unsigned long long)pend,
			       VGPU_MAX_PARAM_BYTES);
	k->nparams = fn->nparams;
	k->f.param_bytes = (uint32_t)pend;
	return 0;
}

/*
 * The frame's PTX registers get ISA registers or predicates, one each,
 * and its call-sequence .param variables their slots; an inlined
 * function's local variables go after the kernel's.
 */
static int lw_frame_setup(struct lw *lw, struct lw_frame *fr)
{
	const struct ptx_func *fn = fr->fn;
	uint32_t i;

	fr->reg_of = calloc(fn->nregs ? fn->nregs : 1, sizeof(*fr->reg_of));
	fr->var_slot = calloc(fn->nvars ? fn->nvars : 1, sizeof(*fr->var_slot));
	fr->label_at = malloc((fn->nlabels + 1) * sizeof(*fr->label_at));
	if (!fr->vars)
		fr->vars = calloc(fn->nvars ? fn->nvars : 1, sizeof(*fr->vars));
	if (!fr->reg_of || !fr->var_slot || !fr->label_at || !fr->vars)
		return lw_oom(lw);
	for (i = 0; i <= fn->nlabels; i++)
		fr->label_at[i] = UINT32_MAX;
	for (i = 0; i < fn->nregs; i++) {
		const struct ptx_reg *r = &fn->regs[i];

		if (r->vec > 1)
			return lw_fail(lw, r->pos, "vector register '%s' is not supported",
				       r->name);
		if (r->type == PTX_T_PRED) {
			if (lw->npreds >= VGPU_MAX_PREDS)
				return lw_fail(lw, r->pos, "more than %u predicates",
					       VGPU_MAX_PREDS);
			fr->reg_of[i] = lw->npreds++;
		} else {
			fr->reg_of[i] = lw->nregs++;
		}
	}
	for (i = 0; i < fn->nvars; i++) {
		const struct ptx_var *v = &fn->vars[i];

		if (v->space == PTX_S_PARAM) {
			fr->vars[i].space = PTX_S_PARAM;
			fr->var_slot[i] = lw->nregs;
			lw->nregs += (uint32_t)((lw_var_size(v) + 7) / 8);
			continue;
		}
		if (!fr->depth)
			continue;	/* the kernel's: lw_layout_kernel() */
		if (v->space != PTX_S_LOCAL)
			return lw_fail(lw, v->pos, "'%s': shared memory declared in a function is not supported",
				       v->name);
		fr->vars[i].space = PTX_S_LOCAL;
		fr->vars[i].offset = lw_align_up(lw->local_bytes, lw_var_align(v));
		if (fr->vars[i].offset + lw_var_size(v) > VGPU_MAX_LOCAL_BYTES)
			return lw_fail(lw, v->pos, "local memory over %u bytes",
				       VGPU_MAX_LOCAL_BYTES);
		lw->local_bytes = (uint32_t)(fr->vars[i].offset + lw_var_size(v));
	}
	if (lw->nregs > VGPU_MAX_REGS)
		return lw_fail(lw, fn->pos, "'%s' needs more than %u registers",
			       fn->name, VGPU_MAX_REGS);
	return 0;
}

static void lw_frame_free(struct lw_frame *fr)
{
	free(fr->reg_of);
	free(fr->var_slot);
	free(fr->label_at);
	free(fr->vars);
	free(fr->params);
	free((void *)fr->param_slot);
	free((void *)fr->ret_slot);
}

/* --- control flow ------------------------------------------------------------ */

static bool lw_falls_through(const struct vgpu_insn *in)
{
	if (in->guard != VGPU_PRED_NONE)
		return true;
	return in->op != VGPU_OP_BRA && in->op != VGPU_OP_EXIT &&
	       in->op != VGPU_OP_TRAP;
}

/*
 * Keeps only the instructions of [@start, ncode) that a path from @start
 * reaches, renumbering branches and relocations.
 */
static int lw_compact(struct lw *lw, uint32_t start)
{
	uint32_t n = lw->ncode - start, i, top = 0, kept = 0, r, w = 0;
	uint32_t *stack = malloc((size_t)n * sizeof(*stack));
	uint32_t *newi = malloc((size_t)n * sizeof(*newi));

	if (!stack || !newi) {
		free(stack);
		free(newi);
		return lw_oom(lw);
	}
	for (i = 0; i < n; i++)
		newi[i] = UINT32_MAX;
	stack[top++] = 0;
	newi[0] = 0;
	while (top) {
		uint32_t at = stack[--top];
		const struct vgpu_insn *in = &lw->code[start + at];

		if (in->op == VGPU_OP_BRA && newi[in->imm - start] == UINT32_MAX) {
			newi[in->imm - start] = 0;
			stack[top++] = (uint32_t)in->imm - start;
		}
		if (lw_falls_through(in) && at + 1 < n &&
		    newi[at + 1] == UINT32_MAX) {
			newi[at + 1] = 0;
			stack[top++] = at + 1;
		}
	}
	for (i = 0; i < n; i++)
		if (newi[i] != UINT32_MAX)
			newi[i] = kept++;
	for (i = 0; i < n; i++) {
		struct vgpu_insn *in = &lw->code[start + i];

		if (newi[i] == UINT32_MAX)
			continue;
		if (in->op == VGPU_OP_BRA) {
			in->imm = start + newi[in->imm - start];
			in->c = VGPU_NO_TARGET;
		}
		lw->code[start + newi[i]] = *in;
		lw->src[start + newi[i]] = lw->src[start + i];
	}
	for (r = 0; r < lw->nrelocs; r++) {
		uint32_t at = lw->relocs[r];

		if (at < start)
			lw->relocs[w++] = at;
		else if (newi[at - start] != UINT32_MAX)
			lw->relocs[w++] = start + newi[at - start];
	}
	lw->nrelocs = w;
	lw->ncode = start + kept;
	free(stack);
	free(newi);
	return 0;
}

/*
 * Lowers the frame's body, then points its branches at their labels
 * (a label at the end, and the end label of an inlined body, at what
 * comes next).
 */
static int lw_body(struct lw *lw)
{
	const struct ptx_func *fn = lw->f.fn;
	uint32_t *start = malloc((fn->ninsns + 1) * sizeof(*start)), i, l;

	/* Where each PTX instruction's code starts: its labels point there. */
	if (!start)
		return lw_oom(lw);
	for (i = 0; i < fn->ninsns; i++) {
		start[i] = lw->ncode;
		lw->ntemps = 0;
		lw->cur = &fn->insns[i];
		if (lw_insn(lw, &fn->insns[i])) {
			free(start);
			return -1;
		}
	}
	start[fn->ninsns] = lw->ncode;
	for (l = 0; l < fn->nlabels; l++)
		lw->f.label_at[l] = start[fn->labels[l].insn];
	free(start);
	lw->f.label_at[fn->nlabels] = lw->ncode;
	for (i = lw->f.fixup_base; i < lw->nfixups; i++)
		lw->code[lw->fixups[i].insn].imm =
			lw->f.label_at[lw->fixups[i].label];
	lw->nfixups = lw->f.fixup_base;
	return 0;
}

/* The slots of call-sequence variable @s of the caller (a .param). */
static int lw_bind(struct lw *lw, const struct ptx_insn *in,
		   const struct lw_frame *caller, const struct ptx_opnd *list,
		   uint32_t want, uint32_t **slots)
{
	uint32_t n = list ? list->nvec : 0, i;

	if (n != want)
		return lw_fail(lw, in->pos, "call passes %u values where '%s' takes %u",
			       n, lw->f.fn->name, want);
	*slots = calloc(want ? want : 1, sizeof(**slots));
	if (!*slots)
		return lw_oom(lw);
	for (i = 0; i < n; i++) {
		struct ptx_sym s = list->list[i];

		if (s.kind != PTX_SYM_FUNCVAR ||
		    caller->fn->vars[s.index].space != PTX_S_PARAM)
			return lw_fail(lw, in->pos, "call arguments must be .param variables");
		(*slots)[i] = caller->var_slot[s.index];
	}
	return 0;
}

/**
 * lw_inline() - lowers a call to function @callee in place: its body,
 * with its own registers, reading its parameters from the slots of the
 * caller's arguments and writing its return values to theirs; its ret
 * goes to what follows the call.
 */
int lw_inline(struct lw *lw, const struct ptx_insn *in, uint32_t callee,
	      const struct ptx_opnd *rets, const struct ptx_opnd *args)
{
	const struct ptx_func *fn = &lw->m->funcs[callee];
	struct lw_frame caller = lw->f, fr = {
		.fn = fn, .depth = caller.depth + 1, .up = &caller,
		.fixup_base = lw->nfixups,
	};
	const struct lw_frame *up;
	uint32_t *ps = NULL, *rs = NULL;
	uint8_t guard = lw->guard;
	bool guard_not = lw->guard_not;
	int ret = -1;

	if (!fn->has_body)
		return lw_fail(lw, in->pos, "call to '%s', which the module does not define",
			       fn->name);
	for (up = &caller; up; up = up->up)
		if (up->fn == fn)
			return lw_fail(lw, in->pos, "recursive call to '%s' is not supported",
				       fn->name);
	if (fr.depth > 32)
		return lw_fail(lw, in->pos, "calls nested too deeply");
	lw->f = fr;
	if (lw_bind(lw, in, &caller, args, fn->nparams, &ps) ||
	    lw_bind(lw, in, &caller, rets, fn->nrets, &rs))
		goto out;
	lw->f.param_slot = ps;
	lw->f.ret_slot = rs;
	ps = rs = NULL;
	if (lw_frame_setup(lw, &lw->f))
		goto out;
	/* A guarded call: lanes where the guard fails jump past the body. */
	if (guard != VGPU_PRED_NONE) {
		if (lw_fixup(lw, lw->ncode, fn->nlabels) ||
		    lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			    .guard = guard,
			    .flags = guard_not ? 0 : VGPU_IF_GUARD_NOT,
			    .c = VGPU_NO_TARGET }, false))
			goto out;
	}
	ret = lw_body(lw);
out:
	free(ps);
	free(rs);
	lw_frame_free(&lw->f);
	lw->f = caller;
	return ret;
}

/* Whether @fn takes and returns what prototype @pr says, size by size. */
static bool lw_proto_fits(const struct ptx_proto *pr, const struct ptx_func *fn)
{
	uint32_t i;

	if (pr->nparams != fn->nparams || pr->nrets != fn->nrets)
		return false;
	for (i = 0; i < pr->nparams; i++)
		if (lw_var_size(&pr->params[i]) != lw_var_size(&fn->params[i]))
			return false;
	for (i = 0; i < pr->nrets; i++)
		if (lw_var_size(&pr->rets[i]) != lw_var_size(&fn->rets[i]))
			return false;
	return true;
}

/**
 * lw_inline_indirect() - lowers a call through the function pointer in
 * PTX register @fptr, with prototype @pr: the pointer is compared with
 * the address of each function whose address the module takes and that
 * fits the prototype, and that function is inlined (lw_inline()) for the
 * lanes it matches; lanes whose pointer matches none trap, as a call to
 * a bad address faults. Lanes of a warp that hold different pointers run
 * their functions one after the other and meet again after the last.
 * Any of those functions already being called is recursion, which the
 * inlining cannot do.
 */
int lw_inline_indirect(struct lw *lw, const struct ptx_insn *in, uint32_t fptr,
		       const struct ptx_proto *pr, const struct ptx_opnd *rets,
		       const struct ptx_opnd *args)
{
	const struct ptx_module *m = lw->m;
	const struct ptx_insn *cur = lw->cur;
	const struct lw_frame *up;
	uint32_t *ends, nends = 0, skip = UINT32_MAX, miss, p, f, i;
	uint8_t guard = lw->guard;
	bool guard_not = lw->guard_not;
	int ret = -1;

	if (ptx_type_bits(lw->f.fn->regs[fptr].type) != 64)
		return lw_fail(lw, in->pos, "a function pointer must be a 64-bit register");
	if ((args ? args->nvec : 0) != pr->nparams ||
	    (rets ? rets->nvec : 0) != pr->nrets)
		return lw_fail(lw, in->pos, "call does not match prototype '%s'",
			       pr->name);
	for (f = 0; f < m->nfuncs; f++) {
		if (!lw->func_addr[f] || !lw_proto_fits(pr, &m->funcs[f]))
			continue;
		for (up = &lw->f; up; up = up->up)
			if (up->fn == &m->funcs[f])
				return lw_fail(lw, in->pos, "recursive call to '%s' through a function pointer is not supported",
					       m->funcs[f].name);
	}
	if (lw_scratch_pred(lw, &p))
		return -1;
	ends = malloc((m->nfuncs + 1) * sizeof(*ends));
	if (!ends)
		return lw_oom(lw);
	lw->guard = VGPU_PRED_NONE;
	/* A guarded call: lanes where the guard fails jump past it all. */
	if (guard != VGPU_PRED_NONE) {
		skip = lw->ncode;
		if (lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			    .guard = guard,
			    .flags = guard_not ? 0 : VGPU_IF_GUARD_NOT,
			    .c = VGPU_NO_TARGET }, false))
			goto out;
	}
	for (f = 0; f < m->nfuncs; f++) {
		if (!lw->func_addr[f] || !lw_proto_fits(pr, &m->funcs[f]))
			continue;
		miss = lw->ncode + 1;
		if (lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_SETP,
			    .type = VGPU_T_U64, .mod = VGPU_CMP_EQ,
			    .guard = VGPU_PRED_NONE, .dst = p,
			    .a = lw->f.reg_of[fptr], .flags = VGPU_IF_B_IMM,
			    .imm = lw->func_addr[f] }, false) ||
		    lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			    .guard = (uint8_t)p, .flags = VGPU_IF_GUARD_NOT,
			    .c = VGPU_NO_TARGET }, false) ||
		    lw_inline(lw, in, f, rets, args))
			goto out;
		/* The inlined body read its own instructions and guards. */
		lw->cur = cur;
		lw->guard = VGPU_PRED_NONE;
		ends[nends++] = lw->ncode;
		if (lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			    .guard = VGPU_PRED_NONE,
			    .c = VGPU_NO_TARGET }, false))
			goto out;
		lw->code[miss].imm = lw->ncode;
	}
	if (lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_TRAP,
		    .guard = VGPU_PRED_NONE }, false))
		goto out;
	for (i = 0; i < nends; i++)
		lw->code[ends[i]].imm = lw->ncode;
	if (skip != UINT32_MAX)
		lw->code[skip].imm = lw->ncode;
	ret = 0;
out:
	lw->cur = cur;
	free(ends);
	return ret;
}

/* A move of a whole register to itself, which allocation leaves behind. */
static bool lw_self_move(const struct vgpu_insn *in)
{
	return in->op == VGPU_OP_MOV && !(in->flags & VGPU_IF_B_IMM) &&
	       in->dst == in->b && (in->type == VGPU_T_U64 ||
				    in->type == VGPU_T_S64 ||
				    in->type == VGPU_T_F64);
}

/*
 * Drops those moves (cvta.to.global is one, once the two registers share
 * a slot): a branch to one goes to the instruction after it.
 */
static int lw_drop_self_moves(struct lw *lw, uint32_t start)
{
	uint32_t n = lw->ncode - start, i, kept = 0, r, w = 0;
	uint32_t *newi = malloc(((size_t)n + 1) * sizeof(*newi));

	if (!newi)
		return lw_oom(lw);
	for (i = 0; i < n; i++) {
		newi[i] = kept;
		kept += !lw_self_move(&lw->code[start + i]);
	}
	newi[n] = kept;
	for (i = 0; i < n; i++) {
		struct vgpu_insn in = lw->code[start + i];

		if (lw_self_move(&in))
			continue;
		if (in.op == VGPU_OP_BRA)
			in.imm = start + newi[in.imm - start];
		lw->code[start + newi[i]] = in;
		lw->src[start + newi[i]] = lw->src[start + i];
	}
	for (r = 0; r < lw->nrelocs; r++) {
		uint32_t at = lw->relocs[r];

		lw->relocs[w++] = at < start ? at : start + newi[at - start];
	}
	lw->nrelocs = w;
	lw->ncode = start + kept;
	free(newi);
	return 0;
}

static uint32_t lw_max_threads(const struct ptx_func *fn)
{
	const uint32_t *d = fn->reqntid[0] ? fn->reqntid : fn->maxntid;
	uint64_t n = 1;
	int i;

	if (!d[0])
		return 0;
	for (i = 0; i < 3; i++)
		n *= d[i] ? d[i] : 1;
	return n > 1024 ? 1024 : (uint32_t)n;
}

static int lw_kernel(struct lw *lw, const struct ptx_func *fn,
		     struct vg_jit_kernel *k)
{
	uint32_t start = lw->ncode, i;
	int ret = -1;

	memset(&lw->f, 0, sizeof(lw->f));
	lw->f.fn = fn;
	lw->f.vars = calloc(fn->nvars ? fn->nvars : 1, sizeof(*lw->f.vars));
	lw->f.params = calloc(fn->nparams ? fn->nparams : 1,
			      sizeof(*lw->f.params));
	k->name = strdup(fn->name);
	lw->nregs = 0;
	lw->npreds = 0;
	lw->max_temps = 0;
	lw->nfixups = 0;
	lw->nlfix = 0;
	lw->scratch_pred = UINT32_MAX;
	if (!lw->f.vars || !lw->f.params || !k->name) {
		lw_oom(lw);
		goto out;
	}
	if (lw_layout_kernel(lw, k) || lw_frame_setup(lw, &lw->f) ||
	    lw_body(lw))
		goto out;
	/* Whole words of local memory, so printf can copy 8 bytes at a time. */
	lw->local_bytes = (uint32_t)lw_align_up(lw->local_bytes, 8);
	for (i = 0; i < lw->nlfix; i++)
		lw->code[lw->lfix[i]].imm = lw->local_bytes;
	/* A label at the end, or the last instruction, may lead on: stop. */
	lw->guard = VGPU_PRED_NONE;
	lw->cur = NULL;
	if (lw_emit(lw, (struct vgpu_insn){ .op = VGPU_OP_EXIT,
		    .guard = VGPU_PRED_NONE }, false) ||
	    lw_compact(lw, start))
		goto out;
	if (lw->local_bytes > VGPU_MAX_LOCAL_BYTES) {
		lw_fail(lw, fn->pos, "'%s' uses %u bytes of local memory (at most %u)",
			fn->name, lw->local_bytes, VGPU_MAX_LOCAL_BYTES);
		goto out;
	}
	if (lw->nregs + lw->max_temps > VGPU_MAX_REGS) {
		lw_fail(lw, fn->pos, "'%s' needs %u registers (at most %u)",
			fn->name, lw->nregs + lw->max_temps, VGPU_MAX_REGS);
		goto out;
	}
	k->f.entry = start;
	/* Registers never live together share a slot (ptx_regalloc.c). */
	k->f.nregs = lw_regalloc(lw, start, lw->nregs + lw->max_temps);
	if (lw_drop_self_moves(lw, start))
		goto out;
	k->f.npreds = lw->npreds;
	k->f.shared_bytes = lw->shared_static;
	k->f.local_bytes = lw->local_bytes;
	k->f.max_threads = lw_max_threads(fn);
	k->ptx_regs = fn->nregs;
	ret = 0;
out:
	lw_frame_free(&lw->f);
	memset(&lw->f, 0, sizeof(lw->f));
	return ret;
}

/* The line table goes to the image with the names of the module's files. */
static int lw_keep_files(struct lw *lw, struct vg_jit_image *img)
{
	uint32_t i;

	img->files = calloc(lw->m->nfiles ? lw->m->nfiles : 1, sizeof(char *));
	if (!img->files)
		return lw_oom(lw);
	for (i = 0; i < lw->m->nfiles; i++) {
		img->files[i] = strdup(lw->m->files[i].path);
		if (!img->files[i])
			return lw_oom(lw);
		img->nfiles = i + 1;
	}
	img->src = lw->src;
	lw->src = NULL;
	return 0;
}

void vg_jit_where(const struct vg_jit_image *img, uint32_t insn, char *buf,
		  size_t len)
{
	const struct vg_jit_src *s;

	if (!len)
		return;
	buf[0] = 0;
	if (!img->src || insn >= img->ninsns)
		return;
	s = &img->src[insn];
	if (!s->line)
		return;
	snprintf(buf, len, "%s:%u", s->file && s->file <= img->nfiles ?
		 img->files[s->file - 1] : "?", s->line);
}

void vg_jit_free(struct vg_jit_image *img)
{
	uint32_t i;

	if (!img)
		return;
	for (i = 0; i < img->nkernels; i++) {
		free(img->kernels[i].name);
		free(img->kernels[i].params);
	}
	for (i = 0; i < img->nvars; i++)
		free(img->vars[i].name);
	for (i = 0; i < img->nfiles; i++)
		free(img->files[i]);
	free(img->files);
	free(img->src);
	free(img->kernels);
	free(img->vars);
	free(img->insns);
	free(img->globals);
	free(img->relocs);
	free(img);
}

int vg_jit_compile(const char *ptx, size_t len, struct vg_jit_image **out,
		   char *err, size_t err_len)
{
	struct lw lw = { .err = err, .err_len = err_len,
			 .guard = VGPU_PRED_NONE };
	struct vg_jit_image *img = calloc(1, sizeof(*img));
	struct ptx_module *m = NULL;
	uint32_t i, nk = 0;

	if (err_len)
		err[0] = 0;
	if (!img)
		return lw_oom(&lw);
	if (ptx_parse(ptx, len, &m, err, err_len))
		goto fail;
	lw.m = m;
	for (i = 0; i < m->nfuncs; i++)
		nk += m->funcs[i].entry && m->funcs[i].has_body;
	img->kernels = calloc(nk ? nk : 1, sizeof(*img->kernels));
	if (!img->kernels) {
		lw_oom(&lw);
		goto fail;
	}
	if (lw_func_addrs(&lw) || lw_layout_module(&lw, img))
		goto fail;
	for (i = 0; i < m->nfuncs; i++) {
		if (!m->funcs[i].entry || !m->funcs[i].has_body)
			continue;
		if (lw_kernel(&lw, &m->funcs[i], &img->kernels[img->nkernels++]))
			goto fail;
	}
	if (!lw.ncode) {
		lw_fail(&lw, (struct ptx_pos){ 1, 1 }, "no kernel in the module");
		goto fail;
	}
	free(lw.lfix);
	lw.lfix = NULL;
	img->insns = lw.code;
	img->ninsns = lw.ncode;
	img->relocs = lw.relocs;
	img->nrelocs = lw.nrelocs;
	if (lw.any_src && lw_keep_files(&lw, img)) {
		lw.code = NULL;		/* the image's now */
		lw.relocs = NULL;
		goto fail;
	}
	free(lw.src);
	lw.src = NULL;
	free(lw.modvars);
	free(lw.func_addr);
	free(lw.fixups);
	ptx_free(m);
	*out = img;
	return 0;

fail:
	free(lw.lfix);
	free(lw.src);
	free(lw.code);
	free(lw.relocs);
	free(lw.modvars);
	free(lw.func_addr);
	free(lw.fixups);
	if (m)
		ptx_free(m);
	vg_jit_free(img);
	return -1;
}
