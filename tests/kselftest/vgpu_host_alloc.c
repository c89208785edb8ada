// SPDX-License-Identifier: GPL-2.0
/*
 * Host memory allocated by the module (HOST_ALLOC + mmap): zeroed, reached
 * by the engines at its user address, not charged to RLIMIT_MEMLOCK, each
 * bad allocation or mapping refused by its exact errno, gone from the
 * device with munmap(), not inherited by fork(), freed on close.
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
#include "vgpu_chan_util.h"

#define DEV "/dev/vgpu0"

static long vm_locked_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmLck: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static int host_alloc(int fd, __u64 size, __u64 *offset)
{
	struct vgpu_host_alloc a = { .size = size };
	int ret = ioctl(fd, VGPU_IOCTL_HOST_ALLOC, &a);

	*offset = a.offset;
	return ret;
}

static void *map(int fd, __u64 size, __u64 offset)
{
	return mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    (off_t)offset);
}

FIXTURE(halloc) {
	int fd;
	long page;
	void *status;
	struct chan c;
	__u64 dev;		/* 1 MiB of device memory */
};

FIXTURE_SETUP(halloc)
{
	struct vgpu_va_window w = { .base = 1ULL << 44, .size = 1ULL << 32 };
	struct vgpu_mem_alloc a = { .size = MIB };

	self->page = sysconf(_SC_PAGESIZE);
	self->fd = open(DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_SET_VA_WINDOW, &w));
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_ALLOC, &a));
	self->dev = a.va;
	self->status = mmap(NULL, self->page, PROT_READ, MAP_SHARED, self->fd, 0);
	ASSERT_NE(MAP_FAILED, self->status);
	ASSERT_EQ(0, chan_open(self->fd, &self->c, self->status));
}

FIXTURE_TEARDOWN(halloc)
{
	munmap(self->status, self->page);
	close(self->fd);
	free(self->c.ring);
}

/* Zeroed, and the engines read and write it at its own address. */
TEST_F(halloc, map_and_copy)
{
	long before = vm_locked_kb();
	unsigned char *p;
	__u64 off;
	int i, bad = 0;

	ASSERT_EQ(0, host_alloc(self->fd, 4 * self->page, &off));
	p = map(self->fd, 4 * self->page, off);
	ASSERT_NE(MAP_FAILED, p);
	for (i = 0; i < 4 * self->page; i++)
		bad += p[i] != 0;
	EXPECT_EQ(0, bad);
	EXPECT_EQ(before, vm_locked_kb());

	memset(p, 0x5a, self->page);
	cmd_copy(&self->c, self->dev, (uintptr_t)p, self->page, 1, 0, 0);
	cmd_copy(&self->c, (uintptr_t)p + 2 * self->page, self->dev,
		 self->page, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	ASSERT_EQ(0, wait_for(&self->c, 2));
	for (i = 0; i < self->page; i++)
		bad += p[2 * self->page + i] != 0x5a;
	EXPECT_EQ(0, bad);
	EXPECT_EQ(0, munmap(p, 4 * self->page));
}

TEST_F(halloc, bad_allocations)
{
	struct vgpu_host_alloc a = { .size = self->page, .flags = 1 };
	__u64 off;

	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	EXPECT_EQ(EINVAL, errno);
	a.flags = 0;
	a.pad = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_HOST_ALLOC, &a));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, host_alloc(self->fd, 0, &off));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, host_alloc(self->fd, self->page + 1, &off));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, host_alloc(self->fd, VGPU_HOST_ALLOC_MAX + self->page, &off));
	EXPECT_EQ(EINVAL, errno);
	/* Far more than the machine has: refused, nothing kept. */
	EXPECT_EQ(-1, host_alloc(self->fd, VGPU_HOST_ALLOC_MAX, &off));
	EXPECT_EQ(ENOMEM, errno);
}

TEST_F(halloc, bad_mappings)
{
	__u64 off, other;
	void *p, *spot;

	ASSERT_EQ(0, host_alloc(self->fd, 2 * self->page, &off));
	EXPECT_EQ(MAP_FAILED, map(self->fd, self->page, off));		/* size */
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, map(self->fd, 2 * self->page, off + self->page));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, map(self->fd, 2 * self->page, off + (off << 4)));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, 2 * self->page, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE, self->fd, (off_t)off));
	EXPECT_EQ(EINVAL, errno);
	p = map(self->fd, 2 * self->page, off);
	ASSERT_NE(MAP_FAILED, p);
	/* Mapped once only. */
	EXPECT_EQ(MAP_FAILED, map(self->fd, 2 * self->page, off));
	EXPECT_EQ(ENOENT, errno);
	/* Neither split nor moved. */
	EXPECT_EQ(-1, munmap(p, self->page));
	EXPECT_EQ(EINVAL, errno);
	/* (Moved onto a reservation of our own, not onto whatever is there.) */
	spot = mmap(NULL, 2 * self->page, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, spot);
	EXPECT_EQ(MAP_FAILED, mremap(p, 2 * self->page, 2 * self->page,
				     MREMAP_MAYMOVE | MREMAP_FIXED, spot));
	EXPECT_EQ(MAP_FAILED, mremap(p, 2 * self->page, 4 * self->page,
				     MREMAP_MAYMOVE));
	((volatile char *)p)[0] = 1;	/* still there */
	EXPECT_EQ(0, munmap(p, 2 * self->page));
	/* The file goes on giving. */
	ASSERT_EQ(0, host_alloc(self->fd, self->page, &other));
}

/* munmap() takes the memory off the device too. */
TEST_F(halloc, munmap_unmaps_from_device)
{
	__u64 off;
	void *p;

	ASSERT_EQ(0, host_alloc(self->fd, self->page, &off));
	p = map(self->fd, self->page, off);
	ASSERT_NE(MAP_FAILED, p);
	ASSERT_EQ(0, munmap(p, self->page));
	cmd_copy(&self->c, (uintptr_t)p, self->dev, 64, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ((uintptr_t)p, self->c.status->error_addr);
}

/* A child does not inherit the mapping. */
TEST_F(halloc, not_inherited)
{
	int status;
	__u64 off;
	pid_t pid;
	char *p;

	ASSERT_EQ(0, host_alloc(self->fd, self->page, &off));
	p = map(self->fd, self->page, off);
	ASSERT_NE(MAP_FAILED, p);
	p[0] = 7;
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL);
		((volatile char *)p)[0] = 8;
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGSEGV, WTERMSIG(status));
	EXPECT_EQ(7, p[0]);
	munmap(p, self->page);
}

/* Closing the file frees what was never mapped; mapped memory outlives
 * close() until munmap(). */
TEST(close_frees)
{
	int fd = open(DEV, O_RDWR | O_CLOEXEC);
	long page = sysconf(_SC_PAGESIZE);
	__u64 off;
	char *p;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, host_alloc(fd, 16 * page, &off));
	ASSERT_EQ(0, host_alloc(fd, page, &off));
	p = map(fd, page, off);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, close(fd));
	p[0] = 3;
	EXPECT_EQ(3, p[0]);
	EXPECT_EQ(0, munmap(p, page));
}

TEST_HARNESS_MAIN
