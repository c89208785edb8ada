// SPDX-License-Identifier: MIT
/*
 * Peers. With one device, every answer is held to an H100's for the same
 * sequence (tests/e2e/ref/h100_peer.log, from ref/h100_peer.c there): the
 * queries for a device and itself, cuCtxEnablePeerAccess and
 * cuCtxDisablePeerAccess's errors, copies between two contexts of one
 * device (cuMemcpyPeer, cuMemcpy3DPeer, plain cuMemcpy) and a kernel of
 * one context writing another's memory, as an H100's kernels do. With two
 * devices (the H100 had one: NVIDIA's documentation is the reference),
 * access enabled and disabled, kernels of one device reading and writing
 * the other's memory only while enabled, and copies both ways carried out
 * by the engines, ordered against the other device's work; a pool of one
 * device reached by the other's kernels as cuMemPoolSetAccess says.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"

#define H100_LOG "tests/e2e/ref/h100_peer.log"
#include "h100_log.h"

/* put7(p): *p = 7. add(p, q, n): p[i] += q[i] for i < n. */
static const char ptx[] =
	".version 8.0\n.target sm_75\n.address_size 64\n"
	".visible .entry put7(.param .u64 p)\n{\n"
	"\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<2>;\n"
	"\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd1, %rd1;\n"
	"\tmov.u32 %r1, 7;\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n"
	".visible .entry add(.param .u64 p, .param .u64 q, .param .u32 n)\n{\n"
	"\t.reg .u64 %rd<6>;\n\t.reg .u32 %r<8>;\n\t.reg .pred %pr;\n"
	"\tld.param.u64 %rd1, [p];\n\tld.param.u64 %rd2, [q];\n"
	"\tld.param.u32 %r1, [n];\n"
	"\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"
	"\tmov.u32 %r4, %tid.x;\n\tmad.lo.u32 %r2, %r2, %r3, %r4;\n"
	"\tsetp.ge.u32 %pr, %r2, %r1;\n\t@%pr ret;\n"
	"\tmul.wide.u32 %rd3, %r2, 4;\n\tadd.u64 %rd4, %rd1, %rd3;\n"
	"\tadd.u64 %rd5, %rd2, %rd3;\n"
	"\tld.global.u32 %r5, [%rd4];\n\tld.global.u32 %r6, [%rd5];\n"
	"\tadd.u32 %r5, %r5, %r6;\n\tst.global.u32 [%rd4], %r5;\n\tret;\n}\n";

static void init(void)
{
	REQUIRE_RES(CUDA_SUCCESS, cuInit(0));
}

static CUfunction load(const char *name)
{
	CUmodule mod;
	CUfunction f;

	REQUIRE_RES(CUDA_SUCCESS, cuModuleLoadData(&mod, ptx));
	REQUIRE_RES(CUDA_SUCCESS, cuModuleGetFunction(&f, mod, name));
	return f;
}

static bool two_devices(void)
{
	int n = 0;

	return cuDeviceGetCount(&n) == CUDA_SUCCESS && n > 1;
}

/* The H100's sequence, one device. */
static void one_device(void)
{
	CUcontext a, b, c, cur;
	CUdeviceptr da, db, dc;
	CUDA_MEMCPY3D_PEER p;
	unsigned int h[64], i;
	CUstream sb;
	CUfunction f;
	char name[64];
	int v, attr;

	init();
	v = -1;
	CHECK_RES(h100("can_access_self"), cuDeviceCanAccessPeer(&v, 0, 0));
	CHECK(v == h100("can_access_self.value"));
	CHECK_RES(h100("can_access_null"), cuDeviceCanAccessPeer(NULL, 0, 0));
	CHECK_RES(h100("can_access_bad_peer"), cuDeviceCanAccessPeer(&v, 0, 5));
	CHECK_RES(h100("can_access_bad_dev"), cuDeviceCanAccessPeer(&v, -1, 0));
	for (attr = 0; attr <= 6; attr++) {
		snprintf(name, sizeof(name), "p2p_attr_self.%d", attr);
		CHECK_RES(h100(name), cuDeviceGetP2PAttribute(&v, attr, 0, 0));
	}
	CHECK_RES(h100("p2p_attr_bad"), cuDeviceGetP2PAttribute(&v, 99, 0, 0));

	CHECK_RES(h100("enable_no_ctx_null"), cuCtxEnablePeerAccess(NULL, 0));
	CHECK_RES(h100("disable_no_ctx_null"), cuCtxDisablePeerAccess(NULL));
	REQUIRE_RES(h100("ctx_a"), cuCtxCreate(&a, NULL, 0, 0));
	REQUIRE_RES(h100("ctx_b"), cuCtxCreate(&b, NULL, 0, 0));
	cuCtxPopCurrent(&cur);
	cuCtxPopCurrent(&cur);
	CHECK_RES(h100("enable_no_ctx"), cuCtxEnablePeerAccess(b, 0));
	CHECK_RES(h100("disable_no_ctx"), cuCtxDisablePeerAccess(b));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxPushCurrent(a));
	CHECK_RES(h100("enable_null"), cuCtxEnablePeerAccess(NULL, 0));
	CHECK_RES(h100("enable_self"), cuCtxEnablePeerAccess(a, 0));
	CHECK_RES(h100("enable_flags"), cuCtxEnablePeerAccess(b, 1));
	CHECK_RES(h100("enable_same_device"), cuCtxEnablePeerAccess(b, 0));
	CHECK_RES(h100("enable_same_device_again"), cuCtxEnablePeerAccess(b, 0));
	CHECK_RES(h100("disable_same_device"), cuCtxDisablePeerAccess(b));
	CHECK_RES(h100("disable_same_device_again"), cuCtxDisablePeerAccess(b));
	CHECK_RES(h100("disable_null"), cuCtxDisablePeerAccess(NULL));
	CHECK_RES(h100("disable_self"), cuCtxDisablePeerAccess(a));

	REQUIRE_RES(h100("alloc_a"), cuMemAlloc(&da, 256));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxPushCurrent(b));
	REQUIRE_RES(h100("alloc_b"), cuMemAlloc(&db, 256));
	REQUIRE_RES(h100("stream_b"), cuStreamCreate(&sb, 0));
	cuCtxPopCurrent(&cur);
	for (i = 0; i < 64; i++)
		h[i] = i * 3 + 1;
	CHECK_RES(h100("htod_a"), cuMemcpyHtoD(da, h, 256));
	CHECK_RES(h100("peer_copy"), cuMemcpyPeer(db, b, da, a, 256));
	memset(h, 0, sizeof(h));
	CHECK_RES(h100("dtoh_b_from_a"), cuMemcpyDtoH(h, db, 256));
	CHECK(h[5] == h100("peer_copy.word5"));
	CHECK_RES(h100("peer_copy_zero"), cuMemcpyPeer(db, b, da, a, 0));
	CHECK_RES(h100("peer_copy_null_dst_ctx"), cuMemcpyPeer(db, NULL, da, a, 256));
	CHECK_RES(h100("peer_copy_null_src_ctx"), cuMemcpyPeer(db, b, da, NULL, 256));
	CHECK_RES(h100("peer_copy_swapped_ctx"), cuMemcpyPeer(db, a, da, b, 256));
	CHECK_RES(h100("peer_copy_past_end"), cuMemcpyPeer(db, b, da, a, 512));
	CHECK_RES(h100("peer_copy_bad_ptr"), cuMemcpyPeer(db, b, 0x1000, a, 16));
	CHECK_RES(h100("peer_copy_null_ptr"), cuMemcpyPeer(0, b, da, a, 16));
	CHECK_RES(h100("peer_async_stream_b"), cuMemcpyPeerAsync(da, a, db, b, 256, sb));
	CHECK_RES(h100("peer_async_null"), cuMemcpyPeerAsync(da, a, db, b, 256, NULL));
	CHECK_RES(h100("sync_a"), cuCtxSynchronize());
	CHECK_RES(h100("plain_copy_a_to_b"), cuMemcpy(db, da, 256));
	CHECK_RES(h100("dtod_a_to_b"), cuMemcpyDtoD(db, da, 256));
	CHECK_RES(h100("plain_copy_async"), cuMemcpyAsync(da + 128, db, 128, NULL));
	CHECK_RES(h100("sync_a2"), cuCtxSynchronize());

	/* NVIDIA's driver dies of SIGSEGV here (h100_peer.log). */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpy3DPeer(NULL));
	memset(&p, 0, sizeof(p));
	p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	p.srcDevice = da;
	p.srcContext = a;
	p.srcPitch = 64;
	p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	p.dstDevice = db;
	p.dstContext = b;
	p.dstPitch = 64;
	p.WidthInBytes = 32;
	p.Height = 2;
	p.Depth = 2;
	p.srcHeight = 2;
	p.dstHeight = 2;
	CHECK_RES(h100("3dpeer"), cuMemcpy3DPeer(&p));
	p.srcContext = NULL;
	CHECK_RES(h100("3dpeer_null_src_ctx"), cuMemcpy3DPeer(&p));
	p.srcContext = a;
	p.dstContext = NULL;
	CHECK_RES(h100("3dpeer_null_dst_ctx"), cuMemcpy3DPeer(&p));
	p.dstContext = b;
	p.srcMemoryType = CU_MEMORYTYPE_HOST;
	p.srcHost = h;
	CHECK_RES(h100("3dpeer_from_host"), cuMemcpy3DPeer(&p));
	p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	p.Depth = 3;
	CHECK_RES(h100("3dpeer_past_end"), cuMemcpy3DPeer(&p));
	p.Depth = 2;
	CHECK_RES(h100("3dpeer_async"), cuMemcpy3DPeerAsync(&p, NULL));
	CHECK_RES(h100("sync_a3"), cuCtxSynchronize());

	CHECK_RES(h100("attr_ctx"), cuPointerGetAttribute(&cur, CU_POINTER_ATTRIBUTE_CONTEXT, db));
	CHECK((cur == b) == h100("attr_ctx.is_b"));

	REQUIRE_RES(h100("ctx_c"), cuCtxCreate(&c, NULL, 0, 0));
	CHECK_RES(h100("alloc_c"), cuMemAlloc(&dc, 256));
	cuCtxPopCurrent(&cur);
	CHECK_RES(h100("destroy_c"), cuCtxDestroy(c));
	CHECK_RES(h100("enable_destroyed"), cuCtxEnablePeerAccess(c, 0));

	/* A kernel of a writes b's memory, as on the H100. */
	CHECK_RES(h100("enable_for_kernel"), cuCtxEnablePeerAccess(b, 0));
	f = load("put7");
	{
		void *args[] = { &db };

		CHECK_RES(h100("launch_to_b"), cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
		CHECK_RES(h100("launch_to_b_sync"), cuCtxSynchronize());
	}
	h[0] = 0;
	CHECK_RES(h100("dtoh_b_after_kernel"), cuMemcpyDtoH(h, db, 4));
	CHECK(h[0] == h100("kernel_wrote"));
	CHECK_RES(h100("disable_for_kernel"), cuCtxDisablePeerAccess(b));
	{
		void *args[] = { &db };

		CHECK_RES(h100("launch_to_b_disabled"), cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
		CHECK_RES(h100("launch_to_b_disabled_sync"), cuCtxSynchronize());
	}
}

/* The queries and access calls for two devices. */
static void two_device_access(void)
{
	CUcontext c0, c1, cur;
	int v = -1;

	init();
	if (!two_devices())
		TAP_SKIP("one device");
	CHECK_RES(CUDA_SUCCESS, cuDeviceCanAccessPeer(&v, 0, 1));
	CHECK(v == 1);
	CHECK_RES(CUDA_SUCCESS, cuDeviceCanAccessPeer(&v, 1, 0));
	CHECK(v == 1);
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_ACCESS_SUPPORTED, 0, 1));
	CHECK(v == 1);
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, 0, 1));
	CHECK(v == 1);
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_PERFORMANCE_RANK, 0, 1));
	CHECK(v == 0);
	CHECK_RES(CUDA_SUCCESS, cuDeviceGetP2PAttribute(&v, CU_DEVICE_P2P_ATTRIBUTE_CUDA_ARRAY_ACCESS_SUPPORTED, 1, 0));
	CHECK(v == 0);
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetP2PAttribute(&v, 0, 0, 1));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuDeviceGetP2PAttribute(&v, 99, 0, 1));

	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&c1, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&c0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuCtxEnablePeerAccess(c1, 1));
	CHECK_RES(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cuCtxDisablePeerAccess(c1));
	CHECK_RES(CUDA_SUCCESS, cuCtxEnablePeerAccess(c1, 0));
	CHECK_RES(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, cuCtxEnablePeerAccess(c1, 0));
	/* One way only: device 1's context has not asked. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	CHECK_RES(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cuCtxDisablePeerAccess(c0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	CHECK_RES(CUDA_SUCCESS, cuCtxDisablePeerAccess(c1));
	CHECK_RES(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cuCtxDisablePeerAccess(c1));
	CHECK_RES(CUDA_SUCCESS, cuCtxEnablePeerAccess(c1, 0));
	/* A reset peer is a new context: access to it is not enabled. */
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxReset(1));
	CHECK_RES(CUDA_ERROR_CONTEXT_IS_DESTROYED, cuCtxEnablePeerAccess(c1, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&cur, 1));
	CHECK(cur == c1);
	CHECK_RES(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, cuCtxDisablePeerAccess(c1));
	CHECK_RES(CUDA_SUCCESS, cuCtxEnablePeerAccess(c1, 0));
}

/*
 * Copies both ways between devices, of every form, and their order
 * against the other device's work.
 */
static void two_device_copies(void)
{
	enum { N = 1 << 20 };
	CUdeviceptr d0, d1, big0, big1;
	CUcontext c0, c1;
	CUDA_MEMCPY3D_PEER p;
	CUstream s0;
	CUfunction add1;
	unsigned int *h, i, bad = 0;
	unsigned int n = N / 4;

	init();
	if (!two_devices())
		TAP_SKIP("one device");
	h = malloc(N);
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&c1, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&c0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	add1 = load("add");
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d1, N));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&big1, 3 * N));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d0, N));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&big0, 3 * N));
	REQUIRE_RES(CUDA_SUCCESS, cuStreamCreate(&s0, CU_STREAM_NON_BLOCKING));
	for (i = 0; i < n; i++)
		h[i] = i;
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(d0, h, N));

	/* Device 0's engine, from the current context, into device 1. */
	CHECK_RES(CUDA_SUCCESS, cuMemcpyPeer(d1, c1, d0, c0, N));
	/* Device 1 doubles it; a synchronous copy back waits for that. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	{
		void *args[] = { &d1, &d1, &n };

		CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(add1, n / 256, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
	}
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyPeer(d0, c0, d1, c1, N));
	memset(h, 0, N);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(h, d0, N));
	for (i = 0; i < n; i++)
		bad += h[i] != 2 * i;
	CHECK(bad == 0);

	/* Plain copies between devices go by the addresses, from either side. */
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(d0, 5, n));
	CHECK_RES(CUDA_SUCCESS, cuMemcpy(d1, d0, N));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(h, d1, N));
	for (i = 0, bad = 0; i < n; i++)
		bad += h[i] != 5;
	CHECK(bad == 0);
	/* A fill of device 1's memory by device 0's engine. */
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(d1 + 4, 9, 1));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(h, d1, 8));
	CHECK(h[0] == 5 && h[1] == 9);

	/* Larger than a piece of the engine's, asynchronous, on a stream. */
	for (i = 0; i < 3 * n; i++)
		((unsigned char *)h)[i % N] = (unsigned char)(i * 7);
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(big0, h, N));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(big0 + N, h, N));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(big0 + 2 * N, h, N));
	/* A non-blocking stream is not ordered after the legacy one. */
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemcpyPeerAsync(big1 + 1, c1, big0 + 3, c0, 3 * N - 3, s0));
	CHECK_RES(CUDA_SUCCESS, cuStreamSynchronize(s0));
	{
		unsigned char *back = malloc(3 * N);

		CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(back, big1 + 1, 3 * N - 3));
		for (i = 0, bad = 0; i < 3 * N - 3; i++)
			bad += back[i] != ((unsigned char *)h)[(i + 3) % N];
		CHECK(bad == 0);
		free(back);
	}
	/* Past the peer's allocation: refused before anything moves. */
	CHECK_RES(CUDA_ERROR_INVALID_VALUE, cuMemcpyPeer(d1, c1, d0, c0, N + 4));

	/* A 3D copy from device 1 to device 0. */
	memset(&p, 0, sizeof(p));
	p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	p.srcDevice = d1;
	p.srcContext = c1;
	p.srcPitch = 256;
	p.srcHeight = 4;
	p.dstMemoryType = CU_MEMORYTYPE_DEVICE;
	p.dstDevice = d0;
	p.dstContext = c0;
	p.dstPitch = 128;
	p.dstHeight = 2;
	p.WidthInBytes = 64;
	p.Height = 2;
	p.Depth = 3;
	for (i = 0; i < 640; i++)
		h[i] = i;
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(d1, h, 2560));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(d0, 0, 256));
	CHECK_RES(CUDA_SUCCESS, cuMemcpy3DPeer(&p));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(h, d0, 1024));
	/* Slice z, row y, word x: source word (z * 4 + y) * 64 + x. */
	for (i = 0, bad = 0; i < 3 * 2 * 16; i++) {
		unsigned int z = i / 32, y = i / 16 % 2, x = i % 16;

		bad += h[(z * 2 + y) * 32 + x] != (z * 4 + y) * 64 + x;
	}
	CHECK(bad == 0);

	/* A 2D copy from device 1 comes after device 1's kernel before it. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	{
		unsigned int rows = 256;
		void *args[] = { &d1, &d1, &rows };

		CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(add1, 1, 1, 1, 256, 1, 1, 0, NULL, args, NULL));
	}
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	{
		CUDA_MEMCPY2D c2 = { 0 };

		c2.srcMemoryType = CU_MEMORYTYPE_DEVICE;
		c2.srcDevice = d1;
		c2.srcPitch = 256;
		c2.dstMemoryType = CU_MEMORYTYPE_DEVICE;
		c2.dstDevice = d0;
		c2.dstPitch = 64;
		c2.WidthInBytes = 64;
		c2.Height = 4;
		CHECK_RES(CUDA_SUCCESS, cuMemcpy2D(&c2));
	}
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(h, d0, 256));
	/* Row y, word x: source word y * 64 + x, doubled. */
	for (i = 0, bad = 0; i < 64; i++)
		bad += h[i] != 2 * ((i / 16) * 64 + i % 16);
	CHECK(bad == 0);
	free(h);
}

/*
 * Kernels of device 0 reading and writing device 1's memory: only while
 * access is enabled; a kernel that touches it otherwise faults, which
 * ends its context (a context of its own here).
 */
static void two_device_kernels(void)
{
	enum { N = 4096 };
	CUdeviceptr d0, d1, p;
	CUcontext c0, c1, lone, cur;
	CUfunction add0, put;
	unsigned int h[N / 4], i, bad = 0, n = N / 4;

	init();
	if (!two_devices())
		TAP_SKIP("one device");
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&c1, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&c0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d1, N));
	for (i = 0; i < n; i++)
		h[i] = 1000 + i;
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(d1, h, N));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	add0 = load("add");
	REQUIRE_RES(CUDA_SUCCESS, cuMemAlloc(&d0, N));
	for (i = 0; i < n; i++)
		h[i] = i;
	CHECK_RES(CUDA_SUCCESS, cuMemcpyHtoD(d0, h, N));
	CHECK_RES(CUDA_SUCCESS, cuCtxEnablePeerAccess(c1, 0));
	{
		/* d0 += d1, then d1 += d0: reads and writes of the peer. */
		void *a1[] = { &d0, &d1, &n }, *a2[] = { &d1, &d0, &n };

		CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(add0, n / 128, 1, 1, 128, 1, 1, 0, NULL, a1, NULL));
		CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(add0, n / 128, 1, 1, 128, 1, 1, 0, NULL, a2, NULL));
	}
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(h, d1, N));
	for (i = 0; i < n; i++)
		bad += h[i] != 1000 + i + 1000 + 2 * i;
	CHECK(bad == 0);
	CHECK_RES(CUDA_SUCCESS, cuCtxDisablePeerAccess(c1));

	/* Another context of device 0, never enabled: its kernel faults. */
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&lone, NULL, 0, 0));
	put = load("put7");
	p = d1;
	{
		void *args[] = { &p };

		CHECK_RES(CUDA_SUCCESS, cuLaunchKernel(put, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL));
	}
	CHECK_RES(CUDA_ERROR_ILLEGAL_ADDRESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, cuCtxPopCurrent(&cur));
	CHECK(cur == lone);
	cuCtxDestroy(lone);
	CHECK_RES(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(h, d1, 4));
	CHECK(h[0] == 2000);
}

/* put7 on @ctx's stream 0, writing @p; the launch's and the sync's codes. */
static CUresult put_from(CUcontext ctx, CUfunction put, CUdeviceptr p)
{
	void *args[] = { &p };
	CUresult r;

	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(ctx));
	r = cuLaunchKernel(put, 1, 1, 1, 1, 1, 1, 0, NULL, args, NULL);
	return r ? r : cuCtxSynchronize();
}

/*
 * A pool of device 0 reached by device 1's kernels only as
 * cuMemPoolSetAccess says, for blocks made before and after the call;
 * device 1's context never enables peer access.
 */
static void two_device_pools(void)
{
	CUmemAccessDesc acc = {
		.location = { CU_MEM_LOCATION_TYPE_DEVICE, 1 },
		.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE,
	};
	CUdeviceptr a, b;
	CUcontext c0, c1, lone;
	CUmemoryPool pool;
	CUfunction put1, put_lone;
	unsigned int v[2] = { 0, 0 };

	init();
	if (!two_devices())
		TAP_SKIP("one device");
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&c1, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c1));
	put1 = load("put7");
	REQUIRE_RES(CUDA_SUCCESS, cuDevicePrimaryCtxRetain(&c0, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	REQUIRE_RES(CUDA_SUCCESS, cuDeviceGetDefaultMemPool(&pool, 0));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocAsync(&a, 4096, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(a, 0, 1024));
	CHECK_RES(CUDA_SUCCESS, cuMemPoolSetAccess(pool, &acc, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuMemAllocAsync(&b, 4096, NULL));
	CHECK_RES(CUDA_SUCCESS, cuMemsetD32(b, 0, 1024));
	CHECK_RES(CUDA_SUCCESS, cuCtxSynchronize());
	CHECK_RES(CUDA_SUCCESS, put_from(c1, put1, a));
	CHECK_RES(CUDA_SUCCESS, put_from(c1, put1, b + 4));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxSetCurrent(c0));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v[0], a, 4));
	CHECK_RES(CUDA_SUCCESS, cuMemcpyDtoH(&v[1], b + 4, 4));
	CHECK(v[0] == 7 && v[1] == 7);

	/* Taken back: a context of device 1 opened now faults there. */
	acc.flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
	CHECK_RES(CUDA_SUCCESS, cuMemPoolSetAccess(pool, &acc, 1));
	REQUIRE_RES(CUDA_SUCCESS, cuCtxCreate(&lone, NULL, 0, 1));
	put_lone = load("put7");
	CHECK_RES(CUDA_ERROR_ILLEGAL_ADDRESS, put_from(lone, put_lone, a));
	cuCtxDestroy(lone);
}

int main(void)
{
	static const struct tap_test tests[] = {
		TAP_TEST(one_device),
		TAP_TEST(two_device_access),
		TAP_TEST(two_device_copies),
		TAP_TEST(two_device_kernels),
		TAP_TEST(two_device_pools),
	};

	return tap_run(tests, sizeof(tests) / sizeof(tests[0]));
}
