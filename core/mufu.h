/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * An H100's special-function unit (mufu.c): each function takes and
 * gives f32 bits, as SASS's MUFU does (subnormals flushed, NaN
 * 0x7fffffff). SIN and COS take turns, not radians.
 */
#ifndef VGPU_CORE_MUFU_H
#define VGPU_CORE_MUFU_H

#include "core.h"

u32 vgpu_mufu_rcp(u32 x);
u32 vgpu_mufu_rsq(u32 x);
u32 vgpu_mufu_sqrt(u32 x);
u32 vgpu_mufu_ex2(u32 x);
u32 vgpu_mufu_lg2(u32 x);
u32 vgpu_mufu_sin(u32 t);
u32 vgpu_mufu_cos(u32 t);
u32 vgpu_mufu_tanh(u32 x);

#endif /* VGPU_CORE_MUFU_H */
