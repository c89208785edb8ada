// SPDX-License-Identifier: GPL-2.0
/*
 * Copies whose source and destination overlap follow one rule in every
 * kind of memory (uapi/vgpu.h, struct vgpu_cmd_copy): each row acts as
 * memmove, and rows go from the last to the first when the destination
 * is above the source, so a copy with the same layout on both sides is
 * memmove as a whole. Checked against a model in device memory, in
 * registered host memory (mapped by the engine a page at a time) and in
 * memory from HOST_ALLOC, for shifts within a word, across words and
 * across pages, up and down.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"
#include "vgpu_chan_util.h"

#define SPAN (64 * 4096)	/* bytes each test works in */

enum kind { DEVICE, REGISTERED, ALLOCATED };

FIXTURE(overlap) {
	int fd;
	void *status;
	struct chan c;
	__u64 va;		/* where the engines see the span */
	unsigned char *cpu;	/* where the test sees it: the span, or
				 * (device memory) a registered staging copy */
	unsigned char *model;
	__u64 done;		/* commands completed */
};

FIXTURE_VARIANT(overlap) {
	enum kind kind;
};

FIXTURE_VARIANT_ADD(overlap, device) { .kind = DEVICE };
FIXTURE_VARIANT_ADD(overlap, registered) { .kind = REGISTERED };
FIXTURE_VARIANT_ADD(overlap, allocated) { .kind = ALLOCATED };

static unsigned char *map_registered(int fd)
{
	struct vgpu_host_register hr = { .size = SPAN };
	unsigned char *p = mmap(NULL, SPAN, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	memset(p, 0, SPAN);	/* every page there before it is pinned */
	hr.addr = (uintptr_t)p;
	return ioctl(fd, VGPU_IOCTL_HOST_REGISTER, &hr) ? NULL : p;
}

FIXTURE_SETUP(overlap)
{
	self->fd = open_ctx(&self->status, 1ULL << 44);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, chan_open(self->fd, &self->c, self->status));
	self->model = malloc(SPAN);
	ASSERT_NE(NULL, self->model);
	self->done = 0;
	if (variant->kind == DEVICE) {
		struct vgpu_mem_alloc ma = { .size = SPAN };

		ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_ALLOC, &ma));
		self->va = ma.va;
		self->cpu = map_registered(self->fd);
		ASSERT_NE(NULL, self->cpu);
	} else if (variant->kind == REGISTERED) {
		self->cpu = map_registered(self->fd);
		ASSERT_NE(NULL, self->cpu);
		self->va = (uintptr_t)self->cpu;
	} else {
		struct vgpu_host_alloc ha = { .size = SPAN };

		ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &ha));
		self->cpu = mmap(NULL, SPAN, PROT_READ | PROT_WRITE,
				 MAP_SHARED, self->fd, ha.offset);
		ASSERT_NE(MAP_FAILED, self->cpu);
		self->va = (uintptr_t)self->cpu;
	}
}

FIXTURE_TEARDOWN(overlap)
{
	free(self->model);
	close(self->fd);
}

/* A pattern with no period a shift could hide behind. */
static void pattern(unsigned char *p, size_t n, unsigned int seed)
{
	uint32_t x = 2463534242u ^ seed;
	size_t i;

	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (unsigned char)x;
	}
}

/* Commands to the channel, waited for; 0 or -1 with errno. */
static int run(FIXTURE_DATA(overlap) *self, int n)
{
	self->done += n;
	if (submit(&self->c))
		return -1;
	return wait_for(&self->c, self->done);
}

/*
 * Sets the span to @seed's pattern, runs @cc (its addresses offsets into
 * the span), and leaves what the span then holds in self->cpu.
 */
static int span_copy(FIXTURE_DATA(overlap) *self, bool device,
		     unsigned int seed, struct vgpu_cmd_copy cc)
{
	struct vgpu_cmd *cmd;
	int n = 1;

	pattern(self->model, SPAN, seed);
	memcpy(self->cpu, self->model, SPAN);
	if (device) {
		cmd_copy(&self->c, self->va, (uintptr_t)self->cpu, SPAN, 1, 0, 0);
		n++;
	}
	cc.src += self->va;
	cc.dst += self->va;
	cmd = slot(&self->c);
	cmd->op = VGPU_CMD_COPY;
	cmd->copy = cc;
	if (device) {
		cmd_copy(&self->c, (uintptr_t)self->cpu, self->va, SPAN, 1, 0, 0);
		n++;
	}
	return run(self, n);
}

/* The rule, on the model: rows as memmove, last first going up. */
static void model_copy(unsigned char *m, const struct vgpu_cmd_copy *cc)
{
	__u32 depth = cc->depth ? cc->depth : 1, i, j;
	bool down = cc->dst > cc->src;

	for (i = 0; i < depth; i++)
		for (j = 0; j < cc->height; j++) {
			__u32 z = down ? depth - 1 - i : i;
			__u32 y = down ? cc->height - 1 - j : j;

			memmove(m + cc->dst + ((__u64)z * cc->dst_height + y) * cc->dst_pitch,
				m + cc->src + ((__u64)z * cc->src_height + y) * cc->src_pitch,
				cc->width);
		}
}

static long first_difference(const unsigned char *a, const unsigned char *b)
{
	long i;

	for (i = 0; i < SPAN; i++)
		if (a[i] != b[i])
			return i;
	return -1;
}

/*
 * One-row copies over their own source: shifts of 1, 7 and 8 bytes, a
 * page and a bit, and less than a row's length by one, both ways, with
 * lengths that cross several pages.
 */
TEST_F(overlap, linear_copies_are_memmove)
{
	static const long shifts[] = { 1, 7, 8, 4099, 3 * 4096, -1, -7, -8,
				       -4099, -3 * 4096 };
	static const __u64 lens[] = { 5, 100, 4096, 5 * 4096 + 13,
				      40 * 4096 + 1 };
	unsigned int seed = 0, i, j;

	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		for (j = 0; j < sizeof(shifts) / sizeof(shifts[0]); j++) {
			__u64 len = lens[i], base = 8 * 4096 + 5;
			long sh = shifts[j];
			struct vgpu_cmd_copy cc = {
				.src = base, .dst = base + sh, .width = len,
				.height = 1,
			};

			if ((__u64)labs(sh) >= len)
				continue;
			ASSERT_EQ(0, span_copy(self, variant->kind == DEVICE,
					       ++seed, cc));
			model_copy(self->model, &cc);
			EXPECT_EQ(-1, first_difference(self->model, self->cpu))
				TH_LOG("%llu bytes shifted by %ld",
				       (unsigned long long)len, sh);
		}
	}
}

/*
 * 2D and 3D copies with the same layout on both sides act as memmove
 * whole; with different pitches the rows follow the rule one by one.
 */
TEST_F(overlap, pitched_copies_follow_the_rule)
{
	static const struct vgpu_cmd_copy cases[] = {
		/* same pitch: up and down by a byte, by a row and a bit */
		{ .src = 4096, .dst = 4097, .width = 3000, .height = 20,
		  .src_pitch = 4100, .dst_pitch = 4100 },
		{ .src = 4097, .dst = 4096, .width = 3000, .height = 20,
		  .src_pitch = 4100, .dst_pitch = 4100 },
		{ .src = 4096, .dst = 4096 + 4100 + 9, .width = 4100,
		  .height = 20, .src_pitch = 4100, .dst_pitch = 4100 },
		{ .src = 4096 + 4100 + 9, .dst = 4096, .width = 4100,
		  .height = 20, .src_pitch = 4100, .dst_pitch = 4100 },
		/* 3D, same layout, a slice and a row up */
		{ .src = 4096, .dst = 4096 + 5 * 1000 + 1000, .width = 900,
		  .height = 4, .depth = 6, .src_pitch = 1000,
		  .dst_pitch = 1000, .src_height = 5, .dst_height = 5 },
		/* different pitches, overlapping: row by row */
		{ .src = 4096, .dst = 4096 + 100, .width = 700, .height = 30,
		  .src_pitch = 1024, .dst_pitch = 768 },
		{ .src = 4096 + 100, .dst = 4096, .width = 700, .height = 30,
		  .src_pitch = 768, .dst_pitch = 1024 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ASSERT_EQ(0, span_copy(self, variant->kind == DEVICE, 100 + i,
				       cases[i]));
		model_copy(self->model, &cases[i]);
		EXPECT_EQ(-1, first_difference(self->model, self->cpu))
			TH_LOG("case %u", i);
	}
}

TEST_HARNESS_MAIN
