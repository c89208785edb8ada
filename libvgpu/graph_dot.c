// SPDX-License-Identifier: MIT
/*
 * cuGraphDebugDotPrint: a graph as a Graphviz file, in the shape NVIDIA's
 * driver writes (tests/e2e/ref/h200_graph_dot.log): one dashed cluster
 * "graph_ID" per graph, the graph first, then each child or conditional
 * body graph after the graph holding it; node "graph_ID_node_I" is the
 * graph's I-th node; an edge per dependency, in the order of the nodes
 * they leave. Plain (flags 0), a node is its index, its type or kernel
 * and, for fills and copies, what they move. Any verbose flag gives the
 * parameters and handles too, each node's place in a reverse topological
 * order ("topoId") and each edge's index among its target's
 * dependencies. Flags the driver does not know are ignored, as NVIDIA's
 * are.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "graph.h"
#include "jit/jit.h"

/* What a graph's nodes need while it is written. */
struct vg_dot {
	FILE *f;		/* a memory stream */
	bool verbose, runtime;
	bool nomem;
	const struct CUgraph_st **todo;	/* body graphs still to write */
	size_t ntodo, cap;
	struct vg_dot_res *res;	/* the copies' memory, VG_DOT_RES in @f */
	size_t nres, res_cap;
};

/*
 * What memory a copy's side is (pinned or pageable host memory...) asks
 * the driver, which must not be called with vg_graph_lock held: the text
 * holds VG_DOT_RES where the answer goes, filled in after.
 */
#define VG_DOT_RES '\x01'

struct vg_dot_res {
	CUmemorytype type;
	uint64_t ptr;
};

static const char *const vg_dot_types[] = {
	[CU_GRAPH_NODE_TYPE_KERNEL] = "KERNEL",
	[CU_GRAPH_NODE_TYPE_MEMCPY] = "MEMCPY",
	[CU_GRAPH_NODE_TYPE_MEMSET] = "MEMSET",
	[CU_GRAPH_NODE_TYPE_HOST] = "HOST",
	[CU_GRAPH_NODE_TYPE_GRAPH] = "GRAPH",
	[CU_GRAPH_NODE_TYPE_EMPTY] = "EMPTY",
	[CU_GRAPH_NODE_TYPE_WAIT_EVENT] = "EVENT_WAIT",
	[CU_GRAPH_NODE_TYPE_EVENT_RECORD] = "EVENT_RECORD",
	[CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL] = "EXT_SEMAS_SIGNAL",
	[CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT] = "EXT_SEMAS_WAIT",
	[CU_GRAPH_NODE_TYPE_MEM_ALLOC] = "MEM_ALLOC",
	[CU_GRAPH_NODE_TYPE_MEM_FREE] = "MEM_FREE",
	[CU_GRAPH_NODE_TYPE_BATCH_MEM_OP] = "BATCH_MEM_OP",
	[CU_GRAPH_NODE_TYPE_CONDITIONAL] = "CONDITIONAL",
};

static const char *vg_dot_type(CUgraphNodeType t)
{
	if ((size_t)t < sizeof(vg_dot_types) / sizeof(vg_dot_types[0]) && vg_dot_types[t])
		return vg_dot_types[t];
	return "UNKNOWN";
}

static uint64_t vg_dot_ptr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* A body graph is written after the graph that holds it. */
static bool vg_dot_later(struct vg_dot *d, const struct CUgraph_st *g)
{
	if (d->ntodo == d->cap) {
		size_t cap = d->cap ? 2 * d->cap : 8;
		const struct CUgraph_st **t = realloc(d->todo, cap * sizeof(*t));

		if (!t)
			return false;
		d->todo = t;
		d->cap = cap;
	}
	d->todo[d->ntodo++] = g;
	return true;
}

/*
 * Each node's place in NVIDIA's reverse topological order, plus one, in
 * n->mark: a breadth-first walk from the nodes nothing depends on (the
 * last added first) back along the dependencies (in their order), a node
 * numbered once all that depend on it are. False: no memory.
 */
static bool vg_dot_topo_all(const struct CUgraph_st *g)
{
	size_t *left = malloc((g->nnodes + 1) * sizeof(*left));
	size_t *queue = malloc((g->nnodes + 1) * sizeof(*queue));
	size_t i, j, head = 0, tail = 0;

	if (!left || !queue) {
		free(left);
		free(queue);
		return false;
	}
	for (i = 0; i < g->nnodes; i++) {
		g->nodes[i]->mark = i;
		left[i] = g->nodes[i]->nout;
	}
	for (i = g->nnodes; i-- > 0;)
		if (!left[i])
			queue[tail++] = i;
	while (head < tail) {
		const struct CUgraphNode_st *n = g->nodes[queue[head++]];

		for (j = 0; j < n->nin; j++) {
			size_t k = n->in[j].from->mark;

			if (!--left[k])
				queue[tail++] = k;
		}
	}
	/* queue[t] is the node of topoId t; a node on a cycle has none (0). */
	for (i = 0; i < g->nnodes; i++)
		left[i] = 0;
	for (i = 0; i < tail; i++)
		left[queue[i]] = i + 1;
	for (i = 0; i < g->nnodes; i++)
		g->nodes[i]->mark = left[i];
	free(left);
	free(queue);
	return true;
}

static const char *vg_dot_kernel_name(const struct vg_kernel_node *k)
{
	if (k->func && k->func->magic == VG_FUNC_MAGIC && k->func->k && k->func->k->name)
		return k->func->k->name;
	return "(unloaded)";
}

static char vg_dot_side(CUmemorytype t)
{
	switch (t) {
	case CU_MEMORYTYPE_HOST:
		return 'H';
	case CU_MEMORYTYPE_ARRAY:
		return 'A';
	case CU_MEMORYTYPE_UNIFIED:
		return 'U';
	default:
		return 'D';
	}
}

/* A side's memory, to be named after the walk. */
static void vg_dot_res(struct vg_dot *d, CUmemorytype t, uint64_t ptr)
{
	if (d->nres == d->res_cap) {
		size_t cap = d->res_cap ? 2 * d->res_cap : 8;
		struct vg_dot_res *r = realloc(d->res, cap * sizeof(*r));

		if (!r) {
			d->nomem = true;
			return;
		}
		d->res = r;
		d->res_cap = cap;
	}
	d->res[d->nres++] = (struct vg_dot_res){ t, ptr };
	fputc(VG_DOT_RES, d->f);
}

/* Called without vg_graph_lock. */
static const char *vg_dot_res_name(const struct vg_dot_res *r)
{
	CUmemorytype t;

	switch (r->type) {
	case CU_MEMORYTYPE_DEVICE:
		return "DEVICE";
	case CU_MEMORYTYPE_ARRAY:
		return "ARRAY";
	case CU_MEMORYTYPE_HOST:
	case CU_MEMORYTYPE_UNIFIED:
		if (cuPointerGetAttribute(&t, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
					  (CUdeviceptr)r->ptr))
			return "HOST PAGEABLE";
		return t == CU_MEMORYTYPE_HOST ? "HOST PINNED" : "DEVICE";
	default:
		return "UNKNOWN";
	}
}

static const char *vg_dot_mem(CUmemorytype t)
{
	switch (t) {
	case CU_MEMORYTYPE_HOST:
		return "HOST";
	case CU_MEMORYTYPE_DEVICE:
		return "DEVICE";
	case CU_MEMORYTYPE_ARRAY:
		return "ARRAY";
	case CU_MEMORYTYPE_UNIFIED:
		return "UNIFIED";
	default:
		return "UNKNOWN";
	}
}

static size_t vg_dot_memset_bytes(const CUDA_MEMSET_NODE_PARAMS *p)
{
	return (size_t)p->elementSize * p->width * p->height;
}

static size_t vg_dot_memcpy_bytes(const CUDA_MEMCPY3D *p)
{
	return p->WidthInBytes * p->Height * p->Depth;
}

/* A launch's dimensions as NVIDIA writes them: "2", "\\{2,3\\}" or "\\{2,3,4\\}". */
static void vg_dot_dims(FILE *f, const unsigned int d[3])
{
	if (d[2] != 1)
		fprintf(f, "\\{%u,%u,%u\\}", d[0], d[1], d[2]);
	else if (d[1] != 1)
		fprintf(f, "\\{%u,%u\\}", d[0], d[1]);
	else
		fprintf(f, "%u", d[0]);
}

static void vg_dot_kernel_launch(FILE *f, const struct vg_kernel_node *k)
{
	fprintf(f, "%s\\<\\<\\<", vg_dot_kernel_name(k));
	vg_dot_dims(f, k->grid);
	fprintf(f, ",");
	vg_dot_dims(f, k->block);
	fprintf(f, ",%u\\>\\>\\>", k->shared);
}

/* The number NVIDIA shows for a handle: its place among its graph's, from 1. */
static size_t vg_dot_handle(const struct CUgraphNode_st *n)
{
	const struct CUgraph_st *g;
	size_t i;

	for (g = n->graph; g; g = g->owner ? g->owner->graph : NULL)
		for (i = 0; i < g->nconds; i++)
			if (g->conds[i] == n->p.cond.c)
				return i + 1;
	return 0;
}

/* A conditional node, plain or verbose. */
static void vg_dot_cond(struct vg_dot *d, const struct CUgraphNode_st *n, size_t i, size_t topo)
{
	static const char *const kind[] = { "IF", "WHILE", "SWITCH" };
	const struct vg_cond_node *c = &n->p.cond;
	FILE *f = d->f;
	unsigned int b;

	fprintf(f, "[style=\"bold\" shape=\"record\" label=\"{\nCONDITIONAL\n| {ID | %zu", i);
	if (d->verbose)
		fprintf(f, " (topoId: %zu)}\n| {node handle| 0x%016" PRIX64 "}\n| {Conditional Handle|%zu",
			topo, vg_dot_ptr(n), vg_dot_handle(n));
	fprintf(f, "}\n| {Conditional Type| %s}\n",
		(unsigned int)c->type < 3 ? kind[c->type] : "UNKNOWN");
	for (b = 0; b < c->size; b++) {
		if (c->type == CU_GRAPH_COND_TYPE_SWITCH)
			fprintf(f, "| {%u|  graph_%u}\n", b, c->body[b]->id);
		else if (c->type == CU_GRAPH_COND_TYPE_WHILE)
			fprintf(f, "| {True|graph_%u}\n", c->body[b]->id);
		else
			fprintf(f, "| {%s graph_%u}\n", b ? "False|" : "True |", c->body[b]->id);
	}
	fprintf(f, "}\n\"];\n\n");
}

static const char vg_dot_props[] = { 'N', 'S', 'P' };	/* CUaccessProperty */

static void vg_dot_kernel_attrs(FILE *f, const struct vg_kernel_node *k)
{
	CUlaunchAttributeValue none = { 0 };
	const CUlaunchAttributeValue *a = k->attrs;
	const CUaccessPolicyWindow *w;

	w = &(a ? &a[CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW] : &none)->accessPolicyWindow;
	fprintf(f, "| {accessPolicyWindow | {base_ptr | num_bytes | hitRatio | hitProp | missProp} | {0x%016" PRIX64 " | %zu | %f | %c | %c}}\n",
		vg_dot_ptr(w->base_ptr), w->num_bytes, w->hitRatio,
		(unsigned int)w->hitProp < 3 ? vg_dot_props[w->hitProp] : '?',
		(unsigned int)w->missProp < 3 ? vg_dot_props[w->missProp] : '?');
	fprintf(f, "| {cooperative | %d}\n| {priority | %d}\n}\"];\n\n",
		a ? a[CU_LAUNCH_ATTRIBUTE_COOPERATIVE].cooperative : 0,
		a ? a[CU_LAUNCH_ATTRIBUTE_PRIORITY].priority : 0);
}

/* Node @i of @g, plain. */
static void vg_dot_plain(struct vg_dot *d, const struct CUgraph_st *g, size_t i)
{
	const struct CUgraphNode_st *n = g->nodes[i];
	FILE *f = d->f;

	fprintf(f, "\"graph_%u_node_%zu\"", g->id, i);
	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		fprintf(f, "[style=\"bold\" shape=\"octagon\" label=\"%zu\n%s\n\"];\n\n", i,
			vg_dot_kernel_name(&n->p.kernel));
		return;
	case CU_GRAPH_NODE_TYPE_MEMSET:
		fprintf(f, "[style=\"solid\" shape=\"invtrapezium\"label=\"%zu\nMEMSET\n(%u,%zu)\n\"];\n\n",
			i, n->p.memset.value, vg_dot_memset_bytes(&n->p.memset));
		return;
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		fprintf(f, "[style=\"solid\" shape=\"trapezium\"label=\"%zu\nMEMCPY\n(%cto%c,%zu)\n\"];\n\n",
			i, vg_dot_side(n->p.memcpy.srcMemoryType),
			vg_dot_side(n->p.memcpy.dstMemoryType), vg_dot_memcpy_bytes(&n->p.memcpy));
		return;
	case CU_GRAPH_NODE_TYPE_GRAPH:
		fprintf(f, "[style=\"solid\" shape=\"rectangle\" label=\"%zu\ngraph_%u\n\"];\n\n",
			i, n->p.child->id);
		return;
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		vg_dot_cond(d, n, i, SIZE_MAX);
		return;
	default:
		fprintf(f, "[style=\"solid\" shape=\"rectangle\" label=\"%zu\n%s\n\"];\n\n", i,
			vg_dot_type(n->type));
		return;
	}
}

static void vg_dot_memcpy_driver(struct vg_dot *d, const CUDA_MEMCPY3D *p)
{
	FILE *f = d->f;

	fprintf(f, "| {{src | dst} | { MemoryType | Array | Host | Device | XInBytes | Y | Z | Pitch | Height | LOD | MemoryType | Array | Host | Device | XInBytes | Y | Z | Pitch | Height | LOD} | {");
	fprintf(f, "%s (", vg_dot_mem(p->srcMemoryType));
	vg_dot_res(d, p->srcMemoryType, p->srcMemoryType == CU_MEMORYTYPE_HOST ?
		   vg_dot_ptr(p->srcHost) : p->srcDevice);
	fprintf(f, ") | 0x%016" PRIX64 " | 0x%016" PRIX64 " | 0x%016" PRIX64
		" | %zu | %zu | %zu | %zu | %zu | %zu | ",
		vg_dot_ptr(p->srcArray), vg_dot_ptr(p->srcHost), (uint64_t)p->srcDevice,
		p->srcXInBytes, p->srcY, p->srcZ, p->srcPitch, p->srcHeight, p->srcLOD);
	fprintf(f, "%s (", vg_dot_mem(p->dstMemoryType));
	vg_dot_res(d, p->dstMemoryType, p->dstMemoryType == CU_MEMORYTYPE_HOST ?
		   vg_dot_ptr(p->dstHost) : p->dstDevice);
	fprintf(f, ") | 0x%016" PRIX64 " | 0x%016" PRIX64 " | 0x%016" PRIX64
		" | %zu | %zu | %zu | %zu | %zu | %zu}}\n",
		vg_dot_ptr(p->dstArray), vg_dot_ptr(p->dstHost), (uint64_t)p->dstDevice,
		p->dstXInBytes, p->dstY, p->dstZ, p->dstPitch, p->dstHeight, p->dstLOD);
	fprintf(f, "| {Extent | {WidthInBytes | Height | Depth} | {%zu | %zu | %zu}}\n",
		p->WidthInBytes, p->Height, p->Depth);
}

/* The runtime's view of a copy: its kind, pointers and positions. */
static void vg_dot_memcpy_runtime(struct vg_dot *d, const CUDA_MEMCPY3D *p)
{
	FILE *f = d->f;
	uint64_t src = p->srcMemoryType == CU_MEMORYTYPE_HOST ? vg_dot_ptr(p->srcHost) :
		       p->srcMemoryType == CU_MEMORYTYPE_ARRAY ? 0 : p->srcDevice;
	uint64_t dst = p->dstMemoryType == CU_MEMORYTYPE_HOST ? vg_dot_ptr(p->dstHost) :
		       p->dstMemoryType == CU_MEMORYTYPE_ARRAY ? 0 : p->dstDevice;

	fprintf(f, "| {kind | %cto%c (", vg_dot_side(p->srcMemoryType),
		vg_dot_side(p->dstMemoryType));
	vg_dot_res(d, p->srcMemoryType, src);
	fprintf(f, " to ");
	vg_dot_res(d, p->dstMemoryType, dst);
	fprintf(f, ")}\n");
	fprintf(f, "| {{srcPtr | dstPtr} | {pitch | ptr | xsize | ysize | pitch | ptr | xsize | ysize} | {%zu | 0x%016" PRIX64 " | 0 | 0 | %zu | 0x%016" PRIX64 " | 0 | 0}}\n",
		p->srcPitch, src, p->dstPitch, dst);
	fprintf(f, "| {{srcPos | {{x | %zu} | {y | %zu} | {z | %zu}}} | {dstPos | {{x | %zu} | {y | %zu} | {z | %zu}}} | {Extent | {{Width | %zu} | {Height | %zu} | {Depth | %zu}}}}\n",
		p->srcXInBytes, p->srcY, p->srcZ, p->dstXInBytes, p->dstY, p->dstZ,
		p->WidthInBytes, p->Height, p->Depth);
}

/* A semaphore node's semaphores and each one's parameters, as NVIDIA's. */
static void vg_dot_sems(FILE *f, const struct CUgraphNode_st *n, size_t i, size_t topo)
{
	const struct vg_sem_node *m = &n->p.sems;
	bool signal = n->type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL;
	const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS *sp = m->params;
	const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS *wp = m->params;
	unsigned int k;

	fprintf(f, "[style=\"solid\" shape=\"record\" label=\"{\n%s\n| {{ID | node handle | numExtSems} | {%zu (topoId: %zu) | 0x%016" PRIX64 " | %u}}\n",
		vg_dot_type(n->type), i, topo, vg_dot_ptr(n), m->count);
	if (m->count) {
		fprintf(f, "| {{");
		for (k = 0; k < m->count; k++)
			fprintf(f, "%sextSemArray[%u]", k ? " | " : "", k);
		fprintf(f, "} | {");
		for (k = 0; k < m->count; k++)
			fprintf(f, "%s0x%016" PRIX64, k ? " | " : "", vg_dot_ptr(m->sems[k]));
		fprintf(f, "}}\n| {{");
		for (k = 0; k < m->count; k++)
			fprintf(f, "%sparamsArray[%u]", k ? " | " : "", k);
		fprintf(f, "} | {");
		for (k = 0; k < m->count; k++)
			fprintf(f, "%s%s", k ? " | " : "",
				signal ? "value | fence | key | flags" :
				"value | fence | key | timeoutMs | flags");
		fprintf(f, "} | {");
		for (k = 0; k < m->count; k++) {
			if (signal)
				fprintf(f, "%s%llu | 0x%016" PRIX64 " | %llu | %u", k ? " | " : "",
					sp[k].params.fence.value,
					vg_dot_ptr(sp[k].params.nvSciSync.fence),
					sp[k].params.keyedMutex.key, sp[k].flags);
			else
				fprintf(f, "%s%llu | 0x%016" PRIX64 " | %llu | %u | %u", k ? " | " : "",
					wp[k].params.fence.value,
					vg_dot_ptr(wp[k].params.nvSciSync.fence),
					wp[k].params.keyedMutex.key,
					wp[k].params.keyedMutex.timeoutMs, wp[k].flags);
		}
		fprintf(f, "}}\n");
	}
	fprintf(f, "}\"];\n\n");
}

/* Node @i of @g with its parameters and handles. */
static void vg_dot_verbose(struct vg_dot *d, const struct CUgraph_st *g, size_t i)
{
	const struct CUgraphNode_st *n = g->nodes[i];
	size_t topo = n->mark ? n->mark - 1 : SIZE_MAX;
	FILE *f = d->f;

	fprintf(f, "\"graph_%u_node_%zu\"", g->id, i);
	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		fprintf(f, "[style=\"bold\" shape=\"record\" label=\"{KERNEL\n| {ID | %zu (topoId: %zu) | ",
			i, topo);
		vg_dot_kernel_launch(f, &n->p.kernel);
		fprintf(f, "}\n| {{node handle | func handle} | {0x%016" PRIX64 " | 0x%016" PRIX64 "}}\n",
			vg_dot_ptr(n), vg_dot_ptr(n->p.kernel.func));
		vg_dot_kernel_attrs(f, &n->p.kernel);
		return;
	case CU_GRAPH_NODE_TYPE_MEMSET: {
		const CUDA_MEMSET_NODE_PARAMS *p = &n->p.memset;

		fprintf(f, "[style=\"solid\" style=\"solid\" shape=\"record\" label=\"{MEMSET\n| {{ID | node handle | dptr | pitch | value | elementSize | width | height} | {%zu (topoId: %zu) | 0x%016" PRIX64 " | 0x%016" PRIX64 " | %zu | %u | %u | %zu | %zu}}}\"];\n\n",
			i, topo, vg_dot_ptr(n), (uint64_t)p->dst, p->pitch, p->value,
			p->elementSize, p->width, p->height);
		return;
	}
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		fprintf(f, "[style=\"solid\" shape=\"record\" label=\"{\nMEMCPY\n| {{ID | node handle} | {%zu (topoId: %zu) | 0x%016" PRIX64 "}}\n",
			i, topo, vg_dot_ptr(n));
		if (d->runtime)
			vg_dot_memcpy_runtime(d, &n->p.memcpy);
		else
			vg_dot_memcpy_driver(d, &n->p.memcpy);
		fprintf(f, "}\"];\n\n");
		return;
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		vg_dot_cond(d, n, i, topo);
		return;
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		vg_dot_sems(f, n, i, topo);
		return;
	default:
		break;
	}
	fprintf(f, "[style=\"solid\" shape=\"rectangle\" label=\"%zu (topoId: %zu)\n", i, topo);
	if (n->type == CU_GRAPH_NODE_TYPE_GRAPH)
		fprintf(f, "graph_%u\n", n->p.child->id);
	else
		fprintf(f, "%s\n", vg_dot_type(n->type));
	fprintf(f, "node handle: 0x%016" PRIX64 "\n", vg_dot_ptr(n));
	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_HOST:
		fprintf(f, "fn: 0x%016" PRIX64 "\nuserData: 0x%016" PRIX64 "\n",
			(uint64_t)(uintptr_t)n->p.host.fn, vg_dot_ptr(n->p.host.userData));
		break;
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		fprintf(f, "event: 0x%016" PRIX64 "\n", vg_dot_ptr(n->p.event));
		break;
	default:
		break;
	}
	fprintf(f, "\"];\n\n");
}

/* Index of @n in its graph's node array. */
static size_t vg_dot_index(const struct CUgraphNode_st *n)
{
	size_t i;

	for (i = 0; i < n->graph->nnodes; i++)
		if (n->graph->nodes[i] == n)
			break;
	return i;
}

static bool vg_dot_graph(struct vg_dot *d, const struct CUgraph_st *g)
{
	FILE *f = d->f;
	size_t i, j, k;

	if (d->verbose && !vg_dot_topo_all(g))
		return false;
	fprintf(f, "subgraph cluster_%u {\nlabel=\"graph_%u\" graph[style=\"dashed\"];\n",
		g->id, g->id);
	for (i = 0; i < g->nnodes; i++) {
		const struct CUgraphNode_st *n = g->nodes[i];

		if (d->verbose)
			vg_dot_verbose(d, g, i);
		else
			vg_dot_plain(d, g, i);
		if (n->type == CU_GRAPH_NODE_TYPE_GRAPH && !vg_dot_later(d, n->p.child))
			return false;
		for (j = 0; n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL && j < n->p.cond.size; j++)
			if (!vg_dot_later(d, n->p.cond.body[j]))
				return false;
	}
	for (i = 0; i < g->nnodes; i++) {
		const struct CUgraphNode_st *n = g->nodes[i];

		for (j = 0; j < n->nout; j++) {
			const struct CUgraphNode_st *to = n->out[j];

			fprintf(f, "\"graph_%u_node_%zu\" -> \"graph_%u_node_%zu\"", g->id, i,
				g->id, vg_dot_index(to));
			if (d->verbose) {
				for (k = 0; k < to->nin && to->in[k].from != n; k++)
					;
				fprintf(f, " [headlabel=%zu]", k);
			}
			fprintf(f, ";\n");
		}
	}
	fprintf(f, "}\n");
	return true;
}

/* @text to @path, each VG_DOT_RES in it replaced by what that memory is. */
static CUresult vg_dot_write(const char *path, const char *text, size_t len,
			     const struct vg_dot_res *res, size_t nres)
{
	FILE *f = fopen(path, "w");
	size_t i, r = 0;

	if (!f)
		return CUDA_ERROR_OPERATING_SYSTEM;
	for (i = 0; i < len; i++) {
		if (text[i] == VG_DOT_RES && r < nres)
			fputs(vg_dot_res_name(&res[r++]), f);
		else
			fputc(text[i], f);
	}
	return fclose(f) ? CUDA_ERROR_OPERATING_SYSTEM : CUDA_SUCCESS;
}

CUresult cuGraphDebugDotPrint(CUgraph h, const char *path, unsigned int flags)
{
	struct vg_dot d = {
		/* The runtime's types alone change nothing of the plain form. */
		.verbose = flags & ~(unsigned int)CU_GRAPH_DEBUG_DOT_FLAGS_RUNTIME_TYPES,
		.runtime = flags & CU_GRAPH_DEBUG_DOT_FLAGS_RUNTIME_TYPES,
	};
	const struct CUgraph_st *g;
	CUresult r = CUDA_SUCCESS;
	char *text = NULL;
	size_t len = 0, done = 0;

	if (!path)
		return CUDA_ERROR_INVALID_VALUE;
	d.f = open_memstream(&text, &len);
	if (!d.f)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&vg_graph_lock);
	g = vg_graph_get(h);
	if (!g)
		r = CUDA_ERROR_INVALID_VALUE;
	else
		fprintf(d.f, "digraph dot {\n");
	if (g && !vg_dot_later(&d, g))
		d.nomem = true;
	/* The graph, then each body graph in the order they are named. */
	while (!r && !d.nomem && done < d.ntodo)
		if (!vg_dot_graph(&d, d.todo[done++]))
			d.nomem = true;
	fprintf(d.f, "}\n");
	pthread_mutex_unlock(&vg_graph_lock);
	if (fclose(d.f) || d.nomem)
		r = r ? r : CUDA_ERROR_OUT_OF_MEMORY;
	if (!r)
		r = vg_dot_write(path, text, len, d.res, d.nres);
	free(text);
	free(d.todo);
	free(d.res);
	return r;
}
