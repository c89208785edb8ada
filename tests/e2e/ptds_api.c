// SPDX-License-Identifier: MIT
/*
 * A program built for the per-thread default stream
 * (CUDA_API_PER_THREAD_DEFAULT_STREAM, as nvcc --default-stream
 * per-thread builds): cuda.h maps its calls to the _ptsz and _ptds entry
 * points, where NULL and the synchronous copies mean the calling thread's
 * own default stream. One thread's kernel spins until a kernel another
 * thread queues later sets a flag; with the legacy stream the second
 * would wait for the first forever.
 */
#define CUDA_API_PER_THREAD_DEFAULT_STREAM
#include <pthread.h>
#include <unistd.h>

#include "tap.h"

static const char ptx[] =
	".version 9.0\n.target sm_75\n.address_size 64\n"
	".visible .entry wait_flag(.param .u64 flag, .param .u64 out)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n"
	"\tld.param.u64 %rd1, [flag];\n\tld.param.u64 %rd2, [out];\n"
	"$L__wait:\n\tld.volatile.global.u32 %r1, [%rd1];\n"
	"\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 bra $L__wait;\n"
	"\tadd.u32 %r2, %r1, 1;\n\tst.global.u32 [%rd2], %r2;\n\tret;\n}\n";

static CUcontext ctx;
static CUmodule mod;
static CUdeviceptr dev;

static void *waiter(void *arg)
{
	CUdeviceptr flag = dev, out = dev + 4;
	void *args[] = { &flag, &out };
	unsigned int v = 0;
	CUfunction f;

	(void)arg;
	if (cuCtxSetCurrent(ctx) || cuModuleGetFunction(&f, mod, "wait_flag") ||
	    cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL) ||
	    cuStreamSynchronize(NULL) || cuMemcpyDtoH(&v, out, 4))
		return (void *)1;
	return v == 8 ? NULL : (void *)2;
}

static void threads_have_their_own_default_stream(void)
{
	unsigned int seven = 7, v = 0, i;
	void *res = (void *)3;
	pthread_t t;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&ctx, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dev, 64));
	REQUIRE_RES(CUDA_SUCCESS, cuMemsetD32(dev, 0, 16));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamSynchronize(NULL));
	if (pthread_create(&t, NULL, waiter, NULL)) {
		TAP_FAIL("pthread_create");
		return;
	}
	usleep(50000);
	/* Synchronous calls on this thread's stream are not held up. */
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, dev + 8, 4));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD8(dev + 12, 1, 4));
	/*
	 * A memset of device memory may return before it is done, as on
	 * CUDA; this thread's stream then completes while the other's kernel
	 * still waits for the flag.
	 */
	for (i = 0; i < 200 && cuStreamQuery(NULL) == CUDA_ERROR_NOT_READY; i++)
		usleep(10000);
	CHECK_RES(CUDA_SUCCESS, cuStreamQuery(NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoDAsync(dev, &seven, 4, NULL));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(NULL));
	pthread_join(t, &res);
	CHECK(res == NULL);
	/* CU_STREAM_LEGACY still names the legacy stream. */
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(CU_STREAM_LEGACY));
}

int main(void)
{
	static const struct tap_test tests[] = {
		{ "threads_have_their_own_default_stream",
		  threads_have_their_own_default_stream },
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
