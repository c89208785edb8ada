// SPDX-License-Identifier: GPL-2.0
/*
 * IPC: VGPU_IOCTL_IPC_EXPORT, IPC_OPEN and IPC_CLOSE. Each bad input with
 * its errno; one token per allocation; a token opened by another context
 * and by another process, which see the allocation's bytes and no other
 * bytes of its chunk; the memory outliving its exporter's free and exit
 * until the last mapping goes, while the token dies with the allocation;
 * a user other than the exporter's refused; teardown with mappings
 * outstanding (close, kill -9). Needs vgpu.ko loaded (run inside the VM).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"
#include "vgpu_chan_util.h"

#define WIN_A (1ULL << 44)
#define WIN_B ((1ULL << 44) + (1ULL << 32))

static __u64 alloc(int fd, __u64 size)
{
	struct vgpu_mem_alloc a = { .size = size };

	return ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &a) ? 0 : a.va;
}

static int mem_free(int fd, __u64 va)
{
	struct vgpu_mem_free f = { .va = va };

	return ioctl(fd, VGPU_IOCTL_MEM_FREE, &f);
}

static int ipc_export(int fd, __u64 va, __u64 *token)
{
	struct vgpu_ipc_export x = { .va = va };
	int ret = ioctl(fd, VGPU_IOCTL_IPC_EXPORT, &x);

	token[0] = x.token[0];
	token[1] = x.token[1];
	return ret;
}

static int ipc_open(int fd, const __u64 *token, __u64 *va, __u64 *size)
{
	struct vgpu_ipc_open o = { .token = { token[0], token[1] } };
	int ret = ioctl(fd, VGPU_IOCTL_IPC_OPEN, &o);

	*va = o.va;
	if (size)
		*size = o.size;
	return ret;
}

static int ipc_close(int fd, __u64 va)
{
	struct vgpu_ipc_close c = { .va = va };

	return ioctl(fd, VGPU_IOCTL_IPC_CLOSE, &c);
}

static __u64 mem_free_bytes(void)
{
	struct vgpu_info info = { 0 };
	int fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);
	__u64 ret = 0;

	if (fd >= 0 && !ioctl(fd, VGPU_IOCTL_GET_INFO, &info))
		ret = info.mem_free;
	if (fd >= 0)
		close(fd);
	return ret;
}

/* A context with a channel and a page of registered host memory. */
struct side {
	int fd;
	void *status;
	struct chan c;
	__u32 *host;
};

static int side_open(struct side *s, __u64 base)
{
	struct vgpu_host_register r = { .size = 4096 };

	s->fd = open_ctx(&s->status, base);
	if (s->fd < 0)
		return -1;
	s->host = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s->host == MAP_FAILED)
		return -1;
	r.addr = (uintptr_t)s->host;
	if (ioctl(s->fd, VGPU_IOCTL_HOST_REGISTER, &r))
		return -1;
	return chan_open(s->fd, &s->c, s->status);
}

static void side_close(struct side *s)
{
	munmap(s->status, getpagesize());
	close(s->fd);
	munmap(s->host, 4096);
	free(s->c.ring);
}

/* Copies @n bytes in @s; the channel's error afterwards (0: none). */
static __u32 copy(struct side *s, __u64 dst, __u64 src, __u64 n)
{
	return copy_wait(&s->c, dst, src, n);
}

static __u64 hva(struct side *s, unsigned int word)
{
	return (uintptr_t)(s->host + word);
}

FIXTURE(ipc) {
	struct side a, b;
};

FIXTURE_SETUP(ipc)
{
	ASSERT_EQ(0, side_open(&self->a, WIN_A));
	ASSERT_EQ(0, side_open(&self->b, WIN_B));
}

FIXTURE_TEARDOWN(ipc)
{
	side_close(&self->a);
	side_close(&self->b);
}

TEST_F(ipc, export_rules)
{
	struct vgpu_ipc_export x = { 0 };
	struct vgpu_mem_create mc = { .size = VGPU_VA_ALIGN };
	struct vgpu_va_reserve r = { .size = VGPU_VA_ALIGN };
	struct vgpu_mem_map m = { .size = VGPU_VA_ALIGN };
	__u64 va = alloc(self->a.fd, 4096), t[2], t2[2];

	ASSERT_NE(0, va);
	x.va = va;
	x.flags = 1;
	EXPECT_EQ(-1, ioctl(self->a.fd, VGPU_IOCTL_IPC_EXPORT, &x));
	EXPECT_EQ(EINVAL, errno);
	x.flags = 0;
	x.pad = 1;
	EXPECT_EQ(-1, ioctl(self->a.fd, VGPU_IOCTL_IPC_EXPORT, &x));
	EXPECT_EQ(EINVAL, errno);
	/* Nothing there, or past the allocation's end. */
	EXPECT_EQ(-1, ipc_export(self->a.fd, WIN_A - 4096, t));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ipc_export(self->a.fd, va + 4096, t));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ipc_export(self->a.fd, ~0ULL, t));
	EXPECT_EQ(EINVAL, errno);
	/* A mapping of a memory object is no allocation of MEM_ALLOC. */
	ASSERT_EQ(0, ioctl(self->a.fd, VGPU_IOCTL_MEM_CREATE, &mc));
	ASSERT_EQ(0, ioctl(self->a.fd, VGPU_IOCTL_VA_RESERVE, &r));
	m.va = r.va;
	m.handle = mc.handle;
	ASSERT_EQ(0, ioctl(self->a.fd, VGPU_IOCTL_MEM_MAP, &m));
	EXPECT_EQ(-1, ipc_export(self->a.fd, r.va, t));
	EXPECT_EQ(EINVAL, errno);

	/* One token per allocation, from any address in it. */
	ASSERT_EQ(0, ipc_export(self->a.fd, va, t));
	EXPECT_NE(0, t[0]);
	ASSERT_EQ(0, ipc_export(self->a.fd, va + 100, t2));
	EXPECT_EQ(t[0], t2[0]);
	EXPECT_EQ(t[1], t2[1]);
	ASSERT_EQ(0, ipc_export(self->a.fd, alloc(self->a.fd, 64), t2));
	EXPECT_NE(t[0], t2[0]);
}

TEST_F(ipc, open_rules)
{
	struct vgpu_ipc_open o = { 0 };
	__u64 va = alloc(self->a.fd, 8192), t[2], bad[2], got, size;
	int fd;

	ASSERT_EQ(0, ipc_export(self->a.fd, va, t));
	memcpy(o.token, t, sizeof(t));
	o.flags = 1;
	EXPECT_EQ(-1, ioctl(self->b.fd, VGPU_IOCTL_IPC_OPEN, &o));
	EXPECT_EQ(EINVAL, errno);
	o.flags = 0;
	o.pad = 1;
	EXPECT_EQ(-1, ioctl(self->b.fd, VGPU_IOCTL_IPC_OPEN, &o));
	EXPECT_EQ(EINVAL, errno);
	/* The exporter's own context. */
	EXPECT_EQ(-1, ipc_open(self->a.fd, t, &got, NULL));
	EXPECT_EQ(EINVAL, errno);
	/* Forged tokens. */
	bad[0] = 0;
	bad[1] = 0;
	EXPECT_EQ(-1, ipc_open(self->b.fd, bad, &got, NULL));
	EXPECT_EQ(ENOENT, errno);
	bad[0] = t[0];
	bad[1] = t[1] ^ 1;
	EXPECT_EQ(-1, ipc_open(self->b.fd, bad, &got, NULL));
	EXPECT_EQ(ENOENT, errno);
	bad[0] = ~0ULL;
	bad[1] = t[1];
	EXPECT_EQ(-1, ipc_open(self->b.fd, bad, &got, NULL));
	EXPECT_EQ(ENOENT, errno);
	/* A context without a window. */
	fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-1, ipc_open(fd, t, &got, NULL));
	EXPECT_EQ(EINVAL, errno);
	close(fd);

	ASSERT_EQ(0, ipc_open(self->b.fd, t, &got, &size));
	EXPECT_EQ(8192, size);
	EXPECT_TRUE(got >= WIN_B);
	/* The memory outlives the allocation; the token does not. */
	ASSERT_EQ(0, mem_free(self->a.fd, va));
	EXPECT_EQ(-1, ipc_open(self->b.fd, t, &got, NULL));
	EXPECT_EQ(ESTALE, errno);
}

TEST_F(ipc, another_device)
{
	struct vgpu_va_window w = { .base = WIN_B + (1ULL << 33),
				    .size = 1ULL << 32 };
	__u64 t[2], got, va = alloc(self->a.fd, 4096);
	int fd;

	if (access("/dev/vgpu1", F_OK))
		SKIP(return, "one device");
	ASSERT_EQ(0, ipc_export(self->a.fd, va, t));
	fd = open("/dev/vgpu1", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_SET_VA_WINDOW, &w));
	EXPECT_EQ(-1, ipc_open(fd, t, &got, NULL));
	EXPECT_EQ(EXDEV, errno);
	close(fd);
}

/* The bytes of the allocation, read and written both ways; no others. */
TEST_F(ipc, shared_bytes)
{
	__u64 before = mem_free_bytes();
	__u64 va = alloc(self->a.fd, 1000), nb = alloc(self->a.fd, 1000);
	__u64 t[2], got, size;
	struct vgpu_mem_query q = { 0 };

	ASSERT_NE(0, va);
	ASSERT_NE(0, nb);
	self->a.host[0] = 0x11111111;
	self->a.host[1] = 0x22222222;
	EXPECT_EQ(0, copy(&self->a, va + 996, hva(&self->a, 0), 4));
	EXPECT_EQ(0, copy(&self->a, nb, hva(&self->a, 1), 4));
	ASSERT_EQ(0, ipc_export(self->a.fd, va, t));
	ASSERT_EQ(0, ipc_open(self->b.fd, t, &got, &size));
	EXPECT_EQ(1000, size);
	q.va = got + 10;
	ASSERT_EQ(0, ioctl(self->b.fd, VGPU_IOCTL_MEM_QUERY, &q));
	EXPECT_EQ(got, q.base);
	EXPECT_EQ(1000, q.size);
	EXPECT_EQ(0, copy(&self->b, hva(&self->b, 0), got + 996, 4));
	EXPECT_EQ(0x11111111, self->b.host[0]);
	self->b.host[1] = 0x33333333;
	EXPECT_EQ(0, copy(&self->b, got, hva(&self->b, 1), 4));
	EXPECT_EQ(0, copy(&self->a, hva(&self->a, 2), va, 4));
	EXPECT_EQ(0x33333333, self->a.host[2]);
	/* The close fails on any other address; the mapping is not VMM's. */
	EXPECT_EQ(-1, ipc_close(self->b.fd, got + 4096));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->b.fd, VGPU_IOCTL_VA_FREE, &(struct vgpu_va_free){
		.va = got, .size = VGPU_VA_ALIGN }));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(self->b.fd, VGPU_IOCTL_MEM_UNMAP, &(struct vgpu_mem_unmap){
		.va = got, .size = VGPU_VA_ALIGN }));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, mem_free(self->b.fd, got));
	EXPECT_EQ(ENOENT, errno);
	/* Past the allocation's end, in the same chunk: a fault. */
	EXPECT_EQ(VGPU_CHAN_FAULT, copy(&self->b, hva(&self->b, 0), got + 1000, 4));

	/* Freed and closed in either order, the memory comes back. */
	EXPECT_EQ(0, mem_free(self->a.fd, va));
	EXPECT_EQ(0, mem_free(self->a.fd, nb));
	EXPECT_EQ(before - VGPU_VA_ALIGN, mem_free_bytes());
	EXPECT_EQ(0, copy(&self->a, hva(&self->a, 2), hva(&self->a, 2), 4));
	EXPECT_EQ(0, ipc_close(self->b.fd, got));
	EXPECT_EQ(-1, ipc_close(self->b.fd, got));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(before, mem_free_bytes());
}

/*
 * Another process: one running as another user is refused; one running
 * as the exporter's maps it, writes it, and is killed with the mapping
 * outstanding; the exporter's exit leaves an open mapping working.
 */
TEST(processes)
{
	__u64 before = mem_free_bytes(), t[2], va, got;
	struct side a, b;
	int status, p[2];
	pid_t pid;
	char c;

	ASSERT_EQ(0, side_open(&a, WIN_A));
	va = alloc(a.fd, 65536);
	ASSERT_NE(0, va);
	ASSERT_EQ(0, ipc_export(a.fd, va, t));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct side s;

		if (side_open(&s, WIN_B) || setresuid(65534, 65534, 65534))
			_exit(2);
		_exit(ipc_open(s.fd, t, &got, NULL) == -1 && errno == EACCES ?
		      0 : 1);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));

	ASSERT_EQ(0, pipe(p));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		struct side s;

		close(p[0]);
		if (side_open(&s, WIN_B) || ipc_open(s.fd, t, &got, NULL))
			_exit(2);
		s.host[0] = 0xc41d;
		if (copy(&s, got + 4, hva(&s, 0), 4) || write(p[1], "x", 1) != 1)
			_exit(3);
		pause();
		_exit(4);
	}
	close(p[1]);
	ASSERT_EQ(1, read(p[0], &c, 1));
	close(p[0]);
	EXPECT_EQ(0, copy(&a, hva(&a, 0), va + 4, 4));
	EXPECT_EQ(0xc41d, a.host[0]);
	EXPECT_EQ(0, kill(pid, SIGKILL));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(before - VGPU_VA_ALIGN, mem_free_bytes());

	/* The exporter goes first; the opener's mapping lives on. */
	ASSERT_EQ(0, side_open(&b, WIN_B));
	ASSERT_EQ(0, ipc_open(b.fd, t, &got, NULL));
	side_close(&a);
	EXPECT_EQ(before - VGPU_VA_ALIGN, mem_free_bytes());
	EXPECT_EQ(0, copy(&b, hva(&b, 0), got + 4, 4));
	EXPECT_EQ(0xc41d, b.host[0]);
	EXPECT_EQ(-1, ipc_open(b.fd, t, &got, NULL));
	EXPECT_EQ(ESTALE, errno);
	side_close(&b);
	EXPECT_EQ(before, mem_free_bytes());
}

TEST_HARNESS_MAIN
