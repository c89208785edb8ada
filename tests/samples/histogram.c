// SPDX-License-Identifier: MIT
/* A histogram of 1 MB of bytes (histogram.cu), checked bin by bin. */
#include "sample.h"

enum { N = 1 << 20, THREADS = 256, BLOCKS = 32 };

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "histogram");
	static unsigned char data[N];
	static unsigned int bins[256], want[256];
	unsigned int seed = 12345;
	int n = N, i, bad = 0;
	CUdeviceptr dd, db;
	void *args[] = { &dd, &n, &db };

	for (i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		data[i] = (unsigned char)((seed >> 16) % 251);
		want[data[i]]++;
	}
	TRY(cuMemAlloc(&dd, N));
	TRY(cuMemAlloc(&db, sizeof(bins)));
	TRY(cuMemcpyHtoD(dd, data, N));
	TRY(cuMemsetD32(db, 0, 256));
	TRY(cuLaunchKernel(sample_func(mod, "histogram"), BLOCKS, 1, 1, THREADS, 1, 1,
			   0, NULL, args, NULL));
	TRY(cuMemcpyDtoH(bins, db, sizeof(bins)));
	for (i = 0; i < 256; i++)
		bad += bins[i] != want[i];
	printf("histogram: %d bytes, %d of 256 bins wrong\n", N, bad);
	bad += sample_output("histogram", "bins", bins, sizeof(bins), 0);
	return sample_result(bad);
}
