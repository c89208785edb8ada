// SPDX-License-Identifier: MIT
/*
 * Building CUDA graphs through the driver API: graphs and nodes of each
 * kind, dependency edges, the queries of a graph's shape, parameters
 * copied when set, clones and finding nodes in them, child graphs, and
 * bad input, each held to what NVIDIA's driver answered for the same
 * sequence (tests/e2e/ref/h200_capture.log, from ref/h200_capture.c).
 * A graph's shape is compared as that probe printed it: its nodes' types
 * in order and its number of edges.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tap.h"
#include "uapi/vgpu.h"

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
	"\tatom.global.add.u32 %r3, [%rd1], %r1;\n\tret;\n}\n"
	".visible .entry other(.param .u64 p, .param .u32 v)\n{\n"
	"\t.reg .u64 %rd<3>;\n\t.reg .u32 %r<2>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
	"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";

static CUcontext ctx;
static CUfunction add_fn, other_fn;
static CUdeviceptr dbuf;

/*
 * Each test opens the device in its own process: a context shared
 * through fork() with work of an earlier test's child is not what they
 * are about.
 */
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
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&other_fn, mod, "other"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dbuf, 64));
}

/*
 * The library's ioctl() calls land here (the executable's definition
 * comes first): doorbells are counted while @counting.
 */
static bool counting;
static unsigned int submits;
/* Commands told to the module while @counting; each channel's last put. */
static uint64_t commands, last_put[VGPU_MAX_CHANNELS];

int ioctl(int fd, unsigned long req, ...)
{
	const struct vgpu_chan_submit *cs;
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (req == VGPU_IOCTL_CHAN_SUBMIT) {
		cs = arg;
		if (counting) {
			submits++;
			if (cs->handle < VGPU_MAX_CHANNELS)
				commands += cs->put - last_put[cs->handle];
		}
		if (cs->handle < VGPU_MAX_CHANNELS)
			last_put[cs->handle] = cs->put;
	}
	return (int)syscall(SYS_ioctl, fd, req, arg);
}

static void host_fn(void *arg)
{
	(void)arg;
}

static void kparams(CUDA_KERNEL_NODE_PARAMS *kp, CUfunction f, void **args)
{
	memset(kp, 0, sizeof(*kp));
	kp->func = f;
	kp->gridDimX = kp->gridDimY = kp->gridDimZ = 1;
	kp->blockDimX = kp->blockDimY = kp->blockDimZ = 1;
	kp->kernelParams = args;
}

/* The probe's line for a graph: "rc R nodes N types [T,...] edges E". */
static void shape(const char *name, CUgraph g)
{
	CUgraphNode nodes[32];
	size_t n = 32, e = 0, i;
	CUresult r = cuGraphGetNodes(g, nodes, &n);
	char buf[256] = "", line[300];
	const char *want = h100_line(name);

	for (i = 0; !r && i < n && i < 32; i++) {
		CUgraphNodeType t;

		cuGraphNodeGetType(nodes[i], &t);
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%d", i ? "," : "",
			 (int)t);
	}
	cuGraphGetEdges(g, NULL, NULL, NULL, &e);
	snprintf(line, sizeof(line), "rc %d nodes %zu types [%s] edges %zu\n", r, n, buf, e);
	if (want && strcmp(line, want))
		TAP_FAIL("%s: %s, the H200 gave %s", name, line, want);
}

static void create_and_bad_kernels(void)
{
	CUgraph g;
	CUgraphNode n;
	CUDA_KERNEL_NODE_PARAMS kp;
	unsigned int v1 = 1;
	void *a1[] = { &dbuf, &v1 };
	size_t cnt = 99;

	setup();

	CHECK_H100("create flags 1", cuGraphCreate(&g, 1));
	CHECK_H100("create null", cuGraphCreate(NULL, 0));
	CHECK_H100("create", cuGraphCreate(&g, 0));
	kparams(&kp, add_fn, a1);
	CHECK_H100("add kernel null params", cuGraphAddKernelNode(&n, g, NULL, 0, NULL));
	CHECK_H100("add kernel null out", cuGraphAddKernelNode(NULL, g, NULL, 0, &kp));
	CHECK_H100("add kernel null graph", cuGraphAddKernelNode(&n, NULL, NULL, 0, &kp));
	kp.func = NULL;
	CHECK_H100("add kernel null func", cuGraphAddKernelNode(&n, g, NULL, 0, &kp));
	kparams(&kp, add_fn, a1);
	kp.blockDimX = 0;
	CHECK_H100("add kernel block 0", cuGraphAddKernelNode(&n, g, NULL, 0, &kp));
	kparams(&kp, add_fn, a1);
	kp.blockDimX = 2048;
	CHECK_H100("add kernel block 2048", cuGraphAddKernelNode(&n, g, NULL, 0, &kp));
	kparams(&kp, add_fn, a1);
	kp.sharedMemBytes = 1u << 30;
	CHECK_H100("add kernel huge shared", cuGraphAddKernelNode(&n, g, NULL, 0, &kp));
	kparams(&kp, add_fn, NULL);
	CHECK_H100("add kernel null args", cuGraphAddKernelNode(&n, g, NULL, 0, &kp));
	CHECK_RES(CUDA_SUCCESS, cuGraphGetNodes(g, NULL, &cnt));
	CHECK(cnt == (size_t)h100("nodes after bad adds"));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	/* A destroyed graph is no graph. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphGetNodes(g, NULL, &cnt));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphDestroy(g));
}

/*
 * The probe's diamond: k0 -> (memset1, host2) -> k3, then its edges; the
 * first step of the tests that build on it (setup() included).
 */
static CUgraph diamond(CUgraphNode n[4])
{
	CUgraph g, g2;
	CUgraphNode x;
	CUgraphExec ge;
	CUDA_KERNEL_NODE_PARAMS kp;
	CUDA_MEMSET_NODE_PARAMS mp;
	CUDA_HOST_NODE_PARAMS hp = { host_fn, NULL };
	unsigned int v1 = 1, v2 = 2;
	void *a1[] = { &dbuf, &v1 }, *a2[] = { &dbuf, &v2 };
	size_t cnt;

	setup();

	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	kparams(&kp, add_fn, a1);
	CHECK_H100("add k0", cuGraphAddKernelNode(&n[0], g, NULL, 0, &kp));
	memset(&mp, 0, sizeof(mp));
	mp.dst = dbuf + 4;
	mp.value = 9;
	mp.elementSize = 4;
	mp.width = 1;
	mp.height = 1;
	CHECK_H100("add memset", cuGraphAddMemsetNode(&n[1], g, &n[0], 1, &mp, ctx));
	mp.elementSize = 3;
	CHECK_H100("add memset elem 3", cuGraphAddMemsetNode(&x, g, NULL, 0, &mp, ctx));
	CHECK_H100("add host", cuGraphAddHostNode(&n[2], g, &n[0], 1, &hp));
	CHECK_H100("add host null fn", cuGraphAddHostNode(&x, g, NULL, 0,
		   &(CUDA_HOST_NODE_PARAMS){ NULL, NULL }));
	kparams(&kp, add_fn, a2);
	CHECK_H100("add k3", cuGraphAddKernelNode(&n[3], g, &n[1], 2, &kp));
	CHECK_H100("add dep duplicate", cuGraphAddDependencies(g, &n[0], &n[1], NULL, 1));
	CHECK_H100("add dep self", cuGraphAddDependencies(g, &n[0], &n[0], NULL, 1));
	CHECK_H100("add dep cycle", cuGraphAddDependencies(g, &n[3], &n[0], NULL, 1));
	CHECK_RES(CUDA_SUCCESS, cuGraphGetEdges(g, NULL, NULL, NULL, &cnt));
	CHECK(cnt == (size_t)h100("edges after cycle"));
	CHECK_H100("instantiate cyclic", cuGraphInstantiate(&ge, g, 0));
	CHECK_H100("remove cycle", cuGraphRemoveDependencies(g, &n[3], &n[0], NULL, 1));
	CHECK_H100("remove absent edge", cuGraphRemoveDependencies(g, &n[3], &n[0], NULL, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g2, 0));
	CHECK_H100("add dep across graphs", cuGraphAddEmptyNode(&x, g2, &n[0], 1));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g2));
	shape("diamond shape", g);
	return g;
}

static unsigned int readback(unsigned int word)
{
	unsigned int v = 0;

	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, dbuf + 4 * word, 4));
	return v;
}

/* The value the H200 printed for @name ("name = N"). */
#define H_VALUE(name) ((unsigned int)h100(name))

/* The probe's result line of cuGraphExecUpdate, its error node by index. */
static void update(const char *name, CUgraphExec ge, CUgraph g, CUgraphNode *nodes, size_t n)
{
	CUgraphExecUpdateResultInfo ri;
	char line[160], en[8] = "null";
	CUresult r;
	size_t i;
	const char *want = h100_line(name);

	memset(&ri, 0x5a, sizeof(ri));
	r = cuGraphExecUpdate(ge, g, &ri);
	if (ri.errorNode) {
		snprintf(en, sizeof(en), "other");
		for (i = 0; i < n; i++)
			if (ri.errorNode == nodes[i])
				snprintf(en, sizeof(en), "%zu", i);
	}
	snprintf(line, sizeof(line), "rc %d result %d errorNode %s errorFromNode %s\n", r,
		 (int)ri.result, en, ri.errorFromNode ? "set" : "null");
	if (want && strcmp(line, want))
		TAP_FAIL("%s: %s, the H200 gave %s", name, line, want);
}

/* The probe's diamond instantiated, launched, updated and changed. */
static void exec_diamond(void)
{
	CUgraphNode n[5];
	CUgraph g = diamond(n), bad = NULL, g2;
	CUgraphExec ge;
	CUDA_KERNEL_NODE_PARAMS kp;
	CUDA_MEMSET_NODE_PARAMS mp;
	CUDA_HOST_NODE_PARAMS hp = { host_fn, NULL };
	unsigned int v1 = 1, v2 = 2, en = 7;
	void *a1[] = { &dbuf, &v1 }, *a2[] = { &dbuf, &v2 };

	CHECK_H100("instantiate bad flags", cuGraphInstantiate(&ge, g, 1ull << 40));
	CHECK_H100("instantiate null graph", cuGraphInstantiate(&ge, bad, 0));
	CHECK_H100("instantiate", cuGraphInstantiate(&ge, g, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(dbuf, 0, 2));
	CHECK_H100("launch", cuGraphLaunch(ge, NULL));
	CHECK_H100("launch per-thread", cuGraphLaunch(ge, CU_STREAM_PER_THREAD));
	CHECK_H100("upload", cuGraphUpload(ge, NULL));
	CHECK(readback(0) == H_VALUE("diamond value"));
	CHECK(readback(1) == 9);

	kparams(&kp, add_fn, a2);
	CHECK_H100("set params k0", cuGraphKernelNodeSetParams(n[0], &kp));
	update("update params", ge, g, n, 4);
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(dbuf, 0, 1));
	CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, NULL));
	CHECK(readback(0) == H_VALUE("after params update value"));
	kparams(&kp, other_fn, a2);
	CHECK_RES(CUDA_SUCCESS, cuGraphKernelNodeSetParams(n[0], &kp));
	update("update function same ctx", ge, g, n, 4);
	kparams(&kp, add_fn, a1);
	CHECK_RES(CUDA_SUCCESS, cuGraphKernelNodeSetParams(n[0], &kp));
	update("update back", ge, g, n, 4);
	CHECK_RES(CUDA_SUCCESS, cuGraphAddKernelNode(&n[4], g, &n[3], 1, &kp));
	update("update added node", ge, g, n, 5);
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroyNode(n[4]));
	update("update after remove", ge, g, n, 4);
	CHECK_RES(CUDA_SUCCESS, cuGraphRemoveDependencies(g, &n[2], &n[3], NULL, 1));
	update("update removed edge", ge, g, n, 4);
	CHECK_RES(CUDA_SUCCESS, cuGraphAddDependencies(g, &n[2], &n[3], NULL, 1));
	update("update edge back", ge, g, n, 4);
	memset(&mp, 0, sizeof(mp));
	mp.dst = dbuf + 8;
	mp.value = 9;
	mp.elementSize = 4;
	mp.width = 1;
	mp.height = 1;
	CHECK_H100("memset set params", cuGraphMemsetNodeSetParams(n[1], &mp));
	update("update memset dst", ge, g, n, 4);
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g2, 0));
	{
		CUgraphNode m[4];

		kparams(&kp, add_fn, a1);
		CHECK_RES(CUDA_SUCCESS, cuGraphAddKernelNode(&m[0], g2, NULL, 0, &kp));
		CHECK_RES(CUDA_SUCCESS, cuGraphAddHostNode(&m[1], g2, &m[0], 1, &hp));
		CHECK_RES(CUDA_SUCCESS, cuGraphAddHostNode(&m[2], g2, &m[0], 1, &hp));
		CHECK_RES(CUDA_SUCCESS, cuGraphAddKernelNode(&m[3], g2, &m[1], 2, &kp));
		update("update type changed", ge, g2, m, 4);
	}
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g2));
	CHECK_H100("update null info", cuGraphExecUpdate(ge, g, NULL));

	/* Changes to the executable graph alone. */
	kparams(&kp, add_fn, a2);
	CHECK_H100("exec set kernel params", cuGraphExecKernelNodeSetParams(ge, n[0], &kp));
	kparams(&kp, other_fn, a2);
	CHECK_H100("exec set kernel other fn", cuGraphExecKernelNodeSetParams(ge, n[0], &kp));
	CHECK_H100("exec set host params", cuGraphExecHostNodeSetParams(ge, n[2], &hp));
	CHECK_H100("exec set kernel on host node", cuGraphExecKernelNodeSetParams(ge, n[2], &kp));
	CHECK_H100("disable k3", cuGraphNodeSetEnabled(ge, n[3], 0));
	CHECK_H100("get enabled", cuGraphNodeGetEnabled(ge, n[3], &en));
	CHECK(en == H_VALUE("enabled value"));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(dbuf, 0, 1));
	CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, NULL));
	CHECK(readback(0) == H_VALUE("k3 disabled value"));
	CHECK_RES(CUDA_SUCCESS, cuGraphNodeSetEnabled(ge, n[3], 1));
	/* The graph itself kept its own parameters: a fresh instance adds 1 + 2. */
	{
		CUgraphExec e2;
		unsigned long long fl;

		for (fl = 1; fl <= 16; fl <<= 1) {
			char tag[64];
			CUresult r = cuGraphInstantiate(&e2, g, fl);

			snprintf(tag, sizeof(tag), "instantiate flag %llu", fl);
			CHECK_RES((CUresult)h100(tag), r);
			if (!r)
				CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(e2));
		}
		CHECK_H100("instantiate twice", cuGraphInstantiate(&e2, g, 0));
		CHECK_RES(CUDA_SUCCESS, cuMemsetD32(dbuf, 0, 1));
		CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(e2, NULL));
		CHECK(readback(0) == 3);
		CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(e2));
	}
	CHECK_H100("exec destroy while running", (cuGraphLaunch(ge, NULL), cuGraphExecDestroy(ge)));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphLaunch(ge, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
}

/*
 * A graph replayed many times on two streams that the legacy stream
 * orders (a blocking one and NULL): each replay after the one before.
 */
static void replay(void)
{
	enum { REPS = 50 };
	CUgraphNode n[4];
	CUgraph g = diamond(n);
	CUgraphExec ge;
	CUstream s;
	int i;

	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_DEFAULT));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(dbuf, 0, 1));
	for (i = 0; i < REPS; i++)
		CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, i & 1 ? s : NULL));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(readback(0) == 3 * REPS);
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(s));
}

static void diamond_shape(void)
{
	CUgraphNode n[4];

	setup();

	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(diamond(n)));
}

/* Roots, edges with their data, each node's dependencies and dependents. */
static void queries(void)
{
	CUgraphNode n[4], out[8], from[8], to[8];
	CUgraphEdgeData ed[8];
	CUgraph g = diamond(n);
	size_t cnt;
	CUgraphNodeType t;
	CUresult (*edges_v1)(CUgraph, CUgraphNode *, CUgraphNode *, size_t *) =
		(CUresult (*)(CUgraph, CUgraphNode *, CUgraphNode *, size_t *))sym("cuGraphGetEdges");

	if (!edges_v1)
		return;
	cnt = 8;
	CHECK_RES(CUDA_SUCCESS, cuGraphGetRootNodes(g, out, &cnt));
	CHECK(cnt == 1 && out[0] == n[0]);
	cnt = 8;
	memset(ed, 0x77, sizeof(ed));
	CHECK_RES(CUDA_SUCCESS, cuGraphGetEdges_v2(g, from, to, ed, &cnt));
	CHECK(cnt == 4);
	CHECK(from[0] == n[0] && to[0] == n[1] && from[1] == n[0] && to[1] == n[2]);
	CHECK(from[2] == n[1] && to[2] == n[3] && from[3] == n[2] && to[3] == n[3]);
	CHECK(ed[0].type == CU_GRAPH_DEPENDENCY_TYPE_DEFAULT && !ed[0].from_port &&
	      !ed[0].to_port && !ed[3].type);
	/*
	 * A short array: filled whole, its length kept; a long one: the rest
	 * NULL, the count what was filled (ref/h200_graph_lists.log).
	 */
	cnt = 1;
	from[1] = to[1] = n[3];
	CHECK_RES(CUDA_SUCCESS, cuGraphGetEdges(g, from, to, NULL, &cnt));
	CHECK(cnt == 1 && from[0] == n[0] && from[1] == n[3] && to[1] == n[3]);
	cnt = 6;
	CHECK_RES(CUDA_SUCCESS, cuGraphGetEdges(g, from, to, NULL, &cnt));
	CHECK(cnt == 4 && !from[4] && !to[5]);
	cnt = 1;
	out[1] = n[3];
	CHECK_RES(CUDA_SUCCESS, cuGraphNodeGetDependencies(n[3], out, NULL, &cnt));
	CHECK(cnt == 1 && out[0] == n[1] && out[1] == n[3]);
	cnt = 4;
	CHECK_RES(CUDA_SUCCESS, cuGraphNodeGetDependentNodes(n[0], out, NULL, &cnt));
	CHECK(cnt == 2 && !out[2] && !out[3]);
	cnt = 3;
	CHECK_RES(CUDA_SUCCESS, cuGraphGetRootNodes(g, out, &cnt));
	CHECK(cnt == 1 && out[0] == n[0] && !out[1] && !out[2]);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphGetEdges(g, from, NULL, NULL, &cnt));
	/* CUDA 12's entry point, without edge data. */
	cnt = 8;
	CHECK_RES(CUDA_SUCCESS, edges_v1(g, from, to, &cnt));
	CHECK(cnt == 4 && from[3] == n[2] && to[3] == n[3]);
	cnt = 8;
	CHECK_RES(CUDA_SUCCESS, cuGraphNodeGetDependencies(n[3], out, NULL, &cnt));
	CHECK(cnt == 2 && out[0] == n[1] && out[1] == n[2]);
	cnt = 8;
	CHECK_RES(CUDA_SUCCESS, cuGraphNodeGetDependentNodes(n[0], out, ed, &cnt));
	CHECK(cnt == 2 && out[0] == n[1] && out[1] == n[2] && !ed[1].type);
	CHECK_RES(CUDA_SUCCESS, cuGraphNodeGetType(n[2], &t));
	CHECK(t == CU_GRAPH_NODE_TYPE_HOST);
	/* Programmatic edges and ports are not supported here. */
	ed[0] = (CUgraphEdgeData){ .type = CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC };
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuGraphAddDependencies_v2(g, &n[0], &n[3], ed, 1));
	/* A node destroyed takes its edges; its handle is gone. */
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroyNode(n[1]));
	cnt = 8;
	CHECK_RES(CUDA_SUCCESS, cuGraphNodeGetDependencies(n[3], out, NULL, &cnt));
	CHECK(cnt == 1 && out[0] == n[2]);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetType(n[1], &t));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphDestroyNode(n[1]));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphNodeGetType(n[0], &t));
}

/* A kernel node holds its parameters' values from when they were set. */
static void kernel_params_copied(void)
{
	CUgraph g;
	CUgraphNode n, m;
	CUDA_KERNEL_NODE_PARAMS kp, got;
	CUDA_MEMSET_NODE_PARAMS mp = { .value = 3, .elementSize = 2,
				       .width = 4, .height = 1 }, mg;
	unsigned int v = 5;
	void *a[] = { &dbuf, &v };

	setup();
	mp.dst = dbuf;

	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	kparams(&kp, add_fn, a);
	kp.gridDimX = 3;
	CHECK_RES(CUDA_SUCCESS, cuGraphAddKernelNode(&n, g, NULL, 0, &kp));
	v = 6;
	memset(&got, 0, sizeof(got));
	CHECK_RES(CUDA_SUCCESS, cuGraphKernelNodeGetParams(n, &got));
	CHECK(got.func == add_fn && got.gridDimX == 3 && got.blockDimZ == 1);
	CHECK(got.kernelParams && *(CUdeviceptr *)got.kernelParams[0] == dbuf &&
	      *(unsigned int *)got.kernelParams[1] == 5);
	kparams(&kp, other_fn, a);
	CHECK_RES(CUDA_SUCCESS, cuGraphKernelNodeSetParams(n, &kp));
	CHECK_RES(CUDA_SUCCESS, cuGraphKernelNodeGetParams(n, &got));
	CHECK(got.func == other_fn && *(unsigned int *)got.kernelParams[1] == 6);
	/* A bad set leaves the node as it was. */
	kp.blockDimY = 0;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphKernelNodeSetParams(n, &kp));
	CHECK_RES(CUDA_SUCCESS, cuGraphKernelNodeGetParams(n, &got));
	CHECK(got.func == other_fn && got.blockDimY == 1);
	CHECK_RES(CUDA_SUCCESS, cuGraphAddMemsetNode(&m, g, &n, 1, &mp, ctx));
	CHECK_RES(CUDA_SUCCESS, cuGraphMemsetNodeGetParams(m, &mg));
	CHECK(mg.dst == dbuf && mg.value == 3 && mg.elementSize == 2 && mg.width == 4);
	/* Parameters of one type asked of a node of another. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphMemsetNodeGetParams(n, &mg));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphKernelNodeGetParams(m, &got));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
}

static void clones(void)
{
	CUgraphNode n[4], cn;
	CUgraph g = diamond(n), cl;
	CUgraphNodeType t;

	CHECK_H100("clone", cuGraphClone(&cl, g));
	shape("clone shape", cl);
	CHECK_H100("find in clone", cuGraphNodeFindInClone(&cn, n[2], cl));
	CHECK_RES(CUDA_SUCCESS, cuGraphNodeGetType(cn, &t));
	CHECK(t == (CUgraphNodeType)h100("found type"));
	CHECK(cn != n[2]);
	CHECK_H100("find in clone wrong graph", cuGraphNodeFindInClone(&cn, n[2], g));
	/* The clone stands alone: changing the original leaves it. */
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroyNode(n[3]));
	shape("clone shape", cl);
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	shape("clone shape", cl);
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(cl));
}

static void event_nodes(void)
{
	CUgraphNode n[4], rn, wn;
	CUgraph g = diamond(n);
	CUevent e, got;

	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&e, 0));
	CHECK_H100("add event record", cuGraphAddEventRecordNode(&rn, g, &n[3], 1, e));
	CHECK_H100("add event wait", cuGraphAddEventWaitNode(&wn, g, &rn, 1, e));
	CHECK_H100("add event record null", cuGraphAddEventRecordNode(&rn, g, NULL, 0, NULL));
	shape("with events shape", g);
	{
		CUgraphExec ge;

		CHECK_H100("instantiate with events", cuGraphInstantiate(&ge, g, 0));
		CHECK_H100("launch with events", cuGraphLaunch(ge, NULL));
		CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
		CHECK_H100("event query after", cuEventQuery(e));
		CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	}
	CHECK_RES(CUDA_SUCCESS, cuGraphEventWaitNodeGetEvent(wn, &got));
	CHECK(got == e);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphEventRecordNodeGetEvent(wn, &got));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	CHECK_RES(CUDA_SUCCESS, cuEventDestroy(e));
}

/* A child graph node holds a copy of the graph it was given. */
static void child_graphs(void)
{
	CUgraphNode n[4], c, e;
	CUgraph g = diamond(n), parent, inner;
	size_t cnt;

	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&parent, 0));
	CHECK_RES(CUDA_SUCCESS, cuGraphAddEmptyNode(&e, parent, NULL, 0));
	CHECK_RES(CUDA_SUCCESS, cuGraphAddChildGraphNode(&c, parent, &e, 1, g));
	CHECK_RES(CUDA_SUCCESS, cuGraphChildGraphNodeGetGraph(c, &inner));
	CHECK(inner != g);
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	cnt = 0;
	CHECK_RES(CUDA_SUCCESS, cuGraphGetNodes(inner, NULL, &cnt));
	CHECK(cnt == 4);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddChildGraphNode(&c, parent, NULL, 0,
								      parent));
	/* The child goes with its node. */
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(parent));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphGetNodes(inner, NULL, &cnt));
}

/* Many nodes: handles stay cheap to check. */
static void many_nodes(void)
{
	enum { N = 20000 };
	static CUgraphNode n[N];
	CUgraph g;
	size_t i, cnt = 0;

	setup();

	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	for (i = 0; i < N; i++)
		if (cuGraphAddEmptyNode(&n[i], g, i ? &n[i - 1] : NULL, i ? 1 : 0))
			break;
	CHECK(i == N);
	CHECK_RES(CUDA_SUCCESS, cuGraphGetEdges(g, NULL, NULL, NULL, &cnt));
	CHECK(cnt == N - 1);
	for (i = 0; i < N; i += 2)
		CHECK_RES(CUDA_SUCCESS, cuGraphDestroyNode(n[i]));
	cnt = 0;
	CHECK_RES(CUDA_SUCCESS, cuGraphGetNodes(g, NULL, &cnt));
	CHECK(cnt == N / 2);
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
}

/*
 * A graph's launch is one submission per channel: its nodes' commands
 * reach the module with one doorbell, where launching the same kernels
 * one by one rings it for each. With a host node in the middle, the
 * function's thread may also ring for the point it waits for, and rings
 * for the release that ends the node (a round trip host nodes need).
 */
static bool host_ran;

static void host_mark(void *arg)
{
	(void)arg;
	host_ran = true;
}

/* A chain of 19 kernel nodes, and a host node at @host if below 20. */
static CUgraphExec chain(void **args, unsigned int host)
{
	CUDA_KERNEL_NODE_PARAMS kp;
	CUDA_HOST_NODE_PARAMS hp = { .fn = host_mark };
	CUgraphNode prev = NULL, node;
	CUgraphExec ge = NULL;
	unsigned int i;
	CUgraph g;

	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	kparams(&kp, add_fn, args);
	for (i = 0; i < 20; i++) {
		if (i == host)
			REQUIRE_RES(CUDA_SUCCESS, cuGraphAddHostNode(&node, g, &prev, 1, &hp));
		else if (i < 19 || host < 19)
			REQUIRE_RES(CUDA_SUCCESS, cuGraphAddKernelNode(&node, g, prev ? &prev : NULL,
								       prev ? 1 : 0, &kp));
		prev = node;
	}
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	return ge;
}

/* Doorbells rung by a launch of @ge on @s; its kernels add 19 to dbuf. */
static unsigned int doorbells(CUgraphExec ge, CUstream s, uint32_t want)
{
	uint32_t got = 0;
	unsigned int n;

	submits = 0;
	counting = true;
	CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, s));
	counting = false;
	n = submits;
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&got, dbuf, 4));
	CHECK(got == want);
	return n;
}

static void one_submission(void)
{
	CUgraphExec plain, hosted;
	CUstream s;
	uint32_t v = 1, got = 0;
	void *args[] = { &dbuf, &v };
	unsigned int i, n;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	/* On @s, non-blocking: the legacy stream's work would not order it. */
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD32Async(dbuf, 0, 1, s));
	plain = chain(args, 20);
	hosted = chain(args, 10);
	/* The first launches may do more (the module's first use). */
	REQUIRE_RES(CUDA_SUCCESS, cuGraphLaunch(plain, s));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphLaunch(hosted, s));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(host_ran);

	n = doorbells(plain, s, 57);
	printf("# a graph of 19 kernels: %u doorbells\n", n);
	CHECK(n == 1);
	host_ran = false;
	n = doorbells(hosted, s, 76);
	printf("# 19 kernels and a host function: %u doorbells\n", n);
	CHECK(n >= 1 && n <= 3);
	CHECK(host_ran);

	submits = 0;
	counting = true;
	for (i = 0; i < 19; i++)
		CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(add_fn, 1, 1, 1, 1, 1, 1, 0, s, args, NULL));
	counting = false;
	n = submits;
	printf("# the 19 kernels launched one by one: %u doorbells\n", n);
	CHECK(n >= 19);
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&got, dbuf, 4));
	CHECK(got == 95);
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(plain));
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(hosted));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(s));
}

/*
 * The commands a launch of @ge on @s tells the module of, after a first
 * launch (which may do more: the module's first use); the launch done.
 */
static uint64_t commands_of(CUgraphExec ge, CUstream s)
{
	uint64_t n;

	REQUIRE_RES(CUDA_SUCCESS, cuGraphLaunch(ge, s));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	commands = 0;
	counting = true;
	CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, s));
	counting = false;
	n = commands;
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	return n;
}

/*
 * A graph's consecutive kernels reach the module as one command (a
 * LAUNCH_CHAIN), which runs them in order, each with its own parameters:
 * "other" sets the word, "add" adds to it, so any other order, or
 * parameters mixed up, gives another value. A memset node between
 * kernels splits them into two chains.
 */
static void kernels_chained(void)
{
	enum { N = 40 };
	unsigned int v[N], i;
	void *args[N][2];
	CUDA_KERNEL_NODE_PARAMS kp;
	CUDA_MEMSET_NODE_PARAMS mp;
	CUgraphNode prev = NULL, node;
	CUgraphExec ge;
	CUstream s;
	uint32_t got = 0;
	uint64_t n;
	CUgraph g;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	for (i = 0; i < N; i++) {
		v[i] = i % 10 ? i : 100 * i;
		args[i][0] = &dbuf;
		args[i][1] = &v[i];
		kparams(&kp, i % 10 ? add_fn : other_fn, args[i]);
		REQUIRE_RES(CUDA_SUCCESS, cuGraphAddKernelNode(&node, g, prev ? &prev : NULL,
							       prev ? 1 : 0, &kp));
		prev = node;
	}
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	n = commands_of(ge, s);
	printf("# a graph of %u kernels: %llu commands\n", N, (unsigned long long)n);
	CHECK(n >= 1 && n <= 2);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&got, dbuf, 4));
	/* "other" 3000 last, then 31 + ... + 39. */
	CHECK(got == 3000 + 315);
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));

	/* A memset after the first 20 kernels: two chains and the memset. */
	memset(&mp, 0, sizeof(mp));
	mp.dst = dbuf + 8;
	mp.value = 5;
	mp.elementSize = 4;
	mp.width = 1;
	mp.height = 1;
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	prev = NULL;
	for (i = 0; i < N; i++) {
		kparams(&kp, i % 10 ? add_fn : other_fn, args[i]);
		REQUIRE_RES(CUDA_SUCCESS, cuGraphAddKernelNode(&node, g, prev ? &prev : NULL,
							       prev ? 1 : 0, &kp));
		prev = node;
		if (i == 19) {
			REQUIRE_RES(CUDA_SUCCESS, cuGraphAddMemsetNode(&node, g, &prev, 1, &mp,
								       ctx));
			prev = node;
		}
	}
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	n = commands_of(ge, s);
	printf("# the same with a memset in the middle: %llu commands\n",
	       (unsigned long long)n);
	CHECK(n >= 3 && n <= 5);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&got, dbuf, 4));
	CHECK(got == 3000 + 315);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&got, dbuf + 8, 4));
	CHECK(got == 5);
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(s));
}

/* A kernel of 8 KiB of parameters: it adds v to the word at p. */
static const char big_ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .entry big(.param .u64 p, .param .u32 v, .param .align 8 .b8 blob[8176])\n{\n"
	"\t.reg .u64 %rd<3>;\n\t.reg .u32 %r<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
	"\tld.global.u32 %r2, [%rd1];\n\tadd.u32 %r3, %r2, %r1;\n"
	"\tst.global.u32 [%rd1], %r3;\n\tret;\n}\n";

struct big_launcher {
	CUfunction f;
	CUstream s;
	bool stop;		/* atomic */
	unsigned int launches;
	CUresult r;
};

/* Launches "big" until told to stop, once at least: 128 go round every chunk. */
static void *big_launches(void *arg)
{
	struct big_launcher *b = arg;
	static unsigned char blob[8176];
	CUdeviceptr p = dbuf + 16;
	unsigned int v = 1;
	void *args[] = { &p, &v, blob };

	b->r = cuCtxSetCurrent(ctx);
	do {
		b->r = cuLaunchKernel(b->f, 1, 1, 1, 1, 1, 1, 0, b->s, args, NULL);
		b->launches++;
	} while (!b->r && !__atomic_load_n(&b->stop, __ATOMIC_ACQUIRE));
	return NULL;
}

/*
 * A chain's parameters stay its own while another thread launches on
 * the context between two of the graph's kernels, and goes round every
 * parameter chunk of the context meanwhile.
 */
static void chain_beside_another_thread(void)
{
	enum { N = 250, ROUNDS = 20 };
	struct big_launcher b = { .stop = true };
	unsigned int v[N], i, r, ok = 0;
	void *args[N][2];
	CUDA_KERNEL_NODE_PARAMS kp;
	CUgraphNode prev = NULL, node;
	uint32_t got, want = N * (N + 1) / 2;
	CUgraphExec ge;
	pthread_t t;
	CUmodule mod;
	CUstream s;
	CUgraph g;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, big_ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&b.f, mod, "big"));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&b.s, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD32(dbuf, 0, 16));
	/* Done before b.s, which does not wait for it, adds to dbuf. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSynchronize());
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	for (i = 0; i < N; i++) {
		v[i] = i + 1;
		args[i][0] = &dbuf;
		args[i][1] = &v[i];
		kparams(&kp, add_fn, args[i]);
		REQUIRE_RES(CUDA_SUCCESS, cuGraphAddKernelNode(&node, g, prev ? &prev : NULL,
							       prev ? 1 : 0, &kp));
		prev = node;
	}
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	/* The first launch compiles "big" (on the native engine). */
	big_launches(&b);
	REQUIRE_RES(CUDA_SUCCESS, b.r);
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSynchronize());
	b.stop = false;
	REQUIRE_RES(0, pthread_create(&t, NULL, big_launches, &b));
	for (r = 0; r < ROUNDS; r++) {
		CHECK_RES(CUDA_SUCCESS, cuMemsetD32Async(dbuf, 0, 1, s));
		CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, s));
		CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoHAsync(&got, dbuf, 4, s));
		CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
		ok += got == want;
	}
	__atomic_store_n(&b.stop, true, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	CHECK_RES(CUDA_SUCCESS, b.r);
	printf("# %u of %u rounds right, %u launches beside them\n", ok, ROUNDS, b.launches);
	CHECK(ok == ROUNDS);
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&got, dbuf + 16, 4));
	CHECK(got == b.launches);
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(s));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(b.s));
}

/*
 * dst = *a + *b + 1 (add2); and a handshake (shake): set the word at
 * mine, then look for the one at other up to n times; out says whether
 * it was seen.
 */
static const char lane_ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .entry add2(.param .u64 d, .param .u64 a, .param .u64 b)\n{\n"
	"\t.reg .u64 %rd<4>;\n\t.reg .u32 %r<4>;\n"
	"\tld.param.u64 %rd1, [d];\n\tld.param.u64 %rd2, [a];\n\tld.param.u64 %rd3, [b];\n"
	"\tld.global.u32 %r1, [%rd2];\n\tld.global.u32 %r2, [%rd3];\n"
	"\tadd.u32 %r3, %r1, %r2;\n\tadd.u32 %r3, %r3, 1;\n"
	"\tst.global.u32 [%rd1], %r3;\n\tret;\n}\n"
	".visible .entry shake(.param .u64 mine, .param .u64 other, .param .u64 out,"
	" .param .u32 n)\n{\n"
	"\t.reg .u64 %rd<4>;\n\t.reg .u32 %r<6>;\n\t.reg .pred %p<3>;\n"
	"\tld.param.u64 %rd1, [mine];\n\tld.param.u64 %rd2, [other];\n"
	"\tld.param.u64 %rd3, [out];\n\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r2, 1;\n\tst.volatile.global.u32 [%rd1], %r2;\n\tmov.u32 %r3, 0;\n"
	"LOOP:\n\tld.volatile.global.u32 %r4, [%rd2];\n"
	"\tsetp.ne.u32 %p1, %r4, 0;\n\t@%p1 bra SEEN;\n"
	"\tadd.u32 %r3, %r3, 1;\n\tsetp.lt.u32 %p2, %r3, %r1;\n\t@%p2 bra LOOP;\n"
	"\tmov.u32 %r5, 0;\n\tst.global.u32 [%rd3], %r5;\n\tret;\n"
	"SEEN:\n\tmov.u32 %r5, 1;\n\tst.global.u32 [%rd3], %r5;\n\tret;\n}\n";

/*
 * A random graph of add2 nodes, each of up to two dependencies whose
 * words it adds: every word is right only if each node ran after those
 * it depends on, on whichever lane they were; launched several times.
 */
static void lanes_keep_dependencies(void)
{
	enum { N = 60, ROUNDS = 5 };
	CUdeviceptr words, zero;
	CUDA_KERNEL_NODE_PARAMS kp;
	CUgraphNode node[N], deps[2];
	CUdeviceptr d[N], a[N], b[N];
	void *args[N][3];
	uint32_t want[N], got[N];
	unsigned int i, j, r, nd, seed = 12345;
	CUfunction add2;
	CUgraphExec ge;
	CUmodule mod;
	CUstream s;
	CUgraph g;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, lane_ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&add2, mod, "add2"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&words, (N + 1) * 4));
	zero = words + N * 4;
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	for (i = 0; i < N; i++) {
		uint32_t va = 0, vb = 0;

		nd = 0;
		for (j = 0; i && j < 2; j++) {
			seed = seed * 1103515245 + 12345;
			if ((seed >> 16) % 3)
				deps[nd++] = node[(seed >> 8) % i];
		}
		if (nd == 2 && deps[0] == deps[1])
			nd = 1;
		d[i] = words + i * 4;
		a[i] = b[i] = zero;
		for (j = 0; j < nd; j++) {
			size_t k;

			for (k = 0; node[k] != deps[j]; k++)
				;
			if (j)
				b[i] = words + k * 4, vb = want[k];
			else
				a[i] = words + k * 4, va = want[k];
		}
		want[i] = va + vb + 1;
		args[i][0] = &d[i];
		args[i][1] = &a[i];
		args[i][2] = &b[i];
		kparams(&kp, add2, args[i]);
		REQUIRE_RES(CUDA_SUCCESS, cuGraphAddKernelNode(&node[i], g, deps, nd, &kp));
	}
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	for (r = 0; r < ROUNDS; r++) {
		REQUIRE_RES(CUDA_SUCCESS, cuMemsetD32Async(words, 0, N + 1, s));
		CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, s));
		CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoHAsync(got, words, sizeof(got), s));
		CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
		for (i = 0; i < N; i++)
			if (got[i] != want[i])
				TAP_FAIL("round %u: word %u is %u, want %u", r, i, got[i], want[i]);
	}
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(s));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(words));
}

/*
 * Two independent branches run side by side: each kernel sets its flag
 * and looks for the other's, which only a kernel running at the same
 * time can set. The join after them sees both done, and the launch's
 * stream waits for the branches.
 */
static void branches_side_by_side(void)
{
	CUdeviceptr flags, f0, f1, o0, o1;
	unsigned int n = 2000000, sms = 0;
	void *a0[] = { &f0, &f1, &o0, &n }, *a1[] = { &f1, &f0, &o1, &n };
	CUDA_KERNEL_NODE_PARAMS kp;
	CUgraphNode root, b[2], join;
	uint32_t got[4];
	CUfunction shake;
	CUgraphExec ge;
	CUmodule mod;
	CUstream s;
	CUgraph g;
	CUdevice dev;

	/* Two user-mode SMs at least, whatever the machine's CPUs. */
	setenv("VGPU_USM_THREADS", "2", 1);
	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuCtxGetDevice(&dev));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGetAttribute((int *)&sms,
			CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
	if (sms < 2)
		TAP_SKIP("one SM runs one block at a time");
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, lane_ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&shake, mod, "shake"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&flags, 16));
	f0 = flags;
	f1 = flags + 4;
	o0 = flags + 8;
	o1 = flags + 12;
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddEmptyNode(&root, g, NULL, 0));
	memset(&kp, 0, sizeof(kp));
	kp.func = shake;
	kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
	kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
	kp.kernelParams = a0;
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddKernelNode(&b[0], g, &root, 1, &kp));
	kp.kernelParams = a1;
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddKernelNode(&b[1], g, &root, 1, &kp));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddEmptyNode(&join, g, b, 2));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD32Async(flags, 7, 4, s));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD32Async(flags, 0, 2, s));
	CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, s));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(got, flags, sizeof(got)));
	printf("# flags %u %u, seen %u %u\n", got[0], got[1], got[2], got[3]);
	CHECK(got[0] == 1 && got[1] == 1);
	CHECK(got[2] == 1 && got[3] == 1);
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(s));
}

static void count_call(void *arg)
{
	__atomic_add_fetch((unsigned int *)arg, 1, __ATOMIC_RELAXED);
}

static void count_free(void *arg)
{
	__atomic_add_fetch((unsigned int *)arg, 100, __ATOMIC_RELAXED);
}

/*
 * An executable graph keeps streams and events of the context of its
 * last launch (its lanes, and the event after a launch that holds user
 * objects). Once that context is destroyed, they are gone with it: a
 * context made after it, whose handles and whose streams' and events'
 * handles may be those of the gone ones, has none of its own taken for
 * them, used by the graph's launch or destroyed with the graph.
 */
static void lanes_after_their_context(void)
{
	CUDA_HOST_NODE_PARAMS hp = { count_call, NULL };
	unsigned int calls = 0, i;
	CUstream mine[16], s;
	CUevent evs[16];
	CUuserObject obj;
	CUgraphNode n[2];
	CUgraphExec ge;
	CUcontext a, b;
	CUdevice dev;
	CUgraph g;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGet(&dev, 0));
	hp.userData = &calls;
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	/* Two branches: two lanes, the second on a stream of the graph's. */
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddHostNode(&n[0], g, NULL, 0, &hp));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddHostNode(&n[1], g, NULL, 0, &hp));
	REQUIRE_RES(CUDA_SUCCESS, cuUserObjectCreate(&obj, &calls, count_free, 1,
						     CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphRetainUserObject(g, obj, 1, CU_GRAPH_USER_OBJECT_MOVE));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphDestroy(g));

	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&a, NULL, 0, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, s));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(a));

	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&b, NULL, 0, dev));
	for (i = 0; i < 16; i++) {
		REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&mine[i], CU_STREAM_NON_BLOCKING));
		REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&evs[i], 0));
	}
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, s));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(calls == 4);
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	/* The object goes once the last launch's work is done. */
	for (i = 0; i < 1000 && calls < 100; i++)
		usleep(1000);
	CHECK(calls == 104);
	for (i = 0; i < 16; i++) {
		CHECK_RES(CUDA_SUCCESS, cuStreamQuery(mine[i]));
		CHECK_RES(CUDA_SUCCESS, cuEventRecord(evs[i], mine[i]));
		CHECK_RES(CUDA_SUCCESS, cuEventSynchronize(evs[i]));
	}
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(b));
}

static const struct tap_test tests[] = {
	TAP_TEST(create_and_bad_kernels),
	TAP_TEST(diamond_shape),
	TAP_TEST(queries),
	TAP_TEST(kernel_params_copied),
	TAP_TEST(clones),
	TAP_TEST(event_nodes),
	TAP_TEST(child_graphs),
	TAP_TEST(many_nodes),
	TAP_TEST(exec_diamond),
	TAP_TEST(replay),
	TAP_TEST(one_submission),
	TAP_TEST(kernels_chained),
	TAP_TEST(chain_beside_another_thread),
	TAP_TEST(lanes_keep_dependencies),
	TAP_TEST(branches_side_by_side),
	TAP_TEST(lanes_after_their_context),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
