// SPDX-License-Identifier: MIT
// Bad input to every runtime entry point vgpu implements, as a table: each
// case makes one call and prints what it returned and what
// cudaGetLastError answered after it, twice (the second read shows the
// first cleared it). Then the last-error rules: a later error replaces an
// earlier one, a successful call leaves it, and each host thread has its
// own (that cudaPeekAtLastError does not clear, rt_vectoradd shows).
//
// Built with -DPROBE, each case prints its name and flushes stdout before
// its call and says whether it left an error in the context; cases named
// in PROBE_SKIP are left out, and an argument runs one section alone. So
// an H100 found the bad inputs that kill NVIDIA's runtime. Left out
// for that reason (an H100 run died of SIGSEGV in them):
//   cudaLaunchKernelExC with a NULL configuration (tests/unit/test_rt.c);
//   cudaMemcpy from a freed allocation with cudaMemcpyDefault (the runtime
//   takes an address no device knows for the host's and reads it);
//   cudaGetSymbolAddress and cudaGetSymbolSize with a NULL output,
//   cudaStreamGetDevice with a NULL output, and
//   cudaGetDriverEntryPointByVersion with a NULL symbol or a NULL output
//   (tests/unit/test_rt.c checks that vgpu's refuse them).
// And left out as an H100 answered it: cudaMemset(d, 0, SIZE_MAX) answers
// cudaSuccess there, and the fill then ends the context with
// cudaErrorIllegalAddress.
#include <pthread.h>
#include <stdint.h>

#include "rt.h"

#ifdef PROBE
#define PROBE_NAME(name) do { \
	printf("probe %s\n", name); \
	fflush(stdout); \
} while (0)
// The cases named in PROBE_SKIP, separated by '|', are left out.
#define PROBE_SKIPS(name) probe_skips(name)
static bool probe_skips(const char *name)
{
	const char *list = getenv("PROBE_SKIP"), *p;
	size_t n = strlen(name);

	for (p = list ? strstr(list, name) : NULL; p; p = strstr(p + 1, name))
		if ((p == list || p[-1] == '|') && (!p[n] || p[n] == '|'))
			return true;
	return false;
}
// After the call: did it leave an error in the context?
#define PROBE_AFTER(name) do { \
	cudaError_t _s = cudaDeviceSynchronize(); \
	if (_s != cudaSuccess) \
		printf("probe %s left %s in the context\n", name, \
		       cudaGetErrorName(_s)); \
	cudaGetLastError(); \
} while (0)
#else
#define PROBE_NAME(name) do { } while (0)
#define PROBE_SKIPS(name) false
#define PROBE_AFTER(name) do { } while (0)
#endif

// One call with bad input: its code, then the last error read twice.
#define CASE(name, ...) do { \
	if (PROBE_SKIPS(name)) \
		break; \
	PROBE_NAME(name); \
	cudaError_t _e = (__VA_ARGS__); \
	cudaError_t _l1 = cudaGetLastError(); \
	cudaError_t _l2 = cudaGetLastError(); \
	printf("%s: %s; last %s; then %s\n", name, cudaGetErrorName(_e), \
	       cudaGetErrorName(_l1), cudaGetErrorName(_l2)); \
	PROBE_AFTER(name); \
} while (0)

// A <<<>>> launch answers nothing itself: the last error is its code.
#define LAUNCH(name, ...) CASE(name, ((__VA_ARGS__), cudaPeekAtLastError()))

__device__ int dev_var[4];
__constant__ float const_var[2];

__global__ void noop(void)
{
}

__global__ void store(int *p, int v)
{
	p[threadIdx.x] = v;
}

static void not_a_kernel(void)
{
}

static void CUDART_CB callback(cudaStream_t, cudaError_t, void *)
{
}

static void CUDART_CB host_fn(void *)
{
}

static int count;

static void device_cases(void)
{
	struct cudaDeviceProp prop;
	enum cudaFuncCache cache;
	unsigned int flags;
	char bus[64];
	size_t value;
	int v, dev;

	CASE("cudaGetDeviceCount(NULL)", cudaGetDeviceCount(NULL));
	CASE("cudaSetDevice(-1)", cudaSetDevice(-1));
	CASE("cudaSetDevice(count)", cudaSetDevice(count));
	CASE("cudaSetDevice(INT_MAX)", cudaSetDevice(INT_MAX));
	CASE("cudaGetDevice(NULL)", cudaGetDevice(NULL));
	CASE("cudaGetDeviceProperties(NULL)", cudaGetDeviceProperties(NULL, 0));
	CASE("cudaGetDeviceProperties(-1)", cudaGetDeviceProperties(&prop, -1));
	CASE("cudaGetDeviceProperties(count)",
	     cudaGetDeviceProperties(&prop, count));
	CASE("cudaGetDeviceProperties(NULL, -1)",
	     cudaGetDeviceProperties(NULL, -1));
	CASE("cudaDeviceGetAttribute(NULL)",
	     cudaDeviceGetAttribute(NULL, cudaDevAttrWarpSize, 0));
	CASE("cudaDeviceGetAttribute(attr 9999)",
	     cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)9999, 0));
	CASE("cudaDeviceGetAttribute(attr 0)",
	     cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)0, 0));
	CASE("cudaDeviceGetAttribute(attr -1)",
	     cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)-1, 0));
	CASE("cudaDeviceGetAttribute(device -1)",
	     cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, -1));
	CASE("cudaDeviceGetAttribute(device count)",
	     cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, count));
	CASE("cudaDeviceGetAttribute(attr 9999, device -1)",
	     cudaDeviceGetAttribute(&v, (enum cudaDeviceAttr)9999, -1));
	CASE("cudaDeviceGetAttribute(NULL, device -1)",
	     cudaDeviceGetAttribute(NULL, cudaDevAttrWarpSize, -1));
	CASE("cudaDeviceGetPCIBusId(NULL)",
	     cudaDeviceGetPCIBusId(NULL, sizeof(bus), 0));
	CASE("cudaDeviceGetPCIBusId(len 0)", cudaDeviceGetPCIBusId(bus, 0, 0));
	CASE("cudaDeviceGetPCIBusId(len -1)",
	     cudaDeviceGetPCIBusId(bus, -1, 0));
	CASE("cudaDeviceGetPCIBusId(len 4)", cudaDeviceGetPCIBusId(bus, 4, 0));
	CASE("cudaDeviceGetPCIBusId(device -1)",
	     cudaDeviceGetPCIBusId(bus, sizeof(bus), -1));
	CASE("cudaDeviceGetPCIBusId(device count)",
	     cudaDeviceGetPCIBusId(bus, sizeof(bus), count));
	CASE("cudaDeviceGetByPCIBusId(NULL device)",
	     cudaDeviceGetByPCIBusId(NULL, "0000:00:00.0"));
	CASE("cudaDeviceGetByPCIBusId(NULL id)",
	     cudaDeviceGetByPCIBusId(&dev, NULL));
	CASE("cudaDeviceGetByPCIBusId(\"\")", cudaDeviceGetByPCIBusId(&dev, ""));
	CASE("cudaDeviceGetByPCIBusId(\"garbage\")",
	     cudaDeviceGetByPCIBusId(&dev, "garbage"));
	CASE("cudaDeviceGetByPCIBusId(\"ffff:ff:1f.7\")",
	     cudaDeviceGetByPCIBusId(&dev, "ffff:ff:1f.7"));
	CASE("cudaDeviceCanAccessPeer(NULL)",
	     cudaDeviceCanAccessPeer(NULL, 0, 0));
	CASE("cudaDeviceCanAccessPeer(device -1)",
	     cudaDeviceCanAccessPeer(&v, -1, 0));
	CASE("cudaDeviceCanAccessPeer(peer -1)",
	     cudaDeviceCanAccessPeer(&v, 0, -1));
	CASE("cudaDeviceCanAccessPeer(device count)",
	     cudaDeviceCanAccessPeer(&v, count, 0));
	CASE("cudaDeviceCanAccessPeer(peer count)",
	     cudaDeviceCanAccessPeer(&v, 0, count));
	v = -1;
	CASE("cudaDeviceCanAccessPeer(itself)", cudaDeviceCanAccessPeer(&v, 0, 0));
	printf("cudaDeviceCanAccessPeer(itself) value: %d\n", v);
	CASE("cudaDeviceEnablePeerAccess(-1)", cudaDeviceEnablePeerAccess(-1, 0));
	CASE("cudaDeviceEnablePeerAccess(count)",
	     cudaDeviceEnablePeerAccess(count, 0));
	CASE("cudaDeviceEnablePeerAccess(itself)",
	     cudaDeviceEnablePeerAccess(0, 0));
	CASE("cudaDeviceEnablePeerAccess(itself, flags 1)",
	     cudaDeviceEnablePeerAccess(0, 1));
	CASE("cudaDeviceEnablePeerAccess(-1, flags 1)",
	     cudaDeviceEnablePeerAccess(-1, 1));
	CASE("cudaDeviceDisablePeerAccess(-1)", cudaDeviceDisablePeerAccess(-1));
	CASE("cudaDeviceDisablePeerAccess(count)",
	     cudaDeviceDisablePeerAccess(count));
	CASE("cudaDeviceDisablePeerAccess(itself)",
	     cudaDeviceDisablePeerAccess(0));
	CASE("cudaDeviceSetLimit(99)",
	     cudaDeviceSetLimit((enum cudaLimit)99, 0));
	CASE("cudaDeviceSetLimit(-1)",
	     cudaDeviceSetLimit((enum cudaLimit)-1, 0));
	CASE("cudaDeviceSetLimit(printf FIFO 0)",
	     cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 0));
	CASE("cudaDeviceSetLimit(L2 fetch granularity 1000)",
	     cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 1000));
	CASE("cudaDeviceSetLimit(persisting L2 1<<60)",
	     cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize,
				(size_t)1 << 60));
	CASE("cudaDeviceGetLimit(NULL)",
	     cudaDeviceGetLimit(NULL, cudaLimitStackSize));
	CASE("cudaDeviceGetLimit(99)",
	     cudaDeviceGetLimit(&value, (enum cudaLimit)99));
	CASE("cudaDeviceGetLimit(NULL, 99)",
	     cudaDeviceGetLimit(NULL, (enum cudaLimit)99));
	CASE("cudaDeviceSetCacheConfig(9)",
	     cudaDeviceSetCacheConfig((enum cudaFuncCache)9));
	CASE("cudaDeviceSetCacheConfig(-1)",
	     cudaDeviceSetCacheConfig((enum cudaFuncCache)-1));
	CASE("cudaDeviceGetCacheConfig(NULL)", cudaDeviceGetCacheConfig(NULL));
	CASE("cudaDeviceGetCacheConfig", cudaDeviceGetCacheConfig(&cache));
	CASE("cudaSetDeviceFlags(0x100)", cudaSetDeviceFlags(0x100));
	CASE("cudaSetDeviceFlags(spin|yield)",
	     cudaSetDeviceFlags(cudaDeviceScheduleSpin |
				cudaDeviceScheduleYield));
	CASE("cudaSetDeviceFlags(~0)", cudaSetDeviceFlags(~0u));
	CASE("cudaGetDeviceFlags(NULL)", cudaGetDeviceFlags(NULL));
	CASE("cudaGetDeviceFlags", cudaGetDeviceFlags(&flags));
	printf("cudaGetDeviceFlags value: %#x\n", flags);
	CASE("cudaDeviceGetStreamPriorityRange(NULL, NULL)",
	     cudaDeviceGetStreamPriorityRange(NULL, NULL));
	CASE("cudaDeviceSynchronize", cudaDeviceSynchronize());
}

static void memory_cases(void)
{
	struct cudaPointerAttributes attr;
	void *d, *p, *h, *freed, *pinned, *dv;
	char stack[64];
	size_t pitch;

	TRY(cudaMalloc(&d, 4096));
	TRY(cudaMalloc(&freed, 4096));
	TRY(cudaFree(freed));
	TRY(cudaMallocHost(&pinned, 4096));
	h = aligned_alloc(4096, 8192);

	CASE("cudaMalloc(NULL)", cudaMalloc(NULL, 16));
	CASE("cudaMalloc(NULL, 0)", cudaMalloc(NULL, 0));
	p = (void *)1;
	CASE("cudaMalloc(0)", cudaMalloc(&p, 0));
	printf("cudaMalloc(0) value: %s\n", p ? "non-NULL" : "NULL");
	p = (void *)1;
	CASE("cudaMalloc(1<<60)", cudaMalloc(&p, (size_t)1 << 60));
	printf("cudaMalloc(1<<60) value: %s\n", p == (void *)1 ? "unchanged" :
	       p ? "non-NULL" : "NULL");
	CASE("cudaMalloc(SIZE_MAX)", cudaMalloc(&p, SIZE_MAX));
	CASE("cudaFree(NULL)", cudaFree(NULL));
	CASE("cudaFree(freed)", cudaFree(freed));
	CASE("cudaFree(inside)", cudaFree((char *)d + 16));
	CASE("cudaFree(stack)", cudaFree(stack));
	CASE("cudaFree(malloc)", cudaFree(h));
	CASE("cudaFree(page-locked)", cudaFree(pinned));
	CASE("cudaFree(0x1000)", cudaFree((void *)0x1000));
	CASE("cudaMallocHost(NULL)", cudaMallocHost(NULL, 16));
	p = (void *)1;
	CASE("cudaMallocHost(0)", cudaMallocHost(&p, 0));
	printf("cudaMallocHost(0) value: %s\n", p ? "non-NULL" : "NULL");
	CASE("cudaHostAlloc(NULL)", cudaHostAlloc(NULL, 16, 0));
	p = (void *)1;
	CASE("cudaHostAlloc(flags 0x80)", cudaHostAlloc(&p, 16, 0x80));
	printf("cudaHostAlloc(flags 0x80) value: %s\n", p ? "non-NULL" : "NULL");
	CASE("cudaHostAlloc(flags ~0)", cudaHostAlloc(&p, 16, ~0u));
	CASE("cudaFreeHost(NULL)", cudaFreeHost(NULL));
	CASE("cudaFreeHost(device)", cudaFreeHost(d));
	CASE("cudaFreeHost(stack)", cudaFreeHost(stack));
	CASE("cudaFreeHost(malloc)", cudaFreeHost(h));
	CASE("cudaFreeHost(inside page-locked)",
	     cudaFreeHost((char *)pinned + 16));
	CASE("cudaHostRegister(NULL)", cudaHostRegister(NULL, 4096, 0));
	CASE("cudaHostRegister(size 0)", cudaHostRegister(h, 0, 0));
	CASE("cudaHostRegister(flags 0x100)", cudaHostRegister(h, 4096, 0x100));
	CASE("cudaHostRegister(device)", cudaHostRegister(d, 4096, 0));
	CASE("cudaHostRegister(page-locked)",
	     cudaHostRegister(pinned, 4096, 0));
	CASE("cudaHostRegister", cudaHostRegister(h, 4096, 0));
	CASE("cudaHostRegister(again)", cudaHostRegister(h, 4096, 0));
	CASE("cudaHostRegister(overlapping)",
	     cudaHostRegister((char *)h + 4096 - 64, 4096, 0));
	CASE("cudaHostUnregister(inside)", cudaHostUnregister((char *)h + 64));
	CASE("cudaHostUnregister", cudaHostUnregister(h));
	CASE("cudaHostUnregister(again)", cudaHostUnregister(h));
	CASE("cudaHostUnregister(NULL)", cudaHostUnregister(NULL));
	CASE("cudaHostUnregister(device)", cudaHostUnregister(d));
	CASE("cudaHostUnregister(page-locked)", cudaHostUnregister(pinned));
	CASE("cudaHostUnregister(stack)", cudaHostUnregister(stack));
	CASE("cudaHostGetDevicePointer(NULL)",
	     cudaHostGetDevicePointer(NULL, pinned, 0));
	dv = (void *)1;
	CASE("cudaHostGetDevicePointer(flags 1)",
	     cudaHostGetDevicePointer(&dv, pinned, 1));
	printf("cudaHostGetDevicePointer(flags 1) value: %s\n",
	       dv ? "non-NULL" : "NULL");
	dv = (void *)1;
	CASE("cudaHostGetDevicePointer(malloc)",
	     cudaHostGetDevicePointer(&dv, h, 0));
	printf("cudaHostGetDevicePointer(malloc) value: %s\n",
	       dv ? "non-NULL" : "NULL");
	CASE("cudaHostGetDevicePointer(device)",
	     cudaHostGetDevicePointer(&dv, d, 0));
	CASE("cudaHostGetDevicePointer(NULL host)",
	     cudaHostGetDevicePointer(&dv, NULL, 0));
	CASE("cudaHostGetDevicePointer(stack)",
	     cudaHostGetDevicePointer(&dv, stack, 0));
	CASE("cudaPointerGetAttributes(NULL)",
	     cudaPointerGetAttributes(NULL, d));
	CASE("cudaPointerGetAttributes(stack)",
	     cudaPointerGetAttributes(&attr, stack));
	printf("cudaPointerGetAttributes(stack) value: type %d device %d\n",
	       (int)attr.type, attr.device);
	CASE("cudaPointerGetAttributes(freed)",
	     cudaPointerGetAttributes(&attr, freed));
	printf("cudaPointerGetAttributes(freed) value: type %d device %d\n",
	       (int)attr.type, attr.device);
	CASE("cudaPointerGetAttributes(NULL pointer)",
	     cudaPointerGetAttributes(&attr, NULL));
	printf("cudaPointerGetAttributes(NULL pointer) value: type %d "
	       "device %d\n", (int)attr.type, attr.device);
	CASE("cudaPointerGetAttributes(inside)",
	     cudaPointerGetAttributes(&attr, (char *)d + 100));
	printf("cudaPointerGetAttributes(inside) value: type %d device %d\n",
	       (int)attr.type, attr.device);
	CASE("cudaMallocPitch(NULL)", cudaMallocPitch(NULL, &pitch, 16, 16));
	CASE("cudaMallocPitch(NULL pitch)", cudaMallocPitch(&p, NULL, 16, 16));
	p = (void *)1;
	CASE("cudaMallocPitch(0 x 0)", cudaMallocPitch(&p, &pitch, 0, 0));
	CASE("cudaMallocPitch(1<<40 x 1<<40)",
	     cudaMallocPitch(&p, &pitch, (size_t)1 << 40, (size_t)1 << 40));
	CASE("cudaMemGetInfo(NULL, NULL)", cudaMemGetInfo(NULL, NULL));

	TRY(cudaFree(d));
	TRY(cudaFreeHost(pinned));
	free(h);
}

static void copy_cases(void)
{
	char h[256] = { 0 }, stack[64];
	void *d, *freed, *pitched;
	size_t pitch;

	TRY(cudaMalloc(&d, 4096));
	// Large enough to be unmapped when freed, not kept for reuse.
	TRY(cudaMalloc(&freed, 64 << 20));
	TRY(cudaFree(freed));
	TRY(cudaMallocPitch(&pitched, &pitch, 64, 4));

	CASE("cudaMemcpy(kind 7)", cudaMemcpy(d, h, 16, (cudaMemcpyKind)7));
	CASE("cudaMemcpy(kind 7, 0 bytes)",
	     cudaMemcpy(d, h, 0, (cudaMemcpyKind)7));
	CASE("cudaMemcpy(kind -1)", cudaMemcpy(d, h, 16, (cudaMemcpyKind)-1));
	CASE("cudaMemcpy(NULL dst)",
	     cudaMemcpy(NULL, h, 16, cudaMemcpyHostToDevice));
	CASE("cudaMemcpy(NULL src)",
	     cudaMemcpy(d, NULL, 16, cudaMemcpyHostToDevice));
	CASE("cudaMemcpy(NULL, NULL, 0)",
	     cudaMemcpy(NULL, NULL, 0, cudaMemcpyHostToDevice));
	CASE("cudaMemcpy(from freed)",
	     cudaMemcpy(h, freed, 16, cudaMemcpyDeviceToHost));
	CASE("cudaMemcpy(to freed)",
	     cudaMemcpy(freed, h, 16, cudaMemcpyHostToDevice));
	CASE("cudaMemcpy(past the end)",
	     cudaMemcpy(d, d, 8192, cudaMemcpyDeviceToDevice));
	CASE("cudaMemcpy(device to device, host pointers)",
	     cudaMemcpy(h, stack, 16, cudaMemcpyDeviceToDevice));
	CASE("cudaMemcpy(host to host, device pointers)",
	     cudaMemcpy(d, (char *)d + 64, 16, cudaMemcpyHostToHost));
	CASE("cudaMemcpy(host to device, from device)",
	     cudaMemcpy(d, (char *)d + 64, 16, cudaMemcpyHostToDevice));
	CASE("cudaMemcpy(device to host, to device)",
	     cudaMemcpy(d, (char *)d + 64, 16, cudaMemcpyDeviceToHost));
	CASE("cudaMemcpyAsync(kind 7)",
	     cudaMemcpyAsync(d, h, 16, (cudaMemcpyKind)7, 0));
	CASE("cudaMemcpyAsync(NULL dst)",
	     cudaMemcpyAsync(NULL, h, 16, cudaMemcpyHostToDevice, 0));
	CASE("cudaMemcpyAsync(from freed)",
	     cudaMemcpyAsync(h, freed, 16, cudaMemcpyDeviceToHost, 0));
	CASE("cudaMemset(NULL)", cudaMemset(NULL, 0, 16));
	CASE("cudaMemset(NULL, 0 bytes)", cudaMemset(NULL, 0, 0));
	CASE("cudaMemset(freed)", cudaMemset(freed, 0, 16));
	CASE("cudaMemset(past the end)", cudaMemset(d, 0, 8192));
	CASE("cudaMemset(stack)", cudaMemset(stack, 0, 16));
	CASE("cudaMemsetAsync(NULL)", cudaMemsetAsync(NULL, 0, 16, 0));
	CASE("cudaMemsetAsync(freed)", cudaMemsetAsync(freed, 0, 16, 0));
	CASE("cudaMemcpy2D(width > pitch)",
	     cudaMemcpy2D(pitched, 16, h, 16, 32, 2, cudaMemcpyHostToDevice));
	CASE("cudaMemcpy2D(width > source pitch)",
	     cudaMemcpy2D(pitched, pitch, h, 16, 32, 2,
			  cudaMemcpyHostToDevice));
	CASE("cudaMemcpy2D(kind 7)",
	     cudaMemcpy2D(pitched, pitch, h, 64, 64, 2, (cudaMemcpyKind)7));
	CASE("cudaMemcpy2D(height 0)",
	     cudaMemcpy2D(pitched, pitch, h, 64, 64, 0,
			  cudaMemcpyHostToDevice));
	CASE("cudaMemcpy2D(width 0)",
	     cudaMemcpy2D(pitched, pitch, h, 64, 0, 2,
			  cudaMemcpyHostToDevice));
	CASE("cudaMemcpy2D(NULL dst)",
	     cudaMemcpy2D(NULL, pitch, h, 64, 64, 2, cudaMemcpyHostToDevice));
	CASE("cudaMemcpy2D(past the end)",
	     cudaMemcpy2D(pitched, pitch, h, 64, 64, 64,
			  cudaMemcpyHostToDevice));
	CASE("cudaMemcpy2DAsync(width > pitch)",
	     cudaMemcpy2DAsync(pitched, 16, h, 16, 32, 2,
			       cudaMemcpyHostToDevice, 0));
	CASE("cudaMemcpy2DAsync(kind 7)",
	     cudaMemcpy2DAsync(pitched, pitch, h, 64, 64, 2,
			       (cudaMemcpyKind)7, 0));
	CASE("cudaMemset2D(width > pitch)", cudaMemset2D(pitched, 16, 0, 32, 2));
	CASE("cudaMemset2D(width > pitch, one row)",
	     cudaMemset2D(pitched, 16, 0, 32, 1));
	CASE("cudaMemset2D(NULL)", cudaMemset2D(NULL, pitch, 0, 64, 2));
	CASE("cudaMemset2D(height 0)", cudaMemset2D(pitched, pitch, 0, 64, 0));
	CASE("cudaMemset2D(past the end)",
	     cudaMemset2D(pitched, pitch, 0, 64, 64));
	CASE("cudaMemset2DAsync(NULL)",
	     cudaMemset2DAsync(NULL, pitch, 0, 64, 2, 0));
	CASE("cudaMemcpyPeer(dst device -1)", cudaMemcpyPeer(d, -1, d, 0, 16));
	CASE("cudaMemcpyPeer(src device count)",
	     cudaMemcpyPeer(d, 0, d, count, 16));
	CASE("cudaMemcpyPeer(dst device -1, 0 bytes)",
	     cudaMemcpyPeer(d, -1, d, 0, 0));
	CASE("cudaMemcpyPeer(NULL dst)", cudaMemcpyPeer(NULL, 0, d, 0, 16));
	CASE("cudaMemcpyPeer(from freed)",
	     cudaMemcpyPeer(d, 0, freed, 0, 16));
	CASE("cudaMemcpyPeerAsync(dst device -1)",
	     cudaMemcpyPeerAsync(d, -1, d, 0, 16, 0));
	CASE("cudaMemcpyPeerAsync(NULL dst)",
	     cudaMemcpyPeerAsync(NULL, 0, d, 0, 16, 0));
	CASE("cudaDeviceSynchronize", cudaDeviceSynchronize());

	TRY(cudaFree(pitched));
	TRY(cudaFree(d));
}

static void symbol_cases(void)
{
	int h[8] = { 0 }, not_symbol = 0;
	size_t size;
	void *p;

	CASE("cudaMemcpyToSymbol(not a symbol)",
	     cudaMemcpyToSymbol(&not_symbol, h, 4));
	CASE("cudaMemcpyToSymbol(NULL symbol)", cudaMemcpyToSymbol(NULL, h, 4));
	CASE("cudaMemcpyToSymbol(too large)",
	     cudaMemcpyToSymbol(dev_var, h, 20));
	CASE("cudaMemcpyToSymbol(offset past the end)",
	     cudaMemcpyToSymbol(dev_var, h, 4, 16));
	CASE("cudaMemcpyToSymbol(offset + count past the end)",
	     cudaMemcpyToSymbol(dev_var, h, 8, 12));
	CASE("cudaMemcpyToSymbol(0 bytes past the end)",
	     cudaMemcpyToSymbol(dev_var, h, 0, 32));
	CASE("cudaMemcpyToSymbol(device to host)",
	     cudaMemcpyToSymbol(dev_var, h, 4, 0, cudaMemcpyDeviceToHost));
	CASE("cudaMemcpyToSymbol(host to host)",
	     cudaMemcpyToSymbol(dev_var, h, 4, 0, cudaMemcpyHostToHost));
	CASE("cudaMemcpyToSymbol(kind 7)",
	     cudaMemcpyToSymbol(dev_var, h, 4, 0, (cudaMemcpyKind)7));
	CASE("cudaMemcpyToSymbol(not a symbol, kind 7)",
	     cudaMemcpyToSymbol(&not_symbol, h, 4, 0, (cudaMemcpyKind)7));
	CASE("cudaMemcpyToSymbol(constant, too large)",
	     cudaMemcpyToSymbol(const_var, h, 12));
	CASE("cudaMemcpyFromSymbol(not a symbol)",
	     cudaMemcpyFromSymbol(h, &not_symbol, 4));
	CASE("cudaMemcpyFromSymbol(too large)",
	     cudaMemcpyFromSymbol(h, dev_var, 20));
	CASE("cudaMemcpyFromSymbol(offset past the end)",
	     cudaMemcpyFromSymbol(h, dev_var, 4, 16));
	CASE("cudaMemcpyFromSymbol(host to device)",
	     cudaMemcpyFromSymbol(h, dev_var, 4, 0, cudaMemcpyHostToDevice));
	CASE("cudaMemcpyFromSymbol(kind 7)",
	     cudaMemcpyFromSymbol(h, dev_var, 4, 0, (cudaMemcpyKind)7));
	CASE("cudaMemcpyToSymbolAsync(not a symbol)",
	     cudaMemcpyToSymbolAsync(&not_symbol, h, 4, 0,
				     cudaMemcpyHostToDevice, 0));
	CASE("cudaMemcpyToSymbolAsync(too large)",
	     cudaMemcpyToSymbolAsync(dev_var, h, 20, 0,
				     cudaMemcpyHostToDevice, 0));
	CASE("cudaMemcpyToSymbolAsync(device to host)",
	     cudaMemcpyToSymbolAsync(dev_var, h, 4, 0,
				     cudaMemcpyDeviceToHost, 0));
	CASE("cudaMemcpyFromSymbolAsync(not a symbol)",
	     cudaMemcpyFromSymbolAsync(h, &not_symbol, 4, 0,
				       cudaMemcpyDeviceToHost, 0));
	CASE("cudaMemcpyFromSymbolAsync(kind 7)",
	     cudaMemcpyFromSymbolAsync(h, dev_var, 4, 0, (cudaMemcpyKind)7,
				       0));
	CASE("cudaGetSymbolAddress(not a symbol)",
	     cudaGetSymbolAddress(&p, &not_symbol));
	CASE("cudaGetSymbolAddress(NULL symbol)",
	     cudaGetSymbolAddress(&p, NULL));
	CASE("cudaGetSymbolAddress(a kernel)",
	     cudaGetSymbolAddress(&p, (const void *)noop));
	CASE("cudaGetSymbolSize(not a symbol)",
	     cudaGetSymbolSize(&size, &not_symbol));
	CASE("cudaGetSymbolSize(NULL symbol)", cudaGetSymbolSize(&size, NULL));
}

static void execution_cases(void)
{
	struct cudaFuncAttributes fa;
	cudaLaunchAttribute la[1] = {};
	cudaLaunchConfig_t cfg = {};
	int *d, v = 1, n;
	void *args[] = { &d, &v };
	const void *k = (const void *)store, *bad = (const void *)not_a_kernel;

	TRY(cudaMalloc((void **)&d, 4096 * sizeof(int)));

	LAUNCH("<<<1, 2048>>>", store<<<1, 2048>>>(d, 1));
	LAUNCH("<<<0, 32>>>", store<<<0, 32>>>(d, 1));
	LAUNCH("<<<1, 0>>>", store<<<1, 0>>>(d, 1));
	LAUNCH("<<<(1, 65536), 1>>>", noop<<<dim3(1, 65536), 1>>>());
	LAUNCH("<<<1, (1, 1, 65)>>>", noop<<<1, dim3(1, 1, 65)>>>());
	LAUNCH("<<<1, 32, 1 MiB>>>", store<<<1, 32, 1 << 20>>>(d, 1));
	LAUNCH("<<<1, 32>>>", store<<<1, 32>>>(d, 1));
	CASE("cudaLaunchKernel(not a kernel)",
	     cudaLaunchKernel(bad, dim3(1), dim3(32), args, 0, 0));
	CASE("cudaLaunchKernel(NULL)",
	     cudaLaunchKernel(NULL, dim3(1), dim3(32), args, 0, 0));
	CASE("cudaLaunchKernel(grid 0)",
	     cudaLaunchKernel(k, dim3(0), dim3(32), args, 0, 0));
	CASE("cudaLaunchKernel(block 2048)",
	     cudaLaunchKernel(k, dim3(1), dim3(2048), args, 0, 0));
	CASE("cudaLaunchKernel(1 MiB shared)",
	     cudaLaunchKernel(k, dim3(1), dim3(32), args, 1 << 20, 0));
	CASE("cudaLaunchKernel(no arguments, none needed)",
	     cudaLaunchKernel((const void *)noop, dim3(1), dim3(1), NULL, 0,
			      0));
	CASE("cudaLaunchKernel(not a kernel, grid 0)",
	     cudaLaunchKernel(bad, dim3(0), dim3(32), args, 0, 0));
	CASE("cudaLaunchCooperativeKernel(not a kernel)",
	     cudaLaunchCooperativeKernel(bad, dim3(1), dim3(32), args, 0, 0));
	CASE("cudaLaunchCooperativeKernel(grid 0)",
	     cudaLaunchCooperativeKernel(k, dim3(0), dim3(32), args, 0, 0));
	CASE("cudaLaunchCooperativeKernel(block 2048)",
	     cudaLaunchCooperativeKernel(k, dim3(1), dim3(2048), args, 0, 0));
	CASE("cudaLaunchCooperativeKernel(grid 1<<20)",
	     cudaLaunchCooperativeKernel(k, dim3(1 << 20), dim3(32), args, 0,
					 0));
	cfg.gridDim = dim3(1);
	cfg.blockDim = dim3(32);
	CASE("cudaLaunchKernelExC(not a kernel)",
	     cudaLaunchKernelExC(&cfg, bad, args));
	CASE("cudaLaunchKernelExC(NULL)", cudaLaunchKernelExC(&cfg, NULL, args));
	cfg.blockDim = dim3(2048);
	CASE("cudaLaunchKernelExC(block 2048)",
	     cudaLaunchKernelExC(&cfg, k, args));
	cfg.blockDim = dim3(32);
	cfg.gridDim = dim3(0);
	CASE("cudaLaunchKernelExC(grid 0)", cudaLaunchKernelExC(&cfg, k, args));
	cfg.gridDim = dim3(1);
	cfg.numAttrs = 1;
	cfg.attrs = NULL;
	CASE("cudaLaunchKernelExC(1 attribute, NULL)",
	     cudaLaunchKernelExC(&cfg, k, args));
	la[0].id = (cudaLaunchAttributeID)999;
	cfg.attrs = la;
	CASE("cudaLaunchKernelExC(attribute 999)",
	     cudaLaunchKernelExC(&cfg, k, args));
	la[0].id = cudaLaunchAttributeClusterDimension;
	la[0].val.clusterDim.x = 3;
	la[0].val.clusterDim.y = 1;
	la[0].val.clusterDim.z = 1;
	CASE("cudaLaunchKernelExC(cluster 3, grid 1)",
	     cudaLaunchKernelExC(&cfg, k, args));
	CASE("cudaFuncGetAttributes(NULL)", cudaFuncGetAttributes(NULL, k));
	CASE("cudaFuncGetAttributes(not a kernel)",
	     cudaFuncGetAttributes(&fa, bad));
	CASE("cudaFuncGetAttributes(NULL function)",
	     cudaFuncGetAttributes(&fa, NULL));
	CASE("cudaFuncGetAttributes(NULL, not a kernel)",
	     cudaFuncGetAttributes(NULL, bad));
	CASE("cudaFuncSetAttribute(attribute 999)",
	     cudaFuncSetAttribute(k, (cudaFuncAttribute)999, 0));
	CASE("cudaFuncSetAttribute(1 MiB dynamic shared)",
	     cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
				  1 << 20));
	CASE("cudaFuncSetAttribute(-1 dynamic shared)",
	     cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize,
				  -1));
	CASE("cudaFuncSetAttribute(carveout 200)",
	     cudaFuncSetAttribute(k,
				  cudaFuncAttributePreferredSharedMemoryCarveout,
				  200));
	CASE("cudaFuncSetAttribute(not a kernel)",
	     cudaFuncSetAttribute(bad,
				  cudaFuncAttributeMaxDynamicSharedMemorySize,
				  0));
	CASE("cudaFuncSetCacheConfig(9)",
	     cudaFuncSetCacheConfig(k, (enum cudaFuncCache)9));
	CASE("cudaFuncSetCacheConfig(not a kernel)",
	     cudaFuncSetCacheConfig(bad, cudaFuncCachePreferL1));
	CASE("cudaOccupancyMaxActiveBlocksPerMultiprocessor(NULL)",
	     cudaOccupancyMaxActiveBlocksPerMultiprocessor(NULL, k, 32, 0));
	CASE("cudaOccupancyMaxActiveBlocksPerMultiprocessor(not a kernel)",
	     cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, bad, 32, 0));
	CASE("cudaOccupancyMaxActiveBlocksPerMultiprocessor(block 0)",
	     cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 0, 0));
	n = -1;
	CASE("cudaOccupancyMaxActiveBlocksPerMultiprocessor(block 2048)",
	     cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 2048, 0));
	printf("cudaOccupancyMaxActiveBlocksPerMultiprocessor(block 2048) "
	       "value: %d\n", n);
	n = -1;
	CASE("cudaOccupancyMaxActiveBlocksPerMultiprocessor(1 MiB shared)",
	     cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 32, 1 << 20));
	printf("cudaOccupancyMaxActiveBlocksPerMultiprocessor(1 MiB shared) "
	       "value: %d\n", n);
	CASE("cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(flags 7)",
	     cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, k, 32,
								     0, 7));
	CASE("cudaDeviceSynchronize", cudaDeviceSynchronize());

	TRY(cudaFree(d));
}

static void stream_cases(void)
{
	cudaStream_t s, destroyed;
	cudaEvent_t ev;
	unsigned int flags;
	int prio, dev;

	TRY(cudaEventCreate(&ev));
	TRY(cudaStreamCreate(&destroyed));
	TRY(cudaStreamDestroy(destroyed));

	CASE("cudaStreamCreate(NULL)", cudaStreamCreate(NULL));
	CASE("cudaStreamCreateWithFlags(NULL)",
	     cudaStreamCreateWithFlags(NULL, 0));
	CASE("cudaStreamCreateWithFlags(flags 4)",
	     cudaStreamCreateWithFlags(&s, 4));
	CASE("cudaStreamCreateWithFlags(flags ~0)",
	     cudaStreamCreateWithFlags(&s, ~0u));
	CASE("cudaStreamCreateWithPriority(NULL)",
	     cudaStreamCreateWithPriority(NULL, 0, 0));
	CASE("cudaStreamCreateWithPriority(flags 2)",
	     cudaStreamCreateWithPriority(&s, 2, 0));
	CASE("cudaStreamCreateWithPriority(priority 100)",
	     cudaStreamCreateWithPriority(&s, 0, 100));
	TRY(cudaStreamGetPriority(s, &prio));
	printf("cudaStreamCreateWithPriority(priority 100) value: %d\n", prio);
	TRY(cudaStreamDestroy(s));
	CASE("cudaStreamCreateWithPriority(priority -100)",
	     cudaStreamCreateWithPriority(&s, 0, -100));
	TRY(cudaStreamGetPriority(s, &prio));
	printf("~ cudaStreamCreateWithPriority(priority -100) value: %d\n",
	       prio);
	TRY(cudaStreamDestroy(s));
	CASE("cudaStreamDestroy(NULL)", cudaStreamDestroy(NULL));
	CASE("cudaStreamDestroy(cudaStreamLegacy)",
	     cudaStreamDestroy(cudaStreamLegacy));
	CASE("cudaStreamDestroy(cudaStreamPerThread)",
	     cudaStreamDestroy(cudaStreamPerThread));
	CASE("cudaStreamSynchronize(cudaStreamPerThread)",
	     cudaStreamSynchronize(cudaStreamPerThread));
	CASE("cudaStreamQuery(NULL)", cudaStreamQuery(NULL));
	CASE("cudaStreamWaitEvent(NULL event)", cudaStreamWaitEvent(0, NULL, 0));
	CASE("cudaStreamWaitEvent(flags 7)", cudaStreamWaitEvent(0, ev, 7));
	CASE("cudaStreamWaitEvent(never recorded)",
	     cudaStreamWaitEvent(0, ev, 0));
	CASE("cudaStreamGetPriority(NULL)", cudaStreamGetPriority(0, NULL));
	CASE("cudaStreamGetFlags(NULL)", cudaStreamGetFlags(0, NULL));
	CASE("cudaStreamGetFlags(cudaStreamLegacy)",
	     cudaStreamGetFlags(cudaStreamLegacy, &flags));
	CASE("cudaStreamGetDevice(cudaStreamPerThread)",
	     cudaStreamGetDevice(cudaStreamPerThread, &dev));
	CASE("cudaStreamAddCallback(NULL)",
	     cudaStreamAddCallback(0, NULL, NULL, 0));
	CASE("cudaStreamAddCallback(flags 1)",
	     cudaStreamAddCallback(0, callback, NULL, 1));
	CASE("cudaLaunchHostFunc(NULL)", cudaLaunchHostFunc(0, NULL, NULL));
	CASE("cudaLaunchHostFunc", cudaLaunchHostFunc(0, host_fn, NULL));
	CASE("cudaDeviceSynchronize", cudaDeviceSynchronize());

	TRY(cudaEventDestroy(ev));
}

static void event_cases(void)
{
	cudaEvent_t a, b, untimed, untimed2, e;
	float ms;

	TRY(cudaEventCreate(&a));
	TRY(cudaEventCreate(&b));
	TRY(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
	TRY(cudaEventCreateWithFlags(&untimed2, cudaEventDisableTiming));

	CASE("cudaEventCreate(NULL)", cudaEventCreate(NULL));
	CASE("cudaEventCreateWithFlags(NULL)",
	     cudaEventCreateWithFlags(NULL, 0));
	CASE("cudaEventCreateWithFlags(flags 0x100)",
	     cudaEventCreateWithFlags(&e, 0x100));
	CASE("cudaEventCreateWithFlags(flags ~0)",
	     cudaEventCreateWithFlags(&e, ~0u));
	CASE("cudaEventCreateWithFlags(interprocess, timed)",
	     cudaEventCreateWithFlags(&e, cudaEventInterprocess));
	CASE("cudaEventQuery(never recorded)", cudaEventQuery(a));
	CASE("cudaEventSynchronize(never recorded)", cudaEventSynchronize(a));
	CASE("cudaEventElapsedTime(NULL)", cudaEventElapsedTime(NULL, a, b));
	CASE("cudaEventElapsedTime(never recorded)",
	     cudaEventElapsedTime(&ms, a, b));
	CASE("cudaEventElapsedTime(NULL events)",
	     cudaEventElapsedTime(&ms, NULL, NULL));
	TRY(cudaEventRecord(a, 0));
	TRY(cudaEventSynchronize(a));
	CASE("cudaEventElapsedTime(end never recorded)",
	     cudaEventElapsedTime(&ms, a, b));
	CASE("cudaEventElapsedTime(start never recorded)",
	     cudaEventElapsedTime(&ms, b, a));
	TRY(cudaEventRecord(untimed, 0));
	TRY(cudaEventRecord(untimed2, 0));
	TRY(cudaEventSynchronize(untimed2));
	CASE("cudaEventElapsedTime(timing disabled)",
	     cudaEventElapsedTime(&ms, untimed, untimed2));
	CASE("cudaEventElapsedTime(one timing disabled)",
	     cudaEventElapsedTime(&ms, a, untimed));
	CASE("cudaEventRecordWithFlags(flags 7)",
	     cudaEventRecordWithFlags(a, 0, 7));
	CASE("cudaEventRecord(NULL)", cudaEventRecord(NULL, 0));
	CASE("cudaEventQuery(NULL)", cudaEventQuery(NULL));
	CASE("cudaEventSynchronize(NULL)", cudaEventSynchronize(NULL));
	CASE("cudaEventDestroy(NULL)", cudaEventDestroy(NULL));
	CASE("cudaDeviceSynchronize", cudaDeviceSynchronize());

	TRY(cudaEventDestroy(a));
	TRY(cudaEventDestroy(b));
	TRY(cudaEventDestroy(untimed));
	TRY(cudaEventDestroy(untimed2));
}

static void error_cases(void)
{
	static const int codes[] = { 9999, -1, 10000, 1000, 12 };
	size_t i;

	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		PROBE_NAME("cudaGetErrorName");
		printf("cudaGetErrorName(%d): %s\n", codes[i],
		       cudaGetErrorName((cudaError_t)codes[i]));
		printf("cudaGetErrorString(%d): %s\n", codes[i],
		       cudaGetErrorString((cudaError_t)codes[i]));
	}
	CASE("cudaGetErrorName(9999) leaves the last error",
	     (cudaGetErrorName((cudaError_t)9999), cudaSuccess));
}

static void version_cases(void)
{
	enum cudaDriverEntryPointQueryResult st;
	void *f;

	CASE("cudaDriverGetVersion(NULL)", cudaDriverGetVersion(NULL));
	CASE("cudaRuntimeGetVersion(NULL)", cudaRuntimeGetVersion(NULL));
	CASE("cudaGetDriverEntryPointByVersion(flags 0x100)",
	     cudaGetDriverEntryPointByVersion("cuMemAlloc", &f, 13000, 0x100,
					      &st));
	st = (enum cudaDriverEntryPointQueryResult)-1;
	f = (void *)1;
	CASE("cudaGetDriverEntryPointByVersion(unknown)",
	     cudaGetDriverEntryPointByVersion("cuNoSuchCall", &f, 13000,
					      cudaEnableDefault, &st));
	printf("cudaGetDriverEntryPointByVersion(unknown) value: status %d, %s\n",
	       (int)st, f ? "non-NULL" : "NULL");
	CASE("cudaGetDriverEntryPointByVersion(NULL status)",
	     cudaGetDriverEntryPointByVersion("cuMemAlloc", &f, 13000,
					      cudaEnableDefault, NULL));
	st = (enum cudaDriverEntryPointQueryResult)-1;
	CASE("cudaGetDriverEntryPointByVersion(version 0)",
	     cudaGetDriverEntryPointByVersion("cuMemAlloc", &f, 0,
					      cudaEnableDefault, &st));
	printf("cudaGetDriverEntryPointByVersion(version 0) value: status "
	       "%d, %s\n", (int)st, f ? "non-NULL" : "NULL");
	st = (enum cudaDriverEntryPointQueryResult)-1;
	CASE("cudaGetDriverEntryPointByVersion(version 99999)",
	     cudaGetDriverEntryPointByVersion("cuMemAlloc", &f, 99999,
					      cudaEnableDefault, &st));
	printf("cudaGetDriverEntryPointByVersion(version 99999) value: "
	       "status %d, %s\n", (int)st, f ? "non-NULL" : "NULL");
}

// The last-error rules on one thread. (The H100's log was recorded when
// the first line's calls were printf's arguments, which the host compiler
// evaluated last first: the line lists them in that order still, the
// first call last. Peeking does not clear: rt_vectoradd shows it.)
static void last_error_rules(void)
{
	cudaError_t get1, get2, peek1, peek2;

	PROBE_NAME("last error rules");
	cudaMalloc(NULL, 16);
	get1 = cudaGetLastError();
	get2 = cudaGetLastError();
	peek1 = cudaPeekAtLastError();
	peek2 = cudaPeekAtLastError();
	printf("rules: peek %s, peek %s, get %s, get %s\n",
	       cudaGetErrorName(peek2), cudaGetErrorName(peek1),
	       cudaGetErrorName(get2), cudaGetErrorName(get1));
	cudaMalloc(NULL, 16);
	cudaSetDevice(-1);
	printf("rules: the later of two errors: %s\n",
	       cudaGetErrorName(cudaGetLastError()));
	cudaSetDevice(-1);
	cudaDeviceSynchronize();
	cudaFree(NULL);
	printf("rules: after successful calls: %s\n",
	       cudaGetErrorName(cudaGetLastError()));
}

static cudaError_t thread_seen, thread_own;

static void *other_thread(void *)
{
	thread_seen = cudaPeekAtLastError();
	cudaSetDevice(-1);
	thread_own = cudaGetLastError();
	cudaMalloc(NULL, 16);
	return NULL;
}

// Each host thread has its own last error. (The last two reads are
// printed last first, as the H100's log recorded them: see above.)
static void last_error_threads(void)
{
	cudaError_t get1, get2;
	pthread_t t;

	PROBE_NAME("last error threads");
	cudaMalloc(NULL, 16);
	if (pthread_create(&t, NULL, other_thread, NULL) ||
	    pthread_join(t, NULL)) {
		printf("Result = FAIL\n");
		exit(1);
	}
	get1 = cudaGetLastError();
	get2 = cudaGetLastError();
	printf("threads: the other thread saw %s, then had its own %s; "
	       "this one still has %s, then %s\n",
	       cudaGetErrorName(thread_seen), cudaGetErrorName(thread_own),
	       cudaGetErrorName(get2), cudaGetErrorName(get1));
}

static const struct {
	const char *name;
	void (*run)(void);
} sections[] = {
	{ "device", device_cases },
	{ "memory", memory_cases },
	{ "copies", copy_cases },
	{ "symbols", symbol_cases },
	{ "execution", execution_cases },
	{ "streams", stream_cases },
	{ "events", event_cases },
	{ "errors", error_cases },
	{ "versions", version_cases },
	{ "rules", last_error_rules },
	{ "threads", last_error_threads },
};

// Every section, or the one named (to probe each in a process of its own).
int main(int argc, char **argv)
{
	size_t i;

	rt_check_library();
	TRY(cudaGetDeviceCount(&count));
	printf("~ %d device(s)\n", count);
	TRY(cudaSetDevice(0));
	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (argc < 2 || !strcmp(argv[1], sections[i].name))
			sections[i].run();
	// Nothing above left an error in the context.
	EXPECT(cudaSuccess, cudaDeviceSynchronize());
	return rt_result();
}
