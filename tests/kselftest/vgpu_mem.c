// SPDX-License-Identifier: GPL-2.0
/*
 * Device memory ioctls: the VA window, allocation (placement, alignment,
 * capacity), free and query, each bad input with its exact errno, and
 * isolation between contexts. Needs vgpu.ko loaded (run inside the VM).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"

#define DEV "/dev/vgpu0"
#define MIB (1ULL << 20)
/* A window address no process maps: the kernel never touches it. */
#define WIN_BASE (1ULL << 44)
#define WIN_SIZE (16ULL << 30)

static int set_window(int fd, __u64 base, __u64 size)
{
	struct vgpu_va_window w = { .base = base, .size = size };

	return ioctl(fd, VGPU_IOCTL_SET_VA_WINDOW, &w);
}

static int mem_alloc(int fd, __u64 size, __u64 *va)
{
	struct vgpu_mem_alloc a = { .size = size };
	int ret = ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &a);

	*va = a.va;
	return ret;
}

static int mem_free(int fd, __u64 va)
{
	struct vgpu_mem_free f = { .va = va };

	return ioctl(fd, VGPU_IOCTL_MEM_FREE, &f);
}

static __u64 mem_free_bytes(int fd)
{
	struct vgpu_info info = { 0 };

	if (ioctl(fd, VGPU_IOCTL_GET_INFO, &info))
		return 0;
	return info.mem_free;
}

FIXTURE(mem) {
	int fd;
	__u64 baseline;
	__u64 total;
};

FIXTURE_SETUP(mem)
{
	struct vgpu_info info = { 0 };

	self->fd = open(DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_GET_INFO, &info));
	self->baseline = info.mem_free;
	self->total = info.mem_size;
	ASSERT_EQ(0, set_window(self->fd, WIN_BASE, WIN_SIZE));
}

FIXTURE_TEARDOWN(mem)
{
	int fd = self->fd;

	close(fd);
	/* Closing gave everything back. */
	fd = open(DEV, O_RDWR | O_CLOEXEC);
	EXPECT_EQ(self->baseline, mem_free_bytes(fd));
	close(fd);
}

TEST(window_rules)
{
	int fd = open(DEV, O_RDWR | O_CLOEXEC);
	struct vgpu_va_window w = { .base = WIN_BASE, .size = WIN_SIZE, .flags = 1 };
	__u64 va;

	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, mem_alloc(fd, 4096, &va));	/* no window yet */
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, set_window(fd, 0, WIN_SIZE));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, set_window(fd, WIN_BASE + 4096, WIN_SIZE));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, set_window(fd, WIN_BASE, WIN_SIZE + 4096));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, set_window(fd, WIN_BASE, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, set_window(fd, WIN_BASE, VGPU_VA_WINDOW_MAX + VGPU_VA_ALIGN));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, set_window(fd, VGPU_VA_LIMIT - VGPU_VA_ALIGN, 2 * VGPU_VA_ALIGN));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, set_window(fd, 0ULL - VGPU_VA_ALIGN, 2 * VGPU_VA_ALIGN));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, VGPU_IOCTL_SET_VA_WINDOW, &w));
	EXPECT_EQ(EINVAL, errno);
	w.flags = 0;
	w.pad = 1;
	EXPECT_EQ(-1, ioctl(fd, VGPU_IOCTL_SET_VA_WINDOW, &w));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, set_window(fd, WIN_BASE, WIN_SIZE));
	EXPECT_EQ(-1, set_window(fd, WIN_BASE, WIN_SIZE));
	EXPECT_EQ(EBUSY, errno);
	close(fd);
}

TEST_F(mem, small_allocations_share_a_chunk)
{
	__u64 a, b, c, d;

	ASSERT_EQ(0, mem_alloc(self->fd, 1, &a));
	ASSERT_EQ(0, mem_alloc(self->fd, 1, &b));
	ASSERT_EQ(0, mem_alloc(self->fd, 513, &c));
	ASSERT_EQ(0, mem_alloc(self->fd, 1, &d));
	EXPECT_LE(WIN_BASE, a);
	EXPECT_GT(WIN_BASE + WIN_SIZE, d);
	EXPECT_EQ(0, a % VGPU_VA_ALIGN);
	EXPECT_EQ(a + 512, b);
	EXPECT_EQ(b + 512, c);
	EXPECT_EQ(c + 1024, d);
	/* One chunk holds all four. */
	EXPECT_EQ(self->baseline - VGPU_VA_ALIGN, mem_free_bytes(self->fd));
}

TEST_F(mem, freed_space_is_reused)
{
	__u64 a, b, c;

	ASSERT_EQ(0, mem_alloc(self->fd, 4096, &a));
	ASSERT_EQ(0, mem_alloc(self->fd, 4096, &b));
	ASSERT_EQ(0, mem_free(self->fd, a));
	ASSERT_EQ(0, mem_alloc(self->fd, 100, &c));
	EXPECT_EQ(a, c);
}

TEST_F(mem, large_allocations_get_aligned_chunks)
{
	__u64 a, b;

	ASSERT_EQ(0, mem_alloc(self->fd, VGPU_SUBALLOC_MAX + 1, &a));
	ASSERT_EQ(0, mem_alloc(self->fd, 3 * MIB, &b));
	EXPECT_EQ(0, a % VGPU_VA_ALIGN);
	EXPECT_EQ(0, b % VGPU_VA_ALIGN);
	EXPECT_EQ(self->baseline - 2 * MIB - 4 * MIB, mem_free_bytes(self->fd));
	ASSERT_EQ(0, mem_free(self->fd, a));
	EXPECT_EQ(self->baseline - 4 * MIB, mem_free_bytes(self->fd));
}

TEST_F(mem, alloc_bad_arguments)
{
	struct vgpu_mem_alloc a = { .size = 4096, .flags = 1 };
	__u64 va;

	EXPECT_EQ(-1, mem_alloc(self->fd, 0, &va));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_ALLOC, &a));
	EXPECT_EQ(EINVAL, errno);
	a.flags = 0;
	a.pad = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_ALLOC, &a));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_ALLOC, NULL));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(mem, alloc_beyond_capacity)
{
	__u64 va;

	EXPECT_EQ(-1, mem_alloc(self->fd, self->total + 1, &va));
	EXPECT_EQ(ENOMEM, errno);
	EXPECT_EQ(-1, mem_alloc(self->fd, 1ULL << 50, &va));
	EXPECT_EQ(ENOMEM, errno);
	/* Sizes whose rounding would wrap. */
	EXPECT_EQ(-1, mem_alloc(self->fd, ~0ULL, &va));
	EXPECT_EQ(ENOMEM, errno);
	EXPECT_EQ(-1, mem_alloc(self->fd, ~0ULL - VGPU_VA_ALIGN + 2, &va));
	EXPECT_EQ(ENOMEM, errno);
	EXPECT_EQ(self->baseline, mem_free_bytes(self->fd));
}

TEST_F(mem, capacity_is_shared_by_contexts)
{
	int other = open(DEV, O_RDWR | O_CLOEXEC);
	__u64 half = self->baseline / 2 / VGPU_VA_ALIGN * VGPU_VA_ALIGN, a, b;

	ASSERT_LE(0, other);
	ASSERT_EQ(0, set_window(other, WIN_BASE, WIN_SIZE));
	ASSERT_EQ(0, mem_alloc(self->fd, half, &a));
	EXPECT_EQ(self->baseline - half, mem_free_bytes(other));
	EXPECT_EQ(-1, mem_alloc(other, self->baseline - half + 1, &b));
	EXPECT_EQ(ENOMEM, errno);
	ASSERT_EQ(0, mem_alloc(other, self->baseline - half, &b));
	EXPECT_EQ(0, mem_free_bytes(other));
	close(other);
	EXPECT_EQ(self->baseline - half, mem_free_bytes(self->fd));
}

TEST_F(mem, window_full)
{
	int fd = open(DEV, O_RDWR | O_CLOEXEC);
	__u64 a, b;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, set_window(fd, WIN_BASE, 4 * MIB));
	ASSERT_EQ(0, mem_alloc(fd, 3 * MIB, &a));
	EXPECT_EQ(-1, mem_alloc(fd, 2 * MIB + 1, &b));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(-1, mem_alloc(fd, 1, &b));	/* a new shared chunk */
	EXPECT_EQ(ENOSPC, errno);
	close(fd);
}

TEST_F(mem, free_rules)
{
	struct vgpu_mem_free f = { 0 };
	__u64 a;

	ASSERT_EQ(0, mem_alloc(self->fd, 8192, &a));
	EXPECT_EQ(-1, mem_free(self->fd, a + 512));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, mem_free(self->fd, WIN_BASE - 4096));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, mem_free(self->fd, 0));
	EXPECT_EQ(ENOENT, errno);
	f.va = a;
	f.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &f));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, mem_free(self->fd, a));
	EXPECT_EQ(-1, mem_free(self->fd, a));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(self->baseline, mem_free_bytes(self->fd));
}

TEST_F(mem, query)
{
	struct vgpu_mem_query q = { 0 };
	__u64 a, b;

	ASSERT_EQ(0, mem_alloc(self->fd, 1000, &a));
	ASSERT_EQ(0, mem_alloc(self->fd, 5 * MIB, &b));
	q.va = a + 999;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_QUERY, &q));
	EXPECT_EQ(a, q.base);
	EXPECT_EQ(1000, q.size);
	q.va = b + 5 * MIB - 1;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_QUERY, &q));
	EXPECT_EQ(b, q.base);
	EXPECT_EQ(5 * MIB, q.size);
	q.va = WIN_BASE + WIN_SIZE - 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_QUERY, &q));
	EXPECT_EQ(ENOENT, errno);
	q.va = a;
	q.pad = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_QUERY, &q));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(mem, contexts_are_isolated)
{
	int other = open(DEV, O_RDWR | O_CLOEXEC);
	struct vgpu_mem_query q = { 0 };
	__u64 a, b;

	ASSERT_LE(0, other);
	ASSERT_EQ(0, set_window(other, WIN_BASE, WIN_SIZE));
	ASSERT_EQ(0, mem_alloc(self->fd, 4096, &a));
	q.va = a;
	EXPECT_EQ(-1, ioctl(other, VGPU_IOCTL_MEM_QUERY, &q));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, mem_free(other, a));
	EXPECT_EQ(ENOENT, errno);
	/* The same window in another context hands out the same address. */
	ASSERT_EQ(0, mem_alloc(other, 4096, &b));
	EXPECT_EQ(a, b);
	close(other);
	EXPECT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_QUERY, &q));
}

TEST_F(mem, many_allocations_then_close)
{
	int i, failed = 0;
	__u64 va;

	for (i = 0; i < 2000; i++)
		failed += mem_alloc(self->fd, 64 + (i % 7) * 300, &va) != 0;
	for (i = 0; i < 8; i++)
		failed += mem_alloc(self->fd, (i + 2) * MIB, &va) != 0;
	EXPECT_EQ(0, failed);
	/* Teardown checks that closing returns all of it. */
}

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

static long long read_number(const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	return n > 0 ? atoll(buf) : -1;
}

/* Device memory is charged to the memory cgroup of whoever allocates it. */
TEST(memcg_charges_device_memory)
{
	const char *root = "/sys/fs/cgroup", *cg = "/sys/fs/cgroup/vgpu-memcg-test";
	int status, sync[2];
	pid_t pid;
	char pidbuf[32];

	if (mount("none", root, "cgroup2", 0, NULL) && errno != EBUSY)
		SKIP(return, "no cgroup2 (%s)", strerror(errno));
	if (write_file("/sys/fs/cgroup/cgroup.subtree_control", "+memory"))
		SKIP(return, "no memory controller");
	rmdir(cg);
	ASSERT_EQ(0, mkdir(cg, 0755));
	ASSERT_EQ(0, write_file("/sys/fs/cgroup/vgpu-memcg-test/memory.max", "16777216"));
	ASSERT_EQ(0, pipe(sync));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char c;
		int fd, fails = 0;
		long long before, after;
		__u64 va;

		if (read(sync[0], &c, 1) != 1)
			_exit(2);
		fd = open(DEV, O_RDWR | O_CLOEXEC);
		if (fd < 0 || set_window(fd, WIN_BASE, WIN_SIZE))
			_exit(3);
		before = read_number("/sys/fs/cgroup/vgpu-memcg-test/memory.current");
		fails += mem_alloc(fd, 4 * MIB, &va) != 0;
		after = read_number("/sys/fs/cgroup/vgpu-memcg-test/memory.current");
		fails += after - before < (long long)(4 * MIB);
		/* Beyond the cgroup's limit, though the device has room. */
		fails += mem_alloc(fd, 32 * MIB, &va) != -1 || errno != ENOMEM;
		close(fd);
		_exit(fails ? 1 : 0);
	}
	snprintf(pidbuf, sizeof(pidbuf), "%d", pid);
	ASSERT_EQ(0, write_file("/sys/fs/cgroup/vgpu-memcg-test/cgroup.procs", pidbuf));
	ASSERT_EQ(1, write(sync[1], "x", 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	close(sync[0]);
	close(sync[1]);
	rmdir(cg);
}

TEST_HARNESS_MAIN
