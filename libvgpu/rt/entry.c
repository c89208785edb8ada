// SPDX-License-Identifier: MIT
/*
 * cudaGetDriverEntryPoint(ByVersion): the driver's entry points through
 * its cuGetProcAddress. A symbol the driver lacks, or has only in a later
 * version, is no error: the pointer is NULL and the status says why, as
 * on an H100.
 */
#include "rt.h"

/* cudaEnableDefault, LegacyStream, PerThreadDefaultStream: CU_GET_PROC_-
 * ADDRESS_*'s values. */
#define RT_ENTRY_POINT_FLAGS (cudaEnableLegacyStream | \
			      cudaEnablePerThreadDefaultStream)

cudaError_t cudaGetDriverEntryPointByVersion(
	const char *symbol, void **func, unsigned int cuda_version,
	unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *status)
{
	CUdriverProcAddressQueryResult q = CU_GET_PROC_ADDRESS_SUCCESS;
	CUresult r;

	if (!symbol || !func || (flags & ~(unsigned long long)
				 RT_ENTRY_POINT_FLAGS))
		return rt_ret(cudaErrorInvalidValue);
	*func = NULL;
	r = cuGetProcAddress_v2(symbol, func, (int)cuda_version, flags, &q);
	/*
	 * A call the driver refuses (a version it does not know) leaves
	 * the status as it was, as on an H100; its values are
	 * CUdriverProcAddressQueryResult's.
	 */
	if (r && q == CU_GET_PROC_ADDRESS_SUCCESS)
		return rt_ret_cu(r);
	if (status)
		*status = (enum cudaDriverEntryPointQueryResult)q;
	if (q != CU_GET_PROC_ADDRESS_SUCCESS)
		*func = NULL;
	return cudaSuccess;
}

cudaError_t cudaGetDriverEntryPoint(
	const char *symbol, void **func, unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *status)
{
	return cudaGetDriverEntryPointByVersion(symbol, func, CUDART_VERSION,
						flags, status);
}

/* The per-thread stream build's names: the flags say which stream. */
cudaError_t cudaGetDriverEntryPoint_ptsz(
	const char *symbol, void **func, unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *status)
{
	return cudaGetDriverEntryPointByVersion(symbol, func, CUDART_VERSION,
						flags, status);
}

cudaError_t cudaGetDriverEntryPointByVersion_ptsz(
	const char *symbol, void **func, unsigned int cuda_version,
	unsigned long long flags,
	enum cudaDriverEntryPointQueryResult *status)
{
	return cudaGetDriverEntryPointByVersion(symbol, func, cuda_version,
						flags, status);
}
