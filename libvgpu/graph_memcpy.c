// SPDX-License-Identifier: MIT
/*
 * Memcpy nodes (graph.h): a CUDA_MEMCPY3D kept as given and replayed by
 * cuMemcpy3DAsync on the launch's stream, so a copy in a graph is checked
 * and done as the same copy on a stream is. Stream capture makes them of
 * the copies it captures. What is checked when the node is set: what the
 * copy's shape alone tells (memory types, a nonzero extent, the fields
 * that must be zero); the addresses are checked at each launch.
 */
#include "graph.h"

static bool vg_memtype_ok(CUmemorytype t)
{
	return t == CU_MEMORYTYPE_HOST || t == CU_MEMORYTYPE_DEVICE ||
	       t == CU_MEMORYTYPE_ARRAY || t == CU_MEMORYTYPE_UNIFIED;
}

bool vg_memcpy_params_ok(const CUDA_MEMCPY3D *p)
{
	return p && vg_memtype_ok(p->srcMemoryType) && vg_memtype_ok(p->dstMemoryType) &&
	       p->WidthInBytes && p->Height && p->Depth && !p->srcLOD && !p->dstLOD &&
	       !p->reserved0 && !p->reserved1;
}

CUresult cuGraphAddMemcpyNode(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
			      size_t ndeps, const CUDA_MEMCPY3D *p, CUcontext ctx)
{
	struct CUgraphNode_st *n;
	struct CUgraph_st *g;
	CUresult r;

	if (!out || !vg_memcpy_params_ok(p))
		return CUDA_ERROR_INVALID_VALUE;
	n = vg_node_alloc(CU_GRAPH_NODE_TYPE_MEMCPY);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	n->p.memcpy = *p;
	n->ctx = ctx;
	pthread_mutex_lock(&vg_graph_lock);
	g = vg_graph_get(h);
	if (!g) {
		vg_node_free(n);
		r = CUDA_ERROR_INVALID_VALUE;
	} else {
		r = vg_node_add(g, n, deps, NULL, ndeps);
	}
	if (!r)
		*out = n;
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

CUresult cuGraphMemcpyNodeGetParams(CUgraphNode h, CUDA_MEMCPY3D *p)
{
	struct CUgraphNode_st *n;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_node_get(h);
	if (n && n->type == CU_GRAPH_NODE_TYPE_MEMCPY)
		*p = n->p.memcpy;
	else
		n = NULL;
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphMemcpyNodeSetParams(CUgraphNode h, const CUDA_MEMCPY3D *p)
{
	struct CUgraphNode_st *n;

	if (!vg_memcpy_params_ok(p))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_node_get(h);
	if (n && n->type == CU_GRAPH_NODE_TYPE_MEMCPY)
		n->p.memcpy = *p;
	else
		n = NULL;
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
