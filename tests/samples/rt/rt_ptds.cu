// SPDX-License-Identifier: MIT
// Built with --default-stream per-thread: each host thread's stream 0 is
// its own (the runtime's _ptds and _ptsz entry points), so threads' work
// on "the default stream" neither waits for nor mixes with each other's.
#include <pthread.h>

#include "rt.h"

#define THREADS 4
#define N 4096

__device__ int offsets[THREADS];

__global__ void fill(int *p, int t, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		p[i] = i * (t + 1) + offsets[t];
}

static void *worker(void *arg)
{
	int t = (int)(long)arg, i, bad = 0, off = 1000 * t, back = -1;
	int *d, *h = (int *)malloc(N * sizeof(int));
	cudaEvent_t done;

	TRY(cudaSetDevice(0));
	TRY(cudaMalloc((void **)&d, N * sizeof(int)));
	TRY(cudaMemcpyToSymbol(offsets, &off, sizeof(int), t * sizeof(int)));
	TRY(cudaMemset(d, 0, N * sizeof(int)));
	TRY(cudaEventCreate(&done));
	fill<<<N / 256, 256>>>(d, t, N);
	TRY(cudaGetLastError());
	TRY(cudaEventRecord(done, 0));
	TRY(cudaStreamWaitEvent(0, done, 0));
	TRY(cudaStreamSynchronize(0));
	TRY(cudaStreamQuery(0));
	TRY(cudaEventQuery(done));
	TRY(cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost));
	TRY(cudaMemcpyFromSymbol(&back, offsets, sizeof(int),
				 t * sizeof(int)));
	for (i = 0; i < N; i++)
		bad += h[i] != i * (t + 1) + off;
	bad += back != off;
	TRY(cudaEventDestroy(done));
	TRY(cudaFree(d));
	free(h);
	return (void *)(long)bad;
}

int main(void)
{
	pthread_t threads[THREADS];
	int t, bad = 0;

	rt_check_library();
	for (t = 0; t < THREADS; t++)
		if (pthread_create(&threads[t], NULL, worker, (void *)(long)t))
			rt_failures++;
	for (t = 0; t < THREADS; t++) {
		void *r = NULL;

		pthread_join(threads[t], &r);
		bad += (int)(long)r;
	}
	EXPECT_TRUE(bad == 0);
	printf("%d threads on their own default streams: %d wrong\n", THREADS,
	       bad);
	return rt_result();
}
