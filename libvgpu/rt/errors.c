// SPDX-License-Identifier: MIT
/*
 * The runtime's error codes: the code for a driver result, each code's
 * name and text (cudaGetErrorName/String), and the per-thread last error
 * (cudaGetLastError/cudaPeekAtLastError).
 */
#include <stddef.h>

#include "rt.h"

struct rt_error_name {
	int code;
	const char *name;
};

/* Every member of CUDA 13's enum cudaError (tools/gen-rt-errors). */
static const struct rt_error_name rt_error_names[] = {
#include "rt_error_names.h"
};

struct rt_error_text {
	cudaError_t code;
	const char *text;
};

/*
 * The texts NVIDIA's runtime gives where they differ from the driver's
 * for the same number, and the runtime's own codes; the rest are the
 * driver's (cuGetErrorString).
 */
static const struct rt_error_text rt_error_texts[] = {
	{ cudaSuccess, "no error" },
	{ cudaErrorInvalidValue, "invalid argument" },
	{ cudaErrorMemoryAllocation, "out of memory" },
	{ cudaErrorInitializationError, "initialization error" },
	{ cudaErrorCudartUnloading, "driver shutting down" },
	{ cudaErrorInvalidConfiguration, "invalid configuration argument" },
	{ cudaErrorInvalidPitchValue, "invalid pitch argument" },
	{ cudaErrorInvalidSymbol, "invalid device symbol" },
	{ cudaErrorInvalidHostPointer, "invalid host pointer" },
	{ cudaErrorInvalidDevicePointer, "invalid device pointer" },
	{ cudaErrorInvalidTexture, "invalid texture reference" },
	{ cudaErrorInvalidTextureBinding, "texture is not bound to a pointer" },
	{ cudaErrorInvalidChannelDescriptor, "invalid channel descriptor" },
	{ cudaErrorInvalidMemcpyDirection,
	  "invalid copy direction for memcpy" },
	{ cudaErrorInvalidFilterSetting, "invalid filter setting" },
	{ cudaErrorInvalidNormSetting, "invalid norm setting" },
	{ cudaErrorStubLibrary, "CUDA driver is a stub library" },
	{ cudaErrorInsufficientDriver,
	  "CUDA driver version is insufficient for CUDA runtime version" },
	{ cudaErrorCallRequiresNewerDriver,
	  "API call is not supported in the installed CUDA driver" },
	{ cudaErrorInvalidSurface, "invalid surface reference" },
	{ cudaErrorDuplicateVariableName,
	  "duplicate global variable looked up by string name" },
	{ cudaErrorDuplicateTextureName,
	  "duplicate texture looked up by string name" },
	{ cudaErrorDuplicateSurfaceName,
	  "duplicate surface looked up by string name" },
	{ cudaErrorDevicesUnavailable,
	  "CUDA-capable device(s) is/are busy or unavailable" },
	{ cudaErrorIncompatibleDriverContext, "incompatible driver context" },
	{ cudaErrorMissingConfiguration,
	  "__global__ function call is not configured" },
	{ cudaErrorInvalidDeviceFunction, "invalid device function" },
	{ cudaErrorNoDevice, "no CUDA-capable device is detected" },
	{ cudaErrorInvalidDevice, "invalid device ordinal" },
	{ cudaErrorStartupFailure, "startup failure in cuda runtime" },
	{ cudaErrorInvalidKernelImage, "device kernel image is invalid" },
	{ cudaErrorDeviceUninitialized, "invalid device context" },
	{ cudaErrorNoKernelImageForDevice,
	  "no kernel image is available for execution on the device" },
	{ cudaErrorInvalidResourceHandle, "invalid resource handle" },
	{ cudaErrorSymbolNotFound, "named symbol not found" },
	{ cudaErrorNotReady, "device not ready" },
	{ cudaErrorIllegalAddress, "an illegal memory access was encountered" },
	{ cudaErrorLaunchOutOfResources,
	  "too many resources requested for launch" },
	{ cudaErrorLaunchTimeout, "the launch timed out and was terminated" },
	{ cudaErrorPeerAccessAlreadyEnabled,
	  "peer access is already enabled" },
	{ cudaErrorPeerAccessNotEnabled, "peer access has not been enabled" },
	{ cudaErrorSetOnActiveProcess,
	  "cannot set while device is active in this process" },
	{ cudaErrorAssert, "device-side assert triggered" },
	{ cudaErrorLaunchFailure, "unspecified launch failure" },
	{ cudaErrorCooperativeLaunchTooLarge,
	  "too many blocks in cooperative launch" },
	{ cudaErrorNotPermitted, "operation not permitted" },
	{ cudaErrorNotSupported, "operation not supported" },
	{ cudaErrorUnknown, "unknown error" },
};

/* For a code that is not in CUDA 13's enum. */
static const char rt_unrecognized[] = "unrecognized error code";

static __thread cudaError_t rt_last_error;

static const char *rt_name_of(int code)
{
	size_t i;

	for (i = 0; i < sizeof(rt_error_names) / sizeof(rt_error_names[0]); i++)
		if (rt_error_names[i].code == code)
			return rt_error_names[i].name;
	return NULL;
}

cudaError_t rt_error(CUresult r)
{
	/* The runtime's codes share the driver's numbers since CUDA 10.1. */
	if (rt_name_of((int)r))
		return (cudaError_t)r;
	return cudaErrorUnknown;
}

cudaError_t rt_ret(cudaError_t e)
{
	if (e != cudaSuccess)
		rt_last_error = e;
	return e;
}

cudaError_t rt_ret_cu(CUresult r)
{
	return rt_ret(rt_error(r));
}

const char *cudaGetErrorName(cudaError_t error)
{
	const char *name = rt_name_of((int)error);

	return name ? name : rt_unrecognized;
}

const char *cudaGetErrorString(cudaError_t error)
{
	const char *text = NULL;
	size_t i;

	if (!rt_name_of((int)error))
		return rt_unrecognized;
	for (i = 0; i < sizeof(rt_error_texts) / sizeof(rt_error_texts[0]); i++)
		if (rt_error_texts[i].code == error)
			return rt_error_texts[i].text;
	if (cuGetErrorString((CUresult)error, &text) == CUDA_SUCCESS && text)
		return text;
	return rt_unrecognized;
}

/*
 * Clears even an error that ended the context (an illegal address...), as
 * NVIDIA's runtime does: such an error is sticky in the context, whose
 * later calls answer it again, not in the thread's last error.
 */
cudaError_t cudaGetLastError(void)
{
	cudaError_t e = rt_last_error;

	rt_last_error = cudaSuccess;
	return e;
}

cudaError_t cudaPeekAtLastError(void)
{
	return rt_last_error;
}

int rt_not_supported(void)
{
	return (int)rt_ret(cudaErrorNotSupported);
}
