// SPDX-License-Identifier: MIT
/*
 * Pitched memory: cudaMallocPitch, and 2D copies and fills between any
 * two kinds of memory (unified addressing tells them apart).
 */
#include <stdint.h>
#include <string.h>

#include "rt.h"

cudaError_t cudaMallocPitch(void **dev_ptr, size_t *pitch, size_t width,
			    size_t height)
{
	CUdeviceptr p = 0;
	cudaError_t e;

	if (!dev_ptr || !pitch)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	/*
	 * As an H100 answers: nothing to allocate is no error (as for
	 * cudaMalloc), a size past the address space a bad value (the
	 * driver would say out of memory).
	 */
	if (width == 0 || height == 0) {
		*dev_ptr = NULL;
		*pitch = 0;
		return cudaSuccess;
	}
	if (width > SIZE_MAX / height)
		return rt_ret(cudaErrorInvalidValue);
	/* Rows aligned for the widest element the driver knows. */
	e = rt_ret_cu(cuMemAllocPitch(&p, pitch, width, height, 16));
	if (e == cudaSuccess)
		*dev_ptr = (void *)(uintptr_t)p;
	return e;
}

static cudaError_t rt_memcpy2d(void *dst, size_t dpitch, const void *src,
			       size_t spitch, size_t width, size_t height,
			       enum cudaMemcpyKind kind, bool async,
			       cudaStream_t stream)
{
	CUDA_MEMCPY2D c;
	cudaError_t e;

	if (kind != cudaMemcpyHostToHost && kind != cudaMemcpyHostToDevice &&
	    kind != cudaMemcpyDeviceToHost &&
	    kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
		return cudaErrorInvalidMemcpyDirection;
	if (width > dpitch || width > spitch)
		return cudaErrorInvalidPitchValue;
	e = rt_enter();
	if (e || width == 0 || height == 0)
		return e;
	e = rt_copy_check(dst, src, kind);
	if (e)
		return e;
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
	c.srcDevice = (CUdeviceptr)(uintptr_t)src;
	c.srcPitch = spitch;
	c.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
	c.dstDevice = (CUdeviceptr)(uintptr_t)dst;
	c.dstPitch = dpitch;
	c.WidthInBytes = width;
	c.Height = height;
	if (async)
		return rt_error(cuMemcpy2DAsync(&c, (CUstream)stream));
	return rt_error(cuMemcpy2DUnaligned(&c));
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src,
			 size_t spitch, size_t width, size_t height,
			 enum cudaMemcpyKind kind)
{
	return rt_ret(rt_memcpy2d(dst, dpitch, src, spitch, width, height,
				  kind, false, NULL));
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src,
			      size_t spitch, size_t width, size_t height,
			      enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return rt_ret(rt_memcpy2d(dst, dpitch, src, spitch, width, height,
				  kind, true, stream));
}

static cudaError_t rt_memset2d(void *dev_ptr, size_t pitch, int value,
			       size_t width, size_t height, bool async,
			       cudaStream_t stream)
{
	CUdeviceptr p = (CUdeviceptr)(uintptr_t)dev_ptr;
	cudaError_t e;

	if (width > pitch && height > 1)
		return cudaErrorInvalidValue;
	e = rt_enter();
	if (e || width == 0 || height == 0)
		return e;
	if (async)
		return rt_error(cuMemsetD2D8Async(p, pitch,
						  (unsigned char)value, width,
						  height, (CUstream)stream));
	return rt_error(cuMemsetD2D8(p, pitch, (unsigned char)value, width,
				     height));
}

cudaError_t cudaMemset2D(void *dev_ptr, size_t pitch, int value,
			 size_t width, size_t height)
{
	return rt_ret(rt_memset2d(dev_ptr, pitch, value, width, height, false,
				  NULL));
}

cudaError_t cudaMemset2DAsync(void *dev_ptr, size_t pitch, int value,
			      size_t width, size_t height, cudaStream_t stream)
{
	return rt_ret(rt_memset2d(dev_ptr, pitch, value, width, height, true,
				  stream));
}

/*
 * --default-stream per-thread forms: stream 0 is the thread's own, and
 * the synchronous calls wait for it.
 */
cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src,
			      size_t spitch, size_t width, size_t height,
			      enum cudaMemcpyKind kind)
{
	cudaError_t e = rt_memcpy2d(dst, dpitch, src, spitch, width, height,
				    kind, true, cudaStreamPerThread);

	if (e == cudaSuccess)
		e = rt_ptds_sync();
	return rt_ret(e);
}

cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
				   size_t spitch, size_t width, size_t height,
				   enum cudaMemcpyKind kind,
				   cudaStream_t stream)
{
	return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind,
				 stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaMemset2D_ptds(void *dev_ptr, size_t pitch, int value,
			      size_t width, size_t height)
{
	cudaError_t e = rt_memset2d(dev_ptr, pitch, value, width, height, true,
				    cudaStreamPerThread);

	if (e == cudaSuccess)
		e = rt_ptds_sync();
	return rt_ret(e);
}

cudaError_t cudaMemset2DAsync_ptsz(void *dev_ptr, size_t pitch, int value,
				   size_t width, size_t height,
				   cudaStream_t stream)
{
	return cudaMemset2DAsync(dev_ptr, pitch, value, width, height,
				 stream ? stream : cudaStreamPerThread);
}
