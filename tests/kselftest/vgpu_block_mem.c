// SPDX-License-Identifier: GPL-2.0
/*
 * The memory SM workers hold for the blocks they run, as an unprivileged
 * user (nobody) causes it: a block whose state is more than the device
 * has room for per SM fails the launch with VGPU_KFAULT_RESOURCES instead
 * of being allocated; what is allocated is charged to the launching
 * process's memory cgroup; and none of it stays once the process is gone.
 * Also the verifier's scratch memory, charged to the caller too.
 */
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "uapi/vgpu.h"
#include "tests/isa_build.h"
#include "vgpu_chan_util.h"

/* Exit statuses of the child that launches. */
enum { RAN = 0, REFUSED = 10, SETUP = 20, OTHER = 30 };

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

/*
 * MemAvailable once it is back within @slack_kb of @before, or after two
 * seconds (the workers give their memory back when they find no work,
 * just after the last block ends). The slack must cover the pages the
 * page allocator keeps on its per-CPU lists, which MemFree leaves out:
 * tens of MiB a CPU on a VM of 2 GiB.
 */
static long mem_back_kb(long before, long slack_kb)
{
	long now = mem_available_kb();
	int i;

	for (i = 0; i < 20 && before - now > slack_kb; i++) {
		usleep(100000);
		now = mem_available_kb();
	}
	return now;
}

/*
 * In a child, as nobody: one launch of @blocks blocks of @threads threads
 * of a kernel with @local_bytes of local memory a thread, which writes to
 * its local memory and exits; with @gang, a cooperative one. Returns how
 * it went: RAN, REFUSED (the launch failed with VGPU_KFAULT_RESOURCES)
 * or another status.
 */
static int launch_gang_as_nobody(__u32 local_bytes, __u32 blocks,
				 __u32 threads, bool gang)
{
	static const struct vgpu_insn prog[] = {
		MOVI(VGPU_T_U32, 0, 0), MOVI(VGPU_T_U32, 1, 0x5a),
		ST(VGPU_SPACE_LOCAL, VGPU_T_U32, 0, 0, 1), EXIT(),
	};
	struct vgpu_func f = { .nregs = 2, .local_bytes = local_bytes };
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)prog, .funcs = (uintptr_t)&f,
		.ninsns = sizeof(prog) / sizeof(prog[0]), .nfuncs = 1,
	};
	struct vgpu_chan_fault fault = { 0 };
	struct vgpu_mem_alloc ws = { .size = 4096 };
	struct vgpu_cmd *cmd;
	struct chan c;
	void *status;
	int fd, ret;

	fd = open_ctx(&status, 1ULL << 44);
	if (fd < 0 || ioctl(fd, VGPU_IOCTL_MODULE_LOAD, &ml) ||
	    ioctl(fd, VGPU_IOCTL_MEM_ALLOC, &ws) || chan_open(fd, &c, status))
		return SETUP;
	/* Everything is open: from here on, as an unprivileged user. */
	if (setgid(65534) || setuid(65534))
		return SETUP;
	cmd = slot(&c);
	cmd->op = VGPU_CMD_LAUNCH;
	cmd->launch.module = ml.handle;
	cmd->launch.grid[0] = blocks;
	cmd->launch.grid[1] = 1;
	cmd->launch.grid[2] = 1;
	cmd->launch.block[0] = threads;
	cmd->launch.block[1] = 1;
	cmd->launch.block[2] = 1;
	/* The grid workspace, zero as the device memory comes. */
	if (gang)
		cmd->launch.grid_sync = ws.va;
	if (submit(&c))
		return SETUP;
	ret = wait_for(&c, 1);
	if (!ret)
		return RAN;
	fault.handle = c.handle;
	if (errno == EIO && c.status->error == VGPU_CHAN_LAUNCH_FAULT &&
	    !ioctl(fd, VGPU_IOCTL_CHAN_FAULT, &fault) &&
	    fault.kind == VGPU_KFAULT_RESOURCES)
		return REFUSED;
	fprintf(stderr, "# launch: errno %d, error %u, fault %u\n", errno,
		c.status->error, fault.kind);
	return OTHER;
}

static int launch_as_nobody(__u32 local_bytes, __u32 blocks)
{
	return launch_gang_as_nobody(local_bytes, blocks, 1024, false);
}

static int child_status(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/*
 * The most local memory a thread may have, 1024 threads a block: over
 * half a GiB a block. The launch fails with RESOURCES where the device's
 * memory per SM is less than that (as in the suite: 512 MiB, 3 SMs),
 * runs otherwise; it must never take the machine's memory with it, and
 * whatever the workers allocated goes back once the process is gone.
 */
TEST(max_local_memory_as_nobody)
{
	long before = mem_available_kb(), after;
	pid_t pid;
	int ret;

	ASSERT_LT(0, before);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(launch_as_nobody(VGPU_MAX_LOCAL_BYTES, 16));
	ret = child_status(pid);
	EXPECT_TRUE(ret == RAN || ret == REFUSED) TH_LOG("child: %d", ret);
	after = mem_back_kb(before, 64 << 10);
	TH_LOG("%s; MemAvailable %ld kB before, %ld kB after",
	       ret == RAN ? "ran" : "refused", before, after);
	EXPECT_GT(64 << 10, before - after);
}

/*
 * Blocks of 96 MiB (96 KiB of local memory for each of 1024 threads),
 * within the bound with 512 MiB and 3 or 4 SMs: the launch runs, and the
 * workers' buffers (96 MiB each) are freed when they go idle, not kept
 * for the next launch of whoever comes.
 */
TEST(block_state_freed_after_exit)
{
	long before = mem_available_kb(), after;
	pid_t pid;
	int ret;

	ASSERT_LT(0, before);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(launch_as_nobody(96 << 10, 16));
	ret = child_status(pid);
	EXPECT_EQ(RAN, ret);
	after = mem_back_kb(before, 64 << 10);
	TH_LOG("MemAvailable %ld kB before, %ld kB after", before, after);
	EXPECT_GT(64 << 10, before - after);
}

/*
 * A cooperative launch holds all its blocks at once, in one allocation:
 * two blocks an SM, as many as the device holds at once, each with 3/4
 * of the device's memory per SM (which alone would run), need half as
 * much again as the device has. The launch fails with RESOURCES. (Not
 * to be had where local memory cannot reach that: skipped.)
 */
TEST(gang_over_device_memory_as_nobody)
{
	struct vgpu_info info = { 0 };
	long before = mem_available_kb(), after;
	__u32 threads;
	__u64 local;
	pid_t pid;
	int fd, ret;

	fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, VGPU_IOCTL_GET_INFO, &info));
	close(fd);
	threads = info.max_threads_per_sm / 2;
	local = info.mem_size * 3 / 2 / info.sm_count / info.max_threads_per_sm;
	local &= ~15ULL;
	if (local > VGPU_MAX_LOCAL_BYTES || threads > info.max_threads_per_block)
		SKIP(return, "%llu bytes of local memory a thread",
		     (unsigned long long)local);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0)
		_exit(launch_gang_as_nobody(local, 2 * info.sm_count, threads,
					    true));
	ret = child_status(pid);
	EXPECT_EQ(REFUSED, ret);
	after = mem_back_kb(before, 64 << 10);
	TH_LOG("%u blocks of %u threads with %llu KiB; MemAvailable %ld kB before, %ld kB after",
	       2 * info.sm_count, threads, (unsigned long long)local >> 10,
	       before, after);
	EXPECT_GT(64 << 10, before - after);
}

/* A memory cgroup of its own, limited, on a cgroup2 mount of its own. */
struct memcg {
	char mnt[32];
	char grp[128];
};

static int cg_write(const char *dir, const char *file, const char *val)
{
	char path[192];
	int fd, ret;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -1;
	ret = write(fd, val, strlen(val)) == (ssize_t)strlen(val) ? 0 : -1;
	close(fd);
	return ret;
}

static long cg_read(const char *dir, const char *file, char *buf, size_t len)
{
	char path[192];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, len - 1);
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	return n > 0 ? atol(buf) : -1;
}

/* 0, or a reason to skip (no cgroup2, no memory controller). */
static const char *cg_setup(struct memcg *cg)
{
	char buf[256];

	strcpy(cg->mnt, "/tmp/vgpu-cg-XXXXXX");
	if (!mkdtemp(cg->mnt))
		return "mkdtemp";
	if (mount("none", cg->mnt, "cgroup2", 0, NULL)) {
		rmdir(cg->mnt);
		return "no cgroup2";
	}
	cg_read(cg->mnt, "cgroup.controllers", buf, sizeof(buf));
	if (!strstr(buf, "memory") ||
	    cg_write(cg->mnt, "cgroup.subtree_control", "+memory")) {
		umount(cg->mnt);
		rmdir(cg->mnt);
		return "no memory controller";
	}
	snprintf(cg->grp, sizeof(cg->grp), "%s/vgpu-%d", cg->mnt, getpid());
	if (mkdir(cg->grp, 0755)) {
		umount(cg->mnt);
		rmdir(cg->mnt);
		return "mkdir";
	}
	return NULL;
}

/* Once its processes are gone; whether the memcg could be removed. */
static int cg_teardown(struct memcg *cg)
{
	int ret = rmdir(cg->grp);

	umount(cg->mnt);
	rmdir(cg->mnt);
	return ret;
}

/*
 * The workers charge a block's state to the launching process's memory
 * cgroup: in one limited to 32 MiB, blocks of 64 MiB cannot run (the
 * launch fails with RESOURCES, and no OOM kill); uncharged, they would.
 */
TEST(block_state_charged_to_memcg)
{
	const char *why;
	struct memcg cg;
	char buf[256];
	pid_t pid;
	int ret;

	why = cg_setup(&cg);
	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, cg_write(cg.grp, "memory.max", "33554432"));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		if (cg_write(cg.grp, "cgroup.procs", "0"))
			_exit(SETUP);
		_exit(launch_as_nobody(64 << 10, 4));
	}
	ret = child_status(pid);
	cg_read(cg.grp, "memory.events", buf, sizeof(buf));
	/* Gone with its process, the memcg can go (the workers hold none). */
	EXPECT_EQ(0, cg_teardown(&cg));
	EXPECT_EQ(REFUSED, ret);
	EXPECT_EQ(NULL, strstr(buf, "oom_kill 1"));
}

/*
 * Loading a module of VGPU_MAX_INSNS instructions makes the kernel
 * allocate the verifier's 5 MiB of scratch for the caller: with 1 MiB
 * left in its memcg after the program's copy, the load fails with ENOMEM
 * (and no OOM kill); uncharged, it went through.
 */
TEST(module_verifier_charged_to_memcg)
{
	const char *why;
	struct memcg cg;
	char buf[256];
	pid_t pid;
	int ret;

	why = cg_setup(&cg);
	if (why)
		SKIP(return, "%s", why);
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		size_t bytes = (size_t)VGPU_MAX_INSNS * sizeof(struct vgpu_insn);
		struct vgpu_insn *p = malloc(bytes);
		struct vgpu_func f = { .nregs = 1 };
		struct vgpu_module_load ml = {
			.insns = (uintptr_t)p, .funcs = (uintptr_t)&f,
			.ninsns = VGPU_MAX_INSNS, .nfuncs = 1,
		};
		char val[32];
		long cur;
		__u32 i;
		int fd;

		if (!p || cg_write(cg.grp, "cgroup.procs", "0"))
			_exit(SETUP);
		for (i = 0; i < VGPU_MAX_INSNS; i++)
			p[i] = (struct vgpu_insn)EXIT();
		fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);
		cur = cg_read(cg.grp, "memory.current", val, sizeof(val));
		if (fd < 0 || cur < 0)
			_exit(SETUP);
		/* Room for the program's copy and 1 MiB. */
		snprintf(val, sizeof(val), "%ld", cur + (long)bytes + (1 << 20));
		if (cg_write(cg.grp, "memory.max", val) ||
		    setgid(65534) || setuid(65534))
			_exit(SETUP);
		ret = ioctl(fd, VGPU_IOCTL_MODULE_LOAD, &ml);
		if (ret == -1 && errno == ENOMEM)
			_exit(REFUSED);
		fprintf(stderr, "# load: %d, errno %d\n", ret, errno);
		_exit(ret ? OTHER : RAN);
	}
	ret = child_status(pid);
	cg_read(cg.grp, "memory.events", buf, sizeof(buf));
	EXPECT_EQ(0, cg_teardown(&cg));
	EXPECT_EQ(REFUSED, ret);
	EXPECT_EQ(NULL, strstr(buf, "oom_kill 1"));
}

TEST_HARNESS_MAIN
