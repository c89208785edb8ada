/* SPDX-License-Identifier: MIT */
/*
 * Frames (ptx_frame.c), which the driver sets up for a kernel and the
 * call lowering for each function it inlines; and variables' sizes.
 */
#ifndef VG_PTX_FRAME_H
#define VG_PTX_FRAME_H

#include "ptx_emit.h"

uint64_t ptx_var_size(const struct ptx_var *v);
uint64_t ptx_var_align(const struct ptx_var *v);
uint64_t ptx_align_up(uint64_t x, uint64_t a);
int ptx_frame_setup(struct ptx_lower *pl, struct ptx_frame *fr);
void ptx_frame_free(struct ptx_frame *fr);

#endif /* VG_PTX_FRAME_H */
