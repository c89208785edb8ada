// SPDX-License-Identifier: MIT
// Kernel templates, the simpleTemplates kind: one kernel template run for
// int, float, double and a struct, using dynamic shared memory of its
// element type. An extern __shared__ array cannot be declared with a
// different type in each instantiation, so a SharedMemory<T> template
// hands out the one array under a name of its own per type, through
// specializations.
#include "rt.h"

// Each specialization declares its own extern array: their names differ,
// so the declarations do not clash, and each is aligned for its type.
template <class T> struct SharedMemory;

template <> struct SharedMemory<int> {
	__device__ int *get()
	{
		extern __shared__ int shared_int[];
		return shared_int;
	}
};

template <> struct SharedMemory<float> {
	__device__ float *get()
	{
		extern __shared__ float shared_float[];
		return shared_float;
	}
};

template <> struct SharedMemory<double> {
	__device__ double *get()
	{
		extern __shared__ double shared_double[];
		return shared_double;
	}
};

// A type of our own with the operators the kernel needs.
struct pair {
	int n;
	float f;
};

__host__ __device__ pair operator+(pair a, pair b)
{
	pair r = { a.n + b.n, a.f + b.f };
	return r;
}

__host__ __device__ pair operator*(pair a, int k)
{
	pair r = { a.n * k, a.f * (float)k };
	return r;
}

__host__ __device__ bool operator!=(pair a, pair b)
{
	return a.n != b.n || a.f != b.f;
}

template <> struct SharedMemory<pair> {
	__device__ pair *get()
	{
		extern __shared__ pair shared_pair[];
		return shared_pair;
	}
};

// Each block stages its part of @in in shared memory, then thread t writes
// element t times the block size plus its mirror image in the block.
template <class T>
__global__ void mirror_sum(T *out, const T *in)
{
	SharedMemory<T> smem;
	T *s = smem.get();
	unsigned int t = threadIdx.x, n = blockDim.x;
	unsigned int base = blockIdx.x * n;

	s[t] = in[base + t];
	__syncthreads();
	out[base + t] = s[t] * (int)n + s[n - 1 - t];
}

static int value(int i, int *)
{
	return i * 3 - 100;
}

static float value(int i, float *)
{
	return (float)i * 0.5f - 7.25f;
}

static double value(int i, double *)
{
	return (double)i / 8.0 + 1e10;
}

static pair value(int i, pair *)
{
	pair p = { -i, (float)i * 0.125f };
	return p;
}

template <class T>
static void run(const char *name)
{
	const int threads = 64, blocks = 4, n = threads * blocks;
	size_t size = n * sizeof(T);
	T *h = (T *)malloc(size), *r = (T *)malloc(size), *din, *dout;
	int i, wrong = 0;

	for (i = 0; i < n; i++)
		h[i] = value(i, (T *)NULL);
	TRY(cudaMalloc((void **)&din, size));
	TRY(cudaMalloc((void **)&dout, size));
	TRY(cudaMemcpy(din, h, size, cudaMemcpyHostToDevice));
	mirror_sum<T><<<blocks, threads, threads * sizeof(T)>>>(dout, din);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(r, dout, size, cudaMemcpyDeviceToHost));
	for (i = 0; i < n; i++) {
		int base = i - i % threads, t = i % threads;
		T want = h[i] * threads + h[base + threads - 1 - t];

		wrong += r[i] != want;
	}
	EXPECT_TRUE(wrong == 0);
	printf("mirror_sum<%s>: %d elements of %zu bytes, %zu bytes of shared "
	       "memory a block, %d wrong\n", name, n, sizeof(T),
	       threads * sizeof(T), wrong);

	struct cudaFuncAttributes a;
	TRY(cudaFuncGetAttributes(&a, (const void *)mirror_sum<T>));
	printf("mirror_sum<%s>: static shared memory %zu bytes\n", name,
	       a.sharedSizeBytes);
	TRY(cudaFree(din));
	TRY(cudaFree(dout));
	free(h);
	free(r);
}

int main(void)
{
	rt_check_library();
	TRY(cudaSetDevice(0));
	run<int>("int");
	run<float>("float");
	run<double>("double");
	run<pair>("pair");
	return rt_result();
}
