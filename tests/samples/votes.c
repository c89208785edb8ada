// SPDX-License-Identifier: MIT
/* votes.cu over 4000 ints in blocks of 128, checked block by block and warp by warp. */
#include "sample.h"

enum { N = 4000, THREADS = 128, BLOCKS = (N + THREADS - 1) / THREADS };

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "votes");
	static int in[BLOCKS * THREADS], blocks[3 * BLOCKS];
	static unsigned int warps[BLOCKS * THREADS / 32];
	int n = N, i, b, bad = 0;
	CUdeviceptr din, db, dw;
	void *args[] = { &din, &n, &db, &dw };

	for (i = 0; i < N; i++)
		in[i] = i % 96 < 64 ? 3 * i : i * 7 + 1;	/* some warps all, some mixed */
	TRY(cuMemAlloc(&din, sizeof(in)));
	TRY(cuMemAlloc(&db, sizeof(blocks)));
	TRY(cuMemAlloc(&dw, sizeof(warps)));
	TRY(cuMemcpyHtoD(din, in, sizeof(in)));
	TRY(cuLaunchKernel(sample_func(mod, "votes"), BLOCKS, 1, 1, THREADS, 1, 1, 0,
			   NULL, args, NULL));
	TRY(cuMemcpyDtoH(blocks, db, sizeof(blocks)));
	TRY(cuMemcpyDtoH(warps, dw, sizeof(warps)));
	for (b = 0; b < BLOCKS; b++) {
		int count = 0;

		for (i = b * THREADS; i < (b + 1) * THREADS; i++)
			count += i < N && in[i] % 3 == 0;
		bad += blocks[3 * b] != count || blocks[3 * b + 1] != (count == THREADS) ||
		       blocks[3 * b + 2] != (count > 0);
	}
	for (i = 0; i < BLOCKS * THREADS / 32; i++) {
		unsigned int ballot = 0;
		int l;

		for (l = 0; l < 32; l++)
			if (i * 32 + l < N && in[i * 32 + l] % 3 == 0)
				ballot |= 1u << l;
		bad += warps[i] != (ballot ^ (ballot ? 0x80000000u : 0));
	}
	printf("votes: %d blocks, %d warps, %d wrong\n", BLOCKS, BLOCKS * THREADS / 32, bad);
	bad += sample_output("votes", "blocks", blocks, sizeof(blocks), 0);
	bad += sample_output("votes", "warps", warps, sizeof(warps), 0);
	return sample_result(bad);
}
