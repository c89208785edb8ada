/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The programs the ioctl fuzzer loads and launches: one module of small
 * kernels, each reaching a different part of the compute engine (stores,
 * atomics, a spin the watchdog ends, a trap, the device heap, a fault,
 * shared memory and a barrier).
 */
#ifndef VGPU_FUZZ_PROGRAMS_H
#define VGPU_FUZZ_PROGRAMS_H

#include "uapi/vgpu_isa.h"

/* Kernels of the module, by index. Each takes one u64 parameter: out. */
enum {
	FZ_K_STORE,	/* out[global thread id] = id + 1 (u32) */
	FZ_K_ATOMIC,	/* atomically out[0] += 1 (u32), per thread */
	FZ_K_SPIN,	/* loops until the watchdog or a close ends it */
	FZ_K_TRAP,	/* traps */
	FZ_K_HEAP,	/* MALLOC 64 bytes, store into them, FREE */
	FZ_K_FAULT,	/* stores to address 8 */
	FZ_K_SHARED,	/* shared memory and a block barrier */
	FZ_NKERNELS,
};

#define FZ_PARAM_BYTES 8

extern const struct vgpu_insn fz_prog_insns[];
extern const unsigned int fz_prog_ninsns;
extern const struct vgpu_func fz_prog_funcs[FZ_NKERNELS];

#endif /* VGPU_FUZZ_PROGRAMS_H */
