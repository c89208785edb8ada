// SPDX-License-Identifier: MIT
/*
 * Stream memory operations through the driver API: cuStreamWriteValue*,
 * cuStreamWaitValue* and cuStreamBatchMemOp on device and page-locked
 * host memory, each comparison in 32 and 64 bits, ordering between two
 * streams, and every code NVIDIA's driver gives on an H100 for the same
 * calls (tests/e2e/ref/h100_memops.log, from h100_memops.c there).
 */
#include <dlfcn.h>
#include <stdint.h>
#include <unistd.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_memops.log"

static CUdeviceptr dev;		/* 4 KiB, zeroed */
static CUstream s;		/* non-blocking */

static void setup(void)
{
	CUcontext c;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dev, 4096));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD8(dev, 0, 4096));
	/* Non-blocking streams do not wait for the NULL stream's fill. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSynchronize());
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
}

static uint64_t read_dev(CUdeviceptr p, size_t n)
{
	uint64_t v = 0;

	REQUIRE_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, p, n));
	return v;
}

/* The code the H100 gave for the case called @name in its log. */
static CUresult h100(const char *name)
{
	size_t n = strlen(name);
	char line[256];
	FILE *f = fopen(H100_LOG, "r");
	int code = -1;

	if (!f) {
		TAP_FAIL("cannot read %s", H100_LOG);
		return (CUresult)-1;
	}
	while (code < 0 && fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) && !strncmp(line + n, " = ", 3))
			code = atoi(line + n + 3);
	fclose(f);
	if (code < 0)
		TAP_FAIL("no case \"%s\" in %s", name, H100_LOG);
	return (CUresult)code;
}

/* Has @st's work completed after a moment? */
static CUresult settled(CUstream st)
{
	usleep(50000);
	return cuStreamQuery(st);
}

/* The stream's state once it finished, or after 10 s (a loaded machine). */
static CUresult finishes(CUstream st)
{
	CUresult r;
	int i;

	for (i = 0; (r = cuStreamQuery(st)) == CUDA_ERROR_NOT_READY && i < 10000; i++)
		usleep(1000);
	return r;
}

static void attributes(void)
{
	static const struct { CUdevice_attribute a; int v; } want[] = {
		{ CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1, 0 },
		{ CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS_V1, 0 },
		{ CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR_V1, 0 },
		{ CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES, 0 },
		{ CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS, 1 },
		{ CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR, 1 },
	};
	unsigned int i;
	int v;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v, want[i].a, 0));
		if (v != want[i].v)
			TAP_FAIL("attribute %d is %d", want[i].a, v);
	}
}

static void writes_land(void)
{
	setup();
	CHECK_RES(CUDA_SUCCESS, cuStreamWriteValue32(s, dev, 0x11223344, 0));
	CHECK_RES(CUDA_SUCCESS,
		  cuStreamWriteValue64(s, dev + 8, 0x1122334455667788ULL, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamWriteValue32(NULL, dev + 20, 7, 0));
	CHECK_RES(CUDA_SUCCESS,
		  cuStreamWriteValue32(CU_STREAM_LEGACY, dev + 24, 8, 0));
	CHECK_RES(CUDA_SUCCESS,
		  cuStreamWriteValue32(CU_STREAM_PER_THREAD, dev + 28, 9, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(read_dev(dev, 4) == 0x11223344);
	CHECK(read_dev(dev + 8, 8) == 0x1122334455667788ULL);
	CHECK(read_dev(dev + 20, 4) == 7);
	CHECK(read_dev(dev + 24, 4) == 8);
	CHECK(read_dev(dev + 28, 4) == 9);
	/* Waits already satisfied pass at once. */
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitValue32(s, dev, 0x11223344,
						    CU_STREAM_WAIT_VALUE_EQ));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitValue64(s, dev + 8,
						    0x1122334455667788ULL,
						    CU_STREAM_WAIT_VALUE_GEQ));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
}

/* Host memory, allocated or registered: the CPU releases the wait. */
static void host_memory(void)
{
	volatile uint32_t *h, *r;
	CUdeviceptr hd, rd;
	int i;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostAlloc((void **)&h, 4096,
						 CU_MEMHOSTALLOC_DEVICEMAP));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostGetDevicePointer(&hd, (void *)h, 0));
	r = aligned_alloc(4096, 4096);
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostRegister((void *)r, 4096,
						    CU_MEMHOSTREGISTER_DEVICEMAP));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostGetDevicePointer(&rd, (void *)r, 0));
	h[0] = 0;
	r[0] = 0;
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitValue32(s, hd, 1, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamWriteValue32(s, rd + 4, 0xabcd, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitValue32(s, rd, 2, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamWriteValue64(s, hd + 8, 0xabcdef0123ULL,
						     0));
	CHECK_RES(CUDA_ERROR_NOT_READY, settled(s));
	CHECK(r[1] == 0);
	h[0] = 1;
	for (i = 0; r[1] != 0xabcd && i < 10000; i++)
		usleep(1000);
	CHECK(r[1] == 0xabcd);
	CHECK_RES(CUDA_ERROR_NOT_READY, settled(s));
	r[0] = 2;
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(*(volatile uint64_t *)(h + 2) == 0xabcdef0123ULL);
	CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister((void *)r));
}

/* Each comparison, as the H100 decided it ("semantics" in the log). */
static void comparisons(void)
{
	static const struct {
		int bits;
		uint64_t cur, val, release;
		unsigned int flags;
		int passes;
	} c[] = {
		{ 32, 5, 5, 5, CU_STREAM_WAIT_VALUE_GEQ, 1 },
		{ 32, 4, 5, 5, CU_STREAM_WAIT_VALUE_GEQ, 0 },
		{ 32, 0, 0xfffffff0, 0, CU_STREAM_WAIT_VALUE_GEQ, 1 },
		{ 32, 0xfffffff0, 1, 1, CU_STREAM_WAIT_VALUE_GEQ, 0 },
		{ 32, 0x80000000, 0, 0, CU_STREAM_WAIT_VALUE_GEQ, 0 },
		{ 32, 0x7fffffff, 0, 0, CU_STREAM_WAIT_VALUE_GEQ, 1 },
		{ 32, 8, 7, 7, CU_STREAM_WAIT_VALUE_EQ, 0 },
		{ 32, 6, 1, 1, CU_STREAM_WAIT_VALUE_AND, 0 },
		{ 32, 6, 2, 2, CU_STREAM_WAIT_VALUE_AND, 1 },
		{ 32, 0xfffffffe, 0, 0, CU_STREAM_WAIT_VALUE_NOR, 1 },
		{ 32, 0xffffffff, 0, 0, CU_STREAM_WAIT_VALUE_NOR, 0 },
		{ 32, 1, 0xfffffffe, 0, CU_STREAM_WAIT_VALUE_NOR, 0 },
		{ 64, 0, ~0ULL - 15, ~0ULL - 15, CU_STREAM_WAIT_VALUE_GEQ, 1 },
		{ 64, 1ULL << 63, 0, 0, CU_STREAM_WAIT_VALUE_GEQ, 0 },
		{ 64, 0x100000000ULL, 0xffffffff, 0, CU_STREAM_WAIT_VALUE_GEQ, 1 },
		{ 64, 0x100000007ULL, 7, 7, CU_STREAM_WAIT_VALUE_EQ, 0 },
		{ 64, 1ULL << 40, 1ULL << 40, 0, CU_STREAM_WAIT_VALUE_AND, 1 },
		{ 64, 0xffffffff, 0, 0, CU_STREAM_WAIT_VALUE_NOR, 1 },
		{ 64, ~0ULL, 0, 0, CU_STREAM_WAIT_VALUE_NOR, 0 },
	};
	volatile uint64_t *h;
	CUdeviceptr hd;
	unsigned int i;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostAlloc((void **)&h, 4096,
						 CU_MEMHOSTALLOC_DEVICEMAP));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostGetDevicePointer(&hd, (void *)h, 0));
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		CUresult q;

		h[i] = c[i].cur;
		__sync_synchronize();
		CHECK_RES(CUDA_SUCCESS, c[i].bits == 32 ?
			  cuStreamWaitValue32(s, hd + 8 * i, (uint32_t)c[i].val,
					      c[i].flags) :
			  cuStreamWaitValue64(s, hd + 8 * i, c[i].val,
					      c[i].flags));
		q = c[i].passes ? finishes(s) : settled(s);
		if (q != (c[i].passes ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY))
			TAP_FAIL("case %u: query %d", i, q);
		h[i] = c[i].release;
		__sync_synchronize();
		REQUIRE_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	}
}

/* A consumer stream waits on device memory for a producer stream. */
static void two_streams(void)
{
	CUstream s2;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitValue32(s2, dev, 1, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32Async(dev + 64, 5, 4, s2));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitValue64(s2, dev + 8, 3,
						    CU_STREAM_WAIT_VALUE_EQ));
	CHECK_RES(CUDA_SUCCESS, cuStreamWriteValue32(s2, dev + 4, 2, 0));
	CHECK_RES(CUDA_ERROR_NOT_READY, settled(s2));
	CHECK_RES(CUDA_SUCCESS, cuStreamWriteValue32(s, dev, 1, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitValue32(s, dev + 64, 5,
						    CU_STREAM_WAIT_VALUE_EQ));
	CHECK_RES(CUDA_SUCCESS, cuStreamWriteValue64(s, dev + 8, 3, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitValue32(s, dev + 4, 2,
						    CU_STREAM_WAIT_VALUE_EQ));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s2));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(read_dev(dev + 4, 4) == 2);
}

static void batch(void)
{
	static CUstreamBatchMemOpParams big[256];
	CUstreamBatchMemOpParams p[4], q;
	unsigned int i;

	setup();
	memset(p, 0, sizeof(p));
	p[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
	p[0].writeValue.address = dev + 32;
	p[0].writeValue.value = 42;
	p[1].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
	p[2].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
	p[2].waitValue.address = dev + 32;
	p[2].waitValue.value = 42;
	p[2].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
	p[2].waitValue.alias = 12345;	/* ignored */
	p[3].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
	p[3].writeValue.address = dev + 40;
	p[3].writeValue.value64 = 0x123456789ULL;
	CHECK_RES(CUDA_SUCCESS, cuStreamBatchMemOp(s, 4, p, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(read_dev(dev + 40, 8) == 0x123456789ULL);
	CHECK_RES(h100("batch count 0"), cuStreamBatchMemOp(s, 0, p, 0));
	CHECK_RES(h100("batch count 0 null"),
		  cuStreamBatchMemOp(s, 0, NULL, 0));
	CHECK_RES(h100("batch null stream"), cuStreamBatchMemOp(NULL, 1, p, 0));
	CHECK_RES(h100("batch flags 1"), cuStreamBatchMemOp(s, 1, p, 1));
	/* NVIDIA's driver dies of SIGSEGV here. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamBatchMemOp(s, 1, NULL, 0));
	for (i = 0; i < 256; i++) {
		big[i] = p[0];
		big[i].writeValue.address = dev + 64;
		big[i].writeValue.value = i;
	}
	CHECK_RES(h100("batch count 255"), cuStreamBatchMemOp(s, 255, big, 0));
	CHECK_RES(h100("batch count 256"), cuStreamBatchMemOp(s, 256, big, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(read_dev(dev + 64, 4) == 254);
	/* Operations. */
	for (i = 0; i < 4; i++) {
		char name[32];

		q = p[0];
		q.operation = (CUstreamBatchMemOpType[]){ 0, 7, 100, 3 }[i];
		snprintf(name, sizeof(name), "batch op %d", q.operation);
		CHECK_RES(h100(name), cuStreamBatchMemOp(s, 1, &q, 0));
	}
	memset(&q, 0, sizeof(q));
	for (i = 0; i < 4; i++) {
		char name[32];

		q.memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
		q.memoryBarrier.flags = i;
		snprintf(name, sizeof(name), "batch barrier flags %u", i);
		CHECK_RES(h100(name), cuStreamBatchMemOp(s, 1, &q, 0));
		q.flushRemoteWrites.operation =
			CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES;
		snprintf(name, sizeof(name), "batch flush flags %u", i);
		CHECK_RES(h100(name), cuStreamBatchMemOp(s, 1, &q, 0));
	}
	q = p[0];
	q.writeValue.flags = CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER;
	CHECK_RES(h100("batch write flags 1"), cuStreamBatchMemOp(s, 1, &q, 0));
	q.writeValue.flags = 2;
	CHECK_RES(h100("batch write flags 2"), cuStreamBatchMemOp(s, 1, &q, 0));
	q.writeValue.flags = 0;
	q.writeValue.address = dev + 34;
	CHECK_RES(h100("batch write misaligned"),
		  cuStreamBatchMemOp(s, 1, &q, 0));
	q.writeValue.address = 0;
	CHECK_RES(h100("batch write addr 0"), cuStreamBatchMemOp(s, 1, &q, 0));
	q = p[2];
	q.waitValue.flags = 4;
	CHECK_RES(h100("batch wait cmp 4"), cuStreamBatchMemOp(s, 1, &q, 0));
	q.waitValue.flags = CU_STREAM_WAIT_VALUE_FLUSH | CU_STREAM_WAIT_VALUE_EQ;
	CHECK_RES(h100("batch wait flush"), cuStreamBatchMemOp(s, 1, &q, 0));
	/* A bad operation after a good one: nothing is queued. */
	big[0] = p[0];
	big[0].writeValue.address = dev + 48;
	big[0].writeValue.value = 99;
	big[1] = p[0];
	big[1].writeValue.flags = 2;
	CHECK_RES(h100("batch good then bad"), cuStreamBatchMemOp(s, 2, big, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(read_dev(dev + 48, 4) == 0);
}

typedef CUresult (*memop32_fn)(CUstream, CUdeviceptr, cuuint32_t,
			       unsigned int);

static void errors(void)
{
	static const struct { const char *name; unsigned int flags; } wait[] = {
		{ "wait32 flush", CU_STREAM_WAIT_VALUE_FLUSH },
		{ "wait32 cmp 4", 4 },
		{ "wait32 cmp 7", 7 },
		{ "wait32 flags 0x100", 0x100 },
		{ "wait32 flags 0x80000000", 0x80000000 },
	};
	CUstreamBatchMemOpParams p;
	memop32_fn v1;
	CUdeviceptr freed;
	unsigned int i;
	void *m = malloc(4096);

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(h100("write32 no context"),
		  cuStreamWriteValue32(NULL, 0x1000, 1, 0));
	CHECK_RES(h100("batch no context"),
		  cuStreamBatchMemOp(NULL, 0, NULL, 0));
	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&freed, 4096));
	REQUIRE_RES(CUDA_SUCCESS, cuMemFree(freed));
	CHECK_RES(h100("write32 nobarrier"), cuStreamWriteValue32(s, dev, 1,
				CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER));
	CHECK_RES(h100("write64 nobarrier"), cuStreamWriteValue64(s, dev, 1,
				CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER));
	CHECK_RES(h100("write32 flags 2"), cuStreamWriteValue32(s, dev, 1, 2));
	CHECK_RES(h100("write32 flags 0x40000000"),
		  cuStreamWriteValue32(s, dev, 1, 0x40000000));
	CHECK_RES(h100("write32 misaligned +1"),
		  cuStreamWriteValue32(s, dev + 1, 1, 0));
	CHECK_RES(h100("write32 misaligned +2"),
		  cuStreamWriteValue32(s, dev + 2, 1, 0));
	CHECK_RES(h100("write64 misaligned +4"),
		  cuStreamWriteValue64(s, dev + 4, 1, 0));
	CHECK_RES(h100("write64 misaligned +1"),
		  cuStreamWriteValue64(s, dev + 1, 1, 0));
	CHECK_RES(h100("write32 addr 0"), cuStreamWriteValue32(s, 0, 1, 0));
	CHECK_RES(h100("write32 unmapped dev addr"),
		  cuStreamWriteValue32(s, freed, 1, 0));
	CHECK_RES(h100("write32 malloc host addr"),
		  cuStreamWriteValue32(s, (CUdeviceptr)(uintptr_t)m, 1, 0));
	CHECK_RES(h100("wait32 unmapped dev addr"),
		  cuStreamWaitValue32(s, freed, 1, 0));
	for (i = 0; i < sizeof(wait) / sizeof(wait[0]); i++)
		CHECK_RES(h100(wait[i].name),
			  cuStreamWaitValue32(s, dev, 0, wait[i].flags));
	CHECK_RES(h100("wait64 flush"),
		  cuStreamWaitValue64(s, dev, 0, CU_STREAM_WAIT_VALUE_FLUSH));
	CHECK_RES(h100("wait32 misaligned +2"),
		  cuStreamWaitValue32(s, dev + 2, 0, 0));
	CHECK_RES(h100("wait64 misaligned +4"),
		  cuStreamWaitValue64(s, dev + 4, 0, 0));
	CHECK_RES(h100("wait32 addr 0"), cuStreamWaitValue32(s, 0, 0, 0));
	/* The first ABI's names answer NOT_SUPPORTED whatever they are given. */
	v1 = (memop32_fn)dlsym(RTLD_DEFAULT, "cuStreamWriteValue32");
	REQUIRE_RES(1, v1 != NULL);
	CHECK_RES(h100("v1 write32"), v1(s, dev, 3, 0));
	CHECK_RES(h100("v1 write32 flags 2"), v1(s, dev, 3, 2));
	v1 = (memop32_fn)dlsym(RTLD_DEFAULT, "cuStreamWaitValue32");
	REQUIRE_RES(1, v1 != NULL);
	CHECK_RES(h100("v1 wait32"), v1(s, dev, 3, 0));
	memset(&p, 0, sizeof(p));
	p.memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
	CHECK_RES(h100("batch v1 (unsuffixed sym)"),
		  ((CUresult (*)(CUstream, unsigned int,
				 CUstreamBatchMemOpParams *, unsigned int))
		   dlsym(RTLD_DEFAULT, "cuStreamBatchMemOp"))(s, 1, &p, 0));
	/* The _ptsz form takes NULL as the thread's default stream. */
	v1 = (memop32_fn)dlsym(RTLD_DEFAULT, "cuStreamWriteValue32_v2_ptsz");
	REQUIRE_RES(1, v1 != NULL);
	CHECK_RES(CUDA_SUCCESS, v1(NULL, dev + 128, 6, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(CU_STREAM_PER_THREAD));
	CHECK(read_dev(dev + 128, 4) == 6);
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	free(m);
}

int main(void)
{
	static const struct tap_test tests[] = {
		{ "attributes", attributes },
		{ "writes_land", writes_land },
		{ "host_memory", host_memory },
		{ "comparisons", comparisons },
		{ "two_streams", two_streams },
		{ "batch", batch },
		{ "errors", errors },
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
