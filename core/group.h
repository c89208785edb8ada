/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * Which lanes of a warp run, and how they wait at barriers: the rules
 * the interpreter defines and the native engine (libvgpu/native) must
 * follow to the letter, so that groups run in the same order and faults
 * name the same instruction and thread. Both engines embed struct
 * vgpu_lanes in their warp state and call these; what differs (how a
 * block finds its warps, what a warp's code is) stays in each engine.
 * Inline: the interpreter runs the group checks every step.
 */
#ifndef VGPU_GROUP_H
#define VGPU_GROUP_H

#include "core.h"
#include "intops.h"

#define VGPU_FAIR_LOOPS 64
#define VGPU_FAIR_HOLD 64
#define VGPU_WARP_SLICE 512

/*
 * struct vgpu_lanes - a warp's lanes: where each is, which group runs.
 * @pc: each lane's next instruction (lanes of the group: see @cur_pc).
 * @live: lanes that have not exited.
 * @at_bar: lanes waiting at block barrier @bar (all at the same one: a
 *	warp arrives whole, so lanes at two barriers could never go on).
 * @bar_arrive: lanes of @at_bar that only arrive: they wait for the rest
 *	of the warp, not for the barrier.
 * @bar_count: the thread count the first of @at_bar's lanes named.
 * @red_true, @red_false: BAR_RED lanes of @at_bar whose predicate held,
 *	and those whose did not; they join the barrier with the warp.
 * @bar: the barrier; @counted: the warp's arrival there is counted.
 * @waiting: lanes waiting at a warp-synchronous instruction for others.
 * @cc: each lane's carry flag.
 * @cur_pc, @cur_mask: the group being run.
 * @others: runnable lanes outside the group; @min_other: their lowest pc.
 * @loops: backward branches the group took since it was chosen.
 * @fair: backward branches left in which the group is not switched for
 *	others.
 */
struct vgpu_lanes {
	u32 pc[VGPU_WARP];
	u32 live;
	u32 at_bar;
	u32 bar_arrive;
	u32 bar_count;
	u32 red_true;
	u32 red_false;
	u8 bar;
	bool counted;
	u32 waiting;
	u32 cc;
	u32 cur_pc;
	u32 cur_mask;
	u32 others;
	u32 min_other;
	u32 loops;
	u32 fair;
};

/*
 * struct vgpu_barrier - one of a block's barriers, in its current use.
 * @arrived: threads arrived (32 a warp).
 * @count: threads it waits for, as the first warp to arrive named it
 *	(0: the block's warps that have not exited).
 * @red_true, @red_false: BAR_RED arrivals whose predicate held, and
 *	those whose did not.
 */
struct vgpu_barrier {
	u32 arrived;
	u32 count;
	u32 red_true;
	u32 red_false;
};

/* What vgpu_group_check() found. */
#define VGPU_GROUP_NONE 0	/* no lane of the warp can run */
#define VGPU_GROUP_SAME 1	/* the group goes on (perhaps joined) */
#define VGPU_GROUP_NEW 2	/* another group was chosen */

/* --- choosing the group a warp runs ------------------------------------ */

/*
 * A warp starts (its state zeroed): @threads of the block's threads from
 * its first on (32 or more: all its lanes) at @entry, one group.
 */
static inline void vgpu_lanes_start(struct vgpu_lanes *ls, u32 threads,
				    u32 entry)
{
	u32 lane;

	ls->live = threads >= VGPU_WARP ? ~0U : (1U << threads) - 1;
	for (lane = 0; lane < VGPU_WARP; lane++)
		ls->pc[lane] = entry;
	/* The whole warp is the group to run (vgpu_group_pick()). */
	ls->cur_pc = entry;
	ls->cur_mask = ls->live;
	ls->min_other = ~0U;
}

/*
 * The lowest pc among @lanes (nonzero), and the lanes of @lanes at @pc:
 * loops over the whole warp without branches, which compilers vectorise.
 */
static inline u32 vgpu_min_pc(const struct vgpu_lanes *ls, u32 lanes)
{
	u32 best = ~0U, lane;

	for (lane = 0; lane < VGPU_WARP; lane++) {
		u32 pc = lanes >> lane & 1 ? ls->pc[lane] : ~0U;

		best = pc < best ? pc : best;
	}
	return best;
}

static inline u32 vgpu_lanes_at(const struct vgpu_lanes *ls, u32 lanes, u32 pc)
{
	u32 at = 0, lane;

	for (lane = 0; lane < VGPU_WARP; lane++)
		at |= (u32)(ls->pc[lane] == pc) << lane;
	return at & lanes;
}

/* The member mask of the warp-synchronous instruction at @pc, or 0. */
static inline u32 vgpu_sync_mask(const struct vgpu_lanes *ls,
				 const struct vgpu_insn *code, u32 pc)
{
	switch (code[pc].op) {
	case VGPU_OP_SHFL:
	case VGPU_OP_VOTE:
	case VGPU_OP_MATCH:
	case VGPU_OP_WARPSYNC:
		return (u32)code[pc].imm & ls->live;
	}
	return 0;
}

/*
 * Nothing else can run: lanes waiting at a warp-synchronous instruction
 * whose other members have exited since may go on. Returns them.
 */
static inline u32 vgpu_release_waiting(struct vgpu_lanes *ls,
				       const struct vgpu_insn *code)
{
	u32 m = ls->waiting, freed = 0;

	while (m) {
		u32 pc = ls->pc[__builtin_ctz(m)];
		u32 at = vgpu_lanes_at(ls, m, pc);

		m &= ~at;
		if (!(vgpu_sync_mask(ls, code, pc) & ~at))
			freed |= at;
	}
	ls->waiting &= ~freed;
	return freed;
}

/* Leaves the current group: its lanes keep their pc. */
static inline void vgpu_group_save(struct vgpu_lanes *ls)
{
	u32 m = ls->cur_mask;

	while (m) {
		u32 lane = __builtin_ctz(m);

		m &= m - 1;
		ls->pc[lane] = ls->cur_pc;
	}
	ls->cur_mask = 0;
}

/*
 * Chooses the next group among the runnable lanes: the lowest pc, or with
 * @handover the lowest pc of lanes outside the group just left. False
 * when no lane of the warp can run.
 */
static inline bool vgpu_group_pick(struct vgpu_lanes *ls,
				   const struct vgpu_insn *code, u32 handover)
{
	u32 runnable, from, pc;

	vgpu_group_save(ls);
	runnable = ls->live & ~ls->at_bar & ~ls->waiting;
	if (!runnable && ls->waiting)
		runnable = vgpu_release_waiting(ls, code);
	if (!runnable)
		return false;
	from = runnable;
	if (handover && (runnable & ~handover))
		from = runnable & ~handover;
	pc = vgpu_min_pc(ls, from);
	ls->cur_pc = pc;
	ls->cur_mask = vgpu_lanes_at(ls, runnable, pc);
	ls->others = runnable & ~ls->cur_mask;
	ls->min_other = ls->others ? vgpu_min_pc(ls, ls->others) : ~0U;
	ls->loops = 0;
	ls->fair = handover ? VGPU_FAIR_HOLD : 0;
	return true;
}

static inline int vgpu_group_repick(struct vgpu_lanes *ls,
				    const struct vgpu_insn *code, u32 handover)
{
	return vgpu_group_pick(ls, code, handover) ? VGPU_GROUP_NEW :
						     VGPU_GROUP_NONE;
}

/*
 * The group took a backward branch: one more loop towards handing over,
 * one less of the hold it has after taking over. Both count branches,
 * not instructions, so that the group changes only right after a branch
 * (where every engine checks), never inside a straight run.
 */
static inline void vgpu_group_loop(struct vgpu_lanes *ls)
{
	ls->loops++;
	if (ls->fair)
		ls->fair--;
}

/*
 * After each step: take along lanes waiting where the group now is, or
 * let lower lanes go first. VGPU_GROUP_*.
 *
 * Lanes wait only where a straight run starts (a branch's target or the
 * instruction after it, after an instruction that may change the group,
 * a warp-synchronous instruction), and the group's own counts change
 * only at branches, so inside a run this finds nothing to do: the native
 * engine checks only where runs start.
 */
static inline int vgpu_group_check(struct vgpu_lanes *ls,
				   const struct vgpu_insn *code)
{
	if (!ls->cur_mask)
		return vgpu_group_repick(ls, code, 0);
	if (!ls->others || ls->fair)
		return VGPU_GROUP_SAME;
	if (ls->loops >= VGPU_FAIR_LOOPS)
		return vgpu_group_repick(ls, code, ls->cur_mask);
	if (ls->cur_pc < ls->min_other)
		return VGPU_GROUP_SAME;
	if (ls->cur_pc == ls->min_other) {
		u32 join = vgpu_lanes_at(ls, ls->others, ls->cur_pc);

		ls->cur_mask |= join;
		ls->others &= ~join;
		ls->min_other = ls->others ? vgpu_min_pc(ls, ls->others) : ~0U;
		return VGPU_GROUP_SAME;
	}
	return vgpu_group_repick(ls, code, 0);
}

/* --- warp-synchronous instructions ------------------------------------- */

/* Lanes waiting at some WARPSYNC instruction. */
static inline u32 vgpu_waiting_at_warpsync(const struct vgpu_lanes *ls,
					   const struct vgpu_insn *code)
{
	u32 m, at = 0;

	for (m = ls->waiting; m; m &= m - 1) {
		u32 lane = __builtin_ctz(m);

		if (code[ls->pc[lane]].op == VGPU_OP_WARPSYNC)
			at |= 1U << lane;
	}
	return at;
}

/*
 * Are the member lanes of @in (at cur_pc) all here? Lanes already
 * waiting at this instruction join the group; otherwise the group waits
 * for the rest.
 */
static inline bool vgpu_warp_gate(struct vgpu_lanes *ls,
				  const struct vgpu_insn *code,
				  const struct vgpu_insn *in)
{
	u32 need = (u32)in->imm & ls->live, here, away = 0, m;

	here = ls->cur_mask | vgpu_lanes_at(ls, ls->waiting, ls->cur_pc);
	/*
	 * A warp barrier meets the lanes waiting at any warp barrier, as
	 * __syncwarp() in divergent code does; those go on past their own.
	 */
	if (in->op == VGPU_OP_WARPSYNC)
		away = vgpu_waiting_at_warpsync(ls, code) & ~here;
	if (!(need & ~(here | away))) {
		for (m = away; m; m &= m - 1)
			ls->pc[__builtin_ctz(m)]++;
		ls->waiting &= ~(here | away);
		ls->others = (ls->others & ~here) | away;
		if (away)
			ls->min_other = vgpu_min_pc(ls, ls->others);
		ls->cur_mask = here;
		return true;
	}
	for (m = ls->cur_mask; m; m &= m - 1)
		ls->pc[__builtin_ctz(m)] = ls->cur_pc;
	ls->waiting |= ls->cur_mask;
	ls->cur_mask = 0;
	return false;
}

/* --- block barriers ------------------------------------------------------ */

/*
 * The barrier and thread count (0: the block) @in names for the warp, as
 * its lowest arriving lane @lane reads them from @regs. False when they
 * are not a barrier and count PTX allows.
 */
static inline bool vgpu_bar_operands(const u64 *regs,
				     const struct vgpu_insn *in, u32 lane,
				     u32 *id, u32 *count)
{
	*id = (u32)in->imm;
	if (in->mod2 & VGPU_BAR_ID_REG)
		*id = (u32)regs[(u64)in->c * VGPU_WARP + lane];
	*count = 0;
	if (in->mod2 & VGPU_BAR_COUNT) {
		*count = in->flags & VGPU_IF_B_IMM ? in->b :
			 (u32)regs[(u64)in->b * VGPU_WARP + lane];
		if (!*count || *count % VGPU_WARP)
			return false;
	}
	return *id < VGPU_MAX_BARRIERS;
}

/*
 * Lanes @em of the group arrive at BAR or BAR_RED @in, barrier @id of
 * @count threads, to go on at @next. A warp that arrives whole (every
 * live lane in one group) stays that group, parked at @next until the
 * barrier completes (*@whole set); otherwise the lanes leave the group.
 * 0, or the fault (VGPU_FAULT_DEADLOCK: the warp waits at another
 * barrier).
 */
static inline u32 vgpu_bar_enter(struct vgpu_lanes *ls,
				 const struct vgpu_insn *in, const u32 *preds,
				 u32 em, u32 id, u32 count, u32 next,
				 bool *whole)
{
	u32 m;

	*whole = em == ls->cur_mask && em == ls->live && !ls->waiting;

	if (ls->at_bar && ls->bar != id)
		return VGPU_FAULT_DEADLOCK;
	if (!ls->at_bar) {
		ls->bar = (u8)id;
		ls->bar_count = count;
	}
	if (in->op == VGPU_OP_BAR_RED) {
		m = preds[in->a];
		ls->red_true += (u32)vgpu_popcount(em & m);
		ls->red_false += (u32)vgpu_popcount(em & ~m);
	} else if (in->mod == VGPU_BAR_ARRIVE) {
		ls->bar_arrive |= em;
	}
	ls->at_bar |= em;
	if (*whole) {
		ls->cur_pc = next;
	} else {
		for (m = em; m; m &= m - 1)
			ls->pc[__builtin_ctz(m)] = next;
		ls->cur_mask &= ~em;
	}
	return 0;
}

/* @lanes of the warp, waiting at its barrier, go on. */
static inline void vgpu_bar_wake(struct vgpu_lanes *ls, u32 lanes)
{
	bool parked = ls->cur_mask & ls->at_bar;
	u32 back = lanes & ~ls->cur_mask;

	ls->at_bar &= ~lanes;
	ls->bar_arrive &= ~lanes;
	/* A group running meets them where it reaches their pc. */
	if (ls->cur_mask && !parked && back) {
		ls->others |= back;
		ls->min_other = vgpu_min_pc(ls, ls->others);
	}
}

/*
 * Barrier @br completes: lanes of the warp that wait at a BAR_RED of
 * @code get its reduction in @regs or @preds (a parked warp's lanes wait
 * after its cur_pc, others after their own pc); then they all go on.
 */
static inline void vgpu_bar_release(struct vgpu_lanes *ls,
				    const struct vgpu_insn *code, u64 *regs,
				    u32 *preds, const struct vgpu_barrier *br)
{
	u32 m, lane;

	for (m = br->red_true || br->red_false ? ls->at_bar : 0; m;
	     m &= m - 1) {
		const struct vgpu_insn *in;
		u32 pc;

		lane = __builtin_ctz(m);
		pc = (ls->cur_mask >> lane & 1) ? ls->cur_pc : ls->pc[lane];
		in = &code[pc - 1];
		if (in->op != VGPU_OP_BAR_RED)
			continue;
		if (in->mod == VGPU_BAR_POPC) {
			regs[(u64)in->dst * VGPU_WARP + lane] = br->red_true;
		} else {
			bool v = in->mod == VGPU_BAR_AND ? !br->red_false :
				 br->red_true != 0;

			preds[in->dst] = (preds[in->dst] & ~(1U << lane)) |
					 (u32)v << lane;
		}
	}
	ls->counted = false;
	vgpu_bar_wake(ls, ls->at_bar);
}

/*
 * Barrier @id of @bars is complete once its count (or the @live_warps'
 * threads) has arrived; it is then reset for its next use, with @br a
 * copy of it for vgpu_bar_release(). False while it waits on.
 */
static inline bool vgpu_bar_complete(struct vgpu_barrier *bars,
				     u32 *bars_used, u32 live_warps, u32 id,
				     struct vgpu_barrier *br)
{
	u32 need = bars[id].count ? bars[id].count : live_warps * VGPU_WARP;

	if (!bars[id].arrived || bars[id].arrived < need)
		return false;
	*br = bars[id];
	bars[id] = (struct vgpu_barrier){ 0 };
	*bars_used &= ~(1U << id);
	return true;
}

/*
 * Counts the warp's arrival at its barrier once every lane of it that
 * has not exited is there: 32 threads, whatever the number of lanes.
 * Lanes that only arrive then go on. True when it was counted: the
 * caller then sees whether the barrier is complete.
 */
static inline bool vgpu_bar_count_in(struct vgpu_lanes *ls,
				     struct vgpu_barrier *bars, u32 *bars_used)
{
	struct vgpu_barrier *br = &bars[ls->bar];

	if (!ls->at_bar || ls->counted || (ls->live & ~ls->at_bar))
		return false;
	if (!br->arrived) {
		br->count = ls->bar_count;
		*bars_used |= 1U << ls->bar;
	}
	br->arrived += VGPU_WARP;
	br->red_true += ls->red_true;
	br->red_false += ls->red_false;
	ls->red_true = 0;
	ls->red_false = 0;
	ls->counted = true;
	if (ls->bar_arrive) {
		vgpu_bar_wake(ls, ls->bar_arrive);
		ls->counted = ls->at_bar != 0;
	}
	return true;
}

/*
 * Lanes of the warp exited: the rest of the warp may now be all at its
 * barrier, and a warp gone whole is no longer waited for (one fewer of
 * @live_warps). Returns the barriers that may now be complete, for the
 * caller to see with vgpu_bar_complete().
 */
static inline u32 vgpu_bar_exit(struct vgpu_lanes *ls,
				struct vgpu_barrier *bars, u32 *bars_used,
				u32 *live_warps)
{
	u32 m, check = 0;

	if (ls->live)
		return vgpu_bar_count_in(ls, bars, bars_used) ? 1U << ls->bar : 0;
	(*live_warps)--;
	for (m = *bars_used; m; m &= m - 1)
		if (!bars[__builtin_ctz(m)].count)
			check |= 1U << __builtin_ctz(m);
	return check;
}

#endif /* VGPU_GROUP_H */
