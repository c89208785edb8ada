// SPDX-License-Identifier: MIT
/*
 * Which plain (unrounded) mul/add pairs of PTX ptxas contracts to an
 * fma, measured on an H100 (its log: h100_contract.log): each pattern's
 * results are compared lane by lane with the fused and the separately
 * rounded forms computed here. Build against NVIDIA's driver:
 *   gcc -std=c11 h100_contract.c -lcuda -lm
 */
#include <cuda.h>

#include "h100_contract.h"

#define TRY(x) do { CUresult r_ = (x); if (r_) { printf("%s: %d\n", #x, (int)r_); exit(1); } } while (0)

int main(void)
{
	static struct ct_inputs x;
	static float out[NOUT][N];
	static char ptx[8192], line[256];
	CUcontext ctx;
	CUdevice dev;
	CUdeviceptr in, o;
	unsigned int p;

	ct_make_inputs(&x);
	TRY(cuInit(0));
	TRY(cuDeviceGet(&dev, 0));
	TRY(cuCtxCreate(&ctx, NULL, 0, dev));
	TRY(cuMemAlloc(&in, sizeof(x)));
	TRY(cuMemAlloc(&o, sizeof(out)));
	TRY(cuMemcpyHtoD(in, &x, sizeof(x)));
	for (p = 0; p < NPATS; p++) {
		CUmodule m;
		CUfunction f;
		void *args[] = { &in, &o };

		snprintf(ptx, sizeof(ptx), "%s%sret;\n}\n", HEAD, pats[p].body);
		TRY(cuModuleLoadData(&m, ptx));
		TRY(cuModuleGetFunction(&f, m, "k"));
		TRY(cuMemsetD8(o, 0, sizeof(out)));
		TRY(cuLaunchKernel(f, N / 128, 1, 1, 128, 1, 1, 0, NULL, args, NULL));
		TRY(cuCtxSynchronize());
		TRY(cuMemcpyDtoH(out, o, sizeof(out)));
		ct_tally(p, &x, out, line, sizeof(line));
		printf("%s\n", line);
		TRY(cuModuleUnload(m));
	}
	return 0;
}
