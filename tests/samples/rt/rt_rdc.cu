// SPDX-License-Identifier: MIT
// Separate compilation: built with -rdc=true together with
// rdc/rt_rdc_lib.cu, so the link stub registers the objects' fatbins and
// the runtime links their device code. A kernel here calls a device
// function and reads a device variable of the other object; the other
// object's kernel reads a variable defined here; both variables are
// written from the host with cudaMemcpyToSymbol and read back.
#include "rt.h"

#define N 256

extern __device__ int lib_bias;
extern __device__ int lib_scale(int x);
extern __global__ void lib_fill(int *out, int n);

__device__ int main_offset = 1000;

__global__ void main_scale(int *out, int n)
{
	int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		out[i] = lib_scale(i);
}

// Runs main_scale and checks every element against x * 3 + @bias.
static void check_scale(int *d, int *h, int bias)
{
	int i;

	main_scale<<<(N + 127) / 128, 128>>>(d, N);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost));
	for (i = 0; i < N; i++)
		if (h[i] != i * 3 + bias) {
			printf("main_scale: out[%d] = %d, want %d\n", i, h[i],
			       i * 3 + bias);
			rt_failures++;
			return;
		}
	printf("main_scale with lib_bias %d: ok\n", bias);
}

int main(void)
{
	int h[N], v, i;
	size_t size;
	int *d;

	rt_check_library();
	TRY(cudaMalloc(&d, N * sizeof(int)));

	// The initial value of the other object's variable, then a new one.
	check_scale(d, h, 7);
	v = 100;
	TRY(cudaMemcpyToSymbol(lib_bias, &v, sizeof(v)));
	check_scale(d, h, 100);
	v = 0;
	TRY(cudaMemcpyFromSymbol(&v, lib_bias, sizeof(v)));
	printf("lib_bias read back: %d\n", v);
	EXPECT_TRUE(v == 100);
	TRY(cudaGetSymbolSize(&size, lib_bias));
	printf("lib_bias size: %zu\n", size);
	EXPECT_TRUE(size == sizeof(int));

	// The other object's kernel, reading this object's variable.
	v = 5000;
	TRY(cudaMemcpyToSymbol(main_offset, &v, sizeof(v)));
	lib_fill<<<(N + 127) / 128, 128>>>(d, N);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost));
	for (i = 0; i < N; i++)
		if (h[i] != i + 5000) {
			printf("lib_fill: out[%d] = %d, want %d\n", i, h[i],
			       i + 5000);
			rt_failures++;
			break;
		}
	if (i == N)
		printf("lib_fill with main_offset 5000: ok\n");

	TRY(cudaFree(d));
	return rt_result();
}
