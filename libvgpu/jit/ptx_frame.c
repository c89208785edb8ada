// SPDX-License-Identifier: MIT
/*
 * Frames: where the PTX registers, call slots and local variables of a
 * body go, the kernel's or an inlined function's; and variables' sizes.
 */
#include <stdlib.h>

#include "ptx_frame.h"

/* The bytes of variable @v. */
uint64_t ptx_var_size(const struct ptx_var *v)
{
	uint64_t elem = ptx_type_bits(v->type) / 8 * (v->vec ? v->vec : 1);

	if (v->type == PTX_T_PRED)
		elem = 1;
	return elem * (v->array ? v->count : 1);
}

/* Its alignment: the declared one, else its element's size. */
uint64_t ptx_var_align(const struct ptx_var *v)
{
	uint64_t a = v->align;

	if (!a) {
		a = ptx_type_bits(v->type) / 8 * (v->vec ? v->vec : 1);
		if (!a)
			a = 1;
	}
	return a;
}

/* @x rounded up to a multiple of @a. */
uint64_t ptx_align_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) / a * a;
}

/*
 * The frame's PTX registers get ISA registers or predicates, one each,
 * and its call-sequence .param variables their slots; an inlined
 * function's local variables go after the kernel's.
 */
int ptx_frame_setup(struct ptx_lower *pl, struct ptx_frame *fr)
{
	const struct ptx_func *fn = fr->fn;
	uint32_t i;

	fr->reg_of = calloc(fn->nregs ? fn->nregs : 1, sizeof(*fr->reg_of));
	fr->var_slot = calloc(fn->nvars ? fn->nvars : 1, sizeof(*fr->var_slot));
	fr->label_at = malloc((fn->nlabels + 1) * sizeof(*fr->label_at));
	if (!fr->vars)
		fr->vars = calloc(fn->nvars ? fn->nvars : 1, sizeof(*fr->vars));
	if (!fr->reg_of || !fr->var_slot || !fr->label_at || !fr->vars)
		return ptx_out_of_memory(pl);
	for (i = 0; i <= fn->nlabels; i++)
		fr->label_at[i] = UINT32_MAX;
	for (i = 0; i < fn->nregs; i++) {
		const struct ptx_reg *r = &fn->regs[i];

		if (r->vec > 1)
			return ptx_error(pl, r->pos, "vector register '%s' is not supported",
					 r->name);
		if (r->type == PTX_T_PRED) {
			if (pl->npreds >= VGPU_MAX_PREDS)
				return ptx_error(pl, r->pos, "more than %u predicates",
						 VGPU_MAX_PREDS);
			fr->reg_of[i] = pl->npreds++;
		} else {
			fr->reg_of[i] = pl->nregs++;
		}
	}
	for (i = 0; i < fn->nvars; i++) {
		const struct ptx_var *v = &fn->vars[i];

		if (v->space == PTX_S_PARAM) {
			fr->vars[i].space = PTX_S_PARAM;
			fr->var_slot[i] = pl->nregs;
			pl->nregs += (uint32_t)((ptx_var_size(v) + 7) / 8);
			continue;
		}
		if (!fr->depth)
			continue;	/* the kernel's: ptx_layout_kernel() */
		if (v->space != PTX_S_LOCAL)
			return ptx_error(pl, v->pos, "'%s': shared memory declared in a function is not supported",
					 v->name);
		fr->vars[i].space = PTX_S_LOCAL;
		fr->vars[i].offset = ptx_align_up(pl->local_bytes, ptx_var_align(v));
		if (fr->vars[i].offset + ptx_var_size(v) > VGPU_MAX_LOCAL_BYTES)
			return ptx_error(pl, v->pos, "local memory over %u bytes",
					 VGPU_MAX_LOCAL_BYTES);
		pl->local_bytes = (uint32_t)(fr->vars[i].offset + ptx_var_size(v));
	}
	if (pl->nregs > VGPU_MAX_REGS)
		return ptx_error(pl, fn->pos, "'%s' needs more than %u registers",
				 fn->name, VGPU_MAX_REGS);
	return 0;
}

/* Frees the frame's tables, those its owner allocated too. */
void ptx_frame_free(struct ptx_frame *fr)
{
	free(fr->reg_of);
	free(fr->var_slot);
	free(fr->label_at);
	free(fr->vars);
	free(fr->params);
	free((void *)fr->param_slot);
	free((void *)fr->ret_slot);
}
