// SPDX-License-Identifier: MIT
/*
 * Robustness against a program's bad handles and pointers, as NVIDIA's
 * driver answers them (tests/e2e/ref/h100_robust.log, from h100_robust.c
 * there). An unloaded module's handle is dead: unloading it again, or
 * asking it for a function or a global, answers CUDA_ERROR_INVALID_HANDLE
 * and never reaches a module loaded since; so do its functions, and a
 * module of a destroyed context. Pageable copies to read-only or
 * unmapped host memory, or from unmapped memory, kill the process with
 * SIGSEGV on an H100 (the log says "signal 11"); vgpu answers
 * CUDA_ERROR_INVALID_VALUE instead and the context goes on working.
 */
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_robust.log"
#include "h100_log.h"

static const char ptx[] =
	".version 7.0\n.target sm_52\n.address_size 64\n"
	".visible .global .align 4 .u32 g;\n"
	".visible .entry k()\n{\n\tret;\n}\n";

static void setup(void)
{
	CUcontext c;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
}

/* --- modules ------------------------------------------------------------ */

static CUmodule load_unloaded(void)
{
	CUmodule m;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, ptx));
	CHECK_H100("unload once", cuModuleUnload(m));
	return m;
}

static void unload_twice(void)
{
	CUmodule m = load_unloaded();

	CHECK_H100("unload twice", cuModuleUnload(m));
	CHECK_H100("unload twice after", cuCtxSynchronize());
}

static void get_function_unloaded(void)
{
	CUmodule m = load_unloaded();
	CUfunction f;

	CHECK_H100("get function unloaded", cuModuleGetFunction(&f, m, "k"));
}

static void get_global_unloaded(void)
{
	CUmodule m = load_unloaded();
	CUdeviceptr d;
	size_t n;

	CHECK_H100("get global unloaded", cuModuleGetGlobal(&d, &n, m, "g"));
}

/*
 * A second unload of A, with B loaded since (whose kernel-side handle may
 * be the one A had), leaves B loaded. B is a module at another address
 * than A's: one at the same address is the same handle, on NVIDIA's
 * driver too.
 */
static void unload_twice_newer(void)
{
	CUmodule a = load_unloaded(), b[4];
	CUfunction f;
	int i = 0;

	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&b[0], ptx));
	while (b[i] == a && i < 3)
		REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&b[++i], ptx));
	if (b[i] == a)
		TAP_SKIP("every new module took the unloaded one's address");
	CHECK_H100("unload twice newer", cuModuleUnload(a));
	CHECK_H100("newer get function", cuModuleGetFunction(&f, b[i], "k"));
	CHECK_H100("newer launch",
		   cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
	CHECK_H100("newer sync", cuCtxSynchronize());
}

static void unload_after_ctx_destroy(void)
{
	CUcontext c;
	CUmodule m;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	CHECK_H100("unload after ctx destroy", cuModuleUnload(m));
	CHECK_H100("unload after ctx destroy after", cuCtxSynchronize());
	/* Gone for good: the handle is dead, not unloaded again. */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuModuleUnload(m));
}

/* A module of a destroyed context, asked with another context current. */
static CUmodule module_of_destroyed(void)
{
	CUcontext c;
	CUmodule m;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	return m;
}

static void get_function_after_ctx_destroy(void)
{
	CUmodule m = module_of_destroyed();
	CUfunction f;

	CHECK_H100("get function after ctx destroy",
		   cuModuleGetFunction(&f, m, "k"));
	CHECK_H100("get function after ctx destroy after", cuCtxSynchronize());
}

static void get_global_after_ctx_destroy(void)
{
	CUmodule m = module_of_destroyed();
	CUdeviceptr d;
	size_t n;

	CHECK_H100("get global after ctx destroy",
		   cuModuleGetGlobal(&d, &n, m, "g"));
}

/* A function of a module unloaded since: freed with it, never read. */
static CUfunction unloaded_function(void)
{
	CUmodule m;
	CUfunction f;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "k"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleUnload(m));
	return f;
}

static void func_attribute_unloaded(void)
{
	CUfunction f = unloaded_function();
	int v = -1;

	CHECK_H100("func attribute unloaded",
		   cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
}

static void launch_unloaded(void)
{
	CUfunction f = unloaded_function();

	CHECK_H100("launch unloaded",
		   cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
	CHECK_H100("launch unloaded after", cuCtxSynchronize());
}

/* --- pageable copies with bad host memory ------------------------------- */

/* The sizes the H100 ran: inside one half of the staging buffer, and over. */
static const size_t sizes[] = { 16384, 4u << 20 };

/* @n bytes of ones, read-only; or an address just unmapped. */
static void *host_ro(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		TAP_FAIL("mmap failed");
		exit(1);
	}
	memset(p, 1, n);
	mprotect(p, n, PROT_READ);
	return p;
}

static void *host_gone(size_t n)
{
	void *p = host_ro(n);

	munmap(p, n);
	return p;
}

/* Whether @p's @n bytes still hold host_ro()'s ones. */
static bool untouched(const void *p, size_t n)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		if (b[i] != 1)
			return false;
	return true;
}

/*
 * Case @what at size @n answered @got: the H100 died of a signal there,
 * vgpu refuses the copy, and the context still works.
 */
static void check_refused(const char *what, size_t n, CUresult got)
{
	char name[128];
	const char *h;

	snprintf(name, sizeof(name), "%s %zu", what, n);
	h = h100_line(name);
	if (h && strncmp(h, "signal", 6))
		TAP_FAIL("the H100 answered %s for \"%s\": not a crash any more", h, name);
	if (got != CUDA_ERROR_INVALID_VALUE)
		TAP_FAIL("%s answered %d, expected %d", name, (int)got,
			 (int)CUDA_ERROR_INVALID_VALUE);
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

static CUdeviceptr dev_alloc(size_t n)
{
	CUdeviceptr d;

	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, n));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD8(d, 7, n));
	return d;
}

static CUstream stream(void)
{
	CUstream s;

	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	return s;
}

/* One copy of @n bytes with bad host memory, as the H100 ran it. */
typedef CUresult (*bad_copy)(size_t n);

static CUresult dtoh_ro(size_t n)
{
	void *h = host_ro(n);
	CUresult r = cuMemcpyDtoH(h, dev_alloc(n), n);

	CHECK(untouched(h, n));
	return r;
}

/* The device side first: nothing may map the gone address again. */
static CUresult dtoh_gone(size_t n)
{
	CUdeviceptr d = dev_alloc(n);

	return cuMemcpyDtoH(host_gone(n), d, n);
}

static CUresult htod_gone(size_t n)
{
	CUdeviceptr d = dev_alloc(n);

	return cuMemcpyHtoD(d, host_gone(n), n);
}

static CUresult dtoh_async_ro(size_t n)
{
	void *h = host_ro(n);
	CUstream s = stream();
	CUresult r = cuMemcpyDtoHAsync(h, dev_alloc(n), n, s);

	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(untouched(h, n));
	return r;
}

static CUresult htod_async_gone(size_t n)
{
	CUstream s = stream();
	CUdeviceptr d = dev_alloc(n);
	CUresult r = cuMemcpyHtoDAsync(d, host_gone(n), n, s);

	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	return r;
}

static CUresult memcpy_dtoh_ro(size_t n)
{
	void *h = host_ro(n);
	CUresult r = cuMemcpy((CUdeviceptr)(uintptr_t)h, dev_alloc(n), n);

	CHECK(untouched(h, n));
	return r;
}

/* Rows of 1 KiB: pitch 2 KiB on the host, packed on the device. */
#define W 1024

static void side_2d(CUmemorytype *type, void **host, CUdeviceptr *dev,
		    size_t *pitch, void *h, CUdeviceptr d)
{
	*type = h ? CU_MEMORYTYPE_HOST : CU_MEMORYTYPE_DEVICE;
	*host = h;
	*dev = d;
	*pitch = h ? 2 * W : W;
}

static CUDA_MEMCPY2D copy_2d(void *h, CUdeviceptr d, size_t n, bool to_host)
{
	CUDA_MEMCPY2D p = { .WidthInBytes = W, .Height = n / (2 * W) };

	side_2d(&p.srcMemoryType, (void **)&p.srcHost, &p.srcDevice,
		&p.srcPitch, to_host ? NULL : h, d);
	side_2d(&p.dstMemoryType, &p.dstHost, &p.dstDevice, &p.dstPitch,
		to_host ? h : NULL, d);
	return p;
}

static CUDA_MEMCPY3D copy_3d(void *h, CUdeviceptr d, size_t n, bool to_host)
{
	CUDA_MEMCPY3D p = {
		.WidthInBytes = W, .Height = 4, .Depth = n / (2 * W * 4),
		.srcHeight = 4, .dstHeight = 4,
	};

	side_2d(&p.srcMemoryType, (void **)&p.srcHost, &p.srcDevice,
		&p.srcPitch, to_host ? NULL : h, d);
	side_2d(&p.dstMemoryType, &p.dstHost, &p.dstDevice, &p.dstPitch,
		to_host ? h : NULL, d);
	return p;
}

static CUresult dtoh2d_ro(size_t n)
{
	void *h = host_ro(n);
	CUDA_MEMCPY2D p = copy_2d(h, dev_alloc(n), n, true);
	CUresult r = cuMemcpy2D(&p);

	CHECK(untouched(h, n));
	return r;
}

static CUresult htod2d_gone(size_t n)
{
	CUdeviceptr d = dev_alloc(n);
	CUDA_MEMCPY2D p = copy_2d(host_gone(n), d, n, false);

	return cuMemcpy2D(&p);
}

static CUresult dtoh2d_async_ro(size_t n)
{
	void *h = host_ro(n);
	CUDA_MEMCPY2D p = copy_2d(h, dev_alloc(n), n, true);
	CUstream s = stream();
	CUresult r = cuMemcpy2DAsync(&p, s);

	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(untouched(h, n));
	return r;
}

static CUresult dtoh3d_ro(size_t n)
{
	void *h = host_ro(n);
	CUDA_MEMCPY3D p = copy_3d(h, dev_alloc(n), n, true);
	CUresult r = cuMemcpy3D(&p);

	CHECK(untouched(h, n));
	return r;
}

static CUresult htod3d_gone(size_t n)
{
	CUdeviceptr d = dev_alloc(n);
	CUDA_MEMCPY3D p = copy_3d(host_gone(n), d, n, false);

	return cuMemcpy3D(&p);
}

/* Writable but for the last page: the copy is refused all the same. */
static CUresult dtoh_ro_tail(size_t n)
{
	unsigned char *h = host_ro(n);
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	CUresult r;

	mprotect(h, n - page, PROT_READ | PROT_WRITE);
	r = cuMemcpyDtoH(h, dev_alloc(n), n);
	CHECK(untouched(h + n - page, page));
	return r;
}

static void run_refused(const char *what, bad_copy copy)
{
	size_t i;

	setup();
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		check_refused(what, sizes[i], copy(sizes[i]));
	/* And a good copy after them all. */
	{
		CUdeviceptr d = dev_alloc(64);
		unsigned char b[64];

		CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(b, d, sizeof(b)));
		CHECK(b[0] == 7 && b[63] == 7);
	}
}

#define REFUSED(fn, what) \
	static void fn##_refused(void) { run_refused(what, fn); }
REFUSED(dtoh_ro, "dtoh ro")
REFUSED(dtoh_gone, "dtoh gone")
REFUSED(htod_gone, "htod gone")
REFUSED(dtoh_async_ro, "dtoh async ro")
REFUSED(htod_async_gone, "htod async gone")
REFUSED(memcpy_dtoh_ro, "memcpy dtoh ro")
REFUSED(dtoh2d_ro, "dtoh2d ro")
REFUSED(htod2d_gone, "htod2d gone")
REFUSED(dtoh2d_async_ro, "dtoh2d async ro")
REFUSED(dtoh3d_ro, "dtoh3d ro")
REFUSED(htod3d_gone, "htod3d gone")
REFUSED(dtoh_ro_tail, "dtoh ro tail")

/*
 * Where the kernel answers neither MADV_POPULATE_* (before Linux 5.14)
 * nor process_vm_readv/writev (seccomp), copies check the rows against
 * /proc/self/maps: a filter makes this process such a one.
 */
static void refuse_fast_paths(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 5, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_writev, 4, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_madvise, 0, 2),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, args[2])),
		BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 22 /* MADV_POPULATE_READ */, 2, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EINVAL),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		TAP_SKIP("no seccomp filter here");
}

/* Pageable copies, 1D and pitched, there and back: the bytes survive. */
static void round_trips(size_t n)
{
	unsigned char *a = malloc(n), *b = malloc(n);
	CUDA_MEMCPY2D p;
	CUdeviceptr d = dev_alloc(n);
	size_t i, rows = n / (2 * W);

	for (i = 0; i < n; i++)
		a[i] = (unsigned char)(i * 7 + 3);
	memset(b, 0, n);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(d, a, n));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(b, d, n));
	CHECK(!memcmp(a, b, n));
	memset(b, 0, n);
	p = copy_2d(a, d, n, false);
	CHECK_RES(CUDA_SUCCESS, cuMemcpy2D(&p));
	p = copy_2d(b, d, n, true);
	CHECK_RES(CUDA_SUCCESS, cuMemcpy2D(&p));
	for (i = 0; i < rows; i++)
		CHECK(!memcmp(a + i * 2 * W, b + i * 2 * W, W));
	free(a);
	free(b);
}

static void maps_checked(void)
{
	size_t i;

	refuse_fast_paths();
	setup();
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		round_trips(sizes[i]);
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, dtoh_ro(sizes[i]));
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, htod_gone(sizes[i]));
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, dtoh2d_ro(sizes[i]));
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, htod2d_gone(sizes[i]));
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, dtoh_ro_tail(sizes[i]));
	}
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

/* The same copies with every path open. */
static void round_trips_fast(void)
{
	size_t i;

	setup();
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		round_trips(sizes[i]);
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(unload_twice),
		TAP_TEST(get_function_unloaded),
		TAP_TEST(get_global_unloaded),
		TAP_TEST(unload_twice_newer),
		TAP_TEST(unload_after_ctx_destroy),
		TAP_TEST(get_function_after_ctx_destroy),
		TAP_TEST(get_global_after_ctx_destroy),
		TAP_TEST(func_attribute_unloaded),
		TAP_TEST(launch_unloaded),
		TAP_TEST(dtoh_ro_refused),
		TAP_TEST(dtoh_gone_refused),
		TAP_TEST(htod_gone_refused),
		TAP_TEST(dtoh_async_ro_refused),
		TAP_TEST(htod_async_gone_refused),
		TAP_TEST(memcpy_dtoh_ro_refused),
		TAP_TEST(dtoh2d_ro_refused),
		TAP_TEST(htod2d_gone_refused),
		TAP_TEST(dtoh2d_async_ro_refused),
		TAP_TEST(dtoh3d_ro_refused),
		TAP_TEST(htod3d_gone_refused),
		TAP_TEST(dtoh_ro_tail_refused),
		TAP_TEST(round_trips_fast),
		TAP_TEST(maps_checked),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
