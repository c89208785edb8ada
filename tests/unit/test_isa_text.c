// SPDX-License-Identifier: MIT
/*
 * The text form of the ISA: printing and parsing round-trip exactly, for
 * random instructions and for lines written by hand; bad lines are
 * refused with a message.
 */
#include <stdint.h>

#include "tap.h"
#include "isa.h"
#include "tools/isa_text.h"

static uint64_t rnd64(void)
{
	return (uint64_t)random() << 33 ^ (uint64_t)random() << 11 ^ (uint64_t)random();
}

/* Any instruction of a known operation whose fields the text can say. */
static void random_insn(struct vgpu_insn *in)
{
	struct vgpu_op_desc d;

	memset(in, 0, sizeof(*in));
	do
		in->op = (uint8_t)(random() % VGPU_OP_COUNT);
	while (!vgpu_isa_op_desc(in->op, &d));
	in->type = (uint8_t)(random() % VGPU_T_COUNT);
	in->stype = random() % 3 ? 0 : (uint8_t)(random() % VGPU_T_COUNT);
	in->mod = (uint8_t)(random() % 20);
	in->mod2 = random() % 4 ? 0 : (uint8_t)(random() % 12);
	in->guard = random() % 2 ? VGPU_PRED_NONE : (uint8_t)(random() % 64);
	in->flags = (uint8_t)(random() & (VGPU_IF_FTZ | VGPU_IF_SAT));
	if (in->guard != VGPU_PRED_NONE && random() % 2)
		in->flags |= VGPU_IF_GUARD_NOT;
	in->dst = (uint32_t)(random() % 300);
	in->a = random() % 8 ? (uint32_t)(random() % 300) : 0xffffffffU;
	in->b = (uint32_t)(random() % 300);
	in->c = random() % 8 ? (uint32_t)(random() % 300) : 0xffffffffU;
	if (d.a != OPND_ADDR && in->a == 0xffffffffU)
		in->a = 7;
	if (d.c != OPND_MEET && d.c != OPND_ADDR && in->c == 0xffffffffU)
		in->c = 9;
	in->imm = random() % 2 ? rnd64() : 0;
	if ((d.b == OPND_REG_IMM || d.b == OPND_REG_INLINE) && random() % 3 == 0) {
		in->flags |= VGPU_IF_B_IMM;
		if (d.b == OPND_REG_IMM)
			in->b = 0;
	} else if ((d.c == OPND_REG_IMM || d.c == OPND_REG_INLINE) && random() % 3 == 0) {
		in->flags |= VGPU_IF_C_IMM;
		if (d.c == OPND_REG_IMM)
			in->c = 0;
	}
}

static void random_round_trips(void)
{
	char line[512], err[128];
	struct vgpu_insn in, back;
	int i, bad = 0;

	srandom(7);
	for (i = 0; i < 20000; i++) {
		random_insn(&in);
		vgpu_isa_print(&in, line, sizeof(line));
		if (vgpu_isa_parse(line, &back, err, sizeof(err))) {
			if (bad++ < 5)
				TAP_FAIL("'%s' refused: %s", line, err);
			continue;
		}
		if (memcmp(&in, &back, sizeof(in)) && bad++ < 5)
			TAP_FAIL("'%s' did not round-trip: type %u/%u stype %u/%u mod %u/%u mod2 %u/%u flags %#x/%#x guard %u/%u dst %u/%u a %u/%u b %u/%u c %u/%u imm %llx/%llx",
				 line, in.type, back.type, in.stype, back.stype, in.mod, back.mod,
				 in.mod2, back.mod2, in.flags, back.flags, in.guard, back.guard,
				 in.dst, back.dst, in.a, back.a, in.b, back.b, in.c, back.c,
				 (unsigned long long)in.imm, (unsigned long long)back.imm);
	}
	CHECK(bad == 0);
}

/* Lines as a person writes them print back the same. */
static void canonical_lines(void)
{
	static const char *const lines[] = {
		"add.f32 mod=rz ftz dst=r3 a=r1 b=#0x3f800000",
		"@!p1 bra c=- imm=0xc",
		"@p0 exit",
		"setp.s32 mod=lt dst=p2 a=r4 b=r5",
		"ld.f32 mod=shared dst=r7 a=- imm=0x400",
		"sreg.u32 mod=ctaid.x dst=r2",
		"sreg.u32 mod=grid_sync_hi dst=r2",
		"sreg.u32 mod=grid_sync_lo dst=r3",
		"atom.u32 mod=global mod2=cas dst=r1 a=r2 b=r3 c=r4",
		"shfl.u32 mod=bfly mod2=1 dst=r3 a=r4 b=#0x1 c=#0x1f imm=0xffffffff",
		"vote.pred mod=any dst=p1 a=p0 imm=0xffffffff",
		"cvt.s32.f32 mod=rni sat dst=r1 a=r2",
		"selp.u64 dst=r1 a=r2 b=#0x7 c=p3",
		"bar imm=0x1",
		"bar mod=arrive mod2=1 b=#0x40 imm=0x2",
		"bar mod2=3 b=r4 c=r5",
		"barred.pred mod=1 mod2=3 dst=p1 a=p0 b=#0x60 c=r2",
	};
	char out[512], err[128];
	struct vgpu_insn in;
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		if (vgpu_isa_parse(lines[i], &in, err, sizeof(err))) {
			TAP_FAIL("'%s': %s", lines[i], err);
			continue;
		}
		vgpu_isa_print(&in, out, sizeof(out));
		if (strcmp(out, lines[i]))
			TAP_FAIL("'%s' printed as '%s'", lines[i], out);
	}
}

static void bad_lines(void)
{
	static const struct { const char *line, *msg; } cases[] = {
		{ "frobnicate.u32 dst=r1", "unknown operation 'frobnicate'" },
		{ "add.u33 dst=r1", "unknown type 'u33'" },
		{ "add.u32 mod=sideways", "bad modifier 'sideways'" },
		{ "add.u32 dst=x1", "bad operand 'x1'" },
		{ "add.u32 dst=#0x1", "immediate not allowed in 'dst'" },
		{ "add.u32 color=red", "unknown field 'color'" },
		{ "add.u32 loud", "unexpected 'loud'" },
		{ "", "empty line" },
	};
	struct vgpu_insn in;
	char err[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (!vgpu_isa_parse(cases[i].line, &in, err, sizeof(err)))
			TAP_FAIL("'%s' accepted", cases[i].line);
		else if (strcmp(err, cases[i].msg))
			TAP_FAIL("'%s': '%s', expected '%s'", cases[i].line, err, cases[i].msg);
	}
}

static const struct tap_test tests[] = {
	TAP_TEST(random_round_trips),
	TAP_TEST(canonical_lines),
	TAP_TEST(bad_lines),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
