// SPDX-License-Identifier: MIT
/*
 * CUDA arrays and mipmapped arrays through the runtime: a cudaArray_t is
 * the driver's CUarray and a cudaMipmappedArray_t its CUmipmappedArray,
 * so every call is the driver's (libvgpu/array.c), its answers the
 * driver's, after the runtime's channel descriptor became a format and a
 * channel count (texdesc.c). The array flags have the driver's values.
 */
#include <string.h>

#include "rt.h"

/* @d's format, @ext's sizes and @flags as the driver's descriptor. */
static cudaError_t rt_array_desc(const struct cudaChannelFormatDesc *d,
				 struct cudaExtent ext, unsigned int flags,
				 CUDA_ARRAY3D_DESCRIPTOR *ad)
{
	memset(ad, 0, sizeof(*ad));
	ad->Width = ext.width;
	ad->Height = ext.height;
	ad->Depth = ext.depth;
	ad->Flags = flags;
	return rt_format_of(d, &ad->Format, &ad->NumChannels);
}

static cudaError_t rt_malloc_array(cudaArray_t *array,
				   const struct cudaChannelFormatDesc *desc,
				   struct cudaExtent ext, unsigned int flags)
{
	CUDA_ARRAY3D_DESCRIPTOR ad;
	cudaError_t e;

	if (!array || !desc)
		return cudaErrorInvalidValue;
	e = rt_array_desc(desc, ext, flags, &ad);
	if (e == cudaSuccess)
		e = rt_enter();
	if (e)
		return e;
	return rt_error(cuArray3DCreate((CUarray *)array, &ad));
}

/* A 1D (@height 0) or 2D array. */
cudaError_t cudaMallocArray(cudaArray_t *array,
			    const struct cudaChannelFormatDesc *desc,
			    size_t width, size_t height, unsigned int flags)
{
	struct cudaExtent ext = { width, height, 0 };

	return rt_ret(rt_malloc_array(array, desc, ext, flags));
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array,
			      const struct cudaChannelFormatDesc *desc,
			      struct cudaExtent ext, unsigned int flags)
{
	return rt_ret(rt_malloc_array(array, desc, ext, flags));
}

cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *mipmap,
				     const struct cudaChannelFormatDesc *desc,
				     struct cudaExtent ext,
				     unsigned int levels, unsigned int flags)
{
	CUDA_ARRAY3D_DESCRIPTOR ad;
	cudaError_t e;

	if (!mipmap || !desc)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_array_desc(desc, ext, flags, &ad);
	if (e == cudaSuccess)
		e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMipmappedArrayCreate((CUmipmappedArray *)mipmap,
						&ad, levels));
}

/* A level belongs to its mipmapped array: cudaFreeArray leaves it be. */
cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *level,
				       cudaMipmappedArray_const_t mipmap,
				       unsigned int l)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuMipmappedArrayGetLevel((CUarray *)level,
						  (CUmipmappedArray)mipmap, l));
}

/*
 * NULL frees nothing, as NVIDIA documents. A destroyed array answers as
 * the driver does on an H100 (cudaErrorContextIsDestroyed).
 */
cudaError_t cudaFreeArray(cudaArray_t array)
{
	cudaError_t e = rt_enter();

	if (e || !array)
		return rt_ret(e);
	return rt_ret_cu(cuArrayDestroy((CUarray)array));
}

cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmap)
{
	cudaError_t e = rt_enter();

	if (e || !mipmap)
		return rt_ret(e);
	return rt_ret_cu(cuMipmappedArrayDestroy((CUmipmappedArray)mipmap));
}

/*
 * The array's descriptor as created (a level's own sizes): any of the
 * outputs may be NULL, as NVIDIA documents.
 */
cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc,
			     struct cudaExtent *ext, unsigned int *flags,
			     cudaArray_t array)
{
	CUDA_ARRAY3D_DESCRIPTOR ad;
	cudaError_t e = rt_enter();

	if (e == cudaSuccess)
		e = rt_error(cuArray3DGetDescriptor(&ad, (CUarray)array));
	if (e)
		return rt_ret(e);
	if (desc)
		*desc = rt_channel_desc(ad.Format, ad.NumChannels);
	if (ext)
		*ext = (struct cudaExtent){ ad.Width, ad.Height, ad.Depth };
	if (flags)
		*flags = ad.Flags;
	return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc,
			       cudaArray_const_t array)
{
	CUDA_ARRAY3D_DESCRIPTOR ad;
	cudaError_t e;

	if (!desc)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuArray3DGetDescriptor(&ad, (CUarray)array));
	if (e)
		return rt_ret(e);
	*desc = rt_channel_desc(ad.Format, ad.NumChannels);
	return cudaSuccess;
}

cudaError_t rt_array_shape(cudaArray_const_t a, size_t *elem, size_t *row,
			   size_t *rows)
{
	CUDA_ARRAY3D_DESCRIPTOR ad;
	size_t w, h;
	bool block;

	if (!a || cuArray3DGetDescriptor(&ad, (CUarray)a))
		return cudaErrorInvalidValue;
	*elem = rt_element_bytes(ad.Format, ad.NumChannels);
	if (!*elem)
		return cudaErrorInvalidValue;
	block = ad.Format >= CU_AD_FORMAT_BC1_UNORM &&
		ad.Format <= CU_AD_FORMAT_BC7_UNORM_SRGB;
	w = ad.Width;
	h = ad.Height ? ad.Height : 1;
	/* A compressed array is laid out in blocks of 4x4 texels. */
	if (block) {
		w = (w + 3) / 4;
		h = (h + 3) / 4;
	}
	*row = w * *elem;
	*rows = h;
	return cudaSuccess;
}

/* The driver's requirements are the runtime's, field for field. */
static void rt_mem_req(const CUDA_ARRAY_MEMORY_REQUIREMENTS *c,
		       struct cudaArrayMemoryRequirements *req)
{
	memset(req, 0, sizeof(*req));
	req->size = c->size;
	req->alignment = c->alignment;
}

/*
 * The device the requirements are asked for: NVIDIA's runtime answers for
 * the array's own, whatever the caller names (device 99 succeeds,
 * tests/samples/rt/ref/h100_rt_texture.log), where its driver refuses a
 * bad device.
 */
static CUdevice rt_req_device(int device)
{
	CUdevice dev;

	return cuCtxGetDevice(&dev) == CUDA_SUCCESS ? dev : device;
}

cudaError_t cudaArrayGetMemoryRequirements(struct cudaArrayMemoryRequirements *req,
					   cudaArray_t array, int device)
{
	CUDA_ARRAY_MEMORY_REQUIREMENTS c;
	cudaError_t e;

	if (!req)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuArrayGetMemoryRequirements(&c, (CUarray)array,
							  rt_req_device(device)));
	if (e)
		return rt_ret(e);
	rt_mem_req(&c, req);
	return cudaSuccess;
}

cudaError_t cudaMipmappedArrayGetMemoryRequirements(
	struct cudaArrayMemoryRequirements *req, cudaMipmappedArray_t mipmap,
	int device)
{
	CUDA_ARRAY_MEMORY_REQUIREMENTS c;
	cudaError_t e;

	if (!req)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuMipmappedArrayGetMemoryRequirements(
			&c, (CUmipmappedArray)mipmap, rt_req_device(device)));
	if (e)
		return rt_ret(e);
	rt_mem_req(&c, req);
	return cudaSuccess;
}

static void rt_sparse(const CUDA_ARRAY_SPARSE_PROPERTIES *c,
		      struct cudaArraySparseProperties *sp)
{
	memset(sp, 0, sizeof(*sp));
	sp->tileExtent.width = c->tileExtent.width;
	sp->tileExtent.height = c->tileExtent.height;
	sp->tileExtent.depth = c->tileExtent.depth;
	sp->miptailFirstLevel = c->miptailFirstLevel;
	sp->miptailSize = c->miptailSize;
	sp->flags = c->flags;
}

cudaError_t cudaArrayGetSparseProperties(struct cudaArraySparseProperties *sp,
					 cudaArray_t array)
{
	CUDA_ARRAY_SPARSE_PROPERTIES c;
	cudaError_t e;

	if (!sp)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuArrayGetSparseProperties(&c, (CUarray)array));
	if (e)
		return rt_ret(e);
	rt_sparse(&c, sp);
	return cudaSuccess;
}

cudaError_t cudaMipmappedArrayGetSparseProperties(
	struct cudaArraySparseProperties *sp, cudaMipmappedArray_t mipmap)
{
	CUDA_ARRAY_SPARSE_PROPERTIES c;
	cudaError_t e;

	if (!sp)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuMipmappedArrayGetSparseProperties(
			&c, (CUmipmappedArray)mipmap));
	if (e)
		return rt_ret(e);
	rt_sparse(&c, sp);
	return cudaSuccess;
}

/* Planes are those of the video formats, which no array here has. */
cudaError_t cudaArrayGetPlane(cudaArray_t *plane, cudaArray_t array,
			      unsigned int index)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuArrayGetPlane((CUarray *)plane, (CUarray)array,
					 index));
}
