// SPDX-License-Identifier: MIT
// The single-stream program of "CUDA by Example": page-locked input and
// output buffers fed through the device in chunks on one stream, each
// chunk copied in, averaged by a kernel and copied out with
// cudaMemcpyAsync, the stream synchronized once at the end and the whole
// timed with events. rt_streams is the two-stream version.
#include "rt.h"

#define CHUNK (16 * 1024)
#define FULL (CHUNK * 6)

// Each output is the mean of three neighbours in each of two inputs.
__global__ void mean(const int *a, const int *b, float *c)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < CHUNK) {
		int i1 = (i + 1) % 256, i2 = (i + 2) % 256;
		float as = (a[i] + a[i1] + a[i2]) / 3.0f;
		float bs = (b[i] + b[i1] + b[i2]) / 3.0f;

		c[i] = (as + bs) / 2;
	}
}

// The host's answer for element @i of the whole buffer.
static float expected(const int *a, const int *b, int i)
{
	int base = i - i % CHUNK, j = i % CHUNK;
	int i1 = base + (j + 1) % 256, i2 = base + (j + 2) % 256;
	float as = (a[i] + a[i1] + a[i2]) / 3.0f;
	float bs = (b[i] + b[i1] + b[i2]) / 3.0f;

	return (as + bs) / 2;
}

int main(void)
{
	cudaEvent_t start, stop;
	cudaStream_t stream;
	int *ha, *hb, *da, *db, i, wrong = 0, overlap = -1;
	float *hc, *dc, ms = -1;

	rt_check_library();
	TRY(cudaSetDevice(0));
	// Overlap needs the device to copy while it computes.
	TRY(cudaDeviceGetAttribute(&overlap, cudaDevAttrGpuOverlap, 0));
	printf("~ device overlap: %d\n", overlap);
	TRY(cudaEventCreate(&start));
	TRY(cudaEventCreate(&stop));
	TRY(cudaStreamCreate(&stream));
	TRY(cudaMalloc((void **)&da, CHUNK * sizeof(int)));
	TRY(cudaMalloc((void **)&db, CHUNK * sizeof(int)));
	TRY(cudaMalloc((void **)&dc, CHUNK * sizeof(float)));
	// Asynchronous copies need page-locked host memory.
	TRY(cudaHostAlloc((void **)&ha, FULL * sizeof(int),
			  cudaHostAllocDefault));
	TRY(cudaHostAlloc((void **)&hb, FULL * sizeof(int),
			  cudaHostAllocDefault));
	TRY(cudaHostAlloc((void **)&hc, FULL * sizeof(float),
			  cudaHostAllocDefault));
	for (i = 0; i < FULL; i++) {
		ha[i] = (i * 7877) % 1013;
		hb[i] = (i * 6271) % 997;
	}

	TRY(cudaEventRecord(start, 0));
	for (i = 0; i < FULL; i += CHUNK) {
		TRY(cudaMemcpyAsync(da, ha + i, CHUNK * sizeof(int),
				    cudaMemcpyHostToDevice, stream));
		TRY(cudaMemcpyAsync(db, hb + i, CHUNK * sizeof(int),
				    cudaMemcpyHostToDevice, stream));
		mean<<<CHUNK / 256, 256, 0, stream>>>(da, db, dc);
		TRY(cudaMemcpyAsync(hc + i, dc, CHUNK * sizeof(float),
				    cudaMemcpyDeviceToHost, stream));
	}
	TRY(cudaGetLastError());
	TRY(cudaStreamSynchronize(stream));
	TRY(cudaStreamQuery(stream));
	TRY(cudaEventRecord(stop, 0));
	TRY(cudaEventSynchronize(stop));
	TRY(cudaEventElapsedTime(&ms, start, stop));
	EXPECT_TRUE(ms >= 0);
	for (i = 0; i < FULL; i++)
		wrong += hc[i] != expected(ha, hb, i);
	EXPECT_TRUE(wrong == 0);
	printf("%d chunks of %d through one stream: %d wrong\n", FULL / CHUNK,
	       CHUNK, wrong);
	printf("~ time taken: %.1f ms\n", ms);

	TRY(cudaFreeHost(ha));
	TRY(cudaFreeHost(hb));
	TRY(cudaFreeHost(hc));
	TRY(cudaFree(da));
	TRY(cudaFree(db));
	TRY(cudaFree(dc));
	TRY(cudaStreamDestroy(stream));
	TRY(cudaEventDestroy(start));
	TRY(cudaEventDestroy(stop));
	return rt_result();
}
