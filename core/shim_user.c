// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The core's host functions in user space (unit tests, fuzzers,
 * benchmarks); vgpu.ko provides its own in kmod/vgpu_core_shim.c. Here
 * the memory a kernel reaches (the "mmu" handle) is an array of ranges
 * ending with one of size 0.
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "core.h"

int vgpu_core_snprintf(char *buf, unsigned long size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

bool vgpu_core_lookup(void *mmu, u64 va, struct vgpu_range *r)
{
	const struct vgpu_range *ranges = mmu;

	for (; ranges && ranges->size; ranges++) {
		if (va - ranges->va < ranges->size) {
			*r = *ranges;
			return true;
		}
	}
	return false;
}

/*
 * User-space builds have no device heap: malloc finds no room, as in a
 * context without one, and free accepts only 0 and mapped addresses.
 */
u64 vgpu_core_malloc(void *mmu, u64 size)
{
	(void)mmu;
	(void)size;
	return 0;
}

u32 vgpu_core_free(void *mmu, u64 va)
{
	struct vgpu_range r;

	if (!va || vgpu_core_lookup(mmu, va, &r))
		return VGPU_FAULT_NONE;
	return VGPU_FAULT_ADDRESS;
}

u64 vgpu_core_time_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}
