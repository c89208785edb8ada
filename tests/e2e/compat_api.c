// SPDX-License-Identifier: MIT
/*
 * The small calls of issue 14 in the VM, each case against the code
 * NVIDIA's driver gave on an H100 (tests/e2e/ref/h100_compat.log, from
 * h100_compat.c there): cuCtxAttach/Detach, execution affinity,
 * cuCtxResetPersistingL2Cache, cuFuncSetSharedMemConfig,
 * cuPointerSetAttribute (SYNC_MEMOPS), the cluster occupancy calls, async
 * notifications, cuGetExportTable and the first ABI's memory calls
 * (32-bit device pointers, reached by their unsuffixed symbols). Where
 * vgpu's device differs from an H100 (compute capability 7.5: no
 * clusters) the case says so and asserts what vgpu answers.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_compat.log"
#include "h100_log.h"

static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .global .align 4 .u32 g[4];\n"
	".visible .entry add(.param .u64 p, .param .u32 v)\n{\n"
	".reg .b64 %rd<3>;\n.reg .b32 %r<4>;\n"
	"ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\n"
	"ld.param.u32 %r1, [v];\nld.global.u32 %r2, [%rd2];\n"
	"add.s32 %r3, %r2, %r1;\nst.global.u32 [%rd2], %r3;\nret;\n}\n";

static CUcontext pctx;
static CUmodule mod;
static CUfunction fn;
static CUdeviceptr d;		/* 1 MiB, zeroed */

/* The primary context current, the module loaded, d allocated. */
static void setup(void)
{
	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&pctx, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(pctx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&fn, mod, "add"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 1 << 20));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD8(d, 0, 1 << 20));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

static int sm_count(void)
{
	int n = 0;

	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&n,
			CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
	return n;
}

/* --- before cuInit ------------------------------------------------------ */

static void before_init(void)
{
	CUresult (*attach)(CUcontext *, unsigned int) = sym("cuCtxAttach");
	CUresult (*detach)(CUcontext) = sym("cuCtxDetach");
	CUresult (*alloc1)(unsigned int *, unsigned int) = sym("cuMemAlloc");
	CUresult (*info1)(unsigned int *, unsigned int *) = sym("cuMemGetInfo");
	CUexecAffinityParam ep;
	CUasyncCallbackHandle h;
	const void *t = &t;
	unsigned int a, b, p32;
	CUuuid u = { { 0 } };
	CUcontext c;
	int v, one = 1;

	if (!attach || !detach || !alloc1 || !info1)
		return;
	CHECK_H100("noinit attach", attach(&c, 0));
	CHECK_H100("noinit detach null", detach(NULL));
	CHECK_H100("noinit exec support", cuDeviceGetExecAffinitySupport(&v,
			CU_EXEC_AFFINITY_TYPE_SM_COUNT, 0));
	CHECK_H100("noinit ctx exec", cuCtxGetExecAffinity(&ep,
			CU_EXEC_AFFINITY_TYPE_SM_COUNT));
	CHECK_H100("noinit reset l2", cuCtxResetPersistingL2Cache());
	CHECK_H100("noinit func smem", cuFuncSetSharedMemConfig(NULL, 0));
	CHECK_H100("noinit pointer set", cuPointerSetAttribute(&one,
			CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, 0x10000));
	CHECK_H100("noinit async register",
		   cuDeviceRegisterAsyncNotification(0, NULL, NULL, &h));
	CHECK_H100("noinit export table", cuGetExportTable(&t, &u));
	CHECK(t == NULL);
	CHECK_H100("noinit v1 alloc", alloc1(&p32, 4096));
	CHECK_H100("noinit v1 meminfo", info1(&a, &b));
}

/* --- cuCtxAttach / cuCtxDetach ------------------------------------------ */

static void attach_primary(void)
{
	CUresult (*attach)(CUcontext *, unsigned int) = sym("cuCtxAttach");
	CUresult (*detach)(CUcontext) = sym("cuCtxDetach");
	CUcontext c = NULL, cur;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(NULL));
	CHECK_H100("attach no current", attach(&c, 0));
	CHECK(c == NULL);
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(pctx));
	CHECK_H100("attach primary", attach(&c, 0));
	CHECK(c == pctx);
	/* A primary context counts no users: it outlives every detach. */
	CHECK_H100("detach primary", detach(pctx));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	CHECK(cur == pctx);
	CHECK_H100("detach primary again", detach(pctx));
	CHECK_H100("primary usable after detach", cuCtxSynchronize());
	CHECK_H100("attach flags 1", attach(&c, 1));
	CHECK_H100("attach flags 4", attach(&c, 4));
	CHECK_H100("attach null", attach(NULL, 0));
	CHECK_H100("detach null", detach(NULL));
	CHECK_H100("detach bogus", detach((CUcontext)0x1234));
}

static void detach_destroys_created(void)
{
	CUresult (*attach)(CUcontext *, unsigned int) = sym("cuCtxAttach");
	CUresult (*detach)(CUcontext) = sym("cuCtxDetach");
	CUcontext c, c2 = NULL, cur;
	unsigned int ver;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	CHECK_H100("attach created", attach(&c2, 0));
	CHECK(c2 == c);
	CHECK_H100("detach created 1", detach(c));
	CHECK_H100("created alive after 1", cuCtxGetApiVersion(c, &ver));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	CHECK(cur == c);
	/* The count falls to zero: destroyed, and no longer current. */
	CHECK_H100("detach created 2", detach(c));
	CHECK_H100("created alive after 2", cuCtxGetApiVersion(c, &ver));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	CHECK(cur == NULL);
	CHECK_H100("detach created 3", detach(c));
}

static void detach_needs_current(void)
{
	CUresult (*detach)(CUcontext) = sym("cuCtxDetach");
	CUcontext c, cur;
	unsigned int ver;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxPopCurrent(&cur));
	CHECK_H100("detach not current", detach(c));
	CHECK_H100("not current alive after detach", cuCtxGetApiVersion(c, &ver));
	CHECK_H100("destroy after detach", cuCtxDestroy(c));
}

/* --- execution affinity ------------------------------------------------- */

static void exec_affinity_support(void)
{
	static const struct { const char *name; int type, dev; } cases[] = {
		{ "exec support", CU_EXEC_AFFINITY_TYPE_SM_COUNT, 0 },
		{ "exec support type 1", 1, 0 },
		{ "exec support type -1", -1, 0 },
		{ "exec support dev 99", 0, 99 },
		{ "exec support dev -1", 0, -1 },
	};
	unsigned int i;
	int v;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = -7;
		CHECK_H100(cases[i].name, cuDeviceGetExecAffinitySupport(&v,
				(CUexecAffinityType)cases[i].type, cases[i].dev));
		if (i < 2)
			CHECK(v == 0);
	}
	CHECK(h100_value("exec support value", "") == 0);
	CHECK_H100("exec support null", cuDeviceGetExecAffinitySupport(NULL, 0, 0));
}

/* Every context holds all the SMs: 132 on the H100, vgpu's own count here. */
static void ctx_exec_affinity(void)
{
	CUexecAffinityParam ep;
	CUcontext c;

	setup();
	CHECK(h100_value("ctx exec primary type", "val =") == 132);
	memset(&ep, 0x5a, sizeof(ep));
	CHECK_H100("ctx exec primary", cuCtxGetExecAffinity(&ep,
			CU_EXEC_AFFINITY_TYPE_SM_COUNT));
	CHECK(ep.type == CU_EXEC_AFFINITY_TYPE_SM_COUNT);
	CHECK((int)ep.param.smCount.val == sm_count());
	/* A refused type is written back; the count is left alone. */
	memset(&ep, 0x5a, sizeof(ep));
	CHECK_H100("ctx exec type 1", cuCtxGetExecAffinity(&ep, 1));
	CHECK(ep.type == 1 && ep.param.smCount.val == 0x5a5a5a5a);
	CHECK_H100("ctx exec type -1", cuCtxGetExecAffinity(&ep, -1));
	CHECK_H100("ctx exec null", cuCtxGetExecAffinity(NULL, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(NULL));
	CHECK_H100("ctx exec no current", cuCtxGetExecAffinity(&ep, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	memset(&ep, 0x5a, sizeof(ep));
	CHECK_H100("ctx exec created", cuCtxGetExecAffinity(&ep, 0));
	CHECK((int)ep.param.smCount.val == sm_count());
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
}

/* Creates with @p; destroys what was created. */
static CUresult create_with(CUctxCreateParams *p)
{
	CUcontext c = NULL;
	CUresult r = cuCtxCreate(&c, p, 0, 0);

	if (c)
		CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	CHECK(r == CUDA_SUCCESS || c == NULL);
	return r;
}

static void ctx_create_affinity(void)
{
	static const unsigned int vals[] = { 8, 1, 0, 66, 132, 1000 };
	CUresult (*create3)(CUcontext *, CUexecAffinityParam *, int,
			    unsigned int, CUdevice) = sym("cuCtxCreate_v3");
	CUexecAffinityParam ep, two[2];
	CUctxCreateParams cp = { &ep, 1, NULL };
	CUcontext c = NULL;
	char name[64];
	unsigned int i;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	for (i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		ep.type = CU_EXEC_AFFINITY_TYPE_SM_COUNT;
		ep.param.smCount.val = vals[i];
		snprintf(name, sizeof(name), "create v4 sm %u", vals[i]);
		CHECK_H100(name, create_with(&cp));
	}
	ep.type = 1;
	CHECK_H100("create v4 type 1", create_with(&cp));
	memset(two, 0, sizeof(two));
	two[0].param.smCount.val = two[1].param.smCount.val = 8;
	cp.execAffinityParams = two;
	cp.numExecAffinityParams = 2;
	CHECK_H100("create v4 two", create_with(&cp));
	/* No count means no list, whatever the pointer. */
	cp.numExecAffinityParams = -1;
	CHECK_H100("create v4 num -1", create_with(&cp));
	cp.numExecAffinityParams = 0;
	CHECK_H100("create v4 num 0 ptr", create_with(&cp));
	cp.execAffinityParams = NULL;
	cp.numExecAffinityParams = 1;
	CHECK_H100("create v4 num 1 null", create_with(&cp));
	if (!create3)
		return;
	ep.type = CU_EXEC_AFFINITY_TYPE_SM_COUNT;
	ep.param.smCount.val = 8;
	CHECK_H100("create v3 sm 8", create3(&c, &ep, 1, 0, 0));
	CHECK_H100("create v3 num 0", create3(&c, NULL, 0, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	CHECK_H100("create v3 num 1 null", create3(&c, NULL, 1, 0, 0));
}

/* --- cuCtxResetPersistingL2Cache, cuFuncSetSharedMemConfig --------------- */

static void reset_persisting_l2(void)
{
	CUcontext c;

	setup();
	CHECK_H100("reset l2 primary", cuCtxResetPersistingL2Cache());
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(NULL));
	CHECK_H100("reset l2 no current", cuCtxResetPersistingL2Cache());
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	CHECK_H100("reset l2 created", cuCtxResetPersistingL2Cache());
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
}

static void func_shared_mem_config(void)
{
	CUsharedconfig sc;
	char name[64];
	int i;

	setup();
	for (i = -1; i <= 4; i++) {
		snprintf(name, sizeof(name), "func smem %d", i);
		CHECK_H100(name, cuFuncSetSharedMemConfig(fn, (CUsharedconfig)i));
	}
	/* The context's banks stay four bytes wide. */
	CHECK_RES(CUDA_SUCCESS, cuCtxGetSharedMemConfig(&sc));
	CHECK(sc == CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE);
	CHECK_H100("func smem null", cuFuncSetSharedMemConfig(NULL, 0));
	CHECK_H100("func smem null bad", cuFuncSetSharedMemConfig(NULL, 9));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(NULL));
	CHECK_H100("func smem no current", cuFuncSetSharedMemConfig(fn, 1));
}

/* --- cuPointerSetAttribute ---------------------------------------------- */

/* SYNC_MEMOPS of @p, checked against the H100's "@name get" line. */
static void check_sync(const char *name, CUdeviceptr p)
{
	char key[96];
	unsigned int v = 77;

	snprintf(key, sizeof(key), "%s get", name);
	CHECK_H100(key, cuPointerGetAttribute(&v,
			CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, p));
	if (v != (unsigned int)h100_value(key, "value"))
		TAP_FAIL("%s: SYNC_MEMOPS reads %u", name, v);
}

static CUresult set_sync(const void *value, CUdeviceptr p)
{
	return cuPointerSetAttribute(value, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, p);
}

static void pointer_sync_memops(void)
{
	unsigned int one = 1, zero = 0, two = 2;
	unsigned long long big = ~0ULL;
	void *h, *reg, *m;
	CUdeviceptr d2, d3;
	CUcontext c;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d2, 4096));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostAlloc(&h, 4096,
						 CU_MEMHOSTALLOC_DEVICEMAP));
	reg = aligned_alloc(4096, 8192);
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostRegister(reg, 8192, 0));
	m = malloc(4096);

	check_sync("dev initial", d);
	CHECK_H100("set sync dev 1", set_sync(&one, d));
	check_sync("dev after 1", d);
	check_sync("dev+16 after 1", d + 16);
	check_sync("other alloc after 1", d2);
	CHECK_H100("set sync dev 0", set_sync(&zero, d));
	check_sync("dev after 0", d);
	CHECK_H100("set sync dev 2", set_sync(&two, d));
	check_sync("dev after 2", d);
	CHECK_H100("set sync dev big", set_sync(&big, d));
	check_sync("dev after big", d);
	CHECK_RES(CUDA_SUCCESS, set_sync(&zero, d));
	/* Set through an inner address: the whole allocation. */
	CHECK_H100("set sync interior", set_sync(&one, d + 4096));
	check_sync("dev after interior", d);
	CHECK_H100("set sync hostalloc", set_sync(&one, (CUdeviceptr)h));
	check_sync("hostalloc after", (CUdeviceptr)h);
	CHECK_H100("set sync registered", set_sync(&one, (CUdeviceptr)reg));
	check_sync("registered after", (CUdeviceptr)reg);
	CHECK_H100("set sync malloc", set_sync(&one, (CUdeviceptr)m));
	CHECK_H100("set sync 0", set_sync(&one, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d3, 4096));
	REQUIRE_RES(CUDA_SUCCESS, cuMemFree(d3));
	CHECK_H100("set sync freed", set_sync(&one, d3));
	CHECK_H100("set sync null value", set_sync(NULL, d));
	CHECK_H100("set attr 1 null value", cuPointerSetAttribute(NULL,
			CU_POINTER_ATTRIBUTE_CONTEXT, d));
	/* Any context, or none, may set it. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(NULL));
	CHECK_H100("set sync no current", set_sync(&one, d));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(pctx));
	check_sync("dev after no current", d);
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	CHECK_H100("set sync other ctx current", set_sync(&zero, d));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(pctx));
	check_sync("dev after other ctx", d);
	free(m);
}

/* Every other attribute is read-only, on device and host memory alike. */
static void pointer_other_attributes(void)
{
	char name[64];
	void *h;
	int a;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostAlloc(&h, 4096, 0));
	for (a = 0; a <= 26; a++) {
		unsigned long long val = 1;

		if (a == CU_POINTER_ATTRIBUTE_SYNC_MEMOPS)
			continue;
		snprintf(name, sizeof(name), "set attr %d dev", a);
		CHECK_H100(name, cuPointerSetAttribute(&val, a, d));
		snprintf(name, sizeof(name), "set attr %d host", a);
		CHECK_H100(name, cuPointerSetAttribute(&val, a, (CUdeviceptr)h));
	}
}

/* A mark goes with its memory: what later takes the address is unmarked. */
static void sync_memops_forgotten(void)
{
	unsigned int one = 1, v = 77;
	CUdeviceptr a, b;
	void *reg;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&a, 4096));
	REQUIRE_RES(CUDA_SUCCESS, set_sync(&one, a));
	REQUIRE_RES(CUDA_SUCCESS, cuMemFree(a));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&b, 4096));
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&v,
			CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, b));
	CHECK(v == 0);
	reg = aligned_alloc(4096, 4096);
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostRegister(reg, 4096, 0));
	REQUIRE_RES(CUDA_SUCCESS, set_sync(&one, (CUdeviceptr)reg));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostUnregister(reg));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostRegister(reg, 4096, 0));
	v = 77;
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&v,
			CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, (CUdeviceptr)reg));
	CHECK(v == 0);
}

/*
 * Synchronous fills and device copies return once queued, unless they
 * touch marked memory: then the work is done when they return.
 */
static void sync_memops_complete(void)
{
	CUresult (*ptds_fill)(CUdeviceptr, unsigned char, size_t) =
		sym("cuMemsetD8_v2_ptds");
	const size_t n = 64 << 20;
	unsigned int one = 1;
	CUdeviceptr big, src;
	CUDA_MEMCPY2D c2;
	uint32_t w;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&big, n));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&src, n));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD32(src, 0x01020304, n / 4));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSynchronize());
	REQUIRE_RES(CUDA_SUCCESS, set_sync(&one, big));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD8(big, 0xab, n));
	CHECK_RES(CUDA_SUCCESS, cuStreamQuery(NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD2D32(big, 4096, 7, 1024, n / 4096));
	CHECK_RES(CUDA_SUCCESS, cuStreamQuery(NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoD(big, src, n));
	CHECK_RES(CUDA_SUCCESS, cuStreamQuery(NULL));
	memset(&c2, 0, sizeof(c2));
	c2.srcMemoryType = c2.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c2.srcDevice = big;
	c2.dstDevice = src;
	c2.srcPitch = c2.dstPitch = c2.WidthInBytes = 4096;
	c2.Height = n / 4096;
	CHECK_RES(CUDA_SUCCESS, cuMemcpy2D(&c2));
	CHECK_RES(CUDA_SUCCESS, cuStreamQuery(NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&w, src + n - 4, 4));
	CHECK(w == 0x01020304);
	/* The same on the per-thread default stream. */
	if (ptds_fill) {
		CHECK_RES(CUDA_SUCCESS, ptds_fill(big, 0xcd, n));
		CHECK_RES(CUDA_SUCCESS, cuStreamQuery(CU_STREAM_PER_THREAD));
	}
}

/* --- cluster occupancy -------------------------------------------------- */

static CUlaunchConfig launch_config(unsigned int grid, unsigned int block,
				    CUlaunchAttribute *a, unsigned int n)
{
	CUlaunchConfig c;

	memset(&c, 0, sizeof(c));
	c.gridDimX = grid;
	c.gridDimY = c.gridDimZ = 1;
	c.blockDimX = block;
	c.blockDimY = c.blockDimZ = 1;
	c.attrs = a;
	c.numAttrs = n;
	return c;
}

static CUlaunchAttribute cluster_attr(unsigned int x)
{
	CUlaunchAttribute a;

	memset(&a, 0, sizeof(a));
	a.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
	a.value.clusterDim.x = x;
	a.value.clusterDim.y = a.value.clusterDim.z = 1;
	return a;
}

static void skip_with_clusters(void)
{
	int major = 0;

	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&major,
			CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, 0));
	if (major >= 9)
		TAP_SKIP("the device has clusters (compute capability %d)", major);
}

/*
 * A cluster of one block is all a device below 9.0 places: the largest
 * cluster is 1 where an H100 answers 8, and the active clusters of one
 * block are the device's active blocks.
 */
static void cluster_occupancy_one_block(void)
{
	CUlaunchAttribute a = cluster_attr(1);
	CUlaunchConfig c;
	int n = -7, per_sm;

	setup();
	skip_with_clusters();
	REQUIRE_RES(CUDA_SUCCESS,
		    cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, 128, 0));
	c = launch_config(16, 128, NULL, 0);
	CHECK_H100("active clusters no attr", cuOccupancyMaxActiveClusters(&n, fn, &c));
	CHECK(n == h100_value("active clusters no attr value", "") && n == 0);
	n = -7;
	CHECK_H100("potential size no attr",
		   cuOccupancyMaxPotentialClusterSize(&n, fn, &c));
	CHECK(h100_value("potential size no attr value", "") == 8 && n == 1);
	c = launch_config(16, 128, &a, 1);
	n = -7;
	CHECK_H100("active clusters dim 1 grid 16",
		   cuOccupancyMaxActiveClusters(&n, fn, &c));
	CHECK(n == per_sm * sm_count());
	n = -7;
	CHECK_H100("potential size dim 1 grid 16",
		   cuOccupancyMaxPotentialClusterSize(&n, fn, &c));
	CHECK(n == 1);
}

/* Shapes an H100 refuses too, then those only a device with clusters takes. */
static void cluster_occupancy_shapes(void)
{
	static const unsigned int bad[][2] = {
		{ 16, 16 }, { 3, 16 }, { 2, 3 }, { 0, 16 }, { 32, 32 },
	};
	static const unsigned int h100_only[] = { 2, 4, 8 };
	CUlaunchAttribute a;
	CUlaunchConfig c;
	char name[64];
	unsigned int i;
	int n;

	setup();
	skip_with_clusters();
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		a = cluster_attr(bad[i][0]);
		c = launch_config(bad[i][1], 128, &a, 1);
		n = -7;
		snprintf(name, sizeof(name), "active clusters dim %u grid %u",
			 bad[i][0], bad[i][1]);
		CHECK_H100(name, cuOccupancyMaxActiveClusters(&n, fn, &c));
		snprintf(name, sizeof(name), "potential size dim %u grid %u",
			 bad[i][0], bad[i][1]);
		CHECK_H100(name, cuOccupancyMaxPotentialClusterSize(&n, fn, &c));
		CHECK(n == -7);
	}
	for (i = 0; i < sizeof(h100_only) / sizeof(h100_only[0]); i++) {
		a = cluster_attr(h100_only[i]);
		c = launch_config(16, 128, &a, 1);
		snprintf(name, sizeof(name), "active clusters dim %u grid 16",
			 h100_only[i]);
		CHECK(h100(name) == CUDA_SUCCESS);
		CHECK_RES(CUDA_ERROR_INVALID_CLUSTER_SIZE,
			  cuOccupancyMaxActiveClusters(&n, fn, &c));
		CHECK_RES(CUDA_ERROR_INVALID_CLUSTER_SIZE,
			  cuOccupancyMaxPotentialClusterSize(&n, fn, &c));
		/* As a launch of that shape answers. */
		CHECK_RES(CUDA_ERROR_INVALID_CLUSTER_SIZE,
			  cuLaunchKernelEx(&c, fn, NULL, NULL));
	}
}

static void cluster_occupancy_arguments(void)
{
	CUlaunchAttribute a;
	CUlaunchConfig c = launch_config(16, 2048, NULL, 0);
	int n = -7;

	setup();
	CHECK_H100("active clusters block 2048", cuOccupancyMaxActiveClusters(&n, fn, &c));
	CHECK_H100("potential size block 2048",
		   cuOccupancyMaxPotentialClusterSize(&n, fn, &c));
	CHECK(n == 0);
	c = launch_config(16, 128, NULL, 0);
	c.sharedMemBytes = 1 << 20;
	CHECK_H100("active clusters smem 1M", cuOccupancyMaxActiveClusters(&n, fn, &c));
	CHECK_H100("potential size smem 1M",
		   cuOccupancyMaxPotentialClusterSize(&n, fn, &c));
	CHECK(n == 0);
	memset(&a, 0, sizeof(a));
	a.id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
	c = launch_config(16, 128, &a, 1);
	CHECK_H100("active clusters priority attr",
		   cuOccupancyMaxActiveClusters(&n, fn, &c));
	a.id = (CUlaunchAttributeID)99;
	CHECK_H100("active clusters attr 99", cuOccupancyMaxActiveClusters(&n, fn, &c));
	CHECK_H100("potential size attr 99",
		   cuOccupancyMaxPotentialClusterSize(&n, fn, &c));
	c = launch_config(16, 128, NULL, 0);
	CHECK_H100("active clusters null out", cuOccupancyMaxActiveClusters(NULL, fn, &c));
	CHECK_H100("active clusters null func", cuOccupancyMaxActiveClusters(&n, NULL, &c));
	CHECK_H100("active clusters null config", cuOccupancyMaxActiveClusters(&n, fn, NULL));
	CHECK_H100("potential size null out",
		   cuOccupancyMaxPotentialClusterSize(NULL, fn, &c));
	CHECK_H100("potential size null func",
		   cuOccupancyMaxPotentialClusterSize(&n, NULL, &c));
	CHECK_H100("potential size null config",
		   cuOccupancyMaxPotentialClusterSize(&n, fn, NULL));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(NULL));
	CHECK_H100("active clusters no current", cuOccupancyMaxActiveClusters(&n, fn, &c));
	CHECK_H100("potential size no current",
		   cuOccupancyMaxPotentialClusterSize(&n, fn, &c));
}

/* --- async notifications ------------------------------------------------ */

/* Did NVIDIA's driver crash in the case called @name? */
static bool h100_crashed(const char *name)
{
	const char *v = h100_line(name);

	return v && !strncmp(v, "signal", 6);
}

static int notified;

static void on_notify(CUasyncNotificationInfo *info, void *user,
		      CUasyncCallbackHandle h)
{
	(void)info;
	(void)user;
	(void)h;
	notified++;
}

static void async_notification(void)
{
	CUasyncCallbackHandle h = NULL, h2 = NULL, h3 = NULL;

	setup();
	CHECK_H100("async register", cuDeviceRegisterAsyncNotification(0,
			on_notify, NULL, &h));
	CHECK(h != NULL);
	CHECK_H100("async register second", cuDeviceRegisterAsyncNotification(0,
			on_notify, NULL, &h2));
	CHECK(h2 != NULL && h2 != h);
	CHECK_H100("async register dev 99", cuDeviceRegisterAsyncNotification(99,
			on_notify, NULL, &h3));
	CHECK_H100("async register dev -1", cuDeviceRegisterAsyncNotification(-1,
			on_notify, NULL, &h3));
	CHECK(h3 == NULL);
	CHECK_H100("async register null cb", cuDeviceRegisterAsyncNotification(0,
			NULL, NULL, &h3));
	CHECK_H100("async unregister dev 99",
		   cuDeviceUnregisterAsyncNotification(99, h));
	CHECK_H100("async unregister", cuDeviceUnregisterAsyncNotification(0, h));
	CHECK_H100("async unregister null",
		   cuDeviceUnregisterAsyncNotification(0, NULL));
	/*
	 * Where the H100 crashes (a NULL handle pointer, a handle
	 * unregistered twice or never registered): INVALID_VALUE here.
	 */
	CHECK(h100_crashed("async register null handle"));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuDeviceRegisterAsyncNotification(0, on_notify, NULL, NULL));
	CHECK(h100_crashed("async"));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuDeviceUnregisterAsyncNotification(0, h));
	CHECK(h100_crashed("async unregister bogus"));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceUnregisterAsyncNotification(0,
			(CUasyncCallbackHandle)0x1234));
	CHECK_RES(CUDA_SUCCESS, cuDeviceUnregisterAsyncNotification(0, h2));
	/* vgpu sets no memory budget: nothing is ever over it. */
	CHECK(notified == 0);
}

/* --- cuGetExportTable --------------------------------------------------- */

static void export_table(void)
{
	CUuuid z = { { 0 } }, r;
	const void *t = (const void *)0x5a5a;
	int i;

	for (i = 0; i < 16; i++)
		r.bytes[i] = (char)(0x3c + 17 * i);
	CHECK_H100("export noinit random uuid", cuGetExportTable(&t, &r));
	setup();
	t = (const void *)0x5a5a;
	CHECK_H100("export zero uuid", cuGetExportTable(&t, &z));
	CHECK(t == NULL);
	t = (const void *)0x5a5a;
	CHECK_H100("export random uuid", cuGetExportTable(&t, &r));
	CHECK(t == NULL);
	CHECK_H100("export null out zero uuid", cuGetExportTable(NULL, &z));
	CHECK_H100("export null out random uuid", cuGetExportTable(NULL, &r));
	CHECK_H100("export null uuid", cuGetExportTable(&t, NULL));
}

/* --- the first ABI ------------------------------------------------------ */

/* CUDA_MEMCPY2D of the first ABI: 32-bit positions, pitches and pointers. */
struct memcpy2d_v1 {
	unsigned int srcXInBytes, srcY;
	CUmemorytype srcMemoryType;
	const void *srcHost;
	unsigned int srcDevice;
	CUarray srcArray;
	unsigned int srcPitch;
	unsigned int dstXInBytes, dstY;
	CUmemorytype dstMemoryType;
	void *dstHost;
	unsigned int dstDevice;
	CUarray dstArray;
	unsigned int dstPitch;
	unsigned int WidthInBytes, Height;
};

/*
 * Outputs are cleared and every call refused with INVALID_CONTEXT: the
 * contexts (all of API version 3020) are not of that ABI.
 */
static void first_abi_memory(void)
{
	CUresult (*alloc)(unsigned int *, unsigned int) = sym("cuMemAlloc");
	CUresult (*freem)(unsigned int) = sym("cuMemFree");
	CUresult (*info)(unsigned int *, unsigned int *) = sym("cuMemGetInfo");
	CUresult (*allochost)(void **, unsigned int) = sym("cuMemAllocHost");
	CUresult (*pitch)(unsigned int *, unsigned int *, unsigned int,
			  unsigned int, unsigned int) = sym("cuMemAllocPitch");
	CUresult (*range)(unsigned int *, unsigned int *, unsigned int) =
		sym("cuMemGetAddressRange");
	CUresult (*hostdev)(unsigned int *, void *, unsigned int) =
		sym("cuMemHostGetDevicePointer");
	CUresult (*global)(unsigned int *, unsigned int *, CUmodule,
			   const char *) = sym("cuModuleGetGlobal");
	unsigned int a = 77, b = 77, p32 = 77, lo = (unsigned int)d;
	void *hp = (void *)1, *h;
	char src[64];

	setup();
	CHECK(h100_value("device pointer above 4 GiB", "") == 1);
	CHECK(d > 0xffffffffULL);
	CHECK_H100("v1 alloc", alloc(&p32, 4096));
	CHECK(p32 == 0 && h100_value("v1 alloc", "out") == 0);
	CHECK_H100("v1 alloc 0", alloc(&p32, 0));
	CHECK_H100("v1 alloc null", alloc(NULL, 4096));
	CHECK_H100("v1 meminfo", info(&a, &b));
	CHECK(a == 0 && b == 0);
	CHECK_H100("v1 meminfo null", info(NULL, &a));
	CHECK_H100("v1 meminfo null both", info(NULL, NULL));
	CHECK_H100("v1 free 0", freem(0));
	CHECK_H100("v1 free low bits", freem(lo));
	CHECK_H100("v1 free 0x1000", freem(0x1000));
	CHECK_H100("v1 alloc host", allochost(&hp, 4096));
	CHECK(hp == NULL);
	CHECK_H100("v1 alloc host 0", allochost(&hp, 0));
	a = b = 77;
	CHECK_H100("v1 alloc pitch", pitch(&a, &b, 64, 4, 4));
	CHECK(a == 0 && b == 0);
	a = b = 77;
	CHECK_H100("v1 address range", range(&a, &b, lo));
	CHECK(a == 0 && b == 0);
	CHECK_H100("v1 address range 0", range(&a, &b, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostAlloc(&h, 4096,
						 CU_MEMHOSTALLOC_DEVICEMAP));
	p32 = 77;
	CHECK_H100("v1 host device pointer", hostdev(&p32, h, 0));
	CHECK(p32 == 0);
	CHECK_H100("v1 host device pointer flags 1", hostdev(&p32, h, 1));
	CHECK_H100("v1 host device pointer malloc", hostdev(&p32, src, 0));
	a = b = 77;
	CHECK_H100("v1 module global", global(&a, &b, mod, "g"));
	CHECK(a == 0 && b == 0);
	CHECK_H100("v1 module global unknown", global(&a, &b, mod, "nope"));
	CHECK_H100("v1 module global null out", global(NULL, NULL, mod, "g"));
	CHECK_H100("v1 module global null name", global(&a, &b, mod, NULL));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(NULL));
	CHECK_H100("v1 alloc no current", alloc(&p32, 4096));
	CHECK_H100("v1 meminfo no current", info(&a, &b));
}

static void first_abi_copies(void)
{
	CUresult (*dtod)(unsigned int, unsigned int, unsigned int) =
		sym("cuMemcpyDtoD");
	CUresult (*dtoda)(unsigned int, unsigned int, unsigned int, CUstream) =
		sym("cuMemcpyDtoDAsync");
	CUresult (*dtoh)(void *, unsigned int, unsigned int) = sym("cuMemcpyDtoH");
	CUresult (*dtoha)(void *, unsigned int, unsigned int, CUstream) =
		sym("cuMemcpyDtoHAsync");
	CUresult (*htod)(unsigned int, const void *, unsigned int) =
		sym("cuMemcpyHtoD");
	CUresult (*htoda)(unsigned int, const void *, unsigned int, CUstream) =
		sym("cuMemcpyHtoDAsync");
	CUresult (*d8)(unsigned int, unsigned char, unsigned int) = sym("cuMemsetD8");
	CUresult (*d16)(unsigned int, unsigned short, unsigned int) =
		sym("cuMemsetD16");
	CUresult (*d32)(unsigned int, unsigned int, unsigned int) = sym("cuMemsetD32");
	CUresult (*d2d8)(unsigned int, unsigned int, unsigned char, unsigned int,
			 unsigned int) = sym("cuMemsetD2D8");
	CUresult (*d2d16)(unsigned int, unsigned int, unsigned short,
			  unsigned int, unsigned int) = sym("cuMemsetD2D16");
	CUresult (*d2d32)(unsigned int, unsigned int, unsigned int, unsigned int,
			  unsigned int) = sym("cuMemsetD2D32");
	CUresult (*m2d)(const struct memcpy2d_v1 *) = sym("cuMemcpy2D");
	CUresult (*m2da)(const struct memcpy2d_v1 *, CUstream) =
		sym("cuMemcpy2DAsync");
	CUresult (*m2du)(const struct memcpy2d_v1 *) = sym("cuMemcpy2DUnaligned");
	CUresult (*m3d)(const void *) = sym("cuMemcpy3D");
	CUresult (*m3da)(const void *, CUstream) = sym("cuMemcpy3DAsync");
	unsigned int lo = (unsigned int)d;
	char src[64], dst[64];
	struct memcpy2d_v1 c2;
	/* A 3D copy the calls never read: refused before. */
	char c3[256] = { 0 };

	setup();
	memset(src, 7, sizeof(src));
	memset(dst, 0, sizeof(dst));
	CHECK_H100("v1 htod low bits", htod(lo, src, 16));
	CHECK_H100("v1 htod 0", htod(0, src, 16));
	CHECK_H100("v1 htod async", htoda(lo, src, 16, NULL));
	CHECK_H100("v1 dtoh low bits", dtoh(dst, lo, 16));
	CHECK_H100("v1 dtoh async", dtoha(dst, lo, 16, NULL));
	CHECK_H100("v1 dtod low bits", dtod(lo, lo + 64, 16));
	CHECK_H100("v1 dtod async", dtoda(lo, lo + 64, 16, NULL));
	CHECK_H100("v1 htod size 0", htod(lo, src, 0));
	CHECK_H100("v1 memset d8", d8(lo, 1, 16));
	CHECK_H100("v1 memset d8 0", d8(0, 1, 16));
	CHECK_H100("v1 memset d8 n 0", d8(lo, 1, 0));
	CHECK_H100("v1 memset d16", d16(lo, 1, 16));
	CHECK_H100("v1 memset d32", d32(lo, 1, 16));
	CHECK_H100("v1 memset 2d8", d2d8(lo, 64, 1, 16, 2));
	CHECK_H100("v1 memset 2d16", d2d16(lo, 64, 1, 16, 2));
	CHECK_H100("v1 memset 2d32", d2d32(lo, 64, 1, 16, 2));
	memset(&c2, 0, sizeof(c2));
	c2.srcMemoryType = c2.dstMemoryType = CU_MEMORYTYPE_HOST;
	c2.srcHost = src;
	c2.dstHost = dst;
	c2.srcPitch = c2.dstPitch = 16;
	c2.WidthInBytes = 8;
	c2.Height = 2;
	CHECK_H100("v1 memcpy2d host to host", m2d(&c2));
	CHECK(dst[0] == 0 && h100_value("v1 memcpy2d host to host copied", "") == 0);
	CHECK_H100("v1 memcpy2d async host to host", m2da(&c2, NULL));
	CHECK_H100("v1 memcpy2d unaligned host to host", m2du(&c2));
	CHECK_H100("v1 memcpy2d null", m2d(NULL));
	CHECK_H100("v1 memcpy3d host to host", m3d(c3));
	CHECK_H100("v1 memcpy3d async host to host", m3da(c3, NULL));
	CHECK_H100("v1 memcpy3d null", m3d(NULL));
	/* Nothing reached the device. */
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(dst, d, 16));
	CHECK(dst[0] == 0 && dst[15] == 0);
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(NULL));
	CHECK_H100("v1 htod no current", htod(lo, src, 16));
	CHECK_H100("v1 memset d8 no current", d8(lo, 1, 16));
}

/* The unsuffixed cuMemHostRegister works, and takes any flags. */
static void first_abi_host_register(void)
{
	CUresult (*hostreg)(void *, size_t, unsigned int) =
		sym("cuMemHostRegister");
	void *reg = aligned_alloc(4096, 4096);
	CUdeviceptr rd = 0;

	setup();
	CHECK_H100("v1 host register", hostreg(reg, 4096, 0));
	CHECK_H100("v1 host register then v2 device pointer",
		   cuMemHostGetDevicePointer(&rd, reg, 0));
	CHECK(rd == (CUdeviceptr)reg);
	CHECK_H100("v1 host register then unregister", cuMemHostUnregister(reg));
	CHECK_H100("v1 host register flags 2",
		   hostreg(reg, 4096, CU_MEMHOSTREGISTER_DEVICEMAP));
	CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(reg));
	CHECK_H100("v1 host register bad flags", hostreg(reg, 4096, 0x100));
	CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(reg));
	CHECK_H100("v1 host register size 0", hostreg(reg, 0, 0));
	/* Registered once: twice is refused, as through the current symbol. */
	CHECK_RES(CUDA_SUCCESS, hostreg(reg, 4096, 0));
	CHECK_RES(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, hostreg(reg, 4096, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(reg));
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(before_init),
		TAP_TEST(attach_primary),
		TAP_TEST(detach_destroys_created),
		TAP_TEST(detach_needs_current),
		TAP_TEST(exec_affinity_support),
		TAP_TEST(ctx_exec_affinity),
		TAP_TEST(ctx_create_affinity),
		TAP_TEST(reset_persisting_l2),
		TAP_TEST(func_shared_mem_config),
		TAP_TEST(pointer_sync_memops),
		TAP_TEST(pointer_other_attributes),
		TAP_TEST(sync_memops_forgotten),
		TAP_TEST(sync_memops_complete),
		TAP_TEST(cluster_occupancy_one_block),
		TAP_TEST(cluster_occupancy_shapes),
		TAP_TEST(cluster_occupancy_arguments),
		TAP_TEST(async_notification),
		TAP_TEST(export_table),
		TAP_TEST(first_abi_memory),
		TAP_TEST(first_abi_copies),
		TAP_TEST(first_abi_host_register),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
