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

/* Dimensions no device takes: NVIDIA answers them before the driver. */
static bool rt_config_valid(dim3 grid, dim3 block)
{
	int dev = rt_device(), max_threads = 0, bx = 0, by = 0, bz = 0;
	int gx = 0, gy = 0, gz = 0;

	cuDeviceGetAttribute(&max_threads,
			     CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev);
	cuDeviceGetAttribute(&bx, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, dev);
	cuDeviceGetAttribute(&by, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, dev);
	cuDeviceGetAttribute(&bz, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, dev);
	cuDeviceGetAttribute(&gx, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, dev);
	cuDeviceGetAttribute(&gy, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, dev);
	cuDeviceGetAttribute(&gz, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, dev);
	if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
		return false;
	if (block.x > (unsigned int)bx || block.y > (unsigned int)by ||
	    block.z > (unsigned int)bz)
		return false;
	if ((unsigned long long)block.x * block.y * block.z >
	    (unsigned long long)max_threads)
		return false;
	return grid.x <= (unsigned int)gx && grid.y <= (unsigned int)gy &&
	       grid.z <= (unsigned int)gz;
}

static cudaError_t rt_launch(struct rt_kernel *k, dim3 grid, dim3 block,
			     void **args, size_t shared_mem,
			     cudaStream_t stream)
{
	CUfunction fn;
	cudaError_t e;

	if (!k)
		return cudaErrorInvalidDeviceFunction;
	e = rt_enter();
	if (e)
		return e;
	if (!rt_config_valid(grid, block))
		return cudaErrorInvalidConfiguration;
	e = rt_kernel_function(k, rt_device(), &fn);
	if (e)
		return e;
	return rt_error(cuLaunchKernel(fn, grid.x, grid.y, grid.z, block.x,
				       block.y, block.z,
				       (unsigned int)shared_mem,
				       (CUstream)stream, args, NULL));
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block,
			       void **args, size_t shared_mem,
			       cudaStream_t stream)
{
	return rt_ret(rt_launch((struct rt_kernel *)kernel, grid, block, args,
				shared_mem, stream));
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
	return rt_ret(rt_launch(rt_kernel_by_stub(func), grid, block, args,
				shared_mem, stream));
}

cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block,
				  void **args, size_t shared_mem,
				  cudaStream_t stream)
{
	if (!stream)
		stream = cudaStreamPerThread;
	return cudaLaunchKernel(func, grid, block, args, shared_mem, stream);
}
