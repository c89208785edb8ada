// Kernels for the limits probe: printf floods, two printing modules, local
// arrays of several sizes and a recursive device function. vgpu's JIT
// refuses recursion; tests/e2e/limits_api.c also loads a build with
// -DVG_NO_RECURSION, which leaves it out (the H100 ran the whole file).
#include <cstdio>

extern "C" __global__ void flood(int n, int *rets)
{
	int t = blockIdx.x * blockDim.x + threadIdx.x;

	for (int i = 0; i < n; i++)
		rets[t * n + i] = printf("r %d %d %d\n", blockIdx.x, threadIdx.x, i);
}

extern "C" __global__ void flood0(int n)
{
	for (int i = 0; i < n; i++)
		printf("x\n");
}

extern "C" __global__ void say(int tag)
{
	printf("say %d\n", tag);
}

extern "C" __global__ void plain(int *p)
{
	p[threadIdx.x] = 1;
}

#define LOCAL(name, N) \
extern "C" __global__ void name(int *out, int idx) \
{ \
	int a[N]; \
	for (int i = 0; i < N; i++) \
		a[i] = i * 3 + out[0]; \
	out[1 + threadIdx.x] = a[(idx + threadIdx.x) % N]; \
}
LOCAL(local300, 300)
LOCAL(local2048, 2048)
LOCAL(local5000, 5000)
LOCAL(local70000, 70000)

#ifndef VG_NO_RECURSION
__device__ __noinline__ int rec(int n, int *p)
{
	int a[16];

	for (int i = 0; i < 16; i++)
		a[i] = p[i] + n;
	if (n <= 0)
		return a[n & 15];
	return rec(n - 1, p) + a[(n * 7) & 15];
}

extern "C" __global__ void recurse(int *out, int n)
{
	out[threadIdx.x + 16] = rec(n, out);
}
#endif
