// SPDX-License-Identifier: GPL-2.0
/*
 * Each context's budget of kernel memory besides device memory (the
 * ctx_kmem_mb parameter; a quarter of RAM by default): page-locked host
 * allocations, loaded modules and cooperative launches' gangs count
 * against it, a request over it fails (-ENOMEM, or a launch with
 * VGPU_KFAULT_RESOURCES) before anything is allocated, and what a
 * context held is given back when it goes. Run as nobody, as a user
 * without a memory cgroup limit would.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"
#include "tests/isa_build.h"
#include "vgpu_chan_util.h"

#define PARAM "/sys/module/vgpu/parameters/ctx_kmem_mb"
#define SYSFS "/sys/class/vgpu/vgpu0/"

/* Exit statuses of the children. */
enum { DONE = 0, FAILED = 10, SETUP = 20 };

static int child_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static long long read_ll(const char *path)
{
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (f && fscanf(f, "%lld", &v) != 1)
		v = -1;
	if (f)
		fclose(f);
	return v;
}

static int write_ll(const char *path, long long v)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fprintf(f, "%lld\n", v) < 0;
	return fclose(f) || ret ? -1 : 0;
}

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

/* A HOST_ALLOC of @size, mapped; MAP_FAILED with errno set if not. */
static void *host_alloc_map(int fd, __u64 size)
{
	struct vgpu_host_alloc a = { .size = size };

	if (ioctl(fd, VGPU_IOCTL_HOST_ALLOC, &a))
		return MAP_FAILED;
	return mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		    a.offset);
}

/* Loads @n instructions (moves, then EXIT) of @nlocal local bytes. */
static int load_module(int fd, __u32 n, __u32 nlocal, __u32 *handle)
{
	struct vgpu_func f = { .nregs = 2, .local_bytes = nlocal };
	struct vgpu_insn *prog = calloc(n, sizeof(*prog));
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)prog, .funcs = (uintptr_t)&f,
		.ninsns = n, .nfuncs = 1,
	};
	__u32 i;
	int ret;

	if (!prog)
		return -1;
	for (i = 0; i + 1 < n; i++)
		prog[i] = (struct vgpu_insn)MOVI(VGPU_T_U32, i & 1, i);
	prog[n - 1] = (struct vgpu_insn)EXIT();
	ret = ioctl(fd, VGPU_IOCTL_MODULE_LOAD, &ml);
	free(prog);
	*handle = ml.handle;
	return ret;
}

FIXTURE(kmem) {
	long long saved;	/* the parameter before the test */
	long long base;		/* kmem_used before the test */
};

FIXTURE_SETUP(kmem)
{
	self->saved = read_ll(PARAM);
	ASSERT_LE(0, self->saved) TH_LOG("no " PARAM);
	self->base = read_ll(SYSFS "kmem_used");
	ASSERT_LE(0, self->base);
}

FIXTURE_TEARDOWN(kmem)
{
	write_ll(PARAM, self->saved);
}

/* The default budget is a quarter of RAM, and sysfs says so. */
TEST_F(kmem, default_is_a_quarter_of_ram)
{
	long long total = meminfo_kb("MemTotal") * 1024LL;

	ASSERT_EQ(0, write_ll(PARAM, 0));
	EXPECT_EQ(total / 4, read_ll(SYSFS "ctx_kmem_limit"));
	ASSERT_EQ(0, write_ll(PARAM, 64));
	EXPECT_EQ(64LL << 20, read_ll(SYSFS "ctx_kmem_limit"));
}

/*
 * As nobody with a 16 MiB budget: one context's 8 MiB of page-locked
 * memory fits and a second 8 MiB (with the page arrays, over 16 MiB)
 * does not; another context has a budget of its own; sysfs counts what
 * both hold, and closing them gives it back.
 */
TEST_F(kmem, host_alloc_over_the_budget_as_nobody)
{
	long long held = -1;
	int up[2], down[2];	/* child to parent, parent to child */
	pid_t pid;
	char x;

	ASSERT_EQ(0, write_ll(PARAM, 16));
	signal(SIGPIPE, SIG_IGN);	/* a child that failed reads no more */
	ASSERT_EQ(0, pipe(up));
	ASSERT_EQ(0, pipe(down));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		void *status[2], *p, *q, *r;
		int fd[2], err;

		close(up[0]);
		close(down[1]);
		fd[0] = open_ctx(&status[0], 1ULL << 44);
		fd[1] = open_ctx(&status[1], 1ULL << 44);
		if (fd[0] < 0 || fd[1] < 0 || setgid(65534) || setuid(65534)) {
			fprintf(stderr, "# setup: errno %d\n", errno);
			_exit(SETUP);
		}
		p = host_alloc_map(fd[0], 8 * MIB);
		q = host_alloc_map(fd[0], 8 * MIB);
		err = errno;
		r = host_alloc_map(fd[1], 8 * MIB);
		if (p == MAP_FAILED || q != MAP_FAILED || err != ENOMEM ||
		    r == MAP_FAILED) {
			fprintf(stderr, "# p %p q %p (errno %d) r %p (errno %d)\n",
				p, q, err, r, errno);
			_exit(FAILED);
		}
		memset(p, 1, 8 * MIB);
		/* Tell the parent to look, then wait for it to be done. */
		if (write(up[1], "x", 1) != 1 || read(down[0], &x, 1) != 1)
			_exit(SETUP);
		_exit(DONE);
	}
	close(up[1]);
	close(down[0]);
	/* A child that failed closed its end: the read sees 0 then. */
	if (read(up[0], &x, 1) == 1)
		held = read_ll(SYSFS "kmem_used") - self->base;
	EXPECT_EQ(1, write(down[1], "y", 1));
	close(up[0]);
	close(down[1]);
	EXPECT_EQ(DONE, child_status(pid));
	/* Two allocations of 2048 pages and their page arrays. */
	EXPECT_EQ(2 * (8 * MIB + 2048 * 8), held);
	EXPECT_EQ(self->base, read_ll(SYSFS "kmem_used"));
}

/*
 * Modules count too: with 1 MiB and all but 4 KiB of it page-locked, a
 * module of 512 instructions (8 KiB) does not fit until the memory goes;
 * unloading it gives its share back.
 */
TEST_F(kmem, module_load_counts_as_nobody)
{
	pid_t pid;

	ASSERT_EQ(0, write_ll(PARAM, 1));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		long long before;
		__u32 h;
		void *status, *p;
		int fd, ret, err;

		fd = open_ctx(&status, 1ULL << 44);
		if (fd < 0 || setgid(65534) || setuid(65534))
			_exit(SETUP);
		p = host_alloc_map(fd, MIB - 8192);
		if (p == MAP_FAILED)
			_exit(SETUP);
		ret = load_module(fd, 512, 0, &h);
		err = errno;
		if (ret != -1 || err != ENOMEM) {
			fprintf(stderr, "# load: %d errno %d\n", ret, err);
			_exit(FAILED);
		}
		munmap(p, MIB - 8192);
		before = read_ll(SYSFS "kmem_used");
		if (load_module(fd, 512, 0, &h)) {
			fprintf(stderr, "# load after munmap: errno %d\n", errno);
			_exit(FAILED);
		}
		if (read_ll(SYSFS "kmem_used") - before <
		    512 * (long long)sizeof(struct vgpu_insn)) {
			fprintf(stderr, "# kmem_used %lld, %lld before\n",
				read_ll(SYSFS "kmem_used"), before);
			_exit(FAILED);
		}
		{
			struct vgpu_module_unload mu = { .handle = h };

			if (ioctl(fd, VGPU_IOCTL_MODULE_UNLOAD, &mu) ||
			    read_ll(SYSFS "kmem_used") != before)
				_exit(FAILED);
		}
		_exit(DONE);
	}
	EXPECT_EQ(DONE, child_status(pid));
	EXPECT_EQ(self->base, read_ll(SYSFS "kmem_used"));
}

/*
 * A cooperative launch keeps every block's state at once: a gang of 4
 * blocks of 256 threads with 1 KiB of local memory each (over 1 MiB)
 * does not fit a budget of 1 MiB: the launch fails with RESOURCES; with
 * the default budget it runs.
 */
static int gang_launch_as_nobody(void)
{
	static const struct vgpu_insn prog[] = {
		MOVI(VGPU_T_U32, 0, 0), MOVI(VGPU_T_U32, 1, 0x5a),
		ST(VGPU_SPACE_LOCAL, VGPU_T_U32, 0, 0, 1), EXIT(),
	};
	struct vgpu_func f = { .nregs = 2, .local_bytes = 1024 };
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)prog, .funcs = (uintptr_t)&f,
		.ninsns = sizeof(prog) / sizeof(prog[0]), .nfuncs = 1,
	};
	struct vgpu_chan_fault fault = { 0 };
	struct vgpu_mem_alloc ws = { .size = 4096 };
	struct vgpu_cmd *cmd;
	struct chan c;
	void *status;
	int fd;

	fd = open_ctx(&status, 1ULL << 44);
	if (fd < 0 || ioctl(fd, VGPU_IOCTL_MODULE_LOAD, &ml) ||
	    ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &ws) || chan_open(fd, &c, status) ||
	    setgid(65534) || setuid(65534))
		return SETUP;
	cmd = slot(&c);
	cmd->op = VGPU_CMD_LAUNCH;
	cmd->launch.module = ml.handle;
	cmd->launch.grid[0] = 4;
	cmd->launch.grid[1] = 1;
	cmd->launch.grid[2] = 1;
	cmd->launch.block[0] = 256;
	cmd->launch.block[1] = 1;
	cmd->launch.block[2] = 1;
	cmd->launch.grid_sync = ws.va;
	if (submit(&c))
		return SETUP;
	if (!wait_for(&c, 1))
		return DONE;
	fault.handle = c.handle;
	if (errno == EIO && c.status->error == VGPU_CHAN_LAUNCH_FAULT &&
	    !ioctl(fd, VGPU_IOCTL_CHAN_FAULT, &fault) &&
	    fault.kind == VGPU_KFAULT_RESOURCES)
		return FAILED;
	return SETUP;
}

TEST_F(kmem, gang_over_the_budget_as_nobody)
{
	pid_t pid;

	ASSERT_EQ(0, write_ll(PARAM, 1));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(gang_launch_as_nobody());
	EXPECT_EQ(FAILED, child_status(pid));
	ASSERT_EQ(0, write_ll(PARAM, 0));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(gang_launch_as_nobody());
	EXPECT_EQ(DONE, child_status(pid));
	EXPECT_EQ(self->base, read_ll(SYSFS "kmem_used"));
}

TEST_HARNESS_MAIN
