// SPDX-License-Identifier: MIT
// Stream capture and executable graphs on the runtime API: an iteration
// of work over two streams (a fork through an event, kernels, a copy each
// way, a memset, a host function, a join) captured into a graph that is
// instantiated and launched 100 times; what a capture says of itself while
// it runs; capture into an existing graph; the thread's capture mode; the
// calls a capture refuses in each mode, and what they do to it; updating
// an executable graph, turning its nodes off, uploading it, its flags;
// and the error codes of bad input. The graphs are looked at and freed
// through the driver API (the runtime's graph queries are elsewhere).
#include <pthread.h>

#include <cuda.h>

#include "rt.h"

#define N 1024
#define LAUNCHES 100

#define CU_TRY(call) do { \
	CUresult _r = (call); \
	if (_r != CUDA_SUCCESS) { \
		fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, \
			__LINE__, #call, (int)_r); \
		printf("Result = FAIL\n"); \
		exit(1); \
	} \
} while (0)

__global__ void add(int *p, int v, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		p[i] += v;
}

// acc += a + b, element by element.
__global__ void combine(int *acc, int *a, const int *b, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n) {
		a[i] += b[i];
		acc[i] += a[i];
	}
}

static volatile int host_calls;

static void CUDART_CB count_call(void *arg)
{
	(void)arg;
	host_calls++;
}

static size_t node_count(cudaGraph_t g)
{
	size_t n = 0;

	CU_TRY(cuGraphGetNodes(g, NULL, &n));
	return n;
}

// The graph's node types in the driver's order, as "[t,t,...]".
static void print_types(const char *what, cudaGraph_t g)
{
	CUgraphNode nodes[32];
	CUgraphNodeType t;
	size_t i, n = 32;

	CU_TRY(cuGraphGetNodes(g, nodes, &n));
	printf("%s: nodes %zu types [", what, n);
	for (i = 0; i < n; i++) {
		CU_TRY(cuGraphNodeGetType(nodes[i], &t));
		printf("%s%d", i ? "," : "", (int)t);
	}
	printf("]\n");
}

// What the capture on @s says of itself, with the graph's nodes so far.
static void print_info(const char *what, cudaStream_t s,
		       unsigned long long *id_out)
{
	enum cudaStreamCaptureStatus st;
	unsigned long long id = 0;
	cudaGraph_t g = NULL;
	const cudaGraphNode_t *deps = NULL;
	const cudaGraphEdgeData *edata = NULL;
	size_t ndeps = 999;
	cudaError_t e;

	e = cudaStreamGetCaptureInfo(s, &st, &id, &g, &deps, &edata, &ndeps);
	printf("%s: info = rc %d status %d id %s graph %s ndeps %zu nodes %zu\n",
	       what, (int)e, (int)st, id ? "nonzero" : "zero",
	       g ? "set" : "null", ndeps, g ? node_count(g) : (size_t)0);
	if (id_out)
		*id_out = id;
}

static int capture_status(cudaStream_t s)
{
	enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
	cudaError_t e = cudaStreamIsCapturing(s, &st);

	return e ? -(int)e : (int)st;
}

// Ends the capture on @s, printing the code and whether a graph came.
static void end_capture(const char *what, cudaStream_t s)
{
	cudaGraph_t g = NULL;
	cudaError_t e = cudaStreamEndCapture(s, &g);

	printf("%s: end = %d graph %s\n", what, (int)e, g ? "set" : "null");
	if (g)
		CU_TRY(cuGraphDestroy(g));
	cudaGetLastError();
}

struct bufs {
	int *in, *out;		// page-locked
	int *a, *b, *acc;	// device
};

// One iteration: a in from the host, a += 1 on s1 while b = 0 + 2 and a
// host call on s2, joined: a += b, acc += a, a out to the host.
static unsigned long long capture_iteration(struct bufs *m, cudaStream_t s1,
					    cudaStream_t s2, cudaGraph_t *g)
{
	unsigned long long id1 = 0, id2 = 0;
	cudaEvent_t fork, join;
	const cudaGraphNode_t *deps;
	size_t ndeps = 0;
	enum cudaStreamCaptureStatus st;

	TRY(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
	TRY(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
	TRY(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
	print_info("iteration begun", s1, &id1);
	printf("iteration: s1 capturing = %d\n", capture_status(s1));
	printf("iteration: s2 capturing before fork = %d\n",
	       capture_status(s2));
	TRY(cudaMemcpyAsync(m->a, m->in, N * sizeof(int),
			    cudaMemcpyHostToDevice, s1));
	print_info("after copy in", s1, NULL);
	TRY(cudaEventRecord(fork, s1));
	TRY(cudaStreamWaitEvent(s2, fork, 0));
	printf("iteration: s2 capturing after fork = %d\n",
	       capture_status(s2));
	print_info("s2 after fork", s2, &id2);
	printf("iteration: s2 same capture id = %d\n", id1 == id2);
	add<<<N / 256, 256, 0, s1>>>(m->a, 1, N);
	TRY(cudaGetLastError());
	TRY(cudaMemsetAsync(m->b, 0, N * sizeof(int), s2));
	add<<<N / 256, 256, 0, s2>>>(m->b, 2, N);
	TRY(cudaGetLastError());
	TRY(cudaLaunchHostFunc(s2, count_call, NULL));
	print_info("s2 before join", s2, NULL);
	TRY(cudaEventRecord(join, s2));
	TRY(cudaStreamWaitEvent(s1, join, 0));
	// s1 now waits on its kernel and on s2's host node.
	TRY(cudaStreamGetCaptureInfo(s1, &st, NULL, NULL, &deps, NULL,
				     &ndeps));
	printf("iteration: s1 deps after join = %zu\n", ndeps);
	combine<<<N / 256, 256, 0, s1>>>(m->acc, m->a, m->b, N);
	TRY(cudaGetLastError());
	TRY(cudaMemcpyAsync(m->out, m->a, N * sizeof(int),
			    cudaMemcpyDeviceToHost, s1));
	print_info("iteration end", s1, NULL);
	printf("iteration: s2 capturing after join = %d\n",
	       capture_status(s2));
	*g = NULL;
	TRY(cudaStreamEndCapture(s1, g));
	printf("iteration: graph %s\n", *g ? "set" : "null");
	printf("iteration: s1 capturing after end = %d\n",
	       capture_status(s1));
	printf("iteration: s2 capturing after end = %d\n",
	       capture_status(s2));
	TRY(cudaEventDestroy(fork));
	TRY(cudaEventDestroy(join));
	return id1;
}

static void check_iteration(struct bufs *m, cudaStream_t s1,
			    cudaStream_t s2, cudaStream_t s3)
{
	unsigned long long id1, id2;
	cudaGraphExec_t exec;
	cudaGraph_t g, g2;
	int i, bad = 0;

	for (i = 0; i < N; i++)
		m->in[i] = i * 3;
	TRY(cudaMemset(m->acc, 0, N * sizeof(int)));
	TRY(cudaDeviceSynchronize());
	id1 = capture_iteration(m, s1, s2, &g);
	print_types("iteration graph", g);
	printf("iteration: host calls while capturing = %d\n", host_calls);
	TRY(cudaGraphInstantiate(&exec, g, 0));
	for (i = 0; i < LAUNCHES; i++)
		TRY(cudaGraphLaunch(exec, s3));
	TRY(cudaStreamSynchronize(s3));
	printf("iteration: host calls after %d launches = %d\n", LAUNCHES,
	       host_calls);
	for (i = 0; i < N; i++)
		if (m->out[i] != i * 3 + 3)
			bad++;
	printf("iteration: copied out wrong = %d\n", bad);
	EXPECT_TRUE(bad == 0);
	memset(m->out, 0, N * sizeof(int));
	TRY(cudaMemcpy(m->out, m->acc, N * sizeof(int),
		       cudaMemcpyDeviceToHost));
	for (i = 0, bad = 0; i < N; i++)
		if (m->out[i] != LAUNCHES * (i * 3 + 3))
			bad++;
	printf("iteration: accumulated wrong = %d\n", bad);
	EXPECT_TRUE(bad == 0);
	EXPECT_TRUE(host_calls == LAUNCHES);

	// A second capture has an id of its own.
	id2 = capture_iteration(m, s1, s2, &g2);
	printf("iteration: second capture id differs = %d\n", id1 != id2);
	printf("iteration: second capture id greater = %d\n", id2 > id1);
	EXPECT_TRUE(id1 != id2);
	CU_TRY(cuGraphDestroy(g2));
	TRY(cudaGraphExecDestroy(exec));
	CU_TRY(cuGraphDestroy(g));
}

// Capture into a graph that already holds a node, after that node.
static void check_to_graph(int *d, cudaStream_t s)
{
	cudaGraphNode_t first;
	cudaGraph_t g, got = NULL, out = NULL;
	const cudaGraphNode_t *deps = NULL;
	enum cudaStreamCaptureStatus st;
	size_t ndeps = 0;

	CU_TRY(cuGraphCreate(&g, 0));
	CU_TRY(cuGraphAddEmptyNode(&first, g, NULL, 0));
	EXPECT(cudaSuccess, cudaStreamBeginCaptureToGraph(
		s, g, &first, NULL, 1, cudaStreamCaptureModeGlobal));
	TRY(cudaStreamGetCaptureInfo(s, &st, NULL, &got, &deps, NULL,
				     &ndeps));
	printf("to graph: status %d same graph %d ndeps %zu dep is node %d\n",
	       (int)st, got == g, ndeps, ndeps == 1 && deps[0] == first);
	add<<<N / 256, 256, 0, s>>>(d, 1, N);
	TRY(cudaGetLastError());
	EXPECT(cudaSuccess, cudaStreamEndCapture(s, &out));
	printf("to graph: end gives the same graph = %d\n", out == g);
	print_types("to graph", g);
	EXPECT(cudaErrorInvalidValue, cudaStreamBeginCaptureToGraph(
		s, NULL, NULL, NULL, 0, cudaStreamCaptureModeGlobal));
	EXPECT(cudaErrorInvalidValue, cudaStreamBeginCaptureToGraph(
		s, g, NULL, NULL, 1, cudaStreamCaptureModeGlobal));
	printf("to graph: capturing after bad begins = %d\n",
	       capture_status(s));
	CU_TRY(cuGraphDestroy(g));
}

static void check_exchange(void)
{
	enum cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
	enum cudaStreamCaptureMode saved;
	cudaError_t e;

	EXPECT(cudaSuccess, cudaThreadExchangeStreamCaptureMode(&m));
	printf("exchange: old mode = %d\n", (int)m);
	saved = m;
	m = cudaStreamCaptureModeThreadLocal;
	EXPECT(cudaSuccess, cudaThreadExchangeStreamCaptureMode(&m));
	printf("exchange: mode was = %d\n", (int)m);
	m = saved;
	EXPECT(cudaSuccess, cudaThreadExchangeStreamCaptureMode(&m));
	printf("exchange: mode back from = %d\n", (int)m);
	m = (enum cudaStreamCaptureMode)7;
	e = cudaThreadExchangeStreamCaptureMode(&m);
	printf("exchange: bad mode = %d old %d\n", (int)e, (int)m);
	cudaGetLastError();
	if (e == cudaSuccess) {
		m = saved;
		TRY(cudaThreadExchangeStreamCaptureMode(&m));
		printf("exchange: back from bad mode, was = %d\n", (int)m);
	}
}

enum op {
	OP_MALLOC, OP_MALLOC_MANAGED, OP_MALLOC_HOST, OP_FREE, OP_MEMCPY, OP_MEMSET,
	OP_STREAM_SYNC, OP_STREAM_QUERY, OP_OTHER_SYNC, OP_OTHER_QUERY,
	OP_EVENT_SYNC, OP_EVENT_QUERY, OP_DEVICE_SYNC, OP_LEGACY_LAUNCH,
	OP_COUNT
};

static const char *const op_names[OP_COUNT] = {
	"cudaMalloc", "cudaMallocManaged", "cudaMallocHost", "cudaFree", "cudaMemcpy sync",
	"cudaMemset sync", "cudaStreamSynchronize capturing",
	"cudaStreamQuery capturing", "cudaStreamSynchronize other",
	"cudaStreamQuery other", "cudaEventSynchronize captured",
	"cudaEventQuery captured", "cudaDeviceSynchronize",
	"launch on stream 0",
};

static const char *const mode_names[3] = {
	"global", "thread-local", "relaxed"
};

// Runs @op while @s captures in @mode and prints what became of both.
static void probe(enum cudaStreamCaptureMode mode, enum op op,
		  cudaStream_t s, const char *stream_kind, cudaStream_t other,
		  int *d)
{
	char what[128];
	int host[4] = { 0 };
	void *p = NULL;
	int *spare = NULL;
	cudaEvent_t ev;
	cudaError_t e = cudaSuccess;

	snprintf(what, sizeof(what), "%s %s: %s", mode_names[mode],
		 stream_kind, op_names[op]);
	TRY(cudaEventCreate(&ev));
	TRY(cudaMalloc(&spare, 64));
	TRY(cudaStreamBeginCapture(s, mode));
	add<<<1, 32, 0, s>>>(d, 1, 32);
	TRY(cudaGetLastError());
	TRY(cudaEventRecord(ev, s));
	switch (op) {
	case OP_MALLOC:
		e = cudaMalloc(&p, 256);
		break;
	case OP_MALLOC_MANAGED:
		e = cudaMallocManaged(&p, 256);
		break;
	case OP_MALLOC_HOST:
		e = cudaMallocHost(&p, 256);
		break;
	case OP_FREE:
		e = cudaFree(spare);
		if (e == cudaSuccess)
			spare = NULL;
		break;
	case OP_MEMCPY:
		e = cudaMemcpy(d, host, sizeof(host), cudaMemcpyHostToDevice);
		break;
	case OP_MEMSET:
		e = cudaMemset(d, 0, 16);
		break;
	case OP_STREAM_SYNC:
		e = cudaStreamSynchronize(s);
		break;
	case OP_STREAM_QUERY:
		e = cudaStreamQuery(s);
		break;
	case OP_OTHER_SYNC:
		e = cudaStreamSynchronize(other);
		break;
	case OP_OTHER_QUERY:
		e = cudaStreamQuery(other);
		break;
	case OP_EVENT_SYNC:
		e = cudaEventSynchronize(ev);
		break;
	case OP_EVENT_QUERY:
		e = cudaEventQuery(ev);
		break;
	case OP_DEVICE_SYNC:
		e = cudaDeviceSynchronize();
		break;
	case OP_LEGACY_LAUNCH:
		add<<<1, 32>>>(d, 1, 32);
		e = cudaGetLastError();
		break;
	default:
		break;
	}
	cudaGetLastError();
	printf("%s = %d, status then %d", what, (int)e, capture_status(s));
	if (capture_status(s) == cudaStreamCaptureStatusInvalidated) {
		add<<<1, 32, 0, s>>>(d, 1, 32);
		printf(", launch after = %d", (int)cudaGetLastError());
	}
	printf("\n");
	end_capture(what, s);
	if (p && (op == OP_MALLOC || op == OP_MALLOC_MANAGED))
		TRY(cudaFree(p));
	if (p && op == OP_MALLOC_HOST)
		TRY(cudaFreeHost(p));
	if (spare)
		TRY(cudaFree(spare));
	TRY(cudaDeviceSynchronize());
	TRY(cudaEventDestroy(ev));
}

struct other_thread {
	bool relaxed;	// the thread's own mode relaxed first
	cudaError_t malloc_e, sync_e;
	cudaStream_t other;
};

static void *other_thread_calls(void *arg)
{
	struct other_thread *t = (struct other_thread *)arg;
	enum cudaStreamCaptureMode m = cudaStreamCaptureModeRelaxed;
	void *p = NULL;

	if (t->relaxed)
		cudaThreadExchangeStreamCaptureMode(&m);
	t->malloc_e = cudaMalloc(&p, 256);
	t->sync_e = cudaStreamSynchronize(t->other);
	if (p)
		cudaFree(p);
	cudaGetLastError();
	return NULL;
}

// Unsafe calls of another thread while @s captures in @mode.
static void probe_thread(enum cudaStreamCaptureMode mode, bool relaxed,
			 cudaStream_t s, cudaStream_t other, int *d)
{
	struct other_thread t = { relaxed, cudaSuccess, cudaSuccess, other };
	char what[96];
	pthread_t th;

	snprintf(what, sizeof(what), "%s, other thread%s", mode_names[mode],
		 relaxed ? " relaxed" : "");
	TRY(cudaStreamBeginCapture(s, mode));
	add<<<1, 32, 0, s>>>(d, 1, 32);
	TRY(cudaGetLastError());
	if (pthread_create(&th, NULL, other_thread_calls, &t) ||
	    pthread_join(th, NULL)) {
		printf("Result = FAIL\n");
		exit(1);
	}
	printf("%s: cudaMalloc = %d, cudaStreamSynchronize other = %d, "
	       "status then %d\n", what, (int)t.malloc_e, (int)t.sync_e,
	       capture_status(s));
	end_capture(what, s);
	TRY(cudaDeviceSynchronize());
}

static void check_illegal(int *d, cudaStream_t nb, cudaStream_t blocking,
			  cudaStream_t other)
{
	enum cudaStreamCaptureMode modes[3] = {
		cudaStreamCaptureModeGlobal, cudaStreamCaptureModeThreadLocal,
		cudaStreamCaptureModeRelaxed
	};
	int m, op;

	for (m = 0; m < 3; m++)
		for (op = 0; op < OP_COUNT; op++)
			probe(modes[m], (enum op)op, nb, "non-blocking", other,
			      d);
	// The legacy stream synchronizes with a blocking stream.
	probe(cudaStreamCaptureModeGlobal, OP_MEMCPY, blocking, "blocking",
	      other, d);
	probe(cudaStreamCaptureModeGlobal, OP_MEMSET, blocking, "blocking",
	      other, d);
	probe(cudaStreamCaptureModeGlobal, OP_LEGACY_LAUNCH, blocking,
	      "blocking", other, d);
	probe(cudaStreamCaptureModeRelaxed, OP_LEGACY_LAUNCH, blocking,
	      "blocking", other, d);
	for (m = 0; m < 3; m++)
		probe_thread(modes[m], false, nb, other, d);
	probe_thread(cudaStreamCaptureModeGlobal, true, nb, other, d);
}

// Stream-ordered allocation in a capture: the graph's own memory.
static void check_alloc_nodes(cudaStream_t s)
{
	cudaGraphExec_t exec;
	cudaGraph_t g;
	int *p = NULL, v = 0;

	TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	EXPECT(cudaSuccess, cudaMallocAsync(&p, N * sizeof(int), s));
	TRY(cudaMemsetAsync(p, 0, N * sizeof(int), s));
	add<<<N / 256, 256, 0, s>>>(p, 9, N);
	TRY(cudaGetLastError());
	TRY(cudaMemcpyAsync(&v, p + 3, sizeof(v), cudaMemcpyDeviceToHost, s));
	EXPECT(cudaSuccess, cudaFreeAsync(p, s));
	TRY(cudaStreamEndCapture(s, &g));
	print_types("alloc graph", g);
	TRY(cudaGraphInstantiate(&exec, g, 0));
	TRY(cudaGraphLaunch(exec, s));
	TRY(cudaStreamSynchronize(s));
	printf("alloc graph: value = %d\n", v);
	EXPECT_TRUE(v == 9);
	TRY(cudaGraphExecDestroy(exec));
	CU_TRY(cuGraphDestroy(g));
}

// Where a capture may not begin or end.
static void check_capture_rules(int *d, cudaStream_t s1, cudaStream_t s2)
{
	cudaEvent_t ev;
	cudaGraph_t g = (cudaGraph_t)1;

	cudaError_t e;

	e = cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal);
	printf("rules: capture of stream 0 = %d\n", (int)e);
	EXPECT(cudaErrorStreamCaptureUnsupported, e);
	e = cudaStreamBeginCapture(cudaStreamLegacy,
				   cudaStreamCaptureModeRelaxed);
	printf("rules: capture of cudaStreamLegacy = %d\n", (int)e);
	EXPECT(cudaErrorStreamCaptureUnsupported, e);
	cudaGetLastError();
	TRY(cudaStreamBeginCapture(cudaStreamPerThread,
				   cudaStreamCaptureModeGlobal));
	printf("rules: per-thread stream capturing = %d\n",
	       capture_status(cudaStreamPerThread));
	printf("rules: legacy stream capturing = %d\n", capture_status(0));
	end_capture("rules: per-thread", cudaStreamPerThread);

	// Ending where nothing captures.
	EXPECT(cudaErrorIllegalState, cudaStreamEndCapture(s1, &g));
	printf("rules: end not capturing graph %s\n", g ? "set" : "null");
	cudaGetLastError();

	// Beginning twice.
	TRY(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
	EXPECT(cudaErrorIllegalState,
	       cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
	printf("rules: status after second begin = %d\n", capture_status(s1));
	end_capture("rules: after second begin", s1);

	// Ending on a stream that joined: the capture is unmatched and spoilt.
	TRY(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
	TRY(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
	add<<<1, 32, 0, s1>>>(d, 1, 32);
	TRY(cudaEventRecord(ev, s1));
	TRY(cudaStreamWaitEvent(s2, ev, 0));
	add<<<1, 32, 0, s2>>>(d, 1, 32);
	g = (cudaGraph_t)1;
	EXPECT(cudaErrorStreamCaptureUnmatched, cudaStreamEndCapture(s2, &g));
	printf("rules: end on joined stream graph %s, origin status %d, "
	       "joined status %d\n", g ? "set" : "null", capture_status(s1),
	       capture_status(s2));
	cudaGetLastError();
	g = (cudaGraph_t)1;
	EXPECT(cudaErrorStreamCaptureInvalidated,
	       cudaStreamEndCapture(s1, &g));
	printf("rules: end invalidated graph %s, status after %d %d\n",
	       g ? "set" : "null", capture_status(s1), capture_status(s2));
	cudaGetLastError();

	// A fork left unjoined spoils the capture at its end.
	TRY(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
	TRY(cudaEventRecord(ev, s1));
	TRY(cudaStreamWaitEvent(s2, ev, 0));
	add<<<1, 32, 0, s2>>>(d, 1, 32);
	end_capture("rules: unjoined", s1);
	printf("rules: joined stream after unjoined end = %d\n",
	       capture_status(s2));

	TRY(cudaEventDestroy(ev));
	TRY(cudaDeviceSynchronize());
}

static void check_dependencies(int *d, cudaStream_t s)
{
	const cudaGraphNode_t *deps = NULL;
	enum cudaStreamCaptureStatus st;
	cudaGraphNode_t k1, k2, set[2];
	cudaGraph_t g;
	size_t ndeps = 0;

	TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	add<<<1, 32, 0, s>>>(d, 1, 32);
	TRY(cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL,
				     &ndeps));
	k1 = deps[0];
	add<<<1, 32, 0, s>>>(d, 1, 32);
	TRY(cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL,
				     &ndeps));
	k2 = deps[0];
	printf("deps: after two launches ndeps %zu, second differs %d\n",
	       ndeps, k1 != k2);
	EXPECT(cudaErrorInvalidValue,
	       cudaStreamUpdateCaptureDependencies(s, &k1, NULL, 1, 7));
	EXPECT(cudaErrorInvalidValue,
	       cudaStreamUpdateCaptureDependencies(s, NULL, NULL, 1,
				cudaStreamSetCaptureDependencies));
	EXPECT(cudaSuccess, cudaStreamUpdateCaptureDependencies(
		s, &k1, NULL, 1, cudaStreamSetCaptureDependencies));
	TRY(cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL,
				     &ndeps));
	printf("deps: after set ndeps %zu, is first %d\n", ndeps,
	       ndeps == 1 && deps[0] == k1);
	set[0] = k2;
	EXPECT(cudaSuccess, cudaStreamUpdateCaptureDependencies(
		s, set, NULL, 1, cudaStreamAddCaptureDependencies));
	TRY(cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL,
				     &ndeps));
	printf("deps: after add ndeps %zu\n", ndeps);
	add<<<1, 32, 0, s>>>(d, 1, 32);
	TRY(cudaStreamEndCapture(s, &g));
	print_types("deps graph", g);
	CU_TRY(cuGraphDestroy(g));
	cudaGetLastError();
	EXPECT(cudaErrorIllegalState, cudaStreamUpdateCaptureDependencies(
		s, &k1, NULL, 1, cudaStreamSetCaptureDependencies));
	cudaGetLastError();
}

// A graph of kernels adding @v1 then (if @v2) @v2 to d[0..N).
static cudaGraph_t capture_adds(cudaStream_t s, int *d, int v1, int v2,
				cudaGraphNode_t *second)
{
	const cudaGraphNode_t *deps = NULL;
	enum cudaStreamCaptureStatus st;
	size_t ndeps = 0;
	cudaGraph_t g;

	TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	add<<<N / 256, 256, 0, s>>>(d, v1, N);
	if (v2) {
		add<<<N / 256, 256, 0, s>>>(d, v2, N);
		TRY(cudaStreamGetCaptureInfo(s, &st, NULL, NULL, &deps, NULL,
					     &ndeps));
		if (second)
			*second = deps[0];
	}
	TRY(cudaGetLastError());
	TRY(cudaStreamEndCapture(s, &g));
	return g;
}

static int value_at(const int *d, int i)
{
	int v = 0;

	TRY(cudaMemcpy(&v, d + i, sizeof(v), cudaMemcpyDeviceToHost));
	return v;
}

// Its fills go on @s, the graphs' stream: a fill on stream 0 is not
// ordered with a non-blocking stream's work.
static void check_exec(int *d, cudaStream_t s)
{
	cudaGraphExecUpdateResultInfo info;
	cudaGraphInstantiateParams ip;
	cudaGraphExec_t exec, exec2;
	cudaGraphNode_t second = NULL;
	cudaGraph_t g1, g2, g3;
	unsigned long long flags = 99;
	unsigned int on = 7;
	cudaError_t e;

	TRY(cudaMemsetAsync(d, 0, N * sizeof(int), s));
	g1 = capture_adds(s, d, 1, 10, &second);
	TRY(cudaGraphInstantiateWithFlags(&exec, g1, 0));
	TRY(cudaGraphLaunch(exec, s));
	TRY(cudaStreamSynchronize(s));
	printf("exec: value after one launch = %d\n", value_at(d, 5));

	// The same shape with other arguments: the update takes it.
	g2 = capture_adds(s, d, 100, 1000, NULL);
	memset(&info, 0x5a, sizeof(info));
	e = cudaGraphExecUpdate(exec, g2, &info);
	printf("exec: update same shape = %d result %d errorNode %s\n",
	       (int)e, (int)info.result, info.errorNode ? "set" : "null");
	EXPECT(cudaSuccess, e);
	TRY(cudaGraphLaunch(exec, s));
	TRY(cudaStreamSynchronize(s));
	printf("exec: value after updated launch = %d\n", value_at(d, 5));
	EXPECT_TRUE(value_at(d, 5) == 1111);

	// Another shape: refused, and the executable graph is as it was.
	g3 = capture_adds(s, d, 3, 0, NULL);
	memset(&info, 0x5a, sizeof(info));
	e = cudaGraphExecUpdate(exec, g3, &info);
	printf("exec: update other shape = %d result %d errorNode %s "
	       "errorFromNode %s\n", (int)e, (int)info.result,
	       info.errorNode ? "set" : "null",
	       info.errorFromNode ? "set" : "null");
	EXPECT(cudaErrorGraphExecUpdateFailure, e);
	cudaGetLastError();
	e = cudaGraphExecUpdate(exec, g2, NULL);
	printf("exec: update with NULL info = %d\n", (int)e);
	cudaGetLastError();
	EXPECT(cudaErrorInvalidValue, cudaGraphExecUpdate(NULL, g2, &info));
	EXPECT(cudaErrorInvalidValue, cudaGraphExecUpdate(exec, NULL, &info));

	// Whether the updated graph still knows the nodes of the one it was
	// made from: the node's answer, not checked.
	e = cudaGraphNodeGetEnabled(exec, second, &on);
	printf("exec: updated graph, node of the first graph enabled = %d\n",
	       (int)e);
	cudaGetLastError();
	TRY(cudaGraphExecDestroy(exec));

	// The second kernel turned off in an executable graph of g1.
	TRY(cudaGraphInstantiate(&exec, g1, 0));
	TRY(cudaMemsetAsync(d, 0, N * sizeof(int), s));
	on = 7;
	EXPECT(cudaSuccess, cudaGraphNodeGetEnabled(exec, second, &on));
	printf("exec: second kernel enabled = %u\n", on);
	EXPECT(cudaSuccess, cudaGraphNodeSetEnabled(exec, second, 0));
	EXPECT(cudaSuccess, cudaGraphNodeGetEnabled(exec, second, &on));
	printf("exec: second kernel enabled after off = %u\n", on);
	TRY(cudaGraphLaunch(exec, s));
	TRY(cudaStreamSynchronize(s));
	printf("exec: value with second off = %d\n", value_at(d, 5));
	EXPECT_TRUE(value_at(d, 5) == 1);
	EXPECT(cudaSuccess, cudaGraphNodeSetEnabled(exec, second, 1));
	TRY(cudaGraphLaunch(exec, s));
	TRY(cudaStreamSynchronize(s));
	printf("exec: value with second on again = %d\n", value_at(d, 5));
	EXPECT_TRUE(value_at(d, 5) == 12);
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphNodeGetEnabled(exec, second, NULL));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphNodeSetEnabled(NULL, second, 1));
	EXPECT(cudaErrorInvalidValue, cudaGraphNodeGetEnabled(NULL, second,
							       &on));
	EXPECT(cudaErrorInvalidValue, cudaGraphNodeSetEnabled(exec, NULL, 1));

	// Upload, flags.
	EXPECT(cudaSuccess, cudaGraphUpload(exec, s));
	EXPECT(cudaSuccess, cudaGraphUpload(exec, 0));
	EXPECT(cudaSuccess, cudaGraphExecGetFlags(exec, &flags));
	printf("exec: flags = %llu\n", flags);
	EXPECT(cudaErrorInvalidValue, cudaGraphExecGetFlags(exec, NULL));
	TRY(cudaGraphInstantiateWithFlags(
		&exec2, g1, cudaGraphInstantiateFlagAutoFreeOnLaunch));
	EXPECT(cudaSuccess, cudaGraphExecGetFlags(exec2, &flags));
	printf("exec: auto-free flags = %llu\n", flags);
	TRY(cudaGraphExecDestroy(exec2));
	e = cudaGraphInstantiateWithFlags(&exec2, g1,
					  cudaGraphInstantiateFlagUpload);
	printf("exec: instantiate with flags upload = %d\n", (int)e);
	if (e == cudaSuccess)
		TRY(cudaGraphExecDestroy(exec2));
	cudaGetLastError();
	e = cudaGraphInstantiateWithFlags(&exec2, g1, 1ull << 40);
	printf("exec: instantiate with unknown flag = %d\n", (int)e);
	if (e == cudaSuccess)
		TRY(cudaGraphExecDestroy(exec2));
	cudaGetLastError();

	// Instantiation with parameters: an upload to a stream.
	memset(&ip, 0, sizeof(ip));
	ip.flags = cudaGraphInstantiateFlagUpload;
	ip.uploadStream = s;
	ip.errNode_out = (cudaGraphNode_t)1;
	ip.result_out = (cudaGraphInstantiateResult)9;
	EXPECT(cudaSuccess, cudaGraphInstantiateWithParams(&exec2, g1, &ip));
	printf("exec: with params result %d errNode %s\n", (int)ip.result_out,
	       ip.errNode_out ? "set" : "null");
	EXPECT(cudaSuccess, cudaGraphExecGetFlags(exec2, &flags));
	printf("exec: with params flags = %llu\n", flags);
	TRY(cudaMemsetAsync(d, 0, N * sizeof(int), s));
	TRY(cudaGraphLaunch(exec2, s));
	TRY(cudaStreamSynchronize(s));
	printf("exec: with params value = %d\n", value_at(d, 5));
	TRY(cudaGraphExecDestroy(exec2));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphInstantiateWithParams(&exec2, g1, NULL));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphInstantiateWithParams(NULL, g1, &ip));
	memset(&ip, 0, sizeof(ip));
	ip.flags = 1ull << 40;
	ip.result_out = (cudaGraphInstantiateResult)9;
	e = cudaGraphInstantiateWithParams(&exec2, g1, &ip);
	printf("exec: with params unknown flag = %d result %d\n", (int)e,
	       (int)ip.result_out);
	if (e == cudaSuccess)
		TRY(cudaGraphExecDestroy(exec2));
	cudaGetLastError();

	// Bad input.
	EXPECT(cudaErrorInvalidValue, cudaGraphInstantiate(NULL, g1, 0));
	EXPECT(cudaErrorInvalidValue, cudaGraphInstantiate(&exec2, NULL, 0));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphInstantiateWithFlags(NULL, g1, 0));
	e = cudaGraphLaunch(NULL, s);
	printf("exec: launch NULL exec = %d\n", (int)e);
	cudaGetLastError();
	e = cudaGraphUpload(NULL, s);
	printf("exec: upload NULL exec = %d\n", (int)e);
	cudaGetLastError();
	e = cudaGraphExecGetFlags(NULL, &flags);
	printf("exec: flags of NULL exec = %d\n", (int)e);
	cudaGetLastError();
	e = cudaGraphExecDestroy(NULL);
	printf("exec: destroy NULL exec = %d\n", (int)e);
	cudaGetLastError();

	// A graph launch on a capturing stream.
	TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	e = cudaGraphLaunch(exec, s);
	printf("exec: graph launch in capture = %d status %d\n", (int)e,
	       capture_status(s));
	cudaGetLastError();
	end_capture("exec: graph launch in capture", s);

	TRY(cudaGraphExecDestroy(exec));
	CU_TRY(cuGraphDestroy(g1));
	CU_TRY(cuGraphDestroy(g2));
	CU_TRY(cuGraphDestroy(g3));
}

static void check_bad_input(cudaStream_t s)
{
	enum cudaStreamCaptureStatus st = (enum cudaStreamCaptureStatus)9;
	unsigned long long id = 7;
	cudaError_t e;

	EXPECT(cudaErrorInvalidValue,
	       cudaStreamBeginCapture(s, (enum cudaStreamCaptureMode)7));
	printf("bad: status after bad mode = %d\n", capture_status(s));
	EXPECT(cudaErrorInvalidValue, cudaStreamIsCapturing(s, NULL));
	EXPECT(cudaErrorInvalidValue,
	       cudaStreamGetCaptureInfo(s, NULL, &id, NULL, NULL, NULL,
					NULL));
	EXPECT(cudaSuccess, cudaStreamGetCaptureInfo(s, &st, &id, NULL, NULL,
						     NULL, NULL));
	printf("bad: info idle status %d id %llu\n", (int)st, id);
	e = cudaStreamEndCapture(s, NULL);
	printf("bad: end NULL graph idle = %d\n", (int)e);
	cudaGetLastError();
	TRY(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
	e = cudaStreamEndCapture(s, NULL);
	printf("bad: end NULL graph capturing = %d status then %d\n", (int)e,
	       capture_status(s));
	cudaGetLastError();
	if (capture_status(s) != cudaStreamCaptureStatusNone)
		end_capture("bad: after NULL graph", s);
}

int main(void)
{
	cudaStream_t s1, s2, s3, blocking, other;
	struct bufs m;
	int *d;

	rt_check_library();
	TRY(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
	TRY(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
	TRY(cudaStreamCreateWithFlags(&s3, cudaStreamNonBlocking));
	TRY(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
	TRY(cudaStreamCreate(&blocking));
	TRY(cudaMallocHost(&m.in, N * sizeof(int)));
	TRY(cudaMallocHost(&m.out, N * sizeof(int)));
	TRY(cudaMalloc(&m.a, N * sizeof(int)));
	TRY(cudaMalloc(&m.b, N * sizeof(int)));
	TRY(cudaMalloc(&m.acc, N * sizeof(int)));
	TRY(cudaMalloc(&d, N * sizeof(int)));
	TRY(cudaMemset(d, 0, N * sizeof(int)));
	TRY(cudaDeviceSynchronize());

	check_iteration(&m, s1, s2, s3);
	check_to_graph(d, s1);
	check_exchange();
	check_capture_rules(d, s1, s2);
	check_dependencies(d, s1);
	check_alloc_nodes(s1);
	check_illegal(d, s1, blocking, other);
	check_exec(d, s1);
	check_bad_input(s1);

	TRY(cudaDeviceSynchronize());
	TRY(cudaFree(d));
	TRY(cudaFree(m.acc));
	TRY(cudaFree(m.b));
	TRY(cudaFree(m.a));
	TRY(cudaFreeHost(m.out));
	TRY(cudaFreeHost(m.in));
	TRY(cudaStreamDestroy(blocking));
	TRY(cudaStreamDestroy(other));
	TRY(cudaStreamDestroy(s3));
	TRY(cudaStreamDestroy(s2));
	TRY(cudaStreamDestroy(s1));
	return rt_result();
}
