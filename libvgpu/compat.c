// SPDX-License-Identifier: MIT
/*
 * Entry points of earlier ABIs, for programs built against older CUDA
 * headers: the unversioned and _v2/_v3 symbols that cuda.h now maps to newer
 * ones. Each forwards to the current implementation; cuCtxCreate makes a
 * context of the first ABI.
 */
#include "vg.h"

/* The macros of cuda.h would rename the definitions below. */
#undef cuCtxCreate
#undef cuCtxDestroy
#undef cuCtxPushCurrent
#undef cuCtxPopCurrent
#undef cuDeviceTotalMem
#undef cuDeviceGetUuid
#undef cuDevicePrimaryCtxRelease
#undef cuDevicePrimaryCtxReset
#undef cuDevicePrimaryCtxSetFlags
#undef cuLinkCreate
#undef cuLinkAddData
#undef cuLinkAddFile
#undef cuStreamDestroy
#undef cuEventDestroy
#undef cuEventElapsedTime

CUresult cuStreamDestroy(CUstream h);
CUresult cuEventDestroy(CUevent e);
CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end);
CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUresult cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *params,
			int num_params, unsigned int flags, CUdevice dev);
CUresult cuCtxDestroy(CUcontext ctx);
CUresult cuCtxPushCurrent(CUcontext ctx);
CUresult cuCtxPopCurrent(CUcontext *pctx);
CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice dev);
CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUresult cuDevicePrimaryCtxRelease(CUdevice dev);
CUresult cuDevicePrimaryCtxReset(CUdevice dev);
CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags);
CUresult cuLinkCreate(unsigned int n, CUjit_option *options, void **values,
		      CUlinkState *state);
CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data,
		       size_t size, const char *name, unsigned int n,
		       CUjit_option *options, void **values);
CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type,
		       const char *path, unsigned int n, CUjit_option *options,
		       void **values);

/*
 * The first ABI's context, API version 3010, where that ABI's memory calls
 * (compat_v1.c) work and the current ABI's allocations do not (abi_v1.c).
 */
CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
	return vg_ctx_create(pctx, NULL, flags, dev, true);
}

CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev)
{
	return cuCtxCreate_v4(pctx, NULL, flags, dev);
}

CUresult cuCtxCreate_v3(CUcontext *pctx, CUexecAffinityParam *params,
			int num_params, unsigned int flags, CUdevice dev)
{
	CUctxCreateParams p = {
		.execAffinityParams = params,
		.numExecAffinityParams = num_params,
	};

	return cuCtxCreate_v4(pctx, &p, flags, dev);
}

CUresult cuCtxDestroy(CUcontext ctx)
{
	return cuCtxDestroy_v2(ctx);
}

CUresult cuCtxPushCurrent(CUcontext ctx)
{
	return cuCtxPushCurrent_v2(ctx);
}

CUresult cuCtxPopCurrent(CUcontext *pctx)
{
	return cuCtxPopCurrent_v2(pctx);
}

/* The 32-bit size of the first ABI: saturates above 4 GiB. */
CUresult cuDeviceTotalMem(unsigned int *bytes, CUdevice dev)
{
	size_t b;
	CUresult r;

	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	r = cuDeviceTotalMem_v2(&b, dev);
	if (r == CUDA_SUCCESS)
		*bytes = b > 0xffffffffu ? 0xffffffffu : (unsigned int)b;
	return r;
}

CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev)
{
	return cuDeviceGetUuid_v2(uuid, dev);
}

CUresult cuDevicePrimaryCtxRelease(CUdevice dev)
{
	return cuDevicePrimaryCtxRelease_v2(dev);
}

CUresult cuDevicePrimaryCtxReset(CUdevice dev)
{
	return cuDevicePrimaryCtxReset_v2(dev);
}

CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags)
{
	return cuDevicePrimaryCtxSetFlags_v2(dev, flags);
}

/* The first linker ABI: the same calls under their unversioned names. */
CUresult cuLinkCreate(unsigned int n, CUjit_option *options, void **values,
		      CUlinkState *state)
{
	return cuLinkCreate_v2(n, options, values, state);
}

CUresult cuLinkAddData(CUlinkState state, CUjitInputType type, void *data,
		       size_t size, const char *name, unsigned int n,
		       CUjit_option *options, void **values)
{
	return cuLinkAddData_v2(state, type, data, size, name, n, options,
				values);
}

CUresult cuLinkAddFile(CUlinkState state, CUjitInputType type,
		       const char *path, unsigned int n, CUjit_option *options,
		       void **values)
{
	return cuLinkAddFile_v2(state, type, path, n, options, values);
}

CUresult cuStreamDestroy(CUstream h)
{
	return cuStreamDestroy_v2(h);
}

CUresult cuEventDestroy(CUevent e)
{
	return cuEventDestroy_v2(e);
}

CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end)
{
	return cuEventElapsedTime_v2(ms, start, end);
}
