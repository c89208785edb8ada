// SPDX-License-Identifier: MIT
/*
 * Moves between the caller's pageable memory and the staging buffer that
 * refuse memory the caller may not touch (unmapped, or read-only where the
 * copy writes) instead of faulting in libvgpu. NVIDIA's driver dies of
 * SIGSEGV there (tests/e2e/ref/h100_robust.log); vgpu's copies answer
 * CUDA_ERROR_INVALID_VALUE.
 *
 * The fast path asks the kernel to fault the pages in with the access
 * the move needs (MADV_POPULATE_READ/WRITE, Linux 5.14), which answers an
 * error where a memcpy would fault, then moves them with memcpy: a check
 * that costs about what touching the pages does. Where it fails (or the
 * kernel is older) the kernel's copy between processes, used on this very
 * process (process_vm_readv/writev), does the move or fails with EFAULT.
 * The kernel refuses both on what it cannot pin (VM_IO or VM_PFNMAP
 * mappings of a device) though a memcpy reaches it, and seccomp may refuse
 * the calls: then the rows are checked against /proc/self/maps and moved
 * with memcpy if the mappings allow it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "vg.h"

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#define MADV_POPULATE_WRITE 23
#endif

/* Rows handed to the kernel at once (IOV_MAX is 1024). */
#define VG_ROW_BATCH 256

/* The calls are refused in this process (ENOSYS, EPERM): maps only. */
static atomic_bool vg_pvm_refused;

/*
 * Whether /proc/self/maps maps each of @rows (ascending, apart) readable,
 * and writable if @write. A line longer than the buffer is skipped in
 * pieces: only a piece that starts a line is parsed.
 */
static bool vg_maps_allow(const struct iovec *rows, size_t n, bool write)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[256], perms[8];
	unsigned long lo, hi;
	bool starts = true, ok = false;
	uintptr_t at = n ? (uintptr_t)rows[0].iov_base : 0;
	size_t i = 0;

	if (!f)
		return false;
	while (i < n && fgets(line, sizeof(line), f)) {
		bool parse = starts;

		starts = strchr(line, '\n') != NULL;
		if (!parse || sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 ||
		    hi <= at)
			continue;
		if (lo > at || perms[0] != 'r' || (write && perms[1] != 'w'))
			break;
		/* [at, hi) is allowed: past the rows it covers. */
		while (i < n && at < hi) {
			uintptr_t end = (uintptr_t)rows[i].iov_base + rows[i].iov_len;

			if (end > hi) {
				at = hi;
			} else if (++i < n) {
				at = (uintptr_t)rows[i].iov_base;
			}
		}
	}
	ok = i == n;
	fclose(f);
	return ok;
}

/* Whether this kernel knows MADV_POPULATE_*: set once, by a probe. */
static bool vg_populate_known;
static pthread_once_t vg_populate_once = PTHREAD_ONCE_INIT;

static void vg_populate_probe(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	vg_populate_known = !madvise(p, page, MADV_POPULATE_WRITE);
	munmap(p, page);
}

/*
 * Whether every page from the first of @rows (@total bytes) to the end of
 * the last is mapped with the access a move needs, now faulted in. The
 * gaps between rows are asked for too, in one call for them all, unless
 * they are most of the span; where a gap is not mapped the slower paths
 * look at the rows alone.
 */
static bool vg_populated(const struct iovec *rows, size_t n, size_t total,
			 bool write)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t lo = (uintptr_t)rows[0].iov_base & ~(page - 1), hi;

	pthread_once(&vg_populate_once, vg_populate_probe);
	if (!vg_populate_known)
		return false;
	hi = (uintptr_t)rows[n - 1].iov_base + rows[n - 1].iov_len;
	if (hi - lo > 2 * (total + n * page))
		return false;
	return !madvise((void *)lo, hi - lo,
			write ? MADV_POPULATE_WRITE : MADV_POPULATE_READ);
}

/*
 * The kernel's copy between processes, on this very one: whether all of
 * @rows moved. A partial move stops at a page it could not reach.
 */
static bool vg_host_pvm(bool put, unsigned char *stage,
			const struct iovec *rows, size_t n, size_t total)
{
	struct iovec local = { .iov_base = stage, .iov_len = total };
	ssize_t r;

	if (atomic_load_explicit(&vg_pvm_refused, memory_order_relaxed))
		return false;
	/* Not a cached pid: a fork()ed child must name itself. */
	r = put ? process_vm_writev(getpid(), &local, 1, rows, n, 0) :
		process_vm_readv(getpid(), &local, 1, rows, n, 0);
	if (r < 0 && (errno == ENOSYS || errno == EPERM))
		atomic_store(&vg_pvm_refused, true);
	return r == (ssize_t)total;
}

/* @rows, known to be reachable, to (@put) or from @stage. */
static void vg_host_memcpy(bool put, unsigned char *stage,
			   const struct iovec *rows, size_t n)
{
	size_t i, off;

	for (i = 0, off = 0; i < n; off += rows[i].iov_len, i++) {
		if (put)
			memcpy(rows[i].iov_base, stage + off, rows[i].iov_len);
		else
			memcpy(stage + off, rows[i].iov_base, rows[i].iov_len);
	}
}

/* Moves @n rows, @total bytes, to (@put) or from @stage, packed there. */
static bool vg_host_move(bool put, unsigned char *stage,
			 const struct iovec *rows, size_t n, size_t total)
{
	if (!vg_populated(rows, n, total, put)) {
		if (vg_host_pvm(put, stage, rows, n, total))
			return true;
		if (!vg_maps_allow(rows, n, put))
			return false;
	}
	vg_host_memcpy(put, stage, rows, n);
	return true;
}

/*
 * Moves @rows rows of @width bytes, @pitch apart at @host, to (@put) or
 * from @stage, where they are packed; false if the caller may not touch
 * some of them (nothing is known of what moved then).
 */
bool vg_host_rows(bool put, unsigned char *stage, uintptr_t host,
		  size_t pitch, size_t width, size_t rows)
{
	struct iovec iov[VG_ROW_BATCH];
	size_t i, j, k;

	if (pitch == width) {	/* one run of bytes */
		width *= rows;
		rows = 1;
	}
	for (i = 0; i < rows; i += k) {
		k = rows - i < VG_ROW_BATCH ? rows - i : VG_ROW_BATCH;
		for (j = 0; j < k; j++) {
			iov[j].iov_base = (void *)(host + (i + j) * pitch);
			iov[j].iov_len = width;
		}
		if (!vg_host_move(put, stage + i * width, iov, k, k * width))
			return false;
	}
	return true;
}
