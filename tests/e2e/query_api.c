// SPDX-License-Identifier: MIT
/*
 * The device, context, stream and occupancy queries and settings of issue
 * 14's first batch: cuDeviceGetProperties, PCI bus ids, LUIDs, 1D texture
 * widths, peers, context ids, flags, limits and configurations, stream
 * ids, devices and attributes, and the dynamic shared memory a number of
 * blocks leaves. Every rule and error code is the one an H100 showed for
 * the same call (tests/e2e/ref/h100_api.log, written by h100_api_probe.c
 * next to it); values differ where vgpu's devices do (texture sizes,
 * no peers, no persisting L2, one memory synchronization domain). Where
 * the H100 crashed on a bad pointer or handle, vgpu's answer is checked
 * instead. Needs two devices (num_devices=2).
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#define HEAD ".version 9.0\n.target sm_75\n.address_size 64\n"

static const char ptx[] = HEAD
	".visible .entry plain(.param .u64 p)\n{\n"
	"\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<2>;\n"
	"\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, 7;\n"
	"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n"
	".visible .entry smem(.param .u64 p) .maxntid 256, 1, 1\n{\n"
	"\t.shared .align 4 .b8 buf[4096];\n"
	"\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<3>;\n"
	"\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n"
	"\tst.shared.u32 [buf], %r1;\n\tbar.sync 0;\n"
	"\tld.shared.u32 %r2, [buf];\n"
	"\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n";

/*
 * A kernel that prints, in a module of its own (limits_api.c shows that
 * another kernel of a printing module does not fix the FIFO's size).
 */
static const char ptx_print[] = HEAD
	".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"
	/* "# hi\n", a TAP comment. */
	".global .align 1 .b8 $str[6] = {35, 32, 104, 105, 10, 0};\n"
	".visible .entry pr()\n{\n"
	"\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n"
	"\tmov.u64 %rd1, $str;\n\tcvta.global.u64 %rd2, %rd1;\n"
	"\t{\n\t.param .b64 p0;\n\tst.param.b64 [p0], %rd2;\n"
	"\t.param .b64 p1;\n\tst.param.b64 [p1], 0;\n"
	"\t.param .b32 rv;\n\tcall.uni (rv), vprintf, (p0, p1);\n"
	"\tld.param.b32 %r1, [rv];\n\t}\n\tret;\n}\n";

static int attr(CUdevice dev, CUdevice_attribute a)
{
	int v = -1;

	CHECK_RES(CUDA_SUCCESS, cuDeviceGetAttribute(&v, a, dev));
	return v;
}

/* A context of its own on device 0, current. */
static CUcontext setup(void)
{
	CUcontext c;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, 0, 0));
	return c;
}

/* Two contexts destroyed, the first left current: destroyed and current. */
static void make_destroyed_current(void)
{
	CUcontext a, b, cur;

	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&a, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&b, NULL, 0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxDestroy(a));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxDestroy(b));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxGetCurrent(&cur));
	REQUIRE_RES(1, cur == a);
}

static void calls_before_init(void)
{
	CUstreamAttrValue av = { 0 };
	unsigned long long id;
	unsigned int mask;
	CUsharedconfig sc;
	CUfunc_cache cc;
	char buf[64];
	CUdevprop p;
	CUdevice d;
	size_t v;
	int i;

	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetPCIBusId(buf, 64, 0));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED,
		  cuDeviceGetByPCIBusId(&d, "0000:00:00.0"));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetProperties(&p, 0));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuDeviceGetLuid(buf, &mask, 0));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED,
		  cuDeviceGetTexture1DLinearMaxWidth(&v, CU_AD_FORMAT_UNSIGNED_INT8,
						     1, 0));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuDeviceCanAccessPeer(&i, 0, 0));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED,
		  cuDeviceGetP2PAttribute(&i, CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK,
					  0, 0));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuCtxGetId(NULL, &id));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuCtxSetFlags(0));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 2048));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuCtxGetCacheConfig(&cc));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuCtxSetCacheConfig(0));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuCtxGetSharedMemConfig(&sc));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuCtxSetSharedMemConfig(0));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuStreamGetId(NULL, &id));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuStreamGetDevice(NULL, &d));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED,
		  cuStreamGetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &av));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED,
		  cuStreamSetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &av));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED, cuStreamCopyAttributes(NULL, NULL));
	CHECK_RES(CUDA_ERROR_NOT_INITIALIZED,
		  cuOccupancyAvailableDynamicSMemPerBlock(&v, NULL, 1, 32));
}

/* The legacy property block repeats the attributes of the same names. */
static void device_properties(void)
{
	CUdevprop p;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	memset(&p, 0x5a, sizeof(p));
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetProperties(&p, 1));
	CHECK(p.maxThreadsPerBlock == attr(1, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
	CHECK(p.maxThreadsDim[0] == attr(1, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X));
	CHECK(p.maxThreadsDim[1] == attr(1, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y));
	CHECK(p.maxThreadsDim[2] == attr(1, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z));
	CHECK(p.maxGridSize[0] == attr(1, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X));
	CHECK(p.maxGridSize[1] == attr(1, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y));
	CHECK(p.maxGridSize[2] == attr(1, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z));
	CHECK(p.sharedMemPerBlock ==
	      attr(1, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK));
	CHECK(p.totalConstantMemory == attr(1, CU_DEVICE_ATTRIBUTE_TOTAL_CONSTANT_MEMORY));
	CHECK(p.SIMDWidth == 32);
	CHECK(p.memPitch == 2147483647);
	CHECK(p.regsPerBlock == attr(1, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK));
	CHECK(p.clockRate == attr(1, CU_DEVICE_ATTRIBUTE_CLOCK_RATE));
	CHECK(p.textureAlign == 512);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetProperties(NULL, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetProperties(NULL, 99));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetProperties(&p, 2));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetProperties(&p, -1));
}

/* "dddd:bb:dd.0", upper-case hex, from the PCI attributes. */
static void bus_id_of_attributes(CUdevice d, char *buf, size_t len)
{
	snprintf(buf, len, "%04X:%02X:%02X.0",
		 attr(d, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID),
		 attr(d, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID),
		 attr(d, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID));
}

static void pci_bus_ids(void)
{
	char buf[64], want[32];
	CUdevice d, o;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	for (d = 0; d < 2; d++) {
		bus_id_of_attributes(d, want, sizeof(want));
		CHECK_RES(CUDA_SUCCESS, cuDeviceGetPCIBusId(buf, sizeof(buf), d));
		CHECK(!strcmp(buf, want));
		o = -7;
		CHECK_RES(CUDA_SUCCESS, cuDeviceGetByPCIBusId(&o, buf));
		CHECK(o == d);
	}
	/* vgpuN is on bus N. */
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetPCIBusId(buf, sizeof(buf), 1));
	CHECK(!strcmp(buf, "0000:01:00.0"));

	/* 13 bytes hold it; less gets what fits, and 1. */
	memset(buf, 'X', sizeof(buf));
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetPCIBusId(buf, 13, 1));
	CHECK(!strcmp(buf, "0000:01:00.0"));
	memset(buf, 'X', sizeof(buf));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(buf, 12, 1));
	CHECK(!strcmp(buf, "0000:01:00."));
	memset(buf, 'X', sizeof(buf));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(buf, 5, 1));
	CHECK(!strcmp(buf, "0000"));
	memset(buf, 'X', sizeof(buf));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(buf, 1, 1));
	CHECK(buf[0] == '\0' && buf[1] == 'X');
	memset(buf, 'X', sizeof(buf));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(buf, 0, 1));
	CHECK(buf[0] == 'X');
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(NULL, 64, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetPCIBusId(NULL, 0, 99));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetPCIBusId(buf, 0, 99));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetPCIBusId(buf, 64, 2));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetPCIBusId(buf, 64, -1));
}

/* The forms and rules NVIDIA's driver reads (tests/unit/test_busid.c). */
static void pci_bus_id_lookup(void)
{
	static const struct {
		const char *s;
		CUresult r;
		CUdevice dev;
	} cases[] = {
		{ "0000:01:00.0", CUDA_SUCCESS, 1 },
		{ "0000:00:00.0", CUDA_SUCCESS, 0 },
		{ "0:1:0", CUDA_SUCCESS, 1 },
		{ "01:00.0", CUDA_SUCCESS, 1 },
		{ " 00000000:01:00.0", CUDA_SUCCESS, 1 },
		{ "0000:01:00.0x", CUDA_SUCCESS, 1 },
		{ "0000:01:00.0 ", CUDA_ERROR_INVALID_VALUE, -7 },
		{ "01:00", CUDA_ERROR_INVALID_VALUE, -7 },
		{ "0000:01:00:0", CUDA_ERROR_INVALID_VALUE, -7 },
		{ "garbage", CUDA_ERROR_INVALID_VALUE, -7 },
		{ "", CUDA_ERROR_INVALID_VALUE, -7 },
		{ "0000:01:00.1", CUDA_ERROR_INVALID_DEVICE, -7 },
		{ "0000:02:00.0", CUDA_ERROR_INVALID_DEVICE, -7 },
		{ "0001:01:00.0", CUDA_ERROR_INVALID_DEVICE, -7 },
		{ "0000:101:00.0", CUDA_ERROR_INVALID_DEVICE, -7 },
	};
	CUdevice d;
	size_t i;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CUresult r;

		d = -7;
		r = cuDeviceGetByPCIBusId(&d, cases[i].s);
		if (r != cases[i].r || d != cases[i].dev)
			TAP_FAIL("\"%s\": %d, device %d; expected %d, device %d",
				 cases[i].s, r, d, cases[i].r, cases[i].dev);
	}
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(NULL, "0000:01:00.0"));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(&d, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetByPCIBusId(NULL, "garbage"));
}

/* Bus ids follow the device file, not the ordinal. */
static void pci_bus_ids_with_visible_devices(void)
{
	char buf[64];
	CUdevice d = -7;

	setenv("CUDA_VISIBLE_DEVICES", "1", 1);
	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetPCIBusId(buf, sizeof(buf), 0));
	CHECK(!strcmp(buf, "0000:01:00.0"));
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetByPCIBusId(&d, "0000:01:00.0"));
	CHECK(d == 0);
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE,
		  cuDeviceGetByPCIBusId(&d, "0000:00:00.0"));
}

/* No LUIDs on Linux; the pointers are checked before the device. */
static void luid_not_supported(void)
{
	unsigned int mask = 777;
	char luid[8];

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_ERROR_NOT_SUPPORTED, cuDeviceGetLuid(luid, &mask, 0));
	CHECK(mask == 777);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetLuid(NULL, &mask, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetLuid(luid, NULL, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetLuid(NULL, NULL, 99));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetLuid(luid, &mask, 2));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetLuid(luid, &mask, -1));
}

/*
 * The format and channels are checked before the device; the widths are
 * an H100's: 4 GiB of elements, at most 2^30 of them.
 */
static void texture_1d_width(void)
{
	static const struct {
		CUarray_format f;
		unsigned int ch;
		CUresult r;
		size_t w;
	} cases[] = {
		{ CU_AD_FORMAT_UNSIGNED_INT8, 1, CUDA_SUCCESS, 1u << 30 },
		{ CU_AD_FORMAT_UNSIGNED_INT8, 2, CUDA_SUCCESS, 1u << 30 },
		{ CU_AD_FORMAT_UNSIGNED_INT8, 4, CUDA_SUCCESS, 1u << 30 },
		{ CU_AD_FORMAT_UNSIGNED_INT16, 4, CUDA_SUCCESS, 1u << 29 },
		{ CU_AD_FORMAT_SIGNED_INT32, 2, CUDA_SUCCESS, 1u << 29 },
		{ CU_AD_FORMAT_HALF, 2, CUDA_SUCCESS, 1u << 30 },
		{ CU_AD_FORMAT_FLOAT, 4, CUDA_SUCCESS, 1u << 28 },
		{ CU_AD_FORMAT_UNSIGNED_INT8, 0, CUDA_ERROR_INVALID_VALUE, 0 },
		{ CU_AD_FORMAT_UNSIGNED_INT8, 3, CUDA_ERROR_INVALID_VALUE, 0 },
		{ CU_AD_FORMAT_HALF, 5, CUDA_ERROR_INVALID_VALUE, 0 },
		{ CU_AD_FORMAT_NV12, 3, CUDA_SUCCESS, 1u << 30 },
		{ CU_AD_FORMAT_NV12, 1, CUDA_ERROR_INVALID_VALUE, 0 },
		{ CU_AD_FORMAT_UNORM_INT8X1, 1, CUDA_SUCCESS, 1u << 30 },
		{ CU_AD_FORMAT_UNORM_INT8X1, 2, CUDA_ERROR_INVALID_VALUE, 0 },
		{ CU_AD_FORMAT_SNORM_INT16X4, 4, CUDA_SUCCESS, 1u << 29 },
		{ CU_AD_FORMAT_BC1_UNORM, 4, CUDA_SUCCESS, 1u << 29 },
		{ CU_AD_FORMAT_BC1_UNORM, 1, CUDA_ERROR_INVALID_VALUE, 0 },
		{ CU_AD_FORMAT_UNORM_INT_101010_2, 4, CUDA_SUCCESS, 1u << 30 },
		{ (CUarray_format)0, 1, CUDA_ERROR_INVALID_VALUE, 0 },
		{ (CUarray_format)4, 4, CUDA_ERROR_INVALID_VALUE, 0 },
		{ (CUarray_format)99, 1, CUDA_ERROR_INVALID_VALUE, 0 },
	};
	size_t i, w;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK(attr(0, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH) == 268435456);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CUresult r;

		w = 777;
		r = cuDeviceGetTexture1DLinearMaxWidth(&w, cases[i].f, cases[i].ch, 0);
		if (r != cases[i].r || w != (r ? 777u : cases[i].w))
			TAP_FAIL("format %d, %u channels: %d, width %zu",
				 cases[i].f, cases[i].ch, r, w);
	}
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuDeviceGetTexture1DLinearMaxWidth(NULL, CU_AD_FORMAT_FLOAT, 1, 0));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE,
		  cuDeviceGetTexture1DLinearMaxWidth(&w, CU_AD_FORMAT_FLOAT, 1, 2));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuDeviceGetTexture1DLinearMaxWidth(&w, (CUarray_format)99, 1, 99));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuDeviceGetTexture1DLinearMaxWidth(&w, CU_AD_FORMAT_FLOAT, 0, 99));
}

/* Every device reaches every other's memory, none itself. */
static void peers_access(void)
{
	int a, b, v;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	for (a = 0; a < 2; a++)
		for (b = 0; b < 2; b++) {
			v = 777;
			CHECK_RES(CUDA_SUCCESS, cuDeviceCanAccessPeer(&v, a, b));
			CHECK(v == (a != b));
		}
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceCanAccessPeer(&v, 0, 2));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceCanAccessPeer(&v, -1, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceCanAccessPeer(NULL, 0, 1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceCanAccessPeer(NULL, 99, 0));
}

/* What vgpu answers for a pair, from PERFORMANCE_RANK on (peer.c). */
static const int p2p_value[] = { 0, 1, 1, 0, 0 };

static void p2p_attributes(void)
{
	int at, v;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	for (at = CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK;
	     at <= CU_DEVICE_P2P_ATTRIBUTE_ONLY_PARTIAL_NATIVE_ATOMIC_SUPPORTED;
	     at++) {
		v = 777;
		CHECK_RES(CUDA_SUCCESS, cuDeviceGetP2PAttribute(&v, at, 0, 1));
		CHECK(v == p2p_value[at - 1]);
		v = 777;
		CHECK_RES(CUDA_SUCCESS, cuDeviceGetP2PAttribute(&v, at, 1, 0));
		CHECK(v == p2p_value[at - 1]);
		/* A device and itself are no pair. */
		CHECK_RES(CUDA_ERROR_INVALID_DEVICE,
			  cuDeviceGetP2PAttribute(&v, at, 1, 1));
	}
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetP2PAttribute(&v, 0, 0, 1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetP2PAttribute(&v, 6, 0, 1));
	/* The devices come before the attribute, the pointer first. */
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetP2PAttribute(&v, 99, 0, 0));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetP2PAttribute(&v, 99, 99, 0));
	CHECK_RES(CUDA_ERROR_INVALID_DEVICE, cuDeviceGetP2PAttribute(&v, 1, 0, 2));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetP2PAttribute(NULL, 1, 0, 1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetP2PAttribute(NULL, 99, 99, 99));
}

/* Ids count context activations; a reset primary context has none. */
static void context_ids(void)
{
	unsigned long long a_id = 0, b_id = 0, id = 0, p_id = 0;
	CUcontext a, b, p, o;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetId(NULL, &id));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetId(NULL, NULL));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&a, NULL, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetId(NULL, &id));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetId(a, &a_id));
	CHECK(id == 1 && a_id == 1);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetId(a, NULL));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&b, NULL, 0, 1));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetId(b, &b_id));
	CHECK(b_id == 2);
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&p, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetId(p, &p_id));
	CHECK(p_id == 3);
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxGetId(p, &id));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&p, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetId(p, &id));
	CHECK(id == 4);
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxReset(0));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxGetId(p, &id));
	CHECK_RES(CUDA_SUCCESS, cuCtxPushCurrent(p));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxGetId(NULL, &id));
	CHECK_RES(CUDA_SUCCESS, cuCtxPopCurrent(&o));
	/* a beneath b on the stack: destroyed, its handle says so. */
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(a));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxGetId(a, &id));
	CHECK_RES(CUDA_SUCCESS, cuCtxDestroy(b));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxGetId(NULL, &id));
	CHECK_RES(CUDA_SUCCESS, cuCtxPopCurrent(&o));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&a, NULL, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetId(a, &id));
	CHECK(id == 5);
}

/* cuCtxSetFlags followed by cuCtxGetFlags, as on the H100. */
static void context_set_flags(void)
{
	static const struct {
		unsigned int set;
		CUresult r;
		unsigned int get;
	} cases[] = {
		{ 0x0, CUDA_SUCCESS, 0x0 }, { 0x1, CUDA_SUCCESS, 0x1 },
		{ 0x2, CUDA_SUCCESS, 0x2 }, { 0x4, CUDA_SUCCESS, 0x4 },
		{ 0x3, CUDA_ERROR_INVALID_VALUE, 0x4 },
		{ 0x5, CUDA_ERROR_INVALID_VALUE, 0x4 },
		{ 0x6, CUDA_ERROR_INVALID_VALUE, 0x4 },
		{ 0x7, CUDA_ERROR_INVALID_VALUE, 0x4 },
		{ 0x8, CUDA_SUCCESS, 0x0 }, { 0x10, CUDA_SUCCESS, 0x10 },
		{ 0x20, CUDA_SUCCESS, 0x0 }, { 0x40, CUDA_SUCCESS, 0x0 },
		{ 0x80, CUDA_SUCCESS, 0x80 }, { 0x81, CUDA_SUCCESS, 0x81 },
		{ 0xff, CUDA_ERROR_INVALID_VALUE, 0x81 },
		{ 0xf8, CUDA_SUCCESS, 0x90 },
		{ 0x100, CUDA_ERROR_INVALID_VALUE, 0x90 },
		{ 0x80000000, CUDA_ERROR_INVALID_VALUE, 0x90 },
		{ 0x0, CUDA_SUCCESS, 0x0 },
	};
	unsigned int f;
	CUcontext c;
	size_t i;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetFlags(0));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetFlags(0x100));
	setup();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CUresult r = cuCtxSetFlags(cases[i].set);

		f = 777;
		CHECK_RES(CUDA_SUCCESS, cuCtxGetFlags(&f));
		if (r != cases[i].r || f != cases[i].get)
			TAP_FAIL("cuCtxSetFlags(0x%x): %d, flags 0x%x", cases[i].set,
				 r, f);
	}
	/* The flags a context is created with, as cuCtxSetFlags keeps them. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c, NULL, CU_CTX_SCHED_SPIN |
					      CU_CTX_SYNC_MEMOPS, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetFlags(&f));
	CHECK(f == (CU_CTX_SCHED_SPIN | CU_CTX_SYNC_MEMOPS));
	make_destroyed_current();
	CHECK_RES(CUDA_SUCCESS, cuCtxGetFlags(&f));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxSetFlags(0));
}

/*
 * A primary context reports MAP_HOST; cuCtxSetFlags changes its flags,
 * which cuDevicePrimaryCtxGetState shows in SYNC_MEMOPS only, and
 * cuDevicePrimaryCtxSetFlags reaches it while it is active.
 */
static void primary_context_flags(void)
{
	unsigned int f, pf;
	CUcontext p;
	int active;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&p, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxPushCurrent(p));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetFlags(&f));
	CHECK(f == CU_CTX_MAP_HOST);
	CHECK_RES(CUDA_SUCCESS, cuCtxSetFlags(CU_CTX_SCHED_BLOCKING_SYNC |
					     CU_CTX_LMEM_RESIZE_TO_MAX));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetFlags(&f));
	CHECK(f == 0x1c);
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &pf, &active));
	CHECK(pf == 0 && active == 1);
	CHECK_RES(CUDA_SUCCESS, cuCtxSetFlags(CU_CTX_SYNC_MEMOPS));
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &pf, &active));
	CHECK(pf == CU_CTX_SYNC_MEMOPS);
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_SPIN));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetFlags(&f));
	CHECK(f == (CU_CTX_SCHED_SPIN | CU_CTX_MAP_HOST));
	CHECK_RES(CUDA_SUCCESS, cuCtxSetFlags(0x84));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetFlags(&f));
	CHECK(f == 0x8c);
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &pf, &active));
	CHECK(pf == 0x81);
	CHECK_RES(CUDA_SUCCESS, cuCtxSetFlags(0));
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxGetState(0, &pf, &active));
	CHECK(pf == CU_CTX_SCHED_SPIN);
	/* Activated afresh: the primary flags again. */
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRelease(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&p, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetFlags(&f));
	CHECK(f == (CU_CTX_SCHED_SPIN | CU_CTX_MAP_HOST));
}

/* A fresh context's limits: the H100's, less what vgpu's devices lack. */
static void limit_defaults(void)
{
	size_t v;
	int l;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetLimit(NULL, 99));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetLimit(99, 0));
	setup();
	CHECK_RES(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
	CHECK(v == 1024);
	CHECK_RES(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
	CHECK(v == 8650752);
	CHECK_RES(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
	CHECK(v == 8388608);
	CHECK_RES(CUDA_ERROR_UNSUPPORTED_LIMIT,
		  cuCtxGetLimit(&v, CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH));
	CHECK_RES(CUDA_SUCCESS,
		  cuCtxGetLimit(&v, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT));
	CHECK(v == 2048);
	CHECK_RES(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_MAX_L2_FETCH_GRANULARITY));
	CHECK(v == 64);
	/* Three tenths of MAX_PERSISTING_L2_CACHE_SIZE, which is 0 here. */
	CHECK(attr(0, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE) == 0);
	CHECK_RES(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_PERSISTING_L2_CACHE_SIZE));
	CHECK(v == 0);
	CHECK_RES(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_SHMEM_SIZE));
	CHECK(v == (size_t)attr(0, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_CIG_ENABLED));
	CHECK(v == 0);
	CHECK_RES(CUDA_ERROR_UNSUPPORTED_LIMIT,
		  cuCtxGetLimit(&v, CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetLimit(&v, CU_LIMIT_MAX));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetLimit(&v, (CUlimit)-1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetLimit(NULL, CU_LIMIT_STACK_SIZE));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetLimit(NULL, (CUlimit)99));
	for (l = 0; l < CU_LIMIT_MAX; l++)
		CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxSetLimit((CUlimit)(l + 10), 0));
	make_destroyed_current();
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED,
		  cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED,
		  cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 2048));
}

struct limit_case {
	CUlimit limit;
	size_t set;
	CUresult r;
	size_t get;
};

/* Each limit set in turn in one context, then read back: the H100's. */
static const struct limit_case limit_cases[] = {
	{ CU_LIMIT_STACK_SIZE, 0, CUDA_SUCCESS, 0 },
	{ CU_LIMIT_STACK_SIZE, 1, CUDA_SUCCESS, 16 },
	{ CU_LIMIT_STACK_SIZE, 16, CUDA_SUCCESS, 16 },
	{ CU_LIMIT_STACK_SIZE, 17, CUDA_SUCCESS, 32 },
	{ CU_LIMIT_STACK_SIZE, 31, CUDA_SUCCESS, 31 },
	{ CU_LIMIT_STACK_SIZE, 33, CUDA_SUCCESS, 48 },
	{ CU_LIMIT_STACK_SIZE, 1000, CUDA_SUCCESS, 1008 },
	{ CU_LIMIT_STACK_SIZE, 65552, CUDA_SUCCESS, 65552 },
	{ CU_LIMIT_STACK_SIZE, 262144, CUDA_SUCCESS, 262144 },
	{ CU_LIMIT_STACK_SIZE, 524288, CUDA_ERROR_INVALID_VALUE, 262144 },
	{ CU_LIMIT_STACK_SIZE, 1ull << 40, CUDA_ERROR_INVALID_VALUE, 262144 },
	{ CU_LIMIT_PRINTF_FIFO_SIZE, 0, CUDA_SUCCESS, 524288 },
	{ CU_LIMIT_PRINTF_FIFO_SIZE, 524289, CUDA_SUCCESS, 524544 },
	{ CU_LIMIT_PRINTF_FIFO_SIZE, 1000000, CUDA_SUCCESS, 1000192 },
	{ CU_LIMIT_PRINTF_FIFO_SIZE, 1048576, CUDA_SUCCESS, 1048576 },
	{ CU_LIMIT_PRINTF_FIFO_SIZE, 1ull << 40, CUDA_SUCCESS, 2147483648ull },
	{ CU_LIMIT_MALLOC_HEAP_SIZE, 0, CUDA_SUCCESS, 4194304 },
	{ CU_LIMIT_MALLOC_HEAP_SIZE, 3276801, CUDA_SUCCESS, 4194304 },
	{ CU_LIMIT_MALLOC_HEAP_SIZE, 5242880, CUDA_SUCCESS, 5242880 },
	{ CU_LIMIT_MALLOC_HEAP_SIZE, 8388609, CUDA_SUCCESS, 8454144 },
	{ CU_LIMIT_MALLOC_HEAP_SIZE, 32768001, CUDA_SUCCESS, 32833536 },
	{ CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 0, CUDA_SUCCESS, 32 },
	{ CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 33, CUDA_SUCCESS, 33 },
	{ CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT, 4096, CUDA_SUCCESS, 4096 },
	{ CU_LIMIT_MAX_L2_FETCH_GRANULARITY, 0, CUDA_SUCCESS, 0 },
	{ CU_LIMIT_MAX_L2_FETCH_GRANULARITY, 17, CUDA_SUCCESS, 17 },
	{ CU_LIMIT_MAX_L2_FETCH_GRANULARITY, 128, CUDA_SUCCESS, 128 },
	{ CU_LIMIT_MAX_L2_FETCH_GRANULARITY, 129, CUDA_ERROR_INVALID_VALUE, 128 },
	/* vgpu's maximum persisting size is 0: only 0 fits. */
	{ CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 0, CUDA_SUCCESS, 0 },
	{ CU_LIMIT_PERSISTING_L2_CACHE_SIZE, 1, CUDA_ERROR_INVALID_VALUE, 0 },
	{ CU_LIMIT_SHMEM_SIZE, 0, CUDA_ERROR_NOT_PERMITTED, 0 },
	{ CU_LIMIT_CIG_ENABLED, 1, CUDA_ERROR_NOT_PERMITTED, 0 },
	{ CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH, 2, CUDA_ERROR_UNSUPPORTED_LIMIT, 0 },
	{ CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED, 0, CUDA_ERROR_UNSUPPORTED_LIMIT, 0 },
	{ CU_LIMIT_MAX, 0, CUDA_ERROR_INVALID_VALUE, 0 },
};

static void limits_set_and_read_back(void)
{
	size_t i, v;

	setup();
	for (i = 0; i < sizeof(limit_cases) / sizeof(limit_cases[0]); i++) {
		const struct limit_case *c = &limit_cases[i];
		CUresult r = cuCtxSetLimit(c->limit, c->set);

		v = 777;
		if (r != c->r)
			TAP_FAIL("cuCtxSetLimit(%d, %zu): %d, expected %d",
				 c->limit, c->set, r, c->r);
		if (c->limit == CU_LIMIT_SHMEM_SIZE || c->limit >= CU_LIMIT_MAX ||
		    c->limit == CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH ||
		    c->limit == CU_LIMIT_CIG_SHMEM_FALLBACK_ENABLED)
			continue;
		CHECK_RES(CUDA_SUCCESS, cuCtxGetLimit(&v, c->limit));
		if (v != c->get)
			TAP_FAIL("after cuCtxSetLimit(%d, %zu): %zu, expected %zu",
				 c->limit, c->set, v, c->get);
	}
}

/* The printf FIFO's size is fixed once a kernel that prints ran. */
static void printf_fifo_fixed_by_a_printing_kernel(void)
{
	CUfunction plain, pr;
	CUdeviceptr d;
	CUmodule m, mp;
	size_t v;
	void *args[] = { &d };

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mp, ptx_print));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&plain, m, "plain"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&pr, mp, "pr"));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d, 4096));
	CHECK_RES(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 1 << 20));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(plain, 1, 1, 1, 1, 1, 1, 0, NULL,
					       args, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 2 << 20));
	CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(pr, 1, 1, 1, 1, 1, 1, 0, NULL,
					       NULL, NULL));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 3 << 20));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
	CHECK(v == 2 << 20);
	/* The heap and the stack are not fixed by it. */
	CHECK_RES(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 3 << 20));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
	CHECK(v == 4 << 20);
	CHECK_RES(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 8192));
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(mp));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 4 << 20));
}

/* Limits belong to the context: another one, or a reset, starts afresh. */
static void limits_per_context(void)
{
	CUcontext a, b, p;
	size_t v;

	a = setup();
	CHECK_RES(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 4096));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&b, NULL, 0, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
	CHECK(v == 1024);
	CHECK_RES(CUDA_SUCCESS, cuCtxSetCurrent(a));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
	CHECK(v == 4096);
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&p, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxSetCurrent(p));
	CHECK_RES(CUDA_SUCCESS, cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 2048));
	CHECK_RES(CUDA_SUCCESS, cuDevicePrimaryCtxReset(0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&p, 0));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
	CHECK(v == 1024);
}

static void cache_and_shared_configs(void)
{
	CUsharedconfig sc;
	CUfunc_cache cc;
	int i;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetCacheConfig(&cc));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetCacheConfig(NULL));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetCacheConfig(9));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxGetSharedMemConfig(NULL));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuCtxSetSharedMemConfig(9));
	setup();
	CHECK_RES(CUDA_SUCCESS, cuCtxGetCacheConfig(&cc));
	CHECK(cc == CU_FUNC_CACHE_PREFER_NONE);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetCacheConfig(NULL));
	for (i = 0; i <= 3; i++) {
		CHECK_RES(CUDA_SUCCESS, cuCtxSetCacheConfig((CUfunc_cache)i));
		CHECK_RES(CUDA_SUCCESS, cuCtxGetCacheConfig(&cc));
		CHECK(cc == (CUfunc_cache)i);
	}
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxSetCacheConfig((CUfunc_cache)4));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxSetCacheConfig((CUfunc_cache)-1));
	CHECK_RES(CUDA_SUCCESS, cuCtxGetCacheConfig(&cc));
	CHECK(cc == CU_FUNC_CACHE_PREFER_EQUAL);
	/* Four-byte banks, whatever is asked for. */
	CHECK_RES(CUDA_SUCCESS, cuCtxGetSharedMemConfig(&sc));
	CHECK(sc == CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxGetSharedMemConfig(NULL));
	for (i = 0; i <= 2; i++) {
		CHECK_RES(CUDA_SUCCESS, cuCtxSetSharedMemConfig((CUsharedconfig)i));
		CHECK_RES(CUDA_SUCCESS, cuCtxGetSharedMemConfig(&sc));
		CHECK(sc == CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE);
	}
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxSetSharedMemConfig((CUsharedconfig)3));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxSetSharedMemConfig((CUsharedconfig)-1));
	make_destroyed_current();
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxGetCacheConfig(&cc));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxSetCacheConfig(1));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxGetSharedMemConfig(&sc));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxSetSharedMemConfig(1));
}

struct thread_ids {
	CUcontext ctx;
	unsigned long long per_thread, ptsz_null, legacy;
};

static void *other_thread_ids(void *arg)
{
	struct thread_ids *t = arg;

	cuCtxSetCurrent(t->ctx);
	cuStreamGetId(CU_STREAM_PER_THREAD, &t->per_thread);
	cuStreamGetId_ptsz(NULL, &t->ptsz_null);
	cuStreamGetId(NULL, &t->legacy);
	return NULL;
}

/* Ids count streams as they are made, legacy and per-thread ones too. */
static void stream_ids(void)
{
	unsigned long long legacy, legacy2, pt, s1_id, s2_id, id;
	struct thread_ids t = { 0 };
	CUstream s1, s2;
	pthread_t th;

	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuStreamGetId(NULL, &id));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuStreamGetId(CU_STREAM_PER_THREAD, &id));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamGetId(NULL, NULL));
	t.ctx = setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s1, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s2, CU_STREAM_NON_BLOCKING));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetId(NULL, &legacy));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetId(CU_STREAM_LEGACY, &id));
	CHECK(id == legacy);
	CHECK_RES(CUDA_SUCCESS, cuStreamGetId_ptsz(CU_STREAM_LEGACY, &id));
	CHECK(id == legacy);
	CHECK_RES(CUDA_SUCCESS, cuStreamGetId(s1, &s1_id));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetId(s2, &s2_id));
	CHECK(legacy < s1_id && s1_id < s2_id);
	CHECK_RES(CUDA_SUCCESS, cuStreamGetId(CU_STREAM_PER_THREAD, &pt));
	CHECK(pt > s2_id);
	CHECK_RES(CUDA_SUCCESS, cuStreamGetId_ptsz(NULL, &id));
	CHECK(id == pt);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamGetId(s1, NULL));
	pthread_create(&th, NULL, other_thread_ids, &t);
	pthread_join(th, NULL);
	CHECK(t.per_thread > pt && t.ptsz_null == t.per_thread);
	CHECK(t.legacy == legacy);
	/* Another context's legacy stream has its own id. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&t.ctx, NULL, 0, 1));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetId(NULL, &legacy2));
	CHECK(legacy2 > t.per_thread);
	/* A stream of another context answers for itself. */
	CHECK_RES(CUDA_SUCCESS, cuStreamGetId(s1, &id));
	CHECK(id == s1_id);
	/* A destroyed stream: the H100 crashes; vgpu refuses the handle. */
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(s2));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamGetId(s2, &id));
	make_destroyed_current();
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuStreamGetId(NULL, &id));
}

static void stream_device(void)
{
	CUcontext c0, c1;
	CUstream s0, s1;
	CUdevice d;

	c0 = setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c1, NULL, 0, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s1, 0));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetDevice(NULL, &d));
	CHECK(d == 1);
	CHECK_RES(CUDA_SUCCESS, cuStreamGetDevice(CU_STREAM_PER_THREAD, &d));
	CHECK(d == 1);
	CHECK_RES(CUDA_SUCCESS, cuStreamGetDevice(s0, &d));
	CHECK(d == 0);
	CHECK_RES(CUDA_SUCCESS, cuStreamGetDevice_ptsz(NULL, &d));
	CHECK(d == 1);
	CHECK_RES(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetDevice(s1, &d));
	CHECK(d == 1);
	CHECK_RES(CUDA_SUCCESS, cuStreamGetDevice(CU_STREAM_LEGACY, &d));
	CHECK(d == 0);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamGetDevice(s0, NULL));
	while (cuCtxPopCurrent(&c1) == CUDA_SUCCESS)
		;
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuStreamGetDevice(NULL, &d));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamGetDevice(NULL, NULL));
}

static bool untouched(const CUstreamAttrValue *v, size_t from)
{
	const unsigned char *b = (const unsigned char *)v;
	size_t i;

	for (i = from; i < sizeof(*v); i++)
		if (b[i] != 0x5a)
			return false;
	return true;
}

/* A stream's attributes as made: only the attribute's member is written. */
static void stream_attribute_defaults(void)
{
	CUstreamAttrValue v;
	CUstream s;
	int id;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreateWithPriority(&s, 0, -3));
	memset(&v, 0x5a, sizeof(v));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
	CHECK(v.priority == -3 && untouched(&v, sizeof(int)));
	memset(&v, 0x5a, sizeof(v));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &v));
	CHECK((int)v.syncPolicy == -1 && untouched(&v, sizeof(int)));
	memset(&v, 0x5a, sizeof(v));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN, &v));
	CHECK(v.memSyncDomain == CU_LAUNCH_MEM_SYNC_DOMAIN_DEFAULT &&
	      untouched(&v, sizeof(int)));
	/* One domain on vgpu: the remote one maps to it too. */
	CHECK(attr(0, CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT) == 1);
	memset(&v, 0x5a, sizeof(v));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, &v));
	CHECK(v.memSyncDomainMap.default_ == 0 && v.memSyncDomainMap.remote == 0 &&
	      untouched(&v, 2));
	memset(&v, 0x5a, sizeof(v));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v));
	CHECK(!v.accessPolicyWindow.base_ptr && !v.accessPolicyWindow.num_bytes &&
	      v.accessPolicyWindow.hitRatio == 0.0f &&
	      !v.accessPolicyWindow.hitProp && !v.accessPolicyWindow.missProp &&
	      untouched(&v, sizeof(CUaccessPolicyWindow)));
	memset(&v, 0x5a, sizeof(v));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
	CHECK(v.priority == 0);
	/* The ids that are no stream attribute, values untouched. */
	for (id = -1; id <= 18; id++) {
		if (id == 1 || id == 3 || id == 8 || id == 9 || id == 10)
			continue;
		memset(&v, 0x5a, sizeof(v));
		CHECK_RES(CUDA_ERROR_INVALID_VALUE,
			  cuStreamGetAttribute(s, (CUstreamAttrID)id, &v));
		CHECK(untouched(&v, 0));
		CHECK_RES(CUDA_ERROR_INVALID_VALUE,
			  cuStreamSetAttribute(s, (CUstreamAttrID)id, &v));
	}
	/* A NULL value: the H100 crashes for a known id; vgpu refuses it. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamGetAttribute(s, 99, NULL));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(s));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
	CHECK_RES(CUDA_SUCCESS, cuCtxSetCurrent(NULL));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT,
		  cuStreamGetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, NULL));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT,
		  cuStreamSetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
	CHECK_RES(CUDA_ERROR_INVALID_CONTEXT, cuStreamCopyAttributes(NULL, NULL));
	make_destroyed_current();
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED,
		  cuStreamGetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED,
		  cuStreamSetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED,
		  cuStreamCopyAttributes(NULL, CU_STREAM_LEGACY));
}

static CUresult set_int(CUstream s, CUstreamAttrID id, int value)
{
	CUstreamAttrValue v;

	memset(&v, 0, sizeof(v));
	if (id == CU_STREAM_ATTRIBUTE_PRIORITY)
		v.priority = value;
	else if (id == CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY)
		v.syncPolicy = (CUsynchronizationPolicy)value;
	else
		v.memSyncDomain = (CUlaunchMemSyncDomain)value;
	return cuStreamSetAttribute(s, id, &v);
}

static int get_int(CUstream s, CUstreamAttrID id)
{
	CUstreamAttrValue v;

	memset(&v, 0x5a, sizeof(v));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetAttribute(s, id, &v));
	return v.priority;	/* the int members share their place */
}

static CUresult set_window(CUstream s, size_t n, float hit, int hp, int mp)
{
	CUstreamAttrValue v;

	memset(&v, 0, sizeof(v));
	v.accessPolicyWindow.base_ptr = (void *)0x1000;
	v.accessPolicyWindow.num_bytes = n;
	v.accessPolicyWindow.hitRatio = hit;
	v.accessPolicyWindow.hitProp = (CUaccessProperty)hp;
	v.accessPolicyWindow.missProp = (CUaccessProperty)mp;
	return cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v);
}

static void stream_attribute_values(void)
{
	CUstreamAttrValue v;
	CUstream s;
	int prio;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s, 0));
	/* Priorities clamp as at creation, and are the stream's. */
	CHECK_RES(CUDA_SUCCESS, set_int(s, CU_STREAM_ATTRIBUTE_PRIORITY, -2));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetPriority(s, &prio));
	CHECK(prio == -2 && get_int(s, CU_STREAM_ATTRIBUTE_PRIORITY) == -2);
	CHECK_RES(CUDA_SUCCESS, set_int(s, CU_STREAM_ATTRIBUTE_PRIORITY, -100));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetPriority(s, &prio));
	CHECK(prio == -5);
	CHECK_RES(CUDA_SUCCESS, set_int(s, CU_STREAM_ATTRIBUTE_PRIORITY, 7));
	CHECK(get_int(s, CU_STREAM_ATTRIBUTE_PRIORITY) == 0);
	/* Synchronization policies 1 to 4. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  set_int(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, 0));
	CHECK(get_int(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY) == -1);
	CHECK_RES(CUDA_SUCCESS, set_int(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY,
					CU_SYNC_POLICY_AUTO));
	CHECK_RES(CUDA_SUCCESS, set_int(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY,
					CU_SYNC_POLICY_BLOCKING_SYNC));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  set_int(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, 5));
	CHECK(get_int(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY) ==
	      CU_SYNC_POLICY_BLOCKING_SYNC);
	/* Domains: default and remote. */
	CHECK_RES(CUDA_SUCCESS, set_int(s, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN, 1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  set_int(s, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN, 2));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  set_int(s, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN, -1));
	CHECK(get_int(s, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN) == 1);
	/* The map's domains are below MEM_SYNC_DOMAIN_COUNT, 1 here. */
	memset(&v, 0, sizeof(v));
	CHECK_RES(CUDA_SUCCESS, cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, &v));
	v.memSyncDomainMap.remote = 1;
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuStreamSetAttribute(s, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, &v));
	/* Windows: a hit ratio in [0, 1], no persisting misses, and vgpu's
	 * longest window is 0 bytes (MAX_ACCESS_POLICY_WINDOW_SIZE). */
	CHECK(attr(0, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE) == 0);
	CHECK_RES(CUDA_SUCCESS, set_window(s, 0, 0.5f, CU_ACCESS_PROPERTY_PERSISTING,
					   CU_ACCESS_PROPERTY_STREAMING));
	CHECK_RES(CUDA_SUCCESS, set_window(s, 0, 1.0f, 3, CU_ACCESS_PROPERTY_NORMAL));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, set_window(s, 0, 1.5f, 2, 1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, set_window(s, 0, -0.5f, 1, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, set_window(s, 0, 0.5f, 2, 2));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, set_window(s, 4096, 0.5f, 2, 1));
	memset(&v, 0x5a, sizeof(v));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetAttribute(s, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v));
	CHECK(v.accessPolicyWindow.base_ptr == (void *)0x1000 &&
	      v.accessPolicyWindow.hitRatio == 1.0f &&
	      v.accessPolicyWindow.hitProp == 3 && v.accessPolicyWindow.missProp == 0);
	/* The legacy and per-thread streams take them too. */
	CHECK_RES(CUDA_SUCCESS, set_int(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, -4));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetPriority(NULL, &prio));
	CHECK(prio == -4);
	CHECK_RES(CUDA_SUCCESS, set_int(CU_STREAM_PER_THREAD, CU_STREAM_ATTRIBUTE_PRIORITY, -1));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetPriority(CU_STREAM_PER_THREAD, &prio));
	CHECK(prio == -1);
	CHECK_RES(CUDA_SUCCESS, cuStreamSetAttribute_ptsz(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetAttribute_ptsz(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &v));
	CHECK_RES(CUDA_SUCCESS, set_int(NULL, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY,
					CU_SYNC_POLICY_SPIN));
	CHECK(get_int(CU_STREAM_LEGACY, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY) ==
	      CU_SYNC_POLICY_SPIN);
}

/* All five attributes, within one context; the priority too. */
static void stream_copy_attributes(void)
{
	CUstreamAttrValue v;
	CUstream s, d, n, other;
	CUcontext c1;
	int prio;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreateWithPriority(&s, 0, -3));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&d, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&n, CU_STREAM_NON_BLOCKING));
	CHECK_RES(CUDA_SUCCESS, set_int(s, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY,
					CU_SYNC_POLICY_BLOCKING_SYNC));
	CHECK_RES(CUDA_SUCCESS, set_int(s, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN, 1));
	CHECK_RES(CUDA_SUCCESS, set_window(s, 0, 0.25f, 1, 1));
	CHECK_RES(CUDA_SUCCESS, cuStreamCopyAttributes(d, s));
	CHECK(get_int(d, CU_STREAM_ATTRIBUTE_PRIORITY) == -3);
	CHECK(get_int(d, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY) ==
	      CU_SYNC_POLICY_BLOCKING_SYNC);
	CHECK(get_int(d, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN) == 1);
	CHECK_RES(CUDA_SUCCESS, cuStreamGetAttribute(d, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &v));
	CHECK(v.accessPolicyWindow.hitRatio == 0.25f &&
	      v.accessPolicyWindow.base_ptr == (void *)0x1000);
	CHECK_RES(CUDA_SUCCESS, cuStreamCopyAttributes(d, d));
	/* To and from the legacy stream. */
	CHECK_RES(CUDA_SUCCESS, cuStreamCopyAttributes(NULL, s));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetPriority(NULL, &prio));
	CHECK(prio == -3);
	CHECK_RES(CUDA_SUCCESS, cuStreamCopyAttributes(n, NULL));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetPriority(n, &prio));
	CHECK(prio == -3);
	CHECK_RES(CUDA_SUCCESS, cuStreamCopyAttributes(CU_STREAM_PER_THREAD, s));
	CHECK_RES(CUDA_SUCCESS, cuStreamCopyAttributes_ptsz(NULL, s));
	/* Across contexts: refused, nothing copied. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&c1, NULL, 0, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&other, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamCopyAttributes(other, s));
	CHECK_RES(CUDA_SUCCESS, cuStreamGetPriority(other, &prio));
	CHECK(prio == 0);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuStreamCopyAttributes(s, other));
	CHECK_RES(CUDA_SUCCESS, cuStreamDestroy(other));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE, cuStreamCopyAttributes(other, NULL));
}

/* The kernel's numbers, for the expected answers. */
static void func_numbers(CUfunction f, int *shared, int *max_dyn)
{
	CHECK_RES(CUDA_SUCCESS, cuFuncGetAttribute(shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
	CHECK_RES(CUDA_SUCCESS, cuFuncGetAttribute(max_dyn,
		  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f));
}

/*
 * The SM's shared memory split numBlocks ways in allocation units, less
 * the static shared memory, at most the function's limit (the rule is
 * checked against every H100 answer in tests/unit/test_occupancy.c).
 */
static void available_dynamic_shared_memory(void)
{
	int per_sm, unit, max_threads, shared, max_dyn, blocks;
	CUfunction plain, smem;
	CUmodule m;
	size_t v, split;

	setup();
	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&m, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&plain, m, "plain"));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&smem, m, "smem"));
	per_sm = attr(0, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
	unit = attr(0, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR) >= 8 ? 128 : 256;
	max_threads = attr(0, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);

	func_numbers(plain, &shared, &max_dyn);
	CHECK(shared == 0);
	CHECK_RES(CUDA_SUCCESS, cuOccupancyAvailableDynamicSMemPerBlock(&v, plain, 1, 32));
	CHECK(v == (size_t)(max_dyn < per_sm ? max_dyn : per_sm));
	for (blocks = 2; blocks <= 8; blocks *= 2) {
		split = (size_t)per_sm / (size_t)blocks / (size_t)unit * (size_t)unit;
		CHECK_RES(CUDA_SUCCESS,
			  cuOccupancyAvailableDynamicSMemPerBlock(&v, plain, blocks, 64));
		CHECK(v == (split < (size_t)max_dyn ? split : (size_t)max_dyn));
	}
	/*
	 * Static shared memory comes off; the kernel's thread limit (256) is
	 * not looked at, as on the H100.
	 */
	func_numbers(smem, &shared, &max_dyn);
	CHECK(shared == 4096);
	blocks = max_threads / 512;
	split = (size_t)per_sm / (size_t)blocks / (size_t)unit * (size_t)unit - 4096;
	CHECK_RES(CUDA_SUCCESS,
		  cuOccupancyAvailableDynamicSMemPerBlock(&v, smem, blocks, 512));
	CHECK(v == (split < (size_t)max_dyn ? split : (size_t)max_dyn));
	/* More blocks than the SM's threads take, or than there is memory. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuOccupancyAvailableDynamicSMemPerBlock(&v, plain, max_threads / 256 + 1, 256));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE,
		  cuOccupancyAvailableDynamicSMemPerBlock(&v, smem, per_sm / 4096 + 1, 32));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuOccupancyAvailableDynamicSMemPerBlock(&v, plain, 0, 32));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuOccupancyAvailableDynamicSMemPerBlock(&v, plain, -1, 32));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuOccupancyAvailableDynamicSMemPerBlock(&v, plain, 1, 0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuOccupancyAvailableDynamicSMemPerBlock(&v, plain, 1, 1025));
	/* A NULL result: the H100 crashes; vgpu refuses it. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuOccupancyAvailableDynamicSMemPerBlock(NULL, plain, 1, 32));
	/* Raising the function's limit raises the answer. */
	CHECK_RES(CUDA_SUCCESS, cuFuncSetAttribute(plain,
		  CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
		  attr(0, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)));
	split = (size_t)per_sm / 2 / (size_t)unit * (size_t)unit;
	CHECK_RES(CUDA_SUCCESS, cuOccupancyAvailableDynamicSMemPerBlock(&v, plain, 2, 64));
	CHECK(v == split);
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuOccupancyAvailableDynamicSMemPerBlock(&v, NULL, 1, 32));
	CHECK_RES(CUDA_SUCCESS, cuModuleUnload(m));
	CHECK_RES(CUDA_ERROR_INVALID_HANDLE,
		  cuOccupancyAvailableDynamicSMemPerBlock(&v, plain, 1, 32));
}

static const struct tap_test tests[] = {
	TAP_TEST(calls_before_init),
	TAP_TEST(device_properties),
	TAP_TEST(pci_bus_ids),
	TAP_TEST(pci_bus_id_lookup),
	TAP_TEST(pci_bus_ids_with_visible_devices),
	TAP_TEST(luid_not_supported),
	TAP_TEST(texture_1d_width),
	TAP_TEST(peers_access),
	TAP_TEST(p2p_attributes),
	TAP_TEST(context_ids),
	TAP_TEST(context_set_flags),
	TAP_TEST(primary_context_flags),
	TAP_TEST(limit_defaults),
	TAP_TEST(limits_set_and_read_back),
	TAP_TEST(printf_fifo_fixed_by_a_printing_kernel),
	TAP_TEST(limits_per_context),
	TAP_TEST(cache_and_shared_configs),
	TAP_TEST(stream_ids),
	TAP_TEST(stream_device),
	TAP_TEST(stream_attribute_defaults),
	TAP_TEST(stream_attribute_values),
	TAP_TEST(stream_copy_attributes),
	TAP_TEST(available_dynamic_shared_memory),
};

int main(void)
{
	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
