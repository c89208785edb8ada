// SPDX-License-Identifier: MIT
/*
 * Driver-API soak, run in the VM bench:
 *
 *	soak_api SECONDS [SEED] [-p PROCESSES] [-t THREADS]
 *
 * Epochs of about 20 s: PROCESSES children, each a context with THREADS
 * threads of STREAMS streams doing random real work (allocations, async
 * copies host to device, device to host and device to device, kernels,
 * events and stream waits, modules loaded and unloaded, pinned memory),
 * every stream's buffer checked against a model of what it must hold.
 * The parent kill -9s children at random moments and starts new ones;
 * at each epoch's end it kills the rest and checks that device memory is
 * back where it started. A child that finds a wrong result or an error
 * exits with status 1. TAP, one line per epoch.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cuda.h"

#define MAX_PROCS 8
#define MAX_THREADS 8
#define STREAMS 4
#define WORDS 4096
#define EPOCH_S 20.0
#define SETTLE_S 30
#define NDEVS 2

static const char ptx[] =
	".version 9.0\n.target sm_75\n.address_size 64\n"
	/* p[i] += k for i < n */
	".visible .entry add_k(.param .u64 p, .param .u32 k, .param .u32 n)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [k];\n"
	"\tld.param.u32 %r2, [n];\n\tmov.u32 %r3, %ctaid.x;\n"
	"\tmov.u32 %r4, %ntid.x;\n\tmov.u32 %r5, %tid.x;\n"
	"\tmad.lo.u32 %r3, %r3, %r4, %r5;\n\tsetp.ge.u32 %p1, %r3, %r2;\n"
	"\t@%p1 bra $L__out;\n\tmul.wide.u32 %rd2, %r3, 4;\n"
	"\tadd.u64 %rd1, %rd1, %rd2;\n\tld.global.u32 %r6, [%rd1];\n"
	"\tadd.u32 %r6, %r6, %r1;\n\tst.global.u32 [%rd1], %r6;\n"
	"$L__out:\n\tret;\n}\n"
	/* p[i] = p[i] * 3 + i for i < n */
	".visible .entry mix_k(.param .u64 p, .param .u32 n)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<8>;\n\t.reg .b64 %rd<4>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r2, [n];\n"
	"\tmov.u32 %r3, %ctaid.x;\n\tmov.u32 %r4, %ntid.x;\n\tmov.u32 %r5, %tid.x;\n"
	"\tmad.lo.u32 %r3, %r3, %r4, %r5;\n\tsetp.ge.u32 %p1, %r3, %r2;\n"
	"\t@%p1 bra $L__end;\n\tmul.wide.u32 %rd2, %r3, 4;\n"
	"\tadd.u64 %rd1, %rd1, %rd2;\n\tld.global.u32 %r6, [%rd1];\n"
	"\tmad.lo.u32 %r6, %r6, 3, %r3;\n\tst.global.u32 [%rd1], %r6;\n"
	"$L__end:\n\tret;\n}\n";

/* One stream and the buffer it owns, with the model of that buffer. */
struct lane {
	CUstream s;
	CUdeviceptr buf;
	CUdeviceptr scratch;
	uint32_t *pinned;	/* cuMemAllocHost */
	uint32_t model[WORDS];
};

struct worker {
	int id;
	unsigned int seed;
	struct lane lane[STREAMS];
	uint32_t tmp[WORDS];
};

static CUcontext ctx;
static CUfunction add_k, mix_k;
static double child_end;

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* In a child: any failed call ends it with status 1, saying which. */
#define TRY(call) do { \
	CUresult _r = (call); \
	if (_r != CUDA_SUCCESS) { \
		printf("# pid %d line %d: %s: %d\n", getpid(), __LINE__, #call, (int)_r); \
		fflush(stdout); \
		_exit(1); \
	} \
} while (0)

static void launch_add(struct lane *l, CUdeviceptr p, uint32_t k)
{
	uint32_t n = WORDS;
	void *args[] = { &p, &k, &n };

	TRY(cuLaunchKernel(add_k, WORDS / 128, 1, 1, 128, 1, 1, 0, l->s, args, NULL));
}

static void verify(struct worker *w, struct lane *l, const char *what)
{
	unsigned int j;

	TRY(cuMemcpyDtoHAsync(l->pinned, l->buf, sizeof(l->model), l->s));
	TRY(cuStreamSynchronize(l->s));
	for (j = 0; j < WORDS; j++) {
		if (l->pinned[j] != l->model[j]) {
			printf("# pid %d thread %d: after %s word %u is %#x, expected %#x\n",
			       getpid(), w->id, what, j, l->pinned[j], l->model[j]);
			fflush(stdout);
			_exit(1);
		}
	}
}

/* A module of its own, loaded, used and unloaded while its launch may run. */
static void module_cycle(struct lane *l)
{
	CUmodule m;
	CUfunction f;
	uint32_t k = 7, n = WORDS;
	void *args[] = { &l->buf, &k, &n };
	unsigned int j;

	TRY(cuModuleLoadData(&m, ptx));
	TRY(cuModuleGetFunction(&f, m, "add_k"));
	TRY(cuLaunchKernel(f, WORDS / 256, 1, 1, 256, 1, 1, 0, l->s, args, NULL));
	TRY(cuModuleUnload(m));
	for (j = 0; j < WORDS; j++)
		l->model[j] += k;
}

static void op(struct worker *w, struct lane *l)
{
	struct lane *o = &w->lane[rand_r(&w->seed) % STREAMS];
	uint32_t v = (uint32_t)rand_r(&w->seed), n = WORDS;
	void *args[] = { &l->buf, &n };
	CUdeviceptr extra;
	CUevent e1, e2;
	unsigned int j;
	size_t size;
	void *host;

	switch (rand_r(&w->seed) % 10) {
	case 0:
		TRY(cuMemsetD32Async(l->buf, v, WORDS, l->s));
		for (j = 0; j < WORDS; j++)
			l->model[j] = v;
		break;
	case 1:
		launch_add(l, l->buf, v % 1000);
		for (j = 0; j < WORDS; j++)
			l->model[j] += v % 1000;
		break;
	case 2:
		TRY(cuLaunchKernel(mix_k, WORDS / 64, 1, 1, 64, 1, 1, 0, l->s, args, NULL));
		for (j = 0; j < WORDS; j++)
			l->model[j] = l->model[j] * 3 + j;
		break;
	case 3:	/* pinned host to device; the source must stay until it ran */
		TRY(cuStreamSynchronize(l->s));
		for (j = 0; j < WORDS; j++)
			l->pinned[j] = v ^ j;
		TRY(cuMemcpyHtoDAsync(l->buf, l->pinned, sizeof(l->model), l->s));
		memcpy(l->model, l->pinned, sizeof(l->model));
		break;
	case 4:	/* through scratch: device to device, a kernel, and back */
		TRY(cuMemcpyDtoDAsync(l->scratch, l->buf, sizeof(l->model), l->s));
		launch_add(l, l->scratch, 5);
		TRY(cuMemcpyDtoDAsync(l->buf, l->scratch, sizeof(l->model), l->s));
		for (j = 0; j < WORDS; j++)
			l->model[j] += 5;
		break;
	case 5:	/* hand-off: another stream takes a copy, through events */
		if (o == l)
			break;
		TRY(cuEventCreate(&e1, CU_EVENT_DISABLE_TIMING));
		TRY(cuEventCreate(&e2, CU_EVENT_DISABLE_TIMING));
		TRY(cuEventRecord(e1, l->s));
		TRY(cuStreamWaitEvent(o->s, e1, 0));
		TRY(cuMemcpyDtoDAsync(o->buf, l->buf, sizeof(l->model), o->s));
		TRY(cuEventRecord(e2, o->s));
		TRY(cuStreamWaitEvent(l->s, e2, 0));
		TRY(cuEventDestroy(e1));
		TRY(cuEventDestroy(e2));
		memcpy(o->model, l->model, sizeof(l->model));
		break;
	case 6:	/* an allocation of its own, filled, read back, freed */
		size = 4 + (size_t)(rand_r(&w->seed) % (4 << 20)) / 4 * 4;
		TRY(cuMemAlloc(&extra, size));
		TRY(cuMemsetD32Async(extra, v, size / 4, l->s));
		TRY(cuMemcpyDtoHAsync(w->tmp, extra + size - 4, 4, l->s));
		TRY(cuStreamSynchronize(l->s));
		TRY(cuMemFree(extra));
		if (w->tmp[0] != v) {
			printf("# pid %d: last word of a %zu-byte fill is %#x, not %#x\n",
			       getpid(), size, w->tmp[0], v);
			fflush(stdout);
			_exit(1);
		}
		break;
	case 7:
		module_cycle(l);
		break;
	case 8:	/* pinned and registered host memory, made and unmade */
		TRY(cuMemHostAlloc(&host, 1 << 16, CU_MEMHOSTALLOC_PORTABLE));
		TRY(cuMemcpyDtoHAsync(host, l->buf, sizeof(l->model), l->s));
		TRY(cuStreamSynchronize(l->s));
		if (memcmp(host, l->model, sizeof(l->model)))
			verify(w, l, "a copy to cuMemHostAlloc memory");
		TRY(cuMemFreeHost(host));
		break;
	default:
		verify(w, l, "a round");
		break;
	}
}

static void *thread_main(void *arg)
{
	struct worker *w = arg;
	unsigned int i;

	TRY(cuCtxSetCurrent(ctx));
	for (i = 0; i < STREAMS; i++) {
		struct lane *l = &w->lane[i];

		TRY(cuStreamCreateWithPriority(&l->s, i % 2 ? CU_STREAM_NON_BLOCKING : 0,
					       -(int)(i % 3)));
		TRY(cuMemAlloc(&l->buf, sizeof(l->model)));
		TRY(cuMemAlloc(&l->scratch, sizeof(l->model)));
		TRY(cuMemAllocHost((void **)&l->pinned, sizeof(l->model)));
		TRY(cuMemsetD32Async(l->buf, 0, WORDS, l->s));
		memset(l->model, 0, sizeof(l->model));
	}
	while (now_s() < child_end) {
		op(w, &w->lane[rand_r(&w->seed) % STREAMS]);
		if (rand_r(&w->seed) % 64 == 0)
			for (i = 0; i < STREAMS; i++)
				verify(w, &w->lane[i], "a check of every stream");
	}
	for (i = 0; i < STREAMS; i++) {
		verify(w, &w->lane[i], "the last check");
		TRY(cuStreamDestroy(w->lane[i].s));
		TRY(cuMemFree(w->lane[i].buf));
		TRY(cuMemFree(w->lane[i].scratch));
		TRY(cuMemFreeHost(w->lane[i].pinned));
	}
	return NULL;
}

/* A child: one context on device @dev, @threads threads, for @secs. */
static void child_main(int dev, int threads, unsigned int seed, double secs)
{
	static struct worker w[MAX_THREADS];
	pthread_t t[MAX_THREADS];
	CUdevice d;
	CUmodule mod;
	int i;

	TRY(cuInit(0));
	TRY(cuDeviceGet(&d, dev));
	TRY(cuCtxCreate(&ctx, NULL, 0, d));
	TRY(cuModuleLoadData(&mod, ptx));
	TRY(cuModuleGetFunction(&add_k, mod, "add_k"));
	TRY(cuModuleGetFunction(&mix_k, mod, "mix_k"));
	child_end = now_s() + secs;
	for (i = 0; i < threads; i++) {
		w[i].id = i;
		w[i].seed = seed * 31 + (unsigned int)i;
		if (pthread_create(&t[i], NULL, thread_main, &w[i]))
			_exit(1);
	}
	for (i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	TRY(cuCtxDestroy(ctx));
	_exit(0);
}

static long long mem_used(int dev)
{
	char path[64];
	long long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/vgpu/vgpu%d/mem_used", dev);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%lld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Polls until every device's memory in use is back to @base. */
static int settled(const long long *base)
{
	int tries, d, same = 0;

	for (tries = 0; tries <= SETTLE_S * 10 && !same; tries++) {
		same = 1;
		for (d = 0; d < NDEVS; d++)
			same &= mem_used(d) == base[d];
		if (!same)
			usleep(100000);
	}
	return same;
}

int main(int argc, char **argv)
{
	int procs = 3, threads = 2, opt, i, epoch = 0, passed = 0, failed = 0;
	long long base[NDEVS];
	pid_t kids[MAX_PROCS];
	unsigned int seed;
	double seconds, end;

	while ((opt = getopt(argc, argv, "p:t:")) != -1) {
		if (opt == 'p')
			procs = atoi(optarg);
		else if (opt == 't')
			threads = atoi(optarg);
		else
			return 2;
	}
	if (optind >= argc || procs < 1 || procs > MAX_PROCS || threads < 1 ||
	    threads > MAX_THREADS) {
		fprintf(stderr, "usage: soak_api SECONDS [SEED] [-p PROCESSES] [-t THREADS]\n");
		return 2;
	}
	seconds = atof(argv[optind]);
	seed = optind + 1 < argc ? (unsigned int)strtoul(argv[optind + 1], NULL, 0) :
		(unsigned int)time(NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n# seed %u: replay with %s %g %u -p %d -t %d\n", seed, argv[0],
	       seconds, seed, procs, threads);
	for (i = 0; i < NDEVS; i++)
		base[i] = mem_used(i);
	if (base[0] < 0) {
		printf("1..0 # SKIP no /sys/class/vgpu/vgpu0/mem_used\n");
		return 0;
	}
	srand(seed);
	end = now_s() + seconds;
	do {
		double epoch_end = now_s() + EPOCH_S;
		int kills = 0, exits = 0, bad = 0, status;
		pid_t pid;

		for (i = 0; i < procs; i++)
			kids[i] = 0;
		while (now_s() < epoch_end) {
			/* Dead children are replaced; a failed one is a failure. */
			while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
				for (i = 0; i < procs; i++)
					if (kids[i] == pid)
						kids[i] = 0;
				if (WIFEXITED(status) && WEXITSTATUS(status)) {
					printf("# child %d exited with status %d\n", pid,
					       WEXITSTATUS(status));
					bad++;
				} else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL) {
					printf("# child %d died of signal %d\n", pid,
					       WTERMSIG(status));
					bad++;
				} else {
					exits += WIFEXITED(status);
				}
			}
			for (i = 0; i < procs; i++) {
				unsigned int s = (unsigned int)rand();

				if (kids[i])
					continue;
				kids[i] = fork();
				if (kids[i] == 0)
					child_main(i % NDEVS, threads, s, 2.0 + s % 12);
				if (kids[i] < 0)
					kids[i] = 0;
			}
			usleep(100000 + (useconds_t)(rand() % 2000000));
			i = rand() % procs;
			if (kids[i] && rand() % 2) {
				kill(kids[i], SIGKILL);
				kills++;
			}
		}
		for (i = 0; i < procs; i++)
			if (kids[i])
				kill(kids[i], SIGKILL);
		while ((pid = waitpid(-1, &status, 0)) > 0)
			if (WIFEXITED(status) && WEXITSTATUS(status)) {
				printf("# child %d exited with status %d\n", pid,
				       WEXITSTATUS(status));
				bad++;
			}
		epoch++;
		if (!settled(base)) {
			printf("not ok %d - epoch %d: device memory in use %lld, %lld; "
			       "was %lld, %lld\n", epoch, epoch, mem_used(0), mem_used(1),
			       base[0], base[1]);
			failed++;
		} else if (bad) {
			printf("not ok %d - epoch %d: %d children failed\n", epoch, epoch, bad);
			failed++;
		} else {
			printf("ok %d - epoch %d: %d children killed, %d finished, "
			       "results right, device memory back to baseline\n",
			       epoch, epoch, kills, exits);
			passed++;
		}
	} while (now_s() < end);
	printf("1..%d\n# %d passed, %d failed\n", epoch, passed, failed);
	return failed ? 1 : 0;
}
