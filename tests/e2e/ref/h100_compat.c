/*
 * H100 probe for the small entry points of issue 14: cuCtxAttach/Detach,
 * execution affinity, cuCtxResetPersistingL2Cache, cuFuncSetSharedMemConfig,
 * cuPointerSetAttribute, the cluster occupancy calls, async notifications,
 * cuGetExportTable, and the unversioned entry points of the first ABI
 * (32-bit device pointers and sizes), reached with dlsym. Each group runs
 * in a child of its own; calls that may crash the driver run alone. Output:
 * one "name = code" per line (or "name = signal N"), values on lines of
 * their own. Built and run on an H100 (driver 580.159.04, CUDA 13.0) as
 *   gcc h100_compat.c -I/usr/local/cuda/include -lcuda -ldl && ./a.out
 * its output is h100_compat.log (the first line, the GPU and driver, from
 * nvidia-smi), which tests/e2e/compat_api.c follows. The driver crashed
 * (SIGSEGV) on a bogus CUfunction, on a NULL callback handle, and on
 * unregistering a handle twice or one never registered: the async group
 * stops there, so "async unregister second" is missing.
 */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define R(name, call) printf("%s = %d\n", name, (int)(call))

typedef unsigned int dptr32;
struct m2d_v1 {
	unsigned int srcXInBytes, srcY;
	CUmemorytype srcMemoryType;
	const void *srcHost;
	dptr32 srcDevice;
	CUarray srcArray;
	unsigned int srcPitch;
	unsigned int dstXInBytes, dstY;
	CUmemorytype dstMemoryType;
	void *dstHost;
	dptr32 dstDevice;
	CUarray dstArray;
	unsigned int dstPitch;
	unsigned int WidthInBytes, Height;
};
struct m3d_v1 {
	unsigned int srcXInBytes, srcY, srcZ, srcLOD;
	CUmemorytype srcMemoryType;
	const void *srcHost;
	dptr32 srcDevice;
	CUarray srcArray;
	void *reserved0;
	unsigned int srcPitch, srcHeight;
	unsigned int dstXInBytes, dstY, dstZ, dstLOD;
	CUmemorytype dstMemoryType;
	void *dstHost;
	dptr32 dstDevice;
	CUarray dstArray;
	void *reserved1;
	unsigned int dstPitch, dstHeight;
	unsigned int WidthInBytes, Height, Depth;
};

static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .global .align 4 .u32 g[4];\n"
	".visible .entry add(.param .u64 p, .param .u32 v)\n{\n"
	".reg .b64 %rd<3>;\n.reg .b32 %r<4>;\n"
	"ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\n"
	"ld.param.u32 %r1, [v];\nld.global.u32 %r2, [%rd2];\n"
	"add.s32 %r3, %r2, %r1;\nst.global.u32 [%rd2], %r3;\nret;\n}\n";

static CUdevice dev;
static CUcontext pctx;
static CUmodule mod;
static CUfunction fn;
static CUdeviceptr d;

static void *sym(const char *n)
{
	void *p = dlsym(RTLD_DEFAULT, n);

	if (!p)
		printf("no symbol %s\n", n);
	return p;
}

static void setup(void)
{
	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(&pctx, dev);
	cuCtxSetCurrent(pctx);
	if (cuModuleLoadData(&mod, ptx)) {
		printf("load failed\n");
		exit(2);
	}
	cuModuleGetFunction(&fn, mod, "add");
	cuMemAlloc(&d, 1 << 20);
	cuMemsetD8(d, 0, 1 << 20);
}

static void child(const char *name, void (*f)(void))
{
	int st;
	pid_t p;

	printf("## %s\n", name);
	fflush(stdout);
	p = fork();
	if (!p) {
		f();
		fflush(stdout);
		_exit(0);
	}
	waitpid(p, &st, 0);
	if (WIFSIGNALED(st))
		printf("%s = signal %d\n", name, WTERMSIG(st));
	fflush(stdout);
}

/* One risky call alone, after setup() unless @noinit. */
#define SAFE(noinit, name, call) do { int st_; pid_t p_; fflush(stdout); \
	p_ = fork(); if (!p_) { if (!(noinit)) setup(); R(name, call); \
	fflush(stdout); _exit(0); } waitpid(p_, &st_, 0); \
	if (WIFSIGNALED(st_)) printf("%s = signal %d\n", name, WTERMSIG(st_)); \
	fflush(stdout); } while (0)

static void noinit(void)
{
	CUresult (*attach)(CUcontext *, unsigned int) = sym("cuCtxAttach");
	CUresult (*detach)(CUcontext) = sym("cuCtxDetach");
	CUresult (*alloc1)(dptr32 *, unsigned int) = sym("cuMemAlloc");
	CUresult (*info1)(unsigned int *, unsigned int *) = sym("cuMemGetInfo");
	CUexecAffinityParam ep;
	CUasyncCallbackHandle h;
	CUuuid u;
	const void *t;
	unsigned int a, b;
	dptr32 p32;
	CUcontext c;
	int v, one = 1;

	memset(&u, 0, sizeof(u));
	R("noinit attach", attach(&c, 0));
	R("noinit detach null", detach(NULL));
	R("noinit exec support", cuDeviceGetExecAffinitySupport(&v, CU_EXEC_AFFINITY_TYPE_SM_COUNT, 0));
	R("noinit ctx exec", cuCtxGetExecAffinity(&ep, CU_EXEC_AFFINITY_TYPE_SM_COUNT));
	R("noinit reset l2", cuCtxResetPersistingL2Cache());
	R("noinit func smem", cuFuncSetSharedMemConfig(NULL, 0));
	R("noinit pointer set", cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, 0x10000));
	R("noinit async register", cuDeviceRegisterAsyncNotification(0, NULL, NULL, &h));
	R("noinit export table", cuGetExportTable(&t, &u));
	R("noinit v1 alloc", alloc1(&p32, 4096));
	R("noinit v1 meminfo", info1(&a, &b));
}

static void attach_cases(void)
{
	CUresult (*attach)(CUcontext *, unsigned int) = sym("cuCtxAttach");
	CUresult (*detach)(CUcontext) = sym("cuCtxDetach");
	CUcontext c, c2 = NULL, cur;
	unsigned int ver;

	setup();
	cuCtxSetCurrent(NULL);
	R("attach no current", attach(&c2, 0));
	printf("attach no current out null = %d\n", c2 == NULL);
	cuCtxSetCurrent(pctx);
	c2 = NULL;
	R("attach primary", attach(&c2, 0));
	printf("attach primary out is current = %d\n", c2 == pctx);
	R("detach primary", detach(pctx));
	cuCtxGetCurrent(&cur);
	printf("detach primary current kept = %d\n", cur == pctx);
	R("detach primary again", detach(pctx));
	R("primary usable after detach", cuCtxSynchronize());
	R("attach flags 1", attach(&c2, 1));
	R("attach flags 4", attach(&c2, 4));

	cuCtxCreate(&c, NULL, 0, dev);
	c2 = NULL;
	R("attach created", attach(&c2, 0));
	printf("attach created out is current = %d\n", c2 == c);
	R("detach created 1", detach(c));
	R("created alive after 1", cuCtxGetApiVersion(c, &ver));
	cuCtxGetCurrent(&cur);
	printf("created current after 1 = %d\n", cur == c);
	R("detach created 2", detach(c));
	R("created alive after 2", cuCtxGetApiVersion(c, &ver));
	cuCtxGetCurrent(&cur);
	printf("created current after 2 = %d\n", cur == c);
	R("detach created 3", detach(c));

	/* A created context that is not current. */
	cuCtxCreate(&c, NULL, 0, dev);
	cuCtxPopCurrent(&cur);
	R("detach not current", detach(c));
	R("not current alive after detach", cuCtxGetApiVersion(c, &ver));
	R("destroy after detach", cuCtxDestroy(c));
	cuCtxSetCurrent(pctx);
}

static void attach_null(void)
{
	CUresult (*attach)(CUcontext *, unsigned int) = sym("cuCtxAttach");
	CUresult (*detach)(CUcontext) = sym("cuCtxDetach");

	SAFE(0, "attach null", attach(NULL, 0));
	SAFE(0, "detach null", detach(NULL));
	SAFE(0, "detach bogus", detach((CUcontext)0x1234));
}

static void affinity(void)
{
	CUresult (*create3)(CUcontext *, CUexecAffinityParam *, int, unsigned int, CUdevice) = sym("cuCtxCreate_v3");
	CUexecAffinityParam ep, two[2];
	CUctxCreateParams cp;
	CUcontext c;
	int v = -7, i;
	static const int vals[] = { 8, 1, 0, 66, 132, 1000 };
	char name[64];

	setup();
	R("exec support", cuDeviceGetExecAffinitySupport(&v, CU_EXEC_AFFINITY_TYPE_SM_COUNT, dev));
	printf("exec support value = %d\n", v);
	v = -7;
	R("exec support type 1", cuDeviceGetExecAffinitySupport(&v, 1, dev));
	printf("exec support type 1 value = %d\n", v);
	R("exec support type -1", cuDeviceGetExecAffinitySupport(&v, -1, dev));
	R("exec support dev 99", cuDeviceGetExecAffinitySupport(&v, 0, 99));
	R("exec support dev -1", cuDeviceGetExecAffinitySupport(&v, 0, -1));

	memset(&ep, 0x5a, sizeof(ep));
	R("ctx exec primary", cuCtxGetExecAffinity(&ep, CU_EXEC_AFFINITY_TYPE_SM_COUNT));
	printf("ctx exec primary type = %d val = %u\n", ep.type, ep.param.smCount.val);
	memset(&ep, 0x5a, sizeof(ep));
	R("ctx exec type 1", cuCtxGetExecAffinity(&ep, 1));
	printf("ctx exec type 1 type = %d val = %u\n", ep.type, ep.param.smCount.val);
	R("ctx exec type -1", cuCtxGetExecAffinity(&ep, -1));
	cuCtxSetCurrent(NULL);
	R("ctx exec no current", cuCtxGetExecAffinity(&ep, 0));
	cuCtxSetCurrent(pctx);

	R("create plain", cuCtxCreate(&c, NULL, 0, dev));
	memset(&ep, 0x5a, sizeof(ep));
	R("ctx exec created", cuCtxGetExecAffinity(&ep, 0));
	printf("ctx exec created type = %d val = %u\n", ep.type, ep.param.smCount.val);
	cuCtxDestroy(c);
	cuCtxSetCurrent(pctx);

	for (i = 0; i < (int)(sizeof(vals) / sizeof(vals[0])); i++) {
		memset(&cp, 0, sizeof(cp));
		ep.type = CU_EXEC_AFFINITY_TYPE_SM_COUNT;
		ep.param.smCount.val = vals[i];
		cp.execAffinityParams = &ep;
		cp.numExecAffinityParams = 1;
		snprintf(name, sizeof(name), "create v4 sm %d", vals[i]);
		c = NULL;
		R(name, cuCtxCreate(&c, &cp, 0, dev));
		if (c) {
			CUexecAffinityParam g;
			memset(&g, 0x5a, sizeof(g));
			R("  get", cuCtxGetExecAffinity(&g, 0));
			printf("  get val = %u\n", g.param.smCount.val);
			cuCtxDestroy(c);
			cuCtxSetCurrent(pctx);
		}
	}
	ep.type = 1;
	ep.param.smCount.val = 8;
	memset(&cp, 0, sizeof(cp));
	cp.execAffinityParams = &ep;
	cp.numExecAffinityParams = 1;
	R("create v4 type 1", cuCtxCreate(&c, &cp, 0, dev));
	two[0].type = two[1].type = 0;
	two[0].param.smCount.val = two[1].param.smCount.val = 8;
	cp.execAffinityParams = two;
	cp.numExecAffinityParams = 2;
	R("create v4 two", cuCtxCreate(&c, &cp, 0, dev));
	cp.numExecAffinityParams = -1;
	R("create v4 num -1", cuCtxCreate(&c, &cp, 0, dev));
	cp.numExecAffinityParams = 0;
	R("create v4 num 0 ptr", cuCtxCreate(&c, &cp, 0, dev));
	if (!cuCtxGetCurrent(&c) && c != pctx) { cuCtxDestroy(c); cuCtxSetCurrent(pctx); }
	cp.execAffinityParams = NULL;
	cp.numExecAffinityParams = 1;
	R("create v4 num 1 null", cuCtxCreate(&c, &cp, 0, dev));
	ep.type = 0;
	ep.param.smCount.val = 8;
	c = NULL;
	R("create v3 sm 8", create3(&c, &ep, 1, 0, dev));
	if (c) { cuCtxDestroy(c); cuCtxSetCurrent(pctx); }
	c = NULL;
	R("create v3 num 0", create3(&c, NULL, 0, 0, dev));
	if (c) { cuCtxDestroy(c); cuCtxSetCurrent(pctx); }
	R("create v3 num 1 null", create3(&c, NULL, 1, 0, dev));
}

static void affinity_null(void)
{
	SAFE(0, "exec support null", cuDeviceGetExecAffinitySupport(NULL, 0, 0));
	SAFE(0, "ctx exec null", cuCtxGetExecAffinity(NULL, 0));
}

static void small(void)
{
	CUcontext c, cur;
	int i;
	char name[64];

	setup();
	R("reset l2 primary", cuCtxResetPersistingL2Cache());
	cuCtxSetCurrent(NULL);
	R("reset l2 no current", cuCtxResetPersistingL2Cache());
	cuCtxCreate(&c, NULL, 0, dev);
	R("reset l2 created", cuCtxResetPersistingL2Cache());
	cuCtxDestroy(c);
	cuCtxGetCurrent(&cur);
	printf("current after destroy null = %d\n", cur == NULL);
	cuCtxSetCurrent(pctx);
	for (i = -1; i <= 4; i++) {
		snprintf(name, sizeof(name), "func smem %d", i);
		R(name, cuFuncSetSharedMemConfig(fn, i));
	}
	cuCtxSetCurrent(NULL);
	R("func smem no current", cuFuncSetSharedMemConfig(fn, 1));
	cuCtxSetCurrent(pctx);
}

static void small_null(void)
{
	SAFE(0, "func smem null", cuFuncSetSharedMemConfig(NULL, 0));
	SAFE(0, "func smem null bad", cuFuncSetSharedMemConfig(NULL, 9));
	SAFE(0, "func smem bogus", cuFuncSetSharedMemConfig((CUfunction)0x1234, 0));
}

static void getsync(const char *name, CUdeviceptr p)
{
	unsigned int v = 77;
	CUresult r = cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, p);

	printf("%s get = %d value %u\n", name, r, v);
}

static void pointer(void)
{
	unsigned int one = 1, zero = 0, two = 2;
	unsigned long long big = ~0ULL;
	void *h, *reg, *m;
	CUdeviceptr d2;
	char name[64];
	int a;

	setup();
	cuMemAlloc(&d2, 4096);
	cuMemHostAlloc(&h, 4096, CU_MEMHOSTALLOC_DEVICEMAP);
	reg = aligned_alloc(4096, 8192);
	cuMemHostRegister(reg, 8192, 0);
	m = malloc(4096);

	getsync("dev initial", d);
	R("set sync dev 1", cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
	getsync("dev after 1", d);
	getsync("dev+16 after 1", d + 16);
	getsync("other alloc after 1", d2);
	R("set sync dev 0", cuPointerSetAttribute(&zero, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
	getsync("dev after 0", d);
	R("set sync dev 2", cuPointerSetAttribute(&two, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
	getsync("dev after 2", d);
	R("set sync dev big", cuPointerSetAttribute(&big, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
	getsync("dev after big", d);
	cuPointerSetAttribute(&zero, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d);
	R("set sync interior", cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d + 4096));
	getsync("dev after interior", d);
	R("set sync past end", cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d + (1 << 20)));
	R("set sync hostalloc", cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, (CUdeviceptr)h));
	getsync("hostalloc after", (CUdeviceptr)h);
	R("set sync registered", cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, (CUdeviceptr)reg));
	getsync("registered after", (CUdeviceptr)reg);
	R("set sync malloc", cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, (CUdeviceptr)m));
	R("set sync 0", cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, 0));
	cuMemFree(d2);
	R("set sync freed", cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d2));
	for (a = 0; a <= 26; a++) {
		unsigned long long val = 1;
		if (a == CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
			continue;
		snprintf(name, sizeof(name), "set attr %d dev", a);
		R(name, cuPointerSetAttribute(&val, a, d));
		snprintf(name, sizeof(name), "set attr %d host", a);
		R(name, cuPointerSetAttribute(&val, a, (CUdeviceptr)h));
	}
	cuCtxSetCurrent(NULL);
	R("set sync no current", cuPointerSetAttribute(&one, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
	cuCtxSetCurrent(pctx);
	getsync("dev after no current", d);
	/* Another context current. */
	{
		CUcontext c;
		cuCtxCreate(&c, NULL, 0, dev);
		R("set sync other ctx current", cuPointerSetAttribute(&zero, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
		cuCtxDestroy(c);
		cuCtxSetCurrent(pctx);
		getsync("dev after other ctx", d);
	}
}

static void pointer_null(void)
{
	SAFE(0, "set sync null value", cuPointerSetAttribute(NULL, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
	SAFE(0, "set attr 1 null value", cuPointerSetAttribute(NULL, 1, d));
}

static CUlaunchConfig lc(unsigned int g, unsigned int b, CUlaunchAttribute *a, unsigned int n)
{
	CUlaunchConfig c;

	memset(&c, 0, sizeof(c));
	c.gridDimX = g; c.gridDimY = 1; c.gridDimZ = 1;
	c.blockDimX = b; c.blockDimY = 1; c.blockDimZ = 1;
	c.attrs = a; c.numAttrs = n;
	return c;
}

static void clusters(void)
{
	CUlaunchAttribute a[2];
	CUlaunchConfig c;
	int n;
	static const unsigned int dims[][2] = {
		{ 1, 16 }, { 2, 16 }, { 4, 16 }, { 8, 16 }, { 16, 16 },
		{ 3, 16 }, { 2, 3 }, { 0, 16 }, { 32, 32 },
	};
	unsigned int i;
	char name[64];

	setup();
	memset(a, 0, sizeof(a));
	c = lc(16, 128, NULL, 0);
	n = -7;
	R("active clusters no attr", cuOccupancyMaxActiveClusters(&n, fn, &c));
	printf("active clusters no attr value = %d\n", n);
	n = -7;
	R("potential size no attr", cuOccupancyMaxPotentialClusterSize(&n, fn, &c));
	printf("potential size no attr value = %d\n", n);
	for (i = 0; i < sizeof(dims) / sizeof(dims[0]); i++) {
		a[0].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
		a[0].value.clusterDim.x = dims[i][0];
		a[0].value.clusterDim.y = 1;
		a[0].value.clusterDim.z = 1;
		c = lc(dims[i][1], 128, a, 1);
		n = -7;
		snprintf(name, sizeof(name), "active clusters dim %u grid %u", dims[i][0], dims[i][1]);
		R(name, cuOccupancyMaxActiveClusters(&n, fn, &c));
		printf("%s value = %d\n", name, n);
		n = -7;
		snprintf(name, sizeof(name), "potential size dim %u grid %u", dims[i][0], dims[i][1]);
		R(name, cuOccupancyMaxPotentialClusterSize(&n, fn, &c));
		printf("%s value = %d\n", name, n);
	}
	c = lc(16, 2048, NULL, 0);
	R("active clusters block 2048", cuOccupancyMaxActiveClusters(&n, fn, &c));
	R("potential size block 2048", cuOccupancyMaxPotentialClusterSize(&n, fn, &c));
	c = lc(16, 128, NULL, 0);
	c.sharedMemBytes = 1 << 20;
	R("active clusters smem 1M", cuOccupancyMaxActiveClusters(&n, fn, &c));
	R("potential size smem 1M", cuOccupancyMaxPotentialClusterSize(&n, fn, &c));
	a[0].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
	a[0].value.priority = 0;
	c = lc(16, 128, a, 1);
	R("active clusters priority attr", cuOccupancyMaxActiveClusters(&n, fn, &c));
	a[0].id = 99;
	R("active clusters attr 99", cuOccupancyMaxActiveClusters(&n, fn, &c));
	R("potential size attr 99", cuOccupancyMaxPotentialClusterSize(&n, fn, &c));
	cuCtxSetCurrent(NULL);
	c = lc(16, 128, NULL, 0);
	R("active clusters no current", cuOccupancyMaxActiveClusters(&n, fn, &c));
	R("potential size no current", cuOccupancyMaxPotentialClusterSize(&n, fn, &c));
	cuCtxSetCurrent(pctx);
}

static void clusters_null(void)
{
	static CUlaunchConfig c = { 16, 1, 1, 128, 1, 1, 0, NULL, NULL, 0 };
	int n;

	SAFE(0, "active clusters null out", cuOccupancyMaxActiveClusters(NULL, fn, &c));
	SAFE(0, "active clusters null func", cuOccupancyMaxActiveClusters(&n, NULL, &c));
	SAFE(0, "active clusters null config", cuOccupancyMaxActiveClusters(&n, fn, NULL));
	SAFE(0, "potential size null out", cuOccupancyMaxPotentialClusterSize(NULL, fn, &c));
	SAFE(0, "potential size null func", cuOccupancyMaxPotentialClusterSize(&n, NULL, &c));
	SAFE(0, "potential size null config", cuOccupancyMaxPotentialClusterSize(&n, fn, NULL));
}

static void cb(CUasyncNotificationInfo *i, void *u, CUasyncCallbackHandle h)
{
	(void)i; (void)u; (void)h;
}

static void async(void)
{
	CUasyncCallbackHandle h = NULL, h2 = NULL;

	setup();
	R("async register", cuDeviceRegisterAsyncNotification(dev, cb, NULL, &h));
	printf("async register handle null = %d\n", h == NULL);
	R("async register second", cuDeviceRegisterAsyncNotification(dev, cb, NULL, &h2));
	R("async register dev 99", cuDeviceRegisterAsyncNotification(99, cb, NULL, &h2));
	R("async register dev -1", cuDeviceRegisterAsyncNotification(-1, cb, NULL, &h2));
	if (h) {
		R("async unregister dev 99", cuDeviceUnregisterAsyncNotification(99, h));
		R("async unregister", cuDeviceUnregisterAsyncNotification(dev, h));
		R("async unregister again", cuDeviceUnregisterAsyncNotification(dev, h));
	}
	if (h2)
		R("async unregister second", cuDeviceUnregisterAsyncNotification(dev, h2));
}

static void async_null(void)
{
	CUasyncCallbackHandle h;

	SAFE(0, "async register null cb", cuDeviceRegisterAsyncNotification(0, NULL, NULL, &h));
	SAFE(0, "async register null handle", cuDeviceRegisterAsyncNotification(0, cb, NULL, NULL));
	SAFE(0, "async unregister null", cuDeviceUnregisterAsyncNotification(0, NULL));
	SAFE(0, "async unregister bogus", cuDeviceUnregisterAsyncNotification(0, (CUasyncCallbackHandle)0x1234));
}

static void export_table(void)
{
	CUuuid z, r;
	const void *t = (const void *)0x5a5a;
	int i;

	memset(&z, 0, sizeof(z));
	for (i = 0; i < 16; i++)
		r.bytes[i] = (char)(0x3c + 17 * i);
	setup();
	R("export zero uuid", cuGetExportTable(&t, &z));
	printf("export zero uuid out = %p\n", t);
	t = (const void *)0x5a5a;
	R("export random uuid", cuGetExportTable(&t, &r));
	printf("export random uuid out = %p\n", t);
}

static void export_null(void)
{
	CUuuid z, r;
	const void *t;
	int i;

	memset(&z, 0, sizeof(z));
	for (i = 0; i < 16; i++)
		r.bytes[i] = (char)(0x3c + 17 * i);
	SAFE(0, "export null out zero uuid", cuGetExportTable(NULL, &z));
	SAFE(0, "export null out random uuid", cuGetExportTable(NULL, &r));
	SAFE(0, "export null uuid", cuGetExportTable(&t, NULL));
	SAFE(1, "export noinit random uuid", cuGetExportTable(&t, &r));
}

static void v1_calls(void)
{
	CUresult (*alloc)(dptr32 *, unsigned int) = sym("cuMemAlloc");
	CUresult (*freem)(dptr32) = sym("cuMemFree");
	CUresult (*info)(unsigned int *, unsigned int *) = sym("cuMemGetInfo");
	CUresult (*allochost)(void **, unsigned int) = sym("cuMemAllocHost");
	CUresult (*pitch)(dptr32 *, unsigned int *, unsigned int, unsigned int, unsigned int) = sym("cuMemAllocPitch");
	CUresult (*range)(dptr32 *, unsigned int *, dptr32) = sym("cuMemGetAddressRange");
	CUresult (*hostdev)(dptr32 *, void *, unsigned int) = sym("cuMemHostGetDevicePointer");
	CUresult (*hostreg)(void *, size_t, unsigned int) = sym("cuMemHostRegister");
	CUresult (*m2d)(const struct m2d_v1 *) = sym("cuMemcpy2D");
	CUresult (*m2da)(const struct m2d_v1 *, CUstream) = sym("cuMemcpy2DAsync");
	CUresult (*m2du)(const struct m2d_v1 *) = sym("cuMemcpy2DUnaligned");
	CUresult (*m3d)(const struct m3d_v1 *) = sym("cuMemcpy3D");
	CUresult (*m3da)(const struct m3d_v1 *, CUstream) = sym("cuMemcpy3DAsync");
	CUresult (*dtod)(dptr32, dptr32, unsigned int) = sym("cuMemcpyDtoD");
	CUresult (*dtoda)(dptr32, dptr32, unsigned int, CUstream) = sym("cuMemcpyDtoDAsync");
	CUresult (*dtoh)(void *, dptr32, unsigned int) = sym("cuMemcpyDtoH");
	CUresult (*dtoha)(void *, dptr32, unsigned int, CUstream) = sym("cuMemcpyDtoHAsync");
	CUresult (*htod)(dptr32, const void *, unsigned int) = sym("cuMemcpyHtoD");
	CUresult (*htoda)(dptr32, const void *, unsigned int, CUstream) = sym("cuMemcpyHtoDAsync");
	CUresult (*d8)(dptr32, unsigned char, unsigned int) = sym("cuMemsetD8");
	CUresult (*d16)(dptr32, unsigned short, unsigned int) = sym("cuMemsetD16");
	CUresult (*d32)(dptr32, unsigned int, unsigned int) = sym("cuMemsetD32");
	CUresult (*d2d8)(dptr32, unsigned int, unsigned char, unsigned int, unsigned int) = sym("cuMemsetD2D8");
	CUresult (*d2d16)(dptr32, unsigned int, unsigned short, unsigned int, unsigned int) = sym("cuMemsetD2D16");
	CUresult (*d2d32)(dptr32, unsigned int, unsigned int, unsigned int, unsigned int) = sym("cuMemsetD2D32");
	CUresult (*global)(dptr32 *, unsigned int *, CUmodule, const char *) = sym("cuModuleGetGlobal");
	unsigned int a = 77, b = 77, pt = 77, sz = 77;
	dptr32 p32 = 77, lo, base = 77;
	char src[64], dst[64];
	struct m2d_v1 c2;
	struct m3d_v1 c3;
	void *hp = NULL, *h, *reg;
	CUdeviceptr hd;
	CUresult r;

	setup();
	lo = (dptr32)d;
	printf("device pointer above 4 GiB = %d\n", d > 0xffffffffULL);
	r = alloc(&p32, 4096);
	printf("v1 alloc = %d out %u\n", r, p32);
	R("v1 alloc 0", alloc(&p32, 0));
	r = info(&a, &b);
	printf("v1 meminfo = %d free %u total %u\n", r, a, b);
	R("v1 free 0", freem(0));
	R("v1 free low bits", freem(lo));
	R("v1 free 0x1000", freem(0x1000));
	r = allochost(&hp, 4096);
	printf("v1 alloc host = %d out null %d\n", r, hp == NULL);
	if (!r)
		cuMemFreeHost(hp);
	R("v1 alloc host 0", allochost(&hp, 0));
	p32 = 77;
	r = pitch(&p32, &pt, 64, 4, 4);
	printf("v1 alloc pitch = %d out %u pitch %u\n", r, p32, pt);
	r = range(&base, &sz, lo);
	printf("v1 address range = %d base %u size %u\n", r, base, sz);
	R("v1 address range 0", range(&base, &sz, 0));
	cuMemHostAlloc(&h, 4096, CU_MEMHOSTALLOC_DEVICEMAP);
	p32 = 77;
	r = hostdev(&p32, h, 0);
	printf("v1 host device pointer = %d out %u\n", r, p32);
	R("v1 host device pointer flags 1", hostdev(&p32, h, 1));
	R("v1 host device pointer malloc", hostdev(&p32, src, 0));
	reg = aligned_alloc(4096, 4096);
	r = hostreg(reg, 4096, 0);
	printf("v1 host register = %d\n", r);
	if (!r) {
		CUdeviceptr rd = 0;
		printf("v1 host register then v2 device pointer = %d\n", (int)cuMemHostGetDevicePointer(&rd, reg, 0));
		R("v1 host register then unregister", cuMemHostUnregister(reg));
	}
	R("v1 host register flags 2", hostreg(reg, 4096, CU_MEMHOSTREGISTER_DEVICEMAP));
	cuMemHostUnregister(reg);
	R("v1 host register bad flags", hostreg(reg, 4096, 0x100));
	R("v1 host register size 0", hostreg(reg, 0, 0));

	R("v1 htod low bits", htod(lo, src, 16));
	R("v1 htod 0", htod(0, src, 16));
	R("v1 htod async", htoda(lo, src, 16, NULL));
	R("v1 dtoh low bits", dtoh(dst, lo, 16));
	R("v1 dtoh async", dtoha(dst, lo, 16, NULL));
	R("v1 dtod low bits", dtod(lo, lo + 64, 16));
	R("v1 dtod async", dtoda(lo, lo + 64, 16, NULL));
	R("v1 htod size 0", htod(lo, src, 0));
	R("v1 memset d8", d8(lo, 1, 16));
	R("v1 memset d8 0", d8(0, 1, 16));
	R("v1 memset d8 n 0", d8(lo, 1, 0));
	R("v1 memset d16", d16(lo, 1, 16));
	R("v1 memset d32", d32(lo, 1, 16));
	R("v1 memset 2d8", d2d8(lo, 64, 1, 16, 2));
	R("v1 memset 2d16", d2d16(lo, 64, 1, 16, 2));
	R("v1 memset 2d32", d2d32(lo, 64, 1, 16, 2));

	memset(src, 7, sizeof(src));
	memset(dst, 0, sizeof(dst));
	memset(&c2, 0, sizeof(c2));
	c2.srcMemoryType = CU_MEMORYTYPE_HOST;
	c2.srcHost = src;
	c2.srcPitch = 16;
	c2.dstMemoryType = CU_MEMORYTYPE_HOST;
	c2.dstHost = dst;
	c2.dstPitch = 16;
	c2.WidthInBytes = 8;
	c2.Height = 2;
	R("v1 memcpy2d host to host", m2d(&c2));
	printf("v1 memcpy2d host to host copied = %d\n", dst[0] == 7);
	R("v1 memcpy2d async host to host", m2da(&c2, NULL));
	R("v1 memcpy2d unaligned host to host", m2du(&c2));
	c2.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c2.dstDevice = lo;
	R("v1 memcpy2d host to device", m2d(&c2));
	c2.dstMemoryType = CU_MEMORYTYPE_UNIFIED;
	c2.dstDevice = lo;
	R("v1 memcpy2d host to unified", m2d(&c2));
	memset(&c3, 0, sizeof(c3));
	c3.srcMemoryType = CU_MEMORYTYPE_HOST;
	c3.srcHost = src;
	c3.srcPitch = 16;
	c3.srcHeight = 2;
	c3.dstMemoryType = CU_MEMORYTYPE_HOST;
	c3.dstHost = dst;
	c3.dstPitch = 16;
	c3.dstHeight = 2;
	c3.WidthInBytes = 8;
	c3.Height = 2;
	c3.Depth = 1;
	R("v1 memcpy3d host to host", m3d(&c3));
	R("v1 memcpy3d async host to host", m3da(&c3, NULL));
	c3.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c3.dstDevice = lo;
	R("v1 memcpy3d host to device", m3d(&c3));

	p32 = 77; sz = 77;
	r = global(&p32, &sz, mod, "g");
	printf("v1 module global = %d out %u size %u\n", r, p32, sz);
	R("v1 module global unknown", global(&p32, &sz, mod, "nope"));
	cuCtxSetCurrent(NULL);
	R("v1 alloc no current", alloc(&p32, 4096));
	R("v1 meminfo no current", info(&a, &b));
	R("v1 htod no current", htod(lo, src, 16));
	R("v1 memset d8 no current", d8(lo, 1, 16));
	cuCtxSetCurrent(pctx);
	(void)hd;
}

static void v1_null(void)
{
	CUresult (*alloc)(dptr32 *, unsigned int) = sym("cuMemAlloc");
	CUresult (*info)(unsigned int *, unsigned int *) = sym("cuMemGetInfo");
	CUresult (*m2d)(const void *) = sym("cuMemcpy2D");
	CUresult (*m3d)(const void *) = sym("cuMemcpy3D");
	CUresult (*global)(dptr32 *, unsigned int *, CUmodule, const char *) = sym("cuModuleGetGlobal");
	unsigned int a;
	dptr32 p;

	SAFE(0, "v1 alloc null", alloc(NULL, 4096));
	SAFE(0, "v1 meminfo null", info(NULL, &a));
	SAFE(0, "v1 meminfo null both", info(NULL, NULL));
	SAFE(0, "v1 memcpy2d null", m2d(NULL));
	SAFE(0, "v1 memcpy3d null", m3d(NULL));
	SAFE(0, "v1 module global null out", global(NULL, NULL, mod, "g"));
	SAFE(0, "v1 module global null name", global(&p, &a, mod, NULL));
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	child("noinit", noinit);
	child("attach", attach_cases);
	child("attach null", attach_null);
	child("affinity", affinity);
	child("affinity null", affinity_null);
	child("small", small);
	child("small null", small_null);
	child("pointer", pointer);
	child("pointer null", pointer_null);
	child("clusters", clusters);
	child("clusters null", clusters_null);
	child("async", async);
	child("async null", async_null);
	child("export", export_table);
	child("export null", export_null);
	child("v1", v1_calls);
	child("v1 null", v1_null);
	return 0;
}
