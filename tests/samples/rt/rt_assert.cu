// SPDX-License-Identifier: MIT
// Device-side assert() on the runtime API, as an H100 answers it
// (tests/e2e/ref/h100_assert.log): a passing assert changes nothing; a
// failing one prints a line on stderr for each failing thread, "FILE:LINE:
// FUNCTION: block: [x,y,z], thread: [x,y,z] Assertion `COND` failed.",
// printf output before it still comes out, and the next synchronizing
// call answers cudaErrorAssert, sticky in the context.
#include <assert.h>
#include <unistd.h>

#include "rt.h"

__global__ void checked(int *out, int n)
{
	assert(threadIdx.x < n);
	out[threadIdx.x] = threadIdx.x + 1;
}

__global__ void fails(int n)
{
	printf("before assert %u\n", threadIdx.x);
	assert(threadIdx.x < n);
}

// The stderr of @k's run, in @buf.
static void run_capturing_stderr(void (*k)(void), char *buf, size_t len)
{
	FILE *f = tmpfile();
	int saved = dup(2);
	size_t n;

	fflush(stderr);
	dup2(fileno(f), 2);
	k();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = 0;
	fclose(f);
}

static cudaError_t sync_err;

static void launch_fails(void)
{
	fails<<<1, dim3(4, 2, 1)>>>(2);
	sync_err = cudaDeviceSynchronize();
}

int main(void)
{
	int *d, h[32], i;
	char err[4096];

	rt_check_library();
	TRY(cudaSetDevice(0));
	TRY(cudaMalloc((void **)&d, 32 * sizeof(int)));
	checked<<<1, 32>>>(d, 32);
	EXPECT(cudaSuccess, cudaGetLastError());
	EXPECT(cudaSuccess, cudaDeviceSynchronize());
	TRY(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
	for (i = 0; i < 32; i++)
		if (h[i] != i + 1) {
			printf("checked: out[%d] = %d\n", i, h[i]);
			rt_failures++;
			break;
		}

	run_capturing_stderr(launch_fails, err, sizeof(err));
	if (sync_err != cudaErrorAssert) {
		printf("sync: %d, expected cudaErrorAssert\n", (int)sync_err);
		rt_failures++;
	}
	// Threads x 2 and 3 of each row fail, in the H100's order; the file
	// is named as nvcc was given it, a path here.
	const char *at = strstr(err, "rt_assert.cu:22: ");
	int dir = at ? (int)(at - err) : 0;
	char want[4096];
	snprintf(want, sizeof(want),
		 "%.*srt_assert.cu:22: void fails(int): block: [0,0,0], thread: [2,0,0] Assertion `threadIdx.x < n` failed.\n"
		 "%.*srt_assert.cu:22: void fails(int): block: [0,0,0], thread: [3,0,0] Assertion `threadIdx.x < n` failed.\n"
		 "%.*srt_assert.cu:22: void fails(int): block: [0,0,0], thread: [2,1,0] Assertion `threadIdx.x < n` failed.\n"
		 "%.*srt_assert.cu:22: void fails(int): block: [0,0,0], thread: [3,1,0] Assertion `threadIdx.x < n` failed.\n",
		 dir, err, dir, err, dir, err, dir, err);
	if (!at || strchr(err, '\n') < at || strcmp(err, want)) {
		printf("stderr:\n%s", err);
		rt_failures++;
	}
	EXPECT(cudaErrorAssert, cudaDeviceSynchronize());
	EXPECT(cudaErrorAssert, cudaGetLastError());
	EXPECT(cudaSuccess, cudaGetLastError());
	EXPECT(cudaErrorAssert, cudaMalloc((void **)&d, 16));
	printf("failed assert: %s (%s), sticky in the context\n",
	       cudaGetErrorName(cudaPeekAtLastError()),
	       cudaGetErrorString(cudaPeekAtLastError()));
	checked<<<1, 1>>>(d, 1);
	EXPECT(cudaErrorAssert, cudaGetLastError());
	return rt_result();
}
