// SPDX-License-Identifier: MIT
/*
 * nvcc's fatbinary container (ptx-notes §5): which kind a module image
 * is, and the PTX entry of a fatbin that best suits a device, inflated
 * with libzstd or liblz4 when the toolchain compressed it.
 *
 * Images come from the application and may be anything, so every field
 * is checked against the container's own size before it is used; the
 * container's size itself can only be taken from its header (the
 * driver API passes no length), or bounded by the caller through
 * vg_fatbin_ptx_sized(). Fields are read byte by byte: images need not
 * be aligned and are little-endian whatever the host.
 */
#include <limits.h>
#include <lz4.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "fatbin.h"

/* Container header: magic u32, version u16, header size u16, payload u64. */
#define VG_FATBIN_HDR		0x10
/* Entry header: the fixed part; header_size may add a tail. */
#define VG_ENTRY_HDR		0x40

#define VG_ENTRY_PTX		1
#define VG_ENTRY_ELF		2

#define VG_FLAG_LZ4		0x2000ull	/* a raw LZ4 block */
#define VG_FLAG_ZSTD		0x8000ull	/* one zstd frame */
#define VG_FLAG_ARCH		0x100000ull	/* sm_90a: that arch only */
#define VG_FLAG_FAMILY		0x200000ull	/* sm_100f: that family */

/*
 * The largest decompressed entry accepted: far above any real module, and
 * low enough that a lying header cannot make us allocate without bound.
 */
#define VG_INFLATED_MAX		(1ull << 30)

_Static_assert(sizeof(struct vg_fatbin_wrapper) == 24,
	       "the wrapper is 24 bytes in a 64-bit host program");

/* A container whose header has been checked. */
struct vg_fatbin {
	const unsigned char *p;
	size_t hdr;		/* header bytes: the first entry's offset */
	size_t end;		/* header plus payload bytes */
};

/* The fields of one entry that the reader uses, bounds already checked. */
struct vg_fatbin_entry {
	unsigned int index;	/* from 0, for messages */
	size_t off;		/* from the container's start */
	size_t next;		/* the following entry's offset */
	unsigned int kind;	/* VG_ENTRY_PTX or VG_ENTRY_ELF */
	unsigned int arch;	/* 75, 90, 100 ... */
	uint64_t flags;
	const unsigned char *data;
	uint64_t size;		/* payload bytes at @data, padded to 8 */
	uint32_t zsize;		/* compressed bytes, 0 when stored plain */
	uint64_t usize;		/* bytes once inflated, 0 when stored plain */
};

static uint16_t vg_le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t vg_le32(const unsigned char *p)
{
	return (uint32_t)vg_le16(p) | (uint32_t)vg_le16(p + 2) << 16;
}

static uint64_t vg_le64(const unsigned char *p)
{
	return (uint64_t)vg_le32(p) | (uint64_t)vg_le32(p + 4) << 32;
}

static void vg_log(char *log, size_t log_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void vg_log(char *log, size_t log_len, const char *fmt, ...)
{
	va_list ap;

	if (!log || !log_len)
		return;
	va_start(ap, fmt);
	vsnprintf(log, log_len, fmt, ap);
	va_end(ap);
}

/* --- image kinds ----------------------------------------------------------- */

/* Does @image start with the bytes of @magic? Stops at the first mismatch. */
static bool vg_has_magic(const unsigned char *image, uint32_t magic)
{
	int i;

	for (i = 0; i < 4; i++)
		if (image[i] != ((magic >> (8 * i)) & 0xff))
			return false;
	return true;
}

/* Past white space and comments; NULL at an unterminated comment. */
static const char *vg_skip_blank(const char *s)
{
	for (;;) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
			s++;
		} else if (s[0] == '/' && s[1] == '/') {
			s += 2;
			while (*s && *s != '\n')
				s++;
		} else if (s[0] == '/' && s[1] == '*') {
			s += 2;
			while (*s && !(s[0] == '*' && s[1] == '/'))
				s++;
			if (!*s)
				return NULL;
			s += 2;
		} else {
			return s;
		}
	}
}

/* Compares byte by byte, so as not to read past a shorter @s's NUL. */
static bool vg_starts_with(const char *s, const char *word)
{
	while (*word)
		if (*s++ != *word++)
			return false;
	return true;
}

enum vg_image_kind vg_image_kind(const void *image)
{
	const unsigned char *p = image;
	const char *s;

	/* None of the magics holds a NUL, so a short string stops them. */
	if (!p)
		return VG_IMAGE_UNKNOWN;
	if (vg_has_magic(p, VG_FATBIN_MAGIC))
		return VG_IMAGE_FATBIN;
	if (vg_has_magic(p, VG_FATBIN_WRAPPER_MAGIC))
		return VG_IMAGE_WRAPPER;
	if (vg_has_magic(p, 0x464c457fu))	/* "\x7f" "ELF" */
		return VG_IMAGE_ELF;
	if (vg_starts_with(image, VG_IMAGE_VGPU_MAGIC))
		return VG_IMAGE_VGPU;
	s = vg_skip_blank(image);
	if (s && vg_starts_with(s, ".version"))
		return VG_IMAGE_PTX;
	return VG_IMAGE_UNKNOWN;
}

/* --- the container ------------------------------------------------------- */

/* Checks the header at @image, of which at most @avail bytes exist. */
static int vg_fatbin_open(struct vg_fatbin *fb, const unsigned char *image,
			  size_t avail, char *log, size_t log_len)
{
	uint32_t magic;
	uint16_t version, hdr;
	uint64_t payload;

	if (avail < VG_FATBIN_HDR) {
		vg_log(log, log_len, "fatbin: image of %zu bytes is shorter than its %d-byte header",
		       avail, VG_FATBIN_HDR);
		return VG_FATBIN_BAD;
	}
	magic = vg_le32(image);
	version = vg_le16(image + 4);
	hdr = vg_le16(image + 6);
	payload = vg_le64(image + 8);
	if (magic != VG_FATBIN_MAGIC) {
		vg_log(log, log_len, "fatbin: bad magic 0x%08x", magic);
		return VG_FATBIN_BAD;
	}
	if (version != 1) {
		vg_log(log, log_len, "fatbin: unsupported version %u", version);
		return VG_FATBIN_BAD;
	}
	if (hdr < VG_FATBIN_HDR) {
		vg_log(log, log_len, "fatbin: header size %u too small", hdr);
		return VG_FATBIN_BAD;
	}
	if (hdr > avail || payload > avail - hdr) {
		vg_log(log, log_len, "fatbin: %u-byte header and %llu-byte payload, but the image holds %zu bytes",
		       hdr, (unsigned long long)payload, avail);
		return VG_FATBIN_BAD;
	}
	fb->p = image;
	fb->hdr = hdr;
	fb->end = hdr + (size_t)payload;
	return 0;
}

/* Checks the compression fields of @e against its payload. */
static int vg_entry_check_packing(const struct vg_fatbin_entry *e,
				  char *log, size_t log_len)
{
	uint64_t packing = e->flags & (VG_FLAG_LZ4 | VG_FLAG_ZSTD);

	if (packing == (VG_FLAG_LZ4 | VG_FLAG_ZSTD)) {
		vg_log(log, log_len, "fatbin entry %u at 0x%zx: flagged both LZ4 and ZSTD",
		       e->index, e->off);
		return VG_FATBIN_BAD;
	}
	if (packing && (e->zsize == 0 || e->zsize > e->size)) {
		vg_log(log, log_len, "fatbin entry %u at 0x%zx: compressed size %u out of bounds (payload %llu bytes)",
		       e->index, e->off, e->zsize, (unsigned long long)e->size);
		return VG_FATBIN_BAD;
	}
	return 0;
}

/* Reads and checks entry number @index, at offset @off of @fb. */
static int vg_entry_read(const struct vg_fatbin *fb, unsigned int index,
			 size_t off, struct vg_fatbin_entry *e,
			 char *log, size_t log_len)
{
	const unsigned char *h = fb->p + off;
	size_t left = fb->end - off;
	uint32_t hdr;

	e->index = index;
	e->off = off;
	if (left < VG_ENTRY_HDR) {
		vg_log(log, log_len, "fatbin entry %u at 0x%zx: header truncated (%zu bytes left)",
		       index, off, left);
		return VG_FATBIN_BAD;
	}
	hdr = vg_le32(h + 0x04);
	e->size = vg_le64(h + 0x08);
	if (hdr < VG_ENTRY_HDR || hdr > left) {
		vg_log(log, log_len, "fatbin entry %u at 0x%zx: header size %u out of bounds",
		       index, off, hdr);
		return VG_FATBIN_BAD;
	}
	if (e->size > left - hdr) {
		vg_log(log, log_len, "fatbin entry %u at 0x%zx: payload of %llu bytes runs past the container's end",
		       index, off, (unsigned long long)e->size);
		return VG_FATBIN_BAD;
	}
	e->kind = vg_le16(h);
	e->zsize = vg_le32(h + 0x10);
	e->arch = vg_le32(h + 0x1c);
	e->flags = vg_le64(h + 0x28);
	e->usize = vg_le64(h + 0x38);
	e->data = h + hdr;
	e->next = off + hdr + (size_t)e->size;
	return vg_entry_check_packing(e, log, log_len);
}

/* --- choosing the PTX ---------------------------------------------------- */

/*
 * Can PTX of entry @e be compiled for a device of @cc? Plain compute_XX
 * PTX runs on any cc >= XX. Arch-specific PTX (compute_90a) uses what
 * only that cc has, so it needs cc == XX exactly. Family-specific PTX
 * (compute_100f) is taken to run on the devices of its major version
 * from XX up.
 */
static bool vg_ptx_runs_on(const struct vg_fatbin_entry *e, unsigned int cc)
{
	if (e->flags & VG_FLAG_ARCH)
		return e->arch == cc;
	if (e->flags & VG_FLAG_FAMILY)
		return e->arch / 10 == cc / 10 && e->arch <= cc;
	return e->arch <= cc;
}

/* Plain PTX before family-specific before arch-specific, at one arch. */
static int vg_ptx_generality(const struct vg_fatbin_entry *e)
{
	if (e->flags & VG_FLAG_ARCH)
		return 0;
	if (e->flags & VG_FLAG_FAMILY)
		return 1;
	return 2;
}

/*
 * Walks every entry of @fb (so a malformed one is refused even when
 * another would have won) and keeps in *@best the PTX for @cc: among the
 * PTX entries that run on @cc, the one of the highest arch, as the
 * nearest to the device; at equal arch the most general one, because
 * arch- and family-specific PTX may use instructions beyond the portable
 * subset that vgpu's JIT compiles, and nvcc writes the plain PTX next to
 * it (-arch=sm_90a gives compute_90 and compute_90a). The first of
 * equals wins. Returns 0 with *@found set or not, or VG_FATBIN_BAD.
 */
static int vg_fatbin_pick(const struct vg_fatbin *fb, unsigned int cc,
			  struct vg_fatbin_entry *best, bool *found,
			  char *log, size_t log_len)
{
	struct vg_fatbin_entry e;
	unsigned int index = 0;
	size_t off;
	int ret;

	*found = false;
	for (off = fb->hdr; off < fb->end; off = e.next, index++) {
		ret = vg_entry_read(fb, index, off, &e, log, log_len);
		if (ret)
			return ret;
		if (e.kind != VG_ENTRY_PTX || !vg_ptx_runs_on(&e, cc))
			continue;
		if (*found && (e.arch < best->arch ||
			       (e.arch == best->arch &&
				vg_ptx_generality(&e) <= vg_ptx_generality(best))))
			continue;
		*best = e;
		*found = true;
	}
	return 0;
}

/* --- the message when nothing fits ----------------------------------------- */

/* A bounded string that appends; truncation just ends it early. */
struct vg_strbuf {
	char buf[256];
	size_t len;
};

static void vg_sb_add(struct vg_strbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void vg_sb_add(struct vg_strbuf *b, const char *fmt, ...)
{
	size_t room = sizeof(b->buf) - b->len;
	va_list ap;
	int n;

	if (room <= 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->len, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n < room ? (size_t)n : room - 1;
}

/* Appends "sm_90a" (@prefix "sm") or "compute_100f", comma-separated. */
static void vg_sb_add_arch(struct vg_strbuf *b, const char *prefix,
			   const struct vg_fatbin_entry *e)
{
	const char *suffix = "";

	if (e->flags & VG_FLAG_ARCH)
		suffix = "a";
	else if (e->flags & VG_FLAG_FAMILY)
		suffix = "f";
	vg_sb_add(b, "%s%s_%u%s", b->len ? ", " : "", prefix, e->arch, suffix);
}

/*
 * Writes why @fb has no PTX for @cc, listing what it holds, and the
 * -gencode that would give PTX for it: the highest arch <= @cc that the
 * fatbin was built for (the programmer's intended minimum), else @cc.
 * The entries were all checked by vg_fatbin_pick().
 */
static int vg_fatbin_no_ptx(const struct vg_fatbin *fb, unsigned int cc,
			    bool rdc, char *log, size_t log_len)
{
	struct vg_strbuf sass = { .len = 0 }, ptx = { .len = 0 }, what = { .len = 0 };
	struct vg_fatbin_entry e;
	unsigned int index = 0, fix = 0;
	size_t off;

	for (off = fb->hdr; off < fb->end; off = e.next, index++) {
		if (vg_entry_read(fb, index, off, &e, NULL, 0))
			break;
		if (e.kind == VG_ENTRY_ELF)
			vg_sb_add_arch(&sass, "sm", &e);
		else if (e.kind == VG_ENTRY_PTX)
			vg_sb_add_arch(&ptx, "compute", &e);
		else
			continue;
		if (e.arch <= cc && e.arch > fix)
			fix = e.arch;
	}
	if (!fix)
		fix = cc;
	if (sass.len && ptx.len)
		vg_sb_add(&what, "only SASS for %s and PTX for %s", sass.buf, ptx.buf);
	else if (sass.len || ptx.len)
		vg_sb_add(&what, "only %s for %s", sass.len ? "SASS" : "PTX",
			  sass.len ? sass.buf : ptx.buf);
	else
		vg_sb_add(&what, "it holds no code");
	vg_log(log, log_len, "fatbin has no PTX for sm_%u (%s); rebuild with %s-gencode arch=compute_%u,code=compute_%u",
	       cc, what.buf, rdc ? "-rdc=false and " : "", fix, fix);
	return VG_FATBIN_NO_PTX;
}

/* --- taking the text out ---------------------------------------------------- */

/* The text in @n bytes at @buf ends at the first NUL, if any. */
static int vg_ptx_copy(const unsigned char *buf, size_t n, char **ptx,
		       size_t *len)
{
	size_t l = strnlen((const char *)buf, n);

	*ptx = malloc(l + 1);
	if (!*ptx)
		return VG_FATBIN_NOMEM;
	memcpy(*ptx, buf, l);
	(*ptx)[l] = '\0';
	*len = l;
	return 0;
}

static int vg_inflate_zstd(const struct vg_fatbin_entry *e, unsigned char *out,
			   char *log, size_t log_len)
{
	unsigned long long framed = ZSTD_getFrameContentSize(e->data, e->zsize);
	size_t got;

	if (framed == ZSTD_CONTENTSIZE_ERROR) {
		vg_log(log, log_len, "fatbin entry %u at 0x%zx: bad zstd frame header",
		       e->index, e->off);
		return VG_FATBIN_BAD;
	}
	if (framed != ZSTD_CONTENTSIZE_UNKNOWN && framed != e->usize) {
		vg_log(log, log_len, "fatbin entry %u at 0x%zx: zstd frame holds %llu bytes, header says %llu",
		       e->index, e->off, framed, (unsigned long long)e->usize);
		return VG_FATBIN_BAD;
	}
	got = ZSTD_decompress(out, e->usize, e->data, e->zsize);
	if (ZSTD_isError(got)) {
		vg_log(log, log_len, "fatbin entry %u at 0x%zx: zstd: %s",
		       e->index, e->off, ZSTD_getErrorName(got));
		return VG_FATBIN_BAD;
	}
	if (got != e->usize) {
		vg_log(log, log_len, "fatbin entry %u at 0x%zx: zstd gave %zu bytes, header says %llu",
		       e->index, e->off, got, (unsigned long long)e->usize);
		return VG_FATBIN_BAD;
	}
	return 0;
}

static int vg_inflate_lz4(const struct vg_fatbin_entry *e, unsigned char *out,
			  char *log, size_t log_len)
{
	int got;

	/* liblz4 counts in ints; usize <= 1 GiB was checked already. */
	if (e->zsize > INT_MAX) {
		vg_log(log, log_len, "fatbin entry %u at 0x%zx: compressed size %u too large for lz4",
		       e->index, e->off, e->zsize);
		return VG_FATBIN_BAD;
	}
	got = LZ4_decompress_safe((const char *)e->data, (char *)out,
				  (int)e->zsize, (int)e->usize);
	if (got < 0) {
		vg_log(log, log_len, "fatbin entry %u at 0x%zx: lz4 block is corrupt",
		       e->index, e->off);
		return VG_FATBIN_BAD;
	}
	if ((uint64_t)got != e->usize) {
		vg_log(log, log_len, "fatbin entry %u at 0x%zx: lz4 gave %d bytes, header says %llu",
		       e->index, e->off, got, (unsigned long long)e->usize);
		return VG_FATBIN_BAD;
	}
	return 0;
}

/* The text of PTX entry @e, inflated when stored compressed. */
static int vg_entry_ptx(const struct vg_fatbin_entry *e, char **ptx,
			size_t *len, char *log, size_t log_len)
{
	unsigned char *out;
	int ret;

	if (!(e->flags & (VG_FLAG_LZ4 | VG_FLAG_ZSTD)))
		return vg_ptx_copy(e->data, e->size, ptx, len);
	if (e->usize == 0 || e->usize > VG_INFLATED_MAX) {
		vg_log(log, log_len, "fatbin entry %u at 0x%zx: uncompressed size %llu out of bounds",
		       e->index, e->off, (unsigned long long)e->usize);
		return VG_FATBIN_BAD;
	}
	out = malloc(e->usize);
	if (!out)
		return VG_FATBIN_NOMEM;
	if (e->flags & VG_FLAG_ZSTD)
		ret = vg_inflate_zstd(e, out, log, log_len);
	else
		ret = vg_inflate_lz4(e, out, log, log_len);
	if (!ret)
		ret = vg_ptx_copy(out, e->usize, ptx, len);
	free(out);
	return ret;
}

/* --- entry points ---------------------------------------------------------- */

static int vg_fatbin_find(const unsigned char *image, size_t avail,
			  unsigned int cc, bool rdc, char **ptx, size_t *len,
			  char *log, size_t log_len)
{
	struct vg_fatbin fb;
	struct vg_fatbin_entry best = { .index = 0 };
	bool found;
	int ret;

	ret = vg_fatbin_open(&fb, image, avail, log, log_len);
	if (ret)
		return ret;
	ret = vg_fatbin_pick(&fb, cc, &best, &found, log, log_len);
	if (ret)
		return ret;
	if (!found)
		return vg_fatbin_no_ptx(&fb, cc, rdc, log, log_len);
	return vg_entry_ptx(&best, ptx, len, log, log_len);
}

/* The container a wrapper points at; NULL (and @log) when malformed. */
static const unsigned char *vg_wrapper_data(const void *image, bool *rdc,
					    char *log, size_t log_len)
{
	struct vg_fatbin_wrapper w;

	memcpy(&w, image, sizeof(w));
	if (w.magic != VG_FATBIN_WRAPPER_MAGIC) {
		vg_log(log, log_len, "fatbin wrapper: bad magic 0x%08x", w.magic);
		return NULL;
	}
	if (w.version != 1 && w.version != 2) {
		vg_log(log, log_len, "fatbin wrapper: unsupported version %u", w.version);
		return NULL;
	}
	if (!w.data) {
		vg_log(log, log_len, "fatbin wrapper: no fatbin (null data pointer)");
		return NULL;
	}
	*rdc = w.version == 2;
	return w.data;
}

int vg_fatbin_ptx(const void *image, enum vg_image_kind kind, unsigned int cc,
		  char **ptx, size_t *len, char *log, size_t log_len)
{
	bool rdc = false;

	*ptx = NULL;
	*len = 0;
	if (!image) {
		vg_log(log, log_len, "fatbin: no image");
		return VG_FATBIN_BAD;
	}
	if (kind == VG_IMAGE_WRAPPER) {
		image = vg_wrapper_data(image, &rdc, log, log_len);
		if (!image)
			return VG_FATBIN_BAD;
	} else if (kind != VG_IMAGE_FATBIN) {
		vg_log(log, log_len, "fatbin: image is not a fatbin");
		return VG_FATBIN_BAD;
	}
	/* No length comes with the image: its header says how long it is. */
	return vg_fatbin_find(image, SIZE_MAX, cc, rdc, ptx, len, log, log_len);
}

int vg_fatbin_ptx_sized(const void *fatbin, size_t size, unsigned int cc,
			char **ptx, size_t *len, char *log, size_t log_len)
{
	*ptx = NULL;
	*len = 0;
	if (!fatbin) {
		vg_log(log, log_len, "fatbin: no image");
		return VG_FATBIN_BAD;
	}
	return vg_fatbin_find(fatbin, size, cc, false, ptx, len, log, log_len);
}
