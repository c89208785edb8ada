// SPDX-License-Identifier: MIT
/*
 * The native engine against POCL, an OpenCL implementation for the CPU
 * (Debian's pocl-opencl-icd), on the host: `make bench` runs it after
 * native_bench, and with --vm in the VM, whose names lose "host_" (the C
 * the results are checked against is then built for the VM's CPU, the
 * Makefile's vm/pocl_bench). Prints "NAME: VALUE" lines, ratios within
 * this run:
 *   host_engine_vs_pocl_saxpy   the native engine running saxpy (vgpu ISA,
 *                               bench_kernels.h) / POCL running it written
 *                               in OpenCL C (pocl_kernels.cl), with the
 *                               same grid and work-group size
 *   host_engine_vs_pocl_matmul  the 16 x 16 tiled matrix multiply
 *   host_engine_vs_pocl_reduce  the 256-item tree reduction in local memory
 * One thread each, as the engine's figures against C: POCL's CPU device
 * (Debian 12's POCL 3.1, "pthread") runs work-groups on a worker thread per
 * core unless POCL_MAX_PTHREAD_COUNT caps them, so the bench sets it to 1
 * before its first OpenCL call (the device then has one compute unit and
 * one worker), and refuses to run when the device reports more.
 * POCL is timed warm: the program is built and each kernel run once first;
 * then a time is one enqueue and the clFinish() that waits for it, the best
 * of a few. The engine's times are native_time.c's (the whole grid, best
 * of as many). Both sides' results are checked against the C
 * (native_ref.c). Without a POCL platform, or when a result is wrong, the
 * bench prints why to stderr, no figure for it, and fails.
 */
#define CL_TARGET_OPENCL_VERSION 120

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native.h"
#include "bench/bench_host.h"
#include "bench/native_ref.h"
#include "bench/native_time.h"

#define REPS 5

/* POCL's platform name, by which it is told from other installed ICDs. */
#define POCL_PLATFORM "Portable Computing Language"

static const char kernels_cl[] =
#include "pocl_kernels.h"
	;

struct ocl {
	cl_device_id dev;
	cl_context ctx;
	cl_command_queue q;
	cl_program prog;
};

static void ok(cl_int err, const char *what)
{
	if (err != CL_SUCCESS) {
		fprintf(stderr, "pocl_bench: %s: OpenCL error %d\n", what, err);
		exit(1);
	}
}

/* POCL's CPU device: a context, a queue and the built kernels on it. */
static void ocl_open(struct ocl *o)
{
	cl_platform_id plats[16];
	cl_uint nplat = 0, i, units;
	char name[128];
	cl_int err;

	err = clGetPlatformIDs(16, plats, &nplat);
	if (err == CL_PLATFORM_NOT_FOUND_KHR || (err == CL_SUCCESS && !nplat)) {
		fprintf(stderr, "pocl_bench: no OpenCL platform found (POCL comes with "
			"Debian's pocl-opencl-icd; make install-deps installs it)\n");
		exit(1);
	}
	ok(err, "clGetPlatformIDs");
	for (i = 0; i < nplat && i < 16; i++) {
		ok(clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof(name), name, NULL),
		   "clGetPlatformInfo");
		if (!strcmp(name, POCL_PLATFORM))
			break;
	}
	if (i == nplat || i == 16) {
		fprintf(stderr, "pocl_bench: no POCL among the %u OpenCL platforms found\n",
			nplat);
		exit(1);
	}
	err = clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_CPU, 1, &o->dev, NULL);
	if (err == CL_DEVICE_NOT_FOUND) {
		fprintf(stderr, "pocl_bench: POCL has no CPU device\n");
		exit(1);
	}
	ok(err, "clGetDeviceIDs");
	ok(clGetDeviceInfo(o->dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof(units), &units, NULL),
	   "clGetDeviceInfo");
	if (units != 1) {
		fprintf(stderr, "pocl_bench: POCL's CPU device has %u compute units with "
			"POCL_MAX_PTHREAD_COUNT=1; the comparison is one thread each\n", units);
		exit(1);
	}
	o->ctx = clCreateContext(NULL, 1, &o->dev, NULL, NULL, &err);
	ok(err, "clCreateContext");
	o->q = clCreateCommandQueue(o->ctx, o->dev, 0, &err);
	ok(err, "clCreateCommandQueue");

	{
		const char *src = kernels_cl;
		char log[4096] = "";

		o->prog = clCreateProgramWithSource(o->ctx, 1, &src, NULL, &err);
		ok(err, "clCreateProgramWithSource");
		err = clBuildProgram(o->prog, 1, &o->dev, "", NULL, NULL);
		if (err != CL_SUCCESS) {
			clGetProgramBuildInfo(o->prog, o->dev, CL_PROGRAM_BUILD_LOG,
					      sizeof(log) - 1, log, NULL);
			fprintf(stderr, "pocl_bench: the kernels did not build:\n%s\n", log);
			exit(1);
		}
	}
}

static void ocl_close(struct ocl *o)
{
	clReleaseProgram(o->prog);
	clReleaseCommandQueue(o->q);
	clReleaseContext(o->ctx);
}

static cl_mem buffer(struct ocl *o, cl_mem_flags flags, size_t bytes, const void *from)
{
	cl_int err;
	cl_mem m = clCreateBuffer(o->ctx, flags | (from ? CL_MEM_COPY_HOST_PTR : 0), bytes,
				  (void *)from, &err);

	ok(err, "clCreateBuffer");
	return m;
}

static cl_kernel kernel(struct ocl *o, const char *name, unsigned int nargs,
			const size_t *sizes, const void *const *args)
{
	cl_int err;
	cl_kernel k = clCreateKernel(o->prog, name, &err);
	unsigned int i;

	ok(err, "clCreateKernel");
	for (i = 0; i < nargs; i++)
		ok(clSetKernelArg(k, i, sizes[i], args[i]), "clSetKernelArg");
	return k;
}

/*
 * @k over @global items in groups of @local: the best of REPS launches after
 * one untimed, each an enqueue and the clFinish() that waits for it;
 * seconds. @reset, when set, is refilled from @from (@bytes) before each.
 */
static double time_pocl(struct ocl *o, cl_kernel k, cl_uint dims, const size_t *global,
			const size_t *local, cl_mem reset, const void *from, size_t bytes)
{
	double t, best = 1e9;
	unsigned int r;

	for (r = 0; r <= REPS; r++) {
		if (reset)
			ok(clEnqueueWriteBuffer(o->q, reset, CL_TRUE, 0, bytes, from, 0, NULL,
						NULL), "clEnqueueWriteBuffer");
		t = now();
		ok(clEnqueueNDRangeKernel(o->q, k, dims, NULL, global, local, 0, NULL, NULL),
		   "clEnqueueNDRangeKernel");
		ok(clFinish(o->q), "clFinish");
		t = now() - t;
		if (r && t < best)
			best = t;
	}
	return best;
}

static void read_back(struct ocl *o, cl_mem m, void *to, size_t bytes)
{
	ok(clEnqueueReadBuffer(o->q, m, CL_TRUE, 0, bytes, to, 0, NULL, NULL),
	   "clEnqueueReadBuffer");
}

/* @got against the C's @want; a wrong result ends the bench. */
static void check(const char *who, const char *what, const float *got, const float *want,
		  unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (fabsf(got[i] - want[i]) > 1e-3f * (fabsf(want[i]) + 1)) {
			fprintf(stderr, "pocl_bench: %s's %s: [%u] is %g, the C's %g\n", who,
				what, i, got[i], want[i]);
			exit(1);
		}
}

int main(int argc, char **argv)
{
	enum { SN = 1 << 20, MN = 128, RB = 4096 };
	float *x = malloc(SN * 4), *y = malloc(SN * 4), *ys = malloc(SN * 4);
	float *yc = malloc(SN * 4);
	float *a = malloc(MN * MN * 4), *b = malloc(MN * MN * 4);
	float *c = malloc(MN * MN * 4), *cs = malloc(MN * MN * 4);
	float *rin = malloc(RB * 256 * 4), *rout = malloc(RB * 4), *routs = malloc(RB * 4);
	float *bufs[] = { x, y, ys, yc, a, b, c, cs, rin, rout, routs };
	const unsigned int nbufs = sizeof(bufs) / sizeof(bufs[0]);
	double t_eng, t_pocl;
	struct ocl o;
	unsigned int i;
	char why[160];
	bool vm = argc > 1 && !strcmp(argv[1], "--vm");
	const char *pfx = vm ? "" : "host_";

	if (argc > 2 || (argc == 2 && !vm)) {
		fprintf(stderr, "usage: %s [--vm]\n", argv[0]);
		return 2;
	}
	/* The engine's compiles stay out of any cache (native_bench's rule). */
	setenv("CUDA_CACHE_DISABLE", "1", 1);
	for (i = 0; i < nbufs; i++)
		if (!bufs[i]) {
			fprintf(stderr, "pocl_bench: out of memory\n");
			return 1;
		}
	/* POCL reads it when its first call sets the device up */
	if (setenv("POCL_MAX_PTHREAD_COUNT", "1", 1)) {
		perror("pocl_bench: setenv");
		return 1;
	}
	ocl_open(&o);
	if (vgpu_native_init(why, sizeof(why))) {
		fprintf(stderr, "native engine: %s\n", why);
		return 1;
	}
	bench_inputs(x, y, SN, a, b, MN, rin, RB);

	{
		const float alpha = 2.0f;
		const cl_uint n = SN;
		cl_mem bx = buffer(&o, CL_MEM_READ_ONLY, SN * 4, x);
		cl_mem by = buffer(&o, CL_MEM_READ_WRITE, SN * 4, y);
		const size_t sizes[4] = { sizeof(cl_mem), sizeof(cl_mem), sizeof(alpha),
					  sizeof(n) };
		const void *args[4] = { &bx, &by, &alpha, &n };
		cl_kernel k = kernel(&o, "saxpy", 4, sizes, args);
		size_t global = SN, local = 256;

		memcpy(yc, y, SN * 4);
		ref_saxpy(alpha, x, yc, SN);
		t_eng = native_time_saxpy(alpha, x, y, ys, SN, REPS);
		check("the engine", "saxpy", ys, yc, SN);
		t_pocl = time_pocl(&o, k, 1, &global, &local, by, y, SN * 4);
		read_back(&o, by, ys, SN * 4);
		check("POCL", "saxpy", ys, yc, SN);
		printf("%sengine_vs_pocl_saxpy: %.2f\n", pfx, t_eng / t_pocl);
		clReleaseKernel(k);
		clReleaseMemObject(bx);
		clReleaseMemObject(by);
	}

	{
		const cl_uint n = MN;
		cl_mem ba = buffer(&o, CL_MEM_READ_ONLY, MN * MN * 4, a);
		cl_mem bb = buffer(&o, CL_MEM_READ_ONLY, MN * MN * 4, b);
		cl_mem bc = buffer(&o, CL_MEM_WRITE_ONLY, MN * MN * 4, NULL);
		const size_t sizes[4] = { sizeof(cl_mem), sizeof(cl_mem), sizeof(cl_mem),
					  sizeof(n) };
		const void *args[4] = { &ba, &bb, &bc, &n };
		cl_kernel k = kernel(&o, "matmul", 4, sizes, args);
		size_t global[2] = { MN, MN }, local[2] = { 16, 16 };

		ref_matmul(a, b, c, MN);
		t_eng = native_time_matmul(a, b, cs, MN, REPS, NULL, 1);
		check("the engine", "matmul", cs, c, MN * MN);
		t_pocl = time_pocl(&o, k, 2, global, local, NULL, NULL, 0);
		read_back(&o, bc, cs, MN * MN * 4);
		check("POCL", "matmul", cs, c, MN * MN);
		printf("%sengine_vs_pocl_matmul: %.2f\n", pfx, t_eng / t_pocl);
		clReleaseKernel(k);
		clReleaseMemObject(ba);
		clReleaseMemObject(bb);
		clReleaseMemObject(bc);
	}

	{
		cl_mem bin = buffer(&o, CL_MEM_READ_ONLY, RB * 256 * 4, rin);
		cl_mem bout = buffer(&o, CL_MEM_WRITE_ONLY, RB * 4, NULL);
		const size_t sizes[2] = { sizeof(cl_mem), sizeof(cl_mem) };
		const void *args[2] = { &bin, &bout };
		cl_kernel k = kernel(&o, "reduce", 2, sizes, args);
		size_t global = RB * 256, local = 256;

		ref_reduce(rin, rout, RB);
		t_eng = native_time_reduce(rin, routs, RB, REPS);
		check("the engine", "reduce", routs, rout, RB);
		t_pocl = time_pocl(&o, k, 1, &global, &local, NULL, NULL, 0);
		read_back(&o, bout, routs, RB * 4);
		check("POCL", "reduce", routs, rout, RB);
		printf("%sengine_vs_pocl_reduce: %.2f\n", pfx, t_eng / t_pocl);
		clReleaseKernel(k);
		clReleaseMemObject(bin);
		clReleaseMemObject(bout);
	}

	ocl_close(&o);
	for (i = 0; i < nbufs; i++)
		free(bufs[i]);
	return 0;
}
