// SPDX-License-Identifier: MIT
/* dynsmem.cu with blockDim.x ints of dynamic shared memory per block. */
#include "sample.h"

enum { N = 5000, THREADS = 384 };

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "dynsmem");
	static int data[N], out[N];
	int n = N, i, bad = 0;
	CUdeviceptr d;
	void *args[] = { &d, &n };

	for (i = 0; i < N; i++)
		data[i] = i * 3 + 1;
	TRY(cuMemAlloc(&d, sizeof(data)));
	TRY(cuMemcpyHtoD(d, data, sizeof(data)));
	TRY(cuLaunchKernel(sample_func(mod, "reverse"), (N + THREADS - 1) / THREADS, 1, 1,
			   THREADS, 1, 1, THREADS * sizeof(int), NULL, args, NULL));
	TRY(cuMemcpyDtoH(out, d, sizeof(out)));
	for (i = 0; i < N; i++) {
		int base = i / THREADS * THREADS, len = N - base < THREADS ? N - base : THREADS;

		bad += out[i] != data[base + len - 1 - (i - base)];
	}
	printf("reverse: %d ints in blocks of %d, %d wrong\n", N, THREADS, bad);
	bad += sample_output("dynsmem", "out", out, sizeof(out), 0);
	return sample_result(bad);
}
