// SPDX-License-Identifier: MIT
/*
 * The ISA verifier in user space: the table of tests/isa_verify_cases.h,
 * and kernels checked one by one.
 */
#include <stdint.h>

#include "tap.h"
#include "core.h"
#include "isa_verify_cases.h"

static void verifier_table(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct vcase *c = &cases[i];
		struct vgpu_func f = c->func;
		struct vgpu_program p = { c->insns, c->n, &f, 1 };
		struct vgpu_verdict v;
		uint8_t seen[MAXI];
		uint32_t stack[MAXI];
		int r;

		if (!f.nregs && !f.entry) {
			f.nregs = 4;
			f.npreds = 2;
		}
		r = vgpu_isa_verify(&p, seen, stack, &v);
		if (c->insn == -2) {
			if (r)
				TAP_FAIL("%s: refused at %lld: %s", c->name,
					 (long long)v.insn, v.msg);
			continue;
		}
		if (!r)
			TAP_FAIL("%s: accepted", c->name);
		else if (v.insn != c->insn || strcmp(v.msg, c->msg))
			TAP_FAIL("%s: refused at %lld with \"%s\", expected %ld \"%s\"",
				 c->name, (long long)v.insn, v.msg, c->insn, c->msg);
	}
}

/* Each kernel is checked against its own register count. */
static void kernels_checked_separately(void)
{
	struct vgpu_insn in[3] = {
		{ .op = VGPU_OP_EXIT, .guard = NONE },
		{ .op = VGPU_OP_MOV, .type = VGPU_T_U32, .guard = NONE, .dst = 5 },
		{ .op = VGPU_OP_EXIT, .guard = NONE },
	};
	struct vgpu_func f[2] = { { .entry = 0, .nregs = 1 }, { .entry = 1, .nregs = 6 } };
	struct vgpu_program p = { in, 3, f, 2 };
	struct vgpu_verdict v;
	uint8_t seen[3];
	uint32_t stack[3];

	CHECK(vgpu_isa_verify(&p, seen, stack, &v) == 0);
	f[1].nregs = 5;
	CHECK(vgpu_isa_verify(&p, seen, stack, &v) == -1);
	CHECK(v.insn == 1 && v.func == 1);
	CHECK(!strcmp(v.msg, "register out of range"));
	p.nfuncs = 0;
	CHECK(vgpu_isa_verify(&p, seen, stack, &v) == -1 && !strcmp(v.msg, "no kernel"));
}

static const struct tap_test tests[] = {
	TAP_TEST(verifier_table),
	TAP_TEST(kernels_checked_separately),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
