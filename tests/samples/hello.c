// SPDX-License-Identifier: MIT
/*
 * printf from kernels: 3 blocks of 5 threads each print a line, which
 * comes out at cuCtxSynchronize. The program catches its own standard
 * output to check that every line came exactly once, in any order (as
 * on CUDA), then shows them.
 */
#include <unistd.h>

#include "sample.h"

enum { BLOCKS = 3, THREADS = 5 };

static char lines[BLOCKS * THREADS * 2][256];
static int nlines;

static int by_text(const void *a, const void *b)
{
	return strcmp(a, b);
}

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
		if (nlines < BLOCKS * THREADS * 2)
			snprintf(lines[nlines++], sizeof(lines[0]), "%s", line);
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
	/* The lines in sorted order, to compare with the H100's. */
	{
		static char all[BLOCKS * THREADS * 64];
		size_t len = 0;

		qsort(lines, nlines, sizeof(lines[0]), by_text);
		for (b = 0; b < nlines; b++)
			len += (size_t)snprintf(all + len, sizeof(all) - len, "%s",
						lines[b]);
		bad += sample_output("hello", "lines", all, len, 0);
	}
	TRY(cuModuleUnload(mod));
	TRY(cuCtxDestroy(ctx));
	printf("Result = %s\n", bad ? "FAIL" : "PASS");
	return bad != 0;
}
