// SPDX-License-Identifier: GPL-2.0
/*
 * The shadow mapping of a context's device memory (VGPU_SHADOW_OFFSET):
 * its mmap() rules, loads and stores that reach the memory the engines
 * see, pages that are not the context's memory faulting, frees taking
 * pages away, no inheritance across fork(), munmap(), and two contexts
 * (in one process or two) that never see each other's memory through
 * their shadows.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
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

#define BASE (1ULL << 44)
#define WINDOW (1ULL << 32)

static sigjmp_buf touch_jmp;
static volatile sig_atomic_t touch_sig;

static void on_fault(int sig)
{
	touch_sig = sig;
	siglongjmp(touch_jmp, 1);
}

/*
 * Reads (or, @write, writes) the byte at @p: 0, or the signal that the
 * access raised (SIGBUS, SIGSEGV).
 */
static __attribute__((noinline)) int touch(volatile unsigned char *p,
					     bool write)
{
	struct sigaction sa = { .sa_handler = on_fault }, obus, osegv;

	sigaction(SIGBUS, &sa, &obus);
	sigaction(SIGSEGV, &sa, &osegv);
	touch_sig = 0;
	if (!sigsetjmp(touch_jmp, 1)) {
		if (write)
			*p = 0x77;
		else
			(void)*p;
	}
	sigaction(SIGBUS, &obus, NULL);
	sigaction(SIGSEGV, &osegv, NULL);
	return touch_sig;
}

static void *map_shadow(int fd)
{
	return mmap(NULL, WINDOW, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    VGPU_SHADOW_OFFSET);
}

static __u64 mem_alloc(int fd, __u64 size)
{
	struct vgpu_mem_alloc a = { .size = size };

	return ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &a) ? 0 : a.va;
}

static int mem_free(int fd, __u64 va)
{
	struct vgpu_mem_free f = { .va = va };

	return ioctl(fd, VGPU_IOCTL_MEM_FREE, &f);
}

/* Fills @n bytes at device address @va with @byte through channel @c. */
static int fill(struct chan *c, __u64 va, unsigned char byte, __u64 n)
{
	cmd_memset(c, va, byte, 1, n);
	if (submit(c))
		return -1;
	return wait_for(c, c->put);
}

FIXTURE(shadow) {
	int fd;
	void *status;
	struct chan c;
	unsigned char *host;	/* 1 MiB, registered */
	unsigned char *shadow;
};

FIXTURE_SETUP(shadow)
{
	struct vgpu_host_register r = { .size = MIB };

	self->fd = open_ctx(&self->status, BASE);
	ASSERT_LE(0, self->fd);
	self->host = mmap(NULL, MIB, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->host);
	r.addr = (uintptr_t)self->host;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	ASSERT_EQ(0, chan_open(self->fd, &self->c, self->status));
	self->shadow = map_shadow(self->fd);
	ASSERT_NE(MAP_FAILED, self->shadow);
}

FIXTURE_TEARDOWN(shadow)
{
	munmap(self->shadow, WINDOW);
	munmap(self->status, getpagesize());
	close(self->fd);
	munmap(self->host, MIB);
	free(self->c.ring);
}

TEST(mmap_rules)
{
	long page = getpagesize();
	void *st, *p;
	int fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, fd);
	/* No window yet: nothing to map. */
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, VGPU_SHADOW_OFFSET);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	close(fd);

	fd = open_ctx(&st, BASE);
	ASSERT_LE(0, fd);
	p = mmap(NULL, page, PROT_READ, MAP_PRIVATE, fd, VGPU_SHADOW_OFFSET);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	/* Past the window, or reaching past its end. */
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd,
		 VGPU_SHADOW_OFFSET + WINDOW);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	p = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, fd,
		 VGPU_SHADOW_OFFSET + WINDOW - page);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_EQ(EINVAL, errno);
	/* Never executable (a noexec /dev refuses it before the module). */
	p = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_SHARED, fd,
		 VGPU_SHADOW_OFFSET);
	EXPECT_EQ(MAP_FAILED, p);
	EXPECT_TRUE(errno == EINVAL || errno == EPERM);
	/* Its last page, alone, is fine; it cannot grow. */
	p = mmap(NULL, page, PROT_READ, MAP_SHARED, fd,
		 VGPU_SHADOW_OFFSET + WINDOW - page);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(MAP_FAILED, mremap(p, page, 2 * page, MREMAP_MAYMOVE));
	p = mmap(p, page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd,
		 VGPU_SHADOW_OFFSET);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(-1, mprotect(p, page, PROT_READ | PROT_EXEC));
	munmap(p, page);
	munmap(st, page);
	close(fd);
}

/* The shadow reaches the memory the engines see, both ways. */
TEST_F(shadow, loads_and_stores_reach_device_memory)
{
	__u64 va = mem_alloc(self->fd, MIB);
	unsigned char *s;
	long page = getpagesize();
	unsigned char *part;

	ASSERT_NE(0, va);
	ASSERT_EQ(0, fill(&self->c, va, 0x5a, MIB));
	s = self->shadow + (va - BASE);
	EXPECT_EQ(0x5a, s[0]);
	EXPECT_EQ(0x5a, s[MIB - 1]);
	s[100] = 0xc3;
	s[MIB - 1] = 0x3c;
	ASSERT_EQ(0, copy_wait(&self->c, (uintptr_t)self->host, va, MIB));
	EXPECT_EQ(0xc3, self->host[100]);
	EXPECT_EQ(0x3c, self->host[MIB - 1]);
	EXPECT_EQ(0x5a, self->host[101]);
	/* A mapping of part of the window sees the same memory. */
	part = mmap(NULL, page, PROT_READ, MAP_SHARED, self->fd,
		    VGPU_SHADOW_OFFSET + (va - BASE));
	ASSERT_NE(MAP_FAILED, part);
	EXPECT_EQ(0xc3, part[100]);
	munmap(part, page);
	/* The device address itself is no host address: it faults. */
	EXPECT_EQ(SIGSEGV, touch((unsigned char *)(uintptr_t)va, false));
}

/* Where the context has no memory, the shadow has no page. */
TEST_F(shadow, unbacked_pages_fault)
{
	__u64 va = mem_alloc(self->fd, MIB);

	ASSERT_NE(0, va);
	EXPECT_EQ(0, touch(self->shadow + (va - BASE), false));
	EXPECT_EQ(SIGBUS, touch(self->shadow + (va - BASE) + 2 * MIB, false));
	EXPECT_EQ(SIGBUS, touch(self->shadow + WINDOW - 1, true));
}

/* A freed allocation's pages leave the shadow at once. */
TEST_F(shadow, free_takes_pages_away)
{
	__u64 big = mem_alloc(self->fd, 4 * MIB), a, b;
	unsigned char *sa, *sb;

	ASSERT_NE(0, big);
	EXPECT_EQ(0, touch(self->shadow + (big - BASE), true));
	EXPECT_EQ(0, touch(self->shadow + (big - BASE) + 4 * MIB - 1, false));
	ASSERT_EQ(0, mem_free(self->fd, big));
	EXPECT_EQ(SIGBUS, touch(self->shadow + (big - BASE), false));
	EXPECT_EQ(SIGBUS, touch(self->shadow + (big - BASE) + 4 * MIB - 1,
				false));

	/* Two small ones share a page: the one left stays reachable. */
	a = mem_alloc(self->fd, 512);
	b = mem_alloc(self->fd, 512);
	ASSERT_NE(0, a);
	ASSERT_NE(0, b);
	ASSERT_EQ(a / 4096, b / 4096);
	sa = self->shadow + (a - BASE);
	sb = self->shadow + (b - BASE);
	sa[0] = 0x11;
	sb[0] = 0x22;
	ASSERT_EQ(0, mem_free(self->fd, a));
	EXPECT_EQ(0x22, sb[0]);
	ASSERT_EQ(0, mem_free(self->fd, b));
	EXPECT_EQ(SIGBUS, touch(sb, false));
}

/*
 * Mappings of memory objects (MEM_MAP) show in the shadow with their
 * rights: none, read (in a read-only shadow), read and write; taking
 * rights away or unmapping takes the pages away.
 */
TEST_F(shadow, mappings_follow_rights_and_unmap)
{
	struct vgpu_mem_create mc = { .size = 2 * MIB };
	struct vgpu_va_reserve vr = { .size = 2 * MIB };
	struct vgpu_mem_map mm = { .size = 2 * MIB };
	struct vgpu_mem_access ma = { .size = 2 * MIB };
	struct vgpu_mem_unmap mu = { .size = 2 * MIB };
	unsigned char *s, *ro;

	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_CREATE, &mc));
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_VA_RESERVE, &vr));
	mm.va = vr.va;
	mm.handle = mc.handle;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_MAP, &mm));
	s = self->shadow + (vr.va - BASE);
	ro = mmap(NULL, 2 * MIB, PROT_READ, MAP_SHARED, self->fd,
		  VGPU_SHADOW_OFFSET + (vr.va - BASE));
	ASSERT_NE(MAP_FAILED, ro);
	/* A new mapping has no rights yet. */
	EXPECT_EQ(SIGBUS, touch(ro, false));
	ma.va = vr.va;
	ma.prot = VGPU_PROT_READ;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_ACCESS, &ma));
	EXPECT_EQ(0, touch(ro, false));
	EXPECT_EQ(SIGBUS, touch(s, false));
	/* A read-only shadow cannot be made writable over read-only memory. */
	EXPECT_EQ(-1, mprotect(ro, 2 * MIB, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	ma.prot = VGPU_PROT_READ | VGPU_PROT_WRITE;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_ACCESS, &ma));
	EXPECT_EQ(0, touch(s, true));
	EXPECT_EQ(0x77, ro[0]);
	/* Rights taken back: the writable shadow loses the page at once. */
	ma.prot = VGPU_PROT_READ;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_ACCESS, &ma));
	EXPECT_EQ(SIGBUS, touch(s, true));
	EXPECT_EQ(0x77, ro[0]);
	mu.va = vr.va;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_UNMAP, &mu));
	EXPECT_EQ(SIGBUS, touch(ro, false));
	munmap(ro, 2 * MIB);
}

/* A child of fork() does not inherit the shadow; the parent keeps it. */
TEST_F(shadow, fork_does_not_inherit)
{
	__u64 va = mem_alloc(self->fd, MIB);
	unsigned char *s;
	int status;
	pid_t pid;

	ASSERT_NE(0, va);
	s = self->shadow + (va - BASE);
	s[0] = 0x42;
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		(void)*(volatile unsigned char *)s;
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));
	EXPECT_EQ(SIGSEGV, WTERMSIG(status));
	EXPECT_EQ(0x42, s[0]);
}

TEST_F(shadow, munmap_then_access_faults)
{
	__u64 va = mem_alloc(self->fd, MIB);
	unsigned char *s;

	ASSERT_NE(0, va);
	s = self->shadow + (va - BASE);
	EXPECT_EQ(0, touch(s, true));
	ASSERT_EQ(0, munmap(self->shadow, WINDOW));
	EXPECT_EQ(SIGSEGV, touch(s, false));
	/* Mapped again, the memory is still there. */
	self->shadow = map_shadow(self->fd);
	ASSERT_NE(MAP_FAILED, self->shadow);
	EXPECT_EQ(0x77, self->shadow[va - BASE]);
}

/*
 * Two contexts at the same device addresses, in one process: each shadow
 * shows its own context's memory only, and one's free does not take the
 * other's pages away.
 */
TEST_F(shadow, contexts_in_one_process_isolated)
{
	__u64 va = mem_alloc(self->fd, MIB), vb;
	unsigned char *sa, *sb, *shadow_b;
	static void *st;	/* not on the stack the harness longjmp()s over */
	int fd = open_ctx(&st, BASE);

	ASSERT_NE(0, va);
	ASSERT_LE(0, fd);
	vb = mem_alloc(fd, MIB);
	ASSERT_EQ(va, vb);
	shadow_b = map_shadow(fd);
	ASSERT_NE(MAP_FAILED, shadow_b);
	ASSERT_EQ(0, fill(&self->c, va, 0xaa, MIB));
	sa = self->shadow + (va - BASE);
	sb = shadow_b + (vb - BASE);
	EXPECT_EQ(0xaa, sa[0]);
	EXPECT_EQ(0, sb[0]);
	sb[0] = 0xbb;
	EXPECT_EQ(0xaa, sa[0]);
	ASSERT_EQ(0, mem_free(fd, vb));
	EXPECT_EQ(SIGBUS, touch(sb, false));
	EXPECT_EQ(0xaa, sa[0]);
	EXPECT_EQ(0xaa, sa[MIB - 1]);
	munmap(shadow_b, WINDOW);
	munmap(st, getpagesize());
	close(fd);
}

/*
 * In a child: its own context at the same addresses as the parent's,
 * whose memory at @va its shadow must show as its own (zeros), then
 * writes there. Exits with the shadow mapped. 0 when all went as said.
 */
static int other_process(__u64 va, int to_parent)
{
	unsigned char *s;
	void *st;
	int fd = open_ctx(&st, BASE);
	__u64 v = fd < 0 ? 0 : mem_alloc(fd, MIB);
	__u64 i;

	if (v != va)
		return 2;
	s = map_shadow(fd);
	if (s == MAP_FAILED)
		return 3;
	s += v - BASE;
	for (i = 0; i < MIB; i += 4096)
		if (s[i])
			return 4;
	memset(s, 0xcc, MIB);
	return write(to_parent, "w", 1) == 1 ? 0 : 5;
}

/*
 * Another process's context at the same device addresses: neither sees
 * the other's memory through its shadow, and the child exits with its
 * shadow mapped.
 */
TEST_F(shadow, processes_isolated)
{
	__u64 va = mem_alloc(self->fd, MIB);
	int to_parent[2], status;
	pid_t pid;
	char ch;

	ASSERT_NE(0, va);
	ASSERT_EQ(0, fill(&self->c, va, 0xaa, MIB));
	ASSERT_EQ(0, pipe(to_parent));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(other_process(va, to_parent[1]));
	ASSERT_EQ(1, read(to_parent[0], &ch, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0xaa, self->shadow[va - BASE]);
	EXPECT_EQ(0xaa, self->shadow[va - BASE + MIB - 1]);
	ASSERT_EQ(0, copy_wait(&self->c, (uintptr_t)self->host, va, MIB));
	EXPECT_EQ(0xaa, self->host[0]);
	EXPECT_EQ(0xaa, self->host[MIB - 1]);
	close(to_parent[0]);
	close(to_parent[1]);
}

TEST_HARNESS_MAIN
