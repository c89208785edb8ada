// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual memory management: MEM_CREATE, MEM_RELEASE, VA_RESERVE,
 * VA_FREE, MEM_MAP, MEM_UNMAP, MEM_ACCESS, MEM_EXPORT and MEM_IMPORT.
 * Each bad input with its errno; reservations kept out of MEM_ALLOC's
 * way; access rights enforced by the copy engines and by kernels; one
 * object seen through two mappings, two contexts and another process;
 * and an object's memory charged to the device until its last handle,
 * mapping and dma-buf are gone, whatever order they go in (release,
 * close, kill -9). Needs vgpu.ko loaded (run inside the VM).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"
#include "tests/isa_build.h"
#include "vgpu_chan_util.h"

#define WIN_BASE (1ULL << 44)
#define WIN_SIZE (1ULL << 32)
#define G VGPU_VA_ALIGN

static int mem_create(int fd, __u64 size, __u32 *handle)
{
	struct vgpu_mem_create c = { .size = size };
	int ret = ioctl(fd, VGPU_IOCTL_MEM_CREATE, &c);

	*handle = c.handle;
	return ret;
}

static int mem_release(int fd, __u32 handle)
{
	struct vgpu_mem_release r = { .handle = handle };

	return ioctl(fd, VGPU_IOCTL_MEM_RELEASE, &r);
}

static int reserve(int fd, __u64 hint, __u64 size, __u64 align, __u64 *va)
{
	struct vgpu_va_reserve r = { .va = hint, .size = size, .align = align };
	int ret = ioctl(fd, VGPU_IOCTL_VA_RESERVE, &r);

	*va = r.va;
	return ret;
}

static int va_free(int fd, __u64 va, __u64 size)
{
	struct vgpu_va_free f = { .va = va, .size = size };

	return ioctl(fd, VGPU_IOCTL_VA_FREE, &f);
}

static int map(int fd, __u64 va, __u64 size, __u64 offset, __u32 handle)
{
	struct vgpu_mem_map m = {
		.va = va, .size = size, .offset = offset, .handle = handle,
	};

	return ioctl(fd, VGPU_IOCTL_MEM_MAP, &m);
}

static int unmap(int fd, __u64 va, __u64 size)
{
	struct vgpu_mem_unmap u = { .va = va, .size = size };

	return ioctl(fd, VGPU_IOCTL_MEM_UNMAP, &u);
}

static int access_set(int fd, __u64 va, __u64 size, __u32 prot)
{
	struct vgpu_mem_access a = { .va = va, .size = size, .prot = prot };

	return ioctl(fd, VGPU_IOCTL_MEM_ACCESS, &a);
}

static int export_fd(int fd, __u32 handle)
{
	struct vgpu_mem_export e = { .handle = handle };

	return ioctl(fd, VGPU_IOCTL_MEM_EXPORT, &e) ? -1 : e.fd;
}

static int import_fd(int fd, int buf, __u32 *handle, __u64 *size)
{
	struct vgpu_mem_import im = { .fd = buf };
	int ret = ioctl(fd, VGPU_IOCTL_MEM_IMPORT, &im);

	*handle = im.handle;
	if (size)
		*size = im.size;
	return ret;
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

/* Param: p. *(u32 *)p = 7. */
static const struct vgpu_insn put7[] = {
	LDP(VGPU_T_U64, 0, 0),
	MOVI(VGPU_T_U32, 1, 7),
	ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 0, 1),
	EXIT(),
};

static const struct vgpu_func put7_func = { .nregs = 2, .param_bytes = 8 };

/* A context with a channel and 64 KiB of registered host memory. */
FIXTURE(vmm) {
	int fd;
	void *status;
	struct chan c;
	__u32 *host;
	__u64 hva;
};

FIXTURE_SETUP(vmm)
{
	struct vgpu_host_register r = { .size = 65536 };

	self->fd = open_ctx(&self->status, WIN_BASE);
	ASSERT_LE(0, self->fd);
	self->host = mmap(NULL, 65536, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->host);
	r.addr = (uintptr_t)self->host;
	self->hva = r.addr;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_HOST_REGISTER, &r));
	ASSERT_EQ(0, chan_open(self->fd, &self->c, self->status));
}

FIXTURE_TEARDOWN(vmm)
{
	munmap(self->status, getpagesize());
	close(self->fd);
	munmap(self->host, 65536);
	free(self->c.ring);
}

TEST(create_rules)
{
	struct vgpu_mem_create c = { .size = G };
	struct vgpu_mem_release r = { .flags = 1 };
	struct vgpu_info info = { 0 };
	__u64 before = mem_free_bytes();
	void *status;
	__u32 h, h2;
	int fd = open_ctx(&status, WIN_BASE);

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_GET_INFO, &info));
	c.flags = 1;
	EXPECT_EQ(-1, ioctl(fd, VGPU_IOCTL_MEM_CREATE, &c));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, mem_create(fd, 0, &h));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, mem_create(fd, G + 4096, &h));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, mem_create(fd, info.mem_size + G, &h));
	EXPECT_EQ(ENOMEM, errno);
	EXPECT_EQ(-1, mem_create(fd, ~0ULL - G + 1, &h));
	EXPECT_EQ(ENOMEM, errno);
	EXPECT_EQ(before, mem_free_bytes());

	ASSERT_EQ(0, mem_create(fd, 2 * G, &h));
	EXPECT_NE(0, h);
	ASSERT_EQ(0, mem_create(fd, G, &h2));
	EXPECT_NE(h, h2);
	EXPECT_EQ(before - 3 * G, mem_free_bytes());
	EXPECT_EQ(0, mem_release(fd, h));
	EXPECT_EQ(-1, mem_release(fd, h));
	EXPECT_EQ(ENOENT, errno);
	EXPECT_EQ(-1, mem_release(fd, 12345));
	EXPECT_EQ(ENOENT, errno);
	r.handle = h2;
	EXPECT_EQ(-1, ioctl(fd, VGPU_IOCTL_MEM_RELEASE, &r));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(before - G, mem_free_bytes());
	/* Closing the context lets go of the handles it still has. */
	close(fd);
	munmap(status, getpagesize());
	EXPECT_EQ(before, mem_free_bytes());
}

TEST(reserve_rules)
{
	struct vgpu_va_reserve r = { .size = G };
	struct vgpu_mem_alloc a = { .size = 4 * G };
	__u64 va, vb;
	void *status;
	int fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);

	ASSERT_LE(0, fd);
	/* No window yet. */
	EXPECT_EQ(-1, reserve(fd, 0, G, 0, &va));
	EXPECT_EQ(EINVAL, errno);
	close(fd);

	fd = open_ctx(&status, WIN_BASE);
	ASSERT_LE(0, fd);
	r.flags = 1;
	EXPECT_EQ(-1, ioctl(fd, VGPU_IOCTL_VA_RESERVE, &r));
	EXPECT_EQ(EINVAL, errno);
	r.flags = 0;
	r.pad = 1;
	EXPECT_EQ(-1, ioctl(fd, VGPU_IOCTL_VA_RESERVE, &r));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, reserve(fd, 0, 0, 0, &va));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, reserve(fd, 0, G + 4096, 0, &va));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, reserve(fd, 0, G, 3 * G, &va));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, reserve(fd, 0, G, 1ULL << 43, &va));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, reserve(fd, WIN_BASE + 4096, G, 0, &va));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, reserve(fd, 0, ~0ULL - G + 1, 0, &va));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(-1, reserve(fd, 0, 2 * WIN_SIZE, 0, &va));
	EXPECT_EQ(ENOSPC, errno);

	/* A free hint is taken; a taken one is not. */
	ASSERT_EQ(0, reserve(fd, WIN_BASE + 8 * G, 2 * G, 0, &va));
	EXPECT_EQ(WIN_BASE + 8 * G, va);
	ASSERT_EQ(0, reserve(fd, WIN_BASE + 9 * G, G, 0, &vb));
	EXPECT_NE(WIN_BASE + 9 * G, vb);
	EXPECT_TRUE(vb + G <= va || vb >= va + 2 * G);
	EXPECT_EQ(0, va_free(fd, vb, G));
	/* A hint outside the window is no hint. */
	ASSERT_EQ(0, reserve(fd, WIN_BASE + 2 * WIN_SIZE, G, 0, &vb));
	EXPECT_TRUE(vb >= WIN_BASE && vb + G <= WIN_BASE + WIN_SIZE);
	EXPECT_EQ(0, va_free(fd, vb, G));
	/* Alignment. */
	ASSERT_EQ(0, reserve(fd, 0, G, 1ULL << 30, &vb));
	EXPECT_EQ(0, vb % (1ULL << 30));
	EXPECT_EQ(0, va_free(fd, vb, G));

	/* MEM_ALLOC stays out of it. */
	EXPECT_EQ(0, va_free(fd, va, 2 * G));
	ASSERT_EQ(0, reserve(fd, WIN_BASE, WIN_SIZE - 4 * G, 0, &va));
	EXPECT_EQ(WIN_BASE, va);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &a));
	EXPECT_EQ(WIN_BASE + WIN_SIZE - 4 * G, a.va);
	a.size = G;
	EXPECT_EQ(-1, ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &a));
	EXPECT_EQ(ENOSPC, errno);
	EXPECT_EQ(-1, reserve(fd, 0, G, 0, &vb));
	EXPECT_EQ(ENOSPC, errno);

	/* VA_FREE takes exactly a reservation. */
	EXPECT_EQ(-1, va_free(fd, va, G));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, va_free(fd, va + G, WIN_SIZE - 5 * G));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, va_free(fd, a.va, 4 * G));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, va_free(fd, va, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, va_free(fd, va, WIN_SIZE - 4 * G));
	EXPECT_EQ(-1, va_free(fd, va, WIN_SIZE - 4 * G));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	munmap(status, getpagesize());
}

TEST_F(vmm, map_rules)
{
	struct vgpu_mem_alloc a = { .size = 4 * G };
	struct vgpu_mem_query q = { 0 };
	struct vgpu_mem_free f = { 0 };
	struct vgpu_mem_map m = { .size = G };
	__u64 va;
	__u32 h;

	ASSERT_EQ(0, mem_create(self->fd, 2 * G, &h));
	ASSERT_EQ(0, reserve(self->fd, 0, 4 * G, 0, &va));
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_ALLOC, &a));

	m.va = va;
	m.handle = h;
	m.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_MAP, &m));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, map(self->fd, va + 4096, G, 0, h));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, map(self->fd, va, 4096, 0, h));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, map(self->fd, va, 0, 0, h));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, map(self->fd, va, G, 4096, h));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, map(self->fd, va, 2 * G, G, h));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, map(self->fd, va, G, ~0ULL - G + 1, h));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, map(self->fd, va, 4 * G, 0, h));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, map(self->fd, va, G, 0, h + 100));
	EXPECT_EQ(ENOENT, errno);
	/* Outside a reservation, over an allocation, past the end. */
	EXPECT_EQ(-1, map(self->fd, va + 64 * G, G, 0, h));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, map(self->fd, a.va, G, 0, h));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, map(self->fd, va + 3 * G, 2 * G, 0, h));
	EXPECT_EQ(EINVAL, errno);

	ASSERT_EQ(0, map(self->fd, va, 2 * G, 0, h));
	EXPECT_EQ(-1, map(self->fd, va + G, G, G, h));
	EXPECT_EQ(EEXIST, errno);
	/* The same object again, its second half, elsewhere. */
	EXPECT_EQ(0, map(self->fd, va + 3 * G, G, G, h));
	/* MEM_QUERY sees a mapping; MEM_FREE does not. */
	q.va = va + G + 5;
	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MEM_QUERY, &q));
	EXPECT_EQ(va, q.base);
	EXPECT_EQ(2 * G, q.size);
	q.va = va + 2 * G;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_QUERY, &q));
	EXPECT_EQ(ENOENT, errno);
	f.va = va;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_FREE, &f));
	EXPECT_EQ(ENOENT, errno);
	/* A reservation with mappings stays. */
	EXPECT_EQ(-1, va_free(self->fd, va, 4 * G));
	EXPECT_EQ(EBUSY, errno);
}

TEST_F(vmm, unmap_rules)
{
	struct vgpu_mem_unmap u = { .size = G };
	__u64 va;
	__u32 h;

	ASSERT_EQ(0, mem_create(self->fd, 2 * G, &h));
	ASSERT_EQ(0, reserve(self->fd, 0, 8 * G, 0, &va));
	ASSERT_EQ(0, map(self->fd, va, 2 * G, 0, h));
	ASSERT_EQ(0, map(self->fd, va + 4 * G, G, 0, h));
	ASSERT_EQ(0, map(self->fd, va + 5 * G, G, G, h));

	u.va = va;
	u.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_UNMAP, &u));
	EXPECT_EQ(EINVAL, errno);
	u.flags = 0;
	u.pad = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_UNMAP, &u));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, unmap(self->fd, va, 4096));
	EXPECT_EQ(EINVAL, errno);
	/* Part of a mapping, or a range that cuts one. */
	EXPECT_EQ(-1, unmap(self->fd, va, G));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, unmap(self->fd, va + G, 2 * G));
	EXPECT_EQ(EINVAL, errno);
	/* Beyond the reservation. */
	EXPECT_EQ(-1, unmap(self->fd, va + 6 * G, 4 * G));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, unmap(self->fd, va + 64 * G, G));
	EXPECT_EQ(EINVAL, errno);
	/* Nothing mapped there: not an error. */
	EXPECT_EQ(0, unmap(self->fd, va + 2 * G, 2 * G));
	/* Two mappings and a gap at once. */
	EXPECT_EQ(0, unmap(self->fd, va + 3 * G, 5 * G));
	EXPECT_EQ(0, map(self->fd, va + 4 * G, G, 0, h));
	EXPECT_EQ(0, unmap(self->fd, va, 8 * G));
	EXPECT_EQ(0, va_free(self->fd, va, 8 * G));
}

TEST_F(vmm, access_rules)
{
	struct vgpu_mem_access a = { .size = G, .prot = VGPU_PROT_READ };
	__u64 va;
	__u32 h;

	ASSERT_EQ(0, mem_create(self->fd, G, &h));
	ASSERT_EQ(0, reserve(self->fd, 0, 4 * G, 0, &va));
	ASSERT_EQ(0, map(self->fd, va, G, 0, h));
	ASSERT_EQ(0, map(self->fd, va + G, G, 0, h));
	a.va = va;
	/* An unknown flag; VGPU_ACCESS_ALLOC without VGPU_ACCESS_DEVICE. */
	a.flags = 4;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_ACCESS, &a));
	EXPECT_EQ(EINVAL, errno);
	a.flags = VGPU_ACCESS_ALLOC;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_ACCESS, &a));
	EXPECT_EQ(EINVAL, errno);
	a.flags = 0;
	EXPECT_EQ(-1, access_set(self->fd, va, G, VGPU_PROT_WRITE));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, access_set(self->fd, va, G, 4));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, access_set(self->fd, va, 4096, VGPU_PROT_READ));
	EXPECT_EQ(EINVAL, errno);
	/* Partly mapped, or not at all. */
	EXPECT_EQ(-1, access_set(self->fd, va, 3 * G, VGPU_PROT_READ));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, access_set(self->fd, va + 2 * G, G, VGPU_PROT_READ));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, access_set(self->fd, va + 64 * G, G, VGPU_PROT_READ));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, access_set(self->fd, va, 2 * G,
				VGPU_PROT_READ | VGPU_PROT_WRITE));
	EXPECT_EQ(0, access_set(self->fd, va + G, G, 0));
}

/* Without rights a copy faults; reading needs READ, writing WRITE too. */
TEST_F(vmm, copies_obey_rights)
{
	__u64 va;
	__u32 h;

	ASSERT_EQ(0, mem_create(self->fd, G, &h));
	ASSERT_EQ(0, reserve(self->fd, 0, 2 * G, 0, &va));
	ASSERT_EQ(0, map(self->fd, va, G, 0, h));
	ASSERT_EQ(0, map(self->fd, va + G, G, 0, h));
	ASSERT_EQ(0, access_set(self->fd, va, 2 * G,
				VGPU_PROT_READ | VGPU_PROT_WRITE));
	/* Reads as zero; written through one mapping, read through both. */
	self->host[0] = 0xdead;
	EXPECT_EQ(0, copy_wait(&self->c, self->hva, va + 100, 4));
	EXPECT_EQ(0, self->host[0]);
	self->host[1] = 0xabcd1234;
	EXPECT_EQ(0, copy_wait(&self->c, va + 100, self->hva + 4, 4));
	EXPECT_EQ(0, copy_wait(&self->c, self->hva + 8, va + G + 100, 4));
	EXPECT_EQ(0xabcd1234, self->host[2]);
	/* One copy across both mappings. */
	memset(self->host, 0x11, 64);
	EXPECT_EQ(0, copy_wait(&self->c, va + G - 32, self->hva, 64));
	memset(self->host + 64, 0, 64);
	EXPECT_EQ(0, copy_wait(&self->c, self->hva + 256, va + G - 32, 64));
	EXPECT_EQ(0, memcmp(self->host, self->host + 64, 64));

	/* Read only: reading works, writing faults. */
	ASSERT_EQ(0, access_set(self->fd, va, G, VGPU_PROT_READ));
	EXPECT_EQ(0, copy_wait(&self->c, self->hva + 8, va + 100, 4));
	EXPECT_EQ(VGPU_CHAN_FAULT, copy_wait(&self->c, va + 100, self->hva, 4));
	EXPECT_EQ(va + 100, self->c.status->error_addr);
}

TEST_F(vmm, no_rights_no_read)
{
	__u64 va;
	__u32 h;

	ASSERT_EQ(0, mem_create(self->fd, G, &h));
	ASSERT_EQ(0, reserve(self->fd, 0, G, 0, &va));
	ASSERT_EQ(0, map(self->fd, va, G, 0, h));
	EXPECT_EQ(VGPU_CHAN_FAULT, copy_wait(&self->c, self->hva, va + 8, 4));
	EXPECT_EQ(va + 8, self->c.status->error_addr);
}

/* A semaphore in a read-only mapping: waited on, yes; released, no. */
TEST_F(vmm, semaphores_obey_rights)
{
	struct vgpu_cmd *cmd;
	__u64 va;
	__u32 h;

	ASSERT_EQ(0, mem_create(self->fd, G, &h));
	ASSERT_EQ(0, reserve(self->fd, 0, G, 0, &va));
	ASSERT_EQ(0, map(self->fd, va, G, 0, h));
	ASSERT_EQ(0, access_set(self->fd, va, G, VGPU_PROT_READ));
	cmd = slot(&self->c);
	cmd->op = VGPU_CMD_SEM_ACQUIRE;
	cmd->flags = VGPU_SEM_32 | VGPU_SEM_GEQ;
	cmd->sem.addr = va + 64;
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(0, wait_for(&self->c, self->c.put));
	EXPECT_EQ(0, self->c.status->error);
	cmd = slot(&self->c);
	cmd->op = VGPU_CMD_SEM_RELEASE;
	cmd->flags = VGPU_SEM_32;
	cmd->sem.addr = va + 64;
	cmd->sem.value = 1;
	ASSERT_EQ(0, submit(&self->c));
	EXPECT_EQ(-1, wait_for(&self->c, self->c.put));
	EXPECT_EQ(VGPU_CHAN_FAULT, self->c.status->error);
	EXPECT_EQ(va + 64, self->c.status->error_addr);
}

/* A kernel's store to a read-only mapping faults; to a writable one not. */
TEST_F(vmm, kernels_obey_rights)
{
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)put7, .funcs = (uintptr_t)&put7_func,
		.ninsns = sizeof(put7) / sizeof(put7[0]), .nfuncs = 1,
	};
	struct vgpu_cmd *cmd;
	__u64 va, *params = (__u64 *)(self->host + 1024);
	int i;

	ASSERT_EQ(0, ioctl(self->fd, VGPU_IOCTL_MODULE_LOAD, &ml));
	ASSERT_EQ(0, mem_create(self->fd, G, &(__u32){ 0 }));
	ASSERT_EQ(0, reserve(self->fd, 0, G, 0, &va));
	ASSERT_EQ(0, map(self->fd, va, G, 0, 1));
	for (i = 0; i < 2; i++) {
		ASSERT_EQ(0, access_set(self->fd, va, G, i ? VGPU_PROT_READ :
					VGPU_PROT_READ | VGPU_PROT_WRITE));
		params[0] = va + 64;
		cmd = slot(&self->c);
		cmd->op = VGPU_CMD_LAUNCH;
		cmd->launch.module = ml.handle;
		cmd->launch.grid[0] = cmd->launch.grid[1] = cmd->launch.grid[2] = 1;
		cmd->launch.block[0] = cmd->launch.block[1] = 1;
		cmd->launch.block[2] = 1;
		cmd->launch.params = (uintptr_t)params;
		cmd->launch.param_bytes = 8;
		ASSERT_EQ(0, submit(&self->c));
		EXPECT_EQ(i ? -1 : 0, wait_for(&self->c, self->c.put));
		EXPECT_EQ(i ? VGPU_CHAN_LAUNCH_FAULT : 0, self->c.status->error);
		if (!i) {
			EXPECT_EQ(0, copy_wait(&self->c, self->hva, va + 64, 4));
			EXPECT_EQ(7, self->host[0]);
		}
	}
}

TEST_F(vmm, export_import)
{
	struct vgpu_mem_export e = { 0 };
	struct vgpu_mem_import im = { 0 };
	struct vgpu_host_register r = { .size = 4096 };
	struct chan c2;
	void *status2;
	__u64 va, va2, size;
	__u32 h, h2, h3;
	int buf, fd2, nul;

	ASSERT_EQ(0, mem_create(self->fd, 2 * G, &h));
	e.handle = h + 100;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_EXPORT, &e));
	EXPECT_EQ(ENOENT, errno);
	e.handle = h;
	e.flags = 1;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_EXPORT, &e));
	EXPECT_EQ(EINVAL, errno);
	buf = export_fd(self->fd, h);
	ASSERT_LE(0, buf);
	EXPECT_EQ(FD_CLOEXEC, fcntl(buf, F_GETFD) & FD_CLOEXEC);

	im.fd = buf;
	im.flags = 2;
	EXPECT_EQ(-1, ioctl(self->fd, VGPU_IOCTL_MEM_IMPORT, &im));
	EXPECT_EQ(EINVAL, errno);
	nul = open("/dev/null", O_RDWR);
	ASSERT_LE(0, nul);
	EXPECT_EQ(-1, import_fd(self->fd, nul, &h2, NULL));
	EXPECT_EQ(EINVAL, errno);
	close(nul);
	EXPECT_EQ(-1, import_fd(self->fd, 1000, &h2, NULL));
	EXPECT_EQ(EBADF, errno);

	/* Another context of the device imports it. */
	fd2 = open_ctx(&status2, WIN_BASE + WIN_SIZE);
	ASSERT_LE(0, fd2);
	ASSERT_EQ(0, import_fd(fd2, buf, &h2, &size));
	EXPECT_EQ(2 * G, size);
	/* And this one again: a second handle of the same object. */
	ASSERT_EQ(0, import_fd(self->fd, buf, &h3, NULL));
	EXPECT_NE(h, h3);

	ASSERT_EQ(0, reserve(self->fd, 0, 2 * G, 0, &va));
	ASSERT_EQ(0, map(self->fd, va, G, G, h3));
	ASSERT_EQ(0, access_set(self->fd, va, G,
				VGPU_PROT_READ | VGPU_PROT_WRITE));
	self->host[0] = 0x600d;
	EXPECT_EQ(0, copy_wait(&self->c, va + 12, self->hva, 4));
	ASSERT_EQ(0, reserve(fd2, 0, 2 * G, 0, &va2));
	EXPECT_TRUE(va2 >= WIN_BASE + WIN_SIZE);
	ASSERT_EQ(0, map(fd2, va2, 2 * G, 0, h2));
	ASSERT_EQ(0, access_set(fd2, va2, 2 * G, VGPU_PROT_READ));
	r.addr = self->hva + 32768;
	ASSERT_EQ(0, ioctl(fd2, VGPU_IOCTL_HOST_REGISTER, &r));
	ASSERT_EQ(0, chan_open(fd2, &c2, status2));
	EXPECT_EQ(0, copy_wait(&c2, r.addr, va2 + G + 12, 4));
	EXPECT_EQ(0x600d, self->host[8192]);
	free(c2.ring);
	close(buf);
	close(fd2);
	munmap(status2, getpagesize());
}

/* A dma-buf of another device's memory is refused. */
TEST(import_other_device)
{
	void *status;
	int fd = open_ctx(&status, WIN_BASE), fd1, buf;
	__u32 h, h1;

	ASSERT_LE(0, fd);
	fd1 = open("/dev/vgpu1", O_RDWR | O_CLOEXEC);
	if (fd1 < 0)
		SKIP(close(fd); return, "one device");
	ASSERT_EQ(0, mem_create(fd, G, &h));
	buf = export_fd(fd, h);
	ASSERT_LE(0, buf);
	EXPECT_EQ(-1, import_fd(fd1, buf, &h1, NULL));
	EXPECT_EQ(EXDEV, errno);
	close(buf);
	close(fd1);
	close(fd);
}

/* The memory lives until the last handle, mapping and dma-buf goes. */
TEST_F(vmm, lifetime)
{
	__u64 before = mem_free_bytes(), va;
	__u32 h;
	int buf;

	ASSERT_EQ(0, mem_create(self->fd, G, &h));
	ASSERT_EQ(0, reserve(self->fd, 0, G, 0, &va));
	ASSERT_EQ(0, map(self->fd, va, G, 0, h));
	ASSERT_EQ(0, access_set(self->fd, va, G,
				VGPU_PROT_READ | VGPU_PROT_WRITE));
	self->host[0] = 0x1234;
	EXPECT_EQ(0, copy_wait(&self->c, va, self->hva, 4));
	buf = export_fd(self->fd, h);
	ASSERT_LE(0, buf);
	/* Released while mapped and exported: still there. */
	EXPECT_EQ(0, mem_release(self->fd, h));
	EXPECT_EQ(0, copy_wait(&self->c, self->hva + 4, va, 4));
	EXPECT_EQ(0x1234, self->host[1]);
	EXPECT_EQ(before - G, mem_free_bytes());
	EXPECT_EQ(0, unmap(self->fd, va, G));
	EXPECT_EQ(before - G, mem_free_bytes());
	/* The dma-buf was the last hold; importing it again finds it. */
	ASSERT_EQ(0, import_fd(self->fd, buf, &h, NULL));
	EXPECT_EQ(0, map(self->fd, va, G, 0, h));
	EXPECT_EQ(0, access_set(self->fd, va, G, VGPU_PROT_READ));
	self->host[1] = 0;
	EXPECT_EQ(0, copy_wait(&self->c, self->hva + 4, va, 4));
	EXPECT_EQ(0x1234, self->host[1]);
	EXPECT_EQ(0, mem_release(self->fd, h));
	EXPECT_EQ(0, unmap(self->fd, va, G));
	EXPECT_EQ(before - G, mem_free_bytes());
	close(buf);
	EXPECT_EQ(before, mem_free_bytes());
}

/* Sends descriptor @fd over the socket @sock. */
static int send_fd(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, byte = 0;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/*
 * A child's context with four objects, each mapped twice and given
 * rights, the last one exported to the parent; then it forks (the
 * grandchild holds the same file) and both wait to be killed, or, with
 * @quit, just exit with everything outstanding.
 */
static void child_work(int sock, bool quit)
{
	void *status;
	__u64 va;
	__u32 h = 0;
	int fd = open_ctx(&status, WIN_BASE), buf, i;

	if (fd < 0)
		_exit(1);
	for (i = 0; i < 4; i++) {
		if (mem_create(fd, 2 * G, &h) ||
		    reserve(fd, 0, 4 * G, 0, &va) ||
		    map(fd, va, 2 * G, 0, h) ||
		    map(fd, va + 2 * G, 2 * G, 0, h) ||
		    access_set(fd, va, 4 * G, VGPU_PROT_READ | VGPU_PROT_WRITE))
			_exit(2);
	}
	buf = export_fd(fd, h);
	if (buf < 0 || send_fd(sock, buf))
		_exit(3);
	if (quit)
		_exit(0);
	if (fork() == 0)
		pause();
	pause();
	_exit(4);
}

TEST(teardown)
{
	__u64 before = mem_free_bytes();
	int sv[2], buf, status, mode;
	pid_t pid;

	/* Orphaned grandchildren come to this process, which reaps them. */
	ASSERT_EQ(0, prctl(PR_SET_CHILD_SUBREAPER, 1));
	for (mode = 0; mode < 2; mode++) {
		ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			setpgid(0, 0);
			close(sv[0]);
			child_work(sv[1], mode);
		}
		close(sv[1]);
		buf = recv_fd(sv[0]);
		close(sv[0]);
		ASSERT_LE(0, buf);
		if (!mode) {
			EXPECT_EQ(before - 8 * G, mem_free_bytes());
			/* The child may not have forked yet: wait for it. */
			usleep(200000);
			EXPECT_EQ(0, kill(-pid, SIGKILL));
		}
		while (waitpid(-1, &status, 0) > 0)
			;
		/* The dma-buf holds one object; the others are gone. */
		EXPECT_EQ(before - 2 * G, mem_free_bytes());
		close(buf);
		EXPECT_EQ(before, mem_free_bytes());
	}
}

TEST_HARNESS_MAIN
