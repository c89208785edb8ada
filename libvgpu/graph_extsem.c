// SPDX-License-Identifier: MIT
/*
 * External semaphore signal and wait nodes: a list of semaphores and
 * their parameters, signalled or waited for as the stream calls do
 * (extsem.c). The node keeps its own copy of both arrays. What NVIDIA's
 * driver answered (tests/e2e/ref/h200_extsem.log): a node may hold no
 * semaphore, though the stream calls refuse an empty list, and it does
 * nothing then; the parameters read back name the node's own arrays; an
 * executable graph's node takes new semaphores and values but not another
 * number of them, nor does cuGraphExecUpdate; stream capture makes one
 * node of each call.
 */
#include <stdlib.h>
#include <string.h>

#include "graph.h"

static size_t vg_sem_each(bool signal)
{
	return signal ? sizeof(CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS) :
		sizeof(CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS);
}

static CUgraphNodeType vg_sem_type(bool signal)
{
	return signal ? CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL : CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT;
}

CUresult vg_sem_node_set(struct vg_sem_node *m, const CUexternalSemaphore *sems,
			 const void *params, unsigned int n, bool signal)
{
	struct vg_sem_node fresh = { .count = n };
	CUresult r = vg_sem_ops_valid(sems, params, n, signal);

	if (r)
		return r;
	/* Never NULL, as NVIDIA's are not for an empty node either. */
	fresh.sems = calloc(n ? n : 1, sizeof(*sems));
	fresh.params = calloc(n ? n : 1, vg_sem_each(signal));
	if (!fresh.sems || !fresh.params) {
		vg_sem_node_free(&fresh);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (n) {
		memcpy(fresh.sems, sems, n * sizeof(*sems));
		memcpy(fresh.params, params, n * vg_sem_each(signal));
	}
	vg_sem_node_free(m);
	*m = fresh;
	return CUDA_SUCCESS;
}

CUresult vg_sem_node_copy(struct vg_sem_node *to, const struct vg_sem_node *from, bool signal)
{
	unsigned int n = from->count;

	/* What was checked once is copied as it is: a semaphore may be gone. */
	*to = (struct vg_sem_node){ .count = n };
	to->sems = malloc((n ? n : 1) * sizeof(*to->sems));
	to->params = malloc((n ? n : 1) * vg_sem_each(signal));
	if (!to->sems || !to->params) {
		vg_sem_node_free(to);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	memcpy(to->sems, from->sems, (n ? n : 1) * sizeof(*to->sems));
	memcpy(to->params, from->params, (n ? n : 1) * vg_sem_each(signal));
	return CUDA_SUCCESS;
}

void vg_sem_node_free(struct vg_sem_node *m)
{
	free(m->sems);
	free(m->params);
	*m = (struct vg_sem_node){ 0 };
}

CUresult vg_sem_node_run(const struct CUgraphNode_st *n, CUstream s)
{
	const struct vg_sem_node *m = &n->p.sems;

	if (!m->count)
		return CUDA_SUCCESS;
	return vg_sem_ops(s, m->sems, m->params, m->count,
			  n->type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL);
}

CUresult vg_sem_node_new(const CUexternalSemaphore *sems, const void *params,
			 unsigned int count, bool signal, struct CUgraphNode_st **out)
{
	struct CUgraphNode_st *n = vg_node_alloc(vg_sem_type(signal));
	CUresult r;

	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = vg_sem_node_set(&n->p.sems, sems, params, count, signal);
	if (r) {
		vg_node_free(n);
		return r;
	}
	*out = n;
	return CUDA_SUCCESS;
}

static CUresult vg_sem_add(CUgraphNode *out, CUgraph h, const CUgraphNode *deps, size_t ndeps,
			   const CUexternalSemaphore *sems, const void *params,
			   unsigned int count, bool signal)
{
	struct CUgraphNode_st *n;
	CUresult r = vg_sem_node_new(sems, params, count, signal, &n);

	if (r)
		return r;
	pthread_mutex_lock(&vg_graph_lock);
	r = vg_node_add_to(out, h, deps, NULL, ndeps, n);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

CUresult cuGraphAddExternalSemaphoresSignalNode(CUgraphNode *out, CUgraph h,
						const CUgraphNode *deps, size_t ndeps,
						const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *p)
{
	if (!out || !p || (ndeps && !deps))
		return CUDA_ERROR_INVALID_VALUE;
	return vg_sem_add(out, h, deps, ndeps, p->extSemArray, p->paramsArray, p->numExtSems,
			  true);
}

CUresult cuGraphAddExternalSemaphoresWaitNode(CUgraphNode *out, CUgraph h,
					      const CUgraphNode *deps, size_t ndeps,
					      const CUDA_EXT_SEM_WAIT_NODE_PARAMS *p)
{
	if (!out || !p || (ndeps && !deps))
		return CUDA_ERROR_INVALID_VALUE;
	return vg_sem_add(out, h, deps, ndeps, p->extSemArray, p->paramsArray, p->numExtSems,
			  false);
}

/* Node @h's arrays and count, if it is of the kind @signal says. */
static CUresult vg_sem_get(CUgraphNode h, bool signal, CUexternalSemaphore **sems,
			   const void **params, unsigned int *count)
{
	struct CUgraphNode_st *n;

	pthread_mutex_lock(&vg_graph_lock);
	n = vg_node_get(h);
	if (n && n->type == vg_sem_type(signal)) {
		*sems = n->p.sems.sems;
		*params = n->p.sems.params;
		*count = n->p.sems.count;
	} else {
		n = NULL;
	}
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphExternalSemaphoresSignalNodeGetParams(CUgraphNode h,
						      CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *p)
{
	const void *params;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	if (vg_sem_get(h, true, &p->extSemArray, &params, &p->numExtSems))
		return CUDA_ERROR_INVALID_VALUE;
	p->paramsArray = params;
	return CUDA_SUCCESS;
}

CUresult cuGraphExternalSemaphoresWaitNodeGetParams(CUgraphNode h,
						    CUDA_EXT_SEM_WAIT_NODE_PARAMS *p)
{
	const void *params;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	if (vg_sem_get(h, false, &p->extSemArray, &params, &p->numExtSems))
		return CUDA_ERROR_INVALID_VALUE;
	p->paramsArray = params;
	return CUDA_SUCCESS;
}

/* Node @h (or its copy in executable graph @e) takes new semaphores. */
static CUresult vg_sem_set(CUgraphExec e, CUgraphNode h, const CUexternalSemaphore *sems,
			   const void *params, unsigned int count, bool signal)
{
	struct vg_sem_node m = { 0 };
	struct CUgraphNode_st *n;
	CUresult r = vg_sem_node_set(&m, sems, params, count, signal);

	if (r)
		return r;
	pthread_mutex_lock(&vg_graph_lock);
	if (e)
		n = vg_exec_typed(e, h, vg_sem_type(signal));
	else
		n = vg_node_get(h);
	if (n && (n->type != vg_sem_type(signal) || (e && n->p.sems.count != m.count)))
		n = NULL;
	if (n) {
		vg_sem_node_free(&n->p.sems);
		n->p.sems = m;
		m = (struct vg_sem_node){ 0 };
	}
	pthread_mutex_unlock(&vg_graph_lock);
	vg_sem_node_free(&m);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphExternalSemaphoresSignalNodeSetParams(CUgraphNode h,
						      const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *p)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	return vg_sem_set(NULL, h, p->extSemArray, p->paramsArray, p->numExtSems, true);
}

CUresult cuGraphExternalSemaphoresWaitNodeSetParams(CUgraphNode h,
						    const CUDA_EXT_SEM_WAIT_NODE_PARAMS *p)
{
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	return vg_sem_set(NULL, h, p->extSemArray, p->paramsArray, p->numExtSems, false);
}

CUresult cuGraphExecExternalSemaphoresSignalNodeSetParams(CUgraphExec e, CUgraphNode h,
							  const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS *p)
{
	if (!e || !p)
		return CUDA_ERROR_INVALID_VALUE;
	return vg_sem_set(e, h, p->extSemArray, p->paramsArray, p->numExtSems, true);
}

CUresult cuGraphExecExternalSemaphoresWaitNodeSetParams(CUgraphExec e, CUgraphNode h,
							const CUDA_EXT_SEM_WAIT_NODE_PARAMS *p)
{
	if (!e || !p)
		return CUDA_ERROR_INVALID_VALUE;
	return vg_sem_set(e, h, p->extSemArray, p->paramsArray, p->numExtSems, false);
}
