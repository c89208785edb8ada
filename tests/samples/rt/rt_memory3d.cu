// SPDX-License-Identifier: MIT
// Three-dimensional memory on the runtime API: cudaMalloc3D's pitched
// allocation, cudaMemset3D over the whole of it and over a box inside it,
// cudaMemcpy3D between host, device and device with offsets on both sides,
// cudaMemcpy3DAsync on a stream, cudaMemcpy3DPeer within one device, and
// the error codes of bad parameters, as an H100 answers them.
#include "rt.h"

#define W 100	// bytes a row
#define H 20	// rows a slice
#define D 5	// slices

static cudaMemcpy3DParms params(cudaPitchedPtr src, cudaPos spos,
				cudaPitchedPtr dst, cudaPos dpos,
				cudaExtent ext, cudaMemcpyKind kind)
{
	cudaMemcpy3DParms p;

	memset(&p, 0, sizeof(p));
	p.srcPtr = src;
	p.srcPos = spos;
	p.dstPtr = dst;
	p.dstPos = dpos;
	p.extent = ext;
	p.kind = kind;
	return p;
}

// The byte the host pattern holds at (x, y, z).
static unsigned char pattern(int x, int y, int z)
{
	return (unsigned char)(x * 7 + y * 13 + z * 31 + 1);
}

int main(void)
{
	static unsigned char host[D][H][W], back[D][H][W];
	cudaPitchedPtr dev, dev2, hp, bp, none, zero;
	cudaExtent all = make_cudaExtent(W, H, D);
	cudaMemcpy3DParms p;
	cudaMemcpy3DPeerParms pp;
	cudaStream_t st;
	int x, y, z, bad;

	rt_check_library();
	TRY(cudaSetDevice(0));
	TRY(cudaMalloc3D(&dev, all));
	EXPECT_TRUE(dev.ptr != NULL && dev.pitch >= W && dev.xsize == W &&
		    dev.ysize == H);
	printf("cudaMalloc3D of %dx%dx%d bytes: pitch %zu, xsize %zu, "
	       "ysize %zu\n", W, H, D, dev.pitch, dev.xsize, dev.ysize);
	TRY(cudaMalloc3D(&dev2, all));

	// Fill the whole of it, then a box inside it.
	TRY(cudaMemset3D(dev, 0x11, all));
	TRY(cudaMemset3D(make_cudaPitchedPtr((char *)dev.ptr + 3 * dev.pitch +
					     10, dev.pitch, W, H),
			 0x22, make_cudaExtent(50, 4, 2)));
	hp = make_cudaPitchedPtr(back, W, W, H);
	p = params(dev, make_cudaPos(0, 0, 0), hp, make_cudaPos(0, 0, 0), all,
		   cudaMemcpyDeviceToHost);
	TRY(cudaMemcpy3D(&p));
	bad = 0;
	for (z = 0; z < D; z++)
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++) {
				bool in = z < 2 && y >= 3 && y < 7 &&
					  x >= 10 && x < 60;

				bad += back[z][y][x] != (in ? 0x22 : 0x11);
			}
	EXPECT_TRUE(bad == 0);
	printf("cudaMemset3D of the whole and of a 50x4x2 box: %d wrong\n",
	       bad);

	// Host to device with offsets on both sides, device to device, back.
	for (z = 0; z < D; z++)
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++)
				host[z][y][x] = pattern(x, y, z);
	TRY(cudaMemset3D(dev, 0, all));
	TRY(cudaMemset3D(dev2, 0, all));
	hp = make_cudaPitchedPtr(host, W, W, H);
	p = params(hp, make_cudaPos(4, 2, 1), dev, make_cudaPos(8, 5, 2),
		   make_cudaExtent(40, 10, 3), cudaMemcpyHostToDevice);
	TRY(cudaMemcpy3D(&p));
	p = params(dev, make_cudaPos(0, 0, 0), dev2, make_cudaPos(0, 0, 0),
		   all, cudaMemcpyDeviceToDevice);
	TRY(cudaMemcpy3D(&p));
	memset(back, 0xff, sizeof(back));
	bp = make_cudaPitchedPtr(back, W, W, H);
	p = params(dev2, make_cudaPos(0, 0, 0), bp, make_cudaPos(0, 0, 0), all,
		   cudaMemcpyDefault);
	TRY(cudaMemcpy3D(&p));
	bad = 0;
	for (z = 0; z < D; z++)
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++) {
				bool in = z >= 2 && z < 5 && y >= 5 &&
					  y < 15 && x >= 8 && x < 48;
				unsigned char want = in ?
					pattern(x - 4, y - 3, z - 1) : 0;

				bad += back[z][y][x] != want;
			}
	EXPECT_TRUE(bad == 0);
	printf("cudaMemcpy3D of a 40x10x3 box with offsets, through a "
	       "second buffer: %d wrong\n", bad);

	// The same box on a stream, and through the peer form.
	TRY(cudaStreamCreate(&st));
	TRY(cudaMemset3DAsync(dev2, 0x33, all, st));
	p = params(dev2, make_cudaPos(0, 0, 0), dev, make_cudaPos(0, 0, 0),
		   all, cudaMemcpyDeviceToDevice);
	TRY(cudaMemcpy3DAsync(&p, st));
	TRY(cudaStreamSynchronize(st));
	memset(&pp, 0, sizeof(pp));
	pp.srcPtr = dev;
	pp.dstPtr = bp;
	pp.extent = all;
	pp.srcDevice = 0;
	pp.dstDevice = 0;
	// The peer form copies between devices' memory only.
	printf("cudaMemcpy3DPeer to host memory: %s\n", cudaGetErrorName(
		cudaMemcpy3DPeer(&pp)));
	cudaGetLastError();
	pp.dstPtr = dev2;
	TRY(cudaMemset3D(dev2, 0, all));
	TRY(cudaMemcpy3DPeer(&pp));
	p = params(dev2, make_cudaPos(0, 0, 0), bp, make_cudaPos(0, 0, 0), all,
		   cudaMemcpyDeviceToHost);
	TRY(cudaMemcpy3D(&p));
	bad = 0;
	for (z = 0; z < D; z++)
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++)
				bad += back[z][y][x] != 0x33;
	EXPECT_TRUE(bad == 0);
	printf("cudaMemset3DAsync, cudaMemcpy3DAsync and cudaMemcpy3DPeer: "
	       "%d wrong\n", bad);
	TRY(cudaMemset3DAsync(dev, 0x44, all, st));
	TRY(cudaMemcpy3DPeerAsync(&pp, st));
	TRY(cudaStreamSynchronize(st));
	TRY(cudaMemcpy3D(&p));
	EXPECT_TRUE(back[0][0][0] == 0x44 && back[D - 1][H - 1][W - 1] == 0x44);

	// Bad parameters.
	memset(&none, 0, sizeof(none));
	memset(&zero, 0xff, sizeof(zero));
	printf("cudaMalloc3D(NULL): %s\n", cudaGetErrorName(
		cudaMalloc3D(NULL, all)));
	cudaGetLastError();
	printf("cudaMalloc3D of nothing: %s\n", cudaGetErrorName(
		cudaMalloc3D(&zero, make_cudaExtent(0, 0, 0))));
	printf("cudaMalloc3D of nothing: ptr %s, pitch %zu\n",
	       zero.ptr ? "set" : "NULL", zero.pitch);
	printf("cudaMemcpy3D(NULL): %s\n", cudaGetErrorName(
		cudaMemcpy3D(NULL)));
	cudaGetLastError();
	p = params(dev, make_cudaPos(0, 0, 0), dev2, make_cudaPos(0, 0, 0),
		   all, (cudaMemcpyKind)7);
	printf("cudaMemcpy3D of kind 7: %s\n", cudaGetErrorName(
		cudaMemcpy3D(&p)));
	cudaGetLastError();
	p = params(dev, make_cudaPos(0, 0, 0), dev2, make_cudaPos(0, 0, 0),
		   make_cudaExtent(dev.pitch + 1, 1, 1),
		   cudaMemcpyDeviceToDevice);
	printf("cudaMemcpy3D of rows wider than the pitch: %s\n",
	       cudaGetErrorName(cudaMemcpy3D(&p)));
	cudaGetLastError();
	p = params(none, make_cudaPos(0, 0, 0), dev2, make_cudaPos(0, 0, 0),
		   all, cudaMemcpyDeviceToDevice);
	printf("cudaMemcpy3D from nothing: %s\n", cudaGetErrorName(
		cudaMemcpy3D(&p)));
	cudaGetLastError();
	p = params(dev, make_cudaPos(0, 0, 0), dev2, make_cudaPos(0, 0, 0),
		   make_cudaExtent(0, 0, 0), cudaMemcpyDeviceToDevice);
	printf("cudaMemcpy3D of nothing: %s\n", cudaGetErrorName(
		cudaMemcpy3D(&p)));
	printf("cudaMemset3D of rows wider than the pitch: %s\n",
	       cudaGetErrorName(cudaMemset3D(dev, 0,
			make_cudaExtent(dev.pitch + 1, 2, 1))));
	cudaGetLastError();
	printf("cudaMemset3D of nothing: %s\n", cudaGetErrorName(
		cudaMemset3D(dev, 0, make_cudaExtent(0, 0, 0))));
	pp.srcDevice = 99;
	printf("cudaMemcpy3DPeer from device 99: %s\n", cudaGetErrorName(
		cudaMemcpy3DPeer(&pp)));
	cudaGetLastError();
	printf("cudaMemcpy3DPeer(NULL): %s\n", cudaGetErrorName(
		cudaMemcpy3DPeer(NULL)));
	cudaGetLastError();
	printf("last error after all: %s\n", cudaGetErrorName(
		cudaGetLastError()));

	TRY(cudaStreamDestroy(st));
	TRY(cudaFree(dev.ptr));
	TRY(cudaFree(dev2.ptr));
	return rt_result();
}
