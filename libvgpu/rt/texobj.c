// SPDX-License-Identifier: MIT
/*
 * Texture and surface objects through the runtime, and the widest
 * texture over linear memory: the handles are the driver's
 * (libvgpu/texobj.c), the descriptors the runtime's, converted both ways
 * (texdesc.c); every other answer is the driver's.
 */
#include <string.h>

#include "rt.h"

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *tex,
				    const struct cudaResourceDesc *res,
				    const struct cudaTextureDesc *desc,
				    const struct cudaResourceViewDesc *view)
{
	CUDA_RESOURCE_VIEW_DESC cv;
	CUDA_RESOURCE_DESC cr;
	CUDA_TEXTURE_DESC ct;
	cudaError_t e;

	if (!tex || !res || !desc)
		return rt_ret(cudaErrorInvalidValue);
	e = rt_res_desc_to_cu(res, &cr);
	if (e == cudaSuccess)
		e = rt_tex_desc_to_cu(desc, &ct);
	if (e == cudaSuccess)
		e = rt_enter();
	if (e)
		return rt_ret(e);
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

	if (!desc)
		return rt_ret(cudaErrorInvalidValue);
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

	if (!view)
		return rt_ret(cudaErrorInvalidValue);
	memset(&cv, 0, sizeof(cv));
	e = rt_enter();
	if (e == cudaSuccess)
		e = rt_error(cuTexObjectGetResourceViewDesc(&cv,
							    (CUtexObject)tex));
	if (e)
		return rt_ret(e);
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

	if (!res)
		return rt_ret(cudaErrorInvalidValue);
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
