// SPDX-License-Identifier: MIT
/*
 * The on-disk cache's files (cache_store.h): where they live, reading one
 * whole, writing one so that readers see all of it or none while the
 * directory keeps within its size, and the build ID that keys them.
 */
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache_store.h"

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

char *vg_cache_entry_path(uint64_t hash, char **dir)
{
	char *d = vg_jit_cache_dir(), *path;
	int r;

	if (!d)
		return NULL;
	r = asprintf(&path, "%s/%016llx" VG_CACHE_SUFFIX, d, (unsigned long long)hash);
	if (r >= 0 && dir)
		*dir = d;
	else
		free(d);
	return r < 0 ? NULL : path;
}

void vg_cache_touch(const char *path)
{
	utimensat(AT_FDCWD, path, NULL, AT_SYMLINK_NOFOLLOW);
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

unsigned char *vg_cache_read(const char *path, size_t min, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	unsigned char *buf = NULL;
	struct stat st;
	size_t got = 0;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size < min ||
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
	size_t n = strlen(name), s = strlen(VG_CACHE_SUFFIX);

	return n > s && !strcmp(name + n - s, VG_CACHE_SUFFIX);
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

void vg_cache_write(const char *path, const char *dir, const void *buf,
		    size_t size)
{
	uint64_t max = vg_jit_cache_max_bytes();
	char *tmp = NULL;
	int fd, dfd = -1, r;

	if (size > VG_CACHE_ENTRY_MAX || size > max || vg_mkdirs(path) ||
	    asprintf(&tmp, "%s.XXXXXX", path) < 0)
		return;
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
}

struct vg_build_id_find {
	uintptr_t fn;
	unsigned char *out;
	size_t max, len;
};

/* The GNU build ID note in one PT_NOTE segment, if there. */
static void vg_find_build_id(const struct dl_phdr_info *info,
			     const ElfW(Phdr) *ph, struct vg_build_id_find *f)
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
		    !memcmp(p + off, "GNU", 4) && n->n_descsz <= f->max) {
			memcpy(f->out, p + off + name, n->n_descsz);
			f->len = n->n_descsz;
			return;
		}
		off += name + desc;
	}
}

/* Finds the loaded object that holds the code at f->fn. */
static int vg_phdr_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct vg_build_id_find *f = data;
	bool mine = false;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && f->fn >= start && f->fn - start < ph->p_memsz)
			mine = true;
	}
	if (!mine)
		return 0;
	for (i = 0; i < info->dlpi_phnum && !f->len; i++)
		if (info->dlpi_phdr[i].p_type == PT_NOTE)
			vg_find_build_id(info, &info->dlpi_phdr[i], f);
	return 1;
}

size_t vg_cache_build_id(const void *fn, unsigned char *out, size_t max)
{
	struct vg_build_id_find f = { .fn = (uintptr_t)fn, .out = out, .max = max };

	dl_iterate_phdr(vg_phdr_cb, &f);
	return f.len;
}
