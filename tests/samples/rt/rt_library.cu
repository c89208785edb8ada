// SPDX-License-Identifier: MIT
// The runtime's library management (CUDA 12's cudaLibrary* calls): PTX
// loaded at run time as a library, its kernels counted, listed, named,
// launched by their handles through cudaLaunchKernel and asked for their
// attributes, a global variable of it written and read, and the error
// codes of bad names, handles and images; then device notifications and
// the cluster occupancy queries, as an H100 answers them.
#include "rt.h"

static const char ptx[] =
	".version 8.0\n"
	".target sm_75\n"
	".address_size 64\n"
	".visible .global .align 4 .u32 bias;\n"
	".visible .entry add_bias(.param .u64 p, .param .u32 n)\n"
	"{\n"
	"	.reg .pred %p1;\n"
	"	.reg .b32 %r<8>;\n"
	"	.reg .b64 %rd<5>;\n"
	"	ld.param.u64 %rd1, [p];\n"
	"	ld.param.u32 %r1, [n];\n"
	"	mov.u32 %r2, %ctaid.x;\n"
	"	mov.u32 %r3, %ntid.x;\n"
	"	mov.u32 %r4, %tid.x;\n"
	"	mad.lo.s32 %r5, %r2, %r3, %r4;\n"
	"	setp.ge.s32 %p1, %r5, %r1;\n"
	"	@%p1 bra DONE;\n"
	"	cvta.to.global.u64 %rd2, %rd1;\n"
	"	mul.wide.s32 %rd3, %r5, 4;\n"
	"	add.s64 %rd4, %rd2, %rd3;\n"
	"	ld.global.u32 %r6, [bias];\n"
	"	add.s32 %r7, %r5, %r6;\n"
	"	st.global.u32 [%rd4], %r7;\n"
	"DONE:\n"
	"	ret;\n"
	"}\n"
	".visible .entry nothing()\n"
	"{\n"
	"	ret;\n"
	"}\n";

__global__ void plain(int *p)
{
	p[threadIdx.x] = threadIdx.x;
}

static void say(const char *what, cudaError_t e)
{
	printf("%s: %s; last %s\n", what, cudaGetErrorName(e),
	       cudaGetErrorName(cudaGetLastError()));
}

static void library(void)
{
	cudaLibrary_t lib = NULL, bad = NULL;
	cudaKernel_t k = NULL, ks[4] = { NULL };
	struct cudaFuncAttributes attr;
	unsigned int count = 0, b = 1000;
	const char *name = NULL;
	void *global = NULL;
	size_t size = 0;
	int h[256], *d, n = 256, i, wrong = 0;
	void *args[] = { &d, &n };

	say("cudaLibraryLoadData", cudaLibraryLoadData(&lib, ptx, NULL, NULL,
						       0, NULL, NULL, 0));
	say("cudaLibraryGetKernelCount",
	    cudaLibraryGetKernelCount(&count, lib));
	printf("kernels: %u\n", count);
	say("cudaLibraryEnumerateKernels",
	    cudaLibraryEnumerateKernels(ks, 4, lib));
	printf("enumerated: %d %d %d\n", ks[0] != NULL, ks[1] != NULL,
	       ks[2] != NULL);
	say("cudaLibraryGetKernel", cudaLibraryGetKernel(&k, lib,
							 "add_bias"));
	say("cudaFuncGetName(library kernel)",
	    cudaFuncGetName(&name, (const void *)k));
	printf("name: %s\n", name ? name : "(null)");
	say("cudaFuncGetAttributes(library kernel)",
	    cudaFuncGetAttributes(&attr, (const void *)k));
	printf("~ registers %d, max threads %d\n", attr.numRegs,
	       attr.maxThreadsPerBlock);
	say("cudaLibraryGetGlobal", cudaLibraryGetGlobal(&global, &size, lib,
							 "bias"));
	printf("global size: %zu\n", size);
	TRY(cudaMemcpy(global, &b, sizeof(b), cudaMemcpyHostToDevice));
	TRY(cudaMalloc((void **)&d, sizeof(h)));
	say("cudaLaunchKernel(library kernel)",
	    cudaLaunchKernel((const void *)k, dim3(2), dim3(128), args, 0, 0));
	TRY(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
	for (i = 0; i < 256; i++)
		wrong += h[i] != i + 1000;
	EXPECT_TRUE(wrong == 0);
	printf("a library kernel launched through the runtime: %d wrong\n",
	       wrong);

	say("cudaLibraryGetKernel(unknown name)",
	    cudaLibraryGetKernel(&k, lib, "missing"));
	say("cudaLibraryGetKernel(NULL name)",
	    cudaLibraryGetKernel(&k, lib, NULL));
	say("cudaLibraryGetKernel(NULL output)",
	    cudaLibraryGetKernel(NULL, lib, "add_bias"));
	say("cudaLibraryGetGlobal(unknown name)",
	    cudaLibraryGetGlobal(&global, &size, lib, "missing"));
	say("cudaLibraryGetManaged(not managed)",
	    cudaLibraryGetManaged(&global, &size, lib, "bias"));
	say("cudaLibraryGetUnifiedFunction(unknown)",
	    cudaLibraryGetUnifiedFunction(&global, lib, "missing"));
	say("cudaLibraryGetKernelCount(NULL)",
	    cudaLibraryGetKernelCount(NULL, lib));
	say("cudaLibraryEnumerateKernels(0 slots)",
	    cudaLibraryEnumerateKernels(ks, 0, lib));
	say("cudaLibraryLoadData(NULL image)",
	    cudaLibraryLoadData(&bad, NULL, NULL, NULL, 0, NULL, NULL, 0));
	// Loading is lazy: a bad image fails when first used.
	say("cudaLibraryLoadData(not an image)",
	    cudaLibraryLoadData(&bad, "not an image", NULL, NULL, 0, NULL,
				NULL, 0));
	count = 99;
	say("cudaLibraryGetKernelCount(not an image)",
	    cudaLibraryGetKernelCount(&count, bad));
	printf("kernels of not an image: %u\n", count);
	say("cudaLibraryGetKernel(not an image)",
	    cudaLibraryGetKernel(&k, bad, "add_bias"));
	say("cudaLibraryUnload(not an image)", cudaLibraryUnload(bad));
	say("cudaLibraryLoadFromFile(no such file)",
	    cudaLibraryLoadFromFile(&bad, "/nonexistent/lib.ptx", NULL, NULL,
				    0, NULL, NULL, 0));
	say("cudaLibraryUnload", cudaLibraryUnload(lib));
	// (Unloading it again kills NVIDIA's runtime: SIGSEGV.)
	say("cudaLibraryUnload(NULL)", cudaLibraryUnload(NULL));
	TRY(cudaFree(d));
}

static void on_notify(cudaAsyncNotificationInfo_t *info, void *data,
		      cudaAsyncCallbackHandle_t h)
{
	(void)info;
	(void)data;
	(void)h;
}

static void notifications(void)
{
	cudaAsyncCallbackHandle_t h = NULL;

	say("cudaDeviceRegisterAsyncNotification",
	    cudaDeviceRegisterAsyncNotification(0, on_notify, NULL, &h));
	say("cudaDeviceUnregisterAsyncNotification(device 99)",
	    cudaDeviceUnregisterAsyncNotification(99, h));
	say("cudaDeviceUnregisterAsyncNotification",
	    cudaDeviceUnregisterAsyncNotification(0, h));
	say("cudaDeviceRegisterAsyncNotification(device 99)",
	    cudaDeviceRegisterAsyncNotification(99, on_notify, NULL, &h));
	say("cudaDeviceRegisterAsyncNotification(NULL callback)",
	    cudaDeviceRegisterAsyncNotification(0, NULL, NULL, &h));
}

static void clusters(void)
{
	cudaLaunchConfig_t cfg = {};
	int n = -1;

	cfg.gridDim = dim3(16);
	cfg.blockDim = dim3(128);
	say("cudaOccupancyMaxActiveClusters",
	    cudaOccupancyMaxActiveClusters(&n, (const void *)plain, &cfg));
	printf("~ active clusters: %d\n", n);
	say("cudaOccupancyMaxPotentialClusterSize",
	    cudaOccupancyMaxPotentialClusterSize(&n, (const void *)plain,
						 &cfg));
	printf("~ potential cluster size: %d\n", n);
	// (A NULL configuration kills NVIDIA's runtime: SIGSEGV.)
	say("cudaOccupancyMaxActiveClusters(not a kernel)",
	    cudaOccupancyMaxActiveClusters(&n, (const void *)say, &cfg));
}

int main(void)
{
	// Line by line, so that a call that kills NVIDIA's runtime shows.
	setvbuf(stdout, NULL, _IOLBF, 0);
	rt_check_library();
	TRY(cudaSetDevice(0));
	library();
	notifications();
	clusters();
	return rt_result();
}
