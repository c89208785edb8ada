// SPDX-License-Identifier: GPL-2.0
/*
 * Managed memory's fault model: HOST_ALLOC with VGPU_HOST_ALLOC_MANAGED
 * and MANAGED_PREFETCH. The engines' first touch of pages the host had
 * counts device faults (copies and kernels alike), the CPU's next touch of
 * them host faults, a page once counted is not counted again on the same
 * side; prefetches move pages without faults, in either direction; the
 * data stays right through every move; each bad input refused by its
 * errno; the memory and kernel memory back at baseline after munmap and
 * close. Needs vgpu.ko loaded (run inside the VM).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tests/isa_build.h"
#include "uapi/vgpu.h"
#include "vgpu_chan_util.h"

#define WIN_BASE (1ULL << 44)
#define PAGES 16
#define SYSFS "/sys/class/vgpu/vgpu0/"

static long long sysfs_ll(const char *name)
{
	char path[128], buf[32] = "";
	long long v = -1;
	int fd;

	snprintf(path, sizeof(path), SYSFS "%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0)
		v = strtoll(buf, NULL, 10);
	if (fd >= 0)
		close(fd);
	return v;
}

static long long dev_faults(void)
{
	return sysfs_ll("managed_faults_device");
}

static long long host_faults(void)
{
	return sysfs_ll("managed_faults_host");
}

static int prefetch(int fd, __u64 addr, __u64 size, __u32 flags)
{
	struct vgpu_managed_prefetch p = {
		.addr = addr, .size = size, .flags = flags,
	};

	return ioctl(fd, VGPU_IOCTL_MANAGED_PREFETCH, &p);
}

/* Param: p. *(u32 *)p = 7. */
static const struct vgpu_insn put7[] = {
	LDP(VGPU_T_U64, 0, 0),
	MOVI(VGPU_T_U32, 1, 7),
	ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 0, 1),
	EXIT(),
};

static const struct vgpu_func put7_func = { .nregs = 2, .param_bytes = 8 };

/* A context with a channel, PAGES of managed memory and device memory. */
FIXTURE(managed) {
	int fd;
	void *status;
	struct chan c;
	unsigned char *m;
	size_t size;
	__u64 dev;
	long long kmem;
};

FIXTURE_SETUP(managed)
{
	struct vgpu_host_alloc ha = { .flags = VGPU_HOST_ALLOC_MANAGED };
	struct vgpu_mem_alloc ma = { .size = PAGES * 4096 };

	self->kmem = sysfs_ll("kmem_used");
	self->fd = open_ctx(&self->status, WIN_BASE);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, chan_open(self->fd, &self->c, self->status));
	self->size = PAGES * getpagesize();
	ha.size = self->size;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &ha));
	self->m = mmap(NULL, self->size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       self->fd, ha.offset);
	ASSERT_NE(MAP_FAILED, self->m);
	ma.size = self->size;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_ALLOC, &ma));
	self->dev = ma.va;
}

FIXTURE_TEARDOWN(managed)
{
	munmap(self->m, self->size);
	munmap(self->status, 4096);
	close(self->fd);
	free(self->c.ring);
	EXPECT_EQ(self->kmem, sysfs_ll("kmem_used"));
}

/* Reads every page from the CPU; the sum of their first bytes. */
static unsigned int cpu_touch(const unsigned char *m, size_t size)
{
	unsigned int sum = 0;
	size_t i;

	for (i = 0; i < size; i += getpagesize())
		sum += *(volatile const unsigned char *)(m + i);
	return sum;
}

TEST_F(managed, faults_each_way)
{
	long long d0, h0;
	size_t i;

	/* Pages start on the host: the CPU touches them for free. */
	for (i = 0; i < self->size; i++)
		self->m[i] = (unsigned char)i;
	d0 = dev_faults();
	h0 = host_faults();
	ASSERT_LE(0, d0);
	ASSERT_LE(0, h0);

	/* A copy reads all of them: one device fault a page. */
	EXPECT_EQ(0, copy_wait(&self->c, self->dev, (uintptr_t)self->m,
			       self->size));
	EXPECT_EQ(d0 + PAGES, dev_faults());
	EXPECT_EQ(h0, host_faults());
	/* Again: they are the device's now. */
	EXPECT_EQ(0, copy_wait(&self->c, self->dev, (uintptr_t)self->m,
			       self->size));
	EXPECT_EQ(d0 + PAGES, dev_faults());

	/* The CPU takes them back, one host fault a page, data intact. */
	for (i = 0; i < self->size && self->m[i] == (unsigned char)i; i++)
		;
	EXPECT_EQ(self->size, i);
	EXPECT_EQ(h0 + PAGES, host_faults());
	cpu_touch(self->m, self->size);
	EXPECT_EQ(h0 + PAGES, host_faults());

	/* The device writes half of them; the CPU sees the writes. */
	memset(self->m, 0, self->size);
	cmd_memset(&self->c, (uintptr_t)self->m, 0xab, 1, self->size / 2);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, self->c.put));
	EXPECT_EQ(d0 + PAGES + PAGES / 2, dev_faults());
	EXPECT_EQ(0xab, self->m[0]);
	EXPECT_EQ(0xab, self->m[self->size / 2 - 1]);
	EXPECT_EQ(0, self->m[self->size / 2]);
	cpu_touch(self->m, self->size);
	EXPECT_EQ(h0 + PAGES + PAGES / 2, host_faults());
}

TEST_F(managed, kernels_fault_too)
{
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)put7, .funcs = (uintptr_t)&put7_func,
		.ninsns = sizeof(put7) / sizeof(put7[0]), .nfuncs = 1,
	};
	__u64 *params = (__u64 *)(self->m + self->size - 64);
	struct vgpu_cmd *cmd;
	long long d0, h0;

	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MODULE_LOAD, &ml));
	/* The parameters live on the last page, which the launch reads. */
	params[0] = (uintptr_t)self->m + 8;
	d0 = dev_faults();
	h0 = host_faults();
	cmd = slot(&self->c);
	cmd->op = VGPU_CMD_LAUNCH;
	cmd->launch.module = ml.handle;
	cmd->launch.grid[0] = cmd->launch.grid[1] = cmd->launch.grid[2] = 1;
	cmd->launch.block[0] = cmd->launch.block[1] = 1;
	cmd->launch.block[2] = 1;
	cmd->launch.params = (uintptr_t)params;
	cmd->launch.param_bytes = 8;
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, self->c.put));
	EXPECT_EQ(d0 + 2, dev_faults());
	EXPECT_EQ(7, *(volatile __u32 *)(self->m + 8));
	EXPECT_EQ(h0 + 1, host_faults());
}

TEST_F(managed, prefetch_moves_without_faults)
{
	long long d0, h0;

	cpu_touch(self->m, self->size);
	d0 = dev_faults();
	h0 = host_faults();
	/* Half to the device, from an unaligned range: no fault counted. */
	ASSERT_EQ(0, prefetch(self->fd, (uintptr_t)self->m + 100,
			      self->size / 2 - 200, VGPU_PREFETCH_DEVICE));
	EXPECT_EQ(d0, dev_faults());
	/* A copy of all of it faults for the other half only. */
	EXPECT_EQ(0, copy_wait(&self->c, self->dev, (uintptr_t)self->m,
			       self->size));
	EXPECT_EQ(d0 + PAGES / 2, dev_faults());
	/* Back to the host, all of it: the CPU touches it for free. */
	ASSERT_EQ(0, prefetch(self->fd, (uintptr_t)self->m, self->size, 0));
	cpu_touch(self->m, self->size);
	EXPECT_EQ(h0, host_faults());
	EXPECT_EQ(d0 + PAGES / 2, dev_faults());
	/* To the device and touched by the CPU: host faults, data intact. */
	self->m[5] = 55;
	ASSERT_EQ(0, prefetch(self->fd, (uintptr_t)self->m, self->size,
			      VGPU_PREFETCH_DEVICE));
	EXPECT_EQ(55, self->m[5]);
	cpu_touch(self->m, self->size);
	EXPECT_EQ(h0 + PAGES, host_faults());
}

TEST_F(managed, bad_input)
{
	struct vgpu_host_alloc ha = { .size = 4096 };
	struct vgpu_managed_prefetch p = {
		.addr = (uintptr_t)self->m, .size = 4096, .pad = 1,
	};
	void *pinned;

	ha.flags = 2;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &ha));
	EXPECT_EQ(EINVAL, errno);
	ha.flags = VGPU_HOST_ALLOC_MANAGED | 2;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &ha));
	EXPECT_EQ(EINVAL, errno);

	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MANAGED_PREFETCH, &p));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, prefetch(self->fd, (uintptr_t)self->m, 4096, 2));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, prefetch(self->fd, (uintptr_t)self->m, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, prefetch(self->fd, ~0ULL - 10, 100, 0));
	EXPECT_EQ(EINVAL, errno);
	/* Past the allocation's end, outside it, or not managed. */
	EXPECT_EQ(-1, prefetch(self->fd, (uintptr_t)self->m, self->size + 1, 0));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, prefetch(self->fd, (uintptr_t)self->m - 4096, 4096, 0));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, prefetch(self->fd, self->dev, 4096, VGPU_PREFETCH_DEVICE));
	EXPECT_EQ(ENOENT, errno);
	ha.flags = 0;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &ha));
	pinned = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, self->fd,
		      ha.offset);
	ASSERT_NE(MAP_FAILED, pinned);
	EXPECT_EQ(-1, prefetch(self->fd, (uintptr_t)pinned, 4096, 0));
	EXPECT_EQ(ENOENT, errno);
	munmap(pinned, 4096);
}

/* Unmapped while the device holds its pages, then the file closed. */
TEST_F(managed, teardown_with_pages_on_device)
{
	EXPECT_EQ(0, copy_wait(&self->c, self->dev, (uintptr_t)self->m,
			       self->size));
	EXPECT_EQ(0, prefetch(self->fd, (uintptr_t)self->m, self->size,
			      VGPU_PREFETCH_DEVICE));
}

TEST_HARNESS_MAIN
