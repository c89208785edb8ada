/* SPDX-License-Identifier: MIT */
/*
 * The lowerings of PTX instructions, each of an opcode, that the opcode
 * table of ptx_select.c names, in the files between it and the emitter;
 * and printf's, which its call lowering uses.
 */
#ifndef VG_PTX_OPS_H
#define VG_PTX_OPS_H

#include "ptx_emit.h"

/* ptx_alu.c; ptx_lower_arith() takes the ISA operation of the form */
int ptx_lower_arith(struct ptx_lower *pl, const struct ptx_insn *in, uint8_t op,
		    uint8_t nsrc, uint8_t flags);
int ptx_lower_setp(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_selp(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_cvt(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_bfi(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_prmt(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_mov(struct ptx_lower *pl, const struct ptx_insn *in);
/* an add or sub that takes a mul's product (ptx_contract.c) */
int ptx_lower_fused(struct ptx_lower *pl, const struct ptx_insn *in,
		    const struct ptx_insn *mul, uint32_t prod, bool neg);

/* ptx_seq.c */
int ptx_lower_shf(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_lop3(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_slct(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_testp(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_cnot(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_mul24(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_mad24(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_sad(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_bmsk(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_szext(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_dp4a(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_dp2a(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_vabsdiff4(struct ptx_lower *pl, const struct ptx_insn *in);

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

/* ptx_tex.c */
int ptx_lower_tex(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_tld4(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_txq(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_suq(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_suld(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_sust(struct ptx_lower *pl, const struct ptx_insn *in);
int ptx_lower_istypep(struct ptx_lower *pl, const struct ptx_insn *in);

/* ptx_printf.c: a call to vprintf, with its return and argument lists */
int ptx_lower_printf(struct ptx_lower *pl, const struct ptx_insn *in,
		     const struct ptx_opnd *rets, const struct ptx_opnd *args);

/* ptx_heap.c: calls to malloc and free, the device heap's functions */
int ptx_lower_assert(struct ptx_lower *pl, const struct ptx_insn *in,
		     const struct ptx_opnd *rets, const struct ptx_opnd *args);
bool ptx_heap_func(const char *name);
int ptx_lower_heap(struct ptx_lower *pl, const struct ptx_insn *in,
		   const char *name, const struct ptx_opnd *rets,
		   const struct ptx_opnd *args);

/* ptx_cond.c: cudaGraphSetConditional, a conditional graph node's value */
bool ptx_cond_func(const char *name);
int ptx_lower_cond(struct ptx_lower *pl, const struct ptx_insn *in,
		   const struct ptx_opnd *rets, const struct ptx_opnd *args);

#endif /* VG_PTX_OPS_H */
