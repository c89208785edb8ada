// SPDX-License-Identifier: MIT
/*
 * Floating-point instructions against an H100, bit for bit: the JIT and
 * the interpreter run each instruction of tests/unit/data/h100_fp_corners.cu
 * on the inputs that probe gave the H100, and the results must be the
 * H100's (tests/unit/data/h100_fp_corners.log.gz). Covered: abs and neg
 * (NaN in, the canonical NaN out), saturation, IEEE sqrt, rcp and div,
 * min and max, add and mul with ftz and sat, and the conversions between
 * f16, f32 and f64 with NaN payloads, and the approximate instructions
 * (sin, cos, ex2, lg2, rcp, rsqrt, sqrt, div and tanh .approx, div.full),
 * which core/mufu.c computes as the H100's special-function unit does.
 *
 * Beyond those cases, the H100 computed each approximate instruction on
 * all 2^32 inputs (tests/unit/data/h100_mufu.cu) and its results are kept
 * as a digest per block of 2^22 inputs (h100_mufu_digest.txt.gz; there
 * vgpu's core matched every result, h100_mufu.log). The core must give
 * the same digests: for the blocks of zeros and subnormals, of the
 * binades around 1, 2^-7 and 4 of either sign and of infinities and NaNs
 * here, and for every block with VGPU_FP_ALL_BLOCKS=1 in the environment
 * (about five minutes per instruction on one CPU).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core_run.h"
#include "fp.h"
#include "jit.h"
#include "tap.h"
#include "fp_h100_cases.h"

#define DIGESTS "tests/unit/data/h100_mufu_digest.txt.gz"

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
		if (bad < 3)
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
		bad = run(&(struct fp_case){ c->name, 1, 0, c->body }, j);
		CHECK(bad == 0);
	}
}

/* FNV-1a 64 over the bytes of @n result words, as the probe digests them. */
static uint64_t fnv(const uint32_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;
	int k;

	for (i = 0; i < n; i++)
		for (k = 0; k < 4; k++) {
			h ^= (p[i] >> (8 * k)) & 0xff;
			h *= 0x100000001b3ULL;
		}
	return h;
}

/* The instructions the probe digested, as the JIT lowers each. */
static const struct digested {
	const char *name;
	uint8_t op, mod, flags;
} digested[] = {
	{ "rcp_ftz", VGPU_OP_RCP, VGPU_RND_APPROX, VGPU_IF_FTZ },
	{ "rcp", VGPU_OP_RCP, VGPU_RND_APPROX, 0 },
	{ "rsqrt_ftz", VGPU_OP_RSQRT, 0, VGPU_IF_FTZ },
	{ "rsqrt", VGPU_OP_RSQRT, 0, 0 },
	{ "sqrt_ftz", VGPU_OP_SQRT, VGPU_RND_APPROX, VGPU_IF_FTZ },
	{ "sqrt", VGPU_OP_SQRT, VGPU_RND_APPROX, 0 },
	{ "ex2_ftz", VGPU_OP_EX2, 0, VGPU_IF_FTZ },
	{ "ex2", VGPU_OP_EX2, 0, 0 },
	{ "lg2_ftz", VGPU_OP_LG2, 0, VGPU_IF_FTZ },
	{ "lg2", VGPU_OP_LG2, 0, 0 },
	{ "sin", VGPU_OP_SIN, 0, 0 },
	{ "cos", VGPU_OP_COS, 0, 0 },
	{ "tanh", VGPU_OP_TANH, 0, 0 },
	{ "div", VGPU_OP_DIV, VGPU_RND_APPROX, 0 },
	{ "div_ftz", VGPU_OP_DIV, VGPU_RND_APPROX, VGPU_IF_FTZ },
	{ "div_full", VGPU_OP_DIV, VGPU_RND_FULL, 0 },
	{ "div_full_ftz", VGPU_OP_DIV, VGPU_RND_FULL, VGPU_IF_FTZ },
};

/*
 * Blocks of 2^22 inputs (bits >> 22) checked on every run: zeros and
 * subnormals, [0.5, 0.75), [1, 1.5), [4, 6) and [2^-7, 1.5 * 2^-7) of
 * either sign, infinities and NaNs. Division's blocks are pairs of the
 * probe's sequence: the first two.
 */
static const unsigned int blocks[] = {
	0x000, 0x0fc, 0x0fe, 0x102, 0x0f0, 0x1fe,
	0x200, 0x2fc, 0x2fe, 0x302, 0x2f0, 0x3fe,
};

/* The probe's xorshift sequence of division operands: a, then b. */
static uint32_t xorshift(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* @d's results on block @blk, through the core, digested. */
static uint64_t core_digest(const struct digested *d, unsigned int blk)
{
	static uint32_t res[1u << 22];
	static uint32_t seq = 0x9e3779b9U;
	static unsigned int seq_at;
	struct vgpu_insn x = {
		.op = d->op, .type = VGPU_T_F32, .mod = d->mod,
		.flags = d->flags, .dst = 2, .a = 0, .b = 1,
	};
	u64 regs[3 * VGPU_WARP];
	uint32_t i;
	int l;

	if (d->op == VGPU_OP_DIV && blk < seq_at) {
		seq = 0x9e3779b9U;	/* the sequence again from its start */
		seq_at = 0;
	}
	for (; d->op == VGPU_OP_DIV && seq_at < blk; seq_at++)
		for (i = 0; i < 2u << 22; i++)
			xorshift(&seq);
	for (i = 0; i < 1u << 22; i += VGPU_WARP) {
		for (l = 0; l < VGPU_WARP; l++) {
			if (d->op == VGPU_OP_DIV) {
				regs[l] = xorshift(&seq);
				regs[VGPU_WARP + l] = xorshift(&seq);
			} else {
				regs[l] = ((uint64_t)blk << 22) + i + l;
			}
		}
		if (d->op == VGPU_OP_DIV)
			vgpu_fp_alu(regs, &x, ~0U);
		else
			vgpu_fp_func(regs, &x, ~0U);
		for (l = 0; l < VGPU_WARP; l++)
			res[i + l] = (uint32_t)regs[2 * VGPU_WARP + l];
	}
	if (d->op == VGPU_OP_DIV)
		seq_at++;
	return fnv(res, 1u << 22);
}

static bool block_checked(const struct digested *d, unsigned int blk)
{
	const char *all = getenv("VGPU_FP_ALL_BLOCKS");
	size_t i;

	if (all && !strcmp(all, "1")) {
		alarm(0);	/* hours, not tap_run()'s minute */
		return true;
	}
	if (d->op == VGPU_OP_DIV)
		return blk < 2;
	for (i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++)
		if (blocks[i] == blk)
			return true;
	return false;
}

static void whole_range_digests(void)
{
	char line[128], cmd[256], name[32];
	unsigned int blk, checked = 0, seen[sizeof(digested) / sizeof(digested[0])] = { 0 };
	unsigned long long want;
	size_t i;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "gzip -dc %s", DIGESTS);
	f = popen(cmd, "r");
	if (!f) {
		TAP_FAIL("cannot read %s", DIGESTS);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%31s %x %llx", name, &blk, &want) != 3) {
			TAP_FAIL("bad line in %s: %s", DIGESTS, line);
			continue;
		}
		for (i = 0; i < sizeof(digested) / sizeof(digested[0]); i++)
			if (!strcmp(digested[i].name, name))
				break;
		if (i == sizeof(digested) / sizeof(digested[0])) {
			TAP_FAIL("unknown instruction %s in %s", name, DIGESTS);
			continue;
		}
		seen[i]++;
		if (!block_checked(&digested[i], blk))
			continue;
		checked++;
		if (core_digest(&digested[i], blk) != want)
			TAP_FAIL("%s: block %#x (inputs %#x...) differs from the H100's",
				 name, blk, blk << 22);
	}
	pclose(f);
	for (i = 0; i < sizeof(digested) / sizeof(digested[0]); i++)
		CHECK(seen[i] == (digested[i].op == VGPU_OP_DIV ? 16 : 1024));
	printf("# %u blocks of 2^22 results digested as the H100's\n", checked);
	CHECK(checked >= 12 * 13 + 2 * 4);
}

static const struct tap_test tests[] = {
	TAP_TEST(exact_results),
	TAP_TEST(sin_cos_of_huge_arguments),
	TAP_TEST(whole_range_digests),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
