__managed__ int counter = 3;
__managed__ float arr[16] = { 1, 2, 3 };
__device__ int plain = 11;
extern "C" __global__ void bump(int n)
{
	atomicAdd(&counter, n);
	arr[threadIdx.x] *= 2.f;
	plain += counter;
}
