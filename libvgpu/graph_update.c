// SPDX-License-Identifier: MIT
/*
 * cuGraphExecUpdate: an executable graph takes the parameters of another
 * graph of the same shape. Nodes are matched in the order they were
 * added; the update fails, changing nothing, when the counts differ
 * (topology changed, no error node), when a node's type differs (that
 * node) or when a node's dependencies differ (that node), as NVIDIA's
 * driver answered (tests/e2e/ref/h200_capture.log), and when an external
 * semaphore node's number of semaphores differs (parameters changed,
 * h200_extsem.log). A kernel node may change its function.
 */
#include <stdlib.h>
#include <string.h>

#include "graph.h"

#undef cuGraphExecUpdate

/* Whether @a and @b depend on the nodes of the same positions (marks). */
static bool vg_same_deps(const struct CUgraphNode_st *a, const struct CUgraphNode_st *b)
{
	size_t i, j;

	if (a->nin != b->nin)
		return false;
	for (i = 0; i < a->nin; i++) {
		for (j = 0; j < b->nin; j++)
			if (a->in[i].from->mark == b->in[j].from->mark)
				break;
		if (j == b->nin)
			return false;
	}
	return true;
}

/*
 * Compares @to (the executable's copy) with @from; the CU_GRAPH_EXEC_UPDATE_*
 * result, with the node of @from at fault in *@err.
 */
static CUgraphExecUpdateResult vg_update_check(struct CUgraph_st *to, struct CUgraph_st *from,
					       struct CUgraphNode_st **err)
{
	size_t i;

	*err = NULL;
	if (to->nnodes != from->nnodes)
		return CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
	for (i = 0; i < to->nnodes; i++) {
		to->nodes[i]->mark = i;
		from->nodes[i]->mark = i;
	}
	for (i = 0; i < to->nnodes; i++) {
		if (to->nodes[i]->type != from->nodes[i]->type) {
			*err = from->nodes[i];
			return CU_GRAPH_EXEC_UPDATE_ERROR_NODE_TYPE_CHANGED;
		}
	}
	for (i = 0; i < to->nnodes; i++) {
		if (!vg_same_deps(to->nodes[i], from->nodes[i])) {
			*err = from->nodes[i];
			return CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED;
		}
	}
	/* A semaphore node keeps its number of semaphores. */
	for (i = 0; i < to->nnodes; i++) {
		if ((to->nodes[i]->type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL ||
		     to->nodes[i]->type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT) &&
		    to->nodes[i]->p.sems.count != from->nodes[i]->p.sems.count) {
			*err = from->nodes[i];
			return CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED;
		}
	}
	return CU_GRAPH_EXEC_UPDATE_SUCCESS;
}

/* Copies every node's parameters of @from into @to (checked alike). */
static CUresult vg_update_apply(struct CUgraph_st *to, struct CUgraph_st *from)
{
	size_t i;

	for (i = 0; i < to->nnodes; i++) {
		struct CUgraphNode_st *t = to->nodes[i], *f = from->nodes[i];
		struct CUgraphNode_st fresh = { .type = f->type };

		if (vg_node_params_copy(&fresh, f))
			return CUDA_ERROR_OUT_OF_MEMORY;
		vg_node_params_free(t);
		t->p = fresh.p;
		t->ctx = fresh.ctx;
		t->updated = f;
		if (t->type == CU_GRAPH_NODE_TYPE_GRAPH)
			t->p.child->owner = t;
	}
	return CUDA_SUCCESS;
}

static CUresult vg_update(CUgraphExec h, CUgraph hg, CUgraphExecUpdateResultInfo *info)
{
	struct CUgraphNode_st *err = NULL;
	struct CUgraph_st *from, *to;
	CUgraphExecUpdateResult res = CU_GRAPH_EXEC_UPDATE_ERROR;
	CUresult r = CUDA_ERROR_INVALID_VALUE;

	pthread_mutex_lock(&vg_graph_lock);
	to = vg_exec_graph(h);
	from = vg_graph_get(hg);
	if (to && from) {
		res = vg_update_check(to, from, &err);
		r = res ? CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE : vg_update_apply(to, from);
		if (!r)
			to->updated = from;
	}
	pthread_mutex_unlock(&vg_graph_lock);
	if (info) {
		info->result = res;
		info->errorNode = err;
		info->errorFromNode = NULL;
	}
	return r;
}

/*
 * A child graph node of an executable graph takes the parameters of
 * @child, a graph of its graph's shape (cuGraphExecUpdate's rules).
 */
CUresult cuGraphExecChildGraphNodeSetParams(CUgraphExec h, CUgraphNode node, CUgraph child)
{
	struct CUgraphNode_st *n, *err;
	struct CUgraph_st *from;
	CUresult r = CUDA_ERROR_INVALID_VALUE;

	pthread_mutex_lock(&vg_graph_lock);
	n = vg_exec_typed(h, node, CU_GRAPH_NODE_TYPE_GRAPH);
	from = vg_graph_get(child);
	if (n && from && from != n->p.child &&
	    vg_update_check(n->p.child, from, &err) == CU_GRAPH_EXEC_UPDATE_SUCCESS)
		r = vg_update_apply(n->p.child, from);
	pthread_mutex_unlock(&vg_graph_lock);
	vg_graph_mem_reap();
	return r;
}

CUresult cuGraphExecUpdate_v2(CUgraphExec h, CUgraph g, CUgraphExecUpdateResultInfo *info)
{
	CUresult r = vg_update(h, g, info);

	/* Memory the executable graph's old nodes held. */
	vg_graph_mem_reap();
	return r;
}

/* CUDA 11's form: the result and the node at fault apart. */
CUresult cuGraphExecUpdate(CUgraphExec h, CUgraph g, CUgraphNode *err_node,
			   CUgraphExecUpdateResult *result)
{
	CUgraphExecUpdateResultInfo info;
	CUresult r = vg_update(h, g, &info);

	vg_graph_mem_reap();
	if (err_node)
		*err_node = info.errorNode;
	if (result)
		*result = info.result;
	return r;
}
