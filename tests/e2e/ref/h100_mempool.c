/*
 * Probe of NVIDIA's stream-ordered allocator on a real GPU: the default
 * and created memory pools, their attributes, cuMemAllocAsync,
 * cuMemAllocFromPoolAsync and cuMemFreeAsync with the reuse rules (same
 * stream, another stream behind a busy one, after an event dependency,
 * with each reuse attribute off), release threshold and trimming, and the
 * return codes of bad calls. Output: one "name = value" per line. Not
 * built by the tree: it needs NVIDIA's cuda.h and libcuda. Run on an H100
 * (CUDA 13.0) as  gcc h100_mempool.c -I/usr/local/cuda/include -lcuda
 * && ./a.out ; its output is h100_mempool.log, which
 * tests/e2e/mempool_api.c follows. cuMemPoolSetAttribute with a NULL value
 * and cuMemAllocAsync on a stream handle that names no stream die of
 * SIGSEGV there; those cases were taken out.
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define R(name, call) printf("%s = %d\n", name, (int)(call))

/* A kernel that spins for about @ns nanoseconds of the GPU's timer. */
static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .entry spin(.param .u64 ns)\n{\n"
	"\t.reg .u64 %rd<5>;\n\t.reg .pred %p1;\n"
	"\tld.param.u64 %rd1, [ns];\n\tmov.u64 %rd2, %globaltimer;\n"
	"L:\tmov.u64 %rd3, %globaltimer;\n\tsub.u64 %rd4, %rd3, %rd2;\n"
	"\tsetp.lt.u64 %p1, %rd4, %rd1;\n\t@%p1 bra L;\n\tret;\n}\n";

static CUfunction spin;

static void busy(CUstream s, unsigned long long ns)
{
	void *args[] = { &ns };

	cuLaunchKernel(spin, 1, 1, 1, 1, 1, 1, 0, s, args, NULL);
}

static const char *same(CUdeviceptr a, CUdeviceptr b)
{
	return a == b ? "same" : "other";
}

static void attrs(const char *tag, CUmemoryPool p)
{
	int a;

	for (a = 1; a <= 8; a++) {
		unsigned long long v = 0xdede;
		CUresult r = cuMemPoolGetAttribute(p, a, &v);

		printf("%s attr %d = rc %d value %llu\n", tag, a, r,
		       a <= 3 ? v & 0xffffffffull : v);
	}
}

int main(void)
{
	CUdevice dev;
	CUcontext ctx;
	CUmodule mod;
	CUstream s1, s2;
	CUevent ev;
	CUmemoryPool def, cur, p, q;
	CUdeviceptr a = 0, b = 0, c = 0, d = 0;
	CUmemPoolProps props;
	CUmemAccessDesc acc;
	CUmemLocation loc;
	CUmemAccess_flags fl;
	unsigned long long v;
	int iv;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	cuModuleLoadData(&mod, ptx);
	cuModuleGetFunction(&spin, mod, "spin");
	cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING);
	cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING);
	cuEventCreate(&ev, CU_EVENT_DISABLE_TIMING);

	R("devattr pools supported", cuDeviceGetAttribute(&iv,
	  CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED, dev));
	printf("devattr pools supported value = %d\n", iv);
	cuDeviceGetAttribute(&iv, CU_DEVICE_ATTRIBUTE_MEMPOOL_SUPPORTED_HANDLE_TYPES, dev);
	printf("devattr handle types value = %d\n", iv);

	R("default pool", cuDeviceGetDefaultMemPool(&def, dev));
	R("current pool", cuDeviceGetMemPool(&cur, dev));
	printf("current is default = %d\n", cur == def);
	R("default pool bad dev", cuDeviceGetDefaultMemPool(&p, 99));
	R("default pool null", cuDeviceGetDefaultMemPool(NULL, dev));
	attrs("default", def);

	/* Same stream: the block freed is the block allocated next. */
	R("alloc a", cuMemAllocAsync(&a, 1000, s1));
	R("free a", cuMemFreeAsync(a, s1));
	R("alloc b", cuMemAllocAsync(&b, 1000, s1));
	printf("same stream reuse = %s\n", same(a, b));
	cuStreamSynchronize(s1);
	attrs("after sync with b", def);
	R("addr range b", cuMemGetAddressRange(&c, (size_t *)&v, b));
	printf("range b = %s size %llu\n", same(c, b), v);
	R("ptr pool b", cuPointerGetAttribute(&q, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, b));
	printf("ptr pool b is default = %d\n", q == def);
	R("ptr pool plain", cuMemAlloc(&d, 64) ? -1 :
	  cuPointerGetAttribute(&q, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, d));
	R("free async of cuMemAlloc", cuMemFreeAsync(d, s1));
	cuStreamSynchronize(s1);
	R("free b", cuMemFreeAsync(b, s1));
	cuStreamSynchronize(s1);
	attrs("after free b sync", def);

	/* Another stream while the freeing stream is busy. */
	R("alloc a2", cuMemAllocAsync(&a, 4096, s1));
	busy(s1, 300000000ull);
	R("free a2", cuMemFreeAsync(a, s1));
	R("alloc b2 other stream", cuMemAllocAsync(&b, 4096, s2));
	printf("busy other stream reuse = %s\n", same(a, b));
	printf("s2 busy after = %d\n", cuStreamQuery(s2));
	cuCtxSynchronize();
	cuMemFreeAsync(b, s2);
	cuCtxSynchronize();

	/* The same with internal dependencies off. */
	v = 0;
	R("set internal off", cuMemPoolSetAttribute(def,
	  CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES, &iv) * 0 +
	  cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES,
				&(int){ 0 }));
	R("alloc a3", cuMemAllocAsync(&a, 4096, s1));
	busy(s1, 300000000ull);
	R("free a3", cuMemFreeAsync(a, s1));
	R("alloc b3 other stream", cuMemAllocAsync(&b, 4096, s2));
	printf("busy other stream no internal = %s\n", same(a, b));
	cuCtxSynchronize();
	/* Completed free, other stream, opportunistic on. */
	R("free b3", cuMemFreeAsync(b, s2));
	cuCtxSynchronize();
	R("alloc c3 s1", cuMemAllocAsync(&c, 4096, s1));
	printf("done free other stream opportunistic = %s\n", same(b, c));
	cuMemFreeAsync(c, s1);
	cuCtxSynchronize();
	/* Event dependency, internal deps still off. */
	R("alloc a4", cuMemAllocAsync(&a, 4096, s1));
	busy(s1, 300000000ull);
	R("free a4", cuMemFreeAsync(a, s1));
	cuEventRecord(ev, s1);
	cuStreamWaitEvent(s2, ev, 0);
	R("alloc b4 after event", cuMemAllocAsync(&b, 4096, s2));
	printf("event dependency reuse = %s\n", same(a, b));
	cuCtxSynchronize();
	cuMemFreeAsync(b, s2);
	cuCtxSynchronize();
	/* Event dependency with follow-event off too. */
	cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, &(int){ 0 });
	R("alloc a5", cuMemAllocAsync(&a, 4096, s1));
	busy(s1, 300000000ull);
	R("free a5", cuMemFreeAsync(a, s1));
	cuEventRecord(ev, s1);
	cuStreamWaitEvent(s2, ev, 0);
	R("alloc b5 after event", cuMemAllocAsync(&b, 4096, s2));
	printf("event dependency follow off = %s\n", same(a, b));
	cuCtxSynchronize();
	cuMemFreeAsync(b, s2);
	cuCtxSynchronize();
	/* Opportunistic off: a completed free on another stream. */
	cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &(int){ 0 });
	R("alloc a6", cuMemAllocAsync(&a, 4096, s1));
	R("free a6", cuMemFreeAsync(a, s1));
	cuCtxSynchronize();
	R("alloc b6 other stream", cuMemAllocAsync(&b, 4096, s2));
	printf("done free other stream no opportunistic = %s\n", same(a, b));
	cuMemFreeAsync(b, s2);
	cuCtxSynchronize();
	attrs("default after flags", def);
	R("reset flags", cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &(int){ 1 }) +
	  cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES, &(int){ 1 }) +
	  cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES, &(int){ 1 }));

	/* Release threshold: kept across a synchronization, then trimmed. */
	v = 64ull << 20;
	R("set threshold", cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));
	R("alloc 32M", cuMemAllocAsync(&a, 32u << 20, s1));
	R("free 32M", cuMemFreeAsync(a, s1));
	cuStreamSynchronize(s1);
	attrs("threshold kept", def);
	R("trim 0", cuMemPoolTrimTo(def, 0));
	attrs("trimmed", def);
	v = 0;
	cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v);
	R("reset reserved high", cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &v));
	R("reset used high", cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_USED_MEM_HIGH, &v));
	v = 5;
	R("set reserved high nonzero", cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH, &v));
	R("set reserved current", cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v));
	R("set used current", cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v));
	R("set attr 0", cuMemPoolSetAttribute(def, 0, &v));
	R("set attr 99", cuMemPoolSetAttribute(def, 99, &v));
	R("get attr 99", cuMemPoolGetAttribute(def, 99, &v));
	R("set reuse 2", cuMemPoolSetAttribute(def, CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC, &(int){ 2 }));
	attrs("after bad sets", def);
	R("get null pool", cuMemPoolGetAttribute(NULL, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));

	/* Bad allocations and frees. */
	R("alloc 0 bytes", cuMemAllocAsync(&a, 0, s1));
	R("alloc null ptr", cuMemAllocAsync(NULL, 16, s1));
	R("alloc huge", cuMemAllocAsync(&a, 1ull << 50, s1));
	R("free null", cuMemFreeAsync(0, s1));
	R("free bogus", cuMemFreeAsync(0x1234, s1));
	R("alloc c", cuMemAllocAsync(&c, 256, s1));
	R("free c interior", cuMemFreeAsync(c + 16, s1));
	R("free c", cuMemFreeAsync(c, s1));
	cuStreamSynchronize(s1);
	R("free c twice", cuMemFreeAsync(c, s1));
	R("alloc d", cuMemAllocAsync(&d, 256, s1));
	R("cuMemFree of async", cuMemFree(d));

	/* A created pool. */
	memset(&props, 0, sizeof(props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	props.location.id = 0;
	R("create", cuMemPoolCreate(&p, &props));
	attrs("created", p);
	R("alloc from pool", cuMemAllocFromPoolAsync(&a, 4096, p, s1));
	R("ptr pool is created", cuPointerGetAttribute(&q, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, a));
	printf("ptr pool created match = %d\n", q == p);
	R("set current", cuDeviceSetMemPool(dev, p));
	R("get current", cuDeviceGetMemPool(&cur, dev));
	printf("current is created = %d\n", cur == p);
	R("alloc via current", cuMemAllocAsync(&b, 64, s1));
	cuPointerGetAttribute(&q, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, b);
	printf("alloc async uses current = %d\n", q == p);
	cuMemFreeAsync(b, s1);
	loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
	loc.id = 0;
	R("get access own", cuMemPoolGetAccess(&fl, p, &loc));
	printf("access own = %d\n", (int)fl);
	acc.location = loc;
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
	R("set access own read", cuMemPoolSetAccess(p, &acc, 1));
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	R("set access own rw", cuMemPoolSetAccess(p, &acc, 1));
	acc.location.id = 5;
	R("set access bad dev", cuMemPoolSetAccess(p, &acc, 1));
	loc.id = 7;
	R("get access bad dev", cuMemPoolGetAccess(&fl, p, &loc));
	R("destroy with outstanding", cuMemPoolDestroy(p));
	R("use after destroy get attr", cuMemPoolGetAttribute(p, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &v));
	R("get current after destroy", cuDeviceGetMemPool(&cur, dev));
	printf("current after destroy is default = %d\n", cur == def);
	R("free outstanding", cuMemFreeAsync(a, s1));
	cuStreamSynchronize(s1);
	R("destroy default", cuMemPoolDestroy(def));
	R("destroy null", cuMemPoolDestroy(NULL));
	R("export no handle types", cuMemPoolExportToShareableHandle(&iv, def,
	  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	props.location.id = 9;
	R("create bad dev", cuMemPoolCreate(&q, &props));
	props.location.id = 0;
	props.location.type = CU_MEM_LOCATION_TYPE_HOST;
	R("create host", cuMemPoolCreate(&q, &props));
	if (props.location.type == CU_MEM_LOCATION_TYPE_HOST)
		cuMemPoolDestroy(q);
	props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	props.allocType = 0;
	R("create type 0", cuMemPoolCreate(&q, &props));
	props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
	props.handleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	R("create fd pool", cuMemPoolCreate(&q, &props));
	R("create null", cuMemPoolCreate(NULL, &props));
	R("create null props", cuMemPoolCreate(&q, NULL));
	props.handleTypes = 0;
	props.maxSize = 1u << 20;
	R("create max 1M", cuMemPoolCreate(&q, &props));
	R("alloc 2M from 1M pool", cuMemAllocFromPoolAsync(&a, 2u << 20, q, s1));
	R("alloc 512K from 1M pool", cuMemAllocFromPoolAsync(&a, 512u << 10, q, s1));
	R("alloc 600K more from 1M pool", cuMemAllocFromPoolAsync(&b, 600u << 10, q, s1));
	attrs("max pool", q);
	R("set device pool bad dev", cuDeviceSetMemPool(9, def));
	R("reset current", cuDeviceSetMemPool(dev, def));
	R("ctx sync", cuCtxSynchronize());
	return 0;
}
