// SPDX-License-Identifier: MIT
// Kernels of the grid-synchronization probe and of tests/e2e/gridsync_api.c.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// @rounds grid-wide barriers: before each, thread 0 of every block counts
// its block in cnt[r]; after it, every block records what it sees there,
// which is the number of blocks when the barrier held.
extern "C" __global__ void rounds(unsigned int *cnt, unsigned int *seen,
				  int nrounds)
{
	cg::grid_group g = cg::this_grid();
	unsigned int b = blockIdx.x + gridDim.x *
		(blockIdx.y + gridDim.y * blockIdx.z);
	unsigned int nb = gridDim.x * gridDim.y * gridDim.z;

	for (int r = 0; r < nrounds; r++) {
		if (threadIdx.x == 0)
			atomicAdd(&cnt[r], 1);
		g.sync();
		if (threadIdx.x == 0)
			seen[(unsigned long long)r * nb + b] = *(volatile unsigned int *)&cnt[r];
	}
}
