// SPDX-License-Identifier: MIT
/*
 * Peers between two devices: which pairs can access each other
 * (cuDeviceCanAccessPeer; vgpu devices cannot yet, and a device is no peer
 * of itself), the P2P attributes of each pair (all 0; a device with itself
 * is refused), cuCtxEnablePeerAccess (not supported until issue 17), and a
 * copy from device 0 to device 1 through the host.
 */
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
			bad += can != 0;
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
				if (v) {
					printf("device %d to %d: %s is %d\n", i, j,
					       attrs[a].name, v);
					bad++;
				}
			}
		}
	return bad;
}

/*
 * cuCtxEnablePeerAccess from device 0's context to device 1's: vgpu answers
 * CUDA_ERROR_NOT_SUPPORTED (unsupported.c, issue 17).
 */
static int enable_peer(CUcontext ctx0, CUcontext ctx1)
{
	const char *name = NULL;
	CUresult r;

	TRY(cuCtxSetCurrent(ctx0));
	r = cuCtxEnablePeerAccess(ctx1, 0);
	cuGetErrorName(r, &name);
	printf("cuCtxEnablePeerAccess: %d (%s)\n", (int)r, name ? name : "?");
	return r != CUDA_ERROR_NOT_SUPPORTED;
}

/* A copy from device 0 to device 1 through the host. */
static int copy_across(CUcontext ctx0, CUcontext ctx1)
{
	size_t n = 1 << 18, bytes = n * sizeof(unsigned int), i;
	unsigned int *src = malloc(bytes), *bounce = malloc(bytes),
		     *dst = malloc(bytes);
	CUdeviceptr d0, d1;
	int bad = 0;

	for (i = 0; i < n; i++)
		src[i] = (unsigned int)(i * 2654435761u);
	TRY(cuCtxSetCurrent(ctx0));
	TRY(cuMemAlloc(&d0, bytes));
	TRY(cuMemcpyHtoD(d0, src, bytes));
	TRY(cuMemcpyDtoH(bounce, d0, bytes));
	TRY(cuCtxSetCurrent(ctx1));
	TRY(cuMemAlloc(&d1, bytes));
	TRY(cuMemcpyHtoD(d1, bounce, bytes));
	memset(dst, 0, bytes);
	TRY(cuMemcpyDtoH(dst, d1, bytes));
	for (i = 0; i < n && !bad; i++)
		if (dst[i] != src[i]) {
			printf("word %zu on device 1: %#x, expected %#x\n", i,
			       dst[i], src[i]);
			bad = 1;
		}
	printf("%zu bytes copied from device 0 to device 1 through the host\n",
	       bytes);
	TRY(cuMemFree(d1));
	TRY(cuCtxSetCurrent(ctx0));
	TRY(cuMemFree(d0));
	free(src);
	free(bounce);
	free(dst);
	return bad;
}

int main(void)
{
	CUcontext ctx0, ctx1;
	CUdevice dev0, dev1;
	int count = 0, bad;

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
	TRY(cuCtxCreate(&ctx1, NULL, 0, dev1));
	bad += enable_peer(ctx0, ctx1);
	bad += copy_across(ctx0, ctx1);
	TRY(cuCtxDestroy(ctx1));
	TRY(cuCtxDestroy(ctx0));
	return sample_result(bad);
}
