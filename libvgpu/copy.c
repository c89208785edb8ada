// SPDX-License-Identifier: MIT
/*
 * Copies and fills: cuMemcpy (direction from the unified addresses),
 * cuMemcpyHtoD/DtoH/DtoD and cuMemsetD8/D16/D32, as commands on a stream
 * (the synchronous calls: the legacy default stream). Device ranges are checked against their
 * allocation before anything is queued, as NVIDIA's driver does. Host
 * memory registered with the context is reached directly; pageable memory
 * goes through the pinned staging buffer, its two halves alternating so
 * the engine copies one while the CPU fills the other. Pageable memory the
 * caller may not touch (unmapped, read-only where the copy writes) fails
 * the copy with CUDA_ERROR_INVALID_VALUE, where NVIDIA's driver dies of
 * SIGSEGV (host_copy.c). A side in a CUDA array is the device memory it
 * is, its range checked against the array first (array_copy.c).
 *
 * Synchronisation follows CUDA's rules for the synchronous calls: copies
 * with host memory return once the host side is done with (host-to-device:
 * the data has left the caller's buffer; device-to-host: it has arrived),
 * device-to-device copies and fills return once queued, unless they touch
 * memory marked CU_POINTER_ATTRIBUTE_SYNC_MEMOPS: those return once done.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "capture.h"
#include "vg.h"

/*
 * Is [va, va + n) inside one allocation of @ctx: device memory, or
 * managed memory, which its engines reach at the same address?
 */
static bool vg_dev_range_in(struct CUctx_st *ctx, CUdeviceptr va, size_t n)
{
	struct vgpu_mem_query q = { .va = va };

	if (ioctl(ctx->fd, VGPU_IOCTL_MEM_QUERY, &q))
		return vg_managed_in(ctx, va, n);
	return n <= q.size && va - q.base <= q.size - n;
}

/*
 * May @ctx's engines copy from (or, with @write, to) [va, va + n)? Under
 * vg_lock. Mappings of one reservation must cover it with the rights
 * they give @ctx's device (an H100 refuses the call otherwise); an
 * allocation may be another context's (another device's, or another of
 * this device), reached through a link to it (peer.c), as NVIDIA's
 * driver copies between any two.
 */
static bool vg_dev_range(struct CUctx_st *ctx, CUdeviceptr va, size_t n,
			 bool write)
{
	struct CUctx_st *owner;
	int vmm = vg_vmm_range(ctx, va, n, write);

	if (vmm >= 0)
		return vmm;
	owner = vg_ctx_by_address(va);
	if (owner && owner != ctx)
		return vg_dev_range_in(owner, va, n) &&
		       vg_peer_reach(ctx, owner) == CUDA_SUCCESS;
	return vg_dev_range_in(ctx, va, n);
}

static CUresult vg_copy_cmd(struct CUstream_st *st, uint64_t dst, uint64_t src,
			    size_t n, uint64_t *seqno)
{
	struct vgpu_cmd cmd = { .op = VGPU_CMD_COPY };

	cmd.copy.dst = dst;
	cmd.copy.src = src;
	cmd.copy.width = n;
	cmd.copy.height = 1;
	return vg_push(st, &cmd, seqno);
}

#define VG_HALF (VG_STAGE_SIZE / 2)

/* With the context's lock held; @pinned: the source is registered. */
CUresult vg_htod(struct CUstream_st *st, CUdeviceptr dst, const void *src,
		 size_t n, bool pinned, bool async)
{
	struct CUctx_st *ctx = st->ctx;
	const unsigned char *s = src;
	unsigned char *stage;
	uint64_t seq = 0;
	size_t off, len;
	unsigned int half = 0;
	CUresult r;

	if (pinned) {
		r = vg_copy_cmd(st, dst, (uintptr_t)src, n, &seq);
		return r || async ? r : vg_stream_wait(st, seq);
	}
	r = vg_stage_take(ctx, &stage);
	if (r)
		return r;
	for (off = 0; r == CUDA_SUCCESS && off < n; off += len, half ^= 1) {
		len = n - off < VG_HALF ? n - off : VG_HALF;
		r = vg_fence_wait(ctx->stage_fence[half]);
		if (r)
			break;
		if (!vg_host_rows(false, stage + half * VG_HALF,
				  (uintptr_t)(s + off), len, len, 1)) {
			r = CUDA_ERROR_INVALID_VALUE;
			break;
		}
		r = vg_copy_cmd(st, dst + off, (uintptr_t)(stage + half * VG_HALF),
				len, &seq);
		ctx->stage_fence[half] = (struct vg_fence){ st->ch, seq };
	}
	vg_stage_give(ctx);
	/* The caller's buffer is free once the last piece is staged. */
	return r;
}

/* A staged piece of a device-to-host copy out to the caller's @d. */
static CUresult vg_dtoh_drain(unsigned char *piece, unsigned char *d,
			      size_t len)
{
	return vg_host_rows(true, piece, (uintptr_t)d, len, len, 1) ?
		CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* With the context's lock held; @pinned: the destination is registered. */
CUresult vg_dtoh(struct CUstream_st *st, void *dst, CUdeviceptr src, size_t n,
		 bool pinned, bool async)
{
	struct CUctx_st *ctx = st->ctx;
	unsigned char *d = dst, *stage;
	uint64_t seq[2] = { 0, 0 };
	size_t off, len[2] = { 0, 0 }, at[2] = { 0, 0 };
	unsigned int half = 0, i;
	CUresult r;

	if (pinned) {
		r = vg_copy_cmd(st, (uintptr_t)dst, src, n, &seq[0]);
		return r || async ? r : vg_stream_wait(st, seq[0]);
	}
	r = vg_stage_take(ctx, &stage);
	if (r)
		return r;
	/* Earlier copies through it (maybe of other streams) are done. */
	for (i = 0; r == CUDA_SUCCESS && i < 2; i++)
		r = vg_fence_wait(ctx->stage_fence[i]);
	/* Queue piece k+1 before draining piece k. */
	for (off = 0; r == CUDA_SUCCESS && off < n; off += len[half], half ^= 1) {
		if (len[half]) {
			r = vg_stream_wait(st, seq[half]);
			if (r)
				break;
			r = vg_dtoh_drain(stage + half * VG_HALF, d + at[half],
					  len[half]);
			if (r)
				break;
		}
		len[half] = n - off < VG_HALF ? n - off : VG_HALF;
		at[half] = off;
		r = vg_copy_cmd(st, (uintptr_t)(stage + half * VG_HALF), src + off,
				len[half], &seq[half]);
		ctx->stage_fence[half] = (struct vg_fence){ st->ch, seq[half] };
	}
	for (i = 0; r == CUDA_SUCCESS && i < 2; i++, half ^= 1) {
		if (!len[half])
			continue;
		r = vg_stream_wait(st, seq[half]);
		if (r == CUDA_SUCCESS)
			r = vg_dtoh_drain(stage + half * VG_HALF, d + at[half],
					  len[half]);
		len[half] = 0;
	}
	vg_stage_give(ctx);
	return r;
}

/*
 * One copy on stream @hs (the synchronous calls: the legacy stream), with
 * the checks of each kind. An asynchronous copy returns once queued when
 * the engine reaches both sides; with pageable memory it behaves as the
 * synchronous one, as on CUDA.
 */
CUresult vg_copy(enum vg_dir dir, uint64_t dst, uint64_t src, size_t n,
		 bool async, CUstream hs)
{
	enum vg_host_use use = VG_HOST_PAGEABLE;
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	uint64_t seq = 0;
	bool sync, cross = false, taken = false;
	CUresult r = vg_check_init();

	if (!r)
		r = vg_cap_copy1d(dir, dst, src, n, hs, &taken);
	if (r || taken)
		return r;
	if (!async && n)
		r = vg_peer_drain(hs, dir != VG_HTOD ? src : 0,
				  dir != VG_DTOH ? dst : 0, &cross);
	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	if (r || !n)
		goto out;
	if ((dir != VG_HTOD && !vg_dev_range(ctx, src, n, false)) ||
	    (dir != VG_DTOH && !vg_dev_range(ctx, dst, n, true)) ||
	    (dir == VG_HTOD && !src) || (dir == VG_DTOH && !dst)) {
		r = CUDA_ERROR_INVALID_VALUE;
		goto out;
	}
	if (dir != VG_DTOD)
		use = vg_host_use(ctx, dir == VG_HTOD ? src : dst, n);
	if (use == VG_HOST_OVERRUN) {
		r = CUDA_ERROR_INVALID_VALUE;
		goto out;
	}
	/*
	 * Managed memory is SYNC_MEMOPS from the start, as on an H100: the
	 * host reads what a synchronous copy from pageable memory wrote
	 * there once the call returns, not once the engine gets to it.
	 */
	sync = !async && (cross || (dir == VG_DTOD ?
		(vg_sync_memops(dst) || vg_sync_memops(src)) :
		dir == VG_HTOD && use == VG_HOST_PAGEABLE &&
		vg_managed_in(ctx, dst, n)));
	vg_ctx_begin(ctx);
	switch (dir) {
	case VG_HTOD:
		r = vg_htod(st, dst, (const void *)(uintptr_t)src, n,
			    use == VG_HOST_PINNED, async);
		if (r == CUDA_SUCCESS && sync)
			r = vg_chan_wait(st->ch, st->ch->put, false);
		break;
	case VG_DTOH:
		r = vg_dtoh(st, (void *)(uintptr_t)dst, src, n,
			    use == VG_HOST_PINNED, async);
		break;
	case VG_DTOD:
		r = vg_copy_cmd(st, dst, src, n, &seq);
		if (r == CUDA_SUCCESS && sync)
			r = vg_stream_wait(st, seq);
		break;
	}
	/* A blocking copy prints what kernels printed, as on CUDA. */
	if (r == CUDA_SUCCESS && !async)
		vg_printf_drain(ctx);
	vg_ctx_end(ctx);
	return r;
out:
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
	return vg_copy(VG_HTOD, dst, (uintptr_t)src, n, false, NULL);
}

CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
	return vg_copy(VG_DTOH, (uintptr_t)dst, src, n, false, NULL);
}

CUresult cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	return vg_copy(VG_DTOD, dst, src, n, false, NULL);
}

CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n,
			      CUstream stream)
{
	return vg_copy(VG_HTOD, dst, (uintptr_t)src, n, true, stream);
}

CUresult cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n,
			      CUstream stream)
{
	return vg_copy(VG_DTOH, (uintptr_t)dst, src, n, true, stream);
}

CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n,
			      CUstream stream)
{
	return vg_copy(VG_DTOD, dst, src, n, true, stream);
}

/* With unified addresses the pointers tell the direction. */
CUresult vg_memcpy(CUdeviceptr dst, CUdeviceptr src, size_t n, bool async,
		   CUstream hs)
{
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	bool dst_dev, src_dev;
	CUresult r = vg_check_init();

	if (r)
		return r;
	/*
	 * Captured, the copy is a node of unified memory on both sides,
	 * whatever the pointers are, as NVIDIA's driver makes it.
	 */
	if (async && vg_cap_maybe()) {
		CUDA_MEMCPY3D p = {
			.srcMemoryType = CU_MEMORYTYPE_UNIFIED, .srcDevice = src,
			.srcPitch = n, .srcHeight = 1,
			.dstMemoryType = CU_MEMORYTYPE_UNIFIED, .dstDevice = dst,
			.dstPitch = n, .dstHeight = 1,
			.WidthInBytes = n, .Height = 1, .Depth = 1,
		};
		bool taken;

		r = vg_cap_copy3d(&p, hs, &taken);
		if (r || taken)
			return r;
	}
	pthread_mutex_lock(&vg_lock);
	dst_dev = vg_ctx_by_address(dst) != NULL;
	src_dev = vg_ctx_by_address(src) != NULL;
	pthread_mutex_unlock(&vg_lock);
	if (dst_dev && src_dev)
		return vg_copy(VG_DTOD, dst, src, n, async, hs);
	if (dst_dev)
		return vg_copy(VG_HTOD, dst, src, n, async, hs);
	if (src_dev)
		return vg_copy(VG_DTOH, dst, src, n, async, hs);
	/* Host to host: after earlier work, as a copy on the device would be. */
	r = vg_cap_refuse(hs);
	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	if (r) {
		pthread_mutex_unlock(&vg_lock);
		return r;
	}
	vg_ctx_begin(ctx);
	r = vg_stream_flush(st);
	vg_ctx_end(ctx);
	if (r == CUDA_SUCCESS && n)
		memmove((void *)(uintptr_t)dst, (const void *)(uintptr_t)src, n);
	return r;
}

CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	return vg_memcpy(dst, src, n, false, NULL);
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n,
		       CUstream stream)
{
	return vg_memcpy(dst, src, n, true, stream);
}

/* A 1D fill is one row of a 2D one. */
static CUresult vg_memset(CUdeviceptr dst, uint32_t value, uint32_t elem,
			  size_t count, bool async, CUstream hs)
{
	return vg_memset2d(dst, 0, value, elem, count, 1, async, hs);
}

CUresult cuMemsetD8_v2(CUdeviceptr dst, unsigned char uc, size_t n)
{
	return vg_memset(dst, uc, 1, n, false, NULL);
}

CUresult cuMemsetD16_v2(CUdeviceptr dst, unsigned short us, size_t n)
{
	return vg_memset(dst, us, 2, n, false, NULL);
}

CUresult cuMemsetD32_v2(CUdeviceptr dst, unsigned int ui, size_t n)
{
	return vg_memset(dst, ui, 4, n, false, NULL);
}

/* --- pitched copies and fills -------------------------------------------- */

/* One side of a 2D copy, resolved. */
struct vg_side {
	uint64_t addr;		/* first byte of the first row */
	size_t pitch;
	bool device;		/* in device memory of the context */
	bool pinned;		/* host memory the engine reaches directly */
};

static CUresult vg_side_get(struct CUctx_st *ctx, CUmemorytype type,
			    const void *host, CUdeviceptr dev, size_t x,
			    size_t y, size_t pitch, size_t width, size_t height,
			    bool write, struct vg_side *s)
{
	uint64_t base, span;

	switch (type) {
	case CU_MEMORYTYPE_HOST:
		base = (uintptr_t)host;
		break;
	case CU_MEMORYTYPE_DEVICE:
	case CU_MEMORYTYPE_UNIFIED:
		base = dev;
		break;
	default:	/* arrays: device memory by now (array_copy.c) */
		return CUDA_ERROR_INVALID_VALUE;
	}
	if (!base || (height > 1 && pitch < width) ||
	    (y && pitch > (UINT64_MAX - x) / y))
		return CUDA_ERROR_INVALID_VALUE;
	s->addr = base + y * pitch + x;
	s->pitch = pitch;
	span = (height - 1) * (uint64_t)pitch + width;
	s->device = vg_ctx_by_address(s->addr) != NULL;
	if (type == CU_MEMORYTYPE_DEVICE && !s->device)
		return CUDA_ERROR_INVALID_VALUE;
	if (s->device && !vg_dev_range(ctx, s->addr, span, write))
		return CUDA_ERROR_INVALID_VALUE;
	s->pinned = false;
	if (!s->device) {
		switch (vg_host_use(ctx, s->addr, span)) {
		case VG_HOST_OVERRUN:
			return CUDA_ERROR_INVALID_VALUE;
		case VG_HOST_PINNED:
			s->pinned = true;
			break;
		case VG_HOST_PAGEABLE:
			break;
		}
	}
	return CUDA_SUCCESS;
}

static CUresult vg_copy2d_cmd(struct CUstream_st *st, const struct vg_side *d,
			      const struct vg_side *s, size_t width,
			      size_t row0, size_t rows, uint64_t *seqno)
{
	struct vgpu_cmd cmd = { .op = VGPU_CMD_COPY };

	cmd.copy.dst = d->addr + row0 * d->pitch;
	cmd.copy.src = s->addr + row0 * s->pitch;
	cmd.copy.width = width;
	cmd.copy.height = (uint32_t)rows;
	cmd.copy.dst_pitch = d->pitch;
	cmd.copy.src_pitch = s->pitch;
	return vg_push(st, &cmd, seqno);
}

/*
 * Rows of pageable host memory travel packed in the staging buffer, as
 * many rows at a time as fit in half of it.
 */
static CUresult vg_copy2d_staged(struct CUstream_st *st, struct vg_side d,
				 struct vg_side s, size_t width, size_t height)
{
	struct CUctx_st *ctx = st->ctx;
	size_t per = VG_HALF / width, row, n;
	struct vg_side stage = { .pitch = width, .pinned = true };
	unsigned char *buf;
	uint64_t seq = 0;
	CUresult r = vg_stage_take(ctx, &buf);

	if (r)
		return r;
	for (row = 0; r == CUDA_SUCCESS && row < height; row += n) {
		n = height - row < per ? height - row : per;
		r = vg_fence_wait(ctx->stage_fence[0]);
		if (r)
			break;
		stage.addr = (uintptr_t)buf - row * width;
		if (s.device || s.pinned) {	/* engine-reachable to pageable */
			r = vg_copy2d_cmd(st, &stage, &s, width, row, n, &seq);
			if (r == CUDA_SUCCESS)
				r = vg_stream_wait(st, seq);
			if (r == CUDA_SUCCESS &&
			    !vg_host_rows(true, buf, d.addr + row * d.pitch,
					  d.pitch, width, n))
				r = CUDA_ERROR_INVALID_VALUE;
		} else {			/* pageable to engine-reachable */
			if (!vg_host_rows(false, buf, s.addr + row * s.pitch,
					  s.pitch, width, n)) {
				r = CUDA_ERROR_INVALID_VALUE;
				break;
			}
			r = vg_copy2d_cmd(st, &d, &stage, width, row, n, &seq);
			ctx->stage_fence[0] = (struct vg_fence){ st->ch, seq };
		}
	}
	vg_stage_give(ctx);
	return r;
}

/* A side's device address, for vg_peer_drain(); 0 for host memory. */
static uint64_t vg_side_dev(CUmemorytype type, CUdeviceptr dev)
{
	return type == CU_MEMORYTYPE_DEVICE || type == CU_MEMORYTYPE_UNIFIED ?
		dev : 0;
}

CUresult vg_copy2d(const CUDA_MEMCPY2D *p, bool async, CUstream hs)
{
	CUDA_MEMCPY2D c;
	struct vg_side s, d;
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	uint64_t seq = 0;
	size_t row;
	bool sync, cross = false, direct = false, taken = false;
	CUresult r;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_cap_copy2d(p, hs, &taken);
	if (r || taken)
		return r;
	/* An array is device memory in a layout of its own. */
	r = vg_array_sides2d(p, &c);
	if (r)
		return r;
	p = &c;
	/* Between contexts: after their work, and done on return. */
	if (!async && p->WidthInBytes && p->Height) {
		r = vg_peer_drain(hs, vg_side_dev(p->srcMemoryType, p->srcDevice),
				  vg_side_dev(p->dstMemoryType, p->dstDevice),
				  &cross);
		if (r)
			return r;
	}
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	if (r || !p->WidthInBytes || !p->Height)
		goto out;
	if (p->Height > UINT32_MAX) {
		r = CUDA_ERROR_INVALID_VALUE;
		goto out;
	}
	r = vg_side_get(ctx, p->srcMemoryType, p->srcHost, p->srcDevice,
			p->srcXInBytes, p->srcY, p->srcPitch, p->WidthInBytes,
			p->Height, false, &s);
	if (r == CUDA_SUCCESS)
		r = vg_side_get(ctx, p->dstMemoryType, p->dstHost, p->dstDevice,
				p->dstXInBytes, p->dstY, p->dstPitch,
				p->WidthInBytes, p->Height, true, &d);
	if (r)
		goto out;
	sync = !async && (cross || vg_sync_memops(s.addr) ||
			  vg_sync_memops(d.addr));
	vg_ctx_begin(ctx);
	if ((s.device || s.pinned) && (d.device || d.pinned)) {
		direct = true;
		r = vg_copy2d_cmd(st, &d, &s, p->WidthInBytes, 0, p->Height, &seq);
		if (!async && !(s.device && d.device))
			sync = true;
		if (r == CUDA_SUCCESS && sync)
			r = vg_stream_wait(st, seq);
	} else if (s.device || s.pinned || d.device || d.pinned) {
		if (p->WidthInBytes <= VG_HALF) {
			r = vg_copy2d_staged(st, d, s, p->WidthInBytes, p->Height);
		} else {
			for (row = 0; r == CUDA_SUCCESS && row < p->Height; row++)
				r = d.device || d.pinned ?
					vg_htod(st, d.addr + row * d.pitch,
						(const void *)(uintptr_t)(s.addr + row * s.pitch),
						p->WidthInBytes, false, false) :
					vg_dtoh(st, (void *)(uintptr_t)(d.addr + row * d.pitch),
						s.addr + row * s.pitch, p->WidthInBytes,
						false, false);
		}
	} else {
		/* Host to host: in order with earlier work. */
		r = vg_stream_flush(st);
		for (row = 0; r == CUDA_SUCCESS && row < p->Height; row++)
			memmove((void *)(uintptr_t)(d.addr + row * d.pitch),
				(const void *)(uintptr_t)(s.addr + row * s.pitch),
				p->WidthInBytes);
	}
	vg_ctx_end(ctx);
	if (r == CUDA_SUCCESS && cross && !direct)
		r = cuStreamSynchronize(hs);
	return r;
out:
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuMemcpy2D_v2(const CUDA_MEMCPY2D *p)
{
	CUresult r = vg_check_init();

	return r ? r : vg_copy2d(p, false, NULL);
}

CUresult cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D *p)
{
	return cuMemcpy2D_v2(p);
}

CUresult cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D *p, CUstream stream)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	return vg_copy2d(p, true, stream);
}

/*
 * May a fill write [dst, dst + n) for @ctx? Device or managed memory, the
 * device heap, or page-locked host memory of @ctx that is not read-only
 * (an H200 fills that too: its engines reach it at the same address).
 * *@host: the memory is the host's (managed or page-locked). Under
 * vg_lock.
 */
static bool vg_fill_target(struct CUctx_st *ctx, CUdeviceptr dst, size_t n, bool *host)
{
	struct vg_host_info hi;

	*host = vg_host_lookup(dst, &hi) && hi.ctx == ctx;
	if (vg_dev_range(ctx, dst, n, true) || vg_heap_holds(ctx, dst, n))
		return true;
	return *host && !hi.read_only && vg_host_use(ctx, dst, n) == VG_HOST_PINNED;
}

CUresult vg_memset2d(CUdeviceptr dst, size_t pitch, uint32_t value,
		     uint32_t elem, size_t width, size_t height, bool async,
		     CUstream hs)
{
	struct vgpu_cmd cmd = { .op = VGPU_CMD_MEMSET };
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	uint64_t seq = 0;
	bool sync, host = false, taken = false;
	CUresult r = vg_check_init();

	if (!r)
		r = vg_cap_memset(dst, pitch, value, elem, width, height, hs, &taken);
	if (r || taken)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	if (r || !width || !height)
		goto out;
	if (dst % elem || pitch % elem || height > UINT32_MAX ||
	    width > SIZE_MAX / elem || (height > 1 && pitch < width * elem) ||
	    (height > 1 && pitch > (SIZE_MAX - width * elem) / (height - 1)) ||
	    !vg_fill_target(ctx, dst, (height - 1) * pitch + width * elem, &host)) {
		r = CUDA_ERROR_INVALID_VALUE;
		goto out;
	}
	cmd.memset.dst = dst;
	cmd.memset.value = value;
	cmd.memset.elem_size = elem;
	cmd.memset.width = width;
	cmd.memset.height = (uint32_t)height;
	cmd.memset.pitch = pitch;
	/*
	 * A fill returns before it is done, but for one of memory the host
	 * reads as it is, which CUDA documents as fully synchronous, and of
	 * memory marked SYNC_MEMOPS.
	 */
	sync = !async && (host || vg_sync_memops(dst));
	vg_ctx_begin(ctx);
	r = vg_push(st, &cmd, &seq);
	if (r == CUDA_SUCCESS && sync)
		r = vg_stream_wait(st, seq);
	vg_ctx_end(ctx);
	return r;
out:
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuMemsetD2D8_v2(CUdeviceptr dst, size_t pitch, unsigned char uc,
			 size_t width, size_t height)
{
	return vg_memset2d(dst, pitch, uc, 1, width, height, false, NULL);
}

CUresult cuMemsetD2D16_v2(CUdeviceptr dst, size_t pitch, unsigned short us,
			  size_t width, size_t height)
{
	return vg_memset2d(dst, pitch, us, 2, width, height, false, NULL);
}

CUresult cuMemsetD2D32_v2(CUdeviceptr dst, size_t pitch, unsigned int ui,
			  size_t width, size_t height)
{
	return vg_memset2d(dst, pitch, ui, 4, width, height, false, NULL);
}

CUresult cuMemsetD2D8Async(CUdeviceptr dst, size_t pitch, unsigned char uc,
			   size_t width, size_t height, CUstream stream)
{
	return vg_memset2d(dst, pitch, uc, 1, width, height, true, stream);
}

CUresult cuMemsetD2D16Async(CUdeviceptr dst, size_t pitch, unsigned short us,
			    size_t width, size_t height, CUstream stream)
{
	return vg_memset2d(dst, pitch, us, 2, width, height, true, stream);
}

CUresult cuMemsetD2D32Async(CUdeviceptr dst, size_t pitch, unsigned int ui,
			    size_t width, size_t height, CUstream stream)
{
	return vg_memset2d(dst, pitch, ui, 4, width, height, true, stream);
}

CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char uc, size_t n,
			 CUstream stream)
{
	return vg_memset(dst, uc, 1, n, true, stream);
}

CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short us, size_t n,
			  CUstream stream)
{
	return vg_memset(dst, us, 2, n, true, stream);
}

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned int ui, size_t n,
			  CUstream stream)
{
	return vg_memset(dst, ui, 4, n, true, stream);
}

/*
 * A 3D copy between memory the engine reaches (device or registered) is
 * one command; *@done says whether this took it. The whole extent of each
 * side is checked first, so nothing moves when any of it is bad.
 */
static CUresult vg_copy3d_direct(const CUDA_MEMCPY3D *p, bool async,
				 CUstream hs, bool *done)
{
	struct vgpu_cmd cmd = { .op = VGPU_CMD_COPY };
	size_t src_rows, dst_rows;
	struct vg_side s, d;
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	uint64_t seq = 0;
	bool sync;
	CUresult r;

	*done = false;
	if (p->Height > UINT32_MAX || p->Depth > UINT32_MAX ||
	    p->srcHeight > UINT32_MAX || p->dstHeight > UINT32_MAX ||
	    p->srcHeight > (SIZE_MAX - p->Height) / p->Depth ||
	    p->dstHeight > (SIZE_MAX - p->Height) / p->Depth ||
	    p->srcZ > (SIZE_MAX - p->srcY) / (p->srcHeight + 1) ||
	    p->dstZ > (SIZE_MAX - p->dstY) / (p->dstHeight + 1))
		return CUDA_ERROR_INVALID_VALUE;
	src_rows = (p->Depth - 1) * p->srcHeight + p->Height;
	dst_rows = (p->Depth - 1) * p->dstHeight + p->Height;
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	if (r == CUDA_SUCCESS)
		r = vg_side_get(ctx, p->srcMemoryType, p->srcHost, p->srcDevice,
				p->srcXInBytes, p->srcY + p->srcZ * p->srcHeight,
				p->srcPitch, p->WidthInBytes, src_rows, false,
				&s);
	if (r == CUDA_SUCCESS)
		r = vg_side_get(ctx, p->dstMemoryType, p->dstHost, p->dstDevice,
				p->dstXInBytes, p->dstY + p->dstZ * p->dstHeight,
				p->dstPitch, p->WidthInBytes, dst_rows, true,
				&d);
	if (r || !(s.device || s.pinned) || !(d.device || d.pinned)) {
		pthread_mutex_unlock(&vg_lock);
		return r;
	}
	cmd.copy.src = s.addr;
	cmd.copy.dst = d.addr;
	cmd.copy.width = p->WidthInBytes;
	cmd.copy.src_pitch = s.pitch;
	cmd.copy.dst_pitch = d.pitch;
	cmd.copy.height = (uint32_t)p->Height;
	cmd.copy.depth = (uint32_t)p->Depth;
	if (p->Depth > 1) {
		cmd.copy.src_height = (uint32_t)p->srcHeight;
		cmd.copy.dst_height = (uint32_t)p->dstHeight;
	}
	*done = true;
	sync = !async && (vg_sync_memops(s.addr) || vg_sync_memops(d.addr));
	vg_ctx_begin(ctx);
	r = vg_push(st, &cmd, &seq);
	if (r == CUDA_SUCCESS && (sync || (!async && !(s.device && d.device))))
		r = vg_stream_wait(st, seq);
	vg_ctx_end(ctx);
	return r;
}

/*
 * Otherwise a 3D copy is Depth 2D copies, slice z of each side starting
 * Height-pitch rows further on. The last slice goes first: it holds the
 * highest addresses, so a range past an allocation is refused before any
 * byte moves.
 */
CUresult vg_copy3d(const CUDA_MEMCPY3D *p, bool async, CUstream hs)
{
	bool done, cross = false, taken = false;
	CUDA_MEMCPY2D s = { 0 };
	CUDA_MEMCPY3D c;
	size_t z;
	CUresult r = vg_check_init();

	if (!r)
		r = vg_cap_copy3d(p, hs, &taken);
	if (r || taken)
		return r;
	if (!p || p->srcLOD || p->dstLOD || p->reserved0 || p->reserved1)
		return CUDA_ERROR_INVALID_VALUE;
	if (!p->WidthInBytes || !p->Height || !p->Depth)
		return CUDA_SUCCESS;
	r = vg_array_sides3d(p, &c);
	if (r)
		return r;
	p = &c;
	if (p->Depth > 1 && (p->srcHeight < p->Height || p->dstHeight < p->Height))
		return CUDA_ERROR_INVALID_VALUE;
	if (!async)
		r = vg_peer_drain(hs, vg_side_dev(p->srcMemoryType, p->srcDevice),
				  vg_side_dev(p->dstMemoryType, p->dstDevice),
				  &cross);
	if (r == CUDA_SUCCESS)
		r = vg_copy3d_direct(p, async, hs, &done);
	if (r == CUDA_SUCCESS && done && cross)
		r = cuStreamSynchronize(hs);
	if (r || done)
		return r;
	s.srcXInBytes = p->srcXInBytes;
	s.srcMemoryType = p->srcMemoryType;
	s.srcHost = p->srcHost;
	s.srcDevice = p->srcDevice;
	s.srcArray = p->srcArray;
	s.srcPitch = p->srcPitch;
	s.dstXInBytes = p->dstXInBytes;
	s.dstMemoryType = p->dstMemoryType;
	s.dstHost = p->dstHost;
	s.dstDevice = p->dstDevice;
	s.dstArray = p->dstArray;
	s.dstPitch = p->dstPitch;
	s.WidthInBytes = p->WidthInBytes;
	s.Height = p->Height;
	for (z = p->Depth; z-- > 0 && r == CUDA_SUCCESS;) {
		s.srcY = p->srcY + (p->srcZ + z) * p->srcHeight;
		s.dstY = p->dstY + (p->dstZ + z) * p->dstHeight;
		r = vg_copy2d(&s, async, hs);
	}
	if (r == CUDA_SUCCESS && cross)
		r = cuStreamSynchronize(hs);
	return r;
}

CUresult cuMemcpy3D_v2(const CUDA_MEMCPY3D *p)
{
	return vg_copy3d(p, false, NULL);
}

CUresult cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D *p, CUstream stream)
{
	return vg_copy3d(p, true, stream);
}
