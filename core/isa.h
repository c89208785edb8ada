/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The ISA description (isa_desc.c): each operation's name and operand
 * slots, and the check of one instruction's form. It needs nothing else
 * of the core: the JIT and the assembler include this header alone.
 */
#ifndef VGPU_CORE_ISA_H
#define VGPU_CORE_ISA_H

#include "../uapi/vgpu_isa.h"

#ifndef __KERNEL__
#include <stdbool.h>	/* freestanding: no library behind it */
#endif

/* What an operand slot of an operation holds. */
enum vgpu_opnd {
	OPND_NONE,		/* unused: must be 0 */
	OPND_REG,		/* a register */
	OPND_REG_IMM,		/* a register, or @imm by flag */
	OPND_PRED,		/* a predicate */
	OPND_ADDR,		/* a register or VGPU_NO_REG */
	OPND_MEET,		/* an instruction index or VGPU_NO_TARGET */
	OPND_REG_INLINE,	/* a register, or the field itself by flag */
};

/*
 * An operation's name and slots. An instruction of type PRED holds
 * predicates where its slots say OPND_REG or OPND_REG_IMM.
 */
struct vgpu_op_desc {
	const char *name;
	__u8 dst, a, b, c;
};

bool vgpu_isa_op_desc(__u8 op, struct vgpu_op_desc *d);
/* The same for one instruction, whose fields may leave slots unused. */
bool vgpu_isa_insn_desc(const struct vgpu_insn *in, struct vgpu_op_desc *d);

/* One instruction's form, NULL when well formed. */
const char *vgpu_isa_check_shape(const struct vgpu_insn *in, __u32 ninsns);

#endif /* VGPU_CORE_ISA_H */
