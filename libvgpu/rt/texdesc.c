// SPDX-License-Identifier: MIT
/*
 * The runtime's descriptors of texels, textures and resources as the
 * driver's, and back: a cudaChannelFormatDesc (bits per channel and a
 * kind) is a CUarray_format and a channel count, a cudaTextureDesc's
 * fields are CUDA_TEXTURE_DESC's flags, a cudaResourceDesc names its
 * memory's format by channel descriptor. Pure conversions: no driver
 * call, so tests/unit/test_rt_texdesc.c checks them on the host.
 */
#include <string.h>

#include "rt.h"

_Static_assert(cudaArrayLayered == CUDA_ARRAY3D_LAYERED &&
	       cudaArraySurfaceLoadStore == CUDA_ARRAY3D_SURFACE_LDST &&
	       cudaArrayCubemap == CUDA_ARRAY3D_CUBEMAP &&
	       cudaArrayTextureGather == CUDA_ARRAY3D_TEXTURE_GATHER &&
	       cudaArrayColorAttachment == CUDA_ARRAY3D_COLOR_ATTACHMENT &&
	       cudaArraySparse == CUDA_ARRAY3D_SPARSE &&
	       cudaArrayDeferredMapping == CUDA_ARRAY3D_DEFERRED_MAPPING,
	       "the runtime's array flags are the driver's");
_Static_assert((int)cudaAddressModeBorder == (int)CU_TR_ADDRESS_MODE_BORDER &&
	       (int)cudaFilterModeLinear == (int)CU_TR_FILTER_MODE_LINEAR,
	       "address and filter modes have one numbering");
_Static_assert((int)cudaResViewFormatUnsignedBlockCompressed7 ==
	       (int)CU_RES_VIEW_FORMAT_UNSIGNED_BC7,
	       "view formats have one numbering");

/*
 * The kinds whose format is theirs alone, with the bits per channel they
 * take (channel_descriptor.h's templates give the same): the channel
 * count is the number of channels with bits.
 */
static const struct {
	enum cudaChannelFormatKind kind;
	CUarray_format format;
	int bits[4];
} rt_fixed_kinds[] = {
	{ cudaChannelFormatKindNV12, CU_AD_FORMAT_NV12, { 8, 8, 8, 0 } },
	{ cudaChannelFormatKindUnsignedNormalized8X1, CU_AD_FORMAT_UNORM_INT8X1,
	  { 8, 0, 0, 0 } },
	{ cudaChannelFormatKindUnsignedNormalized8X2, CU_AD_FORMAT_UNORM_INT8X2,
	  { 8, 8, 0, 0 } },
	{ cudaChannelFormatKindUnsignedNormalized8X4, CU_AD_FORMAT_UNORM_INT8X4,
	  { 8, 8, 8, 8 } },
	{ cudaChannelFormatKindUnsignedNormalized16X1,
	  CU_AD_FORMAT_UNORM_INT16X1, { 16, 0, 0, 0 } },
	{ cudaChannelFormatKindUnsignedNormalized16X2,
	  CU_AD_FORMAT_UNORM_INT16X2, { 16, 16, 0, 0 } },
	{ cudaChannelFormatKindUnsignedNormalized16X4,
	  CU_AD_FORMAT_UNORM_INT16X4, { 16, 16, 16, 16 } },
	{ cudaChannelFormatKindSignedNormalized8X1, CU_AD_FORMAT_SNORM_INT8X1,
	  { 8, 0, 0, 0 } },
	{ cudaChannelFormatKindSignedNormalized8X2, CU_AD_FORMAT_SNORM_INT8X2,
	  { 8, 8, 0, 0 } },
	{ cudaChannelFormatKindSignedNormalized8X4, CU_AD_FORMAT_SNORM_INT8X4,
	  { 8, 8, 8, 8 } },
	{ cudaChannelFormatKindSignedNormalized16X1, CU_AD_FORMAT_SNORM_INT16X1,
	  { 16, 0, 0, 0 } },
	{ cudaChannelFormatKindSignedNormalized16X2, CU_AD_FORMAT_SNORM_INT16X2,
	  { 16, 16, 0, 0 } },
	{ cudaChannelFormatKindSignedNormalized16X4, CU_AD_FORMAT_SNORM_INT16X4,
	  { 16, 16, 16, 16 } },
	{ cudaChannelFormatKindUnsignedBlockCompressed1, CU_AD_FORMAT_BC1_UNORM,
	  { 8, 8, 8, 8 } },
	{ cudaChannelFormatKindUnsignedBlockCompressed1SRGB,
	  CU_AD_FORMAT_BC1_UNORM_SRGB, { 8, 8, 8, 8 } },
	{ cudaChannelFormatKindUnsignedBlockCompressed2, CU_AD_FORMAT_BC2_UNORM,
	  { 8, 8, 8, 8 } },
	{ cudaChannelFormatKindUnsignedBlockCompressed2SRGB,
	  CU_AD_FORMAT_BC2_UNORM_SRGB, { 8, 8, 8, 8 } },
	{ cudaChannelFormatKindUnsignedBlockCompressed3, CU_AD_FORMAT_BC3_UNORM,
	  { 8, 8, 8, 8 } },
	{ cudaChannelFormatKindUnsignedBlockCompressed3SRGB,
	  CU_AD_FORMAT_BC3_UNORM_SRGB, { 8, 8, 8, 8 } },
	{ cudaChannelFormatKindUnsignedBlockCompressed4, CU_AD_FORMAT_BC4_UNORM,
	  { 8, 0, 0, 0 } },
	{ cudaChannelFormatKindSignedBlockCompressed4, CU_AD_FORMAT_BC4_SNORM,
	  { 8, 0, 0, 0 } },
	{ cudaChannelFormatKindUnsignedBlockCompressed5, CU_AD_FORMAT_BC5_UNORM,
	  { 8, 8, 0, 0 } },
	{ cudaChannelFormatKindSignedBlockCompressed5, CU_AD_FORMAT_BC5_SNORM,
	  { 8, 8, 0, 0 } },
	{ cudaChannelFormatKindUnsignedBlockCompressed6H,
	  CU_AD_FORMAT_BC6H_UF16, { 16, 16, 16, 0 } },
	{ cudaChannelFormatKindSignedBlockCompressed6H, CU_AD_FORMAT_BC6H_SF16,
	  { 16, 16, 16, 0 } },
	{ cudaChannelFormatKindUnsignedBlockCompressed7, CU_AD_FORMAT_BC7_UNORM,
	  { 8, 8, 8, 8 } },
	{ cudaChannelFormatKindUnsignedBlockCompressed7SRGB,
	  CU_AD_FORMAT_BC7_UNORM_SRGB, { 8, 8, 8, 8 } },
	{ cudaChannelFormatKindUnsignedNormalized1010102,
	  CU_AD_FORMAT_UNORM_INT_101010_2, { 10, 10, 10, 2 } },
};

#define RT_NFIXED (sizeof(rt_fixed_kinds) / sizeof(rt_fixed_kinds[0]))

/* The plain kinds' formats, by bits per channel (8, 16, 32). */
static const struct {
	enum cudaChannelFormatKind kind;
	CUarray_format format[3];
} rt_plain_kinds[] = {
	{ cudaChannelFormatKindSigned, { CU_AD_FORMAT_SIGNED_INT8,
	  CU_AD_FORMAT_SIGNED_INT16, CU_AD_FORMAT_SIGNED_INT32 } },
	{ cudaChannelFormatKindUnsigned, { CU_AD_FORMAT_UNSIGNED_INT8,
	  CU_AD_FORMAT_UNSIGNED_INT16, CU_AD_FORMAT_UNSIGNED_INT32 } },
	/* Floats have no 8-bit format: 0 is none. */
	{ cudaChannelFormatKindFloat, { (CUarray_format)0, CU_AD_FORMAT_HALF,
	  CU_AD_FORMAT_FLOAT } },
};

#define RT_NPLAIN (sizeof(rt_plain_kinds) / sizeof(rt_plain_kinds[0]))

cudaError_t rt_format_of(const struct cudaChannelFormatDesc *d,
			 CUarray_format *format, unsigned int *channels)
{
	const int bits[4] = { d->x, d->y, d->z, d->w };
	unsigned int i, n;
	int size;

	for (i = 0; i < RT_NFIXED; i++) {
		if (rt_fixed_kinds[i].kind != d->f)
			continue;
		if (memcmp(bits, rt_fixed_kinds[i].bits, sizeof(bits)))
			return cudaErrorInvalidChannelDescriptor;
		for (n = 0; n < 4 && bits[n]; n++)
			;
		*format = rt_fixed_kinds[i].format;
		*channels = n;
		return cudaSuccess;
	}
	/*
	 * The plain kinds: channels from x on, all of one size, none after
	 * the first without bits; 1, 2 or 4 of them, as the driver takes.
	 */
	for (n = 0; n < 4 && bits[n]; n++)
		if (bits[n] != bits[0])
			return cudaErrorInvalidChannelDescriptor;
	for (i = n; i < 4; i++)
		if (bits[i])
			return cudaErrorInvalidChannelDescriptor;
	if (n != 1 && n != 2 && n != 4)
		return cudaErrorInvalidChannelDescriptor;
	size = bits[0] == 8 ? 0 : bits[0] == 16 ? 1 : bits[0] == 32 ? 2 : -1;
	for (i = 0; size >= 0 && i < RT_NPLAIN; i++) {
		if (rt_plain_kinds[i].kind != d->f ||
		    !rt_plain_kinds[i].format[size])
			continue;
		*format = rt_plain_kinds[i].format[size];
		*channels = n;
		return cudaSuccess;
	}
	return cudaErrorInvalidChannelDescriptor;
}

struct cudaChannelFormatDesc rt_channel_desc(CUarray_format format,
					     unsigned int channels)
{
	struct cudaChannelFormatDesc d = { 0, 0, 0, 0,
					   cudaChannelFormatKindNone };
	int bits[4] = { 0, 0, 0, 0 };
	unsigned int i, s, k;

	for (i = 0; i < RT_NFIXED; i++) {
		if (rt_fixed_kinds[i].format != format)
			continue;
		d.x = rt_fixed_kinds[i].bits[0];
		d.y = rt_fixed_kinds[i].bits[1];
		d.z = rt_fixed_kinds[i].bits[2];
		d.w = rt_fixed_kinds[i].bits[3];
		d.f = rt_fixed_kinds[i].kind;
		return d;
	}
	for (i = 0; i < RT_NPLAIN; i++) {
		for (s = 0; s < 3; s++) {
			if (!rt_plain_kinds[i].format[s] ||
			    rt_plain_kinds[i].format[s] != format)
				continue;
			for (k = 0; k < channels && k < 4; k++)
				bits[k] = 8 << s;
			d.x = bits[0];
			d.y = bits[1];
			d.z = bits[2];
			d.w = bits[3];
			d.f = rt_plain_kinds[i].kind;
			return d;
		}
	}
	return d;
}

size_t rt_element_bytes(CUarray_format format, unsigned int channels)
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
		return 2 * (size_t)channels;
	case CU_AD_FORMAT_UNSIGNED_INT32: case CU_AD_FORMAT_SIGNED_INT32:
	case CU_AD_FORMAT_FLOAT:
		return 4 * (size_t)channels;
	case CU_AD_FORMAT_UNORM_INT_101010_2:
		return 4;
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
		return 0;
	}
}

/*
 * The runtime reads 8- and 16-bit integers as their elements only when
 * asked (cudaReadModeElementType); the driver does when told to
 * (CU_TRSF_READ_AS_INTEGER). Any other read mode reads normalized floats,
 * as NVIDIA's runtime takes a read mode of 2 (h100_rt_texture.log). The
 * flag is set for every format read as its element type: the driver
 * leaves floats and 32-bit integers alone either way, and the getter
 * gives the read mode back as it was.
 */
cudaError_t rt_tex_desc_to_cu(const struct cudaTextureDesc *t,
			      CUDA_TEXTURE_DESC *c)
{
	unsigned int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < 3; i++)
		c->addressMode[i] = (CUaddress_mode)t->addressMode[i];
	c->filterMode = (CUfilter_mode)t->filterMode;
	if (t->readMode == cudaReadModeElementType)
		c->flags |= CU_TRSF_READ_AS_INTEGER;
	if (t->normalizedCoords)
		c->flags |= CU_TRSF_NORMALIZED_COORDINATES;
	if (t->sRGB)
		c->flags |= CU_TRSF_SRGB;
	if (t->disableTrilinearOptimization)
		c->flags |= CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
	if (t->seamlessCubemap)
		c->flags |= CU_TRSF_SEAMLESS_CUBEMAP;
	c->maxAnisotropy = t->maxAnisotropy;
	c->mipmapFilterMode = (CUfilter_mode)t->mipmapFilterMode;
	c->mipmapLevelBias = t->mipmapLevelBias;
	c->minMipmapLevelClamp = t->minMipmapLevelClamp;
	c->maxMipmapLevelClamp = t->maxMipmapLevelClamp;
	for (i = 0; i < 4; i++)
		c->borderColor[i] = t->borderColor[i];
	return cudaSuccess;
}

void rt_tex_desc_from_cu(const CUDA_TEXTURE_DESC *c, struct cudaTextureDesc *t)
{
	unsigned int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < 3; i++)
		t->addressMode[i] = (enum cudaTextureAddressMode)c->addressMode[i];
	t->filterMode = (enum cudaTextureFilterMode)c->filterMode;
	t->readMode = c->flags & CU_TRSF_READ_AS_INTEGER ?
		cudaReadModeElementType : cudaReadModeNormalizedFloat;
	t->sRGB = !!(c->flags & CU_TRSF_SRGB);
	for (i = 0; i < 4; i++)
		t->borderColor[i] = c->borderColor[i];
	t->normalizedCoords = !!(c->flags & CU_TRSF_NORMALIZED_COORDINATES);
	t->maxAnisotropy = c->maxAnisotropy;
	t->mipmapFilterMode = (enum cudaTextureFilterMode)c->mipmapFilterMode;
	t->mipmapLevelBias = c->mipmapLevelBias;
	t->minMipmapLevelClamp = c->minMipmapLevelClamp;
	t->maxMipmapLevelClamp = c->maxMipmapLevelClamp;
	t->disableTrilinearOptimization =
		!!(c->flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION);
	t->seamlessCubemap = !!(c->flags & CU_TRSF_SEAMLESS_CUBEMAP);
}

/*
 * Arrays and mipmapped arrays are the driver's handles. A resource type
 * the runtime does not define is a bad value; a bad channel descriptor of
 * linear or pitched memory a bad channel descriptor. The flags, which the
 * driver wants 0, NVIDIA's runtime does not pass on (flags 1 is taken,
 * h100_rt_texture.log).
 */
cudaError_t rt_res_desc_to_cu(const struct cudaResourceDesc *r,
			      CUDA_RESOURCE_DESC *c)
{
	cudaError_t e = cudaSuccess;

	memset(c, 0, sizeof(*c));
	c->resType = (CUresourcetype)r->resType;
	switch (r->resType) {
	case cudaResourceTypeArray:
		c->res.array.hArray = (CUarray)r->res.array.array;
		break;
	case cudaResourceTypeMipmappedArray:
		c->res.mipmap.hMipmappedArray =
			(CUmipmappedArray)r->res.mipmap.mipmap;
		break;
	case cudaResourceTypeLinear:
		c->res.linear.devPtr = (CUdeviceptr)(uintptr_t)r->res.linear.devPtr;
		c->res.linear.sizeInBytes = r->res.linear.sizeInBytes;
		e = rt_format_of(&r->res.linear.desc, &c->res.linear.format,
				 &c->res.linear.numChannels);
		break;
	case cudaResourceTypePitch2D:
		c->res.pitch2D.devPtr =
			(CUdeviceptr)(uintptr_t)r->res.pitch2D.devPtr;
		c->res.pitch2D.width = r->res.pitch2D.width;
		c->res.pitch2D.height = r->res.pitch2D.height;
		c->res.pitch2D.pitchInBytes = r->res.pitch2D.pitchInBytes;
		e = rt_format_of(&r->res.pitch2D.desc, &c->res.pitch2D.format,
				 &c->res.pitch2D.numChannels);
		break;
	default:
		e = cudaErrorInvalidValue;
		break;
	}
	return e;
}

void rt_res_desc_from_cu(const CUDA_RESOURCE_DESC *c,
			 struct cudaResourceDesc *r)
{
	memset(r, 0, sizeof(*r));
	r->resType = (enum cudaResourceType)c->resType;
	r->flags = c->flags;
	switch (c->resType) {
	case CU_RESOURCE_TYPE_ARRAY:
		r->res.array.array = (cudaArray_t)c->res.array.hArray;
		break;
	case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
		r->res.mipmap.mipmap =
			(cudaMipmappedArray_t)c->res.mipmap.hMipmappedArray;
		break;
	case CU_RESOURCE_TYPE_LINEAR:
		r->res.linear.devPtr = (void *)(uintptr_t)c->res.linear.devPtr;
		r->res.linear.desc = rt_channel_desc(c->res.linear.format,
						     c->res.linear.numChannels);
		r->res.linear.sizeInBytes = c->res.linear.sizeInBytes;
		break;
	case CU_RESOURCE_TYPE_PITCH2D:
		r->res.pitch2D.devPtr = (void *)(uintptr_t)c->res.pitch2D.devPtr;
		r->res.pitch2D.desc = rt_channel_desc(c->res.pitch2D.format,
						      c->res.pitch2D.numChannels);
		r->res.pitch2D.width = c->res.pitch2D.width;
		r->res.pitch2D.height = c->res.pitch2D.height;
		r->res.pitch2D.pitchInBytes = c->res.pitch2D.pitchInBytes;
		break;
	}
}

/* Field for field: the formats have one numbering. */
void rt_view_desc_to_cu(const struct cudaResourceViewDesc *v,
			CUDA_RESOURCE_VIEW_DESC *c)
{
	memset(c, 0, sizeof(*c));
	c->format = (CUresourceViewFormat)v->format;
	c->width = v->width;
	c->height = v->height;
	c->depth = v->depth;
	c->firstMipmapLevel = v->firstMipmapLevel;
	c->lastMipmapLevel = v->lastMipmapLevel;
	c->firstLayer = v->firstLayer;
	c->lastLayer = v->lastLayer;
	memcpy(c->reserved, v->reserved, sizeof(c->reserved));
}

void rt_view_desc_from_cu(const CUDA_RESOURCE_VIEW_DESC *c,
			  struct cudaResourceViewDesc *v)
{
	memset(v, 0, sizeof(*v));
	v->format = (enum cudaResourceViewFormat)c->format;
	v->width = c->width;
	v->height = c->height;
	v->depth = c->depth;
	v->firstMipmapLevel = c->firstMipmapLevel;
	v->lastMipmapLevel = c->lastMipmapLevel;
	v->firstLayer = c->firstLayer;
	v->lastLayer = c->lastLayer;
}
