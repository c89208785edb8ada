/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The floating-point side of the interpreter (fp.c, the one file of the
 * core built with floating-point code generation). Values cross this
 * boundary as register bit patterns only, never as float or double.
 */
#ifndef VGPU_CORE_FP_H
#define VGPU_CORE_FP_H

#include "core.h"

/* ADD SUB MUL FMA DIV MIN MAX ABS NEG of F32/F64 on the lanes of @em. */
void vgpu_fp_alu(u64 *regs, const struct vgpu_insn *in, u32 em);
/*
 * F32 FMA of a whole warp whose a is one value a row of 2^@ps lanes
 * (@base + @sy * row, a register shape's), b and c lanes, in the default
 * rounding without flags: false, having done nothing, where the CPU has
 * no FMA unit.
 */
bool vgpu_f32_fma_arows(u64 *regs, const struct vgpu_insn *in, u64 base,
			u64 sy, u32 ps);
/*
 * Whether the CPU has an FMA unit: 1 or 0 once the core has looked, -1
 * before. Where it has, the quick loop calls vgpu_f32_fma_rows(), the
 * FMA-unit code of vgpu_f32_fma_arows(), itself: one call and return
 * fewer an instruction, which an emulated CPU pays for.
 */
extern int vgpu_fp_fma_unit;
void vgpu_f32_fma_rows(u64 *regs, const struct vgpu_insn *in, u64 row, u64 sy, u32 ps);
/* SETP of F32/F64: the lanes of @em where the comparison holds. */
u32 vgpu_fp_setp(const u64 *regs, const struct vgpu_insn *in, u32 em);
/* CVT between any two numeric types on the lanes of @em. */
void vgpu_fp_cvt(u64 *regs, const struct vgpu_insn *in, u32 em);
/* CVT of one value. */
u64 vgpu_fp_cvt_one(const struct vgpu_insn *in, u64 v);
/* SQRT RCP RSQRT EX2 LG2 SIN COS TANH COPYSIGN on the lanes of @em. */
void vgpu_fp_func(u64 *regs, const struct vgpu_insn *in, u32 em);
/* Tests set this to run the software fma a CPU without FMA would use. */
extern bool vgpu_fp_no_fma;

/* Atomic add of F32/F64 @bits at @p (aligned); returns the old bits. */
u64 vgpu_fp_atom_add(u8 *p, u8 type, u64 bits);

#endif /* VGPU_CORE_FP_H */
