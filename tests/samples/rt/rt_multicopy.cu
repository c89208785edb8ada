// SPDX-License-Identifier: MIT
// Copies overlapped with kernels on several streams: each stream takes its
// slice of page-locked host memory to the device, runs a kernel on it and
// brings the result back, all queued before anything is waited for, and
// the whole is repeated a few times, timed with events. Then the same
// work on one stream, for comparison; both results are checked.
#include "rt.h"

#define STREAMS 4
#define SLICE (8 * 1024)
#define N (STREAMS * SLICE)
#define ROUNDS 3
#define PASSES 4

// A few passes over each element, so that the kernel takes some time.
__global__ void work(const int *in, int *out, int n, int round)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, k;

	if (i < n) {
		unsigned int v = in[i];

		for (k = 0; k < PASSES; k++)
			v = v * 3u + round + k;
		out[i] = (int)v;
	}
}

static int expected(int in, int round)
{
	unsigned int v = in;
	int k;

	for (k = 0; k < PASSES; k++)
		v = v * 3u + round + k;
	return (int)v;
}

struct bufs {
	int *h_in, *h_out;
	int *d_in[STREAMS], *d_out[STREAMS];
};

// Runs the rounds on the first @count streams, the slices dealt out among
// them, each round queued whole before it is waited for; returns the
// elements that came back wrong, and the time in @ms.
static int rounds(struct bufs *b, cudaStream_t *st, int count, float *ms)
{
	cudaEvent_t start, stop;
	int r, s, i, wrong = 0;

	TRY(cudaEventCreate(&start));
	TRY(cudaEventCreate(&stop));
	TRY(cudaEventRecord(start, 0));
	for (r = 0; r < ROUNDS; r++) {
		memset(b->h_out, 0, N * sizeof(int));
		for (s = 0; s < STREAMS; s++) {
			cudaStream_t q = st[s % count];
			int *hi = b->h_in + s * SLICE, *ho = b->h_out + s * SLICE;

			TRY(cudaMemcpyAsync(b->d_in[s], hi, SLICE * sizeof(int),
					    cudaMemcpyHostToDevice, q));
			work<<<SLICE / 256, 256, 0, q>>>(b->d_in[s],
							 b->d_out[s], SLICE,
							 r);
			TRY(cudaMemcpyAsync(ho, b->d_out[s],
					    SLICE * sizeof(int),
					    cudaMemcpyDeviceToHost, q));
		}
		TRY(cudaGetLastError());
		for (s = 0; s < count; s++)
			TRY(cudaStreamSynchronize(st[s]));
		for (i = 0; i < N; i++)
			wrong += b->h_out[i] != expected(b->h_in[i], r);
	}
	TRY(cudaEventRecord(stop, 0));
	TRY(cudaEventSynchronize(stop));
	TRY(cudaEventElapsedTime(ms, start, stop));
	TRY(cudaEventDestroy(start));
	TRY(cudaEventDestroy(stop));
	return wrong;
}

int main(void)
{
	struct cudaDeviceProp prop;
	cudaStream_t st[STREAMS];
	struct bufs b;
	float ms = -1, one = -1;
	int s, i, wrong;

	rt_check_library();
	TRY(cudaSetDevice(0));
	TRY(cudaGetDeviceProperties(&prop, 0));
	printf("~ %s: %d copy engines, concurrent kernels %d\n", prop.name,
	       prop.asyncEngineCount, prop.concurrentKernels);
	TRY(cudaMallocHost((void **)&b.h_in, N * sizeof(int)));
	TRY(cudaHostAlloc((void **)&b.h_out, N * sizeof(int),
			  cudaHostAllocDefault));
	for (i = 0; i < N; i++)
		b.h_in[i] = (i * 2654435761u) >> 7;
	for (s = 0; s < STREAMS; s++) {
		TRY(cudaStreamCreate(&st[s]));
		TRY(cudaMalloc((void **)&b.d_in[s], SLICE * sizeof(int)));
		TRY(cudaMalloc((void **)&b.d_out[s], SLICE * sizeof(int)));
	}

	wrong = rounds(&b, st, STREAMS, &ms);
	EXPECT_TRUE(wrong == 0 && ms >= 0);
	printf("%d streams, %d rounds of copy in, kernel, copy out: %d wrong\n",
	       STREAMS, ROUNDS, wrong);
	printf("~ %d streams: %.2f ms\n", STREAMS, ms);
	wrong = rounds(&b, st, 1, &one);
	EXPECT_TRUE(wrong == 0 && one >= 0);
	printf("1 stream, the same work: %d wrong\n", wrong);
	printf("~ 1 stream: %.2f ms\n", one);

	for (s = 0; s < STREAMS; s++) {
		TRY(cudaStreamQuery(st[s]));
		TRY(cudaFree(b.d_in[s]));
		TRY(cudaFree(b.d_out[s]));
		TRY(cudaStreamDestroy(st[s]));
	}
	TRY(cudaFreeHost(b.h_in));
	TRY(cudaFreeHost(b.h_out));
	return rt_result();
}
