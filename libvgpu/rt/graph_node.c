// SPDX-License-Identifier: MIT
/*
 * Graph nodes by type: adding kernel, memset, host, empty, child graph
 * and event nodes, and their parameters' get and set. A kernel node runs
 * the function its host stub names on the thread's device; reading its
 * parameters gives the stub back, as the application knows it. Memset
 * nodes belong to the context current when they are made.
 */
#include <string.h>

#include "rt.h"

cudaError_t rt_kernel_node_desc(const struct cudaKernelNodeParams *p,
				CUDA_KERNEL_NODE_PARAMS *c)
{
	CUfunction fn = NULL;
	cudaError_t e;

	if (!p)
		return cudaErrorInvalidValue;
	/* A host function that is no kernel: an H200's answer (rt_graph). */
	e = rt_function(p->func, cudaErrorInvalidResourceHandle, &fn);
	if (e)
		return e;
	memset(c, 0, sizeof(*c));
	c->func = fn;
	c->gridDimX = p->gridDim.x;
	c->gridDimY = p->gridDim.y;
	c->gridDimZ = p->gridDim.z;
	c->blockDimX = p->blockDim.x;
	c->blockDimY = p->blockDim.y;
	c->blockDimZ = p->blockDim.z;
	c->sharedMemBytes = p->sharedMemBytes;
	c->kernelParams = p->kernelParams;
	c->extra = p->extra;
	return cudaSuccess;
}

void rt_memset_node_desc(const struct cudaMemsetParams *p,
			 CUDA_MEMSET_NODE_PARAMS *c)
{
	memset(c, 0, sizeof(*c));
	c->dst = (CUdeviceptr)(uintptr_t)p->dst;
	c->pitch = p->pitch;
	c->value = p->value;
	c->elementSize = p->elementSize;
	c->width = p->width;
	c->height = p->height;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *node, cudaGraph_t graph,
				   const cudaGraphNode_t *deps, size_t ndeps,
				   const struct cudaKernelNodeParams *p)
{
	CUDA_KERNEL_NODE_PARAMS c;
	cudaError_t e;

	if (!node)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_kernel_node_desc(p, &c);
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphAddKernelNode((CUgraphNode *)node,
					      (CUgraph)graph,
					      (const CUgraphNode *)deps, ndeps,
					      &c));
}

cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t node,
					 struct cudaKernelNodeParams *p)
{
	CUDA_KERNEL_NODE_PARAMS c;
	cudaError_t e;

	if (!p)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuGraphKernelNodeGetParams((CUgraphNode)node, &c));
	if (e)
		return rt_ret(e);
	p->func = (void *)rt_stub_of(c.func);
	p->gridDim = (dim3){ c.gridDimX, c.gridDimY, c.gridDimZ };
	p->blockDim = (dim3){ c.blockDimX, c.blockDimY, c.blockDimZ };
	p->sharedMemBytes = c.sharedMemBytes;
	p->kernelParams = c.kernelParams;
	p->extra = c.extra;
	return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t node,
					 const struct cudaKernelNodeParams *p)
{
	CUDA_KERNEL_NODE_PARAMS c;
	cudaError_t e = rt_kernel_node_desc(p, &c);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphKernelNodeSetParams((CUgraphNode)node, &c));
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *node, cudaGraph_t graph,
				   const cudaGraphNode_t *deps, size_t ndeps,
				   const struct cudaMemsetParams *p)
{
	CUDA_MEMSET_NODE_PARAMS c;
	CUcontext ctx = NULL;
	cudaError_t e;

	if (!node || !p)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuCtxGetCurrent(&ctx));
	if (e)
		return rt_ret(e);
	rt_memset_node_desc(p, &c);
	return rt_ret_cu(cuGraphAddMemsetNode((CUgraphNode *)node,
					      (CUgraph)graph,
					      (const CUgraphNode *)deps, ndeps,
					      &c, ctx));
}

cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t node,
					 struct cudaMemsetParams *p)
{
	CUDA_MEMSET_NODE_PARAMS c;
	cudaError_t e;

	if (!p)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuGraphMemsetNodeGetParams((CUgraphNode)node, &c));
	if (e)
		return rt_ret(e);
	p->dst = (void *)(uintptr_t)c.dst;
	p->pitch = c.pitch;
	p->value = c.value;
	p->elementSize = c.elementSize;
	p->width = c.width;
	p->height = c.height;
	return cudaSuccess;
}

cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t node,
					 const struct cudaMemsetParams *p)
{
	CUDA_MEMSET_NODE_PARAMS c;
	cudaError_t e;

	if (!p)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	rt_memset_node_desc(p, &c);
	return rt_ret_cu(cuGraphMemsetNodeSetParams((CUgraphNode)node, &c));
}

/* cudaHostFn_t is the driver's CUhostFn. */
cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *node, cudaGraph_t graph,
				 const cudaGraphNode_t *deps, size_t ndeps,
				 const struct cudaHostNodeParams *p)
{
	CUDA_HOST_NODE_PARAMS c;
	cudaError_t e;

	if (!node || !p)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	c = (CUDA_HOST_NODE_PARAMS){ p->fn, p->userData };
	return rt_ret_cu(cuGraphAddHostNode((CUgraphNode *)node,
					    (CUgraph)graph,
					    (const CUgraphNode *)deps, ndeps,
					    &c));
}

cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t node,
				       struct cudaHostNodeParams *p)
{
	CUDA_HOST_NODE_PARAMS c;
	cudaError_t e;

	if (!p)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuGraphHostNodeGetParams((CUgraphNode)node, &c));
	if (e)
		return rt_ret(e);
	p->fn = c.fn;
	p->userData = c.userData;
	return cudaSuccess;
}

cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t node,
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
	return rt_ret_cu(cuGraphHostNodeSetParams((CUgraphNode)node, &c));
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *node, cudaGraph_t graph,
				  const cudaGraphNode_t *deps, size_t ndeps)
{
	cudaError_t e;

	if (!node)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphAddEmptyNode((CUgraphNode *)node,
					     (CUgraph)graph,
					     (const CUgraphNode *)deps, ndeps));
}

/* The node holds a clone of @child, as the driver's does. */
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *node,
				       cudaGraph_t graph,
				       const cudaGraphNode_t *deps,
				       size_t ndeps, cudaGraph_t child)
{
	cudaError_t e;

	if (!node)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphAddChildGraphNode((CUgraphNode *)node,
						  (CUgraph)graph,
						  (const CUgraphNode *)deps,
						  ndeps, (CUgraph)child));
}

cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node,
					    cudaGraph_t *graph)
{
	cudaError_t e;

	if (!graph)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphChildGraphNodeGetGraph((CUgraphNode)node,
						       (CUgraph *)graph));
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *node,
					cudaGraph_t graph,
					const cudaGraphNode_t *deps,
					size_t ndeps, cudaEvent_t event)
{
	cudaError_t e;

	if (!node)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphAddEventRecordNode((CUgraphNode *)node,
						   (CUgraph)graph,
						   (const CUgraphNode *)deps,
						   ndeps, (CUevent)event));
}

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node,
					     cudaEvent_t *event)
{
	cudaError_t e;

	if (!event)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphEventRecordNodeGetEvent((CUgraphNode)node,
							(CUevent *)event));
}

cudaError_t cudaGraphEventRecordNodeSetEvent(cudaGraphNode_t node,
					     cudaEvent_t event)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphEventRecordNodeSetEvent((CUgraphNode)node,
							(CUevent)event));
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *node,
				      cudaGraph_t graph,
				      const cudaGraphNode_t *deps,
				      size_t ndeps, cudaEvent_t event)
{
	cudaError_t e;

	if (!node)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphAddEventWaitNode((CUgraphNode *)node,
						 (CUgraph)graph,
						 (const CUgraphNode *)deps,
						 ndeps, (CUevent)event));
}

cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node,
					   cudaEvent_t *event)
{
	cudaError_t e;

	if (!event)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphEventWaitNodeGetEvent((CUgraphNode)node,
						      (CUevent *)event));
}

cudaError_t cudaGraphEventWaitNodeSetEvent(cudaGraphNode_t node,
					   cudaEvent_t event)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphEventWaitNodeSetEvent((CUgraphNode)node,
						      (CUevent)event));
}
