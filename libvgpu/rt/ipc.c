// SPDX-License-Identifier: MIT
/*
 * IPC of device memory and events: the runtime's calls forward to the
 * driver's (libvgpu/ipc.c, libvgpu/ipc_event.c). The two APIs' handles
 * are the same 64 bytes.
 */
#include <string.h>

#include "rt.h"

_Static_assert(sizeof(cudaIpcMemHandle_t) == sizeof(CUipcMemHandle),
	       "the runtime's and the driver's IPC handles are alike");
_Static_assert(sizeof(cudaIpcEventHandle_t) == sizeof(CUipcEventHandle),
	       "the runtime's and the driver's IPC event handles are alike");

cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *handle, void *dev_ptr)
{
	CUipcMemHandle h;
	cudaError_t e;

	if (!handle)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuIpcGetMemHandle(&h, (CUdeviceptr)(uintptr_t)dev_ptr));
	if (e == cudaSuccess)
		memcpy(handle, &h, sizeof(h));
	return e;
}

cudaError_t cudaIpcOpenMemHandle(void **dev_ptr, cudaIpcMemHandle_t handle,
				 unsigned int flags)
{
	CUipcMemHandle h;
	CUdeviceptr p = 0;
	cudaError_t e;

	if (!dev_ptr)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	memcpy(&h, &handle, sizeof(h));
	e = rt_ret_cu(cuIpcOpenMemHandle_v2(&p, h, flags));
	if (e == cudaSuccess)
		*dev_ptr = (void *)(uintptr_t)p;
	return e;
}

cudaError_t cudaIpcCloseMemHandle(void *dev_ptr)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuIpcCloseMemHandle((CUdeviceptr)(uintptr_t)dev_ptr));
}

cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *handle,
				  cudaEvent_t event)
{
	CUipcEventHandle h;
	cudaError_t e;

	if (!handle)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuIpcGetEventHandle(&h, (CUevent)event));
	if (e == cudaSuccess)
		memcpy(handle, &h, sizeof(h));
	return e;
}

cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *event,
				   cudaIpcEventHandle_t handle)
{
	CUipcEventHandle h;
	CUevent ev = NULL;
	cudaError_t e;

	if (!event)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	memcpy(&h, &handle, sizeof(h));
	e = rt_ret_cu(cuIpcOpenEventHandle(&ev, h));
	if (e == cudaSuccess)
		*event = (cudaEvent_t)ev;
	return e;
}
