// SPDX-License-Identifier: MIT
/*
 * A failed channel: the CUDA error its failure stands for, and with
 * VGPU_ERROR_REPORT=1 a report on stderr naming the kernel, block,
 * thread, instruction and address. Which error becomes the context's
 * sticky one, and when the report is printed, is channel.c's to say.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "vg.h"

/* What a kernel fault kind reads as from the driver API. */
static CUresult vg_fault_code(uint32_t kind)
{
	switch (kind) {
	case VGPU_KFAULT_ADDRESS:
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	case VGPU_KFAULT_MISALIGNED:
		return CUDA_ERROR_MISALIGNED_ADDRESS;
	case VGPU_KFAULT_TIMEOUT:
		return CUDA_ERROR_LAUNCH_TIMEOUT;
	case VGPU_KFAULT_RESOURCES:
		/* NVIDIA's answer to a launch that asks for too much. */
		return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
	default:
		/* A trap, a block that cannot go on, a launch gone bad. */
		return CUDA_ERROR_LAUNCH_FAILED;
	}
}

static const char *vg_fault_kind(uint32_t kind)
{
	static const char *const names[] = {
		[VGPU_KFAULT_ADDRESS] = "illegal address",
		[VGPU_KFAULT_MISALIGNED] = "misaligned address",
		[VGPU_KFAULT_TRAP] = "trap",
		[VGPU_KFAULT_DEADLOCK] = "deadlock (no thread of the block can go on)",
		[VGPU_KFAULT_TIMEOUT] = "time budget exceeded",
		[VGPU_KFAULT_BAD_LAUNCH] = "bad launch",
		[VGPU_KFAULT_RESOURCES] = "out of resources",
	};

	return kind < sizeof(names) / sizeof(names[0]) && names[kind] ?
		names[kind] : "fault";
}

/* The kernel's name, and in @where the instruction's source line if known. */
static const char *vg_fault_kernel(struct CUctx_st *ctx, const struct vgpu_chan_fault *f,
				   char *where, size_t len)
{
	struct CUmod_st *mod;

	where[0] = 0;
	for (mod = ctx->modules; mod; mod = mod->next) {
		const struct vg_jit_image *img = mod->img;

		if (mod->handle != f->module || f->func >= img->nkernels)
			continue;
		vg_jit_where(img, f->insn, where, len);
		return img->kernels[f->func].name;
	}
	return "?";
}

/**
 * vg_chan_failed() - the CUDA error of channel @ch, which has failed.
 * Sets nothing: making it the context's sticky error, and reporting it
 * (vg_fault_report()), are the caller's.
 */
CUresult vg_chan_failed(struct vg_chan *ch)
{
	struct vgpu_chan_fault f = { .handle = ch->handle };

	if (ch->status->error == VGPU_CHAN_TIMEOUT)
		return CUDA_ERROR_LAUNCH_TIMEOUT;
	if (ch->status->error == VGPU_CHAN_LAUNCH_FAULT &&
	    !ioctl(ch->ctx->fd, VGPU_IOCTL_CHAN_FAULT, &f) && f.kind)
		return vg_fault_code(f.kind);
	return CUDA_ERROR_ILLEGAL_ADDRESS;	/* a copy's bad address */
}

/**
 * vg_fault_assert() - whether channel @ch, which has failed, failed at a
 * failed assert's trap (the JIT marks it: jit.h's VGPU_TRAP_ASSERT). It
 * reads the context's module list: the context's lock is held.
 */
bool vg_fault_assert(struct vg_chan *ch)
{
	struct vgpu_chan_fault f = { .handle = ch->handle };
	struct CUmod_st *mod;

	if (ch->status->error != VGPU_CHAN_LAUNCH_FAULT ||
	    ioctl(ch->ctx->fd, VGPU_IOCTL_CHAN_FAULT, &f) ||
	    f.kind != VGPU_KFAULT_TRAP)
		return false;
	for (mod = ch->ctx->modules; mod; mod = mod->next) {
		const struct vg_jit_image *img = mod->img;

		if (mod->handle == f.module)
			return f.insn < img->ninsns &&
			       img->insns[f.insn].op == VGPU_OP_TRAP &&
			       img->insns[f.insn].mod == VGPU_TRAP_ASSERT;
	}
	return false;
}

/**
 * vg_fault_report() - with VGPU_ERROR_REPORT set (and not "0"), prints the
 * launch fault of channel @ch, which has failed, on stderr; nothing for
 * other failures. It names the kernel from the context's module list: the
 * context's lock is held.
 */
void vg_fault_report(struct vg_chan *ch)
{
	struct vgpu_chan_fault f = { .handle = ch->handle };
	const char *env = getenv("VGPU_ERROR_REPORT");
	const char *name;
	char where[512];

	if (!env || !strcmp(env, "0") ||
	    ch->status->error != VGPU_CHAN_LAUNCH_FAULT ||
	    ioctl(ch->ctx->fd, VGPU_IOCTL_CHAN_FAULT, &f) || !f.kind)
		return;
	name = vg_fault_kernel(ch->ctx, &f, where, sizeof(where));
	fprintf(stderr, "vgpu: kernel %s: %s", name, vg_fault_kind(f.kind));
	if (f.kind == VGPU_KFAULT_ADDRESS || f.kind == VGPU_KFAULT_MISALIGNED)
		fprintf(stderr, " at 0x%llx", (unsigned long long)f.addr);
	fprintf(stderr, ", block (%u,%u,%u) thread (%u,%u,%u), instruction %u%s%s\n",
		f.block[0], f.block[1], f.block[2], f.thread[0],
		f.thread[1], f.thread[2], f.insn, where[0] ? ", " : "", where);
}
