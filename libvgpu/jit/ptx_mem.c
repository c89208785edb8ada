// SPDX-License-Identifier: MIT
/*
 * Memory instructions: ld, st, atom and red, their addresses and state
 * spaces, the parameter slots of calls that ld.param and st.param reach,
 * and cvta between generic addresses and those of a state space.
 */
#include <string.h>

#include "ptx_ops.h"

/* The ISA space that @in names (generic if none); -1 for one vgpu lacks. */
static int ptx_insn_space(const struct ptx_insn *in, uint8_t *space)
{
	static const struct { const char *name; uint8_t space; } spaces[] = {
		{ "global", VGPU_SPACE_GLOBAL }, { "shared", VGPU_SPACE_SHARED },
		{ "local", VGPU_SPACE_LOCAL }, { "param", VGPU_SPACE_PARAM },
		/* __constant__ data is in device memory (ptx_lower.c) */
		{ "const", VGPU_SPACE_GLOBAL },
	};
	uint32_t i, s;

	*space = VGPU_SPACE_GENERIC;
	for (i = 0; i < in->nmods; i++)
		for (s = 0; s < 5; s++)
			if (!strcmp(in->mods[i], spaces[s].name))
				*space = spaces[s].space;
	if (ptx_has_mod(in, "shared::cluster"))
		return -1;
	return 0;
}

/* The ISA space of a variable of PTX state space @s. */
static uint8_t ptx_vspace(enum ptx_space s)
{
	switch (s) {
	case PTX_S_GLOBAL: return VGPU_SPACE_GLOBAL;
	case PTX_S_SHARED: return VGPU_SPACE_SHARED;
	case PTX_S_LOCAL: return VGPU_SPACE_LOCAL;
	case PTX_S_PARAM: return VGPU_SPACE_PARAM;
	case PTX_S_CONST: return VGPU_SPACE_GLOBAL;
	default: return VGPU_SPACE_GENERIC;
	}
}

/* [base+off] into @a and @imm; *@reloc when the offset is a global's. */
static int ptx_addr(struct ptx_lower *pl, const struct ptx_insn *in,
		    const struct ptx_opnd *o, uint8_t *space, uint32_t *a,
		    uint64_t *imm, bool *reloc)
{
	struct ptx_val v;
	enum ptx_space sp;

	*reloc = false;
	if (o->kind != PTX_O_ADDR)
		return ptx_bad(pl, in, "address operand expected");
	switch (o->base) {
	case PTX_BASE_REG:
		*a = ptx_reg_of(pl, o->reg, false);
		*imm = (uint64_t)o->imm;
		return 0;
	case PTX_BASE_SYM:
		if (ptx_sym_addr(pl, o, &v, &sp))
			return -1;
		if (*space == VGPU_SPACE_GENERIC) {
			/* A symbol's own space (clang writes ld.f32 [sym]). */
			*space = ptx_vspace(sp);
		} else if (*space != ptx_vspace(sp)) {
			return ptx_bad(pl, in, "symbol is not in the instruction's state space");
		}
		*a = VGPU_NO_REG;
		*imm = v.bits;
		*reloc = v.reloc;
		return 0;
	default:
		*a = VGPU_NO_REG;
		*imm = (uint64_t)o->imm;
		return 0;
	}
}

/* Registers of a ld/st data operand: one, or a vector's. */
static int ptx_data_regs(struct ptx_lower *pl, const struct ptx_insn *in,
			 const struct ptx_opnd *o, uint32_t nvec, bool store,
			 uint8_t vt, int64_t *regs)
{
	uint32_t i;

	if (o->kind == PTX_O_VEC) {
		if (o->nvec != nvec)
			return ptx_bad(pl, in, "vector size does not match the type");
		for (i = 0; i < nvec; i++)
			regs[i] = o->vec[i] < 0 ? -1 :
				  (int64_t)ptx_reg_of(pl, (uint32_t)o->vec[i], false);
		return 0;
	}
	if (nvec != 1)
		return ptx_bad(pl, in, "vector operand expected");
	if (o->kind == PTX_O_REG) {
		regs[0] = ptx_reg_of(pl, o->reg, false);
		return 0;
	}
	if (!store)
		return ptx_bad(pl, in, "destination must be a register");
	{
		/* st of a constant: ST's immediate is the address offset. */
		uint32_t r;

		if (ptx_src_reg(pl, o, vt, &r))
			return -1;
		regs[0] = r;
	}
	return 0;
}

/* The slot behind a .param symbol of a call sequence, if it is one. */
static bool ptx_slot_of(const struct ptx_lower *pl, struct ptx_sym s, uint32_t *slot)
{
	const struct ptx_frame *f = &pl->f;

	switch (s.kind) {
	case PTX_SYM_FUNCVAR:
		if (f->fn->vars[s.index].space != PTX_S_PARAM)
			return false;
		*slot = f->var_slot[s.index];
		return true;
	case PTX_SYM_PARAM:
		if (!f->param_slot)
			return false;	/* a kernel's: the parameter space */
		*slot = f->param_slot[s.index];
		return true;
	case PTX_SYM_RET:
		if (!f->ret_slot)
			return false;
		*slot = f->ret_slot[s.index];
		return true;
	default:
		return false;
	}
}

/*
 * One ld.param/st.param of @size bytes at byte @off of the slots from
 * @slot: a move when it is a whole slot, else a shift and mask.
 */
static int ptx_slot_access(struct ptx_lower *pl, const struct ptx_insn *in, bool store,
			   uint32_t slot, uint64_t off, unsigned int size,
			   uint8_t vt, uint32_t reg)
{
	uint32_t r = slot + (uint32_t)(off / 8), sh = (uint32_t)(off % 8) * 8;
	uint64_t mask = size == 8 ? ~0ULL : ((1ULL << (size * 8)) - 1) << sh;
	uint32_t t = ptx_temp(pl), u = ptx_temp(pl);
	struct vgpu_insn x = { .guard = VGPU_PRED_NONE, .type = VGPU_T_U64 };

	if (off % size || sh + size * 8 > 64)
		return ptx_bad(pl, in, "unaligned parameter access");
	if (!store) {
		/* d = slot >> sh, cut to the type */
		x.op = VGPU_OP_SHR;
		x.dst = t;
		x.a = r;
		x.flags = VGPU_IF_B_IMM;
		x.imm = sh;
		if (ptx_emit(pl, x, false))
			return -1;
		return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_MOV,
				.guard = VGPU_PRED_NONE, .type = vt, .dst = reg,
				.b = t }, false);
	}
	if (size == 8)
		return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_MOV,
				.guard = VGPU_PRED_NONE, .type = VGPU_T_U64,
				.dst = r, .b = reg }, false);
	{
		/* slot = (slot & ~mask) | ((v << sh) & mask) */
		const struct vgpu_insn seq[] = {
			{ .op = VGPU_OP_SHL, .dst = t, .a = reg,
			  .flags = VGPU_IF_B_IMM, .imm = sh },
			{ .op = VGPU_OP_AND, .dst = t, .a = t,
			  .flags = VGPU_IF_B_IMM, .imm = mask },
			{ .op = VGPU_OP_AND, .dst = u, .a = r,
			  .flags = VGPU_IF_B_IMM, .imm = ~mask },
			{ .op = VGPU_OP_OR, .dst = r, .a = u, .b = t },
		};
		unsigned int i;

		for (i = 0; i < sizeof(seq) / sizeof(seq[0]); i++) {
			x = seq[i];
			x.type = VGPU_T_U64;
			x.guard = VGPU_PRED_NONE;
			if (ptx_emit(pl, x, false))
				return -1;
		}
	}
	return 0;
}

/* ld or st (@store). */
static int ptx_ldst(struct ptx_lower *pl, const struct ptx_insn *in, bool store)
{
	struct vgpu_insn x = { .op = store ? VGPU_OP_ST : VGPU_OP_LD,
			       .guard = VGPU_PRED_NONE };
	uint32_t nvec = ptx_has_mod(in, "v4") ? 4 : ptx_has_mod(in, "v2") ? 2 : 1;
	int64_t regs[4];
	uint32_t a, i, size;
	uint64_t imm;
	bool reloc;

	if (ptx_nopnds(pl, in, 2) || ptx_itype(pl, in, 0, &x.type))
		return -1;
	if (x.type == VGPU_T_PRED)
		return ptx_bad(pl, in, "unsupported type");
	if (ptx_insn_space(in, &x.mod))
		return ptx_bad(pl, in, "unsupported state space");
	size = ptx_vbits(x.type) / 8;
	if (ptx_data_regs(pl, in, &in->opnds[store ? 1 : 0], nvec, store,
			  x.type, regs))
		return -1;
	{
		const struct ptx_opnd *ad = &in->opnds[store ? 0 : 1];
		uint32_t slot;

		if (ad->kind == PTX_O_ADDR && ad->base == PTX_BASE_SYM &&
		    ptx_slot_of(pl, ad->sym, &slot)) {
			for (i = 0; i < nvec; i++)
				if (regs[i] >= 0 &&
				    ptx_slot_access(pl, in, store, slot,
						    (uint64_t)ad->imm + i * size,
						    size, x.type,
						    (uint32_t)regs[i]))
					return -1;
			return 0;
		}
	}
	if (ptx_addr(pl, in, &in->opnds[store ? 0 : 1], &x.mod, &a, &imm, &reloc))
		return -1;
	if (store && x.mod >= VGPU_SPACE_PARAM)
		return ptx_bad(pl, in, "stores to parameters and constants are not supported");
	for (i = 0; i < nvec; i++) {
		if (regs[i] < 0)
			continue;
		x.a = a;
		x.imm = imm + (uint64_t)i * size;
		if (store)
			x.b = (uint32_t)regs[i];
		else
			x.dst = (uint32_t)regs[i];
		if (ptx_emit(pl, x, reloc))
			return -1;
	}
	return 0;
}

int ptx_lower_ld(struct ptx_lower *pl, const struct ptx_insn *in)
{
	return ptx_ldst(pl, in, false);
}

int ptx_lower_st(struct ptx_lower *pl, const struct ptx_insn *in)
{
	return ptx_ldst(pl, in, true);
}

/* atom, or red (@red), which has no destination. */
static int ptx_atom(struct ptx_lower *pl, const struct ptx_insn *in, bool red)
{
	static const char *const ops[] = {
		"add", "min", "max", "inc", "dec", "and", "or", "xor", "exch", "cas",
	};
	struct vgpu_insn x = { .op = VGPU_OP_ATOM, .guard = VGPU_PRED_NONE };
	uint32_t first = red ? 0 : 1, nsrc, i, o;
	uint64_t imm;
	bool reloc, found = false;

	if (ptx_itype(pl, in, 0, &x.type) || ptx_insn_space(in, &x.mod))
		return -1;
	if (x.mod != VGPU_SPACE_GLOBAL && x.mod != VGPU_SPACE_SHARED &&
	    x.mod != VGPU_SPACE_GENERIC)
		return ptx_bad(pl, in, "unsupported state space");
	for (i = 0; i < in->nmods && !found; i++)
		for (o = 0; o < VGPU_ATOM_COUNT && !found; o++)
			if (!strcmp(in->mods[i], ops[o])) {
				x.mod2 = (uint8_t)o;
				found = true;
			}
	if (!found)
		return ptx_bad(pl, in, "missing operation");
	nsrc = x.mod2 == VGPU_ATOM_CAS ? 2 : 1;
	if (ptx_nopnds(pl, in, first + 1 + nsrc))
		return -1;
	if (red)
		x.dst = ptx_temp(pl);
	else if (ptx_dst(pl, in, 0, x.type == VGPU_T_PRED, &x.dst))
		return -1;
	if (ptx_addr(pl, in, &in->opnds[first], &x.mod, &x.a, &imm, &reloc))
		return -1;
	x.imm = imm;
	for (i = 0; i < nsrc; i++) {
		uint32_t r;

		if (ptx_src_reg(pl, &in->opnds[first + 1 + i], x.type, &r))
			return -1;
		if (i)
			x.c = r;
		else
			x.b = r;
	}
	return ptx_emit(pl, x, reloc);
}

int ptx_lower_atom(struct ptx_lower *pl, const struct ptx_insn *in)
{
	return ptx_atom(pl, in, false);
}

int ptx_lower_red(struct ptx_lower *pl, const struct ptx_insn *in)
{
	return ptx_atom(pl, in, true);
}

/* cvta: generic addresses of shared and local memory are their windows. */
int ptx_lower_cvta(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .guard = VGPU_PRED_NONE };
	bool to = ptx_has_mod(in, "to");
	uint64_t window = 0;
	struct ptx_val v;

	if (ptx_nopnds(pl, in, 2) || ptx_itype(pl, in, 0, &x.type) ||
	    ptx_dst(pl, in, 0, x.type == VGPU_T_PRED, &x.dst))
		return -1;
	if (ptx_has_mod(in, "shared"))
		window = VGPU_SHARED_WINDOW;
	else if (ptx_has_mod(in, "local"))
		window = VGPU_LOCAL_WINDOW;
	else if (!ptx_has_mod(in, "global"))
		return ptx_bad(pl, in, "unsupported state space");
	if (ptx_src_val(pl, &in->opnds[1], x.type, &v))
		return -1;
	if (!window) {
		/* Global and generic addresses are the same numbers. */
		x.op = VGPU_OP_MOV;
		if (v.imm) {
			x.flags = VGPU_IF_B_IMM;
			x.imm = v.bits;
		} else {
			x.b = v.reg;
		}
		return ptx_emit(pl, x, v.imm && v.reloc);
	}
	if (ptx_in_reg(pl, &v, x.type))
		return -1;
	x.op = to ? VGPU_OP_SUB : VGPU_OP_ADD;
	x.a = v.reg;
	x.flags = VGPU_IF_B_IMM;
	x.imm = ptx_cut(window, x.type);
	if (ptx_vbits(x.type) < 64)
		return ptx_bad(pl, in, "32-bit generic addresses are not supported");
	return ptx_emit(pl, x, false);
}
