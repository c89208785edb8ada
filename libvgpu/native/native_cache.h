/* SPDX-License-Identifier: MIT */
/*
 * The on-disk cache of compiled kernels (native_cache.c): an entry per
 * key, holding the object file LLVM emitted for it.
 */
#ifndef VGPU_NATIVE_CACHE_H
#define VGPU_NATIVE_CACHE_H

#include "native_rt.h"

/*
 * @k's key (malloc'd, *@key_len bytes) for code generated for @target
 * (@target_len bytes naming LLVM, the target and the CPU), or NULL when
 * out of memory.
 */
unsigned char *nrt_cache_key(const struct vgpu_native_kernel *k,
			     const char *target, size_t target_len,
			     size_t *key_len);

/*
 * The object stored under @key (malloc'd, *@obj_len bytes), or NULL: no
 * entry, the cache off, or an entry that is unreadable, truncated,
 * corrupt or of another key.
 */
unsigned char *nrt_cache_lookup(const unsigned char *key, size_t key_len,
				size_t *obj_len);

/* Stores @obj under @key; gives up silently (the cache only saves time). */
void nrt_cache_store(const unsigned char *key, size_t key_len,
		     const void *obj, size_t obj_len);

#endif /* VGPU_NATIVE_CACHE_H */
