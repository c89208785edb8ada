// SPDX-License-Identifier: MIT
/*
 * cuGraphDebugDotPrint, graph kernel node attributes and user objects,
 * held to an H200: the probe that ran there (tests/e2e/ref/h200_graph_dot.c)
 * runs here on vgpu (probe_run.h) and prints what it printed there — the
 * dot files of each graph, plain and verbose, every code, the attributes
 * read back and when each user object's destructor ran — but for the
 * line of raw conditional handle values (the dot files number handles as
 * NVIDIA's do).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "probe_run.h"

#define main h200_probe_main
#include "e2e/ref/h200_graph_dot.c"
#undef main

#define REF "tests/e2e/ref/h200_graph_dot.log"

/* Stops the test: what follows needs it. */
#define REQUIRE(cond) do { \
	if (!(cond)) { \
		TAP_FAIL("check failed: %s", #cond); \
		exit(1); \
	} \
} while (0)

/* The raw values of conditional handles are each process's own. */
static void probe_prints_as_on_h200(void)
{
	probe_matches(h200_probe_main, REF, "handles ");
}

/* A context, the probe's kernel and a graph with a node of it on @p. */
static CUgraphNode kernel_node(CUgraph *g, CUdeviceptr *p, void **args)
{
	CUDA_KERNEL_NODE_PARAMS kp = { .gridDimX = 2, .gridDimY = 1, .gridDimZ = 1,
				       .blockDimX = 32, .blockDimY = 1, .blockDimZ = 1,
				       .kernelParams = args };
	CUdevice d;
	CUcontext c;
	CUmodule m;
	CUgraphNode n;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGet(&d, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&c, d));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&kp.func, m, "k"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(p, 64));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddKernelNode(&n, *g, NULL, 0, &kp));
	return n;
}

/* What NVIDIA's driver dies of is refused here. */
static void null_attribute_value(void)
{
	CUdeviceptr p;
	unsigned int v = 1;
	void *args[] = { &p, &v };
	CUgraph g;
	CUgraphNode n = kernel_node(&g, &p, args);

	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuGraphKernelNodeGetAttribute(n, CU_LAUNCH_ATTRIBUTE_PRIORITY, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuGraphKernelNodeSetAttribute(n, CU_LAUNCH_ATTRIBUTE_PRIORITY, NULL));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
}

/*
 * A node's attributes stay through new parameters, go with it into a
 * clone, and a cooperative, prioritised node still runs.
 */
static void attributes_follow_node(void)
{
	CUdeviceptr p;
	unsigned int val = 42, got = 0;
	void *args[] = { &p, &val };
	CUDA_KERNEL_NODE_PARAMS kp;
	CUkernelNodeAttrValue v = { 0 };
	CUgraph g, cl;
	CUgraphNode cn, n = kernel_node(&g, &p, args);
	CUgraphExec e;

	REQUIRE_RES(CUDA_SUCCESS, cuGraphKernelNodeGetParams(n, &kp));
	v.priority = -1;
	CHECK_RES(CUDA_SUCCESS, cuGraphKernelNodeSetAttribute(n, CU_LAUNCH_ATTRIBUTE_PRIORITY, &v));
	v.cooperative = 1;
	CHECK_RES(CUDA_SUCCESS,
		  cuGraphKernelNodeSetAttribute(n, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v));
	CHECK_RES(CUDA_SUCCESS, cuGraphKernelNodeSetParams(n, &kp));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphClone(&cl, g));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphNodeFindInClone(&cn, n, cl));
	memset(&v, 0, sizeof(v));
	CHECK_RES(CUDA_SUCCESS, cuGraphKernelNodeGetAttribute(cn, CU_LAUNCH_ATTRIBUTE_PRIORITY, &v));
	CHECK(v.priority == -1);
	CHECK_RES(CUDA_SUCCESS,
		  cuGraphKernelNodeGetAttribute(cn, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v));
	CHECK(v.cooperative == 1);
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&e, cl, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSynchronize());
	REQUIRE_RES(CUDA_SUCCESS, cuMemcpyDtoH(&got, p, sizeof(got)));
	CHECK(got == 42);
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(e));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(cl));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
}

/*
 * An executable graph's child graph node takes the parameters of a graph
 * of its child's shape, and only of one: what it then runs is the new.
 */
static void exec_child_params(void)
{
	CUdeviceptr p;
	unsigned int val = 7, got = 0;
	void *args[] = { &p, &val };
	CUgraph child, g, other;
	CUgraphNode cn, k2, e2;
	CUgraphExec e;
	CUDA_KERNEL_NODE_PARAMS kp;
	CUgraphNode k = kernel_node(&child, &p, args);

	REQUIRE_RES(CUDA_SUCCESS, cuGraphKernelNodeGetParams(k, &kp));
	kp.kernelParams = args;
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddChildGraphNode(&cn, g, NULL, 0, child));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphInstantiate(&e, g, 0));
	/* The same shape, another value. */
	val = 9;
	REQUIRE_RES(CUDA_SUCCESS, cuGraphKernelNodeSetParams(k, &kp));
	CHECK_RES(CUDA_SUCCESS, cuGraphExecChildGraphNodeSetParams(e, cn, child));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphLaunch(e, NULL));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSynchronize());
	REQUIRE_RES(CUDA_SUCCESS, cuMemcpyDtoH(&got, p, sizeof(got)));
	CHECK(got == 9);
	/* Another shape: refused, nothing changed. */
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&other, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddKernelNode(&k2, other, NULL, 0, &kp));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphAddEmptyNode(&e2, other, &k2, 1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphExecChildGraphNodeSetParams(e, cn, other));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphExecChildGraphNodeSetParams(e, k, child));
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(e));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(other));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(child));
}

static const struct tap_test tests[] = {
	TAP_TEST(probe_prints_as_on_h200),
	TAP_TEST(null_attribute_value),
	TAP_TEST(attributes_follow_node),
	TAP_TEST(exec_child_params),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
