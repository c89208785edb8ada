// SPDX-License-Identifier: MIT
// Built with --default-stream per-thread: stream capture of the thread's
// stream 0 (the runtime's _ptsz entry points), synchronous copies and
// memsets of the thread (its _ptds entry points) while stream 0 captures
// and while another stream does, and a captured graph launched, uploaded
// and instantiated with parameters on stream 0.
#include <cuda.h>

#include "rt.h"

#define N 256

__global__ void add(int *p, int v, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		p[i] += v;
}

static int capture_status(cudaStream_t s)
{
	enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
	cudaError_t e = cudaStreamIsCapturing(s, &st);

	return e ? -(int)e : (int)st;
}

static void end_capture(const char *what, cudaStream_t s)
{
	cudaGraph_t g = NULL;
	cudaError_t e = cudaStreamEndCapture(s, &g);

	printf("%s: end = %d graph %s\n", what, (int)e, g ? "set" : "null");
	if (g && cuGraphDestroy(g) != CUDA_SUCCESS)
		rt_failures++;
	cudaGetLastError();
}

static int value_at(const int *d, int i)
{
	int v = 0;

	TRY(cudaMemcpy(&v, d + i, sizeof(v), cudaMemcpyDeviceToHost));
	return v;
}

int main(void)
{
	cudaGraphInstantiateParams ip;
	enum cudaStreamCaptureStatus st;
	const cudaGraphNode_t *deps = NULL;
	unsigned long long id = 0;
	cudaGraphExec_t exec;
	cudaStream_t other;
	cudaGraph_t g = NULL;
	size_t ndeps = 0, n = 0;
	int host[N], *d;
	cudaError_t e;
	int i;

	rt_check_library();
	TRY(cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking));
	TRY(cudaMalloc(&d, N * sizeof(int)));
	TRY(cudaMemset(d, 0, N * sizeof(int)));
	for (i = 0; i < N; i++)
		host[i] = i;

	// Stream 0 is the thread's stream, which may capture.
	EXPECT(cudaSuccess, cudaStreamBeginCapture(0,
					cudaStreamCaptureModeGlobal));
	printf("stream 0 capturing = %d\n", capture_status(0));
	printf("cudaStreamPerThread capturing = %d\n",
	       capture_status(cudaStreamPerThread));
	add<<<1, N>>>(d, 1, N);
	TRY(cudaGetLastError());
	EXPECT(cudaSuccess, cudaStreamGetCaptureInfo(0, &st, &id, &g, &deps,
						     NULL, &ndeps));
	printf("info: status %d id %s graph %s ndeps %zu\n", (int)st,
	       id ? "nonzero" : "zero", g ? "set" : "null", ndeps);
	EXPECT(cudaSuccess, cudaStreamUpdateCaptureDependencies(
		0, (cudaGraphNode_t *)deps, NULL, ndeps,
		cudaStreamSetCaptureDependencies));
	add<<<1, N>>>(d, 2, N);
	TRY(cudaGetLastError());
	g = NULL;
	EXPECT(cudaSuccess, cudaStreamEndCapture(0, &g));
	if (cuGraphGetNodes(g, NULL, &n) != CUDA_SUCCESS)
		rt_failures++;
	printf("captured nodes = %zu, value before launch = %d\n", n,
	       value_at(d, 7));
	EXPECT_TRUE(value_at(d, 7) == 0);

	TRY(cudaGraphInstantiate(&exec, g, 0));
	EXPECT(cudaSuccess, cudaGraphUpload(exec, 0));
	EXPECT(cudaSuccess, cudaGraphLaunch(exec, 0));
	EXPECT(cudaSuccess, cudaGraphLaunch(exec, 0));
	TRY(cudaStreamSynchronize(0));
	printf("value after two launches = %d\n", value_at(d, 7));
	EXPECT_TRUE(value_at(d, 7) == 6);
	TRY(cudaGraphExecDestroy(exec));
	memset(&ip, 0, sizeof(ip));
	ip.flags = cudaGraphInstantiateFlagUpload;
	EXPECT(cudaSuccess, cudaGraphInstantiateWithParams(&exec, g, &ip));
	printf("with params result %d\n", (int)ip.result_out);
	EXPECT(cudaSuccess, cudaGraphLaunch(exec, 0));
	TRY(cudaDeviceSynchronize());
	printf("value after launch with params = %d\n", value_at(d, 7));
	TRY(cudaGraphExecDestroy(exec));
	if (cuGraphDestroy(g) != CUDA_SUCCESS)
		rt_failures++;

	// Synchronous calls of the thread while its stream 0 captures.
	TRY(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal));
	e = cudaMemcpy(d, host, sizeof(host), cudaMemcpyHostToDevice);
	printf("stream 0 capturing: cudaMemcpy = %d status then %d\n", (int)e,
	       capture_status(0));
	cudaGetLastError();
	end_capture("stream 0 capturing: cudaMemcpy", 0);
	TRY(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal));
	e = cudaMemset(d, 0, sizeof(host));
	printf("stream 0 capturing: cudaMemset = %d status then %d\n", (int)e,
	       capture_status(0));
	cudaGetLastError();
	end_capture("stream 0 capturing: cudaMemset", 0);

	// And while another stream captures.
	TRY(cudaStreamBeginCapture(other, cudaStreamCaptureModeGlobal));
	add<<<1, N, 0, other>>>(d, 1, N);
	e = cudaMemcpy(d, host, sizeof(host), cudaMemcpyHostToDevice);
	printf("other capturing: cudaMemcpy = %d status then %d\n", (int)e,
	       capture_status(other));
	cudaGetLastError();
	e = cudaMemset(d, 0, 4);
	printf("other capturing: cudaMemset = %d status then %d\n", (int)e,
	       capture_status(other));
	cudaGetLastError();
	e = cudaStreamSynchronize(0);
	printf("other capturing: cudaStreamSynchronize(0) = %d status then %d\n",
	       (int)e, capture_status(other));
	cudaGetLastError();
	end_capture("other capturing", other);

	TRY(cudaDeviceSynchronize());
	TRY(cudaFree(d));
	TRY(cudaStreamDestroy(other));
	return rt_result();
}
