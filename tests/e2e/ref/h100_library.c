// SPDX-License-Identifier: MIT
/*
 * The H100 probe behind tests/e2e/library_api.c (issue 14): what NVIDIA's
 * driver answers for the library and kernel calls (cuLibrary*, cuKernel*),
 * the module and function queries (cuModuleGetFunctionCount, ...,
 * cuFuncGetParamInfo, cuFuncIsLoaded) and CUkernel handles passed where a
 * CUfunction goes. One line per case: the call, "->" the returned code,
 * then the outputs. Not built by the tree: it needs NVIDIA's cuda.h and
 * libcuda. Run on an H100 (driver 580, CUDA 13.0) as
 *   gcc h100_library.c -I/usr/local/cuda/include -lcuda -o p && ./p &&
 *   for i in 1 2 ... 16; do ./p $i; done
 * (each numbered case, on a library or module unloaded or a context
 * destroyed, runs in a process of its own, after the main run). A call
 * the driver crashed in (SIGSEGV, on a NULL pointer it does not check)
 * shows "-> -11".
 *
 * h100_library.log is its whole output (the main run, then each
 * numbered case), from one run on an H100 with driver 580.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

/*
 * A call the driver crashes in answers -11 (SIGSEGV): the handler jumps
 * back, and the run goes on. A crash outside R() ends the run.
 */
static sigjmp_buf crash;
static volatile sig_atomic_t armed;

static void on_segv(int sig)
{
	if (!armed) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	armed = 0;
	siglongjmp(crash, 1);
}

#define R(call) ({ int _r; if (!sigsetjmp(crash, 1)) { armed = 1; \
		   _r = (int)(call); armed = 0; } else _r = -11; _r; })
#define L(...) do { printf(__VA_ARGS__); printf("\n"); fflush(stdout); } while (0)

#define HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

/* add: out[i] = counter * scale + i + s[1], for i < n. */
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

static const char ptx_managed[] = HEAD
	".global .attribute(.managed) .align 4 .u32 mvar;\n"
	".global .align 4 .u32 plain;\n"
	".visible .entry k()\n{\n\tret;\n}\n";

static const char ptx_bad[] = HEAD ".visible .entry k(\n{\n\tret;\n}\n";

static const char *attr_names[] = {
	"MAX_THREADS_PER_BLOCK", "SHARED_SIZE_BYTES", "CONST_SIZE_BYTES",
	"LOCAL_SIZE_BYTES", "NUM_REGS", "PTX_VERSION", "BINARY_VERSION",
	"CACHE_MODE_CA", "MAX_DYNAMIC_SHARED_SIZE_BYTES",
	"PREFERRED_SHARED_MEMORY_CARVEOUT", "CLUSTER_SIZE_MUST_BE_SET",
	"REQUIRED_CLUSTER_WIDTH", "REQUIRED_CLUSTER_HEIGHT",
	"REQUIRED_CLUSTER_DEPTH", "NON_PORTABLE_CLUSTER_SIZE_ALLOWED",
	"CLUSTER_SCHEDULING_POLICY_PREFERENCE",
};

static CUresult load(CUlibrary *lib, const void *image)
{
	return cuLibraryLoadData(lib, image, NULL, NULL, 0, NULL, NULL, 0);
}

static const char *kname(CUkernel k)
{
	const char *n = NULL;

	if (cuKernelGetName(&n, k))
		return "?";
	return n;
}

static const char *fname(CUfunction f)
{
	const char *n = NULL;

	if (cuFuncGetName(&n, f))
		return "?";
	return n;
}

/* Launches add through @f (n = 40, s[1] = 100) and prints out[0], out[39]. */
static void launch_add(const char *what, CUfunction f)
{
	CUdeviceptr d;
	uint32_t n = 40, out[40] = { 0 };
	uint8_t b = 1;
	uint32_t s[3] = { 0, 100, 0 };
	double dd = 2.5;
	void *args[] = { &d, &n, &b, s, &dd };
	CUresult r;

	if (cuMemAlloc(&d, sizeof(out))) {
		L("%s: no memory", what);
		return;
	}
	cuMemsetD32(d, 0, 40);
	r = cuLaunchKernel(f, 2, 1, 1, 32, 1, 1, 0, NULL, args, NULL);
	L("cuLaunchKernel(%s) -> %d", what, R(r));
	L("  cuCtxSynchronize -> %d", R(cuCtxSynchronize()));
	cuMemcpyDtoH(out, d, sizeof(out));
	L("  out[0]=%u out[39]=%u", out[0], out[39]);
	cuMemFree(d);
}

static void params(const char *what, CUkernel k, CUfunction f)
{
	size_t i, off, size;
	CUresult r;

	for (i = 0; i < 6; i++) {
		off = size = 777;
		r = k ? cuKernelGetParamInfo(k, i, &off, &size) :
			cuFuncGetParamInfo(f, i, &off, &size);
		L("%s(%zu,&off,&size) -> %d off=%zu size=%zu", what, i, R(r), off,
		  size);
	}
	off = size = 777;
	r = k ? cuKernelGetParamInfo(k, 1, NULL, &size) :
		cuFuncGetParamInfo(f, 1, NULL, &size);
	L("%s(1,NULL,&size) -> %d size=%zu", what, R(r), size);
	r = k ? cuKernelGetParamInfo(k, 1, &off, NULL) :
		cuFuncGetParamInfo(f, 1, &off, NULL);
	L("%s(1,&off,NULL) -> %d off=%zu", what, R(r), off);
	r = k ? cuKernelGetParamInfo(k, 1, NULL, NULL) :
		cuFuncGetParamInfo(f, 1, NULL, NULL);
	L("%s(1,NULL,NULL) -> %d", what, R(r));
}

static void main_run(void)
{
	CUlibrary lib, lib2, l2;
	CUkernel k, k2, ks[5], kseven;
	CUfunction f, f2, fs[5], fb, g;
	CUmodule m, m2, mod;
	CUcontext a, b;
	CUmoduleLoadingMode mode = 0;
	CUfunctionLoadingState st;
	CUdeviceptr p, p2;
	size_t sz;
	unsigned int n, i;
	const char *name;
	void *fp;
	int v, at;
	CUresult r;
	char errlog[256] = "";
	CUjit_option jo[2] = { CU_JIT_ERROR_LOG_BUFFER,
			       CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *jv[2] = { errlog, (void *)(uintptr_t)sizeof(errlog) };
	CUlibraryOption lo[1];
	void *lv[1];
	FILE *fl;

	L("== before cuInit");
	L("cuLibraryLoadData(&l,ptx) -> %d", R(load(&lib, ptx)));
	L("cuModuleGetLoadingMode(&m) -> %d", R(cuModuleGetLoadingMode(&mode)));
	L("cuLibraryGetKernelCount(&n,NULL) -> %d", R(cuLibraryGetKernelCount(&n, NULL)));
	L("cuKernelGetName(&n,NULL) -> %d", R(cuKernelGetName(&name, NULL)));
	L("cuFuncGetName(&n,NULL) -> %d", R(cuFuncGetName(&name, NULL)));
	L("cuInit(0) -> %d", R(cuInit(0)));
	r = cuModuleGetLoadingMode(&mode);
	L("cuModuleGetLoadingMode(&m) -> %d mode=%d", R(r), (int)mode);
	L("cuModuleGetLoadingMode(NULL) -> %d", R(cuModuleGetLoadingMode(NULL)));

	L("== loading, no context");
	L("cuLibraryLoadData(NULL,ptx) -> %d", R(load(NULL, ptx)));
	L("cuLibraryLoadData(&l,NULL) -> %d", R(load(&l2, NULL)));
	L("cuLibraryLoadData(&l,garbage) -> %d", R(load(&l2, "garbage")));
	r = cuLibraryLoadData(&l2, ptx_bad, jo, jv, 2, NULL, NULL, 0);
	L("cuLibraryLoadData(&l,bad ptx,errlog) -> %d log=[%.60s]", R(r), errlog);
	L("cuLibraryLoadData(&l,ptx,NULL,NULL,1 jit opt) -> %d",
	  R(cuLibraryLoadData(&l2, ptx, NULL, NULL, 1, NULL, NULL, 0)));
	L("cuLibraryLoadData(&l,ptx,...,NULL,NULL,1 lib opt) -> %d",
	  R(cuLibraryLoadData(&l2, ptx, NULL, NULL, 0, NULL, NULL, 1)));
	lo[0] = CU_LIBRARY_BINARY_IS_PRESERVED;
	lv[0] = (void *)1;
	r = cuLibraryLoadData(&l2, ptx, NULL, NULL, 0, lo, lv, 1);
	L("cuLibraryLoadData(&l,ptx,BINARY_IS_PRESERVED=1) -> %d", R(r));
	if (!r)
		L("  cuLibraryUnload -> %d", R(cuLibraryUnload(l2)));
	lo[0] = CU_LIBRARY_HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE;
	lv[0] = NULL;
	r = R(cuLibraryLoadData(&l2, ptx, NULL, NULL, 0, lo, lv, 1));
	L("cuLibraryLoadData(&l,ptx,HOST_UNIVERSAL...=NULL) -> %d", R(r));
	if (!r)
		L("  cuLibraryUnload -> %d", R(cuLibraryUnload(l2)));
	lo[0] = (CUlibraryOption)99;
	r = cuLibraryLoadData(&l2, ptx, NULL, NULL, 0, lo, lv, 1);
	L("cuLibraryLoadData(&l,ptx,lib opt 99) -> %d", R(r));
	L("cuLibraryLoadFromFile(&l,\"/nonexistent\") -> %d",
	  R(cuLibraryLoadFromFile(&l2, "/nonexistent", NULL, NULL, 0, NULL, NULL, 0)));
	L("cuLibraryLoadFromFile(&l,NULL) -> %d",
	  R(cuLibraryLoadFromFile(&l2, NULL, NULL, NULL, 0, NULL, NULL, 0)));
	L("cuLibraryLoadFromFile(NULL,path) -> %d",
	  R(cuLibraryLoadFromFile(NULL, "/tmp/h100_library.ptx", NULL, NULL, 0, NULL, NULL, 0)));
	fl = fopen("/tmp/h100_library.ptx", "w");
	fputs(ptx, fl);
	fclose(fl);
	r = cuLibraryLoadFromFile(&l2, "/tmp/h100_library.ptx", NULL, NULL, 0, NULL, NULL, 0);
	L("cuLibraryLoadFromFile(&l,file) -> %d", R(r));
	if (!r) {
		L("  cuLibraryGetKernelCount -> %d", R(cuLibraryGetKernelCount(&n, l2)));
		L("  n=%u", n);
		L("  cuLibraryUnload -> %d", R(cuLibraryUnload(l2)));
	}
	r = load(&lib, ptx);
	L("cuLibraryLoadData(&l,ptx) -> %d", R(r));
	if (r)
		exit(1);

	L("== kernels, no context");
	n = 99;
	L("cuLibraryGetKernelCount(&n,lib) -> %d n=%u", R(cuLibraryGetKernelCount(&n, lib)), n);
	L("cuLibraryGetKernelCount(NULL,lib) -> %d", R(cuLibraryGetKernelCount(NULL, lib)));
	L("cuLibraryGetKernelCount(&n,NULL) -> %d", R(cuLibraryGetKernelCount(&n, NULL)));
	memset(ks, 0, sizeof(ks));
	r = cuLibraryEnumerateKernels(ks, 3, lib);
	L("cuLibraryEnumerateKernels(ks,3,lib) -> %d %s %s %s", R(r), kname(ks[0]),
	  kname(ks[1]), kname(ks[2]));
	memset(ks, 0, sizeof(ks));
	r = cuLibraryEnumerateKernels(ks, 1, lib);
	L("cuLibraryEnumerateKernels(ks,1,lib) -> %d %s ks[1]=%p", R(r), kname(ks[0]),
	  (void *)ks[1]);
	memset(ks, 0, sizeof(ks));
	r = cuLibraryEnumerateKernels(ks, 5, lib);
	L("cuLibraryEnumerateKernels(ks,5,lib) -> %d ks[3]=%p", R(r), (void *)ks[3]);
	L("cuLibraryEnumerateKernels(NULL,3,lib) -> %d", R(cuLibraryEnumerateKernels(NULL, 3, lib)));
	L("cuLibraryEnumerateKernels(ks,0,lib) -> %d", R(cuLibraryEnumerateKernels(ks, 0, lib)));
	L("cuLibraryEnumerateKernels(ks,3,NULL) -> %d", R(cuLibraryEnumerateKernels(ks, 3, NULL)));
	r = cuLibraryGetKernel(&k, lib, "add");
	L("cuLibraryGetKernel(&k,lib,\"add\") -> %d", R(r));
	r = cuLibraryGetKernel(&k2, lib, "add");
	L("cuLibraryGetKernel again -> %d same=%d", R(r), k == k2);
	cuLibraryEnumerateKernels(ks, 3, lib);
	for (i = 0; i < 3; i++)
		L("  enumerate[%u]==add's: %d", i, ks[i] == k);
	cuLibraryGetKernel(&kseven, lib, "seven");
	L("cuLibraryGetKernel(&k,lib,\"nope\") -> %d", R(cuLibraryGetKernel(&k2, lib, "nope")));
	L("cuLibraryGetKernel(&k,lib,NULL) -> %d", R(cuLibraryGetKernel(&k2, lib, NULL)));
	L("cuLibraryGetKernel(NULL,lib,\"add\") -> %d", R(cuLibraryGetKernel(NULL, lib, "add")));
	L("cuLibraryGetKernel(&k,NULL,\"add\") -> %d", R(cuLibraryGetKernel(&k2, NULL, "add")));
	r = cuKernelGetName(&name, k);
	L("cuKernelGetName(&n,k) -> %d %s", R(r), r ? "" : name);
	L("cuKernelGetName(NULL,k) -> %d", R(cuKernelGetName(NULL, k)));
	L("cuKernelGetName(&n,NULL) -> %d", R(cuKernelGetName(&name, NULL)));
	l2 = NULL;
	r = cuKernelGetLibrary(&l2, k);
	L("cuKernelGetLibrary(&l,k) -> %d same=%d", R(r), l2 == lib);
	L("cuKernelGetLibrary(NULL,k) -> %d", R(cuKernelGetLibrary(NULL, k)));
	L("cuKernelGetLibrary(&l,NULL) -> %d", R(cuKernelGetLibrary(&l2, NULL)));
	params("cuKernelGetParamInfo(k", k, NULL);
	L("cuKernelGetParamInfo(NULL,0,&o,&s) -> %d", R(cuKernelGetParamInfo(NULL, 0, &sz, &sz)));
	for (at = 0; at <= 16; at++) {
		v = -7;
		r = cuKernelGetAttribute(&v, (CUfunction_attribute)at, k, 0);
		L("cuKernelGetAttribute(&v,%s,k,0) -> %d v=%d",
		  at < 16 ? attr_names[at] : "16", R(r), v);
	}
	L("cuKernelGetAttribute(&v,99,k,0) -> %d", R(cuKernelGetAttribute(&v, 99, k, 0)));
	L("cuKernelGetAttribute(&v,NUM_REGS,k,99) -> %d",
	  R(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, k, 99)));
	L("cuKernelGetAttribute(&v,NUM_REGS,k,-1) -> %d",
	  R(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, k, -1)));
	L("cuKernelGetAttribute(NULL,NUM_REGS,k,0) -> %d",
	  R(cuKernelGetAttribute(NULL, CU_FUNC_ATTRIBUTE_NUM_REGS, k, 0)));
	L("cuKernelGetAttribute(&v,NUM_REGS,NULL,0) -> %d",
	  R(cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, NULL, 0)));
	L("cuKernelSetAttribute(MAX_DYN,60000,k,0) -> %d",
	  R(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 60000, k, 0)));
	cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k, 0);
	L("  MAX_DYN now %d", v);
	L("cuKernelSetAttribute(MAX_DYN,300000,k,0) -> %d",
	  R(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 300000, k, 0)));
	L("cuKernelSetAttribute(MAX_DYN,-1,k,0) -> %d",
	  R(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, -1, k, 0)));
	L("cuKernelSetAttribute(CARVEOUT,50,k,0) -> %d",
	  R(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50, k, 0)));
	cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, k, 0);
	L("  CARVEOUT now %d", v);
	L("cuKernelSetAttribute(CARVEOUT,101,k,0) -> %d",
	  R(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 101, k, 0)));
	L("cuKernelSetAttribute(REQUIRED_CLUSTER_WIDTH,2,k,0) -> %d",
	  R(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, 2, k, 0)));
	L("cuKernelSetAttribute(NUM_REGS,8,k,0) -> %d",
	  R(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_NUM_REGS, 8, k, 0)));
	L("cuKernelSetAttribute(99,0,k,0) -> %d", R(cuKernelSetAttribute(99, 0, k, 0)));
	L("cuKernelSetAttribute(MAX_DYN,1000,k,99) -> %d",
	  R(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1000, k, 99)));
	L("cuKernelSetAttribute(MAX_DYN,1000,NULL,0) -> %d",
	  R(cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1000, NULL, 0)));
	L("cuKernelSetCacheConfig(k,PREFER_SHARED,0) -> %d",
	  R(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_SHARED, 0)));
	L("cuKernelSetCacheConfig(k,9,0) -> %d", R(cuKernelSetCacheConfig(k, 9, 0)));
	L("cuKernelSetCacheConfig(k,PREFER_L1,99) -> %d",
	  R(cuKernelSetCacheConfig(k, CU_FUNC_CACHE_PREFER_L1, 99)));
	L("cuKernelSetCacheConfig(NULL,PREFER_L1,0) -> %d",
	  R(cuKernelSetCacheConfig(NULL, CU_FUNC_CACHE_PREFER_L1, 0)));
	L("cuKernelGetFunction(&f,k) -> %d", R(cuKernelGetFunction(&f, k)));
	L("cuLibraryGetModule(&m,lib) -> %d", R(cuLibraryGetModule(&m, lib)));
	r = cuLibraryGetGlobal(&p, &sz, lib, "counter");
	L("cuLibraryGetGlobal(&p,&s,lib,\"counter\") -> %d", R(r));
	r = cuLibraryGetManaged(&p, &sz, lib, "counter");
	L("cuLibraryGetManaged(&p,&s,lib,\"counter\") -> %d", R(r));
	fp = (void *)1;
	r = cuLibraryGetUnifiedFunction(&fp, lib, "add");
	L("cuLibraryGetUnifiedFunction(&fp,lib,\"add\") -> %d fp=%p", R(r), fp);
	fp = (void *)1;
	r = cuLibraryGetUnifiedFunction(&fp, lib, "nope");
	L("cuLibraryGetUnifiedFunction(&fp,lib,\"nope\") -> %d fp=%p", R(r), fp);
	L("cuLibraryGetUnifiedFunction(NULL,lib,\"add\") -> %d",
	  R(cuLibraryGetUnifiedFunction(NULL, lib, "add")));
	L("cuLibraryGetUnifiedFunction(&fp,lib,NULL) -> %d",
	  R(cuLibraryGetUnifiedFunction(&fp, lib, NULL)));
	L("cuLibraryGetUnifiedFunction(&fp,NULL,\"add\") -> %d",
	  R(cuLibraryGetUnifiedFunction(&fp, NULL, "add")));
	L("cuFuncGetName(&n,(CUfunction)k) -> %d", R(cuFuncGetName(&name, (CUfunction)k)));
	L("cuFuncGetAttribute(&v,NUM_REGS,(CUfunction)k) -> %d",
	  R(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_NUM_REGS, (CUfunction)k)));

	L("== context A");
	L("cuCtxCreate(&a) -> %d", R(cuCtxCreate(&a, NULL, 0, 0)));
	f = NULL;
	r = cuKernelGetFunction(&f, k);
	L("cuKernelGetFunction(&f,k) -> %d f==k: %d", R(r), (void *)f == (void *)k);
	r = cuKernelGetFunction(&f2, k);
	L("cuKernelGetFunction again -> %d same=%d", R(r), f == f2);
	L("cuKernelGetFunction(NULL,k) -> %d", R(cuKernelGetFunction(NULL, k)));
	L("cuKernelGetFunction(&f,NULL) -> %d", R(cuKernelGetFunction(&f2, NULL)));
	st = 9;
	L("cuFuncIsLoaded(&s,f) -> %d state=%d", R(cuFuncIsLoaded(&st, f)), (int)st);
	r = cuFuncGetName(&name, f);
	L("cuFuncGetName(&n,f) -> %d %s same pointer as kernel's: %d", R(r),
	  r ? "" : name, !r && name == kname(k));
	m = NULL;
	L("cuFuncGetModule(&m,f) -> %d", R(cuFuncGetModule(&m, f)));
	m2 = NULL;
	L("cuLibraryGetModule(&m,lib) -> %d same as func's: %d",
	  R(cuLibraryGetModule(&m2, lib)), m == m2);
	r = cuModuleGetFunction(&f2, m2, "add");
	L("cuModuleGetFunction(&f,libmod,\"add\") -> %d same=%d", R(r), f2 == f);
	n = 99;
	L("cuModuleGetFunctionCount(&n,libmod) -> %d n=%u",
	  R(cuModuleGetFunctionCount(&n, m2)), n);
	memset(fs, 0, sizeof(fs));
	r = cuModuleEnumerateFunctions(fs, 3, m2);
	L("cuModuleEnumerateFunctions(fs,3,libmod) -> %d %s %s %s fs[0]==f: %d", R(r),
	  fname(fs[0]), fname(fs[1]), fname(fs[2]), fs[0] == f);
	r = cuLibraryGetGlobal(&p, &sz, lib, "counter");
	L("cuLibraryGetGlobal(&p,&s,lib,\"counter\") -> %d size=%zu", R(r), sz);
	r = cuModuleGetGlobal(&p2, NULL, m2, "counter");
	L("cuModuleGetGlobal(libmod,\"counter\") -> %d same=%d", R(r), p == p2);
	r = cuLibraryGetGlobal(&p, &sz, lib, "scale");
	L("cuLibraryGetGlobal(&p,&s,lib,\"scale\") -> %d size=%zu", R(r), sz);
	r = cuLibraryGetGlobal(&p, &sz, lib, "table");
	L("cuLibraryGetGlobal(&p,&s,lib,\"table\") -> %d size=%zu", R(r), sz);
	L("cuLibraryGetGlobal(&p,&s,lib,\"nope\") -> %d",
	  R(cuLibraryGetGlobal(&p, &sz, lib, "nope")));
	L("cuLibraryGetGlobal(&p,&s,lib,NULL) -> %d",
	  R(cuLibraryGetGlobal(&p, &sz, lib, NULL)));
	L("cuLibraryGetGlobal(NULL,NULL,lib,\"counter\") -> %d",
	  R(cuLibraryGetGlobal(NULL, NULL, lib, "counter")));
	L("cuLibraryGetGlobal(&p,NULL,lib,\"counter\") -> %d",
	  R(cuLibraryGetGlobal(&p, NULL, lib, "counter")));
	L("cuLibraryGetGlobal(&p,&s,NULL,\"counter\") -> %d",
	  R(cuLibraryGetGlobal(&p, &sz, NULL, "counter")));
	L("cuLibraryGetManaged(&p,&s,lib,\"counter\") -> %d",
	  R(cuLibraryGetManaged(&p, &sz, lib, "counter")));
	L("cuLibraryGetManaged(&p,&s,lib,\"nope\") -> %d",
	  R(cuLibraryGetManaged(&p, &sz, lib, "nope")));
	L("cuLibraryGetManaged(NULL,NULL,lib,\"counter\") -> %d",
	  R(cuLibraryGetManaged(NULL, NULL, lib, "counter")));
	L("cuLibraryGetManaged(&p,&s,NULL,\"counter\") -> %d",
	  R(cuLibraryGetManaged(&p, &sz, NULL, "counter")));
	L("cuLibraryGetManaged(&p,&s,lib,NULL) -> %d",
	  R(cuLibraryGetManaged(&p, &sz, lib, NULL)));
	L("cuLibraryGetModule(NULL,lib) -> %d", R(cuLibraryGetModule(NULL, lib)));
	L("cuLibraryGetModule(&m,NULL) -> %d", R(cuLibraryGetModule(&m2, NULL)));
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f);
	L("cuFuncGetAttribute(MAX_DYN,f) after kernel's 60000: %d", v);
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, f);
	L("cuFuncGetAttribute(CARVEOUT,f) after kernel's 50: %d", v);
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_REQUIRED_CLUSTER_WIDTH, f);
	L("cuFuncGetAttribute(CLUSTER_WIDTH,f) after kernel's 2: %d", v);
	cuKernelSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 1000, k, 0);
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f);
	L("cuFuncGetAttribute(MAX_DYN,f) after kernel's 1000: %d", v);
	L("cuFuncSetAttribute(f,MAX_DYN,2000) -> %d",
	  R(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 2000)));
	cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k, 0);
	L("cuKernelGetAttribute(MAX_DYN,k,0) after func's 2000: %d", v);
	for (at = 0; at <= 16; at++) {
		int w = -7;

		v = -7;
		r = cuFuncGetAttribute(&v, (CUfunction_attribute)at, (CUfunction)k);
		cuFuncGetAttribute(&w, (CUfunction_attribute)at, f);
		L("cuFuncGetAttribute(&v,%s,(CUfunction)k) -> %d v=%d (f's %d)",
		  at < 16 ? attr_names[at] : "16", R(r), v, w);
	}
	r = cuFuncGetName(&name, (CUfunction)k);
	L("cuFuncGetName(&n,(CUfunction)k) -> %d %s", R(r), r ? "" : name);
	m2 = NULL;
	r = cuFuncGetModule(&m2, (CUfunction)k);
	L("cuFuncGetModule(&m,(CUfunction)k) -> %d same as f's: %d", R(r), m2 == m);
	st = 9;
	L("cuFuncIsLoaded(&s,(CUfunction)k) -> %d state=%d",
	  R(cuFuncIsLoaded(&st, (CUfunction)k)), (int)st);
	L("cuFuncLoad((CUfunction)k) -> %d", R(cuFuncLoad((CUfunction)k)));
	L("cuFuncSetAttribute((CUfunction)k,MAX_DYN,3000) -> %d",
	  R(cuFuncSetAttribute((CUfunction)k, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 3000)));
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f);
	L("  f's MAX_DYN now %d", v);
	cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k, 0);
	L("  k's MAX_DYN now %d", v);
	L("cuFuncSetCacheConfig((CUfunction)k,PREFER_L1) -> %d",
	  R(cuFuncSetCacheConfig((CUfunction)k, CU_FUNC_CACHE_PREFER_L1)));
	params("cuFuncGetParamInfo(f", NULL, f);
	params("cuFuncGetParamInfo((CUfunction)k", NULL, (CUfunction)k);
	L("cuFuncGetParamInfo(NULL,0,&o,&s) -> %d", R(cuFuncGetParamInfo(NULL, 0, &sz, &sz)));
	{
		CUfunction fn;
		size_t off = 777;

		cuKernelGetFunction(&fn, kseven);
		r = cuFuncGetParamInfo(fn, 0, &off, &sz);
		L("cuFuncGetParamInfo(seven,0) -> %d off=%zu size=%zu", R(r), off, sz);
		cuLibraryGetKernel(&k2, lib, "none");
		cuKernelGetFunction(&fn, k2);
		L("cuFuncGetParamInfo(none,0) -> %d", R(cuFuncGetParamInfo(fn, 0, &off, &sz)));
	}
	launch_add("(CUfunction)k", (CUfunction)k);
	launch_add("f", f);
	L("cuFuncIsLoaded(NULL,f) -> %d", R(cuFuncIsLoaded(NULL, f)));
	L("cuFuncIsLoaded(&s,NULL) -> %d", R(cuFuncIsLoaded(&st, NULL)));
	L("cuFuncLoad(f) -> %d", R(cuFuncLoad(f)));
	L("cuFuncLoad(NULL) -> %d", R(cuFuncLoad(NULL)));
	L("cuFuncGetName(NULL,f) -> %d", R(cuFuncGetName(NULL, f)));
	L("cuFuncGetName(&n,NULL) -> %d", R(cuFuncGetName(&name, NULL)));
	L("cuFuncGetModule(NULL,f) -> %d", R(cuFuncGetModule(NULL, f)));
	L("cuFuncGetModule(&m,NULL) -> %d", R(cuFuncGetModule(&m2, NULL)));

	L("== module in context A");
	r = cuModuleLoadData(&mod, ptx);
	L("cuModuleLoadData -> %d", R(r));
	n = 99;
	L("cuModuleGetFunctionCount(&n,mod) -> %d n=%u", R(cuModuleGetFunctionCount(&n, mod)), n);
	L("cuModuleGetFunctionCount(NULL,mod) -> %d", R(cuModuleGetFunctionCount(NULL, mod)));
	L("cuModuleGetFunctionCount(&n,NULL) -> %d", R(cuModuleGetFunctionCount(&n, NULL)));
	memset(fs, 0, sizeof(fs));
	r = cuModuleEnumerateFunctions(fs, 3, mod);
	L("cuModuleEnumerateFunctions(fs,3,mod) -> %d %s %s %s", R(r), fname(fs[0]),
	  fname(fs[1]), fname(fs[2]));
	memset(fs, 0, sizeof(fs));
	r = cuModuleEnumerateFunctions(fs, 1, mod);
	L("cuModuleEnumerateFunctions(fs,1,mod) -> %d %s fs[1]=%p", R(r), fname(fs[0]),
	  (void *)fs[1]);
	memset(fs, 0, sizeof(fs));
	r = cuModuleEnumerateFunctions(fs, 5, mod);
	L("cuModuleEnumerateFunctions(fs,5,mod) -> %d fs[3]=%p", R(r), (void *)fs[3]);
	L("cuModuleEnumerateFunctions(NULL,3,mod) -> %d", R(cuModuleEnumerateFunctions(NULL, 3, mod)));
	L("cuModuleEnumerateFunctions(fs,0,mod) -> %d", R(cuModuleEnumerateFunctions(fs, 0, mod)));
	L("cuModuleEnumerateFunctions(fs,3,NULL) -> %d", R(cuModuleEnumerateFunctions(fs, 3, NULL)));
	g = NULL;
	cuModuleGetFunction(&g, mod, "seven");
	memset(fs, 0, sizeof(fs));
	cuModuleEnumerateFunctions(fs, 3, mod);
	L("  enumerate[1]==GetFunction(seven): %d", fs[1] == g);
	st = 9;
	L("cuFuncIsLoaded(&s,g) -> %d state=%d", R(cuFuncIsLoaded(&st, g)), (int)st);
	L("cuFuncLoad(g) -> %d", R(cuFuncLoad(g)));
	st = 9;
	L("cuFuncIsLoaded(&s,g) -> %d state=%d", R(cuFuncIsLoaded(&st, g)), (int)st);
	m2 = NULL;
	L("cuFuncGetModule(&m,g) -> %d same=%d", R(cuFuncGetModule(&m2, g)), m2 == mod);
	r = cuFuncGetName(&name, g);
	L("cuFuncGetName(&n,g) -> %d %s", R(r), r ? "" : name);
	params("cuFuncGetParamInfo(g", NULL, g);

	L("== context B");
	L("cuCtxCreate(&b) -> %d", R(cuCtxCreate(&b, NULL, 0, 0)));
	r = cuKernelGetFunction(&fb, k);
	L("cuKernelGetFunction(&f,k) in B -> %d same as A's: %d", R(r), fb == f);
	m2 = NULL;
	cuFuncGetModule(&m2, fb);
	L("  its module same as A's: %d", m2 == m);
	r = cuLibraryGetGlobal(&p2, &sz, lib, "counter");
	cuCtxPushCurrent(a);
	cuLibraryGetGlobal(&p, &sz, lib, "counter");
	cuCtxPopCurrent(NULL);
	L("cuLibraryGetGlobal in B -> %d same as A's: %d", R(r), p == p2);
	launch_add("A's f in B", f);
	launch_add("(CUfunction)k in B", (CUfunction)k);
	launch_add("B's f", fb);
	cuKernelGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k, 0);
	L("cuKernelGetAttribute(MAX_DYN,k,0) in B: %d", v);
	cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, fb);
	L("cuFuncGetAttribute(MAX_DYN,B's f): %d", v);
	r = load(&lib2, ptx);
	L("cuLibraryLoadData with A and B alive -> %d", R(r));
	cuLibraryGetKernel(&k2, lib2, "add");
	r = cuKernelGetFunction(&f2, k2);
	st = 9;
	cuFuncIsLoaded(&st, f2);
	L("  cuKernelGetFunction -> %d cuFuncIsLoaded state=%d", R(r), (int)st);
	L("cuCtxDestroy(b) -> %d", R(cuCtxDestroy(b)));
	L("cuCtxGetCurrent after: A? %d", ({ CUcontext c = NULL; cuCtxGetCurrent(&c); c == a; }));
	cuCtxSetCurrent(NULL);
	L("cuKernelGetFunction(&f,k) no context -> %d", R(cuKernelGetFunction(&f2, k)));
	L("cuLibraryGetGlobal no context -> %d", R(cuLibraryGetGlobal(&p, &sz, lib, "counter")));
	L("cuLibraryGetModule no context -> %d", R(cuLibraryGetModule(&m2, lib)));
	cuCtxSetCurrent(a);

	L("== managed");
	r = load(&l2, ptx_managed);
	L("cuLibraryLoadData(managed ptx) -> %d", R(r));
	if (!r) {
		r = cuLibraryGetManaged(&p, &sz, l2, "mvar");
		L("cuLibraryGetManaged(&p,&s,l,\"mvar\") -> %d size=%zu", R(r), sz);
		r = cuLibraryGetManaged(&p, &sz, l2, "plain");
		L("cuLibraryGetManaged(&p,&s,l,\"plain\") -> %d", R(r));
		r = cuLibraryGetGlobal(&p, &sz, l2, "mvar");
		L("cuLibraryGetGlobal(&p,&s,l,\"mvar\") -> %d size=%zu", R(r), sz);
		L("cuLibraryUnload -> %d", R(cuLibraryUnload(l2)));
	}

	L("== unload");
	L("cuLibraryUnload(lib2) -> %d", R(cuLibraryUnload(lib2)));
	L("cuLibraryUnload(NULL) -> %d", R(cuLibraryUnload(NULL)));
	L("cuModuleUnload(mod) -> %d", R(cuModuleUnload(mod)));
	L("cuLibraryUnload(lib) -> %d", R(cuLibraryUnload(lib)));
	L("cuCtxDestroy(a) -> %d", R(cuCtxDestroy(a)));
}

/* The numbered cases, one process each. */
static void risky(int c)
{
	CUlibrary lib;
	CUkernel k;
	CUfunction f;
	CUmodule m, mod;
	CUcontext a;
	CUmoduleLoadingMode mode = 0;
	CUfunctionLoadingState st = 9;
	const char *name;
	unsigned int n;
	CUresult r;

	if (c == 9 || c == 10) {
		setenv("CUDA_MODULE_LOADING", c == 9 ? "EAGER" : "bogus", 1);
		cuInit(0);
		r = cuModuleGetLoadingMode(&mode);
		L("[%d] CUDA_MODULE_LOADING=%s: cuModuleGetLoadingMode -> %d mode=%d", c,
		  getenv("CUDA_MODULE_LOADING"), R(r), (int)mode);
		cuCtxCreate(&a, NULL, 0, 0);
		cuModuleLoadData(&mod, ptx);
		cuModuleGetFunction(&f, mod, "add");
		cuFuncIsLoaded(&st, f);
		L("[%d]   module function cuFuncIsLoaded state=%d", c, (int)st);
		load(&lib, ptx);
		cuLibraryGetKernel(&k, lib, "add");
		cuKernelGetFunction(&f, k);
		st = 9;
		cuFuncIsLoaded(&st, f);
		L("[%d]   library function cuFuncIsLoaded state=%d", c, (int)st);
		return;
	}
	cuInit(0);
	cuCtxCreate(&a, NULL, 0, 0);
	load(&lib, ptx);
	cuLibraryGetKernel(&k, lib, "add");
	cuKernelGetFunction(&f, k);
	cuModuleLoadData(&mod, ptx);
	if (c <= 8 || c == 12 || c == 13)
		cuLibraryUnload(lib);
	switch (c) {
	case 1:
		L("[1] cuLibraryUnload(unloaded) -> %d", R(cuLibraryUnload(lib)));
		break;
	case 2:
		L("[2] cuKernelGetName(&n,k of unloaded) -> %d", R(cuKernelGetName(&name, k)));
		break;
	case 3:
		L("[3] cuKernelGetFunction(&f,k of unloaded) -> %d", R(cuKernelGetFunction(&f, k)));
		break;
	case 4:
		L("[4] cuFuncGetName(&n,f of unloaded library) -> %d", R(cuFuncGetName(&name, f)));
		break;
	case 5:
		cuModuleUnload(mod);
		L("[5] cuModuleGetFunctionCount(&n,unloaded module) -> %d",
		  R(cuModuleGetFunctionCount(&n, mod)));
		break;
	case 6:
		cuModuleGetFunction(&f, mod, "add");
		cuModuleUnload(mod);
		L("[6] cuFuncGetName(&n,f of unloaded module) -> %d", R(cuFuncGetName(&name, f)));
		break;
	case 7:
		L("[7] cuLaunchKernel(f of unloaded library) -> %d",
		  R(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL)));
		break;
	case 8:
		L("[8] cuLibraryGetKernelCount(&n,unloaded) -> %d", R(cuLibraryGetKernelCount(&n, lib)));
		break;
	case 11:
		L("[11] cuKernelGetName(&n,(CUkernel)&n) -> %d", R(cuKernelGetName(&name, (CUkernel)&n)));
		break;
	case 12:
		L("[12] cuLibraryGetKernel(&k,unloaded,\"add\") -> %d",
		  R(cuLibraryGetKernel(&k, lib, "add")));
		break;
	case 13:
		L("[13] cuKernelGetAttribute(NUM_REGS,k of unloaded,0) -> %d",
		  R(cuKernelGetAttribute((int *)&n, CU_FUNC_ATTRIBUTE_NUM_REGS, k, 0)));
		break;
	case 14:
		cuLibraryGetModule(&m, lib);
		L("[14] cuModuleUnload(library's module) -> %d", R(cuModuleUnload(m)));
		L("[14]   cuKernelGetFunction after -> %d", R(cuKernelGetFunction(&f, k)));
		break;
	case 15:
		cuCtxDestroy(a);
		L("[15] cuFuncGetName(&n,f of destroyed context) -> %d", R(cuFuncGetName(&name, f)));
		break;
	case 16:
		cuCtxDestroy(a);
		cuCtxCreate(&a, NULL, 0, 0);
		L("[16] cuKernelGetFunction in a new context -> %d", R(cuKernelGetFunction(&f, k)));
		launch_add("(CUfunction)k in the new context", (CUfunction)k);
		break;
	}
}

int main(int argc, char **argv)
{
	signal(SIGSEGV, on_segv);
	if (argc > 1)
		risky(atoi(argv[1]));
	else
		main_run();
	return 0;
}
