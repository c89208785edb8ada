// SPDX-License-Identifier: MIT
/*
 * Streams and events, measured in one run:
 *   launch_sync_vs_pingpong: an empty kernel's launch and
 *	cuStreamSynchronize, round trip, over a round trip between two
 *	threads through a pair of pipes (the cost of waking a sleeper);
 *   overlap_two_vs_one_stream: the breadth-first two-stream pipeline of
 *	"CUDA by Example" over the one-stream one, with the kernel's time
 *	tuned to the chunk's copy time (0.5 to 0.67 is ideal overlap);
 *   event_timing_error: |cuEventElapsedTime - D| / D for a kernel that
 *	spins on %globaltimer for D = 50 ms.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench_cuda.h"

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

static const char ptx[] = HEAD
	".visible .entry empty()\n{\n\tret;\n}\n"
	/* Each thread adds 1 to its word n times. */
	".visible .entry work(.param .u64 p, .param .u32 n)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
	"\tmov.u32 %r4, %tid.x;\n\tmad.lo.u32 %r2, %r2, %r3, %r4;\n"
	"\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.u64 %rd1, %rd1, %rd2;\n"
	"\tld.global.u32 %r5, [%rd1];\n"
	"$L__loop:\n\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 bra $L__done;\n"
	"\tadd.u32 %r5, %r5, 1;\n\tsub.u32 %r1, %r1, 1;\n\tbra $L__loop;\n"
	"$L__done:\n\tst.global.u32 [%rd1], %r5;\n\tret;\n}\n"
	/* Spins until %globaltimer has advanced by ns. */
	".visible .entry spin(.param .u64 ns)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [ns];\n\tmov.u64 %rd2, %globaltimer;\n"
	"\tadd.u64 %rd1, %rd1, %rd2;\n"
	"$L__spin:\n\tmov.u64 %rd3, %globaltimer;\n"
	"\tsetp.lt.u64 %p1, %rd3, %rd1;\n\t@%p1 bra $L__spin;\n\tret;\n}\n";

static CUmodule mod;

static CUfunction func(const char *name)
{
	CUfunction f;

	TRY(cuModuleGetFunction(&f, mod, name));
	return f;
}

/* --- launch + sync against a pipe ping-pong ------------------------------ */

static int ping[2], pong[2];

static void *ponger(void *arg)
{
	char c;

	(void)arg;
	while (read(ping[0], &c, 1) == 1 && c)
		if (write(pong[1], &c, 1) != 1)
			break;
	return NULL;
}

static double pingpong_us(int rounds)
{
	pthread_t t;
	double t0;
	char c = 1;
	int i;

	if (pipe(ping) || pipe(pong) || pthread_create(&t, NULL, ponger, NULL))
		exit(1);
	t0 = now_s();
	for (i = 0; i < rounds; i++)
		if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
			exit(1);
	t0 = now_s() - t0;
	c = 0;
	if (write(ping[1], &c, 1) != 1)
		exit(1);
	pthread_join(t, NULL);
	return t0 * 1e6 / rounds;
}

static double launch_sync_us(CUstream s, int rounds)
{
	CUfunction f = func("empty");
	double t0;
	int i;

	TRY(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL));
	TRY(cuStreamSynchronize(s));
	t0 = now_s();
	for (i = 0; i < rounds; i++) {
		TRY(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL));
		TRY(cuStreamSynchronize(s));
	}
	return (now_s() - t0) * 1e6 / rounds;
}

/* --- the chunked pipeline ------------------------------------------------- */

#define CHUNK (1024 * 1024)	/* bytes */
#define CHUNKS 16

static unsigned char *host;
static CUdeviceptr dev[2];
static unsigned int iters;

static void work(int s, CUstream st)
{
	CUdeviceptr p = dev[s];
	void *args[] = { &p, &iters };

	/* One warp: the time is the rounds', tunable from small. */
	TRY(cuLaunchKernel(func("work"), 1, 1, 1, 32, 1, 1, 0, st, args, NULL));
}

static float elapsed(CUevent a, CUevent b)
{
	float ms;

	TRY(cuEventSynchronize(b));
	TRY(cuEventElapsedTime(&ms, a, b));
	return ms;
}

/* One chunk's copy in and kernel, each timed alone: the best of three. */
static void calibrate(CUstream s, float *copy_ms, float *kernel_ms)
{
	CUevent a, b, c;
	float cm, km;
	int i;

	TRY(cuEventCreate(&a, 0));
	TRY(cuEventCreate(&b, 0));
	TRY(cuEventCreate(&c, 0));
	*copy_ms = *kernel_ms = 1e9f;
	for (i = 0; i < 3; i++) {
		TRY(cuEventRecord(a, s));
		TRY(cuMemcpyHtoDAsync(dev[0], host, CHUNK, s));
		TRY(cuEventRecord(b, s));
		work(0, s);
		TRY(cuEventRecord(c, s));
		cm = elapsed(a, b);
		km = elapsed(b, c);
		if (cm < *copy_ms)
			*copy_ms = cm;
		if (km < *kernel_ms)
			*kernel_ms = km;
	}
	TRY(cuEventDestroy(a));
	TRY(cuEventDestroy(b));
	TRY(cuEventDestroy(c));
}

static double pipeline_s(CUstream s0, CUstream s1, int two)
{
	double t0 = now_s();
	int i;

	for (i = 0; i < CHUNKS; i += 2) {
		if (!two) {
			TRY(cuMemcpyHtoDAsync(dev[0], host + i * CHUNK, CHUNK, s0));
			work(0, s0);
			TRY(cuMemcpyDtoHAsync(host + i * CHUNK, dev[0], CHUNK, s0));
			TRY(cuMemcpyHtoDAsync(dev[0], host + (i + 1) * CHUNK, CHUNK, s0));
			work(0, s0);
			TRY(cuMemcpyDtoHAsync(host + (i + 1) * CHUNK, dev[0], CHUNK, s0));
		} else {
			TRY(cuMemcpyHtoDAsync(dev[0], host + i * CHUNK, CHUNK, s0));
			TRY(cuMemcpyHtoDAsync(dev[1], host + (i + 1) * CHUNK, CHUNK, s1));
			work(0, s0);
			work(1, s1);
			TRY(cuMemcpyDtoHAsync(host + i * CHUNK, dev[0], CHUNK, s0));
			TRY(cuMemcpyDtoHAsync(host + (i + 1) * CHUNK, dev[1], CHUNK, s1));
		}
	}
	TRY(cuStreamSynchronize(s0));
	TRY(cuStreamSynchronize(s1));
	return now_s() - t0;
}

int main(void)
{
	CUstream s0, s1;
	CUcontext ctx;
	CUevent a, b;
	float copy_ms, kernel_ms, ms;
	double one, two, ping_us, launch_us;
	uint64_t ns = 50000000;
	void *args[] = { &ns };
	int i;

	TRY(cuInit(0));
	TRY(cuCtxCreate(&ctx, NULL, 0, 0));
	TRY(cuModuleLoadData(&mod, ptx));
	TRY(cuStreamCreate(&s0, CU_STREAM_NON_BLOCKING));
	TRY(cuStreamCreate(&s1, CU_STREAM_NON_BLOCKING));

	ping_us = pingpong_us(2000);
	launch_us = launch_sync_us(s0, 500);
	printf("launch_sync_vs_pingpong: %.2f\n", launch_us / ping_us);

	TRY(cuMemHostAlloc((void **)&host, CHUNK * CHUNKS, 0));
	memset(host, 0, CHUNK * CHUNKS);
	TRY(cuMemAlloc(&dev[0], CHUNK));
	TRY(cuMemAlloc(&dev[1], CHUNK));
	/* Kernel time grows with iters: match it to the copy's. */
	iters = 1;
	calibrate(s0, &copy_ms, &kernel_ms);
	for (i = 0; i < 24 && kernel_ms < copy_ms; i++) {
		iters *= 2;
		calibrate(s0, &copy_ms, &kernel_ms);
	}
	if (kernel_ms > copy_ms && iters > 1)
		iters = (unsigned int)(iters * copy_ms / kernel_ms) + 1;
	pipeline_s(s0, s1, 0);
	one = pipeline_s(s0, s1, 0);
	two = pipeline_s(s0, s1, 1);
	fprintf(stderr, "# chunk copy %.2f ms, kernel %.2f ms (%u rounds), one stream %.1f ms, two %.1f ms\n",
		copy_ms, kernel_ms, iters, one * 1e3, two * 1e3);
	printf("overlap_two_vs_one_stream: %.2f\n", two / one);

	TRY(cuEventCreate(&a, 0));
	TRY(cuEventCreate(&b, 0));
	TRY(cuEventRecord(a, s0));
	TRY(cuLaunchKernel(func("spin"), 1, 1, 1, 1, 1, 1, 0, s0, args, NULL));
	TRY(cuEventRecord(b, s0));
	ms = elapsed(a, b);
	printf("event_timing_error: %.4f\n", ms > 50 ? (ms - 50) / 50 : (50 - ms) / 50);
	return 0;
}
