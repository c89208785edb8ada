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

static const struct tap_test tests[] = {
	TAP_TEST(pageable_round_trips),
	TAP_TEST(registered_round_trips),
	TAP_TEST(new_memory_reads_zero),
	TAP_TEST(device_to_device),
	TAP_TEST(unified_memcpy),
	TAP_TEST(fills),
	TAP_TEST(checks_before_queuing),
	TAP_TEST(threads_copy_at_once),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
