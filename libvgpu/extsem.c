// SPDX-License-Identifier: MIT
/*
 * External semaphores: cuImportExternalSemaphore of a file descriptor,
 * signalled and waited for on streams (cuSignalExternalSemaphoresAsync,
 * cuWaitExternalSemaphoresAsync), and cuDestroyExternalSemaphore.
 *
 * A semaphore is a word of memory, as on NVIDIA's hardware: an H200
 * imports the descriptor of exported device memory as either kind of
 * semaphore, keeps the semaphore's value in the memory's first 8 bytes
 * and a time in the next 8, and signals and waits with its engines'
 * semaphore commands (tests/e2e/ref/h200_extsem.log). vgpu does the same
 * with its descriptors, which are dma-bufs (extmem.c): the memory is
 * imported into the context (MEM_IMPORT), its first granule mapped, and
 * the stream's channel gets SEM_RELEASE and SEM_ACQUIRE commands on it.
 * Whoever else imports the same memory, as a semaphore or as memory, in
 * any process, sees and moves the same value.
 *
 * - A binary semaphore (OPAQUE_FD) is signalled when its value is not 0.
 *   Signalling writes 1; a wait waits for a value other than 0, then
 *   writes 0. Each write stamps the time.
 * - A timeline semaphore (TIMELINE_SEMAPHORE_FD) holds the value last
 *   signalled, which may go down; a wait waits until it is at least the
 *   fence value, compared unsigned.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "capture.h"
#include "vg.h"

/* The macros of cuda.h would rename these definitions. */
#undef cuSignalExternalSemaphoresAsync
#undef cuWaitExternalSemaphoresAsync

struct CUextSemaphore_st {
	struct CUextSemaphore_st *next;	/* vg_sems */
	struct CUctx_st *ctx;	/* NULL once it closed */
	bool timeline;
	uint64_t va, span;	/* the memory's first granule, mapped in @ctx */
};

/* Under vg_sem_lock, taken inside vg_lock where both are. */
static pthread_mutex_t vg_sem_lock = PTHREAD_MUTEX_INITIALIZER;
static struct CUextSemaphore_st *vg_sems;

static bool vg_sem_live(const struct CUextSemaphore_st *s)
{
	const struct CUextSemaphore_st *e;

	for (e = vg_sems; e; e = e->next)
		if (e == s)
			return true;
	return false;
}

/* What the module's refusal to import a descriptor is, as NVIDIA says it. */
static CUresult vg_sem_import_error(int err)
{
	return err == ENOMEM ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_UNKNOWN;
}

/* Imports @fd into @ctx's memory and maps its first granule for @s. */
static CUresult vg_sem_map(struct CUctx_st *ctx, int fd, struct CUextSemaphore_st *s)
{
	struct vgpu_mem_import im = { .flags = VGPU_IMPORT_FOREIGN, .fd = fd };
	struct vgpu_mem_release rel = { 0 };
	CUresult r;

	if (ioctl(ctx->fd, VGPU_IOCTL_MEM_IMPORT, &im))
		return vg_sem_import_error(errno);
	/* The value and the time: 16 bytes. */
	r = im.size < 16 ? CUDA_ERROR_UNKNOWN :
		vg_ext_map_obj(ctx, im.handle, im.size, 0, 16, &s->va, &s->span);
	/* The mapping holds the memory: the handle is not needed. */
	rel.handle = im.handle;
	ioctl(ctx->fd, VGPU_IOCTL_MEM_RELEASE, &rel);
	return r;
}

CUresult cuImportExternalSemaphore(CUexternalSemaphore *out,
				   const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *desc)
{
	struct CUextSemaphore_st *s;
	struct CUctx_st *ctx;
	CUresult r = vg_current_check();

	if (r)
		return r;
	if (!out || !desc || desc->flags)
		return CUDA_ERROR_INVALID_VALUE;
	switch (desc->type) {
	case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD:
		break;
	case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD:
		/* NVIDIA's driver tells this one's bad descriptor apart. */
		if (desc->handle.fd < 0)
			return CUDA_ERROR_INVALID_VALUE;
		break;
	case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32:
	case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_WIN32_KMT:
	case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D12_FENCE:
	case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_FENCE:
	case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_NVSCISYNC:
	case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX:
	case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_D3D11_KEYED_MUTEX_KMT:
	case CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_WIN32:
		/* A handle or a name (or an NvSciSync object) is looked for first. */
		if (!desc->handle.win32.handle && !desc->handle.win32.name)
			return CUDA_ERROR_INVALID_VALUE;
		return CUDA_ERROR_NOT_SUPPORTED;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
	if (desc->handle.fd < 0)
		return CUDA_ERROR_UNKNOWN;
	s = calloc(1, sizeof(*s));
	if (!s)
		return CUDA_ERROR_OUT_OF_MEMORY;
	s->timeline = desc->type == CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;

	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	if (!r)
		r = vg_sem_map(ctx, desc->handle.fd, s);
	if (!r) {
		/* Imported memory is the module's SMs' to reach (engine.c). */
		__atomic_store_n(&ctx->interp_only, true, __ATOMIC_RELAXED);
		s->ctx = ctx;
		pthread_mutex_lock(&vg_sem_lock);
		s->next = vg_sems;
		vg_sems = s;
		pthread_mutex_unlock(&vg_sem_lock);
	}
	pthread_mutex_unlock(&vg_lock);
	if (r) {
		free(s);
		return r;
	}
	/* A successful import owns the descriptor, as NVIDIA's does. */
	close(desc->handle.fd);
	*out = s;
	return CUDA_SUCCESS;
}

CUresult cuDestroyExternalSemaphore(CUexternalSemaphore h)
{
	struct CUextSemaphore_st **pp, *s = NULL;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!h)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	pthread_mutex_lock(&vg_sem_lock);
	for (pp = &vg_sems; *pp; pp = &(*pp)->next) {
		if (*pp == h) {
			s = *pp;
			*pp = s->next;
			break;
		}
	}
	pthread_mutex_unlock(&vg_sem_lock);
	/*
	 * Work still queued on it faults when it runs, as memory freed under
	 * queued work does: NVIDIA leaves that undefined.
	 */
	if (s && s->ctx)
		vg_ext_unmap(s->ctx, s->va, s->span);
	pthread_mutex_unlock(&vg_lock);
	if (!s)
		return CUDA_ERROR_INVALID_HANDLE;
	free(s);
	return CUDA_SUCCESS;
}

/* A context closes (vg_lock held): its semaphores' mappings went with it. */
void vg_sem_ctx_close(struct CUctx_st *ctx)
{
	struct CUextSemaphore_st *s;

	pthread_mutex_lock(&vg_sem_lock);
	for (s = vg_sems; s; s = s->next)
		if (s->ctx == ctx)
			s->ctx = NULL;
	pthread_mutex_unlock(&vg_sem_lock);
}

/* Flags and reserved words: both 0 unless the semaphore is NvSciSync's. */
static bool vg_sem_params_ok(const void *params, bool signal)
{
	const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *sp = params;
	const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *wp = params;
	static const unsigned int zero[16];

	if (signal)
		return !sp->flags && !memcmp(sp->reserved, zero, sizeof(sp->reserved));
	return !wp->flags && !memcmp(wp->reserved, zero, sizeof(wp->reserved));
}

/* Semaphore @i of @sems and its parameters; vg_sem_lock held. */
static CUresult vg_sem_op_ok(const CUexternalSemaphore *sems, const void *params,
			     unsigned int i, bool signal)
{
	const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *sp = params;
	const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *wp = params;

	if (!sems[i] || !vg_sem_live(sems[i]))
		return CUDA_ERROR_INVALID_HANDLE;
	if (!vg_sem_params_ok(signal ? (const void *)&sp[i] : (const void *)&wp[i], signal))
		return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

CUresult vg_sem_ops_valid(const CUexternalSemaphore *sems, const void *params,
			  unsigned int n, bool signal)
{
	CUresult r = CUDA_SUCCESS;
	unsigned int i;

	if (n && (!sems || !params))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_sem_lock);
	for (i = 0; !r && i < n; i++)
		r = vg_sem_op_ok(sems, params, i, signal);
	pthread_mutex_unlock(&vg_sem_lock);
	return r;
}

/*
 * The commands of @n signals or waits into @cmds (room for 2 * @n), their
 * number in *@ncmds; vg_sem_lock held. Every semaphore must be @ctx's.
 */
static CUresult vg_sem_cmds(struct CUctx_st *ctx, const CUexternalSemaphore *sems,
			    const void *params, unsigned int n, bool signal,
			    struct vgpu_cmd *cmds, unsigned int *ncmds)
{
	const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *sp = params;
	const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *wp = params;
	struct vgpu_cmd *c = cmds;
	unsigned int i;
	CUresult r;

	for (i = 0; i < n; i++) {
		const struct CUextSemaphore_st *s = sems[i];

		r = vg_sem_op_ok(sems, params, i, signal);
		if (r)
			return r;
		if (s->ctx != ctx)
			return CUDA_ERROR_INVALID_VALUE;
		memset(c, 0, sizeof(*c));
		c->sem.addr = s->va;
		if (signal) {
			c->op = VGPU_CMD_SEM_RELEASE;
			c->flags = VGPU_SEM_TIMESTAMP;
			c->sem.value = s->timeline ? sp[i].params.fence.value : 1;
		} else if (s->timeline) {
			c->op = VGPU_CMD_SEM_ACQUIRE;
			c->flags = VGPU_SEM_GEQ | VGPU_SEM_UNSIGNED;
			c->sem.value = wp[i].params.fence.value;
		} else {
			/* Any value but 0, then 0 again: the wait takes it. */
			c->op = VGPU_CMD_SEM_ACQUIRE;
			c->flags = VGPU_SEM_AND;
			c->sem.value = ~0ULL;
			c++;
			memset(c, 0, sizeof(*c));
			c->op = VGPU_CMD_SEM_RELEASE;
			c->flags = VGPU_SEM_TIMESTAMP;
			c->sem.addr = s->va;
		}
		c++;
	}
	*ncmds = c - cmds;
	return CUDA_SUCCESS;
}

/*
 * Signals or waits for @n semaphores on @hs, in order; nothing is queued
 * when one is refused. In a capture, they are a node. An empty list is
 * refused (a node may be empty).
 */
CUresult vg_sem_ops(CUstream hs, const CUexternalSemaphore *sems, const void *params,
		    unsigned int n, bool signal)
{
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	struct vgpu_cmd *cmds;
	unsigned int i, ncmds = 0;
	bool taken = false;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	pthread_mutex_unlock(&vg_lock);
	if (r)
		return r;
	if (!n || !sems || !params)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_cap_sems(hs, sems, params, n, signal, &taken);
	if (r || taken)
		return r;
	cmds = calloc(2 * (size_t)n, sizeof(*cmds));
	if (!cmds)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	if (!r) {
		pthread_mutex_lock(&vg_sem_lock);
		r = vg_sem_cmds(ctx, sems, params, n, signal, cmds, &ncmds);
		pthread_mutex_unlock(&vg_sem_lock);
	}
	if (r) {
		pthread_mutex_unlock(&vg_lock);
		free(cmds);
		return r;
	}
	vg_ctx_begin(ctx);
	r = vg_stream_enter(st);
	/* A failed push fails the channel: what came before it is moot. */
	for (i = 0; i < ncmds && r == CUDA_SUCCESS; i++)
		r = vg_chan_push(st->ch, &cmds[i], NULL);
	st->last = st->ch->put;
	vg_ctx_end(ctx);
	free(cmds);
	return r;
}

CUresult cuSignalExternalSemaphoresAsync(const CUexternalSemaphore *sems,
					 const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *params,
					 unsigned int n, CUstream hs)
{
	return vg_sem_ops(hs, sems, params, n, true);
}

CUresult cuWaitExternalSemaphoresAsync(const CUexternalSemaphore *sems,
				       const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *params,
				       unsigned int n, CUstream hs)
{
	return vg_sem_ops(hs, sems, params, n, false);
}
