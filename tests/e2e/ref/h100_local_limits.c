// SPDX-License-Identifier: MIT
// Probe run on an H100 for tests/e2e/block_mem_api.c: launches of a kernel
// with a growing local array (one word stored), at 32 threads, before and
// after the stack limit is set to 0 and to 4096. Built with
// gcc -I$CUDA/include h100_local_limits.c -lcuda.
#include <stdio.h>
#include <cuda.h>
static char ptx[1024];
static CUresult try(unsigned size)
{
	CUmodule mod; CUfunction f; int v = 1; void *args[] = { &v };
	snprintf(ptx, sizeof(ptx),
		".version 9.0\n.target sm_75\n.address_size 64\n"
		".visible .entry big(.param .u32 v)\n{\n"
		"\t.local .align 4 .b8 depot[%u];\n"
		"\t.reg .b64 %%rd<2>;\n\t.reg .b32 %%r<2>;\n"
		"\tmov.u64 %%rd1, depot;\n\tld.param.u32 %%r1, [v];\n"
		"\tst.local.u32 [%%rd1], %%r1;\n\tret;\n}\n", size);
	if (cuModuleLoadData(&mod, ptx)) return 999;
	cuModuleGetFunction(&f, mod, "big");
	int local = 0; cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f);
	CUresult l = cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, NULL, args, NULL);
	CUresult y = cuCtxSynchronize();
	size_t st; cuCtxGetLimit(&st, CU_LIMIT_STACK_SIZE);
	printf("size %u local attr %d: launch %d sync %d stack %zu\n", size, local, l, y, st);
	cuModuleUnload(mod);
	return l;
}
int main(void)
{
	CUcontext ctx;
	cuInit(0);
	cuCtxCreate(&ctx, NULL, 0, 0);
	unsigned s[] = { 400000, 500000, 520192, 522240, 523264, 523776, 524032, 524280, 524288 };
	for (int i = 0; i < 9; i++) try(s[i]);
	printf("set stack 0 = %d\n", cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 0));
	for (int i = 0; i < 9; i++) try(s[i]);
	printf("set stack 4096 = %d\n", cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 4096));
	try(520192); try(523264);
	return 0;
}
