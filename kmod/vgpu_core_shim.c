// SPDX-License-Identifier: GPL-2.0
/*
 * The compute core's host functions inside vgpu.ko (kmod/core/core.h);
 * user-space builds of the core use kmod/core/shim_user.c instead.
 */
#include <linux/kernel.h>

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
