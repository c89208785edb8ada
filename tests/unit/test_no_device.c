// SPDX-License-Identifier: MIT
/*
 * Without the module (the build machine): cuInit reports
 * CUDA_ERROR_NO_DEVICE, the version query still works, and everything else
 * stays uninitialized, as NVIDIA's driver does on a machine without a GPU.
 */
#include <unistd.h>

#include "tap.h"

static void init_without_device(void)
{
	int n, v;
	CUcontext c;

	if (access("/dev/vgpu0", F_OK) == 0)
		TAP_SKIP("/dev/vgpu0 exists");
	CHECK_RES(CUDA_SUCCESS, cuDriverGetVersion(&v));
	CHECK(v == CUDA_VERSION);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDriverGetVersion(NULL));
	CHECK_RES(CUDA_ERROR_NO_DEVICE, cuInit(0));
	CHECK_RES(CUDA_ERROR_NO_DEVICE, cuInit(0));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetCount(&n));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuCtxGetCurrent(&c));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuCtxSynchronize());
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuDevicePrimaryCtxRelease(0));
}

static const struct tap_test tests[] = {
	TAP_TEST(init_without_device),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
