/* SPDX-License-Identifier: MIT */
/*
 * Register allocation (ptx_regalloc.c): the last step of lowering a
 * kernel, on its finished code.
 */
#ifndef VG_PTX_REGALLOC_H
#define VG_PTX_REGALLOC_H

#include <stdint.h>

#include "../../uapi/vgpu_isa.h"

uint32_t ptx_regalloc(struct vgpu_insn *code, uint32_t n, uint32_t entry,
		      uint32_t nregs);

#endif /* VG_PTX_REGALLOC_H */
