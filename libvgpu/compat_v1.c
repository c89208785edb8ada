// SPDX-License-Identifier: MIT
/*
 * The memory calls of the first ABI, with 32-bit device pointers and
 * sizes (the unversioned cuMemAlloc, cuMemcpyHtoD, cuMemsetD8, ...).
 * They serve contexts of that ABI, made by the unsuffixed cuCtxCreate,
 * whose API version is 3010 and whose device addresses lie below 4 GiB
 * (abi_v1.c): there each forwards to the current implementation, its
 * 32-bit values widened, and a result that would not fit 32 bits is
 * CUDA_ERROR_OUT_OF_MEMORY (tests/e2e/ref/h100_ctx_v1.log). Every other
 * context, the primary ones included, is of API version 3020; there, and
 * with no context, each of them answers CUDA_ERROR_INVALID_CONTEXT after
 * clearing the outputs it was given, as on an H100
 * (tests/e2e/ref/h100_compat.log). cuMemHostRegister, which has no 32-bit
 * argument, works in any context.
 */
#include "abi_v1.h"
#include "vg.h"

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

/* Stores @v in *@out, if given, unless it does not fit the first ABI. */
static CUresult vg_v1_narrow(uint64_t v, unsigned int *out)
{
	if (v > UINT32_MAX)
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (out)
		*out = (unsigned int)v;
	return CUDA_SUCCESS;
}

/* A byte count of the current ABI as the first sees it: at most 4 GiB - 1. */
static unsigned int vg_v1_saturate(size_t n)
{
	return n > UINT32_MAX ? UINT32_MAX : (unsigned int)n;
}

/*
 * Gives out an allocation of @bytes at @va, or frees it if it would end
 * beyond the 32-bit space: a context of the first ABI places none there,
 * the check only keeps the promise explicit.
 */
static CUresult vg_v1_give(CUdeviceptr va, uint64_t bytes,
			   CUdeviceptr_v1 *dptr)
{
	if (va + bytes > VG_V1_VA_END) {
		vg_mem_free(va);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	*dptr = (CUdeviceptr_v1)va;
	return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytes)
{
	CUdeviceptr va;
	CUresult r = vg_v1_enter(dptr, NULL);

	if (r)
		return r;
	if (!dptr || !bytes)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_mem_alloc(&va, bytes);
	return r ? r : vg_v1_give(va, bytes, dptr);
}

CUresult cuMemAllocHost(void **pp, unsigned int bytes)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	if (r == CUDA_ERROR_INVALID_CONTEXT && pp)
		*pp = NULL;
	return r ? r : cuMemAllocHost_v2(pp, bytes);
}

CUresult cuMemAllocPitch(CUdeviceptr_v1 *dptr, unsigned int *pitch,
			 unsigned int width, unsigned int height,
			 unsigned int element_size)
{
	CUdeviceptr va;
	size_t p;
	CUresult r = vg_v1_enter(dptr, pitch);

	if (r)
		return r;
	if (!dptr || !pitch)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_mem_alloc_pitch(&va, &p, width, height, element_size);
	if (r)
		return r;
	if (p > UINT32_MAX) {
		vg_mem_free(va);
		return CUDA_ERROR_OUT_OF_MEMORY;
	}
	r = vg_v1_give(va, (uint64_t)p * height, dptr);
	if (r == CUDA_SUCCESS)
		*pitch = (unsigned int)p;
	return r;
}

CUresult cuMemFree(CUdeviceptr_v1 dptr)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : vg_mem_free(dptr);
}

CUresult cuMemGetAddressRange(CUdeviceptr_v1 *base, unsigned int *size,
			      CUdeviceptr_v1 dptr)
{
	CUdeviceptr b;
	size_t n;
	CUresult r = vg_v1_enter(base, size);

	if (!r)
		r = cuMemGetAddressRange_v2(&b, &n, dptr);
	if (!r)
		r = vg_v1_narrow(b, base);
	if (!r)
		r = vg_v1_narrow(n, size);
	return r;
}

/* Sizes beyond 32 bits read as 4 GiB - 1, as cuDeviceTotalMem's do. */
CUresult cuMemGetInfo(unsigned int *free_bytes, unsigned int *total_bytes)
{
	size_t f, t;
	CUresult r = vg_v1_enter(free_bytes, total_bytes);

	if (!r)
		r = cuMemGetInfo_v2(&f, &t);
	if (r)
		return r;
	if (free_bytes)
		*free_bytes = vg_v1_saturate(f);
	if (total_bytes)
		*total_bytes = vg_v1_saturate(t);
	return CUDA_SUCCESS;
}

/*
 * Mapped host memory is reached at its host address, which only a program
 * whose heap lies below 4 GiB sees here: others get OUT_OF_MEMORY.
 */
CUresult cuMemHostGetDevicePointer(CUdeviceptr_v1 *pdptr, void *p,
				   unsigned int flags)
{
	CUdeviceptr d = 0;
	CUresult r = vg_v1_enter(pdptr, NULL);

	if (!r)
		r = cuMemHostGetDevicePointer_v2(pdptr ? &d : NULL, p, flags);
	return r ? r : vg_v1_narrow(d, pdptr);
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

static void vg_v1_widen2d(CUDA_MEMCPY2D *c, const CUDA_MEMCPY2D_v1 *p)
{
	*c = (CUDA_MEMCPY2D) {
		.srcXInBytes = p->srcXInBytes,
		.srcY = p->srcY,
		.srcMemoryType = p->srcMemoryType,
		.srcHost = p->srcHost,
		.srcDevice = p->srcDevice,
		.srcArray = p->srcArray,
		.srcPitch = p->srcPitch,
		.dstXInBytes = p->dstXInBytes,
		.dstY = p->dstY,
		.dstMemoryType = p->dstMemoryType,
		.dstHost = p->dstHost,
		.dstDevice = p->dstDevice,
		.dstArray = p->dstArray,
		.dstPitch = p->dstPitch,
		.WidthInBytes = p->WidthInBytes,
		.Height = p->Height,
	};
}

static void vg_v1_widen3d(CUDA_MEMCPY3D *c, const CUDA_MEMCPY3D_v1 *p)
{
	*c = (CUDA_MEMCPY3D) {
		.srcXInBytes = p->srcXInBytes,
		.srcY = p->srcY,
		.srcZ = p->srcZ,
		.srcLOD = p->srcLOD,
		.srcMemoryType = p->srcMemoryType,
		.srcHost = p->srcHost,
		.srcDevice = p->srcDevice,
		.srcArray = p->srcArray,
		.reserved0 = p->reserved0,
		.srcPitch = p->srcPitch,
		.srcHeight = p->srcHeight,
		.dstXInBytes = p->dstXInBytes,
		.dstY = p->dstY,
		.dstZ = p->dstZ,
		.dstLOD = p->dstLOD,
		.dstMemoryType = p->dstMemoryType,
		.dstHost = p->dstHost,
		.dstDevice = p->dstDevice,
		.dstArray = p->dstArray,
		.reserved1 = p->reserved1,
		.dstPitch = p->dstPitch,
		.dstHeight = p->dstHeight,
		.WidthInBytes = p->WidthInBytes,
		.Height = p->Height,
		.Depth = p->Depth,
	};
}

/*
 * The 2D copies: @p widened (NULL stays NULL, for the current entry
 * point to refuse), then handed to @copy.
 */
static CUresult vg_v1_copy2d(const CUDA_MEMCPY2D_v1 *p, CUstream s,
			     CUresult (*copy)(const CUDA_MEMCPY2D *, CUstream))
{
	CUDA_MEMCPY2D c;
	CUresult r = vg_v1_enter(NULL, NULL);

	if (r)
		return r;
	if (p)
		vg_v1_widen2d(&c, p);
	return copy(p ? &c : NULL, s);
}

static CUresult vg_v1_copy2d_sync(const CUDA_MEMCPY2D *c, CUstream s)
{
	(void)s;
	return cuMemcpy2D_v2(c);
}

static CUresult vg_v1_copy2d_unaligned(const CUDA_MEMCPY2D *c, CUstream s)
{
	(void)s;
	return cuMemcpy2DUnaligned_v2(c);
}

CUresult cuMemcpy2D(const CUDA_MEMCPY2D_v1 *p)
{
	return vg_v1_copy2d(p, NULL, vg_v1_copy2d_sync);
}

CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D_v1 *p, CUstream s)
{
	return vg_v1_copy2d(p, s, cuMemcpy2DAsync_v2);
}

CUresult cuMemcpy2DUnaligned(const CUDA_MEMCPY2D_v1 *p)
{
	return vg_v1_copy2d(p, NULL, vg_v1_copy2d_unaligned);
}

static CUresult vg_v1_copy3d(const CUDA_MEMCPY3D_v1 *p, bool async,
			     CUstream s)
{
	CUDA_MEMCPY3D c;
	CUresult r = vg_v1_enter(NULL, NULL);

	if (r)
		return r;
	if (p)
		vg_v1_widen3d(&c, p);
	return async ? cuMemcpy3DAsync_v2(p ? &c : NULL, s) :
		cuMemcpy3D_v2(p ? &c : NULL);
}

CUresult cuMemcpy3D(const CUDA_MEMCPY3D_v1 *p)
{
	return vg_v1_copy3d(p, false, NULL);
}

CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D_v1 *p, CUstream s)
{
	return vg_v1_copy3d(p, true, s);
}

CUresult cuMemcpyDtoD(CUdeviceptr_v1 dst, CUdeviceptr_v1 src, unsigned int n)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemcpyDtoD_v2(dst, src, n);
}

CUresult cuMemcpyDtoDAsync(CUdeviceptr_v1 dst, CUdeviceptr_v1 src,
			   unsigned int n, CUstream s)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemcpyDtoDAsync_v2(dst, src, n, s);
}

CUresult cuMemcpyDtoH(void *dst, CUdeviceptr_v1 src, unsigned int n)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemcpyDtoH_v2(dst, src, n);
}

CUresult cuMemcpyDtoHAsync(void *dst, CUdeviceptr_v1 src, unsigned int n,
			   CUstream s)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemcpyDtoHAsync_v2(dst, src, n, s);
}

CUresult cuMemcpyHtoD(CUdeviceptr_v1 dst, const void *src, unsigned int n)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemcpyHtoD_v2(dst, src, n);
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr_v1 dst, const void *src,
			   unsigned int n, CUstream s)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemcpyHtoDAsync_v2(dst, src, n, s);
}

CUresult cuMemsetD8(CUdeviceptr_v1 dst, unsigned char v, unsigned int n)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemsetD8_v2(dst, v, n);
}

CUresult cuMemsetD16(CUdeviceptr_v1 dst, unsigned short v, unsigned int n)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemsetD16_v2(dst, v, n);
}

CUresult cuMemsetD32(CUdeviceptr_v1 dst, unsigned int v, unsigned int n)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemsetD32_v2(dst, v, n);
}

CUresult cuMemsetD2D8(CUdeviceptr_v1 dst, unsigned int pitch, unsigned char v,
		      unsigned int width, unsigned int height)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemsetD2D8_v2(dst, pitch, v, width, height);
}

CUresult cuMemsetD2D16(CUdeviceptr_v1 dst, unsigned int pitch,
		       unsigned short v, unsigned int width,
		       unsigned int height)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemsetD2D16_v2(dst, pitch, v, width, height);
}

CUresult cuMemsetD2D32(CUdeviceptr_v1 dst, unsigned int pitch, unsigned int v,
		       unsigned int width, unsigned int height)
{
	CUresult r = vg_v1_enter(NULL, NULL);

	return r ? r : cuMemsetD2D32_v2(dst, pitch, v, width, height);
}

CUresult cuModuleGetGlobal(CUdeviceptr_v1 *dptr, unsigned int *bytes,
			   CUmodule mod, const char *name)
{
	CUdeviceptr d;
	size_t n;
	CUresult r = vg_v1_enter(dptr, bytes);

	if (!r)
		r = cuModuleGetGlobal_v2(dptr ? &d : NULL, bytes ? &n : NULL,
					 mod, name);
	if (!r && dptr)
		r = vg_v1_narrow(d, dptr);
	if (!r && bytes)
		r = vg_v1_narrow(n, bytes);
	return r;
}
