// A second printing module for the limits probe.
#include <cstdio>

extern "C" __global__ void say2(int tag)
{
	printf("two %d\n", tag);
}
