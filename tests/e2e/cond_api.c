// SPDX-License-Identifier: MIT
/*
 * Conditional graph nodes through the driver API: handles and the rules
 * for adding nodes (tests/e2e/ref/h200_capture.log), and what while, if
 * and switch nodes run, their values set by kernels that call
 * cudaGraphSetConditional (h200_conditional.log, from h200_conditional.cu
 * on an H200): a while node's iterations over two launches, a handle's
 * default, empty bodies, an unattached handle, if/else and switch.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h200_capture.log"
#include "h100_log.h"

#define COND_LOG "tests/e2e/ref/h200_conditional.log"

#define SETC(h, v) \
	"\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0+0], " h ";\n" \
	"\t.param .b32 param1;\n\tst.param.b32 [param1+0], " v ";\n" \
	"\tcall.uni cudaGraphSetConditional, (param0, param1);\n\t}\n"

#define SETC32(h, v) \
	"\t{\n\t.param .b32 param0;\n\tst.param.b32 [param0+0], " h ";\n" \
	"\t.param .b32 param1;\n\tst.param.b32 [param1+0], " v ";\n" \
	"\tcall.uni cudaGraphSetConditional, (param0, param1);\n\t}\n"

static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".extern .func cudaGraphSetConditional(.param .b64 h, .param .b32 v);\n"
	/* c[0]++; set(h, c[0] < limit) */
	".visible .entry body_count(.param .u64 c, .param .u32 limit, .param .u64 h)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<3>;\n"
	"\tld.param.u64 %rd1, [c];\n\tld.param.u32 %r1, [limit];\n"
	"\tld.param.u64 %rd2, [h];\n\tld.global.u32 %r2, [%rd1];\n"
	"\tadd.u32 %r2, %r2, 1;\n\tst.global.u32 [%rd1], %r2;\n"
	"\tsetp.lt.s32 %p1, %r2, %r1;\n\tselp.u32 %r3, 1, 0, %p1;\n"
	SETC("%rd2", "%r3")
	"\tret;\n}\n"
	/* c[0]++ */
	".visible .entry just_count(.param .u64 c)\n{\n"
	"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [c];\n\tld.global.u32 %r1, [%rd1];\n"
	"\tadd.u32 %r1, %r1, 1;\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n"
	/* set(h, v) */
	".visible .entry set_val(.param .u64 h, .param .u32 v)\n{\n"
	"\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [h];\n\tld.param.u32 %r1, [v];\n"
	SETC("%rd1", "%r1")
	"\tret;\n}\n"
	/* *p = v */
	".visible .entry write(.param .u64 p, .param .u32 v)\n{\n"
	"\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
	"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n"
	/* c[0]++; set(h, 0) */
	".visible .entry zero_then(.param .u64 c, .param .u64 h)\n{\n"
	"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
	"\tld.param.u64 %rd1, [c];\n\tld.param.u64 %rd2, [h];\n"
	"\tld.global.u32 %r1, [%rd1];\n\tadd.u32 %r1, %r1, 1;\n"
	"\tst.global.u32 [%rd1], %r1;\n\tmov.u32 %r2, 0;\n"
	SETC("%rd2", "%r2")
	"\tret;\n}\n";

static CUcontext ctx;
static CUfunction body_count, just_count, set_val, write_fn, zero_then;
static CUdeviceptr cnt;
static CUstream strm;

static void setup(void)
{
	CUdevice dev;
	CUmodule mod;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGet(&dev, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&body_count, mod, "body_count"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&just_count, mod, "just_count"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&set_val, mod, "set_val"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&write_fn, mod, "write"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&zero_then, mod, "zero_then"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&cnt, 64));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&strm, CU_STREAM_NON_BLOCKING));
}

/* The value the H200 printed as "@name = V" (or "@name V") in COND_LOG. */
static long ref(const char *name)
{
	char line[256];
	size_t len = strlen(name);
	FILE *f = fopen(COND_LOG, "r");
	long v = -999;

	if (!f) {
		TAP_FAIL("cannot read %s", COND_LOG);
		return v;
	}
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, name, len) && (line[len] == ' ')) {
			v = strtol(line + len + (line[len + 1] == '=' ? 3 : 1), NULL, 10);
			break;
		}
	fclose(f);
	if (v == -999)
		TAP_FAIL("no \"%s\" in %s", name, COND_LOG);
	return v;
}

static void kernel(CUgraph g, const CUgraphNode *dep, size_t ndep, CUfunction f,
		   void **args, CUgraphNode *out)
{
	CUDA_KERNEL_NODE_PARAMS kp;
	CUgraphNode n;

	memset(&kp, 0, sizeof(kp));
	kp.func = f;
	kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
	kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
	kp.kernelParams = args;
	CHECK_RES(CUDA_SUCCESS, cuGraphAddKernelNode(&n, g, dep, ndep, &kp));
	if (out)
		*out = n;
}

/* A conditional node into @g; its body graphs through *@bodies. */
static CUresult cond(CUgraph g, const CUgraphNode *dep, size_t ndep,
		     CUgraphConditionalHandle h, CUgraphConditionalNodeType type,
		     unsigned int size, CUgraph **bodies, CUgraphNode *out)
{
	CUgraphNodeParams np;
	CUgraphNode n;
	CUresult r;

	memset(&np, 0, sizeof(np));
	np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
	np.conditional.handle = h;
	np.conditional.type = type;
	np.conditional.size = size;
	np.conditional.ctx = ctx;
	r = cuGraphAddNode(&n, g, dep, NULL, ndep, &np);
	if (bodies)
		*bodies = np.conditional.phGraph_out;
	if (out)
		*out = n;
	return r;
}

/* Launches @g once on a zeroed counter; the counter after it. */
static int run_once(CUgraphExec ge, bool zero)
{
	int got = -1;

	/*
	 * On the graph's stream, a non-blocking one: the legacy stream's
	 * work would not be ordered before the graph's.
	 */
	if (zero)
		CHECK_RES(CUDA_SUCCESS, cuMemsetD32Async(cnt, 0, 16, strm));
	CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, strm));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(strm));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&got, cnt, 4));
	return got;
}

static void nothing(void *arg)
{
	(void)arg;
}

/* The probe's sequence of handles and nodes (h200_capture.c). */
static void handle_and_node_rules(void)
{
	CUgraphConditionalHandle h;
	CUgraphNodeParams np;
	CUgraphNode cn, bn;
	CUgraphExec ge;
	CUgraph g, *body;
	CUDA_HOST_NODE_PARAMS hp = { 0 };
	void *a1[] = { &cnt };

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	CHECK_H100("cond handle", cuGraphConditionalHandleCreate(&h, g, ctx, 0, 0));
	CHECK_H100("cond handle bad flags", cuGraphConditionalHandleCreate(&h, g, ctx, 0, 7));
	CHECK_H100("cond handle default flag",
		   cuGraphConditionalHandleCreate(&h, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphConditionalHandleCreate(NULL, g, ctx, 0, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphConditionalHandleCreate(&h, NULL, ctx, 0, 0));
	memset(&np, 0, sizeof(np));
	np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
	np.conditional.handle = h;
	np.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
	np.conditional.size = 1;
	np.conditional.ctx = ctx;
	CHECK_H100("add while node", cuGraphAddNode(&cn, g, NULL, NULL, 0, &np));
	CHECK(np.conditional.phGraph_out && np.conditional.phGraph_out[0]);
	CHECK_H100("add while same handle again", cuGraphAddNode(&cn, g, NULL, NULL, 0, &np));
#define COND(tag, ty, sz) do { \
		CHECK_RES(CUDA_SUCCESS, cuGraphConditionalHandleCreate(&h, g, ctx, 0, 0)); \
		CHECK_H100(tag, cond(g, NULL, 0, h, (ty), (sz), NULL, NULL)); \
	} while (0)
	COND("add while size 2", CU_GRAPH_COND_TYPE_WHILE, 2);
	COND("add if size 1", CU_GRAPH_COND_TYPE_IF, 1);
	COND("add if size 2", CU_GRAPH_COND_TYPE_IF, 2);
	COND("add if size 3", CU_GRAPH_COND_TYPE_IF, 3);
	COND("add switch size 5", CU_GRAPH_COND_TYPE_SWITCH, 5);
	COND("add switch size 0", CU_GRAPH_COND_TYPE_SWITCH, 0);
	COND("add cond bad type", (CUgraphConditionalNodeType)9, 1);
#undef COND
	/* A handle no graph made. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cond(g, NULL, 0, 12345, CU_GRAPH_COND_TYPE_IF, 1,
						 NULL, NULL));
	{
		size_t n = 0;

		CHECK_RES(CUDA_SUCCESS, cuGraphGetNodes(g, NULL, &n));
		CHECK(n == 4);
	}
	/* The failed adds left handles without nodes. */
	CHECK_H100("instantiate cond with empty bodies", cuGraphInstantiate(&ge, g, 0));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));

	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	CHECK_RES(CUDA_SUCCESS, cuGraphConditionalHandleCreate(&h, g, ctx, 1,
							       CU_GRAPH_COND_ASSIGN_DEFAULT));
	CHECK_RES(CUDA_SUCCESS, cond(g, NULL, 0, h, CU_GRAPH_COND_TYPE_WHILE, 1, &body, &cn));
	kernel(body[0], NULL, 0, just_count, a1, NULL);
	hp.fn = nothing;
	CHECK_H100("add host to body", cuGraphAddHostNode(&bn, body[0], NULL, 0, &hp));
	CHECK_H100("instantiate while with host body", cuGraphInstantiate(&ge, g, 0));
	CHECK_H100("remove host from body", cuGraphDestroyNode(bn));
	CHECK_H100("instantiate while with kernel body", cuGraphInstantiate(&ge, g, 0));
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	/* A body graph is its node's: not destroyed on its own. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphDestroy(body[0]));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
}

/* A while node whose body counts to 4; ASSIGN_DEFAULT starts it again. */
static void while_counts(void)
{
	CUgraphConditionalHandle h;
	CUgraphExec ge, ge2;
	CUgraph g, *body;
	int lim = 4;
	void *a[] = { &cnt, &lim, &h };

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphConditionalHandleCreate(&h, g, ctx, 1,
								 CU_GRAPH_COND_ASSIGN_DEFAULT));
	REQUIRE_RES(CUDA_SUCCESS, cond(g, NULL, 0, h, CU_GRAPH_COND_TYPE_WHILE, 1, &body, NULL));
	kernel(body[0], NULL, 0, body_count, a, NULL);
	CHECK_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	CHECK(run_once(ge, true) == ref("while count"));
	CHECK(run_once(ge, false) == ref("while count after 2nd"));
	/* A clone of the graph runs the same, on the same handle. */
	CHECK_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge2, g, 0));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	CHECK(run_once(ge2, true) == 4);
	CHECK(run_once(ge, true) == 4);
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge2));
}

/* Defaults, empty bodies and a handle no node uses. */
static void defaults_and_empty(void)
{
	CUgraphConditionalHandle h, unused;
	CUgraphExec ge;
	CUgraph g, *body;
	void *a[] = { &cnt, &h }, *a1[] = { &cnt };

	setup();
	/* A while with an empty body ends at once, whatever its value. */
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphConditionalHandleCreate(&h, g, ctx, 1,
								 CU_GRAPH_COND_ASSIGN_DEFAULT));
	REQUIRE_RES(CUDA_SUCCESS, cond(g, NULL, 0, h, CU_GRAPH_COND_TYPE_WHILE, 1, NULL, NULL));
	CHECK_RES((CUresult)ref("instantiate while empty body"), cuGraphInstantiate(&ge, g, 0));
	CHECK_RES((CUresult)ref("launch while empty body"), cuGraphLaunch(ge, strm));
	CHECK_RES((CUresult)ref("sync while empty body"), cuStreamSynchronize(strm));
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));

	/* Without ASSIGN_DEFAULT the value starts at 0, not the default. */
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphConditionalHandleCreate(&h, g, ctx, 5, 0));
	REQUIRE_RES(CUDA_SUCCESS, cond(g, NULL, 0, h, CU_GRAPH_COND_TYPE_WHILE, 1, &body, NULL));
	kernel(body[0], NULL, 0, zero_then, a, NULL);
	CHECK_RES((CUresult)ref("instantiate no default flag"), cuGraphInstantiate(&ge, g, 0));
	CHECK(run_once(ge, true) == ref("no-default-flag while ran"));
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));

	/* Default 0 with the flag: the body never runs. */
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphConditionalHandleCreate(&h, g, ctx, 0,
								 CU_GRAPH_COND_ASSIGN_DEFAULT));
	REQUIRE_RES(CUDA_SUCCESS, cond(g, NULL, 0, h, CU_GRAPH_COND_TYPE_WHILE, 1, &body, NULL));
	kernel(body[0], NULL, 0, just_count, a1, NULL);
	CHECK_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	CHECK(run_once(ge, true) == ref("while default 0 ran"));
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));

	/* A handle made on the graph that no node uses: not instantiated. */
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphConditionalHandleCreate(&unused, g, ctx, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphConditionalHandleCreate(&h, g, ctx, 1,
								 CU_GRAPH_COND_ASSIGN_DEFAULT));
	REQUIRE_RES(CUDA_SUCCESS, cond(g, NULL, 0, h, CU_GRAPH_COND_TYPE_WHILE, 1, &body, NULL));
	kernel(body[0], NULL, 0, just_count, a1, NULL);
	CHECK_RES((CUresult)ref("unattached: instantiate with unattached handle"),
		  cuGraphInstantiate(&ge, g, 0));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
}

/* if/else and switch bodies picked by a value an earlier kernel sets. */
static void if_else_and_switch(void)
{
	CUgraphConditionalHandle h;
	CUgraphNode k;
	CUgraphExec ge;
	CUgraph g, *body;
	unsigned int v, i;
	int w[3];
	char name[64];
	void *sa[] = { &h, &v }, *wa[3][2];

	setup();
	for (v = 0; v < 2; v++) {
		REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
		REQUIRE_RES(CUDA_SUCCESS, cuGraphConditionalHandleCreate(&h, g, ctx, 0, 0));
		kernel(g, NULL, 0, set_val, sa, &k);
		REQUIRE_RES(CUDA_SUCCESS, cond(g, &k, 1, h, CU_GRAPH_COND_TYPE_IF, 2, &body, NULL));
		for (i = 0; i < 2; i++) {
			w[i] = 10 + 10 * (int)i;
			wa[i][0] = &cnt;
			wa[i][1] = &w[i];
			kernel(body[i], NULL, 0, write_fn, wa[i], NULL);
		}
		CHECK_RES((CUresult)ref("instantiate if/else"), cuGraphInstantiate(&ge, g, 0));
		snprintf(name, sizeof(name), "if/else value %u wrote", v);
		CHECK(run_once(ge, true) == ref(name));
		CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
		CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	}
	for (v = 0; v < 5; v += 2) {
		REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
		REQUIRE_RES(CUDA_SUCCESS, cuGraphConditionalHandleCreate(&h, g, ctx, 0, 0));
		kernel(g, NULL, 0, set_val, sa, &k);
		REQUIRE_RES(CUDA_SUCCESS, cond(g, &k, 1, h, CU_GRAPH_COND_TYPE_SWITCH, 3, &body,
					       NULL));
		for (i = 0; i < 3; i++) {
			w[i] = 100 + (int)i;
			wa[i][0] = &cnt;
			wa[i][1] = &w[i];
			kernel(body[i], NULL, 0, write_fn, wa[i], NULL);
		}
		CHECK_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
		snprintf(name, sizeof(name), "switch value %u wrote", v);
		CHECK(run_once(ge, true) == ref(name));
		CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
		CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
	}
	/* An if whose else body is empty. */
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuGraphConditionalHandleCreate(&h, g, ctx, 1,
								 CU_GRAPH_COND_ASSIGN_DEFAULT));
	REQUIRE_RES(CUDA_SUCCESS, cond(g, NULL, 0, h, CU_GRAPH_COND_TYPE_IF, 2, &body, NULL));
	w[0] = 7;
	wa[0][0] = &cnt;
	wa[0][1] = &w[0];
	kernel(body[0], NULL, 0, write_fn, wa[0], NULL);
	CHECK_RES((CUresult)ref("instantiate if with empty else"), cuGraphInstantiate(&ge, g, 0));
	CHECK(run_once(ge, true) == 7);
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
}

/* cuGraphAddNode for the other types, and its bad input. */
static void add_node_types(void)
{
	CUgraphNodeParams np;
	CUgraphEdgeData ed;
	CUgraphNode a, b;
	CUgraphExec ge;
	CUgraph g;
	int got = 0;
	unsigned int v = 42;
	void *args[] = { &cnt, &v };

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuGraphCreate(&g, 0));
	memset(&np, 0, sizeof(np));
	np.type = CU_GRAPH_NODE_TYPE_MEMSET;
	np.memset.dst = cnt;
	np.memset.value = 5;
	np.memset.elementSize = 4;
	np.memset.width = 1;
	np.memset.height = 1;
	np.memset.ctx = ctx;
	CHECK_RES(CUDA_SUCCESS, cuGraphAddNode(&a, g, NULL, NULL, 0, &np));
	memset(&np, 0, sizeof(np));
	np.type = CU_GRAPH_NODE_TYPE_KERNEL;
	np.kernel.func = write_fn;
	np.kernel.gridDimX = np.kernel.gridDimY = np.kernel.gridDimZ = 1;
	np.kernel.blockDimX = np.kernel.blockDimY = np.kernel.blockDimZ = 1;
	np.kernel.kernelParams = args;
	memset(&ed, 0, sizeof(ed));
	CHECK_RES(CUDA_SUCCESS, cuGraphAddNode(&b, g, &a, &ed, 1, &np));
	ed.type = CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddNode(&b, g, &a, &ed, 1, &np));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddNode(NULL, g, NULL, NULL, 0, &np));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddNode(&b, g, NULL, NULL, 0, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddNode(&b, NULL, NULL, NULL, 0, &np));
	np.reserved0[1] = 1;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddNode(&b, g, NULL, NULL, 0, &np));
	memset(&np, 0, sizeof(np));
	np.type = (CUgraphNodeType)77;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuGraphAddNode(&b, g, NULL, NULL, 0, &np));
	np.type = CU_GRAPH_NODE_TYPE_EMPTY;
	CHECK_RES(CUDA_SUCCESS, cuGraphAddNode(&b, g, NULL, NULL, 0, &np));
	CHECK_RES(CUDA_SUCCESS, cuGraphInstantiate(&ge, g, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32Async(cnt, 0, 1, strm));
	CHECK_RES(CUDA_SUCCESS, cuGraphLaunch(ge, strm));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(strm));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&got, cnt, 4));
	CHECK(got == 42);
	CHECK_RES(CUDA_SUCCESS, cuGraphExecDestroy(ge));
	CHECK_RES(CUDA_SUCCESS, cuGraphDestroy(g));
}

/* A call the JIT cannot make a store of is refused with the PTX's line. */
static void bad_set_conditional(void)
{
	static const char bad[] =
		".version 8.0\n.target sm_75\n.address_size 64\n"
		".extern .func cudaGraphSetConditional(.param .b32 h, .param .b32 v);\n"
		".visible .entry k(.param .u32 h)\n{\n\t.reg .b32 %r<2>;\n"
		"\tld.param.u32 %r1, [h];\n"
		SETC32("%r1", "%r1")
		"\tret;\n}\n";
	char log[512] = "";
	CUjit_option opt[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *val[] = { log, (void *)(uintptr_t)sizeof(log) };
	CUmodule mod;

	setup();
	CHECK_RES(CUDA_ERROR_INVALID_PTX, cuModuleLoadDataEx(&mod, bad, 2, opt, val));
	printf("# %s\n", log);
	CHECK(strstr(log, "cudaGraphSetConditional") && !strncmp(log, "14:", 3));
}

static const struct tap_test tests[] = {
	TAP_TEST(handle_and_node_rules),
	TAP_TEST(while_counts),
	TAP_TEST(defaults_and_empty),
	TAP_TEST(if_else_and_switch),
	TAP_TEST(add_node_types),
	TAP_TEST(bad_set_conditional),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
