/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The vgpu ISA: the instructions the compute engine runs, as the PTX JIT
 * writes them and the module's verifier checks them.
 *
 * Every instruction is one struct vgpu_insn (32 bytes). A program is an
 * array of them; branch targets are indices into it. Each thread owns
 * @nregs 64-bit registers and @npreds predicates (declared per function);
 * a warp keeps each register as 32 lane values, and each predicate as a
 * 32-bit lane mask, so one dispatch runs an instruction for the whole warp.
 *
 * Values: an 8-, 16- or 32-bit result occupies the low bits of its
 * register and the rest is zero, except that loads of S8, S16 and S32
 * sign-extend to 64 bits. F16 and F32 values are IEEE bit patterns in the
 * low bits. Sources of a narrower type read the low bits.
 *
 * Operands: @dst, @a, @b, @c name registers (predicates where the
 * operation says so); operands an operation does not use must be 0.
 * VGPU_IF_B_IMM or VGPU_IF_C_IMM replaces @b or @c by @imm (at most one
 * of them). Memory operations address @a + @imm. Unary operations read @a,
 * except MOV, which reads @b so that it can take an immediate.
 * @guard names a predicate: lanes where it is false (true, with
 * VGPU_IF_GUARD_NOT) skip the instruction; VGPU_PRED_NONE runs it always.
 *
 * Control flow: lanes have their own program counters. The engine runs
 * together the lanes that are at the same instruction, and lanes that
 * diverge meet again when they reach the same instruction (a branch may
 * name where that is expected, in @c, as a hint). Every path makes
 * progress: lanes waiting for others are never starved by a loop.
 * Warp-synchronous instructions (SHFL, VOTE, MATCH, WARPSYNC) wait until
 * the lanes of their member mask that have not exited are all there. In
 * them, VGPU_IF_B_IMM and VGPU_IF_C_IMM make the @b and @c fields
 * themselves the immediate values, as @imm holds the mask.
 */
#ifndef _UAPI_VGPU_ISA_H
#define _UAPI_VGPU_ISA_H

#include <linux/types.h>

#define VGPU_ISA_VERSION 1

/* Types (vgpu_insn.type and .stype). */
#define VGPU_T_NONE 0
#define VGPU_T_U8 1
#define VGPU_T_S8 2
#define VGPU_T_U16 3
#define VGPU_T_S16 4
#define VGPU_T_U32 5
#define VGPU_T_S32 6
#define VGPU_T_U64 7
#define VGPU_T_S64 8
#define VGPU_T_F16 9
#define VGPU_T_F32 10
#define VGPU_T_F64 11
#define VGPU_T_PRED 12
#define VGPU_T_COUNT 13

/*
 * Operations (vgpu_insn.op). "d" is @dst, "p" a predicate; "mod" says what
 * vgpu_insn.mod holds.
 */
#define VGPU_OP_NOP 0
#define VGPU_OP_MOV 1		/* d = b (register or immediate) */
#define VGPU_OP_SREG 2		/* d = special register mod (VGPU_SR_*) */
#define VGPU_OP_ADD 3		/* d = a + b (floats: mod VGPU_RND_*) */
#define VGPU_OP_SUB 4		/* d = a - b */
#define VGPU_OP_MUL 5		/* d = a * b (integers: mod VGPU_MUL_*) */
#define VGPU_OP_MAD 6		/* d = a * b + c (integers: mod VGPU_MUL_*) */
#define VGPU_OP_FMA 7		/* d = a * b + c, rounded once */
#define VGPU_OP_DIV 8		/* d = a / b; integer x/0 is all ones (u) */
#define VGPU_OP_REM 9		/* d = a % b; integer x%0 is x */
#define VGPU_OP_MIN 10
#define VGPU_OP_MAX 11
#define VGPU_OP_ABS 12		/* d = |a| */
#define VGPU_OP_NEG 13		/* d = -a */
#define VGPU_OP_AND 14		/* bitwise; on predicates with type PRED */
#define VGPU_OP_OR 15
#define VGPU_OP_XOR 16
#define VGPU_OP_NOT 17
#define VGPU_OP_SHL 18		/* d = a << b; b >= width gives 0 */
#define VGPU_OP_SHR 19		/* logical (U) or arithmetic (S) */
#define VGPU_OP_SETP 20		/* p[dst] = a mod(VGPU_CMP_*) b */
#define VGPU_OP_SELP 21		/* d = p[c] ? a : b */
#define VGPU_OP_CVT 22		/* d (type) = a (stype), mod VGPU_RND_* */
#define VGPU_OP_LD 23		/* d = [a + imm], mod VGPU_SPACE_* */
#define VGPU_OP_ST 24		/* [a + imm] = b, mod VGPU_SPACE_* */
#define VGPU_OP_BRA 25		/* go to imm; c: where lanes meet again */
#define VGPU_OP_EXIT 26		/* the lane ends */
#define VGPU_OP_BAR 27		/* block barrier (below); mod VGPU_BAR_SYNC/ARRIVE */
#define VGPU_OP_TRAP 28		/* fault the launch; mod VGPU_TRAP_* */
/*
 * Warp-synchronous operations: @imm is the member mask. They wait until
 * the mask's lanes that have not exited are all at the instruction.
 */
#define VGPU_OP_SHFL 29		/* d = a of the lane mod(VGPU_SHFL_*) picks */
#define VGPU_OP_VOTE 30		/* mod VGPU_VOTE_*: over predicate a */
#define VGPU_OP_MATCH 31	/* d = lanes whose a equals mine (mod ANY/ALL) */
#define VGPU_OP_WARPSYNC 32	/* wait for the member lanes */
#define VGPU_OP_ACTIVEMASK 33	/* d = the lanes running this instruction */
/* Memory. */
#define VGPU_OP_ATOM 34		/* d = [a + imm]; [a + imm] = op(d, b[, c]) */
#define VGPU_OP_MEMBAR 35	/* order this thread's memory accesses */
/* Bits. */
#define VGPU_OP_POPC 36		/* d (u32) = bits set in a */
#define VGPU_OP_CLZ 37		/* d (u32) = leading zeros of a */
#define VGPU_OP_BREV 38		/* d = a with its bits reversed */
#define VGPU_OP_BFIND 39	/* d (u32) = top set bit (mod 1: as a shift) */
#define VGPU_OP_BFE 40		/* d = bits b.. (c of them) of a, extended */
#define VGPU_OP_PRMT 41		/* d = bytes of {b, a} chosen by c */
/*
 * Floating-point functions (mod: VGPU_RND_* for SQRT and RCP, else 0).
 * RSQRT to TANH, and SQRT and RCP with VGPU_RND_APPROX, give an H100's
 * results bit for bit.
 */
#define VGPU_OP_SQRT 42
#define VGPU_OP_RCP 43
#define VGPU_OP_RSQRT 44	/* approximate */
#define VGPU_OP_EX2 45		/* 2^a, approximate */
#define VGPU_OP_LG2 46		/* log2 a, approximate */
#define VGPU_OP_SIN 47		/* approximate */
#define VGPU_OP_COS 48		/* approximate */
#define VGPU_OP_TANH 49		/* approximate */
#define VGPU_OP_COPYSIGN 50	/* d = |b| with the sign of a */
/*
 * A block barrier (as BAR with VGPU_BAR_SYNC) that also reduces predicate
 * a over the threads arriving: d = how many had it true (mod POPC, type
 * U32), or the predicate d = all of them (AND) or any of them (OR), type
 * PRED.
 */
#define VGPU_OP_BAR_RED 51
/*
 * The context's device heap (CUDA's in-kernel malloc and free), type U64:
 * MALLOC sets d to the address of a (register) bytes, 16-aligned and
 * distinct from every live block, or to 0 when the heap has no room or
 * the context has none; FREE frees the block at a (register): 0 is left
 * alone, the address of no live block inside the heap traps, and one
 * outside it faults unless something is mapped there, as on an H100.
 */
#define VGPU_OP_MALLOC 52
#define VGPU_OP_FREE 53
/*
 * Textures and surfaces, through descriptors (uapi/vgpu_tex.h) whose
 * device address is register @a. Their other operands pass through the
 * warp's texture slots, VGPU_TEX_SLOTS 32-bit values per lane: TEXSET
 * copies register @a to slot @mod (type U64: to slots @mod and @mod + 1,
 * low half first), TEXGET slot @mod (U64: two) to register @dst.
 * TEX, SULD and SUST take their coordinates from slots 0 to 2 (x, y, z;
 * a surface's x in bytes) and 3 (a layer or cube array index); TEX its
 * level or bias from slot 4 and its gradients (d/dx x, y, z, then d/dy)
 * from slots 5 to 10, and with @imm 1 or 2 its texel offsets from slot
 * 11 (x, y, z: @imm 1 in bits 0-3, 4-7, 8-11, each -8..7; 2 in six bits
 * each from bit 0, -32..31); SUST its values from slot 4 on. TEX and SULD
 * leave their results from slot 0 on.
 */
#define VGPU_OP_TEXSET 54
#define VGPU_OP_TEXGET 55
/*
 * TEX: @mod VGPU_TEXV_*, @mod2 the channel a gather takes; @type F32,
 * S32 or U32 (the results); @stype F32, or S32 for integer coordinates
 * (texel indices: no filtering).
 */
#define VGPU_OP_TEX 56
/* TXQ: d = @mod (VGPU_TXQ_*) of the descriptor, of level b for LEVEL_*. */
#define VGPU_OP_TXQ 57
/*
 * SULD and SUST: @type the element (U8, U16, U32, U64), @imm how many
 * (1, 2 or 4), @mod what an access out of range does (VGPU_SURF_*); SUST
 * with @mod2 1 converts its values to the surface's format (sust.p).
 */
#define VGPU_OP_SULD 58
#define VGPU_OP_SUST 59
#define VGPU_OP_COUNT 60

#define VGPU_TEX_SLOTS 12

/* TEX (mod): what a fetch samples. */
#define VGPU_TEXV_PLAIN 0	/* level 0, plus the descriptor's bias */
#define VGPU_TEXV_LEVEL 1	/* the level of detail in slot 4 */
#define VGPU_TEXV_GRAD 2	/* the level the gradients give */
#define VGPU_TEXV_GATHER 3	/* four texels' channel mod2, unfiltered */

/* TXQ (mod). */
#define VGPU_TXQ_WIDTH 0
#define VGPU_TXQ_HEIGHT 1
#define VGPU_TXQ_DEPTH 2
#define VGPU_TXQ_LEVEL_WIDTH 3
#define VGPU_TXQ_LEVEL_HEIGHT 4
#define VGPU_TXQ_LEVEL_DEPTH 5
#define VGPU_TXQ_COUNT 6

/* SULD and SUST (mod): an access out of range. */
#define VGPU_SURF_TRAP 0	/* faults */
#define VGPU_SURF_CLAMP 1	/* goes to the nearest element in range */
#define VGPU_SURF_ZERO 2	/* loads zeros, stores nothing */

/* SHFL (mod); b is the lane or delta, c the clamp and segment mask. */
#define VGPU_SHFL_UP 0
#define VGPU_SHFL_DOWN 1
#define VGPU_SHFL_BFLY 2
#define VGPU_SHFL_IDX 3

/* VOTE (mod); BALLOT writes a register, the others a predicate. */
#define VGPU_VOTE_ALL 0
#define VGPU_VOTE_ANY 1
#define VGPU_VOTE_UNI 2
#define VGPU_VOTE_BALLOT 3

/* MATCH (mod). ALL also sets predicate mod2 - 1 when every lane agrees. */
#define VGPU_MATCH_ANY 0
#define VGPU_MATCH_ALL 1

/* ATOM (mod2; mod is the space: GLOBAL, SHARED or GENERIC). */
#define VGPU_ATOM_ADD 0
#define VGPU_ATOM_MIN 1
#define VGPU_ATOM_MAX 2
#define VGPU_ATOM_INC 3		/* old >= b ? 0 : old + 1 (u32) */
#define VGPU_ATOM_DEC 4		/* old == 0 || old > b ? b : old - 1 (u32) */
#define VGPU_ATOM_AND 5
#define VGPU_ATOM_OR 6
#define VGPU_ATOM_XOR 7
#define VGPU_ATOM_EXCH 8
#define VGPU_ATOM_CAS 9		/* old == b ? c : old */
#define VGPU_ATOM_COUNT 10

/*
 * Block barriers (BAR, BAR_RED). A block has VGPU_MAX_BARRIERS of them,
 * named by @imm or, with VGPU_BAR_ID_REG in @mod2, by register @c (@imm
 * then 0). A barrier completes when its thread count has arrived: every
 * thread of the block by default, or with VGPU_BAR_COUNT in @mod2 the
 * count @b gives (a register, or with VGPU_IF_B_IMM the field itself; a
 * multiple of 32 from 32 to VGPU_MAX_BLOCK_THREADS). Threads arrive a
 * warp at a time: once all lanes of a warp that have not exited are at
 * the barrier, the warp counts as 32 threads (a block's last warp too).
 * Warps that have exited whole are not waited for by a barrier without a
 * count. Lanes that only arrive (BAR with VGPU_BAR_ARRIVE, which needs a
 * count) then go on; the others wait until the barrier completes, which
 * readies it for its next use.
 */

/* BAR (mod). */
/*
 * TRAP's modifier: what the trap stands for. The engine faults the same
 * for both (VGPU_KFAULT_TRAP); the program's loader, which finds the
 * trap at the fault's instruction, reports a failed assert() as such.
 */
#define VGPU_TRAP_PLAIN 0
#define VGPU_TRAP_ASSERT 1

#define VGPU_BAR_SYNC 0
#define VGPU_BAR_ARRIVE 1

/* BAR and BAR_RED (mod2): which operands the barrier has. */
#define VGPU_BAR_COUNT 0x01	/* a thread count in @b */
#define VGPU_BAR_ID_REG 0x02	/* the barrier number in register @c */

/* BAR_RED (mod). */
#define VGPU_BAR_POPC 0
#define VGPU_BAR_AND 1
#define VGPU_BAR_OR 2

/* MEMBAR (mod). */
#define VGPU_SCOPE_CTA 0
#define VGPU_SCOPE_GPU 1
#define VGPU_SCOPE_SYS 2

/* Integer MUL/MAD (mod). */
#define VGPU_MUL_LO 0		/* low half of the product */
#define VGPU_MUL_HI 1		/* high half */
#define VGPU_MUL_WIDE 2		/* 32 x 32 -> 64 (type is the source type) */

/* Floating-point rounding (mod of ADD/SUB/MUL/FMA/DIV, CVT). */
#define VGPU_RND_RN 0		/* to nearest even */
#define VGPU_RND_RZ 1		/* toward zero */
#define VGPU_RND_RM 2		/* toward -inf */
#define VGPU_RND_RP 3		/* toward +inf */
/* CVT to an integer, or float to float of the same type: round to integer. */
#define VGPU_RND_RNI 4
#define VGPU_RND_RZI 5
#define VGPU_RND_RMI 6
#define VGPU_RND_RPI 7
/*
 * F32 SQRT, RCP and DIV only: approximate, as an H100's special-function
 * unit computes them (PTX .approx), bit for bit.
 */
#define VGPU_RND_APPROX 8
/* F32 DIV only: PTX div.full, the same unit's reciprocal over a wider range. */
#define VGPU_RND_FULL 9

/* SETP comparisons (mod); the U forms are also true when unordered. */
#define VGPU_CMP_EQ 0
#define VGPU_CMP_NE 1
#define VGPU_CMP_LT 2
#define VGPU_CMP_LE 3
#define VGPU_CMP_GT 4
#define VGPU_CMP_GE 5
#define VGPU_CMP_EQU 6
#define VGPU_CMP_NEU 7
#define VGPU_CMP_LTU 8
#define VGPU_CMP_LEU 9
#define VGPU_CMP_GTU 10
#define VGPU_CMP_GEU 11
#define VGPU_CMP_NUM 12		/* neither is NaN */
#define VGPU_CMP_NAN 13		/* either is NaN */
#define VGPU_CMP_COUNT 14

/* Memory spaces (mod of LD/ST). */
#define VGPU_SPACE_GENERIC 0
#define VGPU_SPACE_GLOBAL 1
#define VGPU_SPACE_SHARED 2
#define VGPU_SPACE_LOCAL 3
#define VGPU_SPACE_PARAM 4	/* the launch's parameter bytes; read only */
#define VGPU_SPACE_CONST 5	/* the module's constant bank; read only */
#define VGPU_SPACE_COUNT 6

/*
 * Generic addresses from VGPU_RESERVED_BASE up are the ISA's own: the
 * shared and local windows live there, so a generic address in them never
 * meets a device or host pointer. No user address has bit 63 set on
 * x86-64 (47 bits with 4-level paging, 56 with 5-level) or arm64 (52),
 * and the windows are not canonical under either x86-64 paging mode, so
 * they are no kernel address either. The module refuses host ranges that
 * reach VGPU_RESERVED_BASE, and the device VA window ends below it
 * (VGPU_VA_LIMIT, uapi/vgpu.h). Before VGPU_ABI_VERSION 3 the windows
 * sat at 2^48 and 2^49, which a process can map under 5-level paging.
 */
#define VGPU_RESERVED_BASE 0x8000000000000000ULL
#define VGPU_SHARED_WINDOW 0x8000000000000000ULL
#define VGPU_LOCAL_WINDOW 0x8000000100000000ULL
#define VGPU_WINDOW_SIZE 0x0000000100000000ULL

/* Special registers (mod of SREG). */
#define VGPU_SR_TID_X 0
#define VGPU_SR_TID_Y 1
#define VGPU_SR_TID_Z 2
#define VGPU_SR_NTID_X 3
#define VGPU_SR_NTID_Y 4
#define VGPU_SR_NTID_Z 5
#define VGPU_SR_CTAID_X 6
#define VGPU_SR_CTAID_Y 7
#define VGPU_SR_CTAID_Z 8
#define VGPU_SR_NCTAID_X 9
#define VGPU_SR_NCTAID_Y 10
#define VGPU_SR_NCTAID_Z 11
#define VGPU_SR_LANEID 12
#define VGPU_SR_WARPID 13
#define VGPU_SR_NWARPID 14
#define VGPU_SR_SMID 15
#define VGPU_SR_NSMID 16
#define VGPU_SR_CLOCK 17	/* 32-bit cycle-like counter */
#define VGPU_SR_CLOCK64 18
#define VGPU_SR_GLOBALTIMER 19	/* ns */
#define VGPU_SR_LANEMASK_EQ 20
#define VGPU_SR_LANEMASK_LT 21
#define VGPU_SR_LANEMASK_LE 22
#define VGPU_SR_LANEMASK_GT 23
#define VGPU_SR_LANEMASK_GE 24
#define VGPU_SR_DYN_SMEM 25	/* dynamic shared memory bytes */
/*
 * The launch's grid workspace address (VGPU_CMD_LAUNCH's grid_sync), high
 * and low 32 bits: 0 outside a cooperative launch. PTX's %envreg1 and
 * %envreg2, where nvcc's grid-wide barrier looks for it.
 */
#define VGPU_SR_GRID_SYNC_HI 26
#define VGPU_SR_GRID_SYNC_LO 27
#define VGPU_SR_COUNT 28

/* vgpu_insn.flags */
#define VGPU_IF_B_IMM 0x01	/* b is @imm */
#define VGPU_IF_C_IMM 0x02	/* c is @imm */
#define VGPU_IF_GUARD_NOT 0x04	/* run where the guard is false */
#define VGPU_IF_FTZ 0x08	/* f32 subnormal inputs and results are 0 */
#define VGPU_IF_SAT 0x10	/* clamp (floats: to [0, 1]; ints: to range) */
/*
 * Carry (ADD, SUB, MAD of 32- and 64-bit integers): CC_OUT writes the
 * carry (SUB: the borrow) to the thread's carry flag, CC_IN adds it (SUB:
 * subtracts it), as PTX's add.cc, addc, sub.cc, subc, mad.cc and madc.
 */
#define VGPU_IF_CC_OUT 0x20
#define VGPU_IF_CC_IN 0x40
#define VGPU_IF_ALL 0x7f

#define VGPU_PRED_NONE 0xff	/* vgpu_insn.guard: unguarded */
#define VGPU_NO_TARGET 0xffffffffU	/* BRA's c: no meeting point named */
#define VGPU_NO_REG 0xffffffffU	/* LD/ST's a: the address is @imm alone */

/**
 * struct vgpu_insn - one instruction.
 * @op: VGPU_OP_*.
 * @type: VGPU_T_* of the operation (of the result for CVT).
 * @stype: CVT's source type; VGPU_T_NONE otherwise.
 * @mod: what the operation says (VGPU_RND_*, VGPU_CMP_*, ...); else 0.
 * @mod2: ATOM's operation (VGPU_ATOM_*); for SHFL and MATCH, a
 *	predicate to set, plus 1 (0: none); for BAR and BAR_RED,
 *	VGPU_BAR_COUNT and VGPU_BAR_ID_REG; otherwise 0.
 * @flags: VGPU_IF_*.
 * @guard: guarding predicate, or VGPU_PRED_NONE.
 * @pad: Must be 0.
 * @dst: destination register (predicate for SETP).
 * @a: first source register.
 * @b: second source register, unless VGPU_IF_B_IMM; a barrier's thread
 *	count.
 * @c: third source register, unless VGPU_IF_C_IMM; SELP's predicate;
 *	BRA's meeting point or VGPU_NO_TARGET; a barrier's number register.
 * @imm: immediate operand, address offset, branch target or barrier.
 */
struct vgpu_insn {
	__u8 op;
	__u8 type;
	__u8 stype;
	__u8 mod;
	__u8 mod2;
	__u8 flags;
	__u8 guard;
	__u8 pad;
	__u32 dst;
	__u32 a;
	__u32 b;
	__u32 c;
	__u64 imm;
};

/* Limits the verifier enforces. */
#define VGPU_MAX_INSNS 1048576U
#define VGPU_MAX_REGS 4096	/* 64-bit registers per thread */
#define VGPU_MAX_PREDS 64
#define VGPU_MAX_PARAM_BYTES 32764	/* as CUDA 12.1+ */
#define VGPU_MAX_LOCAL_BYTES (512U << 10)	/* per thread */
#define VGPU_MAX_SHARED_BYTES (228U << 10)	/* static, per block */
#define VGPU_MAX_BARRIERS 16
#define VGPU_MAX_BLOCK_THREADS 1024	/* the most a barrier's count names */

/**
 * struct vgpu_func - one kernel (entry point) of a program.
 * @entry: index of its first instruction.
 * @nregs: 64-bit registers per thread, 1 to VGPU_MAX_REGS.
 * @npreds: predicates per thread, 0 to VGPU_MAX_PREDS.
 * @param_bytes: parameter bytes the launch passes.
 * @shared_bytes: static shared memory per block.
 * @local_bytes: local memory per thread.
 * @max_threads: most threads per block it may be launched with (0: the
 *	device's limit).
 */
struct vgpu_func {
	__u32 entry;
	__u32 nregs;
	__u32 npreds;
	__u32 param_bytes;
	__u32 shared_bytes;
	__u32 local_bytes;
	__u32 max_threads;
	__u32 pad;
};

#endif /* _UAPI_VGPU_ISA_H */
