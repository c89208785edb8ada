// SPDX-License-Identifier: MIT
/*
 * Kernel launches (vg_launch, under every launch call): the checks
 * NVIDIA's driver makes, the parameter block built from kernelParams or
 * from `extra`, and a LAUNCH command on the stream's channel with the
 * stream's or the launch's priority. The engine reads the parameters when
 * the launch starts, so they go to pinned chunks that are reused only once
 * the launches reading them have completed. A cooperative launch also
 * gets its grid's workspace, where cooperative groups' grid.sync() counts
 * the blocks that have arrived.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "capture.h"
#include "vg.h"

/* The parameter chunks, pinned into the context on first use. */
static CUresult vg_params_map(struct CUctx_st *ctx)
{
	struct vgpu_host_register hr = {
		.size = (uint64_t)VG_PARAM_CHUNKS * VG_PARAM_CHUNK,
	};
	void *p;

	if (ctx->params)
		return CUDA_SUCCESS;
	p = mmap(NULL, hr.size, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return CUDA_ERROR_OUT_OF_MEMORY;
	hr.addr = (uintptr_t)p;
	if (ioctl(ctx->fd, VGPU_IOCTL_HOST_REGISTER, &hr)) {
		munmap(p, hr.size);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	ctx->params = p;
	ctx->param_chunk = 0;
	ctx->param_off = 0;
	memset(ctx->param_seq, 0, sizeof(ctx->param_seq));
	return CUDA_SUCCESS;
}

/*
 * Room for @size bytes (8-aligned): in the current chunk, or the next one
 * once the launches that read it, on every channel, have started (they
 * are done). The launch then notes itself in ctx->param_seq.
 */
static CUresult vg_params_slot(struct CUctx_st *ctx, uint32_t size,
			       unsigned char **slot)
{
	uint32_t need = (size + 7) & ~7u;
	CUresult r = vg_params_map(ctx);
	unsigned int i;

	if (r)
		return r;
	if (ctx->param_off + need > VG_PARAM_CHUNK) {
		ctx->param_chunk = (ctx->param_chunk + 1) % VG_PARAM_CHUNKS;
		ctx->param_off = 0;
		for (i = 0; i < ctx->nchans; i++) {
			r = vg_chan_wait(ctx->chans[i],
					 ctx->param_seq[ctx->param_chunk][i], false);
			if (r)
				return r;
			ctx->param_seq[ctx->param_chunk][i] = 0;
		}
	}
	*slot = ctx->params + (size_t)ctx->param_chunk * VG_PARAM_CHUNK +
		ctx->param_off;
	ctx->param_off += need;
	return CUDA_SUCCESS;
}

/*
 * A graph's launch (vg_chain_begin() to vg_chain_end()) gathers the
 * kernels it queues one after another on one stream into one
 * VGPU_CMD_LAUNCH_CHAIN: the engine then goes from one kernel to the next
 * without a command completing in between. A kernel that needs the
 * library around its launch (printf, a cooperative grid, events marking
 * it, a blocking launch) or another priority or stream ends the chain
 * first, and so does the graph's launch before any node that is not a
 * kernel (vg_chain_sync()): the chain is queued before the commands
 * that come after it, whose values (fences, marks) count it.
 *
 * The steps and their parameters gather in the thread's own buffer, and
 * go to a parameter chunk together when the chain is queued: other
 * threads launching meanwhile, which the context's lock lets in between
 * two kernels of the graph, may fill and reuse every chunk without
 * touching them. One whose parameters would not fit in a chunk with the
 * rest ends the chain.
 */
#define VG_CHAIN_MAX 256

struct vg_chain {
	struct CUctx_st *ctx;
	struct CUstream_st *st;
	uint32_t flags;		/* the command's: the priority */
	uint32_t n;
	uint32_t param_len;	/* bytes of @params in use */
	struct vgpu_chain_step steps[VG_CHAIN_MAX];
	unsigned char params[VG_PARAM_CHUNK];
};

static __thread struct vg_chain *vg_chain_cur;
static __thread bool vg_chain_flushing;
/*
 * A buffer kept for the thread's next graph launch; also the thread's
 * value of vg_chain_key, whose destructor frees it when the thread ends.
 */
static __thread struct vg_chain *vg_chain_spare;
static pthread_key_t vg_chain_key;
static pthread_once_t vg_chain_once = PTHREAD_ONCE_INIT;
static bool vg_chain_keyed;

static void vg_chain_key_make(void)
{
	vg_chain_keyed = !pthread_key_create(&vg_chain_key, free);
}

/* Keeps @c for the thread's next graph launch, or frees it. */
static void vg_chain_keep(struct vg_chain *c)
{
	pthread_once(&vg_chain_once, vg_chain_key_make);
	if (vg_chain_spare || !vg_chain_keyed ||
	    pthread_setspecific(vg_chain_key, c)) {
		free(c);
		return;
	}
	vg_chain_spare = c;
}

/* Bytes of @n steps after @param_len of parameters, in a parameter chunk. */
static uint32_t vg_chain_bytes(uint32_t param_len, uint32_t n)
{
	return param_len + n * (uint32_t)sizeof(struct vgpu_chain_step);
}

/*
 * Queues the steps gathered as one command (one step as a LAUNCH), their
 * parameters first copied to a parameter chunk, the steps after them;
 * the context's lock held. Nothing is left pending either way.
 */
static CUresult vg_chain_flush(void)
{
	struct vg_chain *c = vg_chain_cur;
	struct vgpu_cmd cmd = { 0 };
	unsigned char *slot;
	uint64_t seq;
	uint32_t i;
	CUresult r;

	if (!c || !c->n || vg_chain_flushing)
		return CUDA_SUCCESS;
	vg_chain_flushing = true;
	r = vg_params_slot(c->ctx, vg_chain_bytes(c->param_len, c->n > 1 ? c->n : 0),
			   &slot);
	if (!r) {
		memcpy(slot, c->params, c->param_len);
		/* Each step's parameters, held as an offset until here. */
		for (i = 0; i < c->n; i++)
			c->steps[i].launch.params += (uintptr_t)slot;
	}
	if (!r && c->n == 1) {
		cmd.op = VGPU_CMD_LAUNCH;
		cmd.flags = c->flags | c->steps[0].flags;
		cmd.launch = c->steps[0].launch;
	} else if (!r) {
		cmd.op = VGPU_CMD_LAUNCH_CHAIN;
		cmd.flags = c->flags;
		memcpy(slot + c->param_len, c->steps, vg_chain_bytes(0, c->n));
		cmd.chain.steps = (uintptr_t)(slot + c->param_len);
		cmd.chain.nsteps = c->n;
	}
	if (!r)
		r = vg_push(c->st, &cmd, &seq);
	if (!r)
		c->ctx->param_seq[c->ctx->param_chunk][c->st->ch->index] = seq;
	c->n = 0;
	c->param_len = 0;
	vg_chain_flushing = false;
	return r;
}

/*
 * Kernels this thread launches from here on may be gathered into chains
 * (a graph's launch, which holds vg_graph_lock): the chain it was
 * gathering before, which @saved takes, waits. Without memory for one,
 * kernels are launched one by one.
 */
void vg_chain_begin(struct vg_chain **saved)
{
	*saved = vg_chain_cur;
	vg_chain_cur = vg_chain_spare;
	if (vg_chain_spare) {
		pthread_setspecific(vg_chain_key, NULL);
		vg_chain_spare = NULL;
	} else {
		vg_chain_cur = malloc(sizeof(*vg_chain_cur));
	}
	if (vg_chain_cur) {
		vg_chain_cur->n = 0;
		vg_chain_cur->param_len = 0;
	}
}

/* Queues what is gathered; no lock held. */
CUresult vg_chain_sync(void)
{
	struct vg_chain *c = vg_chain_cur;
	CUresult r;

	if (!c || !c->n)
		return CUDA_SUCCESS;
	pthread_mutex_lock(&vg_lock);
	vg_ctx_begin(c->ctx);
	r = vg_chain_flush();
	vg_ctx_end(c->ctx);
	return r;
}

/* Kernels launched from here on go one by one, until vg_chain_resume(). */
void vg_chain_suspend(struct vg_chain **saved)
{
	*saved = vg_chain_cur;
	vg_chain_cur = NULL;
}

void vg_chain_resume(struct vg_chain *saved)
{
	vg_chain_cur = saved;
}

/* Queues what is gathered, and goes back to the chain @saved. */
CUresult vg_chain_end(struct vg_chain *saved)
{
	CUresult r = vg_chain_sync();

	if (vg_chain_cur)
		vg_chain_keep(vg_chain_cur);
	vg_chain_cur = saved;
	return r;
}

/*
 * Whether @cmd, a launch on @st needing @param_bytes of parameters, may
 * join a chain: one is being gathered and the launch needs nothing else
 * of the library (@alone). What is gathered and cannot take it is queued
 * first; a failure of that is *@r.
 */
static bool vg_chain_takes(struct CUctx_st *ctx, struct CUstream_st *st,
			   uint32_t flags, uint32_t param_bytes, bool alone,
			   CUresult *r)
{
	struct vg_chain *c = vg_chain_cur;
	uint32_t need = ((param_bytes ? param_bytes : 8) + 7) & ~7u;

	*r = CUDA_SUCCESS;
	if (!c)
		return false;
	if (c->n && (alone || c->ctx != ctx || c->st != st ||
		     c->flags != (flags & VGPU_LAUNCH_PRIORITY_MASK) ||
		     c->n == VG_CHAIN_MAX ||
		     vg_chain_bytes(c->param_len + need, c->n + 1) > VG_PARAM_CHUNK))
		*r = vg_chain_flush();
	return !*r && !alone;
}

/* Room for @size bytes of parameters (8-aligned) in the chain's buffer. */
static unsigned char *vg_chain_slot(uint32_t size)
{
	struct vg_chain *c = vg_chain_cur;
	unsigned char *slot = c->params + c->param_len;

	c->param_len += (size + 7) & ~7u;
	return slot;
}

/*
 * Adds @cmd, a launch whose parameters are in the chain's buffer
 * (vg_chain_slot()), to the chain.
 */
static void vg_chain_add(struct CUctx_st *ctx, struct CUstream_st *st,
			 const struct vgpu_cmd *cmd)
{
	struct vg_chain *c = vg_chain_cur;
	struct vgpu_chain_step *s = &c->steps[c->n++];

	if (c->n == 1) {
		c->ctx = ctx;
		c->st = st;
		c->flags = cmd->flags & VGPU_LAUNCH_PRIORITY_MASK;
	}
	memset(s, 0, sizeof(*s));
	s->flags = cmd->flags & ~VGPU_LAUNCH_PRIORITY_MASK;
	s->launch = cmd->launch;
	s->launch.params -= (uintptr_t)c->params;
}

/* The parameter block from `extra`: a buffer and its size, then END. */
static CUresult vg_extra(void **extra, const void **buf, size_t *size)
{
	const void *b = NULL;
	size_t *sz = NULL;

	while (*extra != CU_LAUNCH_PARAM_END) {
		if (extra[0] == CU_LAUNCH_PARAM_BUFFER_POINTER)
			b = extra[1];
		else if (extra[0] == CU_LAUNCH_PARAM_BUFFER_SIZE)
			sz = extra[1];
		else
			return CUDA_ERROR_INVALID_VALUE;
		extra += 2;
	}
	if (!b || !sz)
		return CUDA_ERROR_INVALID_VALUE;
	*buf = b;
	*size = *sz;
	return CUDA_SUCCESS;
}

/* Fills @slot with the kernel's parameters. */
CUresult vg_params_fill(const struct vg_jit_kernel *k, void **kernel_params,
			void **extra, unsigned char *slot)
{
	uint32_t i;

	if (extra) {
		const void *buf;
		size_t size;
		CUresult r = vg_extra(extra, &buf, &size);

		if (r)
			return r;
		if (size > k->f.param_bytes)
			return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
		memset(slot, 0, k->f.param_bytes);
		memcpy(slot, buf, size);
		return CUDA_SUCCESS;
	}
	for (i = 0; i < k->nparams; i++) {
		if (!kernel_params[i])
			return CUDA_ERROR_INVALID_VALUE;
		memcpy(slot + k->params[i].offset, kernel_params[i],
		       k->params[i].size);
	}
	return CUDA_SUCCESS;
}

/* The most local memory a thread may have, as an H100 takes it. */
#define VG_LOCAL_MAX 523264

/* NVIDIA's driver answers 1 (invalid value) for every bad shape. */
CUresult vg_launch_check(const struct vgpu_info *info, const struct vg_jit_kernel *k,
			 const unsigned int grid[3], const unsigned int block[3],
			 unsigned int shared, uint32_t max_dyn)
{
	uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
	int i;

	for (i = 0; i < 3; i++)
		if (!grid[i] || grid[i] > info->max_grid_dim[i] || !block[i] ||
		    block[i] > info->max_block_dim[i])
			return CUDA_ERROR_INVALID_VALUE;
	if (threads > info->max_threads_per_block ||
	    (k->f.max_threads && threads > k->f.max_threads))
		return CUDA_ERROR_INVALID_VALUE;
	/*
	 * The function's limit: 48 KiB less its static shared memory, unless
	 * cuFuncSetAttribute raised it (up to the opt-in maximum).
	 */
	if (shared > max_dyn)
		return CUDA_ERROR_INVALID_VALUE;
	/*
	 * A thread's local memory past 511 KiB is an invalid value to an
	 * H100, whatever the stack size; below that, local memory it cannot
	 * hold is out of memory, at the launch, the context unharmed (both
	 * probed). vgpu holds one block's at a time on each SM, within the
	 * device's memory shared among its SMs, as the module requires.
	 */
	if (k->f.local_bytes > VG_LOCAL_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	if (threads * k->f.local_bytes + k->f.shared_bytes + shared >
	    info->mem_size / (info->sm_count ? info->sm_count : 1))
		return CUDA_ERROR_OUT_OF_MEMORY;
	return CUDA_SUCCESS;
}

/*
 * A cooperative grid must fit on the device at once: as many blocks as
 * the occupancy calculator places on one SM, times the SMs.
 */
static bool vg_coresident(const struct vgpu_info *info,
			  const struct vg_jit_kernel *k,
			  const unsigned int grid[3],
			  const unsigned int block[3], unsigned int shared)
{
	const struct vg_occ_kernel occ = {
		.regs = k->f.nregs,
		.shared_bytes = k->f.shared_bytes,
		.max_threads = k->f.max_threads,
	};
	uint64_t blocks = (uint64_t)grid[0] * grid[1] * grid[2];
	int per_sm = vg_occupancy(info, &occ,
				  (int)(block[0] * block[1] * block[2]), shared);

	return per_sm > 0 && blocks <= (uint64_t)per_sm * info->sm_count;
}

/*
 * The grid workspace of a cooperative launch on @st: its channel's slot,
 * as launches on one channel run one at a time, set to zero on the
 * channel just before the launch (nvcc's barrier needs its arrival count
 * at 0, and a launch cut short may leave it otherwise). Ordinary launches
 * have none: their grid.sync() finds 0 and traps, as on NVIDIA's driver.
 * Called with the context's lock held.
 */
static CUresult vg_grid_ws(struct CUctx_st *ctx, struct CUstream_st *st,
			   __u64 *ws)
{
	struct vgpu_cmd cmd = { .op = VGPU_CMD_MEMSET };

	if (!ctx->grid_ws) {
		struct vgpu_mem_alloc a = { .size = VG_MAX_CHANS * 8 };

		if (ioctl(ctx->fd, VGPU_IOCTL_MEM_ALLOC, &a))
			return errno == ENOSPC ? CUDA_ERROR_OUT_OF_MEMORY :
				vg_errno_result(errno);
		ctx->grid_ws = a.va;
	}
	*ws = ctx->grid_ws + 8 * (uint64_t)st->ch->index;
	cmd.memset.dst = *ws;
	cmd.memset.elem_size = 4;
	cmd.memset.width = 2;
	cmd.memset.height = 1;
	return vg_push(st, &cmd, NULL);
}

/**
 * vg_launch() - one launch of @f as @l describes it: the checks of
 * cuLaunchKernel (after vg_check_init() and the function's), then a LAUNCH
 * command on the stream, and @l->done's events recorded after it.
 */
CUresult vg_launch(CUfunction f, const struct vg_launch *l)
{
	struct vgpu_cmd cmd = { .op = VGPU_CMD_LAUNCH };
	const struct vg_jit_kernel *k = f->k;
	const struct vgpu_info *info = NULL;
	struct CUevent_st *done[2] = { NULL, NULL };
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	unsigned char *slot;
	uint64_t seq;
	int priority, i;
	bool prints, chained;
	CUresult r;

	if (l->params && l->extra)
		return CUDA_ERROR_INVALID_VALUE;
	if (k->f.param_bytes && !l->params && !l->extra)
		return CUDA_ERROR_INVALID_VALUE;
	if (vg_cap_maybe()) {
		CUDA_KERNEL_NODE_PARAMS p = {
			.func = f, .sharedMemBytes = l->shared,
			.gridDimX = l->grid[0], .gridDimY = l->grid[1], .gridDimZ = l->grid[2],
			.blockDimX = l->block[0], .blockDimY = l->block[1],
			.blockDimZ = l->block[2],
			.kernelParams = l->params, .extra = l->extra,
		};
		bool taken, marked;

		/* A cooperative launch: a node with the attribute, as NVIDIA's. */
		r = vg_cap_launch(&p, l->cooperative, l->stream, &taken);
		/* The events recorded after it mark the point after its node. */
		for (i = 0; i < 2 && !r && taken; i++)
			if (l->done[i])
				r = vg_cap_event_record(l->done[i], l->stream, 0, &marked);
		if (r || taken)
			return r;
	}
	vg_engine_prepare(f, l->cooperative);
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(l->stream, &ctx, &st);
	if (!r && ctx != f->mod->ctx)
		r = CUDA_ERROR_INVALID_HANDLE;
	if (!r) {
		info = &vg_devices[ctx->dev].info;
		r = vg_launch_check(info, k, l->grid, l->block, l->shared,
				    f->max_dyn_shared);
	}
	if (!r && l->cooperative &&
	    !vg_coresident(info, k, l->grid, l->block, l->shared))
		r = CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
	for (i = 0; i < 2 && !r; i++) {
		if (!l->done[i])
			continue;
		done[i] = vg_event_find(l->done[i]);
		if (!done[i] || done[i]->ctx != ctx)
			r = CUDA_ERROR_INVALID_HANDLE;
	}
	if (!r)
		r = vg_heap_ready(ctx, f);
	if (r) {
		pthread_mutex_unlock(&vg_lock);
		return r;
	}
	prints = vg_ctx_config_launch(ctx, k) && f->mod->img->has_printf;
	vg_ctx_begin(ctx);
	/* CUDA's priorities, 0 to -5, become the engine's 0 to 5. */
	priority = l->has_priority ? vg_stream_priority(l->priority) :
		__atomic_load_n(&st->priority, __ATOMIC_RELAXED);
	chained = vg_chain_takes(ctx, st, (uint32_t)-priority, k->f.param_bytes,
				 prints || l->cooperative || done[0] || done[1] ||
				 vg_launch_blocking, &r);
	if (!r)
		r = prints ? vg_printf_bind(ctx, st) : CUDA_SUCCESS;
	if (!r && chained)
		slot = vg_chain_slot(k->f.param_bytes ? k->f.param_bytes : 8);
	else if (!r)
		r = vg_params_slot(ctx, k->f.param_bytes ? k->f.param_bytes : 8,
				   &slot);
	if (!r)
		r = vg_params_fill(k, l->params, l->extra, slot);
	if (!r) {
		cmd.launch.module = f->mod->handle;
		cmd.launch.func = f->index;
		memcpy(cmd.launch.grid, l->grid, sizeof(l->grid));
		memcpy(cmd.launch.block, l->block, sizeof(l->block));
		cmd.launch.dyn_shared = l->shared;
		cmd.launch.param_bytes = k->f.param_bytes;
		cmd.launch.params = (uintptr_t)slot;
		cmd.flags = (uint32_t)-priority;
		if (l->cooperative)
			r = vg_grid_ws(ctx, st, &cmd.launch.grid_sync);
		cmd.flags |= vg_engine_user_sm(ctx, f, l->cooperative);
	}
	if (!r && chained) {
		/* Queued with its chain, which marks the chunk it goes to. */
		vg_chain_add(ctx, st, &cmd);
		vg_ctx_end(ctx);
		return CUDA_SUCCESS;
	}
	if (!r) {
		r = vg_push(st, &cmd, &seq);
	}
	if (!r) {
		ctx->param_seq[ctx->param_chunk][st->ch->index] = seq;
		for (i = 0; i < 2 && !r; i++)
			if (done[i])
				r = vg_event_record(done[i], st);
	}
	if (!r && vg_launch_blocking) {
		r = vg_stream_wait(st, seq);
		if (!r)
			vg_printf_drain(ctx);
	}
	vg_ctx_end(ctx);
	return r;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gx, unsigned int gy,
			unsigned int gz, unsigned int bx, unsigned int by,
			unsigned int bz, unsigned int shared, CUstream stream,
			void **kernel_params, void **extra)
{
	const struct vg_launch l = {
		.grid = { gx, gy, gz },
		.block = { bx, by, bz },
		.shared = shared,
		.stream = stream,
		.params = kernel_params,
		.extra = extra,
	};
	CUresult r = vg_check_init();

	if (r)
		return r;
	r = vg_launch_func_get(f, &f);
	return r ? r : vg_launch(f, &l);
}
