// SPDX-License-Identifier: MIT
/*
 * Floating-point instructions against an H100, bit for bit: the JIT and
 * the interpreter run each instruction of tests/unit/data/h100_fp_corners.cu
 * on the inputs that probe gave the H100, and the results must be the
 * H100's (tests/unit/data/h100_fp_corners.log.gz). Covered: abs and neg
 * (NaN in, the canonical NaN out), saturation, IEEE sqrt, rcp and div,
 * min and max, add and mul with ftz and sat, and the conversions between
 * f16, f32 and f64 with NaN payloads. The approximate instructions (sin,
 * cos, ex2, lg2, rcp, rsqrt, sqrt, div and tanh .approx) are compared and
 * their differences counted, not yet required to be none: the H100's
 * special-function unit is not modelled bit for bit.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_run.h"
#include "jit.h"
#include "tap.h"

#define LOG "tests/unit/data/h100_fp_corners.log.gz"

enum { BLOCK = 256, NMAX = 2048 };

static uint64_t in[NMAX][2];
static uint64_t out[NMAX];
static uint64_t want[NMAX];

/* The case's PTX reads a and b as floats %f1, %f2, a as %fd1 widened
 * where it asks, and leaves its result's bits in %rd8. */
static const char kernel_fmt[] =
	".version 9.0\n.target sm_75\n.address_size 64\n"
	".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{\n"
	"\t.reg .b16 %%rs<4>;\n\t.reg .b32 %%r<12>;\n"
	"\t.reg .b64 %%rd<12>;\n\t.reg .f32 %%f<6>;\n\t.reg .f64 %%fd<2>;\n"
	"\tld.param.u64 %%rd1, [k_param_0];\n"
	"\tld.param.u64 %%rd2, [k_param_1];\n"
	"\tmov.u32 %%r1, %%ctaid.x;\n\tmov.u32 %%r2, %%ntid.x;\n"
	"\tmov.u32 %%r3, %%tid.x;\n\tmad.lo.s32 %%r4, %%r1, %%r2, %%r3;\n"
	"\tmul.wide.u32 %%rd3, %%r4, 16;\n\tadd.s64 %%rd3, %%rd1, %%rd3;\n"
	"\tld.global.u64 %%rd5, [%%rd3];\n\tld.global.u64 %%rd6, [%%rd3+8];\n"
	"\tcvt.u32.u64 %%r5, %%rd5;\n\tcvt.u32.u64 %%r6, %%rd6;\n"
	"\tmov.b32 %%f1, %%r5;\n\tmov.b32 %%f2, %%r6;\n"
	"%s\n"
	"\tmul.wide.u32 %%rd9, %%r4, 8;\n\tadd.s64 %%rd9, %%rd2, %%rd9;\n"
	"\tst.global.u64 [%%rd9], %%rd8;\n\tret;\n}\n";

#define F4 "\tmov.b32 %r8, %f4;\n\tcvt.u64.u32 %rd8, %r8;\n"

/*
 * A probe's line: its name, how many inputs it takes, which of the
 * results on the line it holds (0: the one after the inputs), the PTX,
 * and whether the H100's bits are required (or only counted).
 */
struct fp_case {
	const char *name;
	int ninputs, field;
	const char *body;
	bool exact;
};

static const struct fp_case cases[] = {
	{ "abs", 1, 0, "\tabs.f32 %f4, %f1;\n" F4, true },
	{ "neg", 1, 0, "\tneg.f32 %f4, %f1;\n" F4, true },
	{ "abs_ftz", 1, 0, "\tabs.ftz.f32 %f4, %f1;\n" F4, true },
	{ "sat", 1, 0, "\tcvt.sat.f32.f32 %f4, %f1;\n" F4, true },
	{ "sqrt_rn", 1, 0, "\tsqrt.rn.f32 %f4, %f1;\n" F4, true },
	{ "rcp_rn", 1, 0, "\trcp.rn.f32 %f4, %f1;\n" F4, true },
	{ "div_rn", 2, 0, "\tdiv.rn.f32 %f4, %f1, %f2;\n" F4, true },
	{ "min", 2, 0, "\tmin.f32 %f4, %f1, %f2;\n" F4, true },
	{ "max", 2, 0, "\tmax.f32 %f4, %f1, %f2;\n" F4, true },
	{ "add", 2, 0, "\tadd.f32 %f4, %f1, %f2;\n" F4, true },
	{ "mul", 2, 0, "\tmul.f32 %f4, %f1, %f2;\n" F4, true },
	{ "add_ftz", 2, 0, "\tadd.ftz.f32 %f4, %f1, %f2;\n" F4, true },
	{ "mul_sat", 2, 0, "\tmul.sat.f32 %f4, %f1, %f2;\n" F4, true },
	{ "cvt", 1, 0, "\tcvt.f64.f32 %fd1, %f1;\n\tmov.b64 %rd8, %fd1;\n",
	  true },
	{ "cvt", 1, 1, "\tcvt.rn.f16.f32 %rs1, %f1;\n"
	  "\tcvt.u64.u16 %rd8, %rs1;\n", true },
	{ "cvt", 1, 2, "\tcvt.f64.f32 %fd1, %f1;\n"
	  "\tcvt.rn.f32.f64 %f4, %fd1;\n" F4, true },
	{ "sin", 1, 0, "\tsin.approx.f32 %f4, %f1;\n" F4, false },
	{ "cos", 1, 0, "\tcos.approx.f32 %f4, %f1;\n" F4, false },
	{ "ex2", 1, 0, "\tex2.approx.f32 %f4, %f1;\n" F4, false },
	{ "lg2", 1, 0, "\tlg2.approx.f32 %f4, %f1;\n" F4, false },
	{ "rcp", 1, 0, "\trcp.approx.f32 %f4, %f1;\n" F4, false },
	{ "rsqrt", 1, 0, "\trsqrt.approx.f32 %f4, %f1;\n" F4, false },
	{ "sqrt_approx", 1, 0, "\tsqrt.approx.f32 %f4, %f1;\n" F4, false },
	{ "tanh", 1, 0, "\ttanh.approx.f32 %f4, %f1;\n" F4, false },
	{ "div_approx", 2, 0, "\tdiv.approx.f32 %f4, %f1, %f2;\n" F4, false },
	{ "div_full", 2, 0, "\tdiv.full.f32 %f4, %f1, %f2;\n" F4, false },
};

/* The H100's inputs and results for @c, from the log; how many. */
static unsigned int load(const struct fp_case *c)
{
	char line[256], cmd[512], name[32];
	unsigned int n = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "gzip -dc %s", LOG);
	f = popen(cmd, "r");
	if (!f) {
		TAP_FAIL("cannot read %s", LOG);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long v[5] = { 0 };
		int got = sscanf(line, "%31s %llx %llx %llx %llx", name, &v[0],
				 &v[1], &v[2], &v[3]);

		if (got < 2 + c->ninputs || strcmp(name, c->name) || n == NMAX)
			continue;
		in[n][0] = v[0];
		in[n][1] = c->ninputs > 1 ? v[1] : 0;
		want[n++] = v[c->ninputs + c->field];
	}
	pclose(f);
	if (n != NMAX)
		TAP_FAIL("%s: %u cases in %s, %u expected", c->name, n, LOG, NMAX);
	return n;
}

/* Runs @c's PTX over @n inputs; the count of results not the H100's. */
static int run(const struct fp_case *c, unsigned int n)
{
	static char ptx[8192];
	uint64_t params[2] = { (uintptr_t)in, (uintptr_t)out };
	struct vgpu_range mem[3] = {
		core_range(in, sizeof(in), false),
		core_range(out, sizeof(out), true), { 0 },
	};
	struct vg_jit_image *img = NULL;
	unsigned int i, bad = 0;
	char err[256];
	int r;

	snprintf(ptx, sizeof(ptx), kernel_fmt, c->body);
	if (vg_jit_compile(ptx, strlen(ptx), &img, err, sizeof(err))) {
		TAP_FAIL("%s refused: %s", c->name, err);
		return -1;
	}
	memset(out, 0xa5, sizeof(out));
	r = core_run(img->insns, img->ninsns, img->kernels[0].f, n / BLOCK,
		     BLOCK, params, mem, NULL);
	vg_jit_free(img);
	if (r != VGPU_RUN_DONE) {
		TAP_FAIL("%s: run failed (%d)", c->name, r);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (out[i] == want[i])
			continue;
		if (c->exact && bad < 3)
			TAP_FAIL("%s (result %d) of %#llx, %#llx: %#llx, the H100 %#llx",
				 c->name, c->field, (unsigned long long)in[i][0],
				 (unsigned long long)in[i][1],
				 (unsigned long long)out[i],
				 (unsigned long long)want[i]);
		bad++;
	}
	return (int)bad;
}

static void exact_results(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned int n;
		int bad;

		if (!cases[i].exact)
			continue;
		n = load(&cases[i]);
		bad = n ? run(&cases[i], n) : -1;
		if (bad > 0)
			TAP_FAIL("%s (result %d): %d of %u differ from the H100",
				 cases[i].name, cases[i].field, bad, n);
	}
}

/*
 * sin and cos of arguments of 2^23 turns and more: the H100's are a zero
 * of the argument's sign and 1, and vgpu's must be too.
 */
static void sin_cos_of_huge_arguments(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct fp_case *c = &cases[i];
		unsigned int n, m = 0, j;
		int bad;

		if (strcmp(c->name, "sin") && strcmp(c->name, "cos"))
			continue;
		n = load(c);
		for (j = 0; j < n; j++) {
			uint32_t u = (uint32_t)in[j][0];
			float x;

			memcpy(&x, &u, 4);
			if ((u & 0x7f800000U) == 0x7f800000U ||
			    fabs((double)x) * 0.15915493667125701904296875 <
			    8388608.0)
				continue;
			in[m][0] = in[j][0];
			want[m++] = want[j];
		}
		CHECK(m > 500);
		/* Whole blocks: the last case again fills the rest. */
		for (j = m; m && j % BLOCK; j++) {
			in[j][0] = in[m - 1][0];
			want[j] = want[m - 1];
		}
		bad = run(&(struct fp_case){ c->name, 1, 0, c->body, true }, j);
		CHECK(bad == 0);
	}
}

/* How far the approximate instructions are from the H100's, reported. */
static void approximate_results(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned int n;
		int bad;

		if (cases[i].exact)
			continue;
		n = load(&cases[i]);
		bad = n ? run(&cases[i], n) : -1;
		CHECK(bad >= 0);
		printf("# %s: %d of %u results differ from the H100's\n",
		       cases[i].name, bad, n);
	}
}

static const struct tap_test tests[] = {
	TAP_TEST(exact_results),
	TAP_TEST(sin_cos_of_huge_arguments),
	TAP_TEST(approximate_results),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
