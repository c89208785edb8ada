// SPDX-License-Identifier: MIT
/*
 * What a capturing stream makes of the work queued on it (capture.h):
 * each launch, fill, copy and host function a node after the stream's
 * dependencies, which it then replaces; an event recorded there a mark
 * of the point it stands for, so that a stream waiting on it joins the
 * capture (or, in it already, depends on that point too). Parameters are
 * checked as the graph's own cuGraphAdd*Node check them.
 */
#include <stdlib.h>
#include <string.h>

#include "capture.h"

/*
 * @n (its parameters set) into @hs's capture, after the stream's
 * dependencies; @n is freed on failure.
 */
CUresult vg_cap_add(CUstream hs, struct CUgraphNode_st *n)
{
	struct CUstream_st *st;
	struct vg_cap_stream *cs;
	struct vg_capture *c;
	CUresult r;

	pthread_mutex_lock(&vg_graph_lock);
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &n->ctx, &st);
	cs = r ? NULL : st->capture;
	c = cs ? cs->cap : NULL;
	if (!r && !c)	/* ended meanwhile, by another thread */
		r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	if (!r && c->invalid)
		r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	if (!r && !vg_graph_get(c->g)) {
		vg_cap_invalidate(c);
		r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	}
	if (r) {
		vg_node_free(n);
	} else {
		r = vg_node_add(c->g, n, (const CUgraphNode *)cs->deps, cs->edata, cs->ndeps);
		if (r)
			vg_cap_invalidate(c);
		else
			r = vg_cap_deps_set(cs, &n, NULL, 1, false);
	}
	pthread_mutex_unlock(&vg_lock);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

CUresult vg_cap_launch(const CUDA_KERNEL_NODE_PARAMS *p, bool cooperative, CUstream hs,
		       bool *taken)
{
	struct CUgraphNode_st *n;
	CUresult r = vg_cap_work(hs, taken);

	if (r || !*taken)
		return r;
	n = vg_node_alloc(CU_GRAPH_NODE_TYPE_KERNEL);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = vg_kernel_node_set(&n->p.kernel, p);
	if (!r && cooperative)
		r = vg_kernel_node_cooperative(&n->p.kernel);
	if (r) {
		vg_node_free(n);
		return r;
	}
	return vg_cap_add(hs, n);
}

CUresult vg_cap_memset(CUdeviceptr dst, size_t pitch, uint32_t value, uint32_t elem,
		       size_t width, size_t height, CUstream hs, bool *taken)
{
	struct CUgraphNode_st *n;
	CUresult r = vg_cap_work(hs, taken);

	if (r || !*taken || !width || !height)
		return r;
	n = vg_node_alloc(CU_GRAPH_NODE_TYPE_MEMSET);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	n->p.memset.dst = dst;
	n->p.memset.pitch = height > 1 ? pitch : width * elem;
	n->p.memset.value = value;
	n->p.memset.elementSize = elem;
	n->p.memset.width = width;
	n->p.memset.height = height;
	if (dst % elem || !vg_memset_params_ok(&n->p.memset)) {
		vg_node_free(n);
		return CUDA_ERROR_INVALID_VALUE;
	}
	return vg_cap_add(hs, n);
}

CUresult vg_cap_copy3d(const CUDA_MEMCPY3D *p, CUstream hs, bool *taken)
{
	struct CUgraphNode_st *n;
	CUresult r = vg_cap_work(hs, taken);

	if (r || !*taken)
		return r;
	if (!p || p->srcLOD || p->dstLOD || p->reserved0 || p->reserved1)
		return CUDA_ERROR_INVALID_VALUE;
	/* Nothing to copy: nothing in the graph, as nothing on a stream. */
	if (!p->WidthInBytes || !p->Height || !p->Depth)
		return CUDA_SUCCESS;
	n = vg_node_alloc(CU_GRAPH_NODE_TYPE_MEMCPY);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	n->p.memcpy = *p;
	return vg_cap_add(hs, n);
}

/* @dir: enum vg_dir. */
CUresult vg_cap_copy1d(int dir, uint64_t dst, uint64_t src, size_t n, CUstream hs,
		       bool *taken)
{
	CUDA_MEMCPY3D p = { 0 };

	p.srcMemoryType = dir == VG_HTOD ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
	p.dstMemoryType = dir == VG_DTOH ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
	p.srcHost = (const void *)(uintptr_t)src;
	p.srcDevice = src;
	p.dstHost = (void *)(uintptr_t)dst;
	p.dstDevice = dst;
	p.srcPitch = p.dstPitch = n;
	p.srcHeight = p.dstHeight = 1;
	p.WidthInBytes = n;
	p.Height = p.Depth = 1;
	return vg_cap_copy3d(&p, hs, taken);
}

CUresult vg_cap_copy2d(const CUDA_MEMCPY2D *s, CUstream hs, bool *taken)
{
	CUDA_MEMCPY3D p = { 0 };

	if (!s)
		return vg_cap_copy3d(NULL, hs, taken);
	p.srcXInBytes = s->srcXInBytes;
	p.srcY = s->srcY;
	p.srcMemoryType = s->srcMemoryType;
	p.srcHost = s->srcHost;
	p.srcDevice = s->srcDevice;
	p.srcArray = s->srcArray;
	p.srcPitch = s->srcPitch;
	p.srcHeight = s->Height;
	p.dstXInBytes = s->dstXInBytes;
	p.dstY = s->dstY;
	p.dstMemoryType = s->dstMemoryType;
	p.dstHost = s->dstHost;
	p.dstDevice = s->dstDevice;
	p.dstArray = s->dstArray;
	p.dstPitch = s->dstPitch;
	p.dstHeight = s->Height;
	p.WidthInBytes = s->WidthInBytes;
	p.Height = s->Height;
	p.Depth = 1;
	return vg_cap_copy3d(&p, hs, taken);
}

/* A batch of stream memory operations: one node, as NVIDIA's driver makes. */
CUresult vg_cap_memops(CUstream hs, unsigned int count, const CUstreamBatchMemOpParams *ops,
		       unsigned int flags, bool *taken)
{
	CUDA_BATCH_MEM_OP_NODE_PARAMS p = { .count = count,
					    .paramArray = (CUstreamBatchMemOpParams *)ops,
					    .flags = flags };
	struct CUgraphNode_st *n;
	CUresult r = vg_cap_work(hs, taken);

	if (r || !*taken)
		return r;
	r = cuCtxGetCurrent(&p.ctx);
	if (r)
		return r;
	n = vg_node_alloc(CU_GRAPH_NODE_TYPE_BATCH_MEM_OP);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = vg_memop_node_set(&n->p.memop, &p);
	if (r) {
		vg_node_free(n);
		return r;
	}
	return vg_cap_add(hs, n);
}

/* External semaphores signalled or waited for: one node a call. */
CUresult vg_cap_sems(CUstream hs, const CUexternalSemaphore *sems, const void *params,
		     unsigned int count, bool signal, bool *taken)
{
	struct CUgraphNode_st *n;
	CUresult r = vg_cap_work(hs, taken);

	if (r || !*taken)
		return r;
	r = vg_sem_node_new(sems, params, count, signal, &n);
	return r ? r : vg_cap_add(hs, n);
}

CUresult vg_cap_host(CUhostFn fn, void *data, CUstream hs, bool *taken)
{
	struct CUgraphNode_st *n;
	CUresult r = vg_cap_work(hs, taken);

	if (r || !*taken)
		return r;
	if (!fn)
		return CUDA_ERROR_INVALID_VALUE;
	n = vg_node_alloc(CU_GRAPH_NODE_TYPE_HOST);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	n->p.host.fn = fn;
	n->p.host.userData = data;
	return vg_cap_add(hs, n);
}

/*
 * An allocation in a capture is the graph's own, made now so that its
 * address holds for every launch; its free is a node that marks the end
 * of its use. Neither does anything when the graph is launched.
 */
CUresult vg_cap_alloc(CUdeviceptr *dptr, size_t bytes, CUstream hs, bool *taken)
{
	struct CUgraphNode_st *n;
	struct vg_graph_mem *m;
	CUresult r = vg_cap_work(hs, taken);

	if (r || !*taken)
		return r;
	n = vg_node_alloc(CU_GRAPH_NODE_TYPE_MEM_ALLOC);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = vg_graph_mem_new(bytes, &m);
	if (r) {
		vg_node_free(n);
		return r;
	}
	n->p.mem = m;
	*dptr = vg_graph_mem_ptr(m);
	r = vg_cap_add(hs, n);
	if (r) {
		*dptr = 0;
		vg_graph_mem_reap();
	}
	return r;
}

CUresult vg_cap_free(CUdeviceptr dptr, CUstream hs, bool *taken)
{
	struct CUgraphNode_st *n;
	CUresult r = vg_cap_work(hs, taken);

	if (r || !*taken)
		return r;
	n = vg_node_alloc(CU_GRAPH_NODE_TYPE_MEM_FREE);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	n->p.freed = dptr;
	return vg_cap_add(hs, n);
}

/* With both locks held: @e marks the point @cs stands at in capture @id. */
static CUresult vg_cap_mark(struct CUevent_st *e, uint64_t id, const struct vg_cap_stream *cs)
{
	struct vg_cap_event *m = e->capture;

	if (!m) {
		m = calloc(1, sizeof(*m));
		if (!m)
			return CUDA_ERROR_OUT_OF_MEMORY;
		e->capture = m;
		__atomic_add_fetch(&vg_cap_busy, 1, __ATOMIC_RELEASE);
	}
	free(m->deps);
	m->deps = NULL;
	m->ndeps = 0;
	if (cs->ndeps) {
		m->deps = malloc(cs->ndeps * sizeof(*m->deps));
		if (!m->deps)
			return CUDA_ERROR_OUT_OF_MEMORY;
		memcpy(m->deps, cs->deps, cs->ndeps * sizeof(*m->deps));
	}
	m->ndeps = cs->ndeps;
	m->id = id;
	return CUDA_SUCCESS;
}

/* Takes both locks and finds @h and @hs; false (none held): let the call say. */
static bool vg_cap_lock_pair(CUevent h, CUstream hs, struct CUevent_st **pe,
			     struct CUstream_st **pst)
{
	struct CUctx_st *ctx;

	pthread_mutex_lock(&vg_graph_lock);
	pthread_mutex_lock(&vg_lock);
	*pe = vg_event_find(h);
	if (*pe && vg_stream_resolve(hs, &ctx, pst) == CUDA_SUCCESS && (*pe)->ctx == ctx)
		return true;
	pthread_mutex_unlock(&vg_lock);
	pthread_mutex_unlock(&vg_graph_lock);
	return false;
}

static void vg_cap_unlock_pair(void)
{
	pthread_mutex_unlock(&vg_lock);
	pthread_mutex_unlock(&vg_graph_lock);
}

/* A new node of @type on @e after @cs's dependencies, which it replaces. */
static CUresult vg_cap_event_node(struct vg_cap_stream *cs, struct CUevent_st *e,
				  CUgraphNodeType type)
{
	struct CUgraphNode_st *n = vg_node_alloc(type);
	CUresult r;

	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (!vg_graph_get(cs->cap->g)) {
		vg_node_free(n);
		return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	}
	n->p.event = e;
	r = vg_node_add(cs->cap->g, n, (const CUgraphNode *)cs->deps, cs->edata, cs->ndeps);
	if (!r)
		r = vg_cap_deps_set(cs, &n, NULL, 1, false);
	return r;
}

CUresult vg_cap_event_record(CUevent h, CUstream hs, unsigned int flags, bool *taken)
{
	struct CUstream_st *st;
	struct CUevent_st *e;
	struct vg_capture *c;
	CUresult r = CUDA_SUCCESS;

	*taken = false;
	if (!vg_cap_maybe() || !vg_cap_lock_pair(h, hs, &e, &st))
		return CUDA_SUCCESS;
	c = st->capture ? st->capture->cap : NULL;
	if (c) {
		*taken = true;
		if (c->invalid)
			r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
		/* An external record is a node of its own. */
		if (!r && (flags & CU_EVENT_RECORD_EXTERNAL))
			r = vg_cap_event_node(st->capture, e, CU_GRAPH_NODE_TYPE_EVENT_RECORD);
		if (!r)
			r = vg_cap_mark(e, c->id, st->capture);
		if (r && r != CUDA_ERROR_STREAM_CAPTURE_INVALIDATED)
			vg_cap_invalidate(c);
	} else {
		r = vg_cap_implicit(st);
		*taken = r != CUDA_SUCCESS;
		/* Recorded outside: a real point again. */
		if (!r && !flags)
			vg_cap_event_free(e);
	}
	vg_cap_unlock_pair();
	return r;
}

CUresult vg_cap_event_wait(CUstream hs, CUevent h, unsigned int flags, bool *taken)
{
	struct CUstream_st *st;
	struct CUevent_st *e;
	struct vg_capture *c, *ce = NULL;
	struct vg_cap_stream *cs;
	CUresult r = CUDA_SUCCESS;

	*taken = false;
	if (!vg_cap_maybe() || !vg_cap_lock_pair(h, hs, &e, &st))
		return CUDA_SUCCESS;
	c = st->capture ? st->capture->cap : NULL;
	if (e->capture)
		ce = vg_cap_find(e->capture->id);
	*taken = true;
	if (e->capture && !ce) {
		/* Its capture has ended: the point it marks is in no stream. */
		r = CUDA_ERROR_INVALID_VALUE;
	} else if (ce && ce->invalid) {
		r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	} else if (ce && c && c != ce) {
		vg_cap_invalidate(c);
		r = CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
	} else if (ce && st->legacy) {
		vg_cap_invalidate(ce);
		r = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
	} else if (ce) {
		/* A stream outside joins the capture where the event stands. */
		cs = vg_cap_stream_of(st);
		r = cs ? vg_cap_deps_set(cs, e->capture->deps, NULL, e->capture->ndeps, c != NULL)
			: CUDA_ERROR_OUT_OF_MEMORY;
		if (!r)
			cs->cap = ce;
		else
			vg_cap_invalidate(ce);
	} else if (c && c->invalid) {
		r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	} else if (c && (flags & CU_EVENT_WAIT_EXTERNAL)) {
		r = vg_cap_event_node(st->capture, e, CU_GRAPH_NODE_TYPE_WAIT_EVENT);
		if (r)
			vg_cap_invalidate(c);
	} else if (c) {
		/* A wait on work outside the capture would tie it to that work. */
		vg_cap_invalidate(c);
		r = CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
	} else {
		r = vg_cap_implicit(st);
		*taken = r != CUDA_SUCCESS;
	}
	vg_cap_unlock_pair();
	return r;
}

/* Querying or waiting for an event that marks a point of a capture. */
CUresult vg_cap_event_use(CUevent h)
{
	struct CUevent_st *e;
	struct vg_capture *c;
	CUresult r = CUDA_SUCCESS;

	if (!vg_cap_maybe())
		return CUDA_SUCCESS;
	pthread_mutex_lock(&vg_graph_lock);
	pthread_mutex_lock(&vg_lock);
	e = vg_event_find(h);
	if (e && e->capture) {
		c = vg_cap_find(e->capture->id);
		if (c) {
			vg_cap_invalidate(c);
			r = CUDA_ERROR_CAPTURED_EVENT;
		} else {
			r = CUDA_ERROR_INVALID_VALUE;
		}
	}
	pthread_mutex_unlock(&vg_lock);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}
