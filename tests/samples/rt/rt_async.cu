// SPDX-License-Identifier: MIT
// The host and the device working at once, the asyncAPI kind: a copy to
// the device, a kernel and a copy back queued on the default stream, an
// event recorded behind them, and the host free to count while it polls
// the event with cudaEventQuery until the work is done. Then an event held
// back by a host function that waits for the host, so that it is surely
// not ready when queried, and what cudaErrorNotReady leaves behind.
#include <pthread.h>

#include "rt.h"

#define N (64 * 1024)

__global__ void increment(int *p, int by)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	p[i] += by;
}

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cond = PTHREAD_COND_INITIALIZER;
static int gate_open;	// under gate_lock

// Holds the stream until the host opens the gate; it makes no CUDA call.
static void CUDART_CB wait_for_gate(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&gate_lock);
	while (!gate_open)
		pthread_cond_wait(&gate_cond, &gate_lock);
	pthread_mutex_unlock(&gate_lock);
}

static void poll_while_busy(void)
{
	const int by = 26;
	cudaEvent_t start, stop;
	unsigned long busy = 0;
	cudaError_t e;
	float ms = 0;
	int *h, *d, i, wrong = 0;

	// Page-locked, so that the copies are truly asynchronous.
	TRY(cudaMallocHost((void **)&h, N * sizeof(int)));
	TRY(cudaMalloc((void **)&d, N * sizeof(int)));
	for (i = 0; i < N; i++)
		h[i] = i;
	TRY(cudaMemset(d, 0, N * sizeof(int)));
	// The first launch loads (and may compile) the kernel before it
	// returns; have that done before the host starts counting.
	increment<<<1, 1>>>(d, 0);
	TRY(cudaEventCreate(&start));
	TRY(cudaEventCreate(&stop));
	TRY(cudaDeviceSynchronize());

	TRY(cudaEventRecord(start, 0));
	TRY(cudaMemcpyAsync(d, h, N * sizeof(int), cudaMemcpyHostToDevice, 0));
	increment<<<N / 256, 256, 0, 0>>>(d, by);
	TRY(cudaMemcpyAsync(h, d, N * sizeof(int), cudaMemcpyDeviceToHost, 0));
	TRY(cudaEventRecord(stop, 0));

	// Every call above returned at once; the host counts until the
	// device catches up.
	while ((e = cudaEventQuery(stop)) == cudaErrorNotReady)
		busy++;
	EXPECT(cudaSuccess, e);
	TRY(cudaEventElapsedTime(&ms, start, stop));
	printf("~ the host counted to %lu while the device worked "
	       "(%.3f ms)\n", busy, ms);

	for (i = 0; i < N; i++)
		wrong += h[i] != i + by;
	EXPECT_TRUE(wrong == 0);
	printf("copy, increment by %d and copy back on stream 0: %d wrong\n",
	       by, wrong);
	printf("after polling, cudaGetLastError: %s\n",
	       cudaGetErrorName(cudaGetLastError()));

	TRY(cudaEventDestroy(start));
	TRY(cudaEventDestroy(stop));
	TRY(cudaFree(d));
	TRY(cudaFreeHost(h));
}

static void held_back(void)
{
	cudaStream_t s;
	cudaEvent_t ev;
	cudaError_t e;

	TRY(cudaStreamCreate(&s));
	TRY(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming));
	TRY(cudaLaunchHostFunc(s, wait_for_gate, NULL));
	TRY(cudaEventRecord(ev, s));

	// Nothing the device does can finish the event before the gate opens.
	e = cudaEventQuery(ev);
	printf("an event behind a closed gate: cudaEventQuery %s, "
	       "cudaStreamQuery %s\n", cudaGetErrorName(e),
	       cudaGetErrorName(cudaStreamQuery(s)));
	EXPECT(cudaErrorNotReady, e);
	// Not ready is no error: it is neither kept nor sticky.
	printf("then cudaGetLastError %s, cudaPeekAtLastError %s\n",
	       cudaGetErrorName(cudaGetLastError()),
	       cudaGetErrorName(cudaPeekAtLastError()));

	pthread_mutex_lock(&gate_lock);
	gate_open = 1;
	pthread_cond_signal(&gate_cond);
	pthread_mutex_unlock(&gate_lock);
	TRY(cudaEventSynchronize(ev));
	printf("the gate open: cudaEventQuery %s, cudaStreamQuery %s\n",
	       cudaGetErrorName(cudaEventQuery(ev)),
	       cudaGetErrorName(cudaStreamQuery(s)));
	TRY(cudaStreamSynchronize(s));
	TRY(cudaEventDestroy(ev));
	TRY(cudaStreamDestroy(s));
}

int main(void)
{
	rt_check_library();
	TRY(cudaSetDevice(0));
	poll_while_busy();
	held_back();
	return rt_result();
}
