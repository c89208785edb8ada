// SPDX-License-Identifier: MIT
/*
 * A device's asynchronous notifications (the driver's, notify.c in
 * libvgpu): the callback, its information and its handle are the
 * driver's types under the runtime's names, member for member.
 */
#include "rt.h"

_Static_assert(sizeof(cudaAsyncNotificationInfo_t) ==
	       sizeof(CUasyncNotificationInfo),
	       "the runtime's notification is the driver's");

cudaError_t cudaDeviceRegisterAsyncNotification(int device,
						cudaAsyncCallback callback,
						void *data,
						cudaAsyncCallbackHandle_t *h)
{
	cudaError_t e = rt_check_device(device);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDeviceRegisterAsyncNotification(
		device, (CUasyncCallback)(void (*)(void))callback, data,
		(CUasyncCallbackHandle *)h));
}

cudaError_t cudaDeviceUnregisterAsyncNotification(int device,
						  cudaAsyncCallbackHandle_t h)
{
	cudaError_t e = rt_check_device(device);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDeviceUnregisterAsyncNotification(
		device, (CUasyncCallbackHandle)h));
}
