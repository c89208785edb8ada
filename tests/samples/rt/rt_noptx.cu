// SPDX-License-Identifier: MIT
// Built with machine code for sm_75 only (no PTX): vgpu cannot run it, and
// its launch answers cudaErrorNoKernelImageForDevice, as NVIDIA's runtime
// does on a device the fatbin has no code for; the context stays usable.
#include "rt.h"

__global__ void store(int *p)
{
	*p = 1;
}

int main(void)
{
	int *d;

	rt_check_library();
	TRY(cudaSetDevice(0));
	TRY(cudaMalloc((void **)&d, sizeof(int)));
	store<<<1, 1>>>(d);
	EXPECT(cudaErrorNoKernelImageForDevice, cudaGetLastError());
	EXPECT(cudaSuccess, cudaGetLastError());
	EXPECT(cudaSuccess, cudaDeviceSynchronize());
	TRY(cudaFree(d));
	printf("a fatbin without PTX: %s\n",
	       cudaGetErrorString(cudaErrorNoKernelImageForDevice));
	return rt_result();
}
