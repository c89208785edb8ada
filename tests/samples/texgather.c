// SPDX-License-Identifier: MIT
/*
 * texgather.cu over a 32 x 32 array of 8-bit RGBA read as normalized
 * floats (each component gathered, coordinates between and past the
 * texels) and one of 32-bit integer pairs read as integers, at texel
 * centres, where the host knows the four texels; compared bit for bit
 * with an H100's.
 */
#include "sample.h"

enum { N = 32 };

static CUtexObject texture(CUarray a, int as_int)
{
	CUDA_RESOURCE_DESC r = { .resType = CU_RESOURCE_TYPE_ARRAY };
	CUDA_TEXTURE_DESC t = { 0 };
	CUtexObject o;

	r.res.array.hArray = a;
	t.addressMode[0] = CU_TR_ADDRESS_MODE_WRAP;
	t.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
	t.flags = CU_TRSF_NORMALIZED_COORDINATES | (as_int ? CU_TRSF_READ_AS_INTEGER : 0);
	TRY(cuTexObjectCreate(&o, &r, &t, NULL));
	return o;
}

static CUarray array2d(CUarray_format f, unsigned int ch, const void *src, size_t bpp)
{
	CUDA_ARRAY3D_DESCRIPTOR ad = { .Width = N, .Height = N, .Format = f, .NumChannels = ch,
				       .Flags = CUDA_ARRAY3D_TEXTURE_GATHER };
	CUDA_MEMCPY2D c = { 0 };
	CUarray a;

	TRY(cuArray3DCreate(&a, &ad));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = src;
	c.srcPitch = N * bpp;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = a;
	c.WidthInBytes = N * bpp;
	c.Height = N;
	TRY(cuMemcpy2D(&c));
	return a;
}

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "texgather");
	static unsigned char rgba[N * N * 4];
	static int pairs[N * N * 2], gi[N * N * 4];
	static float out[N * N * 4 * 4];
	int n = N, i, x, y, bad = 0, wrong = 0;
	CUarray a8, a32;
	CUtexObject t;
	CUdeviceptr o;
	void *args[] = { &o, &n, &t };

	for (i = 0; i < N * N * 4; i++)
		rgba[i] = (unsigned char)(i * 31 + (i >> 7));
	for (i = 0; i < N * N * 2; i++)
		pairs[i] = i * 1000 - 77777;
	a8 = array2d(CU_AD_FORMAT_UNSIGNED_INT8, 4, rgba, 4);
	a32 = array2d(CU_AD_FORMAT_SIGNED_INT32, 2, pairs, 8);
	TRY(cuMemAlloc(&o, sizeof(out)));

	t = texture(a8, 0);
	TRY(cuLaunchKernel(sample_func(mod, "gather"), N / 8, N / 8, 1, 8, 8, 1, 0, NULL,
			   args, NULL));
	TRY(cuMemcpyDtoH(out, o, sizeof(out)));
	bad += sample_output("texgather", "rgba8", out, sizeof(out), 0);
	TRY(cuTexObjectDestroy(t));

	/*
	 * At a texel's centre the footprint is that texel and its upper
	 * neighbours, (x, y+1), (x+1, y+1), (x+1, y), (x, y) in the order
	 * gathers return them (wrapping in x, clamped in y).
	 */
	t = texture(a32, 1);
	TRY(cuLaunchKernel(sample_func(mod, "gatheri"), N / 8, N / 8, 1, 8, 8, 1, 0, NULL,
			   args, NULL));
	TRY(cuMemcpyDtoH(gi, o, sizeof(gi)));
	for (y = 0; y < N; y++)
		for (x = 0; x < N; x++) {
			int xr = (x + 1) % N, yu = y + 1 < N ? y + 1 : N - 1;
			int want[4] = { pairs[2 * (yu * N + x) + 1], pairs[2 * (yu * N + xr) + 1],
					pairs[2 * (y * N + xr) + 1], pairs[2 * (y * N + x) + 1] };

			wrong += memcmp(&gi[4 * (y * N + x)], want, sizeof(want)) != 0;
		}
	printf("integer gathers: %d of %d wrong\n", wrong, N * N);
	bad += wrong != 0;
	bad += sample_output("texgather", "int2", gi, sizeof(gi), 0);
	TRY(cuTexObjectDestroy(t));
	TRY(cuArrayDestroy(a8));
	TRY(cuArrayDestroy(a32));
	TRY(cuMemFree(o));
	return sample_result(bad);
}
