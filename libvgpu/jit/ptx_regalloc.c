// SPDX-License-Identifier: MIT
/*
 * Register allocation for one lowered kernel: ISA registers whose values
 * are never live at the same time share a slot, so what a kernel costs
 * per warp follows the values it keeps live, not the registers its PTX
 * declared.
 *
 * Liveness is per thread: every lane follows its own path through the
 * control-flow graph and an instruction writes only the lanes that run
 * it, so the classic backward dataflow over the graph is exact for SIMT
 * too. Two registers interfere when one is written while the other is
 * live; a register is then given the lowest slot none of its already
 * placed neighbours holds, in the order the code first names them.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../../core/isa.h"
#include "ptx_regalloc.h"

/* An instruction's operand fields, as bits of ptx_ra_regs()'s answer. */
#define PTX_RA_DST 0
#define PTX_RA_A 1
#define PTX_RA_B 2
#define PTX_RA_C 3
#define PTX_RA_NFIELDS 4

#define PTX_RA_NONE UINT32_MAX

/*
 * The most memory the analysis may take (bit sets per block and the
 * interference matrix); a kernel that needs more keeps its registers as
 * the lowering numbered them, which is correct, only larger.
 */
#define PTX_RA_MAX_BYTES ((size_t)256 << 20)

struct ptx_ra {
	struct vgpu_insn *code;	/* the kernel's instructions */
	uint32_t n;
	uint32_t start;		/* index of code[0] in the program */
	uint32_t nregs;		/* ISA registers before allocation */
	uint32_t nr;		/* of them, those the code names */
	uint32_t words;		/* 64-bit words in a set of registers */
	uint32_t *dense;	/* ISA register -> 0..nr-1, first named first */
	uint32_t *block;	/* instruction -> its basic block */
	uint32_t nb;
	uint32_t *first;	/* block -> its first instruction; nb + 1 */
	uint32_t *succ;		/* block -> two successors, or PTX_RA_NONE */
	uint64_t *use;		/* per block: read before written in it */
	uint64_t *kill;		/* per block: written unguarded */
	uint64_t *in;		/* per block: live on entry */
	uint64_t *adj;		/* nr rows of @words: interference */
	uint64_t *tmp;		/* @words of scratch */
	uint32_t *slot;		/* 0..nr-1 -> the slot given */
};

static bool ptx_ra_has(const uint64_t *s, uint32_t i)
{
	return s[i / 64] >> (i % 64) & 1;
}

static void ptx_ra_set(uint64_t *s, uint32_t i)
{
	s[i / 64] |= 1ULL << (i % 64);
}

/* The lowest member of word @w of a set, @bits, which it then drops. */
static uint32_t ptx_ra_next(uint32_t w, uint64_t *bits)
{
	uint32_t x = w * 64 + (uint32_t)__builtin_ctzll(*bits);

	*bits &= *bits - 1;
	return x;
}

static void ptx_ra_clear(uint64_t *s, uint32_t i)
{
	s[i / 64] &= ~(1ULL << (i % 64));
}

static bool ptx_ra_imm_field(const struct vgpu_insn *in, unsigned int f)
{
	if (f == PTX_RA_B)
		return in->flags & VGPU_IF_B_IMM;
	if (f == PTX_RA_C)
		return in->flags & VGPU_IF_C_IMM;
	return false;
}

/*
 * Which of @in's fields name registers (bits PTX_RA_DST..PTX_RA_C), read
 * from the ISA description's table, as the verifier does, so that the two
 * agree: operations on predicates name only predicates, and a field that
 * an _IMM flag turns into an immediate names nothing.
 */
static unsigned int ptx_ra_regs(const struct vgpu_insn *in)
{
	const uint32_t val[PTX_RA_NFIELDS] = { in->dst, in->a, in->b, in->c };
	bool pred = in->type == VGPU_T_PRED;
	struct vgpu_op_desc d;
	unsigned int f, m = 0;
	uint8_t kind[PTX_RA_NFIELDS];

	if (!vgpu_isa_insn_desc(in, &d))
		return 0;
	kind[PTX_RA_DST] = d.dst;
	kind[PTX_RA_A] = d.a;
	kind[PTX_RA_B] = d.b;
	kind[PTX_RA_C] = d.c;
	for (f = 0; f < PTX_RA_NFIELDS; f++) {
		switch (kind[f]) {
		case OPND_REG:
		case OPND_REG_IMM:
			if (!pred && !ptx_ra_imm_field(in, f))
				m |= 1U << f;
			break;
		case OPND_REG_INLINE:
			if (!ptx_ra_imm_field(in, f))
				m |= 1U << f;
			break;
		case OPND_ADDR:
			if (val[f] != VGPU_NO_REG)
				m |= 1U << f;
			break;
		}
	}
	/* Only compare-and-swap reads c; the other atomics leave it 0. */
	if (in->op == VGPU_OP_ATOM && in->mod2 != VGPU_ATOM_CAS)
		m &= ~(1U << PTX_RA_C);
	return m;
}

static uint32_t *ptx_ra_field(struct vgpu_insn *in, unsigned int f)
{
	switch (f) {
	case PTX_RA_DST:
		return &in->dst;
	case PTX_RA_A:
		return &in->a;
	case PTX_RA_B:
		return &in->b;
	default:
		return &in->c;
	}
}

/* The dense number of the register in field @f of @in. */
static uint32_t ptx_ra_at(const struct ptx_ra *ra, struct vgpu_insn *in, unsigned int f)
{
	return ra->dense[*ptx_ra_field(in, f)];
}

/* Fields @in reads: a guarded write also keeps what it does not overwrite. */
static unsigned int ptx_ra_reads(const struct vgpu_insn *in, unsigned int regs)
{
	if (in->guard == VGPU_PRED_NONE)
		return regs & ~(1U << PTX_RA_DST);
	return regs;
}

/* Numbers the registers the code names densely, in order of appearance. */
static bool ptx_ra_number(struct ptx_ra *ra)
{
	uint32_t i, f;

	for (i = 0; i < ra->nregs; i++)
		ra->dense[i] = PTX_RA_NONE;
	for (i = 0; i < ra->n; i++) {
		struct vgpu_insn *in = &ra->code[i];
		unsigned int regs = ptx_ra_regs(in);

		for (f = 0; f < PTX_RA_NFIELDS; f++) {
			uint32_t r;

			if (!(regs & 1U << f))
				continue;
			r = *ptx_ra_field(in, f);
			if (r >= ra->nregs)
				return false;
			if (ra->dense[r] == PTX_RA_NONE)
				ra->dense[r] = ra->nr++;
		}
	}
	ra->words = (ra->nr + 63) / 64;
	return true;
}

/* Does control go on to the next instruction after @in? */
static bool ptx_ra_falls_through(const struct vgpu_insn *in)
{
	if (in->guard != VGPU_PRED_NONE)
		return true;
	return in->op != VGPU_OP_BRA && in->op != VGPU_OP_EXIT &&
	       in->op != VGPU_OP_TRAP;
}

/*
 * Basic blocks: a block starts at the entry, at a branch target and
 * after a branch or an end of the lane. A guarded branch has two
 * successors, an unguarded one one, an unguarded EXIT or TRAP none.
 */
static bool ptx_ra_blocks(struct ptx_ra *ra)
{
	uint32_t i, b, *mark = ra->block;

	memset(mark, 0, (size_t)ra->n * sizeof(*mark));
	mark[0] = 1;
	for (i = 0; i < ra->n; i++) {
		const struct vgpu_insn *in = &ra->code[i];

		if (in->op == VGPU_OP_BRA) {
			if (in->imm < ra->start || in->imm - ra->start >= ra->n)
				return false;
			mark[in->imm - ra->start] = 1;
		}
		if ((in->op == VGPU_OP_BRA || !ptx_ra_falls_through(in)) &&
		    i + 1 < ra->n)
			mark[i + 1] = 1;
	}
	ra->nb = 0;
	for (i = 0; i < ra->n; i++)
		ra->nb += mark[i];
	ra->first = malloc(((size_t)ra->nb + 1) * sizeof(*ra->first));
	ra->succ = malloc((size_t)ra->nb * 2 * sizeof(*ra->succ));
	if (!ra->first || !ra->succ)
		return false;
	for (i = 0, b = 0; i < ra->n; i++) {
		if (mark[i])
			ra->first[b++] = i;
		ra->block[i] = b - 1;
	}
	ra->first[ra->nb] = ra->n;
	for (b = 0; b < ra->nb; b++) {
		uint32_t last = ra->first[b + 1] - 1;
		const struct vgpu_insn *in = &ra->code[last];
		uint32_t *s = &ra->succ[2 * b];

		s[0] = s[1] = PTX_RA_NONE;
		if (in->op == VGPU_OP_BRA)
			s[0] = ra->block[in->imm - ra->start];
		/* The verifier refuses code that falls off the end. */
		if (ptx_ra_falls_through(in) && last + 1 < ra->n)
			s[1] = ra->block[last + 1];
	}
	return true;
}

/* Each block's own reads (before a write in it) and unguarded writes. */
static void ptx_ra_local(struct ptx_ra *ra)
{
	uint32_t b, i, f;

	for (b = 0; b < ra->nb; b++) {
		uint64_t *use = ra->use + (size_t)b * ra->words;
		uint64_t *kill = ra->kill + (size_t)b * ra->words;

		for (i = ra->first[b]; i < ra->first[b + 1]; i++) {
			struct vgpu_insn *in = &ra->code[i];
			unsigned int regs = ptx_ra_regs(in);
			unsigned int rd = ptx_ra_reads(in, regs);

			for (f = 0; f < PTX_RA_NFIELDS; f++) {
				uint32_t r;

				if (!(rd & 1U << f))
					continue;
				r = ptx_ra_at(ra, in, f);
				if (!ptx_ra_has(kill, r))
					ptx_ra_set(use, r);
			}
			if ((regs & ~rd) & 1U << PTX_RA_DST)
				ptx_ra_set(kill, ra->dense[in->dst]);
		}
	}
}

/* What is live when block @b ends: what its successors need. */
static void ptx_ra_live_out(const struct ptx_ra *ra, uint32_t b, uint64_t *out)
{
	uint32_t k, w;

	memset(out, 0, (size_t)ra->words * sizeof(*out));
	for (k = 0; k < 2; k++) {
		uint32_t s = ra->succ[2 * b + k];

		if (s == PTX_RA_NONE)
			continue;
		for (w = 0; w < ra->words; w++)
			out[w] |= ra->in[(size_t)s * ra->words + w];
	}
}

/*
 * Live on entry to each block, to a fixed point: in = use | (out - kill).
 * Sweeping the blocks backwards settles straight-line code in one pass
 * and each loop in a pass or two more.
 */
static void ptx_ra_liveness(struct ptx_ra *ra)
{
	bool changed = true;
	uint32_t b, w;

	while (changed) {
		changed = false;
		for (b = ra->nb; b-- > 0;) {
			size_t at = (size_t)b * ra->words;

			ptx_ra_live_out(ra, b, ra->tmp);
			for (w = 0; w < ra->words; w++) {
				uint64_t v = ra->use[at + w] |
					     (ra->tmp[w] & ~ra->kill[at + w]);

				if (v != ra->in[at + w]) {
					ra->in[at + w] = v;
					changed = true;
				}
			}
		}
	}
}

/* @r interferes with every register of @live (one direction; see below). */
static void ptx_ra_conflict(struct ptx_ra *ra, uint32_t r, const uint64_t *live)
{
	uint64_t *row = ra->adj + (size_t)r * ra->words;
	uint32_t w;

	for (w = 0; w < ra->words; w++)
		row[w] |= live[w];
}

/*
 * Interference: a write conflicts with everything live after it (a
 * guarded one too, and a write nothing reads still lands in its slot).
 * Registers live at the kernel's entry are read before any write on
 * some path; they conflict with one another, and, being live, with
 * every write that could reach such a read, so no value of the thread
 * ever lands in a slot before a read that expects the register's
 * original content.
 */
static void ptx_ra_interference(struct ptx_ra *ra)
{
	uint64_t *live = ra->tmp;
	uint32_t b, i, f, r, w;

	for (b = 0; b < ra->nb; b++) {
		ptx_ra_live_out(ra, b, live);
		for (i = ra->first[b + 1]; i-- > ra->first[b];) {
			struct vgpu_insn *in = &ra->code[i];
			unsigned int regs = ptx_ra_regs(in);
			unsigned int rd = ptx_ra_reads(in, regs);

			if (regs & 1U << PTX_RA_DST) {
				uint32_t d = ra->dense[in->dst];

				ptx_ra_conflict(ra, d, live);
				/*
				 * MATCH reads the other lanes' a while it
				 * writes each lane's d: they must differ.
				 */
				if (in->op == VGPU_OP_MATCH &&
				    (regs & 1U << PTX_RA_A))
					ptx_ra_set(ra->adj + (size_t)d * ra->words,
						   ra->dense[in->a]);
				if (!(rd & 1U << PTX_RA_DST))
					ptx_ra_clear(live, d);
			}
			for (f = 0; f < PTX_RA_NFIELDS; f++)
				if (rd & 1U << f)
					ptx_ra_set(live, ptx_ra_at(ra, in, f));
		}
	}
	/* Block 0 starts at the entry: its live-in set is the kernel's. */
	for (r = 0; r < ra->nr; r++)
		if (ptx_ra_has(ra->in, r))
			ptx_ra_conflict(ra, r, ra->in);
	/* Make the relation symmetric: r conflicts with x, so x with r. */
	for (r = 0; r < ra->nr; r++) {
		const uint64_t *row = ra->adj + (size_t)r * ra->words;

		for (w = 0; w < ra->words; w++) {
			uint64_t bits = row[w];

			while (bits) {
				uint32_t x = ptx_ra_next(w, &bits);

				ptx_ra_set(ra->adj + (size_t)x * ra->words, r);
			}
		}
	}
}

/*
 * Greedy colouring in order of first appearance: each register takes the
 * lowest slot that no register placed before it and conflicting with it
 * holds. Returns the slots used.
 */
static uint32_t ptx_ra_color(struct ptx_ra *ra)
{
	uint64_t *taken = ra->tmp;
	uint32_t r, w, nslots = 0;

	for (r = 0; r < ra->nr; r++) {
		const uint64_t *row = ra->adj + (size_t)r * ra->words;
		uint32_t s = 0;

		memset(taken, 0, (size_t)ra->words * sizeof(*taken));
		for (w = 0; w <= r / 64; w++) {
			uint64_t bits = row[w];

			if (w == r / 64)
				bits &= (1ULL << (r % 64)) - 1;
			while (bits)
				ptx_ra_set(taken, ra->slot[ptx_ra_next(w, &bits)]);
		}
		while (ptx_ra_has(taken, s))
			s++;
		ra->slot[r] = s;
		if (s + 1 > nslots)
			nslots = s + 1;
	}
	return nslots;
}

static void ptx_ra_rename(struct ptx_ra *ra)
{
	uint32_t i, f;

	for (i = 0; i < ra->n; i++) {
		struct vgpu_insn *in = &ra->code[i];
		unsigned int regs = ptx_ra_regs(in);

		for (f = 0; f < PTX_RA_NFIELDS; f++)
			if (regs & 1U << f) {
				uint32_t *p = ptx_ra_field(in, f);

				*p = ra->slot[ra->dense[*p]];
			}
	}
}

static void ptx_ra_free(struct ptx_ra *ra)
{
	free(ra->dense);
	free(ra->block);
	free(ra->first);
	free(ra->succ);
	free(ra->use);
	free(ra->kill);
	free(ra->in);
	free(ra->adj);
	free(ra->tmp);
	free(ra->slot);
}

/**
 * ptx_regalloc() - renumbers the registers of a kernel's finished code,
 * its @n instructions @code (the program's from index @entry on, which
 * its branches name), numbered 0..@nregs-1 by the lowering, so that
 * registers never live together share a slot. Predicates keep their
 * numbers.
 * Return: the registers the kernel needs now (at least 1). Without the
 * memory the analysis needs, the code stays as it is and that is @nregs.
 */
uint32_t ptx_regalloc(struct vgpu_insn *code, uint32_t n, uint32_t entry,
		      uint32_t nregs)
{
	struct ptx_ra ra = {
		.code = code, .n = n, .start = entry, .nregs = nregs,
	};
	uint32_t nslots = nregs ? nregs : 1;
	size_t sets;

	if (!ra.n || !nregs)
		return nslots;
	ra.dense = malloc((size_t)nregs * sizeof(*ra.dense));
	ra.block = malloc((size_t)ra.n * sizeof(*ra.block));
	if (!ra.dense || !ra.block || !ptx_ra_number(&ra))
		goto out;
	if (!ra.nr) {
		nslots = 1;	/* the ISA wants one, named or not */
		goto out;
	}
	if (!ptx_ra_blocks(&ra))
		goto out;
	sets = ((size_t)ra.nb * 3 + ra.nr + 1) * ra.words * sizeof(uint64_t);
	if (sets > PTX_RA_MAX_BYTES)
		goto out;
	ra.use = calloc((size_t)ra.nb * ra.words, sizeof(uint64_t));
	ra.kill = calloc((size_t)ra.nb * ra.words, sizeof(uint64_t));
	ra.in = calloc((size_t)ra.nb * ra.words, sizeof(uint64_t));
	ra.adj = calloc((size_t)ra.nr * ra.words, sizeof(uint64_t));
	ra.tmp = calloc(ra.words, sizeof(uint64_t));
	ra.slot = malloc((size_t)ra.nr * sizeof(*ra.slot));
	if (!ra.use || !ra.kill || !ra.in || !ra.adj || !ra.tmp || !ra.slot)
		goto out;
	ptx_ra_local(&ra);
	ptx_ra_liveness(&ra);
	ptx_ra_interference(&ra);
	nslots = ptx_ra_color(&ra);
	ptx_ra_rename(&ra);
out:
	ptx_ra_free(&ra);
	return nslots;
}
