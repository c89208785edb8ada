// SPDX-License-Identifier: MIT
/*
 * Launches: the <<<>>> configuration stack nvcc's host code pushes and its
 * stubs pop, CUDA 13's __cudaGetKernel/__cudaLaunchKernel, and
 * cudaLaunchKernel on a host stub's address.
 */
#include "rt.h"
#include "rt_abi.h"

/* <<<>>> nests when a launch's arguments launch: a few levels suffice. */
#define RT_CONFIG_DEPTH 8

struct rt_config {
	dim3 grid, block;
	size_t shared_mem;
	cudaStream_t stream;
};

static __thread struct rt_config rt_configs[RT_CONFIG_DEPTH];
static __thread int rt_nconfigs;

unsigned int __cudaPushCallConfiguration(dim3 grid, dim3 block,
					 size_t shared_mem,
					 struct CUstream_st *stream)
{
	struct rt_config *c;

	/* Non-zero makes the <<<>>> expression skip the stub's call. */
	if (rt_nconfigs == RT_CONFIG_DEPTH)
		return 1;
	c = &rt_configs[rt_nconfigs++];
	c->grid = grid;
	c->block = block;
	c->shared_mem = shared_mem;
	c->stream = stream;
	return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block,
				       size_t *shared_mem, void *stream)
{
	struct rt_config *c;

	if (rt_nconfigs == 0)
		return cudaErrorMissingConfiguration;
	c = &rt_configs[--rt_nconfigs];
	*grid = c->grid;
	*block = c->block;
	*shared_mem = c->shared_mem;
	*(cudaStream_t *)stream = c->stream;
	return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *host_fun)
{
	struct rt_kernel *k;

	if (!kernel)
		return rt_ret(cudaErrorInvalidValue);
	/*
	 * The stub asks once and keeps the answer, so it must not depend on
	 * a device: the module loads at the launch.
	 */
	k = rt_kernel_by_stub(host_fun);
	if (!k)
		return rt_ret(cudaErrorInvalidDeviceFunction);
	*kernel = (cudaKernel_t)k;
	return cudaSuccess;
}

static cudaError_t rt_launch(const void *func, dim3 grid, dim3 block,
			     void **args, size_t shared_mem,
			     cudaStream_t stream, bool cooperative)
{
	unsigned int smem;
	CUfunction fn;
	cudaError_t e;

	/*
	 * CUDA 13 answers a kernel handle it does not know as an unknown
	 * handle, and a configuration no device takes (an empty grid, too
	 * many threads or too much shared memory) as the driver does,
	 * cudaErrorInvalidValue: no cudaErrorInvalidConfiguration any more.
	 */
	e = rt_function(func, cudaErrorInvalidResourceHandle, &fn);
	if (e)
		return e;
	smem = (unsigned int)shared_mem;
	if (cooperative)
		return rt_error(cuLaunchCooperativeKernel(
			fn, grid.x, grid.y, grid.z, block.x, block.y, block.z,
			smem, (CUstream)stream, args));
	return rt_error(cuLaunchKernel(fn, grid.x, grid.y, grid.z, block.x,
				       block.y, block.z, smem,
				       (CUstream)stream, args, NULL));
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block,
			       void **args, size_t shared_mem,
			       cudaStream_t stream)
{
	/* No handle is an unknown handle; no function is no device function. */
	if (!kernel)
		return rt_ret(cudaErrorInvalidResourceHandle);
	return rt_ret(rt_launch((const void *)kernel, grid, block, args,
				shared_mem, stream, false));
}

/* --default-stream per-thread: stream 0 is the thread's own. */
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid,
				    dim3 block, void **args,
				    size_t shared_mem, cudaStream_t stream)
{
	if (!stream)
		stream = cudaStreamPerThread;
	return __cudaLaunchKernel(kernel, grid, block, args, shared_mem,
				  stream);
}

cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block,
			     void **args, size_t shared_mem,
			     cudaStream_t stream)
{
	return rt_ret(rt_launch(func, grid, block, args,
				shared_mem, stream, false));
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block,
				  void **args, size_t shared_mem,
				  cudaStream_t stream)
{
	if (!stream)
		stream = cudaStreamPerThread;
	return cudaLaunchKernel(func, grid, block, args, shared_mem, stream);
}

/* All blocks resident at once, for grid-wide synchronization. */
cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid,
					dim3 block, void **args,
					size_t shared_mem, cudaStream_t stream)
{
	return rt_ret(rt_launch(func, grid, block, args,
				shared_mem, stream, true));
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 grid,
					     dim3 block, void **args,
					     size_t shared_mem,
					     cudaStream_t stream)
{
	return cudaLaunchCooperativeKernel(func, grid, block, args, shared_mem,
					   stream ? stream :
					   cudaStreamPerThread);
}

_Static_assert(sizeof(cudaLaunchAttribute) == sizeof(CUlaunchAttribute) &&
	       offsetof(cudaLaunchAttribute, val) ==
	       offsetof(CUlaunchAttribute, value),
	       "the runtime's launch attributes are the driver's");

/* The attributes' IDs and values are the driver's. */
void rt_launch_config(const cudaLaunchConfig_t *config, CUlaunchConfig *c)
{
	c->gridDimX = config->gridDim.x;
	c->gridDimY = config->gridDim.y;
	c->gridDimZ = config->gridDim.z;
	c->blockDimX = config->blockDim.x;
	c->blockDimY = config->blockDim.y;
	c->blockDimZ = config->blockDim.z;
	c->sharedMemBytes = (unsigned int)config->dynamicSmemBytes;
	c->hStream = (CUstream)config->stream;
	c->attrs = (CUlaunchAttribute *)config->attrs;
	c->numAttrs = config->numAttrs;
}

/* A launch with attributes. */
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config,
				const void *func, void **args)
{
	CUlaunchConfig c;
	CUfunction fn;
	cudaError_t e;

	if (!config)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_function(func, cudaErrorInvalidResourceHandle, &fn);
	if (e)
		return rt_ret(e);
	rt_launch_config(config, &c);
	return rt_ret_cu(cuLaunchKernelEx(&c, fn, args, NULL));
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
				     const void *func, void **args)
{
	cudaLaunchConfig_t c;

	if (!config || config->stream)
		return cudaLaunchKernelExC(config, func, args);
	c = *config;
	c.stream = cudaStreamPerThread;
	return cudaLaunchKernelExC(&c, func, args);
}
