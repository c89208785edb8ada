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

/* The registers a block must clear before the code runs (into @list). */
u32 nrt_ir_zero_regs(const struct vgpu_native_kernel *k, u32 *list);

/* Builds @k's warp function, named @name, into @m (of context @c). */
void nrt_ir_build(const struct vgpu_native_kernel *k, LLVMContextRef c,
		  LLVMModuleRef m, const char *name);

#endif /* VGPU_NATIVE_IR_H */
