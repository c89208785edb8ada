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
	/* memory nodes made directly, and parameters through the union */
	{
		CUgraph mg; CUgraphNode an, kn, fn, bad; CUgraphExec me; CUstream st;
		CUDA_MEM_ALLOC_NODE_PARAMS ap; CUdeviceptr gp; unsigned int got = 0, val = 5;
		void *margs[] = { &gp, &val };
		CK(cuStreamCreate(&st, 0)); CK(cuGraphCreate(&mg, 0));
		memset(&ap, 0, sizeof(ap));
		ap.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
		ap.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
		ap.poolProps.location.id = 0;
		ap.bytesize = 4096;
		printf("alloc node: %d\n", cuGraphAddMemAllocNode(&an, mg, NULL, 0, &ap));
		printf("alloc node dptr set: %d\n", ap.dptr != 0);
		gp = ap.dptr;
		CUDA_KERNEL_NODE_PARAMS mk = kp; mk.kernelParams = margs;
		CK(cuGraphAddKernelNode(&kn, mg, &an, 1, &mk));
		printf("free node: %d\n", cuGraphAddMemFreeNode(&fn, mg, &kn, 1, gp));
		CUDA_MEM_ALLOC_NODE_PARAMS bp = ap;
		bp.bytesize = 0; printf("alloc node 0 bytes: %d\n", cuGraphAddMemAllocNode(&bad, mg, NULL, 0, &bp));
		bp = ap; bp.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_INVALID; printf("alloc node bad type: %d\n", cuGraphAddMemAllocNode(&bad, mg, NULL, 0, &bp));
		bp = ap; bp.poolProps.location.type = CU_MEM_LOCATION_TYPE_HOST; printf("alloc node host location: %d\n", cuGraphAddMemAllocNode(&bad, mg, NULL, 0, &bp));
		bp = ap; bp.poolProps.location.id = 99; printf("alloc node bad device: %d\n", cuGraphAddMemAllocNode(&bad, mg, NULL, 0, &bp));
		printf("alloc node NULL params: %d\n", cuGraphAddMemAllocNode(&bad, mg, NULL, 0, NULL));
		printf("alloc node NULL out: %d\n", cuGraphAddMemAllocNode(NULL, mg, NULL, 0, &ap));
		printf("alloc node NULL graph: %d\n", cuGraphAddMemAllocNode(&bad, NULL, NULL, 0, &ap));
		printf("free node NULL ptr: %d\n", cuGraphAddMemFreeNode(&bad, mg, NULL, 0, 0));
		printf("free node NULL out: %d\n", cuGraphAddMemFreeNode(NULL, mg, NULL, 0, gp));
		printf("free node NULL graph: %d\n", cuGraphAddMemFreeNode(&bad, NULL, NULL, 0, gp));
		CUDA_MEM_ALLOC_NODE_PARAMS gap; memset(&gap, 0, sizeof(gap));
		printf("alloc get: %d\n", cuGraphMemAllocNodeGetParams(an, &gap));
		printf("alloc get bytes: %zu same ptr: %d type %d loc %d/%d\n", gap.bytesize, gap.dptr == gp, gap.poolProps.allocType, gap.poolProps.location.type, gap.poolProps.location.id);
		CUdeviceptr fp = 0; printf("free get: %d\n", cuGraphMemFreeNodeGetParams(fn, &fp));
		printf("free get same: %d\n", fp == gp);
		printf("mem graph instantiate: %d\n", cuGraphInstantiate(&me, mg, 0));
		printf("mem graph launch: %d\n", cuGraphLaunch(me, st));
		printf("mem graph sync: %d\n", cuStreamSynchronize(st));
		/* the union */
		CUgraphNodeParams up; memset(&up, 0, sizeof(up));
		up.type = CU_GRAPH_NODE_TYPE_KERNEL;
		up.kernel.func = k; up.kernel.gridDimX = 1; up.kernel.gridDimY = 1; up.kernel.gridDimZ = 1;
		up.kernel.blockDimX = 1; up.kernel.blockDimY = 1; up.kernel.blockDimZ = 1;
		unsigned int v9 = 9; void *uargs[] = { &p, &v9 }; up.kernel.kernelParams = uargs;
		printf("node set params kernel: %d\n", cuGraphNodeSetParams(n[0], &up));
		printf("node set params kernel on memset: %d\n", cuGraphNodeSetParams(n[1], &up));
		printf("node set params NULL: %d\n", cuGraphNodeSetParams(n[0], NULL));
		printf("node set params NULL node: %d\n", cuGraphNodeSetParams(NULL, &up));
		up.reserved2 = 1; printf("node set params reserved: %d\n", cuGraphNodeSetParams(n[0], &up)); up.reserved2 = 0;
		CUgraphNodeParams ep; memset(&ep, 0, sizeof(ep)); ep.type = CU_GRAPH_NODE_TYPE_EMPTY;
		printf("node set params empty: %d\n", cuGraphNodeSetParams(n[8], &ep));
		CUgraphNodeParams gp2; memset(&gp2, 0, sizeof(gp2)); gp2.type = CU_GRAPH_NODE_TYPE_GRAPH; gp2.graph.graph = child;
		printf("node set params child graph: %d\n", cuGraphNodeSetParams(n[5], &gp2));
		CUgraphNodeParams hp2; memset(&hp2, 0, sizeof(hp2)); hp2.type = CU_GRAPH_NODE_TYPE_HOST; hp2.host.fn = hostfn;
		printf("node set params host: %d\n", cuGraphNodeSetParams(n[3], &hp2));
		CUgraphNodeParams rp; memset(&rp, 0, sizeof(rp)); rp.type = CU_GRAPH_NODE_TYPE_EVENT_RECORD; rp.eventRecord.event = ev;
		printf("node set params event record: %d\n", cuGraphNodeSetParams(n[6], &rp));
		printf("node set params event record on wait: %d\n", cuGraphNodeSetParams(n[7], &rp));
		CUgraphExec ge;
		printf("instantiate dot graph: %d\n", cuGraphInstantiate(&ge, g, 0));
		printf("exec set params kernel: %d\n", cuGraphExecNodeSetParams(ge, n[0], &up));
		printf("exec set params kernel on memset: %d\n", cuGraphExecNodeSetParams(ge, n[1], &up));
		printf("exec set params empty: %d\n", cuGraphExecNodeSetParams(ge, n[8], &ep));
		printf("exec set params host: %d\n", cuGraphExecNodeSetParams(ge, n[3], &hp2));
		printf("exec set params NULL exec: %d\n", cuGraphExecNodeSetParams(NULL, n[0], &up));
		printf("exec set params NULL: %d\n", cuGraphExecNodeSetParams(ge, n[0], NULL));
		CUgraphNodeParams an2; memset(&an2, 0, sizeof(an2)); an2.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
		an2.alloc.poolProps = ap.poolProps; an2.alloc.bytesize = 256;
		CUgraph ug2; CK(cuGraphCreate(&ug2, 0)); CUgraphNode un1, un2;
		printf("add node mem alloc: %d\n", cuGraphAddNode(&un1, ug2, NULL, NULL, 0, &an2));
		printf("add node mem alloc dptr set: %d\n", an2.alloc.dptr != 0);
		CUgraphNodeParams fn2; memset(&fn2, 0, sizeof(fn2)); fn2.type = CU_GRAPH_NODE_TYPE_MEM_FREE; fn2.free.dptr = an2.alloc.dptr;
		printf("add node mem free: %d\n", cuGraphAddNode(&un2, ug2, &un1, NULL, 1, &fn2));
		printf("node set params mem alloc: %d\n", cuGraphNodeSetParams(un1, &an2));
		CK(cuGraphExecDestroy(ge));
		CK(cuGraphExecDestroy(me));
		(void)got;
	}
	return 0;
}
