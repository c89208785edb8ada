/* SPDX-License-Identifier: MIT */
/*
 * What generated code and the native runtime share: a warp's state (at
 * offsets the IR builder reads with offsetof), a block's, and the runtime
 * helpers generated code calls for the rare paths.
 */
#ifndef VGPU_NATIVE_RT_H
#define VGPU_NATIVE_RT_H

#include "native.h"
#include "group.h"


/* What a helper tells generated code to do next. */
#define NRT_GO_ON 0		/* continue at this instruction */
#define NRT_DISPATCH 1		/* a new group: go to cur_pc */
#define NRT_STOP 2		/* the warp has nothing to run: return */
#define NRT_FAULT 3		/* the block faulted: return */

struct nrt_block;

/*
 * struct nrt_warp - one warp.
 * @ls: its lanes, as the interpreter's (group.h).
 * @thresh: generated code asks nrt_check() where a straight run starts
 *	at pc >= @thresh: ~0 while no other lanes can run, @min_other while
 *	they can, 0 when every run's start must be checked.
 * @slice_left: instructions left in the warp's turn, as s32 (the
 *	generated code counts them down, past 0 to the end of a straight
 *	run, and returns on a branch's edge or a change of group once none
 *	are left: vgpu_block_run()'s turns).
 * @tid: its lanes' TID_X, TID_Y and TID_Z, 32 values each.
 * @scratch_a, @scratch_v: lane values passed to the memory helper.
 * @sreg: SREG results from nrt_sreg().
 */
struct nrt_warp {
	u64 *regs;
	u32 *preds;
	struct nrt_block *blk;
	u32 index;
	struct vgpu_lanes ls;
	u32 thresh;
	u32 slice_left;
	u64 *tid;
	/* Scratch: not cleared when a block starts. */
	u64 scratch_a[VGPU_WARP] __attribute__((aligned(64)));
	u64 scratch_v[VGPU_WARP] __attribute__((aligned(64)));
	u64 sreg[VGPU_WARP] __attribute__((aligned(64)));
};

/* The range a memory instruction last hit, which its next warp tries. */
struct nrt_site {
	u64 va;
	u64 end;
	u64 delta;
	u64 writable;
};

/*
 * struct nrt_block - a block being run.
 * @sites: per instruction, the range its last global access hit, which
 *	generated code checks whole warps against.
 * @sr_uni: the special registers one value gives for the whole block.
 * @uni: the phased function's registers that hold one value for the
 *	whole block where a phase starts (native_phase.c), two rows of
 *	nregs: a phase reads one row and its warps write the other.
 */
struct nrt_block {
	struct nrt_site *sites;
	u64 sr_uni[VGPU_SR_COUNT];
	u64 *tid;
	u8 *shared;
	u64 shared_bytes;
	struct vgpu_native_kernel *k;
	const struct vgpu_launch *l;
	struct vgpu_range *ranges;
	u32 nranges;
	vgpu_native_lookup_fn lookup;
	void *lookup_arg;
	u32 ctaid[3];
	u32 nthreads;
	u32 nwarps;
	u32 live_warps;
	u32 next;
	u32 bars_used;
	struct vgpu_barrier bars[VGPU_MAX_BARRIERS];
	u32 local_bytes;
	u8 *local;
	u8 *zero_from;		/* predicates on: cleared when a block starts */
	struct vgpu_fault fault;
	struct nrt_warp *warps;
	void *mem;
	u64 mem_bytes;
	u64 regs_bytes;
	u64 *uni;
};

/* The compiled warp function: runs @w's group on; 0, or VGPU_RUN_FAULT
 * or VGPU_RUN_MORE. */
typedef int (*nrt_warp_fn)(struct nrt_warp *w);

/* The compiled block function (native_block.c): runs the whole block; 0
 * or VGPU_RUN_FAULT; the phased one (native_phase.c) VGPU_RUN_MORE too,
 * to be called again. */
typedef int (*nrt_block_fn)(struct nrt_block *b);

/*
 * struct vgpu_native_kernel - a compiled kernel.
 * @insns: a copy of the program, which helpers read instructions from.
 * @zero_regs: the @nzero registers read before written on some path.
 * @fn: the warp function; @block_fn instead for a kernel whose code is
 *	one straight run (@straight), which runs every block, or short runs
 *	between barriers (@phased as well: native_phase.c).
 * @jit, @jd: the JIT's hold on its code, and the JITDylib it lives in.
 * @cached: the code came from the on-disk cache (native_cache.c).
 */
struct vgpu_native_kernel {
	struct vgpu_insn *insns;
	u32 ninsns;
	struct vgpu_func func;
	nrt_warp_fn fn;
	nrt_block_fn block_fn;
	bool straight;
	bool phased;
	void *jit;
	void *jd;
	bool cached;
	u32 *zero_regs;
	u32 nzero;
	double compile_ms;
};

/* native_sched.c: the interpreter's group and barrier rules. */
void nrt_set_thresh(struct nrt_warp *w);
bool nrt_group_pick(struct nrt_warp *w, u32 handover);
int nrt_check(struct nrt_warp *w);
int nrt_diverge(struct nrt_warp *w, u32 em, u32 target);
int nrt_exit(struct nrt_warp *w, u32 em);
int nrt_bar(struct nrt_warp *w, u32 em);
int nrt_warp_sync(struct nrt_warp *w);
int nrt_fail(struct nrt_warp *w, u32 lanes, u32 kind, u64 addr);

/* native_mem.c: accesses the fast path does not take. */
int nrt_mem(struct nrt_warp *w, u32 em);
int nrt_atom(struct nrt_warp *w, u32 em);

/* native_bits.c, native_int.c */
void nrt_bits_op(struct nrt_warp *w, u32 em);
void nrt_int_op(struct nrt_warp *w, u32 em);
void nrt_sreg(struct nrt_warp *w, u32 sr);

/* native_fp.c: the core's floating point for one instruction. */
void nrt_fp_alu(struct nrt_warp *w, u32 em);
u32 nrt_fp_setp(struct nrt_warp *w, u32 em);
void nrt_fp_cvt(struct nrt_warp *w, u32 em);
void nrt_fp_func(struct nrt_warp *w, u32 em);

/* native_llvm.c */
int nrt_llvm_compile(struct vgpu_native_kernel *k, char *why, size_t why_len);
void nrt_llvm_release(struct vgpu_native_kernel *k);

#endif /* VGPU_NATIVE_RT_H */
