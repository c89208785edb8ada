// SPDX-License-Identifier: MIT
/*
 * The bit-field instructions (POPC, CLZ, BREV, BFIND, BFE, PRMT), lane by
 * lane on the warp's register file with the interpreter's definitions:
 * rare enough in kernels that a call per warp costs little.
 */
#include "native_rt.h"

#define R(w, r, lane) ((w)->regs[(u64)(r) * VGPU_WARP + (lane)])

static unsigned int nrt_bits(u8 t)
{
	switch (t) {
	case VGPU_T_U8:
	case VGPU_T_S8:
		return 8;
	case VGPU_T_U16:
	case VGPU_T_S16:
	case VGPU_T_F16:
		return 16;
	case VGPU_T_U32:
	case VGPU_T_S32:
	case VGPU_T_F32:
		return 32;
	default:
		return 64;
	}
}

static bool nrt_signed(u8 t)
{
	return t == VGPU_T_S8 || t == VGPU_T_S16 || t == VGPU_T_S32 ||
	       t == VGPU_T_S64;
}

static u64 nrt_brev(u64 v, unsigned int bits)
{
	u64 r = 0;
	unsigned int i;

	for (i = 0; i < bits; i++)
		r |= ((v >> i) & 1) << (bits - 1 - i);
	return r;
}

/* @len bits from @pos, the rest the field's sign (signed types) or 0. */
static u64 nrt_bfe(u64 a, u32 pos, u32 len, u8 t)
{
	unsigned int msb = nrt_bits(t) - 1, i;
	u64 sbit = 0, r = 0;

	pos &= 0xff;
	len &= 0xff;
	if (nrt_signed(t) && len)
		sbit = (a >> (pos + len - 1 < msb ? pos + len - 1 : msb)) & 1;
	for (i = 0; i <= msb; i++) {
		u64 bit = i < len && pos + i <= msb ? (a >> (pos + i)) & 1 : sbit;

		r |= bit << i;
	}
	return r;
}

static u32 nrt_prmt(u32 a, u32 b, u32 c, u8 mode)
{
	u64 src = (u64)b << 32 | a;
	u32 r = 0, i, sel = c & 3, pick;

	for (i = 0; i < 4; i++) {
		u32 byte;

		switch (mode) {
		case 1:
			pick = (sel + i) & 7;
			break;
		case 2:
			pick = (sel - i) & 7;
			break;
		case 3:
			pick = sel;
			break;
		case 4:
			pick = i > sel ? i : sel;
			break;
		case 5:
			pick = i < sel ? i : sel;
			break;
		case 6:
			pick = (sel & 1) * 2 + (i & 1);
			break;
		default:
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

static u64 nrt_bit_op(const struct vgpu_insn *in, u64 a, u64 b, u64 c)
{
	unsigned int bits = nrt_bits(in->type);
	u64 ua = bits == 64 ? a : a & ((1ULL << bits) - 1);
	s64 sa = bits == 64 ? (s64)a : (s64)(a << (64 - bits)) >> (64 - bits);
	s64 top;

	switch (in->op) {
	case VGPU_OP_POPC:
		return (u64)__builtin_popcountll(ua);
	case VGPU_OP_CLZ:
		return ua ? (u64)(__builtin_clzll(ua) - (64 - bits)) : bits;
	case VGPU_OP_BREV:
		return nrt_brev(ua, bits);
	case VGPU_OP_BFIND:
		if (nrt_signed(in->type) && sa < 0)
			ua = ~ua & (bits == 64 ? ~0ULL : (1ULL << bits) - 1);
		if (!ua)
			return 0xffffffff;
		top = 63 - __builtin_clzll(ua);
		return in->mod ? (u64)(bits - 1 - top) : (u64)top;
	case VGPU_OP_BFE:
		return nrt_bfe(ua, (u32)b, (u32)c, in->type);
	default:
		return nrt_prmt((u32)a, (u32)b, (u32)c, in->mod);
	}
}

/* The bit-field instruction at w->cur_pc, for lanes @em. */
void nrt_bits_op(struct nrt_warp *w, u32 em)
{
	const struct vgpu_insn *in = &w->blk->k->insns[w->cur_pc];
	u32 m;

	for (m = em; m; m &= m - 1) {
		u32 lane = __builtin_ctz(m);
		u64 a = R(w, in->a, lane), r;
		u64 b = in->flags & VGPU_IF_B_IMM ? in->imm : R(w, in->b, lane);
		u64 c = in->flags & VGPU_IF_C_IMM ? in->imm : R(w, in->c, lane);

		r = nrt_bit_op(in, a, b, c);
		R(w, in->dst, lane) = in->op == VGPU_OP_BREV || in->op == VGPU_OP_BFE ?
			r : r & 0xffffffff;
	}
}
