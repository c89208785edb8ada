// SPDX-License-Identifier: MIT
/*
 * Memory allocation and free nodes, as stream capture makes them of
 * cuMemAllocAsync and cuMemFreeAsync (graph.h). The allocation is made
 * when the node is, so its address is fixed for every launch (as CUDA's
 * graph memory is); the graph owns it, shared by reference with the
 * graph's clones and executable copies, and gives it back when the last
 * of them goes. Launching either node does nothing more.
 *
 * What the device reports of graph memory (cuDeviceGetGraphMemAttribute)
 * follows NVIDIA's driver, probed on an H200: an allocation counts from
 * the first upload or launch of an executable graph that makes it, as
 * its own chunks of 32 MiB, and stops counting only when the device's
 * graph memory is trimmed after it was freed (by a free node,
 * cuMemFreeAsync or cuMemFree) or its graphs went; used and reserved
 * memory are the same here.
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
	bool backed;		/* counted in its device's graph memory */
	bool freed;		/* freed since it was counted: trim drops it */
	CUdeviceptr dptr;
	size_t bytes;
	struct CUctx_st *ctx;
	uint64_t serial;	/* ctx's open when allocated */
	int dev;
	struct vg_graph_mem *next;	/* vg_mem_dead */
	struct vg_graph_mem *live;	/* vg_mems */
};

static struct vg_graph_mem *vg_mem_dead;	/* vg_graph_lock */
/*
 * Every allocation with references, their @backed and @freed, and each
 * device's count, under vg_gmem_lock: a lock of its own, taken last
 * (cuMemFree asks here, and the graph code frees memory it keeps, a
 * conditional node's word, holding vg_graph_lock).
 */
static pthread_mutex_t vg_gmem_lock = PTHREAD_MUTEX_INITIALIZER;
static struct vg_graph_mem *vg_mems;
static struct {
	uint64_t used, used_high, reserved_high;
	uint64_t orphaned;	/* of allocations gone, until a trim */
} vg_gmem[VG_MAX_DEVICES];

#define VG_GRAPH_CHUNK (32ULL << 20)

static uint64_t vg_graph_chunks(const struct vg_graph_mem *m)
{
	return (m->bytes + VG_GRAPH_CHUNK - 1) / VG_GRAPH_CHUNK * VG_GRAPH_CHUNK;
}

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
	pthread_mutex_lock(&vg_gmem_lock);
	m->live = vg_mems;
	vg_mems = m;
	pthread_mutex_unlock(&vg_gmem_lock);
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
	struct vg_graph_mem **pp;

	if (--m->refs)
		return;
	pthread_mutex_lock(&vg_gmem_lock);
	for (pp = &vg_mems; *pp != m; pp = &(*pp)->live)
		;
	*pp = m->live;
	/* Its chunks stay the device's until a trim, as NVIDIA's do. */
	if (m->backed)
		vg_gmem[m->dev].orphaned += vg_graph_chunks(m);
	pthread_mutex_unlock(&vg_gmem_lock);
	m->next = vg_mem_dead;
	vg_mem_dead = m;
}

/* The allocation at @dptr, or NULL; vg_gmem_lock held. */
static struct vg_graph_mem *vg_graph_mem_at(CUdeviceptr dptr)
{
	struct vg_graph_mem *m;

	for (m = vg_mems; m && m->dptr != dptr; m = m->live)
		;
	return m;
}

/*
 * An upload (@ran false) or launch of an executable graph whose graph is
 * @g: its allocations count from now (again, if a trim dropped them);
 * launched, they are in use until its free nodes free them, which the
 * next trim may then drop. vg_graph_lock held.
 */
void vg_graph_mem_launched(struct CUgraph_st *g, bool ran)
{
	struct vg_graph_mem *m;
	size_t i;

	pthread_mutex_lock(&vg_gmem_lock);
	for (i = 0; i < g->nnodes; i++) {
		if (g->nodes[i]->type != CU_GRAPH_NODE_TYPE_MEM_ALLOC)
			continue;
		m = g->nodes[i]->p.mem;
		if (ran || !m->backed)
			m->freed = false;
		if (m->backed)
			continue;
		m->backed = true;
		vg_gmem[m->dev].used += vg_graph_chunks(m);
		if (vg_gmem[m->dev].used > vg_gmem[m->dev].used_high)
			vg_gmem[m->dev].used_high = vg_gmem[m->dev].used;
		if (vg_gmem[m->dev].used > vg_gmem[m->dev].reserved_high)
			vg_gmem[m->dev].reserved_high = vg_gmem[m->dev].used;
	}
	for (i = 0; ran && i < g->nnodes; i++) {
		if (g->nodes[i]->type != CU_GRAPH_NODE_TYPE_MEM_FREE)
			continue;
		m = vg_graph_mem_at(g->nodes[i]->p.freed);
		if (m)
			m->freed = true;
	}
	pthread_mutex_unlock(&vg_gmem_lock);
}

/*
 * cuMemFree or cuMemFreeAsync of graph memory: it stays the graph's
 * (every launch of the graph has the same address), freed as far as
 * trimming goes. Return: whether @dptr is graph memory.
 */
bool vg_graph_mem_free(CUdeviceptr dptr)
{
	struct vg_graph_mem *m;

	pthread_mutex_lock(&vg_gmem_lock);
	m = vg_graph_mem_at(dptr);
	if (m)
		m->freed = true;
	pthread_mutex_unlock(&vg_gmem_lock);
	return m != NULL;
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

/* --- the device's graph memory -------------------------------------------- */

CUresult cuDeviceGetGraphMemAttribute(CUdevice dev, CUgraphMem_attribute attr, void *value)
{
	CUresult r = vg_check_init();
	cuuint64_t v;

	if (!r)
		r = vg_check_device(dev);
	if (r)
		return r;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_gmem_lock);
	switch (attr) {
	case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT:
	case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT:
		v = vg_gmem[dev].used;
		break;
	case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH:
		v = vg_gmem[dev].used_high;
		break;
	case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH:
		v = vg_gmem[dev].reserved_high;
		break;
	default:
		r = CUDA_ERROR_INVALID_VALUE;
	}
	pthread_mutex_unlock(&vg_gmem_lock);
	if (!r)
		memcpy(value, &v, sizeof(v));
	return r;
}

/* Only the high-water marks can be set, and only to 0: to what is used now. */
CUresult cuDeviceSetGraphMemAttribute(CUdevice dev, CUgraphMem_attribute attr, void *value)
{
	CUresult r = vg_check_init();
	cuuint64_t v;

	if (!r)
		r = vg_check_device(dev);
	if (r)
		return r;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	memcpy(&v, value, sizeof(v));
	if (v || (attr != CU_GRAPH_MEM_ATTR_USED_MEM_HIGH &&
		  attr != CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_gmem_lock);
	if (attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH)
		vg_gmem[dev].used_high = vg_gmem[dev].used;
	else
		vg_gmem[dev].reserved_high = vg_gmem[dev].used;
	pthread_mutex_unlock(&vg_gmem_lock);
	return CUDA_SUCCESS;
}

/* What no allocation in use holds goes: freed ones, and those of graphs gone. */
CUresult cuDeviceGraphMemTrim(CUdevice dev)
{
	CUresult r = vg_check_init();
	struct vg_graph_mem *m;

	if (!r)
		r = vg_check_device(dev);
	if (r)
		return r;
	pthread_mutex_lock(&vg_gmem_lock);
	for (m = vg_mems; m; m = m->live) {
		if (m->dev != dev || !m->backed || !m->freed)
			continue;
		m->backed = false;
		vg_gmem[dev].used -= vg_graph_chunks(m);
	}
	vg_gmem[dev].used -= vg_gmem[dev].orphaned;
	vg_gmem[dev].orphaned = 0;
	pthread_mutex_unlock(&vg_gmem_lock);
	return CUDA_SUCCESS;
}
