/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The state of an ioctl fuzzer worker process (vgpu_fuzz_worker.c) that
 * the builders of field values (vgpu_fuzz_gen.c) draw on: the contexts
 * it has open and what they hold, its host memory regions, and each
 * thread's scratch.
 */
#ifndef VGPU_FUZZ_STATE_H
#define VGPU_FUZZ_STATE_H

#include <stdint.h>
#include <sys/types.h>

#include "uapi/vgpu.h"
#include "vgpu_fuzz_programs.h"
#include "vgpu_fuzz_shared.h"
#include "vgpu_ioctl_desc.h"

#define PAGE 4096UL
#define NDEV 2
#define NCTX 6
#define NRES 24
#define NSTALE 8
#define NREG 24
#define NCHILD 3
#define ARENA_SIZE (64 * 1024UL)
#define ARG_MAX_SIZE 512
#define NOBODY 65534
/*
 * Memory a context may gather (device and host allocations that
 * succeeded) before the fuzzer closes it: what every context holds
 * together must stay within what the VM has.
 */
#define CTX_BUDGET (16ULL << 20)
/*
 * What a forked child may add to the contexts it inherits (they are the
 * parent's: the child's allocations stay when it dies), charged to the
 * parent's budget at the fork.
 */
#define CHILD_SHARE (4ULL << 20)

struct res_set {
	uint64_t v[NRES];
	uint64_t len[NRES];
	unsigned int n;
	uint64_t stale[NSTALE];
	unsigned int nstale;
};

struct chan {
	int live;
	uint32_t handle;
	struct vgpu_cmd *ring;	/* ours, or NULL when the ring is not */
	size_t ring_bytes;
	uint32_t ring_size;
	uint64_t put;		/* commands written */
	uint64_t submitted;	/* commands the kernel took */
};

struct ctx {
	int fd;			/* -1: free slot */
	int alias;		/* a dup of @fd, or -1 */
	unsigned int gen;	/* bumped when the slot is reused */
	unsigned int closes;	/* bumped when @fd or @alias is closed */
	int dev;
	uint64_t wbase, wsize;	/* the window once set */
	uint64_t bytes;		/* allocated so far */
	int dmabuf;		/* the newest MEM_EXPORT's file, or -1 */
	struct res_set res[FZ_RES_COUNT];
	struct chan chans[NRES];
};

enum region_kind { R_RW, R_RO, R_NONE, R_MEMFD, R_FILE, R_GONE, R_HOSTALLOC, R_NKINDS };

/* Host memory the fuzzer hands the kernel; followed by a guard page. */
struct region {
	char *addr;
	size_t len;
	int kind;
};

/* One thread's scratch. */
struct thr {
	int index;
	uint64_t rng;
	pid_t tid;
	struct fz_beat *beat;
	unsigned char arg[ARG_MAX_SIZE] __attribute__((aligned(64)));
	char *ro_arg;		/* a page made read-only around some calls */
	char log[4096];
	struct vgpu_insn insns[64];
	struct vgpu_func funcs[FZ_NKERNELS];
	/* What the call being built picked so far. */
	struct ctx *ctx;
	struct chan *chan;
	uint64_t len_hint;
	int log_is_ours;
	int prog_mutated;
	int clean;		/* every field plausible */
	unsigned int nfuncs_hint;
};

extern struct ctx ctxs[NCTX];
extern struct region regions[NREG];
extern char *arena;
extern const struct fz_worker_cfg *cfg;

uint64_t rnd64(struct thr *t);
uint64_t rnd(struct thr *t, uint64_t n);
int chance(struct thr *t, unsigned int percent);
unsigned int pick(struct thr *t, unsigned int plausible);
void count(uint64_t *c);
struct chan *chan_of(struct ctx *c, uint32_t handle);
struct ctx *pick_ctx(struct thr *t);
struct region *pick_region(struct thr *t);
/* A value that is often special: 0, ~0, a sign bit, a kernel address. */
uint64_t gen_junk(struct thr *t);
/* A value for field @f of the call or command being built. */
uint64_t gen_field(struct thr *t, const struct fz_field *f);
void put_field(unsigned char *base, const struct fz_field *f, uint64_t v);

#endif /* VGPU_FUZZ_STATE_H */
