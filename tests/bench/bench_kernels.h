/* SPDX-License-Identifier: MIT */
/*
 * The compute benchmarks' kernels as vgpu ISA, shared by the interpreter's
 * bench (run in the VM), the native engine's (on the host) and the native
 * engine's unit test, which checks both engines agree on them.
 */
#ifndef VGPU_BENCH_KERNELS_H
#define VGPU_BENCH_KERNELS_H

#include "isa_build.h"

/* y[i] = a * x[i] + y[i]; params x, y, a (f32), n (u32) */
static const struct vgpu_insn saxpy[] = {
	SREG(0, VGPU_SR_CTAID_X), SREG(1, VGPU_SR_NTID_X), SREG(2, VGPU_SR_TID_X),
	INSN(.op = VGPU_OP_MAD, .type = VGPU_T_U32, .dst = 3, .a = 0, .b = 1, .c = 2),
	LDP(VGPU_T_U32, 4, 20),
	SETP(VGPU_T_U32, VGPU_CMP_GE, 0, 3, 4),
	INSN(.op = VGPU_OP_EXIT, .guard = 0),
	OPI(VGPU_OP_SHL, VGPU_T_U64, 5, 3, 2),
	LDP(VGPU_T_U64, 6, 0), OP3(VGPU_OP_ADD, VGPU_T_U64, 6, 6, 5),
	LD(VGPU_SPACE_GLOBAL, VGPU_T_F32, 7, 6, 0),
	LDP(VGPU_T_U64, 6, 8), OP3(VGPU_OP_ADD, VGPU_T_U64, 6, 6, 5),
	LD(VGPU_SPACE_GLOBAL, VGPU_T_F32, 8, 6, 0),
	LDP(VGPU_T_F32, 9, 16),
	INSN(.op = VGPU_OP_FMA, .type = VGPU_T_F32, .dst = 8, .a = 9, .b = 7, .c = 8),
	ST(VGPU_SPACE_GLOBAL, VGPU_T_F32, 6, 0, 8),
	EXIT(),
};

/* C = A B, N x N, 16 x 16 tiles in shared memory; params A, B, C, N */
static const struct vgpu_insn matmul[] = {
	/* 0 */ SREG(0, VGPU_SR_TID_X), SREG(1, VGPU_SR_TID_Y),
	/* 2 */ SREG(2, VGPU_SR_CTAID_X), SREG(3, VGPU_SR_CTAID_Y),
	/* 4 */ LDP(VGPU_T_U32, 4, 24),
	/* 5 */ OPI(VGPU_OP_SHL, VGPU_T_U32, 5, 3, 4), OP3(VGPU_OP_ADD, VGPU_T_U32, 5, 5, 1),
	/* 7 */ OPI(VGPU_OP_SHL, VGPU_T_U32, 6, 2, 4), OP3(VGPU_OP_ADD, VGPU_T_U32, 6, 6, 0),
	/* 9 */ MOVI(VGPU_T_F32, 7, 0), MOVI(VGPU_T_U32, 8, 0),
	/* 11 */ LDP(VGPU_T_U64, 20, 0), LDP(VGPU_T_U64, 21, 8),
	/* 13 */ OPI(VGPU_OP_SHL, VGPU_T_U32, 9, 1, 4), OP3(VGPU_OP_ADD, VGPU_T_U32, 9, 9, 0),
	/* 15 */ OPI(VGPU_OP_SHL, VGPU_T_U32, 9, 9, 2),
	/* 16: tile loop */ OPI(VGPU_OP_SHL, VGPU_T_U32, 10, 8, 4),
	/* 17 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 11, 10, 0),
	/* 18 */ INSN(.op = VGPU_OP_MAD, .type = VGPU_T_U32, .dst = 12, .a = 5, .b = 4, .c = 11),
	/* 19 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 13, 12, 2), OP3(VGPU_OP_ADD, VGPU_T_U64, 13, 13, 20),
	/* 21 */ LD(VGPU_SPACE_GLOBAL, VGPU_T_F32, 14, 13, 0),
	/* 22 */ ST(VGPU_SPACE_SHARED, VGPU_T_F32, 9, 0, 14),
	/* 23 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 11, 10, 1),
	/* 24 */ INSN(.op = VGPU_OP_MAD, .type = VGPU_T_U32, .dst = 12, .a = 11, .b = 4, .c = 6),
	/* 25 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 13, 12, 2), OP3(VGPU_OP_ADD, VGPU_T_U64, 13, 13, 21),
	/* 27 */ LD(VGPU_SPACE_GLOBAL, VGPU_T_F32, 14, 13, 0),
	/* 28 */ ST(VGPU_SPACE_SHARED, VGPU_T_F32, 9, 1024, 14),
	/* 29 */ BAR(),
	/* 30 */ MOVI(VGPU_T_U32, 15, 0),
	/* 31 */ OPI(VGPU_OP_SHL, VGPU_T_U32, 16, 1, 6), OPI(VGPU_OP_SHL, VGPU_T_U32, 17, 0, 2),
	/* 33: k loop */ OPI(VGPU_OP_SHL, VGPU_T_U32, 18, 15, 2),
	/* 34 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 18, 18, 16),
	/* 35 */ LD(VGPU_SPACE_SHARED, VGPU_T_F32, 22, 18, 0),
	/* 36 */ OPI(VGPU_OP_SHL, VGPU_T_U32, 23, 15, 6), OP3(VGPU_OP_ADD, VGPU_T_U32, 23, 23, 17),
	/* 38 */ LD(VGPU_SPACE_SHARED, VGPU_T_F32, 24, 23, 1024),
	/* 39 */ INSN(.op = VGPU_OP_FMA, .type = VGPU_T_F32, .dst = 7, .a = 22, .b = 24, .c = 7),
	/* 40 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 15, 15, 1),
	/* 41 */ SETPI(VGPU_T_U32, VGPU_CMP_LT, 0, 15, 16),
	/* 42 */ BRA_IF(0, 33),
	/* 43 */ BAR(),
	/* 44 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 8, 8, 1),
	/* 45 */ OPI(VGPU_OP_SHR, VGPU_T_U32, 25, 4, 4),
	/* 46 */ SETP(VGPU_T_U32, VGPU_CMP_LT, 1, 8, 25),
	/* 47 */ BRA_IF(1, 16),
	/* 48 */ INSN(.op = VGPU_OP_MAD, .type = VGPU_T_U32, .dst = 12, .a = 5, .b = 4, .c = 6),
	/* 49 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 13, 12, 2),
	/* 50 */ LDP(VGPU_T_U64, 26, 16), OP3(VGPU_OP_ADD, VGPU_T_U64, 13, 13, 26),
	/* 52 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_F32, 13, 0, 7),
	/* 53 */ EXIT(),
};

/* out[block] = sum of the block's 256 inputs, a tree in shared memory */
static const struct vgpu_insn reduce[] = {
	/* 0 */ SREG(0, VGPU_SR_TID_X), SREG(1, VGPU_SR_CTAID_X), SREG(2, VGPU_SR_NTID_X),
	/* 3 */ INSN(.op = VGPU_OP_MAD, .type = VGPU_T_U32, .dst = 3, .a = 1, .b = 2, .c = 0),
	/* 4 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 4, 3, 2),
	/* 5 */ LDP(VGPU_T_U64, 5, 0), OP3(VGPU_OP_ADD, VGPU_T_U64, 4, 4, 5),
	/* 7 */ LD(VGPU_SPACE_GLOBAL, VGPU_T_F32, 6, 4, 0),
	/* 8 */ OPI(VGPU_OP_SHL, VGPU_T_U32, 7, 0, 2),
	/* 9 */ ST(VGPU_SPACE_SHARED, VGPU_T_F32, 7, 0, 6),
	/* 10 */ BAR(),
	/* 11 */ OPI(VGPU_OP_SHR, VGPU_T_U32, 8, 2, 1),
	/* 12: loop */ SETP(VGPU_T_U32, VGPU_CMP_LT, 0, 0, 8),
	/* 13 */ BRA_UNLESS(0, 20),
	/* 14 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 9, 0, 8),
	/* 15 */ OPI(VGPU_OP_SHL, VGPU_T_U32, 9, 9, 2),
	/* 16 */ LD(VGPU_SPACE_SHARED, VGPU_T_F32, 10, 9, 0),
	/* 17 */ LD(VGPU_SPACE_SHARED, VGPU_T_F32, 11, 7, 0),
	/* 18 */ OP3(VGPU_OP_ADD, VGPU_T_F32, 11, 11, 10),
	/* 19 */ ST(VGPU_SPACE_SHARED, VGPU_T_F32, 7, 0, 11),
	/* 20 */ BAR(),
	/* 21 */ OPI(VGPU_OP_SHR, VGPU_T_U32, 8, 8, 1),
	/* 22 */ SETPI(VGPU_T_U32, VGPU_CMP_NE, 1, 8, 0),
	/* 23 */ BRA_IF(1, 12),
	/* 24 */ SETPI(VGPU_T_U32, VGPU_CMP_NE, 2, 0, 0),
	/* 25 */ INSN(.op = VGPU_OP_EXIT, .guard = 2),
	/* 26 */ LD(VGPU_SPACE_SHARED, VGPU_T_F32, 12, VGPU_NO_REG, 0),
	/* 27 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 13, 1, 2),
	/* 28 */ LDP(VGPU_T_U64, 14, 8), OP3(VGPU_OP_ADD, VGPU_T_U64, 13, 13, 14),
	/* 30 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_F32, 13, 0, 12),
	/* 31 */ EXIT(),
};

#endif /* VGPU_BENCH_KERNELS_H */
