// SPDX-License-Identifier: MIT
/*
 * Robustness against a program's bad handles and pointers, as NVIDIA's
 * driver answers them (tests/e2e/ref/h100_robust.log, from h100_robust.c
 * there). An unloaded module's handle is dead: unloading it again, or
 * asking it for a function or a global, answers CUDA_ERROR_INVALID_HANDLE
 * and never reaches a module loaded since.
 */
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

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(unload_twice),
		TAP_TEST(get_function_unloaded),
		TAP_TEST(get_global_unloaded),
		TAP_TEST(unload_twice_newer),
		TAP_TEST(unload_after_ctx_destroy),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
