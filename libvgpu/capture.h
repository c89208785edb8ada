/* SPDX-License-Identifier: MIT */
/*
 * Stream capture (capture.c, capture_record.c): while a stream captures,
 * the work queued on it becomes nodes of a graph instead of commands.
 * A capture has one origin stream; other streams join it by waiting on
 * an event recorded in it, and each stream in it holds the nodes the
 * next captured work depends on. NVIDIA's answers, which these follow:
 * tests/e2e/ref/h200_capture.log.
 *
 * Locks: capture state is under vg_graph_lock, taken before vg_lock (the
 * order cuGraphLaunch already has). The hooks run at the top of the
 * stream-ordered entry points, with no lock held; a graph's replay goes
 * through those entry points with vg_graph_lock held, so it marks its
 * thread (vg_cap_replaying) and the hooks step aside.
 */
#ifndef VG_CAPTURE_H
#define VG_CAPTURE_H

#include "graph.h"

struct vg_capture {
	uint64_t id;		/* unique and increasing in the process */
	struct CUgraph_st *g;
	bool into;		/* the application's graph (BeginCaptureToGraph) */
	bool invalid;		/* an illegal call ended its use */
	CUstreamCaptureMode mode;
	pthread_t thread;	/* the thread that began it */
	struct CUctx_st *ctx;
	uint64_t origin;	/* the origin stream's id */
	struct vg_capture *next;
};

/*
 * A stream's part in a capture. Kept (with its arrays) once made, as
 * cuStreamGetCaptureInfo hands out pointers to the arrays.
 */
struct vg_cap_stream {
	struct vg_capture *cap;	/* NULL: not capturing */
	struct CUgraphNode_st **deps;
	CUgraphEdgeData *edata;
	size_t ndeps, dcap;
};

/* An event recorded in a capture: which one, and what it stood after. */
struct vg_cap_event {
	uint64_t id;
	struct CUgraphNode_st **deps;
	size_t ndeps;
};

/* Live captures and captured events' marks: nonzero, look closer. */
extern int vg_cap_busy;
extern __thread bool vg_cap_replaying;

static inline bool vg_cap_maybe(void)
{
	return !vg_cap_replaying && __atomic_load_n(&vg_cap_busy, __ATOMIC_ACQUIRE);
}

/* capture.c, with vg_graph_lock held (and vg_lock where it says). */
struct vg_capture *vg_cap_find(uint64_t id);
void vg_cap_invalidate(struct vg_capture *c);
CUresult vg_cap_deps_set(struct vg_cap_stream *cs, struct CUgraphNode_st *const *deps,
			 const CUgraphEdgeData *edata, size_t n, bool add);
struct vg_cap_stream *vg_cap_stream_of(struct CUstream_st *st);
CUresult vg_cap_implicit(struct CUstream_st *st);	/* vg_lock too */

/*
 * The hooks, with no lock held. An error is the call's answer; success
 * with *@taken (or *@capturing) false: the call goes on as usual.
 */
CUresult vg_cap_work(CUstream hs, bool *capturing);
CUresult vg_cap_add(CUstream hs, struct CUgraphNode_st *n);
CUresult vg_cap_refuse(CUstream hs);
CUresult vg_cap_unsafe(void);
CUresult vg_cap_stream_sync(CUstream hs);
CUresult vg_cap_ctx_sync(void);
CUresult vg_cap_event_use(CUevent h);
CUresult vg_cap_event_record(CUevent h, CUstream hs, unsigned int flags, bool *taken);
CUresult vg_cap_event_wait(CUstream hs, CUevent h, unsigned int flags, bool *taken);
void vg_cap_stream_gone(CUstream hs);

/* With vg_lock held: a freed stream's or event's capture state goes. */
void vg_cap_stream_free(struct CUstream_st *st);
void vg_cap_event_free(struct CUevent_st *e);

/* capture_record.c: a captured call's node. */
CUresult vg_cap_launch(const CUDA_KERNEL_NODE_PARAMS *p, bool cooperative, CUstream hs,
		       bool *taken);
CUresult vg_cap_memset(CUdeviceptr dst, size_t pitch, uint32_t value, uint32_t elem,
		       size_t width, size_t height, CUstream hs, bool *taken);
CUresult vg_cap_copy3d(const CUDA_MEMCPY3D *p, CUstream hs, bool *taken);
CUresult vg_cap_copy1d(int dir, uint64_t dst, uint64_t src, size_t n, CUstream hs,
		       bool *taken);
CUresult vg_cap_copy2d(const CUDA_MEMCPY2D *p, CUstream hs, bool *taken);
CUresult vg_cap_memops(CUstream hs, unsigned int count, const CUstreamBatchMemOpParams *ops,
		       unsigned int flags, bool *taken);
CUresult vg_cap_sems(CUstream hs, const CUexternalSemaphore *sems, const void *params,
		     unsigned int n, bool signal, bool *taken);
CUresult vg_cap_host(CUhostFn fn, void *data, CUstream hs, bool *taken);
CUresult vg_cap_alloc(CUdeviceptr *dptr, size_t bytes, CUstream hs, bool *taken);
CUresult vg_cap_free(CUdeviceptr dptr, CUstream hs, bool *taken);

#endif /* VG_CAPTURE_H */
