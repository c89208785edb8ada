// SPDX-License-Identifier: MIT
/*
 * nvcc's fatbins through the driver API (the test data test_fatbin reads,
 * build/tests/data; run from the top of the tree): cuModuleLoadData takes
 * a fatbin and runs its PTX; cuModuleLoadFatBinary also takes the wrapper
 * nvcc's host code registers, which cuModuleLoadData refuses (200) as
 * NVIDIA's driver does; machine code alone is 209.
 */
#include <stdint.h>

#include "tap.h"

#define DATA "build/tests/data/"

static void *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = malloc(1 << 20);
	size_t n;

	if (!f || !buf) {
		TAP_FAIL("cannot read %s", path);
		if (f)
			fclose(f);
		free(buf);
		return NULL;
	}
	n = fread(buf, 1, 1 << 20, f);
	fclose(f);
	memset(buf + n, 0, (1 << 20) - n);
	return buf;
}

static void setup(void)
{
	CUcontext c;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
}

/* Runs vecAdd of @m over 1000 elements and checks the sums. */
static void run_vecadd(CUmodule m)
{
	enum { N = 1000 };
	static float a[N], b[N], c[N];
	CUdeviceptr da, db, dc;
	CUfunction f;
	int n = N, i, bad = 0;
	void *args[] = { &da, &db, &dc, &n };

	for (i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = (float)(2 * i);
	}
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "_Z6vecAddPKfS0_Pfi"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&da, sizeof(a)));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&db, sizeof(b)));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dc, sizeof(c)));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(da, a, sizeof(a)));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(db, b, sizeof(b)));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 4, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(c, dc, sizeof(c)));
	for (i = 0; i < N; i++)
		bad += c[i] != 3.0f * (float)i;
	CHECK(bad == 0);
}

static void load_data_takes_a_fatbin(void)
{
	void *fat = slurp(DATA "vecadd_default.fatbin");
	CUmodule m;

	setup();
	if (!fat)
		return;
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, fat));
	run_vecadd(m);
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
	free(fat);
}

static void load_fat_binary_takes_the_wrapper(void)
{
	void *fat = slurp(DATA "vecadd_lz4.fatbin");
	struct { uint32_t magic, version; const void *data, *extra; } w = {
		0x466243b1u, 1, fat, NULL,
	};
	CUmodule m;

	setup();
	if (!fat)
		return;
	CHECK_RES(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadData(&m, &w));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadFatBinary(&m, &w));
	run_vecadd(m);
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadFatBinary(&m, fat));
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
	free(fat);
}

static void machine_code_only(void)
{
	void *fat = slurp(DATA "vecadd_sm75_sass.fatbin");
	char log[256] = "";
	CUjit_option opts[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *vals[] = { log, (void *)(uintptr_t)sizeof(log) };
	CUmodule m;

	setup();
	if (!fat)
		return;
	CHECK_RES(CUDA_ERROR_NO_BINARY_FOR_GPU, cuModuleLoadDataEx(&m, fat, 2, opts, vals));
	CHECK(strstr(log, "rebuild with -gencode arch=compute_75,code=compute_75") != NULL);
	free(fat);
}

static const struct tap_test tests[] = {
	TAP_TEST(load_data_takes_a_fatbin),
	TAP_TEST(load_fat_binary_takes_the_wrapper),
	TAP_TEST(machine_code_only),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
