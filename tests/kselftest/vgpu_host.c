// SPDX-License-Identifier: GPL-2.0
/*
 * Host memory registration: pinning user ranges into a context, with each
 * bad range refused by its exact errno, RLIMIT_MEMLOCK charged (VmLck of
 * the process that opened the context) and enforced for as long as the
 * pins last (past the exit of a child that registered), and everything
 * unpinned and uncharged on unregister and on close.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"

#define DEV "/dev/vgpu0"

static int host_register(int fd, void *addr, __u64 size, __u32 flags)
{
	struct vgpu_host_register r = {
		.addr = (__u64)(uintptr_t)addr, .size = size, .flags = flags,
	};

	return ioctl(fd, VGPU_IOCTL_HOST_REGISTER, &r);
}

static int host_unregister(int fd, void *addr)
{
	struct vgpu_host_unregister u = { .addr = (__u64)(uintptr_t)addr };

	return ioctl(fd, VGPU_IOCTL_HOST_UNREGISTER, &u);
}

/* This process's locked memory in kB, as the kernel counts it. */
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

FIXTURE(host) {
	int fd;
	long page;
	char *buf;		/* 16 pages, read-write */
};

FIXTURE_SETUP(host)
{
	self->fd = open(DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
	self->page = sysconf(_SC_PAGESIZE);
	self->buf = mmap(NULL, 16 * self->page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->buf);
}

FIXTURE_TEARDOWN(host)
{
	close(self->fd);
	munmap(self->buf, 16 * self->page);
}

TEST_F(host, register_and_unregister)
{
	long before = vm_locked_kb();

	ASSERT_EQ(0, host_register(self->fd, self->buf, 16 * self->page, 0));
	EXPECT_EQ(before + 16 * self->page / 1024, vm_locked_kb());
	ASSERT_EQ(0, host_unregister(self->fd, self->buf));
	EXPECT_EQ(before, vm_locked_kb());
}

TEST_F(host, close_unpins)
{
	long before = vm_locked_kb();

	ASSERT_EQ(0, host_register(self->fd, self->buf, 4 * self->page, 0));
	ASSERT_EQ(0, host_register(self->fd, self->buf + 8 * self->page,
				   8 * self->page, 0));
	EXPECT_EQ(before + 12 * self->page / 1024, vm_locked_kb());
	close(self->fd);
	EXPECT_EQ(before, vm_locked_kb());
	self->fd = open(DEV, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, self->fd);
}

TEST_F(host, bad_arguments)
{
	struct vgpu_host_register r = {
		.addr = (__u64)(uintptr_t)self->buf, .size = self->page,
	};

	EXPECT_EQ(-1, host_register(self->fd, self->buf + 1, self->page, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, host_register(self->fd, self->buf, self->page + 1, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, host_register(self->fd, self->buf, 0, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, host_register(self->fd, self->buf, VGPU_HOST_REGISTER_MAX + self->page, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, host_register(self->fd, self->buf, self->page, 2));
	EXPECT_EQ(EINVAL, errno);
	r.pad = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	EXPECT_EQ(EINVAL, errno);
	/* Kernel addresses and wrapping ranges are not user memory. */
	EXPECT_EQ(-1, host_register(self->fd, (void *)(uintptr_t)0xffff800000000000ULL, self->page, 0));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, host_register(self->fd, (void *)(uintptr_t)(0ULL - 2 * self->page), 4 * self->page, 0));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(host, unmapped_ranges)
{
	long before = vm_locked_kb();

	/* A hole in the middle of the range. */
	ASSERT_EQ(0, munmap(self->buf + 4 * self->page, self->page));
	EXPECT_EQ(-1, host_register(self->fd, self->buf, 8 * self->page, 0));
	EXPECT_EQ(EFAULT, errno);
	/* Nothing stays pinned or charged after a failure. */
	EXPECT_EQ(before, vm_locked_kb());
	EXPECT_EQ(0, host_register(self->fd, self->buf, 4 * self->page, 0));
	/* Inaccessible memory. */
	ASSERT_EQ(0, mprotect(self->buf + 8 * self->page, 2 * self->page, PROT_NONE));
	EXPECT_EQ(-1, host_register(self->fd, self->buf + 8 * self->page, 2 * self->page, 0));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, host_register(self->fd, self->buf + 8 * self->page, 2 * self->page,
				    VGPU_HOST_READ_ONLY));
	EXPECT_EQ(EFAULT, errno);
}

TEST_F(host, read_only_ranges)
{
	ASSERT_EQ(0, mprotect(self->buf, 4 * self->page, PROT_READ));
	EXPECT_EQ(-1, host_register(self->fd, self->buf, 4 * self->page, 0));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(0, host_register(self->fd, self->buf, 4 * self->page, VGPU_HOST_READ_ONLY));
	EXPECT_EQ(0, host_unregister(self->fd, self->buf));
}

TEST_F(host, overlaps)
{
	ASSERT_EQ(0, host_register(self->fd, self->buf + 4 * self->page, 4 * self->page, 0));
	EXPECT_EQ(-1, host_register(self->fd, self->buf + 4 * self->page, 4 * self->page, 0));
	EXPECT_EQ(EEXIST, errno);
	EXPECT_EQ(-1, host_register(self->fd, self->buf, 5 * self->page, 0));
	EXPECT_EQ(EEXIST, errno);
	EXPECT_EQ(-1, host_register(self->fd, self->buf + 7 * self->page, 4 * self->page, 0));
	EXPECT_EQ(EEXIST, errno);
	/* Neighbours on either side are fine. */
	EXPECT_EQ(0, host_register(self->fd, self->buf, 4 * self->page, 0));
	EXPECT_EQ(0, host_register(self->fd, self->buf + 8 * self->page, 4 * self->page, 0));
}

TEST_F(host, unregister_rules)
{
	struct vgpu_host_unregister u = { .addr = (__u64)(uintptr_t)self->buf, .flags = 1 };

	ASSERT_EQ(0, host_register(self->fd, self->buf, 4 * self->page, 0));
	EXPECT_EQ(-1, host_unregister(self->fd, self->buf + self->page));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, host_unregister(self->fd, self->buf + 8 * self->page));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_HOST_UNREGISTER, &u));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, host_unregister(self->fd, self->buf));
	EXPECT_EQ(-1, host_unregister(self->fd, self->buf));
	EXPECT_EQ(ENOENT, errno);
}

TEST_F(host, registrations_are_per_context)
{
	int other = open(DEV, O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, other);
	ASSERT_EQ(0, host_register(self->fd, self->buf, 4 * self->page, 0));
	EXPECT_EQ(-1, host_unregister(other, self->buf));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(0, host_register(other, self->buf, 4 * self->page, 0));
	close(other);
}

/* The pages stay pinned while registered, even once unmapped by the user. */
TEST_F(host, survives_munmap)
{
	char *p = mmap(NULL, 4 * self->page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	long before = vm_locked_kb();

	ASSERT_NE(MAP_FAILED, p);
	memset(p, 0x5a, 4 * self->page);
	ASSERT_EQ(0, host_register(self->fd, p, 4 * self->page, 0));
	ASSERT_EQ(0, munmap(p, 4 * self->page));
	EXPECT_EQ(0, host_unregister(self->fd, p));
	EXPECT_EQ(before, vm_locked_kb());
}

TEST_F(host, shared_memory)
{
	int mfd = memfd_create("vgpu-test", 0);
	char *p;

	ASSERT_LE(0, mfd);
	ASSERT_EQ(0, ftruncate(mfd, 4 * self->page));
	p = mmap(NULL, 4 * self->page, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(0, host_register(self->fd, p, 4 * self->page, 0));
	EXPECT_EQ(0, host_unregister(self->fd, p));
	munmap(p, 4 * self->page);
	close(mfd);
}

/*
 * A child that shares the context through fork() registers memory it
 * mapped itself, which its parent has no mapping at.
 */
TEST_F(host, child_maps_its_own)
{
	pid_t pid = fork();
	int status;

	ASSERT_LE(0, pid);
	if (pid == 0) {
		size_t len = 256 * self->page;
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			_exit(2);
		if (host_register(self->fd, p, len, 0))
			_exit(errno);
		_exit(host_unregister(self->fd, p) ? 3 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	/* Otherwise the errno of the registration (EFAULT), or the step. */
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* Without CAP_IPC_LOCK, RLIMIT_MEMLOCK bounds what a process pins. */
TEST_F(host, memlock_limit)
{
	pid_t pid = fork();
	int status;

	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct rlimit lim = { 8 * self->page, 8 * self->page };
		int fails = 0;

		if (setrlimit(RLIMIT_MEMLOCK, &lim) || setuid(65534))
			_exit(2);
		fails += host_register(self->fd, self->buf, 16 * self->page, 0) != -1 ||
			 errno != ENOMEM;
		fails += host_register(self->fd, self->buf, 8 * self->page, 0) != 0;
		fails += host_register(self->fd, self->buf + 8 * self->page,
				       self->page, 0) != -1 || errno != ENOMEM;
		fails += host_unregister(self->fd, self->buf) != 0;
		fails += host_register(self->fd, self->buf + 8 * self->page,
				       8 * self->page, 0) != 0;
		_exit(fails ? 1 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
}

#define FORK_CHILDREN 40
#define FORK_SLICE (8 << 20)

/*
 * Forks a child that makes @slice (PROT_NONE in this process) writable and
 * registers it on the context @fd it inherited, then exits. Returns 0 when
 * the registration succeeded, its errno when it failed, -1 when the child
 * could not run.
 */
static int register_in_child(int fd, char *slice)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return -1;
	if (pid == 0) {
		if (mprotect(slice, FORK_SLICE, PROT_READ | PROT_WRITE))
			_exit(255);
		_exit(host_register(fd, slice, FORK_SLICE, 0) ? errno : 0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) == 255)
		return -1;
	return WEXITSTATUS(status);
}

/*
 * As nobody with RLIMIT_MEMLOCK 8 MiB: children that share a context
 * through fork() each register 8 MiB and exit. Their pins stay while the
 * context lives, so they stay charged: the first child's registration
 * takes the whole limit and every later one fails with ENOMEM, as does one
 * in another context the same process opened. Unregistering, then closing the
 * context, gives the charge back, exactly. Exit status: the step that
 * failed.
 */
static int memlock_through_fork(void)
{
	struct rlimit lim = { FORK_SLICE, FORK_SLICE };
	int shared = open(DEV, O_RDWR | O_CLOEXEC);
	int other = open(DEV, O_RDWR | O_CLOEXEC);
	size_t span = (size_t)(FORK_CHILDREN + 1) * FORK_SLICE;
	char *base;
	int i;

	if (shared < 0 || other < 0)
		return 2;
	/* Address space only: each child maps its own slice's memory. */
	base = mmap(NULL, span, PROT_NONE,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED)
		return 2;
	if (setrlimit(RLIMIT_MEMLOCK, &lim) || setgid(65534) || setuid(65534))
		return 3;
	if (register_in_child(shared, base) != 0)
		return 10;
	/* Stop at the first that gets through: each would pin 8 MiB more. */
	for (i = 1; i < FORK_CHILDREN; i++)
		if (register_in_child(shared, base + (size_t)i * FORK_SLICE) != ENOMEM)
			return 11;
	if (register_in_child(other, base + FORK_SLICE) != ENOMEM)
		return 12;
	/* The first child's range goes: its 8 MiB can be pinned again. */
	if (host_unregister(shared, base))
		return 13;
	if (register_in_child(shared, base + (size_t)FORK_CHILDREN * FORK_SLICE) != 0)
		return 14;
	if (register_in_child(other, base + FORK_SLICE) != ENOMEM)
		return 15;
	/* This process holds the context's last reference: close unpins. */
	close(shared);
	if (register_in_child(other, base + FORK_SLICE) != 0)
		return 16;
	if (register_in_child(other, base + 2 * FORK_SLICE) != ENOMEM)
		return 17;
	close(other);
	return 0;
}

TEST(memlock_limit_through_fork)
{
	pid_t pid = fork();
	int status;

	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(memlock_through_fork());
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	/* Otherwise the step of memlock_through_fork() that failed. */
	EXPECT_EQ(0, WEXITSTATUS(status));
}

/* MemAvailable of /proc/meminfo in kB. */
static long mem_available_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define HUGE_CALLS 500

struct huge_args {
	int fd;
	int bad;	/* calls that did not fail with ENOMEM */
};

/* Registers ranges of 2^39 and 2^40 bytes, far over the memlock limit. */
static void *huge_registers(void *arg)
{
	struct huge_args *a = arg;
	int i;

	for (i = 0; i < HUGE_CALLS; i++) {
		__u64 size = i & 1 ? VGPU_HOST_REGISTER_MAX : VGPU_HOST_REGISTER_MAX / 2;

		if (host_register(a->fd, (void *)(uintptr_t)0x100000000000ULL, size, 0) != -1 ||
		    errno != ENOMEM)
			a->bad++;
	}
	return NULL;
}

/*
 * A range far over RLIMIT_MEMLOCK is refused before the kernel allocates
 * anything for it: its page array would be 1 or 2 GiB, and two threads
 * asking in a loop once drove the VM into the OOM killer. The calls must
 * all fail with ENOMEM, quickly, and leave the memory as it was.
 */
TEST_F(host, memlock_limit_huge_ranges)
{
	long before = mem_available_kb(), after;
	pid_t pid;
	int status;

	ASSERT_LT(0, before);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		struct rlimit lim = { 8 << 20, 8 << 20 };
		struct huge_args a[2] = { { self->fd, 0 }, { self->fd, 0 } };
		pthread_t t[2];
		double start;
		int i;

		if (setrlimit(RLIMIT_MEMLOCK, &lim) || setuid(65534))
			_exit(2);
		start = now_s();
		for (i = 0; i < 2; i++)
			if (pthread_create(&t[i], NULL, huge_registers, &a[i]))
				_exit(3);
		for (i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
		if (a[0].bad || a[1].bad)
			_exit(4);
		/* Microseconds a call when nothing is allocated. */
		_exit(now_s() - start > 5 ? 5 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	after = mem_available_kb();
	TH_LOG("MemAvailable %ld kB before, %ld kB after", before, after);
	EXPECT_LT(before - after, 64 << 10);
}

TEST_HARNESS_MAIN
