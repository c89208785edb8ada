// SPDX-License-Identifier: MIT
/*
 * Launches whose threads ask for more local memory than the device takes,
 * as an H100 answers them (tests/e2e/ref/h100_local_limits.log, from
 * h100_local_limits.c there): past 511 KiB a thread, CUDA_ERROR_INVALID_VALUE
 * at the launch; below that, local memory the device cannot hold,
 * CUDA_ERROR_OUT_OF_MEMORY at the launch. Either way the context goes on
 * working. An H100 holds local memory for every thread it could run at
 * once (it ran 256 KiB a thread in 80 GB, and refused 400000 bytes); vgpu
 * holds one block's at a time on each SM, within the device's memory
 * divided among its SMs, so what it refuses depends on the launch's block.
 * The module enforces the same bound for launches that do not come
 * through libvgpu (tests/kselftest/vgpu_block_mem.c).
 */
#include <stdio.h>

#include "tap.h"

/* A kernel with @bytes of local memory a thread, one word of it written. */
static void load(CUmodule *mod, CUfunction *f, unsigned int bytes)
{
	char ptx[1024];

	snprintf(ptx, sizeof(ptx),
		 ".version 9.0\n.target sm_75\n.address_size 64\n"
		 ".visible .entry big(.param .u32 v)\n{\n"
		 "\t.local .align 4 .b8 depot[%u];\n"
		 "\t.reg .b64 %%rd<2>;\n\t.reg .b32 %%r<2>;\n"
		 "\tmov.u64 %%rd1, depot;\n\tld.param.u32 %%r1, [v];\n"
		 "\tst.local.u32 [%%rd1], %%r1;\n\tret;\n}\n", bytes);
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(f, *mod, "big"));
}

static CUresult launch(CUfunction f, unsigned int blocks, unsigned int threads)
{
	int v = 1;
	void *args[] = { &v };

	return cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, NULL, args,
			      NULL);
}

static void past_the_most_a_thread_may_have(void)
{
	static const unsigned int sizes[] = { 523776, 524032, 524280, 524288 };
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;
	unsigned int i;
	int local = 0;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, 0));
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		load(&mod, &f, sizes[i]);
		CHECK_RES(CUDA_SUCCESS, cuFuncGetAttribute(&local,
				CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f));
		CHECK(local == (int)sizes[i]);
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, launch(f, 1, 32));
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, launch(f, 16, 1024));
		CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
		CHECK_RES(CUDA_SUCCESS, cuModuleUnload(mod));
	}
	/* The stack size does not move the bound (the H100 set it to 0). */
	CHECK_RES(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 0));
	load(&mod, &f, 523776);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, launch(f, 1, 32));
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(mod));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(ctx));
}

/* The most there is runs when a block of it fits the device. */
static void the_most_a_thread_may_have(void)
{
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, 0));
	load(&mod, &f, 523264);
	CHECK_RES(CUDA_SUCCESS, launch(f, 4, 32));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(ctx));
}

/* More than the device holds a SM: out of memory, the context unharmed. */
static void more_than_the_device_holds(void)
{
	unsigned int bytes = 262144, threads = 1024;
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;
	size_t total;
	int sms;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceTotalMem(&total, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&sms,
			CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
	if (total / sms >= (size_t)bytes * threads) {
		TAP_SKIP("%zu bytes a SM hold 256 MiB of local memory",
			 total / sms);
		return;
	}
	load(&mod, &f, bytes);
	CHECK_RES(CUDA_ERROR_OUT_OF_MEMORY, launch(f, 16, threads));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	/* Fewer threads a block fit, and run. */
	CHECK_RES(CUDA_SUCCESS, launch(f, 16, 32));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(ctx));
}

static const struct tap_test tests[] = {
	TAP_TEST(past_the_most_a_thread_may_have),
	TAP_TEST(the_most_a_thread_may_have),
	TAP_TEST(more_than_the_device_holds),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
