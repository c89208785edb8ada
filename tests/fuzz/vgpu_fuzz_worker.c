// SPDX-License-Identifier: GPL-2.0
/*
 * One worker process of the ioctl fuzzer: several threads calling the
 * ioctls of vgpu_ioctl_desc.c with arguments built from the handles,
 * addresses and host memory that earlier calls produced, and, between
 * calls, opening, duplicating and closing device files, mapping and
 * unmapping memory, forking children that use the inherited files and
 * killing them.
 *
 * The fuzzer never dereferences memory the device file mapped, nor any of
 * its pool regions (other threads unmap them at any time): only the
 * kernel does. It writes only to rings and the parameter arena, under
 * the state lock, and neither is unmapped while a channel may use it.
 */
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
	int dev;
	uint64_t wbase, wsize;	/* the window once set */
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

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ctx ctxs[NCTX];
static struct region regions[NREG];
static char *arena;		/* launch parameters, registered in contexts */
static pid_t children[NCHILD];
static const struct fz_worker_cfg *cfg;
static int master_fds[NDEV][NCTX];	/* opened before dropping privileges */
static int in_child;		/* a forked child of the worker */
static pthread_t threads[FZ_MAX_THREADS];
static int stopping;		/* threads are being joined: no more signals */

uint64_t fz_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t rnd64(struct thr *t)
{
	/* xorshift64*: small, good enough, and reproducible from the seed. */
	t->rng ^= t->rng >> 12;
	t->rng ^= t->rng << 25;
	t->rng ^= t->rng >> 27;
	return t->rng * 2685821657736338717ULL;
}

static uint64_t rnd(struct thr *t, uint64_t n)
{
	return n ? rnd64(t) % n : 0;
}

static int chance(struct thr *t, unsigned int percent)
{
	return rnd(t, 100) < percent;
}

/*
 * A choice among 100 outcomes of which the first @plausible are what a
 * correct caller would pass: a clean call (t->clean) makes only those.
 */
static unsigned int pick(struct thr *t, unsigned int plausible)
{
	return rnd(t, t->clean ? plausible : 100);
}

static void beat_begin(struct thr *t, const char *what)
{
	if (!t->beat)
		return;
	snprintf(t->beat->what, sizeof(t->beat->what), "%s", what);
	t->beat->since_ns = fz_now_ns();
	__atomic_store_n(&t->beat->busy, 1, __ATOMIC_RELEASE);
}

static void beat_end(struct thr *t)
{
	if (t->beat)
		__atomic_store_n(&t->beat->busy, 0, __ATOMIC_RELEASE);
}

static void count(uint64_t *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

/* --- resources ---------------------------------------------------------- */

static void res_add(struct res_set *s, uint64_t v, uint64_t len)
{
	if (s->n == NRES)
		return;		/* forgotten: the file's close frees it */
	s->v[s->n] = v;
	s->len[s->n++] = len;
}

static void res_forget(struct res_set *s, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < s->n; i++) {
		if (s->v[i] != v)
			continue;
		s->stale[s->nstale++ % NSTALE] = v;
		s->v[i] = s->v[--s->n];
		s->len[i] = s->len[s->n];
		return;
	}
}

static struct chan *chan_of(struct ctx *c, uint32_t handle)
{
	unsigned int i;

	for (i = 0; i < NRES; i++)
		if (c->chans[i].live && c->chans[i].handle == handle)
			return &c->chans[i];
	return NULL;
}

static void chan_drop(struct chan *ch)
{
	if (ch->ring)
		munmap(ch->ring, ch->ring_bytes);
	memset(ch, 0, sizeof(*ch));
}

/* Forgets a context whose files are closed; its rings go with it. */
static void ctx_drop(struct ctx *c)
{
	unsigned int i, gen = c->gen + 1;

	for (i = 0; i < NRES; i++)
		if (c->chans[i].live)
			chan_drop(&c->chans[i]);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->alias = -1;
	c->gen = gen;
}

static struct ctx *pick_ctx(struct thr *t)
{
	unsigned int i, start = rnd(t, NCTX);

	for (i = 0; i < NCTX; i++) {
		struct ctx *c = &ctxs[(start + i) % NCTX];

		if (c->fd >= 0)
			return c;
	}
	return NULL;
}

static int ctx_fd(struct thr *t, struct ctx *c)
{
	if (c->alias >= 0 && chance(t, 30))
		return c->alias;
	return c->fd;
}

/* --- host memory -------------------------------------------------------- */

static void region_unmap(struct region *r)
{
	if (r->addr && r->kind != R_GONE)
		munmap(r->addr, r->len + (r->kind == R_HOSTALLOC ? 0 : PAGE));
	if (r->addr)
		r->kind = R_GONE;	/* the address stays, stale */
}

/* Maps @r anew as a kind of memory the kernel must cope with. */
static void region_map(struct thr *t, struct region *r)
{
	static const size_t sizes[] = { PAGE, 2 * PAGE, 16 * PAGE, 64 * PAGE,
					256 * PAGE };
	size_t len = sizes[rnd(t, 5)];
	int kind = rnd(t, 5), fd = -1, prot = PROT_READ | PROT_WRITE;
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	char *p;

	region_unmap(r);
	if (kind == R_MEMFD) {
		fd = memfd_create("vgpu-fuzz", MFD_CLOEXEC);
		if (fd < 0 || ftruncate(fd, (off_t)len)) {
			kind = R_RW;
		} else {
			flags = MAP_SHARED;
		}
	} else if (kind == R_FILE) {
		fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
		len = PAGE;
		prot = PROT_READ;
		flags = MAP_PRIVATE;
		if (fd < 0)
			kind = R_RW;
	}
	if (kind == R_RW || kind == R_RO || kind == R_NONE) {
		flags = MAP_PRIVATE | MAP_ANONYMOUS;
		prot = PROT_READ | PROT_WRITE;
	}
	/* A guard page after the region stops the kernel's overlong writes. */
	p = mmap(NULL, len + PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		goto out;
	if (mmap(p, len, prot, flags | MAP_FIXED, kind == R_MEMFD || kind == R_FILE ?
		 fd : -1, 0) == MAP_FAILED) {
		munmap(p, len + PAGE);
		goto out;
	}
	if (kind == R_RO)
		mprotect(p, len, PROT_READ);
	else if (kind == R_NONE)
		mprotect(p, len, PROT_NONE);
	else if (kind == R_RW && chance(t, 50))
		memset(p, 0, len);	/* faulted in, or left to be */
	r->addr = p;
	r->len = len;
	r->kind = kind;
	count(&cfg->shared->maps);
out:
	if (fd >= 0)
		close(fd);
}

static struct region *pick_region(struct thr *t)
{
	struct region *r = &regions[rnd(t, NREG)];

	return r->addr ? r : NULL;
}

/* --- values of fields --------------------------------------------------- */

static uint64_t gen_flags(struct thr *t, uint64_t valid)
{
	unsigned int r = pick(t, 85);

	if (r < 85)
		return rnd64(t) & valid;
	if (r < 95)
		return (rnd64(t) & valid) | (1ULL << rnd(t, 32));
	return rnd64(t) & 0xffffffffULL;
}

static uint64_t gen_pad(struct thr *t)
{
	return t->clean || chance(t, 96) ? 0 : rnd64(t) | 1;
}

static uint64_t gen_junk(struct thr *t)
{
	static const uint64_t junk[] = {
		0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL,
		~0ULL, 1ULL << 63, 0xffff888000000000ULL, 1ULL << 47,
	};

	return chance(t, 50) ? junk[rnd(t, 10)] : rnd64(t);
}

/* An offset into something @len bytes long, aligned to @align mostly. */
static uint64_t gen_offset(struct thr *t, uint64_t len, uint64_t align)
{
	unsigned int r = pick(t, 80);

	if (!align)
		align = 1;
	if (r < 60 || !len)
		return 0;
	if (r < 80)
		return rnd(t, len) / align * align;
	if (r < 85)
		return len;
	if (r < 90)
		return len - align;
	if (r < 95)
		return -align;
	return rnd(t, len);
}

static uint64_t gen_handle(struct thr *t, unsigned int kind)
{
	struct ctx *c = t->ctx, *o;
	struct res_set *s = c ? &c->res[kind] : NULL;
	unsigned int r = pick(t, 78);

	if (r < 78 && s && s->n)
		return s->v[rnd(t, s->n)];
	if (r < 88 && s && s->nstale)
		return s->stale[rnd(t, s->nstale < NSTALE ? s->nstale : NSTALE)];
	o = pick_ctx(t);
	if (r < 94 && o && o->res[kind].n)
		return o->res[kind].v[rnd(t, o->res[kind].n)];
	return chance(t, 50) ? rnd(t, 200) : gen_junk(t);
}

static uint64_t gen_devaddr(struct thr *t, uint64_t align)
{
	static const unsigned int kinds[] = { FZ_RES_DEVMEM, FZ_RES_DEVMEM,
		FZ_RES_DEVMEM, FZ_RES_HEAP, FZ_RES_HOSTREG, FZ_RES_HOSTREG };
	struct ctx *c = t->ctx;
	unsigned int r = pick(t, 80);
	struct res_set *s;
	struct region *reg;
	unsigned int i;

	if (r < 80 && c) {
		s = &c->res[kinds[rnd(t, 6)]];
		if (s->n) {
			i = rnd(t, s->n);
			t->len_hint = s->len[i];
			return s->v[i] + gen_offset(t, s->len[i], align);
		}
	}
	if (r < 88) {
		reg = pick_region(t);
		if (reg) {
			t->len_hint = reg->len;
			return (uint64_t)(uintptr_t)reg->addr + gen_offset(t, reg->len, align);
		}
	}
	if (r < 93 && c && c->wsize)
		return c->wbase + rnd(t, c->wsize) / (align ? align : 1) * (align ? align : 1);
	return gen_junk(t);
}

static uint64_t gen_hostptr(struct thr *t, uint64_t align)
{
	struct region *reg;
	unsigned int r = pick(t, 85);

	if (r < 85) {
		reg = pick_region(t);
		if (reg) {
			t->len_hint = reg->len;
			return (uint64_t)(uintptr_t)reg->addr + gen_offset(t, reg->len, align);
		}
	}
	if (r < 90)
		return (uint64_t)(uintptr_t)arena;
	if (r < 93)
		return 0;
	return gen_junk(t);
}

static uint64_t gen_size(struct thr *t, uint64_t unit)
{
	unsigned int r = pick(t, 75);

	if (!unit)
		unit = 1;
	if (r < 30 && t->len_hint)
		return t->len_hint;
	if (r < 60)
		return (1 + rnd(t, 16)) * unit;
	if (r < 75)
		return (1 + rnd(t, 256)) * (unit < PAGE ? PAGE : unit);
	if (r < 80)
		return 2 * 1024 * 1024 + unit * rnd(t, 3);
	if (r < 84)
		return 0;
	if (r < 88)
		return 1 + rnd(t, unit);
	if (r < 91)
		return (1 + rnd(t, 64)) << 20;	/* tens of MiB */
	if (r < 94)
		return 1ULL << (40 + rnd(t, 24));	/* huge */
	if (r < 97)
		return -unit;	/* overflows anything added to it */
	return rnd64(t);
}

static uint64_t gen_dim(struct thr *t, uint64_t most)
{
	unsigned int r = pick(t, 92);

	if (r < 50)
		return 1;
	if (r < 92)
		return 1 + rnd(t, most);
	if (r < 95)
		return 0;
	return gen_junk(t);
}

static uint64_t gen_deadline(struct thr *t)
{
	unsigned int r = rnd(t, 100);

	if (r < 30)
		return 0;
	if (r < 85)
		return fz_now_ns() + rnd(t, 200) * 1000000ULL;
	if (r < 95)
		return fz_now_ns() - rnd(t, 1000000000ULL);
	return (uint64_t)-1 - rnd(t, 100);	/* negative: long past */
}

static uint64_t gen_seqno(struct thr *t)
{
	struct chan *ch = t->chan;
	unsigned int r = pick(t, 85);

	if (ch && r < 85)
		return ch->submitted - rnd(t, ch->submitted < 3 ? ch->submitted + 1 : 3);
	if (ch && r < 90)
		return ch->submitted + 1 + rnd(t, 3);
	return chance(t, 50) ? rnd(t, 16) : gen_junk(t);
}

/* Parameters of a launch: the address of an out pointer, written now. */
static uint64_t gen_params(struct thr *t)
{
	struct ctx *c = t->ctx;
	uint64_t *slot = (uint64_t *)(arena + 256 * (size_t)t->index);
	uint64_t out = 0;
	unsigned int i, r = pick(t, 85);

	if (c && c->res[FZ_RES_DEVMEM].n) {
		/* The largest allocation, most likely to hold the grid. */
		struct res_set *s = &c->res[FZ_RES_DEVMEM];
		uint64_t best = 0;

		for (i = 0; i < s->n; i++) {
			if (s->len[i] > best) {
				best = s->len[i];
				out = s->v[i];
			}
		}
	}
	if (!t->clean && chance(t, 5))
		out = gen_devaddr(t, 4);
	slot[0] = out;
	slot[1] = gen_junk(t);
	if (r < 75)
		return (uint64_t)(uintptr_t)slot;
	if (r < 85 && c && c->res[FZ_RES_DEVMEM].n)
		return c->res[FZ_RES_DEVMEM].v[0];	/* device memory, zeros */
	return gen_hostptr(t, 8);
}

static void put_field(unsigned char *base, const struct fz_field *f, uint64_t v)
{
	switch (f->size) {
	case 1: *(uint8_t *)(base + f->off) = (uint8_t)v; break;
	case 2: *(uint16_t *)(base + f->off) = (uint16_t)v; break;
	case 4: *(uint32_t *)(base + f->off) = (uint32_t)v; break;
	default: *(uint64_t *)(base + f->off) = v; break;
	}
}

/* A copy of the fuzzer's program with a few bytes changed. */
static void mutate_program(struct thr *t)
{
	unsigned int i, n = 1 + rnd(t, 4);

	memcpy(t->insns, fz_prog_insns, fz_prog_ninsns * sizeof(*t->insns));
	memcpy(t->funcs, fz_prog_funcs, sizeof(t->funcs));
	for (i = 0; i < n; i++) {
		if (chance(t, 80))
			((unsigned char *)t->insns)[rnd(t, fz_prog_ninsns * sizeof(*t->insns))] ^=
				1 << rnd(t, 8);
		else
			((unsigned char *)t->funcs)[rnd(t, sizeof(t->funcs))] ^= 1 << rnd(t, 8);
	}
}

static uint64_t gen_field(struct thr *t, const struct fz_field *f);

/* Writes @n commands into the ring of t->chan; the new put. */
static uint64_t fill_ring(struct thr *t, unsigned int n)
{
	struct chan *ch = t->chan;
	unsigned int i, j;

	for (i = 0; i < n; i++) {
		const struct fz_cmd *d = &fz_cmds[rnd(t, fz_ncmds)];
		struct vgpu_cmd *cmd = &ch->ring[ch->put % ch->ring_size];

		/* Spinning kernels and waits are rare: they hold the channel. */
		memset(cmd, 0, sizeof(*cmd));
		cmd->op = t->clean || chance(t, 99) ? d->op : (uint32_t)rnd(t, 8);
		cmd->flags = (uint32_t)gen_flags(t, d->flags_valid);
		if (d->op == VGPU_CMD_LAUNCH && chance(t, 90))
			cmd->flags = (uint32_t)rnd(t, VGPU_LAUNCH_PRIORITY_MAX + 1);
		t->len_hint = 0;
		for (j = 0; j < d->nfields; j++)
			put_field((unsigned char *)cmd, &d->fields[j], gen_field(t, &d->fields[j]));
		/*
		 * A wait that is never satisfied holds its channel until the
		 * file is closed: rare. Most waits are satisfied at once.
		 */
		if (d->op == VGPU_CMD_SEM_ACQUIRE && chance(t, 90)) {
			cmd->flags &= VGPU_SEM_32;
			cmd->sem.value = 0;	/* GEQ 0 of a small word */
		}
		count(&cfg->shared->cmds_sent[d - fz_cmds]);
		ch->put++;
	}
	return ch->put;
}

static uint64_t gen_put(struct thr *t)
{
	struct chan *ch = t->chan;
	uint64_t room;
	unsigned int r = pick(t, 90);

	if (!ch || !ch->ring)
		return chance(t, 50) ? rnd(t, 32) : gen_junk(t);
	room = ch->ring_size - (ch->put - ch->submitted);
	if (r < 85 && room)
		return fill_ring(t, 1 + rnd(t, room < 8 ? room : 8));
	if (r < 90)
		return ch->put;		/* the doorbell alone */
	if (r < 95)
		return ch->submitted + ch->ring_size + 1;
	return ch->submitted - 1;
}

static uint64_t gen_field(struct thr *t, const struct fz_field *f)
{
	switch (f->kind) {
	case FZ_PAD:
		return gen_pad(t);
	case FZ_OUT:
		return t->clean || chance(t, 90) ? 0 : rnd64(t);
	case FZ_FLAGS:
		return gen_flags(t, f->arg);
	case FZ_HANDLE: {
		uint64_t v = gen_handle(t, (unsigned int)f->arg);

		if (f->arg == FZ_RES_CHAN && t->ctx)
			t->chan = chan_of(t->ctx, (uint32_t)v);
		return v;
	}
	case FZ_DEVADDR:
		return gen_devaddr(t, f->arg);
	case FZ_HOSTPTR:
		return gen_hostptr(t, f->arg);
	case FZ_SIZE:
		return gen_size(t, f->arg);
	case FZ_COUNT:
		return t->clean || chance(t, 90) ? 1 + rnd(t, f->arg) : gen_junk(t);
	case FZ_DIM:
		return gen_dim(t, f->arg);
	case FZ_SEQNO:
		return gen_seqno(t);
	case FZ_DEADLINE:
		return gen_deadline(t);
	case FZ_PUT:
		return gen_put(t);
	case FZ_INSNS:
		t->prog_mutated = !t->clean && chance(t, 15);
		if (t->prog_mutated)
			mutate_program(t);
		if (!t->clean && chance(t, 4))
			return gen_hostptr(t, 1);
		return (uint64_t)(uintptr_t)(t->prog_mutated ? t->insns : fz_prog_insns);
	case FZ_NINSNS:
		if (t->clean || chance(t, 90))
			return fz_prog_ninsns;
		return chance(t, 50) ? rnd(t, fz_prog_ninsns + 1) : gen_junk(t);
	case FZ_FUNCS:
		if (!t->clean && chance(t, 4))
			return gen_hostptr(t, 1);
		return (uint64_t)(uintptr_t)(t->prog_mutated ? t->funcs : fz_prog_funcs);
	case FZ_NFUNCS:
		if (t->clean || chance(t, 90))
			return FZ_NKERNELS;
		return chance(t, 50) ? rnd(t, FZ_NKERNELS + 1) : gen_junk(t);
	case FZ_FUNC:
		if (chance(t, 3))
			return FZ_K_SPIN;
		if (t->clean || chance(t, 90)) {
			static const unsigned int common[] = { FZ_K_STORE, FZ_K_ATOMIC,
				FZ_K_HEAP, FZ_K_SHARED, FZ_K_STORE, FZ_K_TRAP, FZ_K_FAULT };

			return common[rnd(t, chance(t, 90) ? 4 : 7)];
		}
		return gen_junk(t);
	case FZ_SEM_VALUE:
		return t->clean || chance(t, 80) ? rnd(t, 4) : gen_junk(t);
	case FZ_PARAMS:
		return gen_params(t);
	case FZ_WINDOW_BASE:
		if ((t->clean || chance(t, 85)) && t->ctx)
			return (1ULL << 40) * (uint64_t)(1 + (t->ctx - ctxs));
		return chance(t, 50) ? VGPU_VA_LIMIT - VGPU_VA_ALIGN * rnd(t, 3) : gen_junk(t);
	case FZ_WINDOW_SIZE:
		if (t->clean || chance(t, 85))
			return 1ULL << 32;
		return chance(t, 50) ? VGPU_VA_WINDOW_MAX + VGPU_VA_ALIGN * (rnd(t, 3) - 1) :
			gen_junk(t);
	case FZ_LOG: {
		unsigned int r = rnd(t, 100);
		struct region *reg;

		t->log_is_ours = 0;
		if (r < 40)
			return 0;
		if (r < 80) {
			t->log_is_ours = 1;
			return (uint64_t)(uintptr_t)t->log;
		}
		/* Pool regions have guard pages; anywhere else is not written. */
		reg = pick_region(t);
		if (reg) {
			t->len_hint = reg->len;
			return (uint64_t)(uintptr_t)reg->addr + gen_offset(t, reg->len, 1);
		}
		return chance(t, 50) ? 0 : gen_junk(t) | (1ULL << 63);
	}
	case FZ_LOG_SIZE:
		if (t->log_is_ours)
			return rnd(t, sizeof(t->log) + 1);
		return chance(t, 70) ? t->len_hint : rnd(t, 2 * PAGE);
	case FZ_GRID_SYNC:
		return chance(t, 90) ? 0 : gen_devaddr(t, 8);
	case FZ_RING:
	case FZ_RING_SIZE:
		return 0;	/* chan_create_args() fills them */
	}
	return 0;
}

/* --- calls ----------------------------------------------------------------- */

/* The ring of a channel about to be created; its size in *@size. */
static uint64_t chan_create_args(struct thr *t, struct vgpu_chan_create *cc,
				 struct vgpu_cmd **ring, size_t *bytes)
{
	unsigned int r = rnd(t, 100);
	struct region *reg;

	cc->ring_size = VGPU_RING_MIN << rnd(t, 5);
	if (chance(t, 5))
		cc->ring_size = chance(t, 50) ? (uint32_t)gen_junk(t) : VGPU_RING_MAX * 2;
	*ring = NULL;
	if (r < 90 && cc->ring_size <= VGPU_RING_MAX) {
		*bytes = (cc->ring_size * sizeof(struct vgpu_cmd) + PAGE - 1) & ~(PAGE - 1);
		*ring = mmap(NULL, *bytes, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (*ring == MAP_FAILED)
			*ring = NULL;
		cc->ring = (uint64_t)(uintptr_t)*ring;
		if (chance(t, 3))
			cc->ring += 8;	/* misaligned */
		return cc->ring;
	}
	reg = pick_region(t);
	cc->ring = reg ? (uint64_t)(uintptr_t)reg->addr : gen_junk(t);
	return cc->ring;
}

/* Records what a successful call made or ended. */
static void record(struct thr *t, const struct fz_ioctl *d, unsigned char *a,
		   struct vgpu_cmd *ring, size_t ring_bytes)
{
	struct ctx *c = t->ctx;
	uint64_t v = 0;
	unsigned int i;

	if (d->makes != FZ_RES_NONE)
		memcpy(&v, a + d->makes_off, d->makes == FZ_RES_CHAN ||
		       d->makes == FZ_RES_MODULE ? 4 : 8);
	switch (d->nr) {
	case VGPU_IOCTL_SET_VA_WINDOW:
		c->wbase = ((struct vgpu_va_window *)a)->base;
		c->wsize = ((struct vgpu_va_window *)a)->size;
		return;
	case VGPU_IOCTL_MEM_ALLOC:
		res_add(&c->res[FZ_RES_DEVMEM], v, ((struct vgpu_mem_alloc *)a)->size);
		return;
	case VGPU_IOCTL_HEAP_CREATE:
		res_add(&c->res[FZ_RES_HEAP], v, ((struct vgpu_heap_create *)a)->size);
		return;
	case VGPU_IOCTL_HOST_REGISTER:
		res_add(&c->res[FZ_RES_HOSTREG], v, ((struct vgpu_host_register *)a)->size);
		return;
	case VGPU_IOCTL_HOST_ALLOC:
		res_add(&c->res[FZ_RES_HOSTALLOC], v, ((struct vgpu_host_alloc *)a)->size);
		return;
	case VGPU_IOCTL_MODULE_LOAD:
		res_add(&c->res[FZ_RES_MODULE], v, 0);
		return;
	case VGPU_IOCTL_CHAN_CREATE:
		for (i = 0; i < NRES; i++) {
			struct chan *ch = &c->chans[i];

			if (ch->live)
				continue;
			ch->live = 1;
			ch->handle = (uint32_t)v;
			ch->ring = ring;
			ch->ring_bytes = ring_bytes;
			ch->ring_size = ((struct vgpu_chan_create *)a)->ring_size;
			res_add(&c->res[FZ_RES_CHAN], v, 0);
			return;
		}
		if (ring)
			munmap(ring, ring_bytes);
		return;
	case VGPU_IOCTL_CHAN_DESTROY: {
		struct chan *ch = chan_of(c, ((struct vgpu_chan_destroy *)a)->handle);

		res_forget(&c->res[FZ_RES_CHAN], ((struct vgpu_chan_destroy *)a)->handle);
		if (ch)
			chan_drop(ch);
		return;
	}
	}
	if (d->frees != FZ_RES_NONE) {
		memcpy(&v, a + d->frees_off, d->frees == FZ_RES_MODULE ? 4 : 8);
		res_forget(&c->res[d->frees], d->frees == FZ_RES_MODULE ? (uint32_t)v : v);
	}
}

/* Weights of the ioctls (index in fz_ioctls), submits and waits first. */
static const struct fz_ioctl *pick_ioctl(struct thr *t)
{
	unsigned int r = rnd(t, 100), i;

	for (i = 0; i < fz_nioctls; i++) {
		if (r < 30 && fz_ioctls[i].nr == VGPU_IOCTL_CHAN_SUBMIT)
			return &fz_ioctls[i];
		if (r >= 30 && r < 40 && fz_ioctls[i].nr == VGPU_IOCTL_CHAN_WAIT)
			return &fz_ioctls[i];
		if (r >= 40 && r < 48 && fz_ioctls[i].nr == VGPU_IOCTL_MEM_ALLOC)
			return &fz_ioctls[i];
	}
	return &fz_ioctls[rnd(t, fz_nioctls)];
}

static void do_ioctl(struct thr *t, const struct fz_ioctl *d)
{
	unsigned char *a = t->arg;
	struct vgpu_cmd *ring = NULL;
	size_t ring_bytes = 0, size = d->size;
	unsigned long nr = d->nr;
	unsigned int i, gen, r;
	void *argp = a;
	struct ctx *c;
	int fd, ret;

	pthread_mutex_lock(&lock);
	c = pick_ctx(t);
	if (!c) {
		pthread_mutex_unlock(&lock);
		return;
	}
	gen = c->gen;
	fd = ctx_fd(t, c);
	t->ctx = c;
	t->chan = NULL;
	t->len_hint = 0;
	t->log_is_ours = 0;
	t->prog_mutated = 0;
	t->clean = chance(t, 50);
	memset(a, 0, ARG_MAX_SIZE);
	if (!t->clean && chance(t, 2))
		for (i = 0; i < size; i++)
			a[i] = (unsigned char)rnd64(t);
	for (i = 0; i < d->nfields; i++)
		put_field(a, &d->fields[i], gen_field(t, &d->fields[i]));
	if (d->nr == VGPU_IOCTL_CHAN_CREATE)
		chan_create_args(t, (struct vgpu_chan_create *)a, &ring, &ring_bytes);
	pthread_mutex_unlock(&lock);

	/* Now and then the structure, its size or the number is wrong. */
	r = t->clean ? 100 : rnd(t, 100);
	if (r < 2) {
		a[rnd(t, size)] ^= 1 << rnd(t, 8);
	} else if (r < 4) {
		/* Shorter than the first layout (-EINVAL). */
		size = rnd(t, d->min_size);
	} else if (r < 6) {
		size = d->size + 8 * (1 + rnd(t, 8));	/* zero tail */
	} else if (r < 7) {
		size = d->size + 8;
		a[d->size + rnd(t, 8)] = 1;		/* nonzero tail */
	} else if (r < 8) {
		size = d->min_size;
	}
	if (size != d->size)
		nr = (nr & ~((unsigned long)_IOC_SIZEMASK << _IOC_SIZESHIFT)) |
		     ((unsigned long)size << _IOC_SIZESHIFT);
	r = t->clean ? 100 : rnd(t, 100);
	if (r < 1) {
		nr = _IOC(rnd(t, 4), chance(t, 50) ? VGPU_IOCTL_TYPE : rnd(t, 256),
			  rnd(t, 32), rnd(t, 256));
	} else if (r < 3) {
		argp = chance(t, 50) ? NULL : (void *)(uintptr_t)gen_junk(t);
	} else if (r < 6 && size <= PAGE) {
		/* Read-only: the kernel must not keep what it cannot report. */
		memcpy(t->ro_arg, a, size);
		mprotect(t->ro_arg, PAGE, PROT_READ);
		argp = t->ro_arg;
	}

	beat_begin(t, d->name);
	ret = ioctl(fd, nr, argp);
	beat_end(t);
	if (argp == t->ro_arg)
		mprotect(t->ro_arg, PAGE, PROT_READ | PROT_WRITE);
	count(&cfg->shared->ioctl_calls[d - fz_ioctls]);
	if (cfg->unprivileged)
		count(&cfg->shared->unpriv_calls);

	pthread_mutex_lock(&lock);
	if (c->gen != gen || c->fd < 0) {
		if (ring)
			munmap(ring, ring_bytes);
		pthread_mutex_unlock(&lock);
		return;
	}
	/* The chan may have been destroyed meanwhile: look it up again. */
	if (d->nr == VGPU_IOCTL_CHAN_SUBMIT)
		t->chan = chan_of(c, ((struct vgpu_chan_submit *)a)->handle);
	if (ret == 0 && argp == a && nr == d->nr) {
		count(&cfg->shared->ioctl_ok[d - fz_ioctls]);
		if (d->nr == VGPU_IOCTL_CHAN_SUBMIT && t->chan) {
			t->chan->submitted = ((struct vgpu_chan_submit *)a)->put;
			if (t->chan->put < t->chan->submitted)
				t->chan->put = t->chan->submitted;
		}
		record(t, d, a, ring, ring_bytes);
		ring = NULL;
	} else if (d->nr == VGPU_IOCTL_CHAN_SUBMIT && t->chan) {
		t->chan->put = t->chan->submitted;	/* nothing was taken */
	}
	if (ring && d->nr == VGPU_IOCTL_CHAN_CREATE && ret == 0) {
		/* Created through another size or pointer: keep the ring. */
		ring = NULL;
	}
	if (ring)
		munmap(ring, ring_bytes);
	pthread_mutex_unlock(&lock);
}

/* --- files, mappings, processes ------------------------------------------ */

static int open_dev(struct thr *t, int dev)
{
	char path[32];
	int fd, i;

	snprintf(path, sizeof(path), "/dev/vgpu%d", dev);
	beat_begin(t, "open");
	fd = open(path, (chance(t, 95) ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	beat_end(t);
	if (fd >= 0 || !cfg->unprivileged)
		return fd;
	/*
	 * Nobody cannot open the node: use the files opened before, the
	 * first one last and then only through copies.
	 */
	for (i = 1; i < NCTX; i++) {
		if (master_fds[dev][i] >= 0) {
			fd = master_fds[dev][i];
			master_fds[dev][i] = -1;
			return fd;
		}
	}
	return master_fds[dev][0] >= 0 ? fcntl(master_fds[dev][0], F_DUPFD_CLOEXEC, 0) : -1;
}

/* A context taken to where its calls reach the engines: window, memory, a module, a channel. */
static void ctx_setup(struct thr *t, struct ctx *c)
{
	struct vgpu_va_window w = { .base = (1ULL << 40) * (uint64_t)(1 + (c - ctxs)),
				    .size = 1ULL << 32 };
	struct vgpu_mem_alloc ma = { .size = 64 * 1024 };
	struct vgpu_host_register hr = { .addr = (uintptr_t)arena, .size = ARENA_SIZE };
	struct vgpu_module_load ml = {
		.insns = (uintptr_t)fz_prog_insns, .funcs = (uintptr_t)fz_prog_funcs,
		.ninsns = fz_prog_ninsns, .nfuncs = FZ_NKERNELS,
	};
	struct vgpu_heap_create hc = { .size = 1 << 20 };
	struct vgpu_chan_create cc = { .ring_size = 64 };
	struct vgpu_cmd *ring;
	size_t bytes = 64 * sizeof(struct vgpu_cmd);

	beat_begin(t, "setup");
	if (!ioctl(c->fd, VGPU_IOCTL_SET_VA_WINDOW, &w)) {
		c->wbase = w.base;
		c->wsize = w.size;
	}
	if (!ioctl(c->fd, VGPU_IOCTL_MEM_ALLOC, &ma))
		res_add(&c->res[FZ_RES_DEVMEM], ma.va, ma.size);
	if (!ioctl(c->fd, VGPU_IOCTL_HOST_REGISTER, &hr))
		res_add(&c->res[FZ_RES_HOSTREG], hr.addr, hr.size);
	if (!ioctl(c->fd, VGPU_IOCTL_MODULE_LOAD, &ml))
		res_add(&c->res[FZ_RES_MODULE], ml.handle, 0);
	if (chance(t, 50) && !ioctl(c->fd, VGPU_IOCTL_HEAP_CREATE, &hc))
		res_add(&c->res[FZ_RES_HEAP], hc.va, hc.size);
	ring = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ring != MAP_FAILED) {
		cc.ring = (uintptr_t)ring;
		if (!ioctl(c->fd, VGPU_IOCTL_CHAN_CREATE, &cc)) {
			c->chans[0] = (struct chan){ .live = 1, .handle = cc.handle,
				.ring = ring, .ring_bytes = bytes, .ring_size = 64 };
			res_add(&c->res[FZ_RES_CHAN], cc.handle, 0);
		} else {
			munmap(ring, bytes);
		}
	}
	beat_end(t);
}

static void act_open(struct thr *t)
{
	unsigned int i;
	int dev = rnd(t, NDEV), fd;

	fd = open_dev(t, dev);
	if (fd < 0)
		return;
	count(&cfg->shared->opens);
	for (i = 0; i < NCTX; i++) {
		struct ctx *c = &ctxs[i];

		if (c->fd >= 0)
			continue;
		ctx_drop(c);
		c->fd = fd;
		c->dev = dev;
		if (chance(t, 80))
			ctx_setup(t, c);
		return;
	}
	close(fd);
}

static void act_close(struct thr *t)
{
	struct ctx *c = pick_ctx(t);

	if (!c)
		return;
	count(&cfg->shared->closes);
	beat_begin(t, "close");
	if (c->alias >= 0 && chance(t, 50)) {
		close(c->alias);
		c->alias = -1;
	} else {
		close(c->fd);
		if (c->alias >= 0) {
			c->fd = c->alias;	/* the context lives on */
			c->alias = -1;
		} else {
			ctx_drop(c);
		}
	}
	beat_end(t);
}

static void act_dup(struct thr *t)
{
	struct ctx *c = pick_ctx(t);

	if (c && c->alias < 0)
		c->alias = fcntl(c->fd, F_DUPFD_CLOEXEC, 0);
}

/* Maps a host allocation (or the status page) of a context, or tries to. */
static void act_mmap(struct thr *t)
{
	struct ctx *c = pick_ctx(t);
	struct region *reg = &regions[rnd(t, NREG)];
	struct res_set *s;
	uint64_t off = 0, len = PAGE;
	int prot = PROT_READ | PROT_WRITE, flags = MAP_SHARED;
	unsigned int i;
	void *p;

	if (!c)
		return;
	s = &c->res[FZ_RES_HOSTALLOC];
	if (s->n && chance(t, 80)) {
		i = rnd(t, s->n);
		off = s->v[i];
		len = s->len[i];
	} else if (chance(t, 30)) {
		prot = PROT_READ;	/* the status page */
	} else {
		off = rnd(t, 64) * PAGE;
	}
	if (chance(t, 10))
		len = chance(t, 50) ? len / 2 + PAGE : len + PAGE;
	if (chance(t, 5))
		prot |= PROT_EXEC;
	if (chance(t, 5))
		flags = MAP_PRIVATE;
	beat_begin(t, "mmap");
	p = mmap(NULL, len, prot, flags, ctx_fd(t, c), (off_t)off);
	beat_end(t);
	if (p == MAP_FAILED)
		return;
	if (!off) {
		/* The status page: nothing to pass on, unmapped later. */
		if (chance(t, 50)) {
			munmap(p, len);
			return;
		}
	}
	region_unmap(reg);
	reg->addr = p;
	reg->len = len;
	reg->kind = R_HOSTALLOC;
	count(&cfg->shared->maps);
}

static void act_region(struct thr *t)
{
	struct region *reg = &regions[rnd(t, NREG)];
	unsigned int r = rnd(t, 100);

	beat_begin(t, "munmap");
	if (r < 40) {
		region_map(t, reg);
	} else if (r < 70) {
		region_unmap(reg);
		count(&cfg->shared->unmaps);
	} else if (r < 80 && reg->addr && reg->kind == R_HOSTALLOC) {
		/*
		 * Part of a host allocation (it cannot be split), then the
		 * rest: a hole left in it would be reused by a ring's mmap.
		 */
		munmap(reg->addr + PAGE * rnd(t, reg->len / PAGE), PAGE);
		region_unmap(reg);
	} else if (r < 90 && reg->addr && reg->kind != R_GONE) {
		mprotect(reg->addr, reg->len, chance(t, 50) ? PROT_READ : PROT_NONE);
	} else if (reg->addr && reg->kind != R_GONE) {
		void *p = mremap(reg->addr, reg->len, reg->len + PAGE, MREMAP_MAYMOVE);

		if (p != MAP_FAILED) {
			/* Moved or grown: the old guard page may be gone. */
			reg->addr = p;
			reg->len += PAGE;
			munmap(p, reg->len);
			reg->kind = R_GONE;
		}
	}
	beat_end(t);
}

static void act_poll(struct thr *t)
{
	struct ctx *c = pick_ctx(t);
	struct pollfd p;

	if (!c)
		return;
	p.fd = ctx_fd(t, c);
	p.events = POLLIN | POLLPRI | POLLOUT;
	beat_begin(t, "poll");
	poll(&p, 1, (int)rnd(t, 20));
	beat_end(t);
}

static void reap(void)
{
	unsigned int i;

	for (i = 0; i < NCHILD; i++)
		if (children[i] > 0 && waitpid(children[i], NULL, WNOHANG) == children[i])
			children[i] = 0;
}

static void act_kill(struct thr *t)
{
	unsigned int i = rnd(t, NCHILD);

	if (children[i] > 0) {
		kill(children[i], SIGKILL);
		count(&cfg->shared->kills);
	}
}

static void fuzz_loop(struct thr *t, uint64_t end_ns);

/* A child with copies of the files: it uses them a little and exits. */
static void act_fork(struct thr *t)
{
	unsigned int i, slot = NCHILD;
	pid_t pid;

	reap();
	for (i = 0; i < NCHILD; i++)
		if (children[i] <= 0)
			slot = i;
	if (slot == NCHILD)
		return;
	pid = fork();
	if (pid < 0)
		return;
	if (pid > 0) {
		children[slot] = pid;
		count(&cfg->shared->forks);
		return;
	}
	/* The child: host allocations are not inherited, nor are threads. */
	in_child = 1;
	pthread_mutex_init(&lock, NULL);
	for (i = 0; i < NREG; i++)
		if (regions[i].kind == R_HOSTALLOC)
			regions[i].kind = R_GONE;
	for (i = 0; i < NCHILD; i++)
		children[i] = 0;
	t->beat = NULL;
	t->rng ^= (uint64_t)getpid() << 20;
	fuzz_loop(t, fz_now_ns() + (50 + rnd(t, 500)) * 1000000ULL);
	_exit(0);
}

static void act_signal(struct thr *t)
{
	unsigned int i = rnd(t, (unsigned int)cfg->threads);

	if (!in_child && !stopping && (int)i != t->index)
		pthread_kill(threads[i], SIGUSR1);	/* interrupts waits */
}

static void fuzz_loop(struct thr *t, uint64_t end_ns)
{
	while (fz_now_ns() < end_ns) {
		unsigned int r = rnd(t, 1000);

		if (r < 880) {
			do_ioctl(t, pick_ioctl(t));
			continue;
		}
		pthread_mutex_lock(&lock);
		if (r < 900)
			act_open(t);
		else if (r < 910)
			act_close(t);
		else if (r < 920)
			act_dup(t);
		else if (r < 945)
			act_mmap(t);
		else if (r < 975)
			act_region(t);
		else if (r < 985)
			act_poll(t);
		else if (r < 990 && !in_child && t->index == 0)
			act_fork(t);
		else if (r < 995 && !in_child)
			act_kill(t);
		else
			act_signal(t);
		pthread_mutex_unlock(&lock);
	}
}

static void *thread_main(void *arg)
{
	struct thr *t = arg;

	t->tid = (pid_t)syscall(SYS_gettid);
	if (t->beat)
		t->beat->tid = t->tid;
	fuzz_loop(t, cfg->end_ns);
	return NULL;
}

static void on_usr1(int sig)
{
	(void)sig;
}

/* A crash of the fuzzer itself: where, for whoever reads the log. */
static void on_crash(int sig, siginfo_t *si, void *uc)
{
	char msg[96];
	void *bt[32];
	int n, len;

	(void)uc;
	len = snprintf(msg, sizeof(msg), "# worker %d: signal %d at address %p\n",
		       getpid(), sig, si->si_addr);
	if (write(2, msg, (size_t)len) < 0)
		_exit(6);
	n = backtrace(bt, 32);
	backtrace_symbols_fd(bt, n, 2);
	signal(sig, SIG_DFL);
	raise(sig);
}

void fz_worker_main(const struct fz_worker_cfg *config)
{
	static struct thr thr[FZ_MAX_THREADS];
	struct sigaction sa = { .sa_handler = on_usr1 };
	unsigned int i, j;

	cfg = config;
	sigaction(SIGUSR1, &sa, NULL);	/* no SA_RESTART: waits see EINTR */
	sa.sa_handler = NULL;
	sa.sa_sigaction = on_crash;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	for (i = 0; i < NCTX; i++) {
		ctxs[i].fd = -1;
		ctxs[i].alias = -1;
	}
	for (i = 0; i < NDEV; i++)
		for (j = 0; j < NCTX; j++)
			master_fds[i][j] = cfg->unprivileged ?
				open(i ? "/dev/vgpu1" : "/dev/vgpu0", O_RDWR | O_CLOEXEC) : -1;
	arena = mmap(NULL, ARENA_SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED)
		_exit(3);
	for (i = 0; i < (unsigned int)cfg->threads; i++) {
		thr[i].index = (int)i;
		thr[i].rng = cfg->seed * 0x9e3779b97f4a7c15ULL + (uint64_t)cfg->index * 7919 + i + 1;
		thr[i].beat = &cfg->shared->beat[cfg->index][i];
		thr[i].ro_arg = mmap(NULL, PAGE, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (thr[i].ro_arg == MAP_FAILED)
			_exit(3);
	}
	for (i = 0; i < NREG; i++)
		region_map(&thr[0], &regions[i]);
	if (cfg->unprivileged) {
		/* Users are not root: no CAP_IPC_LOCK, a small RLIMIT_MEMLOCK. */
		struct rlimit rl = { 8 << 20, 8 << 20 };

		setrlimit(RLIMIT_MEMLOCK, &rl);
		if (setgroups(0, NULL) || setgid(NOBODY) || setuid(NOBODY))
			_exit(4);
	}
	for (i = 0; i < 2; i++)
		act_open(&thr[0]);
	for (i = 1; i < (unsigned int)cfg->threads; i++)
		if (pthread_create(&threads[i], NULL, thread_main, &thr[i]))
			_exit(3);
	threads[0] = pthread_self();
	thread_main(&thr[0]);
	pthread_mutex_lock(&lock);
	stopping = 1;
	pthread_mutex_unlock(&lock);
	for (i = 1; i < (unsigned int)cfg->threads; i++)
		pthread_join(threads[i], NULL);
	for (i = 0; i < NCHILD; i++)
		if (children[i] > 0)
			kill(children[i], SIGKILL);
	for (i = 0; i < NCHILD; i++)
		if (children[i] > 0)
			waitpid(children[i], NULL, 0);
	_exit(0);
}
