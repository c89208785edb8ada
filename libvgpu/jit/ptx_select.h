/* SPDX-License-Identifier: MIT */
/*
 * Instruction selection (ptx_select.c): the driver lowers each kernel's
 * body through it, once the kernel's frame is set up.
 */
#ifndef VG_PTX_SELECT_H
#define VG_PTX_SELECT_H

#include "ptx_emit.h"

int ptx_lower_body(struct ptx_lower *pl);

#endif /* VG_PTX_SELECT_H */
