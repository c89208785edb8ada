// SPDX-License-Identifier: MIT
/*
 * Probe of conditional graph nodes on a real GPU (issue 20's reference,
 * h200_conditional.log): whether an empty body, an unattached handle and
 * a handle without CU_GRAPH_COND_ASSIGN_DEFAULT instantiate and what they
 * run, a while node's iterations over two launches, if/else and switch
 * bodies chosen by a value a kernel sets. Run once as is and once with
 * UNATTACHED=1, which creates a handle no node uses before the while
 * graph (the line "instantiate with unattached handle" names that run).
 * Built with nvcc -arch=sm_90.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#define R(tag, call) printf("%s = %d\n", tag, (int)(call))
__global__ void body_count(int *c, int limit, cudaGraphConditionalHandle h)
{ c[0]++; cudaGraphSetConditional(h, c[0] < limit); }
__global__ void just_count(int *c) { c[0]++; }
__global__ void set_val(cudaGraphConditionalHandle h, unsigned v) { cudaGraphSetConditional(h, v); }
__global__ void write(int *p, int v) { *p = v; }
__global__ void zero_then(int *c, cudaGraphConditionalHandle h) { c[0]++; cudaGraphSetConditional(h, 0); }

static cudaGraphNode_t cond(cudaGraph_t g, cudaGraphNode_t *dep, int ndep, cudaGraphConditionalHandle h,
			   cudaGraphConditionalNodeType t, unsigned size, cudaGraph_t **bodies)
{
	cudaGraphNodeParams np = {};
	cudaGraphNode_t n;
	np.type = cudaGraphNodeTypeConditional;
	np.conditional.handle = h; np.conditional.type = t; np.conditional.size = size;
	cudaError_t e = cudaGraphAddNode(&n, g, dep, NULL, ndep, &np);
	if (e) printf("add cond failed %d\n", e);
	*bodies = np.conditional.phGraph_out;
	return n;
}

static void kern(cudaGraph_t g, cudaGraphNode_t *dep, int ndep, void *fn, void **args, cudaGraphNode_t *out)
{
	cudaKernelNodeParams kp = {};
	cudaGraphNode_t n;
	kp.func = fn; kp.gridDim = dim3(1); kp.blockDim = dim3(1); kp.kernelParams = args;
	cudaError_t e = cudaGraphAddKernelNode(&n, g, dep, ndep, &kp);
	if (e) printf("add kernel failed %d\n", e);
	if (out) *out = n;
}

int main(void)
{
	int *c, hc[4];
	cudaGraph_t g, *b;
	cudaGraphExec_t ge;
	cudaGraphConditionalHandle h, h2;
	cudaStream_t s;
	cudaMalloc(&c, 64); cudaStreamCreate(&s);
	cudaDeviceProp p; cudaGetDeviceProperties(&p, 0); printf("%s\n", p.name);

	/* 1: while with empty body */
	cudaGraphCreate(&g, 0);
	cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault);
	cond(g, NULL, 0, h, cudaGraphCondTypeWhile, 1, &b);
	R("instantiate while empty body", cudaGraphInstantiate(&ge, g, 0));
	R("launch while empty body", cudaGraphLaunch(ge, s));
	R("sync while empty body", cudaStreamSynchronize(s));
	cudaGraphExecDestroy(ge);
	cudaGetLastError();
	cudaGraphDestroy(g);

	/* 2: an unattached handle, and a while whose body counts to 4 */
	cudaGraphCreate(&g, 0);
	if (getenv("UNATTACHED")) cudaGraphConditionalHandleCreate(&h2, g, 0, 0);
	cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault);
	cond(g, NULL, 0, h, cudaGraphCondTypeWhile, 1, &b);
	{ int lim = 4; void *a[] = { &c, &lim, &h }; kern(b[0], NULL, 0, (void *)body_count, a, NULL); }
	R("instantiate with unattached handle", cudaGraphInstantiate(&ge, g, 0));
	cudaGetLastError();
	cudaMemset(c, 0, 64);
	R("launch while", cudaGraphLaunch(ge, s));
	R("sync", cudaStreamSynchronize(s));
	cudaMemcpy(hc, c, 16, cudaMemcpyDeviceToHost); printf("while count = %d\n", hc[0]);
	R("launch while again", cudaGraphLaunch(ge, s));
	cudaStreamSynchronize(s);
	cudaMemcpy(hc, c, 16, cudaMemcpyDeviceToHost); printf("while count after 2nd = %d\n", hc[0]);
	cudaGraphExecDestroy(ge); cudaGraphDestroy(g);

	/* 3: no ASSIGN_DEFAULT, default 5: what does the body see first? body sets 0 */
	cudaGraphCreate(&g, 0);
	cudaGraphConditionalHandleCreate(&h, g, 5, 0);
	cond(g, NULL, 0, h, cudaGraphCondTypeWhile, 1, &b);
	{ void *a[] = { &c, &h }; kern(b[0], NULL, 0, (void *)zero_then, a, NULL); }
	R("instantiate no default flag", cudaGraphInstantiate(&ge, g, 0));
	cudaMemset(c, 0, 64);
	cudaGraphLaunch(ge, s); cudaStreamSynchronize(s);
	cudaMemcpy(hc, c, 16, cudaMemcpyDeviceToHost); printf("no-default-flag while ran = %d\n", hc[0]);
	cudaGraphExecDestroy(ge); cudaGraphDestroy(g);

	/* 4: handle default 0 with the flag: while body never runs */
	cudaGraphCreate(&g, 0);
	cudaGraphConditionalHandleCreate(&h, g, 0, cudaGraphCondAssignDefault);
	cond(g, NULL, 0, h, cudaGraphCondTypeWhile, 1, &b);
	{ void *a[] = { &c }; kern(b[0], NULL, 0, (void *)just_count, a, NULL); }
	cudaGraphInstantiate(&ge, g, 0);
	cudaMemset(c, 0, 64);
	cudaGraphLaunch(ge, s); cudaStreamSynchronize(s);
	cudaMemcpy(hc, c, 16, cudaMemcpyDeviceToHost); printf("while default 0 ran = %d\n", hc[0]);
	cudaGraphExecDestroy(ge); cudaGraphDestroy(g);

	/* 5: if/else and switch, value set by an upstream kernel */
	for (unsigned v = 0; v < 2; v++) {
		cudaGraphNode_t k, cn;
		cudaGraphCreate(&g, 0);
		cudaGraphConditionalHandleCreate(&h, g, 0, 0);
		{ void *a[] = { &h, &v }; kern(g, NULL, 0, (void *)set_val, a, &k); }
		cn = cond(g, &k, 1, h, cudaGraphCondTypeIf, 2, &b);
		{ int w = 10; void *a[] = { &c, &w }; kern(b[0], NULL, 0, (void *)write, a, NULL); }
		{ int w = 20; void *a[] = { &c, &w }; kern(b[1], NULL, 0, (void *)write, a, NULL); }
		(void)cn;
		R("instantiate if/else", cudaGraphInstantiate(&ge, g, 0));
		cudaMemset(c, 0, 64);
		cudaGraphLaunch(ge, s); cudaStreamSynchronize(s);
		cudaMemcpy(hc, c, 16, cudaMemcpyDeviceToHost); printf("if/else value %u wrote %d\n", v, hc[0]);
		cudaGraphExecDestroy(ge); cudaGraphDestroy(g);
	}
	for (unsigned v = 0; v < 5; v += 2) {
		cudaGraphNode_t k;
		cudaGraphCreate(&g, 0);
		cudaGraphConditionalHandleCreate(&h, g, 0, 0);
		{ void *a[] = { &h, &v }; kern(g, NULL, 0, (void *)set_val, a, &k); }
		cond(g, &k, 1, h, cudaGraphCondTypeSwitch, 3, &b);
		for (int i = 0; i < 3; i++) { int w = 100 + i; void *a[] = { &c, &w }; kern(b[i], NULL, 0, (void *)write, a, NULL); }
		cudaGraphInstantiate(&ge, g, 0);
		cudaMemset(c, 0, 64);
		cudaGraphLaunch(ge, s); cudaStreamSynchronize(s);
		cudaMemcpy(hc, c, 16, cudaMemcpyDeviceToHost); printf("switch value %u wrote %d\n", v, hc[0]);
		cudaGraphExecDestroy(ge); cudaGraphDestroy(g);
	}
	/* 6: if with size 1 and value 0, then empty-bodied if node in a graph */
	{
		cudaGraphCreate(&g, 0);
		cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault);
		cond(g, NULL, 0, h, cudaGraphCondTypeIf, 2, &b);
		{ int w = 7; void *a[] = { &c, &w }; kern(b[0], NULL, 0, (void *)write, a, NULL); }
		R("instantiate if with empty else", cudaGraphInstantiate(&ge, g, 0));
		cudaGetLastError();
		cudaGraphDestroy(g);
	}
	printf("end = %d\n", (int)cudaDeviceSynchronize());
	return 0;
}
