// SPDX-License-Identifier: MIT
/*
 * Streams: the runtime's cudaStream_t is the driver's CUstream, and
 * cudaStreamLegacy/cudaStreamPerThread are CU_STREAM_LEGACY/PER_THREAD.
 */
#include "rt.h"

cudaError_t cudaStreamCreateWithPriority(cudaStream_t *stream,
					 unsigned int flags, int priority)
{
	cudaError_t e;

	if (!stream || (flags & ~(unsigned int)cudaStreamNonBlocking))
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	/* cudaStreamNonBlocking is CU_STREAM_NON_BLOCKING. */
	return rt_ret_cu(cuStreamCreateWithPriority((CUstream *)stream, flags,
						    priority));
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream,
				      unsigned int flags)
{
	return cudaStreamCreateWithPriority(stream, flags, 0);
}

cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
	return cudaStreamCreateWithPriority(stream, cudaStreamDefault, 0);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuStreamDestroy((CUstream)stream));
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuStreamSynchronize((CUstream)stream));
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	e = rt_error(cuStreamQuery((CUstream)stream));
	/* "Not ready" answers the query; it is not the thread's error. */
	return e == cudaErrorNotReady ? e : rt_ret(e);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
				unsigned int flags)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuStreamWaitEvent((CUstream)stream, (CUevent)event,
					   flags));
}

/*
 * The wait of a per-thread program's synchronous call. On the thread's
 * stream while it captures, the call is illegal, as on an H200 (900, the
 * capture invalidated: the wait says so). While another stream captures,
 * the call is no unsafe call, but a plain cuStreamSynchronize would be
 * one (900, a global or this thread's capture invalidated): the wait is
 * made in relaxed mode.
 */
cudaError_t rt_ptds_sync(void)
{
	CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
	CUstreamCaptureMode mode = CU_STREAM_CAPTURE_MODE_RELAXED;
	CUresult r;

	r = cuStreamIsCapturing(CU_STREAM_PER_THREAD, &status);
	if (r)
		return rt_error(r);
	/* Waiting for a capturing stream: illegal, the driver says how. */
	if (status != CU_STREAM_CAPTURE_STATUS_NONE)
		return rt_error(cuStreamSynchronize(CU_STREAM_PER_THREAD));
	cuThreadExchangeStreamCaptureMode(&mode);
	r = cuStreamSynchronize(CU_STREAM_PER_THREAD);
	cuThreadExchangeStreamCaptureMode(&mode);
	return rt_error(r);
}

/* --default-stream per-thread forms: stream 0 is the thread's own. */
cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream)
{
	return cudaStreamSynchronize(stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream)
{
	return cudaStreamQuery(stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
				     unsigned int flags)
{
	return cudaStreamWaitEvent(stream ? stream : cudaStreamPerThread,
				   event, flags);
}

cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority)
{
	cudaError_t e;

	if (!priority)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuStreamGetPriority((CUstream)stream, priority));
}

cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags)
{
	cudaError_t e;

	if (!flags)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuStreamGetFlags((CUstream)stream, flags));
}

cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuCtxGetStreamPriorityRange(least, greatest));
}

/*
 * The callback's type differs from the driver's only in its status
 * argument, a cudaError_t where the driver passes a CUresult: the same
 * number for every status a stream reports.
 */
cudaError_t cudaStreamAddCallback(cudaStream_t stream,
				  cudaStreamCallback_t callback,
				  void *user_data, unsigned int flags)
{
	cudaError_t e;

	if (!callback || flags)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuStreamAddCallback((CUstream)stream,
					     (CUstreamCallback)callback,
					     user_data, 0));
}

cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn,
			       void *user_data)
{
	cudaError_t e;

	if (!fn)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuLaunchHostFunc((CUstream)stream, (CUhostFn)fn,
					  user_data));
}

cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream,
				       cudaStreamCallback_t callback,
				       void *user_data, unsigned int flags)
{
	return cudaStreamAddCallback(stream ? stream : cudaStreamPerThread,
				     callback, user_data, flags);
}

cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn,
				    void *user_data)
{
	return cudaLaunchHostFunc(stream ? stream : cudaStreamPerThread, fn,
				  user_data);
}

cudaError_t cudaStreamGetDevice(cudaStream_t stream, int *device)
{
	CUdevice dev = 0;
	cudaError_t e;

	if (!device)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuStreamGetDevice((CUstream)stream, &dev));
	if (e == cudaSuccess)
		*device = dev;
	return e;
}

cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t stream, int *device)
{
	return cudaStreamGetDevice(stream ? stream : cudaStreamPerThread,
				   device);
}
