#include <cassert>
extern "C" __global__ void k(int n)
{
	assert(threadIdx.x < n && "small");
}
