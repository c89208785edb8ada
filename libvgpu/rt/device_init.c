// SPDX-License-Identifier: MIT
/*
 * Choosing a device by its properties (cudaChooseDevice) and initialising
 * one without making it current (cudaInitDevice).
 */
#include <stdlib.h>

#include "rt.h"

/*
 * The device whose compute capability is nearest @prop's: every vgpu
 * device has the same properties otherwise, so that is the one that can
 * differ (an H100 answers its only device for any capability asked).
 */
cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop)
{
	long want, best_gap = -1;
	int count = 0, dev, best = 0;
	cudaError_t e;

	if (!device || !prop)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_init();
	if (e == cudaSuccess)
		e = rt_error(cuDeviceGetCount(&count));
	if (e)
		return rt_ret(e);
	want = (long)prop->major * 10 + prop->minor;
	for (dev = 0; dev < count; dev++) {
		int major = 0, minor = 0;
		long gap;

		e = rt_error(cuDeviceGetAttribute(&major,
				CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
				dev));
		if (e == cudaSuccess)
			e = rt_error(cuDeviceGetAttribute(&minor,
				CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
				dev));
		if (e)
			return rt_ret(e);
		gap = labs((long)major * 10 + minor - want);
		if (best_gap < 0 || gap < best_gap) {
			best = dev;
			best_gap = gap;
		}
	}
	*device = best;
	return cudaSuccess;
}

/*
 * Retains @device's primary context for the runtime, applying
 * @device_flags first when @flags says they are meant. Other bits of
 * @flags are ignored, as an H100 ignores them.
 */
cudaError_t cudaInitDevice(int device, unsigned int device_flags,
			   unsigned int flags)
{
	CUcontext ctx;
	cudaError_t e = rt_check_device(device);

	if (e)
		return rt_ret(e);
	if (flags & cudaInitDeviceFlagsAreValid) {
		e = rt_device_flags(device, device_flags);
		if (e)
			return rt_ret(e);
	}
	return rt_ret(rt_primary(device, &ctx));
}
