/* SPDX-License-Identifier: MIT */
/*
 * The text form of vgpu ISA instructions, one per line, as vgpu-dis
 * prints and vgpu-as reads them. Every field of an instruction is either
 * spelled out or 0, so printing and parsing round-trip exactly:
 *
 *   [@pG | @!pG] op[.type][.stype] [mod=M] [mod2=N] [ftz] [sat]
 *       [dst=X] [a=X] [b=X] [c=X] [imm=0xN]
 *
 * where X is rN (a register), pN (a predicate), #0xN (an immediate: b or
 * c with its _IMM flag) or - (VGPU_NO_REG / VGPU_NO_TARGET), and M is a
 * name where the operation has named modifiers (rn, lt, global, tid.x...).
 */
#ifndef VGPU_ISA_TEXT_H
#define VGPU_ISA_TEXT_H

#include <stddef.h>

#include "uapi/vgpu_isa.h"

/*
 * A program file, as vgpu-as writes and vgpu-dis reads it: the magic,
 * then the counts, the kernels and the instructions, little-endian as
 * the structures are.
 */
#define VGPU_ISA_FILE_MAGIC "VGPUISA1"

struct vgpu_isa_file {
	char magic[8];
	__u32 ninsns;
	__u32 nfuncs;
};

/* Writes @in as one line (no newline) into @buf; returns its length. */
int vgpu_isa_print(const struct vgpu_insn *in, char *buf, size_t size);

/* Parses one line; 0, or -1 with a message in @err. */
int vgpu_isa_parse(const char *line, struct vgpu_insn *in, char *err,
		   size_t errsize);

#endif /* VGPU_ISA_TEXT_H */
