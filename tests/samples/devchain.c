// SPDX-License-Identifier: MIT
/* devchain.cu: calls to __noinline__ functions, checked against the host. */
#include "sample.h"

enum { N = 500 };

static float scale_add(float x, int k)
{
	return fmaf(x, (float)k, 1.0f);
}

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "devchain");
	static float in[2 * N], out[2 * N];
	int n = N, i, bad = 0;
	CUdeviceptr din, dout;
	void *args[] = { &din, &dout, &n };

	for (i = 0; i < 2 * N; i++)
		in[i] = (float)i * 0.3f - 7.0f;
	TRY(cuMemAlloc(&din, sizeof(in)));
	TRY(cuMemAlloc(&dout, sizeof(out)));
	TRY(cuMemcpyHtoD(din, in, sizeof(in)));
	TRY(cuLaunchKernel(sample_func(mod, "chain"), (N + 63) / 64, 1, 1, 64, 1, 1,
			   0, NULL, args, NULL));
	TRY(cuMemcpyDtoH(out, dout, sizeof(out)));
	for (i = 0; i < N; i++) {
		float a = scale_add(in[2 * i + 1], i % 5), b = scale_add(in[2 * i], i % 5);

		bad += out[2 * i] != a || out[2 * i + 1] != b - a;
	}
	printf("chain: %d pairs, %d wrong\n", N, bad);
	bad += sample_output("devchain", "out", out, sizeof(out), 0);
	return sample_result(bad);
}
