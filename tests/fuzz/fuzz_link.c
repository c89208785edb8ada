// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the PTX linker behind cuLink*: the input is one to
 * four link inputs separated by FUZZ_LINK_SEP, each PTX text or a fatbin
 * (told apart by its magic, as a program would pass them). They take the
 * device-free path of cuLinkAddData and cuLinkComplete: the fatbin
 * reader, then parse, symbol check, merge and JIT. Refusals must say
 * why and leak nothing; a merged module the JIT compiles must pass the
 * module's verifier (a refusal there is an error users would meet on
 * valid input); a JIT error must map back to an input; and one input the
 * JIT compiles on its own must link to a module of the same kernels.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "fatbin.h"
#include "jit.h"

/* Not PTX text, and not in a fatbin's header. */
#define FUZZ_LINK_SEP "\xff\xfeLINK"
#define FUZZ_LINK_MAX 4
/* The H100's compute capability: what cuLinkCreate takes from it. */
#define FUZZ_LINK_CC 90

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The PTX of one part as cuLinkAddData would take it; NULL if refused. */
static char *part_text(const uint8_t *p, size_t n, size_t *len)
{
	char log[256] = "", *text;

	if (n >= 4 && !memcmp(p, "\x50\xed\x55\xba", 4)) {
		if (vg_fatbin_ptx_sized(p, n, FUZZ_LINK_CC, &text, len, log,
					sizeof(log))) {
			if (text || !log[0])
				abort();
			return NULL;
		}
		return text;
	}
	/* PTX as cuLinkAddFile passes it: the file's bytes and a NUL. */
	text = malloc(n + 1);
	if (!text)
		abort();
	memcpy(text, p, n);
	text[n] = 0;
	*len = strlen(text);
	if (vg_image_kind(text) != VG_IMAGE_PTX) {
		free(text);
		return NULL;
	}
	return text;
}

static void check_program(const struct vg_jit_image *img)
{
	struct vgpu_func *funcs = calloc(img->nkernels, sizeof(*funcs));
	uint8_t *seen = calloc(img->ninsns, 1);
	uint32_t *stack = calloc(img->ninsns, sizeof(*stack)), i;
	struct vgpu_program prog = { img->insns, img->ninsns, funcs,
				     img->nkernels };
	struct vgpu_verdict v;

	if (!funcs || !seen || !stack)
		abort();
	for (i = 0; i < img->nkernels; i++)
		funcs[i] = img->kernels[i].f;
	if (vgpu_isa_verify(&prog, seen, stack, &v)) {
		fprintf(stderr, "verifier: insn %lld: %s\n",
			(long long)v.insn, v.msg);
		abort();
	}
	free(funcs);
	free(seen);
	free(stack);
}

/* Kernels of the single input compiled alone; -1 when the JIT refuses. */
static long alone(const struct vg_link_input *in)
{
	struct vg_jit_image *img = NULL;
	char err[256];
	long n;

	if (vg_jit_compile(in->text, in->len, &img, err, sizeof(err)))
		return -1;
	n = img->nkernels;
	vg_jit_free(img);
	return n;
}

/* Merges the parsed inputs and compiles what the merge gives. */
static void link_all(const struct vg_link_input *in, unsigned int n)
{
	struct vg_jit_image *img = NULL;
	struct vg_link_out out;
	char err[1024] = "", where[1024] = "";
	long kernels = n == 1 ? alone(&in[0]) : -1;

	if (vg_link_check(in, n, err, sizeof(err)) ||
	    vg_link_merge(in, n, &out, err, sizeof(err))) {
		if (!err[0] || kernels >= 0) {
			fprintf(stderr, "%s\n", err);
			abort();	/* one input that compiles links */
		}
		return;
	}
	if (vg_jit_compile(out.text, out.len, &img, err, sizeof(err))) {
		vg_link_where(&out, in, err, where, sizeof(where));
		if (!err[0] || !where[0] || kernels >= 0) {
			fprintf(stderr, "%s\n", where);
			abort();	/* nor may its merged text fail */
		}
		vg_link_out_free(&out);
		return;
	}
	check_program(img);
	if (kernels >= 0 && img->nkernels != kernels)
		abort();
	vg_jit_free(img);
	vg_link_out_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vg_link_input in[FUZZ_LINK_MAX];
	size_t sep = sizeof(FUZZ_LINK_SEP) - 1;
	const uint8_t *p = data, *end = data + size, *cut;
	unsigned int n = 0, i;
	bool ok = true;
	char name[16], err[1024];

	memset(in, 0, sizeof(in));
	while (n < FUZZ_LINK_MAX && ok) {
		cut = n + 1 < FUZZ_LINK_MAX ?
			memmem(p, (size_t)(end - p), FUZZ_LINK_SEP, sep) : NULL;
		if (!cut)
			cut = end;
		snprintf(name, sizeof(name), "in%u.ptx", n);
		in[n].name = strdup(name);
		in[n].text = part_text(p, (size_t)(cut - p), &in[n].len);
		err[0] = 0;
		if (!in[n].name)
			abort();
		ok = in[n].text && !vg_link_parse(&in[n], err, sizeof(err));
		if (in[n].text && !ok && !err[0])
			abort();	/* a parse error says where */
		n++;
		if (cut == end)
			break;
		p = cut + sep;
	}
	if (ok)
		link_all(in, n);
	for (i = 0; i < n; i++) {
		vg_link_unparse(&in[i]);
		free(in[i].text);
		free(in[i].name);
	}
	return 0;
}
