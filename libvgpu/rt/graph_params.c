// SPDX-License-Identifier: MIT
/*
 * Nodes of any type from one parameter union (cudaGraphNodeParams): each
 * type's parameters become the driver's, in the context current for the
 * call; adding and setting a node are then the driver's.
 */
#include <string.h>

#include "rt.h"

static cudaError_t rt_kernel_desc(const struct cudaKernelNodeParamsV2 *k,
				  CUDA_KERNEL_NODE_PARAMS_v3 *c)
{
	struct cudaKernelNodeParams p = {
		.func = k->func, .gridDim = k->gridDim,
		.blockDim = k->blockDim, .sharedMemBytes = k->sharedMemBytes,
		.kernelParams = k->kernelParams, .extra = k->extra,
	};
	CUDA_KERNEL_NODE_PARAMS v2;
	cudaError_t e = rt_kernel_node_desc(&p, &v2);

	*c = (CUDA_KERNEL_NODE_PARAMS_v3){
		.func = v2.func, .gridDimX = v2.gridDimX,
		.gridDimY = v2.gridDimY, .gridDimZ = v2.gridDimZ,
		.blockDimX = v2.blockDimX, .blockDimY = v2.blockDimY,
		.blockDimZ = v2.blockDimZ, .sharedMemBytes = v2.sharedMemBytes,
		.kernelParams = v2.kernelParams, .extra = v2.extra,
	};
	return e;
}

static cudaError_t rt_memcpy_desc(const struct cudaMemcpyNodeParams *m,
				  CUcontext ctx, CUDA_MEMCPY_NODE_PARAMS *c)
{
	if (m->reserved[0] || m->reserved[1] || m->reserved[2])
		return cudaErrorInvalidValue;
	c->flags = m->flags;
	c->copyCtx = ctx;
	return rt_memcpy_node_desc(&m->copyParams, &c->copyParams);
}

static void rt_memset_desc(const struct cudaMemsetParamsV2 *m, CUcontext ctx,
			   CUDA_MEMSET_NODE_PARAMS_v2 *c)
{
	struct cudaMemsetParams p = {
		.dst = m->dst, .pitch = m->pitch, .value = m->value,
		.elementSize = m->elementSize, .width = m->width,
		.height = m->height,
	};
	CUDA_MEMSET_NODE_PARAMS v1;

	rt_memset_node_desc(&p, &v1);
	*c = (CUDA_MEMSET_NODE_PARAMS_v2){
		.dst = v1.dst, .pitch = v1.pitch, .value = v1.value,
		.elementSize = v1.elementSize, .width = v1.width,
		.height = v1.height, .ctx = ctx,
	};
}

cudaError_t rt_node_params_desc(const struct cudaGraphNodeParams *p,
				CUgraphNodeParams *c)
{
	CUcontext ctx = NULL;
	cudaError_t e;

	if (!p)
		return cudaErrorInvalidValue;
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuCtxGetCurrent(&ctx));
	if (e)
		return e;
	memset(c, 0, sizeof(*c));
	/* cudaGraphNodeType's values are CUgraphNodeType's. */
	c->type = (CUgraphNodeType)p->type;
	memcpy(c->reserved0, p->reserved0, sizeof(c->reserved0));
	c->reserved2 = p->reserved2;
	switch (p->type) {
	case cudaGraphNodeTypeKernel:
		return rt_kernel_desc(&p->kernel, &c->kernel);
	case cudaGraphNodeTypeMemcpy:
		return rt_memcpy_desc(&p->memcpy, ctx, &c->memcpy);
	case cudaGraphNodeTypeMemset:
		rt_memset_desc(&p->memset, ctx, &c->memset);
		return cudaSuccess;
	case cudaGraphNodeTypeHost:
		c->host = (CUDA_HOST_NODE_PARAMS_v2){ p->host.fn,
						      p->host.userData };
		return cudaSuccess;
	case cudaGraphNodeTypeGraph:
		c->graph.graph = (CUgraph)p->graph.graph;
		c->graph.ownership =
			(CUgraphChildGraphNodeOwnership)p->graph.ownership;
		return cudaSuccess;
	case cudaGraphNodeTypeWaitEvent:
		c->eventWait.event = (CUevent)p->eventWait.event;
		return cudaSuccess;
	case cudaGraphNodeTypeEventRecord:
		c->eventRecord.event = (CUevent)p->eventRecord.event;
		return cudaSuccess;
	case cudaGraphNodeTypeConditional:
		c->conditional.handle = p->conditional.handle;
		c->conditional.type =
			(CUgraphConditionalNodeType)p->conditional.type;
		c->conditional.size = p->conditional.size;
		c->conditional.phGraph_out =
			(CUgraph *)p->conditional.phGraph_out;
		c->conditional.ctx = ctx;
		return cudaSuccess;
	default:
		/*
		 * The other types' runtime structs are laid out as the
		 * driver's; an unknown type goes on for the driver to refuse.
		 */
		memcpy(c->reserved1, p->reserved1, sizeof(c->reserved1));
		return cudaSuccess;
	}
}

cudaError_t cudaGraphAddNode(cudaGraphNode_t *node, cudaGraph_t graph,
			     const cudaGraphNode_t *deps,
			     const cudaGraphEdgeData *edata, size_t ndeps,
			     struct cudaGraphNodeParams *p)
{
	CUgraphNodeParams c;
	cudaError_t e;

	if (!node)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_node_params_desc(p, &c);
	if (e)
		return rt_ret(e);
	e = rt_error(cuGraphAddNode((CUgraphNode *)node, (CUgraph)graph,
				    (const CUgraphNode *)deps,
				    (const CUgraphEdgeData *)edata, ndeps, &c));
	if (e)
		return rt_ret(e);
	/* What the driver hands back through the parameters. */
	if (p->type == cudaGraphNodeTypeConditional)
		p->conditional.phGraph_out =
			(cudaGraph_t *)c.conditional.phGraph_out;
	else if (p->type == cudaGraphNodeTypeMemAlloc)
		p->alloc.dptr = (void *)(uintptr_t)c.alloc.dptr;
	return cudaSuccess;
}

cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node,
				   struct cudaGraphNodeParams *p)
{
	CUgraphNodeParams c;
	cudaError_t e = rt_node_params_desc(p, &c);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphNodeSetParams((CUgraphNode)node, &c));
}
