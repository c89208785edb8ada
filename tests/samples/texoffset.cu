// SPDX-License-Identifier: MIT
// PTX texel offsets (tex and tld4 with an offset vector) and the depth
// comparison operand, which CUDA C does not reach: inline PTX.
#define V4 "{%0, %1, %2, %3}"
#define OUT4(r) "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w)

/*
 * Sample @i of a sweep: offsets -9..8 on each axis (one past PTX's -8..7
 * on each side), at one of five points, in texels (@scale 1) or
 * normalized (@scale 1/16).
 */
__device__ static void point(int i, float scale, float *x, float *y, int *ox, int *oy)
{
	const float px[5] = { 0.5f, 3.25f, 15.9f, -2.3f, 8.0f };
	const float py[5] = { 0.5f, 7.75f, 0.1f, 17.6f, 8.0f };
	int k = i / 324 % 5;

	*ox = i % 18 - 9;
	*oy = i / 18 % 18 - 9;
	*x = px[k] * scale;
	*y = py[k] * scale;
}

extern "C" __global__ void off2d(float4 *out, int n, unsigned long long t, float scale)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, ox, oy;
	float x, y;
	float4 r;

	if (i >= n)
		return;
	point(i, scale, &x, &y, &ox, &oy);
	asm volatile("tex.2d.v4.f32.f32 " V4 ", [%4, {%5, %6}], {%7, %8};"
		     : OUT4(r) : "l"(t), "f"(x), "f"(y), "r"(ox), "r"(oy));
	out[i] = r;
}

/* Integer coordinates (the point's, truncated) with offsets. */
extern "C" __global__ void off2di(float4 *out, int n, unsigned long long t)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, ox, oy, xi, yi;
	float x, y;
	float4 r;

	if (i >= n)
		return;
	point(i, 1.0f, &x, &y, &ox, &oy);
	xi = (int)x;
	yi = (int)y;
	asm volatile("tex.2d.v4.f32.s32 " V4 ", [%4, {%5, %6}], {%7, %8};"
		     : OUT4(r) : "l"(t), "r"(xi), "r"(yi), "r"(ox), "r"(oy));
	out[i] = r;
}

/* Offsets on the levels of tex.level and tex.grad, and on tld4. */
extern "C" __global__ void offmore(float4 *out, int n, unsigned long long t, float scale)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, ox, oy;
	float x, y, lod = 0.0f, g = 0.0f;
	float4 r;

	if (i >= n)
		return;
	point(i, scale, &x, &y, &ox, &oy);
	asm volatile("tex.level.2d.v4.f32.f32 " V4 ", [%4, {%5, %6}], %7, {%8, %9};"
		     : OUT4(r) : "l"(t), "f"(x), "f"(y), "f"(lod), "r"(ox), "r"(oy));
	out[i] = r;
	asm volatile("tex.grad.2d.v4.f32.f32 " V4 ", [%4, {%5, %6}], {%7, %7}, {%7, %7}, {%8, %9};"
		     : OUT4(r) : "l"(t), "f"(x), "f"(y), "f"(g), "r"(ox), "r"(oy));
	out[n + i] = r;
	asm volatile("tld4.r.2d.v4.f32.f32 " V4 ", [%4, {%5, %6}], {%7, %8};"
		     : OUT4(r) : "l"(t), "f"(x), "f"(y), "r"(ox), "r"(oy));
	out[2 * n + i] = r;
}

/* tld4's offsets are six bits: -35..33 by 4 (-35 wraps to 29, 33 to -31). */
extern "C" __global__ void gatherwide(float4 *out, int n, unsigned long long t, float scale)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, ox, oy;
	float x, y;
	float4 r;

	if (i >= n)
		return;
	point(i, scale, &x, &y, &ox, &oy);
	ox = ox * 4 + 1;
	oy = oy * 4 + 1;
	asm volatile("tld4.a.2d.v4.f32.f32 " V4 ", [%4, {%5, %6}], {%7, %8};"
		     : OUT4(r) : "l"(t), "f"(x), "f"(y), "r"(ox), "r"(oy));
	out[i] = r;
	asm volatile("tld4.r.2d.v4.f32.f32 " V4 ", [%4, {%5, %6}], {-33, 32};"
		     : OUT4(r) : "l"(t), "f"(x), "f"(y));
	out[n + i] = r;
	asm volatile("tex.2d.v4.f32.f32 " V4 ", [%4, {%5, %6}], {-9, 8};"
		     : OUT4(r) : "l"(t), "f"(x), "f"(y));
	out[2 * n + i] = r;
}

/* 1D (the x offset), 2D layered (layer 1) and 3D (z = the y's) textures. */
extern "C" __global__ void offdims(float4 *out, int n, unsigned long long t1,
				   unsigned long long tl, unsigned long long t3, float scale)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x, ox, oy, layer = 1;
	float x, y;
	float4 r;

	if (i >= n)
		return;
	point(i, scale, &x, &y, &ox, &oy);
	asm volatile("tex.1d.v4.f32.f32 " V4 ", [%4, {%5}], {%6};"
		     : OUT4(r) : "l"(t1), "f"(x), "r"(ox));
	out[i] = r;
	asm volatile("tex.a2d.v4.f32.f32 " V4 ", [%4, {%5, %6, %7, %7}], {%8, %9};"
		     : OUT4(r) : "l"(tl), "r"(layer), "f"(x), "f"(y), "r"(ox), "r"(oy));
	out[n + i] = r;
	asm volatile("tex.3d.v4.f32.f32 " V4 ", [%4, {%5, %6, %6, %6}], {%7, %8, %8, %8};"
		     : OUT4(r) : "l"(t3), "f"(x), "f"(y), "r"(ox), "r"(oy));
	out[2 * n + i] = r;
}

/* The depth comparison operand, against values around the texels'. */
extern "C" __global__ void depth(float4 *out, int n, unsigned long long t, float scale)
{
	const float dc[8] = { -1.0f, 0.0f, 0.5f, 3.0f, 40.0f, 100.0f, 1000.0f, __int_as_float(0x7fc00000) };
	int i = blockIdx.x * blockDim.x + threadIdx.x, ox, oy, zero = 0;
	float x, y, d;
	float4 r;

	if (i >= n)
		return;
	point(i, scale, &x, &y, &ox, &oy);
	d = dc[i % 8];
	asm volatile("tex.2d.v4.f32.f32 " V4 ", [%4, {%5, %6}], {%7, %7}, %8;"
		     : OUT4(r) : "l"(t), "f"(x), "f"(y), "r"(zero), "f"(d));
	out[i] = r;
	asm volatile("tld4.r.2d.v4.f32.f32 " V4 ", [%4, {%5, %6}], {%7, %7}, %8;"
		     : OUT4(r) : "l"(t), "f"(x), "f"(y), "r"(zero), "f"(d));
	out[n + i] = r;
}
