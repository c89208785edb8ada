/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * Texture and surface descriptors: what a texture or surface object (or a
 * bound texture reference) is to the compute engines. libvgpu writes one
 * into memory the device reaches; a kernel names it by its device address
 * (the object's handle), and VGPU_OP_TEX and the surface instructions read
 * it from there with every texel. The engines trust nothing in it: a
 * descriptor that is not well formed faults the launch, and every texel is
 * read through the context's address space like any other load.
 *
 * CUDA arrays are laid out as vgpu chooses: levels one after another from
 * @addr, each a run of slices (a 3D level's depth, or the layers or cube
 * faces of a layered array: all levels have them all), each slice @height
 * rows of @width texels, rows packed. Pitch-2D memory has rows @pitch bytes
 * apart; linear memory is a row of @width texels.
 */
#ifndef _UAPI_VGPU_TEX_H
#define _UAPI_VGPU_TEX_H

#include <linux/types.h>

#define VGPU_TEX_MAGIC 0x78657476	/* "vtex" */

/* Shapes (vgpu_tex_desc.kind). */
#define VGPU_TEXK_BUFFER 0	/* linear memory: tex1Dfetch */
#define VGPU_TEXK_1D 1
#define VGPU_TEXK_2D 2
#define VGPU_TEXK_3D 3
#define VGPU_TEXK_1D_LAYERED 4
#define VGPU_TEXK_2D_LAYERED 5
#define VGPU_TEXK_CUBE 6
#define VGPU_TEXK_CUBE_LAYERED 7
#define VGPU_TEXK_COUNT 8

/* Channel formats (vgpu_tex_desc.format). */
#define VGPU_TEXF_U8 0
#define VGPU_TEXF_S8 1
#define VGPU_TEXF_U16 2
#define VGPU_TEXF_S16 3
#define VGPU_TEXF_U32 4
#define VGPU_TEXF_S32 5
#define VGPU_TEXF_F16 6
#define VGPU_TEXF_F32 7
#define VGPU_TEXF_COUNT 8

/* Address modes (vgpu_tex_desc.address), CUDA's numbers. */
#define VGPU_TEXA_WRAP 0
#define VGPU_TEXA_CLAMP 1
#define VGPU_TEXA_MIRROR 2
#define VGPU_TEXA_BORDER 3

/* vgpu_tex_desc.flags */
#define VGPU_TEX_NORMALIZED 0x01	/* coordinates in [0, 1) */
#define VGPU_TEX_READ_NORM 0x02		/* 8/16-bit integers read as [0, 1] or [-1, 1] */
#define VGPU_TEX_SRGB 0x04		/* sRGB to linear, 8-bit unsigned */
#define VGPU_TEX_LINEAR 0x08		/* linear filtering */
#define VGPU_TEX_MIP_LINEAR 0x10	/* linear between mip levels */
#define VGPU_TEX_SEAMLESS 0x20		/* cube filtering across faces */
#define VGPU_TEX_NO_TRILINEAR_OPT 0x40	/* cudaTextureDesc's flag */
#define VGPU_TEX_SURFACE 0x80		/* reachable by surface instructions */
#define VGPU_TEX_FLAGS 0xff

/**
 * struct vgpu_tex_desc - one texture or surface, 96 bytes.
 * @magic: VGPU_TEX_MAGIC.
 * @kind: VGPU_TEXK_*.
 * @format: VGPU_TEXF_* of each channel.
 * @channels: 1, 2 or 4.
 * @levels: mip levels, 1 to 32 (1 unless mipmapped).
 * @addr: device address of the first texel of level 0.
 * @pitch: bytes from one row to the next (every level of an array packs
 *	its rows: @pitch is width times texel bytes there).
 * @width, @height, @depth: level 0's size in texels; @depth counts the
 *	layers of a layered array (6 a cube), 1 where there is none.
 * @flags: VGPU_TEX_*.
 * @lod_bias, @lod_min, @lod_max: in 1/256 of a level.
 * @address: VGPU_TEXA_* for x, y and z.
 * @max_aniso: 1 to 16.
 * @border: the border colour, a channel's value as a fetch returns it
 *	(f32 bits, or integers read as they are).
 * @reserved: Must be 0.
 */
struct vgpu_tex_desc {
	__u32 magic;
	__u8 kind;
	__u8 format;
	__u8 channels;
	__u8 levels;
	__u64 addr;
	__u64 pitch;
	__u32 width;
	__u32 height;
	__u32 depth;
	__u16 flags;
	__s16 lod_bias;
	__s16 lod_min;
	__s16 lod_max;
	__u8 address[3];
	__u8 max_aniso;
	__u32 border[4];
	__u32 reserved[8];
};

#endif /* _UAPI_VGPU_TEX_H */
