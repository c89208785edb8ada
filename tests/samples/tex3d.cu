// SPDX-License-Identifier: MIT
// A 3D texture sampled between texels in all three axes (trilinear
// filtering), on a grid that does not fall on the texels.
extern "C" __global__ void sample3d(float *out, int w, int h, int d, cudaTextureObject_t tex)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	int z = blockIdx.z;

	if (x >= w || y >= h || z >= d)
		return;
	out[(z * h + y) * w + x] = tex3D<float>(tex, ((float)x + 0.37f) / (float)w,
						((float)y + 0.61f) / (float)h,
						((float)z + 0.23f) / (float)d);
}

extern "C" __global__ void sample3d2(float2 *out, int w, int h, int d, cudaTextureObject_t tex)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	int z = blockIdx.z;

	if (x >= w || y >= h || z >= d)
		return;
	/* Past the edges too: the address modes decide. */
	out[(z * h + y) * w + x] = tex3D<float2>(tex, ((float)x - 3.5f) / (float)w,
						 ((float)y * 1.25f) / (float)h,
						 ((float)z + 0.5f) / (float)d * 1.5f);
}
