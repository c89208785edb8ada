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
static cudaError_t rt_check_device(int device)
{
	int count = 0;
	cudaError_t e = rt_init();

	if (e)
		return e;
	e = rt_error(cuDeviceGetCount(&count));
	if (e)
		return e;
	if (device < 0 || device >= count)
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
