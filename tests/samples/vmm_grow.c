// SPDX-License-Identifier: MIT
/*
 * Growing a buffer in place with the virtual memory management calls, as
 * a driver-API program would: reserve a range much larger than needed,
 * back its start with one handle of the allocation granularity, fill it
 * with a kernel, then map a second handle right after the first, give the
 * device access to both, and run a kernel over the whole grown buffer,
 * which sees the old contents where they were. Every element is checked
 * on the host.
 */
#include "sample.h"

#define THREADS 256

static void launch(CUfunction f, unsigned int n, void **args)
{
	TRY(cuLaunchKernel(f, (n + THREADS - 1) / THREADS, 1, 1, THREADS, 1, 1,
			   0, 0, args, NULL));
}

/* A new handle of @size bytes of device 0's memory, mapped at @va. */
static CUmemGenericAllocationHandle back(CUdeviceptr va, size_t size)
{
	CUmemAllocationProp prop;
	CUmemGenericAllocationHandle h;

	memset(&prop, 0, sizeof(prop));
	prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	prop.location.id = 0;
	TRY(cuMemCreate(&h, size, &prop, 0));
	TRY(cuMemMap(va, size, 0, h, 0));
	return h;
}

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "vmm_grow");
	CUfunction fill = sample_func(mod, "fill");
	CUfunction grow = sample_func(mod, "grow");
	CUmemGenericAllocationHandle h[2];
	CUmemAllocationProp prop;
	CUmemAccessDesc access;
	unsigned int old, n, i, *host;
	size_t gran, reserved;
	CUdeviceptr va;
	int vmm = 0, bad = 0;

	TRY(cuDeviceGetAttribute(&vmm,
		CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0));
	if (!vmm) {
		printf("virtual memory management is not supported\n");
		return sample_result(1);
	}
	memset(&prop, 0, sizeof(prop));
	prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	TRY(cuMemGetAllocationGranularity(&gran, &prop,
					  CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
	reserved = 64 * gran;
	TRY(cuMemAddressReserve(&va, reserved, 0, 0, 0));

	memset(&access, 0, sizeof(access));
	access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	access.location.id = 0;
	access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;

	/* The first part: one handle, filled by a kernel. */
	h[0] = back(va, gran);
	TRY(cuMemSetAccess(va, gran, &access, 1));
	old = gran / sizeof(unsigned int);
	{
		void *args[] = { &va, &old };

		launch(fill, old, args);
	}
	TRY(cuCtxSynchronize());

	/* Grown: a second handle right after, access to the whole buffer. */
	h[1] = back(va + gran, gran);
	TRY(cuMemSetAccess(va, 2 * gran, &access, 1));
	n = 2 * old;
	{
		void *args[] = { &va, &old, &n };

		launch(grow, n, args);
	}
	host = malloc((size_t)n * sizeof(*host));
	if (!host)
		return sample_result(1);
	TRY(cuMemcpyDtoH(host, va, (size_t)n * sizeof(*host)));
	for (i = 0; i < n; i++)
		if (host[i] != 2 * i + 1 && bad++ < 5)
			printf("element %u: %u, expected %u\n", i, host[i],
			       2 * i + 1);
	printf("grew a buffer from %zu to %zu bytes of a %zu-byte reservation"
	       " in place: %u elements, %d wrong\n", gran, 2 * gran, reserved,
	       n, bad);

	TRY(cuMemUnmap(va, 2 * gran));
	TRY(cuMemRelease(h[0]));
	TRY(cuMemRelease(h[1]));
	TRY(cuMemAddressFree(va, reserved));
	free(host);
	return sample_result(bad);
}
