// SPDX-License-Identifier: GPL-2.0
/*
 * The compute core's host functions inside vgpu.ko (kmod/core/core.h);
 * user-space builds of the core use kmod/core/shim_user.c instead.
 */
#include <linux/kernel.h>
#include <linux/ktime.h>

#include "core/core.h"

int vgpu_core_snprintf(char *buf, unsigned long size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

u64 vgpu_core_time_ns(void)
{
	return ktime_get_ns();
}

/*
 * Device memory for kernels: until launches exist (the launch command
 * comes with the compute engine), no range is reachable.
 */
bool vgpu_core_lookup(void *mmu, u64 va, struct vgpu_range *r)
{
	return false;
}
