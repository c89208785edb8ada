// SPDX-License-Identifier: MIT
/*
 * The interpreter's register shapes (uniform and evenly growing lanes
 * kept as three numbers) against the lane-by-lane engine: random
 * verified programs of integer and floating-point arithmetic,
 * comparisons, selections, conversions, guards, divergent branches and
 * memory accesses run both
 * ways over blocks of several forms, and every thread's registers, the
 * memory and any fault must come out the same.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "isa_build.h"
#include "tap.h"

#define NREGS 17	/* r16: a loop's counter */
#define BODY 12		/* the registers the random body works on */
#define MAXN 512
#define IN_WORDS 4096
#define MAX_THREADS 256

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static unsigned int pick(unsigned int n)
{
	return (unsigned int)(rnd() % n);
}

static const uint8_t int_types[] = {
	VGPU_T_U32, VGPU_T_S32, VGPU_T_U64, VGPU_T_S64, VGPU_T_U16, VGPU_T_S16,
};

static uint64_t rnd_imm(void)
{
	switch (pick(4)) {
	case 0:
		return pick(8);
	case 1:
		return (uint64_t)-(int64_t)pick(8);
	case 2:
		return pick(1 << 16);
	default:
		return rnd();
	}
}

struct gen {
	struct vgpu_insn code[MAXN];
	unsigned int n;
};

static void emit(struct gen *g, struct vgpu_insn in)
{
	if (g->n < MAXN)
		g->code[g->n++] = in;
}

/* One random instruction of the body, writing register 0..BODY-1. */
static void body_insn(struct gen *g)
{
	static const uint8_t ops[] = {
		VGPU_OP_ADD, VGPU_OP_SUB, VGPU_OP_MUL, VGPU_OP_MAD, VGPU_OP_DIV,
		VGPU_OP_REM, VGPU_OP_MIN, VGPU_OP_MAX, VGPU_OP_AND, VGPU_OP_OR,
		VGPU_OP_XOR, VGPU_OP_SHL, VGPU_OP_SHR, VGPU_OP_NEG, VGPU_OP_ABS,
		VGPU_OP_NOT,
	};
	static const uint8_t sregs[] = {
		VGPU_SR_TID_X, VGPU_SR_TID_Y, VGPU_SR_TID_Z, VGPU_SR_CTAID_X,
		VGPU_SR_NTID_X, VGPU_SR_LANEID, VGPU_SR_WARPID,
	};
	static bool in_loop;
	unsigned int d = pick(BODY), a = pick(BODY), b = pick(BODY);
	uint8_t t = int_types[pick(sizeof(int_types))];
	struct vgpu_insn in;

	switch (pick(19)) {
	case 0:
		in = SREG(d, sregs[pick(sizeof(sregs))]);
		in.type = pick(2) ? VGPU_T_U32 : VGPU_T_U64;
		break;
	case 1:
		in = MOVI(t, d, rnd_imm());
		break;
	case 2:
		in = INSN(.op = VGPU_OP_MOV, .type = t, .dst = d, .b = b);
		break;
	case 3:		/* compare, then select by it */
		emit(g, pick(2) ? SETP(t, pick(6), pick(3), a, b) :
			 SETPI(t, pick(6), pick(3), a, rnd_imm()));
		in = INSN(.op = VGPU_OP_SELP, .type = t, .dst = d, .a = a,
			  .b = b, .c = pick(3));
		break;
	case 4:
		in = INSN(.op = VGPU_OP_CVT, .type = t, .dst = d, .a = a,
			  .stype = int_types[pick(sizeof(int_types))],
			  .flags = pick(4) ? 0 : VGPU_IF_SAT);
		break;
	case 5:		/* a load of the input through a bounded index */
		emit(g, OPI(VGPU_OP_AND, VGPU_T_U64, 14, a, pick(2) ? 255 : 7));
		emit(g, OPI(VGPU_OP_SHL, VGPU_T_U64, 14, 14, 2));
		emit(g, OP3(VGPU_OP_ADD, VGPU_T_U64, 14, 14, 15));
		in = LD(VGPU_SPACE_GLOBAL, pick(2) ? VGPU_T_U32 : VGPU_T_S32, d, 14, 0);
		break;
	case 6:		/* shared memory, a word a thread or shared words */
		emit(g, OPI(VGPU_OP_AND, VGPU_T_U32, 14, a, pick(2) ? 63 : 3));
		emit(g, OPI(VGPU_OP_SHL, VGPU_T_U32, 14, 14, 2));
		if (pick(2))
			in = ST(VGPU_SPACE_SHARED, VGPU_T_U32, 14, 0, b);
		else
			in = LD(VGPU_SPACE_SHARED, VGPU_T_U32, d, 14, 0);
		break;
	case 7:		/* rows of the block: x * sx + y * sy words in */
	case 8: {
		static const unsigned int sxs[] = { 0, 1, 1, 2 }, sys[] = { 0, 1, 16, 32, 1000 };
		unsigned int space = pick(3);

		emit(g, SREG(14, pick(4) ? VGPU_SR_TID_X : VGPU_SR_LANEID));
		emit(g, OPI(VGPU_OP_MUL, VGPU_T_U32, 14, 14, sxs[pick(4)]));
		emit(g, SREG(13, VGPU_SR_TID_Y));
		emit(g, INSN(.op = VGPU_OP_MAD, .type = VGPU_T_U32, .dst = 14,
			     .a = 13, .b = 0, .c = 14, .flags = VGPU_IF_B_IMM,
			     .imm = sys[pick(5)]));
		emit(g, OPI(VGPU_OP_SHL, VGPU_T_U64, 14, 14, 2));
		if (space == 0) {	/* the input */
			emit(g, OP3(VGPU_OP_ADD, VGPU_T_U64, 14, 14, 15));
			in = LD(VGPU_SPACE_GLOBAL, pick(2) ? VGPU_T_U32 : VGPU_T_S32,
				d, 14, 4 * pick(8));
		} else if (space == 1) {	/* the scratch words */
			emit(g, LDP(VGPU_T_U64, 13, 24));
			emit(g, OP3(VGPU_OP_ADD, VGPU_T_U64, 14, 14, 13));
			in = pick(2) ? ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 14, 4 * pick(8), b) :
				LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, d, 14, 4 * pick(8));
		} else {
			in = pick(2) ? ST(VGPU_SPACE_SHARED, VGPU_T_U32, 14, 0, b) :
				LD(VGPU_SPACE_SHARED, VGPU_T_S32, d, 14, 0);
		}
		break;
	}
	case 9: {	/* floating point on whatever bits the registers hold */
		static const uint8_t fops[] = {
			VGPU_OP_ADD, VGPU_OP_SUB, VGPU_OP_MUL, VGPU_OP_FMA,
		};
		uint8_t op = fops[pick(sizeof(fops))];

		t = pick(2) ? VGPU_T_F32 : VGPU_T_F64;
		in = pick(3) ? OP3(op, t, d, a, b) : OPI(op, t, d, a, rnd_imm());
		if (op == VGPU_OP_FMA)
			in.c = pick(BODY);
		break;
	}
	case 10:	/* a parameter of any width, some out of range */
		in = LDP(int_types[pick(sizeof(int_types))], d, pick(16) ?
			 8 * pick(4) : pick(40));
		break;
	case 11:
		in = INSN(.op = VGPU_OP_NOP);
		break;
	case 12:	/* a counted loop around one instruction */
		if (in_loop || g->n + 8 >= MAXN)
			return;
		emit(g, MOVI(VGPU_T_U32, 16, 0));
		a = g->n;
		in_loop = true;
		body_insn(g);
		in_loop = false;
		emit(g, OPI(VGPU_OP_ADD, VGPU_T_U32, 16, 16, 1));
		emit(g, SETPI(VGPU_T_U32, VGPU_CMP_LT, 3, 16, 2 + pick(3)));
		emit(g, BRA_IF(3, a));	/* no guard but its own */
		return;
	case 13:	/* an f32 fma whose a is one word a row, b and c lanes */
		if (a == d || b == d || a == b)
			return;
		emit(g, OP3(VGPU_OP_MUL, VGPU_T_F32, a, a, a));
		emit(g, OP3(VGPU_OP_ADD, VGPU_T_F32, b, b, b));
		emit(g, SREG(14, VGPU_SR_TID_Y));
		emit(g, OPI(VGPU_OP_MUL, VGPU_T_U32, 14, 14, pick(2) ? 4 : 0));
		emit(g, OPI(VGPU_OP_SHL, VGPU_T_U64, 14, 14, 2));
		emit(g, OP3(VGPU_OP_ADD, VGPU_T_U64, 14, 14, 15));
		emit(g, LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, d, 14, 4 * pick(8)));
		in = INSN(.op = VGPU_OP_FMA, .type = VGPU_T_F32, .dst = pick(2) ? d : a,
			  .a = d, .b = a, .c = b);
		break;
	default: {
		uint8_t op = ops[pick(sizeof(ops))];

		if ((op == VGPU_OP_NEG || op == VGPU_OP_ABS) &&
		    t != VGPU_T_S32 && t != VGPU_T_S64 && t != VGPU_T_S16)
			t = VGPU_T_S32;
		if (op == VGPU_OP_NEG || op == VGPU_OP_ABS || op == VGPU_OP_NOT) {
			in = INSN(.op = op, .type = t, .dst = d, .a = a);
			break;
		}
		in = pick(3) ? OP3(op, t, d, a, b) : OPI(op, t, d, a, rnd_imm());
		if (op == VGPU_OP_MUL || op == VGPU_OP_MAD) {
			in.mod = pick(3);
			if (in.mod == VGPU_MUL_WIDE)
				in.type = pick(2) ? VGPU_T_U32 : VGPU_T_S32;
		}
		if (op == VGPU_OP_MAD) {
			in.c = pick(BODY);
			if (in.flags & VGPU_IF_B_IMM && pick(2)) {
				in.flags = VGPU_IF_C_IMM;
				in.c = 0;
				in.b = pick(BODY);
			}
		}
		if ((op == VGPU_OP_ADD || op == VGPU_OP_SUB) && t == VGPU_T_S32 &&
		    !pick(4))
			in.flags |= VGPU_IF_SAT;
		break;
	}
	}
	if (!pick(6) && in.op != VGPU_OP_SREG) {	/* a guard */
		in.guard = pick(3);
		in.flags |= pick(2) ? VGPU_IF_GUARD_NOT : 0;
	}
	emit(g, in);
}

/* A program: prologue, random body with branches, every register stored. */
static void generate(struct gen *g)
{
	unsigned int i, k, len = 8 + pick(40), skip_at = 0, skip_to = 0;

	g->n = 0;
	/* r12 = the thread's index in the grid, r15 = the input */
	emit(g, SREG(12, VGPU_SR_TID_Y));
	emit(g, SREG(13, VGPU_SR_NTID_X));
	emit(g, SREG(14, VGPU_SR_TID_X));
	emit(g, INSN(.op = VGPU_OP_MAD, .type = VGPU_T_U32, .dst = 12, .a = 12,
		     .b = 13, .c = 14));
	emit(g, SREG(13, VGPU_SR_CTAID_X));
	emit(g, LDP(VGPU_T_U32, 14, 16));
	emit(g, INSN(.op = VGPU_OP_MAD, .type = VGPU_T_U32, .dst = 12, .a = 13,
		     .b = 14, .c = 12));
	emit(g, LDP(VGPU_T_U64, 15, 0));
	for (i = 0; i < BODY; i++)
		emit(g, pick(2) ? MOVI(VGPU_T_U64, i, rnd_imm()) : SREG(i, VGPU_SR_TID_X));
	for (k = 0; k < len; k++) {
		if (!skip_at && !pick(8)) {	/* open a divergent skip */
			emit(g, SETP(int_types[pick(sizeof(int_types))], pick(6),
				     3, pick(BODY), pick(BODY)));
			skip_at = g->n;
			emit(g, BRA_IF(3, 0));
			skip_to = 1 + pick(4);
		}
		body_insn(g);
		if (skip_at && !--skip_to) {
			g->code[skip_at].imm = g->n;
			skip_at = 0;
		}
	}
	if (skip_at)
		g->code[skip_at].imm = g->n;
	/* out[(thread * BODY + r)] = r, 8 bytes each */
	emit(g, OPI(VGPU_OP_MUL, VGPU_T_U64, 13, 12, BODY * 8));
	emit(g, LDP(VGPU_T_U64, 14, 8));
	emit(g, OP3(VGPU_OP_ADD, VGPU_T_U64, 13, 13, 14));
	for (i = 0; i < BODY; i++)
		emit(g, ST(VGPU_SPACE_GLOBAL, VGPU_T_U64, 13, i * 8, i));
	emit(g, EXIT());
}

struct result {
	int ret;
	struct vgpu_fault fault;
	uint64_t out[2 * MAX_THREADS * BODY];
	uint32_t scratch[IN_WORDS];
};

static uint32_t input[IN_WORDS];

/* Runs the program over @grid blocks of @bx x @by threads. */
static int run(const struct gen *g, unsigned int grid, unsigned int bx,
	       unsigned int by, struct result *res)
{
	struct vgpu_func f = { .nregs = NREGS, .npreds = 4, .param_bytes = 32,
			       .shared_bytes = 4 * IN_WORDS };
	struct vgpu_program prog = { g->code, g->n, &f, 1 };
	struct { uint64_t in, out; uint32_t nt, pad; uint64_t scratch; } p = {
		(uintptr_t)input, (uintptr_t)res->out, bx * by, 0,
		(uintptr_t)res->scratch,
	};
	struct vgpu_range mem[4] = {
		{ (uintptr_t)input, sizeof(input), (uint8_t *)input, false },
		{ (uintptr_t)res->out, sizeof(res->out), (uint8_t *)res->out, true },
		{ (uintptr_t)res->scratch, sizeof(res->scratch),
		  (uint8_t *)res->scratch, true },
		{ 0 },
	};
	struct vgpu_launch l = {
		.prog = &prog, .func = &f, .grid = { grid, 1, 1 },
		.block = { bx, by, 1 }, .params = (const uint8_t *)&p, .mmu = mem,
		.nsmid = 1,
	};
	struct vgpu_block *b;
	unsigned int i;
	int r = VGPU_RUN_DONE;

	memset(res, 0, sizeof(*res));
	b = aligned_alloc(16, (vgpu_block_bytes(&l) + 15) & ~15ULL);
	for (i = 0; i < grid && r != VGPU_RUN_FAULT; i++) {
		vgpu_block_start(b, &l, i, true);
		do
			r = vgpu_block_run(b, 5000);
		while (r == VGPU_RUN_MORE);
		if (r == VGPU_RUN_FAULT)
			res->fault = *vgpu_block_fault(b);
	}
	res->ret = r;
	free(b);
	return r;
}

static bool verify(const struct gen *g)
{
	struct vgpu_func f = { .nregs = NREGS, .npreds = 4, .param_bytes = 32,
			       .shared_bytes = 4 * IN_WORDS };
	struct vgpu_program prog = { g->code, g->n, &f, 1 };
	static uint8_t seen[MAXN];
	static uint32_t stack[MAXN];
	struct vgpu_verdict v;

	if (!vgpu_isa_verify(&prog, seen, stack, &v))
		return true;
	printf("# generator: refused at %lld: %s\n", (long long)v.insn, v.msg);
	return false;
}

static const unsigned int forms[][2] = {
	{ 32, 1 }, { 64, 1 }, { 16, 4 }, { 8, 8 }, { 4, 8 }, { 2, 16 },
	{ 1, 32 }, { 48, 1 }, { 96, 1 }, { 16, 3 }, { 20, 1 }, { 8, 4 },
};

#define NFORMS (sizeof(forms) / sizeof(forms[0]))

/* The generator's programs pass the verifier. */
static void generator_verified(void)
{
	unsigned int i, refused = 0;
	struct gen g;

	rng = 0x9e3779b97f4a7c15ULL;
	for (i = 0; i < 10000; i++) {
		generate(&g);
		refused += !verify(&g);
	}
	CHECK(refused == 0);
}

/*
 * Shapes on (the quick loop pre-decoded or not) and off: the same
 * registers, memory and faults.
 */
static void shapes_match_lanes(void)
{
	static struct result on, off, raw, work;
	unsigned int i, progs = 0, differ = 0, faults = 0;
	struct gen g;

	for (i = 0; i < IN_WORDS; i++)
		input[i] = (uint32_t)(i * 2654435761u);
	rng = 0x9e3779b97f4a7c15ULL;
	for (i = 0; i < 10000; i++) {
		const unsigned int *fm = forms[i % NFORMS];

		generate(&g);
		if (!verify(&g))
			continue;
		progs++;
		/* The same memory both times: fault addresses compare. */
		vgpu_shape_off = false;
		faults += run(&g, 2, fm[0], fm[1], &work) == VGPU_RUN_FAULT;
		on = work;
		vgpu_predecode_off = true;
		run(&g, 2, fm[0], fm[1], &work);
		raw = work;
		vgpu_predecode_off = false;
		vgpu_shape_off = true;
		run(&g, 2, fm[0], fm[1], &work);
		off = work;
		vgpu_shape_off = false;
		if (memcmp(&on, &raw, sizeof(on)) && differ++ < 3)
			printf("# program %u (block %ux%u): pre-decoded and not differ\n",
			       i, fm[0], fm[1]);
		if (memcmp(&on, &off, sizeof(on)) && differ++ < 3)
			printf("# program %u (block %ux%u) differs: ret %d/%d, fault %u@%u t%u %llx / %u@%u t%u %llx\n",
			       i, fm[0], fm[1], on.ret, off.ret, on.fault.kind,
			       on.fault.insn, on.fault.thread,
			       (unsigned long long)on.fault.addr, off.fault.kind,
			       off.fault.insn, off.fault.thread,
			       (unsigned long long)off.fault.addr);
	}
	printf("# %u programs, %u faulted\n", progs, faults);
	CHECK(progs == 10000);
	CHECK(differ == 0);
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(generator_verified),
		TAP_TEST(shapes_match_lanes),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
