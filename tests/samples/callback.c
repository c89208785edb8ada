// SPDX-License-Identifier: MIT
/*
 * The Programming Guide's stream callback example over the driver API:
 * two streams each copy their half of a page-locked input to the device,
 * run a kernel, copy the result back and queue a host function, which
 * runs once that stream's work is done: it checks the stream's half of
 * the output and prints "Inside callback N". A callback added with
 * cuStreamAddCallback at the end reports the stream's status.
 */
#include <pthread.h>

#include "sample.h"

#define SIZE (64 * 1024)
#define HALF (SIZE / 2)

static float *host_in, *host_out;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int bad, calls;

static void MyCallback(void *data)
{
	int s = (int)(intptr_t)data, i, wrong = 0;

	for (i = s * HALF; i < (s + 1) * HALF; i++)
		wrong += host_out[i] != 2.0f * host_in[i];
	pthread_mutex_lock(&lock);
	printf("Inside callback %d\n", s);
	bad += wrong;
	calls++;
	pthread_mutex_unlock(&lock);
}

static void status_callback(CUstream s, CUresult status, void *data)
{
	(void)s;
	pthread_mutex_lock(&lock);
	printf("Stream %d done: status %d\n", (int)(intptr_t)data, (int)status);
	bad += status != CUDA_SUCCESS;
	calls++;
	pthread_mutex_unlock(&lock);
}

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "callback");
	CUfunction kernel = sample_func(mod, "MyKernel");
	CUstream stream[2];
	CUdeviceptr in, out;
	int i, size = HALF;

	TRY(cuMemAllocHost((void **)&host_in, SIZE * sizeof(float)));
	TRY(cuMemAllocHost((void **)&host_out, SIZE * sizeof(float)));
	TRY(cuMemAlloc(&in, SIZE * sizeof(float)));
	TRY(cuMemAlloc(&out, SIZE * sizeof(float)));
	for (i = 0; i < SIZE; i++) {
		host_in[i] = (float)i * 0.5f;
		host_out[i] = -1.0f;
	}
	for (i = 0; i < 2; i++)
		TRY(cuStreamCreate(&stream[i], 0));
	for (i = 0; i < 2; i++) {
		CUdeviceptr din = in + (size_t)i * HALF * sizeof(float);
		CUdeviceptr dout = out + (size_t)i * HALF * sizeof(float);
		void *args[] = { &dout, &din, &size };

		TRY(cuMemcpyHtoDAsync(din, host_in + i * HALF, HALF * sizeof(float),
				      stream[i]));
		TRY(cuLaunchKernel(kernel, HALF / 256, 1, 1, 256, 1, 1, 0, stream[i],
				   args, NULL));
		TRY(cuMemcpyDtoHAsync(host_out + i * HALF, dout, HALF * sizeof(float),
				      stream[i]));
		TRY(cuLaunchHostFunc(stream[i], MyCallback, (void *)(intptr_t)i));
		TRY(cuStreamAddCallback(stream[i], status_callback,
					(void *)(intptr_t)i, 0));
	}
	TRY(cuCtxSynchronize());
	for (i = 0; i < 2; i++)
		TRY(cuStreamDestroy(stream[i]));
	if (calls != 4) {
		printf("%d of 4 host functions ran\n", calls);
		bad++;
	}
	return sample_result(bad);
}
