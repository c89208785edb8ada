// SPDX-License-Identifier: MIT
// Probe run on an H100-class GPU (an H200: the same GH100 chip) for vgpu's
// sampler: every set of h100_tex_sets.h sampled by the texture unit, the
// results written as they came back.
//
//   h100_tex FILE [PREFIX]
//                    writes FILE: for each set its name (32 bytes, NUL
//                    padded), the sample count and channels kept (two
//                    little-endian int32), then count * channels floats;
//                    prints a line per set with an FNV-1a 64 digest of
//                    those floats' bytes; with PREFIX, only the sets
//                    whose names start with it
//
// Built as
//   nvcc -O2 -arch=sm_90 -I. tests/unit/data/h100_tex.cu -o h100_tex
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>
#include <cuda_fp16.h>

#include "h100_tex_sets.h"

#define CK(call) do { \
	cudaError_t _e = (call); \
	if (_e != cudaSuccess) { \
		printf("%s: %s failed: %s\n", s->name, #call, \
		       cudaGetErrorName(_e)); \
		cudaGetLastError(); \
		return false; \
	} \
} while (0)

__global__ void fetch(cudaTextureObject_t t, int dim, int kind,
		      const float *coords, float4 *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	const float *c;
	float4 r = make_float4(0, 0, 0, 0);

	if (i >= n)
		return;
	c = coords + 12 * i;
	switch (kind) {
	case TF_PLAIN:
		switch (dim) {
		case TS_1D: r = tex1D<float4>(t, c[0]); break;
		case TS_2D: r = tex2D<float4>(t, c[0], c[1]); break;
		case TS_3D: r = tex3D<float4>(t, c[0], c[1], c[2]); break;
		case TS_1DL: r = tex1DLayered<float4>(t, c[0], (int)c[3]); break;
		case TS_2DL: r = tex2DLayered<float4>(t, c[0], c[1], (int)c[3]); break;
		case TS_CUBE: r = texCubemap<float4>(t, c[0], c[1], c[2]); break;
		}
		break;
	case TF_LOD:
		switch (dim) {
		case TS_1D: r = tex1DLod<float4>(t, c[0], c[4]); break;
		case TS_2D: r = tex2DLod<float4>(t, c[0], c[1], c[4]); break;
		case TS_3D: r = tex3DLod<float4>(t, c[0], c[1], c[2], c[4]); break;
		}
		break;
	case TF_GRAD:
		switch (dim) {
		case TS_1D: r = tex1DGrad<float4>(t, c[0], c[5], c[8]); break;
		case TS_2D:
			r = tex2DGrad<float4>(t, c[0], c[1], make_float2(c[5], c[6]),
					      make_float2(c[8], c[9]));
			break;
		case TS_3D:
			r = tex3DGrad<float4>(t, c[0], c[1], c[2],
					      make_float4(c[5], c[6], c[7], 0),
					      make_float4(c[8], c[9], c[10], 0));
			break;
		}
		break;
	case TF_GATHER0: r = tex2Dgather<float4>(t, c[0], c[1], 0); break;
	case TF_GATHER1: r = tex2Dgather<float4>(t, c[0], c[1], 1); break;
	case TF_GATHER2: r = tex2Dgather<float4>(t, c[0], c[1], 2); break;
	case TF_GATHER3: r = tex2Dgather<float4>(t, c[0], c[1], 3); break;
	}
	out[i] = r;
}

static cudaChannelFormatDesc channel_desc(int fmt)
{
	switch (fmt) {
	case TS_F32: return cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
	case TS_F16: return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat);
	case TS_U8: return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindUnsigned);
	case TS_S8: return cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindSigned);
	case TS_U16: return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindUnsigned);
	case TS_S16: return cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindSigned);
	case TS_F32X4: return cudaCreateChannelDesc(32, 32, 32, 32, cudaChannelFormatKindFloat);
	case TS_S8X4: return cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindSigned);
	case TS_F16X4: return cudaCreateChannelDesc(16, 16, 16, 16, cudaChannelFormatKindFloat);
	default: return cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned);
	}
}

static bool integer_format(int fmt)
{
	return fmt == TS_U8 || fmt == TS_S8 || fmt == TS_U16 ||
	       fmt == TS_S16 || fmt == TS_U8X4 || fmt == TS_S8X4;
}

// Level @l's texels, as the array holds them (x fastest, then y, then z).
static std::vector<unsigned char> level_texels(const struct ts_set *s, int l)
{
	int w, h, d, nb = ts_fmt_bytes(s->fmt);

	ts_level_size(s, l, &w, &h, &d);
	std::vector<unsigned char> v((size_t)w * h * d * nb);
	for (int z = 0; z < d; z++)
		for (int y = 0; y < h; y++)
			for (int x = 0; x < w; x++)
				ts_texel(s, l, x, y, z,
					 &v[(((size_t)z * h + y) * w + x) * nb]);
	return v;
}

static bool upload(const struct ts_set *s, cudaArray_t a, int l)
{
	int w, h, d, nb = ts_fmt_bytes(s->fmt);
	std::vector<unsigned char> v = level_texels(s, l);
	cudaMemcpy3DParms p = {};

	ts_level_size(s, l, &w, &h, &d);
	p.srcPtr = make_cudaPitchedPtr(v.data(), (size_t)w * nb, w, h);
	p.dstArray = a;
	p.extent = make_cudaExtent(w, s->dim == TS_1D || s->dim == TS_1DL ? 1 : h,
				   s->dim == TS_1D || s->dim == TS_2D ? 1 : d);
	if (s->dim == TS_1DL) {
		// A 1D layered array's rows are its layers.
		p.srcPtr = make_cudaPitchedPtr(v.data(), (size_t)w * nb, w, 1);
		p.extent = make_cudaExtent(w, 1, d);
	}
	CK(cudaMemcpy3D(&p));
	return true;
}

static bool run_set(const struct ts_set *s, std::vector<float> &res)
{
	cudaChannelFormatDesc cd = channel_desc(s->fmt);
	struct cudaResourceDesc rd = {};
	struct cudaTextureDesc td = {};
	cudaTextureObject_t t = 0;
	cudaArray_t arr = NULL;
	cudaMipmappedArray_t mm = NULL;
	void *pitched = NULL;
	float *dc = NULL;
	float4 *dout = NULL;
	unsigned int flags = 0;
	int levels = ts_levels(s);
	cudaExtent ext;

	switch (s->dim) {
	case TS_1D: ext = make_cudaExtent(s->w, 0, 0); break;
	case TS_2D: ext = make_cudaExtent(s->w, s->h, 0); break;
	case TS_3D: ext = make_cudaExtent(s->w, s->h, s->d); break;
	case TS_1DL: ext = make_cudaExtent(s->w, 0, s->d); flags = cudaArrayLayered; break;
	case TS_2DL: ext = make_cudaExtent(s->w, s->h, s->d); flags = cudaArrayLayered; break;
	default: ext = make_cudaExtent(s->w, s->h, 6); flags = cudaArrayCubemap; break;
	}
	if (s->fetch >= TF_GATHER0)
		flags |= cudaArrayTextureGather;
	if (!strcmp(s->name, "pitch_bilerp")) {
		size_t pitch;
		std::vector<unsigned char> v = level_texels(s, 0);

		CK(cudaMallocPitch(&pitched, &pitch, (size_t)s->w * 4, s->h));
		CK(cudaMemcpy2D(pitched, pitch, v.data(), (size_t)s->w * 4,
				(size_t)s->w * 4, s->h, cudaMemcpyHostToDevice));
		rd.resType = cudaResourceTypePitch2D;
		rd.res.pitch2D.devPtr = pitched;
		rd.res.pitch2D.desc = cd;
		rd.res.pitch2D.width = s->w;
		rd.res.pitch2D.height = s->h;
		rd.res.pitch2D.pitchInBytes = pitch;
	} else if (levels > 1) {
		CK(cudaMallocMipmappedArray(&mm, &cd, ext, levels, flags));
		for (int l = 0; l < levels; l++) {
			cudaArray_t lv;

			CK(cudaGetMipmappedArrayLevel(&lv, mm, l));
			if (!upload(s, lv, l))
				return false;
		}
		rd.resType = cudaResourceTypeMipmappedArray;
		rd.res.mipmap.mipmap = mm;
	} else {
		CK(cudaMalloc3DArray(&arr, &cd, ext, flags));
		if (!upload(s, arr, 0))
			return false;
		rd.resType = cudaResourceTypeArray;
		rd.res.array.array = arr;
	}
	for (int a = 0; a < 3; a++)
		td.addressMode[a] = (cudaTextureAddressMode)s->addr;
	td.filterMode = s->linear ? cudaFilterModeLinear : cudaFilterModePoint;
	td.readMode = integer_format(s->fmt) ? cudaReadModeNormalizedFloat :
		      cudaReadModeElementType;
	td.sRGB = s->srgb;
	for (int k = 0; k < 4; k++)
		td.borderColor[k] = s->border;
	td.normalizedCoords = s->normalized;
	td.maxAnisotropy = s->aniso;
	td.mipmapFilterMode = s->mip_linear ? cudaFilterModeLinear : cudaFilterModePoint;
	td.mipmapLevelBias = s->bias;
	td.minMipmapLevelClamp = s->lod_min;
	td.maxMipmapLevelClamp = s->lod_max;
	td.disableTrilinearOptimization = s->no_trilinear_opt;
	td.seamlessCubemap = s->seamless;
	CK(cudaCreateTextureObject(&t, &rd, &td, NULL));

	std::vector<float> hc((size_t)s->n * 12);
	for (int i = 0; i < s->n; i++)
		ts_coords(s, i, &hc[(size_t)i * 12]);
	std::vector<float4> hout(s->n);
	CK(cudaMalloc(&dc, hc.size() * sizeof(float)));
	CK(cudaMalloc(&dout, (size_t)s->n * sizeof(float4)));
	CK(cudaMemcpy(dc, hc.data(), hc.size() * sizeof(float), cudaMemcpyHostToDevice));
	fetch<<<(s->n + 255) / 256, 256>>>(t, s->dim, s->fetch, dc, dout, s->n);
	CK(cudaGetLastError());
	CK(cudaMemcpy(hout.data(), dout, (size_t)s->n * sizeof(float4),
		      cudaMemcpyDeviceToHost));
	res.resize((size_t)s->n * s->nch);
	for (int i = 0; i < s->n; i++)
		memcpy(&res[(size_t)i * s->nch], &hout[i], (size_t)s->nch * 4);
	CK(cudaDestroyTextureObject(t));
	cudaFree(dc);
	cudaFree(dout);
	if (arr)
		cudaFreeArray(arr);
	if (mm)
		cudaFreeMipmappedArray(mm);
	if (pitched)
		cudaFree(pitched);
	return true;
}

static uint64_t fnv(const void *p, size_t n)
{
	const unsigned char *b = (const unsigned char *)p;
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

int main(int argc, char **argv)
{
	cudaDeviceProp prop;
	int drv = 0;
	FILE *f;

	if (argc != 2 && argc != 3) {
		fprintf(stderr, "usage: h100_tex FILE [PREFIX]\n");
		return 2;
	}
	f = fopen(argv[1], "wb");
	if (!f)
		return 1;
	cudaGetDeviceProperties(&prop, 0);
	cudaDriverGetVersion(&drv);
	printf("device %s, sm_%d%d, driver API %d\n", prop.name, prop.major,
	       prop.minor, drv);
	printf("limits: tex1D %d tex1DMipmap %d tex2D %dx%d tex2DMipmap %dx%d "
	       "tex2DLinear %dx%dx%d tex2DGather %dx%d tex3D %dx%dx%d "
	       "tex3DAlt %dx%dx%d texCubemap %d tex1DLayered %dx%d "
	       "tex2DLayered %dx%dx%d texCubemapLayered %dx%d surf1D %d "
	       "surf2D %dx%d surf3D %dx%dx%d surf1DLayered %dx%d "
	       "surf2DLayered %dx%dx%d surfCubemap %d surfCubemapLayered %dx%d "
	       "textureAlignment %zu texturePitchAlignment %zu "
	       "surfaceAlignment %zu\n",
	       prop.maxTexture1D, prop.maxTexture1DMipmap, prop.maxTexture2D[0],
	       prop.maxTexture2D[1], prop.maxTexture2DMipmap[0],
	       prop.maxTexture2DMipmap[1], prop.maxTexture2DLinear[0],
	       prop.maxTexture2DLinear[1], prop.maxTexture2DLinear[2],
	       prop.maxTexture2DGather[0], prop.maxTexture2DGather[1],
	       prop.maxTexture3D[0], prop.maxTexture3D[1], prop.maxTexture3D[2],
	       prop.maxTexture3DAlt[0], prop.maxTexture3DAlt[1],
	       prop.maxTexture3DAlt[2], prop.maxTextureCubemap,
	       prop.maxTexture1DLayered[0], prop.maxTexture1DLayered[1],
	       prop.maxTexture2DLayered[0], prop.maxTexture2DLayered[1],
	       prop.maxTexture2DLayered[2], prop.maxTextureCubemapLayered[0],
	       prop.maxTextureCubemapLayered[1], prop.maxSurface1D,
	       prop.maxSurface2D[0], prop.maxSurface2D[1], prop.maxSurface3D[0],
	       prop.maxSurface3D[1], prop.maxSurface3D[2],
	       prop.maxSurface1DLayered[0], prop.maxSurface1DLayered[1],
	       prop.maxSurface2DLayered[0], prop.maxSurface2DLayered[1],
	       prop.maxSurface2DLayered[2], prop.maxSurfaceCubemap,
	       prop.maxSurfaceCubemapLayered[0], prop.maxSurfaceCubemapLayered[1],
	       prop.textureAlignment, prop.texturePitchAlignment,
	       prop.surfaceAlignment);
	for (size_t k = 0; k < TS_COUNT; k++) {
		const struct ts_set *s = &ts_sets[k];
		std::vector<float> res;
		char name[32] = { 0 };
		int32_t hdr[2];

		if (argc == 3 && strncmp(s->name, argv[2], strlen(argv[2])))
			continue;
		if (!run_set(s, res))
			continue;
		strncpy(name, s->name, sizeof(name) - 1);
		hdr[0] = s->n;
		hdr[1] = s->nch;
		fwrite(name, 1, sizeof(name), f);
		fwrite(hdr, sizeof(hdr), 1, f);
		fwrite(res.data(), 4, res.size(), f);
		printf("%s n=%d nch=%d digest=%016llx first=%.9g,%.9g\n", s->name,
		       s->n, s->nch, (unsigned long long)fnv(res.data(), res.size() * 4),
		       res[0], res[res.size() > 1 ? 1 : 0]);
	}
	fclose(f);
	return 0;
}
