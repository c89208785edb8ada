// SPDX-License-Identifier: MIT
/*
 * User-mode SMs: threads of this process that take blocks of the context's
 * launches from the module (USM_ATTACH, USM_WAIT, USM_DONE in uapi/vgpu.h)
 * and run them on the native engine. The module keeps the order of
 * commands, fences, faults and the watchdog; a thread only runs a block
 * and says how it ended.
 *
 * Device memory reaches the generated code through the shadow mapping:
 * the context's window mapped a second time (VGPU_SHADOW_OFFSET), once
 * writable and once read-only. A block learns each range it touches from
 * the module (MEM_QUERY) or from libcuda's registry of host memory, and
 * checks every access against the ranges it learned: an address outside
 * them is a fault report, as on the interpreter, never a signal.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"

/* How long an idle SM waits in the module before it looks at stop. */
#define VG_USM_WAIT_NS 20000000LL
/* Instructions a block runs between looks at stop. */
#define VG_USM_BUDGET (1u << 20)
#define VG_USM_MAX_THREADS 16
/*
 * Blocks of a loop-free kernel an SM asks for at once (the module gives
 * fewer towards a grid's end): one USM_WAIT and one USM_DONE for a run of
 * them, rather than a pair of system calls for each block. Of a chain of
 * one-block launches (a graph's), it asks for up to VGPU_USM_MAX_STEPS
 * steps at once, whose parameters share the one buffer.
 */
#define VG_USM_RUN_BLOCKS 64

struct vg_usm;

/* Ranges an SM remembers from block to block. */
#define VG_USM_RANGES 16

/*
 * struct vg_usm_sm - one SM and its thread.
 * @ranges: what its blocks learned (vg_usm_lookup()) while the context's
 *	mappings were at generation @gen: they hold for later launches until
 *	the module reports another (USM_WAIT's map_gen).
 */
struct vg_usm_sm {
	struct vg_usm *u;
	pthread_t thread;
	int fd;			/* the SM's file */
	uint32_t index;
	bool running;		/* the thread was started */
	uint64_t gen;
	uint32_t nranges;
	struct vgpu_range ranges[VG_USM_RANGES];
};

/*
 * struct vg_usm - a context's user-mode SMs.
 * @table: the native kernels its launches may name, under vg_engine_lock.
 * @rw, @ro: the shadow mappings of the window, writable and read-only.
 */
struct vg_usm {
	struct CUctx_st *ctx;
	int fd;			/* the context's device file */
	uint64_t va_base, va_size;
	uint8_t *rw, *ro;
	uint32_t sm_count, clock_khz;
	bool stop;		/* atomic */
	pid_t pid;		/* the process whose threads the SMs are */
	struct vg_nfn *table;
	uint32_t nsm;
	struct vg_usm_sm sm[];
};

static int64_t vg_usm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22	/* Linux 5.14 */
#define MADV_POPULATE_WRITE 23
#endif

/*
 * Whether the shadow's page at @p holds memory, for writing with @write:
 * the kernel faults the page in for madvise(), so a page the shadow
 * cannot hold is an error (EFAULT) here rather than a SIGBUS in generated
 * code.
 */
static bool vg_usm_reachable(uint8_t *p, bool write)
{
	long page = sysconf(_SC_PAGESIZE);

	p = (uint8_t *)((uintptr_t)p & ~(uintptr_t)(page - 1));
	return !madvise(p, (size_t)page, write ? MADV_POPULATE_WRITE :
			MADV_POPULATE_READ);
}

/*
 * Learns the range holding device address @va: an allocation of the
 * window through the shadow (the module answers), or host memory
 * registered or allocated in the context, at its own address (libcuda's
 * registry answers). Memory the shadow cannot hold (another driver's, a
 * peer's) is not answered: the access faults.
 */
static bool vg_usm_learn(struct vg_usm *u, u64 va, struct vgpu_range *r)
{
	struct vg_host_info hi;
	bool found;

	if (va - u->va_base < u->va_size) {
		struct vgpu_mem_query q = { .va = va };
		uint64_t off;

		if (ioctl(u->fd, VGPU_IOCTL_MEM_QUERY, &q) || !q.size)
			return false;
		off = q.base - u->va_base;
		r->va = q.base;
		r->size = q.size;
		r->writable = vg_usm_reachable(u->rw + off, true);
		r->ptr = r->writable ? u->rw + off : u->ro + off;
		return r->writable || vg_usm_reachable(u->ro + off, false);
	}
	/*
	 * vg_lock guards the registry; the context's closing holds it while
	 * it waits for this thread, which then gives up instead.
	 */
	while (pthread_mutex_trylock(&vg_lock)) {
		if (__atomic_load_n(&u->stop, __ATOMIC_ACQUIRE))
			return false;
		nanosleep(&(struct timespec){ .tv_nsec = 50000 }, NULL);
	}
	found = vg_host_lookup((uintptr_t)va, &hi) && hi.ctx == u->ctx;
	if (!found && u->ctx->printf_fifo &&
	    va - u->ctx->printf_fifo < u->ctx->printf_map) {
		hi = (struct vg_host_info){ .start = u->ctx->printf_fifo,
					    .size = u->ctx->printf_map };
		found = true;
	}
	pthread_mutex_unlock(&vg_lock);
	if (!found)
		return false;
	r->va = hi.start;
	r->size = hi.size;
	r->ptr = (u8 *)hi.start;
	r->writable = !hi.read_only;
	return true;
}

/*
 * The lookup of @arg's SM: a range it remembers, or one it learns (the
 * module asked, the page checked) and then remembers, the oldest giving
 * way when it has no room.
 */
static bool vg_usm_lookup(void *arg, u64 va, struct vgpu_range *r)
{
	struct vg_usm_sm *sm = arg;
	uint32_t i;

	for (i = 0; i < sm->nranges; i++) {
		if (va - sm->ranges[i].va < sm->ranges[i].size) {
			*r = sm->ranges[i];
			return true;
		}
	}
	if (!vg_usm_learn(sm->u, va, r))
		return false;
	if (sm->nranges == VG_USM_RANGES) {
		memmove(sm->ranges, sm->ranges + 1,
			(VG_USM_RANGES - 1) * sizeof(sm->ranges[0]));
		sm->nranges--;
	}
	sm->ranges[sm->nranges++] = *r;
	return true;
}

/* The kernel a block names, referenced; NULL once its module went. */
static struct vg_nfn *vg_usm_find(struct vg_usm *u, uint32_t module, uint32_t func)
{
	struct vg_nfn *n;

	pthread_mutex_lock(&vg_engine_lock);
	for (n = u->table; n; n = n->next)
		if (n->module == module && n->func == func) {
			__atomic_add_fetch(&n->refs, 1, __ATOMIC_RELAXED);
			break;
		}
	pthread_mutex_unlock(&vg_engine_lock);
	return n;
}

/*
 * One SM's state between blocks: the launch its block belongs to, whose
 * next blocks reuse the block's memory and the ranges it learned.
 */
struct vg_usm_run {
	struct vg_nfn *n;
	struct vgpu_native_block *b;
	struct vgpu_launch l;
	uint64_t seqno;
	uint32_t chan;
	uint32_t step;		/* of a chain: its steps share the seqno */
	uint8_t *params;
};

static void vg_usm_run_end(struct vg_usm_run *run)
{
	if (run->b)
		vg_native->block_free(run->b);
	vg_nfn_put(run->n);
	run->b = NULL;
	run->n = NULL;
}

/*
 * What an SM runs next: blocks @index.. @index + @nblocks - 1 of a
 * launch (a step of a chain), with its parameters at @params.
 */
struct vg_usm_job {
	uint32_t module, func, step;
	uint32_t grid[3], block[3];
	uint32_t dyn_shared;
	uint32_t index, nblocks;
	uint8_t *params;
};

/* @run's block made ready for @job, of the launch @w names; 0 or -errno. */
static int vg_usm_ready(struct vg_usm_sm *sm, struct vg_usm_run *run,
			const struct vgpu_usm_wait *w, const struct vg_usm_job *job,
			bool moved)
{
	struct vg_usm *u = sm->u;
	struct vg_nfn *n;

	if (run->b && run->seqno == w->seqno && run->step == job->step &&
	    run->chan == w->chan && run->n->module == job->module &&
	    run->n->func == job->func)
		goto start;
	/*
	 * Another step of the same chain, of the kernel the block was made
	 * for, in the same shape: the block serves it, without a look in the
	 * table (and its lock) for each step of a graph's chain.
	 */
	if (run->b && !moved && run->seqno == w->seqno && run->chan == w->chan &&
	    run->n->module == job->module && run->n->func == job->func &&
	    run->l.dyn_shared == job->dyn_shared &&
	    !memcmp(run->l.block, job->block, sizeof(job->block))) {
		memcpy(run->l.grid, job->grid, sizeof(job->grid));
		goto same;
	}
	n = vg_usm_find(u, job->module, job->func);
	/*
	 * Another launch of the kernel the block was made for, with blocks
	 * of the same shape, and the memory as it was: the block serves it
	 * too (a chain of launches, a graph's).
	 */
	if (n && n == run->n && !moved && run->l.dyn_shared == job->dyn_shared &&
	    !memcmp(run->l.block, job->block, sizeof(job->block))) {
		vg_nfn_put(n);
		memcpy(run->l.grid, job->grid, sizeof(job->grid));
		goto same;
	}
	vg_usm_run_end(run);
	run->n = n;
	if (!run->n)
		return -ENOENT;
	run->l = (struct vgpu_launch){
		.prog = &run->n->prog, .func = &run->n->prog.funcs[job->func],
		.dyn_shared = job->dyn_shared,
		.smid = sm->index % u->sm_count, .nsmid = u->sm_count,
		.clock_khz = u->clock_khz,
	};
	memcpy(run->l.grid, job->grid, sizeof(job->grid));
	memcpy(run->l.block, job->block, sizeof(job->block));
	run->b = vg_native->block_new(run->n->k, &run->l, NULL, 0);
	if (!run->b)
		return -ENOMEM;
	vg_native->block_set_lookup(run->b, vg_usm_lookup, sm);
same:
	run->seqno = w->seqno;
	run->step = job->step;
	run->chan = w->chan;
start:
	/* The block reads them through run->l when it starts. */
	run->l.params = job->params;
	return 0;
}

/*
 * Runs @job's blocks in order. Return: VGPU_RUN_DONE, VGPU_RUN_FAULT
 * (*@i: the block's place in the job) or VGPU_RUN_MORE (stopping).
 */
static int vg_usm_exec(struct vg_usm_sm *sm, struct vg_usm_run *run,
		       const struct vg_usm_job *job, uint32_t *i)
{
	int ret = VGPU_RUN_DONE;

	for (*i = 0; *i < job->nblocks; ++*i) {
		vg_native->block_start(run->b, job->index + *i);
		do
			ret = vg_native->block_run(run->b, VG_USM_BUDGET);
		while (ret == VGPU_RUN_MORE &&
		       !__atomic_load_n(&sm->u->stop, __ATOMIC_ACQUIRE));
		if (ret != VGPU_RUN_DONE)
			break;
	}
	return ret;
}

/*
 * Runs what @w handed over: its blocks, or its chain steps (@steps), in
 * order; fills @d with how they ended.
 */
static int vg_usm_block(struct vg_usm_sm *sm, struct vg_usm_run *run,
			const struct vgpu_usm_wait *w, const struct vgpu_usm_step *steps,
			struct vgpu_usm_done *d)
{
	bool moved = w->map_gen != sm->gen;
	uint32_t s, nsteps = w->nsteps > 1 ? w->nsteps : 1, i = 0;
	int ret = VGPU_RUN_DONE, err;

	/* Memory was mapped or unmapped since: what the SM learned may not hold. */
	if (moved) {
		sm->gen = w->map_gen;
		sm->nranges = 0;
	}
	*d = (struct vgpu_usm_done){ .cookie = w->cookie };
	for (s = 0; s < nsteps && ret == VGPU_RUN_DONE; s++) {
		struct vg_usm_job job = {
			.module = w->module, .func = w->func, .step = w->step + s,
			.dyn_shared = w->dyn_shared, .nblocks = w->nblocks,
			.index = w->block_idx[0] + w->grid[0] * (w->block_idx[1] +
							 w->grid[1] * w->block_idx[2]),
			.params = run->params,
		};

		memcpy(job.grid, w->grid, sizeof(job.grid));
		memcpy(job.block, w->block, sizeof(job.block));
		/* Steps taken together: each the one block of its grid. */
		if (nsteps > 1) {
			job.module = steps[s].module;
			job.func = steps[s].func;
			job.dyn_shared = steps[s].dyn_shared;
			job.nblocks = 1;
			job.index = 0;
			job.params = run->params + steps[s].param_off;
			job.grid[0] = job.grid[1] = job.grid[2] = 1;
			memcpy(job.block, steps[s].block, sizeof(job.block));
		}
		err = vg_usm_ready(sm, run, w, &job, moved);
		if (err)
			return err;
		moved = false;
		ret = vg_usm_exec(sm, run, &job, &i);
	}
	if (ret == VGPU_RUN_FAULT) {
		const struct vgpu_fault *f = vg_native->block_fault(run->b);

		d->kind = f->kind;
		d->addr = f->addr;
		d->insn = f->insn;
		d->thread = f->thread;
		d->block = nsteps > 1 ? s - 1 : i;
	} else if (ret == VGPU_RUN_MORE) {
		return -ECANCELED;	/* stopping: the file's close reports it */
	}
	return 0;
}

/*
 * Each USM_WAIT but the first reports the blocks taken by the one before
 * (VGPU_USM_WAIT_REPORT), so that a chain of one-block launches costs one
 * call a launch. Once the report is made, a wait that times out or is
 * interrupted has nothing left to report.
 */
static void *vg_usm_main(void *arg)
{
	struct vg_usm_sm *sm = arg;
	struct vg_usm *u = sm->u;
	struct vg_usm_run run = { .params = malloc(VG_PARAM_MAX) };
	struct vgpu_usm_step steps[VGPU_USM_MAX_STEPS];
	struct vgpu_usm_done d;
	bool held = false;
	sigset_t all;
	int ret;

	/* The program's signals are for its own threads. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	while (run.params && !__atomic_load_n(&u->stop, __ATOMIC_ACQUIRE)) {
		struct vgpu_usm_wait w = {
			.deadline_ns = vg_usm_now_ns() + VG_USM_WAIT_NS,
			.params = (uintptr_t)run.params, .params_size = VG_PARAM_MAX,
			.max_blocks = VG_USM_RUN_BLOCKS,
			.steps = (uintptr_t)steps, .max_steps = VGPU_USM_MAX_STEPS,
		};

		if (held) {
			w.flags = VGPU_USM_WAIT_REPORT;
			w.done = (uintptr_t)&d;
		}
		ret = ioctl(sm->fd, VGPU_IOCTL_USM_WAIT, &w);
		/*
		 * The report is made, or refused, which a second try would
		 * not change (the SM leaves, and its file's close ends the
		 * launch): either way, not to be made again.
		 */
		held = false;
		if (ret) {
			if (errno == ETIME || errno == EINTR)
				continue;
			break;
		}
		/*
		 * A block this SM cannot run (its module went, no memory)
		 * is not reported: the SM leaves, and the module fails the
		 * launch as one whose SM went away.
		 */
		if (vg_usm_block(sm, &run, &w, steps, &d))
			break;
		held = true;
	}
	/*
	 * Stopping with blocks run: their report, before the file goes. One
	 * refused (the launch ended without it) leaves nothing to do.
	 */
	if (held)
		(void)ioctl(sm->fd, VGPU_IOCTL_USM_DONE, &d);
	vg_usm_run_end(&run);
	free(run.params);
	close(sm->fd);
	sm->fd = -1;
	return NULL;
}

/* Threads the SMs get: one a CPU, within reason, or VGPU_USM_THREADS. */
static uint32_t vg_usm_threads(void)
{
	const char *e = getenv("VGPU_USM_THREADS");
	long n = e ? strtol(e, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 1)
		n = 1;
	return n > VG_USM_MAX_THREADS ? VG_USM_MAX_THREADS : (uint32_t)n;
}

static void vg_usm_free(struct vg_usm *u)
{
	uint32_t i;

	__atomic_store_n(&u->stop, true, __ATOMIC_RELEASE);
	for (i = 0; i < u->nsm; i++) {
		/* A forked child has the files, not the threads. */
		if (u->sm[i].running && u->pid == getpid())
			pthread_join(u->sm[i].thread, NULL);
		else if (u->sm[i].fd >= 0)
			close(u->sm[i].fd);
	}
	if (u->rw)
		munmap(u->rw, u->va_size);
	if (u->ro)
		munmap(u->ro, u->va_size);
	/* Empty when the SMs could not start (vg_engine_lock held then). */
	if (u->table)
		pthread_mutex_lock(&vg_engine_lock);
	while (u->table) {
		struct vg_nfn *n = u->table;

		u->table = n->next;
		n->listed = false;
		vg_nfn_put(n);
		if (!u->table)
			pthread_mutex_unlock(&vg_engine_lock);
	}
	free(u);
}

int vg_usm_start(struct CUctx_st *ctx)
{
	const struct vgpu_info *info = &vg_devices[ctx->dev].info;
	struct vg_usm *u;
	uint32_t i, n;
	void *p;

	if (ctx->usm)
		return 0;
	if (ctx->fd < 0 || !ctx->va_size)
		return -ENODEV;
	n = vg_usm_threads();
	u = calloc(1, sizeof(*u) + n * sizeof(u->sm[0]));
	if (!u)
		return -ENOMEM;
	u->ctx = ctx;
	u->pid = getpid();
	u->fd = ctx->fd;
	u->va_base = ctx->va_base;
	u->va_size = ctx->va_size;
	u->sm_count = info->sm_count ? info->sm_count : 1;
	u->clock_khz = info->clock_khz;
	u->nsm = n;
	for (i = 0; i < n; i++)
		u->sm[i].fd = -1;
	p = mmap(NULL, u->va_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE,
		 ctx->fd, VGPU_SHADOW_OFFSET);
	if (p != MAP_FAILED)
		u->rw = p;
	p = mmap(NULL, u->va_size, PROT_READ, MAP_SHARED | MAP_NORESERVE, ctx->fd,
		 VGPU_SHADOW_OFFSET);
	if (p != MAP_FAILED)
		u->ro = p;
	for (i = 0; u->rw && u->ro && i < n; i++) {
		struct vgpu_usm_attach a = { 0 };

		if (ioctl(ctx->fd, VGPU_IOCTL_USM_ATTACH, &a))
			break;
		u->sm[i] = (struct vg_usm_sm){ .u = u, .fd = a.fd, .index = i };
		if (pthread_create(&u->sm[i].thread, NULL, vg_usm_main, &u->sm[i]))
			break;
		u->sm[i].running = true;
	}
	if (i < n) {
		int err = errno ? -errno : -ENOMEM;

		vg_usm_free(u);
		return err;
	}
	ctx->usm = u;
	return 0;
}

void vg_usm_list(struct CUctx_st *ctx, struct vg_nfn *n)
{
	struct vg_usm *u = ctx->usm;

	__atomic_add_fetch(&n->refs, 1, __ATOMIC_RELAXED);
	n->next = u->table;
	u->table = n;
	n->listed = true;
}

void vg_usm_unlist(struct CUctx_st *ctx, struct vg_nfn *n)
{
	struct vg_nfn **pp;

	if (!ctx->usm)
		return;
	for (pp = &ctx->usm->table; *pp; pp = &(*pp)->next)
		if (*pp == n) {
			*pp = n->next;
			n->listed = false;
			vg_nfn_put(n);
			return;
		}
}

/*
 * The context closes: its SMs stop (a block in progress is abandoned; the
 * module fails its launch as the files close) before its device file goes.
 */
void vg_usm_stop(struct CUctx_st *ctx)
{
	struct vg_usm *u;

	pthread_mutex_lock(&vg_engine_lock);
	u = ctx->usm;
	ctx->usm = NULL;
	pthread_mutex_unlock(&vg_engine_lock);
	if (u)
		vg_usm_free(u);
}
