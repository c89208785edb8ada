/* SPDX-License-Identifier: MIT */
/*
 * The contraction probe's patterns (h100_contract.c runs them on an H100,
 * test_contract.c through vgpu's JIT): plain PTX mul/add pairs of every
 * shape that matters to ptxas, their inputs, and the tally of each
 * result against the fused and the separately rounded forms.
 */
#ifndef H100_CONTRACT_H
#define H100_CONTRACT_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4096
#define NOUT 20

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n" \
	".visible .entry k(.param .u64 pa, .param .u64 po)\n{\n" \
	".reg .b32 %r<8>; .reg .f32 %f<40>; .reg .f64 %d<20>; .reg .b64 %rd<12>; .reg .pred %p<4>;\n" \
	"ld.param.u64 %rd1, [pa]; ld.param.u64 %rd2, [po];\n" \
	"mov.u32 %r1, %tid.x; mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mad.lo.u32 %r1, %r2, %r3, %r1;\n" \
	"mul.wide.u32 %rd3, %r1, 4; add.s64 %rd4, %rd1, %rd3;\n" \
	"ld.global.f32 %f1, [%rd4]; ld.global.f32 %f2, [%rd4+16384]; ld.global.f32 %f3, [%rd4+32768];\n" \
	"mul.wide.u32 %rd5, %r1, 8; add.s64 %rd6, %rd1, %rd5;\n" \
	"ld.global.f64 %d1, [%rd6+49152]; ld.global.f64 %d2, [%rd6+81920]; ld.global.f64 %d3, [%rd6+114688];\n" \
	"add.s64 %rd7, %rd2, %rd3; add.s64 %rd8, %rd2, %rd5;\n"
/* result 0 (f32) at %rd7, result 1 16384 bytes on */
#define ST0(r) "st.global.f32 [%rd7], " r ";\n"
#define ST1(r) "st.global.f32 [%rd7+16384], " r ";\n"

static const struct { const char *name, *body; } pats[] = {
	{ "mul_add", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3;\n" ST0("%f11") },
	{ "mul_add_commuted", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f3, %f10;\n" ST0("%f11") },
	{ "mul_sub", "mul.f32 %f10, %f1, %f2; sub.f32 %f11, %f10, %f3;\n" ST0("%f11") },
	{ "sub_mul", "mul.f32 %f10, %f1, %f2; sub.f32 %f11, %f3, %f10;\n" ST0("%f11") },
	{ "mul_kept", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3;\n" ST0("%f11") ST1("%f10") },
	{ "mulrn_add", "mul.rn.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3;\n" ST0("%f11") },
	{ "mul_addrn", "mul.f32 %f10, %f1, %f2; add.rn.f32 %f11, %f10, %f3;\n" ST0("%f11") },
	{ "ftz_both", "mul.ftz.f32 %f10, %f1, %f2; add.ftz.f32 %f11, %f10, %f3;\n" ST0("%f11") },
	{ "ftz_mul_only", "mul.ftz.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3;\n" ST0("%f11") },
	{ "two_muls", "mul.f32 %f10, %f1, %f2; mul.f32 %f12, %f3, %f1; add.f32 %f11, %f10, %f12;\n" ST0("%f11") },
	{ "mul_two_adds", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3; add.f32 %f12, %f10, %f2;\n" ST0("%f11") ST1("%f12") },
	{ "mul_neg_add", "mul.f32 %f10, %f1, %f2; neg.f32 %f12, %f10; add.f32 %f11, %f12, %f3;\n" ST0("%f11") },
	{ "across_branch", "mul.f32 %f10, %f1, %f2; setp.ne.u32 %p1, %r1, 99999; @%p1 bra L1; mov.f32 %f3, 0f00000000;\nL1: add.f32 %f11, %f10, %f3;\n" ST0("%f11") },
	{ "guarded_add", "mul.f32 %f10, %f1, %f2; mov.f32 %f11, 0f3f800000; setp.ne.u32 %p1, %r1, 99999; @%p1 add.f32 %f11, %f10, %f3;\n" ST0("%f11") },
	{ "add_sat", "mul.f32 %f10, %f1, %f2; add.sat.f32 %f11, %f10, %f3;\n" ST0("%f11") },
	{ "mul_add_f64", "mul.f64 %d10, %d1, %d2; add.f64 %d11, %d10, %d3; st.global.f64 [%rd8], %d11;\n" },
	{ "mul_sub_f64", "mul.f64 %d10, %d1, %d2; sub.f64 %d11, %d10, %d3; st.global.f64 [%rd8], %d11;\n" },
	{ "mul_far_add", "mul.f32 %f10, %f1, %f2; add.f32 %f20, %f1, %f3; mul.f32 %f21, %f20, %f20; st.global.f32 [%rd7+32768], %f21; add.f32 %f11, %f10, %f3;\n" ST0("%f11") },
	{ "mul_redefined_src", "mul.f32 %f10, %f1, %f2; mov.f32 %f1, %f3; add.f32 %f11, %f10, %f1;\n" ST0("%f11") },
	{ "mul_add_mul_add", "mul.f32 %f10, %f1, %f2; add.f32 %f11, %f10, %f3; mul.f32 %f12, %f11, %f2; add.f32 %f13, %f12, %f1;\n" ST0("%f13") },
};

#define NPATS (sizeof(pats) / sizeof(pats[0]))

/* The inputs: f32 a, b, c at 0, 16 and 32 KiB; f64 ones from 48 KiB. */
struct ct_inputs {
	float fa[N], fb[N], fc[N];
	double da[N], db[N], dc[N];
};

static inline void ct_make_inputs(struct ct_inputs *x)
{
	unsigned int i;

	srand(1);
	for (i = 0; i < N; i++) {
		x->fa[i] = (float)rand() / RAND_MAX * 4 - 2;
		x->fb[i] = (float)rand() / RAND_MAX * 4 - 2;
		/* near -(a * b): what fusing changes shows */
		x->fc[i] = -(x->fa[i] * x->fb[i]) *
			   (1.0f + ((float)rand() / RAND_MAX - 0.5f) * 1e-3f);
		x->da[i] = (double)rand() / RAND_MAX * 4 - 2 + (double)rand() / RAND_MAX * 1e-9;
		x->db[i] = (double)rand() / RAND_MAX * 4 - 2 + (double)rand() / RAND_MAX * 1e-9;
		x->dc[i] = -(x->da[i] * x->db[i]) *
			   (1.0 + ((double)rand() / RAND_MAX - 0.5) * 1e-6);
	}
}

static inline int same(float a, float b)
{
	return memcmp(&a, &b, 4) == 0;
}

/*
 * Pattern @p's line: how many of its results (@out, NOUT rows of N) are
 * the fused form, how many the separate one.
 */
static inline void ct_tally(unsigned int p, const struct ct_inputs *x,
			    float (*out)[N], char *line, size_t size)
{
	const float *fa = x->fa, *fb = x->fb, *fc = x->fc;
	const double *da = x->da, *db = x->db, *dc = x->dc;
	static double dout[N];
	int fused[2] = { 0, 0 }, sep[2] = { 0, 0 }, alt = 0;
	unsigned int i;
	size_t n;

	memcpy(dout, out, sizeof(dout));
	for (i = 0; i < N; i++) {
		float a = fa[i], b = fb[i], c = fc[i], ab = a * b, f, s;
		const char *nm = pats[p].name;

		if (!strcmp(nm, "mul_add_f64") || !strcmp(nm, "mul_sub_f64")) {
			double dcc = !strcmp(nm, "mul_sub_f64") ? -dc[i] : dc[i];
			double df = fma(da[i], db[i], dcc), ds = da[i] * db[i] + dcc;

			fused[0] += memcmp(&dout[i], &df, 8) == 0;
			sep[0] += memcmp(&dout[i], &ds, 8) == 0;
			continue;
		}
		if (!strcmp(nm, "mul_sub")) {
			f = fmaf(a, b, -c);
			s = ab - c;
		} else if (!strcmp(nm, "sub_mul") || !strcmp(nm, "mul_neg_add")) {
			f = fmaf(-a, b, c);
			s = c - ab;
		} else if (!strcmp(nm, "two_muls")) {
			float ca = c * a;

			f = fmaf(a, b, ca);
			s = ab + ca;
			alt += same(out[0][i], fmaf(c, a, ab));
		} else if (!strcmp(nm, "mul_redefined_src")) {
			f = fmaf(a, b, c);
			s = ab + c;
		} else if (!strcmp(nm, "add_sat")) {
			f = fminf(fmaxf(fmaf(a, b, c), 0.0f), 1.0f);
			s = fminf(fmaxf(ab + c, 0.0f), 1.0f);
		} else if (!strcmp(nm, "mul_add_mul_add")) {
			float t1f = fmaf(a, b, c), t1s = ab + c;

			f = fmaf(t1f, b, a);
			s = t1s * b + a;
		} else {
			f = fmaf(a, b, c);
			s = ab + c;
		}
		fused[0] += same(out[0][i], f);
		sep[0] += same(out[0][i], s);
		if (!strcmp(nm, "mul_two_adds")) {
			fused[1] += same(out[1][i], fmaf(a, b, b));
			sep[1] += same(out[1][i], ab + b);
		}
	}
	n = (size_t)snprintf(line, size, "%-18s fused %4d separate %4d of %d",
			     pats[p].name, fused[0], sep[0], N);
	if (!strcmp(pats[p].name, "mul_two_adds") && n < size)
		n += (size_t)snprintf(line + n, size - n, "; second add: fused %4d separate %4d",
				      fused[1], sep[1]);
	if (alt && n < size)
		snprintf(line + n, size - n, "; other forms %d", alt);
}

#endif /* H100_CONTRACT_H */
