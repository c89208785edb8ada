// SPDX-License-Identifier: MIT
/*
 * Occupancy of thread block clusters: how many clusters of a launch's
 * configuration fit at once, and the largest cluster size it could use,
 * from the driver's answers for the kernel's function.
 */
#include "rt.h"

static cudaError_t rt_cluster_query(const void *func,
				    const cudaLaunchConfig_t *config,
				    CUfunction *fn, CUlaunchConfig *c)
{
	cudaError_t e;

	/* NVIDIA's runtime dies of SIGSEGV without a configuration. */
	if (!config)
		return cudaErrorInvalidValue;
	e = rt_function(func, cudaErrorInvalidResourceHandle, fn);
	if (e == cudaSuccess)
		rt_launch_config(config, c);
	return e;
}

cudaError_t cudaOccupancyMaxActiveClusters(int *clusters, const void *func,
					   const cudaLaunchConfig_t *config)
{
	CUlaunchConfig c;
	CUfunction fn;
	cudaError_t e = rt_cluster_query(func, config, &fn, &c);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuOccupancyMaxActiveClusters(clusters, fn, &c));
}

cudaError_t cudaOccupancyMaxPotentialClusterSize(int *size, const void *func,
						 const cudaLaunchConfig_t *config)
{
	CUlaunchConfig c;
	CUfunction fn;
	cudaError_t e = rt_cluster_query(func, config, &fn, &c);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuOccupancyMaxPotentialClusterSize(size, fn, &c));
}
