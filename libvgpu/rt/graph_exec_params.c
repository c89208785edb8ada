// SPDX-License-Identifier: MIT
/*
 * An executable graph's node parameters, changed in place: each is
 * converted as the same node's parameters are in the graph it was made
 * from (graph_node.c, graph_memcpy.c), copies and fills in the context
 * current for the call.
 */
#include "rt.h"

cudaError_t
cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
				 const struct cudaKernelNodeParams *p)
{
	CUDA_KERNEL_NODE_PARAMS c;
	cudaError_t e = rt_kernel_node_desc(p, &c);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphExecKernelNodeSetParams((CUgraphExec)exec,
							(CUgraphNode)node,
							&c));
}

/* Sets copy @c, which @e says was made, in the current context. */
static cudaError_t rt_exec_memcpy(cudaGraphExec_t exec, cudaGraphNode_t node,
				  cudaError_t e, const CUDA_MEMCPY3D *c)
{
	CUcontext ctx = NULL;

	if (e == cudaSuccess)
		e = rt_error(cuCtxGetCurrent(&ctx));
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphExecMemcpyNodeSetParams((CUgraphExec)exec,
							(CUgraphNode)node, c,
							ctx));
}

cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t exec,
					     cudaGraphNode_t node,
					     const struct cudaMemcpy3DParms *p)
{
	CUDA_MEMCPY3D c;

	return rt_exec_memcpy(exec, node, rt_memcpy_node_desc(p, &c), &c);
}

cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t exec,
					       cudaGraphNode_t node, void *dst,
					       const void *src, size_t count,
					       enum cudaMemcpyKind kind)
{
	CUDA_MEMCPY3D c;

	return rt_exec_memcpy(exec, node,
			      rt_memcpy1d_node_desc(dst, src, count, kind, &c),
			      &c);
}

cudaError_t cudaGraphExecMemcpyNodeSetParamsToSymbol(cudaGraphExec_t exec,
						     cudaGraphNode_t node,
						     const void *symbol,
						     const void *src,
						     size_t count,
						     size_t offset,
						     enum cudaMemcpyKind kind)
{
	CUDA_MEMCPY3D c;

	return rt_exec_memcpy(exec, node,
			      rt_to_symbol_node_desc(symbol, src, count,
						     offset, kind, &c),
			      &c);
}

cudaError_t cudaGraphExecMemcpyNodeSetParamsFromSymbol(cudaGraphExec_t exec,
						       cudaGraphNode_t node,
						       void *dst,
						       const void *symbol,
						       size_t count,
						       size_t offset,
						       enum cudaMemcpyKind kind)
{
	CUDA_MEMCPY3D c;

	return rt_exec_memcpy(exec, node,
			      rt_from_symbol_node_desc(dst, symbol, count,
						       offset, kind, &c),
			      &c);
}

cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t exec,
					     cudaGraphNode_t node,
					     const struct cudaMemsetParams *p)
{
	CUDA_MEMSET_NODE_PARAMS c;
	CUcontext ctx = NULL;
	cudaError_t e;

	if (!p)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuCtxGetCurrent(&ctx));
	if (e)
		return rt_ret(e);
	rt_memset_node_desc(p, &c);
	return rt_ret_cu(cuGraphExecMemsetNodeSetParams((CUgraphExec)exec,
							(CUgraphNode)node, &c,
							ctx));
}

cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t exec,
					   cudaGraphNode_t node,
					   const struct cudaHostNodeParams *p)
{
	CUDA_HOST_NODE_PARAMS c;
	cudaError_t e;

	if (!p)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	c = (CUDA_HOST_NODE_PARAMS){ p->fn, p->userData };
	return rt_ret_cu(cuGraphExecHostNodeSetParams((CUgraphExec)exec,
						      (CUgraphNode)node, &c));
}

cudaError_t cudaGraphExecChildGraphNodeSetParams(cudaGraphExec_t exec,
						 cudaGraphNode_t node,
						 cudaGraph_t child)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphExecChildGraphNodeSetParams((CUgraphExec)exec,
							    (CUgraphNode)node,
							    (CUgraph)child));
}

cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t exec,
						 cudaGraphNode_t node,
						 cudaEvent_t event)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphExecEventRecordNodeSetEvent((CUgraphExec)exec,
							    (CUgraphNode)node,
							    (CUevent)event));
}

cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t exec,
					       cudaGraphNode_t node,
					       cudaEvent_t event)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphExecEventWaitNodeSetEvent((CUgraphExec)exec,
							  (CUgraphNode)node,
							  (CUevent)event));
}

cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t exec,
				       cudaGraphNode_t node,
				       struct cudaGraphNodeParams *p)
{
	CUgraphNodeParams c;
	cudaError_t e = rt_node_params_desc(p, &c);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphExecNodeSetParams((CUgraphExec)exec,
						  (CUgraphNode)node, &c));
}
