/*
 * Probe of NVIDIA's peer calls on a real GPU with one device: what
 * cuDeviceCanAccessPeer and cuDeviceGetP2PAttribute answer for a device
 * and itself, cuCtxEnablePeerAccess/cuCtxDisablePeerAccess's errors (no
 * context, a null or destroyed peer, the current context, a second
 * context of the same device, flags), and cuMemcpyPeer, cuMemcpyPeerAsync,
 * cuMemcpy3DPeer and plain cuMemcpy between two contexts of the device,
 * with bad contexts, ranges and sizes. Output: one "name = value" per
 * line. Not built by the tree: it needs NVIDIA's cuda.h and libcuda. Run
 * on an H100 (CUDA 13.0) as
 *   gcc h100_peer.c -I/usr/local/cuda/include -lcuda -o peer && ./peer
 * its output is h100_peer.log, which tests/e2e/peer_api.c follows.
 */
#include <cuda.h>
#include <stdio.h>
#include <string.h>

#define R(name, call) printf("%s = %d\n", name, (int)(call))

static const char ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry put7(.param .u64 p)\n{\n"
	".reg .b64 %rd<2>;\n.reg .b32 %r<2>;\n"
	"ld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd1, %rd1;\n"
	"mov.u32 %r1, 7;\nst.global.u32 [%rd1], %r1;\nret;\n}\n";

int main(void)
{
	CUcontext a, b, c, cur;
	CUdeviceptr da, db, dc;
	CUdevice dev;
	CUstream sb;
	CUmodule mod;
	CUfunction f;
	unsigned int h[64], i;
	int v, attr;
	CUDA_MEMCPY3D_PEER p;

	setvbuf(stdout, NULL, _IOLBF, 0);
	R("init", cuInit(0));
	cuDeviceGet(&dev, 0);
	v = -1;
	R("can_access_self", cuDeviceCanAccessPeer(&v, 0, 0));
	printf("can_access_self.value = %d\n", v);
	R("can_access_null", cuDeviceCanAccessPeer(NULL, 0, 0));
	R("can_access_bad_peer", cuDeviceCanAccessPeer(&v, 0, 5));
	R("can_access_bad_dev", cuDeviceCanAccessPeer(&v, -1, 0));
	for (attr = 0; attr <= 6; attr++) {
		char name[64];

		v = -1;
		snprintf(name, sizeof(name), "p2p_attr_self.%d", attr);
		R(name, cuDeviceGetP2PAttribute(&v, attr, 0, 0));
	}
	R("p2p_attr_bad", cuDeviceGetP2PAttribute(&v, 99, 0, 0));

	/* No context current. */
	R("enable_no_ctx_null", cuCtxEnablePeerAccess(NULL, 0));
	R("disable_no_ctx_null", cuCtxDisablePeerAccess(NULL));
	R("ctx_a", cuCtxCreate(&a, NULL, 0, dev));
	R("ctx_b", cuCtxCreate(&b, NULL, 0, dev));	/* b current */
	cuCtxPopCurrent(&cur);
	cuCtxPopCurrent(&cur);
	R("enable_no_ctx", cuCtxEnablePeerAccess(b, 0));
	R("disable_no_ctx", cuCtxDisablePeerAccess(b));
	cuCtxPushCurrent(a);
	R("enable_null", cuCtxEnablePeerAccess(NULL, 0));
	R("enable_self", cuCtxEnablePeerAccess(a, 0));
	R("enable_flags", cuCtxEnablePeerAccess(b, 1));
	R("enable_same_device", cuCtxEnablePeerAccess(b, 0));
	R("enable_same_device_again", cuCtxEnablePeerAccess(b, 0));
	R("disable_same_device", cuCtxDisablePeerAccess(b));
	R("disable_same_device_again", cuCtxDisablePeerAccess(b));
	R("disable_null", cuCtxDisablePeerAccess(NULL));
	R("disable_self", cuCtxDisablePeerAccess(a));

	/* Copies between the two contexts. */
	R("alloc_a", cuMemAlloc(&da, 256));
	cuCtxPushCurrent(b);
	R("alloc_b", cuMemAlloc(&db, 256));
	R("stream_b", cuStreamCreate(&sb, 0));
	cuCtxPopCurrent(&cur);
	for (i = 0; i < 64; i++)
		h[i] = i * 3 + 1;
	R("htod_a", cuMemcpyHtoD(da, h, 256));
	R("peer_copy", cuMemcpyPeer(db, b, da, a, 256));
	memset(h, 0, sizeof(h));
	R("dtoh_b_from_a", cuMemcpyDtoH(h, db, 256));
	printf("peer_copy.word5 = %u\n", h[5]);
	R("peer_copy_zero", cuMemcpyPeer(db, b, da, a, 0));
	R("peer_copy_null_dst_ctx", cuMemcpyPeer(db, NULL, da, a, 256));
	R("peer_copy_null_src_ctx", cuMemcpyPeer(db, b, da, NULL, 256));
	R("peer_copy_swapped_ctx", cuMemcpyPeer(db, a, da, b, 256));
	R("peer_copy_past_end", cuMemcpyPeer(db, b, da, a, 512));
	R("peer_copy_bad_ptr", cuMemcpyPeer(db, b, 0x1000, a, 16));
	R("peer_copy_null_ptr", cuMemcpyPeer(0, b, da, a, 16));
	R("peer_async_stream_b", cuMemcpyPeerAsync(da, a, db, b, 256, sb));
	R("peer_async_null", cuMemcpyPeerAsync(da, a, db, b, 256, NULL));
	R("sync_a", cuCtxSynchronize());
	R("plain_copy_a_to_b", cuMemcpy(db, da, 256));
	R("dtod_a_to_b", cuMemcpyDtoD(db, da, 256));
	R("plain_copy_async", cuMemcpyAsync(da + 128, db, 128, NULL));
	R("sync_a2", cuCtxSynchronize());

	printf("3dpeer_null = crashes (SIGSEGV)\n");
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
	R("3dpeer", cuMemcpy3DPeer(&p));
	p.srcContext = NULL;
	R("3dpeer_null_src_ctx", cuMemcpy3DPeer(&p));
	p.srcContext = a;
	p.dstContext = NULL;
	R("3dpeer_null_dst_ctx", cuMemcpy3DPeer(&p));
	p.dstContext = b;
	p.srcMemoryType = CU_MEMORYTYPE_HOST;
	p.srcHost = h;
	R("3dpeer_from_host", cuMemcpy3DPeer(&p));
	p.srcMemoryType = CU_MEMORYTYPE_DEVICE;
	p.Depth = 3;
	R("3dpeer_past_end", cuMemcpy3DPeer(&p));
	p.Depth = 2;
	R("3dpeer_async", cuMemcpy3DPeerAsync(&p, NULL));
	R("sync_a3", cuCtxSynchronize());

	/* Attributes of b's pointer seen from a. */
	R("attr_ctx", cuPointerGetAttribute(&cur, CU_POINTER_ATTRIBUTE_CONTEXT, db));
	printf("attr_ctx.is_b = %d\n", cur == b);

	/* A destroyed peer. */
	R("ctx_c", cuCtxCreate(&c, NULL, 0, dev));
	R("alloc_c", cuMemAlloc(&dc, 256));
	cuCtxPopCurrent(&cur);
	R("destroy_c", cuCtxDestroy(c));
	R("enable_destroyed", cuCtxEnablePeerAccess(c, 0));
	printf("peer_copy_destroyed = crashes (SIGSEGV)\n");

	/* A kernel of a writing b's memory, access enabled. */
	R("enable_for_kernel", cuCtxEnablePeerAccess(b, 0));
	R("module", cuModuleLoadData(&mod, ptx));
	R("func", cuModuleGetFunction(&f, mod, "put7"));
	{
		void *args[] = { &db };

		R("launch_to_b", cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, NULL,
						args, NULL));
		R("launch_to_b_sync", cuCtxSynchronize());
	}
	h[0] = 0;
	R("dtoh_b_after_kernel", cuMemcpyDtoH(h, db, 4));
	printf("kernel_wrote = %u\n", h[0]);
	R("disable_for_kernel", cuCtxDisablePeerAccess(b));
	{
		void *args[] = { &db };

		R("launch_to_b_disabled", cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0,
							 NULL, args, NULL));
		R("launch_to_b_disabled_sync", cuCtxSynchronize());
	}
	return 0;
}
