/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The interpreter's state: a block being run, its warps and their
 * registers, shared by the dispatch loop (interp.c) and the register
 * shapes (shape.c), with what each of the two calls in the other.
 */
#ifndef VGPU_CORE_WARP_H
#define VGPU_CORE_WARP_H

#include "core.h"
#include "group.h"
#include "intops.h"

#define VGPU_TLB 4

/*
 * struct vgpu_aff - the lanes of a register that hold base + sx * i +
 * sy * j (modulo 2^64), i being the lane's place in its row of the block
 * (lane % P) and j the row (lane / P); see shape.c.
 */
struct vgpu_aff {
	u64 base;
	u64 sx;
	u64 sy;
};

/*
 * struct vgpu_warp - one warp's execution state.
 * @ls: its lanes: where each is, which group runs (group.h).
 * @regs: nregs x 32 lane values; @preds: npreds lane masks.
 * @tslots: the texture slots, VGPU_TEX_SLOTS x 32 lane values.
 * @shape, @aff: each register's shape (VGPU_SH_*) and, where it has one,
 *	the shape's numbers; @nstale: registers whose lanes only @aff holds.
 */
struct vgpu_warp {
	struct vgpu_lanes ls;
	u32 nstale;
	u64 *regs;
	u32 *preds;
	u32 *tslots;
	u8 *shape;
	struct vgpu_aff *aff;
};

/*
 * The quick loop's handlers (quick_decode.c): one for each instruction
 * of the program, chosen once a launch.
 */
enum {
	VGPU_QK_GENERAL,	/* the shapes' general path */
	VGPU_QK_STOP,		/* an operation shapes do not cover */
	VGPU_QK_NOP,
	VGPU_QK_BRA,
	VGPU_QK_ADD32,		/* unguarded, no flags, 32 or 64 bits */
	VGPU_QK_ADD32I,
	VGPU_QK_ADD64,
	VGPU_QK_ADD64I,
	VGPU_QK_SHL32I,		/* a count below the width */
	VGPU_QK_SHL64I,
	VGPU_QK_SETP,		/* integer, up to 32 bits, unguarded */
	VGPU_QK_LDP,		/* a kernel parameter at a fixed offset */
	VGPU_QK_FMA32,		/* f32, registers, no rounding or flags */
	VGPU_QK_SREG,		/* unguarded */
	VGPU_QK_MAD,		/* integer, unguarded */
	VGPU_QK_MEM32,		/* 32-bit LD or ST of shared or global memory */
	VGPU_QK_COUNT
};

/* Programs longer than this run the quick loop without pre-decoding. */
#define VGPU_QK_MAX_INSNS 16384U

/*
 * struct vgpu_predecoded - a program's handlers, with what they were
 * decoded for: a block of the same launch finds them made.
 */
struct vgpu_predecoded {
	const struct vgpu_insn *insns;
	u32 ninsns;
	u32 nregs;
	u8 kinds[];
};

/*
 * struct vgpu_block - a block being run; one allocation of
 * vgpu_block_bytes() holds it, its warps, registers and memories.
 */
struct vgpu_block {
	const struct vgpu_launch *l;
	const struct vgpu_insn *code;
	u32 ctaid[3];
	u32 nthreads;
	u32 nwarps;
	u32 live_warps;		/* warps with a lane that has not exited */
	u32 next;		/* warp whose turn it is */
	u32 bars_used;		/* barriers with arrivals: a bit each */
	struct vgpu_barrier bars[VGPU_MAX_BARRIERS];
	u32 shared_bytes;
	u32 local_bytes;	/* per thread */
	u8 *shared;
	u8 *local;
	struct vgpu_fault fault;
	struct vgpu_range tlb[VGPU_TLB];
	u32 tlb_next;
	u32 lane_pm;		/* P - 1: a row of the block in a warp */
	u32 lane_ps;		/* log2 P */
	u32 nregs;
	struct vgpu_predecoded *quick;	/* NULL: too long a program */
	struct vgpu_warp warps[];
};

#define REG(w, r, lane) ((w)->regs[(u64)(r) * VGPU_WARP + (lane)])

/* Operand b or c of @in for @lane: its immediate or its register. */
static inline u64 vgpu_b(const struct vgpu_warp *w,
			 const struct vgpu_insn *in, u32 lane)
{
	return in->flags & VGPU_IF_B_IMM ? in->imm : REG(w, in->b, lane);
}

static inline u64 vgpu_c(const struct vgpu_warp *w,
			 const struct vgpu_insn *in, u32 lane)
{
	return in->flags & VGPU_IF_C_IMM ? in->imm : REG(w, in->c, lane);
}

/* Lanes @lanes of @w fault (the lowest is named): the run stops. */
static inline int vgpu_fail(struct vgpu_block *b, struct vgpu_warp *w,
			    u32 lanes, u32 kind, u64 addr)
{
	u32 lane = __builtin_ctz(lanes);

	b->fault.kind = kind;
	b->fault.insn = w->ls.cur_pc;
	b->fault.thread = (u32)(w - b->warps) * 32 + lane;
	b->fault.addr = addr;
	return VGPU_RUN_FAULT;
}

/* The value of type @t (@len bytes) at @p, as a register holds it. */
static inline u64 vgpu_load(const u8 *p, u8 t, u32 len)
{
	u8 v8;
	u16 v16;
	u32 v32;
	u64 v64;

	switch (len * 8) {
	case 8:
		v8 = *p;
		return vgpu_type_signed(t) ? (u64)(s64)(signed char)v8 : v8;
	case 16:
		__builtin_memcpy(&v16, p, 2);
		return vgpu_type_signed(t) ? (u64)(s64)(short)v16 : v16;
	case 32:
		__builtin_memcpy(&v32, p, 4);
		return vgpu_type_signed(t) ? (u64)(s64)(s32)v32 : v32;
	default:
		__builtin_memcpy(&v64, p, 8);
		return v64;
	}
}

/* The lanes where integer comparison @cmp holds, from "less" and "equal". */
static inline u32 vgpu_cmp_lanes(u8 cmp, u32 lt, u32 eq)
{
	switch (cmp) {
	case VGPU_CMP_EQ:
		return eq;
	case VGPU_CMP_NE:
		return ~eq;
	case VGPU_CMP_LT:
		return lt;
	case VGPU_CMP_LE:
		return lt | eq;
	case VGPU_CMP_GT:
		return ~(lt | eq);
	default:		/* GE */
		return ~lt;
	}
}

/* The operations vgpu_shape_step() may run (a bit each). */
#define VGPU_OP_BIT(op) (1ULL << (op))
#define VGPU_SHAPE_OPS (VGPU_OP_BIT(VGPU_OP_MOV) |	\
	VGPU_OP_BIT(VGPU_OP_SREG) | VGPU_OP_BIT(VGPU_OP_ADD) |	\
	VGPU_OP_BIT(VGPU_OP_SUB) | VGPU_OP_BIT(VGPU_OP_MUL) |	\
	VGPU_OP_BIT(VGPU_OP_MAD) | VGPU_OP_BIT(VGPU_OP_FMA) |	\
	VGPU_OP_BIT(VGPU_OP_DIV) | VGPU_OP_BIT(VGPU_OP_REM) |	\
	VGPU_OP_BIT(VGPU_OP_MIN) | VGPU_OP_BIT(VGPU_OP_MAX) |	\
	VGPU_OP_BIT(VGPU_OP_ABS) | VGPU_OP_BIT(VGPU_OP_NEG) |	\
	VGPU_OP_BIT(VGPU_OP_AND) | VGPU_OP_BIT(VGPU_OP_OR) |	\
	VGPU_OP_BIT(VGPU_OP_XOR) | VGPU_OP_BIT(VGPU_OP_NOT) |	\
	VGPU_OP_BIT(VGPU_OP_SHL) | VGPU_OP_BIT(VGPU_OP_SHR) |	\
	VGPU_OP_BIT(VGPU_OP_SETP) | VGPU_OP_BIT(VGPU_OP_SELP) |	\
	VGPU_OP_BIT(VGPU_OP_CVT) | VGPU_OP_BIT(VGPU_OP_LD) |	\
	VGPU_OP_BIT(VGPU_OP_ST))

static inline bool vgpu_shape_covers(u8 op)
{
	return op < 64 && (VGPU_SHAPE_OPS >> op & 1);
}

#define VGPU_SH_AFF 1		/* @aff holds the register's lanes */
#define VGPU_SH_STALE 2		/* and its lane array does not */

static inline bool vgpu_sh_stale(const struct vgpu_block *b,
				 const struct vgpu_warp *w, u32 r)
{
	return r < b->nregs && (w->shape[r] & VGPU_SH_STALE);
}

/* Whether vgpu_shape_settle() has anything to do for @in. */
static inline bool vgpu_shape_unsettled(const struct vgpu_block *b,
					const struct vgpu_warp *w,
					const struct vgpu_insn *in)
{
	if (in->dst < b->nregs && w->shape[in->dst])
		return true;
	return w->nstale && (vgpu_sh_stale(b, w, in->a) ||
			     vgpu_sh_stale(b, w, in->b) ||
			     vgpu_sh_stale(b, w, in->c));
}

/* interp_mem.c */
u8 *vgpu_global(struct vgpu_block *b, u64 va, u32 len, bool write);
u8 *vgpu_addr(struct vgpu_block *b, u32 thread, u8 space, u64 addr, u32 len,
	      bool write, u32 *fault_kind);
void vgpu_store(u8 *p, u32 len, u64 v);
u8 *vgpu_span(struct vgpu_block *b, u8 space, u64 lo, u64 span, bool write);
bool vgpu_mem_warp(struct vgpu_block *b, struct vgpu_warp *w,
		   const struct vgpu_insn *in, u32 em, u32 len, const u64 *at);
bool vgpu_load_one(struct vgpu_block *b, struct vgpu_warp *w,
		   const struct vgpu_insn *in, u32 em, u64 addr, u32 len,
		   u64 *v);
int vgpu_mem(struct vgpu_block *b, struct vgpu_warp *w,
	     const struct vgpu_insn *in, u32 em);

/* quick_decode.c */
void vgpu_predecode(struct vgpu_predecoded *q, const struct vgpu_launch *l);

/* sreg.c */
u64 vgpu_sreg(const struct vgpu_block *b, u32 warp, u32 lane, u8 sr);

/* shape.c */
void vgpu_shape_settle(const struct vgpu_block *b, struct vgpu_warp *w,
		       const struct vgpu_insn *in);
bool vgpu_shape_step(struct vgpu_block *b, struct vgpu_warp *w,
		     const struct vgpu_insn *in, u32 em);
u32 vgpu_shape_run(struct vgpu_block *b, struct vgpu_warp *w, u32 budget,
		   bool *turn);

#endif /* VGPU_CORE_WARP_H */
