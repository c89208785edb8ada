/*
 * Probe of CUDA 13's batched managed-memory calls and the location forms
 * of the pool calls on a real GPU: cuMemPrefetchBatchAsync,
 * cuMemDiscardBatchAsync, cuMemDiscardAndPrefetchBatchAsync (what the
 * range attributes read after each, bad batches), cuMemGetDefaultMemPool,
 * cuMemGetMemPool and cuMemSetMemPool. Output: "name = value" lines. Run
 * on an H100 (CUDA 13.0) as gcc h100_managed_batch.c
 * -I/usr/local/cuda/include -lcuda && ./a.out ; its output is
 * h100_managed_batch.log, which tests/e2e/managed_batch_api.c follows.
 */
#include <cuda.h>
#include <stdio.h>
#include <string.h>

#define R(name, call) printf("%s = %d\n", name, (int)(call))

static CUmemLocation loc(int type, int id)
{
	CUmemLocation l;

	memset(&l, 0, sizeof(l));
	l.type = (CUmemLocationType)type;
	l.id = id;
	return l;
}

static void last(const char *tag, CUdeviceptr p)
{
	int v = -7, t = -7;

	cuMemRangeGetAttribute(&v, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, p, 4096);
	cuMemRangeGetAttribute(&t, 4, CU_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, p, 4096);
	printf("%s last prefetch = %d type %d\n", tag, v, t);
}

int main(void)
{
	CUdevice dev;
	CUcontext ctx;
	CUstream st;
	CUdeviceptr m[3], d;
	size_t sz[3] = { 65536, 65536, 65536 };
	CUmemLocation locs[2];
	size_t idx[2] = { 0, 2 };
	CUmemoryPool p, q, def, cur;
	CUmemPoolProps props;
	CUmemLocation l;
	unsigned int *h;
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	cuStreamCreate(&st, CU_STREAM_NON_BLOCKING);
	for (i = 0; i < 3; i++) {
		cuMemAllocManaged(&m[i], 65536, CU_MEM_ATTACH_GLOBAL);
		memset((void *)m[i], 0x11 * (i + 1), 65536);
	}
	cuMemAlloc(&d, 65536);
	locs[0] = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	locs[1] = loc(CU_MEM_LOCATION_TYPE_HOST, 0);

	R("prefetch batch", cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	cuStreamSynchronize(st);
	last("after batch m0", m[0]);
	last("after batch m1", m[1]);
	last("after batch m2", m[2]);
	R("prefetch count 0", cuMemPrefetchBatchAsync(m, sz, 0, locs, idx, 2, 0, st));
	R("prefetch null ptrs", cuMemPrefetchBatchAsync(NULL, sz, 3, locs, idx, 2, 0, st));
	R("prefetch null sizes", cuMemPrefetchBatchAsync(m, NULL, 3, locs, idx, 2, 0, st));
	R("prefetch null locs", cuMemPrefetchBatchAsync(m, sz, 3, NULL, idx, 2, 0, st));
	R("prefetch null idx", cuMemPrefetchBatchAsync(m, sz, 3, locs, NULL, 2, 0, st));
	R("prefetch 0 locs", cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 0, 0, st));
	R("prefetch flags 1", cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 1, st));
	idx[0] = 1;
	R("prefetch first idx 1", cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	idx[0] = 0; idx[1] = 0;
	R("prefetch idx not increasing", cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	idx[1] = 5;
	R("prefetch idx past count", cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	idx[1] = 2;
	R("prefetch 3 locs for 2 ptrs", cuMemPrefetchBatchAsync(m, sz, 2, locs, idx, 3, 0, st));
	locs[1] = loc(CU_MEM_LOCATION_TYPE_DEVICE, 9);
	R("prefetch bad device", cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	locs[1] = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	m[1] ^= d, d ^= m[1], m[1] ^= d;	/* swap in device memory */
	R("prefetch device memory", cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	m[1] ^= d, d ^= m[1], m[1] ^= d;
	sz[2] = 0;
	R("prefetch size 0", cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	sz[2] = 1u << 30;
	R("prefetch size past end", cuMemPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	sz[2] = 65536;
	cuStreamSynchronize(st);

	R("discard batch", cuMemDiscardBatchAsync(m, sz, 2, 0, st));
	cuStreamSynchronize(st);
	last("after discard m0", m[0]);
	h = (unsigned int *)m[0];
	printf("after discard m0 word = %#x\n", h[0]);
	R("discard count 0", cuMemDiscardBatchAsync(m, sz, 0, 0, st));
	R("discard null ptrs", cuMemDiscardBatchAsync(NULL, sz, 2, 0, st));
	R("discard flags 1", cuMemDiscardBatchAsync(m, sz, 2, 1, st));
	m[1] ^= d, d ^= m[1], m[1] ^= d;
	R("discard device memory", cuMemDiscardBatchAsync(m, sz, 2, 0, st));
	m[1] ^= d, d ^= m[1], m[1] ^= d;
	R("discard and prefetch", cuMemDiscardAndPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 0, st));
	cuStreamSynchronize(st);
	last("after discard and prefetch m0", m[0]);
	last("after discard and prefetch m2", m[2]);
	h = (unsigned int *)m[2];
	printf("after discard and prefetch m2 word = %#x\n", h[0]);
	R("discard and prefetch flags 1", cuMemDiscardAndPrefetchBatchAsync(m, sz, 3, locs, idx, 2, 1, st));

	/* The location forms of the pool calls. */
	cuDeviceGetDefaultMemPool(&def, dev);
	l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	R("get default pinned dev0", cuMemGetDefaultMemPool(&p, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	printf("get default pinned is device default = %d\n", p == def);
	R("get default managed dev0", cuMemGetDefaultMemPool(&q, &l, CU_MEM_ALLOCATION_TYPE_MANAGED));
	printf("managed default is pinned default = %d\n", q == def);
	R("get default type 0", cuMemGetDefaultMemPool(&p, &l, 0));
	R("get default type 3", cuMemGetDefaultMemPool(&p, &l, 3));
	R("get default null pool", cuMemGetDefaultMemPool(NULL, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	R("get default null loc", cuMemGetDefaultMemPool(&p, NULL, CU_MEM_ALLOCATION_TYPE_PINNED));
	l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 9);
	R("get default dev9", cuMemGetDefaultMemPool(&p, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	l = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	R("get default host pinned", cuMemGetDefaultMemPool(&p, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	R("get default host managed", cuMemGetDefaultMemPool(&p, &l, CU_MEM_ALLOCATION_TYPE_MANAGED));
	l = loc(CU_MEM_LOCATION_TYPE_INVALID, 0);
	R("get default invalid loc", cuMemGetDefaultMemPool(&p, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	R("get current pinned dev0", cuMemGetMemPool(&cur, &l, CU_MEM_ALLOCATION_TYPE_PINNED));
	printf("current pinned is default = %d\n", cur == def);
	R("get current managed dev0", cuMemGetMemPool(&cur, &l, CU_MEM_ALLOCATION_TYPE_MANAGED));
	memset(&props, 0, sizeof(props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.location = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	cuMemPoolCreate(&p, &props);
	R("set current pinned dev0", cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_PINNED, p));
	cuDeviceGetMemPool(&cur, dev);
	printf("device current after set = created %d\n", cur == p);
	R("set current managed to pinned pool", cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_MANAGED, p));
	R("set current null pool", cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_PINNED, NULL));
	l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 9);
	R("set current dev9", cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_PINNED, p));
	l = loc(CU_MEM_LOCATION_TYPE_HOST, 0);
	R("set current host pinned", cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_PINNED, p));
	l = loc(CU_MEM_LOCATION_TYPE_DEVICE, 0);
	R("set current back", cuMemSetMemPool(&l, CU_MEM_ALLOCATION_TYPE_PINNED, def));
	R("destroy", cuMemPoolDestroy(p));
	R("ctx sync", cuCtxSynchronize());
	return 0;
}
