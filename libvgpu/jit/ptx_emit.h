/* SPDX-License-Identifier: MIT */
/*
 * The lowering's state, and the emitter (ptx_emit.c) that every other
 * part of the lowering writes the program through.
 */
#ifndef VG_PTX_EMIT_H
#define VG_PTX_EMIT_H

#include "jit.h"
#include "ptx.h"

/*
 * A function's address, for the functions whose address the module takes
 * (operands other than a call's callee, initializers): the k-th of them
 * in module order (k from 1) is k * PTX_FUNC_ADDR_STEP, the same in every
 * kernel and in the module's data. Small, so a call through a pointer
 * compares with immediates; nonzero; even, as C++'s member function
 * pointers keep a flag in bit 0; and below every mapping, so reading
 * data through one faults.
 */
#define PTX_FUNC_ADDR_STEP 16

/* Where a variable lives once laid out. */
struct ptx_place {
	enum ptx_space space;	/* GLOBAL, CONST, SHARED, LOCAL or PARAM */
	uint64_t offset;	/* in its space (GLOBAL: in the module block) */
};

/* A branch waiting for its label's instruction index. */
struct ptx_branch_fixup {
	uint32_t insn;
	uint32_t label;
};

/*
 * The function whose body is being lowered: the kernel, or a .func
 * inlined into it at a call. Parameters of calls live in registers
 * ("slots", 8 bytes each): the caller's call-sequence .param variables
 * get them, and an inlined function's parameters and return values are
 * the slots of the arguments its caller named.
 */
struct ptx_frame {
	const struct ptx_func *fn;
	struct ptx_place *vars;		/* per variable of @fn */
	struct ptx_place *params;	/* kernel parameters (kernel frame) */
	uint32_t *reg_of;	/* PTX register -> ISA register or predicate */
	uint32_t *label_at;	/* PTX label -> ISA index, ~0 until reached;
				 * one more entry: the end of an inlined body */
	uint32_t *var_slot;	/* .param variable -> its first slot */
	const uint32_t *param_slot;	/* inlined: parameter -> slot, else NULL */
	const uint32_t *ret_slot;	/* inlined: return value -> slot */
	uint32_t fixup_base;	/* the frame's first entry in fixups */
	uint32_t depth;		/* 0 for the kernel */
	const struct ptx_frame *up;	/* the caller */
};

/* A module being lowered: what the parts of the lowering share. */
struct ptx_lower {
	int refusal;		/* VG_JIT_REFUSED_*, for a refusal NVIDIA codes apart */
	const struct ptx_module *m;
	struct ptx_place *modvars;	/* per module variable */
	uint64_t *func_addr;	/* per module function: its address, or 0 */
	struct ptx_frame f;		/* the body being lowered */
	/* The program being written (all kernels). */
	struct vgpu_insn *code;
	struct vg_jit_src *src;	/* where each came from (.loc) */
	uint32_t ncode, capcode, capsrc;
	bool any_src;
	uint32_t *relocs;
	uint32_t nrelocs, caprelocs;
	/* This kernel. */
	uint32_t nregs;		/* ISA registers given out (not temporaries) */
	uint32_t npreds;
	uint32_t ntemps;	/* temporaries in use by the current instruction */
	uint32_t max_temps;
	struct ptx_branch_fixup *fixups;
	uint32_t nfixups, capfixups;
	uint32_t shared_static;	/* bytes of static shared memory */
	uint64_t printf_off;	/* the FIFO's address in globals, or ~0 */
	bool prints;		/* this kernel calls vprintf */
	uint32_t scratch_pred;	/* a predicate for the JIT's own use, or ~0 */
	uint32_t *lfix;		/* instructions whose imm is local_bytes */
	uint32_t nlfix, caplfix;
	uint32_t local_bytes;
	const struct ptx_insn *cur;	/* the PTX instruction being lowered */
	uint8_t guard;		/* of the PTX instruction being lowered */
	bool guard_not;
	/* The first error. */
	char *err;
	size_t err_len;
	bool failed;
};

/* A source operand once resolved: a register, or an immediate. */
struct ptx_val {
	bool imm;
	bool reloc;		/* the immediate is an offset in the global block */
	uint32_t reg;
	uint64_t bits;
};

/* ptx_emit.c: the program and its errors */
int ptx_error(struct ptx_lower *pl, struct ptx_pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ptx_out_of_memory(struct ptx_lower *pl);
int ptx_emit(struct ptx_lower *pl, struct vgpu_insn in, bool reloc);
/* Is @name nvcc's extern for a failed assert (ptx_assert.c)? */
bool ptx_assert_func(const char *name);
uint32_t ptx_temp(struct ptx_lower *pl);
int ptx_fixup_branch(struct ptx_lower *pl, uint32_t insn, uint32_t label);
int ptx_fixup_local_size(struct ptx_lower *pl, uint32_t insn);
int ptx_scratch_pred(struct ptx_lower *pl, uint32_t *p);
int ptx_call_skip_begin(struct ptx_lower *pl, uint32_t *bra);
void ptx_call_skip_end(struct ptx_lower *pl, uint32_t bra);
int ptx_call_params(struct ptx_lower *pl, const struct ptx_insn *in,
		    const struct ptx_opnd *args, unsigned int n,
		    uint32_t *slots);

/* ptx_emit.c: operands */
uint8_t ptx_vtype(enum ptx_type t);
enum ptx_type ptx_nth_type(const struct ptx_insn *in, unsigned int nth);
int ptx_bad(struct ptx_lower *pl, const struct ptx_insn *in, const char *what);
uint32_t ptx_reg_of(struct ptx_lower *pl, uint32_t idx, bool pred);
int ptx_itype(struct ptx_lower *pl, const struct ptx_insn *in, unsigned int nth,
	      uint8_t *vt);
bool ptx_vfloat(uint8_t vt);
unsigned int ptx_vbits(uint8_t vt);
uint64_t ptx_cut(uint64_t v, uint8_t vt);
int ptx_sym_addr(struct ptx_lower *pl, const struct ptx_opnd *o,
		 struct ptx_val *v, enum ptx_space *space);
int ptx_read_sreg(struct ptx_lower *pl, const struct ptx_opnd *o, uint32_t dst,
		  uint8_t vt);
int ptx_src_val(struct ptx_lower *pl, const struct ptx_opnd *o, uint8_t vt,
		struct ptx_val *v);
int ptx_in_reg(struct ptx_lower *pl, struct ptx_val *v, uint8_t vt);
int ptx_src_reg(struct ptx_lower *pl, const struct ptx_opnd *o, uint8_t vt,
		uint32_t *reg);
int ptx_dst(struct ptx_lower *pl, const struct ptx_insn *in, uint32_t i, bool pred,
	    uint32_t *reg);
int ptx_nopnds(struct ptx_lower *pl, const struct ptx_insn *in, uint32_t n);

/* ptx_emit.c: instructions of sequences */
int ptx_op(struct ptx_lower *pl, uint8_t op, uint8_t t, uint32_t d, uint32_t a,
	   uint32_t b);
int ptx_opi(struct ptx_lower *pl, uint8_t op, uint8_t t, uint32_t d, uint32_t a,
	    uint64_t imm);
int ptx_opv(struct ptx_lower *pl, uint8_t op, uint8_t t, uint32_t d, uint32_t a,
	    const struct ptx_val *v);
int ptx_un(struct ptx_lower *pl, uint8_t op, uint8_t t, uint32_t d, uint32_t a);
int ptx_mov(struct ptx_lower *pl, uint8_t t, uint32_t d, uint32_t s);
int ptx_movi(struct ptx_lower *pl, uint8_t t, uint32_t d, uint64_t imm);

#endif /* VG_PTX_EMIT_H */
