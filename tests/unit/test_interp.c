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

#include "tap.h"
#include "core_run.h"

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
	p[4].b = 2;
	if (op.op == VGPU_OP_MAD || op.op == VGPU_OP_FMA)
		p[4].c = 3;
	if (op.op == VGPU_OP_MOV) {
		p[4].a = 0;
		p[4].b = 1;
	}
	if (op.op == VGPU_OP_CVT || op.op == VGPU_OP_ABS || op.op == VGPU_OP_NEG ||
	    op.op == VGPU_OP_NOT)
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

static const struct op_case fp_cases[] = {
	{ "1 + 2^-24 rn ties to even", ALU(VGPU_OP_ADD, VGPU_T_F32), 0x3f800000, 0x33800000, 0, 0x3f800000 },
	{ "1 + 2^-24 rp", ALU(VGPU_OP_ADD, VGPU_T_F32, .mod = VGPU_RND_RP), 0x3f800000, 0x33800000, 0, 0x3f800001 },
	{ "-1 - 2^-24 rm", ALU(VGPU_OP_SUB, VGPU_T_F32, .mod = VGPU_RND_RM), 0xbf800000, 0x33800000, 0, 0xbf800001 },
	{ "-1 - 2^-24 rz", ALU(VGPU_OP_SUB, VGPU_T_F32, .mod = VGPU_RND_RZ), 0xbf800000, 0x33800000, 0, 0xbf800000 },
	{ "inf - inf is the canonical NaN", ALU(VGPU_OP_SUB, VGPU_T_F32), 0x7f800000, 0x7f800000, 0, 0x7fffffff },
	{ "NaN payloads do not pass", ALU(VGPU_OP_ADD, VGPU_T_F32), 0xffc00001, 0x3f800000, 0, 0x7fffffff },
	{ "f64 0/0", ALU(VGPU_OP_DIV, VGPU_T_F64), 0, 0, 0, 0x7fffffffffffffffULL },
	{ "min prefers the number", ALU(VGPU_OP_MIN, VGPU_T_F32), 0x7fc00000, 0x3f800000, 0, 0x3f800000 },
	{ "max of two NaN", ALU(VGPU_OP_MAX, VGPU_T_F32), 0x7fc00000, 0xffc00000, 0, 0x7fffffff },
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
				want = dr != dr ? 0x7fffffffffffffffULL : dbits(dr);
				got = run_op(op, da, db, dc);
				if (got != want && bad++ < 5)
					TAP_FAIL("f64 op %u mode %d: got %#llx want %#llx", ops[o], m,
						 (unsigned long long)got, (unsigned long long)want);
			}
		}
	}
	CHECK(bad == 0);
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

	vgpu_block_start(b, &l, 0);
	for (i = 0; i < 5; i++)
		CHECK(vgpu_block_run(b, 1000) == VGPU_RUN_MORE);
	free(b);
}

static const struct tap_test tests[] = {
	TAP_TEST(integer_edge_cases),
	TAP_TEST(float_edge_cases),
	TAP_TEST(float_matches_ieee),
	TAP_TEST(compares),
	TAP_TEST(divergence_and_loops),
	TAP_TEST(spinning_lane_lets_others_progress),
	TAP_TEST(barrier_orders_shared_memory),
	TAP_TEST(memory_spaces),
	TAP_TEST(faults),
	TAP_TEST(budget_returns_control),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
