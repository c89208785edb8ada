// SPDX-License-Identifier: MIT
/*
 * Texture and surface objects through the runtime, and the widest
 * texture over linear memory: the handles are the driver's
 * (libvgpu/texobj.c), the descriptors the runtime's, converted both ways
 * (texdesc.c); every other answer is the driver's.
 */
#include <stdbool.h>
#include <string.h>

#include "rt.h"

/*
 * The format of @cr's elements, when it can be had here (a resource it
 * cannot is left to the driver to judge).
 */
static bool rt_res_format(const CUDA_RESOURCE_DESC *cr, CUarray_format *f)
{
	CUDA_ARRAY3D_DESCRIPTOR d;
	CUarray a = NULL;

	switch (cr->resType) {
	case CU_RESOURCE_TYPE_ARRAY:
		a = cr->res.array.hArray;
		break;
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		if (cuMipmappedArrayGetLevel(&a, cr->res.mipmap.hMipmappedArray, 0))
			return false;
		break;
	case CU_RESOURCE_TYPE_LINEAR:
		*f = cr->res.linear.format;
		return true;
	case CU_RESOURCE_TYPE_PITCH2D:
		*f = cr->res.pitch2D.format;
		return true;
	default:
		return false;
	}
	if (!a || cuArray3DGetDescriptor(&d, a))
		return false;
	*f = d.Format;
	return true;
}

static bool rt_format_is_float(CUarray_format f)
{
	return f == CU_AD_FORMAT_HALF || f == CU_AD_FORMAT_FLOAT;
}

static bool rt_format_is_int32(CUarray_format f)
{
	return f == CU_AD_FORMAT_UNSIGNED_INT32 || f == CU_AD_FORMAT_SIGNED_INT32;
}

/*
 * What NVIDIA's runtime checks before its driver sees a texture
 * (tests/samples/rt/ref/h100_rt_texture.log): linear filtering of what
 * does not read as floats, cudaErrorInvalidFilterSetting (32-bit integers
 * whatever the read mode, smaller ones read as integers); then floats and
 * 32-bit integers read as normalized floats, cudaErrorInvalidNormSetting.
 */
static cudaError_t rt_tex_check(const CUDA_RESOURCE_DESC *cr,
				const struct cudaTextureDesc *desc)
{
	CUarray_format f;

	if (!rt_res_format(cr, &f))
		return cudaSuccess;
	if (desc->filterMode == cudaFilterModeLinear && !rt_format_is_float(f) &&
	    (rt_format_is_int32(f) || desc->readMode == cudaReadModeElementType))
		return cudaErrorInvalidFilterSetting;
	if (desc->readMode == cudaReadModeNormalizedFloat &&
	    (rt_format_is_float(f) || rt_format_is_int32(f)))
		return cudaErrorInvalidNormSetting;
	return cudaSuccess;
}

/* A resource naming no array: NVIDIA's runtime answers as for a bad handle. */
static bool rt_res_null(const struct cudaResourceDesc *res)
{
	return (res->resType == cudaResourceTypeArray && !res->res.array.array) ||
	       (res->resType == cudaResourceTypeMipmappedArray &&
		!res->res.mipmap.mipmap);
}

/*
 * A texture descriptor of NULL reads as a bad handle on an H100's runtime;
 * mipmap state on a resource without levels is dropped there, where the
 * driver would refuse it.
 */
cudaError_t cudaCreateTextureObject(cudaTextureObject_t *tex,
				    const struct cudaResourceDesc *res,
				    const struct cudaTextureDesc *desc,
				    const struct cudaResourceViewDesc *view)
{
	CUDA_RESOURCE_VIEW_DESC cv;
	CUDA_RESOURCE_DESC cr;
	CUDA_TEXTURE_DESC ct;
	cudaError_t e;

	if (!tex || !res)
		return rt_ret(cudaErrorInvalidValue);
	if (!desc || rt_res_null(res))
		return rt_ret(cudaErrorInvalidResourceHandle);
	e = rt_res_desc_to_cu(res, &cr);
	if (e == cudaSuccess)
		e = rt_tex_desc_to_cu(desc, &ct);
	if (e == cudaSuccess)
		e = rt_enter();
	if (e == cudaSuccess)
		e = rt_tex_check(&cr, desc);
	if (e)
		return rt_ret(e);
	if (cr.resType != CU_RESOURCE_TYPE_MIPMAPPED_ARRAY) {
		ct.mipmapFilterMode = CU_TR_FILTER_MODE_POINT;
		ct.mipmapLevelBias = 0;
		ct.minMipmapLevelClamp = 0;
		ct.maxMipmapLevelClamp = 0;
	}
	if (view)
		rt_view_desc_to_cu(view, &cv);
	return rt_ret_cu(cuTexObjectCreate((CUtexObject *)tex, &cr, &ct,
					   view ? &cv : NULL));
}

/* An unknown handle is let be, as the driver does on an H100. */
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t tex)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuTexObjectDestroy((CUtexObject)tex));
}

cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *res,
					     cudaTextureObject_t tex)
{
	CUDA_RESOURCE_DESC cr;
	cudaError_t e;

	if (!res)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuTexObjectGetResourceDesc(&cr, (CUtexObject)tex));
	if (e)
		return rt_ret(e);
	rt_res_desc_from_cu(&cr, res);
	return cudaSuccess;
}

cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *desc,
					    cudaTextureObject_t tex)
{
	CUDA_TEXTURE_DESC ct;
	cudaError_t e;

	/* NULL reads as a bad handle on an H100's runtime. */
	if (!desc)
		return rt_ret(cudaErrorInvalidResourceHandle);
	/* What the driver leaves unwritten reads as zero. */
	memset(&ct, 0, sizeof(ct));
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuTexObjectGetTextureDesc(&ct, (CUtexObject)tex));
	if (e)
		return rt_ret(e);
	rt_tex_desc_from_cu(&ct, desc);
	return cudaSuccess;
}

/*
 * The driver writes nothing for a texture made without a view; the
 * runtime then gives the view of no format, all zeros: NVIDIA's answer
 * is not known, and a zeroed view is how a caller asks for none.
 */
cudaError_t cudaGetTextureObjectResourceViewDesc(struct cudaResourceViewDesc *view,
						 cudaTextureObject_t tex)
{
	CUDA_RESOURCE_VIEW_DESC cv;
	cudaError_t e;

	memset(&cv, 0, sizeof(cv));
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuTexObjectGetResourceViewDesc(&cv,
							    (CUtexObject)tex));
	if (e)
		return rt_ret(e);
	/* NULL is taken, and nothing written, on an H100's runtime. */
	if (view)
		rt_view_desc_from_cu(&cv, view);
	return cudaSuccess;
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *surf,
				    const struct cudaResourceDesc *res)
{
	CUDA_RESOURCE_DESC cr;
	cudaError_t e;

	if (!surf || !res)
		return rt_ret(cudaErrorInvalidValue);
	if (rt_res_null(res))
		return rt_ret(cudaErrorInvalidResourceHandle);
	e = rt_res_desc_to_cu(res, &cr);
	if (e == cudaSuccess)
		e = rt_enter();
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuSurfObjectCreate((CUsurfObject *)surf, &cr));
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surf)
{
	cudaError_t e = rt_enter();

	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuSurfObjectDestroy((CUsurfObject)surf));
}

cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *res,
					     cudaSurfaceObject_t surf)
{
	CUDA_RESOURCE_DESC cr;
	cudaError_t e;

	/* NVIDIA's runtime answers NULL so (h100_rt_texture.log). */
	if (!res)
		return rt_ret(cudaErrorInvalidDevice);
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuSurfObjectGetResourceDesc(&cr,
							 (CUsurfObject)surf));
	if (e)
		return rt_ret(e);
	rt_res_desc_from_cu(&cr, res);
	return cudaSuccess;
}

/* The format's checks come before the device's, as the driver's do. */
cudaError_t cudaDeviceGetTexture1DLinearMaxWidth(size_t *width,
						 const struct cudaChannelFormatDesc *desc,
						 int device)
{
	unsigned int channels;
	CUarray_format format;
	cudaError_t e;

	if (!width || !desc)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_format_of(desc, &format, &channels);
	if (e == cudaSuccess)
		e = rt_check_device(device);
	if (e)
		return rt_ret(e);
	return rt_ret_cu(cuDeviceGetTexture1DLinearMaxWidth(width, format,
							    channels, device));
}
