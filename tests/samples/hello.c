// SPDX-License-Identifier: MIT
/*
 * printf from kernels: 3 blocks of 5 threads each print a line, which
 * comes out at cuCtxSynchronize. The program catches its own standard
 * output to check that every line came exactly once, in any order (as
 * on CUDA), then shows them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cuda.h"

#define TRY(call) do { \
	CUresult _r = (call); \
	if (_r != CUDA_SUCCESS) { \
		fprintf(stderr, "%s failed: %d\n", #call, (int)_r); \
		printf("Result = FAIL\n"); \
		exit(1); \
	} \
} while (0)

enum { BLOCKS = 3, THREADS = 5 };

int main(int argc, char **argv)
{
	const char *ptx = argc > 1 ? argv[1] : PTX_DIR "/hello.ptx";
	FILE *cap = tmpfile();
	int saved = dup(1), seen[BLOCKS][THREADS] = { { 0 } }, b, t, bad = 0;
	float scale = 0.5f;
	void *args[] = { &scale };
	char line[256];
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;

	if (!cap || saved < 0)
		return 1;
	TRY(cuInit(0));
	TRY(cuCtxCreate(&ctx, NULL, 0, 0));
	TRY(cuModuleLoad(&mod, ptx));
	TRY(cuModuleGetFunction(&f, mod, "hello"));
	fflush(stdout);
	dup2(fileno(cap), 1);
	TRY(cuLaunchKernel(f, BLOCKS, 1, 1, THREADS, 1, 1, 0, NULL, args, NULL));
	TRY(cuCtxSynchronize());
	fflush(stdout);
	dup2(saved, 1);
	rewind(cap);
	while (fgets(line, sizeof(line), cap)) {
		char want[256];

		fputs(line, stdout);
		if (sscanf(line, "Hello from block %d, thread %d", &b, &t) != 2 ||
		    b < 0 || b >= BLOCKS || t < 0 || t >= THREADS) {
			bad++;
			continue;
		}
		snprintf(want, sizeof(want), "Hello from block %d, thread %d: %.2f\n",
			 b, t, scale * t);
		bad += strcmp(line, want) != 0;
		seen[b][t]++;
	}
	for (b = 0; b < BLOCKS; b++)
		for (t = 0; t < THREADS; t++)
			bad += seen[b][t] != 1;
	TRY(cuModuleUnload(mod));
	TRY(cuCtxDestroy(ctx));
	printf("Result = %s\n", bad ? "FAIL" : "PASS");
	return bad != 0;
}
