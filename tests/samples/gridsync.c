// SPDX-License-Identifier: MIT
/*
 * Grid-wide synchronization: two kernels whose phases are separated by
 * cooperative groups' grid.sync(), launched as cooperative grids of as
 * many blocks as the device holds at once (the occupancy calculator
 * times the multiprocessors): a prefix sum in three phases through
 * cuLaunchCooperativeKernel, and many steps of a diffusion through
 * cuLaunchKernelEx with the cooperative attribute. Checked against the
 * host's.
 */
#include "sample.h"

static int fail(const char *what, int i, int got, int want)
{
	fprintf(stderr, "%s %d: %d, expected %d\n", what, i, got, want);
	printf("Result = FAIL\n");
	return 1;
}

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "gridsync");
	CUfunction scan = sample_func(mod, "scan");
	CUfunction diffuse = sample_func(mod, "diffuse");
	int n = 100000, threads = 256, steps = 50, per_sm, sms, blocks, i, s;
	size_t bytes = (size_t)n * sizeof(int);
	int *in = malloc(bytes), *out = malloc(bytes), *a = malloc(bytes);
	int *b = malloc(bytes), run = 0;
	CUdeviceptr din, dout, dpart, da, db;
	CUlaunchAttribute attr;
	CUlaunchConfig cfg = { 0 };
	void *scan_args[] = { &din, &dout, &dpart, &n };
	void *diffuse_args[] = { &da, &db, &n, &steps };

	for (i = 0; i < n; i++) {
		in[i] = rand() % 1000 - 500;
		a[i] = rand() % 100000;
	}
	TRY(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, scan, threads, 0));
	TRY(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, 0));
	blocks = per_sm * sms;
	TRY(cuMemAlloc(&din, bytes));
	TRY(cuMemAlloc(&dout, bytes));
	TRY(cuMemAlloc(&dpart, (size_t)blocks * sizeof(int)));
	TRY(cuMemcpyHtoD(din, in, bytes));
	printf("scan: cooperative, %d blocks of %d threads (%d per SM, %d SMs)\n",
	       blocks, threads, per_sm, sms);
	TRY(cuLaunchCooperativeKernel(scan, blocks, 1, 1, threads, 1, 1, 0, NULL,
				      scan_args));
	TRY(cuMemcpyDtoH(out, dout, bytes));
	for (i = 0; i < n; i++) {
		run += in[i];
		if (out[i] != run)
			return fail("prefix sum", i, out[i], run);
	}

	TRY(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, diffuse, threads, 0));
	TRY(cuMemAlloc(&da, bytes));
	TRY(cuMemAlloc(&db, bytes));
	TRY(cuMemcpyHtoD(da, a, bytes));
	memset(&attr, 0, sizeof(attr));
	attr.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
	attr.value.cooperative = 1;
	cfg.gridDimX = per_sm * sms;
	cfg.gridDimY = cfg.gridDimZ = 1;
	cfg.blockDimX = threads;
	cfg.blockDimY = cfg.blockDimZ = 1;
	cfg.attrs = &attr;
	cfg.numAttrs = 1;
	printf("diffuse: cooperative, %d blocks, %d steps\n", per_sm * sms, steps);
	TRY(cuLaunchKernelEx(&cfg, diffuse, diffuse_args, NULL));
	TRY(cuMemcpyDtoH(out, steps % 2 ? db : da, bytes));
	for (s = 0; s < steps; s++) {
		for (i = 0; i < n; i++)
			b[i] = (a[(i + n - 1) % n] + 2 * a[i] + a[(i + 1) % n]) / 4;
		memcpy(a, b, bytes);
	}
	for (i = 0; i < n; i++)
		if (out[i] != a[i])
			return fail("cell", i, out[i], a[i]);

	TRY(cuMemFree(din));
	TRY(cuMemFree(dout));
	TRY(cuMemFree(dpart));
	TRY(cuMemFree(da));
	TRY(cuMemFree(db));
	TRY(cuModuleUnload(mod));
	free(in);
	free(out);
	free(a);
	free(b);
	printf("Result = PASS\n");
	return 0;
}
