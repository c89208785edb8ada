// SPDX-License-Identifier: MIT
/*
 * A driver-API program as a user builds it against an installed vgpu
 * (pkg-config or CMake, tests/host/install.sh): counts and names the
 * devices, copies 1 MiB to the device and back, and says which
 * libcuda.so.1 it runs on. Lines "KEY=VALUE"; exit status 0 on success.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

#define CHECK(call)							\
	do {								\
		CUresult r_ = (call);					\
		if (r_ != CUDA_SUCCESS) {				\
			printf("error=%s returned %d\n", #call, (int)r_); \
			return 1;					\
		}							\
	} while (0)

int main(void)
{
	enum { N = 1 << 18 };
	unsigned int *in = malloc(N * sizeof(*in)), *out = calloc(N, sizeof(*out));
	char name[256];
	CUdeviceptr d;
	CUcontext ctx;
	CUdevice dev;
	Dl_info info;
	int count, i;

	if (!in || !out)
		return 1;
	if (dladdr((void *)cuInit, &info) && info.dli_fname)
		printf("lib=%s\n", info.dli_fname);
	CHECK(cuInit(0));
	CHECK(cuDeviceGetCount(&count));
	printf("count=%d\n", count);
	CHECK(cuDeviceGet(&dev, 0));
	CHECK(cuDeviceGetName(name, sizeof(name), dev));
	printf("name=%s\n", name);
	CHECK(cuCtxCreate(&ctx, NULL, 0, dev));
	for (i = 0; i < N; i++)
		in[i] = i * 2654435761u;
	CHECK(cuMemAlloc(&d, N * sizeof(*in)));
	CHECK(cuMemcpyHtoD(d, in, N * sizeof(*in)));
	CHECK(cuMemcpyDtoH(out, d, N * sizeof(*out)));
	printf("roundtrip=%s\n", memcmp(in, out, N * sizeof(*in)) ? "differs" : "ok");
	CHECK(cuMemFree(d));
	CHECK(cuCtxDestroy(ctx));
	free(in);
	free(out);
	return 0;
}
