/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * SHFL, VOTE and MATCH on a warp's registers (@regs: 32 lane values a
 * register, register-major) and predicates (@preds: a lane mask each),
 * for the lanes @em, which must all have arrived. One definition for
 * both engines, so that they agree.
 */
#ifndef VGPU_WARPSYNC_H
#define VGPU_WARPSYNC_H

#include "core.h"

void vgpu_shfl(u64 *regs, u32 *preds, const struct vgpu_insn *in, u32 em);
void vgpu_vote(u64 *regs, u32 *preds, const struct vgpu_insn *in, u32 em);
void vgpu_match(u64 *regs, u32 *preds, const struct vgpu_insn *in, u32 em);

#endif /* VGPU_WARPSYNC_H */
