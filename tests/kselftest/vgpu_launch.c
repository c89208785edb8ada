// SPDX-License-Identifier: GPL-2.0
/*
 * Modules and launches at the ioctl level: loading verified programs (and
 * refusing bad ones with the verifier's message), launches checked at
 * submit, kernels that compute over device memory, faults reported with
 * kind, address, block, thread and instruction, the watchdog, SIGKILL of
 * a process running an endless kernel or waiting behind another's,
 * contexts taking turns on the SMs whatever their priorities, and
 * contexts that cannot read each other's memory.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

#define DEV "/dev/vgpu0"

static int load(int fd, const struct vgpu_insn *insns, __u32 n,
		const struct vgpu_func *f, char *log, __u32 log_size,
		struct vgpu_module_load *out)
{
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)insns, .funcs = (uintptr_t)f,
		.log = (uintptr_t)log, .ninsns = n, .nfuncs = 1,
		.log_size = log_size,
	};
	int ret = ioctl(fd, VGPU_IOCTL_MODULE_LOAD, &ml);

	if (out)
		*out = ml;
	return ret ? ret : (int)ml.handle;
}

/* The channel waits until the 64-bit word at @addr reaches @value. */
static void cmd_wait_word(struct chan *c, __u64 addr, __u64 value)
{
	struct vgpu_cmd *cmd = slot(c);

	cmd->op = VGPU_CMD_SEM_ACQUIRE;
	cmd->flags = VGPU_SEM_GEQ;
	cmd->sem.addr = addr;
	cmd->sem.value = value;
}

/* The channel writes @value to the 64-bit word at @addr. */
static void cmd_release_word(struct chan *c, __u64 addr, __u64 value)
{
	struct vgpu_cmd *cmd = slot(c);

	cmd->op = VGPU_CMD_SEM_RELEASE;
	cmd->sem.addr = addr;
	cmd->sem.value = value;
}

static void cmd_launch(struct chan *c, __u32 module, __u32 grid, __u32 block,
		       __u64 params, __u32 param_bytes)
{
	struct vgpu_cmd *cmd = slot(c);

	cmd->op = VGPU_CMD_LAUNCH;
	cmd->launch.module = module;
	cmd->launch.grid[0] = grid;
	cmd->launch.grid[1] = 1;
	cmd->launch.grid[2] = 1;
	cmd->launch.block[0] = block;
	cmd->launch.block[1] = 1;
	cmd->launch.block[2] = 1;
	cmd->launch.params = params;
	cmd->launch.param_bytes = param_bytes;
}

static int chan_fault(struct chan *c, struct vgpu_chan_fault *f)
{
	memset(f, 0, sizeof(*f));
	f->handle = c->handle;
	return ioctl(c->fd, VGPU_IOCTL_CHAN_FAULT, f);
}

/* c[i] = a[i] + b[i] (f32) for i < n; params a, b, c, n. */
static const struct vgpu_insn vadd[] = {
	/* 0 */ SREG(0, VGPU_SR_CTAID_X),
	/* 1 */ SREG(1, VGPU_SR_NTID_X),
	/* 2 */ SREG(2, VGPU_SR_TID_X),
	/* 3 */ INSN(.op = VGPU_OP_MAD, .type = VGPU_T_U32, .dst = 3, .a = 0, .b = 1, .c = 2),
	/* 4 */ LDP(VGPU_T_U32, 4, 24),
	/* 5 */ SETP(VGPU_T_U32, VGPU_CMP_GE, 0, 3, 4),
	/* 6 */ INSN(.op = VGPU_OP_EXIT, .guard = 0),
	/* 7 */ INSN(.op = VGPU_OP_CVT, .type = VGPU_T_U64, .stype = VGPU_T_U32, .dst = 5, .a = 3),
	/* 8 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 5, 5, 2),
	/* 9 */ LDP(VGPU_T_U64, 6, 0),
	/* 10 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 6, 6, 5),
	/* 11 */ LD(VGPU_SPACE_GLOBAL, VGPU_T_F32, 7, 6, 0),
	/* 12 */ LDP(VGPU_T_U64, 6, 8),
	/* 13 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 6, 6, 5),
	/* 14 */ LD(VGPU_SPACE_GLOBAL, VGPU_T_F32, 8, 6, 0),
	/* 15 */ OP3(VGPU_OP_ADD, VGPU_T_F32, 7, 7, 8),
	/* 16 */ LDP(VGPU_T_U64, 6, 16),
	/* 17 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 6, 6, 5),
	/* 18 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_F32, 6, 0, 7),
	/* 19 */ EXIT(),
};

static const struct vgpu_func vadd_func = { .nregs = 9, .npreds = 1, .param_bytes = 28 };

FIXTURE(launch) {
	int fd;
	void *status;
	struct chan c;
	unsigned char *host;	/* 4 MiB, registered */
	__u64 dev;		/* 4 MiB of device memory */
};

FIXTURE_SETUP(launch)
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
	r.addr = (uintptr_t)self->host;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	ASSERT_EQ(0, chan_open(self->fd, &self->c, self->status));
}

FIXTURE_TEARDOWN(launch)
{
	munmap(self->status, getpagesize());
	close(self->fd);
	munmap(self->host, 4 * MIB);
	free(self->c.ring);
}

TEST_F(launch, vector_add)
{
	enum { N = 1000 };
	float *a = (float *)self->host, *b = a + N, *out = b + N;
	__u64 *params = (__u64 *)(self->host + 2 * MIB);
	__u64 da = self->dev, db = da + 4 * N, dc = db + 4 * N;
	int handle, i, bad = 0;

	for (i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = 0.5f * (float)i;
	}
	params[0] = da;
	params[1] = db;
	params[2] = dc;
	params[3] = N;
	handle = load(self->fd, vadd, 20, &vadd_func, NULL, 0, NULL);
	ASSERT_LT(0, handle);
	cmd_copy(&self->c, da, (uintptr_t)a, 8 * N, 1, 0, 0);	/* a and b */
	cmd_launch(&self->c, handle, 4, 256, (uintptr_t)params, 28);
	cmd_copy(&self->c, (uintptr_t)out, dc, 4 * N, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 3));
	for (i = 0; i < N; i++)
		bad += out[i] != 1.5f * (float)i;
	EXPECT_EQ(0, bad);
}

/*
 * Registers and shared memory start undefined in CUDA, but never with
 * what another launch left there: a kernel reading a register it never
 * wrote and shared memory it never stored sees zeros after a kernel that
 * filled both (run on the same SM workers).
 */
TEST_F(launch, no_leftovers_of_another_launch)
{
	enum { BLOCKS = 24 };
	static const struct vgpu_insn wr[] = {
		MOVI(VGPU_T_U32, 0, 0x5ec2e7), MOVI(VGPU_T_U32, 1, 0x5ec2e7),
		SREG(2, VGPU_SR_TID_X), OPI(VGPU_OP_SHL, VGPU_T_U32, 2, 2, 2),
		ST(VGPU_SPACE_SHARED, VGPU_T_U32, 2, 0, 0),
		MOVI(VGPU_T_U32, 2, 0x5ec2e7), EXIT(),
	};
	/* out[ctaid * 256 + tid] = shared[tid] | r1, r1 never written */
	static const struct vgpu_insn rd[] = {
		SREG(0, VGPU_SR_TID_X), OPI(VGPU_OP_SHL, VGPU_T_U32, 2, 0, 2),
		LD(VGPU_SPACE_SHARED, VGPU_T_U32, 2, 2, 0),
		OP3(VGPU_OP_OR, VGPU_T_U32, 2, 2, 1),
		SREG(1, VGPU_SR_CTAID_X), OPI(VGPU_OP_SHL, VGPU_T_U32, 1, 1, 8),
		OP3(VGPU_OP_ADD, VGPU_T_U32, 0, 0, 1),
		OPI(VGPU_OP_SHL, VGPU_T_U64, 0, 0, 2),
		LDP(VGPU_T_U64, 1, 0), OP3(VGPU_OP_ADD, VGPU_T_U64, 0, 0, 1),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 0, 2), EXIT(),
	};
	static const struct vgpu_func f = { .nregs = 3, .param_bytes = 8,
					    .shared_bytes = 1024 };
	__u32 *out = (__u32 *)self->host;
	__u64 *params = (__u64 *)(self->host + 2 * MIB);
	int hw, hr, i, bad = 0;

	params[0] = self->dev;
	hw = load(self->fd, wr, 7, &f, NULL, 0, NULL);
	hr = load(self->fd, rd, 12, &f, NULL, 0, NULL);
	ASSERT_LT(0, hw);
	ASSERT_LT(0, hr);
	memset(out, 0xff, BLOCKS * 256 * 4);
	cmd_launch(&self->c, hw, BLOCKS, 256, (uintptr_t)params, 8);
	cmd_launch(&self->c, hr, BLOCKS, 256, (uintptr_t)params, 8);
	cmd_copy(&self->c, (uintptr_t)out, self->dev, BLOCKS * 256 * 4, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 3));
	for (i = 0; i < BLOCKS * 256; i++)
		bad += out[i] != 0;
	EXPECT_EQ(0, bad);
}

TEST_F(launch, load_rules)
{
	struct vgpu_insn bad[2] = { INSN(.op = VGPU_OP_MOV, .type = VGPU_T_U32, .dst = 7), EXIT() };
	struct vgpu_func f = { .nregs = 4 };
	struct vgpu_module_load ml = { 0 };
	struct vgpu_module_unload mu = { 0 };
	char log[64], tiny[8];
	int handle;

	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MODULE_LOAD, &ml));	/* no code */
	EXPECT_EQ(EINVAL, errno);
	memset(log, 'x', sizeof(log));
	EXPECT_EQ(-1, load(self->fd, bad, 2, &f, log, sizeof(log), &ml));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_STREQ("register out of range", log);
	EXPECT_EQ(0, ml.error_insn);
	EXPECT_EQ(0, ml.error_func);
	EXPECT_EQ(-1, load(self->fd, bad, 2, &f, tiny, sizeof(tiny), NULL));
	EXPECT_STREQ("registe", tiny);
	EXPECT_EQ(-1, load(self->fd, bad, 2, &f, (char *)8, 64, NULL));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, load(self->fd, (void *)8, 2, &f, NULL, 0, NULL));
	EXPECT_EQ(EFAULT, errno);
	ml = (struct vgpu_module_load){ .insns = (uintptr_t)vadd, .funcs = (uintptr_t)&vadd_func,
					.ninsns = 20, .nfuncs = 1, .flags = 1 };
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MODULE_LOAD, &ml));
	EXPECT_EQ(EINVAL, errno);
	ml.flags = 0;
	ml.const_bytes = VGPU_MAX_CONST_BYTES + 1;
	ml.consts = (uintptr_t)self->host;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MODULE_LOAD, &ml));
	EXPECT_EQ(EINVAL, errno);

	handle = load(self->fd, vadd, 20, &vadd_func, NULL, 0, NULL);
	ASSERT_LT(0, handle);
	mu.handle = handle;
	mu.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MODULE_UNLOAD, &mu));
	EXPECT_EQ(EINVAL, errno);
	mu.flags = 0;
	EXPECT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MODULE_UNLOAD, &mu));
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MODULE_UNLOAD, &mu));
	EXPECT_EQ(ENOENT, errno);
}

/* Dimensions and shared memory are checked when the launch is queued. */
TEST_F(launch, bad_dimensions_refused_at_submit)
{
	struct vgpu_info info = { 0 };
	struct { __u32 grid[3], block[3], dyn; } cases[] = {
		{ { 0, 1, 1 }, { 1, 1, 1 }, 0 },
		{ { 1, 1, 1 }, { 0, 1, 1 }, 0 },
		{ { 1, 1, 1 }, { 1025, 1, 1 }, 0 },
		{ { 1, 1, 1 }, { 32, 32, 2 }, 0 },
		{ { 1, 1, 1 }, { 1, 1, 65 }, 0 },
		{ { 1, 65536, 1 }, { 1, 1, 1 }, 0 },
		{ { 1, 1, 1 }, { 1, 1, 1 }, 0 },	/* dyn: set below */
	};
	size_t i;
	int handle = load(self->fd, vadd, 20, &vadd_func, NULL, 0, NULL);

	ASSERT_LT(0, handle);
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info));
	/* One byte past the SM's, less what sm_80 and later keep per block. */
	cases[6].dyn = info.shared_mem_per_sm - (info.cc_major >= 8 ? 1024 : 0) + 1;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vgpu_cmd *cmd;

		cmd_launch(&self->c, handle, 1, 1, 0, 28);
		cmd = &self->c.ring[(self->c.put - 1) % RING];
		memcpy(cmd->launch.grid, cases[i].grid, sizeof(cases[i].grid));
		memcpy(cmd->launch.block, cases[i].block, sizeof(cases[i].block));
		cmd->launch.dyn_shared = cases[i].dyn;
		EXPECT_EQ(-1, submit(&self->c)) TH_LOG("case %zu", i);
		EXPECT_EQ(EINVAL, errno);
		self->c.put--;
	}
}

/* A launch that cannot start fails its channel with BAD_LAUNCH. */
TEST_F(launch, bad_module_or_params)
{
	struct vgpu_chan_fault f;
	int handle = load(self->fd, vadd, 20, &vadd_func, NULL, 0, NULL);

	ASSERT_LT(0, handle);
	cmd_launch(&self->c, handle, 1, 32, (uintptr_t)self->host, 24);	/* 28 declared */
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(VGPU_CHAN_LAUNCH_FAULT, self->c.status->error);
	ASSERT_EQ(0, chan_fault(&self->c, &f));
	EXPECT_EQ(VGPU_KFAULT_BAD_LAUNCH, f.kind);
	EXPECT_EQ(handle, f.module);
	EXPECT_EQ(1, f.seqno);
}

/* Thread 37 of block 2 writes past the end of its buffer. */
TEST_F(launch, fault_is_reported)
{
	static const struct vgpu_insn p[] = {
		/* 0 */ SREG(0, VGPU_SR_TID_X),
		/* 1 */ SREG(1, VGPU_SR_CTAID_X),
		/* 2 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 0, 37),
		/* 3 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 1, 1, 2),
		/* 4 */ INSN(.op = VGPU_OP_AND, .type = VGPU_T_PRED, .dst = 0, .a = 0, .b = 1),
		/* 5 */ LDP(VGPU_T_U64, 2, 0),
		/* 6 */ INSN(.op = VGPU_OP_ST, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
			     .a = 2, .b = 0, .imm = 4 * MIB, .guard = 0),
		/* 7 */ EXIT(),
	};
	struct vgpu_func f = { .nregs = 3, .npreds = 2, .param_bytes = 8 };
	__u64 *params = (__u64 *)self->host;
	struct vgpu_chan_fault cf;
	int handle = load(self->fd, p, 8, &f, NULL, 0, NULL);

	ASSERT_LT(0, handle);
	params[0] = self->dev;
	cmd_launch(&self->c, handle, 4, 64, (uintptr_t)params, 8);
	slot(&self->c)->op = VGPU_CMD_NOP;
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 2));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(VGPU_CHAN_LAUNCH_FAULT, self->c.status->error);
	EXPECT_EQ(1, self->c.status->error_seqno);
	ASSERT_EQ(0, chan_fault(&self->c, &cf));
	EXPECT_EQ(VGPU_KFAULT_ADDRESS, cf.kind);
	EXPECT_EQ(self->dev + 4 * MIB, cf.addr);
	EXPECT_EQ(6, cf.insn);
	EXPECT_EQ(2, cf.block[0]);
	EXPECT_EQ(37, cf.thread[0]);
	EXPECT_EQ(handle, cf.module);
	EXPECT_EQ(0, cf.func);
	/* Sticky: later work is refused. */
	slot(&self->c)->op = VGPU_CMD_NOP;
	EXPECT_EQ(-1, submit(&self->c));
	EXPECT_EQ(EIO, errno);
}

TEST_F(launch, misaligned_access)
{
	static const struct vgpu_insn p[] = {
		LDP(VGPU_T_U64, 0, 0),
		LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 2),
		EXIT(),
	};
	struct vgpu_func f = { .nregs = 2, .param_bytes = 8 };
	__u64 *params = (__u64 *)self->host;
	struct vgpu_chan_fault cf;
	int handle;

	params[0] = self->dev;
	handle = load(self->fd, p, 3, &f, NULL, 0, NULL);
	ASSERT_LT(0, handle);
	cmd_launch(&self->c, handle, 1, 1, (uintptr_t)params, 8);
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	ASSERT_EQ(0, chan_fault(&self->c, &cf));
	EXPECT_EQ(VGPU_KFAULT_MISALIGNED, cf.kind);
	EXPECT_EQ(self->dev + 2, cf.addr);
}

/*
 * A trap fails the context: a launch queued afterwards on another channel
 * is skipped (its fence advances, no error of its own, no report).
 */
TEST_F(launch, trap_fails_the_context)
{
	static const struct vgpu_insn p[] = {
		LDP(VGPU_T_U64, 0, 0),
		INSN(.op = VGPU_OP_TRAP),
	};
	struct vgpu_func f = { .nregs = 2, .param_bytes = 8 };
	__u64 *params = (__u64 *)self->host;
	struct vgpu_chan_fault cf;
	struct chan other;
	int handle;

	params[0] = self->dev;
	handle = load(self->fd, p, 2, &f, NULL, 0, NULL);
	ASSERT_LT(0, handle);
	cmd_launch(&self->c, handle, 1, 1, (uintptr_t)params, 8);
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	ASSERT_EQ(0, chan_fault(&self->c, &cf));
	EXPECT_EQ(VGPU_KFAULT_TRAP, cf.kind);
	EXPECT_EQ(1, cf.insn);

	ASSERT_EQ(0, chan_open(self->fd, &other, self->status));
	cmd_launch(&other, handle, 1, 1, (uintptr_t)params, 8);
	ASSERT_EQ(0, submit(&other));
	EXPECT_EQ(0, wait_for(&other, 1));
	EXPECT_EQ(0, other.status->error);
	ASSERT_EQ(0, chan_fault(&other, &cf));
	EXPECT_EQ(0, cf.kind);
	free(other.ring);
}

/* Blocks on every SM worker add to one counter: no increment is lost. */
TEST_F(launch, atomics_across_sm_workers)
{
	static const struct vgpu_insn p[] = {
		LDP(VGPU_T_U64, 0, 0),
		MOVI(VGPU_T_U32, 1, 1),
		INSN(.op = VGPU_OP_ATOM, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
		     .mod2 = VGPU_ATOM_ADD, .dst = 2, .a = 0, .b = 1),
		MOVI(VGPU_T_F32, 1, 0x3f800000),
		INSN(.op = VGPU_OP_ATOM, .type = VGPU_T_F32, .mod = VGPU_SPACE_GLOBAL,
		     .mod2 = VGPU_ATOM_ADD, .dst = 2, .a = 0, .b = 1, .imm = 4),
		EXIT(),
	};
	struct vgpu_func f = { .nregs = 3, .param_bytes = 8 };
	__u64 *params = (__u64 *)self->host;
	__u32 *out = (__u32 *)(self->host + 4096);
	float fsum;
	int handle = load(self->fd, p, 6, &f, NULL, 0, NULL);

	ASSERT_LT(0, handle);
	params[0] = self->dev;
	cmd_launch(&self->c, handle, 64, 256, (uintptr_t)params, 8);
	cmd_copy(&self->c, (uintptr_t)out, self->dev, 8, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 2));
	EXPECT_EQ(64 * 256, out[0]);
	memcpy(&fsum, &out[1], 4);
	EXPECT_EQ(64.0f * 256, fsum);
}

/*
 * Kernels of two channels run at the same time: one waits for a flag in
 * device memory that the other sets (one after the other, the first would
 * wait forever).
 */
TEST_F(launch, kernels_of_two_channels_run_at_once)
{
	static const struct vgpu_insn waiter[] = {
		/* 0 */ LDP(VGPU_T_U64, 0, 0),
		/* 1 */ LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 0),
		/* 2 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 1, 0),
		/* 3 */ BRA_IF(0, 1),
		/* 4 */ MOVI(VGPU_T_U32, 1, 2),
		/* 5 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 4, 1),
		/* 6 */ EXIT(),
	};
	static const struct vgpu_insn setter[] = {
		LDP(VGPU_T_U64, 0, 0),
		MOVI(VGPU_T_U32, 1, 1),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 0, 1),
		EXIT(),
	};
	struct vgpu_func fw = { .nregs = 2, .npreds = 1, .param_bytes = 8 };
	struct vgpu_func fs = { .nregs = 2, .param_bytes = 8 };
	__u64 *params = (__u64 *)self->host;
	__u32 *out = (__u32 *)(self->host + 4096);
	int hw = load(self->fd, waiter, 7, &fw, NULL, 0, NULL);
	int hs = load(self->fd, setter, 4, &fs, NULL, 0, NULL);
	struct chan other;

	ASSERT_LT(0, hw);
	ASSERT_LT(0, hs);
	ASSERT_EQ(0, chan_open(self->fd, &other, self->status));
	params[0] = self->dev;
	cmd_launch(&self->c, hw, 1, 1, (uintptr_t)params, 8);
	cmd_copy(&self->c, (uintptr_t)out, self->dev, 8, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	usleep(50000);		/* the waiter is spinning */
	cmd_launch(&other, hs, 1, 1, (uintptr_t)params, 8);
	ASSERT_EQ(0, submit(&other));
	ASSERT_EQ(0, wait_for(&self->c, 2));
	EXPECT_EQ(1, out[0]);
	EXPECT_EQ(2, out[1]);
	free(other.ring);
}

/*
 * Priorities: each block takes a ticket from a counter after a delay. A
 * high-priority launch queued just after a low-priority one gets its blocks
 * handed out before the rest of the first one's, so many of the first
 * launch's blocks come after the second's last (taking turns, almost none).
 * Both channels first wait for a word that a third channel releases, so
 * the two launches reach the engine together however late the host
 * submits the second (on a loaded host, the first could otherwise run
 * most of its blocks alone).
 */
TEST_F(launch, higher_priority_launch_goes_first)
{
	static const struct vgpu_insn p[] = {
		/* 0 */ MOVI(VGPU_T_U32, 4, 3000),
		/* 1 */ OPI(VGPU_OP_SUB, VGPU_T_U32, 4, 4, 1),
		/* 2 */ SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 4, 0),
		/* 3 */ BRA_IF(0, 1),
		/* 4 */ LDP(VGPU_T_U64, 0, 0),
		/* 5 */ MOVI(VGPU_T_U32, 1, 1),
		/* 6 */ INSN(.op = VGPU_OP_ATOM, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
			     .mod2 = VGPU_ATOM_ADD, .dst = 2, .a = 0, .b = 1),
		/* 7 */ SREG(3, VGPU_SR_CTAID_X),
		/* 8 */ INSN(.op = VGPU_OP_CVT, .type = VGPU_T_U64, .stype = VGPU_T_U32,
			     .dst = 5, .a = 3),
		/* 9 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 5, 5, 2),
		/* 10 */ LDP(VGPU_T_U64, 0, 8),
		/* 11 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 0, 0, 5),
		/* 12 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 0, 2),
		/* 13 */ EXIT(),
	};
	struct vgpu_func f = { .nregs = 6, .npreds = 1, .param_bytes = 16 };
	__u64 *params = (__u64 *)self->host;
	__u32 *out = (__u32 *)(self->host + 4096);
	__u32 last_high = 0, low_after = 0;
	__u64 gate = self->dev + 2048;
	struct chan other, opener;
	int i, handle = load(self->fd, p, 14, &f, NULL, 0, NULL);

	ASSERT_LT(0, handle);
	ASSERT_EQ(0, chan_open(self->fd, &other, self->status));
	ASSERT_EQ(0, chan_open(self->fd, &opener, self->status));
	params[0] = self->dev;			/* the counter */
	params[1] = self->dev + 256;		/* low's tickets */
	params[2] = self->dev;
	params[3] = self->dev + 1024;		/* high's tickets */
	cmd_memset(&self->c, self->dev, 0, 4, 1);
	cmd_memset(&self->c, gate, 0, 4, 2);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 2));

	cmd_wait_word(&self->c, gate, 1);
	cmd_launch(&self->c, handle, 64, 1, (uintptr_t)params, 16);
	cmd_wait_word(&other, gate, 1);
	cmd_launch(&other, handle, 64, 1, (uintptr_t)&params[2], 16);
	other.ring[1].flags = VGPU_LAUNCH_PRIORITY_MAX;
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, submit(&other));
	cmd_release_word(&opener, gate, 1);
	ASSERT_EQ(0, submit(&opener));
	ASSERT_EQ(0, wait_for(&self->c, 4));
	ASSERT_EQ(0, wait_for(&other, 2));
	cmd_copy(&self->c, (uintptr_t)out, self->dev + 256, 256, 1, 0, 0);
	cmd_copy(&self->c, (uintptr_t)(out + 64), self->dev + 1024, 256, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 6));
	for (i = 0; i < 64; i++)
		if (out[64 + i] > last_high)
			last_high = out[64 + i];
	for (i = 0; i < 64; i++)
		low_after += out[i] > last_high;
	EXPECT_LE(16, low_after);

	/* A priority beyond the highest is refused at submit. */
	cmd_launch(&other, handle, 1, 1, (uintptr_t)params, 16);
	other.ring[2].flags = VGPU_LAUNCH_PRIORITY_MAX + 1;
	EXPECT_EQ(-1, submit(&other));
	EXPECT_EQ(EINVAL, errno);
	free(other.ring);
	free(opener.ring);
}

/* Lanes that wait for one that never comes: a reported deadlock. */
TEST_F(launch, deadlock_is_reported)
{
	static const struct vgpu_insn p[] = {
		/* 0 */ SREG(0, VGPU_SR_TID_X),
		/* 1 */ SETPI(VGPU_T_U32, VGPU_CMP_EQ, 0, 0, 3),
		/* 2 */ BRA_IF(0, 5),
		/* 3 */ INSN(.op = VGPU_OP_WARPSYNC, .imm = 0xffffffff),
		/* 4 */ EXIT(),
		/* 5 */ BAR(),
		/* 6 */ BRA(5),
	};
	struct vgpu_func f = { .nregs = 1, .npreds = 1 };
	struct vgpu_chan_fault cf;
	int handle = load(self->fd, p, 7, &f, NULL, 0, NULL);

	ASSERT_LT(0, handle);
	cmd_launch(&self->c, handle, 1, 32, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	ASSERT_EQ(0, chan_fault(&self->c, &cf));
	EXPECT_EQ(VGPU_KFAULT_DEADLOCK, cf.kind);
}

static const struct vgpu_insn endless[] = { INSN(.op = VGPU_OP_NOP), BRA(0) };
static const struct vgpu_func endless_func = { .nregs = 1 };

TEST_F(launch, watchdog_ends_endless_kernel)
{
	struct vgpu_chan_fault cf;
	int handle = load(self->fd, endless, 2, &endless_func, NULL, 0, NULL);

	ASSERT_LT(0, handle);
	ASSERT_EQ(0, set_timeout_ms("300"));
	cmd_launch(&self->c, handle, 2, 64, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(0, set_timeout_ms("30000"));
	EXPECT_EQ(VGPU_CHAN_TIMEOUT, self->c.status->error);
	ASSERT_EQ(0, chan_fault(&self->c, &cf));
	EXPECT_EQ(VGPU_KFAULT_TIMEOUT, cf.kind);
}

/*
 * A grid barrier written in the ISA, as cooperative groups' is: each
 * block (one thread) adds 1 to the 32-bit word at its grid workspace + 4,
 * whose address it reads from GRID_SYNC_HI and GRID_SYNC_LO, and spins
 * until the count reaches the grid's size; it then writes the count it
 * saw to out[ctaid.x] (param 0). Block @param 8, if below the grid's
 * size, traps instead of arriving.
 */
static const struct vgpu_insn grid_barrier[] = {
	/* 0 */ SREG(0, VGPU_SR_GRID_SYNC_HI),
	/* 1 */ SREG(1, VGPU_SR_GRID_SYNC_LO),
	/* 2 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 0, 0, 32),
	/* 3 */ OP3(VGPU_OP_OR, VGPU_T_U64, 0, 0, 1),
	/* 4 */ SREG(2, VGPU_SR_NCTAID_X),
	/* 5 */ SREG(5, VGPU_SR_CTAID_X),
	/* 6 */ LDP(VGPU_T_U32, 6, 8),
	/* 7 */ SETP(VGPU_T_U32, VGPU_CMP_EQ, 0, 5, 6),
	/* 8 */ INSN(.op = VGPU_OP_TRAP, .guard = 0),
	/* 9 */ MOVI(VGPU_T_U32, 3, 1),
	/* 10 */ INSN(.op = VGPU_OP_ATOM, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
		      .mod2 = VGPU_ATOM_ADD, .dst = 4, .a = 0, .b = 3, .imm = 4),
	/* 11 */ LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, 4, 0, 4),
	/* 12 */ SETP(VGPU_T_U32, VGPU_CMP_LT, 0, 4, 2),
	/* 13 */ BRA_IF(0, 11),
	/* 14 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 5, 5, 2),
	/* 15 */ LDP(VGPU_T_U64, 6, 0),
	/* 16 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 6, 6, 5),
	/* 17 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 6, 0, 4),
	/* 18 */ EXIT(),
};

static const struct vgpu_func grid_barrier_func = {
	.nregs = 7, .npreds = 1, .param_bytes = 12,
};

/* The largest grid of one-thread blocks a cooperative launch may have. */
static __u32 max_coop_blocks(int fd)
{
	struct vgpu_info info = { 0 };

	if (ioctl(fd, VGPU_IOCTL_GET_INFO, &info))
		return 0;
	return info.sm_count * info.max_blocks_per_sm;
}

/*
 * A cooperative grid must be 8-aligned and fit the device at once, in
 * blocks and in threads; one at the limit is taken.
 */
TEST_F(launch, grid_sync_checked_at_submit)
{
	struct vgpu_info info = { 0 };
	struct { __u32 grid, block; __u64 ws; } cases[] = {
		{ 1, 1, 4 },
		{ 1, 1, 1 },
		{ 0, 1, 8 },	/* grid: sm_count * max_blocks_per_sm + 1 */
		{ 0, 1024, 8 },	/* grid: one block of 1024 past the threads */
	};
	size_t i;
	int handle = load(self->fd, endless, 2, &endless_func, NULL, 0, NULL);

	ASSERT_LT(0, handle);
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info));
	cases[2].grid = info.sm_count * info.max_blocks_per_sm + 1;
	cases[3].grid = info.sm_count * info.max_threads_per_sm / 1024 + 1;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cmd_launch(&self->c, handle, cases[i].grid, cases[i].block, 0, 0);
		self->c.ring[(self->c.put - 1) % RING].launch.grid_sync =
			self->dev + cases[i].ws;
		EXPECT_EQ(-1, submit(&self->c)) TH_LOG("case %zu", i);
		EXPECT_EQ(EINVAL, errno);
		self->c.put--;
	}
	/* At the limits: taken (and run, as the barrier test does). */
	handle = load(self->fd, grid_barrier, 19, &grid_barrier_func, NULL, 0,
		      NULL);
	ASSERT_LT(0, handle);
	((__u64 *)self->host)[0] = self->dev + 4096;
	((__u32 *)self->host)[2] = ~0U;
	cmd_memset(&self->c, self->dev, 0, 4, 2);
	cmd_launch(&self->c, handle, info.sm_count * info.max_blocks_per_sm, 1,
		   (uintptr_t)self->host, 12);
	self->c.ring[(self->c.put - 1) % RING].launch.grid_sync = self->dev;
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(0, wait_for(&self->c, 2));
}

/*
 * The blocks of a cooperative launch are resident together: at the
 * largest grid, many more blocks than SM workers all wait at a grid
 * barrier until the last arrives, and each sees every block counted.
 * The registers read the workspace's address; an ordinary launch's read
 * 0 (its blocks would find no barrier there).
 */
TEST_F(launch, grid_barrier_holds_every_block)
{
	static const struct vgpu_insn regs[] = {
		LDP(VGPU_T_U64, 0, 0),
		SREG(1, VGPU_SR_GRID_SYNC_HI),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 0, 1),
		SREG(1, VGPU_SR_GRID_SYNC_LO),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 4, 1),
		EXIT(),
	};
	struct vgpu_func rf = { .nregs = 2, .param_bytes = 8 };
	__u32 n = max_coop_blocks(self->fd), i, bad = 0;
	__u32 *out = (__u32 *)(self->host + 8192), *words = out + n;
	__u64 *params = (__u64 *)self->host, ws = self->dev + 8;
	int handle = load(self->fd, grid_barrier, 19, &grid_barrier_func, NULL,
			  0, NULL);
	int rh = load(self->fd, regs, 6, &rf, NULL, 0, NULL);

	ASSERT_LT(0, handle);
	ASSERT_LT(0, rh);
	ASSERT_LT(1, n);
	params[0] = self->dev + 4096;
	((__u32 *)params)[2] = ~0U;
	params[2] = self->dev + 64;
	cmd_memset(&self->c, ws, 0, 4, 2);
	cmd_launch(&self->c, handle, n, 1, (uintptr_t)params, 12);
	self->c.ring[(self->c.put - 1) % RING].launch.grid_sync = ws;
	cmd_copy(&self->c, (uintptr_t)out, self->dev + 4096, 4 * n, 1, 0, 0);
	cmd_launch(&self->c, rh, 1, 1, (uintptr_t)&params[2], 8);
	self->c.ring[(self->c.put - 1) % RING].launch.grid_sync = ws;
	cmd_launch(&self->c, rh, 1, 1, (uintptr_t)&params[2], 8);
	cmd_copy(&self->c, (uintptr_t)words, self->dev + 64, 8, 1, 0, 0);
	cmd_launch(&self->c, rh, 1, 1, (uintptr_t)&params[2], 8);
	self->c.ring[(self->c.put - 1) % RING].launch.grid_sync = ws;
	cmd_copy(&self->c, (uintptr_t)(words + 2), self->dev + 64, 8, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 8));
	for (i = 0; i < n; i++)
		bad += out[i] != n;
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, words[0]);
	EXPECT_EQ(0, words[1]);
	EXPECT_EQ((__u32)(ws >> 32), words[2]);
	EXPECT_EQ((__u32)ws, words[3]);
}

/*
 * A block of a gang that traps while the others wait at the barrier for
 * it ends the whole launch with its report, at once: the waiting blocks
 * are stopped and accounted for, and the channel fails.
 */
TEST_F(launch, fault_ends_a_waiting_gang)
{
	__u32 n = max_coop_blocks(self->fd);
	__u64 *params = (__u64 *)self->host;
	struct vgpu_chan_fault cf;
	__u64 t0;
	int handle = load(self->fd, grid_barrier, 19, &grid_barrier_func, NULL,
			  0, NULL);

	ASSERT_LT(0, handle);
	ASSERT_LT(2, n);
	params[0] = self->dev + 4096;
	((__u32 *)params)[2] = n - 2;	/* this block traps */
	cmd_memset(&self->c, self->dev, 0, 4, 2);
	cmd_launch(&self->c, handle, n, 1, (uintptr_t)params, 12);
	self->c.ring[(self->c.put - 1) % RING].launch.grid_sync = self->dev;
	t0 = now_ns();
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 2));
	EXPECT_EQ(EIO, errno);
	EXPECT_GT(5000000000ULL, now_ns() - t0);
	EXPECT_EQ(VGPU_CHAN_LAUNCH_FAULT, self->c.status->error);
	ASSERT_EQ(0, chan_fault(&self->c, &cf));
	EXPECT_EQ(VGPU_KFAULT_TRAP, cf.kind);
	EXPECT_EQ(n - 2, cf.block[0]);
	EXPECT_EQ(8, cf.insn);
}

/* A gang whose barrier never completes ends at the time budget. */
TEST_F(launch, watchdog_ends_a_waiting_gang)
{
	__u32 n = max_coop_blocks(self->fd);
	__u64 *params = (__u64 *)self->host;
	struct vgpu_chan_fault cf;
	int handle = load(self->fd, grid_barrier, 19, &grid_barrier_func, NULL,
			  0, NULL);

	ASSERT_LT(0, handle);
	params[0] = self->dev + 4096;
	((__u32 *)params)[2] = ~0U;
	/* One arrival short: the count starts at -1. */
	cmd_memset(&self->c, self->dev, ~0U, 4, 2);
	cmd_launch(&self->c, handle, n, 1, (uintptr_t)params, 12);
	self->c.ring[(self->c.put - 1) % RING].launch.grid_sync = self->dev;
	ASSERT_EQ(0, set_timeout_ms("300"));
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 2));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(0, set_timeout_ms("30000"));
	EXPECT_EQ(VGPU_CHAN_TIMEOUT, self->c.status->error);
	ASSERT_EQ(0, chan_fault(&self->c, &cf));
	EXPECT_EQ(VGPU_KFAULT_TIMEOUT, cf.kind);
}

/*
 * SIGKILL while an endless kernel runs: the process is gone at once and
 * its memory is back. @gang: a cooperative launch whose blocks all wait
 * at a grid barrier that never completes, or an ordinary endless one.
 */
static void kill_while_running(struct __test_metadata *_metadata, bool gang)
{
	struct vgpu_info info = { 0 };
	int fd = open(DEV, O_RDWR | O_CLOEXEC), status, sync[2];
	__u64 baseline, t0, t1;
	pid_t pid;
	char c;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_GET_INFO, &info));
	baseline = info.mem_free;
	ASSERT_EQ(0, pipe(sync));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct vgpu_mem_alloc a = { .size = MIB };
		void *st;
		int cfd = open_ctx(&st, 1ULL << 44), h;
		struct chan ch;

		if (cfd < 0 || ioctl(cfd, VGPU_IOCTL_MEM_ALLOC, &a) ||
		    chan_open(cfd, &ch, st))
			_exit(1);
		if (gang) {
			h = load(cfd, grid_barrier, 19, &grid_barrier_func,
				 NULL, 0, NULL);
			/* One arrival short; params at + 64, no block traps. */
			cmd_memset(&ch, a.va, ~0U, 4, 2);
			cmd_memset(&ch, a.va + 72, ~0U, 4, 1);
			cmd_launch(&ch, h, max_coop_blocks(cfd), 1, a.va + 64, 12);
			ch.ring[(ch.put - 1) % RING].launch.grid_sync = a.va;
		} else {
			h = load(cfd, endless, 2, &endless_func, NULL, 0, NULL);
			cmd_launch(&ch, h, 64, 256, 0, 0);
		}
		if (h <= 0 || submit(&ch) || write(sync[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(sync[1]);
	ASSERT_EQ(1, read(sync[0], &c, 1));
	usleep(100000);		/* the kernel is running */
	t0 = now_ns();
	ASSERT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	t1 = now_ns();
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_GT(1000000000ULL, t1 - t0);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_GET_INFO, &info));
	EXPECT_EQ(baseline, info.mem_free);
	close(sync[0]);
	close(fd);
}

TEST(kill_endless_kernel)
{
	kill_while_running(_metadata, false);
}

TEST(kill_waiting_gang)
{
	kill_while_running(_metadata, true);
}

/*
 * Another process's endless kernel holds every SM (it would until the
 * watchdog ends it, 30 s by default). A process whose launch waits behind
 * it is killed: it is gone at once, as release cancels launches that wait
 * without needing an SM, rather than sitting in D state until one frees.
 */
TEST(kill_launch_waiting_for_an_sm)
{
	struct vgpu_info info = { 0 };
	int sync[2], fd, h;
	struct chan ch;
	__u64 t0;
	pid_t pid;
	void *st;
	char c;

	fd = open_ctx(&st, 1ULL << 44);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_GET_INFO, &info));
	h = load(fd, endless, 2, &endless_func, NULL, 0, NULL);
	ASSERT_LT(0, h);
	ASSERT_EQ(0, chan_open(fd, &ch, st));
	cmd_launch(&ch, h, 2 * info.sm_count, 32, 0, 0);
	ch.ring[0].flags = VGPU_LAUNCH_PRIORITY_MAX;
	ASSERT_EQ(0, submit(&ch));
	usleep(200000);		/* every SM runs one of its blocks */
	ASSERT_EQ(0, pipe(sync));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		int cfd = open_ctx(&st, (1ULL << 44) + (1ULL << 40)), wh;
		struct chan wc;

		wh = cfd < 0 ? -1 : load(cfd, endless, 2, &endless_func,
					 NULL, 0, NULL);
		if (wh <= 0 || chan_open(cfd, &wc, st))
			_exit(1);
		cmd_launch(&wc, wh, 1, 1, 0, 0);
		if (submit(&wc) || write(sync[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(sync[1]);
	ASSERT_EQ(1, read(sync[0], &c, 1));
	usleep(200000);		/* its launch is active, waiting for an SM */
	EXPECT_EQ(0, ch.status->completed);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	EXPECT_TRUE(reaped_within(pid, 3000));
	/* The holder's own release: its blocks stop at their next slice. */
	t0 = now_ns();
	close(fd);
	EXPECT_GT(2000000000ULL, now_ns() - t0);
	waitpid(pid, NULL, 0);
	close(sync[0]);
	free(ch.ring);
}

/*
 * Priorities rank a context's own launches, not one process's against
 * another's: a context that keeps a launch of the highest priority with
 * a million blocks active does not hold back another context's launch of
 * the lowest, which ends long before the first, as a GPU time-slices
 * between processes. Closing the first context then ends its launch at
 * once, its blocks not yet handed out written off.
 */
TEST(priority_does_not_starve_another_context)
{
	static const struct vgpu_insn spin[] = {
		/* 0 */ MOVI(VGPU_T_U32, 0, 2000),
		/* 1 */ OPI(VGPU_OP_SUB, VGPU_T_U32, 0, 0, 1),
		/* 2 */ SETPI(VGPU_T_U32, VGPU_CMP_NE, 0, 0, 0),
		/* 3 */ BRA_IF(0, 1),
		/* 4 */ EXIT(),
	};
	static const struct vgpu_func spin_func = { .nregs = 1, .npreds = 1 };
	static void *st_hi, *st_lo;	/* static: the harness longjmps */
	int hi = open_ctx(&st_hi, 1ULL << 44);
	int lo = open_ctx(&st_lo, (1ULL << 44) + (1ULL << 40));
	struct chan c_hi, c_lo;
	int h_hi, h_lo;
	__u64 t0;

	ASSERT_LE(0, hi);
	ASSERT_LE(0, lo);
	h_hi = load(hi, spin, 5, &spin_func, NULL, 0, NULL);
	h_lo = load(lo, spin, 5, &spin_func, NULL, 0, NULL);
	ASSERT_LT(0, h_hi);
	ASSERT_LT(0, h_lo);
	ASSERT_EQ(0, chan_open(hi, &c_hi, st_hi));
	ASSERT_EQ(0, chan_open(lo, &c_lo, st_lo));
	cmd_launch(&c_hi, h_hi, 1U << 20, 1, 0, 0);
	c_hi.ring[0].flags = VGPU_LAUNCH_PRIORITY_MAX;
	ASSERT_EQ(0, submit(&c_hi));
	usleep(100000);		/* its blocks fill the SMs */
	cmd_launch(&c_lo, h_lo, 1, 1, 0, 0);
	ASSERT_EQ(0, submit(&c_lo));
	EXPECT_EQ(0, wait_for(&c_lo, 1));
	EXPECT_EQ(1, c_lo.status->completed);
	EXPECT_EQ(0, c_hi.status->completed);
	t0 = now_ns();
	close(hi);
	EXPECT_GT(2000000000ULL, now_ns() - t0);
	close(lo);
	free(c_hi.ring);
	free(c_lo.ring);
}

/*
 * Another process's device address is not this context's: a kernel that
 * reads it faults (the two windows are apart, so the address is unmapped
 * here rather than some allocation of our own).
 */
TEST(contexts_are_isolated)
{
	static const struct vgpu_insn p[] = {
		LDP(VGPU_T_U64, 0, 0),
		LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, 1, 0, 0),
		LDP(VGPU_T_U64, 0, 8),
		ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 0, 1),
		EXIT(),
	};
	struct vgpu_func f = { .nregs = 2, .param_bytes = 16 };
	struct vgpu_mem_alloc mine = { .size = 4096 };
	struct vgpu_host_register r = { .size = 4096 };
	struct vgpu_chan_fault cf;
	__u64 secret_va, *params;
	int sync[2], back[2], fd, handle;
	struct chan ch;
	void *st;
	pid_t pid;

	ASSERT_EQ(0, pipe(sync));
	ASSERT_EQ(0, pipe(back));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct vgpu_mem_alloc a = { .size = 4096 };
		int cfd = open_ctx(&st, (1ULL << 44) + (1ULL << 40));
		char done;

		if (cfd < 0 || ioctl(cfd, VGPU_IOCTL_MEM_ALLOC, &a) ||
		    write(sync[1], &a.va, 8) != 8 || read(back[0], &done, 1) != 1)
			_exit(1);
		_exit(0);
	}
	ASSERT_EQ(8, read(sync[0], &secret_va, 8));
	fd = open_ctx(&st, 1ULL << 44);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &mine));
	params = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	r.addr = (uintptr_t)params;
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_HOST_REGISTER, &r));
	params[0] = secret_va;
	params[1] = mine.va;
	handle = load(fd, p, 5, &f, NULL, 0, NULL);
	ASSERT_LT(0, handle);
	ASSERT_EQ(0, chan_open(fd, &ch, st));
	cmd_launch(&ch, handle, 1, 1, (uintptr_t)params, 16);
	ASSERT_EQ(0, submit(&ch));
	EXPECT_EQ(-1, wait_for(&ch, 1));
	ASSERT_EQ(0, chan_fault(&ch, &cf));
	EXPECT_EQ(VGPU_KFAULT_ADDRESS, cf.kind);
	EXPECT_EQ(secret_va, cf.addr);
	ASSERT_EQ(1, write(back[1], "x", 1));
	waitpid(pid, NULL, 0);
	close(fd);
	free(ch.ring);
}

TEST_HARNESS_MAIN
