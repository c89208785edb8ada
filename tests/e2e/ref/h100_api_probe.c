// SPDX-License-Identifier: MIT
/*
 * The H100 probe behind tests/e2e/query_api.c (issue 14, first batch):
 * what NVIDIA's driver answers for the device, context, stream and
 * occupancy calls vgpu added then. One line per case: the call with its
 * arguments, "->" the returned code, then the outputs. Not built by the
 * tree: it needs NVIDIA's cuda.h and libcuda. Run on an H100 (driver
 * 580.159.04, CUDA 13.0) as
 *   gcc -Wno-deprecated-declarations h100_api_probe.c \
 *       -I/usr/local/cuda/include -lcuda -lpthread && ./a.out
 * its output is h100_api.log.
 *
 * The driver checks some pointers only by using them: the run ends with a
 * segmentation fault in cuStreamSetAttribute(s, PRIORITY, NULL), the last
 * line of the log. Earlier runs crashed the same way, and those cases were
 * taken out: cuOccupancyAvailableDynamicSMemPerBlock(NULL, f, 1, 32),
 * cuStreamGetAttribute(s, PRIORITY, NULL), cuCtxSetFlags(0) with a
 * destroyed context current, and cuStreamGetId on a destroyed stream.
 * vgpu answers CUDA_ERROR_INVALID_VALUE or CUDA_ERROR_INVALID_HANDLE there.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>

CUresult cuStreamGetId_ptsz(CUstream s, unsigned long long *id);
CUresult cuStreamGetDevice_ptsz(CUstream s, CUdevice *d);
CUresult cuStreamGetAttribute_ptsz(CUstream s, CUstreamAttrID a,
				   CUstreamAttrValue *v);
CUresult cuStreamSetAttribute_ptsz(CUstream s, CUstreamAttrID a,
				   const CUstreamAttrValue *v);
CUresult cuStreamCopyAttributes_ptsz(CUstream d, CUstream s);

#define R(call) ((int)(call))
#define L(...) do { printf(__VA_ARGS__); printf("\n"); fflush(stdout); } while (0)

static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"
	".global .align 1 .b8 $str[4] = {104, 105, 10, 0};\n"
	".visible .entry plain(.param .u64 p)\n{\n"
	"\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<2>;\n"
	"\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, 7;\n"
	"\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n"
	".visible .entry smem(.param .u64 p) .maxntid 256, 1, 1\n{\n"
	"\t.shared .align 4 .b8 buf[4096];\n"
	"\t.reg .b64 %rd<3>;\n\t.reg .b32 %r<3>;\n"
	"\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n"
	"\tshl.b32 %r2, %r1, 2;\n\tmov.u64 %rd2, buf;\n"
	"\tst.shared.u32 [buf], %r1;\n\tbar.sync 0;\n"
	"\tld.shared.u32 %r2, [buf];\n"
	"\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n"
	".visible .entry big(.param .u64 p)\n{\n"
	"\t.shared .align 4 .b8 bbuf[40960];\n"
	"\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<3>;\n"
	"\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n"
	"\tst.shared.u32 [bbuf+40956], %r1;\n\tbar.sync 0;\n"
	"\tld.shared.u32 %r2, [bbuf+40956];\n"
	"\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n"
	".visible .entry pr()\n{\n"
	"\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n"
	"\tmov.u64 %rd1, $str;\n\tcvta.global.u64 %rd2, %rd1;\n"
	"\t{\n\t.param .b64 p0;\n\tst.param.b64 [p0], %rd2;\n"
	"\t.param .b64 p1;\n\tst.param.b64 [p1], 0;\n"
	"\t.param .b32 rv;\n\tcall.uni (rv), vprintf, (p0, p1);\n"
	"\tld.param.b32 %r1, [rv];\n\t}\n\tret;\n}\n";

static void hex(const void *p, size_t n, char *out)
{
	const unsigned char *b = p;
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", b[i]);
}

static void show_buf(const char *what, const char *buf, int n)
{
	char out[256];
	int i, k = 0;

	for (i = 0; i < n && k < 240; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c == 0)
			k += sprintf(out + k, "\\0");
		else if (isprint(c))
			out[k++] = (char)c;
		else
			k += sprintf(out + k, "\\x%02x", c);
	}
	out[k] = 0;
	L("  %s buf=\"%s\"", what, out);
}

static void before_init(void)
{
	char buf[64] = "";
	CUdevice d = -7;
	unsigned long long id = 0;
	size_t v = 0;
	int i = -7;
	CUdevprop p;
	char luid[8];
	unsigned int mask;
	CUfunc_cache cc;
	CUsharedconfig sc;
	CUstreamAttrValue av;

	L("== before cuInit");
	{
		int _r1 = R(cuDeviceGetPCIBusId(buf, 64, 0));
		L("cuDeviceGetPCIBusId(buf,64,0) -> %d", _r1);
	}
	{
		int _r2 = R(cuDeviceGetByPCIBusId(&d, "0000:00:00.0"));
		L("cuDeviceGetByPCIBusId(&d,\"0000:00:00.0\") -> %d", _r2);
	}
	{
		int _r3 = R(cuDeviceGetProperties(&p, 0));
		L("cuDeviceGetProperties(&p,0) -> %d", _r3);
	}
	{
		int _r4 = R(cuDeviceGetLuid(luid, &mask, 0));
		L("cuDeviceGetLuid(luid,&mask,0) -> %d", _r4);
	}
	{
		int _r5 = R(cuDeviceGetTexture1DLinearMaxWidth(&v, CU_AD_FORMAT_UNSIGNED_INT8, 1, 0));
		L("cuDeviceGetTexture1DLinearMaxWidth(&v,U8,1,0) -> %d", _r5);
	}
	{
		int _r6 = R(cuDeviceCanAccessPeer(&i, 0, 0));
		L("cuDeviceCanAccessPeer(&i,0,0) -> %d", _r6);
	}
	{
		int _r7 = R(cuDeviceGetP2PAttribute(&i, CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, 0, 0));
		L("cuDeviceGetP2PAttribute(&i,RANK,0,0) -> %d", _r7);
	}
	{
		int _r8 = R(cuCtxGetId(NULL, &id));
		L("cuCtxGetId(NULL,&id) -> %d", _r8);
	}
	{
		int _r9 = R(cuCtxSetFlags(0));
		L("cuCtxSetFlags(0) -> %d", _r9);
	}
	{
		int _r10 = R(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
		L("cuCtxGetLimit(&v,STACK) -> %d", _r10);
	}
	{
		int _r11 = R(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 2048));
		L("cuCtxSetLimit(STACK,2048) -> %d", _r11);
	}
	{
		int _r12 = R(cuCtxGetCacheConfig(&cc));
		L("cuCtxGetCacheConfig(&cc) -> %d", _r12);
	}
	{
		int _r13 = R(cuCtxSetCacheConfig(CU_FUNC_CACHE_PREFER_NONE));
		L("cuCtxSetCacheConfig(0) -> %d", _r13);
	}
	{
		int _r14 = R(cuCtxGetSharedMemConfig(&sc));
		L("cuCtxGetSharedMemConfig(&sc) -> %d", _r14);
	}
	{
		int _r15 = R(cuCtxSetSharedMemConfig(0));
		L("cuCtxSetSharedMemConfig(0) -> %d", _r15);
	}
	{
		int _r16 = R(cuStreamGetId(NULL, &id));
		L("cuStreamGetId(NULL,&id) -> %d", _r16);
	}
	{
		int _r17 = R(cuStreamGetDevice(NULL, &d));
		L("cuStreamGetDevice(NULL,&d) -> %d", _r17);
	}
	{
		int _r18 = R(cuStreamGetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &av));
		L("cuStreamGetAttribute(NULL,PRIORITY,&av) -> %d", _r18);
	}
	{
		int _r19 = R(cuStreamSetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &av));
		L("cuStreamSetAttribute(NULL,PRIORITY,&av) -> %d", _r19);
	}
	{
		int _r20 = R(cuStreamCopyAttributes(NULL, NULL));
		L("cuStreamCopyAttributes(NULL,NULL) -> %d", _r20);
	}
	{
		int _r21 = R(cuOccupancyAvailableDynamicSMemPerBlock(&v, NULL, 1, 32));
		L("cuOccupancyAvailableDynamicSMemPerBlock(&v,NULL,1,32) -> %d", _r21);
	}
}

static void props(int n)
{
	static const struct { int a; const char *n; } attrs[] = {
		{ CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "MAX_THREADS_PER_BLOCK" },
		{ CU_DEVICE_ATTRIBUTE_MAX_PITCH, "MAX_PITCH" },
		{ CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, "TEXTURE_ALIGNMENT" },
		{ CU_DEVICE_ATTRIBUTE_CLOCK_RATE, "CLOCK_RATE" },
		{ CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, "MAX_SHARED_MEMORY_PER_BLOCK" },
		{ CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, "MAX_REGISTERS_PER_BLOCK" },
		{ CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, "PCI_BUS_ID" },
		{ CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, "PCI_DEVICE_ID" },
		{ CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, "PCI_DOMAIN_ID" },
		{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH, "MAXIMUM_TEXTURE1D_LINEAR_WIDTH" },
		{ CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH, "MAXIMUM_TEXTURE1D_WIDTH" },
		{ CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, "MAX_SHARED_MEMORY_PER_BLOCK_OPTIN" },
		{ CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, "MAX_SHARED_MEMORY_PER_MULTIPROCESSOR" },
		{ CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, "RESERVED_SHARED_MEMORY_PER_BLOCK" },
		{ CU_DEVICE_ATTRIBUTE_GPU_PCI_DEVICE_ID, "GPU_PCI_DEVICE_ID" },
		{ CU_DEVICE_ATTRIBUTE_GPU_PCI_SUBSYSTEM_ID, "GPU_PCI_SUBSYSTEM_ID" },
		{ CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE, "MAX_PERSISTING_L2_CACHE_SIZE" },
		{ CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2_CACHE_SIZE" },
		{ CU_DEVICE_ATTRIBUTE_STREAM_PRIORITIES_SUPPORTED, "STREAM_PRIORITIES_SUPPORTED" },
		{ CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT, "MEM_SYNC_DOMAIN_COUNT" },
		{ CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE, "MAX_ACCESS_POLICY_WINDOW_SIZE" },
	};
	CUdevprop p;
	int d, i, v;

	L("== cuDeviceGetProperties");
	for (d = 0; d < n; d++) {
		memset(&p, 0x5a, sizeof(p));
		{
			int _r22 = R(cuDeviceGetProperties(&p, d));
			L("cuDeviceGetProperties(&p,%d) -> %d", d, _r22);
		}
		L("  maxThreadsPerBlock=%d maxThreadsDim=%d,%d,%d maxGridSize=%d,%d,%d sharedMemPerBlock=%d totalConstantMemory=%d SIMDWidth=%d memPitch=%d regsPerBlock=%d clockRate=%d textureAlign=%d",
		  p.maxThreadsPerBlock, p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2],
		  p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2], p.sharedMemPerBlock,
		  p.totalConstantMemory, p.SIMDWidth, p.memPitch, p.regsPerBlock, p.clockRate,
		  p.textureAlign);
		for (i = 0; i < (int)(sizeof(attrs) / sizeof(attrs[0])); i++) {
			v = -12345;
			int r = R(cuDeviceGetAttribute(&v, attrs[i].a, d));

			L("  attr %s(%d) dev %d -> %d value %d", attrs[i].n, attrs[i].a, d, r, v);
		}
	}
	{
		int _r23 = R(cuDeviceGetProperties(NULL, 0));
		L("cuDeviceGetProperties(NULL,0) -> %d", _r23);
	}
	{
		int _r24 = R(cuDeviceGetProperties(&p, n));
		L("cuDeviceGetProperties(&p,%d) -> %d", n, _r24);
	}
	{
		int _r25 = R(cuDeviceGetProperties(&p, -1));
		L("cuDeviceGetProperties(&p,-1) -> %d", _r25);
	}
	{
		int _r26 = R(cuDeviceGetProperties(&p, 99));
		L("cuDeviceGetProperties(&p,99) -> %d", _r26);
	}
	{
		int _r27 = R(cuDeviceGetProperties(NULL, 99));
		L("cuDeviceGetProperties(NULL,99) -> %d", _r27);
	}
}

static void by_bus(const char *s)
{
	CUdevice d = -7;
	int r = R(cuDeviceGetByPCIBusId(&d, s));

	L("cuDeviceGetByPCIBusId(&d,\"%s\") -> %d dev %d", s, r, d);
}

static void pci(int n)
{
	static const int lens[] = { 64, 14, 13, 12, 11, 8, 5, 2, 1, 0, -1 };
	char buf[64], s[64];
	int d, i, dom = 0, bus = 0, dv = 0;
	CUdevice o = -7;

	L("== PCI bus ids");
	for (d = 0; d < n; d++) {
		memset(buf, 'X', sizeof(buf));
		{
			int _r28 = R(cuDeviceGetPCIBusId(buf, 64, d));
			L("cuDeviceGetPCIBusId(buf,64,%d) -> %d", d, _r28);
		}
		show_buf("", buf, 20);
	}
	for (i = 0; i < (int)(sizeof(lens) / sizeof(lens[0])); i++) {
		memset(buf, 'X', sizeof(buf));
		{
			int _r29 = R(cuDeviceGetPCIBusId(buf, lens[i], 0));
			L("cuDeviceGetPCIBusId(buf,%d,0) -> %d", lens[i], _r29);
		}
		show_buf("", buf, 20);
	}
	{
		int _r30 = R(cuDeviceGetPCIBusId(NULL, 64, 0));
		L("cuDeviceGetPCIBusId(NULL,64,0) -> %d", _r30);
	}
	{
		int _r31 = R(cuDeviceGetPCIBusId(buf, 64, n));
		L("cuDeviceGetPCIBusId(buf,64,%d) -> %d", n, _r31);
	}
	{
		int _r32 = R(cuDeviceGetPCIBusId(buf, 64, -1));
		L("cuDeviceGetPCIBusId(buf,64,-1) -> %d", _r32);
	}
	{
		int _r33 = R(cuDeviceGetPCIBusId(NULL, 0, 99));
		L("cuDeviceGetPCIBusId(NULL,0,99) -> %d", _r33);
	}
	{
		int _r34 = R(cuDeviceGetPCIBusId(buf, 0, 99));
		L("cuDeviceGetPCIBusId(buf,0,99) -> %d", _r34);
	}

	cuDeviceGetAttribute(&dom, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, 0);
	cuDeviceGetAttribute(&bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, 0);
	cuDeviceGetAttribute(&dv, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, 0);
	L("dev 0: domain %d bus %d device %d", dom, bus, dv);
#define B(...) do { snprintf(s, sizeof(s), __VA_ARGS__); by_bus(s); } while (0)
	B("%04x:%02x:%02x.0", dom, bus, dv);
	B("%04X:%02X:%02X.0", dom, bus, dv);
	B("%08x:%02x:%02x.0", dom, bus, dv);
	B("%x:%x:%x.0", dom, bus, dv);
	B("%x:%x:%x", dom, bus, dv);
	B("%04x:%02x:%02x", dom, bus, dv);
	B("%02x:%02x.0", bus, dv);
	B("%02X:%02X.0", bus, dv);
	B("%02x:%02x", bus, dv);
	B("%02x", bus);
	B("%04x:%02x:%02x.1", dom, bus, dv);
	B("%04x:%02x:%02x.7", dom, bus, dv);
	B("%04x:%02x:%02x.8", dom, bus, dv);
	B("%04x:%02x:%02x.f", dom, bus, dv);
	B("%04x:%02x:%02x.0x", dom, bus, dv);
	B("%04x:%02x:%02x.0 ", dom, bus, dv);
	B(" %04x:%02x:%02x.0", dom, bus, dv);
	B("%04x:%02x:%02x.00", dom, bus, dv);
	B("%04x:%02x:%02x.0:", dom, bus, dv);
	B("%04x:%02x:%02x:0", dom, bus, dv);
	B("%04x.%02x.%02x.0", dom, bus, dv);
	B("%04x:%02x.%02x.0", dom, bus, dv);
	B("%04x:%02x:%02x.0", dom + 1, bus, dv);
	B("%04x:%02x:%02x.0", dom, bus + 1, dv);
	B("%04x:%02x:%02x.0", dom, bus, dv + 1);
	B("%04x:%03x:%02x.0", dom, bus, dv);
	B("%04x:%02x:%03x.0", dom, bus, dv);
	B("%05x:%02x:%02x.0", dom, bus, dv);
	B("%04x:%d:%02x.0", dom, bus, dv);
	B("0x%04x:%02x:%02x.0", dom, bus, dv);
	B("%04x:0x%02x:%02x.0", dom, bus, dv);
	B("%04x:%02x:%02x.0", dom + 0x10000, bus, dv);
	B("%04x:%02x:%02x.0", dom, bus + 0x100, dv);
	B("%04x:%02x:%02x.0", dom, bus, dv + 0x20);
	B("%04x:%02x:%02x.0", dom, bus, dv + 0x100);
	B("-1:%02x:%02x.0", bus, dv);
	B("%04x:-%02x:%02x.0", dom, bus, dv);
	B("%04x::%02x.0", dom, bus);
	B(":%02x:%02x.0", bus, dv);
	B("garbage");
	B("GPU-0");
	B("0");
	B("");
	B(":");
	B("0000:ff:1f.0");
	B("%04x:%02x:%02x.0x1", dom, bus, dv);
	B("%04x:%02x:%02xx", dom, bus, dv);
	B("%04x:%02x:%02x.0xg", dom, bus, dv);
	B("%04x:%02x:%02x. 0", dom, bus, dv);
	B("%04x:%02x:%02x.+0", dom, bus, dv);
	B("%04x:%02x:%02x.-0", dom, bus, dv);
	B("%04x:%02x:%02x.0X", dom, bus, dv);
	B("%02x:%02x.0x", bus, dv);
	B("%02x:%02x.0 ", bus, dv);
	B("%02x:%02x.1", bus, dv);
	B("%04x:%02x:%02x.0\n", dom, bus, dv);
	B("%04x:%02x:%02x\n", dom, bus, dv);
	B("%04x:%02x:%02x ", dom, bus, dv);
	B("%04x:%02x:0x%x.0", dom, bus, dv);
	B("%04x : %02x : %02x.0", dom, bus, dv);
	B("%04x: %02x: %02x.0", dom, bus, dv);
	B("100000000:%02x:%02x.0", bus, dv);
	B("fffffffff:%02x:%02x.0", bus, dv);
	B("%04x:%02x:%02x.100000000", dom, bus, dv);
	B("%04x:%02x:%02x.g", dom, bus, dv);
	B("%04x:%02x:%02x.", dom, bus, dv);
	B("%04x:%02x:%02x:", dom, bus, dv);
	B("%04x:%02x:%02x.0.0", dom, bus, dv);
	B("%04x:%02x:%02x:00.0", dom, bus, dv);
	B("0:%04x:%02x:%02x.0", dom, bus, dv);
	{
		int _r35 = R(cuDeviceGetByPCIBusId(NULL, s));
		L("cuDeviceGetByPCIBusId(NULL,\"%04x:%02x:%02x.0\") -> %d", dom, bus, dv, _r35);
	}
	{
		int _r36 = R(cuDeviceGetByPCIBusId(&o, NULL));
		L("cuDeviceGetByPCIBusId(&o,NULL) -> %d dev %d", _r36, o);
	}
	{
		int _r37 = R(cuDeviceGetByPCIBusId(NULL, NULL));
		L("cuDeviceGetByPCIBusId(NULL,NULL) -> %d", _r37);
	}
	{
		int _r38 = R(cuDeviceGetByPCIBusId(NULL, "garbage"));
		L("cuDeviceGetByPCIBusId(NULL,\"garbage\") -> %d", _r38);
	}
}

static void luid(int n)
{
	char id[8];
	unsigned int mask = 777;

	L("== LUID");
	memset(id, 0x5a, sizeof(id));
	{
		int _r39 = R(cuDeviceGetLuid(id, &mask, 0));
		L("cuDeviceGetLuid(id,&mask,0) -> %d mask %u", _r39, mask);
	}
	{
		int _r40 = R(cuDeviceGetLuid(NULL, &mask, 0));
		L("cuDeviceGetLuid(NULL,&mask,0) -> %d", _r40);
	}
	{
		int _r41 = R(cuDeviceGetLuid(id, NULL, 0));
		L("cuDeviceGetLuid(id,NULL,0) -> %d", _r41);
	}
	{
		int _r42 = R(cuDeviceGetLuid(NULL, NULL, 0));
		L("cuDeviceGetLuid(NULL,NULL,0) -> %d", _r42);
	}
	{
		int _r43 = R(cuDeviceGetLuid(id, &mask, n));
		L("cuDeviceGetLuid(id,&mask,%d) -> %d", n, _r43);
	}
	{
		int _r44 = R(cuDeviceGetLuid(id, &mask, -1));
		L("cuDeviceGetLuid(id,&mask,-1) -> %d", _r44);
	}
	{
		int _r45 = R(cuDeviceGetLuid(NULL, NULL, 99));
		L("cuDeviceGetLuid(NULL,NULL,99) -> %d", _r45);
	}
}

static void tex1d(int n)
{
	static const int fmts[] = { 0, 1, 2, 3, 8, 9, 10, 16, 32, 80, 145, 176, 192, 194, 203, 4, 99, -1 };
	static const unsigned ch[] = { 0, 1, 2, 3, 4, 5, 8 };
	size_t v;
	int f, c;

	L("== cuDeviceGetTexture1DLinearMaxWidth");
	for (f = 0; f < (int)(sizeof(fmts) / sizeof(fmts[0])); f++)
		for (c = 0; c < (int)(sizeof(ch) / sizeof(ch[0])); c++) {
			v = 777;
			int r = R(cuDeviceGetTexture1DLinearMaxWidth(&v, (CUarray_format)fmts[f], ch[c], 0));

			L("cuDeviceGetTexture1DLinearMaxWidth(&v,fmt=%d,ch=%u,0) -> %d v %zu", fmts[f], ch[c], r, v);
		}
	{
		int _r46 = R(cuDeviceGetTexture1DLinearMaxWidth(NULL, 1, 1, 0));
		L("cuDeviceGetTexture1DLinearMaxWidth(NULL,1,1,0) -> %d", _r46);
	}
	{
		int _r47 = R(cuDeviceGetTexture1DLinearMaxWidth(&v, 1, 1, n));
		L("cuDeviceGetTexture1DLinearMaxWidth(&v,1,1,%d) -> %d", n, _r47);
	}
	{
		int _r48 = R(cuDeviceGetTexture1DLinearMaxWidth(&v, 1, 1, -1));
		L("cuDeviceGetTexture1DLinearMaxWidth(&v,1,1,-1) -> %d", _r48);
	}
	{
		int _r49 = R(cuDeviceGetTexture1DLinearMaxWidth(NULL, 99, 0, 99));
		L("cuDeviceGetTexture1DLinearMaxWidth(NULL,99,0,99) -> %d", _r49);
	}
	{
		int _r50 = R(cuDeviceGetTexture1DLinearMaxWidth(&v, 99, 1, 99));
		L("cuDeviceGetTexture1DLinearMaxWidth(&v,99,1,99) -> %d", _r50);
	}
	{
		int _r51 = R(cuDeviceGetTexture1DLinearMaxWidth(&v, 1, 0, 99));
		L("cuDeviceGetTexture1DLinearMaxWidth(&v,1,0,99) -> %d", _r51);
	}
}

static void peer(int n)
{
	int a, b, at, v, r;

	L("== peers (device count %d)", n);
	for (a = -1; a <= n; a++)
		for (b = -1; b <= n; b++) {
			v = 777;
			r = R(cuDeviceCanAccessPeer(&v, a, b));
			L("cuDeviceCanAccessPeer(&v,%d,%d) -> %d v %d", a, b, r, v);
		}
	{
		int _r52 = R(cuDeviceCanAccessPeer(NULL, 0, 0));
		L("cuDeviceCanAccessPeer(NULL,0,0) -> %d", _r52);
	}
	{
		int _r53 = R(cuDeviceCanAccessPeer(NULL, 0, n));
		L("cuDeviceCanAccessPeer(NULL,0,%d) -> %d", n, _r53);
	}
	{
		int _r54 = R(cuDeviceCanAccessPeer(NULL, 99, 0));
		L("cuDeviceCanAccessPeer(NULL,99,0) -> %d", _r54);
	}
	for (at = -1; at <= 7; at++)
		for (a = 0; a <= n; a++)
			for (b = 0; b <= n; b++) {
				v = 777;
				r = R(cuDeviceGetP2PAttribute(&v, at, a, b));
				L("cuDeviceGetP2PAttribute(&v,%d,%d,%d) -> %d v %d", at, a, b, r, v);
			}
	{
		int _r55 = R(cuDeviceGetP2PAttribute(&v, 99, 0, n));
		L("cuDeviceGetP2PAttribute(&v,99,0,%d) -> %d", n, _r55);
	}
	{
		int _r56 = R(cuDeviceGetP2PAttribute(NULL, 1, 0, 0));
		L("cuDeviceGetP2PAttribute(NULL,1,0,0) -> %d", _r56);
	}
	{
		int _r57 = R(cuDeviceGetP2PAttribute(NULL, 1, 0, n));
		L("cuDeviceGetP2PAttribute(NULL,1,0,%d) -> %d", n, _r57);
	}
	{
		int _r58 = R(cuDeviceGetP2PAttribute(NULL, 99, 0, 0));
		L("cuDeviceGetP2PAttribute(NULL,99,0,0) -> %d", _r58);
	}
	{
		int _r59 = R(cuDeviceGetP2PAttribute(NULL, 99, 99, 99));
		L("cuDeviceGetP2PAttribute(NULL,99,99,99) -> %d", _r59);
	}
	{
		int _r60 = R(cuDeviceGetP2PAttribute(&v, 99, 99, 0));
		L("cuDeviceGetP2PAttribute(&v,99,99,0) -> %d", _r60);
	}
}

static void no_context(void)
{
	unsigned long long id = 777;
	unsigned int f = 777;
	size_t v = 777;
	CUdevice d = -7;
	CUfunc_cache cc = 77;
	CUsharedconfig sc = 77;
	CUstreamAttrValue av;

	L("== no current context");
	memset(&av, 0, sizeof(av));
	{
		int _r61 = R(cuCtxGetId(NULL, &id));
		L("cuCtxGetId(NULL,&id) -> %d id %llu", _r61, id);
	}
	{
		int _r62 = R(cuCtxGetId(NULL, NULL));
		L("cuCtxGetId(NULL,NULL) -> %d", _r62);
	}
	{
		int _r63 = R(cuCtxGetFlags(&f));
		L("cuCtxGetFlags(&f) -> %d", _r63);
	}
	{
		int _r64 = R(cuCtxSetFlags(0));
		L("cuCtxSetFlags(0) -> %d", _r64);
	}
	{
		int _r65 = R(cuCtxSetFlags(0x100));
		L("cuCtxSetFlags(0x100) -> %d", _r65);
	}
	{
		int _r66 = R(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
		L("cuCtxGetLimit(&v,STACK) -> %d v %zu", _r66, v);
	}
	{
		int _r67 = R(cuCtxGetLimit(NULL, CU_LIMIT_STACK_SIZE));
		L("cuCtxGetLimit(NULL,STACK) -> %d", _r67);
	}
	{
		int _r68 = R(cuCtxGetLimit(&v, 99));
		L("cuCtxGetLimit(&v,99) -> %d", _r68);
	}
	{
		int _r69 = R(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 2048));
		L("cuCtxSetLimit(STACK,2048) -> %d", _r69);
	}
	{
		int _r70 = R(cuCtxSetLimit(99, 2048));
		L("cuCtxSetLimit(99,2048) -> %d", _r70);
	}
	{
		int _r71 = R(cuCtxGetCacheConfig(&cc));
		L("cuCtxGetCacheConfig(&cc) -> %d cc %d", _r71, (int)cc);
	}
	{
		int _r72 = R(cuCtxGetCacheConfig(NULL));
		L("cuCtxGetCacheConfig(NULL) -> %d", _r72);
	}
	{
		int _r73 = R(cuCtxSetCacheConfig(1));
		L("cuCtxSetCacheConfig(1) -> %d", _r73);
	}
	{
		int _r74 = R(cuCtxSetCacheConfig(9));
		L("cuCtxSetCacheConfig(9) -> %d", _r74);
	}
	{
		int _r75 = R(cuCtxGetSharedMemConfig(&sc));
		L("cuCtxGetSharedMemConfig(&sc) -> %d sc %d", _r75, (int)sc);
	}
	{
		int _r76 = R(cuCtxGetSharedMemConfig(NULL));
		L("cuCtxGetSharedMemConfig(NULL) -> %d", _r76);
	}
	{
		int _r77 = R(cuCtxSetSharedMemConfig(1));
		L("cuCtxSetSharedMemConfig(1) -> %d", _r77);
	}
	{
		int _r78 = R(cuCtxSetSharedMemConfig(9));
		L("cuCtxSetSharedMemConfig(9) -> %d", _r78);
	}
	{
		int _r79 = R(cuStreamGetId(NULL, &id));
		L("cuStreamGetId(NULL,&id) -> %d", _r79);
	}
	{
		int _r80 = R(cuStreamGetId(CU_STREAM_LEGACY, &id));
		L("cuStreamGetId(LEGACY,&id) -> %d", _r80);
	}
	{
		int _r81 = R(cuStreamGetId(CU_STREAM_PER_THREAD, &id));
		L("cuStreamGetId(PER_THREAD,&id) -> %d", _r81);
	}
	{
		int _r82 = R(cuStreamGetId(NULL, NULL));
		L("cuStreamGetId(NULL,NULL) -> %d", _r82);
	}
	{
		int _r83 = R(cuStreamGetDevice(NULL, &d));
		L("cuStreamGetDevice(NULL,&d) -> %d", _r83);
	}
	{
		int _r84 = R(cuStreamGetDevice(NULL, NULL));
		L("cuStreamGetDevice(NULL,NULL) -> %d", _r84);
	}
	{
		int _r85 = R(cuStreamGetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &av));
		L("cuStreamGetAttribute(NULL,PRIORITY,&av) -> %d", _r85);
	}
	{
		int _r86 = R(cuStreamGetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, NULL));
		L("cuStreamGetAttribute(NULL,PRIORITY,NULL) -> %d", _r86);
	}
	{
		int _r87 = R(cuStreamSetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &av));
		L("cuStreamSetAttribute(NULL,PRIORITY,&av) -> %d", _r87);
	}
	{
		int _r88 = R(cuStreamCopyAttributes(NULL, NULL));
		L("cuStreamCopyAttributes(NULL,NULL) -> %d", _r88);
	}
	{
		int _r89 = R(cuStreamGetId_ptsz(NULL, &id));
		L("cuStreamGetId_ptsz(NULL,&id) -> %d", _r89);
	}
}

static void ctx_ids(void)
{
	CUcontext a, b, p, cur;
	unsigned long long id;
	int r;

	L("== cuCtxGetId");
	cuCtxCreate(&a, NULL, 0, 0);
	id = 777;
	{
		int _r90 = R(cuCtxGetId(NULL, &id));
		L("cuCtxGetId(NULL,&id) [a current] -> %d id %llu", _r90, id);
	}
	id = 777;
	{
		int _r91 = R(cuCtxGetId(a, &id));
		L("cuCtxGetId(a,&id) -> %d id %llu", _r91, id);
	}
	{
		int _r92 = R(cuCtxGetId(a, NULL));
		L("cuCtxGetId(a,NULL) -> %d", _r92);
	}
	{
		int _r93 = R(cuCtxGetId(NULL, NULL));
		L("cuCtxGetId(NULL,NULL) -> %d", _r93);
	}
	cuCtxCreate(&b, NULL, 0, 0);
	id = 777;
	{
		int _r94 = R(cuCtxGetId(b, &id));
		L("cuCtxGetId(b,&id) -> %d id %llu", _r94, id);
	}
	cuDevicePrimaryCtxRetain(&p, 0);
	id = 777;
	{
		int _r95 = R(cuCtxGetId(p, &id));
		L("cuCtxGetId(primary,&id) -> %d id %llu", _r95, id);
	}
	cuDevicePrimaryCtxRelease(0);
	cuDevicePrimaryCtxRetain(&p, 0);
	id = 777;
	{
		int _r96 = R(cuCtxGetId(p, &id));
		L("cuCtxGetId(primary released+retained,&id) -> %d id %llu", _r96, id);
	}
	cuDevicePrimaryCtxReset(0);
	id = 777;
	{
		int _r97 = R(cuCtxGetId(p, &id));
		L("cuCtxGetId(primary after reset,&id) -> %d id %llu", _r97, id);
	}
	cuCtxPushCurrent(p);
	id = 777;
	{
		int _r98 = R(cuCtxGetId(NULL, &id));
		L("cuCtxGetId(NULL,&id) [reset primary current] -> %d id %llu", _r98, id);
	}
	cuCtxPopCurrent(&cur);
	cuDevicePrimaryCtxRetain(&p, 0);
	id = 777;
	{
		int _r99 = R(cuCtxGetId(p, &id));
		L("cuCtxGetId(primary re-retained after reset,&id) -> %d id %llu", _r99, id);
	}
	cuDevicePrimaryCtxRelease(0);
	cuDevicePrimaryCtxRelease(0);
	/* a destroyed beneath b, then b destroyed: a current and destroyed. */
	r = R(cuCtxDestroy(a));
	L("cuCtxDestroy(a) -> %d", r);
	r = R(cuCtxDestroy(b));
	cuCtxGetCurrent(&cur);
	L("cuCtxDestroy(b) -> %d; current==a %d", r, cur == a);
	id = 777;
	{
		int _r100 = R(cuCtxGetId(NULL, &id));
		L("cuCtxGetId(NULL,&id) [destroyed a current] -> %d id %llu", _r100, id);
	}
	cuCtxCreate(&b, NULL, 0, 0);
	id = 777;
	{
		int _r101 = R(cuCtxGetId(b, &id));
		L("cuCtxGetId(new ctx,&id) -> %d id %llu", _r101, id);
	}
	cuCtxDestroy(b);
	cuCtxPopCurrent(&cur);
}

/* With a destroyed context current: the context calls. */
static void destroyed_current(void)
{
	CUcontext a, b, cur;
	unsigned long long id;
	unsigned int f;
	size_t v;
	CUfunc_cache cc;
	CUsharedconfig sc;
	CUdevice d;
	CUstreamAttrValue av;

	L("== destroyed context current");
	cuCtxCreate(&a, NULL, 0, 0);
	cuCtxCreate(&b, NULL, 0, 0);
	cuCtxDestroy(a);
	cuCtxDestroy(b);
	memset(&av, 0, sizeof(av));
	{
		int _r102 = R(cuCtxGetFlags(&f));
		L("cuCtxGetFlags(&f) -> %d", _r102);
	}
	{
		int _r104 = R(cuCtxGetLimit(&v, CU_LIMIT_STACK_SIZE));
		L("cuCtxGetLimit(&v,STACK) -> %d", _r104);
	}
	{
		int _r105 = R(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 2048));
		L("cuCtxSetLimit(STACK,2048) -> %d", _r105);
	}
	{
		int _r106 = R(cuCtxGetCacheConfig(&cc));
		L("cuCtxGetCacheConfig(&cc) -> %d", _r106);
	}
	{
		int _r107 = R(cuCtxSetCacheConfig(1));
		L("cuCtxSetCacheConfig(1) -> %d", _r107);
	}
	{
		int _r108 = R(cuCtxGetSharedMemConfig(&sc));
		L("cuCtxGetSharedMemConfig(&sc) -> %d", _r108);
	}
	{
		int _r109 = R(cuCtxSetSharedMemConfig(1));
		L("cuCtxSetSharedMemConfig(1) -> %d", _r109);
	}
	{
		int _r110 = R(cuStreamGetId(NULL, &id));
		L("cuStreamGetId(NULL,&id) -> %d", _r110);
	}
	{
		int _r111 = R(cuStreamGetDevice(NULL, &d));
		L("cuStreamGetDevice(NULL,&d) -> %d", _r111);
	}
	{
		int _r112 = R(cuStreamGetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &av));
		L("cuStreamGetAttribute(NULL,PRIORITY,&av) -> %d", _r112);
	}
	{
		int _r113 = R(cuStreamSetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &av));
		L("cuStreamSetAttribute(NULL,PRIORITY,&av) -> %d", _r113);
	}
	{
		int _r114 = R(cuStreamCopyAttributes(NULL, CU_STREAM_LEGACY));
		L("cuStreamCopyAttributes(NULL,LEGACY) -> %d", _r114);
	}
	{
		int _r115 = R(cuCtxGetStreamPriorityRange(NULL, NULL));
		L("cuCtxGetStreamPriorityRange(NULL,NULL) -> %d", _r115);
	}
	cuCtxPopCurrent(&cur);
}

static void flags(void)
{
	static const unsigned int set[] = {
		0, CU_CTX_SCHED_SPIN, CU_CTX_SCHED_YIELD, CU_CTX_SCHED_BLOCKING_SYNC,
		3, 5, 6, 7, CU_CTX_MAP_HOST, CU_CTX_LMEM_RESIZE_TO_MAX,
		CU_CTX_COREDUMP_ENABLE, CU_CTX_USER_COREDUMP_ENABLE, CU_CTX_SYNC_MEMOPS,
		CU_CTX_SCHED_SPIN | CU_CTX_SYNC_MEMOPS, 0xff, 0xf8, 0x100, 0x80000000u, 0,
	};
	CUcontext c, p, cur;
	unsigned int f, pf;
	int i, active;

	L("== cuCtxSetFlags");
	for (i = 0; i < 5; i++) {
		static const unsigned int cf[] = { 0, 1, 4, 0x10, 0x80 };

		if (cuCtxCreate(&c, NULL, cf[i], 0))
			continue;
		f = 777;
		{
			int _r116 = R(cuCtxGetFlags(&f));
			L("cuCtxCreate(flags=0x%x); cuCtxGetFlags -> %d 0x%x", cf[i], _r116, f);
		}
		cuCtxDestroy(c);
	}
	cuCtxCreate(&c, NULL, 0, 0);
	for (i = 0; i < (int)(sizeof(set) / sizeof(set[0])); i++) {
		int r = R(cuCtxSetFlags(set[i]));

		f = 777;
		{
			int _r117 = R(cuCtxGetFlags(&f));
			L("cuCtxSetFlags(0x%x) -> %d; cuCtxGetFlags -> %d 0x%x", set[i], r, _r117, f);
		}
	}
	L("cuCtxSetFlags(SPIN); then:");
	cuCtxSetFlags(CU_CTX_SCHED_SPIN);
	{
		int _r118 = R(cuCtxSetFlags(0x100));
		int _r119 = R(cuCtxGetFlags(&f));
		L("cuCtxSetFlags(0x100) -> %d; flags now %d 0x%x", _r118, _r119, f);
	}
	{
		int _r120 = R(cuCtxSetFlags(3));
		int _r121 = R(cuCtxGetFlags(&f));
		L("cuCtxSetFlags(3) -> %d; flags now %d 0x%x", _r120, _r121, f);
	}
	cuCtxDestroy(c);

	cuDevicePrimaryCtxRetain(&p, 0);
	cuCtxPushCurrent(p);
	f = 777;
	{
		int _r122 = R(cuCtxGetFlags(&f));
		L("primary: cuCtxGetFlags -> %d 0x%x", _r122, f);
	}
	{
		int _r123 = R(cuCtxSetFlags(CU_CTX_SCHED_BLOCKING_SYNC | CU_CTX_LMEM_RESIZE_TO_MAX));
		L("primary: cuCtxSetFlags(BLOCKING_SYNC|LMEM) -> %d", _r123);
	}
	f = 777;
	{
		int _r124 = R(cuCtxGetFlags(&f));
		L("primary: cuCtxGetFlags -> %d 0x%x", _r124, f);
	}
	pf = 777;
	active = -1;
	{
		int _r125 = R(cuDevicePrimaryCtxGetState(0, &pf, &active));
		L("primary: cuDevicePrimaryCtxGetState -> %d flags 0x%x active %d", _r125, pf, active);
	}
	{
		int _r126 = R(cuCtxSetFlags(0x80));
		L("primary: cuCtxSetFlags(0x80) -> %d", _r126);
	}
	{
		int _r127 = R(cuDevicePrimaryCtxGetState(0, &pf, &active));
		L("primary: cuDevicePrimaryCtxGetState -> %d flags 0x%x active %d", _r127, pf, active);
	}
	{
		int _r128 = R(cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_SPIN));
		L("primary: cuDevicePrimaryCtxSetFlags(SPIN) -> %d", _r128);
	}
	f = 777;
	{
		int _r129 = R(cuCtxGetFlags(&f));
		L("primary: cuCtxGetFlags -> %d 0x%x", _r129, f);
	}
	{
		static const unsigned int pset[] = { 0x84, 0x1, 0x0, 0x90, 0x10, 0x4 };
		int k;

		for (k = 0; k < 6; k++) {
			int r1 = R(cuCtxSetFlags(pset[k]));
			int r2;

			f = 777;
			r2 = R(cuCtxGetFlags(&f));
			pf = 777;
			active = -1;
			int r3 = R(cuDevicePrimaryCtxGetState(0, &pf, &active));

			L("primary: cuCtxSetFlags(0x%x) -> %d; cuCtxGetFlags -> %d 0x%x; GetState -> %d flags 0x%x active %d", pset[k], r1, r2, f, r3, pf, active);
		}
	}
	{
		int r1 = R(cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_YIELD | CU_CTX_LMEM_RESIZE_TO_MAX));
		int r2;

		f = 777;
		r2 = R(cuCtxGetFlags(&f));
		pf = 777;
		int r3 = R(cuDevicePrimaryCtxGetState(0, &pf, &active));
		L("primary: cuDevicePrimaryCtxSetFlags(YIELD|LMEM) -> %d; cuCtxGetFlags -> %d 0x%x; GetState -> %d flags 0x%x", r1, r2, f, r3, pf);
	}
	cuCtxPopCurrent(&cur);
	cuDevicePrimaryCtxRelease(0);
	cuDevicePrimaryCtxReset(0);
}

static void limits(CUmodule m)
{
	static const size_t vals[] = { 0, 1, 16, 17, 31, 32, 33, 64, 100, 128, 129, 255, 256, 1000, 1024, 2047, 2048, 4096, 65536, 65552, 131072, 262144, 524288, 524289, 1000000, 1048560, 1 << 20, 1048577, 3145728, 3276800, 3276801, 5242880, 8388609, 9437184, 32768000, 32768001, 1ull << 40 };
	CUcontext c;
	CUfunction plain, pr;
	CUdeviceptr d;
	size_t v;
	int l, i, r;
	void *args[] = { &d };

	(void)m;
	L("== limits");
	cuCtxCreate(&c, NULL, 0, 0);
	for (l = -1; l <= 11; l++) {
		v = 777;
		r = R(cuCtxGetLimit(&v, l));
		L("cuCtxGetLimit(&v,%d) [fresh ctx] -> %d v %zu", l, r, v);
	}
	cuCtxDestroy(c);
	for (l = 0; l <= 10; l++) {
		cuCtxCreate(&c, NULL, 0, 0);
		for (i = 0; i < (int)(sizeof(vals) / sizeof(vals[0])); i++) {
			r = R(cuCtxSetLimit(l, vals[i]));
			v = 777;
			{
				int _r130 = R(cuCtxGetLimit(&v, l));
				L("cuCtxSetLimit(%d,%zu) -> %d; get -> %d v %zu", l, vals[i], r, _r130, v);
			}
		}
		cuCtxDestroy(c);
	}
	{
		int _r131 = R(cuCtxSetLimit(99, 0));
		L("cuCtxSetLimit(99,0) -> %d", _r131);
	}
	{
		int _r132 = R(cuCtxSetLimit(-1, 0));
		L("cuCtxSetLimit(-1,0) -> %d", _r132);
	}
	{
		int _r133 = R(cuCtxGetLimit(NULL, 0));
		L("cuCtxGetLimit(NULL,0) -> %d", _r133);
	}
	{
		int _r134 = R(cuCtxGetLimit(NULL, 99));
		L("cuCtxGetLimit(NULL,99) -> %d", _r134);
	}

	/* Setting the printf FIFO and the heap after launches. */
	cuCtxCreate(&c, NULL, 0, 0);
	if (cuModuleLoadData(&m, ptx)) {
		L("module load failed");
		cuCtxDestroy(c);
		return;
	}
	cuModuleGetFunction(&plain, m, "plain");
	cuModuleGetFunction(&pr, m, "pr");
	cuMemAlloc(&d, 4096);
	{
		int _r135 = R(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 1 << 20));
		L("after load: cuCtxSetLimit(PRINTF,1<<20) -> %d", _r135);
	}
	{
		int _r136 = R(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 1 << 20));
		L("after load: cuCtxSetLimit(HEAP,1<<20) -> %d", _r136);
	}
	{
		int _r137 = R(cuLaunchKernel(plain, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
		int _r138 = R(cuCtxSynchronize());
		L("launch plain -> %d sync %d", _r137, _r138);
	}
	{
		int _r139 = R(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 2 << 20));
		L("after plain: cuCtxSetLimit(PRINTF,2<<20) -> %d", _r139);
	}
	{
		int _r140 = R(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 2 << 20));
		L("after plain: cuCtxSetLimit(HEAP,2<<20) -> %d", _r140);
	}
	{
		int _r141 = R(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 4096));
		L("after plain: cuCtxSetLimit(STACK,4096) -> %d", _r141);
	}
	{
		int _r142 = R(cuLaunchKernel(pr, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL));
		int _r143 = R(cuCtxSynchronize());
		L("launch pr -> %d sync %d", _r142, _r143);
	}
	{
		int _r144 = R(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 3 << 20));
		L("after printf: cuCtxSetLimit(PRINTF,3<<20) -> %d", _r144);
	}
	v = 777;
	{
		int _r145 = R(cuCtxGetLimit(&v, CU_LIMIT_PRINTF_FIFO_SIZE));
		L("  get PRINTF -> %d v %zu", _r145, v);
	}
	{
		int _r146 = R(cuCtxSetLimit(CU_LIMIT_MALLOC_HEAP_SIZE, 3 << 20));
		L("after printf: cuCtxSetLimit(HEAP,3<<20) -> %d", _r146);
	}
	v = 777;
	{
		int _r147 = R(cuCtxGetLimit(&v, CU_LIMIT_MALLOC_HEAP_SIZE));
		L("  get HEAP -> %d v %zu", _r147, v);
	}
	{
		int _r148 = R(cuCtxSetLimit(CU_LIMIT_STACK_SIZE, 8192));
		L("after printf: cuCtxSetLimit(STACK,8192) -> %d", _r148);
	}
	cuModuleUnload(m);
	{
		int _r149 = R(cuCtxSetLimit(CU_LIMIT_PRINTF_FIFO_SIZE, 4 << 20));
		L("after unload: cuCtxSetLimit(PRINTF,4<<20) -> %d", _r149);
	}
	cuCtxDestroy(c);
}

static void cache(void)
{
	CUcontext c, p, cur;
	CUfunc_cache cc;
	CUsharedconfig sc;
	int i;

	L("== cache and shared memory config");
	cuCtxCreate(&c, NULL, 0, 0);
	cc = 77;
	{
		int _r150 = R(cuCtxGetCacheConfig(&cc));
		L("cuCtxGetCacheConfig(&cc) [fresh] -> %d cc %d", _r150, (int)cc);
	}
	{
		int _r151 = R(cuCtxGetCacheConfig(NULL));
		L("cuCtxGetCacheConfig(NULL) -> %d", _r151);
	}
	for (i = -1; i <= 5; i++) {
		int r = R(cuCtxSetCacheConfig(i));

		cc = 77;
		{
			int _r152 = R(cuCtxGetCacheConfig(&cc));
			L("cuCtxSetCacheConfig(%d) -> %d; get -> %d cc %d", i, r, _r152, (int)cc);
		}
	}
	sc = 77;
	{
		int _r153 = R(cuCtxGetSharedMemConfig(&sc));
		L("cuCtxGetSharedMemConfig(&sc) [fresh] -> %d sc %d", _r153, (int)sc);
	}
	{
		int _r154 = R(cuCtxGetSharedMemConfig(NULL));
		L("cuCtxGetSharedMemConfig(NULL) -> %d", _r154);
	}
	for (i = -1; i <= 4; i++) {
		int r = R(cuCtxSetSharedMemConfig(i));

		sc = 77;
		{
			int _r155 = R(cuCtxGetSharedMemConfig(&sc));
			L("cuCtxSetSharedMemConfig(%d) -> %d; get -> %d sc %d", i, r, _r155, (int)sc);
		}
	}
	cuCtxDestroy(c);
	cuDevicePrimaryCtxRetain(&p, 0);
	cuCtxPushCurrent(p);
	cc = 77;
	{
		int _r156 = R(cuCtxGetCacheConfig(&cc));
		L("primary: cuCtxGetCacheConfig -> %d cc %d", _r156, (int)cc);
	}
	cuCtxPopCurrent(&cur);
	cuDevicePrimaryCtxRelease(0);
}

static void dump_av(const char *what, int r, const CUstreamAttrValue *av)
{
	char h[80];

	hex(av, 32, h);
	L("%s -> %d int0 %d bytes %s", what, r, *(const int *)av, h);
}

static void *ptsz_thread(void *arg)
{
	unsigned long long a = 777, b = 777, c = 777;
	CUcontext ctx = arg;

	cuCtxSetCurrent(ctx);
	{
		int _r157 = R(cuStreamGetId(CU_STREAM_PER_THREAD, &a));
		L("thread2: cuStreamGetId(PER_THREAD,&id) -> %d id %llu", _r157, a);
	}
	{
		int _r158 = R(cuStreamGetId_ptsz(NULL, &b));
		L("thread2: cuStreamGetId_ptsz(NULL,&id) -> %d id %llu", _r158, b);
	}
	{
		int _r159 = R(cuStreamGetId(NULL, &c));
		L("thread2: cuStreamGetId(NULL,&id) -> %d id %llu", _r159, c);
	}
	return NULL;
}

static void streams(void)
{
	CUcontext c, c2, cur;
	CUstream s1, s2, s3, nb, sd;
	unsigned long long id;
	CUdevice d;
	CUstreamAttrValue av, in;
	char what[128];
	int i, prio;
	pthread_t th;

	L("== streams");
	cuCtxCreate(&c, NULL, 0, 0);
	cuStreamCreateWithPriority(&s1, 0, -3);
	cuStreamCreate(&s2, 0);
	cuStreamCreate(&nb, CU_STREAM_NON_BLOCKING);
	id = 777;
	{
		int _r160 = R(cuStreamGetId(NULL, &id));
		L("cuStreamGetId(NULL,&id) -> %d id %llu", _r160, id);
	}
	id = 777;
	{
		int _r161 = R(cuStreamGetId(CU_STREAM_LEGACY, &id));
		L("cuStreamGetId(LEGACY,&id) -> %d id %llu", _r161, id);
	}
	id = 777;
	{
		int _r162 = R(cuStreamGetId(CU_STREAM_PER_THREAD, &id));
		L("cuStreamGetId(PER_THREAD,&id) -> %d id %llu", _r162, id);
	}
	id = 777;
	{
		int _r163 = R(cuStreamGetId_ptsz(NULL, &id));
		L("cuStreamGetId_ptsz(NULL,&id) -> %d id %llu", _r163, id);
	}
	id = 777;
	{
		int _r164 = R(cuStreamGetId_ptsz(CU_STREAM_LEGACY, &id));
		L("cuStreamGetId_ptsz(LEGACY,&id) -> %d id %llu", _r164, id);
	}
	id = 777;
	{
		int _r165 = R(cuStreamGetId(s1, &id));
		L("cuStreamGetId(s1,&id) -> %d id %llu", _r165, id);
	}
	id = 777;
	{
		int _r166 = R(cuStreamGetId(s2, &id));
		L("cuStreamGetId(s2,&id) -> %d id %llu", _r166, id);
	}
	id = 777;
	{
		int _r167 = R(cuStreamGetId(nb, &id));
		L("cuStreamGetId(nb,&id) -> %d id %llu", _r167, id);
	}
	{
		int _r168 = R(cuStreamGetId(s1, NULL));
		L("cuStreamGetId(s1,NULL) -> %d", _r168);
	}
	{
		int _r169 = R(cuStreamGetId(NULL, NULL));
		L("cuStreamGetId(NULL,NULL) -> %d", _r169);
	}
	pthread_create(&th, NULL, ptsz_thread, c);
	pthread_join(th, NULL);
	cuCtxCreate(&c2, NULL, 0, 0);
	id = 777;
	{
		int _r170 = R(cuStreamGetId(NULL, &id));
		L("ctx2: cuStreamGetId(NULL,&id) -> %d id %llu", _r170, id);
	}
	id = 777;
	{
		int _r171 = R(cuStreamGetId(CU_STREAM_PER_THREAD, &id));
		L("ctx2: cuStreamGetId(PER_THREAD,&id) -> %d id %llu", _r171, id);
	}
	cuStreamCreate(&s3, 0);
	id = 777;
	{
		int _r172 = R(cuStreamGetId(s3, &id));
		L("ctx2: cuStreamGetId(s3,&id) -> %d id %llu", _r172, id);
	}
	id = 777;
	{
		int _r173 = R(cuStreamGetId(s1, &id));
		L("ctx2 current: cuStreamGetId(s1 of ctx1,&id) -> %d id %llu", _r173, id);
	}
	d = -7;
	{
		int _r174 = R(cuStreamGetDevice(s1, &d));
		L("ctx2 current: cuStreamGetDevice(s1,&d) -> %d d %d", _r174, d);
	}
	cuStreamDestroy(s3);
	cuCtxDestroy(c2);

	d = -7;
	{
		int _r175 = R(cuStreamGetDevice(NULL, &d));
		L("cuStreamGetDevice(NULL,&d) -> %d d %d", _r175, d);
	}
	d = -7;
	{
		int _r176 = R(cuStreamGetDevice(CU_STREAM_LEGACY, &d));
		L("cuStreamGetDevice(LEGACY,&d) -> %d d %d", _r176, d);
	}
	d = -7;
	{
		int _r177 = R(cuStreamGetDevice(CU_STREAM_PER_THREAD, &d));
		L("cuStreamGetDevice(PER_THREAD,&d) -> %d d %d", _r177, d);
	}
	d = -7;
	{
		int _r178 = R(cuStreamGetDevice(s1, &d));
		L("cuStreamGetDevice(s1,&d) -> %d d %d", _r178, d);
	}
	d = -7;
	{
		int _r179 = R(cuStreamGetDevice_ptsz(NULL, &d));
		L("cuStreamGetDevice_ptsz(NULL,&d) -> %d d %d", _r179, d);
	}
	{
		int _r180 = R(cuStreamGetDevice(s1, NULL));
		L("cuStreamGetDevice(s1,NULL) -> %d", _r180);
	}

	L("-- stream attributes");
	for (i = -1; i <= 18; i++) {
		memset(&av, 0x5a, sizeof(av));
		snprintf(what, sizeof(what), "cuStreamGetAttribute(s1,%d,&av)", i);
		dump_av(what, R(cuStreamGetAttribute(s1, i, &av)), &av);
	}
	for (i = -1; i <= 18; i++) {
		memset(&av, 0x5a, sizeof(av));
		snprintf(what, sizeof(what), "cuStreamGetAttribute(NULL,%d,&av)", i);
		dump_av(what, R(cuStreamGetAttribute(NULL, i, &av)), &av);
	}
	memset(&av, 0x5a, sizeof(av));
	dump_av("cuStreamGetAttribute(PER_THREAD,PRIORITY,&av)", R(cuStreamGetAttribute(CU_STREAM_PER_THREAD, CU_STREAM_ATTRIBUTE_PRIORITY, &av)), &av);
	memset(&av, 0x5a, sizeof(av));
	dump_av("cuStreamGetAttribute(nb,PRIORITY,&av)", R(cuStreamGetAttribute(nb, CU_STREAM_ATTRIBUTE_PRIORITY, &av)), &av);

	/* Setting each id on s2 with a zeroed value, then with a few values. */
	for (i = -1; i <= 18; i++) {
		memset(&in, 0, sizeof(in));
		int r = R(cuStreamSetAttribute(s2, i, &in));

		memset(&av, 0x5a, sizeof(av));
		snprintf(what, sizeof(what), "cuStreamSetAttribute(s2,%d,zeros) -> %d; get", i, r);
		dump_av(what, R(cuStreamGetAttribute(s2, i, &av)), &av);
	}
	{
		static const int pv[] = { -2, -5, -6, -100, 0, 1, 7 };

		for (i = 0; i < 7; i++) {
			memset(&in, 0, sizeof(in));
			in.priority = pv[i];
			int r = R(cuStreamSetAttribute(s2, CU_STREAM_ATTRIBUTE_PRIORITY, &in));

			prio = 777;
			memset(&av, 0x5a, sizeof(av));
			int r2 = R(cuStreamGetPriority(s2, &prio));

			snprintf(what, sizeof(what), "cuStreamSetAttribute(s2,PRIORITY,%d) -> %d; cuStreamGetPriority -> %d %d; get", pv[i], r, r2, prio);
			dump_av(what, R(cuStreamGetAttribute(s2, CU_STREAM_ATTRIBUTE_PRIORITY, &av)), &av);
		}
	}
	for (i = -1; i <= 5; i++) {
		memset(&in, 0, sizeof(in));
		in.syncPolicy = i;
		int r = R(cuStreamSetAttribute(s2, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &in));

		memset(&av, 0x5a, sizeof(av));
		snprintf(what, sizeof(what), "cuStreamSetAttribute(s2,SYNC_POLICY,%d) -> %d; get", i, r);
		dump_av(what, R(cuStreamGetAttribute(s2, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &av)), &av);
	}
	for (i = -1; i <= 3; i++) {
		memset(&in, 0, sizeof(in));
		in.memSyncDomain = i;
		int r = R(cuStreamSetAttribute(s2, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN, &in));

		memset(&av, 0x5a, sizeof(av));
		snprintf(what, sizeof(what), "cuStreamSetAttribute(s2,MEM_SYNC_DOMAIN,%d) -> %d; get", i, r);
		dump_av(what, R(cuStreamGetAttribute(s2, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN, &av)), &av);
	}
	{
		static const unsigned char mp[][2] = { { 0, 1 }, { 1, 0 }, { 3, 3 }, { 4, 0 }, { 0, 4 }, { 0, 0 } };

		for (i = 0; i < 6; i++) {
			memset(&in, 0, sizeof(in));
			in.memSyncDomainMap.default_ = mp[i][0];
			in.memSyncDomainMap.remote = mp[i][1];
			int r = R(cuStreamSetAttribute(s2, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, &in));

			memset(&av, 0x5a, sizeof(av));
			snprintf(what, sizeof(what), "cuStreamSetAttribute(s2,MEM_SYNC_DOMAIN_MAP,{%d,%d}) -> %d; get", mp[i][0], mp[i][1], r);
			dump_av(what, R(cuStreamGetAttribute(s2, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, &av)), &av);
		}
	}
	{
		CUdeviceptr p = 0;

		cuMemAlloc(&p, 1 << 20);
		struct { size_t n; float hit; int hp, mp; } wv[] = {
			{ 0, 0.0f, 0, 0 }, { 4096, 0.5f, 2, 1 }, { 4096, 1.5f, 2, 1 },
			{ 4096, 0.5f, 2, 2 }, { 4096, 0.5f, 3, 0 }, { 1ull << 40, 0.5f, 2, 0 },
			{ 4096, -0.5f, 1, 0 },
		};
		for (i = 0; i < 7; i++) {
			memset(&in, 0, sizeof(in));
			in.accessPolicyWindow.base_ptr = (void *)(uintptr_t)p;
			in.accessPolicyWindow.num_bytes = wv[i].n;
			in.accessPolicyWindow.hitRatio = wv[i].hit;
			in.accessPolicyWindow.hitProp = wv[i].hp;
			in.accessPolicyWindow.missProp = wv[i].mp;
			int r = R(cuStreamSetAttribute(s2, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &in));

			memset(&av, 0x5a, sizeof(av));
			snprintf(what, sizeof(what), "cuStreamSetAttribute(s2,ACCESS_POLICY_WINDOW,n=%zu hit=%g hp=%d mp=%d) -> %d; get", wv[i].n, wv[i].hit, wv[i].hp, wv[i].mp, r);
			dump_av(what, R(cuStreamGetAttribute(s2, CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW, &av)), &av);
		}
		cuMemFree(p);
	}
	/* The legacy and per-thread streams. */
	memset(&in, 0, sizeof(in));
	in.priority = -4;
	{
		int _r185 = R(cuStreamSetAttribute(NULL, CU_STREAM_ATTRIBUTE_PRIORITY, &in));
		L("cuStreamSetAttribute(NULL,PRIORITY,-4) -> %d", _r185);
	}
	prio = 777;
	{
		int _r186 = R(cuStreamGetPriority(NULL, &prio));
		L("  cuStreamGetPriority(NULL) -> %d %d", _r186, prio);
	}
	{
		int _r187 = R(cuStreamSetAttribute(CU_STREAM_LEGACY, CU_STREAM_ATTRIBUTE_PRIORITY, &in));
		L("cuStreamSetAttribute(LEGACY,PRIORITY,-4) -> %d", _r187);
	}
	{
		int _r188 = R(cuStreamSetAttribute(CU_STREAM_PER_THREAD, CU_STREAM_ATTRIBUTE_PRIORITY, &in));
		L("cuStreamSetAttribute(PER_THREAD,PRIORITY,-4) -> %d", _r188);
	}
	prio = 777;
	{
		int _r189 = R(cuStreamGetPriority(CU_STREAM_PER_THREAD, &prio));
		L("  cuStreamGetPriority(PER_THREAD) -> %d %d", _r189, prio);
	}
	in.syncPolicy = CU_SYNC_POLICY_SPIN;
	{
		int _r190 = R(cuStreamSetAttribute(NULL, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &in));
		L("cuStreamSetAttribute(NULL,SYNC_POLICY,SPIN) -> %d", _r190);
	}
	memset(&av, 0x5a, sizeof(av));
	dump_av("  cuStreamGetAttribute(NULL,SYNC_POLICY)", R(cuStreamGetAttribute(NULL, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &av)), &av);

	L("-- cuStreamCopyAttributes");
	memset(&in, 0, sizeof(in));
	in.syncPolicy = CU_SYNC_POLICY_BLOCKING_SYNC;
	cuStreamSetAttribute(s1, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &in);
	in.memSyncDomain = 1;
	cuStreamSetAttribute(s1, CU_STREAM_ATTRIBUTE_MEM_SYNC_DOMAIN, &in);
	cuStreamCreate(&sd, 0);
	{
		int _r191 = R(cuStreamCopyAttributes(sd, s1));
		L("cuStreamCopyAttributes(sd,s1) -> %d", _r191);
	}
	for (i = 1; i <= 10; i++) {
		memset(&av, 0x5a, sizeof(av));
		snprintf(what, sizeof(what), "  sd get %d", i);
		dump_av(what, R(cuStreamGetAttribute(sd, i, &av)), &av);
	}
	prio = 777;
	{
		int _r192 = R(cuStreamGetPriority(sd, &prio));
		L("  cuStreamGetPriority(sd) -> %d %d", _r192, prio);
	}
	{
		int _r193 = R(cuStreamCopyAttributes(sd, sd));
		L("cuStreamCopyAttributes(sd,sd) -> %d", _r193);
	}
	{
		int _r194 = R(cuStreamCopyAttributes(NULL, s1));
		L("cuStreamCopyAttributes(NULL,s1) -> %d", _r194);
	}
	memset(&av, 0x5a, sizeof(av));
	dump_av("  NULL get SYNC_POLICY", R(cuStreamGetAttribute(NULL, CU_STREAM_ATTRIBUTE_SYNCHRONIZATION_POLICY, &av)), &av);
	prio = 777;
	{
		int _r195 = R(cuStreamGetPriority(NULL, &prio));
		L("  cuStreamGetPriority(NULL) -> %d %d", _r195, prio);
	}
	{
		int _r196 = R(cuStreamCopyAttributes(nb, NULL));
		L("cuStreamCopyAttributes(nb,NULL) -> %d", _r196);
	}
	prio = 777;
	{
		int _r197 = R(cuStreamGetPriority(nb, &prio));
		L("  cuStreamGetPriority(nb) -> %d %d", _r197, prio);
	}
	{
		int _r198 = R(cuStreamCopyAttributes(CU_STREAM_PER_THREAD, s1));
		L("cuStreamCopyAttributes(PER_THREAD,s1) -> %d", _r198);
	}
	{
		int _r199 = R(cuStreamCopyAttributes_ptsz(NULL, s1));
		L("cuStreamCopyAttributes_ptsz(NULL,s1) -> %d", _r199);
	}
	cuCtxCreate(&c2, NULL, 0, 0);
	cuStreamCreate(&s3, 0);
	{
		int _r200 = R(cuStreamCopyAttributes(s3, s1));
		L("cuStreamCopyAttributes(s3 of ctx2,s1 of ctx1) -> %d", _r200);
	}
	prio = 777;
	{
		int _r201 = R(cuStreamGetPriority(s3, &prio));
		L("  cuStreamGetPriority(s3) -> %d %d", _r201, prio);
	}
	cuStreamDestroy(s3);
	cuCtxDestroy(c2);
	cuCtxSetCurrent(c);

	cuStreamDestroy(sd);
	cuStreamDestroy(s1);
	cuStreamDestroy(s2);
	cuStreamDestroy(nb);
	cuCtxDestroy(c);
	(void)cur;
}

/* Last: handles of destroyed objects, which the driver may not check. */
static void risky(void)
{
	CUcontext a, b;
	CUstream sd, s2;
	unsigned long long id;
	CUdevice d;
	CUstreamAttrValue av;

	L("== destroyed handles");
	cuCtxCreate(&a, NULL, 0, 0);
	cuCtxCreate(&b, NULL, 0, 0);
	cuCtxDestroy(a);
	id = 777;
	{
		int _r202 = R(cuCtxGetId(a, &id));
		L("cuCtxGetId(destroyed a,&id) -> %d id %llu", _r202, id);
	}
	cuStreamCreate(&sd, 0);
	cuStreamCreate(&s2, 0);
	cuStreamDestroy(sd);
	(void)d; (void)av;
	cuStreamDestroy(s2);
	cuCtxDestroy(b);
	{
		CUcontext c;
		CUstream s1;
		size_t lv;

		cuCtxCreate(&c, NULL, 0, 0);
		cuStreamCreate(&s1, 0);
		(void)lv;
		L("cuStreamSetAttribute(s1,99,NULL) ...");
		L("  -> %d", R(cuStreamSetAttribute(s1, 99, NULL)));
		L("cuStreamGetAttribute(s1,99,NULL) ...");
		L("  -> %d", R(cuStreamGetAttribute(s1, 99, NULL)));
		L("cuCtxGetLimit(NULL,99) [ctx] ...");
		L("  -> %d", R(cuCtxGetLimit(NULL, 99)));
		L("cuCtxGetLimit(NULL,STACK) [ctx] ...");
		L("  -> %d", R(cuCtxGetLimit(NULL, CU_LIMIT_STACK_SIZE)));
		L("cuStreamSetAttribute(s1,PRIORITY,NULL) ...");
		L("  -> %d", R(cuStreamSetAttribute(s1, CU_STREAM_ATTRIBUTE_PRIORITY, NULL)));
	}
	{
		CUcontext a, b, cur;

		cuCtxCreate(&a, NULL, 0, 0);
		cuCtxCreate(&b, NULL, 0, 0);
		cuCtxDestroy(a);
		cuCtxDestroy(b);
		L("cuCtxSetFlags(0) [destroyed current] ...");
		L("  -> %d", R(cuCtxSetFlags(0)));
		cuCtxPopCurrent(&cur);
	}
	L("cuOccupancyAvailableDynamicSMemPerBlock(NULL,NULL,1,32) ...");
	L("  -> %d", R(cuOccupancyAvailableDynamicSMemPerBlock(NULL, NULL, 1, 32)));
}

static void occupancy(void)
{
	static const int bs[] = { 1, 32, 33, 64, 96, 128, 192, 256, 257, 512, 768, 1024, 1025, 0, -1 };
	static const int nb[] = { 1, 2, 3, 4, 5, 7, 8, 16, 32, 33, 64, 0, -1 };
	const char *names[] = { "plain", "smem", "big" };
	CUcontext c;
	CUmodule m;
	CUfunction f;
	size_t v;
	int k, i, j, a;

	L("== cuOccupancyAvailableDynamicSMemPerBlock");
	cuCtxCreate(&c, NULL, 0, 0);
	if (cuModuleLoadData(&m, ptx)) {
		L("module load failed");
		return;
	}
	for (k = 0; k < 3; k++) {
		cuModuleGetFunction(&f, m, names[k]);
		cuFuncGetAttribute(&a, CU_FUNC_ATTRIBUTE_NUM_REGS, f);
		L("kernel %s: NUM_REGS %d", names[k], a);
		cuFuncGetAttribute(&a, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f);
		L("kernel %s: SHARED_SIZE_BYTES %d", names[k], a);
		cuFuncGetAttribute(&a, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
		L("kernel %s: MAX_THREADS_PER_BLOCK %d", names[k], a);
		cuFuncGetAttribute(&a, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, f);
		L("kernel %s: MAX_DYNAMIC_SHARED_SIZE_BYTES %d", names[k], a);
		for (i = 0; i < (int)(sizeof(bs) / sizeof(bs[0])); i++)
			for (j = 0; j < (int)(sizeof(nb) / sizeof(nb[0])); j++) {
				v = 777;
				int r = R(cuOccupancyAvailableDynamicSMemPerBlock(&v, f, nb[j], bs[i]));

				L("cuOccupancyAvailableDynamicSMemPerBlock(&v,%s,blocks=%d,block=%d) -> %d v %zu", names[k], nb[j], bs[i], r, v);
			}
	}
	cuModuleGetFunction(&f, m, "plain");
	{
		int _r208 = R(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 100000));
		L("cuFuncSetAttribute(plain,MAX_DYN,100000) -> %d", _r208);
	}
	for (j = 0; j < 4; j++) {
		v = 777;
		{
			int _r209 = R(cuOccupancyAvailableDynamicSMemPerBlock(&v, f, nb[j], 128));
			L("  after: cuOccupancyAvailableDynamicSMemPerBlock(&v,plain,%d,128) -> %d v %zu", nb[j], _r209, v);
		}
	}
	{
		int _r210 = R(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, 50));
		L("cuFuncSetAttribute(plain,CARVEOUT,50) -> %d", _r210);
	}
	for (j = 0; j < 4; j++) {
		v = 777;
		{
			int _r211 = R(cuOccupancyAvailableDynamicSMemPerBlock(&v, f, nb[j], 128));
			L("  after: cuOccupancyAvailableDynamicSMemPerBlock(&v,plain,%d,128) -> %d v %zu", nb[j], _r211, v);
		}
	}
	v = 777;
	{
		int _r212 = R(cuOccupancyAvailableDynamicSMemPerBlock(&v, NULL, 1, 32));
		L("cuOccupancyAvailableDynamicSMemPerBlock(&v,NULL,1,32) -> %d v %zu", _r212, v);
	}
	cuModuleUnload(m);
	v = 777;
	{
		int _r215 = R(cuOccupancyAvailableDynamicSMemPerBlock(&v, f, 1, 32));
		L("cuOccupancyAvailableDynamicSMemPerBlock(&v,unloaded,1,32) -> %d v %zu", _r215, v);
	}
	cuCtxDestroy(c);
}

int main(void)
{
	int n = 0, ver = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	cuDriverGetVersion(&ver);
	L("driver version %d", ver);
	before_init();
	{
		int _r216 = R(cuInit(0));
		L("cuInit(0) -> %d", _r216);
	}
	cuDeviceGetCount(&n);
	L("device count %d", n);
	props(n);
	pci(n);
	luid(n);
	tex1d(n);
	peer(n);
	no_context();
	ctx_ids();
	flags();
	cache();
	limits(NULL);
	occupancy();
	streams();
	destroyed_current();
	risky();
	L("== done");
	return 0;
}
