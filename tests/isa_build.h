/* SPDX-License-Identifier: MIT */
/*
 * Building vgpu ISA instructions in tests (unit tests of the core and
 * kselftests of the module) without an assembler.
 */
#ifndef VGPU_ISA_BUILD_H
#define VGPU_ISA_BUILD_H

#include <stdint.h>

#include "uapi/vgpu_isa.h"

#define NONE VGPU_PRED_NONE

/*
 * One instruction; every field not named is 0, the guard is none unless
 * named (a later designator overrides the default: intended here).
 */
#pragma GCC diagnostic ignored "-Woverride-init"

#define INSN(...) ((struct vgpu_insn){ .guard = NONE, __VA_ARGS__ })

/* Common shapes (parameter names keep clear of the field names). */
#define SREG(D, SR) INSN(.op = VGPU_OP_SREG, .type = VGPU_T_U32, .dst = (D), .mod = (SR))
#define MOVI(T, D, V) INSN(.op = VGPU_OP_MOV, .type = (T), .dst = (D), \
			   .flags = VGPU_IF_B_IMM, .imm = (uint64_t)(V))
#define OP3(O, T, D, A, B) INSN(.op = (O), .type = (T), .dst = (D), .a = (A), .b = (B))
#define OPI(O, T, D, A, V) INSN(.op = (O), .type = (T), .dst = (D), .a = (A), \
				.flags = VGPU_IF_B_IMM, .imm = (uint64_t)(V))
#define LDP(T, D, OFF) INSN(.op = VGPU_OP_LD, .type = (T), .dst = (D), \
			    .mod = VGPU_SPACE_PARAM, .a = VGPU_NO_REG, .imm = (OFF))
#define LD(SP, T, D, A, OFF) INSN(.op = VGPU_OP_LD, .type = (T), .dst = (D), \
				  .mod = (SP), .a = (A), .imm = (OFF))
#define ST(SP, T, A, OFF, V) INSN(.op = VGPU_OP_ST, .type = (T), .mod = (SP), \
				  .a = (A), .b = (V), .imm = (OFF))
#define SETP(T, CMP, P, A, B) INSN(.op = VGPU_OP_SETP, .type = (T), .mod = (CMP), \
				   .dst = (P), .a = (A), .b = (B))
#define SETPI(T, CMP, P, A, V) INSN(.op = VGPU_OP_SETP, .type = (T), .mod = (CMP), \
				    .dst = (P), .a = (A), .flags = VGPU_IF_B_IMM, \
				    .imm = (uint64_t)(V))
#define BRA(TARGET) INSN(.op = VGPU_OP_BRA, .imm = (TARGET), .c = VGPU_NO_TARGET)
#define BRA_IF(P, TARGET) INSN(.op = VGPU_OP_BRA, .guard = (P), .imm = (TARGET), \
			       .c = VGPU_NO_TARGET)
#define BRA_UNLESS(P, TARGET) INSN(.op = VGPU_OP_BRA, .guard = (P), \
				   .flags = VGPU_IF_GUARD_NOT, .imm = (TARGET), \
				   .c = VGPU_NO_TARGET)
#define EXIT() INSN(.op = VGPU_OP_EXIT)
#define BAR() INSN(.op = VGPU_OP_BAR)
/* Barrier ID waiting for N threads; only arriving; number and count in registers. */
#define BAR_N(ID, N) INSN(.op = VGPU_OP_BAR, .mod2 = VGPU_BAR_COUNT, \
			  .flags = VGPU_IF_B_IMM, .b = (N), .imm = (ID))
#define ARRIVE_N(ID, N) INSN(.op = VGPU_OP_BAR, .mod = VGPU_BAR_ARRIVE, \
			     .mod2 = VGPU_BAR_COUNT, .flags = VGPU_IF_B_IMM, \
			     .b = (N), .imm = (ID))
#define BAR_R(RID, RN) INSN(.op = VGPU_OP_BAR, \
			    .mod2 = VGPU_BAR_COUNT | VGPU_BAR_ID_REG, \
			    .b = (RN), .c = (RID))

#endif /* VGPU_ISA_BUILD_H */
