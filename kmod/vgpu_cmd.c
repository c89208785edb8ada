// SPDX-License-Identifier: GPL-2.0
/*
 * Command validation: what CHAN_SUBMIT checks in each command it copies
 * out of a channel's ring, before the command is queued. Only the
 * command's own fields are checked here (flags, sizes, alignment, no
 * overflow, launch dimensions within the device's limits); what it
 * touches is checked when it runs (vgpu_copy.c, vgpu_compute.c).
 */
#include <linux/align.h>
#include <linux/errno.h>
#include <linux/minmax.h>
#include <linux/overflow.h>
#include <linux/string.h>

#include "vgpu_drv.h"

/*
 * One side of a copy (@addr, @pitch, @slice rows): rows must not overlap
 * and the last byte must not wrap around the address space.
 */
static int vgpu_copy_check(const struct vgpu_cmd_copy *c, const u64 *addr,
			   u64 pitch, u32 slice)
{
	u32 depth = max(c->depth, 1U);
	u64 rows, span, last;

	if (!c->width || !c->height)
		return -EINVAL;
	if (depth == 1 ? slice : slice < c->height)
		return -EINVAL;
	if ((u64)c->height * depth > 1 && pitch < c->width)
		return -EINVAL;
	/* Rows before the last one: (depth - 1) slices and height - 1 rows. */
	rows = (u64)(depth - 1) * slice + c->height - 1;
	if (check_mul_overflow(rows, pitch, &span) ||
	    check_add_overflow(span, c->width, &span) ||
	    check_add_overflow(*addr, span, &last))
		return -EINVAL;
	return 0;
}

/* The arguments shared by both semaphore commands. */
static int vgpu_sem_check(const struct vgpu_cmd *c)
{
	bool sem32 = c->flags & VGPU_SEM_32;

	if (!IS_ALIGNED(c->sem.addr, sem32 ? 4 : 8) ||
	    (sem32 && c->sem.value > U32_MAX) ||
	    memchr_inv(&c->raw[2], 0, 5 * sizeof(u64)))
		return -EINVAL;
	return 0;
}

/*
 * A launch: grid and block within the device's limits, shared memory and
 * parameters within what any kernel may have, a cooperative grid within
 * what the device holds at once. What the kernel itself
 * needs is checked when the launch starts (vgpu_compute_start()).
 */
int vgpu_launch_check(const struct vgpu_info *p,
		      const struct vgpu_cmd_launch *cl)
{
	u64 threads = (u64)cl->block[0] * cl->block[1] * cl->block[2], blocks;
	unsigned int i;

	for (i = 0; i < 3; i++) {
		if (!cl->grid[i] || cl->grid[i] > p->max_grid_dim[i] ||
		    !cl->block[i] || cl->block[i] > p->max_block_dim[i])
			return -EINVAL;
	}
	if (threads > p->max_threads_per_block ||
	    cl->dyn_shared > vgpu_props_smem_optin(p) ||
	    cl->param_bytes > VGPU_MAX_PARAM_BYTES)
		return -EINVAL;
	if (!cl->grid_sync)
		return 0;
	/*
	 * A cooperative grid runs all at once (vgpu_compute.c), so it must
	 * fit the device as hardware would hold it: that bounds the memory
	 * its blocks take together.
	 */
	blocks = (u64)cl->grid[0] * cl->grid[1] * cl->grid[2];
	if (!IS_ALIGNED(cl->grid_sync, 8) ||
	    blocks > (u64)p->sm_count * p->max_blocks_per_sm ||
	    blocks * threads > (u64)p->sm_count * p->max_threads_per_sm)
		return -EINVAL;
	return 0;
}

/**
 * vgpu_cmd_check() - check a command copied out of a channel's ring.
 * Return: 0 or -EINVAL.
 */
int vgpu_cmd_check(struct vgpu_ctx *ctx, const struct vgpu_cmd *c)
{
	u64 span, last;

	switch (c->op) {
	case VGPU_CMD_NOP:
		return c->flags || memchr_inv(c->raw, 0, sizeof(c->raw)) ?
			-EINVAL : 0;
	case VGPU_CMD_COPY:
		if (c->flags || vgpu_copy_check(&c->copy, &c->copy.src,
						c->copy.src_pitch,
						c->copy.src_height) ||
		    vgpu_copy_check(&c->copy, &c->copy.dst, c->copy.dst_pitch,
				    c->copy.dst_height))
			return -EINVAL;
		return 0;
	case VGPU_CMD_MEMSET: {
		u32 es = c->memset.elem_size;
		u64 row;

		if (c->flags || c->memset.pad || c->raw[5] || c->raw[6] ||
		    (es != 1 && es != 2 && es != 4) ||
		    (es < 4 && c->memset.value >> (8 * es)) ||
		    !c->memset.width || !c->memset.height ||
		    !IS_ALIGNED(c->memset.dst, es) ||
		    !IS_ALIGNED(c->memset.pitch, es))
			return -EINVAL;
		if (check_mul_overflow(c->memset.width, (u64)es, &row) ||
		    (c->memset.height > 1 && c->memset.pitch < row))
			return -EINVAL;
		if (check_mul_overflow((u64)c->memset.height - 1,
				       c->memset.pitch, &span) ||
		    check_add_overflow(span, row, &span) ||
		    check_add_overflow(c->memset.dst, span, &last))
			return -EINVAL;
		return 0;
	}
	case VGPU_CMD_SEM_RELEASE:
		if ((c->flags & ~(VGPU_SEM_TIMESTAMP | VGPU_SEM_32)) ||
		    ((c->flags & VGPU_SEM_TIMESTAMP) && (c->flags & VGPU_SEM_32)))
			return -EINVAL;
		return vgpu_sem_check(c);
	case VGPU_CMD_SEM_ACQUIRE:
		if ((c->flags & ~(VGPU_SEM_TEST_MASK | VGPU_SEM_32 |
				  VGPU_SEM_UNSIGNED)) ||
		    ((c->flags & VGPU_SEM_UNSIGNED) &&
		     (c->flags & VGPU_SEM_TEST_MASK) != VGPU_SEM_GEQ))
			return -EINVAL;
		return vgpu_sem_check(c);
	case VGPU_CMD_LAUNCH:
		return (c->flags & ~(VGPU_LAUNCH_PRIORITY_MASK |
				     VGPU_LAUNCH_USER_SM |
				     VGPU_LAUNCH_USM_RUNS)) ||
			(c->flags & VGPU_LAUNCH_PRIORITY_MASK) >
			VGPU_LAUNCH_PRIORITY_MAX ? -EINVAL :
			vgpu_launch_check(&ctx->vdev->props, &c->launch);
	case VGPU_CMD_LAUNCH_CHAIN:
		/* The steps are read, and checked, when the chain starts. */
		return (c->flags & ~VGPU_LAUNCH_PRIORITY_MASK) ||
			c->flags > VGPU_LAUNCH_PRIORITY_MAX ||
			!c->chain.nsteps ||
			c->chain.nsteps > VGPU_MAX_CHAIN_STEPS || c->chain.pad ||
			memchr_inv(&c->raw[2], 0, 5 * sizeof(u64)) ? -EINVAL : 0;
	default:
		return -EINVAL;
	}
}
