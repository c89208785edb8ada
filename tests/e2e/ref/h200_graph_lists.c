/*
 * Probe of how NVIDIA's driver fills the arrays of the graph queries
 * (cuGraphGetNodes, cuGraphGetRootNodes, cuGraphGetEdges,
 * cuGraphNodeGetDependencies, cuGraphNodeGetDependentNodes) when they are
 * shorter or longer than the answer. Not built by the tree; recorded on an
 * H200 (CUDA 13, driver 580) as
 *   gcc h200_graph_lists.c -I/usr/local/cuda/include -lcuda && ./a.out
 * its output is h200_graph_lists.log (0x1 is the filler the probe put in).
 */
#include <cuda.h>
#include <stdio.h>
int main(void)
{
	CUdevice d; CUcontext c; CUgraph g; CUgraphNode n[4], out[8], from[8], to[8]; size_t cnt; CUresult r;
	cuInit(0); cuDeviceGet(&d, 0); cuCtxCreate(&c, NULL, 0, d); cuGraphCreate(&g, 0);
	cuGraphAddEmptyNode(&n[0], g, NULL, 0); cuGraphAddEmptyNode(&n[1], g, &n[0], 1); cuGraphAddEmptyNode(&n[2], g, &n[0], 1);
	CUgraphNode dd[2] = { n[1], n[2] }; cuGraphAddEmptyNode(&n[3], g, dd, 2);
	for (int i = 0; i < 8; i++) out[i] = from[i] = to[i] = (CUgraphNode)1;
	cnt = 2; r = cuGraphGetNodes(g, out, &cnt); printf("nodes short 2: rc %d cnt %zu out1 set %d out2 %p\n", r, cnt, out[1] != (CUgraphNode)1, (void *)out[2]);
	cnt = 6; r = cuGraphGetNodes(g, out, &cnt); printf("nodes long 6: rc %d cnt %zu out4 %p out5 %p\n", r, cnt, (void *)out[4], (void *)out[5]);
	for (int i = 0; i < 8; i++) out[i] = from[i] = to[i] = (CUgraphNode)1;
	cnt = 2; r = cuGraphGetEdges(g, from, to, NULL, &cnt); printf("edges short 2: rc %d cnt %zu from2 %p\n", r, cnt, (void *)from[2]);
	cnt = 6; r = cuGraphGetEdges(g, from, to, NULL, &cnt); printf("edges long 6: rc %d cnt %zu from4 %p to5 %p\n", r, cnt, (void *)from[4], (void *)to[5]);
	for (int i = 0; i < 8; i++) out[i] = (CUgraphNode)1;
	cnt = 1; r = cuGraphNodeGetDependencies(n[3], out, NULL, &cnt); printf("deps short 1: rc %d cnt %zu out1 %p\n", r, cnt, (void *)out[1]);
	cnt = 4; r = cuGraphNodeGetDependencies(n[3], out, NULL, &cnt); printf("deps long 4: rc %d cnt %zu out2 %p out3 %p\n", r, cnt, (void *)out[2], (void *)out[3]);
	for (int i = 0; i < 8; i++) out[i] = (CUgraphNode)1;
	cnt = 1; r = cuGraphNodeGetDependentNodes(n[0], out, NULL, &cnt); printf("dependents short 1: rc %d cnt %zu out1 %p\n", r, cnt, (void *)out[1]);
	cnt = 4; r = cuGraphNodeGetDependentNodes(n[0], out, NULL, &cnt); printf("dependents long 4: rc %d cnt %zu out2 %p\n", r, cnt, (void *)out[2]);
	for (int i = 0; i < 8; i++) out[i] = (CUgraphNode)1;
	cnt = 3; r = cuGraphGetRootNodes(g, out, &cnt); printf("roots long 3: rc %d cnt %zu out1 %p\n", r, cnt, (void *)out[1]);
	return 0;
}
