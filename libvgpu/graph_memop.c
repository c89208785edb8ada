// SPDX-License-Identifier: MIT
/*
 * Batch memory operation nodes: a batch of stream memory operations
 * (memop.c) run as cuStreamBatchMemOp runs them. The node keeps its own
 * copy of the operations, checked as the stream call checks them; stream
 * capture makes one node of each batch, wait or write. What NVIDIA's
 * driver answered (tests/e2e/ref/h200_graph_memop.log): an empty batch is
 * a node; flags, a context, an operation or a batch of more than 255 that
 * the stream call refuses are invalid; the parameters read back name the
 * node's own array; an executable graph's node takes new operations but
 * not another number of them.
 */
#include <stdlib.h>
#include <string.h>

#include "graph.h"

CUresult vg_memop_node_set(struct vg_memop_node *m, const CUDA_BATCH_MEM_OP_NODE_PARAMS *p)
{
	CUstreamBatchMemOpParams *ops = NULL;
	CUresult r;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_memops_valid(p->ctx, p->count, p->paramArray, p->flags);
	if (r)
		return r;
	if (p->count) {
		ops = malloc(p->count * sizeof(*ops));
		if (!ops)
			return CUDA_ERROR_OUT_OF_MEMORY;
		memcpy(ops, p->paramArray, p->count * sizeof(*ops));
	}
	free(m->ops);
	*m = (struct vg_memop_node){ p->ctx, p->count, p->flags, ops };
	return CUDA_SUCCESS;
}

CUresult vg_memop_node_copy(struct vg_memop_node *to, const struct vg_memop_node *from)
{
	/* What was checked once is copied as it is: its context may be gone. */
	*to = (struct vg_memop_node){ from->ctx, 0, from->flags, NULL };
	if (!from->count)
		return CUDA_SUCCESS;
	to->ops = malloc(from->count * sizeof(*to->ops));
	if (!to->ops)
		return CUDA_ERROR_OUT_OF_MEMORY;
	memcpy(to->ops, from->ops, from->count * sizeof(*to->ops));
	to->count = from->count;
	return CUDA_SUCCESS;
}

CUresult cuGraphAddBatchMemOpNode(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
				  size_t ndeps, const CUDA_BATCH_MEM_OP_NODE_PARAMS *p)
{
	struct CUgraphNode_st *n;
	CUresult r;

	if (!out || !p || (ndeps && !deps))
		return CUDA_ERROR_INVALID_VALUE;
	n = vg_node_alloc(CU_GRAPH_NODE_TYPE_BATCH_MEM_OP);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = vg_memop_node_set(&n->p.memop, p);
	if (r) {
		vg_node_free(n);
		return r;
	}
	pthread_mutex_lock(&vg_graph_lock);
	r = vg_node_add_to(out, h, deps, NULL, ndeps, n);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

CUresult cuGraphBatchMemOpNodeGetParams(CUgraphNode h, CUDA_BATCH_MEM_OP_NODE_PARAMS *p)
{
	struct CUgraphNode_st *n;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_node_get(h);
	if (n && n->type == CU_GRAPH_NODE_TYPE_BATCH_MEM_OP) {
		p->ctx = n->p.memop.ctx;
		p->count = n->p.memop.count;
		p->paramArray = n->p.memop.ops;
		p->flags = n->p.memop.flags;
	} else {
		n = NULL;
	}
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* Node @h (or its copy in executable graph @e) takes @p's operations. */
static CUresult vg_memop_set(CUgraphExec e, CUgraphNode h, const CUDA_BATCH_MEM_OP_NODE_PARAMS *p)
{
	struct vg_memop_node m = { 0 };
	struct CUgraphNode_st *n;
	CUresult r = vg_memop_node_set(&m, p);

	if (r)
		return r;
	pthread_mutex_lock(&vg_graph_lock);
	if (e)
		n = vg_exec_typed(e, h, CU_GRAPH_NODE_TYPE_BATCH_MEM_OP);
	else
		n = vg_node_get(h);
	if (n && (n->type != CU_GRAPH_NODE_TYPE_BATCH_MEM_OP ||
		  (e && n->p.memop.count != m.count)))
		n = NULL;
	if (n) {
		free(n->p.memop.ops);
		n->p.memop = m;
		m.ops = NULL;
	}
	pthread_mutex_unlock(&vg_graph_lock);
	free(m.ops);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphBatchMemOpNodeSetParams(CUgraphNode h, const CUDA_BATCH_MEM_OP_NODE_PARAMS *p)
{
	return vg_memop_set(NULL, h, p);
}

CUresult cuGraphExecBatchMemOpNodeSetParams(CUgraphExec e, CUgraphNode h,
					    const CUDA_BATCH_MEM_OP_NODE_PARAMS *p)
{
	if (!e)
		return CUDA_ERROR_INVALID_VALUE;
	return vg_memop_set(e, h, p);
}
