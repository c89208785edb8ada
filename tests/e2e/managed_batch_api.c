// SPDX-License-Identifier: MIT
/*
 * CUDA 13's batched managed-memory calls (cuMemPrefetchBatchAsync,
 * cuMemDiscardBatchAsync, cuMemDiscardAndPrefetchBatchAsync) and the
 * location forms of the pool calls (cuMemGetDefaultMemPool,
 * cuMemGetMemPool, cuMemSetMemPool), each call and what the range
 * attributes read after it held to an H100's answers for the same
 * sequence (tests/e2e/ref/h100_managed_batch.log, from
 * ref/h100_managed_batch.c there). Where vgpu lacks what the H100 has
 * (pools of host and of managed memory) the test says so.
 */
#include <stdint.h>
#include <string.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_managed_batch.log"
#include "h100_log.h"

static CUdevice dev;
static CUstream st;
static CUdeviceptr m[3], d;
static size_t sz[3] = { 65536, 65536, 65536 };
static CUmemLocation locs[2];
static size_t idx[2] = { 0, 2 };

static CUmemLocation loc(int type, int id)
{
	CUmemLocation l;

	memset(&l, 0, sizeof(l));
	l.type = (CUmemLocationType)type;
	l.id = id;
	return l;
}

static void setup(void)
{
	CUcontext ctx;
	int i;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGet(&dev, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
	for (i = 0; i < 3; i++) {
		REQUIRE_RES(CUDA_SUCCESS, cuMemAllocManaged(&m[i], 65536, CU_MEM_ATTACH_GLOBAL));
		memset((void *)(uintptr_t)m[i], 0x11 * (i + 1), 65536);
	}
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 65536));
	locs[0] = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	locs[1] = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
}

/* The last prefetch location and its type, as the H100's log says them. */
static void last(const char *tag, CUdeviceptr p)
{
	char name[96];
	int v = -7, t = -7;

	CHECK_RES(CUDA_SUCCESS, cuMemRangeGetAttribute(&v, 4,
		  CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, 4096));
	CHECK_RES(CUDA_SUCCESS, cuMemRangeGetAttribute(&t, 4,
		  CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, p, 4096));
	snprintf(name, sizeof(name), "%s last prefetch", tag);
	CHECK(v == h100_value(name, ""));
	CHECK(t == h100_value(name, "type"));
}

/* A word the H100's log gives in hexadecimal. */
static uint32_t h100_word(const char *name)
{
	const char *v = h100_line(name);

	return v ? (uint32_t)strtoul(v, NULL, 0) : 0xdeadbeef;
}

static void swap_in_device_memory(void)
{
	CUdeviceptr t = m[1];

	m[1] = d;
	d = t;
}

static void prefetch_batch(void)
{
	setup();
	CHECK_RES(h100("prefetch batch"), cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(st));
	last("after batch m0", m[0]);
	last("after batch m1", m[1]);
	last("after batch m2", m[2]);
	CHECK_RES(h100("prefetch count 0"), cuMemPrefetchBatchAsync(m, sz, 0, locs, idx, 2, 0, st));
	CHECK_RES(h100("prefetch null ptrs"), cuMemPrefetchBatchAsync(NULL, sz, 3, locs, idx, 2, 0, st));
	CHECK_RES(h100("prefetch null sizes"), cuMemPrefetchBatchAsync(m, NULL, 3, locs, idx, 2, 0, st));
	CHECK_RES(h100("prefetch null locs"), cuMemPrefetchBatchAsync(m, sz, 3, NULL, idx, 2, 0, st));
	CHECK_RES(h100("prefetch null idx"), cuMemPrefetchBatchAsync(m, sz, 3, locs, NULL, 2, 0, st));
	CHECK_RES(h100("prefetch 0 locs"), cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 0, 0, st));
	CHECK_RES(h100("prefetch flags 1"), cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 1, st));
	idx[0] = 1;
	CHECK_RES(h100("prefetch first idx 1"), cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	idx[0] = 0;
	idx[1] = 0;
	CHECK_RES(h100("prefetch idx not increasing"), cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	idx[1] = 5;
	CHECK_RES(h100("prefetch idx past count"), cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	idx[1] = 2;
	CHECK_RES(h100("prefetch 3 locs for 2 ptrs"), cuMemPrefetchBatchAsync(m, sz, 2, locs, idx, 3, 0, st));
	locs[1] = loc(CU_MEM_LOCATION_TYPE_DEVICE, 9);
	CHECK_RES(h100("prefetch bad device"), cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	locs[1] = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	swap_in_device_memory();
	CHECK_RES(h100("prefetch device memory"), cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	swap_in_device_memory();
	sz[2] = 0;
	CHECK_RES(h100("prefetch size 0"), cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	sz[2] = 1u << 30;
	CHECK_RES(h100("prefetch size past end"), cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	sz[2] = 65536;
	/* A refused batch changed nothing. */
	last("after batch m2", m[2]);
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(st));
}

static void discard_batch(void)
{
	setup();
	CHECK_RES(CUDA_SUCCESS, cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	CHECK_RES(h100("discard batch"), cuMemDiscardBatchAsync(m, sz, 2, 0, st));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(st));
	last("after discard m0", m[0]);
	/* The contents may go; an H100 kept them, and so does vgpu. */
	CHECK(*(uint32_t *)(uintptr_t)m[0] == h100_word("after discard m0 word"));
	CHECK_RES(h100("discard count 0"), cuMemDiscardBatchAsync(m, sz, 0, 0, st));
	CHECK_RES(h100("discard null ptrs"), cuMemDiscardBatchAsync(NULL, sz, 2, 0, st));
	CHECK_RES(h100("discard flags 1"), cuMemDiscardBatchAsync(m, sz, 2, 1, st));
	swap_in_device_memory();
	CHECK_RES(h100("discard device memory"), cuMemDiscardBatchAsync(m, sz, 2, 0, st));
	swap_in_device_memory();
	CHECK_RES(h100("discard and prefetch"), cuMemDiscardAndPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(st));
	last("after discard and prefetch m0", m[0]);
	last("after discard and prefetch m2", m[2]);
	CHECK(*(uint32_t *)(uintptr_t)m[2] ==
	      h100_word("after discard and prefetch m2 word"));
	CHECK_RES(h100("discard and prefetch flags 1"),
		  cuMemDiscardAndPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 1, st));
}

static void pool_locations(void)
{
	CUmemoryPool p, q, def, cur;
	CUmemPoolProps props;
	CUmemLocation l;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&def, dev));
	l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	CHECK_RES(h100("get default pinned dev0"), cuMemGetDefaultMemPool(&p, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	CHECK(p == def);
	/* An H100 has pools of managed memory; vgpu does not. */
	CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuMemGetDefaultMemPool(&q, &l, CU_MEM_ALLOCATION_TYPE_MANAGED));
	CHECK_RES(h100("get default type 0"), cuMemGetDefaultMemPool(&p, &l, 0));
	CHECK_RES(h100("get default type 3"), cuMemGetDefaultMemPool(&p, &l, 3));
	CHECK_RES(h100("get default null pool"), cuMemGetDefaultMemPool(NULL, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	CHECK_RES(h100("get default null loc"), cuMemGetDefaultMemPool(&p, NULL, CU_MEM_ALLOCATION_TYPE_PINNED));
	l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 9);
	CHECK_RES(h100("get default dev9"), cuMemGetDefaultMemPool(&p, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	/* Nor pools of host memory. */
	l = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuMemGetDefaultMemPool(&p, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	l = loc(CU_MEM_LOCATION_TYPE_INVALID, 0);
	CHECK_RES(h100("get default invalid loc"), cuMemGetDefaultMemPool(&p, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	CHECK_RES(h100("get current pinned dev0"), cuMemGetMemPool(&cur, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	CHECK(cur == def);
	memset(&props, 0, sizeof(props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.location = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	REQUIRE_RES(CUDA_SUCCESS, cuMemPoolCreate(&p, &props));
	CHECK_RES(h100("set current pinned dev0"), cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_PINNED, p));
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetMemPool(&cur, dev));
	CHECK(cur == p);
	CHECK_RES(h100("set current managed to pinned pool"), cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_MANAGED, p));
	CHECK_RES(h100("set current null pool"), cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_PINNED, NULL));
	l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 9);
	CHECK_RES(h100("set current dev9"), cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_PINNED, p));
	l = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	CHECK_RES(h100("set current host pinned"), cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_PINNED, p));
	l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	CHECK_RES(h100("set current back"), cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_PINNED, def));
	CHECK_RES(h100("destroy"), cuMemPoolDestroy(p));
	CHECK_RES(h100("ctx sync"), cuCtxSynchronize());
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(prefetch_batch),
		TAP_TEST(discard_batch),
		TAP_TEST(pool_locations),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
