/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Integer, bit-field and atomic operations on single values, as the ISA
 * defines them: the one definition both the interpreter and the native
 * engine (libvgpu/native) run, so the two agree bit for bit. What a type
 * means for a value is inline here; the lane loops stay with each engine.
 */
#ifndef VGPU_INTOPS_H
#define VGPU_INTOPS_H

#include "core.h"

static inline unsigned int vgpu_type_bits(u8 t)
{
	/* A table, not a switch: no jump for emulated CPUs to look up. */
	static const u8 bits[VGPU_T_COUNT] = {
		[VGPU_T_U8] = 8, [VGPU_T_S8] = 8, [VGPU_T_U16] = 16,
		[VGPU_T_S16] = 16, [VGPU_T_F16] = 16, [VGPU_T_U32] = 32,
		[VGPU_T_S32] = 32, [VGPU_T_F32] = 32,
	};

	return t < VGPU_T_COUNT && bits[t] ? bits[t] : 64;
}

/* Bit tests, small enough to be inlined everywhere (no call to return from). */
static __always_inline bool vgpu_type_signed(u8 t)
{
	return t < 32 && ((1U << VGPU_T_S8 | 1U << VGPU_T_S16 | 1U << VGPU_T_S32 |
			   1U << VGPU_T_S64) >> t & 1);
}

static __always_inline bool vgpu_is_float(u8 t)
{
	return t < 32 && ((1U << VGPU_T_F32 | 1U << VGPU_T_F64 | 1U << VGPU_T_F16) >> t & 1);
}

/* @v cut to @t's width, zero-extended (the register form of a result). */
static inline u64 vgpu_trunc(u64 v, u8 t)
{
	unsigned int bits = vgpu_type_bits(t);

	return bits == 64 ? v : v & ((1ULL << bits) - 1);
}

/* @v as a signed value of @t's width. */
static inline s64 vgpu_sext(u64 v, u8 t)
{
	unsigned int bits = vgpu_type_bits(t);

	return bits == 64 ? (s64)v : (s64)(v << (64 - bits)) >> (64 - bits);
}

u64 vgpu_popcount(u64 v);
u64 vgpu_int_op(const struct vgpu_insn *in, u64 a, u64 b, u64 c);
void vgpu_bit_lanes(u64 *regs, const struct vgpu_insn *in, u32 em);
u64 vgpu_atomic(u8 *p, const struct vgpu_insn *in, u64 b, u64 c);

#endif /* VGPU_INTOPS_H */
