// SPDX-License-Identifier: MIT
// Kernels for test_jit_ops: what nvcc makes of byte permutes, funnel
// shifts and rotates, absolute differences (also of bytes), dot products,
// warp matches and a hash built on rotates, and inline PTX for what C
// does not reach (permute modes, slct, lop3, testp, cnot, mul24/mad24,
// bmsk, szext).

__device__ unsigned rotl(unsigned x, int k)
{
	return (x << k) | (x >> (32 - k));
}

// MurmurHash3's 32-bit mix of three words, seeded.
__device__ unsigned murmur3(unsigned a, unsigned b, unsigned c, unsigned h)
{
	const unsigned w[3] = { a, b, c };

	for (int i = 0; i < 3; i++) {
		unsigned k = w[i] * 0xcc9e2d51u;

		k = rotl(k, 15) * 0x1b873593u;
		h = rotl(h ^ k, 13) * 5 + 0xe6546b64u;
	}
	h ^= 12;
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	return h ^ (h >> 16);
}

#define ASM1(op, a) ({ unsigned d_; asm(op " %0, %1;" : "=r"(d_) : "r"(a)); d_; })
#define ASM2(op, a, b) ({ unsigned d_; \
	asm(op " %0, %1, %2;" : "=r"(d_) : "r"(a), "r"(b)); d_; })
#define ASM3(op, a, b, c) ({ unsigned d_; \
	asm(op " %0, %1, %2, %3;" : "=r"(d_) : "r"(a), "r"(b), "r"(c)); d_; })

enum { NOUT = 35 };

extern "C" __global__ void ops(unsigned *out, const unsigned *in)
{
	unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
	unsigned a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
	unsigned *o = out + NOUT * t;
	unsigned long long wide = (unsigned long long)(a & 3) << 32 | (b & 1);
	int all;

	o[0] = __byte_perm(a, b, c);
	o[1] = __byte_perm(a, b, 0x5140);
	o[2] = __funnelshift_l(a, b, c);
	o[3] = __funnelshift_r(a, b, c);
	o[4] = __funnelshift_lc(a, b, c);
	o[5] = __funnelshift_rc(a, b, c);
	o[6] = rotl(a, 13);
	o[7] = (a >> (c & 31)) | (a << ((32 - c) & 31));
	o[8] = __sad((int)a, (int)b, c);
	o[9] = __usad(a, b, c);
	o[10] = __dp4a((int)a, (int)b, (int)c);
	o[11] = __dp4a(a, b, c);
	o[12] = __dp2a_lo((int)a, (int)b, (int)c);
	o[13] = __dp2a_hi(a, b, c);
	o[14] = murmur3(a, b, c, 0x9747b28cu);
	o[15] = ASM3("prmt.b32.f4e", a, b, c);
	o[16] = ASM3("prmt.b32.b4e", a, b, c);
	o[17] = ASM3("prmt.b32.rc16", a, b, c);
	o[18] = ASM3("slct.u32.s32", a, b, c);
	o[19] = ASM3("slct.ftz.b32.f32", a, b, c);
	{
		unsigned d;

		asm("lop3.b32 %0, %1, %2, %3, 0xe8;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
		o[20] = d;
	}
	o[21] = ASM3("mad24.hi.sat.s32", a, b, c);
	o[22] = ASM2("mul24.lo.u32", a, b);
	o[23] = ASM1("cnot.b32", a & c);
	o[24] = ASM2("bmsk.clamp.b32", a & 63, b & 63);
	o[25] = ASM2("szext.wrap.s32", a, b);
	{
		unsigned d;

		asm("{ .reg .pred p; testp.subnormal.f32 p, %1; selp.u32 %0, 1, 0, p; }"
		    : "=r"(d) : "f"(__uint_as_float(a)));
		o[26] = d;
	}
	o[27] = __match_any_sync(0xffffffff, a & 3);
	o[28] = __match_all_sync(0xffffffff, b & 0x100, &all);
	o[29] = all;
	o[30] = __match_any_sync(0xffffffff, wide);
	o[31] = __sad(a, b, 7);
	o[32] = __vabsdiffu4(a, b);
	o[33] = __vabsdiffs4(a, b);
	o[34] = __vsadu4(a, b);
}
