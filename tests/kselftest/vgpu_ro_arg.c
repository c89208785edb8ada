// SPDX-License-Identifier: GPL-2.0
/*
 * Creating ioctls whose argument cannot be written back: each one given
 * its (valid) argument in a read-only page fails with EFAULT and leaves
 * nothing behind, since the caller never learns the handle: device
 * memory back to what it was, every channel slot still free, module,
 * host allocation and heap as if never made. Needs vgpu.ko loaded (run
 * inside the VM).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"
#include "tests/isa_build.h"
#include "vgpu_chan_util.h"

#define DEV "/dev/vgpu0"
#define TRIES 16		/* failed creations per test */

static const struct vgpu_insn nop[] = { EXIT() };
static const struct vgpu_func nop_func = { .nregs = 1 };

static __u64 mem_free_bytes(int fd)
{
	struct vgpu_info info = { 0 };

	if (ioctl(fd, VGPU_IOCTL_GET_INFO, &info))
		return 0;
	return info.mem_free;
}

FIXTURE(ro) {
	int fd;
	long page;
	void *arg;		/* one page, read-only once filled */
	void *ring;
};

FIXTURE_SETUP(ro)
{
	struct vgpu_va_window w = { .base = 1ULL << 44, .size = 1ULL << 32 };

	self->page = sysconf(_SC_PAGESIZE);
	self->fd = open(DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_SET_VA_WINDOW, &w));
	self->arg = mmap(NULL, self->page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->arg);
	self->ring = aligned_alloc(64, RING * sizeof(struct vgpu_cmd));
	ASSERT_NE(NULL, self->ring);
}

FIXTURE_TEARDOWN(ro)
{
	munmap(self->arg, self->page);
	free(self->ring);
	close(self->fd);
}

/*
 * Issues @cmd TRIES times with a copy of @arg in a read-only page and
 * expects EFAULT each time.
 */
static void ro_ioctl(struct __test_metadata *_metadata, FIXTURE_DATA(ro) *self,
		     unsigned long cmd, const void *arg, size_t size)
{
	int i;

	ASSERT_EQ(0, mprotect(self->arg, self->page, PROT_READ | PROT_WRITE));
	memcpy(self->arg, arg, size);
	ASSERT_EQ(0, mprotect(self->arg, self->page, PROT_READ));
	for (i = 0; i < TRIES; i++) {
		EXPECT_EQ(-1, ioctl(self->fd, cmd, self->arg));
		EXPECT_EQ(EFAULT, errno);
	}
}

TEST_F(ro, mem_alloc_leaves_no_memory)
{
	struct vgpu_mem_alloc a = { .size = 4 * MIB };
	struct vgpu_mem_alloc small = { .size = 256 };
	__u64 before = mem_free_bytes(self->fd);

	ASSERT_NE(0, before);
	ro_ioctl(_metadata, self, VGPU_IOCTL_MEM_ALLOC, &a, sizeof(a));
	EXPECT_EQ(before, mem_free_bytes(self->fd));
	/* A shared chunk, emptied again, goes too. */
	ro_ioctl(_metadata, self, VGPU_IOCTL_MEM_ALLOC, &small, sizeof(small));
	EXPECT_EQ(before, mem_free_bytes(self->fd));
	/* The window's first place is free again. */
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_ALLOC, &a));
	EXPECT_EQ(1ULL << 44, a.va);
}

TEST_F(ro, chan_create_leaves_every_slot_free)
{
	struct vgpu_chan_create cc = {
		.ring = (uintptr_t)self->ring, .ring_size = RING,
	};
	int i;

	ro_ioctl(_metadata, self, VGPU_IOCTL_CHAN_CREATE, &cc, sizeof(cc));
	for (i = 0; i < VGPU_MAX_CHANNELS; i++) {
		cc.handle = ~0U;
		ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_CHAN_CREATE, &cc))
			TH_LOG("channel %d: %s", i, strerror(errno));
		EXPECT_EQ(i, cc.handle);
	}
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_CHAN_CREATE, &cc));
	EXPECT_EQ(EMFILE, errno);
}

TEST_F(ro, host_alloc_leaves_no_allocation)
{
	struct vgpu_host_alloc ha = { .size = self->page };
	void *p;

	ro_ioctl(_metadata, self, VGPU_IOCTL_HOST_ALLOC, &ha, sizeof(ha));
	/* Nothing waits to be mapped at the offsets the failures took. */
	p = mmap(NULL, self->page, PROT_READ, MAP_SHARED, self->fd, 1ULL << 32);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(ENOENT, errno);
	/* The first id is free again. */
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &ha));
	EXPECT_EQ(1ULL << 32, ha.offset);
}

TEST_F(ro, module_load_leaves_no_module)
{
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)nop, .funcs = (uintptr_t)&nop_func,
		.ninsns = 1, .nfuncs = 1,
	};
	struct vgpu_module_unload mu = { .handle = 1 };

	ro_ioctl(_metadata, self, VGPU_IOCTL_MODULE_LOAD, &ml, sizeof(ml));
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MODULE_UNLOAD, &mu));
	EXPECT_EQ(ENOENT, errno);
	/* The first handle is free again. */
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MODULE_LOAD, &ml));
	EXPECT_EQ(1, ml.handle);
}

/* A verdict (-EINVAL) still fails with EFAULT when it cannot be written. */
TEST_F(ro, module_load_verdict_unwritable)
{
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)nop, .funcs = (uintptr_t)&nop_func,
		.ninsns = 1, .nfuncs = 1, .flags = 1,
	};

	ro_ioctl(_metadata, self, VGPU_IOCTL_MODULE_LOAD, &ml, sizeof(ml));
	ml.flags = 0;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MODULE_LOAD, &ml));
	EXPECT_EQ(1, ml.handle);
}

TEST_F(ro, heap_create_leaves_no_heap)
{
	struct vgpu_heap_create hc = { .size = MIB };
	__u64 before = mem_free_bytes(self->fd);

	ASSERT_NE(0, before);
	ro_ioctl(_metadata, self, VGPU_IOCTL_HEAP_CREATE, &hc, sizeof(hc));
	EXPECT_EQ(before, mem_free_bytes(self->fd));
	/* Not -EBUSY: the context has no heap yet. */
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HEAP_CREATE, &hc));
	EXPECT_EQ(1ULL << 44, hc.va);
	EXPECT_GT(before, mem_free_bytes(self->fd));
}

/* Commands that create nothing fail with EFAULT too, and change nothing. */
TEST_F(ro, get_info_unwritable)
{
	struct vgpu_info info = { 0 };

	ro_ioctl(_metadata, self, VGPU_IOCTL_GET_INFO, &info, sizeof(info));
}

TEST_HARNESS_MAIN
