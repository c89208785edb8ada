// SPDX-License-Identifier: MIT
/*
 * Graphs and their edges (graph.h): creating and destroying graphs and
 * nodes, dependency edges, the queries of a graph's shape, and clones.
 * NVIDIA's driver answers 1 (invalid value) for a NULL or unknown graph
 * or node, a dependency on a node of another graph, a duplicate edge or
 * an edge from a node to itself; a cycle is refused only when the graph
 * is instantiated.
 */
#include <stdlib.h>
#include <string.h>

#include "graph.h"

pthread_mutex_t vg_graph_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * The live handles: an open-addressing set of pointers, so that checking
 * a handle costs the same in a graph of a million nodes.
 */
static void **vg_handles;
static size_t vg_handles_cap, vg_handles_n, vg_handles_dead;
static unsigned int vg_graph_ids;

#define VG_TOMB ((void *)1)

static size_t vg_hash(const void *p, size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 17) & (cap - 1);
}

static bool vg_handle_has(const void *p)
{
	size_t i;

	if (!p || !vg_handles_cap)
		return false;
	for (i = vg_hash(p, vg_handles_cap); vg_handles[i]; i = (i + 1) & (vg_handles_cap - 1))
		if (vg_handles[i] == p)
			return true;
	return false;
}

static bool vg_handle_grow(void)
{
	size_t cap = vg_handles_cap ? vg_handles_cap * 2 : 64, i, j;
	void **t;

	/* Mostly tombstones: rehash at the same size. */
	if (vg_handles_cap && vg_handles_n < vg_handles_cap / 4)
		cap = vg_handles_cap;
	t = calloc(cap, sizeof(*t));
	if (!t)
		return false;
	for (i = 0; i < vg_handles_cap; i++) {
		if (!vg_handles[i] || vg_handles[i] == VG_TOMB)
			continue;
		for (j = vg_hash(vg_handles[i], cap); t[j]; j = (j + 1) & (cap - 1))
			;
		t[j] = vg_handles[i];
	}
	free(vg_handles);
	vg_handles = t;
	vg_handles_cap = cap;
	vg_handles_dead = 0;
	return true;
}

static bool vg_handle_add(void *p)
{
	size_t i;

	if ((vg_handles_n + vg_handles_dead + 1) * 2 > vg_handles_cap && !vg_handle_grow())
		return false;
	for (i = vg_hash(p, vg_handles_cap); vg_handles[i] && vg_handles[i] != VG_TOMB;
	     i = (i + 1) & (vg_handles_cap - 1))
		;
	if (vg_handles[i] == VG_TOMB)
		vg_handles_dead--;
	vg_handles[i] = p;
	vg_handles_n++;
	return true;
}

static void vg_handle_del(const void *p)
{
	size_t i;

	for (i = vg_hash(p, vg_handles_cap); vg_handles[i]; i = (i + 1) & (vg_handles_cap - 1)) {
		if (vg_handles[i] == p) {
			vg_handles[i] = VG_TOMB;
			vg_handles_n--;
			vg_handles_dead++;
			return;
		}
	}
}

struct CUgraph_st *vg_graph_get(CUgraph g)
{
	return vg_handle_has(g) && g->magic == VG_GRAPH_MAGIC ? g : NULL;
}

struct CUgraphNode_st *vg_node_get(CUgraphNode n)
{
	return vg_handle_has(n) && n->magic == VG_NODE_MAGIC ? n : NULL;
}

/*
 * cuGraphInstantiate takes two graph numbers on NVIDIA's driver (the
 * graphs cuGraphDebugDotPrint names next are numbered after both), the
 * executable's copy here only one: this is the other.
 */
void vg_graph_id_skip(void)
{
	vg_graph_ids++;
}

struct CUgraph_st *vg_graph_new(void)
{
	struct CUgraph_st *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	if (!vg_handle_add(g)) {
		free(g);
		return NULL;
	}
	g->magic = VG_GRAPH_MAGIC;
	g->id = ++vg_graph_ids;
	return g;
}

struct CUgraphNode_st *vg_node_alloc(CUgraphNodeType type)
{
	struct CUgraphNode_st *n = calloc(1, sizeof(*n));

	if (n) {
		n->magic = VG_NODE_MAGIC;
		n->type = type;
	}
	return n;
}

/* Frees a node that is in no graph (its edges already gone). */
void vg_node_free(struct CUgraphNode_st *n)
{
	vg_node_params_free(n);
	free(n->in);
	free(n->out);
	n->magic = 0;
	free(n);
}

static bool vg_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t c = *cap ? *cap : 4;
	void *q;

	if (need <= *cap)
		return true;
	while (c < need)
		c *= 2;
	q = realloc(*p, c * size);
	if (!q)
		return false;
	*p = q;
	*cap = c;
	return true;
}

/* Adds the edge @from -> @to; both in one graph, the edge new. */
CUresult vg_edge_add(struct CUgraphNode_st *from, struct CUgraphNode_st *to,
		     const CUgraphEdgeData *data)
{
	if (!vg_grow((void **)&to->in, &to->in_cap, to->nin + 1, sizeof(*to->in)) ||
	    !vg_grow((void **)&from->out, &from->out_cap, from->nout + 1, sizeof(*from->out)))
		return CUDA_ERROR_OUT_OF_MEMORY;
	to->in[to->nin].from = from;
	memset(&to->in[to->nin].data, 0, sizeof(to->in[to->nin].data));
	if (data)
		to->in[to->nin].data = *data;
	to->nin++;
	from->out[from->nout++] = to;
	return CUDA_SUCCESS;
}

void vg_edge_del(struct CUgraphNode_st *from, struct CUgraphNode_st *to)
{
	size_t i;

	for (i = 0; i < to->nin; i++) {
		if (to->in[i].from == from) {
			memmove(&to->in[i], &to->in[i + 1], (to->nin - i - 1) * sizeof(*to->in));
			to->nin--;
			break;
		}
	}
	for (i = 0; i < from->nout; i++) {
		if (from->out[i] == to) {
			memmove(&from->out[i], &from->out[i + 1],
				(from->nout - i - 1) * sizeof(*from->out));
			from->nout--;
			break;
		}
	}
}

/* Edge data NVIDIA accepts: default or programmatic, ports 0, reserved 0. */
bool vg_edge_data_ok(const CUgraphEdgeData *d)
{
	static const unsigned char zero[sizeof(d->reserved)];

	return !d || (d->type == CU_GRAPH_DEPENDENCY_TYPE_DEFAULT && !d->from_port &&
		      !d->to_port && !memcmp(d->reserved, zero, sizeof(zero)));
}

/*
 * Puts @n (new, its parameters set) into @g after @deps; on failure @n
 * is freed.
 */
CUresult vg_node_add(struct CUgraph_st *g, struct CUgraphNode_st *n,
		     const CUgraphNode *deps, const CUgraphEdgeData *edata,
		     size_t ndeps)
{
	CUresult r = CUDA_SUCCESS;
	size_t i, j;

	if (ndeps && !deps)
		r = CUDA_ERROR_INVALID_VALUE;
	for (i = 0; !r && i < ndeps; i++) {
		struct CUgraphNode_st *d = vg_node_get(deps[i]);

		if (!d || d->graph != g || !vg_edge_data_ok(edata ? &edata[i] : NULL))
			r = CUDA_ERROR_INVALID_VALUE;
		for (j = 0; !r && j < i; j++)
			if (deps[j] == deps[i])
				r = CUDA_ERROR_INVALID_VALUE;
	}
	if (!r && (!vg_grow((void **)&g->nodes, &g->cap, g->nnodes + 1, sizeof(*g->nodes)) ||
		   !vg_handle_add(n)))
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (r) {
		vg_node_free(n);
		return r;
	}
	n->graph = g;
	g->nodes[g->nnodes++] = n;
	for (i = 0; !r && i < ndeps; i++)
		r = vg_edge_add(deps[i], n, edata ? &edata[i] : NULL);
	if (r)
		vg_node_destroy(n);
	return r;
}

/* Takes @n out of its graph with its edges, and frees it. */
void vg_node_destroy(struct CUgraphNode_st *n)
{
	struct CUgraph_st *g = n->graph;
	size_t i;

	while (n->nin)
		vg_edge_del(n->in[n->nin - 1].from, n);
	while (n->nout)
		vg_edge_del(n, n->out[n->nout - 1]);
	for (i = 0; i < g->nnodes; i++) {
		if (g->nodes[i] == n) {
			memmove(&g->nodes[i], &g->nodes[i + 1],
				(g->nnodes - i - 1) * sizeof(*g->nodes));
			g->nnodes--;
			break;
		}
	}
	vg_handle_del(n);
	vg_node_free(n);
}

void vg_graph_free(struct CUgraph_st *g)
{
	size_t i;

	for (i = 0; i < g->nnodes; i++) {
		g->nodes[i]->nin = g->nodes[i]->nout = 0;
		vg_handle_del(g->nodes[i]);
		vg_node_free(g->nodes[i]);
	}
	free(g->nodes);
	vg_conds_drop(g);
	vg_user_drop(g, NULL);
	vg_handle_del(g);
	g->magic = 0;
	free(g);
}

/* @g's copy: its nodes in order, their parameters and edges; NULL: no memory. */
struct CUgraph_st *vg_graph_clone(const struct CUgraph_st *g)
{
	struct CUgraph_st *c = vg_graph_new();
	size_t i, j;

	if (!c)
		return NULL;
	c->origin = (struct CUgraph_st *)g;
	if (!vg_conds_share(c, g) || vg_user_copy(c, g))
		goto fail;
	for (i = 0; i < g->nnodes; i++) {
		const struct CUgraphNode_st *o = g->nodes[i];
		struct CUgraphNode_st *n = vg_node_alloc(o->type);

		if (!n)
			goto fail;
		if (vg_node_params_copy(n, o)) {
			vg_node_free(n);
			goto fail;
		}
		if (vg_node_add(c, n, NULL, NULL, 0))
			goto fail;
		n->origin = (struct CUgraphNode_st *)o;
		if (o->type == CU_GRAPH_NODE_TYPE_GRAPH)
			n->p.child->owner = n;
	}
	/* Edges in each node's order of dependencies, by position. */
	for (i = 0; i < g->nnodes; i++) {
		const struct CUgraphNode_st *o = g->nodes[i];

		for (j = 0; j < o->nin; j++) {
			size_t k;

			for (k = 0; g->nodes[k] != o->in[j].from; k++)
				;
			if (vg_edge_add(c->nodes[k], c->nodes[i], &o->in[j].data))
				goto fail;
		}
	}
	return c;
fail:
	vg_graph_free(c);
	return NULL;
}

/* --- entry points --------------------------------------------------------- */

CUresult cuGraphCreate(CUgraph *out, unsigned int flags)
{
	struct CUgraph_st *g;

	if (!out || flags)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	g = vg_graph_new();
	pthread_mutex_unlock(&vg_graph_lock);
	if (!g)
		return CUDA_ERROR_OUT_OF_MEMORY;
	*out = g;
	return CUDA_SUCCESS;
}

CUresult cuGraphDestroy(CUgraph h)
{
	struct CUgraph_st *g;
	bool ok;

	pthread_mutex_lock(&vg_graph_lock);
	g = vg_graph_get(h);
	/* A child graph goes with its node. */
	ok = g && !g->owner;
	if (ok)
		vg_graph_free(g);
	pthread_mutex_unlock(&vg_graph_lock);
	vg_graph_mem_reap();
	return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
