// SPDX-License-Identifier: MIT
/*
 * Contexts of the first ABI in the VM: the unsuffixed cuCtxCreate makes a
 * context of API version 3010 whose device addresses fit 32 bits, where
 * the first ABI's memory calls (reached by their unsuffixed symbols, as
 * cuda.h maps the names to newer ones) work and the current ABI's
 * allocation calls do not. Each probed case is checked against the code
 * an H100 gave (tests/e2e/ref/h100_ctx_v1.log, from h100_ctx_v1.c there);
 * the cases it did not probe say so and assert vgpu's real outcome.
 */
#include <dlfcn.h>
#include <stdint.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_ctx_v1.log"
#include "h100_log.h"
#define MIB (1u << 20)
#define BELOW_4G(p, n) ((uint64_t)(p) + (n) <= (1ULL << 32))

typedef unsigned int u32;

/* The first ABI's array descriptor. */
struct desc_v1 {
	unsigned int Width, Height;
	CUarray_format Format;
	unsigned int NumChannels;
};

/* The first ABI's entry points, resolved by name. */
static CUresult (*create1)(CUcontext *, unsigned int, CUdevice);
static CUresult (*alloc1)(u32 *, unsigned int);
static CUresult (*free1)(u32);
static CUresult (*htod1)(u32, const void *, unsigned int);
static CUresult (*dtoh1)(void *, u32, unsigned int);
static CUresult (*dtod1)(u32, u32, unsigned int);
static CUresult (*memset1)(u32, unsigned char, unsigned int);
static CUresult (*memset32_1)(u32, unsigned int, unsigned int);
static CUresult (*range1)(u32 *, unsigned int *, u32);
static CUresult (*pitch1)(u32 *, unsigned int *, unsigned int, unsigned int,
			  unsigned int);
static CUresult (*info1)(unsigned int *, unsigned int *);
static CUresult (*global1)(u32 *, unsigned int *, CUmodule, const char *);
static CUresult (*copy2d1)(const void *);

/* Resolves the first ABI's calls and makes a context of it, current. */
static CUcontext setup(void)
{
	CUcontext c = NULL;

	create1 = sym("cuCtxCreate");
	alloc1 = sym("cuMemAlloc");
	free1 = sym("cuMemFree");
	htod1 = sym("cuMemcpyHtoD");
	dtoh1 = sym("cuMemcpyDtoH");
	dtod1 = sym("cuMemcpyDtoD");
	memset1 = sym("cuMemsetD8");
	memset32_1 = sym("cuMemsetD32");
	range1 = sym("cuMemGetAddressRange");
	pitch1 = sym("cuMemAllocPitch");
	info1 = sym("cuMemGetInfo");
	global1 = sym("cuModuleGetGlobal");
	copy2d1 = sym("cuMemcpy2D");
	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(h100("v1 ctxcreate"), create1(&c, 0, 0));
	return c;
}

static void api_versions(void)
{
	CUcontext c = setup(), o, pc;
	unsigned int v = 0;

	CHECK_RES(CUDA_SUCCESS, cuCtxGetApiVersion(c, &v));
	CHECK(v == h100("v1 ctx api") && v == 3010);
	v = 0;
	CHECK_RES(CUDA_SUCCESS, cuCtxGetApiVersion(NULL, &v));
	CHECK(v == 3010);
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&pc, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetApiVersion(pc, &v));
	CHECK(v == h100("primary api"));
	/* The current ABI's cuCtxCreate: an ordinary context, as before. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate_v4(&o, NULL, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetApiVersion(o, &v));
	CHECK(v == 3020);
}

static void alloc_copy_fill_range(void)
{
	char in[64] = "first abi", out[64];
	unsigned int sz = 0;
	u32 p = 0, base = 0;
	int i;

	setup();
	CHECK_H100("v1 alloc", alloc1(&p, 4096));
	CHECK(p != 0 && h100_value("v1 alloc", "below4g") == 1);
	CHECK(BELOW_4G(p, 4096));
	CHECK_H100("v1 htod", htod1(p, in, sizeof(in)));
	memset(out, 0, sizeof(out));
	CHECK_H100("v1 dtoh", dtoh1(out, p, sizeof(out)));
	CHECK(!memcmp(in, out, sizeof(in)));
	CHECK(h100_value("v1 dtoh", "same") == 1);
	CHECK_H100("v1 memset", memset1(p, 7, 16));
	CHECK_RES(CUDA_SUCCESS, dtoh1(out, p, sizeof(out)));
	for (i = 0; i < 16; i++)
		CHECK(out[i] == 7);
	CHECK(!memcmp(in + 16, out + 16, sizeof(in) - 16));
	CHECK_H100("v1 range", range1(&base, &sz, p + 10));
	CHECK(base == p && h100_value("v1 range", "base_ok") == 1);
	CHECK(sz == h100_value("v1 range", "size"));
}

/* The current ABI's allocation calls refuse the context, as on an H100. */
static void current_abi_refused(void)
{
	CUdeviceptr p2 = 0;
	size_t pitch = 0;

	setup();
	CHECK_H100("v2 alloc in v1 ctx", cuMemAlloc_v2(&p2, 4096));
	CHECK(p2 == 0 && h100_value("v2 alloc in v1 ctx", "below4g") == 1);
	CHECK_H100("v2 free in v1 ctx", cuMemFree_v2(p2));
	/* Not probed: an allocation too, assumed refused the same way. */
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT,
		  cuMemAllocPitch_v2(&p2, &pitch, 64, 4, 4));
	CHECK(p2 == 0 && pitch == 0);
}

static void large_allocations(void)
{
	char name[32];
	u32 q = 0;
	int i;

	setup();
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "v1 alloc 64M #%d", i);
		q = 0;
		CHECK_H100(name, alloc1(&q, 64 * MIB));
		CHECK(q != 0 && BELOW_4G(q, 64 * MIB));
	}
	CHECK_H100("v1 alloc 3.75G", alloc1(&q, 0xf0000000u));
}

static void free_twice(void)
{
	u32 p = 0;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, alloc1(&p, 4096));
	CHECK_H100("v1 free", free1(p));
	CHECK_H100("v1 free twice", free1(p));
}

/*
 * Memory a context of the first ABI takes for itself lies below 4 GiB
 * too: a module's globals, reached by 32-bit pointers, and a kernel that
 * writes through one. Not probed on the H100: the outcomes asserted are
 * the data.
 */
static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .global .align 4 .u32 g[4];\n"
	".visible .entry add(.param .u64 p, .param .u32 v)\n{\n"
	".reg .b64 %rd<3>;\n.reg .b32 %r<4>;\n"
	"ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\n"
	"ld.param.u32 %r1, [v];\nld.global.u32 %r2, [%rd2];\n"
	"add.s32 %r3, %r2, %r1;\nst.global.u32 [%rd2], %r3;\nret;\n}\n";

static void module_global_and_launch(void)
{
	unsigned int words[4] = { 1, 2, 3, 4 }, got[4] = { 0 }, gsz = 0;
	unsigned int v = 5;
	CUdeviceptr wide;
	CUfunction fn;
	CUmodule mod;
	u32 g = 0;
	void *args[] = { &wide, &v };

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&fn, mod, "add"));
	CHECK_RES(CUDA_SUCCESS, global1(&g, &gsz, mod, "g"));
	CHECK(g != 0 && gsz == sizeof(words) && BELOW_4G(g, gsz));
	CHECK_RES(CUDA_SUCCESS, htod1(g, words, sizeof(words)));
	wide = g;
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL,
					       args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, dtoh1(got, g, sizeof(got)));
	CHECK(got[0] == 6 && got[1] == 2 && got[3] == 4);
	CHECK_RES(CUDA_ERROR_NOT_FOUND, global1(&g, &gsz, mod, "nope"));
}

/* CUDA_MEMCPY2D of the first ABI, as compat_v1.c reads it. */
struct memcpy2d_v1 {
	unsigned int srcXInBytes, srcY;
	CUmemorytype srcMemoryType;
	const void *srcHost;
	u32 srcDevice;
	CUarray srcArray;
	unsigned int srcPitch;
	unsigned int dstXInBytes, dstY;
	CUmemorytype dstMemoryType;
	void *dstHost;
	u32 dstDevice;
	CUarray dstArray;
	unsigned int dstPitch;
	unsigned int WidthInBytes, Height;
};

/* The other calls of the first ABI, not probed: their data is asserted. */
static void other_calls(void)
{
	unsigned char host[4][64], back[4][64];
	unsigned int pitch = 0, f = 0, t = 0, words[8];
	struct memcpy2d_v1 c;
	u32 p = 0, q = 0;
	int i, j;

	setup();
	CHECK_RES(CUDA_SUCCESS, pitch1(&p, &pitch, 64, 4, 4));
	CHECK(p != 0 && pitch >= 64 && BELOW_4G(p, (uint64_t)pitch * 4));
	for (i = 0; i < 4; i++)
		for (j = 0; j < 64; j++)
			host[i][j] = (unsigned char)(i * 64 + j);
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = host;
	c.srcPitch = 64;
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = p;
	c.dstPitch = pitch;
	c.WidthInBytes = 64;
	c.Height = 4;
	CHECK_RES(CUDA_SUCCESS, copy2d1(&c));
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = p;
	c.srcPitch = pitch;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = back;
	c.dstPitch = 64;
	c.WidthInBytes = 64;
	c.Height = 4;
	memset(back, 0, sizeof(back));
	CHECK_RES(CUDA_SUCCESS, copy2d1(&c));
	CHECK(!memcmp(host, back, sizeof(host)));
	CHECK_RES(CUDA_SUCCESS, alloc1(&q, sizeof(words)));
	CHECK_RES(CUDA_SUCCESS, memset32_1(q, 0xdeadbeefu, 8));
	CHECK_RES(CUDA_SUCCESS, dtod1(p, q, 8));
	CHECK_RES(CUDA_SUCCESS, dtoh1(words, p, sizeof(words)));
	CHECK(words[0] == 0xdeadbeefu && words[1] == 0xdeadbeefu);
	CHECK(!memcmp((unsigned char *)words + 8, host[0] + 8, 24));
	CHECK_RES(CUDA_SUCCESS, info1(&f, &t));
	CHECK(t != 0 && f != 0 && f <= t);
	CHECK_RES(CUDA_SUCCESS, free1(q));
	CHECK_RES(CUDA_SUCCESS, free1(p));
}

static const char tex_ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".global .texref tr;\n"
	".visible .entry fetch(.param .u64 o)\n{\n"
	".reg .b64 %rd<3>;\n.reg .b32 %r<8>;\n"
	"ld.param.u64 %rd1, [o];\ncvta.to.global.u64 %rd2, %rd1;\nmov.u32 %r1, 2;\n"
	"tex.1d.v4.u32.s32 {%r2, %r3, %r4, %r5}, [tr, {%r1}];\n"
	"st.global.u32 [%rd2], %r2;\nret;\n}\n";

/*
 * The first ABI's texture reference calls (not probed: outcomes asserted):
 * linear memory bound by a 32-bit address, read back and fetched through;
 * a pitched 2D binding; in an ordinary context, refused with the output
 * cleared, as the first ABI's memory calls are.
 */
static void texture_references(void)
{
	CUresult (*setaddr1)(unsigned int *, CUtexref, u32, unsigned int) =
		sym("cuTexRefSetAddress");
	CUresult (*setaddr2d1)(CUtexref, const struct desc_v1 *, u32, unsigned int) =
		sym("cuTexRefSetAddress2D");
	CUresult (*getaddr1)(u32 *, CUtexref) = sym("cuTexRefGetAddress");
	unsigned int words[16], off = 77, pitch = 0, got = 0;
	struct desc_v1 d = { 4, 4, CU_AD_FORMAT_UNSIGNED_INT32, 1 };
	CUcontext v1, ordinary;
	CUdeviceptr wide;
	CUfunction fn;
	CUmodule mod;
	CUtexref tr;
	u32 p = 0, o = 0, q = 0, back = 0;
	void *args[] = { &wide };
	int i;

	v1 = setup();
	for (i = 0; i < 16; i++)
		words[i] = 1000u + (unsigned int)i;
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, tex_ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&fn, mod, "fetch"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetTexRef(&tr, mod, "tr"));
	CHECK_RES(CUDA_SUCCESS, cuTexRefSetFormat(tr, CU_AD_FORMAT_UNSIGNED_INT32, 1));
	CHECK_RES(CUDA_SUCCESS, alloc1(&p, sizeof(words)));
	CHECK_RES(CUDA_SUCCESS, alloc1(&o, 4));
	CHECK_RES(CUDA_SUCCESS, htod1(p, words, sizeof(words)));
	CHECK_RES(CUDA_SUCCESS, setaddr1(&off, tr, p, sizeof(words)));
	CHECK(off == 0);
	CHECK_RES(CUDA_SUCCESS, getaddr1(&back, tr));
	CHECK(back == p);
	wide = o;
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, dtoh1(&got, o, 4));
	CHECK(got == 1002);
	CHECK_RES(CUDA_SUCCESS, pitch1(&q, &pitch, 16, 4, 4));
	CHECK_RES(CUDA_SUCCESS, setaddr2d1(tr, &d, q, pitch));
	back = 0;
	CHECK_RES(CUDA_SUCCESS, getaddr1(&back, tr));
	CHECK(back == q);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, setaddr2d1(tr, NULL, q, pitch));
	CHECK_RES(CUDA_SUCCESS, free1(q));
	CHECK_RES(CUDA_SUCCESS, free1(o));
	CHECK_RES(CUDA_SUCCESS, free1(p));
	CHECK_RES(CUDA_SUCCESS, cuCtxCreate(&ordinary, NULL, 0, 0));
	off = 77;
	back = 5;
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, setaddr1(&off, tr, p, 64));
	CHECK(off == 0);
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, getaddr1(&back, tr));
	CHECK(back == 0);
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, setaddr2d1(tr, &d, p, 64));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(ordinary));
	CHECK_RES(CUDA_SUCCESS, cuCtxSetCurrent(v1));
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(mod));
}

/*
 * Which context is current decides: a context of the first ABI and an
 * ordinary one side by side, each answering as its ABI does (an ordinary
 * one refuses the first ABI's calls: tests/e2e/ref/h100_compat.log).
 */
static void ordinary_context_unchanged(void)
{
	CUcontext v1 = setup(), o;
	CUdeviceptr d = 0;
	u32 p = 77;

	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate_v4(&o, NULL, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemAlloc_v2(&d, 4096));
	CHECK(d > 0xffffffffULL);
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, alloc1(&p, 4096));
	CHECK(p == 0);
	CHECK_RES(CUDA_SUCCESS, cuCtxPushCurrent(v1));
	CHECK_RES(CUDA_SUCCESS, alloc1(&p, 4096));
	CHECK(p != 0);
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuMemFree_v2(d));
	CHECK_RES(CUDA_SUCCESS, cuCtxPopCurrent(NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemFree_v2(d));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, free1(p));
}

/*
 * Page-locked memory, not probed: the first ABI's cuMemAllocHost works,
 * and mapped host memory has a 32-bit device address only where its host
 * address has one; elsewhere it does not fit, OUT_OF_MEMORY.
 */
static void host_memory(void)
{
	CUresult (*allochost1)(void **, unsigned int) = sym("cuMemAllocHost");
	CUresult (*hostdev1)(u32 *, void *, unsigned int) =
		sym("cuMemHostGetDevicePointer");
	void *h = NULL;
	u32 hd = 77;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, allochost1(&h, 4096));
	memset(h, 3, 4096);
	CHECK(((unsigned char *)h)[4095] == 3);
	CHECK_RES(CUDA_SUCCESS, cuMemFreeHost(h));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostAlloc(&h, 4096,
						 CU_MEMHOSTALLOC_DEVICEMAP));
	if ((uintptr_t)h > 0xffffffffu) {
		CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, hostdev1(&hd, h, 0));
	} else {
		CHECK_RES(CUDA_SUCCESS, hostdev1(&hd, h, 0));
		CHECK(hd == (uintptr_t)h);
	}
	CHECK_RES(CUDA_SUCCESS, cuMemFreeHost(h));
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(api_versions),
		TAP_TEST(alloc_copy_fill_range),
		TAP_TEST(current_abi_refused),
		TAP_TEST(large_allocations),
		TAP_TEST(free_twice),
		TAP_TEST(module_global_and_launch),
		TAP_TEST(other_calls),
		TAP_TEST(host_memory),
		TAP_TEST(texture_references),
		TAP_TEST(ordinary_context_unchanged),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
