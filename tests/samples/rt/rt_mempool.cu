// SPDX-License-Identifier: MIT
// Stream-ordered allocation, as the CUDA guides use it: scratch buffers
// from cudaMallocAsync live only for the work of one iteration on a
// stream and go back with cudaFreeAsync, taken again by the next
// iteration on that stream and, through an event, by another stream; a
// pool of its own (cudaMemPoolCreate, cudaMallocFromPoolAsync) with a
// release threshold that keeps its memory across synchronizations until
// cudaMemPoolTrimTo; the pool's counters; and bad input. Results are
// checked on the host. How much a pool reserves is the device's own
// business (an H100 reserves 32 MiB at a time): those lines are marked.
#include <stdint.h>

#include "rt.h"

#define N 4096
#define ITERS 16

__global__ void square_plus(const int *in, int *out, int add, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = in[i] * in[i] + add;
}

__global__ void iota(int *p, int base, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] = base + i;
}

static unsigned long long attr(cudaMemPool_t p, cudaMemPoolAttr a)
{
	unsigned long long v = 0;

	TRY(cudaMemPoolGetAttribute(p, a, &v));
	return v;
}

// Each iteration: scratch in, scratch out, result copied to @host.
// Wrong results, plus scratch that is not the first iteration's memory.
static int iterate(cudaStream_t s, int *host)
{
	int it, i, bad = 0, *in, *out, *first[2] = { NULL, NULL };

	for (it = 0; it < ITERS; it++) {
		TRY(cudaMallocAsync((void **)&in, N * sizeof(int), s));
		TRY(cudaMallocAsync((void **)&out, N * sizeof(int), s));
		if (it == 0) {
			first[0] = in;
			first[1] = out;
		} else {
			bad += in != first[0] && in != first[1];
			bad += out != first[0] && out != first[1];
		}
		iota<<<N / 256, 256, 0, s>>>(in, it, N);
		square_plus<<<N / 256, 256, 0, s>>>(in, out, it, N);
		TRY(cudaMemcpyAsync(host + it * N, out, N * sizeof(int),
				    cudaMemcpyDeviceToHost, s));
		TRY(cudaFreeAsync(in, s));
		TRY(cudaFreeAsync(out, s));
	}
	TRY(cudaStreamSynchronize(s));
	for (it = 0; it < ITERS; it++)
		for (i = 0; i < N; i++)
			bad += host[it * N + i] != (it + i) * (it + i) + it;
	return bad;
}

int main(void)
{
	cudaMemPool_t def, cur, pool;
	cudaMemPoolProps props;
	cudaStream_t s1, s2;
	cudaEvent_t ev;
	void *p = NULL, *q = NULL;
	int *host, v;
	unsigned long long keep;

	rt_check_library();
	TRY(cudaDeviceGetAttribute(&v, cudaDevAttrMemoryPoolsSupported, 0));
	printf("memory pools supported: %d\n", v);
	TRY(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
	TRY(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
	TRY(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
	TRY(cudaMallocHost((void **)&host, ITERS * N * sizeof(int)));
	TRY(cudaDeviceGetDefaultMemPool(&def, 0));
	TRY(cudaDeviceGetMemPool(&cur, 0));
	printf("current pool is the default: %d\n", cur == def);

	printf("iterations on one stream, wrong results or new scratch: %d\n",
	       iterate(s1, host));
	printf("used after the iterations: %llu\n", attr(def, cudaMemPoolAttrUsedMemCurrent));
	printf("used at most: %llu\n", attr(def, cudaMemPoolAttrUsedMemHigh));
	printf("~ reserved after synchronizing: %llu\n", attr(def, cudaMemPoolAttrReservedMemCurrent));

	// Freed on s1, taken by s2 behind an event: the same memory.
	TRY(cudaMallocAsync(&p, 1 << 16, s1));
	TRY(cudaFreeAsync(p, s1));
	TRY(cudaEventRecord(ev, s1));
	TRY(cudaStreamWaitEvent(s2, ev, 0));
	TRY(cudaMallocAsync(&q, 1 << 16, s2));
	printf("taken by another stream after an event: %s\n", p == q ? "same" : "other");
	TRY(cudaFreeAsync(q, s2));
	TRY(cudaDeviceSynchronize());

	// A pool of its own that keeps its memory.
	memset(&props, 0, sizeof(props));
	props.allocType = cudaMemAllocationTypePinned;
	props.location.type = cudaMemLocationTypeDevice;
	props.location.id = 0;
	TRY(cudaMemPoolCreate(&pool, &props));
	keep = 1ull << 30;
	TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep));
	TRY(cudaMallocFromPoolAsync(&p, 1 << 20, pool, s1));
	iota<<<N / 256, 256, 0, s1>>>((int *)p, 5, N);
	TRY(cudaMemcpyAsync(host, p, N * sizeof(int), cudaMemcpyDeviceToHost, s1));
	TRY(cudaFreeAsync(p, s1));
	TRY(cudaStreamSynchronize(s1));
	printf("own pool's kernel result right: %d\n", host[0] == 5 && host[N - 1] == 5 + N - 1);
	printf("own pool keeps memory across a synchronization: %d\n",
	       attr(pool, cudaMemPoolAttrReservedMemCurrent) >= (1 << 20));
	TRY(cudaMemPoolTrimTo(pool, 0));
	printf("own pool reserved after trimming: %llu\n", attr(pool, cudaMemPoolAttrReservedMemCurrent));
	TRY(cudaDeviceSetMemPool(0, pool));
	TRY(cudaMallocAsync(&p, 256, s1));
	TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &keep));
	printf("cudaMallocAsync takes from the current pool: %llu bytes used\n", keep);
	TRY(cudaFreeAsync(p, s1));
	TRY(cudaDeviceSetMemPool(0, def));
	TRY(cudaStreamSynchronize(s1));
	TRY(cudaMemPoolDestroy(pool));

	// Bad input.
	printf("cudaMallocAsync of NULL: %s\n", cudaGetErrorName(cudaMallocAsync(NULL, 16, s1)));
	printf("cudaFreeAsync of a bad pointer: %s\n",
	       cudaGetErrorName(cudaFreeAsync((void *)0x1234, s1)));
	printf("then cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
	printf("cudaFreeAsync of NULL: %s\n", cudaGetErrorName(cudaFreeAsync(NULL, s1)));
	printf("destroying the default pool: %s\n", cudaGetErrorName(cudaMemPoolDestroy(def)));
	printf("then cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
	printf("setting the used counter: %s\n", cudaGetErrorName(
		cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &keep)));
	printf("default pool of device 9: %s\n", cudaGetErrorName(cudaDeviceGetDefaultMemPool(&cur, 9)));
	printf("then cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
	TRY(cudaFreeHost(host));
	return rt_result();
}
