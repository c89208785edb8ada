// SPDX-License-Identifier: MIT
/*
 * The calls that have nothing to act on in vgpu, as NVIDIA's driver
 * answers them with nothing to act on (tests/e2e/ref/h100_profiler.log,
 * from h100_profiler.c there): cuProfilerStart/Stop with no profiler
 * attached and cuFlushGPUDirectRDMAWrites with no RDMA writer check the
 * driver, the context and the arguments, and succeed; the deprecated
 * cuProfilerInitialize is not supported.
 */
#include "tap.h"
#include "cudaProfiler.h"

#define H100_LOG "tests/e2e/ref/h100_profiler.log"
#include "h100_log.h"

#define OWNER CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER
#define ALL CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_ALL_DEVICES
#define CURRENT CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX

/* Each test runs in a process of its own: this one has no cuInit. */
static void before_init(void)
{
	CHECK_H100("profiler start before init", cuProfilerStart());
}

static void without_context(void)
{
	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_H100("profiler start no ctx", cuProfilerStart());
	CHECK_H100("profiler stop no ctx", cuProfilerStop());
	CHECK_H100("flush no ctx", cuFlushGPUDirectRDMAWrites(CURRENT, OWNER));
}

static void in_context(void)
{
	CUcontext p, c;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&p, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(p));
	CHECK_H100("profiler start", cuProfilerStart());
	CHECK_H100("profiler start again", cuProfilerStart());
	CHECK_H100("profiler stop", cuProfilerStop());
	CHECK_H100("profiler stop again", cuProfilerStop());
	CHECK_H100("flush owner", cuFlushGPUDirectRDMAWrites(CURRENT, OWNER));
	CHECK_H100("flush all", cuFlushGPUDirectRDMAWrites(CURRENT, ALL));
	CHECK_H100("flush scope 0", cuFlushGPUDirectRDMAWrites(
		CURRENT, (CUflushGPUDirectRDMAWritesScope)0));
	CHECK_H100("flush scope 300", cuFlushGPUDirectRDMAWrites(
		CURRENT, (CUflushGPUDirectRDMAWritesScope)300));
	CHECK_H100("flush target 1", cuFlushGPUDirectRDMAWrites(
		(CUflushGPUDirectRDMAWritesTarget)1, OWNER));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	CHECK_H100("profiler start other ctx", cuProfilerStart());
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
}

static void initialize_unsupported(void)
{
	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_H100("profiler init",
		   cuProfilerInitialize("x", "y", CU_OUT_CSV));
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(before_init),
		TAP_TEST(without_context),
		TAP_TEST(in_context),
		TAP_TEST(initialize_unsupported),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
