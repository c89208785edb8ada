// SPDX-License-Identifier: MIT
/*
 * PTX instructions the JIT lowers to the ISA's PRMT and MATCH or to short
 * sequences (libvgpu/jit/ptx_seq.c): prmt, shf, lop3, slct, testp, cnot,
 * mul24/mad24, sad, bmsk, szext, dp4a/dp2a, vabsdiff4 and match run on the
 * user-space core over edge-case and random operands, each checked
 * against a host model written from the PTX ISA's definition; then what
 * nvcc makes of tests/unit/data/ops.cu (OPS_PTX, built with the test).
 */
#include <math.h>

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

/* Result lines: a 32-bit %r8, a 16-bit %rs3, a predicate %p1. */
#define R8 "\tcvt.u64.u32 %rd8, %r8;\n"
#define RS3 "\tcvt.u64.u16 %rd8, %rs3;\n"
#define P1 "\tselp.u64 %rd8, 1, 0, %p1;\n"
/* %p3 = a is odd, for guarded cases; %r8 = 77 where the guard is false. */
#define ODD "\tmov.u32 %r8, 77;\n\tand.b32 %r9, %r5, 1;\n\tsetp.ne.u32 %p3, %r9, 0;\n"

static uint64_t sext(uint64_t x, unsigned int bits)
{
	return bits >= 64 ? x : (uint64_t)((int64_t)(x << (64 - bits)) >> (64 - bits));
}

static uint64_t cut(uint64_t x, unsigned int bits)
{
	return bits >= 64 ? x : x & ((1ULL << bits) - 1);
}

static float f32_of(uint64_t x)
{
	uint32_t b = (uint32_t)x;
	float f;

	memcpy(&f, &b, 4);
	return f;
}

static double f64_of(uint64_t x)
{
	double d;

	memcpy(&d, &x, 8);
	return d;
}

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

/* --- shf -------------------------------------------------------------------- */

enum { SHF_R = 1, SHF_CLAMP = 2, SHF_ROT = 4, SHF_CK = 8, SHF_ODD = 16 };

static uint64_t m_shf(const uint64_t *v, int64_t k, int mode)
{
	uint32_t a = (uint32_t)v[0], b = mode & SHF_ROT ? a : (uint32_t)v[1];
	uint32_t c = mode & SHF_CK ? (uint32_t)k : (uint32_t)v[2], n;
	uint64_t x = (uint64_t)b << 32 | a;

	if ((mode & SHF_ODD) && !(a & 1))
		return 77;
	n = mode & SHF_CLAMP ? (c < 32 ? c : 32) : c & 31;
	return mode & SHF_R ? (uint32_t)(x >> n) : (uint32_t)((x << n) >> 32);
}

static const int64_t shf_counts[] = {
	0, 1, 7, 13, 16, 31, 32, 33, 63, 64, 100, -1, KEND,
};

static void shf_funnel_shifts(void)
{
	static const struct op_case cases[] = {
		{ "shf.l.wrap.b32 %r8, %r5, %r6, %r7;" R8, m_shf, 0, NULL },
		{ "shf.r.wrap.b32 %r8, %r5, %r6, %r7;" R8, m_shf, SHF_R, NULL },
		{ "shf.l.clamp.b32 %r8, %r5, %r6, %r7;" R8, m_shf, SHF_CLAMP, NULL },
		{ "shf.r.clamp.b32 %r8, %r5, %r6, %r7;" R8, m_shf, SHF_R | SHF_CLAMP, NULL },
		{ "shf.l.wrap.b32 %r8, %r5, %r6, $K;" R8, m_shf, SHF_CK, shf_counts },
		{ "shf.r.wrap.b32 %r8, %r5, %r6, $K;" R8, m_shf, SHF_R | SHF_CK,
		  shf_counts },
		{ "shf.l.clamp.b32 %r8, %r5, %r6, $K;" R8, m_shf,
		  SHF_CLAMP | SHF_CK, shf_counts },
		{ "shf.r.clamp.b32 %r8, %r5, %r6, $K;" R8, m_shf,
		  SHF_R | SHF_CLAMP | SHF_CK, shf_counts },
		/* Rotates, as nvcc writes (x << k) | (x >> (32 - k)). */
		{ "shf.l.wrap.b32 %r8, %r5, %r5, %r7;" R8, m_shf, SHF_ROT, NULL },
		{ "shf.r.wrap.b32 %r8, %r5, %r5, $K;" R8, m_shf,
		  SHF_ROT | SHF_R | SHF_CK, shf_counts },
		/* Guarded, and the destination a source. */
		{ ODD "\t@%p3 shf.l.clamp.b32 %r8, %r5, %r6, %r7;" R8, m_shf,
		  SHF_CLAMP | SHF_ODD, NULL },
		{ "shf.r.wrap.b32 %r7, %r5, %r6, %r7;\n\tcvt.u64.u32 %rd8, %r7;",
		  m_shf, SHF_R, NULL },
		{ "shf.l.wrap.b32 %r6, %r5, %r6, %r7;\n\tcvt.u64.u32 %rd8, %r6;",
		  m_shf, 0, NULL },
	};

	RUN_CASES(cases, NMAX);
}

/* --- lop3 ------------------------------------------------------------------- */

static uint32_t lop3_ref(uint32_t a, uint32_t b, uint32_t c, uint8_t lut)
{
	uint32_t d = 0, i;

	for (i = 0; i < 32; i++) {
		uint32_t idx = ((a >> i) & 1) << 2 | ((b >> i) & 1) << 1 | ((c >> i) & 1);

		d |= (uint32_t)((lut >> idx) & 1) << i;
	}
	return d;
}

enum { LOP_OR = 1, LOP_AND = 2, LOP_NOTQ = 4, LOP_SINK = 8, LOP_PISQ = 16 };

/* With a predicate: %r8 | p << 32 (p alone for "_"); q is c's bit 0. */
static uint64_t m_lop3(const uint64_t *v, int64_t k, int mode)
{
	uint32_t d = lop3_ref((uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2],
			      (uint8_t)k);
	bool q = v[2] & 1, p;

	if (!(mode & (LOP_OR | LOP_AND)))
		return d;
	if (mode & LOP_NOTQ)
		q = !q;
	p = mode & LOP_OR ? (d != 0 || q) : (d != 0 && q);
	return mode & LOP_SINK ? p : d | (uint64_t)p << 32;
}

static int64_t luts[257];

static void lop3_every_table(void)
{
#define Q "\tand.b32 %r9, %r7, 1;\n\tsetp.ne.u32 %p2, %r9, 0;\n"
#define R8P1 "\tselp.u32 %r9, 1, 0, %p1;\n\tmov.b64 %rd8, {%r8, %r9};\n"
	static const int64_t some[] = {
		0x00, 0xff, 0x80, 0xfe, 0x96, 0xe8, 0xca, 0x1a, 0x3f, 0x40, 0xc0,
		KEND,
	};
	static const struct op_case cases[] = {
		{ "lop3.b32 %r8, %r5, %r6, %r7, $K;" R8, m_lop3, 0, luts },
		{ Q "\tlop3.or.b32 %r8|%p1, %r5, %r6, %r7, $K, %p2;" R8P1, m_lop3,
		  LOP_OR, some },
		{ Q "\tlop3.and.b32 %r8|%p1, %r5, %r6, %r7, $K, !%p2;" R8P1,
		  m_lop3, LOP_AND | LOP_NOTQ, some },
		{ Q "\tlop3.or.b32 _|%p1, %r5, %r6, %r7, $K, !%p2;" P1, m_lop3,
		  LOP_OR | LOP_NOTQ | LOP_SINK, some },
		/* p is q; the destination is a source. */
		{ Q "\tlop3.and.b32 %r7|%p2, %r5, %r6, %r7, $K, %p2;\n"
		  "\tselp.u32 %r9, 1, 0, %p2;\n\tmov.b64 %rd8, {%r7, %r9};",
		  m_lop3, LOP_AND, some },
		{ "lop3.b32 %r5, %r5, %r6, %r7, $K;\n\tcvt.u64.u32 %rd8, %r5;",
		  m_lop3, 0, some },
	};
	int i;

	for (i = 0; i < 256; i++)
		luts[i] = i;
	luts[256] = KEND;
	RUN_CASES(cases, 512);
#undef Q
#undef R8P1
}

/* --- slct and testp ---------------------------------------------------------- */

enum { SL_F32 = 0x100, SL_FTZ = 0x200, SL_BK = 0x400 };

/* mode: the width of d, a and b, and SL_* */
static uint64_t m_slct(const uint64_t *v, int64_t k, int mode)
{
	uint64_t b = mode & SL_BK ? (uint64_t)k : v[1];
	bool take_a;

	if (mode & SL_F32) {
		float f = f32_of(v[2]);

		if ((mode & SL_FTZ) && fpclassify(f) == FP_SUBNORMAL)
			f = copysignf(0.0f, f);
		take_a = f >= 0.0f;
	} else {
		take_a = (int32_t)v[2] >= 0;
	}
	return cut(take_a ? v[0] : b, mode & 0xff);
}

static const int64_t slct_imms[] = { 0, 12345, -1, KEND };

static void slct_selects_on_sign(void)
{
	static const struct op_case cases[] = {
		{ "slct.u32.s32 %r8, %r5, %r6, %r7;" R8, m_slct, 32, NULL },
		{ "slct.b64.s32 %rd8, %rd5, %rd6, %r7;", m_slct, 64, NULL },
		{ "slct.s16.s32 %rs3, %rs1, %rs2, %r7;" RS3, m_slct, 16, NULL },
		{ "slct.s32.f32 %r8, %r5, %r6, %f3;" R8, m_slct, 32 | SL_F32, NULL },
		{ "slct.ftz.b32.f32 %r8, %r5, %r6, %f3;" R8, m_slct,
		  32 | SL_F32 | SL_FTZ, NULL },
		{ "slct.f32.f32 %f4, %f1, %f2, %f3;\n\tmov.b32 %r8, %f4;" R8,
		  m_slct, 32 | SL_F32, NULL },
		{ "slct.ftz.u64.f32 %rd8, %rd5, %rd6, %f3;", m_slct,
		  64 | SL_F32 | SL_FTZ, NULL },
		{ "slct.u32.s32 %r8, %r5, $K, %r7;" R8, m_slct, 32 | SL_BK,
		  slct_imms },
		{ "slct.b32.s32 %r7, %r5, %r6, %r7;\n\tcvt.u64.u32 %rd8, %r7;",
		  m_slct, 32, NULL },
	};

	RUN_CASES(cases, NMAX);
}

enum { TP_FINITE, TP_INFINITE, TP_NUMBER, TP_NAN, TP_NORMAL, TP_SUBNORMAL, TP_F64 = 8 };

/* PTX counts zeros as normal numbers. */
static uint64_t m_testp(const uint64_t *v, int64_t k, int mode)
{
	int cls = mode & TP_F64 ? fpclassify(f64_of(v[0])) : fpclassify(f32_of(v[0]));

	(void)k;
	switch (mode & 7) {
	case TP_FINITE:
		return cls != FP_INFINITE && cls != FP_NAN;
	case TP_INFINITE:
		return cls == FP_INFINITE;
	case TP_NUMBER:
		return cls != FP_NAN;
	case TP_NAN:
		return cls == FP_NAN;
	case TP_NORMAL:
		return cls == FP_NORMAL || cls == FP_ZERO;
	default:
		return cls == FP_SUBNORMAL;
	}
}

static void testp_float_classes(void)
{
#define TP(op, mode) \
	{ "testp." op ".f32 %p1, %f1;" P1, m_testp, mode, NULL }, \
	{ "testp." op ".f64 %p1, %fd1;" P1, m_testp, (mode) | TP_F64, NULL }
	static const struct op_case cases[] = {
		TP("finite", TP_FINITE), TP("infinite", TP_INFINITE),
		TP("number", TP_NUMBER), TP("notanumber", TP_NAN),
		TP("normal", TP_NORMAL), TP("subnormal", TP_SUBNORMAL),
	};
#undef TP

	RUN_CASES(cases, NMAX);
}

/* --- cnot, mul24/mad24, sad --------------------------------------------------- */

static uint64_t m_cnot(const uint64_t *v, int64_t k, int mode)
{
	(void)k;
	return cut(v[0], mode) == 0;
}

static void cnot_is_logical_not(void)
{
	static const struct op_case cases[] = {
		{ "cnot.b16 %rs3, %rs1;" RS3, m_cnot, 16, NULL },
		{ "cnot.b32 %r8, %r5;" R8, m_cnot, 32, NULL },
		{ "cnot.b64 %rd8, %rd5;", m_cnot, 64, NULL },
	};

	RUN_CASES(cases, NMAX);
}

enum { M_HI = 1, M_SGN = 2, M_MAD = 4, M_SAT = 8, M_BK = 16, M_CK = 32, M_CB = 64 };

static uint64_t m_mul24(const uint64_t *v, int64_t k, int mode)
{
	uint32_t b = mode & M_BK ? (uint32_t)k : (uint32_t)v[1];
	uint32_t c = mode & M_CK ? (uint32_t)k : mode & M_CB ? b : (uint32_t)v[2], r;
	int64_t x = (int64_t)(v[0] & 0xffffff), y = (int64_t)(b & 0xffffff), t, s;

	if (mode & M_SGN) {
		x = (int64_t)sext((uint64_t)x, 24);
		y = (int64_t)sext((uint64_t)y, 24);
	}
	t = x * y;
	r = mode & M_HI ? (uint32_t)((uint64_t)t >> 16) : (uint32_t)t;
	if (!(mode & M_MAD))
		return r;
	if (!(mode & M_SAT))
		return (uint32_t)(r + c);
	s = (int64_t)(int32_t)r + (int32_t)c;
	return (uint32_t)(s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s);
}

static const int64_t mul24_imms[] = {
	0, 3, 0x7fffff, 0x800000, 0xffffff, 0x12345678, -1, KEND,
};

static void mul24_and_mad24(void)
{
	static const struct op_case cases[] = {
		{ "mul24.lo.u32 %r8, %r5, %r6;" R8, m_mul24, 0, NULL },
		{ "mul24.hi.u32 %r8, %r5, %r6;" R8, m_mul24, M_HI, NULL },
		{ "mul24.lo.s32 %r8, %r5, %r6;" R8, m_mul24, M_SGN, NULL },
		{ "mul24.hi.s32 %r8, %r5, %r6;" R8, m_mul24, M_HI | M_SGN, NULL },
		{ "mad24.lo.u32 %r8, %r5, %r6, %r7;" R8, m_mul24, M_MAD, NULL },
		{ "mad24.hi.u32 %r8, %r5, %r6, %r7;" R8, m_mul24, M_MAD | M_HI, NULL },
		{ "mad24.lo.s32 %r8, %r5, %r6, %r7;" R8, m_mul24, M_MAD | M_SGN, NULL },
		{ "mad24.hi.s32 %r8, %r5, %r6, %r7;" R8, m_mul24,
		  M_MAD | M_HI | M_SGN, NULL },
		{ "mad24.hi.sat.s32 %r8, %r5, %r6, %r7;" R8, m_mul24,
		  M_MAD | M_HI | M_SGN | M_SAT, NULL },
		{ "mul24.lo.s32 %r8, %r5, $K;" R8, m_mul24, M_SGN | M_BK, mul24_imms },
		{ "mul24.lo.u32 %r8, %r5, $K;" R8, m_mul24, M_BK, mul24_imms },
		{ "mul24.hi.s32 %r8, %r5, $K;" R8, m_mul24, M_HI | M_SGN | M_BK,
		  mul24_imms },
		{ "mad24.lo.s32 %r8, %r5, %r6, $K;" R8, m_mul24,
		  M_MAD | M_SGN | M_CK, mul24_imms },
		{ "mad24.hi.u32 %r6, %r5, %r6, %r6;\n\tcvt.u64.u32 %rd8, %r6;",
		  m_mul24, M_MAD | M_HI | M_CB, NULL },
	};

	RUN_CASES(cases, NMAX);
}

enum { SAD_SGN = 0x100, SAD_BK = 0x200 };

/* mode: the width, and SAD_* */
static uint64_t m_sad(const uint64_t *v, int64_t k, int mode)
{
	unsigned int w = mode & 0xff;
	uint64_t a = v[0], b = mode & SAD_BK ? (uint64_t)k : v[1], diff;

	if (mode & SAD_SGN) {
		int64_t x = (int64_t)sext(a, w), y = (int64_t)sext(b, w);

		diff = x < y ? (uint64_t)y - (uint64_t)x : (uint64_t)x - (uint64_t)y;
	} else {
		a = cut(a, w);
		b = cut(b, w);
		diff = a < b ? b - a : a - b;
	}
	return cut(v[2] + diff, w);
}

static void sad_absolute_differences(void)
{
	static const struct op_case cases[] = {
		{ "sad.u16 %rs3, %rs1, %rs2, %rs4;" RS3, m_sad, 16, NULL },
		{ "sad.s16 %rs3, %rs1, %rs2, %rs4;" RS3, m_sad, 16 | SAD_SGN, NULL },
		{ "sad.u32 %r8, %r5, %r6, %r7;" R8, m_sad, 32, NULL },
		{ "sad.s32 %r8, %r5, %r6, %r7;" R8, m_sad, 32 | SAD_SGN, NULL },
		{ "sad.u64 %rd8, %rd5, %rd6, %rd7;", m_sad, 64, NULL },
		{ "sad.s64 %rd8, %rd5, %rd6, %rd7;", m_sad, 64 | SAD_SGN, NULL },
		{ "sad.s32 %r8, %r5, $K, %r7;" R8, m_sad, 32 | SAD_SGN | SAD_BK,
		  mul24_imms },
		{ "sad.u32 %r7, %r5, %r6, %r7;\n\tcvt.u64.u32 %rd8, %r7;", m_sad, 32, NULL },
	};

	RUN_CASES(cases, NMAX);
}

/* --- bmsk, szext ------------------------------------------------------------- */

enum { BX_CLAMP = 1, BX_SGN = 2, BX_AK = 4, BX_BK = 8 };

/* The PTX ISA's bmsk, step by step. */
static uint32_t bmsk_ref(uint32_t a, uint32_t b, bool clamp)
{
	uint32_t a1 = a & 31, b1 = b & 31, sum = a1 + b1;
	uint32_t mask0 = ~0U << a1, mask1 = sum < 32 ? ~0U << sum : 0;
	bool pos_over = false, width_over = false;

	if (clamp) {
		if (a >= 32) {
			pos_over = true;
			mask0 = 0;
		}
		width_over = b >= 32;
	}
	if (sum >= 32 || pos_over || width_over)
		mask1 = 0;
	else if (!b1)
		mask1 = ~0U;
	return mask0 & ~mask1;
}

/* The PTX ISA's szext, step by step. */
static uint32_t szext_ref(uint32_t a, uint32_t b, bool clamp, bool sgn)
{
	uint32_t b1 = b & 31, mask;
	bool too_large = b >= 32 && clamp, sign;

	mask = too_large ? 0 : ~0U << b1;
	sign = b1 && !too_large && sgn && ((a >> ((b1 - 1) & 31)) & 1);
	return (a & ~mask) | (sign ? mask : 0);
}

static uint64_t m_bmsk(const uint64_t *v, int64_t k, int mode)
{
	return bmsk_ref(mode & BX_AK ? (uint32_t)k : (uint32_t)v[0],
			mode & BX_BK ? (uint32_t)k : (uint32_t)v[1], mode & BX_CLAMP);
}

static uint64_t m_szext(const uint64_t *v, int64_t k, int mode)
{
	return szext_ref((uint32_t)v[0], mode & BX_BK ? (uint32_t)k : (uint32_t)v[1],
			 mode & BX_CLAMP, mode & BX_SGN);
}

static void bmsk_bit_masks(void)
{
	static const struct op_case cases[] = {
		{ "bmsk.wrap.b32 %r8, %r5, %r6;" R8, m_bmsk, 0, NULL },
		{ "bmsk.clamp.b32 %r8, %r5, %r6;" R8, m_bmsk, BX_CLAMP, NULL },
		{ "bmsk.wrap.b32 %r8, $K, %r6;" R8, m_bmsk, BX_AK, shf_counts },
		{ "bmsk.clamp.b32 %r8, %r5, $K;" R8, m_bmsk, BX_CLAMP | BX_BK,
		  shf_counts },
		{ "bmsk.clamp.b32 %r8, $K, $K;" R8, m_bmsk,
		  BX_CLAMP | BX_AK | BX_BK, shf_counts },
		{ "bmsk.wrap.b32 %r8, $K, $K;" R8, m_bmsk, BX_AK | BX_BK,
		  shf_counts },
		{ "bmsk.wrap.b32 %r6, %r5, %r6;\n\tcvt.u64.u32 %rd8, %r6;", m_bmsk, 0, NULL },
	};

	RUN_CASES(cases, NMAX);
}

static void szext_extends(void)
{
	static const struct op_case cases[] = {
		{ "szext.wrap.u32 %r8, %r5, %r6;" R8, m_szext, 0, NULL },
		{ "szext.wrap.s32 %r8, %r5, %r6;" R8, m_szext, BX_SGN, NULL },
		{ "szext.clamp.u32 %r8, %r5, %r6;" R8, m_szext, BX_CLAMP, NULL },
		{ "szext.clamp.s32 %r8, %r5, %r6;" R8, m_szext, BX_CLAMP | BX_SGN, NULL },
		{ "szext.wrap.s32 %r8, %r5, $K;" R8, m_szext, BX_SGN | BX_BK,
		  shf_counts },
		{ "szext.clamp.s32 %r8, %r5, $K;" R8, m_szext,
		  BX_CLAMP | BX_SGN | BX_BK, shf_counts },
		{ "szext.clamp.u32 %r6, %r5, %r6;\n\tcvt.u64.u32 %rd8, %r6;",
		  m_szext, BX_CLAMP, NULL },
	};

	RUN_CASES(cases, NMAX);
}

/* --- dp4a, dp2a -------------------------------------------------------------- */

enum { DP_AS = 1, DP_BS = 2, DP_TWO = 4, DP_HI = 8, DP_CK = 16 };

/* The PTX ISA's dp4a and dp2a: elements extended by their types. */
static uint32_t dp_ref(uint32_t a, uint32_t b, uint32_t c, int mode)
{
	unsigned int i, asz = mode & DP_TWO ? 16 : 8, n = mode & DP_TWO ? 2 : 4;
	unsigned int first = mode & DP_HI ? 2 : 0;
	uint32_t d = c;

	for (i = 0; i < n; i++) {
		uint64_t x = cut(a >> (asz * i), asz), y = cut(b >> (8 * (first + i)), 8);

		if (mode & DP_AS)
			x = sext(x, asz);
		if (mode & DP_BS)
			y = sext(y, 8);
		d += (uint32_t)(x * y);
	}
	return d;
}

static uint64_t m_dp(const uint64_t *v, int64_t k, int mode)
{
	return dp_ref((uint32_t)v[0], (uint32_t)v[1],
		      mode & DP_CK ? (uint32_t)k : (uint32_t)v[2], mode);
}

static void dp4a_dp2a_dot_products(void)
{
#define DP(types, mode) \
	{ "dp4a" types " %r8, %r5, %r6, %r7;" R8, m_dp, mode, NULL }, \
	{ "dp2a.lo" types " %r8, %r5, %r6, %r7;" R8, m_dp, (mode) | DP_TWO, NULL }, \
	{ "dp2a.hi" types " %r8, %r5, %r6, %r7;" R8, m_dp, (mode) | DP_TWO | DP_HI, \
	  NULL }
	static const struct op_case cases[] = {
		DP(".u32.u32", 0), DP(".u32.s32", DP_BS), DP(".s32.u32", DP_AS),
		DP(".s32.s32", DP_AS | DP_BS),
		{ "dp4a.s32.u32 %r8, %r5, %r6, $K;" R8, m_dp, DP_AS | DP_CK,
		  mul24_imms },
		{ "dp2a.hi.u32.s32 %r6, %r5, %r6, %r7;\n\tcvt.u64.u32 %rd8, %r6;",
		  m_dp, DP_BS | DP_TWO | DP_HI, NULL },
	};
#undef DP

	RUN_CASES(cases, NMAX);
}

/* --- vabsdiff4 ----------------------------------------------------------------- */

enum { VA_ADD = 1, VA_CK = 2 };

/* The PTX ISA's vabsdiff4 on unsigned bytes: as bytes, or summed onto c. */
static uint32_t vabsdiff4_ref(uint32_t a, uint32_t b, uint32_t c, bool add)
{
	uint32_t d = 0, i;

	for (i = 0; i < 4; i++) {
		int x = (a >> (8 * i)) & 0xff, y = (b >> (8 * i)) & 0xff;
		uint32_t diff = (uint32_t)abs(x - y);

		d += add ? diff : diff << (8 * i);
	}
	return add ? d + c : d;
}

static uint64_t m_vabsdiff4(const uint64_t *v, int64_t k, int mode)
{
	return vabsdiff4_ref((uint32_t)v[0], (uint32_t)v[1],
			     mode & VA_CK ? (uint32_t)k : (uint32_t)v[2], mode & VA_ADD);
}

static void vabsdiff4_bytes(void)
{
	static const struct op_case cases[] = {
		{ "vabsdiff4.u32.u32.u32 %r8, %r5, %r6, %r7;" R8, m_vabsdiff4, 0, NULL },
		{ "vabsdiff4.u32.u32.u32.add %r8, %r5, %r6, %r7;" R8, m_vabsdiff4,
		  VA_ADD, NULL },
		{ "vabsdiff4.u32.u32.u32.add %r8, %r5, %r6, $K;" R8, m_vabsdiff4,
		  VA_ADD | VA_CK, mul24_imms },
		/* As nvcc writes it: the destination is the merge operand. */
		{ "vabsdiff4.u32.u32.u32 %r7, %r5, %r6, %r7;\n\tcvt.u64.u32 %rd8, %r7;",
		  m_vabsdiff4, 0, NULL },
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

/* --- nvcc's output ------------------------------------------------------------ */

static uint32_t rotl32(uint32_t x, unsigned int k)
{
	return x << k | x >> (32 - k);
}

/* MurmurHash3's mix of three words, as ops.cu computes it. */
static uint32_t murmur3_ref(uint32_t a, uint32_t b, uint32_t c, uint32_t h)
{
	const uint32_t w[3] = { a, b, c };
	int i;

	for (i = 0; i < 3; i++) {
		uint32_t k = w[i] * 0xcc9e2d51u;

		k = rotl32(k, 15) * 0x1b873593u;
		h = rotl32(h ^ k, 13) * 5 + 0xe6546b64u;
	}
	h ^= 12;
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	return h ^ (h >> 16);
}

/* What ops.cu's thread @t should store, given its warp's operands @w. */
static void ops_ref(const uint32_t (*w)[3], unsigned int lane, uint32_t *o)
{
	uint32_t a = w[lane][0], b = w[lane][1], c = w[lane][2], i;
	uint64_t v[3] = { a, b, c }, wide = (uint64_t)(a & 3) << 32 | (b & 1);
	bool all = true;

	o[0] = prmt_ref(a, b, c & 0x7777, 0);	/* __byte_perm ignores bit 3 */
	o[1] = prmt_ref(a, b, 0x5140, 0);
	o[2] = (uint32_t)m_shf(v, 0, 0);
	o[3] = (uint32_t)m_shf(v, 0, SHF_R);
	o[4] = (uint32_t)m_shf(v, 0, SHF_CLAMP);
	o[5] = (uint32_t)m_shf(v, 0, SHF_CLAMP | SHF_R);
	o[6] = rotl32(a, 13);
	o[7] = (a >> (c & 31)) | (a << ((32 - c) & 31));
	o[8] = (uint32_t)m_sad(v, 0, 32 | SAD_SGN);
	o[9] = (uint32_t)m_sad(v, 0, 32);
	o[10] = dp_ref(a, b, c, DP_AS | DP_BS);
	o[11] = dp_ref(a, b, c, 0);
	o[12] = dp_ref(a, b, c, DP_AS | DP_BS | DP_TWO);
	o[13] = dp_ref(a, b, c, DP_TWO | DP_HI);
	o[14] = murmur3_ref(a, b, c, 0x9747b28cu);
	o[15] = prmt_ref(a, b, c, 1);
	o[16] = prmt_ref(a, b, c, 2);
	o[17] = prmt_ref(a, b, c, 6);
	o[18] = (uint32_t)m_slct(v, 0, 32);
	o[19] = (uint32_t)m_slct(v, 0, 32 | SL_F32 | SL_FTZ);
	o[20] = lop3_ref(a, b, c, 0xe8);
	o[21] = (uint32_t)m_mul24(v, 0, M_MAD | M_HI | M_SGN | M_SAT);
	o[22] = (uint32_t)m_mul24(v, 0, 0);
	o[23] = (a & c) == 0;
	o[24] = bmsk_ref(a & 63, b & 63, true);
	o[25] = szext_ref(a, b, false, true);
	o[26] = fpclassify(f32_of(a)) == FP_SUBNORMAL;
	o[27] = o[28] = o[30] = 0;
	for (i = 0; i < 32; i++) {
		o[27] |= (uint32_t)((w[i][0] & 3) == (a & 3)) << i;
		o[30] |= (uint32_t)(((uint64_t)(w[i][0] & 3) << 32 | (w[i][1] & 1)) == wide) << i;
		all &= (w[i][1] & 0x100) == (b & 0x100);
	}
	o[28] = all ? ~0U : 0;
	o[29] = all;
	v[2] = 7;
	o[31] = (uint32_t)m_sad(v, 0, 32 | SAD_SGN);
	o[32] = vabsdiff4_ref(a, b, 0, false);
	o[33] = vabsdiff4_ref(a ^ 0x80808080, b ^ 0x80808080, 0, false);
	o[34] = vabsdiff4_ref(a, b, 0, true);
}

static void nvcc_ops_kernel(void)
{
	enum { T = 512, NOUT = 35 };
	static uint32_t opnds[T][3], res[T][NOUT];
	struct vgpu_range mem[3] = {
		core_range(opnds, sizeof(opnds), false),
		core_range(res, sizeof(res), true), { 0 },
	};
	uint64_t params[2] = { (uintptr_t)res, (uintptr_t)opnds };
	struct vg_jit_image *img = NULL;
	unsigned int t, i, bad = 0;
	char err[256], *ptx = malloc(1 << 20);
	size_t len = 0;
	FILE *fp = fopen(OPS_PTX, "r");

	if (fp)
		len = fread(ptx, 1, 1 << 20, fp);
	if (!fp || !len || len == 1 << 20) {
		TAP_FAIL("cannot read %s", OPS_PTX);
		free(ptx);
		if (fp)
			fclose(fp);
		return;
	}
	fclose(fp);
	if (vg_jit_compile(ptx, len, &img, err, sizeof(err))) {
		TAP_FAIL("refused: %s", err);
		free(ptx);
		return;
	}
	free(ptx);
	make_inputs();
	for (t = 0; t < T; t++)
		for (i = 0; i < 3; i++)
			opnds[t][i] = (uint32_t)in[(t * 37) % NMAX][i];
	/* Warps whose match operands agree: all of warp 1, b's bit 8 in warp 2. */
	for (t = 32; t < 64; t++)
		opnds[t][0] = opnds[32][0];
	for (t = 64; t < 96; t++)
		opnds[t][1] = (opnds[t][1] & ~0x100U) | (opnds[64][1] & 0x100);
	CHECK(core_run(img->insns, img->ninsns, img->kernels[0].f, T / 128, 128,
		       params, mem, NULL) == VGPU_RUN_DONE);
	for (t = 0; t < T; t++) {
		uint32_t want[NOUT];

		ops_ref((const uint32_t (*)[3])opnds[t & ~31U], t & 31, want);
		for (i = 0; i < NOUT; i++) {
			if (res[t][i] == want[i])
				continue;
			if (bad++ < 8)
				TAP_FAIL("thread %u: out[%u] = %#x, want %#x (a=%#x b=%#x c=%#x)",
					 t, i, res[t][i], want[i], opnds[t][0],
					 opnds[t][1], opnds[t][2]);
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
		{ "shf.l.b32 %r1, %r1, %r1, %r1;", "shf.l.b32: missing mode" },
		{ "shf.wrap.b32 %r1, %r1, %r1, %r1;", "shf.wrap.b32: missing direction" },
		{ "shf.l.r.wrap.b32 %r1, %r1, %r1, %r1;",
		  "shf.l.r.wrap.b32: missing direction" },
		{ "lop3.b32 %r1, %r1, %r1, %r1, %r1;",
		  "lop3.b32: immLut must be a constant from 0 to 255" },
		{ "lop3.b32 %r1, %r1, %r1, %r1, 256;",
		  "lop3.b32: immLut must be a constant from 0 to 255" },
		{ "lop3.b32 %r1|%p1, %r1, %r1, %r1, 1;",
		  "lop3.b32: a predicate destination needs .or or .and" },
		{ "lop3.or.b32 %r1, %r1, %r1, %r1, 1, %p1;",
		  "lop3.or.b32: a predicate destination and source are expected" },
		{ "lop3.b32 _, %r1, %r1, %r1, 1;",
		  "lop3.b32: destination must be a register" },
		{ "match.any.sync.b32 %r1|%p1, %r1, -1;",
		  "match.any.sync.b32: only match.all sets a predicate" },
		{ "match.sync.b32 %r1, %r1, -1;", "match.sync.b32: missing mode" },
		{ "match.all.sync.b16 %r1, %h1, -1;",
		  "match.all.sync.b16: unsupported type" },
		{ "slct.u32.u32 %r1, %r1, %r1, %r1;",
		  "slct.u32.u32: the selector must be .s32 or .f32" },
		{ "slct.ftz.u32.s32 %r1, %r1, %r1, %r1;",
		  "slct.ftz.u32.s32: ftz needs an .f32 selector" },
		{ "slct.pred.s32 %p1, %p1, %p1, %r1;", "slct.pred.s32: unsupported type" },
		{ "testp.f32 %p1, %f1;", "testp.f32: missing property" },
		{ "testp.normal.f16 %p1, %h1;", "testp.normal.f16: unsupported type" },
		{ "cnot.f32 %f1, %f1;", "cnot.f32: unsupported type" },
		{ "mul24.s32 %r1, %r1, %r1;", "mul24.s32: missing .hi or .lo" },
		{ "mul24.lo.u64 %rd1, %rd1, %rd1;", "mul24.lo.u64: unsupported type" },
		{ "mad24.lo.sat.s32 %r1, %r1, %r1, %r1;",
		  "mad24.lo.sat.s32: only mad24.hi.s32 saturates" },
		{ "sad.f32 %f1, %f1, %f1, %f1;", "sad.f32: unsupported type" },
		{ "bmsk.b32 %r1, %r1, %r1;", "bmsk.b32: missing mode" },
		{ "szext.wrap.b32 %r1, %r1, %r1;", "szext.wrap.b32: unsupported type" },
		{ "dp4a.u32.b32 %r1, %r1, %r1, %r1;", "dp4a.u32.b32: unsupported type" },
		{ "dp2a.u32.u32 %r1, %r1, %r1, %r1;", "dp2a.u32.u32: missing .lo or .hi" },
		{ "vabsdiff4.s32.u32.u32 %r1, %r1, %r1, %r1;",
		  "vabsdiff4.s32.u32.u32: only .u32.u32.u32 is supported" },
		{ "vabsdiff4.u32.u32.u32.sat %r1, %r1, %r1, %r1;",
		  "vabsdiff4.u32.u32.u32.sat: only .u32.u32.u32 is supported" },
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
	TAP_TEST(shf_funnel_shifts),
	TAP_TEST(lop3_every_table),
	TAP_TEST(slct_selects_on_sign),
	TAP_TEST(testp_float_classes),
	TAP_TEST(cnot_is_logical_not),
	TAP_TEST(mul24_and_mad24),
	TAP_TEST(sad_absolute_differences),
	TAP_TEST(bmsk_bit_masks),
	TAP_TEST(szext_extends),
	TAP_TEST(dp4a_dp2a_dot_products),
	TAP_TEST(vabsdiff4_bytes),
	TAP_TEST(match_any_all),
	TAP_TEST(nvcc_ops_kernel),
	TAP_TEST(malformed_forms_are_refused),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
