// SPDX-License-Identifier: MIT
// The streams chapter of "CUDA by Example" on the runtime API: page-locked
// buffers streamed through the device in chunks on two streams, queued
// depth-first and then breadth-first, timed with events; then a stream
// waiting on another's event, and the events' and streams' error codes.
#include "rt.h"

#define N (16 * 1024)
#define FULL (N * 8)

__global__ void average(const int *a, const int *b, float *c)
{
	int idx = threadIdx.x + blockIdx.x * blockDim.x;

	if (idx < N) {
		int idx1 = (idx + 1) % 256, idx2 = (idx + 2) % 256;
		float as = (a[idx] + a[idx1] + a[idx2]) / 3.0f;
		float bs = (b[idx] + b[idx1] + b[idx2]) / 3.0f;

		c[idx] = (as + bs) / 2;
	}
}

__global__ void scale(float *c, float by, int n)
{
	int idx = threadIdx.x + blockIdx.x * blockDim.x;

	if (idx < n)
		c[idx] *= by;
}

// The host's answer for element @i of the whole buffer.
static float expected(const int *a, const int *b, int i)
{
	int base = i - i % N, idx = i % N;
	int idx1 = base + (idx + 1) % 256, idx2 = base + (idx + 2) % 256;
	float as = (a[i] + a[idx1] + a[idx2]) / 3.0f;
	float bs = (b[i] + b[idx1] + b[idx2]) / 3.0f;

	return (as + bs) / 2;
}

struct buffers {
	int *ha, *hb;
	float *hc;
	int *da[2], *db[2];
	float *dc[2];
};

static void chunk(struct buffers *m, int s, int i, cudaStream_t st)
{
	TRY(cudaMemcpyAsync(m->da[s], m->ha + i, N * sizeof(int),
			    cudaMemcpyHostToDevice, st));
	TRY(cudaMemcpyAsync(m->db[s], m->hb + i, N * sizeof(int),
			    cudaMemcpyHostToDevice, st));
	average<<<N / 256, 256, 0, st>>>(m->da[s], m->db[s], m->dc[s]);
	TRY(cudaMemcpyAsync(m->hc + i, m->dc[s], N * sizeof(float),
			    cudaMemcpyDeviceToHost, st));
}

// Runs the whole buffer through two streams; @breadth interleaves the
// streams' operations, as the chapter's second version does.
static float run(struct buffers *m, cudaStream_t st[2], bool breadth)
{
	cudaEvent_t start, stop;
	float ms = -1;
	int i, bad = 0;

	memset(m->hc, 0, FULL * sizeof(float));
	TRY(cudaEventCreate(&start));
	TRY(cudaEventCreate(&stop));
	TRY(cudaEventRecord(start, 0));
	for (i = 0; i < FULL; i += 2 * N) {
		if (!breadth) {
			chunk(m, 0, i, st[0]);
			chunk(m, 1, i + N, st[1]);
			continue;
		}
		TRY(cudaMemcpyAsync(m->da[0], m->ha + i, N * sizeof(int),
				    cudaMemcpyHostToDevice, st[0]));
		TRY(cudaMemcpyAsync(m->da[1], m->ha + i + N, N * sizeof(int),
				    cudaMemcpyHostToDevice, st[1]));
		TRY(cudaMemcpyAsync(m->db[0], m->hb + i, N * sizeof(int),
				    cudaMemcpyHostToDevice, st[0]));
		TRY(cudaMemcpyAsync(m->db[1], m->hb + i + N, N * sizeof(int),
				    cudaMemcpyHostToDevice, st[1]));
		average<<<N / 256, 256, 0, st[0]>>>(m->da[0], m->db[0],
						     m->dc[0]);
		average<<<N / 256, 256, 0, st[1]>>>(m->da[1], m->db[1],
						     m->dc[1]);
		TRY(cudaMemcpyAsync(m->hc + i, m->dc[0], N * sizeof(float),
				    cudaMemcpyDeviceToHost, st[0]));
		TRY(cudaMemcpyAsync(m->hc + i + N, m->dc[1], N * sizeof(float),
				    cudaMemcpyDeviceToHost, st[1]));
	}
	TRY(cudaGetLastError());
	TRY(cudaStreamSynchronize(st[0]));
	TRY(cudaStreamSynchronize(st[1]));
	TRY(cudaEventRecord(stop, 0));
	TRY(cudaEventSynchronize(stop));
	TRY(cudaEventQuery(stop));
	TRY(cudaStreamQuery(st[0]));
	TRY(cudaEventElapsedTime(&ms, start, stop));
	EXPECT_TRUE(ms >= 0);
	for (i = 0; i < FULL; i++)
		bad += m->hc[i] != expected(m->ha, m->hb, i);
	EXPECT_TRUE(bad == 0);
	printf("%s-first: %d wrong\n", breadth ? "breadth" : "depth", bad);
	printf("~ %s-first: time taken: %.1f ms\n",
	       breadth ? "breadth" : "depth", ms);
	TRY(cudaEventDestroy(start));
	TRY(cudaEventDestroy(stop));
	return ms;
}

// Stream 1 scales what stream 0 computed once stream 0's event passes.
static void wait_event(struct buffers *m, cudaStream_t st[2])
{
	cudaEvent_t done;
	int i, bad = 0;

	TRY(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
	chunk(m, 0, 0, st[0]);
	TRY(cudaEventRecord(done, st[0]));
	TRY(cudaStreamWaitEvent(st[1], done, 0));
	scale<<<N / 256, 256, 0, st[1]>>>(m->dc[0], 2.0f, N);
	TRY(cudaMemcpyAsync(m->hc, m->dc[0], N * sizeof(float),
			    cudaMemcpyDeviceToHost, st[1]));
	TRY(cudaStreamSynchronize(st[1]));
	for (i = 0; i < N; i++)
		bad += m->hc[i] != 2.0f * expected(m->ha, m->hb, i);
	EXPECT_TRUE(bad == 0);
	printf("a stream waiting on another's event: %d wrong\n", bad);

	// An event without timing has no elapsed time.
	float ms;
	EXPECT(cudaErrorInvalidResourceHandle,
	       cudaEventElapsedTime(&ms, done, done));
	EXPECT(cudaErrorInvalidResourceHandle, cudaGetLastError());
	TRY(cudaEventDestroy(done));
}

static void bad_arguments(void)
{
	cudaStream_t s;
	cudaEvent_t e;

	EXPECT(cudaErrorInvalidValue, cudaStreamCreate(NULL));
	EXPECT(cudaErrorInvalidValue, cudaStreamCreateWithFlags(&s, 0x10));
	EXPECT(cudaErrorInvalidValue, cudaEventCreate(NULL));
	EXPECT(cudaErrorInvalidValue, cudaEventCreateWithFlags(&e, 0x100));
	EXPECT(cudaErrorInvalidValue, cudaGetLastError());
	TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	TRY(cudaMemsetAsync(NULL, 0, 0, s));
	TRY(cudaStreamSynchronize(s));
	TRY(cudaStreamDestroy(s));
}

int main(void)
{
	struct buffers m;
	cudaStream_t st[2];
	int i, s;

	rt_check_library();
	TRY(cudaSetDevice(0));
	TRY(cudaHostAlloc((void **)&m.ha, FULL * sizeof(int),
			  cudaHostAllocDefault));
	TRY(cudaHostAlloc((void **)&m.hb, FULL * sizeof(int),
			  cudaHostAllocDefault));
	TRY(cudaMallocHost((void **)&m.hc, FULL * sizeof(float)));
	for (i = 0; i < FULL; i++) {
		m.ha[i] = (i * 7919) % 1000;
		m.hb[i] = (i * 104729) % 1000;
	}
	for (s = 0; s < 2; s++) {
		TRY(cudaStreamCreate(&st[s]));
		TRY(cudaMalloc((void **)&m.da[s], N * sizeof(int)));
		TRY(cudaMalloc((void **)&m.db[s], N * sizeof(int)));
		TRY(cudaMalloc((void **)&m.dc[s], N * sizeof(float)));
	}
	run(&m, st, false);
	run(&m, st, true);
	wait_event(&m, st);
	bad_arguments();
	for (s = 0; s < 2; s++) {
		TRY(cudaFree(m.da[s]));
		TRY(cudaFree(m.db[s]));
		TRY(cudaFree(m.dc[s]));
		TRY(cudaStreamDestroy(st[s]));
	}
	TRY(cudaFreeHost(m.ha));
	TRY(cudaFreeHost(m.hb));
	TRY(cudaFreeHost(m.hc));
	return rt_result();
}
