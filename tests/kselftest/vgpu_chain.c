// SPDX-License-Identifier: GPL-2.0
/*
 * VGPU_CMD_LAUNCH_CHAIN: launches run one after another as one command,
 * on the module's SMs and on user-mode SMs; each step with its own shape
 * and parameters, in order; a step that fails its checks fails the chain
 * before anything ran, a fault stops it at its step, and CHAN_FAULT names
 * the step; the command's checks at submit.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"
#include "tests/isa_build.h"
#include "vgpu_chan_util.h"

#define BASE (1ULL << 44)
#define WINDOW (1ULL << 32)
#define PARAM_BYTES 12
#define WORDS 256
#define STEPS_AT 0x10000	/* in the registered host memory */
#define PARAMS_AT 0x20000

/*
 * x = x * 3 + v for the word of each thread of the grid (ctaid.x *
 * ntid.x + tid.x): steps applied out of order give other words.
 * Params: out (u64), v (u32).
 */
static const struct vgpu_insn step_kernel[] = {
	/* 0 */ SREG(0, VGPU_SR_TID_X), SREG(1, VGPU_SR_CTAID_X), SREG(2, VGPU_SR_NTID_X),
	/* 3 */ INSN(.op = VGPU_OP_MAD, .type = VGPU_T_U32, .dst = 3, .a = 1, .b = 2, .c = 0),
	/* 4 */ INSN(.op = VGPU_OP_CVT, .type = VGPU_T_U64, .stype = VGPU_T_U32, .dst = 4, .a = 3),
	/* 5 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 4, 4, 2),
	/* 6 */ LDP(VGPU_T_U64, 5, 0),
	/* 7 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 4, 4, 5),
	/* 8 */ LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, 6, 4, 0),
	/* 9 */ OPI(VGPU_OP_MUL, VGPU_T_U32, 6, 6, 3),
	/* 10 */ LDP(VGPU_T_U32, 7, 8),
	/* 11 */ OP3(VGPU_OP_ADD, VGPU_T_U32, 6, 6, 7),
	/* 12 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 4, 0, 6),
	/* 13 */ EXIT(),
};

static const struct vgpu_func step_func = { .nregs = 8, .param_bytes = PARAM_BYTES };

FIXTURE(chain) {
	int fd;
	void *status;
	struct chan c;
	int module;
	unsigned char *host;	/* 1 MiB, registered: steps, parameters */
	__u64 dev;		/* 1 MiB of device memory */
	unsigned char *shadow;	/* the window's shadow: results read here */
};

FIXTURE_SETUP(chain)
{
	struct vgpu_mem_alloc a = { .size = MIB };
	struct vgpu_host_register r = { .size = MIB };
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)step_kernel, .funcs = (uintptr_t)&step_func,
		.ninsns = sizeof(step_kernel) / sizeof(step_kernel[0]), .nfuncs = 1,
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
	memset(self->shadow + (self->dev - BASE), 0, WORDS * 4);
}

FIXTURE_TEARDOWN(chain)
{
	munmap(self->shadow, WINDOW);
	munmap(self->status, getpagesize());
	close(self->fd);
	munmap(self->host, MIB);
	free(self->c.ring);
}

static struct vgpu_chain_step *steps(FIXTURE_DATA(chain) *self)
{
	return (struct vgpu_chain_step *)(self->host + STEPS_AT);
}

static __u32 *words(FIXTURE_DATA(chain) *self)
{
	return (__u32 *)(self->shadow + (self->dev - BASE));
}

/*
 * Step @i: the kernel over @grid blocks of 32 threads adding @v to the
 * device memory's words at @out, launch flags @flags.
 */
static void set_step(FIXTURE_DATA(chain) *self, unsigned int i, __u32 grid,
		     __u64 out, __u32 v, __u32 flags)
{
	struct vgpu_chain_step *s = &steps(self)[i];
	unsigned char *p = self->host + PARAMS_AT + i * 16;

	memcpy(p, &out, 8);
	memcpy(p + 8, &v, 4);
	memset(s, 0, sizeof(*s));
	s->flags = flags;
	s->launch.module = self->module;
	s->launch.grid[0] = grid;
	s->launch.grid[1] = 1;
	s->launch.grid[2] = 1;
	s->launch.block[0] = 32;
	s->launch.block[1] = 1;
	s->launch.block[2] = 1;
	s->launch.params = (uintptr_t)p;
	s->launch.param_bytes = PARAM_BYTES;
}

/* A LAUNCH_CHAIN of @n steps (from steps()) written to the ring. */
static struct vgpu_cmd *chain_cmd(FIXTURE_DATA(chain) *self, __u32 n)
{
	struct vgpu_cmd *cmd = slot(&self->c);

	cmd->op = VGPU_CMD_LAUNCH_CHAIN;
	cmd->chain.steps = (uintptr_t)steps(self);
	cmd->chain.nsteps = n;
	return cmd;
}

static int chan_fault(struct chan *c, struct vgpu_chan_fault *f)
{
	memset(f, 0, sizeof(*f));
	f->handle = c->handle;
	return ioctl(c->fd, VGPU_IOCTL_CHAN_FAULT, f);
}

/*
 * Steps of different grids run in order, each over its own blocks, as
 * one command: one fence value for the whole chain.
 */
TEST_F(chain, steps_run_in_order)
{
	enum { N = 12 };
	__u32 want[WORDS] = { 0 }, grid, i, w;

	for (i = 0; i < N; i++) {
		grid = 1 + i % 4;
		set_step(self, i, grid, self->dev, i + 1, 0);
		for (w = 0; w < grid * 32; w++)
			want[w] = want[w] * 3 + i + 1;
	}
	chain_cmd(self, N);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(1, self->c.status->completed);
	EXPECT_EQ(0, self->c.status->error);
	for (w = 0; w < WORDS; w++)
		EXPECT_EQ(want[w], words(self)[w]);
	/* The channel goes on after the chain as after any command. */
	chain_cmd(self, 1);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 2));
	EXPECT_EQ(want[0] * 3 + 1, words(self)[0]);
}

/* A chain of many one-block steps, the most a chain may hold. */
TEST_F(chain, longest_chain)
{
	__u32 want = 0, i;

	for (i = 0; i < VGPU_MAX_CHAIN_STEPS; i++) {
		set_step(self, i, 1, self->dev, i & 7, 0);
		want = want * 3 + (i & 7);
	}
	chain_cmd(self, VGPU_MAX_CHAIN_STEPS);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(want, words(self)[0]);
	EXPECT_EQ(want, words(self)[31]);
	EXPECT_EQ(0, words(self)[32]);
}

/* What CHAN_SUBMIT refuses of the command itself. */
TEST_F(chain, submit_rules)
{
	struct vgpu_cmd *cmd;

	set_step(self, 0, 1, self->dev, 1, 0);
	chain_cmd(self, 0);
	EXPECT_EQ(-1, submit(&self->c));
	EXPECT_EQ(EINVAL, errno);
	self->c.put--;
	chain_cmd(self, VGPU_MAX_CHAIN_STEPS + 1);
	EXPECT_EQ(-1, submit(&self->c));
	EXPECT_EQ(EINVAL, errno);
	self->c.put--;
	cmd = chain_cmd(self, 1);
	cmd->chain.pad = 1;
	EXPECT_EQ(-1, submit(&self->c));
	EXPECT_EQ(EINVAL, errno);
	self->c.put--;
	/* The user-mode SM flags are each step's, not the command's. */
	cmd = chain_cmd(self, 1);
	cmd->flags = VGPU_LAUNCH_USER_SM;
	EXPECT_EQ(-1, submit(&self->c));
	EXPECT_EQ(EINVAL, errno);
	self->c.put--;
	cmd = chain_cmd(self, 1);
	cmd->flags = VGPU_LAUNCH_PRIORITY_MAX + 1;
	EXPECT_EQ(-1, submit(&self->c));
	EXPECT_EQ(EINVAL, errno);
	self->c.put--;
	cmd = chain_cmd(self, 1);
	cmd->raw[3] = 1;
	EXPECT_EQ(-1, submit(&self->c));
	EXPECT_EQ(EINVAL, errno);
	self->c.put--;
	cmd = chain_cmd(self, 1);
	cmd->flags = VGPU_LAUNCH_PRIORITY_MAX;
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(1, words(self)[0]);
}

/*
 * A step that fails the checks of a launch fails the chain before any
 * step ran, and CHAN_FAULT names it. @bad breaks step 2 of 4.
 */
static void bad_step(struct __test_metadata *_metadata,
		     FIXTURE_DATA(chain) *self,
		     void (*bad)(struct vgpu_chain_step *s), __u32 kind)
{
	struct vgpu_chan_fault f;
	__u32 i;

	for (i = 0; i < 4; i++)
		set_step(self, i, 1, self->dev, i + 1, 0);
	bad(&steps(self)[2]);
	chain_cmd(self, 4);
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(VGPU_CHAN_LAUNCH_FAULT, self->c.status->error);
	EXPECT_EQ(1, self->c.status->error_seqno);
	ASSERT_EQ(0, chan_fault(&self->c, &f));
	EXPECT_EQ(kind, f.kind);
	EXPECT_EQ(2, f.step);
	EXPECT_EQ(1, f.seqno);
	EXPECT_EQ(0, words(self)[0]);
}

static void no_such_kernel(struct vgpu_chain_step *s)
{
	s->launch.func = 1;
}

static void wrong_param_bytes(struct vgpu_chain_step *s)
{
	s->launch.param_bytes = 8;
}

static void no_grid(struct vgpu_chain_step *s)
{
	s->launch.grid[1] = 0;
}

static void cooperative(struct vgpu_chain_step *s)
{
	s->launch.grid_sync = 4096;
}

static void unknown_flag(struct vgpu_chain_step *s)
{
	s->flags = 1u << 20;
}

static void priority_flag(struct vgpu_chain_step *s)
{
	s->flags = 1;
}

static void pad_set(struct vgpu_chain_step *s)
{
	s->pad = 1;
}

static void params_unreadable(struct vgpu_chain_step *s)
{
	s->launch.params = BASE + WINDOW - 4096;
}

TEST_F(chain, bad_kernel_fails_before_any_step)
{
	bad_step(_metadata, self, no_such_kernel, VGPU_KFAULT_BAD_LAUNCH);
}

TEST_F(chain, bad_params_size_fails_before_any_step)
{
	bad_step(_metadata, self, wrong_param_bytes, VGPU_KFAULT_BAD_LAUNCH);
}

TEST_F(chain, bad_grid_fails_before_any_step)
{
	bad_step(_metadata, self, no_grid, VGPU_KFAULT_BAD_LAUNCH);
}

TEST_F(chain, cooperative_step_refused)
{
	bad_step(_metadata, self, cooperative, VGPU_KFAULT_BAD_LAUNCH);
}

TEST_F(chain, step_flags_checked)
{
	bad_step(_metadata, self, unknown_flag, VGPU_KFAULT_BAD_LAUNCH);
}

TEST_F(chain, step_priority_refused)
{
	bad_step(_metadata, self, priority_flag, VGPU_KFAULT_BAD_LAUNCH);
}

TEST_F(chain, step_pad_checked)
{
	bad_step(_metadata, self, pad_set, VGPU_KFAULT_BAD_LAUNCH);
}

TEST_F(chain, unreadable_params_fail_before_any_step)
{
	bad_step(_metadata, self, params_unreadable, VGPU_KFAULT_BAD_LAUNCH);
}

/* Steps the module cannot read: the chain fails at step 0. */
TEST_F(chain, unreadable_steps)
{
	struct vgpu_chan_fault f;
	struct vgpu_cmd *cmd;

	cmd = chain_cmd(self, 2);
	cmd->chain.steps = BASE + WINDOW - 4096;
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	ASSERT_EQ(0, chan_fault(&self->c, &f));
	EXPECT_EQ(VGPU_KFAULT_BAD_LAUNCH, f.kind);
	EXPECT_EQ(0, f.step);
}

/*
 * The doorbell starts a launch in the caller's thread: a chain that
 * cannot start has failed by the time CHAN_SUBMIT returns, where the
 * front end's worker would have failed it some time after.
 */
TEST_F(chain, doorbell_starts_the_chain)
{
	__u32 i;

	for (i = 0; i < 4; i++)
		set_step(self, i, 1, self->dev, i + 1, 0);
	params_unreadable(&steps(self)[3]);
	chain_cmd(self, 4);
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(1, self->c.status->completed);
	EXPECT_EQ(VGPU_CHAN_LAUNCH_FAULT, self->c.status->error);
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
}

/*
 * Steps' parameters close together in user memory are read at once, but
 * a hole between them (memory the context does not map) fails no step:
 * each step's are then read on their own. Step 0's parameters end a
 * registered page, the others follow the unregistered page after it.
 */
TEST_F(chain, params_across_a_hole)
{
	enum { N = 400 };
	long pg = getpagesize();
	struct vgpu_host_register r = { .size = pg };
	__u32 want = 0, v, i;
	unsigned char *m, *p;

	m = mmap(NULL, 4 * pg, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, m);
	r.addr = (uintptr_t)m;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	r.addr = (uintptr_t)(m + 2 * pg);
	r.size = 2 * pg;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	for (i = 0; i < N; i++) {
		v = i % 5 + 1;
		set_step(self, i, 1, self->dev, 0, 0);
		/* Packed: 12 bytes a step, all N within the span allowed. */
		p = i ? m + 2 * pg + (i - 1) * PARAM_BYTES : m + pg - PARAM_BYTES;
		memcpy(p, &self->dev, 8);
		memcpy(p + 8, &v, 4);
		steps(self)[i].launch.params = (uintptr_t)p;
		want = want * 3 + v;
	}
	chain_cmd(self, N);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(want, words(self)[0]);
	EXPECT_EQ(want, words(self)[31]);
	munmap(m, 4 * pg);
}

/*
 * A fault in a step ends the chain there: the steps before it ran, those
 * after it do not, and CHAN_FAULT names the step and its block.
 */
TEST_F(chain, fault_stops_the_chain_at_its_step)
{
	struct vgpu_chan_fault f;
	__u32 i;

	for (i = 0; i < 4; i++)
		set_step(self, i, 2, self->dev, i + 1, 0);
	/* Step 1 writes where nothing is mapped. */
	set_step(self, 1, 2, BASE + WINDOW - 8192, 2, 0);
	chain_cmd(self, 4);
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(VGPU_CHAN_LAUNCH_FAULT, self->c.status->error);
	ASSERT_EQ(0, chan_fault(&self->c, &f));
	EXPECT_EQ(VGPU_KFAULT_ADDRESS, f.kind);
	EXPECT_EQ(1, f.step);
	EXPECT_EQ(1, f.seqno);
	EXPECT_EQ(self->module, f.module);
	EXPECT_EQ(0, f.func);
	EXPECT_EQ(8, f.insn);
	/* Step 0 ran; steps 2 and 3 did not. */
	EXPECT_EQ(1, words(self)[0]);
	EXPECT_EQ(1, words(self)[63]);
}

/* CHAN_FAULT's callers from before @step get the fields they know. */
TEST_F(chain, chan_fault_old_size)
{
	struct vgpu_chan_fault f;
	unsigned long old = _IOC(_IOC_READ | _IOC_WRITE, VGPU_IOCTL_TYPE,
				 _IOC_NR(VGPU_IOCTL_CHAN_FAULT),
				 offsetof(struct vgpu_chan_fault, step));

	memset(&f, 0xff, sizeof(f));
	f.handle = self->c.handle;
	f.flags = 0;
	ASSERT_EQ(0, ioctl(self->fd, old, &f));
	EXPECT_EQ(0, f.kind);
	/* Past the old size, nothing was written. */
	EXPECT_EQ(0xffffffffu, f.step);
}

/*
 * A user-mode SM takes each step's block in turn: the steps share the
 * command's seqno and are told apart by @step, each brings its own
 * parameters, and the command completes only with the last report.
 */
TEST_F(chain, steps_on_a_user_mode_sm)
{
	enum { N = 5 };
	struct vgpu_usm_attach at = { 0 };
	struct vgpu_usm_done d = { 0 };
	unsigned char params[64];
	struct vgpu_usm_wait w;
	__u32 want = 0, i, v;
	__u64 out;

	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_USM_ATTACH, &at));
	for (i = 0; i < N; i++)
		set_step(self, i, 1, self->dev, 10 + i, VGPU_LAUNCH_USER_SM);
	chain_cmd(self, N);
	ASSERT_EQ(0, submit(&self->c));
	for (i = 0; i < N; i++) {
		memset(&w, 0, sizeof(w));
		w.deadline_ns = (__s64)(now_ns() + 5000000000ULL);
		w.params = (uintptr_t)params;
		w.params_size = sizeof(params);
		if (i) {
			w.flags = VGPU_USM_WAIT_REPORT;
			w.done = (uintptr_t)&d;
		}
		ASSERT_EQ(0, ioctl(at.fd, VGPU_IOCTL_USM_WAIT, &w));
		EXPECT_EQ(1, w.seqno);
		EXPECT_EQ(i, w.step);
		EXPECT_EQ(0, w.block_idx[0]);
		EXPECT_EQ(1, w.nblocks);
		/* Not complete before the last step's report. */
		EXPECT_EQ(0, self->c.status->completed);
		memcpy(&out, params, 8);
		memcpy(&v, params + 8, 4);
		EXPECT_EQ(self->dev, out);
		EXPECT_EQ(10 + i, v);
		/* The block, run here: word 0 only, as its thread 0 would. */
		words(self)[0] = words(self)[0] * 3 + v;
		want = want * 3 + 10 + i;
		d = (struct vgpu_usm_done){ .cookie = w.cookie };
	}
	ASSERT_EQ(0, ioctl(at.fd, VGPU_IOCTL_USM_DONE, &d));
	ASSERT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(0, self->c.status->error);
	EXPECT_EQ(want, words(self)[0]);
	close(at.fd);
}

/*
 * Steps without the user-mode SM flag run on the module's SMs between
 * steps that have it: the chain moves between the two.
 */
TEST_F(chain, steps_move_between_module_and_user_sms)
{
	struct vgpu_usm_attach at = { 0 };
	unsigned char params[64];
	struct vgpu_usm_done d;
	struct vgpu_usm_wait w;
	__u32 v;

	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_USM_ATTACH, &at));
	set_step(self, 0, 1, self->dev, 1, 0);
	set_step(self, 1, 1, self->dev, 2, VGPU_LAUNCH_USER_SM);
	set_step(self, 2, 1, self->dev, 3, 0);
	chain_cmd(self, 3);
	ASSERT_EQ(0, submit(&self->c));
	memset(&w, 0, sizeof(w));
	w.deadline_ns = (__s64)(now_ns() + 5000000000ULL);
	w.params = (uintptr_t)params;
	w.params_size = sizeof(params);
	ASSERT_EQ(0, ioctl(at.fd, VGPU_IOCTL_USM_WAIT, &w));
	EXPECT_EQ(1, w.step);
	/* Step 0 ran on the module's SMs before this block was handed out. */
	EXPECT_EQ(1, words(self)[0]);
	memcpy(&v, params + 8, 4);
	words(self)[0] = words(self)[0] * 3 + v;
	d = (struct vgpu_usm_done){ .cookie = w.cookie };
	ASSERT_EQ(0, ioctl(at.fd, VGPU_IOCTL_USM_DONE, &d));
	ASSERT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ((1 * 3 + 2) * 3 + 3, words(self)[0]);
	/* The other threads' words: steps 0 and 2 only. */
	EXPECT_EQ(1 * 3 + 3, words(self)[1]);
	close(at.fd);
}

/* A fault a user-mode SM reports ends the chain at its step. */
TEST_F(chain, user_sm_fault_stops_the_chain)
{
	struct vgpu_usm_attach at = { 0 };
	struct vgpu_chan_fault f;
	unsigned char params[64];
	struct vgpu_usm_done d;
	struct vgpu_usm_wait w;
	__u32 i;

	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_USM_ATTACH, &at));
	for (i = 0; i < 3; i++)
		set_step(self, i, 1, self->dev, i + 1, VGPU_LAUNCH_USER_SM);
	chain_cmd(self, 3);
	ASSERT_EQ(0, submit(&self->c));
	for (i = 0; i < 2; i++) {
		memset(&w, 0, sizeof(w));
		w.deadline_ns = (__s64)(now_ns() + 5000000000ULL);
		w.params = (uintptr_t)params;
		w.params_size = sizeof(params);
		ASSERT_EQ(0, ioctl(at.fd, VGPU_IOCTL_USM_WAIT, &w));
		EXPECT_EQ(i, w.step);
		d = (struct vgpu_usm_done){ .cookie = w.cookie };
		if (i == 1) {
			d.kind = VGPU_KFAULT_ADDRESS;
			d.addr = 0xdead0;
			d.insn = 12;
			d.thread = 3;
		}
		ASSERT_EQ(0, ioctl(at.fd, VGPU_IOCTL_USM_DONE, &d));
	}
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	ASSERT_EQ(0, chan_fault(&self->c, &f));
	EXPECT_EQ(VGPU_KFAULT_ADDRESS, f.kind);
	EXPECT_EQ(1, f.step);
	EXPECT_EQ(12, f.insn);
	EXPECT_EQ(3, f.thread[0]);
	/* Step 2 is never handed out. */
	memset(&w, 0, sizeof(w));
	w.params = (uintptr_t)params;
	w.params_size = sizeof(params);
	EXPECT_EQ(-1, ioctl(at.fd, VGPU_IOCTL_USM_WAIT, &w));
	EXPECT_EQ(ETIME, errno);
	close(at.fd);
}

/*
 * USM_WAIT on SM file @fd for up to @max steps at once, for up to 5 s;
 * @d: a report, or NULL.
 */
static int take_steps(int fd, struct vgpu_usm_wait *w, unsigned char *params,
		      __u32 params_size, struct vgpu_usm_step *st, __u32 max,
		      struct vgpu_usm_done *d)
{
	memset(w, 0, sizeof(*w));
	w->deadline_ns = (__s64)(now_ns() + 5000000000ULL);
	w->params = (uintptr_t)params;
	w->params_size = params_size;
	w->steps = (uintptr_t)st;
	w->max_steps = max;
	if (d) {
		w->flags = VGPU_USM_WAIT_REPORT;
		w->done = (uintptr_t)d;
	}
	return ioctl(fd, VGPU_IOCTL_USM_WAIT, w);
}

/* SM file @fd finds nothing to take (a USM_WAIT that only looks). */
static void nothing_waits(struct __test_metadata *_metadata, int fd)
{
	struct vgpu_usm_wait w = { 0 };
	unsigned char params[64];

	w.params = (uintptr_t)params;
	w.params_size = sizeof(params);
	EXPECT_EQ(-1, ioctl(fd, VGPU_IOCTL_USM_WAIT, &w));
	EXPECT_EQ(ETIME, errno);
}

/*
 * A user-mode SM attached (its file in *@sm), then a chain of @n
 * one-block user-mode steps submitted, step i adding @v0 + i.
 */
static void user_chain(struct __test_metadata *_metadata,
		       FIXTURE_DATA(chain) *self, __u32 n, __u32 v0, int *sm)
{
	struct vgpu_usm_attach at = { 0 };
	__u32 i;

	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_USM_ATTACH, &at));
	*sm = at.fd;
	for (i = 0; i < n; i++)
		set_step(self, i, 1, self->dev, v0 + i, VGPU_LAUNCH_USER_SM);
	chain_cmd(self, n);
	ASSERT_EQ(0, submit(&self->c));
}

/* The v parameter of a step taken in @w's batch, from its place in @params. */
static __u32 step_v(const unsigned char *params, const struct vgpu_usm_step *st)
{
	__u32 v;

	memcpy(&v, params + st->param_off + 8, 4);
	return v;
}

/*
 * One-block user-mode steps go to an SM together: one USM_WAIT describes
 * each (kernel, shape, parameters at aligned offsets), one report ends
 * them all, and the command completes with it.
 */
TEST_F(chain, one_block_steps_taken_together)
{
	enum { N = 5 };
	struct vgpu_usm_step st[8];
	struct vgpu_usm_done d;
	unsigned char params[256];
	struct vgpu_usm_wait w;
	__u32 want = 0, i;
	__u64 out;
	int sm;

	user_chain(_metadata, self, N, 10, &sm);
	for (i = 0; i < N; i++)
		want = want * 3 + 10 + i;
	memset(st, 0xff, sizeof(st));
	ASSERT_EQ(0, take_steps(sm, &w, params, sizeof(params), st, 8, NULL));
	EXPECT_EQ(1, w.seqno);
	EXPECT_EQ(0, w.step);
	EXPECT_EQ(N, w.nsteps);
	EXPECT_EQ(1, w.nblocks);
	EXPECT_EQ(PARAM_BYTES, w.param_bytes);
	for (i = 0; i < N; i++) {
		EXPECT_EQ(self->module, st[i].module);
		EXPECT_EQ(0, st[i].func);
		EXPECT_EQ(32, st[i].block[0]);
		EXPECT_EQ(1, st[i].block[1]);
		EXPECT_EQ(1, st[i].block[2]);
		EXPECT_EQ(0, st[i].dyn_shared);
		EXPECT_EQ(PARAM_BYTES, st[i].param_bytes);
		EXPECT_EQ(16 * i, st[i].param_off);
		memcpy(&out, params + st[i].param_off, 8);
		EXPECT_EQ(self->dev, out);
		EXPECT_EQ(10 + i, step_v(params, &st[i]));
		words(self)[0] = words(self)[0] * 3 + step_v(params, &st[i]);
	}
	/* Past the steps handed out, nothing was written. */
	EXPECT_EQ(0xffffffffu, st[N].module);
	EXPECT_EQ(0, self->c.status->completed);
	d = (struct vgpu_usm_done){ .cookie = w.cookie };
	ASSERT_EQ(0, ioctl(sm, VGPU_IOCTL_USM_DONE, &d));
	ASSERT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(0, self->c.status->error);
	EXPECT_EQ(want, words(self)[0]);
	/* The SM holds nothing more: the next wait finds nothing. */
	nothing_waits(_metadata, sm);
	close(sm);
}

/*
 * What ends a batch: a step of more blocks, a step for the module's SMs,
 * @max_steps, and the room for parameters; each following wait takes the
 * next step where the last left off.
 */
TEST_F(chain, what_ends_steps_taken_together)
{
	struct vgpu_usm_step st[8];
	struct vgpu_usm_attach at = { 0 };
	struct vgpu_usm_done d;
	unsigned char params[256];
	struct vgpu_usm_wait w;
	__u32 i;

	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_USM_ATTACH, &at));
	for (i = 0; i < 12; i++)
		set_step(self, i, 1, self->dev, i + 1, VGPU_LAUNCH_USER_SM);
	set_step(self, 2, 2, self->dev, 3, VGPU_LAUNCH_USER_SM);
	set_step(self, 5, 1, self->dev, 6, 0);
	chain_cmd(self, 12);
	ASSERT_EQ(0, submit(&self->c));
	/* Steps 0 and 1: step 2 has two blocks. */
	ASSERT_EQ(0, take_steps(at.fd, &w, params, sizeof(params), st, 8, NULL));
	EXPECT_EQ(0, w.step);
	EXPECT_EQ(2, w.nsteps);
	EXPECT_EQ(2, step_v(params, &st[1]));
	/* Step 2's blocks, one at a time. */
	for (i = 0; i < 2; i++) {
		d = (struct vgpu_usm_done){ .cookie = w.cookie };
		ASSERT_EQ(0, take_steps(at.fd, &w, params, sizeof(params), st, 8, &d));
		EXPECT_EQ(2, w.step);
		EXPECT_EQ(1, w.nsteps);
		EXPECT_EQ(i, w.block_idx[0]);
	}
	/* Steps 3 and 4: step 5 is the module's. */
	d = (struct vgpu_usm_done){ .cookie = w.cookie };
	ASSERT_EQ(0, take_steps(at.fd, &w, params, sizeof(params), st, 8, &d));
	EXPECT_EQ(3, w.step);
	EXPECT_EQ(2, w.nsteps);
	EXPECT_EQ(5, step_v(params, &st[1]));
	/* Steps 6 and 7: at most two asked for. */
	d = (struct vgpu_usm_done){ .cookie = w.cookie };
	ASSERT_EQ(0, take_steps(at.fd, &w, params, sizeof(params), st, 2, &d));
	EXPECT_EQ(6, w.step);
	EXPECT_EQ(2, w.nsteps);
	/* Steps 8 and 9: room for two steps' parameters (16 + 12 bytes). */
	d = (struct vgpu_usm_done){ .cookie = w.cookie };
	ASSERT_EQ(0, take_steps(at.fd, &w, params, 16 + PARAM_BYTES, st, 8, &d));
	EXPECT_EQ(8, w.step);
	EXPECT_EQ(2, w.nsteps);
	EXPECT_EQ(10, step_v(params, &st[1]));
	/* Steps 10 and 11, the last. */
	d = (struct vgpu_usm_done){ .cookie = w.cookie };
	ASSERT_EQ(0, take_steps(at.fd, &w, params, sizeof(params), st, 8, &d));
	EXPECT_EQ(10, w.step);
	EXPECT_EQ(2, w.nsteps);
	EXPECT_EQ(12, step_v(params, &st[1]));
	d = (struct vgpu_usm_done){ .cookie = w.cookie };
	ASSERT_EQ(0, ioctl(at.fd, VGPU_IOCTL_USM_DONE, &d));
	ASSERT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(0, self->c.status->error);
	/* Only step 5 ran on the module's SMs, on every thread's word. */
	EXPECT_EQ(6, words(self)[1]);
	close(at.fd);
}

/*
 * A fault in one of the steps taken together ends the chain at that step:
 * CHAN_FAULT names it, and its kernel's shape bounds the report.
 */
TEST_F(chain, fault_in_steps_taken_together)
{
	struct vgpu_usm_step st[8];
	struct vgpu_usm_attach at = { 0 };
	struct vgpu_chan_fault f;
	struct vgpu_usm_done d;
	unsigned char params[256];
	struct vgpu_usm_wait w;
	__u32 i;

	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_USM_ATTACH, &at));
	for (i = 0; i < 4; i++)
		set_step(self, i, 1, self->dev, i + 1, VGPU_LAUNCH_USER_SM);
	steps(self)[2].launch.block[0] = 8;
	chain_cmd(self, 4);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, take_steps(at.fd, &w, params, sizeof(params), st, 8, NULL));
	ASSERT_EQ(4, w.nsteps);
	EXPECT_EQ(8, st[2].block[0]);
	d = (struct vgpu_usm_done){
		.cookie = w.cookie, .kind = VGPU_KFAULT_ADDRESS, .addr = 0xdead0,
		.insn = 12, .thread = 8, .block = 2,
	};
	/* Thread 8 is past step 2's block of 8, not step 0's of 32. */
	EXPECT_EQ(-1, ioctl(at.fd, VGPU_IOCTL_USM_DONE, &d));
	EXPECT_EQ(EINVAL, errno);
	/* No step 4 among those taken. */
	d.thread = 7;
	d.block = 4;
	EXPECT_EQ(-1, ioctl(at.fd, VGPU_IOCTL_USM_DONE, &d));
	EXPECT_EQ(EINVAL, errno);
	d.block = 2;
	ASSERT_EQ(0, ioctl(at.fd, VGPU_IOCTL_USM_DONE, &d));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	ASSERT_EQ(0, chan_fault(&self->c, &f));
	EXPECT_EQ(VGPU_KFAULT_ADDRESS, f.kind);
	EXPECT_EQ(2, f.step);
	EXPECT_EQ(0, f.block[0]);
	EXPECT_EQ(7, f.thread[0]);
	EXPECT_EQ(12, f.insn);
	EXPECT_EQ(0xdead0, f.addr);
	/* Step 3 is never handed out. */
	nothing_waits(_metadata, at.fd);
	close(at.fd);
}

/*
 * Callers of USM_WAIT's size before @steps, and callers that ask for one
 * step, take the steps one at a time.
 */
TEST_F(chain, steps_one_at_a_time_for_old_callers)
{
	unsigned long old = _IOC(_IOC_READ | _IOC_WRITE, VGPU_IOCTL_TYPE,
				 _IOC_NR(VGPU_IOCTL_USM_WAIT),
				 offsetof(struct vgpu_usm_wait, steps));
	struct vgpu_usm_step st[8];
	unsigned char params[64];
	struct vgpu_usm_done d;
	struct vgpu_usm_wait w;
	int sm;

	user_chain(_metadata, self, 3, 1, &sm);
	memset(&w, 0, sizeof(w));
	w.deadline_ns = (__s64)(now_ns() + 5000000000ULL);
	w.params = (uintptr_t)params;
	w.params_size = sizeof(params);
	/* Past the old size: not read, not written. */
	w.steps = (uintptr_t)st;
	w.max_steps = 8;
	w.nsteps = 0xabcd;
	ASSERT_EQ(0, ioctl(sm, old, &w));
	EXPECT_EQ(0, w.step);
	EXPECT_EQ(0xabcd, w.nsteps);
	d = (struct vgpu_usm_done){ .cookie = w.cookie };
	ASSERT_EQ(0, take_steps(sm, &w, params, sizeof(params), st, 1, &d));
	EXPECT_EQ(1, w.step);
	EXPECT_EQ(1, w.nsteps);
	d = (struct vgpu_usm_done){ .cookie = w.cookie };
	ASSERT_EQ(0, take_steps(sm, &w, params, sizeof(params), NULL, 8, &d));
	EXPECT_EQ(2, w.step);
	EXPECT_EQ(1, w.nsteps);
	d = (struct vgpu_usm_done){ .cookie = w.cookie };
	ASSERT_EQ(0, ioctl(sm, VGPU_IOCTL_USM_DONE, &d));
	ASSERT_EQ(0, wait_for(&self->c, 1));
	EXPECT_EQ(0, self->c.status->error);
	close(sm);
}

/* Steps whose descriptions cannot be written are lost, as the SM's. */
TEST_F(chain, unwritable_steps_lose_them)
{
	unsigned char params[64];
	struct vgpu_chan_fault f;
	struct vgpu_usm_wait w;
	int sm;

	user_chain(_metadata, self, 3, 1, &sm);
	EXPECT_EQ(-1, take_steps(sm, &w, params, sizeof(params),
				 (struct vgpu_usm_step *)8, 8, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	ASSERT_EQ(0, chan_fault(&self->c, &f));
	EXPECT_EQ(VGPU_KFAULT_USM_LOST, f.kind);
	EXPECT_EQ(0, f.step);
	close(sm);
}

/* Bytes of kernel memory the device's contexts hold (sysfs). */
static long long kmem_used(void)
{
	FILE *f = fopen("/sys/class/vgpu/vgpu0/kmem_used", "r");
	long long v = -1;

	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/*
 * A running chain holds its checked steps and their parameters against
 * the context's budget, not also the steps as it read them; all of it
 * goes back when the chain ends.
 */
TEST_F(chain, running_chain_holds_what_it_keeps)
{
	unsigned char params[64];
	struct vgpu_usm_wait w;
	long long base, held;
	__u32 i;
	int sm;

	base = kmem_used();
	ASSERT_LE(0, base);
	user_chain(_metadata, self, VGPU_MAX_CHAIN_STEPS, 1, &sm);
	ASSERT_EQ(0, take_steps(sm, &w, params, sizeof(params), NULL, 1, NULL));
	held = kmem_used() - base;
	/* The parameters, and less than a step as read again for each. */
	EXPECT_LE(VGPU_MAX_CHAIN_STEPS * PARAM_BYTES, held);
	EXPECT_GT(VGPU_MAX_CHAIN_STEPS * (PARAM_BYTES + 2 * sizeof(struct vgpu_chain_step)),
		  held);
	/* The SM goes with its step: the chain fails, and gives it all back. */
	close(sm);
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	for (i = 0; i < 100 && kmem_used() != base; i++)
		usleep(10000);
	EXPECT_EQ(base, kmem_used());
}

TEST_HARNESS_MAIN
