// SPDX-License-Identifier: MIT
/*
 * The thread's device and the primary context the runtime works in. The
 * runtime retains each device's primary context once for the process, so
 * runtime and driver calls share it, as NVIDIA's runtime does.
 *
 * Lock order: rt_lock, then register.c's rt_reg_lock.
 */
#include <pthread.h>

#include "rt.h"

static pthread_once_t rt_once = PTHREAD_ONCE_INIT;
static CUresult rt_init_result;

/* Protects rt_primaries, rt_retained, rt_unavailable and rt_generation. */
static pthread_mutex_t rt_lock = PTHREAD_MUTEX_INITIALIZER;
static CUcontext rt_primaries[RT_MAX_DEVICES];
static bool rt_retained[RT_MAX_DEVICES];
/*
 * The device's primary context was reset after an error had ended it: an
 * H100 answers cudaErrorDevicesUnavailable for the device from then on,
 * until the process ends.
 */
static bool rt_unavailable[RT_MAX_DEVICES];
/* Bumped by cudaDeviceReset, so every thread binds the new context. */
static unsigned int rt_generation[RT_MAX_DEVICES];

static __thread int rt_cur_dev;
/* The thread made rt_primaries[rt_cur_dev] current at rt_bound_gen. */
static __thread bool rt_bound;
static __thread unsigned int rt_bound_gen;

static void rt_do_init(void)
{
	rt_init_result = cuInit(0);
}

cudaError_t rt_init(void)
{
	pthread_once(&rt_once, rt_do_init);
	return rt_error(rt_init_result);
}

int rt_device(void)
{
	return rt_cur_dev;
}

cudaError_t rt_enter(void)
{
	int dev = rt_cur_dev;
	CUcontext cur = NULL;
	cudaError_t e = rt_init();
	CUresult r = CUDA_SUCCESS;

	if (e)
		return e;
	pthread_mutex_lock(&rt_lock);
	if (rt_unavailable[dev]) {
		pthread_mutex_unlock(&rt_lock);
		return cudaErrorDevicesUnavailable;
	}
	if (rt_bound && rt_bound_gen == rt_generation[dev] &&
	    cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur)
		goto out;
	if (!rt_retained[dev]) {
		r = cuDevicePrimaryCtxRetain(&rt_primaries[dev], dev);
		if (r)
			goto out;
		rt_retained[dev] = true;
	}
	r = cuCtxSetCurrent(rt_primaries[dev]);
	if (r)
		goto out;
	rt_bound = true;
	rt_bound_gen = rt_generation[dev];
out:
	pthread_mutex_unlock(&rt_lock);
	return rt_error(r);
}

cudaError_t rt_select(int dev)
{
	int count = 0;
	cudaError_t e = rt_init();

	if (e)
		return e;
	e = rt_error(cuDeviceGetCount(&count));
	if (e)
		return e;
	if (dev < 0 || dev >= count || dev >= RT_MAX_DEVICES)
		return cudaErrorInvalidDevice;
	if (dev != rt_cur_dev)
		rt_bound = false;
	rt_cur_dev = dev;
	/* Since CUDA 12, cudaSetDevice initializes the device's context. */
	return rt_enter();
}

/* Has an error ended @ctx (its work done first)? */
static bool rt_failed(CUcontext ctx)
{
	CUresult r = cuCtxPushCurrent(ctx);

	if (r)
		return false;
	r = cuCtxSynchronize();
	cuCtxPopCurrent(NULL);
	return r != CUDA_SUCCESS;
}

cudaError_t rt_reset(int dev)
{
	CUresult r;

	pthread_mutex_lock(&rt_lock);
	if (rt_retained[dev]) {
		if (rt_failed(rt_primaries[dev]))
			rt_unavailable[dev] = true;
		cuDevicePrimaryCtxRelease(dev);
		rt_retained[dev] = false;
	}
	r = cuDevicePrimaryCtxReset(dev);
	rt_generation[dev]++;
	rt_forget_device(dev);
	pthread_mutex_unlock(&rt_lock);
	return rt_error(r);
}

cudaError_t rt_primary(int dev, CUcontext *ctx)
{
	cudaError_t e = rt_init();
	CUresult r = CUDA_SUCCESS;

	if (e)
		return e;
	pthread_mutex_lock(&rt_lock);
	if (rt_unavailable[dev]) {
		pthread_mutex_unlock(&rt_lock);
		return cudaErrorDevicesUnavailable;
	}
	if (!rt_retained[dev]) {
		r = cuDevicePrimaryCtxRetain(&rt_primaries[dev], dev);
		rt_retained[dev] = r == CUDA_SUCCESS;
	}
	*ctx = rt_primaries[dev];
	pthread_mutex_unlock(&rt_lock);
	return rt_error(r);
}
