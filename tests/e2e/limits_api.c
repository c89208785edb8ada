// SPDX-License-Identifier: MIT
/*
 * The context limits that act on kernels, against what an H100 did with
 * the same kernels (tests/e2e/ref/h100_printf_fifo.{c,log}, kernels in
 * h100_printf_fifo_k.cu): the stack size grows at a launch to what the
 * kernel's threads need; kernel printf goes to one FIFO per context, of
 * CU_LIMIT_PRINTF_FIFO_SIZE bytes, shared by its modules, fixed once a
 * kernel that prints is launched, and a ring when more is printed than
 * fits: whole records come out, the newest ones.
 */
#include <stdbool.h>
#include <stdint.h>
#include <unistd.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_printf_fifo.log"
#define PTX_FULL PTX_DIR "/h100_printf_fifo_k.ptx"
#define PTX_NOREC PTX_DIR "/h100_printf_fifo_k_norec.ptx"
#define PTX_TWO PTX_DIR "/h100_printf_fifo_k2.ptx"

enum { FIFO_MIN = 524288 };
/* vgpu's record of "r %d %d %d\n": 24 bytes of header, 12 of arguments. */
enum { REC3 = 40 };

static CUmodule mod, mod2;

static void setup(void)
{
	CUcontext c;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoad(&mod, PTX_NOREC));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoad(&mod2, PTX_TWO));
}

static CUfunction fn(CUmodule m, const char *name)
{
	CUfunction f = NULL;

	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, name));
	return f;
}

/* The log's text from line "## @name" up to the next section. */
static char *h100_section(const char *name)
{
	FILE *f = fopen(H100_LOG, "r");
	char line[512], *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	bool in = false;

	if (!f || !out) {
		TAP_FAIL("cannot read %s", H100_LOG);
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "## ", 3)) {
			if (in)
				break;
			in = !strncmp(line + 3, name, strlen(name)) &&
				line[3 + strlen(name)] == '\n';
			continue;
		}
		if (in)
			fputs(line, out);
	}
	fclose(f);
	fclose(out);
	return text;
}

/* The number after "@name = " (or "@name ") in the log. */
static long long h100(const char *name)
{
	FILE *f = fopen(H100_LOG, "r");
	size_t n = strlen(name);
	char line[512];
	long long v = -1;
	bool found = false;

	if (!f) {
		TAP_FAIL("cannot read %s", H100_LOG);
		exit(1);
	}
	while (!found && fgets(line, sizeof(line), f))
		if (!strncmp(line, name, n) &&
		    (!strncmp(line + n, " = ", 3) || line[n] == ' ')) {
			v = atoll(line + n + (line[n + 1] == '=' ? 3 : 1));
			found = true;
		}
	fclose(f);
	if (!found) {
		TAP_FAIL("no case \"%s\" in %s", name, H100_LOG);
		exit(1);
	}
	return v;
}

/* Kernel printf output, caught from this process's standard output. */
static FILE *cap_file;
static int saved_stdout = -1;

static void capture(void)
{
	fflush(stdout);
	cap_file = tmpfile();
	saved_stdout = dup(1);
	if (!cap_file || saved_stdout < 0) {
		TAP_FAIL("cannot catch standard output");
		exit(1);
	}
	dup2(fileno(cap_file), 1);
}

/* What was printed since capture(), NUL-terminated; the caller frees it. */
static char *captured(void)
{
	long len;
	char *text;

	fflush(stdout);
	dup2(saved_stdout, 1);
	close(saved_stdout);
	len = ftell(cap_file);
	text = calloc(1, (size_t)len + 1);
	rewind(cap_file);
	if (!text || fread(text, 1, (size_t)len, cap_file) != (size_t)len) {
		TAP_FAIL("cannot read what was printed");
		exit(1);
	}
	fclose(cap_file);
	return text;
}

/*
 * "r B T I" lines of a flood of @blocks x @threads x @n: how many, with
 * no line cut, malformed or printed twice (else -1); *@min_i, *@max_i:
 * the range of I.
 */
static int flood_lines(const char *text, int blocks, int threads, int n,
		       int *min_i, int *max_i)
{
	char *seen = calloc((size_t)blocks * threads * n, 1);
	const char *p = text, *nl;
	int lines = 0, b, t, i, bad = 0;

	*min_i = n;
	*max_i = -1;
	while ((nl = strchr(p, '\n'))) {
		if (sscanf(p, "r %d %d %d", &b, &t, &i) != 3 || b < 0 ||
		    b >= blocks || t < 0 || t >= threads || i < 0 || i >= n ||
		    seen[((size_t)b * threads + t) * n + i]++) {
			bad++;
		} else {
			*min_i = i < *min_i ? i : *min_i;
			*max_i = i > *max_i ? i : *max_i;
		}
		lines++;
		p = nl + 1;
	}
	free(seen);
	if (*p || bad) {
		TAP_FAIL("%d bad lines, tail '%.20s'", bad, p);
		return -1;
	}
	return lines;
}

static int count_lines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* --- the stack ---------------------------------------------------------- */

/*
 * The probe's "stack" section, replayed: the limit grows at each launch to
 * the kernel's local memory (not rounded), not at the synchronize; a limit
 * set below what a kernel needs does not fail its launch but grows again;
 * a launch that needs less leaves it. The report must match the H100's.
 */
static void stack_grows_to_what_a_launch_needs(void)
{
	static const char *k[] = { "local300", "local2048", "local5000",
				   "local70000" };
	char *text = NULL, *want = h100_section("stack");
	size_t len = 0;
	FILE *rep = open_memstream(&text, &len);
	CUdeviceptr d;
	int idx = 3, i;
	void *a[] = { &d, &idx };
	CUstream s;
	size_t v;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD8(d, 0, 4096));
	cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
	fprintf(rep, "stack at start = %zu\n", v);
	for (i = 0; i < 4; i++) {
		CUfunction f = fn(mod, k[i]);
		int local = -1, out = -1;

		cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f);
		cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
		fprintf(rep, "%s local = %d, stack before launch = %zu\n", k[i],
			local, v);
		fprintf(rep, "  launch = %d\n", cuLaunchKernel(f, 1, 1, 1, 32, 1, 1,
							  0, NULL, a, NULL));
		cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
		fprintf(rep, "  stack after launch = %zu\n", v);
		fprintf(rep, "  sync = %d\n", cuCtxSynchronize());
		cuMemcpyDtoH(&out, d + 4, 4);
		fprintf(rep, "  out = %d\n", out);
		cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
		fprintf(rep, "  stack after sync = %zu\n", v);
	}
	fprintf(rep, "set stack 16 after growth = %d\n",
		cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 16));
	cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
	fprintf(rep, "stack = %zu\n", v);
	fprintf(rep, "launch local2048 with stack 16 = %d\n",
		cuLaunchKernel(fn(mod, "local2048"), 1, 1, 1, 32, 1, 1, 0, NULL,
			       a, NULL));
	cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
	fprintf(rep, "stack after = %zu\n", v);
	fprintf(rep, "sync = %d\n", cuCtxSynchronize());
	cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 8192);
	fprintf(rep, "launch local300 with stack 8192 = %d\n",
		cuLaunchKernel(fn(mod, "local300"), 1, 1, 1, 32, 1, 1, 0, NULL,
			       a, NULL));
	cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
	fprintf(rep, "stack after = %zu\n", v);
	fprintf(rep, "sync = %d\n", cuCtxSynchronize());
	cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 0);
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	fprintf(rep, "launch local5000 on stream, stack 0 = %d\n",
		cuLaunchKernel(fn(mod, "local5000"), 1, 1, 1, 32, 1, 1, 0, s, a,
			       NULL));
	cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
	fprintf(rep, "stack after = %zu\n", v);
	fprintf(rep, "sync = %d\n", cuCtxSynchronize());
	fclose(rep);
	if (strcmp(text, want))
		TAP_FAIL("vgpu:\n%s\nH100:\n%s", text, want);
	free(text);
	free(want);
}

/*
 * The H100 runs a recursive device function (and fails with 700 past its
 * stack); vgpu's JIT inlines calls and refuses recursion when the module
 * is loaded, with the line.
 */
static void recursion_is_refused_at_load(void)
{
	char log[1024] = "";
	CUjit_option opt[] = { CU_JIT_ERROR_LOG_BUFFER,
			       CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *val[] = { log, (void *)(uintptr_t)sizeof(log) };
	FILE *f = fopen(PTX_FULL, "r");
	static char ptx[1 << 20];
	size_t n;
	CUcontext c;
	CUmodule m;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	if (!f) {
		TAP_FAIL("cannot read %s", PTX_FULL);
		return;
	}
	n = fread(ptx, 1, sizeof(ptx) - 1, f);
	fclose(f);
	ptx[n] = 0;
	CHECK_RES(CUDA_ERROR_INVALID_PTX,
		  cuModuleLoadDataEx(&m, ptx, 2, opt, val));
	CHECK(strstr(log, "recursive call to '_Z3reciPi' is not supported"));
	/* It names the line of the call. */
	CHECK(strchr(log, ':') && atoi(log) > 0);
}

/* --- the printf FIFO ------------------------------------------------------ */

/*
 * The FIFO's size is fixed by a launch of a kernel that prints, even to
 * its own value, and not by another kernel of the same module; the stack
 * is not fixed by it.
 */
static void fifo_fixed_by_a_printing_kernel_only(void)
{
	int tag = 1;
	void *a[] = { &tag };
	CUdeviceptr d;
	void *pa[] = { &d };

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(fn(mod, "plain"), 1, 1, 1, 1, 1, 1,
					       0, NULL, pa, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(h100("set fifo after plain kernel of printing module"),
		  cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 1 << 20));
	CHECK_RES(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 0));
	capture();
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(fn(mod2, "say2"), 1, 1, 1, 1, 1, 1,
					       0, NULL, a, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	free(captured());
	CHECK_RES(h100("set fifo after printing"),
		  cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 1 << 20));
	CHECK_RES(h100("set fifo same after printing"),
		  cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, FIFO_MIN));
	CHECK_RES(h100("set stack after printing"),
		  cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 2048));
}

/* Launches flood over @blocks x @threads x @n, synchronizes, and returns
 * what it printed. */
static char *flood(int blocks, int threads, int n, CUdeviceptr rets)
{
	void *a[] = { &n, &rets };

	capture();
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(fn(mod, "flood"), blocks, 1, 1,
					       threads, 1, 1, 0, NULL, a, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	return captured();
}

/*
 * The probe's flood: 65536 records into the smallest FIFO. As on the
 * H100, whole lines come out, none twice, far fewer than were printed,
 * each vprintf returned 3 (its format's arguments), and the next kernel
 * prints normally. vgpu keeps the newest records that fit: 524288 / 40 of
 * them.
 */
static void overflow_keeps_whole_records(void)
{
	enum { B = 64, T = 256, N = 4 };
	int *h = malloc(sizeof(int) * B * T * N), k, wrong = 0, want, lo, hi;
	int tag = 7;
	void *a[] = { &tag };
	CUdeviceptr rets;
	size_t v;
	char *text;

	setup();
	CHECK_RES(h100("set fifo 0"), cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
	CHECK((long long)v == h100("fifo"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&rets, sizeof(int) * B * T * N));
	text = flood(B, T, N, rets);
	CHECK(flood_lines(text, B, T, N, &lo, &hi) == FIFO_MIN / REC3);
	free(text);
	REQUIRE_RES(CUDA_SUCCESS, cuMemcpyDtoH(h, rets, sizeof(int) * B * T * N));
	/* Each vprintf returned its argument count, kept or not. */
	want = (int)h100("flood ret[0]");
	for (k = 0; k < B * T * N; k++)
		wrong += h[k] != want;
	CHECK(want == 3 && wrong == 0 && h100("flood returns: negative") == 0);
	/* Nothing more at the next synchronize. */
	capture();
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	text = captured();
	CHECK(!text[0]);
	free(text);
	capture();
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(fn(mod, "say"), 1, 1, 1, 1, 1, 1,
					       0, NULL, a, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	text = captured();
	CHECK(!strcmp(text, "say 7\n"));
	free(text);
	free(h);
}

/* One thread prints 20000 lines into the smallest FIFO: the last ones. */
static void ring_keeps_the_newest(void)
{
	enum { N = 20000 };
	CUdeviceptr rets;
	int lo, hi;
	char *text;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&rets, sizeof(int) * N));
	text = flood(1, 1, N, rets);
	CHECK(flood_lines(text, 1, 1, N, &lo, &hi) == FIFO_MIN / REC3);
	CHECK(hi == N - 1 && lo == N - FIFO_MIN / REC3);
	/* In the order they were printed. */
	CHECK(!strncmp(text, "r 0 0 6893\nr 0 0 6894\n", 22));
	free(text);
}

/* The FIFO holds what the limit says: the default, then 1 MiB. */
static void fifo_size_is_the_limit(void)
{
	enum { B = 64, T = 256, N = 4 };
	CUdeviceptr rets;
	int lo, hi;
	CUcontext c;
	char *text;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&rets, sizeof(int) * B * T * N));
	/* 8.25 MiB hold all 65536 records. */
	text = flood(B, T, N, rets);
	CHECK(flood_lines(text, B, T, N, &lo, &hi) == B * T * N);
	free(text);
	REQUIRE_RES(CUDA_SUCCESS, cuCtxGetCurrent(&c));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&rets, sizeof(int) * B * T * N));
	CHECK_RES(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 1 << 20));
	text = flood(B, T, N, rets);
	CHECK(flood_lines(text, B, T, N, &lo, &hi) == (1 << 20) / REC3);
	free(text);
}

/*
 * Two modules print to one FIFO: their lines come out in launch order,
 * and what one prints pushes out the other's oldest records.
 */
static void modules_share_the_fifo(void)
{
	enum { B = 64, T = 256, N = 4 };
	CUfunction say, say2;
	CUdeviceptr rets;
	int tag, n = N;
	void *a[] = { &tag }, *fa[] = { &n, &rets };
	char *text;

	setup();
	say = fn(mod, "say");
	say2 = fn(mod2, "say2");
	CHECK_RES(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&rets, sizeof(int) * B * T * N));
	capture();
	for (tag = 1; tag <= 4; tag++)
		CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(tag & 1 ? say : say2, 1, 1, 1,
						       1, 1, 1, 0, NULL, a, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	text = captured();
	CHECK(!strcmp(text, "say 1\ntwo 2\nsay 3\ntwo 4\n"));
	free(text);
	capture();
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(fn(mod, "flood"), B, 1, 1, T, 1, 1,
					       0, NULL, fa, NULL));
	tag = 5;
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(say2, 1, 1, 1, 1, 1, 1, 0, NULL, a,
					       NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	text = captured();
	/* The newest 524288 bytes: B's 32-byte record and 13106 of A's. */
	CHECK(count_lines(text) == FIFO_MIN / REC3);
	CHECK(strlen(text) > 6 && !strcmp(text + strlen(text) - 6, "two 5\n"));
	free(text);
}

/*
 * Output comes out at the synchronizing calls CUDA documents: context,
 * stream and event synchronization, a blocking copy, and unloading the
 * module.
 */
static void output_at_synchronizing_calls(void)
{
	static const char *names[] = {
		"cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize",
		"cuMemcpyDtoH", "cuModuleUnload",
	};
	CUfunction say;
	CUstream s;
	CUevent e;
	CUdeviceptr d;
	int tag, h, i;
	void *a[] = { &tag };
	char *text, want[32];

	setup();
	say = fn(mod2, "say2");
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&e, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	for (i = 0; i < 5; i++) {
		tag = 100 + i;
		capture();
		CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(say, 1, 1, 1, 1, 1, 1, 0, s, a,
						       NULL));
		CHECK_RES(CUDA_SUCCESS, cuEventRecord(e, s));
		switch (i) {
		case 0: CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize()); break;
		case 1: CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s)); break;
		case 2: CHECK_RES(CUDA_SUCCESS, cuEventSynchronize(e)); break;
		case 3: CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&h, d, 4)); break;
		case 4: CHECK_RES(CUDA_SUCCESS, cuModuleUnload(mod2)); break;
		}
		text = captured();
		snprintf(want, sizeof(want), "two %d\n", tag);
		if (strcmp(text, want))
			TAP_FAIL("after %s: '%s'", names[i], text);
		free(text);
	}
}

static const struct tap_test tests[] = {
	TAP_TEST(stack_grows_to_what_a_launch_needs),
	TAP_TEST(recursion_is_refused_at_load),
	TAP_TEST(fifo_fixed_by_a_printing_kernel_only),
	TAP_TEST(overflow_keeps_whole_records),
	TAP_TEST(ring_keeps_the_newest),
	TAP_TEST(fifo_size_is_the_limit),
	TAP_TEST(modules_share_the_fifo),
	TAP_TEST(output_at_synchronizing_calls),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
