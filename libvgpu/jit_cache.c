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
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jit_cache.h"

/* The largest entry written: bigger programs are compiled each time. */
#define VG_CACHE_ENTRY_MAX (64u << 20)
#define VG_BUILD_ID_MAX 64

static unsigned char vg_build_id[VG_BUILD_ID_MAX];
static size_t vg_build_id_len;
static pthread_once_t vg_build_id_once = PTHREAD_ONCE_INIT;

/* The GNU build ID note in one PT_NOTE segment, if there. */
static void vg_find_build_id(const struct dl_phdr_info *info,
			     const ElfW(Phdr) *ph)
{
	const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
	size_t off = 0;

	while (off + sizeof(ElfW(Nhdr)) <= ph->p_memsz) {
		const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)(p + off);
		size_t name = (n->n_namesz + 3) & ~3u, desc = (n->n_descsz + 3) & ~3u;

		off += sizeof(*n);
		if (name > ph->p_memsz - off || desc > ph->p_memsz - off - name)
			return;
		if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
		    !memcmp(p + off, "GNU", 4) && n->n_descsz <= VG_BUILD_ID_MAX) {
			memcpy(vg_build_id, p + off + name, n->n_descsz);
			vg_build_id_len = n->n_descsz;
			return;
		}
		off += name + desc;
	}
}

/* Finds the loaded object that holds the JIT's code. */
static int vg_phdr_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	uintptr_t fn = (uintptr_t)data;
	bool mine = false;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && fn >= start && fn - start < ph->p_memsz)
			mine = true;
	}
	if (!mine)
		return 0;
	for (i = 0; i < info->dlpi_phnum && !vg_build_id_len; i++)
		if (info->dlpi_phdr[i].p_type == PT_NOTE)
			vg_find_build_id(info, &info->dlpi_phdr[i]);
	return 1;
}

static void vg_build_id_init(void)
{
	dl_iterate_phdr(vg_phdr_cb, (void *)(uintptr_t)&vg_jit_compile);
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

char *vg_jit_cache_dir(void)
{
	const char *e = getenv("CUDA_CACHE_DISABLE");
	char *dir;

	if (e && atoi(e))
		return NULL;
	e = getenv("CUDA_CACHE_PATH");
	if (e && *e)
		return strdup(e);
	e = getenv("XDG_CACHE_HOME");	/* the spec ignores relative paths */
	if (e && *e == '/')
		return asprintf(&dir, "%s/vgpu/ComputeCache", e) < 0 ? NULL : dir;
	e = getenv("HOME");
	if (e && *e)
		return asprintf(&dir, "%s/.cache/vgpu/ComputeCache", e) < 0 ? NULL : dir;
	return NULL;
}

uint64_t vg_jit_cache_max_bytes(void)
{
	const char *e = getenv("CUDA_CACHE_MAXSIZE"), *c;
	unsigned long long v;

	if (!e || !*e)
		return VG_CACHE_MAXSIZE_DEFAULT;
	for (c = e; *c; c++)
		if (*c < '0' || *c > '9')
			return VG_CACHE_MAXSIZE_DEFAULT;
	errno = 0;
	v = strtoull(e, NULL, 10);
	if (errno == ERANGE || v > VG_CACHE_MAXSIZE_MAX)
		return VG_CACHE_MAXSIZE_MAX;
	return v ? v : VG_CACHE_MAXSIZE_DEFAULT;
}

#define VG_ENTRY_SUFFIX ".vgjit"

/*
 * The entry's path, or NULL (cache off, or out of memory); the directory
 * in *@dir when @dir is not NULL.
 */
static char *vg_entry_path(const unsigned char *key, size_t key_len,
			   char **dir)
{
	char *d = vg_jit_cache_dir(), *path;
	int r;

	if (!d)
		return NULL;
	r = asprintf(&path, "%s/%016llx" VG_ENTRY_SUFFIX, d,
		     (unsigned long long)vg_hash64(key, key_len, 0));
	if (r >= 0 && dir)
		*dir = d;
	else
		free(d);
	return r < 0 ? NULL : path;
}

/* mkdir -p of the directory part of @path, private to the user. */
static int vg_mkdirs(const char *path)
{
	char *p = strdup(path), *s;
	int r = 0;

	if (!p)
		return -1;
	s = strrchr(p, '/');
	if (s && s != p) {
		*s = 0;
		for (s = p + 1; !r && (s = strchr(s, '/')); s++) {
			*s = 0;
			if (mkdir(p, 0700) && errno != EEXIST)
				r = -1;
			*s = '/';
		}
		if (!r && mkdir(p, 0700) && errno != EEXIST)
			r = -1;
	}
	free(p);
	return r;
}

/* The whole file, if it is a regular file of a plausible size. */
static unsigned char *vg_read_entry(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	unsigned char *buf = NULL;
	struct stat st;
	size_t got = 0;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < VG_IMGFILE_HDR ||
	    (uint64_t)st.st_size > VG_CACHE_ENTRY_MAX)
		goto out;
	buf = malloc((size_t)st.st_size);
	while (buf && got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n <= 0) {
			free(buf);
			buf = NULL;
			break;
		}
		got += (size_t)n;
	}
	*len = got;
out:
	close(fd);
	return buf;
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
		buf = vg_read_entry(path, &size);
	/* A hit is a use: the entry is the last the cache gives up. */
	if (buf && !vg_image_load(buf, size, VG_CACHE_MAGIC, key, key_len,
				  &img, NULL, 0))
		utimensat(AT_FDCWD, path, NULL, AT_SYMLINK_NOFOLLOW);
	free(buf);
	free(path);
	free(key);
	return img;
}

static int vg_write_all(int fd, const unsigned char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* An entry of the directory, as eviction weighs it. */
struct vg_cache_file {
	char *name;
	uint64_t size;
	struct timespec mtime;
};

static int vg_cache_file_cmp(const void *pa, const void *pb)
{
	const struct vg_cache_file *a = pa, *b = pb;

	if (a->mtime.tv_sec != b->mtime.tv_sec)
		return a->mtime.tv_sec < b->mtime.tv_sec ? -1 : 1;
	if (a->mtime.tv_nsec != b->mtime.tv_nsec)
		return a->mtime.tv_nsec < b->mtime.tv_nsec ? -1 : 1;
	return strcmp(a->name, b->name);
}

static bool vg_is_entry_name(const char *name)
{
	size_t n = strlen(name), s = strlen(VG_ENTRY_SUFFIX);

	return n > s && !strcmp(name + n - s, VG_ENTRY_SUFFIX);
}

/*
 * Removes the least recently used entries of directory @dfd until the
 * others and @need more bytes fit in @max; entry @keep (the one about to
 * be replaced) does not count. Only the cache's entries count or go:
 * temporary files being written and whatever else shares the directory
 * stay. Returns whether the new entry fits.
 */
static bool vg_cache_make_room(int dfd, const char *keep, uint64_t need,
			       uint64_t max)
{
	struct vg_cache_file *v = NULL, *bigger;
	size_t n = 0, cap = 0, i;
	uint64_t total = 0;
	struct dirent *e;
	struct stat st;
	bool fits;
	DIR *d;
	int fd = dup(dfd);

	if (fd < 0)
		return false;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return false;
	}
	while ((e = readdir(d))) {
		if (!vg_is_entry_name(e->d_name) || !strcmp(e->d_name, keep))
			continue;
		/* Gone since readdir: another process evicted it. */
		if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			bigger = realloc(v, cap * sizeof(*v));
			if (!bigger)
				break;
			v = bigger;
		}
		v[n].name = strdup(e->d_name);
		if (!v[n].name)
			break;
		v[n].size = (uint64_t)st.st_size;
		v[n].mtime = st.st_mtim;
		total += v[n++].size;
	}
	closedir(d);
	if (v)
		qsort(v, n, sizeof(*v), vg_cache_file_cmp);
	for (i = 0; i < n && total + need > max; i++)
		if (!unlinkat(dfd, v[i].name, 0) || errno == ENOENT)
			total -= v[i].size;
	fits = total + need <= max;
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	return fits;
}

void vg_jit_cache_store(const struct vg_jit_image *img, const char *ptx,
			size_t len)
{
	uint64_t max = vg_jit_cache_max_bytes();
	unsigned char *key, *buf = NULL;
	size_t key_len, size;
	char *path = NULL, *tmp = NULL, *dir = NULL;
	int fd, dfd = -1, r;

	key = vg_cache_key(ptx, len, &key_len);
	if (key)
		path = vg_entry_path(key, key_len, &dir);
	if (!path || vg_mkdirs(path) ||
	    vg_image_save(img, VG_CACHE_MAGIC, key, key_len, &buf, &size) ||
	    size > VG_CACHE_ENTRY_MAX || size > max ||
	    asprintf(&tmp, "%s.XXXXXX", path) < 0) {
		tmp = NULL;
		goto out;
	}
	fd = mkstemp(tmp);
	if (fd < 0)
		goto out;
	r = vg_write_all(fd, buf, size);
	if (close(fd))
		r = -1;
	/*
	 * Room is made and the entry renamed in under the directory's lock,
	 * so that processes storing at once keep the total; where the lock
	 * is not to be had (some network file systems), without it.
	 */
	if (!r) {
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			r = -1;
	}
	if (!r) {
		flock(dfd, LOCK_EX);
		if (!vg_cache_make_room(dfd, strrchr(path, '/') + 1, size, max))
			r = -1;
	}
	if (r || rename(tmp, path))
		unlink(tmp);
	if (dfd >= 0)
		close(dfd);	/* and the lock with it */
out:
	free(tmp);
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
