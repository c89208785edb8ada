// SPDX-License-Identifier: MIT
// The runtime's smaller calls, each with what it answers on an H100:
// choosing and initialising a device, a kernel's name, parameters, driver
// function and kernel handle, stream ids and attributes, the peer
// attributes of a device with itself, the persisting L2 reset, the shared
// memory configuration calls CUDA 13 keeps, and the RDMA flush.
#include "rt.h"

#include <cuda_profiler_api.h>

// The shared memory configuration calls are deprecated; their answers are
// part of what this checks.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

__global__ void scale(float *p, float by, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] *= by;
}

// Prints @what's answer and clears the last error it left.
static void say(const char *what, cudaError_t e)
{
	printf("%s: %s; last %s\n", what, cudaGetErrorName(e),
	       cudaGetErrorName(cudaGetLastError()));
}

static void device_choice(void)
{
	cudaDeviceProp prop;
	int dev = -1;

	memset(&prop, 0, sizeof(prop));
	prop.major = 7;
	prop.minor = 5;
	say("cudaChooseDevice(7.5)", cudaChooseDevice(&dev, &prop));
	printf("chosen device: %d\n", dev);
	prop.major = 99;
	dev = -1;
	say("cudaChooseDevice(99.5)", cudaChooseDevice(&dev, &prop));
	printf("chosen device: %d\n", dev);
	say("cudaChooseDevice(NULL device)", cudaChooseDevice(NULL, &prop));
	say("cudaChooseDevice(NULL prop)", cudaChooseDevice(&dev, NULL));
	say("cudaInitDevice(0)", cudaInitDevice(0, 0, 0));
	say("cudaInitDevice(99)", cudaInitDevice(99, 0, 0));
	say("cudaInitDevice(-1)", cudaInitDevice(-1, 0, 0));
	say("cudaInitDevice(0, flags 2)", cudaInitDevice(0, 0, 2));
	say("cudaInitDevice(0, blocking sync, valid)",
	    cudaInitDevice(0, cudaDeviceScheduleBlockingSync,
			   cudaInitDeviceFlagsAreValid));
	unsigned int flags = 0;
	say("cudaGetDeviceFlags", cudaGetDeviceFlags(&flags));
	printf("device flags: %#x\n", flags);
	say("cudaInitDevice(0, bad device flags, valid)",
	    cudaInitDevice(0, 0x100, cudaInitDeviceFlagsAreValid));
}

static void functions(void)
{
	const char *name = NULL;
	size_t off = 0, size = 0;
	cudaFunction_t fn = NULL;
	cudaKernel_t k = NULL;
	int x;

	say("cudaFuncGetName", cudaFuncGetName(&name, (const void *)scale));
	printf("name: %s\n", name ? name : "(null)");
	say("cudaFuncGetName(not a kernel)",
	    cudaFuncGetName(&name, (const void *)device_choice));
	say("cudaFuncGetName(NULL name)",
	    cudaFuncGetName(NULL, (const void *)scale));
	for (int i = 0; i < 4; i++) {
		char what[64];

		off = size = 99;
		snprintf(what, sizeof(what), "cudaFuncGetParamInfo(%d)", i);
		say(what, cudaFuncGetParamInfo((const void *)scale, i, &off,
					       &size));
		printf("param %d: offset %zu, size %zu\n", i, off, size);
	}
	say("cudaFuncGetParamInfo(NULL offset)",
	    cudaFuncGetParamInfo((const void *)scale, 0, NULL, &size));
	say("cudaGetFuncBySymbol", cudaGetFuncBySymbol(&fn,
						       (const void *)scale));
	printf("a driver function: %d\n", fn != NULL);
	say("cudaGetFuncBySymbol(not a kernel)",
	    cudaGetFuncBySymbol(&fn, (const void *)&x));
	say("cudaGetFuncBySymbol(NULL)",
	    cudaGetFuncBySymbol(NULL, (const void *)scale));
	say("cudaGetKernel", cudaGetKernel(&k, (const void *)scale));
	printf("a kernel handle: %d\n", k != NULL);
	say("cudaGetKernel(not a kernel)",
	    cudaGetKernel(&k, (const void *)&x));
	say("cudaGetKernel(NULL)", cudaGetKernel(NULL, (const void *)scale));
	// No function at all, to each call that names one.
	struct cudaFuncAttributes fa;
	say("cudaFuncGetAttributes(no function)",
	    cudaFuncGetAttributes(&fa, NULL));
	say("cudaFuncSetAttribute(no function)",
	    cudaFuncSetAttribute(NULL,
		cudaFuncAttributeMaxDynamicSharedMemorySize, 1024));
	say("cudaFuncSetCacheConfig(no function)",
	    cudaFuncSetCacheConfig(NULL, cudaFuncCachePreferL1));
	say("cudaFuncGetName(no function)", cudaFuncGetName(&name, NULL));
	say("cudaFuncGetParamInfo(no function)",
	    cudaFuncGetParamInfo(NULL, 0, &off, &size));
	say("cudaGetFuncBySymbol(no function)",
	    cudaGetFuncBySymbol(&fn, NULL));
	say("cudaGetKernel(no function)", cudaGetKernel(&k, NULL));
	say("cudaFuncSetSharedMemConfig(no function)",
	    cudaFuncSetSharedMemConfig(NULL, cudaSharedMemBankSizeFourByte));
	cudaGetKernel(&k, (const void *)scale);
	say("cudaKernelSetAttributeForDevice(max dynamic shared 1024)",
	    cudaKernelSetAttributeForDevice(k,
		cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, 0));
	say("cudaKernelSetAttributeForDevice(device 99)",
	    cudaKernelSetAttributeForDevice(k,
		cudaFuncAttributeMaxDynamicSharedMemorySize, 1024, 99));
	say("cudaKernelSetAttributeForDevice(attr 99)",
	    cudaKernelSetAttributeForDevice(k, (cudaFuncAttribute)99, 1, 0));

	// The handle launches as the stub does.
	float *d, h[64];
	void *args[3];
	float by = 3;
	int n = 64;

	TRY(cudaMalloc((void **)&d, sizeof(h)));
	for (int i = 0; i < 64; i++)
		h[i] = (float)i;
	TRY(cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice));
	args[0] = &d;
	args[1] = &by;
	args[2] = &n;
	say("cudaLaunchKernel(kernel handle)",
	    cudaLaunchKernel((const void *)k, dim3(1), dim3(64), args, 0, 0));
	TRY(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
	int bad = 0;
	for (int i = 0; i < 64; i++)
		bad += h[i] != 3.0f * i;
	EXPECT_TRUE(bad == 0);
	printf("launched by its kernel handle: %d wrong\n", bad);
	TRY(cudaFree(d));
}

static void streams(void)
{
	unsigned long long a = 0, b = 0, z = 0;
	cudaStream_t s1, s2;
	cudaStreamAttrValue v;

	TRY(cudaStreamCreate(&s1));
	TRY(cudaStreamCreate(&s2));
	say("cudaStreamGetId", cudaStreamGetId(s1, &a));
	cudaStreamGetId(s2, &b);
	printf("two streams' ids differ: %d\n", a != b && a && b);
	say("cudaStreamGetId(NULL stream)", cudaStreamGetId(0, &z));
	say("cudaStreamGetId(per-thread)",
	    cudaStreamGetId(cudaStreamPerThread, &z));
	say("cudaStreamGetId(NULL id)", cudaStreamGetId(s1, NULL));
	memset(&v, 0, sizeof(v));
	say("cudaStreamGetAttribute(priority)",
	    cudaStreamGetAttribute(s1, cudaLaunchAttributePriority, &v));
	printf("priority: %d\n", v.priority);
	v.priority = -1;
	say("cudaStreamSetAttribute(priority -1)",
	    cudaStreamSetAttribute(s1, cudaLaunchAttributePriority, &v));
	memset(&v, 0, sizeof(v));
	cudaStreamGetAttribute(s1, cudaLaunchAttributePriority, &v);
	printf("priority now: %d\n", v.priority);
	say("cudaStreamCopyAttributes",
	    cudaStreamCopyAttributes(s2, s1));
	memset(&v, 0, sizeof(v));
	cudaStreamGetAttribute(s2, cudaLaunchAttributePriority, &v);
	printf("copied priority: %d\n", v.priority);
	memset(&v, 0, sizeof(v));
	say("cudaStreamGetAttribute(synchronization policy)",
	    cudaStreamGetAttribute(s1, cudaLaunchAttributeSynchronizationPolicy,
				   &v));
	printf("synchronization policy: %d\n", (int)v.syncPolicy);
	say("cudaStreamGetAttribute(attr 99)",
	    cudaStreamGetAttribute(s1, (cudaStreamAttrID)99, &v));
	// (A NULL value kills NVIDIA's runtime: SIGSEGV.)
	TRY(cudaStreamDestroy(s1));
	TRY(cudaStreamDestroy(s2));
}

static void device_calls(void)
{
	cudaSharedMemConfig c = (cudaSharedMemConfig)-1;
	int v = -1;

	say("cudaDeviceGetP2PAttribute(0, 0, access supported)",
	    cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0,
				      0));
	say("cudaDeviceGetP2PAttribute(0, 99)",
	    cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0,
				      99));
	say("cudaDeviceGetP2PAttribute(NULL)",
	    cudaDeviceGetP2PAttribute(NULL, cudaDevP2PAttrAccessSupported, 0,
				      0));
	say("cudaCtxResetPersistingL2Cache", cudaCtxResetPersistingL2Cache());
	say("cudaDeviceGetSharedMemConfig", cudaDeviceGetSharedMemConfig(&c));
	printf("shared memory configuration: %d\n", (int)c);
	say("cudaDeviceSetSharedMemConfig(eight bytes)",
	    cudaDeviceSetSharedMemConfig(cudaSharedMemBankSizeEightByte));
	say("cudaDeviceSetSharedMemConfig(9)",
	    cudaDeviceSetSharedMemConfig((cudaSharedMemConfig)9));
	say("cudaFuncSetSharedMemConfig(four bytes)",
	    cudaFuncSetSharedMemConfig((const void *)scale,
				       cudaSharedMemBankSizeFourByte));
	say("cudaFuncSetSharedMemConfig(not a kernel)",
	    cudaFuncSetSharedMemConfig((const void *)say,
				       cudaSharedMemBankSizeFourByte));
	say("cudaDeviceFlushGPUDirectRDMAWrites",
	    cudaDeviceFlushGPUDirectRDMAWrites(
		cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
		cudaFlushGPUDirectRDMAWritesToOwner));
	say("cudaProfilerStart", cudaProfilerStart());
	say("cudaProfilerStop", cudaProfilerStop());
}

int main(void)
{
	// Line by line, so that a call that kills NVIDIA's runtime shows.
	setvbuf(stdout, NULL, _IOLBF, 0);
	rt_check_library();
	device_choice();
	functions();
	streams();
	device_calls();
	return rt_result();
}
