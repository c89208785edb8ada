// SPDX-License-Identifier: MIT
// cudaDeviceReset after a sticky error, as an H100 answers it: a kernel's
// illegal address ends the context; each call after it, the reset and the
// calls after the reset print what they returned and the last error.
#include <pthread.h>

#include "rt.h"

#ifdef PROBE
#define PROBE_NAME(name) do { \
	printf("probe %s\n", name); \
	fflush(stdout); \
} while (0)
#else
#define PROBE_NAME(name) do { } while (0)
#endif

// One call: its code, then the last error read twice.
#define STEP(name, ...) do { \
	PROBE_NAME(name); \
	cudaError_t _e = (__VA_ARGS__); \
	cudaError_t _l1 = cudaGetLastError(); \
	cudaError_t _l2 = cudaGetLastError(); \
	printf("%s: %s; last %s; then %s\n", name, cudaGetErrorName(_e), \
	       cudaGetErrorName(_l1), cudaGetErrorName(_l2)); \
} while (0)

// A step whose last error is left for the next to read.
#define KEEP(name, ...) do { \
	PROBE_NAME(name); \
	cudaError_t _e = (__VA_ARGS__); \
	printf("%s: %s; last %s\n", name, cudaGetErrorName(_e), \
	       cudaGetErrorName(cudaPeekAtLastError())); \
} while (0)

__global__ void poke(int *p, int v)
{
	p[threadIdx.x] = v;
}

// A thread that never used the device, after the resets.
static void *other_thread(void *)
{
	int *d = NULL;

	STEP("cudaMalloc on another thread", cudaMalloc((void **)&d, 16));
	STEP("cudaFree(NULL) on another thread", cudaFree(NULL));
	return NULL;
}

int main(void)
{
	int *d, *d2 = NULL, v = 0;
	struct cudaFuncAttributes fa;
	struct cudaDeviceProp prop;
	size_t free, total;
	cudaStream_t s;
	cudaEvent_t ev;
	pthread_t t;
	void *h;

	rt_check_library();
	TRY(cudaSetDevice(0));
	TRY(cudaMalloc((void **)&d, 32 * sizeof(int)));
	TRY(cudaStreamCreate(&s));
	TRY(cudaEventCreate(&ev));

	// The device's lowest page is never mapped (see rt_fault).
	poke<<<1, 32>>>((int *)0x100, 1);
	STEP("faulting launch", cudaPeekAtLastError());
	STEP("cudaDeviceSynchronize", cudaDeviceSynchronize());
	STEP("cudaMalloc after the fault", cudaMalloc((void **)&d2, 16));
	STEP("cudaMemcpy after the fault",
	     cudaMemcpy(&v, d, sizeof(int), cudaMemcpyDeviceToHost));
	STEP("cudaStreamSynchronize after the fault",
	     cudaStreamSynchronize(s));
	STEP("cudaEventRecord after the fault", cudaEventRecord(ev, s));
	poke<<<1, 32>>>(d, 1);
	STEP("launch after the fault", cudaPeekAtLastError());
	STEP("cudaGetDevice after the fault", cudaGetDevice(&v));
	STEP("cudaFree(NULL) after the fault", cudaFree(NULL));
	KEEP("cudaMalloc before the reset", cudaMalloc((void **)&d2, 16));

	// The reset, with the last error still set, then the calls after it.
	KEEP("cudaDeviceReset", cudaDeviceReset());
	STEP("last error after the reset", cudaPeekAtLastError());
	STEP("cudaDeviceSynchronize after the reset", cudaDeviceSynchronize());
	STEP("cudaFree(old allocation) after the reset", cudaFree(d));
	STEP("cudaStreamSynchronize(old stream) after the reset",
	     cudaStreamSynchronize(0));
	STEP("cudaMalloc after the reset", cudaMalloc((void **)&d2, 16));
	poke<<<1, 32>>>(d2, 7);
	STEP("launch after the reset", cudaPeekAtLastError());
	STEP("cudaDeviceSynchronize after the launch", cudaDeviceSynchronize());
	STEP("cudaMemcpy after the reset",
	     cudaMemcpy(&v, d2, sizeof(int), cudaMemcpyDeviceToHost));
	printf("value after the reset: %d\n", v);
	STEP("cudaFree after the reset", cudaFree(d2));
	STEP("cudaSetDevice after the reset", cudaSetDevice(0));
	STEP("cudaGetDeviceCount after the reset", cudaGetDeviceCount(&v));
	STEP("cudaDeviceGetAttribute after the reset",
	     cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0));
	STEP("cudaGetDeviceProperties after the reset",
	     cudaGetDeviceProperties(&prop, 0));
	STEP("cudaStreamCreate after the reset", cudaStreamCreate(&s));
	STEP("cudaEventCreate after the reset", cudaEventCreate(&ev));
	STEP("cudaMallocHost after the reset", cudaMallocHost(&h, 16));
	STEP("cudaMemGetInfo after the reset", cudaMemGetInfo(&free, &total));
	STEP("cudaFuncGetAttributes after the reset",
	     cudaFuncGetAttributes(&fa, (const void *)poke));
	STEP("cudaGetLastError after the reset", cudaGetLastError());
	STEP("cudaDeviceReset again", cudaDeviceReset());
	STEP("cudaMalloc after a second reset", cudaMalloc((void **)&d2, 16));
	STEP("cudaDeviceSynchronize after a second reset",
	     cudaDeviceSynchronize());
	if (pthread_create(&t, NULL, other_thread, NULL) ||
	    pthread_join(t, NULL)) {
		printf("Result = FAIL\n");
		return 1;
	}
	return rt_result();
}
