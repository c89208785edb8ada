// SPDX-License-Identifier: MIT
/*
 * The device-address window of a first-ABI context (libvgpu/abi_v1.c):
 * an inaccessible range of the process below 4 GiB, aligned as the
 * module wants, that skips what is already mapped, shrinks when the
 * space below 4 GiB is crowded and is refused once none is left. What
 * else lies below 4 GiB depends on the process (the sanitizers' shadow
 * takes part of it), so the cases assert the contract, not addresses.
 */
#include <errno.h>
#include <sys/mman.h>

#include "tap.h"
#include "vg.h"

#define MIB (1ULL << 20)
#define GIB (1ULL << 30)

/* Is [p, p + size) a valid window of the first ABI, and reserved? */
static void check_window(const void *p, uint64_t size, uint64_t asked)
{
	uint64_t base = (uintptr_t)p;
	void *again;

	CHECK(p != NULL);
	CHECK(base % VGPU_VA_ALIGN == 0 && size % VGPU_VA_ALIGN == 0);
	CHECK(base >= VGPU_VA_ALIGN && base + size <= VG_V1_VA_END);
	CHECK(size >= 64 * MIB && size <= asked);
	/* Mapped: the same range cannot be had again. */
	again = mmap((void *)(uintptr_t)base, VGPU_VA_ALIGN, PROT_NONE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	CHECK(again == MAP_FAILED && errno == EEXIST);
}

static bool overlap(const void *a, uint64_t as, const void *b, uint64_t bs)
{
	uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;

	return x < y + bs && y < x + as;
}

static void reserves_below_4g(void)
{
	uint64_t size = 512 * MIB;
	void *p = vg_v1_window_reserve(&size);

	check_window(p, size, 512 * MIB);
	if (p)
		munmap(p, size);
}

/* Taken ranges are skipped; a window too big for what is left shrinks. */
static void skips_taken_and_shrinks(void)
{
	uint64_t s1 = 512 * MIB, s2 = 512 * MIB, s3 = 3 * GIB;
	void *p1 = vg_v1_window_reserve(&s1);
	void *p2 = vg_v1_window_reserve(&s2);
	void *p3;

	check_window(p1, s1, 512 * MIB);
	check_window(p2, s2, 512 * MIB);
	CHECK(!overlap(p1, s1, p2, s2));
	/*
	 * The first, the highest free one, lies in [1 GiB, 4 GiB), the only
	 * place of a 3 GiB window: the third is smaller.
	 */
	CHECK(overlap(p1, s1, (void *)(uintptr_t)GIB, 3 * GIB));
	p3 = vg_v1_window_reserve(&s3);
	check_window(p3, s3, 3 * GIB);
	CHECK(s3 < 3 * GIB);
	CHECK(!overlap(p3, s3, p1, s1) && !overlap(p3, s3, p2, s2));
	munmap(p1, s1);
	munmap(p2, s2);
	if (p3)
		munmap(p3, s3);
}

/* Windows of the smallest size until none is left: then NULL. */
static void refused_when_full(void)
{
	enum { MAX = (int)(VG_V1_VA_END / (64 * MIB)) };
	uint64_t sizes[MAX + 1];
	void *got[MAX + 1];
	int n, i;

	for (n = 0; n <= MAX; n++) {
		sizes[n] = 64 * MIB;
		got[n] = vg_v1_window_reserve(&sizes[n]);
		if (!got[n])
			break;
		check_window(got[n], sizes[n], 64 * MIB);
		for (i = 0; i < n; i++)
			CHECK(!overlap(got[n], sizes[n], got[i], sizes[i]));
	}
	CHECK(n > 0 && n < MAX);
	for (i = 0; i < n; i++)
		munmap(got[i], sizes[i]);
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(reserves_below_4g),
		TAP_TEST(skips_taken_and_shrinks),
		TAP_TEST(refused_when_full),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
