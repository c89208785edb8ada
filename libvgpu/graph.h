/* SPDX-License-Identifier: MIT */
/*
 * CUDA graphs as libvgpu holds them (graph.c, graph_node.c): a graph owns
 * its nodes in the order they were added; each node knows the nodes it
 * depends on (with each edge's data) and the nodes that depend on it.
 * Every live graph and node is in one set of handles, so that a handle
 * the application passes is checked before it is followed. All of it is
 * under vg_graph_lock: CUDA lets any thread build a graph, though not two
 * at once on one graph.
 */
#ifndef VG_GRAPH_H
#define VG_GRAPH_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vg.h"

#define VG_GRAPH_MAGIC 0x67726170u	/* "grap" */
#define VG_NODE_MAGIC 0x6e6f6465u	/* "node" */

extern pthread_mutex_t vg_graph_lock;

/* An edge into a node: where it comes from and its data. */
struct vg_edge {
	struct CUgraphNode_st *from;
	CUgraphEdgeData data;
};

/* A kernel node's launch, its parameters copied when set. */
struct vg_kernel_node {
	struct CUfunc_st *func;
	unsigned int grid[3], block[3], shared;
	unsigned char *args;	/* the parameter block */
	size_t nbytes;		/* its size, the kernel's param_bytes */
	void **argv;		/* for GetParams: each parameter in @args */
	uint32_t nargs;
	/* cuGraphKernelNodeSetAttribute's (graph_attr.c): NULL, none set */
	CUlaunchAttributeValue *attrs;	/* VG_NODE_ATTRS, by id */
	uint32_t attrs_set;		/* a bit per id set */
};

#define VG_NODE_ATTRS (CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING + 1)

/*
 * A conditional node's handle (graph_cond.c): the device word holding its
 * value, in @ctx; shared by the graph it was made on and that graph's
 * clones (@refs).
 */
struct vg_cond {
	unsigned int refs;
	CUdeviceptr word;	/* the handle's value */
	CUcontext ctx;
	unsigned int dflt;	/* set at each launch if @assign_default */
	bool assign_default;
	bool used;		/* a node has it: one node per handle */
};

/* A batch memory operation node: its own copy of the operations. */
struct vg_memop_node {
	CUcontext ctx;
	unsigned int count, flags;
	CUstreamBatchMemOpParams *ops;
};

/*
 * An external semaphore signal or wait node: its own copy of the
 * semaphores and their parameters (signal or wait ones by the node's
 * type); neither array is NULL.
 */
struct vg_sem_node {
	CUexternalSemaphore *sems;
	void *params;
	unsigned int count;
};

/* A conditional node: its handle, kind and body graphs (owned). */
struct vg_cond_node {
	struct vg_cond *c;
	CUgraphConditionalNodeType type;
	unsigned int size;
	struct CUgraph_st **body;	/* size graphs */
	bool holds;		/* the node @c was given to, not a clone */
};

struct CUgraphNode_st {
	uint32_t magic;		/* VG_NODE_MAGIC */
	CUgraphNodeType type;
	struct CUgraph_st *graph;
	struct CUgraphNode_st *origin;	/* what it was cloned from, or NULL */
	/* In an executable graph: the node of the graph it was last updated from. */
	struct CUgraphNode_st *updated;
	struct vg_edge *in;		/* its dependencies */
	size_t nin, in_cap;
	struct CUgraphNode_st **out;	/* its dependents, in the order added */
	size_t nout, out_cap;
	union {
		struct vg_kernel_node kernel;
		CUDA_MEMSET_NODE_PARAMS memset;
		CUDA_MEMCPY3D memcpy;
		CUDA_HOST_NODE_PARAMS host;
		struct CUgraph_st *child;	/* owned */
		CUevent event;
		struct vg_graph_mem *mem;	/* MEM_ALLOC: shared (graph_mem.c) */
		CUdeviceptr freed;		/* MEM_FREE */
		struct vg_cond_node cond;
		struct vg_memop_node memop;
		struct vg_sem_node sems;	/* EXT_SEMAS_SIGNAL and _WAIT */
	} p;
	CUcontext ctx;		/* memset and memcpy nodes' context */
	size_t mark;		/* scratch of a walk over the graph */
	bool disabled;		/* in an executable graph: skipped */
};

/* References a graph holds of a user object (graph_user.c). */
struct vg_uref {
	struct CUuserObject_st *obj;
	unsigned int count;
};

struct CUgraph_st {
	uint32_t magic;		/* VG_GRAPH_MAGIC */
	unsigned int id;	/* unique in the process (cuGraphDebugDotPrint) */
	struct CUgraphNode_st **nodes;	/* in the order added */
	size_t nnodes, cap;
	struct CUgraphNode_st *owner;	/* a child graph's node, or NULL */
	struct CUgraph_st *origin;	/* what it was cloned from, or NULL */
	struct CUgraph_st *updated;	/* an executable's: last updated from, or NULL */
	struct vg_cond **conds;	/* conditional handles made on it */
	size_t nconds;
	struct vg_uref *urefs;	/* user objects it holds */
	size_t nurefs;
};

/* graph.c, with vg_graph_lock held. */
struct CUgraph_st *vg_graph_get(CUgraph g);
struct CUgraphNode_st *vg_node_get(CUgraphNode n);
struct CUgraph_st *vg_graph_new(void);
void vg_graph_id_skip(void);
void vg_graph_free(struct CUgraph_st *g);
CUresult vg_node_add(struct CUgraph_st *g, struct CUgraphNode_st *n,
		     const CUgraphNode *deps, const CUgraphEdgeData *edata,
		     size_t ndeps);
struct CUgraphNode_st *vg_node_alloc(CUgraphNodeType type);
void vg_node_free(struct CUgraphNode_st *n);
void vg_node_destroy(struct CUgraphNode_st *n);
struct CUgraph_st *vg_graph_clone(const struct CUgraph_st *g);
CUresult vg_edge_add(struct CUgraphNode_st *from, struct CUgraphNode_st *to,
		     const CUgraphEdgeData *data);
void vg_edge_del(struct CUgraphNode_st *from, struct CUgraphNode_st *to);
bool vg_edge_data_ok(const CUgraphEdgeData *d);

/* graph_attr.c: a kernel node's attributes into the launch @l. */
struct vg_launch;
void vg_kernel_node_attrs(const struct vg_kernel_node *kn, struct vg_launch *l);
CUresult vg_kernel_node_cooperative(struct vg_kernel_node *kn);
CUresult vg_kernel_attrs_copy(struct vg_kernel_node *to, const struct vg_kernel_node *from);

/*
 * graph_user.c: user objects. vg_user_drop() puts @g's references aside
 * (with vg_graph_lock), to be released by vg_user_reap() (without) once
 * @after (taken; or NULL) has completed; vg_user_copy() gives @to @from's.
 */
void vg_user_drop(struct CUgraph_st *g, CUevent after);
void vg_user_reap(void);
CUresult vg_user_copy(struct CUgraph_st *to, const struct CUgraph_st *from);

/* graph_exec.c: the private graph of a live executable graph, or NULL. */
struct CUgraph_st *vg_exec_graph(CUgraphExec h);
/* Its node for @node (of the graph it was made from) if of @type, or NULL. */
struct CUgraphNode_st *vg_exec_typed(CUgraphExec h, CUgraphNode node, CUgraphNodeType type);

/*
 * graph_node.c, with vg_graph_lock: new node @n (taken) into graph @h
 * after @deps, *@out on success.
 */
CUresult vg_node_add_to(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
			const CUgraphEdgeData *edata, size_t ndeps, struct CUgraphNode_st *n);

/* graph_memop.c: @m takes a checked copy of @p (its old operations freed). */
CUresult vg_memop_node_set(struct vg_memop_node *m, const CUDA_BATCH_MEM_OP_NODE_PARAMS *p);
CUresult vg_memop_node_copy(struct vg_memop_node *to, const struct vg_memop_node *from);

/*
 * graph_extsem.c: @m takes a checked copy of @n semaphores and their
 * signal (@signal) or wait parameters (its old ones freed); a new node of
 * them; a node's signals or waits queued on @s.
 */
CUresult vg_sem_node_set(struct vg_sem_node *m, const CUexternalSemaphore *sems,
			 const void *params, unsigned int n, bool signal);
CUresult vg_sem_node_new(const CUexternalSemaphore *sems, const void *params,
			 unsigned int count, bool signal, struct CUgraphNode_st **out);
CUresult vg_sem_node_copy(struct vg_sem_node *to, const struct vg_sem_node *from, bool signal);
void vg_sem_node_free(struct vg_sem_node *m);
CUresult vg_sem_node_run(const struct CUgraphNode_st *n, CUstream s);

/* graph_add.c: a node's parameters of CUgraphNodeParams in a type's form. */
void vg_kernel_params_of(const CUgraphNodeParams *p, CUDA_KERNEL_NODE_PARAMS *kp);
void vg_memset_params_of(const CUgraphNodeParams *p, CUDA_MEMSET_NODE_PARAMS *mp);

/* graph_node.c: each node type's parameters. */
bool vg_memset_params_ok(const CUDA_MEMSET_NODE_PARAMS *p);
/* graph_mem.c: memory nodes' allocations (vg_graph_lock where it says). */
struct vg_graph_mem;
CUresult vg_graph_mem_new(size_t bytes, struct vg_graph_mem **out);
void vg_graph_mem_get(struct vg_graph_mem *m);
void vg_graph_mem_put(struct vg_graph_mem *m);
CUdeviceptr vg_graph_mem_ptr(const struct vg_graph_mem *m);
void vg_graph_mem_reap(void);
void vg_graph_mem_launched(struct CUgraph_st *g, bool ran);
bool vg_graph_mem_free(CUdeviceptr dptr);

/* graph_memcpy.c */
bool vg_memcpy_params_ok(const CUDA_MEMCPY3D *p);
CUresult vg_kernel_node_set(struct vg_kernel_node *kn, const CUDA_KERNEL_NODE_PARAMS *p);
void vg_kernel_node_clear(struct vg_kernel_node *kn);
CUresult vg_kernel_node_copy(struct vg_kernel_node *to, const struct vg_kernel_node *from);
CUresult vg_node_params_copy(struct CUgraphNode_st *to, const struct CUgraphNode_st *from);
void vg_node_params_free(struct CUgraphNode_st *n);

/* graph_cond.c: conditional handles and nodes, vg_graph_lock held. */
bool vg_conds_share(struct CUgraph_st *to, const struct CUgraph_st *from);
void vg_conds_drop(struct CUgraph_st *g);
CUresult vg_cond_add(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
		     const CUgraphEdgeData *edata, size_t ndeps,
		     CUDA_CONDITIONAL_NODE_PARAMS *p);
CUresult vg_cond_copy(struct CUgraphNode_st *to, const struct CUgraphNode_st *from);
void vg_cond_free(struct CUgraphNode_st *n);
CUresult vg_cond_check(const struct CUgraph_st *g, const struct CUgraphNode_st *n);
CUresult vg_cond_reset(const struct CUgraph_st *g, CUstream s);
CUresult vg_cond_run(struct CUgraphNode_st *n, CUstream s,
		     CUresult (*run)(struct CUgraph_st *g, CUstream s));

#endif /* VG_GRAPH_H */
