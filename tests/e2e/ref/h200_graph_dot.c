/*
 * Probe of NVIDIA's cuGraphDebugDotPrint, graph kernel node attributes and
 * user objects on a real GPU (issue 20's reference): the dot file of graphs
 * of every node kind, nested child graphs and conditional nodes, plain and
 * verbose; the codes for bad input; which launch attributes a kernel node
 * keeps and how they read back; when a user object's destructor runs as
 * graphs and executable graphs drop their references. Not built by the
 * tree as is: tests/e2e/graph_dot_api.c runs it on vgpu and holds its
 * output to the H200's. Recorded on an H200 (CUDA 13, driver 580) as
 *   gcc h200_graph_dot.c -I/usr/local/cuda/include -lcuda && ./a.out /tmp
 * its output is h200_graph_dot.log. cuGraphKernelNodeGetAttribute with a
 * NULL value dies of SIGSEGV there; that case was taken out (vgpu answers
 * CUDA_ERROR_INVALID_VALUE).
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define CK(x) do { CUresult r_ = (x); if (r_) { printf("%s:%d %s -> %d\n", __FILE__, __LINE__, #x, r_); } } while (0)
static const char ptx[] =
".version 7.0\n.target sm_75\n.address_size 64\n"
".visible .entry k(.param .u64 p, .param .u32 v)\n{\n.reg .b64 %rd<2>;\n.reg .b32 %r<2>;\n"
"ld.param.u64 %rd1, [p];\nld.param.u32 %r1, [v];\ncvta.to.global.u64 %rd1, %rd1;\nst.global.u32 [%rd1], %r1;\nret;\n}\n";
static void CUDA_CB hostfn(void *p) { (void)p; }
static void dump(const char *path, const char *tag)
{
	char buf[8192]; FILE *f = fopen(path, "r"); size_t n;
	printf("==== %s\n", tag);
	if (!f) { printf("(no file)\n"); return; }
	n = fread(buf, 1, sizeof(buf) - 1, f); buf[n] = 0; fclose(f);
	fputs(buf, stdout); printf("\n==== end\n");
}
static volatile int destroyed;
static void CUDA_CB uo_destroy(void *p) { (void)p; destroyed++; }
int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	CUdevice d; CUcontext c; CUmodule m; CUfunction k; CUdeviceptr p; CUgraph g, child; CUgraphNode n[10];
	CUevent ev; char path[256]; const char *dir = argc > 1 ? argv[1] : "/tmp";
	CK(cuInit(0)); CK(cuDeviceGet(&d, 0)); CK(cuCtxCreate(&c, NULL, 0, d));
	CK(cuModuleLoadData(&m, ptx)); CK(cuModuleGetFunction(&k, m, "k"));
	CK(cuMemAlloc(&p, 4096)); CK(cuEventCreate(&ev, 0));
	CK(cuGraphCreate(&g, 0)); CK(cuGraphCreate(&child, 0));
	unsigned int v = 7; void *args[] = { &p, &v };
	CUDA_KERNEL_NODE_PARAMS kp = { .func = k, .gridDimX = 2, .gridDimY = 1, .gridDimZ = 1, .blockDimX = 32, .blockDimY = 1, .blockDimZ = 1, .kernelParams = args };
	CK(cuGraphAddKernelNode(&n[0], g, NULL, 0, &kp));
	CUDA_MEMSET_NODE_PARAMS ms = { .dst = p, .value = 1, .elementSize = 4, .width = 16, .height = 1 };
	CK(cuGraphAddMemsetNode(&n[1], g, &n[0], 1, &ms, c));
	static char host[64];
	CUDA_MEMCPY3D cp; memset(&cp, 0, sizeof(cp));
	cp.srcMemoryType = CU_MEMORYTYPE_DEVICE; cp.srcDevice = p; cp.dstMemoryType = CU_MEMORYTYPE_HOST; cp.dstHost = host;
	cp.WidthInBytes = 64; cp.Height = 1; cp.Depth = 1;
	CK(cuGraphAddMemcpyNode(&n[2], g, &n[1], 1, &cp, c));
	CUDA_HOST_NODE_PARAMS hp = { hostfn, NULL };
	CK(cuGraphAddHostNode(&n[3], g, &n[1], 1, &hp));
	CK(cuGraphAddEmptyNode(&n[4], child, NULL, 0));
	CK(cuGraphAddKernelNode(&n[9], child, &n[4], 1, &kp));
	CUgraphNode deps2[2] = { n[2], n[3] };
	CK(cuGraphAddChildGraphNode(&n[5], g, deps2, 2, child));
	CK(cuGraphAddEventRecordNode(&n[6], g, &n[5], 1, ev));
	CK(cuGraphAddEventWaitNode(&n[7], g, &n[6], 1, ev));
	CK(cuGraphAddEmptyNode(&n[8], g, &n[7], 1));
	for (unsigned f = 0; f <= 1; f++) {
		snprintf(path, sizeof(path), "%s/dot_%u.dot", dir, f);
		CK(cuGraphDebugDotPrint(g, path, f)); dump(path, f ? "flags 1 (verbose)" : "flags 0");
	}
	snprintf(path, sizeof(path), "%s/dot_all.dot", dir);
	CK(cuGraphDebugDotPrint(g, path, 0x7fff)); dump(path, "flags 0x7fff");
	snprintf(path, sizeof(path), "%s/dot_bad.dot", dir);
	printf("bad flags 1<<20: %d\n", cuGraphDebugDotPrint(g, path, 1u << 20));
	printf("NULL graph: %d\n", cuGraphDebugDotPrint(NULL, path, 0));
	printf("NULL path: %d\n", cuGraphDebugDotPrint(g, NULL, 0));
	printf("bad path: %d\n", cuGraphDebugDotPrint(g, "/nonexistent/dir/x.dot", 0));
	/* an empty graph and a conditional one */
	CUgraph e; CK(cuGraphCreate(&e, 0));
	snprintf(path, sizeof(path), "%s/dot_empty.dot", dir);
	CK(cuGraphDebugDotPrint(e, path, 0)); dump(path, "empty graph");
	CUgraphConditionalHandle h; CK(cuGraphConditionalHandleCreate(&h, e, c, 1, CU_GRAPH_COND_ASSIGN_DEFAULT));
	CUgraphNodeParams np; memset(&np, 0, sizeof(np)); np.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
	np.conditional.handle = h; np.conditional.type = CU_GRAPH_COND_TYPE_WHILE; np.conditional.size = 1; np.conditional.ctx = c;
	CUgraphNode cn; CK(cuGraphAddNode(&cn, e, NULL, NULL, 0, &np));
	CUgraphNode en; CK(cuGraphAddEmptyNode(&en, np.conditional.phGraph_out[0], NULL, 0));
	snprintf(path, sizeof(path), "%s/dot_cond.dot", dir);
	CK(cuGraphDebugDotPrint(e, path, 1)); dump(path, "conditional graph verbose");
	/* user objects */
	CUuserObject uo; printf("userobj create: %d\n", cuUserObjectCreate(&uo, NULL, hostfn, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
	printf("userobj create bad flags: %d\n", cuUserObjectCreate(&uo, NULL, hostfn, 1, 0));
	printf("userobj create NULL fn: %d\n", cuUserObjectCreate(&uo, NULL, NULL, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
	printf("userobj create 0 refs: %d\n", cuUserObjectCreate(&uo, NULL, hostfn, 0, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
	CK(cuUserObjectCreate(&uo, NULL, hostfn, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
	printf("graph retain uo move: %d\n", cuGraphRetainUserObject(g, uo, 1, CU_GRAPH_USER_OBJECT_MOVE));
	printf("graph retain bad flags: %d\n", cuGraphRetainUserObject(g, uo, 1, 5));
	printf("graph release 1: %d\n", cuGraphReleaseUserObject(g, uo, 1));
	printf("graph release again: %d\n", cuGraphReleaseUserObject(g, uo, 1));
	printf("uo retain 0: %d\n", cuUserObjectRetain(uo, 0));
	/* kernel node attributes */
	CUkernelNodeAttrValue av; memset(&av, 0, sizeof(av));
	printf("get priority: %d\n", cuGraphKernelNodeGetAttribute(n[0], CU_LAUNCH_ATTRIBUTE_PRIORITY, &av)); printf("priority %d\n", av.priority);
	av.priority = -1; printf("set priority: %d\n", cuGraphKernelNodeSetAttribute(n[0], CU_LAUNCH_ATTRIBUTE_PRIORITY, &av));
	memset(&av, 0, sizeof(av)); cuGraphKernelNodeGetAttribute(n[0], CU_LAUNCH_ATTRIBUTE_PRIORITY, &av); printf("priority now %d\n", av.priority);
	printf("get on memset node: %d\n", cuGraphKernelNodeGetAttribute(n[1], CU_LAUNCH_ATTRIBUTE_PRIORITY, &av));
	printf("copy attrs: %d\n", cuGraphKernelNodeCopyAttributes(n[9], n[0]));
	printf("copy attrs from memset: %d\n", cuGraphKernelNodeCopyAttributes(n[9], n[1]));
	memset(&av, 0, sizeof(av)); cuGraphKernelNodeGetAttribute(n[9], CU_LAUNCH_ATTRIBUTE_PRIORITY, &av); printf("copied priority %d\n", av.priority);
	for (int id = 0; id < 20; id++) { memset(&av, 0, sizeof(av)); printf("get attr %d: %d\n", id, cuGraphKernelNodeGetAttribute(n[0], (CUkernelNodeAttrID)id, &av)); }
	for (int id = 0; id < 20; id++) { memset(&av, 0, sizeof(av)); printf("set zero attr %d: %d\n", id, cuGraphKernelNodeSetAttribute(n[0], (CUkernelNodeAttrID)id, &av)); }
	memset(&av, 0, sizeof(av)); av.cooperative = 1; printf("set cooperative: %d\n", cuGraphKernelNodeSetAttribute(n[0], CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &av));
	memset(&av, 0, sizeof(av)); cuGraphKernelNodeGetAttribute(n[0], CU_LAUNCH_ATTRIBUTE_COOPERATIVE, &av); printf("cooperative now %d\n", av.cooperative);
	memset(&av, 0, sizeof(av)); av.priority = 100; printf("set priority 100: %d\n", cuGraphKernelNodeSetAttribute(n[0], CU_LAUNCH_ATTRIBUTE_PRIORITY, &av));
	memset(&av, 0, sizeof(av)); cuGraphKernelNodeGetAttribute(n[0], CU_LAUNCH_ATTRIBUTE_PRIORITY, &av); printf("priority now %d\n", av.priority);
	printf("get attr NULL node: %d\n", cuGraphKernelNodeGetAttribute(NULL, CU_LAUNCH_ATTRIBUTE_PRIORITY, &av));
	snprintf(path, sizeof(path), "%s/dot_attr.dot", dir);
	CK(cuGraphDebugDotPrint(g, path, 1)); dump(path, "verbose after attributes");
	/* more dot shapes */
	{
		CUgraph g2, c1, c2; CUgraphNode a, b, cc, dd;
		CK(cuGraphCreate(&g2, 0)); CK(cuGraphCreate(&c1, 0)); CK(cuGraphCreate(&c2, 0));
		CK(cuGraphAddEmptyNode(&a, c2, NULL, 0));
		CK(cuGraphAddChildGraphNode(&b, c1, NULL, 0, c2));
		CK(cuGraphAddChildGraphNode(&cc, g2, NULL, 0, c1));
		CUDA_KERNEL_NODE_PARAMS kp2 = kp; kp2.gridDimY = 3; kp2.blockDimY = 2; kp2.sharedMemBytes = 16;
		CK(cuGraphAddKernelNode(&dd, g2, &cc, 1, &kp2));
		void *hostp; CK(cuMemAllocHost(&hostp, 64));
		CUDA_MEMCPY3D cp2; memset(&cp2, 0, sizeof(cp2));
		cp2.srcMemoryType = CU_MEMORYTYPE_HOST; cp2.srcHost = hostp; cp2.dstMemoryType = CU_MEMORYTYPE_DEVICE; cp2.dstDevice = p;
		cp2.WidthInBytes = 16; cp2.Height = 2; cp2.Depth = 1; cp2.srcPitch = 32; cp2.dstPitch = 32;
		CUgraphNode m2; CK(cuGraphAddMemcpyNode(&m2, g2, &dd, 1, &cp2, c));
		CUDA_MEMCPY3D cp3; memset(&cp3, 0, sizeof(cp3));
		cp3.srcMemoryType = CU_MEMORYTYPE_UNIFIED; cp3.srcDevice = p; cp3.dstMemoryType = CU_MEMORYTYPE_UNIFIED; cp3.dstDevice = p + 1024;
		cp3.WidthInBytes = 16; cp3.Height = 1; cp3.Depth = 1;
		CUgraphNode m3; CK(cuGraphAddMemcpyNode(&m3, g2, &dd, 1, &cp3, c));
		for (unsigned f = 0; f <= 2; f++) {
			snprintf(path, sizeof(path), "%s/dot2_%u.dot", dir, f);
			char tag[64]; snprintf(tag, sizeof(tag), "nested flags %u", f);
			CK(cuGraphDebugDotPrint(g2, path, f)); dump(path, tag);
		}
		CUgraph g3; CK(cuGraphCreate(&g3, 0));
		CUgraphConditionalHandle h2, h3; CK(cuGraphConditionalHandleCreate(&h2, g3, c, 0, 0)); CK(cuGraphConditionalHandleCreate(&h3, g3, c, 0, 0));
		printf("handles %llu %llu %llu\n", (unsigned long long)h, (unsigned long long)h2, (unsigned long long)h3);
		CUgraphNodeParams q; memset(&q, 0, sizeof(q)); q.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
		q.conditional.handle = h2; q.conditional.type = CU_GRAPH_COND_TYPE_IF; q.conditional.size = 2; q.conditional.ctx = c;
		CUgraphNode i1; CK(cuGraphAddNode(&i1, g3, NULL, NULL, 0, &q));
		CUgraphNodeParams q2; memset(&q2, 0, sizeof(q2)); q2.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
		q2.conditional.handle = h3; q2.conditional.type = CU_GRAPH_COND_TYPE_SWITCH; q2.conditional.size = 3; q2.conditional.ctx = c;
		CUgraphNode s1; CK(cuGraphAddNode(&s1, g3, &i1, NULL, 1, &q2));
		for (unsigned f = 0; f <= 1; f++) {
			snprintf(path, sizeof(path), "%s/dot3_%u.dot", dir, f);
			char tag[64]; snprintf(tag, sizeof(tag), "if switch flags %u", f);
			CK(cuGraphDebugDotPrint(g3, path, f)); dump(path, tag);
		}
	}
	/* user objects' lifetimes */
	{
		CUgraph ug; CUuserObject u; CUgraphExec ue; CUstream st; CK(cuStreamCreate(&st, 0));
		CK(cuGraphCreate(&ug, 0)); CUgraphNode en2; CK(cuGraphAddEmptyNode(&en2, ug, NULL, 0));
		destroyed = 0;
		CK(cuUserObjectCreate(&u, NULL, uo_destroy, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
		CK(cuGraphRetainUserObject(ug, u, 1, CU_GRAPH_USER_OBJECT_MOVE));
		CK(cuGraphDestroy(ug)); for (int t = 0; t < 100 && !destroyed; t++) usleep(1000);
		printf("uo: destroyed after graph destroy (moved ref): %d\n", destroyed);
		destroyed = 0;
		CK(cuGraphCreate(&ug, 0)); CK(cuGraphAddEmptyNode(&en2, ug, NULL, 0));
		CK(cuUserObjectCreate(&u, NULL, uo_destroy, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
		CK(cuGraphRetainUserObject(ug, u, 2, 0));
		CK(cuUserObjectRelease(u, 1)); usleep(20000);
		printf("uo: destroyed after own release, graph holds 2: %d\n", destroyed);
		CK(cuGraphInstantiate(&ue, ug, 0));
		CK(cuGraphDestroy(ug)); usleep(20000);
		printf("uo: destroyed after graph destroy, exec lives: %d\n", destroyed);
		CK(cuGraphLaunch(ue, st)); CK(cuStreamSynchronize(st));
		CK(cuGraphExecDestroy(ue)); for (int t = 0; t < 100 && !destroyed; t++) usleep(1000);
		printf("uo: destroyed after exec destroy: %d\n", destroyed);
		destroyed = 0;
		CK(cuUserObjectCreate(&u, NULL, uo_destroy, 2, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
		printf("uo release 3 of 2: %d\n", cuUserObjectRelease(u, 3)); usleep(20000);
		printf("uo: destroyed after over-release: %d\n", destroyed);
		printf("uo release NULL: %d\n", cuUserObjectRelease(NULL, 1));
		printf("uo create NULL out: %d\n", cuUserObjectCreate(NULL, NULL, uo_destroy, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
		CK(cuGraphCreate(&ug, 0));
		CK(cuUserObjectCreate(&u, NULL, uo_destroy, 1, CU_USER_OBJECT_NO_DESTRUCTOR_SYNC));
		printf("graph retain count 0: %d\n", cuGraphRetainUserObject(ug, u, 0, 0));
		printf("graph release count 0: %d\n", cuGraphReleaseUserObject(ug, u, 0));
		printf("graph release not held: %d\n", cuGraphReleaseUserObject(ug, u, 1));
		printf("graph retain NULL graph: %d\n", cuGraphRetainUserObject(NULL, u, 1, 0));
		printf("graph retain NULL obj: %d\n", cuGraphRetainUserObject(ug, NULL, 1, 0));
	}
	return 0;
}
