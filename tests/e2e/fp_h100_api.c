// SPDX-License-Identifier: MIT
/*
 * Floating point against an H100 through the module: every case of
 * tests/unit/data/h100_fp_corners.cu (NaN payloads, ftz and saturation,
 * conversions, and the approximate instructions of the special-function
 * unit) as a kernel of the device, run by the module's interpreter, whose
 * results must be the H100's bits. The unit test holds the same cases to
 * the core built for user space; this is the core vgpu.ko runs, in its
 * FPU section.
 */
#include <stdbool.h>

#include "tap.h"
#include "fp_h100_cases.h"

static void setup(CUdeviceptr *din, CUdeviceptr *dout)
{
	CUcontext ctx;
	CUdevice dev;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGet(&dev, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(din, sizeof(in)));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(dout, sizeof(out)));
}

/* @c's PTX on the device over @n inputs: results not the H100's. */
static unsigned int run(const struct fp_case *c, unsigned int n,
			CUdeviceptr din, CUdeviceptr dout)
{
	static char ptx[8192];
	void *args[] = { &din, &dout };
	unsigned int i, bad = 0;
	CUfunction f;
	CUmodule mod;

	snprintf(ptx, sizeof(ptx), kernel_fmt, c->body);
	CHECK_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	CHECK_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, "k"));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(din, in, sizeof(in)));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD8(dout, 0xa5, sizeof(out)));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, n / BLOCK, 1, 1, BLOCK, 1, 1,
						0, NULL, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(out, dout, sizeof(out)));
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(mod));
	for (i = 0; i < n; i++) {
		if (out[i] == want[i])
			continue;
		if (bad++ < 3)
			TAP_FAIL("%s (result %d) of %#llx, %#llx: %#llx, the H100 %#llx",
				 c->name, c->field, (unsigned long long)in[i][0],
				 (unsigned long long)in[i][1],
				 (unsigned long long)out[i],
				 (unsigned long long)want[i]);
	}
	return bad;
}

/* Is @c one of the special-function unit's instructions? */
static bool approximate(const struct fp_case *c)
{
	return strstr(c->body, "approx") || strstr(c->body, "full");
}

static void cases_of(bool approx)
{
	CUdeviceptr din, dout;
	size_t i;

	setup(&din, &dout);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		unsigned int n, bad;

		if (approximate(&cases[i]) != approx)
			continue;
		n = load(&cases[i]);
		bad = n ? run(&cases[i], n, din, dout) : 0;
		if (bad)
			TAP_FAIL("%s (result %d): %u of %u differ from the H100",
				 cases[i].name, cases[i].field, bad, n);
	}
}

static void exact_instructions(void)
{
	cases_of(false);
}

static void special_function_unit(void)
{
	cases_of(true);
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(exact_instructions),
		TAP_TEST(special_function_unit),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
