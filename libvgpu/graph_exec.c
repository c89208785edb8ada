// SPDX-License-Identifier: MIT
/*
 * Executable graphs: cuGraphInstantiate takes a private copy of the graph
 * and its nodes in an order that keeps every dependency (refusing a
 * cycle), and puts them on lanes: a node goes on the lane of a node it
 * depends on when it is that lane's last so far, else on a lane of its
 * own, up to VG_EXEC_LANES. cuGraphLaunch submits the nodes in that order,
 * lane 0 to the launch's stream and the others to streams of the
 * executable graph's own, so that the engines run independent branches
 * side by side: the other lanes start after the stream's earlier work, a
 * node waits for those it depends on in other lanes (events), and the
 * stream waits for every lane at the end. The whole is one batch of
 * commands, told to the module once per channel.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"

/* The macros of cuda.h would rename these definitions. */
#undef cuGraphInstantiate
#undef cuGraphInstantiateWithParams
#undef cuGraphLaunch
#undef cuGraphUpload
#undef cuGraphExecKernelNodeSetParams

#define VG_EXEC_MAGIC 0x65786563u	/* "exec" */
#define VG_EXEC_LANES 4

/*
 * struct vg_lanes - the streams and events of an executable graph's lanes
 * for launches on streams of context @ctx at priority @prio.
 * @aux: the streams of lanes 1 on (lane 0 is the launch's stream).
 * @start: recorded on the launch's stream before the other lanes start;
 * @end: each other lane's, after its last node.
 * @ev: by a node's place in the order, the event recorded after it when a
 *	node of another lane depends on it.
 * @serial: @ctx's id (cuCtxGetId()) when they were made: a context
 *	destroyed or reset since has taken them with it.
 * They are destroyed without vg_graph_lock, which destroying a stream
 * takes (capture.c); not at all once @gone: their context went with them.
 */
struct vg_lanes {
	CUcontext ctx;
	unsigned long long serial;
	int prio;
	bool gone;
	CUstream aux[VG_EXEC_LANES];
	CUevent start, end[VG_EXEC_LANES];
	size_t nev;
	CUevent ev[];
};

/*
 * struct CUgraphExec_st - an executable graph.
 * @lane, @cross: each node's lane, by its place in @order, and whether a
 *	node of another lane depends on it.
 * @lanes: their streams and events, from the last launch, or NULL.
 */
struct CUgraphExec_st {
	uint32_t magic;
	struct CUgraph_st *g;	/* the private copy */
	struct CUgraphNode_st **order;	/* g's nodes, dependencies first */
	uint64_t flags;
	CUevent done;		/* after the last launch, if it holds user objects */
	CUcontext done_ctx;	/* @done's context, and its id then */
	unsigned long long done_serial;
	uint8_t *lane;
	bool *cross;
	unsigned int nlanes;
	struct vg_lanes *lanes;
	struct CUgraphExec_st *next;	/* vg_execs */
};

static struct CUgraphExec_st *vg_execs;	/* vg_graph_lock */

/*
 * Whether what was made in @ctx while its id was @serial is still there:
 * neither destroyed with the context nor with a reset of it. A handle
 * of a context gone may name another one made since, and the handles of
 * its streams and events those of that one's.
 */
static bool vg_ctx_same(CUcontext ctx, unsigned long long serial)
{
	unsigned long long id;

	return ctx && !cuCtxGetId(ctx, &id) && id == serial;
}

static struct CUgraphExec_st *vg_exec_get(CUgraphExec h)
{
	struct CUgraphExec_st *e;

	for (e = vg_execs; e; e = e->next)
		if (e == h)
			return e;
	return NULL;
}

struct CUgraph_st *vg_exec_graph(CUgraphExec h)
{
	struct CUgraphExec_st *e = vg_exec_get(h);

	return e ? e->g : NULL;
}

/*
 * @g's nodes in an order that puts each after its dependencies (Kahn's);
 * NULL with *@cycle set when there is none, or without: out of memory.
 */
static struct CUgraphNode_st **vg_topo(const struct CUgraph_st *g, bool *cycle)
{
	struct CUgraphNode_st **order = malloc((g->nnodes + 1) * sizeof(*order));
	size_t *left = calloc(g->nnodes + 1, sizeof(*left));
	size_t i, j, head = 0, tail = 0;

	*cycle = false;
	if (!order || !left) {
		free(order);
		free(left);
		return NULL;
	}
	/* Each node's place in g->nodes, to count its dependencies left. */
	for (i = 0; i < g->nnodes; i++) {
		g->nodes[i]->mark = i;
		left[i] = g->nodes[i]->nin;
		if (!left[i])
			order[tail++] = g->nodes[i];
	}
	while (head < tail) {
		struct CUgraphNode_st *n = order[head++];

		for (j = 0; j < n->nout; j++)
			if (!--left[n->out[j]->mark])
				order[tail++] = n->out[j];
	}
	free(left);
	if (tail != g->nnodes) {
		free(order);
		*cycle = true;
		return NULL;
	}
	return order;
}

/*
 * @e's nodes on lanes (struct CUgraphExec_st): the lane of a node it
 * depends on whose last node it was, or a new one, or, with all in use,
 * the one whose last node came first. Return: 0 or -ENOMEM.
 */
static int vg_exec_lanes(struct CUgraphExec_st *e)
{
	struct CUgraphNode_st *tail[VG_EXEC_LANES] = { NULL };
	size_t n = e->g->nnodes, last[VG_EXEC_LANES] = { 0 }, i, j;
	unsigned int l;
	int pick;

	e->lane = calloc(n + 1, sizeof(*e->lane));
	e->cross = calloc(n + 1, sizeof(*e->cross));
	if (!e->lane || !e->cross)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		e->order[i]->mark = i;
	for (i = 0; i < n; i++) {
		struct CUgraphNode_st *nd = e->order[i];

		pick = -1;
		for (j = 0; j < nd->nin && pick < 0; j++) {
			const struct CUgraphNode_st *p = nd->in[j].from;

			if (tail[e->lane[p->mark]] == p)
				pick = e->lane[p->mark];
		}
		if (pick < 0 && e->nlanes < VG_EXEC_LANES)
			pick = (int)e->nlanes++;
		/* All in use: the one whose last node came first. */
		if (pick < 0) {
			for (pick = 0, l = 1; l < e->nlanes; l++)
				if (last[l] < last[pick])
					pick = (int)l;
		}
		e->lane[i] = (uint8_t)pick;
		tail[pick] = nd;
		last[pick] = i;
		for (j = 0; j < nd->nin; j++)
			if (e->lane[nd->in[j].from->mark] != pick)
				e->cross[nd->in[j].from->mark] = true;
	}
	return 0;
}

/* Destroys @l, of no graph now; vg_graph_lock not held. */
static void vg_lanes_free(struct vg_lanes *l)
{
	unsigned int i;
	size_t j;

	if (!l)
		return;
	if (!vg_ctx_same(l->ctx, l->serial))
		l->gone = true;
	for (j = 0; !l->gone && j < l->nev; j++)
		if (l->ev[j])
			cuEventDestroy(l->ev[j]);
	for (i = 0; !l->gone && i < VG_EXEC_LANES; i++) {
		if (l->aux[i])
			cuStreamDestroy(l->aux[i]);
		if (l->end[i])
			cuEventDestroy(l->end[i]);
	}
	if (!l->gone && l->start)
		cuEventDestroy(l->start);
	free(l);
}

/*
 * The lanes' streams and events for a launch on @s: those of the last
 * launch when @s is of the same context and priority, else new ones;
 * those they replace go to *@old, for the caller to free
 * (vg_lanes_free()) once it has let go of vg_graph_lock.
 */
static CUresult vg_exec_lanes_for(struct CUgraphExec_st *e, CUstream s,
				  struct vg_lanes **old)
{
	size_t n = e->g->nnodes, i;
	struct vg_lanes *l;
	CUcontext c, popped;
	unsigned int k;
	CUresult r;
	int prio;

	r = cuStreamGetCtx(s, &c);
	if (!r)
		r = cuStreamGetPriority(s, &prio);
	if (r)
		return r;
	if (e->lanes && e->lanes->ctx == c && e->lanes->prio == prio &&
	    vg_ctx_same(c, e->lanes->serial))
		return CUDA_SUCCESS;
	l = calloc(1, sizeof(*l) + n * sizeof(l->ev[0]));
	if (!l)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = cuCtxGetId(c, &l->serial);
	if (r) {
		free(l);
		return r;
	}
	l->ctx = c;
	l->prio = prio;
	l->nev = n;
	r = cuCtxPushCurrent(c);
	if (r) {
		free(l);
		return r;
	}
	r = cuEventCreate(&l->start, CU_EVENT_DISABLE_TIMING);
	for (k = 1; !r && k < e->nlanes; k++) {
		r = cuStreamCreateWithPriority(&l->aux[k], CU_STREAM_NON_BLOCKING, prio);
		if (!r)
			r = cuEventCreate(&l->end[k], CU_EVENT_DISABLE_TIMING);
	}
	for (i = 0; !r && i < n; i++)
		if (e->cross[i])
			r = cuEventCreate(&l->ev[i], CU_EVENT_DISABLE_TIMING);
	cuCtxPopCurrent(&popped);
	if (r) {
		*old = l;
		return r;
	}
	*old = e->lanes;
	e->lanes = l;
	return CUDA_SUCCESS;
}

/* Checks @g and each child graph in it for what cannot be instantiated. */
static CUresult vg_exec_check(const struct CUgraph_st *g, uint64_t flags)
{
	struct CUgraphNode_st **order;
	bool cycle;
	size_t i;
	CUresult r = CUDA_SUCCESS;

	order = vg_topo(g, &cycle);
	if (!order)
		return cycle ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_OUT_OF_MEMORY;
	free(order);
	r = vg_cond_check(g, NULL);
	for (i = 0; !r && i < g->nnodes; i++) {
		const struct CUgraphNode_st *n = g->nodes[i];
		unsigned int j;

		/* A graph the device launches runs no host code. */
		if ((flags & CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH) &&
		    n->type == CU_GRAPH_NODE_TYPE_HOST)
			r = CUDA_ERROR_INVALID_VALUE;
		else if (n->type == CU_GRAPH_NODE_TYPE_GRAPH)
			r = vg_exec_check(n->p.child, flags);
		else if (n->type == CU_GRAPH_NODE_TYPE_CONDITIONAL) {
			r = vg_cond_check(g, n);
			for (j = 0; !r && j < n->p.cond.size; j++)
				r = vg_exec_check(n->p.cond.body[j], flags);
		}
	}
	return r;
}

/* The flags cuGraphInstantiateWithFlags takes (the H200's answers). */
#define VG_EXEC_FLAGS (CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH | \
		       CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH | \
		       CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY)

/* Instantiates @h with @flags, any of @allowed (the call's own). */
static CUresult vg_instantiate(CUgraphExec *out, CUgraph h, uint64_t flags, uint64_t allowed)
{
	struct CUgraphExec_st *e;
	struct CUgraph_st *g;
	bool cycle;
	CUresult r;

	if (!out || (flags & ~allowed))
		return CUDA_ERROR_INVALID_VALUE;
	e = calloc(1, sizeof(*e));
	if (!e)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&vg_graph_lock);
	g = vg_graph_get(h);
	r = g ? vg_exec_check(g, flags) : CUDA_ERROR_INVALID_VALUE;
	if (!r) {
		e->g = vg_graph_clone(g);
		vg_graph_id_skip();
		e->order = e->g ? vg_topo(e->g, &cycle) : NULL;
		if (!e->order || vg_exec_lanes(e))
			r = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (r) {
		if (e->g)
			vg_graph_free(e->g);
		free(e->order);
		free(e->lane);
		free(e->cross);
		pthread_mutex_unlock(&vg_graph_lock);
		vg_graph_mem_reap();
		free(e);
		return r;
	}
	e->magic = VG_EXEC_MAGIC;
	e->flags = flags;
	e->next = vg_execs;
	vg_execs = e;
	pthread_mutex_unlock(&vg_graph_lock);
	*out = e;
	return CUDA_SUCCESS;
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *out, CUgraph h, unsigned long long flags)
{
	return vg_instantiate(out, h, flags, VG_EXEC_FLAGS);
}

static CUresult vg_exec_stream(CUstream s);

/*
 * The parameters' form, which alone takes CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD:
 * the upload (cuGraphUpload's checks) goes to the parameters' stream. The
 * result tells success or an error the return value says; no node is
 * blamed.
 */
CUresult cuGraphInstantiateWithParams(CUgraphExec *out, CUgraph h,
				      CUDA_GRAPH_INSTANTIATE_PARAMS *p)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	p->hErrNode_out = NULL;
	p->result_out = CUDA_GRAPH_INSTANTIATE_ERROR;
	if (p->flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD) {
		r = vg_exec_stream(p->hUploadStream);
		if (r)
			return r;
	}
	/* The upload is done with; the flags read back leave it out, as NVIDIA's. */
	r = vg_instantiate(out, h, p->flags & ~(uint64_t)CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD,
			   VG_EXEC_FLAGS);
	if (!r)
		p->result_out = CUDA_GRAPH_INSTANTIATE_SUCCESS;
	return r;
}

CUresult cuGraphInstantiateWithParams_ptsz(CUgraphExec *out, CUgraph h,
					   CUDA_GRAPH_INSTANTIATE_PARAMS *p)
{
	CUDA_GRAPH_INSTANTIATE_PARAMS c;
	CUresult r;

	if (!p)
		return cuGraphInstantiateWithParams(out, h, p);
	c = *p;
	if (!c.hUploadStream)
		c.hUploadStream = CU_STREAM_PER_THREAD;
	r = cuGraphInstantiateWithParams(out, h, &c);
	p->hErrNode_out = c.hErrNode_out;
	p->result_out = c.result_out;
	return r;
}

/* CUDA 11's form: an error node and a log, which stay empty here. */
CUresult cuGraphInstantiate(CUgraphExec *out, CUgraph h, CUgraphNode *err_node,
			    char *log, size_t log_size)
{
	CUresult r = vg_instantiate(out, h, 0, VG_EXEC_FLAGS);

	if (err_node)
		*err_node = NULL;
	if (log && log_size)
		log[0] = 0;
	return r;
}

CUresult cuGraphInstantiate_v2(CUgraphExec *out, CUgraph h, CUgraphNode *err_node,
			       char *log, size_t log_size)
{
	return cuGraphInstantiate(out, h, err_node, log, log_size);
}

CUresult cuGraphExecDestroy(CUgraphExec h)
{
	struct CUgraphExec_st **pp, *e = NULL;
	struct vg_lanes *lanes = NULL;

	pthread_mutex_lock(&vg_graph_lock);
	for (pp = &vg_execs; *pp; pp = &(*pp)->next) {
		if (*pp == h) {
			e = *pp;
			*pp = e->next;
			break;
		}
	}
	if (e) {
		/* Its user objects outlive its launches' work, if any is left. */
		vg_user_drop(e->g, vg_ctx_same(e->done_ctx, e->done_serial) ?
			     e->done : NULL);
		vg_graph_free(e->g);
		free(e->order);
		free(e->lane);
		free(e->cross);
		lanes = e->lanes;
		e->magic = 0;
		free(e);
	}
	pthread_mutex_unlock(&vg_graph_lock);
	vg_lanes_free(lanes);
	vg_graph_mem_reap();
	return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphExecGetFlags(CUgraphExec h, cuuint64_t *flags)
{
	struct CUgraphExec_st *e;

	if (!flags)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	e = vg_exec_get(h);
	if (e)
		*flags = e->flags;
	pthread_mutex_unlock(&vg_graph_lock);
	return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static CUresult vg_run_graph(struct CUgraph_st *g, struct CUgraphNode_st **order,
			     CUstream s);

static CUresult vg_memset_node(const CUDA_MEMSET_NODE_PARAMS *p, CUstream s)
{
	size_t pitch = p->height > 1 ? p->pitch : p->width * p->elementSize;

	switch (p->elementSize) {
	case 1:
		return cuMemsetD2D8Async(p->dst, pitch, (unsigned char)p->value, p->width,
					 p->height, s);
	case 2:
		return cuMemsetD2D16Async(p->dst, pitch, (unsigned short)p->value, p->width,
					  p->height, s);
	default:
		return cuMemsetD2D32Async(p->dst, pitch, p->value, p->width, p->height, s);
	}
}

/* Submits node @n to @s. */
static CUresult vg_run_body(struct CUgraph_st *g, CUstream s);

static CUresult vg_run_node(struct CUgraphNode_st *n, CUstream s)
{
	struct vg_kernel_node *kn = &n->p.kernel;
	struct vg_launch l;

	CUresult r;

	if (n->disabled)
		return CUDA_SUCCESS;
	/*
	 * Consecutive kernels gather into one command (launch.c); what
	 * comes after them is queued after them.
	 */
	if (n->type != CU_GRAPH_NODE_TYPE_KERNEL &&
	    n->type != CU_GRAPH_NODE_TYPE_GRAPH) {
		r = vg_chain_sync();
		if (r)
			return r;
	}
	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		memset(&l, 0, sizeof(l));
		memcpy(l.grid, kn->grid, sizeof(l.grid));
		memcpy(l.block, kn->block, sizeof(l.block));
		l.shared = kn->shared;
		l.stream = s;
		l.params = kn->argv;
		vg_kernel_node_attrs(kn, &l);
		return vg_launch(kn->func, &l);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		return vg_memset_node(&n->p.memset, s);
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		return cuMemcpy3DAsync_v2(&n->p.memcpy, s);
	case CU_GRAPH_NODE_TYPE_HOST:
		return cuLaunchHostFunc(s, n->p.host.fn, n->p.host.userData);
	case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
		return cuStreamBatchMemOp_v2(s, n->p.memop.count, n->p.memop.ops,
					     n->p.memop.flags);
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL:
	case CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT:
		return vg_sem_node_run(n, s);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		return cuEventRecord(n->p.event, s);
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		return cuStreamWaitEvent(s, n->p.event, 0);
	case CU_GRAPH_NODE_TYPE_GRAPH:
		return vg_run_body(n->p.child, s);
	case CU_GRAPH_NODE_TYPE_CONDITIONAL: {
		struct vg_chain *saved;

		/* The body's kernels go one by one, between its commands. */
		vg_chain_suspend(&saved);
		r = vg_cond_run(n, s, vg_run_body);
		vg_chain_resume(saved);
		return r;
	}
	default:
		return CUDA_SUCCESS;
	}
}

/* A child or body graph's nodes, in dependency order, on @s. */
static CUresult vg_run_body(struct CUgraph_st *g, CUstream s)
{
	struct CUgraphNode_st **order;
	bool cycle;
	CUresult r;

	order = vg_topo(g, &cycle);
	if (!order)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = vg_run_graph(g, order, s);
	free(order);
	return r;
}

static CUresult vg_run_graph(struct CUgraph_st *g, struct CUgraphNode_st **order, CUstream s)
{
	CUresult r = CUDA_SUCCESS;
	size_t i;

	for (i = 0; !r && i < g->nnodes; i++)
		r = vg_run_node(order[i], s);
	return r;
}

/*
 * @e's nodes, each on its lane (struct CUgraphExec_st): lane 0 is @s.
 * Kernels chain only within a lane; a node's event and the waits for
 * those of other lanes come between chains.
 */
static CUresult vg_run_lanes(struct CUgraphExec_st *e, CUstream s,
			     struct vg_lanes **old)
{
	bool started[VG_EXEC_LANES] = { true };
	struct vg_lanes *la;
	CUresult r;
	unsigned int l;
	size_t i, j;

	if (e->nlanes < 2)
		return vg_run_graph(e->g, e->order, s);
	r = vg_exec_lanes_for(e, s, old);
	if (r)
		return r;
	la = e->lanes;
	r = vg_chain_sync();
	if (!r)
		r = cuEventRecord(la->start, s);
	for (i = 0; i < e->g->nnodes; i++)
		e->order[i]->mark = i;
	for (i = 0; !r && i < e->g->nnodes; i++) {
		struct CUgraphNode_st *nd = e->order[i];
		CUstream ls = e->lane[i] ? la->aux[e->lane[i]] : s;

		if (!started[e->lane[i]]) {
			r = vg_chain_sync();
			if (!r)
				r = cuStreamWaitEvent(ls, la->start, 0);
			started[e->lane[i]] = true;
		}
		for (j = 0; !r && j < nd->nin; j++) {
			size_t p = nd->in[j].from->mark;

			if (e->lane[p] == e->lane[i])
				continue;
			r = vg_chain_sync();
			if (!r)
				r = cuStreamWaitEvent(ls, la->ev[p], 0);
		}
		if (!r)
			r = vg_run_node(nd, ls);
		if (!r && e->cross[i]) {
			r = vg_chain_sync();
			if (!r)
				r = cuEventRecord(la->ev[i], ls);
		}
	}
	if (!r)
		r = vg_chain_sync();
	for (l = 1; !r && l < e->nlanes; l++) {
		if (!started[l])
			continue;
		r = cuEventRecord(la->end[l], la->aux[l]);
		if (!r)
			r = cuStreamWaitEvent(s, la->end[l], 0);
	}
	return r;
}

/* A stream of the current context (its handle checked there), or NULL's. */
static CUresult vg_exec_stream(CUstream s)
{
	struct CUctx_st *ctx;
	struct CUstream_st *st;
	CUresult r;

	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(s, &ctx, &st);
	pthread_mutex_unlock(&vg_lock);
	return r;
}

/*
 * Records @e's event after its launch on @s, an event of @s's context:
 * made anew for a launch on another context than the last (the last's
 * work waited for, where its context is still there).
 */
static CUresult vg_exec_done(struct CUgraphExec_st *e, CUstream s)
{
	CUcontext c, popped;
	CUresult r;

	r = cuStreamGetCtx(s, &c);
	if (r)
		return r;
	if (e->done && (e->done_ctx != c || !vg_ctx_same(c, e->done_serial))) {
		if (vg_ctx_same(e->done_ctx, e->done_serial)) {
			cuEventSynchronize(e->done);
			cuEventDestroy(e->done);
		}
		e->done = NULL;
	}
	if (!e->done) {
		r = cuCtxGetId(c, &e->done_serial);
		if (!r)
			r = cuCtxPushCurrent(c);
		if (r)
			return r;
		r = cuEventCreate(&e->done, CU_EVENT_DISABLE_TIMING);
		cuCtxPopCurrent(&popped);
		if (r) {
			e->done = NULL;
			return r;
		}
		e->done_ctx = c;
	}
	return cuEventRecord(e->done, s);
}

CUresult cuGraphLaunch(CUgraphExec h, CUstream s)
{
	struct CUgraphExec_st *e;
	CUresult r = vg_check_init(), r2, r3;
	struct vg_lanes *old = NULL;
	struct vg_chain *saved;

	if (r)
		return r;
	r = vg_exec_stream(s);
	/* A capturing stream takes no graph launch here (NVIDIA's: 900). */
	if (!r)
		r = vg_cap_refuse(s);
	if (r)
		return r;
	/*
	 * The lock keeps the graph as it is while its nodes are submitted,
	 * written to the channels' rings and told to the module once per
	 * channel at the end: one submission, which the engines run without
	 * coming back to this process between nodes (host nodes aside). The
	 * nodes' entry points leave capture to this call, which checked.
	 */
	pthread_mutex_lock(&vg_graph_lock);
	e = vg_exec_get(h);
	vg_cap_replaying = true;
	vg_batch_begin();
	vg_chain_begin(&saved);
	r = e ? vg_cond_reset(e->g, s) : CUDA_ERROR_INVALID_VALUE;
	if (!r)
		r = vg_run_lanes(e, s, &old);
	r3 = vg_chain_end(saved);
	if (!r)
		r = r3;
	if (!r && e->g->nurefs)
		r = vg_exec_done(e, s);
	r2 = vg_batch_end();
	if (!r && !r2)
		vg_graph_mem_launched(e->g, true);
	vg_cap_replaying = false;
	pthread_mutex_unlock(&vg_graph_lock);
	/* Streams and events of a launch on another context or priority. */
	vg_lanes_free(old);
	return r ? r : r2;
}

CUresult cuGraphLaunch_ptsz(CUgraphExec h, CUstream s)
{
	return cuGraphLaunch(h, s ? s : CU_STREAM_PER_THREAD);
}

/*
 * Nothing of a graph needs moving to this device before its launch: the
 * checks of a launch, and the stream's order is kept by the launch itself.
 */
CUresult cuGraphUpload(CUgraphExec h, CUstream s)
{
	struct CUgraphExec_st *e;
	CUresult r = vg_check_init();

	if (r)
		return r;
	r = vg_exec_stream(s);
	if (r)
		return r;
	pthread_mutex_lock(&vg_graph_lock);
	e = vg_exec_get(h);
	/* Its memory is the device's from here, as NVIDIA's upload makes it. */
	if (e)
		vg_graph_mem_launched(e->g, false);
	pthread_mutex_unlock(&vg_graph_lock);
	return e ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphUpload_ptsz(CUgraphExec h, CUstream s)
{
	return cuGraphUpload(h, s ? s : CU_STREAM_PER_THREAD);
}

/* The copy in @e of @orig, a node of the graph @e was made from. */
static struct CUgraphNode_st *vg_exec_node(struct CUgraphExec_st *e, CUgraphNode orig)
{
	struct CUgraphNode_st *o = vg_node_get(orig);
	size_t i;

	/*
	 * The nodes of the graph it was made from name its nodes, and once
	 * it was updated, those of the graph it was updated from too (an
	 * H200 took the first graph's after an update).
	 */
	if (!o)
		return NULL;
	for (i = 0; i < e->g->nnodes; i++)
		if ((o->graph == e->g->origin && e->g->nodes[i]->origin == o) ||
		    (o->graph == e->g->updated && e->g->nodes[i]->updated == o))
			return e->g->nodes[i];
	return NULL;
}

CUresult cuGraphNodeSetEnabled(CUgraphExec h, CUgraphNode node, unsigned int on)
{
	struct CUgraphExec_st *e;
	struct CUgraphNode_st *n = NULL;

	pthread_mutex_lock(&vg_graph_lock);
	e = vg_exec_get(h);
	if (e)
		n = vg_exec_node(e, node);
	/* Kernel, memset and memcpy nodes can be turned off. */
	if (n && n->type != CU_GRAPH_NODE_TYPE_KERNEL && n->type != CU_GRAPH_NODE_TYPE_MEMSET &&
	    n->type != CU_GRAPH_NODE_TYPE_MEMCPY)
		n = NULL;
	if (n)
		n->disabled = !on;
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphNodeGetEnabled(CUgraphExec h, CUgraphNode node, unsigned int *on)
{
	struct CUgraphExec_st *e;
	struct CUgraphNode_st *n = NULL;

	if (!on)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	e = vg_exec_get(h);
	if (e)
		n = vg_exec_node(e, node);
	if (n && n->type != CU_GRAPH_NODE_TYPE_KERNEL && n->type != CU_GRAPH_NODE_TYPE_MEMSET &&
	    n->type != CU_GRAPH_NODE_TYPE_MEMCPY)
		n = NULL;
	if (n)
		*on = !n->disabled;
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

/* A node of @h's graph of @type, in the executable graph @e. */
struct CUgraphNode_st *vg_exec_typed(CUgraphExec h, CUgraphNode node,
				     CUgraphNodeType type)
{
	struct CUgraphExec_st *e = vg_exec_get(h);
	struct CUgraphNode_st *n = e ? vg_exec_node(e, node) : NULL;

	return n && n->type == type ? n : NULL;
}

static CUresult vg_exec_kernel_set(CUgraphExec h, CUgraphNode node,
				   const CUDA_KERNEL_NODE_PARAMS *p)
{
	struct CUgraphNode_st *n;
	CUresult r = CUDA_ERROR_INVALID_VALUE;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_exec_typed(h, node, CU_GRAPH_NODE_TYPE_KERNEL);
	if (n)
		r = vg_kernel_node_set(&n->p.kernel, p);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

CUresult cuGraphExecKernelNodeSetParams(CUgraphExec h, CUgraphNode node,
					const CUDA_KERNEL_NODE_PARAMS_v1 *p)
{
	CUDA_KERNEL_NODE_PARAMS v = { 0 };

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	memcpy(&v, p, sizeof(*p));
	return vg_exec_kernel_set(h, node, &v);
}

CUresult cuGraphExecKernelNodeSetParams_v2(CUgraphExec h, CUgraphNode node,
					   const CUDA_KERNEL_NODE_PARAMS *p)
{
	return vg_exec_kernel_set(h, node, p);
}

/* Node @node of @h, of @type, takes @size bytes of parameters @p (checked). */
static CUresult vg_exec_set(CUgraphExec h, CUgraphNode node, CUgraphNodeType type,
			    const void *p, size_t size)
{
	struct CUgraphNode_st *n;

	pthread_mutex_lock(&vg_graph_lock);
	n = vg_exec_typed(h, node, type);
	if (n)
		memcpy(&n->p, p, size);
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphExecHostNodeSetParams(CUgraphExec h, CUgraphNode node,
				      const CUDA_HOST_NODE_PARAMS *p)
{
	if (!p || !p->fn)
		return CUDA_ERROR_INVALID_VALUE;
	return vg_exec_set(h, node, CU_GRAPH_NODE_TYPE_HOST, p, sizeof(*p));
}

CUresult cuGraphExecMemsetNodeSetParams(CUgraphExec h, CUgraphNode node,
					const CUDA_MEMSET_NODE_PARAMS *p, CUcontext ctx)
{
	(void)ctx;
	if (!p || !vg_memset_params_ok(p))
		return CUDA_ERROR_INVALID_VALUE;
	return vg_exec_set(h, node, CU_GRAPH_NODE_TYPE_MEMSET, p, sizeof(*p));
}

/*
 * A copy keeps the kind of memory of each side (an H200 refused a
 * device-to-device copy made a unified one: rt_graph).
 */
CUresult cuGraphExecMemcpyNodeSetParams(CUgraphExec h, CUgraphNode node,
					const CUDA_MEMCPY3D *p, CUcontext ctx)
{
	struct CUgraphNode_st *n;

	(void)ctx;
	if (!vg_memcpy_params_ok(p))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_exec_typed(h, node, CU_GRAPH_NODE_TYPE_MEMCPY);
	if (n && (n->p.memcpy.srcMemoryType != p->srcMemoryType ||
		  n->p.memcpy.dstMemoryType != p->dstMemoryType))
		n = NULL;
	if (n)
		n->p.memcpy = *p;
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static CUresult vg_exec_event_set(CUgraphExec h, CUgraphNode node, CUevent ev,
				  CUgraphNodeType type)
{
	struct CUgraphNode_st *n;
	bool known;

	pthread_mutex_lock(&vg_lock);
	known = vg_event_find(ev) != NULL;
	pthread_mutex_unlock(&vg_lock);
	if (!known)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_exec_typed(h, node, type);
	if (n)
		n->p.event = ev;
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphExecEventRecordNodeSetEvent(CUgraphExec h, CUgraphNode node, CUevent ev)
{
	return vg_exec_event_set(h, node, ev, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
}

CUresult cuGraphExecEventWaitNodeSetEvent(CUgraphExec h, CUgraphNode node, CUevent ev)
{
	return vg_exec_event_set(h, node, ev, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
}
