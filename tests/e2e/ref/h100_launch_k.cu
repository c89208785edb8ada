extern "C" __global__ void add(int *p, int v)
{
	p[blockIdx.x * blockDim.x + threadIdx.x] += v;
}

extern "C" __global__ void addf(float *p, float v, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] += v;
}
