// SPDX-License-Identifier: MIT
/*
 * Device-side malloc and free, and CU_LIMIT_MALLOC_HEAP_SIZE, against what
 * an H100 did with the same kernels (tests/e2e/ref/h100_devmalloc_k.cu,
 * compiled by nvcc at build time) and the same calls
 * (tests/e2e/ref/h100_devmalloc.log, from h100_devmalloc.c there). Codes
 * and results that do not depend on the allocator's layout are compared
 * as they are; how much of a heap is usable is compared as "at least what
 * the H100 gave, at most the heap" (NVIDIA's allocator spends part of the
 * heap on itself, 80 bytes per small block; vgpu's keeps its bitmaps
 * outside the heap). Each test has a
 * context of its own, as each group of the probe had a process of its own.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_devmalloc.log"
#define MiB (1024ull * 1024)

static CUcontext ctx;
static CUmodule mod;
static CUdeviceptr scratch;	/* 64 KiB of zeroes */
static CUdeviceptr ptrs;	/* 1 Mi pointers, zeroed */
static CUdeviceptr cnt;

/* The probe's group ("## NAME" in its log) that the current test follows. */
static const char *group;

/* The rest of the first line of @group in the H100's log that starts with @key. */
static const char *h100_line(const char *key)
{
	static char line[512];
	size_t n = strlen(key);
	FILE *f = fopen(H100_LOG, "r");
	bool in = false, found = false;

	if (!f) {
		TAP_FAIL("cannot read %s", H100_LOG);
		exit(1);
	}
	while (!found && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "## ", 3)) {
			line[strcspn(line, "\n")] = 0;
			in = !strcmp(line + 3, group);
		} else {
			found = in && !strncmp(line, key, n);
		}
	}
	fclose(f);
	if (!found) {
		TAP_FAIL("no line \"%s\" in group \"%s\" of %s", key, group, H100_LOG);
		exit(1);
	}
	return line + n;
}

/* The number after "@key = " in the H100's log. */
static long long h100(const char *key)
{
	char k[256];

	snprintf(k, sizeof(k), "%s = ", key);
	return strtoll(h100_line(k), NULL, 0);
}

/* The number after "@word " in the H100's line that starts with @key. */
static long long h100_field(const char *key, const char *word)
{
	const char *p = strstr(h100_line(key), word);

	if (!p) {
		TAP_FAIL("no \"%s\" in the line \"%s\" of %s", word, key, H100_LOG);
		exit(1);
	}
	return strtoll(p + strlen(word), NULL, 0);
}

/* A context of its own, current; the log's group @name to compare with. */
static void setup(const char *name)
{
	group = name;
	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, 0));
}

static void load(void)
{
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoad(&mod, PTX_FILE));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&scratch, 65536));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD8(scratch, 0, 65536));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&ptrs, 8 * MiB));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD8(ptrs, 0, 8 * MiB));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&cnt, 8));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD8(cnt, 0, 8));
}

static CUresult launch(const char *k, unsigned int g, unsigned int b, void **a)
{
	CUfunction f;
	CUresult r = cuModuleGetFunction(&f, mod, k);

	if (r)
		return r;
	r = cuLaunchKernel(f, g, 1, 1, b, 1, 1, 0, NULL, a, NULL);
	return r ? r : cuCtxSynchronize();
}

static unsigned int count(void)
{
	unsigned int v = 0;

	REQUIRE_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, cnt, 4));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD8(cnt, 0, 8));
	return v;
}

static size_t limit(void)
{
	size_t v = 0;

	CHECK_RES(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
	return v;
}

static size_t freemem(void)
{
	size_t f = 0, t = 0;

	REQUIRE_RES(CUDA_SUCCESS, cuMemGetInfo(&f, &t));
	return f;
}

/* Thread 0 mallocs each size of @sz; the pointers land in @out. */
static CUresult sizes(const unsigned long long *sz, unsigned long long *out, int n)
{
	CUdeviceptr dsz = scratch, dout = scratch + 32768;
	void *a[] = { &dsz, &dout, &n };
	CUresult r;

	REQUIRE_RES(CUDA_SUCCESS, cuMemcpyHtoD(dsz, sz, n * 8));
	r = launch("k_sizes", 1, 1, a);
	if (!r)
		REQUIRE_RES(CUDA_SUCCESS, cuMemcpyDtoH(out, dout, n * 8));
	return r;
}

static CUresult free_ptrs(CUdeviceptr p, int n)
{
	void *a[] = { &p, &n };

	return launch("k_free", 1, 256, a);
}

static unsigned long long largest(size_t hi, size_t step)
{
	unsigned long long v = 0;
	CUdeviceptr o = scratch;
	void *a[] = { &hi, &step, &o };

	CHECK_RES(CUDA_SUCCESS, launch("k_largest", 1, 1, a));
	REQUIRE_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, o, 8));
	return v;
}

/* The heap is made at the first launch of a kernel that mallocs. */
static void heap_made_at_first_malloc_launch(void)
{
	unsigned long long one = 16, p = 0;
	size_t f1, f2, f3;
	CUdeviceptr o;
	void *a[] = { &o };

	setup("defaults");
	CHECK(limit() == (size_t)h100("default limit"));
	load();
	o = cnt;
	f1 = freemem();
	CHECK_RES(h100("plain launch"), launch("k_plain", 1, 1, a));
	f2 = freemem();
	CHECK_RES(h100("malloc launch"), sizes(&one, &p, 1));
	f3 = freemem();
	/* The H100 took 10 MiB for its 8 MiB heap (and 2 MiB at its first launch). */
	CHECK(f1 - f2 < limit());
	CHECK(f2 - f3 >= limit());
	CHECK(f2 - f3 <= (size_t)h100("free drop at malloc launch"));
	CHECK((p != 0) == !h100("malloc 16 null"));
}

static void malloc_sizes_alignment_and_heap_pointers(void)
{
	static const unsigned long long sz[] = {
		0, 1, 2, 3, 4, 8, 12, 16, 17, 24, 32, 33, 48, 64, 100, 128,
		256, 1000, 4096, 65536, 1 * MiB, 4 * MiB, 8 * MiB, 16 * MiB,
		~0ull, 1ull << 40,
	};
	int n = sizeof(sz) / sizeof(sz[0]), i, j;
	unsigned long long out[32];
	CUdeviceptr base = 0;
	size_t size = 0;
	unsigned int v = 0;
	CUcontext c = NULL;

	setup("sizes");
	load();
	CHECK_RES(h100("sizes rc"), sizes(sz, out, n));
	for (i = 0; i < n; i++) {
		char key[64];
		long long null;

		snprintf(key, sizeof(key), "malloc %llu: ", sz[i]);
		null = h100_field(key, "null ");
		/*
		 * malloc(SIZE_MAX) returned a block on the H100, whose
		 * allocator adds its header to the size and wraps; vgpu
		 * answers NULL, as malloc must when it cannot give the size.
		 */
		if (sz[i] == ~0ull)
			null = 1;
		if ((out[i] == 0) != null)
			TAP_FAIL("malloc(%llu) gave %#llx, the H100 %s", sz[i],
				 out[i], null ? "NULL" : "a block");
		if (out[i] % 16 != (unsigned long long)h100_field(key, "mod16 "))
			TAP_FAIL("malloc(%llu) gave %#llx: not 16-aligned", sz[i], out[i]);
		for (j = 0; j < i; j++)
			if (out[i] && out[i] == out[j])
				TAP_FAIL("malloc(%llu) and malloc(%llu) gave one block",
					 sz[i], sz[j]);
	}
	/* Heap blocks are no allocations of the program's. */
	CHECK_RES(h100("heap ptr getaddressrange"),
		  cuMemGetAddressRange(&base, &size, out[0]));
	CHECK_RES(h100("heap ptr dtoh"), cuMemcpyDtoH(&v, out[0], 4));
	CHECK_RES(h100("heap ptr htod"), cuMemcpyHtoD(out[0], &v, 4));
	CHECK_RES(h100("heap ptr memset"), cuMemsetD8(out[0], 0, 4));
	CHECK_RES(h100("heap ptr attr context"),
		  cuPointerGetAttribute(&c, CU_POINTER_ATTRIBUTE_CONTEXT, out[0]));
	CHECK_RES(h100("heap ptr memfree"), cuMemFree(out[0]));
	REQUIRE_RES(CUDA_SUCCESS, cuMemcpyHtoD(ptrs, out, n * 8));
	CHECK_RES(h100("free sizes rc"), free_ptrs(ptrs, n));
}

/*
 * Each thread of @g x @b mallocs @sz bytes until NULL or @cap blocks;
 * returns how many it got, all freed again.
 */
static unsigned int fill(size_t sz, unsigned int g, unsigned int b, int cap)
{
	void *a[] = { &sz, &ptrs, &cap, &cnt };
	unsigned int c;

	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD8(ptrs, 0, 8 * MiB));
	CHECK_RES(CUDA_SUCCESS, launch("k_fill", g, b, a));
	c = count();
	CHECK_RES(CUDA_SUCCESS, free_ptrs(ptrs, (int)(g * b * cap)));
	return c;
}

/* At least what the H100 gave of the line @key's count, at most @max. */
static void check_fill(const char *key, unsigned int got, unsigned long long max)
{
	long long want = h100_field(key, "count ");

	if (got < want || got > max)
		TAP_FAIL("%s: %u blocks, the H100 %lld, the most %llu", key, got,
			 want, max);
}

static void usable_heap_and_reuse(void)
{
	unsigned long long l, heap = 8 * MiB;

	setup("fill");
	load();
	l = largest(8 * MiB, 65536);
	CHECK(l >= (unsigned long long)h100("largest default (64K steps)") && l <= heap);
	check_fill("fill 4096 x1: ", fill(4096, 1, 1, 4096), heap / 4096);
	check_fill("fill 4096 x1 again: ", fill(4096, 1, 1, 4096), heap / 4096);
	check_fill("fill 65536 x1: ", fill(65536, 1, 1, 1024), heap / 65536);
	check_fill("fill 1MiB x1: ", fill(MiB, 1, 1, 64), heap / MiB);
	/* Capped near the H100's count: a first fit over 512 Ki granules is slow. */
	check_fill("fill 16 x256: ", fill(16, 1, 256, 400), heap / 16);
	check_fill("fill 100 x256: ", fill(100, 1, 256, 200), heap / 112);
	check_fill("fill 1024 x1024: ", fill(1024, 4, 256, 128), heap / 1024);
	l = largest(8 * MiB, 65536);
	CHECK(l >= (unsigned long long)h100("largest after fills") && l <= heap);
}

static void free_null_and_malloc_free_loops(void)
{
	int iters = 1000;
	size_t sz = MiB;
	void *a[] = { &sz, &iters, &cnt };

	setup("null and loop");
	load();
	CHECK_RES(h100("free null rc"), free_ptrs(ptrs, 1024));
	CHECK_RES(h100("loop 1MiB x1000 rc"), launch("k_loop", 1, 1, a));
	CHECK(count() == h100("loop 1MiB x1000 ok"));
	sz = 65536;
	CHECK_RES(h100("loop 64KiB x1000 x64 threads rc"), launch("k_loop", 1, 64, a));
	CHECK(count() == h100("loop 64KiB x1000 x64 threads ok"));
}

static void blocks_outlive_their_launch(void)
{
	void *a[] = { &ptrs };
	void *b[] = { &ptrs, &cnt };
	unsigned long long p[256];
	int i, nul = 0;

	setup("cross launch");
	load();
	CHECK_RES(h100("keep rc"), launch("k_keep", 4, 64, a));
	REQUIRE_RES(CUDA_SUCCESS, cuMemcpyDtoH(p, ptrs, sizeof(p)));
	for (i = 0; i < 256; i++)
		nul += !p[i];
	CHECK(nul == h100("keep nulls"));
	CHECK_RES(h100("check rc"), launch("k_check", 4, 64, b));
	CHECK(count() == h100("check good words"));
}

static void limit_fixed_after_malloc_launch(void)
{
	unsigned long long one = 16, p = 0, l;

	setup("setlimit after malloc launch");
	load();
	CHECK_RES(h100("setlimit after load, before launch"),
		  cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 16 * MiB));
	CHECK(limit() == (size_t)h100("limit"));
	CHECK_RES(h100("malloc launch"), sizes(&one, &p, 1));
	CHECK_RES(h100("setlimit 64M after malloc launch"),
		  cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 64 * MiB));
	CHECK(limit() == (size_t)h100("limit after"));
	CHECK_RES(h100("setlimit same after malloc launch"),
		  cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 16 * MiB));
	CHECK_RES(h100("setlimit 1M after malloc launch"),
		  cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, MiB));
	CHECK(limit() == (size_t)h100("limit after smaller"));
	/* The other limits stay settable. */
	CHECK_RES(h100("setlimit stack after malloc launch"),
		  cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 2048));
	CHECK_RES(h100("setlimit printf fifo after malloc launch"),
		  cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 2 * MiB));
	l = largest(64 * MiB, MiB);
	CHECK(l >= (unsigned long long)h100("largest") && l <= 16 * MiB);
}

static void limit_settable_after_plain_launch(void)
{
	unsigned long long l;
	CUdeviceptr o;
	void *a[] = { &o };

	setup("setlimit after plain launch");
	load();
	o = cnt;
	CHECK_RES(CUDA_SUCCESS, launch("k_plain", 1, 1, a));
	CHECK_RES(h100("setlimit 64M after plain launch"),
		  cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 64 * MiB));
	CHECK(limit() == (size_t)h100("limit"));
	l = largest(64 * MiB, MiB);
	CHECK(l >= (unsigned long long)h100("largest") && l <= 64 * MiB);
	CHECK_RES(h100("setlimit 32M after malloc launch"),
		  cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 32 * MiB));
	CHECK(limit() == (size_t)h100("limit after"));
}

static void larger_heap_is_usable(void)
{
	unsigned long long sz = 40 * MiB, p = 0, l;
	size_t f0, f1;

	setup("big heap");
	load();
	CHECK_RES(h100("setlimit 64M"), cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 64 * MiB));
	f0 = freemem();
	CHECK_RES(h100("malloc 40M rc"), sizes(&sz, &p, 1));
	f1 = freemem();
	CHECK((p == 0) == !!h100("malloc 40M null"));
	CHECK(f0 - f1 >= 64 * MiB);
	CHECK(f0 - f1 <= (size_t)h100("free drop at launch"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemcpyHtoD(ptrs, &p, 8));
	CHECK_RES(CUDA_SUCCESS, free_ptrs(ptrs, 1));
	l = largest(64 * MiB, 65536);
	CHECK(l >= (unsigned long long)h100("largest 64M heap (64K steps)") &&
	      l <= 64 * MiB);
}

static void default_heap_refuses_40m(void)
{
	unsigned long long sz = 40 * MiB, p = 1;

	setup("default heap 40M");
	load();
	CHECK_RES(h100("malloc 40M default rc"), sizes(&sz, &p, 1));
	CHECK((p == 0) == !!h100("malloc 40M default null"));
}

static void limit_rounding_and_smallest_heap(void)
{
	setup("rounding");
	load();
	CHECK_RES(h100("setlimit 1000000"),
		  cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 1000000));
	CHECK(limit() == (size_t)h100("limit"));
	CHECK_RES(h100("setlimit 1"), cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 1));
	CHECK(limit() == 4 * MiB);
	CHECK(largest(MiB, 16) == (unsigned long long)h100("largest 1-byte heap"));
	CHECK(limit() == (size_t)h100("limit after launch"));
}

/* free() of memory malloc did not give: left alone, or a fault. */
static void free_of_foreign_pointers(void)
{
	unsigned long long p;
	void *a[] = { &p };

	setup("bad free");
	load();
	p = cnt;
	CHECK_RES(h100("free cuMemAlloc ptr rc"), launch("k_badfree", 1, 1, a));
	p = 0x1234;
	CHECK_RES(h100("free 0x1234 rc"), launch("k_badfree", 1, 1, a));
}

static void double_free_stops_the_kernel(void)
{
	unsigned long long one = 64, p = 0;

	setup("double free");
	load();
	CHECK_RES(h100("malloc rc"), sizes(&one, &p, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuMemcpyHtoD(ptrs, &p, 8));
	CHECK_RES(h100("free once rc"), free_ptrs(ptrs, 1));
	CHECK_RES(h100("free twice rc"), free_ptrs(ptrs, 1));
}

/* vgpu's own: the H100's context was gone by then. */
static void free_inside_a_block_stops_the_kernel(void)
{
	unsigned long long one = 64, p = 0;

	setup("double free");
	load();
	CHECK_RES(CUDA_SUCCESS, sizes(&one, &p, 1));
	p += 16;
	REQUIRE_RES(CUDA_SUCCESS, cuMemcpyHtoD(ptrs, &p, 8));
	CHECK_RES(CUDA_ERROR_LAUNCH_FAILED, free_ptrs(ptrs, 1));
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(heap_made_at_first_malloc_launch),
		TAP_TEST(malloc_sizes_alignment_and_heap_pointers),
		TAP_TEST(usable_heap_and_reuse),
		TAP_TEST(free_null_and_malloc_free_loops),
		TAP_TEST(blocks_outlive_their_launch),
		TAP_TEST(limit_fixed_after_malloc_launch),
		TAP_TEST(limit_settable_after_plain_launch),
		TAP_TEST(larger_heap_is_usable),
		TAP_TEST(default_heap_refuses_40m),
		TAP_TEST(limit_rounding_and_smallest_heap),
		TAP_TEST(free_of_foreign_pointers),
		TAP_TEST(double_free_stops_the_kernel),
		TAP_TEST(free_inside_a_block_stops_the_kernel),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
