// SPDX-License-Identifier: MIT
/*
 * The native engine's front: compiling a kernel (or refusing it), and the
 * block runner, which runs a block's warps in turn as the interpreter
 * does: each until it exits, waits at a barrier, faults or yields.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "native_ir.h"

static double nrt_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

struct vgpu_native_kernel *vgpu_native_compile(const struct vgpu_program *prog,
					       u32 func, char *why,
					       size_t why_len)
{
	struct vgpu_native_kernel *k;
	double t0 = nrt_now_ms();
	bool compiled = false;

	if (func >= prog->nfuncs) {
		snprintf(why, why_len, "no kernel %u", func);
		return NULL;
	}
	k = calloc(1, sizeof(*k));
	if (k)
		k->insns = malloc(sizeof(*k->insns) * prog->ninsns);
	if (!k || !k->insns) {
		if (k)
			free(k);
		snprintf(why, why_len, "out of memory");
		return NULL;
	}
	memcpy(k->insns, prog->insns, sizeof(*k->insns) * prog->ninsns);
	k->ninsns = prog->ninsns;
	k->func = prog->funcs[func];
	k->zero_regs = malloc(sizeof(u32) * k->func.nregs);
	if (!k->zero_regs)
		snprintf(why, why_len, "out of memory");
	if (k->zero_regs && nrt_ir_supported(k, why, why_len)) {
		u8 *reach = nrt_reach(k);

		/* VGPU_NATIVE_WARPS: every kernel through the warp function. */
		if (!getenv("VGPU_NATIVE_WARPS")) {
			k->straight = nrt_block_eligible(k, reach);
			k->phased = !k->straight && nrt_phase_eligible(k, reach);
			k->straight |= k->phased;
		}
		free(reach);
		compiled = !nrt_llvm_compile(k, why, why_len);
	}
	if (!compiled) {
		free(k->zero_regs);
		free(k->insns);
		free(k);
		return NULL;
	}
	k->nzero = nrt_ir_zero_regs(k, k->zero_regs);
	k->compile_ms = nrt_now_ms() - t0;
	return k;
}

void vgpu_native_kernel_free(struct vgpu_native_kernel *k)
{
	if (!k)
		return;
	nrt_llvm_release(k);
	free(k->zero_regs);
	free(k->insns);
	free(k);
}

bool vgpu_native_kernel_straight(const struct vgpu_native_kernel *k)
{
	return k->straight;
}

#define NRT_ALIGN(x) (((x) + 63) & ~(u64)63)

/*
 * Where each warp's registers and predicates and the block's memories lie
 * in b->mem: set once, as a block's layout is the launch's.
 */
static void nrt_block_layout(struct nrt_block *b)
{
	const struct vgpu_func *f = &b->k->func;
	u8 *p = b->mem;
	u32 i;

	b->warps = (struct nrt_warp *)p;
	p += NRT_ALIGN(b->nwarps * sizeof(struct nrt_warp));
	for (i = 0; i < b->nwarps; i++) {
		struct nrt_warp *w = &b->warps[i];

		w->blk = b;
		w->index = i;
		w->regs = (u64 *)p;
		p += (u64)f->nregs * VGPU_WARP * sizeof(u64);
		w->tid = b->tid + (u64)i * 3 * VGPU_WARP;
	}
	p = (u8 *)b->warps + NRT_ALIGN(b->nwarps * sizeof(struct nrt_warp)) + b->regs_bytes;
	b->zero_from = p;
	for (i = 0; i < b->nwarps; i++) {
		b->warps[i].preds = (u32 *)p;
		p += (f->npreds + 1) * sizeof(u32);
	}
	p = b->zero_from + NRT_ALIGN((u64)b->nwarps * (f->npreds + 1) * sizeof(u32));
	b->shared = p;
	b->local = p + NRT_ALIGN(b->shared_bytes);
}

struct vgpu_native_block *vgpu_native_block_new(struct vgpu_native_kernel *k,
						const struct vgpu_launch *l,
						const struct vgpu_range *ranges,
						u32 nranges)
{
	struct nrt_block *b = calloc(1, sizeof(*b));
	u64 nthreads = (u64)l->block[0] * l->block[1] * l->block[2];
	u64 nwarps = (nthreads + 31) / 32, bytes, t;

	if (!b)
		return NULL;
	b->k = k;
	b->l = l;
	b->nthreads = (u32)nthreads;
	b->nwarps = (u32)nwarps;
	b->shared_bytes = (u64)k->func.shared_bytes + l->dyn_shared;
	b->local_bytes = k->func.local_bytes;
	b->ranges = malloc(sizeof(*ranges) * (nranges ? nranges : 1));
	b->sites = calloc(k->ninsns, sizeof(*b->sites));
	b->tid = malloc(nwarps * 3 * VGPU_WARP * sizeof(u64));
	b->uni = calloc(2 * (u64)k->func.nregs + 1, sizeof(u64));
	b->regs_bytes = NRT_ALIGN(nwarps * k->func.nregs * VGPU_WARP * sizeof(u64));
	bytes = NRT_ALIGN(nwarps * sizeof(struct nrt_warp)) + b->regs_bytes +
		NRT_ALIGN(nwarps * (k->func.npreds + 1) * sizeof(u32)) +
		NRT_ALIGN(b->shared_bytes) + NRT_ALIGN(nthreads * b->local_bytes);
	b->mem = aligned_alloc(64, bytes);
	if (!b->ranges || !b->mem || !b->sites || !b->tid || !b->uni) {
		free(b->uni);
		free(b->ranges);
		free(b->mem);
		free(b->sites);
		free(b->tid);
		free(b);
		return NULL;
	}
	for (t = 0; t < nwarps * VGPU_WARP; t++) {
		u64 *w = b->tid + t / VGPU_WARP * 3 * VGPU_WARP + t % VGPU_WARP;

		w[0] = t % l->block[0];
		w[VGPU_WARP] = t / l->block[0] % l->block[1];
		w[2 * VGPU_WARP] = t / l->block[0] / l->block[1];
	}
	if (nranges)
		memcpy(b->ranges, ranges, sizeof(*ranges) * nranges);
	b->nranges = nranges;
	b->mem_bytes = bytes;
	memset(b->mem, 0, bytes);
	nrt_block_layout(b);
	return (struct vgpu_native_block *)b;
}

int vgpu_native_block_set_ranges(struct vgpu_native_block *nb,
				 const struct vgpu_range *ranges, u32 nranges)
{
	struct nrt_block *b = (struct nrt_block *)nb;
	struct vgpu_range *r = malloc(sizeof(*r) * (nranges ? nranges : 1));

	if (!r)
		return -1;
	if (nranges)
		memcpy(r, ranges, sizeof(*r) * nranges);
	free(b->ranges);
	b->ranges = r;
	b->nranges = nranges;
	memset(b->sites, 0, sizeof(*b->sites) * b->k->ninsns);
	return 0;
}

void vgpu_native_block_set_lookup(struct vgpu_native_block *nb,
				  vgpu_native_lookup_fn lookup, void *arg)
{
	struct nrt_block *b = (struct nrt_block *)nb;

	b->lookup = lookup;
	b->lookup_arg = arg;
}

/* The lanes' state but @pc, which vgpu_lanes_start() sets whole. */
#define NRT_LANES_REST (sizeof(struct vgpu_lanes) - sizeof(((struct vgpu_lanes *)0)->pc))
_Static_assert(offsetof(struct vgpu_lanes, pc) == 0, "pc leads struct vgpu_lanes");

void vgpu_native_block_start(struct vgpu_native_block *nb, u32 block_index)
{
	struct nrt_block *b = (struct nrt_block *)nb;
	const struct vgpu_launch *l = b->l;
	const struct vgpu_native_kernel *k = b->k;
	u32 nwarps = b->nwarps, nzero = k->nzero, entry = k->func.entry, i, m;

	/* (Three divisions a block, unless the grid is one row.) */
	if (l->grid[1] == 1 && l->grid[2] == 1) {
		b->ctaid[0] = block_index;
		b->ctaid[1] = 0;
		b->ctaid[2] = 0;
	} else {
		b->ctaid[0] = block_index % l->grid[0];
		b->ctaid[1] = block_index / l->grid[0] % l->grid[1];
		b->ctaid[2] = block_index / l->grid[0] / l->grid[1];
	}
	b->sr_uni[VGPU_SR_NTID_X] = l->block[0];
	b->sr_uni[VGPU_SR_NTID_Y] = l->block[1];
	b->sr_uni[VGPU_SR_NTID_Z] = l->block[2];
	b->sr_uni[VGPU_SR_CTAID_X] = b->ctaid[0];
	b->sr_uni[VGPU_SR_CTAID_Y] = b->ctaid[1];
	b->sr_uni[VGPU_SR_CTAID_Z] = b->ctaid[2];
	b->sr_uni[VGPU_SR_NCTAID_X] = l->grid[0];
	b->sr_uni[VGPU_SR_NCTAID_Y] = l->grid[1];
	b->sr_uni[VGPU_SR_NCTAID_Z] = l->grid[2];
	b->sr_uni[VGPU_SR_NWARPID] = nwarps;
	b->sr_uni[VGPU_SR_SMID] = l->smid;
	b->sr_uni[VGPU_SR_NSMID] = l->nsmid;
	b->sr_uni[VGPU_SR_DYN_SMEM] = l->dyn_shared;
	b->sr_uni[VGPU_SR_GRID_SYNC_HI] = (u32)(l->grid_sync >> 32);
	b->sr_uni[VGPU_SR_GRID_SYNC_LO] = (u32)l->grid_sync;
	b->fault = (struct vgpu_fault){ 0 };
	if (k->block_fn) {
		/*
		 * The block function keeps registers and predicates as values
		 * of its own: only the block's memories start cleared. The
		 * phased one finds where each warp is, and its lanes, in the
		 * warp.
		 */
		if (b->shared_bytes || b->local_bytes)
			memset(b->shared, 0, (u8 *)b->mem + b->mem_bytes - b->shared);
		b->next = 0;
		for (i = 0; k->phased && i < nwarps; i++) {
			m = b->nthreads - i * VGPU_WARP;
			b->warps[i].ls.live = m >= VGPU_WARP ? ~0U : (1U << m) - 1;
			b->warps[i].ls.cur_pc = entry;
		}
		return;
	}
	/*
	 * Clear what the code may read before writing: the warps' lanes,
	 * the registers the analysis names, predicates and memories. The
	 * layout (b->warps' pointers) stays from vgpu_native_block_new().
	 */
	memset(b->zero_from, 0, (u8 *)b->mem + b->mem_bytes - b->zero_from);
	for (i = 0; i < nwarps; i++) {
		struct nrt_warp *w = &b->warps[i];
		u32 z;

		memset((u8 *)&w->ls + sizeof(w->ls.pc), 0, NRT_LANES_REST);
		vgpu_lanes_start(&w->ls, b->nthreads - i * 32, entry);
		nrt_set_thresh(w);
		w->slice_left = 0;
		for (z = 0; z < nzero; z++)
			memset(w->regs + (u64)k->zero_regs[z] * VGPU_WARP, 0,
			       VGPU_WARP * sizeof(u64));
	}
	b->live_warps = nwarps;
	b->next = 0;
	/* A barrier not in use is all zeros (vgpu_bar_complete()). */
	for (m = b->bars_used; m; m &= m - 1)
		b->bars[__builtin_ctz(m)] = (struct vgpu_barrier){ 0 };
	b->bars_used = 0;
}

/*
 * As vgpu_block_run(): warps take turns of VGPU_WARP_SLICE instructions
 * within @budget, so that warps interleave (and a warp spinning on a
 * flag another sets lets it run) exactly as on the interpreter. A kernel
 * with a block function runs the block through it, whatever @budget.
 */
int vgpu_native_block_run(struct vgpu_native_block *nb, u32 budget)
{
	struct nrt_block *b = (struct nrt_block *)nb;
	u32 used = 0, i;

	/* A straight run: the whole block in one call, its work bounded. */
	if (b->k->block_fn)
		return b->k->block_fn(b);
	while (used < budget) {
		bool ran = false, live = false;

		for (i = 0; i < b->nwarps && used < budget; i++) {
			struct nrt_warp *w = &b->warps[b->next];
			u32 slice = used + VGPU_WARP_SLICE, turn;
			int r;

			b->next = (b->next + 1) % b->nwarps;
			if (!(w->ls.live & ~w->ls.at_bar))
				continue;
			if (w->ls.cur_mask & w->ls.at_bar)
				continue;
			if (!w->ls.cur_mask && !nrt_group_pick(w, 0))
				continue;
			turn = (slice < budget ? slice : budget) - used;
			nrt_set_thresh(w);
			w->slice_left = turn;
			r = b->k->fn(w);
			used += turn - w->slice_left;
			if (r == VGPU_RUN_FAULT)
				return VGPU_RUN_FAULT;
			ran |= turn != w->slice_left;
		}
		for (i = 0; i < b->nwarps; i++)
			live |= b->warps[i].ls.live != 0;
		if (!live)
			return VGPU_RUN_DONE;
		if (!ran) {
			struct nrt_warp *w = &b->warps[0];

			b->fault.kind = VGPU_FAULT_DEADLOCK;
			b->fault.insn = w->ls.cur_pc;
			b->fault.thread = 0;
			b->fault.addr = 0;
			return VGPU_RUN_FAULT;
		}
	}
	return VGPU_RUN_MORE;
}

const struct vgpu_fault *vgpu_native_block_fault(const struct vgpu_native_block *nb)
{
	return &((const struct nrt_block *)nb)->fault;
}

void vgpu_native_block_free(struct vgpu_native_block *nb)
{
	struct nrt_block *b = (struct nrt_block *)nb;

	if (!b)
		return;
	free(b->mem);
	free(b->ranges);
	free(b->sites);
	free(b->tid);
	free(b->uni);
	free(b);
}
