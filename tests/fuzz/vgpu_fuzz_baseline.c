// SPDX-License-Identifier: GPL-2.0
/*
 * The ioctl fuzzer's leak checks: device and kernel memory (sysfs
 * mem_used and kmem_used of each device), pinned pages (/proc/vmstat's FOLL_PIN counters), the memory
 * cgroup the workers ran in, and reports in the kernel log.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vgpu_fuzz_baseline.h"

#define CG_ROOT "/sys/fs/cgroup"
#define CG_DIR CG_ROOT "/vgpu-ioctl-fuzz"

static long long read_ll(const char *path)
{
	char buf[64];
	long long v = -1;
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	if (fgets(buf, sizeof(buf), f))
		v = strtoll(buf, NULL, 10);
	fclose(f);
	return v;
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -1;
	if (write(fd, s, strlen(s)) < 0)
		ret = -1;
	close(fd);
	return ret;
}

/*
 * Pages pinned with FOLL_PIN (pin_user_pages) and not yet unpinned: the
 * kernel counts both since 5.8 in /proc/vmstat.
 */
static long long pins_outstanding(void)
{
	long long acq = -1, rel = -1, v;
	char name[64];
	FILE *f = fopen("/proc/vmstat", "r");

	if (!f)
		return -1;
	while (fscanf(f, "%63s %lld", name, &v) == 2) {
		if (!strcmp(name, "nr_foll_pin_acquired"))
			acq = v;
		else if (!strcmp(name, "nr_foll_pin_released"))
			rel = v;
	}
	fclose(f);
	return acq < 0 || rel < 0 ? -1 : acq - rel;
}

void fz_baseline_read(struct fz_baseline *b)
{
	char path[64];
	int i;

	for (i = 0; i < FZ_NDEVS; i++) {
		snprintf(path, sizeof(path), "/sys/class/vgpu/vgpu%d/mem_used", i);
		b->mem_used[i] = read_ll(path);
		snprintf(path, sizeof(path), "/sys/class/vgpu/vgpu%d/kmem_used", i);
		b->kmem_used[i] = read_ll(path);
	}
	b->pins = pins_outstanding();
}

int fz_baseline_wait_mem(const struct fz_baseline *base, struct fz_baseline *now,
			 int seconds, char *why, int why_len)
{
	int i, tries;

	for (tries = 0; tries <= seconds * 10; tries++) {
		int same = 1;

		fz_baseline_read(now);
		for (i = 0; i < FZ_NDEVS; i++)
			same &= now->mem_used[i] == base->mem_used[i] &&
				now->kmem_used[i] == base->kmem_used[i];
		if (same)
			return 0;
		usleep(100000);
	}
	snprintf(why, why_len,
		 "mem_used vgpu0 %lld -> %lld, vgpu1 %lld -> %lld; kmem_used vgpu0 %lld -> %lld, vgpu1 %lld -> %lld after %d s",
		 base->mem_used[0], now->mem_used[0], base->mem_used[1],
		 now->mem_used[1], base->kmem_used[0], now->kmem_used[0],
		 base->kmem_used[1], now->kmem_used[1], seconds);
	return -1;
}

int fz_baseline_wait_pins(const struct fz_baseline *base, struct fz_baseline *now,
			  int seconds, char *why, int why_len)
{
	int tries;

	for (tries = 0; tries <= seconds * 10; tries++) {
		fz_baseline_read(now);
		if (now->pins == base->pins)
			return 0;
		usleep(100000);
	}
	snprintf(why, why_len, "pinned pages outstanding %lld -> %lld after %d s",
		 base->pins, now->pins, seconds);
	return -1;
}

int fz_memcg_create(char *dir, int dir_len, char *why, int why_len)
{
	struct stat st;

	if (stat(CG_ROOT "/cgroup.controllers", &st) &&
	    mount("cgroup2", CG_ROOT, "cgroup2", 0, NULL)) {
		snprintf(why, why_len, "cannot mount cgroup2 at " CG_ROOT ": %s",
			 strerror(errno));
		return -1;
	}
	/* The memory controller, for the root's children. */
	if (write_str(CG_ROOT "/cgroup.subtree_control", "+memory")) {
		snprintf(why, why_len, "no memory controller: %s", strerror(errno));
		return -1;
	}
	rmdir(CG_DIR);
	if (mkdir(CG_DIR, 0755)) {
		snprintf(why, why_len, "mkdir " CG_DIR ": %s", strerror(errno));
		return -1;
	}
	if (fz_memcg_current(CG_DIR) < 0) {
		snprintf(why, why_len, "no memory.current in " CG_DIR);
		rmdir(CG_DIR);
		return -1;
	}
	snprintf(dir, dir_len, "%s", CG_DIR);
	return 0;
}

int fz_memcg_enter(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	return write_str(path, "0");	/* "0" is the writer itself */
}

long long fz_memcg_current(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/memory.current", dir);
	return read_ll(path);
}

long long fz_memcg_settle(const char *dir, long long slack, int seconds)
{
	char path[128];
	long long cur = -1;
	int tries;

	snprintf(path, sizeof(path), "%s/memory.reclaim", dir);
	for (tries = 0; tries <= seconds * 10; tries++) {
		/* Page cache and slab the workers left can be reclaimed; a leak cannot. */
		write_str(path, "64M");
		cur = fz_memcg_current(dir);
		if (cur >= 0 && cur <= slack)
			break;
		usleep(100000);
	}
	return cur;
}

void fz_memcg_remove(const char *dir)
{
	rmdir(dir);
}

int fz_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

int fz_kmsg_reports(int fd)
{
	static const char *const bad[] = {
		"BUG:", "WARNING:", "UBSAN:", "KASAN", "Oops", "general protection",
		"circular locking", "recursive locking", "inconsistent lock state",
		"blocked for more than", "soft lockup", "list_add corruption",
		"list_del corruption", "refcount_t:", "suspicious RCU",
		/* The workers' memory is bounded: the kernel ran out of its own. */
		"Out of memory", "oom-kill",
	};
	char rec[2048];
	ssize_t n;
	int found = 0;
	unsigned int i;

	if (fd < 0)
		return 0;
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* overwritten records: go on */
		if (n <= 0)
			break;
		rec[n] = 0;
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			if (strstr(rec, bad[i])) {
				printf("# kernel: %s", strchr(rec, ';') ? strchr(rec, ';') + 1 : rec);
				found++;
				break;
			}
		}
	}
	return found;
}
