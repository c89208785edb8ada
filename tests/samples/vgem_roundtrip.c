// SPDX-License-Identifier: MIT
/*
 * Sharing buffers with another Linux driver through dma-buf, both ways,
 * with vgem (the kernel's virtual GEM driver) through libdrm:
 *  1. vgem creates a buffer, the CPU fills it through vgem's mapping,
 *     drmPrimeHandleToFD exports it, cuImportExternalMemory imports the
 *     descriptor and cuExternalMemoryGetMappedBuffer gives it a device
 *     address; a kernel rewrites it in place, and the CPU reads the
 *     kernel's results back through vgem's mapping;
 *  2. cuMemCreate makes device memory that a kernel fills,
 *     cuMemExportToShareableHandle exports it, vgem imports it with
 *     drmPrimeFDToHandle and hands it out again (drmPrimeHandleToFD), and
 *     the CPU checks the kernel's results through that buffer's mapping,
 *     then writes it for a second kernel to read.
 * Run as root where vgem can be loaded (modprobe vgem), or with access to
 * its node in /dev/dri.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>

#include "sample.h"

#define N (1u << 18)		/* 1 MiB of words */
#define BLOCK 256

static CUfunction scale_add;

/* vgem's DRM node, loading the module if need be; -1 if there is none. */
static int open_vgem(void)
{
	char path[32];
	int i, fd, tries;

	for (tries = 0; tries < 2; tries++) {
		for (i = 0; i < 16; i++) {
			drmVersionPtr v;

			snprintf(path, sizeof(path), "/dev/dri/card%d", i);
			fd = open(path, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				continue;
			v = drmGetVersion(fd);
			if (v && !strcmp(v->name, "vgem")) {
				drmFreeVersion(v);
				return fd;
			}
			drmFreeVersion(v);
			close(fd);
		}
		if (system("modprobe vgem >/dev/null 2>&1"))
			break;
	}
	return -1;
}

static void run(CUdeviceptr p, unsigned int mul, unsigned int add)
{
	unsigned int n = N;
	void *args[] = { &p, &n, &mul, &add };

	TRY(cuLaunchKernel(scale_add, N / BLOCK, 1, 1, BLOCK, 1, 1, 0, NULL,
			   args, NULL));
	TRY(cuCtxSynchronize());
}

/* Words of @p that are not @mul * i + @add; prints the first. */
static int check(const unsigned int *p, unsigned int mul, unsigned int add,
		 const char *what)
{
	unsigned int i, bad = 0;

	for (i = 0; i < N; i++) {
		if (p[i] != i * mul + add && !bad++)
			printf("%s: word %u is %u, not %u\n", what, i, p[i],
			       i * mul + add);
	}
	return bad;
}

/* 1: vgem's buffer, rewritten by a kernel. */
static int vgem_to_gpu(int vgem)
{
	struct drm_mode_create_dumb cd = { .width = 1024, .height = N / 1024,
					   .bpp = 32 };
	struct drm_mode_map_dumb md = { 0 };
	CUDA_EXTERNAL_MEMORY_HANDLE_DESC hd = { 0 };
	CUDA_EXTERNAL_MEMORY_BUFFER_DESC bd = { 0 };
	CUexternalMemory ext;
	CUdeviceptr dptr;
	unsigned int *p, i;
	int fd, bad;

	TRY(drmIoctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &cd) ?
	    CUDA_ERROR_OPERATING_SYSTEM : CUDA_SUCCESS);
	md.handle = cd.handle;
	TRY(drmIoctl(vgem, DRM_IOCTL_MODE_MAP_DUMB, &md) ?
	    CUDA_ERROR_OPERATING_SYSTEM : CUDA_SUCCESS);
	p = mmap(NULL, cd.size, PROT_READ | PROT_WRITE, MAP_SHARED, vgem,
		 md.offset);
	if (p == MAP_FAILED)
		return 1;
	for (i = 0; i < N; i++)
		p[i] = i;
	TRY(drmPrimeHandleToFD(vgem, cd.handle, DRM_CLOEXEC | DRM_RDWR, &fd) ?
	    CUDA_ERROR_OPERATING_SYSTEM : CUDA_SUCCESS);

	hd.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD;
	hd.handle.fd = fd;
	hd.size = cd.size;
	TRY(cuImportExternalMemory(&ext, &hd));	/* owns fd from here */
	bd.size = cd.size;
	TRY(cuExternalMemoryGetMappedBuffer(&dptr, ext, &bd));
	run(dptr, 3, 7);
	bad = check(p, 3, 7, "vgem's mapping after the kernel");
	printf("vgem buffer -> kernel -> vgem mapping: %s\n",
	       bad ? "wrong" : "the kernel's results");
	TRY(cuMemFree(dptr));
	TRY(cuDestroyExternalMemory(ext));
	munmap(p, cd.size);
	drmCloseBufferHandle(vgem, cd.handle);
	return bad;
}

/* 2: device memory, seen by vgem. */
static int gpu_to_vgem(int vgem)
{
	CUmemAllocationProp prop = { 0 };
	CUmemAccessDesc acc = { 0 };
	CUmemGenericAllocationHandle h;
	CUdeviceptr dptr;
	size_t gran, size;
	unsigned int *p, i, bo;
	int fd, fd2, bad;

	prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	TRY(cuMemGetAllocationGranularity(&gran, &prop,
					  CU_MEM_ALLOC_GRANULARITY_MINIMUM));
	size = (N * 4 + gran - 1) / gran * gran;
	TRY(cuMemCreate(&h, size, &prop, 0));
	TRY(cuMemAddressReserve(&dptr, size, 0, 0, 0));
	TRY(cuMemMap(dptr, size, 0, h, 0));
	acc.location = prop.location;
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	TRY(cuMemSetAccess(dptr, size, &acc, 1));
	TRY(cuMemsetD32(dptr, 0, N));
	run(dptr, 1, 5);		/* p[i] = 5 */
	TRY(cuMemExportToShareableHandle(&fd, h,
		CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));

	TRY(drmPrimeFDToHandle(vgem, fd, &bo) ?
	    CUDA_ERROR_OPERATING_SYSTEM : CUDA_SUCCESS);
	close(fd);
	/* DRM maps no imported buffer through its node: through its fd. */
	TRY(drmPrimeHandleToFD(vgem, bo, DRM_CLOEXEC | DRM_RDWR, &fd2) ?
	    CUDA_ERROR_OPERATING_SYSTEM : CUDA_SUCCESS);
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd2, 0);
	close(fd2);
	if (p == MAP_FAILED)
		return 1;
	bad = check(p, 0, 5, "vgem's import of the kernel's results");
	for (i = 0; i < N; i++)
		p[i] = i;
	run(dptr, 2, 1);
	bad += check(p, 2, 1, "the second kernel's results");
	printf("device memory -> vgem -> CPU -> kernel: %s\n",
	       bad ? "wrong" : "the kernels' results");
	munmap(p, size);
	drmCloseBufferHandle(vgem, bo);
	TRY(cuMemUnmap(dptr, size));
	TRY(cuMemAddressFree(dptr, size));
	TRY(cuMemRelease(h));
	return bad;
}

int main(int argc, char **argv)
{
	CUmodule mod = sample_open(argc, argv, "vgem_roundtrip");
	int vgem = open_vgem(), bad;

	if (vgem < 0) {
		printf("no vgem: nothing to share buffers with\n");
		return sample_result(1);
	}
	scale_add = sample_func(mod, "scale_add");
	bad = vgem_to_gpu(vgem);
	bad += gpu_to_vgem(vgem);
	close(vgem);
	return sample_result(bad);
}
