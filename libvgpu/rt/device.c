// SPDX-License-Identifier: MIT
/*
 * Devices: counting and choosing them, synchronizing and resetting the
 * thread's device, its attributes, and the versions of the driver and
 * the runtime.
 */
#include "rt.h"

cudaError_t cudaGetDeviceCount(int *count)
{
	cudaError_t e;

	if (!count)
		return rt_ret(cudaErrorInvalidValue);
	/* Without a device *count is left as it was, as on NVIDIA's. */
	e = rt_init();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDeviceGetCount(count));
}

cudaError_t cudaSetDevice(int device)
{
	return rt_ret(rt_select(device));
}

cudaError_t cudaGetDevice(int *device)
{
	cudaError_t e;

	if (!device)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_init();
	if (e)
		return rt_ret(e);
	*device = rt_device();
	return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuCtxSynchronize());
}

cudaError_t cudaDeviceReset(void)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	/* The thread's last error survives the reset, as on NVIDIA's. */
	return rt_ret(rt_reset(rt_device()));
}

/* A device the runtime may name: the driver's count bounds it. */
cudaError_t rt_check_device(int device)
{
	int count = 0;
	cudaError_t e = rt_init();

	if (e)
		return e;
	e = rt_error(cuDeviceGetCount(&count));
	if (e)
		return e;
	if (device < 0 || device >= count || device >= RT_MAX_DEVICES)
		return cudaErrorInvalidDevice;
	return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr,
				   int device)
{
	cudaError_t e;

	if (!value)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_check_device(device);
	if (e)
		return rt_ret(e);
	/* cudaDeviceAttr's values are CUdevice_attribute's. */
	return rt_ret_cu(cuDeviceGetAttribute(value, (CUdevice_attribute)attr,
					      device));
}

cudaError_t cudaDriverGetVersion(int *version)
{
	if (!version)
		return rt_ret(cudaErrorInvalidValue);
	return rt_ret_cu(cuDriverGetVersion(version));
}

cudaError_t cudaRuntimeGetVersion(int *version)
{
	if (!version)
		return rt_ret(cudaErrorInvalidValue);
	*version = CUDART_VERSION;
	return cudaSuccess;
}

/* cudaLimit's values are CUlimit's. */
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuCtxSetLimit((CUlimit)limit, value));
}

cudaError_t cudaDeviceGetLimit(size_t *value, enum cudaLimit limit)
{
	cudaError_t e;

	if (!value)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuCtxGetLimit(value, (CUlimit)limit));
}

cudaError_t cudaDeviceGetPCIBusId(char *bus_id, int len, int device)
{
	cudaError_t e;

	if (!bus_id || len <= 0)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_check_device(device);
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDeviceGetPCIBusId(bus_id, len, device));
}

cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *bus_id)
{
	cudaError_t e;

	if (!device || !bus_id)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_init();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDeviceGetByPCIBusId(device, bus_id));
}

cudaError_t cudaDeviceCanAccessPeer(int *can_access, int device,
				    int peer_device)
{
	cudaError_t e;

	if (!can_access)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_check_device(device);
	if (e == cudaSuccess)
		e = rt_check_device(peer_device);
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDeviceCanAccessPeer(can_access, device,
					       peer_device));
}

/* cudaSetDeviceFlags's: one scheduling policy, mapped memory, local
 * memory kept at its largest; the values are CU_CTX_*'s. */
#define RT_SCHED_MASK (cudaDeviceScheduleSpin | cudaDeviceScheduleYield | \
		       cudaDeviceScheduleBlockingSync)
#define RT_DEVICE_FLAGS (RT_SCHED_MASK | cudaDeviceMapHost | \
			 cudaDeviceLmemResizeToMax)

/*
 * The flags of a device's primary context, active or not (an H100 takes
 * them at once either way). Mapped page-locked memory is
 * always on under unified addressing: cudaDeviceMapHost is accepted and
 * always read back.
 */
cudaError_t rt_device_flags(int dev, unsigned int flags)
{
	unsigned int sched = flags & RT_SCHED_MASK;
	cudaError_t e;

	if ((flags & ~(unsigned int)RT_DEVICE_FLAGS) || (sched & (sched - 1)))
		return cudaErrorInvalidValue;
	e = rt_init();
	if (e)
		return e;
	return rt_error(cuDevicePrimaryCtxSetFlags(
		dev, flags & ~(unsigned int)cudaDeviceMapHost));
}

cudaError_t cudaSetDeviceFlags(unsigned int flags)
{
	return rt_ret(rt_device_flags(rt_device(), flags));
}

cudaError_t cudaGetDeviceFlags(unsigned int *flags)
{
	unsigned int f = 0;
	int active = 0;
	cudaError_t e;

	if (!flags)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_init();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuDevicePrimaryCtxGetState(rt_device(), &f, &active));
	if (e == cudaSuccess)
		*flags = f | cudaDeviceMapHost;
	return e;
}

/* cudaFuncCache's values are CUfunc_cache's. */
cudaError_t cudaDeviceGetCacheConfig(enum cudaFuncCache *config)
{
	CUfunc_cache c = CU_FUNC_CACHE_PREFER_NONE;
	cudaError_t e;

	if (!config)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuCtxGetCacheConfig(&c));
	if (e == cudaSuccess)
		*config = (enum cudaFuncCache)c;
	return e;
}

cudaError_t cudaDeviceSetCacheConfig(enum cudaFuncCache config)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuCtxSetCacheConfig((CUfunc_cache)config));
}

/* Graph memory: cudaGraphMemAttributeType's values are CUgraphMem_attribute's. */
cudaError_t cudaDeviceGetGraphMemAttribute(int device,
					   enum cudaGraphMemAttributeType attr,
					   void *value)
{
	cudaError_t e = rt_check_device(device);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDeviceGetGraphMemAttribute(device, (CUgraphMem_attribute)attr,
						      value));
}

cudaError_t cudaDeviceSetGraphMemAttribute(int device,
					   enum cudaGraphMemAttributeType attr,
					   void *value)
{
	cudaError_t e = rt_check_device(device);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDeviceSetGraphMemAttribute(device, (CUgraphMem_attribute)attr,
						      value));
}

cudaError_t cudaDeviceGraphMemTrim(int device)
{
	cudaError_t e = rt_check_device(device);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDeviceGraphMemTrim(device));
}
