// SPDX-License-Identifier: MIT
/*
 * The entry points of CUDA 13.0's libcudart.so.13 that vgpu's runtime
 * does not implement yet: each answers cudaErrorNotSupported and makes it
 * the thread's last error. The list is the toolkit's library's exports
 * (nm -D) less the runtime's own; an entry point leaves it when it is
 * implemented, and tests/host/rt_symbols.sh checks none is missing.
 *
 * The stubs are declared here without parameters: they read none, and the
 * calling convention leaves unread arguments alone. Every one of them
 * returns cudaError_t (an int) in NVIDIA's headers, or nothing (the
 * registration entry points, whose callers ignore the register), so this
 * file does not include the runtime's header, whose prototypes differ.
 */

/* errors.c: records cudaErrorNotSupported as the last error, returns it. */
int rt_not_supported(void);

#define RT_UNSUPPORTED(name) \
	int name(void); \
	int name(void) \
	{ \
		return rt_not_supported(); \
	}

RT_UNSUPPORTED(__cudaGetProcAddress)
RT_UNSUPPORTED(__cudaRegisterHostVar)
RT_UNSUPPORTED(__cudaRegisterUnifiedTable)
RT_UNSUPPORTED(cudaDeviceGetHostAtomicCapabilities)
RT_UNSUPPORTED(cudaDeviceGetNvSciSyncAttributes)
RT_UNSUPPORTED(cudaDeviceGetP2PAtomicCapabilities)
RT_UNSUPPORTED(cudaEGLStreamConsumerAcquireFrame)
RT_UNSUPPORTED(cudaEGLStreamConsumerConnect)
RT_UNSUPPORTED(cudaEGLStreamConsumerConnectWithFlags)
RT_UNSUPPORTED(cudaEGLStreamConsumerDisconnect)
RT_UNSUPPORTED(cudaEGLStreamConsumerReleaseFrame)
RT_UNSUPPORTED(cudaEGLStreamProducerConnect)
RT_UNSUPPORTED(cudaEGLStreamProducerDisconnect)
RT_UNSUPPORTED(cudaEGLStreamProducerPresentFrame)
RT_UNSUPPORTED(cudaEGLStreamProducerReturnFrame)
RT_UNSUPPORTED(cudaEventCreateFromEGLSync)
RT_UNSUPPORTED(cudaExternalMemoryGetMappedMipmappedArray)
RT_UNSUPPORTED(cudaGLGetDevices)
RT_UNSUPPORTED(cudaGLMapBufferObject)
RT_UNSUPPORTED(cudaGLMapBufferObjectAsync)
RT_UNSUPPORTED(cudaGLRegisterBufferObject)
RT_UNSUPPORTED(cudaGLSetBufferObjectMapFlags)
RT_UNSUPPORTED(cudaGLSetGLDevice)
RT_UNSUPPORTED(cudaGLUnmapBufferObject)
RT_UNSUPPORTED(cudaGLUnmapBufferObjectAsync)
RT_UNSUPPORTED(cudaGLUnregisterBufferObject)
RT_UNSUPPORTED(cudaGetExportTable)
RT_UNSUPPORTED(cudaGraphicsEGLRegisterImage)
RT_UNSUPPORTED(cudaGraphicsGLRegisterBuffer)
RT_UNSUPPORTED(cudaGraphicsGLRegisterImage)
RT_UNSUPPORTED(cudaGraphicsMapResources)
RT_UNSUPPORTED(cudaGraphicsResourceGetMappedEglFrame)
RT_UNSUPPORTED(cudaGraphicsResourceGetMappedMipmappedArray)
RT_UNSUPPORTED(cudaGraphicsResourceGetMappedPointer)
RT_UNSUPPORTED(cudaGraphicsResourceSetMapFlags)
RT_UNSUPPORTED(cudaGraphicsSubResourceGetMappedArray)
RT_UNSUPPORTED(cudaGraphicsUnmapResources)
RT_UNSUPPORTED(cudaGraphicsUnregisterResource)
RT_UNSUPPORTED(cudaGraphicsVDPAURegisterOutputSurface)
RT_UNSUPPORTED(cudaGraphicsVDPAURegisterVideoSurface)
RT_UNSUPPORTED(cudaLogsCurrent)
RT_UNSUPPORTED(cudaLogsDumpToFile)
RT_UNSUPPORTED(cudaLogsDumpToMemory)
RT_UNSUPPORTED(cudaLogsRegisterCallback)
RT_UNSUPPORTED(cudaLogsUnregisterCallback)
RT_UNSUPPORTED(cudaMemcpy3DBatchAsync)
RT_UNSUPPORTED(cudaMemcpy3DBatchAsync_ptsz)
RT_UNSUPPORTED(cudaMemcpyBatchAsync)
RT_UNSUPPORTED(cudaMemcpyBatchAsync_ptsz)
RT_UNSUPPORTED(cudaSetValidDevices)
RT_UNSUPPORTED(cudaVDPAUGetDevice)
RT_UNSUPPORTED(cudaVDPAUSetVDPAUDevice)
