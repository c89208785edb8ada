// SPDX-License-Identifier: MIT
// Four-texel gathers (tld4) of each component, at and between texels.
extern "C" __global__ void gather(float4 *out, int n, cudaTextureObject_t tex)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	float u, v;

	if (x >= n || y >= n)
		return;
	u = ((float)x * 0.75f + 0.1f) / (float)n;
	v = ((float)y * 0.8f - 0.3f) / (float)n;
	out[((0 * n) + y) * n + x] = tex2Dgather<float4>(tex, u, v, 0);
	out[((1 * n) + y) * n + x] = tex2Dgather<float4>(tex, u, v, 1);
	out[((2 * n) + y) * n + x] = tex2Dgather<float4>(tex, u, v, 2);
	out[((3 * n) + y) * n + x] = tex2Dgather<float4>(tex, u, v, 3);
}

/* Integer texels gathered as they are. */
extern "C" __global__ void gatheri(int4 *out, int n, cudaTextureObject_t tex)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;

	if (x >= n || y >= n)
		return;
	out[y * n + x] = tex2Dgather<int4>(tex, ((float)x + 0.5f) / (float)n,
					   ((float)y + 0.5f) / (float)n, 1);
}
