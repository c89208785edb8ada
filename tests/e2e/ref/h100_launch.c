/* H100 probe for issue 14: cuLaunchKernelEx, the old launch calls,
 * cooperative launches and context events. Each case runs in its own
 * process (the driver crashes on some NULLs); a line is "case code",
 * or "case signal N" where the driver crashed. Built and run as
 *   cp h100_launch_k.cu k.cu && nvcc -ptx -arch=compute_75 k.cu -o k.ptx
 *   gcc h100_launch.c -lcuda -o p && ./p > h100_launch.log
 * (the log's first line, the GPU and driver, from nvidia-smi). */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

CUresult cuStreamGetCtx_v2_ptsz(CUstream s, CUcontext *c, CUgreenCtx *g);
CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *c, CUfunction f, void **p, void **e);
CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz, unsigned sh, CUstream s, void **p);

static CUdevice dev;
static CUcontext ctx;
static CUmodule mod;
static CUfunction fadd, faddf;
static CUdeviceptr buf;
static int v = 1;
static void *args[2];

static void setup(void)
{
	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	if (cuModuleLoad(&mod, "k.ptx")) { printf("load failed\n"); exit(2); }
	cuModuleGetFunction(&fadd, mod, "add");
	cuModuleGetFunction(&faddf, mod, "addf");
	cuMemAlloc(&buf, 1 << 24);
	cuMemsetD8(buf, 0, 1 << 24);
	/* The fill is on the legacy stream, which a non-blocking stream does not wait for. */
	cuCtxSynchronize();
	args[0] = &buf; args[1] = &v;
}

static CUlaunchConfig cfg(unsigned g, unsigned b, CUlaunchAttribute *a, unsigned n)
{
	CUlaunchConfig c = { g, 1, 1, b, 1, 1, 0, NULL, a, n };
	return c;
}

static CUresult ex1(CUlaunchAttributeID id, CUlaunchAttributeValue val, unsigned g)
{
	CUlaunchAttribute a; CUlaunchConfig c;
	CUresult r;
	memset(&a, 0, sizeof(a));
	a.id = id; a.value = val;
	c = cfg(g, 32, &a, 1);
	r = cuLaunchKernelEx(&c, fadd, args, NULL);
	if (!r) r = cuCtxSynchronize() ? 999 : 0;
	return r;
}

#define V(...) ((CUlaunchAttributeValue){ __VA_ARGS__ })

static int first_int(void)
{
	int h;
	cuMemcpyDtoH(&h, buf, 4);
	return h;
}

static CUresult run(int n)
{
	CUlaunchConfig c;
	CUlaunchAttribute a[4];
	CUevent e;
	CUstream s;
	CUcontext c2;
	CUresult r;
	int i, x;
	memset(a, 0, sizeof(a));
	switch (n) {
	/* cuLaunchKernelEx basics */
	case 0: c = cfg(1, 32, NULL, 0); return cuLaunchKernelEx(&c, fadd, args, NULL);
	case 1: return cuLaunchKernelEx(NULL, fadd, args, NULL);
	case 2: c = cfg(1, 32, NULL, 0); return cuLaunchKernelEx(&c, NULL, args, NULL);
	case 3: c = cfg(1, 32, NULL, 2); return cuLaunchKernelEx(&c, fadd, args, NULL);
	case 4: c = cfg(0, 32, NULL, 0); return cuLaunchKernelEx(&c, fadd, args, NULL);
	case 5: c = cfg(1, 32, NULL, 0); c.hStream = (CUstream)0x1234; return cuLaunchKernelEx(&c, fadd, args, NULL);
	case 6: c = cfg(1, 32, NULL, 0); return cuLaunchKernelEx(&c, fadd, NULL, NULL);
	case 7: c = cfg(1, 32, a, 0); a[0].id = 99; return cuLaunchKernelEx(&c, fadd, args, NULL);
	/* each attribute */
	case 10: return ex1(CU_LAUNCH_ATTRIBUTE_IGNORE, V(.pad = {1}), 1);
	case 11: return ex1(CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, V(.accessPolicyWindow = { (void *)buf, 4096, 0.5f, CU_ACCESS_PROPERTY_PERSISTING, CU_ACCESS_PROPERTY_STREAMING }), 1);
	case 12: return ex1(CU_LAUNCH_ATTRIBUTE_COOPERATIVE, V(.cooperative = 1), 1);
	case 13: return ex1(CU_LAUNCH_ATTRIBUTE_COOPERATIVE, V(.cooperative = 0), 1);
	case 14: return ex1(CU_LAUNCH_ATTRIBUTE_COOPERATIVE, V(.cooperative = 7), 1);
	case 15: return ex1(CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, V(.syncPolicy = CU_SYNC_POLICY_SPIN), 1);
	case 16: return ex1(CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, V(.syncPolicy = 0), 1);
	case 17: return ex1(CU_LAUNCH_ATTRIBUTE_SYNCHRONIZATION_POLICY, V(.syncPolicy = 9), 1);
	case 18: return ex1(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, V(.clusterDim = {1, 1, 1}), 1);
	case 19: return ex1(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, V(.clusterDim = {2, 1, 1}), 4);
	case 20: return ex1(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, V(.clusterDim = {3, 1, 1}), 4);
	case 21: return ex1(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, V(.clusterDim = {0, 0, 0}), 4);
	case 22: return ex1(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, V(.clusterDim = {16, 1, 1}), 16);
	case 23: return ex1(CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, V(.clusterSchedulingPolicyPreference = 1), 1);
	case 24: return ex1(CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE, V(.clusterSchedulingPolicyPreference = 7), 1);
	case 25: return ex1(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, V(.programmaticStreamSerializationAllowed = 1), 1);
	case 26: return ex1(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, V(.programmaticStreamSerializationAllowed = 5), 1);
	case 27: cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
		return ex1(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT, V(.programmaticEvent = { e, 0, 0 }), 1);
	case 28: cuEventCreate(&e, 0);
		return ex1(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT, V(.programmaticEvent = { e, 0, 0 }), 1);
	case 29: return ex1(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT, V(.programmaticEvent = { NULL, 0, 0 }), 1);
	case 30: cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
		return ex1(CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT, V(.programmaticEvent = { e, 1, 1 }), 1);
	case 31: cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
		r = ex1(CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT, V(.launchCompletionEvent = { e, 0 }), 1);
		return r ? r : cuEventQuery(e);
	case 32: cuEventCreate(&e, 0);
		return ex1(CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT, V(.launchCompletionEvent = { e, 0 }), 1);
	case 33: return ex1(CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT, V(.launchCompletionEvent = { NULL, 0 }), 1);
	case 34: cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
		return ex1(CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT, V(.launchCompletionEvent = { e, 1 }), 1);
	case 35: return ex1(CU_LAUNCH_ATTRIBUTE_PRIORITY, V(.priority = -5), 1);
	case 36: return ex1(CU_LAUNCH_ATTRIBUTE_PRIORITY, V(.priority = -100), 1);
	case 37: return ex1(CU_LAUNCH_ATTRIBUTE_PRIORITY, V(.priority = 100), 1);
	case 38: return ex1(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, V(.memSyncDomainMap = { 0, 1 }), 1);
	case 39: return ex1(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, V(.memSyncDomainMap = { 9, 9 }), 1);
	case 40: return ex1(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, V(.memSyncDomain = 1), 1);
	case 41: return ex1(CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, V(.memSyncDomain = 2), 1);
	case 42: return ex1(CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION, V(.preferredClusterDim = {2, 1, 1}), 4);
	case 43: return ex1(CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, V(.deviceUpdatableKernelNode = { 1, NULL }), 1);
	case 44: return ex1(CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, V(.sharedMemCarveout = 50), 1);
	case 45: return ex1(CU_LAUNCH_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, V(.sharedMemCarveout = 101), 1);
	case 46: return ex1(CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING, V(.pad = {1}), 1);
	case 47: return ex1(15, V(.pad = {0}), 1);
	case 48: return ex1(17, V(.pad = {0}), 1);
	case 49: return ex1(0x7fffffff, V(.pad = {0}), 1);
	case 50: return ex1(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, V(.clusterDim = {1, 1, 1}), 3);
	case 51: return ex1(CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, V(.clusterDim = {2, 1, 1}), 3);
	/* two attributes of one id: the last wins? */
	case 52: a[0].id = CU_LAUNCH_ATTRIBUTE_PRIORITY; a[0].value.priority = -1;
		a[1].id = CU_LAUNCH_ATTRIBUTE_PRIORITY; a[1].value.priority = -2;
		c = cfg(1, 32, a, 2); return cuLaunchKernelEx(&c, fadd, args, NULL);
	case 53: c = cfg(1, 32, NULL, 0); return cuLaunchKernelEx_ptsz(&c, fadd, args, NULL);
	case 54: /* the kernel's result */
		c = cfg(2, 32, NULL, 0); r = cuLaunchKernelEx(&c, fadd, args, NULL);
		if (!r) r = cuCtxSynchronize();
		return r ? r : (CUresult)(1000 + first_int());
	/* cooperative launches */
	case 60: return cuLaunchCooperativeKernel(fadd, 1, 1, 1, 32, 1, 1, 0, NULL, args);
	case 61: cuOccupancyMaxActiveBlocksPerMultiprocessor(&x, fadd, 1024, 0);
		cuDeviceGetAttribute(&i, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
		printf("  occ %d sm %d\n", x, i);
		r = cuLaunchCooperativeKernel(fadd, x * i, 1, 1, 1024, 1, 1, 0, NULL, args);
		return r ? r : cuCtxSynchronize();
	case 62: cuOccupancyMaxActiveBlocksPerMultiprocessor(&x, fadd, 1024, 0);
		cuDeviceGetAttribute(&i, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
		return cuLaunchCooperativeKernel(fadd, x * i + 1, 1, 1, 1024, 1, 1, 0, NULL, args);
	case 63: return cuLaunchCooperativeKernel(NULL, 1, 1, 1, 32, 1, 1, 0, NULL, args);
	case 64: return cuLaunchCooperativeKernel(fadd, 0, 1, 1, 32, 1, 1, 0, NULL, args);
	case 65: return cuLaunchCooperativeKernel(fadd, 1, 1, 1, 32, 1, 1, 0, NULL, NULL);
	case 66: cuOccupancyMaxActiveBlocksPerMultiprocessor(&x, fadd, 1024, 0);
		cuDeviceGetAttribute(&i, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
		a[0].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE; a[0].value.cooperative = 1;
		c = cfg(x * i + 1, 1024, a, 1); return cuLaunchKernelEx(&c, fadd, args, NULL);
	case 67: cuDeviceGetAttribute(&x, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH, dev);
		cuDeviceGetAttribute(&i, CU_DEVICE_ATTRIBUTE_COOPERATIVE_MULTI_DEVICE_LAUNCH, dev);
		return (CUresult)(1000 + x * 10 + i);
	case 68: return cuLaunchCooperativeKernelMultiDevice(NULL, 0, 0);
	case 69: { CUDA_LAUNCH_PARAMS p = { fadd, 1, 1, 1, 32, 1, 1, 0, NULL, args };
		cuStreamCreate(&p.hStream, 0);
		return cuLaunchCooperativeKernelMultiDevice(&p, 1, 0); }
	case 70: return cuLaunchCooperativeKernel(fadd, 1, 1, 1, 2048, 1, 1, 0, NULL, args);
	/* 2-D grid too large */
	case 71: cuOccupancyMaxActiveBlocksPerMultiprocessor(&x, fadd, 1024, 0);
		cuDeviceGetAttribute(&i, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
		return cuLaunchCooperativeKernel(fadd, x * i, 2, 1, 1024, 1, 1, 0, NULL, args);
	case 72: return cuLaunchCooperativeKernel_ptsz(fadd, 1, 1, 1, 32, 1, 1, 0, NULL, args);
	/* the old launch calls */
	case 80: r = cuFuncSetBlockShape(fadd, 32, 1, 1); if (r) return r;
		r = cuParamSetv(fadd, 0, &buf, 8); if (r) return r;
		r = cuParamSeti(fadd, 8, 5); if (r) return r;
		r = cuParamSetSize(fadd, 12); if (r) return r;
		r = cuLaunch(fadd); if (r) return r;
		r = cuCtxSynchronize(); return r ? r : (CUresult)(1000 + first_int());
	case 81: return cuLaunch(fadd);                 /* no shape, no params */
	case 82: cuFuncSetBlockShape(fadd, 32, 1, 1); return cuLaunch(fadd);   /* no params */
	case 83: return cuFuncSetBlockShape(fadd, 0, 1, 1);
	case 84: return cuFuncSetBlockShape(fadd, 2048, 1, 1);
	case 85: return cuFuncSetBlockShape(NULL, 32, 1, 1);
	case 86: return cuFuncSetBlockShape(fadd, -1, 1, 1);
	case 87: return cuFuncSetSharedSize(fadd, 1 << 20);
	case 88: return cuFuncSetSharedSize(NULL, 0);
	case 89: return cuParamSetSize(fadd, 4096);
	case 90: return cuParamSetSize(fadd, 4097);
	case 91: return cuParamSetSize(fadd, 32768);
	case 92: return cuParamSetSize(fadd, 1 << 20);
	case 93: return cuParamSeti(fadd, 4096, 1);
	case 94: return cuParamSeti(fadd, 4094, 1);
	case 95: return cuParamSetv(fadd, 0, NULL, 8);
	case 96: return cuParamSetv(fadd, 4090, &buf, 8);
	case 97: return cuParamSeti(fadd, -4, 1);
	case 98: return cuParamSetf(NULL, 0, 1.0f);
	case 99: return cuParamSetv(fadd, 0, &buf, 0);
	case 100: cuFuncSetBlockShape(fadd, 32, 1, 1);
		cuParamSetv(fadd, 0, &buf, 8); cuParamSeti(fadd, 8, 5); cuParamSetSize(fadd, 12);
		r = cuLaunchGrid(fadd, 2, 1); if (r) return r;
		r = cuCtxSynchronize(); return r ? r : (CUresult)(1000 + first_int());
	case 101: cuFuncSetBlockShape(fadd, 32, 1, 1);
		cuParamSetv(fadd, 0, &buf, 8); cuParamSeti(fadd, 8, 5); cuParamSetSize(fadd, 12);
		cuStreamCreate(&s, 0);
		r = cuLaunchGridAsync(fadd, 2, 1, s); if (r) return r;
		r = cuStreamSynchronize(s); return r ? r : (CUresult)(1000 + first_int());
	case 102: cuFuncSetBlockShape(fadd, 32, 1, 1);
		cuParamSetv(fadd, 0, &buf, 8); cuParamSeti(fadd, 8, 5); cuParamSetSize(fadd, 12);
		return cuLaunchGrid(fadd, 0, 1);
	case 103: cuFuncSetBlockShape(fadd, 32, 1, 1);
		cuParamSetv(fadd, 0, &buf, 8); cuParamSeti(fadd, 8, 5); cuParamSetSize(fadd, 4);
		return cuLaunch(fadd);                  /* size smaller than the kernel's */
	case 104: cuFuncSetBlockShape(fadd, 32, 1, 1);
		cuParamSetv(fadd, 0, &buf, 8); cuParamSeti(fadd, 8, 5); cuParamSetSize(fadd, 64);
		return cuLaunch(fadd);                  /* larger */
	case 105: cuFuncSetBlockShape(fadd, 32, 1, 1);
		cuParamSetv(fadd, 0, &buf, 8); cuParamSeti(fadd, 8, 5); cuParamSetSize(fadd, 12);
		cuFuncSetSharedSize(fadd, 1 << 20);
		return cuLaunch(fadd);
	case 106: return cuLaunchGridAsync(fadd, 1, 1, (CUstream)0x1234);
	case 107: cuFuncSetBlockShape(faddf, 32, 1, 1);  /* float parameter */
		cuParamSetv(faddf, 0, &buf, 8); cuParamSetf(faddf, 8, 2.5f); cuParamSeti(faddf, 12, 32); cuParamSetSize(faddf, 16);
		r = cuLaunch(faddf); if (r) return r;
		r = cuCtxSynchronize(); if (r) return r;
		{ float fl; cuMemcpyDtoH(&fl, buf, 4); return (CUresult)(1000 + (int)(fl * 10)); }
	case 108: cuFuncSetBlockShape(fadd, 32, 1, 1);
		cuParamSetv(fadd, 0, &buf, 8); cuParamSeti(fadd, 8, 5);
		return cuLaunch(fadd);                  /* size never set */
	case 109: return cuLaunchGrid(NULL, 1, 1);
	case 110: cuFuncSetBlockShape(fadd, 32, 1, 1);
		cuParamSetv(fadd, 0, &buf, 8); cuParamSeti(fadd, 8, 5); cuParamSetSize(fadd, 12);
		return cuLaunchGrid(fadd, -1, 1);
	case 111: return cuParamSetTexRef(fadd, CU_PARAM_TR_DEFAULT, NULL);
	/* context events and the _v2 context calls */
	case 120: cuEventCreate(&e, 0); return cuCtxRecordEvent(ctx, e);
	case 121: cuEventCreate(&e, CU_EVENT_DISABLE_TIMING); r = cuCtxRecordEvent(ctx, e); return r ? r : cuEventSynchronize(e);
	case 122: cuEventCreate(&e, 0); return cuCtxRecordEvent(NULL, e);
	case 123: return cuCtxRecordEvent(ctx, NULL);
	case 124: cuEventCreate(&e, CU_EVENT_DISABLE_TIMING); cuEventDestroy(e); return cuCtxRecordEvent(ctx, e);
	case 125: cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
		cuCtxCreate(&c2, NULL, 0, dev); cuCtxSetCurrent(ctx);
		return cuCtxRecordEvent(c2, e);
	case 126: cuEventCreate(&e, 0); return cuCtxWaitEvent(ctx, e);
	case 127: cuEventCreate(&e, CU_EVENT_DISABLE_TIMING); return cuCtxWaitEvent(ctx, e);
	case 128: cuEventCreate(&e, CU_EVENT_DISABLE_TIMING); return cuCtxWaitEvent(NULL, e);
	case 129: return cuCtxWaitEvent(ctx, NULL);
	case 130: cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
		cuCtxCreate(&c2, NULL, 0, dev); cuCtxSetCurrent(ctx);
		return cuCtxWaitEvent(c2, e);
	case 131: cuEventCreate(&e, CU_EVENT_DISABLE_TIMING | CU_EVENT_BLOCKING_SYNC); return cuCtxRecordEvent(ctx, e);
	case 132: cuEventCreate(&e, CU_EVENT_DISABLE_TIMING); cuCtxCreate(&c2, NULL, 0, dev);
		cuCtxDestroy(c2); cuCtxSetCurrent(ctx); return cuCtxRecordEvent(c2, e);
	case 133: cuCtxCreate(&c2, NULL, 0, dev); cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
		return cuCtxRecordEvent(c2, e);    /* event of c2, c2 current */
	case 134: cuCtxCreate(&c2, NULL, 0, dev); cuEventCreate(&e, CU_EVENT_DISABLE_TIMING);
		cuCtxSetCurrent(ctx); return cuCtxRecordEvent(c2, e);    /* event of c2, ctx current */
	case 135: /* wait on all the context's work: a launch queued on a stream, then a record */
		cuEventCreate(&e, CU_EVENT_DISABLE_TIMING); cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
		c = cfg(1, 32, NULL, 0); c.hStream = s; cuLaunchKernelEx(&c, fadd, args, NULL);
		r = cuCtxRecordEvent(ctx, e); if (r) return r;
		r = cuEventSynchronize(e); return r ? r : (CUresult)(1000 + first_int());
	case 136: cuEventCreate(&e, CU_EVENT_DISABLE_TIMING); cuEventRecord(e, NULL);
		r = cuCtxWaitEvent(ctx, e); return r ? r : cuCtxSynchronize();
	case 137: cuEventCreate(&e, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING); return cuCtxRecordEvent(ctx, e);
	case 140: return cuCtxSynchronize_v2(ctx);
	case 141: return cuCtxSynchronize_v2(NULL);
	case 142: cuCtxCreate(&c2, NULL, 0, dev); cuCtxDestroy(c2); return cuCtxSynchronize_v2(c2);
	case 143: cuCtxCreate(&c2, NULL, 0, dev); cuCtxSetCurrent(ctx); return cuCtxSynchronize_v2(c2);
	case 144: cuCtxSetCurrent(NULL); return cuCtxSynchronize_v2(NULL);
	case 145: { CUdevice d = -1; r = cuCtxGetDevice_v2(&d, ctx); return r ? r : (CUresult)(1000 + d); }
	case 146: { CUdevice d = -1; r = cuCtxGetDevice_v2(&d, NULL); return r ? r : (CUresult)(1000 + d); }
	case 147: return cuCtxGetDevice_v2(NULL, ctx);
	case 148: { CUdevice d; cuCtxSetCurrent(NULL); return cuCtxGetDevice_v2(&d, NULL); }
	case 149: { CUdevice d; cuCtxCreate(&c2, NULL, 0, dev); cuCtxDestroy(c2); return cuCtxGetDevice_v2(&d, c2); }
	case 150: { CUcontext cc = NULL; CUgreenCtx g = (CUgreenCtx)1; cuStreamCreate(&s, 0);
		r = cuStreamGetCtx_v2(s, &cc, &g); return r ? r : (CUresult)(1000 + (cc == ctx) * 10 + (g == NULL)); }
	case 151: { CUcontext cc = NULL; CUgreenCtx g = (CUgreenCtx)1;
		r = cuStreamGetCtx_v2(NULL, &cc, &g); return r ? r : (CUresult)(1000 + (cc == ctx) * 10 + (g == NULL)); }
	case 152: cuStreamCreate(&s, 0); return cuStreamGetCtx_v2(s, NULL, NULL);
	case 153: { CUcontext cc; cuStreamCreate(&s, 0); return cuStreamGetCtx_v2(s, &cc, NULL); }
	case 154: { CUgreenCtx g; cuStreamCreate(&s, 0); return cuStreamGetCtx_v2(s, NULL, &g); }
	case 155: { CUcontext cc; CUgreenCtx g; cuStreamCreate(&s, 0); cuStreamDestroy(s); return cuStreamGetCtx_v2(s, &cc, &g); }
	case 156: { CUcontext cc = NULL; CUgreenCtx g = (CUgreenCtx)1;
		r = cuStreamGetCtx_v2_ptsz(NULL, &cc, &g); return r ? r : (CUresult)(1000 + (cc == ctx) * 10 + (g == NULL)); }
	case 157: { CUcontext cc = NULL; CUgreenCtx g = (CUgreenCtx)1;
		r = cuStreamGetCtx_v2(CU_STREAM_PER_THREAD, &cc, &g); return r ? r : (CUresult)(1000 + (cc == ctx) * 10 + (g == NULL)); }
	case 158: { CUcontext cc; CUgreenCtx g; cuCtxSetCurrent(NULL); return cuStreamGetCtx_v2(NULL, &cc, &g); }
	}
	return (CUresult)-1;
}

int main(int argc, char **argv)
{
	int n;
	if (argc > 1) {
		setup();
		n = atoi(argv[1]);
		CUresult r = run(n);
		if ((int)r == -1) return 100;
		printf("%d %d\n", n, (int)r);
		fflush(stdout);
		return 0;
	}
	for (n = 0; n < 160; n++) {
		char a[16];
		pid_t p;
		int st;
		snprintf(a, sizeof(a), "%d", n);
		fflush(stdout);
		p = fork();
		if (!p) { execl("/proc/self/exe", argv[0], a, (char *)NULL); _exit(127); }
		waitpid(p, &st, 0);
		if (WIFSIGNALED(st)) printf("%d signal %d\n", n, WTERMSIG(st));
		else if (WEXITSTATUS(st) && WEXITSTATUS(st) != 100) printf("%d exit %d\n", n, WEXITSTATUS(st));
		fflush(stdout);
	}
	return 0;
}
