// SPDX-License-Identifier: MIT
// The module jit_bench compiles: an empty kernel, saxpy, and the
// Programming Guide's tiled matrix multiply (matrices as a struct with a
// stride, sub-matrices read through __device__ helpers, one 16x16 tile of
// A and of B in shared memory per step).
#define BLOCK_SIZE 16

struct Matrix {
	int width, height, stride;
	float *elements;
};

extern "C" __global__ void empty(void)
{
}

extern "C" __global__ void saxpy(int n, float a, const float *x, float *y)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		y[i] = a * x[i] + y[i];
}

__device__ float get_element(const Matrix m, int row, int col)
{
	return m.elements[row * m.stride + col];
}

__device__ void set_element(Matrix m, int row, int col, float v)
{
	m.elements[row * m.stride + col] = v;
}

// The BLOCK_SIZE x BLOCK_SIZE block of m at block row br, block column bc.
__device__ Matrix sub_matrix(Matrix m, int br, int bc)
{
	Matrix s;

	s.width = BLOCK_SIZE;
	s.height = BLOCK_SIZE;
	s.stride = m.stride;
	s.elements = &m.elements[m.stride * BLOCK_SIZE * br + BLOCK_SIZE * bc];
	return s;
}

extern "C" __global__ void matmul(Matrix a, Matrix b, Matrix c)
{
	int br = blockIdx.y, bc = blockIdx.x;
	int row = threadIdx.y, col = threadIdx.x;
	Matrix cs = sub_matrix(c, br, bc);
	float sum = 0;

	for (int m = 0; m < a.width / BLOCK_SIZE; ++m) {
		__shared__ float as[BLOCK_SIZE][BLOCK_SIZE];
		__shared__ float bs[BLOCK_SIZE][BLOCK_SIZE];
		Matrix asub = sub_matrix(a, br, m);
		Matrix bsub = sub_matrix(b, m, bc);

		as[row][col] = get_element(asub, row, col);
		bs[row][col] = get_element(bsub, row, col);
		__syncthreads();
		for (int e = 0; e < BLOCK_SIZE; ++e)
			sum += as[row][e] * bs[e][col];
		__syncthreads();
	}
	set_element(cs, row, col, sum);
}
