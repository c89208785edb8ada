// SPDX-License-Identifier: MIT
/*
 * External memory: cuImportExternalMemory, cuExternalMemoryGetMappedBuffer,
 * cuMemFree of a mapped buffer and cuDestroyExternalMemory, each call held
 * to an H100's answers for the same sequence over the descriptor of
 * cuMemExportToShareableHandle (tests/e2e/ref/h100_extmem.log, from
 * ref/h100_extmem.c there); and a dma-buf of another driver, vgem's,
 * imported as CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD (which the H100,
 * having no dma-buf importer on x86, refuses with NOT_SUPPORTED), read and
 * written by a kernel and seen through vgem's mapping.
 */
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_extmem.log"
#include "h100_log.h"
#include "vgem.h"

#define G (2u << 20)

static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .entry inc(.param .u64 a, .param .u32 n)\n{\n"
	"\t.reg .u64 %rd<4>;\n\t.reg .u32 %r<6>;\n\t.reg .pred %p;\n"
	"\tld.param.u64 %rd1, [a];\n\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
	"\tmov.u32 %r4, %tid.x;\n\tmad.lo.u32 %r2, %r2, %r3, %r4;\n"
	"\tsetp.ge.u32 %p, %r2, %r1;\n\t@%p ret;\n"
	"\tmul.wide.u32 %rd2, %r2, 4;\n\tadd.u64 %rd3, %rd1, %rd2;\n"
	"\tld.global.u32 %r5, [%rd3];\n\tadd.u32 %r5, %r5, 1;\n"
	"\tst.global.u32 [%rd3], %r5;\n\tret;\n}\n";

static CUfunction inc;

static void setup(void)
{
	CUcontext ctx;
	CUdevice dev;
	CUmodule mod;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGet(&dev, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&inc, mod, "inc"));
}

/* A descriptor of @size bytes of device memory, as the H100 probe makes. */
static int export_fd(size_t size)
{
	CUmemGenericAllocationHandle h;
	CUmemAllocationProp p;
	int fd = -1;

	memset(&p, 0, sizeof(p));
	p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	if (cuMemCreate(&h, size, &p, 0) ||
	    cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0))
		return -1;
	cuMemRelease(h);
	return fd;
}

static int fd_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

static CUresult map_free(CUdeviceptr *p, CUexternalMemory em,
			 CUDA_EXTERNAL_MEMORY_BUFFER_DESC *b)
{
	CUresult r = cuExternalMemoryGetMappedBuffer(p, em, b);

	return r ? CUDA_ERROR_INVALID_VALUE : cuMemFree(*p);
}

static void import_rules(void)
{
	CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;
	CUDA_EXTERNAL_MEMORY_BUFFER_DESC b;
	CUexternalMemory em;
	CUdeviceptr p;
	int fd, nul;

	setup();
	fd = export_fd(G);
	CHECK(fd >= 0);
	memset(&d, 0, sizeof(d));
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
	d.handle.fd = fd;
	d.size = G;
	CHECK_RES(h100("import null desc"), cuImportExternalMemory(&em, NULL));
	CHECK_RES(h100("import null out"), cuImportExternalMemory(NULL, &d));
	d.size = 0;
	CHECK_RES(h100("import size 0"), cuImportExternalMemory(&em, &d));
	d.size = G;
	d.flags = 2;
	CHECK_RES(h100("import flags 2"), cuImportExternalMemory(&em, &d));
	d.flags = 0;
	d.type = 0;
	CHECK_RES(h100("import type 0"), cuImportExternalMemory(&em, &d));
	d.type = 99;
	CHECK_RES(h100("import type 99"), cuImportExternalMemory(&em, &d));
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32;
	CHECK_RES(h100("import win32"), cuImportExternalMemory(&em, &d));
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
	d.handle.fd = -1;
	CHECK_RES(h100("import fd -1"), cuImportExternalMemory(&em, &d));
	nul = open("/dev/null", O_RDWR);
	d.handle.fd = nul;
	CHECK_RES(h100("import dev null"), cuImportExternalMemory(&em, &d));
	close(nul);
	d.handle.fd = fd;
	CHECK(fd_open(fd) == h100("fd open after failures"));

	/* A size past the memory's is taken; mapping past it is not. */
	d.size = 2 * G;
	CHECK_RES(h100("import size too big"), cuImportExternalMemory(&em, &d));
	CHECK(fd_open(fd) == h100("fd open after too big"));
	memset(&b, 0, sizeof(b));
	b.size = 2 * G;
	CHECK_RES(h100("map too big import"), map_free(&p, em, &b));
	CHECK_RES(h100("destroy too big"), cuDestroyExternalMemory(em));

	d.handle.fd = export_fd(G);
	d.size = G / 2;
	CHECK_RES(h100("import size half"), cuImportExternalMemory(&em, &d));
	b.size = G / 2;
	CHECK_RES(h100("map half"), map_free(&p, em, &b));
	CHECK_RES(h100("destroy half"), cuDestroyExternalMemory(em));
}

static void map_rules(void)
{
	CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;
	CUDA_EXTERNAL_MEMORY_BUFFER_DESC b;
	CUexternalMemory em;
	CUdeviceptr p, p2, base;
	unsigned int v;
	long long hb = -1;
	size_t sz, hs = 0;
	int iv;

	setup();
	memset(&d, 0, sizeof(d));
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
	d.handle.fd = export_fd(4 * G);
	d.size = 4 * G;
	CHECK_RES(h100("import 4g"), cuImportExternalMemory(&em, &d));
	memset(&b, 0, sizeof(b));
	b.offset = 65536;
	b.size = 65536;
	CHECK_RES(h100("map offset 64k"), map_free(&p, em, &b));
	b.offset = G;
	b.size = G;
	CHECK_RES(h100("map offset 2m"), map_free(&p, em, &b));
	b.size = 4096;
	CHECK_RES(h100("map offset 2m size 4k"), cuExternalMemoryGetMappedBuffer(&p, em, &b));
	CHECK_RES(h100("addr range 2m 4k"), cuMemGetAddressRange(&base, &sz, p));
	CHECK(sz == (size_t)h100_value("addr range 2m 4k size", ""));
	CHECK_RES(h100("free 2m 4k"), cuMemFree(p));
	b.offset = 0;
	b.size = 3 * G;
	CHECK_RES(h100("map 3g"), cuExternalMemoryGetMappedBuffer(&p, em, &b));
	CHECK_RES(h100("map 3g again"), cuExternalMemoryGetMappedBuffer(&p2, em, &b));
	CHECK((p == p2) == h100("map again same"));
	CHECK_RES(h100("destroy 4g mapped"), cuDestroyExternalMemory(em));
	CHECK_RES(h100("free 3g"), cuMemFree(p));
	CHECK_RES(h100("free 3g again"), cuMemFree(p2));

	/* The DMABUF_FD type: the H100 refuses it, vgpu takes dma-bufs. */
	d.handle.fd = export_fd(G);
	d.size = G;
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD;
	CHECK(h100("import as dmabuf") == CUDA_ERROR_NOT_SUPPORTED);
	CHECK_RES(CUDA_SUCCESS, cuImportExternalMemory(&em, &d));
	CHECK(!fd_open(d.handle.fd));
	CHECK_RES(CUDA_SUCCESS, cuDestroyExternalMemory(em));

	d.handle.fd = export_fd(G);
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
	d.flags = CUDA_EXTERNAL_MEMORY_DEDICATED;
	CHECK_RES(h100("import"), cuImportExternalMemory(&em, &d));
	CHECK(fd_open(d.handle.fd) == h100("fd open after import"));
	b.size = G;
	CHECK_RES(h100("map null out"), cuExternalMemoryGetMappedBuffer(NULL, em, &b));
	CHECK_RES(h100("map null desc"), cuExternalMemoryGetMappedBuffer(&p, em, NULL));
	b.flags = 1;
	CHECK_RES(h100("map flags"), cuExternalMemoryGetMappedBuffer(&p, em, &b));
	b.flags = 0;
	b.size = 0;
	CHECK_RES(h100("map size 0"), cuExternalMemoryGetMappedBuffer(&p, em, &b));
	b.size = G + 4096;
	CHECK_RES(h100("map too big"), cuExternalMemoryGetMappedBuffer(&p, em, &b));
	b.offset = G;
	b.size = 4096;
	CHECK_RES(h100("map offset at end"), cuExternalMemoryGetMappedBuffer(&p, em, &b));
	b.offset = 4096;
	b.size = 8192;
	CHECK_RES(h100("map offset 4k"), cuExternalMemoryGetMappedBuffer(&p2, em, &b));
	b.offset = 100;
	b.size = 100;
	CHECK_RES(h100("map offset 100"), cuExternalMemoryGetMappedBuffer(&p2, em, &b));
	b.offset = 0;
	b.size = G;
	CHECK_RES(h100("map"), cuExternalMemoryGetMappedBuffer(&p, em, &b));
	CHECK_RES(h100("memset"), cuMemsetD32(p, 0x1234, G / 4));
	v = 0;
	CHECK_RES(h100("read"), cuMemcpyDtoH(&v, p + G - 4, 4));
	CHECK(v == (unsigned int)strtoul(h100_line("value"), NULL, 0));
	CHECK_RES(h100("addr range"), cuMemGetAddressRange(&base, &sz, p + 8));
	CHECK(sscanf(h100_line("addr range base"), "%lld size = %zu", &hb, &hs) == 2);
	CHECK((long long)(base - p) == hb && sz == hs);
	CHECK_RES(h100("ptr memtype"), cuPointerGetAttribute(&iv, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, p));
	CHECK(iv == h100("ptr memtype value"));
	CHECK_RES(h100("destroy"), cuDestroyExternalMemory(em));
	v = 0;
	CHECK_RES(h100("read after destroy"), cuMemcpyDtoH(&v, p + 4, 4));
	CHECK(v == (unsigned int)strtoul(h100_line("value after destroy"), NULL, 0));
	CHECK_RES(h100("free mapped"), cuMemFree(p));
	CHECK_RES(h100("free mapped again"), cuMemFree(p));
	CHECK_RES(h100("destroy null"), cuDestroyExternalMemory(NULL));
	CHECK_RES(h100("sync"), cuCtxSynchronize());
}

/*
 * A vgem buffer of 40 KiB (no whole granule): mapped whole, incremented
 * by a kernel, checked through vgem's mapping; its end is the end of
 * what the device reaches.
 */
static void vgem_buffer(void)
{
	struct drm_mode_create_dumb cd = { .width = 1024, .height = 10, .bpp = 32 };
	struct drm_mode_map_dumb md = { 0 };
	CUDA_EXTERNAL_MEMORY_HANDLE_DESC d;
	CUDA_EXTERNAL_MEMORY_BUFFER_DESC b;
	CUexternalMemory em;
	CUdeviceptr p, base;
	unsigned int *w, i, n, bad = 0;
	void *args[2];
	size_t sz;
	int vgem = open_vgem(), fd;

	if (vgem < 0) {
		TAP_SKIP("no vgem");
		return;
	}
	setup();
	REQUIRE_RES(0, drmIoctl(vgem, DRM_IOCTL_MODE_CREATE_DUMB, &cd));
	md.handle = cd.handle;
	REQUIRE_RES(0, drmIoctl(vgem, DRM_IOCTL_MODE_MAP_DUMB, &md));
	w = mmap(NULL, cd.size, PROT_READ | PROT_WRITE, MAP_SHARED, vgem, md.offset);
	REQUIRE_RES(1, w != MAP_FAILED);
	n = cd.size / 4;
	for (i = 0; i < n; i++)
		w[i] = i * 10;
	REQUIRE_RES(0, drmPrimeHandleToFD(vgem, cd.handle, DRM_CLOEXEC | DRM_RDWR, &fd));

	memset(&d, 0, sizeof(d));
	d.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD;
	d.handle.fd = fd;
	d.size = cd.size;
	REQUIRE_RES(CUDA_SUCCESS, cuImportExternalMemory(&em, &d));
	memset(&b, 0, sizeof(b));
	b.size = cd.size;
	REQUIRE_RES(CUDA_SUCCESS, cuExternalMemoryGetMappedBuffer(&p, em, &b));
	CHECK_RES(CUDA_SUCCESS, cuMemGetAddressRange(&base, &sz, p + 100));
	CHECK(base == p && sz == cd.size);
	args[0] = &p;
	args[1] = &n;
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(inc, (n + 255) / 256, 1, 1, 256, 1, 1,
					       0, NULL, args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	for (i = 0; i < n; i++)
		bad += w[i] != i * 10 + 1;
	CHECK(bad == 0);
	/* Past the buffer's end: the copy is refused. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyDtoH(&i, p + cd.size, 4));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(p));

	/* An offset past the buffer's end is refused. */
	b.offset = 65536;
	b.size = 4096;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&p, em, &b));
	CHECK_RES(CUDA_SUCCESS, cuDestroyExternalMemory(em));
	munmap(w, cd.size);
	drmCloseBufferHandle(vgem, cd.handle);
	close(vgem);
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(import_rules),
		TAP_TEST(map_rules),
		TAP_TEST(vgem_buffer),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
