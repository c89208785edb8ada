// SPDX-License-Identifier: MIT
/*
 * Reading a whole file (cuModuleLoad, cuLinkAddFile, vgpu-ptxas), with a
 * NUL after its bytes so that PTX text can be taken as a C string.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "vg.h"

#define VG_FILE_MAX (256u << 20)	/* no module image is larger */

/**
 * vg_read_file() - the bytes of @path in a malloc'd buffer, NUL after
 * them, their count in *@len. NULL with errno set: ENOENT and the like
 * from fopen, EFBIG past VG_FILE_MAX, ENOMEM.
 */
char *vg_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL, *nb;
	size_t cap = 0, n;
	int err;

	*len = 0;
	if (!f)
		return NULL;
	do {
		if (*len + 1 >= cap) {
			err = cap >= VG_FILE_MAX ? EFBIG : ENOMEM;
			nb = cap >= VG_FILE_MAX ? NULL :
				realloc(buf, cap = cap ? cap * 2 : 65536);
			if (!nb) {
				free(buf);
				fclose(f);
				errno = err;
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + *len, 1, cap - *len - 1, f);
		*len += n;
	} while (n);
	err = ferror(f) ? EIO : 0;
	fclose(f);
	if (err) {
		free(buf);
		errno = err;
		return NULL;
	}
	buf[*len] = 0;
	return buf;
}
