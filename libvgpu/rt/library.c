// SPDX-License-Identifier: MIT
/*
 * Library management (cudaLibrary*): code loaded at run time, apart from
 * what nvcc registered, through the driver's libraries, which load into a
 * context when first used there. A library's kernels are the driver's
 * CUkernel handles; the runtime's launch and attribute calls take them
 * (kernel.c). The JIT and library option enums are the driver's, value
 * for value.
 */
#include "rt.h"

cudaError_t cudaLibraryLoadData(cudaLibrary_t *library, const void *code,
				enum cudaJitOption *jit_options,
				void **jit_values, unsigned int njit,
				enum cudaLibraryOption *lib_options,
				void **lib_values, unsigned int nlib)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuLibraryLoadData((CUlibrary *)library, code,
					   (CUjit_option *)jit_options,
					   jit_values, njit,
					   (CUlibraryOption *)lib_options,
					   lib_values, nlib));
}

cudaError_t cudaLibraryLoadFromFile(cudaLibrary_t *library, const char *path,
				    enum cudaJitOption *jit_options,
				    void **jit_values, unsigned int njit,
				    enum cudaLibraryOption *lib_options,
				    void **lib_values, unsigned int nlib)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuLibraryLoadFromFile((CUlibrary *)library, path,
					       (CUjit_option *)jit_options,
					       jit_values, njit,
					       (CUlibraryOption *)lib_options,
					       lib_values, nlib));
}

cudaError_t cudaLibraryUnload(cudaLibrary_t library)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuLibraryUnload((CUlibrary)library));
}

cudaError_t cudaLibraryGetKernel(cudaKernel_t *kernel, cudaLibrary_t library,
				 const char *name)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuLibraryGetKernel((CUkernel *)kernel,
					    (CUlibrary)library, name));
}

/*
 * An image the library could not load has no kernels: NVIDIA's runtime
 * counts 0 and succeeds where the driver answers the image's error (an
 * H100, tests/samples/rt/ref/h100_rt_library.log).
 */
cudaError_t cudaLibraryGetKernelCount(unsigned int *count,
				      cudaLibrary_t library)
{
	cudaError_t e = rt_init();
	CUresult r;

	if (e)
		return rt_ret(e);
	r = cuLibraryGetKernelCount(count, (CUlibrary)library);
	if (count && (r == CUDA_ERROR_INVALID_IMAGE ||
		      r == CUDA_ERROR_INVALID_PTX ||
		      r == CUDA_ERROR_NO_BINARY_FOR_GPU)) {
		*count = 0;
		return cudaSuccess;
	}
	return rt_ret_cu(r);
}

cudaError_t cudaLibraryEnumerateKernels(cudaKernel_t *kernels,
					unsigned int n, cudaLibrary_t library)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuLibraryEnumerateKernels((CUkernel *)kernels, n,
						   (CUlibrary)library));
}

/* The variable in the thread's device's current context. */
cudaError_t cudaLibraryGetGlobal(void **dptr, size_t *bytes,
				 cudaLibrary_t library, const char *name)
{
	CUdeviceptr p = 0;
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuLibraryGetGlobal(dptr ? &p : NULL, bytes,
					 (CUlibrary)library, name));
	if (e == cudaSuccess && dptr)
		*dptr = (void *)(uintptr_t)p;
	return e;
}

cudaError_t cudaLibraryGetManaged(void **dptr, size_t *bytes,
				  cudaLibrary_t library, const char *name)
{
	CUdeviceptr p = 0;
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	e = rt_ret_cu(cuLibraryGetManaged(dptr ? &p : NULL, bytes,
					  (CUlibrary)library, name));
	if (e == cudaSuccess && dptr)
		*dptr = (void *)(uintptr_t)p;
	return e;
}

cudaError_t cudaLibraryGetUnifiedFunction(void **fptr, cudaLibrary_t library,
					  const char *symbol)
{
	cudaError_t e = rt_init();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuLibraryGetUnifiedFunction(fptr, (CUlibrary)library,
						     symbol));
}
