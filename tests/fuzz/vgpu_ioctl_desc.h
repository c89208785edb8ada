/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A description of every ioctl of /dev/vgpuN and every channel command
 * (uapi/vgpu.h) for the ioctl fuzzer: for each structure, its size and,
 * for each field, what kind of value it holds, so that the fuzzer builds
 * arguments that are mostly plausible and sometimes wrong in one place.
 */
#ifndef VGPU_IOCTL_DESC_H
#define VGPU_IOCTL_DESC_H

#include <stddef.h>
#include <stdint.h>

/* What the kernel hands back and takes again: handles of a context. */
enum fz_res {
	FZ_RES_NONE,
	FZ_RES_CHAN,		/* channel handle (u32) */
	FZ_RES_MODULE,		/* module handle (u32) */
	FZ_RES_DEVMEM,		/* device address of a MEM_ALLOC (u64) */
	FZ_RES_HEAP,		/* device address of the heap (u64) */
	FZ_RES_HOSTREG,		/* address of a registered host range (u64) */
	FZ_RES_HOSTALLOC,	/* mmap offset of a HOST_ALLOC (u64) */
	FZ_RES_MOBJ,		/* memory object handle (u32) */
	FZ_RES_VARES,		/* start of a VA reservation (u64) */
	FZ_RES_COUNT,
};

/* Kinds of field values. */
enum fz_kind {
	FZ_PAD,		/* must be zero: zero, now and then not */
	FZ_OUT,		/* written by the kernel: anything goes in */
	FZ_FLAGS,	/* arg: the valid bits */
	FZ_HANDLE,	/* arg: enum fz_res */
	FZ_DEVADDR,	/* a device address: arg = alignment it should have */
	FZ_HOSTPTR,	/* a host pointer: arg = alignment it should have */
	FZ_SIZE,	/* a byte count: arg = the unit it should be a multiple of */
	FZ_COUNT,	/* a small count: arg = the largest sensible one */
	FZ_DIM,		/* a grid or block extent: arg = the largest sensible */
	FZ_SEQNO,	/* a fence number of the channel in the same call */
	FZ_DEADLINE,	/* a CLOCK_MONOTONIC deadline, never far away */
	FZ_RING,	/* the ring of a channel being created */
	FZ_RING_SIZE,	/* its number of commands */
	FZ_PUT,		/* a doorbell's write index */
	FZ_INSNS,	/* a program's instructions */
	FZ_NINSNS,	/* their number */
	FZ_FUNCS,	/* its kernels */
	FZ_NFUNCS,	/* their number */
	FZ_FUNC,	/* a kernel's index in a module */
	FZ_SEM_VALUE,	/* a semaphore's value */
	FZ_PARAMS,	/* a launch's parameter bytes (device or host memory) */
	FZ_WINDOW_BASE,	/* a VA window's start */
	FZ_WINDOW_SIZE,	/* its size */
	FZ_LOG,		/* a buffer the kernel writes a message into */
	FZ_LOG_SIZE,	/* its size */
	FZ_GRID_SYNC,	/* a cooperative launch's workspace, mostly none */
	FZ_STEPS,	/* a chain's steps, launches as LAUNCH's fields */
};

/* One field of a structure. */
struct fz_field {
	const char *name;
	uint16_t off;
	uint16_t size;		/* 1, 2, 4 or 8 bytes */
	uint8_t kind;		/* enum fz_kind */
	uint64_t arg;
};

/* One ioctl. */
struct fz_ioctl {
	const char *name;
	unsigned long nr;
	uint32_t size;		/* sizeof the structure of this ABI */
	uint32_t min_size;	/* the first layout's size */
	const struct fz_field *fields;
	unsigned int nfields;
	uint8_t makes;		/* enum fz_res the call returns, or NONE */
	uint16_t makes_off;	/* the field that holds it */
	uint8_t frees;		/* enum fz_res the call ends, or NONE */
	uint16_t frees_off;	/* the field that names it */
};

/* One channel command; offsets are into struct vgpu_cmd. */
struct fz_cmd {
	const char *name;
	uint32_t op;
	uint32_t flags_valid;	/* valid bits of vgpu_cmd.flags */
	const struct fz_field *fields;
	unsigned int nfields;
};

extern const struct fz_ioctl fz_ioctls[];
extern const unsigned int fz_nioctls;
extern const struct fz_cmd fz_cmds[];
extern const unsigned int fz_ncmds;

#endif /* VGPU_IOCTL_DESC_H */
