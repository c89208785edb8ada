// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the compute core: the input is a kernel descriptor
 * followed by instructions. Whatever the verifier accepts is then run (one
 * block, a bounded budget, a small memory range), so a program the
 * verifier lets through can never make the interpreter touch memory it
 * does not own (AddressSanitizer watches) or trap (UBSan).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t memory[4096];
	struct vgpu_range ranges[2] = {
		{ .va = (uintptr_t)memory, .size = sizeof(memory), .ptr = memory,
		  .writable = true },
		{ 0 },
	};
	uint8_t params[64] = { 0 };
	struct vgpu_func f;
	struct vgpu_insn *insns;
	struct vgpu_program prog;
	struct vgpu_launch l;
	struct vgpu_verdict v;
	struct vgpu_block *b;
	uint32_t n, *stack;
	uint8_t *seen;
	int r, rounds;

	if (size < sizeof(f) + sizeof(struct vgpu_insn))
		return 0;
	memcpy(&f, data, sizeof(f));
	n = (uint32_t)((size - sizeof(f)) / sizeof(struct vgpu_insn));
	/* Keep runs small: few registers, little memory, one warp or two. */
	f.nregs = 1 + f.nregs % 16;
	f.npreds %= 8;
	f.param_bytes %= sizeof(params) + 1;
	f.shared_bytes %= 1024;
	f.local_bytes %= 256;
	f.entry %= n;
	insns = malloc(n * sizeof(*insns));
	memcpy(insns, data + sizeof(f), n * sizeof(*insns));
	prog = (struct vgpu_program){ insns, n, &f, 1 };
	seen = malloc(n);
	stack = malloc(n * sizeof(*stack));
	r = vgpu_isa_verify(&prog, seen, stack, &v);
	free(seen);
	free(stack);
	if (r == 0) {
		memset(&l, 0, sizeof(l));
		l.prog = &prog;
		l.func = &f;
		l.grid[0] = l.grid[1] = l.grid[2] = 1;
		l.block[0] = 1 + data[0] % 48;
		l.block[1] = l.block[2] = 1;
		l.params = params;
		l.mmu = ranges;
		b = aligned_alloc(16, (vgpu_block_bytes(&l) + 15) & ~15ULL);
		vgpu_block_start(b, &l, 0, true);
		for (rounds = 0; rounds < 4; rounds++)
			if (vgpu_block_run(b, 500) != VGPU_RUN_MORE)
				break;
		free(b);
	}
	free(insns);
	return 0;
}
