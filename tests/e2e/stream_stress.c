// SPDX-License-Identifier: MIT
/*
 * Stress: 16 threads, each driving 8 streams of one context (blocking and
 * non-blocking, several priorities; 128 streams on 8 channels) with random
 * fills, kernels, copies from pinned and pageable memory, and hand-offs
 * between two streams through events, for a bounded time. Each stream
 * owns a buffer and the test keeps a model of it; every round reads each
 * buffer back and compares.
 */
#include <pthread.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>

#include "tap.h"

#define THREADS 16
#define STREAMS 8
#define WORDS 1024
#define SECONDS 6.0

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
	"$L__out:\n\tret;\n}\n";

static CUcontext ctx;
static CUfunction add_k;
static double deadline;

struct lane {
	CUstream s;
	CUdeviceptr buf;
	uint32_t *pinned_src;	/* a fixed pattern */
	uint32_t *pinned_dst;
	uint32_t model[WORDS];
};

struct worker {
	int id;
	int rounds;
	int bad;
	CUresult err;
	unsigned int seed;
	struct lane lane[STREAMS];
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

#define W_TRY(w, call) do { \
	CUresult _r = (call); \
	if (_r != CUDA_SUCCESS && !(w)->err) { \
		(w)->err = _r; \
		printf("# thread %d: %s: %d\n", (w)->id, #call, (int)_r); \
	} \
} while (0)

static void op(struct worker *w, int i)
{
	struct lane *l = &w->lane[i], *o;
	uint32_t k, v, tmp[WORDS];
	unsigned int n = WORDS, j;
	CUevent e1, e2;
	void *args[3];

	switch (rand_r(&w->seed) % 6) {
	case 0:
		v = rand_r(&w->seed);
		W_TRY(w, cuMemsetD32Async(l->buf, v, WORDS, l->s));
		for (j = 0; j < WORDS; j++)
			l->model[j] = v;
		break;
	case 1:
		k = rand_r(&w->seed) % 1000;
		args[0] = &l->buf;
		args[1] = &k;
		args[2] = &n;
		W_TRY(w, cuLaunchKernel(add_k, WORDS / 256, 1, 1, 256, 1, 1, 0,
					l->s, args, NULL));
		for (j = 0; j < WORDS; j++)
			l->model[j] += k;
		break;
	case 2:
		W_TRY(w, cuMemcpyHtoDAsync(l->buf, l->pinned_src, WORDS * 4, l->s));
		memcpy(l->model, l->pinned_src, sizeof(l->model));
		break;
	case 3:	/* pageable: staged, returns once the data has left tmp */
		v = rand_r(&w->seed);
		for (j = 0; j < WORDS; j++)
			tmp[j] = v ^ j;
		W_TRY(w, cuMemcpyHtoDAsync(l->buf, tmp, WORDS * 4, l->s));
		memcpy(l->model, tmp, sizeof(tmp));
		break;
	case 4: {	/* hand-off: another stream takes a copy of this one */
		o = &w->lane[(i + 1 + rand_r(&w->seed) % (STREAMS - 1)) % STREAMS];
		W_TRY(w, cuEventCreate(&e1, CU_EVENT_DISABLE_TIMING));
		W_TRY(w, cuEventCreate(&e2, CU_EVENT_DISABLE_TIMING));
		W_TRY(w, cuEventRecord(e1, l->s));
		W_TRY(w, cuStreamWaitEvent(o->s, e1, 0));
		W_TRY(w, cuMemcpyDtoDAsync(o->buf, l->buf, WORDS * 4, o->s));
		W_TRY(w, cuEventRecord(e2, o->s));
		W_TRY(w, cuStreamWaitEvent(l->s, e2, 0));
		W_TRY(w, cuEventDestroy(e1));
		W_TRY(w, cuEventDestroy(e2));
		memcpy(o->model, l->model, sizeof(l->model));
		break;
	}
	default:	/* a synchronous read on the legacy stream */
		W_TRY(w, cuStreamSynchronize(l->s));
		W_TRY(w, cuMemcpyDtoH(tmp, l->buf, WORDS * 4));
		if (memcmp(tmp, l->model, sizeof(tmp)))
			w->bad++;
		break;
	}
}

static void check(struct worker *w)
{
	int i;

	for (i = 0; i < STREAMS; i++)
		W_TRY(w, cuMemcpyDtoHAsync(w->lane[i].pinned_dst, w->lane[i].buf,
					   WORDS * 4, w->lane[i].s));
	for (i = 0; i < STREAMS; i++) {
		W_TRY(w, cuStreamSynchronize(w->lane[i].s));
		if (memcmp(w->lane[i].pinned_dst, w->lane[i].model,
			   sizeof(w->lane[i].model)))
			w->bad++;
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int i, j;

	W_TRY(w, cuCtxSetCurrent(ctx));
	for (i = 0; i < STREAMS && !w->err; i++) {
		struct lane *l = &w->lane[i];

		W_TRY(w, cuStreamCreateWithPriority(&l->s, i % 2 ?
						    CU_STREAM_NON_BLOCKING : 0,
						    -(i % 3)));
		W_TRY(w, cuMemAlloc(&l->buf, WORDS * 4));
		W_TRY(w, cuMemAllocHost((void **)&l->pinned_src, WORDS * 4));
		W_TRY(w, cuMemAllocHost((void **)&l->pinned_dst, WORDS * 4));
		if (w->err)
			break;
		for (j = 0; j < WORDS; j++)
			l->pinned_src[j] = (uint32_t)(w->id * 100000 + i * 1000 + j);
		W_TRY(w, cuMemsetD32Async(l->buf, 0, WORDS, l->s));
		memset(l->model, 0, sizeof(l->model));
	}
	while (!w->err && (w->rounds == 0 || now_s() < deadline)) {
		for (j = 0; j < 4 * STREAMS && !w->err; j++)
			op(w, rand_r(&w->seed) % STREAMS);
		check(w);
		w->rounds++;
	}
	for (i = 0; i < STREAMS; i++) {
		W_TRY(w, cuStreamDestroy(w->lane[i].s));
		W_TRY(w, cuMemFree(w->lane[i].buf));
		W_TRY(w, cuMemFreeHost(w->lane[i].pinned_src));
		W_TRY(w, cuMemFreeHost(w->lane[i].pinned_dst));
	}
	return NULL;
}

static void stress(void)
{
	static struct worker w[THREADS];
	pthread_t t[THREADS];
	CUmodule mod;
	int i, rounds = 0;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&add_k, mod, "add_k"));
	deadline = now_s() + SECONDS;
	for (i = 0; i < THREADS; i++) {
		w[i].id = i;
		w[i].seed = 1234u + i;
		if (pthread_create(&t[i], NULL, worker_main, &w[i])) {
			TAP_FAIL("pthread_create");
			return;
		}
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		CHECK(w[i].err == CUDA_SUCCESS);
		CHECK(w[i].bad == 0);
		rounds += w[i].rounds;
	}
	printf("# %d rounds of %d operations on %d streams\n", rounds,
	       4 * STREAMS, THREADS * STREAMS);
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

int main(void)
{
	static const struct tap_test tests[] = {
		{ "16_threads_x_8_streams", stress },
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
