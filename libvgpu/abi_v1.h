/* SPDX-License-Identifier: MIT */
/*
 * Types of the first ABI (API version 3010), which cuda.h no longer names:
 * its 32-bit device pointer, and its array and copy descriptors, the
 * current ones' fields in the same order with 32-bit sizes, positions,
 * pitches and pointers. For the unsuffixed entry points of compat_v1.c,
 * array_v1.c, texref_v1.c and unsupported.c.
 */
#ifndef VG_ABI_V1_H
#define VG_ABI_V1_H

#include "cuda.h"

typedef unsigned int CUdeviceptr_v1;
typedef struct CUDA_ARRAY_DESCRIPTOR_v1_st {
	unsigned int Width;
	unsigned int Height;
	CUarray_format Format;
	unsigned int NumChannels;
} CUDA_ARRAY_DESCRIPTOR_v1;
typedef struct CUDA_ARRAY3D_DESCRIPTOR_v1_st {
	unsigned int Width;
	unsigned int Height;
	unsigned int Depth;
	CUarray_format Format;
	unsigned int NumChannels;
	unsigned int Flags;
} CUDA_ARRAY3D_DESCRIPTOR_v1;
typedef struct CUDA_MEMCPY2D_v1_st {
	unsigned int srcXInBytes;
	unsigned int srcY;
	CUmemorytype srcMemoryType;
	const void *srcHost;
	CUdeviceptr_v1 srcDevice;
	CUarray srcArray;
	unsigned int srcPitch;
	unsigned int dstXInBytes;
	unsigned int dstY;
	CUmemorytype dstMemoryType;
	void *dstHost;
	CUdeviceptr_v1 dstDevice;
	CUarray dstArray;
	unsigned int dstPitch;
	unsigned int WidthInBytes;
	unsigned int Height;
} CUDA_MEMCPY2D_v1;
typedef struct CUDA_MEMCPY3D_v1_st {
	unsigned int srcXInBytes;
	unsigned int srcY;
	unsigned int srcZ;
	unsigned int srcLOD;
	CUmemorytype srcMemoryType;
	const void *srcHost;
	CUdeviceptr_v1 srcDevice;
	CUarray srcArray;
	void *reserved0;
	unsigned int srcPitch;
	unsigned int srcHeight;
	unsigned int dstXInBytes;
	unsigned int dstY;
	unsigned int dstZ;
	unsigned int dstLOD;
	CUmemorytype dstMemoryType;
	void *dstHost;
	CUdeviceptr_v1 dstDevice;
	CUarray dstArray;
	void *reserved1;
	unsigned int dstPitch;
	unsigned int dstHeight;
	unsigned int WidthInBytes;
	unsigned int Height;
	unsigned int Depth;
} CUDA_MEMCPY3D_v1;

#endif /* VG_ABI_V1_H */
