// SPDX-License-Identifier: MIT
/*
 * vgpu's compiled-module format and the on-disk JIT cache (libvgpu/
 * jit_image.c, jit_cache.c): an image survives the round trip whole;
 * truncated, corrupt or crafted files are refused, never trusted; the
 * cache finds what it stored, ignores and rewrites a bad entry, keys on
 * the text, names its directory as documented, stays off when
 * CUDA_CACHE_DISABLE=1 and within CUDA_CACHE_MAXSIZE bytes, giving up
 * the least recently used entries first, also with processes storing at
 * once.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fatbin.h"
#include "jit_cache.h"
#include "tap.h"

#define PTX_HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

/* Two kernels, variables with initializers, and printf. */
static const char ptx[] = PTX_HEAD
	".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"
	".global .align 1 .b8 $str[4] = {104, 105, 10, 0};\n"
	".global .align 4 .u32 counter = 5;\n"
	".const .align 4 .b8 tab[8] = {1, 2, 3, 4, 5, 6, 7, 8};\n"
	".visible .entry add(.param .u64 p0, .param .u32 p1)\n{\n"
	"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n"
	"\tld.param.u64 %rd1, [p0];\n\tld.param.u32 %r1, [p1];\n"
	"\tld.global.u32 %r2, [counter];\n\tld.const.u32 %r3, [tab+4];\n"
	"\tadd.s32 %r2, %r2, %r3;\n\tadd.s32 %r2, %r2, %r1;\n"
	"\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n"
	".visible .entry hello()\n{\n"
	"\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n"
	"\tmov.u64 %rd1, $str;\n\tcvta.global.u64 %rd2, %rd1;\n"
	"\tmov.u64 %rd1, 0;\n"
	"\t{ .param .b64 a; st.param.b64 [a], %rd2; .param .b64 b; st.param.b64 [b], %rd1;\n"
	"\t.param .b32 r; call.uni (r), vprintf, (a, b); ld.param.b32 %r1, [r]; }\n"
	"\tret;\n}\n";

static struct vg_jit_image *compile(const char *text)
{
	struct vg_jit_image *img = NULL;
	char err[256];

	if (vg_jit_compile(text, strlen(text), &img, err, sizeof(err))) {
		TAP_FAIL("compile: %s", err);
		exit(1);
	}
	return img;
}

/* Every field of two images. */
static bool same_image(const struct vg_jit_image *a, const struct vg_jit_image *b)
{
	uint32_t i;

	if (a->ninsns != b->ninsns || a->nkernels != b->nkernels ||
	    a->nvars != b->nvars || a->nrelocs != b->nrelocs ||
	    a->global_bytes != b->global_bytes || a->has_printf != b->has_printf ||
	    (a->has_printf && a->printf_off != b->printf_off) ||
	    memcmp(a->insns, b->insns, a->ninsns * sizeof(*a->insns)) ||
	    memcmp(a->relocs, b->relocs, a->nrelocs * sizeof(*a->relocs)) ||
	    memcmp(a->globals, b->globals, a->global_bytes))
		return false;
	for (i = 0; i < a->nkernels; i++) {
		const struct vg_jit_kernel *x = &a->kernels[i], *y = &b->kernels[i];

		if (strcmp(x->name, y->name) || memcmp(&x->f, &y->f, sizeof(x->f)) ||
		    x->nparams != y->nparams || x->ptx_regs != y->ptx_regs ||
		    x->prints != y->prints ||
		    memcmp(x->params, y->params, x->nparams * sizeof(*x->params)))
			return false;
	}
	for (i = 0; i < a->nvars; i++)
		if (strcmp(a->vars[i].name, b->vars[i].name) ||
		    a->vars[i].offset != b->vars[i].offset ||
		    a->vars[i].size != b->vars[i].size ||
		    a->vars[i].is_const != b->vars[i].is_const)
			return false;
	return true;
}

static void module_round_trip(void)
{
	struct vg_jit_image *img = compile(ptx), *back = NULL;
	unsigned char *buf;
	size_t len;
	char err[256];

	CHECK(img->nkernels == 2 && img->nvars == 3 && img->has_printf);
	/* Only the kernel that calls vprintf fixes the FIFO's size. */
	CHECK(!img->kernels[0].prints && img->kernels[1].prints);
	REQUIRE_RES(0, vg_modfile_save(img, &buf, &len));
	/* The FIFO is not stored: the file stays small. */
	CHECK(len < 4096);
	CHECK(vg_image_kind(buf) == VG_IMAGE_VGPU);
	CHECK(vg_image_file_size(buf) == len);
	CHECK(vg_modfile_load(buf, len, &back, err, sizeof(err)) == 0);
	CHECK(back && same_image(img, back));
	vg_jit_free(back);
	free(buf);
	vg_jit_free(img);
}

/* Every shorter file, and every file with one byte changed, is refused. */
static void damaged_files_refused(void)
{
	struct vg_jit_image *img = compile(ptx), *back;
	unsigned char *buf, *copy;
	size_t len, i;
	char err[256];

	REQUIRE_RES(0, vg_modfile_save(img, &buf, &len));
	for (i = 0; i < len; i++) {
		copy = malloc(i ? i : 1);	/* ASan sees any read past it */
		memcpy(copy, buf, i);
		back = NULL;
		if (!vg_modfile_load(copy, i, &back, err, sizeof(err)))
			TAP_FAIL("truncated to %zu bytes: accepted", i);
		CHECK(!back);
		free(copy);
	}
	copy = malloc(len);
	for (i = 0; i < len; i++) {
		memcpy(copy, buf, len);
		copy[i] ^= 0x20;
		back = NULL;
		if (!vg_modfile_load(copy, len, &back, err, sizeof(err)))
			TAP_FAIL("byte %zu changed: accepted", i);
		CHECK(!back && err[0]);
	}
	free(copy);
	free(buf);
	vg_jit_free(img);
}

/* The header's fields (see struct vg_imgfile in jit_image.c). */
enum { H_SIZE = 8, H_SUM = 16, H_KEY = 24, H_GLOBALS = 32, H_INIT = 40,
	H_PRINTF = 48, H_NINSNS = 56, H_NKERNELS = 60, H_NVARS = 64,
	H_NRELOCS = 68, H_FLAGS = 72 };

/* A file rewritten with a correct checksum: only the checks stop it. */
static void resum(unsigned char *buf, size_t len)
{
	uint64_t h = vg_hash64(buf, 16, 0x76677075);

	h = vg_hash64(buf + 24, len - 24, h);
	memcpy(buf + H_SUM, &h, 8);
}

static void crafted_headers_refused(void)
{
	static const struct {
		unsigned int off, width;
		uint64_t value;
		const char *msg;
	} cases[] = {
		{ H_NINSNS, 4, 0, "bad instruction count" },
		{ H_NINSNS, 4, 0xffffffff, "bad instruction count" },
		{ H_NKERNELS, 4, 0, "bad kernel count" },
		{ H_NKERNELS, 4, 100000, "bad kernel count" },
		{ H_NVARS, 4, 0xffffffff, "bad variable count" },
		{ H_NRELOCS, 4, 0xffffff, "bad relocation count" },
		{ H_GLOBALS, 8, ~0ULL, "bad global block size" },
		{ H_INIT, 8, 1ULL << 40, "bad global block size" },
		{ H_PRINTF, 8, 12, "printf FIFO address outside" },
		{ H_PRINTF, 8, 1ULL << 40, "printf FIFO address outside" },
		{ H_FLAGS, 4, 8, "unknown flags" },
		/* Data relocations said to follow, and none do. */
		{ H_FLAGS, 4, 4, "truncated" },
		{ H_FLAGS + 4, 4, 1, "bad file count" },
		{ H_KEY, 8, ~0ULL, "truncated" },
		{ H_KEY, 8, 4, "another JIT version" },
		{ H_SIZE, 8, 12345, "size does not match" },
	};
	struct vg_jit_image *img = compile(ptx), *back;
	unsigned char *buf, *copy;
	size_t len, i;
	char err[256];

	REQUIRE_RES(0, vg_modfile_save(img, &buf, &len));
	copy = malloc(len);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memcpy(copy, buf, len);
		memcpy(copy + cases[i].off, &cases[i].value, cases[i].width);
		resum(copy, len);
		back = NULL;
		if (!vg_modfile_load(copy, len, &back, err, sizeof(err))) {
			TAP_FAIL("case %zu accepted", i);
			vg_jit_free(back);
		} else if (!strstr(err, cases[i].msg)) {
			TAP_FAIL("case %zu: \"%s\", expected \"%s\"", i, err, cases[i].msg);
		}
	}
	free(copy);
	free(buf);
	vg_jit_free(img);
}

/* The same for the first kernel's record (struct vg_imgfile_kernel). */
static void crafted_kernels_refused(void)
{
	static const struct {
		unsigned int off;
		uint32_t value;
		const char *msg;
	} cases[] = {
		{ 0, 1000000, "bad kernel record" },	/* entry past the code */
		{ 4, 0, "bad kernel record" },		/* no registers */
		{ 12, 40000, "bad kernel record" },	/* parameter bytes */
		{ 32, 100, "bad kernel record" },	/* more parameters than bytes */
		{ 44, 2, "bad kernel record" },		/* unknown flags */
		{ 40, 0, "bad name length" },
		{ 40, 1u << 30, "bad name length" },
		{ 48, 0xfffffff0, "parameter outside" },
		{ 52, 0, "parameter outside" },		/* a parameter of no bytes */
	};
	struct vg_jit_image *img = compile(ptx), *back;
	unsigned char *buf, *copy;
	size_t len, i, rec;
	uint64_t key_len;
	uint32_t ninsns;
	char err[256];

	REQUIRE_RES(0, vg_modfile_save(img, &buf, &len));
	memcpy(&key_len, buf + H_KEY, 8);
	memcpy(&ninsns, buf + H_NINSNS, 4);
	rec = VG_IMGFILE_HDR + ((key_len + 7) & ~7ULL) + ninsns * sizeof(struct vgpu_insn);
	copy = malloc(len);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memcpy(copy, buf, len);
		memcpy(copy + rec + cases[i].off, &cases[i].value, 4);
		resum(copy, len);
		back = NULL;
		if (!vg_modfile_load(copy, len, &back, err, sizeof(err))) {
			TAP_FAIL("case %zu accepted", i);
			vg_jit_free(back);
		} else if (!strstr(err, cases[i].msg)) {
			TAP_FAIL("case %zu: \"%s\", expected \"%s\"", i, err, cases[i].msg);
		}
	}
	free(copy);
	free(buf);
	vg_jit_free(img);
}

/*
 * The sanitizers' allocation hook (the unit tests are built with
 * AddressSanitizer, whose runtime exports it; GCC ships no header for it).
 */
int __sanitizer_install_malloc_and_free_hooks(
	void (*malloc_hook)(const volatile void *, size_t),
	void (*free_hook)(const volatile void *));

/* The largest allocation while @watching: hooks cannot be removed. */
static bool watching;
static size_t largest_alloc;

static void note_alloc(const volatile void *p, size_t size)
{
	(void)p;
	if (watching && size > largest_alloc)
		largest_alloc = size;
}

/* The runtime takes hooks only in pairs. */
static void note_free(const volatile void *p)
{
	(void)p;
}

/*
 * A truncated file whose header claims a global block of gigabytes (the
 * block may be far larger than the file: only its initialized head is
 * stored) is refused before the block is allocated, so a few bytes cost
 * no more than their own size.
 */
static void truncated_huge_block_costs_nothing(void)
{
	struct vg_jit_image *img = compile(ptx), *back = NULL;
	uint64_t globals = 3ULL << 30, key_len, cut;
	unsigned char *buf;
	size_t len;
	char err[256];

	REQUIRE_RES(0, vg_modfile_save(img, &buf, &len));
	/* The header, the key, and the first instruction of several. */
	memcpy(&key_len, buf + H_KEY, 8);
	cut = VG_IMGFILE_HDR + ((key_len + 7) & ~7ULL) + sizeof(struct vgpu_insn);
	memcpy(buf + H_GLOBALS, &globals, 8);
	memcpy(buf + H_SIZE, &cut, 8);
	resum(buf, cut);
	REQUIRE_RES(1, __sanitizer_install_malloc_and_free_hooks(note_alloc, note_free));
	largest_alloc = 0;
	watching = true;
	CHECK(vg_modfile_load(buf, cut, &back, err, sizeof(err)) == -1 && !back);
	watching = false;
	CHECK(strstr(err, "truncated") != NULL);
	CHECK(largest_alloc < (1u << 20));
	free(buf);
	vg_jit_free(img);
}

/* A cache entry is not a compiled module, nor is another JIT's module. */
static void other_keys_refused(void)
{
	struct vg_jit_image *img = compile(ptx), *back = NULL;
	unsigned char *buf;
	size_t len;
	char err[256];

	REQUIRE_RES(0, vg_image_save(img, VG_CACHE_MAGIC, "k", 1, &buf, &len));
	CHECK(vg_modfile_load(buf, len, &back, err, sizeof(err)) == -1);
	free(buf);
	REQUIRE_RES(0, vg_image_save(img, VG_IMAGE_VGPU_MAGIC, "vgpu-jit-0", 11,
				     &buf, &len));
	CHECK(vg_modfile_load(buf, len, &back, err, sizeof(err)) == -1);
	CHECK(strstr(err, "another JIT version"));
	free(buf);
	vg_jit_free(img);
}

/* --- the cache ---------------------------------------------------------- */

static char cache_dir[64];

/* A fresh directory for the cache, through CUDA_CACHE_PATH. */
static void fresh_cache(void)
{
	strcpy(cache_dir, "/tmp/vgpu-cache-XXXXXX");
	if (!mkdtemp(cache_dir)) {
		TAP_FAIL("mkdtemp");
		exit(1);
	}
	setenv("CUDA_CACHE_PATH", cache_dir, 1);
	unsetenv("CUDA_CACHE_DISABLE");
}

/* The entries in the cache directory; the first one's path in @path. */
static int entries(char *path, size_t size)
{
	DIR *d = opendir(cache_dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && n++ == 0 && path)
			snprintf(path, size, "%s/%.64s", cache_dir, e->d_name);
	if (d)
		closedir(d);
	return n;
}

static void remove_cache(void)
{
	char path[256];

	while (entries(path, sizeof(path)))
		unlink(path);
	rmdir(cache_dir);
}

static void cache_finds_what_it_stored(void)
{
	struct vg_jit_image *img, *hit;
	char err[256];

	fresh_cache();
	CHECK(!vg_jit_cache_lookup(ptx, strlen(ptx)));
	REQUIRE_RES(0, vg_jit_compile_cached(ptx, strlen(ptx), &img, err, sizeof(err)));
	CHECK(entries(NULL, 0) == 1);
	hit = vg_jit_cache_lookup(ptx, strlen(ptx));
	CHECK(hit && same_image(img, hit));
	vg_jit_free(hit);
	vg_jit_free(img);
	remove_cache();
}

/* A damaged entry is a miss, and the next compile writes it again. */
static void bad_entries_ignored_and_rewritten(void)
{
	struct vg_jit_image *img, *hit;
	char path[256], err[256];
	struct stat st;
	int damage;

	fresh_cache();
	for (damage = 0; damage < 3; damage++) {
		FILE *f;

		REQUIRE_RES(0, vg_jit_compile_cached(ptx, strlen(ptx), &img, err,
						     sizeof(err)));
		vg_jit_free(img);
		REQUIRE_RES(1, entries(path, sizeof(path)));
		stat(path, &st);
		if (damage == 0) {		/* truncated */
			CHECK(truncate(path, st.st_size / 2) == 0);
		} else if (damage == 1) {	/* one byte changed */
			f = fopen(path, "r+b");
			fseek(f, st.st_size - 3, SEEK_SET);
			fputc(0x55, f);
			fclose(f);
		} else {			/* empty */
			CHECK(truncate(path, 0) == 0);
		}
		CHECK(!vg_jit_cache_lookup(ptx, strlen(ptx)));
		REQUIRE_RES(0, vg_jit_compile_cached(ptx, strlen(ptx), &img, err,
						     sizeof(err)));
		hit = vg_jit_cache_lookup(ptx, strlen(ptx));
		CHECK(hit && same_image(img, hit));
		vg_jit_free(hit);
		vg_jit_free(img);
	}
	CHECK(entries(NULL, 0) == 1);	/* no temporary file left behind */
	remove_cache();
}

static void cache_disable_honoured(void)
{
	struct vg_jit_image *img;
	char err[256];

	fresh_cache();
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	CHECK(!vg_jit_cache_dir());
	REQUIRE_RES(0, vg_jit_compile_cached(ptx, strlen(ptx), &img, err, sizeof(err)));
	vg_jit_free(img);
	CHECK(entries(NULL, 0) == 0);
	setenv("CUDA_CACHE_DISABLE", "0", 1);
	REQUIRE_RES(0, vg_jit_compile_cached(ptx, strlen(ptx), &img, err, sizeof(err)));
	vg_jit_free(img);
	CHECK(entries(NULL, 0) == 1);
	remove_cache();
}

/* One character of difference is another entry, never the other's image. */
static void key_changes_with_the_text(void)
{
	char *other = strdup(ptx), *at = strstr(other, "entry hello");
	struct vg_jit_image *a, *b, *hit;
	char err[256];

	fresh_cache();
	memcpy(at, "entry hellp", 11);
	REQUIRE_RES(0, vg_jit_compile_cached(ptx, strlen(ptx), &a, err, sizeof(err)));
	CHECK(!vg_jit_cache_lookup(other, strlen(other)));
	REQUIRE_RES(0, vg_jit_compile_cached(other, strlen(other), &b, err, sizeof(err)));
	CHECK(entries(NULL, 0) == 2);
	hit = vg_jit_cache_lookup(other, strlen(other));
	CHECK(hit && !strcmp(hit->kernels[1].name, "hellp"));
	vg_jit_free(hit);
	/* A prefix of the text is another key too. */
	CHECK(!vg_jit_cache_lookup(ptx, strlen(ptx) - 1));
	vg_jit_free(a);
	vg_jit_free(b);
	free(other);
	remove_cache();
}

static void cache_directory_names(void)
{
	static const struct {
		const char *path, *xdg, *home, *want;
	} cases[] = {
		{ "/c/x", "/xdg", "/home/u", "/c/x" },
		{ NULL, "/xdg", "/home/u", "/xdg/vgpu/ComputeCache" },
		{ "", "/xdg", "/home/u", "/xdg/vgpu/ComputeCache" },
		{ NULL, "relative", "/home/u", "/home/u/.cache/vgpu/ComputeCache" },
		{ NULL, NULL, "/home/u", "/home/u/.cache/vgpu/ComputeCache" },
		{ NULL, NULL, NULL, NULL },
	};
	unsigned int i;

	unsetenv("CUDA_CACHE_DISABLE");
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *dir;

		cases[i].path ? setenv("CUDA_CACHE_PATH", cases[i].path, 1) :
			unsetenv("CUDA_CACHE_PATH");
		cases[i].xdg ? setenv("XDG_CACHE_HOME", cases[i].xdg, 1) :
			unsetenv("XDG_CACHE_HOME");
		cases[i].home ? setenv("HOME", cases[i].home, 1) : unsetenv("HOME");
		dir = vg_jit_cache_dir();
		if (!cases[i].want ? dir != NULL : !dir || strcmp(dir, cases[i].want))
			TAP_FAIL("case %u: %s", i, dir ? dir : "(none)");
		free(dir);
	}
}

/* The directory is made, private to the user, at any depth. */
static void cache_directory_made(void)
{
	struct vg_jit_image *img, *hit;
	char err[256], deep[128], cmd[160];
	struct stat st;

	fresh_cache();
	snprintf(deep, sizeof(deep), "%s/a/b", cache_dir);
	setenv("CUDA_CACHE_PATH", deep, 1);
	REQUIRE_RES(0, vg_jit_compile_cached(ptx, strlen(ptx), &img, err, sizeof(err)));
	vg_jit_free(img);
	CHECK(stat(deep, &st) == 0 && S_ISDIR(st.st_mode) &&
	      (st.st_mode & 0777) == 0700);
	hit = vg_jit_cache_lookup(ptx, strlen(ptx));
	CHECK(hit != NULL);
	vg_jit_free(hit);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", cache_dir);
	if (system(cmd))
		TAP_FAIL("cleanup");
}

/* CUDA_CACHE_MAXSIZE: bytes; unset, 0 or not a number: 256 MiB; at most 4 GiB. */
static void cache_max_size_read(void)
{
	static const struct {
		const char *value;
		uint64_t want;
	} cases[] = {
		{ NULL, 256ULL << 20 }, { "", 256ULL << 20 }, { "0", 256ULL << 20 },
		{ "abc", 256ULL << 20 }, { "-1", 256ULL << 20 },
		{ "12k", 256ULL << 20 }, { " 5", 256ULL << 20 },
		{ "+5", 256ULL << 20 }, { "0x10", 256ULL << 20 },
		{ "1", 1 }, { "1000", 1000 }, { "0100", 100 },
		{ "1073741824", 1ULL << 30 }, { "4294967296", 4ULL << 30 },
		{ "4294967297", 4ULL << 30 },
		{ "99999999999999999999999", 4ULL << 30 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t got;

		cases[i].value ? setenv("CUDA_CACHE_MAXSIZE", cases[i].value, 1) :
			unsetenv("CUDA_CACHE_MAXSIZE");
		got = vg_jit_cache_max_bytes();
		if (got != cases[i].want)
			TAP_FAIL("case %u: %llu", i, (unsigned long long)got);
	}
	unsetenv("CUDA_CACHE_MAXSIZE");
}

/* The module with counter = @n (two digits): as big as any other @n. */
static char *variant(unsigned int n)
{
	const char *at = strstr(ptx, "counter = 5;");
	size_t head = (size_t)(at - ptx), len = strlen(ptx);
	char *text = malloc(len + 2);

	memcpy(text, ptx, head);
	snprintf(text + head, 14, "counter = %02u;", n % 100);
	memcpy(text + head + 13, at + 12, len - head - 12 + 1);
	return text;
}

/*
 * Compiles @text through the cache; the entry written in @path (empty
 * when none was) and its size.
 */
static uint64_t store(const char *text, char *path, size_t size)
{
	char before[16][64], name[256];
	struct vg_jit_image *img;
	DIR *d = opendir(cache_dir);
	struct dirent *e;
	struct stat st;
	char err[256];
	int n = 0, i;

	while (d && (e = readdir(d)))
		if (n < 16)
			snprintf(before[n++], sizeof(before[0]), "%.63s", e->d_name);
	if (d)
		closedir(d);
	REQUIRE_RES(0, vg_jit_compile_cached(text, strlen(text), &img, err,
					     sizeof(err)));
	vg_jit_free(img);
	path[0] = 0;
	d = opendir(cache_dir);
	while (d && (e = readdir(d))) {
		for (i = 0; i < n && strcmp(before[i], e->d_name); i++)
			;
		if (i == n && e->d_name[0] != '.')
			snprintf(path, size, "%s/%.64s", cache_dir, e->d_name);
	}
	if (d)
		closedir(d);
	snprintf(name, sizeof(name), "%s", path);
	return path[0] && !stat(name, &st) ? (uint64_t)st.st_size : 0;
}

/* Sets a file's times to @ago seconds before now. */
static void age(const char *path, time_t ago)
{
	struct timespec t[2];

	clock_gettime(CLOCK_REALTIME, &t[0]);
	t[0].tv_sec -= ago;
	t[1] = t[0];
	CHECK(utimensat(AT_FDCWD, path, t, 0) == 0);
}

static void max_size(uint64_t bytes)
{
	char v[32];

	snprintf(v, sizeof(v), "%llu", (unsigned long long)bytes);
	setenv("CUDA_CACHE_MAXSIZE", v, 1);
}

static bool cached(const char *text)
{
	struct vg_jit_image *hit = vg_jit_cache_lookup(text, strlen(text));

	vg_jit_free(hit);
	return hit != NULL;
}

/* The bytes of the cache's entries (*.vgjit) and of anything else. */
static uint64_t cache_bytes(uint64_t *others)
{
	DIR *d = opendir(cache_dir);
	uint64_t total = 0;
	struct dirent *e;
	struct stat st;
	char path[256];

	*others = 0;
	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		snprintf(path, sizeof(path), "%s/%.64s", cache_dir, e->d_name);
		if (e->d_name[0] == '.' || stat(path, &st))
			continue;
		if (n > 6 && !strcmp(e->d_name + n - 6, ".vgjit"))
			total += (uint64_t)st.st_size;
		else
			*others += (uint64_t)st.st_size;
	}
	if (d)
		closedir(d);
	return total;
}

/*
 * With room for three entries, a fourth pushes out the least recently
 * used: the oldest written, unless a hit used it since.
 */
static void least_recently_used_evicted(void)
{
	char *text[4], path[4][256];
	struct stat st;
	uint64_t size, others;
	unsigned int i;

	fresh_cache();
	for (i = 0; i < 4; i++)
		text[i] = variant(10 + i);
	size = store(text[0], path[0], sizeof(path[0]));
	CHECK(size > 0);
	max_size(3 * size + size / 2);
	for (i = 1; i < 3; i++)
		CHECK(store(text[i], path[i], sizeof(path[i])) == size);
	for (i = 0; i < 3; i++)
		age(path[i], 300 - 100 * i);
	/* A hit renews the oldest: the next oldest goes. */
	CHECK(cached(text[0]));
	CHECK(stat(path[0], &st) == 0 && st.st_mtime > time(NULL) - 60);
	CHECK(store(text[3], path[3], sizeof(path[3])) == size);
	CHECK(entries(NULL, 0) == 3);
	CHECK(stat(path[1], &st) == -1);
	CHECK(cached(text[0]) && !cached(text[1]) && cached(text[2]) &&
	      cached(text[3]));
	CHECK(cache_bytes(&others) == 3 * size && others == 0);
	/* Room for one: storing the one it lacks leaves only that one. */
	max_size(size);
	CHECK(store(text[1], path[1], sizeof(path[1])) == size);
	CHECK(entries(NULL, 0) == 1 && cached(text[1]));
	for (i = 0; i < 4; i++)
		free(text[i]);
	unsetenv("CUDA_CACHE_MAXSIZE");
	remove_cache();
}

/* An entry bigger than the whole cache is not written, nor makes room. */
static void entry_over_the_size_not_stored(void)
{
	char *small = variant(10), *big, path[256];
	size_t len = strlen(ptx);
	uint64_t size;

	fresh_cache();
	size = store(small, path, sizeof(path));
	max_size(2 * size);
	/* A comment is part of the text, so of the key the entry keeps. */
	big = malloc(len + 3 * size + 8);
	memcpy(big, ptx, len);
	memcpy(big + len, "// ", 3);
	memset(big + len + 3, 'x', 3 * size);
	strcpy(big + len + 3 + 3 * size, "\n");
	CHECK(store(big, path, sizeof(path)) == 0 && !path[0]);
	CHECK(entries(NULL, 0) == 1 && cached(small) && !cached(big));
	max_size(6 * size);
	CHECK(store(big, path, sizeof(path)) > 3 * size);
	CHECK(entries(NULL, 0) == 2);
	free(big);
	free(small);
	unsetenv("CUDA_CACHE_MAXSIZE");
	remove_cache();
}

/*
 * Only the cache's entries count and go: another program's file in the
 * directory, and a temporary file a writer has not renamed yet, stay.
 */
static void other_files_left_alone(void)
{
	static const char *const names[] = { "notes.txt",
					     "0123456789abcdef.vgjit.Ab12Cd" };
	char *text[3], path[3][256], other[256];
	uint64_t size, others;
	unsigned int i;
	FILE *f;

	fresh_cache();
	for (i = 0; i < 3; i++)
		text[i] = variant(20 + i);
	size = store(text[0], path[0], sizeof(path[0]));
	for (i = 0; i < 2; i++) {
		snprintf(other, sizeof(other), "%s/%s", cache_dir, names[i]);
		f = fopen(other, "w");
		CHECK(f && ftruncate(fileno(f), (off_t)(10 * size)) == 0);
		if (f)
			fclose(f);
	}
	max_size(2 * size + size / 2);
	CHECK(store(text[1], path[1], sizeof(path[1])) == size);
	age(path[0], 100);
	CHECK(store(text[2], path[2], sizeof(path[2])) == size);
	CHECK(!cached(text[0]) && cached(text[1]) && cached(text[2]));
	CHECK(cache_bytes(&others) == 2 * size && others == 20 * size);
	for (i = 0; i < 2; i++) {
		snprintf(other, sizeof(other), "%s/%s", cache_dir, names[i]);
		CHECK(unlink(other) == 0);
	}
	for (i = 0; i < 3; i++)
		free(text[i]);
	unsetenv("CUDA_CACHE_MAXSIZE");
	remove_cache();
}

/*
 * Processes storing into one directory at once: the total stays within
 * the size, no temporary file is left, and every entry that remains is
 * whole.
 */
static void concurrent_stores_keep_the_size(void)
{
	enum { PROCS = 4, EACH = 6 };
	char *text[PROCS * EACH], path[256];
	uint64_t size, others;
	unsigned int p, i, hits = 0;
	int status, ok = 1;

	fresh_cache();
	for (i = 0; i < PROCS * EACH; i++)
		text[i] = variant(30 + i);
	size = store(text[0], path, sizeof(path));
	CHECK(unlink(path) == 0);
	max_size(3 * size + size / 2);
	for (p = 0; p < PROCS; p++) {
		pid_t pid = fork();

		if (pid == 0) {
			for (i = 0; i < EACH; i++) {
				struct vg_jit_image *img;
				char err[256];

				if (vg_jit_compile_cached(text[p * EACH + i],
							  strlen(text[p * EACH + i]),
							  &img, err, sizeof(err)))
					_exit(1);
				vg_jit_free(img);
			}
			_exit(0);
		}
		CHECK(pid > 0);
	}
	for (p = 0; p < PROCS; p++)
		if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
			ok = 0;
	CHECK(ok);
	CHECK(cache_bytes(&others) <= 3 * size && others == 0);
	for (i = 0; i < PROCS * EACH; i++)
		hits += cached(text[i]);
	CHECK(hits >= 1 && hits == (unsigned int)entries(NULL, 0));
	for (i = 0; i < PROCS * EACH; i++)
		free(text[i]);
	unsetenv("CUDA_CACHE_MAXSIZE");
	remove_cache();
}

/* Line info survives the trip: each instruction's file and line. */
static void lines_round_trip(void)
{
	static const char text[] =
		".version 9.0\n.target sm_75\n.address_size 64\n"
		".visible .entry k(.param .u64 k_param_0)\n{\n"
		"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
		"\t.loc 1 10 1\n\tld.param.u64 %rd1, [k_param_0];\n"
		"\t.loc 2 20 5\n\tmov.u32 %r1, 7;\n"
		"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n"
		".file 1 \"/a/k.cu\"\n.file 2 \"/a/inc.h\"\n";
	struct vg_jit_image *img = compile(text), *back = NULL;
	unsigned char *buf;
	size_t len;
	char err[256];

	REQUIRE_RES(0, vg_modfile_save(img, &buf, &len));
	REQUIRE_RES(0, vg_modfile_load(buf, len, &back, err, sizeof(err)));
	CHECK(back->src && back->nfiles == 2);
	CHECK(!strcmp(back->files[0], "/a/k.cu") && !strcmp(back->files[1], "/a/inc.h"));
	CHECK(back->src && !memcmp(back->src, img->src, img->ninsns * sizeof(*img->src)));
	free(buf);
	vg_jit_free(back);
	vg_jit_free(img);
}

/*
 * A table of addresses of variables (nvcc's string tables): each element
 * holds the variable's offset in the global block, a data relocation the
 * loader completes, and the relocations survive the trip; a relocation
 * outside the block is refused.
 */
static void data_relocations_round_trip(void)
{
	static const char text[] =
		".version 9.0\n.target sm_75\n.address_size 64\n"
		".global .align 1 .b8 s[3] = {104, 105};\n"
		".global .align 1 .b8 t[2] = {33};\n"
		".global .align 8 .u64 names[3] = {generic(s), generic(t)+1, 7};\n"
		".visible .entry k(.param .u64 k_param_0)\n{\n"
		"\t.reg .b64 %rd<3>;\n"
		"\tld.param.u64 %rd1, [k_param_0];\n"
		"\tld.global.u64 %rd2, [names];\n"
		"\tst.global.u64 [%rd1], %rd2;\n\tret;\n}\n";
	struct vg_jit_image *img = compile(text), *back = NULL;
	uint64_t v[3], at;
	unsigned char *buf;
	size_t len;
	char err[256];

	CHECK(img->nvars == 3 && img->ndata_relocs == 2);
	at = img->vars[2].offset;
	CHECK(img->data_relocs[0] == at && img->data_relocs[1] == at + 8);
	memcpy(v, img->globals + at, sizeof(v));
	CHECK(v[0] == img->vars[0].offset && v[1] == img->vars[1].offset + 1 &&
	      v[2] == 7);
	REQUIRE_RES(0, vg_modfile_save(img, &buf, &len));
	REQUIRE_RES(0, vg_modfile_load(buf, len, &back, err, sizeof(err)));
	CHECK(back->ndata_relocs == 2 &&
	      !memcmp(back->data_relocs, img->data_relocs, 2 * sizeof(uint64_t)));
	CHECK(!memcmp(back->globals, img->globals, img->global_bytes));
	vg_jit_free(back);
	free(buf);

	/* The last relocation moved past the block, the checksum redone. */
	img->data_relocs[1] = img->global_bytes - 4;
	REQUIRE_RES(0, vg_modfile_save(img, &buf, &len));
	back = NULL;
	CHECK(vg_modfile_load(buf, len, &back, err, sizeof(err)) == -1 && !back);
	CHECK(strstr(err, "data relocation outside the global block") != NULL);
	free(buf);
	vg_jit_free(img);
}

static const struct tap_test tests[] = {
	TAP_TEST(lines_round_trip),
	TAP_TEST(data_relocations_round_trip),
	TAP_TEST(module_round_trip),
	TAP_TEST(damaged_files_refused),
	TAP_TEST(crafted_headers_refused),
	TAP_TEST(crafted_kernels_refused),
	TAP_TEST(truncated_huge_block_costs_nothing),
	TAP_TEST(other_keys_refused),
	TAP_TEST(cache_finds_what_it_stored),
	TAP_TEST(bad_entries_ignored_and_rewritten),
	TAP_TEST(cache_disable_honoured),
	TAP_TEST(key_changes_with_the_text),
	TAP_TEST(cache_directory_names),
	TAP_TEST(cache_directory_made),
	TAP_TEST(cache_max_size_read),
	TAP_TEST(least_recently_used_evicted),
	TAP_TEST(entry_over_the_size_not_stored),
	TAP_TEST(other_files_left_alone),
	TAP_TEST(concurrent_stores_keep_the_size),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
