// SPDX-License-Identifier: GPL-2.0
/*
 * The ISA's reserved generic addresses (the windows of shared and local
 * memory, uapi/vgpu_isa.h) against host memory: host ranges and VA
 * windows that reach them are refused, and under 5-level paging the
 * addresses where the windows were before ABI version 3 (2^48 and 2^49,
 * which a process can map there) are host memory to the copy engines and
 * to kernels' generic accesses alike, while the windows still lead to
 * shared and local memory. Without 5-level paging (a CPU without la57:
 * tools/vm/run --paging 5 asks QEMU for it) that test is skipped.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"
#include "tests/isa_build.h"
#include "vgpu_chan_util.h"

/* Where ABI version 2 put the shared and local windows. */
#define OLD_SHARED 0x0001000000000000ULL
#define OLD_LOCAL 0x0002000000000000ULL
/* The host allocation's mapping, beside the first. */
#define OLD_SHARED_ALLOC (OLD_SHARED + 0x10000)
#define PAGE 4096

/*
 * Host ranges in or across the reserved range are no user memory: refused
 * as such (-EFAULT), read only or not. (x86-64 and arm64 never map user
 * memory there; the module refuses it wherever an architecture does.)
 */
TEST(host_register_refuses_reserved)
{
	static const struct {
		__u64 addr, size;
	} cases[] = {
		{ VGPU_SHARED_WINDOW, PAGE },
		{ VGPU_LOCAL_WINDOW + 16 * PAGE, PAGE },
		{ VGPU_RESERVED_BASE - PAGE, 2 * PAGE },	/* straddles */
		{ ~0ULL - PAGE + 1, PAGE },
	};
	void *status;
	unsigned int i;
	int fd = open_ctx(&status, 1ULL << 44);

	ASSERT_LE(0, fd);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct vgpu_host_register r = {
			.addr = cases[i].addr, .size = cases[i].size,
		};

		errno = 0;
		EXPECT_EQ(-1, ioctl(fd, VGPU_IOCTL_HOST_REGISTER, &r))
			TH_LOG("case %u", i);
		EXPECT_EQ(EFAULT, errno) TH_LOG("case %u", i);
		r.flags = VGPU_HOST_READ_ONLY;
		errno = 0;
		EXPECT_EQ(-1, ioctl(fd, VGPU_IOCTL_HOST_REGISTER, &r))
			TH_LOG("case %u, read only", i);
		EXPECT_EQ(EFAULT, errno) TH_LOG("case %u, read only", i);
	}
	munmap(status, PAGE);
	close(fd);
}

/* The device VA window stays below the reserved range too. */
TEST(va_window_refuses_reserved)
{
	static const __u64 bases[] = {
		VGPU_SHARED_WINDOW, VGPU_LOCAL_WINDOW,
		VGPU_RESERVED_BASE - VGPU_VA_ALIGN,
	};
	unsigned int i;
	int fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, fd);
	for (i = 0; i < sizeof(bases) / sizeof(bases[0]); i++) {
		struct vgpu_va_window w = {
			.base = bases[i], .size = VGPU_VA_ALIGN,
		};

		errno = 0;
		EXPECT_EQ(-1, ioctl(fd, VGPU_IOCTL_SET_VA_WINDOW, &w))
			TH_LOG("base %#llx", (unsigned long long)bases[i]);
		EXPECT_EQ(EINVAL, errno);
	}
	close(fd);
}

/*
 * Thread t of one block of 32, params: out (device), the pages at
 * OLD_SHARED and OLD_LOCAL (registered), a (device). Through the windows
 * it writes shared[t] = t + 100 and its local word = t + 200; then it
 * reads, with generic loads, the host pages at the old windows' addresses
 * (what the host wrote, what the copy engine wrote), writes one of them
 * with a generic store, and reads its shared and local words back
 * through their own spaces, and a[t], which the copy engine filled from
 * the page at OLD_SHARED:
 *   out[t]       = OLD_SHARED word t		(host: 0x5000 + t)
 *   out[32 + t]  = OLD_SHARED word 64 + t	(copy engine: 0x7777)
 *   out[64 + t]  = OLD_LOCAL word t		(host: 0x6000 + t)
 *   out[96 + t]  = shared[t]			(t + 100)
 *   out[128 + t] = local word			(t + 200)
 *   out[160 + t] = a[t]			(0x5000 + t)
 *   OLD_SHARED word 32 + t = t + 300
 */
static const struct vgpu_insn apart[] = {
	/* 0 */ SREG(0, VGPU_SR_TID_X),
	/* 1 */ INSN(.op = VGPU_OP_CVT, .type = VGPU_T_U64, .stype = VGPU_T_U32, .dst = 1, .a = 0),
	/* 2 */ OPI(VGPU_OP_SHL, VGPU_T_U64, 1, 1, 2),
	/* 3 */ OPI(VGPU_OP_ADD, VGPU_T_U64, 2, 1, VGPU_SHARED_WINDOW),
	/* 4 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 0, 100),
	/* 5 */ ST(VGPU_SPACE_GENERIC, VGPU_T_U32, 2, 0, 3),
	/* 6 */ MOVI(VGPU_T_U64, 2, VGPU_LOCAL_WINDOW),
	/* 7 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 0, 200),
	/* 8 */ ST(VGPU_SPACE_GENERIC, VGPU_T_U32, 2, 0, 3),
	/* 9 */ BAR(),
	/* 10 */ LDP(VGPU_T_U64, 4, 8),
	/* 11 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 4, 4, 1),
	/* 12 */ LDP(VGPU_T_U64, 5, 0),
	/* 13 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 5, 5, 1),
	/* 14 */ LD(VGPU_SPACE_GENERIC, VGPU_T_U32, 3, 4, 0),
	/* 15 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 5, 0, 3),
	/* 16 */ LD(VGPU_SPACE_GENERIC, VGPU_T_U32, 3, 4, 256),
	/* 17 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 5, 128, 3),
	/* 18 */ OPI(VGPU_OP_ADD, VGPU_T_U32, 3, 0, 300),
	/* 19 */ ST(VGPU_SPACE_GENERIC, VGPU_T_U32, 4, 128, 3),
	/* 20 */ LDP(VGPU_T_U64, 4, 16),
	/* 21 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 4, 4, 1),
	/* 22 */ LD(VGPU_SPACE_GENERIC, VGPU_T_U32, 3, 4, 0),
	/* 23 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 5, 256, 3),
	/* 24 */ LD(VGPU_SPACE_SHARED, VGPU_T_U32, 3, 1, 0),
	/* 25 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 5, 384, 3),
	/* 26 */ LD(VGPU_SPACE_LOCAL, VGPU_T_U32, 3, 2, 0 - VGPU_LOCAL_WINDOW),	/* local[0] */
	/* 27 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 5, 512, 3),
	/* 28 */ LDP(VGPU_T_U64, 4, 24),
	/* 29 */ OP3(VGPU_OP_ADD, VGPU_T_U64, 4, 4, 1),
	/* 30 */ LD(VGPU_SPACE_GLOBAL, VGPU_T_U32, 3, 4, 0),
	/* 31 */ ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 5, 640, 3),
	/* 32 */ EXIT(),
};

static const struct vgpu_func apart_func = {
	.nregs = 6, .param_bytes = 32, .shared_bytes = 128, .local_bytes = 8,
};

/* A page at @addr exactly, or NULL (no 5-level paging: out of reach). */
static __u32 *map_at(__u64 addr, int fd, __u64 offset)
{
	void *p = mmap((void *)(uintptr_t)addr, PAGE, PROT_READ | PROT_WRITE,
		       (fd < 0 ? MAP_PRIVATE | MAP_ANONYMOUS : MAP_SHARED) |
		       MAP_FIXED_NOREPLACE, fd, (off_t)offset);

	return p == MAP_FAILED ? NULL : p;
}

TEST(old_windows_are_host_memory)
{
	struct vgpu_mem_alloc dev = { .size = 1 * MIB };
	struct vgpu_host_alloc ha = { .size = PAGE };
	struct vgpu_host_register r = { .size = PAGE };
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)apart, .funcs = (uintptr_t)&apart_func,
		.ninsns = sizeof(apart) / sizeof(apart[0]), .nfuncs = 1,
	};
	__u32 *os, *ol, *res;
	__u64 *params, out, a, b;
	struct vgpu_cmd *cmd;
	struct chan c;
	void *status;
	int fd, t, bad[7] = { 0 };

	os = map_at(OLD_SHARED, -1, 0);
	if (!os)
		SKIP(return, "no 5-level paging here (%s): %#llx cannot be mapped",
		     strerror(errno), OLD_SHARED);
	ol = map_at(OLD_LOCAL, -1, 0);
	ASSERT_NE(NULL, ol);
	params = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, params);

	fd = open_ctx(&status, 1ULL << 44);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &dev));
	out = dev.va;
	a = out + 4096;
	b = out + 8192;
	r.addr = OLD_SHARED;
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_HOST_REGISTER, &r));
	r.addr = OLD_LOCAL;
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_HOST_REGISTER, &r));
	r.addr = (uintptr_t)params;
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_HOST_REGISTER, &r));
	/* Memory of the module's, mapped beside the old shared window. */
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_HOST_ALLOC, &ha));
	res = map_at(OLD_SHARED_ALLOC, fd, ha.offset);
	ASSERT_NE(NULL, res);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_MODULE_LOAD, &ml));
	ASSERT_EQ(0, chan_open(fd, &c, status));

	for (t = 0; t < 32; t++) {
		os[t] = 0x5000 + t;
		ol[t] = 0x6000 + t;
	}
	params[0] = out;
	params[1] = OLD_SHARED;
	params[2] = OLD_LOCAL;
	params[3] = a;
	/* The copy engines write and read the page at OLD_SHARED. */
	cmd_memset(&c, b, 0x7777, 4, 32);
	cmd_copy(&c, OLD_SHARED + 256, b, 128, 1, 0, 0);
	cmd_copy(&c, a, OLD_SHARED, 128, 1, 0, 0);
	cmd = slot(&c);
	cmd->op = VGPU_CMD_LAUNCH;
	cmd->launch.module = ml.handle;
	cmd->launch.grid[0] = cmd->launch.grid[1] = cmd->launch.grid[2] = 1;
	cmd->launch.block[0] = 32;
	cmd->launch.block[1] = cmd->launch.block[2] = 1;
	cmd->launch.params = (uintptr_t)params;
	cmd->launch.param_bytes = 32;
	/* The results land in the module's page beside the old window. */
	cmd_copy(&c, OLD_SHARED_ALLOC, out, 6 * 128, 1, 0, 0);
	ASSERT_EQ(0, submit(&c));
	ASSERT_EQ(0, wait_for(&c, c.put));
	EXPECT_EQ(VGPU_CHAN_OK, c.status->error);

	for (t = 0; t < 32; t++) {
		bad[0] += res[t] != 0x5000u + t;
		bad[1] += res[32 + t] != 0x7777u;
		bad[2] += res[64 + t] != 0x6000u + t;
		bad[3] += res[96 + t] != 100u + t;
		bad[4] += res[128 + t] != 200u + t;
		bad[5] += res[160 + t] != 0x5000u + t;
		bad[6] += os[32 + t] != 300u + t;
	}
	EXPECT_EQ(0, bad[0]) TH_LOG("generic loads at %#llx: lane 0 read %#x",
				    OLD_SHARED, res[0]);
	EXPECT_EQ(0, bad[1]) TH_LOG("the copy engine's write, read generic: %#x",
				    res[32]);
	EXPECT_EQ(0, bad[2]) TH_LOG("generic loads at %#llx: lane 0 read %#x",
				    OLD_LOCAL, res[64]);
	EXPECT_EQ(0, bad[3]) TH_LOG("shared memory: lane 0 read %u", res[96]);
	EXPECT_EQ(0, bad[4]) TH_LOG("local memory: lane 0 read %u", res[128]);
	EXPECT_EQ(0, bad[5]) TH_LOG("the copy engine's read: %#x", res[160]);
	EXPECT_EQ(0, bad[6]) TH_LOG("generic stores at %#llx: word 32 is %#x",
				    OLD_SHARED, os[32]);

	free(c.ring);
	munmap(res, PAGE);
	munmap(status, PAGE);
	close(fd);
	munmap(params, PAGE);
	munmap(ol, PAGE);
	munmap(os, PAGE);
}

TEST_HARNESS_MAIN
