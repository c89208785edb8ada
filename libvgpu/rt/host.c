// SPDX-License-Identifier: MIT
/*
 * Page-locking memory the program already has (cudaHostRegister), the
 * device's address of page-locked memory (cudaHostGetDevicePointer) and the
 * flags it was made with (cudaHostGetFlags).
 */
#include "rt.h"

/* cudaHostRegister's flags are CU_MEMHOSTREGISTER_*'s. */
#define RT_HOST_REGISTER_FLAGS (cudaHostRegisterPortable | \
				cudaHostRegisterMapped | \
				cudaHostRegisterIoMemory | \
				cudaHostRegisterReadOnly)

cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags)
{
	cudaError_t e;

	if (!ptr || !size || (flags & ~RT_HOST_REGISTER_FLAGS))
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMemHostRegister(ptr, size, flags));
}

cudaError_t cudaHostUnregister(void *ptr)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	e = rt_error(cuMemHostUnregister(ptr));
	/*
	 * Memory a device knows that was never registered (cudaHostAlloc's,
	 * the device's own) is a bad value to an H100's runtime; what no
	 * device knows is not registered.
	 */
	if (e == cudaErrorHostMemoryNotRegistered && rt_known_to_device(ptr))
		e = cudaErrorInvalidValue;
	return rt_ret(e);
}

cudaError_t cudaHostGetDevicePointer(void **dev_ptr, void *host_ptr,
				     unsigned int flags)
{
	CUdeviceptr p = 0;
	cudaError_t e;

	/* A failed call leaves NULL, as NVIDIA's runtime does for bad flags. */
	if (dev_ptr)
		*dev_ptr = NULL;
	if (!dev_ptr || flags)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuMemHostGetDevicePointer(&p, host_ptr, 0));
	if (e == cudaSuccess)
		*dev_ptr = (void *)(uintptr_t)p;
	return e;
}

cudaError_t cudaHostGetFlags(unsigned int *flags, void *host_ptr)
{
	unsigned int f = 0;
	cudaError_t e;

	if (!flags || !host_ptr)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e)
		return rt_ret(e);
	/* What cudaHostAlloc or cudaHostRegister gave the driver. */
	e = rt_ret_cu(cuMemHostGetFlags(&f, host_ptr));
	if (e == cudaSuccess)
		*flags = f;
	return e;
}
