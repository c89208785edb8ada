/* SPDX-License-Identifier: MIT */
/*
 * The on-disk cache's files, which the PTX JIT's cache (jit_cache.c) and
 * the native engine's cache of compiled code (libvgpu/native) share: one
 * directory, one size limit, one eviction order. The native engine is a
 * library of its own and links its own copy of cache_store.c.
 *
 * Entries live in $CUDA_CACHE_PATH, else $XDG_CACHE_HOME/vgpu/ComputeCache,
 * else ~/.cache/vgpu/ComputeCache (NVIDIA's driver uses ~/.nv/ComputeCache:
 * ours never mixes with it); CUDA_CACHE_DISABLE=1 turns the cache off.
 * Their entries take at most CUDA_CACHE_MAXSIZE bytes, as NVIDIA documents
 * it: 256 MiB when unset, 0 or not a number, 4 GiB when above that. All
 * are read at each call.
 */
#ifndef VG_CACHE_STORE_H
#define VG_CACHE_STORE_H

#include <stddef.h>
#include <stdint.h>

#define VG_CACHE_MAXSIZE_DEFAULT (256ULL << 20)
#define VG_CACHE_MAXSIZE_MAX (4ULL << 30)
/* The largest entry written or read. */
#define VG_CACHE_ENTRY_MAX (64u << 20)
/* Every entry's name ends so, whoever wrote it: eviction weighs them all. */
#define VG_CACHE_SUFFIX ".vgjit"

/* The directory (malloc'd), or NULL when the cache is off or unnamed. */
char *vg_jit_cache_dir(void);
/* The size in force. */
uint64_t vg_jit_cache_max_bytes(void);

/*
 * The path of the entry whose key hashes to @hash, or NULL (cache off, or
 * out of memory); the directory (malloc'd) in *@dir when @dir is not NULL.
 */
char *vg_cache_entry_path(uint64_t hash, char **dir);

/*
 * The whole file at @path (malloc'd) when it is a regular file of at
 * least @min and at most VG_CACHE_ENTRY_MAX bytes, else NULL. The reader
 * checks what it holds.
 */
unsigned char *vg_cache_read(const char *path, size_t min, size_t *len);

/* A hit is a use: the entry becomes the last the cache gives up. */
void vg_cache_touch(const char *path);

/*
 * Writes @size bytes at @buf as the entry at @path in directory @dir,
 * atomically (a temporary file renamed into place), first removing the
 * least recently used entries until it fits; silently gives up on any
 * error or when it cannot fit: the cache only saves time.
 */
void vg_cache_write(const char *path, const char *dir, const void *buf,
		    size_t size);

#define VG_BUILD_ID_MAX 64

/*
 * The GNU build ID of the loaded object holding the code at @fn, into
 * @out (@max bytes): its length, 0 when there is none. Entries are keyed
 * by the build of the compiler that made them, so a rebuilt one misses.
 */
size_t vg_cache_build_id(const void *fn, unsigned char *out, size_t max);

#endif /* VG_CACHE_STORE_H */
