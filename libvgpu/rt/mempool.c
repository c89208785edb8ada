// SPDX-License-Identifier: MIT
/*
 * Stream-ordered allocation: the runtime's calls forward to the driver's
 * (libvgpu/mempool.c). Pools, streams, their attributes and the pool
 * property and access structures are the same things in both APIs.
 */
#include "rt.h"

cudaError_t cudaMallocAsync(void **dev_ptr, size_t size, cudaStream_t stream)
{
	CUdeviceptr p = 0;
	cudaError_t e;

	if (!dev_ptr)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuMemAllocAsync(&p, size, (CUstream)stream));
	if (e == cudaSuccess)
		*dev_ptr = (void *)(uintptr_t)p;
	return e;
}

cudaError_t cudaMallocAsync_ptsz(void **dev_ptr, size_t size,
				 cudaStream_t stream)
{
	return cudaMallocAsync(dev_ptr, size,
			       stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaMallocFromPoolAsync(void **dev_ptr, size_t size,
				    cudaMemPool_t pool, cudaStream_t stream)
{
	CUdeviceptr p = 0;
	cudaError_t e;

	if (!dev_ptr)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuMemAllocFromPoolAsync(&p, size, (CUmemoryPool)pool,
					      (CUstream)stream));
	if (e == cudaSuccess)
		*dev_ptr = (void *)(uintptr_t)p;
	return e;
}

cudaError_t cudaMallocFromPoolAsync_ptsz(void **dev_ptr, size_t size,
					 cudaMemPool_t pool,
					 cudaStream_t stream)
{
	return cudaMallocFromPoolAsync(dev_ptr, size, pool,
				       stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaFreeAsync(void *dev_ptr, cudaStream_t stream)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemFreeAsync((CUdeviceptr)(uintptr_t)dev_ptr,
					(CUstream)stream));
}

cudaError_t cudaFreeAsync_ptsz(void *dev_ptr, cudaStream_t stream)
{
	return cudaFreeAsync(dev_ptr, stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *pool, int device)
{
	cudaError_t e = rt_check_device(device);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDeviceGetDefaultMemPool((CUmemoryPool *)pool,
						   device));
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *pool, int device)
{
	cudaError_t e = rt_check_device(device);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDeviceGetMemPool((CUmemoryPool *)pool, device));
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool)
{
	cudaError_t e = rt_check_device(device);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDeviceSetMemPool(device, (CUmemoryPool)pool));
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t *pool,
			      const struct cudaMemPoolProps *props)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemPoolCreate((CUmemoryPool *)pool,
					 (const CUmemPoolProps *)props));
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemPoolDestroy((CUmemoryPool)pool));
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t min_bytes)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemPoolTrimTo((CUmemoryPool)pool, min_bytes));
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool,
				    enum cudaMemPoolAttr attr, void *value)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemPoolSetAttribute((CUmemoryPool)pool,
					       (CUmemPool_attribute)attr,
					       value));
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool,
				    enum cudaMemPoolAttr attr, void *value)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemPoolGetAttribute((CUmemoryPool)pool,
					       (CUmemPool_attribute)attr,
					       value));
}

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool,
				 const struct cudaMemAccessDesc *desc_list,
				 size_t count)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemPoolSetAccess((CUmemoryPool)pool,
					    (const CUmemAccessDesc *)desc_list,
					    count));
}

cudaError_t cudaMemPoolGetAccess(enum cudaMemAccessFlags *flags,
				 cudaMemPool_t pool,
				 struct cudaMemLocation *location)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemPoolGetAccess((CUmemAccess_flags *)flags,
					    (CUmemoryPool)pool,
					    (CUmemLocation *)location));
}

/* The location forms. */
cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *pool,
				     struct cudaMemLocation *location,
				     enum cudaMemAllocationType type)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemGetDefaultMemPool((CUmemoryPool *)pool,
						(CUmemLocation *)location,
						(CUmemAllocationType)type));
}

cudaError_t cudaMemGetMemPool(cudaMemPool_t *pool,
			      struct cudaMemLocation *location,
			      enum cudaMemAllocationType type)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemGetMemPool((CUmemoryPool *)pool,
					 (CUmemLocation *)location,
					 (CUmemAllocationType)type));
}

cudaError_t cudaMemSetMemPool(struct cudaMemLocation *location,
			      enum cudaMemAllocationType type,
			      cudaMemPool_t pool)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemSetMemPool((CUmemLocation *)location,
					 (CUmemAllocationType)type,
					 (CUmemoryPool)pool));
}

/* Pools between processes (libvgpu/mempool_ipc.c). */

cudaError_t cudaMemPoolExportToShareableHandle(void *handle,
		cudaMemPool_t pool, enum cudaMemAllocationHandleType type,
		unsigned int flags)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemPoolExportToShareableHandle(handle,
		(CUmemoryPool)pool, (CUmemAllocationHandleType)type, flags));
}

cudaError_t cudaMemPoolImportFromShareableHandle(cudaMemPool_t *pool,
		void *handle, enum cudaMemAllocationHandleType type,
		unsigned int flags)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemPoolImportFromShareableHandle(
		(CUmemoryPool *)pool, handle, (CUmemAllocationHandleType)type,
		flags));
}

_Static_assert(sizeof(struct cudaMemPoolPtrExportData) ==
	       sizeof(CUmemPoolPtrExportData),
	       "the runtime's and the driver's export data are alike");

cudaError_t cudaMemPoolExportPointer(struct cudaMemPoolPtrExportData *data,
				     void *ptr)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemPoolExportPointer((CUmemPoolPtrExportData *)data,
						(CUdeviceptr)(uintptr_t)ptr));
}

cudaError_t cudaMemPoolImportPointer(void **ptr, cudaMemPool_t pool,
				     struct cudaMemPoolPtrExportData *data)
{
	CUdeviceptr p = 0;
	cudaError_t e;

	if (!ptr)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuMemPoolImportPointer(&p, (CUmemoryPool)pool,
					     (CUmemPoolPtrExportData *)data));
	if (e == cudaSuccess)
		*ptr = (void *)(uintptr_t)p;
	return e;
}
