// SPDX-License-Identifier: MIT
/*
 * Peers: access from the thread's device to another's memory, and copies
 * between devices, through each device's primary context.
 */
#include "rt.h"

cudaError_t cudaDeviceEnablePeerAccess(int peer_device, unsigned int flags)
{
	CUcontext peer;
	int can = 0;
	cudaError_t e = rt_check_device(peer_device);

	if (e)
		return rt_ret(e);
	if (flags)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	/* A device is not its own peer (an H100 answers so for itself). */
	e = rt_error(cuDeviceCanAccessPeer(&can, rt_device(), peer_device));
	if (e == cudaSuccess && !can)
		e = cudaErrorPeerAccessUnsupported;
	if (e == cudaSuccess)
		e = rt_primary(peer_device, &peer);
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuCtxEnablePeerAccess(peer, 0));
}

cudaError_t cudaDeviceDisablePeerAccess(int peer_device)
{
	CUcontext peer;
	int can = 0;
	cudaError_t e = rt_check_device(peer_device);

	if (e == cudaSuccess)
		e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuDeviceCanAccessPeer(&can, rt_device(),
						   peer_device));
	/* What no device can reach was never enabled (itself included). */
	if (e == cudaSuccess && !can)
		e = cudaErrorPeerAccessNotEnabled;
	if (e == cudaSuccess)
		e = rt_primary(peer_device, &peer);
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuCtxDisablePeerAccess(peer));
}

static cudaError_t rt_memcpy_peer(void *dst, int dst_device, const void *src,
				  int src_device, size_t count, bool async,
				  cudaStream_t stream)
{
	CUcontext dst_ctx, src_ctx;
	cudaError_t e;

	/* Nothing to copy is no error, whatever the devices, as on an H100. */
	if (count == 0)
		return cudaSuccess;
	e = rt_check_device(dst_device);
	if (e == cudaSuccess)
		e = rt_check_device(src_device);
	if (e == cudaSuccess)
		e = rt_enter();
	if (e)
		return e;
	/* Within one device a peer copy is a device-to-device copy. */
	if (dst_device == src_device && async)
		return rt_error(cuMemcpyAsync((CUdeviceptr)(uintptr_t)dst,
					      (CUdeviceptr)(uintptr_t)src,
					      count, (CUstream)stream));
	if (dst_device == src_device)
		return rt_error(cuMemcpy((CUdeviceptr)(uintptr_t)dst,
					 (CUdeviceptr)(uintptr_t)src, count));
	e = rt_primary(dst_device, &dst_ctx);
	if (e == cudaSuccess)
		e = rt_primary(src_device, &src_ctx);
	if (e)
		return e;
	if (async)
		return rt_error(cuMemcpyPeerAsync((CUdeviceptr)(uintptr_t)dst,
						  dst_ctx,
						  (CUdeviceptr)(uintptr_t)src,
						  src_ctx, count,
						  (CUstream)stream));
	return rt_error(cuMemcpyPeer((CUdeviceptr)(uintptr_t)dst, dst_ctx,
				     (CUdeviceptr)(uintptr_t)src, src_ctx,
				     count));
}

cudaError_t cudaMemcpyPeer(void *dst, int dst_device, const void *src,
			   int src_device, size_t count)
{
	return rt_ret(rt_memcpy_peer(dst, dst_device, src, src_device, count,
				     false, NULL));
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dst_device, const void *src,
				int src_device, size_t count,
				cudaStream_t stream)
{
	return rt_ret(rt_memcpy_peer(dst, dst_device, src, src_device, count,
				     true, stream));
}

/* cudaDeviceP2PAttr's values are CUdevice_P2PAttribute's. */
cudaError_t cudaDeviceGetP2PAttribute(int *value, enum cudaDeviceP2PAttr attr,
				      int src_device, int dst_device)
{
	cudaError_t e;

	if (!value)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_check_device(src_device);
	if (e == cudaSuccess)
		e = rt_check_device(dst_device);
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDeviceGetP2PAttribute(value,
						 (CUdevice_P2PAttribute)attr,
						 src_device, dst_device));
}
