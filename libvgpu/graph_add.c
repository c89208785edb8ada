// SPDX-License-Identifier: MIT
/*
 * cuGraphAddNode: any node type from one parameter union. Each type is
 * added as its own cuGraphAdd*Node adds it (conditional nodes, which have
 * no call of their own, through graph_cond.c). Dependencies may carry
 * edge data (the _v2 form); graphs here take only the default edge, as
 * cuGraphAddDependencies_v2 does.
 */
#include <string.h>

#include "graph.h"

/* The macros of cuda.h would rename these definitions. */
#undef cuGraphAddNode
#undef cuGraphAddKernelNode

void vg_kernel_params_of(const CUgraphNodeParams *p, CUDA_KERNEL_NODE_PARAMS *kp)
{
	memset(kp, 0, sizeof(*kp));
	kp->func = p->kernel.func;
	kp->gridDimX = p->kernel.gridDimX;
	kp->gridDimY = p->kernel.gridDimY;
	kp->gridDimZ = p->kernel.gridDimZ;
	kp->blockDimX = p->kernel.blockDimX;
	kp->blockDimY = p->kernel.blockDimY;
	kp->blockDimZ = p->kernel.blockDimZ;
	kp->sharedMemBytes = p->kernel.sharedMemBytes;
	kp->kernelParams = p->kernel.kernelParams;
	kp->extra = p->kernel.extra;
	kp->kern = p->kernel.kern;
	kp->ctx = p->kernel.ctx;
}

void vg_memset_params_of(const CUgraphNodeParams *p, CUDA_MEMSET_NODE_PARAMS *mp)
{
	*mp = (CUDA_MEMSET_NODE_PARAMS){
		.dst = p->memset.dst, .pitch = p->memset.pitch,
		.value = p->memset.value, .elementSize = p->memset.elementSize,
		.width = p->memset.width, .height = p->memset.height,
	};
}

static CUresult vg_add_typed(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
			     const CUgraphEdgeData *edata, size_t ndeps,
			     CUgraphNodeParams *p)
{
	CUDA_KERNEL_NODE_PARAMS kp;
	CUDA_MEMSET_NODE_PARAMS mp;
	CUDA_HOST_NODE_PARAMS hp;
	CUresult r;

	switch (p->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		vg_kernel_params_of(p, &kp);
		return cuGraphAddKernelNode_v2(out, h, deps, ndeps, &kp);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		if (p->memcpy.flags || p->memcpy.reserved)
			return CUDA_ERROR_INVALID_VALUE;
		return cuGraphAddMemcpyNode(out, h, deps, ndeps, &p->memcpy.copyParams,
					    p->memcpy.copyCtx);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		vg_memset_params_of(p, &mp);
		return cuGraphAddMemsetNode(out, h, deps, ndeps, &mp, p->memset.ctx);
	case CU_GRAPH_NODE_TYPE_HOST:
		hp = (CUDA_HOST_NODE_PARAMS){ p->host.fn, p->host.userData };
		return cuGraphAddHostNode(out, h, deps, ndeps, &hp);
	case CU_GRAPH_NODE_TYPE_GRAPH:
		/* Moving the graph into the node is not done here. */
		if (p->graph.ownership != CU_GRAPH_CHILD_GRAPH_OWNERSHIP_CLONE)
			return CUDA_ERROR_NOT_SUPPORTED;
		return cuGraphAddChildGraphNode(out, h, deps, ndeps, p->graph.graph);
	case CU_GRAPH_NODE_TYPE_EMPTY:
		return cuGraphAddEmptyNode(out, h, deps, ndeps);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return cuGraphAddEventWaitNode(out, h, deps, ndeps, p->eventWait.event);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return cuGraphAddEventRecordNode(out, h, deps, ndeps, p->eventRecord.event);
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		pthread_mutex_lock(&vg_graph_lock);
		r = vg_cond_add(out, h, deps, edata, ndeps, &p->conditional);
		pthread_mutex_unlock(&vg_graph_lock);
		return r;
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		/* The two versions of the parameters are laid out alike. */
		return cuGraphAddMemAllocNode(out, h, deps, ndeps,
					      (CUDA_MEM_ALLOC_NODE_PARAMS *)&p->alloc);
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		return cuGraphAddMemFreeNode(out, h, deps, ndeps, p->free.dptr);
	case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
		/* The two versions of the parameters are laid out alike. */
		return cuGraphAddBatchMemOpNode(out, h, deps, ndeps,
						(CUDA_BATCH_MEM_OP_NODE_PARAMS *)&p->memOp);
	/* The two versions of the parameters are laid out alike. */
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
		return cuGraphAddExternalSemaphoresSignalNode(out, h, deps, ndeps,
				(CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *)&p->extSemSignal);
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		return cuGraphAddExternalSemaphoresWaitNode(out, h, deps, ndeps,
				(CUDA_EXT_SEM_WAIT_NODE_PARAMS *)&p->extSemWait);
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}

CUresult cuGraphAddNode_v2(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
			   const CUgraphEdgeData *edata, size_t ndeps, CUgraphNodeParams *p)
{
	size_t i;

	if (!out || !p || (ndeps && !deps) || p->reserved0[0] || p->reserved0[1] ||
	    p->reserved0[2] || p->reserved2)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; edata && i < ndeps; i++)
		if (!vg_edge_data_ok(&edata[i]))
			return CUDA_ERROR_INVALID_VALUE;
	return vg_add_typed(out, h, deps, edata, ndeps, p);
}

CUresult cuGraphAddNode(CUgraphNode *out, CUgraph h, const CUgraphNode *deps, size_t ndeps,
			CUgraphNodeParams *p)
{
	return cuGraphAddNode_v2(out, h, deps, NULL, ndeps, p);
}
