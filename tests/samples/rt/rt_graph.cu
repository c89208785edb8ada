// SPDX-License-Identifier: MIT
// A CUDA graph built by hand with the runtime API, as the programming
// guide's "creating a graph using graph APIs" does: a fill, copies in
// and out (3D, 1D, to and from a __device__ variable), kernels with
// arguments in a diamond, a host function, an empty join, a child graph
// and event record and wait nodes. Every query (nodes, types, roots,
// edges, dependencies), each node type's parameters read back and set,
// a clone and its nodes; then the graph instantiated, launched on a
// stream again and again with the results checked on the host, changed
// in the executable graph and launched again; and bad input. Where the
// answer to bad input is the runtime's own choice the code is printed.
#include <unistd.h>

#include "rt.h"

#define N 1024
#define LAUNCHES 12

__device__ int dev_sym[N];

// out = m * in + add
__global__ void scale_add(int *out, const int *in, const int *add, int m,
			  int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = m * in[i] + add[i];
}

__global__ void scale(int *out, const int *in, int m, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = m * in[i];
}

__global__ void sum(int *out, const int *a, const int *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = a[i] + b[i];
}

__global__ void bump_sym(int by, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		dev_sym[i] += by;
}

static void CUDART_CB count_up(void *p)
{
	(*(int *)p)++;
}

static void CUDART_CB count_ten(void *p)
{
	*(int *)p += 10;
}

enum {
	MEMSET, H2D, WAIT, JOIN, K1, K2, K3, TOSYM, CHILD, FROMSYM, D2H,
	RECORD, HOST, NNODES
};

static const char *const names[NNODES] = {
	"memset", "h2d", "wait", "join", "k1", "k2", "k3", "tosym", "child",
	"fromsym", "d2h", "record", "host",
};

static cudaGraphNode_t nodes[NNODES];

static const char *name_of(cudaGraphNode_t n)
{
	for (int i = 0; i < NNODES; i++)
		if (nodes[i] == n)
			return names[i];
	return "?";
}

static int index_of(cudaGraphNode_t n)
{
	for (int i = 0; i < NNODES; i++)
		if (nodes[i] == n)
			return i;
	return NNODES;
}

// Prints @n names of @list in the sample's node order.
static void print_set(const char *what, const cudaGraphNode_t *list,
		      size_t n)
{
	bool seen[NNODES + 1] = { false };

	printf("%s (%zu):", what, n);
	for (size_t i = 0; i < n; i++)
		seen[index_of(list[i])] = true;
	for (int i = 0; i <= NNODES; i++)
		if (seen[i])
			printf(" %s", i < NNODES ? names[i] : "?");
	printf("\n");
}

struct bufs {
	int *h_in, *h_in2, *h_out, *h_out2;
	int *d_in, *d_a, *d_b, *d_c, *d_out, *d_res;
};

// The first element of @h that is not @m * i + @c, or -1.
static int check(const int *h, int m, int c)
{
	for (int i = 0; i < N; i++)
		if (h[i] != m * i + c)
			return i;
	return -1;
}

static cudaGraph_t make_child(void)
{
	cudaKernelNodeParams kp = {};
	cudaGraphNode_t k;
	cudaGraph_t g;
	int by = 1, n = N;
	void *args[] = { &by, &n };

	TRY(cudaGraphCreate(&g, 0));
	kp.func = (void *)bump_sym;
	kp.gridDim = dim3(N / 256);
	kp.blockDim = dim3(256);
	kp.kernelParams = args;
	TRY(cudaGraphAddKernelNode(&k, g, NULL, 0, &kp));
	return g;
}

// The graph: two roots and a wait join; k1 and k2 a diamond to k3; then
// a chain through the variable, the child graph and back to the host.
static cudaGraph_t build(struct bufs *b, cudaEvent_t rec, cudaEvent_t wait,
			 int *counter, cudaGraph_t child)
{
	static int three = 3, two = 2, n = N;
	static void *k1_args[5], *k3_args[4], *k2_args[4];
	cudaGraphNodeParams np = {};
	cudaMemcpy3DParms cp = {};
	cudaKernelNodeParams kp = {};
	cudaMemsetParams mp = {};
	cudaHostNodeParams hp = {};
	cudaGraphNode_t deps[3];
	cudaGraph_t g;

	TRY(cudaGraphCreate(&g, 0));
	mp.dst = b->d_a;
	mp.value = 1;
	mp.elementSize = 4;
	mp.width = N;
	mp.height = 1;
	TRY(cudaGraphAddMemsetNode(&nodes[MEMSET], g, NULL, 0, &mp));
	cp.srcPtr = make_cudaPitchedPtr(b->h_in, N * sizeof(int), N, 1);
	cp.dstPtr = make_cudaPitchedPtr(b->d_in, N * sizeof(int), N, 1);
	cp.extent = make_cudaExtent(N * sizeof(int), 1, 1);
	cp.kind = cudaMemcpyHostToDevice;
	TRY(cudaGraphAddMemcpyNode(&nodes[H2D], g, NULL, 0, &cp));
	TRY(cudaGraphAddEventWaitNode(&nodes[WAIT], g, NULL, 0, wait));
	deps[0] = nodes[MEMSET];
	deps[1] = nodes[H2D];
	deps[2] = nodes[WAIT];
	TRY(cudaGraphAddEmptyNode(&nodes[JOIN], g, deps, 3));

	k1_args[0] = &b->d_b;
	k1_args[1] = &b->d_in;
	k1_args[2] = &b->d_a;
	k1_args[3] = &three;
	k1_args[4] = &n;
	kp.func = (void *)scale_add;
	kp.gridDim = dim3(N / 256);
	kp.blockDim = dim3(256);
	kp.kernelParams = k1_args;
	TRY(cudaGraphAddKernelNode(&nodes[K1], g, &nodes[JOIN], 1, &kp));

	// k2 through the generic call.
	k2_args[0] = &b->d_c;
	k2_args[1] = &b->d_in;
	k2_args[2] = &two;
	k2_args[3] = &n;
	np.type = cudaGraphNodeTypeKernel;
	np.kernel.func = (void *)scale;
	np.kernel.gridDim = dim3(N / 256);
	np.kernel.blockDim = dim3(256);
	np.kernel.kernelParams = k2_args;
	TRY(cudaGraphAddNode(&nodes[K2], g, &nodes[JOIN], NULL, 1, &np));

	k3_args[0] = &b->d_out;
	k3_args[1] = &b->d_b;
	k3_args[2] = &b->d_c;
	k3_args[3] = &n;
	kp.func = (void *)sum;
	kp.kernelParams = k3_args;
	deps[0] = nodes[K1];
	deps[1] = nodes[K2];
	TRY(cudaGraphAddKernelNode(&nodes[K3], g, deps, 2, &kp));

	TRY(cudaGraphAddMemcpyNodeToSymbol(&nodes[TOSYM], g, &nodes[K3], 1,
					   dev_sym, b->d_out, N * sizeof(int),
					   0, cudaMemcpyDeviceToDevice));
	TRY(cudaGraphAddChildGraphNode(&nodes[CHILD], g, &nodes[TOSYM], 1,
				       child));
	TRY(cudaGraphAddMemcpyNodeFromSymbol(&nodes[FROMSYM], g,
					     &nodes[CHILD], 1, b->d_res,
					     dev_sym, N * sizeof(int), 0,
					     cudaMemcpyDeviceToDevice));
	TRY(cudaGraphAddMemcpyNode1D(&nodes[D2H], g, &nodes[FROMSYM], 1,
				     b->h_out, b->d_res, N * sizeof(int),
				     cudaMemcpyDeviceToHost));
	TRY(cudaGraphAddEventRecordNode(&nodes[RECORD], g, &nodes[D2H], 1,
					rec));
	hp.fn = count_up;
	hp.userData = counter;
	TRY(cudaGraphAddHostNode(&nodes[HOST], g, &nodes[D2H], 1, &hp));
	return g;
}

static void queries(cudaGraph_t g)
{
	cudaGraphNode_t list[32], from[32], to[32];
	cudaGraphEdgeData ed[32];
	enum cudaGraphNodeType t;
	size_t n = 0;
	int pairs[32][2], np = 0;

	TRY(cudaGraphGetNodes(g, NULL, &n));
	printf("nodes: %zu\n", n);
	n = 32;
	TRY(cudaGraphGetNodes(g, list, &n));
	print_set("nodes listed", list, n);
	n = 3;
	TRY(cudaGraphGetNodes(g, list, &n));
	printf("nodes into a list of 3: %zu\n", n);
	TRY(cudaGraphGetRootNodes(g, NULL, &n));
	printf("root nodes: %zu\n", n);
	n = 32;
	TRY(cudaGraphGetRootNodes(g, list, &n));
	print_set("roots", list, n);
	for (int i = 0; i < NNODES; i++) {
		TRY(cudaGraphNodeGetType(nodes[i], &t));
		printf("type of %s: %d\n", names[i], (int)t);
	}

	TRY(cudaGraphGetEdges(g, NULL, NULL, NULL, &n));
	printf("edges: %zu\n", n);
	n = 32;
	memset(ed, 0xff, sizeof(ed));
	TRY(cudaGraphGetEdges(g, from, to, ed, &n));
	// Printed in the sample's node order: the listing's is the driver's.
	for (int a = 0; a < NNODES; a++)
		for (int b = 0; b < NNODES; b++)
			for (size_t i = 0; i < n; i++)
				if (index_of(from[i]) == a &&
				    index_of(to[i]) == b) {
					pairs[np][0] = a;
					pairs[np++][1] = b;
				}
	for (int i = 0; i < np; i++)
		printf("edge %s -> %s\n", names[pairs[i][0]],
		       names[pairs[i][1]]);
	for (size_t i = 0; i < n; i++)
		if (ed[i].type || ed[i].from_port || ed[i].to_port)
			printf("edge %zu carries data\n", i);

	TRY(cudaGraphNodeGetDependencies(nodes[K3], NULL, NULL, &n));
	printf("k3 dependencies: %zu\n", n);
	n = 32;
	TRY(cudaGraphNodeGetDependencies(nodes[K3], list, ed, &n));
	print_set("k3 depends on", list, n);
	printf("k3 first edge type: %d\n", (int)ed[0].type);
	n = 32;
	TRY(cudaGraphNodeGetDependencies(nodes[JOIN], list, NULL, &n));
	print_set("join depends on", list, n);
	n = 32;
	TRY(cudaGraphNodeGetDependentNodes(nodes[JOIN], list, NULL, &n));
	print_set("join's dependents", list, n);
	n = 32;
	TRY(cudaGraphNodeGetDependentNodes(nodes[D2H], list, ed, &n));
	print_set("d2h's dependents", list, n);
	n = 32;
	TRY(cudaGraphNodeGetDependentNodes(nodes[HOST], list, NULL, &n));
	printf("host's dependents: %zu\n", n);

	// One more edge, then gone again.
	TRY(cudaGraphAddDependencies(g, &nodes[MEMSET], &nodes[HOST], NULL,
				     1));
	TRY(cudaGraphGetEdges(g, NULL, NULL, NULL, &n));
	printf("edges after adding memset -> host: %zu\n", n);
	n = 32;
	TRY(cudaGraphNodeGetDependencies(nodes[HOST], list, NULL, &n));
	print_set("host depends on", list, n);
	TRY(cudaGraphRemoveDependencies(g, &nodes[MEMSET], &nodes[HOST],
					NULL, 1));
	TRY(cudaGraphGetEdges(g, NULL, NULL, NULL, &n));
	printf("edges after removing it: %zu\n", n);
	TRY(cudaGraphGetRootNodes(g, NULL, &n));
	printf("root nodes after removing it: %zu\n", n);
}

static void params(cudaGraph_t g, struct bufs *b, cudaEvent_t rec,
		   cudaEvent_t wait, cudaEvent_t other, int *counter)
{
	cudaKernelNodeParams kp = {};
	cudaMemcpy3DParms cp = {};
	cudaMemsetParams mp = {};
	cudaHostNodeParams hp = {};
	cudaGraphNode_t tmp;
	cudaGraph_t child;
	cudaEvent_t ev;
	size_t n = 0;
	int four = 4, nn = N;
	void *args[5] = { &b->d_b, &b->d_in, &b->d_a, &four, &nn };

	TRY(cudaGraphKernelNodeGetParams(nodes[K1], &kp));
	printf("k1 func is the host stub: %d\n", kp.func == (void *)scale_add);
	printf("k1 grid %u %u %u block %u %u %u shared %u\n", kp.gridDim.x,
	       kp.gridDim.y, kp.gridDim.z, kp.blockDim.x, kp.blockDim.y,
	       kp.blockDim.z, kp.sharedMemBytes);
	printf("k1 multiplier %d, n %d\n", *(int *)kp.kernelParams[3],
	       *(int *)kp.kernelParams[4]);
	printf("k1 first pointer is d_b: %d\n",
	       *(int **)kp.kernelParams[0] == b->d_b);
	TRY(cudaGraphKernelNodeGetParams(nodes[K2], &kp));
	printf("k2 (cudaGraphAddNode) func is the host stub: %d\n",
	       kp.func == (void *)scale);
	// Set and read back: a copy of the argument, not the variable.
	TRY(cudaGraphKernelNodeGetParams(nodes[K1], &kp));
	kp.kernelParams = args;
	TRY(cudaGraphKernelNodeSetParams(nodes[K1], &kp));
	four = 5;
	TRY(cudaGraphKernelNodeGetParams(nodes[K1], &kp));
	printf("k1 multiplier after set: %d\n", *(int *)kp.kernelParams[3]);
	printf("k1 func after set is the host stub: %d\n",
	       kp.func == (void *)scale_add);
	four = 3;
	kp.kernelParams = args;
	TRY(cudaGraphKernelNodeSetParams(nodes[K1], &kp));

	TRY(cudaGraphMemsetNodeGetParams(nodes[MEMSET], &mp));
	printf("memset dst is d_a: %d value %u element %u width %zu "
	       "height %zu\n", mp.dst == b->d_a, mp.value, mp.elementSize,
	       mp.width, mp.height);
	mp.value = 2;
	TRY(cudaGraphMemsetNodeSetParams(nodes[MEMSET], &mp));
	TRY(cudaGraphMemsetNodeGetParams(nodes[MEMSET], &mp));
	printf("memset value after set: %u\n", mp.value);
	mp.value = 1;
	TRY(cudaGraphMemsetNodeSetParams(nodes[MEMSET], &mp));

	TRY(cudaGraphMemcpyNodeGetParams(nodes[H2D], &cp));
	printf("h2d kind %d extent %zu %zu %zu src is h_in: %d "
	       "dst is d_in: %d\n", (int)cp.kind, cp.extent.width,
	       cp.extent.height, cp.extent.depth, cp.srcPtr.ptr == b->h_in,
	       cp.dstPtr.ptr == b->d_in);
	printf("h2d pitches %zu %zu arrays %d %d\n", cp.srcPtr.pitch,
	       cp.dstPtr.pitch, cp.srcArray != NULL, cp.dstArray != NULL);
	cp.srcPtr.ptr = b->h_in2;
	TRY(cudaGraphMemcpyNodeSetParams(nodes[H2D], &cp));
	TRY(cudaGraphMemcpyNodeGetParams(nodes[H2D], &cp));
	printf("h2d src after set is h_in2: %d\n", cp.srcPtr.ptr == b->h_in2);
	cp.srcPtr.ptr = b->h_in;
	TRY(cudaGraphMemcpyNodeSetParams(nodes[H2D], &cp));

	TRY(cudaGraphMemcpyNodeGetParams(nodes[D2H], &cp));
	printf("d2h (1D) kind %d extent %zu %zu %zu src is d_res: %d "
	       "dst is h_out: %d\n", (int)cp.kind, cp.extent.width,
	       cp.extent.height, cp.extent.depth, cp.srcPtr.ptr == b->d_res,
	       cp.dstPtr.ptr == b->h_out);
	TRY(cudaGraphMemcpyNodeSetParams1D(nodes[D2H], b->h_out2, b->d_res,
					   N * sizeof(int),
					   cudaMemcpyDeviceToHost));
	TRY(cudaGraphMemcpyNodeGetParams(nodes[D2H], &cp));
	printf("d2h dst after 1D set is h_out2: %d\n",
	       cp.dstPtr.ptr == b->h_out2);
	TRY(cudaGraphMemcpyNodeSetParams1D(nodes[D2H], b->h_out, b->d_res,
					   N * sizeof(int),
					   cudaMemcpyDeviceToHost));
	TRY(cudaGraphMemcpyNodeGetParams(nodes[TOSYM], &cp));
	printf("tosym kind %d extent %zu %zu %zu src is d_out: %d\n",
	       (int)cp.kind, cp.extent.width, cp.extent.height,
	       cp.extent.depth, cp.srcPtr.ptr == b->d_out);
	TRY(cudaGraphMemcpyNodeSetParamsToSymbol(nodes[TOSYM], dev_sym,
						 b->d_out, N * sizeof(int), 0,
						 cudaMemcpyDeviceToDevice));
	TRY(cudaGraphMemcpyNodeGetParams(nodes[FROMSYM], &cp));
	printf("fromsym kind %d extent %zu %zu %zu dst is d_res: %d\n",
	       (int)cp.kind, cp.extent.width, cp.extent.height,
	       cp.extent.depth, cp.dstPtr.ptr == b->d_res);
	TRY(cudaGraphMemcpyNodeSetParamsFromSymbol(nodes[FROMSYM], b->d_res,
						   dev_sym, N * sizeof(int),
						   0,
						   cudaMemcpyDeviceToDevice));

	TRY(cudaGraphHostNodeGetParams(nodes[HOST], &hp));
	printf("host fn is count_up: %d data is the counter: %d\n",
	       hp.fn == count_up, hp.userData == counter);
	hp.fn = count_ten;
	TRY(cudaGraphHostNodeSetParams(nodes[HOST], &hp));
	TRY(cudaGraphHostNodeGetParams(nodes[HOST], &hp));
	printf("host fn after set is count_ten: %d\n", hp.fn == count_ten);
	hp.fn = count_up;
	TRY(cudaGraphHostNodeSetParams(nodes[HOST], &hp));

	TRY(cudaGraphChildGraphNodeGetGraph(nodes[CHILD], &child));
	TRY(cudaGraphGetNodes(child, NULL, &n));
	printf("child graph nodes: %zu\n", n);
	TRY(cudaGraphGetNodes(child, &tmp, &n));
	TRY(cudaGraphKernelNodeGetParams(tmp, &kp));
	printf("child's kernel is bump_sym: %d\n", kp.func == (void *)bump_sym);

	TRY(cudaGraphEventRecordNodeGetEvent(nodes[RECORD], &ev));
	printf("record node's event: %d\n", ev == rec);
	TRY(cudaGraphEventRecordNodeSetEvent(nodes[RECORD], other));
	TRY(cudaGraphEventRecordNodeGetEvent(nodes[RECORD], &ev));
	printf("record node's event after set: %d\n", ev == other);
	TRY(cudaGraphEventRecordNodeSetEvent(nodes[RECORD], rec));
	TRY(cudaGraphEventWaitNodeGetEvent(nodes[WAIT], &ev));
	printf("wait node's event: %d\n", ev == wait);
	TRY(cudaGraphEventWaitNodeSetEvent(nodes[WAIT], other));
	TRY(cudaGraphEventWaitNodeGetEvent(nodes[WAIT], &ev));
	printf("wait node's event after set: %d\n", ev == other);
	TRY(cudaGraphEventWaitNodeSetEvent(nodes[WAIT], wait));

	// A node added and destroyed leaves the graph as it was.
	TRY(cudaGraphAddEmptyNode(&tmp, g, &nodes[HOST], 1));
	TRY(cudaGraphGetNodes(g, NULL, &n));
	printf("nodes with a spare: %zu\n", n);
	TRY(cudaGraphDestroyNode(tmp));
	TRY(cudaGraphGetNodes(g, NULL, &n));
	printf("nodes after destroying it: %zu\n", n);
	TRY(cudaGraphNodeGetDependentNodes(nodes[HOST], NULL, NULL, &n));
	printf("host's dependents after destroying it: %zu\n", n);
}

static void clone(cudaGraph_t g)
{
	cudaKernelNodeParams kp = {};
	enum cudaGraphNodeType t;
	cudaGraphNode_t c, list[32];
	cudaGraph_t cl;
	size_t n = 0;
	int same = 0;

	TRY(cudaGraphClone(&cl, g));
	TRY(cudaGraphGetNodes(cl, NULL, &n));
	printf("clone nodes: %zu\n", n);
	TRY(cudaGraphGetEdges(cl, NULL, NULL, NULL, &n));
	printf("clone edges: %zu\n", n);
	for (int i = 0; i < NNODES; i++) {
		TRY(cudaGraphNodeFindInClone(&c, nodes[i], cl));
		TRY(cudaGraphNodeGetType(c, &t));
		enum cudaGraphNodeType ot;

		TRY(cudaGraphNodeGetType(nodes[i], &ot));
		same += c != nodes[i] && t == ot;
	}
	printf("nodes found in the clone, new and of their type: %d\n", same);
	TRY(cudaGraphNodeFindInClone(&c, nodes[K3], cl));
	n = 32;
	TRY(cudaGraphNodeGetDependencies(c, list, NULL, &n));
	printf("k3's clone dependencies: %zu\n", n);
	TRY(cudaGraphNodeFindInClone(&c, nodes[K1], cl));
	TRY(cudaGraphKernelNodeGetParams(c, &kp));
	printf("k1's clone func is the host stub: %d multiplier %d\n",
	       kp.func == (void *)scale_add, *(int *)kp.kernelParams[3]);
	TRY(cudaGraphDestroy(cl));
}

static void launches(cudaGraph_t g, struct bufs *b, cudaEvent_t rec,
		     cudaEvent_t wait, cudaEvent_t other, int *counter)
{
	cudaKernelNodeParams kp = {};
	cudaMemcpy3DParms cp = {};
	cudaMemsetParams mp = {};
	cudaHostNodeParams hp = {};
	cudaGraphExec_t exec;
	cudaStream_t s;
	int bad = 0, four = 4, n = N, counter2 = 0;
	void *args[5] = { &b->d_b, &b->d_in, &b->d_a, &four, &n };
	cudaError_t e;

	TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
	TRY(cudaGraphInstantiate(&exec, g, 0));
	for (int i = 0; i < LAUNCHES; i++) {
		memset(b->h_out, 0, N * sizeof(int));
		TRY(cudaEventRecord(wait, s));
		TRY(cudaGraphLaunch(exec, s));
		TRY(cudaStreamSynchronize(s));
		// in = i, a = 1: 3i + 1 + 2i, and the child's bump.
		bad += check(b->h_out, 5, 2) >= 0;
	}
	printf("launches: %d, wrong results: %d, host node ran: %d\n",
	       LAUNCHES, bad, *counter);
	printf("record node's event done: %d\n",
	       cudaEventQuery(rec) == cudaSuccess);

	// The executable graph changed: k1 by 4, a fill of 7, the input
	// from h_in2 (2i), the output to h_out2, another host function.
	kp.func = (void *)scale_add;
	kp.gridDim = dim3(N / 256);
	kp.blockDim = dim3(256);
	kp.kernelParams = args;
	TRY(cudaGraphExecKernelNodeSetParams(exec, nodes[K1], &kp));
	four = 100;	// the node holds its own copy
	mp.dst = b->d_a;
	mp.value = 7;
	mp.elementSize = 4;
	mp.width = N;
	mp.height = 1;
	TRY(cudaGraphExecMemsetNodeSetParams(exec, nodes[MEMSET], &mp));
	cp.srcPtr = make_cudaPitchedPtr(b->h_in2, N * sizeof(int), N, 1);
	cp.dstPtr = make_cudaPitchedPtr(b->d_in, N * sizeof(int), N, 1);
	cp.extent = make_cudaExtent(N * sizeof(int), 1, 1);
	cp.kind = cudaMemcpyHostToDevice;
	TRY(cudaGraphExecMemcpyNodeSetParams(exec, nodes[H2D], &cp));
	TRY(cudaGraphExecMemcpyNodeSetParams1D(exec, nodes[D2H], b->h_out2,
					       b->d_res, N * sizeof(int),
					       cudaMemcpyDeviceToHost));
	// A copy of an executable graph keeps its kind of memory on each side.
	e = cudaGraphExecMemcpyNodeSetParamsToSymbol(exec, nodes[TOSYM], dev_sym,
						     b->d_out, N * sizeof(int), 0,
						     cudaMemcpyDefault);
	printf("exec tosym as cudaMemcpyDefault: %d\n", (int)e);
	e = cudaGraphExecMemcpyNodeSetParamsFromSymbol(exec, nodes[FROMSYM],
						       b->d_res, dev_sym,
						       N * sizeof(int), 0,
						       cudaMemcpyDefault);
	printf("exec fromsym as cudaMemcpyDefault: %d\n", (int)e);
	cudaGetLastError();
	TRY(cudaGraphExecMemcpyNodeSetParamsToSymbol(exec, nodes[TOSYM],
						     dev_sym, b->d_out,
						     N * sizeof(int), 0,
						     cudaMemcpyDeviceToDevice));
	TRY(cudaGraphExecMemcpyNodeSetParamsFromSymbol(exec, nodes[FROMSYM],
						       b->d_res, dev_sym,
						       N * sizeof(int), 0,
						       cudaMemcpyDeviceToDevice));
	hp.fn = count_up;
	hp.userData = &counter2;
	TRY(cudaGraphExecHostNodeSetParams(exec, nodes[HOST], &hp));
	TRY(cudaGraphExecEventRecordNodeSetEvent(exec, nodes[RECORD], other));
	TRY(cudaGraphExecEventWaitNodeSetEvent(exec, nodes[WAIT], rec));
	bad = 0;
	for (int i = 0; i < 3; i++) {
		memset(b->h_out2, 0, N * sizeof(int));
		TRY(cudaGraphLaunch(exec, s));
		TRY(cudaStreamSynchronize(s));
		// in = 2i, a = 7: 8i + 7 + 4i, and the bump.
		bad += check(b->h_out2, 12, 8) >= 0;
	}
	printf("launches after the exec's changes: 3, wrong results: %d, "
	       "new host data: %d, old: %d\n", bad, counter2, *counter);
	printf("h_out untouched by them: %d\n", check(b->h_out, 5, 2) < 0);
	printf("the other event done: %d\n",
	       cudaEventQuery(other) == cudaSuccess);
	// The graph itself kept its parameters.
	TRY(cudaGraphKernelNodeGetParams(nodes[K1], &kp));
	printf("graph's k1 multiplier: %d\n", *(int *)kp.kernelParams[3]);

	TRY(cudaGraphExecDestroy(exec));
	TRY(cudaStreamDestroy(s));
}

// Each node type through cudaGraphAddNode, in a graph of its own.
static void generic(struct bufs *b, cudaEvent_t rec, cudaGraph_t child)
{
	cudaGraphNodeParams np = {};
	cudaGraphConditionalHandle h;
	enum cudaGraphNodeType t;
	cudaGraphNode_t node, first;
	cudaGraph_t g, body = NULL;
	cudaGraphEdgeData ed = {};
	cudaError_t e;
	size_t n = 0;
	int x = 0;

	TRY(cudaGraphCreate(&g, 0));
	np = {};
	np.type = cudaGraphNodeTypeEmpty;
	TRY(cudaGraphAddNode(&first, g, NULL, NULL, 0, &np));
	np = {};
	np.type = cudaGraphNodeTypeMemset;
	np.memset.dst = b->d_a;
	np.memset.value = 9;
	np.memset.elementSize = 4;
	np.memset.width = N;
	np.memset.height = 1;
	TRY(cudaGraphAddNode(&node, g, &first, &ed, 1, &np));
	TRY(cudaGraphNodeGetType(node, &t));
	printf("AddNode memset: type %d\n", (int)t);
	np = {};
	np.type = cudaGraphNodeTypeMemcpy;
	np.memcpy.copyParams.srcPtr = make_cudaPitchedPtr(b->h_in, 64, 64, 1);
	np.memcpy.copyParams.dstPtr = make_cudaPitchedPtr(b->d_in, 64, 64, 1);
	np.memcpy.copyParams.extent = make_cudaExtent(64, 1, 1);
	np.memcpy.copyParams.kind = cudaMemcpyHostToDevice;
	TRY(cudaGraphAddNode(&node, g, &first, NULL, 1, &np));
	{
		cudaMemcpy3DParms cp;

		TRY(cudaGraphMemcpyNodeGetParams(node, &cp));
		printf("AddNode memcpy: kind %d width %zu\n", (int)cp.kind,
		       cp.extent.width);
	}
	np = {};
	np.type = cudaGraphNodeTypeHost;
	np.host.fn = count_up;
	np.host.userData = &x;
	TRY(cudaGraphAddNode(&node, g, &first, NULL, 1, &np));
	TRY(cudaGraphNodeGetType(node, &t));
	printf("AddNode host: type %d\n", (int)t);
	np = {};
	np.type = cudaGraphNodeTypeGraph;
	np.graph.graph = child;
	TRY(cudaGraphAddNode(&node, g, &first, NULL, 1, &np));
	TRY(cudaGraphChildGraphNodeGetGraph(node, &body));
	TRY(cudaGraphGetNodes(body, NULL, &n));
	printf("AddNode child graph: its nodes %zu, a clone: %d\n", n,
	       body != child);
	np = {};
	np.type = cudaGraphNodeTypeEventRecord;
	np.eventRecord.event = rec;
	TRY(cudaGraphAddNode(&node, g, &first, NULL, 1, &np));
	TRY(cudaGraphNodeGetType(node, &t));
	printf("AddNode event record: type %d\n", (int)t);
	np = {};
	np.type = cudaGraphNodeTypeWaitEvent;
	np.eventWait.event = rec;
	TRY(cudaGraphAddNode(&node, g, &first, NULL, 1, &np));
	TRY(cudaGraphNodeGetType(node, &t));
	printf("AddNode event wait: type %d\n", (int)t);

	TRY(cudaGraphConditionalHandleCreate(&h, g, 1, 0));
	np = {};
	np.type = cudaGraphNodeTypeConditional;
	np.conditional.handle = h;
	np.conditional.type = cudaGraphCondTypeIf;
	np.conditional.size = 1;
	e = cudaGraphAddNode(&node, g, &first, NULL, 1, &np);
	printf("AddNode conditional: %d\n", (int)e);
	// The body graphs come back in an array of the runtime's.
	if (e == cudaSuccess) {
		TRY(cudaGraphNodeGetType(node, &t));
		TRY(cudaGraphGetNodes(np.conditional.phGraph_out[0], NULL,
				      &n));
		printf("conditional: type %d, its body's nodes %zu\n", (int)t,
		       n);
	}
	np = {};
	np.type = cudaGraphNodeTypeMemAlloc;
	np.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
	np.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
	np.alloc.poolProps.location.id = 0;
	np.alloc.bytesize = 4096;
	e = cudaGraphAddNode(&node, g, &first, NULL, 1, &np);
	printf("AddNode memory allocation: %d, address given: %d\n", (int)e,
	       np.alloc.dptr != NULL);
	TRY(cudaGraphGetNodes(g, NULL, &n));
	printf("nodes added through cudaGraphAddNode: %zu\n", n);
	TRY(cudaGraphDestroy(g));
	cudaGetLastError();
}

// The answer printed: what NVIDIA's runtime gives is its own choice.
#define SHOW(what, call) printf("%s: %d\n", what, (int)(call))

static void bad_input(cudaGraph_t g, struct bufs *b, cudaEvent_t rec)
{
	cudaKernelNodeParams kp = {};
	cudaMemcpy3DParms cp = {};
	cudaMemsetParams mp = {};
	cudaHostNodeParams hp = {};
	cudaGraphNodeParams np = {};
	enum cudaGraphNodeType t;
	cudaGraphNode_t node, other_node;
	cudaGraphEdgeData ed = {};
	cudaGraphConditionalHandle h;
	cudaGraphExec_t exec;
	cudaGraphNode_t s_a, s_b, s_host, s_rec, s_wait;
	cudaMemAllocNodeParams ap;
	void *freed;
	cudaGraph_t other, out, scr;
	cudaEvent_t ev;
	size_t n;
	int x = 0;
	void *args[4] = { &b->d_c, &b->d_in, &x, &x };

	TRY(cudaGraphCreate(&other, 0));
	TRY(cudaGraphAddEmptyNode(&other_node, other, NULL, 0));
	// What bad input could change, or add to, is the scratch graph's.
	TRY(cudaGraphCreate(&scr, 0));
	TRY(cudaGraphAddEmptyNode(&s_a, scr, NULL, 0));
	TRY(cudaGraphAddEmptyNode(&s_b, scr, &s_a, 1));
	hp.fn = count_up;
	hp.userData = &x;
	TRY(cudaGraphAddHostNode(&s_host, scr, NULL, 0, &hp));
	hp.fn = NULL;
	TRY(cudaGraphAddEventRecordNode(&s_rec, scr, NULL, 0, rec));
	TRY(cudaGraphAddEventWaitNode(&s_wait, scr, NULL, 0, rec));

	EXPECT(cudaErrorInvalidValue, cudaGraphCreate(NULL, 0));
	SHOW("Create flags 1", cudaGraphCreate(&out, 1));
	EXPECT(cudaErrorInvalidValue, cudaGraphClone(NULL, g));
	SHOW("Clone NULL graph", cudaGraphClone(&out, NULL));
	SHOW("Destroy NULL graph", cudaGraphDestroy(NULL));
	EXPECT(cudaErrorInvalidValue, cudaGraphGetNodes(g, NULL, NULL));
	SHOW("GetNodes NULL graph", cudaGraphGetNodes(NULL, NULL, &n));
	EXPECT(cudaErrorInvalidValue, cudaGraphGetRootNodes(g, NULL, NULL));
	SHOW("GetRootNodes NULL graph", cudaGraphGetRootNodes(NULL, NULL, &n));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphGetEdges(g, NULL, NULL, NULL, NULL));
	SHOW("GetEdges NULL graph",
	     cudaGraphGetEdges(NULL, NULL, NULL, NULL, &n));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphNodeGetDependencies(nodes[K3], NULL, NULL, NULL));
	SHOW("GetDependencies NULL node",
	     cudaGraphNodeGetDependencies(NULL, NULL, NULL, &n));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphNodeGetDependentNodes(nodes[K3], NULL, NULL, NULL));
	SHOW("GetDependentNodes NULL node",
	     cudaGraphNodeGetDependentNodes(NULL, NULL, NULL, &n));
	EXPECT(cudaErrorInvalidValue, cudaGraphNodeGetType(nodes[K1], NULL));
	SHOW("NodeGetType NULL node", cudaGraphNodeGetType(NULL, &t));
	SHOW("DestroyNode NULL", cudaGraphDestroyNode(NULL));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphNodeFindInClone(NULL, nodes[K1], g));
	SHOW("FindInClone of a graph not a clone",
	     cudaGraphNodeFindInClone(&node, nodes[K1], other));
	SHOW("FindInClone NULL clone",
	     cudaGraphNodeFindInClone(&node, nodes[K1], NULL));
	SHOW("AddDependencies node of another graph",
	     cudaGraphAddDependencies(g, &other_node, &nodes[K1], NULL, 1));
	SHOW("AddDependencies NULL graph",
	     cudaGraphAddDependencies(NULL, &nodes[K1], &nodes[HOST], NULL,
				      1));
	SHOW("AddDependencies an edge there already",
	     cudaGraphAddDependencies(scr, &s_a, &s_b, NULL, 1));
	ed.type = 7;
	SHOW("AddDependencies bad edge type",
	     cudaGraphAddDependencies(scr, &s_host, &s_a, &ed, 1));
	SHOW("RemoveDependencies no such edge",
	     cudaGraphRemoveDependencies(scr, &s_host, &s_a, NULL, 1));
	SHOW("RemoveDependencies NULL graph",
	     cudaGraphRemoveDependencies(NULL, &s_a, &s_b, NULL, 1));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphConditionalHandleCreate(NULL, g, 0, 0));
	SHOW("ConditionalHandleCreate",
	     cudaGraphConditionalHandleCreate(&h, other, 1, 0));
	SHOW("ConditionalHandleCreate NULL graph",
	     cudaGraphConditionalHandleCreate(&h, NULL, 0, 0));

	// Adding nodes.
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphAddEmptyNode(NULL, scr, NULL, 0));
	SHOW("AddEmptyNode NULL graph",
	     cudaGraphAddEmptyNode(&node, NULL, NULL, 0));
	SHOW("AddEmptyNode dependency of another graph",
	     cudaGraphAddEmptyNode(&node, scr, &other_node, 1));
	SHOW("AddEmptyNode NULL dependencies",
	     cudaGraphAddEmptyNode(&node, scr, NULL, 1));
	kp.func = (void *)scale;
	kp.gridDim = dim3(1);
	kp.blockDim = dim3(32);
	kp.kernelParams = args;
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphAddKernelNode(NULL, scr, NULL, 0, &kp));
	SHOW("AddKernelNode NULL params",
	     cudaGraphAddKernelNode(&node, scr, NULL, 0, NULL));
	SHOW("AddKernelNode NULL graph",
	     cudaGraphAddKernelNode(&node, NULL, NULL, 0, &kp));
	kp.func = NULL;
	SHOW("AddKernelNode NULL func",
	     cudaGraphAddKernelNode(&node, scr, NULL, 0, &kp));
	kp.func = (void *)count_up;
	SHOW("AddKernelNode not a kernel",
	     cudaGraphAddKernelNode(&node, scr, NULL, 0, &kp));
	kp.func = (void *)scale;
	kp.blockDim = dim3(2048);
	SHOW("AddKernelNode block too big",
	     cudaGraphAddKernelNode(&node, scr, NULL, 0, &kp));
	kp.blockDim = dim3(32);
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphAddMemsetNode(&node, scr, NULL, 0, NULL));
	mp.dst = b->d_a;
	mp.value = 0;
	mp.elementSize = 3;
	mp.width = 4;
	mp.height = 1;
	SHOW("AddMemsetNode element size 3",
	     cudaGraphAddMemsetNode(&node, scr, NULL, 0, &mp));
	mp.elementSize = 4;
	SHOW("AddMemsetNode NULL graph",
	     cudaGraphAddMemsetNode(&node, NULL, NULL, 0, &mp));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphAddMemcpyNode(&node, scr, NULL, 0, NULL));
	cp.srcPtr = make_cudaPitchedPtr(b->h_in, 64, 64, 1);
	cp.dstPtr = make_cudaPitchedPtr(b->d_in, 64, 64, 1);
	cp.extent = make_cudaExtent(64, 1, 1);
	cp.kind = (cudaMemcpyKind)17;
	EXPECT(cudaErrorInvalidMemcpyDirection,
	       cudaGraphAddMemcpyNode(&node, scr, NULL, 0, &cp));
	cp.kind = cudaMemcpyHostToDevice;
	cp.extent = make_cudaExtent(0, 1, 1);
	SHOW("AddMemcpyNode empty extent",
	     cudaGraphAddMemcpyNode(&node, scr, NULL, 0, &cp));
	cp.extent = make_cudaExtent(64, 1, 1);
	SHOW("AddMemcpyNode NULL graph",
	     cudaGraphAddMemcpyNode(&node, NULL, NULL, 0, &cp));
	EXPECT(cudaErrorInvalidMemcpyDirection,
	       cudaGraphAddMemcpyNode1D(&node, scr, NULL, 0, b->d_in, b->h_in,
					64, (cudaMemcpyKind)17));
	SHOW("AddMemcpyNode1D NULL dst",
	     cudaGraphAddMemcpyNode1D(&node, scr, NULL, 0, NULL, b->h_in, 64,
				      cudaMemcpyHostToDevice));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphAddMemcpyNode1D(NULL, scr, NULL, 0, b->d_in, b->h_in,
					64, cudaMemcpyHostToDevice));
	SHOW("AddMemcpyNodeToSymbol not a symbol",
	     cudaGraphAddMemcpyNodeToSymbol(&node, scr, NULL, 0, &x, b->h_in,
					    4, 0, cudaMemcpyHostToDevice));
	SHOW("AddMemcpyNodeToSymbol past its end",
	     cudaGraphAddMemcpyNodeToSymbol(&node, scr, NULL, 0, dev_sym,
					    b->h_in, N * sizeof(int), 4,
					    cudaMemcpyHostToDevice));
	SHOW("AddMemcpyNodeToSymbol device-to-host kind",
	     cudaGraphAddMemcpyNodeToSymbol(&node, scr, NULL, 0, dev_sym,
					    b->h_in, 4, 0,
					    cudaMemcpyDeviceToHost));
	SHOW("AddMemcpyNodeFromSymbol bad kind",
	     cudaGraphAddMemcpyNodeFromSymbol(&node, scr, NULL, 0, b->h_out,
					      dev_sym, 4, 0,
					      (cudaMemcpyKind)17));
	SHOW("AddMemcpyNodeFromSymbol host-to-device kind",
	     cudaGraphAddMemcpyNodeFromSymbol(&node, scr, NULL, 0, b->h_out,
					      dev_sym, 4, 0,
					      cudaMemcpyHostToDevice));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphAddHostNode(&node, scr, NULL, 0, NULL));
	SHOW("AddHostNode NULL fn",
	     cudaGraphAddHostNode(&node, scr, NULL, 0, &hp));
	SHOW("AddChildGraphNode NULL child",
	     cudaGraphAddChildGraphNode(&node, scr, NULL, 0, NULL));
	SHOW("AddEventRecordNode NULL event",
	     cudaGraphAddEventRecordNode(&node, scr, NULL, 0, NULL));
	SHOW("AddEventWaitNode NULL event",
	     cudaGraphAddEventWaitNode(&node, scr, NULL, 0, NULL));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphAddEventRecordNode(NULL, scr, NULL, 0, rec));
	SHOW("AddNode NULL params",
	     cudaGraphAddNode(&node, scr, NULL, NULL, 0, NULL));
	np.type = (cudaGraphNodeType)99;
	SHOW("AddNode bad type",
	     cudaGraphAddNode(&node, scr, NULL, NULL, 0, &np));
	np.type = cudaGraphNodeTypeEmpty;
	np.reserved0[0] = 1;
	SHOW("AddNode reserved set",
	     cudaGraphAddNode(&node, scr, NULL, NULL, 0, &np));
	np.reserved0[0] = 0;
	np.type = cudaGraphNodeTypeMemcpy;
	np.memcpy.copyParams = cp;
	np.memcpy.copyParams.kind = (cudaMemcpyKind)17;
	SHOW("AddNode memcpy bad kind",
	     cudaGraphAddNode(&node, scr, NULL, NULL, 0, &np));
	TRY(cudaGraphGetNodes(scr, NULL, &n));
	printf("scratch graph's nodes after the bad adds: %zu\n", n);

	// Parameters of a node of another type, or of no node.
	SHOW("KernelNodeGetParams memset node",
	     cudaGraphKernelNodeGetParams(nodes[MEMSET], &kp));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphKernelNodeGetParams(nodes[K1], NULL));
	SHOW("KernelNodeGetParams NULL node",
	     cudaGraphKernelNodeGetParams(NULL, &kp));
	kp.func = (void *)scale;
	kp.blockDim = dim3(32);
	SHOW("KernelNodeSetParams host node",
	     cudaGraphKernelNodeSetParams(nodes[HOST], &kp));
	SHOW("KernelNodeSetParams NULL params",
	     cudaGraphKernelNodeSetParams(nodes[K1], NULL));
	SHOW("MemsetNodeGetParams kernel node",
	     cudaGraphMemsetNodeGetParams(nodes[K1], &mp));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphMemsetNodeGetParams(nodes[MEMSET], NULL));
	SHOW("MemsetNodeSetParams kernel node",
	     cudaGraphMemsetNodeSetParams(nodes[K1], &mp));
	SHOW("MemcpyNodeGetParams kernel node",
	     cudaGraphMemcpyNodeGetParams(nodes[K1], &cp));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphMemcpyNodeGetParams(nodes[H2D], NULL));
	SHOW("MemcpyNodeSetParams memset node",
	     cudaGraphMemcpyNodeSetParams(nodes[MEMSET], &cp));
	cp.kind = (cudaMemcpyKind)17;
	EXPECT(cudaErrorInvalidMemcpyDirection,
	       cudaGraphMemcpyNodeSetParams(nodes[H2D], &cp));
	cp.kind = cudaMemcpyHostToDevice;
	EXPECT(cudaErrorInvalidMemcpyDirection,
	       cudaGraphMemcpyNodeSetParams1D(nodes[D2H], b->h_out, b->d_res,
					      4, (cudaMemcpyKind)17));
	SHOW("MemcpyNodeSetParams1D kernel node",
	     cudaGraphMemcpyNodeSetParams1D(nodes[K1], b->h_out, b->d_res, 4,
					    cudaMemcpyDeviceToHost));
	SHOW("MemcpyNodeSetParamsToSymbol not a symbol",
	     cudaGraphMemcpyNodeSetParamsToSymbol(nodes[TOSYM], &x, b->d_out,
						  4, 0,
						  cudaMemcpyDeviceToDevice));
	SHOW("MemcpyNodeSetParamsFromSymbol kernel node",
	     cudaGraphMemcpyNodeSetParamsFromSymbol(nodes[K1], b->d_res,
						    dev_sym, 4, 0,
						    cudaMemcpyDeviceToDevice));
	SHOW("HostNodeGetParams kernel node",
	     cudaGraphHostNodeGetParams(nodes[K1], &hp));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphHostNodeGetParams(nodes[HOST], NULL));
	hp.fn = count_up;
	SHOW("HostNodeSetParams kernel node",
	     cudaGraphHostNodeSetParams(nodes[K1], &hp));
	SHOW("ChildGraphNodeGetGraph kernel node",
	     cudaGraphChildGraphNodeGetGraph(nodes[K1], &out));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphChildGraphNodeGetGraph(nodes[CHILD], NULL));
	SHOW("EventRecordNodeGetEvent wait node",
	     cudaGraphEventRecordNodeGetEvent(nodes[WAIT], &ev));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphEventRecordNodeGetEvent(nodes[RECORD], NULL));
	SHOW("EventRecordNodeSetEvent wait node",
	     cudaGraphEventRecordNodeSetEvent(nodes[WAIT], rec));
	SHOW("EventRecordNodeSetEvent NULL event",
	     cudaGraphEventRecordNodeSetEvent(s_rec, NULL));
	SHOW("EventWaitNodeSetEvent NULL event",
	     cudaGraphEventWaitNodeSetEvent(s_wait, NULL));
	SHOW("MemAllocNodeGetParams kernel node",
	     cudaGraphMemAllocNodeGetParams(nodes[K1], &ap));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphMemAllocNodeGetParams(nodes[K1], NULL));
	SHOW("MemFreeNodeGetParams kernel node",
	     cudaGraphMemFreeNodeGetParams(nodes[K1], &freed));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphMemFreeNodeGetParams(nodes[K1], NULL));
	SHOW("EventWaitNodeGetEvent record node",
	     cudaGraphEventWaitNodeGetEvent(nodes[RECORD], &ev));
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphEventWaitNodeGetEvent(nodes[WAIT], NULL));
	SHOW("EventWaitNodeSetEvent record node",
	     cudaGraphEventWaitNodeSetEvent(nodes[RECORD], rec));
	np = {};
	np.type = cudaGraphNodeTypeEmpty;
	SHOW("NodeSetParams empty node",
	     cudaGraphNodeSetParams(s_a, &np));
	np.type = cudaGraphNodeTypeHost;
	np.host.fn = count_up;
	np.host.userData = &x;
	SHOW("NodeSetParams host node",
	     cudaGraphNodeSetParams(s_host, &np));
	SHOW("NodeSetParams NULL params",
	     cudaGraphNodeSetParams(s_host, NULL));

	// An executable graph's nodes.
	TRY(cudaGraphInstantiate(&exec, g, 0));
	kp.func = (void *)scale;
	kp.gridDim = dim3(1);
	kp.blockDim = dim3(32);
	kp.kernelParams = args;
	SHOW("ExecKernelNodeSetParams memset node",
	     cudaGraphExecKernelNodeSetParams(exec, nodes[MEMSET], &kp));
	SHOW("ExecKernelNodeSetParams node of another graph",
	     cudaGraphExecKernelNodeSetParams(exec, other_node, &kp));
	SHOW("ExecKernelNodeSetParams NULL exec",
	     cudaGraphExecKernelNodeSetParams(NULL, nodes[K2], &kp));
	SHOW("ExecMemsetNodeSetParams kernel node",
	     cudaGraphExecMemsetNodeSetParams(exec, nodes[K1], &mp));
	SHOW("ExecMemcpyNodeSetParams kernel node",
	     cudaGraphExecMemcpyNodeSetParams(exec, nodes[K1], &cp));
	cp.kind = (cudaMemcpyKind)17;
	EXPECT(cudaErrorInvalidMemcpyDirection,
	       cudaGraphExecMemcpyNodeSetParams(exec, nodes[H2D], &cp));
	EXPECT(cudaErrorInvalidMemcpyDirection,
	       cudaGraphExecMemcpyNodeSetParams1D(exec, nodes[D2H], b->h_out,
						  b->d_res, 4,
						  (cudaMemcpyKind)17));
	SHOW("ExecMemcpyNodeSetParamsToSymbol not a symbol",
	     cudaGraphExecMemcpyNodeSetParamsToSymbol(exec, nodes[TOSYM], &x,
						      b->d_out, 4, 0,
						      cudaMemcpyDefault));
	SHOW("ExecMemcpyNodeSetParamsFromSymbol kernel node",
	     cudaGraphExecMemcpyNodeSetParamsFromSymbol(exec, nodes[K1],
							b->d_res, dev_sym, 4,
							0,
							cudaMemcpyDefault));
	SHOW("ExecHostNodeSetParams kernel node",
	     cudaGraphExecHostNodeSetParams(exec, nodes[K1], &hp));
	SHOW("ExecChildGraphNodeSetParams kernel node",
	     cudaGraphExecChildGraphNodeSetParams(exec, nodes[K1], other));
	SHOW("ExecEventRecordNodeSetEvent wait node",
	     cudaGraphExecEventRecordNodeSetEvent(exec, nodes[WAIT], rec));
	SHOW("ExecEventWaitNodeSetEvent record node",
	     cudaGraphExecEventWaitNodeSetEvent(exec, nodes[RECORD], rec));
	np = {};
	np.type = cudaGraphNodeTypeHost;
	np.host.fn = count_up;
	np.host.userData = &x;
	SHOW("ExecNodeSetParams host node",
	     cudaGraphExecNodeSetParams(exec, nodes[HOST], &np));
	SHOW("ExecNodeSetParams NULL params",
	     cudaGraphExecNodeSetParams(exec, nodes[HOST], NULL));
	TRY(cudaGraphExecDestroy(exec));
	TRY(cudaGraphDestroy(other));
	TRY(cudaGraphDestroy(scr));
	cudaGetLastError();
}

static int destroyed;

static void CUDART_CB destroy_one(void *p)
{
	(void)p;
	__atomic_add_fetch(&destroyed, 1, __ATOMIC_RELAXED);
}

// Waits up to a second for the destructors to have run @want times.
static int destroyed_after(int want)
{
	for (int i = 0; i < 1000 && __atomic_load_n(&destroyed, __ATOMIC_RELAXED) < want; i++)
		usleep(1000);
	return __atomic_load_n(&destroyed, __ATOMIC_RELAXED);
}

// Graph memory made directly, kernel node attributes, user objects and
// the dot file, through the runtime.
static void extras(struct bufs *b)
{
	cudaMemAllocNodeParams ap = {};
	cudaGraph_t g;
	cudaGraphNode_t alloc, k, fr;
	cudaGraphExec_t exec;
	cudaStream_t s;
	cudaKernelNodeAttrValue v;
	cudaUserObject_t obj;
	int *mem, n = N;
	char line[64];
	FILE *f;

	TRY(cudaStreamCreate(&s));
	TRY(cudaMemcpy(b->d_in, b->h_in, N * sizeof(int), cudaMemcpyHostToDevice));
	TRY(cudaGraphCreate(&g, 0));
	ap.poolProps.allocType = cudaMemAllocationTypePinned;
	ap.poolProps.location.type = cudaMemLocationTypeDevice;
	ap.poolProps.location.id = 0;
	ap.bytesize = N * sizeof(int);
	TRY(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
	printf("extras: alloc node address set %d\n", ap.dptr != NULL);
	mem = (int *)ap.dptr;
	{
		int m = 3;
		void *sargs[] = { &mem, &b->d_in, &m, &n };
		cudaKernelNodeParams kp = {};

		kp.func = (void *)scale;
		kp.gridDim = dim3((N + 127) / 128);
		kp.blockDim = dim3(128);
		kp.kernelParams = sargs;
		TRY(cudaGraphAddKernelNode(&k, g, &alloc, 1, &kp));
	}
	{
		cudaMemcpy3DParms cp = {};
		cudaGraphNode_t cpn;

		cp.srcPtr = make_cudaPitchedPtr(mem, N * sizeof(int), N, 1);
		cp.dstPtr = make_cudaPitchedPtr(b->h_out, N * sizeof(int), N, 1);
		cp.extent = make_cudaExtent(N * sizeof(int), 1, 1);
		cp.kind = cudaMemcpyDeviceToHost;
		TRY(cudaGraphAddMemcpyNode(&cpn, g, &k, 1, &cp));
		TRY(cudaGraphAddMemFreeNode(&fr, g, &cpn, 1, mem));
	}
	EXPECT(cudaErrorInvalidValue, cudaGraphAddMemFreeNode(&fr, g, NULL, 0, NULL));
	v = {};
	v.priority = -1;
	EXPECT(cudaSuccess, cudaGraphKernelNodeSetAttribute(k, cudaLaunchAttributePriority, &v));
	v = {};
	EXPECT(cudaSuccess, cudaGraphKernelNodeGetAttribute(k, cudaLaunchAttributePriority, &v));
	printf("extras: priority read back %d\n", v.priority);
	EXPECT(cudaErrorInvalidValue,
	       cudaGraphKernelNodeGetAttribute(alloc, cudaLaunchAttributePriority, &v));
	EXPECT(cudaErrorInvalidValue, cudaGraphKernelNodeCopyAttributes(k, alloc));
	destroyed = 0;
	TRY(cudaUserObjectCreate(&obj, NULL, destroy_one, 1, cudaUserObjectNoDestructorSync));
	EXPECT(cudaErrorInvalidValue,
	       cudaUserObjectCreate(&obj, NULL, destroy_one, 1, 0));
	TRY(cudaGraphRetainUserObject(g, obj, 1, cudaGraphUserObjectMove));
	TRY(cudaGraphInstantiate(&exec, g, 0));
	TRY(cudaGraphLaunch(exec, s));
	TRY(cudaStreamSynchronize(s));
	printf("extras: graph memory scaled: %s\n",
	       check(b->h_out, 3, 0) < 0 ? "right" : "wrong");
	EXPECT(cudaSuccess, cudaGraphDebugDotPrint(g, "/tmp/rt_graph_extras.dot", 0));
	f = fopen("/tmp/rt_graph_extras.dot", "r");
	printf("extras: dot first line %s", f && fgets(line, sizeof(line), f) ? line : "none\n");
	if (f)
		fclose(f);
	remove("/tmp/rt_graph_extras.dot");
	EXPECT(cudaErrorOperatingSystem,
	       cudaGraphDebugDotPrint(g, "/nonexistent/rt_graph.dot", 0));
	TRY(cudaGraphDestroy(g));
	printf("extras: destroyed with the graph while its exec lives %d\n",
	       __atomic_load_n(&destroyed, __ATOMIC_RELAXED));
	TRY(cudaGraphExecDestroy(exec));
	printf("extras: destroyed once the exec is %d\n", destroyed_after(1));
	TRY(cudaStreamDestroy(s));
}

int main(void)
{
	struct bufs b;
	cudaEvent_t rec, wait, other;
	cudaGraph_t g, child;
	int counter = 0;

	rt_check_library();
	TRY(cudaMallocHost((void **)&b.h_in, N * sizeof(int)));
	TRY(cudaMallocHost((void **)&b.h_in2, N * sizeof(int)));
	TRY(cudaMallocHost((void **)&b.h_out, N * sizeof(int)));
	TRY(cudaMallocHost((void **)&b.h_out2, N * sizeof(int)));
	for (int i = 0; i < N; i++) {
		b.h_in[i] = i;
		b.h_in2[i] = 2 * i;
	}
	TRY(cudaMalloc((void **)&b.d_in, N * sizeof(int)));
	TRY(cudaMalloc((void **)&b.d_a, N * sizeof(int)));
	TRY(cudaMalloc((void **)&b.d_b, N * sizeof(int)));
	TRY(cudaMalloc((void **)&b.d_c, N * sizeof(int)));
	TRY(cudaMalloc((void **)&b.d_out, N * sizeof(int)));
	TRY(cudaMalloc((void **)&b.d_res, N * sizeof(int)));
	TRY(cudaEventCreateWithFlags(&rec, cudaEventDisableTiming));
	TRY(cudaEventCreateWithFlags(&wait, cudaEventDisableTiming));
	TRY(cudaEventCreateWithFlags(&other, cudaEventDisableTiming));

	child = make_child();
	g = build(&b, rec, wait, &counter, child);
	// The node holds a clone: the graph given is the caller's still.
	generic(&b, rec, child);
	TRY(cudaGraphDestroy(child));
	queries(g);
	params(g, &b, rec, wait, other, &counter);
	clone(g);
	launches(g, &b, rec, wait, other, &counter);
	bad_input(g, &b, rec);
	extras(&b);
	printf("node names resolve: %s %s\n", name_of(nodes[K1]),
	       name_of(nodes[HOST]));
	TRY(cudaGraphDestroy(g));
	TRY(cudaEventDestroy(rec));
	TRY(cudaEventDestroy(wait));
	TRY(cudaEventDestroy(other));
	return rt_result();
}
