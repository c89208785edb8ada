// SPDX-License-Identifier: MIT
/*
 * Copies and fills: cuMemcpy (direction from the unified addresses),
 * cuMemcpyHtoD/DtoH/DtoD and cuMemsetD8/D16/D32, as commands on the
 * context's default channel. Device ranges are checked against their
 * allocation before anything is queued, as NVIDIA's driver does. Host
 * memory registered with the context is reached directly; pageable memory
 * goes through the pinned staging buffer, its two halves alternating so
 * the engine copies one while the CPU fills the other.
 *
 * Synchronisation follows CUDA's rules for the synchronous calls: copies
 * with host memory return once the host side is done with (host-to-device:
 * the data has left the caller's buffer; device-to-host: it has arrived),
 * device-to-device copies and fills return once queued.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "vg.h"

/* Is [va, va + n) inside one allocation of @ctx? */
static bool vg_dev_range(struct CUctx_st *ctx, CUdeviceptr va, size_t n)
{
	struct vgpu_mem_query q = { .va = va };

	if (ioctl(ctx->fd, VGPU_IOCTL_MEM_QUERY, &q))
		return false;
	return n <= q.size && va - q.base <= q.size - n;
}

static CUresult vg_copy_cmd(struct CUctx_st *ctx, uint64_t dst, uint64_t src,
			    size_t n, uint64_t *seqno)
{
	struct vgpu_cmd cmd = { .op = VGPU_CMD_COPY };

	cmd.copy.dst = dst;
	cmd.copy.src = src;
	cmd.copy.width = n;
	cmd.copy.height = 1;
	return vg_chan_push(ctx, &cmd, seqno);
}

#define VG_HALF (VG_STAGE_SIZE / 2)

static CUresult vg_htod(struct CUctx_st *ctx, CUdeviceptr dst,
			const void *src, size_t n)
{
	const unsigned char *s = src;
	unsigned char *stage;
	uint64_t seq = 0;
	size_t off, len;
	unsigned int half = 0;
	CUresult r;

	if (vg_host_registered(ctx, (uintptr_t)src, n)) {
		r = vg_copy_cmd(ctx, dst, (uintptr_t)src, n, &seq);
		return r ? r : vg_chan_wait(ctx, seq);
	}
	r = vg_stage_get(ctx, &stage);
	for (off = 0; r == CUDA_SUCCESS && off < n; off += len, half ^= 1) {
		len = n - off < VG_HALF ? n - off : VG_HALF;
		r = vg_chan_wait(ctx, ctx->stage_seq[half]);
		if (r)
			break;
		memcpy(stage + half * VG_HALF, s + off, len);
		r = vg_copy_cmd(ctx, dst + off, (uintptr_t)(stage + half * VG_HALF),
				len, &ctx->stage_seq[half]);
	}
	/* The caller's buffer is free once the last piece is staged. */
	return r;
}

static CUresult vg_dtoh(struct CUctx_st *ctx, void *dst, CUdeviceptr src,
			size_t n)
{
	unsigned char *d = dst, *stage;
	uint64_t seq[2] = { 0, 0 };
	size_t off, len[2] = { 0, 0 }, at[2] = { 0, 0 };
	unsigned int half = 0, i;
	CUresult r;

	if (vg_host_registered(ctx, (uintptr_t)dst, n)) {
		r = vg_copy_cmd(ctx, (uintptr_t)dst, src, n, &seq[0]);
		return r ? r : vg_chan_wait(ctx, seq[0]);
	}
	r = vg_stage_get(ctx, &stage);
	/* Queue piece k+1 before draining piece k. */
	for (off = 0; r == CUDA_SUCCESS && off < n; off += len[half], half ^= 1) {
		if (len[half]) {
			r = vg_chan_wait(ctx, seq[half]);
			if (r)
				break;
			memcpy(d + at[half], stage + half * VG_HALF, len[half]);
		}
		len[half] = n - off < VG_HALF ? n - off : VG_HALF;
		at[half] = off;
		r = vg_copy_cmd(ctx, (uintptr_t)(stage + half * VG_HALF), src + off,
				len[half], &seq[half]);
		ctx->stage_seq[half] = seq[half];
	}
	for (i = 0; r == CUDA_SUCCESS && i < 2; i++, half ^= 1) {
		if (!len[half])
			continue;
		r = vg_chan_wait(ctx, seq[half]);
		if (r == CUDA_SUCCESS)
			memcpy(d + at[half], stage + half * VG_HALF, len[half]);
		len[half] = 0;
	}
	return r;
}

enum vg_dir { VG_HTOD, VG_DTOH, VG_DTOD };

/* One synchronous copy on the current context, with the checks of each kind. */
static CUresult vg_copy(enum vg_dir dir, uint64_t dst, uint64_t src, size_t n)
{
	struct CUctx_st *ctx;
	CUresult r;

	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	if (r || !n)
		goto out;
	if ((dir != VG_HTOD && !vg_dev_range(ctx, src, n)) ||
	    (dir != VG_DTOH && !vg_dev_range(ctx, dst, n)) ||
	    (dir == VG_HTOD && !src) || (dir == VG_DTOH && !dst)) {
		r = CUDA_ERROR_INVALID_VALUE;
		goto out;
	}
	switch (dir) {
	case VG_HTOD:
		r = vg_htod(ctx, dst, (const void *)(uintptr_t)src, n);
		break;
	case VG_DTOH:
		r = vg_dtoh(ctx, (void *)(uintptr_t)dst, src, n);
		break;
	case VG_DTOD:
		r = vg_copy_cmd(ctx, dst, src, n, NULL);
		break;
	}
out:
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
	return vg_copy(VG_HTOD, dst, (uintptr_t)src, n);
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
	return vg_copy(VG_DTOH, (uintptr_t)dst, src, n);
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	return vg_copy(VG_DTOD, dst, src, n);
}

/* With unified addresses the pointers tell the direction. */
CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	struct CUctx_st *ctx;
	bool dst_dev, src_dev;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	dst_dev = vg_ctx_by_address(dst) != NULL;
	src_dev = vg_ctx_by_address(src) != NULL;
	pthread_mutex_unlock(&vg_lock);
	if (dst_dev && src_dev)
		return cuMemcpyDtoD_v2(dst, src, n);
	if (dst_dev)
		return cuMemcpyHtoD_v2(dst, (const void *)(uintptr_t)src, n);
	if (src_dev)
		return cuMemcpyDtoH_v2((void *)(uintptr_t)dst, src, n);
	/* Host to host: after earlier work, as a copy on the device would be. */
	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	if (r == CUDA_SUCCESS)
		r = vg_chan_sync(ctx);
	pthread_mutex_unlock(&vg_lock);
	if (r == CUDA_SUCCESS && n)
		memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
	return r;
}

static CUresult vg_memset(CUdeviceptr dst, uint32_t value, uint32_t elem,
			  size_t count)
{
	struct vgpu_cmd cmd = { .op = VGPU_CMD_MEMSET };
	struct CUctx_st *ctx;
	CUresult r;

	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&ctx);
	if (r || !count)
		goto out;
	if (dst % elem || count > SIZE_MAX / elem ||
	    !vg_dev_range(ctx, dst, count * elem)) {
		r = CUDA_ERROR_INVALID_VALUE;
		goto out;
	}
	cmd.memset.dst = dst;
	cmd.memset.value = value;
	cmd.memset.elem_size = elem;
	cmd.memset.width = count;
	cmd.memset.height = 1;
	r = vg_chan_push(ctx, &cmd, NULL);
out:
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char uc, size_t n)
{
	return vg_memset(dst, uc, 1, n);
}

CUresult cuMemsetD16_v2(CUdeviceptr dst, unsigned short us, size_t n)
{
	return vg_memset(dst, us, 2, n);
}

CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int ui, size_t n)
{
	return vg_memset(dst, ui, 4, n);
}
