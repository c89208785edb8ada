// SPDX-License-Identifier: MIT
/*
 * The native engine's scheduling of lanes and warps: the interpreter's
 * rules (core/group.h) on the native warp state, so that groups run in
 * the same order and faults name the same instruction and thread. The
 * generated code runs the group straight on and calls in here only where
 * the group may change; what is the native engine's own is w->thresh,
 * which tells generated code when to ask.
 */
#include "native_rt.h"
#include "warpsync.h"

/* Where generated code must stop and ask nrt_check(). */
void nrt_set_thresh(struct nrt_warp *w)
{
	const struct vgpu_lanes *ls = &w->ls;

	if (!ls->cur_mask)
		w->thresh = 0;
	else if (!ls->others)
		w->thresh = ~0U;
	else if (ls->fair || ls->loops >= VGPU_FAIR_LOOPS)
		w->thresh = 0;
	else
		w->thresh = ls->min_other;
}

int nrt_fail(struct nrt_warp *w, u32 lanes, u32 kind, u64 addr)
{
	struct nrt_block *b = w->blk;

	b->fault.kind = kind;
	b->fault.insn = w->ls.cur_pc;
	b->fault.thread = w->index * 32 + __builtin_ctz(lanes);
	b->fault.addr = addr;
	return NRT_FAULT;
}

bool nrt_group_pick(struct nrt_warp *w, u32 handover)
{
	bool r = vgpu_group_pick(&w->ls, w->blk->k->insns, handover);

	nrt_set_thresh(w);
	return r;
}

/*
 * Before instruction w->ls.cur_pc, which the group reached: the
 * interpreter's vgpu_group_check() after the step that led there.
 */
int nrt_check(struct nrt_warp *w)
{
	int r = vgpu_group_check(&w->ls, w->blk->k->insns);

	nrt_set_thresh(w);
	if (r == VGPU_GROUP_SAME)
		return NRT_GO_ON;
	return r == VGPU_GROUP_NEW ? NRT_DISPATCH : NRT_STOP;
}

/*
 * A branch that lanes @em of the group (not all, not none) take. When the
 * group is every runnable lane of the warp, the pick that follows needs
 * no search: the two halves are the only lanes, the one at the lower pc
 * runs and the other waits there (vgpu_group_pick()'s result, without
 * its passes over the warp's 32 pcs).
 */
int nrt_diverge(struct nrt_warp *w, u32 em, u32 target)
{
	struct vgpu_lanes *ls = &w->ls;
	u32 m, next = ls->cur_pc + 1, rest = ls->cur_mask & ~em;
	bool alone = (ls->live & ~ls->at_bar & ~ls->waiting) == ls->cur_mask;

	for (m = em; m; m &= m - 1)
		ls->pc[__builtin_ctz(m)] = target;
	for (m = rest; m; m &= m - 1)
		ls->pc[__builtin_ctz(m)] = next;
	if (!alone) {
		ls->cur_mask = 0;
		return nrt_group_pick(w, 0) ? NRT_DISPATCH : NRT_STOP;
	}
	if (target == next) {
		ls->others = 0;
		ls->min_other = ~0U;
	} else {
		ls->cur_mask = target < next ? em : rest;
		ls->others = target < next ? rest : em;
		ls->min_other = target < next ? next : target;
		next = target < next ? target : next;
	}
	ls->cur_pc = next;
	ls->loops = 0;
	ls->fair = 0;
	nrt_set_thresh(w);
	return NRT_DISPATCH;
}

/* --- barriers ------------------------------------------------------------ */

static void nrt_bar_check(struct nrt_block *b, u32 id)
{
	struct vgpu_barrier br;
	u32 i;

	if (!vgpu_bar_complete(b->bars, &b->bars_used, b->live_warps, id, &br))
		return;
	for (i = 0; i < b->nwarps; i++) {
		struct nrt_warp *w = &b->warps[i];

		if (!w->ls.counted || w->ls.bar != id)
			continue;
		vgpu_bar_release(&w->ls, b->k->insns, w->regs, w->preds, &br);
		nrt_set_thresh(w);
	}
}

static void nrt_bar_arrival(struct nrt_block *b, struct nrt_warp *w)
{
	if (vgpu_bar_count_in(&w->ls, b->bars, &b->bars_used))
		nrt_bar_check(b, w->ls.bar);
}

static void nrt_bar_exit(struct nrt_block *b, struct nrt_warp *w)
{
	u32 m = vgpu_bar_exit(&w->ls, b->bars, &b->bars_used, &b->live_warps);

	for (; m; m &= m - 1)
		nrt_bar_check(b, __builtin_ctz(m));
}

/*
 * EXIT for lanes @em of the group. A warp with no lane left stops here:
 * nrt_check() before the next instruction could only find that (no
 * lane waits when none is live), so its pc moves on as that check's
 * would, without the round trip.
 */
int nrt_exit(struct nrt_warp *w, u32 em)
{
	w->ls.live &= ~em;
	w->ls.cur_mask &= ~em;
	if (em && (w->ls.at_bar || !w->ls.live))
		nrt_bar_exit(w->blk, w);
	nrt_set_thresh(w);
	if (w->ls.live)
		return NRT_GO_ON;
	w->ls.cur_pc++;
	return NRT_STOP;
}

/*
 * BAR and BAR_RED for lanes @em (nonzero) of the group at w->ls.cur_pc,
 * whose register operands and predicates are in the warp state. NRT_GO_ON
 * to go on at the next instruction, NRT_STOP when the warp is parked
 * there, NRT_FAULT.
 */
int nrt_bar(struct nrt_warp *w, u32 em)
{
	const struct vgpu_insn *in = &w->blk->k->insns[w->ls.cur_pc];
	u32 pc = w->ls.cur_pc, id, count, kind;
	bool whole;

	if (!vgpu_bar_operands(w->regs, in, __builtin_ctz(em), &id, &count))
		return nrt_fail(w, em, VGPU_FAULT_TRAP, 0);
	kind = vgpu_bar_enter(&w->ls, in, w->preds, em, id, count, pc + 1,
			      &whole);
	if (kind)
		return nrt_fail(w, em, kind, 0);
	nrt_bar_arrival(w->blk, w);
	nrt_set_thresh(w);
	if (whole && (w->ls.cur_mask & w->ls.at_bar))
		return NRT_STOP;
	if (whole)
		w->ls.cur_pc--;	/* generated code moves on itself */
	return NRT_GO_ON;
}

/* --- warp-synchronous instructions ----------------------------------------- */

/*
 * SHFL, VOTE, MATCH or WARPSYNC at w->ls.cur_pc, with the registers and
 * predicates in the warp state: the group waits for its member lanes
 * (NRT_DISPATCH or NRT_STOP: another group runs, or none can), or, with
 * them all there, runs the instruction (NRT_GO_ON).
 */
int nrt_warp_sync(struct nrt_warp *w)
{
	const struct vgpu_insn *code = w->blk->k->insns;
	const struct vgpu_insn *in = &code[w->ls.cur_pc];
	u32 em;

	if (!vgpu_warp_gate(&w->ls, code, in))
		return nrt_group_pick(w, 0) ? NRT_DISPATCH : NRT_STOP;
	em = w->ls.cur_mask;
	if (in->guard != VGPU_PRED_NONE)
		em &= in->flags & VGPU_IF_GUARD_NOT ? ~w->preds[in->guard] :
		      w->preds[in->guard];
	if (in->op == VGPU_OP_SHFL)
		vgpu_shfl(w->regs, w->preds, in, em);
	else if (in->op == VGPU_OP_VOTE)
		vgpu_vote(w->regs, w->preds, in, em);
	else if (in->op == VGPU_OP_MATCH)
		vgpu_match(w->regs, w->preds, in, em);
	nrt_set_thresh(w);
	return NRT_GO_ON;
}
