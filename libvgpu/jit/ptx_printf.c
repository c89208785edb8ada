// SPDX-License-Identifier: MIT
/*
 * printf: a call to vprintf becomes code that appends a record to the
 * context's printf FIFO, for the host to format (libvgpu/printf.c).
 */
#include "ptx_ops.h"

/* An instruction on 64-bit values. */
#define PTX_U64(...) ((struct vgpu_insn){ .type = VGPU_T_U64, __VA_ARGS__ })

/*
 * vprintf's result, into @ret: the number of arguments its format
 * converts (each '%' but "%%"), as CUDA's printf returns, or -1 for a NULL
 * format. The format is read where it is, through a generic address.
 * @p, @c, @at and @n are the caller's scratch predicate and registers.
 */
static int ptx_printf_result(struct ptx_lower *pl, uint32_t fmt, uint32_t ret,
			     uint8_t p, uint32_t c, uint32_t at, uint32_t n)
{
	enum { NULL_FMT = 2, LOOP = 5, END_STR = 7, NEXT = 9, PCT = 12,
	       END_PCT = 14, BACK = 16, DONE = 17 };
	const uint8_t none = VGPU_PRED_NONE;
	const struct vgpu_insn seq[] = {
		PTX_U64(.op = VGPU_OP_SETP, .mod = VGPU_CMP_EQ, .dst = p,
			.a = fmt, .flags = VGPU_IF_B_IMM, .guard = none),
		PTX_U64(.op = VGPU_OP_MOV, .dst = ret, .flags = VGPU_IF_B_IMM,
			.imm = UINT32_MAX, .guard = p),
		[NULL_FMT] = { .op = VGPU_OP_BRA, .guard = p, .c = VGPU_NO_TARGET },
		PTX_U64(.op = VGPU_OP_MOV, .dst = n, .flags = VGPU_IF_B_IMM,
			.guard = none),
		PTX_U64(.op = VGPU_OP_MOV, .dst = at, .b = fmt, .guard = none),
		/* for (;;) { c = *at++; if (!c) break; if (c != '%') continue; */
		[LOOP] = { .op = VGPU_OP_LD, .type = VGPU_T_U8,
			   .mod = VGPU_SPACE_GENERIC, .dst = c, .a = at,
			   .guard = none },
		{ .op = VGPU_OP_SETP, .type = VGPU_T_U32, .mod = VGPU_CMP_EQ,
		  .dst = p, .a = c, .flags = VGPU_IF_B_IMM, .guard = none },
		[END_STR] = { .op = VGPU_OP_BRA, .guard = p, .c = VGPU_NO_TARGET },
		PTX_U64(.op = VGPU_OP_ADD, .dst = at, .a = at,
			.flags = VGPU_IF_B_IMM, .imm = 1, .guard = none),
		[NEXT] = { .op = VGPU_OP_SETP, .type = VGPU_T_U32,
			   .mod = VGPU_CMP_NE, .dst = p, .a = c,
			   .flags = VGPU_IF_B_IMM, .imm = '%', .guard = none },
		{ .op = VGPU_OP_BRA, .guard = p, .c = VGPU_NO_TARGET },
		/* "%%" converts nothing */
		{ .op = VGPU_OP_LD, .type = VGPU_T_U8, .mod = VGPU_SPACE_GENERIC,
		  .dst = c, .a = at, .guard = none },
		[PCT] = { .op = VGPU_OP_SETP, .type = VGPU_T_U32,
			  .mod = VGPU_CMP_EQ, .dst = p, .a = c,
			  .flags = VGPU_IF_B_IMM, .imm = '%', .guard = none },
		PTX_U64(.op = VGPU_OP_ADD, .dst = at, .a = at,
			.flags = VGPU_IF_B_IMM, .imm = 1, .guard = p),
		[END_PCT] = { .op = VGPU_OP_BRA, .guard = p, .c = VGPU_NO_TARGET },
		PTX_U64(.op = VGPU_OP_ADD, .dst = n, .a = n,
			.flags = VGPU_IF_B_IMM, .imm = 1, .guard = none),
		[BACK] = { .op = VGPU_OP_BRA, .guard = none, .c = VGPU_NO_TARGET },
		[DONE] = PTX_U64(.op = VGPU_OP_MOV, .dst = ret, .b = n,
				 .guard = none),
	};
	uint32_t base = pl->ncode, i;

	_Static_assert(sizeof(seq) / sizeof(seq[0]) == DONE + 1,
		       "the branches' indices");
	for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
		if (ptx_emit(pl, seq[i], false))
			return -1;
	pl->code[base + NULL_FMT].imm = pl->ncode;
	pl->code[base + END_STR].imm = base + DONE;
	pl->code[base + NEXT + 1].imm = base + LOOP;
	pl->code[base + END_PCT].imm = base + LOOP;
	pl->code[base + BACK].imm = base + LOOP;
	return 0;
}

/*
 * vprintf(fmt, args) appends a record to the context's FIFO, whose
 * address the module's global block holds (jit.h): the size is reserved
 * with an atomic add on the header, the record goes at that count modulo
 * the capacity (the FIFO is a ring, the newest records win, as on CUDA),
 * then the format address and the argument buffer (what is left of the
 * thread's local memory from @args, at most VG_PRINTF_MAX_ARGS bytes:
 * nvcc puts the buffer in the local frame) are copied a word at a time.
 * The host formats records at synchronizing calls (printf.c).
 */
int ptx_lower_printf(struct ptx_lower *pl, const struct ptx_insn *in,
		     const struct ptx_opnd *rets, const struct ptx_opnd *args)
{
	enum { SLOT = 9, NO_FIFO = 12, LOOP = 22, EXIT_LOOP = 23, BACK = 29 };
	uint32_t fmt, buf, i, base, done, guard_bra, slots[2];
	uint32_t off = ptx_temp(pl), cnt = ptx_temp(pl), rec = ptx_temp(pl);
	uint32_t fifo = ptx_temp(pl), old = ptx_temp(pl), w = ptx_temp(pl);
	uint32_t p32;
	uint8_t p, none = VGPU_PRED_NONE;

	if (!args || args->nvec != 2 || (rets && rets->nvec > 1))
		return ptx_bad(pl, in, "vprintf takes a format and an argument buffer");
	if (ptx_call_params(pl, in, args, 2, slots))
		return -1;
	fmt = slots[0];
	buf = slots[1];
	if (ptx_scratch_pred(pl, &p32))
		return -1;
	p = (uint8_t)p32;
	pl->prints = true;
	if (ptx_call_skip_begin(pl, &guard_bra))
		return -1;
	base = pl->ncode;
	{
		const struct vgpu_insn seq[] = {
			/* off = buf - window; cnt = clamp(L - off, 0, MAX) */
			PTX_U64(.op = VGPU_OP_SUB, .dst = off, .a = buf, .guard = none,
				.flags = VGPU_IF_B_IMM, .imm = VGPU_LOCAL_WINDOW),
			PTX_U64(.op = VGPU_OP_MOV, .dst = cnt, .guard = none,
				.flags = VGPU_IF_B_IMM),
			PTX_U64(.op = VGPU_OP_SUB, .dst = cnt, .a = cnt, .b = off,
				.guard = none),
			{ .op = VGPU_OP_MIN, .type = VGPU_T_S64, .dst = cnt, .a = cnt,
			  .flags = VGPU_IF_B_IMM, .imm = VG_PRINTF_MAX_ARGS,
			  .guard = none },
			{ .op = VGPU_OP_MAX, .type = VGPU_T_S64, .dst = cnt, .a = cnt,
			  .flags = VGPU_IF_B_IMM, .guard = none },
			/* No buffer (a format without arguments): nothing to copy. */
			PTX_U64(.op = VGPU_OP_SETP, .mod = VGPU_CMP_EQ, .dst = p,
				.a = buf, .flags = VGPU_IF_B_IMM, .guard = none),
			PTX_U64(.op = VGPU_OP_MOV, .dst = cnt, .flags = VGPU_IF_B_IMM,
				.guard = p),
			/* rec = the record's size, whole words */
			PTX_U64(.op = VGPU_OP_ADD, .dst = rec, .a = cnt, .guard = none,
				.flags = VGPU_IF_B_IMM,
				.imm = VG_PRINTF_RECORD_HEAD + 7),
			PTX_U64(.op = VGPU_OP_AND, .dst = rec, .a = rec, .guard = none,
				.flags = VGPU_IF_B_IMM, .imm = ~7ull),
			/* fifo = the FIFO's address, kept in the module's globals */
			[SLOT] = PTX_U64(.op = VGPU_OP_MOV, .dst = fifo, .guard = none,
					 .flags = VGPU_IF_B_IMM, .imm = pl->printf_off),
			PTX_U64(.op = VGPU_OP_LD, .mod = VGPU_SPACE_GLOBAL, .dst = fifo,
				.a = fifo, .guard = none),
			/* None yet (libvgpu sets it before a printing launch). */
			PTX_U64(.op = VGPU_OP_SETP, .mod = VGPU_CMP_EQ, .dst = p,
				.a = fifo, .flags = VGPU_IF_B_IMM, .guard = none),
			[NO_FIFO] = { .op = VGPU_OP_BRA, .guard = p,
				      .c = VGPU_NO_TARGET },
			/* old = where it starts; fifo = its place in the ring */
			PTX_U64(.op = VGPU_OP_ATOM, .mod = VGPU_SPACE_GLOBAL,
				.mod2 = VGPU_ATOM_ADD, .dst = old, .a = fifo, .b = rec,
				.guard = none),
			PTX_U64(.op = VGPU_OP_LD, .mod = VGPU_SPACE_GLOBAL, .dst = w,
				.a = fifo, .imm = 8, .guard = none),
			PTX_U64(.op = VGPU_OP_REM, .dst = w, .a = old, .b = w,
				.guard = none),
			PTX_U64(.op = VGPU_OP_ADD, .dst = fifo, .a = fifo, .b = w,
				.guard = none),
			{ .op = VGPU_OP_ST, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
			  .a = fifo, .b = rec, .imm = VG_PRINTF_HEADER, .guard = none },
			{ .op = VGPU_OP_ST, .type = VGPU_T_U32, .mod = VGPU_SPACE_GLOBAL,
			  .a = fifo, .b = cnt, .imm = VG_PRINTF_HEADER + 4,
			  .guard = none },
			PTX_U64(.op = VGPU_OP_ST, .mod = VGPU_SPACE_GLOBAL, .a = fifo,
				.b = old, .imm = VG_PRINTF_HEADER + 8, .guard = none),
			PTX_U64(.op = VGPU_OP_ST, .mod = VGPU_SPACE_GLOBAL, .a = fifo,
				.b = fmt, .imm = VG_PRINTF_HEADER + 16, .guard = none),
			/* for (old = 0; old < cnt; old += 8) copy a word */
			PTX_U64(.op = VGPU_OP_MOV, .dst = old, .flags = VGPU_IF_B_IMM,
				.guard = none),
			[LOOP] = PTX_U64(.op = VGPU_OP_SETP, .mod = VGPU_CMP_GE, .dst = p,
					 .a = old, .b = cnt, .guard = none),
			[EXIT_LOOP] = { .op = VGPU_OP_BRA, .guard = p,
					.c = VGPU_NO_TARGET },
			PTX_U64(.op = VGPU_OP_ADD, .dst = w, .a = off, .b = old,
				.guard = none),
			PTX_U64(.op = VGPU_OP_LD, .mod = VGPU_SPACE_LOCAL, .dst = w,
				.a = w, .guard = none),
			PTX_U64(.op = VGPU_OP_ADD, .dst = rec, .a = fifo, .b = old,
				.guard = none),
			PTX_U64(.op = VGPU_OP_ST, .mod = VGPU_SPACE_GLOBAL, .a = rec,
				.b = w, .imm = VG_PRINTF_HEADER + VG_PRINTF_RECORD_HEAD,
				.guard = none),
			PTX_U64(.op = VGPU_OP_ADD, .dst = old, .a = old,
				.flags = VGPU_IF_B_IMM, .imm = 8, .guard = none),
			[BACK] = { .op = VGPU_OP_BRA, .guard = none,
				   .c = VGPU_NO_TARGET },
		};

		_Static_assert(sizeof(seq) / sizeof(seq[0]) == BACK + 1,
			       "the branches' indices");
		for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
			if (ptx_emit(pl, seq[i], i == SLOT))
				return -1;
	}
	/* The sequence's branches: past it, out of the loop, back. */
	done = pl->ncode;
	if (ptx_fixup_local_size(pl, base + 1))
		return -1;
	pl->code[base + NO_FIFO].imm = done;
	pl->code[base + EXIT_LOOP].imm = done;
	pl->code[base + BACK].imm = base + LOOP;
	if (rets && rets->nvec) {
		struct ptx_sym s = rets->list[0];

		if (s.kind != PTX_SYM_FUNCVAR ||
		    pl->f.fn->vars[s.index].space != PTX_S_PARAM)
			return ptx_bad(pl, in, "call arguments must be .param variables");
		if (ptx_printf_result(pl, fmt, pl->f.var_slot[s.index], p, w,
				      old, cnt))
			return -1;
	}
	ptx_call_skip_end(pl, guard_bra);
	return 0;
}
