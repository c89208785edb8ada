// SPDX-License-Identifier: MIT
/*
 * Memcpy nodes: the runtime's copies carry a cudaMemcpyKind, the driver's
 * node the memory type of each side. A kind becomes the types it names
 * (unified addressing for cudaMemcpyDefault), and a node's types give
 * the kind back, so that a node's parameters read back as they were set.
 */
#include <string.h>

#include "rt.h"

/* The memory types of a copy's linear sides for @kind. */
static cudaError_t rt_kind_types(enum cudaMemcpyKind kind, CUmemorytype *src,
				 CUmemorytype *dst)
{
	switch (kind) {
	case cudaMemcpyHostToHost:
		*src = CU_MEMORYTYPE_HOST;
		*dst = CU_MEMORYTYPE_HOST;
		return cudaSuccess;
	case cudaMemcpyHostToDevice:
		*src = CU_MEMORYTYPE_HOST;
		*dst = CU_MEMORYTYPE_DEVICE;
		return cudaSuccess;
	case cudaMemcpyDeviceToHost:
		*src = CU_MEMORYTYPE_DEVICE;
		*dst = CU_MEMORYTYPE_HOST;
		return cudaSuccess;
	case cudaMemcpyDeviceToDevice:
		*src = CU_MEMORYTYPE_DEVICE;
		*dst = CU_MEMORYTYPE_DEVICE;
		return cudaSuccess;
	case cudaMemcpyDefault:
		*src = CU_MEMORYTYPE_UNIFIED;
		*dst = CU_MEMORYTYPE_UNIFIED;
		return cudaSuccess;
	default:
		return cudaErrorInvalidMemcpyDirection;
	}
}

cudaError_t rt_memcpy_node_desc(const struct cudaMemcpy3DParms *p,
				CUDA_MEMCPY3D *c)
{
	CUmemorytype src, dst;
	cudaError_t e;

	if (!p)
		return cudaErrorInvalidValue;
	e = rt_kind_types(p->kind, &src, &dst);
	if (e == cudaSuccess)
		e = rt_enter();
	if (e)
		return e;
	return rt_memcpy3d_desc(p, src, dst, c);
}

/* A linear copy of @count bytes as a 3D one: one row of one slice. */
static struct cudaMemcpy3DParms rt_linear3d(void *dst, const void *src,
					    size_t count,
					    enum cudaMemcpyKind kind)
{
	struct cudaMemcpy3DParms p;

	memset(&p, 0, sizeof(p));
	p.srcPtr = (struct cudaPitchedPtr){ (void *)src, count, count, 1 };
	p.dstPtr = (struct cudaPitchedPtr){ dst, count, count, 1 };
	p.extent = (struct cudaExtent){ count, 1, 1 };
	p.kind = kind;
	return p;
}

cudaError_t rt_memcpy1d_node_desc(void *dst, const void *src, size_t count,
				  enum cudaMemcpyKind kind, CUDA_MEMCPY3D *c)
{
	struct cudaMemcpy3DParms p = rt_linear3d(dst, src, count, kind);
	cudaError_t e = rt_enter();

	/* Checked as cudaMemcpy checks the same copy. */
	if (e == cudaSuccess)
		e = rt_copy_check(dst, src, kind);
	if (e)
		return e;
	return rt_memcpy_node_desc(&p, c);
}

cudaError_t rt_to_symbol_node_desc(const void *symbol, const void *src,
				   size_t count, size_t offset,
				   enum cudaMemcpyKind kind, CUDA_MEMCPY3D *c)
{
	struct cudaMemcpy3DParms p;
	CUdeviceptr dptr = 0;
	cudaError_t e;

	e = rt_symbol_range(symbol, count, offset, kind,
			    cudaMemcpyHostToDevice, &dptr);
	if (e)
		return e;
	p = rt_linear3d((void *)(uintptr_t)dptr, src, count, kind);
	return rt_memcpy_node_desc(&p, c);
}

cudaError_t rt_from_symbol_node_desc(void *dst, const void *symbol,
				     size_t count, size_t offset,
				     enum cudaMemcpyKind kind,
				     CUDA_MEMCPY3D *c)
{
	struct cudaMemcpy3DParms p;
	CUdeviceptr dptr = 0;
	cudaError_t e;

	e = rt_symbol_range(symbol, count, offset, kind,
			    cudaMemcpyDeviceToHost, &dptr);
	if (e)
		return e;
	p = rt_linear3d(dst, (void *)(uintptr_t)dptr, count, kind);
	return rt_memcpy_node_desc(&p, c);
}

/* The kind a node's memory types name; unified addressing is the default. */
static enum cudaMemcpyKind rt_types_kind(CUmemorytype src, CUmemorytype dst)
{
	if (src == CU_MEMORYTYPE_UNIFIED || dst == CU_MEMORYTYPE_UNIFIED)
		return cudaMemcpyDefault;
	if (src == CU_MEMORYTYPE_HOST)
		return dst == CU_MEMORYTYPE_HOST ? cudaMemcpyHostToHost :
						    cudaMemcpyHostToDevice;
	return dst == CU_MEMORYTYPE_HOST ? cudaMemcpyDeviceToHost :
					   cudaMemcpyDeviceToDevice;
}

/* The bytes of an element of array @a, 0 if it names none. */
static size_t rt_elem(cudaArray_t a)
{
	size_t elem = 0, row, rows;

	if (a && rt_array_shape(a, &elem, &row, &rows))
		return 0;
	return elem;
}

/* One side of the runtime's copy from the driver's. */
static void rt_side_from_cu(CUmemorytype type, CUarray array,
			    const void *host, CUdeviceptr dev, size_t pitch,
			    size_t height, size_t x, size_t y, size_t z,
			    size_t width, size_t elem, cudaArray_t *a,
			    struct cudaPitchedPtr *ptr, struct cudaPos *pos)
{
	*pos = (struct cudaPos){ x, y, z };
	if (type == CU_MEMORYTYPE_ARRAY) {
		*a = (cudaArray_t)array;
		pos->x = elem ? x / elem : x;
		return;
	}
	ptr->ptr = type == CU_MEMORYTYPE_HOST ? (void *)host :
						(void *)(uintptr_t)dev;
	ptr->pitch = pitch;
	ptr->xsize = width;
	ptr->ysize = height;
}

static void rt_memcpy_params_from_cu(const CUDA_MEMCPY3D *c,
				     struct cudaMemcpy3DParms *p)
{
	cudaArray_t sa = c->srcMemoryType == CU_MEMORYTYPE_ARRAY ?
			 (cudaArray_t)c->srcArray : NULL;
	cudaArray_t da = c->dstMemoryType == CU_MEMORYTYPE_ARRAY ?
			 (cudaArray_t)c->dstArray : NULL;
	size_t elem = sa ? rt_elem(sa) : rt_elem(da);

	memset(p, 0, sizeof(*p));
	rt_side_from_cu(c->srcMemoryType, c->srcArray, c->srcHost,
			c->srcDevice, c->srcPitch, c->srcHeight,
			c->srcXInBytes, c->srcY, c->srcZ, c->WidthInBytes,
			elem, &p->srcArray, &p->srcPtr, &p->srcPos);
	rt_side_from_cu(c->dstMemoryType, c->dstArray, c->dstHost,
			c->dstDevice, c->dstPitch, c->dstHeight,
			c->dstXInBytes, c->dstY, c->dstZ, c->WidthInBytes,
			elem, &p->dstArray, &p->dstPtr, &p->dstPos);
	/* An array's extent is in its elements. */
	p->extent = (struct cudaExtent){
		elem ? c->WidthInBytes / elem : c->WidthInBytes, c->Height,
		c->Depth };
	p->kind = rt_types_kind(c->srcMemoryType, c->dstMemoryType);
}

/* Adds a node of copy @c, in the current context. */
static cudaError_t rt_add_memcpy(cudaGraphNode_t *node, cudaGraph_t graph,
				 const cudaGraphNode_t *deps, size_t ndeps,
				 const CUDA_MEMCPY3D *c)
{
	CUcontext ctx = NULL;
	cudaError_t e = rt_error(cuCtxGetCurrent(&ctx));

	if (e)
		return e;
	return rt_error(cuGraphAddMemcpyNode((CUgraphNode *)node,
					     (CUgraph)graph,
					     (const CUgraphNode *)deps, ndeps,
					     c, ctx));
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *node, cudaGraph_t graph,
				   const cudaGraphNode_t *deps, size_t ndeps,
				   const struct cudaMemcpy3DParms *p)
{
	CUDA_MEMCPY3D c;
	cudaError_t e;

	if (!node)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_memcpy_node_desc(p, &c);
	if (e == cudaSuccess)
		e = rt_add_memcpy(node, graph, deps, ndeps, &c);
	return rt_ret(e);
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node, cudaGraph_t graph,
				     const cudaGraphNode_t *deps,
				     size_t ndeps, void *dst, const void *src,
				     size_t count, enum cudaMemcpyKind kind)
{
	CUDA_MEMCPY3D c;
	cudaError_t e;

	if (!node)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_memcpy1d_node_desc(dst, src, count, kind, &c);
	if (e == cudaSuccess)
		e = rt_add_memcpy(node, graph, deps, ndeps, &c);
	return rt_ret(e);
}

cudaError_t cudaGraphAddMemcpyNodeToSymbol(cudaGraphNode_t *node,
					   cudaGraph_t graph,
					   const cudaGraphNode_t *deps,
					   size_t ndeps, const void *symbol,
					   const void *src, size_t count,
					   size_t offset,
					   enum cudaMemcpyKind kind)
{
	CUDA_MEMCPY3D c;
	cudaError_t e;

	if (!node)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_to_symbol_node_desc(symbol, src, count, offset, kind, &c);
	if (e == cudaSuccess)
		e = rt_add_memcpy(node, graph, deps, ndeps, &c);
	return rt_ret(e);
}

cudaError_t cudaGraphAddMemcpyNodeFromSymbol(cudaGraphNode_t *node,
					     cudaGraph_t graph,
					     const cudaGraphNode_t *deps,
					     size_t ndeps, void *dst,
					     const void *symbol, size_t count,
					     size_t offset,
					     enum cudaMemcpyKind kind)
{
	CUDA_MEMCPY3D c;
	cudaError_t e;

	if (!node)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_from_symbol_node_desc(dst, symbol, count, offset, kind, &c);
	if (e == cudaSuccess)
		e = rt_add_memcpy(node, graph, deps, ndeps, &c);
	return rt_ret(e);
}

cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t node,
					 struct cudaMemcpy3DParms *p)
{
	CUDA_MEMCPY3D c;
	cudaError_t e;

	if (!p)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuGraphMemcpyNodeGetParams((CUgraphNode)node, &c));
	if (e)
		return rt_ret(e);
	rt_memcpy_params_from_cu(&c, p);
	return cudaSuccess;
}

static cudaError_t rt_set_memcpy(cudaGraphNode_t node, cudaError_t e,
				 const CUDA_MEMCPY3D *c)
{
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphMemcpyNodeSetParams((CUgraphNode)node, c));
}

cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t node,
					 const struct cudaMemcpy3DParms *p)
{
	CUDA_MEMCPY3D c;

	return rt_set_memcpy(node, rt_memcpy_node_desc(p, &c), &c);
}

cudaError_t cudaGraphMemcpyNodeSetParams1D(cudaGraphNode_t node, void *dst,
					   const void *src, size_t count,
					   enum cudaMemcpyKind kind)
{
	CUDA_MEMCPY3D c;

	return rt_set_memcpy(node, rt_memcpy1d_node_desc(dst, src, count,
							 kind, &c), &c);
}

cudaError_t cudaGraphMemcpyNodeSetParamsToSymbol(cudaGraphNode_t node,
						 const void *symbol,
						 const void *src, size_t count,
						 size_t offset,
						 enum cudaMemcpyKind kind)
{
	CUDA_MEMCPY3D c;

	return rt_set_memcpy(node, rt_to_symbol_node_desc(symbol, src, count,
							  offset, kind, &c),
			     &c);
}

cudaError_t cudaGraphMemcpyNodeSetParamsFromSymbol(cudaGraphNode_t node,
						   void *dst,
						   const void *symbol,
						   size_t count, size_t offset,
						   enum cudaMemcpyKind kind)
{
	CUDA_MEMCPY3D c;

	return rt_set_memcpy(node, rt_from_symbol_node_desc(dst, symbol, count,
							    offset, kind, &c),
			     &c);
}
