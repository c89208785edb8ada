// SPDX-License-Identifier: MIT
/*
 * cuFuncSetAttribute, cuFuncSetCacheConfig and the occupancy calculator
 * in the VM, with the codes of NVIDIA's driver (probed on an H100, driver
 * 580): the dynamic shared memory limit of a kernel, 48 KiB less its
 * static part unless raised, as cuLaunchKernel enforces it; the carveout;
 * attributes that cannot be set; and occupancy answers that size a
 * launch that then runs.
 */
#include <stdint.h>

#include "tap.h"

#define HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

/*
 * rev: out[i] = the value thread blockDim-1-i wrote into the last
 * blockDim words of the dynamic shared memory (so all of it is usable);
 * tiled: 2 KiB of static shared memory.
 */
static const char ptx[] = HEAD
	".extern .shared .align 4 .b8 dsm[];\n"
	".visible .entry rev(.param .u64 out, .param .u32 words)\n{\n"
	"\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<8>;\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u32 %r1, [words];\n"
	"\tmov.u32 %r2, %tid.x;\n\tmov.u32 %r3, %ntid.x;\n"
	"\tsub.u32 %r4, %r1, %r3;\n\tadd.u32 %r5, %r4, %r2;\n"
	"\tmul.wide.u32 %rd2, %r5, 4;\n\tmov.u64 %rd3, dsm;\n"
	"\tadd.s64 %rd4, %rd3, %rd2;\n\tmul.lo.u32 %r6, %r2, 3;\n"
	"\tst.shared.u32 [%rd4], %r6;\n\tbar.sync 0;\n"
	"\tsub.u32 %r7, %r3, %r2;\n\tsub.u32 %r7, %r7, 1;\n"
	"\tadd.u32 %r7, %r4, %r7;\n\tmul.wide.u32 %rd5, %r7, 4;\n"
	"\tadd.s64 %rd5, %rd3, %rd5;\n\tld.shared.u32 %r6, [%rd5];\n"
	"\tmul.wide.u32 %rd6, %r2, 4;\n\tadd.s64 %rd7, %rd1, %rd6;\n"
	"\tst.global.u32 [%rd7], %r6;\n\tret;\n}\n"
	".visible .entry tiled()\n{\n"
	"\t.shared .align 4 .b8 tile[2048];\n\t.reg .b32 %r<2>;\n"
	"\tmov.u32 %r1, 0;\n\tst.shared.u32 [tile], %r1;\n\tret;\n}\n";

static CUmodule mod;
static CUfunction rev, tiled;

static void setup(void)
{
	CUcontext c;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&rev, mod, "rev"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&tiled, mod, "tiled"));
}

static int attr(CUfunction f, CUfunction_attribute a)
{
	int v = -12345;

	CHECK_RES(CUDA_SUCCESS, cuFuncGetAttribute(&v, a, f));
	return v;
}

/* Launches rev with @bytes of dynamic shared memory; checks the result. */
static CUresult launch_rev(unsigned int bytes)
{
	enum { T = 64 };
	uint32_t out[T], words = bytes / 4;
	CUdeviceptr d;
	void *args[] = { &d, &words };
	CUresult r;
	int i, bad = 0;

	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, sizeof(out)));
	r = cuLaunchKernel(rev, 1, 1, 1, T, 1, 1, bytes, NULL, args, NULL);
	if (r == CUDA_SUCCESS) {
		CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(out, d, sizeof(out)));
		for (i = 0; i < T; i++)
			bad += out[i] != (uint32_t)(T - 1 - i) * 3;
		CHECK(bad == 0);
	}
	CHECK_RES(CUDA_SUCCESS, cuMemFree(d));
	return r;
}

static void dynamic_shared_limit(void)
{
	CUdevice dev;
	int optin;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuCtxGetDevice(&dev));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&optin,
		CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev));
	/* 48 KiB less the static part, until raised. */
	CHECK(attr(rev, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) == 49152);
	CHECK(attr(tiled, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) == 47104);
	CHECK_RES(CUDA_SUCCESS, launch_rev(49152));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, launch_rev(49156));
	CHECK_RES(CUDA_SUCCESS, cuFuncSetAttribute(rev,
		CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 60000));
	CHECK(attr(rev, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) == 60000);
	CHECK_RES(CUDA_SUCCESS, launch_rev(60000));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, launch_rev(60004));
	/* Lowered, it binds as well. */
	CHECK_RES(CUDA_SUCCESS, cuFuncSetAttribute(rev,
		CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, launch_rev(256));
	/* Up to the opt-in limit less the static part, never below 0. */
	CHECK_RES(CUDA_SUCCESS, cuFuncSetAttribute(tiled,
		CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, optin - 2048));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncSetAttribute(tiled,
		CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, optin - 2047));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncSetAttribute(tiled,
		CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, -1));
	CHECK(attr(tiled, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) == optin - 2048);
	/* All of it: the module takes what the attribute promised. */
	CHECK_RES(CUDA_SUCCESS, cuFuncSetAttribute(rev,
		CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, optin));
	CHECK_RES(CUDA_SUCCESS, launch_rev((unsigned int)optin));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

static void other_attributes(void)
{
	static const int read_only[] = { 0, 1, 2, 3, 4, 5, 6, 7, 10, 16, 99 };
	unsigned int i;

	setup();
	CHECK(attr(rev, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) == -1);
	CHECK_RES(CUDA_SUCCESS, cuFuncSetAttribute(rev,
		CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50));
	CHECK(attr(rev, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT) == 50);
	CHECK_RES(CUDA_SUCCESS, cuFuncSetAttribute(rev,
		CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 100));
	CHECK_RES(CUDA_SUCCESS, cuFuncSetAttribute(rev,
		CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, -1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncSetAttribute(rev,
		CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 101));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncSetAttribute(rev,
		CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, -2));
	for (i = 0; i < sizeof(read_only) / sizeof(read_only[0]); i++)
		if (cuFuncSetAttribute(rev, (CUfunction_attribute)read_only[i], 1) !=
		    CUDA_ERROR_INVALID_VALUE)
			TAP_FAIL("attribute %d could be set", read_only[i]);
	for (i = CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH;
	     i <= CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE; i++) {
		CHECK_RES(CUDA_SUCCESS, cuFuncSetAttribute(rev, (CUfunction_attribute)i, 1));
		CHECK(attr(rev, (CUfunction_attribute)i) == 1);
	}
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuFuncSetAttribute(NULL,
		CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 0));
	CHECK_RES(CUDA_SUCCESS, cuFuncSetCacheConfig(rev, CU_FUNC_CACHE_PREFER_EQUAL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncSetCacheConfig(rev, (CUfunc_cache)4));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuFuncSetCacheConfig(NULL, CU_FUNC_CACHE_PREFER_L1));
}

static size_t per_thread_8(int block)
{
	return (size_t)block * 8;
}

static void occupancy(void)
{
	int blocks = -1, grid = -1, block = -1, sms, per_sm, smem;
	CUdevice dev;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuCtxGetDevice(&dev));
	cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
	cuDeviceGetAttribute(&per_sm, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, dev);
	cuDeviceGetAttribute(&smem, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, dev);
	/* Threads per SM bound a full block; shared memory a small one. */
	CHECK_RES(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, rev, 1024, 0));
	CHECK(blocks == per_sm / 1024);
	CHECK_RES(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, rev, 32,
									    smem / 4));
	CHECK(blocks == 4 - (smem > 65536));	/* 1 KiB reserved on sm_80+ */
	CHECK_RES(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, rev, 1025, 0));
	CHECK(blocks == 0);
	CHECK_RES(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, rev, 32,
									    1 << 20));
	CHECK(blocks == 0);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, rev, 0, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuOccupancyMaxActiveBlocksPerMultiprocessor(NULL, rev, 32, 0));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, NULL, 32, 0));
	CHECK_RES(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, rev,
		256, 0, CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks,
		rev, 256, 0, 2));
	/* The suggestion fills the SMs; then it runs. */
	CHECK_RES(CUDA_SUCCESS, cuOccupancyMaxPotentialBlockSize(&grid, &block, rev,
								 per_thread_8, 0, 0));
	CHECK(block > 0 && block * (grid / sms) == per_sm && grid % sms == 0);
	CHECK_RES(CUDA_SUCCESS, cuOccupancyMaxPotentialBlockSize(&grid, &block, rev, NULL, 0, 100));
	CHECK(block == 64 || block == 96 || block == 100);
	CHECK_RES(CUDA_SUCCESS, cuOccupancyMaxPotentialBlockSize(&grid, &block, rev, NULL,
								 1 << 20, 0));
	CHECK(grid == 0 && block == 0);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuOccupancyMaxPotentialBlockSize(NULL, &block, rev, NULL, 0, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuOccupancyMaxPotentialBlockSize(&grid, &block, rev, NULL, 0, -1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block,
		rev, NULL, 0, 0, 2));
	CHECK_RES(CUDA_SUCCESS, cuOccupancyMaxPotentialBlockSize(&grid, &block, rev, NULL, 256, 64));
	CHECK(block == 64);
	CHECK_RES(CUDA_SUCCESS, launch_rev(256));
}

static const struct tap_test tests[] = {
	TAP_TEST(dynamic_shared_limit),
	TAP_TEST(other_attributes),
	TAP_TEST(occupancy),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
