// SPDX-License-Identifier: MIT
/*
 * The JIT's driver: parses a PTX module, lays out its variables and each
 * kernel's memories and parameters, and lowers every kernel into one program.
 *
 * A kernel's body goes through instruction selection (ptx_select.c); then
 * what no path reaches is dropped, as the module's verifier refuses
 * unreachable code, its registers are allocated (ptx_regalloc.c), and the
 * moves of a register to itself that allocation leaves are dropped too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../uapi/vgpu.h"
#include "ptx_frame.h"
#include "ptx_regalloc.h"
#include "ptx_select.h"

/* --- layout ---------------------------------------------------------------- */

/*
 * Copies @v's initializer to its place in the global block, at @at, with
 * the addresses of the functions it names, and the offsets in the block of
 * the variables it names, each a data relocation of @img for the loader.
 */
static int ptx_write_init(struct ptx_lower *pl, struct vg_jit_image *img,
			  uint64_t at, const struct ptx_var *v)
{
	uint64_t size = ptx_var_size(v), elem = ptx_type_bits(v->type) / 8;
	uint8_t *dst = img->globals + at;
	uint32_t i, b;

	if (v->init)
		memcpy(dst, v->init, v->init_bytes < size ? v->init_bytes : size);
	for (i = 0; i < v->ninit_funcs; i++) {
		const struct ptx_init_func *f = &v->init_funcs[i];
		uint64_t addr = pl->func_addr[f->func];

		if (!addr)
			return ptx_error(pl, v->pos, "'%s' holds the address of '%s', which is not a function the module defines",
					 v->name, pl->m->funcs[f->func].name);
		addr >>= f->shift;
		for (b = 0; b < elem && b < 8 && f->offset + b < size; b++)
			dst[f->offset + b] = (uint8_t)(addr >> (8 * b));
	}
	for (i = 0; i < v->ninit_vars; i++) {
		const struct ptx_init_var *x = &v->init_vars[i];
		uint64_t addr = pl->modvars[x->var].offset + (uint64_t)x->addend;
		uint64_t *r;

		/* The parser let only 64-bit elements name a variable. */
		if (x->offset + 8 > size)
			return ptx_error(pl, v->pos, "'%s': an address past its end",
					 v->name);
		memcpy(dst + x->offset, &addr, 8);
		r = realloc(img->data_relocs,
			    (img->ndata_relocs + 1) * sizeof(*r));
		if (!r)
			return ptx_out_of_memory(pl);
		img->data_relocs = r;
		r[img->ndata_relocs++] = at + x->offset;
	}
	return 0;
}

/* A call's callee: its first operand other than the lists, or NULL. */
static const struct ptx_opnd *ptx_callee(const struct ptx_insn *in)
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
 * addresses (PTX_FUNC_ADDR_STEP), before any kernel or data needs them.
 * Kernels and functions the module only declares get none: taking their
 * address is refused where it is taken.
 */
static int ptx_func_addrs(struct ptx_lower *pl)
{
	const struct ptx_module *m = pl->m;
	uint64_t next = 0;
	uint32_t f, i, k, o;

	pl->func_addr = calloc(m->nfuncs ? m->nfuncs : 1,
			       sizeof(*pl->func_addr));
	if (!pl->func_addr)
		return ptx_out_of_memory(pl);
	/* 1 marks a function whose address is taken, until it gets one. */
	for (i = 0; i < m->nvars; i++)
		for (k = 0; k < m->vars[i].ninit_funcs; k++)
			pl->func_addr[m->vars[i].init_funcs[k].func] = 1;
	for (f = 0; f < m->nfuncs; f++) {
		const struct ptx_func *fn = &m->funcs[f];

		for (k = 0; k < fn->ninsns; k++) {
			const struct ptx_insn *in = &fn->insns[k];
			const struct ptx_opnd *callee = ptx_callee(in);

			for (o = 0; o < in->nopnds; o++) {
				const struct ptx_opnd *op = &in->opnds[o];

				if (op != callee && op->kind == PTX_O_SYM &&
				    op->sym.kind == PTX_SYM_FUNC)
					pl->func_addr[op->sym.index] = 1;
			}
		}
	}
	for (f = 0; f < m->nfuncs; f++) {
		if (!pl->func_addr[f])
			continue;
		pl->func_addr[f] = 0;
		if (m->funcs[f].has_body && !m->funcs[f].entry) {
			next += PTX_FUNC_ADDR_STEP;
			pl->func_addr[f] = next;
		}
	}
	return 0;
}

/*
 * @v takes the module's global block past what a module may carry (the
 * block is copied whole into the image and into device memory).
 */
static int ptx_global_too_big(struct ptx_lower *pl, const struct ptx_var *v)
{
	return ptx_error(pl, v->pos, "'%s': the module's data over 4 GiB", v->name);
}

/*
 * A managed variable's initial bytes go last in the global block, at its
 * alignment; code and initializers name it by VG_JIT_MANAGED_ADDR (jit.h),
 * which the loader relocates to its own storage.
 */
static int ptx_layout_managed(struct ptx_lower *pl, struct vg_jit_image *img,
			      uint64_t *gsize, uint64_t *blocks)
{
	const struct ptx_module *m = pl->m;
	uint32_t i, k = 0;

	for (i = 0; i < m->nvars; i++) {
		const struct ptx_var *v = &m->vars[i];

		if (!v->managed)
			continue;
		if (v->is_extern)
			return ptx_error(pl, v->pos, "'%s': extern variable not defined in the module",
					 v->name);
		if (ptx_var_size(v) > VG_JIT_MANAGED_MAX_BYTES)
			return ptx_error(pl, v->pos, "'%s': a managed variable over 2 GiB",
					 v->name);
		blocks[i] = ptx_align_up(*gsize, ptx_var_align(v));
		*gsize = blocks[i] + ptx_var_size(v);
		if (*gsize > VG_JIT_GLOBAL_MAX_BYTES)
			return ptx_global_too_big(pl, v);
		pl->modvars[i].space = PTX_S_GLOBAL;
		pl->modvars[i].offset = VG_JIT_MANAGED_ADDR(k++);
		img->vars[img->nvars++] = (struct vg_jit_var){
			.name = strdup(v->name), .managed = true,
			.offset = blocks[i], .size = ptx_var_size(v),
		};
		if (!img->vars[img->nvars - 1].name)
			return ptx_out_of_memory(pl);
	}
	return 0;
}

/*
 * Module variables: __device__ ones in one global block, __constant__
 * ones in the constant bank, each at its alignment, __managed__ ones
 * after them (ptx_layout_managed).
 */
static int ptx_layout_module(struct ptx_lower *pl, struct vg_jit_image *img)
{
	const struct ptx_module *m = pl->m;
	uint64_t gsize = 0, csize = 0, *blocks;
	uint32_t i;
	int r;

	pl->modvars = calloc(m->nvars ? m->nvars : 1, sizeof(*pl->modvars));
	img->vars = calloc(m->nvars ? m->nvars : 1, sizeof(*img->vars));
	if (!pl->modvars || !img->vars)
		return ptx_out_of_memory(pl);
	for (i = 0; i < m->nvars; i++) {
		const struct ptx_var *v = &m->vars[i];
		struct ptx_place *place = &pl->modvars[i];
		uint64_t *end;

		if (v->managed)
			continue;

		/*
		 * __constant__ data lives in device memory beside the
		 * __device__ data: cuModuleGetGlobal hands out its address
		 * and cuMemcpyHtoD to it must reach later launches.
		 */
		place->space = v->space == PTX_S_CONST ? PTX_S_GLOBAL : v->space;
		if (v->space == PTX_S_GLOBAL || v->space == PTX_S_CONST)
			end = &gsize;
		else if (v->space == PTX_S_SHARED)
			continue;	/* per kernel */
		else
			return ptx_error(pl, v->pos, "'%s': unsupported state space",
					 v->name);
		if (v->is_extern)
			return ptx_error(pl, v->pos, "'%s': extern variable not defined in the module",
					 v->name);
		/* Sizes are checked before they are added: nothing wraps. */
		if (ptx_var_size(v) > VG_JIT_GLOBAL_MAX_BYTES)
			return ptx_global_too_big(pl, v);
		place->offset = ptx_align_up(*end, ptx_var_align(v));
		*end = place->offset + ptx_var_size(v);
		if (*end > VG_JIT_GLOBAL_MAX_BYTES)
			return ptx_global_too_big(pl, v);
		if (v->space == PTX_S_CONST)
			csize += ptx_var_size(v);
		if (v->ref && v->space != PTX_S_GLOBAL)
			return ptx_error(pl, v->pos, "'%s': references are .global variables",
					 v->name);
		img->vars[img->nvars++] = (struct vg_jit_var){
			.name = strdup(v->name), .is_const = v->space == PTX_S_CONST,
			.ref = v->ref, .offset = place->offset, .size = ptx_var_size(v),
		};
		if (!img->vars[img->nvars - 1].name)
			return ptx_out_of_memory(pl);
	}
	if (csize > VGPU_MAX_CONST_BYTES)
		return ptx_error(pl, (struct ptx_pos){ 1, 1 },
				 "constant data (%llu bytes) over the 64 KiB bank",
				 (unsigned long long)csize);
	pl->printf_off = UINT64_MAX;
	/* A failed assert's message goes through the printf FIFO too. */
	for (i = 0; i < m->nfuncs && !img->has_printf; i++)
		if (!m->funcs[i].has_body &&
		    (!strcmp(m->funcs[i].name, "vprintf") ||
		     ptx_assert_func(m->funcs[i].name))) {
			pl->printf_off = ptx_align_up(gsize, 8);
			gsize = pl->printf_off + 8;
			img->has_printf = true;
			img->printf_off = pl->printf_off;
		}
	/* Where each managed variable's initial bytes are in the block. */
	blocks = calloc(m->nvars ? m->nvars : 1, sizeof(*blocks));
	if (!blocks)
		return ptx_out_of_memory(pl);
	r = ptx_layout_managed(pl, img, &gsize, blocks);
	/* The printf FIFO's word may be what tips it over. */
	if (!r && gsize > VG_JIT_GLOBAL_MAX_BYTES)
		r = ptx_error(pl, (struct ptx_pos){ 1, 1 }, "the module's data over 4 GiB");
	if (!r) {
		img->global_bytes = gsize;
		img->globals = calloc(1, gsize ? gsize : 1);
		if (!img->globals)
			r = ptx_out_of_memory(pl);
	}
	for (i = 0; !r && i < m->nvars; i++) {
		const struct ptx_var *v = &m->vars[i];

		if ((v->space == PTX_S_GLOBAL || v->space == PTX_S_CONST) &&
		    ptx_write_init(pl, img, v->managed ? blocks[i] :
				   pl->modvars[i].offset, v))
			r = -1;
	}
	free(blocks);
	return r;
}

/*
 * A kernel's memories: static shared variables (the module's, then its
 * own), dynamic shared memory after them (every extern shared variable
 * starts there), local variables, and the parameters, packed at their
 * alignment with no tail padding, as NVIDIA's driver lays them out.
 */
static int ptx_layout_kernel(struct ptx_lower *pl, struct vg_jit_kernel *k)
{
	const struct ptx_func *fn = pl->f.fn;
	uint64_t shared = 0, local = 0, dyn_align = 16, pend = 0;
	uint32_t i;

	for (i = 0; i < pl->m->nvars; i++) {
		const struct ptx_var *v = &pl->m->vars[i];

		if (v->space != PTX_S_SHARED || v->is_extern)
			continue;
		pl->modvars[i].offset = ptx_align_up(shared, ptx_var_align(v));
		shared = pl->modvars[i].offset + ptx_var_size(v);
	}
	for (i = 0; i < fn->nvars; i++) {
		const struct ptx_var *v = &fn->vars[i];
		uint64_t *end = v->space == PTX_S_SHARED ? &shared :
				v->space == PTX_S_LOCAL ? &local : NULL;

		pl->f.vars[i].space = v->space;
		if (!end)
			continue;	/* .param of a call sequence */
		pl->f.vars[i].offset = ptx_align_up(*end, ptx_var_align(v));
		*end = pl->f.vars[i].offset + ptx_var_size(v);
	}
	for (i = 0; i < pl->m->nvars; i++) {
		const struct ptx_var *v = &pl->m->vars[i];

		if (v->space == PTX_S_SHARED && v->is_extern &&
		    ptx_var_align(v) > dyn_align)
			dyn_align = ptx_var_align(v);
	}
	for (i = 0; i < pl->m->nvars; i++)
		if (pl->m->vars[i].space == PTX_S_SHARED &&
		    pl->m->vars[i].is_extern)
			pl->modvars[i].offset = ptx_align_up(shared, dyn_align);
	if (shared > VGPU_MAX_SHARED_BYTES)
		return ptx_error(pl, fn->pos, "'%s' uses %llu bytes of shared memory (at most %u)",
				 fn->name, (unsigned long long)shared,
				 VGPU_MAX_SHARED_BYTES);
	pl->shared_static = (uint32_t)shared;
	pl->local_bytes = (uint32_t)local;
	k->params = calloc(fn->nparams ? fn->nparams : 1, sizeof(*k->params));
	if (!k->params)
		return ptx_out_of_memory(pl);
	for (i = 0; i < fn->nparams; i++) {
		const struct ptx_var *v = &fn->params[i];

		pl->f.params[i].space = PTX_S_PARAM;
		pl->f.params[i].offset = ptx_align_up(pend, ptx_var_align(v));
		pend = pl->f.params[i].offset + ptx_var_size(v);
		k->params[i].offset = (uint32_t)pl->f.params[i].offset;
		k->params[i].size = (uint32_t)ptx_var_size(v);
	}
	if (pend > VGPU_MAX_PARAM_BYTES)
		return ptx_error(pl, fn->pos, "'%s' has %llu bytes of parameters (at most %u)",
				 fn->name, (unsigned long long)pend,
				 VGPU_MAX_PARAM_BYTES);
	k->nparams = fn->nparams;
	k->f.param_bytes = (uint32_t)pend;
	return 0;
}

/* --- unreachable code and moves to self ----------------------------------- */

static bool ptx_falls_through(const struct vgpu_insn *in)
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
static int ptx_compact(struct ptx_lower *pl, uint32_t start)
{
	uint32_t n = pl->ncode - start, i, top = 0, kept = 0, r, w = 0;
	uint32_t *stack = malloc((size_t)n * sizeof(*stack));
	uint32_t *newi = malloc((size_t)n * sizeof(*newi));

	if (!stack || !newi) {
		free(stack);
		free(newi);
		return ptx_out_of_memory(pl);
	}
	for (i = 0; i < n; i++)
		newi[i] = UINT32_MAX;
	stack[top++] = 0;
	newi[0] = 0;
	while (top) {
		uint32_t at = stack[--top];
		const struct vgpu_insn *in = &pl->code[start + at];

		if (in->op == VGPU_OP_BRA && newi[in->imm - start] == UINT32_MAX) {
			newi[in->imm - start] = 0;
			stack[top++] = (uint32_t)in->imm - start;
		}
		if (ptx_falls_through(in) && at + 1 < n &&
		    newi[at + 1] == UINT32_MAX) {
			newi[at + 1] = 0;
			stack[top++] = at + 1;
		}
	}
	for (i = 0; i < n; i++)
		if (newi[i] != UINT32_MAX)
			newi[i] = kept++;
	for (i = 0; i < n; i++) {
		struct vgpu_insn *in = &pl->code[start + i];

		if (newi[i] == UINT32_MAX)
			continue;
		if (in->op == VGPU_OP_BRA) {
			in->imm = start + newi[in->imm - start];
			in->c = VGPU_NO_TARGET;
		}
		pl->code[start + newi[i]] = *in;
		pl->src[start + newi[i]] = pl->src[start + i];
	}
	for (r = 0; r < pl->nrelocs; r++) {
		uint32_t at = pl->relocs[r];

		if (at < start)
			pl->relocs[w++] = at;
		else if (newi[at - start] != UINT32_MAX)
			pl->relocs[w++] = start + newi[at - start];
	}
	pl->nrelocs = w;
	pl->ncode = start + kept;
	free(stack);
	free(newi);
	return 0;
}

/* A move of a whole register to itself, which allocation leaves behind. */
static bool ptx_self_move(const struct vgpu_insn *in)
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
static int ptx_drop_self_moves(struct ptx_lower *pl, uint32_t start)
{
	uint32_t n = pl->ncode - start, i, kept = 0, r, w = 0;
	uint32_t *newi = malloc(((size_t)n + 1) * sizeof(*newi));

	if (!newi)
		return ptx_out_of_memory(pl);
	for (i = 0; i < n; i++) {
		newi[i] = kept;
		kept += !ptx_self_move(&pl->code[start + i]);
	}
	newi[n] = kept;
	for (i = 0; i < n; i++) {
		struct vgpu_insn in = pl->code[start + i];

		if (ptx_self_move(&in))
			continue;
		if (in.op == VGPU_OP_BRA)
			in.imm = start + newi[in.imm - start];
		pl->code[start + newi[i]] = in;
		pl->src[start + newi[i]] = pl->src[start + i];
	}
	for (r = 0; r < pl->nrelocs; r++) {
		uint32_t at = pl->relocs[r];

		pl->relocs[w++] = at < start ? at : start + newi[at - start];
	}
	pl->nrelocs = w;
	pl->ncode = start + kept;
	free(newi);
	return 0;
}

/* --- kernels and the module ----------------------------------------------- */

static uint32_t ptx_max_threads(const struct ptx_func *fn)
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

static int ptx_lower_kernel(struct ptx_lower *pl, const struct ptx_func *fn,
			    struct vg_jit_kernel *k)
{
	uint32_t start = pl->ncode, i;
	int ret = -1;

	memset(&pl->f, 0, sizeof(pl->f));
	pl->f.fn = fn;
	pl->f.vars = calloc(fn->nvars ? fn->nvars : 1, sizeof(*pl->f.vars));
	pl->f.params = calloc(fn->nparams ? fn->nparams : 1,
			      sizeof(*pl->f.params));
	k->name = strdup(fn->name);
	pl->nregs = 0;
	pl->npreds = 0;
	pl->max_temps = 0;
	pl->nfixups = 0;
	pl->nlfix = 0;
	pl->scratch_pred = UINT32_MAX;
	pl->prints = false;
	if (!pl->f.vars || !pl->f.params || !k->name) {
		ptx_out_of_memory(pl);
		goto out;
	}
	if (ptx_layout_kernel(pl, k) || ptx_frame_setup(pl, &pl->f) ||
	    ptx_lower_body(pl))
		goto out;
	/* Whole words of local memory, so printf can copy 8 bytes at a time. */
	pl->local_bytes = (uint32_t)ptx_align_up(pl->local_bytes, 8);
	for (i = 0; i < pl->nlfix; i++)
		pl->code[pl->lfix[i]].imm = pl->local_bytes;
	/* A label at the end, or the last instruction, may lead on: stop. */
	pl->guard = VGPU_PRED_NONE;
	pl->cur = NULL;
	if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_EXIT,
		     .guard = VGPU_PRED_NONE }, false) ||
	    ptx_compact(pl, start))
		goto out;
	if (pl->local_bytes > VGPU_MAX_LOCAL_BYTES) {
		ptx_error(pl, fn->pos, "'%s' uses %u bytes of local memory (at most %u)",
			  fn->name, pl->local_bytes, VGPU_MAX_LOCAL_BYTES);
		goto out;
	}
	if (pl->nregs + pl->max_temps > VGPU_MAX_REGS) {
		ptx_error(pl, fn->pos, "'%s' needs %u registers (at most %u)",
			  fn->name, pl->nregs + pl->max_temps, VGPU_MAX_REGS);
		goto out;
	}
	k->f.entry = start;
	/* Registers never live together share a slot (ptx_regalloc.c). */
	k->f.nregs = ptx_regalloc(pl->code + start, pl->ncode - start, start,
				  pl->nregs + pl->max_temps);
	if (ptx_drop_self_moves(pl, start))
		goto out;
	k->f.npreds = pl->npreds;
	k->f.shared_bytes = pl->shared_static;
	k->f.local_bytes = pl->local_bytes;
	k->f.max_threads = ptx_max_threads(fn);
	k->ptx_regs = fn->nregs;
	k->prints = pl->prints;
	ret = 0;
out:
	ptx_frame_free(&pl->f);
	memset(&pl->f, 0, sizeof(pl->f));
	return ret;
}

/* The line table goes to the image with the names of the module's files. */
static int ptx_keep_files(struct ptx_lower *pl, struct vg_jit_image *img)
{
	uint32_t i;

	img->files = calloc(pl->m->nfiles ? pl->m->nfiles : 1, sizeof(char *));
	if (!img->files)
		return ptx_out_of_memory(pl);
	for (i = 0; i < pl->m->nfiles; i++) {
		img->files[i] = strdup(pl->m->files[i].path);
		if (!img->files[i])
			return ptx_out_of_memory(pl);
		img->nfiles = i + 1;
	}
	img->src = pl->src;
	pl->src = NULL;
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
	free(img->data_relocs);
	free(img);
}

int vg_jit_compile(const char *ptx, size_t len, struct vg_jit_image **out,
		   char *err, size_t err_len)
{
	struct ptx_lower pl = { .err = err, .err_len = err_len,
			 .guard = VGPU_PRED_NONE };
	struct vg_jit_image *img = calloc(1, sizeof(*img));
	struct ptx_module *m = NULL;
	uint32_t i, nk = 0;

	if (err_len)
		err[0] = 0;
	if (!img)
		return ptx_out_of_memory(&pl);
	if (ptx_parse(ptx, len, &m, err, err_len))
		goto fail;
	pl.m = m;
	for (i = 0; i < m->nfuncs; i++)
		nk += m->funcs[i].entry && m->funcs[i].has_body;
	img->kernels = calloc(nk ? nk : 1, sizeof(*img->kernels));
	if (!img->kernels) {
		ptx_out_of_memory(&pl);
		goto fail;
	}
	if (ptx_func_addrs(&pl) || ptx_layout_module(&pl, img))
		goto fail;
	for (i = 0; i < m->nfuncs; i++) {
		if (!m->funcs[i].entry || !m->funcs[i].has_body)
			continue;
		if (ptx_lower_kernel(&pl, &m->funcs[i], &img->kernels[img->nkernels++]))
			goto fail;
	}
	if (!pl.ncode) {
		ptx_error(&pl, (struct ptx_pos){ 1, 1 }, "no kernel in the module");
		goto fail;
	}
	free(pl.lfix);
	pl.lfix = NULL;
	img->insns = pl.code;
	img->ninsns = pl.ncode;
	img->relocs = pl.relocs;
	img->nrelocs = pl.nrelocs;
	if (pl.any_src && ptx_keep_files(&pl, img)) {
		pl.code = NULL;		/* the image's now */
		pl.relocs = NULL;
		goto fail;
	}
	free(pl.src);
	pl.src = NULL;
	free(pl.modvars);
	free(pl.func_addr);
	free(pl.fixups);
	ptx_free(m);
	*out = img;
	return 0;

fail:
	free(pl.lfix);
	free(pl.src);
	free(pl.code);
	free(pl.relocs);
	free(pl.modvars);
	free(pl.func_addr);
	free(pl.fixups);
	if (m)
		ptx_free(m);
	vg_jit_free(img);
	return pl.refusal ? pl.refusal : -1;
}
