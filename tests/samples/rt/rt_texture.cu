// SPDX-License-Identifier: MIT
// CUDA arrays, textures and surfaces on the runtime API, after the ideas of
// NVIDIA's simpleTexture, simpleSurfaceWrite and simpleLayeredTexture
// samples: a 2D array filled with cudaMemcpy2DToArray and sampled by
// tex2D through texture objects (point and linear filtering, coordinates
// normalized or not, each address mode); a surface written by a kernel
// with surf2Dwrite, then read by surf2Dread and by a texture; a layered
// array filled with cudaMemcpy3D and sampled by tex2DLayered; levels of a
// mipmapped array through tex2DLod; tex1Dfetch and tex2D over linear and
// pitched memory; the older row-spanning copies; what the getters,
// cudaGetChannelDesc and cudaArrayGetInfo give back; bad input (NULL
// pointers, bad channel descriptors, destroyed objects) with each code and
// the last error after it. Every answer is a line "name = value"; point
// samples and surface round trips are checked exactly on the host,
// filtered samples within the texture unit's 8-bit weights (and printed as
// bits). Lines marked "~ " hold what is the device's own (handles,
// sizes). The NULL pointers run each in a process of its own, so that one
// that kills a runtime costs only its line.
#include <math.h>
#include <stdint.h>

#include "rt.h"

// The 1D copies are deprecated, and still CUDA's.
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define W 8	// the 2D texture's texels a row
#define H 4	// its rows
#define L 3	// layers of the layered one

// The float texels: exact in a float, every blend of two at a quarter too.
static float texel(int x, int y)
{
	return (float)(y * 16 + x) + 0.25f;
}

static unsigned int bits(float f)
{
	unsigned int u;

	memcpy(&u, &f, 4);
	return u;
}

// A call's code and the thread's last error after it, then cleared.
static void show(const char *name, cudaError_t e)
{
	cudaError_t last = cudaGetLastError();

	printf("%s = %s, last error %s\n", name, cudaGetErrorName(e),
	       cudaGetErrorName(last));
}

#define SHOW(name, call) show(name, (call))

__global__ void k_fetch2d(cudaTextureObject_t t, const float2 *c, float *out,
			  int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = tex2D<float>(t, c[i].x, c[i].y);
}

__global__ void k_fetch2d4(cudaTextureObject_t t, const float2 *c,
			   float4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = tex2D<float4>(t, c[i].x, c[i].y);
}

__global__ void k_fetch2d_uc4(cudaTextureObject_t t, const float2 *c,
			      uchar4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		out[i] = tex2D<uchar4>(t, c[i].x, c[i].y);
}

__global__ void k_surf_write(cudaSurfaceObject_t s, int w, int h)
{
	int x = threadIdx.x, y = threadIdx.y;

	if (x < w && y < h)
		surf2Dwrite((float)(y * 100 + x) + 0.5f, s, x * 4, y);
}

__global__ void k_surf_read(cudaSurfaceObject_t s, float *out, int w, int h)
{
	int x = threadIdx.x, y = threadIdx.y;

	if (x < w && y < h)
		out[y * w + x] = surf2Dread<float>(s, x * 4, y);
}

__global__ void k_layered(cudaTextureObject_t t, float *out, int w, int h,
			  int layers)
{
	int x = threadIdx.x, y = threadIdx.y, l = threadIdx.z;

	if (x < w && y < h && l < layers)
		out[(l * h + y) * w + x] = tex2DLayered<float>(t, x + 0.5f,
							       y + 0.5f, l);
}

__global__ void k_lod(cudaTextureObject_t t, float *out, int n)
{
	int i = threadIdx.x;

	if (i < n)
		out[i] = tex2DLod<float>(t, 0.3f, 0.6f, (float)i);
}

__global__ void k_fetch1d(cudaTextureObject_t t, float *out, int first, int n)
{
	int i = threadIdx.x;

	if (i < n)
		out[i] = tex1Dfetch<float>(t, first + i);
}

__global__ void k_fetch1d_int(cudaTextureObject_t t, int *out, int n)
{
	int i = threadIdx.x;

	if (i < n)
		out[i] = tex1Dfetch<int>(t, i);
}

static cudaChannelFormatDesc chan(int x, int y, int z, int w,
				  cudaChannelFormatKind f)
{
	return cudaCreateChannelDesc(x, y, z, w, f);
}

static void print_desc(const char *name, const cudaChannelFormatDesc &d)
{
	printf("%s = %d %d %d %d kind %d\n", name, d.x, d.y, d.z, d.w,
	       (int)d.f);
}

static void res_array(cudaResourceDesc *r, cudaArray_t a)
{
	memset(r, 0, sizeof(*r));
	r->resType = cudaResourceTypeArray;
	r->res.array.array = a;
}

// Point sampling, clamped, coordinates in texels, texels as stored.
static void tex_point(cudaTextureDesc *t)
{
	memset(t, 0, sizeof(*t));
	t->addressMode[0] = t->addressMode[1] = t->addressMode[2] =
		cudaAddressModeClamp;
	t->filterMode = cudaFilterModePoint;
	t->readMode = cudaReadModeElementType;
}

// Samples @t at @n coordinates @c (tex2D<float>) into @out.
static void fetch2d(cudaTextureObject_t t, const float2 *c, float *out, int n)
{
	float2 *dc;
	float *dout;

	TRY(cudaMalloc(&dc, n * sizeof(float2)));
	TRY(cudaMalloc(&dout, n * sizeof(float)));
	TRY(cudaMemcpy(dc, c, n * sizeof(float2), cudaMemcpyHostToDevice));
	k_fetch2d<<<(n + 63) / 64, 64>>>(t, dc, dout, n);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(out, dout, n * sizeof(float), cudaMemcpyDeviceToHost));
	TRY(cudaFree(dc));
	TRY(cudaFree(dout));
}

// Bilinear filtering of texel() at (u, v) in texels, clamped, in doubles.
static double bilerp(double u, double v)
{
	double x = u - 0.5, y = v - 0.5, fx = floor(x), fy = floor(y);
	double a = x - fx, b = y - fy, s = 0;
	int i, j;

	for (j = 0; j < 2; j++)
		for (i = 0; i < 2; i++) {
			int tx = (int)fx + i, ty = (int)fy + j;

			tx = tx < 0 ? 0 : tx >= W ? W - 1 : tx;
			ty = ty < 0 ? 0 : ty >= H ? H - 1 : ty;
			s += (i ? a : 1 - a) * (j ? b : 1 - b) * texel(tx, ty);
		}
	return s;
}

static void print_texdesc(const char *name, const cudaTextureDesc &t)
{
	printf("%s = addr %d %d %d filter %d read %d srgb %d normalized %d "
	       "aniso %u mipfilter %d bias %g min %g max %g no-trilinear-opt %d "
	       "seamless %d\n", name, (int)t.addressMode[0],
	       (int)t.addressMode[1], (int)t.addressMode[2], (int)t.filterMode,
	       (int)t.readMode, t.sRGB, t.normalizedCoords, t.maxAnisotropy,
	       (int)t.mipmapFilterMode, t.mipmapLevelBias,
	       t.minMipmapLevelClamp, t.maxMipmapLevelClamp,
	       t.disableTrilinearOptimization, t.seamlessCubemap);
}

// --- arrays and what they say of themselves ---

static void arrays(void)
{
	cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
	cudaChannelFormatDesc d;
	cudaArraySparseProperties sp;
	cudaArrayMemoryRequirements mr;
	cudaMipmappedArray_t m;
	cudaArray_t a, lv;
	cudaExtent e;
	unsigned int flags;
	size_t width;
	struct {
		const char *name;
		cudaChannelFormatDesc d;
		cudaExtent e;
		unsigned int flags;
	} cases[] = {
		{ "float 2D", f1, make_cudaExtent(W, H, 0), 0 },
		{ "uchar4 2D surface", cudaCreateChannelDesc<uchar4>(),
		  make_cudaExtent(16, 8, 0), cudaArraySurfaceLoadStore },
		{ "short 1D", cudaCreateChannelDesc<short>(),
		  make_cudaExtent(100, 0, 0), 0 },
		{ "half2 3D", cudaCreateChannelDescHalf2(),
		  make_cudaExtent(4, 4, 3), 0 },
		{ "float layered", f1, make_cudaExtent(W, H, L),
		  cudaArrayLayered },
		{ "int2 1D layered", cudaCreateChannelDesc<int2>(),
		  make_cudaExtent(32, 0, 5), cudaArrayLayered },
		{ "uint4 cubemap", cudaCreateChannelDesc<uint4>(),
		  make_cudaExtent(8, 8, 6), cudaArrayCubemap },
		{ "uchar gather", cudaCreateChannelDesc<unsigned char>(),
		  make_cudaExtent(16, 16, 0), cudaArrayTextureGather },
		{ "unorm8x4", cudaCreateChannelDesc<
			  cudaChannelFormatKindUnsignedNormalized8X4>(),
		  make_cudaExtent(8, 8, 0), 0 },
		{ "snorm16x2", cudaCreateChannelDesc<
			  cudaChannelFormatKindSignedNormalized16X2>(),
		  make_cudaExtent(8, 8, 0), 0 },
		{ "bc1", cudaCreateChannelDesc<
			  cudaChannelFormatKindUnsignedBlockCompressed1>(),
		  make_cudaExtent(16, 16, 0), 0 },
	};
	char name[128];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(name, sizeof(name), "malloc3d %s", cases[i].name);
		a = NULL;
		SHOW(name, cudaMalloc3DArray(&a, &cases[i].d, cases[i].e,
					     cases[i].flags));
		if (!a)
			continue;
		memset(&d, 0xcc, sizeof(d));
		snprintf(name, sizeof(name), "channel desc %s", cases[i].name);
		SHOW(name, cudaGetChannelDesc(&d, a));
		snprintf(name, sizeof(name), "channel desc %s value",
			 cases[i].name);
		print_desc(name, d);
		memset(&d, 0xcc, sizeof(d));
		memset(&e, 0xcc, sizeof(e));
		flags = 0xcccccccc;
		snprintf(name, sizeof(name), "info %s", cases[i].name);
		SHOW(name, cudaArrayGetInfo(&d, &e, &flags, a));
		printf("info %s value = desc %d %d %d %d kind %d extent %zu %zu "
		       "%zu flags %#x\n", cases[i].name, d.x, d.y, d.z, d.w,
		       (int)d.f, e.width, e.height, e.depth, flags);
		snprintf(name, sizeof(name), "free %s", cases[i].name);
		SHOW(name, cudaFreeArray(a));
	}

	// cudaMallocArray: 2D, and 1D with no height.
	SHOW("malloc float 2D", cudaMallocArray(&a, &f1, W, H));
	SHOW("info outputs NULL", cudaArrayGetInfo(NULL, NULL, NULL, a));
	memset(&e, 0xcc, sizeof(e));
	SHOW("info extent only", cudaArrayGetInfo(NULL, &e, NULL, a));
	printf("info extent only value = %zu %zu %zu\n", e.width, e.height,
	       e.depth);
	SHOW("plane of a float array", cudaArrayGetPlane(&lv, a, 0));
	SHOW("sparse properties of a dense array",
	     cudaArrayGetSparseProperties(&sp, a));
	SHOW("memory requirements of a mapped array",
	     cudaArrayGetMemoryRequirements(&mr, a, 0));
	SHOW("free float 2D", cudaFreeArray(a));
	SHOW("malloc float 1D", cudaMallocArray(&a, &f1, 64));
	memset(&e, 0xcc, sizeof(e));
	SHOW("info float 1D", cudaArrayGetInfo(NULL, &e, &flags, a));
	printf("info float 1D value = extent %zu %zu %zu flags %#x\n",
	       e.width, e.height, e.depth, flags);
	SHOW("free float 1D", cudaFreeArray(a));
	SHOW("malloc width 0", cudaMallocArray(&a, &f1, 0, 4));
	SHOW("malloc 2D gather", cudaMallocArray(&a, &f1, 16, 16,
						 cudaArrayTextureGather));
	SHOW("free 2D gather", cudaFreeArray(a));
	SHOW("malloc cubemap 5 faces",
	     cudaMalloc3DArray(&a, &f1, make_cudaExtent(8, 8, 5),
			       cudaArrayCubemap));
	SHOW("malloc flag 0x10", cudaMalloc3DArray(&a, &f1,
						   make_cudaExtent(8, 8, 0), 0x10));
	SHOW("free NULL", cudaFreeArray(NULL));
	SHOW("free mipmapped NULL", cudaFreeMipmappedArray(NULL));

	// Deferred mapping and sparse arrays: their requirements and tiles.
	SHOW("malloc deferred", cudaMallocArray(&a, &f1, 256, 256,
						cudaArrayDeferredMapping));
	memset(&mr, 0, sizeof(mr));
	SHOW("memory requirements deferred",
	     cudaArrayGetMemoryRequirements(&mr, a, 0));
	printf("~ memory requirements deferred value = size %zu alignment %zu\n",
	       mr.size, mr.alignment);
	SHOW("memory requirements device 99",
	     cudaArrayGetMemoryRequirements(&mr, a, 99));
	SHOW("free deferred", cudaFreeArray(a));
	SHOW("malloc sparse", cudaMallocArray(&a, &f1, 512, 512,
					      cudaArraySparse));
	memset(&sp, 0, sizeof(sp));
	SHOW("sparse properties", cudaArrayGetSparseProperties(&sp, a));
	printf("~ sparse properties value = tile %u %u %u tail from %u size "
	       "%llu flags %#x\n", sp.tileExtent.width, sp.tileExtent.height,
	       sp.tileExtent.depth, sp.miptailFirstLevel, sp.miptailSize,
	       sp.flags);
	SHOW("free sparse", cudaFreeArray(a));

	// A mipmapped array's levels.
	SHOW("malloc mipmapped", cudaMallocMipmappedArray(
		     &m, &f1, make_cudaExtent(16, 8, 0), 3, 0));
	SHOW("level 1", cudaGetMipmappedArrayLevel(&lv, m, 1));
	memset(&e, 0xcc, sizeof(e));
	SHOW("level 1 info", cudaArrayGetInfo(&d, &e, &flags, lv));
	printf("level 1 info value = desc %d %d %d %d kind %d extent %zu %zu "
	       "%zu flags %#x\n", d.x, d.y, d.z, d.w, (int)d.f, e.width,
	       e.height, e.depth, flags);
	SHOW("level 3 of 3", cudaGetMipmappedArrayLevel(&lv, m, 3));
	SHOW("sparse properties of a dense mipmapped array",
	     cudaMipmappedArrayGetSparseProperties(&sp, m));
	SHOW("memory requirements of a mapped mipmapped array",
	     cudaMipmappedArrayGetMemoryRequirements(&mr, m, 0));
	SHOW("free mipmapped", cudaFreeMipmappedArray(m));

	// The widest textures over linear memory, by format.
	width = 777;
	SHOW("linear max width float",
	     cudaDeviceGetTexture1DLinearMaxWidth(&width, &f1, 0));
	printf("linear max width float value = %zu\n", width);
	d = cudaCreateChannelDesc<float4>();
	SHOW("linear max width float4",
	     cudaDeviceGetTexture1DLinearMaxWidth(&width, &d, 0));
	printf("linear max width float4 value = %zu\n", width);
	d = cudaCreateChannelDesc<unsigned char>();
	SHOW("linear max width uchar",
	     cudaDeviceGetTexture1DLinearMaxWidth(&width, &d, 0));
	printf("linear max width uchar value = %zu\n", width);
	d = chan(8, 8, 8, 0, cudaChannelFormatKindUnsigned);
	SHOW("linear max width uchar3",
	     cudaDeviceGetTexture1DLinearMaxWidth(&width, &d, 0));
	SHOW("linear max width device 99",
	     cudaDeviceGetTexture1DLinearMaxWidth(&width, &f1, 99));
}

// Channel descriptors no format matches.
static void bad_channels(void)
{
	static const struct {
		const char *name;
		int x, y, z, w;
		int f;
	} cases[] = {
		{ "3 channels", 8, 8, 8, 0, cudaChannelFormatKindUnsigned },
		{ "channels of 8 and 16 bits", 8, 16, 0, 0,
		  cudaChannelFormatKindUnsigned },
		{ "a gap", 8, 0, 8, 0, cudaChannelFormatKindSigned },
		{ "no channels", 0, 0, 0, 0, cudaChannelFormatKindUnsigned },
		{ "8-bit float", 8, 0, 0, 0, cudaChannelFormatKindFloat },
		{ "64-bit float", 64, 0, 0, 0, cudaChannelFormatKindFloat },
		{ "24-bit signed", 24, 0, 0, 0, cudaChannelFormatKindSigned },
		{ "kind none", 32, 0, 0, 0, cudaChannelFormatKindNone },
		{ "kind 99", 32, 0, 0, 0, 99 },
		{ "unorm8x1 of 16 bits", 16, 0, 0, 0,
		  cudaChannelFormatKindUnsignedNormalized8X1 },
		{ "unorm8x2 of 1 channel", 8, 0, 0, 0,
		  cudaChannelFormatKindUnsignedNormalized8X2 },
		{ "nv12", 8, 8, 8, 0, cudaChannelFormatKindNV12 },
	};
	cudaChannelFormatDesc d;
	cudaResourceDesc r;
	cudaTextureDesc t;
	cudaTextureObject_t o;
	cudaArray_t a;
	char name[128];
	size_t i, width;
	void *p;

	TRY(cudaMalloc(&p, 4096));
	tex_point(&t);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		d = chan(cases[i].x, cases[i].y, cases[i].z, cases[i].w,
			 (cudaChannelFormatKind)cases[i].f);
		a = NULL;
		snprintf(name, sizeof(name), "malloc array of %s",
			 cases[i].name);
		SHOW(name, cudaMallocArray(&a, &d, 8, 8));
		if (a)
			cudaFreeArray(a);
		snprintf(name, sizeof(name), "malloc 3D array of %s",
			 cases[i].name);
		a = NULL;
		SHOW(name, cudaMalloc3DArray(&a, &d, make_cudaExtent(4, 4, 4),
					     0));
		if (a)
			cudaFreeArray(a);
		memset(&r, 0, sizeof(r));
		r.resType = cudaResourceTypeLinear;
		r.res.linear.devPtr = p;
		r.res.linear.desc = d;
		r.res.linear.sizeInBytes = 4096;
		o = 0;
		snprintf(name, sizeof(name), "linear texture of %s",
			 cases[i].name);
		SHOW(name, cudaCreateTextureObject(&o, &r, &t, NULL));
		if (o)
			cudaDestroyTextureObject(o);
		snprintf(name, sizeof(name), "linear max width of %s",
			 cases[i].name);
		SHOW(name, cudaDeviceGetTexture1DLinearMaxWidth(&width, &d, 0));
	}
	d = cudaCreateChannelDesc(5, 6, 7, 8, cudaChannelFormatKindFloat);
	print_desc("cudaCreateChannelDesc as given", d);
	TRY(cudaFree(p));
}

// --- a 2D texture of floats (simpleTexture) ---

static void texture_2d(void)
{
	static float host[H][W], back[H][W];
	cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
	float2 c[W * H + 16];
	float out[W * H + 16];
	cudaResourceDesc r, rg;
	cudaTextureDesc t, tg;
	cudaResourceViewDesc v;
	cudaTextureObject_t o, o2;
	cudaArray_t a;
	int x, y, n, bad;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			host[y][x] = texel(x, y);
	TRY(cudaMallocArray(&a, &f1, W, H));
	TRY(cudaMemcpy2DToArray(a, 0, 0, host, W * 4, W * 4, H,
				cudaMemcpyHostToDevice));
	memset(back, 0, sizeof(back));
	TRY(cudaMemcpy2DFromArray(back, W * 4, a, 0, 0, W * 4, H,
				  cudaMemcpyDeviceToHost));
	bad = memcmp(host, back, sizeof(host)) != 0;
	EXPECT_TRUE(!bad);
	printf("2D array round trip differs = %d\n", bad);

	// Point sampling at every texel's centre, and past the edges.
	res_array(&r, a);
	tex_point(&t);
	TRY(cudaCreateTextureObject(&o, &r, &t, NULL));
	printf("~ texture handle = %llu\n", (unsigned long long)o);
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			c[y * W + x] = make_float2(x + 0.5f, y + 0.5f);
	n = W * H;
	c[n++] = make_float2(-2.0f, 1.5f);
	c[n++] = make_float2(100.0f, 100.0f);
	c[n++] = make_float2(3.99f, 0.0f);
	c[n++] = make_float2(4.0f, 2.0f);
	fetch2d(o, c, out, n);
	bad = 0;
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			bad += out[y * W + x] != texel(x, y);
	EXPECT_TRUE(bad == 0);
	printf("point samples at texel centres wrong = %d\n", bad);
	EXPECT_TRUE(out[W * H] == texel(0, 1) && out[W * H + 1] == texel(W - 1, H - 1) &&
		    out[W * H + 2] == texel(3, 0) && out[W * H + 3] == texel(4, 2));
	printf("point clamped (-2, 1.5) = %.9g\n", out[W * H]);
	printf("point clamped (100, 100) = %.9g\n", out[W * H + 1]);
	printf("point (3.99, 0) = %.9g\n", out[W * H + 2]);
	printf("point (4, 2) = %.9g\n", out[W * H + 3]);

	// The getters give back what went in.
	memset(&rg, 0xcc, sizeof(rg));
	SHOW("get resource", cudaGetTextureObjectResourceDesc(&rg, o));
	printf("get resource value = type %d array same %d flags %u\n",
	       (int)rg.resType, rg.res.array.array == a, rg.flags);
	memset(&tg, 0xcc, sizeof(tg));
	SHOW("get texture desc", cudaGetTextureObjectTextureDesc(&tg, o));
	print_texdesc("get texture desc value", tg);
	memset(&v, 0xcc, sizeof(v));
	SHOW("get view without one", cudaGetTextureObjectResourceViewDesc(&v, o));
	/* (NVIDIA's runtime leaves what its driver did not write: its own.) */
	printf("~ get view without one value = format %d size %zu %zu %zu "
	       "levels %u %u layers %u %u\n", (int)v.format, v.width, v.height,
	       v.depth, v.firstMipmapLevel, v.lastMipmapLevel, v.firstLayer,
	       v.lastLayer);

	// Linear filtering in texels: at quarter weights the blends are exact.
	n = 0;
	c[n++] = make_float2(1.0f, 0.5f);
	c[n++] = make_float2(1.25f, 1.75f);
	c[n++] = make_float2(3.75f, 2.25f);
	c[n++] = make_float2(0.0f, 0.0f);
	c[n++] = make_float2(8.0f, 4.0f);
	c[n++] = make_float2(1.3f, 2.7f);
	c[n++] = make_float2(6.1f, 0.9f);
	t.filterMode = cudaFilterModeLinear;
	TRY(cudaCreateTextureObject(&o2, &r, &t, NULL));
	fetch2d(o2, c, out, n);
	for (x = 0; x < n; x++) {
		double want = bilerp(c[x].x, c[x].y);
		char name[64];

		// Weights have 8 bits: within 1/256 of the largest step (16).
		if (x < 5)
			EXPECT_TRUE(out[x] == (float)want);
		else
			EXPECT_TRUE(fabs(out[x] - want) <= 16.0 / 256);
		snprintf(name, sizeof(name), "linear (%g, %g)", c[x].x,
			 c[x].y);
		printf("%s = %.9g bits %08x\n", name, out[x], bits(out[x]));
	}
	TRY(cudaDestroyTextureObject(o2));

	// Normalized coordinates, wrapped and mirrored.
	tex_point(&t);
	t.normalizedCoords = 1;
	t.addressMode[0] = t.addressMode[1] = cudaAddressModeWrap;
	TRY(cudaCreateTextureObject(&o2, &r, &t, NULL));
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			c[y * W + x] = make_float2((x + 0.5f) / W + 1.0f,
						   (y + 0.5f) / H - 2.0f);
	fetch2d(o2, c, out, W * H);
	bad = 0;
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			bad += out[y * W + x] != texel(x, y);
	EXPECT_TRUE(bad == 0);
	printf("normalized wrapped point samples wrong = %d\n", bad);
	TRY(cudaDestroyTextureObject(o2));
	t.addressMode[0] = t.addressMode[1] = cudaAddressModeMirror;
	TRY(cudaCreateTextureObject(&o2, &r, &t, NULL));
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			c[y * W + x] = make_float2(1.0f + (x + 0.5f) / W,
						   (y + 0.5f) / H);
	fetch2d(o2, c, out, W * H);
	bad = 0;
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			bad += out[y * W + x] != texel(W - 1 - x, y);
	EXPECT_TRUE(bad == 0);
	printf("normalized mirrored point samples wrong = %d\n", bad);
	TRY(cudaDestroyTextureObject(o2));

	// Border: outside reads the border colour.
	tex_point(&t);
	t.addressMode[0] = t.addressMode[1] = cudaAddressModeBorder;
	t.borderColor[0] = 7.5f;
	TRY(cudaCreateTextureObject(&o2, &r, &t, NULL));
	n = 0;
	c[n++] = make_float2(-0.5f, 0.5f);
	c[n++] = make_float2(2.5f, 4.5f);
	c[n++] = make_float2(2.5f, 3.5f);
	fetch2d(o2, c, out, n);
	EXPECT_TRUE(out[0] == 7.5f && out[1] == 7.5f && out[2] == texel(2, 3));
	printf("border (-0.5, 0.5) = %.9g\n", out[0]);
	printf("border (2.5, 4.5) = %.9g\n", out[1]);
	printf("border (2.5, 3.5) = %.9g\n", out[2]);
	TRY(cudaDestroyTextureObject(o2));

	// Every field set, and read back.
	memset(&t, 0, sizeof(t));
	t.addressMode[0] = cudaAddressModeWrap;
	t.addressMode[1] = cudaAddressModeMirror;
	t.addressMode[2] = cudaAddressModeBorder;
	t.filterMode = cudaFilterModeLinear;
	t.readMode = cudaReadModeNormalizedFloat;
	t.sRGB = 1;
	t.borderColor[0] = 0.25f;
	t.borderColor[1] = 0.5f;
	t.borderColor[2] = 0.75f;
	t.borderColor[3] = 1.0f;
	t.normalizedCoords = 1;
	t.maxAnisotropy = 4;
	t.disableTrilinearOptimization = 1;
	/* Floats read as normalized floats: refused by the runtime. */
	o2 = 0;
	SHOW("texture of every field, floats read normalized",
	     cudaCreateTextureObject(&o2, &r, &t, NULL));
	if (o2)
		cudaDestroyTextureObject(o2);
	t.readMode = cudaReadModeElementType;
	o2 = 0;
	SHOW("texture of every field", cudaCreateTextureObject(&o2, &r, &t, NULL));
	if (o2) {
		memset(&tg, 0xcc, sizeof(tg));
		SHOW("get texture desc of every field",
		     cudaGetTextureObjectTextureDesc(&tg, o2));
		print_texdesc("get texture desc of every field value", tg);
		/* NVIDIA's runtime leaves what its driver does not write. */
		printf("~ get texture desc of every field border = %g %g %g %g\n",
		       tg.borderColor[0], tg.borderColor[1], tg.borderColor[2],
		       tg.borderColor[3]);
		TRY(cudaDestroyTextureObject(o2));
	}

	// A view of the same format.
	tex_point(&t);
	memset(&v, 0, sizeof(v));
	v.format = cudaResViewFormatFloat1;
	v.width = W;
	v.height = H;
	o2 = 0;
	SHOW("texture with a view", cudaCreateTextureObject(&o2, &r, &t, &v));
	if (o2) {
		memset(&v, 0xcc, sizeof(v));
		SHOW("get view", cudaGetTextureObjectResourceViewDesc(&v, o2));
		printf("get view value = format %d size %zu %zu %zu levels %u "
		       "%u layers %u %u\n", (int)v.format, v.width, v.height,
		       v.depth, v.firstMipmapLevel, v.lastMipmapLevel,
		       v.firstLayer, v.lastLayer);
		TRY(cudaDestroyTextureObject(o2));
	}

	// Destroyed: the getters refuse it, destroying it again does not.
	TRY(cudaDestroyTextureObject(o));
	SHOW("get resource of a destroyed texture",
	     cudaGetTextureObjectResourceDesc(&rg, o));
	SHOW("get texture desc of a destroyed texture",
	     cudaGetTextureObjectTextureDesc(&tg, o));
	SHOW("get view of a destroyed texture",
	     cudaGetTextureObjectResourceViewDesc(&v, o));
	SHOW("destroy a destroyed texture", cudaDestroyTextureObject(o));
	SHOW("destroy texture 0", cudaDestroyTextureObject(0));
	SHOW("get resource of texture 12345",
	     cudaGetTextureObjectResourceDesc(&rg, 12345));
	TRY(cudaFreeArray(a));
}

// --- bytes through a texture: normalized and as they are ---

static void texture_uchar4(void)
{
	static uchar4 host[H][W];
	cudaChannelFormatDesc d = cudaCreateChannelDesc<uchar4>();
	float2 c[4], *dc;
	float4 out[4], *dout;
	uchar4 raw[4], *draw;
	cudaResourceDesc r;
	cudaTextureDesc t;
	cudaTextureObject_t on, oe, ol;
	cudaArray_t a;
	int x, y, i;

	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			host[y][x] = make_uchar4(x * 32, y * 64 + 1, x * y + 7,
						 255 - x);
	TRY(cudaMallocArray(&a, &d, W, H));
	TRY(cudaMemcpy2DToArray(a, 0, 0, host, W * 4, W * 4, H,
				cudaMemcpyDefault));
	res_array(&r, a);
	tex_point(&t);
	t.readMode = cudaReadModeNormalizedFloat;
	TRY(cudaCreateTextureObject(&on, &r, &t, NULL));
	tex_point(&t);
	TRY(cudaCreateTextureObject(&oe, &r, &t, NULL));
	t.readMode = cudaReadModeNormalizedFloat;
	t.filterMode = cudaFilterModeLinear;
	TRY(cudaCreateTextureObject(&ol, &r, &t, NULL));
	c[0] = make_float2(0.5f, 0.5f);
	c[1] = make_float2(5.5f, 2.5f);
	c[2] = make_float2(7.5f, 3.5f);
	c[3] = make_float2(3.0f, 1.0f);
	TRY(cudaMalloc(&dc, sizeof(c)));
	TRY(cudaMalloc(&dout, sizeof(out)));
	TRY(cudaMalloc(&draw, sizeof(raw)));
	TRY(cudaMemcpy(dc, c, sizeof(c), cudaMemcpyHostToDevice));
	k_fetch2d_uc4<<<1, 4>>>(oe, dc, draw, 4);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(raw, draw, sizeof(raw), cudaMemcpyDeviceToHost));
	for (i = 0; i < 3; i++) {
		uchar4 want = host[(int)c[i].y][(int)c[i].x];

		EXPECT_TRUE(raw[i].x == want.x && raw[i].y == want.y &&
			    raw[i].z == want.z && raw[i].w == want.w);
		printf("uchar4 element type (%g, %g) = %u %u %u %u\n", c[i].x,
		       c[i].y, raw[i].x, raw[i].y, raw[i].z, raw[i].w);
	}
	k_fetch2d4<<<1, 4>>>(on, dc, dout, 4);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
	for (i = 0; i < 3; i++) {
		uchar4 want = host[(int)c[i].y][(int)c[i].x];

		EXPECT_TRUE(fabsf(out[i].x - want.x / 255.0f) <= 1e-6f &&
			    fabsf(out[i].w - want.w / 255.0f) <= 1e-6f);
		printf("uchar4 normalized (%g, %g) = %08x %08x %08x %08x\n",
		       c[i].x, c[i].y, bits(out[i].x), bits(out[i].y),
		       bits(out[i].z), bits(out[i].w));
	}
	k_fetch2d4<<<1, 4>>>(ol, dc, dout, 4);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
	// (3, 1) is where four texels meet, each weighing a quarter.
	EXPECT_TRUE(fabsf(out[3].x - (2 * 64 + 2 * 96) / 4 / 255.0f) <= 1.0f / 255);
	for (i = 0; i < 4; i++)
		printf("uchar4 linear (%g, %g) = %08x %08x %08x %08x\n", c[i].x,
		       c[i].y, bits(out[i].x), bits(out[i].y), bits(out[i].z),
		       bits(out[i].w));
	TRY(cudaDestroyTextureObject(on));
	TRY(cudaDestroyTextureObject(oe));
	TRY(cudaDestroyTextureObject(ol));
	TRY(cudaFree(dc));
	TRY(cudaFree(dout));
	TRY(cudaFree(draw));
	TRY(cudaFreeArray(a));
}

// --- a surface written by a kernel (simpleSurfaceWrite) ---

static void surface(void)
{
	static float back[H][W], through[H][W];
	cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
	cudaResourceDesc r, rg;
	cudaTextureDesc t;
	cudaSurfaceObject_t s;
	cudaTextureObject_t o;
	float2 c[W * H];
	float out[W * H], *dout;
	cudaArray_t a, plain;
	int x, y, bad;

	TRY(cudaMallocArray(&a, &f1, W, H, cudaArraySurfaceLoadStore));
	res_array(&r, a);
	TRY(cudaCreateSurfaceObject(&s, &r));
	printf("~ surface handle = %llu\n", (unsigned long long)s);
	k_surf_write<<<1, dim3(W, H)>>>(s, W, H);
	TRY(cudaGetLastError());
	TRY(cudaDeviceSynchronize());
	TRY(cudaMemcpy2DFromArray(back, W * 4, a, 0, 0, W * 4, H,
				  cudaMemcpyDeviceToHost));
	bad = 0;
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			bad += back[y][x] != (float)(y * 100 + x) + 0.5f;
	EXPECT_TRUE(bad == 0);
	printf("surface written, copied back wrong = %d\n", bad);
	TRY(cudaMalloc(&dout, sizeof(through)));
	k_surf_read<<<1, dim3(W, H)>>>(s, dout, W, H);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(through, dout, sizeof(through), cudaMemcpyDeviceToHost));
	bad = memcmp(back, through, sizeof(back)) != 0;
	EXPECT_TRUE(!bad);
	printf("surface read back by surf2Dread differs = %d\n", bad);
	tex_point(&t);
	TRY(cudaCreateTextureObject(&o, &r, &t, NULL));
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			c[y * W + x] = make_float2(x + 0.5f, y + 0.5f);
	fetch2d(o, c, out, W * H);
	bad = memcmp(out, back, sizeof(out)) != 0;
	EXPECT_TRUE(!bad);
	printf("surface read back by a texture differs = %d\n", bad);
	memset(&rg, 0xcc, sizeof(rg));
	SHOW("get surface resource", cudaGetSurfaceObjectResourceDesc(&rg, s));
	printf("get surface resource value = type %d array same %d flags %u\n",
	       (int)rg.resType, rg.res.array.array == a, rg.flags);
	TRY(cudaDestroyTextureObject(o));
	TRY(cudaDestroySurfaceObject(s));
	SHOW("get resource of a destroyed surface",
	     cudaGetSurfaceObjectResourceDesc(&rg, s));
	SHOW("destroy a destroyed surface", cudaDestroySurfaceObject(s));

	// What a surface may be made of.
	TRY(cudaMallocArray(&plain, &f1, W, H));
	res_array(&r, plain);
	s = 0;
	SHOW("surface of an array without load/store",
	     cudaCreateSurfaceObject(&s, &r));
	if (s)
		TRY(cudaDestroySurfaceObject(s));
	memset(&r, 0, sizeof(r));
	r.resType = cudaResourceTypeLinear;
	r.res.linear.devPtr = dout;
	r.res.linear.desc = f1;
	r.res.linear.sizeInBytes = sizeof(through);
	SHOW("surface of linear memory", cudaCreateSurfaceObject(&s, &r));
	res_array(&r, a);
	r.flags = 1;
	SHOW("surface of flags 1", cudaCreateSurfaceObject(&s, &r));
	res_array(&r, NULL);
	SHOW("surface of array NULL", cudaCreateSurfaceObject(&s, &r));
	TRY(cudaFree(dout));
	TRY(cudaFreeArray(plain));
	TRY(cudaFreeArray(a));
}

// --- a layered array (simpleLayeredTexture) ---

static void layered(void)
{
	static float host[L][H][W], back[L][H][W], out[L][H][W];
	cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
	cudaChannelFormatDesc u8d = cudaCreateChannelDesc<unsigned char>();
	cudaMemcpy3DParms p;
	cudaMemcpy3DPeerParms pp;
	cudaPitchedPtr dev;
	cudaResourceDesc r;
	cudaTextureDesc t;
	cudaTextureObject_t o;
	cudaArray_t a, b, u8;
	float *dout, patch[2][2] = { { -1, -2 }, { -3, -4 } };
	int x, y, l, bad;

	for (l = 0; l < L; l++)
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++)
				host[l][y][x] = texel(x, y) + 1000 * l;
	TRY(cudaMalloc3DArray(&a, &f1, make_cudaExtent(W, H, L),
			      cudaArrayLayered));
	memset(&p, 0, sizeof(p));
	p.srcPtr = make_cudaPitchedPtr(host, W * 4, W, H);
	p.dstArray = a;
	p.extent = make_cudaExtent(W, H, L);	// in the array's elements
	p.kind = cudaMemcpyHostToDevice;
	TRY(cudaMemcpy3D(&p));
	res_array(&r, a);
	tex_point(&t);
	TRY(cudaCreateTextureObject(&o, &r, &t, NULL));
	TRY(cudaMalloc(&dout, sizeof(out)));
	k_layered<<<1, dim3(W, H, L)>>>(o, dout, W, H, L);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
	bad = 0;
	for (l = 0; l < L; l++)
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++)
				bad += out[l][y][x] != host[l][y][x];
	EXPECT_TRUE(bad == 0);
	printf("layered point samples wrong = %d\n", bad);
	printf("layered sample (3, 2) of layer 2 = %.9g\n", out[2][2][3]);

	// A 2x2 patch into layer 1 at (5, 1), then the whole back.
	memset(&p, 0, sizeof(p));
	p.srcPtr = make_cudaPitchedPtr(patch, 8, 2, 2);
	p.dstArray = a;
	p.dstPos = make_cudaPos(5, 1, 1);
	p.extent = make_cudaExtent(2, 2, 1);
	p.kind = cudaMemcpyDefault;
	TRY(cudaMemcpy3D(&p));
	memset(&p, 0, sizeof(p));
	p.srcArray = a;
	p.dstPtr = make_cudaPitchedPtr(back, W * 4, W, H);
	p.extent = make_cudaExtent(W, H, L);
	p.kind = cudaMemcpyDeviceToHost;
	TRY(cudaMemcpy3D(&p));
	bad = 0;
	for (l = 0; l < L; l++)
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++) {
				bool in = l == 1 && y >= 1 && y < 3 && x >= 5 &&
					  x < 7;
				float want = in ? patch[y - 1][x - 5] :
					host[l][y][x];

				bad += back[l][y][x] != want;
			}
	EXPECT_TRUE(bad == 0);
	printf("layered patch and copy back wrong = %d\n", bad);

	// Array to array, then to pitched device memory through the peer form.
	TRY(cudaMalloc3DArray(&b, &f1, make_cudaExtent(W, H, L),
			      cudaArrayLayered));
	memset(&p, 0, sizeof(p));
	p.srcArray = a;
	p.dstArray = b;
	p.extent = make_cudaExtent(W, H, L);
	p.kind = cudaMemcpyDeviceToDevice;
	TRY(cudaMemcpy3D(&p));
	TRY(cudaMalloc3D(&dev, make_cudaExtent(W * 4, H, L)));
	memset(&pp, 0, sizeof(pp));
	pp.srcArray = b;
	pp.dstPtr = dev;
	pp.extent = make_cudaExtent(W, H, L);
	TRY(cudaMemcpy3DPeer(&pp));
	memset(out, 0, sizeof(out));
	TRY(cudaMemcpy2D(out, W * 4, dev.ptr, dev.pitch, W * 4, H * L,
			 cudaMemcpyDeviceToHost));
	bad = memcmp(out, back, sizeof(out)) != 0;
	EXPECT_TRUE(!bad);
	printf("layered array to array to pitched memory differs = %d\n", bad);

	// Bad parameters.
	memset(&p, 0, sizeof(p));
	p.srcArray = a;
	p.srcPtr = make_cudaPitchedPtr(host, W * 4, W, H);
	p.dstPtr = make_cudaPitchedPtr(back, W * 4, W, H);
	p.extent = make_cudaExtent(W, H, 1);
	p.kind = cudaMemcpyDeviceToHost;
	SHOW("3D copy from an array and a pointer", cudaMemcpy3D(&p));
	p.srcPtr = make_cudaPitchedPtr(NULL, 0, 0, 0);
	p.extent = make_cudaExtent(W, H, L + 1);
	SHOW("3D copy past the last layer", cudaMemcpy3D(&p));
	p.extent = make_cudaExtent(W + 1, H, 1);
	SHOW("3D copy past a row", cudaMemcpy3D(&p));
	p.extent = make_cudaExtent(W, H, 0);
	SHOW("3D copy of nothing", cudaMemcpy3D(&p));
	TRY(cudaMalloc3DArray(&u8, &u8d, make_cudaExtent(W, H, L),
			      cudaArrayLayered));
	memset(&p, 0, sizeof(p));
	p.srcArray = a;
	p.dstArray = u8;
	p.extent = make_cudaExtent(W, H, 1);
	p.kind = cudaMemcpyDeviceToDevice;
	SHOW("3D copy between arrays of other elements", cudaMemcpy3D(&p));
	TRY(cudaDestroyTextureObject(o));
	TRY(cudaFree(dout));
	TRY(cudaFree(dev.ptr));
	TRY(cudaFreeArray(u8));
	TRY(cudaFreeArray(b));
	TRY(cudaFreeArray(a));
}

// --- levels of a mipmapped array ---

static void mipmapped(void)
{
	cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
	static float lv[16 * 16];
	cudaMipmappedArray_t m;
	cudaResourceDesc r;
	cudaTextureDesc t;
	cudaTextureObject_t o;
	cudaArray_t a;
	float out[5], *dout;
	int l, i, size;

	TRY(cudaMallocMipmappedArray(&m, &f1, make_cudaExtent(16, 16, 0), 4,
				     0));
	for (l = 0; l < 4; l++) {
		size = 16 >> l;
		for (i = 0; i < size * size; i++)
			lv[i] = 10.0f * l + 0.5f;
		TRY(cudaGetMipmappedArrayLevel(&a, m, l));
		TRY(cudaMemcpy2DToArray(a, 0, 0, lv, size * 4, size * 4, size,
					cudaMemcpyHostToDevice));
	}
	memset(&r, 0, sizeof(r));
	r.resType = cudaResourceTypeMipmappedArray;
	r.res.mipmap.mipmap = m;
	tex_point(&t);
	t.normalizedCoords = 1;
	t.mipmapFilterMode = cudaFilterModePoint;
	t.maxMipmapLevelClamp = 3;
	TRY(cudaCreateTextureObject(&o, &r, &t, NULL));
	TRY(cudaMalloc(&dout, sizeof(out)));
	k_lod<<<1, 5>>>(o, dout, 5);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
	for (l = 0; l < 5; l++) {
		EXPECT_TRUE(out[l] == 10.0f * (l < 3 ? l : 3) + 0.5f);
		printf("level of detail %d = %.9g\n", l, out[l]);
	}
	TRY(cudaDestroyTextureObject(o));
	t.mipmapFilterMode = cudaFilterModeLinear;
	t.mipmapLevelBias = 0.5f;
	t.minMipmapLevelClamp = 0.25f;
	o = 0;
	SHOW("mipmapped texture, every mipmap field",
	     cudaCreateTextureObject(&o, &r, &t, NULL));
	if (o) {
		memset(&t, 0xcc, sizeof(t));
		SHOW("get mipmapped texture desc",
		     cudaGetTextureObjectTextureDesc(&t, o));
		print_texdesc("get mipmapped texture desc value", t);
		TRY(cudaDestroyTextureObject(o));
	}
	TRY(cudaFree(dout));
	TRY(cudaFreeMipmappedArray(m));
}

// --- textures over linear and pitched memory ---

static void linear(void)
{
	cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
	cudaChannelFormatDesc d;
	float host[16], out[18], *p, *dout;
	int ih[8], iout[8], *ip, *idout;
	cudaResourceDesc r, rg;
	cudaTextureDesc t;
	cudaTextureObject_t o;
	uchar4 img[8][16];
	float2 c[4];
	float fo[4];
	size_t pitch;
	void *pitched;
	int i, x, y, bad;

	for (i = 0; i < 16; i++)
		host[i] = i * 1.5f + 0.25f;
	TRY(cudaMalloc(&p, sizeof(host)));
	TRY(cudaMemcpy(p, host, sizeof(host), cudaMemcpyHostToDevice));
	memset(&r, 0, sizeof(r));
	r.resType = cudaResourceTypeLinear;
	r.res.linear.devPtr = p;
	r.res.linear.desc = f1;
	r.res.linear.sizeInBytes = sizeof(host);
	tex_point(&t);
	TRY(cudaCreateTextureObject(&o, &r, &t, NULL));
	TRY(cudaMalloc(&dout, sizeof(out)));
	k_fetch1d<<<1, 18>>>(o, dout, -1, 18);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost));
	bad = memcmp(out + 1, host, sizeof(host)) != 0;
	EXPECT_TRUE(!bad && out[0] == 0 && out[17] == 0);
	printf("tex1Dfetch of 16 floats differs = %d\n", bad);
	printf("tex1Dfetch -1 = %.9g\n", out[0]);
	printf("tex1Dfetch 16 = %.9g\n", out[17]);
	memset(&rg, 0xcc, sizeof(rg));
	SHOW("get linear resource", cudaGetTextureObjectResourceDesc(&rg, o));
	printf("get linear resource value = type %d pointer same %d desc %d %d "
	       "%d %d kind %d size %zu flags %u\n", (int)rg.resType,
	       rg.res.linear.devPtr == p, rg.res.linear.desc.x,
	       rg.res.linear.desc.y, rg.res.linear.desc.z,
	       rg.res.linear.desc.w, (int)rg.res.linear.desc.f,
	       rg.res.linear.sizeInBytes, rg.flags);
	TRY(cudaDestroyTextureObject(o));

	// Integers, as they are.
	for (i = 0; i < 8; i++)
		ih[i] = -1000 * i + 7;
	TRY(cudaMalloc(&ip, sizeof(ih)));
	TRY(cudaMalloc(&idout, sizeof(iout)));
	TRY(cudaMemcpy(ip, ih, sizeof(ih), cudaMemcpyHostToDevice));
	r.res.linear.devPtr = ip;
	r.res.linear.desc = cudaCreateChannelDesc<int>();
	r.res.linear.sizeInBytes = sizeof(ih);
	TRY(cudaCreateTextureObject(&o, &r, &t, NULL));
	k_fetch1d_int<<<1, 8>>>(o, idout, 8);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(iout, idout, sizeof(iout), cudaMemcpyDeviceToHost));
	bad = memcmp(iout, ih, sizeof(ih)) != 0;
	EXPECT_TRUE(!bad);
	printf("tex1Dfetch of 8 ints differs = %d\n", bad);
	TRY(cudaDestroyTextureObject(o));

	// Linear memory refused.
	r.res.linear.devPtr = (char *)p + 4;
	r.res.linear.desc = f1;
	SHOW("linear texture at 4 bytes past 512",
	     cudaCreateTextureObject(&o, &r, &t, NULL));
	r.res.linear.devPtr = NULL;
	SHOW("linear texture at NULL", cudaCreateTextureObject(&o, &r, &t, NULL));
	r.res.linear.devPtr = p;
	r.res.linear.sizeInBytes = 1ULL << 40;
	SHOW("linear texture of 2^40 bytes",
	     cudaCreateTextureObject(&o, &r, &t, NULL));

	// A pitched 2D texture of uchar4, sampled at texel centres.
	for (y = 0; y < 8; y++)
		for (x = 0; x < 16; x++)
			img[y][x] = make_uchar4(x, y, x + y, 200);
	TRY(cudaMallocPitch(&pitched, &pitch, sizeof(img[0]), 8));
	TRY(cudaMemcpy2D(pitched, pitch, img, sizeof(img[0]), sizeof(img[0]),
			 8, cudaMemcpyHostToDevice));
	d = chan(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
	memset(&r, 0, sizeof(r));
	r.resType = cudaResourceTypePitch2D;
	r.res.pitch2D.devPtr = pitched;
	r.res.pitch2D.desc = d;
	r.res.pitch2D.width = 16;
	r.res.pitch2D.height = 8;
	r.res.pitch2D.pitchInBytes = pitch;
	t.readMode = cudaReadModeNormalizedFloat;
	TRY(cudaCreateTextureObject(&o, &r, &t, NULL));
	memset(&rg, 0xcc, sizeof(rg));
	SHOW("get pitched resource", cudaGetTextureObjectResourceDesc(&rg, o));
	printf("get pitched resource value = type %d pointer same %d desc %d "
	       "%d %d %d kind %d size %zu %zu pitch same %d\n",
	       (int)rg.resType, rg.res.pitch2D.devPtr == pitched,
	       rg.res.pitch2D.desc.x, rg.res.pitch2D.desc.y,
	       rg.res.pitch2D.desc.z, rg.res.pitch2D.desc.w,
	       (int)rg.res.pitch2D.desc.f, rg.res.pitch2D.width,
	       rg.res.pitch2D.height, rg.res.pitch2D.pitchInBytes == pitch);
	TRY(cudaDestroyTextureObject(o));
	r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
	r.res.pitch2D.width = 16;
	t.readMode = cudaReadModeElementType;	/* floats: never normalized */
	TRY(cudaCreateTextureObject(&o, &r, &t, NULL));
	c[0] = make_float2(0.5f, 0.5f);
	c[1] = make_float2(3.5f, 2.5f);
	c[2] = make_float2(15.5f, 7.5f);
	c[3] = make_float2(20.0f, 20.0f);
	fetch2d(o, c, fo, 4);
	for (i = 0; i < 4; i++) {
		uchar4 px = img[i < 3 ? (int)c[i].y : 7][i < 3 ? (int)c[i].x : 15];
		float want;

		memcpy(&want, &px, 4);
		EXPECT_TRUE(bits(fo[i]) == bits(want));
		printf("pitched as floats (%g, %g) = %08x\n", c[i].x, c[i].y,
		       bits(fo[i]));
	}
	TRY(cudaDestroyTextureObject(o));
	r.res.pitch2D.pitchInBytes = pitch + 4;
	SHOW("pitched texture of a pitch off 32",
	     cudaCreateTextureObject(&o, &r, &t, NULL));
	TRY(cudaFree(pitched));
	TRY(cudaFree(p));
	TRY(cudaFree(dout));
	TRY(cudaFree(ip));
	TRY(cudaFree(idout));
}

// --- texture descriptors and resources refused ---

static void bad_textures(void)
{
	cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
	cudaChannelFormatDesc i1 = cudaCreateChannelDesc<int>();
	cudaResourceDesc r;
	cudaTextureDesc t;
	cudaTextureObject_t o;
	cudaArray_t a, i32;

	TRY(cudaMallocArray(&a, &f1, W, H));
	TRY(cudaMallocArray(&i32, &i1, W, H));
	res_array(&r, a);
	tex_point(&t);
	t.readMode = (cudaTextureReadMode)2;
	SHOW("texture read mode 2", cudaCreateTextureObject(&o, &r, &t, NULL));
	tex_point(&t);
	t.addressMode[1] = (cudaTextureAddressMode)4;
	SHOW("texture address mode 4", cudaCreateTextureObject(&o, &r, &t, NULL));
	tex_point(&t);
	t.filterMode = (cudaTextureFilterMode)2;
	SHOW("texture filter mode 2", cudaCreateTextureObject(&o, &r, &t, NULL));
	tex_point(&t);
	t.maxMipmapLevelClamp = 2;
	SHOW("texture of an array with a mipmap clamp",
	     cudaCreateTextureObject(&o, &r, &t, NULL));
	tex_point(&t);
	r.resType = (cudaResourceType)4;
	SHOW("texture of resource type 4",
	     cudaCreateTextureObject(&o, &r, &t, NULL));
	res_array(&r, a);
	r.flags = 1;
	SHOW("texture of resource flags 1",
	     cudaCreateTextureObject(&o, &r, &t, NULL));
	res_array(&r, NULL);
	SHOW("texture of array NULL", cudaCreateTextureObject(&o, &r, &t, NULL));
	memset(&r, 0, sizeof(r));
	r.resType = cudaResourceTypeMipmappedArray;
	SHOW("texture of mipmapped array NULL",
	     cudaCreateTextureObject(&o, &r, &t, NULL));

	// Linear filtering of integers read as such: taken (the nearest).
	res_array(&r, i32);
	t.filterMode = cudaFilterModeLinear;
	o = 0;
	SHOW("linear filtering of ints as ints",
	     cudaCreateTextureObject(&o, &r, &t, NULL));
	if (o)
		TRY(cudaDestroyTextureObject(o));
	t.readMode = cudaReadModeNormalizedFloat;
	o = 0;
	SHOW("linear filtering of ints as normalized floats",
	     cudaCreateTextureObject(&o, &r, &t, NULL));
	if (o)
		TRY(cudaDestroyTextureObject(o));
	TRY(cudaFreeArray(i32));
	TRY(cudaFreeArray(a));
}

// --- copies with arrays: 2D boxes, and runs of bytes through rows ---

static void copies(void)
{
	static unsigned char src[64], row[4][16], back[4][16];
	cudaChannelFormatDesc u8 = cudaCreateChannelDesc<unsigned char>();
	unsigned char *dev;
	cudaArray_t a, b;
	cudaStream_t st;
	int i, x, y, bad;

	for (i = 0; i < 64; i++)
		src[i] = (unsigned char)(i * 3 + 1);
	TRY(cudaMallocArray(&a, &u8, 16, 4));
	TRY(cudaMallocArray(&b, &u8, 16, 4));
	TRY(cudaMalloc(&dev, 64));
	memset(row, 0, sizeof(row));
	TRY(cudaMemcpy2DToArray(a, 0, 0, row, 16, 16, 4,
				cudaMemcpyHostToDevice));
	TRY(cudaMemcpy2DToArray(b, 0, 0, row, 16, 16, 4,
				cudaMemcpyHostToDevice));

	// 30 bytes from row 1, byte 5: the rest of row 1, row 2, 3 of row 3.
	TRY(cudaMemcpyToArray(a, 5, 1, src, 30, cudaMemcpyHostToDevice));
	TRY(cudaMemcpy2DFromArray(back, 16, a, 0, 0, 16, 4,
				  cudaMemcpyDeviceToHost));
	bad = 0;
	for (y = 0; y < 4; y++)
		for (x = 0; x < 16; x++) {
			int k = y * 16 + x - 21;

			bad += back[y][x] != (k >= 0 && k < 30 ? src[k] : 0);
		}
	EXPECT_TRUE(bad == 0);
	printf("cudaMemcpyToArray through rows wrong = %d\n", bad);

	// Back out of it from row 0, byte 3, and into another array.
	memset(row, 0xee, sizeof(row));
	TRY(cudaMemcpyFromArray(row, a, 3, 0, 50, cudaMemcpyDeviceToHost));
	bad = 0;
	for (i = 0; i < 50; i++)
		bad += ((unsigned char *)row)[i] != ((unsigned char *)back)[i + 3];
	bad += ((unsigned char *)row)[50] != 0xee;
	EXPECT_TRUE(bad == 0);
	printf("cudaMemcpyFromArray through rows wrong = %d\n", bad);
	TRY(cudaMemcpyArrayToArray(b, 7, 0, a, 0, 1, 40,
				   cudaMemcpyDeviceToDevice));
	TRY(cudaMemcpy2DFromArray(row, 16, b, 0, 0, 16, 4,
				  cudaMemcpyDeviceToHost));
	bad = 0;
	for (i = 0; i < 64; i++) {
		int k = i - 7;

		bad += ((unsigned char *)row)[i] !=
		       (k >= 0 && k < 40 ? ((unsigned char *)back)[16 + k] : 0);
	}
	EXPECT_TRUE(bad == 0);
	printf("cudaMemcpyArrayToArray through rows wrong = %d\n", bad);

	// Device memory in and out, 2D boxes between arrays, on a stream.
	TRY(cudaStreamCreate(&st));
	TRY(cudaMemcpy(dev, src, 64, cudaMemcpyHostToDevice));
	TRY(cudaMemcpy2DToArrayAsync(a, 4, 1, dev, 8, 8, 3,
				     cudaMemcpyDeviceToDevice, st));
	TRY(cudaStreamSynchronize(st));
	TRY(cudaMemcpy2DArrayToArray(b, 0, 0, a, 4, 1, 8, 3,
				     cudaMemcpyDeviceToDevice));
	TRY(cudaMemsetAsync(dev, 0, 64, st));
	TRY(cudaMemcpy2DFromArrayAsync(dev, 16, b, 0, 0, 16, 4,
				       cudaMemcpyDeviceToDevice, st));
	TRY(cudaMemcpyFromArrayAsync(back, b, 0, 0, 64,
				     cudaMemcpyDeviceToHost, st));
	TRY(cudaStreamSynchronize(st));
	bad = 0;
	for (y = 0; y < 3; y++)
		for (x = 0; x < 8; x++)
			bad += back[y][x] != src[y * 8 + x];
	EXPECT_TRUE(bad == 0);
	printf("2D boxes through device memory and a second array wrong = %d\n",
	       bad);
	TRY(cudaMemcpyToArrayAsync(b, 0, 3, src, 16, cudaMemcpyHostToDevice,
				   st));
	TRY(cudaStreamSynchronize(st));
	TRY(cudaMemcpy2DFromArray(back, 16, b, 0, 0, 16, 4,
				  cudaMemcpyDeviceToHost));
	EXPECT_TRUE(!memcmp(back[3], src, 16));
	printf("cudaMemcpyToArrayAsync into the last row differs = %d\n",
	       memcmp(back[3], src, 16) != 0);

	// Refused.
	SHOW("2D to array wider than the pitch",
	     cudaMemcpy2DToArray(a, 0, 0, src, 8, 16, 2,
				 cudaMemcpyHostToDevice));
	SHOW("2D to array past a row",
	     cudaMemcpy2DToArray(a, 4, 0, src, 16, 16, 2,
				 cudaMemcpyHostToDevice));
	SHOW("2D to array past the last row",
	     cudaMemcpy2DToArray(a, 0, 2, src, 16, 16, 3,
				 cudaMemcpyHostToDevice));
	SHOW("2D to array of kind 7",
	     cudaMemcpy2DToArray(a, 0, 0, src, 16, 16, 2,
				 (cudaMemcpyKind)7));
	SHOW("2D to array of nothing",
	     cudaMemcpy2DToArray(a, 0, 0, src, 16, 0, 2,
				 cudaMemcpyHostToDevice));
	SHOW("2D to array host to host",
	     cudaMemcpy2DToArray(a, 0, 0, src, 16, 16, 2,
				 cudaMemcpyHostToHost));
	SHOW("2D from array into device memory",
	     cudaMemcpy2DFromArray(dev, 16, a, 0, 0, 16, 2,
				   cudaMemcpyDeviceToDevice));
	SHOW("to array past the end",
	     cudaMemcpyToArray(a, 0, 3, src, 17, cudaMemcpyHostToDevice));
	SHOW("to array from byte 16 of a row",
	     cudaMemcpyToArray(a, 16, 0, src, 1, cudaMemcpyHostToDevice));
	SHOW("to array of nothing",
	     cudaMemcpyToArray(a, 0, 0, src, 0, cudaMemcpyHostToDevice));
	SHOW("array to array past the end",
	     cudaMemcpyArrayToArray(b, 0, 0, a, 0, 1, 60,
				    cudaMemcpyDeviceToDevice));
	SHOW("2D array to array of kind host to device",
	     cudaMemcpy2DArrayToArray(b, 0, 0, a, 0, 0, 16, 4,
				      cudaMemcpyHostToDevice));
	TRY(cudaStreamDestroy(st));
	TRY(cudaFree(dev));
	TRY(cudaFreeArray(b));
	TRY(cudaFreeArray(a));
}

// --- NULL pointers and freed arrays, each in a process of its own ---

static cudaArray_t child_array(void)
{
	cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
	cudaArray_t a;

	TRY(cudaMallocArray(&a, &f1, W, H, cudaArraySurfaceLoadStore));
	return a;
}

static cudaTextureObject_t child_texture(cudaResourceDesc *r,
					 cudaTextureDesc *t)
{
	cudaTextureObject_t o;

	res_array(r, child_array());
	tex_point(t);
	TRY(cudaCreateTextureObject(&o, r, t, NULL));
	return o;
}

static void child(const char *name)
{
	cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>(), d;
	cudaResourceDesc r;
	cudaTextureDesc t;
	cudaTextureObject_t o;
	cudaSurfaceObject_t s;
	cudaMipmappedArray_t m;
	cudaExtent e;
	unsigned int flags;
	cudaArray_t a;
	size_t width;

	if (!strcmp(name, "malloc array to NULL")) {
		SHOW(name, cudaMallocArray(NULL, &f1, W, H));
	} else if (!strcmp(name, "malloc array of desc NULL")) {
		SHOW(name, cudaMallocArray(&a, NULL, W, H));
	} else if (!strcmp(name, "malloc 3D array to NULL")) {
		SHOW(name, cudaMalloc3DArray(NULL, &f1,
					     make_cudaExtent(W, H, 2), 0));
	} else if (!strcmp(name, "malloc mipmapped array of desc NULL")) {
		SHOW(name, cudaMallocMipmappedArray(&m, NULL,
						    make_cudaExtent(W, H, 0),
						    2, 0));
	} else if (!strcmp(name, "level to NULL")) {
		TRY(cudaMallocMipmappedArray(&m, &f1, make_cudaExtent(W, H, 0),
					     2, 0));
		SHOW(name, cudaGetMipmappedArrayLevel(NULL, m, 0));
	} else if (!strcmp(name, "channel desc to NULL")) {
		SHOW(name, cudaGetChannelDesc(NULL, child_array()));
	} else if (!strcmp(name, "channel desc of array NULL")) {
		SHOW(name, cudaGetChannelDesc(&d, NULL));
	} else if (!strcmp(name, "info of array NULL")) {
		SHOW(name, cudaArrayGetInfo(&d, &e, &flags, NULL));
	} else if (!strcmp(name, "free a freed array")) {
		/* NVIDIA's runtime dies of these two: the lines are its own. */
		a = child_array();
		TRY(cudaFreeArray(a));
		SHOW("~ free a freed array", cudaFreeArray(a));
	} else if (!strcmp(name, "channel desc of a freed array")) {
		a = child_array();
		TRY(cudaFreeArray(a));
		SHOW("~ channel desc of a freed array", cudaGetChannelDesc(&d, a));
	} else if (!strcmp(name, "2D copy to array NULL")) {
		SHOW(name, cudaMemcpy2DToArray(NULL, 0, 0, &f1, 16, 16, 1,
					       cudaMemcpyHostToDevice));
	} else if (!strcmp(name, "2D copy to array from NULL")) {
		SHOW(name, cudaMemcpy2DToArray(child_array(), 0, 0, NULL, 16,
					       16, 1, cudaMemcpyHostToDevice));
	} else if (!strcmp(name, "texture to NULL")) {
		res_array(&r, child_array());
		tex_point(&t);
		SHOW(name, cudaCreateTextureObject(NULL, &r, &t, NULL));
	} else if (!strcmp(name, "texture of resource NULL")) {
		tex_point(&t);
		SHOW(name, cudaCreateTextureObject(&o, NULL, &t, NULL));
	} else if (!strcmp(name, "texture of texture desc NULL")) {
		res_array(&r, child_array());
		SHOW(name, cudaCreateTextureObject(&o, &r, NULL, NULL));
	} else if (!strcmp(name, "texture resource to NULL")) {
		o = child_texture(&r, &t);
		SHOW(name, cudaGetTextureObjectResourceDesc(NULL, o));
	} else if (!strcmp(name, "texture desc to NULL")) {
		o = child_texture(&r, &t);
		SHOW(name, cudaGetTextureObjectTextureDesc(NULL, o));
	} else if (!strcmp(name, "texture view to NULL")) {
		o = child_texture(&r, &t);
		SHOW(name, cudaGetTextureObjectResourceViewDesc(NULL, o));
	} else if (!strcmp(name, "surface to NULL")) {
		res_array(&r, child_array());
		SHOW(name, cudaCreateSurfaceObject(NULL, &r));
	} else if (!strcmp(name, "surface of resource NULL")) {
		SHOW(name, cudaCreateSurfaceObject(&s, NULL));
	} else if (!strcmp(name, "surface resource to NULL")) {
		res_array(&r, child_array());
		TRY(cudaCreateSurfaceObject(&s, &r));
		SHOW(name, cudaGetSurfaceObjectResourceDesc(NULL, s));
	} else if (!strcmp(name, "linear max width to NULL")) {
		SHOW(name, cudaDeviceGetTexture1DLinearMaxWidth(NULL, &f1, 0));
	} else if (!strcmp(name, "linear max width of desc NULL")) {
		SHOW(name, cudaDeviceGetTexture1DLinearMaxWidth(&width, NULL,
								0));
	} else {
		printf("%s = no such case\n", name);
	}
}

static const char *const children[] = {
	"malloc array to NULL", "malloc array of desc NULL",
	"malloc 3D array to NULL", "malloc mipmapped array of desc NULL",
	"level to NULL", "channel desc to NULL", "channel desc of array NULL",
	"info of array NULL", "free a freed array",
	"channel desc of a freed array", "2D copy to array NULL",
	"2D copy to array from NULL", "texture to NULL",
	"texture of resource NULL", "texture of texture desc NULL",
	"texture resource to NULL", "texture desc to NULL",
	"texture view to NULL", "surface to NULL", "surface of resource NULL",
	"surface resource to NULL", "linear max width to NULL",
	"linear max width of desc NULL",
};

// Runs case @name as "self NAME": a runtime that dies of it costs a line.
static void in_child(const char *self, const char *name)
{
	char cmd[512];
	int st;

	fflush(stdout);
	/* exec: no shell left to report how the program ended. */
	snprintf(cmd, sizeof(cmd), "exec '%s' '%s'", self, name);
	st = system(cmd);
	if (st) {
		printf("~ %s = the process ended, status %d\n", name, st);
		rt_failures++;
	}
}

int main(int argc, char **argv)
{
	size_t k;

	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 2) {
		TRY(cudaFree(0));
		child(argv[1]);
		return 0;
	}
	rt_check_library();
	TRY(cudaSetDevice(0));
	TRY(cudaFree(0));
	arrays();
	bad_channels();
	texture_2d();
	texture_uchar4();
	surface();
	layered();
	mipmapped();
	linear();
	bad_textures();
	copies();
	for (k = 0; k < sizeof(children) / sizeof(children[0]); k++)
		in_child(argv[0], children[k]);
	SHOW("last synchronization", cudaDeviceSynchronize());
	return rt_result();
}
