/*
 * Probe of NVIDIA's managed memory on a real GPU: cuMemAllocManaged,
 * pointer and device attributes, cuMemAdvise_v2, cuMemPrefetchAsync_v2,
 * cuMemRangeGetAttribute(s), cuStreamAttachMemAsync and __managed__
 * variables, return codes of good and bad calls and what the queries read
 * after each. Output: one "name = value" per line, codes as numbers. Not
 * built by the tree: it needs NVIDIA's cuda.h and libcuda. Run on an H100
 * (CUDA 13.0) as
 *   gcc h100_managed.c -I/usr/local/cuda/include -lcuda && ./a.out h100_managed_k.ptx
 * (h100_managed_k.ptx: nvcc -ptx -arch=compute_75 h100_managed_k.cu); its
 * output is h100_managed.log, which tests/e2e/managed_api.c follows.
 * Earlier runs died of SIGSEGV in cuMemPrefetchAsync on a stream handle
 * that names no stream and in cuStreamAttachMemAsync with flags 0; both
 * cases were taken out. The first line of the log is nvidia-smi's.
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R(name, call) printf("%s = %d\n", name, (int)(call))

static CUdevice dev;
static CUstream st;

static CUmemLocation loc(int type, int id)
{
	CUmemLocation l;

	memset(&l, 0, sizeof(l));
	l.type = (CUmemLocationType)type;
	l.id = id;
	return l;
}

/* Every range attribute of [p, p + n), by name. */
static void ranges(const char *tag, CUdeviceptr p, size_t n)
{
	int v = -7, acc[4] = { -7, -7, -7, -7 };
	CUresult r;
	int a;

	for (a = 1; a <= 8; a++) {
		if (a == 3) {
			r = cuMemRangeGetAttribute(acc, sizeof(acc), a, p, n);
			printf("%s range %d = rc %d value %d %d %d %d\n", tag, a,
			       r, acc[0], acc[1], acc[2], acc[3]);
			continue;
		}
		v = -7;
		r = cuMemRangeGetAttribute(&v, 4, a, p, n);
		printf("%s range %d = rc %d value %d\n", tag, a, r, v);
	}
}

static void ptrattrs(const char *tag, CUdeviceptr p)
{
	static const int a[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
				 14, 15, 16, 17, 18, 19, 20, 21 };
	unsigned int i;

	for (i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		unsigned long long v = 0xdedededededededeull;
		unsigned long long buf[8] = { v }; CUresult r = cuPointerGetAttribute(buf, a[i], p); v = buf[0];

		if (a[i] == 3 || a[i] == 4 || a[i] == 11 || a[i] == 20)
			printf("%s ptr %d = rc %d value %s\n", tag, a[i], r,
			       v == p ? "ptr" : v == (p & ~0xfffull) ? "page" :
			       "other");
		else if (a[i] == 1 || a[i] == 18)
			printf("%s ptr %d = rc %d value %s\n", tag, a[i], r,
			       v == 0xdedededededededeull ? "unset" :
			       v ? "set" : "null");
		else
			printf("%s ptr %d = rc %d value %#llx\n", tag, a[i], r,
			       a[i] == 19 ? v : v & 0xffffffffull);
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *s;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = calloc(1, n + 1);
	if (fread(s, 1, n, f) != (size_t)n)
		return NULL;
	fclose(f);
	return s;
}

int main(int argc, char **argv)
{
	static const int dattr[] = { 83, 88, 89, 100, 101, 41, 19 };
	CUdeviceptr m, m2, h, d, mh, big;
	void *hp;
	CUcontext ctx;
	unsigned int i;
	int v;

	setvbuf(stdout, NULL, _IONBF, 0);
	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	cuStreamCreate(&st, CU_STREAM_NON_BLOCKING);
	printf("## device attributes\n");
	for (i = 0; i < sizeof(dattr) / sizeof(dattr[0]); i++) {
		CUresult r = cuDeviceGetAttribute(&v, dattr[i], dev);

		printf("attr %d = rc %d value %d\n", dattr[i], r, v);
	}

	printf("## alloc\n");
	R("alloc flags 0", cuMemAllocManaged(&m, 4096, 0));
	R("alloc flags 3", cuMemAllocManaged(&m, 4096, 3));
	R("alloc flags 4", cuMemAllocManaged(&m, 4096, 4));
	R("alloc flags 8", cuMemAllocManaged(&m, 4096, 8));
	R("alloc size 0", cuMemAllocManaged(&m, 0, CU_MEM_ATTACH_GLOBAL));
	R("alloc null", cuMemAllocManaged(NULL, 4096, CU_MEM_ATTACH_GLOBAL));
	R("alloc huge", cuMemAllocManaged(&m, (size_t)1 << 50, CU_MEM_ATTACH_GLOBAL));
	R("alloc 100 global", cuMemAllocManaged(&m, 100, CU_MEM_ATTACH_GLOBAL));
	printf("alloc 100 aligned 4096 = %d\n", (int)(m % 4096 == 0));
	printf("alloc 100 aligned 65536 = %d\n", (int)(m % 65536 == 0));
	printf("alloc 100 aligned 2M = %d\n", (int)(m % (2 << 20) == 0));
	printf("alloc zeroed = %d\n", ((unsigned char *)m)[5] == 0);
	((int *)m)[0] = 42;
	printf("host write read = %d\n", ((int *)m)[0]);
	R("alloc 3 pages host", cuMemAllocManaged(&mh, 3 * 4096 + 5, CU_MEM_ATTACH_HOST));
	printf("alloc 3 pages distance = %lld\n", (long long)(mh - m));
	R("alloc 1M", cuMemAllocManaged(&m2, 1 << 20, CU_MEM_ATTACH_GLOBAL));
	printf("alloc 1M distance = %lld\n", (long long)(m2 - mh));
	R("memalloc", cuMemAlloc(&d, 4096));
	R("hostalloc", cuMemHostAlloc(&hp, 4096, 0));
	h = (CUdeviceptr)hp;

	printf("## pointer attributes\n");
	ptrattrs("managed", m);
	ptrattrs("managed+50", m + 50);
	ptrattrs("managed+200", m + 200);
	ptrattrs("managed host", mh + 4096);
	{
		CUpointer_attribute pa[] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
			CU_POINTER_ATTRIBUTE_IS_MANAGED,
			CU_POINTER_ATTRIBUTE_HOST_POINTER,
			CU_POINTER_ATTRIBUTE_RANGE_SIZE };
		unsigned int t = 9, mg = 9;
		void *hptr = (void *)1;
		size_t sz = 9;
		void *dat[] = { &t, &mg, &hptr, &sz };

		R("getattrs managed", cuPointerGetAttributes(4, pa, dat, m + 8));
		printf("getattrs values = %u %u %s %zu\n", t, mg,
		       hptr == (void *)(m + 8) ? "ptr" : hptr ? "other" : "null", sz);
	}

	printf("## range attributes, fresh\n");
	ranges("fresh", m2, 1 << 20);
	ranges("fresh 1 page", m2 + 4096, 4096);
	ranges("fresh 100", m, 100);
	ranges("fresh 4096", m, 4096);
	printf("## range attribute errors\n");
	R("range size 0", cuMemRangeGetAttribute(&v, 4, 1, m2, 0));
	R("range unaligned start", cuMemRangeGetAttribute(&v, 4, 1, m2 + 1, 4096));
	R("range unaligned size", cuMemRangeGetAttribute(&v, 4, 1, m2, 100));
	R("range datasize 8", cuMemRangeGetAttribute(&v, 8, 1, m2, 4096));
	R("range datasize 2", cuMemRangeGetAttribute(&v, 2, 1, m2, 4096));
	R("range datasize 0", cuMemRangeGetAttribute(&v, 0, 1, m2, 4096));
	R("range accessed_by 4", cuMemRangeGetAttribute(&v, 4, 3, m2, 4096));
	R("range accessed_by 6", cuMemRangeGetAttribute(&v, 6, 3, m2, 4096));
	R("range accessed_by 0", cuMemRangeGetAttribute(&v, 0, 3, m2, 4096));
	R("range null data", cuMemRangeGetAttribute(NULL, 4, 1, m2, 4096));
	R("range attr 0", cuMemRangeGetAttribute(&v, 4, 0, m2, 4096));
	R("range attr 9", cuMemRangeGetAttribute(&v, 4, 9, m2, 4096));
	R("range device mem", cuMemRangeGetAttribute(&v, 4, 1, d, 4096));
	R("range hostalloc", cuMemRangeGetAttribute(&v, 4, 1, h, 4096));
	R("range null ptr", cuMemRangeGetAttribute(&v, 4, 1, 0, 4096));
	R("range stack", cuMemRangeGetAttribute(&v, 4, 1, (CUdeviceptr)&v & ~0xfffull, 4096));
	R("range past end", cuMemRangeGetAttribute(&v, 4, 1, m2, (1 << 20) + 4096));
	R("range spans two", cuMemRangeGetAttribute(&v, 4, 1, m, 4096 * 3));
	R("range past 100 alloc", cuMemRangeGetAttribute(&v, 4, 1, m, 8192));
	{
		CUmem_range_attribute ra[] = { 1, 2, 4, 3 };
		int rm = -7, pl = -7, lp = -7, ab[2] = { -7, -7 };
		void *dat[] = { &rm, &pl, &lp, ab };
		size_t sizes[] = { 4, 4, 4, 8 };

		R("getattrs", cuMemRangeGetAttributes(dat, sizes, ra, 4, m2, 4096));
		printf("getattrs values = %d %d %d %d %d\n", rm, pl, lp, ab[0], ab[1]);
		sizes[0] = 8;
		R("getattrs bad size", cuMemRangeGetAttributes(dat, sizes, ra, 4, m2, 4096));
		sizes[0] = 4;
		R("getattrs n 0", cuMemRangeGetAttributes(dat, sizes, ra, 0, m2, 4096));
		R("getattrs null sizes", cuMemRangeGetAttributes(dat, NULL, ra, 4, m2, 4096));
		R("getattrs device mem", cuMemRangeGetAttributes(dat, sizes, ra, 4, d, 4096));
	}

	printf("## advise\n");
	R("advise rm", cuMemAdvise(m2, 1 << 20, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	ranges("after rm", m2, 1 << 20);
	R("advise unset rm page", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_UNSET_READ_MOSTLY, loc(1, 0)));
	ranges("after unset rm page (whole)", m2, 1 << 20);
	ranges("after unset rm page (page 0)", m2, 4096);
	ranges("after unset rm page (page 1)", m2 + 4096, 4096);
	R("advise rm bad loc", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(0, 0)));
	R("advise rm bad dev", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 7)));
	R("advise pref dev", cuMemAdvise(m2, 8192, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(1, 0)));
	ranges("after pref dev", m2, 8192);
	ranges("after pref dev (whole)", m2, 1 << 20);
	R("advise pref host", cuMemAdvise(m2 + 8192, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(2, 0)));
	ranges("after pref host", m2 + 8192, 4096);
	R("advise pref host id 5", cuMemAdvise(m2 + 8192, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(2, 5)));
	R("advise pref host numa 0", cuMemAdvise(m2 + 12288, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(3, 0)));
	ranges("after pref host numa", m2 + 12288, 4096);
	R("advise pref host numa 9", cuMemAdvise(m2 + 12288, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(3, 9)));
	R("advise pref numa current", cuMemAdvise(m2 + 12288, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(4, 0)));
	ranges("after pref numa current", m2 + 12288, 4096);
	R("advise pref bad dev", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(1, 7)));
	R("advise pref dev -1", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(1, -1)));
	R("advise pref type 0", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(0, 0)));
	R("advise pref type 9", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_PREFERRED_LOCATION, loc(9, 0)));
	R("advise unset pref", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, loc(0, 0)));
	ranges("after unset pref", m2, 4096);
	R("advise acc dev", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_ACCESSED_BY, loc(1, 0)));
	R("advise acc host", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_ACCESSED_BY, loc(2, 0)));
	ranges("after acc", m2, 4096);
	R("advise unset acc host", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_UNSET_ACCESSED_BY, loc(2, 0)));
	ranges("after unset acc host", m2, 4096);
	R("advise acc bad dev", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_ACCESSED_BY, loc(1, 7)));
	R("advise acc numa", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_SET_ACCESSED_BY, loc(3, 0)));
	R("advise unset acc dev", cuMemAdvise(m2, 4096, CU_MEM_ADVISE_UNSET_ACCESSED_BY, loc(1, 0)));
	ranges("after unset acc dev", m2, 4096);
	R("advise 0", cuMemAdvise(m2, 4096, 0, loc(1, 0)));
	R("advise 7", cuMemAdvise(m2, 4096, 7, loc(1, 0)));
	R("advise size 0", cuMemAdvise(m2, 0, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	R("advise unaligned", cuMemAdvise(m2 + 1, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	R("advise unaligned size", cuMemAdvise(m2, 100, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	ranges("after unaligned size", m2, 4096);
	R("advise 100 alloc", cuMemAdvise(m, 100, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	ranges("after 100 alloc", m, 4096);
	R("advise device mem", cuMemAdvise(d, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	R("advise hostalloc", cuMemAdvise(h, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	R("advise null", cuMemAdvise(0, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	R("advise past end", cuMemAdvise(m2, (1 << 20) + 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));
	R("advise v1", cuMemAdvise_v2(m2, 4096, CU_MEM_ADVISE_SET_READ_MOSTLY, loc(1, 0)));

	printf("## prefetch\n");
	R("prefetch dev", cuMemPrefetchAsync(m2, 1 << 20, loc(1, 0), 0, st));
	R("sync", cuStreamSynchronize(st));
	ranges("after prefetch dev", m2, 1 << 20);
	R("prefetch host page", cuMemPrefetchAsync(m2 + 4096, 4096, loc(2, 0), 0, st));
	R("sync", cuStreamSynchronize(st));
	ranges("after prefetch host page", m2 + 4096, 4096);
	ranges("after prefetch host page (whole)", m2, 1 << 20);
	R("prefetch host numa", cuMemPrefetchAsync(m2, 4096, loc(3, 0), 0, st));
	cuStreamSynchronize(st);
	ranges("after prefetch host numa", m2, 4096);
	R("prefetch numa current", cuMemPrefetchAsync(m2, 4096, loc(4, 0), 0, st));
	cuStreamSynchronize(st);
	ranges("after prefetch numa current", m2, 4096);
	R("prefetch flags 1", cuMemPrefetchAsync(m2, 4096, loc(1, 0), 1, st));
	R("prefetch bad dev", cuMemPrefetchAsync(m2, 4096, loc(1, 7), 0, st));
	R("prefetch type 0", cuMemPrefetchAsync(m2, 4096, loc(0, 0), 0, st));
	R("prefetch size 0", cuMemPrefetchAsync(m2, 0, loc(1, 0), 0, st));
	R("prefetch unaligned", cuMemPrefetchAsync(m2 + 1, 4096, loc(1, 0), 0, st));
	R("prefetch unaligned size", cuMemPrefetchAsync(m2, 100, loc(1, 0), 0, st));
	R("prefetch 100 alloc", cuMemPrefetchAsync(m, 100, loc(1, 0), 0, st));
	cuStreamSynchronize(st);
	ranges("after prefetch 100", m, 4096);
	R("prefetch device mem", cuMemPrefetchAsync(d, 4096, loc(1, 0), 0, st));
	R("prefetch hostalloc", cuMemPrefetchAsync(h, 4096, loc(1, 0), 0, st));
	R("prefetch null", cuMemPrefetchAsync(0, 4096, loc(1, 0), 0, st));
	R("prefetch past end", cuMemPrefetchAsync(m2, (1 << 20) + 4096, loc(1, 0), 0, st));
	R("prefetch null stream", cuMemPrefetchAsync(m2, 4096, loc(1, 0), 0, 0));
	R("sync", cuCtxSynchronize());
	printf("value kept = %d\n", ((int *)m)[0]);

	printf("## attach\n");
	R("attach global", cuStreamAttachMemAsync(st, m2, 0, CU_MEM_ATTACH_GLOBAL));
	R("attach host", cuStreamAttachMemAsync(st, m2, 0, CU_MEM_ATTACH_HOST));
	R("attach single", cuStreamAttachMemAsync(st, m2, 0, CU_MEM_ATTACH_SINGLE));
	R("attach single null stream", cuStreamAttachMemAsync(0, m2, 0, CU_MEM_ATTACH_SINGLE));
	R("attach global null stream", cuStreamAttachMemAsync(0, m2, 0, CU_MEM_ATTACH_GLOBAL));
	R("attach flags 3", cuStreamAttachMemAsync(st, m2, 0, 3));
	R("attach flags 8", cuStreamAttachMemAsync(st, m2, 0, 8));
	R("attach length all", cuStreamAttachMemAsync(st, m2, 1 << 20, CU_MEM_ATTACH_GLOBAL));
	R("attach length part", cuStreamAttachMemAsync(st, m2, 4096, CU_MEM_ATTACH_GLOBAL));
	R("attach interior", cuStreamAttachMemAsync(st, m2 + 4096, 0, CU_MEM_ATTACH_GLOBAL));
	R("attach device mem", cuStreamAttachMemAsync(st, d, 0, CU_MEM_ATTACH_GLOBAL));
	R("attach hostalloc", cuStreamAttachMemAsync(st, h, 0, CU_MEM_ATTACH_GLOBAL));
	R("attach null", cuStreamAttachMemAsync(st, 0, 0, CU_MEM_ATTACH_GLOBAL));
	R("sync", cuStreamSynchronize(st));

	printf("## free\n");
	R("freehost managed", cuMemFreeHost((void *)m2));
	R("hostgetflags managed", cuMemHostGetFlags(&i, (void *)m2));
	{
		CUdeviceptr dp = 9;

		R("hostgetdeviceptr managed", cuMemHostGetDevicePointer(&dp, (void *)m2, 0));
	}
	R("hostregister managed", cuMemHostRegister((void *)m2, 4096, 0));
	R("free interior", cuMemFree(m2 + 4096));
	R("memcpy htod managed", cuMemcpyHtoD(m2, &v, 4));
	R("memcpy dtod managed to dev", cuMemcpyDtoD(d, m2, 4096));
	R("memset managed", cuMemsetD8(m2, 7, 4096));
	printf("memset seen by host = %d\n", ((unsigned char *)m2)[100]);
	R("free", cuMemFree(m2));
	R("free again", cuMemFree(m2));
	R("range after free", cuMemRangeGetAttribute(&v, 4, 1, m2, 4096));
	R("alloc big", cuMemAllocManaged(&big, 64 << 20, CU_MEM_ATTACH_GLOBAL));
	R("free big", cuMemFree(big));

	if (argc > 1) {
		char *ptx = slurp(argv[1]);
		CUmodule mod;
		CUlibrary lib;
		CUdeviceptr g;
		CUfunction fn;
		size_t sz = 0;
		int n = 5;
		void *args[] = { &n };

		printf("## __managed__\n");
		R("module load", cuModuleLoadData(&mod, ptx));
		R("getglobal counter", cuModuleGetGlobal(&g, &sz, mod, "counter"));
		printf("counter size = %zu\n", sz);
		ptrattrs("counter", g);
		printf("counter host read = %d\n", *(int *)g);
		R("getglobal arr", cuModuleGetGlobal(&g, &sz, mod, "arr"));
		printf("arr size %zu, arr[1] host read = %g\n", sz, ((float *)g)[1]);
		R("getfunction", cuModuleGetFunction(&fn, mod, "bump"));
		R("launch", cuLaunchKernel(fn, 1, 1, 1, 16, 1, 1, 0, 0, args, NULL));
		R("sync", cuCtxSynchronize());
		cuModuleGetGlobal(&g, &sz, mod, "counter");
		printf("counter after = %d\n", *(int *)g);
		cuModuleGetGlobal(&g, &sz, mod, "arr");
		printf("arr after = %g %g %g\n", ((float *)g)[0], ((float *)g)[1], ((float *)g)[3]);
		ranges("counter", g & ~0xfffull, 4096);
		R("library load", cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0));
		R("library getmanaged counter", cuLibraryGetManaged(&g, &sz, lib, "counter"));
		printf("lib counter size %zu value %d\n", sz, *(int *)g);
		R("library getmanaged none", cuLibraryGetManaged(&g, &sz, lib, "nothere"));
		R("library getglobal counter", cuLibraryGetGlobal(&g, &sz, lib, "counter"));
		R("library getmanaged dev", cuLibraryGetManaged(&g, &sz, lib, "plain"));
		R("library getglobal plain", cuLibraryGetGlobal(&g, &sz, lib, "plain"));
		R("module getglobal plain", cuModuleGetGlobal(&g, &sz, mod, "plain"));
		ptrattrs("plain", g);
	}
	return 0;
}
