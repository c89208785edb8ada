// SPDX-License-Identifier: MIT
/*
 * Graphs as a whole: creation, clones, nodes' removal and type, the
 * dependencies between nodes and the queries over them, and conditional
 * handles. The runtime's handles and edge data are the driver's.
 */
#include "rt.h"

cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned int flags)
{
	cudaError_t e;

	if (!graph)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphCreate((CUgraph *)graph, flags));
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphDestroy((CUgraph)graph));
}

cudaError_t cudaGraphClone(cudaGraph_t *clone, cudaGraph_t graph)
{
	cudaError_t e;

	if (!clone)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphClone((CUgraph *)clone, (CUgraph)graph));
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *node,
				     cudaGraphNode_t original,
				     cudaGraph_t clone)
{
	cudaError_t e;

	if (!node)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphNodeFindInClone((CUgraphNode *)node,
						(CUgraphNode)original,
						(CUgraph)clone));
}

cudaError_t cudaGraphDestroyNode(cudaGraphNode_t node)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphDestroyNode((CUgraphNode)node));
}

/* cudaGraphNodeType's values are CUgraphNodeType's. */
cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node,
				 enum cudaGraphNodeType *type)
{
	cudaError_t e;

	if (!type)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphNodeGetType((CUgraphNode)node,
					    (CUgraphNodeType *)type));
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
			      size_t *count)
{
	cudaError_t e;

	if (!count)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphGetNodes((CUgraph)graph, (CUgraphNode *)nodes,
					 count));
}

cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph, cudaGraphNode_t *nodes,
				  size_t *count)
{
	cudaError_t e;

	if (!count)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphGetRootNodes((CUgraph)graph,
					     (CUgraphNode *)nodes, count));
}

/* cudaGraphEdgeData is laid out as CUgraphEdgeData is. */
cudaError_t cudaGraphGetEdges(cudaGraph_t graph, cudaGraphNode_t *from,
			      cudaGraphNode_t *to, cudaGraphEdgeData *data,
			      size_t *count)
{
	cudaError_t e;

	if (!count)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphGetEdges((CUgraph)graph, (CUgraphNode *)from,
					 (CUgraphNode *)to,
					 (CUgraphEdgeData *)data, count));
}

cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node,
					 cudaGraphNode_t *deps,
					 cudaGraphEdgeData *data,
					 size_t *count)
{
	cudaError_t e;

	if (!count)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphNodeGetDependencies((CUgraphNode)node,
						    (CUgraphNode *)deps,
						    (CUgraphEdgeData *)data,
						    count));
}

cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node,
					   cudaGraphNode_t *dependents,
					   cudaGraphEdgeData *data,
					   size_t *count)
{
	cudaError_t e;

	if (!count)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphNodeGetDependentNodes((CUgraphNode)node,
						      (CUgraphNode *)dependents,
						      (CUgraphEdgeData *)data,
						      count));
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph,
				     const cudaGraphNode_t *from,
				     const cudaGraphNode_t *to,
				     const cudaGraphEdgeData *data,
				     size_t count)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphAddDependencies((CUgraph)graph,
						(const CUgraphNode *)from,
						(const CUgraphNode *)to,
						(const CUgraphEdgeData *)data,
						count));
}

cudaError_t cudaGraphRemoveDependencies(cudaGraph_t graph,
					const cudaGraphNode_t *from,
					const cudaGraphNode_t *to,
					const cudaGraphEdgeData *data,
					size_t count)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphRemoveDependencies(
		(CUgraph)graph, (const CUgraphNode *)from,
		(const CUgraphNode *)to, (const CUgraphEdgeData *)data,
		count));
}

/* The handle lives in the context current for the call, as NVIDIA's. */
cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *handle,
					     cudaGraph_t graph,
					     unsigned int default_value,
					     unsigned int flags)
{
	CUcontext ctx = NULL;
	cudaError_t e;

	if (!handle)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuCtxGetCurrent(&ctx));
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphConditionalHandleCreate(
		(CUgraphConditionalHandle *)handle, (CUgraph)graph, ctx,
		default_value, flags));
}
