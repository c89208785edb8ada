// SPDX-License-Identifier: MIT
/*
 * cudaPointerGetAttributes: what kind of memory an address is in, from
 * the driver's pointer attributes. An address the driver does not know is
 * host memory nobody registered, as NVIDIA's runtime answers it.
 */
#include <string.h>

#include "rt.h"

cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attr,
				     const void *ptr)
{
	CUpointer_attribute which[] = {
		CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
		CU_POINTER_ATTRIBUTE_IS_MANAGED,
	};
	unsigned int type = 0, managed = 0;
	void *data[] = { &type, &managed };
	CUdeviceptr p = (CUdeviceptr)(uintptr_t)ptr;
	int ordinal = 0;
	cudaError_t e;

	if (!attr)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuPointerGetAttributes(2, which, data, p));
	if (e)
		return e;
	memset(attr, 0, sizeof(*attr));
	if (type == 0) {
		/* No device of this process knows it: -2, as an H100 says. */
		attr->type = cudaMemoryTypeUnregistered;
		attr->device = -2;
		attr->hostPointer = (void *)ptr;
		return cudaSuccess;
	}
	e = rt_ret_cu(cuPointerGetAttribute(&ordinal,
					    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
					    p));
	if (e)
		return e;
	attr->device = ordinal;
	/* Unified addressing: the device sees host memory where it is. */
	attr->devicePointer = (void *)ptr;
	if (managed) {
		attr->type = cudaMemoryTypeManaged;
		attr->hostPointer = (void *)ptr;
	} else if (type == CU_MEMORYTYPE_HOST) {
		attr->type = cudaMemoryTypeHost;
		attr->hostPointer = (void *)ptr;
	} else {
		attr->type = cudaMemoryTypeDevice;
	}
	return cudaSuccess;
}
