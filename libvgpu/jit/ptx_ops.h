/* SPDX-License-Identifier: MIT */
/*
 * The lowerings of PTX instructions, each for an opcode or a family of
 * them, in the files above the emitter.
 */
#ifndef VG_PTX_OPS_H
#define VG_PTX_OPS_H

#include "ptx_emit.h"

/* ptx_mem.c */
int ptx_lower_ld(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_st(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_atom(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_red(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_cvta(struct ptx_lower *pl, const struct ptx_insn *in);

/* ptx_warp.c */
int ptx_lower_bar(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_membar(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_shfl(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_vote(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_match(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_activemask(struct ptx_lower *pl, const struct ptx_insn *in);

/* ptx_printf.c: a call to vprintf, with its return and argument lists */
int ptx_lower_printf(struct ptx_lower *pl, const struct ptx_insn *in,
		     const struct ptx_opnd *rets, const struct ptx_opnd *args);

#endif /* VG_PTX_OPS_H */
