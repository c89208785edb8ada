// SPDX-License-Identifier: MIT
/*
 * A host program with several threads, each driving its own streams of one
 * context: every thread takes a slice of two vectors, and in chunks
 * alternating between its two streams copies x and y in, runs saxpy and
 * copies y out, timing its work with events; then checks its slice.
 */
#include <pthread.h>

#include "sample.h"

#define THREADS 4
#define SLICE (32 * 1024)
#define CHUNK (4 * 1024)

static CUcontext ctx;
static CUfunction saxpy;
static float *x, *y, *want;

struct job {
	int id;
	int bad;
	float ms;
	CUresult err;
};

#define J_TRY(j, call) do { \
	CUresult _r = (call); \
	if (_r != CUDA_SUCCESS && !(j)->err) \
		(j)->err = _r; \
} while (0)

static void *run(void *arg)
{
	struct job *j = arg;
	size_t off = (size_t)j->id * SLICE;
	CUdeviceptr dx[2], dy[2];
	CUstream s[2];
	CUevent start, stop;
	float a = 2.0f + j->id;
	int n = CHUNK, c, i;

	J_TRY(j, cuCtxSetCurrent(ctx));
	for (i = 0; i < 2; i++) {
		J_TRY(j, cuStreamCreate(&s[i], CU_STREAM_NON_BLOCKING));
		J_TRY(j, cuMemAlloc(&dx[i], CHUNK * sizeof(float)));
		J_TRY(j, cuMemAlloc(&dy[i], CHUNK * sizeof(float)));
	}
	J_TRY(j, cuEventCreate(&start, 0));
	J_TRY(j, cuEventCreate(&stop, 0));
	if (j->err)
		return NULL;
	J_TRY(j, cuEventRecord(start, s[0]));
	for (c = 0; c < SLICE / CHUNK; c++) {
		int k = c % 2;
		size_t at = off + (size_t)c * CHUNK;
		void *args[] = { &n, &a, &dx[k], &dy[k] };

		J_TRY(j, cuMemcpyHtoDAsync(dx[k], x + at, CHUNK * sizeof(float), s[k]));
		J_TRY(j, cuMemcpyHtoDAsync(dy[k], y + at, CHUNK * sizeof(float), s[k]));
		J_TRY(j, cuLaunchKernel(saxpy, CHUNK / 256, 1, 1, 256, 1, 1, 0, s[k],
					args, NULL));
		J_TRY(j, cuMemcpyDtoHAsync(y + at, dy[k], CHUNK * sizeof(float), s[k]));
	}
	/* stop after both streams: s[0] waits for s[1]'s last work. */
	{
		CUevent done;

		J_TRY(j, cuEventCreate(&done, CU_EVENT_DISABLE_TIMING));
		J_TRY(j, cuEventRecord(done, s[1]));
		J_TRY(j, cuStreamWaitEvent(s[0], done, 0));
		J_TRY(j, cuEventDestroy(done));
	}
	J_TRY(j, cuEventRecord(stop, s[0]));
	J_TRY(j, cuEventSynchronize(stop));
	J_TRY(j, cuEventElapsedTime(&j->ms, start, stop));
	for (i = 0; i < SLICE; i++)
		j->bad += y[off + i] != want[off + i];
	for (i = 0; i < 2; i++) {
		J_TRY(j, cuStreamDestroy(s[i]));
		J_TRY(j, cuMemFree(dx[i]));
		J_TRY(j, cuMemFree(dy[i]));
	}
	J_TRY(j, cuEventDestroy(start));
	J_TRY(j, cuEventDestroy(stop));
	return NULL;
}

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "threads");
	struct job jobs[THREADS];
	pthread_t t[THREADS];
	size_t i, n = (size_t)THREADS * SLICE;
	int bad = 0;

	saxpy = sample_func(mod, "saxpy");
	TRY(cuCtxGetCurrent(&ctx));
	TRY(cuMemAllocHost((void **)&x, n * sizeof(float)));
	TRY(cuMemAllocHost((void **)&y, n * sizeof(float)));
	want = malloc(n * sizeof(float));
	for (i = 0; i < n; i++) {
		x[i] = (float)(i % 1000) * 0.25f;
		y[i] = (float)(i % 77);
		/* the kernel's fma, rounded once, as fmaf does */
		want[i] = fmaf(2.0f + (float)(i / SLICE), x[i], y[i]);
	}
	for (i = 0; i < THREADS; i++) {
		jobs[i] = (struct job){ .id = (int)i };
		if (pthread_create(&t[i], NULL, run, &jobs[i])) {
			printf("pthread_create failed\n");
			return sample_result(1);
		}
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		printf("thread %zu: %.1f ms, %d wrong%s\n", i, (double)jobs[i].ms,
		       jobs[i].bad, jobs[i].err ? ", a call failed" : "");
		bad += jobs[i].bad + (jobs[i].err != CUDA_SUCCESS);
	}
	return sample_result(bad);
}
