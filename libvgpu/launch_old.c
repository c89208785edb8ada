// SPDX-License-Identifier: MIT
/*
 * The launch calls of CUDA's first releases: a block shape, a shared
 * memory size and a parameter block set on the function one call at a
 * time (struct vg_old_launch), then cuLaunch, cuLaunchGrid or
 * cuLaunchGridAsync launch it through vg_launch() as a packed `extra`
 * block. Codes as NVIDIA's driver answers them (580, H100; tests/e2e/ref/
 * h100_launch.log): the shape and the shared size are checked when set,
 * a parameter block larger than the kernel's fails the launch with
 * CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, a smaller one is padded with zeros.
 */
#include <stdlib.h>
#include <string.h>

#include "vg.h"

/* The function, or the error its handle gets. */
static CUresult vg_old_func(CUfunction f)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	return vg_func_get(f, &f);
}

CUresult cuFuncSetBlockShape(CUfunction f, int x, int y, int z)
{
	const struct vgpu_info *info;
	CUresult r = vg_old_func(f);

	if (r)
		return r;
	info = &vg_devices[f->mod->ctx->dev].info;
	if (x <= 0 || y <= 0 || z <= 0 ||
	    (unsigned int)x > info->max_block_dim[0] ||
	    (unsigned int)y > info->max_block_dim[1] ||
	    (unsigned int)z > info->max_block_dim[2] ||
	    (uint64_t)x * y * z > info->max_threads_per_block)
		return CUDA_ERROR_INVALID_VALUE;
	f->old.block[0] = (unsigned int)x;
	f->old.block[1] = (unsigned int)y;
	f->old.block[2] = (unsigned int)z;
	return CUDA_SUCCESS;
}

/* Up to the function's limit, as cuLaunchKernel's shared size. */
CUresult cuFuncSetSharedSize(CUfunction f, unsigned int bytes)
{
	CUresult r = vg_old_func(f);

	if (r)
		return r;
	if (bytes > f->max_dyn_shared)
		return CUDA_ERROR_INVALID_VALUE;
	f->old.shared = bytes;
	return CUDA_SUCCESS;
}

CUresult cuParamSetSize(CUfunction f, unsigned int bytes)
{
	CUresult r = vg_old_func(f);

	if (r)
		return r;
	if (bytes > VG_PARAM_MAX)
		return CUDA_ERROR_INVALID_VALUE;
	f->old.size = bytes;
	return CUDA_SUCCESS;
}

/* @n bytes at @offset of the function's parameter block. */
static CUresult vg_param_set(CUfunction f, int offset, const void *p,
			     unsigned int n)
{
	CUresult r = vg_old_func(f);

	if (r)
		return r;
	if (offset < 0 || (uint64_t)offset + n > VG_PARAM_MAX || (!p && n))
		return CUDA_ERROR_INVALID_VALUE;
	if (!f->old.params) {
		f->old.params = calloc(1, VG_PARAM_MAX);
		if (!f->old.params)
			return CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (n)
		memcpy(f->old.params + offset, p, n);
	return CUDA_SUCCESS;
}

CUresult cuParamSeti(CUfunction f, int offset, unsigned int value)
{
	return vg_param_set(f, offset, &value, sizeof(value));
}

CUresult cuParamSetf(CUfunction f, int offset, float value)
{
	return vg_param_set(f, offset, &value, sizeof(value));
}

CUresult cuParamSetv(CUfunction f, int offset, void *p, unsigned int n)
{
	return vg_param_set(f, offset, p, n);
}

/* A grid of @w by @h blocks of the function's shape, on @stream. */
static CUresult vg_old_launch(CUfunction f, int w, int h, CUstream stream)
{
	static const unsigned char none[VG_PARAM_MAX];
	size_t size;
	void *extra[] = {
		CU_LAUNCH_PARAM_BUFFER_POINTER, NULL,
		CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
		CU_LAUNCH_PARAM_END,
	};
	struct vg_launch l = {
		.grid = { (unsigned int)w, (unsigned int)h, 1 },
		.block = { 1, 1, 1 },
		.stream = stream,
		.extra = extra,
	};
	CUresult r = vg_old_func(f);

	if (r)
		return r;
	if (f->old.block[0])
		memcpy(l.block, f->old.block, sizeof(l.block));
	l.shared = f->old.shared;
	size = f->old.size;
	extra[1] = f->old.params ? (void *)f->old.params : (void *)none;
	return vg_launch(f, &l);
}

CUresult cuLaunch(CUfunction f)
{
	return vg_old_launch(f, 1, 1, NULL);
}

CUresult cuLaunchGrid(CUfunction f, int w, int h)
{
	return vg_old_launch(f, w, h, NULL);
}

CUresult cuLaunchGridAsync(CUfunction f, int w, int h, CUstream stream)
{
	return vg_old_launch(f, w, h, stream);
}
