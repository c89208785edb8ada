// SPDX-License-Identifier: MIT
// __managed__ variables, as the Programming Guide uses them: the host sets
// them, a kernel computes with them, the host prints them after
// cudaDeviceSynchronize, no copy in between. Also: an initialized one read
// by the host before any kernel ran, one every thread of a grid adds to,
// an array a kernel fills, a struct, the symbol calls on them and what
// cudaPointerGetAttributes says of their address.
#include "rt.h"

#define N 1000

__managed__ int pair[2];
__managed__ int addend;
__managed__ int start = 3;
__managed__ unsigned int hits;
__managed__ int table[N];
struct point {
	float x, y;
	int tag;
};
__managed__ struct point pt = { 1.5f, -2.f, 7 };

__global__ void combine(void)
{
	pair[1] = pair[0] + addend;
}

__global__ void count(void)
{
	atomicAdd(&hits, 1u + (threadIdx.x & 1));
	if (blockIdx.x == 0 && threadIdx.x == 0)
		start *= 10;
}

__global__ void fill(int a, int b)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < N)
		table[i] = a + b * i;
}

__global__ void move(float dx)
{
	pt.x += dx;
	pt.y *= 2.f;
	pt.tag++;
}

int main(void)
{
	struct cudaPointerAttributes pa;
	long long sum = 0;
	int got = 0, bad = 0, i;
	void *p = NULL;
	size_t size = 0;

	rt_check_library();

	// Its initializer, seen by the host before any kernel.
	printf("start before any kernel: %d\n", start);

	pair[0] = 3;
	addend = 5;
	combine<<<1, 1>>>();
	TRY(cudaGetLastError());
	TRY(cudaDeviceSynchronize());
	printf("pair[1] = %d\n", pair[1]);

	hits = 100;
	count<<<8, 64>>>();
	TRY(cudaDeviceSynchronize());
	printf("hits = %u, start = %d\n", hits, start);

	fill<<<(N + 127) / 128, 128>>>(10, 3);
	TRY(cudaDeviceSynchronize());
	for (i = 0; i < N; i++) {
		sum += table[i];
		bad += table[i] != 10 + 3 * i;
	}
	printf("table: sum %lld, %d wrong, table[999] = %d\n", sum, bad,
	       table[N - 1]);

	move<<<1, 1>>>(0.25f);
	TRY(cudaDeviceSynchronize());
	printf("pt = %g %g %d\n", pt.x, pt.y, pt.tag);

	// The host writes again; the next kernel sees it.
	pair[0] = 40;
	addend = 2;
	combine<<<1, 1>>>();
	TRY(cudaDeviceSynchronize());
	printf("pair[1] after the host wrote again = %d\n", pair[1]);

	// The symbol calls reach the same storage.
	got = 77;
	TRY(cudaMemcpyToSymbol(addend, &got, sizeof(got)));
	printf("addend after cudaMemcpyToSymbol = %d\n", addend);
	got = 0;
	TRY(cudaMemcpyFromSymbol(&got, pair, sizeof(got), sizeof(int)));
	printf("pair[1] by cudaMemcpyFromSymbol = %d\n", got);
	TRY(cudaGetSymbolAddress(&p, table));
	TRY(cudaGetSymbolSize(&size, table));
	printf("table's symbol address is its own: %s, size %zu\n",
	       p == (void *)table ? "yes" : "no", size);

	TRY(cudaPointerGetAttributes(&pa, &addend));
	printf("attributes of &addend: type %d, device %d, host pointer %s, "
	       "device pointer %s\n", (int)pa.type, pa.device,
	       pa.hostPointer == (void *)&addend ? "itself" : "other",
	       pa.devicePointer == (void *)&addend ? "itself" : "other");

	return rt_result();
}
