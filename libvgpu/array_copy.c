// SPDX-License-Identifier: MIT
/*
 * Copies with CUDA arrays: cuMemcpyHtoA, AtoH, AtoA, DtoA, AtoD and their
 * asynchronous and per-thread-stream forms, and the array sides of
 * cuMemcpy2D and cuMemcpy3D (copy.c hands them to vg_array_sides2d/3d).
 * An array side becomes the device memory it is (array.c: rows packed,
 * slices of rows), checked against the array before anything moves; the
 * copy is then copy.c's, synchronous or not as device-memory copies are.
 *
 * What each reaches, as on an H100 (tests/e2e/ref/h100_array.log): the 1D
 * copies the first row of an array (all of a 1D one), at any byte offset
 * and size; a 2D copy the first slice, its X in bytes and Y in rows; a 3D
 * copy all slices, of level 0 (copy.c refuses another LOD). A mipmapped
 * array's level is an array of its own here.
 */
#include "vg.h"

/* Byte @off of the first row of @a, for @n bytes from there. */
static CUresult vg_array_row(CUarray a, size_t off, size_t n, CUdeviceptr *va)
{
	size_t pitch, rows;
	CUresult r = vg_check_init();

	if (r == CUDA_SUCCESS)
		r = vg_array_side(a, off, 0, 0, n, 1, 1, va, &pitch, &rows);
	if (r == CUDA_SUCCESS)
		*va += off;
	return r;
}

static CUresult vg_htoa(CUarray dst, size_t off, const void *src, size_t n,
			bool async, CUstream hs)
{
	CUdeviceptr va;
	CUresult r = vg_array_row(dst, off, n, &va);

	return r ? r : vg_copy(VG_HTOD, va, (uintptr_t)src, n, async, hs);
}

static CUresult vg_atoh(void *dst, CUarray src, size_t off, size_t n,
			bool async, CUstream hs)
{
	CUdeviceptr va;
	CUresult r = vg_array_row(src, off, n, &va);

	return r ? r : vg_copy(VG_DTOH, (uintptr_t)dst, va, n, async, hs);
}

static CUresult vg_dtoa(CUarray dst, size_t off, CUdeviceptr src, size_t n,
			CUstream hs)
{
	CUdeviceptr va;
	CUresult r = vg_array_row(dst, off, n, &va);

	return r ? r : vg_copy(VG_DTOD, va, src, n, false, hs);
}

static CUresult vg_atod(CUdeviceptr dst, CUarray src, size_t off, size_t n,
			CUstream hs)
{
	CUdeviceptr va;
	CUresult r = vg_array_row(src, off, n, &va);

	return r ? r : vg_copy(VG_DTOD, dst, va, n, false, hs);
}

static CUresult vg_atoa(CUarray dst, size_t doff, CUarray src, size_t soff,
			size_t n, CUstream hs)
{
	CUdeviceptr d, s;
	CUresult r = vg_array_row(dst, doff, n, &d);

	if (r == CUDA_SUCCESS)
		r = vg_array_row(src, soff, n, &s);
	return r ? r : vg_copy(VG_DTOD, d, s, n, false, hs);
}

CUresult cuMemcpyHtoA_v2(CUarray dst, size_t off, const void *src, size_t n)
{
	return vg_htoa(dst, off, src, n, false, NULL);
}

CUresult cuMemcpyAtoH_v2(void *dst, CUarray src, size_t off, size_t n)
{
	return vg_atoh(dst, src, off, n, false, NULL);
}

CUresult cuMemcpyDtoA_v2(CUarray dst, size_t off, CUdeviceptr src, size_t n)
{
	return vg_dtoa(dst, off, src, n, NULL);
}

CUresult cuMemcpyAtoD_v2(CUdeviceptr dst, CUarray src, size_t off, size_t n)
{
	return vg_atod(dst, src, off, n, NULL);
}

CUresult cuMemcpyAtoA_v2(CUarray dst, size_t doff, CUarray src, size_t soff,
			 size_t n)
{
	return vg_atoa(dst, doff, src, soff, n, NULL);
}

CUresult cuMemcpyHtoAAsync_v2(CUarray dst, size_t off, const void *src,
			      size_t n, CUstream hs)
{
	return vg_htoa(dst, off, src, n, true, hs);
}

CUresult cuMemcpyAtoHAsync_v2(void *dst, CUarray src, size_t off, size_t n,
			      CUstream hs)
{
	return vg_atoh(dst, src, off, n, true, hs);
}

/* The per-thread default stream's forms (ptds.c says why there are two). */
CUresult cuMemcpyHtoA_v2_ptds(CUarray dst, size_t off, const void *src,
			      size_t n)
{
	return vg_htoa(dst, off, src, n, false, CU_STREAM_PER_THREAD);
}

CUresult cuMemcpyAtoH_v2_ptds(void *dst, CUarray src, size_t off, size_t n)
{
	return vg_atoh(dst, src, off, n, false, CU_STREAM_PER_THREAD);
}

CUresult cuMemcpyDtoA_v2_ptds(CUarray dst, size_t off, CUdeviceptr src,
			      size_t n)
{
	return vg_dtoa(dst, off, src, n, CU_STREAM_PER_THREAD);
}

CUresult cuMemcpyAtoD_v2_ptds(CUdeviceptr dst, CUarray src, size_t off,
			      size_t n)
{
	return vg_atod(dst, src, off, n, CU_STREAM_PER_THREAD);
}

CUresult cuMemcpyAtoA_v2_ptds(CUarray dst, size_t doff, CUarray src,
			      size_t soff, size_t n)
{
	return vg_atoa(dst, doff, src, soff, n, CU_STREAM_PER_THREAD);
}

CUresult cuMemcpyHtoAAsync_v2_ptsz(CUarray dst, size_t off, const void *src,
				   size_t n, CUstream hs)
{
	return vg_htoa(dst, off, src, n, true, hs ? hs : CU_STREAM_PER_THREAD);
}

CUresult cuMemcpyAtoHAsync_v2_ptsz(void *dst, CUarray src, size_t off,
				   size_t n, CUstream hs)
{
	return vg_atoh(dst, src, off, n, true, hs ? hs : CU_STREAM_PER_THREAD);
}

/*
 * @p with its array sides as device memory, in @c: the first slice of an
 * array, its rows packed. An empty copy moves nothing and checks nothing.
 */
CUresult vg_array_sides2d(const CUDA_MEMCPY2D *p, CUDA_MEMCPY2D *c)
{
	size_t rows;
	CUresult r = CUDA_SUCCESS;

	*c = *p;
	if (!p->WidthInBytes || !p->Height)
		return r;
	if (p->srcMemoryType == CU_MEMORYTYPE_ARRAY) {
		r = vg_array_side(p->srcArray, p->srcXInBytes, p->srcY, 0,
				  p->WidthInBytes, p->Height, 1, &c->srcDevice,
				  &c->srcPitch, &rows);
		c->srcMemoryType = CU_MEMORYTYPE_DEVICE;
	}
	if (r == CUDA_SUCCESS && p->dstMemoryType == CU_MEMORYTYPE_ARRAY) {
		r = vg_array_side(p->dstArray, p->dstXInBytes, p->dstY, 0,
				  p->WidthInBytes, p->Height, 1, &c->dstDevice,
				  &c->dstPitch, &rows);
		c->dstMemoryType = CU_MEMORYTYPE_DEVICE;
	}
	return r;
}

/* The same for a 3D copy: slices of an array are its layers or depth. */
CUresult vg_array_sides3d(const CUDA_MEMCPY3D *p, CUDA_MEMCPY3D *c)
{
	CUresult r = CUDA_SUCCESS;

	*c = *p;
	if (!p->WidthInBytes || !p->Height || !p->Depth)
		return r;
	if (p->srcMemoryType == CU_MEMORYTYPE_ARRAY) {
		r = vg_array_side(p->srcArray, p->srcXInBytes, p->srcY, p->srcZ,
				  p->WidthInBytes, p->Height, p->Depth,
				  &c->srcDevice, &c->srcPitch, &c->srcHeight);
		c->srcMemoryType = CU_MEMORYTYPE_DEVICE;
	}
	if (r == CUDA_SUCCESS && p->dstMemoryType == CU_MEMORYTYPE_ARRAY) {
		r = vg_array_side(p->dstArray, p->dstXInBytes, p->dstY, p->dstZ,
				  p->WidthInBytes, p->Height, p->Depth,
				  &c->dstDevice, &c->dstPitch, &c->dstHeight);
		c->dstMemoryType = CU_MEMORYTYPE_DEVICE;
	}
	return r;
}
