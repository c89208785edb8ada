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
