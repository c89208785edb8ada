/* SPDX-License-Identifier: MIT */
/*
 * How many user-mode SMs this process holds: its open files of the
 * module's SMs ("anon_inode:[vgpu-usm]"), counted in /proc/self/fd. What
 * the tests and benches of the native engine look at to know where their
 * launches ran. -1 when /proc cannot be read.
 */
#ifndef VGPU_USM_FILES_H
#define VGPU_USM_FILES_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static inline int usm_files(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char path[300], target[64];
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		ssize_t len;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = 0;
		n += !strcmp(target, "anon_inode:[vgpu-usm]");
	}
	closedir(d);
	return n;
}

#endif /* VGPU_USM_FILES_H */
