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

// 2D and 3D fills and copies on the thread's stream 0, sync and async.
static int pitched(int t)
{
	unsigned char h2[16][64], h3[2][4][32];
	cudaExtent ext = make_cudaExtent(32, 4, 2);
	cudaMemcpy3DParms p;
	cudaPitchedPtr p3;
	size_t pitch;
	void *p2;
	int bad = 0;

	TRY(cudaMallocPitch(&p2, &pitch, 64, 16));
	TRY(cudaMemset2DAsync(p2, pitch, 0, 64, 16, 0));
	TRY(cudaMemset2D(p2, pitch, t + 1, 64, 16));
	TRY(cudaMemcpy2D(h2, 64, p2, pitch, 64, 16, cudaMemcpyDeviceToHost));
	for (int i = 0; i < 16 * 64; i++)
		bad += h2[i / 64][i % 64] != t + 1;
	memset(h2, 0, sizeof(h2));
	TRY(cudaMemcpy2DAsync(h2, 64, p2, pitch, 64, 16,
			      cudaMemcpyDeviceToHost, 0));
	TRY(cudaStreamSynchronize(0));
	bad += h2[15][63] != t + 1;
	TRY(cudaMalloc3D(&p3, ext));
	TRY(cudaMemset3DAsync(p3, 0, ext, 0));
	TRY(cudaMemset3D(p3, t + 7, ext));
	memset(&p, 0, sizeof(p));
	p.srcPtr = p3;
	p.dstPtr = make_cudaPitchedPtr(h3, 32, 32, 4);
	p.extent = ext;
	p.kind = cudaMemcpyDeviceToHost;
	TRY(cudaMemcpy3D(&p));
	for (int i = 0; i < 2 * 4 * 32; i++)
		bad += h3[i / 128][i / 32 % 4][i % 32] != t + 7;
	h3[1][3][31] = 0;
	TRY(cudaMemcpy3DAsync(&p, 0));
	TRY(cudaStreamSynchronize(0));
	bad += h3[1][3][31] != t + 7;
	TRY(cudaFree(p2));
	TRY(cudaFree(p3.ptr));
	return bad;
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
	bad += pitched(t);
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
	printf("%d threads on their own default streams, with 2D and 3D "
	       "copies and fills: %d wrong\n", THREADS, bad);
	return rt_result();
}
