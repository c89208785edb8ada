// SPDX-License-Identifier: MIT
/*
 * The ISA verifier in user space: the table of tests/isa_verify_cases.h,
 * kernels checked one by one, refusals of a whole program, and a case for
 * every refusal message the verifier's sources hold.
 */
#include <glob.h>
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
}

/*
 * Refusals of the program as a whole. MODULE_LOAD refuses these before
 * the verifier sees the program, so the shared table cannot hold them.
 */
static const struct {
	uint32_t ninsns, nfuncs;
	const char *msg;
} program_cases[] = {
	{ 0, 1, "instruction count out of range" },
	{ VGPU_MAX_INSNS + 1, 1, "instruction count out of range" },
	{ 1, 0, "no kernel" },
};

static void program_refusals(void)
{
	static const struct vgpu_insn in[1] = { EXIT };
	struct vgpu_func f = { .nregs = 1 };
	struct vgpu_verdict v;
	uint8_t seen[1];
	uint32_t stack[1];
	size_t i;

	for (i = 0; i < sizeof(program_cases) / sizeof(program_cases[0]); i++) {
		struct vgpu_program p = { in, program_cases[i].ninsns, &f,
					  program_cases[i].nfuncs };

		if (vgpu_isa_verify(&p, seen, stack, &v) != -1 || v.insn != -1 ||
		    v.func != -1 || strcmp(v.msg, program_cases[i].msg))
			TAP_FAIL("case %zu: refused at %lld, %lld with \"%s\", expected \"%s\"",
				 i, (long long)v.insn, (long long)v.func, v.msg,
				 program_cases[i].msg);
	}
}

/* Refusals no program reaches: defences against a broken op table. */
static const char *const unreachable[] = { "bad operand" };

#ifndef CORE_DIR
#define CORE_DIR "core"
#endif

/*
 * Adds the string literals of C source @src to @out (NUL-separated,
 * adjacent literals joined), leaving out comments, character constants
 * and preprocessor lines. Returns how many.
 */
static size_t c_strings(const char *src, char *out, size_t size, size_t *used)
{
	const char *c = src;
	size_t n = 0;
	int line_start = 1;

	while (*c) {
		if (line_start && (*c == ' ' || *c == '\t')) {
			c++;
			continue;
		}
		if (line_start && *c == '#') {
			while (*c && (*c != '\n' || c[-1] == '\\'))
				c++;
			continue;
		}
		line_start = *c == '\n';
		if (c[0] == '/' && c[1] == '*') {
			c = strstr(c + 2, "*/");
			c = c ? c + 2 : src + strlen(src);
		} else if (c[0] == '/' && c[1] == '/') {
			c += strcspn(c, "\n");
		} else if (*c == '\'') {
			for (c++; *c && *c != '\''; c++)
				c += c[0] == '\\' && c[1];
			c += !!*c;
		} else if (*c == '"') {
			while (*c == '"') {
				for (c++; *c && *c != '"'; c++) {
					if (*c == '\\' && c[1])
						c++;
					if (*used + 1 < size)
						out[(*used)++] = *c;
				}
				c += !!*c;
				c += strspn(c, " \t\n");
			}
			if (*used < size)
				out[(*used)++] = 0;
			n++;
		} else {
			c++;
		}
	}
	return n;
}

static bool is_op_name(const char *s)
{
	struct vgpu_op_desc d;
	unsigned int op;

	for (op = 0; op < 256; op++)
		if (vgpu_isa_op_desc((uint8_t)op, &d) && !strcmp(d.name, s))
			return true;
	return false;
}

/* Whether @msg is one of the verifier's messages in @msgs (@len bytes). */
static bool has_msg(const char *msgs, size_t len, const char *msg)
{
	const char *m;

	for (m = msgs; m < msgs + len; m += strlen(m) + 1)
		if (!strcmp(m, msg))
			return true;
	return false;
}

/*
 * Every refusal message in the verifier's sources (core/isa*.c: each
 * string literal that is no operation's name and no format) has a case
 * that draws it: in the shared table, among program_cases, or listed as
 * unreachable. And every message those expect is in the sources, which
 * shows the sources were read.
 */
static void every_message_has_a_case(void)
{
	static char msgs[16384];
	size_t used = 0, i, j, k;
	const char *m;
	glob_t g;

	if (glob(CORE_DIR "/isa*.c", 0, NULL, &g) || g.gl_pathc < 2) {
		TAP_FAIL("no verifier sources in %s", CORE_DIR);
		return;
	}
	for (i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");
		static char src[1 << 20];
		size_t n = f ? fread(src, 1, sizeof(src) - 1, f) : 0;

		if (!f || n == sizeof(src) - 1) {
			TAP_FAIL("cannot read %s", g.gl_pathv[i]);
			continue;
		}
		src[n] = 0;
		fclose(f);
		c_strings(src, msgs, sizeof(msgs), &used);
	}
	globfree(&g);
	CHECK(used < sizeof(msgs));
	for (m = msgs; m < msgs + used; m += strlen(m) + 1) {
		bool found = false;

		if (is_op_name(m) || strchr(m, '%'))
			continue;
		for (j = 0; j < sizeof(cases) / sizeof(cases[0]) && !found; j++)
			found = cases[j].msg && !strcmp(cases[j].msg, m);
		for (k = 0; k < sizeof(program_cases) / sizeof(program_cases[0]); k++)
			found |= !strcmp(program_cases[k].msg, m);
		for (k = 0; k < sizeof(unreachable) / sizeof(unreachable[0]); k++)
			found |= !strcmp(unreachable[k], m);
		if (!found)
			TAP_FAIL("no case refused with \"%s\"", m);
	}
	for (j = 0; j < sizeof(cases) / sizeof(cases[0]); j++)
		if (cases[j].msg && !has_msg(msgs, used, cases[j].msg))
			TAP_FAIL("%s: \"%s\" is in no verifier source", cases[j].name,
				 cases[j].msg);
	for (k = 0; k < sizeof(program_cases) / sizeof(program_cases[0]); k++)
		if (!has_msg(msgs, used, program_cases[k].msg))
			TAP_FAIL("\"%s\" is in no verifier source", program_cases[k].msg);
	for (k = 0; k < sizeof(unreachable) / sizeof(unreachable[0]); k++)
		if (!has_msg(msgs, used, unreachable[k]))
			TAP_FAIL("\"%s\" is in no verifier source", unreachable[k]);
}

static const struct tap_test tests[] = {
	TAP_TEST(verifier_table),
	TAP_TEST(kernels_checked_separately),
	TAP_TEST(program_refusals),
	TAP_TEST(every_message_has_a_case),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
