/* SPDX-License-Identifier: MIT */
/*
 * What the samples with kernels share: checking driver-API calls, and
 * opening a context with the sample's PTX (built by nvcc next to the
 * program, in PTX_DIR, or named on the command line) loaded.
 */
#ifndef VGPU_SAMPLE_H
#define VGPU_SAMPLE_H

#include <math.h>
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

/* A context on device 0 with @name.ptx loaded (or argv[1]). */
static inline CUmodule sample_open(int argc, char **argv, const char *name)
{
	char path[4096];
	CUcontext ctx;
	CUmodule mod;

	if (argc > 1)
		snprintf(path, sizeof(path), "%s", argv[1]);
	else
		snprintf(path, sizeof(path), "%s/%s.ptx", PTX_DIR, name);
	TRY(cuInit(0));
	TRY(cuCtxCreate(&ctx, NULL, 0, 0));
	TRY(cuModuleLoad(&mod, path));
	return mod;
}

static inline CUfunction sample_func(CUmodule mod, const char *name)
{
	CUfunction f;

	TRY(cuModuleGetFunction(&f, mod, name));
	return f;
}

/* Prints the verdict; the exit status follows it. */
static inline int sample_result(int bad)
{
	printf("Result = %s\n", bad ? "FAIL" : "PASS");
	return bad != 0;
}

#endif /* VGPU_SAMPLE_H */
