// SPDX-License-Identifier: MIT
/*
 * Three-dimensional memory: cudaMalloc3D's pitched allocation and the 3D
 * copies and fills, between any two kinds of memory (unified addressing
 * tells them apart) and CUDA arrays, on one device or between two (the
 * peer forms).
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

/* What cudaMemcpy3DParms and cudaMemcpy3DPeerParms share. */
struct rt_copy3d {
	cudaArray_t src_array, dst_array;
	struct cudaPos src_pos, dst_pos;
	struct cudaPitchedPtr src_ptr, dst_ptr;
	struct cudaExtent ext;
};

/*
 * What holds whatever the devices: an array or a pointer on each side,
 * not both (NVIDIA documents more than one as an error). cudaSuccess with
 * *@nothing set for an empty extent, which copies nothing.
 */
static cudaError_t rt_check3d(const struct rt_copy3d *p, bool *nothing)
{
	if ((p->src_array && p->src_ptr.ptr) || (p->dst_array && p->dst_ptr.ptr))
		return cudaErrorInvalidValue;
	*nothing = !p->ext.width || !p->ext.height || !p->ext.depth;
	return cudaSuccess;
}

/*
 * One side of the driver's copy: an array at its element @pos.x (@elem
 * bytes each), row and slice, or linear memory of type @linear at byte
 * @pos.x, whose rows must hold @width bytes.
 */
static cudaError_t rt_side3d(cudaArray_t a, struct cudaPitchedPtr ptr,
			     struct cudaPos pos, size_t elem, size_t width,
			     CUmemorytype linear, CUmemorytype *type,
			     CUarray *array, CUdeviceptr *dev, size_t *pitch,
			     size_t *height, size_t *x)
{
	if (a) {
		*type = CU_MEMORYTYPE_ARRAY;
		*array = (CUarray)a;
		return __builtin_mul_overflow(pos.x, elem, x) ?
			cudaErrorInvalidValue : cudaSuccess;
	}
	if (!ptr.ptr || width > ptr.pitch)
		return cudaErrorInvalidValue;
	*type = linear;
	*dev = (CUdeviceptr)(uintptr_t)ptr.ptr;
	*pitch = ptr.pitch;
	*height = ptr.ysize;
	*x = pos.x;
	return cudaSuccess;
}

/*
 * The driver's copy for @p, its linear sides of type @src_linear and
 * @dst_linear; after rt_enter(). Where an array takes part, the extent's
 * width is in its elements, as NVIDIA documents (else in bytes), and two
 * arrays must have elements of one size.
 */
static cudaError_t rt_desc3d(const struct rt_copy3d *p,
			     CUmemorytype src_linear, CUmemorytype dst_linear,
			     CUDA_MEMCPY3D *c)
{
	size_t selem = 0, delem = 0, elem, width, row, rows;
	cudaError_t e = cudaSuccess;

	if (p->src_array)
		e = rt_array_shape(p->src_array, &selem, &row, &rows);
	if (e == cudaSuccess && p->dst_array)
		e = rt_array_shape(p->dst_array, &delem, &row, &rows);
	if (e)
		return e;
	if (selem && delem && selem != delem)
		return cudaErrorInvalidValue;
	elem = selem ? selem : delem ? delem : 1;
	if (__builtin_mul_overflow(p->ext.width, elem, &width))
		return cudaErrorInvalidValue;
	memset(c, 0, sizeof(*c));
	e = rt_side3d(p->src_array, p->src_ptr, p->src_pos, elem, width,
		      src_linear, &c->srcMemoryType, &c->srcArray,
		      &c->srcDevice, &c->srcPitch, &c->srcHeight,
		      &c->srcXInBytes);
	if (e == cudaSuccess)
		e = rt_side3d(p->dst_array, p->dst_ptr, p->dst_pos, elem, width,
			      dst_linear, &c->dstMemoryType, &c->dstArray,
			      &c->dstDevice, &c->dstPitch, &c->dstHeight,
			      &c->dstXInBytes);
	c->srcY = p->src_pos.y;
	c->srcZ = p->src_pos.z;
	c->dstY = p->dst_pos.y;
	c->dstZ = p->dst_pos.z;
	c->WidthInBytes = width;
	c->Height = p->ext.height;
	c->Depth = p->ext.depth;
	/* The driver reads a host side's address from its own field. */
	if (c->srcMemoryType == CU_MEMORYTYPE_HOST) {
		c->srcHost = (const void *)(uintptr_t)c->srcDevice;
		c->srcDevice = 0;
	}
	if (c->dstMemoryType == CU_MEMORYTYPE_HOST) {
		c->dstHost = (void *)(uintptr_t)c->dstDevice;
		c->dstDevice = 0;
	}
	return e;
}

cudaError_t rt_memcpy3d_desc(const struct cudaMemcpy3DParms *p,
			     CUmemorytype src_linear, CUmemorytype dst_linear,
			     CUDA_MEMCPY3D *c)
{
	struct rt_copy3d r;
	bool nothing;
	cudaError_t e;

	r = (struct rt_copy3d){ p->srcArray, p->dstArray, p->srcPos, p->dstPos,
				p->srcPtr, p->dstPtr, p->extent };
	e = rt_check3d(&r, &nothing);
	if (e)
		return e;
	return rt_desc3d(&r, src_linear, dst_linear, c);
}

static cudaError_t rt_memcpy3d(const struct cudaMemcpy3DParms *p, bool async,
			       cudaStream_t stream)
{
	struct rt_copy3d r;
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
	r = (struct rt_copy3d){ p->srcArray, p->dstArray, p->srcPos, p->dstPos,
				p->srcPtr, p->dstPtr, p->extent };
	e = rt_check3d(&r, &nothing);
	if (e == cudaSuccess)
		e = rt_enter();
	if (e || nothing)
		return e;
	/* The kind is not needed: unified addressing tells the sides apart. */
	e = rt_desc3d(&r, CU_MEMORYTYPE_UNIFIED, CU_MEMORYTYPE_UNIFIED, &c);
	if (e)
		return e;
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
	struct rt_copy3d r;
	CUDA_MEMCPY3D c;
	bool nothing;
	cudaError_t e;

	if (!p)
		return cudaErrorInvalidValue;
	r = (struct rt_copy3d){ p->srcArray, p->dstArray, p->srcPos, p->dstPos,
				p->srcPtr, p->dstPtr, p->extent };
	e = rt_check_device(p->srcDevice);
	if (e == cudaSuccess)
		e = rt_check_device(p->dstDevice);
	if (e == cudaSuccess)
		e = rt_check3d(&r, &nothing);
	if (e == cudaSuccess)
		e = rt_enter();
	if (e || nothing)
		return e;
	/* Linear sides are device memory (an H100 refuses host memory). */
	e = rt_desc3d(&r, CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_DEVICE, &c);
	if (e)
		return e;
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
	cp.srcArray = c.srcArray;
	cp.srcPitch = c.srcPitch;
	cp.srcHeight = c.srcHeight;
	cp.dstXInBytes = c.dstXInBytes;
	cp.dstY = c.dstY;
	cp.dstZ = c.dstZ;
	cp.dstMemoryType = c.dstMemoryType;
	cp.dstDevice = c.dstDevice;
	cp.dstArray = c.dstArray;
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
		e = rt_ptds_sync();
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
		e = rt_ptds_sync();
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
		e = rt_ptds_sync();
	return rt_ret(e);
}

cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr ptr, int value,
				   struct cudaExtent ext, cudaStream_t stream)
{
	return cudaMemset3DAsync(ptr, value, ext,
				 stream ? stream : cudaStreamPerThread);
}
