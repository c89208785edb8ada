// SPDX-License-Identifier: MIT
// Many streams at once: on each of 16 streams a kernel writes a value and a
// second kernel, queued after it on the same stream, adds to it, so each
// stream's pair must run in order while the streams may run side by side.
// A last kernel, on the legacy default stream after all of them, sums the
// streams' results. The whole is timed with events; the results are
// checked.
#include "rt.h"

#define STREAMS 16
#define WIDTH 256

// Kernel A: stream @s's row gets its first values.
__global__ void kernel_a(int *row, int s)
{
	int i = threadIdx.x;

	row[i] = s * 1000 + i;
}

// Kernel B: adds to what kernel A left, which it must find there.
__global__ void kernel_b(int *row, int s)
{
	int i = threadIdx.x;

	row[i] = row[i] * 2 + s;
}

// Sums each column over all rows.
__global__ void sum_rows(const int *rows, int *sums, int count)
{
	int i = threadIdx.x, s, v = 0;

	for (s = 0; s < count; s++)
		v += rows[s * WIDTH + i];
	sums[i] = v;
}

static int b_of(int s, int i)
{
	return (s * 1000 + i) * 2 + s;
}

int main(void)
{
	cudaStream_t st[STREAMS];
	cudaEvent_t start, stop;
	int *d_rows, *d_sums, rows[STREAMS * WIDTH], sums[WIDTH];
	int s, i, wrong, bad_rows;
	float ms = -1;

	rt_check_library();
	TRY(cudaSetDevice(0));
	TRY(cudaMalloc((void **)&d_rows, sizeof(rows)));
	TRY(cudaMalloc((void **)&d_sums, sizeof(sums)));
	TRY(cudaMemset(d_rows, 0, sizeof(rows)));
	for (s = 0; s < STREAMS; s++)
		TRY(cudaStreamCreate(&st[s]));
	TRY(cudaEventCreate(&start));
	TRY(cudaEventCreate(&stop));

	// The legacy default stream waits for the blocking streams and they
	// for it: the sum runs once every pair is done.
	TRY(cudaEventRecord(start, 0));
	for (s = 0; s < STREAMS; s++) {
		kernel_a<<<1, WIDTH, 0, st[s]>>>(d_rows + s * WIDTH, s);
		kernel_b<<<1, WIDTH, 0, st[s]>>>(d_rows + s * WIDTH, s);
	}
	sum_rows<<<1, WIDTH>>>(d_rows, d_sums, STREAMS);
	TRY(cudaGetLastError());
	TRY(cudaEventRecord(stop, 0));
	TRY(cudaEventSynchronize(stop));
	TRY(cudaEventElapsedTime(&ms, start, stop));
	EXPECT_TRUE(ms >= 0);
	TRY(cudaMemcpy(rows, d_rows, sizeof(rows), cudaMemcpyDeviceToHost));
	TRY(cudaMemcpy(sums, d_sums, sizeof(sums), cudaMemcpyDeviceToHost));
	for (s = 0, bad_rows = 0; s < STREAMS; s++)
		for (i = 0; i < WIDTH; i++)
			bad_rows += rows[s * WIDTH + i] != b_of(s, i);
	for (i = 0, wrong = 0; i < WIDTH; i++) {
		int want = 0;

		for (s = 0; s < STREAMS; s++)
			want += b_of(s, i);
		wrong += sums[i] != want;
	}
	EXPECT_TRUE(bad_rows == 0 && wrong == 0);
	printf("%d streams of kernel A then kernel B: %d wrong\n", STREAMS,
	       bad_rows);
	printf("the sum over the streams on the default stream: %d wrong\n",
	       wrong);
	printf("~ %d streams, %d kernels: %.3f ms\n", STREAMS,
	       2 * STREAMS + 1, ms);

	// Again with non-blocking streams, which the legacy default stream
	// does not wait for: an event per stream makes the sum wait.
	cudaStream_t nb[STREAMS];
	cudaEvent_t done[STREAMS];
	cudaStream_t last;

	TRY(cudaMemset(d_rows, 0, sizeof(rows)));
	TRY(cudaMemset(d_sums, 0, sizeof(sums)));
	// The fills are on the legacy default stream, which the
	// non-blocking streams do not wait for: they must be done first.
	TRY(cudaDeviceSynchronize());
	TRY(cudaStreamCreateWithFlags(&last, cudaStreamNonBlocking));
	TRY(cudaEventRecord(start, last));
	for (s = 0; s < STREAMS; s++) {
		TRY(cudaStreamCreateWithFlags(&nb[s], cudaStreamNonBlocking));
		TRY(cudaEventCreateWithFlags(&done[s],
					     cudaEventDisableTiming));
		TRY(cudaStreamWaitEvent(nb[s], start, 0));
		kernel_a<<<1, WIDTH, 0, nb[s]>>>(d_rows + s * WIDTH, s);
		kernel_b<<<1, WIDTH, 0, nb[s]>>>(d_rows + s * WIDTH, s);
		TRY(cudaEventRecord(done[s], nb[s]));
		TRY(cudaStreamWaitEvent(last, done[s], 0));
	}
	sum_rows<<<1, WIDTH, 0, last>>>(d_rows, d_sums, STREAMS);
	TRY(cudaGetLastError());
	TRY(cudaEventRecord(stop, last));
	TRY(cudaStreamSynchronize(last));
	TRY(cudaEventElapsedTime(&ms, start, stop));
	TRY(cudaMemcpy(sums, d_sums, sizeof(sums), cudaMemcpyDeviceToHost));
	for (i = 0, wrong = 0; i < WIDTH; i++) {
		int want = 0;

		for (s = 0; s < STREAMS; s++)
			want += b_of(s, i);
		wrong += sums[i] != want;
	}
	EXPECT_TRUE(wrong == 0);
	printf("non-blocking streams joined by events: %d wrong\n", wrong);
	printf("~ non-blocking: %.3f ms\n", ms);

	for (s = 0; s < STREAMS; s++) {
		TRY(cudaEventQuery(done[s]));
		TRY(cudaEventDestroy(done[s]));
		TRY(cudaStreamDestroy(nb[s]));
		TRY(cudaStreamDestroy(st[s]));
	}
	TRY(cudaStreamDestroy(last));
	TRY(cudaEventDestroy(start));
	TRY(cudaEventDestroy(stop));
	TRY(cudaFree(d_rows));
	TRY(cudaFree(d_sums));
	return rt_result();
}
