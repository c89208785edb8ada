/*
 * Probe of a failed device assert on an H100 through the driver API:
 * k(1) of h100_assert_k.cu (named drv_k.cu there) over 3 threads, then
 * the codes of the syncs and of the next calls. Not built by the tree:
 * gcc h100_assert_drv.c -lcuda; ./a.out k.ptx k (nvcc -arch=sm_75 -ptx).
 * Its output is the "== drv" sections of h100_assert.log.
 */
#include <stdio.h>
#include <cuda.h>

int main(int argc, char **argv)
{
	CUdevice dev; CUcontext ctx; CUmodule mod; CUfunction f;
	CUresult r; int n = 1; void *args[] = { &n };
	const char *name;

	setvbuf(stdout, NULL, _IONBF, 0);
	cuInit(0); cuDeviceGet(&dev, 0);
	cuCtxCreate(&ctx, NULL, 0, dev);
	r = cuModuleLoad(&mod, argv[1]);
	printf("load %d\n", r);
	r = cuModuleGetFunction(&f, mod, argv[2]);
	printf("getfunc %d\n", r);
	r = cuLaunchKernel(f, 1, 1, 1, 3, 1, 1, 0, 0, args, 0);
	printf("launch %d\n", r);
	r = cuStreamSynchronize(0);
	printf("stream sync %d\n", r);
	r = cuCtxSynchronize();
	cuGetErrorName(r, &name);
	printf("ctx sync %d %s\n", r, name);
	r = cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, 0, args, 0);
	printf("launch after %d\n", r);
	r = cuMemAlloc(&(CUdeviceptr){0}, 16);
	printf("alloc after %d\n", r);
	return 0;
}
