// SPDX-License-Identifier: MIT
// An image rotated through a texture object: normalized coordinates that
// wrap, filtered linearly (the simpleTexture idea), over a float image and
// an 8-bit RGBA one read as normalized floats. The rotation is written
// with explicit roundings: a plain a * b - c * d leaves ptxas free to fuse
// either product into an fma (it fuses the first), and the coordinates'
// last bits decide the 8-bit filter weights.

/* The coordinates, rounded as the H100's code rounded them. */
__device__ static float2 rotated(float u, float v, float c, float s)
{
	return make_float2(__fadd_rn(__fmaf_rn(u, c, -__fmul_rn(v, s)), 0.5f),
			   __fadd_rn(__fmaf_rn(u, s, __fmul_rn(v, c)), 0.5f));
}

extern "C" __global__ void rotate(float *out, int w, int h, float c, float s,
				  cudaTextureObject_t tex)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	float u, v;

	if (x >= w || y >= h)
		return;
	u = (float)x / (float)w - 0.5f;
	v = (float)y / (float)h - 0.5f;
	float2 t = rotated(u, v, c, s);

	out[y * w + x] = tex2D<float>(tex, t.x, t.y);
}

extern "C" __global__ void rotate4(float4 *out, int w, int h, float c, float s,
				   cudaTextureObject_t tex)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	float u, v;

	if (x >= w || y >= h)
		return;
	u = (float)x / (float)w - 0.5f;
	v = (float)y / (float)h - 0.5f;
	float2 t = rotated(u, v, c, s);

	out[y * w + x] = tex2D<float4>(tex, t.x, t.y);
}
