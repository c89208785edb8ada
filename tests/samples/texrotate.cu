// SPDX-License-Identifier: MIT
// An image rotated through a texture object: normalized coordinates that
// wrap, filtered linearly (the simpleTexture idea), over a float image and
// an 8-bit RGBA one read as normalized floats. The rotation is plain C:
// nvcc leaves u * c - v * s as two muls and a sub, which ptxas fuses (the
// first product into an fma), and the coordinates' last bits decide the
// 8-bit filter weights, so the results hold vgpu's JIT to ptxas's
// contraction.

__device__ static float2 rotated(float u, float v, float c, float s)
{
	return make_float2(u * c - v * s + 0.5f, u * s + v * c + 0.5f);
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
