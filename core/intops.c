// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The ISA's integer, bit-field and atomic value operations (intops.h),
 * shared by the interpreter and the native engine.
 */
#include "intops.h"
#include "fp.h"

/* --- bits ----------------------------------------------------------------- */

/* Bits set (no libgcc helper: the core stands alone in the kernel). */
u64 vgpu_popcount(u64 v)
{
	v = v - ((v >> 1) & 0x5555555555555555ULL);
	v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
	v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (v * 0x0101010101010101ULL) >> 56;
}

static u64 vgpu_brev(u64 v, unsigned int bits)
{
	u64 r = 0;
	unsigned int i;

	for (i = 0; i < bits; i++)
		r |= ((v >> i) & 1) << (bits - 1 - i);
	return r;
}

/* PTX bfe: @len bits from @pos, the rest the sign of the field (S) or 0. */
static u64 vgpu_bfe(u64 a, u32 pos, u32 len, u8 t)
{
	unsigned int bits = vgpu_type_bits(t), msb = bits - 1, i;
	u64 sbit = 0, r = 0;

	pos &= 0xff;
	len &= 0xff;
	if (vgpu_type_signed(t) && len)
		sbit = (a >> (pos + len - 1 < msb ? pos + len - 1 : msb)) & 1;
	for (i = 0; i <= msb; i++) {
		u64 bit = i < len && pos + i <= msb ? (a >> (pos + i)) & 1 : sbit;

		r |= bit << i;
	}
	return r;
}

static u32 vgpu_prmt(u32 a, u32 b, u32 c, u8 mode)
{
	u64 src = (u64)b << 32 | a;
	u32 r = 0, i, sel = c & 3, pick;

	for (i = 0; i < 4; i++) {
		u32 byte;

		switch (mode) {
		case 1:		/* f4e */
			pick = (sel + i) & 7;
			break;
		case 2:		/* b4e */
			pick = (sel - i) & 7;
			break;
		case 3:		/* rc8 */
			pick = sel;
			break;
		case 4:		/* ecl */
			pick = i > sel ? i : sel;
			break;
		case 5:		/* ecr */
			pick = i < sel ? i : sel;
			break;
		case 6:		/* rc16 */
			pick = (sel & 1) * 2 + (i & 1);
			break;
		default:	/* a byte per selector nibble, or its sign */
			pick = (c >> (4 * i)) & 0xf;
			break;
		}
		byte = (src >> (8 * (pick & 7))) & 0xff;
		if (!mode && (pick & 8))
			byte = byte & 0x80 ? 0xff : 0;
		r |= byte << (8 * i);
	}
	return r;
}

static u64 vgpu_bit_op(const struct vgpu_insn *in, u64 a, u64 b, u64 c)
{
	unsigned int bits = vgpu_type_bits(in->type);
	u64 ua = vgpu_trunc(a, in->type);
	s64 top;

	switch (in->op) {
	case VGPU_OP_POPC:
		return vgpu_popcount(ua);
	case VGPU_OP_CLZ:
		return ua ? __builtin_clzll(ua) - (64 - bits) : bits;
	case VGPU_OP_BREV:
		return vgpu_brev(ua, bits);
	case VGPU_OP_BFIND:
		if (vgpu_type_signed(in->type) && vgpu_sext(a, in->type) < 0)
			ua = ~ua & (bits == 64 ? ~0ULL : (1ULL << bits) - 1);
		if (!ua)
			return 0xffffffff;
		top = 63 - __builtin_clzll(ua);
		return in->mod ? (u64)(bits - 1 - top) : (u64)top;
	case VGPU_OP_BFE:
		return vgpu_bfe(ua, (u32)b, (u32)c, in->type);
	default:		/* PRMT */
		return vgpu_prmt((u32)a, (u32)b, (u32)c, in->mod);
	}
}

/*
 * A bit-field instruction for lanes @em of a warp's registers @regs (32
 * lane values a register): b and c from registers or the immediate; the
 * u32 results (all but BREV's and BFE's) zero-extended.
 */
void vgpu_bit_lanes(u64 *regs, const struct vgpu_insn *in, u32 em)
{
	u32 m;

	for (m = em; m; m &= m - 1) {
		u32 lane = __builtin_ctz(m);
		u64 a = regs[(u64)in->a * VGPU_WARP + lane], r;
		u64 b = in->flags & VGPU_IF_B_IMM ? in->imm :
			regs[(u64)in->b * VGPU_WARP + lane];
		u64 c = in->flags & VGPU_IF_C_IMM ? in->imm :
			regs[(u64)in->c * VGPU_WARP + lane];

		r = vgpu_bit_op(in, a, b, c);
		regs[(u64)in->dst * VGPU_WARP + lane] =
			in->op == VGPU_OP_BREV || in->op == VGPU_OP_BFE ?
			r : r & 0xffffffff;
	}
}

/* --- arithmetic ---------------------------------------------------------- */

/* The integer arithmetic of @in (not bit fields, not the carry chains). */
u64 vgpu_int_op(const struct vgpu_insn *in, u64 a, u64 b, u64 c)
{
	u8 t = in->type;
	unsigned int bits = vgpu_type_bits(t);
	bool sgn = vgpu_type_signed(t);
	s64 sa = vgpu_sext(a, t), sb = vgpu_sext(b, t);
	u64 ua = vgpu_trunc(a, t), ub = vgpu_trunc(b, t);
	u64 r = 0;

	switch (in->op) {
	case VGPU_OP_ADD:
		if (in->flags & VGPU_IF_SAT) {	/* s32 only */
			s64 v = sa + sb;

			r = v > 0x7fffffffLL ? 0x7fffffff :
				v < -0x80000000LL ? 0x80000000ULL : (u64)v;
		} else {
			r = ua + ub;
		}
		break;
	case VGPU_OP_SUB:
		if (in->flags & VGPU_IF_SAT) {
			s64 v = sa - sb;

			r = v > 0x7fffffffLL ? 0x7fffffff :
				v < -0x80000000LL ? 0x80000000ULL : (u64)v;
		} else {
			r = ua - ub;
		}
		break;
	case VGPU_OP_MUL:
	case VGPU_OP_MAD:
		if (in->mod == VGPU_MUL_WIDE) {
			r = sgn ? (u64)(sa * sb) : ua * ub;
			if (in->op == VGPU_OP_MAD)
				r += c;
			return r;	/* twice the width: no truncation */
		}
		if (in->mod == VGPU_MUL_HI) {
			if (bits == 64) {
				if (sgn)
					r = (u64)(((__int128)sa * sb) >> 64);
				else
					r = (u64)(((__uint128_t)ua * ub) >> 64);
			} else {
				r = sgn ? (u64)((sa * sb) >> bits) :
					(ua * ub) >> bits;
			}
		} else {
			r = ua * ub;
		}
		if (in->op == VGPU_OP_MAD)
			r += c;
		break;
	case VGPU_OP_DIV:
		/* Defined where the CPU would trap: x/0, INT_MIN/-1. */
		if (!ub)
			r = ~0ULL;
		else if (sgn && sb == -1)
			r = 0 - (u64)sa;	/* INT_MIN / -1 is INT_MIN */
		else
			r = sgn ? (u64)(sa / sb) : ua / ub;
		break;
	case VGPU_OP_REM:
		if (!ub)
			r = ua;
		else if (sgn && sb == -1)
			r = 0;
		else
			r = sgn ? (u64)(sa % sb) : ua % ub;
		break;
	case VGPU_OP_MIN:
		r = sgn ? (u64)(sa < sb ? sa : sb) : (ua < ub ? ua : ub);
		break;
	case VGPU_OP_MAX:
		r = sgn ? (u64)(sa > sb ? sa : sb) : (ua > ub ? ua : ub);
		break;
	case VGPU_OP_ABS:
		r = sa < 0 ? 0 - (u64)sa : (u64)sa;
		break;
	case VGPU_OP_NEG:
		r = 0 - (u64)sa;
		break;
	case VGPU_OP_AND:
		r = a & b;
		break;
	case VGPU_OP_OR:
		r = a | b;
		break;
	case VGPU_OP_XOR:
		r = a ^ b;
		break;
	case VGPU_OP_NOT:
		r = ~a;
		break;
	case VGPU_OP_SHL:
		/* The shift amount is an unsigned 32-bit value in PTX. */
		r = (b & 0xffffffff) >= bits ? 0 : ua << (b & 0xffffffff);
		break;
	case VGPU_OP_SHR:
		if ((b & 0xffffffff) >= bits)
			r = sgn && sa < 0 ? ~0ULL : 0;
		else
			r = sgn ? (u64)(sa >> (b & 0xffffffff)) :
				ua >> (b & 0xffffffff);
		break;
	}
	return vgpu_trunc(r, t);
}

/* --- atomics -------------------------------------------------------------- */

/* A 64-bit atomic read-modify-write at @q; returns the old value. */
static u64 vgpu_atomic64(u64 *q, const struct vgpu_insn *in, u64 b, u64 c)
{
	bool sgn = vgpu_type_signed(in->type);
	u64 old, new;

	switch (in->mod2) {
	case VGPU_ATOM_ADD: return __atomic_fetch_add(q, b, __ATOMIC_RELAXED);
	case VGPU_ATOM_AND: return __atomic_fetch_and(q, b, __ATOMIC_RELAXED);
	case VGPU_ATOM_OR: return __atomic_fetch_or(q, b, __ATOMIC_RELAXED);
	case VGPU_ATOM_XOR: return __atomic_fetch_xor(q, b, __ATOMIC_RELAXED);
	case VGPU_ATOM_EXCH: return __atomic_exchange_n(q, b, __ATOMIC_RELAXED);
	}
	old = __atomic_load_n(q, __ATOMIC_RELAXED);
	do {
		if (in->mod2 == VGPU_ATOM_CAS)
			new = old == b ? c : old;
		else if (in->mod2 == VGPU_ATOM_MIN)
			new = sgn ? ((s64)b < (s64)old ? b : old) : (b < old ? b : old);
		else	/* MAX */
			new = sgn ? ((s64)b > (s64)old ? b : old) : (b > old ? b : old);
	} while (!__atomic_compare_exchange_n(q, &old, new, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return old;
}

/* The 32-bit form; INC and DEC exist only here (u32). */
static u64 vgpu_atomic32(u32 *q, const struct vgpu_insn *in, u32 b, u32 c)
{
	bool sgn = vgpu_type_signed(in->type);
	u32 old, new;

	switch (in->mod2) {
	case VGPU_ATOM_ADD: return __atomic_fetch_add(q, b, __ATOMIC_RELAXED);
	case VGPU_ATOM_AND: return __atomic_fetch_and(q, b, __ATOMIC_RELAXED);
	case VGPU_ATOM_OR: return __atomic_fetch_or(q, b, __ATOMIC_RELAXED);
	case VGPU_ATOM_XOR: return __atomic_fetch_xor(q, b, __ATOMIC_RELAXED);
	case VGPU_ATOM_EXCH: return __atomic_exchange_n(q, b, __ATOMIC_RELAXED);
	}
	old = __atomic_load_n(q, __ATOMIC_RELAXED);
	do {
		switch (in->mod2) {
		case VGPU_ATOM_CAS:
			new = old == b ? c : old;
			break;
		case VGPU_ATOM_MIN:
			new = sgn ? ((s32)b < (s32)old ? b : old) : (b < old ? b : old);
			break;
		case VGPU_ATOM_MAX:
			new = sgn ? ((s32)b > (s32)old ? b : old) : (b > old ? b : old);
			break;
		case VGPU_ATOM_INC:
			new = old >= b ? 0 : old + 1;
			break;
		default:	/* DEC */
			new = !old || old > b ? b : old - 1;
			break;
		}
	} while (!__atomic_compare_exchange_n(q, &old, new, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return old;
}

/* One atomic read-modify-write at @p (aligned); returns the old value. */
u64 vgpu_atomic(u8 *p, const struct vgpu_insn *in, u64 b, u64 c)
{
	if (in->mod2 == VGPU_ATOM_ADD && vgpu_is_float(in->type))
		return vgpu_fp_atom_add(p, in->type, b);
	if (vgpu_type_bits(in->type) == 64)
		return vgpu_atomic64((u64 *)p, in, b, c);
	return vgpu_atomic32((u32 *)p, in, (u32)b, (u32)c);
}
