// SPDX-License-Identifier: MIT
// Stream priorities: the device's range (lower numbers are greater
// priorities), streams made at the least and the greatest priority and at
// priorities past either end (clamped into the range, as NVIDIA's runtime
// does), the priorities read back, and the same work on each stream with
// its results checked. Which stream finishes first is the device's
// business: the times are printed on "~ " lines only.
#include "rt.h"

#define N (32 * 1024)

__global__ void work(float *p, int rounds, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n) {
		float v = p[i];

		for (int r = 0; r < rounds; r++)
			v = v * 0.5f + 1.0f;
		p[i] = v;
	}
}

static int priority_of(cudaStream_t s)
{
	int prio = 12345;

	TRY(cudaStreamGetPriority(s, &prio));
	return prio;
}

int main(void)
{
	int least = 12345, greatest = 12345, i, k;
	const int rounds = 32;
	cudaStream_t s[6], bad;
	cudaEvent_t start[2], stop[2];
	float *d[2], *h;

	rt_check_library();
	TRY(cudaSetDevice(0));
	TRY(cudaDeviceGetStreamPriorityRange(&least, &greatest));
	EXPECT_TRUE(greatest <= least);
	printf("stream priorities from %d (least) to %d (greatest)\n", least,
	       greatest);
	printf("the range without the least: %s, without the greatest: %s\n",
	       cudaGetErrorName(cudaDeviceGetStreamPriorityRange(NULL, &k)),
	       cudaGetErrorName(cudaDeviceGetStreamPriorityRange(&k, NULL)));

	TRY(cudaStreamCreateWithPriority(&s[0], cudaStreamNonBlocking, least));
	TRY(cudaStreamCreateWithPriority(&s[1], cudaStreamNonBlocking,
					 greatest));
	TRY(cudaStreamCreateWithPriority(&s[2], cudaStreamDefault,
					 least + 7));
	TRY(cudaStreamCreateWithPriority(&s[3], cudaStreamDefault,
					 greatest - 7));
	TRY(cudaStreamCreateWithPriority(&s[4], cudaStreamNonBlocking,
					 (least + greatest) / 2));
	TRY(cudaStreamCreate(&s[5]));
	EXPECT_TRUE(priority_of(s[0]) == least);
	EXPECT_TRUE(priority_of(s[1]) == greatest);
	printf("made at the least priority %d: %d\n", least,
	       priority_of(s[0]));
	printf("made at the greatest priority %d: %d\n", greatest,
	       priority_of(s[1]));
	printf("made at %d, past the least: %d\n", least + 7,
	       priority_of(s[2]));
	printf("made at %d, past the greatest: %d\n", greatest - 7,
	       priority_of(s[3]));
	printf("made at %d, in between: %d\n", (least + greatest) / 2,
	       priority_of(s[4]));
	printf("cudaStreamCreate's stream: %d, the default stream: %d\n",
	       priority_of(s[5]), priority_of(0));
	printf("cudaStreamCreateWithPriority with flags 4: %s\n",
	       cudaGetErrorName(cudaStreamCreateWithPriority(&bad, 4, 0)));
	printf("cudaStreamGetPriority without an output: %s\n",
	       cudaGetErrorName(cudaStreamGetPriority(s[0], NULL)));
	printf("then cudaGetLastError: %s\n",
	       cudaGetErrorName(cudaGetLastError()));

	// The same work on the least and the greatest priority streams, queued
	// least first.
	TRY(cudaMallocHost((void **)&h, N * sizeof(float)));
	for (k = 0; k < 2; k++) {
		TRY(cudaMalloc((void **)&d[k], N * sizeof(float)));
		TRY(cudaMemset(d[k], 0, N * sizeof(float)));
		TRY(cudaEventCreate(&start[k]));
		TRY(cudaEventCreate(&stop[k]));
	}
	TRY(cudaDeviceSynchronize());
	for (k = 0; k < 2; k++) {
		TRY(cudaEventRecord(start[k], s[k]));
		work<<<N / 256, 256, 0, s[k]>>>(d[k], rounds, N);
		TRY(cudaEventRecord(stop[k], s[k]));
	}
	TRY(cudaGetLastError());
	for (k = 0; k < 2; k++) {
		float ms = 0, want = 0;
		int wrong = 0;

		TRY(cudaEventSynchronize(stop[k]));
		TRY(cudaEventElapsedTime(&ms, start[k], stop[k]));
		TRY(cudaMemcpy(h, d[k], N * sizeof(float),
			       cudaMemcpyDeviceToHost));
		for (i = 0; i < rounds; i++)
			want = want * 0.5f + 1.0f;
		for (i = 0; i < N; i++)
			wrong += h[i] != want;
		EXPECT_TRUE(wrong == 0);
		printf("%s priority stream: %d wrong\n",
		       k ? "greatest" : "least", wrong);
		printf("~ %s priority stream: %.3f ms\n",
		       k ? "greatest" : "least", ms);
	}

	for (k = 0; k < 2; k++) {
		TRY(cudaEventDestroy(start[k]));
		TRY(cudaEventDestroy(stop[k]));
		TRY(cudaFree(d[k]));
	}
	TRY(cudaFreeHost(h));
	for (k = 0; k < 6; k++)
		TRY(cudaStreamDestroy(s[k]));
	return rt_result();
}
