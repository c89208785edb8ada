// SPDX-License-Identifier: MIT
/*
 * Kernels of the device malloc probe (h100_devmalloc.c), which the H100
 * ran; tests/e2e/devmalloc_api.c runs the same ones, compiled by nvcc at
 * build time.
 */
#include <stddef.h>
extern "C" {

/* Thread 0 mallocs each size of @sz[0..n) and writes the pointers to @out. */
__global__ void k_sizes(const unsigned long long *sz, unsigned long long *out, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = (unsigned long long)malloc(sz[i]);
}

/* Frees @n pointers of @p (NULL ones too). */
__global__ void k_free(unsigned long long *p, int n)
{
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		free((void *)p[i]);
}

/* Each thread mallocs @sz until NULL, storing pointers in @out (cap each). */
__global__ void k_fill(size_t sz, unsigned long long *out, int cap, unsigned int *count)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	int i;

	for (i = 0; i < cap; i++) {
		void *p = malloc(sz);

		out[(size_t)t * cap + i] = (unsigned long long)p;
		if (!p)
			break;
		*(volatile char *)p = 1;
	}
	atomicAdd(count, i);
}

/* @iters rounds of malloc/write/free; counts the successes. */
__global__ void k_loop(size_t sz, int iters, unsigned int *ok)
{
	for (int i = 0; i < iters; i++) {
		int *p = (int *)malloc(sz);

		if (p) {
			p[0] = i;
			if (p[0] == i)
				atomicAdd(ok, 1);
			free(p);
		}
	}
}

/* Each thread mallocs 64 bytes, fills them with its id, stores the pointer. */
__global__ void k_keep(unsigned long long *out)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int *p = (unsigned int *)malloc(64);

	if (p)
		for (int i = 0; i < 16; i++)
			p[i] = t * 16 + i;
	out[t] = (unsigned long long)p;
}

/* Reads back k_keep's blocks, counts the right words, frees them. */
__global__ void k_check(unsigned long long *in, unsigned int *good)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int *p = (unsigned int *)in[t];

	if (!p)
		return;
	for (int i = 0; i < 16; i++)
		if (p[i] == (unsigned int)(t * 16 + i))
			atomicAdd(good, 1);
	free(p);
}

/* Largest malloc that succeeds, in steps of @step from @hi down. */
__global__ void k_largest(size_t hi, size_t step, unsigned long long *out)
{
	for (size_t s = hi; s >= step; s -= step) {
		void *p = malloc(s);

		if (p) {
			free(p);
			*out = s;
			return;
		}
	}
	*out = 0;
}

/* Frees a pointer malloc never returned. */
__global__ void k_badfree(unsigned long long p)
{
	free((void *)p);
}

__global__ void k_plain(int *p)
{
	*p = 42;
}
}
