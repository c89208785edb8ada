// SPDX-License-Identifier: MIT
/*
 * Device and page-locked host memory: allocation, copies of every
 * cudaMemcpyKind, fills and the free-memory query. With unified
 * addressing the pointers tell a copy's direction; the kind is checked,
 * as NVIDIA's runtime checks it: the side it names the device's must be
 * memory a device knows.
 */
#include "rt.h"

/* cudaHostAlloc's flags: portable, mapped, write-combined. */
#define RT_HOST_ALLOC_FLAGS (cudaHostAllocPortable | cudaHostAllocMapped | \
			     cudaHostAllocWriteCombined)

cudaError_t cudaMalloc(void **dev_ptr, size_t size)
{
	CUdeviceptr p = 0;
	cudaError_t e;

	if (!dev_ptr)
		return rt_ret(cudaErrorInvalidValue);
	/* A failed call leaves NULL, as NVIDIA's runtime does. */
	*dev_ptr = NULL;
	e = rt_enter();
	if (e)
		return rt_ret(e);
	if (size == 0)
		return cudaSuccess;
	e = rt_ret_cu(cuMemAlloc(&p, size));
	if (e == cudaSuccess)
		*dev_ptr = (void *)(uintptr_t)p;
	return e;
}

cudaError_t cudaFree(void *dev_ptr)
{
	/* cudaFree(NULL) is how programs create the context up front. */
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	/* It answers an error that ended the context, as on an H100. */
	if (!dev_ptr) {
		e = rt_error(cuStreamQuery(CU_STREAM_LEGACY));
		return e == cudaErrorNotReady ? cudaSuccess : rt_ret(e);
	}
	return rt_ret_cu(cuMemFree(rt_ext_base((CUdeviceptr)(uintptr_t)dev_ptr)));
}

cudaError_t cudaHostAlloc(void **host_ptr, size_t size, unsigned int flags)
{
	cudaError_t e;

	/* A failed call leaves NULL, as NVIDIA's runtime does for bad flags. */
	if (host_ptr)
		*host_ptr = NULL;
	if (!host_ptr || (flags & ~RT_HOST_ALLOC_FLAGS))
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	if (size == 0) {
		*host_ptr = NULL;
		return cudaSuccess;
	}
	/*
	 * Under unified addressing page-locked memory is always portable
	 * and mapped, whatever the flags say. cudaHostGetFlags then reads
	 * back cudaHostAllocMapped and never cudaHostAllocPortable, as on an
	 * H100: the flag that changes nothing is left out.
	 */
	return rt_ret_cu(cuMemHostAlloc(host_ptr, size,
					(flags & ~(unsigned int)cudaHostAllocPortable) |
					CU_MEMHOSTALLOC_DEVICEMAP));
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
	return cudaHostAlloc(ptr, size, cudaHostAllocDefault);
}

cudaError_t cudaFreeHost(void *ptr)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	if (!ptr)
		return cudaSuccess;
	return rt_ret_cu(cuMemFreeHost(ptr));
}

bool rt_known_to_device(const void *p)
{
	CUpointer_attribute which = CU_POINTER_ATTRIBUTE_MEMORY_TYPE;
	unsigned int type = 0;
	void *data = &type;

	return cuPointerGetAttributes(1, &which, &data,
				      (CUdeviceptr)(uintptr_t)p) ==
	       CUDA_SUCCESS && type != 0;
}

cudaError_t rt_copy_check(void *dst, const void *src,
			  enum cudaMemcpyKind kind)
{
	bool dst_dev = kind == cudaMemcpyHostToDevice ||
		       kind == cudaMemcpyDeviceToDevice;
	bool src_dev = kind == cudaMemcpyDeviceToHost ||
		       kind == cudaMemcpyDeviceToDevice;

	if (!dst_dev && !src_dev && kind != cudaMemcpyHostToHost &&
	    kind != cudaMemcpyDefault)
		return cudaErrorInvalidMemcpyDirection;
	if (!dst || !src || (dst_dev && !rt_known_to_device(dst)) ||
	    (src_dev && !rt_known_to_device(src)))
		return cudaErrorInvalidValue;
	return cudaSuccess;
}

static cudaError_t rt_memcpy(void *dst, const void *src, size_t count,
			     enum cudaMemcpyKind kind, bool async,
			     cudaStream_t stream)
{
	cudaError_t e;

	/* Nothing to copy is no error, whatever the arguments. */
	if (count == 0)
		return cudaSuccess;
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_copy_check(dst, src, kind);
	if (e)
		return e;
	if (async)
		return rt_error(cuMemcpyAsync((CUdeviceptr)(uintptr_t)dst,
					      (CUdeviceptr)(uintptr_t)src,
					      count, (CUstream)stream));
	return rt_error(cuMemcpy((CUdeviceptr)(uintptr_t)dst,
				 (CUdeviceptr)(uintptr_t)src, count));
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
		       enum cudaMemcpyKind kind)
{
	return rt_ret(rt_memcpy(dst, src, count, kind, false, NULL));
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count,
			    enum cudaMemcpyKind kind, cudaStream_t stream)
{
	return rt_ret(rt_memcpy(dst, src, count, kind, true, stream));
}

/* --default-stream per-thread forms: stream 0 is the thread's own. */
cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count,
			    enum cudaMemcpyKind kind)
{
	cudaError_t e = rt_memcpy(dst, src, count, kind, true,
				  cudaStreamPerThread);

	if (e == cudaSuccess)
		e = rt_ptds_sync();
	return rt_ret(e);
}

cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
				 enum cudaMemcpyKind kind, cudaStream_t stream)
{
	if (!stream)
		stream = cudaStreamPerThread;
	return cudaMemcpyAsync(dst, src, count, kind, stream);
}

static cudaError_t rt_memset(void *dev_ptr, int value, size_t count,
			     bool async, cudaStream_t stream)
{
	cudaError_t e = rt_enter();

	if (e || count == 0)
		return e;
	if (async)
		return rt_error(cuMemsetD8Async((CUdeviceptr)(uintptr_t)dev_ptr,
						(unsigned char)value, count,
						(CUstream)stream));
	return rt_error(cuMemsetD8((CUdeviceptr)(uintptr_t)dev_ptr,
				   (unsigned char)value, count));
}

cudaError_t cudaMemset(void *dev_ptr, int value, size_t count)
{
	return rt_ret(rt_memset(dev_ptr, value, count, false, NULL));
}

cudaError_t cudaMemsetAsync(void *dev_ptr, int value, size_t count,
			    cudaStream_t stream)
{
	return rt_ret(rt_memset(dev_ptr, value, count, true, stream));
}

cudaError_t cudaMemset_ptds(void *dev_ptr, int value, size_t count)
{
	cudaError_t e = rt_memset(dev_ptr, value, count, true,
				  cudaStreamPerThread);

	if (e == cudaSuccess)
		e = rt_ptds_sync();
	return rt_ret(e);
}

cudaError_t cudaMemsetAsync_ptsz(void *dev_ptr, int value, size_t count,
				 cudaStream_t stream)
{
	if (!stream)
		stream = cudaStreamPerThread;
	return cudaMemsetAsync(dev_ptr, value, count, stream);
}

/* Either pointer may be NULL: NVIDIA's runtime fills what it is given. */
cudaError_t cudaMemGetInfo(size_t *free, size_t *total)
{
	size_t f = 0, t = 0;
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuMemGetInfo(&f, &t));
	if (e)
		return e;
	if (free)
		*free = f;
	if (total)
		*total = t;
	return cudaSuccess;
}
