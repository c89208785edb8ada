// SPDX-License-Identifier: MIT
/*
 * The memory calls of the first ABI, with 32-bit device pointers and
 * sizes (the unversioned cuMemAlloc, cuMemcpyHtoD, cuMemsetD8, ...).
 * They serve only contexts of that ABI, whose API version is 3010; every
 * context of NVIDIA's driver since CUDA 3.2, and every one of vgpu
 * (cuCtxGetApiVersion), is 3020. So on an H100 each of them answers
 * CUDA_ERROR_INVALID_CONTEXT, with a current context or without, after
 * clearing the outputs it was given (tests/e2e/ref/h100_compat.log);
 * vgpu does the same. cuMemHostRegister, which has no 32-bit argument,
 * works.
 */
#include "vg.h"

/* The refused calls read none of their arguments. */
#pragma GCC diagnostic ignored "-Wunused-parameter"

/* The macros of cuda.h would rename the definitions below. */
#undef cuMemAlloc
#undef cuMemAllocHost
#undef cuMemAllocPitch
#undef cuMemFree
#undef cuMemGetAddressRange
#undef cuMemGetInfo
#undef cuMemHostGetDevicePointer
#undef cuMemHostRegister
#undef cuMemcpy2D
#undef cuMemcpy2DAsync
#undef cuMemcpy2DUnaligned
#undef cuMemcpy3D
#undef cuMemcpy3DAsync
#undef cuMemcpyDtoD
#undef cuMemcpyDtoDAsync
#undef cuMemcpyDtoH
#undef cuMemcpyDtoHAsync
#undef cuMemcpyHtoD
#undef cuMemcpyHtoDAsync
#undef cuMemsetD16
#undef cuMemsetD2D16
#undef cuMemsetD2D32
#undef cuMemsetD2D8
#undef cuMemsetD32
#undef cuMemsetD8
#undef cuModuleGetGlobal

/* Types of the first ABI, named only by its entry points. */
typedef unsigned int CUdeviceptr_v1;
typedef struct CUDA_MEMCPY2D_v1_st CUDA_MEMCPY2D_v1;
typedef struct CUDA_MEMCPY3D_v1_st CUDA_MEMCPY3D_v1;

CUresult cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytes);
CUresult cuMemAllocHost(void **pp, unsigned int bytes);
CUresult cuMemAllocPitch(CUdeviceptr_v1 *dptr, unsigned int *pitch,
			 unsigned int width, unsigned int height,
			 unsigned int element_size);
CUresult cuMemFree(CUdeviceptr_v1 dptr);
CUresult cuMemGetAddressRange(CUdeviceptr_v1 *base, unsigned int *size,
			      CUdeviceptr_v1 dptr);
CUresult cuMemGetInfo(unsigned int *free_bytes, unsigned int *total_bytes);
CUresult cuMemHostGetDevicePointer(CUdeviceptr_v1 *pdptr, void *p,
				   unsigned int flags);
CUresult cuMemHostRegister(void *p, size_t bytes, unsigned int flags);
CUresult cuMemcpy2D(const CUDA_MEMCPY2D_v1 *p);
CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D_v1 *p, CUstream s);
CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D_v1 *p);
CUresult cuMemcpy3D(const CUDA_MEMCPY3D_v1 *p);
CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D_v1 *p, CUstream s);
CUresult cuMemcpyDtoD(CUdeviceptr_v1 dst, CUdeviceptr_v1 src, unsigned int n);
CUresult cuMemcpyDtoDAsync(CUdeviceptr_v1 dst, CUdeviceptr_v1 src,
			   unsigned int n, CUstream s);
CUresult cuMemcpyDtoH(void *dst, CUdeviceptr_v1 src, unsigned int n);
CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr_v1 src, unsigned int n,
			   CUstream s);
CUresult cuMemcpyHtoD(CUdeviceptr_v1 dst, const void *src, unsigned int n);
CUresult cuMemcpyHtoDAsync(CUdeviceptr_v1 dst, const void *src,
			   unsigned int n, CUstream s);
CUresult cuMemsetD8(CUdeviceptr_v1 dst, unsigned char v, unsigned int n);
CUresult cuMemsetD16(CUdeviceptr_v1 dst, unsigned short v, unsigned int n);
CUresult cuMemsetD32(CUdeviceptr_v1 dst, unsigned int v, unsigned int n);
CUresult cuMemsetD2D8(CUdeviceptr_v1 dst, unsigned int pitch, unsigned char v,
		      unsigned int width, unsigned int height);
CUresult cuMemsetD2D16(CUdeviceptr_v1 dst, unsigned int pitch,
		       unsigned short v, unsigned int width,
		       unsigned int height);
CUresult cuMemsetD2D32(CUdeviceptr_v1 dst, unsigned int pitch, unsigned int v,
		       unsigned int width, unsigned int height);
CUresult cuModuleGetGlobal(CUdeviceptr_v1 *dptr, unsigned int *bytes,
			   CUmodule mod, const char *name);

/* What each call of the first ABI answers once initialized. */
static CUresult vg_v1_refused(void)
{
	CUresult r = vg_check_init();

	return r ? r : CUDA_ERROR_INVALID_CONTEXT;
}

/* Clears the outputs given (either may be NULL), then refuses. */
static CUresult vg_v1_cleared(unsigned int *a, unsigned int *b)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (a)
		*a = 0;
	if (b)
		*b = 0;
	return CUDA_ERROR_INVALID_CONTEXT;
}

CUresult cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytes)
{
	return vg_v1_cleared(dptr, NULL);
}

CUresult cuMemAllocHost(void **pp, unsigned int bytes)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (pp)
		*pp = NULL;
	return CUDA_ERROR_INVALID_CONTEXT;
}

CUresult cuMemAllocPitch(CUdeviceptr_v1 *dptr, unsigned int *pitch,
			 unsigned int width, unsigned int height,
			 unsigned int element_size)
{
	return vg_v1_cleared(dptr, pitch);
}

CUresult cuMemFree(CUdeviceptr_v1 dptr)
{
	return vg_v1_refused();
}

CUresult cuMemGetAddressRange(CUdeviceptr_v1 *base, unsigned int *size,
			      CUdeviceptr_v1 dptr)
{
	return vg_v1_cleared(base, size);
}

CUresult cuMemGetInfo(unsigned int *free_bytes, unsigned int *total_bytes)
{
	return vg_v1_cleared(free_bytes, total_bytes);
}

CUresult cuMemHostGetDevicePointer(CUdeviceptr_v1 *pdptr, void *p,
				   unsigned int flags)
{
	return vg_v1_cleared(pdptr, NULL);
}

/*
 * The H100 takes any flags here (0x100 included), where the current
 * entry point refuses unknown ones: the flags the first ABI defined are
 * kept, the others dropped.
 */
CUresult cuMemHostRegister(void *p, size_t bytes, unsigned int flags)
{
	return cuMemHostRegister_v2(p, bytes, flags &
				    (CU_MEMHOSTREGISTER_PORTABLE |
				     CU_MEMHOSTREGISTER_DEVICEMAP));
}

CUresult cuMemcpy2D(const CUDA_MEMCPY2D_v1 *p)
{
	return vg_v1_refused();
}

CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D_v1 *p, CUstream s)
{
	return vg_v1_refused();
}

CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D_v1 *p)
{
	return vg_v1_refused();
}

CUresult cuMemcpy3D(const CUDA_MEMCPY3D_v1 *p)
{
	return vg_v1_refused();
}

CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D_v1 *p, CUstream s)
{
	return vg_v1_refused();
}

CUresult cuMemcpyDtoD(CUdeviceptr_v1 dst, CUdeviceptr_v1 src, unsigned int n)
{
	return vg_v1_refused();
}

CUresult cuMemcpyDtoDAsync(CUdeviceptr_v1 dst, CUdeviceptr_v1 src,
			   unsigned int n, CUstream s)
{
	return vg_v1_refused();
}

CUresult cuMemcpyDtoH(void *dst, CUdeviceptr_v1 src, unsigned int n)
{
	return vg_v1_refused();
}

CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr_v1 src, unsigned int n,
			   CUstream s)
{
	return vg_v1_refused();
}

CUresult cuMemcpyHtoD(CUdeviceptr_v1 dst, const void *src, unsigned int n)
{
	return vg_v1_refused();
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr_v1 dst, const void *src,
			   unsigned int n, CUstream s)
{
	return vg_v1_refused();
}

CUresult cuMemsetD8(CUdeviceptr_v1 dst, unsigned char v, unsigned int n)
{
	return vg_v1_refused();
}

CUresult cuMemsetD16(CUdeviceptr_v1 dst, unsigned short v, unsigned int n)
{
	return vg_v1_refused();
}

CUresult cuMemsetD32(CUdeviceptr_v1 dst, unsigned int v, unsigned int n)
{
	return vg_v1_refused();
}

CUresult cuMemsetD2D8(CUdeviceptr_v1 dst, unsigned int pitch, unsigned char v,
		      unsigned int width, unsigned int height)
{
	return vg_v1_refused();
}

CUresult cuMemsetD2D16(CUdeviceptr_v1 dst, unsigned int pitch,
		       unsigned short v, unsigned int width,
		       unsigned int height)
{
	return vg_v1_refused();
}

CUresult cuMemsetD2D32(CUdeviceptr_v1 dst, unsigned int pitch, unsigned int v,
		       unsigned int width, unsigned int height)
{
	return vg_v1_refused();
}

CUresult cuModuleGetGlobal(CUdeviceptr_v1 *dptr, unsigned int *bytes,
			   CUmodule mod, const char *name)
{
	return vg_v1_cleared(dptr, bytes);
}
