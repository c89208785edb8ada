// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The texture unit, as an H100's samples (measured on the GH100 chip with
 * tests/unit/data/h100_tex.cu, and held to its results by
 * tests/unit/test_tex_h100.c):
 *
 * - Coordinates become fixed point: a normalized one is cut (toward -inf)
 *   to 21 fractional bits before it is scaled by the size; linear
 *   filtering rounds the texel-space coordinate minus one half to 8
 *   fractional bits, ties up, the fraction being the weight (0..256 in
 *   1/256). Subnormal coordinates are zero. Wrap and mirror apply only to
 *   normalized coordinates; unnormalized ones clamp.
 * - A 1D texture is a 2D one of one row sampled at y = 0: linear filtering
 *   blends that row half and half with the row above, which is the row
 *   itself unless the y address mode makes it border.
 * - The corner weights are 8-bit: a level's weight is split along x
 *   (the upper texel's share rounded, ties up), then each column along y
 *   (the share of the corner on the diagonal rounded), z first where
 *   there is one, the levels of a mipmap before all.
 * - 8- and 16-bit integers filter as 16-bit fixed point (unsigned 8-bit
 *   v as v * 257, signed ones by replicating the magnitude's bits); the
 *   sum of the weighted texels is rounded, ties up, to 16 bits and read
 *   as v / 65535 (v / 32767, at least -1 signed), rounded to nearest.
 * - Floats filter in a 28-bit window: each texel is cut toward zero to
 *   the bits within 28 of the top of the largest one weighed, the sum of
 *   the weighted texels is exact, and the result is rounded to nearest,
 *   ties away from zero. Half floats are read as floats, in a 15-bit
 *   window, and the result rounded to a half. Decoded sRGB colour (a
 *   float of at most 8 significant bits) filters in an 8-bit window and
 *   is rounded to a half too.
 * - Seamless cubes filter across the faces' edges: a tap past an edge is
 *   the texel of the next face that the direction through its centre
 *   meets; at a corner of the cube the missing fourth texel's weight goes
 *   a third (rounded) to each texel across an edge, the rest to the one on
 *   the face.
 * - Levels of detail are in 1/256: the level and the bias are each cut
 *   to that grid, summed and clamped; point mip filtering picks the
 *   nearest level, ties up.
 */
#include "tex.h"

/* The most texels one fetch blends: 2 x 2 x 2 in each of two levels. */
#define TEX_TAPS 16

static const u8 tex_chan_bytes[VGPU_TEXF_COUNT] = { 1, 1, 2, 2, 4, 4, 2, 4 };

u32 vgpu_tex_texel_bytes(const struct vgpu_tex_desc *d)
{
	return (u32)tex_chan_bytes[d->format] * d->channels;
}

/* Axes of a shape that coordinates address, layers and faces aside. */
static u32 tex_axes(u32 kind)
{
	switch (kind) {
	case VGPU_TEXK_2D:
	case VGPU_TEXK_2D_LAYERED:
	case VGPU_TEXK_CUBE:
	case VGPU_TEXK_CUBE_LAYERED:
		return 2;
	case VGPU_TEXK_3D:
		return 3;
	default:
		return 1;
	}
}

bool vgpu_tex_desc_ok(const struct vgpu_tex_desc *d)
{
	u32 i, bpe;

	if (d->magic != VGPU_TEX_MAGIC || d->kind >= VGPU_TEXK_COUNT ||
	    d->format >= VGPU_TEXF_COUNT ||
	    (d->channels != 1 && d->channels != 2 && d->channels != 4) ||
	    d->levels < 1 || d->levels > 32 || (d->flags & ~VGPU_TEX_FLAGS) ||
	    d->max_aniso > 16)
		return false;
	for (i = 0; i < 3; i++)
		if (d->address[i] > VGPU_TEXA_BORDER)
			return false;
	for (i = 0; i < 8; i++)
		if (d->reserved[i])
			return false;
	/* Sizes that keep every offset well inside 64 bits. */
	if (!d->width || !d->height || !d->depth || d->width > (1U << 20) ||
	    d->height > (1U << 20) || d->depth > (1U << 16))
		return false;
	switch (d->kind) {
	case VGPU_TEXK_BUFFER:
		if (d->width > (1U << 27))
			return false;
		fallthrough;
	case VGPU_TEXK_1D:
	case VGPU_TEXK_1D_LAYERED:
		if (d->height != 1)
			return false;
		break;
	case VGPU_TEXK_CUBE:
		if (d->depth != 6)
			return false;
		fallthrough;
	case VGPU_TEXK_CUBE_LAYERED:
		if (d->width != d->height || d->depth % 6)
			return false;
		break;
	default:
		break;
	}
	if ((d->kind == VGPU_TEXK_BUFFER || d->kind == VGPU_TEXK_1D ||
	     d->kind == VGPU_TEXK_2D) && d->depth != 1)
		return false;
	if (d->kind == VGPU_TEXK_BUFFER && d->levels != 1)
		return false;
	/* Float filtering of 32-bit integers, or reading them normalized. */
	if ((d->format == VGPU_TEXF_U32 || d->format == VGPU_TEXF_S32) &&
	    (d->flags & (VGPU_TEX_READ_NORM | VGPU_TEX_LINEAR | VGPU_TEX_SRGB)))
		return false;
	bpe = vgpu_tex_texel_bytes(d);
	if (d->pitch < (u64)d->width * bpe || d->pitch > (1ULL << 40) ||
	    (d->levels > 1 && d->pitch != (u64)d->width * bpe))
		return false;
	return true;
}

/* --- numbers ----------------------------------------------------------- */

static u32 tex_bitlen(u64 v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

/*
 * The value @v * 2^@e rounded to @bits significant bits (24: an f32, 11:
 * an f16, subnormals of either on their own grid), ties away from zero
 * (the filter's rounding), as f32 bits.
 */
static u32 tex_f32_rna_bits(s64 v, s32 e, s32 bits)
{
	u32 sign = v < 0 ? 0x80000000U : 0;
	u64 m = v < 0 ? -(u64)v : (u64)v;
	s32 sh, lsb_min = bits == 24 ? -149 : -24, x, field;

	if (!m)
		return 0;
	sh = (s32)tex_bitlen(m) - bits;
	if (e + sh < lsb_min)
		sh = lsb_min - e;
	if (sh > 0) {
		u64 half = sh > 64 ? 0 : m >> (sh - 1) & 1;

		m = sh > 63 ? 0 : (m >> sh) + half;
	} else {
		m <<= -sh;
	}
	if (!m)
		return sign;
	x = e + sh;		/* the value is m * 2^x, m < 2^(bits + 1) */
	/* As an f32: 24 significant bits, or subnormal. */
	while (m < (1ULL << 23) && x > -149) {
		m <<= 1;
		x--;
	}
	while (m >> 24) {
		m >>= 1;	/* exact: only trailing zeros go */
		x++;
	}
	field = x + 150;
	if (field >= 255 || (bits < 24 && x + 23 > 15))
		return sign | 0x7f800000U;
	if (m < (1ULL << 23))
		return sign | (u32)m;	/* f32 subnormal */
	return sign | (u32)field << 23 | (u32)(m & 0x7fffff);
}

static u32 tex_f32_rna(s64 v, s32 e)
{
	return tex_f32_rna_bits(v, e, 24);
}

/* The f32 nearest @n / @d, ties to even (0 < @d < 2^20, @n < 2^20). */
static u32 tex_f32_div(u32 n, u32 d)
{
	u64 q, r;
	s32 k;
	u32 m;

	if (!n)
		return 0;
	/* Scale so that the quotient has 25 bits: one past the mantissa. */
	k = 25 + (s32)tex_bitlen(d) - (s32)tex_bitlen(n);
	q = ((u64)n << k) / d;
	if (q >> 25) {
		k--;
		q = ((u64)n << k) / d;
	} else if (!(q >> 24)) {
		k++;
		q = ((u64)n << k) / d;
	}
	r = ((u64)n << k) - q * d;
	m = (u32)(q >> 1);
	if ((q & 1) && (r || (m & 1)))
		m++;
	k--;			/* the value is m * 2^-k */
	if (m >> 24) {
		m >>= 1;
		k--;
	}
	return (u32)(150 - k) << 23 | (m & 0x7fffff);
}

/* An f16's bits as f32 bits, exactly (NaN payloads kept). */
static u32 tex_f16_to_f32(u32 h)
{
	u32 sign = (h & 0x8000) << 16, e = h >> 10 & 0x1f, m = h & 0x3ff;

	if (e == 0x1f)
		return sign | 0x7f800000U | m << 13;
	if (!e) {
		if (!m)
			return sign;
		e = 1;
		while (!(m & 0x400)) {
			m <<= 1;
			e--;
		}
		m &= 0x3ff;
	}
	return sign | (e + 112) << 23 | m << 13;
}

/* --- coordinates ------------------------------------------------------- */

/* |x| as fixed point beyond which every address mode settles. */
#define TEX_FAR 0x10000000000LL	/* 2^40 */

/*
 * floor(x * 2^@k + @half / 2) for the f32 @x (subnormals as 0), saturated
 * to +-TEX_FAR * 2^@k.
 */
static s64 tex_floor_scaled(u32 x, s32 k, bool half)
{
	u32 e = x >> 23 & 0xff;
	s64 m = (s64)((x & 0x7fffff) | 0x800000), v;
	s32 q = (s32)e - 150 + k;
	s64 lim = TEX_FAR << k;

	if (!e || (e == 0xff && (x & 0x7fffff)))
		return 0;	/* zero, subnormal or NaN */
	if (x >> 31)
		m = -m;
	if (e == 0xff || q > 62 - 24)
		return x >> 31 ? -lim : lim;
	if (q >= 0) {
		v = m << q;
	} else if (q >= -62) {
		v = m + (half ? 1LL << (-q - 1) : 0);
		v >>= -q;	/* arithmetic: floor */
	} else {
		v = m < 0 && !half ? -1 : 0;
	}
	if (v > lim)
		v = lim;
	if (v < -lim)
		v = -lim;
	return v;
}

/*
 * One axis of @n texels, coordinate @x: the first texel in *@i and, for
 * linear filtering, the weight of the next in *@w (0..255).
 */
static void tex_axis(u32 x, u32 n, bool norm, bool linear, u32 mode,
		     s64 *i, u32 *w)
{
	s64 t;

	if (norm) {
		/* 21 fractional bits, then scaled by the size. */
		t = tex_floor_scaled(x, 21, false);
		if (mode == VGPU_TEXA_WRAP)
			t &= (1LL << 21) - 1;
		else if (mode == VGPU_TEXA_MIRROR)
			t &= (1LL << 22) - 1;
		else if (t > (4LL << 21))
			t = 4LL << 21;
		else if (t < -(4LL << 21))
			t = -(4LL << 21);
		t *= n;		/* 21 fractional bits */
		if (linear) {
			t = ((t + (1LL << 12)) >> 13) - 128;
			*i = t >> 8;
			*w = (u32)(t & 255);
		} else {
			*i = t >> 21;
			*w = 0;
		}
		return;
	}
	if (linear) {
		t = tex_floor_scaled(x, 8, true) - 128;
		*i = t >> 8;
		*w = (u32)(t & 255);
	} else {
		*i = tex_floor_scaled(x, 0, false);
		*w = 0;
	}
}

/* Texel @i of an axis of @n under @mode: its index, or -1 for border. */
static s64 tex_address(s64 i, u32 n, u32 mode, bool norm)
{
	s64 p;

	if (!norm && (mode == VGPU_TEXA_WRAP || mode == VGPU_TEXA_MIRROR))
		mode = VGPU_TEXA_CLAMP;
	switch (mode) {
	case VGPU_TEXA_WRAP:
		p = i % n;
		return p < 0 ? p + n : p;
	case VGPU_TEXA_MIRROR:
		p = i % (2 * (s64)n);
		if (p < 0)
			p += 2 * (s64)n;
		return p >= n ? 2 * (s64)n - 1 - p : p;
	case VGPU_TEXA_BORDER:
		return i < 0 || i >= n ? -1 : i;
	default:
		return i < 0 ? 0 : i >= n ? n - 1 : i;
	}
}

/* --- taps: the texels one fetch blends, with their weights -------------- */

/**
 * struct tex_tap - one texel to blend.
 * @level: its mip level.
 * @pos: x, y and z (the slice: depth, layer or face); -1 for border.
 * @w: its weight in 1/256 (the weights of a fetch add up to 256).
 */
struct tex_tap {
	u32 level;
	s64 pos[3];
	u32 w;
};

/* One level's axes: where each starts and the upper texel's weight. */
struct tex_at {
	s64 i[3];
	u32 w[3];
	u32 n[3];
	bool border;	/* some axis is out (border mode) */
};

/* a * b / 256, rounded, ties up. */
static u32 tex_rh(u32 a, u32 b)
{
	return (a * b + 128) >> 8;
}

/*
 * Splits weight @p of level @l over the texels of @at: along z first,
 * then x, then y (the share of the corner on the diagonal rounded).
 */
static u32 tex_split(const struct tex_at *at, u32 l, u32 axes, u32 p,
		     s64 slice, struct tex_tap *t)
{
	u32 zs = axes == 3 ? 2 : 1, z, x, y, nt = 0;

	for (z = 0; z < zs; z++) {
		u32 pz = axes < 3 ? p : z ? tex_rh(p, at->w[2]) : p - tex_rh(p, at->w[2]);
		u32 hx = tex_rh(pz, at->w[0]);

		for (x = 0; x < 2; x++) {
			u32 col = x ? hx : pz - hx;
			u32 diag = tex_rh(col, x ? at->w[1] : 256 - at->w[1]);

			for (y = 0; y < 2; y++) {
				u32 w = x == y ? diag : col - diag;

				if (!w)
					continue;
				t[nt].level = l;
				t[nt].pos[0] = at->i[0] + x;
				t[nt].pos[1] = at->i[1] + y;
				t[nt].pos[2] = axes == 3 ? at->i[2] + z : slice;
				t[nt].w = w;
				nt++;
			}
		}
	}
	return nt;
}

/* --- texels -------------------------------------------------------------- */

/* A texel's channels: f32 bits, 16-bit fixed point, or integers. */
struct tex_texel {
	u32 c[4];
};

/* Byte offset of level @l from level 0, and its sizes. */
static u64 tex_level(const struct vgpu_tex_desc *d, u32 l, u32 n[3])
{
	u64 off = 0, bpe = vgpu_tex_texel_bytes(d);
	u32 k, w, h, s;

	for (k = 0; ; k++) {
		w = d->width >> k ? d->width >> k : 1;
		h = d->height >> k ? d->height >> k : 1;
		s = d->depth;
		if (d->kind == VGPU_TEXK_3D)
			s = d->depth >> k ? d->depth >> k : 1;
		if (k == l)
			break;
		off += (u64)w * h * s * bpe;
	}
	n[0] = w;
	n[1] = h;
	n[2] = s;
	return off;
}

/* Reads texel @x, @y, slice @z of level @l: false on a fault. */
static bool tex_read(const struct vgpu_tex_desc *d, u32 l, u64 x, u64 y,
		     u64 z, vgpu_tex_read_fn read, void *ctx, u8 *buf,
		     u64 *fault_va)
{
	u32 n[3], bpe = vgpu_tex_texel_bytes(d);
	u64 off = tex_level(d, l, n), pitch = l ? (u64)n[0] * bpe : d->pitch;
	u64 va = d->addr + off + (z * n[1] + y) * pitch + x * bpe;

	if (!read(ctx, va, buf, bpe)) {
		*fault_va = va;
		return false;
	}
	return true;
}

static u32 tex_le(const u8 *p, u32 n)
{
	u32 v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

/*
 * sRGB to linear, as an H100 decodes each 8-bit value (read back through
 * point sampling): 1.0 is 65536, and every value has at most 8
 * significant bits.
 */
static const u32 tex_srgb[256] = {
	    0,    20,    40,    60,    80,   100,   120,   140,
	  160,   180,   200,   220,   240,   264,   288,   312,
	  340,   368,   396,   428,   460,   492,   524,   560,
	  600,   636,   676,   720,   760,   804,   852,   896,
	  944,  1000,  1048,  1104,  1160,  1216,  1272,  1328,
	 1392,  1456,  1520,  1584,  1648,  1720,  1792,  1864,
	 1936,  2016,  2096,  2176,  2256,  2336,  2416,  2496,
	 2592,  2688,  2768,  2864,  2960,  3056,  3152,  3264,
	 3360,  3456,  3584,  3680,  3776,  3904,  4000,  4128,
	 4256,  4352,  4480,  4608,  4736,  4864,  4992,  5120,
	 5248,  5408,  5536,  5664,  5824,  5952,  6112,  6240,
	 6400,  6560,  6688,  6848,  7008,  7168,  7328,  7488,
	 7680,  7808,  8000,  8192,  8320,  8512,  8704,  8896,
	 9088,  9280,  9472,  9664,  9856, 10048, 10240, 10432,
	10624, 10816, 11008, 11264, 11456, 11648, 11904, 12096,
	12288, 12544, 12736, 12992, 13184, 13440, 13696, 13888,
	14144, 14400, 14656, 14848, 15104, 15360, 15616, 15872,
	16128, 16384, 16640, 16896, 17152, 17408, 17664, 18048,
	18304, 18560, 18816, 19072, 19456, 19712, 19968, 20224,
	20608, 20864, 21120, 21504, 21760, 22144, 22400, 22784,
	23040, 23296, 23680, 24064, 24320, 24704, 24960, 25344,
	25600, 25984, 26368, 26752, 27008, 27392, 27776, 28032,
	28416, 28800, 29184, 29568, 29952, 30336, 30720, 30976,
	31488, 31744, 32256, 32512, 33024, 33280, 33792, 34048,
	34560, 35072, 35328, 35840, 36096, 36608, 37120, 37376,
	37888, 38400, 38656, 39168, 39680, 39936, 40448, 40960,
	41216, 41728, 42240, 42752, 43264, 43520, 44032, 44544,
	45056, 45568, 45824, 46336, 46848, 47360, 47872, 48384,
	48896, 49408, 49920, 50432, 50944, 51456, 51968, 52480,
	52992, 53504, 54016, 54528, 55040, 55552, 56064, 56576,
	57088, 57600, 58112, 58624, 59392, 59904, 60416, 60928,
	61440, 61952, 62464, 62976, 64000, 64512, 65024, 65536,
};

/* Signed 8-bit to 16-bit fixed point: the magnitude's bits repeated. */
static s32 tex_s8_fix(s32 v)
{
	u32 m = v < 0 ? -v : v;

	if (m > 127)
		return -32768;
	m = m << 8 | m << 1 | m >> 6;
	return v < 0 ? -(s32)m : (s32)m;
}

/*
 * Channel @c of the raw texel @p as the filter takes it: f32 bits for
 * floats, 16-bit fixed point for 8/16-bit integers read normalized, the
 * integer otherwise.
 */
static u32 tex_chan(const struct vgpu_tex_desc *d, const u8 *p, u32 c)
{
	u32 cb = tex_chan_bytes[d->format], v = tex_le(p + c * cb, cb);
	bool norm = d->flags & VGPU_TEX_READ_NORM;

	switch (d->format) {
	case VGPU_TEXF_U8:
		/* sRGB colour decodes to a float, which filters as floats do. */
		if (norm && (d->flags & VGPU_TEX_SRGB) && c < 3)
			return tex_f32_rna(tex_srgb[v], -16);
		return norm ? v * 257 : v;
	case VGPU_TEXF_S8:
		return norm ? (u32)tex_s8_fix((__s8)v) : (u32)(s32)(__s8)v;
	case VGPU_TEXF_S16:
		return (u32)(s32)(__s16)v;
	case VGPU_TEXF_F16:
		return tex_f16_to_f32(v);
	default:
		return v;
	}
}

/* Whether channels of @d filter as floats (else as 16-bit fixed point). */
static bool tex_float(const struct vgpu_tex_desc *d)
{
	return d->format == VGPU_TEXF_F16 || d->format == VGPU_TEXF_F32;
}

/* Whether channel @c of @d holds a float once read (sRGB colour too). */
static bool tex_float_chan(const struct vgpu_tex_desc *d, u32 c)
{
	return tex_float(d) || (c < 3 && (d->flags & VGPU_TEX_SRGB) &&
				(d->flags & VGPU_TEX_READ_NORM) &&
				d->format == VGPU_TEXF_U8);
}

/* The border colour's channel @c, as tex_chan() gives channels. */
static u32 tex_border(const struct vgpu_tex_desc *d, u32 c)
{
	u32 b = d->border[c];

	if (tex_float(d) || !(d->flags & VGPU_TEX_READ_NORM))
		return b;
	/* Normalized integers: the colour as the format holds it. */
	switch (d->format) {
	case VGPU_TEXF_U8:
		if (tex_float_chan(d, c))
			return tex_f32_rna(tex_srgb[b & 0xff], -16);
		return (b & 0xff) * 257;
	case VGPU_TEXF_S8:
		return (u32)tex_s8_fix((__s8)b);
	default:
		return b;
	}
}

/* --- filtering --------------------------------------------------------- */

/*
 * The filter's float blend of @n values @v with weights @w (sum 256),
 * taken in groups (@g: a z plane of a 3D texture, a mip level) that each
 * cut their texels to a window of @win bits of their own; the groups'
 * sums add exactly, and the result keeps @bits significant bits.
 */
static u32 tex_blend_f32(const u32 *v, const u32 *w, const u8 *g, u32 n,
			 s32 win, s32 bits)
{
	s32 top[4] = { -1, -1, -1, -1 }, e, hi = -1;
	s64 gsum[4] = { 0, 0, 0, 0 }, sum = 0;
	u32 k;

	for (k = 0; k < n; k++) {
		e = v[k] >> 23 & 0xff;
		if (w[k] && e == 0xff)
			return (v[k] & 0x7fffff) ? 0x7fffffffU : v[k];
		if (w[k] && e && e > top[g[k]])
			top[g[k]] = e;
	}
	for (k = 0; k < 4; k++)
		hi = top[k] > hi ? top[k] : hi;
	if (hi < 0)
		return 0;
	for (k = 0; k < n; k++) {
		s64 m;
		s32 sh;

		e = v[k] >> 23 & 0xff;
		if (!w[k] || !e)
			continue;
		/* In units of 2^(top - 126 - win). */
		m = (v[k] & 0x7fffff) | 0x800000;
		sh = e - top[g[k]] + win - 24;
		m = sh >= 0 ? m << sh : sh > -40 ? m >> -sh : 0;
		gsum[g[k]] += (v[k] >> 31 ? -m : m) * w[k];
	}
	/*
	 * The groups' sums meet at the largest one's units and two bits
	 * below, floored. (This fits all but 0.05% of an H100's 3D and
	 * trilinear float results; the rest differ in the last bit.)
	 */
	for (k = 0; k < 4; k++) {
		if (top[k] < 0)
			continue;
		sum += hi - top[k] > 60 ? (gsum[k] < 0 ? -1 : 0) :
		       (gsum[k] * 4) >> (hi - top[k]);
	}
	return tex_f32_rna_bits(sum, hi - 136 - win, bits);
}

/* A 16-bit fixed-point value as the f32 a normalized read returns. */
static u32 tex_fix_to_f32(const struct vgpu_tex_desc *d, s32 v)
{
	bool sign = d->format == VGPU_TEXF_S8 || d->format == VGPU_TEXF_S16;
	u32 den = sign ? 32767 : d->format == VGPU_TEXF_U8 ? 65535 : 65535;

	if (v <= -32767)
		return 0xbf800000U;
	if (v < 0)
		return 0x80000000U | tex_f32_div(-v, den);
	return tex_f32_div(v, den);
}

/*
 * Channel @c of a texel read with point sampling (tex_chan()'s @raw), as a
 * fetch returns it. sRGB applies to the colour channels, not alpha.
 */
static u32 tex_point_chan(const struct vgpu_tex_desc *d, u32 raw, u32 c)
{
	bool norm = d->flags & VGPU_TEX_READ_NORM;
	bool srgb = (d->flags & VGPU_TEX_SRGB) && c < 3;

	if (tex_float(d) || !norm || srgb)
		return raw;	/* (sRGB colour was decoded as it was read) */
	switch (d->format) {
	case VGPU_TEXF_U8:
		return tex_f32_div(raw / 257, 255);
	case VGPU_TEXF_S8: {
		s32 v = (s32)raw;
		/* back to the 8-bit value: the fixed point's top byte */
		s32 b = v < 0 ? -((-v) >> 8) : v >> 8;

		if (b <= -127)
			return 0xbf800000U;
		return b < 0 ? 0x80000000U | tex_f32_div(-b, 127) : tex_f32_div(b, 127);
	}
	default:
		return tex_fix_to_f32(d, (s32)raw);
	}
}

/* --- levels of detail -------------------------------------------------- */

/* floor(f * 256) of the f32 @f, saturated to +-2^20. */
static s32 tex_lod_fix(u32 f)
{
	s64 v = tex_floor_scaled(f, 8, false);

	return v > (1 << 20) ? 1 << 20 : v < -(1 << 20) ? -(1 << 20) : (s32)v;
}

/*
 * The fraction of log2 of 1 + m / 256 in 1/256, as an H100's level of
 * detail takes it from the top 8 bits of a length's mantissa (measured:
 * gradients swept through whole binades).
 */
static const u8 tex_log2_frac[256] = {
	  0,   2,   4,   5,   6,   8,   9,  11,  12,  13,  15,  16,  18,  19,  20,  22,
	 23,  24,  26,  27,  28,  30,  31,  32,  34,  35,  36,  38,  39,  40,  42,  43,
	 44,  45,  47,  48,  49,  50,  52,  53,  54,  55,  57,  58,  59,  60,  62,  63,
	 64,  65,  66,  68,  69,  70,  71,  72,  74,  75,  76,  77,  78,  79,  81,  82,
	 83,  84,  85,  86,  88,  89,  90,  91,  92,  93,  94,  95,  97,  98,  99, 100,
	101, 102, 103, 104, 105, 106, 107, 109, 110, 111, 112, 113, 114, 115, 116, 117,
	118, 119, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129, 130, 131, 132, 133,
	135, 136, 137, 137, 138, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148, 149,
	150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 162, 163, 164,
	165, 166, 167, 168, 169, 170, 171, 172, 173, 173, 174, 175, 176, 177, 178, 179,
	180, 181, 181, 182, 183, 184, 185, 186, 187, 188, 188, 189, 190, 191, 192, 193,
	194, 195, 195, 196, 197, 198, 199, 200, 200, 201, 202, 203, 204, 205, 205, 206,
	207, 208, 209, 210, 210, 211, 212, 213, 214, 214, 215, 216, 217, 218, 218, 219,
	220, 221, 222, 222, 223, 224, 225, 226, 226, 227, 228, 229, 229, 230, 231, 232,
	233, 233, 234, 235, 236, 236, 237, 238, 239, 239, 240, 241, 242, 242, 243, 244,
	245, 245, 246, 247, 248, 248, 249, 250, 251, 251, 252, 253, 253, 254, 255, 255
};

/* Where the length of a gradient (in texels, 2^-20 units) is too long. */
#define TEX_LEN_MAX 0x4000000000000LL	/* 2^50 */

/*
 * Gradient @g's @axes components (f32 bits) in texels of @d's level 0, in
 * 2^-20 units, signed, into @c (three).
 */
static void tex_grad_vec(const struct vgpu_tex_desc *d, const u32 *g, u32 axes, s64 *c)
{
	s64 t;
	u32 a, n;

	for (a = 0; a < 3; a++)
		c[a] = 0;
	for (a = 0; a < axes; a++) {
		n = a == 0 ? d->width : a == 1 ? d->height : d->depth;
		t = tex_floor_scaled(g[a] & 0x7fffffffU, 20, false);
		if (t > TEX_LEN_MAX / n)
			t = TEX_LEN_MAX / n;
		c[a] = g[a] >> 31 ? -t * n : t * n;
	}
}

/*
 * The length of vector @v as an H100's level of detail takes it: the
 * longest component plus 11/32 of the others, each cut to the longest
 * one's top 10 bits (exact along the axes, and for 98.7% of directions
 * off them; the rest are a 1/256 level away).
 */
static s64 tex_vec_len(const s64 *v)
{
	s64 c[3], t;
	u32 a;

	for (a = 0; a < 3; a++)
		c[a] = v[a] < 0 ? -v[a] : v[a];
	/* c[0] the longest */
	for (a = 1; a < 3; a++) {
		if (c[a] > c[0]) {
			t = c[0];
			c[0] = c[a];
			c[a] = t;
		}
	}
	t = (c[1] + c[2]) * 11 >> 5;
	a = tex_bitlen((u64)c[0]);
	if (a > 10) {
		c[0] = c[0] >> (a - 10) << (a - 10);
		t = t >> (a - 10) << (a - 10);
	}
	return c[0] + t;
}

/*
 * The level of detail of a gradient fetch, in 1/256 (noinline, as the
 * seamless cube's helpers: their locals stay off vgpu_tex_sample()'s
 * frame, which the debug kernel holds to 2 KiB): log2 of the footprint's
 * extent (the longer gradient, or 11/16 of their sum or
 * difference where that is longer), the fraction from tex_log2_frac.
 * Exact for gradients along the texture's axes.
 */
static noinline s32 tex_lod_grad(const struct vgpu_tex_desc *d,
				 const struct vgpu_tex_req *q, u32 axes)
{
	s64 x[3], y[3], sum[3], dif[3], a, b, len, diag, t;
	s32 top;
	u32 k;

	tex_grad_vec(d, q->grad, axes, x);
	tex_grad_vec(d, q->grad + 3, axes, y);
	a = tex_vec_len(x);
	b = tex_vec_len(y);
	len = a > b ? a : b;
	/*
	 * The footprint's extent along the screen's diagonals too, 11/16 of
	 * dP/dx + dP/dy and of dP/dx - dP/dy (two gradients along one axis
	 * reach further than either; measured with mip_grad, mip_grad_1d).
	 */
	for (k = 0; k < 3; k++) {
		sum[k] = (x[k] + y[k]) * 11 / 16;
		dif[k] = (x[k] - y[k]) * 11 / 16;
	}
	diag = tex_vec_len(sum);
	t = tex_vec_len(dif);
	diag = t > diag ? t : diag;
	len = diag > len ? diag : len;
	/*
	 * Anisotropic filtering takes up to max_aniso samples along the
	 * longer gradient: the level is that of its length over max_aniso,
	 * or of the shorter one's if longer (measured along the axes, where
	 * an H100's level is this or 1/256 away).
	 */
	if (d->max_aniso > 1) {
		s64 minor = a > b ? b : a, m = len / d->max_aniso;

		len = m > minor ? m : minor;
	}

	if (len <= 0)
		return -(1 << 20);
	top = (s32)tex_bitlen((u64)len) - 1;	/* 2^top <= len */
	/* the 8 bits after the leading one */
	return (top - 20) * 256 +
	       tex_log2_frac[(top >= 8 ? len >> (top - 8) : len << (8 - top)) & 255];
}

/* --- cubemaps ---------------------------------------------------------- */

/*
 * A cube face's s and t axes (OpenGL's) among x, y, z, and their sign
 * flips (bit 0: s, bit 1: t), for the faces +x, -x, +y, -y, +z, -z.
 */
static const u8 cube_s[6] = { 2, 2, 0, 0, 0, 0 };
static const u8 cube_t[6] = { 1, 1, 2, 2, 1, 1 };
static const u8 cube_flip[6] = { 3, 2, 0, 2, 2, 3 };

/*
 * The axis of the largest of magnitudes @x, @y, @z (f32 bits compare as
 * their values): ties go to z, then y.
 */
static u32 tex_cube_major(u64 x, u64 y, u64 z)
{
	if (z >= x && z >= y)
		return 2;
	return y >= x ? 1 : 0;
}

/*
 * The face a direction points at and its coordinates there, as f32 bits
 * of normalized x and y (exactly (sc / |ma| + 1) / 2 cut to 21 bits).
 */
static u32 tex_cube(const u32 dir[3], u32 xy[2])
{
	u32 mag[3], k, face, major;
	u32 sc, tc;
	s32 i;

	for (k = 0; k < 3; k++)
		mag[k] = dir[k] & 0x7fffffffU;
	major = tex_cube_major(mag[0], mag[1], mag[2]);
	face = major * 2 + (dir[major] >> 31);
	sc = dir[cube_s[face]] ^ (cube_flip[face] & 1 ? 0x80000000U : 0);
	tc = dir[cube_t[face]] ^ (cube_flip[face] & 2 ? 0x80000000U : 0);
	for (k = 0; k < 2; k++) {
		u32 c = k ? tc : sc;
		u32 ec = c >> 23 & 0xff, em = mag[major] >> 23 & 0xff;
		s64 mc = ec ? (c & 0x7fffff) | 0x800000 : 0;
		s64 mm = (mag[major] & 0x7fffff) | 0x800000;
		s64 v = 1 << 20;

		if (!em || em == 0xff) {
			xy[k] = 0x3f000000U;	/* no direction: the middle */
			continue;
		}
		/* (c / ma + 1) * 2^20, floored: |c| <= |ma|, so ec <= em. */
		i = (s32)em - (s32)ec;
		if (mc && i <= 38) {
			s64 num = mc << 20, den = mm << i;
			s64 qt = num / den;

			if (c >> 31)
				qt = -qt - (qt * den != num);
			v += qt;
		} else if (mc && (c >> 31)) {
			v--;
		}
		/* back to an f32 of v * 2^-21: exact, v <= 2^21 */
		xy[k] = tex_f32_rna(v, -21);
	}
	return face;
}

/* Whether @d is a cube filtered across its faces' edges. */
static bool tex_seamless(const struct vgpu_tex_desc *d)
{
	return (d->flags & VGPU_TEX_SEAMLESS) &&
	       (d->kind == VGPU_TEXK_CUBE || d->kind == VGPU_TEXK_CUBE_LAYERED);
}

/*
 * Seamless filtering: texel (@x, @y) of face @face, @n a side, which lies
 * past an edge, as the texel of the face the direction through its
 * centre points at (*@x, *@y updated). Returns that face.
 */
static noinline u32 tex_cube_across(u32 face, s64 *x, s64 *y, u32 n)
{
	s64 d[3], sc = 2 * *x + 1 - n, tc = 2 * *y + 1 - n, m[3], c;
	u32 major, g, k;

	/* The centre's direction, in units of 1/n of a half side. */
	d[face / 2] = face & 1 ? -(s64)n : (s64)n;
	d[cube_s[face]] = cube_flip[face] & 1 ? -sc : sc;
	d[cube_t[face]] = cube_flip[face] & 2 ? -tc : tc;
	for (k = 0; k < 3; k++)
		m[k] = d[k] < 0 ? -d[k] : d[k];
	major = tex_cube_major(m[0], m[1], m[2]);
	g = major * 2 + (d[major] < 0);
	for (k = 0; k < 2; k++) {
		c = d[k ? cube_t[g] : cube_s[g]];
		if (cube_flip[g] & (k ? 2 : 1))
			c = -c;
		/* floor((c / M + 1) / 2 * n), in the side */
		c = (c + m[major]) * n / (2 * m[major]);
		c = c < 0 ? 0 : c >= n ? n - 1 : c;
		*(k ? y : x) = c;
	}
	return g;
}

/* --- the fetch --------------------------------------------------------- */

/* Levels and their weights: *l0 with 256 - *f, *l0 + 1 with *f. */
static void tex_levels(const struct vgpu_tex_desc *d, const struct vgpu_tex_req *q,
		       u32 axes, u32 *l0, u32 *f)
{
	s32 lod, top = (d->levels - 1) * 256;

	*l0 = 0;
	*f = 0;
	if (d->levels == 1)
		return;
	if (q->variant == VGPU_TEXV_LEVEL)
		lod = tex_lod_fix(q->lod);
	else if (q->variant == VGPU_TEXV_GRAD)
		lod = tex_lod_grad(d, q, axes);
	else
		lod = 0;
	lod += d->lod_bias;
	if (lod < d->lod_min)
		lod = d->lod_min;
	if (lod > d->lod_max)
		lod = d->lod_max;
	if (lod < 0)
		lod = 0;
	if (lod > top)
		lod = top;
	if (!(d->flags & VGPU_TEX_MIP_LINEAR)) {
		*l0 = (u32)(lod + 128) >> 8;
		if (*l0 > d->levels - 1U)
			*l0 = d->levels - 1;
		return;
	}
	*l0 = (u32)lod >> 8;
	*f = (u32)lod & 255;
}

/* Where level @l is addressed along each axis, for coordinates @xy. */
static void tex_place(const struct vgpu_tex_desc *d, u32 l, u32 axes,
		      const u32 *coord, const s8 *off, bool norm, bool linear,
		      bool gather, struct tex_at *at)
{
	u32 a, n[3];

	tex_level(d, l, n);
	for (a = 0; a < 3; a++) {
		at->i[a] = 0;
		at->w[a] = 0;
		at->n[a] = n[a];
	}
	for (a = 0; a < axes; a++) {
		tex_axis(coord[a], n[a], norm, linear, d->address[a], &at->i[a],
			 &at->w[a]);
		/* An offset moves the footprint, before clamping or wrapping. */
		at->i[a] += off[a];
	}
	/* A 1D texture is a row sampled at y = 0: linearly, half the row above. */
	if (axes == 1 && linear) {
		at->i[1] = -1;
		at->w[1] = 128;
	}
	/*
	 * Clamping clamps the coordinate: past either end the edge texel
	 * takes the whole weight (it matters to how the weights round). A
	 * gather's footprint stays where it is, and so does a seamless
	 * cube's, whose taps past an edge read the next face.
	 */
	for (a = 0; !gather && !tex_seamless(d) &&
	     a < (axes == 1 && linear ? 2U : axes); a++) {
		u32 mode = d->address[a];

		if (mode != VGPU_TEXA_CLAMP && (norm || mode == VGPU_TEXA_BORDER))
			continue;
		if (at->i[a] < 0) {
			at->i[a] = 0;
			at->w[a] = 0;
		} else if (at->i[a] >= (s64)n[a] - 1) {
			at->i[a] = (s64)n[a] - 1;
			at->w[a] = 0;
		}
	}
}

/*
 * A seamless cube's footprint at a corner of the cube has no fourth
 * texel: its weight goes a third (rounded) to each texel across an edge,
 * the rest to the one on the face (as an H100 does).
 */
static noinline void tex_cube_corner(const struct vgpu_tex_desc *d,
				     struct tex_tap *taps, u32 nt)
{
	u32 k, j, n[3];

	for (k = 0; k < nt; k++) {
		bool ox, oy;

		tex_level(d, taps[k].level, n);
		ox = taps[k].pos[0] < 0 || taps[k].pos[0] >= n[0];
		oy = taps[k].pos[1] < 0 || taps[k].pos[1] >= n[1];
		if (!ox || !oy || !taps[k].w)
			continue;
		for (j = 0; j < nt; j++) {
			bool jx, jy;

			if (j == k || taps[j].level != taps[k].level)
				continue;
			jx = taps[j].pos[0] < 0 || taps[j].pos[0] >= n[0];
			jy = taps[j].pos[1] < 0 || taps[j].pos[1] >= n[1];
			if (jx != jy)	/* across an edge */
				taps[j].w += (taps[k].w + 1) / 3;
			else		/* on the face */
				taps[j].w += taps[k].w - 2 * ((taps[k].w + 1) / 3);
		}
		taps[k].w = 0;
	}
}

int vgpu_tex_sample(const struct vgpu_tex_desc *d, const struct vgpu_tex_req *q,
		    vgpu_tex_read_fn read, void *ctx, u32 out[4], u64 *fault_va)
{
	bool norm = d->flags & VGPU_TEX_NORMALIZED;
	bool linear = (d->flags & VGPU_TEX_LINEAR) && !q->int_coords &&
		      q->variant != VGPU_TEXV_GATHER;
	struct tex_tap taps[TEX_TAPS];
	u32 axes, l0, f, nt = 0, k, c, coord[3];
	u32 vals[4][TEX_TAPS], wts[TEX_TAPS];
	u8 grp[TEX_TAPS];
	s64 at_z[2] = { 0, 0 };
	u8 buf[16];
	s64 slice = 0;
	u32 face = 0;
	struct tex_at at;

	if (!vgpu_tex_desc_ok(d))
		return VGPU_TEX_BAD;
	for (c = 0; c < 4; c++)
		out[c] = 0;
	axes = tex_axes(d->kind);
	coord[0] = q->coord[0];
	coord[1] = q->coord[1];
	coord[2] = q->coord[2];
	if (d->kind == VGPU_TEXK_1D_LAYERED || d->kind == VGPU_TEXK_2D_LAYERED ||
	    d->kind == VGPU_TEXK_CUBE_LAYERED) {
		/* Layers as unsigned indices, clamped to the last. */
		u32 layers = d->kind == VGPU_TEXK_CUBE_LAYERED ? d->depth / 6 : d->depth;

		slice = q->layer < layers ? q->layer : layers - 1;
		if (d->kind == VGPU_TEXK_CUBE_LAYERED)
			slice *= 6;
	}
	if (d->kind == VGPU_TEXK_CUBE || d->kind == VGPU_TEXK_CUBE_LAYERED) {
		face = tex_cube(q->coord, coord);
		slice += face;
		norm = true;
	}

	/*
	 * Integer coordinates, and linear memory: one texel, as it is. Out
	 * of range, whatever the address mode, it reads zeros, as an H100's
	 * does (tests/samples/rt/ref/h100_rt_texobj.log).
	 */
	if (q->int_coords || d->kind == VGPU_TEXK_BUFFER) {
		s64 p[3] = { 0, 0, slice };

		for (k = 0; k < axes; k++) {
			s64 i = (s64)(s32)coord[k] + q->off[k];
			u32 n = k == 0 ? d->width : k == 1 ? d->height : d->depth;

			if (i < 0 || i >= n)
				return VGPU_TEX_OK;	/* zeros */
			p[k] = i;
		}
		if (!tex_read(d, 0, p[0], p[1], p[2], read, ctx, buf, fault_va))
			return VGPU_TEX_FAULT;
		for (c = 0; c < d->channels; c++)
			out[c] = tex_point_chan(d, tex_chan(d, buf, c), c);
		return VGPU_TEX_OK;
	}

	tex_levels(d, q, axes, &l0, &f);
	if (q->variant == VGPU_TEXV_GATHER) {
		/* The 2x2 footprint of linear filtering, channel @comp of each. */
		static const u8 gx[4] = { 0, 1, 1, 0 }, gy[4] = { 1, 1, 0, 0 };

		tex_place(d, l0, axes, coord, q->off, norm, true, true, &at);
		for (k = 0; k < 4; k++) {
			s64 x = tex_address(at.i[0] + gx[k], at.n[0], d->address[0], norm);
			s64 y = tex_address(at.i[1] + gy[k], at.n[1], d->address[1], norm);

			if (x < 0 || y < 0) {
				out[k] = q->comp < d->channels ?
					 tex_point_chan(d, tex_border(d, q->comp), q->comp) : 0;
				continue;
			}
			if (!tex_read(d, l0, x, y, slice, read, ctx, buf, fault_va))
				return VGPU_TEX_FAULT;
			out[k] = q->comp < d->channels ?
				 tex_point_chan(d, tex_chan(d, buf, q->comp), q->comp) : 0;
		}
		return VGPU_TEX_OK;
	}

	/* The taps of each level, weighted. */
	for (k = 0; k < (f ? 2U : 1U); k++) {
		u32 l = l0 + k, p = f ? (k ? f : 256 - f) : 256;

		tex_place(d, l, axes, coord, q->off, norm, linear, false, &at);
		at_z[k] = at.i[2];
		if (!linear) {
			taps[nt].level = l;
			taps[nt].pos[0] = at.i[0];
			taps[nt].pos[1] = at.i[1];
			taps[nt].pos[2] = axes == 3 ? at.i[2] : slice;
			taps[nt].w = p;
			nt++;
			continue;
		}
		nt += tex_split(&at, l, axes == 1 ? 2 : axes, p, slice, taps + nt);
	}

	if (tex_seamless(d) && linear)
		tex_cube_corner(d, taps, nt);

	/* Read them (border texels take the border colour). */
	for (k = 0; k < nt; k++) {
		u32 n[3];
		s64 pos[3];
		bool border = false;

		tex_level(d, taps[k].level, n);
		for (c = 0; c < 3; c++)
			pos[c] = taps[k].pos[c];
		if (tex_seamless(d) && linear &&
		    (pos[0] < 0 || pos[0] >= n[0] || pos[1] < 0 || pos[1] >= n[1])) {
			/* Past a face's edge: the neighbouring face's texel. */
			pos[2] = slice - face +
				 tex_cube_across(face, &pos[0], &pos[1], n[0]);
		} else {
			for (c = 0; c < (axes == 1 ? 2U : axes); c++) {
				pos[c] = tex_address(pos[c], n[c], d->address[c], norm);
				border |= pos[c] < 0;
			}
		}
		wts[k] = taps[k].w;
		grp[k] = (u8)((taps[k].level - l0) * 2 +
			      (axes == 3 ? (u32)(taps[k].pos[2] - at_z[taps[k].level - l0]) : 0));
		if (border) {
			for (c = 0; c < 4; c++)
				vals[c][k] = c < d->channels ? tex_border(d, c) : 0;
			continue;
		}
		if (!tex_read(d, taps[k].level, pos[0], pos[1], pos[2], read, ctx,
			      buf, fault_va))
			return VGPU_TEX_FAULT;
		for (c = 0; c < 4; c++)
			vals[c][k] = c < d->channels ? tex_chan(d, buf, c) : 0;
	}

	for (c = 0; c < d->channels; c++) {
		if (nt == 1) {
			out[c] = tex_point_chan(d, vals[c][0], c);
		} else if (tex_float_chan(d, c)) {
			/* f32: 28 and 24 bits; f16 15, 11; sRGB 8, 11 */
			bool f32 = d->format == VGPU_TEXF_F32;

			out[c] = tex_blend_f32(vals[c], wts, grp, nt,
					       f32 ? 28 : tex_float(d) ? 15 : 8,
					       f32 ? 24 : 11);
		} else {
			s64 sum = 0;

			for (k = 0; k < nt; k++)
				sum += (s64)(s32)vals[c][k] * wts[k];
			out[c] = tex_fix_to_f32(d, (s32)((sum + 128) >> 8));
		}
	}
	return VGPU_TEX_OK;
}

/* --- queries ----------------------------------------------------------- */

u32 vgpu_tex_query(const struct vgpu_tex_desc *d, u32 what, u32 level)
{
	bool layered1 = d->kind == VGPU_TEXK_1D_LAYERED;
	u32 w, h, dp;

	if (!vgpu_tex_desc_ok(d))
		return 0;
	if (what >= VGPU_TXQ_LEVEL_WIDTH) {
		if (level >= d->levels)
			return 0;
		what -= VGPU_TXQ_LEVEL_WIDTH;
	} else {
		level = 0;
	}
	/* As an H100 answers: a layered shape's layers where the next axis is. */
	w = d->width >> level ? d->width >> level : 1;
	h = d->height >> level ? d->height >> level : 1;
	dp = d->kind == VGPU_TEXK_3D ? (d->depth >> level ? d->depth >> level : 1) : 0;
	if (layered1)
		h = d->depth;
	else if (d->kind == VGPU_TEXK_BUFFER)
		h = 0;
	if (d->kind == VGPU_TEXK_2D_LAYERED)
		dp = d->depth;
	else if (d->kind == VGPU_TEXK_CUBE_LAYERED)
		dp = d->depth / 6;
	return what == VGPU_TXQ_WIDTH ? w : what == VGPU_TXQ_HEIGHT ? h : dp;
}

/* --- surfaces ---------------------------------------------------------- */

int vgpu_surf_addr(const struct vgpu_tex_desc *d, const s32 *xyz, u32 layer,
		   u32 elem, u32 bytes, u32 mode, u64 *va)
{
	u64 row = (u64)d->width * vgpu_tex_texel_bytes(d);
	s64 x = xyz[0], y = 0, z = 0, rows = d->height, slices = 1;

	if (!vgpu_tex_desc_ok(d) || !(d->flags & VGPU_TEX_SURFACE) ||
	    bytes > row)
		return VGPU_SURF_NONE;
	if (x % elem)
		return VGPU_SURF_MISALIGNED;
	switch (d->kind) {
	case VGPU_TEXK_3D:
		y = xyz[1];
		z = xyz[2];
		slices = d->depth;
		break;
	case VGPU_TEXK_1D_LAYERED:
		z = layer;
		slices = d->depth;
		break;
	case VGPU_TEXK_2D_LAYERED:
	case VGPU_TEXK_CUBE:
	case VGPU_TEXK_CUBE_LAYERED:
		y = xyz[1];
		z = layer;
		slices = d->depth;
		break;
	case VGPU_TEXK_2D:
		y = xyz[1];
		break;
	default:
		break;
	}
	if (x < 0 || x > (s64)(row - bytes) || y < 0 || y >= rows || z < 0 ||
	    z >= slices) {
		if (mode == VGPU_SURF_TRAP) {
			*va = d->addr;
			return VGPU_SURF_FAULT;
		}
		if (mode == VGPU_SURF_ZERO)
			return VGPU_SURF_NONE;
		x = x < 0 ? 0 : x > (s64)(row - bytes) ? (s64)(row - bytes) / elem * elem : x;
		y = y < 0 ? 0 : y >= rows ? rows - 1 : y;
		z = z < 0 ? 0 : z >= slices ? slices - 1 : z;
	}
	*va = d->addr + ((u64)z * rows + (u64)y) * d->pitch + (u64)x;
	return VGPU_SURF_AT;
}

/* The f16 nearest the f32 @f (ties to even), as f16 bits. */
static u32 tex_f32_to_f16(u32 f)
{
	u32 sign = f >> 16 & 0x8000, e = f >> 23 & 0xff, m = f & 0x7fffff;
	s32 ex = (s32)e - 112;	/* the f16 exponent field */
	u32 sh, r, rem, half;

	if (e == 0xff)
		return sign | 0x7c00 | (m ? 0x200 | m >> 13 : 0);
	if (!e || ex < -10)
		return sign;
	m |= 0x800000;
	sh = ex > 0 ? 13 : 14 - (u32)ex;	/* subnormal: fewer bits */
	r = m >> sh;
	rem = m & ((1U << sh) - 1);
	half = 1U << (sh - 1);
	if (rem > half || (rem == half && (r & 1)))
		r++;
	if (ex <= 0)
		return sign | r;	/* 0x400 is the least normal */
	if (r >> 11) {
		r >>= 1;
		ex++;
	}
	if (ex >= 31)
		return sign | 0x7c00;
	return sign | (u32)ex << 10 | (r & 0x3ff);
}

u64 vgpu_surf_format(const struct vgpu_tex_desc *d, u64 v)
{
	switch (d->format) {
	case VGPU_TEXF_F16:
		return tex_f32_to_f16((u32)v);
	case VGPU_TEXF_U8:
	case VGPU_TEXF_S8:
		return v & 0xff;
	case VGPU_TEXF_U16:
	case VGPU_TEXF_S16:
		return v & 0xffff;
	default:
		return v & 0xffffffff;
	}
}
