// SPDX-License-Identifier: MIT
/*
 * Kernels that fail, through the driver API: each kind of fault gives the
 * CUDA error NVIDIA's driver gives for it, at the next synchronizing call
 * and ever after in the context; with VGPU_ERROR_REPORT=1 a report names
 * the kernel, the block, the thread and the address.
 */
#include <stdint.h>
#include <unistd.h>

#include "tap.h"

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

/* Block 2, thread 5 of each kernel does the bad thing. */
static const char faults_ptx[] = HEAD
	".visible .entry bad_address(.param .u64 p)\n{\n"
	"\t.reg .pred %p<3>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n"
	"\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %tid.x;\n"
	"\tsetp.eq.u32 %p1, %r1, 2;\n\tsetp.eq.u32 %p2, %r2, 5;\n"
	"\tand.pred %p1, %p1, %p2;\n\t@!%p1 bra $L__out;\n"
	"\tld.param.u64 %rd1, [p];\n"
	"\t.loc 1 42 7\n"
	"\tst.global.u32 [%rd1], %r2;\n"
	"$L__out:\n\tret;\n}\n"
	".visible .entry misaligned(.param .u64 p)\n{\n"
	"\t.reg .pred %p<3>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n"
	"\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %tid.x;\n"
	"\tsetp.eq.u32 %p1, %r1, 2;\n\tsetp.eq.u32 %p2, %r2, 5;\n"
	"\tand.pred %p1, %p1, %p2;\n\t@!%p1 bra $L__out1;\n"
	"\tld.param.u64 %rd1, [p];\n"
	"\tst.global.u32 [%rd1+2], %r2;\n"
	"$L__out1:\n\tret;\n}\n"
	".visible .entry traps()\n{\n"
	"\t.reg .pred %p<3>;\n\t.reg .b32 %r<4>;\n"
	"\tmov.u32 %r1, %ctaid.x;\n\tmov.u32 %r2, %tid.x;\n"
	"\tsetp.eq.u32 %p1, %r1, 2;\n\tsetp.eq.u32 %p2, %r2, 5;\n"
	"\tand.pred %p1, %p1, %p2;\n\t@%p1 trap;\n\tret;\n}\n"
	".file 1 \"/src/faults.cu\"\n";

/* Launches @name over 4 blocks of 32 threads; the next sync's result. */
static CUresult run(const char *name, CUdeviceptr arg)
{
	CUcontext c;
	CUmodule m;
	CUfunction f;
	void *args[] = { &arg };
	CUresult r;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, faults_ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, name));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 4, 1, 1, 32, 1, 1, 0, NULL,
					       strcmp(name, "traps") ? args : NULL,
					       NULL));
	r = cuCtxSynchronize();
	/* Sticky: every later call of the context says the same. */
	CHECK_RES(r, cuCtxSynchronize());
	CHECK_RES(r, cuMemAlloc(&arg, 4));
	return r;
}

static void illegal_address(void)
{
	CHECK_RES(CUDA_ERROR_ILLEGAL_ADDRESS, run("bad_address", 16));
}

static void misaligned_address(void)
{
	CUdeviceptr d;
	CUcontext c;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 64));
	CHECK_RES(CUDA_ERROR_MISALIGNED_ADDRESS, run("misaligned", d));
}

/* A trap is an unspecified launch failure. */
static void trap(void)
{
	CHECK_RES(CUDA_ERROR_LAUNCH_FAILED, run("traps", 0));
}

/* VGPU_ERROR_REPORT=1: one line on stderr saying what and where. */
static void report(void)
{
	char buf[1024] = "";
	int fds[2], saved = dup(2);
	ssize_t n;

	if (pipe(fds) || saved < 0) {
		TAP_FAIL("pipe or dup");
		return;
	}
	setenv("VGPU_ERROR_REPORT", "1", 1);
	dup2(fds[1], 2);
	CHECK_RES(CUDA_ERROR_ILLEGAL_ADDRESS, run("bad_address", 0x10));
	dup2(saved, 2);
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf) - 1);
	buf[n > 0 ? n : 0] = 0;
	CHECK(strstr(buf, "vgpu: kernel bad_address: illegal address at 0x10, "
		     "block (2,0,0) thread (5,0,0)") != NULL);
	/* The PTX carries line info (nvcc -lineinfo): the report names it. */
	CHECK(strstr(buf, ", /src/faults.cu:42\n") != NULL);
	if (!strstr(buf, "block (2,0,0)"))
		printf("# stderr: %s\n", buf);
}

static const struct tap_test tests[] = {
	TAP_TEST(illegal_address),
	TAP_TEST(misaligned_address),
	TAP_TEST(trap),
	TAP_TEST(report),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
