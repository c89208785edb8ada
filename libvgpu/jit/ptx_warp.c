// SPDX-License-Identifier: MIT
/*
 * Barriers, fences and the instructions of a whole warp: bar and barrier
 * (with bar.red), membar and fence, shfl, vote, match and activemask.
 */
#include <string.h>

#include "ptx_ops.h"

/*
 * Whether PTX register @reg of the body being lowered holds one constant
 * wherever it is read: it is written once, by an unguarded mov of an
 * immediate. nvcc passes every member mask in a register so set, even a
 * constant one (__ballot_sync(0xffff, p) is "mov.u32 %r9, 65535;" and
 * then vote.sync with %r9).
 */
static bool ptx_reg_constant(const struct ptx_func *fn, uint32_t reg,
			     int64_t *value)
{
	const struct ptx_insn *def = NULL;
	uint32_t i, k;

	for (i = 0; i < fn->ninsns; i++) {
		const struct ptx_opnd *d = &fn->insns[i].opnds[0];
		bool writes = false;

		if (!fn->insns[i].nopnds)
			continue;
		if (d->kind == PTX_O_REG)
			writes = d->reg == reg;
		else if (d->kind == PTX_O_VEC)
			for (k = 0; k < d->nvec; k++)
				writes |= d->vec[k] == (int32_t)reg;
		if (!writes)
			continue;
		if (def)
			return false;
		def = &fn->insns[i];
	}
	if (!def || strcmp(def->op, "mov") || def->guarded ||
	    def->nopnds != 2 || def->opnds[1].kind != PTX_O_IMM)
		return false;
	*value = def->opnds[1].imm;
	return true;
}

/*
 * An immediate member mask, a register's that holds a constant, or the
 * whole warp for one computed at run time.
 */
static int ptx_mask(struct ptx_lower *pl, const struct ptx_insn *in,
		    const struct ptx_opnd *o, __u64 *mask)
{
	int64_t v;

	if (o->kind == PTX_O_IMM) {
		*mask = (uint32_t)o->imm;
		return 0;
	}
	if (o->kind == PTX_O_REG) {
		/*
		 * The ISA names members statically: a mask computed at run
		 * time stands for all the warp's (running) lanes.
		 */
		*mask = ptx_reg_constant(pl->f.fn, o->reg, &v) ? (uint32_t)v :
			0xffffffffU;
		return 0;
	}
	return ptx_bad(pl, in, "member mask must be a constant or a register");
}

/*
 * A block barrier's number @id and optional thread count @count (NULL:
 * none, every thread of the block), each a constant or a register, into
 * @x: the number in imm or register c, the count in b.
 */
static int ptx_bar_opnds(struct ptx_lower *pl, const struct ptx_insn *in,
			 const struct ptx_opnd *id, const struct ptx_opnd *count,
			 struct vgpu_insn *x)
{
	if (id->kind == PTX_O_IMM) {
		if (id->imm < 0 || id->imm >= VGPU_MAX_BARRIERS)
			return ptx_bad(pl, in, "barrier number must be from 0 to 15");
		x->imm = (uint64_t)id->imm;
	} else if (id->kind == PTX_O_REG) {
		x->mod2 |= VGPU_BAR_ID_REG;
		x->c = ptx_reg_of(pl, id->reg, false);
	} else {
		return ptx_bad(pl, in, "barrier number must be a constant or a register");
	}
	if (!count)
		return 0;
	x->mod2 |= VGPU_BAR_COUNT;
	if (count->kind == PTX_O_IMM) {
		/* Threads arrive a warp at a time: whole warps only. */
		if (count->imm < 32 || count->imm > VGPU_MAX_BLOCK_THREADS ||
		    count->imm % 32)
			return ptx_bad(pl, in, "thread count must be a multiple of 32 from 32 to 1024");
		x->flags |= VGPU_IF_B_IMM;
		x->b = (uint32_t)count->imm;
		return 0;
	}
	if (count->kind != PTX_O_REG)
		return ptx_bad(pl, in, "thread count must be a constant or a register");
	x->b = ptx_reg_of(pl, count->reg, false);
	return 0;
}

/*
 * bar.red.{popc.u32,and.pred,or.pred} d, a{, b}, {!}p: __syncthreads_count,
 * _and and _or, over the threads the count names. A negated predicate
 * goes through the scratch predicate.
 */
static int ptx_bar_red(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_BAR_RED, .guard = VGPU_PRED_NONE };
	const struct ptx_opnd *p;
	bool popc = ptx_has_mod(in, "popc");

	if (in->nopnds != 3 && in->nopnds != 4)
		return ptx_bad(pl, in, "wrong number of operands");
	/* The predicate is the last operand: found once there is one. */
	p = &in->opnds[in->nopnds - 1];
	if (!popc && !ptx_has_mod(in, "and") && !ptx_has_mod(in, "or"))
		return ptx_bad(pl, in, "missing operation");
	x.mod = popc ? VGPU_BAR_POPC : ptx_has_mod(in, "and") ? VGPU_BAR_AND :
		VGPU_BAR_OR;
	x.type = popc ? VGPU_T_U32 : VGPU_T_PRED;
	if (ptx_bar_opnds(pl, in, &in->opnds[1],
			  in->nopnds == 4 ? &in->opnds[2] : NULL, &x))
		return -1;
	if (p->kind != PTX_O_REG)
		return ptx_bad(pl, in, "a predicate register is expected");
	if (ptx_dst(pl, in, 0, !popc, &x.dst))
		return -1;
	x.a = ptx_reg_of(pl, p->reg, true);
	if (p->neg) {
		uint32_t s;

		if (ptx_scratch_pred(pl, &s) ||
		    ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_NOT,
			     .type = VGPU_T_PRED, .guard = VGPU_PRED_NONE,
			     .dst = s, .a = x.a }, false))
			return -1;
		x.a = s;
	}
	return ptx_emit(pl, x, false);
}

/*
 * bar{.cta}.sync a{, b}, bar{.cta}.arrive a, b, bar{.cta}.red (and the
 * same as barrier{.cta}, .aligned or not; plain bar is bar.sync), and
 * bar.warp.sync.
 */
int ptx_lower_bar(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_BAR, .guard = VGPU_PRED_NONE };
	bool arrive = ptx_has_mod(in, "arrive");

	if (ptx_has_mod(in, "warp")) {
		x.op = VGPU_OP_WARPSYNC;
		if (ptx_nopnds(pl, in, 1) ||
		    ptx_mask(pl, in, &in->opnds[0], &x.imm))
			return -1;
		return ptx_emit(pl, x, false);
	}
	if (ptx_has_mod(in, "red"))
		return ptx_bar_red(pl, in);
	if (arrive && in->nopnds != 2)
		return ptx_bad(pl, in, "arrive needs a barrier number and a thread count");
	if (in->nopnds < 1 || in->nopnds > 2)
		return ptx_bad(pl, in, "wrong number of operands");
	x.mod = arrive ? VGPU_BAR_ARRIVE : VGPU_BAR_SYNC;
	if (ptx_bar_opnds(pl, in, &in->opnds[0],
			  in->nopnds == 2 ? &in->opnds[1] : NULL, &x))
		return -1;
	return ptx_emit(pl, x, false);
}

int ptx_lower_membar(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_MEMBAR, .guard = VGPU_PRED_NONE };

	x.mod = ptx_has_mod(in, "cta") ? VGPU_SCOPE_CTA :
		ptx_has_mod(in, "sys") ? VGPU_SCOPE_SYS : VGPU_SCOPE_GPU;
	return ptx_emit(pl, x, false);
}

int ptx_lower_shfl(struct ptx_lower *pl, const struct ptx_insn *in)
{
	static const char *const modes[] = { "up", "down", "bfly", "idx" };
	struct vgpu_insn x = { .op = VGPU_OP_SHFL, .type = VGPU_T_U32,
			       .guard = VGPU_PRED_NONE };
	uint32_t i, m;
	bool found = false;

	if (ptx_nopnds(pl, in, 5) || ptx_dst(pl, in, 0, x.type == VGPU_T_PRED, &x.dst) ||
	    ptx_src_reg(pl, &in->opnds[1], VGPU_T_U32, &x.a) ||
	    ptx_mask(pl, in, &in->opnds[4], &x.imm))
		return -1;
	for (i = 0; i < in->nmods && !found; i++)
		for (m = 0; m < 4 && !found; m++)
			if (!strcmp(in->mods[i], modes[m])) {
				x.mod = (uint8_t)m;
				found = true;
			}
	if (!found)
		return ptx_bad(pl, in, "missing mode");
	for (i = 2; i <= 3; i++) {
		const struct ptx_opnd *o = &in->opnds[i];
		uint32_t v;

		if (o->kind == PTX_O_IMM) {
			x.flags |= i == 2 ? VGPU_IF_B_IMM : VGPU_IF_C_IMM;
			v = (uint32_t)o->imm;
		} else if (ptx_src_reg(pl, o, VGPU_T_U32, &v)) {
			return -1;
		}
		if (i == 2)
			x.b = v;
		else
			x.c = v;
	}
	if (in->has_pipe)
		x.mod2 = (uint8_t)(ptx_reg_of(pl, in->pipe_reg, true) + 1);
	return ptx_emit(pl, x, false);
}

int ptx_lower_vote(struct ptx_lower *pl, const struct ptx_insn *in)
{
	static const char *const modes[] = { "all", "any", "uni", "ballot" };
	struct vgpu_insn x = { .op = VGPU_OP_VOTE, .guard = VGPU_PRED_NONE };
	const struct ptx_opnd *p;
	uint32_t i, m;
	bool found = false;

	for (i = 0; i < in->nmods && !found; i++)
		for (m = 0; m < 4 && !found; m++)
			if (!strcmp(in->mods[i], modes[m])) {
				x.mod = (uint8_t)m;
				found = true;
			}
	if (!found)
		return ptx_bad(pl, in, "missing mode");
	x.type = x.mod == VGPU_VOTE_BALLOT ? VGPU_T_U32 : VGPU_T_PRED;
	if (ptx_nopnds(pl, in, 3) || ptx_dst(pl, in, 0, x.type == VGPU_T_PRED, &x.dst) ||
	    ptx_mask(pl, in, &in->opnds[2], &x.imm))
		return -1;
	p = &in->opnds[1];
	if (p->kind != PTX_O_REG || p->neg)
		return ptx_bad(pl, in, "a predicate register is expected");
	x.a = ptx_reg_of(pl, p->reg, true);
	return ptx_emit(pl, x, false);
}

/*
 * match.{any,all}.sync.{b32,b64} d[|p], a, membermask. MATCH reads every
 * lane's a while it writes each lane's d, so a destination that is also
 * the source gets the result through a temporary.
 */
int ptx_lower_match(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_MATCH, .guard = VGPU_PRED_NONE };
	enum ptx_type t = ptx_nth_type(in, 0);
	uint32_t d;

	if (ptx_has_mod(in, "all"))
		x.mod = VGPU_MATCH_ALL;
	else if (!ptx_has_mod(in, "any"))
		return ptx_bad(pl, in, "missing mode");
	if (t != PTX_T_B32 && t != PTX_T_B64)
		return ptx_bad(pl, in, "unsupported type");
	x.type = t == PTX_T_B64 ? VGPU_T_U64 : VGPU_T_U32;
	if (ptx_nopnds(pl, in, 3) || ptx_dst(pl, in, 0, false, &d) ||
	    ptx_src_reg(pl, &in->opnds[1], x.type, &x.a) ||
	    ptx_mask(pl, in, &in->opnds[2], &x.imm))
		return -1;
	if (in->has_pipe) {
		if (x.mod != VGPU_MATCH_ALL)
			return ptx_bad(pl, in, "only match.all sets a predicate");
		x.mod2 = (uint8_t)(ptx_reg_of(pl, in->pipe_reg, true) + 1);
	}
	x.dst = d == x.a ? ptx_temp(pl) : d;
	if (ptx_emit(pl, x, false))
		return -1;
	if (x.dst == d)
		return 0;
	return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_MOV,
			.guard = VGPU_PRED_NONE, .type = VGPU_T_U32, .dst = d,
			.b = x.dst }, false);
}

int ptx_lower_activemask(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_ACTIVEMASK, .type = VGPU_T_U32,
			       .guard = VGPU_PRED_NONE };

	if (ptx_nopnds(pl, in, 1) || ptx_dst(pl, in, 0, x.type == VGPU_T_PRED, &x.dst))
		return -1;
	return ptx_emit(pl, x, false);
}
