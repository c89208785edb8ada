// SPDX-License-Identifier: MIT
/*
 * Libraries, kernels and the module and function queries (issue 14):
 * cuLibrary*, cuKernel*, a CUkernel launched and queried as a CUfunction,
 * cuModuleGetFunctionCount/EnumerateFunctions/GetLoadingMode and
 * cuFuncGetModule/Name/ParamInfo/IsLoaded/Load. The codes marked "H100"
 * are those tests/e2e/ref/h100_library.log shows for the same call (the
 * probe h100_library.c next to it); where the H100 crashed or read freed
 * memory (a NULL it does not check, a handle unloaded) vgpu's answer is
 * checked instead, and the rest follow NVIDIA's documentation. Needs two
 * devices (num_devices=2) for the per-device kernel settings.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

#define HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

/* The probe's module: add writes counter * scale + i + s[1] to out[i]. */
static const char ptx[] = HEAD
	".global .align 4 .u32 counter = 5;\n"
	".const .align 4 .u32 scale = 3;\n"
	".global .align 8 .b8 table[24];\n"
	".visible .entry add(.param .u64 out, .param .u32 n, .param .u8 b,"
	" .param .align 8 .b8 s[12], .param .f64 d)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<10>;\n\t.reg .b64 %rd<5>;\n"
	"\tld.param.u64 %rd1, [out];\n\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r7, %tid.x;\n\tmov.u32 %r8, %ctaid.x;\n\tmov.u32 %r9, %ntid.x;\n"
	"\tmad.lo.u32 %r2, %r8, %r9, %r7;\n"
	"\tsetp.ge.u32 %p1, %r2, %r1;\n\t@%p1 bra DONE;\n"
	"\tld.global.u32 %r3, [counter];\n\tld.const.u32 %r4, [scale];\n"
	"\tld.param.u32 %r5, [s+4];\n"
	"\tmad.lo.u32 %r6, %r3, %r4, %r2;\n\tadd.u32 %r6, %r6, %r5;\n"
	"\tcvta.to.global.u64 %rd2, %rd1;\n\tmul.wide.u32 %rd3, %r2, 4;\n"
	"\tadd.s64 %rd4, %rd2, %rd3;\n\tst.global.u32 [%rd4], %r6;\n"
	"DONE:\n\tret;\n}\n"
	".visible .entry seven(.param .u64 p)\n{\n"
	"\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<2>;\n"
	"\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, 7;\n"
	"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n"
	".visible .entry none()\n{\n\tret;\n}\n";

static const char ptx_bad[] = HEAD ".visible .entry k(\n{\n\tret;\n}\n";

static CUresult load(CUlibrary *lib, const void *image)
{
	return cuLibraryLoadData(lib, image, NULL, NULL, 0, NULL, NULL, 0);
}

static CUlibrary setup_lib(void)
{
	CUlibrary lib;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, load(&lib, ptx));
	return lib;
}

static CUkernel kernel(CUlibrary lib, const char *name)
{
	CUkernel k;

	REQUIRE_RES(CUDA_SUCCESS, cuLibraryGetKernel(&k, lib, name));
	return k;
}

/* Launches add through @f over 40 elements: out[i] = 5 * 3 + i + 100. */
static void check_add(CUfunction f)
{
	uint32_t n = 40, out[40], s[3] = { 0, 100, 0 }, i;
	uint8_t b = 1;
	double d = 2.5;
	CUdeviceptr dp;
	void *args[] = { &dp, &n, &b, s, &d };

	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dp, sizeof(out)));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(dp, 0, 40));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, NULL,
					       args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(out, dp, sizeof(out)));
	for (i = 0; i < 40; i++)
		if (out[i] != 115 + i) {
			TAP_FAIL("out[%u] = %u, expected %u", i, out[i], 115 + i);
			break;
		}
	CHECK_RES(CUDA_SUCCESS, cuMemFree(dp));
}

/* H100: 3 for loads and modes, 400 and 1 for handles checked first. */
static void calls_before_init(void)
{
	CUmoduleLoadingMode m;
	CUlibrary lib;
	const char *name;
	unsigned int n;

	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, load(&lib, ptx));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuModuleGetLoadingMode(&m));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLibraryGetKernelCount(&n, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuKernelGetName(&name, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncGetName(&name, NULL));
}

/* H100: LAZY (2) by default and for an unknown value. */
static void loading_mode(void)
{
	CUmoduleLoadingMode m = 0;

	setenv("CUDA_MODULE_LOADING", "bogus", 1);
	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_SUCCESS, cuModuleGetLoadingMode(&m));
	CHECK(m == CU_MODULE_LAZY_LOADING);
	/* The H100 crashes. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuModuleGetLoadingMode(NULL));
}

/* H100: a library loads with no context; NULLs are 1; bad images load lazily. */
static void load_arguments(void)
{
	CUlibraryOption lo[1] = { CU_LIBRARY_BINARY_IS_PRESERVED };
	void *lv[1] = { (void *)1 };
	char errlog[256] = "";
	CUjit_option jo[2] = { CU_JIT_ERROR_LOG_BUFFER,
			       CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *jv[2] = { errlog, (void *)(uintptr_t)sizeof(errlog) };
	CUlibrary lib;
	unsigned int n;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, load(NULL, ptx));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, load(&lib, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuLibraryLoadData(&lib, ptx, NULL, NULL, 1, NULL, NULL, 0));
	/* The H100 crashes. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 1));
	lo[0] = (CUlibraryOption)99;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, lo, lv, 1));
	lo[0] = CU_LIBRARY_BINARY_IS_PRESERVED;
	REQUIRE_RES(CUDA_SUCCESS,
		    cuLibraryLoadData(&lib, ptx, NULL, NULL, 0, lo, lv, 1));
	CHECK_RES(CUDA_SUCCESS, cuLibraryUnload(lib));
	/* Lazy: the load succeeds, the JIT's log is written, use fails. */
	REQUIRE_RES(CUDA_SUCCESS, load(&lib, "garbage"));
	CHECK_RES(CUDA_ERROR_INVALID_IMAGE, cuLibraryGetKernelCount(&n, lib));
	CHECK_RES(CUDA_SUCCESS, cuLibraryUnload(lib));
	REQUIRE_RES(CUDA_SUCCESS, cuLibraryLoadData(&lib, ptx_bad, jo, jv, 2,
						    NULL, NULL, 0));
	CHECK(errlog[0] != 0);
	CHECK_RES(CUDA_ERROR_INVALID_PTX, cuLibraryGetKernelCount(&n, lib));
	CHECK_RES(CUDA_SUCCESS, cuLibraryUnload(lib));
}

/* H100: EAGER (1) when asked. A bad image fails at load then. */
static void eager_load_fails_at_once(void)
{
	CUmoduleLoadingMode m = 0;
	CUlibrary lib;

	setenv("CUDA_MODULE_LOADING", "EAGER", 1);
	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_SUCCESS, cuModuleGetLoadingMode(&m));
	CHECK(m == CU_MODULE_EAGER_LOADING);
	CHECK_RES(CUDA_ERROR_INVALID_PTX, load(&lib, ptx_bad));
	CHECK_RES(CUDA_ERROR_INVALID_IMAGE, load(&lib, "garbage"));
}

static void load_from_file(void)
{
	char path[] = "/tmp/vgpu-library-XXXXXX";
	unsigned int n = 0;
	CUlibrary lib;
	int fd;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	fd = mkstemp(path);
	REQUIRE_RES(1, fd >= 0);
	REQUIRE_RES(1, write(fd, ptx, strlen(ptx)) == (ssize_t)strlen(ptx));
	close(fd);
	CHECK_RES(CUDA_ERROR_FILE_NOT_FOUND,
		  cuLibraryLoadFromFile(&lib, "/nonexistent", NULL, NULL, 0,
					NULL, NULL, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuLibraryLoadFromFile(&lib, NULL, NULL, NULL, 0, NULL, NULL, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuLibraryLoadFromFile(NULL, path, NULL, NULL, 0, NULL, NULL, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuLibraryLoadFromFile(&lib, path, NULL, NULL,
							0, NULL, NULL, 0));
	CHECK_RES(CUDA_SUCCESS, cuLibraryGetKernelCount(&n, lib));
	CHECK(n == 3);
	CHECK_RES(CUDA_SUCCESS, cuLibraryUnload(lib));
	unlink(path);
}

/* Count, enumeration in the image's order, lookup by name, no context. */
static void kernels_of_a_library(void)
{
	CUlibrary lib = setup_lib(), l2;
	CUkernel ks[5], k, k2;
	const char *name;
	unsigned int n = 0;

	CHECK_RES(CUDA_SUCCESS, cuLibraryGetKernelCount(&n, lib));
	CHECK(n == 3);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLibraryGetKernelCount(NULL, lib));
	memset(ks, 0, sizeof(ks));
	CHECK_RES(CUDA_SUCCESS, cuLibraryEnumerateKernels(ks, 5, lib));
	CHECK(ks[3] == NULL);
	k = kernel(lib, "add");
	CHECK(ks[0] == k);
	CHECK_RES(CUDA_SUCCESS, cuLibraryGetKernel(&k2, lib, "add"));
	CHECK(k2 == k);
	CHECK_RES(CUDA_SUCCESS, cuKernelGetName(&name, ks[1]));
	CHECK(!strcmp(name, "seven"));
	CHECK_RES(CUDA_SUCCESS, cuKernelGetName(&name, ks[2]));
	CHECK(!strcmp(name, "none"));
	memset(ks, 0, sizeof(ks));
	CHECK_RES(CUDA_SUCCESS, cuLibraryEnumerateKernels(ks, 1, lib));
	CHECK(ks[0] == k && ks[1] == NULL);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLibraryEnumerateKernels(NULL, 3, lib));
	/* h100_library.log: "cuLibraryEnumerateKernels(ks,0,lib) -> 0". */
	CHECK_RES(CUDA_SUCCESS, cuLibraryEnumerateKernels(ks, 0, lib));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLibraryEnumerateKernels(ks, 3, NULL));
	CHECK_RES(CUDA_ERROR_NOT_FOUND, cuLibraryGetKernel(&k2, lib, "nope"));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLibraryGetKernel(&k2, lib, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLibraryGetKernel(NULL, lib, "add"));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLibraryGetKernel(&k2, NULL, "add"));
	CHECK_RES(CUDA_SUCCESS, cuKernelGetName(&name, k));
	CHECK(!strcmp(name, "add"));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuKernelGetName(NULL, k));
	/* H100: a pointer that is no kernel is 400. */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuKernelGetName(&name, (CUkernel)&n));
	CHECK_RES(CUDA_SUCCESS, cuKernelGetLibrary(&l2, k));
	CHECK(l2 == lib);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuKernelGetLibrary(NULL, k));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuKernelGetLibrary(&l2, NULL));
	CHECK_RES(CUDA_SUCCESS, cuLibraryUnload(lib));
}

/* add(u64 out, u32 n, u8 b, .align 8 b8 s[12], f64 d): its layout. */
static void param_info(void)
{
	static const size_t want[5][2] = { { 0, 8 }, { 8, 4 }, { 12, 1 },
					   { 16, 12 }, { 32, 8 } };
	CUlibrary lib = setup_lib();
	CUkernel k = kernel(lib, "add"), kn = kernel(lib, "none");
	CUfunction f;
	CUcontext c;
	size_t i, off, size;

	/* H100: without a context, 201; NULL arguments first, 1. */
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuKernelGetParamInfo(k, 0, &off, &size));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuKernelGetParamInfo(k, 1, &off, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuKernelGetParamInfo(k, 1, NULL, &size));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuKernelGetParamInfo(NULL, 0, &off, &size));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	for (i = 0; i < 5; i++) {
		off = size = 777;
		CHECK_RES(CUDA_SUCCESS, cuKernelGetParamInfo(k, i, &off, &size));
		CHECK(off == want[i][0] && size == want[i][1]);
	}
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuKernelGetParamInfo(k, 5, &off, &size));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuKernelGetParamInfo(kn, 0, &off, &size));
	off = 0;
	CHECK_RES(CUDA_SUCCESS, cuKernelGetParamInfo(k, 1, &off, NULL));
	CHECK(off == 8);
	REQUIRE_RES(CUDA_SUCCESS, cuKernelGetFunction(&f, k));
	for (i = 0; i < 5; i++) {
		off = size = 777;
		CHECK_RES(CUDA_SUCCESS, cuFuncGetParamInfo(f, i, &off, &size));
		CHECK(off == want[i][0] && size == want[i][1]);
		/* H100: a CUkernel is no CUfunction to the cuFunc* calls. */
		off = size = 777;
		CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
			  cuFuncGetParamInfo((CUfunction)k, i, &off, &size));
		CHECK(off == 777 && size == 777);
	}
	/* H100: out of range or a NULL offset 1, a NULL size allowed. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncGetParamInfo(f, 5, &off, &size));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncGetParamInfo(f, 1, NULL, &size));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuFuncGetParamInfo((CUfunction)k, 1, NULL, &size));
	off = 0;
	CHECK_RES(CUDA_SUCCESS, cuFuncGetParamInfo(f, 1, &off, NULL));
	CHECK(off == 8);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncGetParamInfo(NULL, 0, &off, &size));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
}

/* A kernel's function: one per context, loaded on first use. */
static void kernel_functions_per_context(void)
{
	CUlibrary lib = setup_lib();
	CUkernel k = kernel(lib, "add");
	CUfunction f, f2, fb, fnone, fs[4];
	CUfunctionLoadingState st;
	CUmodule m, m2;
	CUcontext a, b;
	const char *name, *kn;
	unsigned int n;

	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuKernelGetFunction(&f, k));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuLibraryGetModule(&m, lib));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&a, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuKernelGetFunction(&f, k));
	REQUIRE_RES(CUDA_SUCCESS, cuKernelGetFunction(&fnone, kernel(lib, "none")));
	CHECK((void *)f != (void *)k);
	CHECK_RES(CUDA_SUCCESS, cuKernelGetFunction(&f2, k));
	CHECK(f2 == f);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuKernelGetFunction(NULL, k));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuKernelGetFunction(&f2, NULL));
	/* H100: LOADED, in both modes. */
	st = 9;
	CHECK_RES(CUDA_SUCCESS, cuFuncIsLoaded(&st, f));
	CHECK(st == CU_FUNCTION_LOADING_STATE_LOADED);
	CHECK_RES(CUDA_SUCCESS, cuFuncGetName(&name, f));
	CHECK_RES(CUDA_SUCCESS, cuKernelGetName(&kn, k));
	CHECK(!strcmp(name, "add") && !strcmp(kn, "add"));
	/*
	 * The H100 gave different handles for the two (its own detail); both
	 * are the library's module here.
	 */
	CHECK_RES(CUDA_SUCCESS, cuFuncGetModule(&m, f));
	CHECK_RES(CUDA_SUCCESS, cuLibraryGetModule(&m2, lib));
	CHECK_RES(CUDA_SUCCESS, cuModuleGetFunction(&f2, m2, "add"));
	CHECK(f2 == f);
	CHECK_RES(CUDA_SUCCESS, cuModuleGetFunctionCount(&n, m2));
	CHECK(n == 3);
	CHECK_RES(CUDA_SUCCESS, cuModuleEnumerateFunctions(fs, 3, m2));
	CHECK(fs[0] == f);
	/* H100: a library's module is unloaded with the library only. */
	CHECK_RES(CUDA_ERROR_NOT_PERMITTED, cuModuleUnload(m));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLibraryGetModule(NULL, lib));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLibraryGetModule(&m2, NULL));
	/* Another context: another function, another module. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&b, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuKernelGetFunction(&fb, k));
	CHECK(fb != f);
	CHECK_RES(CUDA_SUCCESS, cuFuncGetModule(&m2, fb));
	CHECK(m2 != m);
	check_add((CUfunction)k);
	check_add(fb);
	/* A's function, launched in B (vgpu's answer, as for any module). */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuLaunchKernel(fnone, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(b));
	/* H100: a function of a destroyed context is 400. */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuFuncGetName(&name, fb));
	CHECK_RES(CUDA_SUCCESS, cuCtxSetCurrent(a));
	check_add(f);
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(a));
	/* H100: a new context gets the kernel anew. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&a, NULL, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuKernelGetFunction(&f2, k));
	check_add((CUfunction)k);
	CHECK_RES(CUDA_SUCCESS, cuLibraryUnload(lib));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(a));
}

/*
 * A CUkernel as a CUfunction: an H100 launches it as the current
 * context's function, and answers 400 to the cuFunc* calls.
 */
static void kernel_as_function(void)
{
	CUlibrary lib = setup_lib();
	CUkernel k = kernel(lib, "add");
	CUfunctionLoadingState st = 9;
	CUfunction f;
	CUmodule m;
	CUcontext c;
	const char *name;
	int v = -7;

	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuFuncGetName(&name, (CUfunction)k));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuKernelGetFunction(&f, k));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuFuncGetName(&name, (CUfunction)k));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuFuncGetModule(&m, (CUfunction)k));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuFuncIsLoaded(&st, (CUfunction)k));
	CHECK(st == 9);
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuFuncLoad((CUfunction)k));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, (CUfunction)k));
	CHECK(v == -7);
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuFuncSetAttribute((CUfunction)k,
				     CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 3000));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuFuncSetCacheConfig((CUfunction)k, CU_FUNC_CACHE_PREFER_L1));
	/* H100: a NULL function is 1 to cuFuncGetModule, as to GetName. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncGetModule(&m, NULL));
	CHECK_RES(CUDA_SUCCESS, cuFuncGetModule(&m, f));
	check_add((CUfunction)k);
	CHECK_RES(CUDA_SUCCESS, cuLibraryUnload(lib));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
}

/* Per device, without a context; functions of that device take them. */
static void kernel_attributes(void)
{
	CUlibrary lib = setup_lib();
	CUkernel k = kernel(lib, "add");
	CUfunction f;
	CUcontext c;
	int v = -7, w = -7, count = 0, at;

	CHECK_RES(CUDA_SUCCESS, cuDeviceGetCount(&count));
	for (at = 0; at < CU_FUNC_ATTRIBUTE_MAX; at++)
		CHECK_RES(CUDA_SUCCESS, cuKernelGetAttribute(&v, at, k, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuKernelGetAttribute(&v, 99, k, 0));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE,
		  cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, k, 99));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuKernelGetAttribute(NULL, CU_FUNC_ATTRIBUTE_NUM_REGS, k, 0));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, NULL, 0));
	CHECK_RES(CUDA_SUCCESS,
		  cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k, 0));
	CHECK(v == 49152);
	CHECK_RES(CUDA_SUCCESS,
		  cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 60000, k, 0));
	CHECK_RES(CUDA_SUCCESS,
		  cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k, 0));
	CHECK(v == 60000);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 300000, k, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS, 8, k, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuKernelSetAttribute(99, 0, k, 0));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE,
		  cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1000, k, 99));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1000, NULL, 0));
	CHECK_RES(CUDA_SUCCESS,
		  cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50, k, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 101, k, 0));
	CHECK_RES(CUDA_SUCCESS, cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_SHARED, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuKernelSetCacheConfig(k, 9, 0));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_L1, 99));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuKernelSetCacheConfig(NULL, CU_FUNC_CACHE_PREFER_L1, 0));
	/* A function made later takes the device's settings. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuKernelGetFunction(&f, k));
	CHECK_RES(CUDA_SUCCESS,
		  cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
	CHECK(v == 60000);
	CHECK_RES(CUDA_SUCCESS,
		  cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, f));
	CHECK(v == 50);
	/* And one that exists, a later setting. */
	CHECK_RES(CUDA_SUCCESS,
		  cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1000, k, 0));
	CHECK_RES(CUDA_SUCCESS,
		  cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
	CHECK(v == 1000);
	/* Device 1's are its own. */
	if (count > 1) {
		CHECK_RES(CUDA_SUCCESS,
			  cuKernelGetAttribute(&w, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k, 1));
		CHECK(w == 49152);
	}
	CHECK_RES(CUDA_SUCCESS, cuLibraryUnload(lib));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
}

static void globals(void)
{
	CUlibrary lib = setup_lib();
	CUdeviceptr p = 0, p2 = 0;
	CUmodule m;
	CUcontext a, b;
	size_t sz = 0;
	uint32_t v = 0;
	void *fp;

	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT,
		  cuLibraryGetGlobal(&p, &sz, lib, "counter"));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&a, NULL, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuLibraryGetGlobal(&p, &sz, lib, "counter"));
	CHECK(sz == 4 && p);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, p, 4));
	CHECK(v == 5);
	CHECK_RES(CUDA_SUCCESS, cuLibraryGetModule(&m, lib));
	CHECK_RES(CUDA_SUCCESS, cuModuleGetGlobal(&p2, NULL, m, "counter"));
	CHECK(p2 == p);
	CHECK_RES(CUDA_SUCCESS, cuLibraryGetGlobal(&p2, &sz, lib, "scale"));
	CHECK(sz == 4);
	CHECK_RES(CUDA_SUCCESS, cuLibraryGetGlobal(&p2, &sz, lib, "table"));
	CHECK(sz == 24);
	CHECK_RES(CUDA_ERROR_NOT_FOUND, cuLibraryGetGlobal(&p2, &sz, lib, "nope"));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLibraryGetGlobal(&p2, &sz, lib, NULL));
	CHECK_RES(CUDA_SUCCESS, cuLibraryGetGlobal(NULL, NULL, lib, "counter"));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuLibraryGetGlobal(&p2, &sz, NULL, "counter"));
	/* counter is no managed variable; a PTX library has no unified functions. */
	CHECK_RES(CUDA_ERROR_NOT_FOUND, cuLibraryGetManaged(&p2, &sz, lib, "counter"));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLibraryGetManaged(&p2, &sz, lib, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuLibraryGetManaged(&p2, &sz, NULL, "counter"));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLibraryGetUnifiedFunction(&fp, lib, "add"));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLibraryGetUnifiedFunction(NULL, lib, "add"));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLibraryGetUnifiedFunction(&fp, lib, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuLibraryGetUnifiedFunction(&fp, NULL, "add"));
	/* Each context has the library's variables of its own. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&b, NULL, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuLibraryGetGlobal(&p2, &sz, lib, "counter"));
	v = 0;
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, p2, 4));
	CHECK(v == 5);
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(b));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(a));
	CHECK_RES(CUDA_SUCCESS, cuLibraryUnload(lib));
}

/* EAGER loads into the open contexts at once; LAZY on first use. */
static void eager_loads_into_open_contexts(void)
{
	CUlibrary lib;
	CUkernel k;
	CUcontext c;

	setenv("CUDA_MODULE_LOADING", "EAGER", 1);
	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, load(&lib, ptx));
	k = kernel(lib, "add");
	check_add((CUfunction)k);
	CHECK_RES(CUDA_SUCCESS, cuLibraryUnload(lib));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
}

/* A module's functions, in the order of the image. */
static void module_functions(void)
{
	CUfunctionLoadingState st;
	CUfunction fs[5], g;
	const char *name;
	CUmodule mod, m;
	CUcontext c;
	unsigned int n = 0;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	CHECK_RES(CUDA_SUCCESS, cuModuleGetFunctionCount(&n, mod));
	CHECK(n == 3);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuModuleGetFunctionCount(NULL, mod));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuModuleGetFunctionCount(&n, NULL));
	memset(fs, 0, sizeof(fs));
	CHECK_RES(CUDA_SUCCESS, cuModuleEnumerateFunctions(fs, 5, mod));
	CHECK(fs[3] == NULL);
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&g, mod, "seven"));
	CHECK(fs[1] == g);
	CHECK_RES(CUDA_SUCCESS, cuFuncGetName(&name, fs[2]));
	CHECK(!strcmp(name, "none"));
	memset(fs, 0, sizeof(fs));
	CHECK_RES(CUDA_SUCCESS, cuModuleEnumerateFunctions(fs, 1, mod));
	CHECK(fs[0] && fs[1] == NULL);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuModuleEnumerateFunctions(NULL, 3, mod));
	/* h100_library.log: "cuModuleEnumerateFunctions(fs,0,mod) -> 0". */
	CHECK_RES(CUDA_SUCCESS, cuModuleEnumerateFunctions(fs, 0, mod));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuModuleEnumerateFunctions(fs, 3, NULL));
	st = 9;
	CHECK_RES(CUDA_SUCCESS, cuFuncIsLoaded(&st, g));
	CHECK(st == CU_FUNCTION_LOADING_STATE_LOADED);
	CHECK_RES(CUDA_SUCCESS, cuFuncLoad(g));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncIsLoaded(NULL, g));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuFuncIsLoaded(&st, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuFuncLoad(NULL));
	CHECK_RES(CUDA_SUCCESS, cuFuncGetModule(&m, g));
	CHECK(m == mod);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncGetModule(NULL, g));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncGetModule(&m, NULL));	/* H100 */
	CHECK_RES(CUDA_SUCCESS, cuFuncGetName(&name, g));
	CHECK(!strcmp(name, "seven"));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuFuncGetName(NULL, g));
	/* H100: an unloaded module's, and its functions', are 400. */
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(mod));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuModuleGetFunctionCount(&n, mod));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuFuncGetName(&name, g));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
}

/* H100: 400 for a function of an unloaded library; vgpu for the rest. */
static void unloaded_library(void)
{
	CUlibrary lib = setup_lib();
	CUkernel k = kernel(lib, "add");
	const char *name;
	unsigned int n;
	CUfunction f;
	CUcontext c;
	int v;

	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuKernelGetFunction(&f, k));
	CHECK_RES(CUDA_SUCCESS, cuLibraryUnload(lib));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuFuncGetName(&name, f));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
	/* The H100 crashes or reads freed memory for these. */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLibraryUnload(lib));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLibraryUnload(NULL));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuKernelGetName(&name, k));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuKernelGetFunction(&f, k));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLibraryGetKernelCount(&n, lib));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLibraryGetKernel(&k, lib, "add"));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, k, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
}

static const struct tap_test tests[] = {
	TAP_TEST(calls_before_init),
	TAP_TEST(loading_mode),
	TAP_TEST(load_arguments),
	TAP_TEST(eager_load_fails_at_once),
	TAP_TEST(load_from_file),
	TAP_TEST(kernels_of_a_library),
	TAP_TEST(param_info),
	TAP_TEST(kernel_functions_per_context),
	TAP_TEST(kernel_as_function),
	TAP_TEST(kernel_attributes),
	TAP_TEST(globals),
	TAP_TEST(eager_loads_into_open_contexts),
	TAP_TEST(module_functions),
	TAP_TEST(unloaded_library),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
