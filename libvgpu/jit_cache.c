// SPDX-License-Identifier: MIT
/*
 * The on-disk JIT cache: compiled PTX kept across processes, as NVIDIA's
 * driver keeps its ComputeCache, so a program pays for the JIT once.
 *
 * An entry's name is a hash of its key; the key itself, stored in the
 * entry and compared in full on lookup, is the JIT's version, the build ID
 * of the library holding the JIT, and the whole PTX text, so a hash
 * collision or a rebuilt compiler can only cost a miss. Entries are
 * written to a temporary file and renamed into place: readers see a whole
 * entry or none, and a torn or corrupt one fails its checksum and is
 * compiled and written again.
 *
 * The entries together stay within CUDA_CACHE_MAXSIZE bytes: before one
 * is renamed into place, the least recently used go (by modification
 * time, which a hit renews) until it fits. Processes sharing the
 * directory take turns at that through a lock on the directory; any of
 * them may remove an entry another is reading or has just looked at,
 * which costs that one a compile, never a wrong image.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache_store.h"
#include "jit_cache.h"

static unsigned char vg_build_id[VG_BUILD_ID_MAX];
static size_t vg_build_id_len;
static pthread_once_t vg_build_id_once = PTHREAD_ONCE_INIT;

static void vg_build_id_init(void)
{
	vg_build_id_len = vg_cache_build_id((const void *)(uintptr_t)&vg_jit_compile,
					    vg_build_id, sizeof(vg_build_id));
}

/* VG_JIT_VERSION, NUL, the build ID's length and bytes, the PTX text. */
static unsigned char *vg_cache_key(const char *ptx, size_t len, size_t *key_len)
{
	size_t vlen = sizeof(VG_JIT_VERSION);
	uint32_t blen;
	unsigned char *k;

	pthread_once(&vg_build_id_once, vg_build_id_init);
	blen = (uint32_t)vg_build_id_len;
	*key_len = vlen + sizeof(blen) + blen + len;
	k = malloc(*key_len);
	if (!k)
		return NULL;
	memcpy(k, VG_JIT_VERSION, vlen);
	memcpy(k + vlen, &blen, sizeof(blen));
	memcpy(k + vlen + sizeof(blen), vg_build_id, blen);
	memcpy(k + vlen + sizeof(blen) + blen, ptx, len);
	return k;
}

/* The entry's path, or NULL (cache off, or out of memory). */
static char *vg_entry_path(const unsigned char *key, size_t key_len,
			   char **dir)
{
	return vg_cache_entry_path(vg_hash64(key, key_len, 0), dir);
}

struct vg_jit_image *vg_jit_cache_lookup(const char *ptx, size_t len)
{
	struct vg_jit_image *img = NULL;
	unsigned char *key, *buf = NULL;
	size_t key_len, size = 0;
	char *path = NULL;

	key = vg_cache_key(ptx, len, &key_len);
	if (key)
		path = vg_entry_path(key, key_len, NULL);
	if (path)
		buf = vg_cache_read(path, VG_IMGFILE_HDR, &size);
	/* A hit is a use: the entry is the last the cache gives up. */
	if (buf && !vg_image_load(buf, size, VG_CACHE_MAGIC, key, key_len,
				  &img, NULL, 0))
		vg_cache_touch(path);
	free(buf);
	free(path);
	free(key);
	return img;
}

void vg_jit_cache_store(const struct vg_jit_image *img, const char *ptx,
			size_t len)
{
	unsigned char *key, *buf = NULL;
	size_t key_len, size;
	char *path = NULL, *dir = NULL;

	key = vg_cache_key(ptx, len, &key_len);
	if (key)
		path = vg_entry_path(key, key_len, &dir);
	if (path && !vg_image_save(img, VG_CACHE_MAGIC, key, key_len, &buf, &size))
		vg_cache_write(path, dir, buf, size);
	free(buf);
	free(path);
	free(dir);
	free(key);
}

int vg_jit_compile_cached(const char *ptx, size_t len,
			  struct vg_jit_image **out, char *err, size_t err_len)
{
	struct vg_jit_image *img = vg_jit_cache_lookup(ptx, len);
	int r;

	if (img) {
		if (err_len)
			err[0] = 0;
		*out = img;
		return 0;
	}
	r = vg_jit_compile(ptx, len, out, err, err_len);
	if (r)
		return r;
	vg_jit_cache_store(*out, ptx, len);
	return 0;
}
