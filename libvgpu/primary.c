// SPDX-License-Identifier: MIT
/*
 * Primary contexts: one per device, shared by everyone in the process who
 * retains it (the runtime API's context). Its handle never changes; retain
 * activates it (opens the device) and the last release or a reset
 * deactivates it, as on NVIDIA's driver.
 */
#include "vg.h"

/* Flags cuDevicePrimaryCtxSetFlags accepts: a scheduling policy and the
 * local-memory hint (CU_CTX_MAP_HOST is implied and refused here). */
#define VG_PRIMARY_FLAGS (CU_CTX_SCHED_MASK | CU_CTX_LMEM_RESIZE_TO_MAX)

CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev)
{
	struct vg_device *d;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pctx)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_check_device(dev);
	if (r)
		return r;
	d = &vg_devices[dev];
	pthread_mutex_lock(&vg_lock);
	if (d->primary->fd < 0) {
		r = vg_ctx_open(d->primary);
		if (r == CUDA_SUCCESS)
			vg_peer_ctx_opened(d->primary);
	}
	if (r == CUDA_SUCCESS) {
		d->primary_refs++;
		*pctx = d->primary;
	}
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev)
{
	struct vg_device *d;
	CUresult r = vg_check_device(dev);

	if (r)
		return r;
	d = &vg_devices[dev];
	pthread_mutex_lock(&vg_lock);
	if (d->primary_refs == 0) {
		r = CUDA_ERROR_INVALID_CONTEXT;
	} else if (--d->primary_refs == 0) {
		vg_ctx_close(d->primary);
	}
	pthread_mutex_unlock(&vg_lock);
	return r;
}

CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags)
{
	unsigned int sched = flags & CU_CTX_SCHED_MASK;
	CUresult r = vg_check_device(dev);

	if (r)
		return r;
	if ((flags & ~(unsigned int)VG_PRIMARY_FLAGS) || (sched & (sched - 1)))
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	vg_devices[dev].primary_flags = flags;
	/* An active primary context takes them at once (vg_ctx_open else). */
	if (vg_devices[dev].primary->fd >= 0)
		__atomic_store_n(&vg_devices[dev].primary->flags, flags,
				 __ATOMIC_RELAXED);
	pthread_mutex_unlock(&vg_lock);
	return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags,
				    int *active)
{
	CUresult r = vg_check_device(dev);

	if (r)
		return r;
	if (!flags || !active)
		return CUDA_ERROR_INVALID_VALUE;
	pthread_mutex_lock(&vg_lock);
	*flags = vg_devices[dev].primary_flags;
	*active = vg_devices[dev].primary->fd >= 0;
	/* cuCtxSetFlags on the active context shows in SYNC_MEMOPS only. */
	if (*active)
		*flags |= vg_devices[dev].primary->flags & CU_CTX_SYNC_MEMOPS;
	pthread_mutex_unlock(&vg_lock);
	return CUDA_SUCCESS;
}

/* Destroys the context's state and restores default flags; the handle and
 * the retain count stay, and the next retain activates it afresh. */
CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev)
{
	CUresult r = vg_check_device(dev);

	if (r)
		return r;
	pthread_mutex_lock(&vg_lock);
	vg_ctx_close(vg_devices[dev].primary);
	vg_devices[dev].primary_flags = 0;
	pthread_mutex_unlock(&vg_lock);
	return CUDA_SUCCESS;
}
