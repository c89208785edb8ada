// SPDX-License-Identifier: MIT
/*
 * The entry points of programs built for the per-thread default stream
 * (CUDA_API_PER_THREAD_DEFAULT_STREAM, or nvcc's --default-stream
 * per-thread), each a thin wrapper over the ordinary call: cuda.h maps the
 * synchronous calls to _ptds symbols and the stream-taking ones to _ptsz
 * symbols.
 */
#include "vg.h"

/*
 * _ptds: the synchronous calls, on the calling thread's default stream
 * instead of the legacy one.
 */
CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	return vg_memcpy(dst, src, n, false, CU_STREAM_PER_THREAD);
}

CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dst, const void *src, size_t n)
{
	return vg_copy(VG_HTOD, dst, (uintptr_t)src, n, false,
		       CU_STREAM_PER_THREAD);
}

CUresult cuMemcpyDtoH_v2_ptds(void *dst, CUdeviceptr src, size_t n)
{
	return vg_copy(VG_DTOH, (uintptr_t)dst, src, n, false,
		       CU_STREAM_PER_THREAD);
}

CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
	return vg_copy(VG_DTOD, dst, src, n, false, CU_STREAM_PER_THREAD);
}

CUresult cuMemcpy2D_v2_ptds(const CUDA_MEMCPY2D *p)
{
	CUresult r = vg_check_init();

	return r ? r : vg_copy2d(p, false, CU_STREAM_PER_THREAD);
}

CUresult cuMemcpy2DUnaligned_v2_ptds(const CUDA_MEMCPY2D *p)
{
	return cuMemcpy2D_v2_ptds(p);
}

CUresult cuMemcpy3D_v2_ptds(const CUDA_MEMCPY3D *p)
{
	return vg_copy3d(p, false, CU_STREAM_PER_THREAD);
}

CUresult cuMemsetD8_v2_ptds(CUdeviceptr dst, unsigned char uc, size_t n)
{
	return vg_memset2d(dst, 0, uc, 1, n, 1, false, CU_STREAM_PER_THREAD);
}

CUresult cuMemsetD16_v2_ptds(CUdeviceptr dst, unsigned short us, size_t n)
{
	return vg_memset2d(dst, 0, us, 2, n, 1, false, CU_STREAM_PER_THREAD);
}

CUresult cuMemsetD32_v2_ptds(CUdeviceptr dst, unsigned int ui, size_t n)
{
	return vg_memset2d(dst, 0, ui, 4, n, 1, false, CU_STREAM_PER_THREAD);
}

CUresult cuMemsetD2D8_v2_ptds(CUdeviceptr dst, size_t pitch, unsigned char uc,
			      size_t width, size_t height)
{
	return vg_memset2d(dst, pitch, uc, 1, width, height, false,
			   CU_STREAM_PER_THREAD);
}

CUresult cuMemsetD2D16_v2_ptds(CUdeviceptr dst, size_t pitch,
			       unsigned short us, size_t width, size_t height)
{
	return vg_memset2d(dst, pitch, us, 2, width, height, false,
			   CU_STREAM_PER_THREAD);
}

CUresult cuMemsetD2D32_v2_ptds(CUdeviceptr dst, size_t pitch, unsigned int ui,
			       size_t width, size_t height)
{
	return vg_memset2d(dst, pitch, ui, 4, width, height, false,
			   CU_STREAM_PER_THREAD);
}

/*
 * _ptsz: the stream-taking calls, where a NULL stream means the calling
 * thread's default stream rather than the legacy one (CU_STREAM_LEGACY
 * still names the legacy stream).
 */
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

CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f,
			       void **params, void **extra)
{
	CUlaunchConfig c;

	if (!config)
		return cuLaunchKernelEx(config, f, params, extra);
	c = *config;
	c.hStream = vg_ptsz(c.hStream);
	return cuLaunchKernelEx(&c, f, params, extra);
}

CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gx,
					unsigned int gy, unsigned int gz,
					unsigned int bx, unsigned int by,
					unsigned int bz, unsigned int shared,
					CUstream stream, void **params)
{
	return cuLaunchCooperativeKernel(f, gx, gy, gz, bx, by, bz, shared,
					 vg_ptsz(stream),
					 params);
}

CUresult cuLaunchHostFunc_ptsz(CUstream s, CUhostFn fn, void *data)
{
	return cuLaunchHostFunc(vg_ptsz(s), fn, data);
}

CUresult cuSignalExternalSemaphoresAsync_ptsz(const CUexternalSemaphore *sems,
					      const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *params,
					      unsigned int n, CUstream s)
{
	return vg_sem_ops(vg_ptsz(s), sems, params, n, true);
}

CUresult cuWaitExternalSemaphoresAsync_ptsz(const CUexternalSemaphore *sems,
					    const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *params,
					    unsigned int n, CUstream s)
{
	return vg_sem_ops(vg_ptsz(s), sems, params, n, false);
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

CUresult cuStreamGetCtx_v2_ptsz(CUstream hs, CUcontext *pctx,
				CUgreenCtx *green)
{
	return cuStreamGetCtx_v2(vg_ptsz(hs), pctx, green);
}

CUresult cuStreamGetId_ptsz(CUstream s, unsigned long long *id)
{
	return cuStreamGetId(vg_ptsz(s), id);
}

CUresult cuStreamGetDevice_ptsz(CUstream s, CUdevice *device)
{
	return cuStreamGetDevice(vg_ptsz(s), device);
}

CUresult cuStreamGetAttribute_ptsz(CUstream s, CUstreamAttrID attr,
				   CUstreamAttrValue *value)
{
	return cuStreamGetAttribute(vg_ptsz(s), attr, value);
}

CUresult cuStreamSetAttribute_ptsz(CUstream s, CUstreamAttrID attr,
				   const CUstreamAttrValue *value)
{
	return cuStreamSetAttribute(vg_ptsz(s), attr, value);
}

CUresult cuStreamCopyAttributes_ptsz(CUstream dst, CUstream src)
{
	return cuStreamCopyAttributes(vg_ptsz(dst), vg_ptsz(src));
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

CUresult cuStreamWaitValue32_v2_ptsz(CUstream s, CUdeviceptr addr,
				     cuuint32_t value, unsigned int flags)
{
	return cuStreamWaitValue32_v2(vg_ptsz(s), addr, value, flags);
}

CUresult cuStreamWaitValue64_v2_ptsz(CUstream s, CUdeviceptr addr,
				     cuuint64_t value, unsigned int flags)
{
	return cuStreamWaitValue64_v2(vg_ptsz(s), addr, value, flags);
}

CUresult cuStreamWriteValue32_v2_ptsz(CUstream s, CUdeviceptr addr,
				      cuuint32_t value, unsigned int flags)
{
	return cuStreamWriteValue32_v2(vg_ptsz(s), addr, value, flags);
}

CUresult cuStreamWriteValue64_v2_ptsz(CUstream s, CUdeviceptr addr,
				      cuuint64_t value, unsigned int flags)
{
	return cuStreamWriteValue64_v2(vg_ptsz(s), addr, value, flags);
}

CUresult cuStreamBatchMemOp_v2_ptsz(CUstream s, unsigned int count,
				    CUstreamBatchMemOpParams *ops,
				    unsigned int flags)
{
	return cuStreamBatchMemOp_v2(vg_ptsz(s), count, ops, flags);
}

CUresult cuMemPrefetchAsync_v2_ptsz(CUdeviceptr p, size_t count,
				    CUmemLocation location, unsigned int flags,
				    CUstream s)
{
	return cuMemPrefetchAsync_v2(p, count, location, flags, vg_ptsz(s));
}

CUresult cuMemPrefetchAsync_ptsz(CUdeviceptr p, size_t count, CUdevice device,
				 CUstream s)
{
	CUmemLocation l = { .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = device };

	if (device == CU_DEVICE_CPU)
		l.type = CU_MEM_LOCATION_TYPE_HOST;
	return cuMemPrefetchAsync_v2(p, count, l, 0, vg_ptsz(s));
}

CUresult cuStreamAttachMemAsync_ptsz(CUstream s, CUdeviceptr p, size_t length,
				     unsigned int flags)
{
	return cuStreamAttachMemAsync(s, p, length, flags);
}
