// SPDX-License-Identifier: MIT
/*
 * Execution affinity: cuDeviceGetExecAffinitySupport and
 * cuCtxGetExecAffinity. NVIDIA's driver limits a context to part of the
 * SMs only under MPS; outside it an H100 reports no support for any type
 * and every context holds all the device's SMs (tests/e2e/ref/
 * h100_compat.log). vgpu has no MPS: it answers the same, and
 * cuCtxCreate refuses affinity parameters (context.c).
 */
#include "vg.h"

CUresult cuDeviceGetExecAffinitySupport(int *pi, CUexecAffinityType type,
					CUdevice dev)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pi)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_check_device(dev);
	if (r)
		return r;
	/* Any type, known or not, reads as unsupported, as on an H100. */
	(void)type;
	*pi = 0;
	return CUDA_SUCCESS;
}

CUresult cuCtxGetExecAffinity(CUexecAffinityParam *pparam,
			      CUexecAffinityType type)
{
	struct CUctx_st *ctx;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!pparam)
		return CUDA_ERROR_INVALID_VALUE;
	ctx = vg_ctx_current();
	if (!ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	/* The type asked for is written back, even one refused (an H100's). */
	pparam->type = type;
	if (type != CU_EXEC_AFFINITY_TYPE_SM_COUNT)
		return CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY;
	pparam->param.smCount.val = vg_devices[ctx->dev].info.sm_count;
	return CUDA_SUCCESS;
}
