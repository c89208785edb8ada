// SPDX-License-Identifier: MIT
/*
 * Copy-engine benchmarks, each a ratio measured in one run (run it inside
 * the VM bench; `make bench` does). Prints lines "NAME: VALUE":
 *   copy_h2d_pinned_vs_memcpy  pinned host-to-device bandwidth of 64 MiB
 *                              copies / memcpy bandwidth of the same size
 *   copy_d2h_pinned_vs_memcpy  the same, device to host
 *   copy_pageable_vs_pinned    pageable / pinned host-to-device bandwidth
 *   memcpy4b_vs_null_ioctl     a 4-byte synchronous cuMemcpyHtoD / an
 *                              ioctl the module refuses at once
 *   peer_copy_vs_memcpy        cuMemcpyPeer of 64 MiB from device 0 to
 *                              device 1 (device 0's copy engine, memory
 *                              to memory) / memcpy bandwidth of the same
 *                              size; with two devices only
 * Each figure is the best of several repetitions.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench_cuda.h"
#include "uapi/vgpu.h"

#define N (64u << 20)
#define REPS 5

/* Seconds of the fastest of REPS runs of @what. */
#define BEST(what) ({ \
	double _best = 1e9; \
	for (int _i = 0; _i < REPS; _i++) { \
		double _t = now_s(); \
		what; \
		_t = now_s() - _t; \
		if (_t < _best) \
			_best = _t; \
	} \
	_best; \
})

int main(void)
{
	unsigned char *src = aligned_alloc(4096, N), *dst = aligned_alloc(4096, N);
	double t_memcpy, t_h2d_pinned, t_d2h_pinned, t_h2d_pageable, t_small, t_null;
	double t_peer = 0;
	int count = 0;
	unsigned int word = 0x12345678;
	CUdeviceptr d, small;
	CUcontext ctx;
	int fd, i;

	if (!src || !dst)
		return 1;
	memset(src, 1, N);
	memset(dst, 2, N);
	TRY(cuInit(0));
	TRY(cuCtxCreate(&ctx, NULL, 0, 0));
	TRY(cuMemAlloc(&d, N));
	TRY(cuMemAlloc(&small, 4));

	t_memcpy = BEST(memcpy(dst, src, N));
	t_h2d_pageable = BEST({ TRY(cuMemcpyHtoD(d, src, N)); TRY(cuCtxSynchronize()); });
	TRY(cuMemHostRegister(src, N, 0));
	TRY(cuMemHostRegister(dst, N, 0));
	t_h2d_pinned = BEST(TRY(cuMemcpyHtoD(d, src, N)));
	t_d2h_pinned = BEST(TRY(cuMemcpyDtoH(dst, d, N)));

	t_small = BEST({
		for (i = 0; i < 1000; i++)
			TRY(cuMemcpyHtoD(small, &word, 4));
	}) / 1000;
	fd = open("/dev/vgpu0", O_RDWR | O_CLOEXEC);
	t_null = BEST({
		for (i = 0; i < 1000; i++)
			ioctl(fd, _IO(VGPU_IOCTL_TYPE, 0xff));
	}) / 1000;
	close(fd);

	TRY(cuDeviceGetCount(&count));
	if (count > 1) {
		CUcontext ctx1;
		CUdeviceptr d1;

		TRY(cuCtxCreate(&ctx1, NULL, 0, 1));
		TRY(cuMemAlloc(&d1, N));
		TRY(cuCtxSetCurrent(ctx));
		TRY(cuMemcpyPeer(d1, ctx1, d, ctx, N));
		t_peer = BEST(TRY(cuMemcpyPeer(d1, ctx1, d, ctx, N)));
	}

	printf("copy_h2d_pinned_vs_memcpy: %.3f\n", t_memcpy / t_h2d_pinned);
	printf("copy_d2h_pinned_vs_memcpy: %.3f\n", t_memcpy / t_d2h_pinned);
	printf("copy_pageable_vs_pinned: %.3f\n", t_h2d_pinned / t_h2d_pageable);
	printf("memcpy4b_vs_null_ioctl: %.1f\n", t_small / t_null);
	if (t_peer)
		printf("peer_copy_vs_memcpy: %.3f\n", t_memcpy / t_peer);
	return 0;
}
