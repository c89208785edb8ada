// SPDX-License-Identifier: MIT
/* grid2d.cu over a 333 x 200 matrix in 16 x 8 blocks, every element checked. */
#include "sample.h"

enum { W = 333, H = 200, BX = 16, BY = 8 };

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "grid2d");
	static float in[W * H], out[W * H];
	int w = W, h = H, x, y, bad = 0;
	CUdeviceptr din, dout;
	void *args[] = { &din, &dout, &w, &h };

	for (x = 0; x < W * H; x++)
		in[x] = (float)(x % 1000) * 0.125f;
	TRY(cuMemAlloc(&din, sizeof(in)));
	TRY(cuMemAlloc(&dout, sizeof(out)));
	TRY(cuMemcpyHtoD(din, in, sizeof(in)));
	TRY(cuMemsetD32(dout, 0, W * H));
	TRY(cuLaunchKernel(sample_func(mod, "transform"), (W + BX - 1) / BX,
			   (H + BY - 1) / BY, 1, BX, BY, 1, 0, NULL, args, NULL));
	TRY(cuMemcpyDtoH(out, dout, sizeof(out)));
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			bad += out[y * W + x] != in[y * W + x] * 2.0f + (float)(x - y);
	printf("transform: %d x %d, %d elements wrong\n", W, H, bad);
	bad += sample_output("grid2d", "out", out, sizeof(out), 0);
	return sample_result(bad);
}
