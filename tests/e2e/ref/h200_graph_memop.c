/*
 * Probe of NVIDIA's batch memory operation graph nodes on a real GPU
 * (issue 20's reference): what cuGraphAddBatchMemOpNode accepts and
 * refuses, what the parameters read back name, setting them in a graph
 * and in an executable graph, the node through cuGraphAddNode and the
 * SetParams of the union, and what stream capture makes of batches,
 * waits and writes. Not built by the tree as is: tests/e2e/graph_memop_api.c
 * runs it on vgpu and holds its output to the H200's. Recorded on an H200
 * (CUDA 13, driver 580) as
 *   gcc h200_graph_memop.c -I/usr/local/cuda/include -lcuda && ./a.out
 * its output is h200_graph_memop.log.
 */
#include <cuda.h>
#include <stdio.h>
#include <string.h>
#define R(name, call) printf("%s = %d\n", name, (int)(call))
int main(int argc, char **argv)
{
	CUdevice d; CUcontext c; CUgraph g; CUgraphNode n, e, k2, bad; CUgraphExec x; CUstream s;
	CUdeviceptr p; unsigned int v = 0;
	CUstreamBatchMemOpParams ops[2];
	CUDA_BATCH_MEM_OP_NODE_PARAMS bp, gp;
	(void)argc;
	(void)argv;
	setvbuf(stdout, NULL, _IONBF, 0);
	cuInit(0); cuDeviceGet(&d, 0); cuCtxCreate(&c, NULL, 0, d); cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuMemAlloc(&p, 64); cuMemsetD8(p, 0, 64); cuGraphCreate(&g, 0);
	/* The fill is on the legacy stream, which s (non-blocking) does not wait for. */
	cuCtxSynchronize();
	memset(ops, 0, sizeof(ops));
	ops[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32; ops[0].writeValue.address = p; ops[0].writeValue.value = 5;
	ops[1].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32; ops[1].writeValue.address = p + 4; ops[1].writeValue.value = 6;
	memset(&bp, 0, sizeof(bp)); bp.ctx = c; bp.count = 1; bp.paramArray = ops; bp.flags = 0;
	R("add", cuGraphAddBatchMemOpNode(&n, g, NULL, 0, &bp));
	CUDA_BATCH_MEM_OP_NODE_PARAMS b2 = bp;
	b2.count = 0; R("add count 0", cuGraphAddBatchMemOpNode(&bad, g, NULL, 0, &b2));
	b2 = bp; b2.paramArray = NULL; R("add NULL array", cuGraphAddBatchMemOpNode(&bad, g, NULL, 0, &b2));
	b2 = bp; b2.flags = 1; R("add flags 1", cuGraphAddBatchMemOpNode(&bad, g, NULL, 0, &b2));
	b2 = bp; b2.ctx = NULL; R("add NULL ctx", cuGraphAddBatchMemOpNode(&bad, g, NULL, 0, &b2));
	CUstreamBatchMemOpParams badop; memset(&badop, 0, sizeof(badop)); badop.operation = (CUstreamBatchMemOpType)99;
	b2 = bp; b2.paramArray = &badop; R("add bad op", cuGraphAddBatchMemOpNode(&bad, g, NULL, 0, &b2));
	R("add NULL params", cuGraphAddBatchMemOpNode(&bad, g, NULL, 0, NULL));
	R("add NULL out", cuGraphAddBatchMemOpNode(NULL, g, NULL, 0, &bp));
	R("add NULL graph", cuGraphAddBatchMemOpNode(&bad, NULL, NULL, 0, &bp));
	CUstreamBatchMemOpParams many[256]; memset(many, 0, sizeof(many));
	for (int i = 0; i < 256; i++) { many[i].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32; many[i].writeValue.address = p; }
	b2 = bp; b2.paramArray = many; b2.count = 256; R("add count 256", cuGraphAddBatchMemOpNode(&bad, g, NULL, 0, &b2));
	b2.count = 255; R("add count 255", cuGraphAddBatchMemOpNode(&bad, g, NULL, 0, &b2));
	if (!cuGraphDestroyNode(bad)) printf("destroyed 255\n");
	size_t cnt = 0; cuGraphGetNodes(g, NULL, &cnt); printf("nodes = %zu\n", cnt);
	memset(&gp, 0, sizeof(gp));
	R("get", cuGraphBatchMemOpNodeGetParams(n, &gp));
	printf("get count %u flags %u ctx same %d array is callers %d value %u\n", gp.count, gp.flags, gp.ctx == c, gp.paramArray == ops, gp.paramArray ? gp.paramArray[0].writeValue.value : 0);
	ops[0].writeValue.value = 55;
	memset(&gp, 0, sizeof(gp)); cuGraphBatchMemOpNodeGetParams(n, &gp);
	printf("after the caller's array changed: value %u\n", gp.paramArray ? gp.paramArray[0].writeValue.value : 0);
	ops[0].writeValue.value = 5;
	R("get NULL", cuGraphBatchMemOpNodeGetParams(n, NULL));
	cuGraphAddEmptyNode(&e, g, &n, 1);
	R("get on empty", cuGraphBatchMemOpNodeGetParams(e, &gp));
	b2 = bp; ops[0].writeValue.value = 7; R("set", cuGraphBatchMemOpNodeSetParams(n, &b2));
	R("set on empty", cuGraphBatchMemOpNodeSetParams(e, &b2));
	b2.flags = 2; R("set flags 2", cuGraphBatchMemOpNodeSetParams(n, &b2)); b2.flags = 0;
	R("instantiate", cuGraphInstantiate(&x, g, 0));
	R("launch", cuGraphLaunch(x, s)); cuStreamSynchronize(s);
	cuMemcpyDtoH(&v, p, 4); printf("value after launch = %u\n", v);
	ops[0].writeValue.value = 9; R("exec set", cuGraphExecBatchMemOpNodeSetParams(x, n, &b2));
	R("launch", cuGraphLaunch(x, s)); cuStreamSynchronize(s);
	cuMemcpyDtoH(&v, p, 4); printf("value after exec set = %u\n", v);
	b2.count = 2; R("exec set count 2", cuGraphExecBatchMemOpNodeSetParams(x, n, &b2));
	R("launch", cuGraphLaunch(x, s)); cuStreamSynchronize(s);
	unsigned int w[2]; cuMemcpyDtoH(w, p, 8); printf("values after count 2 = %u %u\n", w[0], w[1]);
	b2.count = 1; R("exec set on empty", cuGraphExecBatchMemOpNodeSetParams(x, e, &b2));
	R("exec set NULL", cuGraphExecBatchMemOpNodeSetParams(x, n, NULL));
	/* the union */
	CUgraphNodeParams np; memset(&np, 0, sizeof(np)); np.type = CU_GRAPH_NODE_TYPE_BATCH_MEM_OP; np.memOp.ctx = c; np.memOp.count = 1; np.memOp.paramArray = ops;
	R("add node union", cuGraphAddNode(&k2, g, NULL, NULL, 0, &np));
	R("node set params union", cuGraphNodeSetParams(n, &np));
	R("exec set params union", cuGraphExecNodeSetParams(x, n, &np));
	/* capture */
	CUgraph cg; CUgraphNode cn[4]; CUgraphNodeType t;
	R("begin", cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL));
	R("capture batch", cuStreamBatchMemOp(s, 1, ops, 0));
	R("capture write32", cuStreamWriteValue32(s, p, 3, 0));
	R("capture wait32", cuStreamWaitValue32(s, p, 3, CU_STREAM_WAIT_VALUE_GEQ));
	R("end", cuStreamEndCapture(s, &cg));
	cnt = 4; if (cg && !cuGraphGetNodes(cg, cn, &cnt)) { printf("captured nodes %zu types", cnt); for (size_t i = 0; i < cnt; i++) { cuGraphNodeGetType(cn[i], &t); printf(" %d", t); } printf("\n"); }
	if (cg && cnt) { memset(&gp, 0, sizeof(gp)); R("captured get", cuGraphBatchMemOpNodeGetParams(cn[0], &gp)); printf("captured count %u flags %u ctx same %d\n", gp.count, gp.flags, gp.ctx == c); }
	return 0;
}
