// SPDX-License-Identifier: MIT
/*
 * Memory nodes' parameters, read back: the driver's nodes (stream capture
 * makes them of cudaMallocAsync and cudaFreeAsync), field by field into
 * the runtime's structs.
 */
#include <string.h>

#include "rt.h"

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
