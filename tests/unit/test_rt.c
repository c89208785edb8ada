// SPDX-License-Identifier: MIT
/*
 * vgpu's libcudart.so.13 where no device answers (the build machine):
 * error names and texts, the version queries, the per-thread last error,
 * nvcc's registration and launch-configuration bookkeeping, and NVIDIA's
 * codes for a machine without a GPU. Links build/lib/libcudart.so.13.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>

#include "tap.h"
#include "rt_abi.h"

#define CHECK_RT(want, call) do { \
	cudaError_t _e = (call); \
	if (_e != (want)) \
		TAP_FAIL("%s returned %d, expected %d", #call, (int)_e, \
			 (int)(want)); \
} while (0)

static void need_no_device(void)
{
	if (access("/dev/vgpu0", F_OK) == 0)
		TAP_SKIP("/dev/vgpu0 exists");
}

static void error_names(void)
{
	static const struct {
		cudaError_t code;
		const char *name, *text;
	} cases[] = {
		{ cudaSuccess, "cudaSuccess", "no error" },
		{ cudaErrorInvalidValue, "cudaErrorInvalidValue",
		  "invalid argument" },
		{ cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation",
		  "out of memory" },
		{ cudaErrorInvalidConfiguration,
		  "cudaErrorInvalidConfiguration",
		  "invalid configuration argument" },
		{ cudaErrorInvalidMemcpyDirection,
		  "cudaErrorInvalidMemcpyDirection",
		  "invalid copy direction for memcpy" },
		{ cudaErrorInvalidDeviceFunction,
		  "cudaErrorInvalidDeviceFunction", "invalid device function" },
		{ cudaErrorNoDevice, "cudaErrorNoDevice",
		  "no CUDA-capable device is detected" },
		{ cudaErrorInvalidDevice, "cudaErrorInvalidDevice",
		  "invalid device ordinal" },
		{ cudaErrorNoKernelImageForDevice,
		  "cudaErrorNoKernelImageForDevice",
		  "no kernel image is available for execution on the device" },
		{ cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
		  "an illegal memory access was encountered" },
		{ cudaErrorNotReady, "cudaErrorNotReady", "device not ready" },
		{ cudaErrorNotSupported, "cudaErrorNotSupported",
		  "operation not supported" },
		{ cudaErrorUnknown, "cudaErrorUnknown", "unknown error" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *name = cudaGetErrorName(cases[i].code);
		const char *text = cudaGetErrorString(cases[i].code);

		if (!name || strcmp(name, cases[i].name))
			TAP_FAIL("name of %d: %s", (int)cases[i].code, name);
		if (!text || strcmp(text, cases[i].text))
			TAP_FAIL("text of %d: %s", (int)cases[i].code, text);
	}
}

/* Every code of the enum has a name and a text; others have neither. */
static void error_names_complete(void)
{
	int code, named = 0;

	for (code = 0; code < 1100; code++) {
		const char *name = cudaGetErrorName((cudaError_t)code);
		const char *text = cudaGetErrorString((cudaError_t)code);

		if (!name || !text || !*text) {
			TAP_FAIL("code %d has no name or text", code);
			continue;
		}
		if (!strcmp(name, "unrecognized error code")) {
			CHECK(!strcmp(text, "unrecognized error code"));
			continue;
		}
		named++;
		if (strncmp(name, "cuda", 4))
			TAP_FAIL("code %d is named %s", code, name);
	}
	/* CUDA 13's enum cudaError has 133 members. */
	CHECK(named == 133);
	CHECK(!strcmp(cudaGetErrorName((cudaError_t)-1),
		      "unrecognized error code"));
}

/*
 * Every code's name and text are those NVIDIA's libcudart.so.13 gave on an
 * H100 (tests/unit/data/rt_errors_h100.log: code, name and text a line,
 * tab-separated, and -1 for a code outside the enum).
 */
static void error_texts_match_h100(void)
{
	FILE *f = fopen("tests/unit/data/rt_errors_h100.log", "r");
	char line[512];
	int n = 0;

	if (!f) {
		TAP_FAIL("cannot read tests/unit/data/rt_errors_h100.log");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		char *name = strchr(line, '\t'), *text;
		int code = atoi(line);

		if (!name || !(text = strchr(name + 1, '\t')))
			continue;
		*name++ = '\0';
		*text++ = '\0';
		text[strcspn(text, "\n")] = '\0';
		n++;
		if (strcmp(cudaGetErrorName((cudaError_t)code), name))
			TAP_FAIL("code %d is named %s, the H100 says %s", code,
				 cudaGetErrorName((cudaError_t)code), name);
		if (strcmp(cudaGetErrorString((cudaError_t)code), text))
			TAP_FAIL("code %d reads \"%s\", the H100's \"%s\"",
				 code, cudaGetErrorString((cudaError_t)code),
				 text);
	}
	fclose(f);
	CHECK(n == 134);
}

static void versions(void)
{
	int v = 0;

	CHECK_RT(cudaSuccess, cudaRuntimeGetVersion(&v));
	CHECK(v == 13000);
	v = 0;
	CHECK_RT(cudaSuccess, cudaDriverGetVersion(&v));
	CHECK(v == 13000);
	CHECK_RT(cudaErrorInvalidValue, cudaRuntimeGetVersion(NULL));
	CHECK_RT(cudaErrorInvalidValue, cudaDriverGetVersion(NULL));
}

/*
 * NVIDIA's runtime on a machine with a driver but no GPU, as an H100's
 * answers with CUDA_VISIBLE_DEVICES=-1.
 */
static void no_device(void)
{
	struct cudaDeviceProp prop;
	int n = -1, dev = -1;
	void *p = NULL;

	need_no_device();
	/* The H100 under CUDA_VISIBLE_DEVICES=-1 leaves the count as is. */
	CHECK_RT(cudaErrorNoDevice, cudaGetDeviceCount(&n));
	CHECK(n == -1);
	CHECK_RT(cudaErrorNoDevice, cudaGetLastError());
	CHECK_RT(cudaSuccess, cudaGetLastError());
	CHECK_RT(cudaErrorNoDevice, cudaSetDevice(0));
	CHECK_RT(cudaErrorNoDevice, cudaGetDevice(&dev));
	CHECK_RT(cudaErrorNoDevice, cudaMalloc(&p, 16));
	CHECK_RT(cudaErrorNoDevice, cudaFree(NULL));
	CHECK_RT(cudaErrorNoDevice, cudaDeviceSynchronize());
	CHECK_RT(cudaErrorNoDevice, cudaGetDeviceProperties(&prop, 0));
	CHECK_RT(cudaErrorNoDevice, cudaPeekAtLastError());
	CHECK_RT(cudaErrorNoDevice, cudaGetLastError());
}

static void *other_thread_error(void *arg)
{
	(void)arg;
	return (void *)(intptr_t)cudaPeekAtLastError();
}

/* The last error is the thread's own; a success leaves it alone. */
static void last_error_per_thread(void)
{
	pthread_t t;
	void *seen = NULL;
	int v;

	CHECK_RT(cudaErrorInvalidValue, cudaGetDeviceCount(NULL));
	CHECK_RT(cudaSuccess, cudaRuntimeGetVersion(&v));
	CHECK_RT(cudaErrorInvalidValue, cudaPeekAtLastError());
	CHECK(pthread_create(&t, NULL, other_thread_error, NULL) == 0);
	CHECK(pthread_join(t, &seen) == 0);
	CHECK((cudaError_t)(intptr_t)seen == cudaSuccess);
	CHECK_RT(cudaErrorInvalidValue, cudaGetLastError());
	CHECK_RT(cudaSuccess, cudaPeekAtLastError());
}

/* What nvcc puts in .nvFatBinSegment; the fatbin is never read here. */
static const struct {
	uint32_t magic, version;
	const void *data, *extra;
} wrapper = { 0x466243b1u, 1, NULL, NULL };

static void stub_a(void) { }
static void stub_b(void) { }
static int shadow_var;

static void registration(void)
{
	cudaKernel_t ka = NULL, kb = NULL, kc = NULL;
	void **h = __cudaRegisterFatBinary((void *)&wrapper);

	if (!h) {
		TAP_FAIL("__cudaRegisterFatBinary returned NULL");
		return;
	}
	__cudaRegisterFunction(h, (const char *)(uintptr_t)stub_a,
			       (char *)"_Z1av", "_Z1av", -1, NULL, NULL, NULL,
			       NULL, NULL);
	__cudaRegisterFunction(h, (const char *)(uintptr_t)stub_b,
			       (char *)"_Z1bv", "_Z1bv", -1, NULL, NULL, NULL,
			       NULL, NULL);
	__cudaRegisterVar(h, (char *)&shadow_var, (char *)"v", "v", 0,
			  sizeof(shadow_var), 0, 0);
	__cudaRegisterFatBinaryEnd(h);

	CHECK_RT(cudaSuccess, __cudaGetKernel(&ka, (const void *)stub_a));
	CHECK_RT(cudaSuccess, __cudaGetKernel(&kb, (const void *)stub_b));
	CHECK(ka && kb && ka != kb);
	CHECK_RT(cudaSuccess, __cudaGetKernel(&kc, (const void *)stub_a));
	CHECK(kc == ka);
	CHECK_RT(cudaErrorInvalidDeviceFunction,
		 __cudaGetKernel(&kc, (const void *)&shadow_var));
	CHECK_RT(cudaErrorInvalidDeviceFunction, cudaGetLastError());
	CHECK_RT(cudaErrorInvalidValue, __cudaGetKernel(NULL, stub_a));

	__cudaUnregisterFatBinary(h);
	CHECK_RT(cudaErrorInvalidDeviceFunction,
		 __cudaGetKernel(&kc, (const void *)stub_a));
}

/* The launch path answers a missing device only after the kernel. */
static void launch_without_device(void)
{
	cudaKernel_t k = NULL;
	void **h = __cudaRegisterFatBinary((void *)&wrapper);
	dim3 one = { 1, 1, 1 };

	need_no_device();
	__cudaRegisterFunction(h, (const char *)(uintptr_t)stub_a,
			       (char *)"_Z1av", "_Z1av", -1, NULL, NULL, NULL,
			       NULL, NULL);
	__cudaRegisterFatBinaryEnd(h);
	CHECK_RT(cudaSuccess, __cudaGetKernel(&k, (const void *)stub_a));
	CHECK_RT(cudaErrorNoDevice,
		 __cudaLaunchKernel(k, one, one, NULL, 0, NULL));
	CHECK_RT(cudaErrorInvalidResourceHandle,
		 __cudaLaunchKernel(NULL, one, one, NULL, 0, NULL));
	CHECK_RT(cudaErrorNoDevice,
		 cudaLaunchKernel((const void *)stub_a, one, one, NULL, 0,
				  NULL));
	/* CUDA 13 on an H100: a function that is no kernel is no handle. */
	CHECK_RT(cudaErrorInvalidResourceHandle,
		 cudaLaunchKernel((const void *)stub_b, one, one, NULL, 0,
				  NULL));
	CHECK_RT(cudaErrorInvalidResourceHandle, cudaGetLastError());
	/*
	 * NVIDIA's runtime dies of SIGSEGV on a NULL configuration (as an
	 * H100 run of rt_misc showed); vgpu's refuses it, before the kernel.
	 */
	CHECK_RT(cudaErrorInvalidValue,
		 cudaLaunchKernelExC(NULL, (const void *)stub_a, NULL));
	CHECK_RT(cudaErrorInvalidValue, cudaGetLastError());
	__cudaUnregisterFatBinary(h);
}

/*
 * NULL where NVIDIA's runtime dies of SIGSEGV (H100 runs of rt_badinput
 * showed it): vgpu's refuses each, device or not.
 */
static void null_outputs_refused(void)
{
	enum cudaDriverEntryPointQueryResult st;
	void *p;

	CHECK_RT(cudaErrorInvalidValue,
		 cudaGetSymbolAddress(NULL, (const void *)&shadow_var));
	CHECK_RT(cudaErrorInvalidValue,
		 cudaGetSymbolSize(NULL, (const void *)&shadow_var));
	CHECK_RT(cudaErrorInvalidValue, cudaStreamGetDevice(NULL, NULL));
	CHECK_RT(cudaErrorInvalidValue,
		 cudaGetDriverEntryPointByVersion(NULL, &p, 13000,
						  cudaEnableDefault, &st));
	CHECK_RT(cudaErrorInvalidValue,
		 cudaGetDriverEntryPointByVersion("cuMemAlloc", NULL, 13000,
						  cudaEnableDefault, &st));
	CHECK_RT(cudaErrorInvalidValue, cudaGetLastError());
	CHECK_RT(cudaSuccess, cudaGetLastError());
}

/* <<<>>> pushes; the stub pops what the innermost push gave. */
static void call_configuration(void)
{
	dim3 g1 = { 4, 2, 1 }, b1 = { 32, 1, 1 }, g2 = { 7, 1, 1 };
	dim3 b2 = { 64, 2, 1 }, g, b;
	cudaStream_t s = NULL;
	size_t shm = 0;

	CHECK(__cudaPushCallConfiguration(g1, b1, 128,
					  (struct CUstream_st *)0x10) == 0);
	CHECK(__cudaPushCallConfiguration(g2, b2, 0, NULL) == 0);
	CHECK_RT(cudaSuccess, __cudaPopCallConfiguration(&g, &b, &shm, &s));
	CHECK(g.x == 7 && b.x == 64 && b.y == 2 && shm == 0 && s == NULL);
	CHECK_RT(cudaSuccess, __cudaPopCallConfiguration(&g, &b, &shm, &s));
	CHECK(g.x == 4 && g.y == 2 && b.x == 32 && shm == 128 &&
	      s == (cudaStream_t)0x10);
	CHECK_RT(cudaErrorMissingConfiguration,
		 __cudaPopCallConfiguration(&g, &b, &shm, &s));
}

/*
 * Every stub of unsupported.c answers cudaErrorNotSupported and makes it
 * the last error. Each is called without arguments: it reads none. Run
 * from the top of the tree (reads libvgpu/rt/unsupported.c).
 */
static void unsupported_answer_not_supported(void)
{
	FILE *f = fopen("libvgpu/rt/unsupported.c", "r");
	void *h = dlopen("build/lib/libcudart.so.13", RTLD_NOW | RTLD_LOCAL);
	char line[256];
	int n = 0;

	if (!f || !h) {
		TAP_FAIL("cannot read unsupported.c or load the library");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		int (*fn)(void);
		char name[128];
		void *sym;

		if (sscanf(line, "RT_UNSUPPORTED(%127[A-Za-z0-9_])", name) != 1)
			continue;
		n++;
		sym = dlsym(h, name);
		if (!sym) {
			TAP_FAIL("%s is not exported", name);
			continue;
		}
		memcpy(&fn, &sym, sizeof(fn));
		if (fn() != cudaErrorNotSupported)
			TAP_FAIL("%s does not answer cudaErrorNotSupported",
				 name);
		if (cudaGetLastError() != cudaErrorNotSupported)
			TAP_FAIL("%s left another last error", name);
	}
	fclose(f);
	/* The list was read: it shrinks as entry points are implemented
	 * (265 stubs when this was written, 69 once graphs were), but not
	 * below the graphics interop's, which cannot exist here. */
	CHECK(n > 20);
	/* The runtime's internals are not exported. */
	CHECK(!dlsym(h, "rt_enter") && !dlsym(h, "rt_error") &&
	      !dlsym(h, "rt_kernel_by_stub") && !dlsym(h, "rt_not_supported"));
}

static const struct tap_test tests[] = {
	TAP_TEST(error_names),
	TAP_TEST(error_names_complete),
	TAP_TEST(error_texts_match_h100),
	TAP_TEST(versions),
	TAP_TEST(no_device),
	TAP_TEST(last_error_per_thread),
	TAP_TEST(registration),
	TAP_TEST(launch_without_device),
	TAP_TEST(null_outputs_refused),
	TAP_TEST(call_configuration),
	TAP_TEST(unsupported_answer_not_supported),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
