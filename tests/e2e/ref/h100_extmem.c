/*
 * Probe of NVIDIA's external memory calls on a real GPU, with the file
 * descriptor of cuMemExportToShareableHandle as the memory imported:
 * cuImportExternalMemory (each handle type and bad descriptor),
 * cuExternalMemoryGetMappedBuffer (offsets, sizes, flags), how the other
 * memory calls see a mapped buffer, cuMemFree of it, and
 * cuDestroyExternalMemory. Output: one "name = value" per line. Not built
 * by the tree: it needs NVIDIA's cuda.h and libcuda. Run on an H100
 * (CUDA 13.0) as  gcc h100_extmem.c -I/usr/local/cuda/include -lcuda &&
 * ./a.out ; its output is h100_extmem.log, which tests/e2e/extmem_api.c
 * follows.
 */
#include <cuda.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define R(name, call) printf("%s = %d\n", name, (int)(call))

static int export_fd(size_t g)
{
	CUmemGenericAllocationHandle h;
	CUmemAllocationProp p;
	int fd = -1;

	memset(&p, 0, sizeof(p));
	p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	if (cuMemCreate(&h, g, &p, 0) ||
	    cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0))
		return -1;
	cuMemRelease(h);
	return fd;
}

int main(void)
{
	CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;
	CUDA_EXTERNAL_MEMORY_BUFFER_DESC b;
	CUexternalMemory em, em2;
	CUdeviceptr p = 0, p2 = 0, base;
	CUcontext ctx;
	CUdevice dev;
	size_t g = 2 << 20, sz;
	unsigned int v;
	int fd, iv, nul;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(&ctx, dev);
	cuCtxSetCurrent(ctx);

	fd = export_fd(g);
	printf("fd ok = %d\n", fd >= 0);
	memset(&d, 0, sizeof(d));
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
	d.handle.fd = fd;
	d.size = g;
	R("import null desc", cuImportExternalMemory(&em, NULL));
	R("import null out", cuImportExternalMemory(NULL, &d));
	d.size = 0;
	R("import size 0", cuImportExternalMemory(&em, &d));
	d.size = g;
	d.flags = 2;
	R("import flags 2", cuImportExternalMemory(&em, &d));
	d.flags = 0;
	d.type = 0;
	R("import type 0", cuImportExternalMemory(&em, &d));
	d.type = 99;
	R("import type 99", cuImportExternalMemory(&em, &d));
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32;
	R("import win32", cuImportExternalMemory(&em, &d));
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
	d.handle.fd = -1;
	R("import fd -1", cuImportExternalMemory(&em, &d));
	nul = open("/dev/null", O_RDWR);
	d.handle.fd = nul;
	R("import dev null", cuImportExternalMemory(&em, &d));
	d.handle.fd = fd;
	printf("fd open after failures = %d\n", fcntl(fd, F_GETFD) >= 0);
	d.size = 2 * g;
	R("import size too big", cuImportExternalMemory(&em2, &d));
	printf("fd open after too big = %d\n", fcntl(fd, F_GETFD) >= 0);
	memset(&b, 0, sizeof(b));
	b.size = 2 * g;
	R("map too big import", cuExternalMemoryGetMappedBuffer(&p, em2, &b) ? 1 :
	  (cuMemFree(p), 0));
	R("destroy too big", cuDestroyExternalMemory(em2));
	d.handle.fd = export_fd(g);
	d.size = g / 2;
	R("import size half", cuImportExternalMemory(&em2, &d));
	b.size = g / 2;
	R("map half", cuExternalMemoryGetMappedBuffer(&p, em2, &b) ? 1 :
	  (cuMemFree(p), 0));
	R("destroy half", cuDestroyExternalMemory(em2));
	d.handle.fd = export_fd(4 * g);
	d.size = 4 * g;
	R("import 4g", cuImportExternalMemory(&em2, &d));
	b.offset = 65536;
	b.size = 65536;
	R("map offset 64k", cuExternalMemoryGetMappedBuffer(&p, em2, &b) ? 1 :
	  (cuMemFree(p), 0));
	b.offset = g;
	b.size = g;
	R("map offset 2m", cuExternalMemoryGetMappedBuffer(&p, em2, &b) ? 1 :
	  (cuMemFree(p), 0));
	b.offset = g;
	b.size = 4096;
	R("map offset 2m size 4k", cuExternalMemoryGetMappedBuffer(&p, em2, &b));
	R("addr range 2m 4k", cuMemGetAddressRange(&base, &sz, p));
	printf("addr range 2m 4k size = %zu\n", sz);
	R("free 2m 4k", cuMemFree(p));
	b.offset = 0;
	b.size = 3 * g;
	R("map 3g", cuExternalMemoryGetMappedBuffer(&p, em2, &b));
	R("map 3g again", cuExternalMemoryGetMappedBuffer(&p2, em2, &b));
	printf("map again same = %d\n", p == p2);
	R("destroy 4g mapped", cuDestroyExternalMemory(em2));
	R("free 3g", cuMemFree(p));
	R("free 3g again", cuMemFree(p2));
	p = p2 = 0;
	fd = export_fd(g);
	d.handle.fd = fd;
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD;
	d.size = g;
	R("import as dmabuf", cuImportExternalMemory(&em, &d));
	printf("fd open after dmabuf = %d\n", fcntl(fd, F_GETFD) >= 0);
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
	d.flags = CUDA_EXTERNAL_MEMORY_DEDICATED;
	R("import", cuImportExternalMemory(&em, &d));
	printf("fd open after import = %d\n", fcntl(fd, F_GETFD) >= 0);

	memset(&b, 0, sizeof(b));
	b.size = g;
	R("map null out", cuExternalMemoryGetMappedBuffer(NULL, em, &b));
	R("map null desc", cuExternalMemoryGetMappedBuffer(&p, em, NULL));
	b.flags = 1;
	R("map flags", cuExternalMemoryGetMappedBuffer(&p, em, &b));
	b.flags = 0;
	b.size = 0;
	R("map size 0", cuExternalMemoryGetMappedBuffer(&p, em, &b));
	b.size = g + 4096;
	R("map too big", cuExternalMemoryGetMappedBuffer(&p, em, &b));
	b.offset = g;
	b.size = 4096;
	R("map offset at end", cuExternalMemoryGetMappedBuffer(&p, em, &b));
	b.offset = 4096;
	b.size = 8192;
	R("map offset 4k", cuExternalMemoryGetMappedBuffer(&p2, em, &b));
	b.offset = 100;
	b.size = 100;
	R("map offset 100", cuExternalMemoryGetMappedBuffer(&p2, em, &b) ? 1 :
	  (printf("offset 100 mod 4096 = %d\n", (int)(p2 % 4096)), cuMemFree(p2)));
	b.offset = 0;
	b.size = g;
	R("map", cuExternalMemoryGetMappedBuffer(&p, em, &b));
	R("memset", cuMemsetD32(p, 0x1234, g / 4));
	v = 0;
	R("read", cuMemcpyDtoH(&v, p + g - 4, 4));
	printf("value = 0x%x\n", v);
	R("addr range", cuMemGetAddressRange(&base, &sz, p + 8));
	printf("addr range base = %lld size = %zu\n", (long long)(base - p), sz);
	R("ptr memtype", cuPointerGetAttribute(&iv, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p));
	printf("ptr memtype value = %d\n", iv);
	R("addr range 4k", cuMemGetAddressRange(&base, &sz, p2 + 8));
	printf("addr range 4k base = %lld size = %zu\n", (long long)(base - p2), sz);
	R("destroy", cuDestroyExternalMemory(em));
	v = 0;
	R("read after destroy", cuMemcpyDtoH(&v, p + 4, 4));
	printf("value after destroy = 0x%x\n", v);
	R("free mapped", cuMemFree(p));
	R("free mapped again", cuMemFree(p));
	R("destroy null", cuDestroyExternalMemory(NULL));
	R("sync", cuCtxSynchronize());
	return 0;
}
