// SPDX-License-Identifier: MIT
/*
 * cuLinkCreate/AddData/AddFile/Complete/Destroy in the VM: PTX linked into
 * vgpu's compiled-module format, loaded with cuModuleLoadData and
 * launched; a kernel calling a function and reading a variable of another
 * input; the codes and logs NVIDIA's driver gives for bad inputs (probed
 * on an H100, driver 580); and a damaged module refused.
 */
#include <stdint.h>

#include "tap.h"

#define HEAD ".version 8.0\n.target sm_75\n.address_size 64\n"

/* out[i] = in[i] * 2 + 1 */
static const char lin_ptx[] = HEAD
	".visible .entry lin(.param .u64 in, .param .u64 out, .param .u32 n)\n{\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<6>;\n"
	"\tld.param.u64 %rd1, [in];\n\tld.param.u64 %rd2, [out];\n"
	"\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n\tmov.u32 %r4, %tid.x;\n"
	"\tmad.lo.s32 %r5, %r2, %r3, %r4;\n"
	"\tsetp.ge.u32 %p1, %r5, %r1;\n\t@%p1 bra END;\n"
	"\tmul.wide.u32 %rd3, %r5, 4;\n"
	"\tadd.s64 %rd4, %rd1, %rd3;\n\tadd.s64 %rd5, %rd2, %rd3;\n"
	"\tld.global.u32 %r2, [%rd4];\n\tmad.lo.s32 %r2, %r2, 2, 1;\n"
	"\tst.global.u32 [%rd5], %r2;\n"
	"END:\n\tret;\n}\n";

/* out[0] = twice(21) + gv, twice and gv defined in b_ptx. */
static const char a_ptx[] = HEAD
	".extern .func (.param .b32 r) twice(.param .b32 x);\n"
	".extern .global .align 4 .u32 gv;\n"
	".visible .entry k(.param .u64 p)\n{\n"
	"\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<3>;\n"
	"\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
	"\tmov.u32 %r1, 21;\n"
	"\t{ .param .b32 a; st.param.b32 [a], %r1; .param .b32 rv;\n"
	"\tcall.uni (rv), twice, (a);\n\tld.param.b32 %r2, [rv]; }\n"
	"\tld.global.u32 %r3, [gv];\n\tadd.u32 %r2, %r2, %r3;\n"
	"\tst.global.u32 [%rd2], %r2;\n\tret;\n}\n";

static const char b_ptx[] = HEAD
	".visible .global .align 4 .u32 gv = 100;\n"
	".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n"
	"\t.reg .b32 %r<3>;\n"
	"\tld.param.b32 %r1, [x];\n\tadd.u32 %r2, %r1, %r1;\n"
	"\tst.param.b32 [r], %r2;\n\tret;\n}\n";

static const char c_ptx[] = HEAD
	".visible .func (.param .b32 r) twice(.param .b32 x)\n{\n"
	"\t.reg .b32 %r<3>;\n\tld.param.b32 %r1, [x];\n"
	"\tst.param.b32 [r], %r1;\n\tret;\n}\n";

static const char bad_ptx[] = HEAD ".visible .entry k()\n{\n\tfoo.u32 %r1;\n}\n";

/* The logs outlive the state: the driver writes their sizes back. */
static char elog[2048], ilog[2048];
static CUjit_option opts[] = {
	CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
	CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
};
static void *vals[4];

static void setup(void)
{
	CUcontext c;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
}

static CUlinkState create(void)
{
	CUlinkState s;

	elog[0] = ilog[0] = 0;
	vals[0] = elog;
	vals[1] = (void *)(uintptr_t)sizeof(elog);
	vals[2] = ilog;
	vals[3] = (void *)(uintptr_t)sizeof(ilog);
	REQUIRE_RES(CUDA_SUCCESS, cuLinkCreate(4, opts, vals, &s));
	return s;
}

static CUresult add(CUlinkState s, const char *ptx, const char *name)
{
	return cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx, strlen(ptx) + 1,
			     name, 0, NULL, NULL);
}

static void link_load_and_launch(void)
{
	enum { N = 1000 };
	static uint32_t in[N], out[N];
	CUdeviceptr din, dout;
	uint32_t n = N;
	void *args[] = { &din, &dout, &n };
	CUlinkState s;
	CUmodule m;
	CUfunction f;
	void *cubin;
	size_t size;
	int i, bad = 0;

	setup();
	s = create();
	REQUIRE_RES(CUDA_SUCCESS, add(s, lin_ptx, "lin.ptx"));
	REQUIRE_RES(CUDA_SUCCESS, cuLinkComplete(s, &cubin, &size));
	CHECK(size > 64 && !memcmp(cubin, "VGPUMOD1", 8));
	CHECK(strstr(ilog, "Function properties for lin") != NULL);
	CHECK((uintptr_t)vals[3] == strlen(ilog) + 1);
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, cubin));
	/* The module is the caller's once loaded: the state may go. */
	CHECK_RES(CUDA_SUCCESS, cuLinkDestroy(s));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "lin"));
	for (i = 0; i < N; i++)
		in[i] = (uint32_t)i * 3;
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&din, sizeof(in)));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dout, sizeof(out)));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(din, in, sizeof(in)));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, (N + 127) / 128, 1, 1, 128, 1, 1,
					       0, NULL, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(out, dout, sizeof(out)));
	for (i = 0; i < N; i++)
		bad += out[i] != in[i] * 2 + 1;
	CHECK(bad == 0);
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
}

/* A function and a variable that one input uses and another defines. */
static void link_across_inputs(void)
{
	CUdeviceptr dout, dgv;
	void *args[] = { &dout };
	uint32_t out = 0, gv = 7;
	CUlinkState s;
	CUmodule m;
	CUfunction f;
	void *cubin;
	size_t size;

	setup();
	s = create();
	REQUIRE_RES(CUDA_SUCCESS, add(s, a_ptx, "a.ptx"));
	REQUIRE_RES(CUDA_SUCCESS, add(s, b_ptx, "b.ptx"));
	REQUIRE_RES(CUDA_SUCCESS, cuLinkComplete(s, &cubin, &size));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, cubin));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "k"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dout, 4));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&out, dout, 4));
	CHECK(out == 142);
	/* The variable is the module's, as on NVIDIA's driver. */
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetGlobal(&dgv, &size, m, "gv"));
	CHECK(size == 4);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(dgv, &gv, 4));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&out, dout, 4));
	CHECK(out == 49);
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
	CHECK_RES(CUDA_SUCCESS, cuLinkDestroy(s));
}

/* Inputs NVIDIA's driver refuses, with its codes. */
static void bad_inputs(void)
{
	static const unsigned char garbage[256] = { 0x5a, 0x5a, 0x5a, 0x5a };
	static const unsigned char elf[64] = { 0x7f, 'E', 'L', 'F', 2, 1, 1 };
	static const struct {
		CUjitInputType type;
		const void *data;
		size_t size;
		CUresult want;
	} cases[] = {
		{ CU_JIT_INPUT_CUBIN, garbage, sizeof(garbage), CUDA_ERROR_INVALID_IMAGE },
		{ CU_JIT_INPUT_CUBIN, elf, sizeof(elf), CUDA_ERROR_NO_BINARY_FOR_GPU },
		{ CU_JIT_INPUT_OBJECT, garbage, sizeof(garbage), CUDA_ERROR_UNKNOWN },
		{ CU_JIT_INPUT_LIBRARY, garbage, sizeof(garbage), CUDA_ERROR_UNKNOWN },
		{ CU_JIT_INPUT_FATBINARY, garbage, sizeof(garbage), CUDA_ERROR_INVALID_IMAGE },
		{ CU_JIT_INPUT_NVVM, garbage, sizeof(garbage), CUDA_ERROR_JIT_COMPILER_NOT_FOUND },
		{ CU_JIT_INPUT_PTX, garbage, sizeof(garbage), CUDA_ERROR_INVALID_IMAGE },
		{ (CUjitInputType)99, lin_ptx, sizeof(lin_ptx), CUDA_ERROR_INVALID_VALUE },
		/* PTX whose NUL is not within the size */
		{ CU_JIT_INPUT_PTX, lin_ptx, sizeof(lin_ptx) - 1, CUDA_ERROR_UNKNOWN },
		{ CU_JIT_INPUT_PTX, NULL, 10, CUDA_ERROR_INVALID_VALUE },
		{ CU_JIT_INPUT_PTX, lin_ptx, 0, CUDA_ERROR_INVALID_VALUE },
	};
	unsigned int i;

	setup();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CUlinkState s = create();
		CUresult r = cuLinkAddData(s, cases[i].type, (void *)cases[i].data,
					   cases[i].size, "input", 0, NULL, NULL);

		if (r != cases[i].want)
			TAP_FAIL("case %u: %d, expected %d", i, (int)r, (int)cases[i].want);
		if (r != CUDA_ERROR_INVALID_VALUE && !elog[0])
			TAP_FAIL("case %u: empty error log", i);
		CHECK_RES(CUDA_SUCCESS, cuLinkDestroy(s));
	}
}

static void bad_ptx_and_links(void)
{
	CUlinkState s;
	void *cubin;
	size_t size;

	setup();
	/* Bad PTX is refused and not added: what remains links. */
	s = create();
	CHECK_RES(CUDA_ERROR_INVALID_PTX, add(s, bad_ptx, "bad.ptx"));
	CHECK(!strcmp(elog, "bad.ptx:6:10: unknown register '%r1'"));
	CHECK((uintptr_t)vals[1] == strlen(elog) + 1);
	CHECK_RES(CUDA_SUCCESS, add(s, lin_ptx, "lin.ptx"));
	CHECK_RES(CUDA_SUCCESS, cuLinkComplete(s, &cubin, &size));
	/* A state completes once. */
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLinkComplete(s, &cubin, &size));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, add(s, lin_ptx, "lin.ptx"));
	CHECK_RES(CUDA_SUCCESS, cuLinkDestroy(s));

	s = create();
	CHECK_RES(CUDA_SUCCESS, add(s, a_ptx, "a.ptx"));
	CHECK_RES(CUDA_ERROR_UNKNOWN, cuLinkComplete(s, &cubin, &size));
	CHECK(!strcmp(elog, "error   : Undefined reference to 'gv' in 'a.ptx'\n"
		      "error   : Undefined reference to 'twice' in 'a.ptx'"));
	CHECK_RES(CUDA_SUCCESS, cuLinkDestroy(s));

	/* A multiple definition fails the input and every later call. */
	s = create();
	CHECK_RES(CUDA_SUCCESS, add(s, a_ptx, "a.ptx"));
	CHECK_RES(CUDA_SUCCESS, add(s, b_ptx, "b.ptx"));
	CHECK_RES(CUDA_ERROR_UNKNOWN, add(s, c_ptx, "c.ptx"));
	CHECK(!strcmp(elog, "error   : Multiple definition of 'twice' in 'c.ptx', first defined in 'b.ptx'"));
	CHECK_RES(CUDA_ERROR_UNKNOWN, cuLinkComplete(s, &cubin, &size));
	CHECK_RES(CUDA_SUCCESS, cuLinkDestroy(s));
}

static void bad_calls(void)
{
	CUjit_option bad_opt = (CUjit_option)99;
	void *bad_val = NULL, *cubin;
	CUlinkState s;
	size_t size;

	setup();
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(0, NULL, NULL, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLinkCreate(1, &bad_opt, &bad_val, &s));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLinkDestroy(NULL));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuLinkComplete(NULL, &cubin, &size));
	s = create();
	CHECK_RES(CUDA_ERROR_FILE_NOT_FOUND,
		  cuLinkAddFile(s, CU_JIT_INPUT_PTX, "/nonexistent.ptx", 0, NULL, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLinkAddFile(s, CU_JIT_INPUT_PTX, NULL, 0, NULL, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuLinkComplete(s, NULL, &size));
	/* No input: a module of nothing, which does not load. */
	CHECK_RES(CUDA_SUCCESS, cuLinkComplete(s, &cubin, &size));
	CHECK_RES(CUDA_SUCCESS, cuLinkDestroy(s));
}

/* A PTX file, and a linked module changed on its way, refused whole. */
static void files_and_damaged_modules(void)
{
	char path[] = "/tmp/vgpu-link-XXXXXX";
	unsigned char *copy;
	CUlinkState s;
	CUmodule m;
	CUfunction f;
	void *cubin;
	size_t size;
	FILE *fp;
	int fd;

	setup();
	fd = mkstemp(path);
	REQUIRE_RES(0, fd < 0);
	fp = fdopen(fd, "w");
	fputs(lin_ptx, fp);
	fclose(fp);
	s = create();
	CHECK_RES(CUDA_SUCCESS, cuLinkAddFile(s, CU_JIT_INPUT_PTX, path, 0, NULL, NULL));
	unlink(path);
	REQUIRE_RES(CUDA_SUCCESS, cuLinkComplete(s, &cubin, &size));
	copy = malloc(size);
	memcpy(copy, cubin, size);
	copy[size / 2] ^= 1;
	CHECK_RES(CUDA_ERROR_INVALID_IMAGE, cuModuleLoadData(&m, copy));
	free(copy);
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, cubin));
	CHECK_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "lin"));
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
	CHECK_RES(CUDA_SUCCESS, cuLinkDestroy(s));
}

/* vgpu-ptxas writes the same format: cuModuleLoad takes its file. */
static void offline_module_loads(void)
{
	char dir[] = "/tmp/vgpu-ptxas-XXXXXX", cmd[256], path[64];
	uint32_t in = 20, out = 0;
	CUdeviceptr din, dout;
	uint32_t n = 1;
	void *args[] = { &din, &dout, &n };
	CUmodule m;
	CUfunction f;
	FILE *fp;

	setup();
	REQUIRE_RES(0, !mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/lin.ptx", dir);
	fp = fopen(path, "w");
	REQUIRE_RES(0, !fp);
	fputs(lin_ptx, fp);
	fclose(fp);
	snprintf(cmd, sizeof(cmd), "build/tools/vgpu-ptxas -o %s/lin.vgpumod %s", dir, path);
	REQUIRE_RES(0, system(cmd));
	snprintf(path, sizeof(path), "%s/lin.vgpumod", dir);
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoad(&m, path));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, m, "lin"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&din, 4));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&dout, 4));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(din, &in, 4));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&out, dout, 4));
	CHECK(out == 41);
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK(system(cmd) == 0);
}

static const struct tap_test tests[] = {
	TAP_TEST(link_load_and_launch),
	TAP_TEST(link_across_inputs),
	TAP_TEST(bad_inputs),
	TAP_TEST(bad_ptx_and_links),
	TAP_TEST(bad_calls),
	TAP_TEST(files_and_damaged_modules),
	TAP_TEST(offline_module_loads),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
