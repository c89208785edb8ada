// SPDX-License-Identifier: MIT
/* Device queries: cuDeviceGet*, cuDeviceTotalMem, cuDeviceComputeCapability. */
#include <string.h>

#include "vg.h"

CUresult cuDeviceGetCount(int *count)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	*count = vg_device_count;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_check_device(ordinal);
	if (r)
		return r;
	*device = ordinal;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	CUresult r = vg_check_device(dev);

	if (r)
		return r;
	if (!name || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	/* Truncates like NVIDIA's driver: always NUL-terminated. */
	strncpy(name, vg_devices[dev].info.name, (size_t)len - 1);
	name[len - 1] = '\0';
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
	CUresult r = vg_check_device(dev);

	if (r)
		return r;
	if (!uuid)
		return CUDA_ERROR_INVALID_VALUE;
	memcpy(uuid->bytes, vg_devices[dev].info.uuid, sizeof(uuid->bytes));
	return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	CUresult r = vg_check_device(dev);

	if (r)
		return r;
	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	*bytes = vg_devices[dev].info.mem_size;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attrib,
			      CUdevice dev)
{
	CUresult r = vg_check_device(dev);

	if (r)
		return r;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	return vg_attribute(&vg_devices[dev].info, attrib, value);
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
	CUresult r = vg_check_device(dev);

	if (r)
		return r;
	if (!major || !minor)
		return CUDA_ERROR_INVALID_VALUE;
	*major = (int)vg_devices[dev].info.cc_major;
	*minor = (int)vg_devices[dev].info.cc_minor;
	return CUDA_SUCCESS;
}
