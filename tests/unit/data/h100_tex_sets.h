/* SPDX-License-Identifier: MIT */
/*
 * The texture sets the H100 was asked to sample (h100_tex.cu), and what
 * vgpu's sampler is held to: each set is a texture (format, shape,
 * sampler state), its texels and its coordinates, all made here on the
 * host from fixed seeds, so that the probe and the tests make the same
 * ones. Plain C that also builds as CUDA C++.
 */
#ifndef VGPU_H100_TEX_SETS_H
#define VGPU_H100_TEX_SETS_H

#include <stdint.h>
#include <string.h>

/* Texel formats: CUDA's channel format and read mode. */
enum ts_fmt {
	TS_F32,		/* float, element type */
	TS_F16,		/* half, element type (read as float) */
	TS_U8,		/* unsigned 8, normalized float */
	TS_S8,		/* signed 8, normalized float */
	TS_U16,		/* unsigned 16, normalized float */
	TS_S16,		/* signed 16, normalized float */
	TS_F32X4,	/* float4, element type */
	TS_U8X4,	/* uchar4, normalized float */
	TS_S8X4,	/* char4, normalized float */
	TS_F16X4,	/* half4, element type (read as float) */
};

/* Shapes. @d is the depth (3D) or the layer count (layered, cube: 6). */
enum ts_dim { TS_1D, TS_2D, TS_3D, TS_1DL, TS_2DL, TS_CUBE };

/* How a sample is fetched: tex, tex...Lod, tex...Grad, tex2Dgather. */
enum ts_fetch { TF_PLAIN, TF_LOD, TF_GRAD, TF_GATHER0, TF_GATHER1,
		TF_GATHER2, TF_GATHER3 };

/* Texel contents. */
enum ts_texels {
	TT_ALT,		/* 0 and 1 (255 for U8) alternating along x */
	TT_INDEX,	/* x (floats) */
	TT_INDEX1,	/* x + 1 (floats) */
	TT_RAW,		/* the raw bits are the texel's index */
	TT_RANDOM,	/* random, per format (ts_texel_random) */
	TT_LEVEL,	/* every texel of mip level L is L (floats) */
	TT_FACE,	/* face * 64 + y * 8 + x (floats) */
	TT_LAYER,	/* layer * 100 + index within the layer (floats) */
	/*
	 * Corners of a 2x2(x2) texture, 4 channels: channel c is full (1.0,
	 * 255, 127) at corner c = (y & 1) * 2 + (x & 1) and 0 elsewhere; in
	 * 3D, TT_CORNERS takes the corners with z & 1 == 0, TT_CORNERS_HI
	 * those with z & 1 == 1.
	 */
	TT_CORNERS,
	TT_CORNERS_HI,
	/* Pairs along x (pair k = x / 2), floats or halves: */
	TT_PAIRS_ZX,	/* (0, X) for even k, (X, 0) for odd, X = +-[1, 2) */
	TT_PAIRS_GAP,	/* (X, Y), X = +-[1, 2), Y = +-[1, 2) * 2^-(k % 32) */
	/*
	 * Pairs of 4-channel 8-bit texels along x, value v = k (unsigned) or
	 * k - 128 (signed), top m = 255 or 127: (v, 0, m, v) then (0, v, v, m).
	 */
	TT_PAIRS_8BIT,
};

/* Coordinate generators (ts_coords). */
enum ts_coords {
	TC_SWEEP_UNNORM,	/* dense sweeps of x, unnormalized */
	TC_SWEEP_NORM,		/* dense sweeps and random x, normalized */
	TC_EDGES_NORM,		/* x = k / w, nudged by -8..7 ulps */
	TC_EDGES_UNNORM,	/* x = k, nudged by -8..7 ulps */
	TC_CENTERS,		/* x = i + 0.5, one per texel */
	TC_RANDOM_IN,		/* each axis in [0.5, size - 0.5) */
	TC_RANDOM_NORM,		/* each axis in [0, 1) */
	TC_RANDOM_WIDE,		/* each axis in [-3, 3), specials first */
	TC_RANDOM_WIDE_UN,	/* each axis in [-3w, 3w), specials first */
	TC_ALT_WEIGHTS,		/* x = 1.5 + k / 1024 */
	TC_LOD_SWEEP,		/* (0.5, 0.5), lod from -2 by 1/1024 */
	TC_GRAD_RANDOM,		/* random normalized coords and gradients */
	TC_LOD_RANDOM,		/* random normalized coords, lod in [0, 3) */
	TC_CUBE_RANDOM,		/* directions, ties first */
	TC_LAYER_RANDOM,	/* random normalized coords, layer -2..L+1 */
	TC_WGRID1,	/* x = 0.5 + i / 256: every weight of texels 0, 1 */
	TC_WGRID2,	/* every (x, y) weight pair of the corners */
	TC_WGRID3,	/* random (x, y, z) weights of the corners */
	TC_PAIRS_ALLW,	/* pair i / 256 at weight i % 256, y = 0.5 */
	TC_PAIRS_RANDW,	/* pair i / 2 at a random weight, y = 0.5 */
	TC_GRAD_X,	/* (0.5, 0.5), gradient (g, 0) along x only, g swept */
	TC_GRAD_DIR,	/* (0.5, 0.5), gradient (p, q) of directions swept */
	TC_GRAD_XY,	/* (0.5, 0.5), gradients (g, 0) and (0, h), random */
};

/* Address modes, CUDA's numbers. */
enum { TA_WRAP, TA_CLAMP, TA_MIRROR, TA_BORDER };

struct ts_set {
	const char *name;
	unsigned char dim, fmt, fetch, texels, coords;
	unsigned char linear, mip_linear, normalized, addr, srgb;
	unsigned char no_trilinear_opt, seamless;
	unsigned int aniso;
	int w, h, d, levels;
	float bias, lod_min, lod_max, border;
	int n;		/* samples */
	int nch;	/* channels kept of each result */
	uint32_t seed;
};

#define TS_N 65536

static const struct ts_set ts_sets[] = {
	/* name, dim, fmt, fetch, texels, coords, linear, mip_linear, norm,
	 * addr, srgb, notri, seamless, aniso, w, h, d, levels, bias, lodmin,
	 * lodmax, border, n, nch, seed */
	/* The weights of linear filtering: 0/1 texels. */
	{ "f32_w_unnorm", TS_1D, TS_F32, TF_PLAIN, TT_ALT, TC_SWEEP_UNNORM, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 8192, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 1 },
	{ "f32_w_norm8192", TS_1D, TS_F32, TF_PLAIN, TT_ALT, TC_SWEEP_NORM, 1, 0, 1, TA_CLAMP, 0, 0, 0, 0, 8192, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 2 },
	{ "f32_w_norm1000", TS_1D, TS_F32, TF_PLAIN, TT_ALT, TC_SWEEP_NORM, 1, 0, 1, TA_CLAMP, 0, 0, 0, 0, 1000, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 3 },
	{ "u8_w", TS_1D, TS_U8, TF_PLAIN, TT_ALT, TC_ALT_WEIGHTS, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 16, 1, 1, 1, 0, 0, 0, 0, 1024, 1, 4 },
	/* Point sampling at texel edges. */
	{ "f32_pt_norm1000", TS_1D, TS_F32, TF_PLAIN, TT_INDEX, TC_EDGES_NORM, 0, 0, 1, TA_CLAMP, 0, 0, 0, 0, 1000, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 5 },
	{ "f32_pt_unnorm", TS_1D, TS_F32, TF_PLAIN, TT_INDEX, TC_EDGES_UNNORM, 0, 0, 0, TA_CLAMP, 0, 0, 0, 0, 8192, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 6 },
	/* The blend's arithmetic. */
	{ "f32_lerp", TS_1D, TS_F32, TF_PLAIN, TT_RANDOM, TC_RANDOM_IN, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 4096, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 7 },
	{ "f32_bilerp", TS_2D, TS_F32, TF_PLAIN, TT_RANDOM, TC_RANDOM_IN, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 64, 64, 1, 1, 0, 0, 0, 0, TS_N, 1, 8 },
	{ "f32_trilerp", TS_3D, TS_F32, TF_PLAIN, TT_RANDOM, TC_RANDOM_IN, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 16, 16, 16, 1, 0, 0, 0, 0, TS_N, 1, 9 },
	{ "f32x4_bilerp_norm", TS_2D, TS_F32X4, TF_PLAIN, TT_RANDOM, TC_RANDOM_NORM, 1, 0, 1, TA_CLAMP, 0, 0, 0, 0, 100, 37, 1, 1, 0, 0, 0, 0, 16384, 4, 10 },
	/* Conversions of every texel value. */
	{ "u8_pt", TS_1D, TS_U8, TF_PLAIN, TT_RAW, TC_CENTERS, 0, 0, 0, TA_CLAMP, 0, 0, 0, 0, 256, 1, 1, 1, 0, 0, 0, 0, 256, 4, 11 },
	{ "s8_pt", TS_1D, TS_S8, TF_PLAIN, TT_RAW, TC_CENTERS, 0, 0, 0, TA_CLAMP, 0, 0, 0, 0, 256, 1, 1, 1, 0, 0, 0, 0, 256, 1, 12 },
	{ "u16_pt", TS_1D, TS_U16, TF_PLAIN, TT_RAW, TC_CENTERS, 0, 0, 0, TA_CLAMP, 0, 0, 0, 0, 65536, 1, 1, 1, 0, 0, 0, 0, 65536, 1, 13 },
	{ "s16_pt", TS_1D, TS_S16, TF_PLAIN, TT_RAW, TC_CENTERS, 0, 0, 0, TA_CLAMP, 0, 0, 0, 0, 65536, 1, 1, 1, 0, 0, 0, 0, 65536, 1, 14 },
	{ "f16_pt", TS_1D, TS_F16, TF_PLAIN, TT_RAW, TC_CENTERS, 0, 0, 0, TA_CLAMP, 0, 0, 0, 0, 65536, 1, 1, 1, 0, 0, 0, 0, 65536, 1, 15 },
	{ "srgb_pt", TS_1D, TS_U8X4, TF_PLAIN, TT_RAW, TC_CENTERS, 0, 0, 0, TA_CLAMP, 1, 0, 0, 0, 256, 1, 1, 1, 0, 0, 0, 0, 256, 4, 16 },
	/* Linear filtering of each format. */
	{ "u8_lerp", TS_1D, TS_U8, TF_PLAIN, TT_RANDOM, TC_RANDOM_IN, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 65536, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 17 },
	{ "s8_lerp", TS_1D, TS_S8, TF_PLAIN, TT_RANDOM, TC_RANDOM_IN, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 65536, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 18 },
	{ "u16_lerp", TS_1D, TS_U16, TF_PLAIN, TT_RANDOM, TC_RANDOM_IN, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 65536, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 19 },
	{ "s16_lerp", TS_1D, TS_S16, TF_PLAIN, TT_RANDOM, TC_RANDOM_IN, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 65536, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 20 },
	{ "f16_lerp", TS_1D, TS_F16, TF_PLAIN, TT_RANDOM, TC_RANDOM_IN, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 65536, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 21 },
	{ "u8x4_bilerp", TS_2D, TS_U8X4, TF_PLAIN, TT_RANDOM, TC_RANDOM_IN, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 64, 64, 1, 1, 0, 0, 0, 0, 16384, 4, 22 },
	{ "u8_bilerp", TS_2D, TS_U8, TF_PLAIN, TT_RANDOM, TC_RANDOM_IN, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 64, 64, 1, 1, 0, 0, 0, 0, TS_N, 1, 23 },
	{ "u8_trilerp", TS_3D, TS_U8, TF_PLAIN, TT_RANDOM, TC_RANDOM_IN, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 16, 16, 16, 1, 0, 0, 0, 0, 16384, 1, 24 },
	{ "srgb_lerp", TS_1D, TS_U8X4, TF_PLAIN, TT_RANDOM, TC_RANDOM_IN, 1, 0, 0, TA_CLAMP, 1, 0, 0, 0, 4096, 1, 1, 1, 0, 0, 0, 0, 16384, 4, 25 },
	{ "pitch_bilerp", TS_2D, TS_F32, TF_PLAIN, TT_RANDOM, TC_RANDOM_IN, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 100, 50, 1, 1, 0, 0, 0, 0, 16384, 1, 26 },
	/* Address modes, normalized and not, point and linear. */
	{ "addr_wrap_pt", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE, 0, 0, 1, TA_WRAP, 0, 0, 0, 0, 5, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 30 },
	{ "addr_clamp_pt", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE, 0, 0, 1, TA_CLAMP, 0, 0, 0, 0, 5, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 31 },
	{ "addr_mirror_pt", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE, 0, 0, 1, TA_MIRROR, 0, 0, 0, 0, 5, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 32 },
	{ "addr_border_pt", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE, 0, 0, 1, TA_BORDER, 0, 0, 0, 0, 5, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 33 },
	{ "addr_wrap_lin", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE, 1, 0, 1, TA_WRAP, 0, 0, 0, 0, 5, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 34 },
	{ "addr_clamp_lin", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE, 1, 0, 1, TA_CLAMP, 0, 0, 0, 0, 5, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 35 },
	{ "addr_mirror_lin", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE, 1, 0, 1, TA_MIRROR, 0, 0, 0, 0, 5, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 36 },
	{ "addr_border_lin", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE, 1, 0, 1, TA_BORDER, 0, 0, 0, 0, 5, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 37 },
	{ "addr_wrap8_lin", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE, 1, 0, 1, TA_WRAP, 0, 0, 0, 0, 8, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 38 },
	{ "addr_mirror8_lin", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE, 1, 0, 1, TA_MIRROR, 0, 0, 0, 0, 8, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 39 },
	{ "addr_un_wrap_pt", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE_UN, 0, 0, 0, TA_WRAP, 0, 0, 0, 0, 5, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 40 },
	{ "addr_un_clamp_pt", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE_UN, 0, 0, 0, TA_CLAMP, 0, 0, 0, 0, 5, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 41 },
	{ "addr_un_mirror_pt", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE_UN, 0, 0, 0, TA_MIRROR, 0, 0, 0, 0, 5, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 42 },
	{ "addr_un_border_pt", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE_UN, 0, 0, 0, TA_BORDER, 0, 0, 0, 0, 5, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 43 },
	{ "addr_un_wrap_lin", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE_UN, 1, 0, 0, TA_WRAP, 0, 0, 0, 0, 5, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 44 },
	{ "addr_un_clamp_lin", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE_UN, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 5, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 45 },
	{ "addr_un_border_lin", TS_1D, TS_F32, TF_PLAIN, TT_INDEX1, TC_RANDOM_WIDE_UN, 1, 0, 0, TA_BORDER, 0, 0, 0, 0, 5, 1, 1, 1, 0, 0, 0, -1, 16384, 1, 46 },
	{ "addr_border_u8x4", TS_2D, TS_U8X4, TF_PLAIN, TT_RANDOM, TC_RANDOM_WIDE, 1, 0, 1, TA_BORDER, 0, 0, 0, 0, 4, 3, 1, 1, 0, 0, 0, 0.3f, 16384, 4, 47 },
	{ "addr_wrap_2d", TS_2D, TS_F32, TF_PLAIN, TT_RANDOM, TC_RANDOM_WIDE, 1, 0, 1, TA_WRAP, 0, 0, 0, 0, 7, 3, 1, 1, 0, 0, 0, 0, 16384, 1, 48 },
	/* Mipmaps: levels from lod, from gradients; trilinear blends. */
	{ "mip_lod_lin", TS_2D, TS_F32, TF_LOD, TT_LEVEL, TC_LOD_SWEEP, 1, 1, 1, TA_CLAMP, 0, 0, 0, 0, 64, 64, 1, 7, 0, 0, 100, 0, 10240, 1, 50 },
	{ "mip_lod_lin_notri", TS_2D, TS_F32, TF_LOD, TT_LEVEL, TC_LOD_SWEEP, 1, 1, 1, TA_CLAMP, 0, 1, 0, 0, 64, 64, 1, 7, 0, 0, 100, 0, 10240, 1, 51 },
	{ "mip_lod_pt", TS_2D, TS_F32, TF_LOD, TT_LEVEL, TC_LOD_SWEEP, 1, 0, 1, TA_CLAMP, 0, 0, 0, 0, 64, 64, 1, 7, 0, 0, 100, 0, 10240, 1, 52 },
	{ "mip_lod_clamped", TS_2D, TS_F32, TF_LOD, TT_LEVEL, TC_LOD_SWEEP, 1, 1, 1, TA_CLAMP, 0, 1, 0, 0, 64, 64, 1, 7, 0.3f, 0.5f, 4.25f, 0, 10240, 1, 53 },
	{ "mip_grad", TS_2D, TS_F32, TF_GRAD, TT_LEVEL, TC_GRAD_RANDOM, 1, 1, 1, TA_CLAMP, 0, 1, 0, 0, 64, 64, 1, 7, 0, 0, 100, 0, TS_N, 1, 54 },
	{ "mip_grad_aniso16", TS_2D, TS_F32, TF_GRAD, TT_LEVEL, TC_GRAD_RANDOM, 1, 1, 1, TA_CLAMP, 0, 1, 0, 16, 64, 64, 1, 7, 0, 0, 100, 0, TS_N, 1, 55 },
	{ "mip_grad_1d", TS_1D, TS_F32, TF_GRAD, TT_LEVEL, TC_GRAD_RANDOM, 1, 1, 1, TA_CLAMP, 0, 1, 0, 0, 256, 1, 1, 9, 0, 0, 100, 0, 16384, 1, 56 },
	{ "mip_grad_3d", TS_3D, TS_F32, TF_GRAD, TT_LEVEL, TC_GRAD_RANDOM, 1, 1, 1, TA_CLAMP, 0, 1, 0, 0, 32, 32, 32, 6, 0, 0, 100, 0, 16384, 1, 57 },
	{ "mip_tri_rand", TS_2D, TS_F32, TF_LOD, TT_RANDOM, TC_LOD_RANDOM, 1, 1, 1, TA_CLAMP, 0, 1, 0, 0, 64, 64, 1, 7, 0, 0, 100, 0, TS_N, 1, 58 },
	{ "mip_tri_rand_opt", TS_2D, TS_F32, TF_LOD, TT_RANDOM, TC_LOD_RANDOM, 1, 1, 1, TA_CLAMP, 0, 0, 0, 0, 64, 64, 1, 7, 0, 0, 100, 0, TS_N, 1, 59 },
	{ "mip_aniso_rand", TS_2D, TS_F32, TF_GRAD, TT_RANDOM, TC_GRAD_RANDOM, 1, 1, 1, TA_CLAMP, 0, 1, 0, 16, 64, 64, 1, 7, 0, 0, 100, 0, TS_N, 1, 60 },
	{ "mip_u8_tri", TS_2D, TS_U8, TF_LOD, TT_RANDOM, TC_LOD_RANDOM, 1, 1, 1, TA_CLAMP, 0, 1, 0, 0, 64, 64, 1, 7, 0, 0, 100, 0, 16384, 1, 61 },
	/* Cubemaps, layers, gathers. */
	{ "cube_pt", TS_CUBE, TS_F32, TF_PLAIN, TT_FACE, TC_CUBE_RANDOM, 0, 0, 1, TA_CLAMP, 0, 0, 0, 0, 8, 8, 6, 1, 0, 0, 0, 0, TS_N, 1, 70 },
	{ "cube_lin", TS_CUBE, TS_F32, TF_PLAIN, TT_RANDOM, TC_CUBE_RANDOM, 1, 0, 1, TA_CLAMP, 0, 0, 0, 0, 8, 8, 6, 1, 0, 0, 0, 0, 16384, 1, 71 },
	{ "cube_lin_seamless", TS_CUBE, TS_F32, TF_PLAIN, TT_RANDOM, TC_CUBE_RANDOM, 1, 0, 1, TA_CLAMP, 0, 0, 1, 0, 8, 8, 6, 1, 0, 0, 0, 0, 16384, 1, 72 },
	{ "layer1d_pt", TS_1DL, TS_F32, TF_PLAIN, TT_LAYER, TC_LAYER_RANDOM, 0, 0, 1, TA_CLAMP, 0, 0, 0, 0, 8, 1, 5, 1, 0, 0, 0, 0, 4096, 1, 73 },
	{ "layer2d_lin", TS_2DL, TS_F32, TF_PLAIN, TT_RANDOM, TC_LAYER_RANDOM, 1, 0, 1, TA_CLAMP, 0, 0, 0, 0, 16, 16, 4, 1, 0, 0, 0, 0, 16384, 1, 74 },
	{ "gather0", TS_2D, TS_F32X4, TF_GATHER0, TT_RANDOM, TC_RANDOM_WIDE, 0, 0, 1, TA_CLAMP, 0, 0, 0, 0, 16, 16, 1, 1, 0, 0, 0, 0, 16384, 4, 75 },
	{ "gather3", TS_2D, TS_F32X4, TF_GATHER3, TT_RANDOM, TC_RANDOM_WIDE, 0, 0, 1, TA_WRAP, 0, 0, 0, 0, 16, 16, 1, 1, 0, 0, 0, 0, 16384, 4, 76 },
	{ "gather1_u8", TS_2D, TS_U8X4, TF_GATHER1, TT_RANDOM, TC_RANDOM_WIDE, 0, 0, 1, TA_BORDER, 0, 0, 0, 0, 16, 16, 1, 1, 0, 0, 0, 0.5f, 16384, 4, 77 },
	/* Round 2: the weights as the filter applies them, single products
	 * and sums of two, gradients along chosen directions. */
	{ "r2_w1_f32", TS_1D, TS_F32X4, TF_PLAIN, TT_CORNERS, TC_WGRID1, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 2, 1, 1, 1, 0, 0, 0, 0, 256, 4, 100 },
	{ "r2_w1_u8", TS_1D, TS_U8X4, TF_PLAIN, TT_CORNERS, TC_WGRID1, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 2, 1, 1, 1, 0, 0, 0, 0, 256, 4, 101 },
	{ "r2_w2_f32", TS_2D, TS_F32X4, TF_PLAIN, TT_CORNERS, TC_WGRID2, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 2, 2, 1, 1, 0, 0, 0, 0, TS_N, 4, 102 },
	{ "r2_w2_u8", TS_2D, TS_U8X4, TF_PLAIN, TT_CORNERS, TC_WGRID2, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 2, 2, 1, 1, 0, 0, 0, 0, TS_N, 4, 103 },
	{ "r2_w2_s8", TS_2D, TS_S8X4, TF_PLAIN, TT_CORNERS, TC_WGRID2, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 2, 2, 1, 1, 0, 0, 0, 0, TS_N, 4, 104 },
	{ "r2_w2_f16", TS_2D, TS_F16X4, TF_PLAIN, TT_CORNERS, TC_WGRID2, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 2, 2, 1, 1, 0, 0, 0, 0, TS_N, 4, 105 },
	{ "r2_w3_f32_lo", TS_3D, TS_F32X4, TF_PLAIN, TT_CORNERS, TC_WGRID3, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 2, 2, 2, 1, 0, 0, 0, 0, TS_N, 4, 106 },
	{ "r2_w3_f32_hi", TS_3D, TS_F32X4, TF_PLAIN, TT_CORNERS_HI, TC_WGRID3, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 2, 2, 2, 1, 0, 0, 0, 0, TS_N, 4, 106 },
	{ "r2_w3_u8_lo", TS_3D, TS_U8X4, TF_PLAIN, TT_CORNERS, TC_WGRID3, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 2, 2, 2, 1, 0, 0, 0, 0, TS_N, 4, 107 },
	{ "r2_w3_u8_hi", TS_3D, TS_U8X4, TF_PLAIN, TT_CORNERS_HI, TC_WGRID3, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 2, 2, 2, 1, 0, 0, 0, 0, TS_N, 4, 107 },
	{ "r2_zx_f32", TS_2D, TS_F32, TF_PLAIN, TT_PAIRS_ZX, TC_PAIRS_ALLW, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 512, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 108 },
	{ "r2_gap_f32", TS_2D, TS_F32, TF_PLAIN, TT_PAIRS_GAP, TC_PAIRS_RANDW, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 65536, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 109 },
	{ "r2_rand_f32", TS_2D, TS_F32, TF_PLAIN, TT_RANDOM, TC_PAIRS_RANDW, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 65536, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 110 },
	{ "r2_zx_f16", TS_2D, TS_F16, TF_PLAIN, TT_PAIRS_ZX, TC_PAIRS_ALLW, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 512, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 111 },
	{ "r2_gap_f16", TS_2D, TS_F16, TF_PLAIN, TT_PAIRS_GAP, TC_PAIRS_RANDW, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 65536, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 112 },
	{ "r2_rand_s8", TS_2D, TS_S8, TF_PLAIN, TT_RANDOM, TC_PAIRS_RANDW, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 65536, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 113 },
	{ "r2_rand_u8", TS_2D, TS_U8, TF_PLAIN, TT_RANDOM, TC_PAIRS_RANDW, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 65536, 1, 1, 1, 0, 0, 0, 0, TS_N, 1, 114 },
	{ "r2_grad_x", TS_2D, TS_F32, TF_GRAD, TT_LEVEL, TC_GRAD_X, 1, 1, 1, TA_CLAMP, 0, 1, 0, 0, 64, 64, 1, 7, 0, 0, 100, 0, TS_N, 1, 115 },
	{ "r2_grad_dir", TS_2D, TS_F32, TF_GRAD, TT_LEVEL, TC_GRAD_DIR, 1, 1, 1, TA_CLAMP, 0, 1, 0, 0, 64, 64, 1, 7, 0, 0, 100, 0, TS_N, 1, 116 },
	{ "r2_grad_xy", TS_2D, TS_F32, TF_GRAD, TT_LEVEL, TC_GRAD_XY, 1, 1, 1, TA_CLAMP, 0, 1, 0, 0, 64, 64, 1, 7, 0, 0, 100, 0, TS_N, 1, 117 },
	{ "r2_grad_xy_aniso16", TS_2D, TS_F32, TF_GRAD, TT_LEVEL, TC_GRAD_XY, 1, 1, 1, TA_CLAMP, 0, 1, 0, 16, 64, 64, 1, 7, 0, 0, 100, 0, TS_N, 1, 118 },
	{ "r2_grad_xy_aniso4", TS_2D, TS_F32, TF_GRAD, TT_LEVEL, TC_GRAD_XY, 1, 1, 1, TA_CLAMP, 0, 1, 0, 4, 64, 64, 1, 7, 0, 0, 100, 0, TS_N, 1, 119 },
	{ "r2_grad_1d", TS_1D, TS_F32, TF_GRAD, TT_LEVEL, TC_GRAD_X, 1, 1, 1, TA_CLAMP, 0, 1, 0, 0, 256, 1, 1, 9, 0, 0, 100, 0, TS_N, 1, 120 },
	{ "r2_grad_x_opt", TS_2D, TS_F32, TF_GRAD, TT_LEVEL, TC_GRAD_X, 1, 1, 1, TA_CLAMP, 0, 0, 0, 0, 64, 64, 1, 7, 0, 0, 100, 0, TS_N, 1, 121 },
	{ "r2_lod_rand_opt", TS_2D, TS_F32, TF_LOD, TT_LEVEL, TC_LOD_RANDOM, 1, 1, 1, TA_CLAMP, 0, 0, 0, 0, 64, 64, 1, 7, 0, 0, 100, 0, TS_N, 1, 122 },
	/* Round 3: every 8-bit value against 0 and the top at every weight. */
	{ "r3_pairs_u8", TS_2D, TS_U8X4, TF_PLAIN, TT_PAIRS_8BIT, TC_PAIRS_ALLW, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 512, 1, 1, 1, 0, 0, 0, 0, TS_N, 4, 130 },
	{ "r3_pairs_srgb", TS_2D, TS_U8X4, TF_PLAIN, TT_PAIRS_8BIT, TC_PAIRS_ALLW, 1, 0, 0, TA_CLAMP, 1, 0, 0, 0, 512, 1, 1, 1, 0, 0, 0, 0, TS_N, 4, 131 },
	{ "r3_pairs_s8", TS_2D, TS_S8X4, TF_PLAIN, TT_PAIRS_8BIT, TC_PAIRS_ALLW, 1, 0, 0, TA_CLAMP, 0, 0, 0, 0, 512, 1, 1, 1, 0, 0, 0, 0, TS_N, 4, 132 },
};

#define TS_COUNT (sizeof(ts_sets) / sizeof(ts_sets[0]))

/* Stateless random bits: value @j of sample @i of a set. */
static inline uint64_t ts_rand(uint32_t seed, uint64_t i, uint32_t j)
{
	uint64_t z = ((uint64_t)seed << 40) ^ (i << 8) ^ j;

	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A float in [0, 1) with 24 random bits. */
static inline float ts_u01(uint32_t seed, uint64_t i, uint32_t j)
{
	return (float)(ts_rand(seed, i, j) >> 40) * (1.0f / 16777216.0f);
}

static inline float ts_bits_float(uint32_t u)
{
	float f;

	memcpy(&f, &u, 4);
	return f;
}

static inline uint32_t ts_float_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, 4);
	return u;
}

static inline int ts_fmt_bytes(int fmt)
{
	switch (fmt) {
	case TS_F32: case TS_U8X4: case TS_S8X4: return 4;
	case TS_F16X4: return 8;
	case TS_F16: case TS_U16: case TS_S16: return 2;
	case TS_U8: case TS_S8: return 1;
	default: return 16;
	}
}

/* Texels of mip level @l: its width, height and depth. */
static inline void ts_level_size(const struct ts_set *s, int l, int *w,
				 int *h, int *d)
{
	*w = s->w >> l > 0 ? s->w >> l : 1;
	*h = s->h >> l > 0 ? s->h >> l : 1;
	*d = s->d;
	if (s->dim == TS_3D)
		*d = s->d >> l > 0 ? s->d >> l : 1;
}

/*
 * Writes texel @x, @y, @z (z: depth, layer or face) of level @l to @out,
 * ts_fmt_bytes(fmt) bytes as the array holds them.
 */
static inline void ts_texel(const struct ts_set *s, int l, int x, int y,
			    int z, unsigned char *out)
{
	int w, h, d, k, nb = ts_fmt_bytes(s->fmt);
	uint64_t idx;
	float v = 0;

	ts_level_size(s, l, &w, &h, &d);
	idx = ((uint64_t)z * h + y) * w + x;
	switch (s->texels) {
	case TT_ALT:
		if (s->fmt == TS_U8) {
			out[0] = x & 1 ? 255 : 0;
			return;
		}
		v = (float)(x & 1);
		break;
	case TT_INDEX: v = (float)x; break;
	case TT_INDEX1: v = (float)(x + 1); break;
	case TT_LEVEL: v = (float)l; break;
	case TT_FACE: v = (float)(z * 64 + y * 8 + x); break;
	case TT_LAYER: v = (float)(z * 100 + y * w + x); break;
	case TT_RAW:
		for (k = 0; k < nb; k++)
			out[k] = (unsigned char)(x >> (nb == 4 ? 0 : 8 * k));
		return;
	case TT_CORNERS:
	case TT_CORNERS_HI:
		memset(out, 0, nb);
		if (s->dim == TS_3D && (z & 1) != (s->texels == TT_CORNERS_HI))
			return;
		k = (y & 1) * 2 + (x & 1);
		switch (s->fmt) {
		case TS_F32X4: v = 1.0f; memcpy(out + 4 * k, &v, 4); break;
		case TS_U8X4: out[k] = 255; break;
		case TS_S8X4: out[k] = 127; break;
		case TS_F16X4: out[2 * k + 1] = 0x3c; break;
		}
		return;
	case TT_PAIRS_ZX:
	case TT_PAIRS_GAP: {
		uint64_t k2 = (uint64_t)x >> 1;
		uint64_t r = ts_rand(s->seed, k2, 200 + (x & 1));
		int zero = s->texels == TT_PAIRS_ZX && (int)(x & 1) == (int)(k2 & 1);
		int gap = s->texels == TT_PAIRS_GAP && (x & 1) ?
			  (int)(k2 % (s->fmt == TS_F16 ? 12 : 32)) : 0;

		if (s->fmt == TS_F16) {
			uint32_t hb = zero ? 0 : (uint32_t)(r >> 63) << 15 |
				      (uint32_t)(15 - gap) << 10 | ((uint32_t)r & 0x3ff);

			out[0] = (unsigned char)hb;
			out[1] = (unsigned char)(hb >> 8);
			return;
		}
		v = zero ? 0.0f : ts_bits_float((uint32_t)(r >> 63) << 31 |
					       (uint32_t)(127 - gap) << 23 |
					       ((uint32_t)r & 0x7fffff));
		break;
	}
	case TT_PAIRS_8BIT: {
		int kk = x >> 1, top = s->fmt == TS_S8X4 ? 127 : 255;
		int vv = s->fmt == TS_S8X4 ? kk - 128 : kk;
		int t4[2][4] = { { vv, 0, top, vv }, { 0, vv, vv, top } };

		for (k = 0; k < 4; k++)
			out[k] = (unsigned char)t4[x & 1][k];
		return;
	}
	case TT_RANDOM:
		idx += (uint64_t)l << 32;
		if (s->fmt == TS_F32) {
			uint64_t r = ts_rand(s->seed, idx, 100);
			/* sign, exponent 2^-8..2^8, mantissa */
			uint32_t e = 127 - 8 + (uint32_t)((r >> 32) % 17);

			v = ts_bits_float((uint32_t)(r >> 63) << 31 | e << 23 |
					  ((uint32_t)r & 0x7fffff));
			break;
		}
		if (s->fmt == TS_F32X4) {
			for (k = 0; k < 4; k++) {
				float c = ts_u01(s->seed, idx, 100 + k);

				memcpy(out + 4 * k, &c, 4);
			}
			return;
		}
		if (s->fmt == TS_F16) {
			uint64_t r = ts_rand(s->seed, idx, 100);
			/* finite halves, exponent field 5..25 */
			uint32_t e = 5 + (uint32_t)((r >> 20) % 21);
			uint32_t hb = (uint32_t)(r >> 63) << 15 | e << 10 |
				      ((uint32_t)r & 0x3ff);

			out[0] = (unsigned char)hb;
			out[1] = (unsigned char)(hb >> 8);
			return;
		}
		for (k = 0; k < nb; k++)
			out[k] = (unsigned char)(ts_rand(s->seed, idx, 100) >> (8 * k));
		return;
	}
	(void)idx;
	memcpy(out, &v, 4);
}

/* Levels of the set: 1 unless mipmapped. */
static inline int ts_levels(const struct ts_set *s)
{
	return s->levels > 1 ? s->levels : 1;
}

/* The float @k ulps away from @x (k of either sign). */
static inline float ts_nudge(float x, int k)
{
	uint32_t u = ts_float_bits(x);

	if (x == 0 && k < 0)
		return -ts_bits_float((uint32_t)-k);
	if (x < 0)
		k = -k;
	return ts_bits_float(u + (uint32_t)k);
}

static const float ts_specials[] = {
	0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 0.25f, 1e30f, -1e30f,
	1.0e-45f, -1.0e-45f, 2.0f, -2.0f, 0.999999940f, 1.00000012f, 3.0f,
};
#define TS_NSPECIAL (sizeof(ts_specials) / sizeof(ts_specials[0]))

/*
 * The coordinates of sample @i: c[0..2] x, y, z; c[3] the layer; c[4] the
 * lod; c[5..7] the gradient along x, c[8..10] along y.
 */
static inline void ts_coords(const struct ts_set *s, int i, float c[12])
{
	const int axes = s->dim == TS_1D || s->dim == TS_1DL ? 1 :
			 s->dim == TS_2D || s->dim == TS_2DL ? 2 : 3;
	const float size[3] = { (float)s->w, (float)s->h, (float)s->d };
	int a, k;

	memset(c, 0, 12 * sizeof(float));
	switch (s->coords) {
	case TC_SWEEP_UNNORM:
		/* [1, 5) by 2^-13, [4096, 4104) by 2^-11, [-2, 2) by 2^-12 */
		if (i < 32768)
			c[0] = 1.0f + (float)i / 8192.0f;
		else if (i < 49152)
			c[0] = 4096.0f + (float)(i - 32768) / 2048.0f;
		else
			c[0] = -2.0f + (float)(i - 49152) / 4096.0f;
		break;
	case TC_SWEEP_NORM:
		/* 2^-25 steps from 0.25, then random */
		if (i < 32768)
			c[0] = 0.25f + (float)i / 33554432.0f;
		else
			c[0] = ts_u01(s->seed, i, 0);
		break;
	case TC_EDGES_NORM:
		k = (int)(ts_rand(s->seed, i >> 4, 0) % (uint64_t)(s->w + 1));
		c[0] = ts_nudge((float)k / (float)s->w, (i & 15) - 8);
		break;
	case TC_EDGES_UNNORM:
		k = (int)(ts_rand(s->seed, i >> 4, 0) % (uint64_t)(s->w + 1));
		c[0] = ts_nudge((float)k, (i & 15) - 8);
		break;
	case TC_CENTERS:
		c[0] = (float)i + 0.5f;
		break;
	case TC_RANDOM_IN:
		for (a = 0; a < axes; a++)
			c[a] = 0.5f + (size[a] - 1.0f) * ts_u01(s->seed, i, a);
		break;
	case TC_RANDOM_NORM:
		for (a = 0; a < axes; a++)
			c[a] = ts_u01(s->seed, i, a);
		break;
	case TC_RANDOM_WIDE:
	case TC_RANDOM_WIDE_UN:
		for (a = 0; a < axes; a++) {
			float scale = s->coords == TC_RANDOM_WIDE ? 1.0f : size[a];

			if (i < (int)(TS_NSPECIAL * TS_NSPECIAL))
				c[a] = ts_specials[a ? i / TS_NSPECIAL : i % TS_NSPECIAL] * scale;
			else
				c[a] = (6.0f * ts_u01(s->seed, i, a) - 3.0f) * scale;
		}
		break;
	case TC_ALT_WEIGHTS:
		c[0] = 1.5f + (float)i / 1024.0f;
		break;
	case TC_LOD_SWEEP:
		c[0] = c[1] = c[2] = 0.5f;
		c[4] = -2.0f + (float)i / 1024.0f;
		break;
	case TC_LOD_RANDOM:
		for (a = 0; a < axes; a++)
			c[a] = ts_u01(s->seed, i, a);
		c[4] = 3.0f * ts_u01(s->seed, i, 3);
		break;
	case TC_GRAD_RANDOM:
		for (a = 0; a < axes; a++) {
			uint64_t r = ts_rand(s->seed, i, 10 + a);
			uint64_t q = ts_rand(s->seed, i, 20 + a);
			/* magnitudes 2^-14..2^2 in normalized units, or 0 */
			float m = ts_bits_float((uint32_t)(127 - 14 + (r >> 32) % 17) << 23 |
						((uint32_t)r & 0x7fffff));
			float n = ts_bits_float((uint32_t)(127 - 14 + (q >> 32) % 17) << 23 |
						((uint32_t)q & 0x7fffff));

			c[a] = ts_u01(s->seed, i, a);
			c[5 + a] = (r >> 8 & 15) == 0 ? 0.0f : (r & 1 ? -m : m);
			c[8 + a] = (q >> 8 & 15) == 0 ? 0.0f : (q & 1 ? -n : n);
		}
		break;
	case TC_CUBE_RANDOM:
		if (i < 64) {
			/* ties between faces: each component -1, 0 or 1 */
			for (a = 0; a < 3; a++) {
				k = i;
				for (int b = 0; b < a; b++)
					k /= 4;
				c[a] = (float)(k % 4 == 3 ? 0 : k % 4 - 1) *
				       (k % 4 == 3 ? 1.0f : 1.0f);
			}
			if (c[0] == 0 && c[1] == 0 && c[2] == 0)
				c[0] = 0.5f;
			break;
		}
		for (a = 0; a < 3; a++)
			c[a] = 2.0f * ts_u01(s->seed, i, a) - 1.0f;
		break;
	case TC_WGRID1:
		c[0] = 0.5f + (float)(i & 255) / 256.0f;
		break;
	case TC_WGRID2:
		c[0] = 0.5f + (float)(i & 255) / 256.0f;
		c[1] = 0.5f + (float)((i >> 8) & 255) / 256.0f;
		break;
	case TC_WGRID3:
		for (a = 0; a < 3; a++)
			c[a] = 0.5f + (float)(ts_rand(s->seed, i, a) & 255) / 256.0f;
		break;
	case TC_PAIRS_ALLW:
		c[0] = (float)(2 * (i >> 8)) + 0.5f + (float)(i & 255) / 256.0f;
		c[1] = 0.5f;
		break;
	case TC_PAIRS_RANDW:
		c[0] = (float)(2 * (i >> 1)) + 0.5f +
		       (float)(ts_rand(s->seed, i, 0) & 255) / 256.0f;
		c[1] = 0.5f;
		break;
	case TC_GRAD_X:
		c[0] = c[1] = c[2] = 0.5f;
		/* g in [2^-9, 2^-1): 8 binades of 8192 steps */
		c[5] = (1.0f + (float)(i & 8191) / 8192.0f) *
		       ts_bits_float((uint32_t)(127 - 9 + (i >> 13)) << 23);
		break;
	case TC_GRAD_DIR: {
		float t = (float)(i & 16383) / 16384.0f;

		c[0] = c[1] = c[2] = 0.5f;
		c[5] = (1.0f - t) * 0.03125f * (i >> 14 & 1 ? -1.0f : 1.0f);
		c[6] = t * 0.03125f * (i >> 15 & 1 ? -1.0f : 1.0f);
		break;
	}
	case TC_GRAD_XY: {
		uint64_t r = ts_rand(s->seed, i, 30), q = ts_rand(s->seed, i, 31);

		c[0] = c[1] = c[2] = 0.5f;
		/* magnitudes 2^-9..2^-3 */
		c[5] = ts_bits_float((uint32_t)(r >> 63) << 31 |
				     (uint32_t)(127 - 9 + (r >> 32) % 7) << 23 |
				     ((uint32_t)r & 0x7fffff));
		c[9] = ts_bits_float((uint32_t)(q >> 63) << 31 |
				     (uint32_t)(127 - 9 + (q >> 32) % 7) << 23 |
				     ((uint32_t)q & 0x7fffff));
		break;
	}
	case TC_LAYER_RANDOM:
		for (a = 0; a < axes; a++)
			c[a] = ts_u01(s->seed, i, a);
		c[3] = (float)((int)(ts_rand(s->seed, i, 5) % (uint64_t)(s->d + 4)) - 2);
		break;
	}
}

#endif /* VGPU_H100_TEX_SETS_H */
