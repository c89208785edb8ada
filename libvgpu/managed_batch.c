// SPDX-License-Identifier: MIT
/*
 * CUDA 13's batched managed-memory calls: cuMemPrefetchBatchAsync,
 * cuMemDiscardBatchAsync and cuMemDiscardAndPrefetchBatchAsync. A batch
 * is checked whole before any of it acts, as an H100 checks it
 * (tests/e2e/ref/h100_managed_batch.log): every range managed and not
 * empty, each prefetch location valid, the locations' first indices
 * starting at 0 and inside the batch. A prefetch is the one of
 * cuMemPrefetchAsync (managed.c); range i goes to the location whose
 * first index is the last at or below i. Discarding lets the memory's
 * contents go, which an H100 need not do and vgpu does not: the pages
 * are the host's and the device's at once, and nothing is migrated.
 */
#include "capture.h"
#include "vg.h"

/* A batch's ranges: each of managed memory, none empty. */
static CUresult vg_batch_ranges(CUdeviceptr *dptrs, size_t *sizes,
				size_t count, unsigned long long flags)
{
	size_t i;

	if (!dptrs || !sizes || !count || flags)
		return CUDA_ERROR_INVALID_VALUE;
	for (i = 0; i < count; i++)
		if (!vg_managed_range(dptrs[i], sizes[i]))
			return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

static bool vg_batch_loc_ok(const CUmemLocation *l)
{
	switch (l->type) {
	case CU_MEM_LOCATION_TYPE_DEVICE:
		return l->id >= 0 && l->id < vg_device_count;
	case CU_MEM_LOCATION_TYPE_HOST:
	case CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT:
		return true;
	case CU_MEM_LOCATION_TYPE_HOST_NUMA:
		return l->id >= 0;
	default:
		return false;
	}
}

/* A batch's prefetch locations and where each starts applying. */
static CUresult vg_batch_locs(const CUmemLocation *locs, const size_t *idxs,
			      size_t nlocs, size_t count)
{
	size_t j;

	if (!locs || !idxs || !nlocs || nlocs > count || idxs[0])
		return CUDA_ERROR_INVALID_VALUE;
	for (j = 0; j < nlocs; j++)
		if (idxs[j] >= count || !vg_batch_loc_ok(&locs[j]))
			return CUDA_ERROR_INVALID_VALUE;
	return CUDA_SUCCESS;
}

/* Prefetches a checked batch, in stream order on @hs. */
static CUresult vg_batch_prefetch(CUdeviceptr *dptrs, size_t *sizes,
				  size_t count, CUmemLocation *locs,
				  size_t *idxs, size_t nlocs, CUstream hs)
{
	CUresult r = CUDA_SUCCESS;
	size_t i, j, at;

	for (i = 0; i < count && r == CUDA_SUCCESS; i++) {
		for (j = 0, at = 0; j < nlocs; j++)
			if (idxs[j] <= i)
				at = j;
		r = cuMemPrefetchAsync_v2(dptrs[i], sizes[i], locs[at], 0, hs);
	}
	return r;
}

/*
 * The stream a batch is ordered on must be usable, and not capturing: a
 * batch ends a capture's use (900), as on an H200
 * (tests/e2e/ref/h200_capture_misc.log).
 */
static CUresult vg_batch_stream(CUstream hs)
{
	struct CUstream_st *st;
	struct CUctx_st *ctx;
	CUresult r;

	pthread_mutex_lock(&vg_lock);
	r = vg_stream_resolve(hs, &ctx, &st);
	pthread_mutex_unlock(&vg_lock);
	return r ? r : vg_cap_refuse(hs);
}

CUresult cuMemPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes,
				 size_t count, CUmemLocation *locs,
				 size_t *idxs, size_t nlocs,
				 unsigned long long flags, CUstream hs)
{
	CUresult r = vg_check_init();

	if (!r)
		r = vg_batch_ranges(dptrs, sizes, count, flags);
	if (!r)
		r = vg_batch_locs(locs, idxs, nlocs, count);
	if (!r)
		r = vg_batch_stream(hs);
	return r ? r : vg_batch_prefetch(dptrs, sizes, count, locs, idxs,
					 nlocs, hs);
}

CUresult cuMemPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes,
				      size_t count, CUmemLocation *locs,
				      size_t *idxs, size_t nlocs,
				      unsigned long long flags, CUstream hs)
{
	return cuMemPrefetchBatchAsync(dptrs, sizes, count, locs, idxs, nlocs,
				       flags, hs ? hs : CU_STREAM_PER_THREAD);
}

CUresult cuMemDiscardBatchAsync(CUdeviceptr *dptrs, size_t *sizes,
				size_t count, unsigned long long flags,
				CUstream hs)
{
	CUresult r = vg_check_init();

	if (!r)
		r = vg_batch_ranges(dptrs, sizes, count, flags);
	return r ? r : vg_batch_stream(hs);
}

CUresult cuMemDiscardBatchAsync_ptsz(CUdeviceptr *dptrs, size_t *sizes,
				     size_t count, unsigned long long flags,
				     CUstream hs)
{
	return cuMemDiscardBatchAsync(dptrs, sizes, count, flags,
				      hs ? hs : CU_STREAM_PER_THREAD);
}

CUresult cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr *dptrs, size_t *sizes,
					   size_t count, CUmemLocation *locs,
					   size_t *idxs, size_t nlocs,
					   unsigned long long flags,
					   CUstream hs)
{
	return cuMemPrefetchBatchAsync(dptrs, sizes, count, locs, idxs, nlocs,
				       flags, hs);
}

CUresult cuMemDiscardAndPrefetchBatchAsync_ptsz(CUdeviceptr *dptrs,
						size_t *sizes, size_t count,
						CUmemLocation *locs,
						size_t *idxs, size_t nlocs,
						unsigned long long flags,
						CUstream hs)
{
	return cuMemPrefetchBatchAsync(dptrs, sizes, count, locs, idxs, nlocs,
				       flags, hs ? hs : CU_STREAM_PER_THREAD);
}
