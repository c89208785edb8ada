/*
 * Probe of NVIDIA's stream capture on a real GPU (issue 20's reference):
 * what capture makes of the stream-ordered calls tests/e2e/ref/
 * h200_capture.c left out: stream callbacks, prefetches and discards of
 * managed memory, cooperative launches (both ways), attaching managed
 * memory, cuMemcpyAsync between every kind of memory, peer copies. For
 * each, in a capture of its own: the call's answer, whether the stream still captures, what ending
 * the capture answers and the graph's nodes. Not built by the tree as is:
 * tests/e2e/capture_misc_api.c runs it on vgpu and holds its output to
 * the H200's. Recorded on an H200 (CUDA 13, driver 580) as
 *   gcc h200_capture_misc.c -I/usr/local/cuda/include -lcuda && ./a.out
 * its output is h200_capture_misc.log.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .entry k(.param .u64 p)\n{\n"
	"\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<2>;\n"
	"\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
	"\tmov.u32 %r1, 7;\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";

static CUstream s;
static CUgraph g;

static void cb(CUstream st, CUresult status, void *data)
{
	(void)st;
	(void)status;
	(void)data;
}

static void begin(void)
{
	CUresult r = cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_GLOBAL);

	if (r)
		printf("begin = %d\n", (int)r);
}

/* The answer of the call @what made, then the capture's state and end. */
static void after(const char *what, CUresult rc)
{
	CUstreamCaptureStatus st = CU_STREAM_CAPTURE_STATUS_NONE;
	CUgraphNode nodes[8];
	size_t n = 8, i;
	char types[64] = "";
	CUresult r;

	printf("%s = %d\n", what, (int)rc);
	cuStreamIsCapturing(s, &st);
	printf("%s status = %d\n", what, (int)st);
	g = NULL;
	r = cuStreamEndCapture(s, &g);
	printf("%s end = %d\n", what, (int)r);
	if (r || !g)
		return;
	r = cuGraphGetNodes(g, nodes, &n);
	for (i = 0; !r && i < n && i < 8; i++) {
		CUgraphNodeType t;

		cuGraphNodeGetType(nodes[i], &t);
		snprintf(types + strlen(types), sizeof(types) - strlen(types), "%s%d",
			 i ? "," : "", (int)t);
	}
	printf("%s nodes = %zu [%s]\n", what, n, types);
	if (n == 1) {
		CUgraphNodeType t;

		cuGraphNodeGetType(nodes[0], &t);
		if (t == CU_GRAPH_NODE_TYPE_KERNEL) {
			CUlaunchAttributeValue v;

			memset(&v, 0, sizeof(v));
			r = cuGraphKernelNodeGetAttribute(nodes[0],
							  CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &v);
			printf("%s cooperative = %d %d\n", what, (int)r, v.cooperative);
		} else if (t == CU_GRAPH_NODE_TYPE_MEMCPY) {
			CUDA_MEMCPY3D p;

			memset(&p, 0, sizeof(p));
			r = cuGraphMemcpyNodeGetParams(nodes[0], &p);
			printf("%s copy = %d kinds %d %d width %zu\n", what, (int)r,
			       (int)p.srcMemoryType, (int)p.dstMemoryType, p.WidthInBytes);
		}
	}
	cuGraphDestroy(g);
}

int main(int argc, char **argv)
{
	CUdevice d;
	CUcontext c;
	CUmodule m;
	CUfunction k;
	CUdeviceptr man, dev, dev2, dptrs[1];
	size_t sizes[1], idx[1] = { 0 };
	CUmemLocation loc;
	char *h1 = malloc(256), *h2 = malloc(256);
	void *args[1];
	CUlaunchConfig cfg;
	CUlaunchAttribute attr;

	(void)argc;
	(void)argv;
	setvbuf(stdout, NULL, _IONBF, 0);
	cuInit(0);
	cuDeviceGet(&d, 0);
	cuCtxCreate(&c, NULL, 0, d);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	if (cuModuleLoadData(&m, ptx) || cuModuleGetFunction(&k, m, "k")) {
		printf("no kernel\n");
		return 1;
	}
	cuMemAllocManaged(&man, 1 << 16, CU_MEM_ATTACH_GLOBAL);
	cuMemAlloc(&dev, 256);
	cuMemAlloc(&dev2, 256);
	args[0] = &dev;
	memset(&loc, 0, sizeof(loc));
	loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
	loc.id = d;

	begin();
	after("callback", cuStreamAddCallback(s, cb, NULL, 0));

	begin();
	after("prefetch", cuMemPrefetchAsync(man, 1 << 16, loc, 0, s));

	begin();
	loc.type = CU_MEM_LOCATION_TYPE_HOST;
	loc.id = 0;
	after("prefetch to host", cuMemPrefetchAsync(man, 1 << 16, loc, 0, s));
	loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
	loc.id = d;

	dptrs[0] = man;
	sizes[0] = 1 << 16;
	begin();
	after("prefetch batch", cuMemPrefetchBatchAsync(dptrs, sizes, 1, &loc, idx, 1, 0, s));

	begin();
	after("discard batch", cuMemDiscardBatchAsync(dptrs, sizes, 1, 0, s));

	begin();
	after("discard and prefetch batch",
	      cuMemDiscardAndPrefetchBatchAsync(dptrs, sizes, 1, &loc, idx, 1, 0, s));

	begin();
	after("attach", cuStreamAttachMemAsync(s, man, 0, CU_MEM_ATTACH_SINGLE));

	begin();
	after("cooperative", cuLaunchCooperativeKernel(k, 1, 1, 1, 1, 1, 1, 0, s, args));

	memset(&cfg, 0, sizeof(cfg));
	cfg.gridDimX = cfg.gridDimY = cfg.gridDimZ = 1;
	cfg.blockDimX = cfg.blockDimY = cfg.blockDimZ = 1;
	cfg.hStream = s;
	cfg.attrs = &attr;
	cfg.numAttrs = 1;
	memset(&attr, 0, sizeof(attr));
	attr.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
	attr.value.cooperative = 1;
	begin();
	after("cooperative ex", cuLaunchKernelEx(&cfg, k, args, NULL));

	begin();
	after("host to host", cuMemcpyAsync((CUdeviceptr)h2, (CUdeviceptr)h1, 256, s));

	begin();
	after("host to host htod", cuMemcpyHtoDAsync(dev, h1, 256, s));

	begin();
	after("peer", cuMemcpyPeerAsync(dev2, c, dev, c, 256, s));

	begin();
	after("managed to device", cuMemcpyAsync(dev, man, 256, s));

	begin();
	after("device to device", cuMemcpyAsync(dev2, dev, 256, s));

	begin();
	after("device to host", cuMemcpyAsync((CUdeviceptr)h1, dev, 256, s));

	/* A captured copy between host memories, launched. */
	{
		CUgraphExec x;
		CUresult r;

		memset(h1, 5, 256);
		memset(h2, 0, 256);
		begin();
		r = cuMemcpyAsync((CUdeviceptr)h2, (CUdeviceptr)h1, 256, s);
		g = NULL;
		if (!r)
			r = cuStreamEndCapture(s, &g);
		if (!r)
			r = cuGraphInstantiate(&x, g, 0);
		if (!r)
			r = cuGraphLaunch(x, s);
		if (!r)
			r = cuStreamSynchronize(s);
		printf("host to host launched = %d: %d %d\n", (int)r, h2[0], h2[255]);
	}

	cuStreamSynchronize(s);
	printf("done\n");
	return 0;
}
