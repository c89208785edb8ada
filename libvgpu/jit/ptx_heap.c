// SPDX-License-Identifier: MIT
/*
 * malloc and free: calls to the functions CUDA's device library declares
 * (.extern .func malloc, free) become the ISA's heap operations, which
 * the module runs against the context's device heap (libvgpu/heap.c).
 */
#include <string.h>

#include "ptx_ops.h"

bool ptx_heap_func(const char *name)
{
	return !strcmp(name, "malloc") || !strcmp(name, "free");
}

/* The register of a call's .param variable @s, or -1 with a diagnostic. */
static int ptx_heap_slot(struct ptx_lower *pl, const struct ptx_insn *in,
			 struct ptx_sym s, uint32_t *slot)
{
	const struct ptx_var *v;

	if (s.kind != PTX_SYM_FUNCVAR)
		return ptx_bad(pl, in, "call arguments must be .param variables");
	v = &pl->f.fn->vars[s.index];
	if (v->space != PTX_S_PARAM || v->array || v->vec != 1 ||
	    ptx_type_bits(v->type) != 64)
		return ptx_bad(pl, in, "malloc and free take and return 64-bit .param scalars");
	*slot = pl->f.var_slot[s.index];
	return 0;
}

/*
 * malloc(size) -> pointer, free(pointer): one instruction each, run by
 * the lanes of the call (a guarded call by its guard's lanes).
 */
int ptx_lower_heap(struct ptx_lower *pl, const struct ptx_insn *in,
		   const char *name, const struct ptx_opnd *rets,
		   const struct ptx_opnd *args)
{
	bool is_malloc = !strcmp(name, "malloc");
	uint32_t ret = 0, arg;

	if (is_malloc && (!rets || rets->nvec != 1 || !args || args->nvec != 1))
		return ptx_bad(pl, in, "malloc takes a size and returns a pointer");
	if (!is_malloc && ((rets && rets->nvec) || !args || args->nvec != 1))
		return ptx_bad(pl, in, "free takes a pointer and returns nothing");
	if (ptx_heap_slot(pl, in, args->list[0], &arg) ||
	    (is_malloc && ptx_heap_slot(pl, in, rets->list[0], &ret)))
		return -1;
	return ptx_emit(pl, (struct vgpu_insn){
			.op = is_malloc ? VGPU_OP_MALLOC : VGPU_OP_FREE,
			.type = VGPU_T_U64, .dst = ret, .a = arg,
			.guard = VGPU_PRED_NONE }, false);
}
