// Kernels of vgem_roundtrip.c: a pass over a buffer that another driver
// shares with the GPU, in place.
extern "C" __global__ void scale_add(unsigned int *p, unsigned int n,
				     unsigned int mul, unsigned int add)
{
	unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		p[i] = p[i] * mul + add;
}
