/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ioctl fuzzer compares before and after its workers ran:
 * device memory in use, pinned pages, the workers' memory cgroup charge,
 * and the kernel log.
 */
#ifndef VGPU_FUZZ_BASELINE_H
#define VGPU_FUZZ_BASELINE_H

#define FZ_NDEVS 2

struct fz_baseline {
	long long mem_used[FZ_NDEVS];	/* sysfs mem_used, -1: unreadable */
	long long kmem_used[FZ_NDEVS];	/* sysfs kmem_used, -1: unreadable */
	long long pins;			/* pins acquired - released, -1: unknown */
};

void fz_baseline_read(struct fz_baseline *b);

/*
 * Polls for up to @seconds until @now matches @base; 0 if it does, else
 * -1 with a description of the difference in @why.
 */
int fz_baseline_wait_mem(const struct fz_baseline *base, struct fz_baseline *now,
			 int seconds, char *why, int why_len);
int fz_baseline_wait_pins(const struct fz_baseline *base, struct fz_baseline *now,
			  int seconds, char *why, int why_len);

/*
 * The memory cgroup the workers run in: 0 and its directory in @dir, or
 * -1 and why not in @why.
 */
int fz_memcg_create(char *dir, int dir_len, char *why, int why_len);
int fz_memcg_enter(const char *dir);
long long fz_memcg_current(const char *dir);
/* Reclaims what can be and polls memory.current down to @slack bytes. */
long long fz_memcg_settle(const char *dir, long long slack, int seconds);
void fz_memcg_remove(const char *dir);

/* /dev/kmsg from now on (-1 if unreadable), and its reports printed as TAP comments. */
int fz_kmsg_open(void);
int fz_kmsg_reports(int fd);

#endif /* VGPU_FUZZ_BASELINE_H */
