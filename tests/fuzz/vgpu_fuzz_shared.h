/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ioctl fuzzer's workers share with its parent (one MAP_SHARED
 * page set up before they fork): a heartbeat per thread, for the parent's
 * hang watchdog, the counters its statistics come from, and the errors
 * each ioctl returned, which it checks against uapi/vgpu.h.
 */
#ifndef VGPU_FUZZ_SHARED_H
#define VGPU_FUZZ_SHARED_H

#include <stdint.h>

#define FZ_MAX_WORKERS 8
#define FZ_MAX_THREADS 8
#define FZ_MAX_IOCTLS 32
#define FZ_MAX_CMDS 8
/*
 * Rows of errors seen: one per ioctl of fz_ioctls, and the last for
 * numbers of vgpu's type that name no ioctl.
 */
#define FZ_ERR_ROWS (FZ_MAX_IOCTLS + 1)
#define FZ_ERR_UNKNOWN FZ_MAX_IOCTLS
/* A bit per errno below this; larger ones are kept in fz_shared.big_errno. */
#define FZ_ERRNO_BITS 256

/* A thread's heartbeat: @busy while it is inside a system call. */
struct fz_beat {
	int tid;
	int busy;
	uint64_t since_ns;
	char what[40];
};

struct fz_shared {
	struct fz_beat beat[FZ_MAX_WORKERS][FZ_MAX_THREADS];
	uint64_t ioctl_calls[FZ_MAX_IOCTLS];
	uint64_t ioctl_ok[FZ_MAX_IOCTLS];
	uint64_t cmds_sent[FZ_MAX_CMDS];
	uint64_t cmds_ok[FZ_MAX_CMDS];
	uint64_t forks, kills, maps, unmaps, opens, closes;
	uint64_t unpriv_calls;
	uint64_t errs[FZ_ERR_ROWS][FZ_ERRNO_BITS / 64];
	int big_errno[FZ_ERR_ROWS];	/* the last errno >= FZ_ERRNO_BITS */
};

/* How a worker runs. */
struct fz_worker_cfg {
	int index;		/* its row of fz_shared.beat */
	int threads;
	uint64_t seed;
	uint64_t end_ns;	/* CLOCK_MONOTONIC time to stop at */
	int unprivileged;	/* setuid to nobody after opening the devices */
	struct fz_shared *shared;
};

uint64_t fz_now_ns(void);
/* Runs a worker process to its end; never returns. */
void fz_worker_main(const struct fz_worker_cfg *cfg) __attribute__((noreturn));

#endif /* VGPU_FUZZ_SHARED_H */
