// SPDX-License-Identifier: MIT
/*
 * Instruction selection: the one table from PTX opcodes to their lowerings,
 * and the walk over a body that lowers each instruction through it.
 *
 * The control flow is here too: branches and returns, whose targets the
 * walk places, and calls. A call lowers the callee's body in place
 * (inlining), so the walk recurses, through this file only: the files
 * it dispatches to are all below it.
 */
#include <stdlib.h>
#include <string.h>

#include "ptx_contract.h"
#include "ptx_frame.h"
#include "ptx_ops.h"
#include "ptx_select.h"

/* --- control flow --------------------------------------------------------- */

static int ptx_lower_bra(struct ptx_lower *pl, const struct ptx_insn *in)
{
	if (ptx_nopnds(pl, in, 1) || in->opnds[0].kind != PTX_O_LABEL)
		return ptx_bad(pl, in, "branch to a label expected");
	if (ptx_fixup_branch(pl, pl->ncode, in->opnds[0].label))
		return -1;
	return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			.guard = VGPU_PRED_NONE, .c = VGPU_NO_TARGET }, false);
}

/* exit, and ret from the kernel: the thread is done. */
static int ptx_lower_exit(struct ptx_lower *pl, const struct ptx_insn *in)
{
	(void)in;
	return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_EXIT,
			.guard = VGPU_PRED_NONE }, false);
}

/* ret: from an inlined function on to what follows the call, else exit. */
static int ptx_lower_ret(struct ptx_lower *pl, const struct ptx_insn *in)
{
	if (!pl->f.depth)
		return ptx_lower_exit(pl, in);
	if (ptx_fixup_branch(pl, pl->ncode, pl->f.fn->nlabels))
		return -1;
	return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			.guard = VGPU_PRED_NONE, .c = VGPU_NO_TARGET }, false);
}

/* trap: the launch faults. */
static int ptx_lower_trap(struct ptx_lower *pl, const struct ptx_insn *in)
{
	(void)in;
	return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_TRAP,
			.guard = VGPU_PRED_NONE }, false);
}

/* --- calls ---------------------------------------------------------------- */

/* The slots of call-sequence variable @s of the caller (a .param). */
static int ptx_bind(struct ptx_lower *pl, const struct ptx_insn *in,
		    const struct ptx_frame *caller, const struct ptx_opnd *list,
		    uint32_t want, uint32_t **slots)
{
	uint32_t n = list ? list->nvec : 0, i;

	if (n != want)
		return ptx_error(pl, in->pos, "call passes %u values where '%s' takes %u",
				 n, pl->f.fn->name, want);
	*slots = calloc(want ? want : 1, sizeof(**slots));
	if (!*slots)
		return ptx_out_of_memory(pl);
	for (i = 0; i < n; i++) {
		struct ptx_sym s = list->list[i];

		if (s.kind != PTX_SYM_FUNCVAR ||
		    caller->fn->vars[s.index].space != PTX_S_PARAM)
			return ptx_error(pl, in->pos, "call arguments must be .param variables");
		(*slots)[i] = caller->var_slot[s.index];
	}
	return 0;
}

/**
 * ptx_inline() - lowers a call to function @callee in place: its body,
 * with its own registers, reading its parameters from the slots of the
 * caller's arguments and writing its return values to theirs; its ret
 * goes to what follows the call.
 */
static int ptx_inline(struct ptx_lower *pl, const struct ptx_insn *in,
		      uint32_t callee, const struct ptx_opnd *rets,
		      const struct ptx_opnd *args)
{
	const struct ptx_func *fn = &pl->m->funcs[callee];
	struct ptx_frame caller = pl->f, fr = {
		.fn = fn, .depth = caller.depth + 1, .up = &caller,
		.fixup_base = pl->nfixups,
	};
	const struct ptx_frame *up;
	uint32_t *ps = NULL, *rs = NULL;
	uint8_t guard = pl->guard;
	bool guard_not = pl->guard_not;
	int ret = -1;

	if (!fn->has_body)
		return ptx_error(pl, in->pos, "call to '%s', which the module does not define",
				 fn->name);
	for (up = &caller; up; up = up->up)
		if (up->fn == fn)
			return ptx_error(pl, in->pos, "recursive call to '%s' is not supported",
					 fn->name);
	if (fr.depth > 32)
		return ptx_error(pl, in->pos, "calls nested too deeply");
	pl->f = fr;
	if (ptx_bind(pl, in, &caller, args, fn->nparams, &ps) ||
	    ptx_bind(pl, in, &caller, rets, fn->nrets, &rs))
		goto out;
	pl->f.param_slot = ps;
	pl->f.ret_slot = rs;
	ps = rs = NULL;
	if (ptx_frame_setup(pl, &pl->f))
		goto out;
	/* A guarded call: lanes where the guard fails jump past the body. */
	if (guard != VGPU_PRED_NONE) {
		if (ptx_fixup_branch(pl, pl->ncode, fn->nlabels) ||
		    ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			     .guard = guard,
			     .flags = guard_not ? 0 : VGPU_IF_GUARD_NOT,
			     .c = VGPU_NO_TARGET }, false))
			goto out;
	}
	ret = ptx_lower_body(pl);
out:
	free(ps);
	free(rs);
	ptx_frame_free(&pl->f);
	pl->f = caller;
	return ret;
}

/* Whether @fn takes and returns what prototype @pr says, size by size. */
static bool ptx_proto_fits(const struct ptx_proto *pr, const struct ptx_func *fn)
{
	uint32_t i;

	if (pr->nparams != fn->nparams || pr->nrets != fn->nrets)
		return false;
	for (i = 0; i < pr->nparams; i++)
		if (ptx_var_size(&pr->params[i]) != ptx_var_size(&fn->params[i]))
			return false;
	for (i = 0; i < pr->nrets; i++)
		if (ptx_var_size(&pr->rets[i]) != ptx_var_size(&fn->rets[i]))
			return false;
	return true;
}

/**
 * ptx_inline_indirect() - lowers a call through the function pointer in
 * PTX register @fptr, with prototype @pr: the pointer is compared with
 * the address of each function whose address the module takes and that
 * fits the prototype, and that function is inlined (ptx_inline()) for the
 * lanes it matches; lanes whose pointer matches none trap, as a call to
 * a bad address faults. Lanes of a warp that hold different pointers run
 * their functions one after the other and meet again after the last.
 * Any of those functions already being called is recursion, which the
 * inlining cannot do.
 */
static int ptx_inline_indirect(struct ptx_lower *pl, const struct ptx_insn *in,
			       uint32_t fptr, const struct ptx_proto *pr,
			       const struct ptx_opnd *rets,
			       const struct ptx_opnd *args)
{
	const struct ptx_module *m = pl->m;
	const struct ptx_insn *cur = pl->cur;
	const struct ptx_frame *up;
	uint32_t *ends, nends = 0, skip = UINT32_MAX, miss, p, f, i;
	uint8_t guard = pl->guard;
	bool guard_not = pl->guard_not;
	int ret = -1;

	if (ptx_type_bits(pl->f.fn->regs[fptr].type) != 64)
		return ptx_error(pl, in->pos, "a function pointer must be a 64-bit register");
	if ((args ? args->nvec : 0) != pr->nparams ||
	    (rets ? rets->nvec : 0) != pr->nrets)
		return ptx_error(pl, in->pos, "call does not match prototype '%s'",
				 pr->name);
	for (f = 0; f < m->nfuncs; f++) {
		if (!pl->func_addr[f] || !ptx_proto_fits(pr, &m->funcs[f]))
			continue;
		for (up = &pl->f; up; up = up->up)
			if (up->fn == &m->funcs[f])
				return ptx_error(pl, in->pos, "recursive call to '%s' through a function pointer is not supported",
						 m->funcs[f].name);
	}
	if (ptx_scratch_pred(pl, &p))
		return -1;
	ends = malloc((m->nfuncs + 1) * sizeof(*ends));
	if (!ends)
		return ptx_out_of_memory(pl);
	pl->guard = VGPU_PRED_NONE;
	/* A guarded call: lanes where the guard fails jump past it all. */
	if (guard != VGPU_PRED_NONE) {
		skip = pl->ncode;
		if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			     .guard = guard,
			     .flags = guard_not ? 0 : VGPU_IF_GUARD_NOT,
			     .c = VGPU_NO_TARGET }, false))
			goto out;
	}
	for (f = 0; f < m->nfuncs; f++) {
		if (!pl->func_addr[f] || !ptx_proto_fits(pr, &m->funcs[f]))
			continue;
		miss = pl->ncode + 1;
		if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_SETP,
			     .type = VGPU_T_U64, .mod = VGPU_CMP_EQ,
			     .guard = VGPU_PRED_NONE, .dst = p,
			     .a = pl->f.reg_of[fptr], .flags = VGPU_IF_B_IMM,
			     .imm = pl->func_addr[f] }, false) ||
		    ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			     .guard = (uint8_t)p, .flags = VGPU_IF_GUARD_NOT,
			     .c = VGPU_NO_TARGET }, false) ||
		    ptx_inline(pl, in, f, rets, args))
			goto out;
		/* The inlined body read its own instructions and guards. */
		pl->cur = cur;
		pl->guard = VGPU_PRED_NONE;
		ends[nends++] = pl->ncode;
		if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_BRA,
			     .guard = VGPU_PRED_NONE,
			     .c = VGPU_NO_TARGET }, false))
			goto out;
		pl->code[miss].imm = pl->ncode;
	}
	if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_TRAP,
		     .guard = VGPU_PRED_NONE }, false))
		goto out;
	for (i = 0; i < nends; i++)
		pl->code[ends[i]].imm = pl->ncode;
	if (skip != UINT32_MAX)
		pl->code[skip].imm = pl->ncode;
	ret = 0;
out:
	pl->cur = cur;
	free(ends);
	return ret;
}

/*
 * call [(rets),] f[, (args)]: functions are inlined at each call.
 * call [(rets),] %rd[, (args)], proto: through a function pointer, to
 * whichever function of the prototype's shape it holds.
 */
static int ptx_lower_call(struct ptx_lower *pl, const struct ptx_insn *in)
{
	const struct ptx_opnd *rets = NULL, *args = NULL, *callee = NULL;
	const struct ptx_opnd *proto = NULL;
	const struct ptx_func *fn;
	uint32_t i, f;

	for (i = 0; i < in->nopnds; i++) {
		const struct ptx_opnd *o = &in->opnds[i];

		if (!callee && o->kind == PTX_O_LIST)
			rets = o;
		else if (!callee && (o->kind == PTX_O_REG ||
				     (o->kind == PTX_O_SYM &&
				      o->sym.kind == PTX_SYM_FUNC)))
			callee = o;
		else if (callee && !args && !proto && o->kind == PTX_O_LIST)
			args = o;
		else if (callee && callee->kind == PTX_O_REG && !proto &&
			 o->kind == PTX_O_SYM && o->sym.kind == PTX_SYM_PROTO)
			proto = o;
		else
			return ptx_bad(pl, in, "unexpected operand");
	}
	if (!callee)
		return ptx_bad(pl, in, "no function to call");
	if (callee->kind == PTX_O_REG) {
		if (callee->neg)
			return ptx_bad(pl, in, "unexpected operand");
		if (!proto)
			return ptx_bad(pl, in, "a call through a pointer needs a .callprototype");
		return ptx_inline_indirect(pl, in, callee->reg,
					   &pl->f.fn->protos[proto->sym.index],
					   rets, args);
	}
	f = callee->sym.index;
	fn = &pl->m->funcs[f];
	if (!fn->has_body && !strcmp(fn->name, "vprintf"))
		return ptx_lower_printf(pl, in, rets, args);
	if (!fn->has_body && ptx_assert_func(fn->name))
		return ptx_lower_assert(pl, in, rets, args);
	if (!fn->has_body && ptx_heap_func(fn->name))
		return ptx_lower_heap(pl, in, fn->name, rets, args);
	if (!fn->has_body && ptx_cond_func(fn->name))
		return ptx_lower_cond(pl, in, rets, args);
	return ptx_inline(pl, in, f, rets, args);
}

/* --- the opcodes ---------------------------------------------------------- */

/*
 * The PTX opcodes vgpu lowers, each with its lowering, or, with none, an
 * arithmetic one: its ISA operation, number of sources and flags, for
 * ptx_lower_arith().
 */
static const struct ptx_opcode {
	const char *name;
	int (*lower)(struct ptx_lower *pl, const struct ptx_insn *in);
	uint8_t op;		/* arithmetic: the ISA operation */
	uint8_t nsrc;		/* its sources */
	uint8_t flags;		/* its ISA flags, for integer types */
} ptx_opcodes[] = {
	{ "add", .op = VGPU_OP_ADD, .nsrc = 2 },
	{ "sub", .op = VGPU_OP_SUB, .nsrc = 2 },
	{ "mul", .op = VGPU_OP_MUL, .nsrc = 2 },
	{ "mad", .op = VGPU_OP_MAD, .nsrc = 3 },
	{ "fma", .op = VGPU_OP_FMA, .nsrc = 3 },
	{ "div", .op = VGPU_OP_DIV, .nsrc = 2 },
	{ "rem", .op = VGPU_OP_REM, .nsrc = 2 },
	{ "min", .op = VGPU_OP_MIN, .nsrc = 2 },
	{ "max", .op = VGPU_OP_MAX, .nsrc = 2 },
	{ "abs", .op = VGPU_OP_ABS, .nsrc = 1 },
	{ "neg", .op = VGPU_OP_NEG, .nsrc = 1 },
	{ "and", .op = VGPU_OP_AND, .nsrc = 2 },
	{ "or", .op = VGPU_OP_OR, .nsrc = 2 },
	{ "xor", .op = VGPU_OP_XOR, .nsrc = 2 },
	{ "not", .op = VGPU_OP_NOT, .nsrc = 1 },
	{ "shl", .op = VGPU_OP_SHL, .nsrc = 2 },
	{ "shr", .op = VGPU_OP_SHR, .nsrc = 2 },
	{ "addc", .op = VGPU_OP_ADD, .nsrc = 2, .flags = VGPU_IF_CC_IN },
	{ "subc", .op = VGPU_OP_SUB, .nsrc = 2, .flags = VGPU_IF_CC_IN },
	{ "madc", .op = VGPU_OP_MAD, .nsrc = 3, .flags = VGPU_IF_CC_IN },
	{ "copysign", .op = VGPU_OP_COPYSIGN, .nsrc = 2 },
	{ "popc", .op = VGPU_OP_POPC, .nsrc = 1 },
	{ "clz", .op = VGPU_OP_CLZ, .nsrc = 1 },
	{ "brev", .op = VGPU_OP_BREV, .nsrc = 1 },
	{ "bfind", .op = VGPU_OP_BFIND, .nsrc = 1 },
	{ "bfe", .op = VGPU_OP_BFE, .nsrc = 3 },
	{ "sqrt", .op = VGPU_OP_SQRT, .nsrc = 1 },
	{ "rcp", .op = VGPU_OP_RCP, .nsrc = 1 },
	{ "rsqrt", .op = VGPU_OP_RSQRT, .nsrc = 1 },
	{ "ex2", .op = VGPU_OP_EX2, .nsrc = 1 },
	{ "lg2", .op = VGPU_OP_LG2, .nsrc = 1 },
	{ "sin", .op = VGPU_OP_SIN, .nsrc = 1 },
	{ "cos", .op = VGPU_OP_COS, .nsrc = 1 },
	{ "tanh", .op = VGPU_OP_TANH, .nsrc = 1 },
	{ "mov", .lower = ptx_lower_mov },
	{ "ld", .lower = ptx_lower_ld },
	{ "st", .lower = ptx_lower_st },
	{ "setp", .lower = ptx_lower_setp },
	{ "selp", .lower = ptx_lower_selp },
	{ "cvt", .lower = ptx_lower_cvt },
	{ "cvta", .lower = ptx_lower_cvta },
	{ "bfi", .lower = ptx_lower_bfi },
	{ "prmt", .lower = ptx_lower_prmt },
	{ "bra", .lower = ptx_lower_bra },
	{ "ret", .lower = ptx_lower_ret },
	{ "exit", .lower = ptx_lower_exit },
	{ "trap", .lower = ptx_lower_trap },
	{ "bar", .lower = ptx_lower_bar },
	{ "barrier", .lower = ptx_lower_bar },
	{ "membar", .lower = ptx_lower_membar },
	{ "fence", .lower = ptx_lower_membar },
	{ "atom", .lower = ptx_lower_atom },
	{ "red", .lower = ptx_lower_red },
	{ "shfl", .lower = ptx_lower_shfl },
	{ "vote", .lower = ptx_lower_vote },
	{ "match", .lower = ptx_lower_match },
	{ "activemask", .lower = ptx_lower_activemask },
	{ "call", .lower = ptx_lower_call },
	{ "shf", .lower = ptx_lower_shf },
	{ "lop3", .lower = ptx_lower_lop3 },
	{ "slct", .lower = ptx_lower_slct },
	{ "testp", .lower = ptx_lower_testp },
	{ "cnot", .lower = ptx_lower_cnot },
	{ "mul24", .lower = ptx_lower_mul24 },
	{ "mad24", .lower = ptx_lower_mad24 },
	{ "sad", .lower = ptx_lower_sad },
	{ "bmsk", .lower = ptx_lower_bmsk },
	{ "szext", .lower = ptx_lower_szext },
	{ "dp4a", .lower = ptx_lower_dp4a },
	{ "dp2a", .lower = ptx_lower_dp2a },
	{ "vabsdiff4", .lower = ptx_lower_vabsdiff4 },
	{ "tex", .lower = ptx_lower_tex },
	{ "tld4", .lower = ptx_lower_tld4 },
	{ "txq", .lower = ptx_lower_txq },
	{ "suq", .lower = ptx_lower_suq },
	{ "suld", .lower = ptx_lower_suld },
	{ "sust", .lower = ptx_lower_sust },
	{ "istypep", .lower = ptx_lower_istypep },
};

/* @in's entry in the table, or NULL. */
static const struct ptx_opcode *ptx_opcode_of(const struct ptx_insn *in)
{
	uint32_t i;

	for (i = 0; i < sizeof(ptx_opcodes) / sizeof(ptx_opcodes[0]); i++)
		if (!strcmp(in->op, ptx_opcodes[i].name))
			return &ptx_opcodes[i];
	return NULL;
}

/**
 * ptx_lower_insn() - lowers @in, under its guard, at the end of the
 * program being written.
 * Return: 0, or -1 with the error recorded.
 */
static int ptx_lower_insn(struct ptx_lower *pl, const struct ptx_insn *in,
			  int32_t fuse)
{
	const struct ptx_func *fn = pl->f.fn;
	const struct ptx_opcode *oc;
	int ret;

	pl->guard = VGPU_PRED_NONE;
	pl->guard_not = false;
	if (in->guarded) {
		pl->guard = (uint8_t)ptx_reg_of(pl, in->guard, true);
		pl->guard_not = in->guard_neg;
	}
	oc = ptx_opcode_of(in);
	if (fuse >= 0) {
		/* The product in a register: the mul's, or its neg's. */
		const struct ptx_insn *mul = &fn->insns[fuse & ~PTX_FUSE_NEG];
		uint32_t prod = mul->opnds[0].reg, j;

		for (j = (uint32_t)(in - fn->insns); (fuse & PTX_FUSE_NEG) && j-- > 0;)
			if (!strcmp(fn->insns[j].op, "neg") &&
			    fn->insns[j].opnds[1].kind == PTX_O_REG &&
			    fn->insns[j].opnds[1].reg == mul->opnds[0].reg) {
				prod = fn->insns[j].opnds[0].reg;
				break;
			}
		ret = ptx_lower_fused(pl, in, mul, prod, fuse & PTX_FUSE_NEG);
	} else if (!oc)
		ret = ptx_bad(pl, in, "unsupported instruction");
	else if (oc->lower)
		ret = oc->lower(pl, in);
	else
		ret = ptx_lower_arith(pl, in, oc->op, oc->nsrc, oc->flags);
	/* Errors found on the way (a register of the wrong kind) count too. */
	return ret || pl->failed ? -1 : 0;
}

/*
 * Lowers the frame's body, then points its branches at their labels
 * (a label at the end, and the end label of an inlined body, at what
 * comes next).
 */
int ptx_lower_body(struct ptx_lower *pl)
{
	const struct ptx_func *fn = pl->f.fn;
	uint32_t *start = malloc((fn->ninsns + 1) * sizeof(*start)), i, l;
	int32_t *fuse = ptx_contract(fn);

	/* Where each PTX instruction's code starts: its labels point there. */
	if (!start || !fuse) {
		free(start);
		free(fuse);
		return ptx_out_of_memory(pl);
	}
	for (i = 0; i < fn->ninsns; i++) {
		start[i] = pl->ncode;
		pl->ntemps = 0;
		pl->cur = &fn->insns[i];
		if (fuse[i] == PTX_FUSE_DROP)
			continue;
		if (ptx_lower_insn(pl, &fn->insns[i], fuse[i])) {
			free(start);
			free(fuse);
			return -1;
		}
	}
	free(fuse);
	start[fn->ninsns] = pl->ncode;
	for (l = 0; l < fn->nlabels; l++)
		pl->f.label_at[l] = start[fn->labels[l].insn];
	free(start);
	pl->f.label_at[fn->nlabels] = pl->ncode;
	for (i = pl->f.fixup_base; i < pl->nfixups; i++)
		pl->code[pl->fixups[i].insn].imm =
			pl->f.label_at[pl->fixups[i].label];
	pl->nfixups = pl->f.fixup_base;
	return 0;
}
