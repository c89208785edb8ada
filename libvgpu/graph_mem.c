// SPDX-License-Identifier: MIT
/*
 * Memory allocation and free nodes, as stream capture makes them of
 * cuMemAllocAsync and cuMemFreeAsync (graph.h). The allocation is made
 * when the node is, so its address is fixed for every launch (as CUDA's
 * graph memory is); the graph owns it, shared by reference with the
 * graph's clones and executable copies, and gives it back when the last
 * of them goes. Launching either node does nothing more.
 *
 * The memory is freed with vg_lock, which must not be taken under
 * vg_graph_lock's holders that already hold it: a record whose last
 * reference goes is put aside under vg_graph_lock and freed by
 * vg_graph_mem_reap() at the end of the entry points that drop nodes,
 * with no lock held.
 */
#include <stdlib.h>
#include <string.h>

#include "graph.h"

struct vg_graph_mem {
	unsigned int refs;
	CUdeviceptr dptr;
	size_t bytes;
	struct CUctx_st *ctx;
	uint64_t serial;	/* ctx's open when allocated */
	int dev;
	struct vg_graph_mem *next;	/* vg_mem_dead */
};

static struct vg_graph_mem *vg_mem_dead;	/* vg_graph_lock */

/* @bytes of the current context's memory, for a new node; no lock held. */
CUresult vg_graph_mem_new(size_t bytes, struct vg_graph_mem **out)
{
	struct vg_graph_mem *m;
	CUresult r;

	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	m = calloc(1, sizeof(*m));
	if (!m)
		return CUDA_ERROR_OUT_OF_MEMORY;
	pthread_mutex_lock(&vg_lock);
	r = vg_current_open(&m->ctx);
	if (!r)
		r = vg_mem_alloc_in(m->ctx, &m->dptr, bytes);
	if (!r) {
		m->serial = m->ctx->serial;
		m->dev = m->ctx->dev;
	}
	pthread_mutex_unlock(&vg_lock);
	if (r) {
		free(m);
		return r;
	}
	m->refs = 1;
	m->bytes = bytes;
	*out = m;
	return CUDA_SUCCESS;
}

void vg_graph_mem_get(struct vg_graph_mem *m)
{
	m->refs++;
}

/* With vg_graph_lock held. */
void vg_graph_mem_put(struct vg_graph_mem *m)
{
	if (--m->refs)
		return;
	m->next = vg_mem_dead;
	vg_mem_dead = m;
}

CUdeviceptr vg_graph_mem_ptr(const struct vg_graph_mem *m)
{
	return m->dptr;
}

/* Frees what the last references left; no lock held. */
void vg_graph_mem_reap(void)
{
	struct vg_graph_mem *m, *next;

	pthread_mutex_lock(&vg_graph_lock);
	m = vg_mem_dead;
	vg_mem_dead = NULL;
	pthread_mutex_unlock(&vg_graph_lock);
	for (; m; m = next) {
		next = m->next;
		pthread_mutex_lock(&vg_lock);
		/* A context gone (or opened anew) took its memory with it. */
		if (vg_ctx_alive(m->ctx) && m->ctx->fd >= 0 && m->ctx->serial == m->serial)
			vg_mem_free_in(m->ctx, m->dptr);
		else
			pthread_mutex_unlock(&vg_lock);
		free(m);
	}
	/* The same callers drop graphs' user objects. */
	vg_user_reap();
}

/*
 * An allocation node made directly: memory of the current context's
 * device, pinned, in no pool of the application's, as capture makes it.
 */
CUresult cuGraphAddMemAllocNode(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
				size_t ndeps, CUDA_MEM_ALLOC_NODE_PARAMS *p)
{
	const CUmemPoolProps *pp;
	struct CUgraphNode_st *n;
	struct vg_graph_mem *m;
	CUdevice dev;
	int count;
	CUresult r;

	if (!out || !p || (ndeps && !deps) || (p->accessDescCount && !p->accessDescs))
		return CUDA_ERROR_INVALID_VALUE;
	pp = &p->poolProps;
	if (pp->allocType != CU_MEM_ALLOCATION_TYPE_PINNED ||
	    pp->handleTypes != CU_MEM_HANDLE_TYPE_NONE)
		return CUDA_ERROR_INVALID_VALUE;
	/* Host memory as graph memory: NVIDIA's answer too. */
	if (pp->location.type != CU_MEM_LOCATION_TYPE_DEVICE)
		return CUDA_ERROR_NOT_SUPPORTED;
	r = cuCtxGetDevice(&dev);
	if (!r)
		r = cuDeviceGetCount(&count);
	if (r)
		return r;
	if (pp->location.id < 0 || pp->location.id >= count)
		return CUDA_ERROR_INVALID_VALUE;
	/* Another device's memory would need its context. */
	if (pp->location.id != dev)
		return CUDA_ERROR_NOT_SUPPORTED;
	n = vg_node_alloc(CU_GRAPH_NODE_TYPE_MEM_ALLOC);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	r = vg_graph_mem_new(p->bytesize, &m);
	if (r) {
		vg_node_free(n);
		return r;
	}
	n->p.mem = m;
	pthread_mutex_lock(&vg_graph_lock);
	r = vg_node_add_to(out, h, deps, NULL, ndeps, n);
	pthread_mutex_unlock(&vg_graph_lock);
	if (r)
		vg_graph_mem_reap();
	else
		p->dptr = vg_graph_mem_ptr(m);
	return r;
}

/* A free node: where the use of a graph allocation ends. */
CUresult cuGraphAddMemFreeNode(CUgraphNode *out, CUgraph h, const CUgraphNode *deps,
			       size_t ndeps, CUdeviceptr dptr)
{
	struct CUgraphNode_st *n;
	CUresult r;

	if (!out || !dptr || (ndeps && !deps))
		return CUDA_ERROR_INVALID_VALUE;
	n = vg_node_alloc(CU_GRAPH_NODE_TYPE_MEM_FREE);
	if (!n)
		return CUDA_ERROR_OUT_OF_MEMORY;
	n->p.freed = dptr;
	pthread_mutex_lock(&vg_graph_lock);
	r = vg_node_add_to(out, h, deps, NULL, ndeps, n);
	pthread_mutex_unlock(&vg_graph_lock);
	return r;
}

CUresult cuGraphMemAllocNodeGetParams(CUgraphNode h, CUDA_MEM_ALLOC_NODE_PARAMS *p)
{
	struct CUgraphNode_st *n;

	if (!p)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_node_get(h);
	if (n && n->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC) {
		memset(p, 0, sizeof(*p));
		p->poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
		p->poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
		p->poolProps.location.id = n->p.mem->dev;
		p->bytesize = n->p.mem->bytes;
		p->dptr = n->p.mem->dptr;
	} else {
		n = NULL;
	}
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

CUresult cuGraphMemFreeNodeGetParams(CUgraphNode h, CUdeviceptr *dptr)
{
	struct CUgraphNode_st *n;

	if (!dptr)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_graph_lock);
	n = vg_node_get(h);
	if (n && n->type == CU_GRAPH_NODE_TYPE_MEM_FREE)
		*dptr = n->p.freed;
	else
		n = NULL;
	pthread_mutex_unlock(&vg_graph_lock);
	return n ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}
