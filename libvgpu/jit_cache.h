/* SPDX-License-Identifier: MIT */
/*
 * A JIT image on disk: vgpu's compiled-module format (jit_image.c), which
 * cuLinkComplete returns, vgpu-ptxas writes and cuModuleLoadData reads,
 * and the on-disk cache of compiled PTX built on it (jit_cache.c).
 */
#ifndef VG_JIT_CACHE_H
#define VG_JIT_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "cache_store.h"
#include "jit/jit.h"

/*
 * A file of the format starts with an 8-byte magic: VG_IMAGE_VGPU_MAGIC
 * (fatbin.h) for a compiled module, VG_CACHE_MAGIC for a cache entry.
 * Then a header (struct vg_imgfile in jit_image.c) that gives the total
 * size and a checksum of all that follows it, a key (a compiled module's
 * is VG_JIT_VERSION; a cache entry's adds the PTX text it was compiled
 * from), and the image's parts. Fields are in the host's byte order: a
 * file from a machine of the other order fails the magic check.
 */
#define VG_CACHE_MAGIC "VGPUJITC"
#define VG_IMGFILE_HDR 80		/* bytes before the key */
#define VG_IMGFILE_MAX (1ULL << 30)	/* the largest file read */

/*
 * Serializes @img (before relocation) with @magic (8 bytes) and @key.
 * Returns 0 with *@out (malloc'd) and *@len, or -1 when out of memory.
 */
int vg_image_save(const struct vg_jit_image *img, const char *magic,
		  const void *key, size_t key_len, unsigned char **out,
		  size_t *len);

/*
 * Reads a file of @len bytes written by vg_image_save with @magic and
 * @key; every size, count, offset and index is checked, and the
 * checksum, so bad bytes never become a bad image. Returns 0 with *@out,
 * or -1 with a one-line reason in @err (@err_len bytes, may be 0).
 */
int vg_image_load(const void *buf, size_t len, const char *magic,
		  const void *key, size_t key_len, struct vg_jit_image **out,
		  char *err, size_t err_len);

/*
 * The same for compiled modules: magic VG_IMAGE_VGPU_MAGIC, key
 * VG_JIT_VERSION (with its NUL), so a module of another JIT is refused.
 */
int vg_modfile_save(const struct vg_jit_image *img, unsigned char **out,
		    size_t *len);
int vg_modfile_load(const void *buf, size_t len, struct vg_jit_image **out,
		    char *err, size_t err_len);

/*
 * The size a compiled module's header claims, for cuModuleLoadData, which
 * gets no size (as with a cubin, the image says how long it is); 0 when
 * the header is unreadable.
 */
size_t vg_image_file_size(const void *image);

/* The info log: one line per kernel with what it uses (as ptxas -v). */
void vg_image_describe(const struct vg_jit_image *img, char *buf, size_t size);

/* A 64-bit hash of @len bytes, chained through @seed (jit_image.c). */
uint64_t vg_hash64(const void *p, size_t len, uint64_t seed);

/*
 * The cache, in the directory and within the size cache_store.h gives.
 * vg_jit_cache_lookup returns
 * the image compiled earlier from exactly @ptx, or NULL; an entry that is
 * unreadable, corrupt, truncated or of another JIT build counts as a
 * miss. vg_jit_cache_store writes an entry atomically (a temporary file
 * renamed into place) and silently gives up on any error: the cache only
 * saves time. To keep within the size it first removes the least
 * recently used entries (a hit counts as a use); an entry bigger than the
 * size is not written. vg_jit_compile_cached is vg_jit_compile through
 * the cache.
 */
struct vg_jit_image *vg_jit_cache_lookup(const char *ptx, size_t len);
void vg_jit_cache_store(const struct vg_jit_image *img, const char *ptx,
			size_t len);
int vg_jit_compile_cached(const char *ptx, size_t len,
			  struct vg_jit_image **out, char *err, size_t err_len);

#endif /* VG_JIT_CACHE_H */
