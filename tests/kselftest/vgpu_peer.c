// SPDX-License-Identifier: GPL-2.0
/*
 * Peers: VGPU_IOCTL_PEER_SET. Each bad input with its errno; copies
 * between two devices' memory run by one context's engine once it links
 * to the other (and fault before); a kernel reaching a peer's memory only
 * while VGPU_PEER_ACCESS is set; links both ways; the peer freeing memory
 * while linked, under copies that read the peer; teardown with links
 * outstanding (close in either order, exit) leaves both devices' memory
 * at baseline; mappings (MEM_MAP) reached by another device with the
 * rights MEM_ACCESS gives that device, whatever the link's access.
 * Needs vgpu.ko loaded with two devices (inside the VM).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tests/isa_build.h"
#include "uapi/vgpu.h"
#include "vgpu_chan_util.h"

#define WIN_A (1ULL << 44)
#define WIN_B ((1ULL << 44) + (1ULL << 32))
#define HOST_BYTES (8 * MIB)

/* A context of /dev/vgpu@dev with its window at @base (0: none). */
static int open_dev(int dev, __u64 base, void **status)
{
	struct vgpu_va_window w = { .base = base, .size = 1ULL << 32 };
	char path[32];
	int fd;

	snprintf(path, sizeof(path), "/dev/vgpu%d", dev);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 || !base)
		return fd;
	if (ioctl(fd, VGPU_IOCTL_SET_VA_WINDOW, &w))
		return -1;
	*status = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	return *status == MAP_FAILED ? -1 : fd;
}

static int peer_set(int fd, int peer, __u32 flags)
{
	struct vgpu_peer_set s = { .fd = peer, .flags = flags };

	return ioctl(fd, VGPU_IOCTL_PEER_SET, &s);
}

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

static __u64 mem_free_bytes(int dev)
{
	struct vgpu_info info = { 0 };
	int fd = open_dev(dev, 0, NULL);
	__u64 ret = 0;

	if (fd >= 0 && !ioctl(fd, VGPU_IOCTL_GET_INFO, &info))
		ret = info.mem_free;
	if (fd >= 0)
		close(fd);
	return ret;
}

static bool two_devices(void)
{
	return access("/dev/vgpu1", F_OK) == 0;
}

/* Param: p. *(u32 *)p = 7. */
static const struct vgpu_insn put7[] = {
	LDP(VGPU_T_U64, 0, 0),
	MOVI(VGPU_T_U32, 1, 7),
	ST(VGPU_SPACE_GLOBAL, VGPU_T_U32, 0, 0, 1),
	EXIT(),
};

static const struct vgpu_func put7_func = { .nregs = 2, .param_bytes = 8 };

/*
 * Context a on device 0 and b on device 1, each with a channel and
 * registered host memory.
 */
FIXTURE(peer) {
	int a, b;
	void *sa, *sb;
	struct chan ca, cb;
	unsigned char *host;
	__u64 hva;
	__u64 free0, free1;
};

FIXTURE_SETUP(peer)
{
	struct vgpu_host_register r = { .size = HOST_BYTES };

	if (!two_devices())
		SKIP(return, "needs vgpu.ko with num_devices=2");
	self->free0 = mem_free_bytes(0);
	self->free1 = mem_free_bytes(1);
	self->a = open_dev(0, WIN_A, &self->sa);
	self->b = open_dev(1, WIN_B, &self->sb);
	ASSERT_LE(0, self->a);
	ASSERT_LE(0, self->b);
	self->host = mmap(NULL, HOST_BYTES, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->host);
	r.addr = (uintptr_t)self->host;
	self->hva = r.addr;
	ASSERT_EQ(0, ioctl(self->a, VGPU_IOCTL_HOST_REGISTER, &r));
	ASSERT_EQ(0, ioctl(self->b, VGPU_IOCTL_HOST_REGISTER, &r));
	ASSERT_EQ(0, chan_open(self->a, &self->ca, self->sa));
	ASSERT_EQ(0, chan_open(self->b, &self->cb, self->sb));
}

FIXTURE_TEARDOWN(peer)
{
	if (!two_devices())
		return;
	munmap(self->sa, 4096);
	munmap(self->sb, 4096);
	close(self->a);
	close(self->b);
	munmap(self->host, HOST_BYTES);
	free(self->ca.ring);
	free(self->cb.ring);
	/* Whatever the test left linked and allocated is gone. */
	EXPECT_EQ(self->free0, mem_free_bytes(0));
	EXPECT_EQ(self->free1, mem_free_bytes(1));
}

TEST(set_rules)
{
	int a, b, null, fds[VGPU_MAX_PEERS], i, status;
	pid_t pid;

	if (!two_devices())
		SKIP(return, "needs vgpu.ko with num_devices=2");
	a = open_dev(0, 0, NULL);
	b = open_dev(1, 0, NULL);
	null = open("/dev/null", O_RDONLY);
	ASSERT_LE(0, a);
	ASSERT_LE(0, b);
	ASSERT_LE(0, null);

	EXPECT_EQ(-1, peer_set(a, -1, 0));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(-1, peer_set(a, 1000, 0));
	EXPECT_EQ(EBADF, errno);
	EXPECT_EQ(-1, peer_set(a, null, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, peer_set(a, a, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, peer_set(a, b, 2));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, peer_set(a, b, ~0u));
	EXPECT_EQ(EINVAL, errno);
	/* Setting again only changes access; either way round. */
	EXPECT_EQ(0, peer_set(a, b, 0));
	EXPECT_EQ(0, peer_set(a, b, VGPU_PEER_ACCESS));
	EXPECT_EQ(0, peer_set(a, b, 0));
	EXPECT_EQ(0, peer_set(b, a, VGPU_PEER_ACCESS));

	/* Another process's context: its addresses are not ours. */
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		int mine = open_dev(1, 0, NULL);

		if (mine < 0)
			_exit(2);
		if (peer_set(mine, a, 0) != -1 || errno != EINVAL)
			_exit(3);
		if (peer_set(a, mine, 0) != -1 || errno != EINVAL)
			_exit(4);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));

	/* Links are bounded; b is one already. */
	for (i = 0; i < VGPU_MAX_PEERS; i++) {
		fds[i] = open_dev(i & 1, 0, NULL);
		ASSERT_LE(0, fds[i]);
	}
	for (i = 0; i < VGPU_MAX_PEERS - 1; i++)
		EXPECT_EQ(0, peer_set(a, fds[i], i & 1 ? VGPU_PEER_ACCESS : 0));
	EXPECT_EQ(-1, peer_set(a, fds[VGPU_MAX_PEERS - 1], 0));
	EXPECT_EQ(ENOSPC, errno);
	/* Once a peer closes, its link is gone and the room is back. */
	close(fds[0]);
	EXPECT_EQ(0, peer_set(a, fds[VGPU_MAX_PEERS - 1], 0));
	for (i = 1; i < VGPU_MAX_PEERS; i++)
		close(fds[i]);
	close(null);
	close(b);
	close(a);
}

/* Byte @k of the pattern the copies test writes (little-endian words). */
static unsigned char pattern_byte(size_t k)
{
	return (__u32)(k / 4 * 2654435761u) >> (8 * (k % 4));
}

/* 8 MiB from device 1 to device 0 and back through a's engine. */
TEST_F(peer, copies)
{
	__u64 da = alloc(self->a, HOST_BYTES), db = alloc(self->b, HOST_BYTES);
	__u32 *w = (__u32 *)self->host;
	size_t i, n = HOST_BYTES / 4;

	if (!two_devices())
		SKIP(return, "needs vgpu.ko with num_devices=2");

	ASSERT_NE(0, da);
	ASSERT_NE(0, db);
	for (i = 0; i < n; i++)
		w[i] = (__u32)(i * 2654435761u);
	ASSERT_EQ(0, copy_wait(&self->cb, db, self->hva, HOST_BYTES));

	ASSERT_EQ(0, peer_set(self->a, self->b, 0));
	EXPECT_EQ(0, copy_wait(&self->ca, da, db, HOST_BYTES));
	memset(self->host, 0, HOST_BYTES);
	EXPECT_EQ(0, copy_wait(&self->ca, self->hva, da, HOST_BYTES));
	for (i = 0; i < n && w[i] == (__u32)(i * 2654435761u); i++)
		;
	EXPECT_EQ(n, i);

	/* a's engine writes b's memory too, at an odd offset and length. */
	EXPECT_EQ(0, copy_wait(&self->ca, db + 3, da + 1000, 300001));
	memset(self->host, 0, HOST_BYTES);
	EXPECT_EQ(0, copy_wait(&self->cb, self->hva, db + 3, 300001));
	for (i = 0; i < 300001 && self->host[i] == pattern_byte(1000 + i); i++)
		;
	EXPECT_EQ(300001, i);

	/* Past the peer's allocation is still a fault (a fault ends a). */
	EXPECT_EQ(VGPU_CHAN_FAULT, copy_wait(&self->ca, da, db + HOST_BYTES - 8,
					     64));
	EXPECT_EQ(db + HOST_BYTES, self->ca.status->error_addr);
}

/* Unlinked, the peer's addresses are nothing to a context's engine. */
TEST_F(peer, unlinked_faults)
{
	__u64 da = alloc(self->a, 4096), db = alloc(self->b, 4096);

	if (!two_devices())
		SKIP(return, "needs vgpu.ko with num_devices=2");
	ASSERT_NE(0, da);
	ASSERT_NE(0, db);
	/* b linking to a gives a nothing. */
	ASSERT_EQ(0, peer_set(self->b, self->a, VGPU_PEER_ACCESS));
	EXPECT_EQ(0, copy_wait(&self->cb, db, da, 4096));
	EXPECT_EQ(VGPU_CHAN_FAULT, copy_wait(&self->ca, da, db, 4096));
	EXPECT_EQ(db, self->ca.status->error_addr);
}

static void launch_put7(struct chan *c, __u32 module, __u64 *params,
			__u64 where)
{
	struct vgpu_cmd *cmd = slot(c);

	params[0] = where;
	cmd->op = VGPU_CMD_LAUNCH;
	cmd->launch.module = module;
	cmd->launch.grid[0] = cmd->launch.grid[1] = cmd->launch.grid[2] = 1;
	cmd->launch.block[0] = cmd->launch.block[1] = 1;
	cmd->launch.block[2] = 1;
	cmd->launch.params = (uintptr_t)params;
	cmd->launch.param_bytes = 8;
}

/* Device @dev's rights over a's mappings in [@va, @va + @size). */
static int dev_access(int fd, __u64 va, __u64 size, __u32 dev, __u32 prot)
{
	struct vgpu_mem_access a = {
		.va = va, .size = size, .prot = prot,
		.flags = VGPU_ACCESS_DEVICE, .device = dev,
	};

	return ioctl(fd, VGPU_IOCTL_MEM_ACCESS, &a);
}

/*
 * A mapping of a (device 0) that b (device 1) reaches through a link with
 * access: only with the rights device 1 was given there, by copies and
 * kernels alike; device 0's own rights are apart.
 */
TEST_F(peer, mappings_obey_device_rights)
{
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)put7, .funcs = (uintptr_t)&put7_func,
		.ninsns = sizeof(put7) / sizeof(put7[0]), .nfuncs = 1,
	};
	struct vgpu_mem_create mc = { .size = VGPU_VA_ALIGN };
	struct vgpu_va_reserve vr = { .size = VGPU_VA_ALIGN };
	struct vgpu_mem_map mm = { .size = VGPU_VA_ALIGN };
	struct vgpu_mem_access own = {
		.size = VGPU_VA_ALIGN, .prot = VGPU_PROT_READ | VGPU_PROT_WRITE,
	};
	__u64 *params = (__u64 *)(self->host + HOST_BYTES - 64);
	__u32 *w = (__u32 *)self->host;
	__u64 va, db = alloc(self->b, 4096);

	if (!two_devices())
		SKIP(return, "needs vgpu.ko with num_devices=2");
	ASSERT_NE(0, db);
	ASSERT_EQ(0, ioctl(self->a, VGPU_IOCTL_MEM_CREATE, &mc));
	ASSERT_EQ(0, ioctl(self->a, VGPU_IOCTL_VA_RESERVE, &vr));
	va = vr.va;
	mm.va = va;
	mm.handle = mc.handle;
	ASSERT_EQ(0, ioctl(self->a, VGPU_IOCTL_MEM_MAP, &mm));
	own.va = va;
	ASSERT_EQ(0, ioctl(self->a, VGPU_IOCTL_MEM_ACCESS, &own));
	ASSERT_EQ(0, ioctl(self->b, VGPU_IOCTL_MODULE_LOAD, &ml));
	ASSERT_EQ(0, peer_set(self->b, self->a, VGPU_PEER_ACCESS));

	/* Bad input. */
	EXPECT_EQ(-1, dev_access(self->a, va, VGPU_VA_ALIGN, VGPU_MAX_DEVICES,
				 VGPU_PROT_READ));
	EXPECT_EQ(EINVAL, errno);
	own.device = 1;
	EXPECT_EQ(-1, ioctl(self->a, VGPU_IOCTL_MEM_ACCESS, &own));
	EXPECT_EQ(EINVAL, errno);
	own.device = 0;
	own.pad = 1;
	EXPECT_EQ(-1, ioctl(self->a, VGPU_IOCTL_MEM_ACCESS, &own));
	EXPECT_EQ(EINVAL, errno);
	own.pad = 0;
	own.flags = 2;
	EXPECT_EQ(-1, ioctl(self->a, VGPU_IOCTL_MEM_ACCESS, &own));
	EXPECT_EQ(EINVAL, errno);

	/* Device 1 may read: b's engine copies from the mapping. */
	w[0] = 0x51;
	ASSERT_EQ(0, copy_wait(&self->ca, va, self->hva, 4));
	ASSERT_EQ(0, dev_access(self->a, va, VGPU_VA_ALIGN, 1, VGPU_PROT_READ));
	w[0] = 0;
	EXPECT_EQ(0, copy_wait(&self->cb, self->hva, va, 4));
	EXPECT_EQ(0x51, w[0]);
	/* Its kernel may not write there: a fault, which ends b. */
	launch_put7(&self->cb, ml.handle, params, va);
	ASSERT_EQ(0, submit(&self->cb));
	EXPECT_EQ(-1, wait_for(&self->cb, self->cb.put));
	EXPECT_EQ(VGPU_CHAN_LAUNCH_FAULT, self->cb.status->error);
	/* Device 0's rights did not change: a writes there still. */
	EXPECT_EQ(0, copy_wait(&self->ca, va + 4, self->hva, 4));
}

/*
 * An allocation of a reached by b's kernels through a link without
 * access: only with the rights device 1 was given over it (a pool's
 * access, VGPU_ACCESS_ALLOC).
 */
TEST_F(peer, allocations_obey_device_rights)
{
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)put7, .funcs = (uintptr_t)&put7_func,
		.ninsns = sizeof(put7) / sizeof(put7[0]), .nfuncs = 1,
	};
	struct vgpu_mem_access acc = {
		.flags = VGPU_ACCESS_DEVICE | VGPU_ACCESS_ALLOC, .device = 1,
	};
	__u64 *params = (__u64 *)(self->host + HOST_BYTES - 64);
	__u32 *w = (__u32 *)self->host;
	__u64 da = alloc(self->a, 4096);

	if (!two_devices())
		SKIP(return, "needs vgpu.ko with num_devices=2");
	ASSERT_NE(0, da);
	ASSERT_EQ(0, ioctl(self->b, VGPU_IOCTL_MODULE_LOAD, &ml));
	ASSERT_EQ(0, peer_set(self->b, self->a, 0));

	/* Bad input. */
	acc.va = da + 512;
	EXPECT_EQ(-1, ioctl(self->a, VGPU_IOCTL_MEM_ACCESS, &acc));
	EXPECT_EQ(EINVAL, errno);
	acc.va = da;
	acc.size = 4096;
	EXPECT_EQ(-1, ioctl(self->a, VGPU_IOCTL_MEM_ACCESS, &acc));
	EXPECT_EQ(EINVAL, errno);
	acc.size = 0;
	acc.flags = VGPU_ACCESS_ALLOC;
	EXPECT_EQ(-1, ioctl(self->a, VGPU_IOCTL_MEM_ACCESS, &acc));
	EXPECT_EQ(EINVAL, errno);
	acc.flags = VGPU_ACCESS_DEVICE | VGPU_ACCESS_ALLOC;

	/* Read-write for device 1: b's kernel writes a's allocation. */
	acc.prot = VGPU_PROT_READ | VGPU_PROT_WRITE;
	ASSERT_EQ(0, ioctl(self->a, VGPU_IOCTL_MEM_ACCESS, &acc));
	launch_put7(&self->cb, ml.handle, params, da + 12);
	ASSERT_EQ(0, submit(&self->cb));
	EXPECT_EQ(0, wait_for(&self->cb, self->cb.put));
	w[3] = 0;
	EXPECT_EQ(0, copy_wait(&self->ca, self->hva + 12, da + 12, 4));
	EXPECT_EQ(7, w[3]);
	/* Read-only: the same store faults. */
	acc.prot = VGPU_PROT_READ;
	ASSERT_EQ(0, ioctl(self->a, VGPU_IOCTL_MEM_ACCESS, &acc));
	launch_put7(&self->cb, ml.handle, params, da + 16);
	ASSERT_EQ(0, submit(&self->cb));
	EXPECT_EQ(-1, wait_for(&self->cb, self->cb.put));
	EXPECT_EQ(VGPU_CHAN_LAUNCH_FAULT, self->cb.status->error);
}

/* Kernels reach the peer only while access is set. */
TEST_F(peer, kernels_need_access)
{
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)put7, .funcs = (uintptr_t)&put7_func,
		.ninsns = sizeof(put7) / sizeof(put7[0]), .nfuncs = 1,
	};
	__u64 db = alloc(self->b, 4096);
	__u64 *params = (__u64 *)(self->host + HOST_BYTES - 64);
	__u32 *w = (__u32 *)self->host;
	int round;

	if (!two_devices())
		SKIP(return, "needs vgpu.ko with num_devices=2");

	ASSERT_NE(0, db);
	ASSERT_EQ(0, ioctl(self->a, VGPU_IOCTL_MODULE_LOAD, &ml));
	/*
	 * Round 0 runs in a context of its own, linked without access: a
	 * fault ends the context it happens in. Round 1 is a with access,
	 * round 2 a after clearing it.
	 */
	for (round = 0; round < 3; round++) {
		bool on = round == 1;
		struct chan cc, *c = round ? &self->ca : &cc;
		void *sc = NULL;
		int fd = self->a;

		if (!round) {
			fd = open_dev(0, WIN_A + (1ULL << 33), &sc);
			ASSERT_LE(0, fd);
			ASSERT_EQ(0, chan_open(fd, &cc, sc));
			ml.handle = 0;
			ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_MODULE_LOAD, &ml));
		} else if (round == 1) {
			ml.handle = 0;
			ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_MODULE_LOAD, &ml));
		}
		ASSERT_EQ(0, peer_set(fd, self->b, on ? VGPU_PEER_ACCESS : 0));
		w[round] = 0;
		ASSERT_EQ(0, copy_wait(&self->cb, db + 4 * round,
				       self->hva + 4 * round, 4));
		launch_put7(c, ml.handle, params, db + 4 * round);
		ASSERT_EQ(0, submit(c));
		EXPECT_EQ(on ? 0 : -1, wait_for(c, c->put));
		EXPECT_EQ(on ? 0 : VGPU_CHAN_LAUNCH_FAULT, c->status->error);
		w[round] = 0xdead;
		EXPECT_EQ(0, copy_wait(&self->cb, self->hva + 4 * round,
				       db + 4 * round, 4));
		EXPECT_EQ(on ? 7 : 0, w[round]);
		if (!round) {
			free(cc.ring);
			munmap(sc, 4096);
			close(fd);
		}
	}
}

struct reader {
	struct chan *c;
	__u64 dst, src;
	int rounds;
	int errors;
};

static void *read_peer(void *arg)
{
	struct reader *r = arg;
	int i;

	for (i = 0; i < r->rounds; i++)
		if (copy_wait(r->c, r->dst, r->src, 1 << 20))
			r->errors++;
	return NULL;
}

/*
 * The peer allocates and frees while a's engine copies from it (each
 * free waits out a's readers); its memory comes back each time.
 */
TEST_F(peer, free_while_read)
{
	__u64 da = alloc(self->a, 1 << 20), db = alloc(self->b, 1 << 20);
	struct reader r = { &self->ca, da, db, 100, 0 };
	__u64 before, va;
	pthread_t t;
	int i;

	if (!two_devices())
		SKIP(return, "needs vgpu.ko with num_devices=2");

	ASSERT_NE(0, da);
	ASSERT_NE(0, db);
	ASSERT_EQ(0, peer_set(self->a, self->b, VGPU_PEER_ACCESS));
	before = mem_free_bytes(1);
	ASSERT_EQ(0, pthread_create(&t, NULL, read_peer, &r));
	for (i = 0; i < 50; i++) {
		va = alloc(self->b, 3 << 20);
		ASSERT_NE(0, va);
		EXPECT_EQ(0, mem_free(self->b, va));
	}
	pthread_join(t, NULL);
	EXPECT_EQ(0, r.errors);
	EXPECT_EQ(before, mem_free_bytes(1));

	/* What the peer freed is nothing to a's engine any more. */
	EXPECT_EQ(0, mem_free(self->b, db));
	EXPECT_EQ(VGPU_CHAN_FAULT, copy_wait(&self->ca, da, db, 4096));
}

/* Closing the peer first ends the link: a's engine faults, nothing else. */
TEST_F(peer, peer_closes_first)
{
	__u64 da = alloc(self->a, 1 << 20), db = alloc(self->b, 1 << 20);

	if (!two_devices())
		SKIP(return, "needs vgpu.ko with num_devices=2");

	ASSERT_NE(0, da);
	ASSERT_NE(0, db);
	ASSERT_EQ(0, peer_set(self->a, self->b, VGPU_PEER_ACCESS));
	ASSERT_EQ(0, peer_set(self->b, self->a, VGPU_PEER_ACCESS));
	EXPECT_EQ(0, copy_wait(&self->ca, da, db, 1 << 20));
	EXPECT_EQ(0, copy_wait(&self->cb, db, da, 1 << 20));
	munmap(self->sb, 4096);
	close(self->b);
	free(self->cb.ring);
	self->b = open_dev(1, WIN_B + (1ULL << 33), &self->sb);
	ASSERT_LE(0, self->b);
	ASSERT_EQ(0, chan_open(self->b, &self->cb, self->sb));
	EXPECT_EQ(VGPU_CHAN_FAULT, copy_wait(&self->ca, da, db, 4096));
}

/* A process exiting with links both ways and copies queued. */
TEST(exit_with_links)
{
	__u64 free0, free1;
	int status, round;
	pid_t pid;

	if (!two_devices())
		SKIP(return, "needs vgpu.ko with num_devices=2");
	free0 = mem_free_bytes(0);
	free1 = mem_free_bytes(1);
	for (round = 0; round < 2; round++) {
		pid = fork();
		ASSERT_LE(0, pid);
		if (!pid) {
			void *sa, *sb;
			struct chan ca;
			int a = open_dev(0, WIN_A, &sa);
			int b = open_dev(1, WIN_B, &sb);
			__u64 da, db;
			int i;

			if (a < 0 || b < 0 || chan_open(a, &ca, sa))
				_exit(2);
			da = alloc(a, 16 << 20);
			db = alloc(b, 16 << 20);
			if (!da || !db || peer_set(a, b, VGPU_PEER_ACCESS) ||
			    peer_set(b, a, VGPU_PEER_ACCESS))
				_exit(3);
			for (i = 0; i < 16; i++) {
				cmd_copy(&ca, da, db, 16 << 20, 1, 0, 0);
				if (submit(&ca))
					_exit(4);
			}
			/* Round 1 closes the peer first, round 0 a. */
			if (round)
				close(b);
			_exit(0);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_TRUE(WIFEXITED(status));
		EXPECT_EQ(0, WEXITSTATUS(status));
		EXPECT_EQ(free0, mem_free_bytes(0));
		EXPECT_EQ(free1, mem_free_bytes(1));
	}
}

TEST_HARNESS_MAIN
