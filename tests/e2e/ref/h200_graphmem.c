/*
 * Probe of NVIDIA's graph memory accounting on a real GPU (issue 20's
 * reference): cuDeviceGetGraphMemAttribute's four values as a graph with
 * memory allocation nodes is built, instantiated, launched, freed and
 * destroyed, and after cuDeviceGraphMemTrim; which values
 * cuDeviceSetGraphMemAttribute resets and what it refuses; bad input to
 * all three. Output: one "name = value" per line. Not built by the tree:
 * it needs NVIDIA's cuda.h and libcuda. Run on a Hopper GPU (recorded on
 * an H200, CUDA 13) as  gcc h200_graphmem.c -I/usr/local/cuda/include
 * -lcuda && ./a.out ; its output is h200_graphmem.log.
 */
#include <cuda.h>
#include <stdio.h>
#include <string.h>

#define R(name, call) printf("%s = %d\n", name, (int)(call))

static const char *const attr_name[] = { "used", "used_high", "reserved", "reserved_high" };
static const CUgraphMem_attribute attrs[] = {
	CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, CU_GRAPH_MEM_ATTR_USED_MEM_HIGH,
	CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT, CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH,
};

static void show(const char *when)
{
	cuuint64_t v;
	int i, r;

	for (i = 0; i < 4; i++) {
		v = 12345;
		r = cuDeviceGetGraphMemAttribute(0, attrs[i], &v);
		printf("%s: %s = %d %llu\n", when, attr_name[i], r, (unsigned long long)v);
	}
}

static CUgraph alloc_graph(size_t bytes, int with_free, CUdeviceptr *p)
{
	CUDA_MEM_ALLOC_NODE_PARAMS ap;
	CUgraphNode a, f;
	CUgraph g;

	memset(&ap, 0, sizeof(ap));
	ap.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	ap.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	ap.poolProps.location.id = 0;
	ap.bytesize = bytes;
	cuGraphCreate(&g, 0);
	R("add alloc node", cuGraphAddMemAllocNode(&a, g, NULL, 0, &ap));
	*p = ap.dptr;
	if (with_free)
		R("add free node", cuGraphAddMemFreeNode(&f, g, &a, 1, ap.dptr));
	return g;
}

int main(int argc, char **argv)
{
	CUgraphExec e1, e2;
	CUdeviceptr p1, p2;
	CUcontext ctx;
	CUstream s;
	cuuint64_t v = 0;
	CUgraph g1, g2;

	(void)argc;
	(void)argv;
	cuInit(0);
	cuDevicePrimaryCtxRetain(&ctx, 0);
	cuCtxSetCurrent(ctx);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);

	R("get bad device", cuDeviceGetGraphMemAttribute(99, attrs[0], &v));
	R("get -1 device", cuDeviceGetGraphMemAttribute(-1, attrs[0], &v));
	R("get null value", cuDeviceGetGraphMemAttribute(0, attrs[0], NULL));
	R("get bad attr", cuDeviceGetGraphMemAttribute(0, (CUgraphMem_attribute)99, &v));
	R("set bad device", cuDeviceSetGraphMemAttribute(99, attrs[1], &v));
	R("set null value", cuDeviceSetGraphMemAttribute(0, attrs[1], NULL));
	R("set bad attr", cuDeviceSetGraphMemAttribute(0, (CUgraphMem_attribute)99, &v));
	v = 0;
	R("set used current", cuDeviceSetGraphMemAttribute(0, attrs[0], &v));
	R("set reserved current", cuDeviceSetGraphMemAttribute(0, attrs[2], &v));
	v = 5;
	R("set used high 5", cuDeviceSetGraphMemAttribute(0, attrs[1], &v));
	R("set reserved high 5", cuDeviceSetGraphMemAttribute(0, attrs[3], &v));
	R("trim bad device", cuDeviceGraphMemTrim(99));
	R("trim -1 device", cuDeviceGraphMemTrim(-1));
	show("start");

	g1 = alloc_graph(1 << 20, 0, &p1);
	show("after add 1 MiB");
	R("instantiate", cuGraphInstantiate(&e1, g1, 0));
	show("after instantiate");
	R("upload", cuGraphUpload(e1, s));
	R("sync", cuStreamSynchronize(s));
	show("after upload");
	R("launch", cuGraphLaunch(e1, s));
	R("sync", cuStreamSynchronize(s));
	show("after launch");
	R("free async", cuMemFreeAsync(p1, s));
	R("sync", cuStreamSynchronize(s));
	show("after free");
	R("trim", cuDeviceGraphMemTrim(0));
	show("after trim");

	g2 = alloc_graph(3 << 20, 1, &p2);
	R("instantiate 2", cuGraphInstantiate(&e2, g2, 0));
	show("after instantiate 3 MiB alloc+free");
	R("launch 2", cuGraphLaunch(e2, s));
	R("sync", cuStreamSynchronize(s));
	show("after launch 3 MiB alloc+free");
	R("trim", cuDeviceGraphMemTrim(0));
	show("after trim 2");
	v = 0;
	R("set used high 0", cuDeviceSetGraphMemAttribute(0, attrs[1], &v));
	show("after reset used high");
	R("set reserved high 0", cuDeviceSetGraphMemAttribute(0, attrs[3], &v));
	show("after reset reserved high");
	R("exec destroy 1", cuGraphExecDestroy(e1));
	R("exec destroy 2", cuGraphExecDestroy(e2));
	show("after exec destroy");
	R("graph destroy 1", cuGraphDestroy(g1));
	R("graph destroy 2", cuGraphDestroy(g2));
	show("after graph destroy");
	R("trim", cuDeviceGraphMemTrim(0));
	show("after trim 3");

	/* How allocations share the pool's chunks, and what trim keeps. */
	{
		CUgraph ga, gb, gc;
		CUgraphExec ea, eb, ec;
		CUdeviceptr pa, pb, pc;

		ga = alloc_graph(1 << 20, 0, &pa);
		gb = alloc_graph(1 << 20, 0, &pb);
		R("instantiate a", cuGraphInstantiate(&ea, ga, 0));
		R("instantiate b", cuGraphInstantiate(&eb, gb, 0));
		R("launch a", cuGraphLaunch(ea, s));
		R("sync", cuStreamSynchronize(s));
		show("two 1 MiB graphs, a launched");
		R("launch b", cuGraphLaunch(eb, s));
		R("sync", cuStreamSynchronize(s));
		show("two 1 MiB graphs, both launched");
		R("trim", cuDeviceGraphMemTrim(0));
		show("two live 1 MiB, after trim");
		R("exec destroy a", cuGraphExecDestroy(ea));
		show("a's exec destroyed, its memory live");
		R("free a", cuMemFreeAsync(pa, s));
		R("free b", cuMemFreeAsync(pb, s));
		R("sync", cuStreamSynchronize(s));
		show("both freed");
		R("trim", cuDeviceGraphMemTrim(0));
		show("both freed, after trim");
		R("exec destroy b", cuGraphExecDestroy(eb));
		cuGraphDestroy(ga);
		cuGraphDestroy(gb);
		gc = alloc_graph(40 << 20, 1, &pc);
		R("instantiate c", cuGraphInstantiate(&ec, gc, 0));
		R("launch c", cuGraphLaunch(ec, s));
		R("sync", cuStreamSynchronize(s));
		show("40 MiB alloc+free launched");
		R("launch c again", cuGraphLaunch(ec, s));
		R("sync", cuStreamSynchronize(s));
		show("40 MiB alloc+free launched twice");
		R("exec destroy c", cuGraphExecDestroy(ec));
		show("40 MiB exec destroyed");
		R("trim", cuDeviceGraphMemTrim(0));
		show("40 MiB, after trim");
		cuGraphDestroy(gc);

		/* cuMemFree of graph memory, and the graph launched again. */
		ga = alloc_graph(1 << 20, 0, &pa);
		R("instantiate d", cuGraphInstantiate(&ea, ga, 0));
		R("launch d", cuGraphLaunch(ea, s));
		R("sync", cuStreamSynchronize(s));
		show("1 MiB launched for cuMemFree");
		R("memset d", cuMemsetD32(pa, 7, 1));
		R("mem free d", cuMemFree(pa));
		show("after cuMemFree");
		R("launch d again", cuGraphLaunch(ea, s));
		R("sync", cuStreamSynchronize(s));
		show("launched again after cuMemFree");
		R("mem free d again", cuMemFree(pa));
		R("trim", cuDeviceGraphMemTrim(0));
		show("after cuMemFree and trim");
		R("exec destroy d", cuGraphExecDestroy(ea));
		cuGraphDestroy(ga);
	}
	return 0;
}
