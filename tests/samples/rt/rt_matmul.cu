// SPDX-License-Identifier: MIT
// Matrix multiplication C = A * B with shared-memory tiles, the Programming
// Guide's kind: each block computes one BS x BS tile of C, walking A's row
// of tiles and B's column of tiles through shared memory. The kernel is a
// template instantiated for 16x16 and 32x32 tiles; the products are checked
// on the host with a relative-error bound that NaN cannot pass, and timed
// with events.
#include <math.h>

#include "rt.h"

// The sizes are multiples of both tile widths, so the kernel needs no
// bounds checks; small enough for an emulated device.
#define HA 96	// rows of A and C
#define WA 128	// columns of A, rows of B
#define WB 64	// columns of B and C

template <int BS>
__global__ void matmul(float *c, const float *a, const float *b, int wa,
		       int wb)
{
	__shared__ float as[BS][BS];
	__shared__ float bs[BS][BS];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * BS + ty, col = blockIdx.x * BS + tx;
	float sum = 0;

	for (int k0 = 0; k0 < wa; k0 += BS) {
		// Each thread brings in one element of each tile ...
		as[ty][tx] = a[row * wa + k0 + tx];
		bs[ty][tx] = b[(k0 + ty) * wb + col];
		__syncthreads();
		// ... and no thread may overwrite them before all have used
		// them: hence the second barrier.
#pragma unroll
		for (int k = 0; k < BS; k++)
			sum += as[ty][k] * bs[k][tx];
		__syncthreads();
	}
	c[row * wb + col] = sum;
}

// Elements that are small multiples of 1/8: every product and partial sum
// is exact in a float, so the result cannot depend on the order of the
// additions or on fused multiply-adds, and the checksum is the same on any
// device.
static void fill(float *m, int n, int mul, int mod)
{
	for (int i = 0; i < n; i++)
		m[i] = (float)((i * mul) % mod - mod / 2) * 0.5f;
}

template <int BS>
static void run(const float *ha, const float *hb, const double *ref)
{
	float *da, *db, *dc, *hc;
	cudaEvent_t start, stop;
	const int iterations = 3;
	double sum = 0;
	float ms = 0;
	int i, wrong = 0;

	hc = (float *)malloc(HA * WB * sizeof(float));
	TRY(cudaMalloc((void **)&da, HA * WA * sizeof(float)));
	TRY(cudaMalloc((void **)&db, WA * WB * sizeof(float)));
	TRY(cudaMalloc((void **)&dc, HA * WB * sizeof(float)));
	TRY(cudaMemcpy(da, ha, HA * WA * sizeof(float),
		       cudaMemcpyHostToDevice));
	TRY(cudaMemcpy(db, hb, WA * WB * sizeof(float),
		       cudaMemcpyHostToDevice));
	// All ones bits are a NaN: an element the kernel skipped fails.
	TRY(cudaMemset(dc, 0xff, HA * WB * sizeof(float)));

	dim3 threads(BS, BS), grid(WB / BS, HA / BS);

	// The first launch compiles and loads the kernel; time the others.
	matmul<BS><<<grid, threads>>>(dc, da, db, WA, WB);
	TRY(cudaGetLastError());
	TRY(cudaDeviceSynchronize());
	TRY(cudaEventCreate(&start));
	TRY(cudaEventCreate(&stop));
	TRY(cudaEventRecord(start));
	for (i = 0; i < iterations; i++)
		matmul<BS><<<grid, threads>>>(dc, da, db, WA, WB);
	TRY(cudaEventRecord(stop));
	TRY(cudaEventSynchronize(stop));
	TRY(cudaEventElapsedTime(&ms, start, stop));
	TRY(cudaMemcpy(hc, dc, HA * WB * sizeof(float),
		       cudaMemcpyDeviceToHost));

	for (i = 0; i < HA * WB; i++) {
		double err = fabs(hc[i] - ref[i]) /
			     (fabs(ref[i]) > 1 ? fabs(ref[i]) : 1);

		// Written so that a NaN error counts as wrong.
		if (!(err <= 1e-6))
			wrong++;
		sum += hc[i];
	}
	EXPECT_TRUE(wrong == 0);
	printf("matrixMul %dx%d tiles: C(%dx%d) = A(%dx%d) * B(%dx%d), "
	       "%d wrong, sum %.3f\n", BS, BS, HA, WB, HA, WA, WA, WB, wrong,
	       sum);
	double flops = 2.0 * HA * WA * WB * iterations;
	printf("~ matrixMul %dx%d tiles: %.3f ms a product, %.4f GFlop/s\n",
	       BS, BS, ms / iterations, ms > 0 ? flops / (ms * 1e6) : 0);

	TRY(cudaEventDestroy(start));
	TRY(cudaEventDestroy(stop));
	TRY(cudaFree(da));
	TRY(cudaFree(db));
	TRY(cudaFree(dc));
	free(hc);
}

int main(void)
{
	float *ha = (float *)malloc(HA * WA * sizeof(float));
	float *hb = (float *)malloc(WA * WB * sizeof(float));
	double *ref = (double *)malloc(HA * WB * sizeof(double));
	int r, c, k;

	rt_check_library();
	TRY(cudaSetDevice(0));
	fill(ha, HA * WA, 7, 13);
	fill(hb, WA * WB, 5, 11);
	for (r = 0; r < HA; r++)
		for (c = 0; c < WB; c++) {
			double s = 0;

			for (k = 0; k < WA; k++)
				s += (double)ha[r * WA + k] * hb[k * WB + c];
			ref[r * WB + c] = s;
		}
	run<16>(ha, hb, ref);
	run<32>(ha, hb, ref);
	free(ha);
	free(hb);
	free(ref);
	return rt_result();
}
