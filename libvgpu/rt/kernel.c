// SPDX-License-Identifier: MIT
/*
 * Kernels by their stub or handle: which function a stub, a runtime
 * kernel handle or a library's kernel names (rt_function), their names,
 * parameters, the driver's function and the kernel handle (cudaKernel_t,
 * which launches and answers as the stub does), per-device attributes and
 * the deprecated shared memory bank configuration.
 */
#include "rt.h"
#include "rt_abi.h"

/*
 * Whether @func is a library's kernel (cudaLibraryGetKernel's handle),
 * which the driver checks without reading through it.
 */
static bool rt_library_kernel(const void *func)
{
	CUlibrary lib;

	return func && cuKernelGetLibrary(&lib, (CUkernel)func) ==
		       CUDA_SUCCESS;
}

cudaError_t cudaFuncGetName(const char **name, const void *func)
{
	struct rt_kernel *k;

	if (!name)
		return rt_ret(cudaErrorInvalidValue);
	if (!func)
		return rt_ret(cudaErrorInvalidDeviceFunction);
	if (rt_library_kernel(func))
		return rt_ret_cu(cuKernelGetName(name, (CUkernel)func));
	k = rt_kernel_by_stub(func);
	if (!k)
		return rt_ret(cudaErrorInvalidResourceHandle);
	/* The device name, mangled, as NVIDIA's runtime gives it. */
	*name = k->name;
	return cudaSuccess;
}

cudaError_t rt_function(const void *func, cudaError_t unknown,
			CUfunction *fn)
{
	struct rt_kernel *k = rt_kernel_by_stub(func);
	cudaError_t e;

	/* CUDA 13 on an H100: no function is no device function. */
	if (!func)
		return cudaErrorInvalidDeviceFunction;
	if (!k && !rt_library_kernel(func))
		return unknown;
	e = rt_enter();
	if (e)
		return e;
	if (k)
		return rt_kernel_function(k, rt_device(), fn);
	/* The library loads into the current context at the first ask. */
	return rt_error(cuKernelGetFunction(fn, (CUkernel)func));
}

cudaError_t cudaFuncGetParamInfo(const void *func, size_t index,
				 size_t *offset, size_t *size)
{
	CUfunction fn;
	cudaError_t e;

	if (!offset || !size)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_function(func, cudaErrorInvalidResourceHandle, &fn);
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuFuncGetParamInfo(fn, index, offset, size));
}

/* An H100 takes a NULL output and answers cudaSuccess: so does vgpu. */
cudaError_t cudaGetFuncBySymbol(cudaFunction_t *function, const void *symbol)
{
	CUfunction fn;
	cudaError_t e = rt_function(symbol, cudaErrorInvalidDeviceFunction,
				     &fn);

	if (e)
		return rt_ret(e);
	if (function)
		*function = (cudaFunction_t)fn;
	return cudaSuccess;
}

cudaError_t cudaGetKernel(cudaKernel_t *kernel, const void *entry)
{
	return __cudaGetKernel(kernel, entry);
}

/*
 * Sets @attr of @kernel's function on @device, loading it there: in the
 * device's primary context, current for the call.
 */
cudaError_t cudaKernelSetAttributeForDevice(cudaKernel_t kernel,
					    enum cudaFuncAttribute attr,
					    int value, int device)
{
	struct rt_kernel *k = rt_kernel_by_stub((const void *)kernel);
	CUcontext ctx, prev;
	CUfunction fn;
	cudaError_t e;

	if (!k)
		return rt_ret(cudaErrorInvalidResourceHandle);
	e = rt_check_device(device);
	if (e == cudaSuccess)
		e = rt_primary(device, &ctx);
	if (e)
		return rt_ret(e);
	e = rt_error(cuCtxPushCurrent(ctx));
	if (e)
		return rt_ret(e);
	e = rt_kernel_function(k, device, &fn);
	/* cudaFuncAttribute's values are CUfunction_attribute's. */
	if (e == cudaSuccess)
		e = rt_error(cuFuncSetAttribute(fn, (CUfunction_attribute)attr,
						value));
	cuCtxPopCurrent(&prev);
	return rt_ret(e);
}

/* cudaSharedMemConfig's values are CUsharedconfig's. */
cudaError_t cudaFuncSetSharedMemConfig(const void *func,
				       enum cudaSharedMemConfig config)
{
	CUfunction fn;
	cudaError_t e = rt_function(func, cudaErrorInvalidResourceHandle,
				     &fn);

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuFuncSetSharedMemConfig(fn, (CUsharedconfig)config));
}
