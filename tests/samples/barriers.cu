// SPDX-License-Identifier: MIT
// Named barriers with thread counts, written as inline PTX the way
// warp-specialized kernels write them.
//
// pipeline: in each block of 96 threads, warp 0 produces chunks of 64
// ints into shared memory and warps 1-2 consume them: "full" (barrier 1)
// and "empty" (barrier 2) each count all 96 threads, the producer arrives
// at full and waits at empty, the consumers the other way round.
//
// groups: two groups of 64 threads in a block of 128 reduce their own
// values (a sum, a maximum), each on its own barrier, named and counted
// by registers, then count their odd values with bar.red.popc.

#define FULL 1
#define EMPTY 2

__device__ static void bar_sync(unsigned int id, unsigned int threads)
{
	asm volatile("bar.sync %0, %1;" : : "r"(id), "r"(threads) : "memory");
}

extern "C" __global__ void pipeline(const int *in, int n, int *out)
{
	__shared__ int buf[64];
	int chunks = (n + 63) / 64, c;

	if (threadIdx.x < 32) {
		for (c = blockIdx.x; c < chunks; c += gridDim.x) {
			if (c != (int)blockIdx.x)
				asm volatile("bar.sync 2, 96;" : : : "memory");
			for (int k = threadIdx.x; k < 64; k += 32) {
				int i = c * 64 + k;

				buf[k] = i < n ? in[i] : 0;
			}
			asm volatile("bar.arrive 1, 96;" : : : "memory");
		}
	} else {
		int t = threadIdx.x - 32;

		for (c = blockIdx.x; c < chunks; c += gridDim.x) {
			int i = c * 64 + t;

			asm volatile("bar.sync 1, 96;" : : : "memory");
			if (i < n)
				out[i] = buf[t] * 3 + c;
			if (c + (int)gridDim.x < chunks)
				asm volatile("bar.arrive 2, 96;" : : : "memory");
		}
	}
}

extern "C" __global__ void groups(const int *in, int *out)
{
	__shared__ int s[128];
	unsigned int g = threadIdx.x / 64, t = threadIdx.x % 64, odd;
	int v = in[blockIdx.x * 128 + threadIdx.x];

	s[threadIdx.x] = v;
	for (unsigned int half = 32; half; half /= 2) {
		bar_sync(g + 1, 64);
		if (t < half) {
			int o = s[threadIdx.x + half];

			s[threadIdx.x] = g ? max(s[threadIdx.x], o) : s[threadIdx.x] + o;
		}
	}
	asm volatile("{\n\t.reg .pred p;\n\tsetp.ne.u32 p, %1, 0;\n\t"
		     "bar.red.popc.u32 %0, %2, 64, p;\n\t}"
		     : "=r"(odd) : "r"(v & 1), "r"(g + 3) : "memory");
	if (t == 0) {
		out[blockIdx.x * 4 + g] = s[threadIdx.x];
		out[blockIdx.x * 4 + 2 + g] = odd;
	}
}
