// SPDX-License-Identifier: MIT
/*
 * The warp interpreter in user space: integer and floating-point results
 * with PTX's edge cases (tables), floating point against the host FPU in
 * every rounding mode (random operands), divergence and reconvergence,
 * forward progress of a lane spinning on another, block barriers, memory
 * spaces, faults, and budgets.
 */
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <time.h>

#include "tap.h"
#include "core_run.h"
#include "fp.h"

/* r4 = op(a, b, c) with a, b, c from the parameters; stored at param 0. */
static uint64_t run_op(struct vgpu_insn op, uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t out = 0xdeadbeefdeadbeefULL;
	uint64_t params[4] = { (uintptr_t)&out, a, b, c };
	struct vgpu_range mem[2] = { core_range(&out, 8, true), { 0 } };
	struct vgpu_insn p[7] = {
		LDP(VGPU_T_U64, 0, 0), LDP(VGPU_T_U64, 1, 8),
		LDP(VGPU_T_U64, 2, 16), LDP(VGPU_T_U64, 3, 24),
		op,
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U64, 0, 0, 4),
		EXIT(),
	};
	struct vgpu_func f = { .nregs = 5, .npreds = 1, .param_bytes = 32 };
	struct vgpu_fault fault;

	p[4].dst = 4;
	p[4].a = 1;
	p[4].b = op.flags & VGPU_IF_B_IMM ? 0 : 2;	/* else the immediate */
	if (op.op == VGPU_OP_MAD || op.op == VGPU_OP_FMA || op.op == VGPU_OP_BFE ||
	    op.op == VGPU_OP_PRMT)
		p[4].c = 3;
	if (op.op == VGPU_OP_MOV) {
		p[4].a = 0;
		p[4].b = 1;
	}
	if (op.op == VGPU_OP_CVT || op.op == VGPU_OP_ABS || op.op == VGPU_OP_NEG ||
	    op.op == VGPU_OP_NOT || op.op == VGPU_OP_POPC || op.op == VGPU_OP_CLZ ||
	    op.op == VGPU_OP_BREV || op.op == VGPU_OP_BFIND ||
	    (op.op >= VGPU_OP_SQRT && op.op <= VGPU_OP_TANH))
		p[4].b = 0;
	if (core_run(p, 7, f, 1, 1, params, mem, &fault) != VGPU_RUN_DONE)
		TAP_FAIL("op %u did not run", op.op);
	return out;
}

struct op_case {
	const char *name;
	struct vgpu_insn op;
	uint64_t a, b, c, want;
};

#define ALU(O, T, ...) INSN(.op = (O), .type = (T), __VA_ARGS__)
#define F(x) ((uint64_t)(x))

static const struct op_case int_cases[] = {
	{ "u32 x/0", ALU(VGPU_OP_DIV, VGPU_T_U32), 7, 0, 0, 0xffffffff },
	{ "s32 INT_MIN/-1", ALU(VGPU_OP_DIV, VGPU_T_S32), 0x80000000, 0xffffffff, 0, 0x80000000 },
	{ "s64 INT_MIN/-1", ALU(VGPU_OP_DIV, VGPU_T_S64), 1ULL << 63, ~0ULL, 0, 1ULL << 63 },
	{ "s32 -7/2", ALU(VGPU_OP_DIV, VGPU_T_S32), (uint32_t)-7, 2, 0, (uint32_t)-3 },
	{ "u32 x%0", ALU(VGPU_OP_REM, VGPU_T_U32), 7, 0, 0, 7 },
	{ "s32 INT_MIN%-1", ALU(VGPU_OP_REM, VGPU_T_S32), 0x80000000, 0xffffffff, 0, 0 },
	{ "s32 -7%2", ALU(VGPU_OP_REM, VGPU_T_S32), (uint32_t)-7, 2, 0, (uint32_t)-1 },
	{ "u32 shl by 32", ALU(VGPU_OP_SHL, VGPU_T_U32), 1, 32, 0, 0 },
	{ "u32 shl by 31", ALU(VGPU_OP_SHL, VGPU_T_U32), 1, 31, 0, 0x80000000 },
	{ "s32 shr by 40", ALU(VGPU_OP_SHR, VGPU_T_S32), 0x80000000, 40, 0, 0xffffffff },
	{ "u32 shr by 40", ALU(VGPU_OP_SHR, VGPU_T_U32), 0x80000000, 40, 0, 0 },
	{ "s64 shr", ALU(VGPU_OP_SHR, VGPU_T_S64), (uint64_t)-8, 1, 0, (uint64_t)-4 },
	{ "u64 shl by 2^32+1", ALU(VGPU_OP_SHL, VGPU_T_U64), 1, (1ULL << 32) + 1, 0, 2 },
	/* Immediate counts: only the low 32 bits count, as for registers. */
	{ "u64 shl by immediate 2^32+1",
	  ALU(VGPU_OP_SHL, VGPU_T_U64, .flags = VGPU_IF_B_IMM, .imm = (1ULL << 32) + 1),
	  1, 0, 0, 2 },
	{ "u32 shl by immediate 2^33+3",
	  ALU(VGPU_OP_SHL, VGPU_T_U32, .flags = VGPU_IF_B_IMM, .imm = (1ULL << 33) + 3),
	  0x10000001, 0, 0, 0x80000008 },
	{ "u32 shl by immediate 32",
	  ALU(VGPU_OP_SHL, VGPU_T_U32, .flags = VGPU_IF_B_IMM, .imm = 32), 1, 0, 0, 0 },
	{ "u64 shr by immediate 5*2^32+4",
	  ALU(VGPU_OP_SHR, VGPU_T_U64, .flags = VGPU_IF_B_IMM, .imm = (5ULL << 32) + 4),
	  0x100, 0, 0, 0x10 },
	{ "u32 shr by immediate 2^63+2",
	  ALU(VGPU_OP_SHR, VGPU_T_U32, .flags = VGPU_IF_B_IMM, .imm = (1ULL << 63) + 2),
	  0xffffffff0000000cULL, 0, 0, 3 },
	{ "u64 shr by immediate 64",
	  ALU(VGPU_OP_SHR, VGPU_T_U64, .flags = VGPU_IF_B_IMM, .imm = 64), ~0ULL, 0, 0, 0 },
	{ "s32 shr by immediate 2^32+1",
	  ALU(VGPU_OP_SHR, VGPU_T_S32, .flags = VGPU_IF_B_IMM, .imm = (1ULL << 32) + 1),
	  0x80000000, 0, 0, 0xc0000000 },
	{ "u32 mul.hi", ALU(VGPU_OP_MUL, VGPU_T_U32, .mod = VGPU_MUL_HI), 0xffffffff, 0xffffffff, 0, 0xfffffffe },
	{ "s32 mul.wide", ALU(VGPU_OP_MUL, VGPU_T_S32, .mod = VGPU_MUL_WIDE), (uint32_t)-2, 3, 0, (uint64_t)-6 },
	{ "u32 mul.wide", ALU(VGPU_OP_MUL, VGPU_T_U32, .mod = VGPU_MUL_WIDE), 0xffffffff, 0xffffffff, 0, 0xfffffffe00000001ULL },
	{ "s64 mul.hi", ALU(VGPU_OP_MUL, VGPU_T_S64, .mod = VGPU_MUL_HI), ~0ULL, 1, 0, ~0ULL },
	{ "u64 mul.hi", ALU(VGPU_OP_MUL, VGPU_T_U64, .mod = VGPU_MUL_HI), 1ULL << 63, 4, 0, 2 },
	{ "u32 mul.lo wraps", ALU(VGPU_OP_MUL, VGPU_T_U32), 0x10000, 0x10000, 0, 0 },
	{ "s32 add.sat", ALU(VGPU_OP_ADD, VGPU_T_S32, .flags = VGPU_IF_SAT), 0x7fffffff, 1, 0, 0x7fffffff },
	{ "s32 sub.sat", ALU(VGPU_OP_SUB, VGPU_T_S32, .flags = VGPU_IF_SAT), 0x80000000, 1, 0, 0x80000000 },
	{ "u32 add wraps", ALU(VGPU_OP_ADD, VGPU_T_U32), 0xffffffff, 2, 0, 1 },
	{ "s32 min", ALU(VGPU_OP_MIN, VGPU_T_S32), 0xffffffff, 1, 0, 0xffffffff },
	{ "u32 min", ALU(VGPU_OP_MIN, VGPU_T_U32), 0xffffffff, 1, 0, 1 },
	{ "s16 max", ALU(VGPU_OP_MAX, VGPU_T_S16), 0x8000, 1, 0, 1 },
	{ "s32 abs INT_MIN", ALU(VGPU_OP_ABS, VGPU_T_S32), 0x80000000, 0, 0, 0x80000000 },
	{ "s64 neg", ALU(VGPU_OP_NEG, VGPU_T_S64), 5, 0, 0, (uint64_t)-5 },
	{ "u32 mad.lo", ALU(VGPU_OP_MAD, VGPU_T_U32), 3, 4, 5, 17 },
	{ "u32 mad.wide", ALU(VGPU_OP_MAD, VGPU_T_U32, .mod = VGPU_MUL_WIDE), 0xffffffff, 2, 1, 0x1ffffffffULL },
	{ "u32 not", ALU(VGPU_OP_NOT, VGPU_T_U32), 0xf0f0f0f0, 0, 0, 0x0f0f0f0f },
	{ "mov truncates to the type", ALU(VGPU_OP_MOV, VGPU_T_U16), 0x12345678, 0, 0, 0x5678 },
	{ "popc", ALU(VGPU_OP_POPC, VGPU_T_U64), 0xf0f0f0f0f0f0f0f0ULL, 0, 0, 32 },
	{ "clz of 0", ALU(VGPU_OP_CLZ, VGPU_T_U32), 0, 0, 0, 32 },
	{ "clz", ALU(VGPU_OP_CLZ, VGPU_T_U32), 0x00010000, 0, 0, 15 },
	{ "brev", ALU(VGPU_OP_BREV, VGPU_T_U32), 1, 0, 0, 0x80000000 },
	{ "bfind of 0", ALU(VGPU_OP_BFIND, VGPU_T_U32), 0, 0, 0, 0xffffffff },
	{ "bfind", ALU(VGPU_OP_BFIND, VGPU_T_U32), 0x00010000, 0, 0, 16 },
	{ "bfind.shiftamt", ALU(VGPU_OP_BFIND, VGPU_T_U32, .mod = 1), 0x00010000, 0, 0, 15 },
	{ "bfind of a negative", ALU(VGPU_OP_BFIND, VGPU_T_S32), 0xffff0000, 0, 0, 15 },
	{ "bfe unsigned", ALU(VGPU_OP_BFE, VGPU_T_U32), 0xabcd1234, 8, 8, 0x12 },
	{ "bfe signed", ALU(VGPU_OP_BFE, VGPU_T_S32), 0x0000f000, 12, 4, 0xffffffff },
	{ "bfe past the top", ALU(VGPU_OP_BFE, VGPU_T_S32), 0x80000000, 31, 8, 0xffffffff },
	{ "bfe of length 0", ALU(VGPU_OP_BFE, VGPU_T_S32), 0xffffffff, 4, 0, 0 },
	{ "prmt", ALU(VGPU_OP_PRMT, VGPU_T_U32), 0x33221100, 0x77665544, 0x7531, 0x77553311 },
	{ "prmt sign", ALU(VGPU_OP_PRMT, VGPU_T_U32), 0x00008000, 0, 0x8889, 0x000000ff },
	{ "prmt f4e", ALU(VGPU_OP_PRMT, VGPU_T_U32, .mod = 1), 0x33221100, 0x77665544, 1, 0x44332211 },
	{ "prmt b4e", ALU(VGPU_OP_PRMT, VGPU_T_U32, .mod = 2), 0x33221100, 0x77665544, 0, 0x55667700 },
	{ "prmt ecl", ALU(VGPU_OP_PRMT, VGPU_T_U32, .mod = 4), 0x33221100, 0x77665544, 2, 0x33222222 },
	{ "prmt ecr", ALU(VGPU_OP_PRMT, VGPU_T_U32, .mod = 5), 0x33221100, 0x77665544, 1, 0x11111100 },
	{ "prmt rc16", ALU(VGPU_OP_PRMT, VGPU_T_U32, .mod = 6), 0x33221100, 0x77665544, 1, 0x33223322 },
};

static void integer_edge_cases(void)
{
	size_t i;

	for (i = 0; i < sizeof(int_cases) / sizeof(int_cases[0]); i++) {
		const struct op_case *c = &int_cases[i];
		uint64_t got = run_op(c->op, c->a, c->b, c->c);

		if (got != c->want)
			TAP_FAIL("%s: got %#llx, want %#llx", c->name,
				 (unsigned long long)got, (unsigned long long)c->want);
	}
}

/* Carry chains: a 96-bit addition and a 64-bit subtraction in pieces. */
static void carry_chains(void)
{
	uint32_t out[4];
	uint64_t params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vgpu_insn p[] = {
		LDP(VGPU_T_U64, 0, 0),
		MOVI(VGPU_T_U32, 1, 0xffffffff), MOVI(VGPU_T_U32, 2, 1),
		/* 0xffffffff_ffffffff + 1 = 1_00000000_00000000 */
		INSN(.op = VGPU_OP_ADD, .type = VGPU_T_U32, .dst = 3, .a = 1, .b = 2, .flags = VGPU_IF_CC_OUT),
		INSN(.op = VGPU_OP_ADD, .type = VGPU_T_U32, .dst = 4, .a = 1, .b = 5, .flags = VGPU_IF_CC_OUT | VGPU_IF_CC_IN),
		INSN(.op = VGPU_OP_ADD, .type = VGPU_T_U32, .dst = 5, .a = 5, .b = 5, .flags = VGPU_IF_CC_IN),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 0, 3),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 4, 4),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 8, 5),
		/* 0 - 1, low word then high word with the borrow */
		INSN(.op = VGPU_OP_SUB, .type = VGPU_T_U32, .dst = 3, .a = 5, .b = 2, .flags = VGPU_IF_CC_OUT),
		INSN(.op = VGPU_OP_SUB, .type = VGPU_T_U32, .dst = 4, .a = 5, .b = 5, .flags = VGPU_IF_CC_IN),
		OP3(VGPU_OP_XOR, VGPU_T_U32, 3, 3, 4),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 12, 3),
		EXIT(),
	};
	struct vgpu_func f = { .nregs = 6, .param_bytes = 8 };

	memset(out, 0xee, sizeof(out));
	CHECK(core_run(p, sizeof(p) / sizeof(p[0]), f, 1, 1, params, mem, NULL) == VGPU_RUN_DONE);
	CHECK(out[0] == 0 && out[1] == 0 && out[2] == 1);
	CHECK(out[3] == 0);	/* 0xffffffff ^ 0xffffffff */
}

static const struct op_case fp_cases[] = {
	{ "1 + 2^-24 rn ties to even", ALU(VGPU_OP_ADD, VGPU_T_F32), 0x3f800000, 0x33800000, 0, 0x3f800000 },
	{ "1 + 2^-24 rp", ALU(VGPU_OP_ADD, VGPU_T_F32, .mod = VGPU_RND_RP), 0x3f800000, 0x33800000, 0, 0x3f800001 },
	{ "-1 - 2^-24 rm", ALU(VGPU_OP_SUB, VGPU_T_F32, .mod = VGPU_RND_RM), 0xbf800000, 0x33800000, 0, 0xbf800001 },
	{ "-1 - 2^-24 rz", ALU(VGPU_OP_SUB, VGPU_T_F32, .mod = VGPU_RND_RZ), 0xbf800000, 0x33800000, 0, 0xbf800000 },
	{ "inf - inf is the canonical NaN", ALU(VGPU_OP_SUB, VGPU_T_F32), 0x7f800000, 0x7f800000, 0, 0x7fffffff },
	{ "NaN payloads do not pass", ALU(VGPU_OP_ADD, VGPU_T_F32), 0xffc00001, 0x3f800000, 0, 0x7fffffff },
	{ "f64 0/0 is the default NaN", ALU(VGPU_OP_DIV, VGPU_T_F64), 0, 0, 0, 0xfff8000000000000ULL },
	{ "f64 NaN payloads pass", ALU(VGPU_OP_ADD, VGPU_T_F64), 0xfff8000000012345ULL, 0x3ff0000000000000ULL, 0, 0xfff8000000012345ULL },
	{ "min prefers the number", ALU(VGPU_OP_MIN, VGPU_T_F32), 0x7fc00000, 0x3f800000, 0, 0x3f800000 },
	{ "min of two NaN is the second", ALU(VGPU_OP_MIN, VGPU_T_F32), 0x7fc00001, 0xffc00002, 0, 0xffc00002 },
	{ "f64 min of two NaN is the second", ALU(VGPU_OP_MIN, VGPU_T_F64), 0x7ff8000000000001ULL, 0xfff8000000000002ULL, 0, 0xfff8000000000002ULL },
	{ "min(+0, -0) is -0", ALU(VGPU_OP_MIN, VGPU_T_F32), 0, 0x80000000, 0, 0x80000000 },
	{ "max(-0, +0) is +0", ALU(VGPU_OP_MAX, VGPU_T_F32), 0x80000000, 0, 0, 0 },
	{ "f64 min prefers the number", ALU(VGPU_OP_MIN, VGPU_T_F64), 0x7ff8000000000000ULL, 0x4000000000000000ULL, 0, 0x4000000000000000ULL },
	{ "subnormal kept", ALU(VGPU_OP_ADD, VGPU_T_F32), 1, 0, 0, 1 },
	{ "subnormal flushed with ftz", ALU(VGPU_OP_ADD, VGPU_T_F32, .flags = VGPU_IF_FTZ), 1, 0, 0, 0 },
	{ "negative subnormal result flushed to -0", ALU(VGPU_OP_MUL, VGPU_T_F32, .flags = VGPU_IF_FTZ), 0x80800000, 0x3f000000, 0, 0x80000000 },
	{ "sat clamps to 1", ALU(VGPU_OP_MUL, VGPU_T_F32, .flags = VGPU_IF_SAT), 0x40000000, 0x40400000, 0, 0x3f800000 },
	{ "sat sends NaN to 0", ALU(VGPU_OP_ADD, VGPU_T_F32, .flags = VGPU_IF_SAT), 0x7f800000, 0xff800000, 0, 0 },
	{ "sat of a negative is +0", ALU(VGPU_OP_ADD, VGPU_T_F32, .flags = VGPU_IF_SAT), 0xbf800000, 0, 0, 0 },
	{ "abs clears the sign", ALU(VGPU_OP_ABS, VGPU_T_F32), 0xbf800000, 0, 0, 0x3f800000 },
	{ "neg of +0", ALU(VGPU_OP_NEG, VGPU_T_F64), 0, 0, 0, 1ULL << 63 },
	{ "f32 to s32 rni ties to even", ALU(VGPU_OP_CVT, VGPU_T_S32, .stype = VGPU_T_F32, .mod = VGPU_RND_RNI), 0x40200000, 0, 0, 2 },
	{ "f32 to s32 rmi of -2.5", ALU(VGPU_OP_CVT, VGPU_T_S32, .stype = VGPU_T_F32, .mod = VGPU_RND_RMI), 0xc0200000, 0, 0, (uint32_t)-3 },
	{ "f32 to s32 rpi of -2.5", ALU(VGPU_OP_CVT, VGPU_T_S32, .stype = VGPU_T_F32, .mod = VGPU_RND_RPI), 0xc0200000, 0, 0, (uint32_t)-2 },
	{ "f32 to s32 rzi of -2.5", ALU(VGPU_OP_CVT, VGPU_T_S32, .stype = VGPU_T_F32, .mod = VGPU_RND_RZI), 0xc0200000, 0, 0, (uint32_t)-2 },
	{ "f32 NaN to s32 is 0", ALU(VGPU_OP_CVT, VGPU_T_S32, .stype = VGPU_T_F32, .mod = VGPU_RND_RZI), 0x7fc00000, 0, 0, 0 },
	{ "f32 1e10 to s32 saturates", ALU(VGPU_OP_CVT, VGPU_T_S32, .stype = VGPU_T_F32, .mod = VGPU_RND_RZI), 0x501502f9, 0, 0, 0x7fffffff },
	{ "f32 -1 to u32 is 0", ALU(VGPU_OP_CVT, VGPU_T_U32, .stype = VGPU_T_F32, .mod = VGPU_RND_RZI), 0xbf800000, 0, 0, 0 },
	{ "f64 -inf to s64", ALU(VGPU_OP_CVT, VGPU_T_S64, .stype = VGPU_T_F64, .mod = VGPU_RND_RZI), 0xfff0000000000000ULL, 0, 0, 1ULL << 63 },
	{ "f64 2^64 to u64", ALU(VGPU_OP_CVT, VGPU_T_U64, .stype = VGPU_T_F64, .mod = VGPU_RND_RZI), 0x43f0000000000000ULL, 0, 0, ~0ULL },
	{ "s32 to u8 saturates", ALU(VGPU_OP_CVT, VGPU_T_U8, .stype = VGPU_T_S32, .flags = VGPU_IF_SAT), (uint32_t)-5, 0, 0, 0 },
	{ "u32 to s16 saturates", ALU(VGPU_OP_CVT, VGPU_T_S16, .stype = VGPU_T_U32, .flags = VGPU_IF_SAT), 70000, 0, 0, 0x7fff },
	{ "s8 to s32 sign-extends", ALU(VGPU_OP_CVT, VGPU_T_S32, .stype = VGPU_T_S8), 0x80, 0, 0, 0xffffff80 },
	{ "u64 to u32 truncates", ALU(VGPU_OP_CVT, VGPU_T_U32, .stype = VGPU_T_U64), 0x123456789ULL, 0, 0, 0x23456789 },
	{ "s32 2^24+1 to f32 rn", ALU(VGPU_OP_CVT, VGPU_T_F32, .stype = VGPU_T_S32, .mod = VGPU_RND_RN), 16777217, 0, 0, 0x4b800000 },
	{ "s32 2^24+1 to f32 rp", ALU(VGPU_OP_CVT, VGPU_T_F32, .stype = VGPU_T_S32, .mod = VGPU_RND_RP), 16777217, 0, 0, 0x4b800001 },
	{ "u64 max to f32 rz", ALU(VGPU_OP_CVT, VGPU_T_F32, .stype = VGPU_T_U64, .mod = VGPU_RND_RZ), ~0ULL, 0, 0, 0x5f7fffff },
	{ "f64 to f32 rz", ALU(VGPU_OP_CVT, VGPU_T_F32, .stype = VGPU_T_F64, .mod = VGPU_RND_RZ), 0x3ff0000010000000ULL, 0, 0, 0x3f800000 },
	{ "f64 to f32 rp", ALU(VGPU_OP_CVT, VGPU_T_F32, .stype = VGPU_T_F64, .mod = VGPU_RND_RP), 0x3ff0000010000000ULL, 0, 0, 0x3f800001 },
	{ "f32 to f32 rni", ALU(VGPU_OP_CVT, VGPU_T_F32, .stype = VGPU_T_F32, .mod = VGPU_RND_RNI), 0x40300000, 0, 0, 0x40400000 },
	{ "f32 sat", ALU(VGPU_OP_CVT, VGPU_T_F32, .stype = VGPU_T_F32, .flags = VGPU_IF_SAT), 0x40300000, 0, 0, 0x3f800000 },
	{ "f16 1.0 to f32", ALU(VGPU_OP_CVT, VGPU_T_F32, .stype = VGPU_T_F16), 0x3c00, 0, 0, 0x3f800000 },
	{ "f16 subnormal to f32", ALU(VGPU_OP_CVT, VGPU_T_F32, .stype = VGPU_T_F16), 0x0001, 0, 0, 0x33800000 },
	{ "f16 -inf to f64", ALU(VGPU_OP_CVT, VGPU_T_F64, .stype = VGPU_T_F16), 0xfc00, 0, 0, 0xfff0000000000000ULL },
	{ "f32 to f16 rn", ALU(VGPU_OP_CVT, VGPU_T_F16, .stype = VGPU_T_F32), 0x3f800000, 0, 0, 0x3c00 },
	{ "f32 1+2^-11 to f16 ties to even", ALU(VGPU_OP_CVT, VGPU_T_F16, .stype = VGPU_T_F32), 0x3f801000, 0, 0, 0x3c00 },
	{ "f32 1+2^-11 to f16 rp", ALU(VGPU_OP_CVT, VGPU_T_F16, .stype = VGPU_T_F32, .mod = VGPU_RND_RP), 0x3f801000, 0, 0, 0x3c01 },
	{ "f32 65520 to f16 overflows", ALU(VGPU_OP_CVT, VGPU_T_F16, .stype = VGPU_T_F32), 0x477ff000, 0, 0, 0x7c00 },
	{ "f32 70000 to f16 rz is max", ALU(VGPU_OP_CVT, VGPU_T_F16, .stype = VGPU_T_F32, .mod = VGPU_RND_RZ), 0x4788b800, 0, 0, 0x7bff },
	{ "f32 2^-25 to f16 rn is 0", ALU(VGPU_OP_CVT, VGPU_T_F16, .stype = VGPU_T_F32), 0x33000000, 0, 0, 0 },
	{ "f32 -2^-25 to f16 rm", ALU(VGPU_OP_CVT, VGPU_T_F16, .stype = VGPU_T_F32, .mod = VGPU_RND_RM), 0xb3000000, 0, 0, 0x8001 },
	{ "f32 NaN to f16", ALU(VGPU_OP_CVT, VGPU_T_F16, .stype = VGPU_T_F32), 0x7fc00000, 0, 0, 0x7fff },
	{ "s32 -3 to f16", ALU(VGPU_OP_CVT, VGPU_T_F16, .stype = VGPU_T_S32), (uint32_t)-3, 0, 0, 0xc200 },
	{ "f16 2.5 to s32 rni", ALU(VGPU_OP_CVT, VGPU_T_S32, .stype = VGPU_T_F16, .mod = VGPU_RND_RNI), 0x4100, 0, 0, 2 },
};

static void float_edge_cases(void)
{
	size_t i;

	for (i = 0; i < sizeof(fp_cases) / sizeof(fp_cases[0]); i++) {
		const struct op_case *c = &fp_cases[i];
		uint64_t got = run_op(c->op, c->a, c->b, c->c);

		if (got != c->want)
			TAP_FAIL("%s: got %#llx, want %#llx", c->name,
				 (unsigned long long)got, (unsigned long long)c->want);
	}
}

/* Every half value goes to f32 and back unchanged (NaNs canonical). */
static void f16_round_trip(void)
{
	uint32_t h, bad = 0;

	for (h = 0; h < 0x10000; h += 1) {
		uint64_t f = run_op(ALU(VGPU_OP_CVT, VGPU_T_F32, .stype = VGPU_T_F16), h, 0, 0);
		uint64_t back = run_op(ALU(VGPU_OP_CVT, VGPU_T_F16, .stype = VGPU_T_F32), f, 0, 0);
		bool nan = ((h >> 10) & 0x1f) == 0x1f && (h & 0x3ff);

		if (back != (nan ? 0x7fff : h) && bad++ < 5)
			TAP_FAIL("half %#x -> %#llx -> %#llx", h, (unsigned long long)f,
				 (unsigned long long)back);
	}
	CHECK(bad == 0);
}

static uint64_t fbits(float f)
{
	uint32_t v;

	memcpy(&v, &f, 4);
	return v;
}

static uint64_t dbits(double d)
{
	uint64_t v;

	memcpy(&v, &d, 8);
	return v;
}

static float ffrom(uint64_t v)
{
	uint32_t u = (uint32_t)v;
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static double dfrom(uint64_t v)
{
	double d;

	memcpy(&d, &v, 8);
	return d;
}

/* Random finite values with a spread of exponents, subnormals included. */
static uint64_t rnd64(void)
{
	return (uint64_t)random() << 33 ^ (uint64_t)random() << 11 ^ (uint64_t)random();
}

static uint32_t rnd_f32(void)
{
	uint32_t v = (uint32_t)rnd64();

	if (((v >> 23) & 0xff) == 0xff)
		v ^= 1U << 23;
	return v;
}

static uint64_t rnd_f64(void)
{
	uint64_t v = rnd64();

	if (((v >> 52) & 0x7ff) == 0x7ff)
		v ^= 1ULL << 52;
	return v;
}

/*
 * add/sub/mul/div/fma of f32 and f64 in all four rounding modes agree
 * with the host's IEEE arithmetic (fmaf and fma are correctly rounded in
 * glibc), NaN results aside.
 */
static void float_matches_ieee(void)
{
	static const int modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
	static const uint8_t ops[5] = { VGPU_OP_ADD, VGPU_OP_SUB, VGPU_OP_MUL, VGPU_OP_DIV, VGPU_OP_FMA };
	int i, m, o, bad = 0;

	srandom(1);
	for (i = 0; i < 300; i++) {
		uint32_t fa = rnd_f32(), fb = rnd_f32(), fc = rnd_f32();
		uint64_t da = rnd_f64(), db = rnd_f64(), dc = rnd_f64();

		if (i % 3 == 0)	/* near-cancelling sums exercise the fma */
			fc = (uint32_t)fbits(-ffrom(fa) * ffrom(fb)) ^ (random() & 3);
		for (m = 0; m < 4; m++) {
			for (o = 0; o < 5; o++) {
				struct vgpu_insn op = ALU(ops[o], VGPU_T_F32, .mod = (uint8_t)m);
				uint64_t got, want;
				volatile float x = ffrom(fa), y = ffrom(fb), z = ffrom(fc), r;
				volatile double dx = dfrom(da), dy = dfrom(db), dz = dfrom(dc), dr;

				fesetround(modes[m]);
				r = ops[o] == VGPU_OP_ADD ? x + y : ops[o] == VGPU_OP_SUB ? x - y :
				    ops[o] == VGPU_OP_MUL ? x * y : ops[o] == VGPU_OP_DIV ? x / y :
				    fmaf(x, y, z);
				dr = ops[o] == VGPU_OP_ADD ? dx + dy : ops[o] == VGPU_OP_SUB ? dx - dy :
				     ops[o] == VGPU_OP_MUL ? dx * dy : ops[o] == VGPU_OP_DIV ? dx / dy :
				     fma(dx, dy, dz);
				fesetround(FE_TONEAREST);
				want = r != r ? 0x7fffffff : fbits(r);
				got = run_op(op, fa, fb, fc);
				if (got != want && bad++ < 5)
					TAP_FAIL("f32 op %u mode %d: %#x %#x %#x: got %#llx want %#llx",
						 ops[o], m, fa, fb, fc, (unsigned long long)got,
						 (unsigned long long)want);
				op.type = VGPU_T_F64;
				want = dbits(dr);	/* f64 NaNs are the CPU's */
				got = run_op(op, da, db, dc);
				if (got != want && bad++ < 5)
					TAP_FAIL("f64 op %u mode %d: got %#llx want %#llx", ops[o], m,
						 (unsigned long long)got, (unsigned long long)want);
			}
		}
	}
	CHECK(bad == 0);
}

/* Random f32 fmas, including near-cancelling ones, against fmaf. */
static void float_matches_ieee_f32_fma(void)
{
	int i, bad = 0;

	srandom(3);
	for (i = 0; i < 3000; i++) {
		uint32_t fa = rnd_f32(), fb = rnd_f32(), fc = rnd_f32();
		float r;
		uint64_t got, want;

		if (i % 2)
			fc = (uint32_t)fbits(-ffrom(fa) * ffrom(fb)) ^ (random() & 3);
		r = fmaf(ffrom(fa), ffrom(fb), ffrom(fc));
		want = r != r ? 0x7fffffff : fbits(r);
		got = run_op(ALU(VGPU_OP_FMA, VGPU_T_F32), fa, fb, fc);
		if (got != want && bad++ < 5)
			TAP_FAIL("fma %#x %#x %#x: got %#llx want %#llx", fa, fb, fc,
				 (unsigned long long)got, (unsigned long long)want);
	}
	CHECK(bad == 0);
}

/* The same, with the fma a CPU without an FMA unit gets (f32: exact). */
static void float_matches_ieee_without_fma(void)
{
	vgpu_fp_no_fma = true;
	float_matches_ieee_f32_fma();
	vgpu_fp_no_fma = false;
}

static void compares(void)
{
	static const struct { uint8_t t, cmp; uint64_t a, b; int want; } cases[] = {
		{ VGPU_T_S32, VGPU_CMP_LT, 0xffffffff, 0, 1 },
		{ VGPU_T_U32, VGPU_CMP_LT, 0xffffffff, 0, 0 },
		{ VGPU_T_S64, VGPU_CMP_GE, 5, 5, 1 },
		{ VGPU_T_F32, VGPU_CMP_EQ, 0x7fc00000, 0x7fc00000, 0 },
		{ VGPU_T_F32, VGPU_CMP_NE, 0x7fc00000, 0, 0 },
		{ VGPU_T_F32, VGPU_CMP_NEU, 0x7fc00000, 0, 1 },
		{ VGPU_T_F32, VGPU_CMP_EQ, 0x80000000, 0, 1 },
		{ VGPU_T_F64, VGPU_CMP_LTU, 0x7ff8000000000000ULL, 0, 1 },
		{ VGPU_T_F64, VGPU_CMP_NUM, 0x7ff8000000000000ULL, 0, 0 },
		{ VGPU_T_F64, VGPU_CMP_NAN, 0x7ff8000000000000ULL, 0, 1 },
		{ VGPU_T_F32, VGPU_CMP_GT, 0x3f800000, 0x3f000000, 1 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t out = 7, params[3] = { (uintptr_t)&out, cases[i].a, cases[i].b };
		struct vgpu_range mem[2] = { core_range(&out, 8, true), { 0 } };
		struct vgpu_insn p[] = {
			LDP(VGPU_T_U64, 0, 0), LDP(VGPU_T_U64, 1, 8), LDP(VGPU_T_U64, 2, 16),
			SETP(cases[i].t, cases[i].cmp, 0, 1, 2),
			MOVI(VGPU_T_U64, 3, 0),
			INSN(.op = VGPU_OP_MOV, .type = VGPU_T_U64, .dst = 3, .guard = 0,
			     .flags = VGPU_IF_B_IMM, .imm = 1),
			ST(VGPU_SPACE_GLOBAL, VGPU_T_U64, 0, 0, 3),
			EXIT(),
		};
		struct vgpu_func f = { .nregs = 4, .npreds = 1, .param_bytes = 24 };

		CHECK(core_run(p, 8, f, 1, 1, params, mem, NULL) == VGPU_RUN_DONE);
		if ((int)out != cases[i].want)
			TAP_FAIL("compare case %zu: got %d", i, (int)out);
	}
}

/*
 * out[tid] = (tid odd ? 100 : 200) + sum_{i<tid} i, then + 1 after the
 * paths join: an if/else, a loop with a per-lane trip count, reconvergence.
 */
static void divergence_and_loops(void)
{
	enum { N = 70 };	/* three warps, the last partial */
	uint32_t out[N];
	uint64_t params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vgpu_insn p[] = {
		/* 0 */ SREG(0, VGPU_SR_TID_X),
		/* 1 */ LDP(VGPU_T_U64, 1, 0),
		/* 2 */ OPI(VGPU_OP_AND, VGPU_T_U32, 2, 0, 1),
		/* 3 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 2, 0),
		/* 4 */ BRA_IF(0, 7),
		/* 5 */ MOVI(VGPU_T_U32, 3, 100),
		/* 6 */ BRA(8),
		/* 7 */ MOVI(VGPU_T_U32, 3, 200),
		/* 8 */ MOVI(VGPU_T_U32, 4, 0),			/* i = 0 */
		/* 9 */ SETP(VGPU_T_U32, VGPU_CMP_GE, 1, 4, 0),	/* loop: i >= tid? */
		/* 10 */ BRA_IF(1, 14),
		/* 11 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 4),
		/* 12 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 1),
		/* 13 */ BRA(9),
		/* 14 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 1),
		/* 15 */ INSN(.op = VGPU_OP_CVT, .type = VGPU_T_U64, .stype = VGPU_T_U32, .dst = 5, .a = 0),
		/* 16 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 5, 5, 2),
		/* 17 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 5, 5, 1),
		/* 18 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 5, 0, 3),
		/* 19 */ EXIT(),
	};
	struct vgpu_func f = { .nregs = 6, .npreds = 2, .param_bytes = 8 };
	int t, bad = 0;

	memset(out, 0, sizeof(out));
	CHECK(core_run(p, sizeof(p) / sizeof(p[0]), f, 1, N, params, mem, NULL) == VGPU_RUN_DONE);
	for (t = 0; t < N; t++)
		bad += out[t] != (uint32_t)((t & 1 ? 100 : 200) + t * (t - 1) / 2 + 1);
	CHECK(bad == 0);
}

/* The C that shapes_of_control_flow runs, for one thread. */
static uint32_t shapes_reference(uint32_t t)
{
	uint32_t v = 0, i;

	if (t & 1) {
		if (t & 2)
			v += 1;
		else
			v += 2;
	} else {
		v += 4;
	}
	for (i = 0; i < 10; i++) {
		if (i == t % 7)
			continue;
		if (i > t % 5 + 3)
			break;
		v += i;
	}
	if (t % 3 == 0)
		goto l2;
l1:
	v += 3;
l2:
	v += 5;
	if (v < 50)
		goto l1;
	return v;
}

/*
 * Nested ifs, a loop with per-lane continue and break, and an irreducible
 * loop entered in two places (goto-shaped code): every lane ends where
 * the same C would.
 */
static void shapes_of_control_flow(void)
{
	enum { N = 64 };
	uint32_t out[N];
	uint64_t params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vgpu_insn p[] = {
		/* 0 */ SREG(0, VGPU_SR_TID_X),
		/* 1 */ LDP(VGPU_T_U64, 1, 0),
		/* 2 */ INSN(.op = VGPU_OP_CVT, .type = VGPU_T_U64, .stype = VGPU_T_U32, .dst = 2, .a = 0),
		/* 3 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 2, 2, 2),
		/* 4 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 2, 2, 1),
		/* 5 */ MOVI(VGPU_T_U32, 3, 0),
		/* 6 */ OPI(VGPU_OP_AND, VGPU_T_U32, 5, 0, 1),
		/* 7 */ SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 5, 0),
		/* 8 */ BRA_UNLESS(0, 16),
		/* 9 */ OPI(VGPU_OP_AND, VGPU_T_U32, 5, 0, 2),
		/* 10 */ SETPI(VGPU_T_U32, VGPU_CMP_NE, 1, 5, 0),
		/* 11 */ BRA_UNLESS(1, 14),
		/* 12 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 1),
		/* 13 */ BRA(17),
		/* 14 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 2),
		/* 15 */ BRA(17),
		/* 16 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 4),
		/* 17 */ MOVI(VGPU_T_U32, 4, 0),
		/* 18 */ SETPI(VGPU_T_U32, VGPU_CMP_GE, 2, 4, 10),
		/* 19 */ BRA_IF(2, 30),
		/* 20 */ OPI(VGPU_OP_REM, VGPU_T_U32, 5, 0, 7),
		/* 21 */ SETP(VGPU_T_U32, VGPU_CMP_EQ, 3, 4, 5),
		/* 22 */ BRA_IF(3, 28),
		/* 23 */ OPI(VGPU_OP_REM, VGPU_T_U32, 5, 0, 5),
		/* 24 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 5, 5, 3),
		/* 25 */ SETP(VGPU_T_U32, VGPU_CMP_GT, 3, 4, 5),
		/* 26 */ BRA_IF(3, 30),
		/* 27 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 4),
		/* 28 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 1),
		/* 29 */ BRA(18),
		/* 30 */ OPI(VGPU_OP_REM, VGPU_T_U32, 5, 0, 3),
		/* 31 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 5, 0),
		/* 32 */ BRA_IF(0, 34),
		/* 33 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 3),
		/* 34 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 5),
		/* 35 */ SETPI(VGPU_T_U32, VGPU_CMP_LT, 1, 3, 50),
		/* 36 */ BRA_IF(1, 33),
		/* 37 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 2, 0, 3),
		/* 38 */ EXIT(),
	};
	struct vgpu_func f = { .nregs = 6, .npreds = 4, .param_bytes = 8 };
	uint32_t t;
	int bad = 0;

	memset(out, 0, sizeof(out));
	CHECK(core_run(p, sizeof(p) / sizeof(p[0]), f, 1, N, params, mem, NULL) == VGPU_RUN_DONE);
	for (t = 0; t < N; t++)
		if (out[t] != shapes_reference(t) && bad++ < 5)
			TAP_FAIL("thread %u: %u, C says %u", t, out[t], shapes_reference(t));
	CHECK(bad == 0);
}

/*
 * Lane 0 spins until lane 1 sets a flag in shared memory; lane 1's code
 * comes after the spin loop, so only the fair hand-over lets it run.
 * Lanes then exit early in different places.
 */
static void spinning_lane_lets_others_progress(void)
{
	uint32_t out[2] = { 0, 0 };
	uint64_t params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vgpu_insn p[] = {
		/* 0 */ SREG(0, VGPU_SR_TID_X),
		/* 1 */ LDP(VGPU_T_U64, 1, 0),
		/* 2 */ SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 0, 0),
		/* 3 */ BRA_IF(0, 8),
		/* 4 */ LD(VGPU_SPACE_SHARED, VGPU_T_U32, 2, VGPU_NO_REG, 0),	/* spin */
		/* 5 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 1, 2, 0),
		/* 6 */ BRA_IF(1, 4),
		/* 7 */ BRA(10),
		/* 8 */ MOVI(VGPU_T_U32, 3, 1),
		/* 9 */ ST(VGPU_SPACE_SHARED, VGPU_T_U32, VGPU_NO_REG, 0, 3),
		/* 10 */ MOVI(VGPU_T_U32, 3, 5),
		/* 11 */ INSN(.op = VGPU_OP_CVT, .type = VGPU_T_U64, .stype = VGPU_T_U32, .dst = 4, .a = 0),
		/* 12 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 4, 4, 2),
		/* 13 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 4, 4, 1),
		/* 14 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 4, 0, 3),
		/* 15 */ EXIT(),
	};
	struct vgpu_func f = { .nregs = 5, .npreds = 2, .param_bytes = 8, .shared_bytes = 4 };

	CHECK(core_run(p, sizeof(p) / sizeof(p[0]), f, 1, 2, params, mem, NULL) == VGPU_RUN_DONE);
	CHECK(out[0] == 5 && out[1] == 5);
}

/* Each thread writes s[t], meets the others at the barrier, reads s[t+1]. */
static void barrier_orders_shared_memory(void)
{
	enum { N = 96 };
	uint32_t out[N];
	uint64_t params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vgpu_insn p[] = {
		/* 0 */ SREG(0, VGPU_SR_TID_X),
		/* 1 */ LDP(VGPU_T_U64, 1, 0),
		/* 2 */ INSN(.op = VGPU_OP_CVT, .type = VGPU_T_U64, .stype = VGPU_T_U32, .dst = 2, .a = 0),
		/* 3 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 2, 2, 2),		/* 4t */
		/* 4 */ OPI(VGPU_OP_MUL, VGPU_T_U32, 3, 0, 3),		/* 3t */
		/* 5 */ ST(VGPU_SPACE_SHARED, VGPU_T_U32, 2, 0, 3),
		/* 6 */ BAR(),
		/* 7 */ OPI(VGPU_OP_ADD, VGPU_T_U64, 4, 2, 4),		/* 4(t+1) */
		/* 8 */ OPI(VGPU_OP_REM, VGPU_T_U64, 4, 4, 4 * N),
		/* 9 */ LD(VGPU_SPACE_SHARED, VGPU_T_U32, 3, 4, 0),
		/* 10 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 2, 2, 1),
		/* 11 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 2, 0, 3),
		/* 12 */ EXIT(),
	};
	struct vgpu_func f = { .nregs = 5, .npreds = 1, .param_bytes = 8,
			       .shared_bytes = 4 * N };
	int t, bad = 0;

	CHECK(core_run(p, sizeof(p) / sizeof(p[0]), f, 1, N, params, mem, NULL) == VGPU_RUN_DONE);
	for (t = 0; t < N; t++)
		bad += out[t] != (uint32_t)(3 * ((t + 1) % N));
	CHECK(bad == 0);
}

/* Local memory is per thread; generic addresses reach shared and local. */
static void memory_spaces(void)
{
	enum { N = 40 };
	uint32_t out[N];
	uint64_t params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vgpu_insn p[] = {
		/* 0 */ SREG(0, VGPU_SR_TID_X),
		/* 1 */ LDP(VGPU_T_U64, 1, 0),
		/* 2 */ ST(VGPU_SPACE_LOCAL, VGPU_T_U32, VGPU_NO_REG, 4, 0),	/* local[4] = t */
		/* 3 */ MOVI(VGPU_T_U64, 2, VGPU_LOCAL_WINDOW + 4),
		/* 4 */ LD(VGPU_SPACE_GENERIC, VGPU_T_U32, 3, 2, 0),		/* generic read */
		/* 5 */ MOVI(VGPU_T_U64, 2, VGPU_SHARED_WINDOW),
		/* 6 */ ST(VGPU_SPACE_GENERIC, VGPU_T_U32, 2, 0, 3),		/* shared[0] = t (race) */
		/* 7 */ INSN(.op = VGPU_OP_CVT, .type = VGPU_T_U64, .stype = VGPU_T_U32, .dst = 4, .a = 0),
		/* 8 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 4, 4, 2),
		/* 9 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 4, 4, 1),
		/* 10 */ ST(VGPU_SPACE_GENERIC, VGPU_T_U32, 4, 0, 3),		/* generic global */
		/* 11 */ EXIT(),
	};
	struct vgpu_func f = { .nregs = 5, .param_bytes = 8, .shared_bytes = 4,
			       .local_bytes = 8 };
	int t, bad = 0;

	CHECK(core_run(p, sizeof(p) / sizeof(p[0]), f, 1, N, params, mem, NULL) == VGPU_RUN_DONE);
	for (t = 0; t < N; t++)
		bad += out[t] != (uint32_t)t;
	CHECK(bad == 0);
}

/*
 * Generic addresses below VGPU_RESERVED_BASE are global, however high: a
 * range where ABI version 2 put the windows (2^48, 2^49, which a process
 * maps under 5-level paging) or at the top of a 5-level user address
 * space is what generic loads, stores and atomics reach, through the
 * warp-wide, per-lane and uniform paths, while the windows still lead to
 * shared memory.
 */
static void windows_above_user_addresses(void)
{
	static const uint64_t vas[] = {
		0x0001000000000000ULL, 0x0002000000000000ULL,
		0x0001000000000000ULL + VGPU_WINDOW_SIZE - 512,
		0x00fffffffffff000ULL,
	};
	struct vgpu_insn p[] = {
		/* 0 */ SREG(0, VGPU_SR_TID_X),
		/* 1 */ INSN(.op = VGPU_OP_CVT, .type = VGPU_T_U64, .stype = VGPU_T_U32, .dst = 1, .a = 0),
		/* 2 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 1, 1, 2),		/* 4t */
		/* 3 */ LDP(VGPU_T_U64, 2, 0),
		/* 4 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 3, 2, 1),
		/* 5 */ LD(VGPU_SPACE_GENERIC, VGPU_T_U32, 4, 3, 0),	/* warp */
		/* 6 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 1),
		/* 7 */ ST(VGPU_SPACE_GENERIC, VGPU_T_U32, 3, 128, 4),
		/* 8 */ LD(VGPU_SPACE_GENERIC, VGPU_T_U16, 5, 3, 0),	/* lane */
		/* 9 */ ST(VGPU_SPACE_GENERIC, VGPU_T_U16, 3, 2, 5),
		/* 10 */ LD(VGPU_SPACE_GENERIC, VGPU_T_U32, 6, VGPU_NO_REG, 0),	/* uniform: imm set below */
		/* 11 */ OPI(VGPU_OP_ADD, VGPU_T_U64, 7, 1, VGPU_SHARED_WINDOW),
		/* 12 */ ST(VGPU_SPACE_GENERIC, VGPU_T_U32, 7, 0, 6),
		/* 13 */ BAR(),
		/* 14 */ LD(VGPU_SPACE_SHARED, VGPU_T_U32, 8, 1, 0),
		/* 15 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 8, 8, 0),
		/* 16 */ ST(VGPU_SPACE_GENERIC, VGPU_T_U32, 3, 256, 8),
		/* 17 */ MOVI(VGPU_T_U32, 9, 1),
		/* 18 */ INSN(.op = VGPU_OP_ATOM, .type = VGPU_T_U32, .mod = VGPU_SPACE_GENERIC,
			      .mod2 = VGPU_ATOM_ADD, .dst = 9, .a = 2, .b = 9, .imm = 400),
		/* 19 */ EXIT(),
	};
	struct vgpu_func f = { .nregs = 10, .param_bytes = 8, .shared_bytes = 128 };
	unsigned int i, t;

	for (i = 0; i < sizeof(vas) / sizeof(vas[0]); i++) {
		uint32_t buf[128] = { 0 };
		uint64_t params[1] = { vas[i] };
		struct vgpu_range mem[2] = { core_range(buf, sizeof(buf), true), { 0 } };
		int bad = 0;

		mem[0].va = vas[i];
		for (t = 0; t < 32; t++)
			buf[t] = 0x5000 + t;
		buf[100] = 0xabcd;
		p[10].imm = vas[i] + 400;
		CHECK(core_run(p, sizeof(p) / sizeof(p[0]), f, 1, 32, params, mem, NULL) == VGPU_RUN_DONE);
		for (t = 0; t < 32; t++) {
			bad += buf[t] != (0x5000 + t) * 0x10001;
			bad += buf[32 + t] != 0x5001 + t;
			bad += buf[64 + t] != 0xabcd + t;
		}
		CHECK(bad == 0);
		CHECK(buf[100] == 0xabcd + 32);
	}
}

/*
 * A load of local memory at a constant address (no address register)
 * reads each thread's own word, through the local space and through the
 * generic window alike.
 */
static void local_loads_at_a_constant_address(void)
{
	enum { N = 40 };
	uint32_t out[2 * N];
	uint64_t params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vgpu_insn p[] = {
		/* 0 */ SREG(0, VGPU_SR_TID_X),
		/* 1 */ ST(VGPU_SPACE_LOCAL, VGPU_T_U32, VGPU_NO_REG, 4, 0),	/* local[4] = t */
		/* 2 */ LD(VGPU_SPACE_LOCAL, VGPU_T_U32, 1, VGPU_NO_REG, 4),
		/* 3 */ LD(VGPU_SPACE_GENERIC, VGPU_T_U32, 2, VGPU_NO_REG, VGPU_LOCAL_WINDOW + 4),
		/* 4 */ INSN(.op = VGPU_OP_CVT, .type = VGPU_T_U64, .stype = VGPU_T_U32, .dst = 3, .a = 0),
		/* 5 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 3, 3, 2),
		/* 6 */ LDP(VGPU_T_U64, 4, 0),
		/* 7 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 3, 3, 4),
		/* 8 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 3, 0, 1),
		/* 9 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 3, 4 * N, 2),
		/* 10 */ EXIT(),
	};
	struct vgpu_func f = { .nregs = 5, .param_bytes = 8, .local_bytes = 8 };
	int t, bad = 0;

	CHECK(core_run(p, sizeof(p) / sizeof(p[0]), f, 1, N, params, mem, NULL) == VGPU_RUN_DONE);
	for (t = 0; t < N; t++)
		bad += out[t] != (uint32_t)t || out[N + t] != (uint32_t)t;
	CHECK(bad == 0);
}

static void faults(void)
{
	uint32_t buf[4] = { 0 };
	const uint32_t ro[1] = { 9 };
	struct vgpu_range mem[3] = { core_range(buf, sizeof(buf), true),
				     core_range((void *)ro, sizeof(ro), false), { 0 } };
	uint64_t params[2] = { (uintptr_t)buf, (uintptr_t)ro };
	struct vgpu_func f = { .nregs = 3, .npreds = 1, .param_bytes = 16 };
	struct vgpu_fault fault;
	struct vgpu_insn p[6];

	/* Thread 33 stores past the end of buf. */
	p[0] = SREG(0, VGPU_SR_TID_X);
	p[1] = LDP(VGPU_T_U64, 1, 0);
	p[2] = SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 0, 33);
	p[3] = INSN(.op = VGPU_OP_ST, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
		    .a = 1, .b = 0, .imm = 16, .guard = 0);
	p[4] = EXIT();
	CHECK(core_run(p, 5, f, 1, 64, params, mem, &fault) == VGPU_RUN_FAULT);
	CHECK(fault.kind == VGPU_FAULT_ADDRESS && fault.insn == 3 && fault.thread == 33);
	CHECK(fault.addr == (uintptr_t)buf + 16);

	/* Misaligned. */
	p[3].imm = 2;
	CHECK(core_run(p, 5, f, 1, 64, params, mem, &fault) == VGPU_RUN_FAULT);
	CHECK(fault.kind == VGPU_FAULT_MISALIGNED && fault.addr == (uintptr_t)buf + 2);

	/* Read-only memory is read, not written. */
	p[1] = LDP(VGPU_T_U64, 1, 8);
	p[3] = LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, 2, 1, 0);
	CHECK(core_run(p, 5, f, 1, 1, params, mem, &fault) == VGPU_RUN_DONE);
	p[3] = ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 0);
	CHECK(core_run(p, 5, f, 1, 1, params, mem, &fault) == VGPU_RUN_FAULT);
	CHECK(fault.kind == VGPU_FAULT_ADDRESS && fault.addr == (uintptr_t)ro);

	/* Parameters past their size, and a trap. */
	p[3] = LDP(VGPU_T_U64, 2, 16);
	CHECK(core_run(p, 5, f, 1, 1, params, mem, &fault) == VGPU_RUN_FAULT);
	CHECK(fault.kind == VGPU_FAULT_ADDRESS && fault.addr == 16);
	p[3] = INSN(.op = VGPU_OP_TRAP);
	CHECK(core_run(p, 4, f, 1, 1, params, mem, &fault) == VGPU_RUN_FAULT);
	CHECK(fault.kind == VGPU_FAULT_TRAP && fault.insn == 3);
}

/*
 * The heap operations reach the host's allocator, which here (user space)
 * has no heap: malloc gives 0 to every lane, free takes 0 and mapped
 * addresses and faults on the rest, with the address.
 */
static void heap_without_a_heap(void)
{
	uint64_t buf[4] = { 1, 1, 1, 1 };
	struct vgpu_range mem[2] = { core_range(buf, sizeof(buf), true), { 0 } };
	uint64_t params[3] = { (uintptr_t)buf, 16, (uintptr_t)buf };
	struct vgpu_func f = { .nregs = 4, .npreds = 1, .param_bytes = 24 };
	struct vgpu_fault fault;
	struct vgpu_insn p[] = {
		LDP(VGPU_T_U64, 0, 0),
		LDP(VGPU_T_U64, 1, 8),
		INSN(.op = VGPU_OP_MALLOC, .type = VGPU_T_U64, .dst = 2, .a = 1),
		SREG(3, VGPU_SR_TID_X),
		OPI(VGPU_OP_SHL, VGPU_T_U64, 3, 3, 3),
		OP3(VGPU_OP_ADD, VGPU_T_U64, 3, 0, 3),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U64, 3, 0, 2),
		INSN(.op = VGPU_OP_FREE, .type = VGPU_T_U64, .a = 2),
		LDP(VGPU_T_U64, 1, 16),
		INSN(.op = VGPU_OP_FREE, .type = VGPU_T_U64, .a = 1),
		EXIT(),
	};
	unsigned int n = sizeof(p) / sizeof(p[0]), i;

	CHECK(core_run(p, n, f, 1, 4, params, mem, &fault) == VGPU_RUN_DONE);
	for (i = 0; i < 4; i++)
		CHECK(buf[i] == 0);
	params[2] = 0x1234;
	CHECK(core_run(p, n, f, 1, 4, params, mem, &fault) == VGPU_RUN_FAULT);
	CHECK(fault.kind == VGPU_FAULT_ADDRESS && fault.insn == n - 2 &&
	      fault.thread == 0 && fault.addr == 0x1234);
}

static double ulp_err32(uint64_t got, float want)
{
	float g = ffrom(got);
	double diff = fabs((double)g - (double)want);
	double ulp = fabs(nextafterf(want, INFINITY) - want);

	return ulp ? diff / ulp : diff;
}

/*
 * The approximations are an H100's (test_fp_h100.c holds them to its
 * bits); here they keep within PTX's documented error bounds of the
 * host's libm: ex2, rsqrt and the rounded sqrt and rcp 2 ulp, lg2 2^-22
 * absolute (relative beyond [0.5, 2]), sin and cos 2^-20.5 absolute on
 * [-pi, pi] (further out the argument's reduction in f32 adds its own),
 * tanh 2^-10.987 relative.
 */
static void float_functions(void)
{
	int i, bad = 0;

	srandom(2);
	for (i = 0; i < 400; i++) {
		float x = (float)((double)random() / RAND_MAX * 200 - 100);
		float pos = fabsf(x) + 1e-3f;
		struct { uint8_t op; float in, want; } c[] = {
			{ VGPU_OP_EX2, x / 4, exp2f(x / 4) },
			{ VGPU_OP_LG2, pos, log2f(pos) },
			{ VGPU_OP_SIN, x / 32, sinf(x / 32) },
			{ VGPU_OP_COS, x / 32, cosf(x / 32) },
			{ VGPU_OP_TANH, x / 20, tanhf(x / 20) },
			{ VGPU_OP_RSQRT, pos, 1.0f / sqrtf(pos) },
			{ VGPU_OP_SQRT, pos, sqrtf(pos) },
			{ VGPU_OP_RCP, x, 1.0f / x },
		};
		size_t j;

		for (j = 0; j < sizeof(c) / sizeof(c[0]); j++) {
			uint64_t got = run_op(ALU(c[j].op, VGPU_T_F32), fbits(c[j].in), 0, 0);
			double diff = fabs((double)ffrom(got) - c[j].want);
			double want = fabs((double)c[j].want), e;

			switch (c[j].op) {
			case VGPU_OP_LG2:
				e = diff / ldexp(want > 1 ? want : 1, -22);
				break;
			case VGPU_OP_SIN:
			case VGPU_OP_COS:
				e = diff / ldexp(1, -20) / 1.4142135623730951;
				break;
			case VGPU_OP_TANH:
				e = diff / (want * exp2(-10.987));
				break;
			default:
				e = ulp_err32(got, c[j].want) / 2;
				break;
			}
			if ((isnan(e) || e > 1) && bad++ < 5)
				TAP_FAIL("op %u of %a: got %a want %a", c[j].op, c[j].in,
					 ffrom(got), c[j].want);
		}
	}
	CHECK(bad == 0);
	CHECK(run_op(ALU(VGPU_OP_LG2, VGPU_T_F32), fbits(-1), 0, 0) == 0x7fffffff);
	CHECK(run_op(ALU(VGPU_OP_LG2, VGPU_T_F32), 0, 0, 0) == 0xff800000);
	CHECK(run_op(ALU(VGPU_OP_EX2, VGPU_T_F32), 0xff800000, 0, 0) == 0);
	CHECK(run_op(ALU(VGPU_OP_SIN, VGPU_T_F32), 0x7f800000, 0, 0) == 0x7fffffff);
	CHECK(run_op(ALU(VGPU_OP_COPYSIGN, VGPU_T_F32), 0x80000000, 0x3f800000, 0) == 0xbf800000);
	CHECK(run_op(ALU(VGPU_OP_SQRT, VGPU_T_F64), dbits(2.0), 0, 0) == dbits(sqrt(2.0)));
	CHECK(run_op(ALU(VGPU_OP_SQRT, VGPU_T_F32), fbits(-1), 0, 0) == 0x7fffffff);
}

/* out[t] for 32 lanes of one warp, from a kernel body given as @p. */
static void run_warp(const struct vgpu_insn *p, unsigned int n, unsigned int threads,
		     uint32_t *out, int npreds)
{
	uint64_t params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, 4 * threads, true), { 0 } };
	struct vgpu_func f = { .nregs = 8, .npreds = npreds, .param_bytes = 8,
			       .shared_bytes = 256 };

	CHECK(core_run(p, n, f, 1, threads, params, mem, NULL) == VGPU_RUN_DONE);
}

/* Prologue r0 = tid, r1 = out, r2 = &out[tid]; epilogue stores r3. */
#define PROLOGUE \
	SREG(0, VGPU_SR_TID_X), LDP(VGPU_T_U64, 1, 0), \
	INSN(.op = VGPU_OP_CVT, .type = VGPU_T_U64, .stype = VGPU_T_U32, .dst = 2, .a = 0), \
	OPI(VGPU_OP_SHL, VGPU_T_U64, 2, 2, 2), OP3(VGPU_OP_ADD, VGPU_T_U64, 2, 2, 1)
#define EPILOGUE ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 2, 0, 3), EXIT()
#define SHFL(MODE, B, C, MASK) INSN(.op = VGPU_OP_SHFL, .type = VGPU_T_U32, .mod = (MODE), \
	.dst = 3, .a = 4, .b = (B), .c = (C), .flags = VGPU_IF_B_IMM | VGPU_IF_C_IMM, \
	.imm = (MASK), .mod2 = 1)

static void shuffles(void)
{
	static const struct { uint8_t mode; uint32_t b, c; int (*want)(int); } cases[] = {
		{ VGPU_SHFL_DOWN, 1, 0x1f, NULL },
		{ VGPU_SHFL_UP, 2, 0, NULL },
		{ VGPU_SHFL_BFLY, 1, 0x1f, NULL },
		{ VGPU_SHFL_IDX, 5, 0x1f, NULL },
		{ VGPU_SHFL_DOWN, 1, (16 << 8) | 0xf, NULL },
	};
	size_t i;
	int t;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint32_t out[32];
		struct vgpu_insn p[] = {
			PROLOGUE,
			OPI(VGPU_OP_MUL, VGPU_T_U32, 4, 0, 10),
			SHFL(cases[i].mode, cases[i].b, cases[i].c, 0xffffffff),
			EPILOGUE,
		};

		run_warp(p, sizeof(p) / sizeof(p[0]), 32, out, 1);
		for (t = 0; t < 32; t++) {
			int j;

			switch (i) {
			case 0: j = t + 1 <= 31 ? t + 1 : t; break;
			case 1: j = t - 2 >= 0 ? t - 2 : t; break;
			case 2: j = t ^ 1; break;
			case 3: j = 5; break;
			default: j = (t & 15) + 1 <= 15 ? t + 1 : t; break;
			}
			if (out[t] != (uint32_t)(10 * j))
				TAP_FAIL("case %zu lane %d: got %u want %d", i, t, out[t], 10 * j);
		}
	}
}

/*
 * Even lanes reach the shuffle first while the odd ones are further on
 * and come back to it by a backward branch: the first wait for the rest,
 * and all values are exchanged.
 */
static void shuffle_waits_for_members(void)
{
	uint32_t out[32];
	struct vgpu_insn p[] = {
		/* 0-4 */ PROLOGUE,
		/* 5 */ OPI(VGPU_OP_AND, VGPU_T_U32, 5, 0, 1),
		/* 6 */ SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 5, 0),
		/* 7 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 4, 0, 2000),
		/* 8 */ BRA_IF(0, 12),
		/* 9 */ SHFL(VGPU_SHFL_BFLY, 1, 0x1f, 0xffffffff),
		/* 10-11 */ EPILOGUE,
		/* 12 */ OPI(VGPU_OP_SUB, VGPU_T_U32, 4, 4, 1000),	/* odd */
		/* 13 */ BRA(9),
	};
	int t, bad = 0;

	run_warp(p, sizeof(p) / sizeof(p[0]), 32, out, 1);
	for (t = 0; t < 32; t++)
		bad += out[t] != (uint32_t)((t ^ 1) + ((t ^ 1) & 1 ? 1000 : 2000));
	CHECK(bad == 0);
}

/*
 * Even and odd lanes each write shared memory and meet at a warp barrier
 * on their own path (__syncwarp in both branches), then read what their
 * neighbour wrote.
 */
/*
 * Barriers that reduce a predicate (__syncthreads_count/_and/_or): 96
 * threads in three warps, one of them reaching the barrier on another
 * path; each thread gets the block's count, all and any.
 */
static void barrier_reductions(void)
{
	uint32_t out[96];
	uint64_t params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vgpu_insn p[] = {
		/* 0-4 */ PROLOGUE,
		/* 5 */ OPI(VGPU_OP_REM, VGPU_T_U32, 5, 0, 3),
		/* 6 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 5, 0),	/* p0: tid % 3 == 0 */
		/* 7 */ SETPI(VGPU_T_U32, VGPU_CMP_LT, 1, 0, 200),	/* p1: always */
		/* 8 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 2, 0, 77),	/* p2: one thread */
		/* 9 */ SETPI(VGPU_T_U32, VGPU_CMP_GE, 3, 0, 40),
		/* 10 */ BRA_IF(3, 13),
		/* 11 */ INSN(.op = VGPU_OP_BAR_RED, .type = VGPU_T_U32, .mod = VGPU_BAR_POPC, .dst = 3, .a = 0),
		/* 12 */ BRA(14),
		/* 13 */ INSN(.op = VGPU_OP_BAR_RED, .type = VGPU_T_U32, .mod = VGPU_BAR_POPC, .dst = 3, .a = 0),
		/* 14 */ INSN(.op = VGPU_OP_BAR_RED, .type = VGPU_T_PRED, .mod = VGPU_BAR_AND, .dst = 1, .a = 1),
		/* 15 */ INSN(.op = VGPU_OP_BAR_RED, .type = VGPU_T_PRED, .mod = VGPU_BAR_OR, .dst = 2, .a = 2),
		/* 16 */ INSN(.op = VGPU_OP_BAR_RED, .type = VGPU_T_PRED, .mod = VGPU_BAR_AND, .dst = 0, .a = 0),
		/* 17 */ INSN(.op = VGPU_OP_ADD, .type = VGPU_T_U32, .dst = 3, .a = 3, .flags = VGPU_IF_B_IMM, .imm = 1000, .guard = 1),
		/* 18 */ INSN(.op = VGPU_OP_ADD, .type = VGPU_T_U32, .dst = 3, .a = 3, .flags = VGPU_IF_B_IMM, .imm = 10000, .guard = 2),
		/* 19 */ INSN(.op = VGPU_OP_ADD, .type = VGPU_T_U32, .dst = 3, .a = 3, .flags = VGPU_IF_B_IMM, .imm = 100000, .guard = 0),
		/* 20-21 */ EPILOGUE,
	};
	struct vgpu_func f = { .nregs = 8, .npreds = 4, .param_bytes = 8 };
	int t, bad = 0;

	CHECK(core_run(p, sizeof(p) / sizeof(p[0]), f, 1, 96, params, mem, NULL) == VGPU_RUN_DONE);
	/* 32 of 96 have tid % 3 == 0; all have p1; one has p2; not all p0 */
	for (t = 0; t < 96; t++)
		bad += out[t] != 32 + 1000 + 10000;
	CHECK(bad == 0);
}

/*
 * Named barriers with thread counts, 4 warps. Warp 0 consumes what warp 1
 * produces, five times over one buffer: the producer writes and arrives
 * at barrier 1 (full) without waiting, then waits at barrier 2 (empty);
 * the consumer waits at 1, reads, arrives at 2 and notes its progress.
 * Warps 2 and 3 wait until it has taken three items, then trade values
 * through barrier 0, counting only their 64 threads: barriers that
 * waited for the whole block would stop the pair while the others spin.
 */
static void producer_consumer_barriers(void)
{
	uint32_t out[128];
	uint64_t params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vgpu_insn p[] = {
		/* 0-4 */ PROLOGUE,
		/* 5 */ MOVI(VGPU_T_U32, 3, 0),
		/* 6 */ MOVI(VGPU_T_U32, 4, 0),				/* i */
		/* 7 */ OPI(VGPU_OP_AND, VGPU_T_U32, 8, 0, 31),		/* lane */
		/* 8 */ OPI(VGPU_OP_SHL, VGPU_T_U32, 6, 8, 2),
		/* 9 */ OPI(VGPU_OP_SHR, VGPU_T_U32, 7, 0, 5),		/* warp */
		/* 10 */ OPI(VGPU_OP_SHL, VGPU_T_U32, 9, 0, 2),
		/* 11 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 7, 0),
		/* 12 */ BRA_IF(0, 29),
		/* 13 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 7, 1),
		/* 14 */ BRA_IF(0, 38),
		/* warps 2 and 3 */
		/* 15 */ LD(VGPU_SPACE_SHARED, VGPU_T_U32, 5, VGPU_NO_REG, 1020),
		/* 16 */ SETPI(VGPU_T_U32, VGPU_CMP_LT, 0, 5, 3),
		/* 17 */ BRA_IF(0, 15),
		/* 18 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 5, 0, 4),
		/* 19 */ ST(VGPU_SPACE_SHARED, VGPU_T_U32, 9, 256, 5),
		/* 20 */ BAR_N(0, 64),
		/* 21 */ OPI(VGPU_OP_XOR, VGPU_T_U32, 10, 9, 128),	/* the other warp's */
		/* 22 */ LD(VGPU_SPACE_SHARED, VGPU_T_U32, 5, 10, 256),
		/* 23 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 5),
		/* 24 */ BAR_N(0, 64),
		/* 25 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 1),
		/* 26 */ SETPI(VGPU_T_U32, VGPU_CMP_LT, 0, 4, 5),
		/* 27 */ BRA_IF(0, 18),
		/* 28 */ BRA(47),
		/* consumer */
		/* 29 */ BAR_N(1, 64),
		/* 30 */ LD(VGPU_SPACE_SHARED, VGPU_T_U32, 5, 6, 0),
		/* 31 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 5),
		/* 32 */ ARRIVE_N(2, 64),
		/* 33 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 1),
		/* 34 */ ST(VGPU_SPACE_SHARED, VGPU_T_U32, VGPU_NO_REG, 1020, 4),
		/* 35 */ SETPI(VGPU_T_U32, VGPU_CMP_LT, 0, 4, 5),
		/* 36 */ BRA_IF(0, 29),
		/* 37 */ BRA(47),
		/* producer */
		/* 38 */ OPI(VGPU_OP_MUL, VGPU_T_U32, 5, 4, 100),
		/* 39 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 5, 5, 8),
		/* 40 */ ST(VGPU_SPACE_SHARED, VGPU_T_U32, 6, 0, 5),
		/* 41 */ ARRIVE_N(1, 64),
		/* 42 */ BAR_N(2, 64),
		/* 43 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 1),
		/* 44 */ SETPI(VGPU_T_U32, VGPU_CMP_LT, 0, 4, 5),
		/* 45 */ BRA_IF(0, 38),
		/* 46 */ MOVI(VGPU_T_U32, 3, 7),
		/* 47-48 */ EPILOGUE,
	};
	struct vgpu_func f = { .nregs = 11, .npreds = 1, .param_bytes = 8,
			       .shared_bytes = 1024 };
	int t, bad = 0;

	CHECK(core_run(p, sizeof(p) / sizeof(p[0]), f, 1, 128, params, mem, NULL) == VGPU_RUN_DONE);
	for (t = 0; t < 128; t++) {
		uint32_t want = t < 32 ? 1000 + 5 * t : t < 64 ? 7 :
				5 * (t ^ 32) + 10;

		bad += out[t] != want;
	}
	CHECK(bad == 0);
}

/*
 * Two pairs of warps, each on its own barrier: warps 0-1 on one named by
 * a register with the count in a register, 3 rounds; warps 2-3 on
 * barrier 5, 7 rounds, which they start only once the first pair has
 * finished (a flag in shared memory): a barrier that waited for the
 * whole block would never let the first pair through.
 */
static void barriers_of_separate_groups(void)
{
	uint32_t out[128];
	uint64_t params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vgpu_insn p[] = {
		/* 0-4 */ PROLOGUE,
		/* 5 */ MOVI(VGPU_T_U32, 3, 0),
		/* 6 */ MOVI(VGPU_T_U32, 4, 0),
		/* 7 */ OPI(VGPU_OP_SHL, VGPU_T_U32, 9, 0, 2),
		/* 8 */ OPI(VGPU_OP_SHR, VGPU_T_U32, 7, 0, 5),
		/* 9 */ MOVI(VGPU_T_U32, 11, 3),			/* barrier */
		/* 10 */ MOVI(VGPU_T_U32, 12, 64),			/* count */
		/* 11 */ MOVI(VGPU_T_U32, 10, 7),			/* rounds */
		/* 12 */ SETPI(VGPU_T_U32, VGPU_CMP_LT, 0, 7, 2),
		/* 13 */ INSN(.op = VGPU_OP_MOV, .type = VGPU_T_U32, .dst = 10,
			      .flags = VGPU_IF_B_IMM, .imm = 3, .guard = 0),
		/* 14 */ BRA_UNLESS(0, 27),
		/* warps 0 and 1 */
		/* 15 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 5, 0, 4),
		/* 16 */ ST(VGPU_SPACE_SHARED, VGPU_T_U32, 9, 0, 5),
		/* 17 */ BAR_R(11, 12),
		/* 18 */ OPI(VGPU_OP_XOR, VGPU_T_U32, 8, 9, 128),
		/* 19 */ LD(VGPU_SPACE_SHARED, VGPU_T_U32, 5, 8, 0),
		/* 20 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 5),
		/* 21 */ BAR_R(11, 12),
		/* 22 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 1),
		/* 23 */ SETP(VGPU_T_U32, VGPU_CMP_LT, 0, 4, 10),
		/* 24 */ BRA_IF(0, 15),
		/* 25 */ ST(VGPU_SPACE_SHARED, VGPU_T_U32, VGPU_NO_REG, 1020, 12),
		/* 26 */ BRA(40),
		/* warps 2 and 3 */
		/* 27 */ LD(VGPU_SPACE_SHARED, VGPU_T_U32, 5, VGPU_NO_REG, 1020),
		/* 28 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 1, 5, 0),
		/* 29 */ BRA_IF(1, 27),
		/* 30 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 5, 0, 4),
		/* 31 */ ST(VGPU_SPACE_SHARED, VGPU_T_U32, 9, 0, 5),
		/* 32 */ BAR_N(5, 64),
		/* 33 */ OPI(VGPU_OP_XOR, VGPU_T_U32, 8, 9, 128),
		/* 34 */ LD(VGPU_SPACE_SHARED, VGPU_T_U32, 5, 8, 0),
		/* 35 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 5),
		/* 36 */ BAR_N(5, 64),
		/* 37 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 4, 4, 1),
		/* 38 */ SETP(VGPU_T_U32, VGPU_CMP_LT, 0, 4, 10),
		/* 39 */ BRA_IF(0, 30),
		/* 40-41 */ EPILOGUE,
	};
	struct vgpu_func f = { .nregs = 13, .npreds = 2, .param_bytes = 8,
			       .shared_bytes = 1024 };
	int t, bad = 0;

	CHECK(core_run(p, sizeof(p) / sizeof(p[0]), f, 1, 128, params, mem, NULL) == VGPU_RUN_DONE);
	for (t = 0; t < 128; t++) {
		uint32_t want = t < 64 ? 3 * (t ^ 32) + 3 : 7 * (t ^ 32) + 21;

		bad += out[t] != want;
	}
	CHECK(bad == 0);
}

/*
 * bar.arrive does not wait: warp 1 arrives, then sets the flag warp 0
 * waits for before it syncs on the same barrier.
 */
static void arrive_does_not_wait(void)
{
	uint32_t out[64];
	uint64_t params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vgpu_insn p[] = {
		/* 0-4 */ PROLOGUE,
		/* 5 */ OPI(VGPU_OP_SHR, VGPU_T_U32, 7, 0, 5),
		/* 6 */ MOVI(VGPU_T_U32, 6, 1),
		/* 7 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 7, 0),
		/* 8 */ BRA_IF(0, 13),
		/* 9 */ ARRIVE_N(1, 64),
		/* 10 */ ST(VGPU_SPACE_SHARED, VGPU_T_U32, VGPU_NO_REG, 0, 6),
		/* 11 */ MOVI(VGPU_T_U32, 3, 5),
		/* 12 */ BRA(18),
		/* 13 */ LD(VGPU_SPACE_SHARED, VGPU_T_U32, 5, VGPU_NO_REG, 0),
		/* 14 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 1, 5, 0),
		/* 15 */ BRA_IF(1, 13),
		/* 16 */ BAR_N(1, 64),
		/* 17 */ MOVI(VGPU_T_U32, 3, 9),
		/* 18-19 */ EPILOGUE,
	};
	struct vgpu_func f = { .nregs = 8, .npreds = 2, .param_bytes = 8,
			       .shared_bytes = 4 };
	int t, bad = 0;

	CHECK(core_run(p, sizeof(p) / sizeof(p[0]), f, 1, 64, params, mem, NULL) == VGPU_RUN_DONE);
	for (t = 0; t < 64; t++)
		bad += out[t] != (t < 32 ? 9u : 5u);
	CHECK(bad == 0);
}

/*
 * bar.red with a count reduces over the threads that take part: 112
 * threads, warps 0-1 on barrier 1 and warps 2-3 (the last one of 16
 * lanes, which counts as 32 threads) on barrier 2, named by a register.
 */
static void barrier_reductions_with_counts(void)
{
#define RED(T, OP, D, P) INSN(.op = VGPU_OP_BAR_RED, .type = (T), .mod = (OP), \
	.dst = (D), .a = (P), .mod2 = VGPU_BAR_COUNT | VGPU_BAR_ID_REG, \
	.flags = VGPU_IF_B_IMM, .b = 64, .c = 6)
	uint32_t out[112];
	uint64_t params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vgpu_insn p[] = {
		/* 0-4 */ PROLOGUE,
		/* 5 */ OPI(VGPU_OP_SHR, VGPU_T_U32, 7, 0, 6),
		/* 6 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 6, 7, 1),		/* barrier */
		/* 7 */ OPI(VGPU_OP_REM, VGPU_T_U32, 5, 0, 3),
		/* 8 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 5, 0),
		/* 9 */ SETPI(VGPU_T_U32, VGPU_CMP_LT, 1, 0, 100),
		/* 10 */ RED(VGPU_T_U32, VGPU_BAR_POPC, 3, 0),
		/* 11 */ RED(VGPU_T_PRED, VGPU_BAR_AND, 2, 1),
		/* 12 */ RED(VGPU_T_PRED, VGPU_BAR_OR, 3, 1),
		/* 13 */ INSN(.op = VGPU_OP_ADD, .type = VGPU_T_U32, .dst = 3, .a = 3,
			      .flags = VGPU_IF_B_IMM, .imm = 1000, .guard = 2),
		/* 14 */ INSN(.op = VGPU_OP_ADD, .type = VGPU_T_U32, .dst = 3, .a = 3,
			      .flags = VGPU_IF_B_IMM, .imm = 10000, .guard = 3),
		/* 15-16 */ EPILOGUE,
	};
#undef RED
	struct vgpu_func f = { .nregs = 8, .npreds = 4, .param_bytes = 8 };
	int t, bad = 0;

	CHECK(core_run(p, sizeof(p) / sizeof(p[0]), f, 1, 112, params, mem, NULL) == VGPU_RUN_DONE);
	/* tid % 3 == 0: 22 of 0-63, 16 of 64-111; all of 0-63 are < 100 */
	for (t = 0; t < 112; t++)
		bad += out[t] != (t < 64 ? 22u + 1000 + 10000 : 16u + 10000);
	CHECK(bad == 0);
}

/*
 * Barriers that cannot complete: a count above the block's threads, one
 * a warp that exited would have had to make up, lanes of a warp at two
 * barriers. A number or count PTX does not allow, read from a register,
 * faults the launch. A barrier without a count does not wait for a warp
 * that exited.
 */
static void barriers_that_cannot_complete(void)
{
	static const struct {
		const char *name;
		uint32_t id, count, kind, insn;
		bool exit_warp1, split, plain;
	} cases[] = {
		{ "count above the block", 1, 96, VGPU_FAULT_DEADLOCK, 0, false, false, false },
		{ "a warp exited", 1, 64, VGPU_FAULT_DEADLOCK, 0, true, false, false },
		{ "lanes at two barriers", 1, 64, VGPU_FAULT_DEADLOCK, 11, false, true, false },
		{ "barrier 16", 16, 64, VGPU_FAULT_TRAP, 9, false, false, false },
		{ "count of 48", 1, 48, VGPU_FAULT_TRAP, 9, false, false, false },
		{ "count of 0", 1, 0, VGPU_FAULT_TRAP, 9, false, false, false },
		{ "without a count", 0, 0, VGPU_FAULT_NONE, 0, true, false, true },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vgpu_insn p[] = {
			/* 0 */ SREG(0, VGPU_SR_TID_X),
			/* 1 */ OPI(VGPU_OP_SHR, VGPU_T_U32, 1, 0, 5),
			/* 2 */ OPI(VGPU_OP_AND, VGPU_T_U32, 4, 0, 1),
			/* 3 */ MOVI(VGPU_T_U32, 2, cases[i].id),
			/* 4 */ MOVI(VGPU_T_U32, 3, cases[i].count),
			/* 5 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 1, 1),
			/* 6 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 1, 4, 1),
			/* 7 */ INSN(.op = VGPU_OP_EXIT, .guard = 0),
			/* 8 */ BRA_IF(1, 11),			/* odd lanes */
			/* 9 */ BAR_R(2, 3),
			/* 10 */ EXIT(),
			/* 11 */ BAR_N(2, 64),
			/* 12 */ EXIT(),
		};
		struct vgpu_func f = { .nregs = 5, .npreds = 2 };
		struct vgpu_fault fault = { 0 };
		int r;

		if (!cases[i].exit_warp1)
			p[7] = INSN(.op = VGPU_OP_NOP);
		if (!cases[i].split)	/* no lane goes to barrier 2 */
			p[6] = SETPI(VGPU_T_U32, VGPU_CMP_EQ, 1, 4, 2);
		if (cases[i].plain)
			p[9] = BAR();
		r = core_run(p, sizeof(p) / sizeof(p[0]), f, 1, 64, NULL, NULL, &fault);
		if (cases[i].kind == VGPU_FAULT_NONE) {
			if (r != VGPU_RUN_DONE)
				TAP_FAIL("%s: ended with %d", cases[i].name, r);
			continue;
		}
		if (r != VGPU_RUN_FAULT || fault.kind != cases[i].kind ||
		    (cases[i].insn && fault.insn != cases[i].insn))
			TAP_FAIL("%s: ended with %d, fault %u at %u", cases[i].name,
				 r, fault.kind, fault.insn);
	}
}

static void warp_barriers_on_two_paths(void)
{
	uint32_t out[32];
	struct vgpu_insn p[] = {
		/* 0-4 */ PROLOGUE,
		/* 5 */ OPI(VGPU_OP_SHL, VGPU_T_U32, 6, 0, 2),	/* &s[t] */
		/* 6 */ OPI(VGPU_OP_AND, VGPU_T_U32, 5, 0, 1),
		/* 7 */ SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 5, 0),
		/* 8 */ BRA_IF(0, 13),
		/* 9 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 4, 0, 500),	/* even */
		/* 10 */ ST(VGPU_SPACE_SHARED, VGPU_T_U32, 6, 0, 4),
		/* 11 */ INSN(.op = VGPU_OP_WARPSYNC, .imm = 0xffffffff),
		/* 12 */ BRA(16),
		/* 13 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 4, 0, 900),	/* odd */
		/* 14 */ ST(VGPU_SPACE_SHARED, VGPU_T_U32, 6, 0, 4),
		/* 15 */ INSN(.op = VGPU_OP_WARPSYNC, .imm = 0xffffffff),
		/* 16 */ OPI(VGPU_OP_XOR, VGPU_T_U32, 6, 6, 4),		/* neighbour */
		/* 17 */ LD(VGPU_SPACE_SHARED, VGPU_T_U32, 3, 6, 0),
		/* 18-19 */ EPILOGUE,
	};
	int t, bad = 0;

	run_warp(p, sizeof(p) / sizeof(p[0]), 32, out, 1);
	for (t = 0; t < 32; t++)
		bad += out[t] != (uint32_t)((t ^ 1) + ((t ^ 1) & 1 ? 900 : 500));
	CHECK(bad == 0);
}

/* A shuffle whose other members never come is a deadlock, reported. */
static void missing_member_is_a_deadlock(void)
{
	uint32_t out[32];
	uint64_t params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vgpu_insn p[] = {
		/* 0-4 */ PROLOGUE,
		/* 5 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 0, 3),
		/* 6 */ BRA_IF(0, 9),				/* lane 3 spins */
		/* 7 */ SHFL(VGPU_SHFL_IDX, 0, 0x1f, 0xffffffff),
		/* 8 */ EXIT(),
		/* 9 */ BAR(),
		/* 10 */ BRA(9),
	};
	struct vgpu_func f = { .nregs = 8, .npreds = 1, .param_bytes = 8 };
	struct vgpu_fault fault;

	CHECK(core_run(p, sizeof(p) / sizeof(p[0]), f, 1, 32, params, mem, &fault) == VGPU_RUN_FAULT);
	CHECK(fault.kind == VGPU_FAULT_DEADLOCK);
}

static void votes_and_masks(void)
{
	uint32_t out[32];
	int t, bad = 0;
	/* r3 = ballot(odd) | any(odd) << ... packed per lane */
	struct vgpu_insn p[] = {
		/* 0-4 */ PROLOGUE,
		/* 5 */ OPI(VGPU_OP_AND, VGPU_T_U32, 5, 0, 1),
		/* 6 */ SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 5, 0),		/* p0: odd */
		/* 7 */ INSN(.op = VGPU_OP_VOTE, .type = VGPU_T_U32, .mod = VGPU_VOTE_BALLOT, .dst = 3, .a = 0, .imm = 0x0000ffff),
		/* 8 */ INSN(.op = VGPU_OP_VOTE, .type = VGPU_T_PRED, .mod = VGPU_VOTE_ANY, .dst = 1, .a = 0, .imm = 0xffffffff),
		/* 9 */ INSN(.op = VGPU_OP_VOTE, .type = VGPU_T_PRED, .mod = VGPU_VOTE_ALL, .dst = 2, .a = 0, .imm = 0xffffffff),
		/* 10 */ INSN(.op = VGPU_OP_MOV, .type = VGPU_T_U32, .dst = 3, .guard = 2, .flags = VGPU_IF_B_IMM, .imm = 7),
		/* 11 */ SETPI(VGPU_T_U32, VGPU_CMP_LT, 3, 0, 10),		/* p3: tid < 10 */
		/* 12 */ BRA_UNLESS(3, 15),
		/* 13 */ INSN(.op = VGPU_OP_ACTIVEMASK, .type = VGPU_T_U32, .dst = 6),
		/* 14 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 6),
		/* 15 */ OPI(VGPU_OP_REM, VGPU_T_U32, 7, 0, 3),
		/* 16 */ INSN(.op = VGPU_OP_MATCH, .type = VGPU_T_U32, .mod = VGPU_MATCH_ANY, .dst = 5, .a = 7, .imm = 0xffffffff),
		/* 17 */ INSN(.op = VGPU_OP_POPC, .type = VGPU_T_U32, .dst = 5, .a = 5),
		/* 18 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 3, 3, 5),
		/* 19 */ INSN(.op = VGPU_OP_WARPSYNC, .imm = 0xffffffff),
		/* 20-21 */ EPILOGUE,
	};

	run_warp(p, sizeof(p) / sizeof(p[0]), 32, out, 4);
	for (t = 0; t < 32; t++) {
		/* ballot of odd lanes among 0-15, any true, all false (no 7),
		 * activemask 0x3ff for t < 10, popc of the t%3 class (11 or 10) */
		uint32_t want = 0x0000aaaa + (t < 10 ? 0x3ff : 0) + (t % 3 == 2 ? 10 : 11);

		bad += out[t] != want;
	}
	CHECK(bad == 0);
}

/* 4 blocks x 64 threads: integer, float and bounded-increment atomics. */
static void atomics(void)
{
	struct { uint32_t add, inc, max, exch; float fadd; uint64_t add64; } g = { 0 };
	uint64_t params[1] = { (uintptr_t)&g };
	struct vgpu_range mem[2] = { core_range(&g, sizeof(g), true), { 0 } };
#define ATOM(T, OP, OFF, B) INSN(.op = VGPU_OP_ATOM, .type = (T), .mod = VGPU_SPACE_GLOBAL, \
	.mod2 = (OP), .dst = 3, .a = 1, .b = (B), .imm = (OFF))
	struct vgpu_insn p[] = {
		SREG(0, VGPU_SR_TID_X), LDP(VGPU_T_U64, 1, 0),
		MOVI(VGPU_T_U32, 2, 1),
		ATOM(VGPU_T_U32, VGPU_ATOM_ADD, 0, 2),
		MOVI(VGPU_T_U32, 4, 9),
		ATOM(VGPU_T_U32, VGPU_ATOM_INC, 4, 4),
		OPI(VGPU_OP_SUB, VGPU_T_S32, 5, 0, 32),
		ATOM(VGPU_T_S32, VGPU_ATOM_MAX, 8, 5),
		ATOM(VGPU_T_U32, VGPU_ATOM_EXCH, 12, 0),
		MOVI(VGPU_T_F32, 6, 0x3f800000),
		ATOM(VGPU_T_F32, VGPU_ATOM_ADD, 16, 6),
		MOVI(VGPU_T_U64, 7, 1ULL << 33),
		ATOM(VGPU_T_U64, VGPU_ATOM_ADD, 24, 7),
		/* shared: add, then CAS 256 -> 1 by whoever sees 256 */
		INSN(.op = VGPU_OP_ATOM, .type = VGPU_T_U32, .mod = VGPU_SPACE_SHARED,
		     .mod2 = VGPU_ATOM_ADD, .dst = 3, .a = VGPU_NO_REG, .b = 2),
		BAR(),
		EXIT(),
	};
	struct vgpu_func f = { .nregs = 8, .param_bytes = 8, .shared_bytes = 4 };

	CHECK(core_run(p, sizeof(p) / sizeof(p[0]), f, 4, 64, params, mem, NULL) == VGPU_RUN_DONE);
	CHECK(g.add == 256);
	CHECK(g.inc == 256 % 10);
	CHECK(g.max == 31);
	CHECK(g.exch < 64);
	CHECK(g.fadd == 256.0f);
	CHECK(g.add64 == 256ULL << 33);
}

/* clock64 runs at the device's rate, globaltimer in ns. */
static void clocks(void)
{
	uint64_t out[4], params[1] = { (uintptr_t)out };
	struct vgpu_range mem[2] = { core_range(out, sizeof(out), true), { 0 } };
	struct vgpu_insn p[] = {
		LDP(VGPU_T_U64, 0, 0),
		INSN(.op = VGPU_OP_SREG, .type = VGPU_T_U64, .dst = 1, .mod = VGPU_SR_GLOBALTIMER),
		INSN(.op = VGPU_OP_SREG, .type = VGPU_T_U64, .dst = 2, .mod = VGPU_SR_CLOCK64),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U64, 0, 0, 1),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U64, 0, 8, 2),
		EXIT(),
	};
	struct vgpu_func f = { .nregs = 3, .param_bytes = 8 };
	struct vgpu_program prog = { p, 6, &f, 1 };
	struct vgpu_launch l = { .prog = &prog, .func = &f, .grid = { 1, 1, 1 },
				 .block = { 1, 1, 1 }, .params = (const u8 *)params, .mmu = mem,
				 .clock_khz = 2000000 };
	struct vgpu_block *b = aligned_alloc(16, (vgpu_block_bytes(&l) + 15) & ~15ULL);
	struct timespec ts;
	uint64_t before;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	before = (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	vgpu_block_start(b, &l, 0, true);
	CHECK(vgpu_block_run(b, 100) == VGPU_RUN_DONE);
	free(b);
	CHECK(out[0] >= before && out[0] - before < 1000000000ULL);
	/* 2 GHz: twice the ns, give or take the instruction between them */
	CHECK(out[1] >= 2 * out[0] && out[1] - 2 * out[0] < 20000000ULL);
}

/*
 * A block started with @clear sees zeros where the buffer's last block
 * left its registers and shared memory; one started without it keeps the
 * cost down and only the launch's own values can be there.
 */
static void block_start_clears_leftovers(void)
{
	static const struct vgpu_insn wr[] = {
		MOVI(VGPU_T_U32, 0, 0x5ec2e7), MOVI(VGPU_T_U32, 1, 0x5ec2e7),
		SREG(2, VGPU_SR_TID_X), OPI(VGPU_OP_SHL, VGPU_T_U32, 2, 2, 2),
		ST(VGPU_SPACE_SHARED, VGPU_T_U32, 2, 0, 0),
		MOVI(VGPU_T_U32, 2, 0x5ec2e7), EXIT(),
	};
	/* out[tid] = shared[tid] | r1, r1 never written */
	static const struct vgpu_insn rd[] = {
		SREG(0, VGPU_SR_TID_X), OPI(VGPU_OP_SHL, VGPU_T_U32, 0, 0, 2),
		LD(VGPU_SPACE_SHARED, VGPU_T_U32, 2, 0, 0),
		OP3(VGPU_OP_OR, VGPU_T_U32, 2, 2, 1),
		LDP(VGPU_T_U64, 1, 0), OP3(VGPU_OP_ADD, VGPU_T_U64, 1, 1, 0),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 2), EXIT(),
	};
	struct vgpu_func f = { .nregs = 3, .param_bytes = 8, .shared_bytes = 256 };
	struct vgpu_program pw = { wr, 7, &f, 1 }, pr = { rd, 8, &f, 1 };
	uint32_t out[64];
	uint64_t param = (uintptr_t)out;
	struct vgpu_range mem[2] = {
		{ .va = (uintptr_t)out, .size = sizeof(out), .ptr = (uint8_t *)out,
		  .writable = true },
	};
	struct vgpu_launch lw = { .prog = &pw, .func = &f, .grid = { 1, 1, 1 },
				  .block = { 64, 1, 1 } };
	struct vgpu_launch lr = lw;
	struct vgpu_block *b = aligned_alloc(16, (vgpu_block_bytes(&lw) + 15) & ~15ULL);
	int i, zeros = 0, kept = 0, clear;

	lr.prog = &pr;
	lr.params = (const u8 *)&param;
	lr.mmu = mem;
	for (clear = 1; clear >= 0; clear--) {
		vgpu_block_start(b, &lw, 0, true);
		CHECK(vgpu_block_run(b, 1000) == VGPU_RUN_DONE);
		memset(out, 0xff, sizeof(out));
		vgpu_block_start(b, &lr, 0, clear);
		CHECK(vgpu_block_run(b, 1000) == VGPU_RUN_DONE);
		for (i = 0; i < 64; i++) {
			zeros += clear && out[i] == 0;
			kept += !clear && out[i] == 0x5ec2e7;
		}
	}
	CHECK(zeros == 64);
	CHECK(kept == 64);
	free(b);
}

/* An endless loop returns to the caller whenever the budget runs out. */
static void budget_returns_control(void)
{
	struct vgpu_insn p[2] = { INSN(.op = VGPU_OP_NOP), BRA(0) };
	struct vgpu_func f = { .nregs = 1 };
	struct vgpu_program prog = { p, 2, &f, 1 };
	struct vgpu_launch l = { .prog = &prog, .func = &f, .grid = { 1, 1, 1 },
				 .block = { 64, 1, 1 } };
	struct vgpu_block *b = aligned_alloc(16, (vgpu_block_bytes(&l) + 15) & ~15ULL);
	int i;

	vgpu_block_start(b, &l, 0, true);
	for (i = 0; i < 5; i++)
		CHECK(vgpu_block_run(b, 1000) == VGPU_RUN_MORE);
	free(b);
}

static const struct tap_test tests[] = {
	TAP_TEST(block_start_clears_leftovers),
	TAP_TEST(integer_edge_cases),
	TAP_TEST(carry_chains),
	TAP_TEST(f16_round_trip),
	TAP_TEST(float_edge_cases),
	TAP_TEST(float_matches_ieee),
	TAP_TEST(float_matches_ieee_without_fma),
	TAP_TEST(compares),
	TAP_TEST(divergence_and_loops),
	TAP_TEST(shapes_of_control_flow),
	TAP_TEST(spinning_lane_lets_others_progress),
	TAP_TEST(barrier_orders_shared_memory),
	TAP_TEST(memory_spaces),
	TAP_TEST(windows_above_user_addresses),
	TAP_TEST(local_loads_at_a_constant_address),
	TAP_TEST(faults),
	TAP_TEST(heap_without_a_heap),
	TAP_TEST(budget_returns_control),
	TAP_TEST(clocks),
	TAP_TEST(float_functions),
	TAP_TEST(shuffles),
	TAP_TEST(shuffle_waits_for_members),
	TAP_TEST(missing_member_is_a_deadlock),
	TAP_TEST(barrier_reductions),
	TAP_TEST(producer_consumer_barriers),
	TAP_TEST(barriers_of_separate_groups),
	TAP_TEST(arrive_does_not_wait),
	TAP_TEST(barrier_reductions_with_counts),
	TAP_TEST(barriers_that_cannot_complete),
	TAP_TEST(warp_barriers_on_two_paths),
	TAP_TEST(votes_and_masks),
	TAP_TEST(atomics),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
