// SPDX-License-Identifier: GPL-2.0
/*
 * The device heap: VGPU_IOCTL_HEAP_CREATE's rules (each bad input with
 * its errno, once per context, hidden from MEM_QUERY and MEM_FREE,
 * charged as device memory until the context closes), and kernels'
 * VGPU_OP_MALLOC and VGPU_OP_FREE over it: blocks inside the heap,
 * 16-aligned and distinct, that outlive their launch; NULL without a
 * heap or room; a double free trapping and a free of an unmapped address
 * faulting. Needs vgpu.ko loaded (run inside the VM).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"
#include "tests/isa_build.h"
#include "vgpu_chan_util.h"

#define WIN_BASE (1ULL << 44)
#define THREADS 64

static int heap_create(int fd, __u64 size, __u64 *va)
{
	struct vgpu_heap_create hc = { .size = size };
	int ret = ioctl(fd, VGPU_IOCTL_HEAP_CREATE, &hc);

	if (va)
		*va = hc.va;
	return ret;
}

static __u64 mem_free_bytes(int fd)
{
	struct vgpu_info info = { 0 };

	if (ioctl(fd, VGPU_IOCTL_GET_INFO, &info))
		return 0;
	return info.mem_free;
}

static int load(int fd, const struct vgpu_insn *insns, __u32 n,
		const struct vgpu_func *f)
{
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)insns, .funcs = (uintptr_t)f,
		.ninsns = n, .nfuncs = 1,
	};
	int ret = ioctl(fd, VGPU_IOCTL_MODULE_LOAD, &ml);

	return ret ? ret : (int)ml.handle;
}

static void cmd_launch(struct chan *c, __u32 module, __u32 block,
		       __u64 params, __u32 param_bytes)
{
	struct vgpu_cmd *cmd = slot(c);

	cmd->op = VGPU_CMD_LAUNCH;
	cmd->launch.module = module;
	cmd->launch.grid[0] = 1;
	cmd->launch.grid[1] = 1;
	cmd->launch.grid[2] = 1;
	cmd->launch.block[0] = block;
	cmd->launch.block[1] = 1;
	cmd->launch.block[2] = 1;
	cmd->launch.params = params;
	cmd->launch.param_bytes = param_bytes;
}

/*
 * Params: out, size. Each thread: p = malloc(size); out[tid] = p; where
 * p is not NULL, *p = tid (u32).
 */
static const struct vgpu_insn take[] = {
	/* 0 */ SREG(0, VGPU_SR_TID_X),
	/* 1 */ LDP(VGPU_T_U64, 1, 8),
	/* 2 */ INSN(.op = VGPU_OP_MALLOC, .type = VGPU_T_U64, .dst = 2, .a = 1),
	/* 3 */ LDP(VGPU_T_U64, 1, 0),
	/* 4 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 3, 0, 3),
	/* 5 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 1, 1, 3),
	/* 6 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U64, 1, 0, 2),
	/* 7 */ SETPI(VGPU_T_U64, VGPU_CMP_EQ, 0, 2, 0),
	/* 8 */ INSN(.op = VGPU_OP_EXIT, .guard = 0),
	/* 9 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 2, 0, 0),
	/* 10 */ EXIT(),
};

static const struct vgpu_func take_func = { .nregs = 4, .npreds = 1, .param_bytes = 16 };

/* Params: in, out. Each thread: p = in[tid]; out[tid] = *p (u32); free(p). */
static const struct vgpu_insn give[] = {
	/* 0 */ SREG(0, VGPU_SR_TID_X),
	/* 1 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 1, 0, 3),
	/* 2 */ LDP(VGPU_T_U64, 2, 0),
	/* 3 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 2, 2, 1),
	/* 4 */ LD(VGPU_SPACE_GLOBAL, VGPU_T_U64, 2, 2, 0),
	/* 5 */ LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, 3, 2, 0),
	/* 6 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 1, 0, 2),
	/* 7 */ LDP(VGPU_T_U64, 0, 8),
	/* 8 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 0, 0, 1),
	/* 9 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 0, 3),
	/* 10 */ INSN(.op = VGPU_OP_FREE, .type = VGPU_T_U64, .a = 2),
	/* 11 */ EXIT(),
};

static const struct vgpu_func give_func = { .nregs = 4, .param_bytes = 16 };

/* Param: p. free(p). */
static const struct vgpu_insn drop[] = {
	LDP(VGPU_T_U64, 0, 0),
	INSN(.op = VGPU_OP_FREE, .type = VGPU_T_U64, .a = 0),
	EXIT(),
};

static const struct vgpu_func drop_func = { .nregs = 1, .param_bytes = 8 };

FIXTURE(heap) {
	int fd;
	void *status;
	struct chan c;
	__u64 *host;	/* 64 KiB, registered: params and results */
	int take, give, drop;
};

FIXTURE_SETUP(heap)
{
	struct vgpu_host_register r = { .size = 65536 };

	self->fd = open_ctx(&self->status, WIN_BASE);
	ASSERT_LE(0, self->fd);
	self->host = mmap(NULL, 65536, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->host);
	r.addr = (uintptr_t)self->host;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	ASSERT_EQ(0, chan_open(self->fd, &self->c, self->status));
	self->take = load(self->fd, take, sizeof(take) / sizeof(take[0]), &take_func);
	ASSERT_LT(0, self->take);
	self->give = load(self->fd, give, sizeof(give) / sizeof(give[0]), &give_func);
	ASSERT_LT(0, self->give);
	self->drop = load(self->fd, drop, sizeof(drop) / sizeof(drop[0]), &drop_func);
	ASSERT_LT(0, self->drop);
}

FIXTURE_TEARDOWN(heap)
{
	munmap(self->status, getpagesize());
	close(self->fd);
	munmap(self->host, 65536);
	free(self->c.ring);
}

/* Runs take over THREADS threads: host[256 + i] = thread i's block. */
static int run_take(struct _test_data_heap *self, __u64 size, __u64 seqno)
{
	self->host[0] = (uintptr_t)&self->host[256];
	self->host[1] = size;
	cmd_launch(&self->c, self->take, THREADS, (uintptr_t)self->host, 16);
	if (submit(&self->c))
		return -1;
	return wait_for(&self->c, seqno);
}

TEST(create_rules)
{
	struct vgpu_heap_create hc = { .size = 1 << 20 };
	struct vgpu_mem_query q = { 0 };
	struct vgpu_mem_free f = { 0 };
	struct vgpu_info info = { 0 };
	void *status;
	__u64 va, before, after;
	int fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, fd);
	/* No window yet. */
	EXPECT_EQ(-1, heap_create(fd, 1 << 20, NULL));
	EXPECT_EQ(EINVAL, errno);
	close(fd);

	fd = open_ctx(&status, WIN_BASE);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_GET_INFO, &info));
	hc.flags = 1;
	EXPECT_EQ(-1, ioctl(fd, VGPU_IOCTL_HEAP_CREATE, &hc));
	EXPECT_EQ(EINVAL, errno);
	hc.flags = 0;
	hc.pad = 1;
	EXPECT_EQ(-1, ioctl(fd, VGPU_IOCTL_HEAP_CREATE, &hc));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, heap_create(fd, 0, NULL));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, heap_create(fd, (4 << 20) + 8, NULL));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, heap_create(fd, info.mem_size + 16, NULL));
	EXPECT_EQ(ENOMEM, errno);
	/* Rounding that would overflow is refused before it happens. */
	EXPECT_EQ(-1, heap_create(fd, ~15ULL, NULL));
	EXPECT_EQ(ENOMEM, errno);

	before = mem_free_bytes(fd);
	ASSERT_EQ(0, heap_create(fd, 4 << 20, &va));
	after = mem_free_bytes(fd);
	EXPECT_EQ(0, va % VGPU_VA_ALIGN);
	EXPECT_LE(WIN_BASE, va);
	EXPECT_EQ(4 << 20, before - after);
	/* Once per context. */
	EXPECT_EQ(-1, heap_create(fd, 4 << 20, NULL));
	EXPECT_EQ(EBUSY, errno);
	/* No allocation of user space's. */
	q.va = va + 64;
	EXPECT_EQ(-1, ioctl(fd, VGPU_IOCTL_MEM_QUERY, &q));
	EXPECT_EQ(ENOENT, errno);
	f.va = va;
	EXPECT_EQ(-1, ioctl(fd, VGPU_IOCTL_MEM_FREE, &f));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(after, mem_free_bytes(fd));
	/* The context's end gives it back. */
	munmap(status, getpagesize());
	close(fd);
	fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(before, mem_free_bytes(fd));
	close(fd);
}

TEST_F(heap, blocks_are_distinct_and_outlive_their_launch)
{
	__u64 va, *blocks = &self->host[256];
	__u32 *vals = (__u32 *)&self->host[1024];
	unsigned int i, j;

	ASSERT_EQ(0, heap_create(self->fd, 1 << 20, &va));
	ASSERT_EQ(0, run_take(self, 24, 1));
	for (i = 0; i < THREADS; i++) {
		EXPECT_LE(va, blocks[i]);
		EXPECT_GT(va + (1 << 20), blocks[i] + 24);
		EXPECT_EQ(0, blocks[i] % 16);
		for (j = 0; j < i; j++)
			EXPECT_LE(32, blocks[i] > blocks[j] ? blocks[i] - blocks[j] :
				  blocks[j] - blocks[i]);
	}
	/* A later launch reads them and frees them. */
	self->host[0] = (uintptr_t)blocks;
	self->host[1] = (uintptr_t)vals;
	cmd_launch(&self->c, self->give, THREADS, (uintptr_t)self->host, 16);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 2));
	for (i = 0; i < THREADS; i++)
		EXPECT_EQ(i, vals[i]);
	/* Freed: the same requests fit again, many times over. */
	for (i = 0; i < 50; i++) {
		ASSERT_EQ(0, run_take(self, 16000, 3 + 2 * i));
		for (j = 0; j < THREADS; j++)
			ASSERT_NE(0, blocks[j]);
		self->host[0] = (uintptr_t)blocks;
		self->host[1] = (uintptr_t)vals;
		cmd_launch(&self->c, self->give, THREADS, (uintptr_t)self->host, 16);
		ASSERT_EQ(0, submit(&self->c));
		ASSERT_EQ(0, wait_for(&self->c, 4 + 2 * i));
	}
}

TEST_F(heap, no_heap_or_no_room_gives_null)
{
	__u64 *blocks = &self->host[256];
	unsigned int i, got = 0;

	blocks[0] = 1;
	ASSERT_EQ(0, run_take(self, 16, 1));
	for (i = 0; i < THREADS; i++)
		EXPECT_EQ(0, blocks[i]);
	ASSERT_EQ(0, heap_create(self->fd, 1 << 20, NULL));
	ASSERT_EQ(0, run_take(self, (1 << 20) + 1, 2));
	for (i = 0; i < THREADS; i++)
		EXPECT_EQ(0, blocks[i]);
	ASSERT_EQ(0, run_take(self, ~0ULL, 3));
	EXPECT_EQ(0, blocks[0]);
	/* 64 threads ask for 32 KiB each of 1 MiB: 32 get it. */
	ASSERT_EQ(0, run_take(self, 32768, 4));
	for (i = 0; i < THREADS; i++)
		got += blocks[i] != 0;
	EXPECT_EQ(32, got);
}

TEST_F(heap, free_of_null_and_of_other_memory_is_ignored)
{
	ASSERT_EQ(0, heap_create(self->fd, 1 << 20, NULL));
	self->host[0] = 0;
	cmd_launch(&self->c, self->drop, 32, (uintptr_t)self->host, 8);
	self->host[8] = (uintptr_t)&self->host[16];
	cmd_launch(&self->c, self->drop, 1, (uintptr_t)&self->host[8], 8);
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(0, wait_for(&self->c, 2));
	EXPECT_EQ(0, self->c.status->error);
}

TEST_F(heap, double_free_traps)
{
	struct vgpu_chan_fault cf = { .handle = self->c.handle };
	__u64 *blocks = &self->host[256];

	ASSERT_EQ(0, heap_create(self->fd, 1 << 20, NULL));
	ASSERT_EQ(0, run_take(self, 64, 1));
	self->host[8] = blocks[5];
	cmd_launch(&self->c, self->drop, 1, (uintptr_t)&self->host[8], 8);
	cmd_launch(&self->c, self->drop, 1, (uintptr_t)&self->host[8], 8);
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 3));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(3, self->c.status->error_seqno);
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_CHAN_FAULT, &cf));
	EXPECT_EQ(VGPU_KFAULT_TRAP, cf.kind);
	EXPECT_EQ(1, cf.insn);
}

TEST_F(heap, free_inside_a_block_traps)
{
	struct vgpu_chan_fault cf = { .handle = self->c.handle };
	__u64 *blocks = &self->host[256];

	ASSERT_EQ(0, heap_create(self->fd, 1 << 20, NULL));
	ASSERT_EQ(0, run_take(self, 64, 1));
	self->host[8] = blocks[0] + 16;
	cmd_launch(&self->c, self->drop, 1, (uintptr_t)&self->host[8], 8);
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 2));
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_CHAN_FAULT, &cf));
	EXPECT_EQ(VGPU_KFAULT_TRAP, cf.kind);
}

TEST_F(heap, free_of_unmapped_address_faults)
{
	struct vgpu_chan_fault cf = { .handle = self->c.handle };

	self->host[8] = 0x1234;
	cmd_launch(&self->c, self->drop, 1, (uintptr_t)&self->host[8], 8);
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_CHAN_FAULT, &cf));
	EXPECT_EQ(VGPU_KFAULT_ADDRESS, cf.kind);
	EXPECT_EQ(0x1234, cf.addr);
}

TEST_HARNESS_MAIN
