/*
 * Probe of device-side malloc/free on a real GPU: what malloc returns
 * (alignment, 0 bytes, more than the heap), how much of the heap is
 * usable, reuse after free, allocations that outlive a launch, and
 * cuCtxSetLimit/cuCtxGetLimit(CU_LIMIT_MALLOC_HEAP_SIZE) before and after
 * a launch. Kernels: h100_devmalloc_k.cu, compiled with
 *   nvcc -arch=sm_75 -ptx h100_devmalloc_k.cu -o k.ptx
 * Each group runs in a child of its own (a fresh context) with a time
 * limit. Output: "name = value" lines. Not built by the tree: it needs
 * NVIDIA's cuda.h and libcuda. Run on an H100 (driver 580.159.04, CUDA
 * 13.0) as
 *   gcc h100_devmalloc.c -I/usr/local/cuda/include -lcuda && ./a.out
 * after `nvidia-smi --query-gpu=name,driver_version --format=csv,noheader`;
 * the output of both is h100_devmalloc.log, which
 * tests/e2e/devmalloc_api.c follows.
 */
#include <cuda.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define R(name, call) printf("%s = %d\n", name, (int)(call))
#define MiB (1024ull * 1024)

static CUcontext ctx;
static CUmodule mod;
static CUdeviceptr scratch;	/* 64 KiB of zeroes */
static CUdeviceptr ptrs;	/* 1 Mi pointers */
static CUdeviceptr cnt;

static void setup(void)
{
	CUdevice dev;

	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuCtxCreate(&ctx, NULL, 0, dev);
}

static void load(void)
{
	if (cuModuleLoad(&mod, "k.ptx"))
		printf("load failed\n");
	cuMemAlloc(&scratch, 65536);
	cuMemsetD8(scratch, 0, 65536);
	cuMemAlloc(&ptrs, 8 * MiB);
	cuMemsetD8(ptrs, 0, 8 * MiB);
	cuMemAlloc(&cnt, 8);
}

static CUresult launch(const char *k, unsigned int g, unsigned int b, void **a)
{
	CUfunction f;
	CUresult r = cuModuleGetFunction(&f, mod, k);

	if (r)
		return r;
	r = cuLaunchKernel(f, g, 1, 1, b, 1, 1, 0, NULL, a, NULL);
	if (r)
		return r;
	return cuCtxSynchronize();
}

static unsigned int count(void)
{
	unsigned int v = 0;

	cuMemcpyDtoH(&v, cnt, 4);
	cuMemsetD8(cnt, 0, 8);
	return v;
}

static size_t limit(void)
{
	size_t v = 0;
	CUresult r = cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE);

	if (r)
		printf("getlimit rc = %d\n", r);
	return v;
}

static size_t freemem(void)
{
	size_t f = 0, t = 0;

	cuMemGetInfo(&f, &t);
	return f;
}

/* Thread 0 mallocs each of @sz; pointers land in @out. */
static CUresult sizes(const unsigned long long *sz, unsigned long long *out, int n)
{
	CUdeviceptr dsz = scratch, dout = scratch + 32768;
	void *a[] = { &dsz, &dout, &n };
	CUresult r;

	cuMemcpyHtoD(dsz, sz, n * 8);
	r = launch("k_sizes", 1, 1, a);
	cuMemcpyDtoH(out, dout, n * 8);
	return r;
}

static CUresult free_ptrs(CUdeviceptr p, int n)
{
	void *a[] = { &p, &n };

	return launch("k_free", 1, 256, a);
}

static unsigned long long largest(size_t hi, size_t step)
{
	unsigned long long v = 0;
	CUdeviceptr o = scratch;
	void *a[] = { &hi, &step, &o };

	R("largest rc", launch("k_largest", 1, 1, a));
	cuMemcpyDtoH(&v, o, 8);
	return v;
}

static void g_defaults(void)
{
	size_t f0, f1, f2, f3;
	unsigned long long one = 16, p;
	int x = 0;
	CUdeviceptr o;
	void *a[] = { &o };

	setup();
	printf("default limit = %zu\n", limit());
	f0 = freemem();
	cuModuleLoad(&mod, "k.ptx");
	f1 = freemem();
	cuMemAlloc(&scratch, 65536);
	cuMemAlloc(&cnt, 8);
	o = cnt;
	R("plain launch", launch("k_plain", 1, 1, a));
	f2 = freemem();
	R("malloc launch", sizes(&one, &p, 1));
	f3 = freemem();
	printf("free drop at module load = %lld\n", (long long)(f0 - f1));
	printf("free drop at plain launch (less 64K+8 alloc) = %lld\n",
	       (long long)(f1 - f2) - 65536 - 8);
	printf("free drop at malloc launch = %lld\n", (long long)(f2 - f3));
	printf("malloc 16 null = %d\n", !p);
	(void)x;
}

static void g_sizes(void)
{
	static const unsigned long long sz[] = {
		0, 1, 2, 3, 4, 8, 12, 16, 17, 24, 32, 33, 48, 64, 100, 128,
		256, 1000, 4096, 65536, 1 * MiB, 4 * MiB, 8 * MiB, 16 * MiB,
		~0ull, 1ull << 40,
	};
	int n = sizeof(sz) / sizeof(sz[0]), i;
	unsigned long long out[32], prev = 0;

	setup();
	load();
	R("sizes rc", sizes(sz, out, n));
	for (i = 0; i < n; i++) {
		printf("malloc %llu: null %d mod16 %llu mod256 %llu mod4096 %llu delta %lld\n",
		       sz[i], !out[i], out[i] % 16, out[i] % 256, out[i] % 4096,
		       out[i] && prev ? (long long)(out[i] - prev) : 0);
		if (out[i])
			prev = out[i];
	}
	for (i = 0; i < n && !out[i]; i++)
		;
	if (i < n) {
		CUdeviceptr base = 0;
		size_t size = 0;
		unsigned int v = 0;
		CUcontext c = NULL;

		R("heap ptr getaddressrange", cuMemGetAddressRange(&base, &size, out[i]));
		R("heap ptr dtoh", cuMemcpyDtoH(&v, out[i], 4));
		R("heap ptr htod", cuMemcpyHtoD(out[i], &v, 4));
		R("heap ptr memset", cuMemsetD8(out[i], 0, 4));
		R("heap ptr attr context",
		  cuPointerGetAttribute(&c, CU_POINTER_ATTRIBUTE_CONTEXT, out[i]));
		R("heap ptr memfree", cuMemFree(out[i]));
	}
	cuMemcpyHtoD(ptrs, out, n * 8);
	R("free sizes rc", free_ptrs(ptrs, n));
}

static void fill(const char *name, size_t sz, unsigned int g, unsigned int b, int cap)
{
	void *a[] = { &sz, &ptrs, &cap, &cnt };
	unsigned int c;

	cuMemsetD8(cnt, 0, 8);
	cuMemsetD8(ptrs, 0, 8 * MiB);
	R("fill rc", launch("k_fill", g, b, a));
	c = count();
	printf("%s: count %u bytes %llu\n", name, c, (unsigned long long)c * sz);
	R("fill free rc", free_ptrs(ptrs, (int)(g * b * cap)));
}

static void g_fill(void)
{
	setup();
	load();
	printf("largest default (64K steps) = %llu\n", largest(8 * MiB, 65536));
	printf("largest default (4K steps from 8M) = %llu\n", largest(8 * MiB, 4096));
	fill("fill 4096 x1", 4096, 1, 1, 4096);
	fill("fill 4096 x1 again", 4096, 1, 1, 4096);
	fill("fill 65536 x1", 65536, 1, 1, 1024);
	fill("fill 1MiB x1", MiB, 1, 1, 64);
	fill("fill 16 x256", 16, 1, 256, 4096);
	fill("fill 100 x256", 100, 1, 256, 4096);
	fill("fill 1024 x1024", 1024, 4, 256, 128);
	printf("largest after fills = %llu\n", largest(8 * MiB, 65536));
}

static void g_null_and_loop(void)
{
	int iters = 1000;
	size_t sz = MiB;
	void *a[] = { &sz, &iters, &cnt };

	setup();
	load();
	R("free null rc", free_ptrs(ptrs, 1024));
	cuMemsetD8(cnt, 0, 8);
	R("loop 1MiB x1000 rc", launch("k_loop", 1, 1, a));
	printf("loop 1MiB x1000 ok = %u\n", count());
	sz = 65536;
	R("loop 64KiB x1000 x64 threads rc", launch("k_loop", 1, 64, a));
	printf("loop 64KiB x1000 x64 threads ok = %u\n", count());
}

static void g_cross(void)
{
	void *a[] = { &ptrs };
	void *b[] = { &ptrs, &cnt };
	unsigned long long p[256];
	int i, nul = 0;

	setup();
	load();
	cuMemsetD8(cnt, 0, 8);
	R("keep rc", launch("k_keep", 4, 64, a));
	cuMemcpyDtoH(p, ptrs, sizeof(p));
	for (i = 0; i < 256; i++)
		nul += !p[i];
	printf("keep nulls = %d\n", nul);
	R("check rc", launch("k_check", 4, 64, b));
	printf("check good words = %u\n", count());
}

static void g_setlimit_after(void)
{
	unsigned long long one = 16, p;

	setup();
	load();
	R("setlimit after load, before launch", cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 16 * MiB));
	printf("limit = %zu\n", limit());
	R("malloc launch", sizes(&one, &p, 1));
	R("setlimit 64M after malloc launch", cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 64 * MiB));
	printf("limit after = %zu\n", limit());
	R("setlimit same after malloc launch", cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 16 * MiB));
	R("setlimit 1M after malloc launch", cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, MiB));
	printf("limit after smaller = %zu\n", limit());
	R("setlimit stack after malloc launch", cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 2048));
	R("setlimit printf fifo after malloc launch", cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 2 * MiB));
	printf("largest = %llu\n", largest(64 * MiB, MiB));
}

static void g_setlimit_plain(void)
{
	CUdeviceptr o;
	void *a[] = { &o };

	setup();
	load();
	o = cnt;
	R("plain launch", launch("k_plain", 1, 1, a));
	R("setlimit 64M after plain launch", cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 64 * MiB));
	printf("limit = %zu\n", limit());
	printf("largest = %llu\n", largest(64 * MiB, MiB));
	R("setlimit 32M after malloc launch", cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 32 * MiB));
	printf("limit after = %zu\n", limit());
}

static void g_bigheap(void)
{
	unsigned long long sz = 40 * MiB, p = 0;
	size_t f0, f1;

	setup();
	load();
	R("setlimit 64M", cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 64 * MiB));
	printf("limit = %zu\n", limit());
	f0 = freemem();
	R("malloc 40M rc", sizes(&sz, &p, 1));
	f1 = freemem();
	printf("malloc 40M null = %d\n", !p);
	printf("free drop at launch = %lld\n", (long long)(f0 - f1));
	cuMemcpyHtoD(ptrs, &p, 8);
	free_ptrs(ptrs, 1);
	printf("largest 64M heap (64K steps) = %llu\n", largest(64 * MiB, 65536));
}

static void g_default40(void)
{
	unsigned long long sz = 40 * MiB, p = 0;

	setup();
	load();
	R("malloc 40M default rc", sizes(&sz, &p, 1));
	printf("malloc 40M default null = %d\n", !p);
}

static void g_rounding(void)
{
	setup();
	load();
	R("setlimit 1000000", cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 1000000));
	printf("limit = %zu\n", limit());
	R("setlimit 0", cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 0));
	printf("limit = %zu\n", limit());
	R("setlimit 1", cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 1));
	printf("limit = %zu\n", limit());
	R("setlimit 1T", cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 1ull << 40));
	printf("limit = %zu\n", limit());
	R("setlimit 1", cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 1));
	printf("limit = %zu\n", limit());
	printf("largest 1-byte heap = %llu\n", largest(MiB, 16));
	printf("limit after launch = %zu\n", limit());
}

static void g_badfree(void)
{
	unsigned long long p = cnt;
	void *a[] = { &p };

	setup();
	load();
	R("free cuMemAlloc ptr rc", launch("k_badfree", 1, 1, a));
	p = 0x1234;
	R("free 0x1234 rc", launch("k_badfree", 1, 1, a));
}

static void g_doublefree(void)
{
	unsigned long long one = 64, p = 0;

	setup();
	load();
	R("malloc rc", sizes(&one, &p, 1));
	cuMemcpyHtoD(ptrs, &p, 8);
	R("free once rc", free_ptrs(ptrs, 1));
	R("free twice rc", free_ptrs(ptrs, 1));
	R("free inside rc", (p += 8, cuMemcpyHtoD(ptrs, &p, 8), free_ptrs(ptrs, 1)));
}

static void child(const char *name, void (*fn)(void))
{
	int st;
	pid_t p;

	fflush(stdout);
	p = fork();
	if (!p) {
		setvbuf(stdout, NULL, _IOLBF, 0);
		alarm(25);
		printf("## %s\n", name);
		fn();
		fflush(stdout);
		_exit(0);
	}
	waitpid(p, &st, 0);
	if (WIFSIGNALED(st))
		printf("## %s: killed by signal %d\n", name, WTERMSIG(st));
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	child("defaults", g_defaults);
	child("sizes", g_sizes);
	child("fill", g_fill);
	child("null and loop", g_null_and_loop);
	child("cross launch", g_cross);
	child("setlimit after malloc launch", g_setlimit_after);
	child("setlimit after plain launch", g_setlimit_plain);
	child("big heap", g_bigheap);
	child("default heap 40M", g_default40);
	child("rounding", g_rounding);
	child("bad free", g_badfree);
	child("double free", g_doublefree);
	return 0;
}
