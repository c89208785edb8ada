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
 * Each code's text, as NVIDIA's libcudart.so.13 gives it on an H100
 * (tests/unit/data/rt_errors_h100.log).
 */
static const struct rt_error_text rt_error_texts[] = {
	{ cudaSuccess, "no error" },
	{ cudaErrorInvalidValue, "invalid argument" },
	{ cudaErrorMemoryAllocation, "out of memory" },
	{ cudaErrorInitializationError, "initialization error" },
	{ cudaErrorCudartUnloading, "driver shutting down" },
	{ cudaErrorProfilerDisabled,
	  "profiler disabled while using external profiling tool" },
	{ cudaErrorProfilerNotInitialized,
	  "profiler not initialized: call cudaProfilerInitialize()" },
	{ cudaErrorProfilerAlreadyStarted, "profiler already started" },
	{ cudaErrorProfilerAlreadyStopped, "profiler already stopped" },
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
	{ cudaErrorAddressOfConstant, "invalid address of constant" },
	{ cudaErrorTextureFetchFailed, "fetch from texture failed" },
	{ cudaErrorTextureNotBound,
	  "cannot fetch from a texture that is not bound" },
	{ cudaErrorSynchronizationError, "incorrect use of __syncthreads()" },
	{ cudaErrorInvalidFilterSetting,
	  "linear filtering not supported for non-float type" },
	{ cudaErrorInvalidNormSetting,
	  "read as normalized float not supported for data type" },
	{ cudaErrorMixedDeviceExecution,
	  "device emulation mode and device execution mode cannot be mixed" },
	{ cudaErrorNotYetImplemented, "feature not yet implemented" },
	{ cudaErrorMemoryValueTooLarge,
	  "memory size or pointer value too large to fit in 32 bit" },
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
	{ cudaErrorPriorLaunchFailure,
	  "unspecified launch failure in prior launch" },
	{ cudaErrorLaunchMaxDepthExceeded,
	  "launch would exceed maximum depth of nested launches" },
	{ cudaErrorLaunchFileScopedTex,
	  "launch failed because kernel uses unsupported, file-scoped "
	  "textures (texture objects are supported)" },
	{ cudaErrorLaunchFileScopedSurf,
	  "launch failed because kernel uses unsupported, file-scoped "
	  "surfaces (surface objects are supported)" },
	{ cudaErrorSyncDepthExceeded,
	  "cudaDeviceSynchronize failed because caller's grid depth exceeds "
	  "cudaLimitDevRuntimeSyncDepth" },
	{ cudaErrorLaunchPendingCountExceeded,
	  "launch failed because launch would exceed "
	  "cudaLimitDevRuntimePendingLaunchCount" },
	{ cudaErrorInvalidDeviceFunction, "invalid device function" },
	{ cudaErrorNoDevice, "no CUDA-capable device is detected" },
	{ cudaErrorInvalidDevice, "invalid device ordinal" },
	{ cudaErrorDeviceNotLicensed,
	  "device doesn't have valid Grid license" },
	{ cudaErrorSoftwareValidityNotEstablished, "integrity checks failed" },
	{ cudaErrorStartupFailure, "startup failure in cuda runtime" },
	{ cudaErrorInvalidKernelImage, "device kernel image is invalid" },
	{ cudaErrorDeviceUninitialized, "invalid device context" },
	{ cudaErrorMapBufferObjectFailed, "mapping of buffer object failed" },
	{ cudaErrorUnmapBufferObjectFailed,
	  "unmapping of buffer object failed" },
	{ cudaErrorArrayIsMapped, "array is mapped" },
	{ cudaErrorAlreadyMapped, "resource already mapped" },
	{ cudaErrorNoKernelImageForDevice,
	  "no kernel image is available for execution on the device" },
	{ cudaErrorAlreadyAcquired, "resource already acquired" },
	{ cudaErrorNotMapped, "resource not mapped" },
	{ cudaErrorNotMappedAsArray, "resource not mapped as array" },
	{ cudaErrorNotMappedAsPointer, "resource not mapped as pointer" },
	{ cudaErrorECCUncorrectable, "uncorrectable ECC error encountered" },
	{ cudaErrorUnsupportedLimit,
	  "limit is not supported on this architecture" },
	{ cudaErrorDeviceAlreadyInUse,
	  "exclusive-thread device already in use by a different thread" },
	{ cudaErrorPeerAccessUnsupported,
	  "peer access is not supported between these two devices" },
	{ cudaErrorInvalidPtx, "a PTX JIT compilation failed" },
	{ cudaErrorInvalidGraphicsContext,
	  "invalid OpenGL or DirectX context" },
	{ cudaErrorNvlinkUncorrectable,
	  "uncorrectable NVLink error detected during the execution" },
	{ cudaErrorJitCompilerNotFound, "PTX JIT compiler library not found" },
	{ cudaErrorUnsupportedPtxVersion,
	  "the provided PTX was compiled with an unsupported toolchain." },
	{ cudaErrorJitCompilationDisabled, "PTX JIT compilation was disabled" },
	{ cudaErrorUnsupportedExecAffinity,
	  "the provided execution affinity is not supported" },
	{ cudaErrorUnsupportedDevSideSync,
	  "the provided PTX contains unsupported call to "
	  "cudaDeviceSynchronize" },
	{ cudaErrorContained,
	  "Invalid access of peer GPU memory over nvlink or a hardware error" },
	{ cudaErrorInvalidSource, "device kernel image is invalid" },
	{ cudaErrorFileNotFound, "file not found" },
	{ cudaErrorSharedObjectSymbolNotFound,
	  "shared object symbol not found" },
	{ cudaErrorSharedObjectInitFailed,
	  "shared object initialization failed" },
	{ cudaErrorOperatingSystem,
	  "OS call failed or operation not supported on this OS" },
	{ cudaErrorInvalidResourceHandle, "invalid resource handle" },
	{ cudaErrorIllegalState,
	  "the operation cannot be performed in the present state" },
	{ cudaErrorLossyQuery,
	  "attempted introspection would be semantically lossy" },
	{ cudaErrorSymbolNotFound, "named symbol not found" },
	{ cudaErrorNotReady, "device not ready" },
	{ cudaErrorIllegalAddress, "an illegal memory access was encountered" },
	{ cudaErrorLaunchOutOfResources,
	  "too many resources requested for launch" },
	{ cudaErrorLaunchTimeout, "the launch timed out and was terminated" },
	{ cudaErrorLaunchIncompatibleTexturing,
	  "launch uses incompatible texturing mode" },
	{ cudaErrorPeerAccessAlreadyEnabled, "peer access is already enabled" },
	{ cudaErrorPeerAccessNotEnabled, "peer access has not been enabled" },
	{ cudaErrorSetOnActiveProcess,
	  "cannot set while device is active in this process" },
	{ cudaErrorContextIsDestroyed, "context is destroyed" },
	{ cudaErrorAssert, "device-side assert triggered" },
	{ cudaErrorTooManyPeers, "peer mapping resources exhausted" },
	{ cudaErrorHostMemoryAlreadyRegistered,
	  "part or all of the requested memory range is already mapped" },
	{ cudaErrorHostMemoryNotRegistered,
	  "pointer does not correspond to a registered memory region" },
	{ cudaErrorHardwareStackError, "hardware stack error" },
	{ cudaErrorIllegalInstruction,
	  "an illegal instruction was encountered" },
	{ cudaErrorMisalignedAddress, "misaligned address" },
	{ cudaErrorInvalidAddressSpace,
	  "operation not supported on global/shared address space" },
	{ cudaErrorInvalidPc, "invalid program counter" },
	{ cudaErrorLaunchFailure, "unspecified launch failure" },
	{ cudaErrorCooperativeLaunchTooLarge,
	  "too many blocks in cooperative launch" },
	{ cudaErrorTensorMemoryLeak, "tensor memory not completely freed" },
	{ cudaErrorNotPermitted, "operation not permitted" },
	{ cudaErrorNotSupported, "operation not supported" },
	{ cudaErrorSystemNotReady, "system not yet initialized" },
	{ cudaErrorSystemDriverMismatch,
	  "system has unsupported display driver / cuda driver combination" },
	{ cudaErrorCompatNotSupportedOnDevice,
	  "forward compatibility was attempted on non supported HW" },
	{ cudaErrorMpsConnectionFailed,
	  "MPS client failed to connect to the MPS control daemon or the MPS "
	  "server" },
	{ cudaErrorMpsRpcFailure,
	  "the remote procedural call between the MPS server and the MPS "
	  "client failed" },
	{ cudaErrorMpsServerNotReady,
	  "MPS server is not ready to accept new MPS client requests" },
	{ cudaErrorMpsMaxClientsReached,
	  "the hardware resources required to create MPS client have been "
	  "exhausted" },
	{ cudaErrorMpsMaxConnectionsReached,
	  "the hardware resources required to support device connections "
	  "have been exhausted" },
	{ cudaErrorMpsClientTerminated,
	  "the MPS client has been terminated by the server" },
	{ cudaErrorCdpNotSupported,
	  "is using CUDA Dynamic Parallelism, but the current configuration, "
	  "like MPS, does not support it" },
	{ cudaErrorCdpVersionMismatch,
	  "unsupported interaction between different versions of CUDA "
	  "Dynamic Parallelism" },
	{ cudaErrorStreamCaptureUnsupported,
	  "operation not permitted when stream is capturing" },
	{ cudaErrorStreamCaptureInvalidated,
	  "operation failed due to a previous error during capture" },
	{ cudaErrorStreamCaptureMerge,
	  "operation would result in a merge of separate capture sequences" },
	{ cudaErrorStreamCaptureUnmatched,
	  "capture was not ended in the same stream as it began" },
	{ cudaErrorStreamCaptureUnjoined,
	  "capturing stream has unjoined work" },
	{ cudaErrorStreamCaptureIsolation,
	  "dependency created on uncaptured work in another stream" },
	{ cudaErrorStreamCaptureImplicit,
	  "operation would make the legacy stream depend on a capturing "
	  "blocking stream" },
	{ cudaErrorCapturedEvent,
	  "operation not permitted on an event last recorded in a capturing "
	  "stream" },
	{ cudaErrorStreamCaptureWrongThread,
	  "attempt to terminate a thread-local capture sequence from another "
	  "thread" },
	{ cudaErrorTimeout, "wait operation timed out" },
	{ cudaErrorGraphExecUpdateFailure,
	  "the graph update was not performed because it included changes "
	  "which violated constraints specific to instantiated graph update" },
	{ cudaErrorExternalDevice,
	  "an async error has occured in external entity outside of CUDA" },
	{ cudaErrorInvalidClusterSize,
	  "a kernel launch error has occurred due to cluster "
	  "misconfiguration" },
	{ cudaErrorFunctionNotLoaded,
	  "the function handle is not loaded when calling an API that "
	  "requires a loaded function" },
	{ cudaErrorInvalidResourceType,
	  "one or more resources passed in are not valid resource types for "
	  "the operation" },
	{ cudaErrorInvalidResourceConfiguration,
	  "one or more resources are insufficient or non-applicable for the "
	  "operation" },
	{ cudaErrorUnknown, "unknown error" },
	{ cudaErrorApiFailureBase, "api failure base" },
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
	size_t i;

	for (i = 0; i < sizeof(rt_error_texts) / sizeof(rt_error_texts[0]); i++)
		if (rt_error_texts[i].code == error)
			return rt_error_texts[i].text;
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
