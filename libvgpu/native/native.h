/* SPDX-License-Identifier: MIT */
/*
 * The native compute engine: a kernel's verified vgpu ISA compiled by LLVM
 * into host code that runs a warp's 32 lanes as vector operations, and a
 * block runner for it. It keeps the interpreter's semantics (core/interp.c)
 * bit for bit; a program it cannot compile yet is refused with a reason
 * and stays on the interpreter.
 *
 * Device memory is reached through a shadow translation: a range's host
 * address is its device address plus a per-range delta, and every access
 * is checked against the ranges the block was given.
 */
#ifndef VGPU_NATIVE_H
#define VGPU_NATIVE_H

#include <stddef.h>

#include "core.h"

struct vgpu_native_kernel;
struct vgpu_native_block;


/*
 * Sets LLVM up for the process (once; compiling does it too when needed):
 * 0, or -1 with the reason in @why.
 */
int vgpu_native_init(char *why, size_t why_len);

/*
 * Compiles kernel @func of the verified @prog. Returns the kernel, or NULL
 * with the reason in @why (@why_len bytes) when the engine cannot run it.
 */
struct vgpu_native_kernel *vgpu_native_compile(const struct vgpu_program *prog,
					       u32 func, char *why,
					       size_t why_len);
void vgpu_native_kernel_free(struct vgpu_native_kernel *k);

/*
 * A block of launch @l of @k, reaching the @nranges ranges at @ranges
 * (copied). NULL when out of memory.
 */
struct vgpu_native_block *vgpu_native_block_new(struct vgpu_native_kernel *k,
						const struct vgpu_launch *l,
						const struct vgpu_range *ranges,
						u32 nranges);
/*
 * The context's mappings changed (memory freed or mapped): the block
 * reaches @ranges from now on, and forgets the ranges its accesses last
 * hit. The host calls it between runs, as vgpu_block_flush_tlb(). 0, or
 * -1 when out of memory (the old ranges stay).
 */
int vgpu_native_block_set_ranges(struct vgpu_native_block *b,
				 const struct vgpu_range *ranges, u32 nranges);
/*
 * Where a block finds memory its ranges do not hold: @lookup(@arg, va, r)
 * fills @r with the range holding device address @va, or returns false
 * when there is none (the access faults). What it answers joins the
 * block's ranges until vgpu_native_block_set_ranges().
 */
typedef bool (*vgpu_native_lookup_fn)(void *arg, u64 va, struct vgpu_range *r);
void vgpu_native_block_set_lookup(struct vgpu_native_block *b,
				  vgpu_native_lookup_fn lookup, void *arg);
/*
 * Whether each block of @k ends without waiting for any other (its code
 * has no loop): its blocks may then run one after another on one SM.
 */
bool vgpu_native_kernel_straight(const struct vgpu_native_kernel *k);
/* Readies block @block_index (x fastest) of the launch: zeroed state. */
void vgpu_native_block_start(struct vgpu_native_block *b, u32 block_index);
/*
 * Runs the block on for about @budget instructions, its warps taking
 * turns as on the interpreter (vgpu_block_run()): VGPU_RUN_DONE,
 * VGPU_RUN_MORE (the budget ran out: call again) or VGPU_RUN_FAULT.
 */
int vgpu_native_block_run(struct vgpu_native_block *b, u32 budget);
const struct vgpu_fault *vgpu_native_block_fault(const struct vgpu_native_block *b);
void vgpu_native_block_free(struct vgpu_native_block *b);

/* The host's vector width the code was generated for ("avx512", ...). */
const char *vgpu_native_isa_level(void);

#endif /* VGPU_NATIVE_H */
