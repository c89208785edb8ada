// SPDX-License-Identifier: MIT
/*
 * The streams chapter of "CUDA by Example" over the driver API: a large
 * input in page-locked memory is processed in chunks of N elements (copy
 * a and b in, run the kernel, copy c out), timed with events:
 *   - one stream;
 *   - two streams, queued depth-first (all of chunk k's work on stream 0,
 *     then all of chunk k+1's on stream 1);
 *   - two streams, queued breadth-first (the copies of both chunks, then
 *     both kernels, then both copies out), which lets one stream's copies
 *     overlap the other's kernel on engines that do not reorder work.
 * Every result is checked against the host's computation.
 */
#include "sample.h"

#define N (16 * 1024)
#define FULL (N * 16)

static int *a, *b;
static float *c, *want;
static CUfunction kernel;
static CUdeviceptr da[2], db[2], dc[2];

static void launch(int s, CUstream st)
{
	void *args[] = { &da[s], &db[s], &dc[s] };

	TRY(cuLaunchKernel(kernel, N / 256, 1, 1, 256, 1, 1, 0, st, args, NULL));
}

static void chunk_in(int s, CUstream st, int i)
{
	TRY(cuMemcpyHtoDAsync(da[s], a + i, N * sizeof(int), st));
	TRY(cuMemcpyHtoDAsync(db[s], b + i, N * sizeof(int), st));
}

static void chunk_out(int s, CUstream st, int i)
{
	TRY(cuMemcpyDtoHAsync(c + i, dc[s], N * sizeof(float), st));
}

/* Runs one way of queueing the work; the time in ms from its events. */
static float run(int way, CUstream s0, CUstream s1)
{
	CUevent start, stop;
	float ms;
	int i;

	memset(c, 0, FULL * sizeof(float));
	TRY(cuEventCreate(&start, 0));
	TRY(cuEventCreate(&stop, 0));
	TRY(cuEventRecord(start, s0));
	for (i = 0; i < FULL; i += way ? 2 * N : N) {
		if (way == 0) {
			chunk_in(0, s0, i);
			launch(0, s0);
			chunk_out(0, s0, i);
		} else if (way == 1) {
			chunk_in(0, s0, i);
			launch(0, s0);
			chunk_out(0, s0, i);
			chunk_in(1, s1, i + N);
			launch(1, s1);
			chunk_out(1, s1, i + N);
		} else {
			chunk_in(0, s0, i);
			chunk_in(1, s1, i + N);
			launch(0, s0);
			launch(1, s1);
			chunk_out(0, s0, i);
			chunk_out(1, s1, i + N);
		}
	}
	/* The stop event covers both streams' work. */
	if (way) {
		CUevent done1;

		TRY(cuEventCreate(&done1, CU_EVENT_DISABLE_TIMING));
		TRY(cuEventRecord(done1, s1));
		TRY(cuStreamWaitEvent(s0, done1, 0));
		TRY(cuEventDestroy(done1));
	}
	TRY(cuEventRecord(stop, s0));
	TRY(cuEventSynchronize(stop));
	TRY(cuEventElapsedTime(&ms, start, stop));
	TRY(cuEventDestroy(start));
	TRY(cuEventDestroy(stop));
	return ms;
}

int main(int argc, char **argv)
{
	static const char *const ways[] = {
		"one stream", "two streams, depth-first",
		"two streams, breadth-first",
	};
	CUmodule mod = sample_open(argc, argv, "streams");
	CUstream s0, s1;
	int i, w, bad = 0;

	kernel = sample_func(mod, "kernel");
	TRY(cuMemHostAlloc((void **)&a, FULL * sizeof(int), 0));
	TRY(cuMemHostAlloc((void **)&b, FULL * sizeof(int), 0));
	TRY(cuMemHostAlloc((void **)&c, FULL * sizeof(float), 0));
	want = malloc(FULL * sizeof(float));
	for (i = 0; i < 2; i++) {
		TRY(cuMemAlloc(&da[i], N * sizeof(int)));
		TRY(cuMemAlloc(&db[i], N * sizeof(int)));
		TRY(cuMemAlloc(&dc[i], N * sizeof(float)));
	}
	srand(1);
	for (i = 0; i < FULL; i++) {
		a[i] = rand() % 1000;
		b[i] = rand() % 1000;
	}
	/* The kernel's arithmetic, in the same order and precision. */
	for (i = 0; i < FULL; i++) {
		int base = i - i % N, k = i % N;
		int k1 = (k + 1) % 256, k2 = (k + 2) % 256;
		float as = (float)(a[base + k] + a[base + k1] + a[base + k2]) / 3.0f;
		float bs = (float)(b[base + k] + b[base + k1] + b[base + k2]) / 3.0f;

		want[i] = (as + bs) / 2;
	}
	TRY(cuStreamCreate(&s0, 0));
	TRY(cuStreamCreate(&s1, 0));
	for (w = 0; w < 3; w++) {
		float ms = run(w, s0, s1);

		for (i = 0; i < FULL; i++)
			if (c[i] != want[i]) {
				fprintf(stderr, "%s: element %d: %g, expected %g\n",
					ways[w], i, (double)c[i], (double)want[i]);
				bad = 1;
				break;
			}
		printf("%s: %.1f ms\n", ways[w], ms);
	}
	TRY(cuStreamDestroy(s0));
	TRY(cuStreamDestroy(s1));
	printf("Result = %s\n", bad ? "FAIL" : "PASS");
	return bad;
}
