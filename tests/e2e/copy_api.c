// SPDX-License-Identifier: MIT
/*
 * Copies and fills through the driver API: round trips between pageable,
 * registered and device memory at sizes that cross the staging buffer,
 * cuMemcpy's direction from unified addresses, the 8/16/32-bit fills, the
 * checks NVIDIA's driver makes before queuing (bogus pointers, ranges past
 * an allocation's end), and several threads copying at once.
 */
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>

#include "tap.h"

#define MIB (1ULL << 20)

static void setup(void)
{
	CUcontext c;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
}

static void fill(unsigned char *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)((i * 2654435761u + seed) >> 13);
}

static void round_trip(size_t n, int registered)
{
	/* Registration pins whole pages: keep the two buffers apart. */
	size_t span = (n + 4095) / 4096 * 4096;
	unsigned char *in = aligned_alloc(4096, span), *out = aligned_alloc(4096, span);
	CUdeviceptr d;

	fill(in, n, (unsigned int)n);
	memset(out, 0, n);
	if (registered) {
		CHECK_RES(CUDA_SUCCESS, cuMemHostRegister(in, n, 0));
		CHECK_RES(CUDA_SUCCESS, cuMemHostRegister(out, n, 0));
	}
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, n));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(d, in, n));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(out, d, n));
	if (memcmp(in, out, n))
		TAP_FAIL("%zu bytes (%s) came back different", n,
			 registered ? "registered" : "pageable");
	CHECK_RES(CUDA_SUCCESS, cuMemFree(d));
	if (registered) {
		CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(in));
		CHECK_RES(CUDA_SUCCESS, cuMemHostUnregister(out));
	}
	free(in);
	free(out);
}

static void pageable_round_trips(void)
{
	static const size_t sizes[] = { 1, 7, 4096 + 3, MIB, 3 * MIB + 17, 9 * MIB };
	size_t i;

	setup();
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		round_trip(sizes[i], 0);
}

static void registered_round_trips(void)
{
	setup();
	round_trip(100, 1);
	round_trip(5 * MIB + 1, 1);
}

static void new_memory_reads_zero(void)
{
	unsigned char *out = malloc(3 * MIB);
	CUdeviceptr d;
	size_t i, bad = 0;

	setup();
	memset(out, 0xff, 3 * MIB);
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 3 * MIB));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(out, d, 3 * MIB));
	for (i = 0; i < 3 * MIB; i++)
		bad += out[i] != 0;
	CHECK(bad == 0);
	free(out);
}

static void device_to_device(void)
{
	unsigned char in[5000], out[5000];
	CUdeviceptr a, b;

	setup();
	fill(in, sizeof(in), 9);
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&a, sizeof(in)));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&b, sizeof(in)));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(a, in, sizeof(in)));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoD(b, a, sizeof(in)));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(out, b, sizeof(out)));
	CHECK(memcmp(in, out, sizeof(in)) == 0);
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

static void unified_memcpy(void)
{
	unsigned char in[3000], out[3000], mid[3000];
	CUdeviceptr a, b;

	setup();
	fill(in, sizeof(in), 5);
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&a, sizeof(in)));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&b, sizeof(in)));
	CHECK_RES(CUDA_SUCCESS, cuMemcpy(a, (uintptr_t)in, sizeof(in)));
	CHECK_RES(CUDA_SUCCESS, cuMemcpy(b, a, sizeof(in)));
	CHECK_RES(CUDA_SUCCESS, cuMemcpy((uintptr_t)mid, b, sizeof(in)));
	CHECK_RES(CUDA_SUCCESS, cuMemcpy((uintptr_t)out, (uintptr_t)mid, sizeof(in)));
	CHECK(memcmp(in, out, sizeof(in)) == 0);
}

static void fills(void)
{
	uint8_t b8[1001];
	uint16_t b16[1001];
	uint32_t b32[1001];
	CUdeviceptr d;
	int i, bad = 0;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, sizeof(b32)));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD8(d, 0x5c, 1000));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(b8, d, sizeof(b8)));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD16(d, 0xa1b2, 1000));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(b16, d, sizeof(b16)));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(d, 0xc0ffee11, 1000));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(b32, d, sizeof(b32)));
	for (i = 0; i < 1000; i++)
		bad += b8[i] != 0x5c || b16[i] != 0xa1b2 || b32[i] != 0xc0ffee11;
	CHECK(bad == 0);
	CHECK(b8[1000] == 0 && b16[1000] == 0 && b32[1000] == 0);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(d + 2, 0, 4));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD16(d + 1, 0, 4));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(d, 0, 1002));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD8(d, 0, 0));
}

static void checks_before_queuing(void)
{
	unsigned char buf[256];
	CUdeviceptr d;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuMemcpyHtoD(0x1000, buf, 16));
	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 100));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(0x1234, buf, 16));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(d, buf, 101));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(d + 90, buf, 11));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(buf, d + 50, 51));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoD(d, 0x1234, 16));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyHtoD(d, NULL, 16));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(d + 90, buf, 10));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(d, buf, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

struct worker {
	int id;
	CUcontext ctx;
	int failures;
};

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	size_t n = 200000 + (size_t)w->id * 1000;
	unsigned char *in = malloc(n), *out = malloc(n);
	CUdeviceptr d;
	int i;

	fill(in, n, (unsigned int)w->id);
	w->failures += cuCtxSetCurrent(w->ctx) != CUDA_SUCCESS;
	w->failures += cuMemAlloc(&d, n) != CUDA_SUCCESS;
	for (i = 0; i < 10 && !w->failures; i++) {
		memset(out, 0, n);
		w->failures += cuMemcpyHtoD(d, in, n) != CUDA_SUCCESS;
		w->failures += cuMemcpyDtoH(out, d, n) != CUDA_SUCCESS;
		w->failures += memcmp(in, out, n) != 0;
	}
	cuMemFree(d);
	free(in);
	free(out);
	return NULL;
}

static void threads_copy_at_once(void)
{
	struct worker w[4];
	pthread_t t[4];
	CUcontext c;
	int i;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&c, 0));
	for (i = 0; i < 4; i++) {
		w[i].id = i;
		w[i].ctx = c;
		w[i].failures = 0;
		pthread_create(&t[i], NULL, worker_main, &w[i]);
	}
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	for (i = 0; i < 4; i++)
		CHECK(w[i].failures == 0);
}

/*
 * A long synchronous copy in one context does not hold up another
 * context's work in another thread: each context has its own lock.
 */
struct long_copy {
	CUcontext ctx;
	volatile int started, done;
	CUresult result;
};

static void *long_copy_main(void *arg)
{
	enum { N = 256 << 20 };
	struct long_copy *lc = arg;
	unsigned char *buf = malloc(N);
	CUdeviceptr d;

	cuCtxSetCurrent(lc->ctx);
	lc->result = buf ? cuMemAlloc(&d, N) : CUDA_ERROR_OUT_OF_MEMORY;
	if (lc->result == CUDA_SUCCESS) {
		memset(buf, 1, N);
		lc->started = 1;
		lc->result = cuMemcpyHtoD(d, buf, N);
		lc->done = 1;
		cuMemFree(d);
	}
	lc->started = 1;
	free(buf);
	return NULL;
}

static void other_contexts_go_on(void)
{
	struct long_copy lc = { 0 };
	unsigned int word = 0x1234, back = 0;
	CUcontext mine;
	CUdeviceptr d;
	pthread_t t;
	int i, done_early;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&lc.ctx, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&mine, NULL, 0, 0));
	pthread_create(&t, NULL, long_copy_main, &lc);
	while (!lc.started)
		usleep(1000);
	usleep(20000);
	for (i = 0; i < 10; i++) {
		CHECK_RES(CUDA_SUCCESS, cuMemAlloc(&d, 4));
		CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(d, &word, 4));
		CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&back, d, 4));
		CHECK_RES(CUDA_SUCCESS, cuMemFree(d));
	}
	done_early = !lc.done;
	pthread_join(t, NULL);
	CHECK(back == word);
	CHECK(lc.result == CUDA_SUCCESS);
	CHECK(done_early);
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(mine));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(lc.ctx));
}

/* Host rows of 300 bytes (pitch 320) -> device (pitch 512) -> host (pitch 400). */
static void copy2d_round_trip(int pinned)
{
	enum { W = 300, H = 2000, HP = 320, DP = 512, OP = 400 };
	unsigned char *in = aligned_alloc(4096, (size_t)HP * H + 4096);
	unsigned char *out = aligned_alloc(4096, (size_t)OP * H + 4096);
	CUDA_MEMCPY2D c;
	CUdeviceptr d;
	size_t row, col, bad = 0;

	fill(in, (size_t)HP * H, 77);
	memset(out, 0xee, (size_t)OP * H);
	if (pinned) {
		CHECK_RES(CUDA_SUCCESS, cuMemHostRegister(in, (size_t)HP * H, 0));
		CHECK_RES(CUDA_SUCCESS, cuMemHostRegister(out, (size_t)OP * H, 0));
	}
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, (size_t)DP * H));
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = in;
	c.srcPitch = HP;
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = d;
	c.dstPitch = DP;
	c.WidthInBytes = W;
	c.Height = H;
	CHECK_RES(CUDA_SUCCESS, cuMemcpy2D(&c));
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = d;
	c.srcPitch = DP;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = out;
	c.dstPitch = OP;
	c.WidthInBytes = W;
	c.Height = H;
	CHECK_RES(CUDA_SUCCESS, cuMemcpy2D(&c));
	for (row = 0; row < H; row++) {
		bad += memcmp(in + row * HP, out + row * OP, W) != 0;
		for (col = W; col < OP; col++)
			bad += out[row * OP + col] != 0xee;
	}
	CHECK(bad == 0);
	free(in);
	free(out);
}

static void copy2d_pageable(void)
{
	setup();
	copy2d_round_trip(0);
}

static void copy2d_pinned(void)
{
	setup();
	copy2d_round_trip(1);
}

static void copy2d_offsets_and_checks(void)
{
	unsigned char host[64 * 8], back[16 * 4];
	CUDA_MEMCPY2D c;
	CUdeviceptr d;
	int i, bad = 0;

	setup();
	for (i = 0; i < 64 * 8; i++)
		host[i] = (unsigned char)i;
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 64 * 8));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(d, host, sizeof(host)));
	/* A 16x4 block at (x=8, y=2) of a 64-byte-pitch image. */
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_UNIFIED;
	c.srcDevice = d;
	c.srcXInBytes = 8;
	c.srcY = 2;
	c.srcPitch = 64;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = back;
	c.dstPitch = 16;
	c.WidthInBytes = 16;
	c.Height = 4;
	CHECK_RES(CUDA_SUCCESS, cuMemcpy2D(&c));
	for (i = 0; i < 64; i++)
		bad += back[i] != (unsigned char)((2 + i / 16) * 64 + 8 + i % 16);
	CHECK(bad == 0);
	c.Height = 7;		/* rows past the allocation */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c));
	c.Height = 4;
	c.srcPitch = 8;		/* pitch below the width */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c));
	c.srcPitch = 64;
	c.srcMemoryType = CU_MEMORYTYPE_ARRAY;	/* no array: array_api has them */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c));
	c.srcMemoryType = (CUmemorytype)9;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(NULL));
}

static void fills_2d(void)
{
	uint32_t img[8 * 16];
	CUdeviceptr d;
	int row, col, bad = 0;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, sizeof(img)));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD2D32(d, 64, 0x01020304, 5, 8));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(img, d, sizeof(img)));
	for (row = 0; row < 8; row++)
		for (col = 0; col < 16; col++)
			bad += img[row * 16 + col] != (col < 5 ? 0x01020304u : 0u);
	CHECK(bad == 0);
	CHECK_RES(CUDA_SUCCESS, cuMemsetD2D8(d, 64, 0xff, 64, 8));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD2D16(d, 64, 0x1234, 2, 8));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(img, d, sizeof(img)));
	CHECK(img[0] == 0x12341234u && img[1] == 0xffffffffu && img[16] == 0x12341234u);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D32(d, 63, 0, 4, 2));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D32(d, 64, 0, 17, 2));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD2D32(d, 64, 0, 16, 9));
}

static void async_on_the_default_stream(void)
{
	size_t n = 3 * MIB + 5;
	unsigned char *in = aligned_alloc(4096, 4 * MIB), *out = aligned_alloc(4096, 4 * MIB);
	unsigned char small[64];
	CUdeviceptr a, b;

	setup();
	fill(in, n, 3);
	memset(out, 0, n);
	CHECK_RES(CUDA_SUCCESS, cuMemHostRegister(in, 4 * MIB, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemHostRegister(out, 4 * MIB, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&a, n));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&b, n));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoDAsync(a, in, n, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD8Async(b, 0, n, CU_STREAM_LEGACY));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoDAsync(b, a, n, CU_STREAM_PER_THREAD));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoHAsync(out, b, n, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(memcmp(in, out, n) == 0);
	/* Pageable memory: the call is synchronous, the data is there. */
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32Async(a, 0x11223344, 16, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoHAsync(small, a, sizeof(small), NULL));
	CHECK(small[0] == 0x44 && small[63] == 0x11);
	/* No other stream exists yet. */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuMemcpyHtoDAsync(a, in, 16, (CUstream)0x1234));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuMemsetD8Async(a, 0, 16, (CUstream)0x1234));
}

/* A 20x30x7 box: host (pitch 24, 32 rows a slice) -> device volume
 * (pitch 512, 40 rows a slice) at (4, 3, 2) -> back to a host box. */
static void copy3d_round_trip(void)
{
	enum { W = 20, H = 30, D = 7 };
	size_t hsz = 24 * 32 * D, dsz = 512 * 40 * (D + 2);
	unsigned char *in = malloc(hsz), *out = malloc(hsz);
	CUDA_MEMCPY3D c;
	CUdeviceptr dev;
	size_t x, y, z, bad = 0;

	setup();
	fill(in, hsz, 11);
	memset(out, 0, hsz);
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dev, dsz));
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = in;
	c.srcPitch = 24;
	c.srcHeight = 32;
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = dev;
	c.dstXInBytes = 4;
	c.dstY = 3;
	c.dstZ = 2;
	c.dstPitch = 512;
	c.dstHeight = 40;
	c.WidthInBytes = W;
	c.Height = H;
	c.Depth = D;
	CHECK_RES(CUDA_SUCCESS, cuMemcpy3D(&c));
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = dev;
	c.srcXInBytes = 4;
	c.srcY = 3;
	c.srcZ = 2;
	c.srcPitch = 512;
	c.srcHeight = 40;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = out;
	c.dstPitch = 24;
	c.dstHeight = 32;
	c.WidthInBytes = W;
	c.Height = H;
	c.Depth = D;
	CHECK_RES(CUDA_SUCCESS, cuMemcpy3D(&c));
	for (z = 0; z < D; z++)
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++)
				bad += in[(z * 32 + y) * 24 + x] != out[(z * 32 + y) * 24 + x];
	CHECK(bad == 0);
	c.Depth = D + 2;	/* slices past the allocation's end */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
	c.Depth = D;
	c.srcHeight = H - 1;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
	c.srcHeight = 40;
	c.srcLOD = 1;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy3D(&c));
	free(in);
	free(out);
}

static const struct tap_test tests[] = {
	TAP_TEST(pageable_round_trips),
	TAP_TEST(registered_round_trips),
	TAP_TEST(new_memory_reads_zero),
	TAP_TEST(device_to_device),
	TAP_TEST(unified_memcpy),
	TAP_TEST(fills),
	TAP_TEST(checks_before_queuing),
	TAP_TEST(threads_copy_at_once),
	TAP_TEST(other_contexts_go_on),
	TAP_TEST(copy2d_pageable),
	TAP_TEST(copy2d_pinned),
	TAP_TEST(copy2d_offsets_and_checks),
	TAP_TEST(fills_2d),
	TAP_TEST(async_on_the_default_stream),
	TAP_TEST(copy3d_round_trip),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
