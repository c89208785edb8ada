// SPDX-License-Identifier: MIT
/*
 * The native engine's compiled code kept on disk, next to the PTX JIT's
 * cache (cache_store.h: same directory, size limit, eviction and switch),
 * so a process pays LLVM's compile of a kernel once: seconds under an
 * emulated CPU.
 *
 * An entry's key is everything the code depends on: the engine's
 * version and build (a rebuilt engine may lay its state out anew), LLVM's
 * version, the target and the CPU's name and features the code was
 * generated for, the switches that change the IR, and the kernel's
 * function and instructions. The key is stored in the entry and compared
 * in full, so a hash collision costs a miss; a checksum over key and
 * code catches a torn or corrupt entry, which is compiled again.
 */
#include <stdlib.h>
#include <string.h>

#include "cache_store.h"
#include "native_cache.h"

/* Bump with any change to the code's conventions the build ID misses. */
#define NRT_CACHE_VERSION "vgpu-native-3"
#define NRT_CACHE_MAGIC "VGNATOBJ"

struct nrt_cache_hdr {
	char magic[8];
	u32 key_len;
	u32 pad;
	u64 obj_len;
	u64 sum;	/* of the key and the code */
};

/* A 64-bit hash of @len bytes at @p, chained through @h. */
static u64 nrt_hash(const void *p, size_t len, u64 h)
{
	const unsigned char *b = p;
	u64 w;

	h ^= 0x9e3779b97f4a7c15ULL + len;
	while (len >= 8) {
		memcpy(&w, b, 8);
		h = (h ^ (w * 0xff51afd7ed558ccdULL)) * 0xc4ceb9fe1a85ec53ULL;
		h ^= h >> 29;
		b += 8;
		len -= 8;
	}
	while (len--)
		h = (h ^ *b++) * 0x100000001b3ULL;
	h ^= h >> 33;
	return h * 0xff51afd7ed558ccdULL;
}

static void put(unsigned char **p, const void *src, size_t len)
{
	memcpy(*p, src, len);
	*p += len;
}

unsigned char *nrt_cache_key(const struct vgpu_native_kernel *k,
			     const char *target, size_t target_len,
			     size_t *key_len)
{
	static const char version[] = NRT_CACHE_VERSION;
	unsigned char id[VG_BUILD_ID_MAX], *key, *p;
	size_t id_len, insns = (size_t)k->ninsns * sizeof(*k->insns);
	/* The code's shape: wide registers only; a block function or not. */
	u8 wide = (u8)(getenv("VGPU_NATIVE_WIDE") != NULL) | (u8)(k->straight << 1) |
		  (u8)(k->phased << 2);
	u32 n32;

	id_len = vg_cache_build_id((const void *)(uintptr_t)&nrt_cache_key, id, sizeof(id));
	*key_len = sizeof(version) + sizeof(n32) + id_len + sizeof(n32) + target_len +
		   sizeof(wide) + sizeof(k->func) + sizeof(n32) + insns;
	key = malloc(*key_len);
	if (!key)
		return NULL;
	p = key;
	put(&p, version, sizeof(version));
	n32 = (u32)id_len;
	put(&p, &n32, sizeof(n32));
	put(&p, id, id_len);
	n32 = (u32)target_len;
	put(&p, &n32, sizeof(n32));
	put(&p, target, target_len);
	put(&p, &wide, sizeof(wide));
	put(&p, &k->func, sizeof(k->func));
	put(&p, &k->ninsns, sizeof(n32));
	put(&p, k->insns, insns);
	return key;
}

static char *nrt_entry_path(const unsigned char *key, size_t key_len, char **dir)
{
	return vg_cache_entry_path(nrt_hash(key, key_len, 0), dir);
}

unsigned char *nrt_cache_lookup(const unsigned char *key, size_t key_len,
				size_t *obj_len)
{
	struct nrt_cache_hdr h;
	unsigned char *buf = NULL, *obj = NULL;
	char *path = nrt_entry_path(key, key_len, NULL);
	size_t len = 0;

	if (path)
		buf = vg_cache_read(path, sizeof(h), &len);
	if (!buf)
		goto out;
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, NRT_CACHE_MAGIC, sizeof(h.magic)) || h.key_len != key_len ||
	    len - sizeof(h) <= key_len || h.obj_len != len - sizeof(h) - key_len ||
	    memcmp(buf + sizeof(h), key, key_len) ||
	    h.sum != nrt_hash(buf + sizeof(h), len - sizeof(h), 0))
		goto out;
	obj = malloc(h.obj_len);
	if (!obj)
		goto out;
	memcpy(obj, buf + sizeof(h) + key_len, h.obj_len);
	*obj_len = h.obj_len;
	vg_cache_touch(path);
out:
	free(buf);
	free(path);
	return obj;
}

void nrt_cache_store(const unsigned char *key, size_t key_len,
		     const void *obj, size_t obj_len)
{
	struct nrt_cache_hdr h = { .magic = NRT_CACHE_MAGIC };
	char *dir = NULL, *path = nrt_entry_path(key, key_len, &dir);
	size_t len = sizeof(h) + key_len + obj_len;
	unsigned char *buf;

	if (!path || key_len > VG_CACHE_ENTRY_MAX || obj_len > VG_CACHE_ENTRY_MAX)
		goto out;
	buf = malloc(len);
	if (!buf)
		goto out;
	memcpy(buf + sizeof(h), key, key_len);
	memcpy(buf + sizeof(h) + key_len, obj, obj_len);
	h.key_len = (u32)key_len;
	h.obj_len = obj_len;
	h.sum = nrt_hash(buf + sizeof(h), key_len + obj_len, 0);
	memcpy(buf, &h, sizeof(h));
	vg_cache_write(path, dir, buf, len);
	free(buf);
out:
	free(path);
	free(dir);
}
