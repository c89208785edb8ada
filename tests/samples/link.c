// SPDX-License-Identifier: MIT
/*
 * cuLink*: two PTX files compiled separately (nvcc -ptx -rdc=true), one
 * calling a function and reading a table the other defines, linked with
 * cuLinkCreate/AddFile/Complete, loaded with cuModuleLoadData, launched,
 * and checked against the host.
 */
#include "sample.h"

enum { N = 2000 };

int main(int argc, char **argv)
{
	static float in[N], out[N];
	char main_ptx[4096], lib_ptx[4096], log[1024] = "";
	CUjit_option opts[] = { CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES };
	void *vals[] = { log, (void *)(uintptr_t)sizeof(log) };
	int n = N, i, bad = 0;
	CUdeviceptr din, dout;
	void *args[] = { &din, &dout, &n }, *cubin;
	size_t size;
	CUlinkState link;
	CUcontext ctx;
	CUmodule mod;
	CUresult r;

	snprintf(main_ptx, sizeof(main_ptx), "%s", argc > 2 ? argv[1] :
		 PTX_DIR "/link_main_rdc.ptx");
	snprintf(lib_ptx, sizeof(lib_ptx), "%s", argc > 2 ? argv[2] :
		 PTX_DIR "/link_lib_rdc.ptx");
	for (i = 0; i < N; i++)
		in[i] = (float)i * 0.5f - 100.0f;
	TRY(cuInit(0));
	TRY(cuCtxCreate(&ctx, NULL, 0, 0));
	TRY(cuLinkCreate(2, opts, vals, &link));
	TRY(cuLinkAddFile(link, CU_JIT_INPUT_PTX, main_ptx, 0, NULL, NULL));
	TRY(cuLinkAddFile(link, CU_JIT_INPUT_PTX, lib_ptx, 0, NULL, NULL));
	r = cuLinkComplete(link, &cubin, &size);
	if (r != CUDA_SUCCESS)
		fprintf(stderr, "link log: %s\n", log);
	TRY(r);
	TRY(cuModuleLoadData(&mod, cubin));
	TRY(cuLinkDestroy(link));
	TRY(cuMemAlloc(&din, sizeof(in)));
	TRY(cuMemAlloc(&dout, sizeof(out)));
	TRY(cuMemcpyHtoD(din, in, sizeof(in)));
	TRY(cuLaunchKernel(sample_func(mod, "weighted"), (N + 127) / 128, 1, 1, 128, 1, 1,
			   0, NULL, args, NULL));
	TRY(cuMemcpyDtoH(out, dout, sizeof(out)));
	for (i = 0; i < N; i++)
		bad += out[i] != fmaf(in[i], 1.0f + (float)(i % 7) * 0.125f,
				      (float)(10 * (i % 4 + 1)));
	printf("weighted: %d values, %d wrong\n", N, bad);
	bad += sample_output("link", "out", out, sizeof(out), 0);
	return sample_result(bad);
}
