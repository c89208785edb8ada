// SPDX-License-Identifier: MIT
// Probe run on an H100 for core/mufu.c and tests/unit/test_fp_h100.c: the
// approximate f32 instructions over their whole input range.
//
//   h100_mufu dump DIR     every result of the binades core/mufu.c's
//                          tables were fitted to, one file per range of
//                          input bits (DIR/NAME_START_LOG2COUNT.u32)
//   h100_mufu digest FILE  each instruction on all 2^32 inputs, compared
//                          with vgpu's core (core/fp.c's vgpu_fp_func over
//                          core/mufu.c) and digested per block of 2^22
//                          inputs; div over 2^26 pairs of a fixed
//                          xorshift sequence
//
// A digest is FNV-1a 64 over the bytes of the result words, least
// significant first, in input order. FILE, gzipped, is
// h100_mufu_digest.txt.gz. Built as
//   gcc -O2 -std=c11 -D_GNU_SOURCE -Icore -I. -frounding-math \
//       '-D__printf(a,b)=' '-D__always_inline=inline' -c core/fp.c core/mufu.c
//   nvcc -O2 -arch=sm_90 -Icore -I. -Xcompiler -fopenmp \
//       tests/unit/data/h100_mufu.cu fp.o mufu.o -o h100_mufu
// On the H100 (driver 580.159.04) every instruction gave vgpu's results
// for every input (the log's "0 of 2^32 differ" lines).
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>
#define __printf(a, b)
extern "C" {
#include "fp.h"
}

#define K(name, ins) \
__global__ void name(uint32_t base, uint32_t *o) { \
	uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; \
	float x = __uint_as_float(base + i), r; \
	asm(ins " %0, %1;" : "=f"(r) : "f"(x)); \
	o[i] = __float_as_uint(r); }
K(k_rcpf, "rcp.approx.ftz.f32") K(k_rcp, "rcp.approx.f32")
K(k_rsqf, "rsqrt.approx.ftz.f32") K(k_rsq, "rsqrt.approx.f32")
K(k_sqrtf, "sqrt.approx.ftz.f32") K(k_sqrt, "sqrt.approx.f32")
K(k_ex2f, "ex2.approx.ftz.f32") K(k_ex2, "ex2.approx.f32")
K(k_lg2f, "lg2.approx.ftz.f32") K(k_lg2, "lg2.approx.f32")
K(k_sin, "sin.approx.f32") K(k_cos, "cos.approx.f32")
K(k_tanh, "tanh.approx.f32")

#define KD(name, ins) \
__global__ void name(const uint32_t *a, const uint32_t *b, uint32_t *o) { \
	uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; float r; \
	asm(ins " %0, %1, %2;" : "=f"(r) : "f"(__uint_as_float(a[i])), \
	    "f"(__uint_as_float(b[i]))); \
	o[i] = __float_as_uint(r); }
KD(k_div, "div.approx.f32") KD(k_divf, "div.approx.ftz.f32")
KD(k_divfull, "div.full.f32") KD(k_divfullf, "div.full.ftz.f32")

typedef void (*kf)(uint32_t, uint32_t *);
struct fn { const char *name; kf k; uint8_t op, mod, flags; };
static const fn fns[] = {
	{ "rcp_ftz", k_rcpf, VGPU_OP_RCP, VGPU_RND_APPROX, VGPU_IF_FTZ },
	{ "rcp", k_rcp, VGPU_OP_RCP, VGPU_RND_APPROX, 0 },
	{ "rsqrt_ftz", k_rsqf, VGPU_OP_RSQRT, 0, VGPU_IF_FTZ },
	{ "rsqrt", k_rsq, VGPU_OP_RSQRT, 0, 0 },
	{ "sqrt_ftz", k_sqrtf, VGPU_OP_SQRT, VGPU_RND_APPROX, VGPU_IF_FTZ },
	{ "sqrt", k_sqrt, VGPU_OP_SQRT, VGPU_RND_APPROX, 0 },
	{ "ex2_ftz", k_ex2f, VGPU_OP_EX2, 0, VGPU_IF_FTZ },
	{ "ex2", k_ex2, VGPU_OP_EX2, 0, 0 },
	{ "lg2_ftz", k_lg2f, VGPU_OP_LG2, 0, VGPU_IF_FTZ },
	{ "lg2", k_lg2, VGPU_OP_LG2, 0, 0 },
	{ "sin", k_sin, VGPU_OP_SIN, 0, 0 },
	{ "cos", k_cos, VGPU_OP_COS, 0, 0 },
	{ "tanh", k_tanh, VGPU_OP_TANH, 0, 0 },
};

static void core_run(const struct vgpu_insn *in, const uint32_t *a,
		     const uint32_t *b, uint32_t *o, size_t n)
{
	#pragma omp parallel for schedule(static)
	for (size_t i = 0; i < n; i += 32) {
		u64 regs[3 * 32];

		for (int l = 0; l < 32; l++) {
			regs[l] = a[i + l];
			regs[32 + l] = b ? b[i + l] : 0;
		}
		if (in->op == VGPU_OP_DIV)
			vgpu_fp_alu(regs, in, ~0U);
		else
			vgpu_fp_func(regs, in, ~0U);
		for (int l = 0; l < 32; l++)
			o[i + l] = (uint32_t)regs[64 + l];
	}
}

static uint64_t fnv(const uint32_t *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 4; k++) {
			h ^= (p[i] >> (8 * k)) & 0xff;
			h *= 0x100000001b3ull;
		}
	return h;
}

static uint32_t xs = 0x9e3779b9u;

static uint32_t next(void)
{
	xs ^= xs << 13;
	xs ^= xs >> 17;
	xs ^= xs << 5;
	return xs;
}

static struct vgpu_insn insn(uint8_t op, uint8_t mod, uint8_t flags)
{
	struct vgpu_insn x;

	memset(&x, 0, sizeof(x));
	x.op = op;
	x.type = VGPU_T_F32;
	x.mod = mod;
	x.flags = flags;
	x.dst = 2;
	x.a = 0;
	x.b = 1;
	return x;
}

static int digest(const char *path)
{
	const size_t CH = 1u << 28, BL = 1u << 22, N = 1u << 26;
	std::vector<uint32_t> g(CH), m(CH), in(CH);
	static uint64_t h[CH / (1u << 22)];
	FILE *dig = fopen(path, "w");
	uint32_t *d;

	cudaMalloc(&d, 4 * CH);
	for (const fn &f : fns) {
		struct vgpu_insn x = insn(f.op, f.mod, f.flags);
		uint64_t bad = 0;

		for (uint64_t c = 0; c < (1ull << 32); c += CH) {
			f.k<<<CH / 256, 256>>>((uint32_t)c, d);
			cudaMemcpy(g.data(), d, 4 * CH, cudaMemcpyDeviceToHost);
			for (size_t i = 0; i < CH; i++)
				in[i] = (uint32_t)(c + i);
			core_run(&x, in.data(), NULL, m.data(), CH);
			for (size_t i = 0; i < CH; i++)
				if (g[i] != m[i] && bad++ < 8)
					printf("%s(%08x): vgpu %08x, H100 %08x\n",
					       f.name, in[i], m[i], g[i]);
			#pragma omp parallel for
			for (size_t b = 0; b < CH / BL; b++)
				h[b] = fnv(&g[b * BL], BL);
			for (size_t b = 0; b < CH / BL; b++)
				fprintf(dig, "%s %03llx %016llx\n", f.name,
					(unsigned long long)(c / BL + b),
					(unsigned long long)h[b]);
		}
		printf("%s: %llu of 2^32 differ\n", f.name,
		       (unsigned long long)bad);
		fflush(stdout);
	}
	std::vector<uint32_t> a(N), b(N), o(N), mo(N);
	uint32_t *da, *db;

	for (size_t i = 0; i < N; i++) {
		a[i] = next();
		b[i] = next();
	}
	cudaMalloc(&da, 4 * N);
	cudaMalloc(&db, 4 * N);
	cudaMemcpy(da, a.data(), 4 * N, cudaMemcpyHostToDevice);
	cudaMemcpy(db, b.data(), 4 * N, cudaMemcpyHostToDevice);
	for (int v = 0; v < 4; v++) {
		static const char *const names[] = { "div", "div_ftz", "div_full", "div_full_ftz" };
		void (*k)(const uint32_t *, const uint32_t *, uint32_t *) =
			v == 0 ? k_div : v == 1 ? k_divf : v == 2 ? k_divfull : k_divfullf;
		struct vgpu_insn x = insn(VGPU_OP_DIV, v < 2 ? VGPU_RND_APPROX : VGPU_RND_FULL,
					  v & 1 ? VGPU_IF_FTZ : 0);
		uint64_t bad = 0;

		k<<<N / 256, 256>>>(da, db, d);
		cudaMemcpy(o.data(), d, 4 * N, cudaMemcpyDeviceToHost);
		core_run(&x, a.data(), b.data(), mo.data(), N);
		for (size_t i = 0; i < N; i++)
			if (o[i] != mo[i] && bad++ < 8)
				printf("%s(%08x, %08x): vgpu %08x, H100 %08x\n",
				       names[v], a[i], b[i], mo[i], o[i]);
		for (size_t i = 0; i < N; i += BL)
			fprintf(dig, "%s %03zx %016llx\n", names[v], i / BL,
				(unsigned long long)fnv(&o[i], BL));
		printf("%s: %llu of 2^26 pairs differ\n", names[v],
		       (unsigned long long)bad);
	}
	fclose(dig);
	return 0;
}

/* The binades the tables were fitted to. */
static int dump(const char *dir)
{
	static const struct { kf k; const char *name; uint32_t start; int lg; } doms[] = {
		{ k_rcpf, "rcp", 0x3f800000, 23 }, { k_rsqf, "rsq", 0x3f800000, 24 },
		{ k_sqrtf, "sqrt", 0x3f800000, 24 }, { k_lg2f, "lg2", 0x3f000000, 24 },
		{ k_lg2f, "lg2b", 0x40000000, 23 }, { k_ex2f, "ex2", 0x3f000000, 24 },
		{ k_ex2f, "ex2n", 0xbf000000, 24 }, { k_ex2f, "ex2s", 0x3c000000, 23 },
		{ k_sin, "sin", 0x3f800000, 24 }, { k_sin, "sin8", 0x40800000, 23 },
		{ k_sin, "sins", 0x3c000000, 23 }, { k_cos, "cos", 0x3f800000, 24 },
		{ k_cos, "cos8", 0x40800000, 23 }, { k_tanh, "tanh", 0x3e000000, 25 },
		{ k_tanh, "tanhb", 0x40000000, 23 }, { k_tanh, "tanhs", 0x3c000000, 23 },
		{ k_tanh, "tanh4", 0x40800000, 23 }, { k_tanh, "tanh8", 0x41000000, 20 },
		{ k_tanh, "tanhm8", 0x3b800000, 23 }, { k_tanh, "tanhm6", 0x3c800000, 24 },
		{ k_tanh, "tanhm4", 0x3d800000, 23 }, { k_tanh, "tanhm9", 0x3b000000, 23 },
	};
	std::vector<uint32_t> h(1u << 25);
	uint32_t *d;

	cudaMalloc(&d, 4u << 25);
	for (const auto &x : doms) {
		uint32_t n = 1u << x.lg;
		char p[512];
		FILE *f;

		x.k<<<n / 256, 256>>>(x.start, d);
		cudaMemcpy(h.data(), d, 4ull * n, cudaMemcpyDeviceToHost);
		snprintf(p, sizeof(p), "%s/%s_%08x_%d.u32", dir, x.name, x.start, x.lg);
		f = fopen(p, "wb");
		if (!f || fwrite(h.data(), 4, n, f) != n)
			return 1;
		fclose(f);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "digest"))
		return digest(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "dump"))
		return dump(argv[2]);
	fprintf(stderr, "usage: %s dump DIR | digest FILE\n", argv[0]);
	return 2;
}
