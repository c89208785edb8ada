/*
 * H100 probe: copies whose source and destination overlap, within one
 * device allocation (cuMemcpyDtoD, its async form, cuMemcpy2D with equal
 * and unequal pitches), compared with memmove. The log (h100_overlap.log,
 * driver 580.159.04) shows NVIDIA's engines give no rule: small copies
 * and shifts of 64 KiB or more come out as memmove, others do not, and
 * the bytes that differ vary between runs. CUDA leaves the result
 * undefined; vgpu makes it memmove everywhere (uapi/vgpu.h, COPY).
 * Build: gcc -O2 -I$CUDA/include h100_overlap.c -lcuda
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CK(x) do { CUresult r_ = (x); if (r_) { printf("%s -> %d\n", #x, r_); } } while (0)
static unsigned char *ref, *got;
static void fill(unsigned char *p, size_t n) { for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(i * 131 + (i >> 8) * 7 + 1); }
int main(void)
{
	CUdevice dev; CUcontext ctx; CUdeviceptr d;
	size_t N = 8 << 20;
	CK(cuInit(0)); CK(cuDeviceGet(&dev, 0)); CK(cuCtxCreate(&ctx, NULL, 0, dev));
	CK(cuMemAlloc(&d, N));
	ref = malloc(N); got = malloc(N);
	size_t lens[] = { 16, 100, 4096, 65536 + 17, 1 << 20, 4 << 20 };
	long shifts[] = { 1, 8, 64, 100, 4096 + 3, 65536, -1, -8, -4096 - 3, -65536 };
	for (unsigned li = 0; li < sizeof(lens) / sizeof(lens[0]); li++)
	for (unsigned si = 0; si < sizeof(shifts) / sizeof(shifts[0]); si++) {
		size_t len = lens[li]; long sh = shifts[si];
		if ((size_t)labs(sh) >= len) continue;
		size_t base = 2 << 20;
		fill(ref, N);
		CK(cuMemcpyHtoD(d, ref, N));
		CK(cuMemcpyDtoD(d + base + sh, d + base, len));
		CK(cuCtxSynchronize());
		CK(cuMemcpyDtoH(got, d, N));
		memmove(ref + base + sh, ref + base, len);
		size_t bad = 0, first = (size_t)-1;
		for (size_t i = 0; i < N; i++) if (ref[i] != got[i]) { if (first == (size_t)-1) first = i; bad++; }
		printf("dtod len %zu shift %ld: %s", len, sh, bad ? "NOT memmove" : "memmove");
		if (bad) printf(" (%zu bytes differ, first at %ld)", bad, (long)first - (long)base);
		printf("\n");
		/* the async form on a stream */
		fill(ref, N);
		CK(cuMemcpyHtoD(d, ref, N));
		CK(cuMemcpyDtoDAsync(d + base + sh, d + base, len, 0));
		CK(cuCtxSynchronize());
		CK(cuMemcpyDtoH(got, d, N));
		memmove(ref + base + sh, ref + base, len);
		bad = 0;
		for (size_t i = 0; i < N; i++) bad += ref[i] != got[i];
		printf("dtodasync len %zu shift %ld: %s\n", len, sh, bad ? "NOT memmove" : "memmove");
	}
	/* 2D, equal pitch, overlapping by a row and a bit */
	long shifts2[] = { 1, 512 + 3, 1024, -1, -1024 };
	for (unsigned si = 0; si < 5; si++) {
		size_t pitch = 1024, w = 700, h = 300, base = 2 << 20; long sh = shifts2[si];
		fill(ref, N);
		CK(cuMemcpyHtoD(d, ref, N));
		CUDA_MEMCPY2D c = { 0 };
		c.srcMemoryType = CU_MEMORYTYPE_DEVICE; c.srcDevice = d + base; c.srcPitch = pitch;
		c.dstMemoryType = CU_MEMORYTYPE_DEVICE; c.dstDevice = d + base + sh; c.dstPitch = pitch;
		c.WidthInBytes = w; c.Height = h;
		CK(cuMemcpy2D(&c));
		CK(cuCtxSynchronize());
		CK(cuMemcpyDtoH(got, d, N));
		/* memmove model: read all rows first */
		unsigned char *tmp = malloc(pitch * h);
		for (size_t y = 0; y < h; y++) memcpy(tmp + y * w, ref + base + y * pitch, w);
		for (size_t y = 0; y < h; y++) memcpy(ref + base + sh + y * pitch, tmp + y * w, w);
		free(tmp);
		size_t bad = 0;
		for (size_t i = 0; i < N; i++) bad += ref[i] != got[i];
		printf("2d pitch %zu w %zu h %zu shift %ld: %s (%zu differ)\n", pitch, w, h, sh, bad ? "NOT memmove" : "memmove", bad);
	}
	/* 2D, unequal pitch, overlapping */
	{
		size_t base = 2 << 20;
		fill(ref, N);
		CK(cuMemcpyHtoD(d, ref, N));
		CUDA_MEMCPY2D c = { 0 };
		c.srcMemoryType = CU_MEMORYTYPE_DEVICE; c.srcDevice = d + base; c.srcPitch = 1024;
		c.dstMemoryType = CU_MEMORYTYPE_DEVICE; c.dstDevice = d + base + 100; c.dstPitch = 768;
		c.WidthInBytes = 700; c.Height = 300;
		CUresult r = cuMemcpy2D(&c);
		printf("2d unequal pitch overlapping: result %d\n", r);
	}
	return 0;
}
