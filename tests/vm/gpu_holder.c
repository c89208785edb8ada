// SPDX-License-Identifier: MIT
/*
 * gpu_holder DEVICE MIB READY_FILE: holds a context on device DEVICE with
 * MIB MiB of device memory allocated, creates READY_FILE once it does,
 * and waits to be killed (60 s at most), for tests/vm/smi.sh to watch
 * with vgpu-smi.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cuda.h>

int main(int argc, char **argv)
{
	CUdeviceptr d;
	CUcontext ctx;
	CUdevice dev;
	FILE *ready;

	if (argc != 4) {
		fprintf(stderr, "usage: gpu_holder DEVICE MIB READY_FILE\n");
		return 2;
	}
	if (cuInit(0) || cuDeviceGet(&dev, atoi(argv[1])) ||
	    cuCtxCreate(&ctx, NULL, 0, dev) ||
	    cuMemAlloc(&d, (size_t)atoi(argv[2]) << 20)) {
		fprintf(stderr, "gpu_holder: no context with %s MiB on device %s\n",
			argv[2], argv[1]);
		return 1;
	}
	ready = fopen(argv[3], "w");
	if (!ready || fclose(ready))
		return 1;
	sleep(60);
	return 0;
}
