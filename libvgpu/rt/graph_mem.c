// SPDX-License-Identifier: MIT
/*
 * Memory nodes: made directly or by stream capture of cudaMallocAsync and
 * cudaFreeAsync; their parameters field by field between the runtime's
 * structs and the driver's.
 */
#include <string.h>

#include "rt.h"

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *node, cudaGraph_t graph,
				     const cudaGraphNode_t *deps, size_t ndeps,
				     struct cudaMemAllocNodeParams *p)
{
	CUDA_MEM_ALLOC_NODE_PARAMS c;
	cudaError_t e;

	if (!node || !p)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	memset(&c, 0, sizeof(c));
	c.poolProps.allocType = (CUmemAllocationType)p->poolProps.allocType;
	c.poolProps.handleTypes = (CUmemAllocationHandleType)p->poolProps.handleTypes;
	c.poolProps.location.type = (CUmemLocationType)p->poolProps.location.type;
	c.poolProps.location.id = p->poolProps.location.id;
	c.poolProps.maxSize = p->poolProps.maxSize;
	c.poolProps.usage = p->poolProps.usage;
	/* cudaMemAccessDesc is laid out as CUmemAccessDesc is. */
	c.accessDescs = (const CUmemAccessDesc *)p->accessDescs;
	c.accessDescCount = p->accessDescCount;
	c.bytesize = p->bytesize;
	e = rt_error(cuGraphAddMemAllocNode((CUgraphNode *)node, (CUgraph)graph,
					    (const CUgraphNode *)deps, ndeps, &c));
	if (e == cudaSuccess)
		p->dptr = (void *)(uintptr_t)c.dptr;
	return rt_ret(e);
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *node, cudaGraph_t graph,
				    const cudaGraphNode_t *deps, size_t ndeps,
				    void *dptr)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphAddMemFreeNode((CUgraphNode *)node, (CUgraph)graph,
					       (const CUgraphNode *)deps, ndeps,
					       (CUdeviceptr)(uintptr_t)dptr));
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node,
					   struct cudaMemAllocNodeParams *p)
{
	CUDA_MEM_ALLOC_NODE_PARAMS c;
	cudaError_t e;

	if (!p)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuGraphMemAllocNodeGetParams((CUgraphNode)node,
							  &c));
	if (e)
		return rt_ret(e);
	memset(p, 0, sizeof(*p));
	p->poolProps.allocType = (enum cudaMemAllocationType)
				 c.poolProps.allocType;
	p->poolProps.handleTypes = (enum cudaMemAllocationHandleType)
				   c.poolProps.handleTypes;
	p->poolProps.location.type = (enum cudaMemLocationType)
				     c.poolProps.location.type;
	p->poolProps.location.id = c.poolProps.location.id;
	p->poolProps.maxSize = c.poolProps.maxSize;
	p->poolProps.usage = c.poolProps.usage;
	/* cudaMemAccessDesc is laid out as CUmemAccessDesc is. */
	p->accessDescs = (const struct cudaMemAccessDesc *)c.accessDescs;
	p->accessDescCount = c.accessDescCount;
	p->bytesize = c.bytesize;
	p->dptr = (void *)(uintptr_t)c.dptr;
	return cudaSuccess;
}

cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr)
{
	CUdeviceptr p = 0;
	cudaError_t e;

	if (!dptr)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuGraphMemFreeNodeGetParams((CUgraphNode)node, &p));
	if (e)
		return rt_ret(e);
	*(void **)dptr = (void *)(uintptr_t)p;
	return cudaSuccess;
}
