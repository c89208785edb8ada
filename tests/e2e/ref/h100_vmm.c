/*
 * Probe of NVIDIA's virtual memory management calls on a real GPU:
 * granularity, cuMemCreate and its properties, address reservations,
 * mapping and unmapping, access rights, retaining and releasing handles,
 * growing a buffer by mapping more memory after it, export to a file
 * descriptor and import in this process and in another one, how the other
 * memory calls see such memory, and the return codes of bad calls.
 * Output: one "name = value" per line. Not built by the tree: it needs
 * NVIDIA's cuda.h and libcuda. Run on an H100 (CUDA 13.0) as
 *   gcc h100_vmm.c -I/usr/local/cuda/include -lcuda -o vmm &&
 *   ./vmm; ./vmm noaccess; ./vmm readonly; ./vmm zero
 * its output is h100_vmm.log, which tests/e2e/vmm_api.c follows. A handle
 * that names no allocation, and importing a descriptor as
 * CU_MEM_HANDLE_TYPE_FABRIC, die of SIGSEGV there, so only handle 0 is
 * tried.
 */
#include <cuda.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define R(name, call) printf("%s = %d\n", name, (int)(call))

static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .entry put(.param .u64 a, .param .u32 v)\n{\n"
	"\t.reg .u64 %rd<2>;\n\t.reg .u32 %r<2>;\n"
	"\tld.param.u64 %rd1, [a];\n\tld.param.u32 %r1, [v];\n"
	"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n"
	".visible .entry get(.param .u64 a, .param .u64 o)\n{\n"
	"\t.reg .u64 %rd<3>;\n\t.reg .u32 %r<2>;\n"
	"\tld.param.u64 %rd1, [a];\n\tld.param.u64 %rd2, [o];\n"
	"\tld.global.u32 %r1, [%rd1];\n\tst.global.u32 [%rd2], %r1;\n"
	"\tret;\n}\n";

static CUfunction put, get;

static CUresult kput(CUdeviceptr a, unsigned int v)
{
	void *args[] = { &a, &v };
	CUresult r = cuLaunchKernel(put, 1, 1, 1, 1, 1, 1, 0, 0, args, NULL);

	return r ? r : cuCtxSynchronize();
}

static CUmemAllocationProp prop(int dev, int types)
{
	CUmemAllocationProp p;

	memset(&p, 0, sizeof(p));
	p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = dev;
	p.requestedHandleTypes = types;
	return p;
}

static CUmemAccessDesc acc(int dev, int flags)
{
	CUmemAccessDesc d;

	memset(&d, 0, sizeof(d));
	d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	d.location.id = dev;
	d.flags = flags;
	return d;
}

static void setup(CUcontext *ctx)
{
	CUmodule mod;
	CUdevice dev;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cuInit(0);
	cuDeviceGet(&dev, 0);
	cuDevicePrimaryCtxRetain(ctx, dev);
	cuCtxSetCurrent(*ctx);
	cuModuleLoadData(&mod, ptx);
	cuModuleGetFunction(&put, mod, "put");
	cuModuleGetFunction(&get, mod, "get");
}

/* Child: import the fd, map it, read what the parent wrote. */
static int child(int fd)
{
	CUmemGenericAllocationHandle h;
	CUmemAllocationProp p = prop(0, 0);
	CUmemAccessDesc d = acc(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	CUdeviceptr va;
	CUcontext ctx;
	size_t g = 0;
	unsigned int v = 0;

	setup(&ctx);
	cuMemGetAllocationGranularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
	R("child import", cuMemImportFromShareableHandle(&h,
	  (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	R("child reserve", cuMemAddressReserve(&va, g, 0, 0, 0));
	R("child map", cuMemMap(va, g, 0, h, 0));
	R("child set access", cuMemSetAccess(va, g, &d, 1));
	R("child read", cuMemcpyDtoH(&v, va, 4));
	printf("child value = 0x%x\n", v);
	R("child write", cuMemsetD32(va + 4, 0x5eed, 1));
	/* A fill returns before it is done: done before the memory goes. */
	cuCtxSynchronize();
	R("child unmap", cuMemUnmap(va, g));
	R("child release", cuMemRelease(h));
	return 0;
}

/* A kernel touches memory mapped with too few rights: what it gets. */
static int fault(int flags)
{
	CUmemGenericAllocationHandle h;
	CUmemAllocationProp p = prop(0, 0);
	CUmemAccessDesc d = acc(0, flags);
	CUdeviceptr va;
	CUcontext ctx;
	unsigned int v = 0;
	size_t g = 0;

	setup(&ctx);
	cuMemGetAllocationGranularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
	cuMemCreate(&h, g, &p, 0);
	cuMemAddressReserve(&va, g, 0, 0, 0);
	cuMemMap(va, g, 0, h, 0);
	if (flags)
		R("fault set access", cuMemSetAccess(va, g, &d, 1));
	R("fault htod", cuMemcpyHtoD(va, &v, 4));
	R("fault dtoh", cuMemcpyDtoH(&v, va, 4));
	R("fault memset", cuMemsetD32(va, 1, 1));
	R("fault kernel write", kput(va, 7));
	R("fault after", cuCtxSynchronize());
	return 0;
}

/* Handle 0 (a handle that names nothing dies of SIGSEGV there). */
static int zero(void)
{
	CUmemAllocationProp q;
	CUcontext ctx;
	int fd;

	setup(&ctx);
	R("props zero", cuMemGetAllocationPropertiesFromHandle(&q, 0));
	R("release zero", cuMemRelease(0));
	R("export zero", cuMemExportToShareableHandle(&fd, 0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	R("map zero", cuMemMap(0, 0, 0, 0, 0));
	return 0;
}

int main(int argc, char **argv)
{
	CUmemGenericAllocationHandle h1, h2, h3, hx, hr;
	CUmemAllocationProp p = prop(0, 0), pf, q;
	CUmemAccessDesc d = acc(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	CUmemAccessDesc dd[2];
	CUmemLocation loc;
	CUdeviceptr va, vb, vc, base, plain, a2;
	unsigned long long flags;
	size_t g = 0, gr = 0, sz, fr0, fr1, tot;
	CUcontext ctx;
	unsigned int v;
	int fd = -1, fd2, iv, st;
	char arg[32];
	pid_t pid;

	if (argc == 3 && !strcmp(argv[1], "child"))
		return child(atoi(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "noaccess"))
		return fault(0);
	if (argc == 2 && !strcmp(argv[1], "readonly"))
		return fault(CU_MEM_ACCESS_FLAGS_PROT_READ);
	if (argc == 2 && !strcmp(argv[1], "zero"))
		return zero();
	setup(&ctx);

	cuDeviceGetAttribute(&iv, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0);
	printf("devattr vmm = %d\n", iv);
	cuDeviceGetAttribute(&iv, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, 0);
	printf("devattr posix fd = %d\n", iv);
	cuDeviceGetAttribute(&iv, CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED, 0);
	printf("devattr compression = %d\n", iv);
	cuDeviceGetAttribute(&iv, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED, 0);
	printf("devattr rdma vmm = %d\n", iv);

	/* Granularity. */
	R("gran min", cuMemGetAllocationGranularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
	R("gran rec", cuMemGetAllocationGranularity(&gr, &p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
	printf("gran min value = %zu\ngran rec value = %zu\n", g, gr);
	R("gran bad option", cuMemGetAllocationGranularity(&sz, &p, 7));
	R("gran null prop", cuMemGetAllocationGranularity(&sz, NULL, 0));
	R("gran null out", cuMemGetAllocationGranularity(NULL, &p, 0));
	q = p; q.location.id = 99;
	R("gran bad device", cuMemGetAllocationGranularity(&sz, &q, 0));
	q = p; q.type = 0;
	R("gran type invalid", cuMemGetAllocationGranularity(&sz, &q, 0));
	q = p; q.type = 7;
	R("gran type 7", cuMemGetAllocationGranularity(&sz, &q, 0));
	q = p; q.location.type = CU_MEM_LOCATION_TYPE_HOST;
	R("gran host", cuMemGetAllocationGranularity(&sz, &q, 0));
	printf("gran host value = %zu\n", sz);
	q = p; q.location.type = 0;
	R("gran loc invalid", cuMemGetAllocationGranularity(&sz, &q, 0));
	q = p; q.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	R("gran posix", cuMemGetAllocationGranularity(&sz, &q, 0));
	printf("gran posix value = %zu\n", sz);
	q = p; q.requestedHandleTypes = 0x40;
	R("gran handle type bad", cuMemGetAllocationGranularity(&sz, &q, 0));

	/* cuMemCreate. */
	cuMemGetInfo(&fr0, &tot);
	R("create", cuMemCreate(&h1, g, &p, 0));
	cuMemGetInfo(&fr1, &tot);
	printf("create charged = %lld\n", (long long)fr0 - (long long)fr1);
	R("create size 0", cuMemCreate(&hx, 0, &p, 0));
	R("create unaligned", cuMemCreate(&hx, g + 4096, &p, 0));
	R("create flags", cuMemCreate(&hx, g, &p, 1));
	R("create null handle", cuMemCreate(NULL, g, &p, 0));
	R("create null prop", cuMemCreate(&hx, g, NULL, 0));
	q = p; q.location.id = 99;
	R("create bad device", cuMemCreate(&hx, g, &q, 0));
	q = p; q.type = 0;
	R("create type invalid", cuMemCreate(&hx, g, &q, 0));
	q = p; q.location.type = CU_MEM_LOCATION_TYPE_HOST;
	R("create host", cuMemCreate(&hx, g, &q, 0) ? 1 : cuMemRelease(hx));
	q = p; q.requestedHandleTypes = 0x40;
	R("create handle type bad", cuMemCreate(&hx, g, &q, 0));
	q = p; q.win32HandleMetaData = (void *)1;
	R("create win32 meta", cuMemCreate(&hx, g, &q, 0) ? 1 : cuMemRelease(hx));
	q = p; q.allocFlags.compressionType = 1;
	R("create compressible", cuMemCreate(&hx, g, &q, 0) ? 1 : cuMemRelease(hx));
	q = p; q.allocFlags.gpuDirectRDMACapable = 1;
	R("create rdma", cuMemCreate(&hx, g, &q, 0) ? 2 : cuMemRelease(hx));
	q = p; q.allocFlags.usage = 1;
	R("create usage 1", cuMemCreate(&hx, g, &q, 0) ? 3 : cuMemRelease(hx));
	R("create huge", cuMemCreate(&hx, (size_t)1 << 46, &p, 0));

	memset(&q, 0x5a, sizeof(q));
	R("props", cuMemGetAllocationPropertiesFromHandle(&q, h1));
	printf("props type %d loc %d/%d handles %d compress %d rdma %d usage %d\n",
	       q.type, q.location.type, q.location.id, q.requestedHandleTypes,
	       q.allocFlags.compressionType, q.allocFlags.gpuDirectRDMACapable,
	       q.allocFlags.usage);
	R("props null", cuMemGetAllocationPropertiesFromHandle(NULL, h1));

	/* Reservations. */
	R("reserve", cuMemAddressReserve(&va, 4 * g, 0, 0, 0));
	printf("reserve aligned = %d\n", (int)(va % g == 0));
	R("reserve size 0", cuMemAddressReserve(&vb, 0, 0, 0, 0));
	R("reserve unaligned", cuMemAddressReserve(&vb, g + 4096, 0, 0, 0));
	R("reserve align 3", cuMemAddressReserve(&vb, g, 3, 0, 0));
	R("reserve align 4k", cuMemAddressReserve(&vb, g, 4096, 0, 0) ? 1 : cuMemAddressFree(vb, g));
	R("reserve align 4g", cuMemAddressReserve(&vb, g, 1ull << 32, 0, 0));
	printf("reserve align 4g ok = %d\n", (int)(vb % (1ull << 32) == 0));
	cuMemAddressFree(vb, g);
	R("reserve flags", cuMemAddressReserve(&vb, g, 0, 0, 1) ? 1 : cuMemAddressFree(vb, g));
	R("reserve flags 2", cuMemAddressReserve(&vb, g, 0, 0, 2));
	R("reserve null", cuMemAddressReserve(NULL, g, 0, 0, 0));
	R("reserve hint taken", cuMemAddressReserve(&vb, g, 0, va, 0));
	printf("hint taken same = %d\n", (int)(vb == va));
	cuMemAddressFree(vb, g);
	R("reserve hint unaligned", cuMemAddressReserve(&vb, g, 0, va + 4096, 0));
	printf("hint unaligned same = %d\n", (int)(vb == va + 4096));
	cuMemAddressFree(vb, g);
	R("reserve hint free", cuMemAddressReserve(&vb, g, 0, va + 8 * g, 0));
	printf("hint free same = %d\n", (int)(vb == va + 8 * g));
	cuMemAddressFree(vb, g);
	R("reserve huge", cuMemAddressReserve(&vb, (size_t)1 << 50, 0, 0, 0));

	/* Mapping. */
	R("map offset", cuMemMap(va, g, g, h1, 0));
	R("map offset 4k", cuMemMap(va, g, 4096, h1, 0));
	R("map unaligned size", cuMemMap(va, 4096, 0, h1, 0));
	R("map too big", cuMemMap(va, 2 * g, 0, h1, 0));
	R("map flags", cuMemMap(va, g, 0, h1, 1));
	R("map unreserved", cuMemMap(va + 64 * g, g, 0, h1, 0));
	R("map past end", cuMemMap(va + 4 * g, g, 0, h1, 0));
	cuMemAlloc(&plain, g);
	R("map over cuMemAlloc", cuMemMap(plain, g, 0, h1, 0));
	R("map", cuMemMap(va, g, 0, h1, 0));
	R("map twice", cuMemMap(va, g, 0, h1, 0));
	R("map again elsewhere", cuMemMap(va + 2 * g, g, 0, h1, 0));
	R("unmap elsewhere", cuMemUnmap(va + 2 * g, g));

	/* Access. */
	memset(&loc, 0, sizeof(loc));
	loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
	flags = 77;
	R("get access before", cuMemGetAccess(&flags, &loc, va));
	printf("access before = %llu\n", flags);
	R("memset before access", cuMemsetD32(va, 1, 1));
	R("set access count 0", cuMemSetAccess(va, g, &d, 0));
	R("set access null", cuMemSetAccess(va, g, NULL, 1));
	R("set access unmapped", cuMemSetAccess(va + g, g, &d, 1));
	R("set access partly mapped", cuMemSetAccess(va, 2 * g, &d, 1));
	R("set access unaligned", cuMemSetAccess(va, 4096, &d, 1));
	dd[0] = d; dd[0].location.id = 99;
	R("set access bad device", cuMemSetAccess(va, g, dd, 1));
	dd[0] = d; dd[0].flags = 2;
	R("set access flags 2", cuMemSetAccess(va, g, dd, 1));
	dd[0] = d; dd[0].location.type = CU_MEM_LOCATION_TYPE_HOST;
	R("set access host", cuMemSetAccess(va, g, dd, 1));
	dd[0] = d; dd[1] = d;
	R("set access twice same", cuMemSetAccess(va, g, dd, 2));
	R("set access", cuMemSetAccess(va, g, &d, 1));
	R("get access", cuMemGetAccess(&flags, &loc, va + 100));
	printf("access = %llu\n", flags);
	R("get access unmapped", cuMemGetAccess(&flags, &loc, va + g));
	R("get access null", cuMemGetAccess(NULL, &loc, va));
	R("get access null loc", cuMemGetAccess(&flags, NULL, va));
	loc.id = 99;
	R("get access bad device", cuMemGetAccess(&flags, &loc, va));
	loc.id = 0;
	dd[0] = d; dd[0].flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
	R("set access read", cuMemSetAccess(va, g, dd, 1));
	R("get access read", cuMemGetAccess(&flags, &loc, va));
	printf("access read = %llu\n", flags);
	R("set access none", cuMemSetAccess(va, g, (dd[0].flags = 0, dd), 1));
	R("get access none", cuMemGetAccess(&flags, &loc, va));
	printf("access none = %llu\n", flags);
	R("set access rw", cuMemSetAccess(va, g, &d, 1));

	/* Use, and how the other calls see it. */
	R("kernel write", kput(va + 8, 0xc0de));
	v = 0;
	R("read back", cuMemcpyDtoH(&v, va + 8, 4));
	printf("value = 0x%x\n", v);
	R("addr range", cuMemGetAddressRange(&base, &sz, va + 8));
	printf("addr range base = %lld size = %zu\n", (long long)(base - va), sz);
	iv = 0;
	R("ptr memtype", cuPointerGetAttribute(&iv, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, va + 8));
	printf("ptr memtype value = %d\n", iv);
	flags = 0;
	R("ptr handle types", cuPointerGetAttribute(&flags, CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES, va));
	printf("ptr handle types value = %llu\n", flags);
	R("ptr access flags", cuPointerGetAttribute(&iv, CU_POINTER_ATTRIBUTE_ACCESS_FLAGS, va));
	printf("ptr access flags value = %d\n", iv);
	R("ptr is mapped", cuPointerGetAttribute(&iv, CU_POINTER_ATTRIBUTE_MAPPED, va));
	printf("ptr is mapped value = %d\n", iv);
	R("ptr is legacy", cuPointerGetAttribute(&iv, CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, va));
	printf("ptr is legacy value = %d\n", iv);
	R("ptr range start", cuPointerGetAttribute(&base, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, va + 8));
	printf("ptr range start value = %lld\n", (long long)(base - va));
	R("ptr range size", cuPointerGetAttribute(&sz, CU_POINTER_ATTRIBUTE_RANGE_SIZE, va + 8));
	printf("ptr range size value = %zu\n", sz);
	R("ptr unmapped reserved", cuPointerGetAttribute(&iv, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, va + g));
	R("addr range reserved", cuMemGetAddressRange(&base, &sz, va + g));
	R("cuMemFree on vmm", cuMemFree(va));
	R("memset unmapped", cuMemsetD32(va + g, 1, 1));

	/* Retain. */
	R("retain", cuMemRetainAllocationHandle(&hr, (void *)(uintptr_t)(va + 100)));
	printf("retain same = %d\n", (int)(hr == h1));
	R("retain unmapped", cuMemRetainAllocationHandle(&hx, (void *)(uintptr_t)(va + g)));
	R("retain plain", cuMemRetainAllocationHandle(&hx, (void *)(uintptr_t)plain));
	R("retain host", cuMemRetainAllocationHandle(&hx, &v));
	R("retain null", cuMemRetainAllocationHandle(NULL, (void *)(uintptr_t)va));
	R("release retained", cuMemRelease(hr));

	/* Grow: a second handle after the first, one copy across both. */
	R("create 2", cuMemCreate(&h2, g, &p, 0));
	R("map 2", cuMemMap(va + g, g, 0, h2, 0));
	R("set access 2 ranges", cuMemSetAccess(va, 2 * g, &d, 1));
	R("memset across", cuMemsetD32(va + g - 8, 0xabcd, 4));
	R("kernel write 2", kput(va + g + 16, 0x1234));
	{
		unsigned int w[6] = { 0 };

		R("copy across", cuMemcpyDtoH(w, va + g - 8, 24));
		printf("across = %x %x %x %x %x %x\n", w[0], w[1], w[2], w[3], w[4], w[5]);
	}
	R("addr range across", cuMemGetAddressRange(&base, &sz, va + g + 8));
	printf("addr range 2 base = %lld size = %zu\n", (long long)(base - va), sz);
	R("unmap partial", cuMemUnmap(va, g / 2));
	R("unmap half of one", cuMemUnmap(va + g / 2, g / 2));
	R("unmap unmapped", cuMemUnmap(va + 2 * g, g));
	R("unmap overrun", cuMemUnmap(va + g, 2 * g));
	R("unmap not reserved", cuMemUnmap(va + 64 * g, g));

	/* Release while mapped: the memory stays until unmapped. */
	R("release 1 mapped", cuMemRelease(h1));
	v = 0;
	R("read after release", cuMemcpyDtoH(&v, va + 8, 4));
	printf("value after release = 0x%x\n", v);
	R("release 1 again", cuMemRelease(h1));
	R("address free mapped", cuMemAddressFree(va, 4 * g));
	R("unmap both", cuMemUnmap(va, 2 * g));
	R("read after unmap", cuMemcpyDtoH(&v, va + 8, 4));
	R("sync after unmap", cuCtxSynchronize());
	R("release 2", cuMemRelease(h2));
	cuMemGetInfo(&fr1, &tot);
	printf("free back = %lld\n", (long long)fr0 - (long long)fr1);

	/* Export and import. */
	R("export no type", cuMemCreate(&h3, g, &p, 0) ? 1 :
	  cuMemExportToShareableHandle(&fd, h3, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	cuMemRelease(h3);
	pf = prop(0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	R("create posix", cuMemCreate(&h3, g, &pf, 0));
	R("export flags", cuMemExportToShareableHandle(&fd, h3, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
	R("export null", cuMemExportToShareableHandle(NULL, h3, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	R("export fabric", cuMemExportToShareableHandle(&fd, h3, CU_MEM_HANDLE_TYPE_FABRIC, 0));
	R("export", cuMemExportToShareableHandle(&fd, h3, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	printf("export fd valid = %d cloexec = %d\n", fcntl(fd, F_GETFD) >= 0,
	       (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
	fd2 = -1;
	R("export again", cuMemExportToShareableHandle(&fd2, h3, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	printf("export again same fd = %d\n", fd2 == fd);
	if (fd2 >= 0 && fd2 != fd)
		close(fd2);
	R("props posix", cuMemGetAllocationPropertiesFromHandle(&q, h3));
	printf("props posix handles %d\n", q.requestedHandleTypes);
	R("import", cuMemImportFromShareableHandle(&hx, (void *)(uintptr_t)fd,
	  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	printf("import same handle = %d\n", (int)(hx == h3));
	R("import closed fd", cuMemImportFromShareableHandle(&hr, (void *)(uintptr_t)1000, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	fd2 = open("/dev/null", O_RDWR);
	R("import dev null", cuMemImportFromShareableHandle(&hr, (void *)(uintptr_t)fd2, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	close(fd2);
	R("import null", cuMemImportFromShareableHandle(NULL, (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	R("reserve 2", cuMemAddressReserve(&vb, 2 * g, 0, 0, 0));
	R("map orig", cuMemMap(vb, g, 0, h3, 0));
	R("map imported", cuMemMap(vb + g, g, 0, hx, 0));
	R("set access alias", cuMemSetAccess(vb, 2 * g, &d, 1));
	R("write orig", kput(vb + 4, 0xfeed));
	v = 0;
	R("read alias", cuMemcpyDtoH(&v, vb + g + 4, 4));
	printf("alias value = 0x%x\n", v);
	R("write for child", cuMemsetD32(vb, 0xbeef, 1));
	cuCtxSynchronize();

	/* Another process imports the fd. */
	fcntl(fd, F_SETFD, 0);
	snprintf(arg, sizeof(arg), "%d", fd);
	pid = fork();
	if (pid == 0) {
		execl("/proc/self/exe", argv[0], "child", arg, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &st, 0);
	printf("child status = %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	v = 0;
	R("read child write", cuMemcpyDtoH(&v, vb + 4, 4));
	printf("child wrote = 0x%x\n", v);
	close(fd);
	R("unmap alias", cuMemUnmap(vb, 2 * g));
	R("release orig", cuMemRelease(h3));
	R("release imported", cuMemRelease(hx));
	R("address free partial", cuMemAddressFree(vb, g));
	R("address free", cuMemAddressFree(vb, 2 * g));
	R("address free again", cuMemAddressFree(vb, 2 * g));
	R("address free bogus", cuMemAddressFree(va + 64 * g, g));
	R("address free plain", cuMemAddressFree(plain, g));
	R("address free wrong size", cuMemAddressFree(va, g));
	R("address free va", cuMemAddressFree(va, 4 * g));
	a2 = 0;
	R("reserve after", cuMemAddressReserve(&vc, g, 0, 0, 0));
	cuMemAddressFree(vc, g);
	cuMemFree(plain);
	(void)a2;
	R("sync end", cuCtxSynchronize());
	return 0;
}
