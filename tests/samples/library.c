// SPDX-License-Identifier: MIT
/*
 * The library API (CUDA 12's context-independent loading): the kernel
 * (library.cu, compiled to PTX by nvcc at build time) is read into memory
 * and loaded with cuLibraryLoadData before any context exists; the kernel
 * is found with cuLibraryGetKernel, its __device__ variable set through
 * cuLibraryGetGlobal, and it is launched through the CUkernel handle
 * itself, cast to CUfunction, over 100000 elements; the result is checked
 * against the host's.
 */
#include "sample.h"

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "rb");
	long n;
	char *buf;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = 0;
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : PTX_DIR "/library.ptx";
	int n = 100000, threads = 256, blocks = (n + threads - 1) / threads, i;
	size_t bytes = (size_t)n * sizeof(float), size;
	float *x = malloc(bytes), *y = malloc(bytes), *out = malloc(bytes);
	float a = 2.0f, bias = 0.25f;
	char *ptx = read_all(path);
	CUdeviceptr dx, dy, dbias;
	const char *name;
	CUlibrary lib;
	CUcontext ctx;
	CUkernel k;
	void *args[] = { &a, &dx, &dy, &n };

	if (!ptx || !x || !y || !out) {
		fprintf(stderr, "cannot read %s\n", path);
		printf("Result = FAIL\n");
		return 1;
	}
	for (i = 0; i < n; i++) {
		x[i] = (float)rand() / (float)RAND_MAX;
		y[i] = (float)rand() / (float)RAND_MAX;
	}
	TRY(cuInit(0));
	TRY(cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0));
	TRY(cuLibraryGetKernel(&k, lib, "saxpy"));
	TRY(cuKernelGetName(&name, k));
	printf("kernel %s loaded from a library\n", name);
	TRY(cuCtxCreate(&ctx, NULL, 0, 0));
	TRY(cuLibraryGetGlobal(&dbias, &size, lib, "bias"));
	TRY(cuMemcpyHtoD(dbias, &bias, sizeof(bias)));
	TRY(cuMemAlloc(&dx, bytes));
	TRY(cuMemAlloc(&dy, bytes));
	TRY(cuMemcpyHtoD(dx, x, bytes));
	TRY(cuMemcpyHtoD(dy, y, bytes));
	printf("CUDA kernel launch with %d blocks of %d threads\n", blocks, threads);
	TRY(cuLaunchKernel((CUfunction)k, blocks, 1, 1, threads, 1, 1, 0, NULL,
			   args, NULL));
	TRY(cuMemcpyDtoH(out, dy, bytes));
	for (i = 0; i < n; i++) {
		float want = a * x[i] + y[i] + bias;

		if (fabsf(out[i] - want) > 1e-5f * fabsf(want) + 1e-6f) {
			fprintf(stderr, "element %d: %g, expected %g\n", i,
				(double)out[i], (double)want);
			printf("Result = FAIL\n");
			return 1;
		}
	}
	TRY(cuMemFree(dx));
	TRY(cuMemFree(dy));
	TRY(cuCtxDestroy(ctx));
	TRY(cuLibraryUnload(lib));
	free(ptx);
	free(x);
	free(y);
	free(out);
	printf("Result = PASS\n");
	return 0;
}
