// SPDX-License-Identifier: MIT
/*
 * What the IR builder learns of a kernel before building it: the code its
 * entry reaches, whether the engine supports all of it, the registers a
 * block must clear, and those it can keep as 32-bit lanes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "native_irb.h"

/* --- reachability and what is supported --------------------------------- */

u8 *nrt_reach(const struct vgpu_native_kernel *k)
{
	u32 *stack = malloc(sizeof(*stack) * (k->ninsns + 1)), top = 0;
	u8 *seen = calloc(k->ninsns + 1, 1);

	if (!stack || !seen) {
		free(stack);
		free(seen);
		return NULL;
	}
	stack[top++] = k->func.entry;
	seen[k->func.entry] = 1;
	while (top) {
		u32 i = stack[--top];
		const struct vgpu_insn *in = &k->insns[i];
		u32 next[2], nn = 0, j;
		bool uncond = in->guard == VGPU_PRED_NONE;

		if (in->op == VGPU_OP_BRA)
			next[nn++] = (u32)in->imm;
		if (!(uncond && (in->op == VGPU_OP_BRA || in->op == VGPU_OP_EXIT ||
				 in->op == VGPU_OP_TRAP)))
			next[nn++] = i + 1;
		for (j = 0; j < nn; j++) {
			if (next[j] < k->ninsns && !seen[next[j]]) {
				seen[next[j]] = 1;
				stack[top++] = next[j];
			}
		}
	}
	free(stack);
	return seen;
}

static const char *nrt_insn_why(const struct vgpu_insn *in)
{
	switch (in->op) {
	case VGPU_OP_NOP:
	case VGPU_OP_MOV:
	case VGPU_OP_SREG:
	case VGPU_OP_SELP:
	case VGPU_OP_CVT:
	case VGPU_OP_BRA:
	case VGPU_OP_EXIT:
	case VGPU_OP_TRAP:
	case VGPU_OP_MEMBAR:
	case VGPU_OP_ACTIVEMASK:
	case VGPU_OP_SETP:
	case VGPU_OP_SQRT ... VGPU_OP_COPYSIGN:	/* fp functions */
		return NULL;
	case VGPU_OP_BAR:
	case VGPU_OP_BAR_RED:
		return NULL;
	case VGPU_OP_LD:
	case VGPU_OP_ST:
		return in->type == VGPU_T_PRED ? "predicate memory access" : NULL;
	case VGPU_OP_ADD:
	case VGPU_OP_SUB:
	case VGPU_OP_MUL:
	case VGPU_OP_MAD:
	case VGPU_OP_DIV:
	case VGPU_OP_REM:
	case VGPU_OP_MIN:
	case VGPU_OP_MAX:
	case VGPU_OP_ABS:
	case VGPU_OP_NEG:
	case VGPU_OP_FMA:
	case VGPU_OP_SHL:
	case VGPU_OP_SHR:
	case VGPU_OP_AND:
	case VGPU_OP_OR:
	case VGPU_OP_XOR:
	case VGPU_OP_NOT:
		if (vgpu_is_float(in->type) || in->type == VGPU_T_PRED)
			return NULL;
		if ((in->flags & VGPU_IF_SAT) && (in->op == VGPU_OP_ADD || in->op == VGPU_OP_SUB) &&
		    in->type != VGPU_T_S32)
			return "saturation of this type";
		if ((in->flags & (VGPU_IF_CC_IN | VGPU_IF_CC_OUT)) &&
		    (vgpu_type_bits(in->type) < 32 || !(in->op == VGPU_OP_ADD ||
		     in->op == VGPU_OP_SUB || in->op == VGPU_OP_MAD)))
			return "carry of this type or operation";
		return NULL;
	case VGPU_OP_SHFL:
	case VGPU_OP_VOTE:
	case VGPU_OP_MATCH:
	case VGPU_OP_WARPSYNC:
		return NULL;
	case VGPU_OP_ATOM:
		return in->mod == VGPU_SPACE_GLOBAL || in->mod == VGPU_SPACE_SHARED ||
		       in->mod == VGPU_SPACE_GENERIC ? NULL : "atomic in this space";
	case VGPU_OP_MALLOC:
	case VGPU_OP_FREE:
		return "device heap";
	case VGPU_OP_POPC ... VGPU_OP_PRMT:	/* bit fields */
		return NULL;
	default:
		return "texture or surface instruction";
	}
}

bool nrt_ir_supported(const struct vgpu_native_kernel *k, char *why,
		      size_t why_len)
{
	u8 *reach = nrt_reach(k);
	u32 i;

	if (!reach) {
		snprintf(why, why_len, "out of memory");
		return false;
	}
	for (i = 0; i < k->ninsns; i++) {
		const char *r;

		if (!reach[i])
			continue;
		r = nrt_insn_why(&k->insns[i]);
		if (r) {
			snprintf(why, why_len, "insn %u: %s not supported", i, r);
			free(reach);
			return false;
		}
	}
	free(reach);
	return true;
}

/*
 * Does @in write register @in->dst (in every lane that runs it)?
 */
bool nrt_defines(const struct vgpu_insn *in)
{
	if (in->type == VGPU_T_PRED)
		return false;
	switch (in->op) {
	case VGPU_OP_SETP:
	case VGPU_OP_ST:
	case VGPU_OP_BRA:
	case VGPU_OP_EXIT:
	case VGPU_OP_BAR:
	case VGPU_OP_TRAP:
	case VGPU_OP_NOP:
	case VGPU_OP_MEMBAR:
	case VGPU_OP_WARPSYNC:
		return false;
	}
	return true;
}

bool nrt_param_direct(const struct vgpu_native_kernel *k, const struct vgpu_insn *in)
{
	u32 len = vgpu_type_bits(in->type) / 8;

	return in->mod == VGPU_SPACE_PARAM && in->a == VGPU_NO_REG && in->op == VGPU_OP_LD &&
	       !(in->imm & (len - 1)) && in->imm < k->func.param_bytes &&
	       len <= k->func.param_bytes - in->imm;
}

/*
 * The registers @in reads, into @rd (a, b, c; ~0U where a slot reads
 * none): its operand slots as the ISA describes them, so that the fields
 * of slots an operation does not have (zeros: register 0) count for
 * nothing. Unknown to the description: all three fields, as before.
 */
void nrt_reads(const struct vgpu_insn *in, u32 *rd)
{
	const u32 fields[3] = { in->a, in->b, in->c };
	const u32 imm[3] = { 0, VGPU_IF_B_IMM, VGPU_IF_C_IMM };
	struct vgpu_op_desc d;
	u8 slot[3];
	u32 j;

	if (!vgpu_isa_insn_desc(in, &d)) {
		d.a = OPND_REG;
		d.b = OPND_REG_IMM;
		d.c = OPND_REG_IMM;
	}
	slot[0] = d.a;
	slot[1] = d.b;
	slot[2] = d.c;
	for (j = 0; j < 3; j++) {
		bool reg = slot[j] == OPND_ADDR || slot[j] == OPND_REG_INLINE ||
			   ((slot[j] == OPND_REG || slot[j] == OPND_REG_IMM) &&
			    in->type != VGPU_T_PRED);

		rd[j] = reg && !(in->flags & imm[j]) ? fields[j] : ~0U;
	}
}

/*
 * The registers some lane may read before writing them, which must start
 * as zeros (the interpreter's registers do): a forward analysis of the
 * registers every path to an instruction has written unguarded. The rest
 * need no clearing when a block starts. Returns how many, listed in
 * @list (nregs entries).
 */
u32 nrt_ir_zero_regs(const struct vgpu_native_kernel *k, u32 *list)
{
	u32 n = k->ninsns, nregs = k->func.nregs, words = (nregs + 63) / 64;
	u32 i, r, count = 0, w;
	u8 *reach = nrt_reach(k), *need = calloc(nregs, 1);
	u64 *in = NULL;
	bool changed = true;

	if ((u64)n * words <= (4u << 20))
		in = malloc((u64)(n + 1) * words * sizeof(u64));
	if (!reach || !need || !in) {
		for (r = 0; r < nregs; r++)
			list[r] = r;
		free(reach);
		free(need);
		free(in);
		return nregs;
	}
	memset(in, 0xff, (u64)(n + 1) * words * sizeof(u64));
	memset(in + (u64)k->func.entry * words, 0, words * sizeof(u64));
	while (changed) {
		changed = false;
		for (i = 0; i < n; i++) {
			const struct vgpu_insn *c = &k->insns[i];
			u64 out[64];
			u32 succ[2], ns = 0, j;
			bool uncond = c->guard == VGPU_PRED_NONE;

			if (!reach[i])
				continue;
			for (w = 0; w < words && w < 64; w++)
				out[w] = in[(u64)i * words + w];
			if (uncond && nrt_defines(c) && c->dst < nregs && words <= 64)
				out[c->dst / 64] |= 1ULL << (c->dst % 64);
			if (c->op == VGPU_OP_BRA)
				succ[ns++] = (u32)c->imm;
			if (!(uncond && (c->op == VGPU_OP_BRA || c->op == VGPU_OP_EXIT ||
					 c->op == VGPU_OP_TRAP)))
				succ[ns++] = i + 1;
			for (j = 0; j < ns; j++) {
				u64 *t = in + (u64)succ[j] * words;

				if (succ[j] >= n)
					continue;
				for (w = 0; w < words && w < 64; w++) {
					u64 v = t[w] & out[w];

					if (v != t[w]) {
						t[w] = v;
						changed = true;
					}
				}
			}
		}
	}
	for (i = 0; i < n; i++) {
		const struct vgpu_insn *c = &k->insns[i];
		u32 rd[3], j;
		const u64 *t = in + (u64)i * words;

		if (!reach[i])
			continue;
		nrt_reads(c, rd);
		for (j = 0; j < 3; j++)
			if (rd[j] < nregs && (words > 64 || !(t[rd[j] / 64] >> (rd[j] % 64) & 1)))
				need[rd[j]] = 1;
		/* A guarded write keeps the other lanes' values. */
		if (c->guard != VGPU_PRED_NONE && nrt_defines(c) && c->dst < nregs &&
		    (words > 64 || !(t[c->dst / 64] >> (c->dst % 64) & 1)))
			need[c->dst] = 1;
	}
	for (r = 0; r < nregs; r++)
		if (need[r])
			list[count++] = r;
	free(reach);
	free(need);
	free(in);
	return count;
}

/*
 * Registers every write of which leaves a 32-bit value (upper half zero)
 * and no runtime helper reads or writes through the register file: they
 * are kept as <32 x i32>, in the low half of their slot, which halves
 * their vector work. What a register holds is the same either way.
 */
void nrt_narrow_regs(const struct vgpu_native_kernel *k, const u8 *reach,
			    u8 *narrow)
{
	u32 i, nregs = k->func.nregs;

	memset(narrow, 1, nregs);
	for (i = 0; i < k->ninsns; i++) {
		const struct vgpu_insn *in = &k->insns[i];
		bool small = vgpu_type_bits(in->type) <= 32, helper = false, ok = false;

		if (!reach[i])
			continue;
		switch (in->op) {
		case VGPU_OP_LD:
			ok = small && !vgpu_type_signed(in->type);
			break;
		case VGPU_OP_ACTIVEMASK:
			ok = true;
			break;
		case VGPU_OP_SREG:
		case VGPU_OP_MOV:
		case VGPU_OP_SELP:
			ok = small;
			break;
		case VGPU_OP_ADD ... VGPU_OP_SHR:	/* arithmetic and logic */
			if (f32_plain(in))
				ok = true;
			else if (vgpu_is_float(in->type) || int_helper(in))
				helper = true;
			else
				ok = small && !((in->op == VGPU_OP_MUL || in->op == VGPU_OP_MAD) &&
						in->mod == VGPU_MUL_WIDE);
			break;
		case VGPU_OP_SETP:
			helper = vgpu_is_float(in->type);
			break;
		case VGPU_OP_BAR:
		case VGPU_OP_BAR_RED:
			helper = true;
			break;
		case VGPU_OP_SHFL:
		case VGPU_OP_MATCH:
		case VGPU_OP_VOTE:
		case VGPU_OP_ATOM:
		case VGPU_OP_POPC ... VGPU_OP_PRMT:	/* bit fields */
		case VGPU_OP_CVT:
		case VGPU_OP_SQRT ... VGPU_OP_COPYSIGN:	/* fp functions */
			helper = true;
			break;
		}
		if (in->type != VGPU_T_PRED && nrt_defines(in) && in->dst < nregs && !ok)
			narrow[in->dst] = 0;
		if (helper) {
			/* The registers it names, not the fields of slots it lacks. */
			u32 ops[4], j;

			nrt_reads(in, ops);
			ops[3] = in->type != VGPU_T_PRED && nrt_defines(in) ? in->dst : ~0U;
			for (j = 0; j < 4; j++)
				if (ops[j] < nregs)
					narrow[ops[j]] = 0;
		}
	}
}

