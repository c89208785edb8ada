// SPDX-License-Identifier: MIT
/*
 * Streams, events and host functions through the driver API: order within
 * a stream, none across streams unless asked (cuStreamWaitEvent), the
 * legacy default stream's barrier against blocking streams and not
 * against non-blocking ones, per-thread default streams, events' states
 * and times, callbacks in order with the stream's work, and a fault that
 * ends every stream of the context.
 *
 * "Not ordered" is shown by a kernel that spins until a later kernel of
 * another stream sets a flag: were they ordered, it would spin forever.
 */
#include <pthread.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "tap.h"

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

static const char ptx[] = HEAD
	/* Spins for n rounds, then *p = v. */
	".visible .entry slow_store(.param .u64 p, .param .u32 v, .param .u32 n)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<2>;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r1, [v];\n"
	"\tld.param.u32 %r2, [n];\n"
	"$L__spin:\n\tsetp.eq.u32 %p1, %r2, 0;\n\t@%p1 bra $L__done;\n"
	"\tsub.u32 %r2, %r2, 1;\n\tbra $L__spin;\n"
	"$L__done:\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n"
	/* Waits until *flag != 0, then *out = *flag + 1. */
	".visible .entry wait_flag(.param .u64 flag, .param .u64 out)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
	"\tld.param.u64 %rd1, [flag];\n\tld.param.u64 %rd2, [out];\n"
	"$L__wait:\n\tld.volatile.global.u32 %r1, [%rd1];\n"
	"\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 bra $L__wait;\n"
	"\tadd.u32 %r2, %r1, 1;\n\tst.global.u32 [%rd2], %r2;\n\tret;\n}\n"
	/* *dst = *src + 1. */
	".visible .entry plus_one(.param .u64 src, .param .u64 dst)\n{\n"
	"\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
	"\tld.param.u64 %rd1, [src];\n\tld.param.u64 %rd2, [dst];\n"
	"\tld.global.u32 %r1, [%rd1];\n\tadd.u32 %r2, %r1, 1;\n"
	"\tst.global.u32 [%rd2], %r2;\n\tret;\n}\n"
	".visible .entry traps()\n{\n\ttrap;\n\tret;\n}\n";

static CUmodule mod;
static CUdeviceptr dev;		/* 4 KiB, zeroed */

static void setup(void)
{
	CUcontext c;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dev, 4096));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD8(dev, 0, 4096));
	/* Non-blocking streams do not wait for the NULL stream's fill. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

static CUresult slow_store(CUstream s, CUdeviceptr p, unsigned int v,
			   unsigned int n)
{
	CUfunction f;
	void *args[] = { &p, &v, &n };

	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, "slow_store"));
	return cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, args, NULL);
}

static CUresult two_ptr(const char *name, CUstream s, CUdeviceptr a,
			CUdeviceptr b)
{
	CUfunction f;
	void *args[] = { &a, &b };

	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, name));
	return cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, args, NULL);
}

static unsigned int read_u32(CUdeviceptr p)
{
	unsigned int v = 0xdeadbeef;

	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, p, 4));
	return v;
}

static void create_and_query(void)
{
	CUstream s, n;
	unsigned int flags;
	int prio, least, greatest;
	CUcontext c, got;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuCtxGetCurrent(&c));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamCreate(&s, 2));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamCreate(NULL, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetStreamPriorityRange(&least, &greatest));
	CHECK(least == 0 && greatest == -5);
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreateWithPriority(&s, 0, -100));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetPriority(s, &prio));
	CHECK(prio == -5);
	REQUIRE_RES(CUDA_SUCCESS,
		    cuStreamCreateWithPriority(&n, CU_STREAM_NON_BLOCKING, 7));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetPriority(n, &prio));
	CHECK(prio == 0);
	CHECK_RES(CUDA_SUCCESS, cuStreamGetFlags(n, &flags));
	CHECK(flags == CU_STREAM_NON_BLOCKING);
	CHECK_RES(CUDA_SUCCESS, cuStreamGetFlags(s, &flags));
	CHECK(flags == 0);
	CHECK_RES(CUDA_SUCCESS, cuStreamGetCtx(n, &got));
	CHECK(got == c);
	CHECK_RES(CUDA_SUCCESS, cuStreamGetPriority(NULL, &prio));
	CHECK(prio == 0);
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuStreamQuery(s));
	CHECK_RES(CUDA_SUCCESS, cuStreamQuery(NULL));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(CU_STREAM_PER_THREAD));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(s));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(s));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamQuery(s));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(NULL));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(CU_STREAM_LEGACY));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamDestroy(CU_STREAM_PER_THREAD));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamGetPriority(n, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuStreamCreateWithPriority(&s, 4, -3));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(n));
}

/* A slow store, then a copy of the stored word: in order. */
static void order_within_a_stream(void)
{
	unsigned int *host;
	CUstream s;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocHost((void **)&host, 4096));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	host[0] = 0;
	CHECK_RES(CUDA_SUCCESS, slow_store(s, dev, 41, 20000));
	CHECK_RES(CUDA_SUCCESS, two_ptr("plus_one", s, dev, dev + 4));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoHAsync(host, dev + 4, 4, s));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(host[0] == 42);
	CHECK_RES(CUDA_SUCCESS, cuStreamQuery(s));
}

/* Two created streams are not ordered with each other. */
static void streams_run_at_once(void)
{
	CUstream a, b;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&a, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&b, 0));
	CHECK_RES(CUDA_SUCCESS, two_ptr("wait_flag", a, dev, dev + 4));
	usleep(20000);
	CHECK_RES(CUDA_ERROR_NOT_READY, cuStreamQuery(a));
	CHECK_RES(CUDA_SUCCESS, slow_store(b, dev, 7, 1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(a));
	CHECK(read_u32(dev + 4) == 8);
}

/* cuStreamWaitEvent orders one stream after a point of another. */
static void wait_event_orders_streams(void)
{
	CUstream a, b;
	CUevent e;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
	/* Never recorded: waiting for it waits for nothing. */
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(b, e, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamWaitEvent(b, e, 2));
	CHECK_RES(CUDA_SUCCESS, slow_store(a, dev, 99, 50000));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(e, a));
	/* Work of a after the record is not waited for: it spins until b is done. */
	CHECK_RES(CUDA_SUCCESS, two_ptr("wait_flag", a, dev + 8, dev + 12));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(b, e, 0));
	CHECK_RES(CUDA_SUCCESS, two_ptr("plus_one", b, dev, dev + 4));
	CHECK_RES(CUDA_SUCCESS, slow_store(b, dev + 8, 5, 1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(b));
	CHECK(read_u32(dev + 4) == 100);
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(a));
	CHECK(read_u32(dev + 12) == 6);
	CHECK_RES(CUDA_SUCCESS, cuEventDestroy(e));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamWaitEvent(b, e, 0));
}

/*
 * The legacy stream waits for blocking streams' earlier work, and their
 * later work waits for it; a non-blocking stream is not held.
 */
static void legacy_stream_barrier(void)
{
	CUstream s, nb;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&nb, CU_STREAM_NON_BLOCKING));
	CHECK_RES(CUDA_SUCCESS, slow_store(s, dev, 10, 50000));
	/* The legacy stream is busy while a blocking stream is. */
	CHECK_RES(CUDA_ERROR_NOT_READY, cuStreamQuery(NULL));
	CHECK_RES(CUDA_SUCCESS, cuStreamQuery(nb));
	CHECK_RES(CUDA_SUCCESS, two_ptr("plus_one", NULL, dev, dev + 4));
	CHECK_RES(CUDA_SUCCESS, slow_store(NULL, dev + 16, 20, 50000));
	CHECK_RES(CUDA_SUCCESS, two_ptr("plus_one", s, dev + 16, dev + 20));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(read_u32(dev + 4) == 11);
	CHECK(read_u32(dev + 20) == 21);

	/* nb spins until a legacy-stream kernel queued after it sets the flag. */
	CHECK_RES(CUDA_SUCCESS, two_ptr("wait_flag", nb, dev + 32, dev + 36));
	CHECK_RES(CUDA_SUCCESS, slow_store(CU_STREAM_LEGACY, dev + 32, 3, 1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(nb));
	CHECK(read_u32(dev + 36) == 4);
}

static void *ptds_waiter(void *arg)
{
	CUcontext c = arg;

	if (cuCtxSetCurrent(c) ||
	    two_ptr("wait_flag", CU_STREAM_PER_THREAD, dev + 64, dev + 68) ||
	    cuStreamSynchronize(CU_STREAM_PER_THREAD))
		return (void *)1;
	return NULL;
}

/* Each thread's default stream is its own. */
static void per_thread_streams(void)
{
	pthread_t t;
	CUcontext c;
	void *res = (void *)1;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuCtxGetCurrent(&c));
	if (pthread_create(&t, NULL, ptds_waiter, c)) {
		TAP_FAIL("pthread_create");
		return;
	}
	usleep(50000);
	CHECK_RES(CUDA_SUCCESS, slow_store(CU_STREAM_PER_THREAD, dev + 64, 1, 1));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(CU_STREAM_PER_THREAD));
	pthread_join(t, &res);
	CHECK(res == NULL);
	CHECK(read_u32(dev + 68) == 2);
}

static void events(void)
{
	CUevent a, b, nt;
	CUstream s;
	float ms = -1;

	setup();
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuEventCreate(&a, 8));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuEventCreate(&a, CU_EVENT_INTERPROCESS));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&a, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&b, CU_EVENT_BLOCKING_SYNC));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&nt, CU_EVENT_DISABLE_TIMING));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	/* Never recorded: complete, but no time. */
	CHECK_RES(CUDA_SUCCESS, cuEventQuery(a));
	CHECK_RES(CUDA_SUCCESS, cuEventSynchronize(a));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, a, b));

	CHECK_RES(CUDA_SUCCESS, cuEventRecord(a, s));
	CHECK_RES(CUDA_SUCCESS, two_ptr("wait_flag", s, dev, dev + 4));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(b, s));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(nt, s));
	usleep(20000);
	CHECK_RES(CUDA_ERROR_NOT_READY, cuEventQuery(b));
	CHECK_RES(CUDA_ERROR_NOT_READY, cuEventElapsedTime(&ms, a, b));
	usleep(100000);
	CHECK_RES(CUDA_SUCCESS, slow_store(CU_STREAM_PER_THREAD, dev, 1, 1));
	CHECK_RES(CUDA_SUCCESS, cuEventSynchronize(b));
	CHECK_RES(CUDA_SUCCESS, cuEventQuery(b));
	CHECK_RES(CUDA_SUCCESS, cuEventElapsedTime(&ms, a, b));
	/* The kernel waited at least the 100 ms slept above. */
	CHECK(ms >= 100.0f && ms < 10000.0f);
	CHECK_RES(CUDA_SUCCESS, cuEventElapsedTime(&ms, b, a));
	CHECK(ms <= -100.0f);
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(NULL, a, b));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventElapsedTime(&ms, a, nt));
	CHECK_RES(CUDA_SUCCESS, cuEventSynchronize(nt));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuEventRecordWithFlags(a, s, 4));
	/* External records are for stream capture. */
	CHECK_RES(CUDA_ERROR_ILLEGAL_STATE,
		  cuEventRecordWithFlags(a, s, CU_EVENT_RECORD_EXTERNAL));
	CHECK_RES(CUDA_SUCCESS, cuEventRecordWithFlags(a, NULL, 0));
	CHECK_RES(CUDA_SUCCESS, cuEventSynchronize(a));
	CHECK_RES(CUDA_SUCCESS, cuEventDestroy(a));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuEventQuery(a));
	CHECK_RES(CUDA_SUCCESS, cuEventDestroy(b));
	CHECK_RES(CUDA_SUCCESS, cuEventDestroy(nt));
}

struct cb_log {
	unsigned int order[4];
	unsigned int n;
	unsigned int *pinned;
	CUresult status;
};

static void cb_first(CUstream s, CUresult status, void *arg)
{
	struct cb_log *log = arg;

	(void)s;
	log->status = status;
	/* The slow store before it has completed: the copy after sees 5. */
	usleep(50000);
	log->pinned[0] = 5;
	log->order[log->n++] = 1;
}

static void fn_second(void *arg)
{
	struct cb_log *log = arg;

	log->order[log->n++] = 2;
}

/* Host functions run in order, after earlier work and before later work. */
static void host_functions(void)
{
	struct cb_log log = { { 0 }, 0, NULL, CUDA_ERROR_UNKNOWN };
	CUstream s;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocHost((void **)&log.pinned, 4096));
	log.pinned[0] = 0;
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamAddCallback(s, NULL, &log, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamAddCallback(s, cb_first, &log, 1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLaunchHostFunc(s, NULL, &log));
	CHECK_RES(CUDA_SUCCESS, slow_store(s, dev, 3, 20000));
	CHECK_RES(CUDA_SUCCESS, cuStreamAddCallback(s, cb_first, &log, 0));
	CHECK_RES(CUDA_SUCCESS, cuLaunchHostFunc(s, fn_second, &log));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoDAsync(dev + 4, log.pinned, 4, s));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	CHECK(log.n == 2 && log.order[0] == 1 && log.order[1] == 2);
	CHECK(log.status == CUDA_SUCCESS);
	CHECK(read_u32(dev + 4) == 5);
	/* On the legacy stream too, and cuCtxSynchronize waits for them. */
	CHECK_RES(CUDA_SUCCESS, cuLaunchHostFunc(NULL, fn_second, &log));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(log.n == 3 && log.order[2] == 2);
}

/* Destroying a stream with work queued: the work still completes. */
static void destroy_with_work_pending(void)
{
	CUstream s, t;
	CUevent e;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&t, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&e, 0));
	CHECK_RES(CUDA_SUCCESS, two_ptr("wait_flag", s, dev, dev + 4));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(e, s));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(s));
	CHECK_RES(CUDA_SUCCESS, cuEventDestroy(e));
	CHECK_RES(CUDA_SUCCESS, slow_store(t, dev, 9, 1));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(read_u32(dev + 4) == 10);
}

/* A fault in one stream ends the context: every stream reports it. */
static void fault_ends_every_stream(void)
{
	CUstream a, b;
	CUfunction f;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, "traps"));
	CHECK_RES(CUDA_SUCCESS, two_ptr("wait_flag", b, dev, dev + 4));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, a, NULL,
					       NULL));
	CHECK_RES(CUDA_ERROR_LAUNCH_FAILED, cuStreamSynchronize(b));
	CHECK_RES(CUDA_ERROR_LAUNCH_FAILED, cuStreamQuery(a));
	CHECK_RES(CUDA_ERROR_LAUNCH_FAILED, cuCtxSynchronize());
}

static void count_fn(void *arg)
{
	__atomic_add_fetch((int *)arg, 1, __ATOMIC_SEQ_CST);
}

static void status_cb(CUstream s, CUresult status, void *arg)
{
	(void)s;
	__atomic_store_n((int *)arg, (int)status, __ATOMIC_SEQ_CST);
}

/*
 * After a fault, as an H100 answers: host functions are still taken, a
 * callback is told the error and a host function is not called; creating
 * and destroying streams and events report the error.
 */
static void after_a_fault(void)
{
	int calls = 0, status = -1, i;
	CUstream a, b;
	CUevent e;
	CUfunction f;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&e, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, "traps"));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, a, NULL,
					       NULL));
	CHECK_RES(CUDA_ERROR_LAUNCH_FAILED, cuStreamSynchronize(a));
	CHECK_RES(CUDA_SUCCESS, cuStreamAddCallback(b, status_cb, &status, 0));
	CHECK_RES(CUDA_SUCCESS, cuLaunchHostFunc(b, count_fn, &calls));
	CHECK_RES(CUDA_ERROR_LAUNCH_FAILED, cuEventRecord(e, b));
	CHECK_RES(CUDA_ERROR_LAUNCH_FAILED, cuEventQuery(e));
	CHECK_RES(CUDA_ERROR_LAUNCH_FAILED, cuStreamCreate(&a, 0));
	CHECK_RES(CUDA_ERROR_LAUNCH_FAILED, cuEventDestroy(e));
	CHECK_RES(CUDA_ERROR_LAUNCH_FAILED, cuStreamDestroy(b));
	for (i = 0; i < 100 && __atomic_load_n(&status, __ATOMIC_SEQ_CST) < 0; i++)
		usleep(10000);
	CHECK(__atomic_load_n(&status, __ATOMIC_SEQ_CST) == CUDA_ERROR_LAUNCH_FAILED);
	CHECK(__atomic_load_n(&calls, __ATOMIC_SEQ_CST) == 0);
}

/*
 * CUDA_DEVICE_MAX_CONNECTIONS bounds the channels streams share: with one,
 * two streams' work runs in the order queued (a later kernel of another
 * stream sees what a slow one wrote), and a value out of range means the
 * default, under which they run at once.
 */
static void max_connections(void)
{
	CUstream a, b;

	setenv("CUDA_DEVICE_MAX_CONNECTIONS", "1", 1);
	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&a, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&b, CU_STREAM_NON_BLOCKING));
	CHECK_RES(CUDA_SUCCESS, slow_store(a, dev, 30, 50000));
	CHECK_RES(CUDA_SUCCESS, two_ptr("plus_one", b, dev, dev + 4));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(b));
	CHECK(read_u32(dev + 4) == 31);

	setenv("CUDA_DEVICE_MAX_CONNECTIONS", "0", 1);
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&a, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&b, 0));
	CHECK_RES(CUDA_SUCCESS, two_ptr("wait_flag", a, dev + 8, dev + 12));
	CHECK_RES(CUDA_SUCCESS, slow_store(b, dev + 8, 1, 1));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK(read_u32(dev + 12) == 2);
}

/* CUDA_LAUNCH_BLOCKING=1: a launch returns once the kernel has ended. */
static void launch_blocking(void)
{
	CUfunction f;
	CUstream s;

	setenv("CUDA_LAUNCH_BLOCKING", "1", 1);
	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, CU_STREAM_NON_BLOCKING));
	CHECK_RES(CUDA_SUCCESS, slow_store(s, dev, 12, 20000));
	/* No synchronization: the store is there already. */
	CHECK_RES(CUDA_SUCCESS, cuStreamQuery(s));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, "traps"));
	CHECK_RES(CUDA_ERROR_LAUNCH_FAILED,
		  cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, s, NULL, NULL));
}

/*
 * Priorities reach the engine: each block takes a ticket after a delay; a
 * high-priority launch queued just after a low-priority one gets its
 * blocks handed out first, so most of the low one's tickets come later.
 * Both streams first wait for an event behind a host function that
 * returns only once both launches are queued, so they reach the engine
 * together however late the host queues the second.
 */
static const char ticket_ptx[] = HEAD
	".visible .entry ticket(.param .u64 ctr, .param .u64 out)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<5>;\n"
	"\tmov.u32 %r1, 3000;\n"
	"$L__spin:\n\tsub.u32 %r1, %r1, 1;\n\tsetp.ne.u32 %p1, %r1, 0;\n"
	"\t@%p1 bra $L__spin;\n"
	"\tld.param.u64 %rd1, [ctr];\n\tld.param.u64 %rd2, [out];\n"
	"\tatom.global.add.u32 %r2, [%rd1], 1;\n\tmov.u32 %r3, %ctaid.x;\n"
	"\tmul.wide.u32 %rd3, %r3, 4;\n\tadd.u64 %rd2, %rd2, %rd3;\n"
	"\tst.global.u32 [%rd2], %r2;\n\tret;\n}\n";

static void wait_for_gate(void *arg)
{
	volatile int *open = arg;

	while (!*open)
		usleep(1000);
}

static void priorities_reach_the_engine(void)
{
	static volatile int open;
	CUstream sg;
	CUevent gate;
	unsigned int low[64], high[64], last_high = 0, low_after = 0;
	CUdeviceptr ctr, lo, hi;
	CUstream sl, sh;
	CUmodule m;
	CUfunction f;
	void *largs[] = { &ctr, &lo }, *hargs[] = { &ctr, &hi };
	int i;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, ticket_ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "ticket"));
	ctr = dev;
	lo = dev + 256;
	hi = dev + 1024;
	REQUIRE_RES(CUDA_SUCCESS,
		    cuStreamCreateWithPriority(&sl, CU_STREAM_NON_BLOCKING, 0));
	REQUIRE_RES(CUDA_SUCCESS,
		    cuStreamCreateWithPriority(&sh, CU_STREAM_NON_BLOCKING, -5));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&sg, CU_STREAM_NON_BLOCKING));
	REQUIRE_RES(CUDA_SUCCESS, cuEventCreate(&gate, CU_EVENT_DISABLE_TIMING));
	open = 0;
	REQUIRE_RES(CUDA_SUCCESS, cuLaunchHostFunc(sg, wait_for_gate, (void *)&open));
	REQUIRE_RES(CUDA_SUCCESS, cuEventRecord(gate, sg));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(sl, gate, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitEvent(sh, gate, 0));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 64, 1, 1, 1, 1, 1, 0, sl,
					       largs, NULL));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 64, 1, 1, 1, 1, 1, 0, sh,
					       hargs, NULL));
	open = 1;
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuEventDestroy(gate));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(low, lo, sizeof(low)));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(high, hi, sizeof(high)));
	for (i = 0; i < 64; i++)
		last_high = high[i] > last_high ? high[i] : last_high;
	for (i = 0; i < 64; i++)
		low_after += low[i] > last_high;
	CHECK(low_after >= 16);
}

static double thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void sleep_300ms(void *arg)
{
	(void)arg;
	usleep(300000);
}

/* The CPU time a cuStreamSynchronize of 300 ms takes under @flags. */
static double sync_cpu_ms(unsigned int flags)
{
	CUcontext c;
	CUstream s;
	double t0;

	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, flags, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuLaunchHostFunc(s, sleep_300ms, NULL));
	t0 = thread_cpu_ms();
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s));
	t0 = thread_cpu_ms() - t0;
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	return t0;
}

/*
 * The context's scheduling flag decides how a waiter waits: SPIN keeps
 * the CPU busy until the work is done, BLOCKING_SYNC sleeps, and the
 * default polls only briefly.
 */
static void sched_policies(void)
{
	double spin, block, aut;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	spin = sync_cpu_ms(CU_CTX_SCHED_SPIN);
	block = sync_cpu_ms(CU_CTX_SCHED_BLOCKING_SYNC);
	aut = sync_cpu_ms(CU_CTX_SCHED_AUTO);
	printf("# CPU time of a 300 ms wait: spin %.0f ms, blocking %.0f ms, auto %.0f ms\n",
	       spin, block, aut);
	CHECK(spin > 150);
	CHECK(block < 50);
	CHECK(aut < 50);
}

/*
 * A forked child sharing the context maps and registers its own sync
 * area (its first event); the registration outlives the child, at an
 * address this process has free, where its own sync area, made later,
 * would land first: it must go elsewhere, and work must go on. (The
 * child submits nothing: the channels' positions are each process's.)
 */
static void forked_child_leaves_sync_area(void)
{
	CUdeviceptr d;
	CUevent e;
	CUcontext c;
	uint32_t got[2] = { 0, 0 };
	int status = -1;
	pid_t pid;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 8));
	pid = fork();
	if (pid < 0) {
		TAP_FAIL("fork");
		return;
	}
	if (!pid)
		_exit(cuEventCreate(&e, 0) ? 1 : 0);
	CHECK(waitpid(pid, &status, 0) == pid);
	CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CHECK_RES(CUDA_SUCCESS, cuEventCreate(&e, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(d, 7, 2));
	CHECK_RES(CUDA_SUCCESS, cuEventRecord(e, NULL));
	CHECK_RES(CUDA_SUCCESS, cuEventSynchronize(e));
	CHECK_RES(CUDA_SUCCESS, cuEventDestroy(e));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(got, d, sizeof(got)));
	CHECK(got[0] == 7 && got[1] == 7);
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
}

int main(void)
{
	static const struct tap_test tests[] = {
		{ "create_and_query", create_and_query },
		{ "forked_child_leaves_sync_area", forked_child_leaves_sync_area },
		{ "order_within_a_stream", order_within_a_stream },
		{ "streams_run_at_once", streams_run_at_once },
		{ "wait_event_orders_streams", wait_event_orders_streams },
		{ "legacy_stream_barrier", legacy_stream_barrier },
		{ "per_thread_streams", per_thread_streams },
		{ "events", events },
		{ "host_functions", host_functions },
		{ "destroy_with_work_pending", destroy_with_work_pending },
		{ "fault_ends_every_stream", fault_ends_every_stream },
		{ "after_a_fault", after_a_fault },
		{ "max_connections", max_connections },
		{ "launch_blocking", launch_blocking },
		{ "priorities_reach_the_engine", priorities_reach_the_engine },
		{ "sched_policies", sched_policies },
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
