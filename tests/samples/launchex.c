// SPDX-License-Identifier: MIT
/*
 * cuLaunchKernelEx with attributes: saxpy launched on a high-priority
 * non-blocking stream with a launch completion event, which a second
 * stream waits for before a cooperative grid-stride kernel sized by the
 * occupancy calculator doubles the result; checked against the host's.
 */
#include "sample.h"

int main(int argc, char **argv)
{
	const char *ptx = argc > 1 ? argv[1] : PTX_DIR "/launchex.ptx";
	int n = 100000, threads = 256, blocks = (n + threads - 1) / threads;
	int least, greatest, per_sm, sms, i;
	size_t bytes = (size_t)n * sizeof(float);
	float *x = malloc(bytes), *y = malloc(bytes), *out = malloc(bytes);
	float a = 3.0f;
	CUdeviceptr dx, dy;
	CUstream first, second;
	CUlaunchAttribute attrs[3];
	CUlaunchConfig cfg = { 0 };
	CUevent done;
	CUcontext ctx;
	CUmodule mod;
	CUfunction saxpy, twice;
	CUdevice dev;
	void *saxpy_args[] = { &a, &dx, &dy, &n };
	void *twice_args[] = { &dy, &n };

	for (i = 0; i < n; i++) {
		x[i] = (float)rand() / (float)RAND_MAX;
		y[i] = (float)rand() / (float)RAND_MAX;
	}
	TRY(cuInit(0));
	TRY(cuDeviceGet(&dev, 0));
	TRY(cuCtxCreate(&ctx, NULL, 0, dev));
	TRY(cuModuleLoad(&mod, ptx));
	TRY(cuModuleGetFunction(&saxpy, mod, "saxpy"));
	TRY(cuModuleGetFunction(&twice, mod, "twice"));
	TRY(cuMemAlloc(&dx, bytes));
	TRY(cuMemAlloc(&dy, bytes));
	TRY(cuMemcpyHtoD(dx, x, bytes));
	TRY(cuMemcpyHtoD(dy, y, bytes));
	/* The streams below are non-blocking: let the copies land first. */
	TRY(cuCtxSynchronize());
	TRY(cuCtxGetStreamPriorityRange(&least, &greatest));
	TRY(cuStreamCreateWithPriority(&first, CU_STREAM_NON_BLOCKING, least));
	TRY(cuStreamCreate(&second, CU_STREAM_NON_BLOCKING));
	TRY(cuEventCreate(&done, CU_EVENT_DISABLE_TIMING));

	/* saxpy at the greatest priority, whatever its stream's. */
	memset(attrs, 0, sizeof(attrs));
	attrs[0].id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
	attrs[0].value.priority = greatest;
	attrs[1].id = CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT;
	attrs[1].value.launchCompletionEvent.event = done;
	attrs[1].value.launchCompletionEvent.flags = 0;
	attrs[2].id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
	attrs[2].value.programmaticStreamSerializationAllowed = 1;
	cfg.gridDimX = blocks;
	cfg.gridDimY = cfg.gridDimZ = 1;
	cfg.blockDimX = threads;
	cfg.blockDimY = cfg.blockDimZ = 1;
	cfg.hStream = first;
	cfg.attrs = attrs;
	cfg.numAttrs = 3;
	printf("saxpy: %d blocks of %d threads at priority %d\n", blocks,
	       threads, greatest);
	TRY(cuLaunchKernelEx(&cfg, saxpy, saxpy_args, NULL));
	/* The launch completion event completes once saxpy's blocks ran. */
	TRY(cuStreamWaitEvent(second, done, 0));
	TRY(cuStreamSynchronize(first));

	/* A cooperative grid: no more blocks than fit on the device at once. */
	TRY(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, twice, threads, 0));
	TRY(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
	memset(attrs, 0, sizeof(attrs));
	attrs[0].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
	attrs[0].value.cooperative = 1;
	cfg.gridDimX = per_sm * sms;
	cfg.hStream = second;
	cfg.numAttrs = 1;
	printf("twice: cooperative, %d blocks (%d per SM, %d SMs)\n",
	       per_sm * sms, per_sm, sms);
	TRY(cuLaunchKernelEx(&cfg, twice, twice_args, NULL));
	cfg.gridDimX++;
	if (cuLaunchKernelEx(&cfg, twice, twice_args, NULL) !=
	    CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE) {
		fprintf(stderr, "a grid past co-residency was launched\n");
		printf("Result = FAIL\n");
		return 1;
	}
	TRY(cuStreamSynchronize(second));
	TRY(cuMemcpyDtoH(out, dy, bytes));
	for (i = 0; i < n; i++) {
		/* nvcc contracts a * x + y into one fma. */
		float want = 2.0f * fmaf(a, x[i], y[i]);

		if (out[i] != want) {
			fprintf(stderr, "element %d: %g, expected %g\n", i,
				(double)out[i], (double)want);
			printf("Result = FAIL\n");
			return 1;
		}
	}
	TRY(cuEventDestroy(done));
	TRY(cuStreamDestroy(first));
	TRY(cuStreamDestroy(second));
	TRY(cuMemFree(dx));
	TRY(cuMemFree(dy));
	TRY(cuModuleUnload(mod));
	TRY(cuCtxDestroy(ctx));
	free(x);
	free(y);
	free(out);
	printf("Result = PASS\n");
	return 0;
}
