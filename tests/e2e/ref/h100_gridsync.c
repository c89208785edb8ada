/* H100 probe for grid-wide synchronization (cooperative groups'
 * this_grid().sync()): cooperative launches at the co-resident maximum
 * through both entry points, many barriers in a loop, one block too many,
 * two cooperative launches on two streams at once, and the codes a
 * non-cooperative launch of the same kernel gives (it traps). Each case
 * runs in its own process, as a trap ends the context. Built and run as
 *   cp h100_gridsync_k.cu k.cu && nvcc -ptx -arch=sm_75 k.cu -o k.ptx
 *   gcc -I../../../libvgpu/include h100_gridsync.c -lcuda -o p
 *   ./p > h100_gridsync.log
 * (vgpu's cuda.h: the machine had NVIDIA's driver but no toolkit)
 * (the log's first line, the GPU and driver, from nvidia-smi). A line is
 * "case values...". */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

static CUdevice dev;
static CUcontext ctx;
static CUfunction f;
static int nsm, per_sm;

static void setup(void)
{
	CUmodule mod;

	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	if (cuModuleLoad(&mod, "k.ptx")) { printf("load failed\n"); exit(2); }
	cuModuleGetFunction(&f, mod, "rounds");
	cuDeviceGetAttribute(&nsm, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
	cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, 128, 0);
}

/* Launches rounds over @g blocks of 128 with @nr barriers; 0: coop, 1: Ex
 * coop, 2: plain, 3: Ex with cooperative = 0. Prints launch and sync codes
 * and how many (round, block) records disagree with the block count. */
static void one(const char *name, unsigned gx, unsigned gy, int nr, int how)
{
	CUdeviceptr cnt, seen;
	unsigned n = gx * gy, bad = 0, *h;
	void *args[3] = { &cnt, &seen, &nr };
	CUlaunchAttribute a;
	CUlaunchConfig c = { gx, gy, 1, 128, 1, 1, 0, NULL, &a, 1 };
	CUresult lr, sr;

	cuMemAlloc(&cnt, 4 * nr);
	cuMemAlloc(&seen, 4ull * nr * n);
	cuMemsetD8(cnt, 0, 4 * nr);
	cuMemsetD8(seen, 0xff, 4ull * nr * n);
	memset(&a, 0, sizeof(a));
	a.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
	a.value.cooperative = how == 1;
	if (how == 0)
		lr = cuLaunchCooperativeKernel(f, gx, gy, 1, 128, 1, 1, 0, NULL, args);
	else if (how == 2)
		lr = cuLaunchKernel(f, gx, gy, 1, 128, 1, 1, 0, NULL, args, NULL);
	else
		lr = cuLaunchKernelEx(&c, f, args, NULL);
	sr = cuCtxSynchronize();
	printf("%s launch %d sync %d", name, lr, sr);
	if (!lr && !sr) {
		h = malloc(4ull * nr * n);
		cuMemcpyDtoH(h, seen, 4ull * nr * n);
		for (unsigned i = 0; i < nr * n; i++)
			bad += h[i] != n;
		printf(" blocks %u rounds %d wrong %u", n, nr, bad);
		free(h);
	} else {
		printf(" again %d", cuCtxSynchronize());
		printf(" memalloc %d", cuMemAlloc(&cnt, 4));
	}
	printf("\n");
}

/* Two cooperative launches, each of half the maximum, on two streams. */
static void two(void)
{
	CUstream s[2];
	CUdeviceptr cnt[2], seen[2];
	unsigned g = (unsigned)(nsm * per_sm / 2), bad = 0, *h = malloc(4ull * 64 * g);
	int nr = 64;
	CUresult r[2];

	for (int i = 0; i < 2; i++) {
		void *args[3] = { &cnt[i], &seen[i], &nr };

		cuStreamCreate(&s[i], CU_STREAM_NON_BLOCKING);
		cuMemAlloc(&cnt[i], 4 * nr);
		cuMemAlloc(&seen[i], 4ull * nr * g);
		cuMemsetD8(cnt[i], 0, 4 * nr);
		cuCtxSynchronize();
		r[i] = cuLaunchCooperativeKernel(f, g, 1, 1, 128, 1, 1, 0, s[i], args);
	}
	printf("two launch %d %d sync %d", r[0], r[1], cuCtxSynchronize());
	for (int i = 0; i < 2; i++) {
		cuMemcpyDtoH(h, seen[i], 4ull * nr * g);
		for (unsigned j = 0; j < nr * g; j++)
			bad += h[j] != g;
	}
	printf(" blocks %u rounds %d wrong %u\n", g, nr, bad);
}

static void fork_case(int c)
{
	pid_t p = fork();
	int st;

	if (p == 0) {
		setup();
		if (c == 0)
			printf("coresident sm %d per_sm_128 %d\n", nsm, per_sm);
		else if (c == 1)
			one("coop_max", nsm * per_sm, 1, 3, 0);
		else if (c == 2)
			one("ex_max", nsm * per_sm, 1, 3, 1);
		else if (c == 3)
			one("coop_loop", nsm * per_sm, 1, 1000, 0);
		else if (c == 4)
			one("coop_2d", 4, 3, 5, 0);
		else if (c == 5)
			one("coop_one", 1, 1, 2, 0);
		else if (c == 6)
			one("coop_too_large", nsm * per_sm + 1, 1, 1, 0);
		else if (c == 7)
			one("ex_too_large", nsm * per_sm + 1, 1, 1, 1);
		else if (c == 8)
			one("plain", 4, 1, 1, 2);
		else if (c == 9)
			one("ex_not_coop", 4, 1, 1, 3);
		else if (c == 10)
			one("plain_one", 1, 1, 1, 2);
		else if (c == 11)
			two();
		fflush(stdout);
		_exit(0);
	}
	waitpid(p, &st, 0);
	if (WIFSIGNALED(st))
		printf("%d signal %d\n", c, WTERMSIG(st));
	fflush(stdout);
}

int main(void)
{
	for (int c = 0; c <= 11; c++)
		fork_case(c);
	return 0;
}
