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
#include <ucontext.h>
#include <unistd.h>

#include "vgpu_fuzz_state.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
struct ctx ctxs[NCTX];
struct region regions[NREG];
char *arena;		/* launch parameters, registered in contexts */
static pid_t children[NCHILD];
const struct fz_worker_cfg *cfg;
static int master_fds[NDEV][NCTX];	/* opened before dropping privileges */
static int in_child;		/* a forked child of the worker */
static pthread_t threads[FZ_MAX_THREADS];
static int stopping;		/* threads are being joined: no more signals */

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
	if (c->dmabuf >= 0)
		close(c->dmabuf);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->alias = -1;
	c->dmabuf = -1;
	c->gen = gen;
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
		       d->makes == FZ_RES_MODULE || d->makes == FZ_RES_MOBJ ?
		       4 : 8);
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
	case VGPU_IOCTL_MEM_CREATE:
		res_add(&c->res[FZ_RES_MOBJ], v, ((struct vgpu_mem_create *)a)->size);
		return;
	case VGPU_IOCTL_MEM_IMPORT:
		res_add(&c->res[FZ_RES_MOBJ], v, ((struct vgpu_mem_import *)a)->size);
		return;
	case VGPU_IOCTL_VA_RESERVE:
		res_add(&c->res[FZ_RES_VARES], v, ((struct vgpu_va_reserve *)a)->size);
		return;
	case VGPU_IOCTL_MEM_EXPORT:
		/*
		 * The dma-buf holds its object: keep the newest open for
		 * MEM_IMPORT to find, close the one before.
		 */
		if (c->dmabuf >= 0)
			close(c->dmabuf);
		c->dmabuf = ((struct vgpu_mem_export *)a)->fd;
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
		int small = d->frees == FZ_RES_MODULE || d->frees == FZ_RES_MOBJ;

		memcpy(&v, a + d->frees_off, small ? 4 : 8);
		res_forget(&c->res[d->frees], small ? (uint32_t)v : v);
	}
}

/*
 * Notes errno @err of a call with number @nr, for the ioctl the number
 * reaches: not necessarily the one whose arguments were built, as the
 * number is sometimes garbled. Numbers of another type are not vgpu's
 * to answer (the kernel's own file ioctls come first).
 */
static void note_errno(unsigned long nr, int err)
{
	unsigned int row = FZ_ERR_UNKNOWN, i;

	if (_IOC_TYPE(nr) != VGPU_IOCTL_TYPE)
		return;
	for (i = 0; i < fz_nioctls && i < FZ_MAX_IOCTLS; i++) {
		if (_IOC_NR(fz_ioctls[i].nr) == _IOC_NR(nr) &&
		    _IOC_DIR(fz_ioctls[i].nr) == _IOC_DIR(nr)) {
			row = i;
			break;
		}
	}
	if (err > 0 && err < FZ_ERRNO_BITS)
		__atomic_fetch_or(&cfg->shared->errs[row][err / 64], 1ULL << (err % 64),
				  __ATOMIC_RELAXED);
	else
		__atomic_store_n(&cfg->shared->big_errno[row], err, __ATOMIC_RELAXED);
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
	unsigned int i, gen, closes, r;
	void *argp = a;
	struct ctx *c;
	int fd, ret, err;

	pthread_mutex_lock(&lock);
	c = pick_ctx(t);
	if (!c) {
		pthread_mutex_unlock(&lock);
		return;
	}
	gen = c->gen;
	closes = c->closes;
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
	err = errno;
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
	/*
	 * With no file of the context closed meanwhile, @fd was the
	 * context's (not a number another thread freed and reused).
	 */
	if (ret < 0 && c->closes == closes)
		note_errno(nr, err);
	/* The chan may have been destroyed meanwhile: look it up again. */
	if (d->nr == VGPU_IOCTL_CHAN_SUBMIT)
		t->chan = chan_of(c, ((struct vgpu_chan_submit *)a)->handle);
	if (ret == 0 && argp == a && (d->nr == VGPU_IOCTL_MEM_ALLOC ||
					 d->nr == VGPU_IOCTL_HOST_ALLOC ||
					 d->nr == VGPU_IOCTL_HEAP_CREATE ||
					 d->nr == VGPU_IOCTL_MEM_CREATE))
		c->bytes += *(uint64_t *)a;	/* each one's size comes first */
	/* The kernel keeps a queue as long as the ring: count it too. */
	if (ret == 0 && argp == a && d->nr == VGPU_IOCTL_CHAN_CREATE)
		c->bytes += 2ULL * sizeof(struct vgpu_cmd) *
			    ((struct vgpu_chan_create *)a)->ring_size;
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
	if (c->bytes > CTX_BUDGET) {
		close(c->fd);
		if (c->alias >= 0)
			close(c->alias);
		ctx_drop(c);
		count(&cfg->shared->closes);
	}
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
	 * Nobody cannot open the node: use the files opened before. Not
	 * copies of one of them: that one context would grow without end.
	 */
	for (i = 0; i < NCTX; i++) {
		if (master_fds[dev][i] >= 0) {
			fd = master_fds[dev][i];
			master_fds[dev][i] = -1;
			return fd;
		}
	}
	return -1;
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
	c->closes++;
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
		for (i = 0; i < NCTX; i++)
			if (ctxs[i].fd >= 0)
				ctxs[i].bytes += CHILD_SHARE;
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
	for (i = 0; i < NCTX; i++)
		if (ctxs[i].bytes < CTX_BUDGET - CHILD_SHARE)
			ctxs[i].bytes = CTX_BUDGET - CHILD_SHARE;
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

/* The thread's state, for the crash report. */
static __thread struct thr *cur_thr;

static void *thread_main(void *arg)
{
	struct thr *t = arg;

	cur_thr = t;

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
	char msg[128];
	void *bt[32];
	int n, len;

	len = snprintf(msg, sizeof(msg), "# worker %d: signal %d at address %p (code %d)\n",
		       getpid(), sig, si->si_addr, si->si_code);
	if (write(2, msg, (size_t)len) < 0)
		_exit(6);
#ifdef __x86_64__
	{
		/* Where a wild pointer came from: registers and the thread's buffers. */
		const greg_t *g = ((const ucontext_t *)uc)->uc_mcontext.gregs;
		char regs[256];

		len = snprintf(regs, sizeof(regs),
			       "# rip %llx rdi %llx rsi %llx rdx %llx rsp %llx; arg %p ro_arg %p\n",
			       (unsigned long long)g[REG_RIP], (unsigned long long)g[REG_RDI],
			       (unsigned long long)g[REG_RSI], (unsigned long long)g[REG_RDX],
			       (unsigned long long)g[REG_RSP],
			       cur_thr ? (void *)cur_thr->arg : NULL,
			       cur_thr ? (void *)cur_thr->ro_arg : NULL);
		if (len > 0 && write(2, regs, (size_t)len) < 0)
			_exit(6);
	}
#else
	(void)uc;
#endif
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
		ctxs[i].dmabuf = -1;
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
	/* Set before any thread may signal it. */
	threads[0] = pthread_self();
	pthread_mutex_lock(&lock);
	for (i = 1; i < (unsigned int)cfg->threads; i++)
		if (pthread_create(&threads[i], NULL, thread_main, &thr[i]))
			_exit(3);
	pthread_mutex_unlock(&lock);
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
