/* SPDX-License-Identifier: MIT */
/*
 * Module images as cuModuleLoadData and __cudaRegisterFatBinary get them:
 * telling PTX text, fatbins, their wrappers and cubins apart, and taking
 * out of a fatbin the PTX that suits a device (fatbin.c).
 */
#ifndef VG_FATBIN_H
#define VG_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#define VG_FATBIN_MAGIC		0xba55ed50u	/* container, bytes 50 ed 55 ba */
#define VG_FATBIN_WRAPPER_MAGIC	0x466243b1u
/* vgpu's compiled-module format (jit_cache.h): its first 8 bytes. */
#define VG_IMAGE_VGPU_MAGIC	"VGPUMOD1"

/*
 * What __cudaRegisterFatBinary and cuModuleLoadFatBinary receive (24 bytes,
 * in the host program's .nvFatBinSegment). Version 1 is an ordinary
 * program's; version 2 is -rdc=true's link wrapper, whose @data is the
 * linked fatbin (which holds no PTX) and whose @extra lists the objects'
 * fatbins before the link.
 */
struct vg_fatbin_wrapper {
	uint32_t magic;		/* VG_FATBIN_WRAPPER_MAGIC */
	uint32_t version;	/* 1, or 2 for -rdc=true */
	const void *data;	/* the fatbin container */
	const void *extra;	/* source file name, or pre-link fatbins */
};

/* What a module image is, from its first bytes. */
enum vg_image_kind {
	VG_IMAGE_PTX,		/* NUL-terminated PTX text */
	VG_IMAGE_FATBIN,	/* a fatbin container */
	VG_IMAGE_WRAPPER,	/* a struct vg_fatbin_wrapper */
	VG_IMAGE_ELF,		/* a cubin (SASS), which vgpu cannot run */
	VG_IMAGE_VGPU,		/* vgpu's compiled module (cuLinkComplete's) */
	VG_IMAGE_UNKNOWN,
};

/*
 * The binary kinds are told by their magic. PTX is text whose first
 * token, after white space and comments, is ".version": nvcc and clang
 * both start modules that way, and the PTX stored in fatbins starts with
 * blank lines and then ".version". Reads no further than the first byte
 * that is a NUL or does not fit the kind, so a short text image is never
 * read past its end. NULL is VG_IMAGE_UNKNOWN.
 */
enum vg_image_kind vg_image_kind(const void *image);

/* vg_fatbin_ptx's results other than 0. */
enum {
	VG_FATBIN_NO_PTX = 1,	/* no PTX usable on the device: CUDA's 209 */
	VG_FATBIN_BAD,		/* malformed image: CUDA's 200 */
	VG_FATBIN_NOMEM,	/* out of memory */
};

/*
 * Finds the PTX for a device of compute capability @cc (major * 10 +
 * minor) in a fatbin. @image points at the container (@kind
 * VG_IMAGE_FATBIN) or at a struct vg_fatbin_wrapper (VG_IMAGE_WRAPPER);
 * the container's size is taken from its header.
 *
 * Returns 0 with *@ptx a malloc'd NUL-terminated copy of the text
 * (decompressed) and *@len its length without the NUL; the caller frees
 * *@ptx. Else *@ptx is NULL and @log (@log_len bytes, may be NULL) holds
 * one line without a newline: for VG_FATBIN_NO_PTX what the fatbin holds
 * and how to rebuild it, for VG_FATBIN_BAD what is malformed and where.
 * Which entry wins is described at vg_fatbin_pick() in fatbin.c.
 */
int vg_fatbin_ptx(const void *image, enum vg_image_kind kind, unsigned int cc,
		  char **ptx, size_t *len, char *log, size_t log_len);

/*
 * The same for a container of which only @size bytes may be read (a file,
 * or a fuzzer's input): a header that claims more is VG_FATBIN_BAD.
 */
int vg_fatbin_ptx_sized(const void *fatbin, size_t size, unsigned int cc,
			char **ptx, size_t *len, char *log, size_t log_len);

#endif /* VG_FATBIN_H */
