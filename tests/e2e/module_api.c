// SPDX-License-Identifier: MIT
/*
 * Modules and launches through the driver API, in the VM: PTX loaded with
 * cuModuleLoadData(Ex) and launched with kernelParams and with `extra`;
 * module variables through cuModuleGetGlobal; function attributes; the
 * codes NVIDIA's driver returns for bad launches and bad images; the JIT's
 * logs; and a faulting kernel's error, sticky for the context.
 */
#include <stdint.h>

#include "tap.h"

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

/* out[i] = in[i] * k + bias (bias a __constant__), count += 1 per thread */
static const char scale_ptx[] = HEAD
	".global .align 4 .u32 count;\n"
	".const .align 4 .f32 bias = 0f3F000000;\n"
	".visible .entry scale(.param .u64 scale_param_0, .param .u64 scale_param_1,\n"
	"\t.param .f32 scale_param_2, .param .u32 scale_param_3)\n"
	"{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .f32 %f<5>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [scale_param_0];\n"
	"\tld.param.u64 %rd2, [scale_param_1];\n"
	"\tld.param.f32 %f1, [scale_param_2];\n"
	"\tld.param.u32 %r1, [scale_param_3];\n"
	"\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n\tmov.u32 %r4, %tid.x;\n"
	"\tmad.lo.s32 %r5, %r2, %r3, %r4;\n"
	"\tsetp.ge.u32 %p1, %r5, %r1;\n"
	"\t@%p1 bra $L__end;\n"
	"\tmul.wide.u32 %rd3, %r5, 4;\n"
	"\tadd.s64 %rd4, %rd1, %rd3;\n\tadd.s64 %rd5, %rd2, %rd3;\n"
	"\tld.global.f32 %f2, [%rd4];\n"
	"\tld.const.f32 %f3, [bias];\n"
	"\tfma.rn.f32 %f4, %f2, %f1, %f3;\n"
	"\tst.global.f32 [%rd5], %f4;\n"
	"\tatom.global.add.u32 %r6, [count], 1;\n"
	"$L__end:\n\tret;\n}\n"
	".visible .entry fault()\n{\n"
	"\t.reg .b32 %r<2>;\n\tmov.u32 %r1, 7;\n"
	"\tst.global.u32 [0], %r1;\n\tret;\n}\n";

static void setup(void)
{
	CUcontext c;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
}

static void load_scale(CUmodule *m, CUfunction *f)
{
	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(m, scale_ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(f, *m, "scale"));
}

/* Launches scale over n elements with kernelParams or `extra`. */
static void scale_and_check(CUfunction f, CUmodule m, int use_extra)
{
	enum { N = 3000 };
	static float in[N], out[N];
	CUdeviceptr din, dout, dcount, dbias;
	size_t size;
	uint32_t n = N, count = 0;
	float k = 3.0f, bias = 2.0f;
	int i, bad = 0;

	for (i = 0; i < N; i++)
		in[i] = (float)i * 0.25f;
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&din, sizeof(in)));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dout, sizeof(out)));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(din, in, sizeof(in)));
	/* The constant starts at its initializer; rewrite it as a user may. */
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetGlobal(&dbias, &size, m, "bias"));
	CHECK(size == 4);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(dbias, &bias, 4));
	if (use_extra) {
		struct { uint64_t in, out; float k; uint32_t n; } p = { din, dout, k, n };
		size_t psize = 24;
		void *extra[] = {
			CU_LAUNCH_PARAM_BUFFER_POINTER, &p,
			CU_LAUNCH_PARAM_BUFFER_SIZE, &psize, CU_LAUNCH_PARAM_END,
		};

		CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1,
						       0, NULL, NULL, extra));
	} else {
		void *args[] = { &din, &dout, &k, &n };

		CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1,
						       0, NULL, args, NULL));
	}
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(out, dout, sizeof(out)));
	for (i = 0; i < N; i++)
		bad += out[i] != in[i] * k + bias;
	CHECK(bad == 0);
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetGlobal(&dcount, &size, m, "count"));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&count, dcount, 4));
	CHECK(count == N);
}

static void launch_with_kernel_params(void)
{
	CUmodule m;
	CUfunction f;

	load_scale(&m, &f);
	scale_and_check(f, m, 0);
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
}

static void launch_with_extra(void)
{
	CUmodule m;
	CUfunction f;

	load_scale(&m, &f);
	scale_and_check(f, m, 1);
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
}

/* The launch checks, with the codes an H100 returns. */
static void bad_launches(void)
{
	CUdeviceptr d = 0;
	uint32_t n = 0;
	float k = 1;
	void *args[] = { &d, &d, &k, &n };
	size_t big = 64;
	uint64_t buf[8] = { 0 };
	void *extra[] = {
		CU_LAUNCH_PARAM_BUFFER_POINTER, buf,
		CU_LAUNCH_PARAM_BUFFER_SIZE, &big, CU_LAUNCH_PARAM_END,
	};
	CUmodule m;
	CUfunction f;

	load_scale(&m, &f);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 1, 1, 1, 1025, 1, 1, 0, NULL, args, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 0, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 1 << 20, NULL, args, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, extra));
	CHECK_RES(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES,
		  cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, extra));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLaunchKernel(NULL, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
	/* Nothing bad reached the device: the context is fine. */
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
}

static void bad_images_and_names(void)
{
	char log[256] = "", info[512] = "";
	CUjit_option opts[] = {
		CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
		CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
	};
	void *vals[] = { log, (void *)(uintptr_t)sizeof(log), info,
			 (void *)(uintptr_t)sizeof(info) };
	static const char bad[] = HEAD ".visible .entry k()\n{\n\tfrob.u32 %r1;\n}\n";
	static const uint32_t garbage[8] = { 0xdeadbeef, 1, 2, 3 };
	CUmodule m;
	CUfunction f;
	CUdeviceptr d;

	setup();
	CHECK_RES(CUDA_ERROR_INVALID_PTX, cuModuleLoadDataEx(&m, bad, 4, opts, vals));
	CHECK(!strcmp(log, "6:11: unknown register '%r1'"));
	CHECK_RES(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadData(&m, garbage));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuModuleLoadData(&m, NULL));
	CHECK_RES(CUDA_ERROR_FILE_NOT_FOUND, cuModuleLoad(&m, "/nonexistent.ptx"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadDataEx(&m, scale_ptx, 4, opts, vals));
	CHECK(strstr(info, "Function properties for scale") != NULL);
	CHECK_RES(CUDA_ERROR_NOT_FOUND, cuModuleGetFunction(&f, m, "nope"));
	CHECK_RES(CUDA_ERROR_NOT_FOUND, cuModuleGetGlobal(&d, NULL, m, "nope"));
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
}

static void function_attributes(void)
{
	CUmodule m;
	CUfunction f;
	int v;

	load_scale(&m, &f);
	CHECK_RES(CUDA_SUCCESS, cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
	CHECK(v == 1024);
	CHECK_RES(CUDA_SUCCESS, cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
	CHECK(v > 0);
	CHECK_RES(CUDA_SUCCESS, cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
	CHECK(v == 0);
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, NULL));
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
}

/* As on an H100: the launch returns 0, synchronizing 700, ever after. */
static void fault_is_sticky(void)
{
	CUmodule m;
	CUfunction f;
	CUdeviceptr d;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, scale_ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "fault"));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL));
	CHECK_RES(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	CHECK_RES(CUDA_ERROR_ILLEGAL_ADDRESS, cuMemAlloc(&d, 4));
}

static const struct tap_test tests[] = {
	TAP_TEST(launch_with_kernel_params),
	TAP_TEST(launch_with_extra),
	TAP_TEST(bad_launches),
	TAP_TEST(bad_images_and_names),
	TAP_TEST(function_attributes),
	TAP_TEST(fault_is_sticky),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
