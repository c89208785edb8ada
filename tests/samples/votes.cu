// SPDX-License-Identifier: MIT
// Block- and warp-wide votes: __syncthreads_count/_and/_or per block,
// __ballot_sync and __any_sync per warp, on a predicate of the input.
extern "C" __global__ void votes(const int *in, int n, int *block_out,
				 unsigned int *warp_out)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	int p = i < n && in[i] % 3 == 0;
	int count = __syncthreads_count(p);
	int all = __syncthreads_and(p);
	int any = __syncthreads_or(p);
	unsigned int ballot = __ballot_sync(0xffffffff, p);
	int wany = __any_sync(0xffffffff, p);

	if (threadIdx.x == 0) {
		block_out[3 * blockIdx.x] = count;
		block_out[3 * blockIdx.x + 1] = all;
		block_out[3 * blockIdx.x + 2] = any;
	}
	if ((threadIdx.x & 31) == 0)
		warp_out[i / 32] = ballot ^ (wany ? 0x80000000u : 0);
}
