// SPDX-License-Identifier: MIT
// Probe run on an H100 for tests/unit/test_fp_h100.c: PTX floating-point
// instructions (sm_75 PTX, JIT-compiled by the driver) on 2048 inputs each,
// the special values first (zeros, infinities, NaNs with payloads,
// subnormals, extremes), then a sweep over every exponent; the results as
// bits. Built with nvcc -gencode arch=compute_75,code=compute_75; its
// output, gzipped, is h100_fp_corners.log.gz.
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cuda_runtime.h>

#define N 2048

__device__ float u2f(unsigned u) { return __uint_as_float(u); }

#define UN(name, ins) \
__global__ void k_##name(const unsigned *in, unsigned *out, int n) { \
	int i = blockIdx.x * blockDim.x + threadIdx.x; \
	if (i < n) { float x = __uint_as_float(in[i]), r; \
		asm(ins " %0, %1;" : "=f"(r) : "f"(x)); \
		out[i] = __float_as_uint(r); } }
UN(sin, "sin.approx.f32")
UN(cos, "cos.approx.f32")
UN(sin_ftz, "sin.approx.ftz.f32")
UN(ex2, "ex2.approx.f32")
UN(ex2_ftz, "ex2.approx.ftz.f32")
UN(lg2, "lg2.approx.f32")
UN(lg2_ftz, "lg2.approx.ftz.f32")
UN(rcp, "rcp.approx.f32")
UN(rcp_ftz, "rcp.approx.ftz.f32")
UN(rsqrt, "rsqrt.approx.f32")
UN(rsqrt_ftz, "rsqrt.approx.ftz.f32")
UN(sqrt_approx, "sqrt.approx.f32")
UN(tanh, "tanh.approx.f32")
UN(sqrt_rn, "sqrt.rn.f32")
UN(rcp_rn, "rcp.rn.f32")
UN(abs, "abs.f32")
UN(neg, "neg.f32")
UN(abs_ftz, "abs.ftz.f32")
UN(sat, "cvt.sat.f32.f32")

#define BIN(name, ins) \
__global__ void k_##name(const unsigned *a, const unsigned *b, unsigned *out, int n) { \
	int i = blockIdx.x * blockDim.x + threadIdx.x; \
	if (i < n) { float x = __uint_as_float(a[i]), y = __uint_as_float(b[i]), r; \
		asm(ins " %0, %1, %2;" : "=f"(r) : "f"(x), "f"(y)); \
		out[i] = __float_as_uint(r); } }
BIN(div_approx, "div.approx.f32")
BIN(div_full, "div.full.f32")
BIN(div_rn, "div.rn.f32")
BIN(min, "min.f32")
BIN(max, "max.f32")
BIN(add, "add.f32")
BIN(mul, "mul.f32")
BIN(add_ftz, "add.ftz.f32")
BIN(mul_sat, "mul.sat.f32")

// conversions with NaN payloads
__global__ void k_cvt(const unsigned *in, unsigned long long *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) {
		float x = __uint_as_float(in[i]);
		double d; unsigned short h; float back;
		asm("cvt.f64.f32 %0, %1;" : "=d"(d) : "f"(x));
		asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
		asm("cvt.rn.f32.f64 %0, %1;" : "=f"(back) : "d"(d));
		out[3 * i] = __double_as_longlong(d);
		out[3 * i + 1] = h;
		out[3 * i + 2] = __float_as_uint(back);
	}
}

static unsigned inputs[N];
static int nin;

static void add_in(unsigned u) { if (nin < N) inputs[nin++] = u; }

static void make_inputs(void)
{
	unsigned specials[] = { 0, 0x80000000u, 0x7f800000u, 0xff800000u,
		0x7fc00000u, 0xffc00000u, 0x7fc12345u, 0x7f812345u, 0xff812345u,
		0x00000001u, 0x807fffffu, 0x00800000u, 0x7f7fffffu, 0xff7fffffu,
		0x3f800000u, 0xbf800000u, 0x40490fdbu, 0x3fc90fdbu, 0x49742400u,
		0x4b000000u, 0x5f000000u, 0x7e800000u, 0x7effffffu, 0x42b17218u,
		0x42fe0000u, 0x43000000u, 0xc3160000u, 0xc3150000u, 0x3effffffu,
		0x34000000u, 0x2f800000u, 0x00400000u };
	for (unsigned s : specials) add_in(s);
	// a sweep of exponents and mantissas, both signs
	uint64_t x = 0x9e3779b97f4a7c15ull;
	while (nin < N) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		unsigned e = (unsigned)(nin * 7 % 256);
		unsigned m = (unsigned)(x & 0x7fffff);
		unsigned s = (nin & 1) << 31;
		add_in(s | e << 23 | m);
	}
}

int main(void)
{
	unsigned *din, *din2, *dout;
	unsigned long long *dcvt;
	static unsigned out[N], in2[N];
	static unsigned long long cvt[3 * N];
	int i;

	make_inputs();
	for (i = 0; i < N; i++) in2[i] = inputs[(i * 37 + 11) % N];
	cudaMalloc(&din, sizeof(inputs));
	cudaMalloc(&din2, sizeof(inputs));
	cudaMalloc(&dout, sizeof(out));
	cudaMalloc(&dcvt, sizeof(cvt));
	cudaMemcpy(din, inputs, sizeof(inputs), cudaMemcpyHostToDevice);
	cudaMemcpy(din2, in2, sizeof(in2), cudaMemcpyHostToDevice);
#define RUN1(name) \
	k_##name<<<N / 256, 256>>>(din, dout, N); \
	if (cudaGetLastError()) { printf(#name " launch failed\n"); return 1; } \
	cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost); \
	for (i = 0; i < N; i++) printf(#name " %08x %08x\n", inputs[i], out[i]);
#define RUN2(name) \
	k_##name<<<N / 256, 256>>>(din, din2, dout, N); \
	if (cudaGetLastError()) { printf(#name " launch failed\n"); return 1; } \
	cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost); \
	for (i = 0; i < N; i++) printf(#name " %08x %08x %08x\n", inputs[i], in2[i], out[i]);
	RUN1(sin) RUN1(cos) RUN1(sin_ftz) RUN1(ex2) RUN1(ex2_ftz) RUN1(lg2)
	RUN1(lg2_ftz) RUN1(rcp) RUN1(rcp_ftz) RUN1(rsqrt) RUN1(rsqrt_ftz)
	RUN1(sqrt_approx) RUN1(tanh) RUN1(sqrt_rn) RUN1(rcp_rn) RUN1(abs)
	RUN1(neg) RUN1(abs_ftz) RUN1(sat)
	RUN2(div_approx) RUN2(div_full) RUN2(div_rn) RUN2(min) RUN2(max)
	RUN2(add) RUN2(mul) RUN2(add_ftz)
	RUN2(mul_sat)
	k_cvt<<<N / 256, 256>>>(din, dcvt, N);
	cudaMemcpy(cvt, dcvt, sizeof(cvt), cudaMemcpyDeviceToHost);
	for (i = 0; i < N; i++)
		printf("cvt %08x %016llx %04llx %08llx\n", inputs[i], cvt[3 * i],
		       cvt[3 * i + 1], cvt[3 * i + 2]);
	printf("status %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
	return 0;
}
