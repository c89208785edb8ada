/* SPDX-License-Identifier: MIT */
/*
 * The floating-point cases an H100 was probed with
 * (tests/unit/data/h100_fp_corners.cu): each case's PTX, and its inputs
 * and results read from the probe's log. The unit test runs them through
 * the core in user space (tests/unit/test_fp_h100.c), the e2e test
 * through the module (tests/e2e/fp_h100_api.c). Include after tap.h.
 */
#ifndef VGPU_TESTS_FP_H100_CASES_H
#define VGPU_TESTS_FP_H100_CASES_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define LOG "tests/unit/data/h100_fp_corners.log.gz"

enum { BLOCK = 256, NMAX = 2048 };

static uint64_t in[NMAX][2];
static uint64_t out[NMAX];
static uint64_t want[NMAX];

/* The case's PTX reads a and b as floats %f1, %f2, a as %fd1 widened
 * where it asks, and leaves its result's bits in %rd8. */
static const char kernel_fmt[] __attribute__((unused)) =
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
 * results on the line it holds (0: the one after the inputs), the PTX.
 */
struct fp_case {
	const char *name;
	int ninputs, field;
	const char *body;
};

static const struct fp_case cases[] = {
	{ "abs", 1, 0, "\tabs.f32 %f4, %f1;\n" F4 },
	{ "neg", 1, 0, "\tneg.f32 %f4, %f1;\n" F4 },
	{ "abs_ftz", 1, 0, "\tabs.ftz.f32 %f4, %f1;\n" F4 },
	{ "sat", 1, 0, "\tcvt.sat.f32.f32 %f4, %f1;\n" F4 },
	{ "sqrt_rn", 1, 0, "\tsqrt.rn.f32 %f4, %f1;\n" F4 },
	{ "rcp_rn", 1, 0, "\trcp.rn.f32 %f4, %f1;\n" F4 },
	{ "div_rn", 2, 0, "\tdiv.rn.f32 %f4, %f1, %f2;\n" F4 },
	{ "min", 2, 0, "\tmin.f32 %f4, %f1, %f2;\n" F4 },
	{ "max", 2, 0, "\tmax.f32 %f4, %f1, %f2;\n" F4 },
	{ "add", 2, 0, "\tadd.f32 %f4, %f1, %f2;\n" F4 },
	{ "mul", 2, 0, "\tmul.f32 %f4, %f1, %f2;\n" F4 },
	{ "add_ftz", 2, 0, "\tadd.ftz.f32 %f4, %f1, %f2;\n" F4 },
	{ "mul_sat", 2, 0, "\tmul.sat.f32 %f4, %f1, %f2;\n" F4 },
	{ "cvt", 1, 0, "\tcvt.f64.f32 %fd1, %f1;\n\tmov.b64 %rd8, %fd1;\n",
	},
	{ "cvt", 1, 1, "\tcvt.rn.f16.f32 %rs1, %f1;\n"
	  "\tcvt.u64.u16 %rd8, %rs1;\n" },
	{ "cvt", 1, 2, "\tcvt.f64.f32 %fd1, %f1;\n"
	  "\tcvt.rn.f32.f64 %f4, %fd1;\n" F4 },
	{ "sin", 1, 0, "\tsin.approx.f32 %f4, %f1;\n" F4 },
	{ "cos", 1, 0, "\tcos.approx.f32 %f4, %f1;\n" F4 },
	{ "ex2", 1, 0, "\tex2.approx.f32 %f4, %f1;\n" F4 },
	{ "lg2", 1, 0, "\tlg2.approx.f32 %f4, %f1;\n" F4 },
	{ "rcp", 1, 0, "\trcp.approx.f32 %f4, %f1;\n" F4 },
	{ "rsqrt", 1, 0, "\trsqrt.approx.f32 %f4, %f1;\n" F4 },
	{ "sqrt_approx", 1, 0, "\tsqrt.approx.f32 %f4, %f1;\n" F4 },
	{ "tanh", 1, 0, "\ttanh.approx.f32 %f4, %f1;\n" F4 },
	{ "sin_ftz", 1, 0, "\tsin.approx.ftz.f32 %f4, %f1;\n" F4 },
	{ "ex2_ftz", 1, 0, "\tex2.approx.ftz.f32 %f4, %f1;\n" F4 },
	{ "lg2_ftz", 1, 0, "\tlg2.approx.ftz.f32 %f4, %f1;\n" F4 },
	{ "rcp_ftz", 1, 0, "\trcp.approx.ftz.f32 %f4, %f1;\n" F4 },
	{ "rsqrt_ftz", 1, 0, "\trsqrt.approx.ftz.f32 %f4, %f1;\n" F4 },
	{ "div_approx", 2, 0, "\tdiv.approx.f32 %f4, %f1, %f2;\n" F4 },
	{ "div_full", 2, 0, "\tdiv.full.f32 %f4, %f1, %f2;\n" F4 },
};

/* The H100's inputs and results for @c, from the log; how many. */
static inline unsigned int load(const struct fp_case *c)
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

#endif /* VGPU_TESTS_FP_H100_CASES_H */
