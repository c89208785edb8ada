// SPDX-License-Identifier: MIT
// External memory through the runtime: device memory another party hands
// over as a file descriptor (here the driver API's own, from cuMemCreate
// and cuMemExportToShareableHandle, as a Vulkan or DRM driver would hand
// one over), imported with cudaImportExternalMemory, mapped twice with
// cudaExternalMemoryGetMappedBuffer, written by a kernel through one
// mapping and read through the other; bad input to each call.
#include <fcntl.h>
#include <unistd.h>

#include <cuda.h>

#include "rt.h"

#define CU_TRY(call) do { \
	CUresult _r = (call); \
	if (_r != CUDA_SUCCESS) { \
		fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, \
			__LINE__, #call, (int)_r); \
		printf("Result = FAIL\n"); \
		exit(1); \
	} \
} while (0)

__global__ void fill(unsigned int *p, unsigned int n)
{
	unsigned int i = blockDim.x * blockIdx.x + threadIdx.x;

	if (i < n)
		p[i] = i * 3 + 1;
}

static void say(const char *what, cudaError_t e)
{
	printf("%s: %s\n", what, cudaGetErrorName(e));
}

static bool fd_open(int fd)
{
	return fcntl(fd, F_GETFD) != -1;
}

// A POSIX file descriptor of @size bytes of device 0's memory.
static int export_memory(size_t *size, CUmemGenericAllocationHandle *h)
{
	CUmemAllocationProp prop = {};
	size_t gran = 0;
	int fd = -1;

	prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	prop.location.id = 0;
	prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	CU_TRY(cuMemGetAllocationGranularity(&gran, &prop,
					     CU_MEM_ALLOC_GRANULARITY_MINIMUM));
	CU_TRY(cuMemCreate(h, gran, &prop, 0));
	CU_TRY(cuMemExportToShareableHandle(&fd, *h,
					    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	*size = gran;
	return fd;
}

static void bad_imports(int fd, size_t size)
{
	struct cudaExternalMemoryHandleDesc d = {};
	cudaExternalMemory_t ext = NULL;

	d.type = cudaExternalMemoryHandleTypeOpaqueFd;
	d.handle.fd = fd;
	d.size = size;
	say("import with no descriptor", cudaImportExternalMemory(&ext, NULL));
	say("import with no output", cudaImportExternalMemory(NULL, &d));
	d.size = 0;
	say("import of 0 bytes", cudaImportExternalMemory(&ext, &d));
	d.size = size;
	d.flags = 2;
	say("import with unknown flags", cudaImportExternalMemory(&ext, &d));
	d.flags = 0;
	d.type = (enum cudaExternalMemoryHandleType)0;
	say("import of handle type 0", cudaImportExternalMemory(&ext, &d));
	d.type = cudaExternalMemoryHandleTypeOpaqueWin32;
	say("import of a Win32 handle", cudaImportExternalMemory(&ext, &d));
	d.type = cudaExternalMemoryHandleTypeOpaqueFd;
	d.handle.fd = -1;
	say("import of descriptor -1", cudaImportExternalMemory(&ext, &d));
	say("then cudaGetLastError", cudaGetLastError());
	printf("descriptor still open after the refusals: %d\n", fd_open(fd));
}

static void bad_maps(cudaExternalMemory_t ext, size_t size)
{
	struct cudaExternalMemoryBufferDesc b = {};
	void *p = NULL;

	b.size = size;
	say("map with no output",
	    cudaExternalMemoryGetMappedBuffer(NULL, ext, &b));
	say("map with no descriptor",
	    cudaExternalMemoryGetMappedBuffer(&p, ext, NULL));
	b.flags = 1;
	say("map with flags", cudaExternalMemoryGetMappedBuffer(&p, ext, &b));
	b.flags = 0;
	b.size = 0;
	say("map of 0 bytes", cudaExternalMemoryGetMappedBuffer(&p, ext, &b));
	b.size = size + 4096;
	say("map past the end", cudaExternalMemoryGetMappedBuffer(&p, ext, &b));
	b.offset = size;
	b.size = 4096;
	say("map at the end", cudaExternalMemoryGetMappedBuffer(&p, ext, &b));
	say("then cudaGetLastError", cudaGetLastError());
}

int main(void)
{
	struct cudaExternalMemoryHandleDesc d = {};
	struct cudaExternalMemoryBufferDesc b = {};
	CUmemGenericAllocationHandle h;
	cudaExternalMemory_t ext = NULL;
	unsigned int *whole = NULL, *part = NULL, *host;
	unsigned int n, i, bad = 0;
	size_t size;
	int fd;

	rt_check_library();
	TRY(cudaFree(0));
	fd = export_memory(&size, &h);
	n = size / sizeof(*host);
	bad_imports(fd, size);

	d.type = cudaExternalMemoryHandleTypeOpaqueFd;
	d.handle.fd = fd;
	d.size = size;
	say("import", cudaImportExternalMemory(&ext, &d));
	// A successful import owns the descriptor.
	printf("descriptor still open after the import: %d\n", fd_open(fd));
	bad_maps(ext, size);

	b.size = size;
	say("map the whole", cudaExternalMemoryGetMappedBuffer((void **)&whole, ext, &b));
	b.offset = 65536;
	b.size = 65536;
	say("map 64 KiB at 64 KiB", cudaExternalMemoryGetMappedBuffer((void **)&part, ext, &b));
	printf("the mappings are apart: %d\n", whole != part);

	fill<<<(n + 255) / 256, 256>>>(whole, n);
	TRY(cudaGetLastError());
	host = (unsigned int *)malloc(size);
	TRY(cudaMemcpy(host, part, 65536, cudaMemcpyDeviceToHost));
	for (i = 0; i < 65536 / sizeof(*host); i++)
		bad += host[i] != (65536 / sizeof(*host) + i) * 3 + 1;
	printf("words wrong through the second mapping: %u\n", bad);
	TRY(cudaMemcpy(host, whole, size, cudaMemcpyDeviceToHost));
	for (i = 0, bad = 0; i < n; i++)
		bad += host[i] != i * 3 + 1;
	printf("words wrong through the first mapping: %u\n", bad);

	// An offset off the 64 KiB grid the driver's mappings keep to.
	{
		unsigned int *odd = NULL, w = 0;
		cudaError_t e;

		b.offset = 100;
		b.size = 4096;
		e = cudaExternalMemoryGetMappedBuffer((void **)&odd, ext, &b);
		say("map at byte 100", e);
		if (e == cudaSuccess) {
			TRY(cudaMemcpy(&w, odd, 4, cudaMemcpyDeviceToHost));
			printf("it starts at byte 100: %d\n", w == host[25]);
			printf("its address modulo 64 KiB: %u\n",
			       (unsigned int)((uintptr_t)odd % 65536));
			say("free it", cudaFree(odd));
		}
	}
	{
		struct cudaPointerAttributes a;

		TRY(cudaPointerGetAttributes(&a, part));
		printf("a mapping is device memory: %d\n", a.type == cudaMemoryTypeDevice);
	}
	// The memory stays while a mapping does, past the import's end.
	say("destroy", cudaDestroyExternalMemory(ext));
	TRY(cudaMemcpy(host, part, 4, cudaMemcpyDeviceToHost));
	printf("word read after destroying: %u\n", host[0]);
	say("free the first mapping", cudaFree(whole));
	say("free the second mapping", cudaFree(part));
	say("free it again", cudaFree(part));
	say("then cudaGetLastError", cudaGetLastError());
	say("destroy NULL", cudaDestroyExternalMemory(NULL));
	say("then cudaGetLastError", cudaGetLastError());
	CU_TRY(cuMemRelease(h));
	TRY(cudaDeviceSynchronize());
	free(host);
	return rt_result();
}
