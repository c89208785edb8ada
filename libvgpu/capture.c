// SPDX-License-Identifier: MIT
/*
 * Stream capture's state and entry points (capture.h): beginning and
 * ending a capture, its status and information, its streams' dependency
 * lists, the thread's capture mode, and NVIDIA's rules of what a call
 * does to the captures under way: a call that would wait for captured
 * work, or one of the "potentially unsafe" calls (memory allocation and
 * freeing, waiting for a stream) while a capture that the calling
 * thread's mode sees is under way, answers 900 and invalidates it.
 */
#include <stdlib.h>
#include <string.h>

#include "capture.h"

/* The macros of cuda.h would rename these definitions. */
#undef cuStreamBeginCapture
#undef cuStreamBeginCaptureToGraph
#undef cuStreamEndCapture
#undef cuStreamGetCaptureInfo
#undef cuStreamIsCapturing
#undef cuStreamUpdateCaptureDependencies

int vg_cap_busy;
__thread bool vg_cap_replaying;

static struct vg_capture *vg_captures;	/* the live ones */
static uint64_t vg_cap_ids;
/* The calling thread's mode (cuThreadExchangeStreamCaptureMode). */
static __thread CUstreamCaptureMode vg_thread_mode = CU_STREAM_CAPTURE_MODE_GLOBAL;

struct vg_capture *vg_cap_find(uint64_t id)
{
	struct vg_capture *c;

	for (c = vg_captures; c; c = c->next)
		if (c->id == id)
			return c;
	return NULL;
}

void vg_cap_invalidate(struct vg_capture *c)
{
	c->invalid = true;
}

/* @st's capture part, made on first need; NULL: out of memory. */
struct vg_cap_stream *vg_cap_stream_of(struct CUstream_st *st)
{
	if (!st->capture)
		st->capture = calloc(1, sizeof(*st->capture));
	return st->capture;
}

static struct vg_capture *vg_capture_of(const struct CUstream_st *st)
{
	return st->capture ? st->capture->cap : NULL;
}

/* @cs's dependencies become @deps (@add: are joined by those not in). */
CUresult vg_cap_deps_set(struct vg_cap_stream *cs, struct CUgraphNode_st *const *deps,
			 const CUgraphEdgeData *edata, size_t n, bool add)
{
	size_t i, j, need = (add ? cs->ndeps : 0) + n;

	/* None yet: no arrays, as NVIDIA's first answer has none. */
	if (need > cs->dcap) {
		size_t c = need > 4 ? need : 4;
		struct CUgraphNode_st **d = realloc(cs->deps, c * sizeof(*d));
		CUgraphEdgeData *e;

		if (!d)
			return CUDA_ERROR_OUT_OF_MEMORY;
		cs->deps = d;
		e = realloc(cs->edata, c * sizeof(*e));
		if (!e)
			return CUDA_ERROR_OUT_OF_MEMORY;
		cs->edata = e;
		cs->dcap = c;
	}
	if (!add)
		cs->ndeps = 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < cs->ndeps; j++)
			if (cs->deps[j] == deps[i])
				break;
		if (j < cs->ndeps)
			continue;
		cs->deps[cs->ndeps] = deps[i];
		memset(&cs->edata[cs->ndeps], 0, sizeof(cs->edata[0]));
		if (edata)
			cs->edata[cs->ndeps] = edata[i];
		cs->ndeps++;
	}
	return CUDA_SUCCESS;
}

/*
 * With vg_lock held: work on the legacy stream while a blocking stream of
 * its context captures would make the capture wait for it (906).
 */
static CUresult vg_cap_legacy(struct CUstream_st *st, bool invalidate)
{
	struct CUstream_st *o;
	CUresult r = CUDA_SUCCESS;

	if (!st->legacy)
		return CUDA_SUCCESS;
	for (o = st->ctx->streams; o; o = o->next) {
		struct vg_capture *c = vg_capture_of(o);

		if (c && !(o->flags & CU_STREAM_NON_BLOCKING)) {
			if (invalidate)
				vg_cap_invalidate(c);
			r = CUDA_ERROR_STREAM_CAPTURE_IMPLICIT;
		}
	}
	return r;
}

CUresult vg_cap_implicit(struct CUstream_st *st)
{
	return vg_cap_legacy(st, true);
}

/* Takes the locks and resolves @hs; false (no lock held): a bad handle. */
static bool vg_cap_lock_stream(CUstream hs, struct CUstream_st **pst)
{
	struct CUctx_st *ctx;

	pthread_mutex_lock(&vg_graph_lock);
	pthread_mutex_lock(&vg_lock);
	if (vg_stream_resolve(hs, &ctx, pst) == CUDA_SUCCESS)
		return true;
	pthread_mutex_unlock(&vg_lock);
	pthread_mutex_unlock(&vg_graph_lock);
	return false;
}

static void vg_cap_unlock(void)
{
	pthread_mutex_unlock(&vg_lock);
	pthread_mutex_unlock(&vg_graph_lock);
}

CUresult vg_cap_work(CUstream hs, bool *capturing)
{
	struct CUstream_st *st;
	struct vg_capture *c;
	CUresult r;

	*capturing = false;
	if (!vg_cap_maybe() || !vg_cap_lock_stream(hs, &st))
		return CUDA_SUCCESS;
	c = vg_capture_of(st);
	if (c && c->invalid)
		r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	else
		r = vg_cap_implicit(st);
	*capturing = c != NULL;
	vg_cap_unlock();
	return r;
}

static CUresult vg_cap_unsafe_locked(void);

/*
 * A call on stream @hs that its capture cannot take: 900, and the capture
 * is over. On a stream not capturing: as an unsafe call (@unsafe), or as
 * stream work.
 */
static CUresult vg_cap_not_on(CUstream hs, bool unsafe)
{
	struct CUstream_st *st;
	struct vg_capture *c;
	CUresult r;

	if (!vg_cap_maybe() || !vg_cap_lock_stream(hs, &st))
		return CUDA_SUCCESS;
	c = vg_capture_of(st);
	if (c) {
		vg_cap_invalidate(c);
		r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	} else {
		r = unsafe ? vg_cap_unsafe_locked() : vg_cap_implicit(st);
	}
	vg_cap_unlock();
	return r;
}

/* Stream work that cannot be captured. */
CUresult vg_cap_refuse(CUstream hs)
{
	return vg_cap_not_on(hs, false);
}

/* The captures this thread's unsafe call must not run beside. */
static CUresult vg_cap_unsafe_locked(void)
{
	pthread_t self = pthread_self();
	struct vg_capture *c;
	CUresult r = CUDA_SUCCESS;

	if (vg_thread_mode == CU_STREAM_CAPTURE_MODE_RELAXED)
		return CUDA_SUCCESS;
	for (c = vg_captures; c; c = c->next) {
		bool mine = pthread_equal(c->thread, self);

		if ((mine && c->mode != CU_STREAM_CAPTURE_MODE_RELAXED) ||
		    (!mine && vg_thread_mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
		     c->mode == CU_STREAM_CAPTURE_MODE_GLOBAL)) {
			vg_cap_invalidate(c);
			r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
		}
	}
	return r;
}

CUresult vg_cap_unsafe(void)
{
	CUresult r;

	if (!vg_cap_maybe())
		return CUDA_SUCCESS;
	pthread_mutex_lock(&vg_graph_lock);
	r = vg_cap_unsafe_locked();
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

/*
 * Waiting for or querying a stream: never for a capturing one (there is
 * nothing to wait for), else an unsafe call.
 */
CUresult vg_cap_stream_sync(CUstream hs)
{
	return vg_cap_not_on(hs, true);
}

/* Waiting for the whole context waits for its capturing streams too. */
CUresult vg_cap_ctx_sync(void)
{
	struct CUctx_st *ctx;
	struct vg_capture *c;
	CUresult r = CUDA_SUCCESS;

	if (!vg_cap_maybe())
		return CUDA_SUCCESS;
	pthread_mutex_lock(&vg_graph_lock);
	pthread_mutex_lock(&vg_lock);
	if (vg_current_open(&ctx) == CUDA_SUCCESS) {
		for (c = vg_captures; c; c = c->next) {
			if (c->ctx == ctx) {
				vg_cap_invalidate(c);
				r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
			}
		}
	}
	vg_cap_unlock();
	return r;
}

static CUresult vg_begin(CUstream hs, CUgraph into, const CUgraphNode *deps,
			 const CUgraphEdgeData *edata, size_t ndeps, CUstreamCaptureMode mode,
			 bool to_graph)
{
	struct vg_cap_stream *cs;
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	struct vg_capture *c;
	struct CUgraph_st *g = NULL;
	size_t i;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (mode != CU_STREAM_CAPTURE_MODE_GLOBAL && mode != CU_STREAM_CAPTURE_MODE_THREAD_LOCAL &&
	    mode != CU_STREAM_CAPTURE_MODE_RELAXED)
		return CUDA_ERROR_INVALID_VALUE;
	if (ndeps && !deps)
		return CUDA_ERROR_INVALID_VALUE;
	c = calloc(1, sizeof(*c));
	if (!c)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&vg_graph_lock);
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	if (!r && st->legacy)
		r = CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	if (!r && vg_capture_of(st))
		r = CUDA_ERROR_ILLEGAL_STATE;
	if (!r && to_graph) {
		g = vg_graph_get(into);
		if (!g)
			r = CUDA_ERROR_INVALID_VALUE;
		for (i = 0; !r && i < ndeps; i++) {
			struct CUgraphNode_st *d = vg_node_get(deps[i]);

			if (!d || d->graph != g || !vg_edge_data_ok(edata ? &edata[i] : NULL))
				r = CUDA_ERROR_INVALID_VALUE;
		}
	}
	cs = r ? NULL : vg_cap_stream_of(st);
	if (!r && !cs)
		r = CUDA_ERROR_OUT_OF_MEMORY;
	if (!r && !to_graph) {
		g = vg_graph_new();
		if (!g)
			r = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (!r)
		r = vg_cap_deps_set(cs, (struct CUgraphNode_st *const *)deps, edata, ndeps,
				    false);
	if (r) {
		if (g && !to_graph)
			vg_graph_free(g);
		vg_cap_unlock();
		free(c);
		return r;
	}
	c->id = ++vg_cap_ids;
	c->g = g;
	c->into = to_graph;
	c->mode = mode;
	c->thread = pthread_self();
	c->ctx = ctx;
	c->origin = st->id;
	c->next = vg_captures;
	vg_captures = c;
	cs->cap = c;
	__atomic_add_fetch(&vg_cap_busy, 1, __ATOMIC_RELEASE);
	vg_cap_unlock();
	return CUDA_SUCCESS;
}

CUresult cuStreamBeginCapture_v2(CUstream hs, CUstreamCaptureMode mode)
{
	return vg_begin(hs, NULL, NULL, NULL, 0, mode, false);
}

CUresult cuStreamBeginCapture_v2_ptsz(CUstream hs, CUstreamCaptureMode mode)
{
	return cuStreamBeginCapture_v2(hs ? hs : CU_STREAM_PER_THREAD, mode);
}

/* CUDA 10.0's form: global mode. */
CUresult cuStreamBeginCapture(CUstream hs)
{
	return cuStreamBeginCapture_v2(hs, CU_STREAM_CAPTURE_MODE_GLOBAL);
}

CUresult cuStreamBeginCapture_ptsz(CUstream hs)
{
	return cuStreamBeginCapture_v2_ptsz(hs, CU_STREAM_CAPTURE_MODE_GLOBAL);
}

CUresult cuStreamBeginCaptureToGraph(CUstream hs, CUgraph g, const CUgraphNode *deps,
				     const CUgraphEdgeData *edata, size_t ndeps,
				     CUstreamCaptureMode mode)
{
	return vg_begin(hs, g, deps, edata, ndeps, mode, true);
}

CUresult cuStreamBeginCaptureToGraph_ptsz(CUstream hs, CUgraph g, const CUgraphNode *deps,
					  const CUgraphEdgeData *edata, size_t ndeps,
					  CUstreamCaptureMode mode)
{
	return cuStreamBeginCaptureToGraph(hs ? hs : CU_STREAM_PER_THREAD, g, deps, edata,
					   ndeps, mode);
}

/*
 * Whether every other stream of @c ended where @origin's work comes after:
 * each of their last nodes one of the origin's or among its ancestors.
 * CUDA_SUCCESS, CUDA_ERROR_STREAM_CAPTURE_UNJOINED when one did not, or
 * CUDA_ERROR_STREAM_CAPTURE_INVALIDATED when a stream's last node was
 * taken out of the graph meanwhile (or no memory to tell).
 */
static CUresult vg_cap_joined(struct vg_capture *c, struct CUstream_st *origin)
{
	struct CUgraphNode_st **stack;
	struct vg_cap_stream *ocs = origin->capture;
	struct CUstream_st *o;
	size_t i, top = 0;
	bool ok = true;

	for (i = 0; i < c->g->nnodes; i++)
		c->g->nodes[i]->mark = 0;
	stack = malloc((c->g->nnodes + 1) * sizeof(*stack));
	if (!stack)
		return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	/* A node the application took out of the graph meanwhile: spoilt. */
	for (i = 0; i < ocs->ndeps; i++)
		if (vg_node_get(ocs->deps[i]) != ocs->deps[i] || ocs->deps[i]->graph != c->g)
			ok = false;
	for (o = origin->ctx->streams; o; o = o->next)
		if (o != origin && vg_capture_of(o) == c)
			for (i = 0; i < o->capture->ndeps; i++)
				if (vg_node_get(o->capture->deps[i]) != o->capture->deps[i] ||
				    o->capture->deps[i]->graph != c->g)
					ok = false;
	if (!ok) {
		free(stack);
		return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	}
	for (i = 0; i < ocs->ndeps; i++) {
		if (!ocs->deps[i]->mark) {
			ocs->deps[i]->mark = 1;
			stack[top++] = ocs->deps[i];
		}
	}
	while (top) {
		struct CUgraphNode_st *n = stack[--top];

		for (i = 0; i < n->nin; i++) {
			if (!n->in[i].from->mark) {
				n->in[i].from->mark = 1;
				stack[top++] = n->in[i].from;
			}
		}
	}
	free(stack);
	for (o = origin->ctx->streams; o && ok; o = o->next) {
		if (o == origin || vg_capture_of(o) != c)
			continue;
		for (i = 0; i < o->capture->ndeps; i++)
			if (!o->capture->deps[i]->mark)
				ok = false;
	}
	return ok ? CUDA_SUCCESS : CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
}

/* With both locks held: @c ends; its streams leave it. */
static void vg_cap_end(struct vg_capture *c)
{
	struct vg_capture **pp;
	struct CUstream_st *o;

	for (o = c->ctx->streams; o; o = o->next)
		if (vg_capture_of(o) == c)
			o->capture->cap = NULL;
	for (pp = &vg_captures; *pp; pp = &(*pp)->next) {
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	}
	__atomic_sub_fetch(&vg_cap_busy, 1, __ATOMIC_RELEASE);
	free(c);
}

CUresult cuStreamEndCapture(CUstream hs, CUgraph *out)
{
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	struct vg_capture *c;
	struct CUgraph_st *g;
	CUresult r = vg_check_init();

	if (r)
		return r;
	pthread_mutex_lock(&vg_graph_lock);
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	if (r) {
		vg_cap_unlock();
		return r;
	}
	c = vg_capture_of(st);
	if (!c || c->origin != st->id) {
		/* Ending on a stream that joined: the capture is spoilt. */
		if (c)
			vg_cap_invalidate(c);
		vg_cap_unlock();
		if (out)
			*out = NULL;
		return c ? CUDA_ERROR_STREAM_CAPTURE_UNMATCHED : CUDA_ERROR_ILLEGAL_STATE;
	}
	/* Only a relaxed capture may end on another thread; it goes on. */
	if (c->mode != CU_STREAM_CAPTURE_MODE_RELAXED && !pthread_equal(c->thread, pthread_self())) {
		vg_cap_unlock();
		return CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD;
	}
	g = vg_graph_get(c->g);
	r = c->invalid || !g ? CUDA_ERROR_STREAM_CAPTURE_INVALIDATED : CUDA_SUCCESS;
	/* A fork not joined back spoils the capture now (904, as an H200's). */
	if (!r)
		r = vg_cap_joined(c, st);
	if (r)
		c->invalid = true;
	/* The application's own graph stays its own, whatever became of it. */
	if (g && !c->into && (r || !out))
		vg_graph_free(g);
	if (out)
		*out = r ? NULL : g;
	vg_cap_end(c);
	vg_cap_unlock();
	vg_graph_mem_reap();
	return r;
}

CUresult cuStreamEndCapture_ptsz(CUstream hs, CUgraph *out)
{
	return cuStreamEndCapture(hs ? hs : CU_STREAM_PER_THREAD, out);
}

CUresult cuStreamIsCapturing(CUstream hs, CUstreamCaptureStatus *status)
{
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	struct vg_capture *c;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!status)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	/* Asking of the legacy stream would wait for the capture: 906, harmless. */
	if (!r)
		r = vg_cap_legacy(st, false);
	if (!r) {
		c = vg_capture_of(st);
		*status = !c ? CU_STREAM_CAPTURE_STATUS_NONE :
			c->invalid ? CU_STREAM_CAPTURE_STATUS_INVALIDATED :
			CU_STREAM_CAPTURE_STATUS_ACTIVE;
	}
	vg_cap_unlock();
	return r;
}

CUresult cuStreamIsCapturing_ptsz(CUstream hs, CUstreamCaptureStatus *status)
{
	return cuStreamIsCapturing(hs ? hs : CU_STREAM_PER_THREAD, status);
}

/*
 * Every version's answer. Outside a capture only the status is written,
 * as NVIDIA's driver does; inside, the dependency arrays are the stream's
 * own (valid until its next captured call). @lossy: the caller cannot
 * take edge data, so an edge that has some cannot be told.
 */
static CUresult vg_capture_info(CUstream hs, CUstreamCaptureStatus *status, cuuint64_t *id,
				CUgraph *graph, const CUgraphNode **deps,
				const CUgraphEdgeData **edata, size_t *ndeps, bool lossy)
{
	static const CUgraphEdgeData plain;
	struct CUstream_st *st = NULL;
	struct CUctx_st *ctx;
	struct vg_cap_stream *cs;
	struct vg_capture *c;
	size_t i;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!status)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	c = r ? NULL : vg_capture_of(st);
	cs = st && !r ? st->capture : NULL;
	if (!r && c && lossy && deps)
		for (i = 0; i < cs->ndeps; i++)
			if (memcmp(&cs->edata[i], &plain, sizeof(plain)))
				r = CUDA_ERROR_LOSSY_QUERY;
	if (!r) {
		*status = !c ? CU_STREAM_CAPTURE_STATUS_NONE :
			c->invalid ? CU_STREAM_CAPTURE_STATUS_INVALIDATED :
			CU_STREAM_CAPTURE_STATUS_ACTIVE;
	}
	if (!r && c) {
		if (id)
			*id = c->id;
		if (graph)
			*graph = c->g;
		if (deps)
			*deps = (const CUgraphNode *)cs->deps;
		if (edata)
			*edata = cs->edata;
		if (ndeps)
			*ndeps = cs->ndeps;
	}
	vg_cap_unlock();
	return r;
}

CUresult cuStreamGetCaptureInfo(CUstream hs, CUstreamCaptureStatus *status, cuuint64_t *id)
{
	return vg_capture_info(hs, status, id, NULL, NULL, NULL, NULL, true);
}

CUresult cuStreamGetCaptureInfo_ptsz(CUstream hs, CUstreamCaptureStatus *status,
				     cuuint64_t *id)
{
	return cuStreamGetCaptureInfo(hs ? hs : CU_STREAM_PER_THREAD, status, id);
}

CUresult cuStreamGetCaptureInfo_v2(CUstream hs, CUstreamCaptureStatus *status, cuuint64_t *id,
				   CUgraph *graph, const CUgraphNode **deps, size_t *ndeps)
{
	return vg_capture_info(hs, status, id, graph, deps, NULL, ndeps, true);
}

CUresult cuStreamGetCaptureInfo_v2_ptsz(CUstream hs, CUstreamCaptureStatus *status,
					cuuint64_t *id, CUgraph *graph,
					const CUgraphNode **deps, size_t *ndeps)
{
	return cuStreamGetCaptureInfo_v2(hs ? hs : CU_STREAM_PER_THREAD, status, id, graph,
					 deps, ndeps);
}

CUresult cuStreamGetCaptureInfo_v3(CUstream hs, CUstreamCaptureStatus *status, cuuint64_t *id,
				   CUgraph *graph, const CUgraphNode **deps,
				   const CUgraphEdgeData **edata, size_t *ndeps)
{
	return vg_capture_info(hs, status, id, graph, deps, edata, ndeps, false);
}

CUresult cuStreamGetCaptureInfo_v3_ptsz(CUstream hs, CUstreamCaptureStatus *status,
					cuuint64_t *id, CUgraph *graph,
					const CUgraphNode **deps,
					const CUgraphEdgeData **edata, size_t *ndeps)
{
	return cuStreamGetCaptureInfo_v3(hs ? hs : CU_STREAM_PER_THREAD, status, id, graph,
					 deps, edata, ndeps);
}

CUresult cuStreamUpdateCaptureDependencies_v2(CUstream hs, CUgraphNode *deps,
					      const CUgraphEdgeData *edata, size_t n,
					      unsigned int flags)
{
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	struct vg_capture *c;
	size_t i;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if ((flags != CU_STREAM_ADD_CAPTURE_DEPENDENCIES &&
	     flags != CU_STREAM_SET_CAPTURE_DEPENDENCIES) || (n && !deps))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	c = r ? NULL : vg_capture_of(st);
	if (!r && !c)
		r = CUDA_ERROR_ILLEGAL_STATE;
	if (!r && c->invalid)
		r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	for (i = 0; !r && i < n; i++) {
		struct CUgraphNode_st *d = vg_node_get(deps[i]);

		if (!d || d->graph != c->g || !vg_edge_data_ok(edata ? &edata[i] : NULL))
			r = CUDA_ERROR_INVALID_VALUE;
	}
	if (!r)
		r = vg_cap_deps_set(st->capture, (struct CUgraphNode_st *const *)deps, edata, n,
				    flags == CU_STREAM_ADD_CAPTURE_DEPENDENCIES);
	vg_cap_unlock();
	return r;
}

CUresult cuStreamUpdateCaptureDependencies_v2_ptsz(CUstream hs, CUgraphNode *deps,
						   const CUgraphEdgeData *edata, size_t n,
						   unsigned int flags)
{
	return cuStreamUpdateCaptureDependencies_v2(hs ? hs : CU_STREAM_PER_THREAD, deps, edata,
						    n, flags);
}

CUresult cuStreamUpdateCaptureDependencies(CUstream hs, CUgraphNode *deps, size_t n,
					   unsigned int flags)
{
	return cuStreamUpdateCaptureDependencies_v2(hs, deps, NULL, n, flags);
}

CUresult cuStreamUpdateCaptureDependencies_ptsz(CUstream hs, CUgraphNode *deps, size_t n,
						unsigned int flags)
{
	return cuStreamUpdateCaptureDependencies_v2_ptsz(hs, deps, NULL, n, flags);
}

/*
 * Any value is taken, as NVIDIA's driver takes it (an unknown mode rules
 * as global does); a NULL pointer, which crashes there, is refused.
 */
CUresult cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode *mode)
{
	CUstreamCaptureMode old = vg_thread_mode;

	if (!mode)
		return CUDA_ERROR_INVALID_VALUE;
	vg_thread_mode = *mode;
	*mode = old;
	return CUDA_SUCCESS;
}

/* A stream destroyed while in a capture spoils it. */
void vg_cap_stream_gone(CUstream hs)
{
	struct CUstream_st *st;
	struct vg_capture *c;

	if (!vg_cap_maybe() || !vg_cap_lock_stream(hs, &st))
		return;
	/* The default streams are not destroyed: the call refuses them. */
	c = st->legacy || st->per_thread ? NULL : vg_capture_of(st);
	if (c && c->origin == st->id) {
		/* Nothing can end it now. */
		if (!c->into && vg_graph_get(c->g))
			vg_graph_free(c->g);
		vg_cap_end(c);
	} else if (c) {
		vg_cap_invalidate(c);
		st->capture->cap = NULL;
	}
	vg_cap_unlock();
	vg_graph_mem_reap();
}

void vg_cap_stream_free(struct CUstream_st *st)
{
	if (!st->capture)
		return;
	free(st->capture->deps);
	free(st->capture->edata);
	free(st->capture);
	st->capture = NULL;
}

void vg_cap_event_free(struct CUevent_st *e)
{
	if (!e->capture)
		return;
	free(e->capture->deps);
	free(e->capture);
	e->capture = NULL;
	__atomic_sub_fetch(&vg_cap_busy, 1, __ATOMIC_RELEASE);
}
