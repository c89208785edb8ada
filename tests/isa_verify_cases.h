/* SPDX-License-Identifier: MIT */
/*
 * The verifier's table of programs, each with the verdict expected
 * (accepted, or refused at an instruction with the verifier's message),
 * in the manner of the BPF verifier's tests. Shared by the unit test of
 * the core and the kselftest that loads each through MODULE_LOAD. Every
 * refusal message of the verifier has a case here, but for those of a
 * whole program, which MODULE_LOAD makes itself: the unit test checks
 * both.
 */
#ifndef VGPU_ISA_VERIFY_CASES_H
#define VGPU_ISA_VERIFY_CASES_H

#include "uapi/vgpu_isa.h"

#define MAXI 8

/* Shorthands for building instructions. */
#define I(...) { __VA_ARGS__ }
#define EXIT I(.op = VGPU_OP_EXIT, .guard = VGPU_PRED_NONE)
#define NONE VGPU_PRED_NONE

struct vcase {
	const char *name;
	struct vgpu_insn insns[MAXI];
	unsigned int n;
	struct vgpu_func func;	/* nregs 0 means: 4 registers, 2 predicates */
	long insn;		/* -2: accepted; else the instruction refused */
	const char *msg;
};

static const struct vcase cases[] = {
	{ "smallest program", { EXIT }, 1, { 0 }, -2, NULL },
	{ "mov and add", {
		I(.op = VGPU_OP_MOV, .type = VGPU_T_U32, .guard = NONE, .dst = 1,
		  .flags = VGPU_IF_B_IMM, .imm = 7),
		I(.op = VGPU_OP_ADD, .type = VGPU_T_S32, .guard = NONE, .dst = 2,
		  .a = 1, .b = 1),
		EXIT }, 3, { 0 }, -2, NULL },
	{ "guarded branch and loop", {
		I(.op = VGPU_OP_SETP, .type = VGPU_T_S32, .mod = VGPU_CMP_LT,
		  .guard = NONE, .dst = 1, .a = 0, .flags = VGPU_IF_B_IMM, .imm = 3),
		I(.op = VGPU_OP_BRA, .guard = 1, .imm = 0, .c = 2),
		EXIT }, 3, { 0 }, -2, NULL },
	{ "unknown operation", { I(.op = 200, .guard = NONE), EXIT }, 2, { 0 },
	  0, "unknown operation" },
	{ "reserved field", { I(.op = VGPU_OP_NOP, .guard = NONE, .pad = 1), EXIT },
	  2, { 0 }, 0, "reserved field is not 0" },
	{ "type of the wrong kind", {
		I(.op = VGPU_OP_SHL, .type = VGPU_T_F32, .guard = NONE), EXIT },
	  2, { 0 }, 0, "type not allowed for the operation" },
	{ "register out of range", {
		I(.op = VGPU_OP_ADD, .type = VGPU_T_U32, .guard = NONE, .dst = 4),
		EXIT }, 2, { 0 }, 0, "register out of range" },
	{ "predicate out of range", {
		I(.op = VGPU_OP_SETP, .type = VGPU_T_U32, .guard = NONE, .dst = 2),
		EXIT }, 2, { 0 }, 0, "predicate out of range" },
	{ "guard out of range", {
		I(.op = VGPU_OP_NOP, .guard = 2), EXIT }, 2, { 0 }, 0,
	  "guard predicate out of range" },
	{ "negated guard without guard", {
		I(.op = VGPU_OP_NOP, .guard = NONE, .flags = VGPU_IF_GUARD_NOT),
		EXIT }, 2, { 0 }, 0, "negated guard without a guard" },
	{ "two immediates", {
		I(.op = VGPU_OP_MAD, .type = VGPU_T_U32, .guard = NONE,
		  .flags = VGPU_IF_B_IMM | VGPU_IF_C_IMM), EXIT }, 2, { 0 }, 0,
	  "two immediate operands" },
	{ "immediate where a register must be", {
		I(.op = VGPU_OP_NOT, .type = VGPU_T_U32, .guard = NONE,
		  .flags = VGPU_IF_B_IMM), EXIT }, 2, { 0 }, 0,
	  "immediate operand where a register is required" },
	{ "unused operand", {
		I(.op = VGPU_OP_NOT, .type = VGPU_T_U32, .guard = NONE, .b = 1),
		EXIT }, 2, { 0 }, 0, "unused operand is not 0" },
	{ "unused immediate", {
		I(.op = VGPU_OP_ADD, .type = VGPU_T_U32, .guard = NONE, .imm = 1),
		EXIT }, 2, { 0 }, 0, "unused immediate is not 0" },
	{ "ftz on f64", {
		I(.op = VGPU_OP_ADD, .type = VGPU_T_F64, .guard = NONE,
		  .flags = VGPU_IF_FTZ), EXIT }, 2, { 0 }, 0,
	  "ftz on a type without it" },
	{ "sat on u32 add", {
		I(.op = VGPU_OP_ADD, .type = VGPU_T_U32, .guard = NONE,
		  .flags = VGPU_IF_SAT), EXIT }, 2, { 0 }, 0,
	  "sat on a type without it" },
	{ "rounding on an integer add", {
		I(.op = VGPU_OP_ADD, .type = VGPU_T_U32, .guard = NONE,
		  .mod = VGPU_RND_RZ), EXIT }, 2, { 0 }, 0,
	  "modifier out of range" },
	{ "approximate square root, reciprocal, division and full division", {
		I(.op = VGPU_OP_SQRT, .type = VGPU_T_F32, .guard = NONE, .dst = 1,
		  .mod = VGPU_RND_APPROX),
		I(.op = VGPU_OP_RCP, .type = VGPU_T_F32, .guard = NONE, .dst = 1,
		  .mod = VGPU_RND_APPROX),
		I(.op = VGPU_OP_DIV, .type = VGPU_T_F32, .guard = NONE, .dst = 1,
		  .mod = VGPU_RND_APPROX),
		I(.op = VGPU_OP_DIV, .type = VGPU_T_F32, .guard = NONE, .dst = 1,
		  .mod = VGPU_RND_FULL),
		EXIT }, 5, { 0 }, -2, NULL },
	{ "approximate f64 square root", {
		I(.op = VGPU_OP_SQRT, .type = VGPU_T_F64, .guard = NONE,
		  .mod = VGPU_RND_APPROX), EXIT }, 2, { 0 }, 0,
	  "modifier out of range" },
	{ "approximate add", {
		I(.op = VGPU_OP_ADD, .type = VGPU_T_F32, .guard = NONE,
		  .mod = VGPU_RND_APPROX), EXIT }, 2, { 0 }, 0,
	  "modifier out of range" },
	{ "full-range reciprocal", {
		I(.op = VGPU_OP_RCP, .type = VGPU_T_F32, .guard = NONE,
		  .mod = VGPU_RND_FULL), EXIT }, 2, { 0 }, 0,
	  "modifier out of range" },
	{ "wide multiply of 64-bit values", {
		I(.op = VGPU_OP_MUL, .type = VGPU_T_U64, .guard = NONE,
		  .mod = VGPU_MUL_WIDE), EXIT }, 2, { 0 }, 0,
	  "modifier out of range" },
	{ "unordered compare of integers", {
		I(.op = VGPU_OP_SETP, .type = VGPU_T_S32, .guard = NONE,
		  .mod = VGPU_CMP_LTU), EXIT }, 2, { 0 }, 0,
	  "modifier out of range" },
	{ "store to parameters", {
		I(.op = VGPU_OP_ST, .type = VGPU_T_U32, .guard = NONE,
		  .mod = VGPU_SPACE_PARAM), EXIT }, 2, { 0 }, 0,
	  "modifier out of range" },
	{ "conversion from a predicate", {
		I(.op = VGPU_OP_CVT, .type = VGPU_T_U32, .stype = VGPU_T_PRED,
		  .guard = NONE), EXIT }, 2, { 0 }, 0, "bad source type" },
	{ "float to integer without integer rounding", {
		I(.op = VGPU_OP_CVT, .type = VGPU_T_S32, .stype = VGPU_T_F32,
		  .mod = VGPU_RND_RN, .guard = NONE), EXIT }, 2, { 0 }, 0,
	  "float to integer needs integer rounding" },
	{ "rounding between integers", {
		I(.op = VGPU_OP_CVT, .type = VGPU_T_S32, .stype = VGPU_T_U8,
		  .mod = VGPU_RND_RZ, .guard = NONE), EXIT }, 2, { 0 }, 0,
	  "rounding on an integer conversion" },
	{ "source type elsewhere", {
		I(.op = VGPU_OP_ADD, .type = VGPU_T_U32, .stype = VGPU_T_U32,
		  .guard = NONE), EXIT }, 2, { 0 }, 0,
	  "source type on an operation without one" },
	{ "branch out of the program", {
		I(.op = VGPU_OP_BRA, .guard = NONE, .imm = 5), EXIT }, 2, { 0 }, 0,
	  "branch target out of range" },
	{ "meeting point out of the program", {
		I(.op = VGPU_OP_BRA, .guard = NONE, .imm = 1, .c = 9), EXIT }, 2,
	  { 0 }, 0, "meeting point out of range" },
	{ "barrier number", {
		I(.op = VGPU_OP_BAR, .guard = NONE, .imm = 16), EXIT }, 2, { 0 }, 0,
	  "barrier number out of range" },
	{ "named barriers with thread counts", {
		I(.op = VGPU_OP_BAR, .mod = VGPU_BAR_ARRIVE, .guard = NONE,
		  .mod2 = VGPU_BAR_COUNT, .flags = VGPU_IF_B_IMM, .b = 1024,
		  .imm = 15),
		I(.op = VGPU_OP_BAR, .guard = NONE,
		  .mod2 = VGPU_BAR_COUNT | VGPU_BAR_ID_REG, .b = 3, .c = 2),
		I(.op = VGPU_OP_BAR_RED, .type = VGPU_T_PRED, .mod = VGPU_BAR_AND,
		  .guard = NONE, .dst = 1, .a = 0, .mod2 = VGPU_BAR_COUNT,
		  .flags = VGPU_IF_B_IMM, .b = 32, .imm = 2),
		I(.op = VGPU_OP_BAR_RED, .type = VGPU_T_U32, .mod = VGPU_BAR_POPC,
		  .guard = NONE, .dst = 1, .a = 1, .mod2 = VGPU_BAR_ID_REG, .c = 3),
		EXIT }, 5, { 0 }, -2, NULL },
	{ "barrier operation out of range", {
		I(.op = VGPU_OP_BAR, .mod = 2, .guard = NONE), EXIT }, 2, { 0 }, 0,
	  "modifier out of range" },
	{ "a failed assert's trap", {
		I(.op = VGPU_OP_TRAP, .mod = VGPU_TRAP_ASSERT, .guard = NONE) },
	  1, { 0 }, -2, NULL },
	{ "trap kind out of range", {
		I(.op = VGPU_OP_TRAP, .mod = VGPU_TRAP_ASSERT + 1, .guard = NONE) },
	  1, { 0 }, 0, "modifier out of range" },
	{ "unknown barrier operand bit", {
		I(.op = VGPU_OP_BAR, .guard = NONE, .mod2 = 4), EXIT }, 2, { 0 }, 0,
	  "barrier operand bits out of range" },
	{ "thread count without its bit", {
		I(.op = VGPU_OP_BAR, .guard = NONE, .flags = VGPU_IF_B_IMM,
		  .b = 64), EXIT }, 2, { 0 }, 0, "thread count without its mod2 bit" },
	{ "thread count register without its bit", {
		I(.op = VGPU_OP_BAR, .guard = NONE, .b = 1), EXIT }, 2, { 0 }, 0,
	  "thread count without its mod2 bit" },
	{ "thread count of part of a warp", {
		I(.op = VGPU_OP_BAR, .guard = NONE, .mod2 = VGPU_BAR_COUNT,
		  .flags = VGPU_IF_B_IMM, .b = 48), EXIT }, 2, { 0 }, 0,
	  "thread count not a multiple of 32 from 32 to 1024" },
	{ "thread count of 0", {
		I(.op = VGPU_OP_BAR_RED, .type = VGPU_T_U32, .guard = NONE,
		  .mod2 = VGPU_BAR_COUNT, .flags = VGPU_IF_B_IMM), EXIT }, 2, { 0 },
	  0, "thread count not a multiple of 32 from 32 to 1024" },
	{ "thread count above a block", {
		I(.op = VGPU_OP_BAR, .guard = NONE, .mod2 = VGPU_BAR_COUNT,
		  .flags = VGPU_IF_B_IMM, .b = 1056), EXIT }, 2, { 0 }, 0,
	  "thread count not a multiple of 32 from 32 to 1024" },
	{ "thread count register out of range", {
		I(.op = VGPU_OP_BAR, .guard = NONE, .mod2 = VGPU_BAR_COUNT, .b = 4),
		EXIT }, 2, { 0 }, 0, "register out of range" },
	{ "arrive without a thread count", {
		I(.op = VGPU_OP_BAR, .mod = VGPU_BAR_ARRIVE, .guard = NONE), EXIT },
	  2, { 0 }, 0, "arrive without a thread count" },
	{ "barrier number register without its bit", {
		I(.op = VGPU_OP_BAR, .guard = NONE, .c = 1), EXIT }, 2, { 0 }, 0,
	  "barrier number register without its mod2 bit" },
	{ "barrier number in a register and immediate", {
		I(.op = VGPU_OP_BAR, .guard = NONE, .mod2 = VGPU_BAR_ID_REG,
		  .c = 1, .imm = 1), EXIT }, 2, { 0 }, 0,
	  "barrier number both in a register and immediate" },
	{ "barrier number register as an immediate", {
		I(.op = VGPU_OP_BAR, .guard = NONE, .mod2 = VGPU_BAR_ID_REG,
		  .flags = VGPU_IF_C_IMM, .c = 1), EXIT }, 2, { 0 }, 0,
	  "barrier number register cannot be immediate" },
	{ "barrier number register out of range", {
		I(.op = VGPU_OP_BAR_RED, .type = VGPU_T_PRED, .mod = VGPU_BAR_OR,
		  .guard = NONE, .mod2 = VGPU_BAR_ID_REG, .c = 4), EXIT }, 2, { 0 },
	  0, "register out of range" },
	{ "special register", {
		I(.op = VGPU_OP_SREG, .type = VGPU_T_U32, .guard = NONE,
		  .mod = VGPU_SR_COUNT), EXIT }, 2, { 0 }, 0,
	  "modifier out of range" },
	{ "falls off the end", {
		I(.op = VGPU_OP_NOP, .guard = NONE) }, 1, { 0 }, 0,
	  "control falls off the end" },
	{ "guarded exit falls off the end", {
		I(.op = VGPU_OP_EXIT, .guard = 0) }, 1, { 0 }, 0,
	  "control falls off the end" },
	{ "unreachable code", {
		EXIT, I(.op = VGPU_OP_NOP, .guard = NONE), EXIT }, 3, { 0 }, 1,
	  "unreachable instruction" },
	{ "registers checked where a branch leads", {
		I(.op = VGPU_OP_BRA, .guard = NONE, .imm = 2, .c = VGPU_NO_TARGET),
		EXIT,
		I(.op = VGPU_OP_MOV, .type = VGPU_T_U64, .guard = NONE, .dst = 9),
		EXIT }, 4, { 0 }, 2, "register out of range" },
	{ "unreachable code is refused before its registers", {
		EXIT,
		I(.op = VGPU_OP_MOV, .type = VGPU_T_U64, .guard = NONE, .dst = 9),
		EXIT }, 3, { 0 }, 1, "unreachable instruction" },
	{ "entry out of range", { EXIT }, 1, { .entry = 1, .nregs = 1 }, -1,
	  "entry out of range" },
	{ "too many registers", { EXIT }, 1, { .nregs = VGPU_MAX_REGS + 1 }, -1,
	  "register count out of range" },
	{ "too much shared memory", { EXIT }, 1,
	  { .nregs = 1, .shared_bytes = VGPU_MAX_SHARED_BYTES + 1 }, -1,
	  "shared bytes out of range" },
	{ "shuffle with inline immediates", {
		I(.op = VGPU_OP_SHFL, .type = VGPU_T_U32, .guard = NONE, .dst = 1,
		  .a = 2, .b = 1, .c = 31, .flags = VGPU_IF_B_IMM | VGPU_IF_C_IMM,
		  .imm = 0xffffffff, .mod2 = 1),
		EXIT }, 2, { 0 }, -2, NULL },
	{ "member mask wider than a warp", {
		I(.op = VGPU_OP_WARPSYNC, .guard = NONE, .imm = 1ULL << 32), EXIT },
	  2, { 0 }, 0, "member mask wider than the warp" },
	{ "ballot into a predicate", {
		I(.op = VGPU_OP_VOTE, .type = VGPU_T_PRED, .mod = VGPU_VOTE_BALLOT,
		  .guard = NONE), EXIT }, 2, { 0 }, 0,
	  "ballot writes a register, other votes a predicate" },
	{ "shuffle's predicate out of range", {
		I(.op = VGPU_OP_SHFL, .type = VGPU_T_U32, .guard = NONE, .mod2 = 3),
		EXIT }, 2, { 0 }, 0, "predicate out of range" },
	{ "atomic op out of range", {
		I(.op = VGPU_OP_ATOM, .type = VGPU_T_U32, .guard = NONE,
		  .mod = VGPU_SPACE_GLOBAL, .mod2 = VGPU_ATOM_COUNT), EXIT }, 2, { 0 }, 0,
	  "atomic operation out of range" },
	{ "float atomic min", {
		I(.op = VGPU_OP_ATOM, .type = VGPU_T_F32, .guard = NONE,
		  .mod = VGPU_SPACE_GLOBAL, .mod2 = VGPU_ATOM_MIN), EXIT }, 2, { 0 }, 0,
	  "atomic operation not allowed for the type" },
	{ "atomic on local memory", {
		I(.op = VGPU_OP_ATOM, .type = VGPU_T_U32, .guard = NONE,
		  .mod = VGPU_SPACE_LOCAL), EXIT }, 2, { 0 }, 0,
	  "modifier out of range" },
	{ "compare operand on a plain atomic add", {
		I(.op = VGPU_OP_ATOM, .type = VGPU_T_U32, .guard = NONE,
		  .mod = VGPU_SPACE_GLOBAL, .c = 1), EXIT }, 2, { 0 }, 0,
	  "unused operand is not 0" },
	{ "carry chain", {
		I(.op = VGPU_OP_ADD, .type = VGPU_T_U32, .guard = NONE,
		  .flags = VGPU_IF_CC_OUT),
		I(.op = VGPU_OP_MAD, .type = VGPU_T_U64, .guard = NONE,
		  .mod = VGPU_MUL_HI, .flags = VGPU_IF_CC_IN | VGPU_IF_CC_OUT),
		EXIT }, 3, { 0 }, -2, NULL },
	{ "carry on floats", {
		I(.op = VGPU_OP_ADD, .type = VGPU_T_F32, .guard = NONE,
		  .flags = VGPU_IF_CC_OUT), EXIT }, 2, { 0 }, 0,
		  "carry on an operation without it" },
	{ "carry on a wide multiply-add", {
		I(.op = VGPU_OP_MAD, .type = VGPU_T_U32, .guard = NONE,
		  .mod = VGPU_MUL_WIDE, .flags = VGPU_IF_CC_IN), EXIT }, 2, { 0 }, 0,
		  "carry on an operation without it" },
	{ "ex2 of a double", {
		I(.op = VGPU_OP_EX2, .type = VGPU_T_F64, .guard = NONE), EXIT },
	  2, { 0 }, 0, "type not allowed for the operation" },
	{ "sat on a bitwise and", {
		I(.op = VGPU_OP_AND, .type = VGPU_T_U32, .guard = NONE,
		  .flags = VGPU_IF_SAT), EXIT }, 2, { 0 }, 0,
	  "flag not allowed for the operation" },
	{ "immediate in a predicate and", {
		I(.op = VGPU_OP_AND, .type = VGPU_T_PRED, .guard = NONE,
		  .flags = VGPU_IF_B_IMM, .imm = 1), EXIT }, 2, { 0 }, 0,
	  "predicate operand cannot be immediate" },
	{ "register beside the immediate that replaces it", {
		I(.op = VGPU_OP_ADD, .type = VGPU_T_U32, .guard = NONE, .b = 1,
		  .flags = VGPU_IF_B_IMM, .imm = 5), EXIT }, 2, { 0 }, 0,
	  "operand replaced by the immediate is not 0" },
	{ "conversion from integer with integer rounding", {
		I(.op = VGPU_OP_CVT, .type = VGPU_T_F32, .stype = VGPU_T_S32,
		  .mod = VGPU_RND_RNI, .guard = NONE), EXIT }, 2, { 0 }, 0,
	  "integer rounding on a conversion to float" },
	{ "conversion between floats with integer rounding", {
		I(.op = VGPU_OP_CVT, .type = VGPU_T_F32, .stype = VGPU_T_F64,
		  .mod = VGPU_RND_RNI, .guard = NONE), EXIT }, 2, { 0 }, 0,
	  "integer rounding between float types" },
	{ "float rounded to an integer in place", {
		I(.op = VGPU_OP_CVT, .type = VGPU_T_F32, .stype = VGPU_T_F32,
		  .mod = VGPU_RND_RNI, .guard = NONE), EXIT }, 2, { 0 }, -2, NULL },
	{ "predicate of match.any", {
		I(.op = VGPU_OP_MATCH, .type = VGPU_T_U32, .mod = VGPU_MATCH_ANY,
		  .guard = NONE, .mod2 = 1), EXIT }, 2, { 0 }, 0,
	  "only match.all sets a predicate" },
	{ "barrier popc into a predicate", {
		I(.op = VGPU_OP_BAR_RED, .type = VGPU_T_PRED, .mod = VGPU_BAR_POPC,
		  .guard = NONE), EXIT }, 2, { 0 }, 0,
	  "popc writes a register; and, or write a predicate" },
	{ "barrier and into a register", {
		I(.op = VGPU_OP_BAR_RED, .type = VGPU_T_U32, .mod = VGPU_BAR_AND,
		  .guard = NONE), EXIT }, 2, { 0 }, 0,
	  "popc writes a register; and, or write a predicate" },
	{ "malloc and free", {
		I(.op = VGPU_OP_MALLOC, .type = VGPU_T_U64, .guard = NONE,
		  .dst = 1, .a = 2),
		I(.op = VGPU_OP_FREE, .type = VGPU_T_U64, .guard = 0, .a = 1),
		EXIT }, 3, { 0 }, -2, NULL },
	{ "malloc of 32 bits", {
		I(.op = VGPU_OP_MALLOC, .type = VGPU_T_U32, .guard = NONE,
		  .dst = 1, .a = 2), EXIT }, 2, { 0 }, 0,
	  "type not allowed for the operation" },
	{ "malloc of an immediate size", {
		I(.op = VGPU_OP_MALLOC, .type = VGPU_T_U64, .guard = NONE,
		  .dst = 1, .flags = VGPU_IF_B_IMM, .imm = 16), EXIT }, 2, { 0 },
	  0, "immediate operand where a register is required" },
	{ "malloc's size out of range", {
		I(.op = VGPU_OP_MALLOC, .type = VGPU_T_U64, .guard = NONE,
		  .dst = 1, .a = 4), EXIT }, 2, { 0 }, 0, "register out of range" },
	{ "free with a destination", {
		I(.op = VGPU_OP_FREE, .type = VGPU_T_U64, .guard = NONE,
		  .dst = 1, .a = 2), EXIT }, 2, { 0 }, 0, "unused operand is not 0" },
	{ "a texture fetch through its slots", {
		I(.op = VGPU_OP_TEXSET, .type = VGPU_T_U32, .guard = NONE, .a = 1),
		I(.op = VGPU_OP_TEXSET, .type = VGPU_T_U64, .mod = 10, .guard = NONE,
		  .a = 2),
		I(.op = VGPU_OP_TEX, .type = VGPU_T_F32, .stype = VGPU_T_F32,
		  .mod = VGPU_TEXV_GATHER, .mod2 = 3, .guard = NONE, .a = 3,
		  .imm = 2),
		I(.op = VGPU_OP_TEXGET, .type = VGPU_T_U32, .mod = 3, .guard = NONE,
		  .dst = 1),
		I(.op = VGPU_OP_TXQ, .type = VGPU_T_U32, .mod = VGPU_TXQ_LEVEL_WIDTH,
		  .guard = NONE, .dst = 1, .a = 3, .flags = VGPU_IF_B_IMM, .imm = 2),
		I(.op = VGPU_OP_SULD, .type = VGPU_T_U64, .mod = VGPU_SURF_ZERO,
		  .guard = NONE, .a = 3, .imm = 4),
		I(.op = VGPU_OP_SUST, .type = VGPU_T_U32, .mod2 = 1, .guard = NONE,
		  .a = 3, .imm = 2),
		EXIT }, 8, { 0 }, -2, NULL },
	{ "a texture slot out of range", {
		I(.op = VGPU_OP_TEXSET, .type = VGPU_T_U64, .mod = 11, .guard = NONE,
		  .a = 1), EXIT }, 2, { 0 }, 0, "texture slot out of range" },
	{ "texture coordinates of another type", {
		I(.op = VGPU_OP_TEX, .type = VGPU_T_F32, .stype = VGPU_T_U32,
		  .guard = NONE, .a = 1), EXIT }, 2, { 0 }, 0,
	  "coordinates are f32 or s32" },
	{ "a channel for what is no gather", {
		I(.op = VGPU_OP_TEX, .type = VGPU_T_F32, .stype = VGPU_T_F32,
		  .mod = VGPU_TEXV_LEVEL, .mod2 = 1, .guard = NONE, .a = 1), EXIT },
	  2, { 0 }, 0, "channel out of range, or not a gather" },
	{ "texel offsets of an unknown width", {
		I(.op = VGPU_OP_TEX, .type = VGPU_T_F32, .stype = VGPU_T_F32,
		  .guard = NONE, .a = 1, .imm = 3), EXIT }, 2, { 0 }, 0,
	  "texel offsets: none (0), 4 (1) or 6 bits (2) each in slot 11" },
	{ "a fetch of an unknown kind", {
		I(.op = VGPU_OP_TEX, .type = VGPU_T_F32, .stype = VGPU_T_F32,
		  .mod = VGPU_TEXV_GATHER + 1, .guard = NONE, .a = 1), EXIT }, 2,
	  { 0 }, 0, "modifier out of range" },
	{ "three surface elements", {
		I(.op = VGPU_OP_SULD, .type = VGPU_T_U32, .guard = NONE, .a = 1,
		  .imm = 3), EXIT }, 2, { 0 }, 0, "element count is 1, 2 or 4" },
	{ "a formatted surface load", {
		I(.op = VGPU_OP_SULD, .type = VGPU_T_U32, .mod2 = 1, .guard = NONE,
		  .a = 1, .imm = 1), EXIT }, 2, { 0 }, 0, "reserved field is not 0" },
	{ "a store's format out of range", {
		I(.op = VGPU_OP_SUST, .type = VGPU_T_U32, .mod2 = 2, .guard = NONE,
		  .a = 1, .imm = 1), EXIT }, 2, { 0 }, 0,
	  "a store is formatted (1) or not (0)" },
	{ "a texture query's descriptor out of range", {
		I(.op = VGPU_OP_TXQ, .type = VGPU_T_U32, .guard = NONE, .dst = 1,
		  .a = 4), EXIT }, 2, { 0 }, 0, "register out of range" },
	{ "too many predicates", { EXIT }, 1,
	  { .nregs = 1, .npreds = VGPU_MAX_PREDS + 1 }, -1,
	  "predicate count out of range" },
	{ "too many parameter bytes", { EXIT }, 1,
	  { .nregs = 1, .param_bytes = VGPU_MAX_PARAM_BYTES + 1 }, -1,
	  "parameter bytes out of range" },
	{ "too much local memory", { EXIT }, 1,
	  { .nregs = 1, .local_bytes = VGPU_MAX_LOCAL_BYTES + 1 }, -1,
	  "local bytes out of range" },
	{ "kernel's reserved field", { EXIT }, 1, { .nregs = 1, .pad = 1 }, -1,
	  "reserved field is not 0" },
};


#endif /* VGPU_ISA_VERIFY_CASES_H */
