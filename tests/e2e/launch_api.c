// SPDX-License-Identifier: MIT
/*
 * Issue 14's launches and context events: cuLaunchKernelEx and its
 * attributes, cooperative launches, the old launch calls (cuParamSet*,
 * cuLaunch, cuLaunchGrid), cuCtxRecordEvent, cuCtxWaitEvent and the _v2
 * calls that take a context. Every code is the one an H100 gave for the
 * same call (tests/e2e/ref/h100_launch.log, from h100_launch.c next to it;
 * "case N" names its line) unless marked as vgpu's: where the H100 crashed,
 * and where vgpu's compute capability 7.5 answers otherwise (clusters, no
 * persisting L2, one memory synchronization domain).
 * Needs two devices (num_devices=2).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"

/* The per-thread stream's symbols, which cuda.h names only through macros. */
CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f,
			       void **params, void **extra);
CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gx,
					unsigned int gy, unsigned int gz,
					unsigned int bx, unsigned int by,
					unsigned int bz, unsigned int shared,
					CUstream stream, void **params);
CUresult cuStreamGetCtx_v2_ptsz(CUstream hs, CUcontext *pctx,
				CUgreenCtx *green);

static const char ptx[] =
	".version 9.0\n.target sm_75\n.address_size 64\n"
	/* p[ctaid.x * ntid.x + tid.x] += v */
	".visible .entry add(.param .u64 p, .param .u32 v)\n{\n"
	"\t.reg .b64 %rd<4>;\n\t.reg .b32 %r<8>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
	"\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
	"\tmov.u32 %r4, %tid.x;\n\tmad.lo.s32 %r5, %r2, %r3, %r4;\n"
	"\tmul.wide.s32 %rd2, %r5, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tld.global.u32 %r6, [%rd3];\n\tadd.s32 %r7, %r6, %r1;\n"
	"\tst.global.u32 [%rd3], %r7;\n\tret;\n}\n"
	/* if (i < n) p[i] += v, floats */
	".visible .entry addf(.param .u64 p, .param .f32 v, .param .u32 n)\n{\n"
	"\t.reg .pred %q;\n\t.reg .b64 %rd<4>;\n\t.reg .b32 %r<6>;\n"
	"\t.reg .f32 %f<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.f32 %f1, [v];\n"
	"\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, %ctaid.x;\n"
	"\tmov.u32 %r3, %ntid.x;\n\tmov.u32 %r4, %tid.x;\n"
	"\tmad.lo.s32 %r5, %r2, %r3, %r4;\n"
	"\tsetp.ge.s32 %q, %r5, %r1;\n\t@%q bra DONE;\n"
	"\tmul.wide.s32 %rd2, %r5, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\tld.global.f32 %f2, [%rd3];\n\tadd.f32 %f3, %f2, %f1;\n"
	"\tst.global.f32 [%rd3], %f3;\nDONE:\n\tret;\n}\n";

#define BUF (1u << 20)

static CUcontext ctx;
static CUmodule mod;
static CUfunction fadd, faddf;
static CUdeviceptr buf;
static int one = 1;
static void *args[2] = { &buf, &one };

/* A context of its own on device 0, current, with the module and a zeroed buffer. */
static void setup(void)
{
	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&fadd, mod, "add"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&faddf, mod, "addf"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&buf, BUF));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD8(buf, 0, BUF));
	/* Non-blocking streams do not wait for the NULL stream's fill. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

static int word(unsigned int i)
{
	int v = -1;

	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, buf + 4 * i, 4));
	return v;
}

static CUlaunchConfig cfg(unsigned int grid, unsigned int block,
			  CUlaunchAttribute *a, unsigned int n)
{
	CUlaunchConfig c = {
		.gridDimX = grid, .gridDimY = 1, .gridDimZ = 1,
		.blockDimX = block, .blockDimY = 1, .blockDimZ = 1,
		.attrs = a, .numAttrs = n,
	};

	return c;
}

/* One launch of `add` (one block of 32) with one attribute. */
static CUresult ex1(CUlaunchAttributeID id, CUlaunchAttributeValue v,
		    unsigned int grid)
{
	CUlaunchAttribute a;
	CUlaunchConfig c;

	memset(&a, 0, sizeof(a));
	a.id = id;
	a.value = v;
	c = cfg(grid, 32, &a, 1);
	return cuLaunchKernelEx(&c, fadd, args, NULL);
}

#define V(...) ((CUlaunchAttributeValue){ __VA_ARGS__ })

static void ex_checks(void)
{
	CUlaunchAttribute junk = { .id = (CUlaunchAttributeID)99 };
	CUlaunchConfig c = cfg(2, 32, NULL, 0);

	setup();
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchKernelEx(NULL, fadd, args, NULL));	/* case 1 */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLaunchKernelEx(&c, NULL, args, NULL));	/* 2 */
	c.numAttrs = 2;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchKernelEx(&c, fadd, args, NULL));	/* 3 */
	c = cfg(0, 32, NULL, 0);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchKernelEx(&c, fadd, args, NULL));	/* 4 */
	c = cfg(1, 32, NULL, 0);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchKernelEx(&c, fadd, NULL, NULL));	/* 6 */
	/* vgpu's (the H100 crashed): a stream that is no handle. */
	c.hStream = (CUstream)(uintptr_t)0x1234;
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLaunchKernelEx(&c, fadd, args, NULL));
	/* numAttrs 0: the array is not read (case 7). */
	c = cfg(2, 32, &junk, 0);
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernelEx(&c, fadd, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernelEx_ptsz(&c, fadd, args, NULL));	/* 53 */
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(word(0) == 2 && word(63) == 2 && word(64) == 0);	/* 54 */
}

static const struct {
	const char *what;
	CUlaunchAttributeID id;
	CUlaunchAttributeValue v;
	CUresult want;
} attrs[] = {
	{ "ignore", CU_LAUNCH_ATTRIBUTE_IGNORE, V(.pad = { 1 }), CUDA_SUCCESS },	/* 10 */
	{ "cooperative 1", CU_LAUNCH_ATTRIBUTE_COOPERATIVE, V(.cooperative = 1), CUDA_SUCCESS },
	{ "cooperative 0", CU_LAUNCH_ATTRIBUTE_COOPERATIVE, V(.cooperative = 0), CUDA_SUCCESS },
	{ "cooperative 7", CU_LAUNCH_ATTRIBUTE_COOPERATIVE, V(.cooperative = 7), CUDA_SUCCESS },
	{ "sync policy spin", CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, V(.syncPolicy = CU_SYNC_POLICY_SPIN), CUDA_ERROR_INVALID_VALUE },	/* 15 */
	{ "sync policy 0", CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, V(.syncPolicy = 0), CUDA_ERROR_INVALID_VALUE },
	{ "sync policy 9", CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, V(.syncPolicy = 9), CUDA_ERROR_INVALID_VALUE },
	{ "cluster 1", CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, V(.clusterDim = { 1, 1, 1 }), CUDA_SUCCESS },	/* 18 */
	{ "cluster 0", CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, V(.clusterDim = { 0, 0, 0 }), CUDA_SUCCESS },	/* 21 */
	{ "preferred cluster 1", CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION, V(.preferredClusterDim = { 1, 1, 1 }), CUDA_SUCCESS },
	{ "cluster policy spread", CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, V(.clusterSchedulingPolicyPreference = 1), CUDA_SUCCESS },	/* 23 */
	{ "cluster policy 7", CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, V(.clusterSchedulingPolicyPreference = 7), CUDA_ERROR_INVALID_VALUE },
	{ "serialization 1", CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, V(.programmaticStreamSerializationAllowed = 1), CUDA_SUCCESS },	/* 25 */
	{ "serialization 5", CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, V(.programmaticStreamSerializationAllowed = 5), CUDA_SUCCESS },
	{ "priority -5", CU_LAUNCH_ATTRIBUTE_PRIORITY, V(.priority = -5), CUDA_SUCCESS },	/* 35 */
	{ "priority -100", CU_LAUNCH_ATTRIBUTE_PRIORITY, V(.priority = -100), CUDA_SUCCESS },
	{ "priority 100", CU_LAUNCH_ATTRIBUTE_PRIORITY, V(.priority = 100), CUDA_SUCCESS },
	/* vgpu has one domain: the H100's 4 took { 0, 1 } (case 38). */
	{ "domain map 0 0", CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, V(.memSyncDomainMap = { 0, 0 }), CUDA_SUCCESS },
	{ "domain map 0 1", CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, V(.memSyncDomainMap = { 0, 1 }), CUDA_ERROR_INVALID_VALUE },
	{ "domain map 9 9", CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, V(.memSyncDomainMap = { 9, 9 }), CUDA_ERROR_INVALID_VALUE },	/* 39 */
	{ "domain remote", CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, V(.memSyncDomain = 1), CUDA_SUCCESS },	/* 40 */
	{ "domain 2", CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, V(.memSyncDomain = 2), CUDA_ERROR_INVALID_VALUE },
	{ "device updatable", CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, V(.deviceUpdatableKernelNode = { 1, NULL }), CUDA_ERROR_NOT_SUPPORTED },	/* 43 */
	{ "carveout 50", CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, V(.sharedMemCarveout = 50), CUDA_SUCCESS },
	{ "carveout 101", CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, V(.sharedMemCarveout = 101), CUDA_ERROR_INVALID_VALUE },
	{ "nvlink scheduling", CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING, V(.pad = { 1 }), CUDA_SUCCESS },	/* 46 */
	{ "id 15", (CUlaunchAttributeID)15, V(.pad = { 0 }), CUDA_ERROR_INVALID_VALUE },
	{ "id 17", (CUlaunchAttributeID)17, V(.pad = { 0 }), CUDA_ERROR_INVALID_VALUE },
	{ "id max", (CUlaunchAttributeID)0x7fffffff, V(.pad = { 0 }), CUDA_ERROR_INVALID_VALUE },
	/* vgpu's: no persisting L2 (window size 0); the H100 took it (11). */
	{ "window", CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, V(.accessPolicyWindow = { NULL, 4096, 0.5f, CU_ACCESS_PROPERTY_PERSISTING, CU_ACCESS_PROPERTY_STREAMING }), CUDA_ERROR_INVALID_VALUE },
	{ "empty window", CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, V(.accessPolicyWindow = { NULL, 0, 0.5f, CU_ACCESS_PROPERTY_PERSISTING, CU_ACCESS_PROPERTY_STREAMING }), CUDA_SUCCESS },
};

/* Each accepted attribute launches: word 0 counts them. */
static void ex_attributes(void)
{
	unsigned int i;
	int ok = 0;

	setup();
	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		CUresult r = ex1(attrs[i].id, attrs[i].v, 1);

		if (r != attrs[i].want)
			TAP_FAIL("%s: %d, expected %d", attrs[i].what, (int)r,
				 (int)attrs[i].want);
		ok += r == CUDA_SUCCESS;
	}
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(word(0) == ok);
}

/*
 * Clusters need compute capability 9.0: on vgpu's 7.5 only a cluster of
 * one block is placed, a larger one is refused with the code the H100
 * gives the shapes it cannot place (cases 20, 22, 42, 51).
 */
static void ex_clusters_refused(void)
{
	setup();
	CHECK_RES(CUDA_ERROR_INVALID_CLUSTER_SIZE, ex1(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, V(.clusterDim = { 2, 1, 1 }), 4));
	CHECK_RES(CUDA_ERROR_INVALID_CLUSTER_SIZE, ex1(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, V(.clusterDim = { 3, 1, 1 }), 4));
	CHECK_RES(CUDA_ERROR_INVALID_CLUSTER_SIZE, ex1(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, V(.clusterDim = { 1, 1, 2 }), 4));
	CHECK_RES(CUDA_ERROR_INVALID_CLUSTER_SIZE, ex1(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, V(.clusterDim = { 16, 1, 1 }), 16));
	CHECK_RES(CUDA_ERROR_INVALID_CLUSTER_SIZE, ex1(CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION, V(.preferredClusterDim = { 2, 1, 1 }), 4));
	CHECK_RES(CUDA_SUCCESS, ex1(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, V(.clusterDim = { 1, 1, 1 }), 3));	/* 50 */
}

/*
 * The programmatic and launch completion events: events without timing,
 * flags 0 (cases 27-34); vgpu records them once the kernel has completed.
 */
static void ex_events(void)
{
	static const CUlaunchAttributeID ids[] = {
		CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT,
		CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT,
	};
	CUevent plain, timed, gone;
	CUstream s;
	unsigned int i;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&plain, CU_EVENT_DISABLE_TIMING));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&timed, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&gone, CU_EVENT_DISABLE_TIMING));
	REQUIRE_RES(CUDA_SUCCESS, cuEventDestroy(gone));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	for (i = 0; i < 2; i++) {
		CUlaunchAttribute a = { .id = ids[i] };
		CUlaunchConfig c = cfg(1, 32, &a, 1);

		c.hStream = s;
		a.value.launchCompletionEvent.event = timed;
		CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuLaunchKernelEx(&c, fadd, args, NULL));
		a.value.launchCompletionEvent.event = NULL;
		CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLaunchKernelEx(&c, fadd, args, NULL));
		/* vgpu's (the H100 crashed on a destroyed event). */
		a.value.launchCompletionEvent.event = gone;
		CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLaunchKernelEx(&c, fadd, args, NULL));
		a.value.launchCompletionEvent.event = plain;
		a.value.launchCompletionEvent.flags = 1;
		CHECK_RES(CUDA_ERROR_ILLEGAL_STATE, cuLaunchKernelEx(&c, fadd, args, NULL));
		a.value.launchCompletionEvent.flags = 0;
		CHECK_RES(CUDA_SUCCESS, cuLaunchKernelEx(&c, fadd, args, NULL));
		/* Recorded after the kernel: its result is there. */
		CHECK_RES(CUDA_SUCCESS, cuEventSynchronize(plain));
		CHECK(word(0) == (int)i + 1);
	}
}

/* Co-residency: the occupancy calculator's blocks per SM times the SMs. */
static void cooperative_launches(void)
{
	CUlaunchAttribute a = { .id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE };
	CUlaunchConfig c;
	int per_sm = 0, sms = 0, coop = 0;
	unsigned int max;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&coop, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, 0));
	CHECK(coop == 1);	/* 67 */
	CHECK_RES(CUDA_SUCCESS, cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fadd, 1024, 0));
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
	REQUIRE_RES(1, per_sm > 0 && sms > 0);
	max = (unsigned int)(per_sm * sms);
	CHECK_RES(CUDA_SUCCESS, cuLaunchCooperativeKernel(fadd, 1, 1, 1, 32, 1, 1, 0, NULL, args));	/* 60 */
	CHECK_RES(CUDA_SUCCESS, cuLaunchCooperativeKernel(fadd, max, 1, 1, 1024, 1, 1, 0, NULL, args));	/* 61 */
	CHECK_RES(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, cuLaunchCooperativeKernel(fadd, max + 1, 1, 1, 1024, 1, 1, 0, NULL, args));	/* 62 */
	CHECK_RES(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, cuLaunchCooperativeKernel(fadd, max, 2, 1, 1024, 1, 1, 0, NULL, args));	/* 71 */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLaunchCooperativeKernel(NULL, 1, 1, 1, 32, 1, 1, 0, NULL, args));	/* 63 */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernel(fadd, 0, 1, 1, 32, 1, 1, 0, NULL, args));	/* 64 */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernel(fadd, 1, 1, 1, 32, 1, 1, 0, NULL, NULL));	/* 65 */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernel(fadd, 1, 1, 1, 2048, 1, 1, 0, NULL, args));	/* 70 */
	CHECK_RES(CUDA_SUCCESS, cuLaunchCooperativeKernel_ptsz(fadd, 1, 1, 1, 32, 1, 1, 0, NULL, args));	/* 72 */
	a.value.cooperative = 1;
	c = cfg(max + 1, 1024, &a, 1);
	CHECK_RES(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, cuLaunchKernelEx(&c, fadd, args, NULL));	/* 66 */
	a.value.cooperative = 0;
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernelEx(&c, fadd, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	/* word 0: cases 60, 61, 72 and the last; the last block's: 61 and the last. */
	CHECK(word(0) == 4);
	CHECK(word(max * 1024 - 1) == 2);
	CHECK(word(max * 1024) == 1);
}

/* Deprecated, still served (cases 68, 69): one cooperative launch a device. */
static void cooperative_multi_device(void)
{
	CUDA_LAUNCH_PARAMS p[2] = {
		{ .gridDimX = 2, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 32,
		  .blockDimY = 1, .blockDimZ = 1, .kernelParams = args },
	};

	setup();
	p[0].function = fadd;
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&p[0].hStream, 0));
	p[1] = p[0];
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(NULL, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuLaunchCooperativeKernelMultiDevice(p, 1, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(p[0].hStream));
	CHECK(word(0) == 1 && word(63) == 1);
	/* vgpu's: unknown flags, one device twice, more devices than there are. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(p, 1, 4));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(p, 2, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchCooperativeKernelMultiDevice(p, 99, 0));
}

/* The old launch calls: the state set on the function (cases 80-111). */
static void old_launch_calls(void)
{
	CUstream s;
	float f = 0;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuFuncSetBlockShape(fadd, 32, 1, 1));
	CHECK_RES(CUDA_SUCCESS, cuParamSetv(fadd, 0, &buf, 8));
	CHECK_RES(CUDA_SUCCESS, cuParamSeti(fadd, 8, 5));
	CHECK_RES(CUDA_SUCCESS, cuParamSetSize(fadd, 12));
	CHECK_RES(CUDA_SUCCESS, cuLaunch(fadd));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(word(0) == 5 && word(31) == 5 && word(32) == 0);	/* 80 */
	CHECK_RES(CUDA_SUCCESS, cuLaunchGrid(fadd, 2, 1));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(word(0) == 10 && word(63) == 5);	/* 100 */
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	CHECK_RES(CUDA_SUCCESS, cuLaunchGridAsync(fadd, 2, 1, s));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(word(0) == 15 && word(63) == 10);	/* 101 */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchGrid(fadd, 0, 1));	/* 102 */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchGrid(fadd, -1, 1));	/* 110 */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLaunchGrid(NULL, 1, 1));	/* 109 */
	/* vgpu's (the H100 crashed on a stream that is no handle, 106). */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLaunchGridAsync(fadd, 1, 1, (CUstream)(uintptr_t)0x1234));
	/* Larger than the kernel's parameters: refused (104); smaller: padded (103). */
	CHECK_RES(CUDA_SUCCESS, cuParamSetSize(fadd, 64));
	CHECK_RES(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, cuLaunch(fadd));
	CHECK_RES(CUDA_SUCCESS, cuParamSetSize(fadd, 8));
	CHECK_RES(CUDA_SUCCESS, cuLaunch(fadd));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(word(0) == 15);
	/* A float parameter (107). */
	CHECK_RES(CUDA_SUCCESS, cuFuncSetBlockShape(faddf, 32, 1, 1));
	CHECK_RES(CUDA_SUCCESS, cuParamSetv(faddf, 0, &buf, 8));
	CHECK_RES(CUDA_SUCCESS, cuParamSetf(faddf, 8, 2.5f));
	CHECK_RES(CUDA_SUCCESS, cuParamSeti(faddf, 12, 32));
	CHECK_RES(CUDA_SUCCESS, cuParamSetSize(faddf, 16));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD8(buf, 0, 256));
	CHECK_RES(CUDA_SUCCESS, cuLaunch(faddf));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&f, buf, 4));
	CHECK(f == 2.5f);
}

static void old_launch_checks(void)
{
	setup();
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncSetBlockShape(fadd, 0, 1, 1));	/* 83 */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncSetBlockShape(fadd, 2048, 1, 1));	/* 84 */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncSetBlockShape(fadd, -1, 1, 1));	/* 86 */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuFuncSetBlockShape(NULL, 32, 1, 1));	/* 85 */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncSetSharedSize(fadd, 1 << 20));	/* 87 */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuFuncSetSharedSize(NULL, 0));	/* 88 */
	CHECK_RES(CUDA_SUCCESS, cuFuncSetSharedSize(fadd, 1024));
	CHECK_RES(CUDA_SUCCESS, cuParamSetSize(fadd, 4096));	/* 89 */
	CHECK_RES(CUDA_SUCCESS, cuParamSetSize(fadd, 4097));	/* 90 */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuParamSetSize(fadd, 32768));	/* 91 */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuParamSetSize(fadd, 1 << 20));	/* 92 */
	CHECK_RES(CUDA_SUCCESS, cuParamSeti(fadd, 4096, 1));	/* 93 */
	CHECK_RES(CUDA_SUCCESS, cuParamSeti(fadd, 4094, 1));	/* 94 */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuParamSetv(fadd, 0, NULL, 8));	/* 95 */
	CHECK_RES(CUDA_SUCCESS, cuParamSetv(fadd, 4090, &buf, 8));	/* 96 */
	CHECK_RES(CUDA_SUCCESS, cuParamSetv(fadd, 0, &buf, 0));	/* 99 */
	/* vgpu's (the H100 crashed on a negative offset, 97). */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuParamSeti(fadd, -4, 1));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuParamSetf(NULL, 0, 1.0f));	/* 98 */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLaunch(NULL));
	/* Textures come with issue 18 (the H100: 400 for a NULL one, 111). */
	CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuParamSetTexRef(fadd, CU_PARAM_TR_DEFAULT, NULL));
}

/* cuCtxRecordEvent: an event of that context, after all its work (120-137). */
static void ctx_record_event(void)
{
	CUevent timed, plain, other;
	CUcontext c2, c3;
	CUstream s;
	CUlaunchConfig c = cfg(4, 32, NULL, 0);

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&timed, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&plain, CU_EVENT_DISABLE_TIMING));
	CHECK_RES(CUDA_SUCCESS, cuCtxRecordEvent(ctx, timed));	/* 120 */
	CHECK_RES(CUDA_SUCCESS, cuCtxRecordEvent(ctx, plain));	/* 121 */
	CHECK_RES(CUDA_SUCCESS, cuEventSynchronize(plain));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxRecordEvent(NULL, plain));	/* 122 */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuCtxRecordEvent(ctx, NULL));	/* 123 */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c2, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&other, CU_EVENT_DISABLE_TIMING));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuCtxRecordEvent(c2, plain));	/* 125 */
	CHECK_RES(CUDA_SUCCESS, cuCtxRecordEvent(c2, other));	/* 134: c2 need not be current */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c3, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxDestroy(c3));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxRecordEvent(c3, plain));	/* 132 */
	/* After a non-blocking stream's launch too (135). */
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	c.hStream = s;
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernelEx(&c, fadd, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxRecordEvent(ctx, plain));
	CHECK_RES(CUDA_SUCCESS, cuEventSynchronize(plain));
	CHECK_RES(CUDA_SUCCESS, cuStreamQuery(s));
	CHECK(word(127) == 1);
}

/* cuCtxWaitEvent: the context's later work waits (126-136). */
static void ctx_wait_event(void)
{
	CUevent timed, plain, other;
	CUcontext c2, c3;
	CUstream s;
	CUlaunchConfig c = cfg(1, 32, NULL, 0);

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&timed, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&plain, CU_EVENT_DISABLE_TIMING));
	CHECK_RES(CUDA_SUCCESS, cuCtxWaitEvent(ctx, timed));	/* 126 */
	CHECK_RES(CUDA_SUCCESS, cuCtxWaitEvent(ctx, plain));	/* 127 */
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxWaitEvent(NULL, plain));	/* 128 */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuCtxWaitEvent(ctx, NULL));	/* 129 */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c2, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&other, CU_EVENT_DISABLE_TIMING));
	REQUIRE_RES(CUDA_SUCCESS, cuEventRecord(other, NULL));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	CHECK_RES(CUDA_SUCCESS, cuCtxWaitEvent(c2, plain));	/* 130: another context's event */
	CHECK_RES(CUDA_SUCCESS, cuCtxWaitEvent(ctx, other));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c3, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxDestroy(c3));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxWaitEvent(c3, plain));
	/* A launch, its record, the wait, then a new stream's launch (136). */
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernelEx(&c, fadd, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(plain, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxWaitEvent(ctx, plain));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	c.hStream = s;
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernelEx(&c, fadd, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(word(0) == 2);
}

static void ctx_v2_calls(void)
{
	CUcontext c2, c3, got = NULL;
	CUgreenCtx green = (CUgreenCtx)(uintptr_t)1;
	CUdevice d = -1;
	CUstream s, dead;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize_v2(ctx));	/* 140 */
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize_v2(NULL));	/* 141 */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c2, NULL, 1, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c3, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxDestroy(c3));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize_v2(c2));	/* 143 */
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxSynchronize_v2(c3));	/* 142 */
	CHECK_RES(CUDA_SUCCESS, cuCtxGetDevice_v2(&d, c2));
	CHECK(d == 1);
	CHECK_RES(CUDA_SUCCESS, cuCtxGetDevice_v2(&d, NULL));	/* 146 */
	CHECK(d == 0);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetDevice_v2(NULL, ctx));	/* 147 */
	/* vgpu's (the H100 crashed on a destroyed context, 149). */
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxGetDevice_v2(&d, c3));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetCtx_v2(s, &got, &green));	/* 150 */
	CHECK(got == ctx && green == NULL);
	got = NULL;
	green = (CUgreenCtx)(uintptr_t)1;
	CHECK_RES(CUDA_SUCCESS, cuStreamGetCtx_v2(NULL, &got, &green));	/* 151 */
	CHECK(got == ctx && green == NULL);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamGetCtx_v2(s, NULL, NULL));	/* 152 */
	CHECK_RES(CUDA_SUCCESS, cuStreamGetCtx_v2(s, &got, NULL));	/* 153 */
	CHECK_RES(CUDA_SUCCESS, cuStreamGetCtx_v2(s, NULL, &green));	/* 154 */
	got = NULL;
	CHECK_RES(CUDA_SUCCESS, cuStreamGetCtx_v2_ptsz(NULL, &got, &green));	/* 156 */
	CHECK(got == ctx);
	got = NULL;
	CHECK_RES(CUDA_SUCCESS, cuStreamGetCtx_v2(CU_STREAM_PER_THREAD, &got, &green));	/* 157 */
	CHECK(got == ctx);
	/* vgpu's (the H100 crashed on a destroyed stream, 155). */
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&dead, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamDestroy(dead));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamGetCtx_v2(dead, &got, &green));
	/* No context current: the stack emptied. */
	while (cuCtxPopCurrent(&got) == CUDA_SUCCESS && got)
		;
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxSynchronize_v2(NULL));	/* 144 */
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetDevice_v2(&d, NULL));	/* 148 */
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuStreamGetCtx_v2(NULL, &got, &green));	/* 158 */
}

static const struct tap_test tests[] = {
	TAP_TEST(ex_checks),
	TAP_TEST(ex_attributes),
	TAP_TEST(ex_clusters_refused),
	TAP_TEST(ex_events),
	TAP_TEST(cooperative_launches),
	TAP_TEST(cooperative_multi_device),
	TAP_TEST(old_launch_calls),
	TAP_TEST(old_launch_checks),
	TAP_TEST(ctx_record_event),
	TAP_TEST(ctx_wait_event),
	TAP_TEST(ctx_v2_calls),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
