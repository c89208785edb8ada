// SPDX-License-Identifier: GPL-2.0
/*
 * The memory SM workers hold for the blocks they run, as an unprivileged
 * user (nobody) causes it: a block whose state is more than the device
 * has room for per SM fails the launch with VGPU_KFAULT_RESOURCES instead
 * of being allocated; what is allocated is charged to the launching
 * process's memory cgroup; and none of it stays once the process is gone.
 */
#include <errno.h>
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
 * In a child, as nobody: one launch of @blocks blocks of 1024 threads of
 * a kernel with @local_bytes of local memory a thread, which writes to
 * its local memory and exits. Returns how it went: RAN, REFUSED (the
 * launch failed with VGPU_KFAULT_RESOURCES) or another status.
 */
static int launch_as_nobody(__u32 local_bytes, __u32 blocks)
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
	struct vgpu_cmd *cmd;
	struct chan c;
	void *status;
	int fd, ret;

	fd = open_ctx(&status, 1ULL << 44);
	if (fd < 0 || ioctl(fd, VGPU_IOCTL_MODULE_LOAD, &ml) ||
	    chan_open(fd, &c, status))
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
	cmd->launch.block[0] = 1024;
	cmd->launch.block[1] = 1;
	cmd->launch.block[2] = 1;
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
 * The workers charge a block's state to the launching process's memory
 * cgroup: in one limited to 32 MiB, blocks of 64 MiB cannot run (the
 * launch fails with RESOURCES, and no OOM kill); uncharged, they would.
 */
TEST(block_state_charged_to_memcg)
{
	char mnt[] = "/tmp/vgpu-cg-XXXXXX", grp[128], path[192], buf[256];
	int fd, ret = -1;
	ssize_t n;
	pid_t pid;

	ASSERT_NE(NULL, mkdtemp(mnt));
	if (mount("none", mnt, "cgroup2", 0, NULL)) {
		rmdir(mnt);
		SKIP(return, "no cgroup2: %s", strerror(errno));
	}
	snprintf(path, sizeof(path), "%s/cgroup.controllers", mnt);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	if (!strstr(buf, "memory")) {
		umount(mnt);
		rmdir(mnt);
		SKIP(return, "no memory controller");
	}
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", mnt);
	fd = open(path, O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_LT(0, write(fd, "+memory", 7));
	close(fd);
	snprintf(grp, sizeof(grp), "%s/vgpu-%d", mnt, getpid());
	ASSERT_EQ(0, mkdir(grp, 0755));
	snprintf(path, sizeof(path), "%s/memory.max", grp);
	fd = open(path, O_WRONLY);
	ASSERT_LE(0, fd);
	ASSERT_LT(0, write(fd, "33554432", 8));
	close(fd);

	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", grp);
		fd = open(path, O_WRONLY);
		if (fd < 0 || write(fd, "0", 1) != 1)
			_exit(SETUP);
		close(fd);
		_exit(launch_as_nobody(64 << 10, 4));
	}
	ret = child_status(pid);
	snprintf(path, sizeof(path), "%s/memory.events", grp);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	/* Gone with its process, the memcg can go (the workers hold none). */
	EXPECT_EQ(0, rmdir(grp));
	umount(mnt);
	rmdir(mnt);
	EXPECT_EQ(REFUSED, ret);
	EXPECT_EQ(NULL, strstr(buf, "oom_kill 1"));
}

TEST_HARNESS_MAIN
