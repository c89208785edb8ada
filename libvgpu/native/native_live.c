// SPDX-License-Identifier: MIT
/*
 * Register values generated code keeps out of the warp's register file.
 * A run is a sequence of instructions run inline (no runtime helper
 * touches the register file for them) that fall through into each other,
 * none a branch target: nothing checks inside it and the dispatcher never
 * enters it (native_ir.c). Along a run the builder keeps what an
 * instruction writes as a value (irb->cache), and the register file gets
 * it only at the run's end, and only if it is live there: some
 * instruction reachable from there may read it. A value no later
 * instruction reads never reaches the register file.
 */
#include <stdlib.h>
#include <string.h>

#include "native_irb.h"

bool nrt_insn_inline(const struct vgpu_insn *in)
{
	switch (in->op) {
	case VGPU_OP_NOP:
	case VGPU_OP_MEMBAR:
	case VGPU_OP_MOV:
	case VGPU_OP_SREG:
	case VGPU_OP_ACTIVEMASK:
	case VGPU_OP_SELP:
	case VGPU_OP_LD:
	case VGPU_OP_ST:
		return true;
	case VGPU_OP_AND ... VGPU_OP_NOT:
		if (in->type == VGPU_T_PRED)
			return true;
		fallthrough;
	case VGPU_OP_ADD ... VGPU_OP_NEG:
	case VGPU_OP_SHL ... VGPU_OP_SHR:
		return f32_plain(in) || (!vgpu_is_float(in->type) && !int_helper(in));
	case VGPU_OP_SETP:
		return !vgpu_is_float(in->type);
	}
	return false;
}

/*
 * Live registers on entry to each instruction, @words u64 each: those an
 * instruction reachable from there reads (an instruction a helper runs
 * reads them all), and those any SHFL or MATCH reads. Writes kill nothing (a guarded or partial write keeps
 * other lanes' values), which only keeps more live. NULL when out of
 * memory or too large (the builder then stores every write).
 */
u64 *nrt_live_regs(const struct vgpu_native_kernel *k, const u8 *reach, u32 words)
{
	u32 n = k->ninsns, nregs = k->func.nregs, i, w;
	bool changed = true;
	u64 *live;

	if ((u64)(n + 1) * words > (4u << 20))
		return NULL;
	live = calloc((u64)(n + 1) * words, sizeof(u64));
	if (!live)
		return NULL;
	while (changed) {
		changed = false;
		for (i = n; i-- > 0;) {
			const struct vgpu_insn *in = &k->insns[i];
			u64 *l = live + (u64)i * words;
			u32 rd[3], j;

			if (!reach[i])
				continue;
			if (nrt_insn_inline(in) || in->op == VGPU_OP_BRA ||
			    in->op == VGPU_OP_EXIT) {
				nrt_reads(in, rd);
				for (j = 0; j < 3; j++) {
					if (rd[j] < nregs && !(l[rd[j] / 64] >> (rd[j] % 64) & 1)) {
						l[rd[j] / 64] |= 1ULL << (rd[j] % 64);
						changed = true;
					}
				}
			} else {
				for (w = 0; w < words; w++) {
					u64 all = w + 1 < words || !(nregs % 64) ? ~0ULL :
						  (1ULL << (nregs % 64)) - 1;

					if ((l[w] | all) != l[w]) {
						l[w] |= all;
						changed = true;
					}
				}
			}
			/* Successors: the next instruction always (a superset), a target. */
			for (j = 0; j < 2; j++) {
				u32 s = j ? (u32)in->imm : i + 1;
				const u64 *t = live + (u64)s * words;

				if ((j && in->op != VGPU_OP_BRA) || s >= n)
					continue;
				for (w = 0; w < words; w++) {
					if ((l[w] | t[w]) != l[w]) {
						l[w] |= t[w];
						changed = true;
					}
				}
			}
		}
	}
	/*
	 * SHFL and MATCH read other lanes' registers: those lanes may have
	 * gone another way, or exited, where the value is dead for
	 * themselves. What they read is live everywhere.
	 */
	for (i = 0; i < n; i++) {
		const struct vgpu_insn *in = &k->insns[i];
		u32 rd[3], j, q;

		if (!reach[i] || (in->op != VGPU_OP_SHFL && in->op != VGPU_OP_MATCH))
			continue;
		nrt_reads(in, rd);
		for (j = 0; j < 3; j++)
			for (q = 0; rd[j] < nregs && q <= n; q++)
				live[(u64)q * words + rd[j] / 64] |= 1ULL << (rd[j] % 64);
	}
	return live;
}

/* --- the values kept, in the IR builder ------------------------------------ */

void nrt_ir_flush(struct irb *g, u32 pc, bool forget)
{
	u32 r;

	for (r = 0; r < g->k->func.nregs; r++) {
		if (!g->cache[r])
			continue;
		if (reg_live(g, pc, r))
			storereg(g, r, g->cache[r]);
		if (forget)
			g->cache[r] = NULL;
	}
}
