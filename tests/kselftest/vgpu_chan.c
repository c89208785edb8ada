// SPDX-License-Identifier: GPL-2.0
/*
 * Channels and the copy engine at the ioctl level: creating channels, the
 * read-only status page, the doorbell (commands copied out of the user
 * ring, each malformed one refused), copies, fills and semaphore releases
 * between device memory and registered host memory, sticky faults, and
 * teardown with work in flight, and waits that a destroy ends; a full
 * queue refusing the doorbell (-EAGAIN, as uapi/vgpu.h documents).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tests/vgpu_errno.h"
#include "uapi/vgpu.h"
#include "vgpu_chan_util.h"

#define DEV "/dev/vgpu0"

FIXTURE(chan) {
	int fd;
	void *status;
	struct chan c;
	unsigned char *host;	/* 4 MiB, registered */
	__u64 dev;		/* 4 MiB of device memory */
};

FIXTURE_SETUP(chan)
{
	struct vgpu_va_window w = { .base = 1ULL << 44, .size = 1ULL << 32 };
	struct vgpu_mem_alloc a = { .size = 4 * MIB };
	struct vgpu_host_register r = { .size = 4 * MIB };

	self->fd = open(DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	self->status = mmap(NULL, getpagesize(), PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, self->status);
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_SET_VA_WINDOW, &w));
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_ALLOC, &a));
	self->dev = a.va;
	self->host = mmap(NULL, 4 * MIB, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->host);
	r.addr = (__u64)(uintptr_t)self->host;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	ASSERT_EQ(0, chan_open(self->fd, &self->c, self->status));
}

FIXTURE_TEARDOWN(chan)
{
	munmap(self->status, getpagesize());
	close(self->fd);
	munmap(self->host, 4 * MIB);
	free(self->c.ring);
}

TEST_F(chan, nops_complete_in_order)
{
	int i;

	for (i = 0; i < 10; i++)
		slot(&self->c)->op = VGPU_CMD_NOP;
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 10));
	EXPECT_EQ(10, self->c.status->completed);
	EXPECT_EQ(0, self->c.status->error);
	/* An empty doorbell is fine. */
	EXPECT_EQ(0, submit(&self->c));
}

TEST_F(chan, round_trip_through_device_memory)
{
	unsigned char *in = self->host, *out = self->host + 2 * MIB;
	size_t i, n = MIB + 123;

	for (i = 0; i < n; i++)
		in[i] = (unsigned char)(i * 7 + 3);
	memset(out, 0, n);
	cmd_copy(&self->c, self->dev, (uintptr_t)in, n, 1, 0, 0);
	cmd_copy(&self->c, self->dev + 2 * MIB, self->dev, n, 1, 0, 0);
	cmd_copy(&self->c, (uintptr_t)out, self->dev + 2 * MIB, n, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, self->c.put));
	EXPECT_EQ(0, memcmp(in, out, n));
}

TEST_F(chan, pitched_copy)
{
	unsigned char *in = self->host, *out = self->host + MIB;
	int row, col, bad = 0;

	for (row = 0; row < 16; row++)
		for (col = 0; col < 100; col++)
			in[row * 128 + col] = (unsigned char)(row * 100 + col);
	memset(out, 0xee, 16 * 256);
	/* Host rows of 128 bytes -> device rows of 512 -> host rows of 256. */
	cmd_copy(&self->c, self->dev, (uintptr_t)in, 100, 16, 512, 128);
	cmd_copy(&self->c, (uintptr_t)out, self->dev, 100, 16, 256, 512);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, self->c.put));
	for (row = 0; row < 16; row++) {
		for (col = 0; col < 100; col++)
			bad += out[row * 256 + col] != (unsigned char)(row * 100 + col);
		for (col = 100; col < 256; col++)
			bad += out[row * 256 + col] != 0xee;
	}
	EXPECT_EQ(0, bad);
}

/* 3 slices of 4 rows of 100 bytes, with gaps between rows and slices. */
TEST_F(chan, copy_3d)
{
	enum { W = 100, H = 4, D = 3, SP = 128, SH = 6, DP = 256, DH = 5 };
	unsigned char *src = self->host, *dst = self->host + MIB;
	int x, y, z, bad = 0;

	for (x = 0; x < SP * SH * D; x++)
		src[x] = (unsigned char)(x * 7 + 3);
	memset(dst, 0xee, DP * DH * D);
	cmd_copy(&self->c, self->dev, (uintptr_t)src, W, H, DP, SP);
	self->c.ring[(self->c.put - 1) % RING].copy.depth = D;
	self->c.ring[(self->c.put - 1) % RING].copy.src_height = SH;
	self->c.ring[(self->c.put - 1) % RING].copy.dst_height = DH;
	cmd_copy(&self->c, (uintptr_t)dst, self->dev, DP * DH * D, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 2));
	for (z = 0; z < D; z++)
		for (y = 0; y < DH; y++)
			for (x = 0; x < DP; x++) {
				unsigned char got = dst[(z * DH + y) * DP + x];
				int want = y < H && x < W ?
					src[(z * SH + y) * SP + x] : 0;

				bad += got != want;
			}
	EXPECT_EQ(0, bad);
}

TEST_F(chan, memset_patterns)
{
	uint16_t *h16 = (uint16_t *)(self->host + 8192);
	uint32_t *h32 = (uint32_t *)(self->host + 16384);
	int i, bad = 0;

	cmd_memset(&self->c, self->dev, 0xab, 1, 1000);
	cmd_memset(&self->c, self->dev + 8192, 0xbeef, 2, 1000);
	cmd_memset(&self->c, self->dev + 16384, 0xdeadbeef, 4, 1000);
	cmd_copy(&self->c, (uintptr_t)self->host, self->dev, 24576, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, self->c.put));
	for (i = 0; i < 1000; i++) {
		bad += self->host[i] != 0xab;
		bad += h16[i] != 0xbeef;
		bad += h32[i] != 0xdeadbeef;
	}
	/* Device memory starts zeroed, and nothing past the fill changed. */
	bad += self->host[1000] != 0 || h16[1000] != 0 || h32[1000] != 0;
	EXPECT_EQ(0, bad);
}

TEST_F(chan, semaphore_release)
{
	volatile __u64 *sem = (volatile __u64 *)self->host;
	struct vgpu_cmd *cmd;
	__u64 before = now_ns(), after;

	cmd = slot(&self->c);
	cmd->op = VGPU_CMD_SEM_RELEASE;
	cmd->flags = VGPU_SEM_TIMESTAMP;
	cmd->sem.addr = (uintptr_t)sem;
	cmd->sem.value = 0x1234567890ULL;
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 1));
	after = now_ns();
	EXPECT_EQ(0x1234567890ULL, sem[0]);
	EXPECT_LE(before, sem[1]);
	EXPECT_GE(after, sem[1]);
}

TEST_F(chan, fault_is_sticky_and_reported)
{
	struct chan other;
	__u64 bad = self->dev + 4 * MIB + 4096;	/* past the allocation */

	slot(&self->c)->op = VGPU_CMD_NOP;
	cmd_copy(&self->c, self->dev, bad, 64, 1, 0, 0);
	slot(&self->c)->op = VGPU_CMD_NOP;
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(-1, wait_for(&self->c, 3));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(3, self->c.status->completed);
	EXPECT_EQ(VGPU_CHAN_FAULT, self->c.status->error);
	EXPECT_EQ(bad, self->c.status->error_addr);
	EXPECT_EQ(2, self->c.status->error_seqno);
	slot(&self->c)->op = VGPU_CMD_NOP;
	EXPECT_EQ(-1, submit(&self->c));
	EXPECT_EQ(EIO, errno);
	/* Other channels of the context go on. */
	ASSERT_EQ(0, chan_open(self->fd, &other, self->status));
	slot(&other)->op = VGPU_CMD_NOP;
	EXPECT_EQ(0, submit(&other));
	EXPECT_EQ(0, wait_for(&other, 1));
	free(other.ring);
}

TEST_F(chan, copy_crossing_allocation_end_faults)
{
	cmd_copy(&self->c, (uintptr_t)self->host, self->dev + 4 * MIB - 100, 200, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(self->dev + 4 * MIB, self->c.status->error_addr);
}

TEST_F(chan, read_only_host_memory_is_not_written)
{
	struct vgpu_host_register r = { .size = 4096, .flags = VGPU_HOST_READ_ONLY };
	unsigned char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, ro);
	r.addr = (uintptr_t)ro;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	cmd_copy(&self->c, self->dev, (uintptr_t)ro, 4096, 1, 0, 0);	/* reading: fine */
	cmd_copy(&self->c, (uintptr_t)ro, self->dev, 16, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(-1, wait_for(&self->c, 2));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ((uintptr_t)ro, self->c.status->error_addr);
}

TEST_F(chan, malformed_commands_refused)
{
	static const struct { __u32 op, flags; __u64 raw[7]; } bad[] = {
		{ 99, 0, { 0 } },				/* unknown op */
		{ VGPU_CMD_NOP, 1, { 0 } },			/* flags */
		{ VGPU_CMD_NOP, 0, { 0, 0, 0, 0, 0, 0, 1 } },	/* garbage */
		{ VGPU_CMD_COPY, 0, { 1 << 20, 2 << 20, 0, 0, 0, 1 } },	/* width 0 */
		{ VGPU_CMD_COPY, 0, { 1 << 20, 2 << 20, 8, 0, 0, 0 } },	/* height 0 */
		{ VGPU_CMD_COPY, 0, { 1 << 20, 2 << 20, 64, 32, 64, 2 } },	/* pitch < width */
		{ VGPU_CMD_COPY, 0, { ~0ULL - 4, 2 << 20, 64, 0, 0, 1 } },	/* wraps */
		{ VGPU_CMD_COPY, 0, { 1 << 20, 2 << 20, 64, 64, 64, 1 | (2ULL << 32) } },	/* no slice height */
		{ VGPU_CMD_COPY, 0, { 1 << 20, 2 << 20, 64, 64, 64, 4 | (2ULL << 32), 4 | (3ULL << 32) } },	/* dst slices overlap */
		{ VGPU_CMD_COPY, 0, { 1 << 20, 2 << 20, 64, 64, 64, 1, 1 } },	/* slice height, one slice */
		{ VGPU_CMD_COPY, 0, { 1 << 20, 2 << 20, 64, 32, 64, 1 | (2ULL << 32), 1 | (1ULL << 32) } },	/* pitch < width */
		{ VGPU_CMD_COPY, 0, { 1 << 20, 2 << 20, 64, 1ULL << 40, 64, 2 | (0xffffffffULL << 32), 2 | (2ULL << 32) } },	/* wraps */
		{ VGPU_CMD_MEMSET, 0, { 1 << 20, 8, 0, 1 | (1ULL << 32), 3 } },	/* elem 3 */
		{ VGPU_CMD_MEMSET, 0, { 1 << 20, 8, 0, 1 | (0x100ULL << 32), 1 } },	/* value > byte */
		{ VGPU_CMD_MEMSET, 0, { (1 << 20) + 1, 8, 0, 1, 4 } },	/* unaligned */
		{ VGPU_CMD_SEM_RELEASE, 0, { (1 << 20) + 4, 1 } },	/* unaligned */
		{ VGPU_CMD_SEM_RELEASE, 4, { 1 << 20, 1 } },		/* flags */
		{ VGPU_CMD_SEM_RELEASE, VGPU_SEM_32 | VGPU_SEM_TIMESTAMP, { 1 << 20, 1 } },
		{ VGPU_CMD_SEM_RELEASE, VGPU_SEM_32, { 1 << 20, 1ULL << 32 } },	/* > u32 */
		{ VGPU_CMD_SEM_RELEASE, VGPU_SEM_32, { (1 << 20) + 2, 1 } },	/* unaligned */
		{ VGPU_CMD_SEM_RELEASE, 0, { 1 << 20, 1, 1 } },		/* garbage */
		{ VGPU_CMD_SEM_ACQUIRE, VGPU_SEM_TIMESTAMP, { 1 << 20, 1 } },
		{ VGPU_CMD_SEM_ACQUIRE, 1 << 7, { 1 << 20, 1 } },	/* flags */
		{ VGPU_CMD_SEM_ACQUIRE, VGPU_SEM_EQ | VGPU_SEM_UNSIGNED, { 1 << 20, 1 } },
		{ VGPU_CMD_SEM_ACQUIRE, VGPU_SEM_AND | VGPU_SEM_UNSIGNED, { 1 << 20, 1 } },
		{ VGPU_CMD_SEM_ACQUIRE, VGPU_SEM_NOR | VGPU_SEM_UNSIGNED, { 1 << 20, 1 } },
		{ VGPU_CMD_SEM_RELEASE, VGPU_SEM_UNSIGNED, { 1 << 20, 1 } },
		{ VGPU_CMD_SEM_ACQUIRE, 0, { (1 << 20) + 4, 1 } },	/* unaligned */
		{ VGPU_CMD_SEM_ACQUIRE, VGPU_SEM_32, { 1 << 20, 1ULL << 32 } },
		{ VGPU_CMD_SEM_ACQUIRE, VGPU_SEM_32, { (1 << 20) + 2, 1 } },	/* unaligned */
		{ VGPU_CMD_SEM_ACQUIRE, VGPU_SEM_NOR | VGPU_SEM_32, { 1 << 20, 1ULL << 32 } },
		{ VGPU_CMD_SEM_ACQUIRE, VGPU_SEM_AND | 1 << 2, { 1 << 20, 1 } },	/* flags */
		{ VGPU_CMD_SEM_ACQUIRE, VGPU_SEM_EQ | 1 << 3, { 1 << 20, 1 } },
		{ VGPU_CMD_SEM_ACQUIRE, 1U << 31, { 1 << 20, 1 } },
		{ VGPU_CMD_SEM_ACQUIRE, 0, { 1 << 20, 1, 0, 0, 0, 0, 1 } },	/* garbage */
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct vgpu_cmd *cmd;

		slot(&self->c)->op = VGPU_CMD_NOP;	/* a good one first */
		cmd = slot(&self->c);
		memcpy(cmd, &bad[i], sizeof(*cmd));
		EXPECT_EQ(-1, submit(&self->c)) TH_LOG("case %zu accepted", i);
		EXPECT_EQ(EINVAL, errno);
		self->c.put -= 2;	/* nothing was queued */
	}
	EXPECT_EQ(0, self->c.status->completed);
}

TEST_F(chan, doorbell_rules)
{
	struct vgpu_chan_submit s = { .handle = self->c.handle };
	struct vgpu_chan_wait w = { .handle = self->c.handle };

	s.put = RING + 1;	/* more than a ring ahead */
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHAN_SUBMIT, &s));
	EXPECT_EQ(EINVAL, errno);
	slot(&self->c)->op = VGPU_CMD_NOP;
	ASSERT_EQ(0, submit(&self->c));
	s.put = 0;		/* backwards */
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHAN_SUBMIT, &s));
	EXPECT_EQ(EINVAL, errno);
	s.put = 1;
	s.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHAN_SUBMIT, &s));
	EXPECT_EQ(EINVAL, errno);
	s.flags = 0;
	s.handle = 77;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHAN_SUBMIT, &s));
	EXPECT_EQ(ENOENT, errno);
	w.seqno = 2;		/* beyond what was submitted */
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHAN_WAIT, &w));
	EXPECT_EQ(EINVAL, errno);
	w.seqno = 1;
	w.deadline_ns = -1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHAN_WAIT, &w));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, wait_for(&self->c, 1));
}

/*
 * Behind a semaphore that is not released the queue fills: once the ring's
 * worth of commands waits, the doorbell is refused with EAGAIN (an error
 * the header lists for CHAN_SUBMIT) and nothing is queued; when the wait
 * ends, the same submit goes through.
 */
TEST_F(chan, full_queue_refuses_submit)
{
	volatile __u64 *sem = (volatile __u64 *)self->host;
	struct vgpu_chan_submit s = { .handle = self->c.handle };
	struct vgpu_cmd *cmd;
	int ret = 0, err = 0;

	*sem = 0;
	cmd = slot(&self->c);
	cmd->op = VGPU_CMD_SEM_ACQUIRE;
	cmd->flags = VGPU_SEM_GEQ;
	cmd->sem.addr = (uintptr_t)sem;
	cmd->sem.value = 1;
	ASSERT_EQ(0, submit(&self->c));
	/* One command a doorbell, until the queue is full: a ring's worth. */
	while (self->c.put <= 2 * RING) {
		slot(&self->c)->op = VGPU_CMD_NOP;
		ret = submit(&self->c);
		err = errno;
		if (ret)
			break;
	}
	ASSERT_EQ(-1, ret);
	EXPECT_EQ(EAGAIN, err);
	EXPECT_EQ(RING + 1, self->c.put);
	EXPECT_EQ(0, self->c.status->completed);
	EXPECT_TRUE(vgpu_errno_documented(vgpu_errno_list_of(VGPU_IOCTL_CHAN_SUBMIT),
					  EAGAIN));
	/* Refused whole: the queue still ends at a ring's worth. */
	s.put = RING + 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHAN_SUBMIT, &s));
	EXPECT_EQ(EAGAIN, errno);

	*sem = 1;
	s.put = RING;		/* a bare doorbell: look at the semaphore again */
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_CHAN_SUBMIT, &s));
	ASSERT_EQ(0, wait_for(&self->c, RING));
	EXPECT_EQ(0, submit(&self->c));
	EXPECT_EQ(0, wait_for(&self->c, RING + 1));
	EXPECT_EQ(RING + 1, self->c.status->completed);
	EXPECT_EQ(0, self->c.status->error);
}

/* The kernel reads each command once: rewriting the ring afterwards is harmless. */
TEST_F(chan, ring_rewritten_after_submit)
{
	struct vgpu_cmd *cmd = slot(&self->c);

	cmd->op = VGPU_CMD_NOP;
	ASSERT_EQ(0, submit(&self->c));
	memset(self->c.ring, 0xff, RING * sizeof(struct vgpu_cmd));
	slot(&self->c)->op = VGPU_CMD_NOP;
	EXPECT_EQ(0, submit(&self->c));
	EXPECT_EQ(0, wait_for(&self->c, 2));
}

TEST_F(chan, unreadable_ring)
{
	struct vgpu_chan_create cc = { .ring_size = RING };
	struct vgpu_chan_submit s = { .put = 1 };
	void *ring = mmap(NULL, RING * 64, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ASSERT_NE(MAP_FAILED, ring);
	cc.ring = (uintptr_t)ring;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_CHAN_CREATE, &cc));
	s.handle = cc.handle;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHAN_SUBMIT, &s));
	EXPECT_EQ(EFAULT, errno);
	munmap(ring, RING * 64);
}

TEST_F(chan, create_rules)
{
	struct vgpu_chan_create cc = { .ring = (uintptr_t)self->c.ring };
	static const __u32 sizes[] = { 0, 8, 15, 17, 100, 8192 };
	struct vgpu_chan_destroy d = { 0 };
	int i, made = 1;

	for (i = 0; i < 6; i++) {
		cc.ring_size = sizes[i];
		EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHAN_CREATE, &cc));
		EXPECT_EQ(EINVAL, errno);
	}
	cc.ring_size = RING;
	cc.ring = (uintptr_t)self->c.ring + 8;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHAN_CREATE, &cc));
	EXPECT_EQ(EINVAL, errno);
	cc.ring = 0;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHAN_CREATE, &cc));
	EXPECT_EQ(EINVAL, errno);
	cc.ring = (uintptr_t)self->c.ring;
	cc.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHAN_CREATE, &cc));
	EXPECT_EQ(EINVAL, errno);
	cc.flags = 0;
	while (ioctl(self->fd, VGPU_IOCTL_CHAN_CREATE, &cc) == 0)
		made++;
	EXPECT_EQ(EMFILE, errno);
	EXPECT_EQ(VGPU_MAX_CHANNELS, made);
	/* A destroyed channel's handle comes back. */
	d.handle = 5;
	EXPECT_EQ(0, ioctl(self->fd, VGPU_IOCTL_CHAN_DESTROY, &d));
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHAN_DESTROY, &d));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(0, ioctl(self->fd, VGPU_IOCTL_CHAN_CREATE, &cc));
	EXPECT_EQ(5, cc.handle);
}

TEST_F(chan, status_page_is_read_only)
{
	long page = getpagesize();

	EXPECT_EQ(MAP_FAILED, mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd, 0));
	EXPECT_EQ(EPERM, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd, page));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, self->fd, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, mprotect(self->status, page, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
}

/* Closing the file with a long queue in flight: nothing leaks or hangs. */
/* Registers and unregisters host pages, rewriting the tree, until told. */
struct churn {
	int fd;
	char *pages;		/* 64 pages, none registered elsewhere */
	volatile int stop;
};

static void *churn_hosts(void *arg)
{
	struct churn *ch = arg;
	long page = getpagesize();
	int i;

	while (!ch->stop) {
		for (i = 0; i < 64; i += 2) {
			struct vgpu_host_register r = {
				.addr = (uintptr_t)(ch->pages + i * page),
				.size = page,
			};

			ioctl(ch->fd, VGPU_IOCTL_HOST_REGISTER, &r);
		}
		for (i = 0; i < 64; i += 2) {
			struct vgpu_host_unregister u = {
				.addr = (uintptr_t)(ch->pages + i * page),
			};

			ioctl(ch->fd, VGPU_IOCTL_HOST_UNREGISTER, &u);
		}
	}
	return NULL;
}

/*
 * Placing a copy on an engine looks its addresses up among the host
 * ranges without the address space's lock, while another thread
 * registers and unregisters ranges: the lookup must stay safe (it once
 * read tree nodes being freed, and oopsed).
 */
TEST_F(chan, placing_copies_races_host_registration)
{
	struct churn ch = { .fd = self->fd };
	__u64 end = now_ns() + 4000000000ULL;
	pthread_t t;
	int i;

	ch.pages = mmap(NULL, 64 * getpagesize(), PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, ch.pages);
	memset(ch.pages, 1, 64 * getpagesize());
	ASSERT_EQ(0, pthread_create(&t, NULL, churn_hosts, &ch));
	while (now_ns() < end) {
		for (i = 0; i < RING / 2; i++) {
			cmd_copy(&self->c, self->dev, (uintptr_t)self->host, 64, 1, 0, 0);
			cmd_copy(&self->c, (uintptr_t)self->host, self->dev, 64, 1, 0, 0);
		}
		ASSERT_EQ(0, submit(&self->c));
		ASSERT_EQ(0, wait_for(&self->c, self->c.put));
	}
	ch.stop = 1;
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(0, self->c.status->error);
	munmap(ch.pages, 64 * getpagesize());
}

struct waiter {
	struct chan *c;
	__u64 seqno;
	int ret, err;
};

static void *wait_thread(void *arg)
{
	struct waiter *w = arg;
	struct vgpu_chan_wait cw = {
		.seqno = w->seqno, .handle = w->c->handle,
		.deadline_ns = (__s64)(now_ns() + 60000000000ULL),
	};

	w->ret = ioctl(w->c->fd, VGPU_IOCTL_CHAN_WAIT, &cw);
	w->err = errno;
	return NULL;
}

/*
 * Destroying a channel ends the waits on it at once with ENOENT (a
 * library tearing down a context wakes its other threads so): here the
 * wait is for a semaphore nothing will release.
 */
TEST_F(chan, destroy_ends_waits)
{
	struct vgpu_chan_destroy d = { .handle = self->c.handle };
	struct vgpu_cmd *cmd = slot(&self->c);
	struct waiter w = { .c = &self->c, .seqno = 1 };
	pthread_t t;
	__u64 t0;

	cmd->op = VGPU_CMD_SEM_ACQUIRE;
	cmd->flags = VGPU_SEM_GEQ;
	cmd->sem.addr = self->dev;
	cmd->sem.value = 1;
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, pthread_create(&t, NULL, wait_thread, &w));
	usleep(200000);		/* asleep in the wait */
	t0 = now_ns();
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_CHAN_DESTROY, &d));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_GT(5000000000ULL, now_ns() - t0);
	EXPECT_EQ(-1, w.ret);
	EXPECT_EQ(ENOENT, w.err);
}

TEST(close_with_work_in_flight)
{
	struct vgpu_va_window w = { .base = 1ULL << 44, .size = 1ULL << 32 };
	struct vgpu_mem_alloc a = { .size = 64 * MIB };
	int fd = open(DEV, O_RDWR | O_CLOEXEC), i;
	struct chan c;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_SET_VA_WINDOW, &w));
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &a));
	ASSERT_EQ(0, chan_open(fd, &c, NULL));
	for (i = 0; i < RING; i++)
		cmd_memset(&c, a.va, i, 4, 16 * MIB);
	ASSERT_EQ(0, submit(&c));
	close(fd);
	free(c.ring);
}

/* SIGKILL with a long queue in flight: the device gets all its memory back. */
TEST(kill_with_work_in_flight)
{
	struct vgpu_info info = { 0 };
	int fd = open(DEV, O_RDWR | O_CLOEXEC), status;
	__u64 baseline;
	int sync[2];
	pid_t pid;
	char c;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_GET_INFO, &info));
	baseline = info.mem_free;
	ASSERT_EQ(0, pipe(sync));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct vgpu_va_window w = { .base = 1ULL << 44, .size = 1ULL << 32 };
		struct vgpu_mem_alloc a = { .size = 64 * MIB };
		struct vgpu_host_register r = { .size = 4 * MIB };
		int cfd = open(DEV, O_RDWR | O_CLOEXEC), i;
		void *host = mmap(NULL, 4 * MIB, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		struct chan ch;

		r.addr = (uintptr_t)host;
		if (cfd < 0 || ioctl(cfd, VGPU_IOCTL_SET_VA_WINDOW, &w) ||
		    ioctl(cfd, VGPU_IOCTL_MEM_ALLOC, &a) ||
		    ioctl(cfd, VGPU_IOCTL_HOST_REGISTER, &r) ||
		    chan_open(cfd, &ch, NULL))
			_exit(1);
		for (i = 0; i < RING; i++) {
			if (i % 2)
				cmd_memset(&ch, a.va, i, 4, 16 * MIB);
			else
				cmd_copy(&ch, a.va, (uintptr_t)host, 4 * MIB, 1, 0, 0);
		}
		if (submit(&ch))
			_exit(1);
		if (write(sync[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(sync[1]);
	ASSERT_EQ(1, read(sync[0], &c, 1));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_GET_INFO, &info));
	EXPECT_EQ(baseline, info.mem_free);
	close(sync[0]);
	close(fd);
}

TEST_HARNESS_MAIN
