// SPDX-License-Identifier: MIT
/*
 * A stream's identity and attributes: cudaStreamGetId and the stream
 * attributes (priority, synchronization policy, access policy window...),
 * whose IDs and value union are the driver's (cudaLaunchAttributeID and
 * cudaLaunchAttributeValue mirror CUlaunchAttributeID and
 * CUlaunchAttributeValue member for member); and the per-thread default
 * stream forms of the stream queries.
 */
#include "rt.h"

cudaError_t cudaStreamGetId(cudaStream_t stream, unsigned long long *id)
{
	cudaError_t e;

	if (!id)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuStreamGetId((CUstream)stream, id));
}

cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
				   cudaStreamAttrValue *value)
{
	cudaError_t e;

	if (!value)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuStreamGetAttribute((CUstream)stream,
					      (CUstreamAttrID)attr,
					      (CUstreamAttrValue *)value));
}

cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID attr,
				   const cudaStreamAttrValue *value)
{
	cudaError_t e;

	if (!value)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuStreamSetAttribute((CUstream)stream,
					      (CUstreamAttrID)attr,
					      (const CUstreamAttrValue *)value));
}

cudaError_t cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuStreamCopyAttributes((CUstream)dst, (CUstream)src));
}

/* --default-stream per-thread forms: stream 0 is the thread's own. */
static cudaStream_t rt_ptsz(cudaStream_t stream)
{
	return stream ? stream : cudaStreamPerThread;
}

cudaError_t cudaStreamGetId_ptsz(cudaStream_t stream, unsigned long long *id)
{
	return cudaStreamGetId(rt_ptsz(stream), id);
}

cudaError_t cudaStreamGetAttribute_ptsz(cudaStream_t stream,
					cudaStreamAttrID attr,
					cudaStreamAttrValue *value)
{
	return cudaStreamGetAttribute(rt_ptsz(stream), attr, value);
}

cudaError_t cudaStreamSetAttribute_ptsz(cudaStream_t stream,
					cudaStreamAttrID attr,
					const cudaStreamAttrValue *value)
{
	return cudaStreamSetAttribute(rt_ptsz(stream), attr, value);
}

cudaError_t cudaStreamCopyAttributes_ptsz(cudaStream_t dst, cudaStream_t src)
{
	return cudaStreamCopyAttributes(rt_ptsz(dst), rt_ptsz(src));
}

cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t stream, unsigned int *flags)
{
	return cudaStreamGetFlags(rt_ptsz(stream), flags);
}

cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t stream, int *priority)
{
	return cudaStreamGetPriority(rt_ptsz(stream), priority);
}
