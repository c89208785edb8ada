// SPDX-License-Identifier: MIT
// The occupancy calculator: resident blocks per SM for a kernel at several
// block sizes and dynamic shared memory sizes, the block size the header's
// cudaOccupancyMaxPotentialBlockSize and its VariableSMem form suggest,
// the dynamic shared memory left to a block with
// cudaOccupancyAvailableDynamicSMemPerBlock, launches with the suggested
// configurations that must compute the right sums, and the codes of bad
// inputs. The numbers belong to the device ("~ " lines); what holds on
// any device is checked and printed.
#include "rt.h"

#define N (40 * 1024)

// Each block sums the squares of its stretch of @in into @out[block],
// through dynamic shared memory of one int per thread.
__global__ void square_sums(const int *in, int *out, int n)
{
	extern __shared__ int part[];
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned int k;

	part[threadIdx.x] = i < n ? in[i] * in[i] : 0;
	__syncthreads();
	// Halving, with the odd one out of each level folded in first.
	for (k = blockDim.x; k > 1; k = (k + 1) / 2) {
		unsigned int half = (k + 1) / 2;

		if (threadIdx.x + half < k)
			part[threadIdx.x] += part[threadIdx.x + half];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		out[blockIdx.x] = part[0];
}

// A kernel with static shared memory besides, so that it fits fewer
// blocks than the first.
__global__ void staged(int *p)
{
	__shared__ int stage[4096];

	stage[threadIdx.x] = p[threadIdx.x];
	__syncthreads();
	p[threadIdx.x] = stage[(threadIdx.x + 1) % blockDim.x];
}

static size_t smem_of(int block)
{
	return block * sizeof(int);
}

// Launches square_sums with @block threads and compares its sums.
static int run_with(int block, const int *d_in, int *d_out, const int *in)
{
	int grid = (N + block - 1) / block, b, i, wrong = 0;
	int *out = (int *)malloc(grid * sizeof(int));
	int n = N;

	if (!out)
		exit(1);
	square_sums<<<grid, block, smem_of(block)>>>(d_in, d_out, n);
	TRY(cudaGetLastError());
	TRY(cudaMemcpy(out, d_out, grid * sizeof(int),
		       cudaMemcpyDeviceToHost));
	for (b = 0; b < grid; b++) {
		int want = 0;

		for (i = b * block; i < (b + 1) * block && i < N; i++)
			want += in[i] * in[i];
		wrong += out[b] != want;
	}
	free(out);
	return wrong;
}

static void print_error(const char *what, cudaError_t e)
{
	printf("%s: %s\n", what, cudaGetErrorName(e));
	(void)cudaGetLastError();
}

int main(void)
{
	static const int sizes[] = { 32, 64, 96, 128, 256, 512, 768, 1024 };
	static const size_t dyn[] = { 0, 1024, 8192, 32768 };
	struct cudaDeviceProp prop;
	int *in, *d_in, *d_out, i, j, n = 0, prev, min_grid = 0, block = 0;
	int wrong;
	size_t avail = 0;

	rt_check_library();
	TRY(cudaSetDevice(0));
	TRY(cudaGetDeviceProperties(&prop, 0));
	in = (int *)malloc(N * sizeof(int));
	if (!in)
		return 1;
	for (i = 0; i < N; i++)
		in[i] = i % 97 - 48;
	TRY(cudaMalloc((void **)&d_in, N * sizeof(int)));
	TRY(cudaMalloc((void **)&d_out, N * sizeof(int)));
	TRY(cudaMemcpy(d_in, in, N * sizeof(int), cudaMemcpyHostToDevice));

	// Blocks per SM: never more threads than an SM holds, and never more
	// blocks for more shared memory.
	int bad_bounds = 0, bad_order = 0;
	for (j = 0; j < (int)(sizeof(dyn) / sizeof(dyn[0])); j++) {
		for (i = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0])); i++) {
			TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
				&n, (const void *)square_sums, sizes[i],
				dyn[j]));
			printf("~ square_sums, %d threads, %zu bytes dynamic: "
			       "%d blocks per SM\n", sizes[i], dyn[j], n);
			bad_bounds += n < 1 || n * sizes[i] >
				prop.maxThreadsPerMultiProcessor ||
				n > prop.maxBlocksPerMultiProcessor;
			if (j) {
				TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
					&prev, (const void *)square_sums,
					sizes[i], dyn[j - 1]));
				bad_order += n > prev;
			}
		}
	}
	EXPECT_TRUE(bad_bounds == 0 && bad_order == 0);
	printf("blocks per SM within the SM's threads and blocks: %d wrong\n",
	       bad_bounds);
	printf("blocks per SM fewer or equal with more shared memory: "
	       "%d wrong\n", bad_order);

	// Static shared memory counts as well.
	int plain = 0, with_static = 0;
	TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		&plain, (const void *)square_sums, 256, 4096 * sizeof(int)));
	TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		&with_static, (const void *)staged, 256, 0));
	printf("~ staged, 256 threads, 16 KiB static: %d blocks per SM\n",
	       with_static);
	EXPECT_TRUE(with_static == plain);
	printf("16 KiB static shared memory fits as many blocks as 16 KiB "
	       "dynamic: %s\n", with_static == plain ? "yes" : "no");
	TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
		&n, (const void *)square_sums, 256, 0,
		cudaOccupancyDisableCachingOverride));
	printf("~ with cudaOccupancyDisableCachingOverride: %d blocks per SM\n",
	       n);

	// The suggested block sizes, which must run and put at least as many
	// threads on an SM as any size tried above.
	TRY(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, square_sums,
					       smem_of(1024)));
	printf("~ cudaOccupancyMaxPotentialBlockSize: blocks of %d, a grid of "
	       "at least %d\n", block, min_grid);
	EXPECT_TRUE(block > 0 && block <= prop.maxThreadsPerBlock &&
		    block % prop.warpSize == 0);
	TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		&n, (const void *)square_sums, block, smem_of(1024)));
	EXPECT_TRUE(min_grid == n * prop.multiProcessorCount);
	for (i = 0, wrong = 0; i < (int)(sizeof(sizes) / sizeof(sizes[0]));
	     i++) {
		TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			&prev, (const void *)square_sums, sizes[i],
			smem_of(1024)));
		wrong += prev * sizes[i] > n * block;
	}
	EXPECT_TRUE(wrong == 0);
	printf("no block size tried beats the suggested one: %d wrong\n",
	       wrong);
	wrong = run_with(block, d_in, d_out, in);
	EXPECT_TRUE(wrong == 0);
	printf("suggested configuration runs: %d wrong\n", wrong);

	TRY(cudaOccupancyMaxPotentialBlockSizeVariableSMem(
		&min_grid, &block, square_sums, smem_of));
	printf("~ cudaOccupancyMaxPotentialBlockSizeVariableSMem: blocks of "
	       "%d, a grid of at least %d\n", block, min_grid);
	EXPECT_TRUE(block > 0 && block <= prop.maxThreadsPerBlock);
	wrong = run_with(block, d_in, d_out, in);
	EXPECT_TRUE(wrong == 0);
	printf("suggested variable shared memory configuration runs: "
	       "%d wrong\n", wrong);

	// A limit on the block size is kept.
	TRY(cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, square_sums,
					       0, 96));
	EXPECT_TRUE(block > 0 && block <= 96);
	printf("~ with a limit of 96 threads: blocks of %d\n", block);
	wrong = run_with(block, d_in, d_out, in);
	EXPECT_TRUE(wrong == 0);
	printf("limited configuration runs: %d wrong\n", wrong);

	// The dynamic shared memory left to each of 2 blocks of 256, and a
	// launch with all of it.
	TRY(cudaOccupancyAvailableDynamicSMemPerBlock(
		&avail, (const void *)square_sums, 2, 256));
	printf("~ cudaOccupancyAvailableDynamicSMemPerBlock, 2 blocks of 256: "
	       "%zu bytes\n", avail);
	EXPECT_TRUE(avail >= smem_of(256) &&
		    avail <= prop.sharedMemPerMultiprocessor / 2);
	TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
		&n, (const void *)square_sums, 256,
		avail < prop.sharedMemPerBlock ? avail :
		prop.sharedMemPerBlock));
	EXPECT_TRUE(n >= 2 || avail > prop.sharedMemPerBlock);
	TRY(cudaOccupancyAvailableDynamicSMemPerBlock(
		&avail, (const void *)staged, 1, 256));
	printf("~ the same for staged, 1 block of 256: %zu bytes\n", avail);
	EXPECT_TRUE(avail <= prop.sharedMemPerMultiprocessor -
		    4096 * sizeof(int));

	// Bad inputs.
	print_error("blocks per SM for blocks of 0 threads",
		    cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			    &n, (const void *)square_sums, 0, 0));
	n = -1;
	print_error("blocks per SM for blocks of 1025 threads",
		    cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			    &n, (const void *)square_sums, 1025, 0));
	printf("blocks per SM for blocks of 1025 threads: %d\n", n);
	n = -1;
	print_error("blocks per SM with 1 MiB of dynamic shared memory",
		    cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			    &n, (const void *)square_sums, 128, 1 << 20));
	printf("blocks per SM with 1 MiB of dynamic shared memory: %d\n", n);
	print_error("blocks per SM into NULL",
		    cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			    NULL, (const void *)square_sums, 128, 0));
	print_error("blocks per SM with unknown flags",
		    cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
			    &n, (const void *)square_sums, 128, 0, 0x10));
	print_error("blocks per SM of a host function",
		    cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			    &n, (const void *)smem_of, 128, 0));
	print_error("potential block size into NULL",
		    cudaOccupancyMaxPotentialBlockSize(
			    (int *)NULL, &block, square_sums, 0));
	print_error("dynamic shared memory for 0 blocks",
		    cudaOccupancyAvailableDynamicSMemPerBlock(
			    &avail, (const void *)square_sums, 0, 256));
	print_error("dynamic shared memory for blocks of 2048 threads",
		    cudaOccupancyAvailableDynamicSMemPerBlock(
			    &avail, (const void *)square_sums, 1, 2048));
	print_error("dynamic shared memory for 1000 blocks",
		    cudaOccupancyAvailableDynamicSMemPerBlock(
			    &avail, (const void *)square_sums, 1000, 32));
	print_error("dynamic shared memory of a host function",
		    cudaOccupancyAvailableDynamicSMemPerBlock(
			    &avail, (const void *)smem_of, 1, 256));
	print_error("blocks per SM of NULL",
		    cudaOccupancyMaxActiveBlocksPerMultiprocessor(
			    &n, NULL, 128, 0));
	print_error("dynamic shared memory of NULL",
		    cudaOccupancyAvailableDynamicSMemPerBlock(
			    &avail, NULL, 1, 256));
	// NULL for the size is left out: NVIDIA's runtime dies of it
	// (SIGSEGV), where vgpu's answers cudaErrorInvalidValue.

	TRY(cudaFree(d_in));
	TRY(cudaFree(d_out));
	free(in);
	return rt_result();
}
