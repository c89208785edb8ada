// SPDX-License-Identifier: MIT
/*
 * Graphs against streams, measured in one run:
 *   graph_vs_stream_launch: a sequence of 100 small kernels (one block
 *	of 32 threads, each adding to its word), replayed as a graph
 *	built from it, over the same sequence launched kernel by kernel
 *	on a stream; each side the best of several rounds, each round
 *	ended by cuStreamSynchronize. Results are checked.
 * Both sides run on a settled engine: the native one, whose compile is
 * then synchronous (VGPU_ENGINE=native, unless VGPU_ENGINE names another),
 * so that no round shares the CPU with a compile in the background.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench_cuda.h"

#define KERNELS 100
#define ROUNDS 20

static const char ptx[] =
	".version 9.0\n.target sm_75\n.address_size 64\n"
	".visible .entry add(.param .u64 p, .param .u32 v)\n{\n"
	"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
	"\tmov.u32 %r2, %tid.x;\n\tmul.wide.u32 %rd2, %r2, 4;\n"
	"\tadd.u64 %rd1, %rd1, %rd2;\n\tld.global.u32 %r3, [%rd1];\n"
	"\tadd.u32 %r3, %r3, %r1;\n\tst.global.u32 [%rd1], %r3;\n\tret;\n}\n";

/* The sequence: kernel i adds i + 1 to each of the 32 words. */
static void launch_all(CUfunction f, CUstream s, CUdeviceptr p)
{
	unsigned int i, v;
	void *args[] = { &p, &v };

	for (i = 0; i < KERNELS; i++) {
		v = i + 1;
		TRY(cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, args, NULL));
	}
}

static CUgraphExec build_graph(CUfunction f, CUdeviceptr p)
{
	CUDA_KERNEL_NODE_PARAMS kp = { .func = f, .gridDimX = 1, .gridDimY = 1,
				       .gridDimZ = 1, .blockDimX = 32, .blockDimY = 1,
				       .blockDimZ = 1 };
	CUgraphNode prev = NULL, node;
	CUgraphExec exec;
	unsigned int i, v;
	void *args[] = { &p, &v };
	CUgraph g;

	TRY(cuGraphCreate(&g, 0));
	kp.kernelParams = args;
	for (i = 0; i < KERNELS; i++) {
		v = i + 1;
		TRY(cuGraphAddKernelNode(&node, g, prev ? &prev : NULL, prev ? 1 : 0, &kp));
		prev = node;
	}
	TRY(cuGraphInstantiate(&exec, g, 0));
	TRY(cuGraphDestroy(g));
	return exec;
}

static void check(CUdeviceptr p, unsigned int rounds)
{
	unsigned int got[32], want = rounds * KERNELS * (KERNELS + 1) / 2, i;

	TRY(cuMemcpyDtoH(got, p, sizeof(got)));
	for (i = 0; i < 32; i++) {
		if (got[i] != want) {
			fprintf(stderr, "graph_bench: word %u is %u, want %u\n", i, got[i], want);
			exit(1);
		}
	}
}

int main(void)
{
	double t, t_stream = 1e9, t_graph = 1e9;
	CUdeviceptr p, q;
	CUgraphExec exec;
	CUcontext ctx;
	CUfunction f;
	CUmodule mod;
	CUstream s;
	unsigned int r;

	setenv("VGPU_ENGINE", "native", 0);
	TRY(cuInit(0));
	TRY(cuCtxCreate(&ctx, NULL, 0, 0));
	TRY(cuModuleLoadData(&mod, ptx));
	TRY(cuModuleGetFunction(&f, mod, "add"));
	TRY(cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	TRY(cuMemAlloc(&p, 128));
	TRY(cuMemAlloc(&q, 128));
	TRY(cuMemsetD32(p, 0, 32));
	TRY(cuMemsetD32(q, 0, 32));
	exec = build_graph(f, q);
	/* Warm: the kernel's code, the channel, the graph's first launch. */
	launch_all(f, s, p);
	TRY(cuGraphLaunch(exec, s));
	TRY(cuStreamSynchronize(s));
	for (r = 0; r < ROUNDS; r++) {
		t = now_s();
		launch_all(f, s, p);
		TRY(cuStreamSynchronize(s));
		t = now_s() - t;
		t_stream = t < t_stream ? t : t_stream;
		t = now_s();
		TRY(cuGraphLaunch(exec, s));
		TRY(cuStreamSynchronize(s));
		t = now_s() - t;
		t_graph = t < t_graph ? t : t_graph;
	}
	check(p, ROUNDS + 1);
	check(q, ROUNDS + 1);
	printf("# 100 kernels: stream %.3f ms, graph %.3f ms\n", t_stream * 1e3, t_graph * 1e3);
	printf("graph_vs_stream_launch: %.2f\n", t_graph / t_stream);
	TRY(cuGraphExecDestroy(exec));
	TRY(cuCtxDestroy(ctx));
	return 0;
}
