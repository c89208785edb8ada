// SPDX-License-Identifier: MIT
/*
 * Device queries: cuDeviceGet*, cuDeviceTotalMem, cuDeviceComputeCapability,
 * cuDeviceGetProperties, and what vgpu answers for LUIDs, textures and peers.
 */
#include <string.h>

#include "vg.h"

CUresult cuDeviceGetCount(int *count)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!count)
		return CUDA_ERROR_INVALID_VALUE;
	*count = vg_device_count;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!device)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_check_device(ordinal);
	if (r)
		return r;
	*device = ordinal;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice dev)
{
	CUresult r = vg_check_device(dev);

	if (r)
		return r;
	if (!name || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	/* Truncates like NVIDIA's driver: always NUL-terminated. */
	strncpy(name, vg_devices[dev].info.name, (size_t)len - 1);
	name[len - 1] = '\0';
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev)
{
	CUresult r = vg_check_device(dev);

	if (r)
		return r;
	if (!uuid)
		return CUDA_ERROR_INVALID_VALUE;
	memcpy(uuid->bytes, vg_devices[dev].info.uuid, sizeof(uuid->bytes));
	return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev)
{
	CUresult r = vg_check_device(dev);

	if (r)
		return r;
	if (!bytes)
		return CUDA_ERROR_INVALID_VALUE;
	*bytes = vg_devices[dev].info.mem_size;
	return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attrib,
			      CUdevice dev)
{
	CUresult r = vg_check_device(dev);

	if (r)
		return r;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	return vg_attribute(&vg_devices[dev].info, attrib, value);
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev)
{
	CUresult r = vg_check_device(dev);

	if (r)
		return r;
	if (!major || !minor)
		return CUDA_ERROR_INVALID_VALUE;
	*major = (int)vg_devices[dev].info.cc_major;
	*minor = (int)vg_devices[dev].info.cc_minor;
	return CUDA_SUCCESS;
}

/* The legacy property block, from the attributes of the same names. */
CUresult cuDeviceGetProperties(CUdevprop *prop, CUdevice dev)
{
	const struct vgpu_info *info;
	CUresult r = vg_check_init();
	int i;

	if (r)
		return r;
	if (!prop)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_check_device(dev);
	if (r)
		return r;
	info = &vg_devices[dev].info;
	memset(prop, 0, sizeof(*prop));
	vg_attribute(info, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
		     &prop->maxThreadsPerBlock);
	for (i = 0; i < 3; i++) {
		vg_attribute(info, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + i,
			     &prop->maxThreadsDim[i]);
		vg_attribute(info, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + i,
			     &prop->maxGridSize[i]);
	}
	vg_attribute(info, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
		     &prop->sharedMemPerBlock);
	vg_attribute(info, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY,
		     &prop->totalConstantMemory);
	vg_attribute(info, CU_DEVICE_ATTRIBUTE_WARP_SIZE, &prop->SIMDWidth);
	vg_attribute(info, CU_DEVICE_ATTRIBUTE_MAX_PITCH, &prop->memPitch);
	vg_attribute(info, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK,
		     &prop->regsPerBlock);
	vg_attribute(info, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, &prop->clockRate);
	vg_attribute(info, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT,
		     &prop->textureAlign);
	return CUDA_SUCCESS;
}

/* A LUID is a Windows (WDDM) device's: NVIDIA's Linux driver has none. */
CUresult cuDeviceGetLuid(char *luid, unsigned int *mask, CUdevice dev)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!luid || !mask)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_check_device(dev);
	return r ? r : CUDA_ERROR_NOT_SUPPORTED;
}

/**
 * vg_texture_channels() - the channel counts a texture of @format may have,
 * as a bit mask (bit n: n channels); 0 for a format CUDA does not define.
 * The plain formats take 1, 2 or 4 channels; the others have their own
 * count (NVIDIA's driver refuses any other, tests/e2e/ref/h100_api.log).
 */
unsigned int vg_texture_channels(int format)
{
	switch (format) {
	case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_UNSIGNED_INT16:
	case CU_AD_FORMAT_UNSIGNED_INT32: case CU_AD_FORMAT_SIGNED_INT8:
	case CU_AD_FORMAT_SIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT32:
	case CU_AD_FORMAT_HALF: case CU_AD_FORMAT_FLOAT:
		return 1u << 1 | 1u << 2 | 1u << 4;
	case CU_AD_FORMAT_UNORM_INT8X1: case CU_AD_FORMAT_UNORM_INT16X1:
	case CU_AD_FORMAT_SNORM_INT8X1: case CU_AD_FORMAT_SNORM_INT16X1:
	case CU_AD_FORMAT_BC4_UNORM: case CU_AD_FORMAT_BC4_SNORM:
		return 1u << 1;
	case CU_AD_FORMAT_UNORM_INT8X2: case CU_AD_FORMAT_UNORM_INT16X2:
	case CU_AD_FORMAT_SNORM_INT8X2: case CU_AD_FORMAT_SNORM_INT16X2:
	case CU_AD_FORMAT_BC5_UNORM: case CU_AD_FORMAT_BC5_SNORM:
	case CU_AD_FORMAT_YUY2: case CU_AD_FORMAT_Y210: case CU_AD_FORMAT_Y216:
		return 1u << 2;
	/* Three: BC6H, and the planar YUV formats, as NV12 on the H100. */
	case CU_AD_FORMAT_NV12: case CU_AD_FORMAT_P010: case CU_AD_FORMAT_P016:
	case CU_AD_FORMAT_NV16: case CU_AD_FORMAT_P210: case CU_AD_FORMAT_P216:
	case CU_AD_FORMAT_Y444_PLANAR8: case CU_AD_FORMAT_Y444_PLANAR10:
	case CU_AD_FORMAT_YUV444_8bit_SemiPlanar:
	case CU_AD_FORMAT_YUV444_16bit_SemiPlanar:
	case CU_AD_FORMAT_BC6H_UF16: case CU_AD_FORMAT_BC6H_SF16:
		return 1u << 3;
	case CU_AD_FORMAT_UNORM_INT8X4: case CU_AD_FORMAT_UNORM_INT16X4:
	case CU_AD_FORMAT_SNORM_INT8X4: case CU_AD_FORMAT_SNORM_INT16X4:
	case CU_AD_FORMAT_BC1_UNORM: case CU_AD_FORMAT_BC1_UNORM_SRGB:
	case CU_AD_FORMAT_BC2_UNORM: case CU_AD_FORMAT_BC2_UNORM_SRGB:
	case CU_AD_FORMAT_BC3_UNORM: case CU_AD_FORMAT_BC3_UNORM_SRGB:
	case CU_AD_FORMAT_BC7_UNORM: case CU_AD_FORMAT_BC7_UNORM_SRGB:
	case CU_AD_FORMAT_AYUV: case CU_AD_FORMAT_Y410: case CU_AD_FORMAT_Y416:
	case CU_AD_FORMAT_UNORM_INT_101010_2:
		return 1u << 4;
	default:
		return 0;
	}
}

/*
 * The bytes a linear texture of @format takes an element (a 4x4 block of
 * the compressed formats). The video formats and 10:10:10:2 count as 4,
 * which is what an H100's widths for NV12 and 10:10:10:2 imply.
 */
static unsigned int vg_linear_texel_bytes(CUarray_format format,
					  unsigned int channels)
{
	switch (format) {
	case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_SIGNED_INT8:
	case CU_AD_FORMAT_UNORM_INT8X1: case CU_AD_FORMAT_UNORM_INT8X2:
	case CU_AD_FORMAT_UNORM_INT8X4: case CU_AD_FORMAT_SNORM_INT8X1:
	case CU_AD_FORMAT_SNORM_INT8X2: case CU_AD_FORMAT_SNORM_INT8X4:
		return channels;
	case CU_AD_FORMAT_UNSIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT16:
	case CU_AD_FORMAT_HALF:
	case CU_AD_FORMAT_UNORM_INT16X1: case CU_AD_FORMAT_UNORM_INT16X2:
	case CU_AD_FORMAT_UNORM_INT16X4: case CU_AD_FORMAT_SNORM_INT16X1:
	case CU_AD_FORMAT_SNORM_INT16X2: case CU_AD_FORMAT_SNORM_INT16X4:
		return 2 * channels;
	case CU_AD_FORMAT_UNSIGNED_INT32: case CU_AD_FORMAT_SIGNED_INT32:
	case CU_AD_FORMAT_FLOAT:
		return 4 * channels;
	case CU_AD_FORMAT_BC1_UNORM: case CU_AD_FORMAT_BC1_UNORM_SRGB:
	case CU_AD_FORMAT_BC4_UNORM: case CU_AD_FORMAT_BC4_SNORM:
		return 8;
	case CU_AD_FORMAT_BC2_UNORM: case CU_AD_FORMAT_BC2_UNORM_SRGB:
	case CU_AD_FORMAT_BC3_UNORM: case CU_AD_FORMAT_BC3_UNORM_SRGB:
	case CU_AD_FORMAT_BC5_UNORM: case CU_AD_FORMAT_BC5_SNORM:
	case CU_AD_FORMAT_BC6H_UF16: case CU_AD_FORMAT_BC6H_SF16:
	case CU_AD_FORMAT_BC7_UNORM: case CU_AD_FORMAT_BC7_UNORM_SRGB:
		return 16;
	default:
		return 4;
	}
}

/*
 * The format and channels are checked before the device, as NVIDIA's
 * driver does. The width is an H100's (tests/e2e/ref/h100_api.log): 4 GiB
 * of elements, at most 2^30 of them.
 */
CUresult cuDeviceGetTexture1DLinearMaxWidth(size_t *width,
					    CUarray_format format,
					    unsigned int channels,
					    CUdevice dev)
{
	size_t n;
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!width || channels > 4 ||
	    !(vg_texture_channels(format) & 1u << channels))
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_check_device(dev);
	if (r)
		return r;
	n = (1ULL << 32) / vg_linear_texel_bytes(format, channels);
	*width = n < (1ULL << 30) ? n : 1ULL << 30;
	return CUDA_SUCCESS;
}

/*
 * Peers: every vgpu device reaches every other's memory, by copies and,
 * once cuCtxEnablePeerAccess asks, by kernels (peer.c). A device and
 * itself are no pair: cuDeviceCanAccessPeer answers 0 for it, and
 * cuDeviceGetP2PAttribute refuses it, as NVIDIA's driver does.
 */
CUresult cuDeviceCanAccessPeer(int *can, CUdevice dev, CUdevice peer)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!can)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_check_device(dev);
	if (!r)
		r = vg_check_device(peer);
	if (r)
		return r;
	*can = dev != peer;
	return CUDA_SUCCESS;
}

/*
 * A pair's link: one rank for all; access; atomics, which are the host's
 * own on the same memory, whole; no CUDA arrays (vgpu has none yet).
 */
CUresult cuDeviceGetP2PAttribute(int *value, CUdevice_P2PAttribute attrib,
				 CUdevice src, CUdevice dst)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (!value)
		return CUDA_ERROR_INVALID_VALUE;
	r = vg_check_device(src);
	if (!r)
		r = vg_check_device(dst);
	if (r)
		return r;
	if (src == dst)
		return CUDA_ERROR_INVALID_DEVICE;
	switch (attrib) {
	case CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK:
	case CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED:
	case CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED:
		*value = 0;
		return CUDA_SUCCESS;
	case CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED:
	case CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED:
		*value = 1;
		return CUDA_SUCCESS;
	default:
		return CUDA_ERROR_INVALID_VALUE;
	}
}
