// SPDX-License-Identifier: MIT
/*
 * cuGraphDebugDotPrint, graph kernel node attributes and user objects,
 * held to an H200: the probe that ran there (tests/e2e/ref/h200_graph_dot.c)
 * runs here on vgpu, and what it prints must be what it printed there
 * (ref/h200_graph_dot.log) line for line — the dot files of each graph,
 * plain and verbose, every code, the attributes read back and when each
 * user object's destructor ran — but for the handles and addresses it
 * prints, which are each process's own: "0x" and 16 hex digits are
 * compared as such, and the line of raw conditional handle values is
 * left out (the dot files number handles as NVIDIA's do).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

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

/* @line with every "0x" and 16 hex digits made "0x?". */
static void mask(char *line)
{
	char *p = line, *q;

	while ((p = strstr(p, "0x"))) {
		size_t n = strspn(p + 2, "0123456789ABCDEF");

		if (n != 16) {
			p += 2;
			continue;
		}
		p[2] = '?';
		q = p + 18;
		memmove(p + 3, q, strlen(q) + 1);
		p += 3;
	}
}

/* The next line to compare of @f, masked, or NULL at its end. */
static char *next_line(FILE *f, char *buf, size_t size)
{
	while (fgets(buf, (int)size, f)) {
		if (!strncmp(buf, "handles ", 8))
			continue;
		mask(buf);
		return buf;
	}
	return NULL;
}

static void probe_prints_as_on_h200(void)
{
	char dir[] = "/tmp/vgpu_dot_XXXXXX", out[64], cmd[64], a[1024], b[1024];
	unsigned int line = 0;
	char *argv[] = { "probe", dir, NULL };
	FILE *got, *want;
	int saved, fd;

	REQUIRE(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/probe.log", dir);
	fflush(stdout);
	saved = dup(1);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	REQUIRE(saved >= 0 && fd >= 0);
	dup2(fd, 1);
	close(fd);
	h200_probe_main(2, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);

	got = fopen(out, "r");
	want = fopen(REF, "r");
	REQUIRE(got && want);
	for (;;) {
		char *w = next_line(want, a, sizeof(a)), *g = next_line(got, b, sizeof(b));

		line++;
		if (!w && !g)
			break;
		if (!w || !g || strcmp(w, g)) {
			TAP_FAIL("line %u (handles left out) differs: H200 \"%s\", vgpu \"%s\"",
				 line, w ? strtok(w, "\n") : "(end)",
				 g ? strtok(g, "\n") : "(end)");
			break;
		}
	}
	fclose(got);
	fclose(want);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd) != 0)
		TAP_FAIL("cannot remove %s", dir);
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
