// SPDX-License-Identifier: MIT
/*
 * devmalloc.cu: linked lists built with device-side malloc in one launch,
 * summed and freed in the next; three rounds, so the second and third
 * reuse what the first freed. The heap is made larger first, as a
 * program expecting many allocations would.
 */
#include "sample.h"

enum { N = 2000, ROUNDS = 3 };

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "devmalloc");
	static unsigned int sums[N];
	CUdeviceptr heads, dsums;
	size_t heap = 0;
	int n = N, i, r, bad = 0;
	void *build_args[] = { &heads, &n };
	void *sum_args[] = { &heads, &dsums, &n };

	TRY(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 16 << 20));
	TRY(cuCtxGetLimit(&heap, CU_LIMIT_MALLOC_HEAP_SIZE));
	printf("heap: %zu bytes\n", heap);
	bad += heap != 16 << 20;
	TRY(cuMemAlloc(&heads, N * sizeof(CUdeviceptr)));
	TRY(cuMemAlloc(&dsums, sizeof(sums)));
	for (r = 0; r < ROUNDS; r++) {
		int wrong = 0;

		TRY(cuLaunchKernel(sample_func(mod, "build"), (N + 127) / 128, 1, 1,
				   128, 1, 1, 0, NULL, build_args, NULL));
		TRY(cuLaunchKernel(sample_func(mod, "sum_and_free"), (N + 127) / 128,
				   1, 1, 128, 1, 1, 0, NULL, sum_args, NULL));
		TRY(cuMemcpyDtoH(sums, dsums, sizeof(sums)));
		for (i = 0; i < N; i++) {
			unsigned int len = i % 7 + 1, want;

			want = len * i * 10 + len * (len - 1) / 2;
			wrong += sums[i] != want;
		}
		printf("round %d: %d lists, %d wrong sums\n", r, N, wrong);
		bad += wrong;
	}
	/* The heap's size is fixed once a kernel that mallocs has run. */
	r = cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 32 << 20);
	printf("resizing the heap after use: %d\n", r);
	bad += r != CUDA_ERROR_INVALID_VALUE;
	return sample_result(bad);
}
