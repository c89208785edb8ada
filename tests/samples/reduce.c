// SPDX-License-Identifier: MIT
/*
 * Reductions of 100000 ints (reduce.cu): per-block sums from shared memory
 * and from warp shuffles, and one total from atomics, each checked
 * against the host's sums.
 */
#include "sample.h"

enum { N = 100000, THREADS = 256, BLOCKS = (N + THREADS - 1) / THREADS };

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "reduce");
	static int in[N], part[BLOCKS], want[BLOCKS];
	const char *names[2] = { "reduce_shared", "reduce_shfl" };
	long long total = 0;
	int n = N, i, v, bad = 0, got;
	CUdeviceptr din, dout;
	void *args[] = { &din, &dout, &n };

	for (i = 0; i < N; i++) {
		in[i] = (i * 37) % 1001 - 500;
		want[i / THREADS] += in[i];
		total += in[i];
	}
	TRY(cuMemAlloc(&din, sizeof(in)));
	TRY(cuMemAlloc(&dout, sizeof(part)));
	TRY(cuMemcpyHtoD(din, in, sizeof(in)));
	for (v = 0; v < 2; v++) {
		int wrong = 0;

		TRY(cuMemsetD32(dout, 0, BLOCKS));
		TRY(cuLaunchKernel(sample_func(mod, names[v]), BLOCKS, 1, 1, THREADS,
				   1, 1, 0, NULL, args, NULL));
		TRY(cuMemcpyDtoH(part, dout, sizeof(part)));
		for (i = 0; i < BLOCKS; i++)
			wrong += part[i] != want[i];
		printf("%s: %d blocks, %d partial sums wrong\n", names[v], BLOCKS, wrong);
		bad += wrong;
		bad += sample_output("reduce", names[v], part, sizeof(part), 0);
	}
	TRY(cuMemsetD32(dout, 0, 1));
	TRY(cuLaunchKernel(sample_func(mod, "reduce_atomic"), BLOCKS, 1, 1, THREADS,
			   1, 1, 0, NULL, args, NULL));
	TRY(cuMemcpyDtoH(&got, dout, sizeof(got)));
	printf("reduce_atomic: total %d, expected %lld\n", got, total);
	bad += got != total;
	bad += sample_output("reduce", "reduce_atomic", &got, sizeof(got), 0);
	return sample_result(bad);
}
