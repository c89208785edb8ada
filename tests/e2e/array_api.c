// SPDX-License-Identifier: MIT
/*
 * CUDA arrays through the driver API: cuArrayCreate and cuArray3DCreate
 * with every format, channel count, flag and limit, their descriptors,
 * memory requirements, planes and sparse properties, mipmapped arrays and
 * their levels, destroying, and the copies with arrays (1D, 2D and 3D,
 * with host, device and array memory, async), each call and each check
 * of the bytes that arrive held to what NVIDIA's driver answered on an
 * H200 for the same sequence (tests/e2e/ref/h100_array.log, from
 * ref/h100_array.c there). Where the H200's answer cannot be had here (an
 * array larger than the VM's device memory; a handle the probe left
 * uninitialised) the test says so and checks vgpu's own. The last tests
 * are vgpu's own: a copy to a destroyed array (the H200 dies of SIGSEGV),
 * a context destroyed with arrays alive, copies with every kind of
 * array, the other entry points of the copies, the first ABI's, arrays
 * of another context, and threads (run with num_devices=2).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_array.log"
#include "h100_log.h"

#define MB (1u << 20)

static CUcontext ctx;

static void setup(void)
{
	CUdevice dev;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGet(&dev, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, dev));
}

/* The H200's line for @name is @got, printed as the probe printed it. */
static void check_line(const char *name, const char *got)
{
	const char *want = h100_line(name);
	size_t n = strlen(got);

	if (want && (strncmp(want, got, n) || want[n] != '\n'))
		TAP_FAIL("%s: \"%s\", the H200 printed \"%.*s\"", name, got,
			 (int)strcspn(want, "\n"), want);
}

static void check_value(const char *name, long long got)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", got);
	check_line(name, buf);
}

static size_t channel_bytes(CUarray_format f)
{
	switch (f) {
	case CU_AD_FORMAT_UNSIGNED_INT8: case CU_AD_FORMAT_SIGNED_INT8:
		return 1;
	case CU_AD_FORMAT_UNSIGNED_INT16: case CU_AD_FORMAT_SIGNED_INT16:
	case CU_AD_FORMAT_HALF:
		return 2;
	default:
		return 4;
	}
}

/*
 * What @r, an array's creation, must be: the H200's answer, but for an
 * array it made that needs more than this device's memory, which vgpu
 * must refuse for want of memory (CUDA_ERROR_OUT_OF_MEMORY) rather than
 * as too large (INVALID_VALUE): its size is within the limits.
 */
static void check_create(const char *name, CUresult r, CUarray_format f,
			 unsigned int ch, size_t w, size_t h, size_t dp)
{
	CUresult want = (CUresult)h100(name);
	size_t free_b, total;
	double bytes = (double)channel_bytes(f) * ch * w * (h ? h : 1) *
		(dp ? dp : 1);

	if (want == CUDA_SUCCESS &&
	    cuMemGetInfo(&free_b, &total) == CUDA_SUCCESS && bytes > total) {
		printf("# %s: %.0f bytes, more than the device's %zu\n", name,
		       bytes, total);
		want = CUDA_ERROR_OUT_OF_MEMORY;
	}
	if (r != want)
		TAP_FAIL("%s returned %d, expected %d", name, (int)r, (int)want);
}

static CUresult create2d(CUarray *a, CUarray_format f, unsigned int ch,
			 size_t w, size_t h)
{
	CUDA_ARRAY_DESCRIPTOR d;

	memset(&d, 0, sizeof(d));
	d.Format = f;
	d.NumChannels = ch;
	d.Width = w;
	d.Height = h;
	return cuArrayCreate(a, &d);
}

static CUresult create3d(CUarray *a, CUarray_format f, unsigned int ch,
			 size_t w, size_t h, size_t dp, unsigned int flags)
{
	CUDA_ARRAY3D_DESCRIPTOR d;

	memset(&d, 0, sizeof(d));
	d.Format = f;
	d.NumChannels = ch;
	d.Width = w;
	d.Height = h;
	d.Depth = dp;
	d.Flags = flags;
	return cuArray3DCreate(a, &d);
}

static void try2d(const char *name, CUarray_format f, unsigned int ch,
		  size_t w, size_t h)
{
	CUarray a = NULL;
	CUresult r = create2d(&a, f, ch, w, h);

	check_create(name, r, f, ch, w, h, 0);
	if (!r)
		CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(a));
}

static void try3d(const char *name, CUarray_format f, unsigned int ch,
		  size_t w, size_t h, size_t dp, unsigned int flags)
{
	CUarray a = NULL;
	CUresult r = create3d(&a, f, ch, w, h, dp, flags);

	check_create(name, r, f, ch, w, h, dp);
	if (!r)
		CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(a));
}

static void texture_alignment(void)
{
	int v = 0;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, 0));
	check_value("texture alignment", v);
}

static void formats(void)
{
	static const struct { const char *n; CUarray_format f; } fm[] = {
		{ "u8", CU_AD_FORMAT_UNSIGNED_INT8 }, { "u16", CU_AD_FORMAT_UNSIGNED_INT16 },
		{ "u32", CU_AD_FORMAT_UNSIGNED_INT32 }, { "s8", CU_AD_FORMAT_SIGNED_INT8 },
		{ "s16", CU_AD_FORMAT_SIGNED_INT16 }, { "s32", CU_AD_FORMAT_SIGNED_INT32 },
		{ "half", CU_AD_FORMAT_HALF }, { "float", CU_AD_FORMAT_FLOAT },
	};
	static const struct { const char *n; CUarray_format f; } un[] = {
		{ "unorm8x1", CU_AD_FORMAT_UNORM_INT8X1 }, { "unorm8x2", CU_AD_FORMAT_UNORM_INT8X2 },
		{ "unorm8x4", CU_AD_FORMAT_UNORM_INT8X4 }, { "unorm16x1", CU_AD_FORMAT_UNORM_INT16X1 },
		{ "unorm16x2", CU_AD_FORMAT_UNORM_INT16X2 }, { "unorm16x4", CU_AD_FORMAT_UNORM_INT16X4 },
		{ "snorm8x1", CU_AD_FORMAT_SNORM_INT8X1 }, { "snorm8x2", CU_AD_FORMAT_SNORM_INT8X2 },
		{ "snorm8x4", CU_AD_FORMAT_SNORM_INT8X4 }, { "snorm16x1", CU_AD_FORMAT_SNORM_INT16X1 },
		{ "snorm16x2", CU_AD_FORMAT_SNORM_INT16X2 }, { "snorm16x4", CU_AD_FORMAT_SNORM_INT16X4 },
		{ "bc1", CU_AD_FORMAT_BC1_UNORM }, { "nv12", CU_AD_FORMAT_NV12 },
	};
	static const unsigned int chans[] = { 0, 1, 2, 3, 4, 5 };
	char name[64];
	size_t i, j;

	setup();
	for (i = 0; i < sizeof(fm) / sizeof(fm[0]); i++) {
		for (j = 0; j < sizeof(chans) / sizeof(chans[0]); j++) {
			snprintf(name, sizeof(name), "create %s x%u", fm[i].n, chans[j]);
			try2d(name, fm[i].f, chans[j], 64, 32);
			snprintf(name, sizeof(name), "create3d %s x%u", fm[i].n, chans[j]);
			try3d(name, fm[i].f, chans[j], 64, 32, 0, 0);
		}
	}
	for (i = 0; i < sizeof(un) / sizeof(un[0]); i++) {
		for (j = 0; j < sizeof(chans) / sizeof(chans[0]); j++) {
			snprintf(name, sizeof(name), "create %s x%u", un[i].n, chans[j]);
			try2d(name, un[i].f, chans[j], 64, 32);
		}
	}
	try2d("create format 0", (CUarray_format)0, 1, 64, 32);
	try2d("create format 0x11", (CUarray_format)0x11, 1, 64, 32);
	try2d("create format 0x21", (CUarray_format)0x21, 1, 64, 32);
}

static void sizes(void)
{
	CUarray a = NULL;

	setup();
	CHECK_RES(h100("create null array"), create2d(NULL, CU_AD_FORMAT_FLOAT, 1, 64, 32));
	CHECK_RES(h100("create null desc"), cuArrayCreate(&a, NULL));
	CHECK_RES(h100("3dcreate null desc"), cuArray3DCreate(&a, NULL));
	try2d("create width 0", CU_AD_FORMAT_FLOAT, 1, 0, 32);
	try2d("create width 0 height 0", CU_AD_FORMAT_FLOAT, 1, 0, 0);
	try2d("create 1d 131072", CU_AD_FORMAT_FLOAT, 1, 131072, 0);
	try2d("create 1d 131073", CU_AD_FORMAT_FLOAT, 1, 131073, 0);
	try2d("create 1d 1", CU_AD_FORMAT_FLOAT, 1, 1, 0);
	try2d("create 2d 131072x65536", CU_AD_FORMAT_UNSIGNED_INT8, 1, 131072, 65536);
	try2d("create 2d 131073x1", CU_AD_FORMAT_UNSIGNED_INT8, 1, 131073, 1);
	try2d("create 2d 1x65537", CU_AD_FORMAT_UNSIGNED_INT8, 1, 1, 65537);
	try2d("create 2d 1x65536", CU_AD_FORMAT_UNSIGNED_INT8, 1, 1, 65536);
	try3d("create3d 3d 16384^3 u8", CU_AD_FORMAT_UNSIGNED_INT8, 1, 16384, 16384, 1, 0);
	try3d("create3d 3d 16385x1x1", CU_AD_FORMAT_UNSIGNED_INT8, 1, 16385, 1, 1, 0);
	try3d("create3d 3d 1x1x16385", CU_AD_FORMAT_UNSIGNED_INT8, 1, 1, 1, 16385, 0);
	try3d("create3d 3d 8192x8192x32768 alt", CU_AD_FORMAT_UNSIGNED_INT8, 1, 8, 8, 32768, 0);
	try3d("create3d 3d 64x0x4", CU_AD_FORMAT_FLOAT, 1, 64, 0, 4, 0);
	try3d("create3d 3d 0x4x4", CU_AD_FORMAT_FLOAT, 1, 0, 4, 4, 0);
	try3d("create3d 1d layered 64x0x8", CU_AD_FORMAT_FLOAT, 1, 64, 0, 8, CUDA_ARRAY3D_LAYERED);
	try3d("create3d 1d layered 64x0x0", CU_AD_FORMAT_FLOAT, 1, 64, 0, 0, CUDA_ARRAY3D_LAYERED);
	try3d("create3d 1d layered 32768x0x2048", CU_AD_FORMAT_UNSIGNED_INT8, 1, 32768, 0, 2048, CUDA_ARRAY3D_LAYERED);
	try3d("create3d 1d layered 32769x0x1", CU_AD_FORMAT_UNSIGNED_INT8, 1, 32769, 0, 1, CUDA_ARRAY3D_LAYERED);
	try3d("create3d 1d layered 1x0x2049", CU_AD_FORMAT_UNSIGNED_INT8, 1, 1, 0, 2049, CUDA_ARRAY3D_LAYERED);
	try3d("create3d 2d layered 64x32x8", CU_AD_FORMAT_FLOAT, 1, 64, 32, 8, CUDA_ARRAY3D_LAYERED);
	try3d("create3d 2d layered 1x1x2049", CU_AD_FORMAT_UNSIGNED_INT8, 1, 1, 1, 2049, CUDA_ARRAY3D_LAYERED);
	try3d("create3d cube 32x32x6", CU_AD_FORMAT_FLOAT, 1, 32, 32, 6, CUDA_ARRAY3D_CUBEMAP);
	try3d("create3d cube 32x16x6", CU_AD_FORMAT_FLOAT, 1, 32, 16, 6, CUDA_ARRAY3D_CUBEMAP);
	try3d("create3d cube 32x32x5", CU_AD_FORMAT_FLOAT, 1, 32, 32, 5, CUDA_ARRAY3D_CUBEMAP);
	try3d("create3d cube 32x32x12", CU_AD_FORMAT_FLOAT, 1, 32, 32, 12, CUDA_ARRAY3D_CUBEMAP);
	try3d("create3d cube 32x32x0", CU_AD_FORMAT_FLOAT, 1, 32, 32, 0, CUDA_ARRAY3D_CUBEMAP);
	try3d("create3d cube 32769", CU_AD_FORMAT_UNSIGNED_INT8, 1, 32769, 32769, 6, CUDA_ARRAY3D_CUBEMAP);
	try3d("create3d cube layered 32x32x12", CU_AD_FORMAT_FLOAT, 1, 32, 32, 12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED);
	try3d("create3d cube layered 32x32x7", CU_AD_FORMAT_FLOAT, 1, 32, 32, 7, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED);
	try3d("create3d cube layered 32x32x6", CU_AD_FORMAT_FLOAT, 1, 32, 32, 6, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED);
	try3d("create3d cube layered 1x1x12282", CU_AD_FORMAT_UNSIGNED_INT8, 1, 1, 1, 12282, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED);
	try3d("create3d cube layered 1x1x12288", CU_AD_FORMAT_UNSIGNED_INT8, 1, 1, 1, 12288, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED);
	try3d("create3d surface 2d", CU_AD_FORMAT_FLOAT, 4, 64, 32, 0, CUDA_ARRAY3D_SURFACE_LDST);
	try3d("create3d surface 3d", CU_AD_FORMAT_FLOAT, 4, 64, 32, 4, CUDA_ARRAY3D_SURFACE_LDST);
	try3d("create3d surface 1d", CU_AD_FORMAT_FLOAT, 4, 64, 0, 0, CUDA_ARRAY3D_SURFACE_LDST);
	try3d("create3d surface 1d 32769", CU_AD_FORMAT_UNSIGNED_INT8, 1, 32769, 0, 0, CUDA_ARRAY3D_SURFACE_LDST);
	try3d("create3d gather 2d", CU_AD_FORMAT_FLOAT, 1, 64, 32, 0, CUDA_ARRAY3D_TEXTURE_GATHER);
	try3d("create3d gather 3d", CU_AD_FORMAT_FLOAT, 1, 64, 32, 4, CUDA_ARRAY3D_TEXTURE_GATHER);
	try3d("create3d gather 1d", CU_AD_FORMAT_FLOAT, 1, 64, 0, 0, CUDA_ARRAY3D_TEXTURE_GATHER);
	try3d("create3d gather layered", CU_AD_FORMAT_FLOAT, 1, 64, 32, 4, CUDA_ARRAY3D_TEXTURE_GATHER | CUDA_ARRAY3D_LAYERED);
	try3d("create3d gather 32769", CU_AD_FORMAT_UNSIGNED_INT8, 1, 32769, 1, 0, CUDA_ARRAY3D_TEXTURE_GATHER);
	try3d("create3d depth float", CU_AD_FORMAT_FLOAT, 1, 64, 32, 0, CUDA_ARRAY3D_DEPTH_TEXTURE);
	try3d("create3d depth u8", CU_AD_FORMAT_UNSIGNED_INT8, 1, 64, 32, 0, CUDA_ARRAY3D_DEPTH_TEXTURE);
	try3d("create3d color attachment", CU_AD_FORMAT_FLOAT, 4, 64, 32, 0, CUDA_ARRAY3D_COLOR_ATTACHMENT);
	try3d("create3d sparse", CU_AD_FORMAT_FLOAT, 4, 64, 32, 0, CUDA_ARRAY3D_SPARSE);
	try3d("create3d deferred", CU_AD_FORMAT_FLOAT, 4, 64, 32, 0, CUDA_ARRAY3D_DEFERRED_MAPPING);
	try3d("create3d flag 0x100", CU_AD_FORMAT_FLOAT, 4, 64, 32, 0, 0x100);
	try3d("create3d flag 0x1000", CU_AD_FORMAT_FLOAT, 4, 64, 32, 0, 0x1000);
}

static void print3d(char *buf, size_t n, const CUDA_ARRAY3D_DESCRIPTOR *d)
{
	snprintf(buf, n, "%d %u %zu %zu %zu %u", (int)d->Format, d->NumChannels,
		 d->Width, d->Height, d->Depth, d->Flags);
}

static void print_req(char *buf, size_t n, const CUDA_ARRAY_MEMORY_REQUIREMENTS *r)
{
	snprintf(buf, n, "size %zu alignment %zu", r->size, r->alignment);
}

static void descriptors(void)
{
	CUDA_ARRAY3D_DESCRIPTOR d3, cc;
	CUDA_ARRAY_DESCRIPTOR d;
	CUDA_ARRAY_MEMORY_REQUIREMENTS req;
	CUDA_ARRAY_SPARSE_PROPERTIES sp;
	CUarray a, b, c = NULL, plane;
	CUdevice dev;
	char buf[160];

	setup();
	CHECK_RES(CUDA_SUCCESS, cuCtxGetDevice(&dev));
	REQUIRE_RES(CUDA_SUCCESS, create2d(&a, CU_AD_FORMAT_SIGNED_INT16, 2, 100, 7));
	memset(&d, 0xcc, sizeof(d));
	CHECK_RES(h100("getdesc 2d"), cuArrayGetDescriptor(&d, a));
	snprintf(buf, sizeof(buf), "%d %u %zu %zu", (int)d.Format, d.NumChannels, d.Width, d.Height);
	check_line("getdesc 2d values", buf);
	memset(&d3, 0xcc, sizeof(d3));
	CHECK_RES(h100("get3ddesc of 2d"), cuArray3DGetDescriptor(&d3, a));
	print3d(buf, sizeof(buf), &d3);
	check_line("get3ddesc of 2d values", buf);
	CHECK_RES(h100("getdesc null"), cuArrayGetDescriptor(NULL, a));
	CHECK_RES(h100("getdesc null array"), cuArrayGetDescriptor(&d, NULL));
	CHECK_RES(h100("get3ddesc null"), cuArray3DGetDescriptor(NULL, a));
	memset(&req, 0, sizeof(req));
	CHECK_RES(h100("memreq 2d"), cuArrayGetMemoryRequirements(&req, a, dev));
	print_req(buf, sizeof(buf), &req);
	check_line("memreq 2d values", buf);
	CHECK_RES(h100("memreq null"), cuArrayGetMemoryRequirements(NULL, a, dev));
	CHECK_RES(h100("memreq bad device"), cuArrayGetMemoryRequirements(&req, a, 99));
	CHECK_RES(h100("plane of 2d"), cuArrayGetPlane(&plane, a, 0));
	CHECK_RES(h100("sparse of 2d"), cuArrayGetSparseProperties(&sp, a));
	REQUIRE_RES(CUDA_SUCCESS, create3d(&b, CU_AD_FORMAT_FLOAT, 4, 9, 5, 3, CUDA_ARRAY3D_SURFACE_LDST));
	memset(&d, 0xcc, sizeof(d));
	CHECK_RES(h100("getdesc of 3d"), cuArrayGetDescriptor(&d, b));
	snprintf(buf, sizeof(buf), "%d %u %zu %zu", (int)d.Format, d.NumChannels, d.Width, d.Height);
	check_line("getdesc of 3d values", buf);
	memset(&d3, 0xcc, sizeof(d3));
	CHECK_RES(h100("get3ddesc 3d"), cuArray3DGetDescriptor(&d3, b));
	print3d(buf, sizeof(buf), &d3);
	check_line("get3ddesc 3d values", buf);
	/*
	 * A gather cube is refused ("create3d gather layered"): the probe's
	 * handle stayed uninitialised, and the H200 answered 201 for what
	 * its stack held. vgpu answers CONTEXT_IS_DESTROYED for a handle it
	 * never gave out, and leaves the descriptor as the H200 did.
	 */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, create3d(&c, CU_AD_FORMAT_UNSIGNED_INT8, 1, 16, 16, 12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_TEXTURE_GATHER));
	CHECK(h100("get3ddesc cube layered") == CUDA_ERROR_INVALID_CONTEXT);
	c = (CUarray)&cc;
	memset(&d3, 0xcc, sizeof(d3));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuArray3DGetDescriptor(&d3, c));
	snprintf(buf, sizeof(buf), "%d %u %zu %zu %zu %u", (int)d3.Format, d3.NumChannels, d3.Width, d3.Height, d3.Depth, d3.Flags);
	check_line("get3ddesc cube layered values", buf);
	REQUIRE_RES(CUDA_SUCCESS, create3d(&plane, CU_AD_FORMAT_UNSIGNED_INT8, 1, 64, 0, 0, 0));
	memset(&d3, 0xcc, sizeof(d3));
	CHECK_RES(h100("get3ddesc 1d"), cuArray3DGetDescriptor(&d3, plane));
	print3d(buf, sizeof(buf), &d3);
	check_line("get3ddesc 1d values", buf);
	memset(&req, 0, sizeof(req));
	CHECK_RES(h100("memreq 3d"), cuArrayGetMemoryRequirements(&req, b, dev));
	print_req(buf, sizeof(buf), &req);
	check_line("memreq 3d values", buf);
	CHECK_RES(h100("destroy 2d"), cuArrayDestroy(a));
	CHECK_RES(h100("destroy 3d"), cuArrayDestroy(b));
	CHECK(h100("destroy cube") == CUDA_ERROR_INVALID_CONTEXT);
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuArrayDestroy(c));
	CHECK_RES(h100("destroy 1d"), cuArrayDestroy(plane));
	CHECK_RES(h100("destroy null"), cuArrayDestroy(NULL));
	CHECK_RES(h100("getdesc destroyed"), cuArrayGetDescriptor(&d, a));
	CHECK_RES(h100("destroy again"), cuArrayDestroy(a));
}

/*
 * Arrays the H200 could not be asked about: made with deferred mapping
 * (memory requirements) and sparse (properties). Their numbers are
 * vgpu's: sizes a whole number of 64 KiB tiles.
 */
static void deferred_and_sparse(void)
{
	CUDA_ARRAY_MEMORY_REQUIREMENTS req;
	CUDA_ARRAY_SPARSE_PROPERTIES sp;
	CUmipmappedArray m;
	CUDA_ARRAY3D_DESCRIPTOR d;
	CUarray a, s, lv;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, create3d(&a, CU_AD_FORMAT_FLOAT, 4, 64, 32, 0, CUDA_ARRAY3D_DEFERRED_MAPPING));
	memset(&req, 0, sizeof(req));
	CHECK_RES(CUDA_SUCCESS, cuArrayGetMemoryRequirements(&req, a, 0));
	CHECK(req.alignment && req.size >= 64 * 32 * 16 && req.size % req.alignment == 0);
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuArrayGetMemoryRequirements(&req, a, 99));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuArrayGetSparseProperties(&sp, a));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuArrayGetPlane(&lv, a, 0));
	REQUIRE_RES(CUDA_SUCCESS, create3d(&s, CU_AD_FORMAT_UNSIGNED_INT8, 1, 1024, 512, 0, CUDA_ARRAY3D_SPARSE));
	memset(&sp, 0, sizeof(sp));
	CHECK_RES(CUDA_SUCCESS, cuArrayGetSparseProperties(&sp, s));
	CHECK(sp.tileExtent.width * sp.tileExtent.height * sp.tileExtent.depth == 65536);
	CHECK(sp.miptailFirstLevel == 1 && sp.miptailSize == 0);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuArrayGetMemoryRequirements(&req, s, 0));
	memset(&d, 0, sizeof(d));
	d.Format = CU_AD_FORMAT_FLOAT;
	d.NumChannels = 1;
	d.Width = 512;
	d.Height = 512;
	d.Flags = CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING;
	REQUIRE_RES(CUDA_SUCCESS, cuMipmappedArrayCreate(&m, &d, 10));
	CHECK_RES(CUDA_SUCCESS, cuMipmappedArrayGetSparseProperties(&sp, m));
	/* 128 x 128 float tiles: levels 0 to 2 are whole tiles. */
	CHECK(sp.tileExtent.width == 128 && sp.tileExtent.height == 128);
	CHECK(sp.miptailFirstLevel == 3 && sp.miptailSize == 65536);
	CHECK_RES(CUDA_SUCCESS, cuMipmappedArrayGetMemoryRequirements(&req, m, 0));
	CHECK(req.size >= 1398100 && req.size % req.alignment == 0);
	CHECK_RES(CUDA_SUCCESS, cuMipmappedArrayDestroy(m));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(s));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(a));
}

static void print_level(char *buf, size_t n, const CUDA_ARRAY3D_DESCRIPTOR *g)
{
	snprintf(buf, n, "%zu %zu %zu %u", g->Width, g->Height, g->Depth, g->Flags);
}

static void mipmaps(void)
{
	CUDA_ARRAY3D_DESCRIPTOR d3, g;
	CUDA_ARRAY_MEMORY_REQUIREMENTS req;
	CUmipmappedArray m, m3, ml;
	CUarray lv, again;
	CUdevice dev;
	CUresult r;
	char name[64], buf[128];
	unsigned int l;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuCtxGetDevice(&dev));
	memset(&d3, 0, sizeof(d3));
	d3.Format = CU_AD_FORMAT_FLOAT;
	d3.NumChannels = 4;
	d3.Width = 64;
	d3.Height = 16;
	REQUIRE_RES(h100("mipmap 64x16 levels 7"), cuMipmappedArrayCreate(&m, &d3, 7));
	CHECK_RES(h100("mipmap 64x16 levels 8"), (r = cuMipmappedArrayCreate(&ml, &d3, 8)));
	if (!r)
		cuMipmappedArrayDestroy(ml);
	CHECK_RES(h100("mipmap 64x16 levels 0"), (r = cuMipmappedArrayCreate(&ml, &d3, 0)));
	if (!r) {
		/* vgpu's: 0 levels make one, as CUDA's clamp says. */
		CHECK_RES(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&lv, ml, 0));
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMipmappedArrayGetLevel(&lv, ml, 1));
		cuMipmappedArrayDestroy(ml);
	}
	CHECK_RES(h100("mipmap null"), cuMipmappedArrayCreate(NULL, &d3, 2));
	CHECK_RES(h100("mipmap null desc"), cuMipmappedArrayCreate(&ml, NULL, 2));
	for (l = 0; l < 8; l++) {
		snprintf(name, sizeof(name), "mipmap level %u", l);
		r = cuMipmappedArrayGetLevel(&lv, m, l);
		CHECK_RES(h100(name), r);
		if (r)
			continue;
		memset(&g, 0xcc, sizeof(g));
		CHECK_RES(CUDA_SUCCESS, cuArray3DGetDescriptor(&g, lv));
		print_level(buf, sizeof(buf), &g);
		snprintf(name, sizeof(name), "mipmap level %u values", l);
		check_line(name, buf);
		/* vgpu's: the same handle each time. */
		CHECK_RES(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&again, m, l));
		CHECK(again == lv);
		snprintf(name, sizeof(name), "destroy mipmap level %u", l);
		if (l == 1) {
			CHECK_RES(h100(name), cuArrayDestroy(lv));
			/* vgpu's: the level still is its mipmapped array's. */
			CHECK_RES(CUDA_SUCCESS, cuArray3DGetDescriptor(&g, lv));
		}
	}
	CHECK_RES(h100("mipmap level null"), cuMipmappedArrayGetLevel(NULL, m, 0));
	memset(&req, 0, sizeof(req));
	CHECK_RES(h100("mipmap memreq"), cuMipmappedArrayGetMemoryRequirements(&req, m, dev));
	print_req(buf, sizeof(buf), &req);
	check_line("mipmap memreq values", buf);
	d3.Depth = 8;
	d3.Width = 32;
	d3.Height = 32;
	CHECK_RES(h100("mipmap 3d 32x32x8 levels 6"), (r = cuMipmappedArrayCreate(&m3, &d3, 6)));
	if (!r) {
		CHECK_RES(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&lv, m3, 4));
		memset(&g, 0xcc, sizeof(g));
		CHECK_RES(CUDA_SUCCESS, cuArray3DGetDescriptor(&g, lv));
		print_level(buf, sizeof(buf), &g);
		check_line("mipmap 3d level 4 values", buf);
		CHECK_RES(CUDA_SUCCESS, cuMipmappedArrayDestroy(m3));
		/* vgpu's: its levels went with it. */
		CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuArray3DGetDescriptor(&g, lv));
		CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuMipmappedArrayGetLevel(&lv, m3, 0));
		CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuMipmappedArrayDestroy(m3));
	}
	d3.Flags = CUDA_ARRAY3D_LAYERED;
	CHECK_RES(h100("mipmap layered levels 6"), (r = cuMipmappedArrayCreate(&m3, &d3, 6)));
	if (!r) {
		CHECK_RES(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&lv, m3, 3));
		memset(&g, 0xcc, sizeof(g));
		CHECK_RES(CUDA_SUCCESS, cuArray3DGetDescriptor(&g, lv));
		print_level(buf, sizeof(buf), &g);
		check_line("mipmap layered level 3 values", buf);
		cuMipmappedArrayDestroy(m3);
	}
	d3.Flags = CUDA_ARRAY3D_CUBEMAP;
	d3.Depth = 6;
	CHECK_RES(h100("mipmap cube levels 6"), (r = cuMipmappedArrayCreate(&m3, &d3, 6)));
	if (!r)
		cuMipmappedArrayDestroy(m3);
	CHECK_RES(h100("mipmap destroy"), cuMipmappedArrayDestroy(m));
	CHECK_RES(h100("mipmap destroy null"), cuMipmappedArrayDestroy(NULL));
}

/* The probe's buffers: @h a pattern, @g zeroed. */
static unsigned char *h, *g;

static void buffers(void)
{
	int i;

	h = malloc(MB);
	g = calloc(1, MB);
	if (!h || !g)
		exit(1);
	for (i = 0; i < (int)MB; i++)
		h[i] = (unsigned char)(i * 7 + i / 251);
}

/* All of the 100 x 30 two-byte-pair array @a, rows packed, into @g. */
static void read2d(unsigned char *out, CUarray a)
{
	CUDA_MEMCPY2D p;

	memset(&p, 0, sizeof(p));
	p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	p.srcArray = a;
	p.dstMemoryType = CU_MEMORYTYPE_HOST;
	p.dstHost = out;
	p.dstPitch = 400;
	p.WidthInBytes = 400;
	p.Height = 30;
	CHECK_RES(CUDA_SUCCESS, cuMemcpy2D(&p));
}

static void copies_1d(void)
{
	CUarray a, b;
	CUdeviceptr dp;
	CUstream st;

	setup();
	buffers();
	/* 1D copies of a 2D array reach its first row only. */
	REQUIRE_RES(CUDA_SUCCESS, create2d(&a, CU_AD_FORMAT_UNSIGNED_INT16, 2, 100, 30));
	CHECK_RES(h100("htoa 2d whole"), cuMemcpyHtoA(a, 0, h, 12000));
	CHECK_RES(h100("htoa 2d first row"), cuMemcpyHtoA(a, 0, h, 400));
	CHECK_RES(h100("htoa 2d past first row"), cuMemcpyHtoA(a, 0, h, 404));
	CHECK_RES(h100("htoa 2d row end"), cuMemcpyHtoA(a, 396, h, 4));
	CHECK_RES(h100("atoh 2d first row"), cuMemcpyAtoH(g, a, 0, 400));
	check_value("atoh 2d first row same", !memcmp(g, h, 400));
	CHECK_RES(h100("atoh 2d past first row"), cuMemcpyAtoH(g, a, 200, 204));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(a));
	/* The rest on 1D arrays of 12000 bytes. */
	REQUIRE_RES(CUDA_SUCCESS, create2d(&a, CU_AD_FORMAT_UNSIGNED_INT16, 2, 3000, 0));
	REQUIRE_RES(CUDA_SUCCESS, create2d(&b, CU_AD_FORMAT_UNSIGNED_INT16, 2, 3000, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dp, MB));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
	CHECK_RES(h100("htoa whole"), cuMemcpyHtoA(a, 0, h, 12000));
	memset(g, 0, 12000);
	CHECK_RES(h100("atoh whole"), cuMemcpyAtoH(g, a, 0, 12000));
	check_value("atoh whole same", !memcmp(g, h, 12000));
	CHECK_RES(h100("htoa offset 1000"), cuMemcpyHtoA(a, 1000, h + 50000, 3000));
	memset(g, 0, 12000);
	CHECK_RES(h100("atoh after offset"), cuMemcpyAtoH(g, a, 0, 12000));
	check_value("atoh offset same", !memcmp(g + 1000, h + 50000, 3000) && !memcmp(g, h, 1000) && !memcmp(g + 4000, h + 4000, 8000));
	CHECK_RES(h100("htoa past end"), cuMemcpyHtoA(a, 11000, h, 1001));
	CHECK_RES(h100("htoa to end"), cuMemcpyHtoA(a, 11000, h, 1000));
	CHECK_RES(h100("htoa offset 1"), cuMemcpyHtoA(a, 1, h, 2));
	CHECK_RES(h100("htoa size 3"), cuMemcpyHtoA(a, 0, h, 3));
	CHECK_RES(h100("htoa size 0"), cuMemcpyHtoA(a, 0, h, 0));
	CHECK_RES(h100("htoa null src"), cuMemcpyHtoA(a, 0, NULL, 4));
	CHECK_RES(h100("htoa null array"), cuMemcpyHtoA(NULL, 0, h, 4));
	CHECK_RES(h100("atoh past end"), cuMemcpyAtoH(g, a, 12000, 4));
	CHECK_RES(h100("atoh offset 2"), cuMemcpyAtoH(g, a, 2, 4));
	CHECK_RES(h100("atoh null dst"), cuMemcpyAtoH(NULL, a, 0, 4));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoA(a, 0, h, 12000));
	CHECK_RES(h100("atoa whole"), cuMemcpyAtoA(b, 0, a, 0, 12000));
	memset(g, 0, 12000);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyAtoH(g, b, 0, 12000));
	check_value("atoa whole same", !memcmp(g, h, 12000));
	CHECK_RES(h100("atoa offsets"), cuMemcpyAtoA(b, 400, a, 800, 4000));
	memset(g, 0, 12000);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyAtoH(g, b, 0, 12000));
	check_value("atoa offsets same", !memcmp(g + 400, h + 800, 4000) && !memcmp(g, h, 400));
	CHECK_RES(h100("atoa past end"), cuMemcpyAtoA(b, 0, a, 8000, 4004));
	CHECK_RES(h100("atoa odd"), cuMemcpyAtoA(b, 2, a, 0, 4));
	CHECK_RES(h100("dtoa"), cuMemcpyHtoD(dp, h + 3, 12000) || cuMemcpyDtoA(b, 0, dp, 12000));
	memset(g, 0, 12000);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyAtoH(g, b, 0, 12000));
	check_value("dtoa same", !memcmp(g, h + 3, 12000));
	CHECK_RES(h100("atod"), cuMemcpyAtoD(dp + 100, a, 400, 800));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(g, dp + 100, 800));
	check_value("atod same", !memcmp(g, h + 400, 800));
	CHECK_RES(h100("atod past end"), cuMemcpyAtoD(dp, a, 0, 12004));
	CHECK_RES(h100("dtoa bad pointer"), cuMemcpyDtoA(b, 0, 16, 4));
	CHECK_RES(h100("htoa async"), cuMemcpyHtoAAsync(a, 40, h + 9000, 400, st));
	CHECK_RES(h100("atoh async"), cuMemcpyAtoHAsync(g, a, 40, 400, st));
	CHECK_RES(h100("async sync"), cuStreamSynchronize(st));
	check_value("async same", !memcmp(g, h + 9000, 400));
	CHECK_RES(h100("htoa async past end"), cuMemcpyHtoAAsync(a, 11900, h, 400, st));
	CHECK_RES(h100("destroy a"), cuArrayDestroy(a));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(b));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(dp));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(st));
	CHECK_RES(h100("sync"), cuCtxSynchronize());
}

/* 2D copies with arrays: X in bytes, Y in rows. */
static void copies_2d(void)
{
	CUDA_MEMCPY2D p;
	CUarray a, b;
	CUdeviceptr dp;
	CUstream st;
	int i, bad;

	setup();
	buffers();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dp, MB));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, create2d(&a, CU_AD_FORMAT_UNSIGNED_INT16, 2, 100, 30));
	REQUIRE_RES(CUDA_SUCCESS, create2d(&b, CU_AD_FORMAT_UNSIGNED_INT16, 2, 100, 30));
	memset(&p, 0, sizeof(p));
	p.srcMemoryType = CU_MEMORYTYPE_HOST;
	p.srcHost = h;
	p.srcPitch = 400;
	p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	p.dstArray = a;
	p.WidthInBytes = 400;
	p.Height = 30;
	CHECK_RES(h100("2d htoa whole"), cuMemcpy2D(&p));
	p.dstArray = b;
	CHECK_RES(CUDA_SUCCESS, cuMemcpy2D(&p));
	memset(&p, 0, sizeof(p));
	p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	p.srcArray = a;
	p.srcXInBytes = 8;
	p.srcY = 2;
	p.dstMemoryType = CU_MEMORYTYPE_HOST;
	p.dstHost = g;
	p.dstPitch = 100;
	p.WidthInBytes = 40;
	p.Height = 5;
	memset(g, 0, 1000);
	CHECK_RES(h100("2d atoh"), cuMemcpy2D(&p));
	for (i = 0, bad = 0; i < 5; i++)
		bad += memcmp(g + i * 100, h + (2 + i) * 400 + 8, 40) != 0;
	check_value("2d atoh rows wrong", bad);
	p.srcXInBytes = 8 + 400 - 40 + 4;
	CHECK_RES(h100("2d atoh past row"), cuMemcpy2D(&p));
	p.srcXInBytes = 8;
	p.srcY = 26;
	CHECK_RES(h100("2d atoh past rows"), cuMemcpy2D(&p));
	p.srcY = 25;
	CHECK_RES(h100("2d atoh to last row"), cuMemcpy2D(&p));
	p.srcY = 2;
	p.srcXInBytes = 3;
	CHECK_RES(h100("2d atoh odd x"), cuMemcpy2D(&p));
	p.srcXInBytes = 8;
	p.WidthInBytes = 6;
	CHECK_RES(h100("2d atoh odd width"), cuMemcpy2D(&p));
	/* array to array, 2D */
	memset(&p, 0, sizeof(p));
	p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	p.srcArray = a;
	p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	p.dstArray = b;
	p.srcXInBytes = 4;
	p.srcY = 1;
	p.dstXInBytes = 100;
	p.dstY = 3;
	p.WidthInBytes = 200;
	p.Height = 10;
	CHECK_RES(h100("2d atoa"), cuMemcpy2D(&p));
	memset(g, 0, 12000);
	read2d(g, b);
	for (i = 0, bad = 0; i < 10; i++)
		bad += memcmp(g + (3 + i) * 400 + 100, h + (1 + i) * 400 + 4, 200) != 0;
	check_value("2d atoa rows wrong", bad);
	/* device to array with a pitch */
	memset(&p, 0, sizeof(p));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(dp, h, MB));
	p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	p.srcDevice = dp;
	p.srcPitch = 1000;
	p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	p.dstArray = b;
	p.WidthInBytes = 400;
	p.Height = 30;
	CHECK_RES(h100("2d dtoa"), cuMemcpy2D(&p));
	memset(g, 0, 12000);
	read2d(g, b);
	for (i = 0, bad = 0; i < 30; i++)
		bad += memcmp(g + i * 400, h + i * 1000, 400) != 0;
	check_value("2d dtoa rows wrong", bad);
	p.dstPitch = 8;
	CHECK_RES(h100("2d dtoa with dst pitch"), cuMemcpy2D(&p));
	CHECK_RES(h100("2d async"), cuMemcpy2DAsync(&p, st));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(st));
	CHECK_RES(h100("2d unaligned"), cuMemcpy2DUnaligned(&p));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(a));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(b));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(dp));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(st));
}

/* 3D copies: a 3D array with offsets; 1D and 2D copies of one. */
static void copies_3d(void)
{
	CUDA_MEMCPY3D p;
	CUDA_MEMCPY2D q;
	CUarray c3;
	CUstream st;
	int i, bad;

	setup();
	buffers();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
	/* 80-byte rows, 800-byte slices */
	REQUIRE_RES(CUDA_SUCCESS, create3d(&c3, CU_AD_FORMAT_FLOAT, 1, 20, 10, 6, 0));
	memset(&p, 0, sizeof(p));
	p.srcMemoryType = CU_MEMORYTYPE_HOST;
	p.srcHost = h;
	p.srcPitch = 80;
	p.srcHeight = 10;
	p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	p.dstArray = c3;
	p.WidthInBytes = 80;
	p.Height = 10;
	p.Depth = 6;
	CHECK_RES(h100("3d htoa"), cuMemcpy3D(&p));
	memset(&p, 0, sizeof(p));
	p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	p.srcArray = c3;
	p.srcXInBytes = 8;
	p.srcY = 1;
	p.srcZ = 2;
	p.dstMemoryType = CU_MEMORYTYPE_HOST;
	p.dstHost = g;
	p.dstPitch = 40;
	p.dstHeight = 5;
	p.WidthInBytes = 40;
	p.Height = 5;
	p.Depth = 3;
	memset(g, 0, 1000);
	CHECK_RES(h100("3d atoh"), cuMemcpy3D(&p));
	for (i = 0, bad = 0; i < 15; i++)
		bad += memcmp(g + i * 40, h + (2 + i / 5) * 800 + (1 + i % 5) * 80 + 8, 40) != 0;
	check_value("3d atoh rows wrong", bad);
	p.srcZ = 4;
	CHECK_RES(h100("3d atoh past depth"), cuMemcpy3D(&p));
	p.srcZ = 3;
	CHECK_RES(h100("3d atoh to last slice"), cuMemcpy3D(&p));
	p.srcLOD = 1;
	CHECK_RES(h100("3d atoh lod 1"), cuMemcpy3D(&p));
	p.srcLOD = 0;
	CHECK_RES(h100("3d async"), cuMemcpy3DAsync(&p, st));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(st));
	CHECK_RES(h100("3d 1d copy of 3d array"), cuMemcpyAtoH(g, c3, 0, 4800));
	CHECK_RES(h100("3d 1d copy past"), cuMemcpyAtoH(g, c3, 0, 4804));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(c3));
	/* A 2D copy of a 3D array touches its first slice. */
	REQUIRE_RES(CUDA_SUCCESS, create3d(&c3, CU_AD_FORMAT_FLOAT, 1, 20, 10, 6, 0));
	memset(&q, 0, sizeof(q));
	q.srcMemoryType = CU_MEMORYTYPE_HOST;
	q.srcHost = h;
	q.srcPitch = 80;
	q.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	q.dstArray = c3;
	q.WidthInBytes = 80;
	q.Height = 10;
	CHECK_RES(h100("2d copy into 3d array"), cuMemcpy2D(&q));
	q.Height = 11;
	CHECK_RES(h100("2d copy into 3d array past slice"), cuMemcpy2D(&q));
	/* vgpu's: the first slice has it, the second is still zero. */
	memset(&p, 0, sizeof(p));
	p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	p.srcArray = c3;
	p.dstMemoryType = CU_MEMORYTYPE_HOST;
	p.dstHost = g;
	p.dstPitch = 80;
	p.dstHeight = 10;
	p.WidthInBytes = 80;
	p.Height = 10;
	p.Depth = 2;
	memset(g, 0xff, 1600);
	CHECK_RES(CUDA_SUCCESS, cuMemcpy3D(&p));
	CHECK(!memcmp(g, h, 800));
	for (i = 800, bad = 0; i < 1600; i++)
		bad += g[i] != 0;
	CHECK(bad == 0);
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(c3));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(st));
}

/*
 * The H200 dies of SIGSEGV copying to a destroyed array; vgpu refuses
 * every copy with one (or with a level of a destroyed mipmapped array)
 * with CUDA_ERROR_INVALID_VALUE, and the handle answers as destroyed.
 */
static void destroyed_array(void)
{
	CUDA_ARRAY3D_DESCRIPTOR d;
	CUDA_MEMCPY2D p2;
	CUDA_MEMCPY3D p3;
	CUmipmappedArray m;
	CUarray a, lv;
	CUdeviceptr dp;
	unsigned char buf[256] = { 0 };

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dp, 4096));
	REQUIRE_RES(CUDA_SUCCESS, create2d(&a, CU_AD_FORMAT_UNSIGNED_INT8, 4, 16, 4));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(a));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(a, 0, buf, 16));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoH(buf, a, 0, 16));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoA(a, 0, dp, 16));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoD(dp, a, 0, 16));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoA(a, 0, a, 0, 16));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoAAsync(a, 0, buf, 16, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoHAsync(buf, a, 0, 16, NULL));
	memset(&p2, 0, sizeof(p2));
	p2.srcMemoryType = CU_MEMORYTYPE_HOST;
	p2.srcHost = buf;
	p2.srcPitch = 64;
	p2.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	p2.dstArray = a;
	p2.WidthInBytes = 64;
	p2.Height = 4;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&p2));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy2DAsync(&p2, NULL));
	memset(&p3, 0, sizeof(p3));
	p3.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	p3.srcArray = a;
	p3.dstMemoryType = CU_MEMORYTYPE_HOST;
	p3.dstHost = buf;
	p3.dstPitch = 64;
	p3.dstHeight = 4;
	p3.WidthInBytes = 64;
	p3.Height = 4;
	p3.Depth = 1;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&p3));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuArrayGetDescriptor((CUDA_ARRAY_DESCRIPTOR *)buf, a));

	memset(&d, 0, sizeof(d));
	d.Format = CU_AD_FORMAT_FLOAT;
	d.NumChannels = 1;
	d.Width = 16;
	d.Height = 16;
	REQUIRE_RES(CUDA_SUCCESS, cuMipmappedArrayCreate(&m, &d, 3));
	REQUIRE_RES(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&lv, m, 1));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoA(lv, 0, buf, 32));
	CHECK_RES(CUDA_SUCCESS, cuMipmappedArrayDestroy(m));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(lv, 0, buf, 32));
	p3.srcArray = lv;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&p3));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuArrayDestroy(lv));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

/* Device memory free now, in the current context. */
static size_t mem_free(void)
{
	size_t f = 0, t;

	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&f, &t));
	return f;
}

/* Arrays of several kinds, and a mipmapped array, in the current context. */
static void make_some(CUarray *a, CUmipmappedArray *m)
{
	CUDA_ARRAY3D_DESCRIPTOR d;

	REQUIRE_RES(CUDA_SUCCESS, create2d(&a[0], CU_AD_FORMAT_FLOAT, 4, 300, 200));
	REQUIRE_RES(CUDA_SUCCESS, create3d(&a[1], CU_AD_FORMAT_UNSIGNED_INT8, 1, 64, 64, 64, 0));
	REQUIRE_RES(CUDA_SUCCESS, create3d(&a[2], CU_AD_FORMAT_HALF, 2, 32, 32, 12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED));
	memset(&d, 0, sizeof(d));
	d.Format = CU_AD_FORMAT_FLOAT;
	d.NumChannels = 2;
	d.Width = 256;
	d.Height = 256;
	REQUIRE_RES(CUDA_SUCCESS, cuMipmappedArrayCreate(m, &d, 9));
}

/*
 * Destroying arrays gives their memory back; so does destroying (or
 * resetting) a context with arrays alive, whose handles then answer as
 * destroyed. Measured from another context: nothing leaks.
 */
static void context_teardown(void)
{
	CUDA_ARRAY3D_DESCRIPTOR d;
	CUmipmappedArray m;
	CUcontext other, pc;
	CUarray a[3], lv;
	size_t before;
	unsigned char buf[64];
	int i, round;

	setup();
	before = mem_free();
	make_some(a, &m);
	CHECK(mem_free() < before - 400000);
	for (i = 0; i < 3; i++)
		CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(a[i]));
	CHECK_RES(CUDA_SUCCESS, cuMipmappedArrayDestroy(m));
	CHECK(mem_free() == before);

	for (round = 0; round < 3; round++) {
		REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&other, NULL, 0, 0));
		make_some(a, &m);
		REQUIRE_RES(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&lv, m, 2));
		CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoA(a[0], 0, buf, 64));
		CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(other));
		REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
		CHECK(mem_free() == before);
		for (i = 0; i < 3; i++) {
			CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuArray3DGetDescriptor(&d, a[i]));
			CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoA(a[i], 0, buf, 4));
			CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuArrayDestroy(a[i]));
		}
		CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuArray3DGetDescriptor(&d, lv));
		CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuMipmappedArrayDestroy(m));
	}

	/* A primary context's reset takes its arrays too. */
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&pc, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(pc));
	make_some(a, &m);
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxReset(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	CHECK(mem_free() == before);
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuArrayDestroy(a[0]));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuMipmappedArrayDestroy(m));
}

/* One kind of array, and the box of it a copy takes out. */
struct kind {
	const char *name;
	CUarray_format f;
	unsigned int ch;
	size_t w, h, d;
	unsigned int flags;
	int level;	/* >= 0: that level of a mipmapped array of 5 levels */
};

static size_t kind_texel(const struct kind *k)
{
	return channel_bytes(k->f) * k->ch;
}

/* A copy of box (x, y, z) + (w, hh, dd) bytes/rows/slices between @a and @p. */
static CUresult box(CUarray a, bool to_array, CUmemorytype t, void *host,
		    CUdeviceptr dev, size_t pitch, size_t height, size_t x,
		    size_t y, size_t z, size_t w, size_t hh, size_t dd,
		    CUarray other)
{
	CUDA_MEMCPY3D p;

	memset(&p, 0, sizeof(p));
	p.WidthInBytes = w;
	p.Height = hh;
	p.Depth = dd;
	if (to_array) {
		p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		p.dstArray = a;
		p.dstXInBytes = x;
		p.dstY = y;
		p.dstZ = z;
		p.srcMemoryType = t;
		p.srcHost = host;
		p.srcDevice = dev;
		p.srcArray = other;
		p.srcPitch = pitch;
		p.srcHeight = height;
	} else {
		p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
		p.srcArray = a;
		p.srcXInBytes = x;
		p.srcY = y;
		p.srcZ = z;
		p.dstMemoryType = t;
		p.dstHost = host;
		p.dstDevice = dev;
		p.dstArray = other;
		p.dstPitch = pitch;
		p.dstHeight = height;
	}
	return cuMemcpy3D(&p);
}

/*
 * Fills level @l of @m with a mark or, with @check, counts its bytes that
 * are not the mark any more.
 */
static int level_mark(CUmipmappedArray m, unsigned int l, const struct kind *k,
		      bool check)
{
	CUDA_ARRAY3D_DESCRIPTOR d;
	unsigned char *buf;
	size_t row, rows, sl, j;
	CUarray lv;
	int bad = 0;

	REQUIRE_RES(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&lv, m, l));
	REQUIRE_RES(CUDA_SUCCESS, cuArray3DGetDescriptor(&d, lv));
	row = d.Width * kind_texel(k);
	rows = d.Height ? d.Height : 1;
	sl = d.Depth ? d.Depth : 1;
	buf = malloc(row * rows * sl);
	if (!buf)
		exit(1);
	memset(buf, check ? 0 : 0x5a, row * rows * sl);
	CHECK_RES(CUDA_SUCCESS, box(lv, !check, CU_MEMORYTYPE_HOST, buf, 0, row, rows, 0, 0, 0, row, rows, sl, NULL));
	for (j = 0; check && j < row * rows * sl; j++)
		bad += buf[j] != 0x5a;
	free(buf);
	return bad;
}

/*
 * Every kind of array, and levels of mipmapped ones, round-trips: all of
 * it from the host, to another array of its kind, to device memory and
 * back; a box inside it reads back as the same box of what was written;
 * writing a box changes that box only; a level leaves its neighbours be.
 */
static void every_kind(void)
{
	static const struct kind kinds[] = {
		{ "1d", CU_AD_FORMAT_FLOAT, 1, 300, 0, 0, 0, -1 },
		{ "2d", CU_AD_FORMAT_UNSIGNED_INT16, 2, 37, 19, 0, 0, -1 },
		{ "3d", CU_AD_FORMAT_FLOAT, 4, 9, 7, 5, 0, -1 },
		{ "1d layered", CU_AD_FORMAT_UNSIGNED_INT8, 1, 50, 0, 7, CUDA_ARRAY3D_LAYERED, -1 },
		{ "2d layered", CU_AD_FORMAT_SIGNED_INT16, 4, 13, 11, 4, CUDA_ARRAY3D_LAYERED, -1 },
		{ "cubemap", CU_AD_FORMAT_HALF, 2, 16, 16, 6, CUDA_ARRAY3D_CUBEMAP, -1 },
		{ "cubemap layered", CU_AD_FORMAT_UNSIGNED_INT32, 1, 8, 8, 12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED, -1 },
		{ "surface 2d", CU_AD_FORMAT_SIGNED_INT8, 4, 33, 17, 0, CUDA_ARRAY3D_SURFACE_LDST, -1 },
		{ "mipmap 2d level 1", CU_AD_FORMAT_FLOAT, 1, 64, 16, 0, 0, 1 },
		{ "mipmap 3d level 2", CU_AD_FORMAT_UNSIGNED_INT8, 4, 16, 16, 8, 0, 2 },
		{ "mipmap 1d layered level 3", CU_AD_FORMAT_HALF, 1, 40, 0, 3, CUDA_ARRAY3D_LAYERED, 3 },
		{ "mipmap cubemap level 1", CU_AD_FORMAT_FLOAT, 2, 8, 8, 6, CUDA_ARRAY3D_CUBEMAP, 1 },
	};
	CUDA_ARRAY3D_DESCRIPTOR d;
	CUmipmappedArray m[2] = { NULL, NULL };
	CUarray a, b;
	CUdeviceptr dp;
	unsigned char *in = malloc(MB), *out = malloc(MB), *want = malloc(MB);
	size_t i, k, row, rows, slices, n, x, y, z, bw, bh, bd;
	int bad;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dp, MB));
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		const struct kind *kd = &kinds[k];

		memset(&d, 0, sizeof(d));
		d.Format = kd->f;
		d.NumChannels = kd->ch;
		d.Width = kd->w;
		d.Height = kd->h;
		d.Depth = kd->d;
		d.Flags = kd->flags;
		if (kd->level < 0) {
			REQUIRE_RES(CUDA_SUCCESS, cuArray3DCreate(&a, &d));
			REQUIRE_RES(CUDA_SUCCESS, cuArray3DCreate(&b, &d));
		} else {
			REQUIRE_RES(CUDA_SUCCESS, cuMipmappedArrayCreate(&m[0], &d, 5));
			REQUIRE_RES(CUDA_SUCCESS, cuMipmappedArrayCreate(&m[1], &d, 5));
			REQUIRE_RES(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&a, m[0], kd->level));
			REQUIRE_RES(CUDA_SUCCESS, cuMipmappedArrayGetLevel(&b, m[1], kd->level));
			REQUIRE_RES(CUDA_SUCCESS, cuArray3DGetDescriptor(&d, a));
		}
		if (kd->level >= 0) {
			level_mark(m[0], kd->level - 1, kd, false);
			level_mark(m[0], kd->level + 1, kd, false);
		}
		row = d.Width * kind_texel(kd);
		rows = d.Height ? d.Height : 1;
		slices = d.Depth ? d.Depth : 1;
		n = row * rows * slices;
		for (i = 0; i < n; i++)
			in[i] = (unsigned char)(i * 13 + k * 7 + i / 253);
		/* all of it: host -> a -> b -> device -> host */
		CHECK_RES(CUDA_SUCCESS, box(a, true, CU_MEMORYTYPE_HOST, in, 0, row, rows, 0, 0, 0, row, rows, slices, NULL));
		CHECK_RES(CUDA_SUCCESS, box(b, true, CU_MEMORYTYPE_ARRAY, NULL, 0, 0, 0, 0, 0, 0, row, rows, slices, a));
		CHECK_RES(CUDA_SUCCESS, box(b, false, CU_MEMORYTYPE_DEVICE, NULL, dp, row + 3, rows + 1, 0, 0, 0, row, rows, slices, NULL));
		memset(out, 0, n);
		CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(out, dp, (row + 3) * (rows + 1) * slices));
		for (z = 0, bad = 0; z < slices; z++)
			for (y = 0; y < rows; y++)
				bad += memcmp(out + (z * (rows + 1) + y) * (row + 3), in + (z * rows + y) * row, row) != 0;
		if (bad)
			TAP_FAIL("%s: %d rows wrong through device memory", kd->name, bad);
		/* a box inside, read back */
		x = kind_texel(kd);
		y = rows > 2 ? 1 : 0;
		z = slices > 2 ? 1 : 0;
		bw = row - x - (row > 2 * x ? x : 0);
		bh = rows - y - (rows > 2 ? 1 : 0);
		bd = slices - z - (slices > 2 ? 1 : 0);
		memset(out, 0, n);
		CHECK_RES(CUDA_SUCCESS, box(b, false, CU_MEMORYTYPE_HOST, out, 0, bw, bh, x, y, z, bw, bh, bd, NULL));
		for (i = 0, bad = 0; i < bh * bd; i++)
			bad += memcmp(out + i * bw, in + ((z + i / bh) * rows + y + i % bh) * row + x, bw) != 0;
		if (bad)
			TAP_FAIL("%s: %d rows of the box wrong", kd->name, bad);
		/* a box written changes that box only */
		memcpy(want, in, n);
		for (i = 0; i < bw * bh * bd; i++)
			out[i] = (unsigned char)~i;
		for (i = 0; i < bh * bd; i++)
			memcpy(want + ((z + i / bh) * rows + y + i % bh) * row + x, out + i * bw, bw);
		CHECK_RES(CUDA_SUCCESS, box(a, true, CU_MEMORYTYPE_HOST, out, 0, bw, bh, x, y, z, bw, bh, bd, NULL));
		memset(out, 0, n);
		CHECK_RES(CUDA_SUCCESS, box(a, false, CU_MEMORYTYPE_HOST, out, 0, row, rows, 0, 0, 0, row, rows, slices, NULL));
		if (memcmp(out, want, n))
			TAP_FAIL("%s: the box written changed more than itself", kd->name);
		/* past the array, by a byte, a row or a slice: refused */
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, box(a, false, CU_MEMORYTYPE_HOST, out, 0, row + 1, rows, 0, 0, 0, row + 1, rows, slices, NULL));
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, box(a, false, CU_MEMORYTYPE_HOST, out, 0, row, rows + 1, 0, 0, 0, row, rows + 1, slices, NULL));
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, box(a, false, CU_MEMORYTYPE_HOST, out, 0, row, rows, 0, 0, 1, row, rows, slices, NULL));
		/* 1D copies reach the first row, all of it */
		memset(out, 0, row);
		CHECK_RES(CUDA_SUCCESS, cuMemcpyAtoH(out, b, 0, row));
		CHECK(!memcmp(out, in, row));
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyAtoH(out, b, 0, row + 1));
		if (kd->level >= 0) {
			/* the neighbouring levels kept what they had */
			for (i = 0; i < 2; i++) {
				unsigned int l = kd->level + (i ? 1 : -1);
				int bad = level_mark(m[0], l, kd, true);

				if (bad)
					TAP_FAIL("%s: level %u has %d bytes changed", kd->name, l, bad);
			}
			CHECK_RES(CUDA_SUCCESS, cuMipmappedArrayDestroy(m[0]));
			CHECK_RES(CUDA_SUCCESS, cuMipmappedArrayDestroy(m[1]));
		} else {
			CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(a));
			CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(b));
		}
	}
	CHECK_RES(CUDA_SUCCESS, cuMemFree(dp));
	free(in);
	free(out);
	free(want);
}

/*
 * The per-thread default stream's entry points (cuda.h maps the calls to
 * them under CUDA_API_PER_THREAD_DEFAULT_STREAM), reached by name.
 */
static void ptds_entry_points(void)
{
	CUresult (*htoa)(CUarray, size_t, const void *, size_t) = sym("cuMemcpyHtoA_v2_ptds");
	CUresult (*atoh)(void *, CUarray, size_t, size_t) = sym("cuMemcpyAtoH_v2_ptds");
	CUresult (*dtoa)(CUarray, size_t, CUdeviceptr, size_t) = sym("cuMemcpyDtoA_v2_ptds");
	CUresult (*atod)(CUdeviceptr, CUarray, size_t, size_t) = sym("cuMemcpyAtoD_v2_ptds");
	CUresult (*atoa)(CUarray, size_t, CUarray, size_t, size_t) = sym("cuMemcpyAtoA_v2_ptds");
	CUresult (*htoa_as)(CUarray, size_t, const void *, size_t, CUstream) = sym("cuMemcpyHtoAAsync_v2_ptsz");
	CUresult (*atoh_as)(void *, CUarray, size_t, size_t, CUstream) = sym("cuMemcpyAtoHAsync_v2_ptsz");
	CUarray a, b;
	CUdeviceptr dp;

	setup();
	buffers();
	if (!htoa || !atoh || !dtoa || !atod || !atoa || !htoa_as || !atoh_as)
		return;
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dp, MB));
	REQUIRE_RES(CUDA_SUCCESS, create2d(&a, CU_AD_FORMAT_UNSIGNED_INT8, 4, 1000, 0));
	REQUIRE_RES(CUDA_SUCCESS, create2d(&b, CU_AD_FORMAT_UNSIGNED_INT8, 4, 1000, 0));
	CHECK_RES(CUDA_SUCCESS, htoa(a, 0, h, 4000));
	CHECK_RES(CUDA_SUCCESS, atoa(b, 10, a, 20, 3000));
	CHECK_RES(CUDA_SUCCESS, atod(dp, b, 10, 3000));
	CHECK_RES(CUDA_SUCCESS, dtoa(a, 1000, dp, 3000));
	CHECK_RES(CUDA_SUCCESS, atoh(g, a, 1000, 3000));
	CHECK(!memcmp(g, h + 20, 3000));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, atoh(g, a, 1001, 3000));
	CHECK_RES(CUDA_SUCCESS, htoa_as(a, 4, h + 100, 400, NULL));
	CHECK_RES(CUDA_SUCCESS, atoh_as(g, a, 4, 400, NULL));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(CU_STREAM_PER_THREAD));
	CHECK(!memcmp(g, h + 100, 400));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(a));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(b));
}

/*
 * The first ABI's array calls (32-bit sizes and device pointers), by
 * name: they work in a context of that ABI, and answer
 * CUDA_ERROR_INVALID_CONTEXT, their outputs cleared, in others, as that
 * ABI's memory calls do (compat_api, ctx_v1_api).
 */
struct desc_v1 {
	unsigned int Width, Height;
	CUarray_format Format;
	unsigned int NumChannels;
};

struct desc3d_v1 {
	unsigned int Width, Height, Depth;
	CUarray_format Format;
	unsigned int NumChannels, Flags;
};

static void first_abi(void)
{
	CUresult (*create1)(CUcontext *, unsigned int, CUdevice) = sym("cuCtxCreate");
	CUresult (*acreate)(CUarray *, const struct desc_v1 *) = sym("cuArrayCreate");
	CUresult (*a3create)(CUarray *, const struct desc3d_v1 *) = sym("cuArray3DCreate");
	CUresult (*adesc)(struct desc_v1 *, CUarray) = sym("cuArrayGetDescriptor");
	CUresult (*a3desc)(struct desc3d_v1 *, CUarray) = sym("cuArray3DGetDescriptor");
	CUresult (*htoa)(CUarray, unsigned int, const void *, unsigned int) = sym("cuMemcpyHtoA");
	CUresult (*atoh)(void *, CUarray, unsigned int, unsigned int) = sym("cuMemcpyAtoH");
	CUresult (*dtoa)(CUarray, unsigned int, unsigned int, unsigned int) = sym("cuMemcpyDtoA");
	CUresult (*atod)(unsigned int, CUarray, unsigned int, unsigned int) = sym("cuMemcpyAtoD");
	CUresult (*atoa)(CUarray, unsigned int, CUarray, unsigned int, unsigned int) = sym("cuMemcpyAtoA");
	CUresult (*htoa_as)(CUarray, unsigned int, const void *, unsigned int, CUstream) = sym("cuMemcpyHtoAAsync");
	CUresult (*atoh_as)(void *, CUarray, unsigned int, unsigned int, CUstream) = sym("cuMemcpyAtoHAsync");
	CUresult (*alloc1)(unsigned int *, unsigned int) = sym("cuMemAlloc");
	struct desc_v1 d = { 64, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4 };
	struct desc3d_v1 d3 = { 8, 4, 2, CU_AD_FORMAT_FLOAT, 1, CUDA_ARRAY3D_SURFACE_LDST };
	CUcontext c1;
	CUarray a, b, c;
	unsigned int dp;

	setup();
	buffers();
	if (!create1 || !acreate || !a3create || !adesc || !a3desc || !htoa ||
	    !atoh || !dtoa || !atod || !atoa || !htoa_as || !atoh_as || !alloc1)
		return;
	/* Not in a context of the current ABI. */
	a = (CUarray)&d;
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, acreate(&a, &d));
	CHECK(a == NULL);
	REQUIRE_RES(CUDA_SUCCESS, create2d(&b, CU_AD_FORMAT_UNSIGNED_INT8, 4, 64, 0));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, htoa(b, 0, h, 4));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, adesc(&d, b));
	CHECK(d.Width == 0 && d.NumChannels == 0);
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(b));

	REQUIRE_RES(CUDA_SUCCESS, create1(&c1, 0, 0));
	d = (struct desc_v1){ 64, 0, CU_AD_FORMAT_UNSIGNED_INT8, 4 };
	REQUIRE_RES(CUDA_SUCCESS, acreate(&a, &d));
	REQUIRE_RES(CUDA_SUCCESS, acreate(&b, &d));
	REQUIRE_RES(CUDA_SUCCESS, a3create(&c, &d3));
	memset(&d, 0, sizeof(d));
	CHECK_RES(CUDA_SUCCESS, adesc(&d, a));
	CHECK(d.Width == 64 && d.Height == 0 && d.Format == CU_AD_FORMAT_UNSIGNED_INT8 && d.NumChannels == 4);
	memset(&d3, 0, sizeof(d3));
	CHECK_RES(CUDA_SUCCESS, a3desc(&d3, c));
	CHECK(d3.Width == 8 && d3.Height == 4 && d3.Depth == 2 && d3.Flags == CUDA_ARRAY3D_SURFACE_LDST);
	REQUIRE_RES(CUDA_SUCCESS, alloc1(&dp, 4096));
	CHECK_RES(CUDA_SUCCESS, htoa(a, 0, h, 256));
	CHECK_RES(CUDA_SUCCESS, atoa(b, 6, a, 2, 200));
	CHECK_RES(CUDA_SUCCESS, atod(dp, b, 6, 200));
	CHECK_RES(CUDA_SUCCESS, dtoa(a, 50, dp, 200));
	CHECK_RES(CUDA_SUCCESS, atoh(g, a, 50, 200));
	CHECK(!memcmp(g, h + 2, 200));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, atoh(g, a, 57, 200));
	CHECK_RES(CUDA_SUCCESS, htoa_as(c, 4, h + 77, 28, NULL));
	CHECK_RES(CUDA_SUCCESS, atoh_as(g, c, 4, 28, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(!memcmp(g, h + 77, 28));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(a));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(b));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(c));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c1));
}

/*
 * An array belongs to its context but any context copies with it, as
 * with device memory: one of another context of the device, and one of
 * another device through cuMemcpy3DPeer (which skips with one device).
 */
static void other_contexts(void)
{
	CUDA_MEMCPY3D_PEER p;
	CUcontext c2, d1;
	CUarray a, b;
	int n = 0;

	setup();
	buffers();
	REQUIRE_RES(CUDA_SUCCESS, create3d(&a, CU_AD_FORMAT_UNSIGNED_INT8, 2, 50, 10, 3, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoA(a, 0, h, 100));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c2, NULL, 0, 0));
	memset(g, 0, 100);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyAtoH(g, a, 0, 100));
	CHECK(!memcmp(g, h, 100));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetCount(&n));
	if (n < 2) {
		CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(a));
		TAP_SKIP("one device: run with num_devices=2");
	}
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&d1, NULL, 0, 1));
	REQUIRE_RES(CUDA_SUCCESS, create3d(&b, CU_AD_FORMAT_UNSIGNED_INT8, 2, 50, 10, 3, 0));
	memset(&p, 0, sizeof(p));
	p.srcMemoryType = CU_MEMORYTYPE_HOST;
	p.srcHost = h;
	p.srcPitch = 100;
	p.srcHeight = 10;
	p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	p.dstArray = a;
	p.dstContext = ctx;
	p.WidthInBytes = 100;
	p.Height = 10;
	p.Depth = 3;
	CHECK_RES(CUDA_SUCCESS, cuMemcpy3DPeer(&p));
	p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	p.srcArray = a;
	p.srcContext = ctx;
	p.dstArray = b;
	p.dstContext = d1;
	CHECK_RES(CUDA_SUCCESS, cuMemcpy3DPeer(&p));
	memset(&p, 0, sizeof(p));
	p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	p.srcArray = b;
	p.srcContext = d1;
	p.dstMemoryType = CU_MEMORYTYPE_HOST;
	p.dstHost = g;
	p.dstPitch = 100;
	p.dstHeight = 10;
	p.WidthInBytes = 100;
	p.Height = 10;
	p.Depth = 3;
	memset(g, 0, 3000);
	CHECK_RES(CUDA_SUCCESS, cuMemcpy3DPeer(&p));
	CHECK(!memcmp(g, h, 3000));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(b));
	CHECK_RES(CUDA_SUCCESS, cuArrayDestroy(a));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(d1));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c2));
}

/* Threads making, copying and destroying arrays of one context at once. */
static void *churn(void *arg)
{
	unsigned int seed = (unsigned int)(uintptr_t)arg;
	unsigned char in[512], out[512];
	CUmipmappedArray m;
	CUDA_ARRAY3D_DESCRIPTOR d;
	CUarray a, lv;
	int i, j, bad = 0;

	if (cuCtxSetCurrent(ctx))
		return (void *)1;
	memset(&d, 0, sizeof(d));
	d.Format = CU_AD_FORMAT_UNSIGNED_INT8;
	d.NumChannels = 4;
	d.Width = 128;
	d.Height = 4;
	for (i = 0; i < 50; i++) {
		for (j = 0; j < 512; j++)
			in[j] = (unsigned char)(rand_r(&seed));
		if (create2d(&a, CU_AD_FORMAT_UNSIGNED_INT8, 4, 128, 4) ||
		    cuMipmappedArrayCreate(&m, &d, 3) ||
		    cuMipmappedArrayGetLevel(&lv, m, 0) ||
		    cuMemcpyHtoA(a, 0, in, 512) ||
		    cuMemcpyAtoA(lv, 0, a, 0, 512) ||
		    cuMemcpyAtoH(out, lv, 0, 512) ||
		    cuMemcpyAtoH(in, a, 0, 512) ||
		    cuArrayDestroy(a) || cuMipmappedArrayDestroy(m))
			return (void *)1;
		bad += memcmp(in, out, 512) != 0;
	}
	return (void *)(uintptr_t)bad;
}

static void threads(void)
{
	pthread_t t[4];
	void *res;
	size_t before;
	int i;

	setup();
	before = mem_free();
	for (i = 0; i < 4; i++)
		CHECK(pthread_create(&t[i], NULL, churn, (void *)(uintptr_t)(i + 1)) == 0);
	for (i = 0; i < 4; i++) {
		CHECK(pthread_join(t[i], &res) == 0);
		CHECK(res == NULL);
	}
	CHECK(mem_free() == before);
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(texture_alignment),
		TAP_TEST(formats),
		TAP_TEST(sizes),
		TAP_TEST(descriptors),
		TAP_TEST(deferred_and_sparse),
		TAP_TEST(mipmaps),
		TAP_TEST(copies_1d),
		TAP_TEST(copies_2d),
		TAP_TEST(copies_3d),
		TAP_TEST(destroyed_array),
		TAP_TEST(context_teardown),
		TAP_TEST(every_kind),
		TAP_TEST(ptds_entry_points),
		TAP_TEST(first_abi),
		TAP_TEST(other_contexts),
		TAP_TEST(threads),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
