// SPDX-License-Identifier: MIT
/*
 * Executable graphs: instantiation, launch, upload, update and the nodes
 * an executable graph turns off. cudaGraphExec_t is the driver's
 * CUgraphExec, and the runtime's instantiation flags, update results and
 * result info are the driver's numbers and layout.
 */
#include "rt.h"

/* --default-stream per-thread forms take stream 0 as the thread's own. */
static cudaStream_t rt_ptsz(cudaStream_t stream)
{
	return stream ? stream : cudaStreamPerThread;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *exec,
					  cudaGraph_t graph,
					  unsigned long long flags)
{
	cudaError_t e;

	if (!exec || !graph)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphInstantiateWithFlags((CUgraphExec *)exec,
						     (CUgraph)graph, flags));
}

/* CUDA 12 gave cudaGraphInstantiate cudaGraphInstantiateWithFlags's form. */
cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
				 unsigned long long flags)
{
	return cudaGraphInstantiateWithFlags(exec, graph, flags);
}

/* The driver fills the result in, whatever it answers. */
static cudaError_t rt_instantiate_params(cudaGraphExec_t *exec,
					 cudaGraph_t graph,
					 cudaGraphInstantiateParams *p,
					 bool ptsz)
{
	CUDA_GRAPH_INSTANTIATE_PARAMS c;
	cudaError_t e;

	if (!exec || !graph || !p)
		return cudaErrorInvalidValue;
	e = rt_enter();
	if (e)
		return e;
	c.flags = p->flags;
	c.hUploadStream = (CUstream)(ptsz ? rt_ptsz(p->uploadStream) :
				     p->uploadStream);
	c.hErrNode_out = NULL;
	c.result_out = CUDA_GRAPH_INSTANTIATE_ERROR;
	e = rt_error(cuGraphInstantiateWithParams((CUgraphExec *)exec,
						  (CUgraph)graph, &c));
	p->errNode_out = (cudaGraphNode_t)c.hErrNode_out;
	p->result_out = (cudaGraphInstantiateResult)c.result_out;
	return e;
}

cudaError_t cudaGraphInstantiateWithParams(cudaGraphExec_t *exec,
					   cudaGraph_t graph,
					   cudaGraphInstantiateParams *params)
{
	return rt_ret(rt_instantiate_params(exec, graph, params, false));
}

cudaError_t cudaGraphInstantiateWithParams_ptsz(
	cudaGraphExec_t *exec, cudaGraph_t graph,
	cudaGraphInstantiateParams *params)
{
	return rt_ret(rt_instantiate_params(exec, graph, params, true));
}

cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t exec,
				  unsigned long long *flags)
{
	cuuint64_t f = 0;
	cudaError_t e;

	if (!flags)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuGraphExecGetFlags((CUgraphExec)exec, &f));
	if (e == cudaSuccess)
		*flags = f;
	return e;
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream)
{
	cudaError_t e;

	if (!exec)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphLaunch((CUgraphExec)exec, (CUstream)stream));
}

cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t exec, cudaStream_t stream)
{
	return cudaGraphLaunch(exec, rt_ptsz(stream));
}

cudaError_t cudaGraphUpload(cudaGraphExec_t exec, cudaStream_t stream)
{
	cudaError_t e;

	if (!exec)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphUpload((CUgraphExec)exec, (CUstream)stream));
}

cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t exec, cudaStream_t stream)
{
	return cudaGraphUpload(exec, rt_ptsz(stream));
}

/*
 * The result info may be NULL: the update is done or refused all the
 * same, as the driver does it.
 */
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
				cudaGraphExecUpdateResultInfo *info)
{
	CUgraphExecUpdateResultInfo ci = { 0 };
	cudaError_t e;

	if (!exec || !graph)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuGraphExecUpdate((CUgraphExec)exec, (CUgraph)graph,
					&ci));
	if (info) {
		info->result = (enum cudaGraphExecUpdateResult)ci.result;
		info->errorNode = (cudaGraphNode_t)ci.errorNode;
		info->errorFromNode = (cudaGraphNode_t)ci.errorFromNode;
	}
	return e;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec)
{
	cudaError_t e;

	if (!exec)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphExecDestroy((CUgraphExec)exec));
}

cudaError_t cudaGraphNodeSetEnabled(cudaGraphExec_t exec,
				    cudaGraphNode_t node,
				    unsigned int enabled)
{
	cudaError_t e;

	if (!exec || !node)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphNodeSetEnabled((CUgraphExec)exec,
					       (CUgraphNode)node, enabled));
}

cudaError_t cudaGraphNodeGetEnabled(cudaGraphExec_t exec,
				    cudaGraphNode_t node,
				    unsigned int *enabled)
{
	cudaError_t e;

	if (!exec || !node || !enabled)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuGraphNodeGetEnabled((CUgraphExec)exec,
					       (CUgraphNode)node, enabled));
}
