// SPDX-License-Identifier: MIT
/*
 * A launch whose blocks need more memory than the device has per SM (its
 * memory divided among its SMs): the module refuses it before any block
 * runs, and the launch's error reads as NVIDIA's for a launch that asks
 * for too much, CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, not as a failure of
 * the kernel.
 */
#include "tap.h"

/* 512 KiB of local memory a thread, the most there is: one word written. */
static const char ptx[] =
	".version 9.0\n.target sm_75\n.address_size 64\n"
	".visible .entry big(.param .u32 v)\n{\n"
	"\t.local .align 4 .b8 depot[524288];\n"
	"\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<2>;\n"
	"\tmov.u64 %rd1, depot;\n\tld.param.u32 %r1, [v];\n"
	"\tst.local.u32 [%rd1], %r1;\n\tret;\n}\n";

static void too_much_local_memory(void)
{
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;
	CUdevice dev;
	size_t total;
	int sms, local = 0, v = 1;
	void *args[] = { &v };

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGet(&dev, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceTotalMem(&total, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, "big"));
	CHECK_RES(CUDA_SUCCESS, cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f));
	CHECK(local == 524288);
	/* 1024 threads: 512 MiB of local memory a block, and more. */
	if (total / sms > 1024ULL * 524288) {
		TAP_SKIP("%zu bytes a SM hold such a block", total / sms);
		return;
	}
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 16, 1, 1, 1024, 1, 1, 0, NULL, args, NULL));
	CHECK_RES(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, cuCtxSynchronize());
}

static const struct tap_test tests[] = {
	TAP_TEST(too_much_local_memory),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
