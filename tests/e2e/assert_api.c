// SPDX-License-Identifier: MIT
/*
 * A failed device assert through the driver API, against what an H100
 * did with the same kernel (tests/e2e/ref/h100_assert_k.cu, compiled by
 * nvcc at build time) and the same calls (tests/e2e/ref/h100_assert.log,
 * the "== drv" sections, from h100_assert_drv.c): a line on stderr per
 * failing thread, and CUDA_ERROR_ASSERT from the syncs and every later
 * call of the context.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_assert.log"

/* The lines of section @sect of the H100's log, without the section line. */
static void h100_section(const char *sect, char *out, size_t len)
{
	FILE *f = fopen(H100_LOG, "r");
	char line[512];
	bool in = false;

	out[0] = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "== ", 3)) {
			in = !strncmp(line + 3, sect, strlen(sect)) &&
			     line[3 + strlen(sect)] == '\n';
			continue;
		}
		if (in && strlen(out) + strlen(line) < len)
			strcat(out, line);
	}
	fclose(f);
}

/* @text with each line's file name (up to its first ':') removed. */
static void strip_files(const char *text, char *out, size_t len)
{
	size_t n = 0;

	while (*text && n + 1 < len) {
		const char *colon = strchr(text, ':'), *nl = strchr(text, '\n');

		if (colon && (!nl || colon < nl))
			text = colon;
		while (*text && *text != '\n' && n + 1 < len)
			out[n++] = *text++;
		if (*text == '\n' && n + 1 < len)
			out[n++] = *text++;
	}
	out[n] = 0;
}

/*
 * k(1) over 3 threads: threads 1 and 2 fail. What this prints on
 * stdout, in the probe's words, must be the H100's, and what it prints
 * on stderr the H100's, but for the file's name (nvcc's path here).
 */
static void failed_assert(void)
{
	char want[2048], got[2048], h100[2048], err[2048] = "", a[2048], b[2048];
	int fds[2], saved = dup(2), n = 1;
	void *args[] = { &n };
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;
	CUdeviceptr d = 0;
	const char *name = "";
	CUresult r;
	ssize_t len;
	size_t at = 0;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, 0));
	r = cuModuleLoad(&mod, PTX_FILE);
	at += snprintf(got + at, sizeof(got) - at, "load %d\n", r);
	r = cuModuleGetFunction(&f, mod, "k");
	at += snprintf(got + at, sizeof(got) - at, "getfunc %d\n", r);
	if (pipe(fds) || saved < 0) {
		TAP_FAIL("pipe or dup");
		return;
	}
	dup2(fds[1], 2);
	r = cuLaunchKernel(f, 1, 1, 1, 3, 1, 1, 0, 0, args, 0);
	at += snprintf(got + at, sizeof(got) - at, "launch %d\n", r);
	r = cuStreamSynchronize(0);
	at += snprintf(got + at, sizeof(got) - at, "stream sync %d\n", r);
	r = cuCtxSynchronize();
	cuGetErrorName(r, &name);
	at += snprintf(got + at, sizeof(got) - at, "ctx sync %d %s\n", r, name);
	r = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, args, 0);
	at += snprintf(got + at, sizeof(got) - at, "launch after %d\n", r);
	r = cuMemAlloc(&d, 16);
	snprintf(got + at, sizeof(got) - at, "alloc after %d\nexit 0\n", r);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	close(fds[1]);
	len = read(fds[0], err, sizeof(err) - 1);
	err[len > 0 ? len : 0] = 0;
	close(fds[0]);

	h100_section("drv.out", want, sizeof(want));
	CHECK(want[0] != 0);
	if (strcmp(got, want))
		TAP_FAIL("calls gave\n%s, the H100's\n%s", got, want);
	h100_section("drv.err", h100, sizeof(h100));
	strip_files(h100, a, sizeof(a));
	strip_files(err, b, sizeof(b));
	CHECK(a[0] != 0);
	if (strcmp(a, b))
		TAP_FAIL("stderr\n%s, the H100's\n%s", err, h100);
	/* nvcc names the file as it was given: the tree's path here. */
	CHECK(!strncmp(err, "tests/e2e/ref/h100_assert_k.cu:4: ", 34));
	cuCtxDestroy(ctx);
}

/* A launch whose threads all pass their assert: no error. */
static void passing_assert(void)
{
	int n = 64;
	void *args[] = { &n };
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoad(&mod, PTX_FILE));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, "k"));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, 0, args, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(ctx));
}

static const struct tap_test tests[] = {
	TAP_TEST(failed_assert),
	TAP_TEST(passing_assert),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
