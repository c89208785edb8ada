// SPDX-License-Identifier: MIT
// Probe run on an H100 for tests/e2e/robust_api.c: handles of unloaded
// modules, and pageable copies to or from host memory the process may not
// touch (read-only or unmapped), at a size under and one over the staging
// sizes. Each case runs in a child of its own with its own cuInit, so a
// case that kills its process prints "NAME = signal N". Built with
// gcc -I$CUDA/include h100_robust.c -lcuda.
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cuda.h>

static const char ptx[] =
	".version 7.0\n.target sm_52\n.address_size 64\n"
	".visible .global .align 4 .u32 g;\n"
	".visible .entry k()\n{\n\tret;\n}\n";

#define SMALL 4096
#define LARGE (4u << 20)

static CUcontext ctx;
static char cur[128];	/* the case running, for its extra lines */

static void setup(void)
{
	cuInit(0);
	cuCtxCreate(&ctx, NULL, 0, 0);
}

/* A mapping of @n bytes: read-only, or unmapped again (an address free). */
static void *host_ro(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	memset(p, 1, n);
	mprotect(p, n, PROT_READ);
	return p;
}

static void *host_gone(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(p, n);
	return p;
}

/* --- modules ------------------------------------------------------------ */

static int unload_twice(size_t n)
{
	CUmodule m;

	(void)n;
	setup();
	cuModuleLoadData(&m, ptx);
	printf("unload once = %d\n", cuModuleUnload(m));
	return cuModuleUnload(m);
}

static int get_function_unloaded(size_t n)
{
	CUmodule m;
	CUfunction f;

	(void)n;
	setup();
	cuModuleLoadData(&m, ptx);
	cuModuleUnload(m);
	return cuModuleGetFunction(&f, m, "k");
}

static int get_global_unloaded(size_t n)
{
	CUmodule m;
	CUdeviceptr d;
	size_t b;

	(void)n;
	setup();
	cuModuleLoadData(&m, ptx);
	cuModuleUnload(m);
	return cuModuleGetGlobal(&d, &b, m, "g");
}

/* The second unload of A, with B loaded since: B must survive. */
static int unload_twice_newer(size_t n)
{
	CUmodule a, b;
	CUfunction f;
	int r;

	(void)n;
	setup();
	cuModuleLoadData(&a, ptx);
	cuModuleUnload(a);
	cuModuleLoadData(&b, ptx);
	printf("newer same handle = %d\n", a == b);
	r = cuModuleUnload(a);
	printf("newer get function = %d\n", cuModuleGetFunction(&f, b, "k"));
	printf("newer launch = %d\n",
	       cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
	printf("newer sync = %d\n", cuCtxSynchronize());
	return r;
}

static int unload_after_ctx_destroy(size_t n)
{
	CUmodule m;

	(void)n;
	setup();
	cuModuleLoadData(&m, ptx);
	cuCtxDestroy(ctx);
	return cuModuleUnload(m);
}

/* The module of a destroyed context, asked with another one current. */
static int get_function_after_ctx_destroy(size_t n)
{
	CUmodule m;
	CUfunction f;
	CUcontext c;

	(void)n;
	setup();
	cuModuleLoadData(&m, ptx);
	cuCtxDestroy(ctx);
	cuCtxCreate(&c, NULL, 0, 0);
	return cuModuleGetFunction(&f, m, "k");
}

static int get_global_after_ctx_destroy(size_t n)
{
	CUmodule m;
	CUdeviceptr d;
	CUcontext c;
	size_t b;

	(void)n;
	setup();
	cuModuleLoadData(&m, ptx);
	cuCtxDestroy(ctx);
	cuCtxCreate(&c, NULL, 0, 0);
	return cuModuleGetGlobal(&d, &b, m, "g");
}

/* A function of a module unloaded since. */
static CUfunction unloaded_function(void)
{
	CUmodule m;
	CUfunction f;

	setup();
	cuModuleLoadData(&m, ptx);
	cuModuleGetFunction(&f, m, "k");
	cuModuleUnload(m);
	return f;
}

static int func_attribute_unloaded(size_t n)
{
	CUfunction f = unloaded_function();
	int v = -1;

	(void)n;
	return cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
}

static int launch_unloaded(size_t n)
{
	CUfunction f = unloaded_function();

	(void)n;
	return cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL);
}

/* --- pageable copies with bad host memory ------------------------------- */

/* After a copy's answer: whether the context still works. */
static void after(const char *name)
{
	printf("%s after = %d\n", name, cuCtxSynchronize());
}

static int dtoh(void *h, size_t n, int async)
{
	CUdeviceptr d;
	CUstream s;

	cuMemAlloc(&d, n);
	cuMemsetD8(d, 7, n);
	cuCtxSynchronize();
	if (!async)
		return cuMemcpyDtoH(h, d, n);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	int r = cuMemcpyDtoHAsync(h, d, n, s);
	printf("%s stream sync = %d\n", cur, cuStreamSynchronize(s));
	return r;
}

static int htod(const void *h, size_t n, int async)
{
	CUdeviceptr d;
	CUstream s;

	cuMemAlloc(&d, n);
	if (!async)
		return cuMemcpyHtoD(d, h, n);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	int r = cuMemcpyHtoDAsync(d, h, n, s);
	printf("%s stream sync = %d\n", cur, cuStreamSynchronize(s));
	return r;
}

static int dtoh_ro(size_t n) { setup(); return dtoh(host_ro(n), n, 0); }
static int dtoh_gone(size_t n) { setup(); return dtoh(host_gone(n), n, 0); }
static int htod_gone(size_t n) { setup(); return htod(host_gone(n), n, 0); }
static int dtoh_async_ro(size_t n) { setup(); return dtoh(host_ro(n), n, 1); }
static int htod_async_gone(size_t n) { setup(); return htod(host_gone(n), n, 1); }

static int unified_dtoh_ro(size_t n)
{
	CUdeviceptr d;
	void *h;

	setup();
	h = host_ro(n);
	cuMemAlloc(&d, n);
	return cuMemcpy((CUdeviceptr)(uintptr_t)h, d, n);
}

/* Rows of 1 KiB, pitch 2 KiB on the host side, packed on the device. */
#define W 1024

static int copy2d(void *h, size_t n, int to_host, int async)
{
	CUDA_MEMCPY2D p = { 0 };
	CUdeviceptr d;
	CUstream s = NULL;

	cuMemAlloc(&d, n);
	p.WidthInBytes = W;
	p.Height = n / (2 * W);
	if (to_host) {
		p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
		p.srcDevice = d;
		p.srcPitch = W;
		p.dstMemoryType = CU_MEMORYTYPE_HOST;
		p.dstHost = h;
		p.dstPitch = 2 * W;
	} else {
		p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
		p.dstDevice = d;
		p.dstPitch = W;
		p.srcMemoryType = CU_MEMORYTYPE_HOST;
		p.srcHost = h;
		p.srcPitch = 2 * W;
	}
	if (!async)
		return cuMemcpy2D(&p);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	int r = cuMemcpy2DAsync(&p, s);
	printf("%s stream sync = %d\n", cur, cuStreamSynchronize(s));
	return r;
}

static int copy3d(void *h, size_t n, int to_host)
{
	CUDA_MEMCPY3D p = { 0 };
	CUdeviceptr d;

	cuMemAlloc(&d, n);
	p.WidthInBytes = W;
	p.Height = 4;
	p.Depth = n / (2 * W * 4);
	if (to_host) {
		p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
		p.srcDevice = d;
		p.srcPitch = W;
		p.srcHeight = 4;
		p.dstMemoryType = CU_MEMORYTYPE_HOST;
		p.dstHost = h;
		p.dstPitch = 2 * W;
		p.dstHeight = 4;
	} else {
		p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
		p.dstDevice = d;
		p.dstPitch = W;
		p.dstHeight = 4;
		p.srcMemoryType = CU_MEMORYTYPE_HOST;
		p.srcHost = h;
		p.srcPitch = 2 * W;
		p.srcHeight = 4;
	}
	return cuMemcpy3D(&p);
}

static int dtoh2d_ro(size_t n) { setup(); return copy2d(host_ro(n), n, 1, 0); }
static int htod2d_gone(size_t n) { setup(); return copy2d(host_gone(n), n, 0, 0); }
static int dtoh2d_async_ro(size_t n) { setup(); return copy2d(host_ro(n), n, 1, 1); }
static int dtoh3d_ro(size_t n) { setup(); return copy3d(host_ro(n), n, 1); }
static int htod3d_gone(size_t n) { setup(); return copy3d(host_gone(n), n, 0); }

/* DtoH where only the last page is read-only: what lands before it. */
static int dtoh_ro_tail(size_t n)
{
	unsigned char *h;
	long page = sysconf(_SC_PAGESIZE);
	int r;

	setup();
	h = host_ro(n);
	mprotect(h, n - page, PROT_READ | PROT_WRITE);
	r = dtoh(h, n, 0);
	printf("dtoh ro tail first byte %zu = %d\n", n, h[0]);
	return r;
}

/* --- the cases, each in a child ------------------------------------------ */

struct probe {
	const char *name;
	int (*fn)(size_t n);
	int sized;	/* run at SMALL and LARGE, the size in the name */
};

static const struct probe probes[] = {
	{ "unload twice", unload_twice, 0 },
	{ "get function unloaded", get_function_unloaded, 0 },
	{ "get global unloaded", get_global_unloaded, 0 },
	{ "unload twice newer", unload_twice_newer, 0 },
	{ "unload after ctx destroy", unload_after_ctx_destroy, 0 },
	{ "get function after ctx destroy", get_function_after_ctx_destroy, 0 },
	{ "get global after ctx destroy", get_global_after_ctx_destroy, 0 },
	{ "func attribute unloaded", func_attribute_unloaded, 0 },
	{ "launch unloaded", launch_unloaded, 0 },
	{ "dtoh ro", dtoh_ro, 1 },
	{ "dtoh gone", dtoh_gone, 1 },
	{ "htod gone", htod_gone, 1 },
	{ "dtoh async ro", dtoh_async_ro, 1 },
	{ "htod async gone", htod_async_gone, 1 },
	{ "memcpy dtoh ro", unified_dtoh_ro, 1 },
	{ "dtoh2d ro", dtoh2d_ro, 1 },
	{ "htod2d gone", htod2d_gone, 1 },
	{ "dtoh2d async ro", dtoh2d_async_ro, 1 },
	{ "dtoh3d ro", dtoh3d_ro, 1 },
	{ "htod3d gone", htod3d_gone, 1 },
	{ "dtoh ro tail", dtoh_ro_tail, 1 },
};

static void run(const char *name, int (*fn)(size_t), size_t n)
{
	int status;
	pid_t pid;

	snprintf(cur, sizeof(cur), "%s", name);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int r = fn(n);

		printf("%s = %d\n", name, r);
		after(name);
		fflush(stdout);
		_exit(0);
	}
	waitpid(pid, &status, 0);
	if (WIFSIGNALED(status))
		printf("%s = signal %d\n", name, WTERMSIG(status));
}

int main(void)
{
	static const size_t sizes[] = { SMALL * 4, LARGE };
	char name[128];
	size_t i, j;

	for (i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		if (!probes[i].sized) {
			run(probes[i].name, probes[i].fn, 0);
			continue;
		}
		for (j = 0; j < 2; j++) {
			snprintf(name, sizeof(name), "%s %zu", probes[i].name,
				 sizes[j]);
			run(name, probes[i].fn, sizes[j]);
		}
	}
	return 0;
}
