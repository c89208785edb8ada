// SPDX-License-Identifier: MIT
/*
 * A simpleStreams-style program over the driver API: an array is filled
 * by a kernel and copied back to page-locked memory, first as one kernel
 * and one copy ("non-streamed"), then split over 4 streams, each running
 * the kernel on its part and copying that part back, so one stream's copy
 * can overlap another's kernel. Every phase is timed with events on the
 * legacy stream, and each result is checked.
 */
#include "sample.h"

#define N (1 << 16)
#define NSTREAMS 4
#define ITERATIONS 5

static int check(const int *a, int want)
{
	int i;

	for (i = 0; i < N; i++)
		if (a[i] != want) {
			printf("element %d: %d, expected %d\n", i, a[i], want);
			return 1;
		}
	return 0;
}

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "simplestreams");
	CUfunction init_array = sample_func(mod, "init_array");
	CUstream streams[NSTREAMS];
	CUevent start, stop;
	CUdeviceptr d_a, d_c;
	int *a, c = 5, iters = ITERATIONS, i, bad = 0;
	float ms;

	TRY(cuMemAllocHost((void **)&a, N * sizeof(int)));
	TRY(cuMemAlloc(&d_a, N * sizeof(int)));
	TRY(cuMemAlloc(&d_c, sizeof(int)));
	TRY(cuMemcpyHtoD(d_c, &c, sizeof(int)));
	for (i = 0; i < NSTREAMS; i++)
		TRY(cuStreamCreate(&streams[i], 0));
	TRY(cuEventCreate(&start, CU_EVENT_BLOCKING_SYNC));
	TRY(cuEventCreate(&stop, CU_EVENT_BLOCKING_SYNC));

	/* A copy alone. */
	TRY(cuMemsetD32(d_a, 0, N));
	TRY(cuEventRecord(start, NULL));
	TRY(cuMemcpyDtoHAsync(a, d_a, N * sizeof(int), streams[0]));
	TRY(cuEventRecord(stop, NULL));
	TRY(cuEventSynchronize(stop));
	TRY(cuEventElapsedTime(&ms, start, stop));
	printf("memcopy:\t%.2f ms\n", ms);
	bad += check(a, 0);

	/* The kernel alone. */
	{
		void *args[] = { &d_a, &d_c, &iters };

		TRY(cuEventRecord(start, NULL));
		TRY(cuLaunchKernel(init_array, N / 256, 1, 1, 256, 1, 1, 0,
				   streams[0], args, NULL));
		TRY(cuEventRecord(stop, NULL));
		TRY(cuEventSynchronize(stop));
		TRY(cuEventElapsedTime(&ms, start, stop));
		printf("kernel:\t\t%.2f ms\n", ms);
	}

	/* Non-streamed: the kernel, then the whole copy. */
	{
		void *args[] = { &d_a, &d_c, &iters };

		TRY(cuMemsetD32(d_a, 0, N));
		TRY(cuEventRecord(start, NULL));
		TRY(cuLaunchKernel(init_array, N / 256, 1, 1, 256, 1, 1, 0, NULL,
				   args, NULL));
		TRY(cuMemcpyDtoHAsync(a, d_a, N * sizeof(int), NULL));
		TRY(cuEventRecord(stop, NULL));
		TRY(cuEventSynchronize(stop));
		TRY(cuEventElapsedTime(&ms, start, stop));
		printf("non-streamed:\t%.2f ms\n", ms);
		bad += check(a, c * ITERATIONS);
	}

	/* Streamed: each stream its part. */
	TRY(cuMemsetD32(d_a, 0, N));
	memset(a, 0xff, N * sizeof(int));
	TRY(cuEventRecord(start, NULL));
	for (i = 0; i < NSTREAMS; i++) {
		CUdeviceptr part = d_a + (size_t)i * (N / NSTREAMS) * sizeof(int);
		void *args[] = { &part, &d_c, &iters };

		TRY(cuLaunchKernel(init_array, N / NSTREAMS / 256, 1, 1, 256, 1, 1,
				   0, streams[i], args, NULL));
		TRY(cuMemcpyDtoHAsync(a + i * (N / NSTREAMS), part,
				      N / NSTREAMS * sizeof(int), streams[i]));
	}
	/* The legacy stream's record waits for the blocking streams. */
	TRY(cuEventRecord(stop, NULL));
	TRY(cuEventSynchronize(stop));
	TRY(cuEventElapsedTime(&ms, start, stop));
	printf("%d streams:\t%.2f ms\n", NSTREAMS, ms);
	bad += check(a, c * ITERATIONS);

	for (i = 0; i < NSTREAMS; i++)
		TRY(cuStreamDestroy(streams[i]));
	TRY(cuEventDestroy(start));
	TRY(cuEventDestroy(stop));
	TRY(cuMemFreeHost(a));
	return sample_result(bad);
}
