// SPDX-License-Identifier: MIT
/*
 * The texture and surface instructions: tex (plain, .level, .grad), tld4,
 * txq, suld, sust (.b and .p), suq and istypep. Their operands pass
 * through the warp's texture slots (uapi/vgpu_isa.h): TEXSET before the
 * instruction, TEXGET after. The texture or surface is a register holding
 * a descriptor's address (an object's handle) or a module's .texref or
 * .surfref variable, which holds one.
 */
#include <string.h>

#include "ptx_ops.h"

/*
 * Slots of the coordinates: x, y, z, and the layer; the level, the six
 * gradients' components, the texel offsets.
 */
enum { SLOT_X, SLOT_Y, SLOT_Z, SLOT_LAYER, SLOT_LOD, SLOT_GRAD, SLOT_OFFSET = 11 };

/*
 * A geometry: the slots its coordinate vector's elements go to, in
 * order (-1: padding), and the gradients' components.
 */
struct ptx_geom {
	const char *name;
	int8_t slot[4];
	uint8_t ncoords;	/* elements the vector has */
	uint8_t ngrad;		/* components of a gradient */
};

static const struct ptx_geom ptx_geoms[] = {
	{ "1d", { SLOT_X }, 1, 1 },
	{ "2d", { SLOT_X, SLOT_Y }, 2, 2 },
	{ "3d", { SLOT_X, SLOT_Y, SLOT_Z, -1 }, 4, 3 },
	{ "a1d", { SLOT_LAYER, SLOT_X }, 2, 1 },
	{ "a2d", { SLOT_LAYER, SLOT_X, SLOT_Y, -1 }, 4, 2 },
	{ "cube", { SLOT_X, SLOT_Y, SLOT_Z, -1 }, 4, 3 },
	{ "acube", { SLOT_LAYER, SLOT_X, SLOT_Y, SLOT_Z }, 4, 3 },
};

static const struct ptx_geom *ptx_geom_of(struct ptx_lower *pl,
					  const struct ptx_insn *in)
{
	uint32_t i, g;

	for (i = 0; i < in->nmods; i++)
		for (g = 0; g < sizeof(ptx_geoms) / sizeof(ptx_geoms[0]); g++)
			if (!strcmp(in->mods[i], ptx_geoms[g].name))
				return &ptx_geoms[g];
	if (ptx_has_mod(in, "2dms") || ptx_has_mod(in, "a2dms"))
		ptx_bad(pl, in, "multisample textures are not supported");
	else
		ptx_bad(pl, in, "missing geometry");
	return NULL;
}

/*
 * The descriptor's address of operand @o (its base: a register, or a
 * reference variable of kind @ref) in a register.
 */
static int ptx_handle(struct ptx_lower *pl, const struct ptx_insn *in,
		      const struct ptx_opnd *o, uint8_t ref, uint32_t *reg)
{
	const struct ptx_var *v;
	struct ptx_val val;
	enum ptx_space space;

	if (o->kind != PTX_O_TEX && o->kind != PTX_O_ADDR)
		return ptx_bad(pl, in, "expected [texture, ...] or [surface, ...]");
	if (o->kind == PTX_O_TEX && o->comp)
		return ptx_bad(pl, in, "independent samplers are not supported (unified texture mode only)");
	if (o->kind == PTX_O_ADDR && o->imm)
		return ptx_bad(pl, in, "a texture or surface takes no offset");
	if (o->base == PTX_BASE_REG) {
		*reg = ptx_reg_of(pl, o->reg, false);
		return 0;
	}
	if (o->base != PTX_BASE_SYM || o->sym.kind != PTX_SYM_MODVAR)
		return ptx_bad(pl, in, "expected a register or a reference variable");
	v = &pl->m->vars[o->sym.index];
	if (v->ref != ref)
		return ptx_bad(pl, in, ref == PTX_REF_TEX ?
			       "not a .texref variable" : "not a .surfref variable");
	/* The variable's slot holds the descriptor's address. */
	if (ptx_sym_addr(pl, o, &val, &space))
		return -1;
	*reg = ptx_temp(pl);
	return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_LD,
			.type = VGPU_T_U64, .mod = VGPU_SPACE_GLOBAL,
			.guard = VGPU_PRED_NONE, .dst = *reg, .a = VGPU_NO_REG,
			.imm = val.bits }, val.reloc);
}

/* Register @reg (32 bits, or 64 with @wide) into slot @slot. */
static int ptx_set(struct ptx_lower *pl, uint32_t slot, uint32_t reg, bool wide)
{
	return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_TEXSET,
			.type = wide ? VGPU_T_U64 : VGPU_T_U32, .mod = (uint8_t)slot,
			.guard = VGPU_PRED_NONE, .a = reg }, false);
}

static int ptx_get(struct ptx_lower *pl, uint32_t slot, uint32_t reg, bool wide)
{
	return ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_TEXGET,
			.type = wide ? VGPU_T_U64 : VGPU_T_U32, .mod = (uint8_t)slot,
			.guard = VGPU_PRED_NONE, .dst = reg }, false);
}

/* The coordinates of @o into their slots, as @g places them. */
static int ptx_coords(struct ptx_lower *pl, const struct ptx_insn *in,
		      const struct ptx_opnd *o, const struct ptx_geom *g)
{
	uint32_t i;

	if (o->nvec != g->ncoords)
		return ptx_bad(pl, in, "wrong number of coordinates for the geometry");
	for (i = 0; i < g->ncoords; i++) {
		if (g->slot[i] >= 0 && (o->vimm & 1u << i)) {
			struct ptx_opnd c = { .kind = PTX_O_IMM, .pos = o->pos,
					      .imm = (uint32_t)o->vec[i] };
			uint32_t r;

			if (ptx_src_reg(pl, &c, VGPU_T_U32, &r) ||
			    ptx_set(pl, (uint32_t)g->slot[i], r, false))
				return -1;
			continue;
		}
		if (g->slot[i] < 0 || o->vec[i] < 0)
			continue;
		if (ptx_set(pl, (uint32_t)g->slot[i],
			    ptx_reg_of(pl, (uint32_t)o->vec[i], false), false))
			return -1;
	}
	return 0;
}

/* A 32-bit source operand (register or immediate) into slot @slot. */
static int ptx_set_src(struct ptx_lower *pl, const struct ptx_opnd *o,
		       uint8_t vt, uint32_t slot)
{
	uint32_t r;

	if (ptx_src_reg(pl, o, vt, &r))
		return -1;
	return ptx_set(pl, slot, r, false);
}

/* The result vector @o: slot k into its k-th register ("_": none). */
static int ptx_results(struct ptx_lower *pl, const struct ptx_insn *in,
		       const struct ptx_opnd *o, uint32_t n, bool wide)
{
	uint32_t k;

	if (o->kind == PTX_O_REG && n == 1)
		return ptx_get(pl, 0, ptx_reg_of(pl, o->reg, false), wide);
	if (o->kind != PTX_O_VEC || o->nvec != n)
		return ptx_bad(pl, in, "wrong number of results");
	for (k = 0; k < n; k++)
		if (o->vec[k] >= 0 &&
		    ptx_get(pl, k * (wide ? 2 : 1),
			    ptx_reg_of(pl, (uint32_t)o->vec[k], false), wide))
			return -1;
	return 0;
}

/*
 * The optional operands after the coordinates (and level or gradients):
 * texel offsets @in->opnds[@at], a vector of the geometry's axes (3d: of
 * four), each wrapped as an H100 does to 4 bits (-9 is 7, 8 is -8), or
 * tld4's to 6 (-32..31), into SLOT_OFFSET for TEX @x; then the depth
 * comparison value. CUDA's texture
 * descriptors carry no comparison function, and an H100 then samples as
 * if there were no operand (texoffset's depth kernels): it is checked
 * and dropped.
 */
static int ptx_tex_extra(struct ptx_lower *pl, const struct ptx_insn *in,
			 uint32_t at, const struct ptx_geom *g, struct vgpu_insn *x)
{
	const struct ptx_opnd *o = &in->opnds[at];
	bool vec = o->kind == PTX_O_VEC;
	bool gather = x->mod == VGPU_TEXV_GATHER;
	uint32_t k, n = g->ngrad, acc, packed = 0, bits = gather ? 6 : 4;

	if (in->nopnds <= at)
		return 0;
	if (in->nopnds > at + 2)
		return ptx_bad(pl, in, "wrong number of operands");
	if (!strcmp(g->name, "cube") || !strcmp(g->name, "acube"))
		return ptx_bad(pl, in, "cube textures take no texel offsets");
	if (!(o->kind == PTX_O_REG && n == 1) &&
	    !(vec && (o->nvec == n || (n == 3 && o->nvec == 4))))
		return ptx_bad(pl, in, "texel offsets are a vector of one .s32 per axis");
	for (k = 0; vec && k < n; k++) {
		if (o->vimm & 1u << k)
			packed |= ((uint32_t)o->vec[k] & ((1u << bits) - 1)) << (bits * k);
		else if (o->vec[k] < 0)
			return ptx_bad(pl, in, "missing texel offset");
	}
	acc = ptx_temp(pl);
	if (ptx_movi(pl, VGPU_T_U32, acc, packed))
		return -1;
	/* Offsets in registers: their low bits each, or'ed in place. */
	for (k = 0; k < n; k++) {
		uint32_t t = ptx_temp(pl), r;

		if (vec && (o->vimm & 1u << k))
			continue;
		r = ptx_reg_of(pl, vec ? (uint32_t)o->vec[k] : o->reg, false);
		if (ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_AND,
				.type = VGPU_T_U32, .guard = VGPU_PRED_NONE, .dst = t,
				.a = r, .flags = VGPU_IF_B_IMM, .imm = (1u << bits) - 1 },
				false) ||
		    ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_SHL,
				.type = VGPU_T_U32, .guard = VGPU_PRED_NONE, .dst = t,
				.a = t, .flags = VGPU_IF_B_IMM, .imm = bits * k }, false) ||
		    ptx_emit(pl, (struct vgpu_insn){ .op = VGPU_OP_OR,
				.type = VGPU_T_U32, .guard = VGPU_PRED_NONE, .dst = acc,
				.a = acc, .b = t }, false))
			return -1;
	}
	if (ptx_set(pl, SLOT_OFFSET, acc, false))
		return -1;
	x->imm = gather ? 2 : 1;
	if (in->nopnds == at + 2) {
		uint32_t r;

		if (!strcmp(g->name, "3d"))
			return ptx_bad(pl, in, "3d textures take no depth comparison");
		return ptx_src_reg(pl, &in->opnds[at + 1], VGPU_T_F32, &r);
	}
	return 0;
}

/* The result and coordinate types: the instruction's last two types. */
static int ptx_tex_types(struct ptx_lower *pl, const struct ptx_insn *in,
			 uint8_t *dtype, uint8_t *ctype)
{
	enum ptx_type d = ptx_nth_type(in, 1), c = ptx_nth_type(in, 0);

	if (d == PTX_T_F32)
		*dtype = VGPU_T_F32;
	else if (d == PTX_T_S32)
		*dtype = VGPU_T_S32;
	else if (d == PTX_T_U32)
		*dtype = VGPU_T_U32;
	else
		return ptx_bad(pl, in, "results are .f32, .s32 or .u32 (half results are not supported)");
	if (c == PTX_T_F32)
		*ctype = VGPU_T_F32;
	else if (c == PTX_T_S32)
		*ctype = VGPU_T_S32;
	else
		return ptx_bad(pl, in, "coordinates are .f32 or .s32");
	return 0;
}

/* tex, tex.level, tex.grad, tex.base. */
int ptx_lower_tex(struct ptx_lower *pl, const struct ptx_insn *in)
{
	struct vgpu_insn x = { .op = VGPU_OP_TEX, .guard = VGPU_PRED_NONE };
	const struct ptx_geom *g = ptx_geom_of(pl, in);
	bool level = ptx_has_mod(in, "level"), grad = ptx_has_mod(in, "grad");
	uint32_t want = 2 + (level ? 1 : 0) + (grad ? 2 : 0), i, k;

	if (!g)
		return -1;
	if (in->has_pipe)
		return ptx_bad(pl, in, "sparse residency results are not supported");
	if (!ptx_has_mod(in, "v4"))
		return ptx_bad(pl, in, "only four-element results (.v4) are supported");
	if ((in->nopnds < want && ptx_nopnds(pl, in, want)) ||
	    ptx_tex_types(pl, in, &x.type, &x.stype) ||
	    ptx_handle(pl, in, &in->opnds[1], PTX_REF_TEX, &x.a) ||
	    ptx_coords(pl, in, &in->opnds[1], g))
		return -1;
	x.mod = VGPU_TEXV_PLAIN;
	if (ptx_has_mod(in, "base")) {
		/* level 0 exactly: an explicit level of 0 */
		uint32_t z = ptx_temp(pl);

		if (ptx_movi(pl, VGPU_T_U32, z, 0) || ptx_set(pl, SLOT_LOD, z, false))
			return -1;
		x.mod = VGPU_TEXV_LEVEL;
	}
	if (level) {
		if (ptx_set_src(pl, &in->opnds[2], VGPU_T_F32, SLOT_LOD))
			return -1;
		x.mod = VGPU_TEXV_LEVEL;
	}
	if (grad) {
		for (i = 0; i < 2; i++) {
			const struct ptx_opnd *o = &in->opnds[2 + i];

			if (o->kind == PTX_O_REG && g->ngrad == 1) {
				if (ptx_set(pl, SLOT_GRAD + 3 * i,
					    ptx_reg_of(pl, o->reg, false), false))
					return -1;
				continue;
			}
			if (o->kind != PTX_O_VEC || o->nvec < g->ngrad)
				return ptx_bad(pl, in, "wrong number of gradient components");
			for (k = 0; k < g->ngrad; k++)
				if (o->vec[k] >= 0 &&
				    ptx_set(pl, SLOT_GRAD + 3 * i + k,
					    ptx_reg_of(pl, (uint32_t)o->vec[k], false),
					    false))
					return -1;
		}
		x.mod = VGPU_TEXV_GRAD;
	}
	if (ptx_tex_extra(pl, in, want, g, &x) || ptx_emit(pl, x, false))
		return -1;
	return ptx_results(pl, in, &in->opnds[0], 4, false);
}

/* tld4.{r,g,b,a}: a channel of the four texels linear filtering blends. */
int ptx_lower_tld4(struct ptx_lower *pl, const struct ptx_insn *in)
{
	static const char comps[] = "rgba";
	struct vgpu_insn x = { .op = VGPU_OP_TEX, .mod = VGPU_TEXV_GATHER,
			       .guard = VGPU_PRED_NONE };
	const struct ptx_geom *g = ptx_geom_of(pl, in);
	uint32_t c;

	if (!g)
		return -1;
	for (c = 0; c < 4; c++)
		if (ptx_has_mod(in, (char[]){ comps[c], 0 }))
			break;
	if (c == 4)
		return ptx_bad(pl, in, "missing channel (.r, .g, .b or .a)");
	x.mod2 = (uint8_t)c;
	if (in->has_pipe)
		return ptx_bad(pl, in, "sparse residency results are not supported");
	if ((in->nopnds < 2 && ptx_nopnds(pl, in, 2)) ||
	    ptx_tex_types(pl, in, &x.type, &x.stype) ||
	    ptx_handle(pl, in, &in->opnds[1], PTX_REF_TEX, &x.a) ||
	    ptx_coords(pl, in, &in->opnds[1], g) || ptx_tex_extra(pl, in, 2, g, &x) ||
	    ptx_emit(pl, x, false))
		return -1;
	return ptx_results(pl, in, &in->opnds[0], 4, false);
}

/*
 * txq and suq: a texture's or surface's width, height or depth, of level
 * 0 or (txq.level) of a level. Other queries (formats, sampler state)
 * are refused, as an H100's driver refuses modules with them for
 * texture objects.
 */
static int ptx_query(struct ptx_lower *pl, const struct ptx_insn *in,
		     uint8_t ref)
{
	static const char *const names[] = { "width", "height", "depth" };
	struct vgpu_insn x = { .op = VGPU_OP_TXQ, .type = VGPU_T_U32,
			       .guard = VGPU_PRED_NONE };
	bool level = ref == PTX_REF_TEX && ptx_has_mod(in, "level");
	uint32_t q;

	for (q = 0; q < 3; q++)
		if (ptx_has_mod(in, names[q]))
			break;
	if (q == 3) {
		pl->refusal = ref == PTX_REF_TEX ? VG_JIT_REFUSED_HANDLE :
			VG_JIT_REFUSED_UNSUPPORTED;
		return ptx_bad(pl, in, "only width, height and depth can be queried of texture and surface objects");
	}
	x.mod = (uint8_t)(level ? VGPU_TXQ_LEVEL_WIDTH + q : q);
	if (ptx_nopnds(pl, in, level ? 3 : 2) || ptx_dst(pl, in, 0, false, &x.dst) ||
	    ptx_handle(pl, in, &in->opnds[1], ref, &x.a))
		return -1;
	if (in->opnds[1].kind != PTX_O_ADDR)
		return ptx_bad(pl, in, "expected [texture]");
	if (level) {
		struct ptx_val v;

		if (ptx_src_val(pl, &in->opnds[2], VGPU_T_U32, &v))
			return -1;
		if (v.imm) {
			x.flags = VGPU_IF_B_IMM;
			x.imm = v.bits;
		} else {
			x.b = v.reg;
		}
	}
	return ptx_emit(pl, x, false);
}

int ptx_lower_txq(struct ptx_lower *pl, const struct ptx_insn *in)
{
	return ptx_query(pl, in, PTX_REF_TEX);
}

int ptx_lower_suq(struct ptx_lower *pl, const struct ptx_insn *in)
{
	return ptx_query(pl, in, PTX_REF_SURF);
}

/* suld.b and sust.b, sust.p: elements, their count, the clamp mode. */
static int ptx_surf(struct ptx_lower *pl, const struct ptx_insn *in, bool store)
{
	static const struct { const char *name; uint8_t t; } elems[] = {
		{ "b8", VGPU_T_U8 }, { "b16", VGPU_T_U16 }, { "b32", VGPU_T_U32 },
		{ "b64", VGPU_T_U64 },
	};
	struct vgpu_insn x = { .op = store ? VGPU_OP_SUST : VGPU_OP_SULD,
			       .guard = VGPU_PRED_NONE, .mod = VGPU_SURF_TRAP };
	const struct ptx_opnd *so = &in->opnds[store ? 0 : 1];
	const struct ptx_opnd *vo = &in->opnds[store ? 1 : 0];
	const struct ptx_geom *g = ptx_geom_of(pl, in);
	uint32_t n = 1, k, e;
	bool wide;

	if (!g)
		return -1;
	if (g->name[0] == 'c' || g->name[1] == 'c')
		return ptx_bad(pl, in, "cube surfaces are addressed as .a2d");
	for (e = 0; e < 4; e++)
		if (ptx_has_mod(in, elems[e].name))
			break;
	if (e == 4)
		return ptx_bad(pl, in, "missing element type (.b8, .b16, .b32 or .b64)");
	x.type = elems[e].t;
	wide = x.type == VGPU_T_U64;
	if (ptx_has_mod(in, "v2"))
		n = 2;
	else if (ptx_has_mod(in, "v4"))
		n = 4;
	x.imm = n;
	if (ptx_has_mod(in, "clamp"))
		x.mod = VGPU_SURF_CLAMP;
	else if (ptx_has_mod(in, "zero"))
		x.mod = VGPU_SURF_ZERO;
	if (ptx_has_mod(in, "p")) {
		if (!store)
			return ptx_bad(pl, in, "formatted loads do not exist");
		if (x.type != VGPU_T_U32)
			return ptx_bad(pl, in, "formatted stores take .b32 values");
		x.mod2 = 1;
	} else if (!ptx_has_mod(in, "b")) {
		return ptx_bad(pl, in, "missing .b or .p");
	}
	if (ptx_nopnds(pl, in, 2) ||
	    ptx_handle(pl, in, so, PTX_REF_SURF, &x.a))
		return -1;
	if (so->kind != PTX_O_TEX)
		return ptx_bad(pl, in, "expected [surface, {coordinates}]");
	if (ptx_coords(pl, in, so, g))
		return -1;
	if (!store) {
		if (ptx_emit(pl, x, false))
			return -1;
		return ptx_results(pl, in, vo, n, wide);
	}
	if (vo->kind == PTX_O_VEC) {
		if (vo->nvec != n)
			return ptx_bad(pl, in, "wrong number of values");
		for (k = 0; k < n; k++) {
			if (vo->vec[k] < 0)
				return ptx_bad(pl, in, "a stored value cannot be '_'");
			if (ptx_set(pl, 4 + k * (wide ? 2 : 1),
				    ptx_reg_of(pl, (uint32_t)vo->vec[k], false), wide))
				return -1;
		}
	} else {
		uint32_t r;

		if (n != 1 || ptx_src_reg(pl, vo, wide ? VGPU_T_U64 : VGPU_T_U32, &r) ||
		    ptx_set(pl, 4, r, wide))
			return n != 1 ? ptx_bad(pl, in, "wrong number of values") : -1;
	}
	return ptx_emit(pl, x, false);
}

int ptx_lower_suld(struct ptx_lower *pl, const struct ptx_insn *in)
{
	return ptx_surf(pl, in, false);
}

int ptx_lower_sust(struct ptx_lower *pl, const struct ptx_insn *in)
{
	return ptx_surf(pl, in, true);
}

/*
 * istypep: whether an operand is a texture, sampler or surface. A module
 * reference variable of that kind is; a register never is, as an H100
 * answers for every object handle.
 */
int ptx_lower_istypep(struct ptx_lower *pl, const struct ptx_insn *in)
{
	const struct ptx_opnd *o = &in->opnds[1];
	uint8_t want = ptx_has_mod(in, "texref") ? PTX_REF_TEX :
		       ptx_has_mod(in, "surfref") ? PTX_REF_SURF :
		       ptx_has_mod(in, "samplerref") ? PTX_REF_SAMPLER : 0;
	bool yes = false;
	uint32_t p;

	if (!want)
		return ptx_bad(pl, in, "missing .texref, .samplerref or .surfref");
	if (ptx_nopnds(pl, in, 2) || ptx_dst(pl, in, 0, true, &p))
		return -1;
	if (o->kind == PTX_O_SYM && o->sym.kind == PTX_SYM_MODVAR)
		yes = pl->m->vars[o->sym.index].ref == want;
	else if (o->kind != PTX_O_REG)
		return ptx_bad(pl, in, "expected a register or a reference variable");
	/* p ^ p is false; its negation true. */
	if (ptx_op(pl, VGPU_OP_XOR, VGPU_T_PRED, p, p, p))
		return -1;
	return yes ? ptx_op(pl, VGPU_OP_NOT, VGPU_T_PRED, p, p, 0) : 0;
}
