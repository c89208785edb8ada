// SPDX-License-Identifier: MIT
/*
 * Stream capture through the driver API, held to what NVIDIA's driver
 * answered for the same sequence (tests/e2e/ref/h200_capture.log, from
 * ref/h200_capture.c): where a capture may begin, what each call does to
 * a capture in each mode (900 and an invalidated capture for an illegal
 * one), captured events, streams joining a capture through events and
 * ending unjoined, capture information and dependency updates, capture
 * into an existing graph, and the graphs captures make. Beyond the probe:
 * a capture over three streams with copies replayed many times, memcpy
 * nodes, and bad input to every capture entry point.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h200_capture.log"
#include "h100_log.h"

/*
 * add: adds v to the word at p, atomically: a graph's independent
 * branches run side by side here, and several add to one word (the
 * H200's recorded values, taken with a plain load and store, are the
 * same sums).
 */
static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .entry add(.param .u64 p, .param .u32 v)\n{\n"
	"\t.reg .u64 %rd<3>;\n\t.reg .u32 %r<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
	"\tatom.global.add.u32 %r3, [%rd1], %r1;\n\tret;\n}\n";

static CUcontext ctx;
static CUfunction add_fn;
static CUdeviceptr dbuf;
static CUstream s1, s2, s3, blk, other_stream;
static CUevent ev, ev2;

static void setup(void)
{
	CUdevice dev;
	CUmodule mod;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGet(&dev, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&add_fn, mod, "add"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dbuf, 64));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD32(dbuf, 0, 16));
	/* Done before the non-blocking streams, which do not wait for it, use dbuf. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSynchronize());
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s3, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&blk, CU_STREAM_DEFAULT));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&other_stream, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&ev2, CU_EVENT_DISABLE_TIMING));
}

static CUresult launch_add_at(CUstream s, CUdeviceptr p, unsigned int v)
{
	void *args[] = { &p, &v };

	return cuLaunchKernel(add_fn, 1, 1, 1, 1, 1, 1, 0, s, args, NULL);
}

static CUresult launch_add(CUstream s, unsigned int v)
{
	return launch_add_at(s, dbuf, v);
}

static unsigned int readback(void)
{
	unsigned int v = 0;

	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, dbuf, 4));
	return v;
}

/* @got against the H200's line for @name. */
static void line_is(const char *name, const char *got)
{
	const char *want = h100_line(name);

	if (want && strcmp(got, want))
		TAP_FAIL("%s: %s, the H200 gave %s", name, got, want);
}

static void status(const char *name, CUstream s)
{
	CUstreamCaptureStatus st = 77;
	CUresult r = cuStreamIsCapturing(s, &st);
	char line[64];

	snprintf(line, sizeof(line), "rc %d status %d\n", r, (int)st);
	line_is(name, line);
}

static void info(const char *name, CUstream s, cuuint64_t *id_out)
{
	CUstreamCaptureStatus st = 77;
	cuuint64_t id = 0;
	CUgraph g = NULL;
	const CUgraphNode *deps = NULL;
	const CUgraphEdgeData *ed = NULL;
	size_t n = 999;
	CUresult r = cuStreamGetCaptureInfo(s, &st, &id, &g, &deps, &ed, &n);
	char line[160];

	snprintf(line, sizeof(line), "rc %d status %d id %s graph %s ndeps %zu deps %s edata %s\n",
		 r, (int)st, id ? "nonzero" : "zero", g ? "set" : "null", n,
		 deps ? "set" : "null", ed ? "set" : "null");
	line_is(name, line);
	if (id_out)
		*id_out = id;
}

static void shape(const char *name, CUgraph g)
{
	CUgraphNode nodes[32];
	size_t n = 32, e = 0, i;
	CUresult r = cuGraphGetNodes(g, nodes, &n);
	char buf[256] = "", line[300];

	for (i = 0; !r && i < n && i < 32; i++) {
		CUgraphNodeType t;

		cuGraphNodeGetType(nodes[i], &t);
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%d", i ? "," : "",
			 (int)t);
	}
	cuGraphGetEdges(g, NULL, NULL, NULL, &e);
	snprintf(line, sizeof(line), "rc %d nodes %zu types [%s] edges %zu\n", r, n, buf, e);
	line_is(name, line);
}

/* Ends @s's capture as the probe's end() does; the graph is destroyed. */
static CUresult end(CUstream s, const char *name)
{
	CUgraph g = (CUgraph)(uintptr_t)1;
	CUresult r = cuStreamEndCapture(s, &g);
	char line[64];

	snprintf(line, sizeof(line), "rc %d graph %s\n", r,
		 g == (CUgraph)(uintptr_t)1 ? "untouched" : g ? "set" : "null");
	line_is(name, line);
	if (!r && g && g != (CUgraph)(uintptr_t)1)
		CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	return r;
}

static void value_is(const char *name, long long got)
{
	long long want = h100(name);

	if (got != want)
		TAP_FAIL("%s: %lld, the H200 gave %lld", name, got, want);
}

static void host_fn(void *arg)
{
	(*(int *)arg)++;
}

static void begin_where(void)
{
	setup();
	CHECK_H100("begin legacy null", cuStreamBeginCapture(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_H100("begin per-thread",
		   cuStreamBeginCapture(CU_STREAM_PER_THREAD, CU_STREAM_CAPTURE_MODE_GLOBAL));
	status("per-thread status", CU_STREAM_PER_THREAD);
	end(CU_STREAM_PER_THREAD, "end per-thread empty");
	CHECK_H100("begin bad mode", cuStreamBeginCapture(s1, (CUstreamCaptureMode)7));
	status("status after bad mode", s1);
	CHECK_H100("begin blocking stream", cuStreamBeginCapture(blk, CU_STREAM_CAPTURE_MODE_GLOBAL));
	end(blk, "end blocking empty");

	status("status idle", s1);
	status("status legacy idle", NULL);
	info("info idle", s1, NULL);
	CHECK_H100("is capturing null status", cuStreamIsCapturing(s1, NULL));
	value_is("end idle", end(s1, "end idle detail"));
	CHECK_H100("end null graph ptr idle", cuStreamEndCapture(s1, NULL));
}

static void simple_capture(void)
{
	CUgraph g = NULL;
	CUgraphExec ge = NULL;
	cuuint64_t id1 = 0, id2 = 0;
	unsigned int hbuf[2];
	int calls = 0;

	setup();
	CHECK_H100("begin s1", cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_H100("begin s1 again", cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	status("status capturing", s1);
	info("info empty capture", s1, &id1);
	CHECK_H100("launch in capture", launch_add(s1, 1));
	info("info after launch", s1, NULL);
	CHECK_H100("memset in capture", cuMemsetD32Async(dbuf + 4, 5, 1, s1));
	CHECK_H100("host fn in capture", cuLaunchHostFunc(s1, host_fn, &calls));
	CHECK_H100("launch 2 in capture", launch_add(s1, 2));
	info("info after four", s1, NULL);
	CHECK_H100("end s1", cuStreamEndCapture(s1, &g));
	status("status after end", s1);
	shape("captured shape", g);
	/* Nothing ran while captured. */
	value_is("value before replay", readback());
	CHECK(calls == 0);
	CHECK_H100("instantiate", cuGraphInstantiate(&ge, g, 0));
	CHECK_H100("launch graph", cuGraphLaunch(ge, s1));
	CHECK_H100("launch graph 2", cuGraphLaunch(ge, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s1));
	value_is("value after 2 replays", readback());
	CHECK(calls == 2);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(hbuf, dbuf, 8));
	value_is("memset word", hbuf[1]);
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));

	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	info("info second capture", s1, &id2);
	value_is("ids differ", id1 != id2);
	value_is("ids increase", id2 > id1);
	end(s1, "end second");

	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	CHECK_H100("end null graph ptr live", cuStreamEndCapture(s1, NULL));
	status("status after end null live", s1);
	end(s1, "end after null ptr");
	/* The capture's launch never ran. */
	CHECK(readback() == 6);
}

/* The probe's CASE: a capture of one launch, @call inside it. */
#define CASE(mode, tag, call) do { \
		CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, mode)); \
		CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1)); \
		CHECK_H100(tag, call); \
		status(tag " status", s1); \
		end(s1, tag " end"); \
		CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize()); \
	} while (0)
#define G CU_STREAM_CAPTURE_MODE_GLOBAL
#define T CU_STREAM_CAPTURE_MODE_THREAD_LOCAL
#define X CU_STREAM_CAPTURE_MODE_RELAXED

static void what_calls_do(void)
{
	CUdeviceptr p = 0;
	unsigned int hbuf[4] = { 7, 7, 7, 7 };
	int v;

	setup();
	CASE(G, "global: stream query", cuStreamQuery(s1));
	CASE(G, "global: stream sync", cuStreamSynchronize(s1));
	CASE(X, "relaxed: stream sync", cuStreamSynchronize(s1));
	CASE(G, "global: ctx sync", cuCtxSynchronize());
	CASE(X, "relaxed: ctx sync", cuCtxSynchronize());
	CASE(G, "global: query other stream", cuStreamQuery(s2));
	CASE(G, "global: sync other stream", cuStreamSynchronize(s2));
	CASE(G, "global: event record", cuEventRecord(ev, s1));
	CASE(G, "global: event query captured", (cuEventRecord(ev, s1), cuEventQuery(ev)));
	CASE(G, "global: event sync captured", (cuEventRecord(ev, s1), cuEventSynchronize(ev)));
	CASE(G, "global: malloc", (p = 0, cuMemAlloc(&p, 64)));
	CHECK(p == 0);
	CASE(T, "thread-local: malloc", (p = 0, cuMemAlloc(&p, 64)));
	CHECK(p == 0);
	CASE(X, "relaxed: malloc", (p = 0, cuMemAlloc(&p, 64)));
	CHECK(p != 0);
	CASE(G, "global: free", cuMemFree(p));
	CASE(X, "relaxed: free", cuMemFree(p));
	CASE(G, "global: memcpy htod sync", cuMemcpyHtoD(dbuf + 8, hbuf, 4));
	CASE(X, "relaxed: memcpy htod sync", cuMemcpyHtoD(dbuf + 8, hbuf, 4));
	CASE(G, "global: memcpy htod async pageable", cuMemcpyHtoDAsync(dbuf + 8, hbuf, 4, s1));
	CASE(G, "global: memcpy dtod async", cuMemcpyDtoDAsync(dbuf + 8, dbuf, 4, s1));
	CASE(G, "global: memset sync", cuMemsetD32(dbuf + 8, 1, 1));
	CASE(G, "global: legacy launch", launch_add(NULL, 0));
	CASE(G, "global: launch other stream", launch_add(s2, 0));
	p = 0;
	CASE(G, "global: host alloc", cuMemAllocHost((void **)&p, 64));
	CHECK(p == 0);
	p = 0;
	CASE(G, "global: alloc async", cuMemAllocAsync(&p, 64, s1));
	CHECK(p != 0);
	CASE(G, "global: module load", cuModuleLoadData(&(CUmodule){ 0 }, ptx));
	CASE(G, "global: stream create", cuStreamCreate(&(CUstream){ 0 }, 0));
	CASE(G, "global: event create", cuEventCreate(&(CUevent){ 0 }, 0));
	CASE(G, "global: get attribute",
	     cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
	/* The synchronous copies on the legacy stream ran, outside the capture. */
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(hbuf, dbuf + 8, 4));
	CHECK(hbuf[0] == 1);
	/* Of all those captures, no launch ran: only the legacy stream's ones (0). */
	CHECK(readback() == 0);
}

static void exchange_mode(void)
{
	CUstreamCaptureMode m;
	CUdeviceptr p = 0;

	setup();
	m = CU_STREAM_CAPTURE_MODE_RELAXED;
	CHECK_H100("exchange to relaxed", cuThreadExchangeStreamCaptureMode(&m));
	value_is("exchange old mode", m);
	CHECK_H100("exchange back", cuThreadExchangeStreamCaptureMode(&m));
	value_is("exchange old mode 2", m);
	m = (CUstreamCaptureMode)9;
	CHECK_H100("exchange bad mode", cuThreadExchangeStreamCaptureMode(&m));
	value_is("exchange bad mode old", m);
	CHECK_H100("exchange back from bad", cuThreadExchangeStreamCaptureMode(&m));
	value_is("exchange back from bad old", m);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuThreadExchangeStreamCaptureMode(NULL));

	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	m = CU_STREAM_CAPTURE_MODE_RELAXED;
	CHECK_RES(CUDA_SUCCESS, cuThreadExchangeStreamCaptureMode(&m));
	CHECK_H100("global+relaxed thread: malloc", cuMemAlloc(&p, 64));
	if (p)
		CHECK_RES(CUDA_SUCCESS, cuMemFree(p));
	CHECK_RES(CUDA_SUCCESS, cuThreadExchangeStreamCaptureMode(&m));
	CHECK(m == CU_STREAM_CAPTURE_MODE_RELAXED);
	status("global+relaxed thread: status", s1);
	end(s1, "global+relaxed thread: end");
}

static CUresult thr_alloc, thr_alloc_relaxed, thr_sync_other, thr_launch_other;

static void *other_thread(void *arg)
{
	CUdeviceptr p = 0;
	CUstreamCaptureMode m = CU_STREAM_CAPTURE_MODE_RELAXED;

	(void)arg;
	cuCtxSetCurrent(ctx);
	thr_alloc = cuMemAlloc(&p, 64);
	if (!thr_alloc)
		cuMemFree(p);
	thr_launch_other = launch_add(other_stream, 0);
	thr_sync_other = cuStreamSynchronize(other_stream);
	cuThreadExchangeStreamCaptureMode(&m);
	thr_alloc_relaxed = cuMemAlloc(&p, 64);
	if (!thr_alloc_relaxed)
		cuMemFree(p);
	cuThreadExchangeStreamCaptureMode(&m);
	return NULL;
}

static void other_threads(void)
{
	pthread_t th;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	REQUIRE_RES(0, pthread_create(&th, NULL, other_thread, NULL));
	pthread_join(th, NULL);
	value_is("other thread, global: malloc", thr_alloc);
	value_is("other thread, global: launch other stream", thr_launch_other);
	value_is("other thread, global: sync other stream", thr_sync_other);
	value_is("other thread, global: malloc relaxed", thr_alloc_relaxed);
	status("other thread, global: status", s1);
	end(s1, "other thread, global: end");

	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	REQUIRE_RES(0, pthread_create(&th, NULL, other_thread, NULL));
	pthread_join(th, NULL);
	value_is("other thread, thread-local: malloc", thr_alloc);
	value_is("other thread, thread-local: sync other stream", thr_sync_other);
	status("other thread, thread-local: status", s1);
	end(s1, "other thread, thread-local: end");

	/* A blocking stream captures; the legacy stream is touched. */
	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(blk, CU_STREAM_CAPTURE_MODE_RELAXED));
	CHECK_RES(CUDA_SUCCESS, launch_add(blk, 1));
	CHECK_H100("implicit: legacy launch", launch_add(NULL, 0));
	status("implicit: status", blk);
	end(blk, "implicit: end");
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

static CUresult thr_end;
static CUgraph thr_graph;

static void *end_elsewhere(void *arg)
{
	cuCtxSetCurrent(ctx);
	thr_graph = NULL;
	thr_end = cuStreamEndCapture((CUstream)arg, &thr_graph);
	return NULL;
}

/*
 * Beyond the probe: a capture not begun relaxed ends only on its own
 * thread (908, and it goes on); a relaxed one ends anywhere.
 */
static void end_on_other_thread(void)
{
	CUstreamCaptureStatus st;
	CUgraph g = NULL;
	pthread_t th;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	REQUIRE_RES(0, pthread_create(&th, NULL, end_elsewhere, s1));
	pthread_join(th, NULL);
	CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, thr_end);
	CHECK(thr_graph == NULL);
	CHECK_RES(CUDA_SUCCESS, cuStreamIsCapturing(s1, &st));
	CHECK(st == CU_STREAM_CAPTURE_STATUS_ACTIVE);
	CHECK_RES(CUDA_SUCCESS, cuStreamEndCapture(s1, &g));
	if (g)
		CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));

	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_RELAXED));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	REQUIRE_RES(0, pthread_create(&th, NULL, end_elsewhere, s1));
	pthread_join(th, NULL);
	CHECK_RES(CUDA_SUCCESS, thr_end);
	CHECK(thr_graph != NULL);
	if (thr_graph)
		CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(thr_graph));
	CHECK_RES(CUDA_SUCCESS, cuStreamIsCapturing(s1, &st));
	CHECK(st == CU_STREAM_CAPTURE_STATUS_NONE);
}

static void fork_and_join(void)
{
	CUgraph g = NULL;
	CUgraphExec ge = NULL;
	cuuint64_t id1 = 0, id2 = 0;
	int i;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev, s1));
	CHECK_H100("fork: wait", cuStreamWaitEvent(s2, ev, 0));
	status("fork: s2 status", s2);
	info("fork: s2 info", s2, &id2);
	info("fork: s1 info", s1, &id1);
	value_is("fork: same id", id1 == id2);
	CHECK_RES(CUDA_SUCCESS, launch_add(s2, 10));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 100));
	value_is("fork: end on s2", end(s2, "fork: end on s2 detail"));
	status("fork: s1 status after end on s2", s1);
	value_is("fork: end unjoined", end(s1, "fork: end unjoined detail"));
	status("fork: s2 status after", s2);
	status("fork: s1 status after", s1);

	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(s2, ev, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(s3, ev, 0));
	CHECK_RES(CUDA_SUCCESS, launch_add(s2, 10));
	CHECK_RES(CUDA_SUCCESS, launch_add(s3, 100));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev2, s2));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(s1, ev2, 0));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev2, s3));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(s1, ev2, 0));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1000));
	info("join: s1 info", s1, NULL);
	CHECK_H100("join: end", cuStreamEndCapture(s1, &g));
	status("join: s2 status", s2);
	shape("join: shape", g);
	/* On s2, non-blocking: the legacy stream's work would not order it. */
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32Async(dbuf, 0, 1, s2));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	for (i = 0; i < 3; i++)
		CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, s2));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s2));
	value_is("join: value after 3 replays", readback());
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
}

static void isolation_and_stale(void)
{
	setup();
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev2, s3));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s3));
	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_H100("isolation: wait outside event", cuStreamWaitEvent(s1, ev2, 0));
	status("isolation: status", s1);
	end(s1, "isolation: end");
	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_H100("isolation: wait external flag",
		   cuStreamWaitEvent(s1, ev2, CU_EVENT_WAIT_EXTERNAL));
	status("isolation: external status", s1);
	end(s1, "isolation: external end");

	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev, s1));
	end(s1, "stale: end");
	CHECK_H100("stale: wait on captured event", cuStreamWaitEvent(s2, ev, 0));
	CHECK_H100("stale: query captured event", cuEventQuery(ev));
	/* Recorded again outside a capture, it is an event like any other. */
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev, s2));
	CHECK_RES(CUDA_SUCCESS, cuEventSynchronize(ev));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(s3, ev, 0));
	CHECK_RES(CUDA_SUCCESS, cuEventQuery(ev));
}

static void update_dependencies(void)
{
	CUstreamCaptureStatus st;
	cuuint64_t id;
	CUgraph cg, g2 = NULL;
	const CUgraphNode *deps;
	const CUgraphEdgeData *ed;
	size_t n;
	CUgraphNode nodes[4], none[1];
	size_t nn = 4;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 2));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetCaptureInfo(s1, &st, &id, &cg, &deps, &ed, &n));
	CHECK_RES(CUDA_SUCCESS, cuGraphGetNodes(cg, nodes, &nn));
	value_is("update: nodes so far", nn);
	CHECK(n == 1 && deps[0] == nodes[1]);
	CHECK_H100("update: bad flags", cuStreamUpdateCaptureDependencies(s1, nodes, NULL, 1, 7));
	CHECK_H100("update: set to first", cuStreamUpdateCaptureDependencies(s1, nodes, NULL, 1,
		   CU_STREAM_SET_CAPTURE_DEPENDENCIES));
	info("update: info after set", s1, NULL);
	CHECK_H100("update: add second", cuStreamUpdateCaptureDependencies(s1, nodes + 1, NULL, 1,
		   CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
	info("update: info after add", s1, NULL);
	CHECK_H100("update: set none", cuStreamUpdateCaptureDependencies(s1, none, NULL, 0,
		   CU_STREAM_SET_CAPTURE_DEPENDENCIES));
	info("update: info after none", s1, NULL);
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 4));
	CHECK_H100("update: end", cuStreamEndCapture(s1, &g2));
	shape("update: shape", g2);
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g2));
	CHECK_H100("update: not capturing", cuStreamUpdateCaptureDependencies(s1, NULL, NULL, 0,
		   CU_STREAM_SET_CAPTURE_DEPENDENCIES));
}

static void into_graph_and_self_wait(void)
{
	CUgraph into, g2 = NULL, g = NULL;
	CUgraphNode e1;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&into, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddEmptyNode(&e1, into, NULL, 0));
	CHECK_H100("to graph: begin", cuStreamBeginCaptureToGraph(s1, into, &e1, NULL, 1,
		   CU_STREAM_CAPTURE_MODE_GLOBAL));
	info("to graph: info", s1, NULL);
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	CHECK_H100("to graph: end", cuStreamEndCapture(s1, &g2));
	value_is("to graph: same graph", g2 == into);
	shape("to graph: shape", into);
	CHECK_H100("to graph: begin null graph", cuStreamBeginCaptureToGraph(s1, NULL, NULL, NULL,
		   0, CU_STREAM_CAPTURE_MODE_GLOBAL));
	status("to graph: status after null", s1);
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(into));

	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev, s1));
	CHECK_H100("self wait in capture", cuStreamWaitEvent(s1, ev, 0));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	CHECK_H100("self wait end", cuStreamEndCapture(s1, &g));
	shape("self wait shape", g);
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
}

/* A graph launched into a capturing stream is refused (NVIDIA's 900). */
static void graph_launch_in_capture(void)
{
	CUgraph g, g2 = (CUgraph)(uintptr_t)1;
	CUgraphExec ge;
	CUgraphNode n;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddEmptyNode(&n, g, NULL, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	CHECK_H100("graph launch in capture", cuGraphLaunch(ge, s1));
	CHECK_H100("graph launch in capture end", cuStreamEndCapture(s1, &g2));
	CHECK(g2 == NULL);
	CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s1));
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
}

/*
 * One iteration over three streams: s1 fills A and forks to s2 (A's
 * words 0-3 into B, then a kernel on B) and s3 (a kernel on C from a
 * host word); both join into s1, which copies B and C back to the host.
 * Replayed many times, each time with a new host word.
 */
static void multi_stream_replay(void)
{
	enum { ITER = 50 };
	CUdeviceptr a, b, c;
	CUgraph g = NULL;
	CUgraphExec ge = NULL;
	unsigned int in = 0, out[8], i, word;
	CUgraphNode nodes[16];
	size_t nn = 16, ne = 0;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&a, 16));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&b, 16));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&c, 16));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32Async(a, 40, 4, s1));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(s2, ev, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(s3, ev, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoDAsync(b, a, 16, s2));
	CHECK_RES(CUDA_SUCCESS, launch_add_at(s2, b, 2));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoDAsync(c, &in, 4, s3));
	CHECK_RES(CUDA_SUCCESS, launch_add_at(s3, c, 1000));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev2, s2));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(s1, ev2, 0));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev2, s3));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(s1, ev2, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoHAsync(out, b, 16, s1));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoHAsync(out + 4, c, 4, s1));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamEndCapture(s1, &g));
	/*
	 * A memset, a copy and a kernel on each branch, two copies at the
	 * end: the first after the memset and both branches' kernels.
	 */
	CHECK_RES(CUDA_SUCCESS, cuGraphGetNodes(g, nodes, &nn));
	CHECK(nn == 7);
	CHECK_RES(CUDA_SUCCESS, cuGraphGetEdges(g, NULL, NULL, NULL, &ne));
	CHECK(ne == 8);
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	for (i = 0; i < ITER; i++) {
		in = i * 3;
		memset(out, 0xff, sizeof(out));
		CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, i & 1 ? s2 : s1));
		CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
		for (word = 0; word < 4; word++)
			if (out[word] != (word ? 40u : 42u))
				TAP_FAIL("replay %u: B[%u] = %u", i, word, out[word]);
		if (out[4] != i * 3 + 1000)
			TAP_FAIL("replay %u: C = %u, not %u", i, out[4], i * 3 + 1000);
	}
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
}

/* Capture on the per-thread stream, through the _ptsz entry points. */
static void per_thread_entry_points(void)
{
	CUresult (*begin)(CUstream, CUstreamCaptureMode) = sym("cuStreamBeginCapture_v2_ptsz");
	CUresult (*endc)(CUstream, CUgraph *) = sym("cuStreamEndCapture_ptsz");
	CUresult (*is)(CUstream, CUstreamCaptureStatus *) = sym("cuStreamIsCapturing_ptsz");
	CUresult (*info1)(CUstream, CUstreamCaptureStatus *, cuuint64_t *) =
		sym("cuStreamGetCaptureInfo");
	CUresult (*info2)(CUstream, CUstreamCaptureStatus *, cuuint64_t *, CUgraph *,
			  const CUgraphNode **, size_t *) = sym("cuStreamGetCaptureInfo_v2_ptsz");
	CUresult (*upd1)(CUstream, CUgraphNode *, size_t, unsigned int) =
		sym("cuStreamUpdateCaptureDependencies");
	CUresult (*begin1)(CUstream) = sym("cuStreamBeginCapture");
	CUstreamCaptureStatus st = 77;
	cuuint64_t id = 0;
	CUgraph g = NULL;
	const CUgraphNode *deps = NULL;
	size_t n = 9;
	CUgraphNode first;
	CUgraphEdgeData ed = { .type = CU_GRAPH_DEPENDENCY_TYPE_DEFAULT };

	setup();
	if (!begin || !endc || !is || !info1 || !info2 || !upd1 || !begin1)
		return;
	/* NULL in the _ptsz forms is the calling thread's stream. */
	CHECK_RES(CUDA_SUCCESS, begin(NULL, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, is(NULL, &st));
	CHECK(st == CU_STREAM_CAPTURE_STATUS_ACTIVE);
	/*
	 * Asking of the legacy stream would wait for the capturing per-thread
	 * stream: 906, the capture left alone, as an H200 answered the runtime
	 * (tests/samples/rt/ref/h100_rt_capture.log).
	 */
	CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, cuStreamIsCapturing(NULL, &st));
	CHECK_RES(CUDA_SUCCESS, launch_add(CU_STREAM_PER_THREAD, 1));
	CHECK_RES(CUDA_SUCCESS, info2(NULL, &st, &id, &g, &deps, &n));
	CHECK(st == CU_STREAM_CAPTURE_STATUS_ACTIVE && id && g && n == 1 && deps);
	first = deps[0];
	st = 77;
	id = 0;
	CHECK_RES(CUDA_SUCCESS, info1(CU_STREAM_PER_THREAD, &st, &id));
	CHECK(st == CU_STREAM_CAPTURE_STATUS_ACTIVE && id);
	CHECK_RES(CUDA_SUCCESS, launch_add(CU_STREAM_PER_THREAD, 2));
	CHECK_RES(CUDA_SUCCESS, upd1(CU_STREAM_PER_THREAD, &first, 1,
				     CU_STREAM_ADD_CAPTURE_DEPENDENCIES));
	/* The form with edge data: plain edges, which _v2's query can tell. */
	CHECK_RES(CUDA_SUCCESS, cuStreamUpdateCaptureDependencies(CU_STREAM_PER_THREAD, &first,
								   &ed, 1,
								   CU_STREAM_SET_CAPTURE_DEPENDENCIES));
	CHECK_RES(CUDA_SUCCESS, info2(NULL, &st, &id, &g, &deps, &n));
	CHECK(n == 1 && deps[0] == first);
	g = NULL;
	CHECK_RES(CUDA_SUCCESS, endc(NULL, &g));
	CHECK(g != NULL);
	if (g)
		CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	/* CUDA 10.0's begin: global mode. */
	CHECK_RES(CUDA_SUCCESS, begin1(s1));
	CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuMemAlloc(&(CUdeviceptr){ 0 }, 4));
	CHECK_RES(CUDA_SUCCESS, cuStreamIsCapturing(s1, &st));
	CHECK(st == CU_STREAM_CAPTURE_STATUS_INVALIDATED);
	/* Work on an invalidated capture is refused, and the end says why. */
	CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, launch_add(s1, 1));
	CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s1, &g));
	CHECK(g == NULL);
	CHECK(readback() == 0);
}

/*
 * Beyond the probe: an external record is a node of its own; a launch's
 * completion event marks the point after its node; a cooperative launch
 * is a kernel node that keeps the attribute (as on the H200:
 * ref/h200_capture_misc.log) and runs as one; the per-thread stream,
 * which cannot be destroyed, keeps its capture through a try.
 */
static void events_in_capture(void)
{
	CUgraph g = NULL;
	CUgraphNode nodes[8];
	CUgraphNodeType t;
	size_t nn = 8, ne = 0;
	CUdeviceptr p;
	unsigned int v = 1;
	void *args[] = { &p, &v };
	CUlaunchAttribute at = { .id = CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT };
	CUlaunchConfig cfg = {
		.gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
		.blockDimX = 1, .blockDimY = 1, .blockDimZ = 1,
		.attrs = &at, .numAttrs = 1,
	};
	CUstreamCaptureStatus st;

	setup();
	p = dbuf;
	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	CHECK_RES(CUDA_SUCCESS, cuEventRecordWithFlags(ev, s1, CU_EVENT_RECORD_EXTERNAL));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamEndCapture(s1, &g));
	CHECK_RES(CUDA_SUCCESS, cuGraphGetNodes(g, nodes, &nn));
	CHECK(nn == 3);
	if (nn == 3) {
		CHECK_RES(CUDA_SUCCESS, cuGraphNodeGetType(nodes[1], &t));
		CHECK(t == CU_GRAPH_NODE_TYPE_EVENT_RECORD);
	}
	CHECK_RES(CUDA_SUCCESS, cuGraphGetEdges(g, NULL, NULL, NULL, &ne));
	CHECK(ne == 2);
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	/* Outside a capture an external record is refused, as before. */
	CHECK_RES(CUDA_ERROR_ILLEGAL_STATE, cuEventRecordWithFlags(ev, s1,
								    CU_EVENT_RECORD_EXTERNAL));

	at.value.launchCompletionEvent.event = ev2;
	cfg.hStream = s1;
	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernelEx(&cfg, add_fn, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(s2, ev2, 0));
	CHECK_RES(CUDA_SUCCESS, launch_add(s2, 10));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev, s2));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(s1, ev, 0));
	g = NULL;
	REQUIRE_RES(CUDA_SUCCESS, cuStreamEndCapture(s1, &g));
	nn = 8;
	CHECK_RES(CUDA_SUCCESS, cuGraphGetNodes(g, nodes, &nn));
	CHECK(nn == 2);
	CHECK_RES(CUDA_SUCCESS, cuGraphGetEdges(g, NULL, NULL, NULL, &ne));
	CHECK(ne == 1);
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));

	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS,
		  cuLaunchCooperativeKernel(add_fn, 1, 1, 1, 1, 1, 1, 0, s1, args));
	g = NULL;
	REQUIRE_RES(CUDA_SUCCESS, cuStreamEndCapture(s1, &g));
	nn = 8;
	CHECK_RES(CUDA_SUCCESS, cuGraphGetNodes(g, nodes, &nn));
	CHECK(nn == 1);
	if (nn == 1) {
		CUkernelNodeAttrValue a = { 0 };
		CUgraphExec x;
		unsigned int before = readback();

		CHECK_RES(CUDA_SUCCESS, cuGraphKernelNodeGetAttribute(nodes[0],
			  CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &a));
		CHECK(a.cooperative == 1);
		REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&x, g, 0));
		CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(x, s1));
		CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s1));
		CHECK(readback() == before + v);
		CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(x));
		/* What follows runs nothing: the word starts again at 0. */
		CHECK_RES(CUDA_SUCCESS, cuMemsetD32(dbuf, 0, 1));
	}
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));

	/* No stream joins a capture that is spoilt. */
	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev, s1));
	CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, cuStreamQuery(s1));
	CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamWaitEvent(s2, ev, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamIsCapturing(s2, &st));
	CHECK(st == CU_STREAM_CAPTURE_STATUS_NONE);
	CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s1, &g));

	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(CU_STREAM_PER_THREAD,
						     CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(CU_STREAM_PER_THREAD));
	CHECK_RES(CUDA_SUCCESS, cuStreamIsCapturing(CU_STREAM_PER_THREAD, &st));
	CHECK(st == CU_STREAM_CAPTURE_STATUS_ACTIVE);
	g = NULL;
	CHECK_RES(CUDA_SUCCESS, cuStreamEndCapture(CU_STREAM_PER_THREAD, &g));
	if (g)
		CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	/* Nothing of it ran. */
	CHECK(readback() == 0);
}

/*
 * cuMemAllocAsync and cuMemFreeAsync in a capture: an allocation node and
 * a free node (the probe's shape), the graph's own memory at one address
 * for every launch, kept while an executable copy of the graph lives.
 */
static void alloc_nodes(void)
{
	CUgraph g = NULL, cl = NULL;
	CUgraphExec ge = NULL;
	CUgraphNode nodes[8];
	CUDA_MEM_ALLOC_NODE_PARAMS ap;
	CUdeviceptr p = 0, q = 0, fp = 0;
	unsigned int out = 0, i;
	size_t nn = 8, free0 = 0, free1 = 0, total;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_H100("alloc async in capture", cuMemAllocAsync(&p, 256, s1));
	CHECK_H100("free async in capture", cuMemFreeAsync(p, s1));
	CHECK_H100("alloc node end", cuStreamEndCapture(s1, &g));
	shape("alloc node shape", g);
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));

	/* Allocate, fill, add, copy out, free: replayed, same address. */
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&free0, &total));
	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, CU_STREAM_CAPTURE_MODE_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, cuMemAllocAsync(&p, 4 << 20, s1));
	CHECK(p != 0);
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32Async(p, 7, 16, s1));
	CHECK_RES(CUDA_SUCCESS, launch_add_at(s1, p, 5));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoHAsync(&out, p, 4, s1));
	CHECK_RES(CUDA_SUCCESS, cuMemFreeAsync(p, s1));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamEndCapture(s1, &g));
	CHECK_RES(CUDA_SUCCESS, cuGraphGetNodes(g, nodes, &nn));
	CHECK(nn == 5);
	memset(&ap, 0xff, sizeof(ap));
	CHECK_RES(CUDA_SUCCESS, cuGraphMemAllocNodeGetParams(nodes[0], &ap));
	CHECK(ap.dptr == p && ap.bytesize == 4 << 20 && ap.accessDescCount == 0 &&
	      ap.poolProps.location.type == CU_MEM_LOCATION_TYPE_DEVICE);
	CHECK_RES(CUDA_SUCCESS, cuGraphMemFreeNodeGetParams(nodes[4], &fp));
	CHECK(fp == p);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphMemAllocNodeGetParams(nodes[1], &ap));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphMemAllocNodeGetParams(nodes[0], NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphMemFreeNodeGetParams(nodes[0], &fp));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphMemFreeNodeGetParams(nodes[4], NULL));
	/* The clone shares the memory; the original goes first. */
	REQUIRE_RES(CUDA_SUCCESS, cuGraphClone(&cl, g));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, cl, 0));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(cl));
	for (i = 0; i < 5; i++) {
		out = 0;
		CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, s1));
		CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s1));
		if (out != 12)
			TAP_FAIL("launch %u: %u, not 12", i, out);
	}
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&free1, &total));
	CHECK(free1 < free0);
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	/* Gone with the last copy. */
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&free1, &total));
	CHECK(free1 == free0);
	CHECK_RES(CUDA_SUCCESS, cuMemAlloc(&q, 64));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(q));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAllocAsync(NULL, 64, s1));
}

static void memcpy_nodes(void)
{
	CUgraph g, g2;
	CUgraphNode n, m;
	CUgraphExec ge;
	CUDA_MEMCPY3D p = { 0 }, got;
	unsigned int src[4] = { 1, 2, 3, 4 }, dst[4] = { 0 };
	CUdeviceptr d;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 16));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g2, 0));
	p.srcMemoryType = CU_MEMORYTYPE_HOST;
	p.srcHost = src;
	p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	p.dstDevice = d;
	p.WidthInBytes = 16;
	p.Height = p.Depth = 1;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemcpyNode(NULL, g, NULL, 0, &p, ctx));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemcpyNode(&n, g, NULL, 0, NULL, ctx));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemcpyNode(&n, NULL, NULL, 0, &p, ctx));
	p.WidthInBytes = 0;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemcpyNode(&n, g, NULL, 0, &p, ctx));
	p.WidthInBytes = 16;
	p.srcMemoryType = (CUmemorytype)9;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemcpyNode(&n, g, NULL, 0, &p, ctx));
	p.srcMemoryType = CU_MEMORYTYPE_HOST;
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddMemcpyNode(&n, g, NULL, 0, &p, ctx));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddMemcpyNode(&m, g2, &n, 1, &p, ctx));
	p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	p.srcDevice = d;
	p.dstMemoryType = CU_MEMORYTYPE_HOST;
	p.dstHost = dst;
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddMemcpyNode(&m, g, &n, 1, &p, ctx));
	memset(&got, 0, sizeof(got));
	CHECK_RES(CUDA_SUCCESS, cuGraphMemcpyNodeGetParams(m, &got));
	CHECK(got.dstHost == dst && got.srcDevice == d && got.WidthInBytes == 16);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphMemcpyNodeGetParams(m, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphMemcpyNodeGetParams(NULL, &got));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphMemcpyNodeSetParams(m, NULL));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s1));
	CHECK(dst[0] == 1 && dst[3] == 4);
	/* The executable graph's copy changes; the graph's stays. */
	p.WidthInBytes = 8;
	memset(dst, 0, sizeof(dst));
	CHECK_RES(CUDA_SUCCESS, cuGraphExecMemcpyNodeSetParams(ge, m, &p, ctx));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphExecMemcpyNodeSetParams(ge, m, NULL, ctx));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphExecMemcpyNodeSetParams(NULL, m, &p, ctx));
	CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s1));
	CHECK(dst[1] == 2 && dst[2] == 0);
	CHECK_RES(CUDA_SUCCESS, cuGraphMemcpyNodeSetParams(m, &p));
	CHECK_RES(CUDA_SUCCESS, cuGraphMemcpyNodeGetParams(m, &got));
	CHECK(got.WidthInBytes == 8);
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g2));
}

static void bad_input(void)
{
	CUstream bogus = (CUstream)(uintptr_t)0x1234;
	CUstreamCaptureStatus st;
	CUgraph g, other;
	CUgraphNode n, on;
	const CUgraphNode *deps;
	size_t nd;
	cuuint64_t id;
	CUresult (*info1)(CUstream, CUstreamCaptureStatus *, cuuint64_t *) =
		sym("cuStreamGetCaptureInfo");
	CUresult (*info2)(CUstream, CUstreamCaptureStatus *, cuuint64_t *, CUgraph *,
			  const CUgraphNode **, size_t *) = sym("cuStreamGetCaptureInfo_v2");
	CUgraphEdgeData prog = { .type = CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC };

	setup();
	if (!info1 || !info2)
		return;
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamBeginCapture(bogus, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamBeginCapture(s1, (CUstreamCaptureMode)3));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamEndCapture(bogus, &g));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamIsCapturing(bogus, &st));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamGetCaptureInfo(s1, NULL, NULL, NULL, NULL,
								   NULL, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamGetCaptureInfo(bogus, &st, NULL, NULL, NULL,
								    NULL, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, info1(s1, NULL, &id));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, info2(s1, NULL, &id, &g, &deps, &nd));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuStreamUpdateCaptureDependencies(bogus, NULL, NULL, 0, 0));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuStreamBeginCaptureToGraph(bogus, NULL, NULL, NULL, 0, 0));

	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&other, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddEmptyNode(&n, g, NULL, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddEmptyNode(&on, other, NULL, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamBeginCaptureToGraph(s1, g, &on, NULL, 1, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamBeginCaptureToGraph(s1, g, NULL, NULL, 1, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamBeginCaptureToGraph(s1, g, &n, &prog, 1, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamBeginCaptureToGraph(s1, g, &n, NULL, 1,
								       (CUstreamCaptureMode)5));
	CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
		  cuStreamBeginCaptureToGraph(NULL, g, &n, NULL, 1, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamIsCapturing(s1, &st));
	CHECK(st == CU_STREAM_CAPTURE_STATUS_NONE);

	REQUIRE_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuStreamUpdateCaptureDependencies(s1, NULL, NULL, 1, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuStreamUpdateCaptureDependencies(s1, &on, NULL, 1, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuStreamUpdateCaptureDependencies(s1, &n, NULL, 1, 0));
	/* A wait on a capture's event from a stream in another capture. */
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamBeginCapture(s2, 0));
	CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_ISOLATION, cuStreamWaitEvent(s2, ev, 0));
	CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s2, &other));
	CHECK_RES(CUDA_SUCCESS, cuStreamEndCapture(s1, &other));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(other));
	/*
	 * Stream work that is not captured here spoils the capture (900);
	 * batch memory operations are (graph_memop_api).
	 */
	{
		CUdeviceptr m = 0;

		REQUIRE_RES(CUDA_SUCCESS, cuMemAllocManaged(&m, 4096, CU_MEM_ATTACH_GLOBAL));
		REQUIRE_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, 0));
		CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
			  cuStreamAttachMemAsync(s1, m, 0, CU_MEM_ATTACH_SINGLE));
		CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s1, &other));
		REQUIRE_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, 0));
		CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
			  cuStreamAddCallback(s1, (CUstreamCallback)(uintptr_t)host_fn, NULL, 0));
		CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s1, &other));
		REQUIRE_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, 0));
		CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED,
			  cuMemPrefetchAsync(m, 4096, (CUmemLocation){
				  .type = CU_MEM_LOCATION_TYPE_DEVICE, .id = 0 }, 0, s1));
		CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s1, &other));
		CHECK_RES(CUDA_SUCCESS, cuMemFree(m));
		/* None of it ran: dbuf's word is still 0. */
		CHECK(readback() == 0);
	}
	/* The capture's last node taken out of its graph by hand: spoilt. */
	REQUIRE_RES(CUDA_SUCCESS, cuStreamBeginCapture(s1, 0));
	CHECK_RES(CUDA_SUCCESS, launch_add(s1, 1));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetCaptureInfo(s1, &st, &id, &other, &deps, NULL, &nd));
	CHECK(nd == 1);
	if (nd == 1)
		CHECK_RES(CUDA_SUCCESS, cuGraphDestroyNode((CUgraphNode)deps[0]));
	CHECK_RES(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, cuStreamEndCapture(s1, &other));
	/* A stream destroyed in a capture ends it. */
	REQUIRE_RES(CUDA_SUCCESS, cuStreamBeginCapture(s3, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(s3));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(dbuf));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
}

static const struct tap_test tests[] = {
	TAP_TEST(begin_where),
	TAP_TEST(simple_capture),
	TAP_TEST(what_calls_do),
	TAP_TEST(exchange_mode),
	TAP_TEST(other_threads),
	TAP_TEST(end_on_other_thread),
	TAP_TEST(fork_and_join),
	TAP_TEST(isolation_and_stale),
	TAP_TEST(update_dependencies),
	TAP_TEST(into_graph_and_self_wait),
	TAP_TEST(graph_launch_in_capture),
	TAP_TEST(multi_stream_replay),
	TAP_TEST(per_thread_entry_points),
	TAP_TEST(events_in_capture),
	TAP_TEST(alloc_nodes),
	TAP_TEST(memcpy_nodes),
	TAP_TEST(bad_input),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
