// SPDX-License-Identifier: MIT
/*
 * Which plain multiplies become fused multiply-adds, as ptxas decides
 * (measured on an H100: tests/unit/data/h100_contract.c and its log).
 * PTX lets the code generator fuse a mul and an add that carry no
 * rounding modifier, and ptxas does so when, within one basic block:
 *
 * - the mul (f32, .ftz or not, or f64; unguarded, no .sat) has every use
 *   an add or sub of its type and ftz-ness with no rounding modifier
 *   (.sat and a guard are fine), directly or through one neg; a use of
 *   any other kind (a store of the product, say) keeps the mul as it is;
 * - each such add becomes fma.rn of the mul's sources and its other
 *   operand; an add of two such products takes its first operand's;
 * - uses in other blocks keep the mul (and their adds) apart.
 *
 * The rewrite reads the mul's sources at the add: a mul whose source is
 * written again before one of its adds stays apart (ptxas, in SSA form,
 * would still fuse it; compilers' PTX does not do this).
 */
#include <stdlib.h>
#include <string.h>

#include "ptx_contract.h"

/* Instructions whose first operand is not a destination. */
static bool ptx_no_dest(const struct ptx_insn *in)
{
	static const char *const ops[] = {
		"st", "red", "bar", "barrier", "membar", "fence", "bra", "ret",
		"exit", "trap", "call", "sust",
	};
	uint32_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(in->op, ops[i]))
			return true;
	return false;
}

/* Ends a basic block (after it). */
static bool ptx_ends_block(const struct ptx_insn *in)
{
	return !strcmp(in->op, "bra") || !strcmp(in->op, "ret") ||
	       !strcmp(in->op, "exit") || !strcmp(in->op, "trap") ||
	       !strcmp(in->op, "call");
}

/* Calls @fn(@arg, reg) for each register operand @o names. */
static void ptx_opnd_regs(const struct ptx_opnd *o, void (*fn)(void *, uint32_t), void *arg)
{
	uint32_t k;

	switch (o->kind) {
	case PTX_O_REG:
		fn(arg, o->reg);
		break;
	case PTX_O_ADDR:
	case PTX_O_TEX:
	case PTX_O_VEC:
		if (o->kind != PTX_O_VEC && o->base == PTX_BASE_REG)
			fn(arg, o->reg);
		/* a vector's registers, a texture's coordinates */
		for (k = 0; o->kind != PTX_O_ADDR && k < o->nvec; k++)
			if (o->vec[k] >= 0 && !(o->vimm & 1u << k))
				fn(arg, (uint32_t)o->vec[k]);
		break;
	default:
		break;
	}
}

struct ptx_counts {
	uint32_t *defs, *uses;
	uint32_t *use_at;	/* a register's uses: use_at[first[r]...] */
	uint32_t *first, *fill;
	uint32_t insn;
};

static void ptx_count_def(void *arg, uint32_t r)
{
	((struct ptx_counts *)arg)->defs[r]++;
}

static void ptx_count_use(void *arg, uint32_t r)
{
	((struct ptx_counts *)arg)->uses[r]++;
}

static void ptx_list_use(void *arg, uint32_t r)
{
	struct ptx_counts *c = arg;

	c->use_at[c->first[r] + c->fill[r]++] = c->insn;
}

/* Visits @in's destinations (@def) and sources (@use). */
static void ptx_insn_regs(const struct ptx_insn *in, void (*def)(void *, uint32_t),
			  void (*use)(void *, uint32_t), void *arg)
{
	uint32_t i = 0;

	if (in->guarded && use)
		use(arg, in->guard);
	if (in->nopnds && !ptx_no_dest(in)) {
		if (def)
			ptx_opnd_regs(&in->opnds[0], def, arg);
		i = 1;
	}
	if (in->has_pipe && def)
		def(arg, in->pipe_reg);
	for (; use && i < in->nopnds; i++)
		ptx_opnd_regs(&in->opnds[i], use, arg);
}

static bool ptx_is_round(const struct ptx_insn *in)
{
	return ptx_has_mod(in, "rn") || ptx_has_mod(in, "rz") ||
	       ptx_has_mod(in, "rm") || ptx_has_mod(in, "rp");
}

/* A mul that may fuse: f32 or f64, plain, unguarded, into a register. */
static bool ptx_fusable_mul(const struct ptx_insn *in)
{
	enum ptx_type t = ptx_nth_type(in, 0);

	return !strcmp(in->op, "mul") && (t == PTX_T_F32 || t == PTX_T_F64) &&
	       !ptx_is_round(in) && !ptx_has_mod(in, "sat") && !in->guarded &&
	       in->nopnds == 3 && in->opnds[0].kind == PTX_O_REG;
}

/* An @op ("add", "sub" or "neg") of @mul's type and ftz-ness, plain. */
static bool ptx_fusable_use(const struct ptx_insn *in, const struct ptx_insn *mul)
{
	bool neg = !strcmp(in->op, "neg");

	if (strcmp(in->op, "add") && strcmp(in->op, "sub") && !neg)
		return false;
	if (ptx_nth_type(in, 0) != ptx_nth_type(mul, 0) || ptx_is_round(in) ||
	    ptx_has_mod(in, "ftz") != ptx_has_mod(mul, "ftz") ||
	    in->opnds[0].kind != PTX_O_REG)
		return false;
	return neg ? in->nopnds == 2 && !in->guarded && !ptx_has_mod(in, "sat") :
		     in->nopnds == 3;
}

/* Whether register @r of @in's sources is read once, as operand 1 or 2. */
static int ptx_operand_of(const struct ptx_insn *in, uint32_t r)
{
	int at = -1;
	uint32_t i;

	for (i = 1; i < in->nopnds; i++) {
		if (in->opnds[i].kind != PTX_O_REG)
			continue;
		if (in->opnds[i].reg == r) {
			if (at >= 0)
				return -1;
			at = (int)i;
		}
	}
	return in->guarded && in->guard == r ? -1 : at;
}

/* Whether instructions (@from, @to) write a source register of @mul. */
static bool ptx_sources_written(const struct ptx_func *fn, uint32_t from, uint32_t to,
				const struct ptx_insn *mul)
{
	uint32_t i, k, w[2];
	int nw;

	for (i = from + 1; i < to; i++) {
		const struct ptx_insn *in = &fn->insns[i];

		nw = 0;
		if (in->has_pipe)
			w[nw++] = in->pipe_reg;
		for (k = 1; k < 3; k++) {
			const struct ptx_opnd *s = &mul->opnds[k];
			int j;

			if (s->kind != PTX_O_REG)
				continue;
			for (j = 0; j < nw; j++)
				if (w[j] == s->reg)
					return true;
			if (!in->nopnds || ptx_no_dest(in))
				continue;
			if (in->opnds[0].kind == PTX_O_REG && in->opnds[0].reg == s->reg)
				return true;
			if (in->opnds[0].kind == PTX_O_VEC)
				for (j = 0; j < (int)in->opnds[0].nvec; j++)
					if (in->opnds[0].vec[j] == (int32_t)s->reg)
						return true;
		}
	}
	return false;
}

int32_t *ptx_contract(const struct ptx_func *fn)
{
	uint32_t n = fn->ninsns, nr = fn->nregs, i, l, total = 0;
	struct ptx_counts c = { 0 };
	uint32_t *block = calloc(n + 1, sizeof(*block));
	int32_t *plan = malloc((n + 1) * sizeof(*plan));
	int32_t *takes = malloc((n + 1) * sizeof(*takes));
	bool ok = block && plan && takes;

	c.defs = calloc(nr + 1, sizeof(uint32_t));
	c.uses = calloc(nr + 1, sizeof(uint32_t));
	c.first = calloc(nr + 1, sizeof(uint32_t));
	c.fill = calloc(nr + 1, sizeof(uint32_t));
	ok = ok && c.defs && c.uses && c.first && c.fill;
	if (!ok)
		goto out;
	for (i = 0; i < n; i++) {
		plan[i] = PTX_FUSE_NONE;
		takes[i] = -1;
		ptx_insn_regs(&fn->insns[i], ptx_count_def, ptx_count_use, &c);
	}
	for (i = 0; i < nr; i++) {
		c.first[i] = total;
		total += c.uses[i];
	}
	c.use_at = malloc((total + 1) * sizeof(uint32_t));
	ok = c.use_at != NULL;
	if (!ok)
		goto out;
	for (i = 0; i < n; i++) {
		c.insn = i;
		ptx_insn_regs(&fn->insns[i], NULL, ptx_list_use, &c);
	}
	/* Basic blocks: a label starts one, a branch, return or call ends one. */
	for (l = 0; l < fn->nlabels; l++)
		if (fn->labels[l].insn < n)
			block[fn->labels[l].insn] = 1;
	for (i = 1; i < n; i++)
		block[i] = block[i - 1] + (block[i] || ptx_ends_block(&fn->insns[i - 1]));

	/*
	 * Each add or sub names the product it would take: its first
	 * operand's, else its second's (through a neg or not).
	 */
	for (i = 0; i < n; i++) {
		const struct ptx_insn *in = &fn->insns[i];
		uint32_t k;

		if (strcmp(in->op, "add") && strcmp(in->op, "sub"))
			continue;
		for (k = 1; k < 3 && k < in->nopnds && takes[i] < 0; k++) {
			uint32_t r = in->opnds[k].reg, d;

			if (in->opnds[k].kind != PTX_O_REG || c.defs[r] != 1)
				continue;
			/* the one write of r, before i in its block */
			for (d = i; d-- > 0 && block[d] == block[i];) {
				const struct ptx_insn *w = &fn->insns[d];

				if (w->nopnds && !ptx_no_dest(w) && w->opnds[0].kind == PTX_O_REG &&
				    w->opnds[0].reg == r) {
					if (ptx_fusable_mul(w) || (!strcmp(w->op, "neg") &&
					    w->opnds[1].kind == PTX_O_REG))
						takes[i] = (int32_t)d;
					break;
				}
			}
		}
	}

	/* A mul fuses if each of its uses takes it (through a neg or not). */
	for (i = 0; i < n; i++) {
		const struct ptx_insn *mul = &fn->insns[i];
		uint32_t r, u, j;
		bool fuse;

		if (!ptx_fusable_mul(mul))
			continue;
		r = mul->opnds[0].reg;
		fuse = c.defs[r] == 1 && c.uses[r] > 0;
		for (j = 0; fuse && j < c.uses[r]; j++) {
			const struct ptx_insn *in;
			uint32_t at = i;

			u = c.use_at[c.first[r] + j];
			in = &fn->insns[u];
			if (block[u] != block[i] || u <= i || !ptx_fusable_use(in, mul) ||
			    ptx_operand_of(in, r) < 0) {
				fuse = false;
				break;
			}
			if (!strcmp(in->op, "neg")) {
				uint32_t nreg = in->opnds[0].reg;

				if (c.defs[nreg] != 1 || c.uses[nreg] != 1) {
					fuse = false;
					break;
				}
				at = u;
				u = c.use_at[c.first[nreg]];
				in = &fn->insns[u];
				if (block[u] != block[i] || u <= at || !strcmp(in->op, "neg") ||
				    !ptx_fusable_use(in, mul) || ptx_operand_of(in, nreg) < 0) {
					fuse = false;
					break;
				}
			}
			fuse = takes[u] == (int32_t)at && !ptx_sources_written(fn, i, u, mul);
		}
		if (!fuse)
			continue;
		plan[i] = PTX_FUSE_DROP;
		for (j = 0; j < c.uses[r]; j++) {
			u = c.use_at[c.first[r] + j];
			if (!strcmp(fn->insns[u].op, "neg")) {
				plan[u] = PTX_FUSE_DROP;
				u = c.use_at[c.first[fn->insns[u].opnds[0].reg]];
				plan[u] = (int32_t)i | PTX_FUSE_NEG;
			} else {
				plan[u] = (int32_t)i;
			}
		}
	}
	free(c.use_at);
out:
	free(c.defs);
	free(c.uses);
	free(c.first);
	free(c.fill);
	free(block);
	free(takes);
	if (!ok) {
		free(plan);
		return NULL;
	}
	return plan;
}
