// SPDX-License-Identifier: GPL-2.0
/*
 * Host memory allocated by the module (HOST_ALLOC + mmap): zeroed, reached
 * by the engines at its user address, not charged to RLIMIT_MEMLOCK, each
 * bad allocation or mapping refused by its exact errno, gone from the
 * device with munmap() (once, however many threads unmap it at once),
 * not inherited by fork(), freed on close.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
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

/* A field of /proc/meminfo, in kB. */
static long meminfo_kb(const char *field)
{
	char line[256], name[64];
	long kb = -1, v;
	FILE *f = fopen("/proc/meminfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63[^:]: %ld", name, &v) == 2 &&
		    !strcmp(name, field)) {
			kb = v;
			break;
		}
	if (f)
		fclose(f);
	return kb;
}

/*
 * Pages freed but kept on the page allocator's per-CPU lists, in kB: free
 * for the next allocation, but out of MemAvailable, and tens of MiB a
 * CPU on a VM of 2 GiB ("count:" of each CPU's pageset in zoneinfo).
 */
static long pcp_kb(void)
{
	char line[256];
	long kb = 0, n;
	FILE *f = fopen("/proc/zoneinfo", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, " count: %ld", &n) == 1)
			kb += n * (sysconf(_SC_PAGESIZE) / 1024);
	if (f)
		fclose(f);
	return kb;
}

/* What the system has for new allocations, in kB. */
static long avail_kb(void)
{
	return meminfo_kb("MemAvailable") + pcp_kb();
}

/*
 * How much less memory is available than @avail kB, once it is under
 * @bound kB or after 10 s: what the system gets back can come back a
 * little late (a file's last reference dropped on another thread is put
 * from its task work), and only what never comes back is a leak.
 */
static long kept_kb(long avail, long bound)
{
	long kept = avail - avail_kb();
	int i;

	for (i = 0; i < 100 && kept >= bound; i++) {
		usleep(100 * 1000);
		kept = avail - avail_kb();
	}
	if (i)
		printf("# memory came back after %d ms\n", i * 100);
	return kept;
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
	struct vgpu_host_alloc a = { .size = self->page, .flags = 2 };
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

#define RACE_ROUNDS 1000
#define RACE_BUSY_ROUNDS 200
#define RACE_WARM 100		/* rounds before memory is measured */
#define RACE_TIMEOUT 180	/* seconds, for the debug kernel */
#define RACE_PAGES 16
#define RACE_BUSY_PAGES 256

/*
 * Two threads that unmap the same mapping at the same moment, each round
 * started by race_unmap().
 */
struct unmap_race {
	pthread_barrier_t go, done;
	pthread_t t[2];
	void *p;
	size_t len;
	int ret[2], err[2];
	int stop, bad;
};

struct unmap_racer {
	struct unmap_race *race;
	int me;
};

static void *unmap_racer(void *arg)
{
	struct unmap_racer *a = arg;
	struct unmap_race *r = a->race;

	for (;;) {
		pthread_barrier_wait(&r->go);
		if (r->stop)
			return NULL;
		r->ret[a->me] = munmap(r->p, r->len);
		r->err[a->me] = errno;
		pthread_barrier_wait(&r->done);
	}
}

static int race_start(struct unmap_race *r, struct unmap_racer a[2], size_t len)
{
	int i;

	r->len = len;
	if (pthread_barrier_init(&r->go, NULL, 3) ||
	    pthread_barrier_init(&r->done, NULL, 3))
		return -1;
	for (i = 0; i < 2; i++) {
		a[i].race = r;
		a[i].me = i;
		if (pthread_create(&r->t[i], NULL, unmap_racer, &a[i]))
			return -1;
	}
	return 0;
}

/* Both threads munmap(@p) at once; counts in r->bad each that failed. */
static void race_unmap(struct unmap_race *r, void *p)
{
	r->p = p;
	pthread_barrier_wait(&r->go);
	pthread_barrier_wait(&r->done);
	r->bad += (r->ret[0] != 0) + (r->ret[1] != 0);
}

static void race_stop(struct unmap_race *r)
{
	r->stop = 1;
	pthread_barrier_wait(&r->go);
	pthread_join(r->t[0], NULL);
	pthread_join(r->t[1], NULL);
}

/*
 * Two threads munmap() the same mapping at once, many times over: both
 * succeed (unmapping what is no longer mapped is no error), the memory
 * leaves the device, and none of it is kept: the pages of every round
 * come back to the system, and the debug kernel sees no refcount or
 * accounting going wrong.
 */
TEST_F_TIMEOUT(halloc, munmap_race, RACE_TIMEOUT)
{
	long avail = 0, kept;
	struct unmap_race race = { 0 };
	struct unmap_racer args[2];
	size_t len = RACE_PAGES * self->page;
	__u64 off;
	void *p = NULL;
	int i;

	ASSERT_EQ(0, race_start(&race, args, len));
	for (i = 0; i < RACE_ROUNDS; i++) {
		if (i == RACE_WARM)
			avail = avail_kb();
		ASSERT_EQ(0, host_alloc(self->fd, len, &off));
		p = map(self->fd, len, off);
		ASSERT_NE(MAP_FAILED, p);
		((volatile char *)p)[0] = 1;
		race_unmap(&race, p);
		/* Gone for good: it cannot be mapped again. */
		EXPECT_EQ(MAP_FAILED, map(self->fd, len, off));
	}
	race_stop(&race);
	EXPECT_EQ(0, race.bad) TH_LOG("errno %d %d", race.err[0], race.err[1]);

	/* Off the device too. */
	cmd_copy(&self->c, (uintptr_t)p, self->dev, 64, 1, 0, 0);
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, 1));
	EXPECT_EQ(EIO, errno);
	/*
	 * Since the caches warmed up, (RACE_ROUNDS - RACE_WARM) * RACE_PAGES
	 * pages (56 MiB) went through: what stays out of the system's hands
	 * must be noise, not a share of each round.
	 */
	kept = kept_kb(avail, (RACE_ROUNDS - RACE_WARM) * len / 1024 / 2);
	EXPECT_GT((long)((RACE_ROUNDS - RACE_WARM) * len / 1024 / 2), kept)
		TH_LOG("%ld kB kept", kept);
}

/*
 * The same with the engines copying to and from all over the
 * mapping while it goes: each round either completes or faults inside
 * the mapping, and closing the context afterwards frees everything.
 */
TEST_F_TIMEOUT(halloc, munmap_race_busy, RACE_TIMEOUT)
{
	long page = sysconf(_SC_PAGESIZE), avail = 0, kept;
	size_t len = RACE_BUSY_PAGES * page, step = len / (RING / 2);
	struct vgpu_mem_alloc ma = { .size = step };
	struct unmap_race race = { 0 };
	struct unmap_racer args[2];
	int i, j, fd, faults = 0;
	void *status, *p;
	struct chan c;
	__u64 off;

	ASSERT_EQ(0, race_start(&race, args, len));
	for (i = 0; i < RACE_BUSY_ROUNDS; i++) {
		if (i == RACE_WARM)
			avail = avail_kb();
		fd = open_ctx(&status, 1ULL << 44);
		ASSERT_LE(0, fd);
		ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &ma));
		ASSERT_EQ(0, chan_open(fd, &c, status));
		ASSERT_EQ(0, host_alloc(fd, len, &off));
		p = map(fd, len, off);
		ASSERT_NE(MAP_FAILED, p);
		for (j = 0; j < RING / 2; j++)
			cmd_copy(&c, j & 1 ? ma.va : (uintptr_t)p + j * step,
				 j & 1 ? (uintptr_t)p + j * step : ma.va, step,
				 1, 0, 0);
		ASSERT_EQ(0, submit(&c));
		race_unmap(&race, p);
		if (wait_for(&c, RING / 2)) {
			EXPECT_EQ(EIO, errno);
			EXPECT_LE((uintptr_t)p, c.status->error_addr);
			EXPECT_GT((uintptr_t)p + len, c.status->error_addr);
			faults++;
		}
		munmap(status, page);
		close(fd);
		free(c.ring);
	}
	race_stop(&race);
	EXPECT_EQ(0, race.bad) TH_LOG("errno %d %d", race.err[0], race.err[1]);
	TH_LOG("%d of %d rounds faulted", faults, RACE_BUSY_ROUNDS);
	kept = kept_kb(avail, (RACE_BUSY_ROUNDS - RACE_WARM) * len / 1024 / 2);
	EXPECT_GT((long)((RACE_BUSY_ROUNDS - RACE_WARM) * len / 1024 / 2), kept)
		TH_LOG("%ld kB kept", kept);
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
