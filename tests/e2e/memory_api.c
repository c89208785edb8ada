// SPDX-License-Identifier: MIT
/*
 * Device and page-locked host memory through the driver API: cuMemAlloc/
 * AllocPitch/Free/GetInfo/GetAddressRange and cuMemHostRegister and its
 * queries, with the results NVIDIA's driver gives on an
 * H100 for the same calls (placement at 512-byte granularity, error codes,
 * unified addresses, faults on host dereference).
 */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include "tap.h"

#define MIB (1ULL << 20)

static CUcontext setup(void)
{
	CUcontext c = NULL;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	return c;
}

static void alloc_needs_a_context(void)
{
	CUdeviceptr p;
	size_t f, t;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuMemAlloc(&p, 16));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuMemGetInfo(&f, &t));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(0));
}

static void alloc_placement(void)
{
	static const size_t sizes[] = { 1, 1, 100, 256, 257, 512, 4096, 1 };
	static const long long deltas[] = { 0, 512, 512, 512, 512, 512, 512, 4096 };
	CUdeviceptr p[8], big, big2;
	size_t i;

	setup();
	for (i = 0; i < 8; i++) {
		REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&p[i], sizes[i]));
		if (i && (long long)(p[i] - p[i - 1]) != deltas[i])
			TAP_FAIL("allocation %zu is %lld bytes after the last, expected %lld",
				 i, (long long)(p[i] - p[i - 1]), deltas[i]);
	}
	CHECK(p[0] % (2 * MIB) == 0);
	CHECK_RES(CUDA_SUCCESS, cuMemAlloc(&big, 2 * MIB));
	CHECK_RES(CUDA_SUCCESS, cuMemAlloc(&big2, 3 * MIB));
	CHECK(big % (2 * MIB) == 0 && big2 % (2 * MIB) == 0);
	for (i = 0; i < 8; i++)
		CHECK_RES(CUDA_SUCCESS, cuMemFree(p[i]));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(big));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(big2));
}

static void alloc_bad_arguments(void)
{
	CUdeviceptr p;
	size_t total;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(NULL, &total));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(NULL, 16));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAlloc(&p, 0));
	CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, cuMemAlloc(&p, 1ULL << 50));
	CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, cuMemAlloc(&p, total + 1));
}

static void info_tracks_allocations(void)
{
	size_t free0, free1, free2, total;
	CUdeviceptr a, b;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&free0, &total));
	CHECK(free0 <= total && free0 > 0);
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&free0, NULL));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&a, 100));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&b, 64 * MIB));
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&free1, &total));
	CHECK(free0 - free1 == 66 * MIB);
	CHECK_RES(CUDA_SUCCESS, cuMemFree(a));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(b));
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&free2, &total));
	CHECK(free2 == free0);
}

static void address_range(void)
{
	CUdeviceptr a, b, base = 0;
	size_t size = 0;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&a, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&b, MIB));
	CHECK_RES(CUDA_SUCCESS, cuMemGetAddressRange(&base, &size, b + 100));
	CHECK(base == b && size == MIB);
	CHECK_RES(CUDA_SUCCESS, cuMemGetAddressRange(&base, &size, a));
	CHECK(base == a && size == 1);
	CHECK_RES(CUDA_SUCCESS, cuMemGetAddressRange(NULL, NULL, b));
	CHECK_RES(CUDA_SUCCESS, cuMemGetAddressRange(&base, NULL, b));
	CHECK_RES(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, 0x1234));
	CHECK_RES(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(b));
	CHECK_RES(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, b));
}

static void free_rules(void)
{
	CUdeviceptr a;
	int local = 0;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&a, 4096));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFree(a + 16));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFree((CUdeviceptr)(uintptr_t)&local));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(a));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFree(a));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(0));
}

static void pitch(void)
{
	CUdeviceptr p, base;
	size_t pitch = 0, size = 0;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuMemAllocPitch(&p, &pitch, 100, 10, 4));
	CHECK(pitch == 512);
	CHECK_RES(CUDA_SUCCESS, cuMemGetAddressRange(&base, &size, p));
	CHECK(base == p && size == 5120);
	CHECK_RES(CUDA_SUCCESS, cuMemAllocPitch(&p, &pitch, 513, 3, 8));
	CHECK(pitch == 1024);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(&p, &pitch, 100, 10, 3));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(&p, &pitch, 0, 10, 4));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAllocPitch(&p, NULL, 100, 10, 4));
	CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, cuMemAllocPitch(&p, &pitch, 1ULL << 40, 1ULL << 30, 4));
}

static sigjmp_buf fault_jump;

static void on_fault(int sig)
{
	(void)sig;
	siglongjmp(fault_jump, 1);
}

static void host_dereference_faults(void)
{
	volatile int *hp;
	CUdeviceptr p;
	int faulted = 0;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&p, 4096));
	hp = (volatile int *)(uintptr_t)p;
	signal(SIGSEGV, on_fault);
	if (sigsetjmp(fault_jump, 1) == 0)
		(void)*hp;
	else
		faulted = 1;
	signal(SIGSEGV, SIG_DFL);
	CHECK(faulted);
}

static void pointers_name_their_context(void)
{
	CUcontext a, b;
	CUdeviceptr pa, pb, base;
	size_t size;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&a, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&pa, 4096));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&b, NULL, 0, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&pb, 4096));
	CHECK(pa != pb);
	/* b is current: a's pointer still resolves, and frees, in a. */
	CHECK_RES(CUDA_SUCCESS, cuMemGetAddressRange(&base, &size, pa));
	CHECK(base == pa && size == 4096);
	CHECK_RES(CUDA_SUCCESS, cuMemFree(pa));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFree(pa));
	/* A destroyed context's memory is gone with it. */
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(b));
	CHECK_RES(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, pb));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFree(pb));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(a));
}

static void destroy_returns_memory(void)
{
	CUcontext a, b;
	CUdeviceptr p;
	size_t before, after, total;
	int i;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&a, NULL, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&before, &total));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&b, NULL, 0, 0));
	for (i = 0; i < 100; i++)
		CHECK_RES(CUDA_SUCCESS, cuMemAlloc(&p, 3000 + i));
	CHECK_RES(CUDA_SUCCESS, cuMemAlloc(&p, 8 * MIB));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(b));
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&after, &total));
	CHECK(after == before);
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(a));
}

static void primary_context_memory(void)
{
	CUcontext p;
	CUdeviceptr d, base;
	size_t size;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&p, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(p));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxReset(0));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuMemAlloc(&d, 4096));
	CHECK_RES(CUDA_ERROR_NOT_FOUND, cuMemGetAddressRange(&base, &size, d));
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&p, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(d));
}

struct worker {
	CUcontext ctx;
	int failures;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	CUdeviceptr p[16];
	int round, i;

	if (cuCtxSetCurrent(w->ctx) != CUDA_SUCCESS)
		w->failures++;
	for (round = 0; round < 20; round++) {
		for (i = 0; i < 16; i++)
			w->failures += cuMemAlloc(&p[i], (size_t)(i + 1) * 700) != CUDA_SUCCESS;
		for (i = 0; i < 16; i++)
			w->failures += cuMemFree(p[i]) != CUDA_SUCCESS;
	}
	return NULL;
}

static void threads_allocate_concurrently(void)
{
	struct worker w[6];
	pthread_t t[6];
	CUcontext shared;
	size_t before, after, total;
	int i;

	shared = setup();
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&before, &total));
	for (i = 0; i < 6; i++) {
		w[i].failures = 0;
		w[i].ctx = shared;
		pthread_create(&t[i], NULL, worker_main, &w[i]);
	}
	for (i = 0; i < 6; i++) {
		pthread_join(t[i], NULL);
		CHECK(w[i].failures == 0);
	}
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&after, &total));
	CHECK(after == before);
}

/* This process's locked memory in kB, as the kernel counts it. */
static long vm_locked_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmLck: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

static void host_register_rules(void)
{
	char *buf = malloc(3 * 4096 + 100);
	CUdeviceptr d = 0;
	unsigned int flags = 0;
	long before;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuMemHostRegister(buf, 4096, 0));
	setup();
	before = vm_locked_kb();
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(NULL, 4096, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(buf, 0, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(buf, 4096, 0x100));
	CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuMemHostRegister(buf, 4096, CU_MEMHOSTREGISTER_IOMEMORY));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostRegister(buf + 1, 3 * 4096, CU_MEMHOSTREGISTER_DEVICEMAP));
	CHECK(vm_locked_kb() >= before + 12);
	CHECK_RES(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, cuMemHostRegister(buf + 1, 3 * 4096, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemHostGetDevicePointer(&d, buf + 1, 0));
	CHECK(d == (CUdeviceptr)(uintptr_t)(buf + 1));
	CHECK_RES(CUDA_SUCCESS, cuMemHostGetDevicePointer(&d, buf + 100, 0));
	CHECK(d == (CUdeviceptr)(uintptr_t)(buf + 100));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(&d, buf + 1, 1));
	CHECK_RES(CUDA_SUCCESS, cuMemHostGetFlags(&flags, buf + 1));
	CHECK(flags == CU_MEMHOSTREGISTER_DEVICEMAP);
	CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(buf + 1));
	CHECK(vm_locked_kb() == before);
	CHECK_RES(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(buf + 1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(&d, buf + 1, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemHostGetFlags(&flags, buf + 1));
	free(buf);
}

static void host_register_read_only(void)
{
	char *page = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	setup();
	CHECK(page != MAP_FAILED);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(page, 4096, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemHostRegister(page, 4096, CU_MEMHOSTREGISTER_READ_ONLY));
	CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(page));
	munmap(page, 4096);
}

static void host_registrations_end_with_context(void)
{
	char *buf = malloc(8192);
	void *hp = NULL;
	CUcontext c;
	CUdeviceptr d;
	long before = vm_locked_kb();

	c = setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostRegister(buf, 8192, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostAlloc(&hp, 4096, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	CHECK(vm_locked_kb() == before);
	/* The context's page-locked allocations went with it. */
	CHECK(msync(hp, 4096, MS_ASYNC) == -1 && errno == ENOMEM);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(&d, buf, 0));
	CHECK_RES(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(buf));
	free(buf);
}

static void host_alloc(void)
{
	unsigned char *p = NULL, *q = NULL, back[100];
	unsigned int flags = 0;
	CUdeviceptr dp = 0, d;
	long before;

	setup();
	before = vm_locked_kb();
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemHostAlloc((void **)&p, 0, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemHostAlloc((void **)&p, 4096, 0x80));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemHostAlloc(NULL, 4096, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostAlloc((void **)&p, 10000, CU_MEMHOSTALLOC_DEVICEMAP));
	CHECK((uintptr_t)p % 4096 == 0);
	/* The driver's own pages: not charged to RLIMIT_MEMLOCK, zeroed. */
	CHECK(vm_locked_kb() == before);
	CHECK(p[0] == 0 && p[9999] == 0);
	CHECK_RES(CUDA_SUCCESS, cuMemHostGetDevicePointer(&dp, p, 0));
	CHECK(dp == (CUdeviceptr)(uintptr_t)p);
	CHECK_RES(CUDA_SUCCESS, cuMemHostGetFlags(&flags, p + 5000));
	CHECK(flags == CU_MEMHOSTALLOC_DEVICEMAP);
	memset(p, 0x3c, 100);
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 100));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(d, p, 100));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(back, d, 100));
	CHECK(back[0] == 0x3c && back[99] == 0x3c);
	CHECK_RES(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(p));
	/* The driver's memory is not the program's to register (an H100). */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(p, 64, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemHostRegister(p + 4096, 100, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(p + 4096));
	CHECK_RES(CUDA_SUCCESS, cuMemFreeHost(p));
	/* Unmapped: msync() finds nothing there any more. */
	CHECK(msync(p, 4096, MS_ASYNC) == -1 && errno == ENOMEM);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemFreeHost(p));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocHost((void **)&q, 1));
	q[0] = 1;
	CHECK_RES(CUDA_SUCCESS, cuMemFreeHost(q));
}

static void pointer_attributes(void)
{
	CUcontext a, b, got = NULL;
	CUdeviceptr d, start = 0;
	unsigned int type = 0;
	unsigned long long id1 = 0, id2 = 0;
	size_t size = 0;
	int ordinal = -1, local = 0;
	void *host = NULL, *hp = NULL;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&a, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&b, NULL, 0, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 3000));
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d + 10));
	CHECK(type == CU_MEMORYTYPE_DEVICE);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&got, CU_POINTER_ATTRIBUTE_CONTEXT, d));
	CHECK(got == b);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, d));
	CHECK(ordinal == 1);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, d + 2999));
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, d + 2999));
	CHECK(start == d && size == 3000);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&id1, CU_POINTER_ATTRIBUTE_BUFFER_ID, d));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&hp, CU_POINTER_ATTRIBUTE_HOST_POINTER, d));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
								 (CUdeviceptr)(uintptr_t)&local));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(NULL, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, d));

	REQUIRE_RES(CUDA_SUCCESS, cuMemHostAlloc(&host, 8192, 0));
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
						      (CUdeviceptr)(uintptr_t)host + 8));
	CHECK(type == CU_MEMORYTYPE_HOST);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&hp, CU_POINTER_ATTRIBUTE_HOST_POINTER,
						      (CUdeviceptr)(uintptr_t)host));
	CHECK(hp == host);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&id2, CU_POINTER_ATTRIBUTE_BUFFER_ID,
						      (CUdeviceptr)(uintptr_t)host));
	CHECK(id1 != id2);
	CHECK_RES(CUDA_SUCCESS, cuMemFreeHost(host));
	(void)a;
}

/* Registrations are byte ranges: buffers sharing a page, as on the H100. */
static void host_register_shared_pages(void)
{
	unsigned char *pg = mmap(NULL, 4 * 4096, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char back[100] = { 0 };
	CUdeviceptr d, dp;
	long before;
	int i, bad = 0;

	setup();
	if (pg == MAP_FAILED) {
		TAP_FAIL("mmap failed");
		return;
	}
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	/* (A pageable copy pins the staging buffer: do it before counting.) */
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(d + 1024, back, sizeof(back)));
	before = vm_locked_kb();
	CHECK_RES(CUDA_SUCCESS, cuMemHostRegister(pg, 100, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemHostRegister(pg + 200, 100, 0));
	CHECK_RES(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, cuMemHostRegister(pg + 50, 100, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemHostRegister(pg + 4106, 100, 0));
	CHECK_RES(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, cuMemHostRegister(pg + 100, 4100, 0));
	/* A registration over pinned pages and new ones pins only the new. */
	CHECK_RES(CUDA_SUCCESS, cuMemHostRegister(pg + 4206, 2 * 4096 - 200, 0));
	CHECK(vm_locked_kb() == before + 12);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemHostGetDevicePointer(&dp, pg + 150, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemHostGetDevicePointer(&dp, pg + 210, 0));
	CHECK(dp == (CUdeviceptr)(uintptr_t)(pg + 210));

	/* Each registered buffer is copied directly, and correctly. */
	memset(pg, 0x11, 100);
	memset(pg + 200, 0x22, 100);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(d, pg + 200, 100));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(pg, d, 100));
	for (i = 0; i < 100; i++)
		bad += pg[i] != 0x22;
	CHECK(bad == 0);
	/* Starting in a registration and running past it: refused. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(d, pg + 200, 101));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(pg, d, 4096));
	/* Starting outside any registration: pageable, fine. */
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(d + 1024, pg + 120, 60));

	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemHostUnregister(pg + 10));
	CHECK_RES(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(pg + 150));
	CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(pg + 200));
	/* The page stays pinned for the buffer still registered there. */
	CHECK(vm_locked_kb() == before + 12);
	memset(pg, 0, 100);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(pg, d, 100));
	CHECK(pg[0] == 0x22 && pg[99] == 0x22);
	CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(pg + 4106));
	CHECK(vm_locked_kb() == before + 12);
	CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(pg));
	CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(pg + 4206));
	CHECK(vm_locked_kb() == before);
	CHECK_RES(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, cuMemHostUnregister(pg));
	munmap(pg, 4 * 4096);
}

/* The attributes NVIDIA's driver reports on an H100, for what vgpu has. */
static void pointer_attribute_flags(void)
{
	char *buf = aligned_alloc(4096, 3 * 4096);
	char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	CUpointer_attribute list[3] = {
		CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
		CU_POINTER_ATTRIBUTE_RANGE_SIZE,
	};
	unsigned int type = 77, managed = 77, mapped = 0, access = 0, b;
	size_t size = 77, map_size = 0;
	void *map_base = NULL, *data[3] = { &type, &managed, &size };
	unsigned long long tokens[2];
	CUpointer_attribute bad_attr[1] = { (CUpointer_attribute)999 };
	CUdeviceptr d, big;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 1000));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&big, 3 * MIB));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostRegister(buf + 16, 8192, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostRegister(ro, 4096, CU_MEMHOSTREGISTER_READ_ONLY));

	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, d));
	CHECK(managed == 0);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&mapped, CU_POINTER_ATTRIBUTE_MAPPED, d));
	CHECK(mapped == 1);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&access, CU_POINTER_ATTRIBUTE_ACCESS_FLAGS, d));
	CHECK(access == CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READWRITE);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&map_size, CU_POINTER_ATTRIBUTE_MAPPING_SIZE, d + 8));
	CHECK(map_size == 2 * MIB);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&map_base, CU_POINTER_ATTRIBUTE_MAPPING_BASE_ADDR, d + 8));
	CHECK((uintptr_t)map_base == (d & ~(2 * MIB - 1)));
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&map_size, CU_POINTER_ATTRIBUTE_MAPPING_SIZE, big));
	CHECK(map_size == 4 * MIB);
	b = 77;
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&b, CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, d));
	CHECK(b == 0);

	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&mapped, CU_POINTER_ATTRIBUTE_MAPPED,
						      (CUdeviceptr)(uintptr_t)(buf + 20)));
	CHECK(mapped == 1);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&map_size, CU_POINTER_ATTRIBUTE_MAPPING_SIZE,
						      (CUdeviceptr)(uintptr_t)(buf + 20)));
	CHECK(map_size == 3 * 4096);
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&access, CU_POINTER_ATTRIBUTE_ACCESS_FLAGS,
						      (CUdeviceptr)(uintptr_t)ro));
	CHECK(access == CU_POINTER_ATTRIBUTE_ACCESS_FLAG_READ);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttribute(tokens, CU_POINTER_ATTRIBUTE_P2P_TOKENS,
								 (CUdeviceptr)(uintptr_t)(buf + 20)));

	/* Several at once. */
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttributes(3, list, data, d + 4));
	CHECK(type == CU_MEMORYTYPE_DEVICE && managed == 0 && size == 1000);
	/* An unknown address is no error here: type 0, slots otherwise left. */
	type = managed = 77;
	size = 77;
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttributes(3, list, data, 0x1234));
	CHECK(type == 0 && managed == 0 && size == 77);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttributes(3, list, NULL, d));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttributes(0, list, data, d));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuPointerGetAttributes(1, bad_attr, data, d));

	CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(buf + 16));
	CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(ro));
	munmap(ro, 4096);
	free(buf);
}

static const struct tap_test tests[] = {
	TAP_TEST(alloc_needs_a_context),
	TAP_TEST(alloc_placement),
	TAP_TEST(alloc_bad_arguments),
	TAP_TEST(info_tracks_allocations),
	TAP_TEST(address_range),
	TAP_TEST(free_rules),
	TAP_TEST(pitch),
	TAP_TEST(host_dereference_faults),
	TAP_TEST(pointers_name_their_context),
	TAP_TEST(destroy_returns_memory),
	TAP_TEST(primary_context_memory),
	TAP_TEST(threads_allocate_concurrently),
	TAP_TEST(host_register_rules),
	TAP_TEST(host_register_read_only),
	TAP_TEST(host_registrations_end_with_context),
	TAP_TEST(host_alloc),
	TAP_TEST(pointer_attributes),
	TAP_TEST(host_register_shared_pages),
	TAP_TEST(pointer_attribute_flags),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
