// SPDX-License-Identifier: MIT
// Layered and cubemap textures (the simpleLayeredTexture and
// simpleCubemapTexture ideas): every layer, and every face, read back and
// transformed; then filtered between texels.
extern "C" __global__ void layered(float *out, int w, int h, int layers, float dx,
				   float dy, cudaTextureObject_t tex)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	int l = blockIdx.z;

	if (x >= w || y >= h || l >= layers)
		return;
	out[(l * h + y) * w + x] =
		-tex2DLayered<float>(tex, ((float)x + dx) / (float)w,
				     ((float)y + dy) / (float)h, l) + (float)l;
}

/* Face @f's texel (x, y) as a direction, the faces in CUDA's order. */
extern "C" __global__ void cubemap(float *out, int n, float d, cudaTextureObject_t tex)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	int f = blockIdx.z;
	float s, t, cx, cy, cz;

	if (x >= n || y >= n)
		return;
	s = ((float)x + d) / (float)n * 2.0f - 1.0f;
	t = ((float)y + d) / (float)n * 2.0f - 1.0f;
	switch (f) {
	case 0: cx = 1; cy = -t; cz = -s; break;
	case 1: cx = -1; cy = -t; cz = s; break;
	case 2: cx = s; cy = 1; cz = t; break;
	case 3: cx = s; cy = -1; cz = -t; break;
	case 4: cx = s; cy = -t; cz = 1; break;
	default: cx = -s; cy = -t; cz = -1; break;
	}
	out[(f * n + y) * n + x] = texCubemap<float>(tex, cx, cy, cz);
}

/* A layered cubemap: each cube's +Z face, through its centre rows. */
extern "C" __global__ void cubelayered(float *out, int n, int cubes, cudaTextureObject_t tex)
{
	int x = threadIdx.x, c = blockIdx.x;
	float s;

	if (x >= n || c >= cubes)
		return;
	s = ((float)x + 0.5f) / (float)n * 2.0f - 1.0f;
	out[c * n + x] = texCubemapLayered<float>(tex, s, 0.25f, 1.0f, c);
}
