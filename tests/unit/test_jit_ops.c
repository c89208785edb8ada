// SPDX-License-Identifier: MIT
/*
 * PTX instructions the JIT lowers to the ISA's PRMT and MATCH: prmt in
 * every mode runs on the user-space core over edge-case and random
 * operands, checked against a host model written from the PTX ISA's
 * definition, and match.any/all over warps whose values agree in
 * different ways.
 */
#include "core_run.h"
#include "jit.h"
#include "tap.h"

#define PTX_HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

enum { BLOCK = 256, NMAX = 4096 };

/* Operands a, b, c of each thread, and what it stores. */
static uint64_t in[NMAX][3];
static uint64_t out[NMAX];

/*
 * Each case's PTX goes where %s is: it reads a, b, c as %rd5-%rd7, their
 * low words as %r5-%r7, their low halves as %rs1, %rs2, %rs4, the words
 * as floats in %f1-%f3, a as a double in %fd1, and leaves its result in
 * %rd8.
 */
static const char kernel_fmt[] = PTX_HEAD
	".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{\n"
	"\t.reg .pred %%p<4>;\n\t.reg .b16 %%rs<6>;\n\t.reg .b32 %%r<12>;\n"
	"\t.reg .b64 %%rd<12>;\n\t.reg .f32 %%f<6>;\n\t.reg .f64 %%fd<2>;\n"
	"\tld.param.u64 %%rd1, [k_param_0];\n"
	"\tld.param.u64 %%rd2, [k_param_1];\n"
	"\tmov.u32 %%r1, %%ctaid.x;\n\tmov.u32 %%r2, %%ntid.x;\n"
	"\tmov.u32 %%r3, %%tid.x;\n\tmad.lo.s32 %%r4, %%r1, %%r2, %%r3;\n"
	"\tmul.wide.u32 %%rd3, %%r4, 24;\n\tadd.s64 %%rd3, %%rd1, %%rd3;\n"
	"\tld.global.u64 %%rd5, [%%rd3];\n\tld.global.u64 %%rd6, [%%rd3+8];\n"
	"\tld.global.u64 %%rd7, [%%rd3+16];\n"
	"\tcvt.u32.u64 %%r5, %%rd5;\n\tcvt.u32.u64 %%r6, %%rd6;\n"
	"\tcvt.u32.u64 %%r7, %%rd7;\n"
	"\tcvt.u16.u64 %%rs1, %%rd5;\n\tcvt.u16.u64 %%rs2, %%rd6;\n"
	"\tcvt.u16.u64 %%rs4, %%rd7;\n"
	"\tmov.b32 %%f1, %%r5;\n\tmov.b32 %%f2, %%r6;\n\tmov.b32 %%f3, %%r7;\n"
	"\tmov.b64 %%fd1, %%rd5;\n"
	"%s\n"
	"\tmul.wide.u32 %%rd9, %%r4, 8;\n\tadd.s64 %%rd9, %%rd2, %%rd9;\n"
	"\tst.global.u64 [%%rd9], %%rd8;\n\tret;\n}\n";

/* Operands worth trying: counts and their limits, byte and sign edges, floats. */
static const uint64_t edges[] = {
	0, 1, 2, 7, 8, 15, 16, 23, 24, 31, 32, 33, 63, 64, 0x7f, 0x80, 0xff,
	0x100, 0x7fff, 0x8000, 0xffff, 0x7fffff, 0x800000, 0xffffff,
	0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff, 0x100000000ULL,
	0xffffffff80000000ULL, 0x8000000000000000ULL, 0x7fffffffffffffffULL,
	0xffffffffffffffffULL, 0x12345678, 0x89abcdef, 0x80ff7f01,
	/* f32: infinities, NaNs, subnormals, the smallest normals, 1, max */
	0x7f800000, 0xff800000, 0x7fc00000, 0x7f800001, 0xffc00001,
	0x007fffff, 0x807fffff, 0x80000001, 0x80800000, 0x3f800000,
	0xbf800000, 0x7f7fffff,
	/* f64 */
	0x7ff0000000000000ULL, 0xfff0000000000000ULL, 0x7ff8000000000000ULL,
	0x7ff0000000000001ULL, 0x000fffffffffffffULL, 0x800fffffffffffffULL,
	0x0010000000000000ULL, 0x8010000000000000ULL, 0x3ff0000000000000ULL,
	0x7fefffffffffffffULL, 0x8000000000000001ULL,
};
#define NEDGES (sizeof(edges) / sizeof(edges[0]))

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t rnd(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

/* A small count, a word, a sign-extended word, or any 64 bits. */
static uint64_t rnd_opnd(void)
{
	uint64_t r = rnd();

	switch (r & 3) {
	case 0:
		return (r >> 8) % 70;
	case 1:
		return r >> 32;
	case 2:
		return (uint64_t)(int64_t)(int32_t)(r >> 32);
	default:
		return rnd();
	}
}

/* Every pair of edges as a and b, with c walking the edges; then random. */
static void make_inputs(void)
{
	unsigned int i;

	for (i = 0; i < NMAX; i++) {
		if (i < NEDGES * NEDGES) {
			in[i][0] = edges[i % NEDGES];
			in[i][1] = edges[i / NEDGES];
			in[i][2] = edges[(i * 7 + i / NEDGES) % NEDGES];
		} else {
			in[i][0] = rnd_opnd();
			in[i][1] = rnd_opnd();
			in[i][2] = rnd_opnd();
		}
	}
}

typedef uint64_t (*model_fn)(const uint64_t *v, int64_t k, int mode);

/*
 * @body is PTX for kernel_fmt, in which "$K" stands for each constant
 * of @ks in turn (KEND ends them; NULL: the body has none); @model gives
 * %rd8 from the operands, the constant and @mode.
 */
struct op_case {
	const char *body;
	model_fn model;
	int mode;
	const int64_t *ks;
};

#define KEND INT64_MIN

/* @body with each "$K" replaced by @k. */
static void subst(char *out, size_t size, const char *body, int64_t k)
{
	size_t n = 0;

	for (; *body && n + 24 < size; body++) {
		if (body[0] == '$' && body[1] == 'K') {
			n += (size_t)snprintf(out + n, size - n, "%lld", (long long)k);
			body++;
		} else {
			out[n++] = *body;
		}
	}
	out[n] = 0;
}

/* @body on one line, for a diagnostic. */
static const char *one_line(const char *body)
{
	static char line[1024];
	size_t n = 0;

	for (; *body && n + 1 < sizeof(line); body++)
		if (*body != '\n' && (*body != '\t' || (n && line[n - 1] != ' ')))
			line[n++] = *body == '\t' ? ' ' : *body;
	line[n] = 0;
	return line;
}

/* Compiles @body into the kernel and runs it over @n threads of in[]. */
static int run_body(const char *body, unsigned int n)
{
	static char ptx[8192];
	uint64_t params[2] = { (uintptr_t)in, (uintptr_t)out };
	struct vgpu_range mem[3] = {
		core_range(in, sizeof(in), false),
		core_range(out, sizeof(out), true), { 0 },
	};
	struct vg_jit_image *img = NULL;
	char err[256];
	int r;

	snprintf(ptx, sizeof(ptx), kernel_fmt, body);
	if (vg_jit_compile(ptx, strlen(ptx), &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s (%s)", err, one_line(body));
		return -1;
	}
	memset(out, 0xa5, sizeof(out));
	r = core_run(img->insns, img->ninsns, img->kernels[0].f, n / BLOCK,
		     BLOCK, params, mem, NULL);
	vg_jit_free(img);
	if (r != VGPU_RUN_DONE) {
		TAP_FAIL("run failed (%d): %s", r, one_line(body));
		return -1;
	}
	return 0;
}

static void run_cases(const struct op_case *cases, size_t ncases, unsigned int n)
{
	static const int64_t none[] = { 0, KEND };
	size_t i, j;

	make_inputs();
	for (i = 0; i < ncases; i++) {
		const int64_t *ks = cases[i].ks ? cases[i].ks : none;

		for (j = 0; ks[j] != KEND; j++) {
			char body[1024];
			unsigned int t, bad = 0;

			subst(body, sizeof(body), cases[i].body, ks[j]);
			if (run_body(body, n))
				continue;
			for (t = 0; t < n; t++) {
				uint64_t want = cases[i].model(in[t], ks[j], cases[i].mode);

				if (out[t] == want)
					continue;
				if (!bad++)
					TAP_FAIL("%s: a=%#llx b=%#llx c=%#llx k=%lld: got %#llx, want %#llx",
						 one_line(body), (unsigned long long)in[t][0],
						 (unsigned long long)in[t][1],
						 (unsigned long long)in[t][2], (long long)ks[j],
						 (unsigned long long)out[t],
						 (unsigned long long)want);
			}
			if (bad > 1)
				TAP_FAIL("%u more mismatches", bad - 1);
		}
	}
}

#define RUN_CASES(cases, n) run_cases(cases, sizeof(cases) / sizeof(cases[0]), n)

/* The result line of a 32-bit %r8. */
#define R8 "\tcvt.u64.u32 %rd8, %r8;\n"
/* --- prmt ------------------------------------------------------------------- */

/*
 * The PTX ISA's tables for the modes other than the default: for each
 * value of c[1:0], the source byte of d.b0, d.b1, d.b2, d.b3.
 */
static const uint8_t prmt_modes[6][4][4] = {
	/* f4e */ { { 0, 1, 2, 3 }, { 1, 2, 3, 4 }, { 2, 3, 4, 5 }, { 3, 4, 5, 6 } },
	/* b4e */ { { 0, 7, 6, 5 }, { 1, 0, 7, 6 }, { 2, 1, 0, 7 }, { 3, 2, 1, 0 } },
	/* rc8 */ { { 0, 0, 0, 0 }, { 1, 1, 1, 1 }, { 2, 2, 2, 2 }, { 3, 3, 3, 3 } },
	/* ecl */ { { 0, 1, 2, 3 }, { 1, 1, 2, 3 }, { 2, 2, 2, 3 }, { 3, 3, 3, 3 } },
	/* ecr */ { { 0, 0, 0, 0 }, { 0, 1, 1, 1 }, { 0, 1, 2, 2 }, { 0, 1, 2, 3 } },
	/* rc16 */ { { 0, 1, 0, 1 }, { 2, 3, 2, 3 }, { 0, 1, 0, 1 }, { 2, 3, 2, 3 } },
};

/* Mode 0: each nibble of c picks a byte of {b, a}, its bit 3 the byte's sign. */
static uint32_t prmt_ref(uint32_t a, uint32_t b, uint32_t c, int mode)
{
	uint64_t src = (uint64_t)b << 32 | a;
	uint32_t d = 0, i;

	for (i = 0; i < 4; i++) {
		uint32_t sel = mode ? prmt_modes[mode - 1][c & 3][i] : (c >> (4 * i)) & 15;
		uint32_t byte = (src >> (8 * (sel & 7))) & 0xff;

		if (!mode && (sel & 8))
			byte = byte & 0x80 ? 0xff : 0;
		d |= byte << (8 * i);
	}
	return d;
}

static uint64_t m_prmt(const uint64_t *v, int64_t k, int mode)
{
	(void)k;
	return prmt_ref((uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2], mode);
}

static uint64_t m_prmt_ck(const uint64_t *v, int64_t k, int mode)
{
	return prmt_ref((uint32_t)v[0], (uint32_t)v[1], (uint32_t)k, mode);
}

static uint64_t m_prmt_bk(const uint64_t *v, int64_t k, int mode)
{
	return prmt_ref((uint32_t)v[0], (uint32_t)k, (uint32_t)v[2], mode);
}

static const int64_t prmt_sels[] = {
	0x3210, 0x7531, 0x0000, 0x4567, 0x8888, 0xfedc, 0x9b1f, 0x1c4c,
	0x76543210, 1, 2, 3, KEND,
};

static void prmt_all_modes(void)
{
	static const struct op_case cases[] = {
		{ "prmt.b32 %r8, %r5, %r6, %r7;" R8, m_prmt, 0, NULL },
		{ "prmt.b32.f4e %r8, %r5, %r6, %r7;" R8, m_prmt, 1, NULL },
		{ "prmt.b32.b4e %r8, %r5, %r6, %r7;" R8, m_prmt, 2, NULL },
		{ "prmt.b32.rc8 %r8, %r5, %r6, %r7;" R8, m_prmt, 3, NULL },
		{ "prmt.b32.ecl %r8, %r5, %r6, %r7;" R8, m_prmt, 4, NULL },
		{ "prmt.b32.ecr %r8, %r5, %r6, %r7;" R8, m_prmt, 5, NULL },
		{ "prmt.b32.rc16 %r8, %r5, %r6, %r7;" R8, m_prmt, 6, NULL },
		{ "prmt.b32 %r8, %r5, %r6, $K;" R8, m_prmt_ck, 0, prmt_sels },
		{ "prmt.b32.b4e %r8, %r5, %r6, $K;" R8, m_prmt_ck, 2, prmt_sels },
		{ "prmt.b32 %r8, %r5, $K, %r7;" R8, m_prmt_bk, 0, prmt_sels },
		/* The destination is a source. */
		{ "prmt.b32.ecr %r7, %r5, %r6, %r7;\n\tcvt.u64.u32 %rd8, %r7;",
		  m_prmt, 5, NULL },
	};

	RUN_CASES(cases, NMAX);
}

/* --- match ------------------------------------------------------------------- */

/*
 * Five warps with values alike in different ways: all the same, in three
 * classes, alike in the low word only, random with repeats, all apart.
 * Lanes from @live on have exited. Each thread stores match.any and
 * match.all of the low word and of the whole value, the two predicates,
 * and match.any of the low word into its own source register.
 */
static const char match_ptx[] = PTX_HEAD
	".visible .entry m(.param .u64 m_param_0, .param .u64 m_param_1,"
	" .param .u32 m_param_2)\n{\n"
	"\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<12>;\n"
	"\tld.param.u64 %rd1, [m_param_0];\n"
	"\tld.param.u64 %rd2, [m_param_1];\n"
	"\tld.param.u32 %r1, [m_param_2];\n"
	"\tmov.u32 %r3, %tid.x;\n"
	"\tand.b32 %r2, %r3, 31;\n"
	"\tsetp.ge.u32 %p3, %r2, %r1;\n"
	"\t@%p3 bra $L__done;\n"
	"\tmul.wide.u32 %rd3, %r3, 8;\n\tadd.s64 %rd4, %rd1, %rd3;\n"
	"\tld.global.u64 %rd5, [%rd4];\n"
	"\tcvt.u32.u64 %r5, %rd5;\n"
	"\tmov.u32 %r4, -1;\n"
	"\tmatch.any.sync.b32 %r6, %r5, %r4;\n"
	"\tmatch.all.sync.b32 %r7|%p1, %r5, -1;\n"
	"\tmatch.any.sync.b64 %r8, %rd5, 0xffffffff;\n"
	"\tmatch.all.sync.b64 %r9|%p2, %rd5, %r4;\n"
	"\tselp.u32 %r10, 1, 0, %p1;\n"
	"\tselp.u32 %r11, 2, 0, %p2;\n"
	"\tor.b32 %r10, %r10, %r11;\n"
	"\tmatch.any.sync.b32 %r5, %r5, -1;\n"
	"\tmul.wide.u32 %rd6, %r3, 24;\n\tadd.s64 %rd7, %rd2, %rd6;\n"
	"\tst.global.v2.u32 [%rd7], {%r6, %r7};\n"
	"\tst.global.v2.u32 [%rd7+8], {%r8, %r9};\n"
	"\tst.global.v2.u32 [%rd7+16], {%r10, %r5};\n"
	"$L__done:\n\tret;\n}\n";

static void match_any_all(void)
{
	enum { W = 5, T = 32 * W };
	static uint64_t val[T];
	static uint32_t res[T][6];
	struct vgpu_range mem[3] = {
		core_range(val, sizeof(val), false),
		core_range(res, sizeof(res), true), { 0 },
	};
	static const uint32_t lives[] = { 32, 20, 1 };
	struct vg_jit_image *img = NULL;
	unsigned int t, l, w, i, bad = 0;
	char err[256];

	for (t = 0; t < T; t++) {
		uint64_t r = rnd();

		switch (t / 32) {
		case 0: val[t] = 0x1234; break;
		case 1: val[t] = t % 3; break;
		case 2: val[t] = (uint64_t)(t & 1) << 32 | 7; break;
		case 3: val[t] = (r & 3) << 40 | ((r >> 8) & 1); break;
		default: val[t] = t; break;
		}
	}
	if (vg_jit_compile(match_ptx, sizeof(match_ptx) - 1, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		return;
	}
	for (l = 0; l < sizeof(lives) / sizeof(lives[0]); l++) {
		struct { uint64_t v, r; uint32_t live; } __attribute__((packed)) p = {
			(uintptr_t)val, (uintptr_t)res, lives[l],
		};

		memset(res, 0xa5, sizeof(res));
		CHECK(core_run(img->insns, img->ninsns, img->kernels[0].f, 1, T, &p,
			       mem, NULL) == VGPU_RUN_DONE);
		for (w = 0; w < W; w++) {
			uint32_t live = lives[l] == 32 ? ~0U : (1U << lives[l]) - 1;
			bool all32 = true, all64 = true;

			for (i = 0; i < lives[l]; i++) {
				all32 &= (uint32_t)val[32 * w + i] == (uint32_t)val[32 * w];
				all64 &= val[32 * w + i] == val[32 * w];
			}
			for (i = 0; i < lives[l]; i++) {
				uint32_t *o = res[32 * w + i], any32 = 0, any64 = 0, j;
				uint64_t v = val[32 * w + i];

				for (j = 0; j < lives[l]; j++) {
					any32 |= (uint32_t)((uint32_t)val[32 * w + j] == (uint32_t)v) << j;
					any64 |= (uint32_t)(val[32 * w + j] == v) << j;
				}
				bad += o[0] != any32 || o[1] != (all32 ? live : 0);
				bad += o[2] != any64 || o[3] != (all64 ? live : 0);
				bad += o[4] != ((all32 ? 1U : 0) | (all64 ? 2U : 0));
				bad += o[5] != any32;
			}
		}
	}
	CHECK(bad == 0);
	vg_jit_free(img);
}

/* --- refusals ---------------------------------------------------------------- */

/* Malformed forms of these instructions, refused at their line and column. */
static void malformed_forms_are_refused(void)
{
	static const struct {
		const char *body;
		const char *msg;
	} cases[] = {
		{ "prmt.b16 %h1, %h1, %h1, %h1;", "prmt.b16: unsupported type" },
		{ "match.any.sync.b32 %r1|%p1, %r1, -1;",
		  "match.any.sync.b32: only match.all sets a predicate" },
		{ "match.sync.b32 %r1, %r1, -1;", "match.sync.b32: missing mode" },
		{ "match.all.sync.b16 %r1, %h1, -1;",
		  "match.all.sync.b16: unsupported type" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vg_jit_image *img = NULL;
		char ptx[1024], err[256] = "", want[256];

		/* The instruction is on line 7. */
		snprintf(ptx, sizeof(ptx), PTX_HEAD
			 ".visible .entry k()\n{\n"
			 "\t.reg .pred %%p<2>; .reg .b32 %%r<2>; .reg .f32 %%f<2>;"
			 " .reg .b16 %%h<2>; .reg .b64 %%rd<2>;\n"
			 "\t%s\n\tret;\n}\n", cases[i].body);
		snprintf(want, sizeof(want), "7:2: %s", cases[i].msg);
		if (!vg_jit_compile(ptx, strlen(ptx), &img, err, sizeof(err))) {
			TAP_FAIL("case %u compiled", i);
			vg_jit_free(img);
			continue;
		}
		if (strcmp(err, want))
			TAP_FAIL("case %u: got \"%s\", expected \"%s\"", i, err, want);
	}
}

static const struct tap_test tests[] = {
	TAP_TEST(prmt_all_modes),
	TAP_TEST(match_any_all),
	TAP_TEST(malformed_forms_are_refused),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
