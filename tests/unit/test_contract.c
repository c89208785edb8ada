// SPDX-License-Identifier: MIT
/*
 * Plain PTX multiplies and adds, contracted to fmas where ptxas contracts
 * them: each pattern of tests/unit/data/h100_contract.h is JIT-compiled
 * and run by the core over the probe's inputs, and its tally (how many
 * results are the fused form, how many the separate one) must be the
 * line an H100 gave (h100_contract.log). The patterns vgpu does not fuse
 * as ptxas does are listed with the reason and count as skipped; one of
 * them that comes to match passes.
 */
#include <stdio.h>
#include <string.h>

#include "core_run.h"
#include "jit.h"
#include "tap.h"
#include "unit/data/h100_contract.h"

#define LOG "tests/unit/data/h100_contract.log"

static const struct {
	const char *name, *why;
} open_patterns[] = {
	/*
	 * ptxas works on values: the mul still fuses. vgpu's rewrite reads
	 * the sources at the add, so it keeps such a mul apart (compilers'
	 * PTX writes each value once).
	 */
	{ "mul_redefined_src", "a source written again between the mul and its add" },
};

/* The H100's line for pattern @name, or NULL. */
static const char *h100_line(const char *name)
{
	static char lines[NPATS][256];
	static int count = -1;
	int i;

	if (count < 0) {
		FILE *f = fopen(LOG, "r");

		count = 0;
		while (f && count < (int)NPATS && fgets(lines[count], sizeof(lines[0]), f)) {
			lines[count][strcspn(lines[count], "\n")] = 0;
			count++;
		}
		if (f)
			fclose(f);
	}
	for (i = 0; i < count; i++)
		if (!strncmp(lines[i], name, strlen(name)) && lines[i][strlen(name)] == ' ')
			return lines[i];
	return NULL;
}

static const char *open_why(const char *name)
{
	unsigned int i;

	for (i = 0; i < sizeof(open_patterns) / sizeof(open_patterns[0]); i++)
		if (!strcmp(open_patterns[i].name, name))
			return open_patterns[i].why;
	return NULL;
}

/* Runs pattern @p through the JIT and the core: whether it tallies as on an H100. */
static bool pattern_as_on_h100(unsigned int p, char *line, size_t size)
{
	static struct ct_inputs x;
	static float out[NOUT][N];
	static char ptx[8192];
	struct vgpu_range mem[] = {
		core_range(&x, sizeof(x), false),
		core_range(out, sizeof(out), true), { 0 },
	};
	uint64_t params[2] = { (uintptr_t)&x, (uintptr_t)out };
	struct vg_jit_image *img = NULL;
	const char *want = h100_line(pats[p].name);
	char err[160];
	int r;

	ct_make_inputs(&x);
	snprintf(ptx, sizeof(ptx), "%s%sret;\n}\n", HEAD, pats[p].body);
	if (vg_jit_compile(ptx, strlen(ptx), &img, err, sizeof(err))) {
		snprintf(line, size, "%s refused: %s", pats[p].name, err);
		return false;
	}
	memset(out, 0, sizeof(out));
	r = core_run(img->insns, img->ninsns, img->kernels[0].f, N / 128, 128, params,
		     mem, NULL);
	vg_jit_free(img);
	if (r != VGPU_RUN_DONE) {
		snprintf(line, size, "%s did not run to the end", pats[p].name);
		return false;
	}
	ct_tally(p, &x, out, line, size);
	return want && !strcmp(line, want);
}

static void patterns_fuse_as_on_an_h100(void)
{
	char line[256];
	unsigned int p;

	for (p = 0; p < NPATS; p++)
		if (!open_why(pats[p].name) && !pattern_as_on_h100(p, line, sizeof(line)))
			TAP_FAIL("%s\n#   H100: %s", line, h100_line(pats[p].name) ?
				 h100_line(pats[p].name) : "(no line)");
}

/* The patterns not yet fused as ptxas fuses them: skipped, with the reason. */
static void patterns_not_yet(void)
{
	char line[256], why[512] = "";
	unsigned int p;

	for (p = 0; p < NPATS; p++)
		if (open_why(pats[p].name) && !pattern_as_on_h100(p, line, sizeof(line)))
			snprintf(why + strlen(why), sizeof(why) - strlen(why), "%s%s (%s)",
				 why[0] ? "; " : "", pats[p].name, open_why(pats[p].name));
	if (why[0])
		TAP_SKIP("not yet as an H100: %s", why);
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(patterns_fuse_as_on_an_h100),
		TAP_TEST(patterns_not_yet),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
