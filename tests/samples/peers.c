// SPDX-License-Identifier: MIT
/*
 * Peers between two devices, in the manner of NVIDIA's simpleP2P: which
 * pairs can access each other (cuDeviceCanAccessPeer: every pair of vgpu
 * devices, and no device itself), the P2P attributes of each pair (a
 * device with itself is refused), peer access enabled both ways, copies
 * between the devices' memory by the copy engines (cuMemcpyPeer, timed,
 * and plain cuMemcpy by unified addresses), and kernels of each device
 * reading the other's memory and writing their own; then access disabled.
 */
#include <time.h>

#include "sample.h"

static const struct {
	CUdevice_P2PAttribute attr;
	const char *name;
} attrs[] = {
	{ CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, "performance rank" },
	{ CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, "access supported" },
	{ CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, "native atomics" },
	{ CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED, "CUDA array access" },
	{ CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED,
	  "only partial native atomics" },
};

/* What vgpu answers for a pair of devices, attribute by attribute. */
static const int pair_value[] = { 0, 1, 1, 0, 0 };

/* cuDeviceCanAccessPeer and the P2P attributes of every pair. */
static int query_pairs(int count)
{
	int i, j, bad = 0;
	size_t a;

	for (i = 0; i < count; i++)
		for (j = 0; j < count; j++) {
			CUdevice dev, peer;
			int can = -1, v;

			TRY(cuDeviceGet(&dev, i));
			TRY(cuDeviceGet(&peer, j));
			TRY(cuDeviceCanAccessPeer(&can, dev, peer));
			printf("device %d can access device %d: %d\n", i, j, can);
			bad += can != (i != j);
			if (i == j) {
				CUresult r = cuDeviceGetP2PAttribute(&v, attrs[0].attr,
								     dev, peer);

				printf("device %d with itself: P2P attributes answer %d\n",
				       i, (int)r);
				bad += r != CUDA_ERROR_INVALID_DEVICE;
				continue;
			}
			for (a = 0; a < sizeof(attrs) / sizeof(attrs[0]); a++) {
				v = -1;
				TRY(cuDeviceGetP2PAttribute(&v, attrs[a].attr, dev, peer));
				printf("device %d to %d: %s is %d\n", i, j,
				       attrs[a].name, v);
				bad += v != pair_value[a];
			}
		}
	return bad;
}

/* Each context reaches the other's memory from its kernels. */
static int enable_peers(CUcontext ctx0, CUcontext ctx1)
{
	CUresult r;

	TRY(cuCtxSetCurrent(ctx0));
	TRY(cuCtxEnablePeerAccess(ctx1, 0));
	r = cuCtxEnablePeerAccess(ctx1, 0);
	printf("enabling again: %d\n", (int)r);
	TRY(cuCtxSetCurrent(ctx1));
	TRY(cuCtxEnablePeerAccess(ctx0, 0));
	printf("peer access enabled both ways\n");
	return r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int check(const char *what, const float *got, size_t n, float factor)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (got[i] != factor * (float)(i % 4096)) {
			printf("%s: element %zu is %g, expected %g\n", what, i,
			       got[i], factor * (float)(i % 4096));
			return 1;
		}
	printf("%s: %zu elements verified\n", what, n);
	return 0;
}

/*
 * Device 0's buffer copied to device 1 by the engines; device 1's kernel
 * doubles device 0's buffer into its own; device 0's kernel doubles
 * device 1's into its own.
 */
static int copy_and_access(CUcontext ctx0, CUcontext ctx1, CUfunction f0,
			   CUfunction f1)
{
	int n = 1 << 20, bad = 0, rep;
	size_t bytes = n * sizeof(float), i;
	float *h = malloc(bytes);
	CUdeviceptr g0, g1;
	double t;

	for (i = 0; i < (size_t)n; i++)
		h[i] = (float)(i % 4096);
	TRY(cuCtxSetCurrent(ctx1));
	TRY(cuMemAlloc(&g1, bytes));
	TRY(cuCtxSetCurrent(ctx0));
	TRY(cuMemAlloc(&g0, bytes));
	TRY(cuMemcpyHtoD(g0, h, bytes));

	t = now_s();
	for (rep = 0; rep < 8; rep++)
		TRY(cuMemcpyPeer(g1, ctx1, g0, ctx0, bytes));
	TRY(cuCtxSynchronize());
	t = now_s() - t;
	printf("~ cuMemcpyPeer: %.0f MB/s\n", 8 * bytes / t / 1e6);
	TRY(cuMemcpyDtoH(h, g1, bytes));
	bad += check("device 1 after cuMemcpyPeer", h, n, 1.0f);
	memset(h, 0, bytes);
	/* A plain copy goes by the addresses: device 1 back to device 0. */
	TRY(cuMemsetD32(g0, 0, n));
	TRY(cuMemcpy(g0, g1, bytes));
	TRY(cuMemcpyDtoH(h, g0, bytes));
	bad += check("device 0 after cuMemcpy from device 1", h, n, 1.0f);

	/* Device 1's kernel reads device 0's memory. */
	TRY(cuCtxSetCurrent(ctx1));
	{
		void *args[] = { &g1, &g0, &n };

		TRY(cuLaunchKernel(f1, n / 256, 1, 1, 256, 1, 1, 0, NULL, args,
				   NULL));
	}
	TRY(cuCtxSynchronize());
	/* Device 0's kernel reads device 1's. */
	TRY(cuCtxSetCurrent(ctx0));
	{
		void *args[] = { &g0, &g1, &n };

		TRY(cuLaunchKernel(f0, n / 256, 1, 1, 256, 1, 1, 0, NULL, args,
				   NULL));
	}
	TRY(cuCtxSynchronize());
	TRY(cuMemcpyDtoH(h, g1, bytes));
	bad += check("device 1 written by its kernel from device 0's memory",
		     h, n, 2.0f);
	TRY(cuMemcpyDtoH(h, g0, bytes));
	bad += check("device 0 written by its kernel from device 1's memory",
		     h, n, 4.0f);
	TRY(cuMemFree(g0));
	TRY(cuCtxSetCurrent(ctx1));
	TRY(cuMemFree(g1));
	free(h);
	return bad;
}

static int disable_peers(CUcontext ctx0, CUcontext ctx1)
{
	CUresult r;

	TRY(cuCtxSetCurrent(ctx0));
	TRY(cuCtxDisablePeerAccess(ctx1));
	r = cuCtxDisablePeerAccess(ctx1);
	printf("disabling again: %d\n", (int)r);
	TRY(cuCtxSetCurrent(ctx1));
	TRY(cuCtxDisablePeerAccess(ctx0));
	return r != CUDA_ERROR_PEER_ACCESS_NOT_ENABLED;
}

int main(int argc, char **argv)
{
	CUcontext ctx0, ctx1;
	CUdevice dev0, dev1;
	CUmodule mod0, mod1;
	char path[4096];
	int count = 0, bad;

	snprintf(path, sizeof(path), "%s", argc > 1 ? argv[1] :
		 PTX_DIR "/peers.ptx");
	TRY(cuInit(0));
	TRY(cuDeviceGetCount(&count));
	printf("%d devices\n", count);
	if (count < 2) {
		printf("peers needs two devices (num_devices=2)\n");
		return sample_result(1);
	}
	bad = query_pairs(count);
	TRY(cuDeviceGet(&dev0, 0));
	TRY(cuDeviceGet(&dev1, 1));
	TRY(cuCtxCreate(&ctx0, NULL, 0, dev0));
	TRY(cuModuleLoad(&mod0, path));
	TRY(cuCtxCreate(&ctx1, NULL, 0, dev1));
	TRY(cuModuleLoad(&mod1, path));
	bad += enable_peers(ctx0, ctx1);
	bad += copy_and_access(ctx0, ctx1, sample_func(mod0, "scale2"),
			       sample_func(mod1, "scale2"));
	bad += disable_peers(ctx0, ctx1);
	TRY(cuCtxDestroy(ctx1));
	TRY(cuCtxDestroy(ctx0));
	return sample_result(bad);
}
