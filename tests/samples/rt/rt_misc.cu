// SPDX-License-Identifier: MIT
// The runtime calls the guides' examples use beyond the basics: kernel
// attributes and occupancy, cooperative launches and launches with
// attributes (cudaLaunchKernelEx), pitched memory with 2D copies and
// fills, registered (zero-copy) host memory, stream priorities, flags,
// callbacks and host functions, limits, PCI bus ids, device flags, cache
// preferences, pointer attributes, driver entry points and peers.
#include <string.h>

#include "rt.h"

__global__ void __launch_bounds__(128) bounded(int *p)
{
	__shared__ int tile[256];

	tile[threadIdx.x] = threadIdx.x;
	__syncthreads();
	p[threadIdx.x] = tile[127 - threadIdx.x];
}

__global__ void plus(int *p, int v, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		p[i] += v;
}

static void check_functions(void)
{
	struct cudaFuncAttributes a;
	struct cudaDeviceProp prop;
	int blocks = 0, *d, h[128], i, bad = 0;

	TRY(cudaGetDeviceProperties(&prop, 0));
	TRY(cudaFuncGetAttributes(&a, (const void *)bounded));
	EXPECT_TRUE(a.maxThreadsPerBlock == 128);
	EXPECT_TRUE(a.sharedSizeBytes == 256 * sizeof(int));
	EXPECT_TRUE(a.ptxVersion == 75);
	TRY(cudaFuncGetAttributes(&a, (const void *)plus));
	EXPECT_TRUE(a.maxThreadsPerBlock == prop.maxThreadsPerBlock);
	EXPECT_TRUE(a.sharedSizeBytes == 0);
	// CUDA 13 on an H100: a function that is no kernel is no handle.
	EXPECT(cudaErrorInvalidResourceHandle,
	       cudaFuncGetAttributes(&a, (const void *)check_functions));
	EXPECT(cudaErrorInvalidValue,
	       cudaFuncGetAttributes(NULL, (const void *)plus));
	EXPECT(cudaErrorInvalidValue, cudaGetLastError());

	TRY(cudaFuncSetAttribute((const void *)plus,
				 cudaFuncAttributeMaxDynamicSharedMemorySize,
				 (int)prop.sharedMemPerBlockOptin));
	TRY(cudaFuncGetAttributes(&a, (const void *)plus));
	EXPECT_TRUE(a.maxDynamicSharedSizeBytes ==
		    (int)prop.sharedMemPerBlockOptin);

	TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		&blocks, (const void *)plus, 256, 0));
	EXPECT_TRUE(blocks > 0 && blocks <= prop.maxBlocksPerMultiProcessor);
	printf("~ plus: %d blocks of 256 threads per SM\n", blocks);

	// A cooperative grid as large as can be resident, and one too large.
	int n = blocks * prop.multiProcessorCount * 256, v = 3;
	void *args[] = { &d, &v, &n };
	TRY(cudaMalloc((void **)&d, n * sizeof(int)));
	TRY(cudaMemset(d, 0, n * sizeof(int)));
	TRY(cudaLaunchCooperativeKernel((const void *)plus,
					dim3(blocks * prop.multiProcessorCount),
					dim3(256), args, 0, 0));
	TRY(cudaMemcpy(h, d + n - 128, sizeof(h), cudaMemcpyDeviceToHost));
	for (i = 0; i < 128; i++)
		bad += h[i] != 3;
	EXPECT_TRUE(bad == 0);
	EXPECT(cudaErrorCooperativeLaunchTooLarge,
	       cudaLaunchCooperativeKernel(
		       (const void *)plus,
		       dim3(blocks * prop.multiProcessorCount + 1), dim3(256),
		       args, 0, 0));
	EXPECT(cudaErrorCooperativeLaunchTooLarge, cudaGetLastError());

	// cudaLaunchKernelEx, the header's template over cudaLaunchKernelExC,
	// with a priority and a cooperative grid.
	cudaLaunchAttribute attrs[2];
	cudaLaunchConfig_t cfg = {};
	attrs[0].id = cudaLaunchAttributePriority;
	attrs[0].val.priority = -1;
	attrs[1].id = cudaLaunchAttributeCooperative;
	attrs[1].val.cooperative = 1;
	cfg.gridDim = dim3(blocks * prop.multiProcessorCount);
	cfg.blockDim = dim3(256);
	cfg.attrs = attrs;
	cfg.numAttrs = 2;
	TRY(cudaLaunchKernelEx(&cfg, plus, d, 4, n));
	TRY(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
	for (i = 0, bad = 0; i < 128; i++)
		bad += h[i] != 7;
	EXPECT_TRUE(bad == 0);
	EXPECT(cudaErrorInvalidResourceHandle,
	       cudaLaunchKernelExC(&cfg, (const void *)check_functions, args));
	EXPECT(cudaErrorInvalidResourceHandle, cudaGetLastError());

	bounded<<<1, 128>>>(d);
	TRY(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
	for (i = 0, bad = 0; i < 128; i++)
		bad += h[i] != 127 - i;
	EXPECT_TRUE(bad == 0);
	TRY(cudaFree(d));
}

static void check_pitched(void)
{
	const size_t w = 100 * sizeof(int), rows = 10;
	unsigned char host[10][100 * sizeof(int)];
	size_t pitch = 0, r, c;
	int bad = 0;
	void *d;

	TRY(cudaMallocPitch(&d, &pitch, w, rows));
	EXPECT_TRUE(pitch >= w);
	TRY(cudaMemset2D(d, pitch, 0x5a, w, rows));
	// A 20 by 4 bytes rectangle from the host, inside the fill.
	unsigned char patch[4][20];
	memset(patch, 0xc3, sizeof(patch));
	TRY(cudaMemcpy2D((char *)d + 3 * pitch + 10, pitch, patch, 20, 20, 4,
			 cudaMemcpyHostToDevice));
	TRY(cudaMemcpy2D(host, w, d, pitch, w, rows, cudaMemcpyDeviceToHost));
	for (r = 0; r < rows; r++)
		for (c = 0; c < w; c++) {
			bool in = r >= 3 && r < 7 && c >= 10 && c < 30;

			bad += host[r][c] != (in ? 0xc3 : 0x5a);
		}
	EXPECT_TRUE(bad == 0);
	printf("pitched: %zu-byte rows in a %zu-byte pitch, %d wrong\n", w,
	       pitch, bad);
	EXPECT(cudaErrorInvalidPitchValue,
	       cudaMemcpy2D(host, w, d, w - 1, w, rows,
			    cudaMemcpyDeviceToHost));
	EXPECT(cudaErrorInvalidPitchValue, cudaGetLastError());
	TRY(cudaFree(d));
}

static void check_registered(void)
{
	const int n = 1024;
	int *h = NULL, *d = NULL, i, bad = 0;

	if (posix_memalign((void **)&h, 4096, n * sizeof(int)))
		exit(1);
	memset(h, 0, n * sizeof(int));
	TRY(cudaHostRegister(h, n * sizeof(int), cudaHostRegisterMapped));
	EXPECT(cudaErrorHostMemoryAlreadyRegistered,
	       cudaHostRegister(h, n * sizeof(int), cudaHostRegisterMapped));
	EXPECT(cudaErrorHostMemoryAlreadyRegistered, cudaGetLastError());
	TRY(cudaHostGetDevicePointer((void **)&d, h, 0));
	// A refused query leaves NULL, as on an H100.
	int *refused = h;
	EXPECT(cudaErrorInvalidValue,
	       cudaHostGetDevicePointer((void **)&refused, h, 1));
	EXPECT(cudaErrorInvalidValue, cudaGetLastError());
	EXPECT_TRUE(refused == NULL);
	plus<<<n / 256, 256>>>(d, 5, n);
	TRY(cudaDeviceSynchronize());
	for (i = 0; i < n; i++)
		bad += h[i] != 5;
	EXPECT_TRUE(bad == 0);
	printf("zero-copy: a kernel wrote registered host memory, %d wrong\n",
	       bad);
	TRY(cudaHostUnregister(h));
	free(h);
}

struct order {
	int step;
	int callback_step, host_fn_step;
	cudaError_t callback_status;
};

static void CUDART_CB on_callback(cudaStream_t s, cudaError_t status,
				  void *arg)
{
	struct order *o = (struct order *)arg;

	(void)s;
	o->callback_status = status;
	o->callback_step = ++o->step;
}

static void CUDART_CB on_host_fn(void *arg)
{
	struct order *o = (struct order *)arg;

	o->host_fn_step = ++o->step;
}

static void check_streams(void)
{
	struct order o = { 0, 0, 0, cudaErrorUnknown };
	int least = 1, greatest = 1, prio = 1, *d;
	unsigned int flags = 0;
	cudaStream_t s;
	cudaEvent_t e;

	TRY(cudaDeviceGetStreamPriorityRange(&least, &greatest));
	EXPECT_TRUE(least == 0 && greatest < 0);
	TRY(cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest));
	TRY(cudaStreamGetPriority(s, &prio));
	EXPECT_TRUE(prio == greatest);
	TRY(cudaStreamGetFlags(s, &flags));
	EXPECT_TRUE(flags == cudaStreamNonBlocking);
	printf("stream priorities %d (least) to %d (greatest)\n", least,
	       greatest);

	TRY(cudaMalloc((void **)&d, 256 * sizeof(int)));
	plus<<<1, 256, 0, s>>>(d, 1, 256);
	TRY(cudaStreamAddCallback(s, on_callback, &o, 0));
	TRY(cudaLaunchHostFunc(s, on_host_fn, &o));
	EXPECT(cudaErrorInvalidValue,
	       cudaStreamAddCallback(s, on_callback, &o, 1));
	EXPECT(cudaErrorInvalidValue, cudaGetLastError());
	TRY(cudaEventCreate(&e));
	TRY(cudaEventRecordWithFlags(e, s, cudaEventRecordDefault));
	TRY(cudaStreamSynchronize(s));
	TRY(cudaEventQuery(e));
	EXPECT_TRUE(o.callback_step == 1 && o.host_fn_step == 2);
	EXPECT(cudaSuccess, o.callback_status);
	printf("callback then host function, in stream order: %d, %d\n",
	       o.callback_step, o.host_fn_step);
	TRY(cudaEventDestroy(e));
	TRY(cudaFree(d));
	TRY(cudaStreamDestroy(s));
}

static void check_device(void)
{
	char bus[32];
	size_t v = 0;
	int dev = -1, can = -1, count = 0;

	TRY(cudaDeviceGetLimit(&v, cudaLimitStackSize));
	EXPECT_TRUE(v > 0);
	TRY(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 2 << 20));
	TRY(cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize));
	EXPECT_TRUE(v == 2 << 20);
	// An unknown limit: the H100's answer.
	EXPECT(cudaErrorInvalidValue,
	       cudaDeviceGetLimit(&v, (enum cudaLimit)0x7f));
	EXPECT(cudaErrorInvalidValue, cudaGetLastError());

	TRY(cudaDeviceGetPCIBusId(bus, sizeof(bus), 0));
	TRY(cudaDeviceGetByPCIBusId(&dev, bus));
	EXPECT_TRUE(dev == 0);
	printf("~ device 0 is at PCI %s\n", bus);
	TRY(cudaGetDeviceCount(&count));
	EXPECT(cudaErrorInvalidDevice,
	       cudaDeviceGetPCIBusId(bus, sizeof(bus), count));
	EXPECT(cudaErrorInvalidDevice, cudaDeviceCanAccessPeer(&can, 0, count));
	EXPECT(cudaErrorInvalidDevice, cudaGetLastError());
	EXPECT(cudaErrorInvalidResourceHandle, cudaStreamDestroy(0));
	EXPECT(cudaErrorInvalidResourceHandle, cudaGetLastError());
	TRY(cudaDeviceCanAccessPeer(&can, 0, 0));
	EXPECT_TRUE(can == 0);
	if (count > 1) {
		TRY(cudaDeviceCanAccessPeer(&can, 0, 1));
		EXPECT_TRUE(can == 0 || can == 1);
	}
}

// The flags, cache preferences and pointer kinds an H100 answers.
static void check_flags_and_pointers(void)
{
	struct cudaPointerAttributes pa;
	enum cudaFuncCache cache = cudaFuncCachePreferEqual;
	unsigned int flags = 0;
	int *d, *h, x, dev = -1;
	cudaStream_t s;

	TRY(cudaGetDeviceFlags(&flags));
	EXPECT_TRUE(flags & cudaDeviceMapHost);
	TRY(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync));
	TRY(cudaGetDeviceFlags(&flags));
	EXPECT_TRUE(flags == (cudaDeviceScheduleBlockingSync |
			      cudaDeviceMapHost));
	TRY(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceMapHost));
	TRY(cudaGetDeviceFlags(&flags));
	EXPECT_TRUE(flags == (cudaDeviceScheduleSpin | cudaDeviceMapHost));
	EXPECT(cudaErrorInvalidValue, cudaSetDeviceFlags(0x1000));
	EXPECT(cudaErrorInvalidValue,
	       cudaSetDeviceFlags(cudaDeviceScheduleSpin |
				  cudaDeviceScheduleYield));
	EXPECT(cudaErrorInvalidValue, cudaGetLastError());
	TRY(cudaSetDeviceFlags(cudaDeviceScheduleAuto));

	TRY(cudaDeviceGetCacheConfig(&cache));
	EXPECT_TRUE(cache == cudaFuncCachePreferNone);
	TRY(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared));
	TRY(cudaFuncSetCacheConfig((const void *)plus, cudaFuncCachePreferL1));
	EXPECT(cudaErrorInvalidResourceHandle,
	       cudaFuncSetCacheConfig((const void *)check_device,
				      cudaFuncCachePreferL1));
	EXPECT(cudaErrorInvalidResourceHandle, cudaGetLastError());

	TRY(cudaMalloc((void **)&d, 64));
	TRY(cudaMallocHost((void **)&h, 64));
	TRY(cudaPointerGetAttributes(&pa, d + 1));
	EXPECT_TRUE(pa.type == cudaMemoryTypeDevice && pa.device == 0 &&
		    pa.devicePointer == d + 1 && pa.hostPointer == NULL);
	TRY(cudaPointerGetAttributes(&pa, h));
	EXPECT_TRUE(pa.type == cudaMemoryTypeHost && pa.device == 0 &&
		    pa.devicePointer == h && pa.hostPointer == h);
	TRY(cudaPointerGetAttributes(&pa, &x));
	EXPECT_TRUE(pa.type == cudaMemoryTypeUnregistered &&
		    pa.device == -2 && pa.devicePointer == NULL &&
		    pa.hostPointer == &x);
	TRY(cudaPointerGetAttributes(&pa, NULL));
	EXPECT_TRUE(pa.type == cudaMemoryTypeUnregistered &&
		    pa.hostPointer == NULL);
	EXPECT(cudaErrorInvalidValue, cudaPointerGetAttributes(NULL, d));
	EXPECT(cudaErrorInvalidValue, cudaGetLastError());
	printf("pointers: device memory %d, page-locked %d, the stack %d\n",
	       (int)cudaMemoryTypeDevice, (int)cudaMemoryTypeHost,
	       (int)cudaMemoryTypeUnregistered);

	TRY(cudaStreamCreate(&s));
	TRY(cudaStreamGetDevice(s, &dev));
	EXPECT_TRUE(dev == 0);
	TRY(cudaStreamDestroy(s));
	TRY(cudaFreeHost(h));
	TRY(cudaFree(d));
}

// Driver entry points by name, and peers: the H100's answers for
// itself and unknown devices, and a peer copy within a device.
static void check_entry_points_and_peers(void)
{
	enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSuccess;
	int (*version)(int *) = NULL, v = 0, count = 0, can = 0, i, bad = 0;
	void *fn = (void *)&v;
	int *a, *b, h[64];

	TRY(cudaGetDriverEntryPointByVersion("cuDriverGetVersion",
					     (void **)&version, CUDART_VERSION,
					     cudaEnableDefault, &q));
	EXPECT_TRUE(q == cudaDriverEntryPointSuccess && version);
	if (version)
		EXPECT_TRUE(version(&v) == 0 && v == 13000);
	TRY(cudaGetDriverEntryPointByVersion("cuNoSuchThing", &fn,
					     CUDART_VERSION, cudaEnableDefault,
					     &q));
	EXPECT_TRUE(q == cudaDriverEntryPointSymbolNotFound && fn == NULL);
	TRY(cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn, 1000,
					     cudaEnableDefault, &q));
	EXPECT_TRUE(q == cudaDriverEntryPointVersionNotSufficent &&
		    fn == NULL);
	EXPECT(cudaSuccess, cudaGetLastError());
	EXPECT(cudaErrorInvalidValue,
	       cudaGetDriverEntryPointByVersion("cuMemAlloc", &fn,
						CUDART_VERSION, 7, &q));
	EXPECT(cudaErrorInvalidValue, cudaGetLastError());

	TRY(cudaGetDeviceCount(&count));
	EXPECT(cudaErrorPeerAccessUnsupported,
	       cudaDeviceEnablePeerAccess(0, 0));
	EXPECT(cudaErrorInvalidDevice, cudaDeviceEnablePeerAccess(count, 0));
	EXPECT(cudaErrorInvalidValue, cudaDeviceEnablePeerAccess(0, 1));
	EXPECT(cudaErrorPeerAccessNotEnabled, cudaDeviceDisablePeerAccess(0));
	EXPECT(cudaErrorInvalidDevice, cudaDeviceDisablePeerAccess(count));
	EXPECT(cudaErrorInvalidDevice, cudaGetLastError());
	if (count > 1) {
		TRY(cudaDeviceCanAccessPeer(&can, 0, 1));
		EXPECT(can ? cudaSuccess : cudaErrorPeerAccessUnsupported,
		       cudaDeviceEnablePeerAccess(1, 0));
		cudaGetLastError();
	}

	// Within one device, a peer copy is a device-to-device copy.
	for (i = 0; i < 64; i++)
		h[i] = i * i;
	TRY(cudaMalloc((void **)&a, sizeof(h)));
	TRY(cudaMalloc((void **)&b, sizeof(h)));
	TRY(cudaMemcpy(a, h, sizeof(h), cudaMemcpyHostToDevice));
	TRY(cudaMemcpyPeer(b, 0, a, 0, sizeof(h)));
	memset(h, 0, sizeof(h));
	TRY(cudaMemcpy(h, b, sizeof(h), cudaMemcpyDeviceToHost));
	for (i = 0; i < 64; i++)
		bad += h[i] != i * i;
	EXPECT_TRUE(bad == 0);
	EXPECT(cudaErrorInvalidDevice, cudaMemcpyPeer(a, count, a, 0, 4));
	EXPECT(cudaErrorInvalidDevice, cudaGetLastError());
	TRY(cudaMemcpyPeer(a, 0, a, 0, 0));
	TRY(cudaFree(a));
	TRY(cudaFree(b));
	printf("driver entry points by name; a peer copy: %d wrong\n", bad);
}

int main(void)
{
	rt_check_library();
	TRY(cudaSetDevice(0));
	check_functions();
	check_pitched();
	check_registered();
	check_streams();
	check_device();
	check_flags_and_pointers();
	check_entry_points_and_peers();
	return rt_result();
}
