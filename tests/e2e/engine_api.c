// SPDX-License-Identifier: MIT
/*
 * Which engine runs a launch (VGPU_ENGINE): with native, launches run on
 * user-mode SMs (threads of this process, each holding an SM file of the
 * module's, "anon_inode:[vgpu-usm]") from the first; with auto, on the
 * interpreter until the kernel's native code is ready, then on the SMs;
 * with interp never on them. Results, host memory, module unloads and
 * context teardown with SMs running are the same on every engine. The
 * engine is chosen once a process, so each case runs in a child of its
 * own. (Every other test of the suite runs on both engines too: the
 * suite runs them again under VGPU_ENGINE=native.)
 */
#include <dirent.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"
#include "usm_files.h"

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

/* Two kernels, so that the first is followed by another's code. */
static const char engine_ptx[] = HEAD
	".visible .entry scale(.param .u64 p, .param .u32 n, .param .f32 k)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<5>;\n\t.reg .f32 %f<3>;\n"
	"\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [n];\n"
	"\tld.param.f32 %f1, [k];\n"
	"\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
	"\tmov.u32 %r4, %tid.x;\n\tmad.lo.s32 %r2, %r2, %r3, %r4;\n"
	"\tsetp.ge.u32 %p1, %r2, %r1;\n\t@%p1 bra $L__end;\n"
	"\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tld.global.f32 %f2, [%rd3];\n\tmul.f32 %f2, %f2, %f1;\n"
	"\tst.global.f32 [%rd3], %f2;\n"
	"$L__end:\n\tret;\n}\n"
	".visible .entry fill(.param .u64 p, .param .u32 v)\n{\n"
	"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
	"\tmov.u32 %r2, %tid.x;\n"
	"\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tst.u32 [%rd3], %r1;\n\tret;\n}\n"
	".visible .entry grid(.param .u64 p)\n{\n"
	"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %nctaid.x;\n"
	"\tmov.u32 %r2, %ctaid.x;\n"
	"\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tst.u32 [%rd3], %r1;\n\tret;\n}\n"
	".visible .entry mark(.param .u64 p, .param .u32 k)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [k];\n"
	"\tmov.u32 %r2, %ctaid.x;\n"
	"\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tsetp.eq.u32 %p1, %r2, %r1;\n\t@%p1 mov.u64 %rd3, 16;\n"
	"\tst.u32 [%rd3], %r2;\n\tret;\n}\n";

#define N 10000
#define BLOCK 128

/* Checks in a child: a message on stdout and a nonzero exit status. */
#define EXPECT(cond) do { \
	if (!(cond)) { \
		printf("# %s:%d: %s\n", __FILE__, __LINE__, #cond); \
		fflush(stdout); \
		_exit(1); \
	} \
} while (0)
#define EXPECT_RES(want, call) do { \
	CUresult r_ = (call); \
	if (r_ != (want)) { \
		printf("# %s:%d: %s: %d, expected %d\n", __FILE__, __LINE__, #call, \
		       (int)r_, (int)(want)); \
		fflush(stdout); \
		_exit(1); \
	} \
} while (0)

struct run {
	CUcontext ctx;
	CUmodule mod;
	CUfunction scale, fill;
	CUdeviceptr d;
	float host[N];
};

static void run_open(struct run *r)
{
	EXPECT_RES(CUDA_SUCCESS, cuInit(0));
	EXPECT_RES(CUDA_SUCCESS, cuCtxCreate(&r->ctx, NULL, 0, 0));
	EXPECT_RES(CUDA_SUCCESS, cuModuleLoadData(&r->mod, engine_ptx));
	EXPECT_RES(CUDA_SUCCESS, cuModuleGetFunction(&r->scale, r->mod, "scale"));
	EXPECT_RES(CUDA_SUCCESS, cuModuleGetFunction(&r->fill, r->mod, "fill"));
	EXPECT_RES(CUDA_SUCCESS, cuMemAlloc(&r->d, sizeof(r->host)));
}

/* Scales the buffer by @k once, on whatever engine; checks the result. */
static void scale_once(struct run *r, float k)
{
	unsigned int n = N, i;
	void *args[] = { &r->d, &n, &k };

	for (i = 0; i < N; i++)
		r->host[i] = (float)i;
	EXPECT_RES(CUDA_SUCCESS, cuMemcpyHtoD(r->d, r->host, sizeof(r->host)));
	EXPECT_RES(CUDA_SUCCESS, cuLaunchKernel(r->scale, (N + BLOCK - 1) / BLOCK, 1, 1,
						BLOCK, 1, 1, 0, NULL, args, NULL));
	EXPECT_RES(CUDA_SUCCESS, cuMemcpyDtoH(r->host, r->d, sizeof(r->host)));
	for (i = 0; i < N; i++)
		EXPECT(r->host[i] == (float)i * k);
}

/* Runs @body in a child whose VGPU_ENGINE is @engine; true when it passed. */
static bool in_child(const char *engine, void (*body)(void))
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return false;
	if (pid == 0) {
		setenv("VGPU_ENGINE", engine, 1);
		body();
		fflush(stdout);
		_exit(0);
	}
	return waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	       WEXITSTATUS(status) == 0;
}

/* native: the first launch runs on the SMs, which are there from then on. */
static void native_body(void)
{
	struct run r;

	run_open(&r);
	EXPECT(usm_files() == 0);
	scale_once(&r, 2.0f);
	EXPECT(usm_files() > 0);
	scale_once(&r, 3.0f);
	EXPECT_RES(CUDA_SUCCESS, cuCtxDestroy(r.ctx));
	/* The context's closing stopped its SMs and closed their files. */
	EXPECT(usm_files() == 0);
}

static void native_launches(void)
{
	CHECK(in_child("native", native_body));
}

/* interp: the module's SMs run everything; no SM is attached. */
static void interp_body(void)
{
	struct run r;

	run_open(&r);
	scale_once(&r, 2.0f);
	scale_once(&r, 0.5f);
	EXPECT(usm_files() == 0);
}

static void interp_launches(void)
{
	CHECK(in_child("interp", interp_body));
}

/*
 * auto: launches go on while LLVM compiles in the background (on the
 * interpreter); once the code is ready, launches reach the SMs.
 */
static void auto_body(void)
{
	struct timespec t0, t;
	struct run r;
	int i;

	run_open(&r);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; usm_files() == 0; i++) {
		scale_once(&r, i & 1 ? 2.0f : 0.25f);
		clock_gettime(CLOCK_MONOTONIC, &t);
		/* LLVM under emulation takes seconds, not minutes. */
		EXPECT(t.tv_sec - t0.tv_sec < 300);
	}
	printf("# %d launches before the native code was ready\n", i);
	scale_once(&r, 4.0f);
}

static void auto_tiers(void)
{
	CHECK(in_child("auto", auto_body));
}

/*
 * Mapped host memory is reached at its own address, and a module
 * unloaded and loaded again runs on (its handle may be reused).
 */
static void host_and_reload_body(void)
{
	unsigned int *h, v = 7, i;
	CUdeviceptr dh;
	struct run r;
	void *args[] = { &dh, &v };

	run_open(&r);
	EXPECT_RES(CUDA_SUCCESS, cuMemHostAlloc((void **)&h, BLOCK * 4,
						CU_MEMHOSTALLOC_DEVICEMAP));
	EXPECT_RES(CUDA_SUCCESS, cuMemHostGetDevicePointer(&dh, h, 0));
	EXPECT_RES(CUDA_SUCCESS, cuLaunchKernel(r.fill, 1, 1, 1, BLOCK, 1, 1, 0, NULL,
						args, NULL));
	EXPECT_RES(CUDA_SUCCESS, cuCtxSynchronize());
	for (i = 0; i < BLOCK; i++)
		EXPECT(h[i] == 7);
	EXPECT(usm_files() > 0);
	for (i = 0; i < 3; i++) {
		EXPECT_RES(CUDA_SUCCESS, cuModuleUnload(r.mod));
		EXPECT_RES(CUDA_SUCCESS, cuModuleLoadData(&r.mod, engine_ptx));
		EXPECT_RES(CUDA_SUCCESS, cuModuleGetFunction(&r.scale, r.mod, "scale"));
		scale_once(&r, (float)(i + 2));
	}
	EXPECT_RES(CUDA_SUCCESS, cuMemFreeHost(h));
}

static void host_memory_and_reload(void)
{
	CHECK(in_child("native", host_and_reload_body));
}

/*
 * A fault on an SM is the interpreter's: the error at the next sync and
 * ever after; the context goes with its SMs.
 */
static void fault_body(void)
{
	struct run r;
	unsigned int v = 1;
	CUdeviceptr bad = 16;
	void *args[] = { &bad, &v };

	run_open(&r);
	scale_once(&r, 2.0f);
	EXPECT(usm_files() > 0);
	EXPECT_RES(CUDA_SUCCESS, cuLaunchKernel(r.fill, 1, 1, 1, 32, 1, 1, 0, NULL,
						args, NULL));
	EXPECT_RES(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	EXPECT_RES(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	EXPECT_RES(CUDA_SUCCESS, cuCtxDestroy(r.ctx));
	EXPECT(usm_files() == 0);
}

static void native_fault(void)
{
	CHECK(in_child("native", fault_body));
}

/*
 * An SM remembers the memory its blocks reached from launch to launch,
 * but not past a change of the context's mappings: a launch after a
 * free faults where the freed memory was, even at an address a later,
 * smaller allocation starts at. One SM, so that it is the one that
 * remembers.
 */
static void stale_body(void)
{
	CUdeviceptr big, small, at;
	unsigned int v = 7, got[32], i;
	void *args[] = { &at, &v };
	struct run r;

	EXPECT(!setenv("VGPU_USM_THREADS", "1", 1));
	run_open(&r);
	EXPECT_RES(CUDA_SUCCESS, cuMemAlloc(&big, 1 << 20));
	at = big + (512 << 10);
	for (i = 0; i < 3; i++) {
		EXPECT_RES(CUDA_SUCCESS, cuLaunchKernel(r.fill, 1, 1, 1, 32, 1, 1, 0,
							NULL, args, NULL));
		EXPECT_RES(CUDA_SUCCESS, cuMemcpyDtoH(got, at, sizeof(got)));
		EXPECT(got[31] == v);
		v++;
	}
	EXPECT(usm_files() == 1);
	EXPECT_RES(CUDA_SUCCESS, cuMemFree(big));
	EXPECT_RES(CUDA_SUCCESS, cuMemAlloc(&small, 4096));
	EXPECT_RES(CUDA_SUCCESS, cuLaunchKernel(r.fill, 1, 1, 1, 32, 1, 1, 0, NULL,
						args, NULL));
	EXPECT_RES(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	EXPECT_RES(CUDA_SUCCESS, cuCtxDestroy(r.ctx));
}

static void native_forgets_freed_memory(void)
{
	CHECK(in_child("native", stale_body));
}

/*
 * Back-to-back launches of one kernel, blocks of one shape, grids and
 * parameters of their own, on one SM: each block sees its own launch's
 * grid and parameters, as the SM carries its state from one launch to
 * the next.
 */
static void chain_body(void)
{
	static const unsigned int grids[] = { 3, 7, 1, 5, 2 };
	unsigned int got[8], i, j;
	CUdeviceptr d[5];
	CUfunction f;
	struct run r;

	EXPECT(!setenv("VGPU_USM_THREADS", "1", 1));
	run_open(&r);
	EXPECT_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, r.mod, "grid"));
	/* The memory first: a new allocation would end what the SM carries. */
	for (i = 0; i < 5; i++) {
		EXPECT_RES(CUDA_SUCCESS, cuMemAlloc(&d[i], sizeof(got)));
		EXPECT_RES(CUDA_SUCCESS, cuMemsetD32(d[i], 0, 8));
	}
	for (i = 0; i < 5; i++) {
		void *args[] = { &d[i] };

		EXPECT_RES(CUDA_SUCCESS, cuLaunchKernel(f, grids[i], 1, 1, 32, 1, 1, 0,
							NULL, args, NULL));
	}
	for (i = 0; i < 5; i++) {
		EXPECT_RES(CUDA_SUCCESS, cuMemcpyDtoH(got, d[i], sizeof(got)));
		for (j = 0; j < 8; j++)
			EXPECT(got[j] == (j < grids[i] ? grids[i] : 0));
	}
	EXPECT(usm_files() == 1);
	EXPECT_RES(CUDA_SUCCESS, cuCtxDestroy(r.ctx));
}

static void native_chained_launches(void)
{
	CHECK(in_child("native", chain_body));
}

/*
 * native: a first launch waits for its kernel's compile, but other
 * threads' calls on the context do not (the compile runs outside the
 * library's and the context's locks): they go on while the launch is
 * inside LLVM.
 */
struct busy_launch {
	struct run *r;
	int inside;	/* 1 while cuLaunchKernel runs, then 2; atomic */
	double took;	/* its seconds */
	CUresult res;
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *launch_thread(void *arg)
{
	struct busy_launch *b = arg;
	unsigned int n = N;
	float k = 2.0f;
	void *args[] = { &b->r->d, &n, &k };
	double t;

	EXPECT_RES(CUDA_SUCCESS, cuCtxSetCurrent(b->r->ctx));
	t = now_s();
	__atomic_store_n(&b->inside, 1, __ATOMIC_SEQ_CST);
	b->res = cuLaunchKernel(b->r->scale, (N + BLOCK - 1) / BLOCK, 1, 1, BLOCK, 1, 1,
				0, NULL, args, NULL);
	b->took = now_s() - t;
	__atomic_store_n(&b->inside, 2, __ATOMIC_SEQ_CST);
	return NULL;
}

static void compile_unlocked_body(void)
{
	struct busy_launch b = { 0 };
	double last, gap = 0, t;
	struct run r;
	pthread_t th;
	CUstream s;

	/* A compile, not a read of the cache a run before left. */
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	run_open(&r);
	b.r = &r;
	/* A query of a stream of the context takes the context's lock. */
	EXPECT_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	EXPECT(pthread_create(&th, NULL, launch_thread, &b) == 0);
	while (__atomic_load_n(&b.inside, __ATOMIC_SEQ_CST) == 0)
		;
	last = now_s();
	while (__atomic_load_n(&b.inside, __ATOMIC_SEQ_CST) == 1) {
		EXPECT_RES(CUDA_SUCCESS, cuStreamQuery(s));
		t = now_s();
		gap = t - last > gap ? t - last : gap;
		last = t;
	}
	EXPECT(pthread_join(th, NULL) == 0);
	EXPECT_RES(CUDA_SUCCESS, b.res);
	EXPECT_RES(CUDA_SUCCESS, cuCtxSynchronize());
	EXPECT_RES(CUDA_SUCCESS, cuStreamDestroy(s));
	EXPECT(usm_files() > 0);
	printf("# the first launch took %.3f s; the longest wait of a query %.3f s\n",
	       b.took, gap);
	/* Loading LLVM and compiling are most of the launch; no call waited. */
	EXPECT(gap < b.took / 2);
	scale_once(&r, 3.0f);
}

static void compile_unlocked(void)
{
	CHECK(in_child("native", compile_unlocked_body));
}

/*
 * The native engine's compiled code is kept in the cache directory
 * (entries of magic "VGNATOBJ", beside the PTX cache's): written by a
 * process that compiled the kernel, and read by the next, which renews
 * the entry's time as a hit does.
 */
static char cache_dir[] = "/tmp/vgpu_engine_cache_XXXXXX";

/* The native engine's entries in cache_dir; the time of the newest. */
static int native_entries(time_t *newest)
{
	DIR *d = opendir(cache_dir);
	struct dirent *e;
	char path[400], magic[8];
	struct stat st;
	int n = 0;

	*newest = 0;
	while (d && (e = readdir(d))) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/%s", cache_dir, e->d_name);
		f = fopen(path, "rb");
		if (!f)
			continue;
		if (fread(magic, 1, 8, f) == 8 && !memcmp(magic, "VGNATOBJ", 8) &&
		    !stat(path, &st)) {
			n++;
			if (st.st_mtime > *newest)
				*newest = st.st_mtime;
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return n;
}

/* Back-dates every entry of cache_dir by an hour. */
static void age_entries(void)
{
	DIR *d = opendir(cache_dir);
	struct timespec old[2] = { { time(NULL) - 3600, 0 }, { time(NULL) - 3600, 0 } };
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.')
			utimensat(dirfd(d), e->d_name, old, 0);
	if (d)
		closedir(d);
}

static void cached_body(void)
{
	struct run r;

	setenv("CUDA_CACHE_PATH", cache_dir, 1);
	unsetenv("CUDA_CACHE_DISABLE");
	run_open(&r);
	scale_once(&r, 2.0f);
	EXPECT(usm_files() > 0);
	EXPECT_RES(CUDA_SUCCESS, cuCtxDestroy(r.ctx));
}

static void native_code_cached(void)
{
	time_t newest;
	struct dirent *e;
	char path[400];
	int n;
	DIR *d;

	if (!mkdtemp(cache_dir)) {
		TAP_FAIL("mkdtemp failed");
		return;
	}
	CHECK(in_child("native", cached_body));
	n = native_entries(&newest);
	CHECK(n > 0);
	age_entries();
	CHECK(in_child("native", cached_body));
	/* No new entry: those there served, and their hits renewed them. */
	CHECK(native_entries(&newest) == n);
	CHECK(newest > time(NULL) - 600);
	d = opendir(cache_dir);
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", cache_dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	CHECK(!rmdir(cache_dir));
}

/*
 * A loop-free kernel's blocks go to an SM in runs (VGPU_LAUNCH_USM_RUNS):
 * every block of every run runs, with its own index, and a fault in the
 * middle of a run is reported at its own block. "mark" writes each
 * block's index at its place, but block @k writes to address 16. One SM,
 * so that it takes long runs; the report comes on stderr
 * (VGPU_ERROR_REPORT), here a file.
 */
#define MARK_BLOCKS 1000
#define MARK_FAULT 437

static void runs_body(void)
{
	static unsigned int got[MARK_BLOCKS];
	char report[512] = "", want[64];
	FILE *f = tmpfile();
	unsigned int k = ~0U, i;
	CUdeviceptr d;
	CUfunction fn;
	void *args[] = { &d, &k };
	struct run r;

	EXPECT(f);
	EXPECT(dup2(fileno(f), 2) == 2);
	EXPECT(!setenv("VGPU_USM_THREADS", "1", 1));
	EXPECT(!setenv("VGPU_ERROR_REPORT", "1", 1));
	run_open(&r);
	EXPECT_RES(CUDA_SUCCESS, cuModuleGetFunction(&fn, r.mod, "mark"));
	EXPECT_RES(CUDA_SUCCESS, cuMemAlloc(&d, sizeof(got)));
	EXPECT_RES(CUDA_SUCCESS, cuMemsetD32(d, 0xffffffff, MARK_BLOCKS));
	EXPECT_RES(CUDA_SUCCESS, cuLaunchKernel(fn, MARK_BLOCKS, 1, 1, 32, 1, 1, 0, NULL,
						args, NULL));
	EXPECT_RES(CUDA_SUCCESS, cuMemcpyDtoH(got, d, sizeof(got)));
	for (i = 0; i < MARK_BLOCKS; i++)
		EXPECT(got[i] == i);
	EXPECT(usm_files() == 1);
	k = MARK_FAULT;
	EXPECT_RES(CUDA_SUCCESS, cuLaunchKernel(fn, MARK_BLOCKS, 1, 1, 32, 1, 1, 0, NULL,
						args, NULL));
	EXPECT_RES(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	fflush(stderr);
	rewind(f);
	EXPECT(fread(report, 1, sizeof(report) - 1, f) > 0);
	snprintf(want, sizeof(want), "block (%u,0,0) thread (0,0,0)", MARK_FAULT);
	if (!strstr(report, want))
		printf("# report: %s", report);
	EXPECT(strstr(report, want));
	EXPECT(strstr(report, "at 0x10,"));
	EXPECT_RES(CUDA_SUCCESS, cuCtxDestroy(r.ctx));
}

static void native_runs_of_blocks(void)
{
	CHECK(in_child("native", runs_body));
}

static const struct tap_test tests[] = {
	TAP_TEST(native_launches),
	TAP_TEST(interp_launches),
	TAP_TEST(auto_tiers),
	TAP_TEST(host_memory_and_reload),
	TAP_TEST(native_fault),
	TAP_TEST(native_forgets_freed_memory),
	TAP_TEST(native_chained_launches),
	TAP_TEST(native_runs_of_blocks),
	TAP_TEST(compile_unlocked),
	TAP_TEST(native_code_cached),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
