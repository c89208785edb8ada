// SPDX-License-Identifier: MIT
/*
 * assert: nvcc lowers a failed assert() to a call of the extern
 * __assertfail(message, file, line, function, char size). The call
 * becomes a record in the context's printf FIFO (jit.h) carrying what
 * the host prints for the failing thread, then a trap marked as an
 * assert's, which the host reads as CUDA_ERROR_ASSERT (fault.c).
 */
#include <string.h>

#include "ptx_ops.h"

#define PTX_U64(...) ((struct vgpu_insn){ .type = VGPU_T_U64, __VA_ARGS__ })
#define PTX_U32(...) ((struct vgpu_insn){ .type = VGPU_T_U32, __VA_ARGS__ })

bool ptx_assert_func(const char *name)
{
	return !strcmp(name, "__assertfail");
}

/* The thread's coordinates, in the record's order. */
static const uint8_t ptx_assert_sregs[6] = {
	VGPU_SR_CTAID_X, VGPU_SR_CTAID_Y, VGPU_SR_CTAID_Z,
	VGPU_SR_TID_X, VGPU_SR_TID_Y, VGPU_SR_TID_Z,
};

/*
 * The record is reserved as vprintf's are (ptx_printf.c) and its format
 * address is the message's; VG_PRINTF_ASSERT in its count tells the host
 * that the argument bytes are VG_ASSERT_* fields, not vprintf's. Without
 * a FIFO (a module loaded but never bound) the thread still traps.
 */
int ptx_lower_assert(struct ptx_lower *pl, const struct ptx_insn *in,
		     const struct ptx_opnd *rets, const struct ptx_opnd *args)
{
	enum { SLOT = 0, NO_FIFO = 3 };
	const uint32_t hd = VG_PRINTF_HEADER, args_at = hd + VG_PRINTF_RECORD_HEAD;
	uint32_t fifo = ptx_temp(pl), old = ptx_temp(pl), w = ptx_temp(pl);
	uint32_t slot[4], p32, base, i, guard_bra;
	uint8_t p, none = VGPU_PRED_NONE;

	if (!args || args->nvec != 5 || (rets && rets->nvec))
		return ptx_bad(pl, in, "__assertfail takes a message, a file, a line, a function and a character size");
	if (ptx_call_params(pl, in, args, 4, slot))
		return -1;
	if (ptx_scratch_pred(pl, &p32))
		return -1;
	p = (uint8_t)p32;
	pl->prints = true;
	if (ptx_call_skip_begin(pl, &guard_bra))
		return -1;
	base = pl->ncode;
	{
		const struct vgpu_insn seq[] = {
			[SLOT] = PTX_U64(.op = VGPU_OP_MOV, .dst = fifo, .guard = none,
					 .flags = VGPU_IF_B_IMM, .imm = pl->printf_off),
			PTX_U64(.op = VGPU_OP_LD, .mod = VGPU_SPACE_GLOBAL, .dst = fifo,
				.a = fifo, .guard = none),
			PTX_U64(.op = VGPU_OP_SETP, .mod = VGPU_CMP_EQ, .dst = p,
				.a = fifo, .flags = VGPU_IF_B_IMM, .guard = none),
			[NO_FIFO] = { .op = VGPU_OP_BRA, .guard = p,
				      .c = VGPU_NO_TARGET },
			PTX_U64(.op = VGPU_OP_MOV, .dst = w, .flags = VGPU_IF_B_IMM,
				.imm = VG_ASSERT_RECORD, .guard = none),
			PTX_U64(.op = VGPU_OP_ATOM, .mod = VGPU_SPACE_GLOBAL,
				.mod2 = VGPU_ATOM_ADD, .dst = old, .a = fifo, .b = w,
				.guard = none),
			PTX_U64(.op = VGPU_OP_LD, .mod = VGPU_SPACE_GLOBAL, .dst = w,
				.a = fifo, .imm = 8, .guard = none),
			PTX_U64(.op = VGPU_OP_REM, .dst = w, .a = old, .b = w,
				.guard = none),
			PTX_U64(.op = VGPU_OP_ADD, .dst = fifo, .a = fifo, .b = w,
				.guard = none),
			PTX_U32(.op = VGPU_OP_MOV, .dst = w, .flags = VGPU_IF_B_IMM,
				.imm = VG_ASSERT_RECORD, .guard = none),
			PTX_U32(.op = VGPU_OP_ST, .mod = VGPU_SPACE_GLOBAL, .a = fifo,
				.b = w, .imm = hd, .guard = none),
			PTX_U32(.op = VGPU_OP_MOV, .dst = w, .flags = VGPU_IF_B_IMM,
				.imm = VG_PRINTF_ASSERT | VG_ASSERT_ARGS,
				.guard = none),
			PTX_U32(.op = VGPU_OP_ST, .mod = VGPU_SPACE_GLOBAL, .a = fifo,
				.b = w, .imm = hd + 4, .guard = none),
			PTX_U64(.op = VGPU_OP_ST, .mod = VGPU_SPACE_GLOBAL, .a = fifo,
				.b = old, .imm = hd + 8, .guard = none),
			PTX_U64(.op = VGPU_OP_ST, .mod = VGPU_SPACE_GLOBAL, .a = fifo,
				.b = slot[0], .imm = hd + 16, .guard = none),
			PTX_U64(.op = VGPU_OP_ST, .mod = VGPU_SPACE_GLOBAL, .a = fifo,
				.b = slot[1], .imm = args_at + VG_ASSERT_FILE,
				.guard = none),
			PTX_U64(.op = VGPU_OP_ST, .mod = VGPU_SPACE_GLOBAL, .a = fifo,
				.b = slot[3], .imm = args_at + VG_ASSERT_FUNC,
				.guard = none),
			PTX_U32(.op = VGPU_OP_ST, .mod = VGPU_SPACE_GLOBAL, .a = fifo,
				.b = slot[2], .imm = args_at + VG_ASSERT_LINE,
				.guard = none),
		};

		for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++)
			if (ptx_emit(pl, seq[i], i == SLOT))
				return -1;
	}
	for (i = 0; i < 6; i++)
		if (ptx_emit(pl, PTX_U32(.op = VGPU_OP_SREG,
					 .mod = ptx_assert_sregs[i], .dst = w,
					 .guard = none), false) ||
		    ptx_emit(pl, PTX_U32(.op = VGPU_OP_ST,
					 .mod = VGPU_SPACE_GLOBAL, .a = fifo,
					 .b = w, .guard = none,
					 .imm = args_at + VG_ASSERT_COORDS + 4 * i),
			     false))
			return -1;
	pl->code[base + NO_FIFO].imm = pl->ncode;
	if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_TRAP,
		     .mod = VGPU_TRAP_ASSERT, .guard = none }, false))
		return -1;
	ptx_call_skip_end(pl, guard_bra);
	return 0;
}
