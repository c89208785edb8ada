// SPDX-License-Identifier: MIT
/*
 * condwhile.cu: a graph with a conditional while node (CUDA 12.3's
 * conditional graphs), its body a kernel that halves 256 values and sets
 * the node's value with cudaGraphSetConditional while any is left. The
 * handle's default (1, assigned at each launch) starts the loop; the
 * graph is launched on two sets of values, and the passes are checked
 * against the host's: one more than the bits of the largest value.
 */
#include "sample.h"

enum { N = 256 };

static unsigned int passes_for(const unsigned int *x)
{
	unsigned int max = 0, n = 0;
	int i;

	for (i = 0; i < N; i++)
		max = x[i] > max ? x[i] : max;
	do {
		max /= 2;
		n++;
	} while (max);
	return n;
}

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "condwhile");
	static unsigned int x[N], got[N];
	CUDA_KERNEL_NODE_PARAMS kp = { 0 };
	CUgraphConditionalHandle h;
	CUgraphNodeParams np = { 0 };
	CUdeviceptr dx, dpasses;
	CUgraphExec ge;
	CUcontext ctx;
	CUgraphNode cn, kn;
	CUstream s;
	CUgraph g;
	unsigned int passes, want, round;
	int i, bad = 0;
	void *args[] = { &dx, &dpasses, &h };

	TRY(cuCtxGetCurrent(&ctx));
	TRY(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	TRY(cuMemAlloc(&dx, sizeof(x)));
	TRY(cuMemAlloc(&dpasses, 4));
	TRY(cuGraphCreate(&g, 0));
	TRY(cuGraphConditionalHandleCreate(&h, g, ctx, 1, CU_GRAPH_COND_ASSIGN_DEFAULT));
	np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
	np.conditional.handle = h;
	np.conditional.type = CU_GRAPH_COND_TYPE_WHILE;
	np.conditional.size = 1;
	np.conditional.ctx = ctx;
	TRY(cuGraphAddNode(&cn, g, NULL, NULL, 0, &np));
	kp.func = sample_func(mod, "halve");
	kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1;
	kp.blockDimX = N;
	kp.blockDimY = kp.blockDimZ = 1;
	kp.kernelParams = args;
	TRY(cuGraphAddKernelNode(&kn, np.conditional.phGraph_out[0], NULL, 0, &kp));
	TRY(cuGraphInstantiate(&ge, g, 0));
	for (round = 0; round < 2; round++) {
		for (i = 0; i < N; i++)
			x[i] = round ? (unsigned int)i * 40503u : (unsigned int)(i % 17) + 1;
		want = passes_for(x);
		TRY(cuMemcpyHtoD(dx, x, sizeof(x)));
		TRY(cuMemsetD32(dpasses, 0, 1));
		TRY(cuGraphLaunch(ge, s));
		TRY(cuStreamSynchronize(s));
		TRY(cuMemcpyDtoH(got, dx, sizeof(got)));
		TRY(cuMemcpyDtoH(&passes, dpasses, 4));
		for (i = 0; i < N; i++)
			bad += got[i] != 0;
		bad += passes != want;
		printf("while node: %u passes (the host: %u)\n", passes, want);
	}
	TRY(cuGraphExecDestroy(ge));
	TRY(cuGraphDestroy(g));
	return sample_result(bad);
}
