// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the readers of module images (cuModuleLoadData's
 * and cuLinkAddData's): fatbin containers, the wrappers that point at
 * them, and vgpu's compiled modules. The input is the image's bytes. A
 * refusal must come with a reason and leak nothing; PTX taken from a
 * stored entry must be bytes of the input, and PTX inflated from a
 * compressed one no longer than the entry says; the sized reader and the
 * unsized one (the driver API passes no length) must agree wherever the
 * header fits the input; a compiled module that loads must save and load
 * again to the same bytes.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "fatbin.h"
#include "jit_cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Devices whose PTX choice differs: plain, arch- and family-specific. */
static const unsigned int ccs[] = { 75, 90, 100 };

/* The largest global block a compiled module is loaded with here. */
#define FUZZ_GLOBALS_MAX (64ULL << 20)

static uint64_t le(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * The oracle's own walk over the entries (the container's layout as
 * ptx-notes describes it, not the reader's code): the largest size any
 * compressed entry claims once inflated, 0 when none is compressed.
 */
static uint64_t packed_max(const uint8_t *p, size_t size)
{
	uint64_t off, end, hdr, len, max = 0;

	if (size < 16)
		return 0;
	off = le(p + 6, 2);
	end = le(p + 8, 8);
	if (end > size || off > size - end)
		end = size;
	else
		end += off;
	while (off + 0x40 <= end) {
		hdr = le(p + off + 4, 4);
		len = le(p + off + 8, 8);
		if (le(p + off + 0x28, 8) & 0xa000 && le(p + off + 0x38, 8) > max)
			max = le(p + off + 0x38, 8);
		if (hdr < 0x40 || hdr > end - off || len > end - off - hdr)
			break;
		off += hdr + len;
	}
	return max;
}

/* What one reading gave, to compare two of them. */
struct reading {
	int r;
	char *ptx;
	size_t len;
	char log[256];
};

static void check_reading(const struct reading *g, const uint8_t *data,
			  size_t size)
{
	if (g->r) {
		if (g->ptx || !g->log[0])
			abort();	/* a refusal says why and gives nothing */
		return;
	}
	if (!g->ptx || strlen(g->ptx) != g->len)
		abort();
	if (!memmem(data, size, g->ptx, g->len) && g->len > packed_max(data, size))
		abort();	/* neither stored here nor inflated from here */
}

/* Does the container's header claim no more than @size bytes? */
static bool header_fits(const uint8_t *p, size_t size)
{
	uint64_t hdr, payload;

	if (size < 16)
		return false;
	hdr = le(p + 6, 2);
	payload = le(p + 8, 8);
	return hdr <= size && payload <= size - hdr;
}

static void same(const struct reading *a, const struct reading *b)
{
	if (a->r != b->r || a->len != b->len ||
	    (a->ptx && memcmp(a->ptx, b->ptx, a->len)))
		abort();
}

/*
 * The container at @fb (@size bytes, its own allocation so that the
 * sanitizer sees its end), through both entry points; @image is what the
 * unsized one gets (the container, or a wrapper pointing at it).
 */
static void read_fatbin(const uint8_t *fb, size_t size, const void *image,
			enum vg_image_kind kind)
{
	struct reading sized, unsized;
	size_t i;

	for (i = 0; i < sizeof(ccs) / sizeof(ccs[0]); i++) {
		sized.log[0] = 0;
		sized.r = vg_fatbin_ptx_sized(fb, size, ccs[i], &sized.ptx,
					      &sized.len, sized.log,
					      sizeof(sized.log));
		check_reading(&sized, fb, size);
		if (header_fits(fb, size)) {
			unsized.log[0] = 0;
			unsized.r = vg_fatbin_ptx(image, kind, ccs[i],
						  &unsized.ptx, &unsized.len,
						  unsized.log, sizeof(unsized.log));
			check_reading(&unsized, fb, size);
			same(&sized, &unsized);
			free(unsized.ptx);
		}
		free(sized.ptx);
	}
}

/* A wrapper made of the input's first 24 bytes, around the rest. */
static void read_wrapper(const uint8_t *data, size_t size)
{
	struct vg_fatbin_wrapper w;
	size_t n = size - sizeof(w);
	uint8_t *fb = malloc(n ? n : 1);

	if (!fb)
		abort();
	memcpy(&w, data, sizeof(w));
	memcpy(fb, data + sizeof(w), n);
	w.data = fb;
	if (w.version == 1 || w.version == 2) {
		read_fatbin(fb, n, &w, VG_IMAGE_WRAPPER);
	} else {
		char *ptx = NULL, log[256] = "";
		size_t len;

		if (vg_fatbin_ptx(&w, VG_IMAGE_WRAPPER, 90, &ptx, &len, log,
				  sizeof(log)) != VG_FATBIN_BAD || ptx || !log[0])
			abort();
	}
	free(fb);
}

/*
 * vg_imgfile's size (at 8) and checksum (at 16) set to fit @p, with the
 * reader's hash, so that mutations get past them to the body.
 */
static void seal_module(uint8_t *p, size_t size)
{
	uint64_t v = size, h;

	memcpy(p + 8, &v, sizeof(v));
	h = vg_hash64(p, 16, 0x76677075);
	h = vg_hash64(p + 24, size - 24, h);
	memcpy(p + 16, &h, sizeof(h));
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
	/* The kernel's verifier has the last word on a module: it must not
	 * crash on one, whatever it says of it. */
	vgpu_isa_verify(&prog, seen, stack, &v);
	free(funcs);
	free(seen);
	free(stack);
}

/* Loads @p, a compiled module of @size bytes; saves and loads it again. */
static void read_module(const uint8_t *p, size_t size)
{
	struct vg_jit_image *img = NULL, *again = NULL;
	unsigned char *out, *out2;
	size_t len, len2;
	char err[256] = "";

	if (vg_modfile_load(p, size, &img, err, sizeof(err))) {
		if (img || !err[0])
			abort();
		return;
	}
	if (vg_image_file_size(p) != size)
		abort();
	check_program(img);
	if (vg_modfile_save(img, &out, &len))
		abort();
	if (vg_modfile_load(out, len, &again, err, sizeof(err)))
		abort();	/* what was read can be written and read back */
	if (vg_modfile_save(again, &out2, &len2) || len2 != len ||
	    memcmp(out, out2, len))
		abort();
	free(out);
	free(out2);
	vg_jit_free(again);
	vg_jit_free(img);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size + 1);
	enum vg_image_kind kind;

	if (!copy)
		abort();
	memcpy(copy, data, size);
	copy[size] = 0;	/* the kind is told as cuModuleLoadData tells it */
	kind = vg_image_kind(copy);
	switch (kind) {
	case VG_IMAGE_FATBIN:
		read_fatbin(data, size, data, kind);
		break;
	case VG_IMAGE_WRAPPER:
		if (size >= sizeof(struct vg_fatbin_wrapper))
			read_wrapper(data, size);
		break;
	case VG_IMAGE_VGPU:
		/*
		 * A whole module may rightly claim gigabytes of zeroed
		 * globals, which the reader then allocates: past what
		 * the fuzzer lets one input take, and no finding.
		 */
		if (size >= VG_IMGFILE_HDR && le(data + 32, 8) > FUZZ_GLOBALS_MAX)
			break;
		read_module(data, size);
		if (size >= VG_IMGFILE_HDR) {
			memcpy(copy, data, size);
			seal_module(copy, size);
			read_module(copy, size);
		}
		break;
	default:
		/* Any bytes as a container: refused, with a reason. */
		read_fatbin(data, size, data, VG_IMAGE_FATBIN);
		break;
	}
	free(copy);
	return 0;
}
