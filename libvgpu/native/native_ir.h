/* SPDX-License-Identifier: MIT */
/*
 * The IR builder's interface to the LLVM setup: the warp function of a
 * kernel as an LLVM module, or a refusal.
 */
#ifndef VGPU_NATIVE_IR_H
#define VGPU_NATIVE_IR_H

#include <llvm-c/Core.h>

#include "native_rt.h"

/*
 * Whether the engine can run every instruction of @k's function; the
 * reason in @why when not.
 */
bool nrt_ir_supported(const struct vgpu_native_kernel *k, char *why,
		      size_t why_len);

/* native_analysis.c: the instructions the entry reaches (a byte each). */
u8 *nrt_reach(const struct vgpu_native_kernel *k);
/* Marks in @narrow (nregs bytes) the registers kept as 32-bit lanes. */
void nrt_narrow_regs(const struct vgpu_native_kernel *k, const u8 *reach,
		     u8 *narrow);
/*
 * Whether @in reads a parameter whole at a constant offset (no lane can
 * fault: one value for the warp).
 */
bool nrt_param_direct(const struct vgpu_native_kernel *k, const struct vgpu_insn *in);
/* Whether @in writes register in->dst. */
bool nrt_defines(const struct vgpu_insn *in);
/* The registers @in reads (a, b, c; ~0U for none). */
void nrt_reads(const struct vgpu_insn *in, u32 *rd);
/* The registers a block must clear before the code runs (into @list). */
u32 nrt_ir_zero_regs(const struct vgpu_native_kernel *k, u32 *list);

/*
 * native_helpers.c: the runtime helpers generated code calls, by the
 * names it calls them by.
 */
struct nrt_helper {
	const char *name;
	const void *fn;
};
extern const struct nrt_helper nrt_helpers[];
extern const unsigned int nrt_nhelpers;
const char *nrt_helper_name(const void *fn);

/* native_live.c: instructions run inline; live registers per instruction. */
bool nrt_insn_inline(const struct vgpu_insn *in);
u64 *nrt_live_regs(const struct vgpu_native_kernel *k, const u8 *reach, u32 words);

/*
 * native_block.c: whether @k's code is one straight run the block
 * function can run (@reach: nrt_reach()'s), and that function, named
 * @name, built into @m (false when out of memory).
 */
bool nrt_block_eligible(const struct vgpu_native_kernel *k, const u8 *reach);
bool nrt_block_build(const struct vgpu_native_kernel *k, LLVMContextRef c,
		     LLVMModuleRef m, const char *name);
/* Whether @in is an instruction the block function runs through a helper. */
bool nrt_block_on_helper(const struct vgpu_insn *in);
/* Whether the BRA @in at @pc goes to an EXIT without a guard. */
bool nrt_block_bra_to_exit(const struct vgpu_native_kernel *k, const struct vgpu_insn *in,
			   u32 pc);

/*
 * native_phase.c: whether @k's code is short runs between barriers the
 * phased block function can run, and that function, as above.
 */
bool nrt_phase_eligible(const struct vgpu_native_kernel *k, const u8 *reach);
bool nrt_phase_build(const struct vgpu_native_kernel *k, LLVMContextRef c, LLVMModuleRef m,
		     const char *name);

/*
 * Whether the host has vector mask registers (AVX-512), which the code
 * builders ask of lane masks: native_llvm.c sets it with its target, and
 * defines it here, where the builders' own file is, so that the builders
 * call nothing of the JIT's.
 */
extern bool nrt_kmasks;

/* Builds @k's warp function, named @name, into @m (of context @c). */
void nrt_ir_build(const struct vgpu_native_kernel *k, LLVMContextRef c,
		  LLVMModuleRef m, const char *name);

#endif /* VGPU_NATIVE_IR_H */
