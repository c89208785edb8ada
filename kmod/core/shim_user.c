// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * The core's host functions in user space (unit tests, fuzzers,
 * benchmarks); vgpu.ko provides its own in kmod/vgpu_core_shim.c.
 */
#include <stdarg.h>
#include <stdio.h>

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
