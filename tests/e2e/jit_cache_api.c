// SPDX-License-Identifier: MIT
/*
 * The on-disk JIT cache as cuModuleLoadData uses it, in the VM: a load
 * leaves one entry in $CUDA_CACHE_PATH, a second load is served from it,
 * a damaged entry is compiled and written again, and CUDA_CACHE_DISABLE=1
 * writes nothing.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tap.h"

#define HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

static const char ptx[] = HEAD
	".visible .entry seven(.param .u64 out)\n{\n"
	"\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [out];\n\tmov.u32 %r1, 7;\n"
	"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";

static char dir[] = "/tmp/vgpu-e2e-cache-XXXXXX";

static void setup(void)
{
	CUcontext c;

	if (!mkdtemp(dir)) {
		TAP_FAIL("mkdtemp");
		exit(1);
	}
	setenv("CUDA_CACHE_PATH", dir, 1);
	unsetenv("CUDA_CACHE_DISABLE");
	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
}

/*
 * The cache's entries of compiled PTX (magic "VGPUJITC"); the first one's
 * path in @path. The native engine keeps its code in the same directory
 * (when the suite runs under VGPU_ENGINE=native): those do not count.
 */
static int entries(char *path, size_t size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[160], magic[8];
	int n = 0;

	while (d && (e = readdir(d))) {
		FILE *f;
		bool ptx;

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%.64s", dir, e->d_name);
		f = fopen(p, "rb");
		ptx = f && fread(magic, 1, 8, f) == 8 && !memcmp(magic, "VGPUJITC", 8);
		if (f)
			fclose(f);
		if (ptx && n++ == 0)
			snprintf(path, size, "%s", p);
	}
	if (d)
		closedir(d);
	return n;
}

/* Loads the module, runs it, unloads it. */
static void load_and_run(void)
{
	CUdeviceptr d;
	uint32_t out = 0;
	void *args[] = { &d };
	CUmodule m;
	CUfunction f;

	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "seven"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 4));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&out, d, 4));
	CHECK(out == 7);
	CHECK_RES(CUDA_SUCCESS, cuMemFree(d));
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
}

static void loads_fill_and_use_the_cache(void)
{
	struct stat before, after;
	char path[160], cmd[64];
	FILE *f;
	int c;

	setup();
	load_and_run();
	REQUIRE_RES(1, entries(path, sizeof(path)));
	REQUIRE_RES(0, stat(path, &before));
	/* A hit rewrites nothing. */
	load_and_run();
	CHECK(stat(path, &after) == 0 && after.st_ino == before.st_ino);
	/* A damaged entry: the load compiles and replaces it. */
	f = fopen(path, "r+b");
	REQUIRE_RES(0, !f);
	fseek(f, before.st_size - 1, SEEK_SET);
	c = fgetc(f);
	fseek(f, before.st_size - 1, SEEK_SET);
	fputc(c ^ 0xff, f);
	fclose(f);
	load_and_run();
	CHECK(entries(path, sizeof(path)) == 1);
	CHECK(stat(path, &after) == 0 && after.st_ino != before.st_ino &&
	      after.st_size == before.st_size);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

static void disabled_cache_writes_nothing(void)
{
	char path[160];

	setup();
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	load_and_run();
	CHECK(entries(path, sizeof(path)) == 0);
	/* Nor anything else: the native engine's code stays out too. */
	CHECK(rmdir(dir) == 0);
}

static const struct tap_test tests[] = {
	TAP_TEST(loads_fill_and_use_the_cache),
	TAP_TEST(disabled_cache_writes_nothing),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
