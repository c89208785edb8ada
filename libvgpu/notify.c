// SPDX-License-Identifier: MIT
/*
 * cuDeviceRegisterAsyncNotification and its unregistration: callbacks a
 * program gives for a device's asynchronous notifications. The one type
 * CUDA defines, OVER_BUDGET, tells a process it holds more device memory
 * than the system's budget for it; vgpu sets no such budget (a context's
 * memory is charged to its memory cgroup, which refuses an allocation
 * instead), so a registered callback is kept and never called. Codes as
 * on an H100 (tests/e2e/ref/h100_compat.log), where a handle that is not
 * registered crashes the driver: vgpu answers CUDA_ERROR_INVALID_VALUE.
 */
#include <stdlib.h>

#include "vg.h"

struct CUasyncCallbackEntry_st {
	struct CUasyncCallbackEntry_st *next;
	CUdevice dev;
	CUasyncCallback callback;
	void *user_data;
};

/* The registered callbacks, under vg_lock. */
static struct CUasyncCallbackEntry_st *vg_notify_list;

CUresult cuDeviceRegisterAsyncNotification(CUdevice device,
					   CUasyncCallback callbackFunc,
					   void *userData,
					   CUasyncCallbackHandle *callback)
{
	struct CUasyncCallbackEntry_st *e;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!callbackFunc || !callback)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_check_device(device);
	if (r)
		return r;
	e = malloc(sizeof(*e));
	if (!e)
		return CUDA_ERROR_OUT_OF_MEMORY;
	e->dev = device;
	e->callback = callbackFunc;
	e->user_data = userData;
	pthread_mutex_lock(&vg_lock);
	e->next = vg_notify_list;
	vg_notify_list = e;
	pthread_mutex_unlock(&vg_lock);
	*callback = e;
	return CUDA_SUCCESS;
}

CUresult cuDeviceUnregisterAsyncNotification(CUdevice device,
					     CUasyncCallbackHandle callback)
{
	struct CUasyncCallbackEntry_st **pp, *e;
	CUresult r = vg_check_device(device);

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	for (pp = &vg_notify_list; (e = *pp); pp = &e->next)
		if (e == callback && e->dev == device)
			break;
	if (e)
		*pp = e->next;
	pthread_mutex_unlock(&vg_lock);
	if (!e)
		return CUDA_ERROR_INVALID_VALUE;
	free(e);
	return CUDA_SUCCESS;
}
