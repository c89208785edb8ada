// SPDX-License-Identifier: MIT
// Stream callbacks, the Programming Guide's kind: host threads, each
// driving a stream of its own, queue a copy in, a kernel and a copy out,
// then a callback (cudaStreamAddCallback) that checks the results from the
// host, then more work and a host function (cudaLaunchHostFunc) that checks
// that too. Callbacks make no CUDA call. The order is checked both ways: a
// callback sees everything queued before it done, and what is queued after
// it waits for it (the callback writes the input the next copy sends).
#include <pthread.h>

#include "rt.h"

#define WORKERS 4
#define N 4096

__global__ void affine(int *p, int mul, int add, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] = p[i] * mul + add;
}

struct worker {
	int id;
	cudaStream_t stream;
	int *h;		// page-locked: copies read it when they run
	int *d;
	// Written by the callbacks, read by the worker after the stream
	// synchronizes, which orders the two.
	int step;
	int callback_step, host_fn_step;
	int callback_wrong, host_fn_wrong;
	cudaError_t callback_status;
	pthread_t callback_thread;
	int host_fn_same_thread;
	int wrong;
};

// The first pass turns i into 3i + id.
static void CUDART_CB after_first(cudaStream_t s, cudaError_t status,
				  void *arg)
{
	struct worker *w = (struct worker *)arg;
	int i, wrong = 0;

	(void)s;
	w->callback_status = status;
	w->callback_step = ++w->step;
	w->callback_thread = pthread_self();
	for (i = 0; i < N; i++)
		wrong += w->h[i] != 3 * i + w->id;
	w->callback_wrong = wrong;
	// The input of the second pass: the copy queued after this callback
	// must send these values, not what the buffer held when it was
	// queued.
	for (i = 0; i < N; i++)
		w->h[i] = 10 * i;
}

// The second pass turns 10i into 20i - id.
static void CUDART_CB after_second(void *arg)
{
	struct worker *w = (struct worker *)arg;
	int i, wrong = 0;

	w->host_fn_step = ++w->step;
	w->host_fn_same_thread = pthread_equal(pthread_self(),
					       w->callback_thread);
	for (i = 0; i < N; i++)
		wrong += w->h[i] != 20 * i - w->id;
	w->host_fn_wrong = wrong;
}

static void *drive(void *arg)
{
	struct worker *w = (struct worker *)arg;
	size_t size = N * sizeof(int);
	int i;

	TRY(cudaSetDevice(0));
	TRY(cudaStreamCreateWithFlags(&w->stream, cudaStreamNonBlocking));
	TRY(cudaMallocHost((void **)&w->h, size));
	TRY(cudaMalloc((void **)&w->d, size));
	for (i = 0; i < N; i++)
		w->h[i] = i;

	TRY(cudaMemcpyAsync(w->d, w->h, size, cudaMemcpyHostToDevice,
			    w->stream));
	affine<<<N / 256, 256, 0, w->stream>>>(w->d, 3, w->id, N);
	TRY(cudaMemcpyAsync(w->h, w->d, size, cudaMemcpyDeviceToHost,
			    w->stream));
	TRY(cudaStreamAddCallback(w->stream, after_first, w, 0));
	TRY(cudaMemcpyAsync(w->d, w->h, size, cudaMemcpyHostToDevice,
			    w->stream));
	affine<<<N / 256, 256, 0, w->stream>>>(w->d, 2, -w->id, N);
	TRY(cudaMemcpyAsync(w->h, w->d, size, cudaMemcpyDeviceToHost,
			    w->stream));
	TRY(cudaLaunchHostFunc(w->stream, after_second, w));
	TRY(cudaGetLastError());
	TRY(cudaStreamSynchronize(w->stream));

	// The host function ran after the last copy; nothing changed since.
	for (i = 0; i < N; i++)
		w->wrong += w->h[i] != 20 * i - w->id;
	TRY(cudaFree(w->d));
	TRY(cudaFreeHost(w->h));
	TRY(cudaStreamDestroy(w->stream));
	return NULL;
}

// The arguments each call refuses.
static void bad_arguments(void)
{
	cudaStream_t s;

	TRY(cudaStreamCreate(&s));
	printf("cudaStreamAddCallback with flags 1: %s\n",
	       cudaGetErrorName(cudaStreamAddCallback(s, after_first, NULL,
						      1)));
	printf("cudaStreamAddCallback without a callback: %s\n",
	       cudaGetErrorName(cudaStreamAddCallback(s, NULL, NULL, 0)));
	printf("cudaLaunchHostFunc without a function: %s\n",
	       cudaGetErrorName(cudaLaunchHostFunc(s, NULL, NULL)));
	printf("then cudaGetLastError: %s\n",
	       cudaGetErrorName(cudaGetLastError()));
	TRY(cudaStreamSynchronize(s));
	TRY(cudaStreamDestroy(s));
}

int main(void)
{
	struct worker w[WORKERS];
	int i;

	rt_check_library();
	TRY(cudaSetDevice(0));
	memset(w, 0, sizeof(w));
	for (i = 0; i < WORKERS; i++) {
		w[i].id = i;
		w[i].callback_status = cudaErrorUnknown;
	}
	// Each host thread drives its own stream; cudaSetDevice made the
	// primary context, so the threads start on it at once.
	pthread_t t[WORKERS];
	for (i = 0; i < WORKERS; i++)
		if (pthread_create(&t[i], NULL, drive, &w[i]))
			rt_failures++;
	for (i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);

	for (i = 0; i < WORKERS; i++) {
		EXPECT(cudaSuccess, w[i].callback_status);
		EXPECT_TRUE(w[i].callback_step == 1 && w[i].host_fn_step == 2);
		EXPECT_TRUE(w[i].callback_wrong == 0 &&
			    w[i].host_fn_wrong == 0 && w[i].wrong == 0);
		printf("stream %d: callback %d (status %s, %d wrong), "
		       "host function %d (%d wrong), at the end %d wrong\n",
		       i, w[i].callback_step,
		       cudaGetErrorName(w[i].callback_status),
		       w[i].callback_wrong, w[i].host_fn_step,
		       w[i].host_fn_wrong, w[i].wrong);
		printf("~ stream %d: callback and host function on one "
		       "thread: %d\n", i, w[i].host_fn_same_thread);
	}
	bad_arguments();
	return rt_result();
}
