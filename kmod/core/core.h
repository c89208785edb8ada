/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The freestanding compute core: the ISA verifier and the warp
 * interpreter. It includes no kernel or libc headers beyond the uapi's
 * <linux/types.h>; what it needs from its host (vgpu.ko or a user-space
 * test) comes through the few functions declared at the end.
 */
#ifndef VGPU_CORE_H
#define VGPU_CORE_H

#include "../../uapi/vgpu_isa.h"

#ifndef __KERNEL__
#include <stdbool.h>	/* freestanding: no library behind it */
#endif

#ifndef NULL
#define NULL ((void *)0)
#endif

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;

#define VGPU_WARP 32
#define VGPU_VERIFY_MSG 128

/**
 * struct vgpu_program - a program as the verifier and interpreter see it.
 * @insns: the instructions.
 * @ninsns: how many.
 * @funcs: its kernels.
 * @nfuncs: how many.
 */
struct vgpu_program {
	const struct vgpu_insn *insns;
	u32 ninsns;
	const struct vgpu_func *funcs;
	u32 nfuncs;
};

/**
 * struct vgpu_verdict - why a program was refused.
 * @insn: index of the instruction at fault, or -1 for the program itself.
 * @func: index of the kernel whose code was being checked, or -1.
 * @msg: the reason.
 */
struct vgpu_verdict {
	s64 insn;
	s64 func;
	char msg[VGPU_VERIFY_MSG];
};

/* isa_verify.c: 0, or -1 with @v filled. */
int vgpu_isa_verify(const struct vgpu_program *prog, u8 *seen, u32 *stack,
		    struct vgpu_verdict *v);

/*
 * Provided by the host: string formatting into a bounded buffer. (User
 * builds define __printf on the command line, as the kernel's headers do.)
 */
__printf(3, 4)
int vgpu_core_snprintf(char *buf, unsigned long size, const char *fmt, ...);

#endif /* VGPU_CORE_H */
