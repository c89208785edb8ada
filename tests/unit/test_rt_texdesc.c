// SPDX-License-Identifier: MIT
/*
 * The runtime's descriptors as the driver's and back (libvgpu/rt/texdesc.c),
 * on the host: channel descriptors to formats and channel counts (and the
 * ones no format matches refused as cudaErrorInvalidChannelDescriptor),
 * formats back to channel descriptors, element sizes, texture descriptors'
 * fields to flags and back, resource and view descriptors both ways.
 */
#include <stdint.h>

#include "tap.h"
#include "rt.h"

#define CHECK_RT(want, call) do { \
	cudaError_t _e = (call); \
	if (_e != (want)) \
		TAP_FAIL("%s returned %d, expected %d", #call, (int)_e, \
			 (int)(want)); \
} while (0)

static const struct {
	struct cudaChannelFormatDesc d;
	CUarray_format format;
	unsigned int channels;
} good[] = {
	{ { 8, 0, 0, 0, cudaChannelFormatKindUnsigned },
	  CU_AD_FORMAT_UNSIGNED_INT8, 1 },
	{ { 8, 8, 0, 0, cudaChannelFormatKindUnsigned },
	  CU_AD_FORMAT_UNSIGNED_INT8, 2 },
	{ { 8, 8, 8, 8, cudaChannelFormatKindUnsigned },
	  CU_AD_FORMAT_UNSIGNED_INT8, 4 },
	{ { 8, 8, 8, 8, cudaChannelFormatKindSigned },
	  CU_AD_FORMAT_SIGNED_INT8, 4 },
	{ { 16, 0, 0, 0, cudaChannelFormatKindSigned },
	  CU_AD_FORMAT_SIGNED_INT16, 1 },
	{ { 16, 16, 0, 0, cudaChannelFormatKindUnsigned },
	  CU_AD_FORMAT_UNSIGNED_INT16, 2 },
	{ { 32, 0, 0, 0, cudaChannelFormatKindUnsigned },
	  CU_AD_FORMAT_UNSIGNED_INT32, 1 },
	{ { 32, 32, 32, 32, cudaChannelFormatKindSigned },
	  CU_AD_FORMAT_SIGNED_INT32, 4 },
	{ { 16, 16, 16, 16, cudaChannelFormatKindFloat }, CU_AD_FORMAT_HALF, 4 },
	{ { 32, 0, 0, 0, cudaChannelFormatKindFloat }, CU_AD_FORMAT_FLOAT, 1 },
	{ { 32, 32, 0, 0, cudaChannelFormatKindFloat }, CU_AD_FORMAT_FLOAT, 2 },
	{ { 8, 8, 8, 0, cudaChannelFormatKindNV12 }, CU_AD_FORMAT_NV12, 3 },
	{ { 8, 0, 0, 0, cudaChannelFormatKindUnsignedNormalized8X1 },
	  CU_AD_FORMAT_UNORM_INT8X1, 1 },
	{ { 8, 8, 8, 8, cudaChannelFormatKindUnsignedNormalized8X4 },
	  CU_AD_FORMAT_UNORM_INT8X4, 4 },
	{ { 16, 16, 0, 0, cudaChannelFormatKindUnsignedNormalized16X2 },
	  CU_AD_FORMAT_UNORM_INT16X2, 2 },
	{ { 8, 8, 0, 0, cudaChannelFormatKindSignedNormalized8X2 },
	  CU_AD_FORMAT_SNORM_INT8X2, 2 },
	{ { 16, 16, 16, 16, cudaChannelFormatKindSignedNormalized16X4 },
	  CU_AD_FORMAT_SNORM_INT16X4, 4 },
	{ { 8, 8, 8, 8, cudaChannelFormatKindUnsignedBlockCompressed1 },
	  CU_AD_FORMAT_BC1_UNORM, 4 },
	{ { 8, 8, 8, 8, cudaChannelFormatKindUnsignedBlockCompressed3SRGB },
	  CU_AD_FORMAT_BC3_UNORM_SRGB, 4 },
	{ { 8, 0, 0, 0, cudaChannelFormatKindSignedBlockCompressed4 },
	  CU_AD_FORMAT_BC4_SNORM, 1 },
	{ { 8, 8, 0, 0, cudaChannelFormatKindUnsignedBlockCompressed5 },
	  CU_AD_FORMAT_BC5_UNORM, 2 },
	{ { 16, 16, 16, 0, cudaChannelFormatKindSignedBlockCompressed6H },
	  CU_AD_FORMAT_BC6H_SF16, 3 },
	{ { 8, 8, 8, 8, cudaChannelFormatKindUnsignedBlockCompressed7 },
	  CU_AD_FORMAT_BC7_UNORM, 4 },
	{ { 10, 10, 10, 2, cudaChannelFormatKindUnsignedNormalized1010102 },
	  CU_AD_FORMAT_UNORM_INT_101010_2, 4 },
};

/* Every valid descriptor names its format and count, and comes back. */
static void channel_formats(void)
{
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		struct cudaChannelFormatDesc back;
		CUarray_format f = (CUarray_format)0;
		unsigned int ch = 0;

		CHECK_RT(cudaSuccess, rt_format_of(&good[i].d, &f, &ch));
		if (f != good[i].format || ch != good[i].channels)
			TAP_FAIL("case %zu: format %d, %u channels", i, (int)f,
				 ch);
		back = rt_channel_desc(good[i].format, good[i].channels);
		if (memcmp(&back, &good[i].d, sizeof(back)))
			TAP_FAIL("case %zu: back as %d %d %d %d kind %d", i,
				 back.x, back.y, back.z, back.w, (int)back.f);
	}
}

/* What no format matches, whatever else is right. */
static void channel_formats_refused(void)
{
	static const struct {
		int x, y, z, w, f;
	} bad[] = {
		{ 8, 8, 8, 0, cudaChannelFormatKindUnsigned },
		{ 32, 32, 32, 0, cudaChannelFormatKindFloat },
		{ 8, 16, 0, 0, cudaChannelFormatKindUnsigned },
		{ 8, 0, 8, 0, cudaChannelFormatKindSigned },
		{ 8, 8, 0, 8, cudaChannelFormatKindSigned },
		{ 0, 8, 0, 0, cudaChannelFormatKindSigned },
		{ 0, 0, 0, 0, cudaChannelFormatKindUnsigned },
		{ 8, 0, 0, 0, cudaChannelFormatKindFloat },
		{ 64, 0, 0, 0, cudaChannelFormatKindFloat },
		{ 24, 0, 0, 0, cudaChannelFormatKindSigned },
		{ -8, 0, 0, 0, cudaChannelFormatKindSigned },
		{ 32, 0, 0, 0, cudaChannelFormatKindNone },
		{ 32, 0, 0, 0, 99 },
		{ 32, 0, 0, 0, -1 },
		{ 16, 0, 0, 0, cudaChannelFormatKindUnsignedNormalized8X1 },
		{ 8, 0, 0, 0, cudaChannelFormatKindUnsignedNormalized8X2 },
		{ 8, 8, 8, 8, cudaChannelFormatKindNV12 },
		{ 8, 8, 8, 0, cudaChannelFormatKindUnsignedBlockCompressed1 },
		{ 10, 10, 10, 10, cudaChannelFormatKindUnsignedNormalized1010102 },
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct cudaChannelFormatDesc d = {
			bad[i].x, bad[i].y, bad[i].z, bad[i].w,
			(enum cudaChannelFormatKind)bad[i].f };
		CUarray_format f = (CUarray_format)77;
		unsigned int ch = 77;
		cudaError_t e = rt_format_of(&d, &f, &ch);

		if (e != cudaErrorInvalidChannelDescriptor)
			TAP_FAIL("case %zu answered %d", i, (int)e);
		if (f != (CUarray_format)77 || ch != 77)
			TAP_FAIL("case %zu wrote its outputs", i);
	}
}

/* A format the runtime has no kind for reads as none. */
static void channel_desc_of_unknown_format(void)
{
	struct cudaChannelFormatDesc d = rt_channel_desc((CUarray_format)4, 1);

	CHECK(d.x == 0 && d.y == 0 && d.z == 0 && d.w == 0 &&
	      d.f == cudaChannelFormatKindNone);
	d = rt_channel_desc(CU_AD_FORMAT_P010, 3);
	CHECK(d.f == cudaChannelFormatKindNone);
}

static void element_sizes(void)
{
	static const struct {
		CUarray_format f;
		unsigned int ch;
		size_t bytes;
	} cases[] = {
		{ CU_AD_FORMAT_UNSIGNED_INT8, 1, 1 },
		{ CU_AD_FORMAT_SIGNED_INT8, 4, 4 },
		{ CU_AD_FORMAT_HALF, 2, 4 },
		{ CU_AD_FORMAT_UNSIGNED_INT16, 4, 8 },
		{ CU_AD_FORMAT_FLOAT, 4, 16 },
		{ CU_AD_FORMAT_SIGNED_INT32, 2, 8 },
		{ CU_AD_FORMAT_UNORM_INT8X4, 4, 4 },
		{ CU_AD_FORMAT_SNORM_INT16X2, 2, 4 },
		{ CU_AD_FORMAT_UNORM_INT_101010_2, 4, 4 },
		{ CU_AD_FORMAT_BC1_UNORM, 4, 8 },
		{ CU_AD_FORMAT_BC4_SNORM, 1, 8 },
		{ CU_AD_FORMAT_BC7_UNORM_SRGB, 4, 16 },
		{ CU_AD_FORMAT_NV12, 3, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (rt_element_bytes(cases[i].f, cases[i].ch) != cases[i].bytes)
			TAP_FAIL("format %d x%u: %zu bytes", (int)cases[i].f,
				 cases[i].ch,
				 rt_element_bytes(cases[i].f, cases[i].ch));
}

/* Each field of cudaTextureDesc, alone: the driver's flags it makes. */
static void texture_desc_flags(void)
{
	struct cudaTextureDesc t;
	CUDA_TEXTURE_DESC c;

	memset(&t, 0, sizeof(t));
	t.readMode = cudaReadModeNormalizedFloat;
	CHECK_RT(cudaSuccess, rt_tex_desc_to_cu(&t, &c));
	CHECK(c.flags == 0);
	t.readMode = cudaReadModeElementType;
	CHECK_RT(cudaSuccess, rt_tex_desc_to_cu(&t, &c));
	CHECK(c.flags == CU_TRSF_READ_AS_INTEGER);
	t.readMode = cudaReadModeNormalizedFloat;
	t.normalizedCoords = 1;
	CHECK_RT(cudaSuccess, rt_tex_desc_to_cu(&t, &c));
	CHECK(c.flags == CU_TRSF_NORMALIZED_COORDINATES);
	t.normalizedCoords = 0;
	t.sRGB = 7;	/* any nonzero value is true */
	CHECK_RT(cudaSuccess, rt_tex_desc_to_cu(&t, &c));
	CHECK(c.flags == CU_TRSF_SRGB);
	t.sRGB = 0;
	t.disableTrilinearOptimization = 1;
	CHECK_RT(cudaSuccess, rt_tex_desc_to_cu(&t, &c));
	CHECK(c.flags == CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION);
	t.disableTrilinearOptimization = 0;
	t.seamlessCubemap = -1;
	CHECK_RT(cudaSuccess, rt_tex_desc_to_cu(&t, &c));
	CHECK(c.flags == CU_TRSF_SEAMLESS_CUBEMAP);
	/* A read mode of 2 reads normalized floats, as on an H100. */
	t.seamlessCubemap = 0;
	t.readMode = (enum cudaTextureReadMode)2;
	CHECK_RT(cudaSuccess, rt_tex_desc_to_cu(&t, &c));
	CHECK(c.flags == 0);
}

/* Every field, to the driver's and back: as it was, booleans as 0 and 1. */
static void texture_desc_round_trip(void)
{
	struct cudaTextureDesc t, back;
	CUDA_TEXTURE_DESC c;

	memset(&t, 0, sizeof(t));
	t.addressMode[0] = cudaAddressModeWrap;
	t.addressMode[1] = cudaAddressModeMirror;
	t.addressMode[2] = cudaAddressModeBorder;
	t.filterMode = cudaFilterModeLinear;
	t.readMode = cudaReadModeElementType;
	t.sRGB = 1;
	t.borderColor[0] = 0.25f;
	t.borderColor[1] = -1.5f;
	t.borderColor[2] = 3.0f;
	t.borderColor[3] = 1.0f;
	t.normalizedCoords = 1;
	t.maxAnisotropy = 8;
	t.mipmapFilterMode = cudaFilterModeLinear;
	t.mipmapLevelBias = 0.5f;
	t.minMipmapLevelClamp = 1.25f;
	t.maxMipmapLevelClamp = 6.0f;
	t.disableTrilinearOptimization = 1;
	t.seamlessCubemap = 1;
	CHECK_RT(cudaSuccess, rt_tex_desc_to_cu(&t, &c));
	CHECK(c.addressMode[0] == CU_TR_ADDRESS_MODE_WRAP &&
	      c.addressMode[1] == CU_TR_ADDRESS_MODE_MIRROR &&
	      c.addressMode[2] == CU_TR_ADDRESS_MODE_BORDER);
	CHECK(c.filterMode == CU_TR_FILTER_MODE_LINEAR &&
	      c.mipmapFilterMode == CU_TR_FILTER_MODE_LINEAR);
	CHECK(c.flags == (CU_TRSF_READ_AS_INTEGER | CU_TRSF_SRGB |
			  CU_TRSF_NORMALIZED_COORDINATES |
			  CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION |
			  CU_TRSF_SEAMLESS_CUBEMAP));
	CHECK(c.maxAnisotropy == 8 && c.mipmapLevelBias == 0.5f &&
	      c.minMipmapLevelClamp == 1.25f && c.maxMipmapLevelClamp == 6.0f);
	CHECK(c.borderColor[1] == -1.5f && c.borderColor[2] == 3.0f);
	memset(&back, 0xcc, sizeof(back));
	rt_tex_desc_from_cu(&c, &back);
	CHECK(!memcmp(&back, &t, sizeof(t)));

	/* The flags the runtime has no field for are dropped. */
	memset(&c, 0, sizeof(c));
	c.flags = 0x4 | 0x8 | CU_TRSF_NORMALIZED_COORDINATES;
	c.maxAnisotropy = 3;
	rt_tex_desc_from_cu(&c, &back);
	CHECK(back.readMode == cudaReadModeNormalizedFloat &&
	      back.normalizedCoords == 1 && back.sRGB == 0 &&
	      back.seamlessCubemap == 0 && back.maxAnisotropy == 3);
}

static void resource_descs(void)
{
	struct cudaResourceDesc r, back;
	CUDA_RESOURCE_DESC c;
	int mem;

	memset(&r, 0, sizeof(r));
	r.resType = cudaResourceTypeArray;
	r.res.array.array = (cudaArray_t)(uintptr_t)0x1230;
	CHECK_RT(cudaSuccess, rt_res_desc_to_cu(&r, &c));
	CHECK(c.resType == CU_RESOURCE_TYPE_ARRAY &&
	      c.res.array.hArray == (CUarray)(uintptr_t)0x1230 && !c.flags);
	rt_res_desc_from_cu(&c, &back);
	CHECK(!memcmp(&back, &r, sizeof(r)));

	memset(&r, 0, sizeof(r));
	r.resType = cudaResourceTypeMipmappedArray;
	r.res.mipmap.mipmap = (cudaMipmappedArray_t)(uintptr_t)0x4560;
	r.flags = 3;	/* not passed on: an H100's runtime takes any */
	CHECK_RT(cudaSuccess, rt_res_desc_to_cu(&r, &c));
	CHECK(c.resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY && c.flags == 0 &&
	      c.res.mipmap.hMipmappedArray ==
	      (CUmipmappedArray)(uintptr_t)0x4560);
	rt_res_desc_from_cu(&c, &back);
	r.flags = 0;
	CHECK(!memcmp(&back, &r, sizeof(r)));

	memset(&r, 0, sizeof(r));
	r.resType = cudaResourceTypeLinear;
	r.res.linear.devPtr = &mem;
	r.res.linear.desc = (struct cudaChannelFormatDesc){
		16, 16, 0, 0, cudaChannelFormatKindFloat };
	r.res.linear.sizeInBytes = 4096;
	CHECK_RT(cudaSuccess, rt_res_desc_to_cu(&r, &c));
	CHECK(c.resType == CU_RESOURCE_TYPE_LINEAR &&
	      c.res.linear.devPtr == (CUdeviceptr)(uintptr_t)&mem &&
	      c.res.linear.format == CU_AD_FORMAT_HALF &&
	      c.res.linear.numChannels == 2 && c.res.linear.sizeInBytes == 4096);
	rt_res_desc_from_cu(&c, &back);
	CHECK(!memcmp(&back, &r, sizeof(r)));

	memset(&r, 0, sizeof(r));
	r.resType = cudaResourceTypePitch2D;
	r.res.pitch2D.devPtr = &mem;
	r.res.pitch2D.desc = (struct cudaChannelFormatDesc){
		8, 8, 8, 8, cudaChannelFormatKindUnsigned };
	r.res.pitch2D.width = 100;
	r.res.pitch2D.height = 30;
	r.res.pitch2D.pitchInBytes = 512;
	CHECK_RT(cudaSuccess, rt_res_desc_to_cu(&r, &c));
	CHECK(c.resType == CU_RESOURCE_TYPE_PITCH2D &&
	      c.res.pitch2D.format == CU_AD_FORMAT_UNSIGNED_INT8 &&
	      c.res.pitch2D.numChannels == 4 && c.res.pitch2D.width == 100 &&
	      c.res.pitch2D.height == 30 && c.res.pitch2D.pitchInBytes == 512);
	rt_res_desc_from_cu(&c, &back);
	CHECK(!memcmp(&back, &r, sizeof(r)));

	/* Flags are not the driver's to see (an H100's runtime takes 1). */
	r.flags = 1;
	CHECK_RT(cudaSuccess, rt_res_desc_to_cu(&r, &c));
	CHECK(c.flags == 0);
	r.flags = 0;

	/* A bad channel descriptor, and a type the runtime lacks. */
	r.res.pitch2D.desc.z = 0;
	CHECK_RT(cudaErrorInvalidChannelDescriptor, rt_res_desc_to_cu(&r, &c));
	r.resType = cudaResourceTypeLinear;
	CHECK_RT(cudaErrorInvalidChannelDescriptor, rt_res_desc_to_cu(&r, &c));
	r.resType = (enum cudaResourceType)4;
	CHECK_RT(cudaErrorInvalidValue, rt_res_desc_to_cu(&r, &c));
}

static void view_descs(void)
{
	struct cudaResourceViewDesc v, back;
	CUDA_RESOURCE_VIEW_DESC c;

	memset(&v, 0, sizeof(v));
	v.format = cudaResViewFormatUnsignedBlockCompressed1;
	v.width = 64;
	v.height = 32;
	v.depth = 2;
	v.firstMipmapLevel = 1;
	v.lastMipmapLevel = 3;
	v.firstLayer = 4;
	v.lastLayer = 5;
	rt_view_desc_to_cu(&v, &c);
	CHECK(c.format == CU_RES_VIEW_FORMAT_UNSIGNED_BC1 && c.width == 64 &&
	      c.height == 32 && c.depth == 2 && c.firstMipmapLevel == 1 &&
	      c.lastMipmapLevel == 3 && c.firstLayer == 4 && c.lastLayer == 5);
	memset(&back, 0xcc, sizeof(back));
	rt_view_desc_from_cu(&c, &back);
	CHECK(!memcmp(&back, &v, sizeof(v)));
	v.format = cudaResViewFormatFloat4;
	rt_view_desc_to_cu(&v, &c);
	CHECK(c.format == CU_RES_VIEW_FORMAT_FLOAT_4X32);
	v.format = cudaResViewFormatSignedChar2;
	rt_view_desc_to_cu(&v, &c);
	CHECK(c.format == CU_RES_VIEW_FORMAT_SINT_2X8);
}

static const struct tap_test tests[] = {
	TAP_TEST(channel_formats),
	TAP_TEST(channel_formats_refused),
	TAP_TEST(channel_desc_of_unknown_format),
	TAP_TEST(element_sizes),
	TAP_TEST(texture_desc_flags),
	TAP_TEST(texture_desc_round_trip),
	TAP_TEST(resource_descs),
	TAP_TEST(view_descs),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
