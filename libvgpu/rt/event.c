// SPDX-License-Identifier: MIT
/*
 * Events: the runtime's cudaEvent_t is the driver's CUevent, and its
 * creation flags are CU_EVENT_*'s.
 */
#include "rt.h"

#define RT_EVENT_FLAGS (cudaEventBlockingSync | cudaEventDisableTiming | \
			cudaEventInterprocess)

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
	cudaError_t e;

	if (!event || (flags & ~(unsigned int)RT_EVENT_FLAGS))
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuEventCreate((CUevent *)event, flags));
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
	return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuEventRecord((CUevent)event, (CUstream)stream));
}

cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream)
{
	if (!stream)
		stream = cudaStreamPerThread;
	return cudaEventRecord(event, stream);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuEventSynchronize((CUevent)event));
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	e = rt_error(cuEventQuery((CUevent)event));
	/* "Not ready" answers the query; it is not the thread's error. */
	return e == cudaErrorNotReady ? e : rt_ret(e);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start,
				 cudaEvent_t end)
{
	cudaError_t e;

	if (!ms)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuEventElapsedTime(ms, (CUevent)start, (CUevent)end));
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuEventDestroy((CUevent)event));
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
				     unsigned int flags)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	/* cudaEventRecord* flags are CU_EVENT_RECORD_*'s. */
	return rt_ret_cu(cuEventRecordWithFlags((CUevent)event,
						(CUstream)stream, flags));
}

cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event,
					  cudaStream_t stream,
					  unsigned int flags)
{
	return cudaEventRecordWithFlags(event,
					stream ? stream : cudaStreamPerThread,
					flags);
}
