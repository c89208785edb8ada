// SPDX-License-Identifier: MIT
/*
 * Virtual memory management through the driver API: granularity,
 * cuMemCreate and its properties, address reservations, mapping and
 * unmapping, access rights and how copies, fills and kernels meet them,
 * retaining and releasing handles, growing a buffer by mapping more
 * memory after it, export to a file descriptor and import in this process
 * and in another one, and how the other memory calls see such memory.
 * Each call is held to what NVIDIA's driver answered on an H100 for the
 * same sequence (tests/e2e/ref/h100_vmm.log, from ref/h100_vmm.c there).
 * Where vgpu lacks what the H100 has (host memory, compression) or the
 * H100 dies (a handle that names nothing), the test says so and checks
 * vgpu's own answer. The last tests are vgpu's own: handles mapped in
 * another context, a context's teardown, and two devices (they skip with
 * one: run with num_devices=2).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_vmm.log"
#include "h100_log.h"

#define MIB (1ull << 20)

static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .entry put(.param .u64 a, .param .u32 v)\n{\n"
	"\t.reg .u64 %rd<2>;\n\t.reg .u32 %r<2>;\n"
	"\tld.param.u64 %rd1, [a];\n\tld.param.u32 %r1, [v];\n"
	"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n";

static CUfunction put;
static CUcontext ctx;
static size_t g;	/* the granularity */

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
	p.requestedHandleTypes = (CUmemAllocationHandleType)types;
	return p;
}

static CUmemAccessDesc acc(int dev, int flags)
{
	CUmemAccessDesc d;

	memset(&d, 0, sizeof(d));
	d.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
	d.location.id = dev;
	d.flags = (CUmemAccess_flags)flags;
	return d;
}

static void setup(void)
{
	CUmemAllocationProp p = prop(0, 0);
	CUmodule mod;
	CUdevice dev;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGet(&dev, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&ctx, dev));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&put, mod, "put"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemGetAllocationGranularity(&g, &p,
		    CU_MEM_ALLOC_GRANULARITY_MINIMUM));
}

/* A handle of one granule mapped at a new reservation of @n granules. */
static void mapped(CUmemGenericAllocationHandle *h, CUdeviceptr *va,
		   size_t n, int flags)
{
	CUmemAllocationProp p = prop(0, 0);
	CUmemAccessDesc d = acc(0, flags);

	REQUIRE_RES(CUDA_SUCCESS, cuMemCreate(h, g, &p, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAddressReserve(va, n * g, 0, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemMap(*va, g, 0, *h, 0));
	if (flags)
		REQUIRE_RES(CUDA_SUCCESS, cuMemSetAccess(*va, g, &d, 1));
}

/* The H100's line @name after the line "--- @section" of its log. */
static long long h100_in(const char *section, const char *name)
{
	char line[256], mark[64];
	size_t n = strlen(name);
	FILE *f = fopen(H100_LOG, "r");
	bool in = false;
	long long v = -1;

	if (!f) {
		TAP_FAIL("cannot read %s", H100_LOG);
		return -1;
	}
	snprintf(mark, sizeof(mark), "--- %s\n", section);
	while (v < 0 && fgets(line, sizeof(line), f)) {
		if (!strcmp(line, mark))
			in = true;
		else if (in && !strncmp(line, name, n) &&
			 !strncmp(line + n, " = ", 3))
			v = atoll(line + n + 3);
	}
	fclose(f);
	if (v < 0)
		TAP_FAIL("no \"%s\" under \"%s\" in %s", name, section, H100_LOG);
	return v;
}

/*
 * In the H100's line that starts with @prefix, the number after @key (or
 * right after @prefix when @key is empty), past an "=" if there is one;
 * in C's notation (0x: hex).
 */
static long long h100_num(const char *prefix, const char *key)
{
	char line[256];
	FILE *f = fopen(H100_LOG, "r");
	const char *v = NULL;

	if (!f) {
		TAP_FAIL("cannot read %s", H100_LOG);
		return -1;
	}
	while (!v && fgets(line, sizeof(line), f))
		if (!strncmp(line, prefix, strlen(prefix)))
			v = line + strlen(prefix);
	fclose(f);
	if (v && *key) {
		v = strstr(v, key);
		if (v)
			v += strlen(key);
	}
	if (!v) {
		TAP_FAIL("no \"%s\" \"%s\" in %s", prefix, key, H100_LOG);
		return -1;
	}
	while (*v == ' ' || *v == '=')
		v++;
	return strtoll(v, NULL, 0);
}

static void device_attributes(void)
{
	int v = -1;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, 0));
	CHECK(v == h100("devattr vmm"));
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, 0));
	CHECK(v == h100("devattr posix fd"));
	/* The H100 compresses and does RDMA (1, 1); vgpu does neither. */
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED, 0));
	CHECK(v == 0 && h100("devattr compression") == 1);
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v,
		  CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED, 0));
	CHECK(v == 0 && h100("devattr rdma vmm") == 1);
}

static void granularity(void)
{
	CUmemAllocationProp p = prop(0, 0), q;
	size_t sz = 0, gr = 0;

	setup();
	CHECK(g == (size_t)h100("gran min value"));
	CHECK_H100("gran rec", cuMemGetAllocationGranularity(&gr, &p,
		   CU_MEM_ALLOC_GRANULARITY_RECOMMENDED));
	CHECK(gr == (size_t)h100("gran rec value"));
	CHECK_H100("gran bad option", cuMemGetAllocationGranularity(&sz, &p, 7));
	CHECK_H100("gran null prop", cuMemGetAllocationGranularity(&sz, NULL, 0));
	CHECK_H100("gran null out", cuMemGetAllocationGranularity(NULL, &p, 0));
	q = p; q.location.id = 99;
	CHECK_H100("gran bad device", cuMemGetAllocationGranularity(&sz, &q, 0));
	q = p; q.type = (CUmemAllocationType)0;
	CHECK_H100("gran type invalid", cuMemGetAllocationGranularity(&sz, &q, 0));
	q = p; q.type = (CUmemAllocationType)7;
	CHECK_H100("gran type 7", cuMemGetAllocationGranularity(&sz, &q, 0));
	q = p; q.location.type = CU_MEM_LOCATION_TYPE_HOST;
	sz = 0;
	CHECK_H100("gran host", cuMemGetAllocationGranularity(&sz, &q, 0));
	CHECK(sz == (size_t)h100("gran host value"));
	q = p; q.location.type = (CUmemLocationType)0;
	CHECK_H100("gran loc invalid", cuMemGetAllocationGranularity(&sz, &q, 0));
	q = p; q.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
	sz = 0;
	CHECK_H100("gran posix", cuMemGetAllocationGranularity(&sz, &q, 0));
	CHECK(sz == (size_t)h100("gran posix value"));
	q = p; q.requestedHandleTypes = (CUmemAllocationHandleType)0x40;
	CHECK_H100("gran handle type bad", cuMemGetAllocationGranularity(&sz, &q, 0));
}

/* cuMemCreate on properties that differ from a good one in one field. */
static void create(void)
{
	CUmemAllocationProp p = prop(0, 0), q;
	CUmemGenericAllocationHandle h, hx;
	size_t fr0, fr1, tot;

	setup();
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&fr0, &tot));
	CHECK_H100("create", cuMemCreate(&h, g, &p, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&fr1, &tot));
	CHECK((long long)(fr0 - fr1) == h100("create charged"));
	CHECK_H100("create size 0", cuMemCreate(&hx, 0, &p, 0));
	CHECK_H100("create unaligned", cuMemCreate(&hx, g + 4096, &p, 0));
	CHECK_H100("create flags", cuMemCreate(&hx, g, &p, 1));
	CHECK_H100("create null handle", cuMemCreate(NULL, g, &p, 0));
	CHECK_H100("create null prop", cuMemCreate(&hx, g, NULL, 0));
	q = p; q.location.id = 99;
	CHECK_H100("create bad device", cuMemCreate(&hx, g, &q, 0));
	q = p; q.type = (CUmemAllocationType)0;
	CHECK_H100("create type invalid", cuMemCreate(&hx, g, &q, 0));
	/* The H100 makes host memory (0); vgpu's objects are the device's. */
	q = p; q.location.type = CU_MEM_LOCATION_TYPE_HOST;
	CHECK(h100("create host") == 0);
	CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuMemCreate(&hx, g, &q, 0));
	q = p; q.requestedHandleTypes = (CUmemAllocationHandleType)0x40;
	CHECK_H100("create handle type bad", cuMemCreate(&hx, g, &q, 0) ? 1 :
		   cuMemRelease(hx));
	q = p; q.win32HandleMetaData = (void *)1;
	CHECK_H100("create win32 meta", cuMemCreate(&hx, g, &q, 0));
	/* The H100 compresses (0); vgpu cannot. */
	q = p; q.allocFlags.compressionType = 1;
	CHECK(h100("create compressible") == 0);
	CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuMemCreate(&hx, g, &q, 0));
	q = p; q.allocFlags.gpuDirectRDMACapable = 1;
	CHECK_H100("create rdma", cuMemCreate(&hx, g, &q, 0) ? 2 :
		   cuMemRelease(hx));
	q = p; q.allocFlags.usage = 1;
	CHECK_H100("create usage 1", cuMemCreate(&hx, g, &q, 0) ? 3 :
		   cuMemRelease(hx));
	CHECK_H100("create huge", cuMemCreate(&hx, (size_t)1 << 46, &p, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemRelease(h));
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&fr1, &tot));
	CHECK(fr1 == fr0);
}

static void properties(void)
{
	CUmemAllocationProp p = prop(0, 0), q;
	CUmemGenericAllocationHandle h;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemCreate(&h, g, &p, 0));
	memset(&q, 0x5a, sizeof(q));
	CHECK_H100("props", cuMemGetAllocationPropertiesFromHandle(&q, h));
	CHECK(q.type == h100_num("props type ", ""));
	CHECK(q.location.type == h100_num("props type ", "loc"));
	CHECK(q.location.id == h100_num("props type ", "/"));
	CHECK(q.requestedHandleTypes == h100_num("props type ", "handles"));
	CHECK(q.allocFlags.compressionType == h100_num("props type ", "compress"));
	CHECK(q.allocFlags.gpuDirectRDMACapable == h100_num("props type ", "rdma"));
	CHECK(q.allocFlags.usage == h100_num("props type ", "usage"));
	CHECK_H100("props null", cuMemGetAllocationPropertiesFromHandle(NULL, h));
	CHECK_RES(CUDA_SUCCESS, cuMemRelease(h));
}

static void reserve(void)
{
	CUdeviceptr va, vb;

	setup();
	CHECK_H100("reserve", cuMemAddressReserve(&va, 4 * g, 0, 0, 0));
	CHECK((va % g == 0) == h100("reserve aligned"));
	CHECK_H100("reserve size 0", cuMemAddressReserve(&vb, 0, 0, 0, 0));
	CHECK_H100("reserve unaligned", cuMemAddressReserve(&vb, g + 4096, 0, 0, 0));
	CHECK_H100("reserve align 3", cuMemAddressReserve(&vb, g, 3, 0, 0));
	CHECK_H100("reserve align 4k", cuMemAddressReserve(&vb, g, 4096, 0, 0) ?
		   1 : cuMemAddressFree(vb, g));
	CHECK_H100("reserve align 4g", cuMemAddressReserve(&vb, g, 1ull << 32, 0, 0));
	CHECK((vb % (1ull << 32) == 0) == h100("reserve align 4g ok"));
	CHECK_RES(CUDA_SUCCESS, cuMemAddressFree(vb, g));
	CHECK_H100("reserve flags", cuMemAddressReserve(&vb, g, 0, 0, 1));
	CHECK_H100("reserve flags 2", cuMemAddressReserve(&vb, g, 0, 0, 2));
	CHECK_H100("reserve null", cuMemAddressReserve(NULL, g, 0, 0, 0));
	CHECK_H100("reserve hint taken", cuMemAddressReserve(&vb, g, 0, va, 0));
	CHECK((vb == va) == h100("hint taken same"));
	CHECK_RES(CUDA_SUCCESS, cuMemAddressFree(vb, g));
	CHECK_H100("reserve hint unaligned", cuMemAddressReserve(&vb, g, 0, va + 4096, 0));
	CHECK_H100("reserve hint free", cuMemAddressReserve(&vb, g, 0, va + 8 * g, 0));
	CHECK((vb == va + 8 * g) == h100("hint free same"));
	CHECK_RES(CUDA_SUCCESS, cuMemAddressFree(vb, g));
	CHECK_H100("reserve huge", cuMemAddressReserve(&vb, (size_t)1 << 50, 0, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemAddressFree(va, 4 * g));
}

static void address_free(void)
{
	CUmemGenericAllocationHandle h;
	CUdeviceptr va, vb, plain;

	setup();
	mapped(&h, &va, 4, 0);
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&plain, g));
	CHECK_H100("address free mapped", cuMemAddressFree(va, 4 * g));
	CHECK_RES(CUDA_SUCCESS, cuMemUnmap(va, g));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAddressReserve(&vb, 2 * g, 0, 0, 0));
	CHECK_H100("address free partial", cuMemAddressFree(vb, g));
	CHECK_H100("address free", cuMemAddressFree(vb, 2 * g));
	CHECK_H100("address free again", cuMemAddressFree(vb, 2 * g));
	CHECK_H100("address free bogus", cuMemAddressFree(va + 64 * g, g));
	CHECK_H100("address free plain", cuMemAddressFree(plain, g));
	CHECK_H100("address free wrong size", cuMemAddressFree(va, g));
	CHECK_H100("address free va", cuMemAddressFree(va, 4 * g));
	CHECK_H100("reserve after", cuMemAddressReserve(&vb, g, 0, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemAddressFree(vb, g));
	CHECK_RES(CUDA_SUCCESS, cuMemRelease(h));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(plain));
}

static void map(void)
{
	CUmemAllocationProp p = prop(0, 0);
	CUmemGenericAllocationHandle h;
	CUdeviceptr va, plain;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemCreate(&h, g, &p, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAddressReserve(&va, 4 * g, 0, 0, 0));
	CHECK_H100("map offset", cuMemMap(va, g, g, h, 0));
	CHECK_H100("map offset 4k", cuMemMap(va, g, 4096, h, 0));
	CHECK_H100("map unaligned size", cuMemMap(va, 4096, 0, h, 0));
	CHECK_H100("map too big", cuMemMap(va, 2 * g, 0, h, 0));
	CHECK_H100("map flags", cuMemMap(va, g, 0, h, 1));
	CHECK_H100("map unreserved", cuMemMap(va + 64 * g, g, 0, h, 0));
	CHECK_H100("map past end", cuMemMap(va + 4 * g, g, 0, h, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&plain, g));
	CHECK_H100("map over cuMemAlloc", cuMemMap(plain, g, 0, h, 0));
	CHECK_H100("map", cuMemMap(va, g, 0, h, 0));
	CHECK_H100("map twice", cuMemMap(va, g, 0, h, 0));
	CHECK_H100("map again elsewhere", cuMemMap(va + 2 * g, g, 0, h, 0));
	CHECK_H100("unmap elsewhere", cuMemUnmap(va + 2 * g, g));
	/* Not on a granule: the H100's log has no such case. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemMap(va + g + 4096, g, 0, h, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemUnmap(va, g));
	CHECK_RES(CUDA_SUCCESS, cuMemRelease(h));
	CHECK_RES(CUDA_SUCCESS, cuMemAddressFree(va, 4 * g));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(plain));
}

static void access_rights(void)
{
	CUmemAccessDesc d = acc(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE), dd[2];
	CUmemGenericAllocationHandle h;
	unsigned long long flags = 77;
	CUmemLocation loc;
	CUdeviceptr va;

	setup();
	mapped(&h, &va, 4, 0);
	memset(&loc, 0, sizeof(loc));
	loc.type = CU_MEM_LOCATION_TYPE_DEVICE;
	CHECK_H100("get access before", cuMemGetAccess(&flags, &loc, va));
	CHECK(flags == (unsigned long long)h100("access before"));
	CHECK_H100("memset before access", cuMemsetD32(va, 1, 1));
	CHECK_H100("set access count 0", cuMemSetAccess(va, g, &d, 0));
	CHECK_H100("set access null", cuMemSetAccess(va, g, NULL, 1));
	CHECK_H100("set access unmapped", cuMemSetAccess(va + g, g, &d, 1));
	CHECK_H100("set access partly mapped", cuMemSetAccess(va, 2 * g, &d, 1));
	CHECK_H100("set access unaligned", cuMemSetAccess(va, 4096, &d, 1));
	dd[0] = d; dd[0].location.id = 99;
	CHECK_H100("set access bad device", cuMemSetAccess(va, g, dd, 1));
	dd[0] = d; dd[0].flags = (CUmemAccess_flags)2;
	CHECK_H100("set access flags 2", cuMemSetAccess(va, g, dd, 1));
	dd[0] = d; dd[0].location.type = CU_MEM_LOCATION_TYPE_HOST;
	CHECK_H100("set access host", cuMemSetAccess(va, g, dd, 1));
	dd[0] = d; dd[1] = d;
	CHECK_H100("set access twice same", cuMemSetAccess(va, g, dd, 2));
	CHECK_H100("set access", cuMemSetAccess(va, g, &d, 1));
	CHECK_H100("get access", cuMemGetAccess(&flags, &loc, va + 100));
	CHECK(flags == (unsigned long long)h100("access"));
	CHECK_H100("get access unmapped", cuMemGetAccess(&flags, &loc, va + g));
	CHECK_H100("get access null", cuMemGetAccess(NULL, &loc, va));
	CHECK_H100("get access null loc", cuMemGetAccess(&flags, NULL, va));
	loc.id = 99;
	CHECK_H100("get access bad device", cuMemGetAccess(&flags, &loc, va));
	loc.id = 0;
	dd[0] = d; dd[0].flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
	CHECK_H100("set access read", cuMemSetAccess(va, g, dd, 1));
	CHECK_H100("get access read", cuMemGetAccess(&flags, &loc, va));
	CHECK(flags == (unsigned long long)h100("access read"));
	dd[0].flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
	CHECK_H100("set access none", cuMemSetAccess(va, g, dd, 1));
	CHECK_H100("get access none", cuMemGetAccess(&flags, &loc, va));
	CHECK(flags == (unsigned long long)h100("access none"));
	CHECK_H100("set access rw", cuMemSetAccess(va, g, &d, 1));
	CHECK_RES(CUDA_SUCCESS, cuMemUnmap(va, g));
	CHECK_RES(CUDA_SUCCESS, cuMemRelease(h));
	CHECK_RES(CUDA_SUCCESS, cuMemAddressFree(va, 4 * g));
}

/* How a kernel, the copies and the other memory calls see a mapping. */
static void use(void)
{
	CUmemGenericAllocationHandle h;
	unsigned long long flags = 7;
	CUdeviceptr va, base = 0;
	unsigned int v = 0;
	size_t sz = 0;
	int iv = -1;

	setup();
	mapped(&h, &va, 4, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	CHECK_H100("kernel write", kput(va + 8, 0xc0de));
	CHECK_H100("read back", cuMemcpyDtoH(&v, va + 8, 4));
	CHECK(v == (unsigned int)strtoul(h100_line("value"), NULL, 16));
	CHECK_H100("addr range", cuMemGetAddressRange(&base, &sz, va + 8));
	CHECK((long long)(base - va) == h100_num("addr range base", ""));
	CHECK(sz == (size_t)h100_num("addr range base", "size"));
	CHECK_H100("ptr memtype", cuPointerGetAttribute(&iv,
		   CU_POINTER_ATTRIBUTE_MEMORY_TYPE, va + 8));
	CHECK(iv == h100("ptr memtype value"));
	CHECK_H100("ptr handle types", cuPointerGetAttribute(&flags,
		   CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES, va));
	CHECK(flags == (unsigned long long)h100("ptr handle types value"));
	CHECK_H100("ptr access flags", cuPointerGetAttribute(&iv,
		   CU_POINTER_ATTRIBUTE_ACCESS_FLAGS, va));
	CHECK(iv == h100("ptr access flags value"));
	CHECK_H100("ptr is mapped", cuPointerGetAttribute(&iv,
		   CU_POINTER_ATTRIBUTE_MAPPED, va));
	CHECK(iv == h100("ptr is mapped value"));
	CHECK_H100("ptr is legacy", cuPointerGetAttribute(&iv,
		   CU_POINTER_ATTRIBUTE_IS_LEGACY_CUDA_IPC_CAPABLE, va));
	CHECK(iv == h100("ptr is legacy value"));
	CHECK_H100("ptr range start", cuPointerGetAttribute(&base,
		   CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, va + 8));
	CHECK((long long)(base - va) == h100("ptr range start value"));
	CHECK_H100("ptr range size", cuPointerGetAttribute(&sz,
		   CU_POINTER_ATTRIBUTE_RANGE_SIZE, va + 8));
	CHECK(sz == (size_t)h100("ptr range size value"));
	CHECK_H100("ptr unmapped reserved", cuPointerGetAttribute(&iv,
		   CU_POINTER_ATTRIBUTE_MEMORY_TYPE, va + g));
	CHECK_H100("addr range reserved", cuMemGetAddressRange(&base, &sz, va + g));
	CHECK_H100("cuMemFree on vmm", cuMemFree(va));
	CHECK_H100("memset unmapped", cuMemsetD32(va + g, 1, 1));
	/* vgpu's own: the device of the mapping, and the several-at-once form. */
	CHECK_RES(CUDA_SUCCESS, cuPointerGetAttribute(&iv,
		  CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, va));
	CHECK(iv == 0);
	{
		CUpointer_attribute at[2] = { CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
					      CU_POINTER_ATTRIBUTE_RANGE_SIZE };
		unsigned int type = 0;
		void *data[2] = { &type, &sz };

		sz = 0;
		CHECK_RES(CUDA_SUCCESS, cuPointerGetAttributes(2, at, data, va + 8));
		CHECK(type == CU_MEMORYTYPE_DEVICE && sz == 4 * g);
	}
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemUnmap(va, g));
	CHECK_RES(CUDA_SUCCESS, cuMemRelease(h));
	CHECK_RES(CUDA_SUCCESS, cuMemAddressFree(va, 4 * g));
}

static void retain(void)
{
	CUmemGenericAllocationHandle h, hr = 0, hx;
	CUdeviceptr va, plain;
	unsigned int v;

	setup();
	mapped(&h, &va, 4, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&plain, g));
	CHECK_H100("retain", cuMemRetainAllocationHandle(&hr,
		   (void *)(uintptr_t)(va + 100)));
	CHECK((hr == h) == h100("retain same"));
	CHECK_H100("retain unmapped", cuMemRetainAllocationHandle(&hx,
		   (void *)(uintptr_t)(va + g)));
	CHECK_H100("retain plain", cuMemRetainAllocationHandle(&hx,
		   (void *)(uintptr_t)plain));
	CHECK_H100("retain host", cuMemRetainAllocationHandle(&hx, &v));
	CHECK_H100("retain null", cuMemRetainAllocationHandle(NULL,
		   (void *)(uintptr_t)va));
	CHECK_H100("release retained", cuMemRelease(hr));
	/* The creator's reference is still there. */
	CHECK_RES(CUDA_SUCCESS, cuMemUnmap(va, g));
	CHECK_RES(CUDA_SUCCESS, cuMemRelease(h));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemRelease(h));
	CHECK_RES(CUDA_SUCCESS, cuMemAddressFree(va, 4 * g));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(plain));
}

/* A second handle mapped after the first: one buffer, then torn down. */
static void grow(void)
{
	CUmemAllocationProp p = prop(0, 0);
	CUmemAccessDesc d = acc(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	CUmemGenericAllocationHandle h1, h2;
	unsigned int w[6] = { 0 }, want[6], v;
	CUdeviceptr va, base, plain;
	size_t fr0, fr1, tot, sz;
	const char *s;
	int i;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemGetInfo(&fr0, &tot));
	mapped(&h1, &va, 4, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&plain, g));
	REQUIRE_RES(CUDA_SUCCESS, kput(va + 8, 0xc0de));
	CHECK_H100("create 2", cuMemCreate(&h2, g, &p, 0));
	CHECK_H100("map 2", cuMemMap(va + g, g, 0, h2, 0));
	CHECK_H100("set access 2 ranges", cuMemSetAccess(va, 2 * g, &d, 1));
	CHECK_H100("memset across", cuMemsetD32(va + g - 8, 0xabcd, 4));
	CHECK_H100("kernel write 2", kput(va + g + 16, 0x1234));
	CHECK_H100("copy across", cuMemcpyDtoH(w, va + g - 8, 24));
	s = h100_line("across");
	for (i = 0; i < 6 && s; i++)
		want[i] = (unsigned int)strtoul(s, (char **)&s, 16);
	CHECK(s && !memcmp(w, want, sizeof(w)));
	CHECK_H100("addr range across", cuMemGetAddressRange(&base, &sz, va + g + 8));
	CHECK((long long)(base - va) == h100_num("addr range 2 base", ""));
	CHECK(sz == (size_t)h100_num("addr range 2 base", "size"));
	CHECK_H100("unmap partial", cuMemUnmap(va, g / 2));
	CHECK_H100("unmap half of one", cuMemUnmap(va + g / 2, g / 2));
	CHECK_H100("unmap unmapped", cuMemUnmap(va + 2 * g, g));
	CHECK_H100("unmap overrun", cuMemUnmap(va + g, 2 * g));
	CHECK_H100("unmap not reserved", cuMemUnmap(va + 64 * g, g));
	/* Released while mapped: the memory stays until unmapped. */
	CHECK_H100("release 1 mapped", cuMemRelease(h1));
	v = 0;
	CHECK_H100("read after release", cuMemcpyDtoH(&v, va + 8, 4));
	CHECK(v == (unsigned int)strtoul(h100_line("value after release"), NULL, 16));
	CHECK_H100("release 1 again", cuMemRelease(h1));
	CHECK_H100("address free mapped", cuMemAddressFree(va, 4 * g));
	/* "unmap overrun" took h2's mapping already, as on the H100. */
	CHECK_H100("unmap both", cuMemUnmap(va, 2 * g));
	CHECK_H100("read after unmap", cuMemcpyDtoH(&v, va + 8, 4));
	CHECK_H100("sync after unmap", cuCtxSynchronize());
	CHECK_H100("release 2", cuMemRelease(h2));
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&fr1, &tot));
	/*
	 * The H100 kept 4 MiB (the cuMemAlloc and 2 MiB of its own); vgpu
	 * only the cuMemAlloc.
	 */
	CHECK(h100("free back") == (long long)(4 * MIB));
	CHECK(fr0 - fr1 == g);
	CHECK_RES(CUDA_SUCCESS, cuMemAddressFree(va, 4 * g));
	CHECK_RES(CUDA_SUCCESS, cuMemFree(plain));
}

static int fd_cloexec(int fd)
{
	int f = fcntl(fd, F_GETFD);

	return f >= 0 && (f & FD_CLOEXEC);
}

static void export_import(void)
{
	CUmemAllocationProp p = prop(0, 0), pf, q;
	CUmemAccessDesc d = acc(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	CUmemGenericAllocationHandle h3, hx, hr;
	int fd = -1, fd2 = -1;
	CUdeviceptr vb;
	unsigned int v = 0;

	setup();
	CHECK_H100("export no type", cuMemCreate(&h3, g, &p, 0) ? 1 :
		   cuMemExportToShareableHandle(&fd, h3,
			CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemRelease(h3));
	pf = prop(0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	CHECK_H100("create posix", cuMemCreate(&h3, g, &pf, 0));
	CHECK_H100("export flags", cuMemExportToShareableHandle(&fd, h3,
		   CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 1));
	CHECK_H100("export null", cuMemExportToShareableHandle(NULL, h3,
		   CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	CHECK_H100("export fabric", cuMemExportToShareableHandle(&fd, h3,
		   CU_MEM_HANDLE_TYPE_FABRIC, 0));
	CHECK_H100("export", cuMemExportToShareableHandle(&fd, h3,
		   CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	CHECK((fcntl(fd, F_GETFD) >= 0) == h100_num("export fd valid", ""));
	CHECK(fd_cloexec(fd) == h100_num("export fd valid", "cloexec"));
	CHECK_H100("export again", cuMemExportToShareableHandle(&fd2, h3,
		   CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	CHECK((fd2 == fd) == h100("export again same fd"));
	if (fd2 >= 0 && fd2 != fd)
		close(fd2);
	CHECK_H100("props posix", cuMemGetAllocationPropertiesFromHandle(&q, h3));
	CHECK(q.requestedHandleTypes == h100_num("props posix handles", ""));
	CHECK_H100("import", cuMemImportFromShareableHandle(&hx,
		   (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	CHECK((hx == h3) == h100("import same handle"));
	CHECK_H100("import closed fd", cuMemImportFromShareableHandle(&hr,
		   (void *)(uintptr_t)1000, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	fd2 = open("/dev/null", O_RDWR);
	CHECK_H100("import dev null", cuMemImportFromShareableHandle(&hr,
		   (void *)(uintptr_t)fd2, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	close(fd2);
	CHECK_H100("import null", cuMemImportFromShareableHandle(NULL,
		   (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	/* The H100 dies of this; vgpu has no fabric handles. */
	CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuMemImportFromShareableHandle(&hr,
		  (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_FABRIC));
	CHECK_H100("reserve 2", cuMemAddressReserve(&vb, 2 * g, 0, 0, 0));
	CHECK_H100("map orig", cuMemMap(vb, g, 0, h3, 0));
	CHECK_H100("map imported", cuMemMap(vb + g, g, 0, hx, 0));
	CHECK_H100("set access alias", cuMemSetAccess(vb, 2 * g, &d, 1));
	CHECK_H100("write orig", kput(vb + 4, 0xfeed));
	CHECK_H100("read alias", cuMemcpyDtoH(&v, vb + g + 4, 4));
	CHECK(v == (unsigned int)strtoul(h100_line("alias value"), NULL, 16));
	close(fd);
	CHECK_H100("unmap alias", cuMemUnmap(vb, 2 * g));
	CHECK_H100("release orig", cuMemRelease(h3));
	CHECK_H100("release imported", cuMemRelease(hx));
	CHECK_RES(CUDA_SUCCESS, cuMemAddressFree(vb, 2 * g));
}

static const char *self_path;

/* The other process: import the fd, map it, read, write. */
static int child(int fd)
{
	CUmemAccessDesc d = acc(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	CUmemGenericAllocationHandle h;
	unsigned int v = 0;
	CUdeviceptr va;

	setup();
	CHECK_H100("child import", cuMemImportFromShareableHandle(&h,
		   (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	CHECK_H100("child reserve", cuMemAddressReserve(&va, g, 0, 0, 0));
	CHECK_H100("child map", cuMemMap(va, g, 0, h, 0));
	CHECK_H100("child set access", cuMemSetAccess(va, g, &d, 1));
	CHECK_H100("child read", cuMemcpyDtoH(&v, va, 4));
	CHECK(v == (unsigned int)strtoul(h100_line("child value"), NULL, 16));
	CHECK_H100("child write", cuMemsetD32(va + 4, 0x5eed, 1));
	CHECK_H100("child unmap", cuMemUnmap(va, g));
	CHECK_H100("child release", cuMemRelease(h));
	fflush(stdout);
	return tap_failed;
}

static void other_process(void)
{
	CUmemAllocationProp pf = prop(0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
	CUmemGenericAllocationHandle h;
	unsigned int v = 0;
	char arg[32];
	int fd = -1, st = -1;
	CUdeviceptr va;
	pid_t pid;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemCreate(&h, g, &pf, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAddressReserve(&va, g, 0, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemMap(va, g, 0, h, 0));
	{
		CUmemAccessDesc d = acc(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);

		REQUIRE_RES(CUDA_SUCCESS, cuMemSetAccess(va, g, &d, 1));
	}
	CHECK_H100("write for child", cuMemsetD32(va, 0xbeef, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSynchronize());
	REQUIRE_RES(CUDA_SUCCESS, cuMemExportToShareableHandle(&fd, h,
		    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	fcntl(fd, F_SETFD, 0);
	snprintf(arg, sizeof(arg), "%d", fd);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl(self_path, self_path, "child", arg, (char *)NULL);
		_exit(127);
	}
	REQUIRE_RES(0, pid < 0);
	waitpid(pid, &st, 0);
	CHECK((WIFEXITED(st) ? WEXITSTATUS(st) : -1) == h100("child status"));
	CHECK_H100("read child write", cuMemcpyDtoH(&v, va + 4, 4));
	CHECK(v == (unsigned int)strtoul(h100_line("child wrote"), NULL, 16));
	close(fd);
	CHECK_RES(CUDA_SUCCESS, cuMemUnmap(va, g));
	CHECK_RES(CUDA_SUCCESS, cuMemRelease(h));
	CHECK_RES(CUDA_SUCCESS, cuMemAddressFree(va, g));
}

/* Copies, a fill and a kernel meet a mapping with too few rights. */
static void fault(const char *section, int flags)
{
	CUmemGenericAllocationHandle h;
	unsigned int v = 0;
	CUdeviceptr va;

	setup();
	mapped(&h, &va, 1, flags);
	CHECK_RES(h100_in(section, "fault htod"), cuMemcpyHtoD(va, &v, 4));
	CHECK_RES(h100_in(section, "fault dtoh"), cuMemcpyDtoH(&v, va, 4));
	CHECK_RES(h100_in(section, "fault memset"), cuMemsetD32(va, 1, 1));
	CHECK_RES(h100_in(section, "fault kernel write"), kput(va, 7));
	CHECK_RES(h100_in(section, "fault after"), cuCtxSynchronize());
}

static void fault_noaccess(void)
{
	fault("noaccess", 0);
}

static void fault_readonly(void)
{
	fault("readonly", CU_MEM_ACCESS_FLAGS_PROT_READ);
}

/*
 * vgpu's own: a 2D copy, an asynchronous fill and the stream memory
 * operations meet the rights too, refused at the call.
 */
static void rights_of_other_copies(void)
{
	CUmemGenericAllocationHandle h;
	CUDA_MEMCPY2D c;
	unsigned int v[4] = { 0 };
	CUdeviceptr va;

	setup();
	mapped(&h, &va, 2, CU_MEM_ACCESS_FLAGS_PROT_READ);
	memset(&c, 0, sizeof(c));
	c.srcMemoryType = CU_MEMORYTYPE_HOST;
	c.srcHost = v;
	c.srcPitch = 8;
	c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	c.dstDevice = va;
	c.dstPitch = 64;
	c.WidthInBytes = 8;
	c.Height = 2;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy2D(&c));
	c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	c.srcDevice = va;
	c.srcPitch = 64;
	c.dstMemoryType = CU_MEMORYTYPE_HOST;
	c.dstHost = v;
	c.dstPitch = 8;
	CHECK_RES(CUDA_SUCCESS, cuMemcpy2D(&c));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD8Async(va, 1, 4, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamWriteValue32(0, va, 1, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamWaitValue32(0, va + g, 0,
		  CU_STREAM_WAIT_VALUE_GEQ));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

/* vgpu's own: a stream waits on a word it may only read. */
static void wait_on_read_only(void)
{
	CUmemGenericAllocationHandle h;
	CUdeviceptr va;

	setup();
	mapped(&h, &va, 1, CU_MEM_ACCESS_FLAGS_PROT_READ);
	CHECK_RES(CUDA_SUCCESS, cuStreamWaitValue32(0, va, 0,
		  CU_STREAM_WAIT_VALUE_GEQ));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
}

/* Handle 0; the H100 dies of a handle that names nothing, vgpu refuses it. */
static void handle_zero(void)
{
	CUmemAllocationProp q;
	CUmemGenericAllocationHandle bogus = (uintptr_t)&q;
	int fd;

	setup();
	CHECK_RES(h100_in("zero", "props zero"),
		  cuMemGetAllocationPropertiesFromHandle(&q, 0));
	CHECK_RES(h100_in("zero", "release zero"), cuMemRelease(0));
	CHECK_RES(h100_in("zero", "export zero"), cuMemExportToShareableHandle(&fd,
		  0, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	CHECK_RES(h100_in("zero", "map zero"), cuMemMap(0, 0, 0, 0, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuMemGetAllocationPropertiesFromHandle(&q, bogus));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemRelease(bogus));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemExportToShareableHandle(&fd,
		  bogus, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
}

/* One thread's rounds of the whole cycle, each with its own value. */
static void *cycle(void *arg)
{
	CUmemAccessDesc d = acc(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	CUmemAllocationProp p = prop(0, 0);
	unsigned int id = (unsigned int)(uintptr_t)arg, v, i;
	CUmemGenericAllocationHandle h;
	long bad = 0;
	CUdeviceptr va;

	if (cuCtxSetCurrent(ctx))
		return (void *)1;
	for (i = 0; i < 20; i++) {
		v = 0;
		bad += cuMemCreate(&h, g, &p, 0) != CUDA_SUCCESS;
		bad += cuMemAddressReserve(&va, 2 * g, 0, 0, 0) != CUDA_SUCCESS;
		bad += cuMemMap(va + g, g, 0, h, 0) != CUDA_SUCCESS;
		bad += cuMemSetAccess(va + g, g, &d, 1) != CUDA_SUCCESS;
		bad += cuMemsetD32(va + 2 * g - 4, id * 100 + i, 1) != CUDA_SUCCESS;
		bad += cuMemcpyDtoH(&v, va + 2 * g - 4, 4) != CUDA_SUCCESS;
		bad += v != id * 100 + i;
		bad += cuMemRelease(h) != CUDA_SUCCESS;
		bad += cuMemUnmap(va, 2 * g) != CUDA_SUCCESS;
		bad += cuMemAddressFree(va, 2 * g) != CUDA_SUCCESS;
	}
	return (void *)bad;
}

/* vgpu's own: threads create, map, use and tear down at once. */
static void threads(void)
{
	pthread_t t[4];
	void *bad;
	size_t fr0, fr1, tot;
	int i;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuMemGetInfo(&fr0, &tot));
	for (i = 0; i < 4; i++)
		REQUIRE_RES(0, pthread_create(&t[i], NULL, cycle,
					      (void *)(uintptr_t)i));
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], &bad);
		CHECK(bad == NULL);
	}
	CHECK_RES(CUDA_SUCCESS, cuMemGetInfo(&fr1, &tot));
	CHECK(fr1 == fr0);
}

/*
 * vgpu's own: a handle of one context mapped in another of the device,
 * which a kernel there writes and the first context reads; the other
 * context's end takes its reservations, not the handle.
 */
static void other_context(void)
{
	CUmemAccessDesc d = acc(0, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	CUmemGenericAllocationHandle h, hc;
	CUmemAllocationProp p = prop(0, 0);
	CUdeviceptr va, vc, vd;
	CUcontext c;
	CUmodule mod;
	CUfunction cput;
	unsigned int v = 0x77, k = 0xd00d;
	void *args[] = { &vc, &k };

	setup();
	mapped(&h, &va, 1, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&cput, mod, "put"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAddressReserve(&vc, g, 0, 0, 0));
	CHECK(vc != va);
	CHECK_RES(CUDA_SUCCESS, cuMemMap(vc, g, 0, h, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemSetAccess(vc, g, &d, 1));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(cput, 1, 1, 1, 1, 1, 1, 0, 0,
					       args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemRetainAllocationHandle(&hc,
		  (void *)(uintptr_t)vc));
	CHECK(hc == h);
	CHECK_RES(CUDA_SUCCESS, cuMemRelease(hc));
	/* Made here, mapped in the first context. */
	REQUIRE_RES(CUDA_SUCCESS, cuMemCreate(&hc, g, &p, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(c));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, va, 4));
	CHECK(v == 0xd00d);
	/*
	 * Its reservation went with it; the memory made there too, though
	 * its handle is still to release.
	 */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemAddressFree(vc, g));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAddressReserve(&vd, g, 0, 0, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemMap(vd, g, 0, hc, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemGetAllocationPropertiesFromHandle(&p, hc));
	CHECK_RES(CUDA_SUCCESS, cuMemRelease(hc));
	CHECK_RES(CUDA_SUCCESS, cuMemAddressFree(vd, g));
	CHECK_RES(CUDA_SUCCESS, cuMemUnmap(va, g));
	CHECK_RES(CUDA_SUCCESS, cuMemRelease(h));
	CHECK_RES(CUDA_SUCCESS, cuMemAddressFree(va, g));
}

/*
 * vgpu's own, with two devices: memory of device 1 made while device 0's
 * context is current (a context of device 1 is open), shared with device
 * 0's context through a descriptor, which names device 1's memory still.
 * Device 1 gets rights over device 0's mapping (cuMemSetAccess), which
 * its copy engine then has, and no more; mapping device 1's memory in
 * device 0's reservation is not supported.
 */
static void two_devices(void)
{
	CUmemAllocationProp p1 = prop(1, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR), q;
	CUmemAccessDesc d1 = acc(1, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	CUmemGenericAllocationHandle h0, h1, hi;
	unsigned long long flags = 7;
	CUmemLocation loc = { CU_MEM_LOCATION_TYPE_DEVICE, 1 };
	CUcontext c1;
	CUdeviceptr va, vb;
	int n = 0, fd = -1;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGetCount(&n));
	if (n < 2)
		TAP_SKIP("one device: run with num_devices=2");
	mapped(&h0, &va, 2, CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	/* No context of device 1 is open yet. */
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuMemCreate(&h1, g, &p1, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c1, NULL, 0, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	REQUIRE_RES(CUDA_SUCCESS, cuMemCreate(&h1, g, &p1, 0));
	CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuMemMap(va + g, g, 0, h1, 0));
	/* Device 1 has no rights over device 0's mapping until given some. */
	CHECK_RES(CUDA_SUCCESS, cuMemGetAccess(&flags, &loc, va));
	CHECK(flags == 0);
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(va, 0xabc, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	CHECK_RES(CUDA_SUCCESS, cuMemSetAccess(va, g, &d1, 1));
	CHECK_RES(CUDA_SUCCESS, cuMemGetAccess(&flags, &loc, va));
	CHECK(flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	/* Device 0's own rights are its own. */
	loc.id = 0;
	CHECK_RES(CUDA_SUCCESS, cuMemGetAccess(&flags, &loc, va));
	CHECK(flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
	loc.id = 1;
	/* Device 1's copy engine writes there now, and reads. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(va, 0xabc, 1));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	{
		unsigned int v = 0;

		CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, va, 4));
		CHECK(v == 0xabc);
	}
	/* Read-only for device 1: its writes are refused, its reads not. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	d1.flags = CU_MEM_ACCESS_FLAGS_PROT_READ;
	CHECK_RES(CUDA_SUCCESS, cuMemSetAccess(va, g, &d1, 1));
	CHECK_RES(CUDA_SUCCESS, cuMemGetAccess(&flags, &loc, va));
	CHECK(flags == CU_MEM_ACCESS_FLAGS_PROT_READ);
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemsetD32(va, 0xdef, 1));
	{
		unsigned int v = 0;

		CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, va, 4));
		CHECK(v == 0xabc);
	}
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	d1.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
	REQUIRE_RES(CUDA_SUCCESS, cuMemExportToShareableHandle(&fd, h1,
		    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemImportFromShareableHandle(&hi,
		  (void *)(uintptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
	close(fd);
	CHECK_RES(CUDA_SUCCESS, cuMemGetAllocationPropertiesFromHandle(&q, hi));
	CHECK(q.location.id == 1);
	/* In device 1's own context both map. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAddressReserve(&vb, 2 * g, 0, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemMap(vb, g, 0, h1, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemMap(vb + g, g, 0, hi, 0));
	CHECK_RES(CUDA_SUCCESS, cuMemSetAccess(vb, 2 * g, &d1, 1));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(vb, 0x1dea, 1));
	{
		unsigned int v = 0;

		CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v, vb + g, 4));
		CHECK(v == 0x1dea);
	}
	CHECK_RES(CUDA_SUCCESS, cuMemUnmap(vb, 2 * g));
	CHECK_RES(CUDA_SUCCESS, cuMemAddressFree(vb, 2 * g));
	CHECK_RES(CUDA_SUCCESS, cuMemRelease(hi));
	CHECK_RES(CUDA_SUCCESS, cuMemRelease(h1));
	CHECK_RES(CUDA_SUCCESS, cuMemRelease(h0));
}

int main(int argc, char **argv)
{
	static const struct tap_test tests[] = {
		TAP_TEST(device_attributes),
		TAP_TEST(granularity),
		TAP_TEST(create),
		TAP_TEST(properties),
		TAP_TEST(reserve),
		TAP_TEST(address_free),
		TAP_TEST(map),
		TAP_TEST(access_rights),
		TAP_TEST(use),
		TAP_TEST(retain),
		TAP_TEST(grow),
		TAP_TEST(export_import),
		TAP_TEST(other_process),
		TAP_TEST(fault_noaccess),
		TAP_TEST(fault_readonly),
		TAP_TEST(rights_of_other_copies),
		TAP_TEST(wait_on_read_only),
		TAP_TEST(handle_zero),
		TAP_TEST(other_context),
		TAP_TEST(threads),
		TAP_TEST(two_devices),
	};

	self_path = "/proc/self/exe";
	if (argc == 3 && !strcmp(argv[1], "child"))
		return child(atoi(argv[2]));
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
