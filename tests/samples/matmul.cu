// SPDX-License-Identifier: MIT
// The Programming Guide's matrix multiply, C = A B (row-major, sizes
// multiples of BLOCK): one thread per element, without and with tiles of
// A and B staged in shared memory.
#define BLOCK 16

extern "C" __global__ void matmul_simple(const float *a, const float *b,
					 float *c, int n, int k_dim, int m)
{
	int row = blockIdx.y * blockDim.y + threadIdx.y;
	int col = blockIdx.x * blockDim.x + threadIdx.x;
	float sum = 0;

	for (int k = 0; k < k_dim; k++)
		sum += a[row * k_dim + k] * b[k * m + col];
	c[row * m + col] = sum;
}

extern "C" __global__ void matmul_tiled(const float *a, const float *b,
					float *c, int n, int k_dim, int m)
{
	__shared__ float as[BLOCK][BLOCK];
	__shared__ float bs[BLOCK][BLOCK];
	int tx = threadIdx.x, ty = threadIdx.y;
	int row = blockIdx.y * BLOCK + ty, col = blockIdx.x * BLOCK + tx;
	float sum = 0;

	for (int t = 0; t < k_dim / BLOCK; t++) {
		as[ty][tx] = a[row * k_dim + t * BLOCK + tx];
		bs[ty][tx] = b[(t * BLOCK + ty) * m + col];
		__syncthreads();
		for (int k = 0; k < BLOCK; k++)
			sum += as[ty][k] * bs[k][tx];
		__syncthreads();
	}
	c[row * m + col] = sum;
}
