// SPDX-License-Identifier: MIT
// Page-locked and mapped ("zero-copy") host memory: the device allowed to
// map host memory (cudaDeviceMapHost), buffers from cudaHostAlloc with the
// mapped, portable and write-combined flags, malloc'd memory registered
// with cudaHostRegister, and a vector add whose kernel reads and writes
// host memory directly through the device pointers cudaHostGetDevicePointer
// gives. What cudaHostGetFlags and cudaPointerGetAttributes say of each
// kind is printed, and the calls' answers for memory that is not theirs.
#include <stdint.h>

#include "rt.h"

#define N (16 * 1024)

__global__ void vector_add(float *c, const float *a, const float *b, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		c[i] = a[i] + b[i];
}

// What cudaPointerGetAttributes says of @p, whose host address is @host.
static void describe(const char *what, const void *p, const void *host)
{
	struct cudaPointerAttributes pa;
	cudaError_t e;

	memset(&pa, 0x5a, sizeof(pa));
	e = cudaPointerGetAttributes(&pa, p);
	printf("%s: %s, type %d, device %d, host pointer %s, device pointer "
	       "%s\n", what, cudaGetErrorName(e), (int)pa.type, pa.device,
	       !pa.hostPointer ? "NULL" :
	       pa.hostPointer == host ? "the host address" : "another",
	       !pa.devicePointer ? "NULL" :
	       pa.devicePointer == host ? "the host address" : "another");
}

static unsigned int host_flags(const void *p)
{
	unsigned int flags = 0xdead;

	TRY(cudaHostGetFlags(&flags, (void *)p));
	return flags;
}

static int check_sum(const float *c, const float *a, const float *b)
{
	int i, wrong = 0;

	for (i = 0; i < N; i++)
		wrong += c[i] != a[i] + b[i];
	return wrong;
}

int main(void)
{
	struct cudaDeviceProp prop;
	float *a, *b, *c, *da, *db, *dc, *dr;
	unsigned int flags = 0;
	size_t size = N * sizeof(float);
	int i, wrong;
	void *p;

	rt_check_library();
	// Before any work makes the context: host memory is to be mappable.
	TRY(cudaSetDeviceFlags(cudaDeviceMapHost));
	TRY(cudaGetDeviceProperties(&prop, 0));
	EXPECT_TRUE(prop.canMapHostMemory == 1);
	printf("canMapHostMemory %d, unifiedAddressing %d\n",
	       prop.canMapHostMemory, prop.unifiedAddressing);
	TRY(cudaGetDeviceFlags(&flags));
	printf("device flags 0x%x\n", flags);

	TRY(cudaHostAlloc((void **)&a, size, cudaHostAllocMapped));
	TRY(cudaHostAlloc((void **)&b, size,
			  cudaHostAllocMapped | cudaHostAllocPortable));
	TRY(cudaHostAlloc((void **)&c, size,
			  cudaHostAllocMapped | cudaHostAllocWriteCombined));
	printf("cudaHostGetFlags: mapped 0x%x, mapped portable 0x%x, "
	       "mapped write-combined 0x%x\n", host_flags(a), host_flags(b),
	       host_flags(c));
	// Interior pointers belong to their allocation.
	printf("cudaHostGetFlags in the middle of one: 0x%x\n",
	       host_flags(b + N / 2));
	for (i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = (float)(3 * i) * 0.25f;
	}
	TRY(cudaHostGetDevicePointer((void **)&da, a, 0));
	TRY(cudaHostGetDevicePointer((void **)&db, b, 0));
	TRY(cudaHostGetDevicePointer((void **)&dc, c, 0));
	// With unified addressing the device sees host memory at its host
	// address.
	printf("device pointers are the host addresses: %d %d %d\n", da == a,
	       db == b, dc == c);
	vector_add<<<N / 256, 256>>>(dc, da, db, N);
	TRY(cudaGetLastError());
	TRY(cudaDeviceSynchronize());
	wrong = check_sum(c, a, b);
	EXPECT_TRUE(wrong == 0);
	printf("vector add in mapped host memory: %d wrong\n", wrong);
	describe("mapped", a, a);
	describe("mapped write-combined", c, c);
	describe("mapped, one float in", a + 1, a + 1);

	// Ordinary malloc'd memory, registered and mapped: the kernel writes
	// into it.
	float *r = (float *)malloc(size + 100);
	float *ru = (float *)((char *)r + 4);	// not on a page boundary
	memset(r, 0, size + 100);
	printf("cudaHostGetFlags on malloc'd memory: %s\n",
	       cudaGetErrorName(cudaHostGetFlags(&flags, ru)));
	printf("cudaHostGetDevicePointer on malloc'd memory: %s\n",
	       cudaGetErrorName(cudaHostGetDevicePointer(&p, ru, 0)));
	printf("then cudaGetLastError: %s\n",
	       cudaGetErrorName(cudaGetLastError()));
	describe("malloc'd", ru, ru);
	TRY(cudaHostRegister(ru, size,
			     cudaHostRegisterMapped | cudaHostRegisterPortable));
	printf("cudaHostGetFlags on memory registered mapped and portable: "
	       "0x%x\n", host_flags(ru));
	printf("cudaHostRegister of a part of it again: %s\n",
	       cudaGetErrorName(cudaHostRegister(ru + 1024, 64, 0)));
	printf("then cudaGetLastError: %s\n",
	       cudaGetErrorName(cudaGetLastError()));
	TRY(cudaHostGetDevicePointer((void **)&dr, ru, 0));
	printf("its device pointer is its host address: %d\n", dr == ru);
	describe("registered", ru, ru);
	vector_add<<<N / 256, 256>>>(dr, da, db, N);
	TRY(cudaGetLastError());
	TRY(cudaDeviceSynchronize());
	wrong = check_sum(ru, a, b);
	EXPECT_TRUE(wrong == 0);
	printf("vector add into registered malloc'd memory: %d wrong\n",
	       wrong);
	TRY(cudaHostUnregister(ru));
	printf("cudaHostUnregister again: %s\n",
	       cudaGetErrorName(cudaHostUnregister(ru)));
	printf("then cudaGetLastError: %s\n",
	       cudaGetErrorName(cudaGetLastError()));
	free(r);

	// cudaMallocHost is cudaHostAlloc with the default flags; the device
	// was made with cudaDeviceMapHost, so it is mapped all the same.
	float *m;
	TRY(cudaMallocHost((void **)&m, size));
	printf("cudaHostGetFlags on cudaMallocHost memory: 0x%x\n",
	       host_flags(m));
	describe("cudaMallocHost", m, m);
	TRY(cudaHostGetDevicePointer(&p, m, 0));
	for (i = 0; i < N; i++)
		m[i] = -1;
	vector_add<<<N / 256, 256>>>((float *)p, da, db, N);
	TRY(cudaDeviceSynchronize());
	wrong = check_sum(m, a, b);
	EXPECT_TRUE(wrong == 0);
	printf("vector add into cudaMallocHost memory: %d wrong\n", wrong);
	TRY(cudaFreeHost(m));

	// Device memory, for comparison.
	float *dev;
	TRY(cudaMalloc((void **)&dev, 64));
	describe("device memory", dev, NULL);
	printf("cudaHostGetFlags on device memory: %s\n",
	       cudaGetErrorName(cudaHostGetFlags(&flags, dev)));
	printf("cudaFreeHost on device memory: %s\n",
	       cudaGetErrorName(cudaFreeHost(dev)));
	printf("then cudaGetLastError: %s\n",
	       cudaGetErrorName(cudaGetLastError()));
	TRY(cudaFree(dev));
	printf("cudaHostAlloc with flags 0x10: %s\n",
	       cudaGetErrorName(cudaHostAlloc(&p, 64, 0x10)));
	printf("cudaHostRegister with flags 0x10: %s\n",
	       cudaGetErrorName(cudaHostRegister(a, 64, 0x10)));
	printf("cudaHostRegister on page-locked memory: %s\n",
	       cudaGetErrorName(cudaHostRegister(a, 64, 0)));
	printf("then cudaGetLastError: %s\n",
	       cudaGetErrorName(cudaGetLastError()));

	TRY(cudaFreeHost(a));
	TRY(cudaFreeHost(b));
	TRY(cudaFreeHost(c));
	return rt_result();
}
