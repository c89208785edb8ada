// SPDX-License-Identifier: MIT
/*
 * The nodes of a graph by type (graph.h): adding each kind, and its
 * parameters' get and set. A kernel node copies its parameters' values
 * when they are set, as cuLaunchKernel does at the launch; a child graph
 * node holds a clone of the graph it was given. NVIDIA's answers for bad
 * parameters: tests/e2e/ref/h200_capture.log.
 */
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "jit/jit.h"

/* The macros of cuda.h would rename these definitions. */
#undef cuGraphAddKernelNode
#undef cuGraphKernelNodeGetParams
#undef cuGraphKernelNodeSetParams

void vg_kernel_node_clear(struct vg_kernel_node *kn)
{
	free(kn->args);
	free(kn->argv);
	free(kn->attrs);
	memset(kn, 0, sizeof(*kn));
}

/* @kn's argv: each parameter's place in its block. */
static CUresult vg_kernel_node_argv(struct vg_kernel_node *kn)
{
	const struct vg_jit_kernel *k = kn->func->k;
	uint32_t i;

	kn->nargs = k->nparams;
	kn->argv = calloc(k->nparams ? k->nparams : 1, sizeof(*kn->argv));
	if (!kn->argv)
		return CUDA_ERROR_OUT_OF_MEMORY;
	for (i = 0; i < k->nparams; i++)
		kn->argv[i] = kn->args + k->params[i].offset;
	return CUDA_SUCCESS;
}

/*
 * @kn becomes @p's launch: its function (or CUkernel's, in the current
 * context) and shape checked as cuLaunchKernel checks them, its
 * parameters copied. On failure @kn is unchanged.
 */
CUresult vg_kernel_node_set(struct vg_kernel_node *kn, const CUDA_KERNEL_NODE_PARAMS *p)
{
	struct vg_kernel_node nk = { 0 };
	const struct vg_jit_kernel *k;
	struct CUfunc_st *f;
	CUresult r;

	r = vg_launch_func_get(p->func ? p->func : (CUfunction)p->kern, &f);
	if (r)
		return r;
	k = f->k;
	nk.func = f;
	nk.grid[0] = p->gridDimX;
	nk.grid[1] = p->gridDimY;
	nk.grid[2] = p->gridDimZ;
	nk.block[0] = p->blockDimX;
	nk.block[1] = p->blockDimY;
	nk.block[2] = p->blockDimZ;
	nk.shared = p->sharedMemBytes;
	if ((p->kernelParams && p->extra) ||
	    (k->f.param_bytes && !p->kernelParams && !p->extra))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	r = vg_launch_check(&vg_devices[f->mod->ctx->dev].info, k, nk.grid, nk.block,
			    nk.shared, f->max_dyn_shared);
	pthread_mutex_unlock(&vg_lock);
	if (r)
		return CUDA_ERROR_INVALID_VALUE;
	nk.nbytes = k->f.param_bytes;
	nk.args = calloc(1, nk.nbytes ? nk.nbytes : 1);
	if (!nk.args)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = vg_params_fill(k, p->kernelParams, p->extra, nk.args);
	if (!r)
		r = vg_kernel_node_argv(&nk);
	if (r) {
		vg_kernel_node_clear(&nk);
		return r;
	}
	/* New parameters; the attributes stay. */
	nk.attrs = kn->attrs;
	nk.attrs_set = kn->attrs_set;
	kn->attrs = NULL;
	vg_kernel_node_clear(kn);
	*kn = nk;
	return CUDA_SUCCESS;
}

/* A copy that follows nothing of the function (its module may be gone). */
CUresult vg_kernel_node_copy(struct vg_kernel_node *to, const struct vg_kernel_node *from)
{
	uint32_t i;

	*to = *from;
	to->attrs = NULL;
	to->args = malloc(from->nbytes ? from->nbytes : 1);
	to->argv = calloc(from->nargs ? from->nargs : 1, sizeof(*to->argv));
	if (!to->args || !to->argv || vg_kernel_attrs_copy(to, from)) {
		free(to->args);
		free(to->argv);
		memset(to, 0, sizeof(*to));
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	memcpy(to->args, from->args, from->nbytes);
	for (i = 0; i < from->nargs; i++)
		to->argv[i] = to->args + ((unsigned char *)from->argv[i] - from->args);
	return CUDA_SUCCESS;
}

/* @to (new, of @from's type) gets a copy of @from's parameters. */
CUresult vg_node_params_copy(struct CUgraphNode_st *to, const struct CUgraphNode_st *from)
{
	to->ctx = from->ctx;
	switch (from->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return vg_kernel_node_copy(&to->p.kernel, &from->p.kernel);
	case CU_GRAPH_NODE_TYPE_GRAPH:
		to->p.child = vg_graph_clone(from->p.child);
		return to->p.child ? CUDA_SUCCESS : CUDA_ERROR_OUT_OF_MEMORY;
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		to->p = from->p;
		vg_graph_mem_get(to->p.mem);
		return CUDA_SUCCESS;
	case CU_GRAPH_NODE_TYPE_CONDITIONAL:
		return vg_cond_copy(to, from);
	case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
		return vg_memop_node_copy(&to->p.memop, &from->p.memop);
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		return vg_sem_node_copy(&to->p.sems, &from->p.sems,
					from->type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL);
	default:
		to->p = from->p;
		return CUDA_SUCCESS;
	}
}

void vg_node_params_free(struct CUgraphNode_st *n)
{
	if (n->type == CU_GRAPH_NODE_TYPE_KERNEL)
		vg_kernel_node_clear(&n->p.kernel);
	else if (n->type == CU_GRAPH_NODE_TYPE_GRAPH && n->p.child)
		vg_graph_free(n->p.child);
	else if (n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC && n->p.mem)
		vg_graph_mem_put(n->p.mem);
	else if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL)
		vg_cond_free(n);
	else if (n->type == CU_GRAPH_NODE_TYPE_BATCH_MEM_OP)
		free(n->p.memop.ops);
	else if (n->type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL ||
		 n->type == CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT)
		vg_sem_node_free(&n->p.sems);
}

/*
 * Adds @n (its parameters set) to graph @h after @deps: the common part
 * of every cuGraphAdd*Node. @n is freed on failure.
 */
CUresult vg_node_add_to(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
			const CUgraphEdgeData *edata, size_t ndeps, struct CUgraphNode_st *n)
{
	struct CUgraph_st *g = vg_graph_get(h);
	CUresult r;

	if (!g) {
		vg_node_free(n);
		return CUDA_ERROR_INVALID_VALUE;
	}
	r = vg_node_add(g, n, deps, edata, ndeps);
	if (!r)
		*out = n;
	return r;
}

/* A new node of @type, or NULL: out of memory. */
static struct CUgraphNode_st *vg_new(CUgraphNodeType type)
{
	return vg_node_alloc(type);
}

CUresult cuGraphAddEmptyNode(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
			     size_t ndeps)
{
	struct CUgraphNode_st *n;
	CUresult r;

	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	n = vg_new(CU_GRAPH_NODE_TYPE_EMPTY);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&vg_graph_lock);
	r = vg_node_add_to(out, h, deps, NULL, ndeps, n);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

static CUresult vg_add_kernel(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
			      size_t ndeps, const CUDA_KERNEL_NODE_PARAMS *p)
{
	struct CUgraphNode_st *n;
	CUresult r;

	if (!out || !p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	if (!vg_graph_get(h)) {
		pthread_mutex_unlock(&vg_graph_lock);
		return CUDA_ERROR_INVALID_VALUE;
	}
	n = vg_new(CU_GRAPH_NODE_TYPE_KERNEL);
	r = n ? vg_kernel_node_set(&n->p.kernel, p) : CUDA_ERROR_OUT_OF_MEMORY;
	if (!r)
		r = vg_node_add_to(out, h, deps, NULL, ndeps, n);
	else if (n)
		vg_node_free(n);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

/* The v1 parameters: those of v2 without a CUkernel or context. */
static CUDA_KERNEL_NODE_PARAMS vg_kparams_v1(const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
	CUDA_KERNEL_NODE_PARAMS v = { 0 };

	memcpy(&v, p, sizeof(*p));
	return v;
}

CUresult cuGraphAddKernelNode(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
			      size_t ndeps, const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
	CUDA_KERNEL_NODE_PARAMS v;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	v = vg_kparams_v1(p);
	return vg_add_kernel(out, h, deps, ndeps, &v);
}

CUresult cuGraphAddKernelNode_v2(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
				 size_t ndeps, const CUDA_KERNEL_NODE_PARAMS *p)
{
	return vg_add_kernel(out, h, deps, ndeps, p);
}

/* @h, a node of @type; NULL otherwise. vg_graph_lock held. */
static struct CUgraphNode_st *vg_typed(CUgraphNode h, CUgraphNodeType type)
{
	struct CUgraphNode_st *n = vg_node_get(h);

	return n && n->type == type ? n : NULL;
}

static CUresult vg_kernel_get(CUgraphNode h, CUDA_KERNEL_NODE_PARAMS *p, size_t size)
{
	struct CUgraphNode_st *n;
	CUDA_KERNEL_NODE_PARAMS v = { 0 };

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_typed(h, CU_GRAPH_NODE_TYPE_KERNEL);
	if (n) {
		const struct vg_kernel_node *kn = &n->p.kernel;

		v.func = kn->func;
		v.gridDimX = kn->grid[0];
		v.gridDimY = kn->grid[1];
		v.gridDimZ = kn->grid[2];
		v.blockDimX = kn->block[0];
		v.blockDimY = kn->block[1];
		v.blockDimZ = kn->block[2];
		v.sharedMemBytes = kn->shared;
		v.kernelParams = kn->argv;
		v.ctx = kn->func->mod->ctx;
		memcpy(p, &v, size);
	}
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphKernelNodeGetParams(CUgraphNode h, CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
	return vg_kernel_get(h, (CUDA_KERNEL_NODE_PARAMS *)p, sizeof(*p));
}

CUresult cuGraphKernelNodeGetParams_v2(CUgraphNode h, CUDA_KERNEL_NODE_PARAMS *p)
{
	return vg_kernel_get(h, p, sizeof(*p));
}

static CUresult vg_kernel_set(CUgraphNode h, const CUDA_KERNEL_NODE_PARAMS *p)
{
	struct CUgraphNode_st *n;
	CUresult r = CUDA_ERROR_INVALID_VALUE;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_typed(h, CU_GRAPH_NODE_TYPE_KERNEL);
	if (n)
		r = vg_kernel_node_set(&n->p.kernel, p);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

CUresult cuGraphKernelNodeSetParams(CUgraphNode h, const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
	CUDA_KERNEL_NODE_PARAMS v;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	v = vg_kparams_v1(p);
	return vg_kernel_set(h, &v);
}

CUresult cuGraphKernelNodeSetParams_v2(CUgraphNode h, const CUDA_KERNEL_NODE_PARAMS *p)
{
	return vg_kernel_set(h, p);
}

/* A memset's shape: elements of 1, 2 or 4 bytes, rows within the pitch. */
bool vg_memset_params_ok(const CUDA_MEMSET_NODE_PARAMS *p)
{
	if (p->elementSize != 1 && p->elementSize != 2 && p->elementSize != 4)
		return false;
	if (!p->width || !p->height)
		return false;
	return p->height == 1 || p->pitch >= p->width * p->elementSize;
}

CUresult cuGraphAddMemsetNode(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
			      size_t ndeps, const CUDA_MEMSET_NODE_PARAMS *p, CUcontext ctx)
{
	struct CUgraphNode_st *n;
	CUresult r;

	if (!out || !p || !vg_memset_params_ok(p))
		return CUDA_ERROR_INVALID_VALUE;
	n = vg_new(CU_GRAPH_NODE_TYPE_MEMSET);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	n->p.memset = *p;
	n->ctx = ctx;
	pthread_mutex_lock(&vg_graph_lock);
	r = vg_node_add_to(out, h, deps, NULL, ndeps, n);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

CUresult cuGraphMemsetNodeGetParams(CUgraphNode h, CUDA_MEMSET_NODE_PARAMS *p)
{
	struct CUgraphNode_st *n;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_typed(h, CU_GRAPH_NODE_TYPE_MEMSET);
	if (n)
		*p = n->p.memset;
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphMemsetNodeSetParams(CUgraphNode h, const CUDA_MEMSET_NODE_PARAMS *p)
{
	struct CUgraphNode_st *n;

	if (!p || !vg_memset_params_ok(p))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_typed(h, CU_GRAPH_NODE_TYPE_MEMSET);
	if (n)
		n->p.memset = *p;
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphAddHostNode(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
			    size_t ndeps, const CUDA_HOST_NODE_PARAMS *p)
{
	struct CUgraphNode_st *n;
	CUresult r;

	if (!out || !p || !p->fn)
		return CUDA_ERROR_INVALID_VALUE;
	n = vg_new(CU_GRAPH_NODE_TYPE_HOST);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	n->p.host = *p;
	pthread_mutex_lock(&vg_graph_lock);
	r = vg_node_add_to(out, h, deps, NULL, ndeps, n);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

CUresult cuGraphHostNodeGetParams(CUgraphNode h, CUDA_HOST_NODE_PARAMS *p)
{
	struct CUgraphNode_st *n;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_typed(h, CU_GRAPH_NODE_TYPE_HOST);
	if (n)
		*p = n->p.host;
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphHostNodeSetParams(CUgraphNode h, const CUDA_HOST_NODE_PARAMS *p)
{
	struct CUgraphNode_st *n;

	if (!p || !p->fn)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_typed(h, CU_GRAPH_NODE_TYPE_HOST);
	if (n)
		n->p.host = *p;
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphAddChildGraphNode(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
				  size_t ndeps, CUgraph child)
{
	struct CUgraphNode_st *n;
	struct CUgraph_st *c;
	CUresult r;

	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	c = vg_graph_get(child);
	n = c && c != h ? vg_new(CU_GRAPH_NODE_TYPE_GRAPH) : NULL;
	if (!n) {
		pthread_mutex_unlock(&vg_graph_lock);
		return c && c != h ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_VALUE;
	}
	n->p.child = vg_graph_clone(c);
	if (!n->p.child) {
		vg_node_free(n);
		r = CUDA_ERROR_OUT_OF_MEMORY;
	} else {
		n->p.child->owner = n;
		r = vg_node_add_to(out, h, deps, NULL, ndeps, n);
	}
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

CUresult cuGraphChildGraphNodeGetGraph(CUgraphNode h, CUgraph *out)
{
	struct CUgraphNode_st *n;

	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_typed(h, CU_GRAPH_NODE_TYPE_GRAPH);
	if (n)
		*out = n->p.child;
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* An event record or wait node: the event checked at the adding. */
static CUresult vg_add_event(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
			     size_t ndeps, CUevent ev, CUgraphNodeType type)
{
	struct CUgraphNode_st *n;
	bool known;
	CUresult r;

	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	known = vg_event_find(ev) != NULL;
	pthread_mutex_unlock(&vg_lock);
	if (!known)
		return CUDA_ERROR_INVALID_VALUE;
	n = vg_new(type);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	n->p.event = ev;
	pthread_mutex_lock(&vg_graph_lock);
	r = vg_node_add_to(out, h, deps, NULL, ndeps, n);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

CUresult cuGraphAddEventRecordNode(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
				   size_t ndeps, CUevent ev)
{
	return vg_add_event(out, h, deps, ndeps, ev, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
}

CUresult cuGraphAddEventWaitNode(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
				 size_t ndeps, CUevent ev)
{
	return vg_add_event(out, h, deps, ndeps, ev, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
}

static CUresult vg_event_of(CUgraphNode h, CUevent *out, CUgraphNodeType type)
{
	struct CUgraphNode_st *n;

	if (!out)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_typed(h, type);
	if (n)
		*out = n->p.event;
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static CUresult vg_event_set(CUgraphNode h, CUevent ev, CUgraphNodeType type)
{
	struct CUgraphNode_st *n;
	bool known;

	pthread_mutex_lock(&vg_lock);
	known = vg_event_find(ev) != NULL;
	pthread_mutex_unlock(&vg_lock);
	if (!known)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_typed(h, type);
	if (n)
		n->p.event = ev;
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphEventRecordNodeGetEvent(CUgraphNode h, CUevent *out)
{
	return vg_event_of(h, out, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
}

CUresult cuGraphEventRecordNodeSetEvent(CUgraphNode h, CUevent ev)
{
	return vg_event_set(h, ev, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
}

CUresult cuGraphEventWaitNodeGetEvent(CUgraphNode h, CUevent *out)
{
	return vg_event_of(h, out, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
}

CUresult cuGraphEventWaitNodeSetEvent(CUgraphNode h, CUevent ev)
{
	return vg_event_set(h, ev, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
}
