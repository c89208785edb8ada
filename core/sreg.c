// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The special registers: one lane's value, for the dispatch loop
 * (interp.c) and for the register shapes (shape.c), which read the
 * values a whole warp shares once.
 */
#include "warp.h"

/* The SM clock: the host's time at the device's nominal rate. */
static u64 vgpu_cycles(const struct vgpu_launch *l)
{
	u64 ns = vgpu_core_time_ns();

	if (!l->clock_khz)
		return ns;
	return ns / 1000000 * l->clock_khz + ns % 1000000 * l->clock_khz / 1000000;
}

/* Special register @sr of lane @lane of warp @warp. */
u64 vgpu_sreg(const struct vgpu_block *b, u32 warp, u32 lane, u8 sr)
{
	const struct vgpu_launch *l = b->l;
	u32 t = warp * 32 + lane;

	switch (sr) {
	case VGPU_SR_TID_X: return t % l->block[0];
	case VGPU_SR_TID_Y: return t / l->block[0] % l->block[1];
	case VGPU_SR_TID_Z: return t / l->block[0] / l->block[1];
	case VGPU_SR_NTID_X: return l->block[0];
	case VGPU_SR_NTID_Y: return l->block[1];
	case VGPU_SR_NTID_Z: return l->block[2];
	case VGPU_SR_CTAID_X: return b->ctaid[0];
	case VGPU_SR_CTAID_Y: return b->ctaid[1];
	case VGPU_SR_CTAID_Z: return b->ctaid[2];
	case VGPU_SR_NCTAID_X: return l->grid[0];
	case VGPU_SR_NCTAID_Y: return l->grid[1];
	case VGPU_SR_NCTAID_Z: return l->grid[2];
	case VGPU_SR_LANEID: return lane;
	case VGPU_SR_WARPID: return warp;
	case VGPU_SR_NWARPID: return b->nwarps;
	case VGPU_SR_SMID: return l->smid;
	case VGPU_SR_NSMID: return l->nsmid;
	case VGPU_SR_CLOCK: return (u32)vgpu_cycles(l);
	case VGPU_SR_CLOCK64: return vgpu_cycles(l);
	case VGPU_SR_GLOBALTIMER: return vgpu_core_time_ns();
	case VGPU_SR_LANEMASK_EQ: return 1U << lane;
	case VGPU_SR_LANEMASK_LT: return (1U << lane) - 1;
	case VGPU_SR_LANEMASK_LE: return (2ULL << lane) - 1;
	case VGPU_SR_LANEMASK_GT: return (u32)~((2ULL << lane) - 1);
	case VGPU_SR_LANEMASK_GE: return (u32)~((1U << lane) - 1);
	case VGPU_SR_GRID_SYNC_HI: return (u32)(l->grid_sync >> 32);
	case VGPU_SR_GRID_SYNC_LO: return (u32)l->grid_sync;
	default: return b->shared_bytes - l->func->shared_bytes; /* DYN_SMEM */
	}
}
