/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The freestanding compute core: the ISA description (isa.h), the
 * whole-program verifier and the warp interpreter. It includes no kernel
 * or libc headers beyond the uapi's <linux/types.h>; what it needs from
 * its host (vgpu.ko or a user-space program) comes through the few
 * functions declared at the end.
 */
#ifndef VGPU_CORE_H
#define VGPU_CORE_H

#include "isa.h"

#ifndef __KERNEL__
#include <stdbool.h>	/* freestanding: no library behind it */
#define fallthrough __attribute__((__fallthrough__))
#define asm __asm__	/* strict C11 has only the reserved spelling */
#endif

#ifndef NULL
#define NULL ((void *)0)
#endif

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s8 s8;
typedef __s32 s32;
typedef __s64 s64;

#define VGPU_WARP 32

/*
 * Runs the statements given for each lane of @em in turn, @lane set to
 * it. A whole warp takes a plain counted loop, which compilers unroll
 * and vectorise; a partial one visits only its lanes.
 */
#define VGPU_EACH_LANE(em, lane, ...) do {				\
	if ((em) == ~0U) {						\
		for ((lane) = 0; (lane) < VGPU_WARP; (lane)++) {	\
			__VA_ARGS__					\
		}							\
	} else {							\
		u32 each_m_;						\
									\
		for (each_m_ = (em); each_m_; each_m_ &= each_m_ - 1) {	\
			(lane) = __builtin_ctz(each_m_);		\
			__VA_ARGS__					\
		}							\
	}								\
} while (0)
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

/* Faults (vgpu_fault.kind). */
#define VGPU_FAULT_NONE 0
#define VGPU_FAULT_ADDRESS 1	/* no memory there, or not writable */
#define VGPU_FAULT_MISALIGNED 2
#define VGPU_FAULT_TRAP 3	/* a TRAP instruction */
#define VGPU_FAULT_DEADLOCK 4	/* no lane of the block can go on */

/**
 * struct vgpu_fault - what stopped a block.
 * @kind: VGPU_FAULT_*.
 * @addr: the address, for memory faults.
 * @insn: the instruction.
 * @thread: the thread's index in its block (x + y*ntid.x + ...).
 */
struct vgpu_fault {
	u32 kind;
	u32 insn;
	u32 thread;
	u32 pad;
	u64 addr;
};

/**
 * struct vgpu_range - memory the host lets a kernel reach: @size bytes at
 * device address @va, which the host sees at @ptr.
 */
struct vgpu_range {
	u64 va;
	u64 size;
	u8 *ptr;
	bool writable;
};

/**
 * struct vgpu_launch - one kernel launch, as the blocks running it see it.
 * @prog: the verified program; @func: the kernel.
 * @grid, @block: dimensions (each at least 1).
 * @dyn_shared: dynamic shared memory bytes per block.
 * @params: the parameter bytes (@func->param_bytes of them).
 * @consts: the constant bank; @const_bytes long.
 * @mmu: the host's handle for vgpu_core_lookup().
 * @smid, @nsmid: what SREG SMID and NSMID read.
 * @clock_khz: the rate of SREG CLOCK and CLOCK64 (0: they count ns).
 * @grid_sync: the grid workspace of a cooperative launch, 0 for others
 *	(SREG GRID_SYNC_HI and GRID_SYNC_LO).
 */
struct vgpu_launch {
	const struct vgpu_program *prog;
	const struct vgpu_func *func;
	u32 grid[3];
	u32 block[3];
	u32 dyn_shared;
	u32 const_bytes;
	const u8 *params;
	const u8 *consts;
	void *mmu;
	u32 smid;
	u32 nsmid;
	u32 clock_khz;
	u64 grid_sync;
};

/* What vgpu_block_run() returns. */
#define VGPU_RUN_DONE 0		/* every thread of the block has exited */
#define VGPU_RUN_MORE 1		/* the budget ran out: call again */
#define VGPU_RUN_FAULT 2	/* see vgpu_block.fault */

struct vgpu_block;

/* interp.c */
u64 vgpu_block_bytes(const struct vgpu_launch *l);
void vgpu_block_start(struct vgpu_block *b, const struct vgpu_launch *l,
		      u32 block_index, bool clear);
int vgpu_block_run(struct vgpu_block *b, u32 budget);
void vgpu_block_flush_tlb(struct vgpu_block *b);
/* Tests set this to run every instruction lane by lane (no shapes). */
extern bool vgpu_shape_off;
/* And this to run the shapes' quick loop without its pre-decoded form. */
extern bool vgpu_predecode_off;
const struct vgpu_fault *vgpu_block_fault(const struct vgpu_block *b);

/*
 * Provided by the host: the range of memory holding device address @va,
 * false when there is none.
 */
bool vgpu_core_lookup(void *mmu, u64 va, struct vgpu_range *r);

/*
 * Provided by the host: the device heap of context @mmu (VGPU_OP_MALLOC
 * and VGPU_OP_FREE). vgpu_core_malloc() returns the block's address, or
 * 0 when there is no room or no heap. vgpu_core_free() returns
 * VGPU_FAULT_NONE when it freed the block at @va or left @va alone
 * (0, or memory outside the heap), VGPU_FAULT_TRAP for an address in
 * the heap that is no live block, VGPU_FAULT_ADDRESS for one where
 * nothing is mapped. Both run where nothing may sleep.
 */
u64 vgpu_core_malloc(void *mmu, u64 size);
u32 vgpu_core_free(void *mmu, u64 va);

/* Provided by the host: nanoseconds of a monotonic clock. */
u64 vgpu_core_time_ns(void);

/*
 * Provided by the host: string formatting into a bounded buffer. (User
 * builds define __printf on the command line, as the kernel's headers do.)
 */
__printf(3, 4)
int vgpu_core_snprintf(char *buf, unsigned long size, const char *fmt, ...);

#endif /* VGPU_CORE_H */
