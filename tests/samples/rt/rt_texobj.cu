// SPDX-License-Identifier: MIT
// Texture and surface objects and references through the driver API, with
// kernels launched by the runtime: cuTexObjectCreate and cuSurfObjectCreate
// with good and bad resources and descriptors, what the getters give back,
// destroying; txq, suq and istypep in kernels; fetches from linear memory
// in and out of range, integer and float coordinates; surface loads and
// stores in and out of range with each boundary mode; launches with
// destroyed or made-up handles and trapping stores (each in a process of
// its own, as the error ends the context); texture and surface references
// of a module. Every answer is printed as "name = value"; runtime.sh holds
// them to what this program printed on an H100-class GPU
// (ref/h100_rt_texobj.log). texobj/istype.cu and texobj/texi.cu hold
// kernels in modules of their own.
#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rt.h"

#define R(name, call) printf("%s = %d\n", name, (int)(call))

static CUarray make_array(CUarray_format f, unsigned int ch, size_t w, size_t h,
			  size_t d, unsigned int flags)
{
	CUDA_ARRAY3D_DESCRIPTOR a;
	CUarray arr = NULL;

	memset(&a, 0, sizeof(a));
	a.Format = f;
	a.NumChannels = ch;
	a.Width = w;
	a.Height = h;
	a.Depth = d;
	a.Flags = flags;
	if (cuArray3DCreate(&arr, &a)) {
		printf("array create failed\n");
		rt_failures++;
	}
	return arr;
}

/* Copies @bytes_per_row x @rows from @src into the 2D array @a. */
static CUresult fill2d(CUarray a, const void *src, size_t bytes_per_row, size_t rows)
{
	CUDA_MEMCPY2D c;

	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = src;
	c.srcPitch = bytes_per_row;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = a;
	c.WidthInBytes = bytes_per_row;
	c.Height = rows;
	return cuMemcpy2D(&c);
}

static CUresult read2d(void *dst, CUarray a, size_t bytes_per_row, size_t rows)
{
	CUDA_MEMCPY2D c;

	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
	c.srcArray = a;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = dst;
	c.dstPitch = bytes_per_row;
	c.WidthInBytes = bytes_per_row;
	c.Height = rows;
	return cuMemcpy2D(&c);
}

static void res_array(CUDA_RESOURCE_DESC *r, CUarray a)
{
	memset(r, 0, sizeof(*r));
	r->resType = CU_RESOURCE_TYPE_ARRAY;
	r->res.array.hArray = a;
}

static void tex_point(CUDA_TEXTURE_DESC *t)
{
	memset(t, 0, sizeof(*t));
	t->addressMode[0] = t->addressMode[1] = t->addressMode[2] = CU_TR_ADDRESS_MODE_CLAMP;
}

static void print_texdesc(const char *name, const CUDA_TEXTURE_DESC *t)
{
	printf("%s values = addr %d %d %d filter %d flags 0x%x aniso %u mipfilter %d bias %g min %g max %g border %g %g %g %g\n",
	       name, t->addressMode[0], t->addressMode[1], t->addressMode[2], t->filterMode,
	       t->flags, t->maxAnisotropy, t->mipmapFilterMode, t->mipmapLevelBias,
	       t->minMipmapLevelClamp, t->maxMipmapLevelClamp, t->borderColor[0],
	       t->borderColor[1], t->borderColor[2], t->borderColor[3]);
}

/* Creates a texture object of @r with @t, prints the result, destroys it. */
static void try_tex(const char *name, const CUDA_RESOURCE_DESC *r,
		    const CUDA_TEXTURE_DESC *t, const CUDA_RESOURCE_VIEW_DESC *v)
{
	CUtexObject o = 0;
	CUresult e = cuTexObjectCreate(&o, r, t, v);

	R(name, e);
	if (!e) {
		CUDA_TEXTURE_DESC g;
		char n2[128];

		memset(&g, 0xcc, sizeof(g));
		snprintf(n2, sizeof(n2), "%s get", name);
		R(n2, cuTexObjectGetTextureDesc(&g, o));
		print_texdesc(n2, &g);
		cuTexObjectDestroy(o);
	}
}

static void texobj_create(void)
{
	CUDA_RESOURCE_DESC r;
	CUDA_TEXTURE_DESC t;
	CUDA_RESOURCE_VIEW_DESC v;
	CUarray a = make_array(CU_AD_FORMAT_UNSIGNED_INT8, 4, 64, 32, 0, 0);
	CUarray af = make_array(CU_AD_FORMAT_FLOAT, 1, 64, 32, 0, 0);
	CUarray a32 = make_array(CU_AD_FORMAT_UNSIGNED_INT32, 1, 64, 32, 0, 0);
	CUdeviceptr dp;
	CUtexObject o, o2, o3;
	int i;

	cuMemAlloc(&dp, 1 << 22);
	res_array(&r, a);
	tex_point(&t);
	R("tex create", cuTexObjectCreate(&o, &r, &t, NULL));
	R("tex create 2", cuTexObjectCreate(&o2, &r, &t, NULL));
	R("tex create 3", cuTexObjectCreate(&o3, &r, &t, NULL));
	printf("~ handles = %llu %llu %llu\n", (unsigned long long)o, (unsigned long long)o2,
	       (unsigned long long)o3);
	printf("handles distinct and nonzero = %d\n", o && o2 && o3 && o != o2 && o2 != o3);
	{
		CUDA_RESOURCE_DESC g;

		memset(&g, 0xcc, sizeof(g));
		R("tex get resource", cuTexObjectGetResourceDesc(&g, o));
		printf("tex get resource values = type %d array same %d flags %u\n", g.resType,
		       g.res.array.hArray == a, g.flags);
		memset(&v, 0xcc, sizeof(v));
		R("tex get view none", cuTexObjectGetResourceViewDesc(&v, o));
		printf("tex get view none values = format %d w %zu h %zu d %zu level %u %u layer %u %u\n",
		       v.format, v.width, v.height, v.depth, v.firstMipmapLevel, v.lastMipmapLevel,
		       v.firstLayer, v.lastLayer);
		R("tex get resource null", cuTexObjectGetResourceDesc(NULL, o));
		R("tex get texture null", cuTexObjectGetTextureDesc(NULL, o));
		R("tex get resource 0", cuTexObjectGetResourceDesc(&g, 0));
		R("tex get resource 12345", cuTexObjectGetResourceDesc(&g, 12345));
	}
	R("tex destroy", cuTexObjectDestroy(o));
	{
		CUDA_RESOURCE_DESC g;

		R("tex get resource destroyed", cuTexObjectGetResourceDesc(&g, o));
	}
	R("tex destroy again", cuTexObjectDestroy(o));
	R("tex destroy 0", cuTexObjectDestroy(0));
	cuTexObjectDestroy(o2);
	cuTexObjectDestroy(o3);

	R("tex create null out", cuTexObjectCreate(NULL, &r, &t, NULL));
	R("tex create null res", cuTexObjectCreate(&o, NULL, &t, NULL));
	R("tex create null tex", cuTexObjectCreate(&o, &r, NULL, NULL));
	r.resType = (CUresourcetype)4;
	try_tex("tex res type 4", &r, &t, NULL);
	res_array(&r, a);
	r.flags = 1;
	try_tex("tex res flags 1", &r, &t, NULL);
	res_array(&r, NULL);
	try_tex("tex null array", &r, &t, NULL);
	res_array(&r, a);
	/* texture descriptors */
	tex_point(&t);
	t.addressMode[0] = (CUaddress_mode)4;
	try_tex("tex address mode 4", &r, &t, NULL);
	tex_point(&t);
	t.filterMode = (CUfilter_mode)2;
	try_tex("tex filter mode 2", &r, &t, NULL);
	tex_point(&t);
	t.flags = 0x80;
	try_tex("tex flag 0x80", &r, &t, NULL);
	tex_point(&t);
	t.flags = 0x4;
	try_tex("tex flag 0x4", &r, &t, NULL);
	tex_point(&t);
	t.flags = 0x8;
	try_tex("tex flag 0x8", &r, &t, NULL);
	for (i = 0; i < 4; i++) {
		static const unsigned int an[] = { 0, 1, 17, 100 };
		char name[64];

		tex_point(&t);
		t.maxAnisotropy = an[i];
		snprintf(name, sizeof(name), "tex aniso %u", an[i]);
		try_tex(name, &r, &t, NULL);
	}
	tex_point(&t);
	t.filterMode = CU_TR_FILTER_MODE_LINEAR;
	t.flags = CU_TRSF_READ_AS_INTEGER;
	try_tex("tex linear read as integer u8", &r, &t, NULL);
	t.flags = 0;
	try_tex("tex linear u8", &r, &t, NULL);
	t.flags = CU_TRSF_SRGB;
	try_tex("tex linear srgb u8", &r, &t, NULL);
	res_array(&r, af);
	try_tex("tex srgb float", &r, &t, NULL);
	t.flags = CU_TRSF_READ_AS_INTEGER;
	try_tex("tex read as integer float", &r, &t, NULL);
	res_array(&r, a32);
	t.flags = 0;
	try_tex("tex linear u32", &r, &t, NULL);
	t.flags = CU_TRSF_READ_AS_INTEGER;
	try_tex("tex linear u32 as integer", &r, &t, NULL);
	t.filterMode = CU_TR_FILTER_MODE_POINT;
	t.flags = 0;
	try_tex("tex point u32", &r, &t, NULL);
	res_array(&r, a);
	tex_point(&t);
	t.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
	t.maxMipmapLevelClamp = 4;
	t.mipmapLevelBias = 0.3f;
	t.borderColor[0] = 0.3f;
	t.borderColor[3] = 2.0f;
	t.addressMode[0] = CU_TR_ADDRESS_MODE_BORDER;
	t.flags = CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION | CU_TRSF_SEAMLESS_CUBEMAP;
	try_tex("tex mip fields on array", &r, &t, NULL);
	tex_point(&t);
	t.addressMode[0] = CU_TR_ADDRESS_MODE_WRAP;
	try_tex("tex wrap unnormalized", &r, &t, NULL);
	/* views */
	tex_point(&t);
	memset(&v, 0, sizeof(v));
	try_tex("tex view zero", &r, &t, &v);
	v.format = CU_RES_VIEW_FORMAT_UINT_4X8;
	v.width = 64;
	v.height = 32;
	try_tex("tex view same", &r, &t, &v);
	v.format = CU_RES_VIEW_FORMAT_FLOAT_1X32;
	try_tex("tex view float", &r, &t, &v);
	/* linear resources */
	memset(&r, 0, sizeof(r));
	r.resType = CU_RESOURCE_TYPE_LINEAR;
	r.res.linear.devPtr = dp;
	r.res.linear.format = CU_AD_FORMAT_FLOAT;
	r.res.linear.numChannels = 1;
	r.res.linear.sizeInBytes = 4096;
	tex_point(&t);
	try_tex("tex linear", &r, &t, NULL);
	r.res.linear.devPtr = dp + 4;
	try_tex("tex linear ptr+4", &r, &t, NULL);
	r.res.linear.devPtr = dp + 256;
	try_tex("tex linear ptr+256", &r, &t, NULL);
	r.res.linear.devPtr = dp + 512;
	try_tex("tex linear ptr+512", &r, &t, NULL);
	r.res.linear.devPtr = dp;
	r.res.linear.sizeInBytes = 0;
	try_tex("tex linear size 0", &r, &t, NULL);
	r.res.linear.sizeInBytes = 6;
	try_tex("tex linear size 6", &r, &t, NULL);
	r.res.linear.sizeInBytes = (size_t)1 << 40;
	try_tex("tex linear size 2^40", &r, &t, NULL);
	r.res.linear.sizeInBytes = 4096;
	r.res.linear.numChannels = 3;
	try_tex("tex linear 3 channels", &r, &t, NULL);
	r.res.linear.numChannels = 1;
	r.res.linear.devPtr = 0;
	try_tex("tex linear null", &r, &t, NULL);
	r.res.linear.devPtr = dp;
	t.filterMode = CU_TR_FILTER_MODE_LINEAR;
	try_tex("tex linear filtered", &r, &t, NULL);
	t.filterMode = CU_TR_FILTER_MODE_POINT;
	t.flags = CU_TRSF_NORMALIZED_COORDINATES;
	try_tex("tex linear normalized", &r, &t, NULL);
	/* pitch 2D */
	memset(&r, 0, sizeof(r));
	r.resType = CU_RESOURCE_TYPE_PITCH2D;
	r.res.pitch2D.devPtr = dp;
	r.res.pitch2D.format = CU_AD_FORMAT_FLOAT;
	r.res.pitch2D.numChannels = 1;
	r.res.pitch2D.width = 100;
	r.res.pitch2D.height = 20;
	r.res.pitch2D.pitchInBytes = 512;
	tex_point(&t);
	try_tex("tex pitch2d", &r, &t, NULL);
	r.res.pitch2D.pitchInBytes = 416;
	try_tex("tex pitch2d pitch 416", &r, &t, NULL);
	r.res.pitch2D.pitchInBytes = 400;
	try_tex("tex pitch2d pitch 400", &r, &t, NULL);
	r.res.pitch2D.pitchInBytes = 384;
	try_tex("tex pitch2d pitch below width", &r, &t, NULL);
	r.res.pitch2D.pitchInBytes = 512;
	r.res.pitch2D.devPtr = dp + 32;
	try_tex("tex pitch2d ptr+32", &r, &t, NULL);
	r.res.pitch2D.devPtr = dp;
	r.res.pitch2D.height = 0;
	try_tex("tex pitch2d height 0", &r, &t, NULL);
	r.res.pitch2D.height = 65001;
	try_tex("tex pitch2d height 65001", &r, &t, NULL);
	r.res.pitch2D.height = 20;
	r.res.pitch2D.width = 131073;
	r.res.pitch2D.pitchInBytes = 131073 * 4 + 28;
	try_tex("tex pitch2d width 131073", &r, &t, NULL);
	cuMemFree(dp);
	cuArrayDestroy(a);
	cuArrayDestroy(af);
	cuArrayDestroy(a32);
}

static void surfobj_create(void)
{
	CUDA_RESOURCE_DESC r;
	CUarray a = make_array(CU_AD_FORMAT_FLOAT, 4, 64, 32, 0, CUDA_ARRAY3D_SURFACE_LDST);
	CUarray b = make_array(CU_AD_FORMAT_FLOAT, 4, 64, 32, 0, 0);
	CUsurfObject s, s2;

	res_array(&r, a);
	R("surf create", cuSurfObjectCreate(&s, &r));
	R("surf create 2", cuSurfObjectCreate(&s2, &r));
	printf("surf handles distinct = %d\n", s && s2 && s != s2);
	{
		CUDA_RESOURCE_DESC g;

		memset(&g, 0xcc, sizeof(g));
		R("surf get resource", cuSurfObjectGetResourceDesc(&g, s));
		printf("surf get resource values = type %d array same %d\n", g.resType,
		       g.res.array.hArray == a);
		R("surf get resource null", cuSurfObjectGetResourceDesc(NULL, s));
	}
	R("surf destroy", cuSurfObjectDestroy(s));
	R("surf destroy again", cuSurfObjectDestroy(s));
	R("surf destroy 0", cuSurfObjectDestroy(0));
	cuSurfObjectDestroy(s2);
	res_array(&r, b);
	R("surf without ldst", cuSurfObjectCreate(&s, &r));
	/* (cuSurfObjectCreate with a NULL output dies of SIGSEGV.) */
	R("surf null res", cuSurfObjectCreate(&s, NULL));
	memset(&r, 0, sizeof(r));
	r.resType = CU_RESOURCE_TYPE_LINEAR;
	R("surf linear", cuSurfObjectCreate(&s, &r));
	res_array(&r, a);
	r.flags = 1;
	R("surf flags 1", cuSurfObjectCreate(&s, &r));
	cuArrayDestroy(a);
	cuArrayDestroy(b);
}

/* --- kernels ------------------------------------------------------------ */





/* Surface loads and stores at x (bytes), y in each mode. */
__global__ void k_surf(cudaSurfaceObject_t s, int x, int y, float *o)
{
	float v;

	surf2Dwrite(7.5f, s, x, y, cudaBoundaryModeZero);
	v = surf2Dread<float>(s, x, y, cudaBoundaryModeZero);
	o[0] = v;
	surf2Dwrite(8.5f, s, x, y, cudaBoundaryModeClamp);
	o[1] = surf2Dread<float>(s, x, y, cudaBoundaryModeClamp);
	o[2] = surf2Dread<float>(s, 0, 0, cudaBoundaryModeTrap);
	o[3] = surf2Dread<float>(s, 4 * 63, 31, cudaBoundaryModeTrap);
}

__global__ void k_surf_trap(cudaSurfaceObject_t s, int x, int y)
{
	surf2Dwrite(1.0f, s, x, y, cudaBoundaryModeTrap);
}

__global__ void k_surf_trap_read(cudaSurfaceObject_t s, int x, int y, float *o)
{
	o[0] = surf2Dread<float>(s, x, y, cudaBoundaryModeTrap);
}

__global__ void k_tex(cudaTextureObject_t t, float x, float y, float4 *o)
{
	o[0] = tex2D<float4>(t, x, y);
}


__global__ void k_fetch(cudaTextureObject_t t, int i, float4 *o)
{
	o[0] = tex1Dfetch<float4>(t, i);
}

/* In files of their own: a module the driver refuses takes only them. */
void launch_istype(unsigned long long t, unsigned long long s, int *o);
void launch_texi(cudaTextureObject_t t, int x, int y, float4 *o);

/*
 * txq/suq QUERY on handle @h, each query a module of its own loaded from
 * PTX (the driver refuses modules with some queries): its value, or the
 * load's error as "!N".
 */
static void query(const char *insn, unsigned long long h, char *out, size_t n)
{
	char ptx[1024];
	CUmodule m;
	CUfunction f;
	CUdeviceptr o;
	CUresult e;
	int v = -1;
	void *args[2];

	snprintf(ptx, sizeof(ptx),
		 ".version 8.0\n.target sm_75\n.address_size 64\n"
		 ".visible .entry q(.param .u64 t, .param .u64 out)\n{\n"
		 "  .reg .b64 %%rd<3>; .reg .b32 %%r<2>;\n"
		 "  ld.param.u64 %%rd1, [t]; ld.param.u64 %%rd2, [out];\n"
		 "  %s.b32 %%r1, [%%rd1];\n"
		 "  st.global.u32 [%%rd2], %%r1;\n  ret;\n}\n", insn);
	e = cuModuleLoadData(&m, ptx);
	if (e) {
		snprintf(out, n, "!%d", (int)e);
		return;
	}
	cuModuleGetFunction(&f, m, "q");
	cuMemAlloc(&o, 4);
	cuMemsetD32(o, 0xffffffff, 1);
	args[0] = &h;
	args[1] = &o;
	e = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, args, NULL);
	if (!e)
		e = cuCtxSynchronize();
	cuMemcpyDtoH(&v, o, 4);
	cuMemFree(o);
	cuModuleUnload(m);
	if (e)
		snprintf(out, n, "!%d", (int)e);
	else
		snprintf(out, n, "%d", v);
}

static void txq_all(const char *name, unsigned long long h, bool surface)
{
	static const char *tq[] = { "width", "height", "depth", "channel_data_type",
		"channel_order", "normalized_coords", "filter_mode", "addr_mode_0",
		"addr_mode_1", "addr_mode_2", "num_mipmap_levels", "num_samples",
		"array_size" };
	static const char *sq[] = { "width", "height", "depth", "channel_data_type",
		"channel_order", "array_size", "memory_layout" };
	char insn[64], v[16];
	size_t k, n = surface ? sizeof(sq) / sizeof(sq[0]) : sizeof(tq) / sizeof(tq[0]);

	printf("%s %s =", surface ? "suq" : "txq", name);
	for (k = 0; k < n; k++) {
		snprintf(insn, sizeof(insn), "%s.%s", surface ? "suq" : "txq",
			 surface ? sq[k] : tq[k]);
		query(insn, h, v, sizeof(v));
		printf(" %s %s", surface ? sq[k] : tq[k], v);
	}
	printf("\n");
}

/* --- the kernels' answers ---------------------------------------------- */

static void launch_error(const char *k)
{
	cudaError_t e = cudaGetLastError();

	if (e)
		printf("launch %s = %d\n", k, (int)e);
}

static void queries(void)
{
	int *o, h[16];
	CUDA_RESOURCE_DESC r;
	CUDA_TEXTURE_DESC t;
	CUtexObject to;
	CUsurfObject so;
	static const struct {
		const char *n;
		CUarray_format f;
		unsigned int ch;
		size_t w, hh, d;
		unsigned int flags;
		int norm, linear, am;
	} cases[] = {
		{ "u8x4 2d", CU_AD_FORMAT_UNSIGNED_INT8, 4, 64, 32, 0, 0, 1, 1, 3 },
		{ "float 1d", CU_AD_FORMAT_FLOAT, 1, 100, 0, 0, 0, 0, 0, 1 },
		{ "half2 3d", CU_AD_FORMAT_HALF, 2, 16, 8, 4, 0, 0, 0, 2 },
		{ "s16 2d layered", CU_AD_FORMAT_SIGNED_INT16, 1, 16, 8, 5, CUDA_ARRAY3D_LAYERED, 0, 0, 0 },
		{ "u32 cube", CU_AD_FORMAT_UNSIGNED_INT32, 1, 8, 8, 6, CUDA_ARRAY3D_CUBEMAP, 1, 0, 1 },
		{ "s8x2 cube layered", CU_AD_FORMAT_SIGNED_INT8, 2, 8, 8, 12, CUDA_ARRAY3D_CUBEMAP | CUDA_ARRAY3D_LAYERED, 1, 0, 1 },
		{ "u16x4 1d layered", CU_AD_FORMAT_UNSIGNED_INT16, 4, 32, 0, 3, CUDA_ARRAY3D_LAYERED, 0, 0, 1 },
		{ "s32x2 2d", CU_AD_FORMAT_SIGNED_INT32, 2, 7, 5, 0, 0, 0, 0, 1 },
		{ "float4 2d surface", CU_AD_FORMAT_FLOAT, 4, 64, 32, 0, CUDA_ARRAY3D_SURFACE_LDST, 0, 0, 1 },
	};
	size_t k;
	int i;

	cudaMalloc(&o, 64 * sizeof(int));
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		CUarray a = make_array(cases[k].f, cases[k].ch, cases[k].w, cases[k].hh,
				       cases[k].d, cases[k].flags);
		res_array(&r, a);
		tex_point(&t);
		t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = (CUaddress_mode)cases[k].am;
		t.flags = cases[k].norm ? CU_TRSF_NORMALIZED_COORDINATES : 0;
		if (cases[k].f == CU_AD_FORMAT_UNSIGNED_INT32 || cases[k].f == CU_AD_FORMAT_SIGNED_INT32)
			t.flags |= CU_TRSF_READ_AS_INTEGER;
		t.filterMode = cases[k].linear ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
		if (cuTexObjectCreate(&to, &r, &t, NULL)) {
			printf("txq %s = create failed\n", cases[k].n);
			rt_failures++;
			continue;
		}
		txq_all(cases[k].n, to, false);
		cuTexObjectDestroy(to);
		if (cases[k].flags & CUDA_ARRAY3D_SURFACE_LDST) {
			cuSurfObjectCreate(&so, &r);
			txq_all(cases[k].n, so, true);
			cudaMemset(o, 0xff, 64 * sizeof(int));
			launch_istype(0, so, o);
			launch_error("istypep");
			cudaDeviceSynchronize();
			cudaMemcpy(h, o, 4 * sizeof(int), cudaMemcpyDeviceToHost);
			printf("istypep surface = tex %d surf %d\n", h[2], h[3]);
			cuSurfObjectDestroy(so);
		}
		cuArrayDestroy(a);
	}
	/* a mipmapped texture */
	{
		CUDA_ARRAY3D_DESCRIPTOR d;
		CUmipmappedArray m;

		memset(&d, 0, sizeof(d));
		d.Format = CU_AD_FORMAT_FLOAT;
		d.NumChannels = 1;
		d.Width = 64;
		d.Height = 16;
		cuMipmappedArrayCreate(&m, &d, 5);
		memset(&r, 0, sizeof(r));
		r.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
		r.res.mipmap.hMipmappedArray = m;
		tex_point(&t);
		t.flags = CU_TRSF_NORMALIZED_COORDINATES;
		t.maxMipmapLevelClamp = 4;
		R("tex mipmapped", cuTexObjectCreate(&to, &r, &t, NULL));
		txq_all("mipmapped", to, false);
		cudaMemset(o, 0xff, 64 * sizeof(int));
		launch_istype(to, 0, o);
		launch_error("istypep");
		cudaDeviceSynchronize();
		cudaMemcpy(h, o, 4 * sizeof(int), cudaMemcpyDeviceToHost);
		printf("istypep texture = tex %d surf %d\n", h[0], h[1]);
		launch_istype(12345, 0, o);
		launch_error("istypep");
		cudaDeviceSynchronize();
		cudaMemcpy(h, o, 4 * sizeof(int), cudaMemcpyDeviceToHost);
		printf("istypep 12345 = tex %d surf %d\n", h[0], h[1]);
		cuTexObjectDestroy(to);
		cuMipmappedArrayDestroy(m);
	}
	/* linear: tex1Dfetch in and out of range; a pitched texture */
	{
		float4 v[4], *dv;
		CUdeviceptr dp;
		float hv[64];

		for (i = 0; i < 64; i++)
			hv[i] = (float)i + 0.5f;
		cuMemAlloc(&dp, 4096);
		cuMemcpyHtoD(dp, hv, sizeof(hv));
		memset(&r, 0, sizeof(r));
		r.resType = CU_RESOURCE_TYPE_LINEAR;
		r.res.linear.devPtr = dp;
		r.res.linear.format = CU_AD_FORMAT_FLOAT;
		r.res.linear.numChannels = 4;
		r.res.linear.sizeInBytes = 256;
		tex_point(&t);
		cuTexObjectCreate(&to, &r, &t, NULL);
		cudaMalloc(&dv, sizeof(v));
		for (i = 0; i < 4; i++) {
			static const int at[] = { 3, 15, 16, -1 };

			k_fetch<<<1, 1>>>(to, at[i], dv);
			launch_error("k_fetch");
			cudaDeviceSynchronize();
			cudaMemcpy(v, dv, sizeof(float4), cudaMemcpyDeviceToHost);
			printf("fetch %d = %g %g %g %g\n", at[i], v[0].x, v[0].y, v[0].z, v[0].w);
		}
		txq_all("linear", to, false);
		cuTexObjectDestroy(to);
		/* integer coordinates on a 2D array */
		{
			CUarray a = make_array(CU_AD_FORMAT_FLOAT, 1, 8, 8, 0, 0);
			CUDA_MEMCPY2D c;

			memset(&c, 0, sizeof(c));
			c.srcMemoryType = CU_MEMORYTYPE_HOST;
			c.srcHost = hv;
			c.srcPitch = 32;
			c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
			c.dstArray = a;
			c.WidthInBytes = 32;
			c.Height = 8;
			cuMemcpy2D(&c);
			res_array(&r, a);
			tex_point(&t);
			t.filterMode = CU_TR_FILTER_MODE_LINEAR;
			t.flags = CU_TRSF_NORMALIZED_COORDINATES;
			t.addressMode[0] = t.addressMode[1] = CU_TR_ADDRESS_MODE_WRAP;
			cuTexObjectCreate(&to, &r, &t, NULL);
			for (i = 0; i < 4; i++) {
				static const int at[][2] = { { 3, 2 }, { 9, 1 }, { -1, 0 }, { 7, 7 } };

				launch_texi(to, at[i][0], at[i][1], dv);
				launch_error("texi");
				cudaDeviceSynchronize();
				cudaMemcpy(v, dv, sizeof(float4), cudaMemcpyDeviceToHost);
				printf("int coords %d %d = %g %g %g %g\n", at[i][0], at[i][1], v[0].x, v[0].y, v[0].z, v[0].w);
			}
			k_tex<<<1, 1>>>(to, 0.3f, 0.6f, dv);
			launch_error("k_tex");
			cudaDeviceSynchronize();
			cudaMemcpy(v, dv, sizeof(float4), cudaMemcpyDeviceToHost);
			printf("float coords 0.3 0.6 = %.9g %g %g %g\n", v[0].x, v[0].y, v[0].z, v[0].w);
			cuTexObjectDestroy(to);
			cuArrayDestroy(a);
		}
		cudaFree(dv);
		cuMemFree(dp);
	}
	cudaFree(o);
}

static void surfaces(void)
{
	CUarray a = make_array(CU_AD_FORMAT_FLOAT, 1, 64, 32, 0, CUDA_ARRAY3D_SURFACE_LDST);
	CUDA_RESOURCE_DESC r;
	CUsurfObject s;
	float *o, h[4], init[64 * 32];
	int i;

	for (i = 0; i < 64 * 32; i++)
		init[i] = (float)i;
	fill2d(a, init, 256, 32);
	res_array(&r, a);
	cuSurfObjectCreate(&s, &r);
	cudaMalloc(&o, 16);
	for (i = 0; i < 6; i++) {
		static const int at[][2] = { { 8, 1 }, { 256, 1 }, { -4, 2 }, { 4 * 70, 40 }, { 252, 31 }, { -256, -1 } };

		k_surf<<<1, 1>>>(s, at[i][0], at[i][1], o);
		launch_error("k_surf");
		printf("surf %d %d launch = %d\n", at[i][0], at[i][1], (int)cudaDeviceSynchronize());
		cudaMemcpy(h, o, 16, cudaMemcpyDeviceToHost);
		printf("surf %d %d = zero %g clamp %g first %g last %g\n", at[i][0], at[i][1], h[0], h[1], h[2], h[3]);
	}
	read2d(init, a, 256, 32);
	printf("surf after = %g %g %g %g %g\n", init[2 + 64], init[63 + 64], init[0 + 128], init[63 + 31 * 64], init[1 + 3 * 64]);
	cudaFree(o);
	cuSurfObjectDestroy(s);
	cuArrayDestroy(a);
}

static const char *self;

/* Runs the case @name in a process of its own (CUDA does not survive fork). */
static void in_child(const char *name, void (*fn)(void))
{
	char cmd[512];
	int st;

	(void)fn;
	fflush(stdout);
	snprintf(cmd, sizeof(cmd), "%s '%s'", self, name);
	st = system(cmd);
	if (st) {
		printf("%s = child exit %d\n", name, st);
		rt_failures++;
	}
}

static void child_trap_store(void)
{
	CUarray a = make_array(CU_AD_FORMAT_FLOAT, 1, 64, 32, 0, CUDA_ARRAY3D_SURFACE_LDST);
	CUDA_RESOURCE_DESC r;
	CUsurfObject s;

	res_array(&r, a);
	cuSurfObjectCreate(&s, &r);
	k_surf_trap<<<1, 1>>>(s, 4 * 64, 0);
	launch_error("k_surf_trap");
	printf("trap store past x launch = %d\n", (int)cudaGetLastError());
	printf("trap store past x sync = %d\n", (int)cudaDeviceSynchronize());
}

static void child_trap_unaligned(void)
{
	CUarray a = make_array(CU_AD_FORMAT_FLOAT, 1, 64, 32, 0, CUDA_ARRAY3D_SURFACE_LDST);
	CUDA_RESOURCE_DESC r;
	CUsurfObject s;

	res_array(&r, a);
	cuSurfObjectCreate(&s, &r);
	k_surf_trap<<<1, 1>>>(s, 2, 0);
	launch_error("k_surf_trap");
	printf("trap store unaligned x sync = %d\n", (int)cudaDeviceSynchronize());
}

static void child_trap_load(void)
{
	CUarray a = make_array(CU_AD_FORMAT_FLOAT, 1, 64, 32, 0, CUDA_ARRAY3D_SURFACE_LDST);
	CUDA_RESOURCE_DESC r;
	CUsurfObject s;
	float *o;

	res_array(&r, a);
	cuSurfObjectCreate(&s, &r);
	cudaMalloc(&o, 4);
	k_surf_trap_read<<<1, 1>>>(s, 0, 32, o);
	launch_error("k_surf_trap_read");
	printf("trap load past y sync = %d\n", (int)cudaDeviceSynchronize());
}

static void child_destroyed_tex(void)
{
	CUarray a = make_array(CU_AD_FORMAT_FLOAT, 4, 8, 8, 0, 0);
	CUDA_RESOURCE_DESC r;
	CUDA_TEXTURE_DESC t;
	CUtexObject o;
	float4 *dv, v;

	res_array(&r, a);
	tex_point(&t);
	cuTexObjectCreate(&o, &r, &t, NULL);
	cuTexObjectDestroy(o);
	cudaMalloc(&dv, sizeof(float4));
	k_tex<<<1, 1>>>(o, 1.5f, 1.5f, dv);
	launch_error("k_tex");
	printf("destroyed texture launch sync = %d\n", (int)cudaDeviceSynchronize());
	cudaMemcpy(&v, dv, sizeof(v), cudaMemcpyDeviceToHost);
}

static void child_zero_tex(void)
{
	float4 *dv;

	cudaMalloc(&dv, sizeof(float4));
	k_tex<<<1, 1>>>(0, 1.5f, 1.5f, dv);
	launch_error("k_tex");
	printf("texture 0 launch sync = %d\n", (int)cudaDeviceSynchronize());
}

static void child_bogus_tex(void)
{
	float4 *dv;

	cudaMalloc(&dv, sizeof(float4));
	k_tex<<<1, 1>>>(0x123456789ULL, 1.5f, 1.5f, dv);
	launch_error("k_tex");
	printf("texture 0x123456789 launch sync = %d\n", (int)cudaDeviceSynchronize());
}

static void child_array_gone(void)
{
	CUarray a = make_array(CU_AD_FORMAT_FLOAT, 4, 8, 8, 0, 0);
	CUDA_RESOURCE_DESC r;
	CUDA_TEXTURE_DESC t;
	CUtexObject o;
	float4 *dv;

	res_array(&r, a);
	tex_point(&t);
	cuTexObjectCreate(&o, &r, &t, NULL);
	printf("destroy array under texture = %d\n", (int)cuArrayDestroy(a));
	cudaMalloc(&dv, sizeof(float4));
	k_tex<<<1, 1>>>(o, 1.5f, 1.5f, dv);
	launch_error("k_tex");
	printf("texture of destroyed array sync = %d\n", (int)cudaDeviceSynchronize());
}

/* --- references --------------------------------------------------------- */

/* Texture and surface references are deprecated, and still CUDA's. */
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

static const char ref_ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".global .texref tr;\n"
	".global .surfref sr;\n"
	".visible .entry kref(.param .u64 out, .param .f32 x, .param .f32 y)\n{\n"
	"  .reg .f32 %f<8>; .reg .b64 %rd<3>; .reg .b32 %r<3>;\n"
	"  ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd2, %rd1;\n"
	"  ld.param.f32 %f1, [x]; ld.param.f32 %f2, [y];\n"
	"  tex.2d.v4.f32.f32 {%f3, %f4, %f5, %f6}, [tr, {%f1, %f2}];\n"
	"  st.global.v4.f32 [%rd2], {%f3, %f4, %f5, %f6};\n"
	"  txq.width.b32 %r1, [tr]; st.global.u32 [%rd2+16], %r1;\n"
	"  mov.b32 %r2, 0f40400000; sust.b.2d.b32.trap [sr, {4, 1}], {%r2};\n"
	"  ret;\n}\n";

static void references(void)
{
	CUmodule mod;
	CUfunction f;
	CUtexref tr;
	CUsurfref sr;
	CUresult e;
	CUarray a, sa;
	CUdeviceptr out;
	float hv[64], res[5], x = 2.5f, y = 1.5f;
	void *args[] = { &out, &x, &y };
	size_t off = 99;
	int i;

	e = cuModuleLoadData(&mod, ref_ptx);
	R("ref module load", e);
	if (e)
		return;
	R("ref get texref", cuModuleGetTexRef(&tr, mod, "tr"));
	R("ref get texref unknown", cuModuleGetTexRef(&tr, mod, "nope"));
	R("ref get texref null", cuModuleGetTexRef(NULL, mod, "tr"));
	R("ref get surfref", cuModuleGetSurfRef(&sr, mod, "sr"));
	R("ref get surfref unknown", cuModuleGetSurfRef(&sr, mod, "nope"));
	R("ref get texref as surfref", cuModuleGetSurfRef(&sr, mod, "tr"));
	cuModuleGetSurfRef(&sr, mod, "sr");
	for (i = 0; i < 64; i++)
		hv[i] = (float)i;
	a = make_array(CU_AD_FORMAT_FLOAT, 1, 8, 8, 0, 0);
	R("ref fill", fill2d(a, hv, 32, 8));
	sa = make_array(CU_AD_FORMAT_FLOAT, 1, 8, 8, 0, CUDA_ARRAY3D_SURFACE_LDST);
	cuMemAlloc(&out, 64);
	R("ref set array", cuTexRefSetArray(tr, a, CU_TRSA_OVERRIDE_FORMAT));
	R("ref set format", cuTexRefSetFormat(tr, CU_AD_FORMAT_FLOAT, 1));
	R("ref set address mode", cuTexRefSetAddressMode(tr, 0, CU_TR_ADDRESS_MODE_CLAMP));
	R("ref set address mode 3", cuTexRefSetAddressMode(tr, 3, CU_TR_ADDRESS_MODE_CLAMP));
	R("ref set filter", cuTexRefSetFilterMode(tr, CU_TR_FILTER_MODE_POINT));
	R("ref set flags", cuTexRefSetFlags(tr, 0));
	R("ref surf set array", cuSurfRefSetArray(sr, sa, 0));
	R("ref surf set array without ldst", cuSurfRefSetArray(sr, a, 0));
	cuSurfRefSetArray(sr, sa, 0);
	cuModuleGetFunction(&f, mod, "kref");
	R("ref launch", cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, args, NULL));
	R("ref sync", cuCtxSynchronize());
	cuMemcpyDtoH(res, out, 20);
	printf("ref result = %.9g %g %g %g width %d\n", res[0], res[1], res[2], res[3], ((int *)res)[4]);
	read2d(hv, sa, 32, 8);
	printf("ref surf stored = %g\n", hv[1 + 8]);
	{
		CUarray ga;
		CUfilter_mode fm;
		CUaddress_mode am;
		CUarray_format fmt;
		unsigned int fl;
		int ch;

		R("ref get array", cuTexRefGetArray(&ga, tr));
		printf("ref get array same = %d\n", ga == a);
		R("ref get filter", cuTexRefGetFilterMode(&fm, tr));
		printf("ref get filter value = %d\n", fm);
		R("ref get address mode", cuTexRefGetAddressMode(&am, tr, 0));
		printf("ref get address mode value = %d\n", am);
		R("ref get format", cuTexRefGetFormat(&fmt, &ch, tr));
		printf("ref get format value = %d %d\n", fmt, ch);
		R("ref get flags", cuTexRefGetFlags(&fl, tr));
		printf("ref get flags value = %u\n", fl);
	}
	R("ref set address", cuTexRefSetAddress(&off, tr, out + 4, 32));
	printf("ref set address offset = %zu\n", off);
	{
		CUDA_ARRAY_DESCRIPTOR d;

		memset(&d, 0, sizeof(d));
		d.Format = CU_AD_FORMAT_FLOAT;
		d.NumChannels = 1;
		d.Width = 4;
		d.Height = 4;
		R("ref set address 2d", cuTexRefSetAddress2D(tr, &d, out, 32));
		R("ref set address 2d pitch 20", cuTexRefSetAddress2D(tr, &d, out, 20));
	}
	{
		CUtexref own;

		R("ref create", cuTexRefCreate(&own));
		R("ref destroy", cuTexRefDestroy(own));
	}
	cuModuleUnload(mod);
}

static const struct { const char *name; void (*fn)(void); } children[] = {
	{ "trap store", child_trap_store }, { "trap unaligned", child_trap_unaligned },
	{ "trap load", child_trap_load }, { "destroyed texture", child_destroyed_tex },
	{ "texture 0", child_zero_tex }, { "texture bogus", child_bogus_tex },
	{ "array gone", child_array_gone },
};

int main(int argc, char **argv)
{
	CUcontext ctx;
	int v;
	size_t k;

	setvbuf(stdout, NULL, _IONBF, 0);
	self = argv[0];
	if (argc == 2) {
		cudaFree(0);
		for (k = 0; k < sizeof(children) / sizeof(children[0]); k++)
			if (!strcmp(argv[1], children[k].name))
				children[k].fn();
		return 0;
	}
	rt_check_library();
	cudaFree(0);
	cuCtxGetCurrent(&ctx);
	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, 0);
	printf("texture pitch alignment = %d\n", v);
	cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH, 0);
	printf("max linear 1d = %d\n", v);
	texobj_create();
	surfobj_create();
	queries();
	surfaces();
	references();
	in_child("trap store", child_trap_store);
	in_child("trap unaligned", child_trap_unaligned);
	in_child("trap load", child_trap_load);
	in_child("destroyed texture", child_destroyed_tex);
	in_child("texture 0", child_zero_tex);
	in_child("texture bogus", child_bogus_tex);
	in_child("array gone", child_array_gone);
	R("sync", cudaDeviceSynchronize());
	return rt_result();
}
