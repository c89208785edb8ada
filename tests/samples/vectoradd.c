// SPDX-License-Identifier: MIT
/*
 * vectorAdd over the driver API: the kernel (vectoradd.cu, compiled to PTX
 * by nvcc at build time) is loaded with cuModuleLoad, launched with
 * cuLaunchKernel over 50000 elements, and checked against the host's sum.
 */
#include "sample.h"

int main(int argc, char **argv)
{
	const char *ptx = argc > 1 ? argv[1] : PTX_DIR "/vectoradd.ptx";
	int n = 50000, threads = 256, blocks = (n + threads - 1) / threads, i;
	size_t bytes = (size_t)n * sizeof(float);
	float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
	CUdeviceptr da, db, dc;
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;
	CUdevice dev;
	void *args[] = { &da, &db, &dc, &n };

	for (i = 0; i < n; i++) {
		a[i] = (float)rand() / (float)RAND_MAX;
		b[i] = (float)rand() / (float)RAND_MAX;
	}
	TRY(cuInit(0));
	TRY(cuDeviceGet(&dev, 0));
	TRY(cuCtxCreate(&ctx, NULL, 0, dev));
	TRY(cuModuleLoad(&mod, ptx));
	TRY(cuModuleGetFunction(&f, mod, "vectorAdd"));
	TRY(cuMemAlloc(&da, bytes));
	TRY(cuMemAlloc(&db, bytes));
	TRY(cuMemAlloc(&dc, bytes));
	TRY(cuMemcpyHtoD(da, a, bytes));
	TRY(cuMemcpyHtoD(db, b, bytes));
	printf("CUDA kernel launch with %d blocks of %d threads\n", blocks, threads);
	TRY(cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, NULL, args, NULL));
	TRY(cuMemcpyDtoH(c, dc, bytes));
	for (i = 0; i < n; i++)
		if (c[i] != a[i] + b[i]) {
			fprintf(stderr, "element %d: %g, expected %g\n", i,
				(double)c[i], (double)(a[i] + b[i]));
			printf("Result = FAIL\n");
			return 1;
		}
	if (sample_output("vectoradd", "c", c, bytes, 0)) {
		printf("Result = FAIL\n");
		return 1;
	}
	TRY(cuMemFree(da));
	TRY(cuMemFree(db));
	TRY(cuMemFree(dc));
	TRY(cuModuleUnload(mod));
	TRY(cuCtxDestroy(ctx));
	free(a);
	free(b);
	free(c);
	printf("Result = PASS\n");
	return 0;
}
