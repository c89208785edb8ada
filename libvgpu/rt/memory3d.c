// SPDX-License-Identifier: MIT
/*
 * Three-dimensional memory: cudaMalloc3D's pitched allocation and the 3D
 * copies and fills, between any two kinds of memory (unified addressing
 * tells them apart), on one device or between two (the peer forms).
 * CUDA arrays come with the texture work: a copy naming one answers
 * cudaErrorNotSupported until then.
 */
#include <string.h>

#include "rt.h"

cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitched, struct cudaExtent ext)
{
	CUdeviceptr p = 0;
	size_t pitch = 0, rows;
	cudaError_t e;

	if (!pitched)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	/* Nothing to allocate is no error: a NULL pointer, as an H100 gives. */
	if (!ext.width || !ext.height || !ext.depth) {
		*pitched = (struct cudaPitchedPtr){ NULL, 0, ext.width,
						    ext.height };
		return cudaSuccess;
	}
	if (__builtin_mul_overflow(ext.height, ext.depth, &rows))
		return rt_ret(cudaErrorMemoryAllocation);
	/* Rows aligned as cudaMallocPitch aligns them. */
	e = rt_ret_cu(cuMemAllocPitch(&p, &pitch, ext.width, rows, 16));
	if (e == cudaSuccess)
		*pitched = (struct cudaPitchedPtr){ (void *)(uintptr_t)p,
						    pitch, ext.width,
						    ext.height };
	return e;
}

/*
 * The driver's copy of @ext from @src at @spos to @dst at @dpos, linear
 * memory of any kind on either side.
 */
static void rt_desc3d(CUDA_MEMCPY3D *c, struct cudaPitchedPtr src,
		      struct cudaPos spos, struct cudaPitchedPtr dst,
		      struct cudaPos dpos, struct cudaExtent ext)
{
	memset(c, 0, sizeof(*c));
	c->srcMemoryType = CU_MEMORYTYPE_UNIFIED;
	c->srcDevice = (CUdeviceptr)(uintptr_t)src.ptr;
	c->srcPitch = src.pitch;
	c->srcHeight = src.ysize;
	c->srcXInBytes = spos.x;
	c->srcY = spos.y;
	c->srcZ = spos.z;
	c->dstMemoryType = CU_MEMORYTYPE_UNIFIED;
	c->dstDevice = (CUdeviceptr)(uintptr_t)dst.ptr;
	c->dstPitch = dst.pitch;
	c->dstHeight = dst.ysize;
	c->dstXInBytes = dpos.x;
	c->dstY = dpos.y;
	c->dstZ = dpos.z;
	c->WidthInBytes = ext.width;
	c->Height = ext.height;
	c->Depth = ext.depth;
}

/*
 * What a copy's parameters must hold whatever the devices: linear memory
 * on both sides, rows within both pitches. cudaSuccess with *@nothing set
 * for an empty extent, which copies nothing.
 */
static cudaError_t rt_check3d(const struct cudaPitchedPtr *src,
			      const struct cudaPitchedPtr *dst, bool arrays,
			      struct cudaExtent ext, bool *nothing)
{
	if (arrays)
		return cudaErrorNotSupported;
	*nothing = !ext.width || !ext.height || !ext.depth;
	if (*nothing)
		return cudaSuccess;
	if (!src->ptr || !dst->ptr || ext.width > src->pitch ||
	    ext.width > dst->pitch)
		return cudaErrorInvalidValue;
	return cudaSuccess;
}

static cudaError_t rt_memcpy3d(const struct cudaMemcpy3DParms *p, bool async,
			       cudaStream_t stream)
{
	CUDA_MEMCPY3D c;
	bool nothing;
	cudaError_t e;

	if (!p)
		return cudaErrorInvalidValue;
	if (p->kind != cudaMemcpyHostToHost &&
	    p->kind != cudaMemcpyHostToDevice &&
	    p->kind != cudaMemcpyDeviceToHost &&
	    p->kind != cudaMemcpyDeviceToDevice &&
	    p->kind != cudaMemcpyDefault)
		return cudaErrorInvalidMemcpyDirection;
	e = rt_check3d(&p->srcPtr, &p->dstPtr, p->srcArray || p->dstArray,
		       p->extent, &nothing);
	if (e == cudaSuccess)
		e = rt_enter();
	if (e || nothing)
		return e;
	rt_desc3d(&c, p->srcPtr, p->srcPos, p->dstPtr, p->dstPos, p->extent);
	if (async)
		return rt_error(cuMemcpy3DAsync(&c, (CUstream)stream));
	return rt_error(cuMemcpy3D(&c));
}

cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
	return rt_ret(rt_memcpy3d(p, false, NULL));
}

cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p,
			      cudaStream_t stream)
{
	return rt_ret(rt_memcpy3d(p, true, stream));
}

static cudaError_t rt_memcpy3d_peer(const struct cudaMemcpy3DPeerParms *p,
				    bool async, cudaStream_t stream)
{
	CUDA_MEMCPY3D_PEER cp;
	CUDA_MEMCPY3D c;
	bool nothing;
	cudaError_t e;

	if (!p)
		return cudaErrorInvalidValue;
	e = rt_check_device(p->srcDevice);
	if (e == cudaSuccess)
		e = rt_check_device(p->dstDevice);
	if (e == cudaSuccess)
		e = rt_check3d(&p->srcPtr, &p->dstPtr,
			       p->srcArray || p->dstArray, p->extent,
			       &nothing);
	if (e == cudaSuccess)
		e = rt_enter();
	if (e || nothing)
		return e;
	/* Both sides are device memory (an H100 refuses host memory). */
	rt_desc3d(&c, p->srcPtr, p->srcPos, p->dstPtr, p->dstPos, p->extent);
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	/* Within one device a peer copy is a device-to-device copy. */
	if (p->srcDevice == p->dstDevice && async)
		return rt_error(cuMemcpy3DAsync(&c, (CUstream)stream));
	if (p->srcDevice == p->dstDevice)
		return rt_error(cuMemcpy3D(&c));
	memset(&cp, 0, sizeof(cp));
	cp.srcXInBytes = c.srcXInBytes;
	cp.srcY = c.srcY;
	cp.srcZ = c.srcZ;
	cp.srcMemoryType = c.srcMemoryType;
	cp.srcDevice = c.srcDevice;
	cp.srcPitch = c.srcPitch;
	cp.srcHeight = c.srcHeight;
	cp.dstXInBytes = c.dstXInBytes;
	cp.dstY = c.dstY;
	cp.dstZ = c.dstZ;
	cp.dstMemoryType = c.dstMemoryType;
	cp.dstDevice = c.dstDevice;
	cp.dstPitch = c.dstPitch;
	cp.dstHeight = c.dstHeight;
	cp.WidthInBytes = c.WidthInBytes;
	cp.Height = c.Height;
	cp.Depth = c.Depth;
	e = rt_primary(p->srcDevice, &cp.srcContext);
	if (e == cudaSuccess)
		e = rt_primary(p->dstDevice, &cp.dstContext);
	if (e)
		return e;
	if (async)
		return rt_error(cuMemcpy3DPeerAsync(&cp, (CUstream)stream));
	return rt_error(cuMemcpy3DPeer(&cp));
}

cudaError_t cudaMemcpy3DPeer(const struct cudaMemcpy3DPeerParms *p)
{
	return rt_ret(rt_memcpy3d_peer(p, false, NULL));
}

cudaError_t cudaMemcpy3DPeerAsync(const struct cudaMemcpy3DPeerParms *p,
				  cudaStream_t stream)
{
	return rt_ret(rt_memcpy3d_peer(p, true, stream));
}

/*
 * Fills @ext of @ptr slice by slice: the rows of a slice are evenly
 * pitched, the slices are ptr.ysize rows apart.
 */
static cudaError_t rt_memset3d(struct cudaPitchedPtr ptr, int value,
			       struct cudaExtent ext, bool async,
			       cudaStream_t stream)
{
	size_t slice, z;
	cudaError_t e;

	if (!ext.width || !ext.height || !ext.depth)
		return rt_enter();
	if (ext.width > ptr.pitch ||
	    __builtin_mul_overflow(ptr.pitch, ptr.ysize, &slice))
		return cudaErrorInvalidValue;
	e = rt_enter();
	for (z = 0; e == cudaSuccess && z < ext.depth; z++) {
		CUdeviceptr p = (CUdeviceptr)(uintptr_t)ptr.ptr + z * slice;

		if (async)
			e = rt_error(cuMemsetD2D8Async(p, ptr.pitch,
						       (unsigned char)value,
						       ext.width, ext.height,
						       (CUstream)stream));
		else
			e = rt_error(cuMemsetD2D8(p, ptr.pitch,
						  (unsigned char)value,
						  ext.width, ext.height));
	}
	return e;
}

cudaError_t cudaMemset3D(struct cudaPitchedPtr ptr, int value,
			 struct cudaExtent ext)
{
	return rt_ret(rt_memset3d(ptr, value, ext, false, NULL));
}

cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr ptr, int value,
			      struct cudaExtent ext, cudaStream_t stream)
{
	return rt_ret(rt_memset3d(ptr, value, ext, true, stream));
}

/*
 * --default-stream per-thread forms: stream 0 is the thread's own, and
 * the synchronous calls wait for it.
 */
cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p)
{
	cudaError_t e = rt_memcpy3d(p, true, cudaStreamPerThread);

	if (e == cudaSuccess)
		e = rt_error(cuStreamSynchronize(CU_STREAM_PER_THREAD));
	return rt_ret(e);
}

cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p,
				   cudaStream_t stream)
{
	return cudaMemcpy3DAsync(p, stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaMemcpy3DPeer_ptds(const struct cudaMemcpy3DPeerParms *p)
{
	cudaError_t e = rt_memcpy3d_peer(p, true, cudaStreamPerThread);

	if (e == cudaSuccess)
		e = rt_error(cuStreamSynchronize(CU_STREAM_PER_THREAD));
	return rt_ret(e);
}

cudaError_t cudaMemcpy3DPeerAsync_ptsz(const struct cudaMemcpy3DPeerParms *p,
				       cudaStream_t stream)
{
	return cudaMemcpy3DPeerAsync(p, stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr ptr, int value,
			      struct cudaExtent ext)
{
	cudaError_t e = rt_memset3d(ptr, value, ext, true,
				    cudaStreamPerThread);

	if (e == cudaSuccess)
		e = rt_error(cuStreamSynchronize(CU_STREAM_PER_THREAD));
	return rt_ret(e);
}

cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr ptr, int value,
				   struct cudaExtent ext, cudaStream_t stream)
{
	return cudaMemset3DAsync(ptr, value, ext,
				 stream ? stream : cudaStreamPerThread);
}
