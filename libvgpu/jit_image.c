// SPDX-License-Identifier: MIT
/*
 * vgpu's compiled-module format: a JIT image (struct vg_jit_image) as
 * bytes and back. The reader trusts nothing: a file may be truncated,
 * corrupt or crafted, and a bad size must fail the load, not libvgpu.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fatbin.h"
#include "jit_cache.h"

/* The header; the sections follow it, each padded to 8 bytes. */
struct vg_imgfile {
	char magic[8];
	uint64_t size;		/* the whole file */
	uint64_t checksum;	/* vg_imgfile_sum() */
	uint64_t key_len;
	uint64_t global_bytes;
	/* Bytes of the global block stored; the rest is 0. */
	uint64_t init_bytes;
	uint64_t printf_off;
	uint32_t ninsns, nkernels, nvars, nrelocs;
	uint32_t flags;
	uint32_t nfiles;	/* with VG_IMGFILE_LINES */
};

#define VG_IMGFILE_PRINTF 1u
/* A line per instruction (struct vg_jit_src), then the file names. */
#define VG_IMGFILE_LINES 2u
/*
 * Data relocations (vg_jit_image.data_relocs), last: their count as a
 * uint64_t, then the offsets.
 */
#define VG_IMGFILE_DATA_RELOCS 4u
#define VG_FILES_MAX 4096u

/* Each kernel: this, its parameters, then its name. */
struct vg_imgfile_kernel {
	struct vgpu_func f;
	uint32_t nparams;
	uint32_t ptx_regs;
	uint32_t name_len;
	uint32_t flags;		/* VG_IMGKERNEL_* */
};

#define VG_IMGKERNEL_PRINTS 1u

/* Each variable: this, then its name. */
struct vg_imgfile_var {
	uint64_t offset;
	uint64_t size;
	uint32_t flags;		/* VG_IMGVAR_*: 0 for __device__ */
	uint32_t name_len;
};

#define VG_IMGVAR_CONST 1u
#define VG_IMGVAR_MANAGED 2u
#define VG_IMGVAR_REF_SHIFT 2	/* bits 2-3: vg_jit_var.ref */

_Static_assert(sizeof(struct vg_imgfile) == VG_IMGFILE_HDR, "header size");
_Static_assert(sizeof(struct vg_imgfile_kernel) == 48, "kernel record");
_Static_assert(sizeof(struct vg_imgfile_var) == 24, "variable record");

#define VG_NAME_MAX (64u << 10)
#define VG_VARS_MAX (1u << 20)

/* --- hashing ----------------------------------------------------------- */

static uint64_t vg_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A word at a time: fast enough to check a 32 MiB program at load. */
uint64_t vg_hash64(const void *p, size_t len, uint64_t seed)
{
	const unsigned char *b = p;
	uint64_t h = vg_mix64(seed ^ (len * 0x9e3779b97f4a7c15ULL)), w;

	for (; len >= 8; b += 8, len -= 8) {
		memcpy(&w, b, 8);
		h = (h ^ vg_mix64(w + 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;
	}
	w = 0;
	memcpy(&w, b, len);
	return vg_mix64(h ^ vg_mix64(w ^ 0x5851f42d4c957f2dULL));
}

/* Everything but the checksum field itself. */
static uint64_t vg_imgfile_sum(const unsigned char *buf, size_t len)
{
	size_t skip = offsetof(struct vg_imgfile, checksum);
	size_t after = skip + sizeof(uint64_t);
	uint64_t h = vg_hash64(buf, skip, 0x76677075);	/* "vgpu" */

	return vg_hash64(buf + after, len - after, h);
}

static size_t vg_pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* --- writing ----------------------------------------------------------- */

struct vg_out {
	unsigned char *p;
	size_t off;
};

static void vg_put(struct vg_out *o, const void *src, size_t n)
{
	if (n)
		memcpy(o->p + o->off, src, n);
	o->off += vg_pad8(n);	/* the buffer is zeroed: padding is 0 */
}

static uint64_t vg_init_bytes(const struct vg_jit_image *img)
{
	uint64_t n = img->global_bytes;

	while (n && !img->globals[n - 1])
		n--;
	return n;
}

int vg_image_save(const struct vg_jit_image *img, const char *magic,
		  const void *key, size_t key_len, unsigned char **out,
		  size_t *len)
{
	struct vg_imgfile h = { 0 };
	struct vg_out o = { 0 };
	size_t size;
	uint32_t i;

	*out = NULL;
	*len = 0;
	memcpy(h.magic, magic, sizeof(h.magic));
	h.key_len = key_len;
	h.global_bytes = img->global_bytes;
	h.init_bytes = vg_init_bytes(img);
	h.printf_off = img->has_printf ? img->printf_off : 0;
	h.ninsns = img->ninsns;
	h.nkernels = img->nkernels;
	h.nvars = img->nvars;
	h.nrelocs = img->nrelocs;
	h.flags = (img->has_printf ? VG_IMGFILE_PRINTF : 0) |
		  (img->src ? VG_IMGFILE_LINES : 0) |
		  (img->ndata_relocs ? VG_IMGFILE_DATA_RELOCS : 0);
	h.nfiles = img->src ? img->nfiles : 0;
	size = sizeof(h) + vg_pad8(key_len) +
		vg_pad8((size_t)img->ninsns * sizeof(struct vgpu_insn)) +
		vg_pad8((size_t)img->nrelocs * sizeof(uint32_t)) +
		vg_pad8(h.init_bytes);
	for (i = 0; i < img->nkernels; i++)
		size += sizeof(struct vg_imgfile_kernel) +
			(size_t)img->kernels[i].nparams * sizeof(struct vg_jit_param) +
			vg_pad8(strlen(img->kernels[i].name));
	for (i = 0; i < img->nvars; i++)
		size += sizeof(struct vg_imgfile_var) +
			vg_pad8(strlen(img->vars[i].name));
	if (img->src) {
		size += (size_t)img->ninsns * sizeof(struct vg_jit_src);
		for (i = 0; i < img->nfiles; i++)
			size += 8 + vg_pad8(strlen(img->files[i]));
	}
	if (img->ndata_relocs)
		size += 8 + (size_t)img->ndata_relocs * sizeof(uint64_t);
	o.p = calloc(1, size);
	if (!o.p)
		return -1;
	h.size = size;
	vg_put(&o, &h, sizeof(h));
	vg_put(&o, key, key_len);
	vg_put(&o, img->insns, (size_t)img->ninsns * sizeof(struct vgpu_insn));
	for (i = 0; i < img->nkernels; i++) {
		const struct vg_jit_kernel *k = &img->kernels[i];
		struct vg_imgfile_kernel r = {
			.f = k->f, .nparams = k->nparams, .ptx_regs = k->ptx_regs,
			.name_len = (uint32_t)strlen(k->name),
			.flags = k->prints ? VG_IMGKERNEL_PRINTS : 0,
		};

		vg_put(&o, &r, sizeof(r));
		vg_put(&o, k->params, (size_t)k->nparams * sizeof(*k->params));
		vg_put(&o, k->name, r.name_len);
	}
	for (i = 0; i < img->nvars; i++) {
		const struct vg_jit_var *v = &img->vars[i];
		struct vg_imgfile_var r = {
			.offset = v->offset, .size = v->size,
			.flags = (v->is_const ? VG_IMGVAR_CONST : 0) |
				 (v->managed ? VG_IMGVAR_MANAGED : 0) |
				 (uint32_t)v->ref << VG_IMGVAR_REF_SHIFT,
			.name_len = (uint32_t)strlen(v->name),
		};

		vg_put(&o, &r, sizeof(r));
		vg_put(&o, v->name, r.name_len);
	}
	vg_put(&o, img->relocs, (size_t)img->nrelocs * sizeof(uint32_t));
	vg_put(&o, img->globals, h.init_bytes);
	if (img->src) {
		vg_put(&o, img->src, (size_t)img->ninsns * sizeof(*img->src));
		for (i = 0; i < img->nfiles; i++) {
			uint64_t n = strlen(img->files[i]);

			vg_put(&o, &n, sizeof(n));
			vg_put(&o, img->files[i], n);
		}
	}
	if (img->ndata_relocs) {
		uint64_t n = img->ndata_relocs;

		vg_put(&o, &n, sizeof(n));
		vg_put(&o, img->data_relocs, n * sizeof(uint64_t));
	}
	h.checksum = vg_imgfile_sum(o.p, size);
	memcpy(o.p + offsetof(struct vg_imgfile, checksum), &h.checksum,
	       sizeof(h.checksum));
	*out = o.p;
	*len = size;
	return 0;
}

/* --- reading ----------------------------------------------------------- */

struct vg_in {
	const unsigned char *p;
	size_t len, off;
	char *err;
	size_t err_len;
	bool failed;
};

static void vg_bad(struct vg_in *in, const char *what, uint64_t v)
{
	if (in->failed)
		return;
	in->failed = true;
	if (in->err_len)
		snprintf(in->err, in->err_len, "vgpu module: %s (%llu)", what,
			 (unsigned long long)v);
}

/* The next @n bytes (padded), or NULL past the end. */
static const void *vg_take(struct vg_in *in, uint64_t n)
{
	const void *p;

	if (in->failed)
		return NULL;
	if (n > in->len - in->off || vg_pad8(n) > in->len - in->off) {
		vg_bad(in, "truncated at byte", in->off);
		return NULL;
	}
	p = in->p + in->off;
	in->off += vg_pad8(n);
	return p;
}

/* A name of @n bytes: not empty, no NUL inside. */
static char *vg_take_name(struct vg_in *in, uint32_t n)
{
	const char *s = n && n <= VG_NAME_MAX ? vg_take(in, n) : NULL;
	char *name;

	if (!s || memchr(s, 0, n)) {
		vg_bad(in, "bad name length", n);
		return NULL;
	}
	name = malloc((size_t)n + 1);
	if (!name) {
		vg_bad(in, "out of memory for a name of bytes", n);
		return NULL;
	}
	memcpy(name, s, n);
	name[n] = 0;
	return name;
}

/* Limits of the ISA (the kernel's verifier checks them again). */
static bool vg_func_ok(const struct vgpu_func *f, uint32_t ninsns)
{
	return f->entry < ninsns && f->nregs >= 1 && f->nregs <= VGPU_MAX_REGS &&
		f->npreds <= VGPU_MAX_PREDS &&
		f->param_bytes <= VGPU_MAX_PARAM_BYTES &&
		f->shared_bytes <= VGPU_MAX_SHARED_BYTES &&
		f->local_bytes <= VGPU_MAX_LOCAL_BYTES &&
		f->max_threads <= 1024 && !f->pad;
}

static void vg_read_kernel(struct vg_in *in, struct vg_jit_kernel *k,
			   uint32_t ninsns)
{
	const struct vg_imgfile_kernel *r = vg_take(in, sizeof(*r));
	const struct vg_jit_param *ps;
	uint32_t i;

	if (!r)
		return;
	if (!vg_func_ok(&r->f, ninsns) || (r->flags & ~VG_IMGKERNEL_PRINTS) ||
	    r->nparams > r->f.param_bytes) {
		vg_bad(in, "bad kernel record at byte", in->off - sizeof(*r));
		return;
	}
	k->f = r->f;
	k->ptx_regs = r->ptx_regs;
	k->prints = r->flags & VG_IMGKERNEL_PRINTS;
	ps = vg_take(in, (uint64_t)r->nparams * sizeof(*ps));
	if (!ps)
		return;
	for (i = 0; i < r->nparams; i++)
		if (!ps[i].size || ps[i].offset > r->f.param_bytes ||
		    ps[i].size > r->f.param_bytes - ps[i].offset) {
			vg_bad(in, "parameter outside the parameter block", i);
			return;
		}
	k->params = malloc(r->nparams ? r->nparams * sizeof(*ps) : 1);
	if (!k->params) {
		vg_bad(in, "out of memory for parameters", r->nparams);
		return;
	}
	memcpy(k->params, ps, r->nparams * sizeof(*ps));
	k->nparams = r->nparams;
	k->name = vg_take_name(in, r->name_len);
}

static void vg_read_var(struct vg_in *in, struct vg_jit_var *v,
			uint64_t global_bytes)
{
	const struct vg_imgfile_var *r = vg_take(in, sizeof(*r));

	if (!r)
		return;
	if (r->offset > global_bytes || r->size > global_bytes - r->offset) {
		vg_bad(in, "variable outside the global block at byte",
		       in->off - sizeof(*r));
		return;
	}
	if ((r->flags != 0 && r->flags != VG_IMGVAR_CONST &&
	     r->flags != VG_IMGVAR_MANAGED &&
	     (r->flags & ~(3u << VG_IMGVAR_REF_SHIFT))) ||
	    ((r->flags & VG_IMGVAR_MANAGED) &&
	     r->size > VG_JIT_MANAGED_MAX_BYTES)) {
		vg_bad(in, "bad variable flags at byte", in->off - sizeof(*r));
		return;
	}
	v->offset = r->offset;
	v->size = r->size;
	v->is_const = r->flags == VG_IMGVAR_CONST;
	v->managed = r->flags == VG_IMGVAR_MANAGED;
	v->ref = (uint8_t)(r->flags >> VG_IMGVAR_REF_SHIFT & 3);
	v->name = vg_take_name(in, r->name_len);
}

static void vg_check_header(struct vg_in *in, const struct vg_imgfile *h)
{
	if (h->size != in->len)
		vg_bad(in, "size does not match the file", h->size);
	else if (vg_imgfile_sum(in->p, in->len) != h->checksum)
		vg_bad(in, "checksum mismatch over bytes", in->len);
	else if (!h->ninsns || h->ninsns > VGPU_MAX_INSNS)
		vg_bad(in, "bad instruction count", h->ninsns);
	else if (!h->nkernels || h->nkernels > h->ninsns)
		vg_bad(in, "bad kernel count", h->nkernels);
	else if (h->nvars > VG_VARS_MAX)
		vg_bad(in, "bad variable count", h->nvars);
	else if (h->nrelocs > h->ninsns)
		vg_bad(in, "bad relocation count", h->nrelocs);
	else if (h->global_bytes > VG_JIT_GLOBAL_MAX_BYTES ||
		 h->init_bytes > h->global_bytes)
		vg_bad(in, "bad global block size", h->global_bytes);
	else if (h->flags & ~(VG_IMGFILE_PRINTF | VG_IMGFILE_LINES |
			      VG_IMGFILE_DATA_RELOCS))
		vg_bad(in, "unknown flags", h->flags);
	else if (h->nfiles > VG_FILES_MAX ||
		 (h->nfiles && !(h->flags & VG_IMGFILE_LINES)))
		vg_bad(in, "bad file count", h->nfiles);
	else if ((h->flags & VG_IMGFILE_PRINTF) &&
		 (h->printf_off % 8 ||
		  h->printf_off > h->global_bytes ||
		  h->global_bytes - h->printf_off < 8))
		vg_bad(in, "printf FIFO address outside the global block at",
		       h->printf_off);
}

/* The line table and the file names it points into. */
static void vg_read_lines(struct vg_in *in, const struct vg_imgfile *h,
			  struct vg_jit_image *img)
{
	size_t n = (size_t)h->ninsns * sizeof(struct vg_jit_src);
	const void *src = vg_take(in, n);
	uint32_t i;

	img->src = malloc(n);
	img->files = calloc(h->nfiles ? h->nfiles : 1, sizeof(char *));
	if (!img->src || !img->files || !src) {
		if (!in->failed)
			vg_bad(in, "out of memory for lines", h->ninsns);
		return;
	}
	memcpy(img->src, src, n);
	for (i = 0; i < h->ninsns; i++)
		if (img->src[i].file > h->nfiles) {
			vg_bad(in, "line of a missing file", img->src[i].file);
			return;
		}
	for (i = 0; i < h->nfiles && !in->failed; i++) {
		const uint64_t *len = vg_take(in, sizeof(*len));

		if (!len || *len > VG_NAME_MAX) {
			vg_bad(in, "bad file name length", len ? *len : 0);
			return;
		}
		img->files[img->nfiles] = vg_take_name(in, (uint32_t)*len);
		if (img->files[img->nfiles])
			img->nfiles++;
	}
}

/* Each relocation is a whole 64-bit value inside the global block. */
static void vg_read_data_relocs(struct vg_in *in, const struct vg_imgfile *h,
				struct vg_jit_image *img)
{
	const uint64_t *n = vg_take(in, sizeof(*n));
	const void *offs;
	uint32_t i;

	if (!n || !*n || *n > h->global_bytes / 8) {
		vg_bad(in, "bad data relocation count", n ? *n : 0);
		return;
	}
	offs = vg_take(in, *n * sizeof(uint64_t));
	img->data_relocs = malloc(*n * sizeof(uint64_t));
	if (!offs || !img->data_relocs) {
		if (!in->failed)
			vg_bad(in, "out of memory for data relocations", *n);
		return;
	}
	memcpy(img->data_relocs, offs, *n * sizeof(uint64_t));
	img->ndata_relocs = (uint32_t)*n;
	for (i = 0; i < img->ndata_relocs; i++)
		if (img->data_relocs[i] > h->global_bytes - 8) {
			vg_bad(in, "data relocation outside the global block at",
			       img->data_relocs[i]);
			return;
		}
}

static void vg_read_body(struct vg_in *in, const struct vg_imgfile *h,
			 struct vg_jit_image *img)
{
	const void *insns, *relocs, *init;
	uint32_t i;

	insns = vg_take(in, (uint64_t)h->ninsns * sizeof(struct vgpu_insn));
	img->kernels = calloc(h->nkernels, sizeof(*img->kernels));
	img->vars = calloc(h->nvars ? h->nvars : 1, sizeof(*img->vars));
	img->insns = malloc((size_t)h->ninsns * sizeof(struct vgpu_insn));
	img->relocs = malloc(h->nrelocs ? h->nrelocs * sizeof(uint32_t) : 1);
	if (!img->kernels || !img->vars || !img->insns || !img->relocs) {
		vg_bad(in, "out of memory for instructions", h->ninsns);
		return;
	}
	if (insns)
		memcpy(img->insns, insns, (size_t)h->ninsns * sizeof(struct vgpu_insn));
	img->ninsns = h->ninsns;
	img->global_bytes = h->global_bytes;
	img->has_printf = h->flags & VG_IMGFILE_PRINTF;
	img->printf_off = h->printf_off;
	/* Counted as they are filled, so vg_jit_free frees what was read. */
	for (i = 0; i < h->nkernels && !in->failed; i++)
		vg_read_kernel(in, &img->kernels[img->nkernels++], h->ninsns);
	for (i = 0; i < h->nvars && !in->failed; i++)
		vg_read_var(in, &img->vars[img->nvars++], h->global_bytes);
	relocs = vg_take(in, (uint64_t)h->nrelocs * sizeof(uint32_t));
	init = vg_take(in, h->init_bytes);
	if (in->failed)
		return;
	/*
	 * The global block may be far larger than the file (only its
	 * initialized head is stored): allocated once the file is known to
	 * hold what comes before that head, so that a few bytes claiming
	 * gigabytes fail before they cost any.
	 */
	img->globals = calloc(1, h->global_bytes ? h->global_bytes : 1);
	if (!img->globals) {
		vg_bad(in, "out of memory for global bytes", h->global_bytes);
		return;
	}
	memcpy(img->relocs, relocs, h->nrelocs * sizeof(uint32_t));
	img->nrelocs = h->nrelocs;
	for (i = 0; i < img->nrelocs; i++)
		if (img->relocs[i] >= img->ninsns) {
			vg_bad(in, "relocation of a missing instruction", img->relocs[i]);
			return;
		}
	memcpy(img->globals, init, h->init_bytes);
	if (h->flags & VG_IMGFILE_LINES)
		vg_read_lines(in, h, img);
	if ((h->flags & VG_IMGFILE_DATA_RELOCS) && !in->failed)
		vg_read_data_relocs(in, h, img);
	if (!in->failed && in->off != in->len)
		vg_bad(in, "bytes left over at", in->off);
}

int vg_image_load(const void *buf, size_t len, const char *magic,
		  const void *key, size_t key_len, struct vg_jit_image **out,
		  char *err, size_t err_len)
{
	struct vg_in in = { .p = buf, .len = len, .err = err,
			    .err_len = err_len };
	struct vg_jit_image *img;
	struct vg_imgfile h;
	const void *k;

	*out = NULL;
	if (err_len)
		err[0] = 0;
	if (!buf || len < sizeof(h) || memcmp(buf, magic, sizeof(h.magic))) {
		vg_bad(&in, "not a vgpu module of this build, bytes", len);
		return -1;
	}
	memcpy(&h, buf, sizeof(h));
	in.off = sizeof(h);
	vg_check_header(&in, &h);
	k = vg_take(&in, h.key_len);
	if (in.failed)
		return -1;
	if (h.key_len != key_len || memcmp(k, key, key_len)) {
		vg_bad(&in, "compiled by another JIT version; recompile it, key bytes",
		       h.key_len);
		return -1;
	}
	img = calloc(1, sizeof(*img));
	if (!img) {
		vg_bad(&in, "out of memory, bytes", sizeof(*img));
		return -1;
	}
	vg_read_body(&in, &h, img);
	if (in.failed) {
		vg_jit_free(img);
		return -1;
	}
	*out = img;
	return 0;
}

int vg_modfile_save(const struct vg_jit_image *img, unsigned char **out,
		    size_t *len)
{
	return vg_image_save(img, VG_IMAGE_VGPU_MAGIC, VG_JIT_VERSION,
			     sizeof(VG_JIT_VERSION), out, len);
}

int vg_modfile_load(const void *buf, size_t len, struct vg_jit_image **out,
		    char *err, size_t err_len)
{
	return vg_image_load(buf, len, VG_IMAGE_VGPU_MAGIC, VG_JIT_VERSION,
			     sizeof(VG_JIT_VERSION), out, err, err_len);
}

size_t vg_image_file_size(const void *image)
{
	struct vg_imgfile h;

	if (vg_image_kind(image) != VG_IMAGE_VGPU)
		return 0;
	memcpy(&h, image, sizeof(h));
	if (h.size < sizeof(h) || h.size > VG_IMGFILE_MAX)
		return 0;
	return h.size;
}

void vg_image_describe(const struct vg_jit_image *img, char *buf, size_t size)
{
	size_t off = 0;
	uint32_t i;

	if (!buf || !size)
		return;
	buf[0] = 0;
	for (i = 0; i < img->nkernels && off < size; i++) {
		const struct vg_jit_kernel *k = &img->kernels[i];
		int n = snprintf(buf + off, size - off,
				 "%sFunction properties for %s: %u registers, %u bytes smem, %u bytes lmem, %u bytes params",
				 i ? "\n" : "", k->name, k->f.nregs,
				 k->f.shared_bytes, k->f.local_bytes,
				 k->f.param_bytes);

		if (n < 0)
			break;
		off += (size_t)n;
	}
}
