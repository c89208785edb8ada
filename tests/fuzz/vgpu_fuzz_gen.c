// SPDX-License-Identifier: GPL-2.0
/*
 * Values of the fields the ioctl fuzzer fills, by kind (vgpu_ioctl_desc.h):
 * mostly what a correct caller passes, drawn from what earlier calls
 * returned, now and then wrong in one place, and wholly plausible in a
 * "clean" call. Channel commands are written into their ring here.
 */
#include <string.h>
#include <time.h>

#include "vgpu_fuzz_state.h"

uint64_t fz_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

uint64_t rnd64(struct thr *t)
{
	/* xorshift64*: small, good enough, and reproducible from the seed. */
	t->rng ^= t->rng >> 12;
	t->rng ^= t->rng << 25;
	t->rng ^= t->rng >> 27;
	return t->rng * 2685821657736338717ULL;
}

uint64_t rnd(struct thr *t, uint64_t n)
{
	return n ? rnd64(t) % n : 0;
}

int chance(struct thr *t, unsigned int percent)
{
	return rnd(t, 100) < percent;
}

/*
 * A choice among 100 outcomes of which the first @plausible are what a
 * correct caller would pass: a clean call (t->clean) makes only those.
 */
unsigned int pick(struct thr *t, unsigned int plausible)
{
	return rnd(t, t->clean ? plausible : 100);
}

void count(uint64_t *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

struct chan *chan_of(struct ctx *c, uint32_t handle)
{
	unsigned int i;

	for (i = 0; i < NRES; i++)
		if (c->chans[i].live && c->chans[i].handle == handle)
			return &c->chans[i];
	return NULL;
}

struct ctx *pick_ctx(struct thr *t)
{
	unsigned int i, start = rnd(t, NCTX);

	for (i = 0; i < NCTX; i++) {
		struct ctx *c = &ctxs[(start + i) % NCTX];

		if (c->fd >= 0)
			return c;
	}
	return NULL;
}

struct region *pick_region(struct thr *t)
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

uint64_t gen_junk(struct thr *t)
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
	/*
	 * Up to a MiB of pages; of a larger unit (a VA granule, 2 MiB) a
	 * few: 256 granules of a MEM_CREATE are the device's whole memory,
	 * one vmalloc() that a VM of the debug kernel cannot give.
	 */
	if (r < 75)
		return unit <= PAGE ? (1 + rnd(t, 256)) * PAGE :
				      (1 + rnd(t, 4)) * unit;
	if (r < 80)
		return 2 * 1024 * 1024 + unit * rnd(t, 3);
	if (r < 84)
		return 0;
	if (r < 88)
		return 1 + rnd(t, unit);
	/*
	 * Sizes that succeed stay at a few MiB: host allocations live until
	 * their file closes, and larger ones add up to more than the VM has.
	 */
	if (r < 91)
		return (1 + rnd(t, 4)) << 20;
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

/*
 * A chain's steps: four launches whose fields are generated as a LAUNCH
 * command's, in the thread's part of the arena's second half; now and
 * then an address of anything.
 */
static uint64_t gen_steps(struct thr *t)
{
	struct vgpu_chain_step *s = (struct vgpu_chain_step *)
		(arena + ARENA_SIZE / 2 + 512 * (size_t)t->index);
	const struct fz_cmd *launch = NULL;
	unsigned int i, j;

	for (i = 0; i < fz_ncmds; i++)
		if (fz_cmds[i].op == VGPU_CMD_LAUNCH)
			launch = &fz_cmds[i];
	for (i = 0; i < 4 && launch; i++) {
		unsigned char *base = (unsigned char *)&s[i].launch -
			offsetof(struct vgpu_cmd, launch);

		memset(&s[i], 0, sizeof(s[i]));
		if (!t->clean && chance(t, 10))
			s[i].flags = (uint32_t)gen_flags(t, VGPU_LAUNCH_USER_SM |
							 VGPU_LAUNCH_USM_RUNS);
		for (j = 0; j < launch->nfields; j++)
			put_field(base, &launch->fields[j], gen_field(t, &launch->fields[j]));
	}
	if (!t->clean && chance(t, 5))
		return gen_hostptr(t, 8);
	return (uint64_t)(uintptr_t)s;
}

void put_field(unsigned char *base, const struct fz_field *f, uint64_t v)
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

uint64_t gen_field(struct thr *t, const struct fz_field *f);

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

uint64_t gen_field(struct thr *t, const struct fz_field *f)
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
	case FZ_STEPS:
		return gen_steps(t);
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
