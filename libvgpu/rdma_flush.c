// SPDX-License-Identifier: MIT
/*
 * cuFlushGPUDirectRDMAWrites makes the writes third-party devices made
 * into the context's memory by GPUDirect RDMA visible to it. vgpu's
 * memory has no such writers (no device outside the module can reach
 * it), so none is ever outstanding and the flush is complete once the
 * context and the arguments are checked, as on an H100 with none
 * (tests/samples/rt/ref/h100_rt_calls.log).
 */
#include "vg.h"

CUresult cuFlushGPUDirectRDMAWrites(CUflushGPUDirectRDMAWritesTarget target,
				    CUflushGPUDirectRDMAWritesScope scope)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (target != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX ||
	    (scope != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER &&
	     scope != CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_ALL_DEVICES))
		return CUDA_ERROR_INVALID_VALUE;
	return vg_current_check();
}
