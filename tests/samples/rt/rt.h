/* SPDX-License-Identifier: MIT */
/*
 * What the runtime samples share: checking a call's cudaError_t, and
 * checking that a call answers the code NVIDIA's runtime answers.
 */
#ifndef VGPU_RT_SAMPLE_H
#define VGPU_RT_SAMPLE_H

#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#define TRY(call) do { \
	cudaError_t _e = (call); \
	if (_e != cudaSuccess) { \
		fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__, \
			__LINE__, #call, cudaGetErrorName(_e), \
			cudaGetErrorString(_e)); \
		printf("Result = FAIL\n"); \
		exit(1); \
	} \
} while (0)

static int rt_failures;

/* @call must answer @want; a mismatch is counted and reported. */
#define EXPECT(want, call) do { \
	cudaError_t _e = (call); \
	if (_e != (want)) { \
		fprintf(stderr, "%s:%d: %s answered %s, expected %s\n", \
			__FILE__, __LINE__, #call, cudaGetErrorName(_e), \
			cudaGetErrorName(want)); \
		rt_failures++; \
	} \
} while (0)

#define EXPECT_TRUE(cond) do { \
	if (!(cond)) { \
		fprintf(stderr, "%s:%d: %s is false\n", __FILE__, __LINE__, \
			#cond); \
		rt_failures++; \
	} \
} while (0)

/*
 * The runtime the program loaded is vgpu's, from VGPU_LIB_DIR (the
 * build's library folder): NVIDIA's would answer through its own driver.
 */
static inline void rt_check_library(void)
{
	char lib[PATH_MAX], dir[PATH_MAX];
	Dl_info info;

	if (!dladdr((void *)cudaGetErrorName, &info) || !info.dli_fname ||
	    !realpath(info.dli_fname, lib) || !realpath(VGPU_LIB_DIR, dir) ||
	    strncmp(lib, dir, strlen(dir)) || lib[strlen(dir)] != '/') {
		fprintf(stderr, "the runtime loaded is not vgpu's\n");
		rt_failures++;
		return;
	}
	printf("libcudart.so.13 loaded from the build's library folder\n");
}

/* Prints the verdict tests/vm/runtime.sh looks for; the exit status. */
static inline int rt_result(void)
{
	printf("Result = %s\n", rt_failures ? "FAIL" : "PASS");
	return rt_failures ? 1 : 0;
}

#endif /* VGPU_RT_SAMPLE_H */
