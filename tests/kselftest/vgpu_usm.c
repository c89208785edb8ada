// SPDX-License-Identifier: GPL-2.0
/*
 * User-mode SMs at the ioctl level: attaching one, its two ioctls with
 * good and bad input, a launch whose blocks this process takes and runs
 * itself (writing its results through the shadow mapping), reports made
 * by the next wait, a chain of launches kept on one SM, fault reports,
 * an SM closed or killed with a block in flight, the watchdog over
 * blocks that no SM takes, and launches that fall back to the module's
 * SMs when none is attached.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"
#include "tests/isa_build.h"
#include "vgpu_chan_util.h"

#define BASE (1ULL << 44)
#define WINDOW (1ULL << 32)
#define PARAM_BYTES 12

/* out[ctaid.x] = ctaid.x + 1 (u32); params: out (u64), a marker (u32). */
static const struct vgpu_insn fill[] = {
	/* 0 */ SREG(0, VGPU_SR_CTAID_X),
	/* 1 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 1, 0, 1),
	/* 2 */ INSN(.op = VGPU_OP_CVT, .type = VGPU_T_U64, .stype = VGPU_T_U32, .dst = 2, .a = 0),
	/* 3 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 2, 2, 2),
	/* 4 */ LDP(VGPU_T_U64, 3, 0),
	/* 5 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 3, 3, 2),
	/* 6 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 3, 0, 1),
	/* 7 */ EXIT(),
};

static const struct vgpu_func fill_func = { .nregs = 4, .param_bytes = PARAM_BYTES };

static int attach(int fd)
{
	struct vgpu_usm_attach a = { 0 };

	if (ioctl(fd, VGPU_IOCTL_USM_ATTACH, &a))
		return -1;
	return a.fd;
}

/* Waits up to @ms for a block; the ioctl's result. */
static int usm_wait(int sm, struct vgpu_usm_wait *w, void *params,
		    __u32 size, unsigned int ms)
{
	memset(w, 0, sizeof(*w));
	w->deadline_ns = ms ? (__s64)(now_ns() + ms * 1000000ULL) : 0;
	w->params = (uintptr_t)params;
	w->params_size = size;
	return ioctl(sm, VGPU_IOCTL_USM_WAIT, w);
}

/* usm_wait() for a run of up to @max blocks. */
static int usm_wait_run(int sm, struct vgpu_usm_wait *w, void *params,
			__u32 size, unsigned int ms, __u32 max)
{
	memset(w, 0, sizeof(*w));
	w->deadline_ns = ms ? (__s64)(now_ns() + ms * 1000000ULL) : 0;
	w->params = (uintptr_t)params;
	w->params_size = size;
	w->max_blocks = max;
	return ioctl(sm, VGPU_IOCTL_USM_WAIT, w);
}

static int usm_done(int sm, __u64 cookie, __u32 kind, __u64 addr, __u32 insn,
		    __u32 thread)
{
	struct vgpu_usm_done d = {
		.cookie = cookie, .kind = kind, .addr = addr, .insn = insn,
		.thread = thread,
	};

	return ioctl(sm, VGPU_IOCTL_USM_DONE, &d);
}

static int chan_fault(struct chan *c, struct vgpu_chan_fault *f)
{
	memset(f, 0, sizeof(*f));
	f->handle = c->handle;
	return ioctl(c->fd, VGPU_IOCTL_CHAN_FAULT, f);
}

FIXTURE(usm) {
	int fd;
	void *status;
	struct chan c;
	int module;
	unsigned char *host;	/* 1 MiB, registered: parameters, results */
	__u64 dev;		/* 1 MiB of device memory */
	unsigned char *shadow;	/* the window's shadow */
};

FIXTURE_SETUP(usm)
{
	struct vgpu_mem_alloc a = { .size = MIB };
	struct vgpu_host_register r = { .size = MIB };
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)fill, .funcs = (uintptr_t)&fill_func,
		.ninsns = sizeof(fill) / sizeof(fill[0]), .nfuncs = 1,
	};

	self->fd = open_ctx(&self->status, BASE);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_ALLOC, &a));
	self->dev = a.va;
	self->host = mmap(NULL, MIB, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->host);
	r.addr = (uintptr_t)self->host;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	ASSERT_EQ(0, chan_open(self->fd, &self->c, self->status));
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MODULE_LOAD, &ml));
	self->module = ml.handle;
	self->shadow = mmap(NULL, WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED,
			    self->fd, VGPU_SHADOW_OFFSET);
	ASSERT_NE(MAP_FAILED, self->shadow);
}

FIXTURE_TEARDOWN(usm)
{
	munmap(self->shadow, WINDOW);
	munmap(self->status, getpagesize());
	close(self->fd);
	munmap(self->host, MIB);
	free(self->c.ring);
}

/*
 * A launch of fill over @grid blocks of 32 threads writing to the device
 * memory, its parameters in host memory, with launch flags @flags.
 */
static void launch_fill(struct __test_metadata *_metadata,
			FIXTURE_DATA(usm) *self, __u32 grid, __u32 flags)
{
	struct vgpu_cmd *cmd;
	__u32 marker = 0x5eed;

	memcpy(self->host, &self->dev, 8);
	memcpy(self->host + 8, &marker, 4);
	cmd = slot(&self->c);
	cmd->op = VGPU_CMD_LAUNCH;
	cmd->flags = flags;
	cmd->launch.module = self->module;
	cmd->launch.grid[0] = grid;
	cmd->launch.grid[1] = 1;
	cmd->launch.grid[2] = 1;
	cmd->launch.block[0] = 32;
	cmd->launch.block[1] = 1;
	cmd->launch.block[2] = 1;
	cmd->launch.params = (uintptr_t)self->host;
	cmd->launch.param_bytes = PARAM_BYTES;
	ASSERT_EQ(0, submit(&self->c));
}

/* The device's first @n words, read back through a copy. */
static void check_fill(struct __test_metadata *_metadata,
		       FIXTURE_DATA(usm) *self, __u32 n)
{
	__u32 *out = (__u32 *)(self->host + 4096);
	__u32 i;

	memset(out, 0, n * 4);
	ASSERT_EQ(0, copy_wait(&self->c, (uintptr_t)out, self->dev, n * 4));
	for (i = 0; i < n; i++)
		EXPECT_EQ(i + 1, out[i]);
}

/* What the block of @w computes, done here through the shadow mapping. */
static void run_block(FIXTURE_DATA(usm) *self, const struct vgpu_usm_wait *w,
		      const unsigned char *params)
{
	__u64 out;
	__u32 *p;

	memcpy(&out, params, 8);
	p = (__u32 *)(self->shadow + (out - BASE)) + w->block_idx[0];
	*p = w->block_idx[0] + 1;
}

/* What the run of blocks @w handed over computes, block by block. */
static void run_blocks(FIXTURE_DATA(usm) *self, const struct vgpu_usm_wait *w,
		       const unsigned char *params)
{
	struct vgpu_usm_wait one = *w;
	__u32 i;

	for (i = 0; i < w->nblocks; i++) {
		one.block_idx[0] = w->block_idx[0] + i;
		run_block(self, &one, params);
	}
}

TEST_F(usm, attach_rules)
{
	struct vgpu_usm_attach a = { .flags = 1 };
	struct vgpu_usm_wait w = { 0 };
	struct vgpu_usm_done d = { 0 };
	struct vgpu_info info = { 0 };
	unsigned char big[sizeof(struct vgpu_usm_wait) + 8] = { 0 };
	int sm;

	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_USM_ATTACH, &a));
	EXPECT_EQ(EINVAL, errno);
	sm = attach(self->fd);
	ASSERT_LE(0, sm);
	EXPECT_EQ(FD_CLOEXEC, fcntl(sm, F_GETFD) & FD_CLOEXEC);
	/* Each file has its own ioctls. */
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_USM_WAIT, &w));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_USM_DONE, &d));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(sm, VGPU_IOCTL_GET_INFO, &info));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(sm, VGPU_IOCTL_USM_ATTACH, &a));
	EXPECT_EQ(ENOTTY, errno);
	/* Shorter than the structure; longer with a nonzero tail. */
	EXPECT_EQ(-1, ioctl(sm, _IOWR(VGPU_IOCTL_TYPE, 0x1f, __u64), &w));
	EXPECT_EQ(EINVAL, errno);
	big[sizeof(struct vgpu_usm_wait)] = 1;
	EXPECT_EQ(-1, ioctl(sm, _IOWR(VGPU_IOCTL_TYPE, 0x1f, big), big));
	EXPECT_EQ(E2BIG, errno);
	/* A longer one with a zero tail is this one. */
	big[sizeof(struct vgpu_usm_wait)] = 0;
	EXPECT_EQ(-1, ioctl(sm, _IOWR(VGPU_IOCTL_TYPE, 0x1f, big), big));
	EXPECT_EQ(ETIME, errno);
	EXPECT_EQ(-1, ioctl(sm, VGPU_IOCTL_USM_WAIT, NULL));
	EXPECT_EQ(EFAULT, errno);
	close(sm);
}

TEST_F(usm, attach_limit)
{
	int sm[VGPU_USM_MAX], i, n = 0;

	for (i = 0; i < VGPU_USM_MAX; i++) {
		sm[i] = attach(self->fd);
		if (sm[i] >= 0)
			n++;
	}
	EXPECT_EQ(VGPU_USM_MAX, n);
	EXPECT_EQ(-1, attach(self->fd));
	EXPECT_EQ(ENOSPC, errno);
	close(sm[0]);
	sm[0] = attach(self->fd);
	EXPECT_LE(0, sm[0]);
	for (i = 0; i < VGPU_USM_MAX; i++)
		close(sm[i]);
}

/* USM_WAIT's number for a struct of @size bytes. */
#define USM_WAIT_SIZED(size) \
	_IOC(_IOC_READ | _IOC_WRITE, VGPU_IOCTL_TYPE, \
	     _IOC_NR(VGPU_IOCTL_USM_WAIT), (size))

TEST_F(usm, wait_rules)
{
	struct vgpu_usm_done d = { .cookie = 1 };
	struct vgpu_usm_wait w;
	__u64 t0;
	int sm = attach(self->fd);

	ASSERT_LE(0, sm);
	memset(&w, 0, sizeof(w));
	w.flags = 2;
	EXPECT_EQ(-1, ioctl(sm, VGPU_IOCTL_USM_WAIT, &w));
	EXPECT_EQ(EINVAL, errno);
	/* A report's address without the flag; the flag with a bad one. */
	memset(&w, 0, sizeof(w));
	w.done = (uintptr_t)&w;
	EXPECT_EQ(-1, ioctl(sm, VGPU_IOCTL_USM_WAIT, &w));
	EXPECT_EQ(EINVAL, errno);
	memset(&w, 0, sizeof(w));
	w.flags = VGPU_USM_WAIT_REPORT;
	EXPECT_EQ(-1, ioctl(sm, VGPU_IOCTL_USM_WAIT, &w));
	EXPECT_EQ(EFAULT, errno);
	/* A report of nothing held is refused as USM_DONE refuses it. */
	memset(&w, 0, sizeof(w));
	w.flags = VGPU_USM_WAIT_REPORT;
	w.done = (uintptr_t)&d;
	EXPECT_EQ(-1, ioctl(sm, VGPU_IOCTL_USM_WAIT, &w));
	EXPECT_EQ(EINVAL, errno);
	memset(&w, 0, sizeof(w));
	w.deadline_ns = -1;
	EXPECT_EQ(-1, ioctl(sm, VGPU_IOCTL_USM_WAIT, &w));
	EXPECT_EQ(EINVAL, errno);
	/* Nothing to take: a look, then a wait that ends at its deadline. */
	EXPECT_EQ(-1, usm_wait(sm, &w, NULL, 0, 0));
	EXPECT_EQ(ETIME, errno);
	/*
	 * A caller built before @done passes the shorter struct: it is
	 * zero-extended, not refused; one shorter still is refused.
	 */
	memset(&w, 0, sizeof(w));
	EXPECT_EQ(-1, ioctl(sm, USM_WAIT_SIZED(offsetof(struct vgpu_usm_wait,
							  done)), &w));
	EXPECT_EQ(ETIME, errno);
	EXPECT_EQ(-1, ioctl(sm, USM_WAIT_SIZED(offsetof(struct vgpu_usm_wait,
							  nblocks)), &w));
	EXPECT_EQ(EINVAL, errno);
	t0 = now_ns();
	EXPECT_EQ(-1, usm_wait(sm, &w, NULL, 0, 100));
	EXPECT_EQ(ETIME, errno);
	EXPECT_LE(90000000ULL, now_ns() - t0);
	close(sm);
}

TEST_F(usm, done_rules)
{
	unsigned char params[64];
	struct vgpu_usm_wait w;
	struct vgpu_usm_done d = { 0 };
	int sm = attach(self->fd);

	ASSERT_LE(0, sm);
	/* No block held: no cookie is good. */
	EXPECT_EQ(-1, usm_done(sm, 0, 0, 0, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, usm_done(sm, 1, 0, 0, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	launch_fill(_metadata, self, 1, VGPU_LAUNCH_USER_SM);
	ASSERT_EQ(0, usm_wait(sm, &w, params, sizeof(params), 5000));
	EXPECT_NE(0, w.cookie);
	d.cookie = w.cookie;
	d.flags = 1;
	EXPECT_EQ(-1, ioctl(sm, VGPU_IOCTL_USM_DONE, &d));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, usm_done(sm, w.cookie + 1, 0, 0, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	/* Kinds an SM cannot report; fault fields without a fault. */
	EXPECT_EQ(-1, usm_done(sm, w.cookie, 99, 0, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, usm_done(sm, w.cookie, VGPU_KFAULT_TIMEOUT, 0, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, usm_done(sm, w.cookie, VGPU_KFAULT_USM_LOST, 0, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, usm_done(sm, w.cookie, 0, 8, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, usm_done(sm, w.cookie, 0, 0, 0, 1));
	EXPECT_EQ(EINVAL, errno);
	/* A fault's instruction and thread within the kernel and block. */
	EXPECT_EQ(-1, usm_done(sm, w.cookie, VGPU_KFAULT_TRAP, 0,
			       sizeof(fill) / sizeof(fill[0]), 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, usm_done(sm, w.cookie, VGPU_KFAULT_TRAP, 0, 0, 32));
	EXPECT_EQ(EINVAL, errno);
	/* The block is still held: none of that reported it. */
	EXPECT_EQ(0, self->c.status->completed);
	run_block(self, &w, params);
	EXPECT_EQ(0, usm_done(sm, w.cookie, 0, 0, 0, 0));
	EXPECT_EQ(0, wait_for(&self->c, 1));
	/* Reported once only. */
	EXPECT_EQ(-1, usm_done(sm, w.cookie, 0, 0, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	check_fill(_metadata, self, 1);
	close(sm);
}

/*
 * The whole flow: blocks taken in order with everything needed to run
 * them, results written through the shadow mapping, the fence advancing
 * only once the last is reported, the results seen by a copy.
 */
TEST_F(usm, blocks_run_in_user_space)
{
	unsigned char params[64];
	struct vgpu_usm_wait w, w2;
	__u32 marker, i;
	int sm = attach(self->fd), sm2 = attach(self->fd);

	ASSERT_LE(0, sm);
	ASSERT_LE(0, sm2);
	launch_fill(_metadata, self, 8, VGPU_LAUNCH_USER_SM);
	for (i = 0; i < 8; i++) {
		memset(params, 0, sizeof(params));
		ASSERT_EQ(0, usm_wait(i % 2 ? sm2 : sm, &w, params,
				      sizeof(params), 5000));
		EXPECT_EQ(self->module, w.module);
		EXPECT_EQ(0, w.func);
		EXPECT_EQ(8, w.grid[0]);
		EXPECT_EQ(1, w.grid[1]);
		EXPECT_EQ(1, w.grid[2]);
		EXPECT_EQ(32, w.block[0]);
		EXPECT_EQ(1, w.block[1]);
		EXPECT_EQ(1, w.block[2]);
		EXPECT_EQ(i, w.block_idx[0]);
		EXPECT_EQ(0, w.block_idx[1]);
		EXPECT_EQ(0, w.block_idx[2]);
		EXPECT_EQ(0, w.dyn_shared);
		EXPECT_EQ(PARAM_BYTES, w.param_bytes);
		EXPECT_EQ(self->c.handle, w.chan);
		EXPECT_EQ(1, w.seqno);
		EXPECT_EQ(0, memcmp(params, &self->dev, 8));
		memcpy(&marker, params + 8, 4);
		EXPECT_EQ(0x5eed, marker);
		if (i == 0) {
			/* One block at a time per SM. */
			EXPECT_EQ(-1, usm_wait(sm, &w2, params, sizeof(params), 0));
			EXPECT_EQ(EBUSY, errno);
		}
		run_block(self, &w, params);
		EXPECT_EQ(0, self->c.status->completed);
		EXPECT_EQ(0, usm_done(i % 2 ? sm2 : sm, w.cookie, 0, 0, 0, 0));
	}
	EXPECT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(0, self->c.status->error);
	check_fill(_metadata, self, 8);
	/* Nothing more to take. */
	EXPECT_EQ(-1, usm_wait(sm, &w, params, sizeof(params), 0));
	EXPECT_EQ(ETIME, errno);
	close(sm);
	close(sm2);
}

struct sm_thread {
	FIXTURE_DATA(usm) *self;
	int sm;
	unsigned int blocks;	/* run by this thread */
	int err;		/* the first unexpected errno, or 0 */
};

/* An SM's loop: take, run, report, until nothing comes for a while. */
static void *sm_loop(void *arg)
{
	struct sm_thread *t = arg;
	unsigned char params[64];
	struct vgpu_usm_wait w;

	for (;;) {
		if (usm_wait(t->sm, &w, params, sizeof(params), 1000)) {
			if (errno != ETIME)
				t->err = errno;
			break;
		}
		run_block(t->self, &w, params);
		if (usm_done(t->sm, w.cookie, 0, 0, 0, 0)) {
			t->err = errno;
			break;
		}
		t->blocks++;
	}
	return NULL;
}

/*
 * Several SM threads share a large launch while a launch of another
 * channel runs on the module's copy engines: every block runs once, and
 * both complete.
 */
TEST_F(usm, sm_threads_share_a_launch)
{
	enum { NT = 4, GRID = 2000 };
	struct sm_thread t[NT];
	pthread_t th[NT];
	unsigned int total = 0, i;
	struct chan other;

	ASSERT_EQ(0, chan_open(self->fd, &other, self->status));
	for (i = 0; i < NT; i++) {
		t[i] = (struct sm_thread){ .self = self, .sm = attach(self->fd) };
		ASSERT_LE(0, t[i].sm);
	}
	launch_fill(_metadata, self, GRID, VGPU_LAUNCH_USER_SM);
	/* The module's engines at the same time: a fill of the second half. */
	cmd_memset(&other, self->dev + MIB / 2, 0x7f, 1, MIB / 2);
	ASSERT_EQ(0, submit(&other));
	for (i = 0; i < NT; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, sm_loop, &t[i]));
	for (i = 0; i < NT; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(0, t[i].err);
		total += t[i].blocks;
		close(t[i].sm);
	}
	EXPECT_EQ(GRID, total);
	EXPECT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(0, wait_for(&other, 1));
	EXPECT_EQ(0, self->c.status->error);
	check_fill(_metadata, self, GRID);
	free(other.ring);
}

/* usm_wait() that first reports the blocks of @cookie as done. */
static int usm_report_wait(int sm, struct vgpu_usm_wait *w, __u64 cookie,
			   void *params, __u32 size, unsigned int ms)
{
	struct vgpu_usm_done d = { .cookie = cookie };

	memset(w, 0, sizeof(*w));
	w->deadline_ns = ms ? (__s64)(now_ns() + ms * 1000000ULL) : 0;
	w->params = (uintptr_t)params;
	w->params_size = size;
	w->flags = VGPU_USM_WAIT_REPORT;
	w->done = (uintptr_t)&d;
	return ioctl(sm, VGPU_IOCTL_USM_WAIT, w);
}

/*
 * USM_WAIT reports the block held and takes the next in one call; a
 * report it refuses takes nothing and leaves the block held.
 */
TEST_F(usm, report_then_take)
{
	unsigned char params[64];
	struct vgpu_usm_wait w, w2;
	int sm = attach(self->fd);

	ASSERT_LE(0, sm);
	launch_fill(_metadata, self, 2, VGPU_LAUNCH_USER_SM);
	ASSERT_EQ(0, usm_wait(sm, &w, params, sizeof(params), 5000));
	EXPECT_EQ(0, w.block_idx[0]);
	run_block(self, &w, params);
	EXPECT_EQ(-1, usm_report_wait(sm, &w2, w.cookie + 1, params, sizeof(params), 0));
	EXPECT_EQ(EINVAL, errno);
	/* Still held: a plain wait is refused. */
	EXPECT_EQ(-1, usm_wait(sm, &w2, params, sizeof(params), 0));
	EXPECT_EQ(EBUSY, errno);
	ASSERT_EQ(0, usm_report_wait(sm, &w2, w.cookie, params, sizeof(params), 5000));
	EXPECT_EQ(1, w2.block_idx[0]);
	EXPECT_NE(w.cookie, w2.cookie);
	EXPECT_EQ(0, self->c.status->completed);
	run_block(self, &w2, params);
	/* The last report with nothing to take: made, then the deadline. */
	EXPECT_EQ(-1, usm_report_wait(sm, &w, w2.cookie, params, sizeof(params), 0));
	EXPECT_EQ(ETIME, errno);
	EXPECT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(0, self->c.status->error);
	check_fill(_metadata, self, 2);
	close(sm);
}

/*
 * A report of a block whose launch was written off meanwhile (another
 * block faulted) is refused with -ECANCELED, which USM_WAIT goes past:
 * the call waits as a plain one would, and the context having failed,
 * times out with nothing taken.
 */
TEST_F(usm, cancelled_report_goes_on_to_wait)
{
	unsigned char params[64];
	struct vgpu_usm_wait a, b, w;
	int sma = attach(self->fd), smb = attach(self->fd);

	ASSERT_LE(0, sma);
	ASSERT_LE(0, smb);
	launch_fill(_metadata, self, 2, VGPU_LAUNCH_USER_SM);
	ASSERT_EQ(0, usm_wait(sma, &a, params, sizeof(params), 5000));
	ASSERT_EQ(0, usm_wait(smb, &b, params, sizeof(params), 5000));
	EXPECT_EQ(0, a.block_idx[0]);
	EXPECT_EQ(1, b.block_idx[0]);
	ASSERT_EQ(0, usm_done(smb, b.cookie, VGPU_KFAULT_ADDRESS, 0xdead0, 6, 0));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(-1, usm_report_wait(sma, &w, a.cookie, params, sizeof(params), 0));
	EXPECT_EQ(ETIME, errno);
	/* The fault is the launch's, not the refused report's. */
	EXPECT_EQ(VGPU_CHAN_LAUNCH_FAULT, self->c.status->error);
	EXPECT_EQ(1, self->c.status->error_seqno);
	/* Nothing held: a plain wait is not refused as busy. */
	EXPECT_EQ(-1, usm_wait(sma, &w, params, sizeof(params), 0));
	EXPECT_EQ(ETIME, errno);
	close(smb);
	close(sma);
}

struct report_waiter {
	int sm;
	__u64 cookie;
	int ret, err;
	__u64 waited_ns;
};

static void on_usr1(int sig)
{
	(void)sig;
}

/* Reports the block of t->cookie, then waits up to 5 s for the next. */
static void *report_and_wait(void *arg)
{
	struct report_waiter *t = arg;
	unsigned char params[64];
	struct vgpu_usm_wait w;
	__u64 t0 = now_ns();

	t->ret = usm_report_wait(t->sm, &w, t->cookie, params, sizeof(params), 5000);
	t->err = t->ret ? errno : 0;
	t->waited_ns = now_ns() - t0;
	return NULL;
}

/*
 * A signal that ends USM_WAIT's wait after its report was made gives
 * -EINTR, never a restart: a restarted call would report a second time.
 * The report stands: the launch completed, and the block is no longer
 * the SM's to report.
 */
TEST_F(usm, signal_after_report_is_eintr)
{
	struct sigaction sa = { .sa_handler = on_usr1 }, old;
	struct report_waiter t = { .sm = attach(self->fd) };
	unsigned char params[64];
	struct vgpu_usm_wait w;
	pthread_t th;

	ASSERT_LE(0, t.sm);
	/* SA_RESTART: a call the kernel may restart would be. */
	sa.sa_flags = SA_RESTART;
	ASSERT_EQ(0, sigaction(SIGUSR1, &sa, &old));
	launch_fill(_metadata, self, 1, VGPU_LAUNCH_USER_SM);
	ASSERT_EQ(0, usm_wait(t.sm, &w, params, sizeof(params), 5000));
	run_block(self, &w, params);
	t.cookie = w.cookie;
	ASSERT_EQ(0, pthread_create(&th, NULL, report_and_wait, &t));
	/* The report completes the launch; then the call waits on. */
	EXPECT_EQ(0, wait_for(&self->c, 1));
	usleep(50000);
	ASSERT_EQ(0, pthread_kill(th, SIGUSR1));
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(-1, t.ret);
	EXPECT_EQ(EINTR, t.err);
	EXPECT_GT(4000000000ULL, t.waited_ns);
	EXPECT_EQ(-1, usm_done(t.sm, w.cookie, 0, 0, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, self->c.status->error);
	check_fill(_metadata, self, 1);
	sigaction(SIGUSR1, &old, NULL);
	close(t.sm);
}

struct idle_sm {
	int sm;
	int ret, err;
	long switches;	/* while it waited */
};

/* An SM that waits once, for up to a second. */
static void *idle_sm_wait(void *arg)
{
	struct idle_sm *t = arg;
	unsigned char params[64];
	struct vgpu_usm_wait w;
	long before = voluntary_switches();

	t->ret = usm_wait(t->sm, &w, params, sizeof(params), 1000);
	t->err = t->ret ? errno : 0;
	t->switches = before < 0 ? -1 : voluntary_switches() - before;
	return NULL;
}

/*
 * A chain of one-block launches, each started by the report of the one
 * before, stays on the SM that reports: another SM waiting meanwhile is
 * not woken for each launch, and takes none.
 */
TEST_F(usm, chain_stays_on_the_reporting_sm)
{
	enum { N = 16 };
	struct idle_sm idle = { .sm = attach(self->fd) };
	unsigned char params[64];
	struct vgpu_usm_wait w;
	int sm = attach(self->fd), i;
	pthread_t t;
	__u64 cookie;

	ASSERT_LE(0, sm);
	ASSERT_LE(0, idle.sm);
	for (i = 0; i < N; i++)
		launch_fill(_metadata, self, 1, VGPU_LAUNCH_USER_SM);
	ASSERT_EQ(0, usm_wait(sm, &w, params, sizeof(params), 5000));
	/* The other SM asleep before the chain goes on. */
	ASSERT_EQ(0, pthread_create(&t, NULL, idle_sm_wait, &idle));
	usleep(100000);
	for (i = 1; i < N; i++) {
		run_block(self, &w, params);
		/* Time for the other SM to wake, were it woken. */
		usleep(5000);
		cookie = w.cookie;
		ASSERT_EQ(0, usm_report_wait(sm, &w, cookie, params, sizeof(params), 5000));
		EXPECT_EQ(i, w.seqno - 1);
	}
	run_block(self, &w, params);
	EXPECT_EQ(0, usm_done(sm, w.cookie, 0, 0, 0, 0));
	EXPECT_EQ(0, wait_for(&self->c, N));
	ASSERT_EQ(0, pthread_join(t, NULL));
	EXPECT_EQ(-1, idle.ret);
	EXPECT_EQ(ETIME, idle.err);
	EXPECT_LE(0, idle.switches);
	EXPECT_GE(3, idle.switches);
	EXPECT_EQ(0, self->c.status->error);
	check_fill(_metadata, self, 1);
	close(idle.sm);
	close(sm);
}

/*
 * The channel's next command waits for the blocks in user space: a copy
 * submitted right behind the launch sees what the SM wrote.
 */
TEST_F(usm, later_commands_wait_for_user_blocks)
{
	__u32 *out = (__u32 *)(self->host + 8192);
	unsigned char params[64];
	struct vgpu_usm_wait w;
	int sm = attach(self->fd), i;

	ASSERT_LE(0, sm);
	memset(out, 0, 8);
	launch_fill(_metadata, self, 2, VGPU_LAUNCH_USER_SM);
	cmd_copy(&self->c, (uintptr_t)out, self->dev, 8, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, usm_wait(sm, &w, params, sizeof(params), 5000));
		usleep(50000);
		EXPECT_EQ(0, self->c.status->completed);
		EXPECT_EQ(0, out[0]);
		run_block(self, &w, params);
		ASSERT_EQ(0, usm_done(sm, w.cookie, 0, 0, 0, 0));
	}
	EXPECT_EQ(0, wait_for(&self->c, 2));
	EXPECT_EQ(1, out[0]);
	EXPECT_EQ(2, out[1]);
	close(sm);
}

/*
 * A block's map_gen stays while the context's mappings do, and moves on
 * when memory is mapped or unmapped: an SM keeps the ranges it learned
 * only while it stays.
 */
TEST_F(usm, map_gen_follows_mappings)
{
	unsigned char params[64];
	struct vgpu_mem_alloc a = { .size = MIB };
	struct vgpu_mem_free f = { 0 };
	struct vgpu_usm_wait w;
	int sm = attach(self->fd);
	__u64 gen[4];
	int i;

	ASSERT_LE(0, sm);
	for (i = 0; i < 4; i++) {
		if (i == 2) {
			ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_ALLOC, &a));
		} else if (i == 3) {
			f.va = a.va;
			ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &f));
		}
		launch_fill(_metadata, self, 1, VGPU_LAUNCH_USER_SM);
		ASSERT_EQ(0, usm_wait(sm, &w, params, sizeof(params), 5000));
		gen[i] = w.map_gen;
		run_block(self, &w, params);
		ASSERT_EQ(0, usm_done(sm, w.cookie, 0, 0, 0, 0));
		ASSERT_EQ(0, wait_for(&self->c, i + 1));
	}
	EXPECT_EQ(gen[0], gen[1]);
	EXPECT_NE(gen[1], gen[2]);
	EXPECT_NE(gen[2], gen[3]);
	check_fill(_metadata, self, 1);
	close(sm);
}

/* Of the context's launches, the one of higher priority goes first. */
TEST_F(usm, higher_priority_launch_first)
{
	unsigned char params[64];
	struct vgpu_usm_wait w;
	struct chan hi;
	int sm = attach(self->fd), i;

	ASSERT_LE(0, sm);
	ASSERT_EQ(0, chan_open(self->fd, &hi, self->status));
	launch_fill(_metadata, self, 2, VGPU_LAUNCH_USER_SM);
	/* The same launch on the other channel, at the highest priority. */
	*slot(&hi) = self->c.ring[0];
	hi.ring[0].flags |= VGPU_LAUNCH_PRIORITY_MAX;
	ASSERT_EQ(0, submit(&hi));
	usleep(200000);		/* both are active */
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, usm_wait(sm, &w, params, sizeof(params), 5000));
		EXPECT_EQ(i < 2 ? hi.handle : self->c.handle, w.chan);
		run_block(self, &w, params);
		ASSERT_EQ(0, usm_done(sm, w.cookie, 0, 0, 0, 0));
	}
	EXPECT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(0, wait_for(&hi, 1));
	close(sm);
	free(hi.ring);
}

/* A buffer too small for the parameters takes nothing, and says so. */
TEST_F(usm, params_buffer_checked)
{
	unsigned char params[PARAM_BYTES];
	struct vgpu_usm_wait w;
	int sm = attach(self->fd);

	ASSERT_LE(0, sm);
	launch_fill(_metadata, self, 1, VGPU_LAUNCH_USER_SM);
	EXPECT_EQ(-1, usm_wait(sm, &w, params, PARAM_BYTES - 1, 5000));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(PARAM_BYTES, w.param_bytes);
	/* An unwritable buffer: the block is lost, the launch fails. */
	EXPECT_EQ(-1, usm_wait(sm, &w, (void *)8, PARAM_BYTES, 5000));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	close(sm);
}

TEST_F(usm, no_sm_runs_on_module_sms)
{
	launch_fill(_metadata, self, 16, VGPU_LAUNCH_USER_SM);
	EXPECT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(0, self->c.status->error);
	check_fill(_metadata, self, 16);
}

/* A launch without the flag never reaches a user-mode SM. */
TEST_F(usm, unflagged_launch_stays_in_module)
{
	unsigned char params[64];
	struct vgpu_usm_wait w;
	int sm = attach(self->fd);

	ASSERT_LE(0, sm);
	launch_fill(_metadata, self, 16, 0);
	EXPECT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(-1, usm_wait(sm, &w, params, sizeof(params), 0));
	EXPECT_EQ(ETIME, errno);
	check_fill(_metadata, self, 16);
	close(sm);
}

/* A fault an SM reports goes down the interpreter's path. */
TEST_F(usm, fault_report_fails_the_launch)
{
	unsigned char params[64];
	struct vgpu_chan_fault cf;
	struct vgpu_usm_wait w;
	int sm = attach(self->fd);

	ASSERT_LE(0, sm);
	launch_fill(_metadata, self, 4, VGPU_LAUNCH_USER_SM);
	ASSERT_EQ(0, usm_wait(sm, &w, params, sizeof(params), 5000));
	run_block(self, &w, params);
	ASSERT_EQ(0, usm_done(sm, w.cookie, 0, 0, 0, 0));
	ASSERT_EQ(0, usm_wait(sm, &w, params, sizeof(params), 5000));
	EXPECT_EQ(1, w.block_idx[0]);
	ASSERT_EQ(0, usm_done(sm, w.cookie, VGPU_KFAULT_ADDRESS, 0xdead0,
			      6, 5));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(VGPU_CHAN_LAUNCH_FAULT, self->c.status->error);
	EXPECT_EQ(1, self->c.status->error_seqno);
	ASSERT_EQ(0, chan_fault(&self->c, &cf));
	EXPECT_EQ(VGPU_KFAULT_ADDRESS, cf.kind);
	EXPECT_EQ(0xdead0, cf.addr);
	EXPECT_EQ(6, cf.insn);
	EXPECT_EQ(self->module, cf.module);
	EXPECT_EQ(0, cf.func);
	EXPECT_EQ(1, cf.block[0]);
	EXPECT_EQ(5, cf.thread[0]);
	EXPECT_EQ(1, cf.seqno);
	/* The rest of the launch is written off: nothing left to take. */
	EXPECT_EQ(-1, usm_wait(sm, &w, params, sizeof(params), 0));
	EXPECT_EQ(ETIME, errno);
	close(sm);
}

/*
 * A launch whose blocks wait for no other (VGPU_LAUNCH_USM_RUNS) goes out
 * in runs of consecutive blocks: as many as asked for, but no more than
 * leaves each SM about four runs of what is left; one USM_DONE reports a
 * run. Every block is handed out once, and the launch completes.
 */
TEST_F(usm, runs_of_blocks)
{
	unsigned char params[64];
	struct vgpu_usm_wait w;
	__u32 next = 0, last = ~0U, runs = 0;
	int sm = attach(self->fd), sm2 = attach(self->fd);

	ASSERT_LE(0, sm);
	ASSERT_LE(0, sm2);
	launch_fill(_metadata, self, 64, VGPU_LAUNCH_USER_SM | VGPU_LAUNCH_USM_RUNS);
	/* Not asked for a run (0): one block. */
	ASSERT_EQ(0, usm_wait_run(sm, &w, params, sizeof(params), 5000, 0));
	EXPECT_EQ(1, w.nblocks);
	EXPECT_EQ(0, w.block_idx[0]);
	run_blocks(self, &w, params);
	ASSERT_EQ(0, usm_done(sm, w.cookie, 0, 0, 0, 0));
	/* 63 left, two SMs: 63 / 8 = 7, below the 100 asked for. */
	ASSERT_EQ(0, usm_wait_run(sm, &w, params, sizeof(params), 5000, 100));
	EXPECT_EQ(7, w.nblocks);
	EXPECT_EQ(1, w.block_idx[0]);
	run_blocks(self, &w, params);
	ASSERT_EQ(0, usm_done(sm, w.cookie, 0, 0, 0, 0));
	/* At most what is asked for. */
	ASSERT_EQ(0, usm_wait_run(sm2, &w, params, sizeof(params), 5000, 3));
	EXPECT_EQ(3, w.nblocks);
	EXPECT_EQ(8, w.block_idx[0]);
	run_blocks(self, &w, params);
	ASSERT_EQ(0, usm_done(sm2, w.cookie, 0, 0, 0, 0));
	/* The rest, in shrinking runs, down to single blocks at the end. */
	next = 11;
	while (usm_wait_run(runs % 2 ? sm2 : sm, &w, params, sizeof(params), 0, 100) == 0) {
		EXPECT_EQ(next, w.block_idx[0]);
		EXPECT_LE(1, w.nblocks);
		EXPECT_GE(last, w.nblocks);
		EXPECT_GE(64, next + w.nblocks);
		EXPECT_EQ(0, self->c.status->completed);
		last = w.nblocks;
		next += w.nblocks;
		run_blocks(self, &w, params);
		ASSERT_EQ(0, usm_done(runs % 2 ? sm2 : sm, w.cookie, 0, 0, 0, 0));
		runs++;
	}
	EXPECT_EQ(ETIME, errno);
	EXPECT_EQ(64, next);
	EXPECT_EQ(1, last);
	EXPECT_LT(5, runs);
	EXPECT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(0, self->c.status->error);
	check_fill(_metadata, self, 64);
	close(sm);
	close(sm2);
}

/* Without VGPU_LAUNCH_USM_RUNS an SM takes one block, whatever it asks. */
TEST_F(usm, runs_need_the_flag)
{
	unsigned char params[64];
	struct vgpu_usm_wait w;
	__u32 i;
	int sm = attach(self->fd);

	ASSERT_LE(0, sm);
	launch_fill(_metadata, self, 8, VGPU_LAUNCH_USER_SM);
	for (i = 0; i < 8; i++) {
		ASSERT_EQ(0, usm_wait_run(sm, &w, params, sizeof(params), 5000, 64));
		EXPECT_EQ(1, w.nblocks);
		EXPECT_EQ(i, w.block_idx[0]);
		run_blocks(self, &w, params);
		ASSERT_EQ(0, usm_done(sm, w.cookie, 0, 0, 0, 0));
	}
	EXPECT_EQ(0, wait_for(&self->c, 1));
	check_fill(_metadata, self, 8);
	close(sm);
}

/*
 * A fault in a run names its block: @block, below the run's length,
 * moves the report to that block; the launch fails and ends.
 */
TEST_F(usm, run_fault_names_its_block)
{
	unsigned char params[64];
	struct vgpu_chan_fault cf;
	struct vgpu_usm_wait w;
	struct vgpu_usm_done d = { 0 };
	int sm = attach(self->fd);

	ASSERT_LE(0, sm);
	launch_fill(_metadata, self, 64, VGPU_LAUNCH_USER_SM | VGPU_LAUNCH_USM_RUNS);
	ASSERT_EQ(0, usm_wait_run(sm, &w, params, sizeof(params), 5000, 1));
	EXPECT_EQ(1, w.nblocks);
	run_blocks(self, &w, params);
	ASSERT_EQ(0, usm_done(sm, w.cookie, 0, 0, 0, 0));
	/* 63 left, one SM: 15, then at most the 8 asked for. */
	ASSERT_EQ(0, usm_wait_run(sm, &w, params, sizeof(params), 5000, 8));
	EXPECT_EQ(8, w.nblocks);
	EXPECT_EQ(1, w.block_idx[0]);
	d.cookie = w.cookie;
	d.kind = VGPU_KFAULT_ADDRESS;
	d.addr = 0xdead0;
	d.insn = 6;
	d.thread = 5;
	/* Past the run; a block without a fault; the padding. */
	d.block = 8;
	EXPECT_EQ(-1, ioctl(sm, VGPU_IOCTL_USM_DONE, &d));
	EXPECT_EQ(EINVAL, errno);
	d.block = 3;
	d.pad = 1;
	EXPECT_EQ(-1, ioctl(sm, VGPU_IOCTL_USM_DONE, &d));
	EXPECT_EQ(EINVAL, errno);
	d.pad = 0;
	{
		struct vgpu_usm_done ok = { .cookie = w.cookie, .block = 3 };

		EXPECT_EQ(-1, ioctl(sm, VGPU_IOCTL_USM_DONE, &ok));
		EXPECT_EQ(EINVAL, errno);
	}
	EXPECT_EQ(0, self->c.status->completed);
	ASSERT_EQ(0, ioctl(sm, VGPU_IOCTL_USM_DONE, &d));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	ASSERT_EQ(0, chan_fault(&self->c, &cf));
	EXPECT_EQ(VGPU_KFAULT_ADDRESS, cf.kind);
	EXPECT_EQ(4, cf.block[0]);
	EXPECT_EQ(5, cf.thread[0]);
	EXPECT_EQ(6, cf.insn);
	/* The rest of the launch is written off. */
	EXPECT_EQ(-1, usm_wait_run(sm, &w, params, sizeof(params), 0, 8));
	EXPECT_EQ(ETIME, errno);
	close(sm);
}

/*
 * An SM closed while it holds blocks (one, or a run of @max of a launch
 * flagged VGPU_LAUNCH_USM_RUNS): the launch ends, failed with USM_LOST at
 * the SM's first block, and what another SM holds is written off with it.
 */
static void close_in_flight(struct __test_metadata *_metadata,
			    FIXTURE_DATA(usm) *self, __u32 flags, __u32 max)
{
	unsigned char params[64];
	struct vgpu_chan_fault cf;
	struct vgpu_usm_wait w, w2;
	int sm = attach(self->fd), other = attach(self->fd);

	ASSERT_LE(0, sm);
	ASSERT_LE(0, other);
	launch_fill(_metadata, self, 64, VGPU_LAUNCH_USER_SM | flags);
	ASSERT_EQ(0, usm_wait_run(sm, &w, params, sizeof(params), 5000, max));
	EXPECT_EQ(max, w.nblocks);
	ASSERT_EQ(0, usm_wait_run(other, &w2, params, sizeof(params), 5000, max));
	EXPECT_EQ(max, w2.nblocks);
	EXPECT_EQ(max, w2.block_idx[0]);
	close(sm);
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	ASSERT_EQ(0, chan_fault(&self->c, &cf));
	EXPECT_EQ(VGPU_KFAULT_USM_LOST, cf.kind);
	EXPECT_EQ(0, cf.block[0]);
	EXPECT_EQ(-1, usm_done(other, w2.cookie, 0, 0, 0, 0));
	EXPECT_EQ(ECANCELED, errno);
	close(other);
}

TEST_F(usm, close_with_run_in_flight)
{
	close_in_flight(_metadata, self, VGPU_LAUNCH_USM_RUNS, 4);
}

TEST_F(usm, close_with_block_in_flight)
{
	close_in_flight(_metadata, self, 0, 1);
}

/*
 * The last SM detaching hands the blocks it had not taken to the
 * module's SMs: the launch completes.
 */
TEST_F(usm, last_detach_hands_blocks_back)
{
	unsigned char params[64];
	struct vgpu_usm_wait w;
	int sm = attach(self->fd);

	ASSERT_LE(0, sm);
	launch_fill(_metadata, self, 8, VGPU_LAUNCH_USER_SM);
	ASSERT_EQ(0, usm_wait(sm, &w, params, sizeof(params), 5000));
	run_block(self, &w, params);
	ASSERT_EQ(0, usm_done(sm, w.cookie, 0, 0, 0, 0));
	close(sm);
	EXPECT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(0, self->c.status->error);
	check_fill(_metadata, self, 8);
}

/*
 * SMs attached that never take a block: the watchdog ends the launch as
 * it ends an endless kernel; a block taken and never reported is written
 * off with it, and its late report refused.
 */
TEST_F(usm, watchdog_ends_launch_nobody_runs)
{
	unsigned char params[64];
	struct vgpu_chan_fault cf;
	struct vgpu_usm_wait w;
	int sm = attach(self->fd), idle = attach(self->fd);
	__u64 t0;

	ASSERT_LE(0, sm);
	ASSERT_LE(0, idle);
	ASSERT_EQ(0, set_timeout_ms("300"));
	launch_fill(_metadata, self, 4, VGPU_LAUNCH_USER_SM);
	t0 = now_ns();
	ASSERT_EQ(0, usm_wait(sm, &w, params, sizeof(params), 5000));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(0, set_timeout_ms("30000"));
	EXPECT_GT(5000000000ULL, now_ns() - t0);
	EXPECT_EQ(VGPU_CHAN_TIMEOUT, self->c.status->error);
	ASSERT_EQ(0, chan_fault(&self->c, &cf));
	EXPECT_EQ(VGPU_KFAULT_TIMEOUT, cf.kind);
	EXPECT_EQ(0, cf.block[0]);
	EXPECT_EQ(-1, usm_done(sm, w.cookie, 0, 0, 0, 0));
	EXPECT_EQ(ECANCELED, errno);
	/* Nothing of the context is handed out once it has failed. */
	EXPECT_EQ(-1, usm_wait(sm, &w, params, sizeof(params), 0));
	EXPECT_EQ(ETIME, errno);
	close(sm);
	close(idle);
}

/*
 * Another channel's failure fails the context: the launch whose block an
 * SM holds ends at once, and the late report is refused.
 */
TEST_F(usm, context_failure_ends_user_launch)
{
	unsigned char params[64];
	struct vgpu_usm_wait w;
	struct chan other;
	int sm = attach(self->fd);

	ASSERT_LE(0, sm);
	ASSERT_EQ(0, chan_open(self->fd, &other, self->status));
	launch_fill(_metadata, self, 4, VGPU_LAUNCH_USER_SM);
	ASSERT_EQ(0, usm_wait(sm, &w, params, sizeof(params), 5000));
	/* A copy from nowhere fails the other channel, and the context. */
	EXPECT_EQ(VGPU_CHAN_FAULT, copy_wait(&other, self->dev, BASE + WINDOW - 4096, 8));
	EXPECT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(0, self->c.status->error);
	EXPECT_EQ(-1, usm_done(sm, w.cookie, 0, 0, 0, 0));
	EXPECT_EQ(ECANCELED, errno);
	close(sm);
	free(other.ring);
}

/*
 * An SM takes its own context's blocks only: another context's launch
 * with the flag, having no SM of its own, runs on the module's SMs.
 */
TEST_F(usm, other_context_never_reaches_sm)
{
	unsigned char params[64];
	struct vgpu_usm_wait w;
	static void *st;	/* not on the stack the harness longjmp()s over */
	int sm = attach(self->fd), fd = open_ctx(&st, BASE);
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)fill, .funcs = (uintptr_t)&fill_func,
		.ninsns = sizeof(fill) / sizeof(fill[0]), .nfuncs = 1,
	};
	struct vgpu_mem_alloc a = { .size = MIB };
	struct vgpu_host_register r = { .size = MIB };
	struct vgpu_cmd *cmd;
	__u32 *out;
	struct chan c;
	int i;

	ASSERT_LE(0, sm);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &a));
	/* This fixture's host memory, registered in the other context too. */
	r.addr = (uintptr_t)self->host;
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_HOST_REGISTER, &r));
	memcpy(self->host, &a.va, 8);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_MODULE_LOAD, &ml));
	ASSERT_EQ(0, chan_open(fd, &c, st));
	cmd = slot(&c);
	cmd->op = VGPU_CMD_LAUNCH;
	cmd->flags = VGPU_LAUNCH_USER_SM;
	cmd->launch.module = ml.handle;
	cmd->launch.grid[0] = 8;
	cmd->launch.grid[1] = 1;
	cmd->launch.grid[2] = 1;
	cmd->launch.block[0] = 32;
	cmd->launch.block[1] = 1;
	cmd->launch.block[2] = 1;
	cmd->launch.params = (uintptr_t)self->host;
	cmd->launch.param_bytes = PARAM_BYTES;
	ASSERT_EQ(0, submit(&c));
	EXPECT_EQ(-1, usm_wait(sm, &w, params, sizeof(params), 200));
	EXPECT_EQ(ETIME, errno);
	EXPECT_EQ(0, wait_for(&c, 1));
	EXPECT_EQ(0, c.status->error);
	out = (__u32 *)(self->host + 4096);
	ASSERT_EQ(0, copy_wait(&c, (uintptr_t)out, a.va, 32));
	for (i = 0; i < 8; i++)
		EXPECT_EQ(i + 1, out[i]);
	close(sm);
	munmap(st, getpagesize());
	close(fd);
	free(c.ring);
}

/*
 * A child sharing the context's file attaches an SM, takes a block and is
 * killed: the SM goes with it, and the parent's launch ends, failed,
 * without waiting for the watchdog.
 */
TEST_F(usm, sigkill_with_block_in_flight)
{
	struct vgpu_chan_fault cf;
	int to_child[2], to_parent[2];
	__u64 t0;
	pid_t pid;
	char ch;

	ASSERT_EQ(0, pipe(to_child));
	ASSERT_EQ(0, pipe(to_parent));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		unsigned char params[64];
		struct vgpu_usm_wait w;
		int sm = attach(self->fd);

		if (sm < 0 || write(to_parent[1], "a", 1) != 1 ||
		    read(to_child[0], &ch, 1) != 1 ||
		    usm_wait(sm, &w, params, sizeof(params), 5000) ||
		    write(to_parent[1], "t", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	ASSERT_EQ(1, read(to_parent[0], &ch, 1));
	launch_fill(_metadata, self, 4, VGPU_LAUNCH_USER_SM);
	ASSERT_EQ(1, write(to_child[1], "g", 1));
	ASSERT_EQ(1, read(to_parent[0], &ch, 1));
	EXPECT_EQ('t', ch);
	EXPECT_EQ(0, self->c.status->completed);
	t0 = now_ns();
	ASSERT_EQ(0, kill(pid, SIGKILL));
	EXPECT_TRUE(reaped_within(pid, 3000));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	EXPECT_GT(3000000000ULL, now_ns() - t0);
	ASSERT_EQ(0, chan_fault(&self->c, &cf));
	EXPECT_EQ(VGPU_KFAULT_USM_LOST, cf.kind);
	close(to_child[0]);
	close(to_child[1]);
	close(to_parent[0]);
	close(to_parent[1]);
}

/*
 * The process holding the only files is killed while its SM holds a
 * block and its channel waits: everything goes, nothing hangs.
 */
TEST(sigkill_whole_process_with_block_in_flight)
{
	int to_parent[2];
	pid_t pid;
	char ch;

	ASSERT_EQ(0, pipe(to_parent));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct vgpu_module_load ml = {
			.insns = (uintptr_t)fill, .funcs = (uintptr_t)&fill_func,
			.ninsns = sizeof(fill) / sizeof(fill[0]), .nfuncs = 1,
		};
		struct vgpu_mem_alloc a = { .size = MIB };
		unsigned char params[64];
		struct vgpu_usm_wait w;
		struct vgpu_cmd *cmd;
		struct chan c;
		void *st;
		int fd = open_ctx(&st, BASE), sm;

		if (fd < 0 || ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &a) ||
		    ioctl(fd, VGPU_IOCTL_MODULE_LOAD, &ml) ||
		    chan_open(fd, &c, st))
			_exit(1);
		sm = attach(fd);
		/* Parameters from device memory: the launch reads them. */
		cmd = slot(&c);
		cmd->op = VGPU_CMD_LAUNCH;
		cmd->flags = VGPU_LAUNCH_USER_SM;
		cmd->launch.module = ml.handle;
		cmd->launch.grid[0] = 4;
		cmd->launch.grid[1] = 1;
		cmd->launch.grid[2] = 1;
		cmd->launch.block[0] = 32;
		cmd->launch.block[1] = 1;
		cmd->launch.block[2] = 1;
		cmd->launch.params = a.va;
		cmd->launch.param_bytes = PARAM_BYTES;
		if (sm < 0 || submit(&c) ||
		    usm_wait(sm, &w, params, sizeof(params), 5000) ||
		    write(to_parent[1], "t", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	ASSERT_EQ(1, read(to_parent[0], &ch, 1));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	EXPECT_TRUE(reaped_within(pid, 3000));
	close(to_parent[0]);
	close(to_parent[1]);
}

TEST_HARNESS_MAIN
