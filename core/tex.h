/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The texture unit: sampling and gathering through a texture descriptor
 * (uapi/vgpu_tex.h), as an H100 samples. Integer arithmetic only, so the
 * module runs it without the FPU.
 */
#ifndef VGPU_CORE_TEX_H
#define VGPU_CORE_TEX_H

#include "core.h"
#include "../uapi/vgpu_tex.h"

/**
 * struct vgpu_tex_req - one lane's fetch.
 * @coord: x, y, z: f32 bits, or integers (texel indices) with @int_coords.
 * @layer: the layer or cube array index.
 * @lod: f32 bits: the level (VGPU_TEXV_LEVEL) or the bias (otherwise).
 * @grad: f32 bits of dP/dx (x, y, z) then dP/dy.
 * @variant: VGPU_TEXV_* (uapi/vgpu_isa.h).
 * @comp: the channel a gather takes.
 * @int_coords: @coord are integers: no filtering, no normalization.
 * @off: texel offsets (PTX's -8..7) of x, y, z, added to the texel
 *	position (each level's) before addressing and filtering.
 */
struct vgpu_tex_req {
	u32 coord[3];
	u32 layer;
	u32 lod;
	u32 grad[6];
	u8 variant;
	u8 comp;
	bool int_coords;
	s8 off[3];
};

/*
 * Reads @n bytes at device address @va into @buf for the sampler; false
 * when nothing readable is there (the fetch then faults at @va).
 */
typedef bool (*vgpu_tex_read_fn)(void *ctx, u64 va, void *buf, u32 n);

/* What vgpu_tex_sample() returns. */
#define VGPU_TEX_OK 0
#define VGPU_TEX_FAULT 1	/* a texel could not be read: *fault_va */
#define VGPU_TEX_BAD 2		/* the descriptor is not well formed */

/*
 * Samples (or gathers) @d for @q: four channel values in @out, f32 bits
 * or, for integer formats read as such, the integers.
 */
int vgpu_tex_sample(const struct vgpu_tex_desc *d, const struct vgpu_tex_req *q,
		    vgpu_tex_read_fn read, void *ctx, u32 out[4], u64 *fault_va);

/* Whether @d is a descriptor the texture unit takes (VGPU_TEX_BAD else). */
bool vgpu_tex_desc_ok(const struct vgpu_tex_desc *d);

/* Bytes of one texel of @d. */
u32 vgpu_tex_texel_bytes(const struct vgpu_tex_desc *d);

/*
 * What txq asks of @d (VGPU_TXQ_*; @level for the level queries), as an
 * H100 answers: a layered shape's layer count where the next axis is.
 * 0 for a descriptor that is not well formed.
 */
u32 vgpu_tex_query(const struct vgpu_tex_desc *d, u32 what, u32 level);

/* What vgpu_surf_addr() returns. */
#define VGPU_SURF_AT 0		/* *va is where to access */
#define VGPU_SURF_NONE 1	/* nothing to access: loads read zeros */
#define VGPU_SURF_FAULT 2		/* out of range, trapping: a fault at *va */
#define VGPU_SURF_MISALIGNED 3	/* x is not a multiple of the element */

/*
 * Where a surface access of @bytes (elements of @elem bytes) at byte x,
 * row y, slice z of @xyz (@layer for layered shapes) lands in @d, which
 * must be a surface; @mode (VGPU_SURF_TRAP, _CLAMP, _ZERO) says what an
 * access out of range does.
 */
int vgpu_surf_addr(const struct vgpu_tex_desc *d, const s32 *xyz, u32 layer,
		   u32 elem, u32 bytes, u32 mode, u64 *va);

/*
 * A formatted store's value (sust.p) as @d's channels hold it: f32 to
 * f16, integers cut to the channel's width, f32 as it is.
 */
u64 vgpu_surf_format(const struct vgpu_tex_desc *d, u64 v);

#endif /* VGPU_CORE_TEX_H */
