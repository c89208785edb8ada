// SPDX-License-Identifier: MIT
/*
 * Managed memory: the runtime's calls forward to the driver's
 * (libvgpu/managed.c), locations and streams being the same things.
 */
#include "rt.h"

static CUmemLocation rt_loc(struct cudaMemLocation l)
{
	CUmemLocation c = { .type = (CUmemLocationType)l.type, .id = l.id };

	return c;
}

cudaError_t cudaMallocManaged(void **dev_ptr, size_t size, unsigned int flags)
{
	CUdeviceptr p = 0;
	cudaError_t e;

	if (!dev_ptr)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuMemAllocManaged(&p, size, flags));
	if (e == cudaSuccess)
		*dev_ptr = (void *)(uintptr_t)p;
	return e;
}

cudaError_t cudaMemPrefetchAsync(const void *dev_ptr, size_t count,
				 struct cudaMemLocation location,
				 unsigned int flags, cudaStream_t stream)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemPrefetchAsync((CUdeviceptr)(uintptr_t)dev_ptr,
					    count, rt_loc(location), flags,
					    (CUstream)stream));
}

cudaError_t cudaMemPrefetchAsync_ptsz(const void *dev_ptr, size_t count,
				      struct cudaMemLocation location,
				      unsigned int flags, cudaStream_t stream)
{
	if (!stream)
		stream = cudaStreamPerThread;
	return cudaMemPrefetchAsync(dev_ptr, count, location, flags, stream);
}

cudaError_t cudaMemAdvise(const void *dev_ptr, size_t count,
			  enum cudaMemoryAdvise advice,
			  struct cudaMemLocation location)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemAdvise((CUdeviceptr)(uintptr_t)dev_ptr, count,
				     (CUmem_advise)advice, rt_loc(location)));
}

cudaError_t cudaMemRangeGetAttributes(void **data, size_t *data_sizes,
				      enum cudaMemRangeAttribute *attributes,
				      size_t num_attributes,
				      const void *dev_ptr, size_t count)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemRangeGetAttributes(data, data_sizes,
				(CUmem_range_attribute *)attributes,
				num_attributes,
				(CUdeviceptr)(uintptr_t)dev_ptr, count));
}

cudaError_t cudaMemRangeGetAttribute(void *data, size_t data_size,
				     enum cudaMemRangeAttribute attribute,
				     const void *dev_ptr, size_t count)
{
	return cudaMemRangeGetAttributes(&data, &data_size, &attribute, 1,
					 dev_ptr, count);
}

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *dev_ptr,
				     size_t length, unsigned int flags)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuStreamAttachMemAsync((CUstream)stream,
						(CUdeviceptr)(uintptr_t)dev_ptr,
						length, flags));
}

cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *dev_ptr,
					  size_t length, unsigned int flags)
{
	if (!stream)
		stream = cudaStreamPerThread;
	return cudaStreamAttachMemAsync(stream, dev_ptr, length, flags);
}

/* The batched forms: the driver's, on the same arrays. */
cudaError_t cudaMemPrefetchBatchAsync(void **dptrs, size_t *sizes,
				      size_t count,
				      struct cudaMemLocation *locs,
				      size_t *idxs, size_t nlocs,
				      unsigned long long flags,
				      cudaStream_t stream)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemPrefetchBatchAsync((CUdeviceptr *)dptrs, sizes,
						 count, (CUmemLocation *)locs,
						 idxs, nlocs, flags,
						 (CUstream)stream));
}

cudaError_t cudaMemPrefetchBatchAsync_ptsz(void **dptrs, size_t *sizes,
					   size_t count,
					   struct cudaMemLocation *locs,
					   size_t *idxs, size_t nlocs,
					   unsigned long long flags,
					   cudaStream_t stream)
{
	return cudaMemPrefetchBatchAsync(dptrs, sizes, count, locs, idxs,
					 nlocs, flags,
					 stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaMemDiscardBatchAsync(void **dptrs, size_t *sizes,
				     size_t count, unsigned long long flags,
				     cudaStream_t stream)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemDiscardBatchAsync((CUdeviceptr *)dptrs, sizes,
						count, flags,
						(CUstream)stream));
}

cudaError_t cudaMemDiscardBatchAsync_ptsz(void **dptrs, size_t *sizes,
					  size_t count,
					  unsigned long long flags,
					  cudaStream_t stream)
{
	return cudaMemDiscardBatchAsync(dptrs, sizes, count, flags,
					stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaMemDiscardAndPrefetchBatchAsync(void **dptrs, size_t *sizes,
						size_t count,
						struct cudaMemLocation *locs,
						size_t *idxs, size_t nlocs,
						unsigned long long flags,
						cudaStream_t stream)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemDiscardAndPrefetchBatchAsync(
		(CUdeviceptr *)dptrs, sizes, count, (CUmemLocation *)locs,
		idxs, nlocs, flags, (CUstream)stream));
}

cudaError_t cudaMemDiscardAndPrefetchBatchAsync_ptsz(void **dptrs,
						     size_t *sizes,
						     size_t count,
						     struct cudaMemLocation *locs,
						     size_t *idxs,
						     size_t nlocs,
						     unsigned long long flags,
						     cudaStream_t stream)
{
	return cudaMemDiscardAndPrefetchBatchAsync(dptrs, sizes, count, locs,
						   idxs, nlocs, flags,
						   stream ? stream :
						   cudaStreamPerThread);
}
