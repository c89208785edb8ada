// SPDX-License-Identifier: MIT
/*
 * A context's default channel: the ring libvgpu writes commands into, the
 * doorbell, fences read from the status page, and waits. Also the pinned
 * staging buffer through which pageable host memory is copied, as NVIDIA's
 * driver does. All of it is used with the context's lock held.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "vg.h"

#define VG_RING 256

CUresult vg_chan_open(struct CUctx_st *ctx)
{
	struct vgpu_chan_create cc = { .ring_size = VG_RING };
	void *status;

	ctx->ring = aligned_alloc(sizeof(struct vgpu_cmd),
				  VG_RING * sizeof(struct vgpu_cmd));
	if (!ctx->ring)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memset(ctx->ring, 0, VG_RING * sizeof(struct vgpu_cmd));
	status = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ,
		      MAP_SHARED, ctx->fd, 0);
	if (status == MAP_FAILED)
		goto err_ring;
	cc.ring = (uintptr_t)ctx->ring;
	if (ioctl(ctx->fd, VGPU_IOCTL_CHAN_CREATE, &cc))
		goto err_status;
	ctx->status = (const volatile struct vgpu_chan_status *)status + cc.handle;
	ctx->status_page = status;
	ctx->chan = cc.handle;
	ctx->put = 0;
	ctx->sticky = CUDA_SUCCESS;
	return CUDA_SUCCESS;

err_status:
	munmap(status, (size_t)sysconf(_SC_PAGESIZE));
err_ring:
	free(ctx->ring);
	ctx->ring = NULL;
	return vg_errno_result(errno);
}

/* After the file is closed: the channel went with it. */
void vg_chan_close(struct CUctx_st *ctx)
{
	if (ctx->status_page)
		munmap(ctx->status_page, (size_t)sysconf(_SC_PAGESIZE));
	if (ctx->stage)
		munmap(ctx->stage, VG_STAGE_SIZE);
	if (ctx->params)
		munmap(ctx->params, VG_PARAM_CHUNKS * VG_PARAM_CHUNK);
	free(ctx->ring);
	/* Modules go with the context (their handles are dead). */
	ctx->modules = NULL;
	ctx->params = NULL;
	ctx->status_page = NULL;
	ctx->status = NULL;
	ctx->stage = NULL;
	ctx->ring = NULL;
}

static uint64_t vg_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * How long a waiter polls the status page before it sleeps in the kernel:
 * short work (a small copy) completes within it, and the waiter then skips
 * a sleep and a wake-up. The context's scheduling flag decides, as on
 * CUDA: BLOCKING_SYNC sleeps at once, YIELD yields the CPU between looks,
 * SPIN and AUTO (the default) spin.
 */
#define VG_SPIN_NS 100000

static bool vg_chan_spin(struct CUctx_st *ctx, uint64_t seqno)
{
	unsigned int sched = (ctx->primary ? vg_devices[ctx->dev].primary_flags :
			      ctx->flags) & CU_CTX_SCHED_MASK;
	uint64_t until = 0;
	unsigned int i;

	for (;;) {
		for (i = 0; i < 64; i++) {
			uint64_t done = ctx->status->completed;

			/*
			 * The module writes a failed command's error before
			 * the fence that covers it: with the fence read
			 * first, an error for it is seen here too (the
			 * kernel's wait then tells whose error it is).
			 */
			__atomic_thread_fence(__ATOMIC_ACQUIRE);
			if (ctx->status->error)
				return false;
			if (done >= seqno)
				return true;
		}
		if (sched == CU_CTX_SCHED_BLOCKING_SYNC)
			return false;
		if (sched == CU_CTX_SCHED_YIELD)
			sched_yield();
		if (!until)
			until = vg_now_ns() + VG_SPIN_NS;
		else if (vg_now_ns() > until)
			return false;
	}
}

/* Waits until the channel has completed @seqno commands. */
CUresult vg_chan_wait(struct CUctx_st *ctx, uint64_t seqno)
{
	struct vgpu_chan_wait w = { .seqno = seqno, .handle = ctx->chan };

	if (vg_chan_spin(ctx, seqno))
		return CUDA_SUCCESS;
	for (;;) {
		w.deadline_ns = (int64_t)(vg_now_ns() + 10000000000ULL);
		if (ioctl(ctx->fd, VGPU_IOCTL_CHAN_WAIT, &w) == 0)
			return CUDA_SUCCESS;
		if (errno == EIO)
			return vg_chan_failed(ctx);
		if (errno != ETIME && errno != EINTR)
			return vg_errno_result(errno);
	}
}

/* Queues @cmd; *@seqno (if given) is the fence that covers it. */
CUresult vg_chan_push(struct CUctx_st *ctx, const struct vgpu_cmd *cmd,
		      uint64_t *seqno)
{
	struct vgpu_chan_submit s = { .handle = ctx->chan };
	CUresult r;

	/* The kernel queue holds a ring's worth: wait for room first. */
	if (ctx->put >= VG_RING) {
		r = vg_chan_wait(ctx, ctx->put - VG_RING + 1);
		if (r)
			return r;
	}
	ctx->ring[ctx->put % VG_RING] = *cmd;
	s.put = ctx->put + 1;
	if (ioctl(ctx->fd, VGPU_IOCTL_CHAN_SUBMIT, &s))
		return errno == EIO ? vg_chan_failed(ctx) :
			errno == EINVAL ? CUDA_ERROR_INVALID_VALUE :
			vg_errno_result(errno);
	ctx->put++;
	if (seqno)
		*seqno = ctx->put;
	return CUDA_SUCCESS;
}

/*
 * Everything queued so far has completed; what kernels printed comes out
 * here, as at CUDA's synchronizing calls.
 */
CUresult vg_chan_sync(struct CUctx_st *ctx)
{
	CUresult r;

	if (vg_ctx_sticky(ctx))
		return vg_ctx_sticky(ctx);
	r = vg_chan_wait(ctx, ctx->put);
	if (r == CUDA_SUCCESS)
		vg_printf_drain(ctx);
	return r;
}

/* The staging buffer, pinned into the context on first use. */
CUresult vg_stage_get(struct CUctx_st *ctx, unsigned char **stage)
{
	struct vgpu_host_register hr = { .size = VG_STAGE_SIZE };
	void *p;

	if (!ctx->stage) {
		p = mmap(NULL, VG_STAGE_SIZE, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return CUDA_ERROR_OUT_OF_MEMORY;
		hr.addr = (uintptr_t)p;
		if (ioctl(ctx->fd, VGPU_IOCTL_HOST_REGISTER, &hr)) {
			CUresult r = vg_errno_result(errno);

			munmap(p, VG_STAGE_SIZE);
			return r;
		}
		ctx->stage = p;
		ctx->stage_seq[0] = 0;
		ctx->stage_seq[1] = 0;
	}
	*stage = ctx->stage;
	return CUDA_SUCCESS;
}
