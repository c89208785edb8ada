// SPDX-License-Identifier: MIT
/*
 * A program that loads the driver as a language binding does: not linked
 * against libcuda, it dlopen()s "libcuda.so.1" (vgpu's, through this
 * program's rpath; dladdr says which file was loaded), resolves every
 * entry point of its table (the toolkit stub's symbols, listed at build
 * time in build/gen/cuda_symbols.h) with dlsym, resolves the calls it makes
 * through cuGetProcAddress_v2 as well, checking each against the symbol of
 * its CUDA 13 version, and runs vectorAdd through those pointers alone.
 */
#include <dlfcn.h>
#include <limits.h>

#include "sample.h"

/* Every driver entry point this program knows, by name. */
static const char *const entry_points[] = {
#include "cuda_symbols.h"
};

/* The calls vectorAdd makes: the name asked for and the symbol expected. */
static __typeof__(cuInit) *p_cuInit;
static __typeof__(cuDeviceGet) *p_cuDeviceGet;
static __typeof__(cuCtxCreate_v4) *p_cuCtxCreate;
static __typeof__(cuModuleLoad) *p_cuModuleLoad;
static __typeof__(cuModuleGetFunction) *p_cuModuleGetFunction;
static __typeof__(cuMemAlloc_v2) *p_cuMemAlloc;
static __typeof__(cuMemcpyHtoD_v2) *p_cuMemcpyHtoD;
static __typeof__(cuLaunchKernel) *p_cuLaunchKernel;
static __typeof__(cuMemcpyDtoH_v2) *p_cuMemcpyDtoH;
static __typeof__(cuMemFree_v2) *p_cuMemFree;
static __typeof__(cuModuleUnload) *p_cuModuleUnload;
static __typeof__(cuCtxDestroy_v2) *p_cuCtxDestroy;

static const struct {
	const char *name, *symbol;
	void **pfn;
} calls[] = {
	{ "cuInit", "cuInit", (void **)&p_cuInit },
	{ "cuDeviceGet", "cuDeviceGet", (void **)&p_cuDeviceGet },
	{ "cuCtxCreate", "cuCtxCreate_v4", (void **)&p_cuCtxCreate },
	{ "cuModuleLoad", "cuModuleLoad", (void **)&p_cuModuleLoad },
	{ "cuModuleGetFunction", "cuModuleGetFunction", (void **)&p_cuModuleGetFunction },
	{ "cuMemAlloc", "cuMemAlloc_v2", (void **)&p_cuMemAlloc },
	{ "cuMemcpyHtoD", "cuMemcpyHtoD_v2", (void **)&p_cuMemcpyHtoD },
	{ "cuLaunchKernel", "cuLaunchKernel", (void **)&p_cuLaunchKernel },
	{ "cuMemcpyDtoH", "cuMemcpyDtoH_v2", (void **)&p_cuMemcpyDtoH },
	{ "cuMemFree", "cuMemFree_v2", (void **)&p_cuMemFree },
	{ "cuModuleUnload", "cuModuleUnload", (void **)&p_cuModuleUnload },
	{ "cuCtxDestroy", "cuCtxDestroy_v2", (void **)&p_cuCtxDestroy },
};

/* Opens libcuda.so.1 and checks that it is vgpu's; NULL if not. */
static void *open_driver(void)
{
	char got[PATH_MAX], want[PATH_MAX];
	Dl_info info;
	void *lib, *sym;

	if (dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD)) {
		printf("libcuda.so.1 is loaded before dlopen: linked against it\n");
		return NULL;
	}
	lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		printf("dlopen(libcuda.so.1): %s\n", dlerror());
		return NULL;
	}
	sym = dlsym(lib, "cuInit");
	if (!sym || !dladdr(sym, &info) || !info.dli_fname ||
	    !realpath(info.dli_fname, got) ||
	    !realpath(VGPU_LIB_DIR "/libvgpu.so.1", want)) {
		printf("cannot tell which file libcuda.so.1 is\n");
		return NULL;
	}
	printf("libcuda.so.1 loaded from %s (%s)\n", info.dli_fname, got);
	if (strcmp(got, want)) {
		printf("not vgpu's %s\n", want);
		return NULL;
	}
	return lib;
}

/* dlsym()s every entry point; returns how many are missing. */
static int resolve_all(void *lib)
{
	size_t i, n = sizeof(entry_points) / sizeof(entry_points[0]);
	int missing = 0;

	for (i = 0; i < n; i++)
		if (!dlsym(lib, entry_points[i])) {
			printf("missing entry point %s\n", entry_points[i]);
			missing++;
		}
	printf("%zu entry points resolved with dlsym, %d missing\n",
	       n - missing, missing);
	return missing;
}

/*
 * Resolves the calls through cuGetProcAddress_v2 (CUDA 13.0, default
 * flags); returns how many differ from the symbol expected.
 */
static int resolve_calls(void *lib)
{
	__typeof__(cuGetProcAddress_v2) *get_proc = dlsym(lib, "cuGetProcAddress_v2");
	CUdriverProcAddressQueryResult status;
	size_t i;
	int bad = 0;

	if (!get_proc) {
		printf("no cuGetProcAddress_v2\n");
		return 1;
	}
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		void *want = dlsym(lib, calls[i].symbol);
		CUresult r;

		*calls[i].pfn = NULL;
		status = -1;
		r = get_proc(calls[i].name, calls[i].pfn, 13000,
			     CU_GET_PROC_ADDRESS_DEFAULT, &status);
		if (r != CUDA_SUCCESS || status != CU_GET_PROC_ADDRESS_SUCCESS ||
		    !want || *calls[i].pfn != want) {
			printf("cuGetProcAddress_v2(%s): %d, status %d, %p; %s is %p\n",
			       calls[i].name, (int)r, (int)status, *calls[i].pfn,
			       calls[i].symbol, want);
			bad++;
		}
	}
	printf("%zu calls resolved through cuGetProcAddress_v2 to their "
	       "CUDA 13 symbols, %d wrong\n", i - bad, bad);
	return bad;
}

static int vector_add(const char *ptx)
{
	int n = 50000, threads = 256, blocks = (n + threads - 1) / threads, i;
	size_t bytes = (size_t)n * sizeof(float);
	float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
	CUdeviceptr da, db, dc;
	CUcontext ctx;
	CUmodule mod;
	CUfunction f;
	CUdevice dev;
	void *args[] = { &da, &db, &dc, &n };
	int bad = 0;

	for (i = 0; i < n; i++) {
		a[i] = (float)rand() / (float)RAND_MAX;
		b[i] = (float)rand() / (float)RAND_MAX;
	}
	TRY(p_cuInit(0));
	TRY(p_cuDeviceGet(&dev, 0));
	TRY(p_cuCtxCreate(&ctx, NULL, 0, dev));
	TRY(p_cuModuleLoad(&mod, ptx));
	TRY(p_cuModuleGetFunction(&f, mod, "vectorAdd"));
	TRY(p_cuMemAlloc(&da, bytes));
	TRY(p_cuMemAlloc(&db, bytes));
	TRY(p_cuMemAlloc(&dc, bytes));
	TRY(p_cuMemcpyHtoD(da, a, bytes));
	TRY(p_cuMemcpyHtoD(db, b, bytes));
	printf("CUDA kernel launch with %d blocks of %d threads\n", blocks, threads);
	TRY(p_cuLaunchKernel(f, blocks, 1, 1, threads, 1, 1, 0, NULL, args, NULL));
	TRY(p_cuMemcpyDtoH(c, dc, bytes));
	for (i = 0; i < n && !bad; i++)
		if (c[i] != a[i] + b[i]) {
			fprintf(stderr, "element %d: %g, expected %g\n", i,
				(double)c[i], (double)(a[i] + b[i]));
			bad = 1;
		}
	bad += sample_output("vectoradd", "c", c, bytes, 0);
	TRY(p_cuMemFree(da));
	TRY(p_cuMemFree(db));
	TRY(p_cuMemFree(dc));
	TRY(p_cuModuleUnload(mod));
	TRY(p_cuCtxDestroy(ctx));
	free(a);
	free(b);
	free(c);
	return bad;
}

int main(int argc, char **argv)
{
	const char *ptx = argc > 1 ? argv[1] : PTX_DIR "/vectoradd.ptx";
	void *lib = open_driver();

	if (!lib || resolve_all(lib) || resolve_calls(lib))
		return sample_result(1);
	return sample_result(vector_add(ptx));
}
