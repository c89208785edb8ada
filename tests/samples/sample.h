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

/*
 * Fidelity with NVIDIA's hardware: each sample hands its results to
 * sample_output(). With VGPU_SAMPLE_DUMP=DIR set they are written to
 * DIR/SAMPLE-NAME.bin (how the reference data in tests/samples/ref was
 * recorded on an H100); with VGPU_SAMPLE_REF=DIR they are compared with
 * the reference: exact results by a hash of their bytes (DIR/SAMPLE-NAME.fnv),
 * results of PTX's approximate instructions value by value against the
 * H100's (DIR/SAMPLE-NAME.bin) within @tol, a relative error (0: exact);
 * a NaN matches only a NaN.
 * Returns the number of mismatches.
 */
static inline unsigned long long sample_fnv(const void *p, size_t n)
{
	const unsigned char *b = p;
	unsigned long long h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

static inline int sample_output(const char *sample, const char *name,
				const void *data, size_t n, double tol)
{
	const char *dump = getenv("VGPU_SAMPLE_DUMP"), *ref = getenv("VGPU_SAMPLE_REF");
	char path[4096];
	FILE *f;
	int bad = 0;

	if (dump) {
		snprintf(path, sizeof(path), "%s/%s-%s.bin", dump, sample, name);
		f = fopen(path, "wb");
		if (!f || fwrite(data, 1, n, f) != n)
			bad++;
		if (f)
			fclose(f);
	}
	if (!ref)
		return bad;
	snprintf(path, sizeof(path), "%s/%s-%s.%s", ref, sample, name,
		 tol ? "bin" : "fnv");
	f = fopen(path, "rb");
	if (!f) {
		printf("%s: no reference %s\n", name, path);
		return 1;
	}
	if (!tol) {
		unsigned long long want = 0;

		bad += fscanf(f, "%llx", &want) != 1 || want != sample_fnv(data, n);
	} else {
		const float *got = data;
		size_t i;

		for (i = 0; i < n / sizeof(float); i++) {
			double g = got[i];
			float w;

			if (fread(&w, sizeof(w), 1, f) != 1) {
				bad++;
				break;
			}
			if (isnan(g) || isnan(w))
				bad += !isnan(g) || !isnan(w);
			else
				bad += fabs(g - w) > tol * (fabs(w) > 1 ? fabs(w) : 1);
		}
	}
	fclose(f);
	printf("%s: %s the H100's\n", name, bad ? "DIFFERS from" : "matches");
	return bad;
}

/* Prints the verdict; the exit status follows it. */
static inline int sample_result(int bad)
{
	printf("Result = %s\n", bad ? "FAIL" : "PASS");
	return bad != 0;
}

#endif /* VGPU_SAMPLE_H */
