// SPDX-License-Identifier: MIT
/*
 * Matrix multiply, C (96 x 80) = A (96 x 64) B (64 x 80), with both
 * kernels of matmul.cu; each result is checked against the same sums
 * made on the host with fmaf in the kernels' order (nvcc contracts
 * "sum += a * b" into one fma), so they agree to the bit.
 */
#include "sample.h"

enum { N = 96, K = 64, M = 80, BLOCK = 16 };

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "matmul");
	static float a[N * K], b[K * M], c[N * M], want[N * M];
	const char *names[2] = { "matmul_simple", "matmul_tiled" };
	int n = N, k_dim = K, m = M, i, j, k, v, bad = 0;
	CUdeviceptr da, db, dc;
	void *args[] = { &da, &db, &dc, &n, &k_dim, &m };

	for (i = 0; i < N * K; i++)
		a[i] = (float)((i * 7) % 19) / 8.0f - 1.0f;
	for (i = 0; i < K * M; i++)
		b[i] = (float)((i * 5) % 23) / 16.0f;
	for (i = 0; i < N; i++)
		for (j = 0; j < M; j++) {
			float s = 0;

			for (k = 0; k < K; k++)
				s = fmaf(a[i * K + k], b[k * M + j], s);
			want[i * M + j] = s;
		}
	TRY(cuMemAlloc(&da, sizeof(a)));
	TRY(cuMemAlloc(&db, sizeof(b)));
	TRY(cuMemAlloc(&dc, sizeof(c)));
	TRY(cuMemcpyHtoD(da, a, sizeof(a)));
	TRY(cuMemcpyHtoD(db, b, sizeof(b)));
	for (v = 0; v < 2; v++) {
		int wrong = 0;

		TRY(cuMemsetD32(dc, 0, N * M));
		TRY(cuLaunchKernel(sample_func(mod, names[v]), M / BLOCK, N / BLOCK, 1,
				   BLOCK, BLOCK, 1, 0, NULL, args, NULL));
		TRY(cuMemcpyDtoH(c, dc, sizeof(c)));
		for (i = 0; i < N * M; i++)
			wrong += c[i] != want[i];
		printf("%s: %d x %d, %d of %d elements differ\n", names[v], N, M,
		       wrong, N * M);
		bad += wrong;
		bad += sample_output("matmul", names[v], c, sizeof(c), 0);
	}
	return sample_result(bad);
}
