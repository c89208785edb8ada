// SPDX-License-Identifier: MIT
/*
 * Contexts of the first ABI (API version 3010), made by the unsuffixed
 * cuCtxCreate: their device addresses fit the 32-bit CUdeviceptr of that
 * ABI, and the current ABI's allocation calls refuse them, as NVIDIA's
 * driver does on an H100 (tests/e2e/ref/h100_ctx_v1.log). The first
 * ABI's memory calls themselves are in compat_v1.c, its array calls in
 * array_v1.c.
 */
#include <sys/mman.h>

#include "vg.h"

/*
 * The largest window tried: what lies below it (1 GiB) is left to the
 * program, whose text, data and heap sit there when it is not
 * position-independent. Smaller windows are tried down to the smallest.
 */
#define VG_V1_WINDOW_MAX (3ULL << 30)
#define VG_V1_WINDOW_MIN (64ULL << 20)
/* Nothing is placed in the lowest pages, which stay unmapped. */
#define VG_V1_VA_FLOOR VGPU_VA_ALIGN

/* Maps @size inaccessible bytes exactly at @base, or fails. */
static bool vg_v1_map_at(uint64_t base, uint64_t size)
{
	void *p = mmap((void *)(uintptr_t)base, size, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
		       MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED)
		return false;
	/* A kernel without MAP_FIXED_NOREPLACE took @base as a hint only. */
	if ((uintptr_t)p != base) {
		munmap(p, size);
		return false;
	}
	return true;
}

/*
 * Reserves an inaccessible range of this process's address space below
 * 4 GiB: of *@size bytes (a multiple of VGPU_VA_ALIGN) or of
 * VG_V1_WINDOW_MAX if that is less, else of the largest half, quarter,
 * ... of it, down to VG_V1_WINDOW_MIN, that finds room. For a size s the
 * ranges ending at 4 GiB, 4 GiB - s, 4 GiB - 2s, ... are asked for in
 * turn: the kernel refuses those that overlap a mapping. Returns the
 * range and sets *@size to its length, or returns NULL.
 */
void *vg_v1_window_reserve(uint64_t *size)
{
	uint64_t s = *size < VG_V1_WINDOW_MAX ? *size : VG_V1_WINDOW_MAX;
	uint64_t top;

	for (; s >= VG_V1_WINDOW_MIN; s /= 2) {
		s &= ~(VGPU_VA_ALIGN - 1);
		for (top = VG_V1_VA_END; top >= VG_V1_VA_FLOOR + s; top -= s) {
			if (vg_v1_map_at(top - s, s)) {
				*size = s;
				return (void *)(uintptr_t)(top - s);
			}
		}
	}
	return NULL;
}

/*
 * Is the calling thread's current context one of the first ABI? The flag
 * is set before a context is handed out and never changes: no lock.
 */
bool vg_v1_current(void)
{
	const struct CUctx_st *ctx = vg_ctx_current();

	return ctx && ctx->abi_v1;
}

/*
 * The current ABI's calls that make or free device memory answer
 * CUDA_ERROR_INVALID_CONTEXT while a context of the first ABI is current.
 * Probed on an H100: cuMemAlloc_v2 and cuMemFree_v2, the latter for a
 * null pointer, which it takes in any other context. Assumed:
 * cuMemAllocPitch_v2, an allocation too, does the same. The current
 * ABI's copies, fills and queries were not probed there; they keep
 * working, their 64-bit arguments holding any address of such a context.
 */
CUresult vg_v1_gate(void)
{
	return vg_v1_current() ? CUDA_ERROR_INVALID_CONTEXT : CUDA_SUCCESS;
}

/*
 * Whether a call of the first ABI goes on: CUDA_SUCCESS when a context of
 * that ABI is current; else what the call answers, having cleared the
 * outputs given (either may be NULL) once initialized.
 */
CUresult vg_v1_enter(unsigned int *a, unsigned int *b)
{
	CUresult r = vg_check_init();

	if (r)
		return r;
	if (vg_v1_current())
		return CUDA_SUCCESS;
	if (a)
		*a = 0;
	if (b)
		*b = 0;
	return CUDA_ERROR_INVALID_CONTEXT;
}
