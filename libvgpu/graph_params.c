// SPDX-License-Identifier: MIT
/*
 * cuGraphNodeSetParams and cuGraphExecNodeSetParams: a node's parameters
 * from the one union every type shares, set as the type's own call sets
 * them, as NVIDIA's driver answered (tests/e2e/ref/h200_graph_dot.log).
 * The union must name the node's type. Kernel, copy, fill, host and event
 * nodes take new parameters, an empty node has none to take, a child
 * graph node takes a copy of the graph given in place of its own (in an
 * executable graph, the parameters of a graph of its shape); memory
 * nodes are not supported, a conditional node's parameters are fixed.
 */
#include "graph.h"

/* The macros of cuda.h would rename these definitions. */
#undef cuGraphKernelNodeSetParams
#undef cuGraphExecKernelNodeSetParams

/* @h's type, or -1 for no node. */
static int vg_params_type(CUgraphNode h)
{
	struct CUgraphNode_st *n;
	int type;

	pthread_mutex_lock(&vg_graph_lock);
	n = vg_node_get(h);
	type = n ? (int)n->type : -1;
	pthread_mutex_unlock(&vg_graph_lock);
	return type;
}

static bool vg_params_ok(CUgraphNode h, const CUgraphNodeParams *p)
{
	return p && !p->reserved0[0] && !p->reserved0[1] && !p->reserved0[2] &&
	       !p->reserved2 && vg_params_type(h) == (int)p->type;
}

/* Child graph node @h's graph becomes a copy of @child. */
static CUresult vg_child_set(CUgraphNode h, CUgraph child)
{
	struct CUgraphNode_st *n;
	struct CUgraph_st *c, *copy = NULL, *old = NULL;
	CUresult r = CUDA_ERROR_INVALID_VALUE;

	pthread_mutex_lock(&vg_graph_lock);
	n = vg_node_get(h);
	c = vg_graph_get(child);
	if (n && n->type == CU_GRAPH_NODE_TYPE_GRAPH && c && c != n->graph) {
		copy = vg_graph_clone(c);
		r = copy ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (copy) {
		old = n->p.child;
		copy->owner = n;
		n->p.child = copy;
		vg_graph_free(old);
	}
	pthread_mutex_unlock(&vg_graph_lock);
	vg_graph_mem_reap();
	return r;
}

static CUresult vg_params_other(CUgraphNodeType type)
{
	switch (type) {
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return CUDA_SUCCESS;
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		return CUDA_ERROR_NOT_SUPPORTED;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUresult cuGraphNodeSetParams(CUgraphNode h, CUgraphNodeParams *p)
{
	CUDA_KERNEL_NODE_PARAMS kp;
	CUDA_MEMSET_NODE_PARAMS mp;
	CUDA_HOST_NODE_PARAMS hp;

	if (!vg_params_ok(h, p))
		return CUDA_ERROR_INVALID_VALUE;
	switch (p->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		vg_kernel_params_of(p, &kp);
		return cuGraphKernelNodeSetParams_v2(h, &kp);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		if (p->memcpy.flags || p->memcpy.reserved)
			return CUDA_ERROR_INVALID_VALUE;
		return cuGraphMemcpyNodeSetParams(h, &p->memcpy.copyParams);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		vg_memset_params_of(p, &mp);
		return cuGraphMemsetNodeSetParams(h, &mp);
	case CU_GRAPH_NODE_TYPE_HOST:
		hp = (CUDA_HOST_NODE_PARAMS){ p->host.fn, p->host.userData };
		return cuGraphHostNodeSetParams(h, &hp);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return cuGraphEventRecordNodeSetEvent(h, p->eventRecord.event);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return cuGraphEventWaitNodeSetEvent(h, p->eventWait.event);
	case CU_GRAPH_NODE_TYPE_GRAPH:
		return vg_child_set(h, p->graph.graph);
	case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
		return cuGraphBatchMemOpNodeSetParams(h, (CUDA_BATCH_MEM_OP_NODE_PARAMS *)&p->memOp);
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
		return cuGraphExternalSemaphoresSignalNodeSetParams(h,
				(CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)&p->extSemSignal);
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		return cuGraphExternalSemaphoresWaitNodeSetParams(h,
				(CUDA_EXT_SEM_WAIT_NODE_PARAMS *)&p->extSemWait);
	default:
		return vg_params_other(p->type);
	}
}

CUresult cuGraphExecNodeSetParams(CUgraphExec e, CUgraphNode h, CUgraphNodeParams *p)
{
	CUDA_KERNEL_NODE_PARAMS kp;
	CUDA_MEMSET_NODE_PARAMS mp;
	CUDA_HOST_NODE_PARAMS hp;

	if (!vg_params_ok(h, p))
		return CUDA_ERROR_INVALID_VALUE;
	switch (p->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		vg_kernel_params_of(p, &kp);
		return cuGraphExecKernelNodeSetParams_v2(e, h, &kp);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		if (p->memcpy.flags || p->memcpy.reserved)
			return CUDA_ERROR_INVALID_VALUE;
		return cuGraphExecMemcpyNodeSetParams(e, h, &p->memcpy.copyParams,
						      p->memcpy.copyCtx);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		vg_memset_params_of(p, &mp);
		return cuGraphExecMemsetNodeSetParams(e, h, &mp, p->memset.ctx);
	case CU_GRAPH_NODE_TYPE_HOST:
		hp = (CUDA_HOST_NODE_PARAMS){ p->host.fn, p->host.userData };
		return cuGraphExecHostNodeSetParams(e, h, &hp);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return cuGraphExecEventRecordNodeSetEvent(e, h, p->eventRecord.event);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return cuGraphExecEventWaitNodeSetEvent(e, h, p->eventWait.event);
	case CU_GRAPH_NODE_TYPE_GRAPH:
		return cuGraphExecChildGraphNodeSetParams(e, h, p->graph.graph);
	case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
		return cuGraphExecBatchMemOpNodeSetParams(e, h,
							  (CUDA_BATCH_MEM_OP_NODE_PARAMS *)&p->memOp);
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
		return cuGraphExecExternalSemaphoresSignalNodeSetParams(e, h,
				(CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)&p->extSemSignal);
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		return cuGraphExecExternalSemaphoresWaitNodeSetParams(e, h,
				(CUDA_EXT_SEM_WAIT_NODE_PARAMS *)&p->extSemWait);
	default:
		return vg_params_other(p->type);
	}
}
