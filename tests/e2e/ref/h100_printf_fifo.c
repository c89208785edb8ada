/*
 * H100 probe of the printf FIFO and the stack size limits (driver
 * 580.159.04, CUDA 13.0). Kernels are h100_printf_fifo_k.cu and
 * h100_printf_fifo_k2.cu; built and run as
 *   nvcc -arch=sm_75 -ptx h100_printf_fifo_k.cu -o k.ptx
 *   nvcc -arch=sm_75 -ptx h100_printf_fifo_k2.cu -o k2.ptx
 *   gcc -O2 h100_printf_fifo.c -lcuda -o p && ./p > h100_printf_fifo.log
 * (the log's first line, the GPU and driver, from nvidia-smi). Kernel
 * printf output goes to a capture file (the probe's standard output is
 * moved there); the report, one "case: result" a line, goes to the
 * original standard output. Each group runs in a child process.
 *
 * Flaws of the run the log records, kept as run: "flood:" summarizes
 * before reading the capture, so its output shows up as "flood after
 * second sync: bytes 99228" (it came out at the first synchronize);
 * "two modules" and "when output appears" look their functions up
 * before setup() loads the modules, so their launches fail (400) and
 * those sections say nothing about the H100.
 */
#include <cuda.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static FILE *rep;
static CUdevice dev;
static CUcontext ctx;
static CUmodule mod, mod2;
static int capfd;		/* reads the capture file */
static char cap[64 << 20];

#define R(name, call) fprintf(rep, "%s = %d\n", name, (int)(call))

static void setup(void)
{
	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
	if (cuModuleLoad(&mod, "k.ptx") || cuModuleLoad(&mod2, "k2.ptx")) {
		fprintf(rep, "load failed\n");
		exit(2);
	}
}

static CUfunction fn(CUmodule m, const char *name)
{
	CUfunction f = NULL;

	if (cuModuleGetFunction(&f, m, name))
		fprintf(rep, "no function %s\n", name);
	return f;
}

/* What the kernels printed since the last call, NUL-terminated. */
static size_t captured(void)
{
	ssize_t n;
	size_t len = 0;

	fflush(stdout);
	while ((n = read(capfd, cap + len, sizeof(cap) - 1 - len)) > 0)
		len += (size_t)n;
	cap[len] = 0;
	return len;
}

static void launch1(CUfunction f, unsigned int gx, unsigned int bx, void **args,
		    CUstream s, const char *what)
{
	CUresult r = cuLaunchKernel(f, gx, 1, 1, bx, 1, 1, 0, s, args, NULL);

	if (r)
		fprintf(rep, "%s: launch = %d\n", what, r);
}

/* Summary of "r B T I" lines in cap. */
static void summarize(const char *what, int blocks, int threads, int n)
{
	int lines = 0, good = 0, bad = 0, maxi = -1, maxb = -1, b, t, i;
	int *seen = calloc((size_t)blocks * threads * n, sizeof(int));
	int first_missing = -1, last_present = -1, holes = 0, dups = 0;
	char *p = cap, *nl;

	while ((nl = strchr(p, '\n'))) {
		lines++;
		if (sscanf(p, "r %d %d %d", &b, &t, &i) == 3 && b < blocks &&
		    t < threads && i < n && b >= 0 && t >= 0 && i >= 0) {
			good++;
			seen[(b * threads + t) * n + i]++;
			if (i > maxi) maxi = i;
			if (b > maxb) maxb = b;
		} else if (bad++ < 3) {
			fprintf(rep, "%s: odd line '%.*s'\n", what, (int)(nl - p), p);
		}
		p = nl + 1;
	}
	if (*p)
		fprintf(rep, "%s: unterminated tail '%.40s'\n", what, p);
	for (b = 0; b < blocks * threads * n; b++) {
		if (!seen[b] && first_missing < 0)
			first_missing = b;
		if (seen[b])
			last_present = b;
		if (seen[b] > 1)
			dups += seen[b] - 1;
	}
	for (b = 0; b < blocks * threads * n; b++)
		if (!seen[b] && b < last_present)
			holes++;
	fprintf(rep, "%s: bytes %zu lines %d good %d bad %d max_i %d max_block %d first_missing(b*T+t)*n+i %d last_present %d holes %d dups %d\n",
		what, strlen(cap), lines, good, bad, maxi, maxb, first_missing,
		last_present, holes, dups);
	/* Which i values came out, per i. */
	for (i = 0; i < n && i < 8; i++) {
		int c = 0;

		for (b = 0; b < blocks * threads; b++)
			c += seen[b * n + i];
		fprintf(rep, "%s: count of i=%d: %d\n", what, i, c);
	}
	free(seen);
}

static void fifo_overflow(void)
{
	enum { B = 64, T = 256, N = 4 };
	CUdeviceptr rets;
	int n = N, *h = malloc(sizeof(int) * B * T * N), neg = 0, pos = 0, k;
	void *args[] = { &n, &rets };
	size_t v;

	setup();
	R("set fifo 0", cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 0));
	cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE);
	fprintf(rep, "fifo = %zu\n", v);
	cuMemAlloc(&rets, sizeof(int) * B * T * N);
	cuMemsetD32(rets, 0x55555555, B * T * N);
	captured();
	launch1(fn(mod, "flood"), B, T, args, NULL, "flood");
	R("flood sync", cuCtxSynchronize());
	summarize("flood", B, T, N);
	cuMemcpyDtoH(h, rets, sizeof(int) * B * T * N);
	for (k = 0; k < B * T * N; k++) {
		if (h[k] < 0)
			neg++;
		else
			pos++;
		if (k < 2 || (h[k] != h[0] && neg + pos < 10))
			fprintf(rep, "flood ret[%d] = %d\n", k, h[k]);
	}
	fprintf(rep, "flood returns: negative %d nonnegative %d\n", neg, pos);
	R("flood second sync", cuCtxSynchronize());
	fprintf(rep, "flood after second sync: bytes %zu\n", captured());
	/* After an overflow, does a small kernel print normally? */
	{
		int tag = 7;
		void *a2[] = { &tag };

		launch1(fn(mod, "say"), 1, 1, a2, NULL, "say");
		cuCtxSynchronize();
		captured();
		fprintf(rep, "after overflow say: '%s'\n", cap);
	}
	/* Records without arguments: how many fit. */
	{
		int m = 64;
		void *a3[] = { &m };

		launch1(fn(mod, "flood0"), 64, 256, a3, NULL, "flood0");
		cuCtxSynchronize();
		captured();
		fprintf(rep, "flood0 (no args, 1048576 asked): lines %zu\n",
			strlen(cap) / 2);
	}
	/* Two launches of half the FIFO each with no sync between. */
	{
		int m = 1;
		void *a3[] = { &m };

		launch1(fn(mod, "flood0"), 1, 1, a3, NULL, "probe1");
		cuCtxSynchronize();
		captured();
	}
	{
		int m = 4;
		void *a4[] = { &m, &rets };

		launch1(fn(mod, "flood"), 8, 256, a4, NULL, "halfA");
		cuCtxSynchronize();
		captured();
		summarize("one launch 8x256x4", 8, 256, 4);
		launch1(fn(mod, "flood"), 8, 256, a4, NULL, "halfA");
		launch1(fn(mod, "flood"), 8, 256, a4, NULL, "halfB");
		cuCtxSynchronize();
		captured();
		summarize("two launches (as one)", 8, 256, 4);
	}
}

/* Two modules share the FIFO: A floods it, then B prints one line. */
static void two_modules(void)
{
	int tag;
	void *a[] = { &tag };
	CUfunction say = fn(mod, "say"), say2 = fn(mod2, "say2");
	CUdeviceptr rets;
	int n = 4;
	void *fa[] = { &n, &rets };

	setup();
	cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 0);
	captured();
	tag = 1; launch1(say, 1, 1, a, NULL, "A1");
	tag = 2; launch1(say2, 1, 1, a, NULL, "B2");
	tag = 3; launch1(say, 1, 1, a, NULL, "A3");
	tag = 4; launch1(say2, 1, 1, a, NULL, "B4");
	cuCtxSynchronize();
	captured();
	fprintf(rep, "order: '%s'\n", cap);
	cuMemAlloc(&rets, sizeof(int) * 64 * 256 * 4);
	launch1(fn(mod, "flood"), 64, 256, fa, NULL, "flood");
	tag = 5; launch1(say2, 1, 1, a, NULL, "B5");
	cuCtxSynchronize();
	captured();
	fprintf(rep, "B after A flood present: %d\n", strstr(cap, "two 5\n") != NULL);
	R("set fifo after printing", cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 1 << 20));
	R("set fifo same after printing", cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 524288));
	R("set stack after printing", cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 2048));
}

/* Does a non-printing kernel of a printing module fix the FIFO's size? */
static void fixed_by(void)
{
	CUdeviceptr d;
	void *a[] = { &d };

	setup();
	cuMemAlloc(&d, 4096);
	launch1(fn(mod, "plain"), 1, 1, a, NULL, "plain");
	cuCtxSynchronize();
	R("set fifo after plain kernel of printing module",
	  cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 1 << 20));
}

/* When output appears: launch, wait until done, call X, look. */
static void when(void)
{
	CUfunction say = fn(mod, "say");
	CUstream s;
	CUevent e;
	CUdeviceptr d;
	int tag = 0, h, i;
	void *a[] = { &tag };
	static const char *names[] = {
		"nothing", "cuCtxSynchronize", "cuStreamSynchronize(stream)",
		"cuStreamSynchronize(NULL)", "cuEventSynchronize",
		"cuStreamQuery", "cuEventQuery", "cuMemcpyDtoH",
		"cuMemcpyHtoD", "cuMemcpyDtoHAsync+nothing", "cuLaunchKernel(other)",
		"cuMemsetD8", "cuMemAlloc", "cuModuleGetFunction",
		"cuCtxGetLimit", "cuStreamWaitEvent",
	};

	setup();
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	cuEventCreate(&e, 0);
	cuMemAlloc(&d, 4096);
	cuCtxSynchronize();
	captured();
	for (i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++) {
		CUdeviceptr x;
		CUfunction g;
		size_t v;
		char want[32];

		tag = 100 + i;
		launch1(say, 1, 1, a, s, names[i]);
		cuEventRecord(e, s);
		usleep(300000);
		switch (i) {
		case 1: cuCtxSynchronize(); break;
		case 2: cuStreamSynchronize(s); break;
		case 3: cuStreamSynchronize(NULL); break;
		case 4: cuEventSynchronize(e); break;
		case 5: cuStreamQuery(s); break;
		case 6: cuEventQuery(e); break;
		case 7: cuMemcpyDtoH(&h, d, 4); break;
		case 8: cuMemcpyHtoD(d, &h, 4); break;
		case 9: cuMemcpyDtoHAsync(&h, d, 4, s); usleep(100000); break;
		case 10: { void *pa[] = { &d }; launch1(fn(mod, "plain"), 1, 1, pa, s, "plain"); usleep(100000); break; }
		case 11: cuMemsetD8(d, 0, 16); break;
		case 12: cuMemAlloc(&x, 64); break;
		case 13: cuModuleGetFunction(&g, mod, "plain"); break;
		case 14: cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE); break;
		case 15: cuStreamWaitEvent(NULL, e, 0); break;
		}
		captured();
		snprintf(want, sizeof(want), "say %d\n", tag);
		fprintf(rep, "output after %s: %s\n", names[i],
			strstr(cap, want) ? "yes" : cap[0] ? "other" : "no");
		cuCtxSynchronize();
		captured();
	}
}

static void stack(void)
{
	static const char *k[] = { "local300", "local2048", "local5000", "local70000" };
	CUdeviceptr d;
	int idx = 3, i;
	void *a[] = { &d, &idx };
	size_t v;

	setup();
	cuMemAlloc(&d, 4096);
	cuMemsetD8(d, 0, 4096);
	cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
	fprintf(rep, "stack at start = %zu\n", v);
	for (i = 0; i < 4; i++) {
		CUfunction f = fn(mod, k[i]);
		int local = -1, out = -1;

		cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f);
		cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
		fprintf(rep, "%s local = %d, stack before launch = %zu\n", k[i], local, v);
		R("  launch", cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, a, NULL));
		cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
		fprintf(rep, "  stack after launch = %zu\n", v);
		R("  sync", cuCtxSynchronize());
		cuMemcpyDtoH(&out, d + 4, 4);
		fprintf(rep, "  out = %d\n", out);
		cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
		fprintf(rep, "  stack after sync = %zu\n", v);
	}
	R("set stack 16 after growth", cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 16));
	cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
	fprintf(rep, "stack = %zu\n", v);
	R("launch local2048 with stack 16",
	  cuLaunchKernel(fn(mod, "local2048"), 1, 1, 1, 32, 1, 1, 0, NULL, a, NULL));
	cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
	fprintf(rep, "stack after = %zu\n", v);
	R("sync", cuCtxSynchronize());
	R("launch local300 with stack 8192",
	  (cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 8192),
	   cuLaunchKernel(fn(mod, "local300"), 1, 1, 1, 32, 1, 1, 0, NULL, a, NULL)));
	cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
	fprintf(rep, "stack after = %zu\n", v);
	R("sync", cuCtxSynchronize());
	/* Growth by cuLaunchCooperativeKernel / on a stream. */
	{
		CUstream s;

		cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 0);
		cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
		R("launch local5000 on stream, stack 0",
		  cuLaunchKernel(fn(mod, "local5000"), 1, 1, 1, 32, 1, 1, 0, s, a, NULL));
		cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
		fprintf(rep, "stack after = %zu\n", v);
		R("sync", cuCtxSynchronize());
	}
}

static void recursion(int depth, size_t limit)
{
	CUdeviceptr d;
	int n = depth, local = -1, out = 0;
	void *a[] = { &d, &n };
	CUfunction f;
	size_t v;
	char what[96];

	setup();
	f = fn(mod, "recurse");
	cuMemAlloc(&d, 4096);
	cuMemsetD8(d, 0, 4096);
	if (limit)
		R("  set stack", cuCtxSetLimit(CU_LIMIT_STACK_SIZE, limit));
	cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f);
	cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
	snprintf(what, sizeof(what), "recurse depth %d limit %zu (local %d)", depth, v, local);
	fprintf(rep, "%s\n", what);
	R("  launch", cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, a, NULL));
	cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE);
	fprintf(rep, "  stack after launch = %zu\n", v);
	R("  sync", cuCtxSynchronize());
	R("  memcpy", cuMemcpyDtoH(&out, d + 64, 4));
	fprintf(rep, "  out = %d\n", out);
}

static void run(const char *name, void (*f)(void))
{
	pid_t pid;
	int st;

	fprintf(rep, "## %s\n", name);
	fflush(rep);
	pid = fork();
	if (!pid) {
		alarm(60);
		f();
		fflush(rep);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fprintf(rep, "%s: child status 0x%x\n", name, st);
}

static int rdepth;
static size_t rlimit;
static void rec1(void) { recursion(rdepth, rlimit); }

int main(void)
{
	static const struct { int depth; size_t limit; } rc[] = {
		{ 2, 0 }, { 20, 0 }, { 1000, 0 }, { 1000, 262144 },
		{ 100000, 262144 }, { 7, 0 }, { 10, 0 },
	};
	int fd = open("capture.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);
	unsigned int i;

	rep = fdopen(dup(1), "w");
	setvbuf(rep, NULL, _IONBF, 0);
	dup2(fd, 1);
	capfd = open("capture.txt", O_RDONLY);
	run("fifo overflow", fifo_overflow);
	run("two modules", two_modules);
	run("fixed by", fixed_by);
	run("when output appears", when);
	run("stack", stack);
	for (i = 0; i < sizeof(rc) / sizeof(rc[0]); i++) {
		rdepth = rc[i].depth;
		rlimit = rc[i].limit;
		run("recursion", rec1);
	}
	return 0;
}
