// SPDX-License-Identifier: MIT
// External semaphores through the runtime: a producer stream and a
// consumer stream handing a buffer to each other through two semaphores
// another party hands over as file descriptors (here device memory
// exported with the driver API, which NVIDIA's driver and vgpu both
// import as a semaphore): a timeline one says "round r is written", a
// binary one "the buffer is free again". The same round captured into a
// graph, replayed with the timeline's value set anew each time through
// the executable graph; the nodes' parameters read back; bad input to
// each call.
#include <fcntl.h>
#include <unistd.h>

#include <cuda.h>

#include "rt.h"

#define CU_TRY(call) do { \
	CUresult _r = (call); \
	if (_r != CUDA_SUCCESS) { \
		fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, \
			__LINE__, #call, (int)_r); \
		printf("Result = FAIL\n"); \
		exit(1); \
	} \
} while (0)

#define N 4096
#define ROUNDS 8
#define REPLAYS 5

__global__ void produce(int *buf, int n, int round)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		buf[i] = i * round;
}

__global__ void consume(const int *buf, int *out, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		out[i] = buf[i] + 1;
}

static void say(const char *what, cudaError_t e)
{
	printf("%s: %s\n", what, cudaGetErrorName(e));
}

// A POSIX file descriptor of a granule of device 0's memory.
static int export_memory(void)
{
	CUmemGenericAllocationHandle h;
	CUmemAllocationProp prop = {};
	size_t gran = 0;
	int fd = -1;

	prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	prop.location.id = 0;
	prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	CU_TRY(cuMemGetAllocationGranularity(&gran, &prop,
					     CU_MEM_ALLOC_GRANULARITY_MINIMUM));
	CU_TRY(cuMemCreate(&h, gran, &prop, 0));
	CU_TRY(cuMemExportToShareableHandle(&fd, h,
					    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	CU_TRY(cuMemRelease(h));
	return fd;
}

static cudaExternalSemaphore_t import(enum cudaExternalSemaphoreHandleType type)
{
	struct cudaExternalSemaphoreHandleDesc d = {};
	cudaExternalSemaphore_t s = NULL;

	d.type = type;
	d.handle.fd = export_memory();
	TRY(cudaImportExternalSemaphore(&s, &d));
	printf("descriptor still open after the import: %d\n",
	       fcntl(d.handle.fd, F_GETFD) != -1);
	return s;
}

static void give(cudaExternalSemaphore_t s, unsigned long long value,
		   cudaStream_t st)
{
	struct cudaExternalSemaphoreSignalParams p = {};

	p.params.fence.value = value;
	TRY(cudaSignalExternalSemaphoresAsync(&s, &p, 1, st));
}

static void take(cudaExternalSemaphore_t s, unsigned long long value,
		 cudaStream_t st)
{
	struct cudaExternalSemaphoreWaitParams p = {};

	p.params.fence.value = value;
	TRY(cudaWaitExternalSemaphoresAsync(&s, &p, 1, st));
}

// One round: the producer waits for the buffer (but the first time),
// fills it and says so; the consumer waits, reads it, frees it.
static void round_on(cudaStream_t prod, cudaStream_t cons,
		     cudaExternalSemaphore_t written, cudaExternalSemaphore_t free_,
		     int *buf, int *out, int r, unsigned long long value)
{
	if (r > 1)
		take(free_, 0, prod);
	produce<<<N / 256, 256, 0, prod>>>(buf, N, r);
	give(written, value, prod);
	take(written, value, cons);
	consume<<<N / 256, 256, 0, cons>>>(buf, out, N);
	give(free_, 0, cons);
}

static unsigned int wrong(const int *host, int r)
{
	unsigned int bad = 0;

	for (int i = 0; i < N; i++)
		bad += host[i] != i * r + 1;
	return bad;
}

static void bad_input(cudaExternalSemaphore_t s, cudaStream_t st)
{
	struct cudaExternalSemaphoreHandleDesc d = {};
	struct cudaExternalSemaphoreSignalParams sp = {};
	struct cudaExternalSemaphoreWaitParams wp = {};
	cudaExternalSemaphore_t out = NULL;

	say("import with no descriptor", cudaImportExternalSemaphore(&out, NULL));
	d.type = cudaExternalSemaphoreHandleTypeOpaqueWin32;
	say("import of a Win32 handle", cudaImportExternalSemaphore(&out, &d));
	d.type = cudaExternalSemaphoreHandleTypeOpaqueFd;
	d.handle.fd = -1;
	say("import of descriptor -1", cudaImportExternalSemaphore(&out, &d));
	d.flags = 1;
	say("import with flags", cudaImportExternalSemaphore(&out, &d));
	say("then cudaGetLastError", cudaGetLastError());
	say("signal none", cudaSignalExternalSemaphoresAsync(&s, &sp, 0, st));
	sp.flags = 1;
	say("signal with flags", cudaSignalExternalSemaphoresAsync(&s, &sp, 1, st));
	wp.flags = 2;
	say("wait with flags", cudaWaitExternalSemaphoresAsync(&s, &wp, 1, st));
	say("destroy NULL", cudaDestroyExternalSemaphore(NULL));
	say("then cudaGetLastError", cudaGetLastError());
}

int main(void)
{
	cudaExternalSemaphore_t written, free_;
	cudaStream_t prod, cons;
	cudaGraphNode_t nodes[16], sig = NULL, wt = NULL;
	cudaGraphExec_t exec;
	cudaGraph_t graph;
	cudaEvent_t forked, joined;
	int *buf, *out, *host;
	size_t count = 16;
	int r;

	rt_check_library();
	TRY(cudaFree(0));
	written = import(cudaExternalSemaphoreHandleTypeTimelineSemaphoreFd);
	free_ = import(cudaExternalSemaphoreHandleTypeOpaqueFd);
	TRY(cudaStreamCreateWithFlags(&prod, cudaStreamNonBlocking));
	TRY(cudaStreamCreateWithFlags(&cons, cudaStreamNonBlocking));
	TRY(cudaMalloc(&buf, N * sizeof(int)));
	TRY(cudaMalloc(&out, ROUNDS * N * sizeof(int)));
	host = (int *)malloc(ROUNDS * N * sizeof(int));

	// The streams share nothing but the semaphores.
	for (r = 1; r <= ROUNDS; r++)
		round_on(prod, cons, written, free_, buf, out + (r - 1) * N, r, r);
	TRY(cudaStreamSynchronize(cons));
	TRY(cudaMemcpy(host, out, ROUNDS * N * sizeof(int), cudaMemcpyDeviceToHost));
	for (r = 1; r <= ROUNDS; r++)
		if (wrong(host + (r - 1) * N, r))
			printf("round %d read a buffer not yet written\n", r);
	printf("rounds handed over through the semaphores: %d\n", ROUNDS);

	// One round, captured across both streams.
	TRY(cudaEventCreate(&forked));
	TRY(cudaEventCreate(&joined));
	TRY(cudaStreamBeginCapture(prod, cudaStreamCaptureModeGlobal));
	TRY(cudaEventRecord(forked, prod));
	TRY(cudaStreamWaitEvent(cons, forked, 0));
	round_on(prod, cons, written, free_, buf, out, 2, 100);
	TRY(cudaEventRecord(joined, cons));
	TRY(cudaStreamWaitEvent(prod, joined, 0));
	TRY(cudaStreamEndCapture(prod, &graph));
	TRY(cudaGraphGetNodes(graph, nodes, &count));
	for (size_t i = 0; i < count; i++) {
		enum cudaGraphNodeType t;

		TRY(cudaGraphNodeGetType(nodes[i], &t));
		if (t == cudaGraphNodeTypeExtSemaphoreSignal && !sig)
			sig = nodes[i];
		if (t == cudaGraphNodeTypeExtSemaphoreWait && !wt && sig)
			wt = nodes[i];
	}
	printf("captured nodes: %zu, a signal and a wait among them: %d\n", count,
	       sig && wt);
	{
		struct cudaExternalSemaphoreSignalNodeParams p = {};

		TRY(cudaGraphExternalSemaphoresSignalNodeGetParams(sig, &p));
		printf("signal node: %u semaphore, value %llu, the one signalled: %d\n",
		       p.numExtSems, p.paramsArray[0].params.fence.value,
		       p.extSemArray[0] == written);
	}
	TRY(cudaGraphInstantiate(&exec, graph, 0));
	for (r = 0; r < REPLAYS; r++) {
		struct cudaExternalSemaphoreSignalParams sp = {};
		struct cudaExternalSemaphoreWaitParams wp = {};
		struct cudaExternalSemaphoreSignalNodeParams s = { &written, &sp, 1 };
		struct cudaExternalSemaphoreWaitNodeParams w = { &written, &wp, 1 };

		sp.params.fence.value = wp.params.fence.value = 200 + r;
		TRY(cudaGraphExecExternalSemaphoresSignalNodeSetParams(exec, sig, &s));
		TRY(cudaGraphExecExternalSemaphoresWaitNodeSetParams(exec, wt, &w));
		TRY(cudaGraphLaunch(exec, prod));
	}
	TRY(cudaStreamSynchronize(prod));
	TRY(cudaMemcpy(host, out, N * sizeof(int), cudaMemcpyDeviceToHost));
	printf("words wrong after the replays: %u\n", wrong(host, 2));
	// The timeline holds the last value signalled: a wait for it passes.
	take(written, 200 + REPLAYS - 1, cons);
	TRY(cudaStreamSynchronize(cons));
	printf("the timeline reached the last replay's value\n");

	bad_input(written, prod);
	TRY(cudaStreamSynchronize(prod));
	TRY(cudaGraphExecDestroy(exec));
	TRY(cudaGraphDestroy(graph));
	say("destroy the timeline", cudaDestroyExternalSemaphore(written));
	say("destroy the binary one", cudaDestroyExternalSemaphore(free_));
	TRY(cudaFree(buf));
	TRY(cudaFree(out));
	free(host);
	return rt_result();
}
