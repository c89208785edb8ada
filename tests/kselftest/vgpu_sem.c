// SPDX-License-Identifier: GPL-2.0
/*
 * Semaphores, poll() and the two copy engines at the ioctl level: a
 * channel waiting in SEM_ACQUIRE for another channel's release or for the
 * CPU, every test and width, faults, teardown with a wait that never ends,
 * poll() on the context, copies in both directions running at once, and
 * a wait for the end of a chain that sleeps until then.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"
#include "vgpu_chan_util.h"

#define DEV "/dev/vgpu0"

static void cmd_sem(struct chan *c, __u32 op, __u32 flags, __u64 addr,
		    __u64 value)
{
	struct vgpu_cmd *cmd = slot(c);

	cmd->op = op;
	cmd->flags = flags;
	cmd->sem.addr = addr;
	cmd->sem.value = value;
}

/* Has the channel stayed at @seqno for a while? */
static int stays_at(struct chan *c, __u64 seqno)
{
	usleep(30000);
	return c->status->completed == seqno;
}

FIXTURE(sem) {
	int fd;
	void *status;
	struct chan a, b;
	unsigned char *host;	/* 4 MiB, registered */
	__u64 dev;		/* 4 MiB of device memory */
};

FIXTURE_SETUP(sem)
{
	struct vgpu_mem_alloc a = { .size = 4 * MIB };
	struct vgpu_host_register r = { .size = 4 * MIB };

	self->fd = open_ctx(&self->status, 1ULL << 44);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_ALLOC, &a));
	self->dev = a.va;
	self->host = mmap(NULL, 4 * MIB, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->host);
	r.addr = (__u64)(uintptr_t)self->host;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	ASSERT_EQ(0, chan_open(self->fd, &self->a, self->status));
	ASSERT_EQ(0, chan_open(self->fd, &self->b, self->status));
}

FIXTURE_TEARDOWN(sem)
{
	munmap(self->status, getpagesize());
	close(self->fd);
	munmap(self->host, 4 * MIB);
	free(self->a.ring);
	free(self->b.ring);
}

/* b waits for a's release, then sees what a wrote before releasing. */
TEST_F(sem, acquire_waits_for_another_channel)
{
	unsigned char *out = self->host + 4096;
	int i, bad = 0;

	cmd_sem(&self->b, VGPU_CMD_SEM_ACQUIRE, VGPU_SEM_GEQ, self->dev, 1);
	cmd_copy(&self->b, (uintptr_t)out, self->dev + 4096, 256, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->b));
	EXPECT_TRUE(stays_at(&self->b, 0));

	cmd_memset(&self->a, self->dev + 4096, 0xab, 1, 256);
	cmd_sem(&self->a, VGPU_CMD_SEM_RELEASE, 0, self->dev, 1);
	ASSERT_EQ(0, submit(&self->a));
	ASSERT_EQ(0, wait_for(&self->b, 2));
	EXPECT_EQ(2, self->a.status->completed);
	for (i = 0; i < 256; i++)
		bad += out[i] != 0xab;
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, self->b.status->error);
}

/* Each test and width, written by the CPU: satisfied at once or later. */
TEST_F(sem, acquire_tests)
{
	static const struct {
		__u32 flags;
		__u64 cur, want, later;	/* later == 0: satisfied at once */
	} cases[] = {
		{ VGPU_SEM_GEQ, 5, 5, 0 },
		{ VGPU_SEM_GEQ, 4, 5, 6 },
		{ VGPU_SEM_GEQ, 0, ~0ULL, 0 },		/* wraps: 0 is after -1 */
		{ VGPU_SEM_GEQ, 1ULL << 63, 0, 1 },	/* and -2^63 before 0 */
		{ VGPU_SEM_GEQ | VGPU_SEM_32, 1, 0xfffffff0, 0 },
		{ VGPU_SEM_GEQ | VGPU_SEM_32, 0xfffffff0, 1, 2 },
		{ VGPU_SEM_GEQ | VGPU_SEM_UNSIGNED, 0, ~0ULL, ~0ULL },	/* no wrap */
		{ VGPU_SEM_GEQ | VGPU_SEM_UNSIGNED, 1ULL << 63, 4, 0 },
		{ VGPU_SEM_GEQ | VGPU_SEM_UNSIGNED, 3, 4, 1ULL << 63 },
		{ VGPU_SEM_GEQ | VGPU_SEM_UNSIGNED | VGPU_SEM_32, 0x7fffffff, 0xfffffff0, 0xfffffff0 },
		{ VGPU_SEM_GEQ | VGPU_SEM_UNSIGNED | VGPU_SEM_32, 0x80000000, 1, 0 },
		{ VGPU_SEM_EQ, 7, 7, 0 },
		{ VGPU_SEM_EQ, 8, 7, 7 },
		{ VGPU_SEM_EQ | VGPU_SEM_32, 0x100000007ULL, 7, 0 },	/* low word */
		{ VGPU_SEM_AND, 6, 2, 0 },
		{ VGPU_SEM_AND, 6, 1, 3 },
		{ VGPU_SEM_NOR | VGPU_SEM_32, 0xfffffffe, 0, 0 },
		{ VGPU_SEM_NOR | VGPU_SEM_32, 0xffffffff, 0, 0x7fffffff },
		{ VGPU_SEM_NOR, 0xffffffff, 0, 0 },		/* high bits clear */
		{ VGPU_SEM_NOR, ~0ULL, 0, 1 },
	};
	volatile __u64 *word = (volatile __u64 *)self->host;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		__u64 seq = self->a.put + 1;

		*word = cases[i].cur;
		cmd_sem(&self->a, VGPU_CMD_SEM_ACQUIRE, cases[i].flags,
			(uintptr_t)word, cases[i].want);
		ASSERT_EQ(0, submit(&self->a));
		if (cases[i].later) {
			EXPECT_TRUE(stays_at(&self->a, seq - 1)) TH_LOG("case %zu", i);
			*word = cases[i].later;
			ASSERT_EQ(0, submit(&self->a));	/* bare doorbell */
		}
		ASSERT_EQ(0, wait_for(&self->a, seq)) TH_LOG("case %zu", i);
	}
	EXPECT_EQ(0, self->a.status->error);
}

/* Without a doorbell, the periodic look finds the CPU's write too. */
TEST_F(sem, cpu_write_is_seen_without_doorbell)
{
	volatile __u32 *word = (volatile __u32 *)self->host;

	*word = 0;
	cmd_sem(&self->a, VGPU_CMD_SEM_ACQUIRE, VGPU_SEM_EQ | VGPU_SEM_32,
		(uintptr_t)word, 3);
	ASSERT_EQ(0, submit(&self->a));
	EXPECT_TRUE(stays_at(&self->a, 0));
	*word = 3;
	ASSERT_EQ(0, wait_for(&self->a, 1));
}

struct chain_waiter {
	struct chan *c;
	__u64 seqno;
	int ret;
	long switches;	/* while it waited */
};

static void *wait_chain(void *arg)
{
	struct chain_waiter *w = arg;
	long before = voluntary_switches();

	w->ret = wait_for(w->c, w->seqno);
	w->switches = before < 0 ? -1 : voluntary_switches() - before;
	return NULL;
}

/*
 * A CHAN_WAIT for the last of a chain sleeps until the chain is done:
 * the commands completing one by one before it do not wake it each.
 */
TEST_F(sem, wait_wakes_once_for_a_chain)
{
	enum { N = 16 };
	volatile __u32 *word = (volatile __u32 *)self->host;
	struct chain_waiter w = { .c = &self->a, .seqno = N };
	pthread_t t;
	__u32 i;

	*word = 0;
	for (i = 1; i <= N; i++)
		cmd_sem(&self->a, VGPU_CMD_SEM_ACQUIRE, VGPU_SEM_GEQ | VGPU_SEM_32,
			(uintptr_t)word, i);
	ASSERT_EQ(0, submit(&self->a));
	ASSERT_EQ(0, pthread_create(&t, NULL, wait_chain, &w));
	usleep(30000);
	/*
	 * Each write ends one more acquire, at the module's next look; the
	 * next write waits for that, so the chain completes one by one.
	 */
	for (i = 1; i <= N; i++) {
		unsigned int ms;

		*word = i;
		for (ms = 0; ms < 2000 && self->a.status->completed < i; ms += 5)
			usleep(5000);
		EXPECT_EQ(i, self->a.status->completed);
	}
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(0, w.ret);
	EXPECT_EQ(N, self->a.status->completed);
	/* Once to sleep, and maybe once more to take a lock: never N. */
	EXPECT_LE(0, w.switches);
	EXPECT_GE(4, w.switches);
}

/* A 32-bit release writes its word and nothing around it. */
TEST_F(sem, release_32)
{
	volatile __u32 *w = (volatile __u32 *)self->host;

	w[0] = 0x11111111;
	w[1] = 0x22222222;
	w[2] = 0x33333333;
	cmd_sem(&self->a, VGPU_CMD_SEM_RELEASE, VGPU_SEM_32, (uintptr_t)&w[1],
		0xcafef00d);
	ASSERT_EQ(0, submit(&self->a));
	ASSERT_EQ(0, wait_for(&self->a, 1));
	EXPECT_EQ(0x11111111, w[0]);
	EXPECT_EQ(0xcafef00d, w[1]);
	EXPECT_EQ(0x33333333, w[2]);
}

TEST_F(sem, acquire_on_unmapped_address_faults)
{
	__u64 bad = self->dev + 8 * MIB;

	cmd_sem(&self->a, VGPU_CMD_SEM_ACQUIRE, 0, bad, 1);
	ASSERT_EQ(0, submit(&self->a));
	EXPECT_EQ(-1, wait_for(&self->a, 1));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(VGPU_CHAN_FAULT, self->a.status->error);
	EXPECT_EQ(bad, self->a.status->error_addr);
}

/* A blocked channel holds back its own later work, not other channels'. */
TEST_F(sem, blocked_channel_keeps_order)
{
	volatile __u64 *word = (volatile __u64 *)self->host;

	*word = 0;
	cmd_sem(&self->a, VGPU_CMD_SEM_ACQUIRE, 0, (uintptr_t)word, 1);
	cmd_sem(&self->a, VGPU_CMD_SEM_RELEASE, 0, (uintptr_t)(word + 1), 9);
	ASSERT_EQ(0, submit(&self->a));
	slot(&self->b)->op = VGPU_CMD_NOP;
	ASSERT_EQ(0, submit(&self->b));
	ASSERT_EQ(0, wait_for(&self->b, 1));
	EXPECT_TRUE(stays_at(&self->a, 0));
	EXPECT_EQ(0, word[1]);
	*word = 1;
	ASSERT_EQ(0, submit(&self->a));
	ASSERT_EQ(0, wait_for(&self->a, 2));
	EXPECT_EQ(9, word[1]);
}

/*
 * A fault fails the context: a channel blocked on a release that the
 * failed channel will never make completes its commands without running
 * them, and only the failed channel reports an error.
 */
TEST_F(sem, fault_fails_the_context)
{
	volatile __u64 *word = (volatile __u64 *)self->host;
	unsigned char *out = self->host + 4096;

	*word = 0;
	out[0] = 0x11;
	cmd_sem(&self->a, VGPU_CMD_SEM_ACQUIRE, 0, (uintptr_t)word, 1);
	cmd_memset(&self->a, self->dev, 0xcd, 1, 16);
	cmd_copy(&self->a, (uintptr_t)out, self->dev, 16, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->a));
	EXPECT_TRUE(stays_at(&self->a, 0));

	cmd_copy(&self->b, self->dev, self->dev + 64 * MIB, 16, 1, 0, 0);
	cmd_sem(&self->b, VGPU_CMD_SEM_RELEASE, 0, (uintptr_t)word, 1);
	ASSERT_EQ(0, submit(&self->b));
	EXPECT_EQ(-1, wait_for(&self->b, 2));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(VGPU_CHAN_FAULT, self->b.status->error);

	ASSERT_EQ(0, wait_for(&self->a, 3));
	EXPECT_EQ(0, self->a.status->error);
	EXPECT_EQ(0, *word);
	EXPECT_EQ(0x11, out[0]);

	/* Later work is skipped too. */
	cmd_memset(&self->a, self->dev, 0xef, 1, 16);
	cmd_copy(&self->a, (uintptr_t)out, self->dev, 16, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->a));
	ASSERT_EQ(0, wait_for(&self->a, 5));
	EXPECT_EQ(0x11, out[0]);
}

TEST_F(sem, poll_reports_idle_and_failure)
{
	volatile __u64 *word = (volatile __u64 *)self->host;
	struct pollfd p = { .fd = self->fd, .events = POLLIN | POLLPRI };

	ASSERT_EQ(1, poll(&p, 1, 0));
	EXPECT_EQ(POLLIN, p.revents);

	*word = 0;
	cmd_sem(&self->a, VGPU_CMD_SEM_ACQUIRE, 0, (uintptr_t)word, 1);
	ASSERT_EQ(0, submit(&self->a));
	EXPECT_EQ(0, poll(&p, 1, 50));

	*word = 1;
	ASSERT_EQ(1, poll(&p, 1, 20000));
	EXPECT_EQ(POLLIN, p.revents);
	EXPECT_EQ(1, self->a.status->completed);

	cmd_copy(&self->b, self->dev, self->dev + 64 * MIB, 16, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->b));
	EXPECT_EQ(-1, wait_for(&self->b, 1));
	ASSERT_EQ(1, poll(&p, 1, 0));
	EXPECT_EQ(POLLIN | POLLPRI, p.revents);
}

/*
 * The two engines: a long host-to-device copy on one channel does not hold
 * up a device-to-host copy on another (one engine would finish the long
 * copy first: engines take one command at a time).
 */
TEST(copies_in_both_directions_run_at_once)
{
	struct vgpu_mem_alloc a = { .size = 128 * MIB };
	struct vgpu_host_register r = { .size = 128 * MIB };
	struct chan up, down;
	unsigned char *host;
	void *status;
	int fd = open_ctx(&status, 1ULL << 44);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &a));
	host = mmap(NULL, 128 * MIB, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	ASSERT_NE(MAP_FAILED, host);
	r.addr = (uintptr_t)host;
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_HOST_REGISTER, &r));
	ASSERT_EQ(0, chan_open(fd, &up, status));
	ASSERT_EQ(0, chan_open(fd, &down, status));

	cmd_copy(&up, a.va, (uintptr_t)host, 128 * MIB, 1, 0, 0);
	ASSERT_EQ(0, submit(&up));
	cmd_copy(&down, (uintptr_t)host, a.va, 64, 1, 0, 0);
	ASSERT_EQ(0, submit(&down));
	ASSERT_EQ(0, wait_for(&down, 1));
	EXPECT_EQ(0, up.status->completed);
	ASSERT_EQ(0, wait_for(&up, 1));
	close(fd);
	munmap(host, 128 * MIB);
	free(up.ring);
	free(down.ring);
}

/* Closing the file ends a wait that nothing would satisfy. */
TEST(close_with_blocked_acquire)
{
	struct vgpu_mem_alloc a = { .size = MIB };
	struct vgpu_chan_destroy cd = { 0 };
	struct chan c, d;
	void *status;
	int fd = open_ctx(&status, 1ULL << 44), i;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &a));
	ASSERT_EQ(0, chan_open(fd, &c, status));
	ASSERT_EQ(0, chan_open(fd, &d, status));
	cmd_sem(&c, VGPU_CMD_SEM_ACQUIRE, 0, a.va, 1);
	for (i = 1; i < RING; i++)
		cmd_memset(&c, a.va + 8, i, 4, 1024);
	ASSERT_EQ(0, submit(&c));
	cmd_sem(&d, VGPU_CMD_SEM_ACQUIRE, VGPU_SEM_EQ, a.va, 5);
	ASSERT_EQ(0, submit(&d));
	/* Destroyed while blocked: the handle stays taken, nothing breaks. */
	cd.handle = d.handle;
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_CHAN_DESTROY, &cd));
	EXPECT_TRUE(stays_at(&c, 0));
	munmap(status, getpagesize());
	EXPECT_EQ(0, close(fd));
	free(c.ring);
	free(d.ring);
}

/*
 * Every test in both widths, blocked on host memory (as cuStreamWaitValue*
 * leaves them when the CPU never writes): closing the file ends them all
 * at once.
 */
TEST(close_ends_each_form_of_wait)
{
	static const __u32 forms[] = { VGPU_SEM_GEQ, VGPU_SEM_EQ,
				       VGPU_SEM_AND, VGPU_SEM_NOR };
	struct vgpu_host_register r = { .size = 4096 };
	struct chan c[8];
	__u64 *word, t0;
	void *status;
	int fd = open_ctx(&status, 1ULL << 44), i;

	ASSERT_LE(0, fd);
	word = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, word);
	word[0] = ~0ULL;	/* fails each test against the values below */
	r.addr = (__u64)(uintptr_t)word;
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_HOST_REGISTER, &r));
	for (i = 0; i < 8; i++) {
		__u32 flags = forms[i % 4] | (i >= 4 ? VGPU_SEM_32 : 0);
		__u64 value = forms[i % 4] == VGPU_SEM_EQ ? 1 :
			forms[i % 4] == VGPU_SEM_AND ? 0 :
			forms[i % 4] == VGPU_SEM_NOR ? 0 : 1ULL << 62;

		if (i == 4)	/* -1 >= 2^30 fails in 32 bits as well */
			value = 1U << 30;
		ASSERT_EQ(0, chan_open(fd, &c[i], status));
		cmd_sem(&c[i], VGPU_CMD_SEM_ACQUIRE, flags, r.addr, value);
		ASSERT_EQ(0, submit(&c[i]));
	}
	for (i = 0; i < 8; i++)
		EXPECT_TRUE(stays_at(&c[i], 0)) TH_LOG("form %d passed", i);
	munmap(status, getpagesize());
	t0 = now_ns();
	EXPECT_EQ(0, close(fd));
	EXPECT_GT(500000000ULL, now_ns() - t0);
	for (i = 0; i < 8; i++)
		free(c[i].ring);
	munmap(word, 4096);
}

/* SIGKILL while blocked: the device gets all its memory back. */
TEST(kill_with_blocked_acquire)
{
	struct vgpu_info info = { 0 };
	int fd = open(DEV, O_RDWR | O_CLOEXEC), status, sync[2];
	__u64 baseline;
	pid_t pid;
	char c;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_GET_INFO, &info));
	baseline = info.mem_free;
	ASSERT_EQ(0, pipe(sync));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct vgpu_mem_alloc a = { .size = 8 * MIB };
		void *st;
		int cfd = open_ctx(&st, 1ULL << 44);
		struct chan ch;

		if (cfd < 0 || ioctl(cfd, VGPU_IOCTL_MEM_ALLOC, &a) ||
		    chan_open(cfd, &ch, st))
			_exit(1);
		cmd_sem(&ch, VGPU_CMD_SEM_ACQUIRE, 0, a.va, 1);
		cmd_memset(&ch, a.va, 1, 4, 1024);
		if (submit(&ch) || write(sync[1], "x", 1) != 1)
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
