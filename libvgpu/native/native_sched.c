// SPDX-License-Identifier: MIT
/*
 * The native engine's scheduling of lanes and warps: the interpreter's
 * rules (core/interp.c) on the native warp state, so that groups run in
 * the same order and faults name the same instruction and thread. The
 * generated code runs the group straight on and calls in here only where
 * the group may change.
 */
#include "native_rt.h"
#include "warpsync.h"

static u32 nrt_min_pc(const struct nrt_warp *w, u32 lanes)
{
	u32 best = ~0U, lane;

	for (lane = 0; lane < VGPU_WARP; lane++) {
		u32 pc = lanes >> lane & 1 ? w->pc[lane] : ~0U;

		best = pc < best ? pc : best;
	}
	return best;
}

static u32 nrt_lanes_at(const struct nrt_warp *w, u32 lanes, u32 pc)
{
	u32 at = 0, lane;

	for (lane = 0; lane < VGPU_WARP; lane++)
		at |= (u32)(w->pc[lane] == pc) << lane;
	return at & lanes;
}

/* The member mask of the warp-synchronous instruction at @pc, or 0. */
static u32 nrt_sync_mask(const struct nrt_warp *w, u32 pc)
{
	const struct vgpu_insn *in = &w->blk->k->insns[pc];

	switch (in->op) {
	case VGPU_OP_SHFL:
	case VGPU_OP_VOTE:
	case VGPU_OP_MATCH:
	case VGPU_OP_WARPSYNC:
		return (u32)in->imm & w->live;
	}
	return 0;
}

/* Nothing else can run: waiting lanes whose other members exited go on. */
static u32 nrt_release_waiting(struct nrt_warp *w)
{
	u32 m = w->waiting, freed = 0;

	while (m) {
		u32 pc = w->pc[__builtin_ctz(m)];
		u32 at = nrt_lanes_at(w, m, pc);

		m &= ~at;
		if (!(nrt_sync_mask(w, pc) & ~at))
			freed |= at;
	}
	w->waiting &= ~freed;
	return freed;
}

/* Where generated code must stop and ask nrt_check(). */
void nrt_set_thresh(struct nrt_warp *w)
{
	if (!w->cur_mask)
		w->thresh = 0;
	else if (!w->others)
		w->thresh = ~0U;
	else if (w->fair || w->loops >= NRT_FAIR_LOOPS)
		w->thresh = 0;
	else
		w->thresh = w->min_other;
}

int nrt_fail(struct nrt_warp *w, u32 lanes, u32 kind, u64 addr)
{
	struct nrt_block *b = w->blk;

	b->fault.kind = kind;
	b->fault.insn = w->cur_pc;
	b->fault.thread = w->index * 32 + __builtin_ctz(lanes);
	b->fault.addr = addr;
	return NRT_FAULT;
}

static void nrt_group_save(struct nrt_warp *w)
{
	u32 m = w->cur_mask;

	while (m) {
		u32 lane = __builtin_ctz(m);

		m &= m - 1;
		w->pc[lane] = w->cur_pc;
	}
	w->cur_mask = 0;
}

bool nrt_group_pick(struct nrt_warp *w, u32 handover)
{
	u32 runnable, from, pc;

	nrt_group_save(w);
	runnable = w->live & ~w->at_bar & ~w->waiting;
	if (!runnable && w->waiting)
		runnable = nrt_release_waiting(w);
	if (!runnable) {
		nrt_set_thresh(w);
		return false;
	}
	from = runnable;
	if (handover && (runnable & ~handover))
		from = runnable & ~handover;
	pc = nrt_min_pc(w, from);
	w->cur_pc = pc;
	w->cur_mask = nrt_lanes_at(w, runnable, pc);
	w->others = runnable & ~w->cur_mask;
	w->min_other = w->others ? nrt_min_pc(w, w->others) : ~0U;
	w->loops = 0;
	w->fair = handover ? NRT_FAIR_SLICE : 0;
	nrt_set_thresh(w);
	return true;
}

/*
 * Before instruction w->cur_pc, which the group reached: the
 * interpreter's vgpu_group_check() after the step that led there.
 */
int nrt_check(struct nrt_warp *w)
{
	int r = NRT_GO_ON;

	if (!w->cur_mask) {
		r = nrt_group_pick(w, 0) ? NRT_DISPATCH : NRT_STOP;
	} else if (!w->others) {
		r = NRT_GO_ON;
	} else if (w->fair) {
		w->fair--;
	} else if (w->loops >= NRT_FAIR_LOOPS) {
		r = nrt_group_pick(w, w->cur_mask) ? NRT_DISPATCH : NRT_STOP;
	} else if (w->cur_pc < w->min_other) {
		r = NRT_GO_ON;
	} else if (w->cur_pc == w->min_other) {
		u32 join = nrt_lanes_at(w, w->others, w->cur_pc);

		w->cur_mask |= join;
		w->others &= ~join;
		w->min_other = w->others ? nrt_min_pc(w, w->others) : ~0U;
	} else {
		r = nrt_group_pick(w, 0) ? NRT_DISPATCH : NRT_STOP;
	}
	nrt_set_thresh(w);
	return r;
}

/* A branch that lanes @em of the group (not all, not none) take. */
int nrt_diverge(struct nrt_warp *w, u32 em, u32 target)
{
	u32 m;

	for (m = em; m; m &= m - 1)
		w->pc[__builtin_ctz(m)] = target;
	for (m = w->cur_mask & ~em; m; m &= m - 1)
		w->pc[__builtin_ctz(m)] = w->cur_pc + 1;
	w->cur_mask = 0;
	return nrt_group_pick(w, 0) ? NRT_DISPATCH : NRT_STOP;
}

/* --- barriers ------------------------------------------------------------ */

static void nrt_bar_wake(struct nrt_warp *w, u32 lanes)
{
	bool parked = w->cur_mask & w->at_bar;
	u32 back = lanes & ~w->cur_mask;

	w->at_bar &= ~lanes;
	w->bar_arrive &= ~lanes;
	if (w->cur_mask && !parked && back) {
		w->others |= back;
		w->min_other = nrt_min_pc(w, w->others);
	}
	nrt_set_thresh(w);
}

/*
 * Barrier @br completes: lanes of @w waiting at a BAR_RED get its
 * reduction (a parked warp's lanes wait after its cur_pc, others after
 * their own pc), in the register file and predicates of the warp state.
 */
static void nrt_bar_results(struct nrt_block *b, struct nrt_warp *w,
			    const struct nrt_barrier *br)
{
	u32 m, lane;

	for (m = w->at_bar; m; m &= m - 1) {
		const struct vgpu_insn *in;
		u32 pc;

		lane = __builtin_ctz(m);
		pc = (w->cur_mask >> lane & 1) ? w->cur_pc : w->pc[lane];
		in = &b->k->insns[pc - 1];
		if (in->op != VGPU_OP_BAR_RED)
			continue;
		if (in->mod == VGPU_BAR_POPC) {
			w->regs[(u64)in->dst * VGPU_WARP + lane] = br->red_true;
		} else {
			bool v = in->mod == VGPU_BAR_AND ? !br->red_false :
				 br->red_true != 0;

			w->preds[in->dst] = (w->preds[in->dst] & ~(1U << lane)) |
					    (u32)v << lane;
		}
	}
}

static void nrt_bar_check(struct nrt_block *b, u32 id)
{
	struct nrt_barrier *br = &b->bars[id];
	u32 need = br->count ? br->count : b->live_warps * VGPU_WARP, i;
	bool red = br->red_true || br->red_false;

	if (!br->arrived || br->arrived < need)
		return;
	for (i = 0; i < b->nwarps; i++) {
		struct nrt_warp *w = &b->warps[i];

		if (!w->counted || w->bar != id)
			continue;
		if (red)
			nrt_bar_results(b, w, br);
		w->counted = false;
		nrt_bar_wake(w, w->at_bar);
	}
	*br = (struct nrt_barrier){ 0 };
	b->bars_used &= ~(1U << id);
}

static void nrt_bar_arrival(struct nrt_block *b, struct nrt_warp *w)
{
	struct nrt_barrier *br = &b->bars[w->bar];

	if (!w->at_bar || w->counted || (w->live & ~w->at_bar))
		return;
	if (!br->arrived) {
		br->count = w->bar_count;
		b->bars_used |= 1U << w->bar;
	}
	br->arrived += VGPU_WARP;
	br->red_true += w->red_true;
	br->red_false += w->red_false;
	w->red_true = 0;
	w->red_false = 0;
	w->counted = true;
	if (w->bar_arrive) {
		nrt_bar_wake(w, w->bar_arrive);
		w->counted = w->at_bar != 0;
	}
	nrt_bar_check(b, w->bar);
}

static void nrt_bar_exit(struct nrt_block *b, struct nrt_warp *w)
{
	u32 m, id;

	if (w->live) {
		nrt_bar_arrival(b, w);
		return;
	}
	b->live_warps--;
	for (m = b->bars_used; m; m &= m - 1) {
		id = __builtin_ctz(m);
		if (!b->bars[id].count)
			nrt_bar_check(b, id);
	}
}

/* EXIT for lanes @em of the group. */
int nrt_exit(struct nrt_warp *w, u32 em)
{
	w->live &= ~em;
	w->cur_mask &= ~em;
	if (em && (w->at_bar || !w->live))
		nrt_bar_exit(w->blk, w);
	nrt_set_thresh(w);
	return NRT_GO_ON;
}

/*
 * BAR and BAR_RED for lanes @em (nonzero) of the group at w->cur_pc,
 * whose register operands and predicates are in the warp state. NRT_GO_ON to go on at the next instruction,
 * NRT_STOP when the warp is parked there, NRT_FAULT.
 */
int nrt_bar(struct nrt_warp *w, u32 em)
{
	const struct vgpu_insn *in = &w->blk->k->insns[w->cur_pc];
	bool whole = em == w->cur_mask && em == w->live && !w->waiting;
	u32 lane = __builtin_ctz(em), id, count = 0, m;
	struct nrt_block *b = w->blk;

	id = (u32)in->imm;
	if (in->mod2 & VGPU_BAR_ID_REG)
		id = (u32)w->regs[(u64)in->c * VGPU_WARP + lane];
	if (in->mod2 & VGPU_BAR_COUNT) {
		count = in->flags & VGPU_IF_B_IMM ? in->b :
			(u32)w->regs[(u64)in->b * VGPU_WARP + lane];
		if (!count || count % VGPU_WARP)
			return nrt_fail(w, em, VGPU_FAULT_TRAP, 0);
	}
	if (id >= VGPU_MAX_BARRIERS)
		return nrt_fail(w, em, VGPU_FAULT_TRAP, 0);
	if (w->at_bar && w->bar != id)
		return nrt_fail(w, em, VGPU_FAULT_DEADLOCK, 0);
	if (!w->at_bar) {
		w->bar = (u8)id;
		w->bar_count = count;
	}
	if (in->op == VGPU_OP_BAR_RED) {
		u32 p = w->preds[in->a];

		w->red_true += (u32)__builtin_popcount(em & p);
		w->red_false += (u32)__builtin_popcount(em & ~p);
	} else if (in->mod == VGPU_BAR_ARRIVE) {
		w->bar_arrive |= em;
	}
	w->at_bar |= em;
	if (whole) {
		w->cur_pc++;
	} else {
		for (m = em; m; m &= m - 1)
			w->pc[__builtin_ctz(m)] = w->cur_pc + 1;
		w->cur_mask &= ~em;
	}
	nrt_bar_arrival(b, w);
	nrt_set_thresh(w);
	if (whole && (w->cur_mask & w->at_bar))
		return NRT_STOP;
	if (whole)
		w->cur_pc--;	/* generated code moves on itself */
	return NRT_GO_ON;
}

/* --- warp-synchronous instructions ----------------------------------------- */

static u32 nrt_waiting_at_warpsync(const struct nrt_warp *w)
{
	u32 m, at = 0;

	for (m = w->waiting; m; m &= m - 1) {
		u32 lane = __builtin_ctz(m);

		if (w->blk->k->insns[w->pc[lane]].op == VGPU_OP_WARPSYNC)
			at |= 1U << lane;
	}
	return at;
}

/* The interpreter's gate: are the member lanes all here? */
static bool nrt_warp_gate(struct nrt_warp *w, const struct vgpu_insn *in)
{
	u32 need = (u32)in->imm & w->live, here, away = 0, m;

	here = w->cur_mask | nrt_lanes_at(w, w->waiting, w->cur_pc);
	if (in->op == VGPU_OP_WARPSYNC)
		away = nrt_waiting_at_warpsync(w) & ~here;
	if (!(need & ~(here | away))) {
		for (m = away; m; m &= m - 1)
			w->pc[__builtin_ctz(m)]++;
		w->waiting &= ~(here | away);
		w->others = (w->others & ~here) | away;
		if (away)
			w->min_other = nrt_min_pc(w, w->others);
		w->cur_mask = here;
		return true;
	}
	for (m = w->cur_mask; m; m &= m - 1)
		w->pc[__builtin_ctz(m)] = w->cur_pc;
	w->waiting |= w->cur_mask;
	w->cur_mask = 0;
	return false;
}

/*
 * SHFL, VOTE, MATCH or WARPSYNC at w->cur_pc, with the registers and
 * predicates in the warp state: the group waits for its member lanes
 * (NRT_DISPATCH or NRT_STOP: another group runs, or none can), or, with
 * them all there, runs the instruction (NRT_GO_ON).
 */
int nrt_warp_sync(struct nrt_warp *w)
{
	const struct vgpu_insn *in = &w->blk->k->insns[w->cur_pc];
	u32 em;

	if (!nrt_warp_gate(w, in))
		return nrt_group_pick(w, 0) ? NRT_DISPATCH : NRT_STOP;
	em = w->cur_mask;
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
