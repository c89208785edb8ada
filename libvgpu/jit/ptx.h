/* SPDX-License-Identifier: MIT */
/*
 * A PTX module as the front end leaves it (ptx_lex.c, ptx_parse.c) and the
 * lowering to the vgpu ISA reads it (ptx_lower.c and the files under it).
 *
 * The parser resolves every name while it reads, with PTX's scopes
 * (module, function, nested { } blocks), so operands hold indexes into
 * tables rather than names. Instructions are kept in a generic form (the
 * opcode and its dotted modifiers as written, operands by kind): which
 * forms exist and what they mean is the lowering's business, which
 * reports what it does not support at the instruction's line and column.
 */
#ifndef VG_PTX_H
#define VG_PTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ptx_pos {
	uint32_t line;		/* from 1 */
	uint32_t col;		/* from 1 */
};

/* Types as written in declarations (.reg/.param/.global ...). */
enum ptx_type {
	PTX_T_NONE,
	PTX_T_B8, PTX_T_B16, PTX_T_B32, PTX_T_B64,
	PTX_T_U8, PTX_T_U16, PTX_T_U32, PTX_T_U64,
	PTX_T_S8, PTX_T_S16, PTX_T_S32, PTX_T_S64,
	PTX_T_F16, PTX_T_F16X2, PTX_T_BF16, PTX_T_F32, PTX_T_F64,
	PTX_T_PRED,
	PTX_T_COUNT
};

enum ptx_space {
	PTX_S_NONE,
	PTX_S_REG,
	PTX_S_GLOBAL,
	PTX_S_SHARED,
	PTX_S_LOCAL,
	PTX_S_PARAM,
	PTX_S_CONST,
};

/*
 * A function's name in a variable's initializer ("= {f, g}", or
 * "0xFF00(f)" for one byte of it): its address, shifted right by @shift,
 * fills the element at byte @offset of the initializer, which holds 0
 * until the lowering gives the function its address.
 */
struct ptx_init_func {
	uint64_t offset;
	uint32_t func;		/* ptx_module.funcs[] */
	uint8_t shift;
};

/*
 * A module variable's address in a variable's initializer ("= x",
 * "= generic(x)+8"): the variable's address plus @addend fills the 64-bit
 * element at byte @offset. The global block's address is known only when
 * a context loads the module, so the lowering writes the variable's offset
 * in the block and the loader adds the block's address (data relocations).
 */
struct ptx_init_var {
	uint64_t offset;
	uint32_t var;		/* ptx_module.vars[] */
	int64_t addend;
};

/*
 * A variable: module scope (.global, .const, .extern .shared), function
 * scope (.shared, .local, .param of a call sequence), or a parameter or
 * return value of a function.
 */
struct ptx_var {
	char *name;
	struct ptx_pos pos;
	enum ptx_space space;
	enum ptx_type type;
	uint32_t vec;		/* 1, or 2/4 for .v2/.v4 */
	uint32_t align;		/* bytes as declared; 0 when not given */
	uint64_t count;		/* elements: 1 for a scalar, 0 for "name[]" */
	bool array;		/* declared with [] */
	bool is_extern;
	bool visible;
	bool weak;
	bool managed;		/* .attribute(.managed): __managed__ */
	uint8_t ref;		/* PTX_REF_*: .texref, .surfref, .samplerref */
	uint8_t *init;		/* initializer bytes, little endian, or NULL */
	uint64_t init_bytes;	/* may be less than the size: the rest is 0 */
	struct ptx_init_func *init_funcs;	/* functions named in @init */
	uint32_t ninit_funcs;
	struct ptx_init_var *init_vars;		/* variables named in @init */
	uint32_t ninit_vars;
};

/* What a .texref, .surfref or .samplerref variable is (ptx_var.ref). */
enum { PTX_REF_NONE, PTX_REF_TEX, PTX_REF_SURF, PTX_REF_SAMPLER };

/* A register, after ranges (%r<11>) are expanded: one entry each. */
struct ptx_reg {
	char *name;
	enum ptx_type type;
	uint32_t vec;		/* 1, 2 or 4 */
	struct ptx_pos pos;
};

/* What a name in an operand resolved to. */
enum ptx_sym_kind {
	PTX_SYM_MODVAR,		/* ptx_module.vars[index] */
	PTX_SYM_FUNCVAR,	/* the function's vars[index] */
	PTX_SYM_PARAM,		/* the function's params[index] */
	PTX_SYM_RET,		/* the function's rets[index] */
	PTX_SYM_FUNC,		/* ptx_module.funcs[index] */
	PTX_SYM_PROTO,		/* the function's protos[index] */
};

struct ptx_sym {
	enum ptx_sym_kind kind;
	uint32_t index;
};

/* Special registers (%tid.x ...), with their component. */
enum ptx_sreg {
	PTX_SR_TID, PTX_SR_NTID, PTX_SR_CTAID, PTX_SR_NCTAID,
	PTX_SR_LANEID, PTX_SR_WARPID, PTX_SR_NWARPID, PTX_SR_SMID,
	PTX_SR_NSMID, PTX_SR_GRIDID,
	PTX_SR_LANEMASK_EQ, PTX_SR_LANEMASK_LT, PTX_SR_LANEMASK_LE,
	PTX_SR_LANEMASK_GT, PTX_SR_LANEMASK_GE,
	PTX_SR_CLOCK, PTX_SR_CLOCK64, PTX_SR_GLOBALTIMER,
	PTX_SR_DYNAMIC_SMEM_SIZE, PTX_SR_TOTAL_SMEM_SIZE,
	PTX_SR_ENVREG,		/* %envreg0 to %envreg31: @comp is the number */
};

enum ptx_opnd_kind {
	PTX_O_NONE,
	PTX_O_REG,		/* @reg; @neg for "!%p" (guards, selp/setp sources) */
	PTX_O_IMM,		/* an integer: @imm (negative ones sign-extended) */
	PTX_O_FIMM,		/* 0fXXXXXXXX (@fbits, @fwidth 32) or 0dX... (64) */
	PTX_O_SYM,		/* a variable's or function's address (@sym +
				 * @imm), or a call's prototype */
	PTX_O_ADDR,		/* [base+@imm]: base @reg, @sym (@base says), or none */
	PTX_O_VEC,		/* {a, b, ...}: @nvec registers in @vec; -1 for "_" */
	PTX_O_SREG,		/* @sreg, @comp 0/1/2 for .x/.y/.z (0 if none),
				 * or an %envreg's number */
	PTX_O_LABEL,		/* @label: index into the function's labels */
	PTX_O_LIST,		/* (a, b, ...) of a call: @nvec symbols in @list */
	PTX_O_SINK,		/* "_" */
	PTX_O_TEX,		/* [t, {c...}] of a texture or surface
				 * instruction: t as PTX_O_ADDR's base, the
				 * coordinates as PTX_O_VEC's; @comp 1 when a
				 * sampler came between ([t, s, {c...}]) */
};

enum ptx_base { PTX_BASE_NONE, PTX_BASE_REG, PTX_BASE_SYM };

#define PTX_MAX_VEC 8
#define PTX_MAX_OPNDS 6
#define PTX_MAX_MODS 10
#define PTX_MOD_LEN 24	/* txq.normalized_coords: 17 characters */

struct ptx_opnd {
	enum ptx_opnd_kind kind;
	struct ptx_pos pos;
	bool neg;
	enum ptx_base base;	/* PTX_O_ADDR */
	uint32_t reg;		/* PTX_O_REG, PTX_O_ADDR with a register base */
	struct ptx_sym sym;	/* PTX_O_SYM, PTX_O_ADDR with a symbol base */
	int64_t imm;		/* PTX_O_IMM, offsets of PTX_O_SYM/PTX_O_ADDR */
	uint64_t fbits;		/* PTX_O_FIMM */
	uint32_t fwidth;
	enum ptx_sreg sreg;
	uint32_t comp;
	uint32_t label;
	uint32_t nvec;		/* PTX_O_VEC, PTX_O_LIST */
	int32_t vec[PTX_MAX_VEC];	/* register indexes, -1 for "_" */
	uint8_t vimm;		/* PTX_O_TEX: bit k, @vec[k] holds the bits of
				 * a 32-bit immediate coordinate; PTX_O_VEC
				 * (texel offsets): an integer */
	struct ptx_sym list[PTX_MAX_VEC];
};

/*
 * One instruction: "@!%p1 ld.global.nc.v2.f64 {%fd1, %fd2}, [%rd9+8];"
 * has op "ld", mods "global" "nc" "v2" "f64", guard %p1 negated, and two
 * operands. A second destination written "%r15|%p3" (shfl, setp) sets
 * @has_pipe, with %p3 in @pipe_reg; operand 0 is %r15.
 */
struct ptx_insn {
	struct ptx_pos pos;
	char op[PTX_MOD_LEN];
	uint32_t nmods;
	char mods[PTX_MAX_MODS][PTX_MOD_LEN];
	bool guarded;
	bool guard_neg;
	uint32_t guard;		/* a .pred register */
	bool has_pipe;
	uint32_t pipe_reg;
	uint32_t nopnds;
	struct ptx_opnd opnds[PTX_MAX_OPNDS];
	uint32_t file, line;	/* from the last .loc before it; 0: none */
};

struct ptx_label {
	char *name;
	struct ptx_pos pos;
	uint32_t insn;		/* the instruction it stands before */
	bool defined;
};

/*
 * "name: .callprototype (.param .b32 _) _ (.param .b64 _);" in a body:
 * the shape of what an indirect call (call ..., %rd, ..., name) reaches.
 */
struct ptx_proto {
	char *name;
	struct ptx_pos pos;
	struct ptx_var *params;
	uint32_t nparams;
	struct ptx_var *rets;
	uint32_t nrets;
};

struct ptx_func {
	char *name;
	struct ptx_pos pos;
	bool entry;		/* .entry (a kernel), else .func */
	bool visible, is_extern, weak;
	bool has_body;		/* false for prototypes and .extern */
	struct ptx_var *params;
	uint32_t nparams;
	struct ptx_var *rets;	/* .func return parameters */
	uint32_t nrets;
	struct ptx_reg *regs;
	uint32_t nregs;
	struct ptx_var *vars;	/* declared in the body, any block */
	uint32_t nvars;
	struct ptx_insn *insns;
	uint32_t ninsns;
	struct ptx_label *labels;
	uint32_t nlabels;
	struct ptx_proto *protos;	/* .callprototype, any block */
	uint32_t nprotos;
	uint32_t maxntid[3];	/* 0: not given */
	uint32_t reqntid[3];
	uint32_t minnctapersm;
	uint32_t maxnreg;
};

struct ptx_file {
	uint32_t index;
	char *path;
};

struct ptx_module {
	uint32_t version_major, version_minor;
	char target[32];	/* "sm_75" */
	bool target_debug;
	uint32_t address_size;	/* 64 */
	struct ptx_var *vars;
	uint32_t nvars;
	struct ptx_func *funcs;
	uint32_t nfuncs;
	struct ptx_file *files;
	uint32_t nfiles;
};

/*
 * Parses @len bytes of PTX text (need not be NUL-terminated). Returns 0
 * with *@out allocated, or -1 with "LINE:COL: message" in @err (at most
 * @err_len bytes, NUL-terminated).
 */
int ptx_parse(const char *text, size_t len, struct ptx_module **out,
	      char *err, size_t err_len);
void ptx_free(struct ptx_module *m);

/* Helpers for the lowering. */
bool ptx_has_mod(const struct ptx_insn *in, const char *mod);
enum ptx_type ptx_type_from_name(const char *name);	/* "u32" -> PTX_T_U32 */
unsigned int ptx_type_bits(enum ptx_type t);

#endif /* VG_PTX_H */
