// SPDX-License-Identifier: MIT
/*
 * Lifetimes across threads: a context destroyed while another thread
 * waits on it (NVIDIA leaves that undefined; here the waiter gets
 * CUDA_ERROR_CONTEXT_IS_DESTROYED and nothing crashes), a stream waiting
 * for another context's event without holding up its own context's other
 * threads, the event's context destroyed during that wait, and a module
 * unloaded while another thread prints what the module's kernels wrote.
 *
 * The kernels that keep a context busy spin on a flag in mapped host
 * memory, so each test decides when they end. Freed memory is filled
 * (glibc's malloc.perturb, with its per-thread cache off, set by running
 * the program again), so that a use of something freed shows rather than
 * read stale bytes.
 */
#include <pthread.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

static const char ptx[] =
	".version 9.0\n.target sm_75\n.address_size 64\n"
	".extern .func (.param .b32 func_retval0) vprintf\n"
	"(.param .b64 vprintf_param_0, .param .b64 vprintf_param_1);\n"
	/* "# %s\n": a TAP comment */
	".global .align 1 .b8 $fmt[6] = {35, 32, 37, 115, 10, 0};\n"
	/* printf("# %s\n", s) */
	".visible .entry say(.param .u64 say_s)\n{\n"
	"\t.local .align 8 .b8 __local_depot0[8];\n"
	"\t.reg .b64 %SP;\n\t.reg .b64 %SPL;\n\t.reg .b32 %r<2>;\n"
	"\t.reg .b64 %rd<6>;\n"
	"\tmov.u64 %SPL, __local_depot0;\n\tcvta.local.u64 %SP, %SPL;\n"
	"\tld.param.u64 %rd1, [say_s];\n\tadd.u64 %rd2, %SP, 0;\n"
	"\tst.local.u64 [%SPL], %rd1;\n\tmov.u64 %rd3, $fmt;\n"
	"\tcvta.global.u64 %rd4, %rd3;\n"
	"\t{\n\t.param .b64 param0;\n\tst.param.b64 [param0+0], %rd4;\n"
	"\t.param .b64 param1;\n\tst.param.b64 [param1+0], %rd2;\n"
	"\t.param .b32 retval0;\n"
	"\tcall.uni (retval0), vprintf, (param0, param1);\n"
	"\tld.param.b32 %r1, [retval0+0];\n\t}\n\tret;\n}\n"
	/* while (!*(volatile uint32_t *)p); */
	".visible .entry wait_flag(.param .u64 wait_flag_p)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [wait_flag_p];\n"
	"$L__spin:\n\tld.volatile.global.u32 %r1, [%rd1];\n"
	"\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 bra $L__spin;\n\tret;\n}\n";

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/*
 * A context busy with a kernel that spins until *flag is set: @ctx made
 * current, its stream @s, event @e recorded after the kernel.
 */
struct busy {
	CUcontext ctx;
	CUmodule mod;
	CUstream s;
	CUevent e;
	volatile uint32_t *flag;
};

static void busy_start(struct busy *b, unsigned int ctx_flags)
{
	CUfunction f;
	CUdeviceptr dflag;
	void *args[1] = { &dflag };

	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&b->ctx, NULL, ctx_flags, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&b->mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, b->mod, "wait_flag"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostAlloc((void **)&b->flag, 4,
						 CU_MEMHOSTALLOC_DEVICEMAP));
	*b->flag = 0;
	REQUIRE_RES(CUDA_SUCCESS, cuMemHostGetDevicePointer(&dflag, (void *)b->flag, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&b->s, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&b->e, CU_EVENT_DISABLE_TIMING));
	REQUIRE_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, b->s, args, NULL));
	REQUIRE_RES(CUDA_SUCCESS, cuEventRecord(b->e, b->s));
}

enum how { BY_CTX, BY_STREAM, BY_EVENT };

struct waiter {
	pthread_t t;
	CUcontext ctx;		/* made current in the thread */
	struct busy *b;
	enum how how;
	CUstream other;		/* for WAIT_EVENT: a stream of @ctx */
	volatile int started;
	volatile int done;
	CUresult r;
};

static void *sync_thread(void *arg)
{
	struct waiter *w = arg;

	w->r = cuCtxSetCurrent(w->ctx);
	w->started = 1;
	if (w->r == CUDA_SUCCESS) {
		switch (w->how) {
		case BY_CTX:
			w->r = cuCtxSynchronize();
			break;
		case BY_STREAM:
			w->r = cuStreamSynchronize(w->b->s);
			break;
		case BY_EVENT:
			w->r = cuEventSynchronize(w->b->e);
			break;
		}
	}
	w->done = 1;
	return NULL;
}

/*
 * Another thread waits for the busy context (with scheduling @ctx_flags,
 * in the way @how says); this one destroys the context. The destroy
 * returns at once and the waiter with CUDA_ERROR_CONTEXT_IS_DESTROYED.
 */
static void destroy_while_waiting(unsigned int ctx_flags, enum how how)
{
	struct busy b;
	struct waiter w = { .how = how, .b = &b };
	double t0;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	busy_start(&b, ctx_flags);
	w.ctx = b.ctx;
	REQUIRE_RES(0, pthread_create(&w.t, NULL, sync_thread, &w));
	while (!w.started)
		usleep(1000);
	usleep(300000);		/* asleep in its wait, or spinning */
	CHECK(!w.done);
	t0 = now_s();
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(b.ctx));
	CHECK(now_s() - t0 < 5.0);
	pthread_join(w.t, NULL);
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, w.r);
	/* The process goes on: a new context works. */
	CHECK_RES(CUDA_SUCCESS, cuCtxCreate(&b.ctx, NULL, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(b.ctx));
}

static void destroy_while_ctx_sync_blocks(void)
{
	destroy_while_waiting(CU_CTX_SCHED_BLOCKING_SYNC, BY_CTX);
}

static void destroy_while_ctx_sync_spins(void)
{
	destroy_while_waiting(CU_CTX_SCHED_SPIN, BY_CTX);
}

static void destroy_while_stream_sync(void)
{
	destroy_while_waiting(CU_CTX_SCHED_AUTO, BY_STREAM);
}

static void destroy_while_event_sync(void)
{
	destroy_while_waiting(CU_CTX_SCHED_YIELD, BY_EVENT);
}

static void *wait_event_thread(void *arg)
{
	struct waiter *w = arg;

	w->r = cuCtxSetCurrent(w->ctx);
	w->started = 1;
	if (w->r == CUDA_SUCCESS)
		w->r = cuStreamWaitEvent(w->other, w->b->e, 0);
	w->done = 1;
	return NULL;
}

/* Work of context @ctx in another thread: a fill read back. */
struct worker {
	pthread_t t;
	CUcontext ctx;
	volatile int done;
	CUresult r;
	uint32_t got;
};

static void *work_thread(void *arg)
{
	struct worker *k = arg;
	CUdeviceptr d = 0;

	k->r = cuCtxSetCurrent(k->ctx);
	if (k->r == CUDA_SUCCESS)
		k->r = cuMemAlloc(&d, 4);
	if (k->r == CUDA_SUCCESS)
		k->r = cuMemsetD32(d, 0x5eed, 1);
	if (k->r == CUDA_SUCCESS)
		k->r = cuMemcpyDtoH(&k->got, d, 4);
	if (d)
		cuMemFree(d);
	k->done = 1;
	return NULL;
}

/*
 * A stream of context B waits for an event of busy context A: the wait
 * happens on the host, and B's other threads go on meanwhile; once A's
 * kernel ends the wait returns CUDA_SUCCESS.
 */
static void wait_for_other_context_event(void)
{
	struct busy a;
	struct waiter w = { .how = BY_CTX, .b = &a };
	struct worker k = { 0 };
	CUcontext b;
	double t0;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	busy_start(&a, 0);
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&b, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&w.other, CU_STREAM_NON_BLOCKING));
	w.ctx = b;
	k.ctx = b;
	REQUIRE_RES(0, pthread_create(&w.t, NULL, wait_event_thread, &w));
	while (!w.started)
		usleep(1000);
	usleep(300000);
	CHECK(!w.done);
	REQUIRE_RES(0, pthread_create(&k.t, NULL, work_thread, &k));
	for (t0 = now_s(); !k.done && now_s() - t0 < 10.0;)
		usleep(10000);
	CHECK(k.done);		/* not held up by the wait */
	CHECK(!w.done);
	*a.flag = 1;		/* A's kernel ends, and with it the wait */
	pthread_join(k.t, NULL);
	pthread_join(w.t, NULL);
	CHECK_RES(CUDA_SUCCESS, k.r);
	CHECK(k.got == 0x5eed);
	CHECK_RES(CUDA_SUCCESS, w.r);
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(b));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(a.ctx));
}

/*
 * The event's context is destroyed while a stream of another waits for
 * it: the wait ends with CUDA_ERROR_CONTEXT_IS_DESTROYED and the waiting
 * context is unharmed.
 */
static void destroy_event_context_during_wait(void)
{
	struct busy a;
	struct waiter w = { .how = BY_CTX, .b = &a };
	struct worker k = { 0 };
	CUcontext b;
	double t0;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	busy_start(&a, 0);
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&b, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&w.other, CU_STREAM_NON_BLOCKING));
	w.ctx = b;
	REQUIRE_RES(0, pthread_create(&w.t, NULL, wait_event_thread, &w));
	while (!w.started)
		usleep(1000);
	usleep(300000);
	CHECK(!w.done);
	t0 = now_s();
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(a.ctx));
	CHECK(now_s() - t0 < 5.0);
	pthread_join(w.t, NULL);
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, w.r);
	k.ctx = b;
	work_thread(&k);
	CHECK_RES(CUDA_SUCCESS, k.r);
	CHECK(k.got == 0x5eed);
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(b));
}

struct drainer {
	CUcontext ctx;
	volatile int stop;
	CUresult r;
};

/* Synchronizes again and again: each prints what kernels wrote. */
static void *drain_thread(void *arg)
{
	struct drainer *d = arg;

	d->r = cuCtxSetCurrent(d->ctx);
	while (!d->stop && d->r == CUDA_SUCCESS)
		d->r = cuCtxSynchronize();
	return NULL;
}

/* The lines of @out that are not @want; *@n counts those that are. */
static int count_lines(FILE *out, const char *want, int *n)
{
	char line[256];
	int other = 0;

	*n = 0;
	rewind(out);
	while (fgets(line, sizeof(line), out)) {
		if (!strcmp(line, want))
			++*n;
		else if (other++ < 3)
			printf("# unexpected output: %.60s\n", line);
	}
	return other;
}

/*
 * One thread loads a module, runs its kernel, which prints a string of
 * device memory (each of whose bytes the printing reads from the device,
 * dropping the context's lock), and unloads it, again and again, while
 * another prints what the kernels wrote: a module goes only once the
 * printing that reads it is over, and after it printed what its kernels
 * wrote. Every line comes out once, right.
 */
static void unload_during_printf_drain(void)
{
	static const char text[] = "a string in device memory";
	struct drainer d = { 0 };
	FILE *out = tmpfile();
	int rounds = 0, saved = dup(1), lines, other;
	CUdeviceptr s;
	pthread_t t;
	double t0;

	REQUIRE_RES(1, out && saved >= 0);
	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&d.ctx, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&s, sizeof(text)));
	REQUIRE_RES(CUDA_SUCCESS, cuMemcpyHtoD(s, text, sizeof(text)));
	/* What the kernels print goes to a file, to be read back. */
	fflush(stdout);
	REQUIRE_RES(1, dup2(fileno(out), 1) == 1);
	REQUIRE_RES(0, pthread_create(&t, NULL, drain_thread, &d));
	/* Rounds for 4 s, and two at least (an engine may compile slowly). */
	for (t0 = now_s(); (rounds < 2 || now_s() - t0 < 4.0) && !tap_failed; rounds++) {
		void *args[1] = { &s };
		CUmodule m;
		CUfunction f;

		REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, ptx));
		REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "say"));
		CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 2, 1, 1, 0, NULL,
						       args, NULL));
		CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
	}
	d.stop = 1;
	pthread_join(t, NULL);
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	fflush(stdout);
	dup2(saved, 1);
	CHECK_RES(CUDA_SUCCESS, d.r);
	CHECK(rounds > 1);
	other = count_lines(out, "# a string in device memory\n", &lines);
	printf("# %d rounds, %d lines as printed, %d others\n", rounds, lines,
	       other);
	CHECK(lines == 2 * rounds);
	CHECK(other == 0);
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(d.ctx));
	fclose(out);
}

static const struct tap_test tests[] = {
	TAP_TEST(destroy_while_ctx_sync_blocks),
	TAP_TEST(destroy_while_ctx_sync_spins),
	TAP_TEST(destroy_while_stream_sync),
	TAP_TEST(destroy_while_event_sync),
	TAP_TEST(wait_for_other_context_event),
	TAP_TEST(destroy_event_context_during_wait),
	TAP_TEST(unload_during_printf_drain),
};

int main(int argc, char **argv)
{
	(void)argc;
	/* Freed memory filled, so that a use after free shows. */
	if (!getenv("GLIBC_TUNABLES")) {
		setenv("GLIBC_TUNABLES",
		       "glibc.malloc.perturb=165:glibc.malloc.tcache_count=0", 1);
		execv("/proc/self/exe", argv);
	}
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
