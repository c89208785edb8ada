// SPDX-License-Identifier: MIT
/*
 * Peers: one context reaching another's device memory. The module links
 * a context to another (VGPU_IOCTL_PEER_SET): its copy engines then reach
 * the other's memory at its unified addresses, and its kernels too when
 * the link grants access. libvgpu links
 * - a context to any other whose memory a copy on it touches (copy.c),
 *   as NVIDIA's driver copies between any two contexts without being asked;
 * - two contexts of one device both ways, with access, as each opens: an
 *   H100's kernels reach the memory of another context of their device;
 * - and, with access, a context to a context of another device once
 *   cuCtxEnablePeerAccess asks (cuCtxDisablePeerAccess takes it back).
 * Every vgpu device reaches every other (cuDeviceCanAccessPeer), none
 * itself. How an H100 answers the calls with one device is in
 * tests/e2e/ref/h100_peer.log.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "capture.h"
#include "vg.h"

/* The live link from @ctx to @peer, or NULL; under vg_lock. */
static struct vg_peer_link *vg_peer_find(struct CUctx_st *ctx,
					 const struct CUctx_st *peer)
{
	unsigned int i;

	for (i = 0; i < ctx->npeers; i++)
		if (ctx->peers[i].ctx == peer &&
		    ctx->peers[i].serial == peer->serial)
			return &ctx->peers[i];
	return NULL;
}

/*
 * Drops the records of links whose peer has closed since (the module
 * dropped the links themselves then).
 */
static void vg_peer_prune(struct CUctx_st *ctx)
{
	unsigned int i, n = 0;

	for (i = 0; i < ctx->npeers; i++) {
		struct vg_peer_link *l = &ctx->peers[i];

		if (vg_ctx_alive(l->ctx) && l->ctx->fd >= 0 &&
		    l->ctx->serial == l->serial)
			ctx->peers[n++] = *l;
	}
	ctx->npeers = n;
}

/*
 * Links @ctx to @peer, both open, granting its kernels access or not;
 * under vg_lock. The link's record, or NULL with *@r set.
 */
static struct vg_peer_link *vg_peer_set(struct CUctx_st *ctx,
					struct CUctx_st *peer, bool access,
					CUresult *r)
{
	struct vg_peer_link *l = vg_peer_find(ctx, peer);
	struct vgpu_peer_set s = {
		.fd = peer->fd, .flags = access ? VGPU_PEER_ACCESS : 0,
	};

	*r = CUDA_SUCCESS;
	if (l && l->access == access)
		return l;
	if (!l && ctx->npeers == VG_MAX_PEER_LINKS)
		vg_peer_prune(ctx);
	if (!l && ctx->npeers == VG_MAX_PEER_LINKS) {
		*r = CUDA_ERROR_TOO_MANY_PEERS;
		return NULL;
	}
	if (ioctl(ctx->fd, VGPU_IOCTL_PEER_SET, &s)) {
		*r = errno == ENOSPC ? CUDA_ERROR_TOO_MANY_PEERS :
			vg_errno_result(errno);
		return NULL;
	}
	if (!l) {
		l = &ctx->peers[ctx->npeers++];
		*l = (struct vg_peer_link){ .ctx = peer, .serial = peer->serial };
	}
	l->access = access;
	return l;
}

/*
 * A copy on @ctx touches @peer's memory: links them unless they are;
 * under vg_lock. CUDA_SUCCESS, or why the engine cannot reach it.
 */
CUresult vg_peer_reach(struct CUctx_st *ctx, struct CUctx_st *peer)
{
	CUresult r = CUDA_SUCCESS;

	if (ctx != peer && !vg_peer_find(ctx, peer))
		vg_peer_set(ctx, peer, false, &r);
	return r;
}

/*
 * @ctx has just opened (under vg_lock): it and every open context of its
 * device reach each other's memory, kernels included; it reaches the
 * pools and mappings that give its device access. A link that cannot be
 * made leaves those kernels faulting there, nothing worse.
 */
void vg_peer_ctx_opened(struct CUctx_st *ctx)
{
	struct CUctx_st *c;
	CUresult r;

	ctx->npeers = 0;
	for (c = vg_ctx_next(NULL); c; c = vg_ctx_next(c)) {
		if (c == ctx || c->fd < 0 || c->dev != ctx->dev)
			continue;
		vg_peer_set(ctx, c, true, &r);
		vg_peer_set(c, ctx, true, &r);
	}
	vg_pools_ctx_opened(ctx);
	vg_vmm_ctx_opened(ctx);
}

/*
 * The checks both calls share, in an H100's order: a current context,
 * a peer that is one and is open.
 */
static CUresult vg_peer_args(CUcontext peer, struct CUctx_st **ctx)
{
	*ctx = vg_ctx_current();
	if (!*ctx || !peer)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!vg_ctx_alive(peer) || peer->fd < 0 || (*ctx)->fd < 0)
		return CUDA_ERROR_CONTEXT_IS_DESTROYED;
	return CUDA_SUCCESS;
}

CUresult cuCtxEnablePeerAccess(CUcontext peer, unsigned int flags)
{
	struct vg_peer_link *l;
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_peer_args(peer, &ctx);
	if (r == CUDA_SUCCESS && flags)
		r = CUDA_ERROR_INVALID_VALUE;
	/* A device is not its own peer, whichever of its contexts. */
	if (r == CUDA_SUCCESS && peer->dev == ctx->dev)
		r = CUDA_ERROR_PEER_ACCESS_UNSUPPORTED;
	if (r == CUDA_SUCCESS) {
		l = vg_peer_find(ctx, peer);
		if (l && l->enabled) {
			r = CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
		} else {
			l = vg_peer_set(ctx, peer, true, &r);
			if (l)
				l->enabled = true;
		}
	}
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuCtxDisablePeerAccess(CUcontext peer)
{
	struct vg_peer_link *l = NULL;
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	r = vg_peer_args(peer, &ctx);
	if (r == CUDA_SUCCESS)
		l = vg_peer_find(ctx, peer);
	if (r == CUDA_SUCCESS && !(l && l->enabled))
		r = CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
	/* Copies still reach the peer. */
	if (r == CUDA_SUCCESS && vg_peer_set(ctx, peer, false, &r))
		l->enabled = false;
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/*
 * cuMemcpyPeer: a device-to-device copy, whichever the contexts (an H100
 * takes any, NULL included, and goes by the addresses); the synchronous
 * form is ordered after all work of the contexts that own the memory
 * (vg_peer_drain(), which copy.c calls for any copy between contexts).
 */
static CUresult vg_copy_peer(CUdeviceptr dst, CUcontext dst_ctx,
			     CUdeviceptr src, CUcontext src_ctx, size_t n,
			     bool async, CUstream hs)
{
	/* Not captured, as on an H200: 900 and the capture spoilt. */
	CUresult r = async ? vg_cap_refuse(hs) : CUDA_SUCCESS;

	(void)dst_ctx;
	(void)src_ctx;
	return r ? r : vg_copy(VG_DTOD, dst, src, n, async, hs);
}

CUresult cuMemcpyPeer(CUdeviceptr dst, CUcontext dst_ctx, CUdeviceptr src,
		      CUcontext src_ctx, size_t n)
{
	return vg_copy_peer(dst, dst_ctx, src, src_ctx, n, false, NULL);
}

CUresult cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dst_ctx,
			   CUdeviceptr src, CUcontext src_ctx, size_t n,
			   CUstream hs)
{
	return vg_copy_peer(dst, dst_ctx, src, src_ctx, n, true, hs);
}

CUresult cuMemcpyPeer_ptds(CUdeviceptr dst, CUcontext dst_ctx,
			   CUdeviceptr src, CUcontext src_ctx, size_t n)
{
	return vg_copy_peer(dst, dst_ctx, src, src_ctx, n, false,
			    CU_STREAM_PER_THREAD);
}

CUresult cuMemcpyPeerAsync_ptsz(CUdeviceptr dst, CUcontext dst_ctx,
				CUdeviceptr src, CUcontext src_ctx, size_t n,
				CUstream hs)
{
	return vg_copy_peer(dst, dst_ctx, src, src_ctx, n, true,
			    hs ? hs : CU_STREAM_PER_THREAD);
}

/* cuMemcpy3DPeer: cuMemcpy3D's copy; the contexts go as cuMemcpyPeer's. */
static CUresult vg_copy3d_peer(const CUDA_MEMCPY3D_PEER *p, bool async,
			       CUstream hs)
{
	CUDA_MEMCPY3D c;

	/* NVIDIA's driver dies of SIGSEGV here. */
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	memset(&c, 0, sizeof(c));
	c.srcXInBytes = p->srcXInBytes;
	c.srcY = p->srcY;
	c.srcZ = p->srcZ;
	c.srcLOD = p->srcLOD;
	c.srcMemoryType = p->srcMemoryType;
	c.srcHost = p->srcHost;
	c.srcDevice = p->srcDevice;
	c.srcArray = p->srcArray;
	c.srcPitch = p->srcPitch;
	c.srcHeight = p->srcHeight;
	c.dstXInBytes = p->dstXInBytes;
	c.dstY = p->dstY;
	c.dstZ = p->dstZ;
	c.dstLOD = p->dstLOD;
	c.dstMemoryType = p->dstMemoryType;
	c.dstHost = p->dstHost;
	c.dstDevice = p->dstDevice;
	c.dstArray = p->dstArray;
	c.dstPitch = p->dstPitch;
	c.dstHeight = p->dstHeight;
	c.WidthInBytes = p->WidthInBytes;
	c.Height = p->Height;
	c.Depth = p->Depth;
	return vg_copy3d(&c, async, hs);
}

CUresult cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER *p)
{
	return vg_copy3d_peer(p, false, NULL);
}

CUresult cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER *p, CUstream hs)
{
	return vg_copy3d_peer(p, true, hs);
}

CUresult cuMemcpy3DPeer_ptds(const CUDA_MEMCPY3D_PEER *p)
{
	return vg_copy3d_peer(p, false, CU_STREAM_PER_THREAD);
}

CUresult cuMemcpy3DPeerAsync_ptsz(const CUDA_MEMCPY3D_PEER *p, CUstream hs)
{
	return vg_copy3d_peer(p, true, hs ? hs : CU_STREAM_PER_THREAD);
}

/*
 * Before a synchronous copy on stream @hs that touches device memory at
 * @a or @b (0: that side is none): the work queued so far in the contexts
 * that own them, other than the stream's own, has completed, as
 * cuMemcpyPeer is ordered on NVIDIA's driver. *@cross says whether there
 * were any, for the copy to wait for its own completion as well.
 */
CUresult vg_peer_drain(CUstream hs, uint64_t a, uint64_t b, bool *cross)
{
	struct CUctx_st *ctx, *own[2], *o;
	const uint64_t va[2] = { a, b };
	struct CUstream_st *st;
	unsigned int i, n = 0;
	CUresult r;

	*cross = false;
	pthread_mutex_lock(&vg_lock);
	/* A bad stream is the copy's to report. */
	if (vg_stream_resolve(hs, &ctx, &st)) {
		pthread_mutex_unlock(&vg_lock);
		return CUDA_SUCCESS;
	}
	for (i = 0; i < 2; i++) {
		o = va[i] ? vg_ctx_by_address(va[i]) : NULL;
		if (o && o != ctx && !(n && own[0] == o)) {
			vg_ctx_hold(o);
			own[n++] = o;
		}
	}
	pthread_mutex_unlock(&vg_lock);
	*cross = n > 0;
	r = CUDA_SUCCESS;
	/* vg_ctx_idle() drops and retakes the context's lock: it must hold it. */
	for (i = 0; i < n && r == CUDA_SUCCESS; i++) {
		pthread_mutex_lock(&own[i]->lock);
		r = vg_ctx_idle(own[i]);
		pthread_mutex_unlock(&own[i]->lock);
	}
	pthread_mutex_lock(&vg_lock);
	for (i = 0; i < n; i++)
		vg_ctx_release(own[i]);
	pthread_mutex_unlock(&vg_lock);
	return r;
}
