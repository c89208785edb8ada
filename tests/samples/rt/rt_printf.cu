// SPDX-License-Identifier: MIT
// Device printf, the simplePrintf kind, over the formats a kernel may use:
// signed, unsigned, hexadecimal and octal integers of each width, chars
// and strings, floats and doubles in fixed, exponent and shortest form,
// with widths, precisions and flags, from several threads of several
// blocks. Pointers are left out: their values differ from device to
// device. The lines come out in any order; they are compared sorted.
#include "rt.h"

__device__ const char *names[] = { "zero", "one", "two", "three" };

__global__ void integers(int base)
{
	int t = threadIdx.x, b = blockIdx.x;
	int v = base * (b + 1) - 37 * t;
	unsigned int u = 0xdeadbeefu >> t;
	long long ll = -1234567890123ll * (b + 1) + t;
	unsigned long long ull = 0xfedcba9876543210ull >> (4 * t);
	short sh = (short)(-300 * (t + 1));

	printf("[%d,%d] d=%d i=%i u=%u x=%x X=%X o=%o\n", b, t, v, v, u, u, u,
	       u);
	printf("[%d,%d] width |%6d|%-6d|%06d|%+d|% d|%.4d|\n", b, t, v, v, v,
	       t, t, t);
	printf("[%d,%d] alt |%#x|%#o|%#X|%8x|%-8X|%08o|\n", b, t, u >> 8,
	       u >> 20, u, u >> 12, u >> 16, t * 9);
	printf("[%d,%d] long long %lld %llu %llx %llX %20lld|%-20lld|\n", b, t,
	       ll, ull, ull, ull, ll, ll);
	printf("[%d,%d] short %hd long %ld unsigned long %lu\n", b, t, sh,
	       (long)v * 100000, (unsigned long)u * 3);
	printf("[%d,%d] char %c%c%c |%3c|%-3c| percent %%\n", b, t, 'a' + t,
	       'A' + b, '0' + t, '*', '#');
	printf("[%d,%d] string %s |%8s|%-8s|%.2s|%6.3s|\n", b, t, names[t],
	       names[t], names[t], names[t], names[(t + 1) % 4]);
}

__global__ void reals(float f)
{
	int t = threadIdx.x, b = blockIdx.x;
	float x = f * (b + 1) - 1.25f * t;
	double d = 1.0 / (3.0 + t) + b;
	double big = 6.02214076e23 * (t + 1), small = 1.602176634e-19 / (b + 1);

	// A float argument is promoted to double, as on the host.
	printf("[%d,%d] f=%f e=%e g=%g E=%E G=%G\n", b, t, x, x, x, x, x);
	printf("[%d,%d] precision %.0f %.1f %.3f %.10f %.2e %.3g\n", b, t, d,
	       d, d, d, d, d);
	printf("[%d,%d] width |%12.4f|%-12.4f|%012.4f|%+.2f|% .2f|\n", b, t, x,
	       x, x, x, x);
	printf("[%d,%d] big %e %g %.15g small %e %g %.3E\n", b, t, big, big,
	       big, small, small, small);
	printf("[%d,%d] alt %#.0f %#g %#.3e\n", b, t, d, d, d);
	printf("[%d,%d] mixed %d %f %s %c %lld %g\n", b, t, t, d, names[b % 4],
	       'x', (long long)b << 40, x);
}

// Many arguments of mixed sizes in one call.
__global__ void many(void)
{
	int t = threadIdx.x;

	printf("thread %d: %d %d %d %d %d %d %d %d %f %f %f %f %lld %lld "
	       "%s %c\n", t, t, t + 1, t + 2, t + 3, t + 4, t + 5, t + 6,
	       t + 7, t * 0.5, t * 0.25, t * 0.125, t * 0.0625,
	       (long long)t << 33, -((long long)t << 34), names[t % 4],
	       'k' + t);
}

// Lines from a branch: only some threads print.
__global__ void some(void)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i % 5 == 0)
		printf("thread %d of the grid is a multiple of 5\n", i);
}

__global__ void unterminated(void)
{
	printf("a device line without its newline, ");
}

int main(void)
{
	rt_check_library();
	TRY(cudaSetDevice(0));
	integers<<<2, 4>>>(1000);
	TRY(cudaGetLastError());
	TRY(cudaDeviceSynchronize());
	reals<<<3, 4>>>(3.75f);
	TRY(cudaDeviceSynchronize());
	many<<<1, 6>>>();
	TRY(cudaDeviceSynchronize());
	some<<<3, 8>>>();
	TRY(cudaDeviceSynchronize());
	// Device output goes through the host's stdout as it is flushed at
	// the synchronization: the host's next words end its line.
	unterminated<<<1, 1>>>();
	TRY(cudaDeviceSynchronize());
	printf("ended by the host\n");
	return rt_result();
}
