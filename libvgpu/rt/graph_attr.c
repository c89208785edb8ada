// SPDX-License-Identifier: MIT
/*
 * Graph kernel nodes' launch attributes, user objects and the dot file of
 * a graph: the driver's calls, whose types the runtime's are
 * (cudaLaunchAttributeValue is CUlaunchAttributeValue, a cudaUserObject_t
 * a CUuserObject, cudaGraphDebugDotFlags and cudaUserObjectFlags the
 * driver's values).
 */
#include "rt.h"

_Static_assert(sizeof(cudaLaunchAttributeValue) == sizeof(CUlaunchAttributeValue),
	       "launch attribute values are the driver's");
_Static_assert((int)cudaUserObjectNoDestructorSync == (int)CU_USER_OBJECT_NO_DESTRUCTOR_SYNC,
	       "user object flags are the driver's");
_Static_assert((int)cudaGraphUserObjectMove == (int)CU_GRAPH_USER_OBJECT_MOVE,
	       "graph user object flags are the driver's");

cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t node, cudaKernelNodeAttrID id,
					    cudaKernelNodeAttrValue *value)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphKernelNodeGetAttribute((CUgraphNode)node,
						       (CUkernelNodeAttrID)id,
						       (CUkernelNodeAttrValue *)value));
}

cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t node, cudaKernelNodeAttrID id,
					    const cudaKernelNodeAttrValue *value)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphKernelNodeSetAttribute((CUgraphNode)node,
						       (CUkernelNodeAttrID)id,
						       (const CUkernelNodeAttrValue *)value));
}

cudaError_t cudaGraphKernelNodeCopyAttributes(cudaGraphNode_t dst, cudaGraphNode_t src)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphKernelNodeCopyAttributes((CUgraphNode)dst, (CUgraphNode)src));
}

cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphDebugDotPrint((CUgraph)graph, path, flags));
}

cudaError_t cudaUserObjectCreate(cudaUserObject_t *out, void *ptr, cudaHostFn_t destroy,
				 unsigned int refs, unsigned int flags)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuUserObjectCreate((CUuserObject *)out, ptr, destroy, refs, flags));
}

cudaError_t cudaUserObjectRetain(cudaUserObject_t obj, unsigned int count)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuUserObjectRetain((CUuserObject)obj, count));
}

cudaError_t cudaUserObjectRelease(cudaUserObject_t obj, unsigned int count)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuUserObjectRelease((CUuserObject)obj, count));
}

cudaError_t cudaGraphRetainUserObject(cudaGraph_t graph, cudaUserObject_t obj,
				      unsigned int count, unsigned int flags)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphRetainUserObject((CUgraph)graph, (CUuserObject)obj, count,
						 flags));
}

cudaError_t cudaGraphReleaseUserObject(cudaGraph_t graph, cudaUserObject_t obj,
				       unsigned int count)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphReleaseUserObject((CUgraph)graph, (CUuserObject)obj, count));
}
