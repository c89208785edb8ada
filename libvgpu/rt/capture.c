// SPDX-License-Identifier: MIT
/*
 * Stream capture: the driver's. The runtime's capture modes and statuses,
 * its edge data and its dependency flags are the driver's numbers and
 * layouts, and the work the runtime queues goes through the driver's
 * stream-ordered calls, which the driver turns into nodes while their
 * stream captures.
 */
#include "rt.h"

/* --default-stream per-thread forms take stream 0 as the thread's own. */
static cudaStream_t rt_ptsz(cudaStream_t stream)
{
	return stream ? stream : cudaStreamPerThread;
}

static bool rt_mode_ok(enum cudaStreamCaptureMode mode)
{
	return mode == cudaStreamCaptureModeGlobal ||
	       mode == cudaStreamCaptureModeThreadLocal ||
	       mode == cudaStreamCaptureModeRelaxed;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream,
				   enum cudaStreamCaptureMode mode)
{
	cudaError_t e;

	if (!rt_mode_ok(mode))
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	/* Stream 0 is the legacy stream, which the driver will not capture. */
	return rt_ret_cu(cuStreamBeginCapture((CUstream)stream,
						 (CUstreamCaptureMode)mode));
}

cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream,
					enum cudaStreamCaptureMode mode)
{
	return cudaStreamBeginCapture(rt_ptsz(stream), mode);
}

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream,
					  cudaGraph_t graph,
					  const cudaGraphNode_t *deps,
					  const cudaGraphEdgeData *edata,
					  size_t ndeps,
					  enum cudaStreamCaptureMode mode)
{
	cudaError_t e;

	if (!graph || !rt_mode_ok(mode) || (ndeps && !deps))
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuStreamBeginCaptureToGraph(
		(CUstream)stream, (CUgraph)graph, (const CUgraphNode *)deps,
		(const CUgraphEdgeData *)edata, ndeps,
		(CUstreamCaptureMode)mode));
}

cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream,
					       cudaGraph_t graph,
					       const cudaGraphNode_t *deps,
					       const cudaGraphEdgeData *edata,
					       size_t ndeps,
					       enum cudaStreamCaptureMode mode)
{
	return cudaStreamBeginCaptureToGraph(rt_ptsz(stream), graph, deps,
					     edata, ndeps, mode);
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	/* Without @graph the driver ends the capture and drops its graph. */
	return rt_ret_cu(cuStreamEndCapture((CUstream)stream,
					    (CUgraph *)graph));
}

cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream,
				      cudaGraph_t *graph)
{
	return cudaStreamEndCapture(rt_ptsz(stream), graph);
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream,
				  enum cudaStreamCaptureStatus *status)
{
	CUstreamCaptureStatus s = CU_STREAM_CAPTURE_STATUS_NONE;
	cudaError_t e;

	if (!status)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuStreamIsCapturing((CUstream)stream, &s));
	if (e == cudaSuccess)
		*status = (enum cudaStreamCaptureStatus)s;
	return e;
}

cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream,
				       enum cudaStreamCaptureStatus *status)
{
	return cudaStreamIsCapturing(rt_ptsz(stream), status);
}

/*
 * The dependency arrays handed out are the driver's, valid until the
 * stream's next captured call, as NVIDIA documents for its own.
 */
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream,
				     enum cudaStreamCaptureStatus *status,
				     unsigned long long *id,
				     cudaGraph_t *graph,
				     const cudaGraphNode_t **deps,
				     const cudaGraphEdgeData **edata,
				     size_t *ndeps)
{
	CUstreamCaptureStatus s = CU_STREAM_CAPTURE_STATUS_NONE;
	cuuint64_t cid = 0;
	cudaError_t e;

	if (!status)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuStreamGetCaptureInfo(
		(CUstream)stream, &s, id ? &cid : NULL, (CUgraph *)graph,
		(const CUgraphNode **)deps, (const CUgraphEdgeData **)edata,
		ndeps));
	if (e)
		return e;
	*status = (enum cudaStreamCaptureStatus)s;
	/* Outside a capture the driver writes the status only. */
	if (id && s != CU_STREAM_CAPTURE_STATUS_NONE)
		*id = cid;
	return cudaSuccess;
}

cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream,
					  enum cudaStreamCaptureStatus *status,
					  unsigned long long *id,
					  cudaGraph_t *graph,
					  const cudaGraphNode_t **deps,
					  const cudaGraphEdgeData **edata,
					  size_t *ndeps)
{
	return cudaStreamGetCaptureInfo(rt_ptsz(stream), status, id, graph,
					deps, edata, ndeps);
}

cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
						cudaGraphNode_t *deps,
						const cudaGraphEdgeData *edata,
						size_t ndeps,
						unsigned int flags)
{
	cudaError_t e;

	if ((flags != cudaStreamAddCaptureDependencies &&
	     flags != cudaStreamSetCaptureDependencies) || (ndeps && !deps))
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuStreamUpdateCaptureDependencies(
		(CUstream)stream, (CUgraphNode *)deps,
		(const CUgraphEdgeData *)edata, ndeps, flags));
}

cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(
	cudaStream_t stream, cudaGraphNode_t *deps,
	const cudaGraphEdgeData *edata, size_t ndeps, unsigned int flags)
{
	return cudaStreamUpdateCaptureDependencies(rt_ptsz(stream), deps,
						   edata, ndeps, flags);
}

/* The thread's mode is the driver's: the runtime keeps none of its own. */
cudaError_t cudaThreadExchangeStreamCaptureMode(
	enum cudaStreamCaptureMode *mode)
{
	CUstreamCaptureMode m;
	cudaError_t e;

	if (!mode)
		return rt_ret(cudaErrorInvalidValue);
	m = (CUstreamCaptureMode)*mode;
	e = rt_ret_cu(cuThreadExchangeStreamCaptureMode(&m));
	if (e == cudaSuccess)
		*mode = (enum cudaStreamCaptureMode)m;
	return e;
}
