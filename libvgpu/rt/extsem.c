// SPDX-License-Identifier: MIT
/*
 * External semaphores through the runtime: the calls and the graph nodes
 * forward to the driver's (libvgpu/extsem.c, libvgpu/graph_extsem.c). The
 * runtime's descriptors, parameters and node parameters are the driver's,
 * field for field, and its handle types have the driver's numbers.
 */
#include <stddef.h>

#include "rt.h"

_Static_assert(sizeof(struct cudaExternalSemaphoreHandleDesc) ==
	       sizeof(CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC) &&
	       offsetof(struct cudaExternalSemaphoreHandleDesc, flags) ==
	       offsetof(CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC, flags),
	       "the runtime's and the driver's semaphore descriptors are alike");
_Static_assert(sizeof(struct cudaExternalSemaphoreSignalParams) ==
	       sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS) &&
	       offsetof(struct cudaExternalSemaphoreSignalParams, flags) ==
	       offsetof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS, flags),
	       "the signal parameters are alike");
_Static_assert(sizeof(struct cudaExternalSemaphoreWaitParams) ==
	       sizeof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS) &&
	       offsetof(struct cudaExternalSemaphoreWaitParams, flags) ==
	       offsetof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS, flags),
	       "the wait parameters are alike");
_Static_assert(sizeof(struct cudaExternalSemaphoreSignalNodeParams) ==
	       sizeof(CUDA_EXT_SEM_SIGNAL_NODE_PARAMS) &&
	       offsetof(struct cudaExternalSemaphoreSignalNodeParams, numExtSems) ==
	       offsetof(CUDA_EXT_SEM_SIGNAL_NODE_PARAMS, numExtSems),
	       "the signal nodes' parameters are alike");
_Static_assert(sizeof(struct cudaExternalSemaphoreWaitNodeParams) ==
	       sizeof(CUDA_EXT_SEM_WAIT_NODE_PARAMS) &&
	       offsetof(struct cudaExternalSemaphoreWaitNodeParams, numExtSems) ==
	       offsetof(CUDA_EXT_SEM_WAIT_NODE_PARAMS, numExtSems),
	       "the wait nodes' parameters are alike");
_Static_assert((int)cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd ==
	       (int)CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD,
	       "the handle types have one numbering");

/* The macros of the runtime's header would rename these definitions. */
#undef cudaSignalExternalSemaphoresAsync
#undef cudaWaitExternalSemaphoresAsync

cudaError_t cudaImportExternalSemaphore(cudaExternalSemaphore_t *out,
					const struct cudaExternalSemaphoreHandleDesc *desc)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuImportExternalSemaphore((CUexternalSemaphore *)out,
			(const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC *)desc));
}

cudaError_t cudaDestroyExternalSemaphore(cudaExternalSemaphore_t sem)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDestroyExternalSemaphore((CUexternalSemaphore)sem));
}

cudaError_t cudaSignalExternalSemaphoresAsync(const cudaExternalSemaphore_t *sems,
					      const struct cudaExternalSemaphoreSignalParams *params,
					      unsigned int n, cudaStream_t stream)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuSignalExternalSemaphoresAsync((const CUexternalSemaphore *)sems,
			(const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *)params, n,
			(CUstream)stream));
}

cudaError_t cudaSignalExternalSemaphoresAsync_ptsz(const cudaExternalSemaphore_t *sems,
						   const struct cudaExternalSemaphoreSignalParams *params,
						   unsigned int n, cudaStream_t stream)
{
	return cudaSignalExternalSemaphoresAsync(sems, params, n,
						 stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaWaitExternalSemaphoresAsync(const cudaExternalSemaphore_t *sems,
					    const struct cudaExternalSemaphoreWaitParams *params,
					    unsigned int n, cudaStream_t stream)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuWaitExternalSemaphoresAsync((const CUexternalSemaphore *)sems,
			(const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *)params, n,
			(CUstream)stream));
}

cudaError_t cudaWaitExternalSemaphoresAsync_ptsz(const cudaExternalSemaphore_t *sems,
						 const struct cudaExternalSemaphoreWaitParams *params,
						 unsigned int n, cudaStream_t stream)
{
	return cudaWaitExternalSemaphoresAsync(sems, params, n,
					       stream ? stream : cudaStreamPerThread);
}

cudaError_t cudaGraphAddExternalSemaphoresSignalNode(cudaGraphNode_t *node, cudaGraph_t graph,
		const cudaGraphNode_t *deps, size_t ndeps,
		const struct cudaExternalSemaphoreSignalNodeParams *p)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphAddExternalSemaphoresSignalNode((CUgraphNode *)node,
			(CUgraph)graph, (const CUgraphNode *)deps, ndeps,
			(const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)p));
}

cudaError_t cudaGraphAddExternalSemaphoresWaitNode(cudaGraphNode_t *node, cudaGraph_t graph,
		const cudaGraphNode_t *deps, size_t ndeps,
		const struct cudaExternalSemaphoreWaitNodeParams *p)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphAddExternalSemaphoresWaitNode((CUgraphNode *)node,
			(CUgraph)graph, (const CUgraphNode *)deps, ndeps,
			(const CUDA_EXT_SEM_WAIT_NODE_PARAMS *)p));
}

cudaError_t cudaGraphExternalSemaphoresSignalNodeGetParams(cudaGraphNode_t node,
		struct cudaExternalSemaphoreSignalNodeParams *p)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphExternalSemaphoresSignalNodeGetParams((CUgraphNode)node,
			(CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)p));
}

cudaError_t cudaGraphExternalSemaphoresWaitNodeGetParams(cudaGraphNode_t node,
		struct cudaExternalSemaphoreWaitNodeParams *p)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphExternalSemaphoresWaitNodeGetParams((CUgraphNode)node,
			(CUDA_EXT_SEM_WAIT_NODE_PARAMS *)p));
}

cudaError_t cudaGraphExternalSemaphoresSignalNodeSetParams(cudaGraphNode_t node,
		const struct cudaExternalSemaphoreSignalNodeParams *p)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphExternalSemaphoresSignalNodeSetParams((CUgraphNode)node,
			(const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)p));
}

cudaError_t cudaGraphExternalSemaphoresWaitNodeSetParams(cudaGraphNode_t node,
		const struct cudaExternalSemaphoreWaitNodeParams *p)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphExternalSemaphoresWaitNodeSetParams((CUgraphNode)node,
			(const CUDA_EXT_SEM_WAIT_NODE_PARAMS *)p));
}

cudaError_t cudaGraphExecExternalSemaphoresSignalNodeSetParams(cudaGraphExec_t exec,
		cudaGraphNode_t node, const struct cudaExternalSemaphoreSignalNodeParams *p)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphExecExternalSemaphoresSignalNodeSetParams((CUgraphExec)exec,
			(CUgraphNode)node, (const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)p));
}

cudaError_t cudaGraphExecExternalSemaphoresWaitNodeSetParams(cudaGraphExec_t exec,
		cudaGraphNode_t node, const struct cudaExternalSemaphoreWaitNodeParams *p)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphExecExternalSemaphoresWaitNodeSetParams((CUgraphExec)exec,
			(CUgraphNode)node, (const CUDA_EXT_SEM_WAIT_NODE_PARAMS *)p));
}
