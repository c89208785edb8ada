// SPDX-License-Identifier: MIT
/*
 * bandwidthTest over the driver API: host-to-device, device-to-host and
 * device-to-device copies from pageable and from page-locked (registered)
 * memory, each verified, with the bandwidth each reached.
 * Usage: bandwidth [MiB]   (default 32)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda.h"

#define TRY(call) do { \
	CUresult _r = (call); \
	if (_r != CUDA_SUCCESS) { \
		fprintf(stderr, "%s failed: %d\n", #call, (int)_r); \
		printf("Result = FAIL\n"); \
		exit(1); \
	} \
} while (0)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void report(const char *what, size_t bytes, double seconds)
{
	printf("  %-34s %10.1f MB/s\n", what, bytes / seconds / 1e6);
}

int main(int argc, char **argv)
{
	size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 32, n = mib << 20, i;
	unsigned char *host, *back;
	CUdeviceptr a, b;
	CUcontext ctx;
	int pinned, fail = 0;
	double t;

	TRY(cuInit(0));
	TRY(cuCtxCreate(&ctx, NULL, 0, 0));
	TRY(cuMemAlloc(&a, n));
	TRY(cuMemAlloc(&b, n));
	host = aligned_alloc(4096, n);
	back = aligned_alloc(4096, n);
	if (!host || !back)
		return 1;
	for (i = 0; i < n; i++)
		host[i] = (unsigned char)(i * 131 + (i >> 12));
	printf("bandwidth: %zu MiB transfers\n", mib);

	for (pinned = 0; pinned < 2; pinned++) {
		printf(" %s memory\n", pinned ? "Page-locked" : "Pageable");
		if (pinned) {
			TRY(cuMemHostRegister(host, n, 0));
			TRY(cuMemHostRegister(back, n, 0));
		}
		memset(back, 0, n);
		t = now();
		TRY(cuMemcpyHtoD(a, host, n));
		TRY(cuCtxSynchronize());
		report("Host to Device", n, now() - t);
		t = now();
		TRY(cuMemcpyDtoH(back, a, n));
		report("Device to Host", n, now() - t);
		if (memcmp(host, back, n)) {
			printf("  data mismatch\n");
			fail = 1;
		}
		if (pinned) {
			TRY(cuMemHostUnregister(host));
			TRY(cuMemHostUnregister(back));
		}
	}
	t = now();
	TRY(cuMemcpyDtoD(b, a, n));
	TRY(cuCtxSynchronize());
	report("Device to Device", n, now() - t);
	memset(back, 0, n);
	TRY(cuMemcpyDtoH(back, b, n));
	if (memcmp(host, back, n)) {
		printf("  data mismatch after device-to-device\n");
		fail = 1;
	}
	TRY(cuMemFree(a));
	TRY(cuMemFree(b));
	TRY(cuCtxDestroy(ctx));
	printf("Result = %s\n", fail ? "FAIL" : "PASS");
	return fail;
}
