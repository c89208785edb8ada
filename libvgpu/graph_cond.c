// SPDX-License-Identifier: MIT
/*
 * Conditional nodes (CUDA 12.3 on): a node whose body graphs run once
 * (if, with an optional else), while its value is not zero (while), or
 * the one its value picks (switch). The value lives in device memory: a
 * handle is the device address of its 32-bit word, which kernels set
 * with cudaGraphSetConditional (the JIT makes the call a store there,
 * libvgpu/jit/ptx_cond.c) and which a launch of the graph reads when the
 * node's turn comes, once the stream's earlier work is done: a round
 * trip to this process per evaluation, where NVIDIA's hardware decides
 * on the device. Handles are shared by a graph and its clones (an
 * executable graph's too, whose kernels hold the same address), and the
 * word is freed with the last of them. NVIDIA's answers:
 * tests/e2e/ref/h200_capture.log and h200_conditional.log.
 */
#include <stdlib.h>
#include <string.h>

#include "graph.h"

static void vg_cond_put(struct vg_cond *c)
{
	if (--c->refs)
		return;
	/* The word goes with its context if that went first. */
	if (!cuCtxPushCurrent(c->ctx)) {
		cuMemFree(c->word);
		cuCtxPopCurrent(NULL);
	}
	free(c);
}

/* @to shares @from's handles (a clone); false: out of memory. */
bool vg_conds_share(struct CUgraph_st *to, const struct CUgraph_st *from)
{
	size_t i;

	if (!from->nconds)
		return true;
	to->conds = malloc(from->nconds * sizeof(*to->conds));
	if (!to->conds)
		return false;
	for (i = 0; i < from->nconds; i++) {
		to->conds[i] = from->conds[i];
		to->conds[i]->refs++;
	}
	to->nconds = from->nconds;
	return true;
}

void vg_conds_drop(struct CUgraph_st *g)
{
	size_t i;

	for (i = 0; i < g->nconds; i++)
		vg_cond_put(g->conds[i]);
	free(g->conds);
	g->conds = NULL;
	g->nconds = 0;
}

CUresult cuGraphConditionalHandleCreate(CUgraphConditionalHandle *out, CUgraph h,
					CUcontext ctx, unsigned int dflt, unsigned int flags)
{
	struct vg_cond *c, **grown;
	struct CUgraph_st *g;
	CUresult r;

	if (!out || (flags & ~(unsigned int)CU_GRAPH_COND_ASSIGN_DEFAULT))
		return CUDA_ERROR_INVALID_VALUE;
	if (!ctx) {
		r = cuCtxGetCurrent(&ctx);
		if (r)
			return r;
		if (!ctx)
			return CUDA_ERROR_INVALID_CONTEXT;
	}
	c = calloc(1, sizeof(*c));
	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	c->refs = 1;
	c->ctx = ctx;
	c->dflt = dflt;
	c->assign_default = flags & CU_GRAPH_COND_ASSIGN_DEFAULT;
	r = cuCtxPushCurrent(ctx);
	if (r) {
		free(c);
		return r;
	}
	/* Without CU_GRAPH_COND_ASSIGN_DEFAULT the value starts at 0 (H200). */
	r = cuMemAlloc(&c->word, 4);
	if (!r) {
		r = cuMemsetD32(c->word, 0, 1);
		if (r)
			cuMemFree(c->word);
	}
	cuCtxPopCurrent(NULL);
	if (r) {
		free(c);
		return r;
	}
	pthread_mutex_lock(&vg_graph_lock);
	g = vg_graph_get(h);
	grown = g ? realloc(g->conds, (g->nconds + 1) * sizeof(*g->conds)) : NULL;
	if (grown) {
		g->conds = grown;
		g->conds[g->nconds++] = c;
		*out = c->word;
		c = NULL;
	}
	r = !g ? CUDA_ERROR_INVALID_VALUE : grown ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
	if (c)
		vg_cond_put(c);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

/* @g's handle @h, looked for in @g and the graphs it is a body of. */
static struct vg_cond *vg_cond_find(const struct CUgraph_st *g, CUgraphConditionalHandle h)
{
	size_t i;

	for (; g; g = g->owner ? g->owner->graph : NULL)
		for (i = 0; i < g->nconds; i++)
			if (g->conds[i]->word == h)
				return g->conds[i];
	return NULL;
}

/* The body graphs a conditional node of @type may have: whether @size is. */
static bool vg_cond_size_ok(CUgraphConditionalNodeType type, unsigned int size)
{
	switch (type) {
	case CU_GRAPH_COND_TYPE_IF:
		return size == 1 || size == 2;
	case CU_GRAPH_COND_TYPE_WHILE:
		return size == 1;
	case CU_GRAPH_COND_TYPE_SWITCH:
		return size >= 1;
	default:
		return false;
	}
}

/*
 * A conditional node of @p into @h after @deps; its new body graphs, owned
 * by the node, through p->phGraph_out. vg_graph_lock held.
 */
CUresult vg_cond_add(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
		     const CUgraphEdgeData *edata, size_t ndeps,
		     CUDA_CONDITIONAL_NODE_PARAMS *p)
{
	struct CUgraph_st *g = vg_graph_get(h);
	struct CUgraphNode_st *n;
	struct vg_cond *c;
	unsigned int i;
	CUresult r;

	if (!g)
		return CUDA_ERROR_INVALID_VALUE;
	c = vg_cond_find(g, p->handle);
	/* One node per handle. */
	if (!c || c->used || !vg_cond_size_ok(p->type, p->size))
		return CUDA_ERROR_INVALID_VALUE;
	n = vg_node_alloc(CU_GRAPH_NODE_TYPE_CONDITIONAL);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	n->ctx = c->ctx;
	n->p.cond.c = c;
	n->p.cond.type = p->type;
	n->p.cond.size = p->size;
	n->p.cond.body = calloc(p->size, sizeof(*n->p.cond.body));
	for (i = 0; n->p.cond.body && i < p->size; i++) {
		n->p.cond.body[i] = vg_graph_new();
		if (!n->p.cond.body[i])
			break;
		n->p.cond.body[i]->owner = n;
	}
	if (!n->p.cond.body || i < p->size) {
		vg_node_free(n);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	r = vg_node_add(g, n, deps, edata, ndeps);
	if (r) {
		vg_node_free(n);
		return r;
	}
	c->used = true;
	n->p.cond.holds = true;
	p->phGraph_out = (CUgraph *)n->p.cond.body;
	*out = n;
	return CUDA_SUCCESS;
}

/* @to (new) gets bodies cloned from @from's. */
CUresult vg_cond_copy(struct CUgraphNode_st *to, const struct CUgraphNode_st *from)
{
	unsigned int i;

	to->p.cond = from->p.cond;
	to->p.cond.holds = false;
	to->p.cond.body = calloc(from->p.cond.size, sizeof(*to->p.cond.body));
	if (!to->p.cond.body)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (i = 0; i < from->p.cond.size; i++) {
		to->p.cond.body[i] = vg_graph_clone(from->p.cond.body[i]);
		if (!to->p.cond.body[i])
			return CUDA_ERROR_OUT_OF_MEMORY;
		to->p.cond.body[i]->owner = to;
	}
	return CUDA_SUCCESS;
}

void vg_cond_free(struct CUgraphNode_st *n)
{
	unsigned int i;

	if (!n->p.cond.body)
		return;
	for (i = 0; i < n->p.cond.size; i++)
		if (n->p.cond.body[i])
			vg_graph_free(n->p.cond.body[i]);
	free(n->p.cond.body);
	n->p.cond.body = NULL;
	/* The node given the handle gives it back; a clone never had it. */
	if (n->p.cond.holds)
		n->p.cond.c->used = false;
}

/* What a body graph may hold: kernels, memsets, copies, empty, child and conditional nodes. */
static bool vg_body_ok(const struct CUgraph_st *g)
{
	size_t i;

	for (i = 0; i < g->nnodes; i++) {
		const struct CUgraphNode_st *n = g->nodes[i];

		switch (n->type) {
		case CU_GRAPH_NODE_TYPE_KERNEL:
		case CU_GRAPH_NODE_TYPE_MEMSET:
		case CU_GRAPH_NODE_TYPE_MEMCPY:
		case CU_GRAPH_NODE_TYPE_EMPTY:
		case CU_GRAPH_NODE_TYPE_CONDITIONAL:
			break;
		case CU_GRAPH_NODE_TYPE_GRAPH:
			if (!vg_body_ok(n->p.child))
				return false;
			break;
		default:
			return false;
		}
	}
	return true;
}

/*
 * What instantiating @g needs of its conditionals: each handle created on
 * it has a node (an unused one fails, as on the H200), and each body holds
 * only what a body may. Nested bodies are checked as the walk reaches them.
 */
CUresult vg_cond_check(const struct CUgraph_st *g, const struct CUgraphNode_st *n)
{
	size_t i;

	if (!n) {
		for (i = 0; i < g->nconds; i++)
			if (!g->conds[i]->used)
				return CUDA_ERROR_INVALID_VALUE;
		return CUDA_SUCCESS;
	}
	for (i = 0; i < n->p.cond.size; i++)
		if (!vg_body_ok(n->p.cond.body[i]))
			return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

/* At a launch's start: the handles that ask for it get their default. */
CUresult vg_cond_reset(const struct CUgraph_st *g, CUstream s)
{
	CUresult r = CUDA_SUCCESS;
	size_t i;

	for (i = 0; !r && i < g->nconds; i++)
		if (g->conds[i]->assign_default)
			r = cuMemsetD32Async(g->conds[i]->word, g->conds[i]->dflt, 1, s);
	return r;
}

/* The node's value once @s's work so far is done. */
static CUresult vg_cond_value(const struct CUgraphNode_st *n, CUstream s, uint32_t *v)
{
	CUresult r = cuMemcpyDtoHAsync(v, n->p.cond.c->word, 4, s);

	return r ? r : cuStreamSynchronize(s);
}

/* Runs conditional node @n on @s: its bodies through @run. */
CUresult vg_cond_run(struct CUgraphNode_st *n, CUstream s,
		     CUresult (*run)(struct CUgraph_st *g, CUstream s))
{
	struct vg_cond_node *cn = &n->p.cond;
	uint32_t v;
	CUresult r;

	/* An empty body runs nothing, nor waits (a while too: H200). */
	if (cn->type == CU_GRAPH_COND_TYPE_WHILE) {
		if (!cn->body[0]->nnodes)
			return CUDA_SUCCESS;
		for (;;) {
			r = vg_cond_value(n, s, &v);
			if (r || !v)
				return r;
			r = run(cn->body[0], s);
			if (r)
				return r;
		}
	}
	r = vg_cond_value(n, s, &v);
	if (r)
		return r;
	if (cn->type == CU_GRAPH_COND_TYPE_IF)
		return v ? run(cn->body[0], s) :
			cn->size == 2 ? run(cn->body[1], s) : CUDA_SUCCESS;
	return v < cn->size ? run(cn->body[v], s) : CUDA_SUCCESS;
}
