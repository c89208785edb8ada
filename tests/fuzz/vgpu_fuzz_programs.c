// SPDX-License-Identifier: GPL-2.0
/*
 * The fuzzer's module: valid programs, so that launches get past the
 * verifier and reach the engine; the fuzzer mutates copies of them to
 * reach the verifier's refusals.
 */
#include "tests/isa_build.h"
#include "vgpu_fuzz_programs.h"

const struct vgpu_insn fz_prog_insns[] = {
	/* FZ_K_STORE */
	/* 0 */ SREG(0, VGPU_SR_CTAID_X),
	/* 1 */ SREG(1, VGPU_SR_NTID_X),
	/* 2 */ SREG(2, VGPU_SR_TID_X),
	/* 3 */ INSN(.op = VGPU_OP_MAD, .type = VGPU_T_U32, .dst = 3, .a = 0, .b = 1, .c = 2),
	/* 4 */ INSN(.op = VGPU_OP_CVT, .type = VGPU_T_U64, .stype = VGPU_T_U32, .dst = 5, .a = 3),
	/* 5 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 5, 5, 2),
	/* 6 */ LDP(VGPU_T_U64, 6, 0),
	/* 7 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 6, 6, 5),
	/* 8 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 1),
	/* 9 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 6, 0, 3),
	/* 10 */ EXIT(),
	/* FZ_K_ATOMIC */
	/* 11 */ LDP(VGPU_T_U64, 0, 0),
	/* 12 */ MOVI(VGPU_T_U32, 1, 1),
	/* 13 */ INSN(.op = VGPU_OP_ATOM, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
		      .mod2 = VGPU_ATOM_ADD, .dst = 2, .a = 0, .b = 1),
	/* 14 */ EXIT(),
	/* FZ_K_SPIN */
	/* 15 */ MOVI(VGPU_T_U32, 0, 0),
	/* 16 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 0, 0),
	/* 17 */ BRA_IF(0, 16),
	/* 18 */ EXIT(),
	/* FZ_K_TRAP */
	/* 19 */ INSN(.op = VGPU_OP_TRAP),	/* the verifier knows it ends */
	/* FZ_K_HEAP */
	/* 20 */ MOVI(VGPU_T_U64, 0, 64),
	/* 21 */ INSN(.op = VGPU_OP_MALLOC, .type = VGPU_T_U64, .dst = 1, .a = 0),
	/* 22 */ SETPI(VGPU_T_U64, VGPU_CMP_EQ, 0, 1, 0),
	/* 23 */ INSN(.op = VGPU_OP_EXIT, .guard = 0),
	/* 24 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 0),
	/* 25 */ INSN(.op = VGPU_OP_FREE, .type = VGPU_T_U64, .a = 1),
	/* 26 */ EXIT(),
	/* FZ_K_FAULT */
	/* 27 */ MOVI(VGPU_T_U64, 0, 8),
	/* 28 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 0, 0),
	/* 29 */ EXIT(),
	/* FZ_K_SHARED */
	/* 30 */ SREG(0, VGPU_SR_TID_X),
	/* 31 */ OPI(VGPU_OP_SHL, VGPU_T_U32, 1, 0, 2),
	/* 32 */ ST(VGPU_SPACE_SHARED, VGPU_T_U32, 1, 0, 0),
	/* 33 */ BAR(),
	/* 34 */ LD(VGPU_SPACE_SHARED, VGPU_T_U32, 2, 1, 0),
	/* 35 */ EXIT(),
};
const unsigned int fz_prog_ninsns = sizeof(fz_prog_insns) / sizeof(fz_prog_insns[0]);

const struct vgpu_func fz_prog_funcs[FZ_NKERNELS] = {
	[FZ_K_STORE] = { .entry = 0, .nregs = 7, .param_bytes = FZ_PARAM_BYTES },
	[FZ_K_ATOMIC] = { .entry = 11, .nregs = 3, .param_bytes = FZ_PARAM_BYTES },
	[FZ_K_SPIN] = { .entry = 15, .nregs = 1, .npreds = 1, .param_bytes = FZ_PARAM_BYTES },
	[FZ_K_TRAP] = { .entry = 19, .nregs = 1, .param_bytes = FZ_PARAM_BYTES },
	[FZ_K_HEAP] = { .entry = 20, .nregs = 2, .npreds = 1, .param_bytes = FZ_PARAM_BYTES },
	[FZ_K_FAULT] = { .entry = 27, .nregs = 1, .param_bytes = FZ_PARAM_BYTES },
	[FZ_K_SHARED] = { .entry = 30, .nregs = 3, .param_bytes = FZ_PARAM_BYTES,
			  .shared_bytes = 4096 },
};
