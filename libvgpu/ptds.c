// SPDX-License-Identifier: MIT
/*
 * The entry points of programs built for the per-thread default stream
 * (CUDA_API_PER_THREAD_DEFAULT_STREAM, or nvcc's --default-stream
 * per-thread), each a thin wrapper over the ordinary call. cuda.h maps the
 * stream-taking calls to the _ptsz symbols, where a NULL stream means the
 * calling thread's default stream rather than the legacy one
 * (CU_STREAM_LEGACY still names the legacy stream).
 */
#include "vg.h"

static CUstream vg_ptsz(CUstream s)
{
	return s ? s : CU_STREAM_PER_THREAD;
}

CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t n,
			    CUstream s)
{
	return cuMemcpyAsync(dst, src, n, vg_ptsz(s));
}

CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dst, const void *src,
				   size_t n, CUstream s)
{
	return cuMemcpyHtoDAsync_v2(dst, src, n, vg_ptsz(s));
}

CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dst, CUdeviceptr src, size_t n,
				   CUstream s)
{
	return cuMemcpyDtoHAsync_v2(dst, src, n, vg_ptsz(s));
}

CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dst, CUdeviceptr src,
				   size_t n, CUstream s)
{
	return cuMemcpyDtoDAsync_v2(dst, src, n, vg_ptsz(s));
}

CUresult cuMemcpy2DAsync_v2_ptsz(const CUDA_MEMCPY2D *p, CUstream s)
{
	return cuMemcpy2DAsync_v2(p, vg_ptsz(s));
}

CUresult cuMemcpy3DAsync_v2_ptsz(const CUDA_MEMCPY3D *p, CUstream s)
{
	return cuMemcpy3DAsync_v2(p, vg_ptsz(s));
}

CUresult cuMemsetD8Async_ptsz(CUdeviceptr dst, unsigned char uc, size_t n,
			      CUstream s)
{
	return cuMemsetD8Async(dst, uc, n, vg_ptsz(s));
}

CUresult cuMemsetD16Async_ptsz(CUdeviceptr dst, unsigned short us, size_t n,
			       CUstream s)
{
	return cuMemsetD16Async(dst, us, n, vg_ptsz(s));
}

CUresult cuMemsetD32Async_ptsz(CUdeviceptr dst, unsigned int ui, size_t n,
			       CUstream s)
{
	return cuMemsetD32Async(dst, ui, n, vg_ptsz(s));
}

CUresult cuMemsetD2D8Async_ptsz(CUdeviceptr dst, size_t pitch,
				unsigned char uc, size_t w, size_t h,
				CUstream s)
{
	return cuMemsetD2D8Async(dst, pitch, uc, w, h, vg_ptsz(s));
}

CUresult cuMemsetD2D16Async_ptsz(CUdeviceptr dst, size_t pitch,
				 unsigned short us, size_t w, size_t h,
				 CUstream s)
{
	return cuMemsetD2D16Async(dst, pitch, us, w, h, vg_ptsz(s));
}

CUresult cuMemsetD2D32Async_ptsz(CUdeviceptr dst, size_t pitch,
				 unsigned int ui, size_t w, size_t h,
				 CUstream s)
{
	return cuMemsetD2D32Async(dst, pitch, ui, w, h, vg_ptsz(s));
}

CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gx, unsigned int gy,
			     unsigned int gz, unsigned int bx, unsigned int by,
			     unsigned int bz, unsigned int shared, CUstream s,
			     void **params, void **extra)
{
	return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shared, vg_ptsz(s),
			      params, extra);
}

CUresult cuLaunchHostFunc_ptsz(CUstream s, CUhostFn fn, void *data)
{
	return cuLaunchHostFunc(vg_ptsz(s), fn, data);
}

CUresult cuStreamQuery_ptsz(CUstream s)
{
	return cuStreamQuery(vg_ptsz(s));
}

CUresult cuStreamSynchronize_ptsz(CUstream s)
{
	return cuStreamSynchronize(vg_ptsz(s));
}

CUresult cuStreamWaitEvent_ptsz(CUstream s, CUevent e, unsigned int flags)
{
	return cuStreamWaitEvent(vg_ptsz(s), e, flags);
}

CUresult cuStreamAddCallback_ptsz(CUstream s, CUstreamCallback cb,
				  void *data, unsigned int flags)
{
	return cuStreamAddCallback(vg_ptsz(s), cb, data, flags);
}

CUresult cuStreamGetFlags_ptsz(CUstream s, unsigned int *flags)
{
	return cuStreamGetFlags(vg_ptsz(s), flags);
}

CUresult cuStreamGetPriority_ptsz(CUstream s, int *priority)
{
	return cuStreamGetPriority(vg_ptsz(s), priority);
}

CUresult cuStreamGetCtx_ptsz(CUstream s, CUcontext *pctx)
{
	return cuStreamGetCtx(vg_ptsz(s), pctx);
}

CUresult cuEventRecord_ptsz(CUevent e, CUstream s)
{
	return cuEventRecord(e, vg_ptsz(s));
}

CUresult cuEventRecordWithFlags_ptsz(CUevent e, CUstream s,
				     unsigned int flags)
{
	return cuEventRecordWithFlags(e, vg_ptsz(s), flags);
}
