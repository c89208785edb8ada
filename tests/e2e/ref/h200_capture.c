/*
 * Probe of NVIDIA's stream capture and graphs on a real GPU (issue 20's
 * reference): what capture allows and forbids in each mode and the codes
 * it gives, how a capture is invalidated, cross-stream capture through
 * events, capture info and dependency updates, capture into an existing
 * graph, the graph a capture makes (its nodes' types and edges), bad
 * input to graph construction and instantiation, cuGraphExecUpdate's
 * results, and the shape of cuGraphDebugDotPrint's output. Output: one
 * "name = value" per line. Not built by the tree: it needs NVIDIA's
 * cuda.h and libcuda. Run on a Hopper GPU (recorded on an H200, CUDA 13)
 * as  gcc h200_capture.c -I/usr/local/cuda/include -lcuda -lpthread &&
 * ./a.out ; its output is h200_capture.log. cuThreadExchangeStreamCaptureMode
 * with a NULL mode dies of SIGSEGV there; that case was taken out.
 */
#include <cuda.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R(name, call) printf("%s = %d\n", name, (int)(call))

static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .entry add(.param .u64 p, .param .u32 v)\n{\n"
	"\t.reg .u64 %rd<3>;\n\t.reg .u32 %r<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
	"\tld.global.u32 %r2, [%rd1];\n\tadd.u32 %r3, %r2, %r1;\n"
	"\tst.global.u32 [%rd1], %r3;\n\tret;\n}\n"
	".visible .entry other(.param .u64 p, .param .u32 v)\n{\n"
	"\t.reg .u64 %rd<3>;\n\t.reg .u32 %r<2>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
	"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n"
	".visible .entry three(.param .u64 p, .param .u32 v, .param .u32 w)\n{\n"
	"\tret;\n}\n";

static CUfunction add_fn, other_fn, three_fn;
static CUdeviceptr dbuf;
static unsigned int addv = 1;

static void launch_add(CUstream s, unsigned int v)
{
	void *args[] = { &dbuf, &v };

	cuLaunchKernel(add_fn, 1, 1, 1, 1, 1, 1, 0, s, args, NULL);
}

static CUresult launch_add_rc(CUstream s, unsigned int v)
{
	void *args[] = { &dbuf, &v };

	return cuLaunchKernel(add_fn, 1, 1, 1, 1, 1, 1, 0, s, args, NULL);
}

static unsigned int readback(void)
{
	unsigned int v = 0;

	cuCtxSynchronize();
	cuMemcpyDtoH(&v, dbuf, 4);
	return v;
}

static void status(const char *tag, CUstream s)
{
	CUstreamCaptureStatus st = 77;
	CUresult r = cuStreamIsCapturing(s, &st);

	printf("%s = rc %d status %d\n", tag, r, (int)st);
}

static void info(const char *tag, CUstream s, cuuint64_t *id_out)
{
	CUstreamCaptureStatus st = 77;
	cuuint64_t id = 0;
	CUgraph g = NULL;
	const CUgraphNode *deps = NULL;
	const CUgraphEdgeData *ed = NULL;
	size_t n = 999;
	CUresult r = cuStreamGetCaptureInfo(s, &st, &id, &g, &deps, &ed, &n);

	printf("%s = rc %d status %d id %s graph %s ndeps %zu deps %s edata %s\n", tag, r,
	       (int)st, id ? "nonzero" : "zero", g ? "set" : "null", n,
	       deps ? "set" : "null", ed ? "set" : "null");
	if (id_out)
		*id_out = id;
}

/* The graph's node types in order and its edge count. */
static void shape(const char *tag, CUgraph g)
{
	CUgraphNode nodes[32];
	size_t n = 32, e = 0, i;
	CUresult r = cuGraphGetNodes(g, nodes, &n);
	char buf[256] = "";

	for (i = 0; !r && i < n && i < 32; i++) {
		CUgraphNodeType t;

		cuGraphNodeGetType(nodes[i], &t);
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%d",
			 i ? "," : "", (int)t);
	}
	cuGraphGetEdges(g, NULL, NULL, NULL, &e);
	printf("%s = rc %d nodes %zu types [%s] edges %zu\n", tag, r, n, buf, e);
}

static void host_fn(void *arg)
{
	(void)arg;
}

/* Another thread's calls while this one captures (global mode). */
static CUcontext ctx;
static CUstream cap_stream;
static CUresult thr_alloc, thr_alloc_relaxed, thr_sync_other, thr_launch_other;
static CUstream other_stream;

static void *other_thread(void *arg)
{
	CUdeviceptr p = 0;
	CUstreamCaptureMode m = CU_STREAM_CAPTURE_MODE_RELAXED;

	(void)arg;
	cuCtxSetCurrent(ctx);
	thr_alloc = cuMemAlloc(&p, 64);
	if (!thr_alloc)
		cuMemFree(p);
	thr_launch_other = launch_add_rc(other_stream, 0);
	thr_sync_other = cuStreamSynchronize(other_stream);
	cuThreadExchangeStreamCaptureMode(&m);
	thr_alloc_relaxed = cuMemAlloc(&p, 64);
	if (!thr_alloc_relaxed)
		cuMemFree(p);
	cuThreadExchangeStreamCaptureMode(&m);
	return NULL;
}

static CUresult end(CUstream s, const char *tag)
{
	CUgraph g = (CUgraph)(uintptr_t)1;
	CUresult r = cuStreamEndCapture(s, &g);

	printf("%s = rc %d graph %s\n", tag, r,
	       g == (CUgraph)(uintptr_t)1 ? "untouched" : g ? "set" : "null");
	if (!r && g && g != (CUgraph)(uintptr_t)1)
		cuGraphDestroy(g);
	return r;
}

static void capture_cases(void)
{
	CUstream s1, s2, s3, blk;
	CUevent ev, ev2;
	CUgraph g = NULL, g2 = NULL;
	CUgraphExec ge = NULL;
	CUdeviceptr p = 0;
	cuuint64_t id1 = 0, id2 = 0;
	CUstreamCaptureMode m;
	unsigned int hbuf[4];
	pthread_t th;
	int v;

	cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING);
	cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING);
	cuStreamCreate(&s3, CU_STREAM_NON_BLOCKING);
	cuStreamCreate(&blk, CU_STREAM_DEFAULT);
	cuStreamCreate(&other_stream, CU_STREAM_NON_BLOCKING);
	cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING);
	cuEventCreate(&ev2, CU_EVENT_DISABLE_TIMING);

	/* Where capture may begin, and with which modes. */
	R("begin legacy null", cuStreamBeginCapture(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL));
	R("begin per-thread", cuStreamBeginCapture(CU_STREAM_PER_THREAD,
						    CU_STREAM_CAPTURE_MODE_GLOBAL));
	status("per-thread status", CU_STREAM_PER_THREAD);
	end(CU_STREAM_PER_THREAD, "end per-thread empty");
	R("begin bad mode", cuStreamBeginCapture(s1, (CUstreamCaptureMode)7));
	status("status after bad mode", s1);
	R("begin blocking stream", cuStreamBeginCapture(blk, CU_STREAM_CAPTURE_MODE_GLOBAL));
	end(blk, "end blocking empty");

	/* Status and info outside capture. */
	status("status idle", s1);
	status("status legacy idle", NULL);
	info("info idle", s1, NULL);
	R("is capturing null status", cuStreamIsCapturing(s1, NULL));
	R("end idle", end(s1, "end idle detail"));
	R("end null graph ptr idle", cuStreamEndCapture(s1, NULL));

	/* A simple capture: two launches, a memset, a host function. */
	R("begin s1", cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	R("begin s1 again", cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	status("status capturing", s1);
	info("info empty capture", s1, &id1);
	R("launch in capture", launch_add_rc(s1, 1));
	info("info after launch", s1, NULL);
	R("memset in capture", cuMemsetD32Async(dbuf + 4, 5, 1, s1));
	R("host fn in capture", cuLaunchHostFunc(s1, host_fn, NULL));
	R("launch 2 in capture", launch_add_rc(s1, 2));
	info("info after four", s1, NULL);
	R("end s1", cuStreamEndCapture(s1, &g));
	status("status after end", s1);
	shape("captured shape", g);
	printf("value before replay = %u\n", readback());
	R("instantiate", cuGraphInstantiate(&ge, g, 0));
	R("launch graph", cuGraphLaunch(ge, s1));
	R("launch graph 2", cuGraphLaunch(ge, s1));
	cuStreamSynchronize(s1);
	printf("value after 2 replays = %u\n", readback());
	cuMemcpyDtoH(hbuf, dbuf, 8);
	printf("memset word = %u\n", hbuf[1]);
	cuGraphExecDestroy(ge);
	cuGraphDestroy(g);
	g = NULL;

	/* Capture ids differ. */
	cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL);
	info("info second capture", s1, &id2);
	printf("ids differ = %d\n", id1 != id2);
	printf("ids increase = %d\n", id2 > id1);
	end(s1, "end second");

	/* A NULL graph pointer to end a live capture. */
	cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL);
	launch_add(s1, 1);
	R("end null graph ptr live", cuStreamEndCapture(s1, NULL));
	status("status after end null live", s1);
	if (!cuStreamIsCapturing(s1, &(CUstreamCaptureStatus){ 0 }))
		end(s1, "end after null ptr");

	/* What each call does to a capture, each in a capture of its own. */
#define CASE(mode, tag, call) do { \
		cuStreamBeginCapture(s1, mode); \
		launch_add(s1, 1); \
		R(tag, call); \
		status(tag " status", s1); \
		end(s1, tag " end"); \
		cuCtxSynchronize(); \
	} while (0)
#define G CU_STREAM_CAPTURE_MODE_GLOBAL
#define T CU_STREAM_CAPTURE_MODE_THREAD_LOCAL
#define X CU_STREAM_CAPTURE_MODE_RELAXED
	CASE(G, "global: stream query", cuStreamQuery(s1));
	CASE(G, "global: stream sync", cuStreamSynchronize(s1));
	CASE(X, "relaxed: stream sync", cuStreamSynchronize(s1));
	CASE(G, "global: ctx sync", cuCtxSynchronize());
	CASE(X, "relaxed: ctx sync", cuCtxSynchronize());
	CASE(G, "global: query other stream", cuStreamQuery(s2));
	CASE(G, "global: sync other stream", cuStreamSynchronize(s2));
	CASE(G, "global: event record", cuEventRecord(ev, s1));
	CASE(G, "global: event query captured",
	     (cuEventRecord(ev, s1), cuEventQuery(ev)));
	CASE(G, "global: event sync captured",
	     (cuEventRecord(ev, s1), cuEventSynchronize(ev)));
	CASE(G, "global: malloc", (p = 0, cuMemAlloc(&p, 64)));
	if (p)
		cuMemFree(p);
	CASE(T, "thread-local: malloc", (p = 0, cuMemAlloc(&p, 64)));
	if (p)
		cuMemFree(p);
	CASE(X, "relaxed: malloc", (p = 0, cuMemAlloc(&p, 64)));
	if (p)
		cuMemFree(p);
	cuMemAlloc(&p, 64);
	CASE(G, "global: free", cuMemFree(p));
	CASE(X, "relaxed: free", cuMemFree(p));
	CASE(G, "global: memcpy htod sync", cuMemcpyHtoD(dbuf + 8, hbuf, 4));
	CASE(X, "relaxed: memcpy htod sync", cuMemcpyHtoD(dbuf + 8, hbuf, 4));
	CASE(G, "global: memcpy htod async pageable",
	     cuMemcpyHtoDAsync(dbuf + 8, hbuf, 4, s1));
	CASE(G, "global: memcpy dtod async", cuMemcpyDtoDAsync(dbuf + 8, dbuf, 4, s1));
	CASE(G, "global: memset sync", cuMemsetD32(dbuf + 8, 1, 1));
	CASE(G, "global: legacy launch", launch_add_rc(NULL, 0));
	CASE(G, "global: launch other stream", launch_add_rc(s2, 0));
	CASE(G, "global: host alloc", (p = 0, cuMemAllocHost((void **)&p, 64)));
	if (p)
		cuMemFreeHost((void *)p);
	CASE(G, "global: alloc async", (p = 0, cuMemAllocAsync(&p, 64, s1)));
	CASE(G, "global: module load", cuModuleLoadData(&(CUmodule){ 0 }, ptx));
	CASE(G, "global: stream create", cuStreamCreate(&(CUstream){ 0 }, 0));
	CASE(G, "global: event create", cuEventCreate(&(CUevent){ 0 }, 0));
	CASE(G, "global: get attribute",
	     cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));

	/* Exchange of the thread's mode. */
	m = CU_STREAM_CAPTURE_MODE_RELAXED;
	R("exchange to relaxed", cuThreadExchangeStreamCaptureMode(&m));
	printf("exchange old mode = %d\n", (int)m);
	R("exchange back", cuThreadExchangeStreamCaptureMode(&m));
	printf("exchange old mode 2 = %d\n", (int)m);
	m = (CUstreamCaptureMode)9;
	R("exchange bad mode", cuThreadExchangeStreamCaptureMode(&m));
	printf("exchange bad mode old = %d\n", (int)m);
	R("exchange back from bad", cuThreadExchangeStreamCaptureMode(&m));
	printf("exchange back from bad old = %d\n", (int)m);

	cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL);
	m = CU_STREAM_CAPTURE_MODE_RELAXED;
	cuThreadExchangeStreamCaptureMode(&m);
	R("global+relaxed thread: malloc", cuMemAlloc(&p, 64));
	if (p) {
		cuMemFree(p);
		p = 0;
	}
	cuThreadExchangeStreamCaptureMode(&m);
	status("global+relaxed thread: status", s1);
	end(s1, "global+relaxed thread: end");

	/* Another thread while this one captures. */
	cap_stream = s1;
	cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL);
	launch_add(s1, 1);
	pthread_create(&th, NULL, other_thread, NULL);
	pthread_join(th, NULL);
	printf("other thread, global: malloc = %d\n", thr_alloc);
	printf("other thread, global: launch other stream = %d\n", thr_launch_other);
	printf("other thread, global: sync other stream = %d\n", thr_sync_other);
	printf("other thread, global: malloc relaxed = %d\n", thr_alloc_relaxed);
	status("other thread, global: status", s1);
	end(s1, "other thread, global: end");

	cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
	launch_add(s1, 1);
	pthread_create(&th, NULL, other_thread, NULL);
	pthread_join(th, NULL);
	printf("other thread, thread-local: malloc = %d\n", thr_alloc);
	printf("other thread, thread-local: sync other stream = %d\n", thr_sync_other);
	status("other thread, thread-local: status", s1);
	end(s1, "other thread, thread-local: end");

	/* A blocking stream captures; the legacy stream is touched. */
	cuStreamBeginCapture(blk, CU_STREAM_CAPTURE_MODE_RELAXED);
	launch_add(blk, 1);
	R("implicit: legacy launch", launch_add_rc(NULL, 0));
	status("implicit: status", blk);
	end(blk, "implicit: end");
	cuCtxSynchronize();

	/* Cross-stream capture through events. */
	cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL);
	launch_add(s1, 1);
	cuEventRecord(ev, s1);
	R("fork: wait", cuStreamWaitEvent(s2, ev, 0));
	status("fork: s2 status", s2);
	info("fork: s2 info", s2, &id2);
	info("fork: s1 info", s1, &id1);
	printf("fork: same id = %d\n", id1 == id2);
	launch_add(s2, 10);
	launch_add(s1, 100);
	R("fork: end on s2", end(s2, "fork: end on s2 detail"));
	status("fork: s1 status after end on s2", s1);
	R("fork: end unjoined", end(s1, "fork: end unjoined detail"));
	status("fork: s2 status after", s2);
	status("fork: s1 status after", s1);

	cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL);
	launch_add(s1, 1);
	cuEventRecord(ev, s1);
	cuStreamWaitEvent(s2, ev, 0);
	cuStreamWaitEvent(s3, ev, 0);
	launch_add(s2, 10);
	launch_add(s3, 100);
	cuEventRecord(ev2, s2);
	cuStreamWaitEvent(s1, ev2, 0);
	cuEventRecord(ev2, s3);
	cuStreamWaitEvent(s1, ev2, 0);
	launch_add(s1, 1000);
	info("join: s1 info", s1, NULL);
	R("join: end", cuStreamEndCapture(s1, &g));
	status("join: s2 status", s2);
	shape("join: shape", g);
	cuMemsetD32(dbuf, 0, 1);
	/* The fill is on the legacy stream, which s2 (non-blocking) does not wait for. */
	cuCtxSynchronize();
	cuGraphInstantiate(&ge, g, 0);
	for (v = 0; v < 3; v++)
		cuGraphLaunch(ge, s2);
	cuStreamSynchronize(s2);
	printf("join: value after 3 replays = %u\n", readback());
	cuGraphExecDestroy(ge);
	ge = NULL;

	/* Waiting on an event recorded outside the capture. */
	cuEventRecord(ev2, s3);
	cuStreamSynchronize(s3);
	cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL);
	R("isolation: wait outside event", cuStreamWaitEvent(s1, ev2, 0));
	status("isolation: status", s1);
	end(s1, "isolation: end");
	cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL);
	R("isolation: wait external flag",
	  cuStreamWaitEvent(s1, ev2, CU_EVENT_WAIT_EXTERNAL));
	status("isolation: external status", s1);
	end(s1, "isolation: external end");

	/* A captured event waited on after the capture ended. */
	cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL);
	launch_add(s1, 1);
	cuEventRecord(ev, s1);
	end(s1, "stale: end");
	R("stale: wait on captured event", cuStreamWaitEvent(s2, ev, 0));
	R("stale: query captured event", cuEventQuery(ev));

	/* Dependencies updated by hand. */
	cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL);
	launch_add(s1, 1);
	launch_add(s1, 2);
	{
		CUstreamCaptureStatus st;
		cuuint64_t id;
		CUgraph cg;
		const CUgraphNode *deps;
		const CUgraphEdgeData *ed;
		size_t n;
		CUgraphNode nodes[4], none[1];
		size_t nn = 4;

		cuStreamGetCaptureInfo(s1, &st, &id, &cg, &deps, &ed, &n);
		cuGraphGetNodes(cg, nodes, &nn);
		printf("update: nodes so far = %zu\n", nn);
		R("update: bad flags", cuStreamUpdateCaptureDependencies(s1, nodes, NULL, 1, 7));
		R("update: set to first", cuStreamUpdateCaptureDependencies(s1, nodes, NULL, 1,
			CU_STREAM_SET_CAPTURE_DEPENDENCIES));
		info("update: info after set", s1, NULL);
		R("update: add second", cuStreamUpdateCaptureDependencies(s1, nodes + 1, NULL, 1,
			CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
		info("update: info after add", s1, NULL);
		R("update: set none", cuStreamUpdateCaptureDependencies(s1, none, NULL, 0,
			CU_STREAM_SET_CAPTURE_DEPENDENCIES));
		info("update: info after none", s1, NULL);
		launch_add(s1, 4);
		R("update: end", cuStreamEndCapture(s1, &g2));
		shape("update: shape", g2);
		cuGraphDestroy(g2);
		g2 = NULL;
	}
	R("update: not capturing", cuStreamUpdateCaptureDependencies(s1, NULL, NULL, 0,
		CU_STREAM_SET_CAPTURE_DEPENDENCIES));

	/* Capture into an existing graph. */
	{
		CUgraph into;
		CUgraphNode e1;

		cuGraphCreate(&into, 0);
		cuGraphAddEmptyNode(&e1, into, NULL, 0);
		R("to graph: begin", cuStreamBeginCaptureToGraph(s1, into, &e1, NULL, 1,
			CU_STREAM_CAPTURE_MODE_GLOBAL));
		info("to graph: info", s1, NULL);
		launch_add(s1, 1);
		R("to graph: end", cuStreamEndCapture(s1, &g2));
		printf("to graph: same graph = %d\n", g2 == into);
		shape("to graph: shape", into);
		R("to graph: begin null graph", cuStreamBeginCaptureToGraph(s1, NULL, NULL, NULL, 0,
			CU_STREAM_CAPTURE_MODE_GLOBAL));
		status("to graph: status after null", s1);
		if (!cuStreamIsCapturing(s1, &(CUstreamCaptureStatus){ 0 }))
			cuStreamEndCapture(s1, &g2);
		cuGraphDestroy(into);
	}

	/* Capture of memory allocation and freeing. */
	cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL);
	R("alloc async in capture", cuMemAllocAsync(&p, 256, s1));
	R("free async in capture", cuMemFreeAsync(p, s1));
	R("alloc node end", cuStreamEndCapture(s1, &g));
	shape("alloc node shape", g);
	cuGraphDestroy(g);
	g = NULL;

	/* Events in a capture: record then wait in the same stream. */
	cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL);
	launch_add(s1, 1);
	cuEventRecord(ev, s1);
	R("self wait in capture", cuStreamWaitEvent(s1, ev, 0));
	launch_add(s1, 1);
	R("self wait end", cuStreamEndCapture(s1, &g));
	shape("self wait shape", g);
	cuGraphDestroy(g);
	g = NULL;

	cuStreamSynchronize(s1);
	cuStreamDestroy(s1);
	cuStreamDestroy(s2);
	cuStreamDestroy(s3);
	cuStreamDestroy(blk);
	cuStreamDestroy(other_stream);
	cuEventDestroy(ev);
	cuEventDestroy(ev2);
}

static void kparams(CUDA_KERNEL_NODE_PARAMS *kp, CUfunction f, void **args)
{
	memset(kp, 0, sizeof(*kp));
	kp->func = f;
	kp->gridDimX = kp->gridDimY = kp->gridDimZ = 1;
	kp->blockDimX = kp->blockDimY = kp->blockDimZ = 1;
	kp->kernelParams = args;
}

static void upd(const char *tag, CUgraphExec ge, CUgraph g, CUgraphNode *nodes, size_t n)
{
	CUgraphExecUpdateResultInfo ri;
	CUresult r;
	size_t i;
	int en = -1, efn = -1;

	memset(&ri, 0x5a, sizeof(ri));
	r = cuGraphExecUpdate(ge, g, &ri);
	for (i = 0; i < n; i++) {
		if (ri.errorNode == nodes[i])
			en = (int)i;
		if (ri.errorFromNode == nodes[i])
			efn = (int)i;
	}
	printf("%s = rc %d result %d errorNode %s errorFromNode %s\n", tag, r, (int)ri.result,
	       ri.errorNode == NULL ? "null" : en >= 0 ? (char[]){ (char)('0' + en), 0 } : "other",
	       ri.errorFromNode == NULL ? "null" : efn >= 0 ? (char[]){ (char)('0' + efn), 0 } :
	       "other");
}

static void graph_cases(void)
{
	CUgraph g, g2, bad = NULL;
	CUgraphNode n[8], x;
	CUgraphExec ge;
	CUDA_KERNEL_NODE_PARAMS kp;
	unsigned int v1 = 1, v2 = 2;
	void *a1[] = { &dbuf, &v1 }, *a2[] = { &dbuf, &v2 };
	CUDA_MEMSET_NODE_PARAMS mp;
	CUDA_HOST_NODE_PARAMS hp = { host_fn, NULL };
	size_t cnt;
	FILE *f;
	char line[200];
	int lines;

	R("create flags 1", cuGraphCreate(&g, 1));
	R("create null", cuGraphCreate(NULL, 0));
	R("create", cuGraphCreate(&g, 0));
	kparams(&kp, add_fn, a1);
	R("add kernel null params", cuGraphAddKernelNode(&n[0], g, NULL, 0, NULL));
	R("add kernel null out", cuGraphAddKernelNode(NULL, g, NULL, 0, &kp));
	R("add kernel null graph", cuGraphAddKernelNode(&n[0], NULL, NULL, 0, &kp));
	kp.func = NULL;
	R("add kernel null func", cuGraphAddKernelNode(&n[0], g, NULL, 0, &kp));
	kparams(&kp, add_fn, a1);
	kp.blockDimX = 0;
	R("add kernel block 0", cuGraphAddKernelNode(&n[0], g, NULL, 0, &kp));
	kparams(&kp, add_fn, a1);
	kp.blockDimX = 2048;
	R("add kernel block 2048", cuGraphAddKernelNode(&n[0], g, NULL, 0, &kp));
	kparams(&kp, add_fn, a1);
	kp.sharedMemBytes = 1u << 30;
	R("add kernel huge shared", cuGraphAddKernelNode(&n[0], g, NULL, 0, &kp));
	kparams(&kp, add_fn, NULL);
	R("add kernel null args", cuGraphAddKernelNode(&n[0], g, NULL, 0, &kp));
	cuGraphGetNodes(g, NULL, &cnt);
	printf("nodes after bad adds = %zu\n", cnt);
	cuGraphDestroy(g);

	/* A diamond: k0 -> (memset1, host2) -> k3. */
	cuGraphCreate(&g, 0);
	kparams(&kp, add_fn, a1);
	R("add k0", cuGraphAddKernelNode(&n[0], g, NULL, 0, &kp));
	memset(&mp, 0, sizeof(mp));
	mp.dst = dbuf + 4;
	mp.value = 9;
	mp.elementSize = 4;
	mp.width = 1;
	mp.height = 1;
	R("add memset", cuGraphAddMemsetNode(&n[1], g, &n[0], 1, &mp, ctx));
	mp.elementSize = 3;
	R("add memset elem 3", cuGraphAddMemsetNode(&x, g, NULL, 0, &mp, ctx));
	mp.elementSize = 4;
	R("add host", cuGraphAddHostNode(&n[2], g, &n[0], 1, &hp));
	R("add host null fn", cuGraphAddHostNode(&x, g, NULL, 0,
		&(CUDA_HOST_NODE_PARAMS){ NULL, NULL }));
	kparams(&kp, add_fn, a2);
	R("add k3", cuGraphAddKernelNode(&n[3], g, &n[1], 2, &kp));
	R("add dep duplicate", cuGraphAddDependencies(g, &n[0], &n[1], NULL, 1));
	R("add dep self", cuGraphAddDependencies(g, &n[0], &n[0], NULL, 1));
	R("add dep cycle", cuGraphAddDependencies(g, &n[3], &n[0], NULL, 1));
	cuGraphGetEdges(g, NULL, NULL, NULL, &cnt);
	printf("edges after cycle = %zu\n", cnt);
	R("instantiate cyclic", cuGraphInstantiate(&ge, g, 0));
	R("remove cycle", cuGraphRemoveDependencies(g, &n[3], &n[0], NULL, 1));
	R("remove absent edge", cuGraphRemoveDependencies(g, &n[3], &n[0], NULL, 1));
	cuGraphCreate(&g2, 0);
	R("add dep across graphs", cuGraphAddEmptyNode(&x, g2, &n[0], 1));
	cuGraphDestroy(g2);
	shape("diamond shape", g);
	R("instantiate bad flags", cuGraphInstantiate(&ge, g, 1ull << 40));
	R("instantiate null graph", cuGraphInstantiate(&ge, bad, 0));
	R("instantiate", cuGraphInstantiate(&ge, g, 0));
	cuMemsetD32(dbuf, 0, 2);
	R("launch", cuGraphLaunch(ge, NULL));
	R("launch per-thread", cuGraphLaunch(ge, CU_STREAM_PER_THREAD));
	R("upload", cuGraphUpload(ge, NULL));
	printf("diamond value = %u\n", readback());

	/* cuGraphExecUpdate. */
	kparams(&kp, add_fn, a2);
	R("set params k0", cuGraphKernelNodeSetParams(n[0], &kp));
	upd("update params", ge, g, n, 4);
	cuMemsetD32(dbuf, 0, 1);
	cuGraphLaunch(ge, NULL);
	printf("after params update value = %u\n", readback());
	kparams(&kp, other_fn, a2);
	cuGraphKernelNodeSetParams(n[0], &kp);
	upd("update function same ctx", ge, g, n, 4);
	kparams(&kp, three_fn, a2);
	R("set params three with two args",
	  cuGraphKernelNodeSetParams(n[0], &(CUDA_KERNEL_NODE_PARAMS){
		.func = three_fn, .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
		.blockDimX = 1, .blockDimY = 1, .blockDimZ = 1,
		.kernelParams = (void *[]){ &dbuf, &v1, &v2 } }));
	upd("update function other params", ge, g, n, 4);
	kparams(&kp, add_fn, a1);
	cuGraphKernelNodeSetParams(n[0], &kp);
	upd("update back", ge, g, n, 4);
	kparams(&kp, add_fn, a1);
	cuGraphAddKernelNode(&n[4], g, &n[3], 1, &kp);
	upd("update added node", ge, g, n, 5);
	cuGraphDestroyNode(n[4]);
	upd("update after remove", ge, g, n, 4);
	cuGraphRemoveDependencies(g, &n[2], &n[3], NULL, 1);
	upd("update removed edge", ge, g, n, 4);
	cuGraphAddDependencies(g, &n[2], &n[3], NULL, 1);
	upd("update edge back", ge, g, n, 4);
	mp.dst = dbuf + 8;
	R("memset set params", cuGraphMemsetNodeSetParams(n[1], &mp));
	upd("update memset dst", ge, g, n, 4);
	mp.elementSize = 1;
	mp.width = 4;
	cuGraphMemsetNodeSetParams(n[1], &mp);
	upd("update memset element size", ge, g, n, 4);
	mp.elementSize = 4;
	mp.width = 1;
	cuGraphMemsetNodeSetParams(n[1], &mp);

	/* A graph of another shape: node types differ. */
	cuGraphCreate(&g2, 0);
	{
		CUgraphNode m[4];

		kparams(&kp, add_fn, a1);
		cuGraphAddKernelNode(&m[0], g2, NULL, 0, &kp);
		cuGraphAddHostNode(&m[1], g2, &m[0], 1, &hp);
		cuGraphAddHostNode(&m[2], g2, &m[0], 1, &hp);
		cuGraphAddKernelNode(&m[3], g2, &m[1], 2, &kp);
		upd("update type changed", ge, g2, m, 4);
	}
	cuGraphDestroy(g2);
	R("update null info", cuGraphExecUpdate(ge, g, NULL));

	/* Exec-level parameter changes and enabling. */
	kparams(&kp, add_fn, a2);
	R("exec set kernel params", cuGraphExecKernelNodeSetParams(ge, n[0], &kp));
	kparams(&kp, other_fn, a2);
	R("exec set kernel other fn", cuGraphExecKernelNodeSetParams(ge, n[0], &kp));
	R("exec set host params", cuGraphExecHostNodeSetParams(ge, n[2], &hp));
	R("exec set kernel on host node", cuGraphExecKernelNodeSetParams(ge, n[2], &kp));
	R("disable k3", cuGraphNodeSetEnabled(ge, n[3], 0));
	{
		unsigned int en = 7;

		R("get enabled", cuGraphNodeGetEnabled(ge, n[3], &en));
		printf("enabled value = %u\n", en);
	}
	cuMemsetD32(dbuf, 0, 1);
	cuGraphLaunch(ge, NULL);
	printf("k3 disabled value = %u\n", readback());
	cuGraphNodeSetEnabled(ge, n[3], 1);

	/* The dot file's shape. */
	R("dot print", cuGraphDebugDotPrint(g, "/tmp/h200_graph.dot", 0));
	R("dot print verbose", cuGraphDebugDotPrint(g, "/tmp/h200_graph_v.dot",
		CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE));
	R("dot print bad path", cuGraphDebugDotPrint(g, "/nonexistent/x.dot", 0));
	f = fopen("/tmp/h200_graph.dot", "r");
	for (lines = 0; f && fgets(line, sizeof(line), f); lines++) {
		line[strcspn(line, "\n")] = 0;
		printf("dot line %d = %s\n", lines, line);
	}
	if (f)
		fclose(f);
	printf("dot lines = %d\n", lines);

	/* Instantiate flags, clones, launches into a capture. */
	{
		CUgraphExec e2;
		CUgraph cl;
		CUgraphNode cn;
		CUstream s;
		unsigned long long fl;

		for (fl = 1; fl <= 16; fl <<= 1) {
			char tag[64];
			CUresult r = cuGraphInstantiate(&e2, g, fl);

			snprintf(tag, sizeof(tag), "instantiate flag %llu", fl);
			R(tag, r);
			if (!r)
				cuGraphExecDestroy(e2);
		}
		R("instantiate twice", cuGraphInstantiate(&e2, g, 0));
		cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
		R("launch same exec two streams", cuGraphLaunch(ge, s) + cuGraphLaunch(e2, NULL) * 0 +
		  cuGraphLaunch(ge, NULL));
		cuCtxSynchronize();
		cuGraphExecDestroy(e2);
		R("clone", cuGraphClone(&cl, g));
		shape("clone shape", cl);
		R("find in clone", cuGraphNodeFindInClone(&cn, n[2], cl));
		{
			CUgraphNodeType t;

			cuGraphNodeGetType(cn, &t);
			printf("found type = %d\n", (int)t);
		}
		R("find in clone wrong graph", cuGraphNodeFindInClone(&cn, n[2], g));
		cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);
		launch_add(s, 1);
		R("graph launch in capture", cuGraphLaunch(ge, s));
		R("graph launch in capture end", cuStreamEndCapture(s, &g2));
		shape("graph launch in capture shape", g2);
		cuGraphDestroy(g2);
		R("exec destroy while running", (cuGraphLaunch(ge, s), cuGraphExecDestroy(ge)));
		cuStreamSynchronize(s);
		cuStreamDestroy(s);
		cuGraphDestroy(cl);
	}
	{
		CUevent e;
		CUgraphNode rn, wn;

		cuEventCreate(&e, 0);
		R("add event record", cuGraphAddEventRecordNode(&rn, g, &n[3], 1, e));
		R("add event wait", cuGraphAddEventWaitNode(&wn, g, &rn, 1, e));
		R("add event record null", cuGraphAddEventRecordNode(&rn, g, NULL, 0, NULL));
		shape("with events shape", g);
		R("instantiate with events", cuGraphInstantiate(&ge, g, 0));
		R("launch with events", cuGraphLaunch(ge, NULL));
		cuCtxSynchronize();
		R("event query after", cuEventQuery(e));
		cuGraphExecDestroy(ge);
		cuEventDestroy(e);
	}
	R("destroy", cuGraphDestroy(g));

	/* Conditional handles. */
	cuGraphCreate(&g, 0);
	{
		CUgraphConditionalHandle h;
		CUgraphNodeParams np;
		CUgraphNode cn;

		R("cond handle", cuGraphConditionalHandleCreate(&h, g, ctx, 0, 0));
		R("cond handle bad flags", cuGraphConditionalHandleCreate(&h, g, ctx, 0, 7));
		R("cond handle default flag", cuGraphConditionalHandleCreate(&h, g, ctx, 1,
			CU_GRAPH_COND_ASSIGN_DEFAULT));
		memset(&np, 0, sizeof(np));
		np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
		np.conditional.handle = h;
		np.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
		np.conditional.size = 1;
		np.conditional.ctx = ctx;
		R("add while node", cuGraphAddNode(&cn, g, NULL, NULL, 0, &np));
		printf("while body graphs = %s\n", np.conditional.phGraph_out ? "set" : "null");
#define COND(tag, ty, sz) do { \
		cuGraphConditionalHandleCreate(&h, g, ctx, 0, 0); \
		np.conditional.handle = h; \
		np.conditional.phGraph_out = NULL; \
		np.conditional.type = (ty); \
		np.conditional.size = (sz); \
		R(tag, cuGraphAddNode(&cn, g, NULL, NULL, 0, &np)); \
	} while (0)
		R("add while same handle again", cuGraphAddNode(&cn, g, NULL, NULL, 0, &np));
		COND("add while size 2", CU_GRAPH_COND_TYPE_WHILE, 2);
		COND("add if size 1", CU_GRAPH_COND_TYPE_IF, 1);
		COND("add if size 2", CU_GRAPH_COND_TYPE_IF, 2);
		COND("add if size 3", CU_GRAPH_COND_TYPE_IF, 3);
		COND("add switch size 5", CU_GRAPH_COND_TYPE_SWITCH, 5);
		COND("add switch size 0", CU_GRAPH_COND_TYPE_SWITCH, 0);
		COND("add cond bad type", (CUgraphConditionalNodeType)9, 1);
		shape("cond shape", g);
		R("instantiate cond with empty bodies", cuGraphInstantiate(&ge, g, 0));
		if (!cuGraphExecDestroy(ge))
			printf("cond exec destroyed = 1\n");
	}
	cuGraphDestroy(g);

	/* A while node whose body counts down the handle's value. */
	cuGraphCreate(&g, 0);
	{
		CUgraphConditionalHandle h;
		CUgraphNodeParams np;
		CUgraphNode cn, bn;
		CUDA_KERNEL_NODE_PARAMS bk;

		cuGraphConditionalHandleCreate(&h, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT);
		memset(&np, 0, sizeof(np));
		np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
		np.conditional.handle = h;
		np.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
		np.conditional.size = 1;
		np.conditional.ctx = ctx;
		cuGraphAddNode(&cn, g, NULL, NULL, 0, &np);
		kparams(&bk, add_fn, a1);
		R("add kernel to body", cuGraphAddKernelNode(&bn, np.conditional.phGraph_out[0],
							     NULL, 0, &bk));
		R("add host to body", cuGraphAddHostNode(&bn, np.conditional.phGraph_out[0],
							 NULL, 0, &hp));
		R("instantiate while with host body", cuGraphInstantiate(&ge, g, 0));
		R("remove host from body", cuGraphDestroyNode(bn));
		R("instantiate while with kernel body", cuGraphInstantiate(&ge, g, 0));
		if (!cuGraphExecDestroy(ge))
			printf("while exec destroyed = 1\n");
	}
	cuGraphDestroy(g);
}

int main(void)
{
	CUdevice dev;
	CUmodule mod;
	char name[128];
	int drv;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDeviceGetName(name, sizeof(name), dev);
	cuDriverGetVersion(&drv);
	printf("%s, driver API %d\n", name, drv);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	if (cuModuleLoadData(&mod, ptx)) {
		printf("module load failed\n");
		return 1;
	}
	cuModuleGetFunction(&add_fn, mod, "add");
	cuModuleGetFunction(&other_fn, mod, "other");
	cuModuleGetFunction(&three_fn, mod, "three");
	cuMemAlloc(&dbuf, 64);
	cuMemsetD32(dbuf, 0, 16);
	(void)addv;
	capture_cases();
	graph_cases();
	printf("end = 0\n");
	return 0;
}
