/*
 * Probe of NVIDIA's stream memory operations (cuStreamWaitValue*,
 * cuStreamWriteValue*, cuStreamBatchMemOp) on a real GPU: return codes
 * of good and bad calls and the semantics of each comparison. Each group
 * runs in a child of its own with a time limit, so that a wait that never
 * completes cannot hang the probe. Output: one "name = value" per line,
 * the code as a number. Not built by the tree: it needs NVIDIA's cuda.h
 * and libcuda. Run on an H100 (driver 580.159.04, CUDA 13.0) as
 *   gcc h100_memops.c -I/usr/local/cuda/include -lcuda -ldl && ./a.out
 * its output is h100_memops.log, which tests/e2e/memops_api.c follows.
 * An earlier run died of SIGSEGV in cuStreamBatchMemOp(s, 1, NULL, 0)
 * (vgpu answers CUDA_ERROR_INVALID_VALUE there) and hung in a wait whose
 * AND mask was 0; both cases were taken out.
 */
#include <cuda.h>
#include <dlfcn.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define R(name, call) printf("%s = %d\n", name, (int)(call))

static CUcontext ctx;
static CUdevice dev;

static void setup(void)
{
	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);
}

static void attrs(void)
{
	static const int a[] = { 92, 93, 94, 98, 122, 123 };
	unsigned int i;
	int v;

	setup();
	for (i = 0; i < sizeof(a) / sizeof(a[0]); i++) {
		CUresult r = cuDeviceGetAttribute(&v, a[i], dev);

		printf("attr %d = rc %d value %d\n", a[i], r, v);
	}
}

/* Good and bad calls that return at once. */
static void args(void)
{
	CUdeviceptr d, hd;
	uint32_t *h, w32;
	uint64_t w64;
	CUstream s;

	setup();
	cuMemAlloc(&d, 4096);
	cuMemsetD8(d, 0, 4096);
	/* The fill is on the legacy stream, which s (non-blocking) does not wait for. */
	cuCtxSynchronize();
	cuMemHostAlloc((void **)&h, 4096, CU_MEMHOSTALLOC_DEVICEMAP);
	cuMemHostGetDevicePointer(&hd, h, 0);
	printf("host ptr equals dptr = %d\n", (uintptr_t)h == hd);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);

	R("write32 dev", cuStreamWriteValue32(s, d, 0x11223344, 0));
	R("write64 dev", cuStreamWriteValue64(s, d + 8, 0x1122334455667788ULL, 0));
	R("write32 nobarrier", cuStreamWriteValue32(s, d + 16, 5, CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER));
	R("write32 flags 2", cuStreamWriteValue32(s, d, 1, 2));
	R("write32 flags 0x40000000", cuStreamWriteValue32(s, d, 1, 0x40000000));
	R("write32 misaligned +1", cuStreamWriteValue32(s, d + 1, 1, 0));
	R("write32 misaligned +2", cuStreamWriteValue32(s, d + 2, 1, 0));
	R("write64 misaligned +4", cuStreamWriteValue64(s, d + 4, 1, 0));
	R("write64 misaligned +1", cuStreamWriteValue64(s, d + 1, 1, 0));
	R("write32 addr 0", cuStreamWriteValue32(s, 0, 1, 0));
	R("write32 null stream", cuStreamWriteValue32(NULL, d + 20, 7, 0));
	R("write32 legacy stream", cuStreamWriteValue32(CU_STREAM_LEGACY, d + 24, 8, 0));
	R("write32 ptds stream", cuStreamWriteValue32(CU_STREAM_PER_THREAD, d + 28, 9, 0));
	R("write32 host mapped", cuStreamWriteValue32(s, hd, 0xabcd, 0));
	R("write64 host mapped", cuStreamWriteValue64(s, hd + 8, 0xabcdef0123ULL, 0));
	R("sync", cuStreamSynchronize(s));
	R("ctx sync", cuCtxSynchronize());
	cuMemcpyDtoH(&w32, d, 4);
	printf("dev word0 = 0x%x\n", w32);
	cuMemcpyDtoH(&w64, d + 8, 8);
	printf("dev word8 = 0x%llx\n", (unsigned long long)w64);
	cuMemcpyDtoH(&w32, d + 20, 4);
	printf("dev word20 = %u\n", w32);
	printf("host word0 = 0x%x host word8 = 0x%llx\n", h[0],
	       (unsigned long long)*(uint64_t *)(h + 2));

	/* Waits already satisfied: word 0 of d is 0x11223344. */
	R("wait32 geq", cuStreamWaitValue32(s, d, 0x11223344, CU_STREAM_WAIT_VALUE_GEQ));
	R("wait32 eq", cuStreamWaitValue32(s, d, 0x11223344, CU_STREAM_WAIT_VALUE_EQ));
	R("wait32 and", cuStreamWaitValue32(s, d, 0x4, CU_STREAM_WAIT_VALUE_AND));
	R("wait32 nor", cuStreamWaitValue32(s, d, 0x80000000, CU_STREAM_WAIT_VALUE_NOR));
	R("wait32 flush", cuStreamWaitValue32(s, d, 1, CU_STREAM_WAIT_VALUE_FLUSH));
	R("write64 nobarrier", cuStreamWriteValue64(s, d + 16, 5, CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER));
	R("wait64 flush", cuStreamWaitValue64(s, d + 8, 1, CU_STREAM_WAIT_VALUE_FLUSH));
	R("wait32 cmp 4", cuStreamWaitValue32(s, d, 1, 4));
	R("wait32 cmp 7", cuStreamWaitValue32(s, d, 1, 7));
	R("wait32 flags 0x100", cuStreamWaitValue32(s, d, 1, 0x100));
	R("wait32 flags 0x80000000", cuStreamWaitValue32(s, d, 1, 0x80000000));
	R("wait32 misaligned +2", cuStreamWaitValue32(s, d + 2, 1, 0));
	R("wait64 misaligned +4", cuStreamWaitValue64(s, d + 4, 1, 0));
	R("wait32 addr 0", cuStreamWaitValue32(s, 0, 1, 0));
	R("wait64 eq", cuStreamWaitValue64(s, d + 8, 0x1122334455667788ULL, CU_STREAM_WAIT_VALUE_EQ));
	R("wait64 nor", cuStreamWaitValue64(s, d + 8, 0x8000000000000000ULL, CU_STREAM_WAIT_VALUE_NOR));
	R("wait32 null stream", cuStreamWaitValue32(NULL, d, 1, 0));
	R("wait32 host mapped", cuStreamWaitValue32(s, hd, 0xabcd, CU_STREAM_WAIT_VALUE_EQ));
	R("sync", cuStreamSynchronize(s));

	/* Batches. */
	{
		CUstreamBatchMemOpParams p[4];
		static CUstreamBatchMemOpParams big[70000];
		unsigned int n, i;
		static const unsigned int counts[] = { 255, 256, 257, 1000, 4096, 65536, 70000 };

		memset(p, 0, sizeof(p));
		p[0].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
		p[0].writeValue.address = d + 32;
		p[0].writeValue.value = 42;
		p[1].memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
		p[2].waitValue.operation = CU_STREAM_MEM_OP_WAIT_VALUE_32;
		p[2].waitValue.address = d + 32;
		p[2].waitValue.value = 42;
		p[2].waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
		p[3].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_64;
		p[3].writeValue.address = d + 40;
		p[3].writeValue.value64 = 0x123456789ULL;
		R("batch 4", cuStreamBatchMemOp(s, 4, p, 0));
		R("sync", cuStreamSynchronize(s));
		cuMemcpyDtoH(&w64, d + 40, 8);
		printf("batch word40 = 0x%llx\n", (unsigned long long)w64);
		R("batch count 0", cuStreamBatchMemOp(s, 0, p, 0));
		R("batch count 0 null", cuStreamBatchMemOp(s, 0, NULL, 0));
		/* cuStreamBatchMemOp(s, 1, NULL, 0) dies of SIGSEGV: not asked. */
		R("batch flags 1", cuStreamBatchMemOp(s, 1, p, 1));
		R("batch null stream", cuStreamBatchMemOp(NULL, 1, p, 0));
		R("batch v1 (unsuffixed sym)", ((CUresult (*)(CUstream, unsigned int, CUstreamBatchMemOpParams *, unsigned int))dlsym(RTLD_DEFAULT, "cuStreamBatchMemOp"))(s, 1, p, 0));
		for (i = 0; i < 4; i++) {
			CUstreamBatchMemOpParams q = p[0];

			q.operation = (CUstreamBatchMemOpType[]){ 0, 7, 100, 3 }[i];
			printf("batch op %d = %d\n", q.operation, cuStreamBatchMemOp(s, 1, &q, 0));
		}
		for (i = 0; i < 4; i++) {
			CUstreamBatchMemOpParams q;

			memset(&q, 0, sizeof(q));
			q.memoryBarrier.operation = CU_STREAM_MEM_OP_BARRIER;
			q.memoryBarrier.flags = i;
			printf("batch barrier flags %u = %d\n", i, cuStreamBatchMemOp(s, 1, &q, 0));
			q.flushRemoteWrites.operation = CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES;
			printf("batch flush flags %u = %d\n", i, cuStreamBatchMemOp(s, 1, &q, 0));
		}
		{
			CUstreamBatchMemOpParams q = p[0];

			q.writeValue.flags = 2;
			R("batch write flags 2", cuStreamBatchMemOp(s, 1, &q, 0));
			q.writeValue.flags = 1;
			R("batch write flags 1", cuStreamBatchMemOp(s, 1, &q, 0));
			q.writeValue.flags = 0;
			q.writeValue.address = d + 34;
			R("batch write misaligned", cuStreamBatchMemOp(s, 1, &q, 0));
			q.writeValue.address = 0;
			R("batch write addr 0", cuStreamBatchMemOp(s, 1, &q, 0));
			q = p[2];
			q.waitValue.flags = 4;
			R("batch wait cmp 4", cuStreamBatchMemOp(s, 1, &q, 0));
			q.waitValue.flags = CU_STREAM_WAIT_VALUE_FLUSH | CU_STREAM_WAIT_VALUE_EQ;
			R("batch wait flush", cuStreamBatchMemOp(s, 1, &q, 0));
			q.waitValue.flags = CU_STREAM_WAIT_VALUE_EQ;
			q.waitValue.alias = 12345;
			R("batch wait alias set", cuStreamBatchMemOp(s, 1, &q, 0));
			/* a bad op after good ones: is anything queued? */
			q = p[0];
			q.writeValue.address = d + 48;
			q.writeValue.value = 99;
			big[0] = q;
			big[1] = p[0];
			big[1].writeValue.flags = 2;
			R("batch good then bad", cuStreamBatchMemOp(s, 2, big, 0));
			R("sync", cuStreamSynchronize(s));
			cuMemcpyDtoH(&w32, d + 48, 4);
			printf("good-then-bad word48 = %u\n", w32);
		}
		for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++) {
			for (n = 0; n < counts[i]; n++) {
				memset(&big[n], 0, sizeof(big[n]));
				big[n].writeValue.operation = CU_STREAM_MEM_OP_WRITE_VALUE_32;
				big[n].writeValue.address = d + 64;
				big[n].writeValue.value = n;
			}
			printf("batch count %u = %d", counts[i], cuStreamBatchMemOp(s, counts[i], big, 0));
			printf(" sync %d\n", cuStreamSynchronize(s));
		}
	}

	/* The unsuffixed (v1) symbols. */
	{
		CUresult (*w32v1)(CUstream, CUdeviceptr, cuuint32_t, unsigned int) =
			(CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned int))dlsym(RTLD_DEFAULT, "cuStreamWriteValue32");
		CUresult (*wa32v1)(CUstream, CUdeviceptr, cuuint32_t, unsigned int) =
			(CUresult (*)(CUstream, CUdeviceptr, cuuint32_t, unsigned int))dlsym(RTLD_DEFAULT, "cuStreamWaitValue32");

		R("v1 write32", w32v1(s, d + 56, 3, 0));
		R("v1 wait32", wa32v1(s, d + 56, 3, CU_STREAM_WAIT_VALUE_EQ));
		R("v1 write32 flags 2", w32v1(s, d + 56, 3, 2));
		R("sync", cuStreamSynchronize(s));
	}
	R("ctx sync", cuCtxSynchronize());
}

static void unmapped(void)
{
	CUstream s;
	void *m = malloc(4096);

	setup();
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	R("write32 unmapped dev addr", cuStreamWriteValue32(s, 0x7000000000ULL, 1, 0));
	R("write32 malloc host addr", cuStreamWriteValue32(s, (CUdeviceptr)(uintptr_t)m, 1, 0));
	R("sync after unmapped", cuStreamSynchronize(s));
}

static void unmapped_wait(void)
{
	CUstream s;

	setup();
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	R("wait32 unmapped dev addr", cuStreamWaitValue32(s, 0x7000000000ULL, 1, 0));
	R("sync after unmapped wait", cuStreamSynchronize(s));
}

static void nocontext(void)
{
	cuInit(0);
	R("write32 no context", cuStreamWriteValue32(NULL, 0x1000, 1, 0));
	R("batch no context", cuStreamBatchMemOp(NULL, 0, NULL, 0));
}

/* Semantics: a wait on host-mapped memory that the CPU releases. */
static void semantics(void)
{
	static const struct {
		const char *name;
		int bits;
		uint64_t cur, val, release;
		unsigned int flags;
	} c[] = {
		{ "geq32 5>=5", 32, 5, 5, 5, CU_STREAM_WAIT_VALUE_GEQ },
		{ "geq32 4>=5", 32, 4, 5, 5, CU_STREAM_WAIT_VALUE_GEQ },
		{ "geq32 0>=0xfffffff0 (wraps)", 32, 0, 0xfffffff0, 0xfffffff0, CU_STREAM_WAIT_VALUE_GEQ },
		{ "geq32 0xfffffff0>=1", 32, 0xfffffff0, 1, 1, CU_STREAM_WAIT_VALUE_GEQ },
		{ "geq32 0x80000000>=0", 32, 0x80000000, 0, 0, CU_STREAM_WAIT_VALUE_GEQ },
		{ "geq32 0x7fffffff>=0", 32, 0x7fffffff, 0, 0, CU_STREAM_WAIT_VALUE_GEQ },
		{ "eq32 8==7", 32, 8, 7, 7, CU_STREAM_WAIT_VALUE_EQ },
		{ "and32 6&1", 32, 6, 1, 1, CU_STREAM_WAIT_VALUE_AND },
		{ "and32 6&2", 32, 6, 2, 2, CU_STREAM_WAIT_VALUE_AND },
		{ "nor32 0xfffffffe|0", 32, 0xfffffffe, 0, 0, CU_STREAM_WAIT_VALUE_NOR },
		{ "nor32 0xffffffff|0", 32, 0xffffffff, 0, 0, CU_STREAM_WAIT_VALUE_NOR },
		{ "nor32 1|0xfffffffe", 32, 1, 0xfffffffe, 0, CU_STREAM_WAIT_VALUE_NOR },
		{ "geq64 0>=~0-15 (wraps)", 64, 0, ~0ULL - 15, ~0ULL - 15, CU_STREAM_WAIT_VALUE_GEQ },
		{ "geq64 1<<63>=0", 64, 1ULL << 63, 0, 0, CU_STREAM_WAIT_VALUE_GEQ },
		{ "geq64 0x100000000>=0xffffffff", 64, 0x100000000ULL, 0xffffffff, 0, CU_STREAM_WAIT_VALUE_GEQ },
		{ "eq64 high word differs", 64, 0x100000007ULL, 7, 7, CU_STREAM_WAIT_VALUE_EQ },
		{ "and64 high bit", 64, 1ULL << 40, 1ULL << 40, 1ULL << 40, CU_STREAM_WAIT_VALUE_AND },
		{ "nor64 0xffffffff|0", 64, 0xffffffff, 0, 0, CU_STREAM_WAIT_VALUE_NOR },
		{ "nor64 ~0|0", 64, ~0ULL, 0, 0, CU_STREAM_WAIT_VALUE_NOR },
	};
	volatile uint64_t *h;
	CUdeviceptr hd;
	unsigned int i;
	CUstream s;

	setup();
	cuMemHostAlloc((void **)&h, 4096, CU_MEMHOSTALLOC_DEVICEMAP);
	cuMemHostGetDevicePointer(&hd, (void *)h, 0);
	cuStreamCreate(&s, CU_STREAM_NON_BLOCKING);
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		CUresult r, q;

		h[i] = c[i].cur;
		__sync_synchronize();
		r = c[i].bits == 32 ?
			cuStreamWaitValue32(s, hd + 8 * i, (uint32_t)c[i].val, c[i].flags) :
			cuStreamWaitValue64(s, hd + 8 * i, c[i].val, c[i].flags);
		usleep(100000);
		q = cuStreamQuery(s);
		h[i] = c[i].release;
		__sync_synchronize();
		printf("%s = rc %d %s\n", c[i].name, r,
		       q == CUDA_SUCCESS ? "passes" :
		       q == CUDA_ERROR_NOT_READY ? "blocks" : "query-error");
		fflush(stdout);
		if (cuStreamSynchronize(s)) {
			printf("  sync failed\n");
			return;
		}
	}
	/* Two streams: s2 waits on device memory, s writes it. */
	{
		CUdeviceptr d;
		CUstream s2;
		CUresult q1, q2;

		cuMemAlloc(&d, 64);
		cuMemsetD8(d, 0, 64);
		cuCtxSynchronize();
		cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING);
		cuStreamWaitValue32(s2, d, 1, CU_STREAM_WAIT_VALUE_GEQ);
		cuStreamWriteValue32(s2, d + 4, 2, 0);
		usleep(100000);
		q1 = cuStreamQuery(s2);
		cuStreamWriteValue32(s, d, 1, 0);
		q2 = cuStreamSynchronize(s2);
		printf("two streams dev = %s then %d\n",
		       q1 == CUDA_ERROR_NOT_READY ? "blocks" : "passes", q2);
	}
}

static void child(const char *name, void (*fn)(void))
{
	int st;
	pid_t p;

	fflush(stdout);
	p = fork();
	if (!p) {
		setvbuf(stdout, NULL, _IOLBF, 0);
		alarm(20);
		printf("## %s\n", name);
		fn();
		fflush(stdout);
		_exit(0);
	}
	waitpid(p, &st, 0);
	if (WIFSIGNALED(st))
		printf("## %s: killed by signal %d\n", name, WTERMSIG(st));
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	child("attributes", attrs);
	child("arguments", args);
	child("unmapped write", unmapped);
	child("unmapped wait", unmapped_wait);
	child("no context", nocontext);
	child("semantics", semantics);
	return 0;
}
