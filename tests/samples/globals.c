// SPDX-License-Identifier: MIT
/*
 * Module variables through cuModuleGetGlobal (globals.cu): the host
 * writes __constant__ coefficients, reads and writes __device__ data,
 * and checks what the kernel computed and counted.
 */
#include "sample.h"

enum { N = 1000 };

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "globals");
	static float in[N], out[N];
	float coeffs[4] = { 1.0f, -0.5f, 0.25f, 2.0f };
	int ncoeffs = 4, table[8], flag = 0, n = N, i, bad = 0;
	unsigned int calls = 7;
	CUdeviceptr din, dout, dcoeffs, dn, dcalls, dtable, dflag;
	size_t size;
	void *args[] = { &din, &dout, &n };

	for (i = 0; i < N; i++)
		in[i] = (float)i / 500.0f - 1.0f;
	TRY(cuModuleGetGlobal(&dcoeffs, &size, mod, "coeffs"));
	bad += size != sizeof(coeffs);
	TRY(cuModuleGetGlobal(&dn, &size, mod, "ncoeffs"));
	TRY(cuModuleGetGlobal(&dcalls, &size, mod, "calls"));
	TRY(cuModuleGetGlobal(&dtable, &size, mod, "table"));
	TRY(cuModuleGetGlobal(&dflag, NULL, mod, "flag"));
	bad += size != sizeof(table);
	TRY(cuMemcpyHtoD(dcoeffs, coeffs, sizeof(coeffs)));
	TRY(cuMemcpyHtoD(dn, &ncoeffs, sizeof(ncoeffs)));
	TRY(cuMemcpyHtoD(dcalls, &calls, sizeof(calls)));
	TRY(cuMemAlloc(&din, sizeof(in)));
	TRY(cuMemAlloc(&dout, sizeof(out)));
	TRY(cuMemcpyHtoD(din, in, sizeof(in)));
	TRY(cuLaunchKernel(sample_func(mod, "poly"), (N + 127) / 128, 1, 1, 128, 1, 1,
			   0, NULL, args, NULL));
	TRY(cuMemcpyDtoH(out, dout, sizeof(out)));
	TRY(cuMemcpyDtoH(&calls, dcalls, sizeof(calls)));
	TRY(cuMemcpyDtoH(table, dtable, sizeof(table)));
	TRY(cuMemcpyDtoH(&flag, dflag, sizeof(flag)));
	for (i = 0; i < N; i++) {
		float x = in[i], y = 0;
		int k;

		for (k = 3; k >= 0; k--)
			y = fmaf(y, x, coeffs[k]);
		bad += out[i] != y + (float)(i % 8 + 1);
	}
	printf("poly: %d values; calls %u (expected %d); flag %d\n", N, calls,
	       N + 7, flag);
	bad += calls != N + 7 || flag != 100 || table[1] != 2;
	bad += sample_output("globals", "out", out, sizeof(out), 0);
	return sample_result(bad);
}
