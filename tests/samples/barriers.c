// SPDX-License-Identifier: MIT
/*
 * barriers.cu: a producer warp and two consumer warps passing 5000 ints
 * through shared memory on named barriers, and two groups of a block each
 * reducing on its own barrier; checked against the host and compared
 * with an H100's results.
 */
#include "sample.h"

enum { N = 5000, PIPE_BLOCKS = 8, GROUP_BLOCKS = 16 };

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "barriers");
	static int in[N], out[N], gin[GROUP_BLOCKS * 128], gout[GROUP_BLOCKS * 4];
	int n = N, i, b, bad = 0;
	CUdeviceptr din, dout, dgin, dgout;
	void *pargs[] = { &din, &n, &dout };
	void *gargs[] = { &dgin, &dgout };

	for (i = 0; i < N; i++)
		in[i] = i * 7 % 1000 - 300;
	for (i = 0; i < GROUP_BLOCKS * 128; i++)
		gin[i] = (i * 2654435761u >> 7) % 2001 - 1000;
	TRY(cuMemAlloc(&din, sizeof(in)));
	TRY(cuMemAlloc(&dout, sizeof(out)));
	TRY(cuMemAlloc(&dgin, sizeof(gin)));
	TRY(cuMemAlloc(&dgout, sizeof(gout)));
	TRY(cuMemcpyHtoD(din, in, sizeof(in)));
	TRY(cuMemcpyHtoD(dgin, gin, sizeof(gin)));
	TRY(cuLaunchKernel(sample_func(mod, "pipeline"), PIPE_BLOCKS, 1, 1, 96, 1, 1,
			   0, NULL, pargs, NULL));
	TRY(cuLaunchKernel(sample_func(mod, "groups"), GROUP_BLOCKS, 1, 1, 128, 1, 1,
			   0, NULL, gargs, NULL));
	TRY(cuMemcpyDtoH(out, dout, sizeof(out)));
	TRY(cuMemcpyDtoH(gout, dgout, sizeof(gout)));
	for (i = 0; i < N; i++)
		bad += out[i] != in[i] * 3 + i / 64;
	for (b = 0; b < GROUP_BLOCKS; b++) {
		int sum = 0, max = -1000000, odd0 = 0, odd1 = 0;

		for (i = 0; i < 64; i++) {
			int x = gin[b * 128 + i], y = gin[b * 128 + 64 + i];

			sum += x;
			max = y > max ? y : max;
			odd0 += x & 1;
			odd1 += y & 1;
		}
		bad += gout[4 * b] != sum || gout[4 * b + 1] != max ||
		       gout[4 * b + 2] != odd0 || gout[4 * b + 3] != odd1;
	}
	printf("barriers: %d piped, %d groups, %d wrong\n", N, 2 * GROUP_BLOCKS, bad);
	bad += sample_output("barriers", "pipe", out, sizeof(out), 0);
	bad += sample_output("barriers", "groups", gout, sizeof(gout), 0);
	return sample_result(bad);
}
