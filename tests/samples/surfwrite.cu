// SPDX-License-Identifier: MIT
// A surface written by one kernel and read through a texture by the next
// (the simpleSurfaceWrite idea).
extern "C" __global__ void write(cudaSurfaceObject_t surf, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;

	if (x < w && y < h)
		surf2Dwrite((float)(x * 3 - y * 2) * 0.125f + (float)((x * y) & 7),
			    surf, x * (int)sizeof(float), y);
}

/* Reads the surface back through itself (clamped at the edge) and, */
/* filtered, through a texture of the same array. */
extern "C" __global__ void read(float *same, float *filtered, int w, int h,
				cudaSurfaceObject_t surf, cudaTextureObject_t tex)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;

	if (x >= w || y >= h)
		return;
	same[y * w + x] = surf2Dread<float>(surf, (x + 1) * (int)sizeof(float), y,
					    cudaBoundaryModeClamp);
	filtered[y * w + x] = tex2D<float>(tex, (float)x + 0.3f, (float)y + 0.7f);
}
