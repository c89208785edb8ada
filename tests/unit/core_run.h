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

/*
 * A cooperative launch of the one kernel @func, as the module runs one:
 * every block of @grid (x, y, z) resident at once and run in turns of
 * @turn instructions, @grid_sync the grid workspace the kernel finds in
 * GRID_SYNC_HI and GRID_SYNC_LO. Returns VGPU_RUN_DONE, VGPU_RUN_FAULT
 * with *@fault (the first block to fault ends the launch), or -1 when the
 * verifier refused the program.
 */
static inline int core_run_gang(const struct vgpu_insn *insns, unsigned int n,
				struct vgpu_func func, const unsigned int grid[3],
				unsigned int block, const void *params,
				struct vgpu_range *ranges, uint64_t grid_sync,
				unsigned int turn, struct vgpu_fault *fault)
{
	struct vgpu_program prog = { insns, n, &func, 1 };
	struct vgpu_launch l = {
		.prog = &prog, .func = &func,
		.grid = { grid[0], grid[1], grid[2] }, .block = { block, 1, 1 },
		.params = params, .mmu = ranges, .nsmid = 1,
		.grid_sync = grid_sync,
	};
	unsigned int nb = grid[0] * grid[1] * grid[2], left = nb, i;
	size_t bytes = (vgpu_block_bytes(&l) + 15) & ~(size_t)15;
	struct vgpu_verdict v;
	uint8_t *seen = calloc(n, 1);
	uint32_t *stack = calloc(n, sizeof(*stack));
	unsigned char *mem;
	bool *done;
	int r = vgpu_isa_verify(&prog, seen, stack, &v);

	free(seen);
	free(stack);
	if (r) {
		printf("# refused at %lld: %s\n", (long long)v.insn, v.msg);
		return -1;
	}
	r = VGPU_RUN_DONE;
	mem = aligned_alloc(16, bytes * nb);
	done = calloc(nb, sizeof(*done));
	for (i = 0; i < nb; i++)
		vgpu_block_start((struct vgpu_block *)(mem + i * bytes), &l, i,
				 true);
	while (left && r != VGPU_RUN_FAULT) {
		for (i = 0; i < nb && r != VGPU_RUN_FAULT; i++) {
			struct vgpu_block *b = (struct vgpu_block *)(mem + i * bytes);

			if (done[i])
				continue;
			r = vgpu_block_run(b, turn);
			if (r == VGPU_RUN_FAULT && fault)
				*fault = *vgpu_block_fault(b);
			if (r == VGPU_RUN_DONE) {
				done[i] = true;
				left--;
			}
		}
	}
	free(done);
	free(mem);
	return r == VGPU_RUN_FAULT ? r : VGPU_RUN_DONE;
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
