/* SPDX-License-Identifier: MIT */
/*
 * Helpers for tests of the compute core in user space: building
 * instructions, verifying a program and running a whole launch of it
 * block by block over memory the test owns.
 */
#ifndef VGPU_CORE_RUN_H
#define VGPU_CORE_RUN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "isa_build.h"

/*
 * Verifies @insns as a program of the kernels @funcs and runs kernel @k
 * over @grid x @block threads (x only), parameters @params. Memory the
 * kernel reaches: @ranges, ended by one of size 0. Returns VGPU_RUN_DONE
 * or VGPU_RUN_FAULT (with *@fault), or -1 when the verifier refused the
 * program (the message printed).
 */
static inline int core_run_prog(const struct vgpu_insn *insns, unsigned int n,
				const struct vgpu_func *funcs, unsigned int nfuncs,
				unsigned int k, unsigned int grid,
				unsigned int block, const void *params,
				struct vgpu_range *ranges,
				struct vgpu_fault *fault)
{
	struct vgpu_program prog = { insns, n, funcs, nfuncs };
	struct vgpu_launch l = {
		.prog = &prog, .func = &funcs[k], .grid = { grid, 1, 1 },
		.block = { block, 1, 1 }, .params = params, .mmu = ranges,
		.nsmid = 1,
	};
	struct vgpu_verdict v;
	uint8_t *seen = calloc(n, 1);
	uint32_t *stack = calloc(n, sizeof(*stack));
	struct vgpu_block *b;
	unsigned int i;
	int r;

	r = vgpu_isa_verify(&prog, seen, stack, &v);
	free(seen);
	free(stack);
	if (r) {
		printf("# refused at %lld: %s\n", (long long)v.insn, v.msg);
		return -1;
	}
	b = aligned_alloc(16, (vgpu_block_bytes(&l) + 15) & ~15ULL);
	for (i = 0; i < grid; i++) {
		vgpu_block_start(b, &l, i, i == 0);
		do
			r = vgpu_block_run(b, 10000);
		while (r == VGPU_RUN_MORE);
		if (r == VGPU_RUN_FAULT) {
			if (fault)
				*fault = *vgpu_block_fault(b);
			break;
		}
	}
	free(b);
	return r;
}

/* core_run_prog() of a program that is the one kernel @func. */
static inline int core_run(const struct vgpu_insn *insns, unsigned int n,
			   struct vgpu_func func, unsigned int grid,
			   unsigned int block, const void *params,
			   struct vgpu_range *ranges, struct vgpu_fault *fault)
{
	return core_run_prog(insns, n, &func, 1, 0, grid, block, params,
			     ranges, fault);
}

/* A range over a test's buffer: the kernel sees it at its own address. */
static inline struct vgpu_range core_range(void *p, size_t size, bool writable)
{
	struct vgpu_range r = {
		.va = (uintptr_t)p, .size = size, .ptr = p, .writable = writable,
	};

	return r;
}

#endif /* VGPU_CORE_RUN_H */
