/*
 * H100 probe for contexts of the first ABI: the unsuffixed cuCtxCreate, the
 * API version of the context it makes and of the primary context, and in
 * that context the first ABI's memory calls (32-bit device pointers and
 * sizes: cuMemAlloc, cuMemcpyHtoD/DtoH, cuMemsetD8, cuMemGetAddressRange,
 * cuMemFree) next to the current ABI's cuMemAlloc_v2/cuMemFree_v2. The
 * unsuffixed names are resolved with dlsym, since cuda.h maps them to
 * newer ones. Output: one "name = code" per line, with values after it.
 * Built against vgpu's header and run on an H100 (driver 580.159.04) as
 *   gcc -I<vgpu's libvgpu/include> ctx1b.c -lcuda -ldl && ./a.out
 * its output is h100_ctx_v1.log, which tests/e2e/ctx_v1_api.c follows.
 * "below4g" of the first allocation prints whether the 32-bit address
 * came back nonzero; that of cuMemAlloc_v2 whether its output stayed
 * below 4 GiB (it stays 0, the call being refused).
 */
#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
typedef unsigned int u32;
#define SYM(t, v, n) t v = (t)dlsym(RTLD_DEFAULT, n)
typedef CUresult (*create_t)(CUcontext *, unsigned int, CUdevice);
typedef CUresult (*alloc_t)(u32 *, unsigned int);
typedef CUresult (*free_t)(u32);
typedef CUresult (*htod_t)(u32, const void *, unsigned int);
typedef CUresult (*dtoh_t)(void *, u32, unsigned int);
typedef CUresult (*memset_t)(u32, unsigned char, unsigned int);
typedef CUresult (*range_t)(u32 *, unsigned int *, u32);
int main(void)
{
	SYM(create_t, create1, "cuCtxCreate");
	SYM(alloc_t, alloc1, "cuMemAlloc");
	SYM(free_t, free1, "cuMemFree");
	SYM(htod_t, htod1, "cuMemcpyHtoD");
	SYM(dtoh_t, dtoh1, "cuMemcpyDtoH");
	SYM(memset_t, memset1, "cuMemsetD8");
	SYM(range_t, range1, "cuMemGetAddressRange");
	CUcontext c = NULL, pc = NULL;
	CUdevice d;
	unsigned int v = 0, sz = 0;
	u32 p = 0, q = 0, base = 0;
	CUdeviceptr p2 = 0;
	char in[64] = "first abi", out[64];
	CUresult r;
	int i;

	cuInit(0);
	cuDeviceGet(&d, 0);
	r = create1(&c, 0, d);
	printf("v1 ctxcreate = %d\n", r);
	cuCtxGetApiVersion(c, &v);
	printf("v1 ctx api = %u\n", v);
	r = alloc1(&p, 4096);
	printf("v1 alloc = %d below4g=%d\n", r, p != 0);
	r = htod1(p, in, sizeof(in));
	printf("v1 htod = %d\n", r);
	memset(out, 0, sizeof(out));
	r = dtoh1(out, p, sizeof(out));
	printf("v1 dtoh = %d same=%d\n", r, !memcmp(in, out, sizeof(in)));
	r = memset1(p, 7, 16);
	printf("v1 memset = %d\n", r);
	r = range1(&base, &sz, p + 10);
	printf("v1 range = %d base_ok=%d size=%u\n", r, base == p, sz);
	r = cuMemAlloc_v2(&p2, 4096);
	printf("v2 alloc in v1 ctx = %d below4g=%d\n", r, p2 < (1ull << 32));
	r = cuMemFree_v2(p2);
	printf("v2 free in v1 ctx = %d\n", r);
	for (i = 0; i < 4; i++) {
		r = alloc1(&q, 64u << 20);
		printf("v1 alloc 64M #%d = %d\n", i, r);
	}
	r = alloc1(&q, 0xf0000000u);
	printf("v1 alloc 3.75G = %d\n", r);
	r = free1(p);
	printf("v1 free = %d\n", r);
	r = free1(p);
	printf("v1 free twice = %d\n", r);
	cuCtxDestroy(c);
	cuDevicePrimaryCtxRetain(&pc, d);
	cuCtxGetApiVersion(pc, &v);
	printf("primary api = %u\n", v);
	return 0;
}
