/*
 * Probe of NVIDIA's external semaphores on a real GPU (issue 20's
 * reference for the semaphore graph nodes). No graphics driver lends a
 * semaphore here, but NVIDIA's driver imports the descriptor of exported
 * device memory as either kind of semaphore, and the memory, mapped too,
 * shows what signals and waits write. Probed: cuImportExternalSemaphore of
 * each handle type and of descriptors that are no semaphore (and whether
 * the call keeps the descriptor), cuDestroyExternalSemaphore, the signal
 * and wait calls (bad arguments, contexts, what a binary and a timeline
 * semaphore do), the two graph node types (empty and not: parameters,
 * executable graphs' updates, cuGraphDebugDotPrint) and capture of the
 * calls. A null semaphore in an array is not probed: NVIDIA's driver
 * dereferences it. Output: one "name = value" per line. Not built by the
 * tree: it needs NVIDIA's cuda.h and libcuda. Run on a Hopper GPU
 * (recorded on an H200, CUDA 13) as  gcc h200_extsem.c
 * -I/usr/local/cuda/include -lcuda && ./a.out ; its output is
 * h200_extsem.log, which tests/e2e/extsem_api.c holds vgpu to. A
 * directory for its files may be its argument.
 */
#include <cuda.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#define R(name, call) printf("%s = %d\n", name, (int)(call))

static int mem_fd(void)
{
	CUmemGenericAllocationHandle h;
	CUmemAllocationProp p;
	size_t g = 0;
	int fd = -1;

	memset(&p, 0, sizeof(p));
	p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	cuMemGetAllocationGranularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
	if (cuMemCreate(&h, g, &p, 0) ||
	    cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0))
		return -1;
	cuMemRelease(h);
	return fd;
}

static void import_fd(const char *name, int type, int fd, unsigned int flags)
{
	CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;
	CUexternalSemaphore s = (CUexternalSemaphore)0x1234;
	char n[128];
	int r;

	memset(&d, 0, sizeof(d));
	d.type = type;
	d.handle.fd = fd;
	d.flags = flags;
	r = cuImportExternalSemaphore(&s, &d);
	printf("import %s = %d%s\n", name, r,
	       s == (CUexternalSemaphore)0x1234 ? " (out untouched)" : "");
	if (fd >= 0) {
		snprintf(n, sizeof(n), "import %s: fd still open", name);
		R(n, fcntl(fd, F_GETFD) != -1);
	}
	if (!r)
		R("destroy it", cuDestroyExternalSemaphore(s));
}

static char dot1[512], dot2[512];

static void nodes(CUstream st)
{
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp[1];
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp[1];
	CUDA_EXT_SEM_SIGNAL_NODE_PARAMS sn, sg;
	CUDA_EXT_SEM_WAIT_NODE_PARAMS wn, wg;
	CUgraphNodeParams np;
	CUgraphNode a = NULL, b = NULL, c = NULL, k = NULL;
	CUgraphNodeType t;
	CUexternalSemaphore none[1] = { NULL };
	CUgraphExec e;
	CUgraph g, cg;
	CUstreamCaptureStatus cs;
	size_t n;
	int r;

	memset(sp, 0, sizeof(sp));
	memset(wp, 0, sizeof(wp));
	cuGraphCreate(&g, 0);
	memset(&sn, 0, sizeof(sn));
	memset(&wn, 0, sizeof(wn));
	R("add signal null params", cuGraphAddExternalSemaphoresSignalNode(&a, g, NULL, 0, NULL));
	R("add wait null params", cuGraphAddExternalSemaphoresWaitNode(&a, g, NULL, 0, NULL));
	R("add signal null node", cuGraphAddExternalSemaphoresSignalNode(NULL, g, NULL, 0, &sn));
	R("add signal null graph", cuGraphAddExternalSemaphoresSignalNode(&a, NULL, NULL, 0, &sn));
	memset(&sn, 0, sizeof(sn));
	memset(&wn, 0, sizeof(wn));
	a = NULL;
	R("add signal 0 sems", r = cuGraphAddExternalSemaphoresSignalNode(&a, g, NULL, 0, &sn));
	R("add wait 0 sems", cuGraphAddExternalSemaphoresWaitNode(&b, g, a ? &a : NULL, a ? 1 : 0, &wn));
	sn.extSemArray = none;
	sn.paramsArray = sp;
	R("add signal 0 sems with arrays", cuGraphAddExternalSemaphoresSignalNode(&c, g, NULL, 0, &sn));
	memset(&np, 0, sizeof(np));
	np.type = CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL;
	R("addnode signal 0 sems", cuGraphAddNode(&k, g, NULL, NULL, 0, &np));
	np.type = CU_GRAPH_NODE_TYPE_EXT_SEMAS_WAIT;
	R("addnode wait 0 sems", cuGraphAddNode(&k, g, NULL, NULL, 0, &np));
	if (a) {
		R("type of signal", cuGraphNodeGetType(a, &t));
		printf("signal type = %d\n", (int)t);
		memset(&sg, 0x5a, sizeof(sg));
		R("get signal params", cuGraphExternalSemaphoresSignalNodeGetParams(a, &sg));
		printf("signal params: num %u arrays %d %d\n", sg.numExtSems,
		       sg.extSemArray != NULL, sg.paramsArray != NULL);
		R("get signal null out", cuGraphExternalSemaphoresSignalNodeGetParams(a, NULL));
		R("get signal as wait", cuGraphExternalSemaphoresWaitNodeGetParams(a, &wg));
		R("set signal null", cuGraphExternalSemaphoresSignalNodeSetParams(a, NULL));
		memset(&sn, 0, sizeof(sn));
		R("set signal 0", cuGraphExternalSemaphoresSignalNodeSetParams(a, &sn));
		memset(&np, 0, sizeof(np));
		np.type = CU_GRAPH_NODE_TYPE_EXT_SEMAS_SIGNAL;
		R("nodesetparams signal 0", cuGraphNodeSetParams(a, &np));
	}
	if (b) {
		memset(&wg, 0x5a, sizeof(wg));
		R("get wait params", cuGraphExternalSemaphoresWaitNodeGetParams(b, &wg));
		printf("wait params: num %u arrays %d %d\n", wg.numExtSems,
		       wg.extSemArray != NULL, wg.paramsArray != NULL);
		R("get wait as signal", cuGraphExternalSemaphoresSignalNodeGetParams(b, &sg));
	}
	n = 0;
	cuGraphGetNodes(g, NULL, &n);
	printf("nodes = %zu\n", n);
	R("dot print", cuGraphDebugDotPrint(g, dot1, CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE |
			CU_GRAPH_DEBUG_DOT_FLAGS_EXT_SEMAS_SIGNAL_NODE_PARAMS |
			CU_GRAPH_DEBUG_DOT_FLAGS_EXT_SEMAS_WAIT_NODE_PARAMS));
	r = cuGraphInstantiate(&e, g, 0);
	R("instantiate", r);
	if (!r) {
		R("launch", cuGraphLaunch(e, st));
		R("sync", cuStreamSynchronize(st));
		if (a) {
			memset(&sn, 0, sizeof(sn));
			R("exec set signal 0", cuGraphExecExternalSemaphoresSignalNodeSetParams(e, a, &sn));
			R("exec set signal null", cuGraphExecExternalSemaphoresSignalNodeSetParams(e, a, NULL));
			R("exec set wait on signal node", cuGraphExecExternalSemaphoresWaitNodeSetParams(e, a, &wn));
		}
		cuGraphExecDestroy(e);
	}
	cuGraphDestroy(g);

	/* Capture of the two calls, with no semaphore and with a null one. */
	R("begin capture", cuStreamBeginCapture(st, CU_STREAM_CAPTURE_MODE_GLOBAL));
	R("captured signal 0", cuSignalExternalSemaphoresAsync(NULL, NULL, 0, st));
	R("captured wait 0", cuWaitExternalSemaphoresAsync(NULL, NULL, 0, st));
	R("capture status", cuStreamIsCapturing(st, &cs));
	printf("capture status value = %d\n", (int)cs);
	r = cuStreamEndCapture(st, &cg);
	R("end capture", r);
	if (!r) {
		n = 0;
		cuGraphGetNodes(cg, NULL, &n);
		printf("captured nodes = %zu\n", n);
		cuGraphDestroy(cg);
	}
}

/* Polls @st for up to 2 s: 0 once its work is done, 600 while it waits. */
static int settle(CUstream st)
{
	int i, r = 0;

	for (i = 0; i < 200; i++) {
		r = cuStreamQuery(st);
		if (r != CUDA_ERROR_NOT_READY)
			return r;
		usleep(10000);
	}
	return r;
}

/*
 * The semaphore's memory: its value, whether the time after it is set and
 * whether it moved since the last look, and the next two words.
 */
static void show(const char *when, volatile unsigned long long *w)
{
	static unsigned long long last;

	printf("%s: value %llx time %s, then %llx %llx\n", when, w[0],
	       !w[1] ? "unset" : w[1] == last ? "unmoved" : "moved", w[2], w[3]);
	last = w[1];
}

/* A semaphore imported from memory's descriptor, and what its calls do. */
static void real(CUstream st, CUstream st2)
{
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp[2];
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp[2];
	CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;
	CUDA_EXT_SEM_SIGNAL_NODE_PARAMS sn, sg;
	CUDA_EXT_SEM_WAIT_NODE_PARAMS wn, wg;
	CUgraphExecUpdateResultInfo info;
	CUmemGenericAllocationHandle h;
	CUexternalSemaphore sem[2];
	CUmemAccessDesc acc;
	CUgraphNode a, b, n2[4];
	CUgraphNodeType t;
	CUgraphExec e;
	CUgraph g, g2, cg;
	CUcontext other, cur;
	CUdeviceptr va;
	unsigned long long *host;
	size_t n, gran = 2 << 20;
	int fd, fd2, r;

	host = NULL;
	fd = mem_fd();
	fd2 = dup(fd);
	memset(&d, 0, sizeof(d));
	d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
	d.handle.fd = fd;
	R("real import", cuImportExternalSemaphore(&sem[0], &d));
	d.handle.fd = mem_fd();
	R("real import 2", cuImportExternalSemaphore(&sem[1], &d));
	R("mem import", cuMemImportFromShareableHandle(&h, (void *)(long)fd2,
			CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	R("reserve", cuMemAddressReserve(&va, gran, 0, 0, 0));
	R("map", cuMemMap(va, gran, 0, h, 0));
	memset(&acc, 0, sizeof(acc));
	acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	R("access", cuMemSetAccess(va, gran, &acc, 1));
	cuMemAllocHost((void **)&host, 64);
	cuMemsetD8(va, 0, 64);
	cuMemcpyDtoH(host, va, 32);
	show("before", host);

	memset(sp, 0, sizeof(sp));
	memset(wp, 0, sizeof(wp));
	sp[0].params.fence.value = 7;
	R("signal", cuSignalExternalSemaphoresAsync(sem, sp, 1, st));
	R("signal sync", cuStreamSynchronize(st));
	cuMemcpyDtoH(host, va, 32);
	show("after signal", host);
	R("wait", cuWaitExternalSemaphoresAsync(sem, wp, 1, st));
	R("wait settles", settle(st));
	cuMemcpyDtoH(host, va, 32);
	show("after wait", host);
	R("second wait", cuWaitExternalSemaphoresAsync(sem, wp, 1, st));
	R("second wait settles", settle(st));
	R("signal on other stream", cuSignalExternalSemaphoresAsync(sem, sp, 1, st2));
	R("second wait settles after signal", settle(st));
	R("two signals", cuSignalExternalSemaphoresAsync(sem, sp, 1, st));
	R("two signals 2", cuSignalExternalSemaphoresAsync(sem, sp, 1, st));
	R("wait after two", cuWaitExternalSemaphoresAsync(sem, wp, 1, st));
	R("wait after two settles", settle(st));
	R("wait again after two", cuWaitExternalSemaphoresAsync(sem, wp, 1, st));
	R("wait again after two settles", settle(st));
	if (settle(st) == CUDA_ERROR_NOT_READY) {
		cuSignalExternalSemaphoresAsync(sem, sp, 1, st2);
		R("unblocked", settle(st));
	}
	sp[0].flags = 1;
	R("signal flags 1", cuSignalExternalSemaphoresAsync(sem, sp, 1, st));
	sp[0].flags = 2;
	R("signal flags 2", cuSignalExternalSemaphoresAsync(sem, sp, 1, st));
	sp[0].flags = 0;
	sp[0].reserved[0] = 1;
	R("signal reserved", cuSignalExternalSemaphoresAsync(sem, sp, 1, st));
	sp[0].reserved[0] = 0;
	wp[0].flags = 2;
	R("wait flags 2", cuWaitExternalSemaphoresAsync(sem, wp, 1, st));
	R("wait flags 2 settles", settle(st));
	wp[0].flags = 1;
	R("wait flags 1", cuWaitExternalSemaphoresAsync(sem, wp, 1, st));
	wp[0].flags = 0;
	R("signal two sems", cuSignalExternalSemaphoresAsync(sem, sp, 2, st));
	R("wait two sems", cuWaitExternalSemaphoresAsync(sem, wp, 2, st));
	R("wait two sems settles", settle(st));
	R("signal null stream", cuSignalExternalSemaphoresAsync(sem, sp, 1, NULL));
	R("ctx sync", cuCtxSynchronize());

	cuCtxGetCurrent(&cur);
	cuCtxCreate(&other, NULL, 0, 0);
	R("signal from other context null stream", cuSignalExternalSemaphoresAsync(sem, sp, 1, NULL));
	R("other ctx sync", cuCtxSynchronize());
	R("signal from other context, stream of first", cuSignalExternalSemaphoresAsync(sem, sp, 1, st));
	cuCtxSetCurrent(cur);
	cuCtxDestroy(other);
	R("after other ctx sync", cuCtxSynchronize());

	/* Graph nodes with it. */
	cuGraphCreate(&g, 0);
	memset(&sn, 0, sizeof(sn));
	sp[0].params.fence.value = 5;
	sn.extSemArray = sem;
	sn.paramsArray = sp;
	sn.numExtSems = 2;
	R("add signal node", cuGraphAddExternalSemaphoresSignalNode(&a, g, NULL, 0, &sn));
	memset(&wn, 0, sizeof(wn));
	wn.extSemArray = sem;
	wn.paramsArray = wp;
	wn.numExtSems = 2;
	R("add wait node", cuGraphAddExternalSemaphoresWaitNode(&b, g, &a, 1, &wn));
	memset(&sg, 0, sizeof(sg));
	R("get signal params", cuGraphExternalSemaphoresSignalNodeGetParams(a, &sg));
	printf("signal params: num %u same arrays %d %d value %llu sems %d\n", sg.numExtSems,
	       sg.extSemArray == sem, sg.paramsArray == sp,
	       sg.paramsArray ? sg.paramsArray[0].params.fence.value : 0ULL,
	       sg.extSemArray ? sg.extSemArray[0] == sem[0] && sg.extSemArray[1] == sem[1] : -1);
	memset(&wg, 0, sizeof(wg));
	R("get wait params", cuGraphExternalSemaphoresWaitNodeGetParams(b, &wg));
	printf("wait params: num %u same arrays %d %d\n", wg.numExtSems,
	       wg.extSemArray == sem, wg.paramsArray == wp);
	R("dot print real", cuGraphDebugDotPrint(g, dot2, CU_GRAPH_DEBUG_DOT_FLAGS_VERBOSE));
	R("instantiate real", cuGraphInstantiate(&e, g, 0));
	R("launch real", cuGraphLaunch(e, st));
	R("launch real settles", settle(st));
	sn.numExtSems = 1;
	R("exec set signal 1 of 2", cuGraphExecExternalSemaphoresSignalNodeSetParams(e, a, &sn));
	sn.numExtSems = 2;
	sp[0].params.fence.value = 9;
	R("exec set signal value 9", cuGraphExecExternalSemaphoresSignalNodeSetParams(e, a, &sn));
	R("launch after set", cuGraphLaunch(e, st));
	R("launch after set settles", settle(st));
	sn.numExtSems = 0;
	R("exec set signal 0 of 2", cuGraphExecExternalSemaphoresSignalNodeSetParams(e, a, &sn));
	sn.numExtSems = 2;
	R("exec set wait on signal node", cuGraphExecExternalSemaphoresWaitNodeSetParams(e, a, &wn));
	R("exec set signal on wait node", cuGraphExecExternalSemaphoresSignalNodeSetParams(e, b, &sn));
	memset(&sg, 0, sizeof(sg));
	cuGraphExternalSemaphoresSignalNodeGetParams(a, &sg);
	printf("node value after exec set = %llu\n", sg.paramsArray ? sg.paramsArray[0].params.fence.value : 0ULL);

	/* cuGraphExecUpdate from a graph whose nodes differ. */
	cuGraphCreate(&g2, 0);
	sn.numExtSems = 1;
	cuGraphAddExternalSemaphoresSignalNode(&n2[0], g2, NULL, 0, &sn);
	wn.numExtSems = 2;
	cuGraphAddExternalSemaphoresWaitNode(&n2[1], g2, &n2[0], 1, &wn);
	memset(&info, 0, sizeof(info));
	R("update count change", cuGraphExecUpdate(e, g2, &info));
	printf("update result = %d\n", (int)info.result);
	cuGraphDestroy(g2);
	cuGraphCreate(&g2, 0);
	sn.numExtSems = 2;
	{
		CUexternalSemaphore tmp = sem[0];

		sem[0] = sem[1];
		sem[1] = tmp;
	}
	cuGraphAddExternalSemaphoresSignalNode(&n2[0], g2, NULL, 0, &sn);
	cuGraphAddExternalSemaphoresWaitNode(&n2[1], g2, &n2[0], 1, &wn);
	memset(&info, 0, sizeof(info));
	R("update other sems", cuGraphExecUpdate(e, g2, &info));
	printf("update result = %d\n", (int)info.result);
	cuGraphDestroy(g2);
	cuGraphCreate(&g2, 0);
	sp[0].params.fence.value = 11;
	cuGraphAddExternalSemaphoresSignalNode(&n2[0], g2, NULL, 0, &sn);
	cuGraphAddExternalSemaphoresWaitNode(&n2[1], g2, &n2[0], 1, &wn);
	memset(&info, 0, sizeof(info));
	R("update values", cuGraphExecUpdate(e, g2, &info));
	printf("update result = %d\n", (int)info.result);
	cuGraphDestroy(g2);
	cuGraphExecDestroy(e);
	cuGraphDestroy(g);
	cuStreamSynchronize(st);

	/* Capture. */
	R("begin capture real", cuStreamBeginCapture(st, CU_STREAM_CAPTURE_MODE_GLOBAL));
	R("captured signal", cuSignalExternalSemaphoresAsync(sem, sp, 1, st));
	R("captured wait", cuWaitExternalSemaphoresAsync(sem, wp, 2, st));
	r = cuStreamEndCapture(st, &cg);
	R("end capture real", r);
	if (!r) {
		n = 4;
		cuGraphGetNodes(cg, n2, &n);
		printf("captured nodes = %zu\n", n);
		for (size_t i = 0; i < n; i++) {
			cuGraphNodeGetType(n2[i], &t);
			printf("captured node %zu type %d\n", i, (int)t);
		}
		cuGraphDestroy(cg);
	}
	R("destroy real", cuDestroyExternalSemaphore(sem[0]));
	R("destroy real 2", cuDestroyExternalSemaphore(sem[1]));
	R("end sync", cuStreamSynchronize(st));
}

/* A timeline semaphore from memory's descriptor, and a binary one whose word the CPU set. */
static void timeline(CUstream st, CUstream st2)
{
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp;
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp;
	CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;
	CUmemGenericAllocationHandle h;
	CUexternalSemaphore sem, bin;
	CUmemAccessDesc acc;
	CUdeviceptr va;
	unsigned long long *host = NULL;
	size_t gran = 2 << 20;
	int fd, fd2;

	memset(&sp, 0, sizeof(sp));
	memset(&wp, 0, sizeof(wp));
	fd = mem_fd();
	fd2 = dup(fd);
	memset(&d, 0, sizeof(d));
	d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD;
	d.handle.fd = fd;
	R("timeline import", cuImportExternalSemaphore(&sem, &d));
	cuMemImportFromShareableHandle(&h, (void *)(long)fd2, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	cuMemAddressReserve(&va, gran, 0, 0, 0);
	cuMemMap(va, gran, 0, h, 0);
	memset(&acc, 0, sizeof(acc));
	acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	cuMemSetAccess(va, gran, &acc, 1);
	cuMemAllocHost((void **)&host, 64);
	cuMemsetD8(va, 0, 64);
	/* The fill is on the legacy stream, which st (non-blocking) does not wait for. */
	cuCtxSynchronize();
	sp.params.fence.value = 7;
	R("timeline signal 7", cuSignalExternalSemaphoresAsync(&sem, &sp, 1, st));
	R("timeline signal sync", cuStreamSynchronize(st));
	cuMemcpyDtoH(host, va, 32);
	show("timeline after signal 7", host);
	wp.params.fence.value = 5;
	R("timeline wait 5", cuWaitExternalSemaphoresAsync(&sem, &wp, 1, st));
	R("timeline wait 5 settles", settle(st));
	cuMemcpyDtoH(host, va, 32);
	show("timeline after wait 5", host);
	wp.params.fence.value = 7;
	R("timeline wait 7", cuWaitExternalSemaphoresAsync(&sem, &wp, 1, st));
	R("timeline wait 7 settles", settle(st));
	wp.params.fence.value = 9;
	R("timeline wait 9", cuWaitExternalSemaphoresAsync(&sem, &wp, 1, st));
	R("timeline wait 9 settles", settle(st));
	sp.params.fence.value = 9;
	R("timeline signal 9 other stream", cuSignalExternalSemaphoresAsync(&sem, &sp, 1, st2));
	R("timeline wait 9 settles after", settle(st));
	sp.params.fence.value = 3;
	R("timeline signal 3", cuSignalExternalSemaphoresAsync(&sem, &sp, 1, st));
	R("timeline signal 3 sync", cuStreamSynchronize(st));
	cuMemcpyDtoH(host, va, 32);
	show("timeline after signal 3", host);
	wp.params.fence.value = 0;
	R("timeline wait 0", cuWaitExternalSemaphoresAsync(&sem, &wp, 1, st));
	R("timeline wait 0 settles", settle(st));
	host[0] = 0x8000000000000005ULL;
	cuMemcpyHtoD(va, host, 8);
	wp.params.fence.value = 4;
	R("timeline wait 4 under top bit", cuWaitExternalSemaphoresAsync(&sem, &wp, 1, st));
	R("timeline wait 4 under top bit settles", settle(st));
	if (settle(st) == CUDA_ERROR_NOT_READY) {
		sp.params.fence.value = 100;
		cuSignalExternalSemaphoresAsync(&sem, &sp, 1, st2);
		R("timeline unblocked", settle(st));
	}
	sp.flags = 1;
	R("timeline signal flags 1", cuSignalExternalSemaphoresAsync(&sem, &sp, 1, st));
	sp.flags = 0;
	wp.reserved[0] = 1;
	R("timeline wait reserved", cuWaitExternalSemaphoresAsync(&sem, &wp, 1, st));
	wp.reserved[0] = 0;
	R("timeline destroy", cuDestroyExternalSemaphore(sem));

	/* Binary, with a word the CPU wrote. */
	fd = mem_fd();
	d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
	d.handle.fd = fd;
	R("binary import over timeline memory", cuImportExternalSemaphore(&bin, &d));
	R("binary wait unsignalled", cuWaitExternalSemaphoresAsync(&bin, &wp, 1, st2));
	R("binary wait unsignalled settles", settle(st2));
	if (settle(st2) == CUDA_ERROR_NOT_READY) {
		cuSignalExternalSemaphoresAsync(&bin, &sp, 1, st);
		R("binary unblocked", settle(st2));
	}
	R("binary destroy", cuDestroyExternalSemaphore(bin));
	fd = mem_fd();
	fd2 = dup(fd);
	d.handle.fd = fd;
	R("binary import 5", cuImportExternalSemaphore(&bin, &d));
	cuMemImportFromShareableHandle(&h, (void *)(long)fd2, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	cuMemAddressReserve(&va, gran, 0, 0, 0);
	cuMemMap(va, gran, 0, h, 0);
	cuMemSetAccess(va, gran, &acc, 1);
	host[0] = 5;
	host[1] = 0;
	cuMemcpyHtoD(va, host, 16);
	R("binary wait on 5", cuWaitExternalSemaphoresAsync(&bin, &wp, 1, st));
	R("binary wait on 5 settles", settle(st));
	cuMemcpyDtoH(host, va, 32);
	show("binary after wait on 5", host);
	if (settle(st) == CUDA_ERROR_NOT_READY) {
		cuSignalExternalSemaphoresAsync(&bin, &sp, 1, st2);
		R("binary 5 unblocked", settle(st));
	}
	host[0] = 2;
	cuMemcpyHtoD(va, host, 8);
	R("binary wait on 2", cuWaitExternalSemaphoresAsync(&bin, &wp, 1, st));
	R("binary wait on 2 settles", settle(st));
	cuMemcpyDtoH(host, va, 32);
	show("binary after wait on 2", host);
	if (settle(st) == CUDA_ERROR_NOT_READY) {
		cuSignalExternalSemaphoresAsync(&bin, &sp, 1, st2);
		R("binary 2 unblocked", settle(st));
	}
	R("binary destroy 5", cuDestroyExternalSemaphore(bin));
}

int main(int argc, char **argv)
{
	CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS sp[2];
	CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS wp[2];
	CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC d;
	CUexternalSemaphore s;
	CUcontext ctx;
	CUstream st, st2;
	int fd, p[2];
	FILE *f;
	char line[256];

	setvbuf(stdout, NULL, _IONBF, 0);
	snprintf(dot1, sizeof(dot1), "%s/extsem.dot", argc > 1 ? argv[1] : "/tmp");
	snprintf(dot2, sizeof(dot2), "%s/extsem2.dot", argc > 1 ? argv[1] : "/tmp");
	memset(&d, 0, sizeof(d));
	R("uninit import", cuImportExternalSemaphore(&s, &d));
	R("uninit signal", cuSignalExternalSemaphoresAsync(NULL, NULL, 0, NULL));
	R("uninit destroy", cuDestroyExternalSemaphore(NULL));
	cuInit(0);
	R("nocontext signal 0", cuSignalExternalSemaphoresAsync(NULL, NULL, 0, NULL));
	R("nocontext destroy null", cuDestroyExternalSemaphore(NULL));
	memset(&d, 0, sizeof(d));
	d.type = CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD;
	d.handle.fd = -1;
	R("nocontext import", cuImportExternalSemaphore(&s, &d));
	cuDevicePrimaryCtxRetain(&ctx, 0);
	cuCtxSetCurrent(ctx);
	cuStreamCreate(&st, CU_STREAM_NON_BLOCKING);
	memset(sp, 0, sizeof(sp));
	memset(wp, 0, sizeof(wp));

	R("import null out", cuImportExternalSemaphore(NULL, &d));
	R("import null desc", cuImportExternalSemaphore(&s, NULL));
	for (int t = 0; t <= 12; t++) {
		char n[64];

		snprintf(n, sizeof(n), "type %d fd -1", t);
		import_fd(n, t, -1, 0);
	}
	fd = open("/dev/null", O_RDWR);
	import_fd("opaque /dev/null", 1, fd, 0);
	import_fd("timeline /dev/null", 9, fd, 0);
	close(fd);
	fd = eventfd(0, 0);
	import_fd("opaque eventfd", 1, fd, 0);
	close(fd);
	if (pipe(p) == 0) {
		import_fd("opaque pipe", 1, p[0], 0);
		close(p[0]);
		close(p[1]);
	}
	fd = mem_fd();
	printf("memory fd = %d\n", fd >= 0);
	import_fd("opaque memory fd", 1, fd, 0);
	close(fd);
	fd = mem_fd();
	import_fd("timeline memory fd", 9, fd, 0);
	close(fd);
	fd = mem_fd();
	import_fd("opaque memory fd flags 1", 1, fd, 1);
	close(fd);
	import_fd("opaque fd 1000", 1, 1000, 0);
	import_fd("opaque fd -1 flags 1", 1, -1, 1);
	import_fd("opaque fd -1 flags 0x80000000", 1, -1, 0x80000000u);

	R("destroy null", cuDestroyExternalSemaphore(NULL));
	R("signal 0 null arrays", cuSignalExternalSemaphoresAsync(NULL, NULL, 0, st));
	R("wait 0 null arrays", cuWaitExternalSemaphoresAsync(NULL, NULL, 0, st));
	R("signal 1 null arrays", cuSignalExternalSemaphoresAsync(NULL, NULL, 1, st));
	R("wait 1 null arrays", cuWaitExternalSemaphoresAsync(NULL, NULL, 1, st));
	R("signal 0 legacy stream", cuSignalExternalSemaphoresAsync(NULL, NULL, 0, CU_STREAM_LEGACY));
	R("wait 0 null stream", cuWaitExternalSemaphoresAsync(NULL, NULL, 0, NULL));
	R("sync", cuStreamSynchronize(st));
	nodes(st);
	cuStreamCreate(&st2, CU_STREAM_NON_BLOCKING);
	real(st, st2);
	timeline(st, st2);
	R("final sync", cuCtxSynchronize());

	f = fopen(dot1, "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			printf("dot: %s", line);
		fclose(f);
	}
	f = fopen(dot2, "r");
	if (f) {
		while (fgets(line, sizeof(line), f))
			printf("dot2: %s", line);
		fclose(f);
	}
	return 0;
}
