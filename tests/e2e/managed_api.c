// SPDX-License-Identifier: MIT
/*
 * Managed memory through the driver API: cuMemAllocManaged, the memory
 * written by the host, by a kernel and by the copy engines and read back,
 * cuMemFree, the pointer and device attributes, cuMemAdvise,
 * cuMemPrefetchAsync, cuMemRangeGetAttribute(s) and cuStreamAttachMemAsync,
 * each call and each query held to what NVIDIA's driver answered on an
 * H100 for the same sequence (tests/e2e/ref/h100_managed.log, from
 * ref/h100_managed.c there, whose calls the tests below repeat in order),
 * and __managed__ variables: a module's own managed storage, reached by
 * the host through cuModuleGetGlobal's address and by its kernels.
 */
#include <errno.h>
#include <sys/mman.h>
#include <dlfcn.h>
#include <stdbool.h>
#include <stdint.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_managed.log"
#include "h100_log.h"

static CUdevice dev;
static CUstream st;

/* Adds 1 to each of n u32 at p, one thread each. */
static const char inc_ptx[] =
	".version 7.0\n"
	".target sm_75\n"
	".address_size 64\n"
	".visible .entry inc(.param .u64 p, .param .u32 n)\n"
	"{\n"
	"	.reg .pred %q;\n"
	"	.reg .b32 %r<7>;\n"
	"	.reg .b64 %d<4>;\n"
	"	ld.param.u64 %d1, [p];\n"
	"	ld.param.u32 %r1, [n];\n"
	"	mov.u32 %r2, %ctaid.x;\n"
	"	mov.u32 %r3, %ntid.x;\n"
	"	mov.u32 %r4, %tid.x;\n"
	"	mad.lo.s32 %r5, %r2, %r3, %r4;\n"
	"	setp.ge.u32 %q, %r5, %r1;\n"
	"	@%q bra done;\n"
	"	mul.wide.u32 %d2, %r5, 4;\n"
	"	add.s64 %d3, %d1, %d2;\n"
	"	ld.global.u32 %r6, [%d3];\n"
	"	add.s32 %r6, %r6, 1;\n"
	"	st.global.u32 [%d3], %r6;\n"
	"done:\n"
	"	ret;\n"
	"}\n";

/*
 * What nvcc 13 emits for ref/h100_managed_k.cu (nvcc -ptx
 * -arch=compute_75): two __managed__ variables, one __device__ one, and
 * a kernel that updates all three.
 */
static const char managed_k_ptx[] =
	".version 9.0\n"
	".target sm_75\n"
	".address_size 64\n"
	"\n"
	"	// .globl	bump\n"
	".global .attribute(.managed) .align 4 .u32 counter = 3;\n"
	".global .attribute(.managed) .align 4 .b8 arr[64] = {0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64};\n"
	".global .align 4 .u32 plain = 11;\n"
	"\n"
	".visible .entry bump(\n"
	"	.param .u32 bump_param_0\n"
	")\n"
	"{\n"
	"	.reg .f32 	%f<3>;\n"
	"	.reg .b32 	%r<7>;\n"
	"	.reg .b64 	%rd<5>;\n"
	"\n"
	"	ld.param.u32 	%r1, [bump_param_0];\n"
	"	mov.u64 	%rd1, counter;\n"
	"	atom.global.add.u32 	%r2, [%rd1], %r1;\n"
	"	mov.u32 	%r3, %tid.x;\n"
	"	mul.wide.u32 	%rd2, %r3, 4;\n"
	"	mov.u64 	%rd3, arr;\n"
	"	add.s64 	%rd4, %rd3, %rd2;\n"
	"	ld.global.f32 	%f1, [%rd4];\n"
	"	add.f32 	%f2, %f1, %f1;\n"
	"	st.global.f32 	[%rd4], %f2;\n"
	"	ld.global.u32 	%r4, [counter];\n"
	"	ld.global.u32 	%r5, [plain];\n"
	"	add.s32 	%r6, %r5, %r4;\n"
	"	st.global.u32 	[plain], %r6;\n"
	"	ret;\n"
	"\n"
	"}\n";

/*
 * Addresses of managed variables in initializers, both ways: a __device__
 * pointer to a managed variable, a managed pointer to a __device__ one,
 * and a managed variable named past its end (arr + 8, its last element
 * at -4). via() adds *pb to *pa, and 1 to the last element of arr.
 */
static const char managed_refs_ptx[] =
	".version 7.0\n"
	".target sm_75\n"
	".address_size 64\n"
	".global .align 4 .u32 b = 9;\n"
	".global .attribute(.managed) .align 4 .u32 a = 7;\n"
	".global .attribute(.managed) .align 4 .u32 arr[2] = {20, 30};\n"
	".global .align 8 .u64 pa = generic(a);\n"
	".global .attribute(.managed) .align 8 .u64 pb = generic(b);\n"
	".visible .entry via()\n"
	"{\n"
	"	.reg .b32 %r<4>;\n"
	"	.reg .b64 %rd<4>;\n"
	"	ld.global.u64 %rd1, [pa];\n"
	"	ld.global.u64 %rd2, [pb];\n"
	"	ld.u32 %r1, [%rd1];\n"
	"	ld.u32 %r2, [%rd2];\n"
	"	add.s32 %r1, %r1, %r2;\n"
	"	st.u32 [%rd1], %r1;\n"
	"	mov.u64 %rd3, arr+8;\n"
	"	ld.global.u32 %r3, [%rd3+-4];\n"
	"	add.s32 %r3, %r3, 1;\n"
	"	st.global.u32 [arr+4], %r3;\n"
	"	ret;\n"
	"}\n";

static void setup(void)
{
	CUcontext ctx;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGet(&dev, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
}

static CUmemLocation loc(int type, int id)
{
	CUmemLocation l;

	memset(&l, 0, sizeof(l));
	l.type = (CUmemLocationType)type;
	l.id = id;
	return l;
}

/* @call's code against the H100's for @name. */
#define AS_H100(name, call) CHECK_RES(h100(name), (call))

/*
 * Every range attribute of [p, p + n) against the H100's "@tag range N"
 * lines: the code, and the value(s) when it succeeded.
 */
static void ranges(const char *tag, CUdeviceptr p, size_t n)
{
	char name[128];
	int a;

	for (a = 1; a <= 8; a++) {
		int v[4] = { -7, -7, -7, -7 }, i;
		const char *line, *val;
		CUresult r;

		snprintf(name, sizeof(name), "%s range %d", tag, a);
		r = cuMemRangeGetAttribute(v, a == 3 ? sizeof(v) : 4,
					   (CUmem_range_attribute)a, p, n);
		line = h100_line(name);
		if (!line)
			continue;
		if ((int)r != atoi(line + 3)) {
			TAP_FAIL("%s: code %d, the H100's %s", name, (int)r,
				 line);
			continue;
		}
		val = strstr(line, "value ");
		for (i = 0; val && i < (a == 3 ? 4 : 1); i++) {
			char *end;
			long want = strtol(val + (i ? 0 : 6), &end, 10);

			if (v[i] != want)
				TAP_FAIL("%s: value %d is %d, the H100's %s",
					 name, i, v[i], line);
			val = end;
		}
	}
}

/* The device attributes say what vgpu does with managed memory. */
static void device_attributes(void)
{
	static const struct { int a; int v; } want[] = {
		{ CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, 1 },
		{ CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS, 1 },
		{ CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, 0 },
		{ CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS_USES_HOST_PAGE_TABLES, 0 },
		/*
		 * 0 on an H100, whose host reaches device-resident managed
		 * memory only by migrating it; vgpu's never moves.
		 */
		{ CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST, 1 },
	};
	unsigned int i;
	char name[32];
	int v;

	setup();
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		REQUIRE_RES(CUDA_SUCCESS,
			    cuDeviceGetAttribute(&v, want[i].a, dev));
		if (v != want[i].v)
			TAP_FAIL("attribute %d is %d, want %d", want[i].a, v,
				 want[i].v);
		snprintf(name, sizeof(name), "attr %d", want[i].a);
		if (want[i].a != CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST)
			CHECK(h100_value(name, "value") == v);
	}
}

static void alloc_args(void)
{
	CUdeviceptr m = 0;

	setup();
	AS_H100("alloc flags 0", cuMemAllocManaged(&m, 4096, 0));
	AS_H100("alloc flags 3", cuMemAllocManaged(&m, 4096, 3));
	AS_H100("alloc flags 4", cuMemAllocManaged(&m, 4096, 4));
	AS_H100("alloc flags 8", cuMemAllocManaged(&m, 4096, 8));
	AS_H100("alloc size 0", cuMemAllocManaged(&m, 0, CU_MEM_ATTACH_GLOBAL));
	AS_H100("alloc null", cuMemAllocManaged(NULL, 4096, CU_MEM_ATTACH_GLOBAL));
	AS_H100("alloc huge", cuMemAllocManaged(&m, (size_t)1 << 50,
						CU_MEM_ATTACH_GLOBAL));
	/* Both attachments give zeroed memory the host can use at once. */
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocManaged(&m, 100, CU_MEM_ATTACH_GLOBAL));
	CHECK(m % 4096 == 0);
	CHECK(((unsigned char *)m)[5] == 0);
	((int *)m)[0] = 42;
	CHECK(((int *)m)[0] == 42);
	CHECK_RES(CUDA_SUCCESS, cuMemFree(m));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocManaged(&m, 3 * 4096 + 5, CU_MEM_ATTACH_HOST));
	CHECK(((unsigned char *)m)[3 * 4096 + 4] == 0);
	CHECK_RES(CUDA_SUCCESS, cuMemFree(m));
}

/*
 * The Programming Guide's pattern: the host fills a managed array, a
 * kernel updates it in place, the host reads it after synchronizing; the
 * copy engines and fills reach it as device memory.
 */
static void host_kernel_host(void)
{
	const unsigned int n = 100000;
	CUdeviceptr m, d;
	unsigned int i, bad = 0, *a;
	CUfunction fn;
	CUmodule mod;
	void *args[] = { &m, (void *)&n };
	uint32_t v = 0;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocManaged(&m, n * 4, CU_MEM_ATTACH_GLOBAL));
	a = (unsigned int *)m;
	for (i = 0; i < n; i++)
		a[i] = i * 3;
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, inc_ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&fn, mod, "inc"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemPrefetchAsync(m, n * 4, loc(1, 0), 0, st));
	REQUIRE_RES(CUDA_SUCCESS, cuLaunchKernel(fn, (n + 255) / 256, 1, 1,
						 256, 1, 1, 0, st, args, NULL));
	REQUIRE_RES(CUDA_SUCCESS, cuMemPrefetchAsync(m, n * 4, loc(2, 0), 0, st));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamSynchronize(st));
	for (i = 0; i < n; i++)
		bad += a[i] != i * 3 + 1;
	CHECK(bad == 0);

	/* Copies and fills, as on the H100. */
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	AS_H100("memcpy htod managed", cuMemcpyHtoD(m, &v, 4));
	CHECK(a[0] == 0);
	AS_H100("memcpy dtod managed to dev", cuMemcpyDtoD(d, m, 4096));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, d + 8, 4));
	CHECK(v == 7);
	AS_H100("memset managed", cuMemsetD8(m, 7, 4096));
	CHECK(((unsigned char *)m)[100] == h100_value("memset seen by host", ""));
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(mod));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(m));
}

/*
 * A fill of managed or page-locked host memory is done when the call
 * returns (CUDA documents memsets of unified and pinned memory as fully
 * synchronous; an H200's are), even queued behind a long fill of device
 * memory: the host reads the new bytes at once.
 */
static void managed_fill_synchronous(void)
{
	const size_t big_n = 64 << 20, n = 1 << 20;
	uint8_t *b, *reg, *ro, *page;
	CUdeviceptr big, m;
	void *host;
	uint32_t *w;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&big, big_n));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocManaged(&m, n, CU_MEM_ATTACH_GLOBAL));
	w = (uint32_t *)m;
	b = (uint8_t *)m;
	memset(b, 0, n);
	CHECK_RES(CUDA_SUCCESS, cuMemsetD8(big, 1, big_n));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(m, 0x01020304, n / 4));
	CHECK(w[n / 4 - 1] == 0x01020304);
	CHECK_RES(CUDA_SUCCESS, cuMemsetD8(big, 2, big_n));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD2D8(m, 4096, 9, 100, 16));
	CHECK(b[15 * 4096 + 99] == 9 && b[15 * 4096 + 100] == 0x04);
	/* An asynchronous fill is not waited for: the stream's order only. */
	CHECK_RES(CUDA_SUCCESS, cuMemsetD8Async(m, 5, n, st));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(st));
	CHECK(b[n - 1] == 5);
	/* Page-locked host memory too (an H200 fills it and waits). */
	CHECK_RES(CUDA_SUCCESS, cuMemAllocHost(&host, 4096));
	memset(host, 0, 4096);
	CHECK_RES(CUDA_SUCCESS, cuMemsetD8(big, 3, big_n));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD8((CUdeviceptr)host, 3, 4096));
	CHECK(((uint8_t *)host)[4095] == 3);
	CHECK_RES(CUDA_SUCCESS, cuMemFreeHost(host));
	/*
	 * Registered memory is filled too; read-only registered memory and
	 * pageable memory are not (an H200: 0, then 1 and 1).
	 */
	reg = aligned_alloc(4096, 8192);
	ro = aligned_alloc(4096, 4096);
	page = malloc(4096);
	if (!reg || !ro || !page) {
		TAP_FAIL("out of memory");
		exit(1);
	}
	memset(reg, 0, 8192);
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostRegister(reg, 8192, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostRegister(ro, 4096, CU_MEMHOSTREGISTER_READ_ONLY));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD8(big, 4, big_n));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD8((CUdeviceptr)reg + 100, 6, 8000));
	CHECK(reg[8099] == 6 && reg[99] == 0 && reg[8100] == 0);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD8((CUdeviceptr)ro, 6, 16));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD8((CUdeviceptr)page, 6, 16));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD8((CUdeviceptr)reg + 100, 6, 8100));
	CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(reg));
	CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(ro));
	free(reg);
	free(ro);
	free(page);
	CHECK_RES(CUDA_SUCCESS, cuMemFree(m));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(big));
}

/* One managed pointer's attributes against the H100's "@tag ptr N". */
static void ptrattrs(const char *tag, CUdeviceptr p, CUdeviceptr start)
{
	/* Those whose values vgpu and the H100 share. */
	static const int a[] = { 2, 3, 4, 6, 8, 9, 10, 11, 12, 13, 14, 15, 16,
				 17, 21 };
	unsigned int i;
	char name[64];

	for (i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		unsigned long long buf[8] = { 0xdedededededededeull };
		const char *line, *val;
		CUresult r;

		r = cuPointerGetAttribute(buf, (CUpointer_attribute)a[i], p);
		snprintf(name, sizeof(name), "%s ptr %d", tag, a[i]);
		line = h100_line(name);
		if (!line)
			continue;
		if ((int)r != atoi(line + 3)) {
			TAP_FAIL("%s: code %d, the H100's %s", name, (int)r, line);
			continue;
		}
		if (r)
			continue;
		val = strstr(line, "value ") + 6;
		if (!strncmp(val, "ptr", 3))
			CHECK(buf[0] == p);
		else if (!strncmp(val, "page", 4))
			CHECK(buf[0] == start);
		else if (!strncmp(val, "other", 5))
			CHECK(a[i] != 11 || buf[0] == start);
		else if ((buf[0] & 0xffffffffull) != strtoull(val, NULL, 16))
			TAP_FAIL("%s: value %#llx, the H100's %s", name,
				 buf[0] & 0xffffffffull, line);
	}
}

static void pointer_attributes(void)
{
	CUpointer_attribute pa[] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
		CU_POINTER_ATTRIBUTE_IS_MANAGED,
		CU_POINTER_ATTRIBUTE_HOST_POINTER,
		CU_POINTER_ATTRIBUTE_RANGE_SIZE };
	unsigned int t = 9, mg = 9;
	void *hptr = NULL, *dat[] = { &t, &mg, &hptr, NULL };
	CUdeviceptr m, mh, base;
	CUcontext ctx = NULL, cur;
	size_t sz = 9, msz = 0;
	int ord = -1;

	setup();
	dat[3] = &sz;
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocManaged(&m, 100, CU_MEM_ATTACH_GLOBAL));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocManaged(&mh, 3 * 4096 + 5, CU_MEM_ATTACH_HOST));
	ptrattrs("managed", m, m);
	ptrattrs("managed+50", m + 50, m);
	ptrattrs("managed+200", m + 200, m);
	ptrattrs("managed host", mh + 4096, mh);
	/* The context, ordinal and mapping, which the H100's log names. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&ctx, CU_POINTER_ATTRIBUTE_CONTEXT, m));
	CHECK(ctx == cur);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&ord, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, m));
	CHECK(ord == 0);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&base, CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, m + 50));
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&msz, CU_POINTER_ATTRIBUTE_MAPPING_SIZE, m + 50));
	CHECK(base <= m && m + 100 <= base + msz);

	AS_H100("getattrs managed", cuPointerGetAttributes(4, pa, dat, m + 8));
	CHECK(t == h100_value("getattrs values", ""));
	CHECK(mg == 1 && hptr == (void *)(uintptr_t)(m + 8) && sz == 100);
	CHECK_RES(CUDA_SUCCESS, cuMemFree(mh));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(m));
}

/* The H100 probe's allocations: m (100 bytes), mh, m2 (1 MiB), d, h. */
static CUdeviceptr m, mh, m2, d, h;

/*
 * The H100 packs managed allocations: its m2 began 0x400 bytes into a
 * page (m2 - m is 0x3400 in its log), so each of its page-sized ranges
 * from m2 touched two pages. With @shifted, m2 is placed likewise, inside
 * an allocation a page longer, so that the advice and prefetches touch
 * the same pages as there; the range queries then read what the H100's
 * did.
 */
static void probe_allocs(bool shifted)
{
	void *hp;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocManaged(&m, 100, CU_MEM_ATTACH_GLOBAL));
	((int *)m)[0] = 42;
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocManaged(&mh, 3 * 4096 + 5, CU_MEM_ATTACH_HOST));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocManaged(&m2, (1 << 20) + (shifted ? 4096 : 0),
						    CU_MEM_ATTACH_GLOBAL));
	if (shifted)
		m2 += 0x400;
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostAlloc(&hp, 4096, 0));
	h = (CUdeviceptr)(uintptr_t)hp;
}

static void range_attributes(void)
{
	CUmem_range_attribute ra[] = { 1, 2, 4, 3 };
	int v, rm = -7, pl = -7, lp = -7, ab[2] = { -7, -7 };
	void *dat[] = { &rm, &pl, &lp, ab };
	size_t sizes[] = { 4, 4, 4, 8 };

	probe_allocs(true);
	ranges("fresh", m2, 1 << 20);
	ranges("fresh 1 page", m2 + 4096, 4096);
	ranges("fresh 100", m, 100);
	ranges("fresh 4096", m, 4096);
	AS_H100("range size 0", cuMemRangeGetAttribute(&v, 4, 1, m2, 0));
	AS_H100("range unaligned start", cuMemRangeGetAttribute(&v, 4, 1, m2 + 1, 4096));
	AS_H100("range unaligned size", cuMemRangeGetAttribute(&v, 4, 1, m2, 100));
	AS_H100("range datasize 8", cuMemRangeGetAttribute(&v, 8, 1, m2, 4096));
	AS_H100("range datasize 2", cuMemRangeGetAttribute(&v, 2, 1, m2, 4096));
	AS_H100("range datasize 0", cuMemRangeGetAttribute(&v, 0, 1, m2, 4096));
	AS_H100("range accessed_by 4", cuMemRangeGetAttribute(&v, 4, 3, m2, 4096));
	AS_H100("range accessed_by 6", cuMemRangeGetAttribute(&v, 6, 3, m2, 4096));
	AS_H100("range accessed_by 0", cuMemRangeGetAttribute(&v, 0, 3, m2, 4096));
	AS_H100("range null data", cuMemRangeGetAttribute(NULL, 4, 1, m2, 4096));
	AS_H100("range attr 0", cuMemRangeGetAttribute(&v, 4, 0, m2, 4096));
	AS_H100("range attr 9", cuMemRangeGetAttribute(&v, 4, 9, m2, 4096));
	AS_H100("range device mem", cuMemRangeGetAttribute(&v, 4, 1, d, 4096));
	AS_H100("range hostalloc", cuMemRangeGetAttribute(&v, 4, 1, h, 4096));
	AS_H100("range null ptr", cuMemRangeGetAttribute(&v, 4, 1, 0, 4096));
	AS_H100("range stack", cuMemRangeGetAttribute(&v, 4, 1,
			(CUdeviceptr)(uintptr_t)&v & ~0xfffull, 4096));
	AS_H100("range past end", cuMemRangeGetAttribute(&v, 4, 1, m2, (1 << 20) + 4096));
	AS_H100("range spans two", cuMemRangeGetAttribute(&v, 4, 1, m, 4096 * 3));
	AS_H100("range past 100 alloc", cuMemRangeGetAttribute(&v, 4, 1, m, 8192));

	AS_H100("getattrs", cuMemRangeGetAttributes(dat, sizes, ra, 4, m2, 4096));
	CHECK(rm == 0 && pl == -2 && lp == -2 && ab[0] == -2 && ab[1] == -2);
	sizes[0] = 8;
	AS_H100("getattrs bad size", cuMemRangeGetAttributes(dat, sizes, ra, 4, m2, 4096));
	sizes[0] = 4;
	AS_H100("getattrs n 0", cuMemRangeGetAttributes(dat, sizes, ra, 0, m2, 4096));
	AS_H100("getattrs null sizes", cuMemRangeGetAttributes(dat, NULL, ra, 4, m2, 4096));
	AS_H100("getattrs device mem", cuMemRangeGetAttributes(dat, sizes, ra, 4, d, 4096));
}

/* The probe's advice, then its prefetches, each followed by its queries. */
static void advise_then_prefetch(void)
{
	probe_allocs(true);
	AS_H100("advise rm", cuMemAdvise(m2, 1 << 20, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	ranges("after rm", m2, 1 << 20);
	AS_H100("advise unset rm page", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_UNSET_READ_MOSTLY, loc(1, 0)));
	ranges("after unset rm page (whole)", m2, 1 << 20);
	ranges("after unset rm page (page 0)", m2, 4096);
	ranges("after unset rm page (page 1)", m2 + 4096, 4096);
	AS_H100("advise rm bad loc", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(0, 0)));
	AS_H100("advise rm bad dev", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 7)));
	AS_H100("advise pref dev", cuMemAdvise(m2, 8192, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(1, 0)));
	ranges("after pref dev", m2, 8192);
	ranges("after pref dev (whole)", m2, 1 << 20);
	AS_H100("advise pref host", cuMemAdvise(m2 + 8192, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(2, 0)));
	ranges("after pref host", m2 + 8192, 4096);
	AS_H100("advise pref host id 5", cuMemAdvise(m2 + 8192, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(2, 5)));
	AS_H100("advise pref host numa 0", cuMemAdvise(m2 + 12288, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(3, 0)));
	ranges("after pref host numa", m2 + 12288, 4096);
	AS_H100("advise pref host numa 9", cuMemAdvise(m2 + 12288, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(3, 9)));
	AS_H100("advise pref numa current", cuMemAdvise(m2 + 12288, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(4, 0)));
	ranges("after pref numa current", m2 + 12288, 4096);
	AS_H100("advise pref bad dev", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(1, 7)));
	AS_H100("advise pref dev -1", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(1, -1)));
	AS_H100("advise pref type 0", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(0, 0)));
	AS_H100("advise pref type 9", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(9, 0)));
	AS_H100("advise unset pref", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, loc(0, 0)));
	ranges("after unset pref", m2, 4096);
	AS_H100("advise acc dev", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_ACCESSED_BY, loc(1, 0)));
	AS_H100("advise acc host", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_ACCESSED_BY, loc(2, 0)));
	ranges("after acc", m2, 4096);
	AS_H100("advise unset acc host", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_UNSET_ACCESSED_BY, loc(2, 0)));
	ranges("after unset acc host", m2, 4096);
	AS_H100("advise acc bad dev", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_ACCESSED_BY, loc(1, 7)));
	AS_H100("advise acc numa", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_ACCESSED_BY, loc(3, 0)));
	AS_H100("advise unset acc dev", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_UNSET_ACCESSED_BY, loc(1, 0)));
	ranges("after unset acc dev", m2, 4096);
	AS_H100("advise 0", cuMemAdvise(m2, 4096, 0, loc(1, 0)));
	AS_H100("advise 7", cuMemAdvise(m2, 4096, 7, loc(1, 0)));
	AS_H100("advise size 0", cuMemAdvise(m2, 0, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	AS_H100("advise unaligned", cuMemAdvise(m2 + 1, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	AS_H100("advise unaligned size", cuMemAdvise(m2, 100, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	ranges("after unaligned size", m2, 4096);
	AS_H100("advise 100 alloc", cuMemAdvise(m, 100, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	ranges("after 100 alloc", m, 4096);
	AS_H100("advise device mem", cuMemAdvise(d, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	AS_H100("advise hostalloc", cuMemAdvise(h, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	AS_H100("advise null", cuMemAdvise(0, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	AS_H100("advise past end", cuMemAdvise(m2, (1 << 20) + 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	AS_H100("advise v1", cuMemAdvise_v2(m2, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));

	AS_H100("prefetch dev", cuMemPrefetchAsync(m2, 1 << 20, loc(1, 0), 0, st));
	AS_H100("sync", cuStreamSynchronize(st));
	ranges("after prefetch dev", m2, 1 << 20);
	AS_H100("prefetch host page", cuMemPrefetchAsync(m2 + 4096, 4096, loc(2, 0), 0, st));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(st));
	ranges("after prefetch host page", m2 + 4096, 4096);
	ranges("after prefetch host page (whole)", m2, 1 << 20);
	AS_H100("prefetch host numa", cuMemPrefetchAsync(m2, 4096, loc(3, 0), 0, st));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(st));
	ranges("after prefetch host numa", m2, 4096);
	AS_H100("prefetch numa current", cuMemPrefetchAsync(m2, 4096, loc(4, 0), 0, st));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(st));
	ranges("after prefetch numa current", m2, 4096);
	AS_H100("prefetch flags 1", cuMemPrefetchAsync(m2, 4096, loc(1, 0), 1, st));
	AS_H100("prefetch bad dev", cuMemPrefetchAsync(m2, 4096, loc(1, 7), 0, st));
	AS_H100("prefetch type 0", cuMemPrefetchAsync(m2, 4096, loc(0, 0), 0, st));
	AS_H100("prefetch size 0", cuMemPrefetchAsync(m2, 0, loc(1, 0), 0, st));
	AS_H100("prefetch unaligned", cuMemPrefetchAsync(m2 + 1, 4096, loc(1, 0), 0, st));
	AS_H100("prefetch unaligned size", cuMemPrefetchAsync(m2, 100, loc(1, 0), 0, st));
	AS_H100("prefetch 100 alloc", cuMemPrefetchAsync(m, 100, loc(1, 0), 0, st));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(st));
	ranges("after prefetch 100", m, 4096);
	AS_H100("prefetch device mem", cuMemPrefetchAsync(d, 4096, loc(1, 0), 0, st));
	AS_H100("prefetch hostalloc", cuMemPrefetchAsync(h, 4096, loc(1, 0), 0, st));
	AS_H100("prefetch null", cuMemPrefetchAsync(0, 4096, loc(1, 0), 0, st));
	AS_H100("prefetch past end", cuMemPrefetchAsync(m2, (1 << 20) + 4096, loc(1, 0), 0, st));
	AS_H100("prefetch null stream", cuMemPrefetchAsync(m2, 4096, loc(1, 0), 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(((int *)m)[0] == h100_value("value kept", ""));
}

/*
 * The first ABI's cuMemAdvise and cuMemPrefetchAsync name a device, or
 * CU_DEVICE_CPU for the host; per-thread forms take NULL as that stream.
 */
static void first_abi(void)
{
	CUresult (*advise)(CUdeviceptr, size_t, CUmem_advise, CUdevice);
	CUresult (*prefetch)(CUdeviceptr, size_t, CUdevice, CUstream);
	CUresult (*prefetch2)(CUdeviceptr, size_t, CUmemLocation,
			      unsigned int, CUstream);
	CUresult (*attach)(CUstream, CUdeviceptr, size_t, unsigned int);
	int v = 0;

	probe_allocs(false);
	advise = (CUresult (*)(CUdeviceptr, size_t, CUmem_advise, CUdevice))
		dlsym(RTLD_DEFAULT, "cuMemAdvise");
	prefetch = (CUresult (*)(CUdeviceptr, size_t, CUdevice, CUstream))
		dlsym(RTLD_DEFAULT, "cuMemPrefetchAsync");
	prefetch2 = (CUresult (*)(CUdeviceptr, size_t, CUmemLocation,
				  unsigned int, CUstream))
		dlsym(RTLD_DEFAULT, "cuMemPrefetchAsync_v2_ptsz");
	attach = (CUresult (*)(CUstream, CUdeviceptr, size_t, unsigned int))
		dlsym(RTLD_DEFAULT, "cuStreamAttachMemAsync_ptsz");
	REQUIRE_RES(1, advise && prefetch && prefetch2 && attach);
	CHECK_RES(CUDA_SUCCESS, advise(m2, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, CU_DEVICE_CPU));
	CHECK_RES(CUDA_SUCCESS, cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m2, 4096));
	CHECK(v == CU_DEVICE_CPU);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, advise(m2, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, 7));
	CHECK_RES(CUDA_SUCCESS, prefetch(m2, 4096, 0, st));
	CHECK_RES(CUDA_SUCCESS, cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m2, 4096));
	CHECK(v == 0);
	CHECK_RES(CUDA_SUCCESS, prefetch(m2, 4096, CU_DEVICE_CPU, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m2, 4096));
	CHECK(v == CU_DEVICE_CPU);
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, prefetch(m2, 4096, 7, st));
	CHECK_RES(CUDA_SUCCESS, prefetch2(m2, 4096, loc(1, 0), 0, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, m2, 4096));
	CHECK(v == CU_MEM_LOCATION_TYPE_DEVICE);
	/* The per-thread default stream is no stream of one's own either. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, attach(NULL, m2, 0, CU_MEM_ATTACH_SINGLE));
	CHECK_RES(CUDA_SUCCESS, attach(NULL, m2, 0, CU_MEM_ATTACH_GLOBAL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

static void attach_and_free(void)
{
	unsigned int fl;
	CUdeviceptr dp = 9;
	int v;

	probe_allocs(false);
	AS_H100("attach global", cuStreamAttachMemAsync(st, m2, 0, CU_MEM_ATTACH_GLOBAL));
	AS_H100("attach host", cuStreamAttachMemAsync(st, m2, 0, CU_MEM_ATTACH_HOST));
	AS_H100("attach single", cuStreamAttachMemAsync(st, m2, 0, CU_MEM_ATTACH_SINGLE));
	AS_H100("attach single null stream", cuStreamAttachMemAsync(0, m2, 0, CU_MEM_ATTACH_SINGLE));
	AS_H100("attach global null stream", cuStreamAttachMemAsync(0, m2, 0, CU_MEM_ATTACH_GLOBAL));
	AS_H100("attach flags 3", cuStreamAttachMemAsync(st, m2, 0, 3));
	AS_H100("attach flags 8", cuStreamAttachMemAsync(st, m2, 0, 8));
	AS_H100("attach length all", cuStreamAttachMemAsync(st, m2, 1 << 20, CU_MEM_ATTACH_GLOBAL));
	AS_H100("attach length part", cuStreamAttachMemAsync(st, m2, 4096, CU_MEM_ATTACH_GLOBAL));
	AS_H100("attach interior", cuStreamAttachMemAsync(st, m2 + 4096, 0, CU_MEM_ATTACH_GLOBAL));
	AS_H100("attach device mem", cuStreamAttachMemAsync(st, d, 0, CU_MEM_ATTACH_GLOBAL));
	AS_H100("attach hostalloc", cuStreamAttachMemAsync(st, h, 0, CU_MEM_ATTACH_GLOBAL));
	AS_H100("attach null", cuStreamAttachMemAsync(st, 0, 0, CU_MEM_ATTACH_GLOBAL));
	/* Attached to the host, a kernel's stream still reaches it. */
	((int *)m2)[1] = 5;
	AS_H100("sync", cuStreamSynchronize(st));

	AS_H100("freehost managed", cuMemFreeHost((void *)(uintptr_t)m2));
	AS_H100("hostgetflags managed", cuMemHostGetFlags(&fl, (void *)(uintptr_t)m2));
	AS_H100("hostgetdeviceptr managed", cuMemHostGetDevicePointer(&dp, (void *)(uintptr_t)m2, 0));
	AS_H100("hostregister managed", cuMemHostRegister((void *)(uintptr_t)m2, 4096, 0));
	AS_H100("free interior", cuMemFree(m2 + 4096));
	AS_H100("free", cuMemFree(m2));
	AS_H100("free again", cuMemFree(m2));
	AS_H100("range after free", cuMemRangeGetAttribute(&v, 4, 1, m2, 4096));
	AS_H100("alloc big", cuMemAllocManaged(&m2, 64 << 20, CU_MEM_ATTACH_GLOBAL));
	((char *)m2)[(64 << 20) - 1] = 1;
	AS_H100("free big", cuMemFree(m2));
}

/* A context's managed memory goes with it. */
static void freed_with_context(void)
{
	CUdeviceptr p;
	CUcontext c;
	int v;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocManaged(&p, 1 << 20, CU_MEM_ATTACH_GLOBAL));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemRangeGetAttribute(&v, 4, 1, p, 4096));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&v, CU_POINTER_ATTRIBUTE_IS_MANAGED, p));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFree(p));
}

/* The H100 probe's __managed__ section, in its order. */
static void managed_variables(void)
{
	CUdeviceptr g, c, lg;
	CUfunction fn;
	CUcontext ctx = (CUcontext)1;
	CUmodule mod;
	CUlibrary lib;
	size_t sz = 0;
	int n = 5, v = 0;
	unsigned int mg = 9;
	void *args[] = { &n };
	float *arr;

	setup();
	AS_H100("module load", cuModuleLoadData(&mod, managed_k_ptx));
	AS_H100("getglobal counter", cuModuleGetGlobal(&c, &sz, mod, "counter"));
	CHECK(sz == (size_t)h100_value("counter size", ""));
	ptrattrs("counter", c, c);
	/* An H100 names no context for it (its log's "value null"). */
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&ctx, CU_POINTER_ATTRIBUTE_CONTEXT, c));
	CHECK(ctx == NULL);
	CHECK(*(int *)c == h100_value("counter host read", ""));
	AS_H100("getglobal arr", cuModuleGetGlobal(&g, &sz, mod, "arr"));
	arr = (float *)g;
	/* Its line: "arr size 64, arr[1] host read = 2". */
	CHECK(sz == 64);
	CHECK(arr[1] == h100_value("arr size 64, arr[1] host read", ""));
	AS_H100("getfunction", cuModuleGetFunction(&fn, mod, "bump"));
	AS_H100("launch", cuLaunchKernel(fn, 1, 1, 1, 16, 1, 1, 0, 0, args, NULL));
	AS_H100("sync", cuCtxSynchronize());
	CHECK(*(int *)c == h100_value("counter after", ""));
	/* "arr after = 2 4 0": arr[0], arr[1], arr[3]. */
	CHECK(arr[0] == h100_value("arr after", "") && arr[1] == 4.f &&
	      arr[3] == 0.f);
	ranges("counter", c & ~0xfffull, 4096);

	/* The host writes, the kernel reads and adds, the host reads. */
	*(int *)c = 1000;
	arr[2] = 1.5f;
	n = 2;
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(fn, 1, 1, 1, 16, 1, 1, 0, 0, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(*(int *)c == 1032);
	CHECK(arr[2] == 3.f && arr[1] == 8.f);
	/* The copy engines reach it as device memory. */
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, c, 4));
	CHECK(v == 1032);
	v = 7;
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(c, &v, 4));
	CHECK(*(int *)c == 7);
	/* It is the module's: cuMemFree does not take it. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFree(c));

	AS_H100("library load", cuLibraryLoadData(&lib, managed_k_ptx, NULL, NULL, 0, NULL, NULL, 0));
	AS_H100("library getmanaged counter", cuLibraryGetManaged(&lg, &sz, lib, "counter"));
	/*
	 * The library's own ("lib counter size 4 value 3" in the log): its
	 * initial value, not the module's.
	 */
	CHECK(sz == 4 && *(int *)lg == 3 && lg != c);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&mg, CU_POINTER_ATTRIBUTE_IS_MANAGED, lg));
	CHECK(mg == 1);
	AS_H100("library getmanaged none", cuLibraryGetManaged(&g, &sz, lib, "nothere"));
	AS_H100("library getglobal counter", cuLibraryGetGlobal(&g, &sz, lib, "counter"));
	CHECK(g == lg);
	AS_H100("library getmanaged dev", cuLibraryGetManaged(&g, &sz, lib, "plain"));
	AS_H100("library getglobal plain", cuLibraryGetGlobal(&g, &sz, lib, "plain"));
	AS_H100("module getglobal plain", cuModuleGetGlobal(&g, &sz, mod, "plain"));
	mg = 9;
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&mg, CU_POINTER_ATTRIBUTE_IS_MANAGED, g));
	CHECK(mg == h100_value("plain ptr 8", "value"));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLibraryGetManaged(NULL, &sz, lib, "counter"));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLibraryGetManaged(&g, &sz, lib, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLibraryGetManaged(&g, &sz, NULL, "counter"));
	CHECK_RES(CUDA_SUCCESS, cuLibraryUnload(lib));
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(mod));
}

/* Initializers that hold managed variables' addresses, and the reverse. */
static void managed_addresses(void)
{
	CUdeviceptr a, b, pa, pb, arr, got = 0;
	CUfunction fn;
	CUmodule mod;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, managed_refs_ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetGlobal(&a, NULL, mod, "a"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetGlobal(&b, NULL, mod, "b"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetGlobal(&pa, NULL, mod, "pa"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetGlobal(&pb, NULL, mod, "pb"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetGlobal(&arr, NULL, mod, "arr"));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&got, pa, 8));
	CHECK(got == a);
	CHECK(*(CUdeviceptr *)pb == b);
	CHECK(*(int *)a == 7 && ((int *)arr)[1] == 30);
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&fn, mod, "via"));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, 0, NULL, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(*(int *)a == 16);
	CHECK(((int *)arr)[1] == 31 && ((int *)arr)[0] == 20);
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(mod));
}

/* Only module-scope .global variables can be managed. */
static void managed_refused(void)
{
	static const char shared_ptx[] =
		".version 7.0\n.target sm_75\n.address_size 64\n"
		".shared .attribute(.managed) .align 4 .u32 s;\n"
		".visible .entry k()\n{\n\tret;\n}\n";
	static const char unified_ptx[] =
		".version 7.0\n.target sm_75\n.address_size 64\n"
		".global .attribute(.unified(1, 2)) .align 4 .u32 u;\n"
		".visible .entry k()\n{\n\tret;\n}\n";
	CUmodule mod;

	setup();
	CHECK_RES(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&mod, shared_ptx));
	CHECK_RES(CUDA_ERROR_INVALID_PTX, cuModuleLoadData(&mod, unified_ptx));
}

/*
 * Unloading a module frees its managed storage: the range is no longer
 * known, its pages are unmapped, and the context's memory is back where
 * it was; a library's go with cuLibraryUnload. Loads repeat, so a leak
 * would show.
 */
static void managed_unload(void)
{
	size_t free0, total, free1;
	CUdeviceptr c = 0, lc = 0;
	unsigned int mg;
	CUmodule mod;
	CUlibrary lib;
	long page = sysconf(_SC_PAGESIZE);
	int i;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemGetInfo(&free0, &total));
	for (i = 0; i < 50; i++) {
		REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, managed_k_ptx));
		REQUIRE_RES(CUDA_SUCCESS, cuModuleGetGlobal(&c, NULL, mod, "counter"));
		CHECK(*(int *)c == 3);
		REQUIRE_RES(CUDA_SUCCESS, cuModuleUnload(mod));
		REQUIRE_RES(CUDA_SUCCESS, cuLibraryLoadData(&lib, managed_k_ptx, NULL, NULL, 0, NULL, NULL, 0));
		REQUIRE_RES(CUDA_SUCCESS, cuLibraryGetManaged(&lc, NULL, lib, "counter"));
		REQUIRE_RES(CUDA_SUCCESS, cuLibraryUnload(lib));
	}
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&mg, CU_POINTER_ATTRIBUTE_IS_MANAGED, c));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&mg, CU_POINTER_ATTRIBUTE_IS_MANAGED, lc));
	/* msync fails with ENOMEM on pages nothing maps. */
	CHECK(msync((void *)(uintptr_t)(c & ~(CUdeviceptr)(page - 1)), (size_t)page, MS_ASYNC) == -1 &&
	      errno == ENOMEM);
	CHECK(msync((void *)(uintptr_t)(lc & ~(CUdeviceptr)(page - 1)), (size_t)page, MS_ASYNC) == -1 &&
	      errno == ENOMEM);
	REQUIRE_RES(CUDA_SUCCESS, cuMemGetInfo(&free1, &total));
	CHECK(free1 == free0);
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(device_attributes),
		TAP_TEST(alloc_args),
		TAP_TEST(host_kernel_host),
		TAP_TEST(managed_fill_synchronous),
		TAP_TEST(pointer_attributes),
		TAP_TEST(range_attributes),
		TAP_TEST(advise_then_prefetch),
		TAP_TEST(first_abi),
		TAP_TEST(attach_and_free),
		TAP_TEST(freed_with_context),
		TAP_TEST(managed_variables),
		TAP_TEST(managed_addresses),
		TAP_TEST(managed_refused),
		TAP_TEST(managed_unload),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
