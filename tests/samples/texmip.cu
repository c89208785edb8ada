// SPDX-License-Identifier: MIT
// A mipmapped texture sampled at explicit levels of detail, between levels
// (trilinear filtering), and with gradients along the axes.
extern "C" __global__ void lod(float4 *out, int n, const float *lods, int nlods,
			       cudaTextureObject_t tex)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	int l = blockIdx.z;

	if (x >= n || y >= n || l >= nlods)
		return;
	out[(l * n + y) * n + x] = tex2DLod<float4>(tex, ((float)x + 0.4f) / (float)n,
						    ((float)y + 0.65f) / (float)n, lods[l]);
}

extern "C" __global__ void grad(float4 *out, int n, const float *g, int ng,
				cudaTextureObject_t tex)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	int l = blockIdx.z;

	if (x >= n || y >= n || l >= ng)
		return;
	out[(l * n + y) * n + x] =
		tex2DGrad<float4>(tex, ((float)x + 0.4f) / (float)n,
				  ((float)y + 0.65f) / (float)n,
				  make_float2(g[2 * l], 0.0f), make_float2(0.0f, g[2 * l + 1]));
}
