// SPDX-License-Identifier: MIT
/*
 * A graph's shape (graph.h): dependency edges added and removed, the
 * queries of nodes, roots and edges, node removal, clones and finding a
 * node in a clone. A query with a NULL array answers the count; with an
 * array of *count entries, it fills as many as there are of them, sets the
 * rest to NULL and says how many it filled, as an H200 answered
 * (tests/samples/rt/ref/h100_rt_graph.log): a short array is filled whole
 * and its length kept (the _v2 calls also give each edge's data).
 */

#include <stdlib.h>
#include <string.h>

#include "graph.h"

/* The macros of cuda.h would rename these definitions. */
#undef cuGraphAddDependencies
#undef cuGraphRemoveDependencies
#undef cuGraphGetEdges
#undef cuGraphNodeGetDependencies
#undef cuGraphNodeGetDependentNodes

/* The count a query answers: all there are, or what fit in the array. */
static size_t vg_filled(size_t n, size_t count, bool array)
{
	return array && count < n ? count : n;
}

static bool vg_edge_exists(const struct CUgraphNode_st *from, const struct CUgraphNode_st *to)
{
	size_t i;

	for (i = 0; i < to->nin; i++)
		if (to->in[i].from == from)
			return true;
	return false;
}

static CUresult vg_deps_add(CUgraph h, const CUgraphNode *from, const CUgraphNode *to,
			    const CUgraphEdgeData *edata, size_t n)
{
	struct CUgraph_st *g;
	CUresult r = CUDA_SUCCESS;
	size_t i, j;

	if (n && (!from || !to))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	g = vg_graph_get(h);
	if (!g)
		r = CUDA_ERROR_INVALID_VALUE;
	/* All checked before any is added. */
	for (i = 0; !r && i < n; i++) {
		struct CUgraphNode_st *a = vg_node_get(from[i]), *b = vg_node_get(to[i]);

		if (!a || !b || a == b || a->graph != g || b->graph != g ||
		    vg_edge_exists(a, b) || !vg_edge_data_ok(edata ? &edata[i] : NULL))
			r = CUDA_ERROR_INVALID_VALUE;
		for (j = 0; !r && j < i; j++)
			if (from[j] == from[i] && to[j] == to[i])
				r = CUDA_ERROR_INVALID_VALUE;
	}
	for (i = 0; !r && i < n; i++)
		r = vg_edge_add(from[i], to[i], edata ? &edata[i] : NULL);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

CUresult cuGraphAddDependencies(CUgraph h, const CUgraphNode *from, const CUgraphNode *to,
				size_t n)
{
	return vg_deps_add(h, from, to, NULL, n);
}

CUresult cuGraphAddDependencies_v2(CUgraph h, const CUgraphNode *from, const CUgraphNode *to,
				   const CUgraphEdgeData *edata, size_t n)
{
	return vg_deps_add(h, from, to, edata, n);
}

static CUresult vg_deps_remove(CUgraph h, const CUgraphNode *from, const CUgraphNode *to,
			       const CUgraphEdgeData *edata, size_t n)
{
	struct CUgraph_st *g;
	CUresult r = CUDA_SUCCESS;
	size_t i;

	if (n && (!from || !to))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	g = vg_graph_get(h);
	if (!g)
		r = CUDA_ERROR_INVALID_VALUE;
	for (i = 0; !r && i < n; i++) {
		struct CUgraphNode_st *a = vg_node_get(from[i]), *b = vg_node_get(to[i]);

		if (!a || !b || a->graph != g || b->graph != g || !vg_edge_exists(a, b) ||
		    !vg_edge_data_ok(edata ? &edata[i] : NULL))
			r = CUDA_ERROR_INVALID_VALUE;
	}
	for (i = 0; !r && i < n; i++)
		vg_edge_del(from[i], to[i]);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

CUresult cuGraphRemoveDependencies(CUgraph h, const CUgraphNode *from, const CUgraphNode *to,
				   size_t n)
{
	return vg_deps_remove(h, from, to, NULL, n);
}

CUresult cuGraphRemoveDependencies_v2(CUgraph h, const CUgraphNode *from,
				      const CUgraphNode *to, const CUgraphEdgeData *edata,
				      size_t n)
{
	return vg_deps_remove(h, from, to, edata, n);
}

/* Fills @out (when given) with the nodes of @g for which @want says yes. */
static CUresult vg_nodes(CUgraph h, CUgraphNode *out, size_t *count, bool roots)
{
	struct CUgraph_st *g;
	size_t i, n = 0;

	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	g = vg_graph_get(h);
	for (i = 0; g && i < g->nnodes; i++) {
		if (roots && g->nodes[i]->nin)
			continue;
		if (out && n < *count)
			out[n] = g->nodes[i];
		n++;
	}
	pthread_mutex_unlock(&vg_graph_lock);
	if (!g)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = n; out && i < *count; i++)
		out[i] = NULL;
	*count = vg_filled(n, *count, out);
	return CUDA_SUCCESS;
}

CUresult cuGraphGetNodes(CUgraph h, CUgraphNode *out, size_t *count)
{
	return vg_nodes(h, out, count, false);
}

CUresult cuGraphGetRootNodes(CUgraph h, CUgraphNode *out, size_t *count)
{
	return vg_nodes(h, out, count, true);
}

/* The edges of @g, by node then by each node's dependencies in order. */
static CUresult vg_edges(CUgraph h, CUgraphNode *from, CUgraphNode *to,
			 CUgraphEdgeData *edata, size_t *count)
{
	struct CUgraph_st *g;
	size_t i, j, n = 0;

	if (!count || (!from) != (!to) || (edata && !from))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	g = vg_graph_get(h);
	for (i = 0; g && i < g->nnodes; i++) {
		const struct CUgraphNode_st *b = g->nodes[i];

		for (j = 0; j < b->nin; j++, n++) {
			if (!from || n >= *count)
				continue;
			from[n] = b->in[j].from;
			to[n] = (CUgraphNode)b;
			if (edata)
				edata[n] = b->in[j].data;
		}
	}
	pthread_mutex_unlock(&vg_graph_lock);
	if (!g)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = n; from && i < *count; i++) {
		from[i] = to[i] = NULL;
		if (edata)
			memset(&edata[i], 0, sizeof(edata[i]));
	}
	*count = vg_filled(n, *count, from);
	return CUDA_SUCCESS;
}

CUresult cuGraphGetEdges(CUgraph h, CUgraphNode *from, CUgraphNode *to, size_t *count)
{
	return vg_edges(h, from, to, NULL, count);
}

CUresult cuGraphGetEdges_v2(CUgraph h, CUgraphNode *from, CUgraphNode *to,
			    CUgraphEdgeData *edata, size_t *count)
{
	return vg_edges(h, from, to, edata, count);
}

/* A node's dependencies (@in) or dependents, with each edge's data. */
static CUresult vg_links(CUgraphNode h, CUgraphNode *out, CUgraphEdgeData *edata,
			 size_t *count, bool in)
{
	struct CUgraphNode_st *node;
	size_t i, n = 0;

	if (!count || (edata && !out))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	node = vg_node_get(h);
	if (node)
		n = in ? node->nin : node->nout;
	for (i = 0; node && out && i < n && i < *count; i++) {
		const struct CUgraphNode_st *o = in ? NULL : node->out[i];
		size_t k;

		out[i] = in ? node->in[i].from : node->out[i];
		if (!edata)
			continue;
		if (in) {
			edata[i] = node->in[i].data;
			continue;
		}
		for (k = 0; o->in[k].from != node; k++)
			;
		edata[i] = o->in[k].data;
	}
	pthread_mutex_unlock(&vg_graph_lock);
	if (!node)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = n; out && i < *count; i++) {
		out[i] = NULL;
		if (edata)
			memset(&edata[i], 0, sizeof(edata[i]));
	}
	*count = vg_filled(n, *count, out);
	return CUDA_SUCCESS;
}

CUresult cuGraphNodeGetDependencies(CUgraphNode h, CUgraphNode *out, size_t *count)
{
	return vg_links(h, out, NULL, count, true);
}

CUresult cuGraphNodeGetDependencies_v2(CUgraphNode h, CUgraphNode *out,
				       CUgraphEdgeData *edata, size_t *count)
{
	return vg_links(h, out, edata, count, true);
}

CUresult cuGraphNodeGetDependentNodes(CUgraphNode h, CUgraphNode *out, size_t *count)
{
	return vg_links(h, out, NULL, count, false);
}

CUresult cuGraphNodeGetDependentNodes_v2(CUgraphNode h, CUgraphNode *out,
					 CUgraphEdgeData *edata, size_t *count)
{
	return vg_links(h, out, edata, count, false);
}

CUresult cuGraphNodeGetType(CUgraphNode h, CUgraphNodeType *type)
{
	struct CUgraphNode_st *n;

	if (!type)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_node_get(h);
	if (n)
		*type = n->type;
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphDestroyNode(CUgraphNode h)
{
	struct CUgraphNode_st *n;

	pthread_mutex_lock(&vg_graph_lock);
	n = vg_node_get(h);
	if (n)
		vg_node_destroy(n);
	pthread_mutex_unlock(&vg_graph_lock);
	vg_graph_mem_reap();
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphClone(CUgraph *out, CUgraph h)
{
	struct CUgraph_st *g, *c = NULL;

	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	g = vg_graph_get(h);
	if (g)
		c = vg_graph_clone(g);
	pthread_mutex_unlock(&vg_graph_lock);
	if (!g)
		return CUDA_ERROR_INVALID_VALUE;
	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*out = c;
	return CUDA_SUCCESS;
}

CUresult cuGraphNodeFindInClone(CUgraphNode *out, CUgraphNode orig, CUgraph clone)
{
	struct CUgraphNode_st *o;
	struct CUgraph_st *c;
	size_t i;
	CUresult r = CUDA_ERROR_INVALID_VALUE;

	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	o = vg_node_get(orig);
	c = vg_graph_get(clone);
	for (i = 0; o && c && c->origin == o->graph && i < c->nnodes; i++) {
		if (c->nodes[i]->origin == o) {
			*out = c->nodes[i];
			r = CUDA_SUCCESS;
			break;
		}
	}
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}
