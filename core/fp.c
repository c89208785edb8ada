// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Floating point with PTX's semantics: rounding modes through the SSE
 * control register (MXCSR), f32 flush-to-zero and saturation done here,
 * canonical f32 NaN results (f64 ones are the CPU's, which match an
 * H100's), min/max that prefer numbers to NaN, conversions that saturate
 * and send NaN to 0. Built with floating-point code
 * generation; runs only inside the host's FPU section.
 */
#include "fp.h"
#include "mufu.h"

#define REG(r, lane) (regs[(u64)(r) * VGPU_WARP + (lane)])
#define F32_NAN 0x7fffffffU

static __always_inline float vgpu_f(u64 bits)
{
	u32 v = (u32)bits;
	float f;

	__builtin_memcpy(&f, &v, 4);
	return f;
}

static __always_inline u64 vgpu_fbits(float f)
{
	u32 v;

	__builtin_memcpy(&v, &f, 4);
	return v;
}

static __always_inline double vgpu_d(u64 bits)
{
	double d;

	__builtin_memcpy(&d, &bits, 8);
	return d;
}

static u64 vgpu_dbits(double d)
{
	u64 v;

	__builtin_memcpy(&v, &d, 8);
	return v;
}

/* 2^n as a double, for integer n in the normal range. */
static double vgpu_pow2i(int n)
{
	return vgpu_d((u64)(n + 1023) << 52);
}

/* --- the rounding mode --------------------------------------------------- */

static u32 vgpu_mxcsr_get(void)
{
	u32 v;

	asm volatile("stmxcsr %0" : "=m" (v));
	return v;
}

static void vgpu_mxcsr_put(u32 v)
{
	asm volatile("ldmxcsr %0" : : "m" (v) : "memory");
}

/*
 * Sets the rounding of VGPU_RND_* @rnd (either form); returns what
 * vgpu_round_end() needs. To nearest is the mode the host's FPU section
 * starts in (kernel_fpu_begin() resets MXCSR), so it costs nothing.
 */
static u32 vgpu_round_begin(u8 rnd)
{
	static const u32 rc[4] = { 0, 3, 1, 2 };	/* RN RZ RM RP */
	u32 old;

	if (!(rnd & 3) || rnd >= VGPU_RND_APPROX)	/* the unit's: nearest */
		return ~0U;
	old = vgpu_mxcsr_get();
	vgpu_mxcsr_put((old & ~0x6000U) | rc[rnd & 3] << 13);
	return old;
}

static void vgpu_round_end(u32 old)
{
	if (old != ~0U)
		vgpu_mxcsr_put(old);
}

/* --- f32 helpers ----------------------------------------------------------- */

static bool vgpu_f32_subnormal(u64 bits)
{
	return !((bits >> 23) & 0xff) && (bits & 0x7fffff);
}

/* ftz: subnormal inputs become zero of their sign. */
static u64 vgpu_ftz_in(u64 bits, const struct vgpu_insn *in)
{
	if ((in->flags & VGPU_IF_FTZ) && vgpu_f32_subnormal(bits))
		return bits & 0x80000000U;
	return bits & 0xffffffffU;
}

/* A result: canonical NaN, then ftz and saturation. */
static u64 vgpu_f32_out(float r, const struct vgpu_insn *in)
{
	u64 bits = vgpu_fbits(r);

	if (r != r)
		return in->flags & VGPU_IF_SAT ? 0 : F32_NAN;
	if ((in->flags & VGPU_IF_FTZ) && vgpu_f32_subnormal(bits))
		bits &= 0x80000000U;
	if (in->flags & VGPU_IF_SAT) {
		r = vgpu_f(bits);
		if (!(r > 0.0f))
			return 0;
		if (r > 1.0f)
			return vgpu_fbits(1.0f);
	}
	return bits;
}

/*
 * f64 results keep the CPU's NaN: an H100 gives the same default NaN
 * (0xfff8000000000000) for invalid operations and passes a NaN operand's
 * payload through, as SSE does. Only f32 results are made canonical.
 */
static u64 vgpu_f64_out(double r)
{
	return vgpu_dbits(r);
}

/*
 * Keeps the compiler from moving a computation across a change of the
 * rounding mode: the value passes through an (empty) instruction there.
 */
static double vgpu_pin_d(double v)
{
	asm volatile("" : "+x" (v));
	return v;
}

static float vgpu_pin_f(float v)
{
	asm volatile("" : "+x" (v));
	return v;
}

/*
 * f32 fma with one rounding, without an FMA unit: the product is exact in
 * double; the sum is made in round-to-odd (toward zero, then the lowest
 * bit set if anything was lost), which rounding to float in the
 * instruction's mode then cannot round twice.
 */
static float vgpu_fmaf(float a, float b, float c)
{
	u32 saved = vgpu_mxcsr_get();
	double p = (double)a * b, s;

	vgpu_mxcsr_put((saved & ~0x603fU) | 3U << 13);	/* RZ, flags clear */
	s = vgpu_pin_d(vgpu_pin_d(p) + c);
	if (vgpu_mxcsr_get() & 0x20)	/* inexact */
		s = vgpu_d(vgpu_dbits(s) | 1);
	vgpu_mxcsr_put(saved);
	return vgpu_pin_f((float)vgpu_pin_d(s));
}

static u64 vgpu_f32_min_max(u64 x, u64 y, bool max)
{
	float a = vgpu_f(x), b = vgpu_f(y);

	/* A NaN gives way to the other operand, even to another NaN. */
	if (a != a)
		return y;
	if (b != b)
		return x;
	if (a == b)	/* zeros of two signs: -0 is the smaller */
		return max ? (x & y) : (x | y);
	return (a < b) != max ? x : y;
}

static u64 vgpu_f64_min_max(u64 x, u64 y, bool max)
{
	double a = vgpu_d(x), b = vgpu_d(y);

	if (a != a)
		return y;
	if (b != b)
		return x;
	if (a == b)
		return max ? (x & y) : (x | y);
	return (a < b) != max ? x : y;
}

/* fma with one rounding on the CPU's FMA unit (probed once). */
__attribute__((target("fma")))
static double vgpu_fma_hw(double a, double b, double c)
{
	return __builtin_fma(a, b, c);
}

__attribute__((target("fma")))
static float vgpu_fmaf_hw(float a, float b, float c)
{
	return __builtin_fmaf(a, b, c);
}

/* Set by tests to exercise the paths for CPUs without an FMA unit. */
bool vgpu_fp_no_fma;

int vgpu_fp_fma_unit = -1;

static bool vgpu_have_fma(void)
{
	u32 eax = 1, ebx, ecx = 0, edx;

	if (vgpu_fp_no_fma)
		return false;
	if (vgpu_fp_fma_unit < 0) {
		asm volatile("cpuid" : "+a" (eax), "=b" (ebx), "+c" (ecx),
			     "=d" (edx));
		vgpu_fp_fma_unit = (ecx >> 12) & 1;
	}
	return vgpu_fp_fma_unit;
}

static u32 vgpu_approx_div(u32 a, u32 b, bool ftz, bool full);

static u64 vgpu_f32_op(const struct vgpu_insn *in, u64 xa, u64 xb, u64 xc)
{
	float a = vgpu_f(vgpu_ftz_in(xa, in)), b = vgpu_f(vgpu_ftz_in(xb, in));
	float c = vgpu_f(vgpu_ftz_in(xc, in));

	if (in->op == VGPU_OP_DIV && in->mod >= VGPU_RND_APPROX)
		return vgpu_approx_div((u32)xa, (u32)xb,
				       in->flags & VGPU_IF_FTZ,
				       in->mod == VGPU_RND_FULL);
	switch (in->op) {
	case VGPU_OP_ADD:
		return vgpu_f32_out(a + b, in);
	case VGPU_OP_SUB:
		return vgpu_f32_out(a - b, in);
	case VGPU_OP_MUL:
		return vgpu_f32_out(a * b, in);
	case VGPU_OP_FMA:
		return vgpu_f32_out(vgpu_have_fma() ? vgpu_fmaf_hw(a, b, c) :
				    vgpu_fmaf(a, b, c), in);
	case VGPU_OP_DIV:
		return vgpu_f32_out(a / b, in);
	case VGPU_OP_MIN:
	case VGPU_OP_MAX:
		return vgpu_f32_min_max(vgpu_ftz_in(xa, in), vgpu_ftz_in(xb, in),
					in->op == VGPU_OP_MAX);
	default:		/* ABS, NEG */
		xa = vgpu_ftz_in(xa, in);
		/* An H100 answers the canonical NaN for a NaN (probed). */
		if ((xa & 0x7fffffffU) > 0x7f800000U)
			return F32_NAN;
		return in->op == VGPU_OP_ABS ? xa & 0x7fffffffU :
					       xa ^ 0x80000000U;
	}
}

static u64 vgpu_f64_op(const struct vgpu_insn *in, u64 xa, u64 xb, u64 xc)
{
	double a = vgpu_d(xa), b = vgpu_d(xb), c = vgpu_d(xc);

	switch (in->op) {
	case VGPU_OP_ADD:
		return vgpu_f64_out(a + b);
	case VGPU_OP_SUB:
		return vgpu_f64_out(a - b);
	case VGPU_OP_MUL:
		return vgpu_f64_out(a * b);
	case VGPU_OP_FMA:
		/* Without an FMA unit: rounded twice (rarely 1 ulp off). */
		return vgpu_f64_out(vgpu_have_fma() ? vgpu_fma_hw(a, b, c) :
				    a * b + c);
	case VGPU_OP_DIV:
		return vgpu_f64_out(a / b);
	case VGPU_OP_MIN:
	case VGPU_OP_MAX:
		return vgpu_f64_min_max(xa, xb, in->op == VGPU_OP_MAX);
	case VGPU_OP_ABS:
		return xa & ~(1ULL << 63);
	default:		/* NEG */
		return xa ^ (1ULL << 63);
	}
}

/*
 * A f32 result as a register holds it: NaN made canonical. The test is
 * on the bits (a float comparison is a library call under emulators).
 */
static __always_inline u64 vgpu_f32_plain(float r)
{
	u64 bits = vgpu_fbits(r);

	return (bits & 0x7fffffffU) > 0x7f800000U ? F32_NAN : bits;
}

#define VGPU_F32_LANES(expr) do {					\
	u64 *d = &REG(in->dst, 0);					\
	const u64 *pa = &REG(in->a, 0);					\
	const u64 *pb = bimm ? pa : &REG(in->b, 0);			\
	const u64 *pc = cimm || in->op != VGPU_OP_FMA ? pa : &REG(in->c, 0); \
	float ib = vgpu_f(in->imm), ic = ib;				\
									\
	/* An immediate (a value every lane shares) has a loop of its own. */ \
	if (bimm) {							\
		VGPU_EACH_LANE(em, lane, {				\
			float x = vgpu_f(pa[lane]);			\
			float y = ib;					\
			float z = vgpu_f(pc[lane]);			\
									\
			(void)z;					\
			d[lane] = vgpu_f32_plain(expr);			\
		});							\
		break;							\
	}								\
	if (cimm) {							\
		VGPU_EACH_LANE(em, lane, {				\
			float x = vgpu_f(pa[lane]);			\
			float y = vgpu_f(pb[lane]);			\
			float z = ic;					\
									\
			(void)z;					\
			d[lane] = vgpu_f32_plain(expr);			\
		});							\
		break;							\
	}								\
	/* All registers: a loop with no choice in it. */		\
	VGPU_EACH_LANE(em, lane, {					\
		float x = vgpu_f(pa[lane]);				\
		float y = vgpu_f(pb[lane]);				\
		float z = vgpu_f(pc[lane]);				\
									\
		(void)z;						\
		d[lane] = vgpu_f32_plain(expr);				\
	});								\
} while (0)

/* A whole loop on the FMA unit, so the instruction is inlined. */
__attribute__((target("fma")))
static void vgpu_f32_fma_lanes(u64 *regs, const struct vgpu_insn *in, u32 em)
{
	bool bimm = in->flags & VGPU_IF_B_IMM, cimm = in->flags & VGPU_IF_C_IMM;
	u32 lane;

	VGPU_F32_LANES(__builtin_fmaf(x, y, z));
}

/*
 * A row's a is one value: read from the shape, not from lanes (which
 * would cost writing them first).
 */
__attribute__((target("fma")))
void vgpu_f32_fma_rows(u64 *regs, const struct vgpu_insn *in, u64 row, u64 sy, u32 ps)
{
	u64 *d = &REG(in->dst, 0);
	const u64 *pb = &REG(in->b, 0), *pc = &REG(in->c, 0);
	u32 lane = 0, i, n = 1U << ps;

	for (; lane < VGPU_WARP; row += sy) {
		float x = vgpu_f(row);

		for (i = 0; i < n; i++, lane++)
			d[lane] = vgpu_f32_plain(__builtin_fmaf(x, vgpu_f(pb[lane]),
								vgpu_f(pc[lane])));
	}
}

bool vgpu_f32_fma_arows(u64 *regs, const struct vgpu_insn *in, u64 base,
			u64 sy, u32 ps)
{
	if (!vgpu_have_fma())
		return false;
	vgpu_f32_fma_rows(regs, in, base, sy, ps);
	return true;
}

/*
 * The f32 operations kernels are made of, in the default rounding and
 * without ftz or saturation: each a loop of one CPU operation. False
 * for anything else.
 */
static bool vgpu_f32_alu_plain(u64 *regs, const struct vgpu_insn *in, u32 em)
{
	bool bimm = in->flags & VGPU_IF_B_IMM, cimm = in->flags & VGPU_IF_C_IMM;
	u32 lane;

	if (in->type != VGPU_T_F32 || (in->mod & 3) ||
	    (in->flags & (VGPU_IF_FTZ | VGPU_IF_SAT)))
		return false;
	switch (in->op) {
	case VGPU_OP_ADD:
		VGPU_F32_LANES(x + y);
		return true;
	case VGPU_OP_SUB:
		VGPU_F32_LANES(x - y);
		return true;
	case VGPU_OP_MUL:
		VGPU_F32_LANES(x * y);
		return true;
	case VGPU_OP_FMA:
		if (!vgpu_have_fma())
			return false;
		vgpu_f32_fma_lanes(regs, in, em);
		return true;
	}
	return false;
}

void vgpu_fp_alu(u64 *regs, const struct vgpu_insn *in, u32 em)
{
	u32 saved, m, lane;
	bool bimm = in->flags & VGPU_IF_B_IMM, cimm = in->flags & VGPU_IF_C_IMM;

	if (vgpu_f32_alu_plain(regs, in, em))
		return;
	saved = vgpu_round_begin(in->mod);

	for (m = em; m; m &= m - 1) {
		u64 a, b, c;

		lane = __builtin_ctz(m);
		a = REG(in->a, lane);
		b = bimm ? in->imm : REG(in->b, lane);
		c = in->op != VGPU_OP_FMA ? 0 : cimm ? in->imm : REG(in->c, lane);
		REG(in->dst, lane) = in->type == VGPU_T_F32 ?
			vgpu_f32_op(in, a, b, c) : vgpu_f64_op(in, a, b, c);
	}
	vgpu_round_end(saved);
}

/* --- comparisons ------------------------------------------------------- */

static bool vgpu_cmp(u8 cmp, double a, double b)
{
	bool unord = a != a || b != b;

	switch (cmp) {
	case VGPU_CMP_EQ: return !unord && a == b;
	case VGPU_CMP_NE: return !unord && a != b;
	case VGPU_CMP_LT: return !unord && a < b;
	case VGPU_CMP_LE: return !unord && a <= b;
	case VGPU_CMP_GT: return !unord && a > b;
	case VGPU_CMP_GE: return !unord && a >= b;
	case VGPU_CMP_EQU: return unord || a == b;
	case VGPU_CMP_NEU: return unord || a != b;
	case VGPU_CMP_LTU: return unord || a < b;
	case VGPU_CMP_LEU: return unord || a <= b;
	case VGPU_CMP_GTU: return unord || a > b;
	case VGPU_CMP_GEU: return unord || a >= b;
	case VGPU_CMP_NUM: return !unord;
	default: return unord;	/* NAN */
	}
}

u32 vgpu_fp_setp(const u64 *regs, const struct vgpu_insn *in, u32 em)
{
	u32 m, lane, r = 0;

	for (m = em; m; m &= m - 1) {
		u64 x, y;
		double a, b;

		lane = __builtin_ctz(m);
		x = REG(in->a, lane);
		y = in->flags & VGPU_IF_B_IMM ? in->imm : REG(in->b, lane);
		if (in->type == VGPU_T_F32) {
			a = vgpu_f(vgpu_ftz_in(x, in));
			b = vgpu_f(vgpu_ftz_in(y, in));
		} else {
			a = vgpu_d(x);
			b = vgpu_d(y);
		}
		if (vgpu_cmp(in->mod, a, b))
			r |= 1U << lane;
	}
	return r;
}

/* --- conversions ------------------------------------------------------- */

static unsigned int vgpu_bits(u8 t)
{
	if (t == VGPU_T_U8 || t == VGPU_T_S8)
		return 8;
	if (t == VGPU_T_U16 || t == VGPU_T_S16 || t == VGPU_T_F16)
		return 16;
	if (t == VGPU_T_U32 || t == VGPU_T_S32 || t == VGPU_T_F32)
		return 32;
	return 64;
}

static bool vgpu_signed(u8 t)
{
	return t == VGPU_T_S8 || t == VGPU_T_S16 || t == VGPU_T_S32 ||
	       t == VGPU_T_S64;
}

static s64 vgpu_sext_any(u64 v, u8 t)
{
	unsigned int bits = vgpu_bits(t);

	return bits == 64 ? (s64)v : (s64)(v << (64 - bits)) >> (64 - bits);
}

/* Integers kept in place across a change of rounding mode. */
static s64 vgpu_pin_s(s64 v)
{
	asm volatile("" : "+r" (v));
	return v;
}

static u64 vgpu_pin_u(u64 v)
{
	asm volatile("" : "+r" (v));
	return v;
}

static bool vgpu_float(u8 t)
{
	return t == VGPU_T_F16 || t == VGPU_T_F32 || t == VGPU_T_F64;
}

/*
 * @d rounded to an integer in the current mode: adding and taking away
 * 2^52 (of @d's sign) leaves no fraction bits, and the addition rounds.
 * Values of 2^52 or more are integers already.
 */
static double vgpu_round_int(double d)
{
	const double big = 4503599627370496.0;	/* 2^52 */

	if (!(d > -big && d < big))
		return d;
	if (d >= 0)
		return vgpu_pin_d(vgpu_pin_d(d + big) - big);
	return vgpu_pin_d(vgpu_pin_d(d - big) + big);
}

static double vgpu_to_int(double d, u8 rnd)
{
	u32 saved = vgpu_round_begin(rnd & 3);
	double r = vgpu_round_int(vgpu_pin_d(d));

	vgpu_round_end(saved);
	return r;
}

/* A float to integer type @t: saturating, NaN to 0. */
static u64 vgpu_f2i(double d, u8 t)
{
	unsigned int bits = vgpu_bits(t);

	if (d != d)
		return 0;
	if (vgpu_signed(t)) {
		double lo = -(double)(1ULL << (bits - 1));

		if (d <= lo)
			return (u64)(s64)lo & (bits == 64 ? ~0ULL : (1ULL << bits) - 1);
		if (d >= -lo)
			return (1ULL << (bits - 1)) - 1;
		return (u64)(s64)d & (bits == 64 ? ~0ULL : (1ULL << bits) - 1);
	}
	if (d <= 0)
		return 0;
	if (bits == 64 ? d >= 18446744073709551616.0 : d >= (double)(1ULL << bits))
		return bits == 64 ? ~0ULL : (1ULL << bits) - 1;
	return (u64)d;
}

/* An integer of type @s to type @t, saturating with @sat. */
static u64 vgpu_i2i(u64 v, u8 s, u8 t, bool sat)
{
	unsigned int sb = vgpu_bits(s), tb = vgpu_bits(t);
	u64 tmask = tb == 64 ? ~0ULL : (1ULL << tb) - 1;
	s64 sv = sb == 64 ? (s64)v : (s64)(v << (64 - sb)) >> (64 - sb);
	u64 uv = sb == 64 ? v : v & ((1ULL << sb) - 1);

	if (!sat)
		return (vgpu_signed(s) ? (u64)sv : uv) & tmask;
	if (vgpu_signed(t)) {
		s64 hi = (s64)(tmask >> 1), lo = -hi - 1;

		if (vgpu_signed(s))
			return (u64)(sv > hi ? hi : sv < lo ? lo : sv) & tmask;
		return uv > (u64)hi ? (u64)hi : uv;
	}
	if (vgpu_signed(s))
		return sv < 0 ? 0 : (u64)sv > tmask ? tmask : (u64)sv;
	return uv > tmask ? tmask : uv;
}

/* --- half precision ------------------------------------------------------ */

#define F16_NAN 0x7fffU

static double vgpu_f16_to_d(u64 bits)
{
	u32 e = (bits >> 10) & 0x1f, m = bits & 0x3ff;
	double v;

	if (e == 0x1f && m)
		return vgpu_d(0x7ff8000000000000ULL);
	if (e == 0x1f)
		v = vgpu_d(0x7ff0000000000000ULL);
	else if (e)
		v = (1024 + m) * vgpu_pow2i((int)e - 25);
	else
		v = m * vgpu_pow2i(-24);
	return bits & 0x8000 ? -v : v;
}

/* |@q| (a whole significand and a fraction) to an integer: RN/RZ/RM/RP. */
static double vgpu_round_mag(double q, u8 rnd, bool neg)
{
	double f = (double)(u64)q;	/* q < 2^12 here: exact truncation */

	switch (rnd & 3) {
	case VGPU_RND_RZ:
		return f;
	case VGPU_RND_RM:
		return neg && q != f ? f + 1 : f;
	case VGPU_RND_RP:
		return !neg && q != f ? f + 1 : f;
	default:
		if (q - f > 0.5 || (q - f == 0.5 && ((u64)f & 1)))
			return f + 1;
		return f;
	}
}

/* @d to half precision in rounding @rnd (RN, RZ, RM or RP). */
static u64 vgpu_d_to_f16(double d, u8 rnd)
{
	bool neg = vgpu_dbits(d) >> 63;
	double a = neg ? -d : d, q, sig;
	u64 sign = neg ? 0x8000 : 0, bits;
	int e;

	if (d != d)
		return F16_NAN;
	if (a == 0)
		return sign;
	e = (int)((vgpu_dbits(a) >> 52) & 0x7ff) - 1023;
	if (e < -14)
		e = -14;	/* subnormal: the step is 2^-24 */
	if (e > 15)
		e = 16;		/* overflows below */
	q = a * vgpu_pow2i(10 - e);	/* the significand, exactly */
	sig = vgpu_round_mag(q, rnd, neg);
	if (sig >= 2048) {
		sig /= 2;
		e++;
	}
	if (e > 15 || a == vgpu_d(0x7ff0000000000000ULL)) {
		bool to_inf = (rnd & 3) == VGPU_RND_RN ||
			((rnd & 3) == VGPU_RND_RP && !neg) ||
			((rnd & 3) == VGPU_RND_RM && neg);

		return sign | (to_inf ? 0x7c00 : 0x7bff);
	}
	if (sig < 1024)		/* subnormal (or zero) */
		return sign | (u64)sig;
	bits = ((u64)(e + 15) << 10) | ((u64)sig - 1024);
	return sign | bits;
}

u64 vgpu_fp_cvt_one(const struct vgpu_insn *in, u64 v)
{
	u8 s = in->stype, t = in->type, rnd = in->mod;
	bool sat = in->flags & VGPU_IF_SAT;
	u32 saved;
	double d;

	if (!vgpu_float(s) && !vgpu_float(t))
		return vgpu_i2i(v, s, t, sat);
	if (vgpu_float(s)) {
		d = s == VGPU_T_F32 ? (double)vgpu_f(vgpu_ftz_in(v, in)) :
			s == VGPU_T_F16 ? vgpu_f16_to_d(v) : vgpu_d(v);
		if (!vgpu_float(t))
			return vgpu_f2i(vgpu_to_int(d, rnd), t);
		if (rnd >= VGPU_RND_RNI)	/* same type: to an integer */
			d = vgpu_to_int(d, rnd);
	} else {
		bool sgn = vgpu_signed(s);
		u64 uv = vgpu_bits(s) == 64 ? v : v & ((1ULL << vgpu_bits(s)) - 1);
		s64 sv = vgpu_sext_any(v, s);

		saved = vgpu_round_begin(rnd);
		if (t == VGPU_T_F32) {
			float f = sgn ? (float)vgpu_pin_s(sv) : (float)vgpu_pin_u(uv);

			f = vgpu_pin_f(f);
			vgpu_round_end(saved);
			return vgpu_f32_out(f, in);
		}
		if (t == VGPU_T_F16) {
			/* Exact in double for |v| < 2^53; beyond, f16 is inf. */
			vgpu_round_end(saved);
			d = sgn ? (double)sv : (double)uv;
			if (sat)
				d = d < 0 ? 0.0 : d > 1 ? 1.0 : d;
			return vgpu_d_to_f16(d, rnd);
		}
		d = sgn ? (double)vgpu_pin_s(sv) : (double)vgpu_pin_u(uv);
		d = vgpu_pin_d(d);
		vgpu_round_end(saved);
		if (sat)
			d = d < 0 ? 0.0 : d > 1 ? 1.0 : d;
		return vgpu_dbits(d);
	}
	/* float to float */
	if (t == VGPU_T_F16) {
		if (sat)
			d = d != d ? 0 : d < 0 ? 0 : d > 1 ? 1 : d;
		return vgpu_d_to_f16(d, rnd < VGPU_RND_RNI ? rnd : 0);
	}
	if (t == VGPU_T_F32) {
		float f;

		/*
		 * A f64 NaN narrows keeping its sign and the top of its
		 * payload, quieted, as an H100 narrows it (probed): not the
		 * canonical NaN of f32 arithmetic.
		 */
		if (s == VGPU_T_F64 && (v & ~(1ULL << 63)) > 0x7ff0000000000000ULL)
			return (u32)(v >> 32 & 0x80000000U) | 0x7fc00000U |
			       (u32)(v >> 29 & 0x3fffffU);
		saved = vgpu_round_begin(rnd < VGPU_RND_RNI ? rnd : 0);
		f = vgpu_pin_f((float)vgpu_pin_d(d));
		vgpu_round_end(saved);
		return vgpu_f32_out(f, in);
	}
	if (sat)
		d = d != d ? 0 : d < 0 ? 0 : d > 1 ? 1 : d;
	return vgpu_f64_out(d);
}

void vgpu_fp_cvt(u64 *regs, const struct vgpu_insn *in, u32 em)
{
	u32 m, lane;

	for (m = em; m; m &= m - 1) {
		lane = __builtin_ctz(m);
		REG(in->dst, lane) = vgpu_fp_cvt_one(in, REG(in->a, lane));
	}
}

/* --- functions ------------------------------------------------------------ */

/*
 * The approximate functions are an H100's special-function unit (mufu.c)
 * and the instructions ptxas puts around it, as SASS for sm_90 shows them
 * (tests/unit/data/h100_fp_corners.cu): the non-ftz forms scale a
 * subnormal argument into the unit's range and the result back, with
 * FMUL and FADD, which round to nearest and keep subnormals.
 */

/* FMUL (rounding of the caller's MXCSR: to nearest) and FADD. */
static u32 vgpu_fmul(u32 a, u32 b)
{
	float r = vgpu_f(a) * vgpu_f(b);

	return r != r ? F32_NAN : (u32)vgpu_fbits(r);
}

static u32 vgpu_fadd(u32 a, u32 b)
{
	float r = vgpu_f(a) + vgpu_f(b);

	return r != r ? F32_NAN : (u32)vgpu_fbits(r);
}

/* FMUL.RZ: the product is exact in double; truncated to f32 from there. */
static u32 vgpu_fmul_rz(u32 a, u32 b)
{
	double d = (double)vgpu_f(a) * (double)vgpu_f(b);
	float r = (float)d;
	u32 bits = (u32)vgpu_fbits(r);

	if (r != r)
		return F32_NAN;
	if ((r < 0 ? -(double)r : (double)r) > (d < 0 ? -d : d))
		bits--;		/* rounded away from zero: one step back */
	return bits;
}

/* |x| >= 2^-126, or NaN: FSETP.GEU, which leaves the argument alone. */
static bool vgpu_unit_range(u32 x)
{
	return (x & 0x7fffffffU) >= 0x00800000U;
}

#define VGPU_F32_2P24 0x4b800000U	/* 2^24 */

/* MUFU.RSQ or MUFU.SQRT around a subnormal argument, scaled by 2^24. */
static u32 vgpu_approx_root(u32 (*unit)(u32), u32 x, bool ftz, u32 back)
{
	if (ftz || vgpu_unit_range(x))
		return unit(x);
	return vgpu_fmul(unit(vgpu_fmul(x, VGPU_F32_2P24)), back);
}

/* rcp.approx: a subnormal argument scaled up, a huge one down. */
static u32 vgpu_approx_rcp(u32 x, bool ftz)
{
	u32 s;

	if (ftz)
		return vgpu_mufu_rcp(x);
	s = vgpu_unit_range(x) ? 0x3f800000U : VGPU_F32_2P24;
	if ((x & 0x7fffffffU) > 0x7e800000U && (x & 0x7fffffffU) <= 0x7f800000U)
		s = 0x3e800000U;	/* |x| > 2^126: 1/4 */
	return vgpu_fmul(s, vgpu_mufu_rcp(vgpu_fmul(x, s)));
}

/* FMUL.FTZ: subnormal operands and results are zeros of their sign. */
static u32 vgpu_fmul_ftz(u32 a, u32 b)
{
	u32 r;

	if (vgpu_f32_subnormal(a))
		a &= 0x80000000U;
	if (vgpu_f32_subnormal(b))
		b &= 0x80000000U;
	r = vgpu_fmul(a, b);
	return vgpu_f32_subnormal(r) ? r & 0x80000000U : r;
}

/*
 * div.approx and div.full: a times MUFU.RCP of b. Without ftz a
 * subnormal b scales both by 2^24; div.full also scales both by 1/4
 * where |b| > 2^126, whose reciprocal the unit would flush.
 */
static u32 vgpu_approx_div(u32 a, u32 b, bool ftz, bool full)
{
	bool huge = full && (b & 0x7fffffffU) > 0x7e800000U &&
		    (b & 0x7fffffffU) <= 0x7f800000U;

	if (ftz) {
		if (huge) {
			b = vgpu_fmul_ftz(b, 0x3e800000U);
			a = vgpu_fmul_ftz(a, 0x3e800000U);
		}
		return vgpu_fmul_ftz(vgpu_mufu_rcp(b), a);
	}
	if (huge) {
		b = vgpu_fmul(b, 0x3e800000U);
		a = vgpu_fmul(a, 0x3e800000U);
	} else if (!vgpu_unit_range(b)) {
		b = vgpu_fmul(b, VGPU_F32_2P24);
		a = vgpu_fmul(a, VGPU_F32_2P24);
	}
	return vgpu_fmul(vgpu_mufu_rcp(b), a);
}

/* ex2.approx: below -126 the argument is halved and the result squared. */
static u32 vgpu_approx_ex2(u32 x, bool ftz)
{
	bool small = !ftz && vgpu_f(x) < -126.0f;
	u32 r;

	if (small)
		x = vgpu_fmul(x, 0x3f000000U);
	r = vgpu_mufu_ex2(x);
	return small ? vgpu_fmul(r, r) : r;
}

/* lg2.approx: a subnormal argument scaled by 2^24, 24 taken off again. */
static u32 vgpu_approx_lg2(u32 x, bool ftz)
{
	if (ftz || vgpu_unit_range(x))
		return vgpu_mufu_lg2(x);
	return vgpu_fadd(vgpu_mufu_lg2(vgpu_fmul(x, VGPU_F32_2P24)),
			 0xc1c00000U);	/* -24 */
}

/* 1/2pi as the f32 an H100 multiplies by: sin and cos take turns. */
#define VGPU_F32_INV_2PI 0x3e22f983U

static u64 vgpu_f32_func(const struct vgpu_insn *in, u64 xa, u64 xb)
{
	bool ftz = in->flags & VGPU_IF_FTZ;
	u32 x = (u32)xa;
	float a;

	switch (in->op) {
	case VGPU_OP_SQRT:
		if (in->mod == VGPU_RND_APPROX)
			return vgpu_approx_root(vgpu_mufu_sqrt, x, ftz,
						0x39800000U);	/* 2^-12 */
		a = vgpu_f(vgpu_ftz_in(xa, in));
		return vgpu_f32_out(__builtin_sqrtf(a), in);
	case VGPU_OP_RCP:
		if (in->mod == VGPU_RND_APPROX)
			return vgpu_approx_rcp(x, ftz);
		a = vgpu_f(vgpu_ftz_in(xa, in));
		return vgpu_f32_out(1.0f / a, in);
	case VGPU_OP_RSQRT:
		return vgpu_approx_root(vgpu_mufu_rsq, x, ftz,
					0x45800000U);	/* 2^12 */
	case VGPU_OP_EX2:
		return vgpu_approx_ex2(x, ftz);
	case VGPU_OP_LG2:
		return vgpu_approx_lg2(x, ftz);
	case VGPU_OP_SIN:
		return vgpu_mufu_sin(vgpu_fmul_rz(x, VGPU_F32_INV_2PI));
	case VGPU_OP_COS:
		return vgpu_mufu_cos(vgpu_fmul_rz(x, VGPU_F32_INV_2PI));
	case VGPU_OP_TANH:
		return vgpu_mufu_tanh(x);
	default:		/* COPYSIGN: |b| with a's sign */
		return (xb & 0x7fffffffU) | (xa & 0x80000000U);
	}
}

static u64 vgpu_f64_func(const struct vgpu_insn *in, u64 xa, u64 xb)
{
	double a = vgpu_d(xa);

	switch (in->op) {
	case VGPU_OP_SQRT:
		return vgpu_f64_out(__builtin_sqrt(a));
	case VGPU_OP_RCP:
		return vgpu_f64_out(1.0 / a);
	case VGPU_OP_RSQRT:
		return vgpu_f64_out(1.0 / __builtin_sqrt(a));
	default:		/* COPYSIGN */
		return (xb & ~(1ULL << 63)) | (xa & (1ULL << 63));
	}
}

void vgpu_fp_func(u64 *regs, const struct vgpu_insn *in, u32 em)
{
	u32 saved = vgpu_round_begin(in->mod), m, lane;

	for (m = em; m; m &= m - 1) {
		u64 a, b;

		lane = __builtin_ctz(m);
		a = REG(in->a, lane);
		b = in->op == VGPU_OP_COPYSIGN ? REG(in->b, lane) : 0;
		REG(in->dst, lane) = in->type == VGPU_T_F32 ?
			vgpu_f32_func(in, a, b) : vgpu_f64_func(in, a, b);
	}
	vgpu_round_end(saved);
}

/* --- atomics ------------------------------------------------------------ */

u64 vgpu_fp_atom_add(u8 *p, u8 type, u64 bits)
{
	u64 *q64 = (u64 *)p, old64, new64;
	u32 *q = (u32 *)p, old, new;

	/* Atomic adds round to nearest; NaN results are canonical. */
	if (type == VGPU_T_F64) {
		old64 = __atomic_load_n(q64, __ATOMIC_RELAXED);
		do {
			double r = vgpu_d(old64) + vgpu_d(bits);

			new64 = vgpu_dbits(r);
		} while (!__atomic_compare_exchange_n(q64, &old64, new64, false,
						      __ATOMIC_RELAXED,
						      __ATOMIC_RELAXED));
		return old64;
	}
	old = __atomic_load_n(q, __ATOMIC_RELAXED);
	do {
		float r = vgpu_f(old) + vgpu_f(bits);

		new = r != r ? F32_NAN : (u32)vgpu_fbits(r);
	} while (!__atomic_compare_exchange_n(q, &old, new, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return old;
}
