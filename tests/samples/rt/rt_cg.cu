// SPDX-License-Identifier: MIT
// Cooperative groups: a thread block's rank and barrier, tiles cut from it
// at run time and at compile time (32, 16 and 4 threads) reducing with
// their shuffles and with cg::reduce, the coalesced group of the threads
// in a divergent branch claiming output slots with one atomic per warp,
// and a grid-wide reduction whose phases are separated by
// this_grid().sync(), launched by cudaLaunchCooperativeKernel with as
// many blocks as can be resident at once.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

#include "rt.h"

namespace cg = cooperative_groups;

#define BLOCKS 8
#define THREADS 128
#define N (BLOCKS * THREADS)

// A tile's sum by halving with the compile-time tile's own shuffles: the
// first thread ends with the sum and hands it to the others.
template <unsigned int S>
__device__ static int tile_sum(cg::thread_block_tile<S> tile, int v)
{
	for (unsigned int k = S / 2; k > 0; k /= 2)
		v += tile.shfl_down(v, k);
	return tile.shfl(v, 0);
}

// Per thread: its block rank, the block's sum, the sums of its 32-, 16-
// and 4-thread tiles, cg::reduce's maximum over its 32-thread tile, and
// the sum of its run-time tile of 8.
enum {
	C_RANK, C_BLOCK, C_T32, C_T16, C_T4, C_MAX32, C_DYN8, C_COUNT
};

static const char *const cname[C_COUNT] = {
	"this_thread_block().thread_rank()",
	"block sum after sync()",
	"tiled_partition<32> shfl_down sum",
	"tiled_partition<16> shfl_down sum",
	"tiled_partition<4> shfl_down sum",
	"cg::reduce maximum over tiled_partition<32>",
	"tiled_partition(block, 8) sum through shared memory",
};

__global__ void groups(const int *in, int *out)
{
	__shared__ int part[THREADS];
	__shared__ int total;
	cg::thread_block block = cg::this_thread_block();
	int t = blockIdx.x * blockDim.x + threadIdx.x, v = in[t];
	unsigned int r = block.thread_rank();

	out[C_RANK * N + t] = r;
	if (r == 0)
		total = 0;
	block.sync();
	atomicAdd(&total, v);
	block.sync();
	out[C_BLOCK * N + t] = total;

	cg::thread_block_tile<32> t32 = cg::tiled_partition<32>(block);
	cg::thread_block_tile<16> t16 = cg::tiled_partition<16>(block);
	cg::thread_block_tile<4> t4 = cg::tiled_partition<4>(block);
	out[C_T32 * N + t] = tile_sum(t32, v);
	out[C_T16 * N + t] = tile_sum(t16, v);
	out[C_T4 * N + t] = tile_sum(t4, v);
	out[C_MAX32 * N + t] = cg::reduce(t32, v, cg::greater<int>());

	// A run-time tile has no shuffle: its threads sum through shared
	// memory, the first of each tile after the tile's barrier.
	cg::thread_group t8 = cg::tiled_partition(block, 8);
	part[r] = v;
	t8.sync();
	if (t8.thread_rank() == 0) {
		int s = 0;

		for (unsigned int k = 0; k < t8.size(); k++)
			s += part[r + k];
		part[r] = s;
	}
	t8.sync();
	out[C_DYN8 * N + t] = part[r - t8.thread_rank()];
}

// The threads holding a multiple of 3 append their value to @list: one
// atomic per coalesced group, whose leader hands out the slots.
__global__ void append(const int *in, int *list, int *count)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x, v = in[t];

	if (v % 3 == 0) {
		cg::coalesced_group active = cg::coalesced_threads();
		int base = 0;

		if (active.thread_rank() == 0)
			base = atomicAdd(count, (int)active.size());
		base = active.shfl(base, 0);
		list[base + active.thread_rank()] = v;
	}
}

// Sums @in across the whole grid: every block adds its share into
// @partial, the grid meets, block 0 adds the partials, the grid meets
// again and every block reads the total back.
__global__ void grid_sum(const int *in, int n, int *partial,
			 long long *total, int *seen)
{
	cg::grid_group grid = cg::this_grid();
	cg::thread_block block = cg::this_thread_block();
	__shared__ int sum;
	int i;

	if (block.thread_rank() == 0)
		sum = 0;
	block.sync();
	for (i = grid.thread_rank(); i < n; i += grid.size())
		atomicAdd(&sum, in[i]);
	block.sync();
	if (block.thread_rank() == 0)
		partial[blockIdx.x] = sum;
	grid.sync();
	if (grid.thread_rank() == 0) {
		long long s = 0;

		for (i = 0; i < (int)gridDim.x; i++)
			s += partial[i];
		*total = s;
	}
	grid.sync();
	if (block.thread_rank() == 0)
		seen[blockIdx.x] = (int)*(volatile long long *)total;
}

static int tile_expect(const int *in, int t, int size, int op)
{
	int first = t - t % size, k, r = op ? in[first] : 0;

	for (k = first; k < first + size; k++)
		r = op ? (in[k] > r ? in[k] : r) : r + in[k];
	return r;
}

static int compare_ints(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

int main(void)
{
	int *in, *out, *d_in, *d_out, *list, *d_list, *d_count, count;
	int t, f, wrong, want;

	rt_check_library();
	TRY(cudaSetDevice(0));
	in = (int *)malloc(N * sizeof(int));
	out = (int *)malloc(C_COUNT * N * sizeof(int));
	list = (int *)malloc(N * sizeof(int));
	if (!in || !out || !list)
		return 1;
	for (t = 0; t < N; t++)
		in[t] = (t * 7919 + 11) % 1000;
	TRY(cudaMalloc((void **)&d_in, N * sizeof(int)));
	TRY(cudaMalloc((void **)&d_out, C_COUNT * N * sizeof(int)));
	TRY(cudaMemcpy(d_in, in, N * sizeof(int), cudaMemcpyHostToDevice));

	groups<<<BLOCKS, THREADS>>>(d_in, d_out);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(out, d_out, C_COUNT * N * sizeof(int),
		       cudaMemcpyDeviceToHost));
	for (f = 0; f < C_COUNT; f++) {
		for (t = 0, wrong = 0; t < N; t++) {
			switch (f) {
			case C_RANK: want = t % THREADS; break;
			case C_BLOCK: want = tile_expect(in, t, THREADS, 0); break;
			case C_T32: want = tile_expect(in, t, 32, 0); break;
			case C_T16: want = tile_expect(in, t, 16, 0); break;
			case C_T4: want = tile_expect(in, t, 4, 0); break;
			case C_MAX32: want = tile_expect(in, t, 32, 1); break;
			default: want = tile_expect(in, t, 8, 0); break;
			}
			wrong += out[f * N + t] != want;
		}
		EXPECT_TRUE(wrong == 0);
		printf("%s: %d wrong\n", cname[f], wrong);
	}

	// The coalesced groups' list holds the multiples of 3, in an order
	// of the device's own.
	TRY(cudaMalloc((void **)&d_list, N * sizeof(int)));
	TRY(cudaMalloc((void **)&d_count, sizeof(int)));
	TRY(cudaMemset(d_count, 0, sizeof(int)));
	append<<<BLOCKS, THREADS>>>(d_in, d_list, d_count);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost));
	EXPECT_TRUE(count >= 0 && count <= N);
	if (count < 0 || count > N)
		count = 0;
	TRY(cudaMemcpy(list, d_list, count * sizeof(int),
		       cudaMemcpyDeviceToHost));
	qsort(list, count, sizeof(int), compare_ints);
	int *mult = (int *)malloc(N * sizeof(int)), m = 0;
	if (!mult)
		return 1;
	for (t = 0; t < N; t++)
		if (in[t] % 3 == 0)
			mult[m++] = in[t];
	qsort(mult, m, sizeof(int), compare_ints);
	wrong = count != m;
	for (t = 0; t < m && !wrong; t++)
		wrong += list[t] != mult[t];
	EXPECT_TRUE(wrong == 0);
	printf("coalesced_threads() appended %d multiples of 3: %d wrong\n",
	       count, wrong);
	free(mult);

	// The grid reduction: as many blocks as fit on the device at once.
	struct cudaDeviceProp prop;
	int per_sm = 0, supported = 0, grid, *d_partial, *d_seen, *seen;
	long long *d_total, total = 0, sum = 0;
	int n = N;

	TRY(cudaDeviceGetAttribute(&supported, cudaDevAttrCooperativeLaunch,
				   0));
	EXPECT_TRUE(supported == 1);
	TRY(cudaGetDeviceProperties(&prop, 0));
	TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		&per_sm, (const void *)grid_sum, THREADS, 0));
	EXPECT_TRUE(per_sm > 0);
	grid = per_sm * prop.multiProcessorCount;
	printf("~ grid_sum: %d blocks per SM, %d SMs, a grid of %d blocks\n",
	       per_sm, prop.multiProcessorCount, grid);
	TRY(cudaMalloc((void **)&d_partial, grid * sizeof(int)));
	TRY(cudaMalloc((void **)&d_seen, grid * sizeof(int)));
	TRY(cudaMalloc((void **)&d_total, sizeof(long long)));
	seen = (int *)malloc(grid * sizeof(int));
	if (!seen)
		return 1;
	void *args[] = { &d_in, &n, &d_partial, &d_total, &d_seen };
	TRY(cudaLaunchCooperativeKernel((const void *)grid_sum, dim3(grid),
					dim3(THREADS), args, 0, 0));
	TRY(cudaDeviceSynchronize());
	TRY(cudaMemcpy(&total, d_total, sizeof(total),
		       cudaMemcpyDeviceToHost));
	TRY(cudaMemcpy(seen, d_seen, grid * sizeof(int),
		       cudaMemcpyDeviceToHost));
	for (t = 0; t < N; t++)
		sum += in[t];
	for (t = 0, wrong = total != sum; t < grid; t++)
		wrong += seen[t] != sum;
	EXPECT_TRUE(wrong == 0);
	printf("this_grid().sync() reduction of %d values: sum %lld, "
	       "%d wrong\n", N, total, wrong);
	// One block more than fits cannot run cooperatively.
	EXPECT(cudaErrorCooperativeLaunchTooLarge,
	       cudaLaunchCooperativeKernel((const void *)grid_sum,
					   dim3(grid + 1), dim3(THREADS),
					   args, 0, 0));
	EXPECT(cudaErrorCooperativeLaunchTooLarge, cudaGetLastError());

	free(seen);
	TRY(cudaFree(d_partial));
	TRY(cudaFree(d_seen));
	TRY(cudaFree(d_total));
	TRY(cudaFree(d_list));
	TRY(cudaFree(d_count));
	TRY(cudaFree(d_in));
	TRY(cudaFree(d_out));
	free(in);
	free(out);
	free(list);
	return rt_result();
}
