/* SPDX-License-Identifier: MIT */
/*
 * vgem, the kernel's virtual GEM driver, as another driver whose buffers
 * the tests share with vgpu as dma-bufs. Needs libdrm.
 */
#ifndef VGPU_TESTS_VGEM_H
#define VGPU_TESTS_VGEM_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

/* vgem's node, loading the module if need be; -1 without one. */
static inline int open_vgem(void)
{
	char path[32];
	int i, fd, tries;

	for (tries = 0; tries < 2; tries++) {
		for (i = 0; i < 16; i++) {
			drmVersionPtr v;

			snprintf(path, sizeof(path), "/dev/dri/card%d", i);
			fd = open(path, O_RDWR | O_CLOEXEC);
			if (fd < 0)
				continue;
			v = drmGetVersion(fd);
			if (v && !strcmp(v->name, "vgem")) {
				drmFreeVersion(v);
				return fd;
			}
			drmFreeVersion(v);
			close(fd);
		}
		if (system("modprobe vgem >/dev/null 2>&1"))
			break;
	}
	return -1;
}

#endif /* VGPU_TESTS_VGEM_H */
