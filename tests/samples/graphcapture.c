// SPDX-License-Identifier: MIT
/*
 * graphcapture.cu: an iteration that forks to a second stream and joins
 * back through events, captured once with cuStreamBeginCapture and
 * replayed as a graph 100 times, checked against the same iteration on
 * the host; the stream-by-stream run of it once more at the end agrees.
 */
#include "sample.h"

enum { N = 1000, REPLAYS = 100 };

struct bufs {
	CUdeviceptr a, b, c, d;
};

/* One iteration on s0 and s1: bump(a); s1: b += 2a; s0: c += i%7; d = b - c. */
static void iteration(CUmodule mod, CUstream s0, CUstream s1, CUevent fork, CUevent join,
		      struct bufs *m)
{
	int n = N;
	void *a_bump[] = { &m->a, &n }, *a_twice[] = { &m->b, &m->a, &n };
	void *a_index[] = { &m->c, &n }, *a_comb[] = { &m->d, &m->b, &m->c, &n };
	unsigned int grid = (N + 127) / 128;

	TRY(cuLaunchKernel(sample_func(mod, "bump"), grid, 1, 1, 128, 1, 1, 0, s0, a_bump, NULL));
	TRY(cuEventRecord(fork, s0));
	TRY(cuStreamWaitEvent(s1, fork, 0));
	TRY(cuLaunchKernel(sample_func(mod, "add_twice"), grid, 1, 1, 128, 1, 1, 0, s1, a_twice,
			   NULL));
	TRY(cuLaunchKernel(sample_func(mod, "add_index"), grid, 1, 1, 128, 1, 1, 0, s0, a_index,
			   NULL));
	TRY(cuEventRecord(join, s1));
	TRY(cuStreamWaitEvent(s0, join, 0));
	TRY(cuLaunchKernel(sample_func(mod, "combine"), grid, 1, 1, 128, 1, 1, 0, s0, a_comb,
			   NULL));
}

static void host_iteration(int *a, int *b, int *c, int *d)
{
	int i;

	for (i = 0; i < N; i++) {
		a[i] += 1;
		b[i] += 2 * a[i];
		c[i] += i % 7;
		d[i] = b[i] - c[i];
	}
}

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "graphcapture");
	static int a[N], b[N], c[N], d[N], got[N];
	CUstreamCaptureStatus status;
	CUevent fork, join;
	CUstream s0, s1;
	CUgraphExec ge;
	struct bufs m;
	size_t nodes = 0, edges = 0;
	int i, r, bad = 0;
	CUgraph g;

	TRY(cuStreamCreate(&s0, CU_STREAM_NON_BLOCKING));
	TRY(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));
	TRY(cuEventCreate(&fork, CU_EVENT_DISABLE_TIMING));
	TRY(cuEventCreate(&join, CU_EVENT_DISABLE_TIMING));
	TRY(cuMemAlloc(&m.a, sizeof(a)));
	TRY(cuMemAlloc(&m.b, sizeof(b)));
	TRY(cuMemAlloc(&m.c, sizeof(c)));
	TRY(cuMemAlloc(&m.d, sizeof(d)));
	for (i = 0; i < N; i++) {
		a[i] = i;
		b[i] = 3 * i;
		c[i] = -i;
		d[i] = 0;
	}
	TRY(cuMemcpyHtoD(m.a, a, sizeof(a)));
	TRY(cuMemcpyHtoD(m.b, b, sizeof(b)));
	TRY(cuMemcpyHtoD(m.c, c, sizeof(c)));
	TRY(cuMemcpyHtoD(m.d, d, sizeof(d)));

	/* Captured, nothing runs: the graph holds the iteration. */
	TRY(cuStreamBeginCapture(s0, CU_STREAM_CAPTURE_MODE_GLOBAL));
	iteration(mod, s0, s1, fork, join, &m);
	TRY(cuStreamIsCapturing(s1, &status));
	TRY(cuStreamEndCapture(s0, &g));
	TRY(cuGraphGetNodes(g, NULL, &nodes));
	TRY(cuGraphGetEdges(g, NULL, NULL, NULL, &edges));
	printf("captured: %zu nodes, %zu edges (s1 was %s)\n", nodes, edges,
	       status == CU_STREAM_CAPTURE_STATUS_ACTIVE ? "capturing" : "not capturing");
	bad += nodes != 4 || edges != 4 || status != CU_STREAM_CAPTURE_STATUS_ACTIVE;
	TRY(cuMemcpyDtoH(got, m.d, sizeof(got)));
	for (i = 0; i < N; i++)
		bad += got[i] != 0;

	TRY(cuGraphInstantiate(&ge, g, 0));
	for (r = 0; r < REPLAYS; r++) {
		TRY(cuGraphLaunch(ge, s0));
		host_iteration(a, b, c, d);
	}
	TRY(cuStreamSynchronize(s0));
	TRY(cuMemcpyDtoH(got, m.d, sizeof(got)));
	for (i = 0; i < N; i++)
		bad += got[i] != d[i];
	/* The same iteration stream by stream continues where the graph left off. */
	iteration(mod, s0, s1, fork, join, &m);
	host_iteration(a, b, c, d);
	TRY(cuStreamSynchronize(s0));
	TRY(cuMemcpyDtoH(got, m.d, sizeof(got)));
	for (i = 0; i < N; i++)
		bad += got[i] != d[i];
	printf("replayed %d times: d[%d] = %d, %d wrong\n", REPLAYS, N - 1, got[N - 1], bad);
	TRY(cuGraphExecDestroy(ge));
	TRY(cuGraphDestroy(g));
	return sample_result(bad);
}
