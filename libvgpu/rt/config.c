// SPDX-License-Identifier: MIT
/*
 * Settings of the thread's device's primary context that the driver
 * keeps: the deprecated shared memory bank configuration, the persisting
 * L2 lines, the GPUDirect RDMA flush, and the profiler's span.
 */
#include "rt.h"

#include <cuda_profiler_api.h>

#include "cudaProfiler.h"

/* cudaSharedMemConfig's values are CUsharedconfig's. */
cudaError_t cudaDeviceGetSharedMemConfig(enum cudaSharedMemConfig *config)
{
	CUsharedconfig c;
	cudaError_t e;

	if (!config)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuCtxGetSharedMemConfig(&c));
	if (e == cudaSuccess)
		*config = (enum cudaSharedMemConfig)c;
	return e;
}

cudaError_t cudaDeviceSetSharedMemConfig(enum cudaSharedMemConfig config)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuCtxSetSharedMemConfig((CUsharedconfig)config));
}

cudaError_t cudaCtxResetPersistingL2Cache(void)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuCtxResetPersistingL2Cache());
}

/* The target and scope enums' values are the driver's. */
cudaError_t cudaDeviceFlushGPUDirectRDMAWrites(
	enum cudaFlushGPUDirectRDMAWritesTarget target,
	enum cudaFlushGPUDirectRDMAWritesScope scope)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuFlushGPUDirectRDMAWrites(
		(CUflushGPUDirectRDMAWritesTarget)target,
		(CUflushGPUDirectRDMAWritesScope)scope));
}

cudaError_t cudaProfilerStart(void)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuProfilerStart());
}

cudaError_t cudaProfilerStop(void)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuProfilerStop());
}
