// SPDX-License-Identifier: MIT
/*
 * Stream-ordered allocation through the driver API: the default, current
 * and created pools, their attributes, cuMemAllocAsync,
 * cuMemAllocFromPoolAsync, cuMemFreeAsync and cuMemFree on pool memory,
 * the reuse rules, the release threshold and trimming, kernels writing
 * pool memory, and bad calls, each held to what NVIDIA's driver answered
 * on an H100 for the same sequence (tests/e2e/ref/h100_mempool.log, from
 * ref/h100_mempool.c there). Where the H100's answer is about its
 * reservation granule (32 MiB chunks; vgpu reserves block by block) the
 * test says so and checks vgpu's own rule. A stream made busy here spins
 * on a flag in mapped host memory rather than on the GPU's timer.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_mempool.log"
#include "h100_log.h"

static CUdevice dev;
static CUstream s1, s2;
static CUevent ev;
static CUfunction wait_flag, fill;
static volatile uint32_t *flag;
static CUdeviceptr dflag;

static const char ptx[] =
	".version 7.0\n.target sm_75\n.address_size 64\n"
	/* while (!*(volatile uint32_t *)p); */
	".visible .entry wait_flag(.param .u64 p)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [p];\n"
	"L:\tld.volatile.global.u32 %r1, [%rd1];\n"
	"\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 bra L;\n\tret;\n}\n"
	/* p[i] = v + i for the block's threads */
	".visible .entry fill(.param .u64 p, .param .u32 v)\n{\n"
	"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
	"\tmov.u32 %r2, %tid.x;\n\tadd.s32 %r1, %r1, %r2;\n"
	"\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tst.global.u32 [%rd3], %r1;\n\tret;\n}\n";

static void setup(void)
{
	CUcontext ctx;
	CUmodule mod;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGet(&dev, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&wait_flag, mod, "wait_flag"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&fill, mod, "fill"));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostAlloc((void **)&flag, 4,
						 CU_MEMHOSTALLOC_DEVICEMAP));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostGetDevicePointer(&dflag, (void *)flag, 0));
}

/* @s runs a kernel that spins until release(). */
static void busy(CUstream s)
{
	void *args[] = { &dflag };

	*flag = 0;
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(wait_flag, 1, 1, 1, 1, 1, 1, 0, s, args, NULL));
}

static void release(void)
{
	*flag = 1;
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

static unsigned long long attr(CUmemoryPool p, int a)
{
	unsigned long long v = 0;

	CHECK_RES(CUDA_SUCCESS, cuMemPoolGetAttribute(p, a, &v));
	return a <= 3 ? v & 0xffffffffull : v;
}

/* The H100's value of attribute @a in the log's block @tag. */
static long long h100_attr(const char *tag, int a)
{
	char name[96];

	snprintf(name, sizeof(name), "%s attr %d", tag, a);
	return h100_value(name, "value");
}

static const char *same(CUdeviceptr a, CUdeviceptr b)
{
	return a == b ? "same" : "other";
}

static bool h100_says(const char *name, const char *what)
{
	const char *v = h100_line(name);

	return v && !strncmp(v, what, strlen(what));
}

static void device_attributes(void)
{
	int v = -1;

	setup();
	CHECK_RES(h100("devattr pools supported"), cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, dev));
	CHECK(v == h100("devattr pools supported value"));
	/* The H100 has POSIX fds and fabric handles (9); vgpu none yet. */
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES, dev));
	CHECK(v == 0);
}

static void default_pool(void)
{
	CUmemoryPool def, cur, p;
	int a;

	setup();
	CHECK_RES(h100("default pool"), cuDeviceGetDefaultMemPool(&def, dev));
	CHECK_RES(h100("current pool"), cuDeviceGetMemPool(&cur, dev));
	CHECK(cur == def);
	CHECK_RES(h100("default pool bad dev"), cuDeviceGetDefaultMemPool(&p, 99));
	CHECK_RES(h100("default pool null"), cuDeviceGetDefaultMemPool(NULL, dev));
	for (a = 1; a <= 8; a++)
		CHECK(attr(def, a) == (unsigned long long)h100_attr("default", a));
}

static void same_stream_reuse(void)
{
	CUmemoryPool def, q = NULL;
	CUdeviceptr a = 0, b = 0, c = 0, d = 0;
	size_t n = 0;
	uint32_t host[32];
	unsigned int v = 7, i;
	void *args[] = { &b, &v };

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&def, dev));
	CHECK_RES(h100("alloc a"), cuMemAllocAsync(&a, 1000, s1));
	CHECK_RES(h100("free a"), cuMemFreeAsync(a, s1));
	CHECK_RES(h100("alloc b"), cuMemAllocAsync(&b, 1000, s1));
	CHECK(h100_says("same stream reuse", same(a, b)));
	/* The memory works: a kernel writes it, a copy reads it back. */
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(fill, 1, 1, 1, 32, 1, 1, 0, s1, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoHAsync(host, b, sizeof(host), s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s1));
	for (i = 0; i < 32; i++)
		CHECK(host[i] == 7 + i);
	/* Used: the bytes asked for; reserved: the H100's is its 32 MiB chunk. */
	CHECK(attr(def, 7) == (unsigned long long)h100_attr("after sync with b", 7));
	CHECK(attr(def, 8) == (unsigned long long)h100_attr("after sync with b", 8));
	CHECK(attr(def, 5) >= 1000 && attr(def, 5) < 2048);
	CHECK_RES(h100("addr range b"), cuMemGetAddressRange(&c, &n, b));
	CHECK(h100_says("range b", same(c, b)));
	CHECK(n == (size_t)h100_value("range b", "size"));
	CHECK_RES(h100("ptr pool b"), cuPointerGetAttribute(&q, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, b));
	CHECK(q == def);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&c, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, b + 100));
	CHECK(c == b);
	CHECK_RES(CUDA_SUCCESS, cuMemAlloc(&d, 64));
	CHECK_RES(h100("ptr pool plain"), cuPointerGetAttribute(&q, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, d));
	CHECK(q == NULL);
	CHECK_RES(h100("free async of cuMemAlloc"), cuMemFreeAsync(d, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s1));
	CHECK_RES(h100("free b"), cuMemFreeAsync(b, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s1));
	/* Threshold 0: a synchronization gives everything back. */
	CHECK(attr(def, 5) == (unsigned long long)h100_attr("after free b sync", 5));
	CHECK(attr(def, 7) == (unsigned long long)h100_attr("after free b sync", 7));
	CHECK(attr(def, 8) == (unsigned long long)h100_attr("after free b sync", 8));
}

/* The block a busy stream frees goes to another stream only by the rules. */
static void other_stream_rules(void)
{
	CUmemoryPool def;
	CUdeviceptr a = 0, b = 0, c = 0;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&def, dev));
	/* No dependency: another block, and s2 does not wait for s1. */
	CHECK_RES(h100("alloc a2"), cuMemAllocAsync(&a, 4096, s1));
	busy(s1);
	CHECK_RES(h100("free a2"), cuMemFreeAsync(a, s1));
	CHECK_RES(h100("alloc b2 other stream"), cuMemAllocAsync(&b, 4096, s2));
	CHECK(h100_says("busy other stream reuse", same(a, b)));
	CHECK_RES(h100("s2 busy after"), cuStreamQuery(s2));
	release();
	CHECK_RES(CUDA_SUCCESS, cuMemFreeAsync(b, s2));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());

	/* Internal dependencies off: the same. */
	CHECK_RES(h100("set internal off"), cuMemPoolSetAttribute(def,
		  CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES, &(int){ 0 }));
	CHECK_RES(h100("alloc a3"), cuMemAllocAsync(&a, 4096, s1));
	busy(s1);
	CHECK_RES(h100("free a3"), cuMemFreeAsync(a, s1));
	CHECK_RES(h100("alloc b3 other stream"), cuMemAllocAsync(&b, 4096, s2));
	CHECK(h100_says("busy other stream no internal", same(a, b)));
	release();

	/* An event dependency: the block is taken again. */
	CHECK_RES(h100("free b3"), cuMemFreeAsync(b, s2));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(h100("alloc a4"), cuMemAllocAsync(&a, 4096, s1));
	busy(s1);
	CHECK_RES(h100("free a4"), cuMemFreeAsync(a, s1));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(s2, ev, 0));
	CHECK_RES(h100("alloc b4 after event"), cuMemAllocAsync(&b, 4096, s2));
	CHECK(h100_says("event dependency reuse", same(a, b)));
	release();
	CHECK_RES(CUDA_SUCCESS, cuMemFreeAsync(b, s2));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());

	/* ... unless the pool does not follow events. */
	CHECK_RES(CUDA_SUCCESS, cuMemPoolSetAttribute(def,
		  CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, &(int){ 0 }));
	CHECK_RES(h100("alloc a5"), cuMemAllocAsync(&a, 4096, s1));
	busy(s1);
	CHECK_RES(h100("free a5"), cuMemFreeAsync(a, s1));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(ev, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(s2, ev, 0));
	CHECK_RES(h100("alloc b5 after event"), cuMemAllocAsync(&b, 4096, s2));
	CHECK(h100_says("event dependency follow off", same(a, b)));
	release();
	CHECK_RES(CUDA_SUCCESS, cuMemFreeAsync(b, s2));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());

	/*
	 * A completed free on another stream, the block kept (threshold):
	 * taken while REUSE_ALLOW_OPPORTUNISTIC is set, not once it is off.
	 * (The H100's log has these after a synchronization that gave the
	 * memory back, where its answers tell nothing of the rule.)
	 */
	CHECK_RES(CUDA_SUCCESS, cuMemPoolSetAttribute(def,
		  CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &(unsigned long long){ 1ull << 30 }));
	CHECK_RES(CUDA_SUCCESS, cuMemAllocAsync(&a, 4096, s1));
	CHECK_RES(CUDA_SUCCESS, cuMemFreeAsync(a, s1));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemAllocAsync(&c, 4096, s2));
	CHECK(c == a);
	CHECK_RES(CUDA_SUCCESS, cuMemFreeAsync(c, s2));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemPoolSetAttribute(def,
		  CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &(int){ 0 }));
	CHECK_RES(CUDA_SUCCESS, cuMemAllocAsync(&c, 4096, s1));
	CHECK(c != a);
	CHECK_RES(CUDA_SUCCESS, cuMemFreeAsync(c, s1));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemPoolSetAttribute(def,
		  CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &(unsigned long long){ 0 }));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemPoolTrimTo(def, 0));
	CHECK(attr(def, 1) == (unsigned long long)h100_attr("default after flags", 1));
	CHECK(attr(def, 2) == (unsigned long long)h100_attr("default after flags", 2));
	CHECK(attr(def, 3) == (unsigned long long)h100_attr("default after flags", 3));
	CHECK(attr(def, 5) == (unsigned long long)h100_attr("default after flags", 5));
	CHECK(attr(def, 7) == (unsigned long long)h100_attr("default after flags", 7));
	CHECK_RES(h100("reset flags"),
		  cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &(int){ 1 }) +
		  cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, &(int){ 1 }) +
		  cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES, &(int){ 1 }));
}

static void threshold_and_trim(void)
{
	CUmemoryPool def;
	CUdeviceptr a = 0;
	unsigned long long v = 64ull << 20;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&def, dev));
	CHECK_RES(h100("set threshold"), cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));
	CHECK_RES(h100("alloc 32M"), cuMemAllocAsync(&a, 32u << 20, s1));
	CHECK_RES(h100("free 32M"), cuMemFreeAsync(a, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s1));
	CHECK(attr(def, 4) == (unsigned long long)h100_attr("threshold kept", 4));
	CHECK(attr(def, 5) == (unsigned long long)h100_attr("threshold kept", 5));
	CHECK(attr(def, 7) == (unsigned long long)h100_attr("threshold kept", 7));
	CHECK_RES(h100("trim 0"), cuMemPoolTrimTo(def, 0));
	CHECK(attr(def, 5) == (unsigned long long)h100_attr("trimmed", 5));
	v = 0;
	CHECK_RES(CUDA_SUCCESS, cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));
	CHECK_RES(h100("reset reserved high"), cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &v));
	CHECK_RES(h100("reset used high"), cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v));
	v = 5;
	CHECK_RES(h100("set reserved high nonzero"), cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &v));
	CHECK_RES(h100("set reserved current"), cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v));
	CHECK_RES(h100("set used current"), cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v));
	CHECK_RES(h100("set attr 0"), cuMemPoolSetAttribute(def, 0, &v));
	CHECK_RES(h100("set attr 99"), cuMemPoolSetAttribute(def, 99, &v));
	CHECK_RES(h100("get attr 99"), cuMemPoolGetAttribute(def, 99, &v));
	CHECK_RES(h100("set reuse 2"), cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &(int){ 2 }));
	for (int a = 1; a <= 8; a++)
		CHECK(attr(def, a) == (unsigned long long)h100_attr("after bad sets", a));
	CHECK_RES(h100("get null pool"), cuMemPoolGetAttribute(NULL, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));
}

static void bad_calls(void)
{
	CUdeviceptr a = 1, c = 0, d = 0;

	setup();
	CHECK_RES(h100("alloc 0 bytes"), cuMemAllocAsync(&a, 0, s1));
	CHECK_RES(h100("alloc null ptr"), cuMemAllocAsync(NULL, 16, s1));
	CHECK_RES(h100("alloc huge"), cuMemAllocAsync(&a, 1ull << 50, s1));
	CHECK_RES(h100("free null"), cuMemFreeAsync(0, s1));
	CHECK_RES(h100("free bogus"), cuMemFreeAsync(0x1234, s1));
	CHECK_RES(h100("alloc c"), cuMemAllocAsync(&c, 256, s1));
	CHECK_RES(h100("free c interior"), cuMemFreeAsync(c + 16, s1));
	CHECK_RES(h100("free c"), cuMemFreeAsync(c, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s1));
	CHECK_RES(h100("free c twice"), cuMemFreeAsync(c, s1));
	CHECK_RES(h100("alloc d"), cuMemAllocAsync(&d, 256, s1));
	CHECK_RES(h100("cuMemFree of async"), cuMemFree(d));
	/* Freed twice while the pool keeps the block: refused, block kept. */
	CHECK_RES(CUDA_SUCCESS, cuMemAllocAsync(&d, 256, s1));
	CHECK_RES(CUDA_SUCCESS, cuMemFreeAsync(d, s1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFreeAsync(d, s1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFree(d));
	CHECK_RES(CUDA_SUCCESS, cuMemAllocAsync(&c, 256, s1));
	CHECK(c == d);
	CHECK_RES(CUDA_SUCCESS, cuMemFreeAsync(c, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s1));
}

static void created_pool(void)
{
	CUmemoryPool def, cur, p, q;
	CUmemPoolProps props;
	CUmemAccessDesc acc;
	CUmemLocation loc;
	CUmemAccess_flags fl;
	CUdeviceptr a = 0, b = 0;
	unsigned long long v;
	int iv, i;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&def, dev));
	memset(&props, 0, sizeof(props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	props.location.id = 0;
	CHECK_RES(h100("create"), cuMemPoolCreate(&p, &props));
	for (i = 1; i <= 8; i++)
		CHECK(attr(p, i) == (unsigned long long)h100_attr("created", i));
	CHECK_RES(h100("alloc from pool"), cuMemAllocFromPoolAsync(&a, 4096, p, s1));
	CHECK_RES(h100("ptr pool is created"), cuPointerGetAttribute(&q, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, a));
	CHECK(q == p);
	CHECK_RES(h100("set current"), cuDeviceSetMemPool(dev, p));
	CHECK_RES(h100("get current"), cuDeviceGetMemPool(&cur, dev));
	CHECK(cur == p);
	CHECK_RES(h100("alloc via current"), cuMemAllocAsync(&b, 64, s1));
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&q, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, b));
	CHECK(q == p);
	CHECK_RES(CUDA_SUCCESS, cuMemFreeAsync(b, s1));
	loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
	loc.id = 0;
	CHECK_RES(h100("get access own"), cuMemPoolGetAccess(&fl, p, &loc));
	CHECK((int)fl == h100("access own"));
	acc.location = loc;
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
	CHECK_RES(h100("set access own read"), cuMemPoolSetAccess(p, &acc, 1));
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	CHECK_RES(h100("set access own rw"), cuMemPoolSetAccess(p, &acc, 1));
	acc.location.id = 5;
	CHECK_RES(h100("set access bad dev"), cuMemPoolSetAccess(p, &acc, 1));
	loc.id = 7;
	CHECK_RES(h100("get access bad dev"), cuMemPoolGetAccess(&fl, p, &loc));
	/* Another device is a peer: no access until given (peer_api.c uses it). */
	if (cuDeviceGetCount(&iv) == CUDA_SUCCESS && iv > 1) {
		loc.id = 1;
		CHECK_RES(CUDA_SUCCESS, cuMemPoolGetAccess(&fl, p, &loc));
		CHECK(fl == CU_MEM_ACCESS_FLAGS_PROT_NONE);
		acc.location = loc;
		acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
		CHECK_RES(CUDA_SUCCESS, cuMemPoolSetAccess(p, &acc, 1));
		CHECK_RES(CUDA_SUCCESS, cuMemPoolGetAccess(&fl, p, &loc));
		CHECK(fl == CU_MEM_ACCESS_FLAGS_PROT_READ);
		acc.flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
		CHECK_RES(CUDA_SUCCESS, cuMemPoolSetAccess(p, &acc, 1));
		CHECK_RES(CUDA_SUCCESS, cuMemPoolGetAccess(&fl, p, &loc));
		CHECK(fl == CU_MEM_ACCESS_FLAGS_PROT_NONE);
		acc.flags = 7;
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemPoolSetAccess(p, &acc, 1));
	}
	/* Destroyed with an allocation outstanding: the handle goes, the memory stays. */
	CHECK_RES(h100("destroy with outstanding"), cuMemPoolDestroy(p));
	CHECK_RES(h100("use after destroy get attr"), cuMemPoolGetAttribute(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));
	CHECK_RES(h100("get current after destroy"), cuDeviceGetMemPool(&cur, dev));
	CHECK(cur == def);
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32Async(a, 0x5a5a5a5a, 1024, s1));
	CHECK_RES(h100("free outstanding"), cuMemFreeAsync(a, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s1));
	CHECK_RES(h100("destroy default"), cuMemPoolDestroy(def));
	CHECK_RES(h100("destroy null"), cuMemPoolDestroy(NULL));
	/* The default pool has no handle types: not exported. */
	CHECK_RES(h100("export no handle types"), cuMemPoolExportToShareableHandle(&iv, def,
		  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	props.location.id = 9;
	CHECK_RES(h100("create bad dev"), cuMemPoolCreate(&q, &props));
	props.location.id = 0;
	props.allocType = 0;
	CHECK_RES(h100("create type 0"), cuMemPoolCreate(&q, &props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	CHECK_RES(h100("create null"), cuMemPoolCreate(NULL, &props));
	CHECK_RES(h100("create null props"), cuMemPoolCreate(&q, NULL));
	/* A maximum size holds (the H100 rounds it up to its 32 MiB chunk). */
	props.maxSize = 1u << 20;
	CHECK_RES(h100("create max 1M"), cuMemPoolCreate(&q, &props));
	CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, cuMemAllocFromPoolAsync(&a, 2u << 20, q, s1));
	CHECK_RES(h100("alloc 512K from 1M pool"), cuMemAllocFromPoolAsync(&a, 512u << 10, q, s1));
	CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, cuMemAllocFromPoolAsync(&b, 600u << 10, q, s1));
	CHECK_RES(CUDA_SUCCESS, cuMemFreeAsync(a, s1));
	CHECK_RES(CUDA_SUCCESS, cuMemPoolDestroy(q));
	CHECK_RES(h100("set device pool bad dev"), cuDeviceSetMemPool(9, def));
	CHECK_RES(h100("reset current"), cuDeviceSetMemPool(dev, def));
	CHECK_RES(h100("ctx sync"), cuCtxSynchronize());
}

/* Many allocations in flight on two streams, freed in order: nothing stays. */
static void churn(void)
{
	CUmemoryPool def;
	CUdeviceptr p[64];
	size_t free0, free1, total;
	unsigned int i, round;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&def, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSynchronize());
	REQUIRE_RES(CUDA_SUCCESS, cuMemGetInfo(&free0, &total));
	for (round = 0; round < 20; round++) {
		CUstream s = round & 1 ? s1 : s2;

		for (i = 0; i < 64; i++)
			CHECK_RES(CUDA_SUCCESS, cuMemAllocAsync(&p[i], 512 * (i + 1), s));
		for (i = 0; i < 64; i++) {
			void *args[] = { &p[i], &i };

			CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(fill, 1, 1, 1, 32, 1, 1, 0, s, args, NULL));
		}
		for (i = 0; i < 64; i++)
			CHECK_RES(CUDA_SUCCESS, cuMemFreeAsync(p[i], s));
	}
	CHECK(attr(def, 7) == 0);
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(attr(def, 5) == 0);
	REQUIRE_RES(CUDA_SUCCESS, cuMemGetInfo(&free1, &total));
	CHECK(free1 == free0);
}

/*
 * Memory a pool keeps (below its release threshold) gives way to an
 * allocation that needs it, as NVIDIA's driver trims its pools when the
 * device runs out.
 */
static void kept_memory_gives_way(void)
{
	CUmemoryPool def;
	CUdeviceptr p[4], big = 0;
	size_t free0, total;
	unsigned int i;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&def, dev));
	CHECK_RES(CUDA_SUCCESS, cuMemPoolSetAttribute(def,
		  CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &(unsigned long long){ ~0ull }));
	for (i = 0; i < 4; i++)
		CHECK_RES(CUDA_SUCCESS, cuMemAllocAsync(&p[i], 16u << 20, s1));
	for (i = 0; i < 4; i++)
		CHECK_RES(CUDA_SUCCESS, cuMemFreeAsync(p[i], s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s1));
	CHECK(attr(def, 5) == 64u << 20);
	REQUIRE_RES(CUDA_SUCCESS, cuMemGetInfo(&free0, &total));
	/* More than is free, less than is free with the pool's 64 MiB. */
	CHECK_RES(CUDA_SUCCESS, cuMemAllocAsync(&big, free0 + (32u << 20), s2));
	CHECK(attr(def, 7) == free0 + (32u << 20));
	CHECK(attr(def, 5) < (64u << 20) + free0 + (32u << 20));
	CHECK_RES(CUDA_SUCCESS, cuMemFreeAsync(big, s2));
	CHECK_RES(CUDA_SUCCESS, cuMemPoolTrimTo(def, 0));
	CHECK(attr(def, 5) == 0);
}

/* A context's pool memory goes with it; the pool lives on. */
static void context_destroyed(void)
{
	CUcontext c;
	CUmemoryPool def;
	CUstream s;
	CUdeviceptr a = 0;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&def, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemAllocAsync(&a, 8192, s));
	CHECK(attr(def, 7) == 8192);
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	CHECK(attr(def, 5) == 0 && attr(def, 7) == 0);
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&c, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c));
	CHECK_RES(CUDA_SUCCESS, cuMemAllocAsync(&a, 100, s1));
	CHECK_RES(CUDA_SUCCESS, cuMemFreeAsync(a, s1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s1));
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(device_attributes),
		TAP_TEST(default_pool),
		TAP_TEST(same_stream_reuse),
		TAP_TEST(other_stream_rules),
		TAP_TEST(threshold_and_trim),
		TAP_TEST(bad_calls),
		TAP_TEST(created_pool),
		TAP_TEST(churn),
		TAP_TEST(kept_memory_gives_way),
		TAP_TEST(context_destroyed),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
