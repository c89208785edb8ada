// SPDX-License-Identifier: MIT
/*
 * Device variables by their host shadow (what nvcc's __cudaRegisterVar
 * named): their address and size, and copies to and from them.
 */
#include "rt.h"

/*
 * Resolves @symbol, then checks @kind is one of @kinds (a copy's) and
 * [@offset, @offset + @count) lies in it, in the order an H100 checks
 * them: an unknown symbol first, and no range for nothing to copy.
 */
cudaError_t rt_symbol_range(const void *symbol, size_t count, size_t offset,
			    enum cudaMemcpyKind kind,
			    enum cudaMemcpyKind kinds, CUdeviceptr *dptr)
{
	size_t size = 0;
	cudaError_t e = rt_enter();

	if (e)
		return e;
	e = rt_var_address(symbol, rt_device(), dptr, &size);
	if (e)
		return e;
	if (kind != kinds && kind != cudaMemcpyDeviceToDevice &&
	    kind != cudaMemcpyDefault)
		return cudaErrorInvalidMemcpyDirection;
	if (count && (offset > size || count > size - offset))
		return cudaErrorInvalidValue;
	*dptr += offset;
	return cudaSuccess;
}

static cudaError_t rt_symbol_copy(CUdeviceptr dst, CUdeviceptr src,
				  size_t count, bool async,
				  cudaStream_t stream)
{
	if (count == 0)
		return cudaSuccess;
	if (async)
		return rt_error(cuMemcpyAsync(dst, src, count,
					      (CUstream)stream));
	return rt_error(cuMemcpy(dst, src, count));
}

static cudaError_t rt_to_symbol(const void *symbol, const void *src,
				size_t count, size_t offset,
				enum cudaMemcpyKind kind, bool async,
				cudaStream_t stream)
{
	CUdeviceptr dptr = 0;
	cudaError_t e;

	/* The symbol is on the device: the source is the host's or it. */
	e = rt_symbol_range(symbol, count, offset, kind, cudaMemcpyHostToDevice,
		      &dptr);
	if (e)
		return e;
	return rt_symbol_copy(dptr, (CUdeviceptr)(uintptr_t)src, count, async,
			      stream);
}

static cudaError_t rt_from_symbol(void *dst, const void *symbol,
				  size_t count, size_t offset,
				  enum cudaMemcpyKind kind, bool async,
				  cudaStream_t stream)
{
	CUdeviceptr dptr = 0;
	cudaError_t e;

	e = rt_symbol_range(symbol, count, offset, kind, cudaMemcpyDeviceToHost,
		      &dptr);
	if (e)
		return e;
	return rt_symbol_copy((CUdeviceptr)(uintptr_t)dst, dptr, count, async,
			      stream);
}

cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src,
			       size_t count, size_t offset,
			       enum cudaMemcpyKind kind)
{
	return rt_ret(rt_to_symbol(symbol, src, count, offset, kind, false,
				   NULL));
}

cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
				 size_t offset, enum cudaMemcpyKind kind)
{
	return rt_ret(rt_from_symbol(dst, symbol, count, offset, kind, false,
				     NULL));
}

cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src,
				    size_t count, size_t offset,
				    enum cudaMemcpyKind kind,
				    cudaStream_t stream)
{
	return rt_ret(rt_to_symbol(symbol, src, count, offset, kind, true,
				   stream));
}

cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol,
				      size_t count, size_t offset,
				      enum cudaMemcpyKind kind,
				      cudaStream_t stream)
{
	return rt_ret(rt_from_symbol(dst, symbol, count, offset, kind, true,
				     stream));
}

cudaError_t cudaGetSymbolAddress(void **dev_ptr, const void *symbol)
{
	CUdeviceptr dptr = 0;
	cudaError_t e;

	if (!dev_ptr)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_symbol_range(symbol, 0, 0, cudaMemcpyDefault, cudaMemcpyDefault,
		      &dptr);
	if (e == cudaSuccess)
		*dev_ptr = (void *)(uintptr_t)dptr;
	return rt_ret(e);
}

cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol)
{
	CUdeviceptr dptr = 0;
	cudaError_t e;

	if (!size)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_var_address(symbol, rt_device(), &dptr, size);
	return rt_ret(e);
}

/*
 * --default-stream per-thread forms: the synchronous copies are ordered in
 * the thread's own stream and wait for it; stream 0 is that stream.
 */
cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src,
				    size_t count, size_t offset,
				    enum cudaMemcpyKind kind)
{
	cudaError_t e = rt_to_symbol(symbol, src, count, offset, kind, true,
				     cudaStreamPerThread);

	if (e == cudaSuccess)
		e = rt_ptds_sync();
	return rt_ret(e);
}

cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol,
				      size_t count, size_t offset,
				      enum cudaMemcpyKind kind)
{
	cudaError_t e = rt_from_symbol(dst, symbol, count, offset, kind, true,
				       cudaStreamPerThread);

	if (e == cudaSuccess)
		e = rt_ptds_sync();
	return rt_ret(e);
}

cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src,
					 size_t count, size_t offset,
					 enum cudaMemcpyKind kind,
					 cudaStream_t stream)
{
	return cudaMemcpyToSymbolAsync(symbol, src, count, offset, kind,
				       stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol,
					   size_t count, size_t offset,
					   enum cudaMemcpyKind kind,
					   cudaStream_t stream)
{
	return cudaMemcpyFromSymbolAsync(dst, symbol, count, offset, kind,
					 stream ? stream : cudaStreamPerThread);
}
