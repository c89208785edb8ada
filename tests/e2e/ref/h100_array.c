/*
 * Probe of NVIDIA's CUDA array calls on a real GPU: cuArrayCreate and
 * cuArray3DCreate with every format, channel count, flag and bad size,
 * the descriptors they give back, memory requirements, planes and sparse
 * properties, mipmapped arrays and their levels, destroying, and the
 * copies with arrays (host, device and array to array, 1D offsets, 2D and
 * 3D with offsets, async), each checked for the bytes that arrive.
 * Output: one "name = value" per line. Not built by the tree: it needs
 * NVIDIA's cuda.h and libcuda. Run on an H100-class GPU (CUDA 13.0) as
 *   gcc h100_array.c -I/usr/local/cuda/include -lcuda && ./a.out
 * its output is h100_array.log, which tests/e2e/array_api.c follows.
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define R(name, call) printf("%s = %d\n", name, (int)(call))

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

/* Creates, prints the result and destroys. */
static void try2d(const char *name, CUarray_format f, unsigned int ch,
		  size_t w, size_t h)
{
	CUarray a = NULL;
	CUresult r = create2d(&a, f, ch, w, h);

	R(name, r);
	if (!r)
		cuArrayDestroy(a);
}

static void try3d(const char *name, CUarray_format f, unsigned int ch,
		  size_t w, size_t h, size_t dp, unsigned int flags)
{
	CUarray a = NULL;
	CUresult r = create3d(&a, f, ch, w, h, dp, flags);

	R(name, r);
	if (!r)
		cuArrayDestroy(a);
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
	CUDA_ARRAY_DESCRIPTOR d;
	CUarray a = NULL;

	R("create null array", create2d(NULL, CU_AD_FORMAT_FLOAT, 1, 64, 32));
	R("create null desc", cuArrayCreate(&a, NULL));
	memset(&d, 0, sizeof(d));
	R("3dcreate null desc", cuArray3DCreate(&a, NULL));
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

static void descriptors(void)
{
	CUDA_ARRAY3D_DESCRIPTOR d3;
	CUDA_ARRAY_DESCRIPTOR d;
	CUDA_ARRAY_MEMORY_REQUIREMENTS req;
	CUDA_ARRAY_SPARSE_PROPERTIES sp;
	CUarray a, b, c, plane;
	CUdevice dev;

	cuCtxGetDevice(&dev);
	create2d(&a, CU_AD_FORMAT_SIGNED_INT16, 2, 100, 7);
	memset(&d, 0xcc, sizeof(d));
	R("getdesc 2d", cuArrayGetDescriptor(&d, a));
	printf("getdesc 2d values = %d %u %zu %zu\n", (int)d.Format, d.NumChannels, d.Width, d.Height);
	memset(&d3, 0xcc, sizeof(d3));
	R("get3ddesc of 2d", cuArray3DGetDescriptor(&d3, a));
	printf("get3ddesc of 2d values = %d %u %zu %zu %zu %u\n", (int)d3.Format, d3.NumChannels, d3.Width, d3.Height, d3.Depth, d3.Flags);
	R("getdesc null", cuArrayGetDescriptor(NULL, a));
	R("getdesc null array", cuArrayGetDescriptor(&d, NULL));
	R("get3ddesc null", cuArray3DGetDescriptor(NULL, a));
	memset(&req, 0, sizeof(req));
	R("memreq 2d", cuArrayGetMemoryRequirements(&req, a, dev));
	printf("memreq 2d values = size %zu alignment %zu\n", req.size, req.alignment);
	R("memreq null", cuArrayGetMemoryRequirements(NULL, a, dev));
	R("memreq bad device", cuArrayGetMemoryRequirements(&req, a, 99));
	R("plane of 2d", cuArrayGetPlane(&plane, a, 0));
	R("sparse of 2d", cuArrayGetSparseProperties(&sp, a));
	create3d(&b, CU_AD_FORMAT_FLOAT, 4, 9, 5, 3, CUDA_ARRAY3D_SURFACE_LDST);
	memset(&d, 0xcc, sizeof(d));
	R("getdesc of 3d", cuArrayGetDescriptor(&d, b));
	printf("getdesc of 3d values = %d %u %zu %zu\n", (int)d.Format, d.NumChannels, d.Width, d.Height);
	memset(&d3, 0xcc, sizeof(d3));
	R("get3ddesc 3d", cuArray3DGetDescriptor(&d3, b));
	printf("get3ddesc 3d values = %d %u %zu %zu %zu %u\n", (int)d3.Format, d3.NumChannels, d3.Width, d3.Height, d3.Depth, d3.Flags);
	create3d(&c, CU_AD_FORMAT_UNSIGNED_INT8, 1, 16, 16, 12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_TEXTURE_GATHER);
	memset(&d3, 0xcc, sizeof(d3));
	R("get3ddesc cube layered", cuArray3DGetDescriptor(&d3, c));
	printf("get3ddesc cube layered values = %d %u %zu %zu %zu %u\n", (int)d3.Format, d3.NumChannels, d3.Width, d3.Height, d3.Depth, d3.Flags);
	create3d(&plane, CU_AD_FORMAT_UNSIGNED_INT8, 1, 64, 0, 0, 0);
	memset(&d3, 0xcc, sizeof(d3));
	R("get3ddesc 1d", cuArray3DGetDescriptor(&d3, plane));
	printf("get3ddesc 1d values = %d %u %zu %zu %zu %u\n", (int)d3.Format, d3.NumChannels, d3.Width, d3.Height, d3.Depth, d3.Flags);
	memset(&req, 0, sizeof(req));
	R("memreq 3d", cuArrayGetMemoryRequirements(&req, b, dev));
	printf("memreq 3d values = size %zu alignment %zu\n", req.size, req.alignment);
	R("destroy 2d", cuArrayDestroy(a));
	R("destroy 3d", cuArrayDestroy(b));
	R("destroy cube", cuArrayDestroy(c));
	R("destroy 1d", cuArrayDestroy(plane));
	R("destroy null", cuArrayDestroy(NULL));
	R("getdesc destroyed", cuArrayGetDescriptor(&d, a));
	R("destroy again", cuArrayDestroy(a));
}

static void mipmaps(void)
{
	CUDA_ARRAY3D_DESCRIPTOR d3;
	CUDA_ARRAY_MEMORY_REQUIREMENTS req;
	CUmipmappedArray m, m3, ml;
	CUarray lv;
	CUdevice dev;
	CUresult r;
	char name[64];
	unsigned int l;

	cuCtxGetDevice(&dev);
	memset(&d3, 0, sizeof(d3));
	d3.Format = CU_AD_FORMAT_FLOAT;
	d3.NumChannels = 4;
	d3.Width = 64;
	d3.Height = 16;
	R("mipmap 64x16 levels 7", cuMipmappedArrayCreate(&m, &d3, 7));
	R("mipmap 64x16 levels 8", (r = cuMipmappedArrayCreate(&ml, &d3, 8)));
	if (!r)
		cuMipmappedArrayDestroy(ml);
	R("mipmap 64x16 levels 0", (r = cuMipmappedArrayCreate(&ml, &d3, 0)));
	if (!r)
		cuMipmappedArrayDestroy(ml);
	R("mipmap null", cuMipmappedArrayCreate(NULL, &d3, 2));
	R("mipmap null desc", cuMipmappedArrayCreate(&ml, NULL, 2));
	for (l = 0; l < 8; l++) {
		CUDA_ARRAY3D_DESCRIPTOR g;

		snprintf(name, sizeof(name), "mipmap level %u", l);
		r = cuMipmappedArrayGetLevel(&lv, m, l);
		R(name, r);
		if (r)
			continue;
		memset(&g, 0xcc, sizeof(g));
		cuArray3DGetDescriptor(&g, lv);
		printf("%s values = %zu %zu %zu %u\n", name, g.Width, g.Height, g.Depth, g.Flags);
		snprintf(name, sizeof(name), "destroy mipmap level %u", l);
		if (l == 1)
			R(name, cuArrayDestroy(lv));
	}
	R("mipmap level null", cuMipmappedArrayGetLevel(NULL, m, 0));
	memset(&req, 0, sizeof(req));
	R("mipmap memreq", cuMipmappedArrayGetMemoryRequirements(&req, m, dev));
	printf("mipmap memreq values = size %zu alignment %zu\n", req.size, req.alignment);
	d3.Depth = 8;
	d3.Width = 32;
	d3.Height = 32;
	R("mipmap 3d 32x32x8 levels 6", (r = cuMipmappedArrayCreate(&m3, &d3, 6)));
	if (!r) {
		CUDA_ARRAY3D_DESCRIPTOR g;

		cuMipmappedArrayGetLevel(&lv, m3, 4);
		memset(&g, 0xcc, sizeof(g));
		cuArray3DGetDescriptor(&g, lv);
		printf("mipmap 3d level 4 values = %zu %zu %zu %u\n", g.Width, g.Height, g.Depth, g.Flags);
		cuMipmappedArrayDestroy(m3);
	}
	d3.Flags = CUDA_ARRAY3D_LAYERED;
	R("mipmap layered levels 6", (r = cuMipmappedArrayCreate(&m3, &d3, 6)));
	if (!r) {
		CUDA_ARRAY3D_DESCRIPTOR g;

		cuMipmappedArrayGetLevel(&lv, m3, 3);
		memset(&g, 0xcc, sizeof(g));
		cuArray3DGetDescriptor(&g, lv);
		printf("mipmap layered level 3 values = %zu %zu %zu %u\n", g.Width, g.Height, g.Depth, g.Flags);
		cuMipmappedArrayDestroy(m3);
	}
	d3.Flags = CUDA_ARRAY3D_CUBEMAP;
	d3.Depth = 6;
	R("mipmap cube levels 6", (r = cuMipmappedArrayCreate(&m3, &d3, 6)));
	if (!r)
		cuMipmappedArrayDestroy(m3);
	R("mipmap destroy", cuMipmappedArrayDestroy(m));
	R("mipmap destroy null", cuMipmappedArrayDestroy(NULL));
}

/* All of the 100 x 30 two-byte-pair array @a, rows packed, into @g. */
static void read2d(unsigned char *g, CUarray a)
{
	CUDA_MEMCPY2D p;

	memset(&p, 0, sizeof(p));
	p.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	p.srcArray = a;
	p.dstMemoryType = CU_MEMORYTYPE_HOST;
	p.dstHost = g;
	p.dstPitch = 400;
	p.WidthInBytes = 400;
	p.Height = 30;
	if (cuMemcpy2D(&p))
		printf("read2d failed\n");
}

static void copies(void)
{
	CUarray a, b, c3;
	CUdeviceptr dp;
	CUstream st;
	unsigned char *h = malloc(1 << 20), *g = malloc(1 << 20);
	int i, bad;

	for (i = 0; i < (1 << 20); i++)
		h[i] = (unsigned char)(i * 7 + i / 251);
	/* 1D copies of a 2D array reach its first row only. */
	create2d(&a, CU_AD_FORMAT_UNSIGNED_INT16, 2, 100, 30);	/* 400-byte rows */
	R("htoa 2d whole", cuMemcpyHtoA(a, 0, h, 12000));
	R("htoa 2d first row", cuMemcpyHtoA(a, 0, h, 400));
	R("htoa 2d past first row", cuMemcpyHtoA(a, 0, h, 404));
	R("htoa 2d row end", cuMemcpyHtoA(a, 396, h, 4));
	R("atoh 2d first row", cuMemcpyAtoH(g, a, 0, 400));
	printf("atoh 2d first row same = %d\n", !memcmp(g, h, 400));
	R("atoh 2d past first row", cuMemcpyAtoH(g, a, 200, 204));
	cuArrayDestroy(a);
	/* The rest on 1D arrays of 12000 bytes. */
	create2d(&a, CU_AD_FORMAT_UNSIGNED_INT16, 2, 3000, 0);
	create2d(&b, CU_AD_FORMAT_UNSIGNED_INT16, 2, 3000, 0);
	cuMemAlloc(&dp, 1 << 20);
	cuStreamCreate(&st, CU_STREAM_NON_BLOCKING);
	R("htoa whole", cuMemcpyHtoA(a, 0, h, 12000));
	memset(g, 0, 12000);
	R("atoh whole", cuMemcpyAtoH(g, a, 0, 12000));
	printf("atoh whole same = %d\n", !memcmp(g, h, 12000));
	R("htoa offset 1000", cuMemcpyHtoA(a, 1000, h + 50000, 3000));
	memset(g, 0, 12000);
	R("atoh after offset", cuMemcpyAtoH(g, a, 0, 12000));
	printf("atoh offset same = %d\n", !memcmp(g + 1000, h + 50000, 3000) && !memcmp(g, h, 1000) && !memcmp(g + 4000, h + 4000, 8000));
	R("htoa past end", cuMemcpyHtoA(a, 11000, h, 1001));
	R("htoa to end", cuMemcpyHtoA(a, 11000, h, 1000));
	R("htoa offset 1", cuMemcpyHtoA(a, 1, h, 2));
	R("htoa size 3", cuMemcpyHtoA(a, 0, h, 3));
	R("htoa size 0", cuMemcpyHtoA(a, 0, h, 0));
	R("htoa null src", cuMemcpyHtoA(a, 0, NULL, 4));
	R("htoa null array", cuMemcpyHtoA(NULL, 0, h, 4));
	R("atoh past end", cuMemcpyAtoH(g, a, 12000, 4));
	R("atoh offset 2", cuMemcpyAtoH(g, a, 2, 4));
	R("atoh null dst", cuMemcpyAtoH(NULL, a, 0, 4));
	cuMemcpyHtoA(a, 0, h, 12000);
	R("atoa whole", cuMemcpyAtoA(b, 0, a, 0, 12000));
	memset(g, 0, 12000);
	cuMemcpyAtoH(g, b, 0, 12000);
	printf("atoa whole same = %d\n", !memcmp(g, h, 12000));
	R("atoa offsets", cuMemcpyAtoA(b, 400, a, 800, 4000));
	memset(g, 0, 12000);
	cuMemcpyAtoH(g, b, 0, 12000);
	printf("atoa offsets same = %d\n", !memcmp(g + 400, h + 800, 4000) && !memcmp(g, h, 400));
	R("atoa past end", cuMemcpyAtoA(b, 0, a, 8000, 4004));
	R("atoa odd", cuMemcpyAtoA(b, 2, a, 0, 4));
	R("dtoa", cuMemcpyHtoD(dp, h + 3, 12000) || cuMemcpyDtoA(b, 0, dp, 12000));
	memset(g, 0, 12000);
	cuMemcpyAtoH(g, b, 0, 12000);
	printf("dtoa same = %d\n", !memcmp(g, h + 3, 12000));
	R("atod", cuMemcpyAtoD(dp + 100, a, 400, 800));
	cuMemcpyDtoH(g, dp + 100, 800);
	printf("atod same = %d\n", !memcmp(g, h + 400, 800));
	R("atod past end", cuMemcpyAtoD(dp, a, 0, 12004));
	R("dtoa bad pointer", cuMemcpyDtoA(b, 0, 16, 4));
	R("htoa async", cuMemcpyHtoAAsync(a, 40, h + 9000, 400, st));
	R("atoh async", cuMemcpyAtoHAsync(g, a, 40, 400, st));
	R("async sync", cuStreamSynchronize(st));
	printf("async same = %d\n", !memcmp(g, h + 9000, 400));
	R("htoa async past end", cuMemcpyHtoAAsync(a, 11900, h, 400, st));

	/* 2D copies with arrays: X in bytes, Y in rows. */
	cuArrayDestroy(a);
	cuArrayDestroy(b);
	create2d(&a, CU_AD_FORMAT_UNSIGNED_INT16, 2, 100, 30);
	create2d(&b, CU_AD_FORMAT_UNSIGNED_INT16, 2, 100, 30);
	{
		CUDA_MEMCPY2D p;

		memset(&p, 0, sizeof(p));
		p.srcMemoryType = CU_MEMORYTYPE_HOST;
		p.srcHost = h;
		p.srcPitch = 400;
		p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		p.dstArray = a;
		p.WidthInBytes = 400;
		p.Height = 30;
		R("2d htoa whole", cuMemcpy2D(&p));
		p.dstArray = b;
		cuMemcpy2D(&p);
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
		R("2d atoh", cuMemcpy2D(&p));
		for (i = 0, bad = 0; i < 5; i++)
			bad += memcmp(g + i * 100, h + (2 + i) * 400 + 8, 40) != 0;
		printf("2d atoh rows wrong = %d\n", bad);
		p.srcXInBytes = 8 + 400 - 40 + 4;
		R("2d atoh past row", cuMemcpy2D(&p));
		p.srcXInBytes = 8;
		p.srcY = 26;
		R("2d atoh past rows", cuMemcpy2D(&p));
		p.srcY = 25;
		R("2d atoh to last row", cuMemcpy2D(&p));
		p.srcY = 2;
		p.srcXInBytes = 3;
		R("2d atoh odd x", cuMemcpy2D(&p));
		p.srcXInBytes = 8;
		p.WidthInBytes = 6;
		R("2d atoh odd width", cuMemcpy2D(&p));
		p.WidthInBytes = 40;
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
		R("2d atoa", cuMemcpy2D(&p));
		memset(g, 0, 12000);
		read2d(g, b);
		for (i = 0, bad = 0; i < 10; i++)
			bad += memcmp(g + (3 + i) * 400 + 100, h + (1 + i) * 400 + 4, 200) != 0;
		printf("2d atoa rows wrong = %d\n", bad);
		/* device to array with a pitch */
		memset(&p, 0, sizeof(p));
		cuMemcpyHtoD(dp, h, 1 << 20);
		p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
		p.srcDevice = dp;
		p.srcPitch = 1000;
		p.dstMemoryType = CU_MEMORYTYPE_ARRAY;
		p.dstArray = b;
		p.WidthInBytes = 400;
		p.Height = 30;
		R("2d dtoa", cuMemcpy2D(&p));
		memset(g, 0, 12000);
		read2d(g, b);
		for (i = 0, bad = 0; i < 30; i++)
			bad += memcmp(g + i * 400, h + i * 1000, 400) != 0;
		printf("2d dtoa rows wrong = %d\n", bad);
		p.dstPitch = 8;
		R("2d dtoa with dst pitch", cuMemcpy2D(&p));
		R("2d async", cuMemcpy2DAsync(&p, st));
		cuStreamSynchronize(st);
		R("2d unaligned", cuMemcpy2DUnaligned(&p));
	}
	/* 3D copies: a 3D array, slices of a layered one. */
	{
		CUDA_MEMCPY3D p;

		create3d(&c3, CU_AD_FORMAT_FLOAT, 1, 20, 10, 6, 0);	/* 80-byte rows, 800-byte slices */
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
		R("3d htoa", cuMemcpy3D(&p));
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
		R("3d atoh", cuMemcpy3D(&p));
		for (i = 0, bad = 0; i < 15; i++)
			bad += memcmp(g + i * 40, h + (2 + i / 5) * 800 + (1 + i % 5) * 80 + 8, 40) != 0;
		printf("3d atoh rows wrong = %d\n", bad);
		p.srcZ = 4;
		R("3d atoh past depth", cuMemcpy3D(&p));
		p.srcZ = 3;
		R("3d atoh to last slice", cuMemcpy3D(&p));
		p.srcLOD = 1;
		R("3d atoh lod 1", cuMemcpy3D(&p));
		p.srcLOD = 0;
		R("3d async", cuMemcpy3DAsync(&p, st));
		cuStreamSynchronize(st);
		R("3d 1d copy of 3d array", cuMemcpyAtoH(g, c3, 0, 4800));
		R("3d 1d copy past", cuMemcpyAtoH(g, c3, 0, 4804));
		cuArrayDestroy(c3);
		/* A 2D copy of a 3D array touches its first slice. */
		{
			CUDA_MEMCPY2D q;

			create3d(&c3, CU_AD_FORMAT_FLOAT, 1, 20, 10, 6, 0);
			memset(&q, 0, sizeof(q));
			q.srcMemoryType = CU_MEMORYTYPE_HOST;
			q.srcHost = h;
			q.srcPitch = 80;
			q.dstMemoryType = CU_MEMORYTYPE_ARRAY;
			q.dstArray = c3;
			q.WidthInBytes = 80;
			q.Height = 10;
			R("2d copy into 3d array", cuMemcpy2D(&q));
			q.Height = 11;
			R("2d copy into 3d array past slice", cuMemcpy2D(&q));
			cuArrayDestroy(c3);
		}
	}
	/* (A copy to a destroyed array dies of SIGSEGV there.) */
	R("destroy a", cuArrayDestroy(a));
	cuArrayDestroy(b);
	cuMemFree(dp);
	cuStreamDestroy(st);
	free(h);
	free(g);
}

int main(void)
{
	CUcontext ctx;
	CUdevice dev;
	int v;

	setvbuf(stdout, NULL, _IONBF, 0);
	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuCtxCreate(&ctx, NULL, 0, dev);
	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, dev);
	printf("texture alignment = %d\n", v);
	formats();
	sizes();
	descriptors();
	mipmaps();
	copies();
	R("sync", cuCtxSynchronize());
	return 0;
}
