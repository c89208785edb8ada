/* SPDX-License-Identifier: MIT */
/*
 * The entry points nvcc's generated host code calls (its registration
 * and launch ABI), which the toolkit declares only for C++ and for
 * nvcc's own use: their C prototypes, as the library defines them.
 */
#ifndef VG_RT_ABI_H
#define VG_RT_ABI_H

#include "rt.h"

void **__cudaRegisterFatBinary(void *fat_cubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaUnregisterFatBinary(void **handle);
void __cudaRegisterFunction(void **handle, const char *host_fun,
			    char *device_fun, const char *device_name,
			    int thread_limit, uint3 *tid, uint3 *bid,
			    dim3 *block_dim, dim3 *grid_dim, int *warp_size);
void __cudaRegisterVar(void **handle, char *host_var, char *device_address,
		       const char *device_name, int ext, size_t size,
		       int constant, int global);
void __cudaRegisterManagedVar(void **handle, void **host_ptr,
			      char *device_address, const char *device_name,
			      int ext, size_t size, int constant, int global);
char __cudaInitModule(void **handle);
unsigned int __cudaPushCallConfiguration(dim3 grid, dim3 block,
					 size_t shared_mem,
					 struct CUstream_st *stream);
cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block,
				       size_t *shared_mem, void *stream);
cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *host_fun);
cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block,
			       void **args, size_t shared_mem,
			       cudaStream_t stream);
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid,
				    dim3 block, void **args,
				    size_t shared_mem, cudaStream_t stream);

#endif /* VG_RT_ABI_H */
