// SPDX-License-Identifier: MIT
/*
 * cudaGraphSetConditional(handle, value): the device runtime's call that
 * sets a conditional graph node's value. A handle here is the device
 * address of the node's 32-bit value word (libvgpu/graph_cond.c), so the
 * call becomes a store of the value there, by the lanes of the call.
 */
#include <string.h>

#include "ptx_ops.h"

bool ptx_cond_func(const char *name)
{
	return !strcmp(name, "cudaGraphSetConditional");
}

/* The register of a call's .param scalar @s of @bits, or -1. */
static int ptx_cond_slot(struct ptx_lower *pl, const struct ptx_insn *in,
			 struct ptx_sym s, unsigned int bits, uint32_t *slot)
{
	const struct ptx_var *v;

	if (s.kind != PTX_SYM_FUNCVAR)
		return ptx_bad(pl, in, "call arguments must be .param variables");
	v = &pl->f.fn->vars[s.index];
	if (v->space != PTX_S_PARAM || v->array || v->vec != 1 ||
	    ptx_type_bits(v->type) != bits)
		return ptx_bad(pl, in, "cudaGraphSetConditional takes a 64-bit handle and a 32-bit value");
	*slot = pl->f.var_slot[s.index];
	return 0;
}

int ptx_lower_cond(struct ptx_lower *pl, const struct ptx_insn *in,
		   const struct ptx_opnd *rets, const struct ptx_opnd *args)
{
	uint32_t handle, value;

	if ((rets && rets->nvec) || !args || args->nvec != 2)
		return ptx_bad(pl, in, "cudaGraphSetConditional takes a handle and a value and returns nothing");
	if (ptx_cond_slot(pl, in, args->list[0], 64, &handle) ||
	    ptx_cond_slot(pl, in, args->list[1], 32, &value))
		return -1;
	return ptx_emit(pl, (struct vgpu_insn){
			.op = VGPU_OP_ST, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
			.a = handle, .b = value, .guard = VGPU_PRED_NONE }, false);
}
